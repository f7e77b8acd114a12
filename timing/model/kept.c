/* kept.c: the memory system's large blocks kept from kernel to kernel (as rings.c and regs.c
 * keep theirs): the tag arrays of the L1s and the L2 slices, the MSHRs, and the record pools.
 *
 * Freed at a kernel's end, each of these blocks (v100: 0.6 to 16 MiB) went back to the system
 * with every page its kernel touched: the munmap calls were ~0.5 ms of the kernel's serial end
 * on v100 vecadd (about 1,200 pages, whatever the host threads), and the next kernel faulted
 * the pages in again. Kept, a block stays mapped until a kernel asks for one of its kind; one
 * that needs zeroing (the tag arrays, the MSHRs) is zeroed then, a memset of pages already
 * there. One block of each kind is kept: the larger of the last kernel's and the one kept.
 * Kernels run one at a time (the device worker); a lock makes the hand-over safe all the
 * same. */
#include "timing/model/model.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t bytes;
} kept[TM_KEPT_KINDS];

void *tm_kept_take(tm_kept_kind kind, size_t bytes, size_t *have)
{
    pthread_mutex_lock(&kept_lock);
    void *p = kept[kind].p;
    size_t n = kept[kind].bytes;
    kept[kind].p = NULL;
    kept[kind].bytes = 0;
    pthread_mutex_unlock(&kept_lock);
    if (p && n >= bytes) {
        *have = n;
        return p;
    }
    free(p);
    *have = 0;
    return NULL;
}

void tm_kept_give(tm_kept_kind kind, void *p, size_t bytes)
{
    if (!p) return;
    pthread_mutex_lock(&kept_lock);
    void *other = p;   /* the larger block stays */
    if (bytes > kept[kind].bytes) {
        other = kept[kind].p;
        kept[kind].p = p;
        kept[kind].bytes = bytes;
    }
    pthread_mutex_unlock(&kept_lock);
    free(other);
}
