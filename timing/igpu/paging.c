/* paging.c: iGPU's demand-paging model (paper §4.2, spec igpu.md S-6.3, S-7.5): which pages
 * of device memory are resident. Functional only: a first touch is a restartable fault and the
 * page is resident from then on; the fault's latency (spec: vm.fault_latency) would cost
 * cycles under --timing, which --igpu does not run with yet.
 *
 * Determinism: a page arrives exactly once per residency, at the first touch of any warp, so
 * the number of faults of a launch is the number of distinct non-resident pages its global
 * memory operations touch, whatever the order of warps and host threads. The resident set is
 * therefore only cut back between launches, where the order is the program's: oldest arrival
 * launch first, then lowest address. Within a launch the set may exceed the limit; that is
 * also what keeps every restarted region's pages resident (the forward-progress condition of
 * spec S-8.2).
 *
 * Under GPUDet (timing_igpu_pages_by_quantum) the warps of a quantum run on any host threads in
 * any order, so a first touch by one warp must not decide another's fault: a page that arrives
 * in quantum q is resident for every warp from quantum q + 1 on; within q it is resident only
 * for the warps that faulted on it (each waited for it: timing_igpu_own). Every warp's faults
 * then depend on its own history and on the quanta before, which GPUDet makes deterministic;
 * page_faults counts each warp's fault on a page. */
#include "timing/timing.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct page_slot {
    uint64_t page;     /* page number + 1; 0 = empty */
    uint64_t launch;   /* the launch it arrived in */
    uint64_t quantum;  /* by quanta: the quantum it arrived in */
} page_slot;

struct timing_igpu_pages {
    pthread_mutex_t lock;
    uint64_t page_size;    /* a power of two */
    uint32_t shift;
    uint64_t resident_max;
    uint64_t launch;       /* launches ended so far: the arrival clock */
    bool by_quantum;       /* GPUDet: pages arrive at the end of the quantum that asked */
    uint64_t quantum;      /* quanta (and launches) ended so far */
    page_slot *slots;      /* open addressing, linear probing; a power of two in size */
    size_t cap, n;
};

static size_t hash_page(uint64_t page, size_t cap)
{
    page *= UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(page >> 17) & (cap - 1);
}

static page_slot *find(timing_igpu_pages *p, uint64_t page)
{
    for (size_t i = hash_page(page, p->cap);; i = (i + 1) & (p->cap - 1))
        if (p->slots[i].page == page + 1 || p->slots[i].page == 0) return &p->slots[i];
}

static bool grow(timing_igpu_pages *p)
{
    size_t cap = p->cap ? p->cap * 2 : 1024;
    page_slot *old = p->slots;
    size_t oldcap = p->cap;
    page_slot *s = calloc(cap, sizeof *s);
    if (!s) return false;
    p->slots = s;
    p->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].page) *find(p, old[i].page - 1) = old[i];
    free(old);
    return true;
}

timing_igpu_pages *timing_igpu_pages_create(uint64_t page_size, uint64_t resident_max)
{
    if (!page_size || (page_size & (page_size - 1))) return NULL;
    timing_igpu_pages *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    p->page_size = page_size;
    p->shift = (uint32_t)__builtin_ctzll(page_size);
    p->resident_max = resident_max;
    if (!grow(p)) {
        timing_igpu_pages_destroy(p);
        return NULL;
    }
    return p;
}

void timing_igpu_pages_destroy(timing_igpu_pages *p)
{
    if (!p) return;
    pthread_mutex_destroy(&p->lock);
    free(p->slots);
    free(p);
}

bool timing_igpu_pages_touch(timing_igpu_pages *p, const emu_mem_op *op)
{
    bool fault = false;
    uint64_t lowest = UINT64_MAX;
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *sg = &op->seg[i];
        if (!(op->mask >> sg->lane & 1) || !sg->size) continue;
        uint64_t first = sg->addr >> p->shift, last = (sg->addr + sg->size - 1) >> p->shift;
        for (uint64_t pg = first; pg <= last; pg++)
            if (pg < lowest && find(p, pg)->page == 0) lowest = pg;
    }
    /* out of host memory for a larger table: the page counts as resident, untracked */
    if (lowest != UINT64_MAX && ((p->n + 1) * 2 <= p->cap || grow(p))) {
        page_slot *s = find(p, lowest);
        s->page = lowest + 1;
        s->launch = p->launch;
        s->quantum = p->quantum;
        p->n++;
        fault = true;
    }
    pthread_mutex_unlock(&p->lock);
    return fault;
}

