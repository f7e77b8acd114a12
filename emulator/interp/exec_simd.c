/* exec_simd.c: the packed 16-bit integer forms add/sub/min/max .u16x2/.s16x2 (PTX ISA 8.0,
 * sm_90): each half of the 32-bit register is an independent lane of the operation; add and
 * sub wrap, min/max compare signed or unsigned, and .relu (s16x2 only) clamps negatives to 0. */
#include "emulator/emu_internal.h"

static uint32_t half_op(uint16_t op, bool is_signed, bool relu, uint32_t a, uint32_t b)
{
    uint32_t d = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t x = (uint16_t)(a >> (16 * h)), y = (uint16_t)(b >> (16 * h));
        int32_t sx = (int16_t)x, sy = (int16_t)y;
        uint16_t r;
        switch (op) {
        case PTX_OP_ADD: r = (uint16_t)(x + y); break;
        case PTX_OP_SUB: r = (uint16_t)(x - y); break;
        case PTX_OP_MIN: r = is_signed ? (uint16_t)(sx < sy ? sx : sy) : (x < y ? x : y); break;
        default:         r = is_signed ? (uint16_t)(sx > sy ? sx : sy) : (x > y ? x : y); break;
        }
        if (relu && (int16_t)r < 0)
            r = 0;
        d |= (uint32_t)r << (16 * h);
    }
    return d;
}

static void x_simd16x2(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    bool is_signed = in->types[0] == PTX_TYPE_S16X2;
    bool relu = is_signed && (in->flags & PTX_F(RELU));
    LANES(c) {
        int l = L_;
        emu_write(c, &in->ops[0], l, half_op(in->op, is_signed, relu, (uint32_t)a[l],
                                              (uint32_t)b[l]), PTX_TYPE_B32);
    }
}

emu_exec_fn emu_select_simd(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    if (in->ntypes != 1 || in->nops != 3)
        return NULL;
    if (in->types[0] != PTX_TYPE_U16X2 && in->types[0] != PTX_TYPE_S16X2)
        return NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB:
        return in->flags == 0 ? x_simd16x2 : NULL;
    case PTX_OP_MIN: case PTX_OP_MAX:
        return (in->flags & ~PTX_F(RELU)) == 0 ? x_simd16x2 : NULL;
    default:
        return NULL;
    }
}
