/* memsys.c: the memory system of the cycle model.
 *
 * - Coalescing: a warp's global/local access becomes one request per 128-byte line it touches,
 *   each naming the 32-byte sectors it needs; the load/store unit takes a cycle per line.
 * - L1 data cache per SM (sectored, LRU), allocate on read miss, write-through with no write
 *   allocate (a store updates a line that is there); misses take an MSHR (l1_mshrs per SM) and a
 *   miss to a line already on its way merges with it.
 * - Shared memory: smem_banks banks of 4 bytes; lanes reading one word share it (broadcast); a
 *   k-way conflict takes k wavefronts, each smem_wavefront_cycles cycles of the load/store unit.
 * - Constant and parameter loads: one cycle per distinct address, at L1 latency (the constant
 *   cache is taken to hit).
 * - Interconnect: one port per SM each way, icnt_bytes_per_cycle wide, icnt_latency deep.
 * - L2: l2_slices slices, l2_slices / dram_channels per channel (address mapping below), each a sectored write-back,
 *   write-allocate cache that takes one request per cycle of l2_clock_khz; atomics are
 *   performed there, one lane operation per such cycle.
 * - DRAM: dram_channels channels (256-byte chunks hashed over them) of dram_banks banks with a
 *   row buffer each: a row hit costs tCL, a miss tRP (when a row is open) + tRCD + tCL, then the
 *   channel's data bus carries the sectors at the bandwidth the configuration's bus width and
 *   memory clock give; column commands to an open row pipeline (a bank takes the next one a
 *   burst later); dram_latency covers the controller's pipeline. Each channel queues its
 *   requests and serves them when a bank can take one (deferred completion): FR-FCFS (Rixner
 *   et al., ISCA 2000, as GPGPU-Sim's dram_scheduler 1) takes the oldest request that hits the
 *   bank's open row among the dram_sched_queue oldest arrived, else the oldest; fcfs the oldest.
 *   A load that misses L2 learns its completion only then: the L2 line, the L1 line, the MSHR
 *   and the warp's scoreboard hold "pending" (TM_PEND) until the request is served.
 * Every resource keeps the cycle it is free again; requests come in the model's fixed order and
 * the schedulers decide in (cycle, channel) order, so the outcome depends on nothing but the
 * program. */
#include "timing/model/model.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The sectors set in a line's mask (TM_LINE / TM_SECTOR bits), inline: __builtin_popcount is
 * libgcc's __popcountdi2 on x86-64's baseline, a call per request. */
