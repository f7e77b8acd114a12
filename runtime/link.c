/* link.c: links the translation units of an -rdc program into one module, as nvlink links
 * their device code: a unit's `.extern` functions and variables bind to the `.visible`
 * definitions of another unit, and `.weak` definitions (template instances, inline variables)
 * that several units carry become one.
 *
 * The linked module is built from the units' parsed IR without re-parsing: symbols, functions
 * and file tables are concatenated, and every symbol reference (operands, call targets,
 * initialiser relocations, owners) is renumbered; an extern reference is renumbered straight to
 * its definition. Whatever holds no symbol or function numbers (register tables, blocks,
 * scopes, names, initial bytes) is shared with the units, which outlive the linked module.
 * Function-scope and internal (non-visible) symbols stay per unit, so equal internal names in
 * two units (`$str` of printf formats, say) never collide.
 */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything the linked module allocates, freed together. */
typedef struct link_block {
    struct link_block *next;
    max_align_t data[];
} link_block;

struct rt_linked {
    ptx_module mod;
    link_block *blocks;
};

static void *link_alloc(rt_linked *l, size_t size)
{
    link_block *b = calloc(1, sizeof *b + (size ? size : 1));
    if (!b)
        return NULL;
    b->next = l->blocks;
    l->blocks = b;
    return b->data;
}

void rt_link_free(rt_linked *l)
{
    if (!l)
        return;
    ptx_module_index_free(&l->mod);
    for (link_block *b = l->blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(l);
}

const ptx_module *rt_linked_module(const rt_linked *l)
{
    return l ? &l->mod : NULL;
}

ptx_module *rt_linked_module_layout(rt_linked *l)
{
    return &l->mod;
}

/* A module-scope variable or function that can stand for other units' references. */
static bool is_definition(const ptx_module *m, const ptx_symbol *s)
{
    if (s->owner != -1 || s->linkage == PTX_LINK_EXTERN)
        return false;
    if (s->kind == PTX_SYM_FUNC)
        return s->func >= 0 && !m->funcs[s->func].is_decl &&
               (s->linkage == PTX_LINK_VISIBLE || s->linkage == PTX_LINK_WEAK);
    return s->kind == PTX_SYM_VAR &&
           (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST) &&
           (s->linkage == PTX_LINK_VISIBLE || s->linkage == PTX_LINK_WEAK ||
            s->linkage == PTX_LINK_COMMON);
}

/* A module-scope reference that a definition in another unit may satisfy: an .extern
 * variable or function, a function prototype without a body, or a weak/common definition
 * that an earlier unit already made. */
static bool is_linkable(const ptx_module *m, const ptx_symbol *s)
{
    if (s->owner != -1)
        return false;
    if (s->kind == PTX_SYM_FUNC)
        return s->func >= 0 && (s->linkage == PTX_LINK_EXTERN || m->funcs[s->func].is_decl ||
                                s->linkage == PTX_LINK_WEAK);
    return s->kind == PTX_SYM_VAR &&
           (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST) &&
           (s->linkage == PTX_LINK_EXTERN || s->linkage == PTX_LINK_WEAK ||
            s->linkage == PTX_LINK_COMMON);
}

static bool copy_operands(rt_linked *l, const ptx_operand *src, uint32_t n, ptx_operand **out,
                          const int32_t *map, int32_t base)
{
    *out = NULL;
    if (!n)
        return true;
    ptx_operand *ops = link_alloc(l, n * sizeof *ops);
    if (!ops)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        ops[i] = src[i];
        if (ops[i].sym >= 0)
            ops[i].sym = map[base + ops[i].sym];
        if (src[i].elems && src[i].nelem &&
            !copy_operands(l, src[i].elems, src[i].nelem, &ops[i].elems, map, base))
            return false;
    }
    *out = ops;
    return true;
}

static int32_t *copy_ids(rt_linked *l, const int32_t *ids, uint32_t n, int32_t base)
{
    if (!n)
        return NULL;
    int32_t *out = link_alloc(l, n * sizeof *out);
    if (out)
        for (uint32_t i = 0; i < n; i++)
            out[i] = ids[i] >= 0 ? ids[i] + base : ids[i];
    return out;
}

