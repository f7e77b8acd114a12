/* rings.c: the warps' event rings of the cycle model, one per warp slot, in one block kept from
 * kernel to kernel.
 *
 * Each warp records its events in a ring (EMU_EVENT_RING_BYTES: 64-byte events, then the rows
 * of addresses that only non-compact memory events write; the model reads them there until the
 * warp runs again). Left to the emulator, every warp allocated its own on
 * its first run: thousands of small allocations per kernel (5,120 on v100 at full occupancy),
 * each growing the host thread's malloc arena by what it needed (an mprotect call, which holds
 * the process's memory map for writing, so the host threads' growths wait for each other), and
 * freed with the CTAs' storage at the kernel's end. A warp slot holds one warp at a time and
 * the model has issued all of a warp's events before the slot takes the next one, so the
 * slot's ring serves its warps one after the other (place_cta lends it, emu_warp_lend_ring);
 * the block is one allocation, whose pages are touched where a warp first writes them (a
 * slot's events are one page, page-aligned), and the next kernel takes it again with its pages
 * in place. Kernels run one at a time (the device
 * worker); a lock makes the hand-over safe all the same. */
#include "timing/model/model.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static emu_event *kept;       /* the last kernel's block, for the next */
static size_t kept_slots;

emu_event *tm_rings_take(size_t slots, size_t *have)
{
    pthread_mutex_lock(&kept_lock);
    emu_event *r = kept;
    size_t n = kept_slots;
    kept = NULL;
    kept_slots = 0;
    pthread_mutex_unlock(&kept_lock);
    if (r && n >= slots) {
        *have = n;
        return r;
    }
    free(r);
    _Static_assert(EMU_EVENT_RING_BYTES % TM_RING_ALIGN == 0, "every slot's ring page-aligned");
    /* In huge pages where the system gives them (transparent huge pages on request): the model
     * reads a warp's events long after its run wrote them, among every SM's warps, so with
     * 4 KiB pages nearly every event it reads first misses the TLB; the walk held up issue's
     * prefetch of the next event (half of issue's time, perf). */
    size_t huge = (size_t)2 << 20, bytes = (slots * EMU_EVENT_RING_BYTES + huge - 1) / huge * huge;
    r = slots ? aligned_alloc(huge, bytes) : NULL;
    if (r) (void)madvise(r, bytes, MADV_HUGEPAGE);   /* a hint: without it, 4 KiB pages */
    *have = r ? slots : 0;
    return r;
}

emu_event *tm_ring_of(emu_event *rings, size_t slot)
{
    return (emu_event *)((char *)rings + slot * EMU_EVENT_RING_BYTES);
}

void tm_rings_give(emu_event *rings, size_t slots)
{
    if (!rings) return;
    pthread_mutex_lock(&kept_lock);
    /* the larger block stays */
    if (kept_slots >= slots) {
        pthread_mutex_unlock(&kept_lock);
        free(rings);
        return;
    }
    emu_event *old = kept;
    kept = rings;
    kept_slots = slots;
    pthread_mutex_unlock(&kept_lock);
    free(old);
}
