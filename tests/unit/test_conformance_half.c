/* test_conformance_half.c: PTX f16/f16x2/bf16/bf16x2 arithmetic and comparison against the
 * PTX ISA (sections 9.7.4 and 9.7.7.2).
 *
 * add/sub/mul/fma (.rn, ties to even; .ftz; .sat; .relu), min/max (NaN rules, .NaN, -0 < +0),
 * neg/abs, and setp (the scalar forms, and the x2 forms whose p comes from the low half and q
 * from the high half). Expected values: the operands are decoded exactly into doubles, the
 * operation is done exactly in double (the reference checks FE_INEXACT and refuses rows where
 * double is not exact), and the result is rounded once to f16 or bf16 by an exact rounding
 * routine (conformance_harness.c). The ISA leaves half-precision NaN payloads unspecified, so
 * a NaN expectation accepts any NaN.
 */
#include "tests/unit/conformance_harness.h"

#include <fenv.h>
#include <math.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;

typedef enum { H_ADD, H_SUB, H_MUL, H_FMA, H_MIN, H_MAX, H_MIN_NAN, H_MAX_NAN, H_NEG, H_ABS } hop_t;
enum { FTZ = 1, SAT = 2, RELU = 4 };

static bool is_sub(const conf_fmt *f, uint32_t h)
{
    return ((h >> f->mbits) & ((1u << f->ebits) - 1)) == 0 && (h & ((1u << f->mbits) - 1)) != 0;
}

static double hval(const conf_fmt *f, uint32_t h, int flags)
{
    double v = conf_mf_decode(f, h);
    if ((flags & FTZ) && is_sub(f, h)) v = copysign(0.0, v);
    return v;
}

static double minmax(double a, double b, bool max, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return NAN;
        return isnan(a) ? b : a;
    }
    if (a == 0.0 && b == 0.0) return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

/* One half-precision lane: the ISA's semantics for op on (a, b, c). */
static uint32_t hlane(const conf_fmt *f, hop_t op, uint32_t ha, uint32_t hb, uint32_t hc, int flags)
{
    double a = hval(f, ha, flags), b = hval(f, hb, flags), c = hval(f, hc, flags), r;
    feclearexcept(FE_INEXACT);
    switch (op) {
    case H_ADD: r = a + b; break;
    case H_SUB: r = a - b; break;
    case H_MUL: r = a * b; break;
    case H_FMA: r = fma(a, b, c); break;
    case H_MIN: r = minmax(a, b, false, false); break;
    case H_MAX: r = minmax(a, b, true, false); break;
    case H_MIN_NAN: r = minmax(a, b, false, true); break;
    case H_MAX_NAN: r = minmax(a, b, true, true); break;
    case H_NEG: r = -a; break;
    default: r = fabs(a); break;
    }
    if (fetestexcept(FE_INEXACT))
        ck_abort_msg("suite bug: the double reference of this row is not exact");
    uint32_t res = conf_mf_encode(f, r, CONF_RN, false);
    if ((flags & FTZ) && is_sub(f, res)) res &= 1u << (f->ebits + f->mbits);
    if (flags & SAT) {
        double v = conf_mf_decode(f, res);
        if (isnan(v) || v <= 0.0) res = 0;
        else if (v > 1.0) res = conf_mf_encode(f, 1.0, CONF_RN, false);
    }
    if ((flags & RELU) && !conf_mf_is_nan(f, res) && signbit(conf_mf_decode(f, res))) res = 0;
    return res;
}

#define SCALAR(fname, fmt, op, flags) \
    static void fname(IN in, OUT out) { out[0] = hlane(&fmt, op, (uint32_t)in[0] & 0xffff, (uint32_t)in[1] & 0xffff, (uint32_t)in[2] & 0xffff, flags); }
#define PACKED(fname, fmt, op, flags)                                                                          \
    static void fname(IN in, OUT out)                                                                          \
    {                                                                                                          \
        uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1], c = (uint32_t)in[2];                                \
        out[0] = hlane(&fmt, op, a & 0xffff, b & 0xffff, c & 0xffff, flags) |                                  \
                 hlane(&fmt, op, a >> 16, b >> 16, c >> 16, flags) << 16;                                      \
    }