static inline unsigned sectors_in(uint8_t mask)
{
    unsigned x = mask;
    x = x - ((x >> 1) & 0x55u);
    x = (x & 0x33u) + ((x >> 2) & 0x33u);
    return (x + (x >> 4)) & 0x0fu;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* log2 of d where d is a power of two, else -1 */
static int8_t shift_of(uint64_t d)
{
    return d && !(d & (d - 1)) ? (int8_t)__builtin_ctzll(d) : -1;
}

/* a / d and a % d, a shift and a mask where d = 2^shift (a division takes tens of host cycles,
 * and each request made several) */
static inline uint64_t div_by(uint64_t a, uint64_t d, int8_t shift)
{
    return shift >= 0 ? a >> shift : a / d;
}

static inline uint64_t mod_by(uint64_t a, uint64_t d, int8_t shift)
{
    return shift >= 0 ? a & (d - 1) : a % d;
}

/* Cycles the channel's data bus takes for `sectors` sectors (burst_cycles: from m->burst). */
static uint64_t burst_compute(const tm_mem *m, unsigned sectors)
{
    uint64_t b = (uint64_t)((double)(sectors * TM_SECTOR) / m->dram_bytes_per_cycle + 0.999999);
    return b ? b : 1;
}

/* A zeroed block of `bytes`: the last kernel's of `kind` (kept.c: its pages are there, a memset
 * is cheaper than faulting fresh ones in and unmapping them at the end), else calloc's. */
static void *kept_calloc(tm_kept_kind kind, size_t bytes)
{
    size_t have;
    void *p = tm_kept_take(kind, bytes, &have);
    if (p) memset(p, 0, bytes);
    return p ? p : calloc(bytes ? bytes : 1, 1);
}

/* The records of `elem` bytes a kept pool block of `bytes` holds (a capacity: ids stay far
 * below FRESH, as pool_room's). */
static uint32_t pool_cap(size_t bytes, size_t elem)
{
    size_t n = bytes / elem;
    return n < UINT32_MAX / 4 ? (uint32_t)n : UINT32_MAX / 4;
}

bool tm_mem_init(tm_mem *m, const timing_gpu *gpu, uint32_t nsm, timing_stats *st)
{
    memset(m, 0, sizeof *m);
    m->gpu = gpu;
    m->st = st;
    m->nsm = nsm;
    m->l1 = calloc(nsm, sizeof *m->l1);
    m->tex = calloc(nsm, sizeof *m->tex);
    for (m->mshr_cap = 1; m->mshr_cap < (uint32_t)gpu->l1_mshrs; m->mshr_cap *= 2) continue;
    m->l1_mshr = kept_calloc(TM_KEPT_MSHR, (size_t)nsm * m->mshr_cap * sizeof *m->l1_mshr);
    m->mshr_pend = kept_calloc(TM_KEPT_PEND, (size_t)nsm * (uint32_t)gpu->l1_mshrs * sizeof *m->mshr_pend);
    m->mshrs = calloc(nsm, sizeof *m->mshrs);
    for (uint32_t s = 0; m->mshrs && s < nsm; s++) m->mshrs[s].known = (uint32_t)gpu->l1_mshrs;
    m->sm_out = calloc(nsm, sizeof *m->sm_out);
    m->outbox = calloc(nsm, sizeof *m->outbox);
    m->sm_freewait = malloc(nsm * sizeof *m->sm_freewait);
    m->sm_freeinst = malloc(nsm * sizeof *m->sm_freeinst);
    m->sm_freelink = malloc(nsm * sizeof *m->sm_freelink);
    m->sm_nfreewait = calloc(nsm, sizeof *m->sm_nfreewait);
    m->sm_nfreeinst = calloc(nsm, sizeof *m->sm_nfreeinst);
    m->sm_nfreelink = calloc(nsm, sizeof *m->sm_nfreelink);
    m->sm_tail = malloc(3 * (size_t)nsm * sizeof *m->sm_tail);
    m->sm_fresh = calloc(3 * (size_t)nsm, sizeof *m->sm_fresh);
    for (uint32_t s = 0; m->sm_freewait && m->sm_freeinst && m->sm_freelink && s < nsm; s++)
        m->sm_freewait[s] = m->sm_freeinst[s] = m->sm_freelink[s] = UINT32_MAX;
    for (uint32_t s = 0; m->sm_tail && s < 3 * nsm; s++) m->sm_tail[s] = UINT32_MAX;
    m->nout = calloc(nsm, sizeof *m->nout);
    m->capout = calloc(nsm, sizeof *m->capout);
    m->outpos = calloc(nsm, sizeof *m->outpos);
    m->sm_in = calloc(nsm, sizeof *m->sm_in);
    m->l2 = calloc((size_t)gpu->l2_slices, sizeof *m->l2);
    m->l2_free = calloc((size_t)gpu->l2_slices, sizeof *m->l2_free);
    m->banks = calloc((size_t)gpu->dram_channels * (uint32_t)gpu->dram_banks, sizeof *m->banks);
    m->bus_free = calloc((size_t)gpu->dram_channels, sizeof *m->bus_free);
    m->dq = calloc((size_t)gpu->dram_channels * (uint32_t)gpu->dram_banks, sizeof *m->dq);
    m->ch_next = calloc((size_t)gpu->dram_channels, sizeof *m->ch_next);
    m->ch_end = calloc((size_t)gpu->dram_channels, sizeof *m->ch_end);
    m->ch_bank = calloc((size_t)gpu->dram_channels, sizeof *m->ch_bank);
    m->ch_req2 = calloc((size_t)gpu->dram_channels, sizeof *m->ch_req2);
    for (m->tleaves = 1; m->tleaves < (uint32_t)gpu->dram_banks; m->tleaves *= 2) continue;
    m->bnode = malloc((size_t)gpu->dram_channels * 2 * m->tleaves * sizeof *m->bnode);
    m->l2_qleft = calloc((size_t)gpu->l2_slices * (uint32_t)gpu->l2_queue, sizeof *m->l2_qleft);
    m->l2_qpos = calloc((size_t)gpu->l2_slices, sizeof *m->l2_qpos);
    m->fcfs = gpu->dram_scheduler && strcmp(gpu->dram_scheduler, "fcfs") == 0;
    m->chan = calloc((size_t)gpu->dram_channels, sizeof *m->chan);
    m->sm_land = calloc(nsm, sizeof *m->sm_land);
    m->weave_sms = malloc(nsm * sizeof *m->weave_sms);
    m->heap = malloc((nsm > (uint32_t)gpu->dram_channels ? nsm : (uint32_t)gpu->dram_channels) *
                     sizeof *m->heap);
    m->sm_nland = calloc(nsm, sizeof *m->sm_nland);
    m->sm_capland = calloc(nsm, sizeof *m->sm_capland);
    for (int c = 0; m->chan && c < gpu->dram_channels; c++) m->chan[c].freedreq = UINT32_MAX;
    /* the DRAM requests' records: room for two per MSHR of every SM (a read and a write-back),
     * untouched until taken (dreq_new; more grows as before): grown from 256 by copies (to
     * 16,384 records on v100 vecadd), the pool faulted in each copy's fresh pages in the memory
     * weave's serial step (tm_mem_weave_begin), ~0.5 ms a kernel that the other threads wait */
    m->capdreq = 2 * nsm * (uint32_t)gpu->l1_mshrs;
    size_t have;
    m->dreqs = m->capdreq ? tm_kept_take(TM_KEPT_DREQS, (size_t)m->capdreq * sizeof *m->dreqs, &have) : NULL;
    if (m->dreqs) m->capdreq = pool_cap(have, sizeof *m->dreqs);   /* (64-aligned: it was) */
    else if (m->capdreq) m->dreqs = aligned_alloc(64, (size_t)m->capdreq * sizeof *m->dreqs);
    if (!m->dreqs) m->capdreq = 0;
    /* the other pools: the last kernel's, if any (grown as before) */
    m->insts = tm_kept_take(TM_KEPT_INSTS, 1, &have);
    m->capinst = pool_cap(have, sizeof *m->insts);
    m->links = tm_kept_take(TM_KEPT_LINKS, 1, &have);
    m->caplink = pool_cap(have, sizeof *m->links);
    m->waits_block = tm_kept_take(TM_KEPT_WAITS, 64 + sizeof *m->waits, &have);
    if (m->waits_block) {
        char *a = (char *)(((uintptr_t)m->waits_block + 63) & ~(uintptr_t)63);
        m->waits = (tm_wait *)(void *)a;
        m->capwait = pool_cap(have - (size_t)(a - (char *)m->waits_block), sizeof *m->waits);
    }
    m->freewait = m->freeinst = m->freelink = UINT32_MAX;
    if (!m->sm_freewait || !m->sm_freeinst || !m->sm_freelink || !m->sm_tail || !m->sm_fresh || !m->sm_nfreewait ||
        !m->sm_nfreeinst || !m->sm_nfreelink || !m->outbox || !m->nout || !m->capout || !m->outpos || !m->l1 || !m->tex || !m->l1_mshr || !m->mshr_pend || !m->mshrs || !m->sm_out || !m->sm_in || !m->l2 || !m->l2_free || !m->banks ||
        !m->bus_free || !m->dq || !m->ch_next || !m->ch_end || !m->ch_bank || !m->ch_req2 || !m->l2_qleft || !m->l2_qpos ||
        !m->bnode)
        return false;
    if (!m->chan || !m->weave_sms || !m->heap || !m->sm_land || !m->sm_nland || !m->sm_capland) return false;
    for (int c = 0; c < gpu->dram_channels; c++) {
        m->ch_next[c] = TM_NEVER;
        /* every bank empty: each node's winner its subtree's first bank */
        tm_bnode *nd = &m->bnode[(size_t)c * 2 * m->tleaves];
        for (uint32_t b = 0; b < m->tleaves; b++) nd[m->tleaves + b] = (tm_bnode){TM_NEVER, b, UINT32_MAX};
        for (uint32_t i = m->tleaves - 1; i >= 1; i--) nd[i] = nd[2 * i];
    }
    m->next_min = TM_NEVER;
    if (!tm_cache_init_kept(m->l1, nsm, gpu->l1_bytes, (uint32_t)gpu->l1_ways, TM_KEPT_L1) ||
        !tm_cache_init_n(m->tex, nsm, gpu->tex_l1_bytes, (uint32_t)gpu->tex_l1_ways))
        return false;
    uint64_t slice_bytes = gpu->l2_bytes / (uint64_t)gpu->l2_slices;
    if (slice_bytes < TM_LINE * (uint64_t)gpu->l2_ways) slice_bytes = TM_LINE * (uint64_t)gpu->l2_ways;
    if (!tm_cache_init_kept(m->l2, (uint32_t)gpu->l2_slices, slice_bytes, (uint32_t)gpu->l2_ways,
                            TM_KEPT_L2))
        return false;
    /* GDDR moves data on both edges of mem_clock_khz, HBM too (mem_clock_khz is its DDR
     * clock): bytes per model cycle on one channel */
    double bus_bytes = (double)gpu->mem_bus_bits / 8.0 / gpu->dram_channels;
    m->dram_bytes_per_cycle = bus_bytes * 2.0 * gpu->mem_clock_khz / gpu->model_clock_khz;
    for (unsigned k = 0; k < 9; k++) {
        m->burst[k] = burst_compute(m, k);
        m->icnt_occ[k] = (uint32_t)ceil_div(8 + k * TM_SECTOR, (uint64_t)gpu->icnt_bytes_per_cycle);
    }
    m->slices_per_ch = (uint32_t)(gpu->l2_slices / gpu->dram_channels);
    if (!m->slices_per_ch) m->slices_per_ch = 1;
    m->lines_per_row = gpu->dram_row_bytes / TM_LINE ? gpu->dram_row_bytes / TM_LINE : 1;
    m->ch_shift = shift_of((uint64_t)gpu->dram_channels);
    m->slice_shift = shift_of(m->slices_per_ch);
    m->row_shift = shift_of(m->lines_per_row);
    m->bank_shift = shift_of((uint64_t)gpu->dram_banks);
    if (gpu->dram_sched_queue)
        m->dram_room = (uint64_t)(gpu->l2_queue + gpu->dram_sched_queue) *
                       (uint64_t)((double)TM_LINE / m->dram_bytes_per_cycle + 0.999999);
    return true;
}

void tm_mem_free(tm_mem *m)
{
    if (m->l1) tm_cache_free_kept(m->l1, m->nsm, TM_KEPT_L1);
    if (m->tex)
        for (uint32_t s = 0; s < m->nsm; s++) tm_cache_free(&m->tex[s]);
    if (m->l2) tm_cache_free_kept(m->l2, (uint32_t)m->gpu->l2_slices, TM_KEPT_L2);
    free(m->l1);
    free(m->tex);
    tm_kept_give(TM_KEPT_MSHR, m->l1_mshr, (size_t)m->nsm * m->mshr_cap * sizeof *m->l1_mshr);
    if (m->gpu)
        tm_kept_give(TM_KEPT_PEND, m->mshr_pend,
                     (size_t)m->nsm * (uint32_t)m->gpu->l1_mshrs * sizeof *m->mshr_pend);
    free(m->mshrs);
    free(m->sm_out);
    for (uint32_t s = 0; m->outbox && s < m->nsm; s++) free(m->outbox[s]);
    free(m->outbox);
    free(m->sm_freewait);
    free(m->sm_freeinst);
    free(m->sm_freelink);
    free(m->sm_tail);
    free(m->sm_fresh);
    free(m->sm_nfreewait);
    free(m->sm_nfreeinst);
    free(m->sm_nfreelink);
    free(m->nout);
    free(m->capout);
    free(m->outpos);
    free(m->sm_in);
    free(m->l2);
    free(m->l2_free);
    free(m->banks);
    free(m->bus_free);
    if (m->dq)
        for (int c = 0; c < m->gpu->dram_channels * m->gpu->dram_banks; c++) free(m->dq[c].buf);
    free(m->dq);
    free(m->ch_next);
    free(m->ch_bank);
    free(m->ch_req2);
    free(m->bnode);
    free(m->ch_end);
    if (m->chan)
        for (int c = 0; c < m->gpu->dram_channels; c++) {
            free(m->chan[c].reqs);
            free(m->chan[c].land);
        }
    free(m->chan);
    free(m->order);
    for (uint32_t s = 0; m->sm_land && s < m->nsm; s++) free(m->sm_land[s]);
    free(m->sm_land);
    free(m->heap);
    free(m->weave_sms);
    free(m->sm_nland);
    free(m->sm_capland);
    free(m->l2_qleft);
    free(m->l2_qpos);
    tm_kept_give(TM_KEPT_DREQS, m->dreqs, (size_t)m->capdreq * sizeof *m->dreqs);
    size_t off = m->waits_block ? (size_t)((char *)m->waits - (char *)m->waits_block) : 0;
    tm_kept_give(TM_KEPT_WAITS, m->waits_block, off + (size_t)m->capwait * sizeof *m->waits);
    tm_kept_give(TM_KEPT_INSTS, m->insts, (size_t)m->capinst * sizeof *m->insts);
    tm_kept_give(TM_KEPT_LINKS, m->links, (size_t)m->caplink * sizeof *m->links);
    memset(m, 0, sizeof *m);
}

/* An SM's MSHRs (model.h, tm_mem): the known free times in order in a ring at the SM's place
 * in l1_mshr, from its head; the replies waiting for DRAM (pending: TM_PEND | wait id, above
 * every time) a list of wait ids in its mshr_pend, each wait's `mshr_at` its place there + 1
 * (0: it holds none), so that a landing finds its MSHR at once. The values are those of one
 * min-heap of all of them (which the model kept before): the least is the ring's head, or when
 * every MSHR waits for DRAM the lowest wait id's. (A heap's root left by sifting its last
 * entry down ~9 levels of scattered lines on 512 MSHRs; the times come nearly in order, so
 * the ring's new entry mostly goes at its end.) */
static uint64_t *mshr_ring(tm_mem *m, uint32_t sm)
{
    return &m->l1_mshr[(size_t)sm * m->mshr_cap];
}

/* The least known time leaves (known > 0). */
static void known_pop(tm_mem *m, uint32_t sm)
{
    struct tm_mshrs *q = &m->mshrs[sm];
    assert(q->known);
    q->head = (q->head + 1) & (m->mshr_cap - 1);
    q->known--;
}

/* Known time t joins in order (after its equals), found from the end. */
static void known_insert(tm_mem *m, uint32_t sm, uint64_t t)
{
    struct tm_mshrs *q = &m->mshrs[sm];
    uint64_t *r = mshr_ring(m, sm);
    uint32_t mask = m->mshr_cap - 1, i = q->head + q->known;
    assert(q->known < m->mshr_cap);
    for (; i != q->head && r[(i - 1) & mask] > t; i--) r[i & mask] = r[(i - 1) & mask];
    r[i & mask] = t;
    q->known++;
}

/* Wait wid's MSHR joins the pending list (its n - known - 1 entries before it: one MSHR left
 * the known heap, or the list, for it). */
static void pend_add(tm_mem *m, uint32_t sm, uint32_t wid)
{
    uint32_t n = (uint32_t)m->gpu->l1_mshrs, k = n - m->mshrs[sm].known - 1;
    assert(m->waits[wid].mshr_at == 0);
    m->mshr_pend[(size_t)sm * n + k] = wid;
    m->waits[wid].mshr_at = k + 1;
}

/* Wait wid's MSHR leaves the pending list (the last one takes its place). */
static void pend_remove(tm_mem *m, uint32_t sm, uint32_t wid)
{
    uint32_t n = (uint32_t)m->gpu->l1_mshrs, last = n - m->mshrs[sm].known - 1;
    uint32_t *p = &m->mshr_pend[(size_t)sm * n], k = m->waits[wid].mshr_at - 1;
    if (k != last) {
        p[k] = p[last];
        m->waits[p[k]].mshr_at = k + 1;
    }
    m->waits[wid].mshr_at = 0;
}

/* SM sm's least MSHR is busy until t (a time, or pending on a wait). */
static void mshr_take(tm_mem *m, uint32_t sm, uint64_t t)
{
    assert(t != TM_NEVER);
    if (m->mshrs[sm].known) {
        known_pop(m, sm);
    } else {
        /* every MSHR waits for DRAM: the lowest wait id's is taken (its landing finds none) */
        uint32_t n = (uint32_t)m->gpu->l1_mshrs;
        const uint32_t *p = &m->mshr_pend[(size_t)sm * n];
        uint32_t low = p[0];
        for (uint32_t k = 1; k < n; k++)
            if (p[k] < low) low = p[k];
        pend_remove(m, sm, low);
    }
    if (!tm_is_pend(t)) known_insert(m, sm, t);
    else pend_add(m, sm, (uint32_t)(t & ~TM_PEND));
}

/* The MSHR of SM sm held by wait wid (if it still holds one) frees at t. */
static void mshr_land(tm_mem *m, uint32_t sm, uint32_t wid, uint64_t t)
{
    if (!m->waits[wid].mshr_at) return;
    pend_remove(m, sm, wid);
    known_insert(m, sm, t);
}

/* Address mapping (as GPGPU-Sim's, `dramid@8`): 256-byte chunks go to DRAM channels by a hash
 * of the chunk number, so that neighbouring chunks spread over the channels; each channel's L2
 * slices (l2_slices / dram_channels of them, slice = channel x that + k) take its lines in
 * turn; within a channel, the chunks it owns follow each other in its address space, so a DRAM
 * row holds neighbouring data and streams hit open rows. */
#define TM_CHUNK 256u

static inline uint64_t chunk_hash(uint64_t line)
{
    uint64_t c = line * TM_LINE / TM_CHUNK;
    return c ^ (c >> 5) ^ (c >> 11) ^ (c >> 19);
}

uint32_t tm_mem_channel(const timing_gpu *gpu, uint64_t line)
{
    return (uint32_t)(chunk_hash(line) % (uint64_t)gpu->dram_channels);
}

static uint32_t channel_of(const tm_mem *m, uint64_t line)
{
    return (uint32_t)mod_by(chunk_hash(line), (uint64_t)m->gpu->dram_channels, m->ch_shift);
}

void tm_mem_flush_l1(tm_mem *m)
{
    for (uint32_t s = 0; s < m->nsm; s++) {
        tm_cache_clear(&m->l1[s]);
    }
}

/* The L2 slice of `line`, of channel ch (its channel_of): a slice holds lines of one channel */
static uint32_t slice_in(const tm_mem *m, uint32_t ch, uint64_t line)
{
    return ch * m->slices_per_ch + (uint32_t)mod_by(line, m->slices_per_ch, m->slice_shift);
}

/* Record pools: an id stays valid until its record is freed (after it is decided). */
#define POOL_TAKE(m, arr, next, n, cap, freel, out)                                              \
    do {                                                                                         \
        if ((m)->freel != UINT32_MAX) {                                                          \
            out = (m)->freel;                                                                    \
            (m)->freel = (m)->arr[out].next;                                                     \
        } else {                                                                                 \
            if ((m)->n == (m)->cap) {                                                            \
                uint32_t nc = (m)->cap ? 2 * (m)->cap : 256;                                     \
                void *p = realloc((m)->arr, (size_t)nc * sizeof *(m)->arr);                      \
                if (!p) abort();   /* a few MB at most: the queues are bounded by the MSHRs */   \
                (m)->arr = p;                                                                    \
                (m)->cap = nc;                                                                   \
            }                                                                                    \
            out = (m)->n++;                                                                      \
        }                                                                                        \
    } while (0)

/* Each SM's free lists also know their last record (sm_tail: waits, instructions, links), so
 * that records added for the weave (tm_mem_reserve_weave) go behind those the SM would take
 * anyway. */
#define TAIL_WAIT(m, sm) (sm)
#define TAIL_INST(m, sm) ((m)->nsm + (sm))
#define TAIL_LINK(m, sm) (2 * (m)->nsm + (sm))

/* A free list may hold, at one place, a block of fresh records (sm_fresh, indexed as sm_tail:
 * ids [lo, hi), never used, so their memory is untouched, which come out from hi - 1 down, as
 * records pushed one by one would): the head, or a record's next, is then FRESH, and the list
 * goes on after the block at `below`. The tail (sm_tail) is that of the list below the block
 * (UINT32_MAX: none there). */
#define FRESH (UINT32_MAX - 1)

/* The next record of a free list whose head (*head) is the fresh block. */
static uint32_t fresh_take(tm_mem *m, uint32_t ix, uint32_t *head)
{
    struct tm_fresh *f = &m->sm_fresh[ix];
    assert(f->lo < f->hi);
    uint32_t id = --f->hi;
    if (f->hi == f->lo) *head = f->below;
    return id;
}

/* Pushes `more` new ids onto SM list ix's head (*head, *count) as one fresh block, when that
 * list holds none; false when it does (the caller pushes them one by one). */
static bool fresh_push(tm_mem *m, uint32_t ix, uint32_t *head, uint32_t *count, uint32_t *n,
                       uint32_t more)
{
    struct tm_fresh *f = &m->sm_fresh[ix];
    if (f->lo < f->hi) return false;
    f->lo = *n;
    f->hi = *n += more;
    f->below = *head;
    *head = FRESH;
    *count += more;
    return true;
}

/* Room in a record pool for ids below `need` (what is not used yet is not touched). */
static void pool_room(void **arr, uint32_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return;
    uint64_t nc = *cap ? 2 * (uint64_t)*cap : 256;
    while (nc < need) nc *= 2;
    if (nc >= FRESH) abort();   /* ids below FRESH; the MSHRs bound the records far below */
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p) abort();
    *arr = p;
    *cap = (uint32_t)nc;
}

/* Room in the reply pool for ids below `need`. Its records lie on 64-byte boundaries, a host
 * line each (a reply's fields are read at its issue, decision and landing: a 56-byte record
 * lay across two lines), in a block that realloc grows as the other pools (what was never used
 * stays untouched); the records move only where a new block's alignment differs. */
static void waits_room(tm_mem *m, uint64_t need)
{
    if (need <= m->capwait) return;
    uint64_t nc = m->capwait ? 2 * (uint64_t)m->capwait : 256;
    while (nc < need) nc *= 2;
    if (nc >= FRESH) abort();   /* ids below FRESH; the MSHRs bound the records far below */
    size_t off = m->capwait ? (size_t)((char *)m->waits - (char *)m->waits_block) : 0;
    char *b = realloc(m->waits_block, (size_t)nc * sizeof *m->waits + 63);
    if (!b) abort();
    char *a = (char *)(((uintptr_t)b + 63) & ~(uintptr_t)63);
    if (m->capwait && (size_t)(a - b) != off)
        memmove(a, b + off, (size_t)m->capwait * sizeof *m->waits);
    m->waits_block = b;
    m->waits = (tm_wait *)(void *)a;
    m->capwait = (uint32_t)nc;
}

/* A reply record from the pool's own free list, else a new one. */
static uint32_t wait_pool_take(tm_mem *m)
{
    uint32_t id = m->freewait;
    if (id != UINT32_MAX) {
        m->freewait = m->waits[id].next;
        return id;
    }
    waits_room(m, (uint64_t)m->nwait + 1);
    return m->nwait++;
}

/* Asks for the record at a free list's new head (if one): the next take reads its link, and
 * the records were freed in the weave, a window of every SM's work ago. */
static __attribute__((noipa)) void prefetch_head(const void *arr, uint32_t head, size_t elem)
{
    if (head < FRESH) __builtin_prefetch((const char *)arr + (size_t)head * elem);
}

/* A new DRAM request record. The records lie on 64-byte boundaries, a host cache line each: a
 * decision reads its request's record, last touched when it was queued, long before. */
