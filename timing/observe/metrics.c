/* metrics.c: the per-kernel metrics --stats reports from the event stream, the ones CUDA
 * developers know from Nsight Compute: the instruction mix by op class, global-memory sectors
 * per request (how well a warp's accesses coalesce), and shared-memory wavefronts per request
 * (bank conflicts).
 *
 * Definitions (per warp instruction that executed for at least one lane):
 * - a global request is a load, store or atomic whose lanes address global memory; its sectors
 *   are the distinct 32-byte sectors the active lanes' bytes fall in (ideal: 4 for 32 lanes
 *   reading consecutive 4-byte words);
 * - a shared request is the same for shared memory; its wavefronts are the largest number of
 *   distinct 4-byte words that fall in one of the 32 four-byte banks (lanes reading the same
 *   word share it: a broadcast, no conflict), so a conflict-free request takes one wavefront
 *   and a k-way conflict k. Wider accesses count each of their words.
 * Each sink call adds its events' counts to its host thread's shard of the counter (atomic adds:
 * threads beyond the shards share one), and timing_metrics_end adds the shards to the kernel's
 * totals: sums, so they do not depend on the order or on the number of host threads. One set
 * of totals that every thread added to moved its lines from core to core at nearly every call
 * (the cycle model's SM threads and its weave's runs report all the time). */
#include "timing/timing.h"

#include <stdlib.h>
#include <string.h>

static void add(uint64_t *p, uint64_t v)
{
    if (v) __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/* The calling host thread's shard: threads take them in turn as they first report. */
static unsigned thread_shard(void)
{
    static unsigned next;
    static _Thread_local unsigned mine;   /* 1 + the shard; 0: none yet */
    if (!mine) mine = 1 + __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % TIMING_METRICS_SHARDS;
    return mine - 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The lanes' units (32-byte sectors, 4-byte words) in ascending lane order, each unit once,
 * into out (at most max): the common case, lanes whose first units never decrease, needs no
 * sort, since then a lane's units below the greatest one seen so far were all seen already (the
 * lane that reached it started no later). Returns the count, or -1 where a lane starts below
 * the one before it (the caller sorts). */
static int ascending_units(const uint64_t *first, const uint64_t *last, unsigned nl,
                           uint64_t *out, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nl; i++) {
        if (i && first[i] < first[i - 1]) return -1;
        uint64_t from = first[i];
        if (n && from <= out[n - 1]) from = out[n - 1] + 1;
        for (uint64_t x = from; x <= last[i] && n < max; x++) out[n++] = x;
    }
    return (int)n;
}

/* Every unit of the lanes, sorted, each once (the general case). */
static unsigned sorted_units(const uint64_t *first, const uint64_t *last, unsigned nl,
                             uint64_t *out, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nl; i++)
        for (uint64_t x = first[i]; x <= last[i] && n < max; x++) out[n++] = x;
    qsort(out, n, sizeof *out, cmp_u64);
    unsigned d = 0;
    for (unsigned i = 0; i < n; i++)
        if (i == 0 || out[i] != out[i - 1]) out[d++] = out[i];
    return d;
}

static unsigned distinct_units(const uint64_t *first, const uint64_t *last, unsigned nl,
                               uint64_t *out, unsigned max)
{
    int n = ascending_units(first, last, nl, out, max);
    return n >= 0 ? (unsigned)n : sorted_units(first, last, nl, out, max);
}

/* The distinct sectors of a compact event whose lanes are one run of consecutive lanes on one
 * progression (half_stride 16 strides) of at most a sector per lane, into *count: every sector
 * from the first lane's first byte to the last lane's last byte, since no lane's address is
 * past the sector after its predecessor's (what sectors() would find, without its 32 addresses
 * and their walk: most accesses, a warp's consecutive elements, have this shape). false when
 * the event has another shape; else also the lowest and highest of the lanes' addresses (the
 * first lane's and the last's). */
