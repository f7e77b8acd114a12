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
    b->e = calloc(cap ? cap : 1, sizeof *b->e);
    b->cap = cap;
    return b->e != NULL;
}

void dab_buf_free(dab_buf *b)
{
    free(b->e);
    memset(b, 0, sizeof *b);
}

void dab_buf_reset(dab_buf *b)
{
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

/* The entry among e[0..n) that a fuses into, or -1. */
static int32_t fuse_target(const dab_entry *e, uint32_t n, const dab_entry *a)
{
    for (uint32_t i = 0; i < n; i++)
        if (same_target(&e[i], a)) return (int32_t)i;
    return -1;
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
                     (fuse_target(b->e, b->n, &a[i]) >= 0 || fuse_target(a, i, &a[i]) >= 0);
        if (!fuses) need++;
    }
    if (need > b->cap - b->n) {
        b->closed = true;
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t t = fusion && dab_fusable(a[i].aop) ? fuse_target(b->e, b->n, &a[i]) : -1;
        if (t < 0) {
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