SCALAR(r_add_f16, CONF_FMT_F16, H_ADD, 0)
SCALAR(r_sub_f16, CONF_FMT_F16, H_SUB, 0)
SCALAR(r_mul_f16, CONF_FMT_F16, H_MUL, 0)
SCALAR(r_fma_f16, CONF_FMT_F16, H_FMA, 0)
SCALAR(r_add_ftz_f16, CONF_FMT_F16, H_ADD, FTZ)
SCALAR(r_mul_ftz_f16, CONF_FMT_F16, H_MUL, FTZ)
SCALAR(r_add_sat_f16, CONF_FMT_F16, H_ADD, SAT)
SCALAR(r_fma_sat_f16, CONF_FMT_F16, H_FMA, SAT)
SCALAR(r_fma_relu_f16, CONF_FMT_F16, H_FMA, RELU)
SCALAR(r_min_f16, CONF_FMT_F16, H_MIN, 0)
SCALAR(r_max_f16, CONF_FMT_F16, H_MAX, 0)
SCALAR(r_min_nan_f16, CONF_FMT_F16, H_MIN_NAN, 0)
SCALAR(r_neg_f16, CONF_FMT_F16, H_NEG, 0)
SCALAR(r_abs_f16, CONF_FMT_F16, H_ABS, 0)
PACKED(r_add_f16x2, CONF_FMT_F16, H_ADD, 0)
PACKED(r_mul_f16x2, CONF_FMT_F16, H_MUL, 0)
PACKED(r_fma_f16x2, CONF_FMT_F16, H_FMA, 0)
PACKED(r_max_f16x2, CONF_FMT_F16, H_MAX, 0)
PACKED(r_neg_f16x2, CONF_FMT_F16, H_NEG, 0)
PACKED(r_add_sat_f16x2, CONF_FMT_F16, H_ADD, SAT)
SCALAR(r_add_bf16, CONF_FMT_BF16, H_ADD, 0)
SCALAR(r_sub_bf16, CONF_FMT_BF16, H_SUB, 0)
SCALAR(r_mul_bf16, CONF_FMT_BF16, H_MUL, 0)
SCALAR(r_fma_bf16, CONF_FMT_BF16, H_FMA, 0)
SCALAR(r_min_bf16, CONF_FMT_BF16, H_MIN, 0)
SCALAR(r_max_nan_bf16, CONF_FMT_BF16, H_MAX_NAN, 0)
SCALAR(r_neg_bf16, CONF_FMT_BF16, H_NEG, 0)
SCALAR(r_abs_bf16, CONF_FMT_BF16, H_ABS, 0)
PACKED(r_add_bf16x2, CONF_FMT_BF16, H_ADD, 0)
PACKED(r_fma_bf16x2, CONF_FMT_BF16, H_FMA, 0)
PACKED(r_min_bf16x2, CONF_FMT_BF16, H_MIN, 0)
PACKED(r_abs_bf16x2, CONF_FMT_BF16, H_ABS, 0)

#define H2(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "b16", "b16" }, { "b16" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
#define H3(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0, %in1, %in2;", { "b16", "b16", "b16" }, { "b16" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
#define H1(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0;", { "b16" }, { "b16" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
#define X2(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
#define X3(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0, %in1, %in2;", { "b32", "b32", "b32" }, { "b32" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }
#define X1(var, text, fn, kind) \
    static const conf_op var = { text, text " %out0, %in0;", { "b32" }, { "b32" }, { { kind, 0, 0, 0 } }, fn, NULL, NULL }

