/* exec_control.c: branches (with SIMT divergence), calls and returns, exit, trap, barriers,
 * and the scheduling hints (nanosleep). */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <string.h>

/* Sends `lanes` of the active mask to `target`: a uniform jump, or a divergence that pushes
 * both paths with the reconvergence point rpc. */
static void branch(emu_ctx *c, uint32_t target, uint32_t lanes, uint32_t rpc)
{
    if (c->ev) {
        c->ev->flags |= EMU_EV_BRANCH;
        c->ev->taken = lanes;
        if (lanes && lanes != c->active) {
            c->ev->flags |= EMU_EV_DIVERGED;
            c->ev->reconv = rpc;
        }
    }
    if (lanes == c->active) {
        c->next_pc = target;
        return;
    }
    if (lanes == 0) return;
    emu_warp *w = c->w;
    w->stack[w->sp - 1].pc = rpc;
    emu_simt_push(w, c->pc + 1, rpc, c->active & ~lanes);
    emu_simt_push(w, target, rpc, lanes);
    c->control = true;
}

static uint32_t reconv_of(const emu_ctx *c, const ptx_instr *in)
{
    return in->reconv >= 0 ? (uint32_t)in->reconv : c->fn->ninstrs;
}

static void x_bra(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int32_t t = in->target;
    if (t < 0 && in->nops > 0 && in->ops[0].kind == PTX_OPD_LABEL) t = (int32_t)in->ops[0].imm;
    if (t < 0 || (uint32_t)t > c->fn->ninstrs) {
        emu_fault_raise(c, EMU_FAULT_INVALID_PC, __builtin_ctz(c->mask), false, 0,
                        "Invalid branch", "branch target %d is outside function %s", t,
                        c->fn->name);
        return;
    }
    if ((uint32_t)t <= c->pc && c->mask == c->active && (u->flags & EMU_UOP_SPIN_BACKEDGE))
        emu_simt_backedge(c, (uint32_t)t);
    if (c->control) return;
    branch(c, (uint32_t)t, c->mask, reconv_of(c, in));
}

/* brx.idx index, {labels}: lanes may take different targets; each group gets its own entry. */
static void x_brx(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    const ptx_operand *list = in->nops > 1 ? &in->ops[1] : NULL;
    if (!list || list->kind != PTX_OPD_LIST || !list->nelem) {
        emu_fault_raise(c, EMU_FAULT_INVALID_PC, __builtin_ctz(c->mask), false, 0,
                        "Invalid branch", "brx.idx without a label list");
        return;
    }
    uint64_t idx[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[0], PTX_TYPE_U32, idx);
    uint32_t tgt[EMU_WARP_SIZE];
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (idx[l] >= list->nelem) {
            emu_fault_raise(c, EMU_FAULT_INVALID_PC, l, false, 0, "Invalid branch",
                            "brx.idx index %llu outside its %u targets",
                            (unsigned long long)idx[l], list->nelem);
            return;
        }
        tgt[l] = (uint32_t)list->elems[idx[l]].imm;
    }
    uint32_t rpc = reconv_of(c, in);
    uint32_t first = __builtin_ctz(c->mask);
    uint32_t same = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (tgt[l] == tgt[first]) same |= 1u << l;
    }
    if (c->ev) {
        c->ev->flags |= EMU_EV_BRANCH;
        c->ev->taken = c->mask;
        if (same != c->active) {
            c->ev->flags |= EMU_EV_DIVERGED;
            c->ev->reconv = rpc;
        }
    }
    if (same == c->active) {
        c->next_pc = tgt[first];
        return;
    }
    emu_warp *w = c->w;
    w->stack[w->sp - 1].pc = rpc;
    uint32_t rest = c->active & ~c->mask;
    if (rest) emu_simt_push(w, c->pc + 1, rpc, rest);
    uint32_t left = c->mask;
    while (left) {
        int l0 = __builtin_ctz(left);
        uint32_t grp = 0;
        for (uint32_t mk = left; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (tgt[l] == tgt[l0]) grp |= 1u << l;
        }
        emu_simt_push(w, tgt[l0], rpc, grp);
        left &= ~grp;
    }
    c->control = true;
}

extern bool emu_builtin_call(emu_ctx *c, const ptx_instr *in, const ptx_function *callee);

