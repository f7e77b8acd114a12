/* sm.c: the issue stage of an SM in the cycle model.
 *
 * An SM's warp slots are shared among its schedulers (slot i on scheduler i % schedulers). In
 * each cycle each scheduler may issue up to issue_per_sched instructions, each from a warp that
 * is ready: launched, not waiting at a barrier, its operands not in flight (scoreboard), and its
 * functional unit free (the unit's initiation interval since the last instruction it took).
 * Which ready warp issues is the configuration's policy:
 * - lrr: loose round robin, starting after the warp that issued last;
 * - gto: greedy then oldest: the warp that issued last while it can, else the oldest;
 * - two_level: warps waiting on a long-latency result are set aside; the 8 oldest of the
 *   others form the active set, served round robin (Narasiman et al., MICRO 2011).
 * The warp then runs exactly that one instruction on its executor (emu_warp_run with a budget
 * of 1), at this simulated cycle: its clocks read it, its atomics and memory accesses happen in
 * cycle order, and its event says what the instruction did (masks, addresses), which gives its
 * latency: the unit's, or the memory system's for loads, stores and atomics. */
#include "timing/detcost/detcost.h"
#include "timing/model/model.h"

#include <assert.h>
#include <string.h>

/* The functional unit of each op class (TM_U_INT where not named); indexed by any uint8_t, so
 * that unit_of needs no bounds test (classes past EMU_CLS_COUNT are TM_U_INT). */
_Static_assert(EMU_CLS_COUNT <= 256, "op classes fit a uint8_t");
static const uint8_t unit_table[256] = {
    [EMU_CLS_INT_MUL] = TM_U_IMUL,
    [EMU_CLS_FP32] = TM_U_FP32, [EMU_CLS_FP16] = TM_U_FP32, [EMU_CLS_CONV] = TM_U_FP32,
    [EMU_CLS_FP64] = TM_U_FP64,
    [EMU_CLS_SFU] = TM_U_SFU,
    [EMU_CLS_TENSOR] = TM_U_TENSOR,
    [EMU_CLS_LD_GLOBAL] = TM_U_LSU, [EMU_CLS_LD_SHARED] = TM_U_LSU, [EMU_CLS_LD_LOCAL] = TM_U_LSU,
    [EMU_CLS_LD_PARAM] = TM_U_LSU, [EMU_CLS_LD_CONST] = TM_U_LSU, [EMU_CLS_LD_GENERIC] = TM_U_LSU,
    [EMU_CLS_ST_GLOBAL] = TM_U_LSU, [EMU_CLS_ST_SHARED] = TM_U_LSU, [EMU_CLS_ST_LOCAL] = TM_U_LSU,
    [EMU_CLS_ST_GENERIC] = TM_U_LSU, [EMU_CLS_ATOMIC] = TM_U_LSU, [EMU_CLS_ATOMIC_SHARED] = TM_U_LSU,
    [EMU_CLS_TENSOR_MEM] = TM_U_LSU, [EMU_CLS_TEX] = TM_U_LSU, [EMU_CLS_SURF] = TM_U_LSU,
    [EMU_CLS_ASYNC] = TM_U_LSU,
};

/* The lanes set in a mask, inline (__builtin_popcount is a library call on x86-64's baseline). */
static inline uint32_t popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* inline: the issue stage asks it for every warp it looks at */
static inline tm_unit unit_of(uint8_t cls)
{
    return (tm_unit)unit_table[cls];
}

tm_unit tm_unit_of(uint8_t cls)
{
    return unit_of(cls);
}

bool tm_is_memory(uint8_t cls)
{
    return unit_of(cls) == TM_U_LSU;
}

/* Where each unit's latency and initiation interval lie in the configuration (a table, not a
 * switch: its indirect jump missed whenever the issuing units alternate). The load/store unit's
 * latency is the L1's (its interval is 1: the memory system says what an access holds it). */
static const uint16_t unit_lat_at[TM_U_COUNT] = {
    [TM_U_INT] = offsetof(timing_gpu, lat_int), [TM_U_IMUL] = offsetof(timing_gpu, lat_imul),
    [TM_U_FP32] = offsetof(timing_gpu, lat_fp32), [TM_U_FP64] = offsetof(timing_gpu, lat_fp64),
    [TM_U_SFU] = offsetof(timing_gpu, lat_sfu), [TM_U_TENSOR] = offsetof(timing_gpu, lat_tensor),
    [TM_U_LSU] = offsetof(timing_gpu, l1_latency),
};
static const uint16_t unit_ii_at[TM_U_COUNT] = {
    [TM_U_INT] = offsetof(timing_gpu, ii_int), [TM_U_IMUL] = offsetof(timing_gpu, ii_imul),
    [TM_U_FP32] = offsetof(timing_gpu, ii_fp32), [TM_U_FP64] = offsetof(timing_gpu, ii_fp64),
    [TM_U_SFU] = offsetof(timing_gpu, ii_sfu), [TM_U_TENSOR] = offsetof(timing_gpu, ii_tensor),
};

