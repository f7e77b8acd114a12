/* model.h: the cycle model's parts (timing/model/README.md has the design): the memory system
 * (memsys.c: coalescing, L1, shared memory banks, the constant path, interconnect, L2 slices,
 * DRAM channels), tag arrays (cache.c), the SMs' issue logic (sm.c: schedulers, scoreboard,
 * functional units) and the kernel loop (run.c: CTAs on SMs, cycles, statistics).
 *
 * Every resource is a "free at" time: a request that finds it busy waits until then, and
 * occupies it for as long as it needs. Requests are made in one fixed order (cycle, SM,
 * scheduler, warp), so every time and every counter is the same on every run. */
#ifndef PTXSIM_TIMING_MODEL_MODEL_H
#define PTXSIM_TIMING_MODEL_MODEL_H

#include "timing/engine/engine_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TM_NEVER UINT64_MAX
#define TM_LINE 128u      /* cache line bytes */
#define TM_SECTOR 32u     /* sector bytes: the unit of transfer */

/* ---------------------------------------------------------------- kept.c */

/* The memory system's blocks kept from kernel to kernel, one of each kind. */
typedef enum tm_kept_kind {
    TM_KEPT_L1, TM_KEPT_L2,          /* tag arrays (tm_cache_init_kept) */
    TM_KEPT_MSHR, TM_KEPT_PEND,      /* tm_mem's l1_mshr, mshr_pend */
    TM_KEPT_DREQS, TM_KEPT_WAITS, TM_KEPT_INSTS, TM_KEPT_LINKS,   /* record pools */
    TM_KEPT_KINDS
} tm_kept_kind;
/* The block kept of `kind` when it has at least `bytes` (*have: its bytes; contents
 * unspecified, freed with free() or given back), else NULL (*have 0; a smaller one is freed). */
void *tm_kept_take(tm_kept_kind kind, size_t bytes, size_t *have);
/* Block p (from malloc, calloc, realloc or aligned_alloc; `bytes` of it usable) kept for the
 * next kernel; the smaller of it and the block kept is freed. */
void tm_kept_give(tm_kept_kind kind, void *p, size_t bytes);

/* ---------------------------------------------------------------- cache.c: tag arrays */

typedef struct tm_line {
    uint64_t fill;        /* cycle its last requested sectors arrive */
    uint64_t tag;         /* its line address + 1 (0: the way is empty); cache.c's */
    uint8_t valid, dirty; /* sector masks (4 sectors) */
} tm_line;

/* What an allocation evicted: its line address + 1 (0: the way was empty) and dirty sectors. */
typedef struct tm_evicted {
    uint64_t tag;
    uint8_t dirty;
} tm_evicted;

typedef struct tm_cache {
    tm_line *lines;       /* sets * ways */
    /* per set, `stride` bytes (cache.c): its ways' 16-bit tag fingerprints (0: empty), then
     * their last uses (LRU) as 32 bits while every use so far fits (else in `wide`) */
    uint8_t *meta;
    void *block;          /* the allocation it owns (lines and meta: its own, or those of the
                             caches made with it, tm_cache_init_n), or NULL */
    size_t block_bytes;   /* its bytes */
    uint64_t *wide;       /* sets * ways last uses, once one did not fit 32 bits (else NULL) */
    uint64_t narrow_end;      /* 2^32 while the uses are in meta, else 0 */
    uint32_t sets, ways;
    uint32_t set_mask;        /* sets - 1 where sets is a power of two (a mask for the modulo) */
    uint32_t stride, uses_at; /* bytes per set; where its uses start */
    bool pow2;
} tm_cache;

bool tm_cache_init(tm_cache *c, uint64_t bytes, uint32_t ways);
/* tm_cache_init of c[0..n), their arrays in one allocation (c[0]'s; tm_cache_free each) */
bool tm_cache_init_n(tm_cache *c, uint32_t n, uint64_t bytes, uint32_t ways);
void tm_cache_free(tm_cache *c);
/* tm_cache_init_n in the block kept of `kind` (kept.c) where it is large enough, zeroed here;
 * tm_cache_free_kept frees c[0..n) and keeps their block for the next kernel */
bool tm_cache_init_kept(tm_cache *c, uint32_t n, uint64_t bytes, uint32_t ways, tm_kept_kind kind);
void tm_cache_free_kept(tm_cache *c, uint32_t n, tm_kept_kind kind);
/* Part `part` of `parts` of the arrays of c[0..n) (tm_cache_init_n's) faulted in for writing,
 * their contents unchanged (run.c place_first) */
void tm_cache_touch_n(tm_cache *c, uint32_t n, uint32_t part, uint32_t parts);
void tm_cache_clear(tm_cache *c);   /* every line invalid */
/* The line holding line address `line`, or NULL. */
tm_line *tm_cache_find(tm_cache *c, uint64_t line, uint64_t now);
/* A line for `line`, evicting the least recently used of its set into *victim (NULL: not
 * wanted, and the evicted line is not read: an L1 writes nothing back). */
tm_line *tm_cache_alloc(tm_cache *c, uint64_t line, uint64_t now, tm_evicted *victim);
/* The line holding `line`, or NULL, without touching its LRU age (a fill landing). */
tm_line *tm_cache_peek(tm_cache *c, uint64_t line);
/* Asks the host's caches for the set holding `line`: its fingerprints and uses, and its lines
 * (tm_line: the one a lookup finds or an allocation takes soon after). Changes nothing, and
 * reads nothing that a lookup or an allocation changes. */
void tm_cache_prefetch_set(const tm_cache *c, uint64_t line);

/* ---------------------------------------------------------------- memsys.c */

typedef struct tm_dram_bank { uint64_t free, row; bool open; } tm_dram_bank;

/* Completion times decided later (deferred completion): a time at or above TM_PEND (and not
 * TM_NEVER) is "pending on record id" (TM_PEND | id). An L2 line's fill names the DRAM request
 * bringing it, an L1 line's fill and an MSHR the reply it waits for, a scoreboard entry the
 * memory instruction (or, TM_PEND | TM_PEND_SELF | id, the one reply it waits for). They are replaced by the real time when the DRAM scheduler serves the
 * request (tm_mem_advance). */
#define TM_PEND (UINT64_C(1) << 62)
static inline bool tm_is_pend(uint64_t t) { return t >= TM_PEND && t != UINT64_MAX; }

/* A DRAM request waiting in its channel's queue. */
typedef struct tm_dreq {
    uint64_t arrive, seq;     /* reaches the controller at; order of arrival among equals */
    uint64_t line, row;
    uint32_t bank, ch, slice;
    uint32_t waits;           /* reads: head of the replies waiting for its data (UINT32_MAX) */
    uint16_t sectors;
    bool write;
    uint32_t next_free;
    /* reads: its L2 line's place in its slice (`lines`), whose fill waits on it while that is
     * TM_PEND | its id (only this request's allocation of the line is): found without a
     * lookup */
    uint32_t l2_line;
} tm_dreq;

