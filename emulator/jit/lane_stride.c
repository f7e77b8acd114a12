/* lane_stride.c: how a register's value steps from lane to lane, as the function's integer
 * arithmetic on %tid.x makes it, for the translator's shared accesses (translate.c's emit_mem):
 * an address that steps by a constant other than 0 and its element size is neither one
 * address per half-warp nor consecutive elements, so its access needs no search for those
 * shapes and goes to its gather or scatter at once. A tree step of a scan or a reduction
 * (s[off * (2t + 1) - 1], unrolled: scan_block's 40 accesses) searched both shapes per access,
 * about a quarter of the function's IR for two paths it never takes.
 *
 * A prediction, not a proof: the value of a row written in several places is taken as one
 * when every write gives the same step (flow-insensitive), `or` with a constant counts as an
 * add (2t | 1: what compilers make of 2t + 1), widths and wrap-around are ignored, and %tid.x
 * is taken to step by one from lane to lane (in a block narrower than a warp it starts again
 * in the next row of threads). A wrong guess costs speed only: the gather and the scatter are
 * the general paths, right for every shape. */
#include "emulator/jit/jit_internal.h"

#include <string.h>

#define UNSET (EMU_JIT_STRIDE_VARYING + 1)   /* no write of the row seen yet */

static bool row_slot(const emu_opd *o, uint32_t nslots, uint32_t *slot)
{
    if (o->kind != EMU_OPD_REG || o->bits > 64 || o->row % EMU_WARP_SIZE) return false;
    *slot = o->row / EMU_WARP_SIZE;
    return *slot < nslots;
}

/* The step of source operand o (UNSET while its row's is not known yet) */
static int64_t src_stride(const int64_t *stride, uint32_t nslots, const emu_opd *o)
{
    uint32_t slot;
    switch (o->kind) {
    case EMU_OPD_IMM:
    case EMU_OPD_SYM:
        return 0;
    case EMU_OPD_SREG:
        if ((o->row == PTX_SREG_TID && o->type == 0) || o->row == PTX_SREG_LANEID) return 1;
        if (o->row == PTX_SREG_NTID || o->row == PTX_SREG_CTAID || o->row == PTX_SREG_NCTAID) return 0;
        return EMU_JIT_STRIDE_VARYING;
    case EMU_OPD_REG:
        return row_slot(o, nslots, &slot) ? stride[slot] : EMU_JIT_STRIDE_VARYING;
    default:
        return EMU_JIT_STRIDE_VARYING;
    }
}

static bool known(int64_t s) { return s != EMU_JIT_STRIDE_VARYING && s != UNSET; }

/* a * b where one of them is the constant operand c (its value) */
static int64_t scaled(int64_t s, const emu_opd *c)
{
    return known(s) ? (int64_t)((uint64_t)s * c->imm) : s;
}

