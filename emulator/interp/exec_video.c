/* exec_video.c: the video instructions, scalar (vadd vsub vabsdiff vmin vmax vshl vshr vmad
 * vset) and SIMD (vadd2 ... vset2, vadd4 ... vset4). The selector decodes the form (types,
 * selectors, secondary operation, vmad's negations) once into the µop; the handler reads the
 * operands and leaves the arithmetic to sem_video.c, which a JIT calls the same way. */
#include "emulator/emu_internal.h"

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
    const emu_video *v = u->form;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb);
    const uint64_t *cv = bc;
    if (v->has_c)
        cv = emu_src(c, &u->opd[3], PTX_TYPE_B32, bc);
    else
        memset(bc, 0, sizeof bc);
    LANES(c) {
        int l = L_;
        d[l] = emu_video_exec(v, (uint32_t)a[l], (uint32_t)b[l], (uint32_t)cv[l]);
    }
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
}

emu_exec_fn emu_select_video(emu_code *code, emu_uop *u)
{
    if (!is_video(u->in->op))
        return NULL;
    emu_video v;
    if (!decode(u->in, &v))
        return NULL;
    emu_video *form = emu_code_alloc(code, sizeof *form);
    if (!form)
        return NULL;
    *form = v;
    u->form = form;
    return x_video;
}
