/* regs.c: the registers of the model's resident CTAs, one region per CTA slot in one block kept
 * from kernel to kernel, lent to the CTA placed in the slot (eng_slot.regs, emu_cta_create_in),
 * and beside each slot's registers the storage of the first CTA's own state (eng_slot.storage,
 * emu_cta_create_at: run.c lend_regs).
 *
 * The model keeps every CTA that occupancy allows resident at once (640 on v100), each with
 * its warps' register rows (32 lanes x 8 bytes per register slot: 114 KiB for a 256-thread CTA
 * of 57 slots), where the executor alone keeps a few CTAs per host thread. Allocated CTA by
 * CTA, those rows came in 4 KiB pages, each faulted in and zeroed on its first write: 8,900
 * faults on a v100 reduce, 17,400 on a matmul, about 1.6 us each (a tenth of the reduce's
 * process time, perf: emu_put's and the handlers' first writes), and larger CTAs were each an
 * mmap and munmap of their own. In one block in huge pages (huge.c) the same rows cost one
 * fault per 2 MiB. Slot k of every SM comes before slot k+1 of any
 * (eng_slot.gslot), as the model fills them, so a grid smaller than the GPU touches the start
 * of the block only. A lent region holds whatever its last CTA, of this kernel or an earlier
 * one, left: a CTA zeroes the rows it could read before writing them (entry_rows.c), as one
 * built in a finished CTA's storage does. */
#include "timing/model/model.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *kept;    /* the last kernel's block, for the next */
static size_t kept_words;

uint64_t *tm_regs_take(size_t words, size_t *have)
{
    pthread_mutex_lock(&kept_lock);
    uint64_t *r = kept;
    size_t n = kept_words;
    kept = NULL;
    kept_words = 0;
    pthread_mutex_unlock(&kept_lock);
    if (r && n >= words) {
        *have = n;
        return r;
    }
    free(r);
    size_t bytes;
    r = tm_huge_alloc(words * sizeof *r, &bytes);
    *have = bytes / sizeof *r;
    return r;
}

void tm_regs_give(uint64_t *regs, size_t words)
{
    if (!regs) return;
    pthread_mutex_lock(&kept_lock);
    /* the larger block stays */
    if (kept_words >= words) {
        pthread_mutex_unlock(&kept_lock);
        free(regs);
        return;
    }
    uint64_t *old = kept;
    kept = regs;
    kept_words = words;
    pthread_mutex_unlock(&kept_lock);
    free(old);
}