/* A line request's reply to SM sm, waiting for an L2 fill from DRAM. */
typedef struct tm_wait {
    _Alignas(64) uint64_t at_l2;   /* L2 would have answered at (without the fill) */
    /* its own instruction's (inst TM_INST_SELF): completes at the latest of this and the
     * reply's landing */
    uint64_t done;
    uint32_t sm;
    uint16_t ops, resp;       /* atomic lane operations after the fill; reply bytes */
    uint32_t next;            /* next reply on the same DRAM request (free: the next free) */
    /* the instructions waiting for it: the last one (UINT32_MAX: none), then those before it
     * from the head of a list of links (UINT32_MAX: none), the latest first; most replies have
     * one, and its landing reads no link. TM_INST_SELF: the instruction that waits for this
     * reply alone and came first, whose record is this one (done, waiter) */
    uint32_t inst, insts;
    uint32_t mshr_at;         /* 1 + its place in its SM's mshr_pend while it holds an MSHR */
    uint32_t waiter;          /* its own instruction's, as tm_inst's */
    bool mshr;                /* took an MSHR of its SM */
    bool tex;                 /* fills the texture cache (else L1) */
    /* a load's L1 (texture cache) line's place (`lines`), whose fill it is while that is
     * TM_PEND | its id (UINT32_MAX: it fills none) */
    uint32_t l1_line;
} tm_wait;
_Static_assert(sizeof(tm_wait) == 64, "tm_wait: one host line");

/* A memory instruction whose completion waits for `left` replies. */
typedef struct tm_inst {
    uint64_t done;
    uint32_t sm, left;
    uint32_t waiter;          /* 1 + the SM's warp slot whose scoreboard holds it (0: unknown) */
    bool held, settled;       /* tm_mem_settle waits for it */
    uint32_t next_free;
} tm_inst;

typedef struct tm_link { uint32_t inst, next; } tm_link;

/* The windowed model's common memory instruction waits for one reply, and is the first to wait
 * for it: it has no tm_inst, its pending time is TM_PEND | TM_PEND_SELF | the reply's id, and
 * the reply's record keeps what tm_inst would (memsys.c tm_mem_access). A tm_inst record and
 * its free list's link were a host cache miss each at the issue and the landing. */
#define TM_PEND_SELF (UINT64_C(1) << 61)
#define TM_INST_SELF (UINT32_MAX - 1)

/* Windowed model: a line request that left SM's port, waiting in the SM's outbox for the
 * weave (tm_mem_weave) to take it through L2 in (depart, SM, order) order. */
typedef struct tm_outreq {
    uint64_t depart, line;
    uint32_t wait;            /* its reply's record (UINT32_MAX: a store, no reply) */
    uint32_t ops, occ, trip;  /* atomic lane operations; port cycles; port to L2 */
    uint8_t need, kind;
    uint16_t ch, slice;       /* the line's DRAM channel and L2 slice (known at its issue) */
} tm_outreq;

/* Windowed model, the memory weave by DRAM channel (tm_mem_weave_begin/_channels/_end): a
 * reply a channel's scheduler decided, landing at t on SM sm (`at`: the decision's cycle, its
 * order among the channels' decisions; sm kept here so that the weave's serial order of the
 * landings reads no reply record, each last touched on a channel's host thread). */
typedef struct tm_land {
    uint64_t at, t;
    uint32_t wid, sm;
    /* what its landing will touch, as the channel's thread read it in the reply (memsys.c
     * land_hint; for prefetching a step ahead, when the record is no longer the weave's to
     * read): its L1 line (TM_LAND_TEX | the texture cache's; UINT32_MAX: none known) and its
     * own instruction's warp (0: none known) */
    uint32_t l1, waiter;
} tm_land;
#define TM_LAND_TEX (UINT32_C(1) << 31)

/* A request of the window in (depart, SM, order) order: its outbox place, and what serving it
 * left for the SM side (its reply landing at t; the SM's port held until `port`, 0: not). */
typedef struct tm_order { uint64_t port, t; uint32_t sm, idx, wid; } tm_order;

/* An item of the weave's merges: an SM's (a channel's) next key. */
typedef struct tm_heap_item { uint64_t key; uint32_t ix; } tm_heap_item;

/* What one DRAM channel (with its L2 slices) owns in the memory weave: the window's requests
 * for it (indexes into the order), the replies its scheduler decided, its own free DRAM
 * request records (filled before the channels run), its sequence of arrivals, and its
 * counters while it runs apart. */
typedef struct tm_chan {
    uint32_t *reqs, nreq, capreq;
    tm_land *land;
    uint32_t nland, capland, landpos;
    uint32_t freedreq, nfreedreq;
    uint64_t seq;
    timing_stats st;
} tm_chan;

/* A request in its bank's queue: its id, with the arrival, row and order the channel's
 * scheduler compares kept beside it (a decision walks the queue for a row hit and orders the
 * banks' oldest requests; reading each request's record there was a cache miss per request).
 * seq: the low 32 bits of its record's seq, compared as a difference (two requests queued at
 * once are fewer than 2^31 arrivals apart: dq_serve asserts it), in the entry's padding. */
typedef struct tm_dqent { uint64_t arrive, row; uint32_t id, seq; } tm_dqent;
_Static_assert(sizeof(tm_dqent) == 24, "tm_dqent: the order in the padding");

/* A bank's requests in its channel's scheduler queue, in order of arrival: n from ents, which
 * lies in buf (cap entries; the oldest leaves by moving ents, not the rest). */
typedef struct tm_dqueue { tm_dqent *ents, *buf; uint32_t n, cap; } tm_dqueue;

/* A node of a channel's banks' tournament (memsys.c): the bank that wins there and when it can
 * take its oldest request (TM_NEVER: none queued), and that request's id (UINT32_MAX: none;
 * the next decision's likely request, asked for without reading the bank's queue). */
typedef struct tm_bnode { uint64_t next; uint32_t bank, id; } tm_bnode;

/* Called when a deferred completion is decided: SM sm's scoreboard entries holding `tag`
 * (0: none; an MSHR freed) land at t. */
typedef void tm_landed_fn(void *ctx, uint32_t sm, uint64_t tag, uint64_t t);
/* Called a little before landings that `landed` will be called for: SM sm's warp slot
 * waiter - 1 (tm_mem_waiter's) is about to be looked at (the model asks for its lines). */
typedef void tm_soon_fn(void *ctx, uint32_t sm, uint32_t waiter);

