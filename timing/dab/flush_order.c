/* flush_order.c: the order a flush applies buffered atomics in (spec dab.md S8.2, S8.4, G3,
 * G4).
 *
 * Each SM sends its buffers in scheduler order 0..S-1, each from entry `start` (0; with offset
 * flushing half the capacity on SMs of even ID, wrapping around to entry 0). Every memory sub-partition takes the packets of all SMs round-robin: the first of
 * SM 0, the first of SM 1, ..., then the second of each; an SM with fewer drops out. Each
 * address lives in one sub-partition, so this fixes a total order of the updates of every
 * address: the order the ROP applies them in, whatever order the packets arrived in. With
 * coalescing (S5.6), the entries of one buffer in one 32-byte sector travel as one transaction
 * (one packet, G4), applied in buffer-index order.
 */
#include "timing/dab/dab.h"

#include <stdlib.h>

#define DAB_SECTOR 32u
#define DAB_INTERLEAVE 256u

uint32_t dab_subpartition(uint64_t addr, uint32_t nsubp)
{
    return nsubp <= 1 ? 0 : (uint32_t)((addr / DAB_INTERLEAVE) % nsubp);
}

size_t dab_drain_sm(const dab_buf *bufs, uint32_t nb, uint32_t sm, uint32_t nsubp,
                    bool coalescing, uint32_t start, uint32_t *seq, dab_item *out,
                    uint64_t *ntxn)
{
    size_t n = 0;
    for (uint32_t s = 0; s < nb; s++) {
        const dab_buf *b = &bufs[s];
        size_t first = n;   /* this buffer's items: out[first .. n) */
        uint32_t from = start < b->n ? start : 0;
        for (uint32_t j = 0; j < b->n; j++) {
            uint32_t i = (from + j) % b->n;
            const dab_entry *e = &b->e[i];
            /* inside a transaction, entries go in buffer-index order (G4) */
            uint32_t pos = s * b->cap + i;
            uint64_t sector = e->addr / DAB_SECTOR;
            bool joined = false;
            if (coalescing)
                for (size_t t = first; t < n && !joined; t++)
                    if (out[t].e->addr / DAB_SECTOR == sector) {
                        /* the sector's transaction: this entry goes with it */
                        out[n++] = (dab_item){ out[t].subp, out[t].seq, sm, pos, e };
                        joined = true;
                    }
            if (joined) continue;
            uint32_t p = dab_subpartition(e->addr, nsubp);
            out[n++] = (dab_item){ p, seq[p]++, sm, pos, e };
            (*ntxn)++;
        }
    }
    return n;
}

static int by_rop_order(const void *a, const void *b)
{
    const dab_item *x = a, *y = b;
    if (x->subp != y->subp) return x->subp < y->subp ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos ? 1 : 0;
}

void dab_order(dab_item *items, size_t n)
{
    qsort(items, n, sizeof *items, by_rop_order);
}

void dab_apply(const dab_item *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const dab_entry *e = items[i].e;
        uint64_t old;
        emu_atomic_apply(e->aop, e->type, (void *)(uintptr_t)e->addr, &e->arg, NULL, &old);
    }
}
