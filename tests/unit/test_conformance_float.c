/* test_conformance_float.c: PTX f32/f64 arithmetic against the PTX ISA (section 9.7.3).
 *
 * add/sub/mul/fma/mad with .rn/.rz/.rm/.rp, .ftz and .sat; div (.rn..rp IEEE, .full and
 * .approx within their stated error); rcp, sqrt (IEEE and .approx), rsqrt; sin/cos/lg2/ex2/
 * tanh .approx within their bounds and with the ISA's tables of special values; min/max (NaN
 * handling, .NaN, -0 < +0, .ftz, .xorsign.abs); abs/neg on -0, subnormals and NaN; copysign;
 * testp.
 *
 * Expected values: IEEE-754 arithmetic on the host in the requested rounding mode (fesetround;
 * fmaf/fma for fused operations), with the ISA's rules applied explicitly: .ftz flushes
 * subnormal inputs and results to sign-preserving zero, .sat clamps to [0, 1] with NaN -> +0.
 * The ISA leaves single-precision NaN payloads unspecified, so a NaN expectation accepts any
 * NaN. Approximate instructions are compared with the ISA's bound against the correctly rounded
 * value, widened by half an ulp (the rounding of the reference itself):
 *   rcp.approx.f32 1 ulp; ex2.approx 2 ulp; div.approx.f32 2 ulp for |b| in [2^-126, 2^126];
 *   div.full.f32 2 ulp; sqrt.approx.f32 rel 2^-23; rsqrt.approx.f32 rel 2^-22.9;
 *   sin/cos.approx abs 2^-20.5 on [-2pi, 2pi]; lg2.approx abs 2^-22 on (0.5, 2), else rel 2^-22;
 *   tanh.approx rel 2^-11.
 */
#include "tests/unit/conformance_harness.h"

#include <float.h>
#include <math.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;

#define F(x) conf_f32(x)
#define D(x) conf_f64(x)

/* f32 constants */
#define ONE 0x3f800000u
#define MONE 0xbf800000u
#define TWO 0x40000000u
#define THREE 0x40400000u
#define HALF 0x3f000000u
#define MHALF 0xbf000000u
#define QUART 0x3e800000u
#define THQ 0x3f400000u     /* 0.75 */
#define ONEP 0x3f800001u    /* 1 + 2^-23 */
#define ONEP2 0x3f800002u
#define ONEM 0x3f7fffffu    /* 1 - 2^-24 */
#define E24 0x33800000u     /* 2^-24: half an ulp of 1 */
#define E24X3 0x33c00000u   /* 1.5 * 2^-24 */
#define ME24 0xb3800000u
#define P20 0x49800000u     /* 2^20 */
#define TENTH 0x3dcccccdu
#define FIFTH 0x3e4ccccdu
#define THIRD 0x3eaaaaabu
#define FMAX 0x7f7fffffu
#define MFMAX 0xff7fffffu
#define FMIN 0x00800000u
#define FMINP 0x00800001u
#define DEN 0x00000001u
#define DEN2 0x00400000u
#define MDEN 0x80000001u
#define MDEN2 0x80400000u
#define E1M20 0x1e3ce508u   /* ~1e-20 */
#define E30 0x7149f2cau     /* ~1e30 */
#define INF 0x7f800000u
#define MINF 0xff800000u
#define QNAN 0x7fc00000u
#define MZERO 0x80000000u
#define PZERO 0x00000000u

/* f64 constants */
#define DONE 0x3ff0000000000000ull
#define DMONE 0xbff0000000000000ull
#define DTHREE 0x4008000000000000ull
#define DHALF 0x3fe0000000000000ull
#define DE53 0x3ca0000000000000ull  /* 2^-53 */
#define DE53X3 0x3ca8000000000000ull
#define DONEP 0x3ff0000000000001ull
#define DONEM 0x3fefffffffffffffull
#define DTENTH 0x3fb999999999999aull
#define DFIFTH 0x3fc999999999999aull
#define DMAX 0x7fefffffffffffffull
#define DDEN 0x0000000000000001ull
#define DMIN 0x0010000000000000ull
#define DINF 0x7ff0000000000000ull
#define DMINF 0xfff0000000000000ull
#define DNAN 0x7ff8000000000000ull
#define DMZERO 0x8000000000000000ull

#define CMP32 { CONF_F32, 0, 0, 0 }
#define CMP64 { CONF_F64, 0, 0, 0 }

static float ftz_if(float x, bool ftz) { return ftz ? conf_ftz32(x) : x; }

/* ---------------------------------------------------------------- add / sub / mul / fma */

static float sub32(float a, float b, conf_rnd r) { return conf_add32(a, -b, r); }
static double sub64(double a, double b, conf_rnd r) { return conf_add64(a, -b, r); }

#define BIN32(fname, fn, rnd, ftz, sat)                                          \
    static void fname(IN in, OUT out)                                            \
    {                                                                            \
        float a = ftz_if(F(in[0]), ftz), b = ftz_if(F(in[1]), ftz);              \
        float r = ftz_if(fn(a, b, rnd), ftz);                                    \
        out[0] = conf_b32(sat ? conf_sat32(r) : r);                              \
    }
#define FMA32(fname, rnd, ftz, sat)                                              \
    static void fname(IN in, OUT out)                                            \
    {                                                                            \
        float a = ftz_if(F(in[0]), ftz), b = ftz_if(F(in[1]), ftz), c = ftz_if(F(in[2]), ftz); \
        float r = ftz_if(conf_fma32(a, b, c, rnd), ftz);                         \
        out[0] = conf_b32(sat ? conf_sat32(r) : r);                              \
    }
#define BIN64(fname, fn, rnd) \
    static void fname(IN in, OUT out) { out[0] = conf_b64(fn(D(in[0]), D(in[1]), rnd)); }

BIN32(r_add_rn, conf_add32, CONF_RN, false, false)
BIN32(r_add_rz, conf_add32, CONF_RZ, false, false)
BIN32(r_add_rm, conf_add32, CONF_RM, false, false)
BIN32(r_add_rp, conf_add32, CONF_RP, false, false)
BIN32(r_add_ftz, conf_add32, CONF_RN, true, false)
BIN32(r_add_sat, conf_add32, CONF_RN, false, true)
BIN32(r_sub_rn, sub32, CONF_RN, false, false)
BIN32(r_sub_rm, sub32, CONF_RM, false, false)
BIN32(r_sub_ftz, sub32, CONF_RN, true, false)
BIN32(r_mul_rn, conf_mul32, CONF_RN, false, false)
BIN32(r_mul_rz, conf_mul32, CONF_RZ, false, false)
BIN32(r_mul_rm, conf_mul32, CONF_RM, false, false)
BIN32(r_mul_rp, conf_mul32, CONF_RP, false, false)
BIN32(r_mul_ftz, conf_mul32, CONF_RN, true, false)
BIN32(r_mul_sat, conf_mul32, CONF_RN, false, true)
FMA32(r_fma_rn, CONF_RN, false, false)
FMA32(r_fma_rz, CONF_RZ, false, false)
FMA32(r_fma_rm, CONF_RM, false, false)
FMA32(r_fma_rp, CONF_RP, false, false)
FMA32(r_fma_ftz, CONF_RN, true, false)
FMA32(r_fma_sat, CONF_RN, false, true)
BIN64(r_dadd_rn, conf_add64, CONF_RN)
BIN64(r_dadd_rz, conf_add64, CONF_RZ)
BIN64(r_dadd_rm, conf_add64, CONF_RM)
BIN64(r_dadd_rp, conf_add64, CONF_RP)
BIN64(r_dsub_rn, sub64, CONF_RN)
BIN64(r_dmul_rn, conf_mul64, CONF_RN)
BIN64(r_dmul_rm, conf_mul64, CONF_RM)
BIN64(r_dmul_rp, conf_mul64, CONF_RP)
static void r_dfma_rn(IN in, OUT out) { out[0] = conf_b64(conf_fma64(D(in[0]), D(in[1]), D(in[2]), CONF_RN)); }
static void r_dfma_rz(IN in, OUT out) { out[0] = conf_b64(conf_fma64(D(in[0]), D(in[1]), D(in[2]), CONF_RZ)); }
static void r_dfma_rp(IN in, OUT out) { out[0] = conf_b64(conf_fma64(D(in[0]), D(in[1]), D(in[2]), CONF_RP)); }

