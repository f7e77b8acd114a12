/* policy.c: the DAB memory policy (spec dab.md S4, S5, G7).
 *
 * While its SM runs an epoch, a warp's operations on global memory:
 * - plain loads: memory as the epoch found it (nothing writes global memory during the
 *   epoch), with the SM's own buffered stores on top;
 * - plain stores: into the SM's store buffer, committed at the flush (dab.h says why);
 * - buffered atomics (relaxed add/min/max/and/or/xor/inc/dec whose result is unused): into the
 *   atomic buffer of the warp's scheduler when the scheduler lets it (GWAT: the warp holds the
 *   atomic token; sm.c); otherwise the warp stops before the instruction and waits; when the
 *   instruction does not fit, the buffer closes and the warp waits for the flush;
 * - flush-class operations (any other atomic, device printf/malloc/free): the warp stops
 *   before the instruction, which runs in flush order (flush.c);
 * - fences: performed, and the warp waits for the flush.
 * After a CTA barrier that found atomics in the SM's buffers (the barrier's CTA-level fence,
 * S4), the CTA's warps wait for the flush; the last warp to arrive runs on past the barrier
 * until its next global operation, which waits.
 * In the flush, and for warps run outside the DAB engine, it is the direct policy.
 */
#include "timing/dab/dab.h"


/* Pieces of one warp instruction that buffer (32 lanes x a .v8 vector); more are flush-class. */
#define DAB_MAX_PIECES (EMU_WARP_SIZE * 8)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether register reg is read by any instruction of function func of w's module. */
static bool reg_read(const dab_run *R, emu_warp *w, uint32_t func, int32_t reg)
{
    uint32_t n = R->ptx->funcs[func].ninstrs;
    for (uint32_t pc = 0; pc < n; pc++) {
        emu_next_instr ni;
        if (!emu_warp_instr(w, func, pc, &ni)) continue;
        for (uint32_t r = 0; r < ni.nreads; r++)
            if (ni.regs[r] == reg) return true;
    }
    return false;
}

/* G6 / S4 [R]: red, and atom whose destination is the sink or a register the function never
 * reads, are relaxed reductions; everything else (cas, exch, a result that is read, 128-bit
 * operands) is flush-class. The answer per instruction is kept per SM (no locks). */
bool dab_buffered(dab_sm *S, emu_warp *w, const emu_mem_op *op)
{
    const dab_run *R = S->R;
    if (op->aop == PTX_SFX_CAS || op->aop == PTX_SFX_EXCH) return false;
    /* an instruction whose pieces could never fit an empty buffer (vector atomics of many
     * lanes in small buffers) would wait for the flush forever: it is flush-class */
    if (op->nseg > R->entries || op->nseg > DAB_MAX_PIECES) return false;
    if (op->func >= R->ptx->nfuncs) return false;
    uint32_t n = R->ptx->funcs[op->func].ninstrs;
    if (op->pc >= n) return false;
    if (!S->cls[op->func]) {
        S->cls[op->func] = calloc(n, 1);
        if (!S->cls[op->func]) return false;   /* flush-class is always correct */
    }
    uint8_t *c = &S->cls[op->func][op->pc];
    if (*c) return *c == 1;
    bool buffered = false;
    emu_next_instr ni;
    if (emu_warp_instr(w, op->func, op->pc, &ni)) {
        for (uint32_t i = 0; i < op->nseg; i++)
            if (op->seg[i].size > 8) ni.op = 0;   /* 128-bit operands: flush-class */
        if (ni.op == PTX_OP_RED) buffered = true;
        else if (ni.op == PTX_OP_ATOM)
            buffered = ni.nwrites == 0 || !reg_read(R, w, op->func, ni.regs[ni.nreads]);
    }
    *c = buffered ? 1 : 2;
    return buffered;
}

static emu_mem_outcome wait_flush(dab_warp *dw, dab_exec *X)
{
    dw->wait = DAB_WAIT_FLUSH;
    X->deferred++;
    return EMU_MEM_DEFERRED;
}