H2(add_f16, "add.f16", r_add_f16, CONF_F16);
H2(add_rn_f16, "add.rn.f16", r_add_f16, CONF_F16);
H2(sub_f16, "sub.f16", r_sub_f16, CONF_F16);
H2(mul_f16, "mul.rn.f16", r_mul_f16, CONF_F16);
H3(fma_f16, "fma.rn.f16", r_fma_f16, CONF_F16);
H2(add_ftz_f16, "add.ftz.f16", r_add_ftz_f16, CONF_F16);
H2(mul_ftz_f16, "mul.ftz.f16", r_mul_ftz_f16, CONF_F16);
H2(add_sat_f16, "add.sat.f16", r_add_sat_f16, CONF_F16);
H3(fma_sat_f16, "fma.rn.sat.f16", r_fma_sat_f16, CONF_F16);
H3(fma_relu_f16, "fma.rn.relu.f16", r_fma_relu_f16, CONF_F16);
H2(min_f16, "min.f16", r_min_f16, CONF_F16);
H2(max_f16, "max.f16", r_max_f16, CONF_F16);
H2(min_nan_f16, "min.NaN.f16", r_min_nan_f16, CONF_F16);
H1(neg_f16, "neg.f16", r_neg_f16, CONF_F16);
H1(abs_f16, "abs.f16", r_abs_f16, CONF_F16);
X2(add_f16x2, "add.f16x2", r_add_f16x2, CONF_F16X2);
X2(mul_f16x2, "mul.f16x2", r_mul_f16x2, CONF_F16X2);
X3(fma_f16x2, "fma.rn.f16x2", r_fma_f16x2, CONF_F16X2);
X2(max_f16x2, "max.f16x2", r_max_f16x2, CONF_F16X2);
X1(neg_f16x2, "neg.f16x2", r_neg_f16x2, CONF_F16X2);
X2(add_sat_f16x2, "add.sat.f16x2", r_add_sat_f16x2, CONF_F16X2);
H2(add_bf16, "add.rn.bf16", r_add_bf16, CONF_BF16);
H2(sub_bf16, "sub.bf16", r_sub_bf16, CONF_BF16);
H2(mul_bf16, "mul.rn.bf16", r_mul_bf16, CONF_BF16);
H3(fma_bf16, "fma.rn.bf16", r_fma_bf16, CONF_BF16);
H2(min_bf16, "min.bf16", r_min_bf16, CONF_BF16);
H2(max_nan_bf16, "max.NaN.bf16", r_max_nan_bf16, CONF_BF16);
H1(neg_bf16, "neg.bf16", r_neg_bf16, CONF_BF16);
H1(abs_bf16, "abs.bf16", r_abs_bf16, CONF_BF16);
X2(add_bf16x2, "add.rn.bf16x2", r_add_bf16x2, CONF_BF16X2);
X3(fma_bf16x2, "fma.rn.bf16x2", r_fma_bf16x2, CONF_BF16X2);
X2(min_bf16x2, "min.bf16x2", r_min_bf16x2, CONF_BF16X2);
X1(abs_bf16x2, "abs.bf16x2", r_abs_bf16x2, CONF_BF16X2);

/* f16 values */
#define HONE 0x3c00
#define HTWO 0x4000
#define HHALF 0x3800
#define HMONE 0xbc00
#define HONEP 0x3c01
#define HE11 0x1000     /* 2^-11: half an ulp of 1 */
#define HMAX 0x7bff
#define H16 0x4c00
#define HINF 0x7c00
#define HMINF 0xfc00
#define HNAN 0x7e00
#define HMZ 0x8000
#define HDEN 0x0001
#define HDENMAX 0x03ff
#define HMIN 0x0400
#define HTHIRD 0x3555
#define HTENTH 0x2e66
#define HTHREE 0x4200
#define HTQ 0x3a00