static inline void unit_timing(const timing_gpu *g, tm_unit u, uint64_t *lat, uint64_t *ii)
{
    const char *b = (const char *)g;
    *lat = (uint64_t)*(const int *)(b + unit_lat_at[u]);
    *ii = u == TM_U_LSU ? 1 : (uint64_t)*(const int *)(b + unit_ii_at[u]);
}

/* A register of the function an instruction belongs to (a recursive call's registers share
 * the caller's keys: a false dependence at worst). */
static uint64_t reg_key(const emu_next_instr *p, int32_t reg)
{
    return (uint64_t)p->func << 32 | (uint32_t)reg;
}

/* When w's operands and results are free of results in flight (now or later). */
static uint64_t scoreboard_ready(const tm_warp *tw, const emu_next_instr *p, uint64_t now)
{
    /* each entry landing later than found so far, against the instruction's registers */
    uint64_t t = now;
    unsigned n = (unsigned)p->nreads + p->nwrites;
    for (uint32_t j = 0; j < tw->nsb; j++) {
        uint64_t r = tw->sb[j].ready, k = tw->sb[j].key;
        if (r <= t || k >> 32 != p->func) continue;
        for (unsigned i = 0; i < n; i++)
            if ((uint32_t)k == (uint32_t)p->regs[i]) {
                t = r;
                break;
            }
    }
    return t;
}

static void scoreboard_set(tm_warp *tw, const emu_next_instr *p, uint64_t now, uint64_t ready)
{
    struct tm_sb *sb = tw->sb;
    uint32_t nsb = tw->nsb, n = 0;
    bool track = ready > now + 1;   /* (a result ready by the next cycle needs no entry) */
    if (track && p->nwrites == 1) {
        /* the usual case, in one pass: what has landed is dropped, and the written register's
         * entry (keys are unique) found among the rest, where it is replaced */
        uint64_t k = reg_key(p, p->regs[p->nreads]);
        uint32_t hit = UINT32_MAX;
        for (uint32_t j = 0; j < nsb; j++)
            if (sb[j].ready > now) {
                if (sb[j].key == k) hit = n;
                sb[n++] = sb[j];
            }
        if (hit == UINT32_MAX) {
            if (n == TM_SB_ENTRIES) {
                /* full: as below */
                hit = 0;
                for (uint32_t x = 1; x < n; x++)
                    if (sb[x].ready < sb[hit].ready) hit = x;
            } else {
                hit = n++;
            }
        }
        tw->nsb = n;
        sb[hit] = (struct tm_sb){k, ready};
        return;
    }
    /* drop what has landed */
    for (uint32_t j = 0; j < nsb; j++)
        if (sb[j].ready > now) sb[n++] = sb[j];
    tw->nsb = n;
    if (!track) return;
    for (unsigned i = p->nreads; i < (unsigned)p->nreads + p->nwrites; i++) {
        uint64_t k = reg_key(p, p->regs[i]);
        uint32_t j = 0;
        while (j < tw->nsb && sb[j].key != k) j++;
        if (j == tw->nsb) {
            if (tw->nsb == TM_SB_ENTRIES) {
                /* full: keep the entry that lands last (waiting on it covers the others
                 * conservatively) */
                j = 0;
                for (uint32_t x = 1; x < tw->nsb; x++)
                    if (sb[x].ready < sb[j].ready) j = x;
            } else {
                tw->nsb++;
            }
        }
        sb[j] = (struct tm_sb){k, ready};
    }
}

/* Asks for the cache lines of event e (its header, and its addresses where it has them). */
static inline void prefetch_event(const emu_event *e)
{
    const char *b = (const char *)e;
    for (size_t o = 0; o < sizeof *e; o += 64) __builtin_prefetch(b + o);
    __builtin_prefetch(b + sizeof *e - 1);
}

/* Whether warp tw, whose scan entry is sc, can issue on scheduler q at cycle now; if not, why
 * (*why) and from when it might (*when). due: sc's ready time is known to have come (the scan
 * read it). */
