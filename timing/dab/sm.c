/* sm.c: one SM's part of an epoch: deterministic CTA distribution (spec dab.md S7) and the
 * determinism-aware warp scheduler GWAT (S6), with the spec's resolutions G1 and G2.
 *
 * CTAs: CTA c runs on SM c mod SMs (S7 [I]), and each SM launches its CTAs in ascending order
 * into its CTA slots as they free up, also in the middle of an epoch. Warp i of CTA slot k is
 * warp slot k * W + i of the SM, on scheduler (slot mod schedulers), GPGPU-Sim's default.
 *
 * Scheduling: GTO: the oldest ready warp (lowest warp slot) runs until it stops. One atomic
 * token per SM (G2: one ring over all the SM's warps, which contains whole CTAs, while the SM
 * keeps one buffer per scheduler): only its holder may put an atomic into a buffer, and it
 * passes the token to the next warp slot in cyclic order when it does, or when it exits, waits
 * at a barrier or waits for the flush (G2: so a barrier cannot deadlock the ring). A warp that
 * reaches an atomic without the token waits and the others go first. Everything runs on the
 * SM's host thread in this fixed order from state fixed at the epoch's start, so what an SM
 * does in an epoch never depends on other host threads.
 *
 * The epoch ends for the SM when no warp is ready: each has exited, waits for the flush (a full
 * buffer, a flush-class operation, a fence, a barrier's fence), waits at a barrier, or waits
 * for the token held by such a warp. That is G1's "every buffer closed", seen per SM. A warp
 * that has run R->cap instructions in the epoch also waits for the flush: a deterministic cut
 * point beyond the paper, so that a warp spinning on a flag another SM stores goes on.
 */
#include "timing/dab/dab.h"

static bool live(const dab_warp *dw)
{
    return dw->w && !emu_warp_exited(dw->w);
}

/* May take the token: live, not waiting for the flush, not waiting at a barrier. */
static bool token_eligible(const dab_warp *dw)
{
    return live(dw) && dw->wait != DAB_WAIT_FLUSH && emu_warp_runnable(dw->w);
}

void dab_pass_token(dab_sm *S)
{
    uint32_t nw = S->nk * S->R->W;
    if (!nw) return;
    for (uint32_t d = 1; d <= nw; d++) {
        uint32_t s = (S->token + d) % nw;
        if (token_eligible(&S->warps[s])) {
            S->token = s;
            return;
        }
    }
}

static bool ready(const dab_sm *S, const dab_warp *dw)
{
    if (!live(dw) || !emu_warp_runnable(dw->w)) return false;
    return dw->wait == DAB_RUN || (dw->wait == DAB_WAIT_TOKEN && S->token == dw->slot);
}

static void bind(dab_run *R, dab_sm *S, uint32_t k)
{
    emu_cta *c = S->slots[k]->cta;
    for (uint32_t i = 0; i < R->W; i++) {
        dab_warp *dw = &S->warps[k * R->W + i];
        dw->w = c && i < emu_cta_warp_count(c) ? emu_cta_warp(c, i) : NULL;
        dw->wait = DAB_RUN;
        dw->pending = false;
        dw->used = 0;
        if (dw->w) {
            emu_warp_set_user(dw->w, EMU_POLICY_DET, dw);
            /* hardware warp IDs interleave the SMs, as GPUDet's do */
            emu_warp_set_slot(dw->w, dw->slot * R->nsm + S->id);
        }
    }
    S->cta_flush[k] = false;
}

bool dab_sm_fill(dab_run *R, dab_sm *S, dab_exec *X)
{
    for (uint32_t k = 0; k < S->nk; k++) {
        eng_slot *es = S->slots[k];
        if (es->cta && emu_cta_done(es->cta)) {
            eng_slot_retire(&R->E, es, X->T);
            bind(R, S, k);
        }
        if (!es->cta && S->next < R->ncta) {
            if (!eng_slot_launch(&R->E, es, S->next, X->T)) return false;
            S->next += R->nsm;
            X->st.ctas++;
            bind(R, S, k);
        }
    }
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
        if (!token_eligible(&S->warps[S->token])) dab_pass_token(S);
        dab_warp *dw = NULL;
        for (uint32_t i = 0; i < nw && !dw; i++)
            if (ready(S, &S->warps[i])) dw = &S->warps[i];
        if (!dw) break;
        if (dw->used >= R->cap) {
            dw->wait = DAB_WAIT_FLUSH;
            continue;
        }
        dw->wait = DAB_RUN;
        dw->exec = X;
        uint64_t before = emu_warp_instructions(dw->w);
        emu_stop r = emu_warp_run(dw->w, R->cap - dw->used);
        uint64_t ran = emu_warp_instructions(dw->w) - before;
        dw->exec = NULL;
        dw->used += ran;
        S->ran += ran;
        if (r == EMU_STOP_FAULT) return;   /* the grid's fault ends the run at the flush */
        if (r == EMU_STOP_EXIT && emu_cta_done(S->slots[dw->slot / R->W]->cta) &&
            !dab_sm_fill(R, S, X)) {
            S->oom = true;
            return;
        }
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
