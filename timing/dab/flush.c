/* flush.c: the GPU-wide flush that ends an epoch (spec dab.md S8, G9, G10), run alone after
 * the plain stores are committed (run.c):
 * 1. every SM's atomic buffers, in the order the sub-partitions' re-ordering gives
 *    (flush_order.c), applied with the ROP's arithmetic; the buffers reopen empty;
 * 2. the flush-class operations the epoch left waiting (atomics whose result is used, cas,
 *    exch, device printf/malloc/free): each warp's one instruction, SM by SM and warp slot by
 *    warp slot, straight to memory, so each takes its value at its place in the flush (G7);
 * 3. every warp that waited for the flush goes on in the next epoch.
 * The store buffers were committed by the commit phase; they are emptied here.
 */
#include "timing/dab/dab.h"

#include <string.h>

/* The cycle model's record (--timing): each transaction (one SM's entries of one sequence
 * number at one sub-partition, consecutive after dab_order) with its entry count. */
static void record_transactions(const dab_item *it, size_t n)
{
    if (!timing_record_active()) return;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && it[j].subp == it[i].subp && it[j].seq == it[i].seq && it[j].sm == it[i].sm)
            j++;
        timing_record_dab_flush(it[i].sm, it[i].subp, (uint32_t)(j - i));
        i = j;
    }
}

bool dab_flush(dab_run *R, dab_exec *X)
{
    size_t n = 0;
    for (uint32_t s = 0; s < R->nsm; s++) {
        dab_sm *S = &R->sms[s];
        gd_sb_reset(&S->sb);
        memset(R->seq, 0, R->nsubp * sizeof *R->seq);
        /* offset flushing (S8.4): SMs of even ID start half-way through their buffers */
        uint32_t start = R->offset_flush && S->id % 2 == 0 ? R->entries / 2 : 0;
        n += dab_drain_sm(S->bufs, R->nbuf, S->id, R->nsubp, R->coalescing, start, R->seq,
                          R->items + n, &X->st.dab_transactions);
    }
    dab_order(R->items, n);
    record_transactions(R->items, n);
    dab_apply(R->items, n);
    X->st.dab_entries += n;
    for (uint32_t s = 0; s < R->nsm; s++)
        for (uint32_t b = 0; b < R->nbuf; b++) dab_buf_reset(&R->sms[s].bufs[b]);

    bool ok = true;
    X->direct = true;
    for (uint32_t s = 0; s < R->nsm && ok; s++) {
        dab_sm *S = &R->sms[s];
        for (uint32_t i = 0; i < S->nk * R->W && ok; i++) {
            dab_warp *dw = &S->warps[i];
            if (!dw->pending || !dw->w) continue;
            dw->pending = false;
            X->st.dab_flush_ops++;
            dw->exec = X;
            if (emu_warp_run(dw->w, 1) == EMU_STOP_FAULT) ok = false;
            dw->exec = NULL;
        }
    }
    X->direct = false;

    for (uint32_t s = 0; s < R->nsm; s++) {
        dab_sm *S = &R->sms[s];
        for (uint32_t i = 0; i < S->nk * R->W; i++) {
            dab_warp *dw = &S->warps[i];
            if (dw->wait == DAB_WAIT_FLUSH) dw->wait = DAB_RUN;
            dw->used = 0;
        }
        for (uint32_t k = 0; k < S->nk; k++) S->cta_flush[k] = false;
    }
    R->epochs++;
    return ok;
}