#define OP2(var, text, fn) \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "f32", "f32" }, { "f32" }, { CMP32 }, fn, NULL, NULL }
#define OP3(var, text, fn) \
    static const conf_op var = { text, text " %out0, %in0, %in1, %in2;", { "f32", "f32", "f32" }, { "f32" }, { CMP32 }, fn, NULL, NULL }
#define DOP2(var, text, fn) \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { "f64", "f64" }, { "f64" }, { CMP64 }, fn, NULL, NULL }
#define DOP3(var, text, fn) \
    static const conf_op var = { text, text " %out0, %in0, %in1, %in2;", { "f64", "f64", "f64" }, { "f64" }, { CMP64 }, fn, NULL, NULL }

OP2(op_add, "add.f32", r_add_rn);
OP2(op_add_rn, "add.rn.f32", r_add_rn);
OP2(op_add_rz, "add.rz.f32", r_add_rz);
OP2(op_add_rm, "add.rm.f32", r_add_rm);
OP2(op_add_rp, "add.rp.f32", r_add_rp);
OP2(op_add_ftz, "add.ftz.f32", r_add_ftz);
OP2(op_add_sat, "add.sat.f32", r_add_sat);
OP2(op_sub_rn, "sub.rn.f32", r_sub_rn);
OP2(op_sub_rm, "sub.rm.f32", r_sub_rm);
OP2(op_sub_ftz, "sub.rn.ftz.f32", r_sub_ftz);
OP2(op_mul_rn, "mul.rn.f32", r_mul_rn);
OP2(op_mul_rz, "mul.rz.f32", r_mul_rz);
OP2(op_mul_rm, "mul.rm.f32", r_mul_rm);
OP2(op_mul_rp, "mul.rp.f32", r_mul_rp);
OP2(op_mul_ftz, "mul.ftz.f32", r_mul_ftz);
OP2(op_mul_sat, "mul.sat.f32", r_mul_sat);
OP3(op_fma_rn, "fma.rn.f32", r_fma_rn);
OP3(op_fma_rz, "fma.rz.f32", r_fma_rz);
OP3(op_fma_rm, "fma.rm.f32", r_fma_rm);
OP3(op_fma_rp, "fma.rp.f32", r_fma_rp);
OP3(op_fma_ftz, "fma.rn.ftz.f32", r_fma_ftz);
OP3(op_fma_sat, "fma.rn.sat.f32", r_fma_sat);
OP3(op_mad_rn, "mad.rn.f32", r_fma_rn);
OP3(op_mad_rz, "mad.rz.f32", r_fma_rz);
DOP2(op_dadd_rn, "add.rn.f64", r_dadd_rn);
DOP2(op_dadd_rz, "add.rz.f64", r_dadd_rz);
DOP2(op_dadd_rm, "add.rm.f64", r_dadd_rm);
DOP2(op_dadd_rp, "add.rp.f64", r_dadd_rp);
DOP2(op_dsub_rn, "sub.f64", r_dsub_rn);
DOP2(op_dmul_rn, "mul.rn.f64", r_dmul_rn);
DOP2(op_dmul_rm, "mul.rm.f64", r_dmul_rm);
DOP2(op_dmul_rp, "mul.rp.f64", r_dmul_rp);
DOP3(op_dfma_rn, "fma.rn.f64", r_dfma_rn);
DOP3(op_dfma_rz, "fma.rz.f64", r_dfma_rz);
DOP3(op_dfma_rp, "fma.rp.f64", r_dfma_rp);
DOP3(op_dmad_rn, "mad.rn.f64", r_dfma_rn);

