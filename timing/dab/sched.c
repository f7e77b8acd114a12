/* sched.c: DAB's determinism-aware warp schedulers (spec dab.md S6) as they decide the order
 * atomics enter the buffers. Everything an SM does runs on its host thread in a fixed order
 * (sm.c), so what matters functionally is which warp may insert its atomic when; the warps'
 * other instructions run in turns (sm.c) except where a policy is strictly round robin.
 *
 * Every ring is one per SM over all its warp slots, whose scheduler buffers it feeds (spec G2's
 * resolution: a ring that holds whole CTAs, so a barrier cannot deadlock it):
 * - GWAT: one atomic token; only its holder inserts; it passes to the next warp slot in cyclic
 *   order when the holder inserts, and whenever the holder has exited, waits at a barrier or
 *   waits for the flush (G2: the token skips such warps). Others at an atomic wait.
 * - GTAR: greedy until no warp can go on; then every warp waiting at an atomic is granted one
 *   insert (a round), and they insert in the order of their turns; a warp goes on with other
 *   instructions at once and waits for the next round at its next atomic.
 * - GTRR: greedy until no warp can go on, atomics waiting (every warp has reached its first
 *   atomic, finished, or waits at a barrier or for the flush); from then on SRR for the rest of
 *   the kernel on that SM (warps of later CTAs run entirely under SRR).
 * - SRR: every ready warp issues one instruction per turn, in warp-slot order; warps at a
 *   barrier or waiting for the flush are skipped. Atomics enter in that order.
 * With warp-level buffers (WarpGTO, S5.2) every warp inserts when it gets there: plain GTO.
 */
#include "timing/dab/dab.h"

static bool live(const dab_warp *dw)
{
    return dw->w && !emu_warp_exited(dw->w);
}

/* GWAT: may take the token: live, not waiting for the flush, not waiting at a barrier. */
static bool token_eligible(const dab_warp *dw)
{
    return live(dw) && dw->wait != DAB_WAIT_FLUSH && emu_warp_runnable(dw->w);
}

static void pass_token(dab_sm *S)
{
    uint32_t nw = S->nk * S->R->W;
    for (uint32_t d = 1; d <= nw; d++) {
        uint32_t s = (S->token + d) % nw;
        if (token_eligible(&S->warps[s])) {
            S->token = s;
            return;
        }
    }
}

bool dab_may_insert(const dab_sm *S, const dab_warp *dw)
{
    /* a warp's own buffer fills in its program order under any scheduler (S5.2) */
    if (S->R->warp_buffers) return true;
    switch (S->R->sched) {
    case TIMING_DAB_GWAT: return S->token == dw->slot;
    case TIMING_DAB_GTAR: return dw->grant;
    case TIMING_DAB_GTRR: return S->srr;
    case TIMING_DAB_SRR: return true;
    }
    return false;
}

void dab_inserted(dab_sm *S, dab_warp *dw)
{
    if (S->R->sched == TIMING_DAB_GWAT) pass_token(S);
    dw->grant = false;
}

bool dab_ready(const dab_sm *S, const dab_warp *dw)
{
    if (!live(dw) || !emu_warp_runnable(dw->w)) return false;
    return dw->wait == DAB_RUN || (dw->wait == DAB_WAIT_TOKEN && dab_may_insert(S, dw));
}

bool dab_lockstep(const dab_sm *S)
{
    if (S->R->warp_buffers) return false;
    return S->R->sched == TIMING_DAB_SRR || (S->R->sched == TIMING_DAB_GTRR && S->srr);
}

void dab_before_pick(dab_sm *S)
{
    if (!S->R->warp_buffers && S->R->sched == TIMING_DAB_GWAT && S->nk && !token_eligible(&S->warps[S->token]))
        pass_token(S);
}

bool dab_none_ready(dab_sm *S)
{
    uint32_t nw = S->nk * S->R->W;
    bool waiting = false;
    for (uint32_t i = 0; i < nw; i++) {
        dab_warp *dw = &S->warps[i];
        if (!live(dw) || dw->wait != DAB_WAIT_TOKEN || !emu_warp_runnable(dw->w)) continue;
        waiting = true;
        if (S->R->sched == TIMING_DAB_GTAR) dw->grant = true;   /* the round */
    }
    if (!waiting) return false;
    if (S->R->sched == TIMING_DAB_GTAR) return true;
    if (S->R->sched == TIMING_DAB_GTRR && !S->srr) {
        S->srr = true;
        return true;
    }
    return false;
}
