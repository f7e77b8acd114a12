/* run.c: a grid under GPUDet (spec gpudet.md S3.1): the quantum loop, as an instance of the
 * engine skeleton (timing/engine/skeleton.h). A quantum is one epoch:
 *
 *   phase "parallel" (per SM):     each host thread runs parallel mode for the occupied CTA
 *                                  slots of the SMs it owns, in slot order (quantum.c)
 *   barrier
 *   phase "commit" (per share):    each host thread commits its shares of the chunks (commit.c)
 *   barrier, whose last thread alone runs serial mode (serial.c), the fault check, the next
 *                                  quantum's work distribution (distribute.c) and the deadlock
 *                                  check, before the others go on
 *
 * The first distribution runs before the first quantum (begin). Nothing that a slot's parallel
 * mode computes depends on which host thread runs it (global memory is frozen, shared memory
 * belongs to the CTA, the warps of a CTA run in a fixed order), the shares of the commit are
 * disjoint, and serial mode runs alone in a fixed order, so results do not depend on the thread
 * count or the seed. The seed is ignored: GPUDet replaces every scheduling choice it would
 * perturb.
 *
 * Hardware warp IDs interleave the SMs: warp slot L of SM s has ID L * SMs + s, so commit
 * priority (lowest ID wins) and W-Ser order mix the SMs rather than favouring SM 0.
 *
 * The watchdog's limits are checked between quanta, so an instruction limit ends the run at the
 * same quantum on every run.
 *
 * Faults: the fault of the lowest CTA among those raised in a quantum is reported (every CTA's
 * parallel mode is deterministic, so that set is too); the quantum's commit still happens, and
 * the run stops after it. A CTA whose live warps all wait at a barrier that cannot complete at
 * a quantum start is a barrier deadlock.
 */
#include "timing/gpudet/gpudet.h"

#include <stdlib.h>
#include <string.h>

#define GD_DEFAULT_QUANTUM 200

/* Reports every CTA that can never go on; true when there was one. */
static bool deadlocks(gd_run *R)
{
    bool any = false;
    for (uint32_t i = 0; i < R->nactive; i++) {
        gd_wg *wg = R->active[i];
        emu_cta *c = wg->es->cta;
        if (!c || emu_cta_done(c)) continue;
        bool runnable = false;
        for (uint32_t k = 0; k < R->W && !runnable; k++)
            runnable = wg->warps[k].w && emu_warp_runnable(wg->warps[k].w);
        if (!runnable) {
            emu_cta_report_deadlock(c);
            any = true;
        }
    }
    return any;
}

/* Warp instructions of the run so far, at a quantum end (alone): the same on every run,
 * whatever the host threads, so the watchdog's instruction limit ends the run at the same
 * quantum. Retired CTAs are counted by the skeleton per thread, resident ones here. */
static uint64_t gd_instructions(gd_run *R)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < R->E.nthreads_alloc; t++)
        n += R->E.threads[t].st.warp_instructions - R->exec[t].deferred;
    for (uint32_t s = 0; s < R->nwg; s++)
        if (R->wgs[s].es->cta) n += timing_cta_instructions(R->wgs[s].es->cta);
    return n;
}

/* Between quanta, alone: distribution, and whether to go on. */
static bool between_quanta(gd_run *R, gd_exec *X)
{
    if (!gd_distribute(R, X)) {
        X->oom = true;
        R->failed = true;
        return false;
    }
    if (deadlocks(R)) {
        R->failed = true;
        return false;
    }
    if (!R->nactive) return false;
    R->quanta++;
    timing_record_gpudet_phase(R->quanta, false);
    return true;
}

/* The cycle model's record (--timing): one Z-buffer unit request per store-buffer entry the
 * quantum's commit took. */
static void record_commit(const gd_run *R)
{
    if (!timing_record_active()) return;
    for (uint32_t i = 0; i < R->ncommit; i++) {
        const gd_slot *sl = R->commit_order[i];
        for (uint32_t k = 0; k < sl->sb.n; k++) timing_record_gpudet_commit(sl->sm, sl->wid, sl->sb.e[k].chunk);
    }
}

static bool begin(eng_run *E, eng_thread *T)
{
    gd_run *R = (gd_run *)E;
    return between_quanta(R, &R->exec[T->tid]);
}

/* Parallel mode of the SM's occupied workgroup slots, in slot order. */
static void parallel_sm(eng_run *E, eng_thread *T, uint32_t sm)
{
    gd_run *R = (gd_run *)E;
    for (uint32_t k = 0; k < E->K && eng_slot_exists(E, sm, k); k++) {
        gd_wg *wg = &R->wgs[(uint64_t)k * R->nsm + sm];
        if (wg->active) gd_run_workgroup(R, wg, &R->exec[T->tid]);
    }
}

static void commit_share(eng_run *E, eng_thread *T, uint32_t share)
{
    gd_run *R = (gd_run *)E;
    gd_commit(R, share, E->nshares ? E->nshares : E->nthreads, &R->exec[T->tid]);
}