_Static_assert(sizeof(tm_dreq) == 64, "tm_dreq: one host cache line");
static uint32_t dreq_new(tm_mem *m)
{
    if (m->ndreq == m->capdreq) {
        uint32_t nc = m->capdreq ? 2 * m->capdreq : 256;
        tm_dreq *p = aligned_alloc(64, (size_t)nc * sizeof *p);
        if (!p) abort();   /* a few MB at most: the queues are bounded by the MSHRs */
        if (m->ndreq) memcpy(p, m->dreqs, (size_t)m->ndreq * sizeof *p);
        free(m->dreqs);
        m->dreqs = p;
        m->capdreq = nc;
    }
    return m->ndreq++;
}

/* Records of SM sm: from its free list, else (between windows only) new ones. */
static uint32_t wait_take(tm_mem *m, uint32_t sm)
{
    uint32_t id = m->sm_freewait[sm];
    if (id == FRESH) {
        m->sm_nfreewait[sm]--;
        return fresh_take(m, TAIL_WAIT(m, sm), &m->sm_freewait[sm]);
    }
    if (id != UINT32_MAX) {
        m->sm_freewait[sm] = m->waits[id].next;
        prefetch_head(m->waits, m->sm_freewait[sm], sizeof *m->waits);
        if (m->sm_freewait[sm] == UINT32_MAX) m->sm_tail[TAIL_WAIT(m, sm)] = UINT32_MAX;
        m->sm_nfreewait[sm]--;
        return id;
    }
    assert(!m->in_bound);
    return wait_pool_take(m);
}

static void wait_free(tm_mem *m, uint32_t id)
{
    uint32_t sm = m->waits[id].sm;
    if (m->sm_freewait[sm] == UINT32_MAX) m->sm_tail[TAIL_WAIT(m, sm)] = id;
    m->waits[id].next = m->sm_freewait[sm];
    m->sm_freewait[sm] = id;
    m->sm_nfreewait[sm]++;
}

static uint32_t inst_take(tm_mem *m, uint32_t sm)
{
    uint32_t id = m->sm_freeinst[sm];
    if (id == FRESH) {
        m->sm_nfreeinst[sm]--;
        return fresh_take(m, TAIL_INST(m, sm), &m->sm_freeinst[sm]);
    }
    if (id != UINT32_MAX) {
        m->sm_freeinst[sm] = m->insts[id].next_free;
        prefetch_head(m->insts, m->sm_freeinst[sm], sizeof *m->insts);
        if (m->sm_freeinst[sm] == UINT32_MAX) m->sm_tail[TAIL_INST(m, sm)] = UINT32_MAX;
        m->sm_nfreeinst[sm]--;
        return id;
    }
    assert(!m->in_bound);
    POOL_TAKE(m, insts, next_free, ninst, capinst, freeinst, id);
    return id;
}

static void inst_free(tm_mem *m, uint32_t id)
{
    uint32_t sm = m->insts[id].sm;
    if (m->sm_freeinst[sm] == UINT32_MAX) m->sm_tail[TAIL_INST(m, sm)] = id;
    m->insts[id].next_free = m->sm_freeinst[sm];
    m->sm_freeinst[sm] = id;
    m->sm_nfreeinst[sm]++;
}

static uint32_t link_take(tm_mem *m, uint32_t sm)
{
    uint32_t id = m->sm_freelink[sm];
    if (id == FRESH) {
        m->sm_nfreelink[sm]--;
        return fresh_take(m, TAIL_LINK(m, sm), &m->sm_freelink[sm]);
    }
    if (id != UINT32_MAX) {
        m->sm_freelink[sm] = m->links[id].next;
        prefetch_head(m->links, m->sm_freelink[sm], sizeof *m->links);
        if (m->sm_freelink[sm] == UINT32_MAX) m->sm_tail[TAIL_LINK(m, sm)] = UINT32_MAX;
        m->sm_nfreelink[sm]--;
        return id;
    }
    assert(!m->in_bound);
    if (m->nlink == m->caplink) {
        uint32_t nc = m->caplink ? 2 * m->caplink : 256;
        tm_link *p = realloc(m->links, (size_t)nc * sizeof *p);
        if (!p) abort();
        m->links = p;
        m->caplink = nc;
    }
    return m->nlink++;
}

static void link_free(tm_mem *m, uint32_t sm, uint32_t id)
{
    if (m->sm_freelink[sm] == UINT32_MAX) m->sm_tail[TAIL_LINK(m, sm)] = id;
    m->links[id].next = m->sm_freelink[sm];
    m->sm_freelink[sm] = id;
    m->sm_nfreelink[sm]++;
}

static uint32_t link_new(tm_mem *m, uint32_t sm, uint32_t inst, uint32_t next)
{
    uint32_t id = link_take(m, sm);
    m->links[id] = (tm_link){inst, next};
    return id;
}

/* A window reserves each SM records for the worst case (every lane of every issue slot a
 * reply), of which it uses a small part: the new ones go on as a fresh block where they can,
 * untouched until taken. */
void tm_mem_reserve(tm_mem *m, uint32_t per_sm, const bool *skip)
{
    /* the pools grow once (a copy of what grows touches the whole copy) */
    uint32_t ni = per_sm / 64 + 1;
    uint64_t mw = 0, ml = 0, mi = 0;
    for (uint32_t s = 0; s < m->nsm; s++) {
        if (skip && skip[s]) continue;
        mw += m->sm_nfreewait[s] < per_sm ? per_sm - m->sm_nfreewait[s] : 0;
        ml += m->sm_nfreelink[s] < per_sm ? per_sm - m->sm_nfreelink[s] : 0;
        mi += m->sm_nfreeinst[s] < ni ? ni - m->sm_nfreeinst[s] : 0;
    }
    waits_room(m, m->nwait + mw);
    pool_room((void **)&m->links, &m->caplink, m->nlink + ml, sizeof *m->links);
    pool_room((void **)&m->insts, &m->capinst, m->ninst + mi, sizeof *m->insts);
    for (uint32_t s = 0; s < m->nsm; s++) {
        if (skip && skip[s]) continue;
        uint32_t *nf = &m->sm_nfreewait[s];
        if (*nf < per_sm &&
            !fresh_push(m, TAIL_WAIT(m, s), &m->sm_freewait[s], nf, &m->nwait, per_sm - *nf))
            while (*nf < per_sm) {
                uint32_t id = m->nwait++;
                m->waits[id].sm = s;
                wait_free(m, id);
            }
        nf = &m->sm_nfreelink[s];
        if (*nf < per_sm &&
            !fresh_push(m, TAIL_LINK(m, s), &m->sm_freelink[s], nf, &m->nlink, per_sm - *nf))
            while (*nf < per_sm) link_free(m, s, m->nlink++);
        nf = &m->sm_nfreeinst[s];
        if (*nf < ni && !fresh_push(m, TAIL_INST(m, s), &m->sm_freeinst[s], nf, &m->ninst, ni - *nf))
            while (*nf < ni) {
                uint32_t id = m->ninst++;
                m->insts[id].sm = s;
                inst_free(m, id);
            }
    }
}

bool tm_mem_reserved(const tm_mem *m, uint32_t sm, uint32_t per_sm)
{
    return m->sm_nfreewait[sm] >= per_sm && m->sm_nfreelink[sm] >= per_sm &&
           m->sm_nfreeinst[sm] >= per_sm / 64 + 1;
}

/* Appends record id at the tail of one of SM sm's free lists (head, the tail slot tail_ix in
 * sm_tail, linked through the records' field next), so that ids come out in the order taken. */
#define FREE_TAIL_APPEND(m, arr, next, head, tail_ix, count, id)                              \
    do {                                                                                      \
        (m)->arr[id].next = UINT32_MAX;                                                       \
        uint32_t *tail_ = &(m)->sm_tail[tail_ix];                                             \
        struct tm_fresh *f_ = &(m)->sm_fresh[tail_ix];                                        \
        if (*tail_ == UINT32_MAX && f_->lo < f_->hi) f_->below = (id);                        \
        else if (*tail_ == UINT32_MAX) (head) = (id);                                         \
        else (m)->arr[*tail_].next = (id);                                                    \
        *tail_ = (id);                                                                        \
        (count)++;                                                                            \
    } while (0)

bool tm_mem_weave_has(const tm_mem *m, uint32_t sm, uint32_t replies, uint32_t insts)
{
    return !insts || (m->sm_nfreewait[sm] >= replies && m->sm_nfreelink[sm] >= replies &&
                      m->sm_nfreeinst[sm] >= insts);
}

void tm_mem_reserve_weave(tm_mem *m, uint32_t sm, uint32_t replies, uint32_t insts)
{
    while (m->sm_nfreewait[sm] < replies) {
        uint32_t id = wait_pool_take(m);
        m->waits[id].sm = sm;
        FREE_TAIL_APPEND(m, waits, next, m->sm_freewait[sm], TAIL_WAIT(m, sm),
                         m->sm_nfreewait[sm], id);
    }
    while (m->sm_nfreelink[sm] < replies) {
        if (m->nlink == m->caplink) {
            uint32_t nc = m->caplink ? 2 * m->caplink : 256;
            tm_link *p = realloc(m->links, (size_t)nc * sizeof *p);
            if (!p) abort();
            m->links = p;
            m->caplink = nc;
        }
        uint32_t id = m->nlink++;
        FREE_TAIL_APPEND(m, links, next, m->sm_freelink[sm], TAIL_LINK(m, sm),
                         m->sm_nfreelink[sm], id);
    }
    while (m->sm_nfreeinst[sm] < insts) {
        uint32_t id;
        POOL_TAKE(m, insts, next_free, ninst, capinst, freeinst, id);
        m->insts[id].sm = sm;
        FREE_TAIL_APPEND(m, insts, next_free, m->sm_freeinst[sm], TAIL_INST(m, sm),
                         m->sm_nfreeinst[sm], id);
    }
}

void tm_mem_dram_place(const timing_gpu *g, uint64_t line, uint32_t *bank, uint64_t *row)
{
    /* the line's place among the channel's own: its chunk's number over the channels */
    uint64_t per_chunk = TM_CHUNK / TM_LINE;
    uint64_t local = line / per_chunk / (uint64_t)g->dram_channels * per_chunk + line % per_chunk;
    uint64_t lines_per_row = g->dram_row_bytes / TM_LINE ? g->dram_row_bytes / TM_LINE : 1;
    uint64_t rowg = local / lines_per_row;
    *bank = (uint32_t)((rowg ^ (rowg >> 4)) % (uint64_t)g->dram_banks);
    *row = rowg / (uint64_t)g->dram_banks;
}

/* tm_mem_dram_place, its divisions shifts where the counts are powers of two */
static void dram_place(const tm_mem *m, uint64_t line, uint32_t *bank, uint64_t *row)
{
    const timing_gpu *g = m->gpu;
    uint64_t per_chunk = TM_CHUNK / TM_LINE;
    uint64_t local = div_by(line / per_chunk, (uint64_t)g->dram_channels, m->ch_shift) * per_chunk +
                     line % per_chunk;
    uint64_t rowg = div_by(local, m->lines_per_row, m->row_shift);
    *bank = (uint32_t)mod_by(rowg ^ (rowg >> 4), (uint64_t)g->dram_banks, m->bank_shift);
    *row = div_by(rowg, (uint64_t)g->dram_banks, m->bank_shift);
}

/* Cycles the channel's data bus takes for `sectors` sectors. */
static uint64_t burst_cycles(const tm_mem *m, unsigned sectors)
{
    return sectors < 9 ? m->burst[sectors] : burst_compute(m, sectors);
}

/* Cycles an SM's port takes for a message of `bytes` (8 + a number of sectors: from
 * m->icnt_occ). */
static uint64_t icnt_cycles(const tm_mem *m, uint64_t bytes)
{
    uint64_t k = (bytes - 8) / TM_SECTOR;
    if (bytes >= 8 && (bytes - 8) % TM_SECTOR == 0 && k < 9) return m->icnt_occ[k];
    return ceil_div(bytes, (uint64_t)m->gpu->icnt_bytes_per_cycle);
}

/* Whether a queued request arrived before another (by arrival, then the channel's order of
 * arrival among equals): from their entries alone. */
static bool ent_older(const tm_dqent *a, const tm_dqent *b)
{
    return a->arrive < b->arrive || (a->arrive == b->arrive && (int32_t)(a->seq - b->seq) < 0);
}

static tm_dqueue *bank_queue(tm_mem *m, uint32_t ch, uint32_t bank)
{
    return &m->dq[(size_t)ch * (uint32_t)m->gpu->dram_banks + bank];
}

/* The banks' tournament (tm_mem.bnode). A channel's scheduler takes the bank that can take a
 * request first, among equals the one whose oldest request is older (dq_pick). Seqs are unique
 * within a channel, so that order is total among the banks holding requests and the winner is
 * exactly the one a scan of every bank finds; empty banks (TM_NEVER) lose to every other (a
 * real bank wins the root while all are: the empty leaves past dram_banks win no tie). A bank's
 * time changes only where its queue or its free time does (dram_enqueue, dq_serve): one path
 * each. */
static void bank_update(tm_mem *m, uint32_t ch, uint32_t bank)
{
    uint32_t nl = m->tleaves;
    tm_bnode *nd = &m->bnode[(size_t)ch * 2 * nl];
    const tm_dqueue *q = bank_queue(m, ch, bank);
    uint64_t t = q->n ? max64(q->ents[0].arrive,
                              m->banks[(size_t)ch * (uint32_t)m->gpu->dram_banks + bank].free)
                      : TM_NEVER;
    uint32_t w = bank, id = q->n ? q->ents[0].id : UINT32_MAX;
    for (uint32_t j = nl + bank; j > 1; j /= 2) {
        nd[j] = (tm_bnode){t, w, id};
        /* the other child's winner against this one's (equal times: the older oldest request;
         * rare) */
        const tm_bnode *o = &nd[j ^ 1];
        if (o->next < t || (o->next == t && t != TM_NEVER &&
                            ent_older(&bank_queue(m, ch, o->bank)->ents[0],
                                      &bank_queue(m, ch, w)->ents[0]))) {
            t = o->next;
            w = o->bank;
            id = o->id;
        }
    }
    nd[1] = (tm_bnode){t, w, id};
    m->ch_next[ch] = t;
    m->ch_bank[ch] = w;
}

