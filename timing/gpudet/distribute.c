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
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        s->w = wg->cta && i < emu_cta_warp_count(wg->cta) ? emu_cta_warp(wg->cta, i) : NULL;
        if (s->w) {
            /* the policy finds the slot (its store buffer, its thread) through the warp */
            emu_warp_set_user(s->w, EMU_POLICY_DET, s);
            emu_warp_set_slot(s->w, s->wid);
        }
    }
}

void gd_retire(gd_run *R, gd_wg *wg, timing_stats *st)
{
    if (!wg->cta) return;
    st->warp_instructions += timing_cta_instructions(wg->cta);
    emu_cta_destroy(wg->cta);
    wg->cta = NULL;
    gd_bind(R, wg);
}

bool gd_distribute(gd_run *R)
{
    if (!return_queues(R)) return false;
    gd_exec *X = &R->exec[0];
    for (uint32_t s = 0; s < R->nwg; s++) {
        gd_wg *wg = &R->wgs[s];
        /* a CTA can finish in serial mode (its last instruction was the atomic) */
        if (wg->cta && emu_cta_done(wg->cta)) {
            gd_retire(R, wg, &X->st);
            R->order_stale = true;
        }
        if (!wg->cta && gd_pending_count(R)) {
            uint64_t id = pending_pop(R);
            wg->cta = emu_cta_create(R->g, id, wg->sm);
            if (!wg->cta) return false;
            X->st.ctas++;
            gd_bind(R, wg);
            R->order_stale = true;
        }
    }
    if (R->order_stale) {
        R->nactive = 0;
        for (uint32_t s = 0; s < R->nwg; s++)
            if (R->wgs[s].cta) R->active[R->nactive++] = &R->wgs[s];
        if (!gd_commit_order(R)) return false;
        R->order_stale = false;
    }
    return true;
}
