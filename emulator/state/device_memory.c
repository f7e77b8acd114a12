/* device_memory.c: the device address space, its allocator and the allocation map.
 *
 * One region is reserved at start-up at a fixed address, so device pointers are the same on
 * every run; allocations are first-fit in address order (deterministic), 256-byte aligned,
 * zero-filled. The sorted allocation map is what every kernel access is checked against.
 *
 * What it costs, since programs that allocate per iteration spend their time here:
 *   - Pages are the host's, made on first touch; the region asks for transparent huge pages
 *     (MADV_HUGEPAGE), so where the host has them a first touch costs one fault per 2 MiB.
 *   - Freed memory stays resident for the next allocation: freeing clears only the pages that
 *     were ever touched (mincore says which), so a malloc/memset/free cycle costs a memset,
 *     not a fresh page fault per page. Past a bound per free, touched pages go back to the
 *     kernel (MADV_DONTNEED, which also reads as zero) rather than being written.
 *   - No per-byte state: the map holds one entry per allocation.
 *   - Look-ups (the executors call emu_find_allocation on every access that misses a warp's
 *     cache, from every host thread) take no lock: the map's array is reserved once and never
 *     moves, and a sequence counter (a seqlock) tells a reader that a writer changed the map
 *     under it, in which case it looks again. Writers (allocation, free) take the mutex.
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
/* Live allocations (and registered host ranges) at most: the map's array is reserved for this
 * many entries once (address space only; pages as it grows). */
#define MAX_ENTRIES (UINT64_C(1) << 22)
/* Clearing a freed range: below this, plain memset; above, resident pages are cleared while
 * they add up to at most KEEP_RESIDENT, and the rest is handed back to the kernel. */
#define SMALL_CLEAR (UINT64_C(64) << 10)
#define KEEP_RESIDENT (UINT64_C(64) << 20)
#define MINCORE_CHUNK (UINT64_C(64) << 20)

typedef struct alloc_entry {
    uint64_t base;
    uint64_t size;     /* bytes asked for: accesses beyond it are out of bounds */
    uint64_t span;     /* bytes reserved (size rounded up) */
    uint64_t kind;     /* emu_alloc_kind (a whole word: entries are read field by field) */
} alloc_entry;

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;     /* writers */
    uint64_t seq;             /* seqlock: odd while a writer changes the map */
    uint64_t capacity;
    uint64_t reserved;        /* set aside for the context (emu_device_reserve) */
    uint8_t *base;
    uint64_t used;
    alloc_entry *a;           /* MAX_ENTRIES reserved, n used, sorted by base */
    uint64_t n;
    uint64_t gen;
    long page;
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
    dm.page = sysconf(_SC_PAGESIZE);
    if (dm.page <= 0) dm.page = 4096;
    if (!dm.capacity) dm.capacity = DEFAULT_CAPACITY;
    int prot = PROT_READ | PROT_WRITE;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void *map = mmap(NULL, MAX_ENTRIES * sizeof(alloc_entry), prot, flags, -1, 0);
    void *p = MAP_FAILED;
/* (ThreadSanitizer's build: its shadow memory leaves the hint's range to no application) */
#if defined(MAP_FIXED_NOREPLACE) && !defined(__SANITIZE_THREAD__)
    p = mmap((void *)(uintptr_t)DEVICE_BASE_HINT, dm.capacity, prot, flags | MAP_FIXED_NOREPLACE,
             -1, 0);
    if (p != MAP_FAILED && (uint64_t)(uintptr_t)p != DEVICE_BASE_HINT) {
        /* an old kernel treated the flag as a hint and put it elsewhere: keep it anyway */
    }
#endif
    if (p == MAP_FAILED) p = mmap(NULL, dm.capacity, prot, flags, -1, 0);
    if (p == MAP_FAILED || map == MAP_FAILED) {
        dm.failed = true;
        fprintf(stderr, "ptxsim: cannot reserve %llu bytes of device address space: %s\n",
                (unsigned long long)dm.capacity, strerror(errno));
        if (p != MAP_FAILED) munmap(p, dm.capacity);
        if (map != MAP_FAILED) munmap(map, MAX_ENTRIES * sizeof(alloc_entry));
        return;
    }
#ifdef MADV_HUGEPAGE
    madvise(p, dm.capacity, MADV_HUGEPAGE);   /* a hint: fine if the host has none */
#endif
    dm.a = map;
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

/* ---------------------------------------------------------------- the map, for writers */

