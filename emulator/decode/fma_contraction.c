/* fma_contraction.c: which mul + add/sub pairs execute as one fused multiply-add, as the GPU
 * runs them.
 *
 * The PTX ISA lets the code generator fuse a mul and an add/sub that carry no rounding
 * modifier ("mul/add without .rn may be optimised aggressively"), and ptxas does so by default
 * (--fmad=true): the product is not rounded before the addition. nvcc marks the operations it
 * must keep apart with .rn (its own -fmad=false does exactly that), so PTX without the modifier
 * is what ptxas contracts. The rule implemented here is the pattern ptxas contracts: an f32 or
 * f64 mul whose product has exactly one use, an add or sub of the same type in the same basic
 * block, both without a rounding modifier, with the same .ftz and no .sat on the mul. The add
 * then computes fma(a, b, c) (sub: fma(a, b, -c), or fma(-a, b, c) when the product is
 * subtracted); the mul still executes, so instruction counts do not change. Decode refuses the
 * pair when either source of the mul is written between the two, when the guards differ, or
 * when the product register is written anywhere else. `--fmad=false` turns it off, to match
 * binaries whose PTX was assembled with `ptxas --fmad=false`. */
#include "emulator/decode/decode_internal.h"

#include <stdlib.h>
#include <string.h>

static bool plain_float_op(const ptx_instr *in, uint16_t op)
{
    if (in->op != op || in->nops != 3 || in->rnd != PTX_RND_NONE || in->ntypes != 1) return false;
    if (in->types[0] != PTX_TYPE_F32 && in->types[0] != PTX_TYPE_F64) return false;
    /* anything beyond ftz/sat (approx forms, say) keeps its own meaning */
    return (in->flags & ~(PTX_F(FTZ) | PTX_F(SAT))) == 0;
}

typedef struct writes_ctx { int32_t a, b, g; bool hit; } writes_ctx;

static void check_write(void *p, int32_t reg, ptx_role role)
{
    writes_ctx *w = p;
    if (role != PTX_ROLE_DEF && role != PTX_ROLE_USEDEF) return;
    if (reg == w->a || reg == w->b || reg == w->g) w->hit = true;
}

/* Whether instructions (from, to) leave the mul's sources and the guard unwritten. */
static bool sources_unchanged(const ptx_function *fn, uint32_t from, uint32_t to,
                              const ptx_instr *mul)
{
    writes_ctx w = { -1, -1, mul->guard, false };
    if (mul->ops[1].kind == PTX_OPD_REG) w.a = mul->ops[1].reg;
    if (mul->ops[2].kind == PTX_OPD_REG) w.b = mul->ops[2].reg;
    /* the mul itself may overwrite a source (mul %f1, %f1, %f2): the fma would read the new
     * value */
    ptx_instr_regs(fn, mul, check_write, &w);
    for (uint32_t i = from + 1; i < to && !w.hit; i++) ptx_instr_regs(fn, &fn->instrs[i], check_write, &w);
    return !w.hit;
}

bool emu_fma_pairs(const ptx_function *fn,
                   bool (*pair)(void *ctx, uint32_t mul, uint32_t add, int side), void *ctx)
{
    if (!fn->nregs) return true;
    uint32_t *defs = malloc(fn->nregs * sizeof *defs), *uses = malloc(fn->nregs * sizeof *uses);
    int32_t *def_at = malloc(fn->nregs * sizeof *def_at);
    if (!defs || !uses || !def_at) {
        free(defs);
        free(uses);
        free(def_at);
        return false;
    }
    ptx_reg_counts(fn, defs, uses);
    for (uint32_t r = 0; r < fn->nregs; r++) def_at[r] = -1;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        if (plain_float_op(in, PTX_OP_MUL) && !(in->flags & PTX_F(SAT)) &&
            in->ops[0].kind == PTX_OPD_REG)
            def_at[in->ops[0].reg] = (int32_t)i;
    }
    bool ok = true;
    for (uint32_t i = 0; i < fn->ninstrs && ok; i++) {
        const ptx_instr *add = &fn->instrs[i];
        if (!plain_float_op(add, PTX_OP_ADD) && !plain_float_op(add, PTX_OP_SUB)) continue;
        for (int side = 1; side <= 2; side++) {
            const ptx_operand *p = &add->ops[side];
            if (p->kind != PTX_OPD_REG || p->reg < 0) continue;
            int32_t mi = def_at[p->reg];
            if (mi < 0 || (uint32_t)mi >= i) continue;
            const ptx_instr *mul = &fn->instrs[mi];
            if (defs[p->reg] != 1 || uses[p->reg] != 1) continue;
            if (mul->types[0] != add->types[0] || mul->block != add->block) continue;
            if ((mul->flags & PTX_F(FTZ)) != (add->flags & PTX_F(FTZ))) continue;
            if (mul->guard != add->guard || mul->guard_neg != add->guard_neg) continue;
            if (add->ops[0].kind == PTX_OPD_REG && add->ops[0].reg == p->reg) continue;
            if (!sources_unchanged(fn, (uint32_t)mi, i, mul)) continue;
            ok = pair(ctx, (uint32_t)mi, i, side);
            break;
        }
    }
    free(defs);
    free(uses);
    free(def_at);
    return ok;
}

static bool contract(void *ctx, uint32_t mi, uint32_t i, int side)
{
    emu_code *code = ctx;
    emu_fma_contraction *fc = emu_code_alloc(code, sizeof *fc);
    if (!fc) return false;
    const ptx_instr *add = &code->fn->instrs[i];
    emu_uop *u = &code->uops[i];
    const emu_uop *mu = &code->uops[mi];
    fc->mul = mi;
    fc->a = mu->opd[1];
    fc->b = mu->opd[2];
    fc->c = u->opd[side == 1 ? 2 : 1];
    fc->neg_addend = add->op == PTX_OP_SUB && side == 1;
    fc->neg_product = add->op == PTX_OP_SUB && side == 2;
    u->form = fc;
    u->flags |= EMU_UOP_CONTRACTED;
    return true;
}

bool emu_contract_fma(emu_code *code)
{
    return emu_fma_pairs(code->fn, contract, code);
}
