/* sm.c: one SM's part of an epoch: deterministic CTA distribution (spec dab.md S7) and the
 * loop that runs the SM's warps in the order the determinism-aware scheduler gives (sched.c).
 *
 * CTAs: CTA c runs on SM c mod SMs (S7 [I]; mod the first --dab-sms SMs with SM gating,
 * Fig. 14), and each SM launches its CTAs in ascending order
 * into its CTA slots as they free up, also in the middle of an epoch. Warp i of CTA slot k is
 * warp slot k * W + i of the SM, on scheduler (slot mod schedulers), GPGPU-Sim's default.
 * Everything runs on the SM's host thread in a fixed order from state fixed at the epoch's
 * start, so what an SM does in an epoch never depends on other host threads.
 *
 * Outside SRR's lockstep, warps take turns of R->turn warp instructions (the engine's warp
 * budget, 100 by default) round robin, each running until its turn ends or it stops: the
 * paper's GTO is a timing heuristic for the non-atomic instructions, and functionally any fixed
 * order will do; turns let warps that spin on each other in one SM (cooperative groups' tile
 * barriers) go on as they do in the other engines, while the order of atomics stays the
 * scheduler's (sched.c).
 *
 * The epoch ends for the SM when no warp is ready and the scheduler lets none go on: each has
 * exited, waits for the flush (a full buffer, a flush-class operation, a fence, a barrier's
 * fence), waits at a barrier, or waits at an atomic for a turn that only the flush can bring.
 * That is G1's "every buffer closed", seen per SM. A warp that has run R->cap instructions in
 * the epoch also waits for the flush: a deterministic cut point beyond the paper, so that a
 * warp spinning on a flag another SM stores goes on.
 */
#include "timing/dab/dab.h"

static bool live(const dab_warp *dw)
{
    return dw->w && !emu_warp_exited(dw->w);
}

static void bind(dab_run *R, dab_sm *S, uint32_t k)
{
    emu_cta *c = S->slots[k]->cta;
    for (uint32_t i = 0; i < R->W; i++) {
        dab_warp *dw = &S->warps[k * R->W + i];
        dw->w = c && i < emu_cta_warp_count(c) ? emu_cta_warp(c, i) : NULL;
        dw->wait = DAB_RUN;
        dw->pending = false;
        dw->grant = false;
        dw->used = 0;
        if (dw->w) {
            emu_warp_set_user(dw->w, EMU_POLICY_DET, dw);
            /* hardware warp IDs interleave the SMs, as GPUDet's do */
            emu_warp_set_slot(dw->w, dw->slot * R->nsm + S->id);
        }
    }
    S->cta_flush[k] = false;
}

/* WarpGTO (S5.2): a finished warp keeps its slot while its buffer holds entries, so its CTA
 * leaves only after the flush. */
static bool buffers_empty(const dab_run *R, const dab_sm *S, uint32_t k)
{
    if (!R->warp_buffers) return true;
    for (uint32_t i = 0; i < R->W; i++)
        if (S->bufs[S->warps[k * R->W + i].buf].n) return false;
    return true;
}

bool dab_sm_fill(dab_run *R, dab_sm *S, dab_exec *X)
{
    for (uint32_t k = 0; k < S->nk; k++) {
        eng_slot *es = S->slots[k];
        if (es->cta && emu_cta_done(es->cta) && buffers_empty(R, S, k)) {
            eng_slot_retire(&R->E, es, X->T);
            bind(R, S, k);
        }
        if (!es->cta && S->next < R->ncta) {
            if (!eng_slot_launch(&R->E, es, S->next, X->T)) return false;
            S->next += R->gsm;
            X->st.ctas++;
            bind(R, S, k);
        }
    }
    return true;
}

/* Runs dw for at most budget instructions; false when the SM must stop (a fault: the grid's
 * fault ends the run at the flush; out of memory). */
static bool run_warp(dab_run *R, dab_sm *S, dab_exec *X, dab_warp *dw, uint64_t budget)
{
    dw->wait = DAB_RUN;
    dw->exec = X;
    uint64_t before = emu_warp_instructions(dw->w);
    /* the cycle model's record: instructions of a lockstep keep its turns (timing/model) */
    timing_record_dab_lockstep(dab_lockstep(S));
    emu_stop r = emu_warp_run(dw->w, budget);
    timing_record_dab_lockstep(false);
    uint64_t ran = emu_warp_instructions(dw->w) - before;
    dw->exec = NULL;
    dw->used += ran;
    S->ran += ran;
    if (r == EMU_STOP_FAULT) return false;
    if (r == EMU_STOP_EXIT && emu_cta_done(S->slots[dw->slot / R->W]->cta) &&
        !dab_sm_fill(R, S, X)) {
        S->oom = true;
        return false;
    }
    return true;
}

/* A ready warp past the epoch's cut point waits for the flush instead of running. */
static bool over_cap(dab_run *R, dab_warp *dw)
{
    if (dw->used < R->cap) return false;
    dw->wait = DAB_WAIT_FLUSH;
    return true;
}

void dab_run_sm(dab_run *R, dab_sm *S, dab_exec *X)
{
    if (!S->nk) return;
    if (!dab_sm_fill(R, S, X)) {
        S->oom = true;
        return;
    }
    uint32_t nw = S->nk * R->W;
    for (;;) {
        bool any = false;
        if (dab_lockstep(S)) {
            /* one instruction per ready warp, in warp-slot order */
            for (uint32_t i = 0; i < nw; i++) {
                dab_warp *dw = &S->warps[i];
                if (!dab_ready(S, dw) || over_cap(R, dw)) continue;
                any = true;
                if (!run_warp(R, S, X, dw, 1)) return;
            }
        } else {
            /* the next ready warp after the last one, for a turn */
            dab_before_pick(S);
            dab_warp *dw = NULL;
            for (uint32_t d = 1; d <= nw && !dw; d++) {
                dab_warp *c = &S->warps[(S->last + d) % nw];
                if (dab_ready(S, c)) dw = c;
            }
            if (dw) {
                any = true;
                S->last = dw->slot;
                uint64_t budget = R->cap - dw->used;
                if (budget > R->turn) budget = R->turn;
                if (!over_cap(R, dw) && !run_warp(R, S, X, dw, budget)) return;
            }
        }
        if (!any && !dab_none_ready(S)) break;
    }
}

bool dab_sm_deadlocks(dab_run *R, dab_sm *S)
{
    bool any = false;
    for (uint32_t k = 0; k < S->nk; k++) {
        emu_cta *c = S->slots[k]->cta;
        if (!c || emu_cta_done(c)) continue;
        bool runnable = false;
        for (uint32_t i = 0; i < R->W && !runnable; i++) {
            dab_warp *dw = &S->warps[k * R->W + i];
            runnable = live(dw) && emu_warp_runnable(dw->w);
        }
        if (!runnable) {
            emu_cta_report_deadlock(c);
            any = true;
        }
    }
    return any;
}
