/* test_conformance_cvt.c: PTX cvt against the PTX ISA (section 9.7.9.21).
 *
 * Integer <-> integer (sign/zero extension, truncation, .sat, and the ISA's rule that a
 * destination register wider than the type receives the sign- or zero-extended result);
 * float -> integer with .rni/.rzi/.rmi/.rpi, saturation at the type limits ("float-to-int
 * saturates by default") and NaN -> 0; integer -> float in every rounding mode; float <-> float
 * (.rn/.rz/.rm/.rp to f32 from f64, to f16 and bf16 with ties-to-even, exact widening, .ftz,
 * .sat, integer rounding to a float); the packing conversions cvt.rn.f16x2.f32 and
 * cvt.rn.bf16x2.f32 (a in the upper half), cvt.rna/.rn/.rz.tf32.f32, and the fp8 packs
 * cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 and back to f16x2.
 *
 * Expected values: host conversions under fesetround for f32/f64 targets, and an exact
 * rounding routine (conformance_harness.c, conf_mf_encode) for f16, bf16, e4m3 and e5m2.
 */
#include "tests/unit/conformance_harness.h"

#include <fenv.h>
#include <math.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;

#define F(x) conf_f32(x)
#define D(x) conf_f64(x)

/* ---------------------------------------------------------------- integer <-> integer */

/* Converts v (already read as the source type) to a `bits`-wide destination type, with
 * optional saturation, and extends it to the register as the ISA says (sign for signed
 * destinations, zero otherwise). */
static uint64_t i2i(__int128 v, unsigned bits, bool dsigned, bool sat)
{
    __int128 lo = dsigned ? -((__int128)1 << (bits - 1)) : 0;
    __int128 hi = dsigned ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    if (sat) v = v < lo ? lo : v > hi ? hi : v;
    uint64_t t = (uint64_t)v & (bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1);
    return dsigned ? (uint64_t)conf_sext(t, bits) : t;
}

#define I2I(fname, srcbits, ssigned, dbits, dsigned, sat)                                          \
    static void fname(IN in, OUT out)                                                              \
    {                                                                                              \
        __int128 v = ssigned ? (__int128)conf_sext(in[0], srcbits)                                \
                             : (__int128)(in[0] & (srcbits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << srcbits) - 1)); \
        out[0] = i2i(v, dbits, dsigned, sat);                                                      \
    }
I2I(r_s32_s8, 8, true, 32, true, false)
I2I(r_u32_u8, 8, false, 32, false, false)
I2I(r_s32_s16, 16, true, 32, true, false)
I2I(r_s64_s32, 32, true, 64, true, false)
I2I(r_u64_u32, 32, false, 64, false, false)
I2I(r_u64_s32, 32, true, 64, false, false)
I2I(r_s64_u32, 32, false, 64, true, false)
I2I(r_u16_u32, 32, false, 16, false, false)
I2I(r_s8_s32, 32, true, 8, true, false)
I2I(r_u8_u32, 32, false, 8, false, false)
I2I(r_u32_u64, 64, false, 32, false, false)
I2I(r_sat_u8_s32, 32, true, 8, false, true)
I2I(r_sat_s8_s32, 32, true, 8, true, true)
I2I(r_sat_u32_s32, 32, true, 32, false, true)
I2I(r_sat_s32_u32, 32, false, 32, true, true)
I2I(r_sat_s32_s64, 64, true, 32, true, true)
I2I(r_sat_u16_s64, 64, true, 16, false, true)
I2I(r_sat_s16_u64, 64, false, 16, true, true)

#define CVT(var, text, itype, otype, fn) \
    static const conf_op var = { text, text " %out0, %in0;", { itype }, { otype }, { { 0 } }, fn, NULL, NULL }
CVT(op_s32_s8, "cvt.s32.s8", "s32", "s32", r_s32_s8);
CVT(op_u32_u8, "cvt.u32.u8", "u32", "u32", r_u32_u8);
CVT(op_s32_s16, "cvt.s32.s16", "s16", "s32", r_s32_s16);
CVT(op_s64_s32, "cvt.s64.s32", "s32", "s64", r_s64_s32);
CVT(op_u64_u32, "cvt.u64.u32", "u32", "u64", r_u64_u32);
CVT(op_u64_s32, "cvt.u64.s32", "s32", "u64", r_u64_s32);
CVT(op_s64_u32, "cvt.s64.u32", "u32", "s64", r_s64_u32);
CVT(op_u16_u32, "cvt.u16.u32", "u32", "u16", r_u16_u32);
CVT(op_u32_u64, "cvt.u32.u64", "u64", "u32", r_u32_u64);
CVT(op_sat_u8_s32, "cvt.sat.u8.s32", "s32", "u32", r_sat_u8_s32);
CVT(op_sat_s8_s32, "cvt.sat.s8.s32", "s32", "s32", r_sat_s8_s32);
CVT(op_sat_u32_s32, "cvt.sat.u32.s32", "s32", "u32", r_sat_u32_s32);
CVT(op_sat_s32_u32, "cvt.sat.s32.u32", "u32", "s32", r_sat_s32_u32);
CVT(op_sat_s32_s64, "cvt.sat.s32.s64", "s64", "s32", r_sat_s32_s64);
CVT(op_sat_u16_s64, "cvt.sat.u16.s64", "s64", "u16", r_sat_u16_s64);
CVT(op_sat_s16_u64, "cvt.sat.s16.u64", "u64", "s16", r_sat_s16_u64);

/* Destinations narrower than their register: the ISA extends the result to the register. */
static const conf_op op_s8_s32b = { "cvt.s8.s32 into a 32-bit register (sign-extended)", "cvt.s8.s32 %out0, %in0;", { "s32" }, { "s32" }, { { 0 } }, r_s8_s32, NULL, NULL };
static const conf_op op_u8_u32b = { "cvt.u8.u32 into a 32-bit register (zero-extended)", "cvt.u8.u32 %out0, %in0;", { "u32" }, { "u32" }, { { 0 } }, r_u8_u32, NULL, NULL };

static const conf_case c_i32[] = {
    I1(0), I1(1), I1(0x7f), I1(0x80), I1(0xff), I1(0x17f), I1(0x7fff), I1(0x8000), I1(0xffff), I1(0x12345678),
    I1(0x80000000), I1(0xffffffff), I1(-200), I1(300),
};
static const conf_case c_i64[] = {
    I1(0), I1(0x7fffffff), I1(0x80000000), I1(0xffffffff), I1(0x100000000ull), I1(-1), I1(0x8000000000000000ull),
    I1(0x7fffffffffffffffull), I1(-70000), I1(70000), I1(0x123456789abcdef0ull),
};
static const conf_case c_sext_isa[] = { E1(0x80, 0xffffff80), E1(0x17f, 0x7f), E1(0xffffff00, 0) };

/* ---------------------------------------------------------------- float -> integer */

