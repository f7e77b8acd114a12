/* distribute.c: deterministic workgroup distribution (spec gpudet.md S5).
 *
 * At each quantum start (one host thread, nothing running) the pending CTAs, in ascending ID,
 * fill the free CTA slots in ascending gslot order (gslot = k * SMs + sm: slot k of every SM
 * before slot k+1 of any). With DWP the CTAs still pending are dealt round-robin over all slots
 * in gslot order (slot gslot's queue holds pending[gslot], pending[gslot + slots], ...); a slot
 * whose CTA finishes during parallel mode launches the next one of its own queue, inheriting the
 * warp slots with their counters and store buffers. Queue entries not used return to the
 * pending list, which stays ascending.
 */
#include "timing/gpudet/gpudet.h"

#include <stdlib.h>
#include <string.h>

uint64_t gd_pending_count(const gd_run *R)
{
    return (R->nleft - R->head) + (R->ncta - R->fresh);
}

uint64_t gd_pending_at(const gd_run *R, uint64_t i)
{
    uint64_t nl = R->nleft - R->head;
    return i < nl ? R->left[R->head + i] : R->fresh + (i - nl);
}

static uint64_t pending_pop(gd_run *R)
{
    if (R->head < R->nleft) return R->left[R->head++];
    return R->fresh++;
}

bool gd_dwp_next(gd_run *R, gd_wg *wg, uint64_t *cta)
{
    uint64_t i = wg->gslot + wg->dwp_popped * R->nwg;
    if (i >= gd_pending_count(R)) return false;
    *cta = gd_pending_at(R, i);
    wg->dwp_popped++;
    return true;
}

/* Takes the CTAs launched from DWP queues out of the pending list. */
static bool return_queues(gd_run *R)
{
    uint64_t top = 0;   /* one past the highest pending index launched */
    bool any = false;
    for (uint32_t s = 0; s < R->nwg; s++) {
        gd_wg *wg = &R->wgs[s];
        if (!wg->dwp_popped) continue;
        uint64_t last = wg->gslot + (wg->dwp_popped - 1) * R->nwg;
        if (last + 1 > top) top = last + 1;
        any = true;
    }
    if (!any) return true;
    uint8_t *launched = calloc(top, 1);
    uint64_t nl = R->nleft - R->head;
    uint64_t keep_max = top + nl;
    uint64_t *nleft = malloc((keep_max ? keep_max : 1) * sizeof *nleft);
    if (!launched || !nleft) {
        free(launched);
        free(nleft);
        return false;
    }
    for (uint32_t s = 0; s < R->nwg; s++) {
        gd_wg *wg = &R->wgs[s];
        for (uint64_t j = 0; j < wg->dwp_popped; j++) launched[wg->gslot + j * R->nwg] = 1;
        wg->dwp_popped = 0;
    }
    size_t n = 0;
    for (uint64_t i = 0; i < top; i++)
        if (!launched[i]) nleft[n++] = gd_pending_at(R, i);
    for (uint64_t i = top; i < nl; i++) nleft[n++] = R->left[R->head + i];
    if (top > nl) R->fresh += top - nl;
    free(launched);
    free(R->left);
    R->left = nleft;
    R->head = 0;
    R->nleft = n;
    R->capleft = keep_max;
    return true;
}

void gd_bind(gd_run *R, gd_wg *wg)
{
    emu_cta *c = wg->es->cta;
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        s->w = c && i < emu_cta_warp_count(c) ? emu_cta_warp(c, i) : NULL;
        if (s->w) {
            /* the policy finds the slot (its store buffer, its thread) through the warp */
            emu_warp_set_user(s->w, EMU_POLICY_DET, s);
            emu_warp_set_slot(s->w, s->wid);
        }
    }
}

bool gd_launch(gd_run *R, gd_wg *wg, uint64_t cta, gd_exec *X)
{
    if (!eng_slot_launch(&R->E, wg->es, cta, X->T)) return false;
    X->st.ctas++;
    /* one host thread launches into a slot at a time, so the slot's count is its order */
    timing_record_gpudet_launch(cta, wg->sm, wg->k, wg->launches++);
    gd_bind(R, wg);
    return true;
}

void gd_retire(gd_run *R, gd_wg *wg, gd_exec *X)
{
    if (!wg->es->cta) return;
    eng_slot_retire(&R->E, wg->es, X->T);
    gd_bind(R, wg);
}

bool gd_distribute(gd_run *R, gd_exec *X)
{
    if (!return_queues(R)) return false;
    for (uint32_t s = 0; s < R->nwg; s++) {
        gd_wg *wg = &R->wgs[s];
        /* a CTA can finish in serial mode (its last instruction was the atomic) */
        if (wg->es->cta && emu_cta_done(wg->es->cta)) {
            gd_retire(R, wg, X);
            R->order_stale = true;
        }
        if (!wg->es->cta && gd_pending_count(R)) {
            if (!gd_launch(R, wg, pending_pop(R), X)) return false;
            R->order_stale = true;
        }
    }
    if (R->order_stale) {
        R->nactive = 0;
        for (uint32_t s = 0; s < R->nwg; s++) {
            gd_wg *wg = &R->wgs[s];
            wg->active = wg->es->cta != NULL;
            if (wg->active) R->active[R->nactive++] = wg;
        }
        if (!gd_commit_order(R)) return false;
        R->order_stale = false;
    }
    return true;
}