typedef struct tm_mem {
    const timing_gpu *gpu;
    timing_stats *st;
    uint32_t nsm;
    tm_cache *l1;             /* per SM */
    tm_cache *tex;            /* per SM: texture cache (tex, tld4, suld) */
    /* per SM, l1_mshrs MSHRs: the known free times in l1_mshr (a ring of mshr_cap entries per
     * SM, l1_mshrs up to a power of two: mshrs[sm].known times in order from mshrs[sm].head),
     * the rest wait for DRAM: their replies' ids in mshr_pend (memsys.c mshr_take) */
    uint64_t *l1_mshr;
    struct tm_mshrs { uint32_t known, head; } *mshrs;
    uint32_t mshr_cap;
    uint32_t *mshr_pend;
    uint64_t *sm_out, *sm_in; /* interconnect ports per SM: free at */
    tm_cache *l2;             /* per slice */
    uint64_t *l2_free;        /* per slice: tag pipeline free at */
    /* per slice, its input queue (l2_queue entries): when each of the last l2_queue requests
     * left it for the tag pipeline, a ring from l2_qpos (a request enters when the one
     * l2_queue places ahead of it has left) */
    uint64_t *l2_qleft;
    uint32_t *l2_qpos;
    tm_dram_bank *banks;      /* channel * banks */
    uint64_t *bus_free;       /* per channel: data bus free at */
    double dram_bytes_per_cycle;   /* per channel, in model cycles */
    /* what each request would otherwise divide for, worked out once (memsys.c tm_mem_init):
     * the data bus's and a port's cycles by sectors (0 to 8: a mask's), the slices per channel,
     * and a shift where the configuration's count is a power of two (else -1) */
    uint64_t burst[9];
    uint32_t icnt_occ[9];
    uint32_t slices_per_ch;
    uint64_t lines_per_row;
    int8_t ch_shift, slice_shift, row_shift, bank_shift;
    bool fcfs;                /* dram_scheduler = fcfs (else FR-FCFS) */
    tm_dqueue *dq;            /* per channel * bank */
    uint64_t *ch_next;        /* per channel: the earliest cycle it decides (TM_NEVER: none) */
    uint64_t next_min;        /* the least of ch_next (checked every model cycle) */
    /* Backpressure: per channel, when its queued requests would be through at the bus's rate
     * (a lower bound); a slice sends a request to DRAM only while that is within
     * `dram_room` cycles (the L2-to-DRAM and scheduler queues' entries, a line each) */
    uint64_t *ch_end;
    /* per channel: the bank whose oldest request goes next (at ch_next): the root of bwin */
    uint32_t *ch_bank;
    /* per channel, while the weave begins: the request of its second decision in the window
     * (UINT32_MAX: none due), as the tournament stands (a prefetch's guess, memsys.c) */
    uint32_t *ch_req2;
    /* per channel, a tournament over its banks (memsys.c), 2 * tleaves nodes: node i's
     * children 2i and 2i + 1, the root 1, bank b's leaf tleaves + b (tleaves: dram_banks up to
     * a power of two, the rest empty): a decision, a bank's new oldest request or its new free
     * time replays one path, not every bank */
    tm_bnode *bnode;
    uint32_t tleaves;
    uint64_t dram_room;       /* 0: unbounded (dram_sched_queue = 0) */
    uint64_t dseq;
    /* record pools (index = id; free lists through next_free) */
    tm_dreq *dreqs; uint32_t ndreq, capdreq;   /* (free: each channel's, tm_chan) */
    tm_wait *waits; uint32_t nwait, capwait, freewait;
    void *waits_block;        /* the allocation waits lies in (memsys.c waits_room) */
    tm_inst *insts; uint32_t ninst, capinst, freeinst;
    tm_link *links; uint32_t nlink, caplink, freelink;
    bool oom;
    /* windowed: line requests wait per SM in `outbox` (from outpos) for tm_mem_weave; the SM
     * side (L1, texture cache, MSHRs, sm_out) belongs to the SM, the rest to the weave */
    bool windowed;
    /* The reply, instruction and link records an SM takes at issue come from its own free
     * lists (ids stay the same whatever host thread runs it); tm_mem_reserve fills them between
     * windows, records are freed into their SM's list in the weave. `in_bound`: SMs are running
     * (only their own lists may be used). */
    uint32_t *sm_freewait, *sm_freeinst, *sm_freelink;
    uint32_t *sm_nfreewait, *sm_nfreeinst, *sm_nfreelink;
    uint32_t *sm_tail;        /* each list's last record (memsys.c) */
    /* each list's block of fresh records (indexed as sm_tail; memsys.c): ids [lo, hi) never
     * used, their memory untouched until taken, and the list below the block */
    struct tm_fresh { uint32_t lo, hi, below; } *sm_fresh;
    bool in_bound;
    /* per SM: where the SM side counts (NULL: st) */
    timing_stats **sm_st;
    tm_outreq **outbox;
    uint32_t *nout, *capout, *outpos;
    tm_landed_fn *landed;
    tm_soon_fn *landing_soon;   /* (NULL: none; landed_ctx) */
    void *landed_ctx;
    /* the memory weave by channel: per channel (tm_chan), the window's requests in order
     * (`order`), and `par` while the channels run (each touches only its own DRAM queues, banks,
     * L2 slices and records; what reaches an SM waits for tm_mem_weave_end) */
    tm_chan *chan;
    tm_order *order;
    uint32_t norder, caporder;
    bool par;
    /* per SM: its replies of the window, in the order one thread lands them (tm_mem_weave_end,
     * then tm_mem_weave_land on the SM's host thread) */
    tm_land **sm_land;
    uint32_t *sm_nland, *sm_capland;
    tm_heap_item *heap;       /* the weave's merges (memsys.c), max(SMs, channels) items */
    uint32_t *weave_sms;      /* the weave's order by counting (memsys.c): SMs, nsm */
} tm_mem;

bool tm_mem_init(tm_mem *m, const timing_gpu *gpu, uint32_t nsm, timing_stats *st);
void tm_mem_free(tm_mem *m);
/* The DRAM channel (memory partition) that owns line address `line` (addr / 128). */
uint32_t tm_mem_channel(const timing_gpu *gpu, uint64_t line);
/* The bank and row of line address `line` in its DRAM channel. */
void tm_mem_dram_place(const timing_gpu *gpu, uint64_t line, uint32_t *bank, uint64_t *row);
/* Invalidates every line of every SM's L1 (GPUDet flushes them after each commit). */
void tm_mem_flush_l1(tm_mem *m);
/* The cycle SM sm's first MSHR is free. (Inline: the issue stage asks it for every memory
 * instruction it looks at.) The head of the SM's known free times is the one a miss takes. */
static inline uint64_t tm_mem_mshr_next(const tm_mem *m, uint32_t sm)
{
    /* none known: all wait for DRAM, known when one is served */
    struct tm_mshrs q = m->mshrs[sm];
    return q.known ? m->l1_mshr[(size_t)sm * m->mshr_cap + q.head] : TM_NEVER;
}

/* The warp slot (1 + slot; 0: unknown) whose scoreboard holds pending time `tag`
 * (tm_mem_access's), set after its issue and read at its landing. */
static inline uint32_t *tm_mem_waiter(tm_mem *m, uint64_t tag)
{
    uint32_t id = (uint32_t)tag;
    return tag & TM_PEND_SELF ? &m->waits[id].waiter : &m->insts[id].waiter;
}

