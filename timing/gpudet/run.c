/* run.c: a grid under GPUDet (spec gpudet.md S3.1): the quantum loop and its host threads.
 *
 *   barrier
 *   all:      parallel mode, taking CTA slots from a shared counter (quantum.c)
 *   barrier
 *   all:      commit, taking shares of the chunks from a shared counter (commit.c);
 *             thread 0 waits until every share is written, then alone:
 *   thread 0: serial mode (serial.c), fault check, then the next quantum's work distribution
 *             (distribute.c) and deadlock check, while the others wait at the next barrier
 *
 * Which host thread runs which CTA slot varies from run to run; nothing that a slot's parallel
 * mode computes depends on it (global memory is frozen, shared memory belongs to the CTA, the
 * warps of a CTA run in a fixed order), so results do not depend on the thread count or the
 * seed. The seed is ignored: GPUDet replaces every scheduling choice it would perturb.
 *
 * Hardware warp IDs interleave the SMs: warp slot L of SM s has ID L * SMs + s, so commit
 * priority (lowest ID wins) and W-Ser order mix the SMs rather than favouring SM 0.
 *
 * Faults: the fault of the lowest CTA among those raised in a quantum is reported (every CTA's
 * parallel mode is deterministic, so that set is too); the quantum's commit still happens, and
 * the run stops after it. A CTA whose live warps all wait at a barrier that cannot complete at
 * a quantum start is a barrier deadlock.
 */
#include "timing/gpudet/gpudet.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define GD_DEFAULT_QUANTUM 200

/* Reports every CTA that can never go on; true when there was one. */
static bool deadlocks(gd_run *R)
{
    bool any = false;
    for (uint32_t i = 0; i < R->nactive; i++) {
        gd_wg *wg = R->active[i];
        if (!wg->cta || emu_cta_done(wg->cta)) continue;
        bool runnable = false;
        for (uint32_t k = 0; k < R->W && !runnable; k++)
            runnable = wg->warps[k].w && emu_warp_runnable(wg->warps[k].w);
        if (!runnable) {
            emu_cta_report_deadlock(wg->cta);
            any = true;
        }
    }
    return any;
}

/* Warp instructions of the run so far, at a quantum end (thread 0, the others waiting): the
 * same on every run, whatever the host threads, so the watchdog's instruction limit ends the
 * run at the same quantum. */
static uint64_t gd_instructions(gd_run *R)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < R->nthreads; t++)
        n += R->exec[t].st.warp_instructions - R->exec[t].deferred;
    for (uint32_t s = 0; s < R->nwg; s++)
        if (R->wgs[s].cta) n += timing_cta_instructions(R->wgs[s].cta);
    return n;
}

/* Thread 0 between quanta: distribution, and whether to go on. */
static void between_quanta(gd_run *R)
{
    if (!gd_distribute(R)) {
        R->exec[0].oom = true;
        R->failed = R->done = true;
        return;
    }
    if (deadlocks(R)) {
        R->failed = R->done = true;
        return;
    }
    if (!R->nactive) {
        R->done = true;
        return;
    }
    R->next_wg = 0;
    R->quanta++;
}

/* Commit shares go to whichever threads are awake (a thread the host has not scheduled yet
 * simply takes none); thread 0 waits until every share is written. */
static void commit_shares(gd_run *R, gd_exec *X)
{
    for (;;) {
        uint32_t i = __atomic_fetch_add(&R->commit_next, 1, __ATOMIC_RELAXED);
        if (i >= R->nshares) break;
        gd_commit(R, i, R->nshares, X);
        __atomic_add_fetch(&R->commit_done, 1, __ATOMIC_RELEASE);
    }
}

static void thread_main(void *arg, uint32_t tid)
{
    gd_run *R = arg;
    gd_exec *X = &R->exec[tid];
    gd_cur = X;
    if (tid == 0) between_quanta(R);
    for (;;) {
        timing_barrier_wait(&R->bar);
        if (R->done) break;
        /* every thread left the last commit before this barrier: its counters can go back */
        if (tid == 0) R->commit_next = R->commit_done = 0;
        /* parallel mode */
        for (;;) {
            uint32_t i = __atomic_fetch_add(&R->next_wg, 1, __ATOMIC_RELAXED);
            if (i >= R->nactive) break;
            gd_run_workgroup(R, R->active[i], X);
        }
        timing_barrier_wait(&R->bar);
        /* commit mode */
        commit_shares(R, X);
        if (tid != 0) continue;
        while (__atomic_load_n(&R->commit_done, __ATOMIC_ACQUIRE) < R->nshares) sched_yield();
        /* serial mode, then the next quantum's distribution */
        for (uint32_t t = 0; t < R->nthreads; t++)
            if (R->exec[t].oom) R->failed = R->done = true;
        if (emu_grid_fault(R->g)) R->failed = R->done = true;
        if (!R->done) gd_serial(R, X);
        if (emu_grid_fault(R->g)) R->failed = R->done = true;
        if (!R->done && R->wd.armed && timing_watchdog_expired(&R->wd, gd_instructions(R)))
            R->failed = R->done = true;
        if (!R->done) between_quanta(R);
    }
    gd_cur = NULL;
}

