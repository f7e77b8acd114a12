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

typedef struct adj {
    int32_t *v;
    uint32_t n, cap;
} adj;

static void adj_add(adj *a, int32_t x)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (a->v[i] == x)
            return;
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4;
        int32_t *p = realloc(a->v, a->cap * sizeof *p);
        if (!p)
            abort();
        a->v = p;
    }
    a->v[a->n++] = x;
}

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

typedef struct succ_ctx {
    adj *a;
    const int32_t *block_of;
    uint32_t n, exit;
} succ_ctx;

static void add_succ(void *c, int64_t t)
{
    succ_ctx *s = c;
    adj_add(s->a, t >= 0 && t < (int64_t)s->n ? s->block_of[t] : (int32_t)s->exit);
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

int ptx_build_cfg(ptx_module *m, ptx_function *f, ptx_arena *arena)
{
    (void)m;
    uint32_t n = f->ninstrs;
    f->blocks = NULL;
    f->nblocks = 0;
    if (n == 0)
        return 0;

    uint8_t *leader = calloc(n, 1);
    int32_t *block_of = malloc(n * sizeof *block_of);
    if (!leader || !block_of)
        abort();
    leader[0] = 1;
    leader_ctx lc = {leader, n};
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
    ptx_block *blocks = ptx_arena_alloc(arena, nb * sizeof *blocks);
    for (uint32_t i = 0, b = (uint32_t)-1; i < n; i++) {
        if (leader[i]) {
            b++;
            blocks[b].first = i;
            if (b)
                blocks[b - 1].end = i;
        }
        block_of[i] = (int32_t)b;
        f->instrs[i].block = (int32_t)b;
    }
    blocks[nb - 1].end = n;

    /* Forward successors; node nb is the virtual exit. */
    uint32_t exit = nb;
    adj *succ = calloc(nb + 1, sizeof *succ), *pred = calloc(nb + 1, sizeof *pred);
    if (!succ || !pred)
        abort();
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_instr *last = &f->instrs[blocks[b].end - 1];
        int32_t fall = blocks[b].end < n ? (int32_t)b + 1 : (int32_t)exit;
        succ_ctx sc = {&succ[b], block_of, n, exit};
        if (is_branch(last)) {
            branch_targets(last, add_succ, &sc);
            if (last->guard >= 0)
                adj_add(&succ[b], fall);
        } else if (ends_flow(last)) {
            if (last->guard >= 0)
                adj_add(&succ[b], fall);
            else
                adj_add(&succ[b], (int32_t)exit);
        } else {
            adj_add(&succ[b], fall);
        }
        for (uint32_t k = 0; k < succ[b].n; k++)
            adj_add(&pred[succ[b].v[k]], (int32_t)b);
    }

    /* Post-order of the reverse CFG from the exit. Unreached blocks loop forever: give the
     * last of them an exit edge and search again. */
    uint32_t *po = malloc((nb + 1) * sizeof *po);
    int32_t *order = malloc((nb + 1) * sizeof *order);
    int32_t *stack = malloc((nb + 1) * sizeof *stack);
    uint32_t *it = malloc((nb + 1) * sizeof *it);
    uint8_t *seen = malloc(nb + 1);
    if (!po || !order || !stack || !it || !seen)
        abort();
    uint32_t norder;
    for (;;) {
        memset(seen, 0, nb + 1);
        norder = 0;
        uint32_t sp = 0;
        stack[sp] = (int32_t)exit;
        it[sp++] = 0;
        seen[exit] = 1;
        while (sp) {
            int32_t v = stack[sp - 1];
            if (it[sp - 1] < pred[v].n) {
                int32_t w = pred[v].v[it[sp - 1]++];
                if (!seen[w]) {
                    seen[w] = 1;
                    stack[sp] = w;
                    it[sp++] = 0;
                }
            } else {
                po[v] = norder;
                order[norder++] = v;
                sp--;
            }
        }
        if (norder == nb + 1)
            break;
        int32_t last = -1;
        for (int32_t b = (int32_t)nb - 1; b >= 0; b--)
            if (!seen[b]) {
                last = b;
                break;
            }
        adj_add(&succ[last], (int32_t)exit);
        adj_add(&pred[exit], last);
    }

    int32_t *idom = malloc((nb + 1) * sizeof *idom);
    if (!idom)
        abort();
    for (uint32_t i = 0; i <= nb; i++)
        idom[i] = -1;
    idom[exit] = (int32_t)exit;
    for (bool changed = true; changed;) {
        changed = false;
        /* reverse post-order, skipping the root (last in post-order) */
        for (int32_t k = (int32_t)norder - 2; k >= 0; k--) {
            int32_t v = order[k];
            int32_t nd = -1;
            for (uint32_t j = 0; j < succ[v].n; j++) {
                int32_t p = succ[v].v[j];
                if (idom[p] < 0)
                    continue;
                nd = nd < 0 ? p : intersect(idom, po, p, nd);
            }
            if (nd != idom[v]) {
                idom[v] = nd;
                changed = true;
            }
        }
    }

    for (uint32_t b = 0; b < nb; b++) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < succ[b].n; j++)
            k += succ[b].v[j] != (int32_t)exit;
        blocks[b].succ = k ? ptx_arena_alloc(arena, k * sizeof *blocks[b].succ) : NULL;
        blocks[b].nsucc = 0;
        for (uint32_t j = 0; j < succ[b].n; j++)
            if (succ[b].v[j] != (int32_t)exit)
                blocks[b].succ[blocks[b].nsucc++] = succ[b].v[j];
        blocks[b].ipdom = idom[b] == (int32_t)exit || idom[b] < 0 ? -1 : idom[b];
    }
    for (uint32_t i = 0; i < n; i++) {
        ptx_instr *in = &f->instrs[i];
        if (is_branch(in)) {
            int32_t p = blocks[block_of[i]].ipdom;
            in->reconv = p < 0 ? (int32_t)n : (int32_t)blocks[p].first;
        } else {
            in->reconv = -1;
        }
    }
    f->blocks = blocks;
    f->nblocks = nb;

    for (uint32_t i = 0; i <= nb; i++) {
        free(succ[i].v);
        free(pred[i].v);
    }
    free(succ);
    free(pred);
    free(po);
    free(order);
    free(stack);
    free(it);
    free(seen);
    free(idom);
    free(leader);
    free(block_of);
    return 0;
}
