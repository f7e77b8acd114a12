/* sem_atomic.c: the combine step of atom/red: the new value of a location from its old value
 * and the operands, for every operation and type (the read-modify-write around it is
 * emulator/policy/atomic_apply.c). */
#include "emulator/sem/sem.h"

#include <math.h>

uint64_t sem_atomic_combine(unsigned aop, uint8_t t, uint64_t old, uint64_t b, uint64_t c)
{
    unsigned bits = emu_type_bits[t];
    uint64_t m = emu_mask_bits(bits);
    bool sgn = emu_is_signed(t);
    switch (aop) {
    case PTX_SFX_EXCH: return b;
    case PTX_SFX_CAS: return (old & m) == (b & m) ? c : old;
    case PTX_SFX_AND: return old & b;
    case PTX_SFX_OR: return old | b;
    case PTX_SFX_XOR: return old ^ b;
    case PTX_SFX_INC: return (old & m) >= (b & m) ? 0 : (old + 1) & m;
    case PTX_SFX_DEC: return ((old & m) == 0 || (old & m) > (b & m)) ? b : (old - 1) & m;
    case PTX_SFX_ADD:
        switch (t) {
        case PTX_TYPE_F32: {
            float r = emu_ftz32(emu_ftz32(emu_as_f32(old)) + emu_ftz32(emu_as_f32(b)));
            return emu_f32_bits(r);
        }
        case PTX_TYPE_F64: return emu_f64_bits(emu_as_f64(old) + emu_as_f64(b));
        case PTX_TYPE_F16: return emu_half_op(PTX_OP_ADD, false, (uint16_t)old, (uint16_t)b, 0,
                                              PTX_RND_RN, false, false, false, false);
        case PTX_TYPE_BF16: return emu_half_op(PTX_OP_ADD, true, (uint16_t)old, (uint16_t)b, 0,
                                               PTX_RND_RN, false, false, false, false);
        case PTX_TYPE_F16X2:
        case PTX_TYPE_BF16X2: {
            bool bf = t == PTX_TYPE_BF16X2;
            uint16_t lo = emu_half_op(PTX_OP_ADD, bf, (uint16_t)old, (uint16_t)b, 0, PTX_RND_RN,
                                      false, false, false, false);
            uint16_t hi = emu_half_op(PTX_OP_ADD, bf, (uint16_t)(old >> 16), (uint16_t)(b >> 16),
                                      0, PTX_RND_RN, false, false, false, false);
            return (uint32_t)lo | ((uint32_t)hi << 16);
        }
        default: return (old + b) & m;
        }
    case PTX_SFX_MIN:
    case PTX_SFX_MAX: {
        bool mn = aop == PTX_SFX_MIN;
        switch (t) {
        case PTX_TYPE_F32: {
            float x = emu_as_f32(old), y = emu_as_f32(b);
            return emu_f32_bits(mn ? emu_min_f32(x, y, false) : emu_max_f32(x, y, false));
        }
        case PTX_TYPE_F64: {
            double x = emu_as_f64(old), y = emu_as_f64(b);
            return emu_f64_bits(mn ? emu_min_f64(x, y, false) : emu_max_f64(x, y, false));
        }
        case PTX_TYPE_F16: case PTX_TYPE_BF16:
            return emu_half_op(mn ? PTX_OP_MIN : PTX_OP_MAX, t == PTX_TYPE_BF16, (uint16_t)old,
                               (uint16_t)b, 0, PTX_RND_RN, false, false, false, false);
        default:
            if (sgn) {
                int64_t x = emu_sext(old, bits), y = emu_sext(b, bits);
                return (uint64_t)(mn ? (x < y ? x : y) : (x > y ? x : y)) & m;
            } else {
                uint64_t x = old & m, y = b & m;
                return mn ? (x < y ? x : y) : (x > y ? x : y);
            }
        }
    }
    default: return old;
    }
}
