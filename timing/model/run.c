/* run.c: a kernel on the cycle model: CTAs on SMs, the cycle loop, and what it counts.
 *
 * The kernel starts after kernel_launch_latency cycles. CTAs are handed out in ascending order,
 * first slot 0 of every SM, then slot 1, ... as many as occupancy allows (timing_ctas_per_sm:
 * CTA slots, threads, shared memory); when a CTA's last warp exits, its SM takes the next CTA,
 * whose warps may issue cta_launch_latency cycles later. Each cycle every SM (ascending) gives
 * each of its schedulers a chance to issue (sm.c). A cycle in which nothing issues is skipped
 * to the next one at which something may (the earliest time a unit frees, an operand lands or a
 * warp becomes ready), with its issue slots counted as the skipped cycle would count them.
 *
 * Replay (a recorded grid) runs in one host thread in the order (cycle, SM, scheduler, warp),
 * so cycles and statistics do not depend on the number of host threads, the seed or the
 * executor.
 *
 * Execution-driven runs are windowed (timing/model/README.md "Parallel model"): windows of
 * 1 + icnt_latency cycles from the kernel's start; in each, every SM runs its cycles by itself
 * (on the --threads host threads), its warps' executors only through what their SM alone sees
 * (emu_warp_run_local); then the weave takes what crosses SMs in (cycle, SM, order) order:
 * deferred warps' global accesses, atomics and calls (their executors on one thread, their
 * issue per SM on the host threads), CTA retirement and placement (one thread), L2 and DRAM
 * (per channel on the host threads, replies landing per SM). The same windows on any number
 * of host threads give the same cycles, statistics and program results (racing programs
 * included). Replay (GPUDet, DAB) is not windowed, nor are
 * iGPU's and KILO TM's runs, whose hooks (sm.c) time a warp's own run ahead: they run in the
 * order (cycle, SM, scheduler, warp) on one host thread. */
#include "timing/detcost/detcost.h"
#include "timing/model/model.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

static void sink_consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    tm_warp *tw = emu_warp_user(w, EMU_POLICY_TIMING);
    if (!tw) {
        if (self->state) tm_trace_record(self->state, w, ev, n);
        return;
    }
    assert(tw->nev == 0 && n <= TM_RUN_LOCAL);   /* one call per run (TM_RUN_LOCAL at most) */
    tw->ev = ev;
    tw->nev = n;
}

static emu_event_sink model_sink = {sink_consume, NULL};

emu_event_sink *timing_model_sink(void)
{
    return &model_sink;
}

/* Grids run one at a time (the device worker runs launches in order), so the one sink records
 * into the trace of the grid GPUDet is running. */
void tm_sink_record_into(tm_trace *t)
{
    model_sink.state = t;
}

/* GPUDet's placement: each CTA slot's queue of the CTAs GPUDet launched there, in its order
 * (its work distributions at quantum starts, DWP's launches in parallel mode). The slots of
 * the model and of GPUDet's run are the same (SMs, timing_ctas_per_sm), so the model times the
 * CTA-to-SM assignment GPUDet ran. A CTA launched in quantum q waits in the model for its slot's
 * previous CTA, which ran in quantum q or before, and its records wait for quantum q. false
 * when out of memory; no queues (the model's own order) when the record is incomplete (a
 * grid that faulted before launching every CTA). */
static bool gpudet_queues(tm_model *M)
{
    const tm_trace *T = M->trace;
    if (!T || !T->launch_sm) return true;
    uint64_t nslots = (uint64_t)M->nsm * M->ctas_per_sm;
    for (uint64_t c = 0; c < T->nctas; c++)
        if (T->launch_sm[c] >= M->nsm || T->launch_k[c] >= M->ctas_per_sm) return true;
    uint64_t *end = calloc(nslots ? nslots : 1, sizeof *end);
    uint64_t *next = calloc(nslots ? nslots : 1, sizeof *next);
    uint64_t *queue = malloc((T->nctas ? T->nctas : 1) * sizeof *queue);
    bool ok = end && next && queue;
    for (uint64_t c = 0; ok && c < T->nctas; c++)
        end[(uint64_t)T->launch_sm[c] * M->ctas_per_sm + T->launch_k[c]]++;
    uint64_t at = 0;
    for (uint64_t s = 0; ok && s < nslots; s++) {
        next[s] = at;
        at += end[s];
        end[s] = at;
    }
    for (uint64_t c = 0; ok && c < T->nctas; c++) {
        uint64_t s = (uint64_t)T->launch_sm[c] * M->ctas_per_sm + T->launch_k[c];
        /* a slot's launch numbers are 0, 1, ... once each */
        assert(next[s] + T->launch_seq[c] < end[s]);
        queue[next[s] + T->launch_seq[c]] = c;
    }
    if (!ok) {
        free(end);
        free(next);
        free(queue);
        return false;
    }
    M->gd_queue = queue;
    M->gd_next = next;
    M->gd_end = end;
    return true;
}

/* Places the next CTA of a recorded grid in CTA slot k of SM S. */
static bool place_recorded(tm_model *M, tm_sm *S, uint32_t k, uint64_t ready)
{
    const tm_trace *T = M->trace;
    if (M->next_cta >= T->nctas) return false;
    /* DAB distributes CTAs statically (CTA c on SM c mod dab_sms, each SM's in ascending
     * order), and its scheduler order is per SM: the model places them as DAB did */
    uint64_t id = M->next_cta;
    if (M->gd_queue) {
        uint64_t s = (uint64_t)S->id * M->ctas_per_sm + k;
        if (M->gd_next[s] >= M->gd_end[s]) return false;
        id = M->gd_queue[M->gd_next[s]++];
    } else if (M->dab) {
        if (S->next_cta >= T->nctas) return false;
        id = S->next_cta;
        S->next_cta += M->dab_sms;
    }
    M->next_cta++;   /* CTAs placed */
    tm_cta_slot *cs = &S->ctas[k];
    *cs = (tm_cta_slot){.used = true, .id = id, .live = T->warps_per_cta, .start = ready};
    S->resident++;
    memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
    M->st.ctas++;
    for (uint32_t i = 0; i < T->warps_per_cta; i++) {
        uint32_t ws = k * M->warps_per_cta + i;
        tm_warp *tw = &S->warps[ws];
        tm_warp_clear(tw);
        tw->occupied = true;
        tw->scan_ix = tm_scan_index(S, ws, M->nsched);
        tm_scan_set_live(S, tw->scan_ix, true);
        S->scan[tw->scan_ix].occupied = true;
        tw->trace = &T->warps[cs->id * T->warps_per_cta + i];
        tw->cta = k;
        tw->age = S->next_age++;
        S->scan_age[tw->scan_ix] = tw->age;
        S->scan[tw->scan_ix].fast = false;
        tm_warp_set_ready(S, tw, ready);
        tm_warp_set_why(S, tw, TIMING_SLOT_CONTROL);
        tw->start = ready;
        tw->nev = tw->trace->n > UINT32_MAX ? UINT32_MAX : (uint32_t)tw->trace->n;
    }
    /* a warp that ran nothing (none: every warp runs its exit) would leave at once */
    for (uint32_t i = 0; i < T->warps_per_cta; i++) {
        tm_warp *tw = &S->warps[k * M->warps_per_cta + i];
        if (!tw->trace->n && !tw->done) tm_warp_exited(M, S, tw, ready);
    }
    return true;
}
/* Places CTA `id` (taken from the issue order) in CTA slot k of SM S, its warps ready at
 * `ready`, its state in storage of host thread T's pool. Touches only S, its engine slot and T,
 * so the SMs of different host threads place at once (weave_place). false when memory ran out
 * (M->stop then). */
static bool place_cta(tm_model *M, tm_sm *S, uint32_t k, uint64_t id, uint64_t ready,
                      eng_thread *T)
{
    eng_slot *slot = eng_slot_at(&M->E, S->id, k);
    emu_cta *c = eng_slot_launch(&M->E, slot, id, T);
    if (!c) {
        emu_grid_abort(M->E.g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for a CTA's state (cycle model)");
        __atomic_store_n(&M->stop, true, __ATOMIC_RELAXED);
        return false;
    }
    tm_cta_slot *cs = &S->ctas[k];
    *cs = (tm_cta_slot){.used = true, .id = id};
    cs->cta = c;
    cs->slot = slot;
    cs->live = emu_cta_warp_count(c);
    cs->start = ready;
    S->resident++;
    memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
    S->st.ctas++;   /* summed with the SMs' other counts */
    for (uint32_t i = 0; i < cs->live; i++) {
        uint32_t ws = k * M->warps_per_cta + i;
        tm_warp *tw = &S->warps[ws];
        tm_warp_clear(tw);
        tw->occupied = true;
        tw->scan_ix = tm_scan_index(S, ws, M->nsched);
        tm_scan_set_live(S, tw->scan_ix, true);
        S->scan[tw->scan_ix].occupied = true;
        tw->w = emu_cta_warp(c, i);
        tw->cta = k;
        tw->age = S->next_age++;
        S->scan_age[tw->scan_ix] = tw->age;
        S->scan[tw->scan_ix].fast = false;
        tm_warp_set_ready(S, tw, ready);
        tm_warp_set_why(S, tw, TIMING_SLOT_CONTROL);
        tw->start = ready;
        emu_warp_set_user(tw->w, EMU_POLICY_TIMING, tw);
        emu_warp_set_slot(tw->w, ws);
        if (M->rings.slots) {
            /* the slot's ring (rings.c); its events' page faults in here, on the SM's host
             * thread, rather than in the weave's runs (one thread). Slot ws of every SM before
             * slot ws + 1 of any, as CTAs fill them: a grid smaller than the GPU touches the
             * block's start only */
            size_t ring = (size_t)ws * M->nsm + S->id;
            emu_event *events = tm_ring_events(&M->rings, ring);
            events->pc = 0;
            emu_warp_lend_ring(tw->w, events, tm_ring_rows(&M->rings, ring));
        }
    }
    return true;
}

/* Places the next CTA of the issue order in CTA slot k of SM S, its warps ready at `ready`.
 * false when none is left or memory ran out (M->stop then). */
static bool place(tm_model *M, tm_sm *S, uint32_t k, uint64_t ready)
{
    if (M->trace) return place_recorded(M, S, k, ready);
    uint64_t id;
    return eng_issue_take(&M->E, &id) && place_cta(M, S, k, id, ready, &M->E.threads[0]);
}

static void cta_done(tm_model *M, tm_sm *S, uint32_t k, uint64_t now, uint64_t from);

void tm_warp_exited(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now)
{
    tw->done = true;
    tm_scan_set_live(S, tw->scan_ix, false);
    S->st.warp_cycles += now - tw->start;
    if (now > S->last_exit) S->last_exit = now;
    if (M->windowed && timing_timeline_wants_warps(M->timeline)) {
        /* the timeline is written in the weave's order */
        tm_defer_add(M, S, now, (uint32_t)(tw - S->warps), TM_DEFER_WARP_EXIT);
    } else if (timing_timeline_wants_warps(M->timeline)) {
        const emu_launch *L = emu_grid_launch(M->g);
        uint64_t id = S->ctas[tw->cta].id;
        emu_dim3 xyz = {(uint32_t)(id % L->grid.x), (uint32_t)(id / L->grid.x % L->grid.y),
                        (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y))};
        uint32_t slot = (uint32_t)(tw - S->warps);
        timing_timeline_warp(M->timeline, S->id, slot, xyz, slot % M->warps_per_cta, tw->start,
                             now);
    }
    if (tw->w) emu_warp_set_user(tw->w, EMU_POLICY_TIMING, NULL);
    tm_cta_slot *cs = &S->ctas[tw->cta];
    if (--cs->live) {
        if (M->trace && cs->arrived == cs->live) tm_release_barrier(M, S, tw->cta);
        return;
    }
    if (M->windowed) {
        S->finished++;
        tm_defer_add(M, S, now, tw->cta, TM_DEFER_CTA_DONE);
    }
    else cta_done(M, S, tw->cta, now, now);
}