static const conf_case c_h2[] = {
    I2(HONE, HTWO), I2(HONE, HE11), I2(HONEP, HE11), I2(HMAX, H16), I2(HMAX, HMAX), I2(HONE, HMONE), I2(HMZ, HMZ),
    I2(HMZ, 0), I2(HINF, HMINF), I2(HNAN, HONE), I2(HDEN, HDEN), I2(HDENMAX, HDEN), I2(HMIN, 0x8001), I2(HTHIRD, HTENTH),
    I2(HTHREE, HTHIRD), I2(HTQ, HHALF), I2(HINF, HONE),
};
/* without -0 + -0: whether .sat turns -0.0 into +0.0 is not spelled out by the ISA */
static const conf_case c_h2_sat[] = {
    I2(HONE, HTWO), I2(HTQ, HHALF), I2(HMONE, HHALF), I2(HNAN, HONE), I2(HINF, HMINF), I2(HTHIRD, HTENTH), I2(HDEN, HDEN),
    I2(HMAX, H16), I2(HMZ, 0),
};
static const conf_case c_h2_isa[] = {
    /* 1 + 2^-11 is a tie and rounds to even; 65504 + 16 = 65520 rounds to Inf */
    E2(HONE, HE11, HONE), E2(HONEP, HE11, 0x3c02), E2(HMAX, H16, HINF),
};
static const conf_case c_h3[] = {
    I3(HONE, HONE, HE11), I3(HTHREE, HTHIRD, HMONE), I3(HTWO, HTWO, HMONE), I3(HINF, 0, HONE), I3(HMAX, HTWO, 0xfbff),
    I3(HDEN, HHALF, 0), I3(HTENTH, HTENTH, HMZ), I3(HMZ, HONE, 0), I3(HNAN, HONE, HONE), I3(0x3c01, 0x3c01, 0xbc02),
    I3(HTQ, HHALF, HHALF), I3(HHALF, HHALF, HMONE),
};
static const conf_case c_h3_isa[] = {
    /* (2^-6 (1 + 2^-9)) (2^-6 (2 - 2^-8)) + (1 + 2^-10) = 1 + 2^-10 + 2^-11 - 2^-29: below a tie,
     * so 0x3c01. An fma done in f32 first rounds to the tie, then to even (0x3c02). */
    E3(0x2402, 0x27fc, 0x3c01, 0x3c01),
};
static const conf_case c_h1[] = { I1(HONE), I1(HMONE), I1(0), I1(HMZ), I1(HINF), I1(HMINF), I1(HDEN), I1(0x8001), I1(HNAN), I1(0xfe00) };
static const conf_case c_hmm[] = {
    I2(HONE, HTWO), I2(HTWO, HONE), I2(HMONE, HONE), I2(0, HMZ), I2(HMZ, 0), I2(HNAN, HONE), I2(HONE, HNAN), I2(HNAN, HNAN),
    I2(HINF, HMINF), I2(HDEN, 0x8001),
};
static const conf_case c_x2[] = {
    I3(0x3c004000, 0x40003c00, 0x38003800), I3(0x3c011000, 0x10003c01, 0), I3(0x7bff7c00, 0x4c00fc00, 0x3c003c00),
    I3(0x7e00bc00, 0x3c003c00, 0x80000000), I3(0x00010400, 0x00018001, 0x3c00bc00), I3(0x3a003555, 0x38004200, 0xbc00bc00),
};
static const conf_case c_x2_isa[] = { E2(0x3c004000, 0x40003c00, 0x42004200) /* both halves 3.0 */ };

/* bf16 values */
#define BONE 0x3f80
#define BTWO 0x4000
#define BMONE 0xbf80
#define BE8 0x3b80      /* 2^-8: half an ulp of 1 */
#define BONEP 0x3f81
#define BMAX 0x7f7f
#define BINF 0x7f80
#define BMINF 0xff80
#define BNAN 0x7fc0
#define BMZ 0x8000
#define BDEN 0x0001
#define BTENTH 0x3dcd
#define BTHREE 0x4040
static const conf_case c_b2[] = {
    I2(BONE, BTWO), I2(BONE, BE8), I2(BONEP, BE8), I2(BONE, BMONE), I2(BMZ, BMZ), I2(BINF, BMINF), I2(BNAN, BONE),
    I2(BDEN, BDEN), I2(BTENTH, BTHREE), I2(BMAX, 0x7380), I2(0x0080, 0x8001),
};
static const conf_case c_b2_isa[] = { E2(BONE, BE8, BONE), E2(BONEP, BE8, 0x3f82) };
static const conf_case c_b3[] = {
    I3(BONE, BONE, BE8), I3(BTHREE, BTENTH, BMONE), I3(BINF, 0, BONE), I3(BONEP, BONEP, 0xbf82), I3(BTENTH, BTENTH, BMZ),
    I3(BNAN, BONE, BONE), I3(BDEN, 0x3f00, 0),
};
static const conf_case c_b1[] = { I1(BONE), I1(BMONE), I1(0), I1(BMZ), I1(BINF), I1(BDEN), I1(BNAN) };
static const conf_case c_bmm[] = { I2(BONE, BTWO), I2(BMONE, BONE), I2(0, BMZ), I2(BMZ, 0), I2(BNAN, BONE), I2(BONE, BNAN), I2(BNAN, BNAN) };
static const conf_case c_bx2[] = {
    I3(0x3f804000, 0x40003f80, 0x3f003f00), I3(0x3f813b80, 0x3b803f81, 0), I3(0x7fc0bf80, 0x3f803f80, 0x80000000),
    I3(0x7f803f80, 0xff804000, 0x3f803f80), I3(0x00013f00, 0x80013f00, 0x00003f80),
};

