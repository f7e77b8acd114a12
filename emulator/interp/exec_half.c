/* exec_half.c: f16, f16x2, bf16 and bf16x2 arithmetic: operand plumbing around sem.h's half
 * rules, one handler per operation and width chosen when the module loads, each pair computed
 * as two halves. The modifiers are decoded once into the µop's form. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

typedef struct half_form {
    int rnd;                  /* ptx_round */
    bool bf, ftz, sat, nan_mode, relu;
} half_form;

/* d = ELEM(x, y, z) on each half of each lane (x, y, z: the halves of a, b, c) */
#define HALF_OP(name, X2, NSRC, ELEM)                                                      \
    static void name(emu_ctx *c, const emu_uop *u)                                         \
    {                                                                                      \
        const half_form *f = u->form;                                                      \
        const uint8_t rt = (X2) ? PTX_TYPE_B32 : PTX_TYPE_B16;                             \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE];                  \
        const uint64_t *a = emu_src(c, &u->opd[1], rt, ba);                                \
        const uint64_t *b = (NSRC) > 1 ? emu_src(c, &u->opd[2], rt, bb) : a;               \
        const uint64_t *cc = (NSRC) > 2 ? emu_src(c, &u->opd[3], rt, bc) : a;              \
        (void)f, (void)b, (void)cc;                                                        \
        if (X2)                                                                            \
            EMU_LANEWISE(c, &u->opd[0], rt,                                                \
                         (uint64_t)ELEM((uint16_t)a[l], (uint16_t)b[l], (uint16_t)cc[l]) | \
                             (uint64_t)ELEM((uint16_t)(a[l] >> 16), (uint16_t)(b[l] >> 16),  \
                                            (uint16_t)(cc[l] >> 16)) << 16);               \
        else                                                                               \
            EMU_LANEWISE(c, &u->opd[0], rt,                                                \
                         ELEM((uint16_t)a[l], (uint16_t)b[l], (uint16_t)cc[l]));          \
    }

#define E_ADD(x, y, z) sem_half_add(f->bf, x, y, f->rnd, f->ftz, f->sat, f->relu)
#define E_SUB(x, y, z) sem_half_sub(f->bf, x, y, f->rnd, f->ftz, f->sat, f->relu)
#define E_MUL(x, y, z) sem_half_mul(f->bf, x, y, f->rnd, f->ftz, f->sat, f->relu)
#define E_FMA(x, y, z) sem_half_fma(f->bf, x, y, z, f->rnd, f->ftz, f->sat, f->relu)
#define E_MIN(x, y, z) sem_half_min(f->bf, x, y, f->ftz, f->nan_mode, f->relu)
#define E_MAX(x, y, z) sem_half_max(f->bf, x, y, f->ftz, f->nan_mode, f->relu)
#define E_NEG(x, y, z) sem_half_neg(x)
#define E_ABS(x, y, z) sem_half_abs(x)

#define HALF_PAIR(op, NSRC, ELEM)                                                          \
    HALF_OP(x_##op, false, NSRC, ELEM)                                                     \
    HALF_OP(x_##op##_x2, true, NSRC, ELEM)

HALF_PAIR(add, 2, E_ADD)
HALF_PAIR(sub, 2, E_SUB)
HALF_PAIR(mul, 2, E_MUL)
HALF_PAIR(fma, 3, E_FMA)
HALF_PAIR(min, 2, E_MIN)
HALF_PAIR(max, 2, E_MAX)
HALF_PAIR(neg, 1, E_NEG)
HALF_PAIR(abs, 1, E_ABS)

emu_exec_fn emu_select_half(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    if (t != PTX_TYPE_F16 && t != PTX_TYPE_F16X2 && t != PTX_TYPE_BF16 && t != PTX_TYPE_BF16X2)
        return NULL;
    bool x2 = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
    emu_exec_fn h;
    int nops;
    switch (in->op) {
    case PTX_OP_ADD: h = x2 ? x_add_x2 : x_add; nops = 3; break;
    case PTX_OP_SUB: h = x2 ? x_sub_x2 : x_sub; nops = 3; break;
    case PTX_OP_MUL: h = x2 ? x_mul_x2 : x_mul; nops = 3; break;
    case PTX_OP_MIN: h = x2 ? x_min_x2 : x_min; nops = 3; break;
    case PTX_OP_MAX: h = x2 ? x_max_x2 : x_max; nops = 3; break;
    case PTX_OP_FMA: case PTX_OP_MAD: h = x2 ? x_fma_x2 : x_fma; nops = 4; break;
    case PTX_OP_NEG: h = x2 ? x_neg_x2 : x_neg; nops = 2; break;
    case PTX_OP_ABS: h = x2 ? x_abs_x2 : x_abs; nops = 2; break;
    default: return NULL;
    }
    if (in->nops != nops) return NULL;
    half_form *f = emu_code_alloc(code, sizeof *f);
    if (!f) return NULL;
    f->rnd = in->rnd;
    f->bf = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
    f->ftz = in->flags & PTX_F(FTZ);
    f->sat = in->flags & PTX_F(SAT);
    f->nan_mode = in->flags & PTX_F(NANMODE);
    f->relu = in->flags & PTX_F(RELU);
    u->form = f;
    return h;
}
