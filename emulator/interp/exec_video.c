/* exec_video.c: the video instructions, scalar (vadd vsub vabsdiff vmin vmax vshl vshr vmad
 * vset) and SIMD (vadd2 ... vset2, vadd4 ... vset4). The handler reads the operands per lane and
 * leaves the arithmetic to sem_video.c, which a JIT calls the same way. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <string.h>

static bool is_set(uint16_t op)
{
    return op == PTX_OP_VSET || op == PTX_OP_VSET2 || op == PTX_OP_VSET4;
}

static bool is_video(uint16_t op)
{
    switch (op) {
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN:
    case PTX_OP_VMAX: case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VMAD: case PTX_OP_VSET:
    case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2:
    case PTX_OP_VMIN2: case PTX_OP_VMAX2: case PTX_OP_VSET2:
    case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4: case PTX_OP_VABSDIFF4:
    case PTX_OP_VMIN4: case PTX_OP_VMAX4: case PTX_OP_VSET4:
        return true;
    default:
        return false;
    }
}

static int64_t selector(const ptx_operand *o)
{
    return o->kind == PTX_OPD_REG ? o->imm : 0;
}

static bool negated(const ptx_operand *o)
{
    return o->kind == PTX_OPD_REG && o->neg;
}

/* The instruction's form; false when it is not one the ISA defines. */
static bool decode(const ptx_instr *in, emu_video *v)
{
    memset(v, 0, sizeof *v);
    v->op = in->op;
    unsigned ntypes = is_set(in->op) ? 2 : 3;
    if (in->ntypes != ntypes || in->nops < 3 || in->nops > 4)
        return false;
    for (unsigned i = 0; i < ntypes; i++)
        if (in->types[i] != PTX_TYPE_U32 && in->types[i] != PTX_TYPE_S32)
            return false;
    unsigned t = 0;
    if (!is_set(in->op))
        v->d_signed = in->types[t++] == PTX_TYPE_S32;
    v->a_signed = in->types[t++] == PTX_TYPE_S32;
    v->b_signed = in->types[t] == PTX_TYPE_S32;

    uint64_t allowed = PTX_F(SAT);
    if (in->op == PTX_OP_VSHL || in->op == PTX_OP_VSHR) {
        /* the shift amount is .u32, and exactly one of .clamp/.wrap is required */
        bool clamp = in->flags & PTX_F(CLAMP), wrap = in->flags & PTX_F(WRAP);
        if (v->b_signed || clamp == wrap)
            return false;
        v->clamp = clamp;
        allowed |= PTX_F(CLAMP) | PTX_F(WRAP);
    }
    if (is_set(in->op)) {
        allowed = 0;
        if (in->cmp < PTX_CMP_EQ || in->cmp > PTX_CMP_GE)
            return false;
        v->cmp = in->cmp;
    } else if (in->cmp) {
        return false;
    }
    if (in->flags & ~allowed)
        return false;
    v->sat = in->flags & PTX_F(SAT);
    v->op2 = in->aop;

    if (in->ops[0].kind != PTX_OPD_REG)
        return false;
    for (unsigned i = 1; i < in->nops; i++) {
        uint8_t k = in->ops[i].kind;
        if (k != PTX_OPD_REG && k != PTX_OPD_IMM)
            return false;
        if (negated(&in->ops[i]) && in->op != PTX_OP_VMAD)
            return false;
    }
    v->dsel = selector(&in->ops[0]);
    v->asel = selector(&in->ops[1]);
    v->bsel = selector(&in->ops[2]);
    v->has_c = in->nops == 4;
    if (v->has_c && selector(&in->ops[3]))
        return false;
    if (in->op == PTX_OP_VMAD) {
        v->po = ptx_instr_has(in, PTX_SFX_PO);
        bool shr7 = ptx_instr_has(in, PTX_SFX_SHR7), shr15 = ptx_instr_has(in, PTX_SFX_SHR15);
        if (shr7 && shr15)
            return false;
        v->shr = shr7 ? 7 : shr15 ? 15 : 0;
        v->neg_a = negated(&in->ops[1]);
        v->neg_b = negated(&in->ops[2]);
        v->neg_c = v->has_c && negated(&in->ops[3]);
    }
    return emu_video_valid(v);
}

static void x_video(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    emu_video v;
    decode(in, &v);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    if (v.has_c)
        emu_read_all(c, &in->ops[3], PTX_TYPE_B32, cc);
    else
        memset(cc, 0, sizeof cc);
    LANES(c) {
        int l = L_;
        uint32_t d = emu_video_exec(&v, (uint32_t)a[l], (uint32_t)b[l], (uint32_t)cc[l]);
        emu_write(c, &in->ops[0], l, d, PTX_TYPE_B32);
    }
}

emu_exec_fn emu_select_video(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    if (!is_video(in->op))
        return NULL;
    emu_video v;
    return decode(in, &v) ? x_video : NULL;
}
