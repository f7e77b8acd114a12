/* ptx_dataflow.c: dominators, register liveness and definition/use counts of a function.
 *
 * Computed on demand, not at parse time: decode needs the use counts (FMA contraction), the
 * mechanisms need dominators (KILO TM: a transaction's begin dominates its commit) and liveness
 * (iGPU's idempotent regions, DAB's unused atomic results). Dominators use the iterative
 * algorithm of Cooper, Harvey and Kennedy, as ptx_cfg.c does for post-dominators; liveness is
 * the classic backward dataflow over blocks with register bit sets. A guarded definition does
 * not kill a register (lanes whose guard is false keep the old value). */
#include "frontend/ptx.h"

#include <stdlib.h>
#include <string.h>

static inline void set_bit(uint64_t *s, int32_t r) { s[r >> 6] |= UINT64_C(1) << (r & 63); }
static inline bool get_bit(const uint64_t *s, int32_t r) { return s[r >> 6] >> (r & 63) & 1; }

typedef struct count_ctx { uint32_t *defs, *uses; } count_ctx;

static void count_reg(void *p, int32_t reg, ptx_role role)
{
    count_ctx *c = p;
    if (role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) c->defs[reg]++;
    if (role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) c->uses[reg]++;
}

void ptx_reg_counts(const ptx_function *fn, uint32_t *defs, uint32_t *uses)
{
    memset(defs, 0, fn->nregs * sizeof *defs);
    memset(uses, 0, fn->nregs * sizeof *uses);
    count_ctx c = { defs, uses };
    for (uint32_t i = 0; i < fn->ninstrs; i++) ptx_instr_regs(fn, &fn->instrs[i], count_reg, &c);
}

/* ---------------------------------------------------------------- dominators */

static int32_t intersect(const int32_t *idom, const uint32_t *rpo_num, int32_t a, int32_t b)
{
    while (a != b) {
        while (rpo_num[a] > rpo_num[b]) a = idom[a];
        while (rpo_num[b] > rpo_num[a]) b = idom[b];
    }
    return a;
}

static bool compute_dominators(ptx_dataflow *df)
{
    const ptx_function *fn = df->fn;
    uint32_t n = fn->nblocks;
    bool ok = false;
    uint32_t *order = malloc(n * sizeof *order), *rpo_num = malloc(n * sizeof *rpo_num);
    uint32_t *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next);
    uint8_t *seen = calloc(n, 1);
    if (!order || !rpo_num || !stack || !next || !seen) goto out;
    /* reverse post-order by an explicit depth-first walk from the entry block */
    uint32_t sp = 0, nord = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (next[b] < fn->blocks[b].nsucc) {
            int32_t s = fn->blocks[b].succ[next[b]++];
            if (s >= 0 && (uint32_t)s < n && !seen[s]) {
                seen[s] = 1;
                stack[sp++] = (uint32_t)s;
            }
        } else {
            order[nord++] = b;
            sp--;
        }
    }
    for (uint32_t i = 0; i < n; i++) rpo_num[i] = UINT32_MAX;
    for (uint32_t i = 0; i < nord; i++) rpo_num[order[i]] = nord - 1 - i;
    for (uint32_t i = 0; i < n; i++) df->idom[i] = -1;
    df->idom[0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t k = nord; k-- > 0;) {
            uint32_t b = order[k];
            if (b == 0) continue;
            int32_t nd = -1;
            /* predecessors: every reachable block listing b as a successor */
            for (uint32_t p = 0; p < n; p++) {
                if (rpo_num[p] == UINT32_MAX || df->idom[p] < 0) continue;
                const ptx_block *pb = &fn->blocks[p];
                for (uint32_t s = 0; s < pb->nsucc; s++) {
                    if ((uint32_t)pb->succ[s] != b) continue;
                    nd = nd < 0 ? (int32_t)p : intersect(df->idom, rpo_num, (int32_t)p, nd);
                    break;
                }
            }
            if (nd >= 0 && df->idom[b] != nd) {
                df->idom[b] = nd;
                changed = true;
            }
        }
    }
    df->idom[0] = -1;
    ok = true;
out:
    free(order);
    free(rpo_num);
    free(stack);
    free(next);
    free(seen);
    return ok;
}

bool ptx_dominates(const ptx_dataflow *df, uint32_t a, uint32_t b)
{
    if (a >= df->fn->nblocks || b >= df->fn->nblocks) return false;
    if (b != 0 && df->idom[b] < 0) return false;   /* unreachable */
    for (int32_t x = (int32_t)b; x >= 0; x = df->idom[x])
        if ((uint32_t)x == a) return true;
    return false;
}

/* ---------------------------------------------------------------- liveness */

typedef struct gen_kill {
    uint64_t *gen, *kill;
    bool guarded;
} gen_kill;

static void gen_kill_reg(void *p, int32_t reg, ptx_role role)
{
    gen_kill *g = p;
    /* within an instruction reads happen before writes: a register both read and written
     * is live before it */
    if (role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) {
        if (!get_bit(g->kill, reg)) set_bit(g->gen, reg);
    }
}

