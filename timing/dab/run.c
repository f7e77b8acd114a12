/* run.c: a grid under DAB (spec dab.md), as an instance of the engine skeleton
 * (timing/engine/skeleton.h); dab.h describes the epoch. Nothing an SM does in an epoch
 * depends on another host thread (global memory is frozen during the epoch, the SM's warps run
 * in a fixed order on one thread), the commit's shares are disjoint and SMs commit in a fixed
 * order, and the flush runs alone in a fixed order: results do not depend on the number of
 * host threads. The seed is ignored: the determinism-aware scheduler replaces every choice it
 * would perturb. The watchdog is checked between epochs, so an instruction limit ends the run
 * at the same epoch every time.
 */
#include "timing/dab/dab.h"

#include <stdlib.h>
#include <string.h>

#define DAB_DEFAULT_ENTRIES 64
#define DAB_DEFAULT_EPOCH_INSTS 100000

static dab_run *run_of(eng_run *E)
{
    return (dab_run *)E;
}

static void sm_phase(eng_run *E, eng_thread *T, uint32_t sm)
{
    dab_run *R = run_of(E);
    dab_run_sm(R, &R->sms[sm], &R->exec[T->tid]);
}

/* The epoch's plain stores, SM after SM (the highest SM's byte wins), share by share. */
static void commit_share(eng_run *E, eng_thread *T, uint32_t share)
{
    dab_run *R = run_of(E);
    uint32_t nparts = E->nshares ? E->nshares : E->nthreads;
    for (uint32_t s = 0; s < R->nsm; s++)
        if (R->sms[s].sb.n) gd_sb_commit(&R->sms[s].sb, share, nparts);
}

static uint64_t instructions(dab_run *R)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < R->E.nthreads_alloc; t++)
        n += R->E.threads[t].st.warp_instructions - R->exec[t].deferred;
    for (uint32_t s = 0; s < R->E.nslots; s++) {
        eng_slot *es = eng_slot_by_gslot(&R->E, s);
        if (es->cta) n += timing_cta_instructions(es->cta);
    }
    return n;
}

static bool finished(dab_run *R)
{
    for (uint32_t s = 0; s < R->nsm; s++) {
        dab_sm *S = &R->sms[s];
        if (S->next < R->ncta) return false;
        for (uint32_t k = 0; k < S->nk; k++)
            if (S->slots[k]->cta && !emu_cta_done(S->slots[k]->cta)) return false;
    }
    return true;
}

static bool begin(eng_run *E, eng_thread *T)
{
    (void)T;
    timing_record_dab_phase(1, false);
    return run_of(E)->ncta > 0;
}

/* After the commit, alone: the flush, then whether another epoch follows. */
static bool serial(eng_run *E, eng_thread *T)
{
    dab_run *R = run_of(E);
    dab_exec *X = &R->exec[T->tid];
    bool ran = false;
    for (uint32_t s = 0; s < R->nsm; s++) {
        if (R->sms[s].oom) R->failed = true;
        if (R->sms[s].ran) ran = true;
        R->sms[s].ran = 0;
    }
    if (R->failed) return false;
    uint64_t flushed = X->st.dab_entries, ops = X->st.dab_flush_ops;
    timing_record_dab_phase(R->epochs + 1, true);
    if (!dab_flush(R, X)) R->failed = true;
    X->st.dab_flushes++;
    if (R->failed || emu_grid_fault(R->g)) return false;
    if (R->wd.armed && timing_watchdog_expired(&R->wd, instructions(R))) {
        R->failed = true;
        return false;
    }
    if (finished(R)) return false;
    if (!ran && flushed == X->st.dab_entries && ops == X->st.dab_flush_ops) {
        /* nothing ran and nothing was waiting for the flush: the CTAs left wait at barriers
         * that cannot complete */
        for (uint32_t s = 0; s < R->nsm; s++) dab_sm_deadlocks(R, &R->sms[s]);
        R->failed = true;
        return false;
    }
    timing_record_dab_phase(R->epochs + 1, false);
    return true;
}

static const eng_phase dab_phases[] = {
    {"sms", ENG_PHASE_SMS, sm_phase},
    {"commit", ENG_PHASE_SHARES, commit_share},
};

static const eng_instance dab_engine = {
    .name = "dab",
    .phases = dab_phases,
    .nphases = 2,
    .begin = begin,
    .serial = serial,
};

static void free_run(dab_run *R)
{
    if (R->sms)
        for (uint32_t s = 0; s < R->nsm; s++) {
            dab_sm *S = &R->sms[s];
            if (S->bufs)
                for (uint32_t b = 0; b < R->nbuf; b++) dab_buf_free(&S->bufs[b]);
            free(S->bufs);
            gd_sb_free(&S->sb);
            free(S->slots);
            free(S->cta_flush);
            if (S->cls)
                for (uint32_t f = 0; f < R->ptx->nfuncs; f++) free(S->cls[f]);
            free(S->cls);
        }
    free(R->sms);
    free(R->warps);
    free(R->exec);
    free(R->items);
    free(R->seq);
}