static void x_call(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int ri, ci, ai;
    emu_call_operands(in, &ri, &ci, &ai);
    const ptx_module *m = c->mod->ptx;
    const ptx_operand *co = ci >= 0 ? &in->ops[ci] : NULL;
    int32_t fidx = -1;
    if (co && (co->kind == PTX_OPD_SYM || co->kind == PTX_OPD_ADDR) && co->sym >= 0 &&
        m->syms[co->sym].kind == PTX_SYM_FUNC) {
        fidx = m->syms[co->sym].func;
    } else if (in->target >= 0 && (uint32_t)in->target < m->nsyms &&
               m->syms[in->target].kind == PTX_SYM_FUNC) {
        fidx = m->syms[in->target].func;
    } else if (co && co->kind == PTX_OPD_REG) {
        /* indirect: group the lanes by target; each group re-executes this call alone */
        uint64_t v[EMU_WARP_SIZE];
        emu_read_all(c, co, PTX_TYPE_U64, v);
        int l0 = __builtin_ctz(c->mask);
        uint32_t same = 0;
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (v[l] < EMU_FUNC_WINDOW || v[l] - EMU_FUNC_WINDOW >= m->nfuncs) {
                emu_fault_raise(c, EMU_FAULT_INVALID_PC, l, true, v[l], "Invalid call",
                                "the target is not a function address");
                return;
            }
            if (v[l] == v[l0]) same |= 1u << l;
        }
        if (same != c->mask) {
            emu_warp *w = c->w;
            w->stack[w->sp - 1].pc = c->pc + 1;
            uint32_t left = c->mask;
            while (left) {
                int a = __builtin_ctz(left);
                uint32_t grp = 0;
                for (uint32_t mk = left; mk; mk &= mk - 1) {
                    int l = __builtin_ctz(mk);
                    if (v[l] == v[a]) grp |= 1u << l;
                }
                emu_simt_push(w, c->pc, c->pc + 1, grp);
                left &= ~grp;
            }
            c->control = true;
            return;
        }
        fidx = (int32_t)(v[l0] - EMU_FUNC_WINDOW);
    }
    if (fidx < 0 || (uint32_t)fidx >= m->nfuncs) {
        emu_fault_raise(c, EMU_FAULT_INVALID_PC, __builtin_ctz(c->mask), false, 0,
                        "Invalid call", "the call has no resolvable target");
        return;
    }
    const ptx_function *callee = &m->funcs[fidx];
    if (callee->is_decl || callee->ninstrs == 0) {
        if (emu_builtin_call(c, in, callee)) return;
        emu_fault_raise(c, EMU_FAULT_UNSUPPORTED, __builtin_ctz(c->mask), false, 0,
                        "Unsupported call",
                        "function %s has no body in this module (link it with -rdc, or it is "
                        "a device-runtime function ptxsim lacks)", callee->name);
        return;
    }
    const emu_func *f = emu_module_func(c->mod, (uint32_t)fidx);
    /* the caller resumes after the call once the callee's frame is gone */
    c->w->stack[c->w->sp - 1].pc = c->pc + 1;
    if (!emu_call_push(c, f, c->mask, in)) return;
}

static void x_ret(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    if (c->w->nframes == 1) emu_lanes_exit(c, c->mask);
    else emu_lanes_return(c, c->mask);
}

static void x_exit(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    emu_lanes_exit(c, c->mask);
}

static void x_trap(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    emu_fault_raise(c, EMU_FAULT_TRAP, __builtin_ctz(c->mask), false, 0, "Trap",
                    "%s instruction executed", in->op == PTX_OP_BRKPT ? "brkpt" : "trap");
}

static void x_yield(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    c->stop = EMU_STOP_BUDGET;
}

static void x_nop(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    (void)c;
}

/* A barrier's id or thread count as a u32 (emu_read's value): an immediate, nearly always
 * (bar.sync 0), is its low 32 bits, read without the operand reader (a barrier-bound kernel
 * runs a bar.sync every few warp instructions). */
static inline uint64_t bar_operand(emu_ctx *c, const ptx_operand *o, int lane)
{
    if (o->kind == PTX_OPD_IMM) return (uint64_t)o->imm & 0xffffffffu;
    return emu_read(c, o, lane, PTX_TYPE_U32);
}

/* bar{.cta}.sync / barrier{.cta}.sync / bar.arrive / bar.red: id, optional thread count. */
static void x_bar(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool red = in->mode == PTX_SFX_RED || (in->aop && in->mode != PTX_SFX_ARRIVE);
    bool arrive = in->mode == PTX_SFX_ARRIVE;
    int first = red ? 1 : 0;
    int nargs = in->nops - first - (red ? 1 : 0);
    int l0 = __builtin_ctz(c->mask);
    uint64_t id = nargs > 0 ? bar_operand(c, &in->ops[first], l0) : 0;
    uint64_t count = nargs > 1 ? bar_operand(c, &in->ops[first + 1], l0) : 0;
    if (id >= EMU_NBARRIERS) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l0, false, 0, "Invalid barrier",
                        "barrier id %llu is not below %u", (unsigned long long)id,
                        EMU_NBARRIERS);
        return;
    }
    if (count && (count % EMU_WARP_SIZE || count > c->cta->nthreads + EMU_WARP_SIZE)) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l0, false, 0, "Invalid barrier",
                        "thread count %llu of barrier %llu is not a multiple of the warp size "
                        "within the block", (unsigned long long)count, (unsigned long long)id);
        return;
    }
    uint32_t popc = 0;
    bool all = true, any = false;
    if (red) {
        uint32_t p = emu_read_pred_mask(c, &in->ops[in->nops - 1]) & c->mask;
        popc = (uint32_t)__builtin_popcount(p);
        all = p == c->mask;
        any = p != 0;
    }
    emu_mem_policy *pol = c->g->launch.policy;
    if (pol->barrier)
        pol->barrier(pol, c->w, (uint32_t)id, (uint32_t)count, !arrive, c->mask,
                     (uint16_t)c->f->index, c->pc);
    /* the lanes that wait here take the reduction's result when the barrier completes (only
     * a reduction's waiters read their instruction then) */
    if (red) c->cta->bar[id].red = true;
    emu_barrier_arrive(c, (uint32_t)id, (uint32_t)count, !arrive, popc, all, any);
}