static inline __attribute__((always_inline)) bool
can_issue(tm_model *M, tm_sm *S, uint32_t q, tm_warp *tw, tm_scan *sc, uint64_t now,
          const emu_next_instr **pp, timing_slot *why, uint64_t *when, bool due)
{
    if (!due && sc->ready > now) {
        *why = (timing_slot)sc->why;
        *when = sc->ready;
        return false;
    }
    bool sb_known_clear = false, peeked_compact = false;
    if (tw->trace) {
        if (tw->at_barrier) {
            *why = TIMING_SLOT_BARRIER;
            *when = TM_NEVER;   /* released by another warp's issue or exit */
            return false;
        }
        if (tm_det_gated(M, tw)) {
            *why = TIMING_SLOT_BARRIER;
            *when = TM_NEVER;   /* the quantum's end (run.c) */
            return false;
        }
        if (M->dab && tm_det_order_wait(M, S, &tw->trace->recs[tw->pos])) {
            /* DAB: not its turn or token yet (a scheduler-level barrier) */
            *why = TIMING_SLOT_BARRIER;
            *when = TM_NEVER;   /* released by the issue of the ticket before it */
            return false;
        }
        *pp = &tw->trace->recs[tw->pos].in;
    } else if (tw->peeked) {
        *pp = &tw->next;
        sb_known_clear = tw->sb_clear;
    } else if (tw->pos < tw->nev
                   ? emu_grid_instr(M->g, tw->ev[tw->pos].func, tw->ev[tw->pos].pc, &tw->next)
                   : emu_warp_peek(tw->w, &tw->next)) {
        *pp = &tw->next;   /* read in place: it stays until the warp issues */
        tw->peeked = true;
        if (tw->pos < tw->nev) {
            const emu_event *e = &tw->ev[tw->pos];
            tw->ev_mask = e->mask;
            tw->ev_cls = e->cls;
            tw->ev_flags = e->flags;
            tw->ev_copied = true;
            peeked_compact = e->flags & EMU_EV_COMPACT;
        }
    } else {
        *why = TIMING_SLOT_BARRIER;
        *when = TM_NEVER;   /* released by another warp's issue */
        return false;
    }
    const emu_next_instr *p = *pp;
    /* Each wait below only ends at its time (operands land when they land, a unit's and the
     * MSHRs' free times only grow): the warp keeps it, and is not looked at again before. */
    uint64_t t = sb_known_clear ? now : scoreboard_ready(tw, p, now);
    /* p is tw->next here (or a replayed record): its operands, once free, stay free until the
     * warp issues (a landing only resolves a pending entry, which would have kept t > now).
     * So when their time is known they are free from then on, and the warp is not looked at
     * before (its ready time is at least t until it issues: nothing lowers it but a placement,
     * the weave's issue and KILO TM's wake of parked warps, each after an issue or with the
     * flags cleared) */
    tm_unit u = unit_of(p->cls);
    if (!tw->trace && t < TM_PEND) {
        tw->sb_clear = true;
        /* the scan can tell the rest without the warp (tm_scan fast) */
        sc->fast = !(M->windowed && tw->pos == tw->nev && p->shared_state);
        sc->unit = (uint8_t)u;
    }
    if (t > now) {
        *why = TIMING_SLOT_SCOREBOARD;
    } else if ((t = S->unit_free[q * TM_U_COUNT + u]) > now) {
        *why = u == TM_U_LSU ? TIMING_SLOT_MEMORY : TIMING_SLOT_PIPELINE;
    } else if (u == TM_U_LSU && (t = tm_mem_mshr_next(&M->mem, S->id)) > now) {
        *why = TIMING_SLOT_MEMORY;
    } else if (M->windowed && !tw->trace && tw->pos == tw->nev && p->shared_state) {
        /* it would issue, but its executor runs what other CTAs may see only in the window's
         * end (run.c weave), which issues it at this cycle */
        if (!tw->deferred) {
            tw->deferred = true;
            tm_defer_add(M, S, now, (uint32_t)(tw - S->warps), TM_DEFER_RUN);
        }
        *why = TIMING_SLOT_CONTROL;
        t = TM_NEVER;
    } else {
        return true;
    }
    /* a result waiting for DRAM: known when the request is served (tm_model_landed wakes it) */
    if (tm_is_pend(t)) t = TM_NEVER;
    /* the event it issues next was written when its run began, and is out of the cache by now:
     * fetch its header while the warp waits (issue fetched all of it if it issued last) */
    if (!tw->trace && tw->pos < tw->nev) __builtin_prefetch(&tw->ev[tw->pos]);
    /* a memory access read just now (its event is in the cache) that waits: the L1 set its
     * issue looks up, asked for while it waits (a streaming kernel's sets are cold; one that
     * issues at once has tm_mem_access ask for it) */
    if (peeked_compact) tm_mem_prefetch_access(&M->mem, S->id, &tw->ev[tw->pos]);
    *when = t;
    sc->ready = t;
    sc->why = (uint8_t)*why;
    if (t == TM_NEVER) {   /* (its slot only then: a division by the tm_warp's size) */
        uint32_t slot = (uint32_t)(tw - S->warps);
        if (slot < 64) S->never_mask |= UINT64_C(1) << slot;
    }
    return false;
}

/* The ready time of warp tw as it issues: it was due (or the weave's tm_warp_set_ready took it
 * out), so it is not in its scheduler's waiting set (tm_qwait). */
static inline void set_issuer_ready(tm_sm *S, tm_warp *tw, uint64_t t)
{
    S->scan[tw->scan_ix].ready = t;
}