/* The timeline's slice of the CTA in slot k of S, finished at `now`. */
static void cta_slice(tm_model *M, tm_sm *S, uint32_t k, uint64_t now)
{
    const tm_cta_slot *cs = &S->ctas[k];
    const emu_launch *L = emu_grid_launch(M->g);
    uint64_t id = cs->id;
    emu_dim3 xyz = {(uint32_t)(id % L->grid.x), (uint32_t)(id / L->grid.x % L->grid.y),
                    (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y))};
    timing_timeline_cta(M->timeline, S->id, xyz, cs->start, now);
}

/* Frees CTA slot k of S (its CTA finished), its CTA's storage to host thread T's pool; returns
 * when the next CTA there may be ready: cta_launch_latency after `now`, no earlier than `from`. */
static uint64_t cta_free(tm_model *M, tm_sm *S, uint32_t k, uint64_t now, uint64_t from,
                         eng_thread *T)
{
    tm_cta_slot *cs = &S->ctas[k];
    for (uint32_t i = 0; i < M->warps_per_cta; i++) {
        S->warps[k * M->warps_per_cta + i].occupied = false;
        S->scan[S->warps[k * M->warps_per_cta + i].scan_ix].occupied = false;
        tm_scan_set_live(S, S->warps[k * M->warps_per_cta + i].scan_ix, false);
        S->warps[k * M->warps_per_cta + i].w = NULL;
    }
    if (cs->cta) eng_slot_retire(&M->E, cs->slot, T);
    cs->cta = NULL;
    cs->used = false;
    S->resident--;
    if (M->windowed) S->finished--;
    if (!S->resident) S->tried = TM_NEVER;   /* cycles without a CTA count as idle (tm_run) */
    uint64_t ready = now + (uint64_t)M->gpu->cta_launch_latency;
    return ready < from ? from : ready;
}

/* CTA slot k of S finished at `now`: it takes the next CTA, ready cta_launch_latency later
 * and no earlier than `from`. */
static void cta_done(tm_model *M, tm_sm *S, uint32_t k, uint64_t now, uint64_t from)
{
    if (M->timeline) cta_slice(M, S, k, now);
    uint64_t ready = cta_free(M, S, k, now, from, &M->E.threads[0]);
    if (place(M, S, k, ready) && S->wake > ready) S->wake = ready;
}