static const conf_case c_add[] = {
    I2(ONE, E24), I2(ONE, E24X3), I2(MONE, ME24), I2(ONEP, E24), I2(TENTH, FIFTH), I2(ONE, MONE),
    I2(MZERO, MZERO), I2(MZERO, PZERO), I2(FMAX, FMAX), I2(MFMAX, MFMAX), I2(INF, MINF), I2(QNAN, ONE),
    I2(INF, ONE), I2(DEN, DEN), I2(FMINP, 0x80800000u), I2(THIRD, THREE), I2(E30, MONE),
};
static const conf_case c_add_sat[] = {
    I2(THQ, HALF), I2(MHALF, QUART), I2(HALF, QUART), I2(QNAN, ONE), I2(INF, MINF), I2(INF, ONE), I2(MINF, ONE),
    I2(DEN, PZERO), I2(MZERO, MZERO),
};
/* .sat clamps to [+0.0, 1.0] (the CUDA __saturatef's interval): a -0 result gives +0 */
static const conf_case c_add_sat_isa[] = { E2(MZERO, MZERO, PZERO) };
static const conf_case c_add_isa[] = {
    /* ties to even at 1 + 2^-24; x + (-x) is +0 in round-to-nearest */
    E2(ONE, E24, ONE), E2(HALF, MHALF, PZERO), E2(MZERO, MZERO, MZERO),
};
static const conf_case c_mul[] = {
    I2(THREE, THIRD), I2(ONEP, ONEM), I2(ONEP, ONEP), I2(FMAX, TWO), I2(MFMAX, TWO), I2(PZERO, INF),
    I2(MZERO, THREE), I2(DEN, P20), I2(E1M20, E1M20), I2(TENTH, TENTH), I2(QNAN, PZERO), I2(MDEN, HALF),
    I2(FMIN, HALF), I2(0x3fffffffu, 0x3fffffffu),
};
static const conf_case c_mul_sat[] = { I2(THQ, TWO), I2(MHALF, HALF), I2(HALF, HALF), I2(QNAN, ONE), I2(INF, PZERO), I2(MZERO, THREE) };
static const conf_case c_mul_sat_isa[] = { E2(MZERO, THREE, PZERO) };
static const conf_case c_fma[] = {
    I3(ONEP, ONEP, 0xbf800002u), /* exact 2^-46: only a fused operation gets it */
    I3(ONE, ONE, E24), I3(ONE, ONE, E24X3), I3(MONE, ONE, ME24), I3(THIRD, THREE, MONE), I3(INF, PZERO, ONE),
    I3(INF, ONE, MINF), I3(FMAX, TWO, MFMAX), I3(DEN, HALF, PZERO), I3(TENTH, TENTH, MZERO), I3(MZERO, ONE, PZERO),
    I3(MZERO, ONE, MZERO), I3(E1M20, E1M20, PZERO), I3(QNAN, ONE, ONE), I3(0x40490fdbu, 0x3eaaaaabu, 0xbf860a92u),
};
static const conf_case c_fma_isa[] = {
    E3(ONEP, ONEP, 0xbf800002u, 0x28800000u),
    /* (2^-12 (1 + 2^-18)) (2^-12 (1 - 2^-18)) + (1 + 2^-23) = 1 + 2^-23 + 2^-24 - 2^-60: just
     * below a tie, so 0x3f800001; computing in double first rounds to the tie and then to even
     * (0x3f800002), the classic double-rounding error of an emulated fma */
    E3(0x39800020u, 0x397fffc0u, ONEP, 0x3f800001u),
};
/* the same operands under the directed modes */
static const conf_case c_fma_dr[] = { I3(0x39800020u, 0x397fffc0u, ONEP), I3(0xb9800020u, 0x397fffc0u, 0xbf800001u) };
static const conf_case c_fma_sat[] = { I3(THQ, TWO, MHALF), I3(HALF, HALF, MONE), I3(HALF, HALF, HALF), I3(INF, PZERO, ONE), I3(ONE, ONE, ONE), I3(MZERO, ONE, MZERO) };
static const conf_case c_fma_sat_isa[] = { E3(MZERO, ONE, MZERO, PZERO) };
static const conf_case c_ftz[] = {
    /* subnormal inputs count as zero and subnormal results become zero, keeping the sign */
    I2(DEN, DEN), I2(MDEN, PZERO), I2(DEN2, FMIN), I2(FMINP, 0x80800000u), I2(0x80800001u, FMIN),
    I2(MDEN2, MDEN2), I2(DEN, ONE), I2(ONE, TWO),
};
static const conf_case c_mul_ftz[] = {
    I2(DEN, P20), I2(FMIN, HALF), I2(0x80800000u, HALF), I2(DEN2, ONE), I2(MDEN, MONE), I2(THREE, THIRD),
};
static const conf_case c_fma_ftz[] = {
    I3(DEN, ONE, PZERO), I3(FMIN, HALF, PZERO), I3(ONE, ONE, DEN), I3(0x80800000u, HALF, MZERO), I3(TWO, THREE, ONE),
    I3(ONE, FMIN, 0x80800000u),
};
static const conf_case c_dadd[] = {
    I2(DONE, DE53), I2(DONE, DE53X3), I2(DMONE, DE53 | DMZERO), I2(DTENTH, DFIFTH), I2(DONE, DMONE), I2(DMAX, DMAX),
    I2(DMZERO, DMZERO), I2(DMZERO, 0), I2(DINF, DMINF), I2(DNAN, DONE), I2(DDEN, DDEN), I2(DMIN | DDEN, DMIN | DMZERO),
};
static const conf_case c_dmul[] = {
    I2(DTHREE, 0x3fd5555555555555ull), I2(DONEP, DONEM), I2(DONEP, DONEP), I2(DMAX, 0x4000000000000000ull),
    I2(0, DINF), I2(DMZERO, DTHREE), I2(DDEN, DHALF), I2(DTENTH, DTENTH), I2(0x0000000000000003ull, DHALF),
};
static const conf_case c_dfma[] = {
    I3(DONEP, DONEP, 0xbff0000000000002ull), I3(DONE, DONE, DE53), I3(DTENTH, DTENTH, DMZERO), I3(DINF, 0, DONE),
    I3(0x400921fb54442d18ull, 0x3fd5555555555555ull, DMONE), I3(DMZERO, DONE, 0),
};
static const conf_case c_dfma_isa[] = { E3(DONEP, DONEP, 0xbff0000000000002ull, 0x3970000000000000ull) };

/* ---------------------------------------------------------------- div / rcp / sqrt */

static void r_div(IN in, OUT out, conf_rnd r, bool ftz)
{
    float a = ftz_if(F(in[0]), ftz), b = ftz_if(F(in[1]), ftz);
    out[0] = conf_b32(ftz_if(conf_div32(a, b, r), ftz));
}
static void r_div_rn(IN in, OUT out) { r_div(in, out, CONF_RN, false); }
static void r_div_rz(IN in, OUT out) { r_div(in, out, CONF_RZ, false); }
static void r_div_rm(IN in, OUT out) { r_div(in, out, CONF_RM, false); }
static void r_div_rp(IN in, OUT out) { r_div(in, out, CONF_RP, false); }
static void r_div_ftz(IN in, OUT out) { r_div(in, out, CONF_RN, true); }
static void r_ddiv_rn(IN in, OUT out) { out[0] = conf_b64(conf_div64(D(in[0]), D(in[1]), CONF_RN)); }
static void r_ddiv_rm(IN in, OUT out) { out[0] = conf_b64(conf_div64(D(in[0]), D(in[1]), CONF_RM)); }
static void r_ddiv_rz(IN in, OUT out) { out[0] = conf_b64(conf_div64(D(in[0]), D(in[1]), CONF_RZ)); }

static void r_rcp(IN in, OUT out, conf_rnd r, bool ftz)
{
    float a = ftz_if(F(in[0]), ftz);
    out[0] = conf_b32(ftz_if(conf_div32(1.0f, a, r), ftz));
}
static void r_rcp_rn(IN in, OUT out) { r_rcp(in, out, CONF_RN, false); }
static void r_rcp_rz(IN in, OUT out) { r_rcp(in, out, CONF_RZ, false); }
static void r_rcp_rp(IN in, OUT out) { r_rcp(in, out, CONF_RP, false); }
static void r_rcp_ftz(IN in, OUT out) { r_rcp(in, out, CONF_RN, true); }
static void r_drcp_rn(IN in, OUT out) { out[0] = conf_b64(conf_div64(1.0, D(in[0]), CONF_RN)); }
/* rcp.approx.ftz.f64 as the ISA describes it: only the upper 32 bits of the operand (1.11.20) are
 * read, the reciprocal of that value is placed in the upper 32 bits of the result and the lower
 * 32 mantissa bits are zero; denormals flush to zero. */
static void r_drcp_approx(IN in, OUT out)
{
    uint64_t hi = in[0] & ~0xffffffffull;
    double a = D(hi);
    if (isnan(a)) { out[0] = in[0]; return; }
    if (fpclassify(a) == FP_SUBNORMAL || a == 0.0) { out[0] = conf_b64(signbit(a) ? -INFINITY : INFINITY); return; }
    double r = 1.0 / a;
    out[0] = conf_b64(fpclassify(r) == FP_SUBNORMAL ? copysign(0.0, r) : r) & ~0xffffffffull;
}