/* Issues the instruction p of warp tw at cycle now. false when the warp faulted. */
static bool issue(tm_model *M, tm_sm *S, uint32_t q, tm_warp *tw, const emu_next_instr *p,
                  uint64_t now)
{
    const timing_gpu *g = M->gpu;
    emu_warp *w = tw->w;
    /* (set for the event at pos: pos changes only here) */
    bool copied = tw->ev_copied && !tw->trace && tw->pos < tw->nev;
    /* the event after this one is read when the warp is next looked at, often right after
     * this issue (GTO's greedy look, lrr's next scan): ask for it before the issue's work, so
     * that its miss has that long (after a run, pos == nev, its events are in the cache) */
    if (copied && tw->pos + 1 < tw->nev) prefetch_event(&tw->ev[tw->pos + 1]);
    tw->ev_copied = false;
    tw->peeked = false;
    tw->sb_clear = false;
    S->scan[tw->scan_ix].fast = false;
    if (p->cls == EMU_CLS_BARRIER) {
        /* its CTA's warps: CTA slot k places them in warp slots k * warps_per_cta + i (run.c) */
        uint32_t lo = tw->cta * M->warps_per_cta, hi = lo + M->warps_per_cta;
        for (uint32_t i = lo; i < hi && i < S->nwarps; i++)
            if (S->warps[i].cta == tw->cta) {
                S->warps[i].peeked = S->warps[i].sb_clear = false;
                S->scan[S->warps[i].scan_ix].fast = false;
            }
        memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
    }
    /* (the SM's: on the stack, its 64-byte alignment cost every issue an aligned frame) */
    emu_event *replayed = &S->replay_ev;
    uint64_t tx_ready = now + 1;
    if (tw->trace) {
        tm_trace_event(tw->trace, &tw->trace->recs[tw->pos], replayed, S->replay_addrs);
        if (M->dab) tm_det_order_issued(M, S, &tw->trace->recs[tw->pos]);
    } else if (tw->pos == tw->nev) {
        /* nothing left from the last run: the warp runs ahead from this instruction, which
         * (a clock read, an atomic) happens at this cycle; in the windowed model only as far
         * as what its SM alone sees (the rest runs in the weave, run.c) */
        emu_warp_set_clock(w, now, now * UINT64_C(1000000) / (uint64_t)g->model_clock_khz);
        tw->ev = NULL;
        tw->nev = tw->pos = 0;
        uint64_t before = emu_warp_instructions(w);
        tw->run_base = before;
        if (M->kilotm) tm_kilotm_before_run(M, S, tw, now);
        emu_stop r = M->windowed ? emu_warp_run_local(w, TM_RUN_LOCAL)
                                 : emu_warp_run_ahead(w, TM_RUN_AHEAD);
        if (timing_watchdog_step(&M->wd, emu_warp_instructions(w) - before)) M->stop = true;
        if (r == EMU_STOP_FAULT) return false;
        tw->ended = r == EMU_STOP_EXIT;
        /* a commit (the run's first instruction) holds the warp until its outcome is back */
        if (M->kilotm) tx_ready = tm_kilotm_after_run(M, S, tw, now);
        if (!tw->nev) {
            if (tw->ended) tm_warp_exited(M, S, tw, now + 1);
            else if (tx_ready > tm_warp_ready(S, tw)) set_issuer_ready(S, tw, tx_ready);   /* a tx_begin waits */
            return true;
        }
    }
    uint64_t done = now + 1, next_issue = tx_ready;
    timing_igpu_cost ic;
    bool restarted = false;
    {
        const emu_event *e = tw->trace ? replayed : &tw->ev[tw->pos];
        /* --igpu: state preservation issues before it; a fault sleeps the warp after it */
        const tm_rec *rec = tw->trace ? &tw->trace->recs[tw->pos] : NULL;
        bool charged = rec ? rec->igpu_charged
                           : M->igpu && timing_igpu_take_cost(M->igpu, w, tw->run_base + tw->pos, &ic);
        if (rec && charged) ic = rec->igpu;
        tw->pos++;
        /* its exit (tm_warp_exited, after this instruction or the next) reads what the warp
         * keeps for launch and exit, a line not read since its launch */
        if (tw->ended) {
            if (tw->pos + 1 >= tw->nev) __builtin_prefetch(&tw->cta);
        } else if (!tw->trace && tw->pos + 1 >= tw->nev) {
            /* the look after its run's last event asks its executor for the next instruction
             * (emu_warp_peek): three loads one after the other (the warp's record, then its
             * SIMT stack's and call frame's tops), out of the host's caches since the run.
             * The record at the last event but one, the tops (read from the record) at the
             * last. */
            emu_warp_prefetch(w, tw->pos == tw->nev);
        }
        uint32_t e_mask = copied ? tw->ev_mask : e->mask;
        uint8_t e_cls = copied ? tw->ev_cls : e->cls, e_flags = copied ? tw->ev_flags : e->flags;
        /* (most instructions run on a whole warp) */
        S->st.thread_instructions += e_mask == UINT32_MAX ? 32 : popcount32(e_mask);
        tm_unit u = unit_of(e_cls);
        uint64_t lat, ii;
        unit_timing(g, u, &lat, &ii);
        uint64_t d = now + lat;
        if (tw->trace && M->dab && e->cls == EMU_CLS_ATOMIC) {
            /* DAB: a buffered atomic only writes its scheduler's buffer (spec dab.md S9: no
             * memory traffic at issue; the insert and fusion lookup take one cycle). The
             * flush-class ones ran in the flush and were timed there. */
            d = now + 1;
            ii = 1;
        } else if (charged && ic.restart) {
            /* it faulted before any lane performed it: no access; the path goes back to its
             * region entry and the warp's in-flight results are squashed */
            restarted = true;
            d = now + 1;
            ii = 1;
        } else if (tw->trace && !M->dab && u == TM_U_LSU &&
                   tm_gdl_access(M, S, tw, &tw->trace->recs[tw->pos - 1], e, now, &d, &ii)) {
            /* GPUDet's parallel mode: a global store goes to the warp's log (timing/detcost) */
        } else if (u == TM_U_LSU && (e_flags & EMU_EV_MEM)) {
            tm_access a = tm_mem_access(&M->mem, S->id, now, e);
            d = a.done;
            ii = a.lsu_cycles;
        } else if (e_cls == EMU_CLS_FENCE) {
            /* a fence waits for the warp's writes to reach L2 */
            d = now + 2 * (uint64_t)g->icnt_latency + (uint64_t)g->l2_latency;
            next_issue = d;
        }
        if ((e_flags & EMU_EV_DIVERGED)) S->st.diverged_branches++;
        uint64_t *uf = &S->unit_free[q * TM_U_COUNT + u];
        if (now + ii > *uf) *uf = now + ii;
        if (d > done) done = d;
        if (charged) {
            if (ic.state) {
                /* continuous spilling's pushes (pops) of the live-ins, one local store (load)
                 * each, take the warp's issue slots and the load/store unit before it */
                uint64_t *lsu = &S->unit_free[q * TM_U_COUNT + TM_U_LSU];
                if (now + 1 + ic.state > *lsu) *lsu = now + 1 + ic.state;
                next_issue += ic.state;
                if (!tm_is_pend(done)) done += ic.state;   /* a pending one lands later anyway */
            }
            if (ic.stall) {
                /* the page arrives (the other warps run meanwhile), or the pipeline refills */
                next_issue += ic.stall;
                if (!tm_is_pend(done)) done += ic.stall;
            }
        }
    }
    if (restarted) tw->nsb = 0;
    else scoreboard_set(tw, p, now, done);
    /* its landing (run.c tm_model_landed) need only look at this warp */
    if (tm_is_pend(done))   /* (atomically: memsys.c land_hint may be reading a reply's) */
        __atomic_store_n(tm_mem_waiter(&M->mem, done), (uint32_t)(tw - S->warps) + 1,
                         __ATOMIC_RELAXED);
    /* replay only (the bound phase of the windowed model runs SMs on several threads) */
    if (M->trace && done > M->q_drain && !tm_is_pend(done)) M->q_drain = done;
    /* (its entry: the issuer is never in its scheduler's waiting set, see set_issuer_ready) */
    tm_scan *own = &S->scan[tw->scan_ix];
    if (next_issue > own->ready) own->ready = next_issue;
    own->why = (uint8_t)TIMING_SLOT_CONTROL;
    if (tw->trace) {
        /* every recorded barrier but bar.warp.sync is taken as CTA-wide (see run.c for the
         * ones that are not) */
        tm_cta_slot *cs = &S->ctas[tw->cta];
        bool last = tw->pos == tw->nev;
        if (p->cls == EMU_CLS_BARRIER && p->op != PTX_OP_BAR_WARP_SYNC && !last) {
            tw->at_barrier = true;
            if (++cs->arrived == cs->live) tm_release_barrier(M, S, tw->cta);
        }
        if (last) tm_warp_exited(M, S, tw, now + 1);
        return true;
    }
    if (tw->pos == tw->nev && tw->ended) tm_warp_exited(M, S, tw, now + 1);
    return true;
}