/* What a memory instruction costs: when its results are back, and how many cycles it holds
 * the SM's load/store unit (replays: one per extra line, sector group or bank wavefront). */
typedef struct tm_access {
    uint64_t done;
    uint32_t lsu_cycles;
} tm_access;

/* Times the memory instruction of event e, issued by SM sm at cycle now. Its `done` may be
 * pending (tm_is_pend) until the DRAM requests it waits for are served. */
tm_access tm_mem_access(tm_mem *m, uint32_t sm, uint64_t now, const emu_event *e);
/* Asks the host's caches for the L1 (texture cache) set of memory event e's first line, where
 * tm_mem_access will look it up (a compact global or local access): the SM side calls it when
 * it first reads the event and the access must wait, cycles before its issue. Changes nothing
 * (reads only the event and the cache's shape). */
void tm_mem_prefetch_access(const tm_mem *m, uint32_t sm, const emu_event *e);
/* Serves every DRAM request the channels' schedulers decide at or before cycle now, in time
 * order (then channel), landing what waited for them (the `landed` callback). */
void tm_mem_advance(tm_mem *m, uint64_t now);
/* The earliest cycle a channel's scheduler decides something (TM_NEVER: nothing queued). */
uint64_t tm_mem_next(const tm_mem *m);
/* Windowed model: takes every outbox request that left its SM before cycle `end` through L2
 * (and into the DRAM queues) in (depart, SM, order) order, after the channels' decisions before
 * `end`. Every reply lands at `end` or later. */
void tm_mem_weave(tm_mem *m, uint64_t end);
/* tm_mem_weave in four steps, the second and fourth on several host threads with the same
 * result: _begin (one thread) puts the window's requests in order and hands each channel its
 * own; _channels serves channels [lo, hi) (the decisions before `end`, then their requests),
 * and threads may run disjoint ranges at once; _end (one thread) puts the replies in the order
 * one thread would land them (the decisions by cycle then channel, then the requests'), per SM;
 * _land lands SMs [lo, hi)'s (disjoint ranges at once) and drops the requests taken from their
 * outboxes (every SM's, landings or not, before the next window). _begin returns a measure of
 * the work (0: none), _end the replies to land. */
uint32_t tm_mem_weave_begin(tm_mem *m, uint64_t end);
/* The DRAM decisions _channels makes first, earlier: after _open, channels [lo, hi) decide up
 * to `end` (their replies recorded for _end). They touch only the channels, so they may run on
 * other host threads while the weave's functional runs go on. */
void tm_mem_weave_open(tm_mem *m);
void tm_mem_weave_decide(tm_mem *m, uint32_t lo, uint32_t hi, uint64_t end);
void tm_mem_weave_channels(tm_mem *m, uint32_t lo, uint32_t hi, uint64_t end);
uint32_t tm_mem_weave_end(tm_mem *m);
void tm_mem_weave_land(tm_mem *m, uint32_t lo, uint32_t hi);
/* The channels' counts of the weaves so far (L2 and DRAM, kept per channel while they run apart)
 * into the model's statistics: once, at the kernel's end (each window's would read every
 * channel's counts, half of them last written on another host thread). */
void tm_mem_weave_stats(tm_mem *m);
/* Windowed model: fills every SM's free lists (but those of the SMs s with skip[s], when skip
 * is not NULL) to at least `per_sm` reply and link records and per_sm / 64 + 1 instruction
 * records (one window's issue at most), in SM order. */
void tm_mem_reserve(tm_mem *m, uint32_t per_sm, const bool *skip);
/* Whether tm_mem_reserve(m, per_sm, ...) would add nothing to SM sm's lists (read only: the
 * SM's own, so its host thread may ask while other SMs' lists change). */
bool tm_mem_reserved(const tm_mem *m, uint32_t sm, uint32_t per_sm);
/* Windowed model: makes SM sm's free lists hold at least `replies` reply and link records and
 * `insts` instruction records, adding new ones behind those there (the weave's issue on several
 * host threads takes only those). */
void tm_mem_reserve_weave(tm_mem *m, uint32_t sm, uint32_t replies, uint32_t insts);
/* Whether tm_mem_reserve_weave(m, sm, replies, insts) would add nothing (SM sm's lists are
 * read only: its issue, which takes from them, has not begun). */
bool tm_mem_weave_has(const tm_mem *m, uint32_t sm, uint32_t replies, uint32_t insts);
/* Windowed model: whether requests wait in an outbox or in a DRAM queue. */
bool tm_mem_busy(const tm_mem *m);
/* The time of t once decided: serves DRAM requests (past any model cycle) until it is. Without
 * a `landed` callback every pending time an access returned must be settled once. */
uint64_t tm_mem_settle(tm_mem *m, uint64_t t);

/* For KILO TM's commit units (timing/kilotm/cycles.c), one per memory partition beside its L2:
 * a word read or written at the word's L2 slice from cycle t (when its data is there); a
 * message of `bytes` from SM sm to a partition leaving at t over the SM's interconnect port
 * (when it arrives). */
uint64_t tm_mem_l2_word(tm_mem *m, uint64_t addr, bool write, uint64_t t);
uint64_t tm_mem_send(tm_mem *m, uint32_t sm, uint64_t bytes, uint64_t t);

/* ---------------------------------------------------------------- sm.c */

/* Functional-unit groups of a scheduler. */
typedef enum tm_unit { TM_U_INT, TM_U_IMUL, TM_U_FP32, TM_U_FP64, TM_U_SFU, TM_U_TENSOR,
                       TM_U_LSU, TM_U_COUNT } tm_unit;

tm_unit tm_unit_of(uint8_t cls);
bool tm_is_memory(uint8_t cls);

#define TM_SB_ENTRIES 32
/* Warp instructions a warp runs ahead of the model at most (below the emulator's event ring of
 * 64, so a run's events arrive in one call of the sink). */
#define TM_RUN_AHEAD 32
/* The windowed model's SM-local runs (emu_warp_run_local) go further: each run brings the
 * warp's state back into the host's caches, and what such a run does depends on nothing other
 * CTAs do (timing/model/README.md, "Bound phase") */
#define TM_RUN_LOCAL 63
_Static_assert(TM_RUN_AHEAD < EMU_EVENT_RING, "a run's events arrive in one call of the sink");
_Static_assert(TM_RUN_LOCAL < EMU_EVENT_RING, "a run's events arrive in one call of the sink");

typedef struct tm_trace_warp tm_trace_warp;