void tm_defer_add(tm_model *M, tm_sm *S, uint64_t cycle, uint32_t index, uint8_t kind)
{
    if (S->ndefer == S->capdefer) {
        uint32_t cap = S->capdefer ? 2 * S->capdefer : 64;
        tm_defer *d = realloc(S->defer, cap * sizeof *d);
        if (!d) {
            emu_grid_abort(M->E.g, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for the cycle model's window");
            M->stop = true;
            return;
        }
        S->defer = d;
        M->weave_defer[S->id] = d;
        S->capdefer = cap;
    }
    S->defer[S->ndefer++] = (tm_defer){.cycle = cycle, .index = index, .kind = kind};
}

/* The weave of the window ending at `at` (the SMs' deferred entries in (cycle, SM, order)
 * order, as one thread would take them) in three steps with the same result (run_windows
 * gives steps 1 and 3 company on the other host threads: the channels' DRAM decisions, the
 * ordering of the window's requests, which touch none of their state):
 * 1. weave_runs (one thread): each deferred warp's executor runs ahead in that order (the
 *    global accesses, atomics, calls of all SMs happen in one fixed order);
 * 2. weave_issue (each SM by itself, on the host threads): the warps issue what they ran, the
 *    deferred instruction at the cycle it was deferred, the rest from `at` (on several host
 *    threads, entry by entry as step 1 runs them where the SM's records allow: crew_follow);
 * 3. weave_retire (one thread): each finished CTA's slot takes the next CTA of the issue order,
 *    and the timeline's slices are written, in that order; the slots are freed and the CTAs
 *    placed later, per SM on the host threads (weave_place, in the replies' landing step).
 * An SM's issue touches only the SM (its warps, units, L1, MSHRs, outbox and records); a CTA's
 * retirement and placement only its own slot (its SM, its engine slot, the storage pool of the
 * host thread doing it) and the engine's order, and what both write of the SM's counters
 * (resident, finished, wake, q_wake) adds up or takes a minimum: so issuing before retiring
 * gives what the interleaved order gave. Between taking the CTAs and placing them, only the
 * memory weave runs (L2 and DRAM, none of the SMs' state); on each SM the placements come
 * before its landings, as before. */

/* Step 1 for a warp deferred at `cycle`: its executor runs ahead from the deferred instruction
 * (a global access, atomic, call...). false when it faulted. */
static bool weave_exec(tm_model *M, tm_warp *tw, uint64_t cycle)
{
    emu_warp *w = tw->w;
    tw->deferred = false;
    emu_warp_set_clock(w, cycle, cycle * UINT64_C(1000000) / (uint64_t)M->gpu->model_clock_khz);
    tw->ev = NULL;
    tw->nev = tw->pos = 0;
    /* (the count only for an armed watchdog: timing_watchdog_step's own test, here without
     * the calls at every run) */
    const bool watched = M->wd.armed;
    uint64_t before = watched ? emu_warp_instructions(w) : 0;
    emu_stop r = emu_warp_run_ahead(w, TM_RUN_AHEAD);
    if (watched && timing_watchdog_step(&M->wd, emu_warp_instructions(w) - before)) M->stop = true;
    if (r == EMU_STOP_FAULT) return false;
    tw->ended = r == EMU_STOP_EXIT;
    return true;
}

/* The weave's order over the SMs' entries [pos[s], lim[s]): a binary heap of the SMs by their
 * next entry's (cycle, SM), so each entry costs log(SMs), not a scan of every SM. The order is
 * that of always taking the least (cycle, SM) next entry. The heap holds each SM's key, its
 * next entry's cycle above its index (MERGE_SM_BITS), so that a comparison reads no SM's
 * entries (it read two SMs' defer lists each, ~170 instructions an entry on v100's 80 SMs). */
enum { MERGE_SM_BITS = 16 };

typedef struct weave_merge {
    tm_defer *const *defer;   /* per SM: its entries (M->weave_defer) */
    uint32_t *pos;
    const uint32_t *lim;
    uint64_t *heap;
    uint32_t n;
} weave_merge;

static uint64_t merge_key(const weave_merge *m, uint32_t s)
{
    uint64_t cycle = m->defer[s][m->pos[s]].cycle;
    assert(cycle < UINT64_C(1) << (64 - MERGE_SM_BITS));
    return cycle << MERGE_SM_BITS | s;
}

static void merge_sift(weave_merge *m, uint32_t i)
{
    uint64_t *h = m->heap, x = h[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, least = i;
        uint64_t v = x;
        if (l < m->n && h[l] < v) {
            least = l;
            v = h[l];
        }
        if (r < m->n && h[r] < v) {
            least = r;
            v = h[r];
        }
        if (least == i) break;
        h[i] = v;
        i = least;
    }
    h[i] = x;
}

/* Starts the merge of every SM's entries [0, lim[s]) (lim: NULL for each SM's count, kept in
 * weave_heap; the runs pass M->weave_count), pos[s] counting those taken, in heap (nsm keys). */
static void merge_start(weave_merge *m, tm_model *M, uint32_t *pos, const uint32_t *lim,
                        uint64_t *heap)
{
    assert(M->nsm <= UINT32_C(1) << MERGE_SM_BITS);
    if (!lim) {
        uint32_t *count = M->weave_heap;
        for (uint32_t s = 0; s < M->nsm; s++) count[s] = M->sms[s].ndefer;
        lim = count;
    }
    *m = (weave_merge){.defer = M->weave_defer, .pos = pos, .lim = lim, .heap = heap};
    memset(pos, 0, M->nsm * sizeof *pos);
    for (uint32_t s = 0; s < M->nsm; s++)
        if (lim[s]) m->heap[m->n++] = merge_key(m, s);
    for (uint32_t i = m->n / 2; i-- > 0;) merge_sift(m, i);
}

/* The next entry of the order (*d) and its SM, or UINT32_MAX when none is left. */
static uint32_t merge_next(weave_merge *m, tm_defer *d)
{
    if (!m->n) return UINT32_MAX;
    uint32_t s = (uint32_t)(m->heap[0] & ((UINT64_C(1) << MERGE_SM_BITS) - 1));
    *d = m->defer[s][m->pos[s]++];
    if (m->pos[s] == m->lim[s]) m->heap[0] = m->heap[--m->n];
    else m->heap[0] = merge_key(m, s);
    if (m->n) merge_sift(m, 0);
    return s;
}

/* Entries the runs look ahead in the weave's order: the entry k places ahead of the one running
 * gets hint k (5: the model's warp; 4, 3: emu_warp_prefetch's; 2, 1: emu_warp_prefetch_access's),
 * so that each run finds what it reads first in this core's cache rather than in another host
 * thread's (its SM's bound phase) or in memory. */
enum { RUNS_AHEAD = 6 };

static void runs_hint(const tm_model *M, const tm_defer *d, uint32_t s, uint32_t k)
{
    if (d->kind != TM_DEFER_RUN) return;
    const tm_warp *tw = &M->sms[s].warps[d->index];
    if (k == 5) __builtin_prefetch(tw);
    else if (tw->w && k >= 3) emu_warp_prefetch(tw->w, k == 3);
    else if (tw->w) emu_warp_prefetch_access(tw->w, k == 1);
}

/* What SM s's woven instructions (its first n entries, those step 1 ran) may take of records:
 * replies and links (two lines per lane at most), instruction records. Returns its runs. */
static uint32_t weave_need(const tm_model *M, uint32_t s, uint32_t n, uint32_t *replies,
                           uint32_t *insts)
{
    const tm_sm *S = &M->sms[s];
    uint32_t runs = 0;
    *replies = *insts = 0;
    for (uint32_t k = 0; k < n; k++) {
        const tm_defer *d = &M->weave_defer[s][k];   /* (not S's first line: weave_count) */
        if (d->kind != TM_DEFER_RUN) continue;
        const tm_warp *tw = &S->warps[d->index];
        runs++;
        if (!tw->nev) continue;
        uint32_t lanes = (uint32_t)__builtin_popcount(tw->ev[0].mem_lanes & tw->ev[0].mask);
        *replies += 2 * lanes < 2 * EMU_WARP_SIZE ? 2 * lanes : 2 * EMU_WARP_SIZE;
        ++*insts;
    }
    return runs;
}

/* A host thread waiting for another (the crew's steps, below, and the SMs the runs hand over)
 * looks this many times before it yields the CPU between looks: 4,096 looks take ~1 us (2,550
 * TSC ticks on the 2-core VM), and a yield costs ~0.4 us even with nothing else to run (1,100
 * ticks), which the waits of a window's handoffs (a few us each: the serial parts between the
 * steps, the runs between two SMs) paid on nearly every wait after the 256 looks before (60
 * ns); a few us of looks, then yields, for a busy machine where the awaited thread needs the
 * CPU. */
enum { CREW_SPINS = 16384 };

static void crew_relax(unsigned spins)
{
    if (spins >= CREW_SPINS) sched_yield();
}

/* With M->weave_overlap, the runs' progress goes to the crew (*M->weave_ran, atomic): the
 * entries of the order run so far, stored every WEAVE_RAN_EVERY (a plain store on x86, which
 * takes the line back from the other core if it looked since: it follows the order entry by
 * entry, crew_follow), with WEAVE_RAN_END once the runs are over (all run, or a fault or a
 * stop came first; a faulted entry is not counted). */
#define WEAVE_RAN_END (UINT32_C(1) << 31)
enum { WEAVE_RAN_EVERY = 4 };

/* Step 1: the runs, up to a fault or a stop (M->weave_pos[s]: the entries of SM s that the
 * order reached; M->weave_fault: 1 + the SM whose last one faulted, 0: none). The merge counts
 * in weave_lim (step 3 starts its own). With M->weave_overlap, the entries run so far are
 * published (M->weave_ran) as they go. */
static void weave_runs(tm_model *M)
{
    weave_merge m;
    merge_start(&m, M, M->weave_lim, M->weave_count, M->weave_keys);
    memset(M->weave_pos, 0, M->nsm * sizeof *M->weave_pos);
    M->weave_fault = 0;
    uint32_t *ran = M->weave_overlap ? M->weave_ran : NULL, done = 0;
    /* the next n entries of the order, in a ring from `head` (not shifted at each entry) */
    enum { RING = 8 };
    _Static_assert((int)RUNS_AHEAD <= (int)RING, "the entries looked ahead fit the ring");
    tm_defer ahead[RING];
    uint32_t ahead_sm[RING], head = 0, n = 0;
    for (;;) {
        while (n < RUNS_AHEAD) {
            uint32_t at = (head + n) % RING;
            if ((ahead_sm[at] = merge_next(&m, &ahead[at])) == UINT32_MAX) break;
            n++;
        }
        if (!n || M->stop) break;
        for (uint32_t k = 1; k < n; k++)
            runs_hint(M, &ahead[(head + k) % RING], ahead_sm[(head + k) % RING], k);
        uint32_t best = ahead_sm[head];
        tm_defer d = ahead[head];
        head = (head + 1) % RING;
        n--;
        M->weave_pos[best]++;
        tm_sm *S = &M->sms[best];
        if (d.kind == TM_DEFER_RUN && !weave_exec(M, &S->warps[d.index], d.cycle)) {
            M->weave_fault = best + 1;
            break;
        }
        /* (each of the last ones: the step waits for their issue) */
        if (ran && (++done % WEAVE_RAN_EVERY == 0 || n + 1 < RUNS_AHEAD))
            __atomic_store_n(ran, done, __ATOMIC_RELEASE);
    }
    if (ran) __atomic_store_n(ran, done | WEAVE_RAN_END, __ATOMIC_RELEASE);
}

/* Step 2 on SM S for its entry d (step 1 ran it). A warp that issues its last instruction and
 * exits may leave the SM more entries (a finished CTA, at `at`) for step 3. */
static void weave_issue_entry(tm_model *M, tm_sm *S, tm_defer d, uint64_t at)
{
    if (d.kind != TM_DEFER_RUN) return;
    tm_warp *tw = &S->warps[d.index];
    if (!tw->nev && tw->ended) {
        tm_warp_exited(M, S, tw, at);
        return;
    }
    tm_warp_set_ready(S, tw, d.cycle);
    if (tw->nev && !tm_sm_issue_woven(M, S, tw, d.cycle)) {
        S->fail = true;
        return;
    }
    if (tw->done) return;
    if (tm_warp_ready(S, tw) < at) tm_warp_set_ready(S, tw, at);
    S->q_wake[d.index % M->nsched] = 0;
    if (S->wake > at) S->wake = at;
}

/* Step 2 on SM S: its first n entries (those step 1 ran, less a faulted one), in its order. */
static void weave_issue(tm_model *M, tm_sm *S, uint32_t n, uint64_t at)
{
    /* (copies: tm_warp_exited may add entries) */
    for (uint32_t k = 0; k < n && !S->fail; k++) weave_issue_entry(M, S, S->defer[k], at);
}

/* Step 2 beside step 1 (crew_follow): whether SM s's entries may issue as the runs reach them.
 * Its records are its own free lists, which weave_reserve fills, in SM order, from the shared
 * pools (their ids decide which MSHR is taken when all wait for DRAM): so it issues beside the
 * runs only when its lists already hold the most its woven instructions may take (weave_need:
 * two replies and links a lane, an instruction record a run), where weave_reserve would add
 * nothing whatever they take; the others issue after the runs, reserving in SM order as before
 * (the same records, so the same ids). Its lists change only by its own issue (after this)
 * and in the bound phase and the landing, so whichever thread looks finds the same. And what
 * its exits add to its defer list (tm_warp_exited: a warp's slice, a finished CTA) fits it, so
 * that the list stays where the runs' merge reads its later entries. */
static bool weave_follows(const tm_model *M, uint32_t s)
{
    const tm_sm *S = &M->sms[s];
    uint32_t runs = 0;
    for (uint32_t k = 0; k < M->weave_count[s]; k++)
        runs += M->weave_defer[s][k].kind == TM_DEFER_RUN;
    return S->capdefer - S->ndefer >= 2 * runs &&
           tm_mem_weave_has(&M->mem, s, 2 * EMU_WARP_SIZE * runs, runs);
}

/* Step 2's records: each SM's free lists hold what its woven instructions may take (a reply
 * and a link per line, two lines per lane at most; an instruction record each), so that the
 * SMs issue on several threads without growing the shared pools. Returns the entries step 2
 * has to take (those of SMs that did not issue beside the runs). */
static uint32_t weave_reserve(tm_model *M, uint32_t early, uint32_t entries)
{
    /* `early`: the SMs that issued beside the runs (UINT32_MAX: not counted), `entries`: those
     * that left entries (the crew's tallies). When every SM whose entries ran did, none needs
     * records: the loop below would find nothing, and it read the other core's lines
     * (weave_early) every window. The runs went through every SM's entries unless one
     * faulted or the run stopped. */
    if (early != UINT32_MAX && !M->weave_fault && !M->stop && early == entries) return 0;
    uint32_t all = 0;
    for (uint32_t s = 0; s < M->nsm; s++) {
        if (M->weave_early[s] == M->weave_window) continue;   /* beside the runs, needing none */
        uint32_t replies, insts;
        all += weave_need(M, s, M->weave_pos[s], &replies, &insts);
        if (insts) tm_mem_reserve_weave(&M->mem, s, replies, insts);
    }
    return all;
}

/* Step 3: CTA retirements and timeline slices in the weave's order: those step 1 reached, and
 * when it went through, those step 2 added (at `at`, after every other). When it went through
 * (`whole`), a finished CTA's slot only takes its next CTA of the issue order here (placing),
 * and weave_place retires and places on the host threads. Returns the slots to retire so. */
static uint32_t weave_retire(tm_model *M, uint64_t at, bool whole)
{
    weave_merge m;
    merge_start(&m, M, M->weave_lim, whole ? NULL : M->weave_pos, M->weave_keys);
    uint32_t retiring = 0;
    for (;;) {
        tm_defer d;
        uint32_t best = merge_next(&m, &d);
        if (best == UINT32_MAX) break;
        tm_sm *S = &M->sms[best];
        if (d.kind == TM_DEFER_WARP_EXIT) {
            const emu_launch *L = emu_grid_launch(M->g);
            const tm_warp *tw = &S->warps[d.index];
            uint64_t id = S->ctas[tw->cta].id;
            emu_dim3 xyz = {(uint32_t)(id % L->grid.x), (uint32_t)(id / L->grid.x % L->grid.y),
                            (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y))};
            timing_timeline_warp(M->timeline, S->id, d.index, xyz, d.index % M->warps_per_cta,
                                 tw->start, d.cycle);
        } else if (d.kind == TM_DEFER_CTA_DONE && !whole) {
            cta_done(M, S, d.index, d.cycle, at);
        } else if (d.kind == TM_DEFER_CTA_DONE) {
            tm_cta_slot *cs = &S->ctas[d.index];
            if (M->timeline) cta_slice(M, S, d.index, d.cycle);
            cs->placing = eng_issue_take(&M->E, &cs->placing_id);
            retiring++;
        }
    }
    return retiring;
}

/* The kernel's first CTAs, windowed: slot k of every SM, then slot k + 1, ... take the CTAs of
 * the issue order here (placing, on one thread), and place_first places them on the host
 * threads. Returns how many. */
static uint32_t take_first(tm_model *M)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < M->ctas_per_sm; k++)
        for (uint32_t s = 0; s < M->nsm; s++) {
            tm_cta_slot *cs = &M->sms[s].ctas[k];
            if (!eng_issue_take(&M->E, &cs->placing_id)) return n;
            cs->placing = true;
            n++;
        }
    return n;
}

/* take_first's CTAs of SMs [lo, hi) placed on host thread T, their warps ready at `ready`.
 * Where a grid fills every SM (SM s takes its last slot: slot k of every SM before k + 1),
 * each SM's share of the L2 slices' tag arrays (1.5 MiB on v100), its L1's and its MSHRs'
 * known times are faulted in here (huge.c tm_touch), beside the placing, on every host
 * thread: else the L2's pages and the MSHRs' were first touched in the memory weave's serial
 * steps, on thread 0, the tag arrays' twice (a lookup's read maps the zero page, the
 * allocation's write faults again): ~850 faults on v100 vecadd. */
static void place_first(tm_model *M, uint32_t lo, uint32_t hi, uint64_t ready, eng_thread *T)
{
    for (uint32_t s = lo; s < hi; s++) {
        if (M->ctas_per_sm && M->sms[s].ctas[M->ctas_per_sm - 1].placing) {
            tm_cache_touch_n(M->mem.l2, (uint32_t)M->gpu->l2_slices, s, M->nsm);
            tm_cache_touch_n(&M->mem.l1[s], 1, 0, 1);
            tm_touch(&M->mem.l1_mshr[(size_t)s * M->mem.mshr_cap],
                     M->mem.mshr_cap * sizeof *M->mem.l1_mshr);
        }
        for (uint32_t k = 0; k < M->ctas_per_sm; k++) {
            tm_cta_slot *cs = &M->sms[s].ctas[k];
            if (!cs->placing) continue;
            cs->placing = false;
            place_cta(M, &M->sms[s], k, cs->placing_id, ready, T);
        }
    }
}

