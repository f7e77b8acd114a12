/* engine_parallel.c: the engine without determinism (--det=off).
 *
 * SM s runs on host thread s % threads. Each SM holds up to timing_ctas_per_sm CTAs; its
 * scheduler gives them turns, in which the CTA's ready warps run in turn (a warp runs until it
 * has spent the budget of warp instructions, which ends the turn, or the next one runs when it
 * stops at a barrier or exits; seed 0: the warps together up to a budget each). When a CTA
 * finishes, its SM takes the next CTA of the issue order, whichever host thread gets there
 * first: global memory is shared for real (the direct policy's relaxed accesses, host atomics),
 * so a racy program races as on a GPU.
 *
 * A seed of 0 fixes every choice: CTAs issue in ascending order to SMs round-robin (the same
 * slot order as GPUDet's work distribution), CTAs and warps take turns in order, budgets are
 * fixed; with one host thread the run is then reproducible. A non-zero seed perturbs each of
 * those choices (issue order, the SM a CTA lands on, which CTA and warp run next, how long a
 * warp runs), even with one host thread, so races show up on demand.
 *
 * A fault, a barrier deadlock or the watchdog stops every host thread; the fault of the lowest CTA among
 * those recorded is the one reported (emu_grid_record_fault).
 *
 * As an instance of the engine skeleton (skeleton.h) it is one epoch of one phase: each thread
 * runs its own SMs until they are empty and nothing is left to issue. The skeleton owns the SMs,
 * their slots (a CTA is built in the storage its slot kept from the last one), the SM-to-thread
 * ownership and the issue order; this file owns the warp scheduler.
 */
#include "timing/engine/engine_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A resident CTA. It is built in its slot (from the thread's storage pool) when it first runs,
 * not when it is placed: creating it has no effect anything else sees, and built then, the
 * storage the thread's last CTA left is still in cache (empty blocks cost a fraction of a
 * microsecond so). */
typedef struct par_cta {
    eng_slot *slot;           /* slot->cta: the CTA once built, NULL before */
    uint64_t id;              /* its linear id */
    uint32_t next_warp;       /* round-robin pointer of the warp scheduler */
    /* One bit per warp (a CTA has at most 32), valid once the CTA is built: warps that have
     * not exited, and warps that can run (emu_warp_runnable). The scheduler picks from them
     * without touching the warps, most of which are out of the host's cache: a warp's state
     * changes only while a warp of its CTA runs (its own exit or barrier, or a barrier that
     * run completes: emu_cta_barriers_completed moves), so both are brought up to date after
     * every run (emu_cta_run_turn keeps them, track_warps at the CTA's start). */
    uint32_t live, ready;
    uint64_t barriers;        /* emu_cta_barriers_completed when `ready` was last made whole */
    /* The warp its next turn runs (the first ready one from next_warp), known after its last
     * run: the steps before prefetch it (prefetch_ahead); NULL before the CTA is built. */
    const emu_warp *hint;
} par_cta;

typedef struct par_sm {
    par_cta *res;             /* resident CTAs in the order they arrived, up to `slots` */
    uint32_t n;
    uint32_t rr;              /* which CTA's warp runs next */
    uint32_t *free;           /* the SM's empty slots, the one emptied last on top (its
                                 storage is the likeliest still in cache) */
    uint32_t nfree;
} par_sm;

typedef struct par_run {
    eng_run E;
    uint32_t slots;
    uint32_t nwarps;          /* warps of every CTA */
    uint64_t budget;
    par_sm *sms;
    par_cta *res_all;         /* the SMs' `res` lists, SM by SM */
    uint32_t *free_all;       /* the SMs' `free` lists, SM by SM */
    int stop;                 /* atomic: a fault or deadlock; every thread stops */
    int oom;                  /* atomic: a CTA could not be created */
    timing_watchdog wd;       /* the launch's time / instruction limit (watchdog.c) */
} par_run;

/* Places the next CTA of the issue order on SM sm, in a free slot; false when none is left to
 * issue. */
static bool place(par_run *R, uint32_t sm, eng_thread *T)
{
    eng_run *E = &R->E;
    par_sm *S = &R->sms[sm];
    uint64_t id;
    if (!eng_issue_take(E, &id)) return false;
    assert(S->nfree);
    eng_slot *slot = eng_slot_at(E, sm, S->free[--S->nfree]);
    S->res[S->n++] = (par_cta){slot, id, 0, 0, 0, 0, NULL};
    T->st.ctas++;
    return true;
}