typedef struct tm_warp {
    /* What can_issue reads of a warp comes first: its state and event position in the first
     * cache line, its peeked instruction and its first scoreboard entries in the second (each
     * look at a warp that waited a while misses the host's caches line by line). */
    _Alignas(64) bool occupied;   /* false: the slot is empty */
    bool done;
    bool at_barrier;          /* replay: arrived at a CTA barrier, not released yet */
    /* its next instruction as emu_warp_peek gave it, while `peeked`: it changes only when the
     * warp issues, or when a barrier of its CTA releases one of its paths */
    bool peeked;
    /* while `peeked`: the scoreboard was found free for `next` from the warp's ready time on
     * (it stays so until the warp issues), so can_issue need not look again */
    bool sb_clear;
    /* windowed: waits for the window's end, where its executor runs ahead (run.c weave) */
    bool deferred;
    /* its next event's mask, class and flags are in ev_mask, ev_cls, ev_flags (copied when
     * can_issue read its instruction from it: issue need not read the event again, which is
     * out of the cache by then, unless it accesses memory) */
    bool ev_copied;
    bool ended;               /* its last run ended with its exit (see ev) */
    /* its entry in its SM's `scan` (set when placed): when it can issue, and why not before */
    uint32_t scan_ix;
    uint32_t nev, pos;
    uint32_t nsb;             /* scoreboard entries in use (sb) */
    uint32_t ev_mask;
    uint8_t ev_cls, ev_flags;
    emu_warp *w;              /* its executor's warp (NULL when replaying a trace) */
    const tm_trace_warp *trace;   /* replay (GPUDet): the instructions it ran, from pos */
    /* The instructions its executor ran ahead and the model has not issued yet: ev[pos..nev)
     * of the warp's own event ring, which stays as it is until the warp runs again (only when
     * they are all issued). `ended`: that run ended with the warp's exit. */
    const emu_event *ev;
    emu_next_instr next;
    /* scoreboard: registers with results in flight (sb[0..nsb)) and when they land, key and
     * time side by side (a warp's few entries in its second cache line); after the members
     * tm_warp_clear zeroes, so that clearing a slot need not write them */
    struct tm_sb { uint64_t key, ready; } sb[TM_SB_ENTRIES];
    /* read at launch, barriers and exit only (tm_warp_clear zeroes them too) */
    uint32_t cta;             /* index of its CTA slot on the SM */
    uint64_t age;             /* launch order on the SM (GTO: oldest first) */
    uint64_t start;           /* cycle it was launched */
    uint64_t run_base;        /* --igpu: the warp's instruction number of ev[0] */
} tm_warp;
_Static_assert(sizeof(tm_warp) % 64 == 0, "tm_warp: whole cache lines");
_Static_assert(offsetof(tm_warp, sb) + 2 * sizeof(struct tm_sb) <= 128,
               "tm_warp: the first two scoreboard entries in the second cache line");

/* A warp slot as a fresh one: every member zero but the scoreboard's entries, which nothing
 * reads beyond nsb (10 cache lines of a tm_warp, 3 written). */
static inline void tm_warp_clear(tm_warp *tw)
{
    memset(tw, 0, offsetof(tm_warp, sb));
    tw->cta = 0;
    tw->age = tw->start = tw->run_base = 0;
}

/* What a scheduler's scan needs of a warp slot, kept beside the other slots of its scheduler
 * (SM `scan`, scheduler q's slots at q * per_q ...): the scan skips absent and waiting warps
 * without reading their tm_warp (a cache line each, cold when it has not issued for a while),
 * and setting a warp's wait does not write it. live = occupied and not done. 16 bytes, four
 * to a cache line: the warps' ages, which only GTO and the two-level scheduler read, lie apart
 * (SM `scan_age`). */
typedef struct tm_scan {
    uint64_t ready;           /* cannot issue before (launch, its last issue, a wait) */
    uint8_t why;              /* what it waits for until `ready` (a timing_slot) */
    bool live;
    /* its peeked instruction (tm_warp next) needs only its unit (`unit`) free, and an MSHR
     * if that is the load/store unit: can_issue found its scoreboard clear from `ready` on
     * (which it stays until the warp issues) and nothing else that could hold it (not a
     * replay, not deferred to the window's end); cleared with the warp's `peeked` */
    bool fast;
    uint8_t unit;
    /* its warp slot holds a warp (tm_warp occupied; a landing that frees an MSHR looks at
     * the marked waiting warps by their entries alone) */
    bool occupied;
} tm_scan;
_Static_assert(sizeof(tm_scan) == 16, "tm_scan: four to a cache line");

/* A scheduler's waiting set (GTO schedulers of at most 32 entries: sm.c): scan entries whose ready time
 * the scan found some cycles ahead (sm.c QW_MIN_WAIT), so that the scan visits only the live
 * entries outside it (sm.c sched_cycle) and takes the set's least wait from here. Entries waiting less than 64
 * cycles when they entered sit in a wheel of one bucket per cycle (`near`, by ready time modulo
 * 64: all its times lie within 64 cycles after the scheduler's last scan, so a bucket holds one
 * time), those waiting longer in `far` (with its least time and the entries that have it),
 * those waiting for ever in `never`. The scan first takes out the entries whose time has come
 * (sm.c qwait_due). Exact while each entry in the set keeps the ready time it had when it
 * entered: every writer of a ready time outside the scan takes the entry out first
 * (tm_scan_unwait). */
typedef struct tm_qwait {
    _Alignas(64) uint64_t next;   /* the least of next_near and far_min: when one comes due */
    uint64_t visit;           /* the live entries not in the set: the ones the scan visits */
    uint64_t bits;            /* the entries in the set */
    uint64_t never;           /* those with ready == TM_NEVER */
    uint64_t next_near;       /* the least time in `near` (UINT64_MAX: none) */
    uint64_t nz;              /* the `near` buckets not empty */
    uint64_t far;             /* the entries waiting 64 cycles or more when they entered */
    uint64_t far_min;         /* their least ready time (UINT64_MAX: none; 0: not known) */
    uint64_t far_min_bits;    /* the far entries with ready == far_min */
    uint32_t near[64];        /* entry bits by ready time modulo 64 */
} tm_qwait;
void tm_qwait_remove(tm_qwait *w, uint32_t j, uint64_t ready);

typedef struct tm_cta_slot {
    bool used;                /* false: free */
    uint64_t id;              /* its CTA's linear id */
    uint32_t arrived;         /* replay: warps waiting at the CTA barrier */
    emu_cta *cta;             /* its executor's CTA (NULL when replaying a trace) */
    eng_slot *slot;
    uint32_t live;            /* warps not exited */
    uint64_t start;           /* cycle it was placed */
    /* windowed: its CTA finished and the weave took the next one for it (placing_id), which
     * the landing step places (run.c weave_place) */
    bool placing;
    uint64_t placing_id;
} tm_cta_slot;

/* Windowed model: what an SM left for the window's end (run.c's weave): a warp to run ahead on
 * its executor, or a CTA slot whose CTA finished, at `cycle`, in the SM's order. */
typedef struct tm_defer {
    uint64_t cycle;
    uint32_t index;           /* warp slot (TM_DEFER_RUN) or CTA slot (TM_DEFER_CTA_DONE) */
    uint8_t kind;
} tm_defer;
enum { TM_DEFER_RUN, TM_DEFER_CTA_DONE, TM_DEFER_WARP_EXIT };

