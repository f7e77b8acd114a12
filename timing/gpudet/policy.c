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

_Thread_local gd_exec *gd_cur;

static bool gd_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    (void)self;
    gd_exec *X = gd_cur;
    if (!X || !X->slot || X->serial) {
        emu_mem_policy *d = emu_direct_policy();
        return d->access(d, w, op);
    }
    gd_slot *s = X->slot;
    switch (op->kind) {
    case EMU_MEM_LOAD:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy(op->data[l], (const void *)(uintptr_t)op->addr[l], op->size);
        }
        if (s->sb.n)
            X->st.sb_own_reads += (uint64_t)__builtin_popcount(
                gd_sb_read_warp(&s->sb, op->mask, op->addr, op->size, op->data));
        return false;
    case EMU_MEM_STORE: {
        int n = gd_sb_store(&s->sb, op->mask, op->addr, op->size, op->data);
        if (n < 0) {
            /* the buffer is the only copy of these stores: the launch cannot go on */
            char msg[160];
            snprintf(msg, sizeof msg, "out of host memory for the GPUDet store buffer of warp "
                     "slot %u (%u entries)", s->wid, s->sb.n);
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, msg);
            return true;
        }
        X->st.sb_entries += (uint64_t)n;
        return false;
    }
    case EMU_MEM_ATOMIC:
    case EMU_MEM_CALL:
        op->deferred = true;
        s->pending = op->kind == EMU_MEM_ATOMIC ? GD_PEND_ATOMIC : GD_PEND_CALL;
        s->stop_reason = TIMING_QEND_ATOMIC;
        X->deferred++;
        return true;
    case EMU_MEM_FENCE:
        s->stop_reason = TIMING_QEND_FENCE;
        return true;
    default:
        return false;
    }
}

static emu_mem_policy gpudet_policy = {"gpudet", gd_access, NULL, NULL};

emu_mem_policy *gd_policy(void)
{
    return &gpudet_policy;
}
