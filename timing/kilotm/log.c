/* log.c: a lane's read and write logs (spec kilotm.md section 3): word granularity, a load
 * sees the lane's own earlier writes, and a word read twice reads the value logged the first
 * time (so the transaction's view of a word cannot change under it; validation at commit
 * decides whether that view was still current).
 *
 * Opacity (paper section 4.2; the paper uses a watchdog): a word read for the first time is
 * read together with a validation of the lane's read-set so far, under the commit lock, so the
 * values a transaction computes with always come from one consistent state of memory. A lane
 * whose read-set went stale is aborted there, before it can follow a stale pointer out of its
 * data or loop on values no consistent state holds. Inside a function the transaction called,
 * a lane cannot leave early (its frames are the warp's), so there the stale read is only
 * logged, and the commit's validation fails it. */
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

/* Word `word` of memory for lane `lane` of w, through the policy below when that is GPUDet's
 * (memory as the quantum found it with the warp's own buffered stores on top). */
static uint32_t load_word(kt_policy *P, emu_warp *w, int lane, uint64_t word)
{
    if (!P->over_det) return __atomic_load_n((const uint32_t *)(uintptr_t)word, __ATOMIC_ACQUIRE);
    uint32_t v = 0;
    emu_mem_seg seg = {.addr = word, .size = 4, .off = 0, .lane = (uint8_t)lane};
    emu_mem_op op = {.kind = EMU_MEM_LOAD, .space = PTX_SPACE_GLOBAL, .cls = EMU_CLS_LD_GLOBAL,
                     .mask = 1u << lane, .nseg = 1, .seg = &seg, .data = (uint8_t *)&v};
    emu_policy_forward(&P->pol, w, &op);
    return v;
}

/* The value of word `word` as the transaction sees it, logging a first read. */
static int read_word(kt_policy *P, emu_warp *w, int lane, kt_lane *ln, uint64_t word,
                     uint32_t *out, bool may_abort)
{
    kt_entry *r = kt_log_find(&ln->reads, word);
    if (r) {
        *out = r->value;
        return KT_OK;
    }
    pthread_mutex_lock(&P->commit_lock);
    uint32_t v = load_word(P, w, lane, word);
    bool valid = !may_abort || kt_still_valid(ln);
    pthread_mutex_unlock(&P->commit_lock);
    if (!valid) return KT_DOOMED;
    if (!kt_log_append(&ln->reads, word, v, 0xf)) return KT_NO_MEMORY;
    *out = v;
    return KT_OK;
}

int kt_tx_load(kt_policy *P, emu_warp *w, int lane, kt_lane *ln, uint64_t addr, uint32_t size,
               uint8_t *dst, bool may_abort)
{
    for (uint64_t word = addr & ~UINT64_C(3); word < addr + size; word += 4) {
        const kt_entry *wr = kt_log_find(&ln->writes, word);
        uint32_t lo = addr > word ? (uint32_t)(addr - word) : 0;
        uint32_t hi = addr + size < word + 4 ? (uint32_t)(addr + size - word) : 4;
        uint32_t want = ((1u << hi) - 1) & ~((1u << lo) - 1);
        uint32_t mem = 0;
        /* memory is read (and the word enters the read-set) only for bytes the lane has not
         * written itself: a read of its own write depends on no other transaction */
        if (!wr || (want & ~wr->bytes)) {
            int r = read_word(P, w, lane, ln, word, &mem, may_abort);
            if (r != KT_OK) return r;
        }
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
    return KT_OK;
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