typedef struct tm_sm {
    /* whole cache lines: the SMs of different host threads write their own every cycle (wake,
     * tried, the statistics), and neighbours would otherwise share a line at their ends */
    _Alignas(64) uint32_t id;
    /* What every window's loops read of every SM, also of the idle ones (run.c), in its first
     * cache line: whether it has CTAs, when it can next change, whether it failed, what it left
     * for the weave. */
    uint32_t nctas, resident;
    uint32_t finished;        /* windowed: resident CTAs whose warps all exited (run.c) */
    uint32_t ndefer;
    bool fail;                /* a warp of it faulted */
    /* Nothing on the SM can change before `wake` (operands land, units free, warps launch at
     * known times; only its own warps release its barriers): the loop skips it until then.
     * `tried` is the last cycle its schedulers were tried; the cycles skipped since count as
     * that cycle's reasons. */
    uint64_t wake, tried;
    uint64_t last_exit;       /* its latest warp exit */
    tm_defer *defer;
    uint32_t capdefer;
    tm_warp *warps;           /* max warps per SM */
    uint32_t nwarps;
    tm_scan *scan;            /* per warp slot, grouped by scheduler (tm_scan) */
    uint64_t *scan_age;       /* per scan entry: its warp's age (launch order; GTO: oldest first) */
    uint32_t per_q;           /* scan entries per scheduler: nwarps / schedulers, rounded up */
    /* per scheduler, live_words words: bit j set while its entry j is live (the scan visits
     * only those; tm_scan_set_live keeps it) */
    uint64_t *live_bits;
    uint32_t live_words;
    tm_cta_slot *ctas;        /* CTA slots */
    uint64_t *unit_free;      /* per scheduler and unit */
    uint32_t *last;           /* per scheduler: its scan entry of the last issued warp (LRR, GTO),
                                 UINT32_MAX: none */
    timing_slot *reason;      /* per scheduler: what its slot did in the last cycle tried */
    /* per scheduler: no warp of it can issue before this cycle (the earliest wait of its last
     * scan; 0 = scan: a CTA arrived or a barrier released) */
    uint64_t *q_wake;
    tm_qwait *qwait;          /* per scheduler (tm_qwait); NULL where the scan does without */
    uint64_t next_age;
    /* warps (slots below 64) that may hold ready == TM_NEVER: can_issue marks them (outside
     * replay and KILO TM, the only place that sets it), a landing that frees an MSHR looks
     * at them only */
    uint64_t never_mask;
    /* replay of DAB: the next ticket (tm_rec) that may issue; the next of its CTAs (c mod SMs) */
    uint64_t ticket_next, next_cta;
    timing_stats st;          /* what its issue stage and its side of memory count */
    /* replay: the event of the instruction issuing (sm.c issue), and its lanes' addresses */
    emu_event replay_ev;
    uint64_t replay_addrs[EMU_WARP_SIZE];
} tm_sm;

typedef struct tm_model tm_model;

/* Warp slot i's entry in S->scan, for a model with nsched schedulers per SM. */
static inline uint32_t tm_scan_index(const tm_sm *S, uint32_t i, uint32_t nsched)
{
    return (i % nsched) * S->per_q + i / nsched;
}
/* Scan entry ix's ready time is written outside the scan (or the entry dies): it leaves its
 * scheduler's waiting set (tm_qwait), and is visited by the next scan. */
static inline void tm_scan_unwait(tm_sm *S, uint32_t ix)
{
    if (!S->qwait) return;
    uint32_t q = ix / S->per_q, j = ix % S->per_q;
    if (S->qwait[q].bits >> j & 1) tm_qwait_remove(&S->qwait[q], j, S->scan[ix].ready);
}
/* Entry ix becomes live or not: the waiting set's `visit` follows (the entry is not in the set) */
static inline void tm_scan_visit(tm_sm *S, uint32_t ix, bool live)
{
    if (!S->qwait) return;
    uint32_t q = ix / S->per_q, j = ix % S->per_q;
    uint64_t *v = &S->qwait[q].visit, b = UINT64_C(1) << j;
    *v = live ? *v | b : *v & ~b;
}
/* Marks scan entry ix live or not (its `live` and its bit in live_bits). */
static inline void tm_scan_set_live(tm_sm *S, uint32_t ix, bool live)
{
    if (!live) tm_scan_unwait(S, ix);
    tm_scan_visit(S, ix, live);
    S->scan[ix].live = live;
    uint32_t q = ix / S->per_q, j = ix % S->per_q;
    uint64_t *w = &S->live_bits[(size_t)q * S->live_words + j / 64], b = UINT64_C(1) << (j % 64);
    *w = live ? *w | b : *w & ~b;
}
/* A warp's ready time and wait reason (in its scan entry). */
static inline uint64_t tm_warp_ready(const tm_sm *S, const tm_warp *tw)
{
    return S->scan[tw->scan_ix].ready;
}
static inline timing_slot tm_warp_why(const tm_sm *S, const tm_warp *tw)
{
    return (timing_slot)S->scan[tw->scan_ix].why;
}
static inline void tm_warp_set_ready(tm_sm *S, tm_warp *tw, uint64_t t)
{
    tm_scan_unwait(S, tw->scan_ix);
    S->scan[tw->scan_ix].ready = t;
}
static inline void tm_warp_set_why(tm_sm *S, tm_warp *tw, timing_slot why)
{
    S->scan[tw->scan_ix].why = (uint8_t)why;
}

/* Windowed model: warp tw, deferred at `cycle` and run ahead by the weave, issues its first
 * instruction at that cycle. false when it faulted. */
bool tm_sm_issue_woven(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t cycle);
/* Tries every scheduler of SM S at cycle now; returns the number of instructions issued and
 * lowers *next to the earliest cycle something may change for it. false in *fail when a warp
 * faulted. */
uint32_t tm_sm_cycle(tm_model *M, tm_sm *S, uint64_t now, uint64_t *next, bool *fail);

/* ---------------------------------------------------------------- replay.c: GPUDet timed
 *
 * Under --det=gpudet the grid runs functionally on GPUDet's quanta (its results are GPUDet's),
 * while the model sink records every warp's instructions; the model then replays each warp's
 * record on the SMs (trace-driven), issuing them as it issues executed ones. */

typedef struct tm_rec {
    emu_next_instr in;        /* class, registers read and written */
    uint64_t addr;            /* index of its first address in the warp's addrs */
    uint32_t mask, mem_lanes;
    uint16_t size, op;
    uint8_t cls, flags, space;
    bool serial;              /* GPUDet ran it in serial mode (a deferred atomic or call) */
    uint64_t quantum;         /* the GPUDet quantum it ran in (from 1) */
    /* DAB: its place (from 1) in its SM's order of instructions the determinism-aware
     * scheduler orders (buffered atomics of scheduler-level buffers, lockstep instructions);
     * 0: any time */
    uint64_t ticket;
    bool igpu_charged;        /* --igpu: what it costs beyond itself (timing_igpu_take_cost) */
    timing_igpu_cost igpu;
} tm_rec;