void timing_igpu_pages_by_quantum(timing_igpu_pages *p)
{
    p->by_quantum = true;
}

bool timing_igpu_pages_quantum_mode(const timing_igpu_pages *p)
{
    return p->by_quantum;
}

void timing_igpu_pages_quantum_end(timing_igpu_pages *p)
{
    pthread_mutex_lock(&p->lock);
    p->quantum++;
    pthread_mutex_unlock(&p->lock);
}

static bool own_has(const timing_igpu_own *o, uint64_t page)
{
    for (uint32_t i = 0; i < o->n; i++)
        if (o->pages[i] == page) return true;
    return false;
}

bool timing_igpu_pages_touch_own(timing_igpu_pages *p, const emu_mem_op *op, timing_igpu_own *own)
{
    bool fault = false;
    uint64_t lowest = UINT64_MAX;
    pthread_mutex_lock(&p->lock);
    if (own->quantum != p->quantum) {
        own->n = 0;   /* what the warp waited for in an earlier quantum is resident for all */
        own->quantum = p->quantum;
    }
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *sg = &op->seg[i];
        if (!(op->mask >> sg->lane & 1) || !sg->size) continue;
        uint64_t first = sg->addr >> p->shift, last = (sg->addr + sg->size - 1) >> p->shift;
        for (uint64_t pg = first; pg <= last; pg++) {
            if (pg >= lowest) continue;
            const page_slot *s = find(p, pg);
            if (s->page == 0 || (s->quantum == p->quantum && !own_has(own, pg))) lowest = pg;
        }
    }
    if (lowest != UINT64_MAX) {
        uint64_t *v = own->pages;
        if (own->n == own->cap) {
            uint32_t cap = own->cap ? own->cap * 2 : 8;
            v = realloc(own->pages, cap * sizeof *v);
            if (v) {
                own->pages = v;
                own->cap = cap;
            }
        }
        page_slot *s = find(p, lowest);
        /* out of host memory for a larger table or list: the page counts as resident */
        if (v && (s->page || (p->n + 1) * 2 <= p->cap || grow(p))) {
            s = find(p, lowest);
            if (!s->page) {
                s->page = lowest + 1;
                s->launch = p->launch;
                s->quantum = p->quantum;
                p->n++;
            }
            own->pages[own->n++] = lowest;
            fault = true;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return fault;
}

void timing_igpu_pages_rewind(timing_igpu_pages *p)
{
    pthread_mutex_lock(&p->lock);
    page_slot *old = p->slots;
    size_t oldcap = p->cap;
    page_slot *s = calloc(oldcap, sizeof *s);
    if (s) {
        p->slots = s;
        p->n = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].page && old[i].launch != p->launch) {
                *find(p, old[i].page - 1) = old[i];
                p->n++;
            }
        free(old);
    }
    pthread_mutex_unlock(&p->lock);
}

static int older(const void *a, const void *b)
{
    const page_slot *x = a, *y = b;
    if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
    return x->page < y->page ? -1 : x->page > y->page;
}

uint64_t timing_igpu_pages_end_launch(timing_igpu_pages *p)
{
    pthread_mutex_lock(&p->lock);
    p->launch++;
    p->quantum++;
    uint64_t evicted = 0;
    if (p->resident_max && p->n > p->resident_max) {
        page_slot *all = malloc(p->n * sizeof *all);
        if (all) {
            size_t k = 0;
            for (size_t i = 0; i < p->cap; i++)
                if (p->slots[i].page) all[k++] = p->slots[i];
            qsort(all, k, sizeof *all, older);
            evicted = k - p->resident_max;
            /* rebuild the table from the newest resident_max pages */
            for (size_t i = 0; i < p->cap; i++) p->slots[i] = (page_slot){0, 0, 0};
            p->n = 0;
            for (size_t i = evicted; i < k; i++) {
                *find(p, all[i].page - 1) = all[i];
                p->n++;
            }
            free(all);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return evicted;
}
