/* exec_simd.c: the packed 16-bit integer forms add/sub/min/max .u16x2/.s16x2 (PTX ISA 8.0,
 * sm_90): operand plumbing around sem.h's SIMD16 rules, one handler per operation chosen at
 * load time. */
#include "emulator/emu_internal.h"

/* d = RULE(a[l], b[l]) for the active lanes; sg and relu are the form's signedness and .relu. */
#define SIMD16(name, RULE)                                                        \
    static void name(emu_ctx *c, const emu_uop *u)                                \
    {                                                                             \
        bool sg = u->type == PTX_TYPE_S16X2;                                      \
        bool relu = sg && (u->in->flags & PTX_F(RELU));                           \
        (void)relu;                                                               \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], d[EMU_WARP_SIZE];          \
        const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba);             \
        const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb);             \
        LANES(c) {                                                                \
            int l = L_;                                                           \
            d[l] = RULE;                                                          \
        }                                                                         \
        emu_put(c, &u->opd[0], PTX_TYPE_B32, d);                                  \
    }

SIMD16(x_add16x2, sem_simd_add16x2(a[l], b[l]))
SIMD16(x_sub16x2, sem_simd_sub16x2(a[l], b[l]))
SIMD16(x_min16x2, sem_simd_min16x2(a[l], b[l], sg, relu))
SIMD16(x_max16x2, sem_simd_max16x2(a[l], b[l], sg, relu))

emu_exec_fn emu_select_simd(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    if (in->ntypes != 1 || in->nops != 3)
        return NULL;
    if (in->types[0] != PTX_TYPE_U16X2 && in->types[0] != PTX_TYPE_S16X2)
        return NULL;
    switch (in->op) {
    case PTX_OP_ADD: return in->flags == 0 ? x_add16x2 : NULL;
    case PTX_OP_SUB: return in->flags == 0 ? x_sub16x2 : NULL;
    case PTX_OP_MIN: return (in->flags & ~PTX_F(RELU)) == 0 ? x_min16x2 : NULL;
    case PTX_OP_MAX: return (in->flags & ~PTX_F(RELU)) == 0 ? x_max16x2 : NULL;
    default: return NULL;
    }
}