/* Queues a DRAM access of `sectors` sectors of `line` for L2 slice `slice`, reaching its channel
 * at cycle t; returns its id (reads: the L2 line's fill is pending on it). */
static uint32_t dram_enqueue(tm_mem *m, uint32_t ch, uint32_t slice, uint64_t line,
                             unsigned sectors, bool write, uint64_t t)
{
    uint32_t id;
    tm_chan *C = &m->chan[ch];
    if (C->freedreq != UINT32_MAX) {
        id = C->freedreq;
        C->freedreq = m->dreqs[id].next_free;
        prefetch_head(m->dreqs, C->freedreq, sizeof *m->dreqs);
        C->nfreedreq--;
    } else {
        assert(!m->par);   /* tm_mem_weave_begin gave the channel enough */
        id = dreq_new(m);
    }
    tm_dreq *r = &m->dreqs[id];
    /* arrivals are ordered within their channel only (its banks' queues) */
    *r = (tm_dreq){.arrive = t, .seq = C->seq++, .line = line, .ch = ch,
                   .slice = slice, .waits = UINT32_MAX, .sectors = (uint16_t)sectors,
                   .write = write};
    dram_place(m, line, &r->bank, &r->row);
    tm_dqueue *q = bank_queue(m, r->ch, r->bank);
    tm_dqent e = {.arrive = r->arrive, .row = r->row, .id = id, .seq = (uint32_t)r->seq};
    if ((size_t)(q->ents - q->buf) + q->n == q->cap) {
        if (q->ents != q->buf) {
            /* room at the front, where served requests left */
            memmove(q->buf, q->ents, (size_t)q->n * sizeof *q->ents);
        } else {
            uint32_t nc = q->cap ? 2 * q->cap : 16;
            tm_dqent *p = realloc(q->buf, (size_t)nc * sizeof *p);
            if (!p) abort();
            q->buf = p;
            q->cap = nc;
        }
        q->ents = q->buf;
    }
    /* arrivals come nearly in order: the place is found from the end */
    uint32_t i = q->n;
    while (i && ent_older(&e, &q->ents[i - 1])) i--;
    memmove(&q->ents[i + 1], &q->ents[i], (size_t)(q->n - i) * sizeof *q->ents);
    q->ents[i] = e;
    q->n++;
    /* a new oldest request changes the bank's key (behind it: nothing) */
    if (i == 0) bank_update(m, r->ch, r->bank);
    uint64_t x = m->bnode[(size_t)r->ch * 2 * m->tleaves + m->tleaves + r->bank].next;
    if (!m->par && x < m->next_min) m->next_min = x;   /* else tm_mem_weave_end */
    m->ch_end[r->ch] = max64(m->ch_end[r->ch], t) + burst_cycles(m, sectors);
    timing_stats *st = m->par ? &C->st : m->st;
    if (write) st->dram_writes += sectors;
    else st->dram_reads += sectors;
    return id;
}

/* Requests of bank queue q older than the queued request r. (Most banks' requests are all
 * older or all not: their first and last say so, without a search through the queue's lines.) */