/* setp on halves */
typedef enum { EQ, LT, GE, NE, GTU, NANC } hcmp_t;
static bool hcmp(hcmp_t c, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (c) {
    case EQ: return a == b;
    case LT: return a < b;
    case GE: return a >= b;
    case NE: return !un && a != b;
    case GTU: return un || a > b;
    default: return un;
    }
}
#define HSETP(var, text, fmt, c, ftz)                                                              \
    static void r_##var(IN in, OUT out)                                                            \
    {                                                                                              \
        out[0] = hcmp(c, hval(&fmt, (uint32_t)in[0] & 0xffff, ftz), hval(&fmt, (uint32_t)in[1] & 0xffff, ftz)); \
    }                                                                                              \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "b16", "b16" }, { "pred" }, { { 0 } }, r_##var, NULL, NULL }
#define XSETP(var, text, fmt, c)                                                                   \
    static void r_##var(IN in, OUT out)                                                            \
    {                                                                                              \
        uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];                                         \
        out[0] = hcmp(c, hval(&fmt, a & 0xffff, 0), hval(&fmt, b & 0xffff, 0));                     \
        out[1] = hcmp(c, hval(&fmt, a >> 16, 0), hval(&fmt, b >> 16, 0));                           \
    }                                                                                              \
    static const conf_op var = { text, text " %out0|%out1, %in0, %in1;", { "b32", "b32" }, { "pred", "pred" }, { { 0 } }, r_##var, NULL, NULL }
HSETP(setp_lt_f16, "setp.lt.f16", CONF_FMT_F16, LT, 0);
HSETP(setp_eq_f16, "setp.eq.f16", CONF_FMT_F16, EQ, 0);
HSETP(setp_eq_ftz_f16, "setp.eq.ftz.f16", CONF_FMT_F16, EQ, FTZ);
HSETP(setp_gtu_f16, "setp.gtu.f16", CONF_FMT_F16, GTU, 0);
HSETP(setp_ge_bf16, "setp.ge.bf16", CONF_FMT_BF16, GE, 0);
HSETP(setp_ne_bf16, "setp.ne.bf16", CONF_FMT_BF16, NE, 0);
XSETP(setp_lt_f16x2, "setp.lt.f16x2", CONF_FMT_F16, LT);
XSETP(setp_nan_f16x2, "setp.nan.f16x2", CONF_FMT_F16, NANC);
XSETP(setp_eq_bf16x2, "setp.eq.bf16x2", CONF_FMT_BF16, EQ);
static const conf_case c_hsetp[] = {
    I2(HONE, HTWO), I2(HTWO, HONE), I2(HONE, HONE), I2(0, HMZ), I2(HNAN, HONE), I2(HINF, HINF), I2(HDEN, 0), I2(HMINF, HMZ),
};
static const conf_case c_bsetp[] = { I2(BONE, BTWO), I2(BTWO, BONE), I2(BONE, BONE), I2(0, BMZ), I2(BNAN, BONE), I2(BDEN, 0) };
static const conf_case c_xsetp[] = {
    I2(0x3c004000, 0x40003c00), I2(0x7e003c00, 0x3c007e00), I2(0x00008000, 0x80000000), I2(0x7c00fc00, 0x7c00fc00),
};
static const conf_case c_bxsetp[] = { I2(0x3f804000, 0x40003f80), I2(0x7fc03f80, 0x3f807fc0), I2(0x00008000, 0x80000000) };
static const conf_case c_xsetp_isa[] = {
    /* p compares the low halves (2 < 1: false), q the high halves (1 < 2: true) */
    { { 0x3c004000, 0x40003c00 }, { 0, 1 }, true },
};

/* set on halves (PTX ISA, "Half Precision Comparison Instructions: set"): a .f16/.bf16 dtype gets
 * 1.0 in its format (0x3C00, 0x3F80) or 0; a .u16/.s16/.u32/.s32 dtype all ones or 0; an
 * .f16x2/.bf16x2 stype compares each half, and each true half is 1.0 in an .f16x2/.bf16x2 dtype
 * and 0xFFFF in a .u32/.s32 one. The boolean c is combined with every half. */
enum { SET_F16ONE = 0x3c00, SET_BF16ONE = 0x3f80 };
#define HSET(var, text, fmt, c, ftz, one, dreg)                                                    \
    static void r_##var(IN in, OUT out)                                                            \
    {                                                                                              \
        out[0] = hcmp(c, hval(&fmt, (uint32_t)in[0] & 0xffff, ftz), hval(&fmt, (uint32_t)in[1] & 0xffff, ftz)) ? (one) : 0; \
    }                                                                                              \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "b16", "b16" }, { dreg }, { { 0 } }, r_##var, NULL, NULL }
