/* rings.c: the warps' event rings of the cycle model, one per warp slot, in two blocks kept from
 * kernel to kernel: the slots' events in one, their address rows in the other.
 *
 * Each warp records its events in a ring (EMU_RING_EVENTS_BYTES: 64-byte events) and the
 * addresses of its non-compact memory events in the ring's rows (EMU_RING_ROWS_BYTES); the model
 * reads them there until the warp runs again. Left to the emulator, every warp allocated its own
 * on its first run: thousands of small allocations per kernel (5,120 on v100 at full occupancy),
 * each growing the host thread's malloc arena by what it needed (an mprotect call, which holds
 * the process's memory map for writing, so the host threads' growths wait for each other), and
 * freed with the CTAs' storage at the kernel's end. A warp slot holds one warp at a time and
 * the model has issued all of a warp's events before the slot takes the next one, so the
 * slot's ring serves its warps one after the other (place_cta lends it, emu_warp_lend_ring).
 * The blocks' pages are touched where a warp first writes them, and the next kernel takes
 * them again with their pages in place. Slot k of every SM comes before slot k + 1 of any
 * (place_cta), as CTAs fill them, so a grid smaller than the GPU touches the start of the
 * blocks only (v100, 256 CTAs of 8 warps: 10 of the events' 20 MiB). Kernels run one at a
 * time (the device worker); a lock makes the hand-over safe all the same.
 *
 * The events, which every run writes, are in huge pages (huge.c): the model reads a warp's
 * events long after its run wrote them, among every SM's warps, so with 4 KiB pages nearly
 * every event it reads first misses the TLB; the walk held up issue's prefetch of the next
 * event (half of issue's time, perf). The rows, four times the events' size and written only by the memory events whose
 * addresses have no compact shape (most have one), are in 4 KiB pages: in huge pages every
 * 2 MiB a warp touched was zeroed whole, mostly for rows never written (v100's 80 MiB of rows
 * were 37% of a vecadd's samples, in the kernel's page clearing, and 100 MB of its memory).
 *
 * Slot s's events start RING_STRIDE * s into their block, a host line more than a ring's 4 KiB,
 * so that the slots' rings start at every line of a page in turn. A run writes from its ring's
 * start, and short runs are the common case (v100 vecadd: 15 events, a quarter of the ring): a
 * ring at every page's start put all the slots' events in the quarter of the host's cache sets
 * that the first kilobyte of a page maps to (sets are chosen by the address bits below the
 * page's and a few above), where they missed each other out of the caches, the model's first
 * read of a due warp's event (sm.c) most. The cost is a line per slot: 1.6% more memory. */
#include "timing/model/model.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

/* a slot's events in the block: a ring and a host line (above) */
#define RING_STRIDE (EMU_RING_EVENTS_BYTES + 64)

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static tm_rings kept;   /* the last kernel's blocks, for the next */

_Static_assert(RING_STRIDE % _Alignof(emu_event) == 0 && RING_STRIDE % 64 == 0,
               "every slot's events start an aligned host line");
_Static_assert(EMU_RING_ROWS_BYTES % TM_RING_ALIGN == 0, "every slot's rows page-aligned");

static void rings_free(tm_rings *r)
{
    free(r->events);
    free(r->rows);
    *r = (tm_rings){0};
}

bool tm_rings_take(tm_rings *r, size_t slots)
{
    pthread_mutex_lock(&kept_lock);
    *r = kept;
    kept = (tm_rings){0};
    pthread_mutex_unlock(&kept_lock);
    if (r->events && r->slots >= slots) return true;
    rings_free(r);
    if (!slots) return false;
    r->events = tm_huge_alloc(slots * RING_STRIDE, NULL);
    size_t rows = slots * EMU_RING_ROWS_BYTES;
    r->rows = aligned_alloc(TM_RING_ALIGN, rows);
    if (r->rows) (void)madvise(r->rows, rows, MADV_NOHUGEPAGE);   /* where THP is always on */
    if (!r->events || !r->rows) {
        rings_free(r);
        return false;
    }
    r->slots = slots;
    return true;
}

emu_event *tm_ring_events(const tm_rings *r, size_t slot)
{
    assert(slot < r->slots);
    return (emu_event *)((char *)r->events + slot * RING_STRIDE);
}

uint64_t *tm_ring_rows(const tm_rings *r, size_t slot)
{
    assert(slot < r->slots);
    return (uint64_t *)((char *)r->rows + slot * EMU_RING_ROWS_BYTES);
}

void tm_rings_give(tm_rings *r)
{
    if (!r->events) return;
    pthread_mutex_lock(&kept_lock);
    /* the larger blocks stay */
    tm_rings old = *r;
    if (r->slots > kept.slots) {
        old = kept;
        kept = *r;
    }
    pthread_mutex_unlock(&kept_lock);
    rings_free(&old);
    *r = (tm_rings){0};
}