rt_linked *rt_link(const ptx_module *const *units, size_t n, const char *name, char *err,
                   size_t errlen)
{
    rt_linked *l = calloc(1, sizeof *l);
    int32_t *sym_base = calloc(n + 1, sizeof *sym_base);
    int32_t *func_base = calloc(n + 1, sizeof *func_base);
    uint32_t *file_base = calloc(n + 1, sizeof *file_base);
    int32_t *map = NULL;
    int32_t *unit_of = NULL;
    if (!l || !sym_base || !func_base || !file_base)
        goto oom;
    for (size_t u = 0; u < n; u++) {
        sym_base[u + 1] = sym_base[u] + (int32_t)units[u]->nsyms;
        func_base[u + 1] = func_base[u] + (int32_t)units[u]->nfuncs;
        file_base[u + 1] = file_base[u] + units[u]->nfiles;
    }
    uint32_t nsyms = (uint32_t)sym_base[n], nfuncs = (uint32_t)func_base[n];
    map = malloc((nsyms ? nsyms : 1) * sizeof *map);
    unit_of = malloc((nsyms ? nsyms : 1) * sizeof *unit_of);
    if (!map || !unit_of)
        goto oom;
    for (size_t u = 0; u < n; u++)
        for (uint32_t i = 0; i < units[u]->nsyms; i++) {
            map[sym_base[u] + (int32_t)i] = sym_base[u] + (int32_t)i;
            unit_of[sym_base[u] + (int32_t)i] = (int32_t)u;
        }

    /* Resolve: each linkable symbol binds to the first definition of its name and kind in
     * unit order (itself, when it is that definition). Quadratic in the module-scope symbols,
     * which number in the tens to hundreds. */
    for (uint32_t g = 0; g < nsyms; g++) {
        const ptx_module *mu = units[unit_of[g]];
        const ptx_symbol *s = &mu->syms[g - (uint32_t)sym_base[unit_of[g]]];
        if (!is_linkable(mu, s))
            continue;
        for (uint32_t h = 0; h < nsyms; h++) {
            const ptx_module *mv = units[unit_of[h]];
            const ptx_symbol *d = &mv->syms[h - (uint32_t)sym_base[unit_of[h]]];
            if (d->kind != s->kind || !is_definition(mv, d) || strcmp(d->name, s->name) != 0)
                continue;
            map[g] = (int32_t)h;
            break;
        }
    }

    ptx_module *m = &l->mod;
    m->name = (char *)name;
    m->address_size = 64;
    m->syms = link_alloc(l, (nsyms ? nsyms : 1) * sizeof *m->syms);
    m->funcs = link_alloc(l, (nfuncs ? nfuncs : 1) * sizeof *m->funcs);
    m->files = link_alloc(l, (file_base[n] ? file_base[n] : 1) * sizeof *m->files);
    if (!m->syms || !m->funcs || !m->files)
        goto oom;
    m->nsyms = nsyms;
    m->nfuncs = nfuncs;
    m->nfiles = file_base[n];

    for (size_t u = 0; u < n; u++) {
        const ptx_module *src = units[u];
        int32_t sb = sym_base[u], fb = func_base[u];
        /* The newest PTX and target of the units describe the whole. */
        if (src->version_major * 100 + src->version_minor >
            m->version_major * 100 + m->version_minor) {
            m->version_major = src->version_major;
            m->version_minor = src->version_minor;
        }
        if (src->sm >= m->sm) {
            m->sm = src->sm;
            m->target = src->target;
        }
        for (uint32_t f = 0; f < src->nfiles; f++)
            m->files[file_base[u] + f] = src->files[f];

        for (uint32_t i = 0; i < src->nsyms; i++) {
            ptx_symbol *d = &m->syms[sb + (int32_t)i];
            *d = src->syms[i];
            if (d->owner >= 0)
                d->owner += fb;
            if (d->func >= 0 && d->kind == PTX_SYM_FUNC)
                d->func += fb;
            if (map[sb + (int32_t)i] != sb + (int32_t)i && d->kind == PTX_SYM_VAR) {
                /* Bound to another unit's storage: this entry must not get its own. */
                d->space = PTX_SPACE_NONE;
                d->nrelocs = 0;
                d->relocs = NULL;
                d->init = NULL;
                d->ninit = 0;
            }
            if (d->nrelocs) {
                d->relocs = link_alloc(l, d->nrelocs * sizeof *d->relocs);
                if (!d->relocs)
                    goto oom;
                for (uint32_t r = 0; r < d->nrelocs; r++) {
                    d->relocs[r] = src->syms[i].relocs[r];
                    if (d->relocs[r].sym >= 0)
                        d->relocs[r].sym = map[sb + d->relocs[r].sym];
                }
            }
        }

        for (uint32_t f = 0; f < src->nfuncs; f++) {
            const ptx_function *sf = &src->funcs[f];
            ptx_function *df = &m->funcs[fb + (int32_t)f];
            *df = *sf;
            if (df->sym >= 0)
                df->sym = map[sb + df->sym];
            df->params = copy_ids(l, sf->params, sf->nparams, sb);
            df->rets = copy_ids(l, sf->rets, sf->nrets, sb);
            if ((sf->nparams && !df->params) || (sf->nrets && !df->rets))
                goto oom;
            if (!sf->ninstrs)
                continue;
            /* its own registers: laying them out (rt_linked_module_layout) leaves the unit's */
            df->regs = link_alloc(l, (sf->nregs ? sf->nregs : 1) * sizeof *df->regs);
            if (!df->regs)
                goto oom;
            memcpy(df->regs, sf->regs, sf->nregs * sizeof *df->regs);
            df->instrs = link_alloc(l, sf->ninstrs * sizeof *df->instrs);
            if (!df->instrs)
                goto oom;
            for (uint32_t k = 0; k < sf->ninstrs; k++) {
                ptx_instr *in = &df->instrs[k];
                *in = sf->instrs[k];
                if (!copy_operands(l, sf->instrs[k].ops, sf->instrs[k].nops, &in->ops, map, sb))
                    goto oom;
                if (in->op == PTX_OP_CALL && in->target >= 0)
                    in->target = map[sb + in->target];
                if (in->dbg_file)
                    in->dbg_file += file_base[u];
            }
        }
        /* A function symbol bound elsewhere keeps its own (bodiless) entry; calls reach the
         * definition through the renumbered operands. */
    }
    free(sym_base);
    free(func_base);
    free(file_base);
    free(map);
    free(unit_of);
    ptx_module_index_build(&l->mod);   /* without it, look-ups scan: slower, still right */
    return l;

oom:
    snprintf(err, errlen, "out of host memory linking %s", name);
    free(sym_base);
    free(func_base);
    free(file_base);
    free(map);
    free(unit_of);
    rt_link_free(l);
    return NULL;
}

/* Names of the unresolved externs (functions and variables) of the linked module, for the
 * message when a call or access reaches one. Writes at most len bytes. Returns how many. */
size_t rt_link_unresolved(const rt_linked *l, char *out, size_t len)
{
    size_t count = 0, used = 0;
    if (len)
        out[0] = 0;
    const ptx_module *m = &l->mod;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->owner != -1 || s->linkage != PTX_LINK_EXTERN || s->space == PTX_SPACE_SHARED)
            continue;
        bool referenced_elsewhere = false;
        if (s->kind == PTX_SYM_FUNC && s->func >= 0 && m->funcs[s->func].sym != (int32_t)i)
            referenced_elsewhere = true;  /* bound: its function entry points elsewhere */
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_NONE)
            referenced_elsewhere = true;
        if (referenced_elsewhere)
            continue;
        count++;
        if (used < len)
            used += (size_t)snprintf(out + used, len - used, "%s%s", count > 1 ? ", " : "",
                                     s->name);
    }
    return count;
}
