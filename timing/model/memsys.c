/* memsys.c: the memory system of the cycle model.
 *
 * - Coalescing: a warp's global/local access becomes one request per 128-byte line it touches,
 *   each naming the 32-byte sectors it needs; the load/store unit takes a cycle per line.
 * - L1 data cache per SM (sectored, LRU), allocate on read miss, write-through with no write
 *   allocate (a store updates a line that is there); misses take an MSHR (l1_mshrs per SM) and a
 *   miss to a line already on its way merges with it.
 * - Shared memory: smem_banks banks of 4 bytes; lanes reading one word share it (broadcast); a
 *   k-way conflict takes k wavefronts, each a cycle of the load/store unit.
 * - Constant and parameter loads: one cycle per distinct address, at L1 latency (the constant
 *   cache is taken to hit).
 * - Interconnect: one port per SM each way, icnt_bytes_per_cycle wide, icnt_latency deep.
 * - L2: l2_slices slices, l2_slices / dram_channels per channel (address mapping below), each a sectored write-back,
 *   write-allocate cache that takes one request per cycle; atomics are performed there, one
 *   lane operation per cycle.
 * - DRAM: dram_channels channels (256-byte chunks hashed over them) of dram_banks banks with a
 *   row buffer each: a row hit costs tCL, a miss tRP (when a row is open) + tRCD + tCL, then the
 *   channel's data bus carries the sectors at the bandwidth the configuration's bus width and
 *   memory clock give; column commands to an open row pipeline (a bank takes the next one a
 *   burst later); dram_latency covers the controller's pipeline. Requests are served in
 *   the order they reach the channel (first come, first served per bank; the FR-FCFS reordering
 *   of a queue is not modelled yet).
 * Every resource keeps the cycle it is free again; requests come in the model's fixed order,
 * so the outcome does not depend on anything but the program. */
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

bool tm_mem_init(tm_mem *m, const timing_gpu *gpu, uint32_t nsm, timing_stats *st)
{
    memset(m, 0, sizeof *m);
    m->gpu = gpu;
    m->st = st;
    m->nsm = nsm;
    m->l1 = calloc(nsm, sizeof *m->l1);
    m->l1_mshr = calloc((size_t)nsm * (uint32_t)gpu->l1_mshrs, sizeof *m->l1_mshr);
    m->sm_out = calloc(nsm, sizeof *m->sm_out);
    m->sm_in = calloc(nsm, sizeof *m->sm_in);
    m->l2 = calloc((size_t)gpu->l2_slices, sizeof *m->l2);
    m->l2_free = calloc((size_t)gpu->l2_slices, sizeof *m->l2_free);
    m->banks = calloc((size_t)gpu->dram_channels * (uint32_t)gpu->dram_banks, sizeof *m->banks);
    m->bus_free = calloc((size_t)gpu->dram_channels, sizeof *m->bus_free);
    if (!m->l1 || !m->l1_mshr || !m->sm_out || !m->sm_in || !m->l2 || !m->l2_free || !m->banks ||
        !m->bus_free)
        return false;
    for (uint32_t s = 0; s < nsm; s++)
        if (!tm_cache_init(&m->l1[s], gpu->l1_bytes, (uint32_t)gpu->l1_ways)) return false;
    uint64_t slice_bytes = gpu->l2_bytes / (uint64_t)gpu->l2_slices;
    if (slice_bytes < TM_LINE * (uint64_t)gpu->l2_ways) slice_bytes = TM_LINE * (uint64_t)gpu->l2_ways;
    for (int s = 0; s < gpu->l2_slices; s++)
        if (!tm_cache_init(&m->l2[s], slice_bytes, (uint32_t)gpu->l2_ways)) return false;
    /* GDDR moves data on both edges of mem_clock_khz, HBM too (mem_clock_khz is its DDR
     * clock): bytes per model cycle on one channel */
    double bus_bytes = (double)gpu->mem_bus_bits / 8.0 / gpu->dram_channels;
    m->dram_bytes_per_cycle = bus_bytes * 2.0 * gpu->mem_clock_khz / gpu->model_clock_khz;
    return true;
}

void tm_mem_free(tm_mem *m)
{
    if (m->l1)
        for (uint32_t s = 0; s < m->nsm; s++) tm_cache_free(&m->l1[s]);
    if (m->l2)
        for (int s = 0; s < m->gpu->l2_slices; s++) tm_cache_free(&m->l2[s]);
    free(m->l1);
    free(m->l1_mshr);
    free(m->sm_out);
    free(m->sm_in);
    free(m->l2);
    free(m->l2_free);
    free(m->banks);
    free(m->bus_free);
    memset(m, 0, sizeof *m);
}