static void set_threads(void *arg, uint32_t n)
{
    gd_run *R = arg;
    R->nthreads = n;
    /* a few shares per thread even out chunks of different weight */
    R->nshares = n > 1 ? 4 * n : 1;
    timing_barrier_init(&R->bar, n);
}

static void free_run(gd_run *R)
{
    if (R->wgs)
        for (uint32_t s = 0; s < R->nwg; s++)
            if (R->wgs[s].cta) emu_cta_destroy(R->wgs[s].cta);
    if (R->slots)
        for (uint64_t i = 0; i < (uint64_t)R->nwg * R->W; i++) gd_sb_free(&R->slots[i].sb);
    free(R->wgs);
    free(R->slots);
    free(R->left);
    free(R->active);
    free(R->commit_order);
    free(R->serial);
    free(R->exec);
}

bool timing_run_gpudet(emu_grid *g, const timing_engine_config *cfg)
{
    gd_run R;
    memset(&R, 0, sizeof R);
    R.g = g;
    R.cfg = cfg;
    R.nsm = cfg->sm_count ? cfg->sm_count : 1;
    R.K = timing_ctas_per_sm(g, cfg);
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    R.W = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    R.Q = cfg->quantum ? cfg->quantum : GD_DEFAULT_QUANTUM;
    R.bta = cfg->bta;
    R.dwp = cfg->dwp && !cfg->cooperative;
    R.ncta = emu_grid_cta_count(g);
    /* CTAs fill the lowest free gslots, so a grid of n CTAs never uses a gslot >= n (that
     * would need n other CTAs resident): a small grid needs only its own count of slots, and
     * the placement is the same. (DWP only deals out CTAs when every slot is full.) */
    uint64_t nwg = (uint64_t)R.nsm * R.K;
    if (nwg > R.ncta) nwg = R.ncta;
    R.nwg = (uint32_t)nwg;
    uint32_t want = cfg->host_threads ? cfg->host_threads : 1;
    if (want > R.ncta) want = (uint32_t)R.ncta;
    if (want > nwg) want = (uint32_t)nwg;
    if (!want) want = 1;
    uint64_t nslots = nwg * R.W;
    R.wgs = calloc(nwg, sizeof *R.wgs);
    R.slots = calloc(nslots, sizeof *R.slots);
    R.active = calloc(nwg, sizeof *R.active);
    R.commit_order = calloc(nslots, sizeof *R.commit_order);
    R.serial = calloc(nslots, sizeof *R.serial);
    R.exec = calloc(want, sizeof *R.exec);
    bool ok = nwg <= UINT32_MAX && nslots <= UINT32_MAX && R.wgs && R.slots && R.active &&
              R.commit_order && R.serial && R.exec;
    if (ok) {
        for (uint32_t s = 0; s < R.nwg; s++) {
            gd_wg *wg = &R.wgs[s];
            wg->gslot = s;
            wg->sm = s % R.nsm;
            wg->k = s / R.nsm;
            wg->warps = &R.slots[(uint64_t)s * R.W];
            for (uint32_t i = 0; i < R.W; i++) {
                gd_slot *sl = &wg->warps[i];
                sl->sm = wg->sm;
                sl->local = wg->k * R.W + i;
                sl->wid = sl->local * R.nsm + wg->sm;
                gd_sb_init(&sl->sb);
            }
        }
        emu_grid_set_policy(g, gd_policy());
        R.nthreads = want;
        timing_watchdog_start(&R.wd, cfg);
        timing_pool_run(want, set_threads, thread_main, &R);
        timing_barrier_destroy(&R.bar);
        if (timing_watchdog_fired(&R.wd)) {
            for (uint32_t s = 0; s < R.nwg; s++)
                if (R.wgs[s].cta) timing_watchdog_describe_cta(&R.wd, R.wgs[s].cta);
            timing_watchdog_finish(&R.wd, g, gd_pending_count(&R));
        }
        timing_watchdog_destroy(&R.wd);
    }
    bool oom = !ok;
    timing_stats st = {0};
    st.grids = 1;
    for (uint32_t t = 0; ok && t < R.nthreads; t++) {
        gd_exec *X = &R.exec[t];
        oom = oom || X->oom;
        timing_stats_add(&st, &X->st);
        st.warp_instructions -= X->deferred;
    }
    st.grids = 1;
    st.quanta = R.quanta;
    /* CTAs still resident (after a fault) count their instructions too */
    for (uint32_t s = 0; ok && s < R.nwg; s++)
        if (R.wgs[s].cta) st.warp_instructions += timing_cta_instructions(R.wgs[s].cta);
    if (cfg->stats) timing_stats_add(cfg->stats, &st);
    free_run(&R);
    if (oom) return false;
    return !R.failed && !emu_grid_fault(g);
}
