/* stats.c: iGPU's statistics (spec igpu.md S-11.8): counts added up over launches, and the
 * distributions of dynamic region sizes and live-ins, kept as bucket counts so that they cost
 * the same on any run length and come out the same in any order of addition. */
#include "timing/timing.h"

static uint32_t bucket_of(uint64_t v)
{
    if (v < TIMING_HIST_EXACT) return (uint32_t)v;
    uint32_t e = 63u - (uint32_t)__builtin_clzll(v);          /* 8 .. 63 */
    uint32_t sub = (uint32_t)(v >> (e - 5)) & 31u;
    return TIMING_HIST_EXACT + (e - 8) * 32u + sub;
}

static uint64_t bucket_floor(uint32_t b)
{
    if (b < TIMING_HIST_EXACT) return b;
    uint32_t e = (b - TIMING_HIST_EXACT) / 32u + 8, sub = (b - TIMING_HIST_EXACT) % 32u;
    return (uint64_t)(32u + sub) << (e - 5);
}

void timing_hist_add(timing_hist *h, uint64_t v)
{
    __atomic_fetch_add(&h->count[bucket_of(v)], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&h->n, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&h->sum, v, __ATOMIC_RELAXED);
    uint64_t m = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
    while (v > m && !__atomic_compare_exchange_n(&h->max, &m, v, true, __ATOMIC_RELAXED,
                                                 __ATOMIC_RELAXED)) {
    }
}

void timing_hist_merge(timing_hist *a, const timing_hist *b)
{
    a->n += b->n;
    a->sum += b->sum;
    if (b->max > a->max) a->max = b->max;
    for (uint32_t i = 0; i < TIMING_HIST_BUCKETS; i++) a->count[i] += b->count[i];
}

uint64_t timing_hist_percentile(const timing_hist *h, double p)
{
    if (!h->n) return 0;
    /* nearest rank: ceil(p/100 * n), at least 1 */
    double r = p / 100.0 * (double)h->n;
    uint64_t rank = (uint64_t)r;
    if ((double)rank < r) rank++;
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < TIMING_HIST_BUCKETS; i++) {
        seen += h->count[i];
        if (seen >= rank) return bucket_floor(i);
    }
    return h->max;
}

void timing_igpu_stats_add(timing_igpu_stats *a, const timing_igpu_stats *b)
{
    a->boundaries += b->boundaries;
    a->faults += b->faults;
    a->restarts += b->restarts;
    a->short_restarts += b->short_restarts;
    a->reexecuted += b->reexecuted;
    a->reexecuted_paging += b->reexecuted_paging;
    a->page_faults += b->page_faults;
    a->page_stalls += b->page_stalls;
    a->evictions += b->evictions;
    a->spill_instructions += b->spill_instructions;
    a->reload_instructions += b->reload_instructions;
    a->page_fault_cycles += b->page_fault_cycles;
    a->restart_penalty_cycles += b->restart_penalty_cycles;
    timing_hist_merge(&a->region_size, &b->region_size);
    timing_hist_merge(&a->liveins, &b->liveins);
}