enum { RNI, RZI, RMI, RPI };
static double round_int(double v, int mode)
{
    switch (mode) {
    case RZI: return trunc(v);
    case RMI: return floor(v);
    case RPI: return ceil(v);
    default: return nearbyint(v);   /* ties to even in the default environment */
    }
}
/* Rounds, saturates to the destination range, NaN -> 0, then extends to the register. */
static uint64_t f2i(double v, int mode, unsigned bits, bool dsigned)
{
    if (isnan(v)) return 0;
    double r = round_int(v, mode);
    double lo = dsigned ? -ldexp(1.0, (int)bits - 1) : 0.0;
    double hi = dsigned ? ldexp(1.0, (int)bits - 1) : ldexp(1.0, (int)bits);   /* exclusive */
    __int128 i;
    if (r < lo) i = dsigned ? -((__int128)1 << (bits - 1)) : 0;
    else if (r >= hi) i = dsigned ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    else i = (__int128)r;
    return i2i(i, bits, dsigned, false);
}
#define F2I(fname, isdouble, mode, bits, dsigned) \
    static void fname(IN in, OUT out) { out[0] = f2i(isdouble ? D(in[0]) : (double)F(in[0]), mode, bits, dsigned); }
F2I(r_rni_s32_f32, false, RNI, 32, true)
F2I(r_rzi_s32_f32, false, RZI, 32, true)
F2I(r_rmi_s32_f32, false, RMI, 32, true)
F2I(r_rpi_s32_f32, false, RPI, 32, true)
F2I(r_rzi_u32_f32, false, RZI, 32, false)
F2I(r_rni_u32_f32, false, RNI, 32, false)
F2I(r_rzi_s16_f32, false, RZI, 16, true)
F2I(r_rni_u8_f32, false, RNI, 8, false)
F2I(r_rni_s64_f64, true, RNI, 64, true)
F2I(r_rzi_u64_f64, true, RZI, 64, false)
F2I(r_rmi_s32_f64, true, RMI, 32, true)
F2I(r_rzi_s64_f32, false, RZI, 64, true)

CVT(op_rni_s32_f32, "cvt.rni.s32.f32", "f32", "s32", r_rni_s32_f32);
CVT(op_rzi_s32_f32, "cvt.rzi.s32.f32", "f32", "s32", r_rzi_s32_f32);
CVT(op_rmi_s32_f32, "cvt.rmi.s32.f32", "f32", "s32", r_rmi_s32_f32);
CVT(op_rpi_s32_f32, "cvt.rpi.s32.f32", "f32", "s32", r_rpi_s32_f32);
CVT(op_rzi_u32_f32, "cvt.rzi.u32.f32", "f32", "u32", r_rzi_u32_f32);
CVT(op_rni_u32_f32, "cvt.rni.u32.f32", "f32", "u32", r_rni_u32_f32);
CVT(op_rzi_s16_f32, "cvt.rzi.s16.f32", "f32", "s16", r_rzi_s16_f32);
CVT(op_rni_s64_f64, "cvt.rni.s64.f64", "f64", "s64", r_rni_s64_f64);
CVT(op_rzi_u64_f64, "cvt.rzi.u64.f64", "f64", "u64", r_rzi_u64_f64);
CVT(op_rmi_s32_f64, "cvt.rmi.s32.f64", "f64", "s32", r_rmi_s32_f64);
CVT(op_rzi_s64_f32, "cvt.rzi.s64.f32", "f32", "s64", r_rzi_s64_f32);
static const conf_op op_rni_u8_f32 = { "cvt.rni.u8.f32 into a 32-bit register", "cvt.rni.u8.f32 %out0, %in0;", { "f32" }, { "u32" }, { { 0 } }, r_rni_u8_f32, NULL, NULL };

static const conf_case c_f2i32[] = {
    I1(0x40200000u), I1(0x40600000u), I1(0xc0200000u), I1(0xc0600000u), I1(0x3fd9999au), I1(0xbfd9999au),
    I1(0x3f000000u), I1(0xbf000000u), I1(0x3f400000u), I1(0x4f000000u), I1(0xcf000000u), I1(0xcf32d05eu),
    I1(0x501502f9u), I1(0x7f800000u), I1(0xff800000u), I1(0x7fc00000u), I1(0x80000000u), I1(0x4effffffu),
    I1(0x4f800000u), I1(0x437f4000u), I1(0x43808000u), I1(0x00000001u), I1(0xbf800000u),
};
static const conf_case c_rni_isa[] = {
    /* float-to-int rounds to nearest even and saturates; NaN gives 0 */
    E1(0x40200000u, 2), E1(0x40600000u, 4), E1(0x7f800000u, 0x7fffffff), E1(0xff800000u, 0x80000000), E1(0x7fc00000u, 0),
};
static const conf_case c_f2i64[] = {
    I1(0x4004000000000000ull), I1(0xc004000000000000ull), I1(0x43e0000000000000ull), I1(0xc3e0000000000000ull),
    I1(0x43f0000000000000ull), I1(0x43efffffffffffffull), I1(0xbff0000000000000ull), I1(0x7ff8000000000000ull),
    I1(0x7ff0000000000000ull), I1(0xfff0000000000000ull), I1(0x4330000000000001ull), I1(0x3fe0000000000000ull),
    I1(0x41dfffffffc00000ull), I1(0xc1e0000000200000ull),
};

/* ---------------------------------------------------------------- integer -> float */

#define IN_MODE(r, T, expr)                      \
    do {                                         \
        int old_ = fegetround();                 \
        fesetround(conf_fe_mode(r));             \
        volatile T res_ = (expr);                \
        fesetround(old_);                        \
        return res_;                             \
    } while (0)
static float s64_to_f32(int64_t v, conf_rnd r) { volatile int64_t x = v; IN_MODE(r, float, (float)x); }
static float u64_to_f32(uint64_t v, conf_rnd r) { volatile uint64_t x = v; IN_MODE(r, float, (float)x); }
static double s64_to_f64(int64_t v, conf_rnd r) { volatile int64_t x = v; IN_MODE(r, double, (double)x); }
static double u64_to_f64(uint64_t v, conf_rnd r) { volatile uint64_t x = v; IN_MODE(r, double, (double)x); }

#define I2F32(fname, sgn, bits, rnd) \
    static void fname(IN in, OUT out) { out[0] = conf_b32(sgn ? s64_to_f32(conf_sext(in[0], bits), rnd) : u64_to_f32(in[0] & (bits == 64 ? ~0ull : (1ull << bits) - 1), rnd)); }
#define I2F64(fname, sgn, bits, rnd) \
    static void fname(IN in, OUT out) { out[0] = conf_b64(sgn ? s64_to_f64(conf_sext(in[0], bits), rnd) : u64_to_f64(in[0] & (bits == 64 ? ~0ull : (1ull << bits) - 1), rnd)); }
I2F32(r_rn_f32_s32, true, 32, CONF_RN)
I2F32(r_rz_f32_s32, true, 32, CONF_RZ)
I2F32(r_rm_f32_s32, true, 32, CONF_RM)
I2F32(r_rp_f32_s32, true, 32, CONF_RP)
I2F32(r_rn_f32_u32, false, 32, CONF_RN)
I2F32(r_rz_f32_u32, false, 32, CONF_RZ)
I2F32(r_rn_f32_s64, true, 64, CONF_RN)
I2F32(r_rp_f32_u64, false, 64, CONF_RP)
I2F32(r_rn_f32_s16, true, 16, CONF_RN)
I2F64(r_rn_f64_s64, true, 64, CONF_RN)
I2F64(r_rz_f64_u64, false, 64, CONF_RZ)
I2F64(r_rm_f64_s64, true, 64, CONF_RM)
I2F64(r_rn_f64_s32, true, 32, CONF_RN)
I2F64(r_rn_f64_u32, false, 32, CONF_RN)