/* An SM's MSHRs are a binary min-heap of the cycles they free at: the root is the one a miss
 * takes. */
uint64_t tm_mem_mshr_next(const tm_mem *m, uint32_t sm)
{
    return m->l1_mshr[(size_t)sm * (uint32_t)m->gpu->l1_mshrs];
}

/* The root MSHR of SM sm is busy until t: it sinks to its place. */
static void mshr_take(tm_mem *m, uint32_t sm, uint64_t t)
{
    uint64_t *h = &m->l1_mshr[(size_t)sm * (uint32_t)m->gpu->l1_mshrs];
    uint32_t n = (uint32_t)m->gpu->l1_mshrs, i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) c++;
        if (h[c] >= t) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = t;
}

/* Address mapping (as GPGPU-Sim's, `dramid@8`): 256-byte chunks go to DRAM channels by a hash
 * of the chunk number, so that neighbouring chunks spread over the channels; each channel's L2
 * slices (l2_slices / dram_channels of them, slice = channel x that + k) take its lines in
 * turn; within a channel, the chunks it owns follow each other in its address space, so a DRAM
 * row holds neighbouring data and streams hit open rows. */
#define TM_CHUNK 256u

uint32_t tm_mem_channel(const timing_gpu *gpu, uint64_t line)
{
    uint64_t c = line * TM_LINE / TM_CHUNK;
    uint64_t h = c ^ (c >> 5) ^ (c >> 11) ^ (c >> 19);
    return (uint32_t)(h % (uint64_t)gpu->dram_channels);
}

static uint32_t channel_of(const tm_mem *m, uint64_t line)
{
    return tm_mem_channel(m->gpu, line);
}

void tm_mem_flush_l1(tm_mem *m)
{
    for (uint32_t s = 0; s < m->nsm; s++) {
        tm_cache *c = &m->l1[s];
        for (uint64_t i = 0; i < (uint64_t)c->sets * c->ways; i++) c->lines[i] = (tm_line){0};
    }
}

