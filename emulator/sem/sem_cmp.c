/* sem_cmp.c: the comparison family's rules that are not inline in sem.h: a compare on a value of
 * any scalar type, as setp and set read their operands (the half formats through double, .ftz
 * flushing every float input). */
#include "emulator/sem/sem.h"
#include "frontend/ptx.h"

/* A float operand of type t as a double (exact for every format). */
static double float_value(uint8_t t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_TYPE_F32: return sem_float_in_f32(v, ftz);
    case PTX_TYPE_F64: return emu_as_f64(v);
    case PTX_TYPE_F16: return emu_f16_to_f64(ftz ? sem_half_ftz((uint16_t)v, false) : (uint16_t)v);
    case PTX_TYPE_BF16: return emu_bf16_to_f64(ftz ? sem_half_ftz((uint16_t)v, true) : (uint16_t)v);
    default: return 0;
    }
}

bool sem_cmp_value(int cmp, uint8_t t, bool ftz, uint64_t a, uint64_t b)
{
    uint8_t k = emu_type_kind[t];
    if (k == EMU_TK_F) return emu_cmp_float(cmp, float_value(t, a, ftz), float_value(t, b, ftz));
    return emu_cmp_int(cmp, a, b, k == EMU_TK_S, emu_type_bits[t]);
}

uint64_t sem_cmp_set_x2(int cmp, int boolop, uint8_t dtype, uint8_t stype, bool ftz, uint64_t a,
                        uint64_t b, bool c)
{
    uint8_t et = stype == PTX_TYPE_BF16X2 ? PTX_TYPE_BF16 : PTX_TYPE_F16;
    uint64_t one = dtype == PTX_TYPE_F16X2 ? 0x3c00u : dtype == PTX_TYPE_BF16X2 ? 0x3f80u : 0xffffu;
    uint64_t d = 0;
    for (unsigned h = 0; h < 2; h++) {
        bool t = sem_cmp_value(cmp, et, ftz, (a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff);
        if (sem_cmp_combine(boolop, t, c)) d |= one << (16 * h);
    }
    return d;
}
