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

/* The pages of [p, p + rounded), a block of `bytes` rounded up to whole huge pages: huge (a
 * hint), but for a last huge page of which the block uses at most a quarter. A huge page is
 * zeroed whole on its first touch, and on this VM one whose memory the host has taken back
 * costs 3-6 ms to zero (a warm one ~0.1 ms): a block's small tail (v100 vecadd: the event
 * rings' 0.3 MiB past 20 MiB, the registers' 0.35 MiB) is cheaper in 4 KiB pages, each zeroed
 * where first touched (~1.6 us warm, up to ~9 us cold: at most 128 of them). */
static void advise(uint8_t *p, size_t bytes, size_t rounded)
{
    size_t huge = (size_t)2 << 20, whole = bytes / huge * huge;
    if (bytes - whole > huge / 4) whole = rounded;
    if (whole) (void)madvise(p, whole, MADV_HUGEPAGE);
    if (whole < rounded)   /* (where THP is always on) */
        (void)madvise(p + whole, rounded - whole, MADV_NOHUGEPAGE);
}

void *tm_huge_alloc(size_t bytes, size_t *have)
{
    size_t huge = (size_t)2 << 20, rounded = (bytes + huge - 1) / huge * huge;
    void *p = rounded ? aligned_alloc(huge, rounded) : NULL;
    if (p) advise(p, bytes, rounded);
    if (have) *have = p ? rounded : 0;
    return p;
}

/* Zeroed blocks come straight from mmap: a calloc of this size may come from a heap the
 * process freed into (glibc raises its mmap threshold as large blocks are freed) and is then
 * zeroed here, by this thread, page by page; fresh anonymous pages are zeroed by the kernel on
 * their first touch, by the thread that touches them, one fault per 2 MiB. */
static size_t huge_round(size_t bytes)
{
    size_t huge = (size_t)2 << 20;
    return (bytes + huge - 1) / huge * huge;
}

void *tm_huge_zalloc(size_t bytes)
{
    size_t huge = (size_t)2 << 20, n = huge_round(bytes);
    if (!n) return NULL;
    /* map a huge page more and keep the aligned part */
    uint8_t *m = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)m + huge - 1) / huge * huge);
    if (p > m) (void)munmap(m, (size_t)(p - m));
    if (m + n + huge > p + n) (void)munmap(p + n, (size_t)(m + n + huge - (p + n)));
    advise(p, bytes, n);
    return p;
}

void tm_huge_zfree(void *p, size_t bytes)
{
    if (p) (void)munmap(p, huge_round(bytes));
}

/* A byte of each host page written with itself: a locked or of 0 is a write from the first,
 * so the page is faulted in once, where a read would map the shared zero page and the next
 * write fault again; the contents stay what they were, whoever else touches the pages. */
void tm_touch(void *p, size_t bytes)
{
    for (uintptr_t a = (uintptr_t)p, end = a + bytes; a < end; a = (a | 4095) + 1)
        (void)__atomic_fetch_or((uint8_t *)a, (uint8_t)0, __ATOMIC_RELAXED);
}