/* Step 3's retirements on SMs [lo, hi), in each SM's order, on host thread T (its share of the
 * landing step): the slot is freed and takes the CTA step 3 took for it. They touch only their
 * SM, its engine slots and T's pool of CTA storage, and the landings after them only their SM:
 * on each SM, the order of one thread. */
static void weave_place(tm_model *M, uint32_t lo, uint32_t hi, uint64_t at, eng_thread *T)
{
    for (uint32_t s = lo; s < hi; s++) {
        tm_sm *S = &M->sms[s];
        for (uint32_t i = 0, left = S->finished; left && i < S->ndefer; i++) {
            const tm_defer *d = &S->defer[i];
            if (d->kind != TM_DEFER_CTA_DONE) continue;
            left--;
            tm_cta_slot *cs = &S->ctas[d->index];
            bool next = cs->placing;
            cs->placing = false;
            uint64_t ready = cta_free(M, S, d->index, d->cycle, at, T);
            if (next && place_cta(M, S, d->index, cs->placing_id, ready, T) && S->wake > ready)
                S->wake = ready;
        }
    }
}

/* Lends every CTA slot its registers and the storage of its first CTA's state in one block
 * (regs.c), slot k of every SM before slot k+1 of any (gslot), as the model fills them; without
 * the block the CTAs allocate their own. Allocated CTA by CTA, that state (the CTA, its warps,
 * their first SIMT entries and frames: ~9 KiB in a dozen allocations on vecadd) grew the host
 * thread's heap a page at a time: on v100 1,100 mprotect calls and as many page faults. */
static void lend_regs(tm_model *M)
{
    _Static_assert(sizeof(uint64_t) == 8, "the block in words");
    size_t regs = emu_cta_regs_words(M->g), nslots = (size_t)M->E.nsm * M->E.K;
    size_t storage = (emu_cta_storage_bytes(M->g) + 63) / 64 * 8;   /* whole lines, in words */
    size_t per_slot = regs + storage;
    M->regs = tm_regs_take(nslots * per_slot, &M->regs_words);
    for (size_t i = 0; M->regs && i < nslots; i++) {
        uint64_t *at = M->regs + M->E.slots[i].gslot * per_slot;
        M->E.slots[i].regs = at;
        M->E.slots[i].storage = at + regs;
    }
}

static void model_free(tm_model *M)
{
    if (M->sms)
        for (uint32_t s = 0; s < M->nsm; s++) {
            free(M->sms[s].scan);
            free(M->sms[s].scan_age);
            free(M->sms[s].live_bits);
            free(M->sms[s].ctas);
            free(M->sms[s].unit_free);
            free(M->sms[s].last);
            free(M->sms[s].reason);
            free(M->sms[s].q_wake);
            free(M->sms[s].qwait);
            free(M->sms[s].defer);
        }
    free(M->sms);
    tm_huge_zfree(M->warp_block, M->warp_block_bytes);
    free(M->gd_queue);
    free(M->gd_next);
    free(M->gd_end);
    free(M->weave_pos);
    free(M->weave_lim);
    free(M->weave_heap);
    free(M->weave_keys);
    free(M->weave_count);
    free(M->weave_defer);
    free(M->weave_early);
    tm_rings_give(&M->rings);
    tm_regs_give(M->regs, M->regs_words);
    free(M->sm_st);
    tm_mem_free(&M->mem);
    tm_gdl_free(M);
}

static uint64_t ctas_left(const tm_model *M)
{
    return M->trace ? M->trace->nctas - M->next_cta : eng_issue_left(&M->E);
}

/* Reports a barrier deadlock in every resident CTA none of whose warps can go on. */
static void report_deadlocks(tm_model *M)
{
    for (uint32_t s = 0; s < M->nsm; s++)
        for (uint32_t k = 0; k < M->ctas_per_sm; k++)
            if (M->sms[s].ctas[k].cta) emu_cta_report_deadlock(M->sms[s].ctas[k].cta);
}

void tm_release_barrier(tm_model *M, tm_sm *S, uint32_t k)
{
    S->ctas[k].arrived = 0;
    for (uint32_t i = 0; i < M->warps_per_cta; i++) S->warps[k * M->warps_per_cta + i].at_barrier = false;
    memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
}

/* Replay: a recorded grid completed under GPUDet, so warps all waiting at barriers are waiting
 * at ones the model takes as CTA-wide although they were not (bar.arrive, named barriers with
 * fewer threads): released, every such CTA at once. false when none waited. */
static bool release_stuck_barriers(tm_model *M, uint64_t now)
{
    bool any = false;
    for (uint32_t s = 0; s < M->nsm; s++)
        for (uint32_t k = 0; k < M->ctas_per_sm; k++)
            if (M->sms[s].ctas[k].used && M->sms[s].ctas[k].arrived) {
                tm_release_barrier(M, &M->sms[s], k);
                M->sms[s].wake = now;
                any = true;
            }
    return any;
}

/* The memory system decided a deferred completion on SM sm (memsys.c): scoreboard entries
 * holding `tag` land at t, and warps that waited for it (or for an MSHR) look again from t. */
static void tm_model_landed(void *ctx, uint32_t sm, uint64_t tag, uint64_t t)
{
    tm_model *M = ctx;
    tm_sm *S = &M->sms[sm];
    bool any = false;
    /* an instruction's tag is only in the scoreboard of the warp that issued it; a freed MSHR
     * wakes the warps waiting with ready == TM_NEVER, which can_issue marked (where it alone
     * sets that) */
    uint32_t waiter = tag ? *tm_mem_waiter(&M->mem, tag) : 0;
    if (!tag && !M->trace && !M->kilotm && S->nwarps <= 64) {
        for (uint64_t mk = S->never_mask; mk; mk &= mk - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(mk);
            /* by its scan entry: the warp's own state is out of the host's cache by now */
            uint32_t ix = tm_scan_index(S, i, M->nsched);
            tm_scan *e = &S->scan[ix];
            if (!e->occupied || e->ready != TM_NEVER) continue;
            tm_scan_unwait(S, ix);
            e->ready = t;
            any = true;
            if (S->q_wake[i % M->nsched] > t) S->q_wake[i % M->nsched] = t;
        }
        S->never_mask = 0;   /* each woken, or no longer waiting so */
        if (any && S->wake > t) S->wake = t;
        return;
    }
    uint32_t lo = waiter ? waiter - 1 : 0, hi = waiter ? waiter : S->nwarps;
    for (uint32_t i = lo; i < hi; i++) {
        tm_warp *tw = &S->warps[i];
        if (!tw->occupied) continue;
        bool mine = !tag;
        for (uint32_t j = 0; tag && j < tw->nsb; j++)
            if (tw->sb[j].ready == tag) {
                tw->sb[j].ready = t;
                mine = true;
            }
        if (mine && tm_warp_ready(S, tw) == TM_NEVER) {
            tm_warp_set_ready(S, tw, t);
            any = true;
            if (S->q_wake[i % M->nsched] > t) S->q_wake[i % M->nsched] = t;
        }
    }
    if (M->trace && tag && t > M->q_drain) M->q_drain = t;   /* replay's (one host thread) */
    if (any && S->wake > t) S->wake = t;
}

/* A landing for warp slot waiter - 1 of SM sm comes soon (memsys.c tm_mem_weave_land):
 * tm_model_landed reads the warp's state and scoreboard, its first two lines, long untouched. */
static void tm_model_landing_soon(void *ctx, uint32_t sm, uint32_t waiter)
{
    const tm_model *M = ctx;
    const char *tw = (const char *)&M->sms[sm].warps[waiter - 1];
    __builtin_prefetch(tw);
    __builtin_prefetch(tw + 64);
}

/* Bound phase: SM S runs the cycles of the window [from, end) by itself (its issue stage, its
 * side of memory, its warps' SM-local runs); what crosses SMs waits for the weave. */
static void sm_window(tm_model *M, tm_sm *S, uint64_t from, uint64_t end)
{
    uint64_t now = from;
    while (now < end && !S->fail && !M->stop) {
        if (!S->resident || S->resident == S->finished) {
            S->tried = TM_NEVER;   /* no CTA, or only finished ones waiting for the weave: idle */
            return;
        }
        if (S->wake > now) {
            now = S->wake;
            continue;
        }
        /* the cycles it was skipped issued nothing, for the reasons of the last one tried */
        if (S->tried != TM_NEVER && now > S->tried + 1)
            for (uint32_t q = 0; q < M->nsched; q++)
                S->st.slots[S->reason[q]] += now - S->tried - 1;
        uint64_t wake = TM_NEVER;
        uint32_t n = tm_sm_cycle(M, S, now, &wake, &S->fail);
        S->tried = now;
        S->wake = n ? now + 1 : wake;
        now = S->wake > now ? S->wake : now + 1;
    }
}

/* What a window's loop needs to know of all the SMs, added up by each host thread over the
 * items it did (in a line of its own), so that thread 0 reads a few tallies, not every SM's
 * line (half of them last written by the other core) several times a window. From the bound
 * phase through step 2: */
typedef struct crew_tally {
    _Alignas(64) bool runs;   /* an SM left entries for the weave */
    bool fail;                /* a warp of an SM faulted */
    uint32_t retiring;        /* CTAs finished (tm_sm.finished) */
    uint32_t requests;        /* requests in the SMs' outboxes not taken yet */
    uint32_t early;           /* SMs whose step 2 ran beside the runs */
    uint32_t entries;         /* SMs that left entries for the weave */
    /* from the landing step: an SM has CTAs; the least wake of those that have; the SMs
     * whose next window's bound phase ran there (bound_ahead) */
    bool busy;
    uint64_t next;
    uint32_t bounded;
} crew_tally;

/* SM S's window is over (after its landings): its entries are done with, and tally y learns
 * whether it has CTAs and when it next may change. */
static void window_done(tm_sm *S, crew_tally *y)
{
    S->ndefer = 0;
    if (!S->resident) return;
    y->busy = true;
    if (S->wake < y->next) y->next = S->wake;
}

/* The host threads of a window's parallel steps (the calling thread is thread 0). A step is a
 * list of items: SMs (the bound phase, the weave's issue, placement and landing, the first
 * CTAs), DRAM channels with their L2 slices (the memory weave), or a serial part (item 0:
 * the weave's runs, or step 3) beside what may go with it (the channels' DRAM decisions, or
 * the requests' order). Thread t takes the items of its own range in order (SMs and channels
 * [t * n / threads, (t + 1) * n / threads); item 0 is thread 0's, the rest the others'), then,
 * from the end, the items of the other ranges their threads have not reached yet. An item's
 * work is the same whichever thread does it (its SM's or channel's state only; a CTA's storage
 * comes from the pool of the thread that builds it, which changes nothing), so results do not
 * depend on who took what. Why: a window's work is uneven over the SMs (timing/model/README.md
 * "As built"), and a thread the system does not run for a while (a busy machine) only delays
 * the items it already took: thread 0 publishes a step and does what nobody has taken; the
 * step ends when every item is done, with no meeting of all the threads. */