static uint32_t slice_of(const tm_mem *m, uint64_t line)
{
    uint32_t per = (uint32_t)(m->gpu->l2_slices / m->gpu->dram_channels);
    if (!per) per = 1;
    return channel_of(m, line) * per + (uint32_t)(line % per);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* A DRAM access of `sectors` sectors of `line` for L2 slice `slice`, reaching its channel at
 * cycle t; returns the cycle the data is back at L2 (reads) or written (writes). */
static uint64_t dram_access(tm_mem *m, uint32_t slice, uint64_t line, unsigned sectors,
                            bool write, uint64_t t)
{
    const timing_gpu *g = m->gpu;
    (void)slice;
    uint32_t ch = channel_of(m, line);
    /* the line's place among the channel's own: its chunk's number over the channels */
    uint64_t per_chunk = TM_CHUNK / TM_LINE;
    uint64_t local = line / per_chunk / (uint64_t)g->dram_channels * per_chunk + line % per_chunk;
    uint64_t lines_per_row = g->dram_row_bytes / TM_LINE ? g->dram_row_bytes / TM_LINE : 1;
    uint64_t rowg = local / lines_per_row;
    uint32_t bank = (uint32_t)((rowg ^ (rowg >> 4)) % (uint64_t)g->dram_banks);
    uint64_t row = rowg / (uint64_t)g->dram_banks;
    tm_dram_bank *b = &m->banks[(size_t)ch * (uint32_t)g->dram_banks + bank];
    uint64_t start = max64(t, b->free);
    uint64_t lat;
    if (b->open && b->row == row) {
        lat = (uint64_t)g->dram_tcl;
        m->st->dram_row_hits++;
    } else {
        lat = (b->open ? (uint64_t)g->dram_trp : 0) + (uint64_t)g->dram_trcd + (uint64_t)g->dram_tcl;
        m->st->dram_row_misses++;
    }
    uint64_t burst = (uint64_t)((double)(sectors * TM_SECTOR) / m->dram_bytes_per_cycle + 0.999999);
    if (!burst) burst = 1;
    uint64_t bus = max64(start + lat, m->bus_free[ch]);
    m->bus_free[ch] = bus + burst;
    /* column commands to an open row pipeline: the bank takes the next one a burst after this
     * one issued (bus - tCL), its CAS latency overlapping the next's */
    b->free = bus - (uint64_t)g->dram_tcl + burst;
    if (b->free < start) b->free = start;
    b->open = true;
    b->row = row;
    if (write) m->st->dram_writes += sectors;
    else m->st->dram_reads += sectors;
    return bus + burst + (uint64_t)g->dram_latency;
}

enum { K_LOAD, K_STORE, K_ATOMIC };

/* The L2 side of one line request arriving at cycle t: returns when its reply leaves L2. */
static uint64_t l2_access(tm_mem *m, uint64_t line, uint8_t need, int kind, unsigned ops,
                          uint64_t t)
{
    const timing_gpu *g = m->gpu;
    uint32_t s = slice_of(m, line);
    uint64_t start = max64(t, m->l2_free[s]);
    m->l2_free[s] = start + 1 + (kind == K_ATOMIC ? ops : 0);
    uint64_t ready = start + (uint64_t)g->l2_latency;
    tm_line *L = tm_cache_find(&m->l2[s], line, start);
    if (!L) {
        tm_line victim;
        L = tm_cache_alloc(&m->l2[s], line, start, &victim);
        if (victim.tag && victim.dirty)
            dram_access(m, s, victim.tag - 1, (unsigned)__builtin_popcount(victim.dirty), true,
                        start);
    }
    if (kind == K_STORE) {
        /* write-allocate without a fetch: the written sectors become valid and dirty */
        L->valid |= need;
        L->dirty |= need;
        return ready;
    }
    uint8_t missing = need & (uint8_t)~L->valid;
    m->st->l2_hits += (uint64_t)__builtin_popcount(need & L->valid);
    m->st->l2_misses += (uint64_t)__builtin_popcount(missing);
    if (missing) {
        uint64_t back = dram_access(m, s, line, (unsigned)__builtin_popcount(missing), false,
                                    ready);
        L->valid |= missing;
        L->fill = back;
    }
    ready = max64(ready, L->fill);
    if (kind == K_ATOMIC) {
        ready += ops;
        L->dirty |= need;
        m->st->l2_atomics += ops;
    }
    return ready;
}

/* A request from SM sm leaving at cycle now: over the interconnect, L2, and back. */
static uint64_t round_trip(tm_mem *m, uint32_t sm, uint64_t line, uint8_t need, int kind,
                           unsigned ops, uint64_t now, bool wait_reply)
{
    const timing_gpu *g = m->gpu;
    uint64_t bpc = (uint64_t)g->icnt_bytes_per_cycle;
    unsigned data = (unsigned)__builtin_popcount(need) * TM_SECTOR;
    uint64_t req = 8 + (kind == K_LOAD ? 0 : data), resp = kind == K_STORE ? 8 : 8 + data;
    uint64_t depart = max64(now, m->sm_out[sm]);
    uint64_t occ = ceil_div(req, bpc);
    m->sm_out[sm] = depart + occ;
    uint64_t at_l2 = l2_access(m, line, need, kind, ops, depart + occ + (uint64_t)g->icnt_latency);
    m->st->icnt_bytes += req;
    if (!wait_reply) return now + 1;
    uint64_t back = max64(at_l2, m->sm_in[sm]);
    uint64_t occ2 = ceil_div(resp, bpc);
    m->sm_in[sm] = back + occ2;
    m->st->icnt_bytes += resp;
    return back + occ2 + (uint64_t)g->icnt_latency;
}

/* The wavefronts a shared access of `lanes` takes: the most distinct words in one bank (lanes
 * reading one word share it). */
static uint32_t wavefronts(const tm_mem *m, const emu_event *e, uint32_t lanes)
{
    uint64_t words[64][8];                   /* the first distinct words of each bank */
    uint64_t off[EMU_WARP_SIZE];             /* each lane's offset in shared memory */
    uint32_t per_bank[64] = {0}, most = 1;
    uint32_t banks = (uint32_t)m->gpu->smem_banks;
    unsigned size = e->size ? e->size : 1;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_address_space(e->addr[l], &off[l]);
    }
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

tm_access tm_mem_access(tm_mem *m, uint32_t sm, uint64_t now, const emu_event *e)
{
    const timing_gpu *g = m->gpu;
    tm_access a = {now + 1, 1};
    uint32_t lanes = e->mem_lanes & e->mask;
    if (!lanes) return a;
    int kind = kind_of(e->cls);
    uint32_t shared = 0, global = 0, other = 0;
    /* an instruction that names its space says where every lane goes; generic addresses are
     * looked up lane by lane */
    if (e->space == PTX_SPACE_GLOBAL || e->space == PTX_SPACE_LOCAL) global = lanes;
    else if (e->space == PTX_SPACE_SHARED) shared = lanes;
    else if (e->space == PTX_SPACE_PARAM || e->space == PTX_SPACE_CONST) other = lanes;
    else {
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t off;
            uint8_t sp = emu_address_space(e->addr[l], &off);
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
    uint64_t done = now + 1;
    uint32_t lsu = 0;
    if (shared) {
        uint32_t wf = wavefronts(m, e, shared);
        m->st->smem_requests++;
        m->st->smem_wavefronts += wf;
        done = max64(done, now + (uint64_t)g->smem_latency + wf - 1);
        lsu += wf;
    }
    if (other) {
        uint32_t distinct = 0;
        for (uint32_t mk = other; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            bool seen = false;
            for (uint32_t mk2 = other & ((1u << l) - 1); mk2 && !seen; mk2 &= mk2 - 1)
                seen = e->addr[__builtin_ctz(mk2)] == e->addr[l];
            if (!seen) distinct++;
        }
        done = max64(done, now + (uint64_t)g->l1_latency + distinct - 1);
        lsu += distinct;
    }
    if (global) {
        line_req req[EMU_WARP_SIZE * 2];
        unsigned n = 0, size = e->size ? e->size : 1;
        for (uint32_t mk = global; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t first = e->addr[l], last = e->addr[l] + size - 1;
            for (uint64_t s = first / TM_SECTOR; s <= last / TM_SECTOR; s++) {
                uint64_t line = s * TM_SECTOR / TM_LINE;
                unsigned i = 0;
                while (i < n && req[i].line != line) i++;
                if (i == n) {
                    if (n == sizeof req / sizeof *req) break;
                    req[n++] = (line_req){line, 0, 0};
                }
                req[i].need |= (uint8_t)(1u << (s % (TM_LINE / TM_SECTOR)));
                if (s == first / TM_SECTOR) req[i].ops++;
            }
        }
        for (unsigned i = 0; i < n; i++) {
            uint64_t t = now + i;   /* the coalescer sends a line per cycle */
            tm_cache *l1 = &m->l1[sm];
            tm_line *L = tm_cache_find(l1, req[i].line, t);
            if (kind == K_STORE) {
                if (L) L->valid |= req[i].need;
                round_trip(m, sm, req[i].line, req[i].need, K_STORE, 0, t, false);
                continue;
            }
            if (kind == K_ATOMIC) {
                if (L) L->valid &= (uint8_t)~req[i].need;   /* the line's copy is stale */
                done = max64(done, round_trip(m, sm, req[i].line, req[i].need, K_ATOMIC,
                                              req[i].ops, t, true));
                continue;
            }
            uint8_t have = L ? (L->valid & req[i].need) : 0;
            uint8_t missing = req[i].need & (uint8_t)~have;
            if (have) {
                if (L->fill > t) m->st->l1_mshr_merges += (uint64_t)__builtin_popcount(have);
                else m->st->l1_hits += (uint64_t)__builtin_popcount(have);
                done = max64(done, max64(L->fill, t + (uint64_t)g->l1_latency));
            }
            if (!missing) continue;
            m->st->l1_misses += (uint64_t)__builtin_popcount(missing);
            uint64_t start = max64(t + (uint64_t)g->l1_latency, tm_mem_mshr_next(m, sm));
            uint64_t back = round_trip(m, sm, req[i].line, missing, K_LOAD, 0, start, true);
            mshr_take(m, sm, back);
            if (!L) {
                tm_line victim;
                L = tm_cache_alloc(l1, req[i].line, t, &victim);
            }
            L->valid |= missing;
            L->fill = max64(L->fill, back);
            done = max64(done, back);
        }
        lsu += n ? n : 1;
    }
    a.done = done;
    a.lsu_cycles = lsu ? lsu : 1;
    return a;
}

/* ---- for KILO TM's commit units (timing/kilotm/cycles.c), which sit beside the L2 slices */

uint64_t tm_mem_l2_word(tm_mem *m, uint64_t addr, bool write, uint64_t t)
{
    uint64_t line = addr / TM_LINE;
    uint8_t need = (uint8_t)(1u << (addr % TM_LINE / TM_SECTOR));
    return l2_access(m, line, need, write ? K_STORE : K_LOAD, 1, t);
}

uint64_t tm_mem_send(tm_mem *m, uint32_t sm, uint64_t bytes, uint64_t t)
{
    uint64_t depart = max64(t, m->sm_out[sm]);
    uint64_t occ = ceil_div(bytes, (uint64_t)m->gpu->icnt_bytes_per_cycle);
    m->sm_out[sm] = depart + occ;
    m->st->icnt_bytes += bytes;
    return depart + occ + (uint64_t)m->gpu->icnt_latency;
}