static void write_begin(void)
{
    __atomic_store_n(&dm.seq, dm.seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(void)
{
    __atomic_store_n(&dm.seq, dm.seq + 1, __ATOMIC_RELEASE);
}

/* Index of the first entry whose base is > addr (lock held). */
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
    if (dm.n >= MAX_ENTRIES) return false;
    size_t i = upper_bound(e.base);
    write_begin();
    memmove(&dm.a[i + 1], &dm.a[i], (dm.n - i) * sizeof *dm.a);
    dm.a[i] = e;
    __atomic_store_n(&dm.n, dm.n + 1, __ATOMIC_RELAXED);
    write_end();
    return true;
}

static void remove_at(size_t i)
{
    write_begin();
    memmove(&dm.a[i], &dm.a[i + 1], (dm.n - i - 1) * sizeof *dm.a);
    __atomic_store_n(&dm.n, dm.n - 1, __ATOMIC_RELAXED);
    write_end();
    __atomic_add_fetch(&dm.gen, 1, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- allocation */

uint64_t emu_device_alloc(uint64_t size, emu_alloc_kind kind)
{
    if (!ensure()) return 0;
    uint64_t span = size ? (size + ALIGNMENT - 1) & ~(ALIGNMENT - 1) : ALIGNMENT;
    if (span < size) return 0;
    pthread_mutex_lock(&dm.lock);
    uint64_t rb = (uint64_t)(uintptr_t)dm.base, re = rb + dm.capacity;
    uint64_t cur = rb, found = 0;
    /* used counts the context's reservation too: what is left is what may be handed out */
    if (span <= dm.capacity && dm.used <= dm.capacity - span) {
        for (size_t i = 0; i < dm.n; i++) {
            if (!in_region(dm.a[i].base)) continue;
            if (dm.a[i].base >= cur && dm.a[i].base - cur >= span) break;
            uint64_t end = dm.a[i].base + dm.a[i].span;
            if (end > cur) cur = end;
        }
        if (cur <= re && re - cur >= span) found = cur;
    }
    if (found) {
        alloc_entry e = { found, size, span, (uint64_t)kind };
        if (!insert(e)) found = 0;
        else dm.used += span;
    }
    pthread_mutex_unlock(&dm.lock);
    return found;
}

/* Makes freed memory read as zero again, writing only the pages that were ever touched. */
static void clear_range(uint64_t a, uint64_t n)
{
    uint64_t pg = (uint64_t)dm.page;
    uint64_t lo = (a + pg - 1) & ~(pg - 1), hi = (a + n) & ~(pg - 1);
    if (n <= SMALL_CLEAR || lo >= hi) {
        memset((void *)(uintptr_t)a, 0, n);
        return;
    }
    memset((void *)(uintptr_t)a, 0, lo - a);
    memset((void *)(uintptr_t)hi, 0, a + n - hi);
    uint64_t kept = 0;
    unsigned char vec[MINCORE_CHUNK / 4096];
    for (uint64_t c = lo; c < hi; c += MINCORE_CHUNK) {
        uint64_t ce = hi - c < MINCORE_CHUNK ? hi : c + MINCORE_CHUNK;
        uint64_t pages = (ce - c) / pg;
        if (pages > sizeof vec || mincore((void *)(uintptr_t)c, ce - c, vec) != 0) {
            /* no residency to go by: hand the whole chunk back */
            if (madvise((void *)(uintptr_t)c, ce - c, MADV_DONTNEED) != 0)
                memset((void *)(uintptr_t)c, 0, ce - c);
            continue;
        }
        for (uint64_t i = 0; i < pages;) {
            if (!(vec[i] & 1)) {
                i++;
                continue;
            }
            uint64_t j = i;
            while (j < pages && (vec[j] & 1)) j++;
            void *run = (void *)(uintptr_t)(c + i * pg);
            uint64_t len = (j - i) * pg;
            if (kept + len <= KEEP_RESIDENT) {
                memset(run, 0, len);
                kept += len;
            } else if (madvise(run, len, MADV_DONTNEED) != 0) {
                memset(run, 0, len);
            }
            i = j;
        }
    }
}

bool emu_device_free(uint64_t addr)
{
    if (!ensure()) return false;
    pthread_mutex_lock(&dm.lock);
    size_t i = upper_bound(addr);
    bool ok = i > 0 && dm.a[i - 1].base == addr && dm.a[i - 1].kind != EMU_ALLOC_HOST;
    alloc_entry e = ok ? dm.a[i - 1] : (alloc_entry){0};
    if (ok) {
        remove_at(i - 1);
        dm.used -= e.span;
        /* cleared before the range can be handed out again: still under the lock */
        clear_range(e.base, e.span);
    }
    pthread_mutex_unlock(&dm.lock);
    return ok;
}

bool emu_device_reserve(uint64_t bytes)
{
    if (!ensure()) return false;
    pthread_mutex_lock(&dm.lock);
    bool ok = bytes <= dm.capacity && dm.used - dm.reserved + bytes <= dm.capacity;
    if (ok) {
        dm.used = dm.used - dm.reserved + bytes;
        dm.reserved = bytes;
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

/* ---------------------------------------------------------------- look-ups, lock-free */

static inline uint64_t rd(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

bool emu_find_allocation(uint64_t addr, uint64_t size, uint64_t *base, uint64_t *alloc_size,
                         emu_alloc_kind *kind)
{
    if (!ensure()) return false;
    for (;;) {
        uint64_t s1 = __atomic_load_n(&dm.seq, __ATOMIC_ACQUIRE);
        if (s1 & 1) continue;   /* a writer is in the middle of a change */
        uint64_t n = rd(&dm.n);
        if (n > MAX_ENTRIES) n = MAX_ENTRIES;
        uint64_t lo = 0, hi = n;
        while (lo < hi) {
            uint64_t mid = (lo + hi) / 2;
            if (rd(&dm.a[mid].base) <= addr) lo = mid + 1;
            else hi = mid;
        }
        bool ok = false;
        uint64_t eb = 0, es = 0, ek = 0;
        if (lo > 0) {
            eb = rd(&dm.a[lo - 1].base);
            es = rd(&dm.a[lo - 1].size);
            ek = rd(&dm.a[lo - 1].kind);
            ok = addr >= eb && addr - eb <= es && size <= es - (addr - eb);
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&dm.seq, __ATOMIC_RELAXED) != s1) continue;
        if (ok) {
            if (base) *base = eb;
            if (alloc_size) *alloc_size = es;
            if (kind) *kind = (emu_alloc_kind)ek;
        }
        return ok;
    }
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

const uint64_t *emu_device_generation_word(void) { return &dm.gen; }

/* ---------------------------------------------------------------- pageable host memory
 * With pageable memory access on (systems with HMM or ATS), a kernel may use any host memory
 * the process can read and write. The writable mappings of /proc/self/maps, less the device
 * region (whose unallocated parts must still fault), are kept sorted and read again when an
 * address is not in them, so memory the program maps later is found too. */

typedef struct host_range { uint64_t lo, hi; } host_range;

static struct {
    bool on;
    host_range *r;
    size_t n, cap;
} pg;

void emu_set_pageable_access(bool on)
{
    __atomic_store_n(&pg.on, on, __ATOMIC_RELAXED);
}

static void add_range(uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return;
    if (pg.n == pg.cap) {
        size_t nc = pg.cap ? pg.cap * 2 : 64;
        host_range *nr = realloc(pg.r, nc * sizeof *nr);
        if (!nr) return;
        pg.r = nr;
        pg.cap = nc;
    }
    pg.r[pg.n++] = (host_range){ lo, hi };
}

/* Lock held. /proc/self/maps lists mappings in address order. */
static void read_host_maps(void)
{
    pg.n = 0;
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f) return;
    uint64_t db = (uint64_t)(uintptr_t)dm.base, de = db + (dm.base ? dm.capacity : 0);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perms[8];
        if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) != 3) continue;
        if (perms[0] != 'r' || perms[1] != 'w') continue;
        if (hi <= db || lo >= de) {
            add_range(lo, hi);
        } else {
            add_range(lo, db > lo ? db : lo);
            add_range(de < hi ? de : hi, hi);
        }
    }
    fclose(f);
}

static bool find_host_range(uint64_t a, uint64_t size, uint64_t *base, uint64_t *span)
{
    size_t lo = 0, hi = pg.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pg.r[mid].lo <= a) lo = mid + 1;
        else hi = mid;
    }
    /* Adjacent writable mappings (heap grown by brk, neighbouring mmaps) form one range. */
    if (lo == 0) return false;
    size_t i = lo - 1;
    if (a >= pg.r[i].hi) return false;
    uint64_t start = pg.r[i].lo, end = pg.r[i].hi;
    while (i > 0 && pg.r[i - 1].hi == start) start = pg.r[--i].lo;
    for (size_t j = lo; j < pg.n && pg.r[j].lo == end; j++) end = pg.r[j].hi;
    if (size > end - a) return false;
    *base = start;
    *span = end - start;
    return true;
}

bool emu_pageable_range(uint64_t addr, uint64_t size, uint64_t *base, uint64_t *span)
{
    if (!__atomic_load_n(&pg.on, __ATOMIC_RELAXED)) return false;
    if (!ensure()) return false;
    uint64_t b = 0, s = 0;
    pthread_mutex_lock(&dm.lock);
    bool ok = !in_region(addr) && find_host_range(addr, size, &b, &s);
    if (!ok && !in_region(addr)) {
        read_host_maps();
        ok = find_host_range(addr, size, &b, &s);
    }
    pthread_mutex_unlock(&dm.lock);
    if (ok) {
        if (base) *base = b;
        if (span) *span = s;
    }
    return ok;
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