enum crew_job { CREW_PLACE, CREW_BOUND, CREW_RUNS, CREW_ISSUE, CREW_RETIRE, CREW_MEMORY, CREW_LAND };

typedef struct tm_crew {
    tm_model *M;
    uint32_t n;
    pthread_t *tids;
    /* A window is a few microseconds of work: threads wait for a step, or for its last items,
     * spinning (sleeping costs more than the window on a busy machine), then yielding
     * (crew_relax). */
    uint64_t step;       /* atomic: steps published; a thread takes items of the one it saw */
    /* atomic: items of the current step done (each thread adds its own when it has done
     * them); in a line of its own, away from `step` that idle threads spin on */
    _Alignas(64) uint32_t done;
    _Alignas(64) uint64_t *claim;   /* per item: the step that took it (threads > 1) */
    uint32_t nclaim;
    /* the step's (written by thread 0 before publishing it; read atomically before an item is
     * taken, since a thread late by a step may read them while they change) */
    int job;             /* crew_job */
    uint32_t items;
    uint64_t from, end;
    bool quit;
    bool go;             /* n is final: the threads created may start */
    uint32_t finished;   /* atomic: the threads created that are done (their last access) */
    bool retire;         /* CREW_RETIRE: step 3 has work (else its item does nothing) */
    crew_tally *tally;   /* per host thread */
    uint32_t reserve;    /* records each SM holds for a window's issue (tm_mem_reserve) */
    /* per SM: the window (its first cycle) whose bound phase ran in the landing step before it
     * (bound_ahead), written by the thread that took the SM's item */
    uint64_t *bound_from;
    /* CREW_RETIRE: the step whose requests tm_mem_weave_begin has ordered (atomic; the
     * channels' items wait for it), the step whose replies tm_mem_weave_end has ordered (the
     * landings wait for it), and the step's items before it done (atomic: the thread that
     * does the last runs tm_mem_weave_end); in a line of their own; and the step whose step 3
     * is over (the placements wait for it, not for step 6: crew_share places ahead) */
    _Alignas(64) uint64_t begun;
    uint64_t ended;
    uint64_t retired;
    uint32_t before_end;
    /* CREW_RUNS: the runs' progress (M->weave_ran: written by the runs' thread alone, in a line
     * of its own), and crew_follow's merge and per SM whether it issues beside the runs */
    _Alignas(64) uint32_t ran;
    _Alignas(64) uint32_t *follow_pos;
    uint64_t *follow_heap;
    uint8_t *follow;
} tm_crew;

typedef struct tm_crew_arg { tm_crew *c; uint32_t t; } tm_crew_arg;

/* Thread t's own items of the step: [*lo, *hi). */
static void crew_range(const tm_crew *c, uint32_t t, uint32_t *lo, uint32_t *hi)
{
    uint32_t n = __atomic_load_n(&c->items, __ATOMIC_ACQUIRE);
    int job = __atomic_load_n(&c->job, __ATOMIC_ACQUIRE);
    if (c->n == 1) {
        *lo = 0;
        *hi = n;
    } else if (job == CREW_RUNS) {
        uint32_t rest = n ? n - 1 : 0, k = c->n - 1;
        *lo = t ? 1 + (uint32_t)((uint64_t)(t - 1) * rest / k) : 0;
        *hi = t ? 1 + (uint32_t)((uint64_t)t * rest / k) : (n ? 1 : 0);
    } else {
        *lo = (uint32_t)((uint64_t)t * n / c->n);
        *hi = (uint32_t)((uint64_t)(t + 1) * n / c->n);
    }
}

/* Item i of step k for this thread: false when another took it, or step k is over (every item
 * of a step is taken before it ends, so a thread late by a step takes nothing). */