static void r_sqrt(IN in, OUT out, conf_rnd r, bool ftz)
{
    float a = ftz_if(F(in[0]), ftz);
    out[0] = conf_b32(ftz_if(conf_sqrt32(a, r), ftz));
}
static void r_sqrt_rn(IN in, OUT out) { r_sqrt(in, out, CONF_RN, false); }
static void r_sqrt_rz(IN in, OUT out) { r_sqrt(in, out, CONF_RZ, false); }
static void r_sqrt_rm(IN in, OUT out) { r_sqrt(in, out, CONF_RM, false); }
static void r_sqrt_rp(IN in, OUT out) { r_sqrt(in, out, CONF_RP, false); }
static void r_sqrt_ftz(IN in, OUT out) { r_sqrt(in, out, CONF_RN, true); }
static void r_dsqrt_rn(IN in, OUT out) { out[0] = conf_b64(conf_sqrt64(D(in[0]), CONF_RN)); }
static void r_dsqrt_rp(IN in, OUT out) { out[0] = conf_b64(conf_sqrt64(D(in[0]), CONF_RP)); }
static void r_rsqrt(IN in, OUT out)
{
    double a = F(in[0]);
    out[0] = conf_b32((float)(1.0 / sqrt(a)));
}

OP2(op_div_rn, "div.rn.f32", r_div_rn);
OP2(op_div_rz, "div.rz.f32", r_div_rz);
OP2(op_div_rm, "div.rm.f32", r_div_rm);
OP2(op_div_rp, "div.rp.f32", r_div_rp);
OP2(op_div_ftz, "div.rn.ftz.f32", r_div_ftz);
DOP2(op_ddiv_rn, "div.rn.f64", r_ddiv_rn);
DOP2(op_ddiv_rm, "div.rm.f64", r_ddiv_rm);
DOP2(op_ddiv_rz, "div.rz.f64", r_ddiv_rz);
static const conf_op op_div_approx = { "div.approx.f32 (2 ulp for |b| in [2^-126, 2^126])", "div.approx.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "f32" }, { { CONF_F32, 2.5, 0, 0 } }, r_div_rn, NULL, NULL };
static const conf_op op_div_full = { "div.full.f32 (2 ulp)", "div.full.f32 %out0, %in0, %in1;", { "f32", "f32" }, { "f32" }, { { CONF_F32, 2.5, 0, 0 } }, r_div_rn, NULL, NULL };

#define OP1(var, text, fn, cmp) \
    static const conf_op var = { text, text " %out0, %in0;", { "f32" }, { "f32" }, { cmp }, fn, NULL, NULL }
/* A named form with a tolerance: OP1T(var, name, instruction, reference, kind, ulps, rel, abs) */
#define OP1T(var, name, instr, fn, ...) \
    static const conf_op var = { name, instr " %out0, %in0;", { "f32" }, { "f32" }, { { __VA_ARGS__ } }, fn, NULL, NULL }
#define DOP1(var, text, fn) \
    static const conf_op var = { text, text " %out0, %in0;", { "f64" }, { "f64" }, { CMP64 }, fn, NULL, NULL }
OP1(op_rcp_rn, "rcp.rn.f32", r_rcp_rn, CMP32);
OP1(op_rcp_rz, "rcp.rz.f32", r_rcp_rz, CMP32);
OP1(op_rcp_rp, "rcp.rp.f32", r_rcp_rp, CMP32);
OP1(op_rcp_ftz, "rcp.rn.ftz.f32", r_rcp_ftz, CMP32);
OP1T(op_rcp_approx, "rcp.approx.f32 (1 ulp)", "rcp.approx.f32", r_rcp_rn, CONF_F32, 1.5, 0, 0);
DOP1(op_drcp_rn, "rcp.rn.f64", r_drcp_rn);
DOP1(op_drcp_approx, "rcp.approx.ftz.f64", r_drcp_approx);
OP1(op_sqrt_rn, "sqrt.rn.f32", r_sqrt_rn, CMP32);
OP1(op_sqrt_rz, "sqrt.rz.f32", r_sqrt_rz, CMP32);
OP1(op_sqrt_rm, "sqrt.rm.f32", r_sqrt_rm, CMP32);
OP1(op_sqrt_rp, "sqrt.rp.f32", r_sqrt_rp, CMP32);
OP1(op_sqrt_ftz, "sqrt.rn.ftz.f32", r_sqrt_ftz, CMP32);
OP1T(op_sqrt_approx, "sqrt.approx.f32 (rel 2^-23)", "sqrt.approx.f32", r_sqrt_rn, CONF_F32, 0, 0x1p-23 + 0x1p-24, 0);
OP1T(op_rsqrt_approx, "rsqrt.approx.f32 (rel 2^-22.9)", "rsqrt.approx.f32", r_rsqrt, CONF_F32, 0, 0x1.126p-23 + 0x1p-24, 0);
DOP1(op_dsqrt_rn, "sqrt.rn.f64", r_dsqrt_rn);
DOP1(op_dsqrt_rp, "sqrt.rp.f64", r_dsqrt_rp);

static const conf_case c_div[] = {
    I2(ONE, THREE), I2(TWO, THREE), I2(MONE, THREE), I2(ONE, 0x40e00000u), I2(TENTH, THREE), I2(ONE, PZERO),
    I2(MONE, PZERO), I2(ONE, MZERO), I2(PZERO, PZERO), I2(INF, INF), I2(ONE, INF), I2(MONE, INF), I2(DEN, TWO),
    I2(FMAX, HALF), I2(THREE, DEN), I2(QNAN, ONE), I2(0x4b800001u, THREE),
};
static const conf_case c_div_isa[] = { E2(ONE, THREE, 0x3eaaaaabu), E2(THREE, TWO, 0x3fc00000u) };
static const conf_case c_div_approx[] = {
    I2(ONE, THREE), I2(TWO, 0x40e00000u), I2(0x42c80000u, TENTH), I2(0xc0a00000u, THREE), I2(0x501502f9u, 0x2edbe6ffu),
    I2(ONE, 0x7e800000u), I2(ONE, 0x00800000u), I2(PZERO, THREE),
};
static const conf_case c_div_full[] = {
    I2(ONE, THREE), I2(TWO, 0x40e00000u), I2(0x42c80000u, TENTH), I2(ONE, 0x7f000000u), I2(FMAX, 0x7f000000u),
    I2(INF, THREE), I2(THREE, INF), I2(PZERO, THREE),
};
static const conf_case c_ddiv[] = {
    I2(DONE, DTHREE), I2(DMONE, DTHREE), I2(DTENTH, DTHREE), I2(DONE, 0), I2(0, 0), I2(DDEN, 0x4000000000000000ull),
    I2(DINF, DTHREE), I2(DMAX, DHALF),
};
static const conf_case c_rcp[] = {
    I1(THREE), I1(0x40e00000u), I1(MONE), I1(TENTH), I1(PZERO), I1(MZERO), I1(INF), I1(MINF), I1(QNAN),
    I1(FMAX), I1(DEN2), I1(0x3f7ffffeu),
};
static const conf_case c_rcp_approx[] = {
    I1(THREE), I1(0x40e00000u), I1(MONE), I1(TENTH), I1(0x3f7ffffeu), I1(0x4b3fffffu),
    /* the ISA's table of special values */
    E1(MINF, MZERO), E1(MZERO, MINF), E1(PZERO, INF), E1(INF, PZERO), E1(QNAN, QNAN),
};
static const conf_case c_drcp[] = { I1(DTHREE), I1(DTENTH), I1(0), I1(DMZERO), I1(DINF), I1(DNAN), I1(DONEM) };
/* 0x3ff0000080000000 ignores its low word: 1/1.0000000298 rounded to 20 mantissa bits */
static const conf_case c_drcp_approx[] = { I1(DTHREE), I1(DTENTH), I1(0), I1(DMZERO), I1(DINF), I1(DNAN),
                                            I1(DONEM), I1(DDEN), I1(0xbff0000080000000ull), I1(DMAX) };
static const conf_case c_sqrt[] = {
    I1(TWO), I1(THREE), I1(0x40800000u), I1(TENTH), I1(DEN), I1(FMAX), I1(PZERO), I1(MZERO), I1(INF), I1(MONE),
    I1(MINF), I1(QNAN), I1(0x3f800001u), I1(DEN2),
};
static const conf_case c_sqrt_approx[] = {
    I1(TWO), I1(THREE), I1(TENTH), I1(FMAX), I1(0x3f800001u), I1(0x00800000u),
    /* the ISA's table of special values */
    E1(MINF, QNAN), E1(MONE, QNAN), E1(MZERO, MZERO), E1(PZERO, PZERO), E1(INF, INF), E1(QNAN, QNAN),
};
static const conf_case c_rsqrt[] = {
    I1(TWO), I1(THREE), I1(0x40800000u), I1(TENTH), I1(FMAX), I1(0x00800000u), I1(0x3f800001u),
    /* the ISA's table of special values */
    E1(MINF, QNAN), E1(MONE, QNAN), E1(MZERO, MINF), E1(PZERO, INF), E1(INF, PZERO), E1(QNAN, QNAN),
};
static const conf_case c_dsqrt[] = { I1(0x4000000000000000ull), I1(DTHREE), I1(DTENTH), I1(DDEN), I1(DMAX), I1(DMZERO), I1(DMONE), I1(DINF) };

/* ---------------------------------------------------------------- sin / cos / lg2 / ex2 / tanh */

static void r_sin(IN in, OUT out) { out[0] = conf_b32((float)sin((double)F(in[0]))); }
static void r_cos(IN in, OUT out) { out[0] = conf_b32((float)cos((double)F(in[0]))); }
static void r_lg2(IN in, OUT out) { out[0] = conf_b32((float)log2((double)F(in[0]))); }
static void r_ex2(IN in, OUT out) { out[0] = conf_b32((float)exp2((double)F(in[0]))); }
static void r_tanh(IN in, OUT out) { out[0] = conf_b32((float)tanh((double)F(in[0]))); }
static void r_sin_ftz(IN in, OUT out) { out[0] = conf_b32(conf_ftz32((float)sin((double)conf_ftz32(F(in[0]))))); }
static void r_ex2_ftz(IN in, OUT out) { out[0] = conf_b32(conf_ftz32((float)exp2((double)conf_ftz32(F(in[0]))))); }

OP1T(op_sin, "sin.approx.f32 (abs 2^-20.5 on [-2pi, 2pi])", "sin.approx.f32", r_sin, CONF_F32, 0, 0, 0x1.6a1p-21 + 0x1p-25);
OP1T(op_cos, "cos.approx.f32 (abs 2^-20.5 on [-2pi, 2pi])", "cos.approx.f32", r_cos, CONF_F32, 0, 0, 0x1.6a1p-21 + 0x1p-25);
OP1T(op_sin_ftz, "sin.approx.ftz.f32", "sin.approx.ftz.f32", r_sin_ftz, CONF_F32, 0, 0, 0x1.6a1p-21 + 0x1p-25);
OP1T(op_lg2_in, "lg2.approx.f32 on (0.5, 2) (abs 2^-22)", "lg2.approx.f32", r_lg2, CONF_F32, 0, 0, 0x1p-22 + 0x1p-25);
OP1T(op_lg2_out, "lg2.approx.f32 outside (0.5, 2) (rel 2^-22)", "lg2.approx.f32", r_lg2, CONF_F32, 0, 0x1p-22 + 0x1p-24, 0);
OP1T(op_ex2, "ex2.approx.f32 (2 ulp)", "ex2.approx.f32", r_ex2, CONF_F32, 2.5, 0, 0);
OP1T(op_ex2_ftz, "ex2.approx.ftz.f32 (2 ulp)", "ex2.approx.ftz.f32", r_ex2_ftz, CONF_F32, 2.5, 0, 0);
OP1T(op_tanh, "tanh.approx.f32 (rel 2^-11)", "tanh.approx.f32", r_tanh, CONF_F32, 0, 0x1p-11 + 0x1p-24, 0);

static const conf_case c_sin[] = {
    I1(0x3f490fdbu), I1(0x3fc90fdbu), I1(0x40490fdbu), I1(0xc0490fdbu), I1(0x40c90fdbu), I1(0xc0c90fdau), I1(ONE),
    I1(TENTH), I1(0x3a83126fu), I1(0xc0200000u), I1(0x40a00000u),
    /* the ISA's table of special values */
    E1(MINF, QNAN), E1(INF, QNAN), E1(QNAN, QNAN), E1(MZERO, MZERO), E1(PZERO, PZERO),
};
static const conf_case c_cos[] = {
    I1(0x3f490fdbu), I1(0x3fc90fdbu), I1(0x40490fdbu), I1(0xc0490fdbu), I1(0x40c90fdbu), I1(ONE), I1(TENTH),
    I1(0xc0200000u), I1(0x40a00000u),
    E1(MINF, QNAN), E1(INF, QNAN), E1(QNAN, QNAN), E1(MZERO, ONE), E1(PZERO, ONE),
};
static const conf_case c_lg2_in[] = {
    I1(0x3f000001u), I1(0x3f400000u), I1(ONE), I1(0x3f800001u), I1(0x3fb504f3u), I1(0x3fffffffu), I1(0x3f7fffffu),
};
static const conf_case c_lg2_out[] = {
    I1(TWO), I1(0x44800000u), I1(TENTH), I1(0x3a83126fu), I1(FMAX), I1(FMIN), I1(DEN), I1(0x42c80000u), I1(QUART),
    /* the ISA's table of special values */
    E1(MINF, QNAN), E1(MONE, QNAN), E1(MZERO, MINF), E1(PZERO, MINF), E1(INF, INF), E1(QNAN, QNAN),
};
static const conf_case c_ex2[] = {
    I1(ONE), I1(HALF), I1(TENTH), I1(MONE), I1(0x41200000u), I1(0xc1200000u), I1(0x42fc0000u), I1(0xc2fc0000u),
    I1(0x3fc90fdbu), I1(0xc3100000u), I1(0xc2800000u),
    /* the ISA's table of special values */
    E1(MINF, PZERO), E1(MZERO, ONE), E1(PZERO, ONE), E1(INF, INF), E1(QNAN, QNAN),
};
static const conf_case c_ex2_ftz[] = { I1(ONE), I1(0xc3010000u), I1(0xc2fe0000u), I1(DEN), I1(MDEN) };
static const conf_case c_tanh[] = {
    I1(ONE), I1(HALF), I1(TENTH), I1(MONE), I1(0x40400000u), I1(0x41200000u), I1(0xc1200000u), I1(0x3a83126fu),
    I1(DEN2),
    /* the ISA's table of special values */
    E1(MINF, MONE), E1(MZERO, MZERO), E1(PZERO, PZERO), E1(INF, ONE), E1(QNAN, QNAN),
};
static const conf_case c_sin_ftz[] = { I1(DEN2), I1(MDEN2), I1(ONE) };

/* ---------------------------------------------------------------- min / max */

/* The ISA's min_num / min_nan (NaN canonical), with -0.0 < +0.0. */
static float minmax32(float a, float b, bool max, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return NAN;
        return isnan(a) ? b : a;
    }
    if (a == b && a == 0.0f) {
        bool an = signbit(a), bn = signbit(b);
        if (max) return an && bn ? a : (an ? b : a);
        return an ? a : b;
    }
    return max ? (a > b ? a : b) : (a < b ? a : b);
}
static void r_min(IN in, OUT out) { out[0] = conf_b32(minmax32(F(in[0]), F(in[1]), false, false)); }
static void r_max(IN in, OUT out) { out[0] = conf_b32(minmax32(F(in[0]), F(in[1]), true, false)); }
static void r_min_nan(IN in, OUT out) { out[0] = conf_b32(minmax32(F(in[0]), F(in[1]), false, true)); }
static void r_max_nan(IN in, OUT out) { out[0] = conf_b32(minmax32(F(in[0]), F(in[1]), true, true)); }
static void r_min_ftz(IN in, OUT out) { out[0] = conf_b32(conf_ftz32(minmax32(conf_ftz32(F(in[0])), conf_ftz32(F(in[1])), false, false))); }
static void r_max_ftz(IN in, OUT out) { out[0] = conf_b32(conf_ftz32(minmax32(conf_ftz32(F(in[0])), conf_ftz32(F(in[1])), true, false))); }
static void r_min_xorsign(IN in, OUT out)
{
    float a = F(in[0]), b = F(in[1]);
    bool s = signbit(a) != signbit(b);
    float d = minmax32(fabsf(a), fabsf(b), false, false);
    out[0] = conf_b32(isnan(d) ? d : copysignf(d, s ? -1.0f : 1.0f));
}
static void r_max_xorsign(IN in, OUT out)
{
    float a = F(in[0]), b = F(in[1]);
    bool s = signbit(a) != signbit(b);
    float d = minmax32(fabsf(a), fabsf(b), true, false);
    out[0] = conf_b32(isnan(d) ? d : copysignf(d, s ? -1.0f : 1.0f));
}
static double minmax64(double a, double b, bool max)
{
    if (isnan(a) && isnan(b)) return NAN;
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == 0.0 && b == 0.0) return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return max ? (a > b ? a : b) : (a < b ? a : b);
}
static void r_dmin(IN in, OUT out) { out[0] = conf_b64(minmax64(D(in[0]), D(in[1]), false)); }
static void r_dmax(IN in, OUT out) { out[0] = conf_b64(minmax64(D(in[0]), D(in[1]), true)); }