static void retire(par_run *R, par_sm *S, uint32_t idx, eng_thread *T)
{
    eng_slot *slot = S->res[idx].slot;
    eng_slot_retire(&R->E, slot, T);
    S->free[S->nfree++] = slot->k;
    memmove(&S->res[idx], &S->res[idx + 1], (S->n - idx - 1) * sizeof *S->res);
    S->n--;
    if (S->rr > idx) S->rr--;
}

/* Brings the bits of the warps `which` of pc's CTA c up to date with their states. */
static inline void track_warps(par_cta *pc, const emu_cta *c, uint32_t which)
{
    uint32_t live, ready;
    emu_cta_warp_bits(c, which, &live, &ready);
    pc->live = (pc->live & ~which) | live;
    pc->ready = (pc->ready & ~which) | ready;
}

/* The first warp of `ready` at or after `start`, round the CTA: what a scan of the warps from
 * `start` for a runnable one finds. ready != 0. */
static inline uint32_t first_ready(uint32_t ready, uint32_t start)
{
    uint32_t from = ready & (UINT32_MAX << start);
    return (uint32_t)__builtin_ctz(from ? from : ready);
}

/* The CTA whose warp SM sm's next step runs, as far as can be told now (seed 0), or the one
 * after it (later); NULL for an empty SM. */
static par_cta *turn(par_run *R, uint32_t sm, bool later)
{
    par_sm *S = &R->sms[sm];
    if (!S->n) return NULL;
    uint32_t rr = S->rr < S->n ? S->rr : 0, i = rr + later;   /* (rr + later) % n, no division */
    return &S->res[i < S->n ? i : 0];
}

/* Seed 0, where the schedule is known: while SM sm's step runs its warp, the host's caches
 * load what the thread's next two steps will read (the warps of a grid are far more than the
 * caches hold: every step would otherwise begin with a chain of misses). The step after next:
 * its warp's record; the next one: what that record points to (emu_warp_prefetch). A guess
 * that turns out wrong (a CTA placed or retired meanwhile) costs only the loads. */
static void prefetch_ahead(par_run *R, uint32_t sm)
{
    eng_run *E = &R->E;
    uint32_t nt = E->nthreads, tid = sm % nt, s = sm, s_next = UINT32_MAX;
    par_cta *next = NULL, *after = NULL;
    for (uint32_t i = 0; i < 8 && !after; i++) {
        s = s + nt < E->nsm ? s + nt : tid;
        par_cta *p = turn(R, s, s == s_next);
        if (!p) continue;
        if (next) {
            after = p;
        } else {
            next = p;
            s_next = s;
        }
    }
    if (after && after->hint) emu_warp_prefetch(after->hint, false);
    if (next && next->hint) emu_warp_prefetch(next->hint, true);
}

/* emu_cta_run_turn's hooks: an armed watchdog counts each run (a fault or the limit stops
 * every thread); seeded, the search for the next warp starts at a drawn one. */
struct turn_hooks {
    par_run *R;
    timing_rng *rng;
    uint32_t nwarps;
};

static void count_run(void *arg, uint64_t n)
{
    struct turn_hooks *h = arg;
    if (timing_watchdog_step(&h->R->wd, n)) __atomic_store_n(&h->R->stop, 1, __ATOMIC_RELAXED);
}

static uint32_t draw_warp(void *arg)
{
    struct turn_hooks *h = arg;
    return (uint32_t)timing_rng_below(h->rng, h->nwarps);
}

