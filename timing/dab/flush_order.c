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
#include <string.h>

#define DAB_SECTOR 32u
#define DAB_INTERLEAVE 256u

uint32_t dab_subpartition(uint64_t addr, uint32_t nsubp)
{
    return nsubp <= 1 ? 0 : (uint32_t)((addr / DAB_INTERLEAVE) % nsubp);
}

static int by_pos(const void *a, const void *b)
{
    uint32_t x = ((const dab_item *)a)->pos, y = ((const dab_item *)b)->pos;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* The sectors of one buffer seen so far: open addressing from a sector to the item that
 * opened its transaction. */
typedef struct sector_map {
    uint64_t *key;
    uint32_t *item;
    uint32_t mask;
} sector_map;

static uint32_t *sector_slot(const sector_map *m, uint64_t sector, bool *found)
{
    uint32_t h = (uint32_t)((sector * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & m->mask;
    while (m->item[h] != UINT32_MAX && m->key[h] != sector) h = (h + 1) & m->mask;
    *found = m->item[h] != UINT32_MAX;
    m->key[h] = sector;
    return &m->item[h];
}

size_t dab_drain_sm(const dab_buf *bufs, uint32_t nb, uint32_t sm, uint32_t nsubp,
                    bool coalescing, uint32_t start, uint32_t *seq, dab_item *out,
                    uint64_t *ntxn)
{
    size_t n = 0;
    /* room for twice the largest buffer's entries, on the stack for the usual sizes */
    uint32_t most = 0;
    for (uint32_t s = 0; s < nb; s++) if (bufs[s].n > most) most = bufs[s].n;
    uint32_t cap = 16;
    while (cap < 2 * most) cap *= 2;
    uint64_t key_local[512];
    uint32_t item_local[512];
    sector_map m = { key_local, item_local, cap - 1 };
    if (coalescing && cap > 512) {
        m.key = malloc(cap * sizeof *m.key);
        m.item = malloc(cap * sizeof *m.item);
        if (!m.key || !m.item) {
            /* no memory for the map: every entry its own transaction (still deterministic,
             * only less coalesced) */
            free(m.key);
            free(m.item);
            m.key = NULL;
            m.item = NULL;
            coalescing = false;
        }
    }
    for (uint32_t s = 0; s < nb; s++) {
        const dab_buf *b = &bufs[s];
        if (coalescing) memset(m.item, 0xff, cap * sizeof *m.item);
        uint32_t from = start < b->n ? start : 0;
        for (uint32_t j = 0; j < b->n; j++) {
            uint32_t i = (from + j) % b->n;
            const dab_entry *e = &b->e[i];
            /* inside a transaction, entries go in buffer-index order (G4) */
            uint32_t pos = s * b->cap + i;
            if (coalescing) {
                bool found;
                uint32_t *it = sector_slot(&m, e->addr / DAB_SECTOR, &found);
                if (found) {
                    /* the sector's transaction: this entry goes with it */
                    out[n] = (dab_item){ out[*it].subp, out[*it].seq, sm, pos, e };
                    n++;
                    continue;
                }
                *it = (uint32_t)n;
            }
            uint32_t p = dab_subpartition(e->addr, nsubp);
            out[n++] = (dab_item){ p, seq[p]++, sm, pos, e };
            (*ntxn)++;
        }
    }
    if (m.key != key_local) {
        free(m.key);
        free(m.item);
    }
    /* dab_order needs each SM's items in buffer-index order; a drain that wrapped around
     * (offset flushing) made them in another */
    if (start) qsort(out, n, sizeof *out, by_pos);
    return n;
}

/* One stable counting-sort pass of items by key(item) < nkeys, from src into dst. */
static bool counting_pass(const dab_item *src, dab_item *dst, size_t n, uint32_t nkeys, bool by_seq)
{
    size_t *start = calloc((size_t)nkeys + 1, sizeof *start);
    if (!start) return false;
    for (size_t i = 0; i < n; i++) start[(by_seq ? src[i].seq : src[i].subp) + 1]++;
    for (uint32_t k = 0; k < nkeys; k++) start[k + 1] += start[k];
    for (size_t i = 0; i < n; i++) dst[start[by_seq ? src[i].seq : src[i].subp]++] = src[i];
    free(start);
    return true;
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
    /* Items come SM by SM ascending, each SM's in buffer-index order (dab_drain_sm): two
     * stable counting sorts, by sequence and then by sub-partition, give (sub-partition,
     * sequence, SM, buffer index) in linear time. */
    uint32_t nseq = 0, nsubp = 0;
    for (size_t i = 0; i < n; i++) {
        if (items[i].seq >= nseq) nseq = items[i].seq + 1;
        if (items[i].subp >= nsubp) nsubp = items[i].subp + 1;
    }
    dab_item *tmp = n ? malloc(n * sizeof *tmp) : NULL;
    if (n && tmp && counting_pass(items, tmp, n, nseq, true) &&
        counting_pass(tmp, items, n, nsubp, false)) {
        free(tmp);
        return;
    }
    free(tmp);
    /* out of memory for the linear sort: the same order by comparison */
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