static bool progression_sectors(const emu_event *e, uint32_t lanes, uint64_t *count,
                                uint64_t *first_addr, uint64_t *last_addr)
{
    if (!(e->flags & EMU_EV_COMPACT) || e->stride < 0 || e->stride > 32 ||
        e->half_stride != 16 * e->stride || !lanes)
        return false;
    unsigned lo = (unsigned)__builtin_ctz(lanes), hi = 31u - (unsigned)__builtin_clz(lanes);
    if (lanes != (uint32_t)((2ull << hi) - (1ull << lo))) return false;
    uint64_t size = e->size ? e->size : 1;
    uint64_t first = e->base + (uint64_t)e->stride * lo;
    uint64_t last_lane = e->base + (uint64_t)e->stride * hi, last = last_lane + size - 1;
    if (first < e->base || last_lane < first || last < last_lane)
        return false;   /* wrapped: the general walk */
    *first_addr = first;
    *last_addr = last_lane;
    uint64_t n = (last >> 5) - (first >> 5) + 1;
    *count = n < EMU_WARP_SIZE * 4 ? n : EMU_WARP_SIZE * 4;   /* sectors()' bound */
    return true;
}

/* Distinct 32-byte sectors of the lanes' accesses. */
static uint64_t sectors(const emu_event *e, const uint64_t *addr, uint32_t lanes)
{
    uint64_t first[EMU_WARP_SIZE], last[EMU_WARP_SIZE], s[EMU_WARP_SIZE * 4];
    unsigned nl = 0;
    unsigned size = e->size ? e->size : 1;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        first[nl] = addr[l] >> 5;
        last[nl++] = (addr[l] + size - 1) >> 5;
    }
    return distinct_units(first, last, nl, s, sizeof s / sizeof s[0]);
}

/* The wavefronts a shared access takes: the most distinct words in one bank. */
static uint64_t wavefronts(const emu_event *e, const uint64_t *addr, uint32_t lanes)
{
    uint64_t first[EMU_WARP_SIZE], last[EMU_WARP_SIZE], words[EMU_WARP_SIZE * 8];
    unsigned nl = 0;
    unsigned size = e->size ? e->size : 1;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t off;
        emu_address_space(addr[l], &off);
        first[nl] = off >> 2;
        last[nl++] = (off + size - 1) >> 2;
    }
    unsigned n = distinct_units(first, last, nl, words, sizeof words / sizeof words[0]);
    unsigned per_bank[32] = { 0 }, most = 0;
    for (unsigned i = 0; i < n; i++) {   /* each word once: lanes reading one word broadcast */
        unsigned b = (unsigned)(words[i] % 32);
        if (++per_bank[b] > most) most = per_bank[b];
    }
    return most;
}

static bool is_access(uint8_t cls)
{
    switch (cls) {
    case EMU_CLS_LD_GLOBAL: case EMU_CLS_LD_SHARED: case EMU_CLS_LD_LOCAL: case EMU_CLS_LD_PARAM:
    case EMU_CLS_LD_CONST: case EMU_CLS_LD_GENERIC: case EMU_CLS_ST_GLOBAL: case EMU_CLS_ST_SHARED:
    case EMU_CLS_ST_LOCAL: case EMU_CLS_ST_GENERIC: case EMU_CLS_ATOMIC: case EMU_CLS_ATOMIC_SHARED:
        return true;
    default:
        return false;
    }
}

/* The space of every lane in `lanes` as masks: one lookup when the lanes' addresses lie in one
 * aligned window (EMU_WINDOW_BITS; --stats consumes every event, on the weave's runs' host
 * thread too, where one call per lane was a tenth of its time), else one per lane. */
static void lane_spaces(const uint64_t *addr, uint32_t lanes,
                        uint32_t *global, uint32_t *shared)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        uint64_t a = addr[__builtin_ctz(mk)];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    *global = *shared = 0;
    if (lo >> EMU_WINDOW_BITS == hi >> EMU_WINDOW_BITS) {
        uint64_t off;
        uint8_t sp = emu_address_space(lo, &off);
        if (sp == PTX_SPACE_GLOBAL) *global = lanes;
        else if (sp == PTX_SPACE_SHARED) *shared = lanes;
        return;
    }
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t off;
        uint8_t sp = emu_address_space(addr[l], &off);
        if (sp == PTX_SPACE_GLOBAL) *global |= 1u << l;
        else if (sp == PTX_SPACE_SHARED) *shared |= 1u << l;
    }
}