bool tm_sm_issue_woven(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t cycle)
{
    emu_next_instr p;
    assert(tw->pos < tw->nev);
    if (!emu_grid_instr(M->g, tw->ev[tw->pos].func, tw->ev[tw->pos].pc, &p)) return false;
    return issue(M, S, (uint32_t)(tw - S->warps) % M->nsched, tw, &p, cycle);
}

/* The 8 oldest ages among the scheduler's warps not waiting on a long-latency result: the
 * two-level scheduler's active set is the warps at or below the returned age. */
static uint64_t active_set_limit(tm_sm *S, uint32_t q, uint32_t nsched, uint64_t now,
                                 uint64_t long_latency)
{
    uint64_t best[8];
    unsigned n = 0;
    for (uint32_t i = q; i < S->nwarps; i += nsched) {
        tm_warp *tw = &S->warps[i];
        if (!tw->occupied || tw->done) continue;
        bool pending = false;
        for (uint32_t j = 0; j < tw->nsb && !pending; j++)
            pending = tw->sb[j].ready > now + long_latency;
        if (pending) continue;
        uint64_t a = tw->age;
        if (n < 8) {
            best[n++] = a;
        } else {
            unsigned m = 0;
            for (unsigned k = 1; k < 8; k++)
                if (best[k] > best[m]) m = k;
            if (a < best[m]) best[m] = a;
        }
    }
    uint64_t lim = 0;
    for (unsigned k = 0; k < n; k++)
        if (best[k] > lim) lim = best[k];
    return n ? lim : TM_NEVER;
}

/* The bits of word `step` (0..nw) of a scan from entry `first` (fb = first % 64) over nw words
 * of live bits: its first word from bit fb, the words after it, then that word again below fb. */
