/* ptx_cfg.c: basic blocks, successors and immediate post-dominators of a function, and the
 * reconvergence point of every branch (the first instruction of its block's IPDOM).
 *
 * Post-dominators are dominators of the reverse CFG rooted at a virtual exit node, computed
 * with the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
 * Algorithm"). Blocks that cannot reach an exit (infinite loops) get a virtual exit edge from
 * their last block so every branch still has a reconvergence point. */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

/* trap is not among these: it aborts the kernel, so the path through it never reaches a join,
 * and taking it as an edge to the exit would move the reconvergence point of the branches around
 * it (the default arm of a switch, a failed check) to the end of the function, past barriers
 * the other arms still have to reach together. Its fall-through edge keeps the join where ptxas
 * puts it. */
static bool ends_flow(const ptx_instr *in)
{
    return in->op == PTX_OP_RET || in->op == PTX_OP_EXIT;
}

static bool is_branch(const ptx_instr *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_BRX_IDX;
}

/* Targets of a branch: bra has one label operand; brx.idx a LIST of labels. */
static void branch_targets(const ptx_instr *in, void (*fn)(void *, int64_t), void *ctx)
{
    for (unsigned i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        if (o->kind == PTX_OPD_LABEL)
            fn(ctx, o->imm);
        else if (o->kind == PTX_OPD_LIST)
            for (unsigned k = 0; k < o->nelem; k++)
                if (o->elems[k].kind == PTX_OPD_LABEL)
                    fn(ctx, o->elems[k].imm);
    }
}

typedef struct leader_ctx {
    uint8_t *leader;
    uint32_t n;
} leader_ctx;

static void mark_leader(void *c, int64_t t)
{
    leader_ctx *l = c;
    if (t >= 0 && t < (int64_t)l->n)
        l->leader[t] = 1;
}

/* Successor lists in one array (CSR): block b's are succ[first[b] .. first[b+1]). A block is
 * listed once per successor (stamp[] remembers the last block that added each target). */
typedef struct succ_ctx {
    int32_t *succ;
    uint32_t *nsucc;           /* successors written so far, total */
    int32_t *stamp;
    const int32_t *block_of;
    uint32_t n, exit;
    int32_t b;
    bool count_only;
} succ_ctx;

static void add_edge(succ_ctx *s, int32_t t)
{
    if (s->stamp[t] == s->b)
        return;
    s->stamp[t] = s->b;
    if (!s->count_only)
        s->succ[*s->nsucc] = t;
    (*s->nsucc)++;
}

static void add_succ(void *c, int64_t t)
{
    succ_ctx *s = c;
    add_edge(s, t >= 0 && t < (int64_t)s->n ? s->block_of[t] : (int32_t)s->exit);
}

static void block_succs(const ptx_function *f, const ptx_block *blocks, uint32_t b,
                        uint32_t nb, succ_ctx *sc)
{
    uint32_t n = f->ninstrs;
    const ptx_instr *last = &f->instrs[blocks[b].end - 1];
    int32_t fall = blocks[b].end < n ? (int32_t)b + 1 : (int32_t)nb;
    sc->b = (int32_t)b;
    if (is_branch(last)) {
        branch_targets(last, add_succ, sc);
        if (last->guard >= 0)
            add_edge(sc, fall);
    } else if (ends_flow(last)) {
        add_edge(sc, last->guard >= 0 ? fall : (int32_t)nb);
    } else {
        add_edge(sc, fall);
    }
}

static int32_t intersect(const int32_t *idom, const uint32_t *po, int32_t a, int32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = idom[a];
        while (po[b] < po[a])
            b = idom[b];
    }
    return a;
}

/* Every temporary array of one function's analysis, in one allocation that is freed on every
 * path (out of memory included, which is reported rather than unwound: see ptx_oom.c). */
typedef struct cfg_work {
    uint8_t *leader, *seen, *to_exit;
    int32_t *block_of, *stamp, *succ, *pred, *order, *stack, *idom;
    uint32_t *sfirst, *pfirst, *pfill, *po, *it;
} cfg_work;

static void *carve(uint8_t **p, size_t bytes)
{
    void *r = *p;
    *p += (bytes + 15) & ~(size_t)15;
    return r;
}

