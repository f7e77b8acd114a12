/* quantum.c: parallel mode of one CTA slot (spec gpudet.md S3.3, S4).
 *
 * The warps of the slot take turns in ascending warp order, each running until an event ends
 * its parallel mode (S3.3): the quantum's instruction budget (counted per warp slot), a global
 * atomic or device call (stopped before it), a fence, a CTA barrier, or its exit. The order and
 * every budget are fixed, so shared memory sees the same interleaving on every run, whichever
 * host thread runs the slot (beyond the paper, which leaves shared memory to the program).
 *
 * Barriers: in the base design (BTA off) a warp that arrives at a barrier ends its parallel
 * mode; warps released by it resume in the next quantum. With workgroup-aware formation and
 * barrier termination avoidance (BTA, S4.1) an arriving warp waits (WFW); when every live warp
 * of the CTA has arrived the barrier releases them within the quantum, unless a warp of the CTA
 * has already ended its parallel mode for another reason (QUANTUM, ATOMIC, FENCE): then the
 * CTA is "ending" and released warps end too. Counters are not reset by a release.
 *
 * A CTA that finishes mid-quantum leaves its slot idle until the next quantum, or with DWP
 * launches the next CTA of the slot's partition into it at once (S5.2).
 */
#include "timing/gpudet/gpudet.h"

static void end_warp(gd_slot *s, unsigned reason)
{
    s->state = GD_ENDED;
    s->reason = (uint8_t)reason;
}

/* Quantum-start state of each warp slot of wg. */
static void start_slots(gd_run *R, gd_wg *wg)
{
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        emu_warp *w = s->w;
        if (!w || emu_warp_exited(w)) {
            s->state = GD_IDLE;
        } else if (!emu_warp_runnable(w)) {
            /* still blocked at a barrier: waits (BTA) or has ended already (base, S3.3) */
            if (R->bta) s->state = GD_WFW;
            else end_warp(s, TIMING_QEND_WGBARRIER);
        } else {
            s->state = GD_PAR;
        }
    }
}

/* True when a warp of wg waits at a barrier that has completed. */
static bool released(gd_run *R, gd_wg *wg)
{
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        if (s->state == GD_WFW && emu_warp_runnable(s->w)) return true;
    }
    return false;
}

void gd_run_workgroup(gd_run *R, gd_wg *wg, gd_exec *X)
{
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        gd_sb_reset(&s->sb);
        s->used = 0;
        s->pending = GD_PEND_NONE;
    }
    wg->ending = false;
    start_slots(R, wg);
    bool faulted = false;
    for (;;) {
        bool progress = false;
        for (uint32_t i = 0; i < R->W && !faulted; i++) {
            gd_slot *s = &wg->warps[i];
            if (s->state == GD_WFW && emu_warp_runnable(s->w)) {
                if (wg->ending) {
                    end_warp(s, TIMING_QEND_WGBARRIER);
                    continue;
                }
                s->state = GD_PAR;
            }
            if (s->state != GD_PAR) continue;
            if (s->used >= R->Q) {
                end_warp(s, TIMING_QEND_QUANTUM);
                wg->ending = true;
                continue;
            }
            emu_warp *w = s->w;
            s->exec = X;
            uint64_t before = emu_warp_instructions(w);
            emu_stop r = emu_warp_run(w, R->Q - s->used);
            s->used += emu_warp_instructions(w) - before;
            s->exec = NULL;
            progress = true;
            switch (r) {
            case EMU_STOP_BUDGET:
                end_warp(s, TIMING_QEND_QUANTUM);
                wg->ending = true;
                break;
            case EMU_STOP_MEMORDER:
                end_warp(s, s->stop_reason);
                wg->ending = true;
                break;
            case EMU_STOP_RESTART:
                /* iGPU composed over GPUDet (timing_igpu_over): the warp is back at its region
                 * entry already and runs on in this quantum; the instructions it discarded
                 * count against its quantum, so where the quantum ends stays deterministic */
                break;
            case EMU_STOP_EXIT:
                end_warp(s, TIMING_QEND_COMPLETE);
                /* an exit can complete a barrier the others wait at */
                if (R->bta && !wg->ending && released(R, wg)) X->st.bta_releases++;
                break;
            case EMU_STOP_BARRIER:
                if (!R->bta) {
                    end_warp(s, TIMING_QEND_WGBARRIER);
                } else {
                    s->state = GD_WFW;
                    /* the last warp to arrive released the barrier */
                    if (!wg->ending && emu_warp_runnable(w)) X->st.bta_releases++;
                }
                break;
            case EMU_STOP_FAULT:
                faulted = true;
                break;
            }
        }
        if (faulted) {
            /* the CTA stops here; the grid's fault ends the run after this quantum */
            for (uint32_t i = 0; i < R->W; i++)
                if (wg->warps[i].state == GD_PAR || wg->warps[i].state == GD_WFW)
                    end_warp(&wg->warps[i], TIMING_QEND_COMPLETE);
            break;
        }
        if (wg->es->cta && emu_cta_done(wg->es->cta)) {
            gd_retire(R, wg, X);
            uint64_t next;
            if (R->dwp && gd_dwp_next(R, wg, &next)) {
                /* in the storage the finished CTA just left */
                if (!gd_launch(R, wg, next, X)) {
                    X->oom = true;
                    break;
                }
                X->st.dwp_launches++;
                wg->ending = false;
                /* the new CTA's warps inherit the slots' counters and store buffers */
                for (uint32_t i = 0; i < R->W; i++) {
                    gd_slot *s = &wg->warps[i];
                    if (!s->w) continue;
                    if (s->used < R->Q) s->state = GD_PAR;
                    else end_warp(s, TIMING_QEND_QUANTUM);
                }
                continue;
            }
            __atomic_store_n(&R->order_stale, true, __ATOMIC_RELAXED);
            break;
        }
        if (!progress) break;
    }
    uint64_t most = 0;
    for (uint32_t i = 0; i < R->W; i++) {
        gd_slot *s = &wg->warps[i];
        if (s->state == GD_WFW) end_warp(s, TIMING_QEND_WGBARRIER);
        if (s->state == GD_ENDED) X->st.quantum_end[s->reason]++;
        if (s->sb.n > most) most = s->sb.n;
    }
    if (most > X->st.sb_max_entries) X->st.sb_max_entries = most;
}
