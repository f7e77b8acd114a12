/* ptx_roles.c: how each instruction uses its operands (which are written, which are read) and
 * the registers it reads and writes.
 *
 * The executors, the timing model's scoreboard and the analyses (liveness, FMA contraction,
 * iGPU regions, DAB's unused results) all need the same answer, so it is worked out here once,
 * from the opcode and the operand conventions of ptx.h, instead of by every handler. */
#include "frontend/ptx.h"

/* Opcodes whose first operand is not a destination register (stores, reductions, copies into
 * memory, control flow, fences and hints). */
static bool has_no_destination(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ST: case PTX_OP_ST_ASYNC: case PTX_OP_RED_ASYNC: case PTX_OP_ST_BULK:
    case PTX_OP_MULTIMEM_ST: case PTX_OP_MULTIMEM_RED: case PTX_OP_PREFETCH:
    case PTX_OP_PREFETCHU: case PTX_OP_APPLYPRIORITY: case PTX_OP_DISCARD:
    case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL: case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
    case PTX_OP_CP_ASYNC_BULK: case PTX_OP_CP_REDUCE_ASYNC_BULK:
    case PTX_OP_CP_ASYNC_BULK_TENSOR: case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH: case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP: case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP:
    case PTX_OP_TENSORMAP_REPLACE: case PTX_OP_TENSORMAP_CP_FENCEPROXY:
    case PTX_OP_SUST: case PTX_OP_SURED:
    case PTX_OP_BRA: case PTX_OP_BRX_IDX: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_BAR_WARP_SYNC: case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_RED:
    case PTX_OP_GRIDDEPCONTROL: case PTX_OP_CLUSTERLAUNCHCONTROL_TRY_CANCEL:
    case PTX_OP_STACKRESTORE: case PTX_OP_SETMAXNREG: case PTX_OP_TRAP: case PTX_OP_BRKPT:
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT: case PTX_OP_WMMA_STORE: case PTX_OP_STMATRIX:
    case PTX_OP_WGMMA_FENCE: case PTX_OP_WGMMA_COMMIT_GROUP: case PTX_OP_WGMMA_WAIT_GROUP:
    case PTX_OP_TCGEN05_ALLOC: case PTX_OP_TCGEN05_DEALLOC:
    case PTX_OP_TCGEN05_RELINQUISH_ALLOC_PERMIT: case PTX_OP_TCGEN05_ST:
    case PTX_OP_TCGEN05_WAIT: case PTX_OP_TCGEN05_CP: case PTX_OP_TCGEN05_SHIFT:
    case PTX_OP_TCGEN05_MMA: case PTX_OP_TCGEN05_COMMIT: case PTX_OP_TCGEN05_FENCE:
    case PTX_OP_TCGEN05_WAIT_LD: case PTX_OP_TCGEN05_WAIT_ST:
    case PTX_OP_TCGEN05_FENCE_BEFORE_THREAD_SYNC: case PTX_OP_TCGEN05_FENCE_AFTER_THREAD_SYNC:
        return true;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        /* bar.red.op d, a{, b}, {!}c writes d; the other forms only name a barrier */
        return in->mode != PTX_SFX_RED && !(in->aop && in->mode != PTX_SFX_ARRIVE);
    case PTX_OP_MBARRIER:
        /* arrive, arrive_drop, test_wait, try_wait and pending_count return a value first */
        return in->nops == 0 || in->ops[0].kind == PTX_OPD_ADDR;
    default:
        return false;
    }
}

ptx_role ptx_operand_role(const ptx_instr *in, unsigned i)
{
    if (i >= in->nops) return PTX_ROLE_NONE;
    const ptx_operand *o = &in->ops[i];
    switch (o->kind) {
    case PTX_OPD_LABEL:
    case PTX_OPD_SINK:
        return o->kind == PTX_OPD_SINK && (i == 0 || o->pipe) ? PTX_ROLE_DEF : PTX_ROLE_NONE;
    case PTX_OPD_SYM:
        return PTX_ROLE_NONE;
    default:
        break;
    }
    if (in->op == PTX_OP_CALL) {
        /* call (rets), callee, (args): the return list is written, the rest read */
        bool rets = in->nops > 0 && in->ops[0].kind == PTX_OPD_LIST;
        return rets && i == 0 ? PTX_ROLE_DEF : PTX_ROLE_USE;
    }
    if (o->kind == PTX_OPD_ADDR) return PTX_ROLE_USE;
    bool dest = (i == 0 && !has_no_destination(in)) || o->pipe;
    if (!dest) return PTX_ROLE_USE;
    /* wgmma's accumulator is read and written in place */
    if (in->op == PTX_OP_WGMMA_MMA_ASYNC && i == 0) return PTX_ROLE_USEDEF;
    return PTX_ROLE_DEF;
}

typedef struct visit_ctx {
    const ptx_function *fn;
    void (*visit)(void *, int32_t, ptx_role);
    void *ctx;
} visit_ctx;

static void visit_reg(const visit_ctx *v, int32_t reg, ptx_role role, bool component)
{
    if (reg < 0 || (uint32_t)reg >= v->fn->nregs) return;
    /* writing one component of a vector register keeps the others: a read as well */
    if (role == PTX_ROLE_DEF && component && v->fn->regs[reg].vec > 1) role = PTX_ROLE_USEDEF;
    v->visit(v->ctx, reg, role);
}

static void visit_operand(const visit_ctx *v, const ptx_operand *o, ptx_role role)
{
    switch (o->kind) {
    case PTX_OPD_REG:
        visit_reg(v, o->reg, role, true);
        break;
    case PTX_OPD_ADDR:
        /* the base register of an address is read, whatever the instruction does with the
         * memory behind it */
        if (o->reg >= 0) visit_reg(v, o->reg, PTX_ROLE_USE, false);
        break;
    case PTX_OPD_VEC:
    case PTX_OPD_LIST:
        for (unsigned k = 0; k < o->nelem; k++) visit_operand(v, &o->elems[k], role);
        break;
    default:
        break;
    }
}

void ptx_instr_regs(const ptx_function *fn, const ptx_instr *in,
                    void (*visit)(void *ctx, int32_t reg, ptx_role role), void *ctx)
{
    visit_ctx v = { fn, visit, ctx };
    if (in->guard >= 0) visit_reg(&v, in->guard, PTX_ROLE_USE, false);
    for (unsigned i = 0; i < in->nops; i++) {
        ptx_role r = ptx_operand_role(in, i);
        if (r != PTX_ROLE_NONE) visit_operand(&v, &in->ops[i], r);
    }
}