OP2(op_min, "min.f32", r_min);
OP2(op_max, "max.f32", r_max);
OP2(op_min_nan, "min.NaN.f32", r_min_nan);
OP2(op_max_nan, "max.NaN.f32", r_max_nan);
OP2(op_min_ftz, "min.ftz.f32", r_min_ftz);
OP2(op_max_ftz, "max.ftz.f32", r_max_ftz);
OP2(op_min_xorsign, "min.xorsign.abs.f32", r_min_xorsign);
OP2(op_max_xorsign, "max.xorsign.abs.f32", r_max_xorsign);
DOP2(op_dmin, "min.f64", r_dmin);
DOP2(op_dmax, "max.f64", r_dmax);

static const conf_case c_minmax[] = {
    I2(ONE, TWO), I2(TWO, ONE), I2(MONE, ONE), I2(PZERO, MZERO), I2(MZERO, PZERO), I2(MZERO, MZERO), I2(QNAN, ONE),
    I2(ONE, QNAN), I2(QNAN, QNAN), I2(INF, MINF), I2(MINF, QNAN), I2(DEN, MDEN), I2(DEN, PZERO), I2(FMAX, INF),
};
static const conf_case c_min_isa[] = {
    /* "If values of both inputs are 0.0, then +0.0 > -0.0"; a NaN operand gives the other one */
    E2(PZERO, MZERO, MZERO), E2(MZERO, PZERO, MZERO), E2(QNAN, THREE, THREE), E2(THREE, QNAN, THREE),
};
static const conf_case c_max_isa[] = { E2(PZERO, MZERO, PZERO), E2(MZERO, PZERO, PZERO), E2(QNAN, MONE, MONE) };
static const conf_case c_xorsign[] = {
    I2(ONE, TWO), I2(MONE, TWO), I2(MONE, 0xc0000000u), I2(THREE, MHALF), I2(MZERO, PZERO), I2(QNAN, MONE), I2(MINF, ONE),
};
static const conf_case c_dminmax[] = {
    I2(DONE, DTHREE), I2(DMONE, DONE), I2(0, DMZERO), I2(DMZERO, 0), I2(DNAN, DONE), I2(DONE, DNAN), I2(DNAN, DNAN),
    I2(DINF, DMINF), I2(DDEN, 0),
};

