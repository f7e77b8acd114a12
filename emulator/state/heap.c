/* heap.c: the device heap behind malloc/free (and new/delete) in kernels.
 *
 * As on the GPU, the heap is one block of device memory of cudaLimitMallocHeapSize bytes, set
 * aside when a kernel first calls malloc; blocks are carved from it first-fit (next-fit from the
 * last allocation, which keeps bursts of per-thread mallocs linear), each with a 16-byte
 * header's worth of overhead and 16-byte alignment, so a request as large as the heap fails and
 * malloc returns NULL once the heap is full. Accesses are checked against the heap as a whole
 * (the device address map knows it as one allocation), as the hardware would not catch an
 * overrun into a neighbouring block either. One lock serialises the allocator: warps of several
 * host threads call it at once.
 */
#include "emulator/emu_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_ALIGN UINT64_C(16)
#define HEAP_HEADER UINT64_C(16)
#define DEFAULT_HEAP (UINT64_C(8) << 20)

typedef struct heap_block {
    uint64_t addr;     /* what malloc returned */
    uint64_t span;     /* bytes taken from the heap, header included */
} heap_block;

static struct {
    pthread_mutex_t lock;
    uint64_t want;           /* the configured size */
    uint64_t base, size;     /* the heap in use (0: not yet made) */
    bool used;               /* a kernel has called malloc since the last reset */
    heap_block *b;           /* live blocks in address order */
    size_t n, cap;
    size_t rover;            /* next-fit: index to search from */
} heap = { .lock = PTHREAD_MUTEX_INITIALIZER, .want = DEFAULT_HEAP };

bool emu_heap_set_size(uint64_t bytes)
{
    pthread_mutex_lock(&heap.lock);
    bool ok = true;
    if (heap.n == 0) {
        /* Set the heap aside now, as the driver does, so that a size the device cannot hold is
         * refused here rather than leaving every device malloc to return NULL. */
        uint64_t old = heap.size;
        if (heap.base) emu_device_free(heap.base);
        heap.base = heap.size = 0;
        heap.rover = 0;
        uint64_t want = bytes;
        if (want && !(heap.base = emu_device_alloc(want, EMU_ALLOC_DEVICE))) {
            ok = false;
            want = old;   /* keep what there was */
            if (old && (heap.base = emu_device_alloc(old, EMU_ALLOC_DEVICE)) == 0) want = 0;
        }
        heap.size = heap.base ? want : 0;
        if (ok) heap.want = bytes;
    } else {
        heap.want = bytes;   /* applies once the live blocks are freed */
    }
    pthread_mutex_unlock(&heap.lock);
    return ok;
}

bool emu_heap_in_use(void)
{
    pthread_mutex_lock(&heap.lock);
    bool used = heap.used;
    pthread_mutex_unlock(&heap.lock);
    return used;
}

uint64_t emu_heap_size(void)
{
    pthread_mutex_lock(&heap.lock);
    uint64_t s = heap.want;
    pthread_mutex_unlock(&heap.lock);
    return s;
}

/* The start of the free range before block i (i == n: the range after the last block). */
static uint64_t gap_start(size_t i)
{
    return i == 0 ? heap.base : heap.b[i - 1].addr - HEAP_HEADER + heap.b[i - 1].span;
}
static uint64_t gap_end(size_t i)
{
    return i == heap.n ? heap.base + heap.size : heap.b[i].addr - HEAP_HEADER;
}

static bool insert_at(size_t i, heap_block blk)
{
    if (heap.n == heap.cap) {
        size_t nc = heap.cap ? heap.cap * 2 : 256;
        heap_block *nb = realloc(heap.b, nc * sizeof *nb);
        if (!nb) return false;
        heap.b = nb;
        heap.cap = nc;
    }
    memmove(&heap.b[i + 1], &heap.b[i], (heap.n - i) * sizeof *heap.b);
    heap.b[i] = blk;
    heap.n++;
    return true;
}

