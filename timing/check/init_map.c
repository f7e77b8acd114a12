/* init_map.c: initcheck's record of which bytes of device allocations were written since they
 * were allocated: one bit per byte, in pages that exist only for allocations made since the
 * check began (memory without a page counts as initialised: module variables, which PTX
 * zero-fills, and host memory the device maps). Kernels set bits with atomic ORs under the
 * read side of a lock; allocations take the write side. */
#include "timing/check/check_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SHIFT 12
#define PAGE_BYTES (1u << PAGE_SHIFT)
#define NBUCKETS 4096

typedef struct ipage {
    uint64_t no;
    struct ipage *next;
    uint8_t bits[PAGE_BYTES / 8];
} ipage;

struct ck_initmap {
    pthread_rwlock_t lock;
    ipage *bucket[NBUCKETS];
};

ck_initmap *ck_initmap_create(void)
{
    ck_initmap *m = calloc(1, sizeof *m);
    if (m) pthread_rwlock_init(&m->lock, NULL);
    return m;
}

void ck_initmap_destroy(ck_initmap *m)
{
    if (!m) return;
    for (size_t i = 0; i < NBUCKETS; i++)
        for (ipage *p = m->bucket[i], *n; p; p = n) {
            n = p->next;
            free(p);
        }
    pthread_rwlock_destroy(&m->lock);
    free(m);
}

static ipage *find(ck_initmap *m, uint64_t no)
{
    for (ipage *p = m->bucket[no % NBUCKETS]; p; p = p->next)
        if (p->no == no) return p;
    return NULL;
}

/* The bits of [b, end) that lie in the bitmap byte of b (end within the same page). */
static uint8_t run_bits(uint64_t b, uint64_t end, uint64_t *next)
{
    uint32_t first = (uint32_t)(b & 7);
    uint64_t stop = (b | 7) + 1 < end ? (b | 7) + 1 : end;
    *next = stop;
    return (uint8_t)(((1u << (stop - b)) - 1) << first);
}

/* Marks [addr, addr+n) (lock held: read side to mark written, write side to clear). */
static void set_locked(ck_initmap *m, uint64_t addr, uint64_t n, bool initialised)
{
    for (uint64_t a = addr; a < addr + n;) {
        uint64_t no = a >> PAGE_SHIFT, end = (no + 1) << PAGE_SHIFT;
        if (end > addr + n) end = addr + n;
        ipage *p = find(m, no);
        if (!p && !initialised) {
            p = malloc(sizeof *p);
            if (p) {
                /* bytes of the page outside the allocation count as written */
                memset(p->bits, 0xff, sizeof p->bits);
                p->no = no;
                p->next = m->bucket[no % NBUCKETS];
                m->bucket[no % NBUCKETS] = p;
            }
        }
        for (uint64_t b = a, nb; p && b < end; b = nb) {
            uint8_t bits = run_bits(b, end, &nb);
            uint8_t *byte = &p->bits[(b & (PAGE_BYTES - 1)) >> 3];
            if (initialised) {
                if ((__atomic_load_n(byte, __ATOMIC_RELAXED) & bits) != bits)
                    __atomic_fetch_or(byte, bits, __ATOMIC_RELAXED);
            } else {
                *byte &= (uint8_t)~bits;
            }
        }
        a = end;
    }
}

static bool first_locked(ck_initmap *m, uint64_t addr, uint64_t n, uint64_t *first)
{
    for (uint64_t a = addr; a < addr + n;) {
        uint64_t no = a >> PAGE_SHIFT, end = (no + 1) << PAGE_SHIFT;
        if (end > addr + n) end = addr + n;
        ipage *p = find(m, no);
        for (uint64_t b = a, nb; p && b < end; b = nb) {
            uint8_t bits = run_bits(b, end, &nb);
            uint8_t have = __atomic_load_n(&p->bits[(b & (PAGE_BYTES - 1)) >> 3],
                                           __ATOMIC_RELAXED);
            if ((have & bits) != bits) {
                *first = (b & ~UINT64_C(7)) + (uint64_t)__builtin_ctz(bits & ~have);
                return true;
            }
        }
        a = end;
    }
    return false;
}

void ck_initmap_set(ck_initmap *m, uint64_t addr, uint64_t n, bool initialised)
{
    if (!n) return;
    if (initialised) pthread_rwlock_rdlock(&m->lock);
    else pthread_rwlock_wrlock(&m->lock);
    set_locked(m, addr, n, initialised);
    pthread_rwlock_unlock(&m->lock);
}

bool ck_initmap_first_uninit(ck_initmap *m, uint64_t addr, uint64_t n, uint64_t *first)
{
    pthread_rwlock_rdlock(&m->lock);
    bool found = first_locked(m, addr, n, first);
    pthread_rwlock_unlock(&m->lock);
    return found;
}

void ck_initmap_op_begin(ck_initmap *m)
{
    pthread_rwlock_rdlock(&m->lock);
}

void ck_initmap_op_end(ck_initmap *m)
{
    pthread_rwlock_unlock(&m->lock);
}

void ck_initmap_mark_in_op(ck_initmap *m, uint64_t addr, uint64_t n)
{
    set_locked(m, addr, n, true);
}

bool ck_initmap_first_in_op(ck_initmap *m, uint64_t addr, uint64_t n, uint64_t *first)
{
    return first_locked(m, addr, n, first);
}