static inline uint64_t scan_word_bits(uint32_t step, uint32_t nw, uint32_t fb)
{
    if (step == 0) return ~UINT64_C(0) << fb;
    return step == nw ? (UINT64_C(1) << fb) - 1 : ~UINT64_C(0);
}

/* Whether the warp of scan entry `slot` of scheduler q, ready by its entry at now, can issue
 * (its instruction in *pp, NULL for its peeked one: the warp is found only for the one picked);
 * if not, its entry says until when (the scan's look at a warp). */
static inline __attribute__((always_inline)) bool
entry_can_issue(tm_model *M, tm_sm *S, uint32_t q, uint32_t nsched, uint32_t slot, tm_scan *e,
                uint64_t now, const emu_next_instr **pp)
{
    timing_slot w2;
    uint64_t when;
    if (!e->fast)
        return can_issue(M, S, q, &S->warps[q + slot * nsched], e, now, pp, &w2, &when, true);
    /* can_issue's answer from its unit and the MSHRs, as it would give it */
    when = S->unit_free[q * TM_U_COUNT + e->unit];
    if (when > now) {
        w2 = e->unit == TM_U_LSU ? TIMING_SLOT_MEMORY : TIMING_SLOT_PIPELINE;
    } else if (e->unit == TM_U_LSU && (when = tm_mem_mshr_next(&M->mem, S->id)) > now) {
        w2 = TIMING_SLOT_MEMORY;
        if (tm_is_pend(when)) when = TM_NEVER;
    } else {
        *pp = NULL;
        return true;
    }
    e->ready = when;
    e->why = (uint8_t)w2;
    uint32_t ws = q + slot * nsched;
    if (when == TM_NEVER && ws < 64) S->never_mask |= UINT64_C(1) << ws;
    return false;
}

/* An entry whose wait ends within this many cycles stays out of the waiting set (the scan passes
 * over it a few times): putting it in and taking it out cost more (v100 matmul's, mostly the
 * functional units' initiation intervals and short scoreboard waits). */
#define QW_MIN_WAIT 8

static inline uint64_t rotr64(uint64_t x, unsigned s)
{
    return s ? x >> s | x << (64 - s) : x;
}

/* The first time after t of a near bucket in nz (all within 64 cycles after t). */
static inline uint64_t near_after(uint64_t nz, uint64_t t)
{
    return nz ? t + 1 + (uint64_t)__builtin_ctzll(rotr64(nz, (unsigned)((t + 1) & 63))) : UINT64_MAX;
}

/* Puts scan entry `slot`, ready at r (> now, the scan's cycle), in the waiting set w. */
static inline void qwait_add(tm_qwait *w, uint32_t slot, uint64_t r, uint64_t now)
{
    uint64_t b = UINT64_C(1) << slot;
    w->bits |= b;
    w->visit &= ~b;
    if (r < w->next) w->next = r;   /* (TM_NEVER's entries are never due) */
    if (r - now < 64) {
        w->near[r & 63] |= (uint32_t)b;
        w->nz |= UINT64_C(1) << (r & 63);
        if (r < w->next_near) w->next_near = r;
    } else if (r == TM_NEVER) {
        w->never |= b;
    } else {
        w->far |= b;
        if (r < w->far_min) {
            w->far_min = r;
            w->far_min_bits = b;
        } else if (r == w->far_min) {
            w->far_min_bits |= b;
        }
    }
}

/* Entry j, ready at `ready`, leaves the waiting set w (tm_scan_unwait). */
void tm_qwait_remove(tm_qwait *w, uint32_t j, uint64_t ready)
{
    uint64_t b = UINT64_C(1) << j;
    w->bits &= ~b;
    w->visit |= b;
    if (w->never & b) {
        w->never &= ~b;
    } else if (w->far & b) {
        w->far &= ~b;
        if ((w->far_min_bits & b) && !(w->far_min_bits &= ~b)) w->far_min = 0;
    } else {
        uint32_t i = (uint32_t)(ready & 63);
        if (!(w->near[i] &= ~(uint32_t)b)) {
            w->nz &= ~(UINT64_C(1) << i);
            /* the other times are after it, and within 64 cycles after the last scan */
            if (ready == w->next_near) w->next_near = near_after(w->nz, ready);
        }
    }
    w->next = w->next_near < w->far_min ? w->next_near : w->far_min;
}

/* The waiting set w of a scheduler at cycle now, when its least near or far time has come (or
 * the far one is not known): the entries due by now leave it (the scan visits them), the far
 * ones not due enter again (near when they are within 64 cycles). */