#define CVTF(var, text, itype, otype, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0;", { itype }, { otype }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
CVTF(op_rn_f32_s32, "cvt.rn.f32.s32", "s32", "f32", r_rn_f32_s32, CONF_F32);
CVTF(op_rz_f32_s32, "cvt.rz.f32.s32", "s32", "f32", r_rz_f32_s32, CONF_F32);
CVTF(op_rm_f32_s32, "cvt.rm.f32.s32", "s32", "f32", r_rm_f32_s32, CONF_F32);
CVTF(op_rp_f32_s32, "cvt.rp.f32.s32", "s32", "f32", r_rp_f32_s32, CONF_F32);
CVTF(op_rn_f32_u32, "cvt.rn.f32.u32", "u32", "f32", r_rn_f32_u32, CONF_F32);
CVTF(op_rz_f32_u32, "cvt.rz.f32.u32", "u32", "f32", r_rz_f32_u32, CONF_F32);
CVTF(op_rn_f32_s64, "cvt.rn.f32.s64", "s64", "f32", r_rn_f32_s64, CONF_F32);
CVTF(op_rp_f32_u64, "cvt.rp.f32.u64", "u64", "f32", r_rp_f32_u64, CONF_F32);
CVTF(op_rn_f32_s16, "cvt.rn.f32.s16", "s16", "f32", r_rn_f32_s16, CONF_F32);
CVTF(op_rn_f64_s64, "cvt.rn.f64.s64", "s64", "f64", r_rn_f64_s64, CONF_F64);
CVTF(op_rz_f64_u64, "cvt.rz.f64.u64", "u64", "f64", r_rz_f64_u64, CONF_F64);
CVTF(op_rm_f64_s64, "cvt.rm.f64.s64", "s64", "f64", r_rm_f64_s64, CONF_F64);
CVTF(op_rn_f64_s32, "cvt.rn.f64.s32", "s32", "f64", r_rn_f64_s32, CONF_F64);
CVTF(op_rn_f64_u32, "cvt.rn.f64.u32", "u32", "f64", r_rn_f64_u32, CONF_F64);

static const conf_case c_i2f32[] = {
    I1(0), I1(1), I1(-1), I1(16777216), I1(16777217), I1(16777219), I1(-16777217), I1(-16777219), I1(0x7fffffff),
    I1(0x80000000), I1(0xffffffff), I1(123456789), I1(-123456789),
};
static const conf_case c_i2f64[] = {
    I1(0), I1(-1), I1(0x20000000000001ull), I1(0x20000000000003ull), I1(0x7fffffffffffffffull), I1(0x8000000000000000ull),
    I1(0xffffffffffffffffull), I1(0x8000000000000401ull), I1(-9007199254740993ll), I1(1234567890123456789ull),
};
static const conf_case c_i2f_isa[] = { E1(16777217, 0x4b800000u), E1(16777219, 0x4b800002u), E1(-7, 0xc0e00000u) };
static const conf_case c_i2f16[] = { I1(0), I1(0x7fff), I1(0x8000), I1(0xffff), I1(1234) };

/* ---------------------------------------------------------------- float -> float */

static void r_f64_f32(IN in, OUT out) { out[0] = conf_b64((double)F(in[0])); }
static void r_f64_f32_ftz(IN in, OUT out) { out[0] = conf_b64((double)conf_ftz32(F(in[0]))); }
static void r_rn_f32_f64(IN in, OUT out) { out[0] = conf_b32(conf_f64_to_f32(D(in[0]), CONF_RN)); }
static void r_rz_f32_f64(IN in, OUT out) { out[0] = conf_b32(conf_f64_to_f32(D(in[0]), CONF_RZ)); }
static void r_rm_f32_f64(IN in, OUT out) { out[0] = conf_b32(conf_f64_to_f32(D(in[0]), CONF_RM)); }
static void r_rp_f32_f64(IN in, OUT out) { out[0] = conf_b32(conf_f64_to_f32(D(in[0]), CONF_RP)); }
static void r_rn_ftz_f32_f64(IN in, OUT out) { out[0] = conf_b32(conf_ftz32(conf_f64_to_f32(D(in[0]), CONF_RN))); }
static void r_ftz_f32_f32(IN in, OUT out) { out[0] = conf_b32(conf_ftz32(F(in[0]))); }
static void r_sat_f32_f32(IN in, OUT out) { out[0] = conf_b32(conf_sat32(F(in[0]))); }
static float rint32(float v, int mode)
{
    switch (mode) {
    case RZI: return truncf(v);
    case RMI: return floorf(v);
    case RPI: return ceilf(v);
    default: return nearbyintf(v);
    }
}
static void r_rni_f32_f32(IN in, OUT out) { out[0] = conf_b32(rint32(F(in[0]), RNI)); }
static void r_rzi_f32_f32(IN in, OUT out) { out[0] = conf_b32(rint32(F(in[0]), RZI)); }
static void r_rmi_f32_f32(IN in, OUT out) { out[0] = conf_b32(rint32(F(in[0]), RMI)); }
static void r_rpi_f32_f32(IN in, OUT out) { out[0] = conf_b32(rint32(F(in[0]), RPI)); }
static void r_rni_f64_f64(IN in, OUT out) { out[0] = conf_b64(nearbyint(D(in[0]))); }

CVTF(op_f64_f32, "cvt.f64.f32", "f32", "f64", r_f64_f32, CONF_F64);
CVTF(op_f64_f32_ftz, "cvt.ftz.f64.f32", "f32", "f64", r_f64_f32_ftz, CONF_F64);
CVTF(op_rn_f32_f64, "cvt.rn.f32.f64", "f64", "f32", r_rn_f32_f64, CONF_F32);
CVTF(op_rz_f32_f64, "cvt.rz.f32.f64", "f64", "f32", r_rz_f32_f64, CONF_F32);
CVTF(op_rm_f32_f64, "cvt.rm.f32.f64", "f64", "f32", r_rm_f32_f64, CONF_F32);
CVTF(op_rp_f32_f64, "cvt.rp.f32.f64", "f64", "f32", r_rp_f32_f64, CONF_F32);
CVTF(op_rn_ftz_f32_f64, "cvt.rn.ftz.f32.f64", "f64", "f32", r_rn_ftz_f32_f64, CONF_F32);
CVTF(op_ftz_f32_f32, "cvt.ftz.f32.f32", "f32", "f32", r_ftz_f32_f32, CONF_F32);
CVTF(op_sat_f32_f32, "cvt.sat.f32.f32", "f32", "f32", r_sat_f32_f32, CONF_F32);
CVTF(op_rni_f32_f32, "cvt.rni.f32.f32", "f32", "f32", r_rni_f32_f32, CONF_F32);
CVTF(op_rzi_f32_f32, "cvt.rzi.f32.f32", "f32", "f32", r_rzi_f32_f32, CONF_F32);
CVTF(op_rmi_f32_f32, "cvt.rmi.f32.f32", "f32", "f32", r_rmi_f32_f32, CONF_F32);
CVTF(op_rpi_f32_f32, "cvt.rpi.f32.f32", "f32", "f32", r_rpi_f32_f32, CONF_F32);
CVTF(op_rni_f64_f64, "cvt.rni.f64.f64", "f64", "f64", r_rni_f64_f64, CONF_F64);

