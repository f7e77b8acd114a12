/* sem_cvt.c: cvt between integer and floating-point types with PTX rounding modes, saturation
 * and flush-to-zero; the packed pair forms; cvt.pack.sat on integers. Values travel as bits of
 * their type. The commonest pairs are inline in sem.h, and emu_cvt uses them too. */
#include "emulator/sem/sem.h"
#include "frontend/ptx.h"

#include <math.h>

static bool is_int_type(uint8_t t)
{
    uint8_t k = emu_type_kind[t];
    return k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B || k == EMU_TK_P;
}

static bool integral_rounding(int rnd)
{
    return rnd == PTX_RND_RNI || rnd == PTX_RND_RZI || rnd == PTX_RND_RMI || rnd == PTX_RND_RPI;
}

/* Source bits of a float type as a double (exact for every format). */
static double float_value(uint8_t t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_TYPE_F32: return sem_float_in_f32(v, ftz);
    case PTX_TYPE_F64: return emu_as_f64(v);
    case PTX_TYPE_F16: return emu_f16_to_f64((uint16_t)v);
    case PTX_TYPE_BF16: return emu_bf16_to_f64((uint16_t)v);
    case PTX_TYPE_TF32: return emu_as_f32(v & ~UINT64_C(0x1fff));
    case PTX_TYPE_E4M3: return emu_e4m3_to_f32((uint8_t)v);
    case PTX_TYPE_E5M2: return emu_e5m2_to_f32((uint8_t)v);
    default: return NAN;
    }
}

/* Rounds an exact long double to the float type dt: f32 and f64 in the host rounding mode (the
 * caller's, see sem_cvt_host_round), the narrow formats in software with rnd. */
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
        volatile long double vx = x;
        volatile double r = (double)vx;
        return emu_f64_bits(r);
    }
    case PTX_TYPE_F32: {
        volatile long double vx = x;
        volatile float r = (float)vx;
        return sem_float_out_f32(r, ftz, false);
    }
    case PTX_TYPE_F16: return emu_round_to_format((double)x, 5, 10, rnd, satf);
    case PTX_TYPE_BF16: return emu_round_to_format((double)x, 8, 7, rnd, satf);
    case PTX_TYPE_TF32: {
        /* written cvt.rna (ties away), cvt.rn (ties to even) or cvt.rz: the checker refuses
         * it without one */
        if (isnan(x)) return 0x7fffffffu;
        uint32_t b = emu_round_to_format((double)x, 8, 10, rnd, satf);
        return (uint64_t)b << 13;
    }
    case PTX_TYPE_E4M3: return emu_f32_to_e4m3((float)x, true);
    case PTX_TYPE_E5M2: return emu_f32_to_e5m2((float)x, true);
    default: return 0;
    }
}

int sem_cvt_host_round(uint8_t dt, uint8_t st, int rnd)
{
    if (dt != PTX_TYPE_F32 && dt != PTX_TYPE_F64) return PTX_RND_NONE;
    /* float to integral float: the integer rounding is done in software, the conversion to the
     * destination after it to nearest */
    if (!is_int_type(st) && integral_rounding(rnd)) return PTX_RND_NONE;
    return rnd;
}

uint64_t emu_cvt(uint8_t dt, uint8_t st, int rnd, bool ftz, bool sat, bool satf, uint64_t v)
{
    unsigned sbits = emu_type_bits[st], dbits = emu_type_bits[dt];
    bool sint = is_int_type(st), dint = is_int_type(dt);
    if (sint && dint) {
        bool ss = emu_is_signed(st), ds = emu_is_signed(dt);
        if (!sat) return sem_cvt_int_resize(v, sbits, ss, dbits);
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
    if (integral_rounding(rnd)) {
        if (!isnan(x)) x = sem_cvt_round_integral(x, rnd);
        rnd = PTX_RND_RN;
    }
    if (dt == PTX_TYPE_F32 && st == PTX_TYPE_F32 && !sat)
        return sem_float_out_f32((float)x, ftz, false);
    if (dt == PTX_TYPE_F64 && st != PTX_TYPE_F64) {
        /* widening is exact; NaN keeps its payload as the hardware does for f32 -> f64 */
        if (sat) x = emu_sat_f64(x);
        return emu_f64_bits(x);
    }
    return to_float_bits(dt, x, rnd, ftz, sat, satf);
}

/* One element of a packed result: f narrowed to the element type of the pair type dt. */
static uint64_t pack_element(uint8_t dt, float f, int rnd, bool relu, bool satf)
{
    if (relu && !isnan(f) && f < 0) f = 0;
    switch (dt) {
    case PTX_TYPE_F16X2: return emu_round_to_format(f, 5, 10, rnd, satf);
    case PTX_TYPE_BF16X2: return emu_round_to_format(f, 8, 7, rnd, satf);
    case PTX_TYPE_E4M3X2: return emu_f32_to_e4m3(f, true);
    case PTX_TYPE_E5M2X2: return emu_f32_to_e5m2(f, true);
    default: return 0;
    }
}

static unsigned element_bits(uint8_t dt)
{
    return dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2 ? 8 : 16;
}

uint64_t sem_cvt_pack_pair(uint8_t dt, uint8_t st, uint64_t a, uint64_t b, int rnd, bool relu,
                           bool satf)
{
    uint64_t src[2] = { b, a }, r = 0;
    for (int h = 0; h < 2; h++) {
        float f = st == PTX_TYPE_F32 ? emu_as_f32(src[h]) : (float)emu_f16_to_f64((uint16_t)src[h]);
        r |= pack_element(dt, f, rnd, relu, satf) << (h * element_bits(dt));
    }
    return r;
}

/* f16 widens to f32 exactly, so the one rounding is the fp8 one. */
uint64_t sem_cvt_f16x2_to_f8x2(uint8_t dt, uint64_t a, int rnd, bool relu, bool satf)
{
    uint64_t r = 0;
    for (int h = 0; h < 2; h++)
        r |= pack_element(dt, (float)emu_f16_to_f64((uint16_t)(a >> (16 * h))), rnd, relu, satf)
             << (8 * h);
    return r;
}

uint64_t sem_cvt_f8x2_to_f16x2(uint8_t st, uint64_t a)
{
    uint64_t r = 0;
    for (int h = 0; h < 2; h++) {
        uint8_t v = (uint8_t)(a >> (8 * h));
        float f = st == PTX_TYPE_E4M3X2 ? emu_e4m3_to_f32(v) : emu_e5m2_to_f32(v);
        r |= (uint64_t)emu_round_to_format(f, 5, 10, PTX_RND_RN, false) << (16 * h);
    }
    return r;
}

uint64_t sem_cvt_pack_sat_int(uint8_t dt, uint64_t a, uint64_t b, uint64_t c, bool has_c)
{
    unsigned size = emu_type_bits[dt];
    bool is_signed = emu_is_signed(dt);
    int64_t lo = is_signed ? -(INT64_C(1) << (size - 1)) : 0;
    int64_t hi = is_signed ? (INT64_C(1) << (size - 1)) - 1 : (INT64_C(1) << size) - 1;
    uint64_t mask = (UINT64_C(1) << size) - 1;
    int64_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
    x = x < lo ? lo : x > hi ? hi : x;
    y = y < lo ? lo : y > hi ? hi : y;
    uint64_t r = (((uint64_t)x & mask) << size) | ((uint64_t)y & mask);
    if (has_c) r |= c << (2 * size);
    return r & 0xffffffffu;
}