/* A KILO TM commit step that GPUDet's serial mode ran (--tm=kilotm --det=gpudet --timing): its
 * tx_commit's record and what the commit units time (cycles.c), per lane in lane order. */
typedef struct tm_tx_step {
    uint64_t rec;             /* index of its tx_commit in the warp's recs */
    uint32_t lanes, passed;
    uint32_t nreads[EMU_WARP_SIZE], nwrites[EMU_WARP_SIZE];
    uint64_t addr;            /* its first address in the warp's step_addrs (reads, writes) */
} tm_tx_step;

struct tm_trace_warp {
    tm_rec *recs;
    uint64_t n, cap;
    uint64_t *addrs;          /* the memory instructions' lane addresses, mem_lanes' lanes only */
    uint64_t naddrs, acap;
    tm_tx_step *steps;        /* KILO TM's commit steps, in record order */
    uint64_t nsteps, steps_cap;
    uint64_t *step_addrs;
    uint64_t nstep_addrs, step_acap;
    /* --igpu: costs of instructions not recorded (a boundary before a deferred operation),
     * charged to its next record */
    bool igpu_carry;
    timing_igpu_cost carry;
    bool oom;
};

typedef struct tm_trace {
    uint64_t nctas;
    uint32_t warps_per_cta;
    tm_trace_warp *warps;     /* CTA linear id * warps_per_cta + warp id */
    /* GPUDet's (DAB's) phase the instructions recorded now belong to (set between phases):
     * the quantum (epoch), and serial mode (the flush) */
    uint64_t quantum;
    bool serial;
    /* per quantum (from 1), commits[(q - 1) * (nchan + nsm) + ...]: GPUDet's commit requests
     * by DRAM channel [ch] and by the SM that sent them [nchan + sm]; DAB's flush transactions
     * by sub-partition [subp] (nchan = l2_slices) and bytes by SM [nchan + sm]; quanta: the
     * last quantum (epoch) that ran */
    const timing_gpu *gpu;
    uint32_t nchan, nsm;
    uint64_t *commits, quanta, commit_cap;
    timing_igpu *igpu;        /* --igpu: its policy, whose costs each record takes */
    bool oom;
    /* DAB with scheduler-level buffers: per SM, the tickets handed out (see tm_rec) */
    uint64_t *tickets;
    struct tm_gdc *gdc;       /* GPUDet: its commits' Z-caches and lock figures (detcost) */
    /* GPUDet: where its work distribution (and DWP) launched each CTA: SM, CTA slot on it and
     * the slot's launch number (UINT32_MAX: never launched) */
    uint32_t *launch_sm, *launch_k;
    uint64_t *launch_seq;
} tm_trace;

/* Records the n events of warp w (the model sink's consume when no model warp owns w). */
void tm_trace_record(tm_trace *t, emu_warp *w, const emu_event *ev, uint32_t n);
/* Fills *e with record r of warp tw's trace, its addresses in their lanes of `addrs`. */
void tm_trace_event(const tm_trace_warp *tw, const tm_rec *r, emu_event *e,
                    uint64_t addrs[EMU_WARP_SIZE]);
/* The model over a recorded grid (run.c). */
bool tm_run(emu_grid *g, const timing_engine_config *cfg, const tm_trace *trace);
/* Sets the trace the model sink records into (NULL: none). */
void tm_sink_record_into(tm_trace *t);

/* ---------------------------------------------------------------- timing/kilotm/cycles.c
 * KILO TM's commit units under --timing: a warp's commit step (performed functionally when it
 * issues tx_commit) is timed through the log walk, the commit units and their replies. */

typedef struct tm_kilotm tm_kilotm;
/* NULL when the grid runs without --tm=kilotm (or, with M->stop set, out of memory). */
tm_kilotm *tm_kilotm_create(tm_model *M);
/* Adds the commit units' statistics to M->st and frees K. */
void tm_kilotm_finish(tm_model *M, tm_kilotm *K, uint64_t cycles);
/* Before warp tw of SM S runs ahead at cycle now (a transactional slot it may give back). */
void tm_kilotm_before_run(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now);
/* After its run (whose first instruction issues at now): the cycle from which it may issue
 * again (now + 1 unless the run committed transactions or a tx_begin waited for a slot). */
uint64_t tm_kilotm_after_run(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now);
/* GPUDet's record (replay.c): while `on`, the KILO TM policy of grid g keeps each commit step,
 * and tm_kilotm_trace_step moves it into the warp's record, with its tx_commit's record (the
 * last one, when `recorded`: else it is dropped); false when out of host memory. */
void tm_kilotm_record(emu_grid *g, bool on);
bool tm_kilotm_trace_step(emu_warp *w, tm_trace_warp *tw, bool recorded);
/* Replay: the commit step of record `rec` of tw's trace, issued in serial mode at cycle now on
 * SM S, through the commit units; when the warp may go on (now + 1 when it has none). */
uint64_t tm_kilotm_replay_step(tm_model *M, tm_sm *S, const tm_trace_warp *tw, uint64_t rec,
                               uint64_t now);

/* ---------------------------------------------------------------- huge.c */

/* A block of at least `bytes` (contents unspecified) aligned to 2 MiB, in huge pages where the
 * system gives them; *have (when not NULL): its bytes (0: out of memory, NULL). Freed with
 * free(). */
void *tm_huge_alloc(size_t bytes, size_t *have);
/* A zeroed block of at least `bytes` aligned to 2 MiB, in huge pages where the system gives
 * them, its pages zeroed where first touched (NULL: out of memory); freed with tm_huge_zfree
 * and the same `bytes`. */
void *tm_huge_zalloc(size_t bytes);
void tm_huge_zfree(void *p, size_t bytes);
/* [p, p + bytes)'s host pages faulted in for writing by this thread, the contents unchanged. */
void tm_touch(void *p, size_t bytes);

/* ---------------------------------------------------------------- rings.c */

/* The event rings of `slots` warp slots: per slot EMU_RING_EVENTS_BYTES of events, all slots'
 * in one block, each slot's starting a host line (rings.c says which), and EMU_RING_ROWS_BYTES
 * of address rows, in another, each slot's starting a page. */
#define TM_RING_ALIGN 4096
typedef struct tm_rings {
    emu_event *events;
    uint64_t *rows;
    size_t slots;   /* 0: none (the warps allocate their own) */
} tm_rings;
/* Rings for `slots` warp slots in *r, the last kernel's when they are enough; false when memory
 * ran out (*r holds none then). */
