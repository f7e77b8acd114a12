/* policy.c: the GPUDet memory policy (spec gpudet.md S3.3, S6, S8).
 *
 * In parallel mode a warp is isolated: its global stores go to its slot's store buffer, its
 * loads see memory as it was at the quantum start with its own buffered bytes on top, a global
 * atomic (or a device printf/malloc/free) stops it BEFORE the instruction, which then runs in
 * serial mode, and a fence stops it after the fence (the commit satisfies it). Nothing in
 * parallel mode writes global memory, so loads need no care about other host threads.
 * In serial mode, and for warps run outside the GPUDet engine, it is the direct policy.
 */
#include "timing/gpudet/gpudet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static emu_mem_outcome gd_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    gd_slot *s = emu_warp_user(w, EMU_POLICY_DET);
    gd_exec *X = s ? s->exec : NULL;
    if (!X || X->serial || op->space != PTX_SPACE_GLOBAL) return emu_policy_forward(self, w, op);
    switch (op->kind) {
    case EMU_MEM_LOAD:
        /* memory as the quantum found it (nothing writes global memory in parallel mode), then
         * the warp's own buffered bytes on top */
        emu_mem_perform(op);
        if (s->sb.n) X->st.sb_own_reads += (uint64_t)__builtin_popcount(gd_sb_read_op(&s->sb, op));
        return EMU_MEM_DONE;
    case EMU_MEM_STORE: {
        int n = gd_sb_store(&s->sb, op);
        if (n < 0) {
            /* the buffer is the only copy of these stores: the launch cannot go on */
            char msg[160];
            snprintf(msg, sizeof msg, "out of host memory for the GPUDet store buffer of warp "
                     "slot %u (%u entries)", s->wid, s->sb.n);
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, msg);
            return true;
        }
        X->st.sb_entries += (uint64_t)n;
        if (s->sb_cap && s->sb.n >= s->sb_cap) {
            /* the log is full (an extension, spec S6.4): like the quantum's budget, the warp's
             * parallel mode ends after this store */
            s->stop_reason = TIMING_QEND_STORE_BUFFER;
            return EMU_MEM_DONE_STOP;
        }
        return EMU_MEM_DONE;
    }
    case EMU_MEM_TX_BEGIN:    /* KILO TM's begin that takes a concurrency slot (timing/kilotm/) */
    case EMU_MEM_TX_COMMIT:   /* KILO TM's commit (timing/kilotm/): serial mode, like an atomic */
    case EMU_MEM_ATOMIC:
    case EMU_MEM_CALL:
        s->pending = op->kind == EMU_MEM_ATOMIC ? GD_PEND_ATOMIC : GD_PEND_CALL;
        s->stop_reason = TIMING_QEND_ATOMIC;
        X->deferred++;
        return EMU_MEM_DEFERRED;
    case EMU_MEM_FENCE:
        s->stop_reason = TIMING_QEND_FENCE;
        return EMU_MEM_DONE_STOP;
    default:
        return EMU_MEM_DONE;
    }
}

static emu_mem_policy gpudet_policy = { .name = "gpudet", .access = gd_access };

emu_mem_policy *gd_policy(void)
{
    return &gpudet_policy;
}
