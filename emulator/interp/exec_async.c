/* exec_async.c: the bulk asynchronous copies of sm_90 (cp.async.bulk between global and shared
 * memory, completed through an mbarrier's transaction count or a bulk async-group), their
 * group instructions, and the bulk prefetch.
 *
 * A copy is done when the instruction executes, so the asynchronous parts resolve at once: the
 * complete_tx of a copy's mbarrier happens at issue (the transaction count may go negative
 * until the matching expect_tx, as the ISA allows), and bulk wait_group has nothing to wait
 * for. The data moves through the same checked path as ld/st (and the memory policy): each
 * copy's source and destination are one access each, checked in full before either happens.
 */
#include "emulator/emu_internal.h"

#include <string.h>

/* The state spaces written on the instruction, in order: destination, then source. */
void emu_copy_spaces(const ptx_instr *in, uint8_t *dst, uint8_t *src)
{
    int n = 0;
    *dst = *src = PTX_SPACE_NONE;
    for (int i = 0; i < in->nsfx && n < 2; i++) {
        uint8_t sp;
        switch (in->sfx[i]) {
        case PTX_SFX_GLOBAL: sp = PTX_SPACE_GLOBAL; break;
        case PTX_SFX_SHARED: case PTX_SFX_SHARED_CTA: sp = PTX_SPACE_SHARED; break;
        case PTX_SFX_SHARED_CLUSTER: sp = PTX_SPACE_SHARED_CLUSTER; break;
        default: continue;
        }
        if (n++ == 0) *dst = sp;
        else *src = sp;
    }
}

/* Per-lane address values of an address operand [reg+imm] / [sym+imm]. */
static void addresses(emu_ctx *c, const ptx_operand *o, uint64_t *a)
{
    uint64_t base[EMU_WARP_SIZE];
    if (o->reg >= 0) {
        ptx_operand r = { .kind = PTX_OPD_REG, .reg = o->reg, .sym = -1 };
        emu_read_all(c, &r, PTX_TYPE_U64, base);
    } else {
        uint64_t s = o->sym >= 0 ? emu_symbol_address(c, o->sym, NULL) : 0;
        for (int l = 0; l < EMU_WARP_SIZE; l++) base[l] = s;
    }
    for (int l = 0; l < EMU_WARP_SIZE; l++) a[l] = base[l] + (uint64_t)o->imm;
}

/* The host pointer of the 8-byte mbarrier at shared address a, or NULL (a fault is raised). */
static uint8_t *mbarrier_ptr(emu_ctx *c, int lane, uint64_t a)
{
    if (a >= EMU_SHARED_WINDOW && a < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) a -= EMU_SHARED_WINDOW;
    if (a % 8) {
        emu_fault_raise(c, EMU_FAULT_MISALIGNED, lane, true, a, "Misaligned mbarrier",
                        "an mbarrier object must be 8-byte aligned");
        return NULL;
    }
    if (a > c->cta->smem_size || c->cta->smem_size - a < 8) {
        emu_fault_raise(c, EMU_FAULT_SHARED_OUT_OF_RANGE, lane, true, a,
                        "Invalid __shared__ mbarrier access",
                        "the mbarrier is outside the block's %llu bytes of shared memory",
                        (unsigned long long)c->cta->smem_size);
        return NULL;
    }
    return c->cta->smem + a;
}

/* A copy or reduction from the CTA's shared memory into the cluster's (shared::cluster from
 * shared::cta) runs only in a kernel launched as a cluster: an H100 raises an illegal
 * instruction for it in a plain launch and runs it under a 1x1x1 cluster launch (UBLKCP.S.S and
 * UBLKRED.S.S, probed 2026-11-27). ptxsim launches no clusters (cluster launches are refused),
 * so such an instruction always faults here, as the plain launch does on a GPU. true after the
 * fault. */
bool emu_bulk_needs_cluster(emu_ctx *c, uint8_t dst_space, uint8_t src_space)
{
    if (dst_space != PTX_SPACE_SHARED_CLUSTER || src_space != PTX_SPACE_SHARED || !c->mask)
        return false;
    emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                    "Illegal instruction",
                    "a bulk copy or reduction from shared::cta into shared::cluster needs a "
                    "cluster launch, and ptxsim does not launch clusters");
    return true;
}