static const conf_case c_f32_vals[] = {
    I1(0x3f800000u), I1(0x80000000u), I1(0x00000001u), I1(0x80400000u), I1(0x007fffffu), I1(0x7f7fffffu),
    I1(0x7f800000u), I1(0xff800000u), I1(0x7fc00000u), I1(0x3eaaaaabu), I1(0xc0200000u), I1(0x3fc00000u),
    I1(0x40200000u), I1(0xbf000000u), I1(0x4b000001u), I1(0xbfc00000u), I1(0x3f7fffffu),
};
/* -0.0 is left out: whether .sat turns it into +0.0 is not spelled out by the ISA. */
static const conf_case c_f32_sat[] = {
    I1(0x3f800000u), I1(0x00000001u), I1(0x80400000u), I1(0x7f7fffffu), I1(0x7f800000u), I1(0xff800000u),
    I1(0x7fc00000u), I1(0x3eaaaaabu), I1(0xc0200000u), I1(0x3fc00000u), I1(0x3f7fffffu),
};
static const conf_case c_f64_vals[] = {
    I1(0x3fd5555555555555ull), I1(0xbfd5555555555555ull), I1(0x7fefffffffffffffull), I1(0x36a0000000000000ull),
    I1(0x3690000000000000ull), I1(0x3ff0000010000000ull), I1(0x3ff0000030000000ull), I1(0x3ff0000010000001ull),
    I1(0x47efffffe0000000ull), I1(0x47efffffefffffffull), I1(0x7ff0000000000000ull), I1(0x7ff8000000000000ull),
    I1(0x8000000000000000ull), I1(0x0000000000000001ull), I1(0x380fffffffffffffull), I1(0x4004000000000000ull),
    I1(0xc004000000000000ull),
};
static const conf_case c_f32_f64_isa[] = {
    /* 1 + 2^-24 exactly: a tie, to even */
    E1(0x3ff0000010000000ull, 0x3f800000u), E1(0x3ff0000030000000ull, 0x3f800002u),
};

/* ---------------------------------------------------------------- to and from f16 / bf16 */

#define MF(fname, fmt, rnd) \
    static void fname(IN in, OUT out) { out[0] = conf_mf_encode(&fmt, (double)F(in[0]), rnd, false); }
MF(r_rn_f16_f32, CONF_FMT_F16, CONF_RN)
MF(r_rz_f16_f32, CONF_FMT_F16, CONF_RZ)
MF(r_rm_f16_f32, CONF_FMT_F16, CONF_RM)
MF(r_rp_f16_f32, CONF_FMT_F16, CONF_RP)
MF(r_rn_bf16_f32, CONF_FMT_BF16, CONF_RN)
MF(r_rz_bf16_f32, CONF_FMT_BF16, CONF_RZ)
static void r_rn_f16_f64(IN in, OUT out) { out[0] = conf_mf_encode(&CONF_FMT_F16, D(in[0]), CONF_RN, false); }
static void r_f32_f16(IN in, OUT out) { out[0] = conf_b32((float)conf_mf_decode(&CONF_FMT_F16, (uint32_t)in[0] & 0xffff)); }
static void r_f32_bf16(IN in, OUT out) { out[0] = conf_b32((float)conf_mf_decode(&CONF_FMT_BF16, (uint32_t)in[0] & 0xffff)); }
static void r_f64_f16(IN in, OUT out) { out[0] = conf_b64(conf_mf_decode(&CONF_FMT_F16, (uint32_t)in[0] & 0xffff)); }
static void r_f16x2(IN in, OUT out)
{
    out[0] = conf_mf_encode(&CONF_FMT_F16, F(in[0]), CONF_RN, false) << 16 |
             conf_mf_encode(&CONF_FMT_F16, F(in[1]), CONF_RN, false);
}
static void r_bf16x2(IN in, OUT out)
{
    out[0] = conf_mf_encode(&CONF_FMT_BF16, F(in[0]), CONF_RN, false) << 16 |
             conf_mf_encode(&CONF_FMT_BF16, F(in[1]), CONF_RN, false);
}
static void r_tf32(IN in, OUT out)
{
    uint32_t b = (uint32_t)in[0];
    float f = F(b);
    if (isnan(f) || isinf(f)) {
        out[0] = b;
        return;
    }
    uint32_t sign = b & 0x80000000u, mag = b & 0x7fffffffu;
    mag = (mag + 0x1000u) & ~0x1fffu;   /* half of the dropped 13 bits rounds away from zero */
    out[0] = sign | mag;
}
/* cvt.rn.tf32.f32: the ISA's .rn, the dropped 13 bits round to nearest, ties to even. */
static void r_rn_tf32(IN in, OUT out)
{
    uint32_t b = (uint32_t)in[0];
    float f = F(b);
    if (isnan(f) || isinf(f)) {
        out[0] = b;
        return;
    }
    uint32_t sign = b & 0x80000000u, mag = b & 0x7fffffffu;
    mag = (mag + 0xfffu + ((mag >> 13) & 1u)) & ~0x1fffu;
    out[0] = sign | mag;
}
/* cvt.rz.tf32.f32: the dropped bits are cut. */
static void r_rz_tf32(IN in, OUT out)
{
    uint32_t b = (uint32_t)in[0];
    out[0] = isnan(F(b)) ? b : b & ~UINT32_C(0x1fff);
}
static void r_e4m3x2(IN in, OUT out)
{
    out[0] = conf_mf_encode(&CONF_FMT_E4M3, F(in[0]), CONF_RN, true) << 8 |
             conf_mf_encode(&CONF_FMT_E4M3, F(in[1]), CONF_RN, true);
}
static void r_e5m2x2(IN in, OUT out)
{
    out[0] = conf_mf_encode(&CONF_FMT_E5M2, F(in[0]), CONF_RN, true) << 8 |
             conf_mf_encode(&CONF_FMT_E5M2, F(in[1]), CONF_RN, true);
}
static void r_e4m3x2_f16x2(IN in, OUT out)
{
    uint32_t a = (uint32_t)in[0];
    double hi = conf_mf_decode(&CONF_FMT_F16, a >> 16), lo = conf_mf_decode(&CONF_FMT_F16, a & 0xffff);
    out[0] = conf_mf_encode(&CONF_FMT_E4M3, hi, CONF_RN, true) << 8 | conf_mf_encode(&CONF_FMT_E4M3, lo, CONF_RN, true);
}
static void r_e5m2x2_f16x2(IN in, OUT out)
{
    uint32_t a = (uint32_t)in[0];
    double hi = conf_mf_decode(&CONF_FMT_F16, a >> 16), lo = conf_mf_decode(&CONF_FMT_F16, a & 0xffff);
    out[0] = conf_mf_encode(&CONF_FMT_E5M2, hi, CONF_RN, true) << 8 | conf_mf_encode(&CONF_FMT_E5M2, lo, CONF_RN, true);
}
static void r_f16x2_e4m3x2(IN in, OUT out)
{
    uint32_t a = (uint32_t)in[0];
    double hi = conf_mf_decode(&CONF_FMT_E4M3, (a >> 8) & 0xff), lo = conf_mf_decode(&CONF_FMT_E4M3, a & 0xff);
    out[0] = conf_mf_encode(&CONF_FMT_F16, hi, CONF_RN, false) << 16 | conf_mf_encode(&CONF_FMT_F16, lo, CONF_RN, false);
}
static void r_f16x2_e5m2x2(IN in, OUT out)
{
    uint32_t a = (uint32_t)in[0];
    double hi = conf_mf_decode(&CONF_FMT_E5M2, (a >> 8) & 0xff), lo = conf_mf_decode(&CONF_FMT_E5M2, a & 0xff);
    out[0] = conf_mf_encode(&CONF_FMT_F16, hi, CONF_RN, false) << 16 | conf_mf_encode(&CONF_FMT_F16, lo, CONF_RN, false);
}

