/* device_memory.c: the device address space, its allocator and the allocation map.
 *
 * One region is reserved at start-up at a fixed address, so device pointers are the same on
 * every run; allocations are first-fit in address order (deterministic), 256-byte aligned,
 * zero-filled. The sorted allocation map is what every kernel access is checked against.
 */
#include "emulator/emu_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define DEVICE_BASE_HINT UINT64_C(0x200000000000)
#define DEFAULT_CAPACITY (UINT64_C(16) << 30)
#define ALIGNMENT UINT64_C(256)

typedef struct alloc_entry {
    uint64_t base;
    uint64_t size;     /* bytes asked for: accesses beyond it are out of bounds */
    uint64_t span;     /* bytes reserved (size rounded up) */
    uint8_t kind;
} alloc_entry;

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    uint64_t capacity;
    uint8_t *base;
    uint64_t used;
    alloc_entry *a;
    size_t n, cap;
    uint64_t gen;
    bool failed;
} dm = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

void emu_device_set_capacity(uint64_t bytes)
{
    pthread_mutex_lock(&dm.lock);
    if (!dm.base && bytes) dm.capacity = (bytes + 0xffff) & ~UINT64_C(0xffff);
    pthread_mutex_unlock(&dm.lock);
}

static void reserve(void)
{
    if (!dm.capacity) dm.capacity = DEFAULT_CAPACITY;
    int prot = PROT_READ | PROT_WRITE;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void *p = MAP_FAILED;
#ifdef MAP_FIXED_NOREPLACE
    p = mmap((void *)(uintptr_t)DEVICE_BASE_HINT, dm.capacity, prot, flags | MAP_FIXED_NOREPLACE,
             -1, 0);
    if (p != MAP_FAILED && (uint64_t)(uintptr_t)p != DEVICE_BASE_HINT) {
        /* an old kernel treated the flag as a hint and put it elsewhere: keep it anyway */
    }
#endif
    if (p == MAP_FAILED) p = mmap(NULL, dm.capacity, prot, flags, -1, 0);
    if (p == MAP_FAILED) {
        dm.failed = true;
        fprintf(stderr, "ptxsim: cannot reserve %llu bytes of device address space: %s\n",
                (unsigned long long)dm.capacity, strerror(errno));
        return;
    }
    dm.base = p;
}

static bool ensure(void)
{
    pthread_once(&dm.once, reserve);
    return dm.base != NULL;
}

static bool in_region(uint64_t a)
{
    uint64_t b = (uint64_t)(uintptr_t)dm.base;
    return a >= b && a < b + dm.capacity;
}