/* The step of µop u's result from its sources' steps: UNSET while a source's is unknown */
static int64_t result_stride(const int64_t *stride, uint32_t nslots, const emu_uop *u)
{
    const emu_opd *o = u->opd;
    uint8_t ty = u->type;
    bool int_type = ty == PTX_TYPE_U32 || ty == PTX_TYPE_S32 || ty == PTX_TYPE_B32 ||
                    ty == PTX_TYPE_U64 || ty == PTX_TYPE_S64 || ty == PTX_TYPE_B64;
    if (!int_type || (u->flags & EMU_UOP_CONTRACTED)) return EMU_JIT_STRIDE_VARYING;
    int64_t s[3] = {0, 0, 0};
    unsigned nsrc = u->nopd > 4 ? 3 : u->nopd - 1u;
    for (unsigned k = 0; k < nsrc; k++) {
        s[k] = src_stride(stride, nslots, &o[k + 1]);
        if (s[k] == UNSET) return UNSET;
    }
    bool uniform = true;
    for (unsigned k = 0; k < nsrc; k++) uniform &= s[k] == 0;
    bool vary = !known(s[0]) || !known(s[1]) || !known(s[2]);
    switch (u->op) {
    case PTX_OP_MOV:
    case PTX_OP_CVT:
    case PTX_OP_CVTA:
        return u->nopd == 2 ? s[0] : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_ADD:
        return u->nopd == 3 && !vary ? s[0] + s[1] : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_SUB:
        return u->nopd == 3 && !vary ? s[0] - s[1] : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_OR:
        if (u->nopd == 3 && o[2].kind == EMU_OPD_IMM) return s[0];
        return uniform ? 0 : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_SHL:
        if (u->nopd == 3 && o[2].kind == EMU_OPD_IMM && o[2].imm < 63 && known(s[0]))
            return (int64_t)((uint64_t)s[0] << o[2].imm);
        return uniform ? 0 : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_MUL:
    case PTX_OP_MAD: {
        if (u->nopd != (u->op == PTX_OP_MUL ? 3u : 4u) || u->in->mode == PTX_SFX_HI)
            return EMU_JIT_STRIDE_VARYING;
        int64_t p = s[0] == 0 && s[1] == 0 ? 0
                    : o[2].kind == EMU_OPD_IMM ? scaled(s[0], &o[2])
                    : o[1].kind == EMU_OPD_IMM ? scaled(s[1], &o[1])
                                               : EMU_JIT_STRIDE_VARYING;
        if (u->op == PTX_OP_MUL || !known(p)) return p;
        return known(s[2]) ? p + s[2] : EMU_JIT_STRIDE_VARYING;
    }
    case PTX_OP_AND: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_SHR: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_NEG:
        return uniform ? 0 : EMU_JIT_STRIDE_VARYING;
    case PTX_OP_LD:
        return u->in->space == PTX_SPACE_PARAM ? 0 : EMU_JIT_STRIDE_VARYING;
    default:
        return EMU_JIT_STRIDE_VARYING;
    }
}

/* The rows µop u writes (the decoder's register list) made varying, but for slot `keep` */
static void writes_varying(const emu_code *code, const emu_uop *u, int64_t *stride, uint32_t nslots,
                           uint32_t keep)
{
    const ptx_function *fn = code->fn;
    const int32_t *w = code->rw + u->rw + u->nreads;
    for (unsigned k = 0; k < u->nwrites; k++) {
        if (w[k] < 0 || (uint32_t)w[k] >= fn->nregs) continue;
        const ptx_reg *r = &fn->regs[w[k]];
        for (uint32_t s = r->slot; s < r->slot + r->nslots && s < nslots; s++)
            if (s != keep) stride[s] = EMU_JIT_STRIDE_VARYING;
    }
}

void emu_jit_lane_strides(const emu_code *code, int64_t *stride, uint32_t nslots)
{
    for (uint32_t k = 0; k < nslots; k++) stride[k] = UNSET;
    /* what no rule covers (a handler's results, loads, floats, a second result) writes rows
     * of any step */
    for (uint32_t i = 0; i < code->n; i++) {
        const emu_uop *u = &code->uops[i];
        uint32_t slot = UINT32_MAX;
        if (!(u->nopd >= 2 && u->nopd <= 4 && row_slot(&u->opd[0], nslots, &slot) &&
              result_stride(stride, nslots, u) != EMU_JIT_STRIDE_VARYING))
            slot = UINT32_MAX;
        writes_varying(code, u, stride, nslots, slot);
    }
    /* the rest to a fixpoint: a row's step is every write's, or varying (each row changes
     * at most twice: unset, a step, varying) */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < code->n; i++) {
            const emu_uop *u = &code->uops[i];
            uint32_t slot;
            if (u->op == PTX_OP_ST || u->nopd < 2 || u->nopd > 4 || !row_slot(&u->opd[0], nslots, &slot))
                continue;
            if (stride[slot] == EMU_JIT_STRIDE_VARYING) continue;
            int64_t s = result_stride(stride, nslots, u);
            if (s == UNSET) continue;
            if (stride[slot] == UNSET) stride[slot] = s;
            else if (stride[slot] != s) stride[slot] = EMU_JIT_STRIDE_VARYING;
            else continue;
            changed = true;
        }
    }
    for (uint32_t k = 0; k < nslots; k++)
        if (stride[k] == UNSET) stride[k] = EMU_JIT_STRIDE_VARYING;
}
