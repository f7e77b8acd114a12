/* engine_parallel.c: the engine without determinism (--det=off).
 *
 * SM s runs on host thread s % threads. Each SM holds up to timing_ctas_per_sm CTAs; its
 * scheduler takes their warps in turn, each for a budget of warp instructions. When a CTA
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
 * A fault or a barrier deadlock stops every host thread; the fault of the lowest CTA among
 * those recorded is the one reported (emu_grid_record_fault).
 */
#include "timing/engine/engine_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct par_cta {
    emu_cta *c;
    uint32_t nwarps;
    uint32_t next_warp;       /* round-robin pointer of the warp scheduler */
} par_cta;

typedef struct par_sm {
    par_cta *res;             /* resident CTAs, up to `slots` */
    uint32_t n;
    uint32_t rr;              /* which CTA's warp runs next */
} par_sm;

typedef struct par_run {
    emu_grid *g;
    const timing_engine_config *cfg;
    uint32_t nsm, slots, nthreads;
    uint64_t budget;
    par_sm *sms;
    uint64_t ncta;
    uint64_t issued;          /* atomic: CTAs handed out, an index into the issue order */
    uint64_t perm_a, perm_b;  /* issue order: CTA (a*i + b) mod ncta; a = 1, b = 0 unseeded */
    int stop;                 /* atomic: a fault or deadlock; every thread stops */
    int oom;                  /* atomic: a CTA could not be created */
    uint64_t instr;           /* atomic: warp instructions of retired CTAs */
    uint64_t ctas;            /* atomic: CTAs created */
    timing_watchdog wd;
} par_run;

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t issue_order(const par_run *R, uint64_t i)
{
    return (uint64_t)(((unsigned __int128)R->perm_a * i + R->perm_b) % R->ncta);
}