/* ---------------------------------------------------------------- abs / neg / copysign / testp */

static void r_abs(IN in, OUT out) { out[0] = conf_b32(fabsf(F(in[0]))); }
static void r_neg(IN in, OUT out) { out[0] = conf_b32(-F(in[0])); }
static void r_abs_ftz(IN in, OUT out) { out[0] = conf_b32(fabsf(conf_ftz32(F(in[0])))); }
static void r_neg_ftz(IN in, OUT out) { out[0] = conf_b32(-conf_ftz32(F(in[0]))); }
static void r_dabs(IN in, OUT out) { out[0] = conf_b64(fabs(D(in[0]))); }
static void r_dneg(IN in, OUT out) { out[0] = conf_b64(-D(in[0])); }
static void r_copysign(IN in, OUT out) { out[0] = conf_b32(copysignf(F(in[1]), F(in[0]))); }
static void r_dcopysign(IN in, OUT out) { out[0] = conf_b64(copysign(D(in[1]), D(in[0]))); }

OP1(op_abs, "abs.f32", r_abs, CMP32);
OP1(op_neg, "neg.f32", r_neg, CMP32);
OP1(op_abs_ftz, "abs.ftz.f32", r_abs_ftz, CMP32);
OP1(op_neg_ftz, "neg.ftz.f32", r_neg_ftz, CMP32);
DOP1(op_dabs, "abs.f64", r_dabs);
DOP1(op_dneg, "neg.f64", r_dneg);
/* "For abs.f64, NaN input is passed through unchanged": payload and all. */
static const conf_op op_dabs_nan = { "abs.f64 passes a NaN through unchanged", "abs.f64 %out0, %in0;", { "f64" }, { "f64" }, { { CONF_BITS, 0, 0, 0 } }, NULL, NULL, NULL };
OP2(op_copysign, "copysign.f32", r_copysign);
DOP2(op_dcopysign, "copysign.f64", r_dcopysign);