static uint32_t older_count(const tm_dqueue *q, const tm_dqent *r)
{
    uint32_t n = q->n;
    if (!n || !ent_older(&q->ents[0], r)) return 0;
    if (ent_older(&q->ents[n - 1], r)) return n;
    uint32_t lo = 1, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (ent_older(&q->ents[mid], r)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Channel ch's scheduler at its decision cycle: the bank that can take a request first (then
 * the one with the oldest request), which of its requests (*pos in its queue) and when (*at).
 * FR-FCFS takes the oldest request hitting the bank's open row, provided it is among the
 * dram_sched_queue oldest of the channel (the scheduler's window; 0: no limit), else the
 * oldest. */
static uint32_t dq_pick(tm_mem *m, uint32_t ch, uint32_t *pos, uint64_t *at)
{
    uint32_t nb = (uint32_t)m->gpu->dram_banks, bank = m->ch_bank[ch];
    uint64_t t = m->ch_next[ch];
    assert(t != TM_NEVER && t == m->bnode[(size_t)ch * 2 * m->tleaves + m->tleaves + bank].next);
    *at = t;
    *pos = 0;
    tm_dqueue *q = bank_queue(m, ch, bank);
    const tm_dram_bank *bk = &m->banks[(size_t)ch * nb + bank];
    if (m->fcfs || !bk->open) return bank;
    uint32_t hit = 0;
    while (hit < q->n && q->ents[hit].arrive <= t && q->ents[hit].row != bk->row) hit++;
    if (hit == 0 || hit == q->n || q->ents[hit].arrive > t) return bank;
    uint32_t window = (uint32_t)m->gpu->dram_sched_queue, ahead = 0;
    const tm_dqent *h = &q->ents[hit];
    for (uint32_t b = 0; window && b < nb && ahead < window; b++)
        ahead += b == bank ? hit : older_count(bank_queue(m, ch, b), h);
    if (!window || ahead < window) *pos = hit;
    return bank;
}

/* Serves request r on its bank from cycle start: returns the cycle its data is back at L2
 * (reads) or written (writes). */
static uint64_t dram_serve(tm_mem *m, const tm_dreq *r, uint64_t start)
{
    const timing_gpu *g = m->gpu;
    tm_dram_bank *b = &m->banks[(size_t)r->ch * (uint32_t)g->dram_banks + r->bank];
    uint64_t lat;
    timing_stats *st = m->par ? &m->chan[r->ch].st : m->st;
    if (b->open && b->row == r->row) {
        lat = (uint64_t)g->dram_tcl;
        st->dram_row_hits++;
    } else {
        lat = (b->open ? (uint64_t)g->dram_trp : 0) + (uint64_t)g->dram_trcd + (uint64_t)g->dram_tcl;
        st->dram_row_misses++;
    }
    uint64_t burst = burst_cycles(m, r->sectors);
    uint64_t bus = max64(start + lat, m->bus_free[r->ch]);
    m->bus_free[r->ch] = bus + burst;
    /* column commands to an open row pipeline: the bank takes the next one a burst after this
     * one issued (bus - tCL), its CAS latency overlapping the next's */
    b->free = bus - (uint64_t)g->dram_tcl + burst;
    if (b->free < start + 1) b->free = start + 1;
    b->open = true;
    b->row = r->row;
    return bus + burst + (uint64_t)g->dram_latency;
}

static void inst_landed(tm_mem *m, uint32_t id)
{
    tm_inst *in = &m->insts[id];
    if (in->held || !m->landed) {   /* without a model the caller settles every pending time */
        in->settled = true;
        return;
    }
    if (m->landed) m->landed(m->landed_ctx, in->sm, TM_PEND | id, in->done);
    inst_free(m, id);
}

/* One of instruction id's replies (wid) is back at t. */
static void inst_reply(tm_mem *m, uint32_t id, uint32_t wid, uint64_t t)
{
    if (id == TM_INST_SELF) {
        /* the reply's own instruction: this was its only one (windowed: a model lands it) */
        const tm_wait *w = &m->waits[wid];
        m->landed(m->landed_ctx, w->sm, TM_PEND | TM_PEND_SELF | wid, max64(w->done, t));
        return;
    }
    tm_inst *in = &m->insts[id];
    if (t > in->done) in->done = t;
    if (!--in->left) inst_landed(m, id);
}

/* Reply w leaves L2 at `at`: over SM's port, into its L1 line and MSHR, and to the
 * instructions waiting for it. */
static void wait_landed(tm_mem *m, uint32_t wid, uint64_t at)
{
    const timing_gpu *g = m->gpu;
    tm_wait *w = &m->waits[wid];
    uint64_t back = max64(at, m->sm_in[w->sm]);
    uint64_t occ = icnt_cycles(m, w->resp);
    m->sm_in[w->sm] = back + occ;
    uint64_t t = back + occ + (uint64_t)g->icnt_latency;
    uint64_t tag = TM_PEND | wid;
    if (w->l1_line != UINT32_MAX) {
        tm_line *L = &(w->tex ? &m->tex[w->sm] : &m->l1[w->sm])->lines[w->l1_line];
        if (L->fill == tag) L->fill = t;
    }
    if (w->mshr) {
        mshr_land(m, w->sm, wid, t);
        if (m->landed) m->landed(m->landed_ctx, w->sm, 0, t);
    }
    if (w->inst != UINT32_MAX) inst_reply(m, w->inst, wid, t);
    for (uint32_t k = w->insts; k != UINT32_MAX;) {
        tm_link *lk = &m->links[k];
        inst_reply(m, lk->inst, wid, t);
        uint32_t nx = lk->next;
        link_free(m, m->waits[wid].sm, k);
        k = nx;
    }
    wait_free(m, wid);
}

static void prefetch_next_decision(tm_mem *m, uint32_t ch);

/* Reply wid (w) decided to land at t: what tm_mem_weave_land asks for a step ahead of its
 * landing (its L1 line, its own instruction's warp). Its instruction and waiter are read as they
 * are: a channel decides beside the weave's runs, while its SM's woven instructions issue on
 * another host thread (run.c crew_follow) and may wait for this reply too (tm_mem_access,
 * sm.c), so both sides access them atomically (relaxed: hints only; the landing reads them
 * after the steps meet). */
static inline tm_land land_hint(const tm_wait *w, uint64_t at, uint64_t t, uint32_t wid)
{
    tm_land l = {.at = at, .t = t, .wid = wid, .sm = w->sm, .l1 = UINT32_MAX};
    if (w->l1_line != UINT32_MAX && w->l1_line < TM_LAND_TEX)
        l.l1 = w->l1_line | (w->tex ? TM_LAND_TEX : 0);
    if (__atomic_load_n(&w->inst, __ATOMIC_RELAXED) == TM_INST_SELF)
        l.waiter = __atomic_load_n(&w->waiter, __ATOMIC_RELAXED);
    return l;
}

/* Channel ch serves its next request. */
static void dq_serve(tm_mem *m, uint32_t ch)
{
    uint64_t at;
    uint32_t i;
    tm_dqueue *q = bank_queue(m, ch, dq_pick(m, ch, &i, &at));
    uint32_t id = q->ents[i].id;
    /* the shorter side closes the gap (commonly the oldest leaves: none) */
    if (i < q->n - i - 1) {
        if (i) memmove(&q->ents[1], &q->ents[0], (size_t)i * sizeof *q->ents);
        q->ents++;
    } else {
        memmove(&q->ents[i], &q->ents[i + 1], (size_t)(q->n - i - 1) * sizeof *q->ents);
    }
    if (!--q->n) q->ents = q->buf;
    tm_dreq r = m->dreqs[id];
    /* (the entries' 32-bit order compares requests queued at once) */
    assert(m->chan[ch].seq - r.seq < UINT64_C(1) << 31);
    uint64_t back = dram_serve(m, &r, at);
    if (!r.write) {
        tm_line *L = &m->l2[r.slice].lines[r.l2_line];
        if (L->fill == (TM_PEND | id)) L->fill = back;
        tm_chan *C = &m->chan[ch];
        for (uint32_t k = r.waits; k != UINT32_MAX;) {
            tm_wait *w = &m->waits[k];
            uint32_t nx = w->next;
            uint64_t t = max64(w->at_l2, back) + w->ops;
            if (!m->par) {
                wait_landed(m, k, t);
            } else {
                /* the SM side is the SM's: tm_mem_weave_end lands it in this decision's place */
                if (C->nland == C->capland) {
                    uint32_t nc = C->capland ? 2 * C->capland : 64;
                    tm_land *p = realloc(C->land, (size_t)nc * sizeof *p);
                    if (!p) abort();
                    C->land = p;
                    C->capland = nc;
                }
                C->land[C->nland++] = land_hint(w, at, t, k);
            }
            k = nx;
        }
    }
    tm_chan *C = &m->chan[ch];
    m->dreqs[id].next_free = C->freedreq;
    C->freedreq = id;
    C->nfreedreq++;
    /* its bank's new oldest request and free time */
    bank_update(m, ch, r.bank);
    prefetch_next_decision(m, ch);
}

uint64_t tm_mem_next(const tm_mem *m)
{
    return m->next_min;
}

void tm_mem_advance(tm_mem *m, uint64_t now)
{
    while (m->next_min <= now && m->next_min != TM_NEVER) {
        /* the channel deciding first; among equals the lowest */
        uint32_t ch = 0;
        while (m->ch_next[ch] != m->next_min) ch++;
        dq_serve(m, ch);
        uint64_t t = TM_NEVER;
        for (int c = 0; c < m->gpu->dram_channels; c++)
            if (m->ch_next[c] < t) t = m->ch_next[c];
        m->next_min = t;
    }
}

uint64_t tm_mem_settle(tm_mem *m, uint64_t t)
{
    if (!tm_is_pend(t)) return t;
    assert(!(t & TM_PEND_SELF));   /* (windowed only, which never settles) */
    uint32_t id = (uint32_t)(t & ~TM_PEND);
    m->insts[id].held = true;
    while (!m->insts[id].settled) {
        uint64_t nx = tm_mem_next(m);
        assert(nx != TM_NEVER);
        tm_mem_advance(m, nx);
    }
    uint64_t done = m->insts[id].done;
    inst_free(m, id);
    return done;
}

enum { K_LOAD, K_STORE, K_ATOMIC };

/* model cycles that n cycles of the L2 slices' clock take (exactly n where the clocks are equal) */
static uint64_t l2_cycles(const timing_gpu *g, uint64_t n)
{
    if (g->l2_clock_khz == g->model_clock_khz) return n;
    return ceil_div(n * (uint64_t)g->model_clock_khz, (uint64_t)g->l2_clock_khz);
}

/* The L2 side of one line request arriving at cycle t (its channel ch, slice s): when its
 * reply leaves L2, or TM_PEND | the DRAM request it waits for, with *at_l2 the time without
 * that fill. */
static uint64_t l2_access(tm_mem *m, uint32_t ch, uint32_t s, uint64_t line, uint8_t need,
                          int kind, unsigned ops, uint64_t t, uint64_t *at_l2)
{
    const timing_gpu *g = m->gpu;
    uint64_t start = max64(t, m->l2_free[s]);
    tm_line *L = tm_cache_find(&m->l2[s], line, start);
    tm_evicted victim = {0};
    if (!L) L = tm_cache_alloc(&m->l2[s], line, start, &victim);
    /* a request that sends DRAM a write-back or a read waits until the channel's queues have
     * room for it; the slice waits with it (it serves its requests in order) */
    bool to_dram = (victim.tag && victim.dirty) || (kind != K_STORE && (need & (uint8_t)~L->valid));
    if (to_dram && m->dram_room) {
        if (m->ch_end[ch] > start + m->dram_room) start = m->ch_end[ch] - m->dram_room;
    }
    m->l2_free[s] = start + l2_cycles(g, 1 + (kind == K_ATOMIC ? ops : 0));
    m->l2_qleft[(size_t)s * (uint32_t)g->l2_queue + m->l2_qpos[s]] = start;
    if (++m->l2_qpos[s] == (uint32_t)g->l2_queue) m->l2_qpos[s] = 0;
    uint64_t ready = start + (uint64_t)g->l2_latency;
    *at_l2 = ready;
    if (victim.tag && victim.dirty)   /* (a slice's lines are all its channel's) */
        dram_enqueue(m, ch, s, victim.tag - 1, sectors_in(victim.dirty), true, start);
    timing_stats *st = m->par ? &m->chan[ch].st : m->st;
    if (kind == K_STORE) {
        /* write-allocate without a fetch: the written sectors become valid and dirty */
        st->l2_write_hits += (uint64_t)sectors_in(need & L->valid);
        st->l2_write_misses += (uint64_t)sectors_in(need & (uint8_t)~L->valid);
        L->valid |= need;
        L->dirty |= need;
        return ready;
    }
    uint8_t missing = need & (uint8_t)~L->valid;
    st->l2_hits += (uint64_t)sectors_in(need & L->valid);
    st->l2_misses += (uint64_t)sectors_in(missing);
    if (missing) {
        uint32_t d = dram_enqueue(m, ch, s, line, sectors_in(missing), false, ready);
        L->valid |= missing;
        L->fill = TM_PEND | d;
        m->dreqs[d].l2_line = (uint32_t)(L - m->l2[s].lines);
    }
    if (kind == K_ATOMIC) {
        L->dirty |= need;
        st->l2_atomics += ops;
    }
    if (tm_is_pend(L->fill)) return L->fill;
    ready = max64(ready, L->fill);
    return kind == K_ATOMIC ? ready + l2_cycles(g, ops) : ready;
}

/* When slice s's input queue has room for a request arriving at `arrive` (at or before it:
 * room now): when the request l2_queue places ahead left it. The queue's leave times are its
 * requests' starts (l2_access), which grow (each is at least the slice's l2_free, and l2_free
 * then at least a cycle more), so the oldest is at most the newest, itself below l2_free: a
 * slice free by arrive + 1 has room, and its ring (a host line of 8 of its 64 places, read
 * once in 8 requests of the slice, mostly a window or more apart) is not read. */
static uint64_t slice_room(const tm_mem *m, uint32_t s, uint64_t arrive)
{
    if (m->l2_free[s] <= arrive + 1) return arrive;
    return m->l2_qleft[(size_t)s * (uint32_t)m->gpu->l2_queue + m->l2_qpos[s]];
}

/* A request from SM sm leaving at cycle now: over the interconnect, L2, and back. Returns
 * when the reply is back, or TM_PEND | the reply record waiting for DRAM (*wid). */
static uint64_t round_trip(tm_mem *m, uint32_t sm, uint64_t line, uint8_t need, int kind,
                           unsigned ops, uint64_t now, bool wait_reply, uint64_t *accepted)
{
    const timing_gpu *g = m->gpu;
    unsigned data = sectors_in(need) * TM_SECTOR;
    uint64_t req = 8 + (kind == K_LOAD ? 0 : data), resp = kind == K_STORE ? 8 : 8 + data;
    uint64_t depart = max64(now, m->sm_out[sm]);
    uint64_t occ = icnt_cycles(m, req), trip = occ + (uint64_t)g->icnt_latency;
    uint32_t ch = channel_of(m, line), s = slice_in(m, ch, line);
    assert(ops <= UINT16_MAX && resp <= UINT16_MAX);   /* a warp's lanes; a line and a header */
    if (m->windowed) {
        /* the SM's side: its port; L2's side waits for the weave (tm_mem_weave) */
        m->sm_out[sm] = depart + occ;
        *accepted = depart + occ;
        (m->sm_st ? m->sm_st[sm] : m->st)->icnt_bytes += req + (wait_reply ? resp : 0);
        uint32_t wid = UINT32_MAX;
        if (wait_reply) {
            wid = wait_take(m, sm);
            m->waits[wid] = (tm_wait){.sm = sm, .l1_line = UINT32_MAX,
                                      .ops = kind == K_ATOMIC ? (uint16_t)ops : 0,
                                      .resp = (uint16_t)resp,
                                      .next = UINT32_MAX, .inst = UINT32_MAX,
                                      .insts = UINT32_MAX};
        }
        if (m->nout[sm] == m->capout[sm]) {
            uint32_t nc = m->capout[sm] ? 2 * m->capout[sm] : 256;
            tm_outreq *p = realloc(m->outbox[sm], (size_t)nc * sizeof *p);
            if (!p) abort();   /* bounded by the requests of a window and the MSHRs' */
            m->outbox[sm] = p;
            m->capout[sm] = nc;
        }
        m->outbox[sm][m->nout[sm]++] = (tm_outreq){
            .depart = depart, .line = line, .wait = wid, .ops = ops, .occ = (uint32_t)occ,
            .trip = (uint32_t)trip, .need = need, .kind = (uint8_t)kind, .ch = (uint16_t)ch,
            .slice = (uint16_t)s};
        return wait_reply ? TM_PEND | wid : now + 1;
    }
    /* the slice's input queue holds l2_queue requests: a request leaves the SM's port only
     * when there will be room for it, and holds the port until then */
    uint64_t room = slice_room(m, s, depart + trip);
    if (room > depart + trip) depart = room - trip;
    m->sm_out[sm] = depart + occ;
    *accepted = depart + occ;
    uint64_t lower;
    uint64_t at_l2 = l2_access(m, ch, s, line, need, kind, ops, depart + trip, &lower);
    m->st->icnt_bytes += req;
    if (!wait_reply) return now + 1;
    m->st->icnt_bytes += resp;
    if (tm_is_pend(at_l2)) {
        uint32_t d = (uint32_t)(at_l2 & ~TM_PEND), wid = wait_take(m, sm);
        m->waits[wid] = (tm_wait){.at_l2 = lower, .sm = sm, .l1_line = UINT32_MAX,
                                  .ops = kind == K_ATOMIC ? (uint16_t)ops : 0,
                                  .resp = (uint16_t)resp,
                                  .next = m->dreqs[d].waits, .inst = UINT32_MAX,
                                  .insts = UINT32_MAX};
        m->dreqs[d].waits = wid;
        return TM_PEND | wid;
    }
    uint64_t back = max64(at_l2, m->sm_in[sm]);
    uint64_t occ2 = icnt_cycles(m, resp);
    m->sm_in[sm] = back + occ2;
    return back + occ2 + (uint64_t)g->icnt_latency;
}

/* Request r of SM sm reaches L2: its slice's input queue (no room: it waits, and the SM's
 * port with it for its later requests), the slice, and DRAM's queues; its reply lands now or
 * waits for DRAM. */
static void outreq_serve(tm_mem *m, uint32_t sm, const tm_outreq *r, tm_order *o)
{
    uint32_t s = r->slice;
    uint64_t arrive = r->depart + r->trip;
    uint64_t room = slice_room(m, s, arrive);
    if (room > arrive) {
        arrive = room;
        /* the port is the SM's: a maximum, taken in tm_mem_weave_end */
        if (o) o->port = room - r->trip + r->occ;
        else if (room - r->trip + r->occ > m->sm_out[sm]) m->sm_out[sm] = room - r->trip + r->occ;
    }
    uint64_t lower;
    uint64_t at_l2 = l2_access(m, r->ch, s, r->line, r->need, r->kind, r->ops, arrive, &lower);
    if (r->wait == UINT32_MAX) return;
    if (tm_is_pend(at_l2)) {
        uint32_t d = (uint32_t)(at_l2 & ~TM_PEND);
        m->waits[r->wait].at_l2 = lower;
        m->waits[r->wait].next = m->dreqs[d].waits;
        m->dreqs[d].waits = r->wait;
        return;
    }
    if (o) {
        o->wid = r->wait;
        o->t = at_l2;
    } else {
        wait_landed(m, r->wait, at_l2);
    }
}

/* A min-heap of tm_heap_item, the least key first, then the least index: the merges below take
 * the SM (channel) whose next item comes first, the lowest among equals. */

static bool heap_before(const tm_heap_item *a, const tm_heap_item *b)
{
    return a->key < b->key || (a->key == b->key && a->ix < b->ix);
}

static void heap_push(tm_heap_item *h, uint32_t *n, uint64_t key, uint32_t ix)
{
    uint32_t i = (*n)++;
    h[i] = (tm_heap_item){key, ix};
    while (i && heap_before(&h[i], &h[(i - 1) / 2])) {
        tm_heap_item x = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

static tm_heap_item heap_pop(tm_heap_item *h, uint32_t *n)
{
    tm_heap_item top = h[0];
    h[0] = h[--*n];
    for (uint32_t i = 0;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && heap_before(&h[c + 1], &h[c])) c++;
        if (!heap_before(&h[c], &h[i])) break;
        tm_heap_item x = h[i];
        h[i] = h[c];
        h[c] = x;
        i = c;
    }
    return top;
}

/* Weave prefetching. The window's DRAM decisions, L2 lookups and landings each read records
 * last touched many windows ago, one after another, and each a chain of misses (a queue entry,
 * its request, that request's L2 set; a reply, its L1 set, its link, its instruction). The
 * weave asks for them ahead, in short loops whose misses the host overlaps: the oldest queue
 * entries of the banks that can take a request in the window and their requests (step 1,
 * before the window's requests are ordered; the tournament names the requests), what those
 * name (step 3, after: the L2 line, the first reply);
 * each request's L2 set as it is ordered; the next SM's replies, L1 lines and warps while an
 * SM's replies land (on the host thread landing them). Only hints: nothing
 * is written. (noipa: GCC finds a function that only prefetches pure, and drops its calls.) */
static __attribute__((noipa)) void prefetch_decisions(tm_mem *m, uint32_t lo, uint32_t hi,
                                                      uint64_t end, int step)
{
    /* (the tournament's nodes name each winner's oldest request: the requests' records are
     * asked for in step 1 with the queues' entries, and read in step 3; between the two,
     * as the window's requests are ordered, there is nothing left to ask for) */
    uint32_t nl = m->tleaves;
    for (uint32_t ch = lo; ch < hi; ch++) {
        if (m->ch_next[ch] == TM_NEVER || m->ch_next[ch] > end - 1) continue;
        /* the first decision's (its bank is ch_bank's; 80-90% of decisions take the bank's
         * oldest request: vecadd), and the second's where it is due in the window (step 1
         * finds it, ch_req2): a bank other than the first's (vecadd: 26,446 of 26,450 second
         * decisions on v100, 38,135 of 38,427 on gtx480), the best of the first's path's other
         * children */
        const tm_bnode *nd = &m->bnode[(size_t)ch * 2 * nl];
        uint32_t id[2] = {nd[1].id, m->ch_req2[ch]};
        if (step == 1) {
            uint64_t t2 = TM_NEVER;
            uint32_t bank2 = UINT32_MAX;
            for (uint32_t j = nl + m->ch_bank[ch]; j > 1; j /= 2)
                if (nd[j ^ 1].next < t2) {
                    t2 = nd[j ^ 1].next;
                    bank2 = nd[j ^ 1].bank;
                    id[1] = nd[j ^ 1].id;
                }
            if (t2 > end - 1) bank2 = id[1] = UINT32_MAX;
            m->ch_req2[ch] = id[1];
            uint32_t bank[2] = {m->ch_bank[ch], bank2};
            for (int k = 0; k < 2 && bank[k] != UINT32_MAX; k++) {
                __builtin_prefetch(bank_queue(m, ch, bank[k])->ents);
                __builtin_prefetch(&m->dreqs[id[k]]);   /* (a host line) */
            }
            continue;
        }
        for (int k = 0; k < 2 && id[k] != UINT32_MAX; k++) {
            const tm_dreq *r = &m->dreqs[id[k]];
            if (r->write) continue;
            __builtin_prefetch(&m->l2[r->slice].lines[r->l2_line]);
            if (r->waits != UINT32_MAX) __builtin_prefetch(&m->waits[r->waits]);
        }
    }
}

/* After a decision, the channel's next one's request (a channel decides several times in a
 * window, a different bank each time). */
static __attribute__((noipa)) void prefetch_next_decision(tm_mem *m, uint32_t ch)
{
    uint32_t id = m->bnode[(size_t)ch * 2 * m->tleaves + 1].id;   /* (just written) */
    if (id != UINT32_MAX) __builtin_prefetch(&m->dreqs[id]);   /* (a host line) */
}

/* Channel ch's requests' L2 sets (tm_mem_weave_channels), asked for while the channel before
 * it runs, whichever host thread serves it: where they lie changes in no window (the order,
 * the outboxes' lines, the sets' places). */
static __attribute__((noipa)) void prefetch_channel(tm_mem *m, uint32_t ch)
{
    if (ch >= (uint32_t)m->gpu->dram_channels) return;
    const tm_chan *C = &m->chan[ch];
    for (uint32_t i = 0; i < C->nreq; i++) {
        const tm_order *o = &m->order[C->reqs[i]];
        const tm_outreq *r = &m->outbox[o->sm][o->idx];
        tm_cache_prefetch_set(&m->l2[r->slice], r->line);
    }
}

/* A reply about to land (wait_landed): its L1 line, its last instruction (its own: that
 * instruction's warp), and the link to the one before. */
static __attribute__((noipa)) void prefetch_landing(tm_mem *m, const tm_wait *w)
{
    if (w->l1_line != UINT32_MAX)
        __builtin_prefetch(&(w->tex ? &m->tex[w->sm] : &m->l1[w->sm])->lines[w->l1_line]);
    if (w->inst < TM_INST_SELF) __builtin_prefetch(&m->insts[w->inst]);
    else if (w->inst == TM_INST_SELF && w->waiter && m->landing_soon)
        m->landing_soon(m->landed_ctx, w->sm, w->waiter);
    if (w->insts != UINT32_MAX) __builtin_prefetch(&m->links[w->insts]);
}

/* Room in the window's order for n requests. */
static void order_room(tm_mem *m, uint32_t n)
{
    if (n <= m->caporder) return;
    uint32_t nc = m->caporder ? 2 * m->caporder : 256;
    while (nc < n) nc *= 2;
    tm_order *p = realloc(m->order, (size_t)nc * sizeof *p);
    if (!p) abort();
    m->order = p;
    m->caporder = nc;
}

/* The merges below by counting when their keys span at most this many cycles (a window's
 * requests and decisions mostly lie within a window or two): the order of the merge (by key,
 * then the lower SM or channel, then each one's own order, whose keys never decrease) is that
 * of a stable sort by key of the SMs' (channels') items taken one after another. */
enum { WEAVE_BUCKETS = 64 };

/* The window's requests (those of each SM's outbox leaving before `end`, which never leave
 * earlier than the one before them) in (depart, SM, order) order, by counting. false (nothing
 * done) when their departures span more than WEAVE_BUCKETS cycles. */
static bool order_by_count(tm_mem *m, uint64_t end)
{
    /* buckets from the window's last WEAVE_BUCKETS cycles (a stable order by departure whatever
     * the first bucket; one pass counts and checks the span, an SM's first request being its
     * earliest); the second pass visits only the SMs the first found with requests of the
     * window (`sms`), and the buckets' sums span only the departures there are (this step is
     * on the weave's serial path: the other threads wait for it) */
    uint64_t lo = end > WEAVE_BUCKETS ? end - WEAVE_BUCKETS : 0;
    uint32_t at[WEAVE_BUCKETS] = {0}, n = 0, *sms = m->weave_sms, nsms = 0;
    uint64_t first = TM_NEVER, last = 0;
    for (uint32_t s = 0; s < m->nsm; s++) {
        const tm_outreq *o = m->outbox[s];
        uint32_t i = m->outpos[s], e = m->nout[s];
        if (i == e || o[i].depart >= end) continue;
        if (o[i].depart < lo) return false;
        sms[nsms++] = s;
        if (o[i].depart < first) first = o[i].depart;
        for (; i < e && o[i].depart < end; i++) {
            assert(i == m->outpos[s] || o[i].depart >= o[i - 1].depart);
            at[o[i].depart - lo]++;
        }
        if (o[i - 1].depart > last) last = o[i - 1].depart;
    }
    if (!nsms) return true;   /* (many windows: matmul) */
    for (uint64_t b = first - lo; b <= last - lo; b++) {
        uint32_t c = at[b];
        at[b] = n;
        n += c;
    }
    order_room(m, n);
    for (uint32_t k = 0; k < nsms; k++) {
        uint32_t s = sms[k];
        const tm_outreq *o = m->outbox[s];
        uint32_t i = m->outpos[s];
        for (; i < m->nout[s] && o[i].depart < end; i++)
            m->order[at[o[i].depart - lo]++] = (tm_order){.sm = s, .idx = i, .wid = UINT32_MAX};
        m->outpos[s] = i;
    }
    m->norder = n;
    return true;
}

uint32_t tm_mem_weave_begin(tm_mem *m, uint64_t end)
{
    m->norder = 0;
    prefetch_decisions(m, 0, (uint32_t)m->gpu->dram_channels, end, 1);
    /* each SM's outbox from its first request, the one leaving first, the lowest SM among
     * equals; an SM's request leaving at `end` or later holds those behind it */
    if (!order_by_count(m, end)) {
        tm_heap_item *h = m->heap;
        uint32_t nh = 0;
        for (uint32_t s = 0; s < m->nsm; s++)
            if (m->outpos[s] < m->nout[s] && m->outbox[s][m->outpos[s]].depart < end)
                heap_push(h, &nh, m->outbox[s][m->outpos[s]].depart, s);
        while (nh) {
            uint32_t best = heap_pop(h, &nh).ix;
            order_room(m, m->norder + 1);
            uint32_t k = m->norder++;
            m->order[k] = (tm_order){.sm = best, .idx = m->outpos[best]++, .wid = UINT32_MAX};
            if (m->outpos[best] < m->nout[best] && m->outbox[best][m->outpos[best]].depart < end)
                heap_push(h, &nh, m->outbox[best][m->outpos[best]].depart, best);
        }
    }
    /* each channel's requests, in that order (and the place in its slice's input queue that
     * outreq_serve reads where the slice is busy, asked for: a host line of the queue's is
     * met once in 8 of the slice's requests, windows apart) */
    for (uint32_t k = 0; k < m->norder; k++) {
        const tm_order *o = &m->order[k];
        const tm_outreq *r = &m->outbox[o->sm][o->idx];
        tm_chan *C = &m->chan[r->ch];
        __builtin_prefetch(&m->l2_qleft[(size_t)r->slice * (uint32_t)m->gpu->l2_queue +
                                        m->l2_qpos[r->slice]]);
        if (C->nreq == C->capreq) {
            uint32_t nc = C->capreq ? 2 * C->capreq : 64;
            uint32_t *p = realloc(C->reqs, (size_t)nc * sizeof *p);
            if (!p) abort();
            C->reqs = p;
            C->capreq = nc;
        }
        C->reqs[C->nreq++] = k;
    }
    /* a request makes at most two DRAM requests (a write-back and a read): each channel's own
     * records, so that their ids do not depend on the threads */
    for (int c = 0; c < m->gpu->dram_channels; c++) {
        tm_chan *C = &m->chan[c];
        while (C->nfreedreq < 2 * C->nreq) {
            uint32_t id;
            id = dreq_new(m);
            m->dreqs[id].next_free = C->freedreq;
            C->freedreq = id;
            C->nfreedreq++;
        }
    }
    /* (the requests' records were asked for before the channels' requests were listed) */
    prefetch_decisions(m, 0, (uint32_t)m->gpu->dram_channels, end, 3);
    prefetch_channel(m, 0);
    m->par = true;
    return m->norder + (m->next_min < end ? (uint32_t)m->gpu->dram_channels : 0);
}

void tm_mem_weave_open(tm_mem *m)
{
    m->par = true;
}

void tm_mem_weave_decide(tm_mem *m, uint32_t lo, uint32_t hi, uint64_t end)
{
    assert(m->par);
    for (uint32_t ch = lo; ch < hi; ch++)
        while (m->ch_next[ch] != TM_NEVER && m->ch_next[ch] <= end - 1) dq_serve(m, ch);
}

void tm_mem_weave_channels(tm_mem *m, uint32_t lo, uint32_t hi, uint64_t end)
{
    for (uint32_t ch = lo; ch < hi; ch++) {
        /* (each channel is an item of its own: a channel's range is itself, and the next
         * channel's decisions, which another thread may be changing, are not asked for) */
        prefetch_channel(m, ch + 1);
        /* its scheduler's decisions before the window's end, then the window's requests */
        while (m->ch_next[ch] != TM_NEVER && m->ch_next[ch] <= end - 1) dq_serve(m, ch);
        tm_chan *C = &m->chan[ch];
        for (uint32_t i = 0; i < C->nreq; i++) {
            tm_order *o = &m->order[C->reqs[i]];
            outreq_serve(m, o->sm, &m->outbox[o->sm][o->idx], o);
        }
    }
}

/* A reply for SM sm's list of landings, in the order one thread would land them. */
static void land_later(tm_mem *m, uint32_t sm, const tm_land *l)
{
    if (m->sm_nland[sm] == m->sm_capland[sm]) {
        uint32_t nc = m->sm_capland[sm] ? 2 * m->sm_capland[sm] : 64;
        tm_land *p = realloc(m->sm_land[sm], (size_t)nc * sizeof *p);
        if (!p) abort();
        m->sm_land[sm] = p;
        m->sm_capland[sm] = nc;
    }
    m->sm_land[sm][m->sm_nland[sm]++] = *l;
}

uint32_t tm_mem_weave_end(tm_mem *m)
{
    m->par = false;
    uint32_t landings = 0;
    /* (the last window's lists stay until now: tm_mem_weave_land reads the next SM's) */
    memset(m->sm_nland, 0, m->nsm * sizeof *m->sm_nland);
    uint32_t nch = (uint32_t)m->gpu->dram_channels;
    /* the replies the schedulers decided, by decision cycle, then channel (each channel's
     * decisions come in cycle order) */
    uint64_t lo = TM_NEVER, hi = 0;
    for (uint32_t c = 0; c < nch; c++) {
        const tm_chan *C = &m->chan[c];
        if (!C->nland) continue;
        if (C->land[0].at < lo) lo = C->land[0].at;
        if (C->land[C->nland - 1].at > hi) hi = C->land[C->nland - 1].at;
    }
    if (lo != TM_NEVER && hi - lo < WEAVE_BUCKETS && nch <= 64) {
        /* cycle by cycle, each channel's decisions of that cycle (WEAVE_BUCKETS), by a mask
         * per cycle of the channels that have some, rather than a look at every channel in
         * every cycle of the span (up to 64 x 32 looks on v100: an eighth of this function's
         * time, which the other host threads wait for) */
        uint64_t has[WEAVE_BUCKETS] = {0};
        for (uint32_t c = 0; c < nch; c++)
            for (uint32_t i = 0; i < m->chan[c].nland; i++)
                has[m->chan[c].land[i].at - lo] |= UINT64_C(1) << c;
        for (uint64_t at = lo; at <= hi; at++)
            for (uint64_t mk = has[at - lo]; mk; mk &= mk - 1) {
                tm_chan *C = &m->chan[__builtin_ctzll(mk)];
                for (; C->landpos < C->nland && C->land[C->landpos].at == at; C->landpos++) {
                    const tm_land *l = &C->land[C->landpos];
                    land_later(m, l->sm, l);
                    landings++;
                }
            }
    } else if (lo != TM_NEVER && hi - lo < WEAVE_BUCKETS) {
        /* (the same, more channels than a mask's bits) */
        for (uint64_t at = lo; at <= hi; at++)
            for (uint32_t c = 0; c < nch; c++) {
                tm_chan *C = &m->chan[c];
                for (; C->landpos < C->nland && C->land[C->landpos].at == at; C->landpos++) {
                    const tm_land *l = &C->land[C->landpos];
                    land_later(m, l->sm, l);
                    landings++;
                }
            }
    } else if (lo != TM_NEVER) {
        tm_heap_item *h = m->heap;
        uint32_t nh = 0;
        for (uint32_t c = 0; c < nch; c++)
            if (m->chan[c].nland) heap_push(h, &nh, m->chan[c].land[0].at, c);
        while (nh) {
            tm_chan *C = &m->chan[heap_pop(h, &nh).ix];
            const tm_land *l = &C->land[C->landpos++];
            land_later(m, l->sm, l);
            landings++;
            if (C->landpos < C->nland)
                heap_push(h, &nh, C->land[C->landpos].at, (uint32_t)(C - m->chan));
        }
    }
    /* then the requests', in their order */
    for (uint32_t k = 0; k < m->norder; k++) {
        const tm_order *o = &m->order[k];
        if (o->port > m->sm_out[o->sm]) m->sm_out[o->sm] = o->port;
        if (o->wid != UINT32_MAX) {
            land_later(m, o->sm, &(tm_land){.t = o->t, .wid = o->wid, .l1 = UINT32_MAX});
            landings++;
        }
    }
    uint64_t next = TM_NEVER;
    for (uint32_t c = 0; c < nch; c++) {
        tm_chan *C = &m->chan[c];
        assert(C->landpos == C->nland);   /* every decision landed (in cycle order) */
        C->nreq = C->nland = C->landpos = 0;
        if (m->ch_next[c] < next) next = m->ch_next[c];
    }
    m->next_min = next;
    m->norder = 0;
    return landings;
}

void tm_mem_weave_stats(tm_mem *m)
{
    for (uint32_t c = 0; m->chan && c < (uint32_t)m->gpu->dram_channels; c++) {
        tm_chan *C = &m->chan[c];
        m->st->l2_hits += C->st.l2_hits;
        m->st->l2_misses += C->st.l2_misses;
        m->st->l2_atomics += C->st.l2_atomics;
        m->st->l2_write_hits += C->st.l2_write_hits;
        m->st->l2_write_misses += C->st.l2_write_misses;
        m->st->dram_reads += C->st.dram_reads;
        m->st->dram_writes += C->st.dram_writes;
        m->st->dram_row_hits += C->st.dram_row_hits;
        m->st->dram_row_misses += C->st.dram_row_misses;
        C->st.l2_hits = C->st.l2_misses = C->st.l2_atomics = 0;
        C->st.l2_write_hits = C->st.l2_write_misses = 0;
        C->st.dram_reads = C->st.dram_writes = C->st.dram_row_hits = C->st.dram_row_misses = 0;
    }
}

/* What SM s's landings of the window will touch, as known from their list alone: the reply
 * records, and where the channels' threads saw them (land_hint), their L1 lines and warps. */
static void prefetch_landings(const tm_mem *m, uint32_t s)
{
    const tm_land *ls = m->sm_land[s];
    for (uint32_t i = 0; i < m->sm_nland[s]; i++) {
        __builtin_prefetch(&m->waits[ls[i].wid]);   /* (a host line) */
        if (ls[i].l1 != UINT32_MAX) {
            const tm_cache *c = ls[i].l1 & TM_LAND_TEX ? &m->tex[s] : &m->l1[s];
            __builtin_prefetch(&c->lines[ls[i].l1 & ~TM_LAND_TEX]);
        }
        if (ls[i].waiter && m->landing_soon) m->landing_soon(m->landed_ctx, s, ls[i].waiter);
    }
}

void tm_mem_weave_land(tm_mem *m, uint32_t lo, uint32_t hi)
{
    for (uint32_t s = lo; s < hi; s++) {
        /* An SM has a few landings a window, and its host thread lands one SM after another
         * (run.c land_item), each followed by the SM's next bound phase: the next SM's
         * landings are asked for here, from their list alone (their records are not this
         * thread's to read: another may be landing that SM), so that its misses overlap this
         * SM's work; this SM's were asked for a step before (unless it is the first) */
        if (s + 1 < m->nsm) prefetch_landings(m, s + 1);
        const tm_land *ls = m->sm_land[s];
        uint32_t n = m->sm_nland[s];
        for (uint32_t i = 0; i < n; i++)
            if (ls[i].l1 == UINT32_MAX || !ls[i].waiter) prefetch_landing(m, &m->waits[ls[i].wid]);
        for (uint32_t i = 0; i < n; i++) wait_landed(m, ls[i].wid, ls[i].t);
        /* the requests the weave took leave the outbox (here, on the SM's host thread: the
         * counts are written at its issue) */
        uint32_t left = m->nout[s] - m->outpos[s];
        /* an SM that never sent has no outbox yet: memmove of NULL is undefined even for 0 */
        if (left && m->outpos[s])
            memmove(m->outbox[s], m->outbox[s] + m->outpos[s], left * sizeof *m->outbox[s]);
        m->nout[s] = left;
        m->outpos[s] = 0;
    }
}

void tm_mem_weave(tm_mem *m, uint64_t end)
{
    tm_mem_weave_begin(m, end);
    tm_mem_weave_channels(m, 0, (uint32_t)m->gpu->dram_channels, end);
    tm_mem_weave_end(m);
    tm_mem_weave_land(m, 0, m->nsm);
}

bool tm_mem_busy(const tm_mem *m)
{
    if (m->next_min != TM_NEVER) return true;
    for (uint32_t s = 0; s < m->nsm; s++)
        if (m->nout[s]) return true;
    return false;
}

/* The bits in which a whole warp's addresses differ from a0 (the OR of each XOR a0), two lanes
 * at a time. */
static inline uint64_t warp_differs(const uint64_t *addr, uint64_t a0)
{
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    u64x2 b = {a0, a0}, x = {0, 0}, y = {0, 0};
    for (int l = 0; l < EMU_WARP_SIZE; l += 4) {
        u64x2 v, w;
        memcpy(&v, &addr[l], sizeof v);
        memcpy(&w, &addr[l + 2], sizeof w);
        x |= v ^ b;
        y |= w ^ b;
    }
    x |= y;
    return x[0] | x[1];
}

/* wavefronts() where each lane touches one word (the common case): per bank its first word and
 * the lanes that fell in it; another word is counted when no lane of the bank before had it.
 * (pow2: the bank is the word's low bits; a constant where it is inlined.) */
static inline __attribute__((always_inline)) uint32_t
one_word_banks(const uint64_t *off, uint32_t lanes, uint32_t banks, bool pow2)
{
    uint64_t first[64], word[EMU_WARP_SIZE];
    uint32_t in_bank[64], count[64], most = 1;
    uint64_t used = 0;   /* banks seen */
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t w = off[l] >> 2;
        uint32_t b = pow2 ? (uint32_t)(w & (banks - 1)) : (uint32_t)(w % banks);
        word[l] = w;
        if (!(used >> b & 1)) {
            used |= UINT64_C(1) << b;
            first[b] = w;
            count[b] = 1;
            in_bank[b] = 1u << l;
            continue;
        }
        if (first[b] != w) {
            bool seen = false;
            for (uint32_t mk2 = in_bank[b]; mk2 && !seen; mk2 &= mk2 - 1)
                seen = word[__builtin_ctz(mk2)] == w;
            if (!seen && ++count[b] > most) most = count[b];
        }
        in_bank[b] |= 1u << l;
    }
    return most;
}

static uint32_t wavefronts_one_word(const uint64_t *off, uint32_t lanes, uint32_t banks)
{
    return (banks & (banks - 1)) == 0 ? one_word_banks(off, lanes, banks, true)
                                      : one_word_banks(off, lanes, banks, false);
}

/* Whether a whole warp's compact shared access takes one wavefront by the first test of
 * wavefronts() below (each lane within one word, every lane in lane 0's window, the words
 * spanning fewer than the banks), from its shape: each half-warp's addresses run from its
 * first lane's to its last's, so the four hold the least and the greatest. False: that test
 * is to be made lane by lane. */
static bool one_wavefront_compact(const emu_event *e, unsigned size, uint32_t banks)
{
    uint64_t s = (uint64_t)(int64_t)e->stride, h = (uint64_t)(int64_t)e->half_stride;
    if (!(size == 1 || (size == 4 && !((e->base | s | h) & 3)))) return false;
    uint64_t a0 = e->base, ends[4] = {a0, a0 + 15 * s, a0 + h, a0 + h + 15 * s};
    uint64_t amin = ends[0], amax = ends[0];
    for (int k = 1; k < 4; k++) {
        amin = ends[k] < amin ? ends[k] : amin;
        amax = ends[k] > amax ? ends[k] : amax;
    }
    if ((amin ^ amax) >> EMU_WINDOW_BITS) return false;
    uint64_t off0;
    emu_address_space(a0, &off0);
    return ((off0 + (amax - a0)) >> 2) - ((off0 + (amin - a0)) >> 2) < banks;
}

/* The wavefronts a shared access of `lanes` takes: the most distinct words in one bank (lanes
 * reading one word share it). */
static uint32_t wavefronts(const tm_mem *m, const emu_event *e, uint32_t lanes)
{
    uint64_t words[64][8];                   /* the first distinct words of each bank */
    uint64_t off[EMU_WARP_SIZE];             /* each lane's offset in shared memory */
    uint32_t per_bank[64], most = 1;
    uint32_t banks = (uint32_t)m->gpu->smem_banks;
    unsigned size = e->size ? e->size : 1;
    if (lanes == UINT32_MAX && (e->flags & EMU_EV_COMPACT) && one_wavefront_compact(e, size, banks))
        return 1;
    uint64_t addr_buf[EMU_WARP_SIZE];
    const uint64_t *addr = emu_event_addrs(e, addr_buf);
    /* lanes in the first lane's window are at its offset plus their distance from it (a whole
     * warp without a test per lane); `far`: some lane is in another window (a generic address).
     * `ors`, lo, hi: the offsets' bits and range. */
    int l0 = __builtin_ctz(lanes);
    uint64_t a0 = addr[l0], off0, far = 0, ors = 0, lo = UINT64_MAX, hi = 0;
    emu_address_space(a0, &off0);
    {
        /* The common case first, from the addresses alone. Every lane in the first lane's
         * window: offsets then differ as the addresses do, and are all word-aligned when the
         * first is and no address differs from it in its low two bits. Each lane within one
         * word, the words spanning fewer than the banks: one wavefront (as the test below
         * finds). Cheapest: the bits where some address differs from the first (`far`) lie
         * below a block of 4 * 2^k bytes (2^k <= banks), so the words span fewer than 2^k;
         * else from the least and the greatest address. */
        if (lanes == UINT32_MAX) {
            far = warp_differs(addr, a0);
        } else {
            for (uint32_t mk = lanes; mk; mk &= mk - 1) far |= addr[__builtin_ctz(mk)] ^ a0;
        }
        if (!(far >> EMU_WINDOW_BITS) && (size == 1 || (size == 4 && !((off0 | far) & 3)))) {
            if (far < UINT64_C(4) << (63 - __builtin_clzll(banks))) return 1;
            uint64_t amin = a0, amax = a0;
            for (uint32_t mk = lanes; mk; mk &= mk - 1) {
                uint64_t a = addr[__builtin_ctz(mk)];
                amin = a < amin ? a : amin;
                amax = a > amax ? a : amax;
            }
            if (((off0 + (amax - a0)) >> 2) - ((off0 + (amin - a0)) >> 2) < banks) return 1;
        }
        far = 0;
    }
#define LANE_OFFSET(l)                                                                     \
    do {                                                                                   \
        int ln = (l);                                                                      \
        uint64_t a = addr[ln], o = off0 + (a - a0);                                        \
        far |= a ^ a0;                                                                     \
        off[ln] = o;                                                                       \
        ors |= o;                                                                          \
        lo = o < lo ? o : lo;                                                              \
        hi = o > hi ? o : hi;                                                              \
    } while (0)
    if (lanes == UINT32_MAX) {
        for (int l = 0; l < EMU_WARP_SIZE; l++) LANE_OFFSET(l);
    } else {
        for (uint32_t mk = lanes; mk; mk &= mk - 1) LANE_OFFSET(__builtin_ctz(mk));
    }
#undef LANE_OFFSET
    if (far >> EMU_WINDOW_BITS) {
        ors = hi = 0;
        lo = UINT64_MAX;
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if ((addr[l] ^ a0) >> EMU_WINDOW_BITS) emu_address_space(addr[l], &off[l]);
            uint64_t o = off[l];
            ors |= o;
            lo = o < lo ? o : lo;
            hi = o > hi ? o : hi;
        }
    }
    /* every lane within one word: */
    bool one_word = size == 1 || (size == 4 && !(ors & 3));
    if (size == 2 || size == 3) {
        one_word = true;
        for (uint32_t mk = lanes; mk; mk &= mk - 1)
            one_word = one_word && (off[__builtin_ctz(mk)] & 3) + size <= 4;
    }
    /* two words in one bank are `banks` words apart or more: within fewer, one wavefront */
    if (one_word && (hi >> 2) - (lo >> 2) < banks) return 1;
    if (one_word) return wavefronts_one_word(off, lanes, banks);
    memset(per_bank, 0, sizeof per_bank);
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        for (uint64_t w = off[l] >> 2; w <= (off[l] + size - 1) >> 2; w++) {
            uint32_t b = (uint32_t)(w % banks), k = per_bank[b];
            bool seen = false;
            /* words beyond the first 8 of a bank are told apart by a scan of the lanes before */
            for (uint32_t i = 0; i < k && i < 8 && !seen; i++) seen = words[b][i] == w;
            if (!seen && k >= 8) {
                for (uint32_t mk2 = lanes & ((1u << l) - 1); mk2 && !seen; mk2 &= mk2 - 1) {
                    uint64_t o2 = off[__builtin_ctz(mk2)];
                    seen = o2 >> 2 <= w && w <= (o2 + size - 1) >> 2;
                }
            }
            if (seen) continue;
            if (k < 8) words[b][k] = w;
            if (++per_bank[b] > most) most = per_bank[b];
        }
    }
    return most;
}