static bool place(par_run *R, uint32_t sm, uint64_t i)
{
    par_sm *S = &R->sms[sm];
    emu_cta *c = emu_cta_create(R->g, issue_order(R, i), sm);
    if (!c) {
        __atomic_store_n(&R->oom, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
        return false;
    }
    S->res[S->n++] = (par_cta){c, emu_cta_warp_count(c), 0};
    __atomic_add_fetch(&R->ctas, 1, __ATOMIC_RELAXED);
    return true;
}

static void retire(par_run *R, par_sm *S, uint32_t idx)
{
    emu_cta *c = S->res[idx].c;
    __atomic_add_fetch(&R->instr, timing_cta_instructions(c), __ATOMIC_RELAXED);
    emu_cta_destroy(c);
    memmove(&S->res[idx], &S->res[idx + 1], (S->n - idx - 1) * sizeof *S->res);
    S->n--;
    if (S->rr > idx) S->rr--;
}

/* One scheduling step of SM S: one warp runs for a budget. */
static void step(par_run *R, par_sm *S, timing_rng *rng, bool seeded)
{
    if (S->rr >= S->n) S->rr = 0;
    uint32_t idx = seeded ? (uint32_t)timing_rng_below(rng, S->n) : S->rr++;
    par_cta *pc = &S->res[idx];
    uint32_t nw = pc->nwarps;
    uint32_t start = seeded ? (uint32_t)timing_rng_below(rng, nw) : pc->next_warp;
    emu_warp *w = NULL;
    uint32_t wi = 0;
    for (uint32_t k = 0; k < nw; k++) {
        wi = (start + k) % nw;
        emu_warp *x = emu_cta_warp(pc->c, wi);
        if (emu_warp_runnable(x)) {
            w = x;
            break;
        }
    }
    if (!w) {
        if (emu_cta_done(pc->c)) {
            retire(R, S, idx);
        } else {
            /* every live warp waits at a barrier nobody else can complete */
            emu_cta_report_deadlock(pc->c);
            __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
        }
        return;
    }
    pc->next_warp = (wi + 1) % nw;
    uint64_t budget = seeded ? 1 + timing_rng_below(rng, 2 * R->budget) : R->budget;
    uint64_t before = emu_warp_instructions(w);
    emu_stop r = emu_warp_run(w, budget);
    if (timing_watchdog_step(&R->wd, emu_warp_instructions(w) - before))
        __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
    if (r == EMU_STOP_FAULT) {
        __atomic_store_n(&R->stop, 1, __ATOMIC_RELAXED);
        return;
    }
    if (r == EMU_STOP_EXIT && emu_cta_done(pc->c)) retire(R, S, idx);
}

static void worker(void *arg, uint32_t tid)
{
    par_run *R = arg;
    bool seeded = R->cfg->seed != 0;
    timing_rng rng = {R->cfg->seed * UINT64_C(0x2545f4914f6cdd1d) + tid};
    for (;;) {
        if (__atomic_load_n(&R->stop, __ATOMIC_RELAXED)) break;
        bool busy = false;
        for (uint32_t sm = tid; sm < R->nsm; sm += R->nthreads) {
            par_sm *S = &R->sms[sm];
            while (S->n < R->slots && __atomic_load_n(&R->issued, __ATOMIC_RELAXED) < R->ncta) {
                uint64_t i = __atomic_fetch_add(&R->issued, 1, __ATOMIC_RELAXED);
                if (i >= R->ncta || !place(R, sm, i)) break;
            }
            if (!S->n) continue;
            busy = true;
            step(R, S, &rng, seeded);
            if (__atomic_load_n(&R->stop, __ATOMIC_RELAXED)) break;
        }
        if (!busy) break;   /* my SMs are empty and nothing is left to issue */
    }
}

static void set_threads(void *arg, uint32_t n)
{
    par_run *R = arg;
    R->nthreads = n;
}

bool timing_run_parallel(emu_grid *g, const timing_engine_config *cfg)
{
    par_run R;
    memset(&R, 0, sizeof R);
    R.g = g;
    R.cfg = cfg;
    R.nsm = cfg->sm_count ? cfg->sm_count : 1;
    R.slots = timing_ctas_per_sm(g, cfg);
    R.budget = cfg->warp_budget ? cfg->warp_budget : 100;
    R.ncta = emu_grid_cta_count(g);
    R.perm_a = 1;
    R.perm_b = 0;
    bool seeded = cfg->seed != 0;
    timing_rng rng = {cfg->seed};
    if (seeded && R.ncta > 1) {
        do R.perm_a = 1 + timing_rng_below(&rng, R.ncta - 1);
        while (gcd64(R.perm_a, R.ncta) != 1);
        R.perm_b = timing_rng_below(&rng, R.ncta);
    }
    timing_watchdog_start(&R.wd, cfg);
    R.sms = calloc(R.nsm, sizeof *R.sms);
    bool ok = R.sms != NULL;
    for (uint32_t s = 0; ok && s < R.nsm; s++) {
        R.sms[s].res = calloc(R.slots, sizeof *R.sms[s].res);
        ok = R.sms[s].res != NULL;
    }
    /* Initial distribution: the slot order (slot k of every SM before slot k+1 of any), or
     * a seeded SM for each CTA. */
    uint64_t first = (uint64_t)R.nsm * R.slots < R.ncta ? (uint64_t)R.nsm * R.slots : R.ncta;
    uint32_t busy_sms = 0;
    for (uint64_t i = 0; ok && i < first; i++) {
        uint32_t sm = (uint32_t)(i % R.nsm);
        if (seeded) {
            sm = (uint32_t)timing_rng_below(&rng, R.nsm);
            while (R.sms[sm].n >= R.slots) sm = (sm + 1) % R.nsm;
        }
        if (!R.sms[sm].n) busy_sms++;
        ok = place(&R, sm, i);
    }
    R.issued = first;
    if (ok) {
        uint32_t want = cfg->host_threads ? cfg->host_threads : 1;
        if (want > R.nsm) want = R.nsm;
        /* threads without a busy SM would only wait for refills that may never come */
        if (R.ncta <= (uint64_t)R.nsm * R.slots && want > busy_sms) want = busy_sms ? busy_sms : 1;
        R.nthreads = want;
        timing_pool_run(want, set_threads, worker, &R);
    }
    for (uint32_t s = 0; R.sms && s < R.nsm && timing_watchdog_fired(&R.wd); s++)
        for (uint32_t i = 0; i < R.sms[s].n; i++) timing_watchdog_describe_cta(&R.wd, R.sms[s].res[i].c);
    if (timing_watchdog_fired(&R.wd))
        timing_watchdog_finish(&R.wd, g, R.issued < R.ncta ? R.ncta - R.issued : 0);
    timing_watchdog_destroy(&R.wd);
    for (uint32_t s = 0; R.sms && s < R.nsm; s++) {
        par_sm *S = &R.sms[s];
        for (uint32_t i = 0; i < S->n; i++) {
            R.instr += timing_cta_instructions(S->res[i].c);
            emu_cta_destroy(S->res[i].c);
        }
        free(S->res);
    }
    free(R.sms);
    if (cfg->stats) {
        timing_stats st = {0};
        st.grids = 1;
        st.ctas = R.ctas;
        st.warp_instructions = R.instr;
        timing_stats_add(cfg->stats, &st);
    }
    if (!ok || R.oom) return false;
    return !R.stop && !emu_grid_fault(g);
}