static bool setup_sm(dab_run *R, dab_sm *S, uint32_t sm)
{
    S->id = sm;
    S->R = R;
    S->next = sm < R->gsm ? sm : R->ncta;
    S->last = UINT32_MAX;   /* the first turn goes to warp slot 0 */
    gd_sb_init(&S->sb);
    while (S->nk < R->E.K && eng_slot_exists(&R->E, sm, S->nk) &&
           (uint64_t)S->nk * R->gsm + sm < R->ncta && sm < R->gsm)
        S->nk++;
    S->bufs = calloc(R->nbuf, sizeof *S->bufs);
    S->slots = calloc(R->E.K ? R->E.K : 1, sizeof *S->slots);
    S->cta_flush = calloc(R->E.K ? R->E.K : 1, sizeof *S->cta_flush);
    S->cls = calloc(R->ptx->nfuncs ? R->ptx->nfuncs : 1, sizeof *S->cls);
    if (!S->bufs || !S->slots || !S->cta_flush || !S->cls) return false;
    for (uint32_t b = 0; b < R->nbuf; b++)
        if (!dab_buf_init(&S->bufs[b], R->entries)) return false;
    for (uint32_t k = 0; k < S->nk; k++) S->slots[k] = eng_slot_at(&R->E, sm, k);
    S->warps = &R->warps[(uint64_t)sm * R->E.K * R->W];
    for (uint32_t i = 0; i < S->nk * R->W; i++) {
        dab_warp *dw = &S->warps[i];
        dw->sm = S;
        dw->slot = i;
        dw->buf = R->warp_buffers ? i : i % R->S;
    }
    return true;
}

bool timing_run_dab(emu_grid *g, const timing_engine_config *cfg)
{
    dab_run R;
    memset(&R, 0, sizeof R);
    R.g = g;
    R.cfg = cfg;
    const emu_launch *L = emu_grid_launch(g);
    R.ptx = emu_module_ptx(L->module);
    R.nsm = cfg->sm_count ? cfg->sm_count : 1;
    R.K = timing_ctas_per_sm(g, cfg);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    R.W = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    R.S = cfg->gpu && cfg->gpu->sched_per_sm > 0 ? (uint32_t)cfg->gpu->sched_per_sm : 4;
    R.warp_buffers = cfg->dab_warp_buffers;
    R.nsubp = cfg->gpu && cfg->gpu->l2_slices > 0 ? (uint32_t)cfg->gpu->l2_slices : 48;
    R.entries = cfg->dab_entries ? cfg->dab_entries : DAB_DEFAULT_ENTRIES;
    if (R.entries < EMU_WARP_SIZE) R.entries = EMU_WARP_SIZE;   /* S5.4: one instruction fits */
    R.fusion = cfg->dab_fusion;
    R.coalescing = cfg->dab_coalescing;
    R.sched = cfg->dab_scheduler;
    R.offset_flush = cfg->dab_offset_flush;
    R.gsm = cfg->dab_sms && cfg->dab_sms < R.nsm ? cfg->dab_sms : R.nsm;
    R.cap = cfg->dab_epoch_insts ? cfg->dab_epoch_insts : DAB_DEFAULT_EPOCH_INSTS;
    R.turn = cfg->warp_budget ? cfg->warp_budget : 100;
    R.ncta = emu_grid_cta_count(g);
    /* CTA c runs on SM c mod gsm: SM s needs a slot k only while k * gsm + s < CTAs (without
     * gating that is gslot k * SMs + s < CTAs: the skeleton's own limit) */
    uint64_t nwg = (uint64_t)R.nsm * R.K;
    if (nwg > R.ncta && R.gsm == R.nsm) nwg = R.ncta;
    uint32_t want = cfg->host_threads ? cfg->host_threads : 1;
    bool ok = eng_init(&R.E, g, cfg, R.K, nwg, want);
    uint64_t nwarps = (uint64_t)R.nsm * R.E.K * R.W;
    R.nbuf = R.warp_buffers ? R.E.K * R.W : R.S;
    size_t nitems = (size_t)R.nsm * R.nbuf * R.entries;
    R.sms = calloc(R.nsm, sizeof *R.sms);
    R.warps = calloc(nwarps ? nwarps : 1, sizeof *R.warps);
    R.exec = calloc(R.E.nthreads_alloc ? R.E.nthreads_alloc : 1, sizeof *R.exec);
    R.items = calloc(nitems ? nitems : 1, sizeof *R.items);
    R.seq = calloc(R.nsubp, sizeof *R.seq);
    ok = ok && R.sms && R.warps && R.exec && R.items && R.seq;
    for (uint32_t s = 0; ok && s < R.nsm; s++) ok = setup_sm(&R, &R.sms[s], s);
    if (ok) {
        for (uint32_t t = 0; t < R.E.nthreads_alloc; t++) R.exec[t].T = &R.E.threads[t];
        emu_grid_set_policy(g, dab_policy());
        timing_watchdog_start(&R.wd, cfg);
        eng_run_epochs(&R.E, &dab_engine, &R);
        if (timing_watchdog_fired(&R.wd)) {
            uint64_t left = 0;
            for (uint32_t s = 0; s < R.nsm; s++) {
                dab_sm *S = &R.sms[s];
                for (uint32_t k = 0; k < S->nk; k++)
                    if (S->slots[k]->cta) timing_watchdog_describe_cta(&R.wd, S->slots[k]->cta);
                if (S->next < R.ncta) left += (R.ncta - S->next + R.gsm - 1) / R.gsm;
            }
            timing_watchdog_finish(&R.wd, g, left);
        }
        timing_watchdog_destroy(&R.wd);
    }
    timing_stats st = {0};
    for (uint32_t t = 0; ok && t < R.E.nthreads_alloc; t++) {
        timing_stats_add(&st, &R.exec[t].st);
        st.warp_instructions -= R.exec[t].deferred;
    }
    eng_fini(&R.E, &st);
    st.grids = 1;
    if (cfg->stats) timing_stats_add(cfg->stats, &st);
    bool failed = R.failed;
    free_run(&R);
    if (!ok) return false;
    return !failed && !emu_grid_fault(g);
}