/* cp.async.bulk.dst.src.completion [dst], [src], size {, [mbar]} {, ctaMask} {, policy}: every
 * lane's whole copy is one access of the source and one of the destination, both checked
 * before either is performed. */
static void x_bulk_copy(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dsp, ssp;
    emu_copy_spaces(in, &dsp, &ssp);
    if (emu_bulk_needs_cluster(c, dsp, ssp)) return;
    bool mbar = ptx_instr_has(in, PTX_SFX_MBARRIER_COMPLETE_TX_BYTES);
    uint64_t da[EMU_WARP_SIZE], sa[EMU_WARP_SIZE], sb[EMU_WARP_SIZE];
    addresses(c, &in->ops[0], da);
    addresses(c, &in->ops[1], sa);
    const uint64_t *size = emu_src(c, &u->opd[2], PTX_TYPE_U32, sb);
    uint8_t *mb[EMU_WARP_SIZE];
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (size[l] % 16 || da[l] % 16 || sa[l] % 16) {
            emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true, size[l] % 16 ? size[l] : da[l] % 16 ? da[l] : sa[l],
                            "Misaligned bulk copy",
                            "cp.async.bulk needs 16-byte aligned addresses and a size that is a "
                            "multiple of 16 (size %llu)", (unsigned long long)size[l]);
            return;
        }
        mb[l] = NULL;
        if (mbar) {
            uint64_t ma[EMU_WARP_SIZE];
            addresses(c, &in->ops[3], ma);
            if (!(mb[l] = mbarrier_ptr(c, l, ma[l]))) return;
        }
    }
    emu_access S, D;
    emu_acc_init(&S);
    emu_acc_init(&D);
    emu_acc_begin(&S, c, EMU_MEM_LOAD, ssp, "read");
    emu_acc_begin(&D, c, EMU_MEM_STORE, dsp, "write");
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (size[l]) emu_acc_piece(&S, l, sa[l], (uint32_t)size[l]);
    }
    if (emu_acc_check(&S, 16)) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (size[l]) emu_acc_piece(&D, l, da[l], (uint32_t)size[l]);
        }
        if (emu_acc_check(&D, 16) && emu_acc_perform(&S)) {
            for (uint32_t i = 0; i < S.n; i++)
                memcpy(emu_acc_data(&D, &D.p[i]), emu_acc_data(&S, &S.p[i]), S.p[i].size);
            if (emu_acc_perform(&D))
                for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                    int l = __builtin_ctz(mk);
                    if (mb[l]) emu_mbarrier_update(mb[l], EMU_MBAR_COMPLETE_TX, 0, (int32_t)size[l]);
                }
        }
    }
    emu_acc_release(&S);
    emu_acc_release(&D);
}

static void x_nop(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    (void)c;
}

emu_exec_fn emu_select_async(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_CP_ASYNC_BULK: {
        if (in->nops < 3) return NULL;
        uint8_t d, s;
        emu_copy_spaces(in, &d, &s);
        if (d == PTX_SPACE_NONE || s == PTX_SPACE_NONE || ptx_instr_has(in, PTX_SFX_CP_MASK))
            return NULL;
        bool mbar = ptx_instr_has(in, PTX_SFX_MBARRIER_COMPLETE_TX_BYTES);
        bool group = in->flags & PTX_F(BULK_GROUP);
        if (mbar == group) return NULL;
        if (mbar && (in->nops < 4 || in->ops[3].kind != PTX_OPD_ADDR)) return NULL;
        /* multicast to other CTAs of a cluster: a cluster here is one CTA */
        if (ptx_instr_has(in, PTX_SFX_MULTICAST_CLUSTER)) return NULL;
        if (in->ops[0].kind != PTX_OPD_ADDR || in->ops[1].kind != PTX_OPD_ADDR) return NULL;
        return x_bulk_copy;
    }
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP:
    case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH:
        return x_nop;
    default: return emu_select_tensor(code, u);
    }
}