/* After the commit, alone: serial mode, then the next quantum's distribution. */
static bool serial(eng_run *E, eng_thread *T)
{
    gd_run *R = (gd_run *)E;
    gd_exec *X = &R->exec[T->tid];
    for (uint32_t t = 0; t < E->nthreads; t++)
        if (R->exec[t].oom) R->failed = true;
    if (R->failed || emu_grid_fault(R->g)) return false;
    /* --igpu-paging: the pages the quantum's warps waited for are in for every warp now */
    timing_igpu_quantum_end(emu_grid_launch(R->g)->policy);
    record_commit(R);
    timing_record_gpudet_phase(R->quanta, true);
    gd_serial(R, X);
    if (R->failed || emu_grid_fault(R->g)) return false;
    if (R->wd.armed && timing_watchdog_expired(&R->wd, gd_instructions(R))) {
        R->failed = true;
        return false;
    }
    return between_quanta(R, X);
}

static const eng_phase gpudet_phases[] = {
    {"parallel", ENG_PHASE_SMS, parallel_sm},
    {"commit", ENG_PHASE_SHARES, commit_share},
};

static const eng_instance gpudet_engine = {
    .name = "gpudet",
    .phases = gpudet_phases,
    .nphases = 2,
    .begin = begin,
    .serial = serial,
};

static void free_run(gd_run *R)
{
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
    uint32_t want = cfg->host_threads ? cfg->host_threads : 1;
    if (want > nwg) want = (uint32_t)(nwg ? nwg : 1);
    bool ok = eng_init(&R.E, g, cfg, R.K, nwg, want);
    R.nwg = R.E.nslots;
    uint64_t nslots = (uint64_t)R.nwg * R.W;
    R.wgs = calloc(R.nwg ? R.nwg : 1, sizeof *R.wgs);
    R.slots = calloc(nslots ? nslots : 1, sizeof *R.slots);
    R.active = calloc(R.nwg ? R.nwg : 1, sizeof *R.active);
    R.commit_order = calloc(nslots ? nslots : 1, sizeof *R.commit_order);
    R.serial = calloc(nslots ? nslots : 1, sizeof *R.serial);
    R.exec = calloc(R.E.nthreads_alloc, sizeof *R.exec);
    ok = ok && nslots <= UINT32_MAX && R.wgs && R.slots && R.active && R.commit_order &&
         R.serial && R.exec;
    if (ok) {
        for (uint32_t t = 0; t < R.E.nthreads_alloc; t++) R.exec[t].T = &R.E.threads[t];
        for (uint32_t s = 0; s < R.nwg; s++) {
            gd_wg *wg = &R.wgs[s];
            wg->es = eng_slot_by_gslot(&R.E, s);
            wg->es->user = wg;
            wg->gslot = s;
            wg->sm = wg->es->sm;
            wg->k = wg->es->k;
            wg->warps = &R.slots[(uint64_t)s * R.W];
            for (uint32_t i = 0; i < R.W; i++) {
                gd_slot *sl = &wg->warps[i];
                sl->sm = wg->sm;
                sl->local = wg->k * R.W + i;
                sl->wid = sl->local * R.nsm + wg->sm;
                sl->sb_cap = cfg->gpudet_sb_entries;
                gd_sb_init(&sl->sb);
            }
        }
        /* an iGPU restart policy of the launch stays on top: it decides faults in each warp's
         * own program order, which GPUDet keeps */
        emu_mem_policy *launch = emu_grid_launch(g)->policy;
        emu_grid_set_policy(g, timing_kilotm_over(launch, timing_igpu_over(launch, gd_policy())));
        timing_watchdog_start(&R.wd, cfg);
        eng_run_epochs(&R.E, &gpudet_engine, &R);
        if (timing_watchdog_fired(&R.wd)) {
            for (uint32_t s = 0; s < R.nwg; s++)
                if (R.wgs[s].es->cta) timing_watchdog_describe_cta(&R.wd, R.wgs[s].es->cta);
            timing_watchdog_finish(&R.wd, g, gd_pending_count(&R));
        }
        timing_watchdog_destroy(&R.wd);
    }
    bool oom = !ok;
    timing_stats st = {0};
    for (uint32_t t = 0; ok && t < R.E.nthreads_alloc; t++) {
        gd_exec *X = &R.exec[t];
        oom = oom || X->oom;
        timing_stats_add(&st, &X->st);
        st.warp_instructions -= X->deferred;
    }
    /* the skeleton's counts: CTAs launched, instructions of retired and resident CTAs */
    eng_fini(&R.E, &st);
    st.grids = 1;
    st.quanta = R.quanta;
    if (cfg->stats) timing_stats_add(cfg->stats, &st);
    free_run(&R);
    if (oom) return false;
    return !R.failed && !emu_grid_fault(g);
}
