/* ptx_index.c: name look-up tables of a module: functions, and symbols at module scope.
 *
 * The runtime finds every registered kernel and variable of a module by name; with a scan per
 * name, loading a module of 100,000 kernels took minutes. Two open-addressing tables of symbol
 * and function ids, keyed by name, make each look-up constant time. Allocation never unwinds
 * (ptx_oom.c) here: the tables are built both inside a parse and for modules the runtime links
 * by hand, and a module without tables still works, only more slowly.
 */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

struct ptx_name_index {
    int32_t *funcs;     /* function index, or -1 */
    int32_t *syms;      /* module-scope symbol id, or -1 */
    uint32_t fcap, scap;   /* powers of two */
    bool in_arena;
};

static uint32_t table_size(uint32_t n)
{
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)n + 1 && cap < (UINT32_C(1) << 31))
        cap *= 2;
    return cap;
}

static void *get_mem(ptx_module *m, size_t bytes)
{
    if (m->arena)
        return ptx_arena_try_alloc(m->arena, bytes);
    return calloc(1, bytes ? bytes : 1);
}

/* Which of two functions of one name a look-up returns (as a scan would): the first
 * definition, else the last declaration. Prototypes (.callprototype) never: they are local
 * names. */
static bool better_func(const ptx_module *m, int32_t cand, int32_t old)
{
    (void)cand;
    return old < 0 || m->funcs[old].is_decl;
}

static bool is_prototype(const ptx_module *m, uint32_t f)
{
    const ptx_function *fn = &m->funcs[f];
    return fn->sym >= 0 && (uint32_t)fn->sym < m->nsyms && m->syms[fn->sym].owner >= 0;
}

bool ptx_module_index_build(ptx_module *m)
{
    if (!m)
        return false;
    struct ptx_name_index *ix = get_mem(m, sizeof *ix);
    if (!ix)
        return false;
    ix->in_arena = m->arena != NULL;
    ix->fcap = table_size(m->nfuncs);
    ix->scap = table_size(m->nsyms);
    ix->funcs = get_mem(m, ix->fcap * sizeof *ix->funcs);
    ix->syms = get_mem(m, ix->scap * sizeof *ix->syms);
    if (!ix->funcs || !ix->syms) {
        if (!ix->in_arena) {
            free(ix->funcs);
            free(ix->syms);
            free(ix);
        }
        return false;
    }
    memset(ix->funcs, 0xff, ix->fcap * sizeof *ix->funcs);
    memset(ix->syms, 0xff, ix->scap * sizeof *ix->syms);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const char *nm = m->funcs[f].name;
        if (!nm || is_prototype(m, f))
            continue;
        size_t len = strlen(nm);
        for (uint32_t i = ptx_hash(nm, len) & (ix->fcap - 1);; i = (i + 1) & (ix->fcap - 1)) {
            int32_t old = ix->funcs[i];
            if (old < 0 || strcmp(m->funcs[old].name, nm) == 0) {
                if (better_func(m, (int32_t)f, old))
                    ix->funcs[i] = (int32_t)f;
                break;
            }
        }
    }
    for (uint32_t s = 0; s < m->nsyms; s++) {
        const char *nm = m->syms[s].name;
        if (!nm || m->syms[s].owner != -1)
            continue;
        size_t len = strlen(nm);
        for (uint32_t i = ptx_hash(nm, len) & (ix->scap - 1);; i = (i + 1) & (ix->scap - 1)) {
            int32_t old = ix->syms[i];
            if (old < 0) {
                ix->syms[i] = (int32_t)s;   /* the first of a name, as the scan finds it */
                break;
            }
            if (strcmp(m->syms[old].name, nm) == 0)
                break;
        }
    }
    m->index = ix;
    return true;
}

void ptx_module_index_free(ptx_module *m)
{
    if (!m || !m->index)
        return;
    if (!m->index->in_arena) {
        free(m->index->funcs);
        free(m->index->syms);
        free(m->index);
    }
    m->index = NULL;
}

int32_t ptx_index_find_function(const ptx_module *m, const char *name)
{
    const struct ptx_name_index *ix = m->index;
    size_t len = strlen(name);
    for (uint32_t i = ptx_hash(name, len) & (ix->fcap - 1);; i = (i + 1) & (ix->fcap - 1)) {
        int32_t f = ix->funcs[i];
        if (f < 0 || strcmp(m->funcs[f].name, name) == 0)
            return f;
    }
}

int32_t ptx_index_find_symbol(const ptx_module *m, const char *name)
{
    const struct ptx_name_index *ix = m->index;
    size_t len = strlen(name);
    for (uint32_t i = ptx_hash(name, len) & (ix->scap - 1);; i = (i + 1) & (ix->scap - 1)) {
        int32_t s = ix->syms[i];
        if (s < 0 || strcmp(m->syms[s].name, name) == 0)
            return s;
    }
}