uint64_t emu_heap_alloc(uint64_t size)
{
    if (size == 0 || size > (UINT64_C(1) << 48)) return 0;
    uint64_t span = HEAP_HEADER + ((size + HEAP_ALIGN - 1) & ~(HEAP_ALIGN - 1));
    uint64_t got = 0;
    pthread_mutex_lock(&heap.lock);
    heap.used = true;
    if (!heap.base && heap.want) {
        heap.base = emu_device_alloc(heap.want, EMU_ALLOC_DEVICE);
        heap.size = heap.base ? heap.want : 0;
        heap.rover = 0;
    }
    if (heap.base) {
        size_t start = heap.rover <= heap.n ? heap.rover : 0;
        for (size_t k = 0; k <= heap.n; k++) {
            size_t i = (start + k) % (heap.n + 1);
            uint64_t s = gap_start(i), e = gap_end(i);
            if (e >= s && e - s >= span) {
                heap_block blk = { s + HEAP_HEADER, span };
                if (insert_at(i, blk)) {
                    got = blk.addr;
                    heap.rover = i + 1;
                }
                break;
            }
        }
    }
    pthread_mutex_unlock(&heap.lock);
    return got;
}

bool emu_heap_free(uint64_t addr)
{
    if (!addr) return true;
    pthread_mutex_lock(&heap.lock);
    size_t lo = 0, hi = heap.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (heap.b[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    bool ok = lo < heap.n && heap.b[lo].addr == addr;
    if (ok) {
        memmove(&heap.b[lo], &heap.b[lo + 1], (heap.n - lo - 1) * sizeof *heap.b);
        heap.n--;
        if (heap.rover > lo) heap.rover--;
        /* a size set while blocks were live takes effect once the heap is empty */
        if (heap.n == 0 && heap.size != heap.want) {
            emu_device_free(heap.base);
            heap.base = heap.size = 0;
        }
    }
    pthread_mutex_unlock(&heap.lock);
    return ok;
}

void emu_heap_release_all(void)
{
    pthread_mutex_lock(&heap.lock);
    if (heap.base) emu_device_free(heap.base);
    heap.base = heap.size = 0;
    heap.n = 0;
    heap.rover = 0;
    heap.used = false;
    pthread_mutex_unlock(&heap.lock);
}

bool emu_heap_ensure(void)
{
    pthread_mutex_lock(&heap.lock);
    if (!heap.base && heap.want) {
        heap.base = emu_device_alloc(heap.want, EMU_ALLOC_DEVICE);
        heap.size = heap.base ? heap.want : 0;
        heap.rover = 0;
    }
    bool ok = heap.base != 0 || !heap.want;
    pthread_mutex_unlock(&heap.lock);
    return ok;
}

struct emu_heap_state {
    uint64_t base, size;
    heap_block *b;
    size_t n, rover;
};

emu_heap_state *emu_heap_save(void)
{
    emu_heap_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_lock(&heap.lock);
    s->base = heap.base;
    s->size = heap.size;
    s->n = heap.n;
    s->rover = heap.rover;
    s->b = malloc((heap.n ? heap.n : 1) * sizeof *s->b);
    if (s->b && heap.n) memcpy(s->b, heap.b, heap.n * sizeof *s->b);
    pthread_mutex_unlock(&heap.lock);
    if (!s->b) {
        free(s);
        return NULL;
    }
    return s;
}

bool emu_heap_load(const emu_heap_state *s)
{
    pthread_mutex_lock(&heap.lock);
    bool ok = s->base == heap.base && s->size == heap.size;
    if (ok && s->n > heap.cap) {
        heap_block *nb = realloc(heap.b, s->n * sizeof *nb);
        if (nb) {
            heap.b = nb;
            heap.cap = s->n;
        } else {
            ok = false;
        }
    }
    if (ok) {
        if (s->n) memcpy(heap.b, s->b, s->n * sizeof *s->b);
        heap.n = s->n;
        heap.rover = s->rover;
    }
    pthread_mutex_unlock(&heap.lock);
    return ok;
}

bool emu_heap_state_equal(const emu_heap_state *s)
{
    pthread_mutex_lock(&heap.lock);
    bool eq = s->base == heap.base && s->n == heap.n &&
              (s->n == 0 || memcmp(s->b, heap.b, s->n * sizeof *s->b) == 0);
    pthread_mutex_unlock(&heap.lock);
    return eq;
}

void emu_heap_state_free(emu_heap_state *s)
{
    if (!s) return;
    free(s->b);
    free(s);
}