static int kind_of(uint8_t cls)
{
    switch (cls) {
    case EMU_CLS_ST_GLOBAL: case EMU_CLS_ST_SHARED: case EMU_CLS_ST_LOCAL: case EMU_CLS_ST_GENERIC:
        return K_STORE;
    case EMU_CLS_ATOMIC: case EMU_CLS_ATOMIC_SHARED:
        return K_ATOMIC;
    default:
        return K_LOAD;
    }
}

typedef struct line_req { uint64_t line; uint8_t need; unsigned ops; } line_req;

/* The lines a global access of `lanes` asks for, in the order the coalescer sends them: each
 * line's sectors (`need`) and lanes (`ops`). A lane within the one sector the lane before was
 * (within) only counts once more on that sector's line. Returns how many. */
static unsigned coalesce(const uint64_t *addr, uint32_t lanes, unsigned size,
                         line_req req[EMU_WARP_SIZE * 2])
{
    unsigned n = 0;
    uint64_t prev_s = UINT64_MAX;
    unsigned prev_i = 0;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t first = addr[l], last = addr[l] + size - 1;
        uint64_t s0 = first / TM_SECTOR;
        bool one_sector = last / TM_SECTOR == s0;
        if (one_sector && s0 == prev_s) {
            req[prev_i].ops++;
            continue;
        }
        prev_s = UINT64_MAX;
        for (uint64_t s = s0; s <= last / TM_SECTOR; s++) {
            uint64_t line = s * TM_SECTOR / TM_LINE;
            unsigned i = 0;
            while (i < n && req[i].line != line) i++;
            if (i == n) {
                if (n == EMU_WARP_SIZE * 2) break;
                req[n++] = (line_req){line, 0, 0};
            }
            req[i].need |= (uint8_t)(1u << (s % (TM_LINE / TM_SECTOR)));
            if (s == s0) req[i].ops++;
            if (one_sector) {
                prev_s = s0;
                prev_i = i;
            }
        }
    }
    return n;
}