/* Index of the first entry whose base is > addr. */
static size_t upper_bound(uint64_t addr)
{
    size_t lo = 0, hi = dm.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (dm.a[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool insert(alloc_entry e)
{
    if (dm.n == dm.cap) {
        size_t nc = dm.cap ? dm.cap * 2 : 64;
        alloc_entry *na = realloc(dm.a, nc * sizeof *na);
        if (!na) return false;
        dm.a = na;
        dm.cap = nc;
    }
    size_t i = upper_bound(e.base);
    memmove(&dm.a[i + 1], &dm.a[i], (dm.n - i) * sizeof *dm.a);
    dm.a[i] = e;
    dm.n++;
    return true;
}

static void remove_at(size_t i)
{
    memmove(&dm.a[i], &dm.a[i + 1], (dm.n - i - 1) * sizeof *dm.a);
    dm.n--;
    __atomic_add_fetch(&dm.gen, 1, __ATOMIC_RELEASE);
}

uint64_t emu_device_alloc(uint64_t size, emu_alloc_kind kind)
{
    if (!ensure()) return 0;
    uint64_t span = size ? (size + ALIGNMENT - 1) & ~(ALIGNMENT - 1) : ALIGNMENT;
    if (span < size) return 0;
    pthread_mutex_lock(&dm.lock);
    uint64_t rb = (uint64_t)(uintptr_t)dm.base, re = rb + dm.capacity;
    uint64_t cur = rb, found = 0;
    for (size_t i = 0; i < dm.n; i++) {
        if (!in_region(dm.a[i].base)) continue;
        if (dm.a[i].base >= cur && dm.a[i].base - cur >= span) break;
        uint64_t end = dm.a[i].base + dm.a[i].span;
        if (end > cur) cur = end;
    }
    if (cur <= re && re - cur >= span) found = cur;
    if (found) {
        alloc_entry e = { found, size, span, (uint8_t)kind };
        if (!insert(e)) found = 0;
        else dm.used += span;
    }
    pthread_mutex_unlock(&dm.lock);
    return found;
}

/* Makes freed memory read as zero again; whole pages go back to the kernel. */
static void zero_range(uint64_t a, uint64_t n)
{
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t lo = (a + pg - 1) & ~(pg - 1), hi = (a + n) & ~(pg - 1);
    if (n < 16 * pg || lo >= hi) {
        memset((void *)(uintptr_t)a, 0, n);
        return;
    }
    memset((void *)(uintptr_t)a, 0, lo - a);
    memset((void *)(uintptr_t)hi, 0, a + n - hi);
    if (madvise((void *)(uintptr_t)lo, hi - lo, MADV_DONTNEED) != 0)
        memset((void *)(uintptr_t)lo, 0, hi - lo);
}

bool emu_device_free(uint64_t addr)
{
    if (!ensure()) return false;
    pthread_mutex_lock(&dm.lock);
    size_t i = upper_bound(addr);
    bool ok = i > 0 && dm.a[i - 1].base == addr && dm.a[i - 1].kind != EMU_ALLOC_HOST;
    if (ok) {
        alloc_entry e = dm.a[i - 1];
        remove_at(i - 1);
        dm.used -= e.span;
        zero_range(e.base, e.span);
    }
    pthread_mutex_unlock(&dm.lock);
    return ok;
}

bool emu_register_host_range(uint64_t addr, uint64_t size)
{
    if (!ensure() || size == 0) return false;
    pthread_mutex_lock(&dm.lock);
    bool ok = true;
    size_t i = upper_bound(addr);
    if (i > 0 && dm.a[i - 1].base + dm.a[i - 1].span > addr) ok = false;
    if (i < dm.n && dm.a[i].base < addr + size) ok = false;
    if (ok) {
        alloc_entry e = { addr, size, size, EMU_ALLOC_HOST };
        ok = insert(e);
    }
    pthread_mutex_unlock(&dm.lock);
    return ok;
}

bool emu_unregister_host_range(uint64_t addr)
{
    if (!ensure()) return false;
    pthread_mutex_lock(&dm.lock);
    size_t i = upper_bound(addr);
    bool ok = i > 0 && dm.a[i - 1].base == addr && dm.a[i - 1].kind == EMU_ALLOC_HOST;
    if (ok) remove_at(i - 1);
    pthread_mutex_unlock(&dm.lock);
    return ok;
}

bool emu_find_allocation(uint64_t addr, uint64_t size, uint64_t *base, uint64_t *alloc_size,
                         emu_alloc_kind *kind)
{
    if (!ensure()) return false;
    pthread_mutex_lock(&dm.lock);
    size_t i = upper_bound(addr);
    bool ok = false;
    if (i > 0) {
        alloc_entry *e = &dm.a[i - 1];
        if (addr >= e->base && addr - e->base <= e->size && size <= e->size - (addr - e->base)) {
            ok = true;
            if (base) *base = e->base;
            if (alloc_size) *alloc_size = e->size;
            if (kind) *kind = (emu_alloc_kind)e->kind;
        }
    }
    pthread_mutex_unlock(&dm.lock);
    return ok;
}

void emu_device_mem_info(uint64_t *used, uint64_t *total)
{
    ensure();
    pthread_mutex_lock(&dm.lock);
    if (used) *used = dm.used;
    if (total) *total = dm.capacity;
    pthread_mutex_unlock(&dm.lock);
}

uint64_t emu_device_generation(void)
{
    return __atomic_load_n(&dm.gen, __ATOMIC_ACQUIRE);
}

size_t emu_device_allocations(emu_alloc_info *out, size_t max)
{
    if (!ensure()) return 0;
    pthread_mutex_lock(&dm.lock);
    size_t n = dm.n;
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = (emu_alloc_info){ dm.a[i].base, dm.a[i].size, (emu_alloc_kind)dm.a[i].kind };
    pthread_mutex_unlock(&dm.lock);
    return n;
}