static __attribute__((noinline)) void qwait_due(tm_qwait *w, const tm_scan *sc, uint64_t now)
{
    if (w->next_near <= now) {
        /* the buckets of the cycles next_near .. now (all of them from 64 cycles on) */
        uint64_t sel = w->nz, d = now - w->next_near + 1;
        if (d < 64) {
            unsigned s = (unsigned)(w->next_near & 63);
            uint64_t run = (UINT64_C(1) << d) - 1;
            sel &= s ? run << s | run >> (64 - s) : run;
        }
        uint32_t due = 0;
        for (uint64_t m = sel; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m);
            due |= w->near[i];
            w->near[i] = 0;
        }
        w->nz &= ~sel;
        w->bits &= ~(uint64_t)due;
        w->visit |= due;
        w->next_near = near_after(w->nz, now);
    }
    if (w->far_min <= now) {
        uint64_t m = w->far;
        w->bits &= ~m;
        w->visit |= m;
        w->far = w->far_min_bits = 0;
        w->far_min = UINT64_MAX;
        for (; m; m &= m - 1) {
            uint32_t slot = (uint32_t)__builtin_ctzll(m);
            uint64_t r = sc[slot].ready;
            if (r > now) qwait_add(w, slot, r, now);
        }
    }
    w->next = w->next_near < w->far_min ? w->next_near : w->far_min;
}

/* Scheduler q of SM S at cycle now (tm_sm_cycle), with its policy's flags as constants (the
 * scan's loop passes every live warp of the scheduler when none issues: the tests it need not
 * make go). Adds the instructions it issued to *issued; false when the SM's cycle ends there
 * (a warp faulted: *fail, or the run stops). */
static inline __attribute__((always_inline)) bool
sched_cycle(tm_model *M, tm_sm *S, uint32_t q, uint64_t now, uint64_t *next, uint32_t *issued,
            bool *fail, bool gto, bool two, bool one_word)
{
    const timing_gpu *g = M->gpu;
    uint32_t nsched = M->nsched;
    timing_slot why = TIMING_SLOT_IDLE;
    uint64_t why_when = TM_NEVER;
    bool any = false;
    uint32_t per_q = 0;
    uint64_t limit = two ? active_set_limit(S, q, nsched, now, 2 * (uint64_t)g->l1_latency)
                         : TM_NEVER;
    /* the waiting set (tm_qwait): for GTO, whose scan passes every live entry each time it
     * does not issue greedily; lrr's scan stops at the first that can issue, and the set's
     * upkeep and its scattered touches cost more than it saved there (v100 matmul, reduce) */
    const bool use_w = one_word && gto;
    tm_qwait *qw = use_w ? &S->qwait[q] : NULL;
    for (int k = 0; k < g->issue_per_sched; k++) {
        /* (again after an issue, which may have taken the least wait's entries out) */
        if (use_w && qw->next <= now)
            qwait_due(qw, &S->scan[q * S->per_q], now);
        tm_warp *pick = NULL;
        uint32_t pick_slot = S->last[q];   /* its entry on q (greedy: the last's) */
        const emu_next_instr *pi = NULL;
        uint32_t start = S->last[q] == UINT32_MAX ? 0 : S->last[q] + 1;
        if (gto && S->last[q] != UINT32_MAX) {
            tm_warp *tw = &S->warps[q + S->last[q] * nsched];
            timing_slot w2;
            uint64_t when;
            if (tw->occupied && !tw->done) {
                any = true;
                if (can_issue(M, S, q, tw, &S->scan[tw->scan_ix], now, &pi, &w2, &when, false))
                    pick = tw;
                else if (when < why_when || why == TIMING_SLOT_IDLE) {
                    why = w2;
                    why_when = when;
                }
            }
        }
        bool greedy = pick != NULL;
        /* (start is at most the scheduler's warps: from there the scan finds none before it
         * wraps, as from 0) */
        uint32_t first = start < S->per_q ? start : 0;
        tm_scan *sc = &S->scan[q * S->per_q];
        const uint64_t *age = &S->scan_age[q * S->per_q];
        /* (with the waiting set: the live entries outside it) */
        const uint64_t *lw = use_w ? &qw->visit : &S->live_bits[(size_t)q * S->live_words];
        uint32_t nw = one_word ? 1 : S->live_words, fw = one_word ? 0 : first / 64, fb = first % 64;
        uint64_t pick_age = 0;
        /* The live warps in turn from `first`, to the first that can issue (gto: all of them,
         * for the oldest). A waiting warp is passed over; its wait (from its entry, after
         * can_issue or the fast answer set it) counts for the slot's stall reason: the first
         * of the least waits in this order (`best`; its key is the wait less one, so that the
         * first entry passed is taken even when it waits for ever), needed only when none
         * issues, in which case the loop has passed every live warp. An entry still ready at
         * now is one can_issue set no wait for (barriers, DAB's turns, GPUDet's quanta, no next
         * instruction): it waits at a barrier with no known end. */
        uint32_t found = UINT32_MAX;   /* the scan's pick */
        uint64_t best_key = UINT64_MAX;
        const tm_scan *best_e = NULL;   /* best's entry (its slot only once the scan is done) */
        bool stop = greedy;
        for (uint32_t step = 0; step <= nw && !stop; step++) {
            uint32_t wi = fw + step >= nw ? fw + step - nw : fw + step;
            uint64_t look = lw[wi] & scan_word_bits(step, nw, fb);
            for (uint64_t m = look; m; m &= m - 1) {
                uint32_t slot = wi * 64 + (uint32_t)__builtin_ctzll(m);
                tm_scan *e = &sc[slot];
                if (two && age[slot] > limit) continue;
                uint64_t r = e->ready;
                if (r > now) {   /* most are waiting: the first test */
                    if (r <= best_key) {   /* (r - 1 < best_key: r is at least 1) */
                        best_key = r - 1;
                        best_e = e;
                    }
                    if (use_w && r - now > QW_MIN_WAIT) qwait_add(qw, slot, r, now);
                    continue;
                }
                const emu_next_instr *p;
                if (entry_can_issue(M, S, q, nsched, slot, e, now, &p)) {
                    if (gto) {
                        /* the oldest ready warp */
                        if (found == UINT32_MAX || age[slot] < pick_age) {
                            found = slot;
                            pick_age = age[slot];
                            pi = p;
                        }
                        continue;
                    }
                    found = slot;
                    pi = p;
                    stop = true;
                    break;
                }
                r = e->ready;
                if ((r <= now ? TM_NEVER : r) - 1 < best_key) {
                    best_key = (r <= now ? TM_NEVER : r) - 1;
                    best_e = e;
                }
                if (use_w && r > now + QW_MIN_WAIT) qwait_add(qw, slot, r, now);
            }
        }
        if (found != UINT32_MAX) {
            pick = &S->warps[q + found * nsched];
            pick_slot = found;
            if (!pi) pi = &pick->next;
        }
        if (!pick) {
            if (!per_q) {   /* (after GTO's greedy look, which came first) */
                uint32_t best = best_e ? (uint32_t)(best_e - sc) : UINT32_MAX;
                uint64_t wm = use_w && qw->bits ? (qw->next_near < qw->far_min ? qw->next_near
                                                                         : qw->far_min)
                                                : UINT64_MAX;
                if (use_w && qw->bits && wm - 1 <= best_key) {
                    /* the waiting set's first least wait in the scan's order, if not after
                     * the visited ones' */
                    uint64_t c = (qw->next_near == wm ? qw->near[wm & 63] : 0) |
                                 (qw->far_min == wm ? qw->far_min_bits : 0) |
                                 (wm == TM_NEVER ? qw->never : 0);
                    if (wm - 1 == best_key) c |= UINT64_C(1) << best;
                    uint64_t hi = c & (~UINT64_C(0) << fb);
                    best = (uint32_t)__builtin_ctzll(hi ? hi : c);
                    best_key = wm - 1;
                }
                if (best != UINT32_MAX) {
                    any = true;
                    if (best_key + 1 < why_when || why == TIMING_SLOT_IDLE) {
                        why = sc[best].ready <= now ? TIMING_SLOT_BARRIER : (timing_slot)sc[best].why;
                        why_when = best_key + 1;
                    }
                }
            }
            break;
        }
        if (!issue(M, S, q, pick, pi, now)) {
            *fail = true;
            return false;
        }
        S->last[q] = pick_slot;
        per_q++;
        ++*issued;
        if (M->stop) return false;
    }
    if (per_q) {
        S->st.slots[TIMING_SLOT_ISSUED]++;
        S->reason[q] = TIMING_SLOT_ISSUED;
        *next = now + 1;
        S->q_wake[q] = 0;
    } else {
        if (!any) why = TIMING_SLOT_IDLE;
        S->st.slots[why]++;
        S->reason[q] = why;
        if (why_when < *next) *next = why_when;
        /* every wait is a lower bound (see can_issue); the two-level scheduler's active set
         * changes with time, so it scans every cycle */
        S->q_wake[q] = two ? 0 : why_when;
    }
    return true;
}