bool tm_rings_take(tm_rings *r, size_t slots);
/* Slot `slot`'s events and address rows. */
emu_event *tm_ring_events(const tm_rings *r, size_t slot);
uint64_t *tm_ring_rows(const tm_rings *r, size_t slot);
/* The rings back, kept for the next kernel (*r holds none after). */
void tm_rings_give(tm_rings *r);

/* ---------------------------------------------------------------- regs.c */

/* A block of at least `words` words (the CTA slots' registers and storage) in huge pages
 * where the system gives them, the last kernel's when it is large enough, holding anything;
 * *have: its words (0: out of memory, NULL). */
uint64_t *tm_regs_take(size_t words, size_t *have);
/* The block back, kept for the next kernel. */
void tm_regs_give(uint64_t *regs, size_t words);

/* ---------------------------------------------------------------- run.c */

struct tm_model {
    emu_grid *g;
    const tm_trace *trace;    /* replaying a GPUDet run's record (NULL: execution-driven) */
    uint64_t next_cta;        /* replay: the next CTA to place */
    const timing_gpu *gpu;
    eng_run E;                /* CTA storage and the issue order (the engine skeleton) */
    tm_mem mem;
    tm_sm *sms;
    uint32_t nsm, ctas_per_sm, warps_per_cta, warp_slots;
    uint32_t nsched;
    timing_stats st;
    timing_watchdog wd;
    timing_timeline *timeline;
    bool stop;
    /* Windowed (execution-driven) model: windows of 1 + icnt_latency cycles from the kernel's
     * start; every executor run, CTA retirement and placement happens at a window's end, for
     * all SMs in (cycle, SM, order) order (run.c), so the program's results do not depend on
     * how the SMs' cycles inside a window are interleaved. */
    bool windowed;
    uint64_t win;             /* window length */
    uint32_t nthreads;        /* host threads running the SMs' windows */
    timing_stats **sm_st;     /* per SM: &sms[s].st (memsys counts there at issue) */
    uint32_t *weave_pos;      /* per SM: the weave's place in its defer list */
    uint32_t *weave_lim;      /* per SM: the same, for the weave's last step */
    uint32_t weave_fault;     /* 1 + the SM whose weave run faulted (0: none) */
    uint32_t *weave_heap;     /* the weave's merge (run.c): per SM, its count of entries */
    uint64_t *weave_keys;     /* the weave's merge: a heap of its SMs' (cycle, SM) keys */
    /* per SM, away from its tm_sm (whose first line its host thread writes every cycle): its
     * entries when its bound phase ended (run.c bound_item) and its defer list (tm_sm defer,
     * kept by tm_defer_add), which the weave's runs read on one thread, rather than every
     * SM's first line each window (half of them the other core's) */
    uint32_t *weave_count;
    tm_defer **weave_defer;
    /* the weave's issue beside its runs (run.c crew_follow): the runs' progress (weave_ran,
     * atomic, the crew's: the entries of the order run so far) and per SM the window in which
     * it last issued there (weave_early, the following thread's: of window weave_window when
     * it did in this one; a stamp, so no thread clears the other core's lines each window) */
    bool weave_overlap;
    uint32_t *weave_ran;
    uint64_t *weave_early;
    uint64_t weave_window;
    /* the warp slots' event rings (rings.c): slot ws of SM s is ring ws * nsm + s;
     * none (rings.slots 0): the warps allocate their own */
    tm_rings rings;
    /* the CTA slots' registers and CTA storage (regs.c): eng_slot gslot's from gslot * (its
     * registers' words + its storage's, emu_cta_storage_bytes), the registers first; NULL: the
     * CTAs allocate their own */
    uint64_t *regs;
    size_t regs_words;
    /* the SMs' warp slots, SM s's from s * warp_slots (huge.c tm_huge_zalloc, of
     * warp_block_bytes) */
    tm_warp *warp_block;
    size_t warp_block_bytes;
    /* replay: GPUDet's quanta in cycles (replay.c). Records of a later quantum, or this
     * quantum's serial mode, wait (`gated` once a warp did) until the quantum's end. */
    uint64_t cur_q;           /* the quantum whose parallel mode runs */
    uint64_t q_start;         /* its first cycle */
    uint64_t q_drain;         /* the last result of its instructions lands */
    bool gated;
    bool serial_by_warp;      /* W-Ser (else CU-Ser) */
    bool dab;                 /* replaying DAB: epochs and flushes in place of quanta */
    /* --igpu: the launch's restart policy, which keeps what faults, restarts and state
     * preservation cost beyond the instructions (timing_igpu_take_cost); NULL: none */
    timing_igpu *igpu;
    tm_kilotm *kilotm;        /* --tm=kilotm: the commit units (NULL: none) */
    uint32_t dab_sms;         /* DAB: CTA c goes to SM c mod dab_sms (SM gating) */
    /* GPUDet: each CTA slot's CTAs in GPUDet's launch order, slot (sm, k) at
     * gd_queue[gd_next[sm * ctas_per_sm + k] .. gd_end[...]) (NULL: the model's own order) */
    uint64_t *gd_queue, *gd_next, *gd_end;
    struct tm_gdl *gdl;       /* GPUDet: the warps' store-buffer logs (timing/detcost) */
    bool lock_commit;         /* GPUDet: commit mode by software locks */
    uint8_t dab_limit;        /* DAB: the limitation study's relaxation (timing_dab_limit) */
    uint64_t rop_free;        /* DAB-NR-OF: the ROPs are done with the flushes so far */
    uint64_t flush_tail;      /* DAB-NR-OF: the last flush's writebacks are back */
};

/* Replay: whether warp tw's next record waits for a later quantum or for serial mode. */
bool tm_det_gated(tm_model *M, const tm_warp *tw);
/* Replay: the end of quantum (DAB: epoch) M->cur_q, from cycle `now` when no warp can issue:
 * GPUDet's barriers, commit mode and serial mode, or DAB's flush, its flush-class operations
 * and its barrier; returns the next one's first cycle and makes M->cur_q that one. */
uint64_t tm_det_epoch_end(tm_model *M, uint64_t now);
/* Replay of DAB: whether record r of a warp on S waits for its turn in the scheduler's order
 * (its ticket is not the next); what its issue hands on; when nothing can issue and a warp
 * waits for a ticket no warp will issue, moves S on to the lowest waiting one (false: none). */
bool tm_det_order_wait(tm_model *M, tm_sm *S, const tm_rec *r);
void tm_det_order_issued(tm_model *M, tm_sm *S, const tm_rec *r);
bool tm_det_order_unstick(tm_model *M);

/* Windowed model: leaves `index` of kind TM_DEFER_* to the window's end (run.c). */
void tm_defer_add(tm_model *M, tm_sm *S, uint64_t cycle, uint32_t index, uint8_t kind);
/* A CTA's warp slot on its SM retired; run.c frees the CTA when all have. */
void tm_warp_exited(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now);
/* Replay: the warps of CTA slot k of S waiting at its barrier go on. */
void tm_release_barrier(tm_model *M, tm_sm *S, uint32_t k);

#endif