static const conf_case c_absneg[] = {
    I1(ONE), I1(MONE), I1(PZERO), I1(MZERO), I1(INF), I1(MINF), I1(DEN), I1(MDEN), I1(QNAN), I1(0xffc00000u), I1(FMAX),
};
static const conf_case c_dabsneg[] = { I1(DONE), I1(DMONE), I1(0), I1(DMZERO), I1(DINF), I1(DMINF), I1(DDEN), I1(DNAN) };
static const conf_case c_dabs_nan[] = { E1(0x7ff8000000000123ull, 0x7ff8000000000123ull), E1(0x7ffc000000000001ull, 0x7ffc000000000001ull) };
static const conf_case c_copysign[] = {
    I2(ONE, TWO), I2(MONE, TWO), I2(ONE, 0xc0000000u), I2(MZERO, THREE), I2(PZERO, MINF), I2(MONE, PZERO), I2(MONE, DEN),
};
static const conf_case c_copysign_isa[] = { E2(MONE, THREE, 0xc0400000u), E2(ONE, 0xc0400000u, THREE) };
static const conf_case c_dcopysign[] = { I2(DONE, DMONE), I2(DMONE, DTHREE), I2(DMZERO, DINF), I2(0, DMZERO) };

typedef enum { TP_FINITE, TP_INFINITE, TP_NUMBER, TP_NAN, TP_NORMAL, TP_SUBNORMAL } testp_kind;
static bool testp_ref(double v, bool sub, testp_kind k)
{
    switch (k) {
    case TP_FINITE: return isfinite(v);
    case TP_INFINITE: return isinf(v);
    case TP_NUMBER: return !isnan(v);
    case TP_NAN: return isnan(v);
    case TP_NORMAL: return isfinite(v) && !sub;   /* zeros count as normal */
    default: return sub;
    }
}
#define TESTP(var, kname, k)                                                                                \
    static void r_##var##32(IN in, OUT out) { out[0] = testp_ref(F(in[0]), conf_is_sub32(F(in[0])), k); }   \
    static void r_##var##64(IN in, OUT out)                                                                 \
    {                                                                                                       \
        double d = D(in[0]);                                                                                \
        out[0] = testp_ref(d, d != 0.0 && fabs(d) < DBL_MIN, k);                                            \
    }                                                                                                       \
    static const conf_op var##32 = { "testp." kname ".f32", "testp." kname ".f32 %out0, %in0;", { "f32" }, { "pred" }, { { 0 } }, r_##var##32, NULL, NULL }; \
    static const conf_op var##64 = { "testp." kname ".f64", "testp." kname ".f64 %out0, %in0;", { "f64" }, { "pred" }, { { 0 } }, r_##var##64, NULL, NULL }
TESTP(op_tp_finite, "finite", TP_FINITE);
TESTP(op_tp_infinite, "infinite", TP_INFINITE);
TESTP(op_tp_number, "number", TP_NUMBER);
TESTP(op_tp_nan, "notanumber", TP_NAN);
TESTP(op_tp_normal, "normal", TP_NORMAL);
TESTP(op_tp_subnormal, "subnormal", TP_SUBNORMAL);
static const conf_case c_testp32[] = {
    I1(ONE), I1(PZERO), I1(MZERO), I1(DEN), I1(MDEN), I1(FMIN), I1(FMAX), I1(INF), I1(MINF), I1(QNAN), I1(0x7f800001u),
};
static const conf_case c_testp64[] = { I1(DONE), I1(0), I1(DMZERO), I1(DDEN), I1(DMIN), I1(DMAX), I1(DINF), I1(DMINF), I1(DNAN) };
static const conf_case c_testp_normal_isa[] = { E1(PZERO, 1), E1(MZERO, 1), E1(DEN, 0) };


/* ---------------------------------------------------------------- immediate operands */

static void r_add_one(IN in, OUT out) { out[0] = conf_b32(conf_add32(F(in[0]), 1.0f, CONF_RN)); }
static void r_mul_pi(IN in, OUT out) { out[0] = conf_b32(conf_mul32(F(in[0]), conf_f32(0x40490fdbu), CONF_RN)); }
static void r_add_15(IN in, OUT out) { out[0] = conf_b32(conf_add32(F(in[0]), 1.5f, CONF_RN)); }
static void r_dadd_one(IN in, OUT out) { out[0] = conf_b64(conf_add64(D(in[0]), 1.0, CONF_RN)); }
static void r_dsub_q(IN in, OUT out) { out[0] = conf_b64(conf_add64(D(in[0]), -0.25, CONF_RN)); }
static const conf_op op_imm_0f = { "add.f32 with 0f3F800000", "add.f32 %out0, %in0, 0f3F800000;", { "f32" }, { "f32" }, { CMP32 }, r_add_one, NULL, NULL };
static const conf_op op_imm_pi = { "mul.rn.f32 with 0f40490FDB", "mul.rn.f32 %out0, %in0, 0f40490FDB;", { "f32" }, { "f32" }, { CMP32 }, r_mul_pi, NULL, NULL };
static const conf_op op_imm_dec = { "add.f32 with the decimal literal 1.5", "add.f32 %out0, %in0, 1.5;", { "f32" }, { "f32" }, { CMP32 }, r_add_15, NULL, NULL };
static const conf_op op_imm_0d = { "add.f64 with 0d3FF0000000000000", "add.f64 %out0, %in0, 0d3FF0000000000000;", { "f64" }, { "f64" }, { CMP64 }, r_dadd_one, NULL, NULL };
static const conf_op op_imm_exp = { "sub.f64 with the decimal literal 2.5e-1", "sub.f64 %out0, %in0, 2.5e-1;", { "f64" }, { "f64" }, { CMP64 }, r_dsub_q, NULL, NULL };
/* "literals are always represented in 64-bit double-precision format ... converted to the
 * appropriate floating-point size based on the data or instruction type at its use" */
static const conf_op op_imm_mov = { "mov.f32 with the decimal literal 0.1", "mov.f32 %out0, 0.1;", { "f32" }, { "f32" }, { CMP32 }, NULL, NULL, NULL };
static const conf_op op_imm_fma = { "fma.rn.f32 with decimal literals 2.0 and 0.75", "fma.rn.f32 %out0, %in0, 2.0, 0.75;", { "f32" }, { "f32" }, { CMP32 }, NULL, NULL, NULL };
static const conf_case c_imm_mov[] = { E1(0, 0x3dcccccdu) };
static const conf_case c_imm_fma[] = { E1(ONE, 0x40300000u), E1(MONE, 0xbfa00000u) };
static const conf_case c_imm32[] = { I1(ONE), I1(THIRD), I1(MONE), I1(PZERO), I1(INF), I1(0x4b800001u) };
static const conf_case c_imm64[] = { I1(DONE), I1(DTENTH), I1(DMONE), I1(0), I1(DINF) };