static void consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    (void)w;
    timing_metrics_counter *counter = self->state;
    timing_metrics *m = &counter->shard[thread_shard()].m;
    uint64_t warp_instructions = 0, thread_instructions = 0;
    uint64_t global_requests = 0, global_sectors = 0, shared_requests = 0, shared_wavefronts = 0;
    uint32_t by_class[EMU_CLS_COUNT] = {0};
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        warp_instructions++;
        thread_instructions += (uint64_t)__builtin_popcount(e->mask);
        if (e->cls < EMU_CLS_COUNT) by_class[e->cls]++;
        if (!(e->flags & EMU_EV_MEM) || !is_access(e->cls)) continue;
        uint32_t lanes = e->mem_lanes & e->mask;
        if (!lanes) continue;
        uint32_t global, shared;
        uint64_t addr_buf[EMU_WARP_SIZE], count = 0, lo = 0, hi = 0;
        /* a compact progression needs no lane's address spelled out (emu_event_addrs writes
         * all 32): its lanes are in one space when its lowest and highest are in one window */
        const uint64_t *addr = (e->flags & EMU_EV_COMPACT) ? NULL : e->lane_addr;
        bool progression = progression_sectors(e, lanes, &count, &lo, &hi);
        if (progression && lo >> EMU_WINDOW_BITS == hi >> EMU_WINDOW_BITS) {
            uint64_t off;
            uint8_t sp = emu_address_space(lo, &off);
            global = sp == PTX_SPACE_GLOBAL ? lanes : 0;
            shared = sp == PTX_SPACE_SHARED ? lanes : 0;
        } else {
            if (!addr) addr = emu_event_addrs(e, addr_buf);
            lane_spaces(addr, lanes, &global, &shared);
        }
        if (global) {
            global_requests++;
            if (global != lanes || !progression) {
                if (!addr) addr = emu_event_addrs(e, addr_buf);
                count = sectors(e, addr, global);
            }
            global_sectors += count;
        }
        if (shared) {
            if (!addr) addr = emu_event_addrs(e, addr_buf);
            shared_requests++;
            shared_wavefronts += wavefronts(e, addr, shared);
        }
    }
    add(&m->warp_instructions, warp_instructions);
    add(&m->thread_instructions, thread_instructions);
    for (unsigned c = 0; c < EMU_CLS_COUNT; c++) add(&m->by_class[c], by_class[c]);
    add(&m->global_requests, global_requests);
    add(&m->global_sectors, global_sectors);
    add(&m->shared_requests, shared_requests);
    add(&m->shared_wavefronts, shared_wavefronts);
}

emu_event_sink *timing_metrics_begin(timing_metrics_counter *c, timing_metrics *into)
{
    memset(c, 0, sizeof *c);
    c->into = into;
    c->sink.consume = consume;
    c->sink.state = c;
    return &c->sink;
}

void timing_metrics_end(timing_metrics_counter *c)
{
    timing_metrics *t = c->into;
    for (unsigned s = 0; s < TIMING_METRICS_SHARDS; s++) {
        const timing_metrics *m = &c->shard[s].m;
        t->warp_instructions += m->warp_instructions;
        t->thread_instructions += m->thread_instructions;
        for (unsigned k = 0; k < EMU_CLS_COUNT; k++) t->by_class[k] += m->by_class[k];
        t->global_requests += m->global_requests;
        t->global_sectors += m->global_sectors;
        t->shared_requests += m->shared_requests;
        t->shared_wavefronts += m->shared_wavefronts;
    }
    memset(c->shard, 0, sizeof c->shard);
}

void timing_metrics_print(FILE *out, const timing_metrics *m)
{
    if (!m->warp_instructions) return;
    fprintf(out, "  instructions: %llu warp, %llu thread (%.1f active lanes per warp "
                 "instruction)\n", (unsigned long long)m->warp_instructions,
            (unsigned long long)m->thread_instructions,
            (double)m->thread_instructions / (double)m->warp_instructions);
    fprintf(out, "  mix:");
    for (unsigned c = 0; c < EMU_CLS_COUNT; c++)
        if (m->by_class[c])
            fprintf(out, " %s %.1f%%", emu_op_class_name((emu_op_class)c),
                    100.0 * (double)m->by_class[c] / (double)m->warp_instructions);
    fprintf(out, "\n");
    if (m->global_requests)
        fprintf(out, "  global memory: %llu requests, %.2f sectors per request\n",
                (unsigned long long)m->global_requests,
                (double)m->global_sectors / (double)m->global_requests);
    if (m->shared_requests)
        fprintf(out, "  shared memory: %llu requests, %.2f wavefronts per request (%llu bank "
                     "conflicts)\n", (unsigned long long)m->shared_requests,
                (double)m->shared_wavefronts / (double)m->shared_requests,
                (unsigned long long)(m->shared_wavefronts - m->shared_requests));
}
