/* buffer.c: a scheduler-level atomic buffer (spec dab.md S5): fully associative, filled in
 * the scheduler's deterministic issue order and lanes ascending within an instruction, with
 * atomic fusion (S5.5, G6) and all-or-nothing inserts (S5.4). Nothing is spilled: an
 * instruction that does not fit closes the buffer until the next flush. */
#include "timing/dab/dab.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

bool dab_buf_init(dab_buf *b, uint32_t cap)
{
    memset(b, 0, sizeof *b);
    uint32_t icap = 16;
    while (icap < 2 * cap) icap *= 2;
    b->e = calloc(cap ? cap : 1, sizeof *b->e);
    b->index = malloc(icap * sizeof *b->index);
    b->cap = cap;
    b->imask = icap - 1;
    if (b->index) memset(b->index, 0xff, icap * sizeof *b->index);
    return b->e && b->index;
}

void dab_buf_free(dab_buf *b)
{
    free(b->e);
    free(b->index);
    memset(b, 0, sizeof *b);
}

void dab_buf_reset(dab_buf *b)
{
    if (b->n) memset(b->index, 0xff, (b->imask + 1) * sizeof *b->index);
    b->n = 0;
    b->closed = false;
}

bool dab_fusable(uint16_t aop)
{
    switch (aop) {
    case PTX_SFX_ADD: case PTX_SFX_MIN: case PTX_SFX_MAX:
    case PTX_SFX_AND: case PTX_SFX_OR: case PTX_SFX_XOR:
        return true;
    default:
        return false;
    }
}

static bool same_target(const dab_entry *x, const dab_entry *y)
{
    return x->addr == y->addr && x->aop == y->aop && x->type == y->type && x->size == y->size;
}

/* The index position of a's target: where its entry is, or the empty position for it. The
 * index holds fusable entries only (the associative lookup of S5.1). */
static uint32_t index_pos(const dab_buf *b, const dab_entry *a)
{
    uint64_t k = a->addr * UINT64_C(0x9e3779b97f4a7c15) ^ ((uint64_t)a->aop << 8 | a->type);
    uint32_t p = (uint32_t)(k >> 40) & b->imask;
    while (b->index[p] >= 0 && !same_target(&b->e[b->index[p]], a)) p = (p + 1) & b->imask;
    return p;
}

/* The entry of the buffer that a fuses into, or -1. */
static int32_t fuse_target(const dab_buf *b, const dab_entry *a)
{
    return b->index[index_pos(b, a)];
}

/* Whether a fuses into an earlier lane of its own instruction, a[0..i). */
static bool fuses_earlier(const dab_entry *a, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (same_target(&a[j], &a[i])) return true;
    return false;
}

bool dab_buf_insert(dab_buf *b, const dab_entry *a, uint32_t n, bool fusion, uint32_t *fused)
{
    assert(b->cap >= EMU_WARP_SIZE);
    *fused = 0;
    if (b->closed) return false;
    /* the entries the instruction needs: one per lane, less those fusing into an entry already
     * there or into an earlier lane of the same instruction */
    uint32_t need = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool fuses = fusion && dab_fusable(a[i].aop) &&
                     (fuse_target(b, &a[i]) >= 0 || fuses_earlier(a, i));
        if (!fuses) need++;
    }
    if (need > b->cap - b->n) {
        b->closed = true;
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        bool fusable = fusion && dab_fusable(a[i].aop);
        uint32_t p = fusable ? index_pos(b, &a[i]) : 0;
        int32_t t = fusable ? b->index[p] : -1;
        if (t < 0) {
            if (fusable) b->index[p] = (int32_t)b->n;
            b->e[b->n++] = a[i];
            continue;
        }
        /* the ROP's own arithmetic combines the operands (G6: the f32 add rounds as red.add) */
        dab_entry *e = &b->e[t];
        uint64_t old;
        emu_atomic_apply(e->aop, e->type, &e->arg, &a[i].arg, NULL, &old);
        (*fused)++;
    }
    return true;
}