/* bar{.cta}.sync / barrier{.cta}.sync with an immediate id that is valid, no thread count and
 * no reduction: x_bar without its decoding (a barrier-bound kernel's warp runs a few
 * instructions between two of them; emu_select_control checks the shape once). */
static void x_bar_sync_imm(emu_ctx *c, const emu_uop *u)
{
    uint32_t id = (uint32_t)((uint64_t)u->in->ops[0].imm & 0xffffffffu);
    emu_mem_policy *pol = c->g->launch.policy;
    if (pol->barrier)
        pol->barrier(pol, c->w, id, 0, true, c->mask, (uint16_t)c->f->index, c->pc);
    emu_barrier_arrive(c, id, 0, true, 0, true, false);
}

bool emu_bar_sync_imm_selected(const emu_uop *u)
{
    return u->exec == x_bar_sync_imm;
}

/* Whether bar/barrier instruction in is one x_bar_sync_imm runs as x_bar would. */
static bool bar_sync_imm(const ptx_instr *in)
{
    bool red = in->mode == PTX_SFX_RED || (in->aop && in->mode != PTX_SFX_ARRIVE);
    return !red && in->mode != PTX_SFX_ARRIVE && in->nops == 1 &&
           in->ops[0].kind == PTX_OPD_IMM &&
           ((uint64_t)in->ops[0].imm & 0xffffffffu) < EMU_NBARRIERS;
}

/* bar.warp.sync: lanes of the member mask on separate paths wait for each other
 * (emu_warp_sync_arrive); a policy that orders memory (the race checker) learns of each
 * completed synchronisation, with the lanes it joined. */
static void x_warp_sync(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint32_t members = in->nops > 0 ? (uint32_t)emu_read(c, &in->ops[0], __builtin_ctz(c->mask),
                                                        PTX_TYPE_U32)
                                    : 0xffffffffu;
    uint16_t func = (uint16_t)c->f->index;
    uint32_t pc = c->pc;
    uint32_t synced = emu_warp_sync_arrive(c, members);
    emu_mem_policy *pol = c->g->launch.policy;
    if (synced && pol->barrier)
        pol->barrier(pol, c->w, EMU_WARP_BARRIER, members, true, synced, func, pc);
}

/* barrier.cluster.{arrive,wait}: a cluster is one CTA here. The arrive needs no action; the
 * wait becomes a barrier of every thread of the CTA (every thread arrives before it waits, so
 * this orders no less than the split barrier does), on an id bar.sync cannot name. */
static void x_cluster_barrier(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (in->mode == PTX_SFX_ARRIVE) return;
    emu_barrier_arrive(c, EMU_NBARRIERS, 0, true, 0, true, false);
}

/* Transaction markers: the callee's body is never run; the call is the boundary. */
static void x_tx_begin(emu_ctx *c, const emu_uop *u) { emu_policy_tx(c, EMU_MEM_TX_BEGIN); }
static void x_tx_commit(emu_ctx *c, const emu_uop *u) { emu_policy_tx(c, EMU_MEM_TX_COMMIT); }

emu_exec_fn emu_tx_marker_handler(int marker)
{
    return marker == PTX_TX_BEGIN ? x_tx_begin : marker == PTX_TX_COMMIT ? x_tx_commit : NULL;
}

emu_exec_fn emu_select_control(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_BRA: return x_bra;
    case PTX_OP_BRX_IDX: return x_brx;
    case PTX_OP_CALL: return x_call;
    case PTX_OP_RET: return x_ret;
    case PTX_OP_EXIT: return x_exit;
    case PTX_OP_TRAP:
    case PTX_OP_BRKPT: return x_trap;
    case PTX_OP_NANOSLEEP: return x_yield;
    case PTX_OP_PMEVENT:
    case PTX_OP_SETMAXNREG:
    case PTX_OP_GRIDDEPCONTROL: return x_nop;
    case PTX_OP_BAR_WARP_SYNC: return x_warp_sync;
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        if (ptx_instr_has(in, PTX_SFX_CLUSTER) || in->scope == PTX_SFX_CLUSTER) {
            if (in->op == PTX_OP_BARRIER && in->nops == 0 &&
                (in->mode == PTX_SFX_ARRIVE || in->mode == PTX_SFX_WAIT))
                return x_cluster_barrier;
            return NULL;
        }
        if (in->mode == PTX_SFX_RED && in->aop != PTX_SFX_POPC && in->aop != PTX_SFX_AND &&
            in->aop != PTX_SFX_OR)
            return NULL;
        return bar_sync_imm(in) ? x_bar_sync_imm : x_bar;
    default: return NULL;
    }
}