/* coalesce_one_sector() of the k lanes at a + j * st (j = 0..k-1; st 0 or a power of two),
 * after n requests whose last lane's sector is *prev_s, the addresses not decreasing from it:
 * the requests' count after them. */
static unsigned coalesce_run(uint64_t a, uint64_t st, unsigned k, line_req req[EMU_WARP_SIZE * 2],
                             unsigned n, uint64_t *prev_s)
{
    unsigned sh = st ? (unsigned)__builtin_ctzll(st) : 0;
    if (st <= TM_SECTOR) {
        /* lanes at most a sector apart skip no sector between the run's first and last: a line
         * at a time, its sectors and lanes counted, not met a sector at a time */
        uint64_t hi = a + (k - 1) * st;
        for (uint64_t line = a / TM_LINE; line <= hi / TM_LINE; line++) {
            uint64_t from = max64(a, line * TM_LINE);
            uint64_t to = hi / TM_LINE == line ? hi : line * TM_LINE + TM_LINE - 1;
            unsigned s0 = (unsigned)(from / TM_SECTOR % (TM_LINE / TM_SECTOR));
            unsigned s1 = (unsigned)(to / TM_SECTOR % (TM_LINE / TM_SECTOR));
            unsigned ops = st ? (unsigned)(((to - a) >> sh) - ((from - a + st - 1) >> sh) + 1) : k;
            /* (a line the previous run ended in takes this run's first lanes) */
            if (!n || req[n - 1].line != line) req[n++] = (line_req){line, 0, 0};
            req[n - 1].need |= (uint8_t)((2u << s1) - (1u << s0));
            req[n - 1].ops += ops;
        }
        *prev_s = hi / TM_SECTOR;
        return n;
    }
    for (unsigned j = 0; j < k;) {
        uint64_t addr = a + j * st, s = addr / TM_SECTOR;
        /* the last of the run's lanes in sector s */
        uint64_t in = st ? ((s + 1) * TM_SECTOR - 1 - a) >> sh : k - 1;
        unsigned last = in < k - 1 ? (unsigned)in : k - 1;
        if (s != *prev_s) {
            uint64_t line = addr / TM_LINE;
            if (!n || req[n - 1].line != line) req[n++] = (line_req){line, 0, 0};
            req[n - 1].need |= (uint8_t)(1u << (s % (TM_LINE / TM_SECTOR)));
            *prev_s = s;
        }
        req[n - 1].ops += last - j + 1;
        j = last + 1;
    }
    return n;
}