#define XSET(var, text, fmt, c, ftz, one, body, bool_and)                                          \
    static void r_##var(IN in, OUT out)                                                            \
    {                                                                                              \
        uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];                                         \
        bool lo = hcmp(c, hval(&fmt, a & 0xffff, ftz), hval(&fmt, b & 0xffff, ftz));               \
        bool hi = hcmp(c, hval(&fmt, a >> 16, ftz), hval(&fmt, b >> 16, ftz));                     \
        if (bool_and) { lo = lo && in[2]; hi = hi && in[2]; }                                      \
        out[0] = (lo ? (uint32_t)(one) : 0) | (hi ? (uint32_t)(one) << 16 : 0);                    \
    }                                                                                              \
    static const conf_op var = { text, body, { "b32", "b32", "pred" }, { "b32" }, { { 0 } }, r_##var, NULL, NULL }
HSET(set_lt_f16_f16, "set.lt.f16.f16", CONF_FMT_F16, LT, 0, SET_F16ONE, "b16");
HSET(set_eq_ftz_f16_f16, "set.eq.ftz.f16.f16", CONF_FMT_F16, EQ, FTZ, SET_F16ONE, "b16");
HSET(set_gtu_u32_f16, "set.gtu.u32.f16", CONF_FMT_F16, GTU, 0, 0xffffffffu, "u32");
HSET(set_ne_u16_f16, "set.ne.u16.f16", CONF_FMT_F16, NE, 0, 0xffff, "u16");
HSET(set_ge_bf16_bf16, "set.ge.bf16.bf16", CONF_FMT_BF16, GE, 0, SET_BF16ONE, "b16");
HSET(set_eq_s32_bf16, "set.eq.s32.bf16", CONF_FMT_BF16, EQ, 0, 0xffffffffu, "s32");
XSET(set_lt_f16x2_f16x2, "set.lt.f16x2.f16x2", CONF_FMT_F16, LT, 0, SET_F16ONE,
     "set.lt.f16x2.f16x2 %out0, %in0, %in1;", 0);
XSET(set_nan_u32_f16x2, "set.nan.u32.f16x2", CONF_FMT_F16, NANC, 0, 0xffff,
     "set.nan.u32.f16x2 %out0, %in0, %in1;", 0);
XSET(set_eq_ftz_s32_f16x2, "set.eq.ftz.s32.f16x2", CONF_FMT_F16, EQ, FTZ, 0xffff,
     "set.eq.ftz.s32.f16x2 %out0, %in0, %in1;", 0);
XSET(set_gtu_and_f16x2, "set.gtu.and.f16x2.f16x2", CONF_FMT_F16, GTU, 0, SET_F16ONE,
     "set.gtu.and.f16x2.f16x2 %out0, %in0, %in1, %in2;", 1);
XSET(set_eq_bf16x2_bf16x2, "set.eq.bf16x2.bf16x2", CONF_FMT_BF16, EQ, 0, SET_BF16ONE,
     "set.eq.bf16x2.bf16x2 %out0, %in0, %in1;", 0);
XSET(set_lt_u32_bf16x2, "set.lt.u32.bf16x2", CONF_FMT_BF16, LT, 0, 0xffff,
     "set.lt.u32.bf16x2 %out0, %in0, %in1;", 0);
static const conf_case c_xset[] = {
    I3(0x3c004000, 0x40003c00, 1), I3(0x7e003c00, 0x3c007e00, 1), I3(0x00008000, 0x80000000, 0),
    I3(0x7c00fc00, 0x7c00fc00, 1), I3(0x00010001, 0x00000000, 1), I3(0x83ff03ff, 0x00008000, 1),
    I3(0x3c003c00, 0x3c003c00, 0),
};
static const conf_case c_bxset[] = {
    I3(0x3f804000, 0x40003f80, 1), I3(0x7fc03f80, 0x3f807fc0, 1), I3(0x00008000, 0x80000000, 1),
    I3(0x3f803f80, 0x3f803f80, 0),
};
static const conf_case c_xset_isa[] = {
    /* 2 < 1 false in the low half, 1 < 2 true in the high half: 1.0 above, 0 below */
    { { 0x3c004000, 0x40003c00, 1 }, { 0x3c000000 }, true },
};
static const conf_case c_hset_isa[] = { { { 0x3c00, 0x4000 }, { 0x3c00 }, true } /* 1 < 2 */ };

static const conf_table tables[] = {
    CONF_TABLE(add_f16, c_h2), CONF_TABLE(add_f16, c_h2_isa), CONF_TABLE(add_rn_f16, c_h2), CONF_TABLE(sub_f16, c_h2),
    CONF_TABLE(mul_f16, c_h2), CONF_TABLE(fma_f16, c_h3), CONF_TABLE(fma_f16, c_h3_isa), CONF_TABLE(add_ftz_f16, c_h2), CONF_TABLE(mul_ftz_f16, c_h2),
    CONF_TABLE(add_sat_f16, c_h2_sat), CONF_TABLE(fma_sat_f16, c_h3), CONF_TABLE(fma_relu_f16, c_h3),
    CONF_TABLE(min_f16, c_hmm), CONF_TABLE(max_f16, c_hmm), CONF_TABLE(min_nan_f16, c_hmm),
    CONF_TABLE(neg_f16, c_h1), CONF_TABLE(abs_f16, c_h1),
    CONF_TABLE(add_f16x2, c_x2), CONF_TABLE(add_f16x2, c_x2_isa), CONF_TABLE(mul_f16x2, c_x2), CONF_TABLE(fma_f16x2, c_x2),
    CONF_TABLE(max_f16x2, c_x2), CONF_TABLE(neg_f16x2, c_x2), CONF_TABLE(add_sat_f16x2, c_x2),
    CONF_TABLE(add_bf16, c_b2), CONF_TABLE(add_bf16, c_b2_isa), CONF_TABLE(sub_bf16, c_b2), CONF_TABLE(mul_bf16, c_b2),
    CONF_TABLE(fma_bf16, c_b3), CONF_TABLE(min_bf16, c_bmm), CONF_TABLE(max_nan_bf16, c_bmm), CONF_TABLE(neg_bf16, c_b1),
    CONF_TABLE(abs_bf16, c_b1), CONF_TABLE(add_bf16x2, c_bx2), CONF_TABLE(fma_bf16x2, c_bx2), CONF_TABLE(min_bf16x2, c_bx2),
    CONF_TABLE(abs_bf16x2, c_bx2),
    CONF_TABLE(setp_lt_f16, c_hsetp), CONF_TABLE(setp_eq_f16, c_hsetp), CONF_TABLE(setp_eq_ftz_f16, c_hsetp),
    CONF_TABLE(setp_gtu_f16, c_hsetp), CONF_TABLE(setp_ge_bf16, c_bsetp), CONF_TABLE(setp_ne_bf16, c_bsetp),
    CONF_TABLE(setp_lt_f16x2, c_xsetp), CONF_TABLE(setp_lt_f16x2, c_xsetp_isa), CONF_TABLE(setp_nan_f16x2, c_xsetp),
    CONF_TABLE(setp_eq_bf16x2, c_bxsetp),
    CONF_TABLE(set_lt_f16_f16, c_hsetp), CONF_TABLE(set_lt_f16_f16, c_hset_isa),
    CONF_TABLE(set_eq_ftz_f16_f16, c_hsetp), CONF_TABLE(set_gtu_u32_f16, c_hsetp),
    CONF_TABLE(set_ne_u16_f16, c_hsetp), CONF_TABLE(set_ge_bf16_bf16, c_bsetp),
    CONF_TABLE(set_eq_s32_bf16, c_bsetp), CONF_TABLE(set_lt_f16x2_f16x2, c_xset),
    CONF_TABLE(set_lt_f16x2_f16x2, c_xset_isa), CONF_TABLE(set_nan_u32_f16x2, c_xset),
    CONF_TABLE(set_eq_ftz_s32_f16x2, c_xset), CONF_TABLE(set_gtu_and_f16x2, c_xset),
    CONF_TABLE(set_eq_bf16x2_bf16x2, c_bxset), CONF_TABLE(set_lt_u32_bf16x2, c_bxset),
};

START_TEST(half_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_half");
    conf_add_tables(s, tables, CONF_N(tables), half_row);
    return conf_main(s);
}
