/* huge.c: the model's large blocks that its host threads touch all over (the warp slots' events
 * and state, the resident CTAs' registers), in transparent huge pages where the system gives
 * them (on request: MADV_HUGEPAGE; without it, 4 KiB pages).
 *
 * In 4 KiB pages each page of such a block is a fault on its first write, about 1.6 us with its
 * zeroing (a 36 MiB block: 15 ms in 4 KiB pages, 1.4 ms in huge pages), and the model's reads
 * among thousands of warps miss the TLB. A huge page is zeroed whole on its first write, so
 * these blocks hold only what the model writes nearly everywhere: parts written by few (the
 * events' address rows, rings.c) lie apart in 4 KiB pages. */
#include "timing/model/model.h"

#include <stdlib.h>
#include <sys/mman.h>

void *tm_huge_alloc(size_t bytes, size_t *have)
{
    size_t huge = (size_t)2 << 20;
    bytes = (bytes + huge - 1) / huge * huge;
    void *p = bytes ? aligned_alloc(huge, bytes) : NULL;
    if (p) (void)madvise(p, bytes, MADV_HUGEPAGE);   /* a hint */
    if (have) *have = p ? bytes : 0;
    return p;
}