/* coalesce() of a compact event whose every lane lies within one sector (its size a power of
 * two up to a sector, every address a multiple of it): the same requests, from the shape
 * without reading or building 32 addresses. */
static unsigned coalesce_one_sector(const emu_event *e, uint32_t lanes,
                                    line_req req[EMU_WARP_SIZE * 2])
{
    int64_t st = e->stride, half = e->half_stride;
    if (lanes == UINT32_MAX && st >= 0 && !(st & (st - 1)) && half >= 15 * st &&
        e->base <= UINT64_MAX - (uint64_t)(half + 15 * st)) {
        /* every lane, their addresses not decreasing from lane to lane (two runs of a power of
         * two stride, the second from where the first ends or after): the loop below would
         * meet each sector's lanes one after another and each line's sectors likewise, never
         * a line it met before; taken a sector at a time */
        uint64_t prev = UINT64_MAX;
        const unsigned k = EMU_WARP_SIZE / 2;
        /* the second half from where the first ends (contiguous elements): one run */
        if ((uint64_t)half == k * (uint64_t)st)
            return coalesce_run(e->base, (uint64_t)st, 2 * k, req, 0, &prev);
        unsigned n = coalesce_run(e->base, (uint64_t)st, k, req, 0, &prev);
        return coalesce_run(e->base + (uint64_t)half, (uint64_t)st, k, req, n, &prev);
    }
    unsigned n = 0, prev_i = 0;
    uint64_t prev_s = UINT64_MAX;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        uint64_t a = emu_event_lane_addr(e, __builtin_ctz(mk)), s = a / TM_SECTOR;
        if (s == prev_s) {
            req[prev_i].ops++;
            continue;
        }
        uint64_t line = a / TM_LINE;
        unsigned i = 0;
        while (i < n && req[i].line != line) i++;
        if (i == n) req[n++] = (line_req){line, 0, 0};
        req[i].need |= (uint8_t)(1u << (s % (TM_LINE / TM_SECTOR)));
        req[i].ops++;
        prev_s = s;
        prev_i = i;
    }
    return n;
}

void tm_mem_prefetch_access(const tm_mem *m, uint32_t sm, const emu_event *e)
{
    /* as tm_mem_access tells them apart: the L1 (texture cache) looks up a compact event's
     * lines when it names global or local space, or is a texture fetch or surface load */
    if (!(e->flags & EMU_EV_COMPACT) || !(e->mem_lanes & e->mask)) return;
    if (e->cls == EMU_CLS_LD_CONST || e->cls == EMU_CLS_LD_PARAM) return;
    bool tex = e->cls == EMU_CLS_TEX || (e->cls == EMU_CLS_SURF && e->op == PTX_OP_SULD);
    if (!tex && e->space != PTX_SPACE_GLOBAL && e->space != PTX_SPACE_LOCAL) return;
    tm_cache_prefetch_set(tex ? &m->tex[sm] : &m->l1[sm], e->base / TM_LINE);
}

tm_access tm_mem_access(tm_mem *m, uint32_t sm, uint64_t now, const emu_event *e)
{
    const timing_gpu *g = m->gpu;
    timing_stats *sst = m->sm_st ? m->sm_st[sm] : m->st;
    tm_access a = {now + 1, 1};
    uint32_t lanes = e->mem_lanes & e->mask;
    if (!lanes) return a;
    int kind = kind_of(e->cls);
    uint64_t addr_buf[EMU_WARP_SIZE];   /* a compact event's addresses, where a path needs them */
    /* texture fetches and surface loads go through the texture cache; surface stores and
     * reductions as global stores and atomics */
    bool tex = e->cls == EMU_CLS_TEX || (e->cls == EMU_CLS_SURF && e->op == PTX_OP_SULD);
    if (e->cls == EMU_CLS_SURF && !tex) kind = e->op == PTX_OP_SURED ? K_ATOMIC : K_STORE;
    uint32_t shared = 0, global = 0, other = 0;
    /* an instruction that names its space says where every lane goes; generic addresses are
     * looked up lane by lane */
    if (tex || e->space == PTX_SPACE_GLOBAL || e->space == PTX_SPACE_LOCAL) global = lanes;
    else if (e->space == PTX_SPACE_SHARED) shared = lanes;
    else if (e->space == PTX_SPACE_PARAM || e->space == PTX_SPACE_CONST) other = lanes;
    else {
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t off;
            uint8_t sp = emu_address_space(emu_event_lane_addr(e, l), &off);
            if (sp == PTX_SPACE_SHARED) shared |= 1u << l;
            else if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_LOCAL) global |= 1u << l;
            else other |= 1u << l;
        }
    }
    if (e->cls == EMU_CLS_LD_CONST || e->cls == EMU_CLS_LD_PARAM) {
        /* constant and parameter space: one cycle per distinct address */
        other |= global;
        global = 0;
    }
    /* the L1 set of a compact access's first line, asked for before its lines are worked out
     * (a streaming kernel's L1 sets are out of the host's caches) */
    if (global && (e->flags & EMU_EV_COMPACT))
        tm_cache_prefetch_set(tex ? &m->tex[sm] : &m->l1[sm], e->base / TM_LINE);
    uint64_t done = now + 1, pend_inst = 0;
    uint32_t lsu = 0;
    if (shared) {
        uint32_t wf = wavefronts(m, e, shared);
        sst->smem_requests++;
        sst->smem_wavefronts += wf;
        uint32_t wf_cycles = (uint32_t)g->smem_wavefront_cycles;
        done = max64(done, now + (uint64_t)g->smem_latency + (uint64_t)(wf - 1) * wf_cycles);
        lsu += wf * wf_cycles;
    }
    if (other) {
        uint32_t distinct = 1;
        /* commonly every lane reads the first lane's address: one (a compact event of no
         * stride, or no bit differs) */
        if (!(e->flags & EMU_EV_COMPACT) || e->stride || e->half_stride) {
            const uint64_t *addr = emu_event_addrs(e, addr_buf);
            uint64_t a0 = addr[__builtin_ctz(other)], far = 0;
            if (other == UINT32_MAX) {
                far = warp_differs(addr, a0);
            } else {
                for (uint32_t mk = other; mk; mk &= mk - 1) far |= addr[__builtin_ctz(mk)] ^ a0;
            }
            if (far) distinct = 0;
            for (uint32_t mk = far ? other : 0; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                bool seen = false;
                for (uint32_t mk2 = other & ((1u << l) - 1); mk2 && !seen; mk2 &= mk2 - 1)
                    seen = addr[__builtin_ctz(mk2)] == addr[l];
                if (!seen) distinct++;
            }
        }
        done = max64(done, now + (uint64_t)g->l1_latency + distinct - 1);
        lsu += distinct;
    }
    if (global) {
        line_req req[EMU_WARP_SIZE * 2];
        unsigned size = e->size ? e->size : 1;
        unsigned n = (e->flags & EMU_EV_COMPACT) && !(size & (size - 1)) && size <= TM_SECTOR &&
                             !((e->base | (uint64_t)(int64_t)e->stride |
                                (uint64_t)(int64_t)e->half_stride) & (size - 1))
                         ? coalesce_one_sector(e, global, req)
                         : coalesce(emu_event_addrs(e, addr_buf), global, size, req);
        uint32_t pend[EMU_WARP_SIZE * 2], npend = 0;   /* replies waiting for DRAM */
        /* stores and atomics hold the load/store unit until the SM's port has taken their
         * last request (backpressure from the interconnect, L2 and DRAM queues); a load's
         * misses wait in its MSHRs instead */
        uint64_t accepted, last_accept = 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t t = now + i;   /* the coalescer sends a line per cycle */
            tm_cache *l1 = tex ? &m->tex[sm] : &m->l1[sm];
            uint64_t hit_lat = tex ? (uint64_t)g->tex_latency : (uint64_t)g->l1_latency;
            tm_line *L = tm_cache_find(l1, req[i].line, t);
            if (kind == K_STORE) {
                if (L) {
                    L->valid |= req[i].need;
                    sst->l1_write_hits += (uint64_t)sectors_in(req[i].need);
                } else {
                    sst->l1_write_misses += (uint64_t)sectors_in(req[i].need);
                }
                round_trip(m, sm, req[i].line, req[i].need, K_STORE, 0, t, false, &accepted);
                if (accepted > last_accept) last_accept = accepted;
                continue;
            }
            if (kind == K_ATOMIC) {
                if (L) L->valid &= (uint8_t)~req[i].need;   /* the line's copy is stale */
                uint64_t back = round_trip(m, sm, req[i].line, req[i].need, K_ATOMIC, req[i].ops,
                                           t, true, &accepted);
                if (accepted > last_accept) last_accept = accepted;
                if (tm_is_pend(back)) pend[npend++] = (uint32_t)(back & ~TM_PEND);
                else done = max64(done, back);
                continue;
            }
            uint8_t have = L ? (L->valid & req[i].need) : 0;
            uint8_t missing = req[i].need & (uint8_t)~have;
            if (have) {
                if (L->fill > t) sst->l1_mshr_merges += (uint64_t)sectors_in(have);
                else if (tex) sst->tex_hits += (uint64_t)sectors_in(have);
                else sst->l1_hits += (uint64_t)sectors_in(have);
                done = max64(done, t + hit_lat);
                if (tm_is_pend(L->fill)) pend[npend++] = (uint32_t)(L->fill & ~TM_PEND);
                else done = max64(done, L->fill);
            }
            if (!missing) continue;
            if (tex) sst->tex_misses += (uint64_t)sectors_in(missing);
            else sst->l1_misses += (uint64_t)sectors_in(missing);
            /* the issue stage waited for a free MSHR; should the instruction's later lines find
             * every MSHR waiting for DRAM, they take the one freed first anyway (its free time
             * is not known yet: the line is not held back) */
            uint64_t free_at = tm_mem_mshr_next(m, sm);
            uint64_t start = max64(t + hit_lat, free_at == TM_NEVER ? 0 : free_at);
            uint64_t back = round_trip(m, sm, req[i].line, missing, K_LOAD, 0, start, true,
                                       &accepted);
            mshr_take(m, sm, back);
            if (L) {
                L->valid |= missing;
            } else {
                /* (a new line's sectors written, not read back: its way was not in the host's
                 * caches, and the read stalled behind the allocation's stores) */
                L = tm_cache_alloc(l1, req[i].line, t, NULL);
                L->valid = missing;
            }
            if (tm_is_pend(back)) {
                uint32_t wid = (uint32_t)(back & ~TM_PEND);
                m->waits[wid].mshr = true;
                m->waits[wid].tex = tex;
                m->waits[wid].l1_line = (uint32_t)(L - l1->lines);
                /* one fill time per line: the later request's (a merge waits for it) */
                L->fill = back;
                if (npend == 0 || pend[npend - 1] != wid) pend[npend++] = wid;
            } else {
                if (!tm_is_pend(L->fill)) L->fill = max64(L->fill, back);
                done = max64(done, back);
            }
        }
        if (npend == 1 && m->windowed && m->waits[pend[0]].inst == UINT32_MAX) {
            /* its reply's own: no tm_inst (model.h TM_PEND_SELF) */
            assert(m->landed);
            tm_wait *w = &m->waits[pend[0]];
            /* (inst and waiter atomically: a channel's thread may be reading them, land_hint) */
            __atomic_store_n(&w->inst, TM_INST_SELF, __ATOMIC_RELAXED);
            w->done = done;
            __atomic_store_n(&w->waiter, 0, __ATOMIC_RELAXED);
            pend_inst = TM_PEND | TM_PEND_SELF | pend[0];
        } else if (npend) {
            uint32_t id = inst_take(m, sm);
            m->insts[id] = (tm_inst){.done = done, .sm = sm, .left = npend};
            for (uint32_t k = 0; k < npend; k++) {
                tm_wait *w = &m->waits[pend[k]];
                if (w->inst != UINT32_MAX) w->insts = link_new(m, sm, w->inst, w->insts);
                __atomic_store_n(&w->inst, id, __ATOMIC_RELAXED);   /* (land_hint) */
            }
            pend_inst = TM_PEND | id;
        }
        lsu += n ? n : 1;
        if (last_accept > now + lsu) lsu = (uint32_t)(last_accept - now);
    }
    a.done = pend_inst ? pend_inst : done;
    a.lsu_cycles = lsu ? lsu : 1;
    return a;
}

/* ---- for KILO TM's commit units (timing/kilotm/cycles.c), which sit beside the L2 slices */

uint64_t tm_mem_l2_word(tm_mem *m, uint64_t addr, bool write, uint64_t t)
{
    uint64_t line = addr / TM_LINE;
    uint8_t need = (uint8_t)(1u << (addr % TM_LINE / TM_SECTOR));
    uint32_t ch = channel_of(m, line), s = slice_in(m, ch, line);
    uint64_t at_l2, r = l2_access(m, ch, s, line, need, write ? K_STORE : K_LOAD, 1, t, &at_l2);
    if (!tm_is_pend(r)) return r;
    /* the commit unit needs the word's time now: serve DRAM (past any model cycle, as
     * tm_mem_settle does for an instruction) until the line's fill is decided; no L2 access
     * happens meanwhile, so the line stays */
    tm_line *L = tm_cache_peek(&m->l2[s], line);
    while (L && L->fill == r) {
        uint64_t nx = tm_mem_next(m);
        assert(nx != TM_NEVER);
        tm_mem_advance(m, nx);
    }
    assert(L && !tm_is_pend(L->fill));
    return max64(at_l2, L->fill);
}

uint64_t tm_mem_send(tm_mem *m, uint32_t sm, uint64_t bytes, uint64_t t)
{
    uint64_t depart = max64(t, m->sm_out[sm]);
    uint64_t occ = icnt_cycles(m, bytes);
    m->sm_out[sm] = depart + occ;
    m->st->icnt_bytes += bytes;
    return depart + occ + (uint64_t)m->gpu->icnt_latency;
}