CVTF(op_rn_f16_f32, "cvt.rn.f16.f32", "f32", "b16", r_rn_f16_f32, CONF_F16);
CVTF(op_rz_f16_f32, "cvt.rz.f16.f32", "f32", "b16", r_rz_f16_f32, CONF_F16);
CVTF(op_rm_f16_f32, "cvt.rm.f16.f32", "f32", "b16", r_rm_f16_f32, CONF_F16);
CVTF(op_rp_f16_f32, "cvt.rp.f16.f32", "f32", "b16", r_rp_f16_f32, CONF_F16);
CVTF(op_rn_f16_f64, "cvt.rn.f16.f64", "f64", "b16", r_rn_f16_f64, CONF_F16);
CVTF(op_rn_bf16_f32, "cvt.rn.bf16.f32", "f32", "b16", r_rn_bf16_f32, CONF_BF16);
CVTF(op_rz_bf16_f32, "cvt.rz.bf16.f32", "f32", "b16", r_rz_bf16_f32, CONF_BF16);
CVTF(op_f32_f16, "cvt.f32.f16", "b16", "f32", r_f32_f16, CONF_F32);
CVTF(op_f32_bf16, "cvt.f32.bf16", "b16", "f32", r_f32_bf16, CONF_F32);
CVTF(op_f64_f16, "cvt.f64.f16", "b16", "f64", r_f64_f16, CONF_F64);
CVTF(op_tf32, "cvt.rna.tf32.f32", "f32", "b32", r_tf32, CONF_F32);
CVTF(op_rn_tf32, "cvt.rn.tf32.f32", "f32", "b32", r_rn_tf32, CONF_F32);
CVTF(op_rz_tf32, "cvt.rz.tf32.f32", "f32", "b32", r_rz_tf32, CONF_F32);
static const conf_op op_f16x2 = { "cvt.rn.f16x2.f32", "cvt.rn.f16x2.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "b32" }, { { CONF_F16X2, 0, 0, 0 } }, r_f16x2, NULL, NULL };
static const conf_op op_bf16x2 = { "cvt.rn.bf16x2.f32", "cvt.rn.bf16x2.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "b32" }, { { CONF_BF16X2, 0, 0, 0 } }, r_bf16x2, NULL, NULL };
static const conf_op op_e4m3x2 = { "cvt.rn.satfinite.e4m3x2.f32", "cvt.rn.satfinite.e4m3x2.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "b16" }, { { CONF_E4M3X2, 0, 0, 0 } }, r_e4m3x2, NULL, NULL };
static const conf_op op_e5m2x2 = { "cvt.rn.satfinite.e5m2x2.f32", "cvt.rn.satfinite.e5m2x2.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "b16" }, { { CONF_E5M2X2, 0, 0, 0 } }, r_e5m2x2, NULL, NULL };
static const conf_op op_e4m3x2_f16x2 = { "cvt.rn.satfinite.e4m3x2.f16x2", "cvt.rn.satfinite.e4m3x2.f16x2 %out0, %in0;", { "b32" }, { "b16" }, { { CONF_E4M3X2, 0, 0, 0 } }, r_e4m3x2_f16x2, NULL, NULL };
static const conf_op op_e5m2x2_f16x2 = { "cvt.rn.satfinite.e5m2x2.f16x2", "cvt.rn.satfinite.e5m2x2.f16x2 %out0, %in0;", { "b32" }, { "b16" }, { { CONF_E5M2X2, 0, 0, 0 } }, r_e5m2x2_f16x2, NULL, NULL };
static const conf_op op_f16x2_e4m3x2 = { "cvt.rn.f16x2.e4m3x2", "cvt.rn.f16x2.e4m3x2 %out0, %in0;", { "b16" }, { "b32" }, { { CONF_F16X2, 0, 0, 0 } }, r_f16x2_e4m3x2, NULL, NULL };
static const conf_op op_f16x2_e5m2x2 = { "cvt.rn.f16x2.e5m2x2", "cvt.rn.f16x2.e5m2x2 %out0, %in0;", { "b16" }, { "b32" }, { { CONF_F16X2, 0, 0, 0 } }, r_f16x2_e5m2x2, NULL, NULL };

static const conf_case c_to_f16[] = {
    I1(0x3f800000u), I1(0x3f801000u), I1(0x3f803000u), I1(0x3f801001u), I1(0xbf801000u), I1(0x477fe000u),
    I1(0x477ff000u), I1(0x47800000u), I1(0xc7800000u), I1(0x33800000u), I1(0x33000000u), I1(0x33400000u),
    I1(0x387fc000u), I1(0x38800000u), I1(0x80000000u), I1(0x7f800000u), I1(0x7fc00000u), I1(0x3eaaaaabu),
    I1(0x00000001u), I1(0x32800000u),
};
static const conf_case c_to_f16_isa[] = {
    /* 1.0, 1 + 2^-11 (tie, to even), 65520 (rounds to Inf), 2^-24 (smallest subnormal) */
    E1(0x3f800000u, 0x3c00), E1(0x3f801000u, 0x3c00), E1(0x477ff000u, 0x7c00), E1(0x33800000u, 0x0001),
};
static const conf_case c_to_bf16[] = {
    I1(0x3f800000u), I1(0x3f808000u), I1(0x3f818000u), I1(0x3f808001u), I1(0xbf808000u), I1(0x7f7fffffu),
    I1(0x7f7f7fffu), I1(0x00010000u), I1(0x00008000u), I1(0x7f800000u), I1(0x7fc00000u), I1(0x80000000u), I1(0x3eaaaaabu),
};
static const conf_case c_to_bf16_isa[] = { E1(0x3f808000u, 0x3f80), E1(0x3f818000u, 0x3f82), E1(0x7f7fffffu, 0x7f80) };
static const conf_case c_from_f16[] = {
    I1(0x3c00), I1(0x0001), I1(0x03ff), I1(0x0400), I1(0x7bff), I1(0x7c00), I1(0xfc00), I1(0x7e00), I1(0x8000), I1(0xc500),
    I1(0x3555),
};
static const conf_case c_from_bf16[] = { I1(0x3f80), I1(0x0001), I1(0x7f7f), I1(0x7f80), I1(0xff80), I1(0x7fc0), I1(0x8000), I1(0xc0a0) };
static const conf_case c_f16_f64[] = { I1(0x3ff0000000000000ull), I1(0x3ff0020000000000ull), I1(0x3ff0020000000001ull), I1(0x40effe0000000000ull), I1(0x3e70000000000000ull) };
static const conf_case c_pack2[] = {
    I2(0x3f800000u, 0x40000000u), I2(0x3f801000u, 0xbf801000u), I2(0x7fc00000u, 0x00000000u), I2(0x47800000u, 0x33800000u),
    I2(0x3f808000u, 0x3f818000u), I2(0x3eaaaaabu, 0xc0490fdbu),
};
static const conf_case c_f16x2_isa[] = { E2(0x3f800000u, 0x40000000u, 0x3c004000u) /* a in the upper half */ };
static const conf_case c_bf16x2_isa[] = { E2(0x3f800000u, 0x40000000u, 0x3f804000u) };
static const conf_case c_tf32[] = {
    I1(0x3f800000u), I1(0x3f801000u), I1(0x3f800fffu), I1(0xbf801000u), I1(0x3f803000u), I1(0x3eaaaaabu), I1(0x00001000u),
    I1(0x7f800000u), I1(0x7fc00000u), I1(0x80000000u),
};
static const conf_case c_tf32_isa[] = { E1(0x3f801000u, 0x3f802000u), E1(0x3f800fffu, 0x3f800000u), E1(0xbf801000u, 0xbf802000u) };
/* .rn: 1 + 2^-11 and -(1 + 2^-11) are ties and keep the even 1.0; 1 + 3 * 2^-11 is a tie
 * between an odd and an even neighbour and goes up to 1 + 2^-9; past a tie rounds up */
static const conf_case c_rn_tf32_isa[] = {
    E1(0x3f801000u, 0x3f800000u), E1(0xbf801000u, 0xbf800000u), E1(0x3f803000u, 0x3f804000u),
    E1(0x3f801001u, 0x3f802000u),
};
/* .rz: 1 + 2^-10 + (2^-11 - 2^-23) keeps 1 + 2^-10 */
static const conf_case c_rz_tf32_isa[] = { E1(0x3f803fffu, 0x3f802000u), E1(0xbf803fffu, 0xbf802000u) };
static const conf_case c_fp8[] = {
    I2(0x3f800000u, 0x40000000u), I2(0x43e00000u, 0x43fa0000u), I2(0xc47a0000u, 0x80000000u), I2(0x3b000000u, 0x3a800000u),
    I2(0x3f880000u, 0x3f980000u), I2(0x7fc00000u, 0x7f800000u), I2(0xff800000u, 0x3eaaaaabu), I2(0x47600000u, 0x49742400u),
    I2(0x3c000000u, 0x37800000u), I2(0x43e80000u, 0x47700000u),
};
static const conf_case c_e4m3_isa[] = {
    /* 1.0 = 0x38, 2.0 = 0x40, 448 = 0x7e (the largest), 500 saturates to 0x7e */
    E2(0x3f800000u, 0x40000000u, 0x3840), E2(0x43e00000u, 0x43fa0000u, 0x7e7e),
    /* 480 and -470 (which rounds to -480) have the exponent of 448 and the mantissa 111, the
     * NaN pattern S.1111.111: .satfinite gives the largest finite, +-448 */
    E2(0x43f00000u, 0xc3eb0000u, 0x7efe),
    /* 464 is half-way between 448 (mantissa 110) and 480: ties to even, 448 */
    E2(0x43e80000u, 0xc3e80000u, 0x7efe),
};
static const conf_case c_e5m2_isa[] = { E2(0x3f800000u, 0x40000000u, 0x3c40), E2(0x47600000u, 0x49742400u, 0x7b7b) };
/* cvt.pack.sat (PTX ISA): a and b clamped to the narrow type, a above b; the 8/4/2-bit forms put
 * the low bits of c above the pair. */
static void pack_int(IN in, OUT out, unsigned size, bool sgn, bool with_c)
{
    int64_t lo = sgn ? -(1ll << (size - 1)) : 0, hi = sgn ? (1ll << (size - 1)) - 1 : (1ll << size) - 1;
    int64_t a = (int32_t)in[0], b = (int32_t)in[1];
    a = a < lo ? lo : a > hi ? hi : a;
    b = b < lo ? lo : b > hi ? hi : b;
    uint64_t m = (1ull << size) - 1, r = (((uint64_t)a & m) << size) | ((uint64_t)b & m);
    if (with_c) r |= (uint64_t)(uint32_t)in[2] << (2 * size);
    out[0] = r & 0xffffffffu;
}
static void r_pack_u16(IN in, OUT out) { pack_int(in, out, 16, false, false); }
static void r_pack_s16(IN in, OUT out) { pack_int(in, out, 16, true, false); }
static void r_pack_s8(IN in, OUT out) { pack_int(in, out, 8, true, true); }
static void r_pack_u8(IN in, OUT out) { pack_int(in, out, 8, false, true); }
static void r_pack_s4(IN in, OUT out) { pack_int(in, out, 4, true, true); }
static void r_pack_u4(IN in, OUT out) { pack_int(in, out, 4, false, true); }
static void r_pack_s2(IN in, OUT out) { pack_int(in, out, 2, true, true); }
static void r_pack_u2(IN in, OUT out) { pack_int(in, out, 2, false, true); }
#define PACK2(var, t, fn) static const conf_op var = { "cvt.pack.sat." t ".s32", "cvt.pack.sat." t ".s32 %out0, %in0, %in1;", { "s32", "s32" }, { "b32" }, { { 0 } }, fn, NULL, NULL }
#define PACK3(var, t, fn) static const conf_op var = { "cvt.pack.sat." t ".s32.b32", "cvt.pack.sat." t ".s32.b32 %out0, %in0, %in1, %in2;", { "s32", "s32", "b32" }, { "b32" }, { { 0 } }, fn, NULL, NULL }
PACK2(op_pack_u16, "u16", r_pack_u16);
PACK2(op_pack_s16, "s16", r_pack_s16);
PACK3(op_pack_s8, "s8", r_pack_s8);
PACK3(op_pack_u8, "u8", r_pack_u8);
PACK3(op_pack_s4, "s4", r_pack_s4);
PACK3(op_pack_u4, "u4", r_pack_u4);
PACK3(op_pack_s2, "s2", r_pack_s2);
PACK3(op_pack_u2, "u2", r_pack_u2);
static const conf_case c_pack_int2[] = {
    I2(0, 0), I2(1, 2), I2(-1, 70000), I2(0x7fffffff, 0x80000000u), I2(32767, -32768), I2(65535, 65536), I2(-5, 40000),
};
static const conf_case c_pack_int3[] = {
    I3(0, 0, 0), I3(1, 2, 0), I3(-1, 300, 0xabcd), I3(127, -128, 0x1234), I3(128, -129, 0xffffffffu), I3(255, 256, 7),
    I3(-7, 9, 0x3c), I3(3, -3, 0x55), I3(0x7fffffff, 0x80000000u, 0xdeadbeefu), I3(2, -2, 1),
};
/* Four s32 values packed into bytes by two instructions, the way CUTLASS's converter uses it: the
 * first packs the upper pair with c = 0, the second puts it above the lower pair. */
static const conf_case c_pack_s8_isa[] = {
    E3(0x7f, -128, 0, 0x7f80), E3(3, 4, 0x7f80, 0x7f800304u), E3(1000, -1000, 0x0102, 0x01027f80u),
};

/* f16 pairs: 1.0/2.0, 448/500 (e4m3's largest and past it), tiny, NaN/inf, -0/-1.5, 57344/65504 */
static const conf_case c_f16x2_to_fp8[] = {
    I1(0x3c004000u), I1(0x5f005fd0u), I1(0x00010400u), I1(0x7e007c00u), I1(0x8000be00u), I1(0x7b007bffu),
    I1(0x3c013bffu), I1(0x2c002a00u),
};
/* 1.0 = 0x38 and 2.0 = 0x40 in e4m3 (a in the upper byte); 448 and 500 both give 0x7e */
static const conf_case c_e4m3_f16x2_isa[] = { E1(0x3c004000u, 0x3840), E1(0x5f005fd0u, 0x7e7e),
    /* 480 and -470 past the largest finite by less than a step: +-448, not the NaN pattern */
    E1(0x5f80df58u, 0x7efe) };
static const conf_case c_from_fp8[] = { I1(0x3840), I1(0x7e01), I1(0x80ff), I1(0x7f00), I1(0x0108), I1(0xfe7b) };


/* ---------------------------------------------------------------- f16 with integers, .relu, .satfinite */

static double f16v(uint64_t h) { return conf_mf_decode(&CONF_FMT_F16, (uint32_t)h & 0xffff); }
static void r_rni_s32_f16(IN in, OUT out) { out[0] = f2i(f16v(in[0]), RNI, 32, true); }
static void r_rzi_u8_f16(IN in, OUT out) { out[0] = f2i(f16v(in[0]), RZI, 8, false); }
static void r_rn_f16_s32(IN in, OUT out) { out[0] = conf_mf_encode(&CONF_FMT_F16, (double)(int32_t)(uint32_t)in[0], CONF_RN, false); }
static void r_rz_f16_u32(IN in, OUT out) { out[0] = conf_mf_encode(&CONF_FMT_F16, (double)(uint32_t)in[0], CONF_RZ, false); }
static void r_rni_f16_f16(IN in, OUT out)
{
    double v = f16v(in[0]);
    out[0] = isnan(v) ? conf_mf_nan(&CONF_FMT_F16) : conf_mf_encode(&CONF_FMT_F16, nearbyint(v), CONF_RN, false);
}
static void r_relu_f16(IN in, OUT out)
{
    uint32_t h = conf_mf_encode(&CONF_FMT_F16, F(in[0]), CONF_RN, false);
    double v = conf_mf_decode(&CONF_FMT_F16, h);
    out[0] = (!isnan(v) && v < 0) ? 0 : h;
}
static void r_satfinite_f16(IN in, OUT out) { out[0] = conf_mf_encode(&CONF_FMT_F16, F(in[0]), CONF_RN, true); }
static void r_relu_bf16x2(IN in, OUT out)
{
    uint32_t r = 0;
    for (int i = 0; i < 2; i++) {
        uint32_t h = conf_mf_encode(&CONF_FMT_BF16, F(in[i]), CONF_RN, false);
        double v = conf_mf_decode(&CONF_FMT_BF16, h);
        r |= ((!isnan(v) && v < 0) ? 0 : h) << (i ? 0 : 16);
    }
    out[0] = r;
}
CVT(op_rni_s32_f16, "cvt.rni.s32.f16", "b16", "s32", r_rni_s32_f16);
static const conf_op op_rzi_u8_f16 = { "cvt.rzi.u8.f16 into a 32-bit register", "cvt.rzi.u8.f16 %out0, %in0;", { "b16" }, { "u32" }, { { 0 } }, r_rzi_u8_f16, NULL, NULL };
CVTF(op_rn_f16_s32, "cvt.rn.f16.s32", "s32", "b16", r_rn_f16_s32, CONF_F16);
CVTF(op_rz_f16_u32, "cvt.rz.f16.u32", "u32", "b16", r_rz_f16_u32, CONF_F16);
CVTF(op_rni_f16_f16, "cvt.rni.f16.f16", "b16", "b16", r_rni_f16_f16, CONF_F16);
CVTF(op_relu_f16, "cvt.rn.relu.f16.f32", "f32", "b16", r_relu_f16, CONF_F16);
CVTF(op_satfinite_f16, "cvt.rn.satfinite.f16.f32", "f32", "b16", r_satfinite_f16, CONF_F16);
static const conf_op op_relu_bf16x2 = { "cvt.rn.relu.bf16x2.f32", "cvt.rn.relu.bf16x2.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "b32" }, { { CONF_BF16X2, 0, 0, 0 } }, r_relu_bf16x2, NULL, NULL };
static const conf_case c_f16_src[] = {
    I1(0x3c00), I1(0x4100), I1(0x4300), I1(0xc100), I1(0x3800), I1(0xb800), I1(0x7bff), I1(0xfbff), I1(0x7c00), I1(0xfc00),
    I1(0x7e00), I1(0x5bf8), I1(0x0001), I1(0x3e00),
};
static const conf_case c_int_to_f16[] = {
    I1(0), I1(1), I1(-1), I1(2049), I1(2051), I1(65504), I1(65519), I1(65520), I1(-65520), I1(100000), I1(0x7fffffff), I1(4095),
};
static const conf_case c_relu[] = {
    I1(0x3f800000u), I1(0xbf800000u), I1(0x7fc00000u), I1(0xff800000u), I1(0x477ff000u), I1(0x3eaaaaabu), I1(0xc7800000u),
};
static const conf_case c_satfinite[] = {
    I1(0x3f800000u), I1(0x477fe000u), I1(0x477ff000u), I1(0x47800000u), I1(0xc7800000u), I1(0x7f800000u), I1(0xff800000u),
    I1(0x7fc00000u), I1(0x4f000000u),
};
static const conf_case c_satfinite_isa[] = { E1(0x7f800000u, 0x7bff), E1(0xff800000u, 0xfbff) /* +-Inf: sign-preserved MAX_NORM */ };
static const conf_case c_relu2[] = { I2(0x3f800000u, 0xbf800000u), I2(0xc0000000u, 0x40400000u), I2(0x7fc00000u, 0x3f808000u) };

static const conf_table tables[] = {
    CONF_TABLE(op_s32_s8, c_i32), CONF_TABLE(op_u32_u8, c_i32), CONF_TABLE(op_s32_s16, c_i32),
    CONF_TABLE(op_s64_s32, c_i32), CONF_TABLE(op_u64_u32, c_i32), CONF_TABLE(op_u64_s32, c_i32), CONF_TABLE(op_s64_u32, c_i32),
    CONF_TABLE(op_u16_u32, c_i32), CONF_TABLE(op_s8_s32b, c_i32), CONF_TABLE(op_s8_s32b, c_sext_isa), CONF_TABLE(op_u8_u32b, c_i32),
    CONF_TABLE(op_u32_u64, c_i64), CONF_TABLE(op_sat_u8_s32, c_i32), CONF_TABLE(op_sat_s8_s32, c_i32),
    CONF_TABLE(op_sat_u32_s32, c_i32), CONF_TABLE(op_sat_s32_u32, c_i32), CONF_TABLE(op_sat_s32_s64, c_i64),
    CONF_TABLE(op_sat_u16_s64, c_i64), CONF_TABLE(op_sat_s16_u64, c_i64),
    CONF_TABLE(op_rni_s32_f32, c_f2i32), CONF_TABLE(op_rni_s32_f32, c_rni_isa), CONF_TABLE(op_rzi_s32_f32, c_f2i32),
    CONF_TABLE(op_rmi_s32_f32, c_f2i32), CONF_TABLE(op_rpi_s32_f32, c_f2i32), CONF_TABLE(op_rzi_u32_f32, c_f2i32),
    CONF_TABLE(op_rni_u32_f32, c_f2i32), CONF_TABLE(op_rzi_s16_f32, c_f2i32), CONF_TABLE(op_rni_u8_f32, c_f2i32),
    CONF_TABLE(op_rzi_s64_f32, c_f2i32), CONF_TABLE(op_rni_s64_f64, c_f2i64), CONF_TABLE(op_rzi_u64_f64, c_f2i64),
    CONF_TABLE(op_rmi_s32_f64, c_f2i64),
    CONF_TABLE(op_rn_f32_s32, c_i2f32), CONF_TABLE(op_rn_f32_s32, c_i2f_isa), CONF_TABLE(op_rz_f32_s32, c_i2f32),
    CONF_TABLE(op_rm_f32_s32, c_i2f32), CONF_TABLE(op_rp_f32_s32, c_i2f32), CONF_TABLE(op_rn_f32_u32, c_i2f32),
    CONF_TABLE(op_rz_f32_u32, c_i2f32), CONF_TABLE(op_rn_f32_s64, c_i2f64), CONF_TABLE(op_rp_f32_u64, c_i2f64),
    CONF_TABLE(op_rn_f32_s16, c_i2f16), CONF_TABLE(op_rn_f64_s64, c_i2f64), CONF_TABLE(op_rz_f64_u64, c_i2f64),
    CONF_TABLE(op_rm_f64_s64, c_i2f64), CONF_TABLE(op_rn_f64_s32, c_i2f32), CONF_TABLE(op_rn_f64_u32, c_i2f32),
    CONF_TABLE(op_f64_f32, c_f32_vals), CONF_TABLE(op_f64_f32_ftz, c_f32_vals), CONF_TABLE(op_rn_f32_f64, c_f64_vals),
    CONF_TABLE(op_rn_f32_f64, c_f32_f64_isa), CONF_TABLE(op_rz_f32_f64, c_f64_vals), CONF_TABLE(op_rm_f32_f64, c_f64_vals),
    CONF_TABLE(op_rp_f32_f64, c_f64_vals), CONF_TABLE(op_rn_ftz_f32_f64, c_f64_vals), CONF_TABLE(op_ftz_f32_f32, c_f32_vals),
    CONF_TABLE(op_sat_f32_f32, c_f32_sat), CONF_TABLE(op_rni_f32_f32, c_f32_vals), CONF_TABLE(op_rzi_f32_f32, c_f32_vals),
    CONF_TABLE(op_rmi_f32_f32, c_f32_vals), CONF_TABLE(op_rpi_f32_f32, c_f32_vals), CONF_TABLE(op_rni_f64_f64, c_f64_vals),
    CONF_TABLE(op_rn_f16_f32, c_to_f16), CONF_TABLE(op_rn_f16_f32, c_to_f16_isa), CONF_TABLE(op_rz_f16_f32, c_to_f16),
    CONF_TABLE(op_rm_f16_f32, c_to_f16), CONF_TABLE(op_rp_f16_f32, c_to_f16), CONF_TABLE(op_rn_f16_f64, c_f16_f64),
    CONF_TABLE(op_rn_bf16_f32, c_to_bf16), CONF_TABLE(op_rn_bf16_f32, c_to_bf16_isa), CONF_TABLE(op_rz_bf16_f32, c_to_bf16),
    CONF_TABLE(op_f32_f16, c_from_f16), CONF_TABLE(op_f64_f16, c_from_f16), CONF_TABLE(op_f32_bf16, c_from_bf16),
    CONF_TABLE(op_f16x2, c_pack2), CONF_TABLE(op_f16x2, c_f16x2_isa), CONF_TABLE(op_bf16x2, c_pack2),
    CONF_TABLE(op_pack_u16, c_pack_int2), CONF_TABLE(op_pack_s16, c_pack_int2), CONF_TABLE(op_pack_s8, c_pack_int3),
    CONF_TABLE(op_pack_s8, c_pack_s8_isa), CONF_TABLE(op_pack_u8, c_pack_int3), CONF_TABLE(op_pack_s4, c_pack_int3),
    CONF_TABLE(op_pack_u4, c_pack_int3), CONF_TABLE(op_pack_s2, c_pack_int3), CONF_TABLE(op_pack_u2, c_pack_int3),
    CONF_TABLE(op_bf16x2, c_bf16x2_isa), CONF_TABLE(op_tf32, c_tf32), CONF_TABLE(op_tf32, c_tf32_isa),
    CONF_TABLE(op_rn_tf32, c_tf32), CONF_TABLE(op_rn_tf32, c_rn_tf32_isa), CONF_TABLE(op_rz_tf32, c_tf32),
    CONF_TABLE(op_rz_tf32, c_rz_tf32_isa),
    CONF_TABLE(op_e4m3x2, c_fp8), CONF_TABLE(op_e4m3x2, c_e4m3_isa), CONF_TABLE(op_e5m2x2, c_fp8),
    CONF_TABLE(op_e5m2x2, c_e5m2_isa), CONF_TABLE(op_e4m3x2_f16x2, c_f16x2_to_fp8), CONF_TABLE(op_e4m3x2_f16x2, c_e4m3_f16x2_isa),
    CONF_TABLE(op_e5m2x2_f16x2, c_f16x2_to_fp8), CONF_TABLE(op_f16x2_e4m3x2, c_from_fp8), CONF_TABLE(op_f16x2_e5m2x2, c_from_fp8),
    CONF_TABLE(op_rni_s32_f16, c_f16_src), CONF_TABLE(op_rzi_u8_f16, c_f16_src), CONF_TABLE(op_rn_f16_s32, c_int_to_f16),
    CONF_TABLE(op_rz_f16_u32, c_int_to_f16), CONF_TABLE(op_rni_f16_f16, c_f16_src), CONF_TABLE(op_relu_f16, c_relu),
    CONF_TABLE(op_satfinite_f16, c_satfinite), CONF_TABLE(op_satfinite_f16, c_satfinite_isa), CONF_TABLE(op_relu_bf16x2, c_relu2),
};

START_TEST(cvt_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_cvt");
    conf_add_tables(s, tables, CONF_N(tables), cvt_row);
    return conf_main(s);
}