int ptx_build_cfg(ptx_module *m, ptx_function *f, ptx_arena *arena)
{
    (void)m;
    uint32_t n = f->ninstrs;
    f->blocks = NULL;
    f->nblocks = 0;
    if (n == 0)
        return 0;

    /* Leaders first: they size everything else. */
    uint8_t *leader = calloc(n, 1);
    if (!leader)
        return -1;
    leader[0] = 1;
    leader_ctx lc = {leader, n};
    size_t nedges_max = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_instr *in = &f->instrs[i];
        if (is_branch(in) || ends_flow(in)) {
            if (i + 1 < n)
                leader[i + 1] = 1;
            if (is_branch(in))
                branch_targets(in, mark_leader, &lc);
        }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    ptx_block *blocks = ptx_arena_try_alloc(arena, nb * sizeof *blocks);
    if (!blocks) {
        free(leader);
        return -1;
    }
    for (uint32_t i = 0, b = (uint32_t)-1; i < n; i++) {
        if (leader[i]) {
            b++;
            blocks[b].first = i;
            if (b)
                blocks[b - 1].end = i;
        }
        f->instrs[i].block = (int32_t)b;
    }
    blocks[nb - 1].end = n;
    free(leader);

    /* Count the successor edges (each block's list deduplicated), then lay them out. */
    size_t v = (size_t)nb + 1;
    int32_t *stamp = malloc(v * sizeof *stamp);
    int32_t *block_of = malloc((size_t)n * sizeof *block_of);
    if (!stamp || !block_of) {
        free(stamp);
        free(block_of);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        block_of[i] = f->instrs[i].block;
    for (size_t i = 0; i < v; i++)
        stamp[i] = -1;
    uint32_t total = 0;
    succ_ctx sc = {NULL, &total, stamp, block_of, n, nb, -1, true};
    for (uint32_t b = 0; b < nb; b++)
        block_succs(f, blocks, b, nb, &sc);
    nedges_max = (size_t)total + nb;   /* + one virtual exit edge per block at most */

    size_t bytes = 0;
#define NEED(count, type) (bytes += (((size_t)(count) * sizeof(type)) + 15) & ~(size_t)15)
    NEED(v, uint8_t); NEED(v, uint8_t);                               /* seen, to_exit */
    NEED(total, int32_t); NEED(nedges_max, int32_t);                  /* succ, pred */
    NEED(v, int32_t); NEED(v, int32_t); NEED(v, int32_t);             /* order, stack, idom */
    NEED(v + 1, uint32_t); NEED(v + 1, uint32_t); NEED(v + 1, uint32_t); /* sfirst, pfirst, pfill */
    NEED(v, uint32_t); NEED(v, uint32_t);                             /* po, it */
#undef NEED
    uint8_t *mem = malloc(bytes), *p = mem;
    if (!mem) {
        free(stamp);
        free(block_of);
        return -1;
    }
    cfg_work w;
    w.seen = carve(&p, v);
    w.to_exit = carve(&p, v);
    w.succ = carve(&p, (size_t)total * sizeof(int32_t));
    w.pred = carve(&p, nedges_max * sizeof(int32_t));
    w.order = carve(&p, v * sizeof(int32_t));
    w.stack = carve(&p, v * sizeof(int32_t));
    w.idom = carve(&p, v * sizeof(int32_t));
    w.sfirst = carve(&p, (v + 1) * sizeof(uint32_t));
    w.pfirst = carve(&p, (v + 1) * sizeof(uint32_t));
    w.pfill = carve(&p, (v + 1) * sizeof(uint32_t));
    w.po = carve(&p, v * sizeof(uint32_t));
    w.it = carve(&p, v * sizeof(uint32_t));

    /* Forward successors; node nb is the virtual exit. */
    uint32_t exit = nb;
    for (size_t i = 0; i < v; i++)
        stamp[i] = -1;
    total = 0;
    sc = (succ_ctx){w.succ, &total, stamp, block_of, n, nb, -1, false};
    for (uint32_t b = 0; b < nb; b++) {
        w.sfirst[b] = total;
        block_succs(f, blocks, b, nb, &sc);
    }
    w.sfirst[nb] = w.sfirst[nb + 1] = total;

    /* Predecessors (the reverse CFG), with room for the exit edges added below: those go last
     * in the exit's list. */
    memset(w.pfirst, 0, (v + 1) * sizeof(uint32_t));
    for (uint32_t e = 0; e < total; e++)
        w.pfirst[w.succ[e] + 1]++;
    w.pfirst[exit + 1] += nb;
    for (size_t i = 0; i < v; i++)
        w.pfirst[i + 1] += w.pfirst[i];
    memcpy(w.pfill, w.pfirst, (v + 1) * sizeof(uint32_t));
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t e = w.sfirst[b]; e < w.sfirst[b + 1]; e++)
            w.pred[w.pfill[w.succ[e]]++] = (int32_t)b;

    /* Post-order of the reverse CFG from the exit. Blocks that cannot reach the exit loop
     * forever: when the search has nothing left, the highest such block gets an exit edge and
     * the search goes on from it (so the exit is still the last node finished). */
    memset(w.seen, 0, v);
    memset(w.to_exit, 0, v);
    uint32_t norder = 0, sp = 0;
    int32_t next_unseen = (int32_t)nb - 1;
    w.stack[sp] = (int32_t)exit;
    w.it[sp++] = w.pfirst[exit];
    w.seen[exit] = 1;
    while (sp) {
        int32_t u = w.stack[sp - 1];
        if (w.it[sp - 1] < w.pfill[u]) {
            int32_t x = w.pred[w.it[sp - 1]++];
            if (!w.seen[x]) {
                w.seen[x] = 1;
                w.stack[sp] = x;
                w.it[sp++] = w.pfirst[x];
            }
            continue;
        }
        if (u == (int32_t)exit) {
            while (next_unseen >= 0 && w.seen[next_unseen])
                next_unseen--;
            if (next_unseen >= 0) {
                w.to_exit[next_unseen] = 1;
                w.pred[w.pfill[exit]++] = next_unseen;
                continue;
            }
        }
        w.po[u] = norder;
        w.order[norder++] = u;
        sp--;
    }

    for (size_t i = 0; i < v; i++)
        w.idom[i] = -1;
    w.idom[exit] = (int32_t)exit;
    for (bool changed = true; changed;) {
        changed = false;
        /* reverse post-order, skipping the root (last in post-order) */
        for (int32_t k = (int32_t)norder - 2; k >= 0; k--) {
            int32_t x = w.order[k];
            int32_t nd = -1;
            for (uint32_t e = w.sfirst[x]; e <= w.sfirst[x + 1]; e++) {
                int32_t q;
                if (e < w.sfirst[x + 1])
                    q = w.succ[e];
                else if (w.to_exit[x])
                    q = (int32_t)exit;
                else
                    break;
                if (w.idom[q] < 0)
                    continue;
                nd = nd < 0 ? q : intersect(w.idom, w.po, q, nd);
            }
            if (nd != w.idom[x]) {
                w.idom[x] = nd;
                changed = true;
            }
        }
    }

    int rc = 0;
    for (uint32_t b = 0; b < nb && rc == 0; b++) {
        uint32_t k = 0;
        for (uint32_t e = w.sfirst[b]; e < w.sfirst[b + 1]; e++)
            k += w.succ[e] != (int32_t)exit;
        blocks[b].succ = NULL;
        if (k && !(blocks[b].succ = ptx_arena_try_alloc(arena, k * sizeof *blocks[b].succ)))
            rc = -1;
        blocks[b].nsucc = 0;
        for (uint32_t e = w.sfirst[b]; rc == 0 && e < w.sfirst[b + 1]; e++)
            if (w.succ[e] != (int32_t)exit)
                blocks[b].succ[blocks[b].nsucc++] = w.succ[e];
        blocks[b].ipdom = w.idom[b] == (int32_t)exit || w.idom[b] < 0 ? -1 : w.idom[b];
    }
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        ptx_instr *in = &f->instrs[i];
        if (is_branch(in)) {
            int32_t q = blocks[block_of[i]].ipdom;
            in->reconv = q < 0 ? (int32_t)n : (int32_t)blocks[q].first;
        } else {
            in->reconv = -1;
        }
    }
    if (rc == 0) {
        f->blocks = blocks;
        f->nblocks = nb;
    }
    free(mem);
    free(stamp);
    free(block_of);
    return rc;
}