/* One scheduling step of SM S: one warp runs for a budget. */
static void step(par_run *R, par_sm *S, timing_rng *rng, bool seeded, eng_thread *T)
{
    if (S->rr >= S->n) S->rr = 0;
    uint32_t idx = seeded ? (uint32_t)timing_rng_below(rng, S->n) : S->rr++;
    par_cta *pc = &S->res[idx];
    emu_cta *c = pc->slot->cta;
    if (!c) {
        if (!(c = eng_slot_launch(&R->E, pc->slot, pc->id, T))) {
            __atomic_store_n(&R->oom, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
            return;
        }
        assert(emu_cta_warp_count(c) == R->nwarps && R->nwarps <= 32);
        track_warps(pc, c, R->nwarps == 32 ? UINT32_MAX : (1u << R->nwarps) - 1);
        pc->barriers = emu_cta_barriers_completed(c);
    }
    if (!seeded) prefetch_ahead(R, (uint32_t)(S - R->sms));
    uint32_t nw = R->nwarps;
    uint32_t start = seeded ? (uint32_t)timing_rng_below(rng, nw) : pc->next_warp;
    if (!pc->ready) {
        if (!pc->live) {   /* every warp has exited (emu_cta_done) */
            retire(R, S, idx, T);
        } else {
            /* every live warp waits at a barrier nobody else can complete */
            emu_cta_report_deadlock(c);
            __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
        }
        return;
    }
    /* The turn is the CTA's: when its warp stops at a barrier or exits with budget left, the
     * CTA's next ready warp runs on in the same step. Barrier-bound kernels (a scan's tree
     * steps: a few warp instructions between barriers) otherwise pay a step, and the cache
     * misses of a CTA last touched a round of SMs ago, for every few instructions. Seed 0:
     * each warp runs at most a slice (the budget) and the turn ends when one spends its
     * slice, as a warp's turn would; the CTA's warps together run at most a slice each, so a
     * barrier-bound CTA runs one turn's worth of every warp, not of one: a CTA last run a
     * round of SMs ago has left the host's caches (the SMs' resident CTAs together are tens of
     * MB: a 512-thread scan CTA's registers alone are over 100 KB), and a turn of 1000 warp
     * instructions in all took it through a few barriers, the next turn missing again (kernel
     * CPU time, one host thread, least of 5 / 3 / 2 runs under load 4-5: scan 16M JIT 523 ->
     * 480 ms, interpreter 1616 -> 1277 ms; bitonic 1M JIT 585 -> 477 ms, interpreter 3867 ->
     * 2730 ms). Seeded: one drawn slice for the turn, as before. */
    uint64_t slice = seeded ? 1 + timing_rng_below(rng, 2 * R->budget) : R->budget;
    uint64_t left = slice;
    if (!seeded && __builtin_mul_overflow(slice, nw, &left)) left = UINT64_MAX;
    /* the turn's runs in one emulator call (emu_cta_run_turn); seeded, each next warp drawn,
     * and an armed watchdog counts each run */
    struct turn_hooks h = {R, rng, nw};
    emu_cta_turn t = {pc->live, pc->ready, start, slice, left, pc->barriers,
                      R->wd.armed ? count_run : NULL, seeded ? draw_warp : NULL, &h};
    emu_stop r = emu_cta_run_turn(c, &t, &R->stop);
    pc->live = t.live;
    pc->ready = t.ready;
    pc->next_warp = t.next;
    pc->barriers = t.barriers;
    if (r == EMU_STOP_FAULT) {
        __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
        return;
    }
    if (r == EMU_STOP_EXIT && !pc->live) {   /* emu_cta_done */
        retire(R, S, idx, T);
        return;
    }
    pc->hint = pc->ready ? emu_cta_warp(c, first_ready(pc->ready, pc->next_warp)) : NULL;
}

/* The one phase: thread T runs its SMs (SM s belongs to thread s % threads) until they are
 * empty and nothing is left to issue, or the grid stops. */
static void run_sms(eng_run *E, eng_thread *T, uint32_t tid)
{
    par_run *R = (par_run *)E;
    bool seeded = E->cfg->seed != 0;
    timing_rng rng = {E->cfg->seed * UINT64_C(0x2545f4914f6cdd1d) + tid};
    for (;;) {
        if (__atomic_load_n(&R->stop, __ATOMIC_RELAXED)) break;
        bool busy = false;
        for (uint32_t sm = tid; sm < E->nsm; sm += E->nthreads) {
            par_sm *S = &R->sms[sm];
            while (S->n < R->slots && eng_issue_left(E))
                if (!place(R, sm, T)) break;
            if (!S->n) continue;
            busy = true;
            step(R, S, &rng, seeded, T);
            if (__atomic_load_n(&R->stop, __ATOMIC_RELAXED)) break;
        }
        if (!busy) break;   /* my SMs are empty and nothing is left to issue */
    }
}

static const eng_phase parallel_phases[] = {
    {"run", ENG_PHASE_THREAD, run_sms},
};

static const eng_instance parallel_engine = {
    .name = "parallel",
    .phases = parallel_phases,
    .nphases = 1,
};

bool timing_run_parallel(emu_grid *g, const timing_engine_config *cfg)
{
    par_run R;
    memset(&R, 0, sizeof R);
    eng_run *E = &R.E;
    /* an SM never holds more CTAs than the grid has: no more slots than that */
    uint64_t ncta = emu_grid_cta_count(g);
    R.slots = timing_ctas_per_sm(g, cfg);
    if (R.slots > ncta) R.slots = ncta ? (uint32_t)ncta : 1;
    /* Without determinism the turn's length is the engine's choice (CUDA promises no
     * interleaving of warps): long, because every turn costs the executor a re-entry (the
     * JIT's register rows reloaded mid-loop, the interpreter's warp state brought back into
     * the cache). Kernel time, one host thread, 100 -> 1000: Mandelbrot 1024 JIT 229 -> 109
     * ms, interpreter 2548 -> 1877 ms; Black-Scholes 4M JIT 554 -> 363 ms; n-body 8192 JIT
     * 288 -> 210 ms. 1000 -> 10000 (least of 6 interleaved runs, load 8-10; JIT /
     * interpreter): matmul 512 59.8 -> 47.9 / 732 -> 684 ms, n-body 8192 61.0 -> 52.8 / 1022
     * -> 936, Mandelbrot 1024 42.1 -> 22.0 / 1093 -> 1058 (a warp's whole loop in one turn),
     * Black-Scholes and the memory-bound set unchanged (their warps end within a turn);
     * longer turns gain little more (n-body at 100000: 48.7 ms, the others flat). What a long
     * turn costs is a spinning warp's wait: a warp that spins on a flag or lock another warp
     * sets burns its whole turn, so a cooperative grid, whose every grid-wide sync spins,
     * keeps the short turn (tests/cuda/coop_grid_sync.cu at 10000: 12 -> 67 ms; the other
     * spinning tests/cuda programs, locks and flags within a CTA, do not move). A seed draws
     * each turn from 1 .. twice the short turn, as before, so seeded runs still interleave at
     * every grain. */
    bool seeded = cfg->seed != 0;
    R.budget = cfg->warp_budget                ? cfg->warp_budget
               : seeded || cfg->cooperative    ? TIMING_DET_OFF_SHORT_TURN
                                               : TIMING_DET_OFF_TURN;
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    R.nwarps = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    bool ok = eng_init(E, g, cfg, R.slots, UINT64_MAX, cfg->host_threads);
    timing_rng rng = {cfg->seed};
    if (seeded) eng_issue_shuffle(E, &rng);
    R.sms = ok ? calloc(E->nsm, sizeof *R.sms) : NULL;
    /* every SM's resident list and free slots, in one allocation each (a launch of a small
     * grid should not cost an allocation per SM) */
    size_t per_grid = (size_t)E->nsm * R.slots;
    R.res_all = ok ? calloc(per_grid, sizeof *R.res_all) : NULL;
    R.free_all = ok ? malloc(per_grid * sizeof *R.free_all) : NULL;
    ok = ok && R.sms && R.res_all && R.free_all;
    for (uint32_t s = 0; ok && s < E->nsm; s++) {
        par_sm *S = &R.sms[s];
        S->res = R.res_all + (size_t)s * R.slots;
        S->free = R.free_all + (size_t)s * R.slots;
        for (uint32_t k = 0; k < R.slots; k++) S->free[S->nfree++] = R.slots - 1 - k;
    }
    /* Initial distribution: the slot order (slot k of every SM before slot k+1 of any), or
     * a seeded SM for each CTA. */
    uint64_t first = (uint64_t)E->nsm * R.slots < E->ncta ? (uint64_t)E->nsm * R.slots : E->ncta;
    uint32_t busy_sms = 0;
    for (uint64_t i = 0; ok && i < first; i++) {
        uint32_t sm = (uint32_t)(i % E->nsm);
        if (seeded) {
            sm = (uint32_t)timing_rng_below(&rng, E->nsm);
            while (R.sms[sm].n >= R.slots) sm = (sm + 1) % E->nsm;
        }
        if (!R.sms[sm].n) busy_sms++;
        ok = place(&R, sm, &E->threads[0]);
    }
    if (ok) {
        /* threads without a busy SM would only wait for refills that may never come */
        if (E->ncta <= (uint64_t)E->nsm * R.slots && E->max_threads > busy_sms)
            E->max_threads = busy_sms ? busy_sms : 1;
        timing_watchdog_start(&R.wd, cfg);
        eng_run_epochs(E, &parallel_engine, &R);
        if (timing_watchdog_fired(&R.wd)) {
            for (uint32_t s = 0; s < E->nsm; s++)
                for (uint32_t i = 0; i < R.sms[s].n; i++)
                    if (R.sms[s].res[i].slot->cta)
                        timing_watchdog_describe_cta(&R.wd, R.sms[s].res[i].slot->cta);
            timing_watchdog_finish(&R.wd, g, eng_issue_left(E));
        }
        timing_watchdog_destroy(&R.wd);
    }
    timing_stats st = {0};
    eng_fini(E, &st);
    free(R.res_all);
    free(R.free_all);
    free(R.sms);
    if (cfg->stats) {
        st.grids = 1;
        timing_stats_add(cfg->stats, &st);
    }
    if (!ok || R.oom) return false;
    return !R.stop && !emu_grid_fault(g);
}
