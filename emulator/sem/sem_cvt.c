/* sem_cvt.c: cvt between integer and floating-point types, with PTX rounding modes,
 * saturation and flush-to-zero. Values travel as bits of their type. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>

static double round_integral(double x, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return rint(x);
    case PTX_RND_RMI: return floor(x);
    case PTX_RND_RPI: return ceil(x);
    case PTX_RND_RZI: return trunc(x);
    default: return x;
    }
}

uint64_t emu_float_to_int(double x, unsigned bits, bool is_signed, int rnd)
{
    if (isnan(x)) return 0;
    if (rnd == PTX_RND_NONE || rnd == PTX_RND_RZ) rnd = PTX_RND_RZI;
    if (rnd == PTX_RND_RN) rnd = PTX_RND_RNI;
    if (rnd == PTX_RND_RM) rnd = PTX_RND_RMI;
    if (rnd == PTX_RND_RP) rnd = PTX_RND_RPI;
    x = round_integral(x, rnd);
    if (is_signed) {
        double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
        int64_t v;
        if (x < lo) v = bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
        else if (x >= hi) v = bits >= 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
        else v = (int64_t)x;
        return (uint64_t)v & emu_mask_bits(bits);
    }
    double hi = ldexp(1.0, (int)bits);
    if (x <= 0) return 0;
    if (x >= hi) return emu_mask_bits(bits);
    return (uint64_t)x;
}

static bool is_int_type(uint8_t t)
{
    uint8_t k = emu_type_kind[t];
    return k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B || k == EMU_TK_P;
}

/* Source bits of a float type as a double (exact for every format). */
static double float_value(uint8_t t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_TYPE_F32: {
        float f = emu_as_f32(v);
        if (ftz) f = emu_ftz32(f);
        return f;
    }
    case PTX_TYPE_F64: return emu_as_f64(v);
    case PTX_TYPE_F16: return emu_f16_to_f64((uint16_t)v);
    case PTX_TYPE_BF16: return emu_bf16_to_f64((uint16_t)v);
    case PTX_TYPE_TF32: return emu_as_f32(v & ~UINT64_C(0x1fff));
    case PTX_TYPE_E4M3: return emu_e4m3_to_f32((uint8_t)v);
    case PTX_TYPE_E5M2: return emu_e5m2_to_f32((uint8_t)v);
    default: return NAN;
    }
}

/* Rounds an exact long double to the float type dt with mode rnd. */
static uint64_t to_float_bits(uint8_t dt, long double x, int rnd, bool ftz, bool sat, bool satf)
{
    if (sat) {
        if (isnan(x)) x = 0;
        else if (x <= 0) x = 0;
        else if (x > 1) x = 1;
    }
    if (rnd == PTX_RND_NONE) rnd = PTX_RND_RN;
    switch (dt) {
    case PTX_TYPE_F64: {
        int saved = emu_round_enter(rnd);
        volatile long double vx = x;
        volatile double r = (double)vx;
        emu_round_leave(saved);
        return emu_f64_bits(r);
    }
    case PTX_TYPE_F32: {
        int saved = emu_round_enter(rnd);
        volatile long double vx = x;
        volatile float r = (float)vx;
        emu_round_leave(saved);
        float f = r;
        if (ftz) f = emu_ftz32(f);
        if (isnan(f)) return 0x7fffffffu;
        return emu_f32_bits(f);
    }
    case PTX_TYPE_F16: return emu_round_to_format((double)x, 5, 10, rnd, satf);
    case PTX_TYPE_BF16: return emu_round_to_format((double)x, 8, 7, rnd, satf);
    case PTX_TYPE_TF32: {
        if (isnan(x)) return 0x7fffffffu;
        uint32_t b = emu_round_to_format((double)x, 8, 10, rnd == PTX_RND_RN ? PTX_RND_RNA : rnd,
                                         satf);
        return (uint64_t)b << 13;
    }
    case PTX_TYPE_E4M3: return emu_f32_to_e4m3((float)x, true);
    case PTX_TYPE_E5M2: return emu_f32_to_e5m2((float)x, true);
    default: return 0;
    }
}

uint64_t emu_cvt(uint8_t dt, uint8_t st, int rnd, bool ftz, bool sat, bool satf, uint64_t v)
{
    unsigned sbits = emu_type_bits[st], dbits = emu_type_bits[dt];
    bool sint = is_int_type(st), dint = is_int_type(dt);
    if (sint && dint) {
        bool ss = emu_is_signed(st), ds = emu_is_signed(dt);
        if (!sat) return (ss ? (uint64_t)emu_sext(v, sbits) : (v & emu_mask_bits(sbits))) &
                         emu_mask_bits(dbits);
        if (ss) {
            int64_t x = emu_sext(v, sbits);
            int64_t lo = ds ? (dbits >= 64 ? INT64_MIN : -(INT64_C(1) << (dbits - 1))) : 0;
            if (x < lo) x = lo;
            if (ds) {
                int64_t hi = dbits >= 64 ? INT64_MAX : (INT64_C(1) << (dbits - 1)) - 1;
                if (x > hi) x = hi;
            } else if (dbits < 64 && (uint64_t)x > emu_mask_bits(dbits)) {
                x = (int64_t)emu_mask_bits(dbits);
            }
            return (uint64_t)x & emu_mask_bits(dbits);
        }
        uint64_t x = v & emu_mask_bits(sbits);
        uint64_t hi = ds ? emu_mask_bits(dbits - 1) : emu_mask_bits(dbits);
        return x > hi ? hi : x;
    }
    if (sint) {
        long double x = emu_is_signed(st) ? (long double)emu_sext(v, sbits)
                                          : (long double)(v & emu_mask_bits(sbits));
        return to_float_bits(dt, x, rnd, ftz, sat, satf);
    }
    double x = float_value(st, v, ftz);
    if (dint) return emu_float_to_int(x, dbits, emu_is_signed(dt), rnd);
    /* float to float */
    if (rnd == PTX_RND_RNI || rnd == PTX_RND_RZI || rnd == PTX_RND_RMI || rnd == PTX_RND_RPI) {
        if (!isnan(x)) x = round_integral(x, rnd);
        rnd = PTX_RND_RN;
    }
    if (dt == PTX_TYPE_F32 && st == PTX_TYPE_F32 && !sat) {
        float f = (float)x;
        if (ftz) f = emu_ftz32(f);
        if (isnan(f)) return 0x7fffffffu;
        return emu_f32_bits(f);
    }
    if (dt == PTX_TYPE_F64 && st != PTX_TYPE_F64) {
        /* widening is exact; NaN keeps its payload as the hardware does for f32 -> f64 */
        if (sat) x = emu_sat_f64(x);
        return emu_f64_bits(x);
    }
    return to_float_bits(dt, x, rnd, ftz, sat, satf);
}