static void kill_reg(void *p, int32_t reg, ptx_role role)
{
    gen_kill *g = p;
    if (role == PTX_ROLE_DEF && !g->guarded) set_bit(g->kill, reg);
}

static bool compute_liveness(ptx_dataflow *df)
{
    const ptx_function *fn = df->fn;
    uint32_t n = fn->nblocks, w = df->words;
    uint64_t *gen = calloc((size_t)n * w, sizeof *gen), *kill = calloc((size_t)n * w, sizeof *kill);
    if (!gen || !kill) {
        free(gen);
        free(kill);
        return false;
    }
    for (uint32_t b = 0; b < n; b++) {
        gen_kill g = { gen + (size_t)b * w, kill + (size_t)b * w, false };
        for (uint32_t i = fn->blocks[b].first; i < fn->blocks[b].end; i++) {
            const ptx_instr *in = &fn->instrs[i];
            g.guarded = in->guard >= 0;
            ptx_instr_regs(fn, in, gen_kill_reg, &g);
            ptx_instr_regs(fn, in, kill_reg, &g);
        }
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = n; b-- > 0;) {
            uint64_t *out = df->live_out + (size_t)b * w, *in = df->live_in + (size_t)b * w;
            const ptx_block *blk = &fn->blocks[b];
            for (uint32_t s = 0; s < blk->nsucc; s++) {
                if (blk->succ[s] < 0 || (uint32_t)blk->succ[s] >= n) continue;
                const uint64_t *sin = df->live_in + (size_t)blk->succ[s] * w;
                for (uint32_t k = 0; k < w; k++) out[k] |= sin[k];
            }
            const uint64_t *gb = gen + (size_t)b * w, *kb = kill + (size_t)b * w;
            for (uint32_t k = 0; k < w; k++) {
                uint64_t v = gb[k] | (out[k] & ~kb[k]);
                if (v != in[k]) {
                    in[k] = v;
                    changed = true;
                }
            }
        }
    }
    free(gen);
    free(kill);
    return true;
}

bool ptx_live_in(const ptx_dataflow *df, uint32_t block, int32_t reg)
{
    if (block >= df->fn->nblocks || reg < 0 || (uint32_t)reg >= df->fn->nregs) return false;
    return get_bit(df->live_in + (size_t)block * df->words, reg);
}

bool ptx_live_out(const ptx_dataflow *df, uint32_t block, int32_t reg)
{
    if (block >= df->fn->nblocks || reg < 0 || (uint32_t)reg >= df->fn->nregs) return false;
    return get_bit(df->live_out + (size_t)block * df->words, reg);
}

typedef struct after_ctx { int32_t reg; bool used, defined; bool guarded; } after_ctx;

static void after_reg(void *p, int32_t reg, ptx_role role)
{
    after_ctx *a = p;
    if (reg != a->reg) return;
    if (role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) a->used = true;
    else if (role == PTX_ROLE_DEF && !a->guarded) a->defined = true;
}

bool ptx_live_after(const ptx_dataflow *df, uint32_t instr, int32_t reg)
{
    const ptx_function *fn = df->fn;
    if (instr >= fn->ninstrs) return false;
    int32_t b = fn->instrs[instr].block;
    if (b < 0 || (uint32_t)b >= fn->nblocks) return false;
    for (uint32_t i = instr + 1; i < fn->blocks[b].end; i++) {
        after_ctx a = { reg, false, false, fn->instrs[i].guard >= 0 };
        ptx_instr_regs(fn, &fn->instrs[i], after_reg, &a);
        if (a.used) return true;
        if (a.defined) return false;
    }
    return ptx_live_out(df, (uint32_t)b, reg);
}

ptx_dataflow *ptx_dataflow_compute(const ptx_function *fn)
{
    ptx_dataflow *df = calloc(1, sizeof *df);
    if (!df) return NULL;
    df->fn = fn;
    df->words = (fn->nregs + 63) / 64;
    size_t nb = fn->nblocks ? fn->nblocks : 1, nr = fn->nregs ? fn->nregs : 1;
    df->idom = malloc(nb * sizeof *df->idom);
    df->live_in = calloc(nb * (df->words ? df->words : 1), sizeof *df->live_in);
    df->live_out = calloc(nb * (df->words ? df->words : 1), sizeof *df->live_out);
    df->ndefs = malloc(nr * sizeof *df->ndefs);
    df->nuses = malloc(nr * sizeof *df->nuses);
    if (!df->idom || !df->live_in || !df->live_out || !df->ndefs || !df->nuses) goto fail;
    ptx_reg_counts(fn, df->ndefs, df->nuses);
    if (fn->nblocks && (!compute_dominators(df) || !compute_liveness(df))) goto fail;
    return df;
fail:
    ptx_dataflow_free(df);
    return NULL;
}

void ptx_dataflow_free(ptx_dataflow *df)
{
    if (!df) return;
    free(df->idom);
    free(df->live_in);
    free(df->live_out);
    free(df->ndefs);
    free(df->nuses);
    free(df);
}