static emu_mem_outcome buffer_atomic(dab_warp *dw, dab_exec *X, emu_mem_op *op)
{
    dab_sm *S = dw->sm;
    if (!dab_may_insert(S, dw)) {
        dw->wait = DAB_WAIT_TOKEN;
        X->deferred++;
        return EMU_MEM_DEFERRED;
    }
    dab_entry a[DAB_MAX_PIECES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *sg = &op->seg[i];
        dab_entry *e = &a[n++];
        *e = (dab_entry){ .addr = sg->addr, .aop = op->aop, .type = op->atype,
                          .size = (uint8_t)sg->size };
        memcpy(&e->arg, op->operand_b + sg->off, sg->size);
    }
    dab_buf *b = &S->bufs[dw->buf];
    bool was_closed = b->closed;
    uint32_t fused;
    if (!dab_buf_insert(b, a, n, S->R->fusion, &fused)) {
        if (!was_closed) X->st.dab_full++;
        /* the atomic goes in after the flush (GWAT: when the token comes back to the warp) */
        return wait_flush(dw, X);
    }
    X->st.dab_atomics += n;
    X->st.dab_fused += fused;
    /* the destination is never read: a fixed value keeps the registers deterministic */
    for (uint32_t i = 0; i < op->nseg; i++) memset(op->data + op->seg[i].off, 0, op->seg[i].size);
    dab_inserted(S, dw);
    return EMU_MEM_DONE;
}

static emu_mem_outcome dab_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    dab_warp *dw = emu_warp_user(w, EMU_POLICY_DET);
    dab_exec *X = dw ? dw->exec : NULL;
    if (!X || X->direct || op->space != PTX_SPACE_GLOBAL) return emu_policy_forward(self, w, op);
    dab_sm *S = dw->sm;
    /* past a barrier that waits for the flush (the barrier's last warp runs on to here) */
    if (dw->wait == DAB_WAIT_FLUSH && op->kind != EMU_MEM_FENCE) return wait_flush(dw, X);
    switch (op->kind) {
    case EMU_MEM_LOAD:
        emu_mem_perform(op);
        if (S->sb.n) gd_sb_read_op(&S->sb, op);
        return EMU_MEM_DONE;
    case EMU_MEM_STORE:
        if (gd_sb_store(&S->sb, op) < 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "out of host memory for the DAB store buffer of SM %u "
                     "(%u entries)", S->id, S->sb.n);
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, msg);
            return EMU_MEM_DONE;
        }
        return EMU_MEM_DONE;
    case EMU_MEM_ATOMIC:
        if (dab_buffered(S, w, op)) return buffer_atomic(dw, X, op);
        dw->pending = true;
        return wait_flush(dw, X);
    case EMU_MEM_CALL:
        dw->pending = true;
        return wait_flush(dw, X);
    case EMU_MEM_FENCE:
        dw->wait = DAB_WAIT_FLUSH;
        X->st.dab_fences++;
        return EMU_MEM_DONE_STOP;
    default:
        return EMU_MEM_DONE;
    }
}

static void dab_barrier(emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                        bool wait, uint32_t lanes, uint16_t func, uint32_t pc)
{
    dab_warp *dw = emu_warp_user(w, EMU_POLICY_DET);
    dab_exec *X = dw ? dw->exec : NULL;
    if (!X || X->direct || !wait || id == EMU_WARP_BARRIER || id == EMU_WARP_MEMBERS) return;
    dab_sm *S = dw->sm;
    dab_run *R = S->R;
    uint32_t k = dw->slot / R->W;
    bool buffered = S->cta_flush[k];
    for (uint32_t s = 0; s < R->nbuf && !buffered; s++) buffered = S->bufs[s].n > 0;
    if (!buffered) return;
    /* S4: the barrier's CTA-level fence waits for the flush; every warp of the CTA that has
     * arrived, or arrives from now on, goes on only after it */
    S->cta_flush[k] = true;
    for (uint32_t i = 0; i < R->W; i++) {
        dab_warp *o = &S->warps[k * R->W + i];
        if (o == dw || (o->w && !emu_warp_exited(o->w) && !emu_warp_runnable(o->w) &&
                        o->wait == DAB_RUN)) {
            o->wait = DAB_WAIT_FLUSH;
            X->st.dab_fences++;
        }
    }
}

static emu_mem_policy dab_mem_policy = {
    .name = "dab", .access = dab_access, .barrier = dab_barrier,
};

emu_mem_policy *dab_policy(void)
{
    return &dab_mem_policy;
}