static bool crew_claim(tm_crew *c, uint32_t i, uint64_t k)
{
    if (c->n == 1) return true;
    uint64_t v = __atomic_load_n(&c->claim[i], __ATOMIC_RELAXED);
    while (v < k)
        if (__atomic_compare_exchange_n(&c->claim[i], &v, k, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            return true;
    return false;
}

/* SM s's first n entries issue (step 2) on host thread t, its tally counting what that adds. */
static void crew_issue(tm_crew *c, uint32_t t, uint32_t s, uint32_t n)
{
    tm_model *M = c->M;
    tm_sm *S = &M->sms[s];
    uint32_t finished = S->finished, nout = M->mem.nout[s];
    weave_issue(M, S, n, c->end);
    c->tally[t].retiring += S->finished - finished;
    c->tally[t].requests += M->mem.nout[s] - nout;
    c->tally[t].fail |= S->fail;
}

/* SM i's bound phase of the window [from, end) on host thread t, its tally counting what it
 * leaves for the weave. */
static void bound_item(tm_crew *c, uint32_t t, uint32_t i, uint64_t from, uint64_t end)
{
    tm_model *M = c->M;
    tm_sm *S = &M->sms[i];
    crew_tally *y = &c->tally[t];
    sm_window(M, S, from, end);
    M->weave_count[i] = S->ndefer;   /* (for the weave's runs) */
    y->runs |= S->ndefer != 0;
    y->entries += S->ndefer != 0;
    y->fail |= S->fail;
    y->retiring += S->finished;
    y->requests += M->mem.nout[i] - M->mem.outpos[i];
}

/* SM i's window is over (landing step, on host thread t): where what the window loop does
 * before the next window's bound phase cannot change what SM i does in it, that bound phase
 * runs here at once, on the same thread (its state still in this core's cache), with no
 * handoff between the steps. The next window is [end, end + W) whenever some SM may issue in
 * it, and for SM i it is then certain: if its wake lies inside, the loop cannot skip that
 * window; if not, sm_window changes nothing in [end, end + W) (an idle SM's `tried` is only
 * set again), whatever the next window is. Between the steps the loop only ends the run
 * (kernel over, deadlock, a stop), which no SM's bound phase changes, and tm_mem_reserve
 * adds records, in SM order: an SM whose lists it would leave as they are (tm_mem_reserved)
 * takes the same records whether the others' are added before or after (the window loop
 * leaves out the SMs bounded here). */
static void bound_ahead(tm_crew *c, uint32_t t, uint32_t i)
{
    tm_model *M = c->M;
    if (M->sms[i].fail || M->stop || !tm_mem_reserved(&M->mem, i, c->reserve)) return;
    bound_item(c, t, i, c->end, c->end + M->win);
    c->bound_from[i] = c->end;
    c->tally[t].bounded++;
}

/* CREW_RETIRE: a thread has done n items before step 6, all it could take of them (counted
 * once per thread, not per item: the threads' increments took the line from each other item
 * by item, 34 times a window on v100); the thread whose count completes them runs step 6 (the
 * replies' order), for the landings after it. */
static void crew_before_end(tm_crew *c, uint64_t k, uint32_t n)
{
    uint32_t nch = (uint32_t)c->M->gpu->dram_channels;
    if (__atomic_add_fetch(&c->before_end, n, __ATOMIC_ACQ_REL) != 2 + nch) return;
    tm_mem_weave_end(&c->M->mem);
    __atomic_store_n(&c->ended, k, __ATOMIC_RELEASE);
}

/* CREW_RETIRE's item 1, step 4 (step k): the window's requests in order, for the channels. */
static void crew_begin(tm_crew *c, uint64_t k)
{
    tm_mem_weave_begin(&c->M->mem, c->end);
    __atomic_store_n(&c->begun, k, __ATOMIC_RELEASE);
}

/* Step 7 on SM s (host thread t) after its CTAs' placement: its replies landed, its window
 * over, and its next window's bound phase where it can. */
static void land_rest(tm_crew *c, uint32_t t, uint32_t s)
{
    tm_model *M = c->M;
    tm_mem_weave_land(&M->mem, s, s + 1);
    window_done(&M->sms[s], &c->tally[t]);
    bound_ahead(c, t, s);
}

/* Step 7 on SM s (host thread t): its CTAs placed, then the rest. */
static void land_item(tm_crew *c, uint32_t t, uint32_t s)
{
    weave_place(c->M, s, s + 1, c->end, &c->M->E.threads[t]);
    land_rest(c, t, s);
}

/* CREW_RETIRE's step 7, its first part on SM s (host thread t, which took its item of step k):
 * its CTAs retired and placed. They need step 3 (which CTA each slot takes), not step 6 (the
 * replies' order): nothing of step 6 or of the channels is an SM's CTA, warp or slot, so a
 * thread waiting for step 6 places ahead (crew_share), and lands after it (land_rest). */
static void land_place(tm_crew *c, uint32_t t, uint32_t s, uint64_t k)
{
    for (unsigned spins = 0; __atomic_load_n(&c->retired, __ATOMIC_ACQUIRE) != k; spins++)
        crew_relax(spins);
    weave_place(c->M, s, s + 1, c->end, &c->M->E.threads[t]);
}

/* Waits for step k's step 6, then lands the SMs of the landing items ahead[0..*n) that
 * land_place placed ahead. */
static void land_ahead(tm_crew *c, uint32_t t, const uint32_t *ahead, uint32_t *n, uint64_t k)
{
    if (!*n) return;
    for (unsigned spins = 0; __atomic_load_n(&c->ended, __ATOMIC_ACQUIRE) != k; spins++)
        crew_relax(spins);
    for (uint32_t j = 0; j < *n; j++) land_rest(c, t, ahead[j]);
    *n = 0;
}

/* CREW_RUNS' item i >= 2: the DRAM decisions of a channel, the last first, so that the thread
 * that follows the runs (item 1, thread 1's range) decides the channels its step 5 serves (the
 * upper half: crew_share's halves of CREW_RETIRE) and thread 0, after its runs, taking the other
 * items from the end, those from channel 0 up, which its step 5 serves: each channel's DRAM
 * queues and banks stay in one core's caches between the two steps. */
static uint32_t runs_channel(const tm_model *M, uint32_t i)
{
    assert(i >= 2 && i < 2 + (uint32_t)M->gpu->dram_channels);
    return (uint32_t)M->gpu->dram_channels + 1 - i;
}

/* CREW_RUNS' item 1 (step k, host thread t): step 2 beside step 1, entry by entry. It makes
 * the weave's order again (its own merge) and follows the runs' progress: each entry they have
 * run issues at once on its SM (weave_issue's, in each SM's order), where weave_follows lets
 * the SM's entries issue beside the runs (decided at its first: M->weave_early); the others
 * issue after the runs (CREW_ISSUE). An SM's issue touches only its own state and the warp it
 * issues (the runs touch the program's memory and their own warps: a warp runs once a window),
 * and its exits add entries past those the runs' merge reads, in the list's room. While the
 * runs have nothing new, it makes the channels' DRAM decisions (items 2 on). The runs' thread
 * reads nothing of it as it goes: what it wrote is read after the step. Returns the items done
 * (this one and the decisions). */
enum { FOLLOW_UNSEEN, FOLLOW_BESIDE, FOLLOW_AFTER };

static uint32_t crew_follow(tm_crew *c, uint32_t t, uint64_t k)
{
    tm_model *M = c->M;
    crew_tally *y = &c->tally[t];
    uint32_t decide = 2, last = 1 + (uint32_t)M->gpu->dram_channels, did = 1;
    weave_merge m;
    merge_start(&m, M, c->follow_pos, M->weave_count, c->follow_heap);
    memset(c->follow, FOLLOW_UNSEEN, M->nsm);
    uint32_t g = 0, ran = 0;
    for (unsigned spins = 0;;) {
        if (g == (ran & ~WEAVE_RAN_END)) {
            ran = __atomic_load_n(&c->ran, __ATOMIC_ACQUIRE);
            if (g != (ran & ~WEAVE_RAN_END)) {
                spins = 0;   /* (a wait counts its own looks, as the crew's do) */
            } else {
                if (ran & WEAVE_RAN_END) break;
                if (decide <= last) {
                    uint32_t i = decide++;
                    if (crew_claim(c, i, k)) {
                        uint32_t ch = runs_channel(M, i);
                        tm_mem_weave_decide(&M->mem, ch, ch + 1, c->end);
                        did++;
                    }
                    spins = 0;
                } else {
                    crew_relax(spins++);
                }
                continue;
            }
        }
        tm_defer d;
        uint32_t s = merge_next(&m, &d);
        assert(s != UINT32_MAX);
        g++;
        if (c->follow[s] == FOLLOW_UNSEEN) {
            c->follow[s] = weave_follows(M, s) ? FOLLOW_BESIDE : FOLLOW_AFTER;
            if (c->follow[s] == FOLLOW_BESIDE) {
                M->weave_early[s] = M->weave_window;
                y->early++;
            }
        }
        tm_sm *S = &M->sms[s];
        if (c->follow[s] != FOLLOW_BESIDE || S->fail) continue;
        uint32_t finished = S->finished, nout = M->mem.nout[s];
        weave_issue_entry(M, S, d, c->end);
        y->retiring += S->finished - finished;
        y->requests += M->mem.nout[s] - nout;
        y->fail |= S->fail;
    }
    return did;
}

/* Item i of step k, on host thread t. Returns the items it did: 1, 2 where it also took
 * CREW_RETIRE's item 1, more for CREW_RUNS' item 1 (crew_follow). */
static uint32_t crew_item(tm_crew *c, uint32_t t, uint32_t i, uint64_t k)
{
    tm_model *M = c->M;
    switch (c->job) {
    case CREW_RUNS:
        if (i == 0) weave_runs(M);
        else if (i == 1) return crew_follow(c, t, k);
        else {
            uint32_t ch = runs_channel(M, i);
            tm_mem_weave_decide(&M->mem, ch, ch + 1, c->end);
        }
        break;
    case CREW_RETIRE:
        /* step 3 (item 0) beside step 4 (item 1), then step 5 (a channel each): a channel's
         * item that finds step 4 not taken yet takes it (the thread that had it may not be
         * running), else waits for it */
        if (i == 0) {
            if (c->retire) weave_retire(M, c->end, true);
            __atomic_store_n(&c->retired, k, __ATOMIC_RELEASE);
        } else if (i == 1) {
            crew_begin(c, k);
        } else if (i < 2 + (uint32_t)M->gpu->dram_channels) {
            bool took = __atomic_load_n(&c->begun, __ATOMIC_ACQUIRE) != k && crew_claim(c, 1, k);
            if (took) crew_begin(c, k);
            for (unsigned spins = 0; __atomic_load_n(&c->begun, __ATOMIC_ACQUIRE) != k; spins++)
                crew_relax(spins);
            tm_mem_weave_channels(&M->mem, i - 2, i - 1, c->end);
            if (took) return 2;
        } else {
            /* (every item before step 6 was taken before this thread took a landing: those it
             * waits for run on threads that took them) */
            uint32_t s = i - 2 - (uint32_t)M->gpu->dram_channels;
            land_place(c, t, s, k);
            for (unsigned spins = 0; __atomic_load_n(&c->ended, __ATOMIC_ACQUIRE) != k; spins++)
                crew_relax(spins);
            land_rest(c, t, s);
        }
        break;
    case CREW_MEMORY:
        tm_mem_weave_channels(&M->mem, i, i + 1, c->end);
        break;
    case CREW_PLACE:
        place_first(M, i, i + 1, c->from, &M->E.threads[t]);
        break;
    case CREW_LAND:
        land_item(c, t, i);
        break;
    case CREW_ISSUE: {
        uint32_t n = M->weave_pos[i] - (M->weave_fault == i + 1);
        if (n && M->weave_early[i] != M->weave_window) crew_issue(c, t, i, n);   /* (else beside the runs) */
        break;
    }
    default:
        if (c->bound_from[i] != c->from) bound_item(c, t, i, c->from, c->end);   /* (else done) */
        break;
    }
    return 1;
}

/* Thread t's part of step k: its own items, then the others' last ones. The items it did
 * count in `done` at the end, at once: one write of the shared line per thread and step, not
 * one per item (the threads' increments took the line from each other item by item). */
static void crew_share(tm_crew *c, uint32_t t, uint64_t k)
{
    uint32_t lo, hi, did = 0;
    if (__atomic_load_n(&c->job, __ATOMIC_ACQUIRE) == CREW_RETIRE) {
        /* two parts split over the threads each: steps 3 to 5, then the landings, which wait
         * for step 6: every item of the first part is taken before a thread takes a landing */
        uint32_t first = 2 + (uint32_t)c->M->gpu->dram_channels;
        uint32_t parts[3] = {0, first, __atomic_load_n(&c->items, __ATOMIC_ACQUIRE)};
        for (int p = 0; p < 2; p++) {
            uint32_t n = parts[p + 1] - parts[p];
            for (uint32_t d = 0; d < c->n; d++) {
                uint32_t u = (t + d) % c->n;
                lo = parts[p] + (uint32_t)((uint64_t)u * n / c->n);
                hi = parts[p] + (uint32_t)((uint64_t)(u + 1) * n / c->n);
                if (!d && p == 1) {
                    /* its own landings: while step 6 is not over, taken and placed ahead
                     * (at most LAND_AHEAD, which the others can no longer take from it),
                     * then landed */
                    enum { LAND_AHEAD = 16 };
                    uint32_t ahead[LAND_AHEAD], nahead = 0;
                    for (uint32_t i = lo; i < hi; i++) {
                        if (!crew_claim(c, i, k)) continue;
                        if (nahead < LAND_AHEAD &&
                            __atomic_load_n(&c->ended, __ATOMIC_ACQUIRE) != k) {
                            land_place(c, t, i - first, k);
                            ahead[nahead++] = i - first;
                            did++;
                            continue;
                        }
                        land_ahead(c, t, ahead, &nahead, k);
                        did += crew_item(c, t, i, k);
                    }
                    land_ahead(c, t, ahead, &nahead, k);
                } else if (!d) {
                    for (uint32_t i = lo; i < hi; i++)
                        if (crew_claim(c, i, k)) did += crew_item(c, t, i, k);
                } else {
                    for (uint32_t i = hi; i-- > lo && crew_claim(c, i, k);)
                        did += crew_item(c, t, i, k);
                }
            }
            if (p == 0 && did) crew_before_end(c, k, did);
        }
        if (did) __atomic_add_fetch(&c->done, did, __ATOMIC_RELEASE);
        return;
    }
    crew_range(c, t, &lo, &hi);
    for (uint32_t i = lo; i < hi; i++)
        if (crew_claim(c, i, k)) did += crew_item(c, t, i, k);
    for (uint32_t d = 1; d < c->n; d++) {
        crew_range(c, (t + d) % c->n, &lo, &hi);
        for (uint32_t i = hi; i-- > lo && crew_claim(c, i, k);) did += crew_item(c, t, i, k);
    }
    if (c->n > 1 && did) __atomic_add_fetch(&c->done, did, __ATOMIC_RELEASE);
}

static void *crew_main(void *p)
{
    tm_crew_arg *a = p;
    tm_crew *c = a->c;
    emu_jit_device_thread();
    while (!__atomic_load_n(&c->go, __ATOMIC_ACQUIRE)) sched_yield();
    uint64_t seen = 0;
    for (;;) {
        uint64_t k;
        for (unsigned spins = 0; (k = __atomic_load_n(&c->step, __ATOMIC_ACQUIRE)) == seen; spins++)
            crew_relax(spins);
        if (__atomic_load_n(&c->quit, __ATOMIC_RELAXED)) break;
        seen = k;
        crew_share(c, a->t, k);
    }
    eng_thread_pool_free(&c->M->E.threads[a->t]);   /* (beside thread 0's: run_windows) */
    __atomic_add_fetch(&c->finished, 1, __ATOMIC_RELEASE);   /* (c and a are gone after) */
    return NULL;
}

/* The step's parameters (thread 0, no step running). */
static void crew_set(tm_crew *c, int job, uint64_t from, uint64_t end)
{
    uint32_t items = c->M->nsm;
    if (job == CREW_MEMORY) items = (uint32_t)c->M->gpu->dram_channels;
    if (job == CREW_RUNS) items = 2 + (uint32_t)c->M->gpu->dram_channels;
    if (job == CREW_RETIRE) items = 2 + (uint32_t)c->M->gpu->dram_channels + c->M->nsm;
    __atomic_store_n(&c->job, job, __ATOMIC_RELEASE);
    __atomic_store_n(&c->items, items, __ATOMIC_RELEASE);
    __atomic_store_n(&c->from, from, __ATOMIC_RELEASE);
    __atomic_store_n(&c->end, end, __ATOMIC_RELEASE);
}

/* One step of the window [from, end) on the crew (crew_job): the first CTAs' placement, the
 * SMs' bound phase, the weave's runs beside the channels' DRAM decisions, the SMs' issue of
 * the runs, the CTAs' retirement beside the requests' ordering, the memory weave's channels,
 * or the placements and the replies' landing. Returns when every item is done. */
static void crew_step(tm_crew *c, int job, uint64_t from, uint64_t end)
{
    crew_set(c, job, from, end);
    if (c->n == 1) {
        crew_share(c, 0, 0);
        return;
    }
    __atomic_store_n(&c->done, 0, __ATOMIC_RELAXED);
    uint64_t k = c->step + 1;
    __atomic_store_n(&c->step, k, __ATOMIC_RELEASE);
    crew_share(c, 0, k);
    for (unsigned spins = 0; __atomic_load_n(&c->done, __ATOMIC_ACQUIRE) < c->items; spins++)
        crew_relax(spins);
    /* every claim slot is at k or later once step k is over, those of no item of it too: a
     * thread late by a step, reading the next step's items, takes none of them */
    for (uint32_t i = c->items; i < c->nclaim; i++) __atomic_store_n(&c->claim[i], k, __ATOMIC_RELEASE);
}

/* A step of the weave with little to do runs on the calling thread alone (publishing it would
 * cost more; which thread does the work changes nothing). false when it had none (its items
 * did not run). */
static bool crew_step_small(tm_crew *c, int job, uint64_t from, uint64_t end, uint32_t work)
{
    enum { CREW_MIN_WORK = 16 };
    if (work >= CREW_MIN_WORK || c->n == 1) {
        crew_step(c, job, from, end);
        return true;
    }
    if (!work) return false;
    crew_set(c, job, from, end);
    for (uint32_t i = 0; i < c->items; i++) crew_item(c, 0, i, 0);
    return true;
}

/* What crew_tallies clears for the next ones: nothing, all, or the landing step's only (the
 * bound phase's that ran in it, bound_ahead, are the next window's) */
enum { TALLY_KEEP, TALLY_CLEAR, TALLY_CLEAR_LAND };

/* The tallies added up (thread 0, no step running), then cleared as `clear` says. */
static crew_tally crew_tallies(tm_crew *c, int clear)
{
    crew_tally all = {.next = TM_NEVER};
    for (uint32_t t = 0; t < c->n; t++) {
        crew_tally *y = &c->tally[t];
        all.runs |= y->runs;
        all.fail |= y->fail;
        all.retiring += y->retiring;
        all.requests += y->requests;
        all.early += y->early;
        all.entries += y->entries;
        all.busy |= y->busy;
        if (y->next < all.next) all.next = y->next;
        all.bounded += y->bounded;
        if (clear == TALLY_CLEAR) {
            *y = (crew_tally){.next = TM_NEVER};
        } else if (clear == TALLY_CLEAR_LAND) {
            y->busy = false;
            y->next = TM_NEVER;
            y->bounded = 0;
        }
    }
    return all;
}

/* Execution-driven runs: window after window, the bound phase (SMs, in parallel on the host
 * threads) then the weave (its steps above and memsys.c's, on one or all host threads). false
 * when a warp faulted, the run stopped or deadlocked; *now: the kernel's last cycle. */
static bool run_windows(tm_model *M, uint64_t start, uint64_t *now)
{
    crew_tally one = {.next = TM_NEVER};
    tm_crew c = {.M = M, .n = M->nthreads < M->nsm ? M->nthreads : M->nsm, .tally = &one};
    M->weave_ran = &c.ran;
    tm_crew_arg *args = NULL;
    if (c.n > 1) {
        c.tids = calloc(c.n, sizeof *c.tids);
        args = calloc(c.n, sizeof *args);
        c.tally = aligned_alloc(64, c.n * sizeof *c.tally);
        uint32_t nch = (uint32_t)M->gpu->dram_channels;
        c.nclaim = 2 + nch + M->nsm;   /* CREW_RETIRE's items with the landings, the most */
        /* whole lines: each thread's range of claims in lines of its own */
        size_t cbytes = ((size_t)c.nclaim * sizeof *c.claim + 63) / 64 * 64;
        c.claim = aligned_alloc(64, cbytes);
        if (c.claim) memset(c.claim, 0, cbytes);
        c.follow_pos = malloc(M->nsm * sizeof *c.follow_pos);
        c.follow_heap = malloc(M->nsm * sizeof *c.follow_heap);
        c.follow = malloc(M->nsm);
        if (!c.tids || !args || !c.claim || !c.tally || !c.follow_pos || !c.follow_heap ||
            !c.follow) {
            free(c.tids);
            free(args);
            free(c.claim);
            free(c.tally);
            free(c.follow_pos);
            free(c.follow_heap);
            free(c.follow);
            c.follow_pos = NULL;
            c.follow_heap = NULL;
            c.follow = NULL;
            c.claim = NULL;
            c.tally = &one;
            c.n = 1;
        } else {
            for (uint32_t t = 0; t < c.n; t++) c.tally[t] = (crew_tally){.next = TM_NEVER};
            uint32_t made = 1;
            for (uint32_t t = 1; t < c.n; t++) {
                args[t] = (tm_crew_arg){&c, t};
                if (pthread_create(&c.tids[t], NULL, crew_main, &args[t])) break;
                made++;
            }
            /* where the system gives fewer threads, fewer share the SMs: the same windows, so
             * the same cycles and results */
            c.n = made;
            __atomic_store_n(&c.go, true, __ATOMIC_RELEASE);
        }
    }
    /* a window's issue takes at most this many reply and link records per SM */
    uint32_t reserve = (uint32_t)(M->win * M->nsched * (uint64_t)M->gpu->issue_per_sched * 2 * EMU_WARP_SIZE);
    c.reserve = reserve;
    c.bound_from = malloc(M->nsm * sizeof *c.bound_from);
    bool *skip = malloc(M->nsm);
    if (!c.bound_from || !skip) {
        emu_grid_abort(M->E.g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the cycle model's window");
        M->stop = true;
    }
    for (uint32_t s = 0; c.bound_from && s < M->nsm; s++) c.bound_from[s] = TM_NEVER;
    /* the SMs whose bound phase of window `ahead_from` ran in the last landing step */
    uint32_t ahead = 0;
    uint64_t ahead_from = TM_NEVER;
    uint64_t from = start;
    if (!M->stop) crew_step_small(&c, CREW_PLACE, start, start, take_first(M));
    bool ok = !M->stop;
    while (ok) {
        uint64_t end = from + M->win;
        uint32_t bounded = from == ahead_from ? ahead : 0;
        if (bounded < M->nsm) {   /* (else every SM's ran in the landing step) */
            for (uint32_t s = 0; bounded && s < M->nsm; s++) skip[s] = c.bound_from[s] == from;
            tm_mem_reserve(&M->mem, reserve, bounded ? skip : NULL);
            M->mem.in_bound = true;
            crew_step(&c, CREW_BOUND, from, end);
            M->mem.in_bound = false;
        }
        *now = end;
        crew_tally y = crew_tallies(&c, TALLY_KEEP);
        ok = !y.fail;   /* (a stop alone ends the run with ok: tm_run tells it apart) */
        if (!ok || M->stop) break;
        /* the weave (above weave_exec): runs in one order, issue on the host threads, CTAs */
        M->weave_window++;   /* (no SM's weave_early is of it yet) */
        M->weave_overlap = c.n > 1 && y.runs;
        __atomic_store_n(&c.ran, 0, __ATOMIC_RELAXED);   /* (before the step is published) */
        crew_tally ran = {.early = UINT32_MAX};   /* (one thread: not counted) */
        if (M->weave_overlap) {
            tm_mem_weave_open(&M->mem);
            crew_step(&c, CREW_RUNS, from, end);
            M->weave_overlap = false;
            ran = crew_tallies(&c, TALLY_KEEP);
        } else {
            weave_runs(M);
        }
        crew_step_small(&c, CREW_ISSUE, from, end, weave_reserve(M, ran.early, ran.entries));
        /* CTAs to retire, requests to take: the SMs' after the bound phase and step 2 */
        y = crew_tallies(&c, TALLY_CLEAR);
        bool whole = !M->weave_fault && !M->stop && !y.fail;
        uint32_t mem_work = 0;
        /* step 3 only when it has work (finished CTAs, or the timeline's warp slices): else its
         * merge of every entry of the window, on one thread, changes nothing */
        bool retire = y.retiring || timing_timeline_wants_warps(M->timeline);
        if (whole && c.n > 1) {
            /* steps 3 to 7 in one crew step (CREW_RETIRE: one handoff, not three) */
            c.retire = retire;
            c.before_end = 0;   /* (before the step is published) */
            crew_step(&c, CREW_RETIRE, from, end);
        } else {
            if (retire) weave_retire(M, end, whole);
            if (whole) mem_work = tm_mem_weave_begin(&M->mem, end);
            if (!whole && !M->stop) {
                ok = false;
                break;
            }
            /* L2 slices and DRAM channels on the host threads (tm_mem_weave's steps), then
             * each SM's retirements and placements and its replies' landing; a stop in the
             * CTAs' placement (out of memory) comes after the requests were taken */
            if (M->stop && !whole) break;
            crew_step_small(&c, CREW_MEMORY, from, end, mem_work);
            /* the landing step's items end each SM's window (tm_mem_weave_land's outbox, then
             * window_done) and run its next window's bound phase where they can (bound_ahead:
             * only its own records are taken, as in the bound phase) */
            tm_mem_weave_end(&M->mem);
            M->mem.in_bound = true;
            crew_step(&c, CREW_LAND, from, end);
            M->mem.in_bound = false;
        }
        y = crew_tallies(&c, TALLY_CLEAR_LAND);
        ahead = y.bounded;
        ahead_from = end;
        if (M->stop) {
            /* the watchdog's stop came in a bound phase that ran ahead (the landing runs no
             * instruction; a stop before would have ended the loop): it ends the run as in the
             * bound phase's step */
            if (ahead && timing_watchdog_fired(&M->wd)) {
                *now = end + M->win;
                ok = !y.fail;
            }
            break;
        }
        uint64_t next = y.next;
        if (!y.busy && !ctas_left(M)) {
            uint64_t last = 0;
            for (uint32_t s = 0; s < M->nsm; s++)
                if (M->sms[s].last_exit > last) last = M->sms[s].last_exit;
            *now = last;   /* the kernel ends with its last warp */
            break;
        }
        if (tm_mem_busy(&M->mem) && next > end) next = end;
        if (next == TM_NEVER) {
            report_deadlocks(M);
            ok = false;
            break;
        }
        from = next <= end ? end : start + (next - start) / M->win * M->win;
        /* the bound phases that ran ahead changed nothing (no SM may issue before `from`):
         * their tallies go, the next window's bound phase counts again */
        if (from != end && ahead) crew_tallies(&c, TALLY_CLEAR);
    }
    if (c.n > 1) {
        __atomic_store_n(&c.quit, true, __ATOMIC_RELAXED);
        __atomic_store_n(&c.step, c.step + 1, __ATOMIC_RELEASE);
        /* the CTAs each thread kept for reuse are destroyed there, all threads at once (on one
         * thread, eng_fini's loop over the pools was ~0.35 ms of the kernel's serial end) */
        eng_thread_pool_free(&M->E.threads[0]);
        /* the threads are done with the run once they say so: their exit (the system's
         * release of a thread, ~0.05 ms) is not waited for */
        for (unsigned spins = 0; __atomic_load_n(&c.finished, __ATOMIC_ACQUIRE) < c.n - 1; spins++)
            crew_relax(spins);
        for (uint32_t t = 1; t < c.n; t++) pthread_detach(c.tids[t]);
    }
    M->weave_ran = NULL;
    free(c.tids);
    free(c.claim);
    free(c.follow_pos);
    free(c.follow_heap);
    free(c.follow);
    free(c.bound_from);
    free(skip);
    if (c.tally != &one) free(c.tally);
    free(args);
    return ok;
}

bool timing_run_cycles(emu_grid *g, const timing_engine_config *cfg)
{
    return tm_run(g, cfg, NULL);
}

bool tm_run(emu_grid *g, const timing_engine_config *cfg, const tm_trace *trace)
{
    tm_model *M = calloc(1, sizeof *M);
    if (!M) return false;
    M->trace = trace;
    M->cur_q = 1;
    M->serial_by_warp = cfg->serial_order == TIMING_SERIAL_WARP;
    M->dab = cfg->det == TIMING_DET_DAB;
    M->dab_sms = M->dab && cfg->dab_sms && cfg->dab_sms < (cfg->sm_count ? cfg->sm_count : 1)
                     ? cfg->dab_sms
                     : (cfg->sm_count ? cfg->sm_count : 1);
    const timing_gpu *gpu = cfg->gpu;
    M->gpu = gpu;
    M->timeline = cfg->timeline;
    M->nsm = cfg->sm_count ? cfg->sm_count : 1;
    M->nsched = (uint32_t)gpu->sched_per_sm;
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    M->warps_per_cta = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    M->ctas_per_sm = timing_ctas_per_sm(g, cfg);
    M->warp_slots = M->ctas_per_sm * M->warps_per_cta;
    M->g = g;
    M->igpu = trace ? NULL : timing_igpu_of(emu_grid_launch(g)->policy);
    M->lock_commit = cfg->gpudet_lock_commit;
    M->dab_limit = (uint8_t)cfg->dab_limit;
    M->windowed = !trace && !M->igpu && !timing_kilotm_find(emu_grid_launch(g)->policy);
    M->win = 1 + (uint64_t)gpu->icnt_latency;
    M->nthreads = cfg->host_threads ? cfg->host_threads : 1;
    /* a policy over the direct one (--check, --watch, --record) sees the SM-local runs' barriers
     * and stops, in an order that would depend on the host threads: one thread (the same
     * windows, so the same cycles) */
    const emu_mem_policy *pol = emu_grid_launch(g)->policy;
    if (pol && pol != emu_direct_policy()) M->nthreads = 1;
    bool ok = (trace || eng_init(&M->E, g, cfg, M->ctas_per_sm, UINT64_MAX, M->nthreads)) &&
              tm_mem_init(&M->mem, gpu, M->nsm, &M->st) && tm_gdl_init(M);
    M->mem.windowed = M->windowed;
    M->sm_st = calloc(M->nsm, sizeof *M->sm_st);
    ok = ok && M->sm_st;
    M->mem.sm_st = M->sm_st;
    M->mem.landed = tm_model_landed;
    M->mem.landing_soon = tm_model_landing_soon;
    M->mem.landed_ctx = M;
    M->sms = ok ? aligned_alloc(64, M->nsm * sizeof *M->sms) : NULL;   /* tm_sm: whole lines */
    if (M->sms) memset(M->sms, 0, M->nsm * sizeof *M->sms);
    M->weave_pos = calloc(M->nsm, sizeof *M->weave_pos);
    M->weave_lim = calloc(M->nsm, sizeof *M->weave_lim);
    M->weave_heap = calloc(M->nsm, sizeof *M->weave_heap);
    M->weave_keys = calloc(M->nsm, sizeof *M->weave_keys);
    M->weave_count = calloc(M->nsm, sizeof *M->weave_count);
    M->weave_defer = calloc(M->nsm, sizeof *M->weave_defer);
    /* whole lines, zeroed: window 0 is none (weave_window counts from 1) */
    size_t early_bytes = ((size_t)M->nsm * sizeof *M->weave_early + 63) / 64 * 64;
    M->weave_early = aligned_alloc(64, early_bytes);
    if (M->weave_early) memset(M->weave_early, 0, early_bytes);
    /* every SM's warp slots in one zeroed block, in huge pages (huge.c: 5,120 slots of 640
     * bytes on v100 were 800 faults in 4 KiB pages), each warp's scan fields in one cache line
     * (sizeof (tm_warp) is a multiple of 64); zeroed by the kernel where the SMs' host threads
     * first touch it as they place their CTAs (a memset here was this thread's, 3.2 MB) */
    size_t wslots = (size_t)M->nsm * (M->warp_slots ? M->warp_slots : 1);
    M->warp_block_bytes = wslots * sizeof *M->warp_block;
    M->warp_block = tm_huge_zalloc(M->warp_block_bytes);
    ok = ok && M->sms && M->weave_pos && M->weave_lim && M->weave_heap && M->weave_keys &&
         M->weave_count && M->weave_defer &&
         M->weave_early && M->warp_block;
    for (uint32_t s = 0; ok && s < M->nsm; s++) {
        tm_sm *S = &M->sms[s];
        S->id = s;
        S->nwarps = M->warp_slots;
        S->warps = M->warp_block + (size_t)s * (M->warp_slots ? M->warp_slots : 1);
        S->per_q = (S->nwarps + M->nsched - 1) / M->nsched;
        S->scan = calloc((size_t)M->nsched * S->per_q + 1, sizeof *S->scan);
        S->scan_age = calloc((size_t)M->nsched * S->per_q + 1, sizeof *S->scan_age);
        S->live_words = (S->per_q + 63) / 64;
        S->live_bits = calloc((size_t)M->nsched * S->live_words + 1, sizeof *S->live_bits);
        S->nctas = M->ctas_per_sm;
        S->ctas = calloc(M->ctas_per_sm, sizeof *S->ctas);
        S->unit_free = calloc((size_t)M->nsched * TM_U_COUNT, sizeof *S->unit_free);
        S->last = malloc(M->nsched * sizeof *S->last);
        S->reason = calloc(M->nsched, sizeof *S->reason);
        S->q_wake = calloc(M->nsched, sizeof *S->q_wake);
        /* the schedulers' waiting sets where the scan uses them (sm.c sched_cycle) */
        bool qwait = M->gpu->scheduler[0] == 'g' && S->per_q <= 32;
        S->qwait = qwait ? aligned_alloc(64, M->nsched * sizeof *S->qwait) : NULL;
        if (S->qwait) memset(S->qwait, 0, M->nsched * sizeof *S->qwait);
        ok = S->warps && S->scan && S->scan_age && S->live_bits && S->ctas && S->unit_free && S->last && S->reason && S->q_wake && (S->qwait || !qwait);
        for (uint32_t q = 0; ok && q < M->nsched; q++) S->last[q] = UINT32_MAX;
        S->tried = TM_NEVER;
        S->ticket_next = 1;
        S->next_cta = s < M->dab_sms ? s : UINT64_MAX;
        M->sm_st[s] = &S->st;
    }
    ok = ok && gpudet_queues(M);
    /* after eng_init: the CTAs' storage is freed (eng_fini) before the rings and registers
     * (model_free) */
    if (ok && !trace) {
        (void)tm_rings_take(&M->rings, (size_t)M->nsm * M->warp_slots);
        lend_regs(M);
    }
    if (ok) {
        /* a replay times GPUDet's recorded commit steps (replay.c) */
        M->kilotm = tm_kilotm_create(M);
        ok = !M->stop;
    }
    bool fail = !ok;
    uint64_t start = (uint64_t)gpu->kernel_launch_latency, now = start;
    if (ok) {
        timing_watchdog_start(&M->wd, cfg);
        /* windowed: run_windows places them, on the host threads */
        for (uint32_t k = 0; k < M->ctas_per_sm && !M->stop && !M->windowed; k++)
            for (uint32_t s = 0; s < M->nsm; s++)
                if (!place(M, &M->sms[s], k, now) && !M->gd_queue) break;
        fail = M->stop;
    }
    if (ok && !fail && M->windowed) fail = !run_windows(M, start, &now);
    while (ok && !fail && !M->windowed) {
        tm_mem_advance(&M->mem, now);
        uint64_t next = tm_mem_next(&M->mem);
        uint32_t issued = 0, busy = 0;
        for (uint32_t s = 0; s < M->nsm && !fail && !M->stop; s++) {
            tm_sm *S = &M->sms[s];
            if (!S->resident) continue;
            busy++;
            if (S->wake > now) {
                if (S->wake < next) next = S->wake;
                continue;
            }
            /* the cycles it was skipped issued nothing, for the reasons of the last one tried */
            if (S->tried != TM_NEVER && now > S->tried + 1)
                for (uint32_t q = 0; q < M->nsched; q++)
                    S->st.slots[S->reason[q]] += now - S->tried - 1;
            uint64_t wake = TM_NEVER;
            uint32_t n = tm_sm_cycle(M, S, now, &wake, &fail);
            S->tried = now;
            S->wake = n ? now + 1 : wake;
            if (S->wake < next) next = S->wake;
            issued += n;
        }
        if (fail || M->stop) break;
        if (!busy && !ctas_left(M)) break;
        if (issued) {
            now++;
            continue;
        }
        if (next == TM_NEVER && M->trace && M->dab && tm_det_order_unstick(M)) continue;
        if (next == TM_NEVER && M->trace && M->gated) {
            /* every warp waits for the quantum's end: commit, serial mode, barriers */
            now = tm_det_epoch_end(M, now);
            continue;
        }
        if (next == TM_NEVER && M->trace && release_stuck_barriers(M, now)) {
            now++;
            continue;
        }
        if (next == TM_NEVER) {
            report_deadlocks(M);
            fail = true;
            break;
        }
        now = next > now ? next : now + 1;
    }
    /* replay: the last quantum's end and those after it (their warps had exited), up to the
     * last GPUDet ran */
    if (trace && ok && !fail && !M->stop) {
        do now = tm_det_epoch_end(M, now);
        while (M->cur_q <= trace->quanta);
    }
    /* DRAM requests still queued (write-backs, loads no one waits for) are served for the
     * statistics; the kernel's cycles end with its last warp */
    if (ok && M->windowed) tm_mem_weave(&M->mem, TM_NEVER);
    if (ok) tm_mem_advance(&M->mem, TM_NEVER - 1);
    tm_mem_weave_stats(&M->mem);
    for (uint32_t s = 0; ok && s < M->nsm; s++) timing_stats_add(&M->st, &M->sms[s].st);
    /* cycles in which an SM had no CTA count as idle slots of its schedulers */
    uint64_t cycles = now;
    uint64_t active = cycles - start;
    uint64_t counted = 0;
    for (int i = 0; i < TIMING_SLOT_COUNT; i++) counted += M->st.slots[i];
    uint64_t all = active * M->nsm * M->nsched;
    if (!fail && all > counted) M->st.slots[TIMING_SLOT_IDLE] += all - counted;
    M->st.cycles = cycles;
    M->st.warp_slot_cycles = active * M->nsm * (uint64_t)(gpu->max_threads_per_sm / EMU_WARP_SIZE);
    if (ok && timing_watchdog_fired(&M->wd)) {
        for (uint32_t s = 0; s < M->nsm; s++)
            for (uint32_t k = 0; k < M->ctas_per_sm; k++)
                if (M->sms[s].ctas[k].cta)
                    timing_watchdog_describe_cta(&M->wd, M->sms[s].ctas[k].cta);
        timing_watchdog_finish(&M->wd, g, ctas_left(M));
    }
    if (ok) timing_watchdog_destroy(&M->wd);
    timing_stats est = {0};
    if (trace) {
        /* GPUDet's run counted the grid, its CTAs and its instructions */
        M->st.ctas = 0;
    } else {
        eng_fini(&M->E, &est);
        M->st.warp_instructions = est.warp_instructions;
        M->st.grids = 1;
    }
    if (M->kilotm) tm_kilotm_finish(M, M->kilotm, cycles);
    if (cfg->stats) timing_stats_add(cfg->stats, &M->st);
    model_free(M);
    bool done = ok && !fail && !M->stop && !emu_grid_fault(g);
    free(M);
    return done;
}