static const conf_table tables[] = {
    CONF_TABLE(op_add, c_add), CONF_TABLE(op_add_rn, c_add), CONF_TABLE(op_add_rn, c_add_isa),
    CONF_TABLE(op_add_rz, c_add), CONF_TABLE(op_add_rm, c_add), CONF_TABLE(op_add_rp, c_add),
    CONF_TABLE(op_add_ftz, c_ftz), CONF_TABLE(op_add_sat, c_add_sat), CONF_TABLE(op_add_sat, c_add_sat_isa),
    CONF_TABLE(op_sub_rn, c_add), CONF_TABLE(op_sub_rm, c_add), CONF_TABLE(op_sub_ftz, c_ftz),
    CONF_TABLE(op_mul_rn, c_mul), CONF_TABLE(op_mul_rz, c_mul), CONF_TABLE(op_mul_rm, c_mul), CONF_TABLE(op_mul_rp, c_mul),
    CONF_TABLE(op_mul_ftz, c_mul_ftz), CONF_TABLE(op_mul_sat, c_mul_sat), CONF_TABLE(op_mul_sat, c_mul_sat_isa),
    CONF_TABLE(op_fma_rn, c_fma), CONF_TABLE(op_fma_rn, c_fma_isa), CONF_TABLE(op_fma_rz, c_fma), CONF_TABLE(op_fma_rz, c_fma_dr), CONF_TABLE(op_fma_rm, c_fma), CONF_TABLE(op_fma_rm, c_fma_dr), CONF_TABLE(op_fma_rp, c_fma_dr), CONF_TABLE(op_fma_rn, c_fma_dr),
    CONF_TABLE(op_fma_rp, c_fma), CONF_TABLE(op_fma_ftz, c_fma_ftz), CONF_TABLE(op_fma_sat, c_fma_sat), CONF_TABLE(op_fma_sat, c_fma_sat_isa),
    CONF_TABLE(op_mad_rn, c_fma), CONF_TABLE(op_mad_rz, c_fma),
    CONF_TABLE(op_dadd_rn, c_dadd), CONF_TABLE(op_dadd_rz, c_dadd), CONF_TABLE(op_dadd_rm, c_dadd), CONF_TABLE(op_dadd_rp, c_dadd),
    CONF_TABLE(op_dsub_rn, c_dadd), CONF_TABLE(op_dmul_rn, c_dmul), CONF_TABLE(op_dmul_rm, c_dmul), CONF_TABLE(op_dmul_rp, c_dmul),
    CONF_TABLE(op_dfma_rn, c_dfma), CONF_TABLE(op_dfma_rn, c_dfma_isa), CONF_TABLE(op_dfma_rz, c_dfma), CONF_TABLE(op_dfma_rp, c_dfma),
    CONF_TABLE(op_dmad_rn, c_dfma),
    CONF_TABLE(op_div_rn, c_div), CONF_TABLE(op_div_rn, c_div_isa), CONF_TABLE(op_div_rz, c_div), CONF_TABLE(op_div_rm, c_div),
    CONF_TABLE(op_div_rp, c_div), CONF_TABLE(op_div_ftz, c_ftz), CONF_TABLE(op_div_approx, c_div_approx),
    CONF_TABLE(op_div_full, c_div_full), CONF_TABLE(op_ddiv_rn, c_ddiv), CONF_TABLE(op_ddiv_rm, c_ddiv), CONF_TABLE(op_ddiv_rz, c_ddiv),
    CONF_TABLE(op_rcp_rn, c_rcp), CONF_TABLE(op_rcp_rz, c_rcp), CONF_TABLE(op_rcp_rp, c_rcp), CONF_TABLE(op_rcp_ftz, c_rcp),
    CONF_TABLE(op_rcp_approx, c_rcp_approx), CONF_TABLE(op_drcp_rn, c_drcp), CONF_TABLE(op_drcp_approx, c_drcp_approx),
    CONF_TABLE(op_sqrt_rn, c_sqrt), CONF_TABLE(op_sqrt_rz, c_sqrt), CONF_TABLE(op_sqrt_rm, c_sqrt), CONF_TABLE(op_sqrt_rp, c_sqrt),
    CONF_TABLE(op_sqrt_ftz, c_sqrt), CONF_TABLE(op_sqrt_approx, c_sqrt_approx), CONF_TABLE(op_rsqrt_approx, c_rsqrt),
    CONF_TABLE(op_dsqrt_rn, c_dsqrt), CONF_TABLE(op_dsqrt_rp, c_dsqrt),
    CONF_TABLE(op_sin, c_sin), CONF_TABLE(op_cos, c_cos), CONF_TABLE(op_sin_ftz, c_sin_ftz),
    CONF_TABLE(op_lg2_in, c_lg2_in), CONF_TABLE(op_lg2_out, c_lg2_out), CONF_TABLE(op_ex2, c_ex2),
    CONF_TABLE(op_ex2_ftz, c_ex2_ftz), CONF_TABLE(op_tanh, c_tanh),
    CONF_TABLE(op_min, c_minmax), CONF_TABLE(op_min, c_min_isa), CONF_TABLE(op_max, c_minmax), CONF_TABLE(op_max, c_max_isa),
    CONF_TABLE(op_min_nan, c_minmax), CONF_TABLE(op_max_nan, c_minmax), CONF_TABLE(op_min_ftz, c_minmax),
    CONF_TABLE(op_max_ftz, c_minmax), CONF_TABLE(op_min_xorsign, c_xorsign), CONF_TABLE(op_max_xorsign, c_xorsign),
    CONF_TABLE(op_dmin, c_dminmax), CONF_TABLE(op_dmax, c_dminmax),
    CONF_TABLE(op_abs, c_absneg), CONF_TABLE(op_neg, c_absneg), CONF_TABLE(op_abs_ftz, c_absneg), CONF_TABLE(op_neg_ftz, c_absneg),
    CONF_TABLE(op_dabs, c_dabsneg), CONF_TABLE(op_dneg, c_dabsneg), CONF_TABLE(op_dabs_nan, c_dabs_nan),
    CONF_TABLE(op_copysign, c_copysign), CONF_TABLE(op_copysign, c_copysign_isa), CONF_TABLE(op_dcopysign, c_dcopysign),
    CONF_TABLE(op_tp_finite32, c_testp32), CONF_TABLE(op_tp_infinite32, c_testp32), CONF_TABLE(op_tp_number32, c_testp32),
    CONF_TABLE(op_tp_nan32, c_testp32), CONF_TABLE(op_tp_normal32, c_testp32), CONF_TABLE(op_tp_normal32, c_testp_normal_isa),
    CONF_TABLE(op_tp_subnormal32, c_testp32),
    CONF_TABLE(op_tp_finite64, c_testp64), CONF_TABLE(op_tp_infinite64, c_testp64), CONF_TABLE(op_tp_number64, c_testp64),
    CONF_TABLE(op_tp_nan64, c_testp64), CONF_TABLE(op_tp_normal64, c_testp64), CONF_TABLE(op_tp_subnormal64, c_testp64),
    CONF_TABLE(op_imm_0f, c_imm32), CONF_TABLE(op_imm_pi, c_imm32), CONF_TABLE(op_imm_dec, c_imm32),
    CONF_TABLE(op_imm_0d, c_imm64), CONF_TABLE(op_imm_exp, c_imm64), CONF_TABLE(op_imm_mov, c_imm_mov),
    CONF_TABLE(op_imm_fma, c_imm_fma),
};

START_TEST(float_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_float");
    conf_add_tables(s, tables, CONF_N(tables), float_row);
    return conf_main(s);
}
