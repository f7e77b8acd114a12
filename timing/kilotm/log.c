/* log.c: a lane's read and write logs (spec kilotm.md section 3): word granularity, a load
 * sees the lane's own earlier writes, and a word read twice reads the value logged the first
 * time (so the transaction's view of a word cannot change under it; validation at commit
 * decides whether that view was still current). */
#include "timing/kilotm/kilotm.h"

#include <stdlib.h>
#include <string.h>

bool kt_log_append(kt_log *l, uint64_t addr, uint32_t value, uint32_t bytes)
{
    if (l->n == l->cap) {
        uint32_t nc = l->cap ? 2 * l->cap : 16;
        kt_entry *v = realloc(l->v, nc * sizeof *v);
        if (!v) return false;
        l->v = v;
        l->cap = nc;
    }
    l->v[l->n++] = (kt_entry){addr, value, bytes};
    return true;
}

kt_entry *kt_log_find(const kt_log *l, uint64_t addr)
{
    /* newest first: a word is logged once per log, so this is a look-up, not a walk for the
     * youngest entry */
    for (uint32_t i = l->n; i-- > 0;)
        if (l->v[i].addr == addr) return &l->v[i];
    return NULL;
}

void kt_log_free(kt_log *l)
{
    free(l->v);
    *l = (kt_log){0};
}

/* The value of word `word` as the transaction sees it, logging a first read. */
static bool read_word(kt_lane *ln, uint64_t word, uint32_t *out)
{
    kt_entry *r = kt_log_find(&ln->reads, word);
    if (r) {
        *out = r->value;
        return true;
    }
    uint32_t v = __atomic_load_n((const uint32_t *)(uintptr_t)word, __ATOMIC_ACQUIRE);
    if (!kt_log_append(&ln->reads, word, v, 0xf)) return false;
    *out = v;
    return true;
}

bool kt_tx_load(kt_lane *ln, uint64_t addr, uint32_t size, uint8_t *dst)
{
    for (uint64_t word = addr & ~UINT64_C(3); word < addr + size; word += 4) {
        const kt_entry *wr = kt_log_find(&ln->writes, word);
        uint32_t lo = addr > word ? (uint32_t)(addr - word) : 0;
        uint32_t hi = addr + size < word + 4 ? (uint32_t)(addr + size - word) : 4;
        uint32_t want = ((1u << hi) - 1) & ~((1u << lo) - 1);
        uint32_t mem = 0;
        /* memory is read (and the word enters the read-set) only for bytes the lane has not
         * written itself: a read of its own write depends on no other transaction */
        if ((!wr || (want & ~wr->bytes)) && !read_word(ln, word, &mem)) return false;
        uint8_t bytes[4];
        memcpy(bytes, &mem, 4);
        if (wr) {
            uint8_t own[4];
            memcpy(own, &wr->value, 4);
            for (uint32_t b = lo; b < hi; b++)
                if (wr->bytes & (1u << b)) bytes[b] = own[b];
        }
        memcpy(dst + (word + lo - addr), bytes + lo, hi - lo);
    }
    return true;
}

bool kt_tx_store(kt_lane *ln, uint64_t addr, uint32_t size, const uint8_t *src)
{
    for (uint64_t word = addr & ~UINT64_C(3); word < addr + size; word += 4) {
        uint32_t lo = addr > word ? (uint32_t)(addr - word) : 0;
        uint32_t hi = addr + size < word + 4 ? (uint32_t)(addr + size - word) : 4;
        kt_entry *wr = kt_log_find(&ln->writes, word);
        if (!wr) {
            if (!kt_log_append(&ln->writes, word, 0, 0)) return false;
            wr = &ln->writes.v[ln->writes.n - 1];
        }
        uint8_t bytes[4];
        memcpy(bytes, &wr->value, 4);
        for (uint32_t b = lo; b < hi; b++) {
            bytes[b] = src[word + b - addr];
            wr->bytes |= 1u << b;
        }
        memcpy(&wr->value, bytes, 4);
    }
    return true;
}