uint32_t tm_sm_cycle(tm_model *M, tm_sm *S, uint64_t now, uint64_t *next_out, bool *fail)
{
    const timing_gpu *g = M->gpu;
    uint32_t nsched = M->nsched, issued = 0;
    bool gto = g->scheduler[0] == 'g', two = g->scheduler[0] == 't';
    /* (a local: stores through the caller's pointer could alias q_wake and the counts, which
     * the loop would read again after each) */
    uint64_t next_local = *next_out, *next = &next_local;
    const uint64_t *q_wake = S->q_wake;
    for (uint32_t q = 0; q < nsched; q++) {
        uint64_t qw = q_wake[q];
        if (qw > now) {
            /* nothing of this scheduler's can issue yet: the slot waits as in its last scan */
            S->st.slots[S->reason[q]]++;
            if (qw < next_local) next_local = qw;
            continue;
        }
        /* one copy of the scheduler's loop per policy, and for lrr and gto, the configurations'
         * usual ones, one more for a scheduler's warps in one word of live bits */
        bool one = S->per_q <= 32, go_on;
        if (gto)
            go_on = one ? sched_cycle(M, S, q, now, next, &issued, fail, true, false, true)
                        : sched_cycle(M, S, q, now, next, &issued, fail, true, false, false);
        else if (two)
            go_on = sched_cycle(M, S, q, now, next, &issued, fail, false, true, false);
        else
            go_on = one ? sched_cycle(M, S, q, now, next, &issued, fail, false, false, true)
                        : sched_cycle(M, S, q, now, next, &issued, fail, false, false, false);
        if (!go_on) break;
    }
    *next_out = next_local;
    return issued;
}
