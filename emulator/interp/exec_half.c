/* exec_half.c: f16, f16x2, bf16 and bf16x2 arithmetic (each half computed by emu_half_op). */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

static void x_half(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    bool bf = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
    bool x2 = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
    int nsrc = in->nops - 1;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    uint8_t rt = x2 ? PTX_TYPE_B32 : PTX_TYPE_B16;
    emu_read_all(c, &in->ops[1], rt, a);
    if (nsrc > 1) emu_read_all(c, &in->ops[2], rt, b);
    else for (int l = 0; l < EMU_WARP_SIZE; l++) b[l] = 0;
    if (nsrc > 2) emu_read_all(c, &in->ops[3], rt, cc);
    else for (int l = 0; l < EMU_WARP_SIZE; l++) cc[l] = 0;
    int op = in->op == PTX_OP_MAD ? PTX_OP_FMA : in->op;
    bool sub = op == PTX_OP_SUB;
    if (sub) op = PTX_OP_ADD;
    bool ftz = in->flags & PTX_F(FTZ), sat = in->flags & PTX_F(SAT);
    bool nan = in->flags & PTX_F(NANMODE), relu = in->flags & PTX_F(RELU);
    LANES(c) {
        int l = L_;
        uint64_t r = 0;
        for (int h = 0; h < (x2 ? 2 : 1); h++) {
            uint16_t x = (uint16_t)(a[l] >> (16 * h)), y = (uint16_t)(b[l] >> (16 * h)),
                     z = (uint16_t)(cc[l] >> (16 * h));
            if (sub) y ^= 0x8000;
            uint16_t v = emu_half_op(op, bf, x, y, z, in->rnd, ftz, sat, nan, relu);
            r |= (uint64_t)v << (16 * h);
        }
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], rt, d);
}

emu_exec_fn emu_select_half(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    if (t != PTX_TYPE_F16 && t != PTX_TYPE_F16X2 && t != PTX_TYPE_BF16 && t != PTX_TYPE_BF16X2)
        return NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MIN: case PTX_OP_MAX:
        return in->nops == 3 ? x_half : NULL;
    case PTX_OP_FMA: case PTX_OP_MAD: return in->nops == 4 ? x_half : NULL;
    case PTX_OP_NEG: case PTX_OP_ABS: return in->nops == 2 ? x_half : NULL;
    default: return NULL;
    }
}
