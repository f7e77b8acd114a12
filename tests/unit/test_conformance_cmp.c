/* test_conformance_cmp.c: PTX comparison and selection against the PTX ISA (sections 9.3.1,
 * 9.7.7).
 *
 * setp with every integer comparison (signed eq..ge, unsigned lo/ls/hi/hs and lt..ge on
 * unsigned types, bit-size eq/ne) and every float comparison (ordered eq ne lt le gt ge,
 * unordered equ neu ltu leu gtu geu, num, nan) on NaN, infinities, -0/+0 and subnormals (with
 * and without .ftz); the second destination q = !t; the .and/.or/.xor combinations with a
 * plain and a negated predicate source; set to u32/s32 (all ones) and f32 (1.0); selp; slct
 * (c >= 0 picks a, -0.0 counts as zero). Expected values: the ISA's comparison tables, written
 * as C comparisons (C's float comparisons are IEEE ordered ones; the unordered forms add the
 * NaN test).
 */
#include "tests/unit/conformance_harness.h"

#include <math.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;

typedef enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NANC } cmp_t;
typedef enum { KS32, KU32, KS64, KU64, KF32, KF64, KF32FTZ } kind_t;

static bool fcmp(cmp_t c, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (c) {
    case EQ: return a == b;
    case NE: return !un && a != b;
    case LT: return a < b;
    case LE: return a <= b;
    case GT: return a > b;
    case GE: return a >= b;
    case EQU: return un || a == b;
    case NEU: return un || a != b;
    case LTU: return un || a < b;
    case LEU: return un || a <= b;
    case GTU: return un || a > b;
    case GEU: return un || a >= b;
    case NUM: return !un;
    default: return un;
    }
}

#define ICMP(c, a, b) \
    ((c) == EQ ? (a) == (b) : (c) == NE ? (a) != (b) : (c) == LT ? (a) < (b) : (c) == LE ? (a) <= (b) : (c) == GT ? (a) > (b) : (a) >= (b))

static bool cmp_ref(cmp_t c, kind_t k, uint64_t a, uint64_t b)
{
    switch (k) {
    case KS32: return ICMP(c, (int32_t)(uint32_t)a, (int32_t)(uint32_t)b);
    case KU32: return ICMP(c, (uint32_t)a, (uint32_t)b);
    case KS64: return ICMP(c, (int64_t)a, (int64_t)b);
    case KU64: return ICMP(c, a, b);
    case KF32: return fcmp(c, conf_f32(a), conf_f32(b));
    case KF32FTZ: return fcmp(c, conf_ftz32(conf_f32(a)), conf_ftz32(conf_f32(b)));
    default: return fcmp(c, conf_f64(a), conf_f64(b));
    }
}

/* setp.CMP.TYPE p|q, a, b: p = t, q = !t */
#define SETP(var, text, c, k, ity)                                                                   \
    static void r_##var(IN in, OUT out) { out[0] = cmp_ref(c, k, in[0], in[1]); out[1] = !out[0]; } \
    static const conf_op var = { text, text " %out0|%out1, %in0, %in1;", { ity, ity }, { "pred", "pred" }, { { 0 } }, r_##var, NULL, NULL }

SETP(s32_eq, "setp.eq.s32", EQ, KS32, "s32");
SETP(s32_ne, "setp.ne.s32", NE, KS32, "s32");
SETP(s32_lt, "setp.lt.s32", LT, KS32, "s32");
SETP(s32_le, "setp.le.s32", LE, KS32, "s32");
SETP(s32_gt, "setp.gt.s32", GT, KS32, "s32");
SETP(s32_ge, "setp.ge.s32", GE, KS32, "s32");
SETP(u32_lo, "setp.lo.u32", LT, KU32, "u32");
SETP(u32_ls, "setp.ls.u32", LE, KU32, "u32");
SETP(u32_hi, "setp.hi.u32", GT, KU32, "u32");
SETP(u32_hs, "setp.hs.u32", GE, KU32, "u32");
SETP(u32_lt, "setp.lt.u32", LT, KU32, "u32");
SETP(u32_ge, "setp.ge.u32", GE, KU32, "u32");
SETP(b32_eq, "setp.eq.b32", EQ, KU32, "b32");
SETP(b32_ne, "setp.ne.b32", NE, KU32, "b32");
SETP(s64_lt, "setp.lt.s64", LT, KS64, "s64");
SETP(s64_ge, "setp.ge.s64", GE, KS64, "s64");
SETP(u64_lo, "setp.lo.u64", LT, KU64, "u64");
SETP(u64_hi, "setp.hi.u64", GT, KU64, "u64");
SETP(u64_eq, "setp.eq.u64", EQ, KU64, "u64");

SETP(f32_eq, "setp.eq.f32", EQ, KF32, "f32");
SETP(f32_ne, "setp.ne.f32", NE, KF32, "f32");
SETP(f32_lt, "setp.lt.f32", LT, KF32, "f32");
SETP(f32_le, "setp.le.f32", LE, KF32, "f32");
SETP(f32_gt, "setp.gt.f32", GT, KF32, "f32");
SETP(f32_ge, "setp.ge.f32", GE, KF32, "f32");
SETP(f32_equ, "setp.equ.f32", EQU, KF32, "f32");
SETP(f32_neu, "setp.neu.f32", NEU, KF32, "f32");
SETP(f32_ltu, "setp.ltu.f32", LTU, KF32, "f32");
SETP(f32_leu, "setp.leu.f32", LEU, KF32, "f32");
SETP(f32_gtu, "setp.gtu.f32", GTU, KF32, "f32");
SETP(f32_geu, "setp.geu.f32", GEU, KF32, "f32");
SETP(f32_num, "setp.num.f32", NUM, KF32, "f32");
SETP(f32_nan, "setp.nan.f32", NANC, KF32, "f32");
SETP(f32_eq_ftz, "setp.eq.ftz.f32", EQ, KF32FTZ, "f32");
SETP(f32_lt_ftz, "setp.lt.ftz.f32", LT, KF32FTZ, "f32");
SETP(f64_eq, "setp.eq.f64", EQ, KF64, "f64");
SETP(f64_ne, "setp.ne.f64", NE, KF64, "f64");
SETP(f64_lt, "setp.lt.f64", LT, KF64, "f64");
SETP(f64_geu, "setp.geu.f64", GEU, KF64, "f64");
SETP(f64_neu, "setp.neu.f64", NEU, KF64, "f64");
SETP(f64_nan, "setp.nan.f64", NANC, KF64, "f64");

static const conf_case c_i32[] = {
    I2(1, 2), I2(2, 1), I2(5, 5), I2(-1, 1), I2(1, -1), I2(0x80000000, 0x7fffffff), I2(0xffffffff, 0xfffffffe), I2(0, 0),
};
static const conf_case c_i64[] = {
    I2(1, 2), I2(-1, 1), I2(0x8000000000000000ull, 0x7fffffffffffffffull), I2(0x100000000ull, 0xffffffffull), I2(7, 7),
    I2(0xffffffff00000000ull, 0),
};
#define ONE 0x3f800000u
#define TWO 0x40000000u
#define INF 0x7f800000u
#define MINF 0xff800000u
#define QNAN 0x7fc00000u
static const conf_case c_f32[] = {
    I2(ONE, TWO), I2(TWO, ONE), I2(ONE, ONE), I2(0, 0x80000000u), I2(QNAN, ONE), I2(ONE, QNAN), I2(QNAN, QNAN),
    I2(INF, INF), I2(MINF, INF), I2(INF, QNAN), I2(0x00000001u, 0), I2(0x80000001u, 0x00000001u), I2(0xbf800000u, ONE),
    I2(0x7f800001u, 0x7f800001u),
};
static const conf_case c_f32_isa[] = {
    /* ordered comparisons with a NaN operand are false, -0 == +0 */
    { { QNAN, ONE }, { 0, 1 }, true }, { { 0, 0x80000000u }, { 1, 0 }, true },
};
static const conf_case c_f32_neu_isa[] = { { { QNAN, ONE }, { 1, 0 }, true } };
#define DONE 0x3ff0000000000000ull
#define DNAN 0x7ff8000000000000ull
static const conf_case c_f64[] = {
    I2(DONE, 0x4000000000000000ull), I2(0x4000000000000000ull, DONE), I2(DONE, DONE), I2(0, 0x8000000000000000ull),
    I2(DNAN, DONE), I2(DONE, DNAN), I2(DNAN, DNAN), I2(0x7ff0000000000000ull, 0xfff0000000000000ull), I2(1, 0),
};

/* setp with a combining operation: p = (t OP c), q = (!t OP c), c possibly negated. */
typedef enum { AND, OR, XOR } bop_t;
static bool bop(bop_t o, bool x, bool y) { return o == AND ? x && y : o == OR ? x || y : x != y; }
#define SETPB(var, text, body, c, k, ity, o, negc)                                            \
    static void r_##var(IN in, OUT out)                                                        \
    {                                                                                          \
        bool t = cmp_ref(c, k, in[0], in[1]), cc = (in[2] & 1) != negc;                       \
        out[0] = bop(o, t, cc);                                                                \
        out[1] = bop(o, !t, cc);                                                               \
    }                                                                                          \
    static const conf_op var = { text, body, { ity, ity, "pred" }, { "pred", "pred" }, { { 0 } }, r_##var, NULL, NULL }
SETPB(b_and, "setp.lt.and.s32", "setp.lt.and.s32 %out0|%out1, %in0, %in1, %in2;", LT, KS32, "s32", AND, false);
SETPB(b_or, "setp.lt.or.s32", "setp.lt.or.s32 %out0|%out1, %in0, %in1, %in2;", LT, KS32, "s32", OR, false);
SETPB(b_xor, "setp.lt.xor.s32", "setp.lt.xor.s32 %out0|%out1, %in0, %in1, %in2;", LT, KS32, "s32", XOR, false);
SETPB(b_and_not, "setp.eq.and.s32 with !c", "setp.eq.and.s32 %out0|%out1, %in0, %in1, !%in2;", EQ, KS32, "s32", AND, true);
SETPB(b_or_not, "setp.gt.or.f32 with !c", "setp.gt.or.f32 %out0|%out1, %in0, %in1, !%in2;", GT, KF32, "f32", OR, true);
SETPB(b_xor_not, "setp.nan.xor.f32 with !c", "setp.nan.xor.f32 %out0|%out1, %in0, %in1, !%in2;", NANC, KF32, "f32", XOR, true);
SETPB(b_and_f, "setp.equ.and.f32", "setp.equ.and.f32 %out0|%out1, %in0, %in1, %in2;", EQU, KF32, "f32", AND, false);
static const conf_case c_bool_i[] = {
    I3(1, 2, 0), I3(1, 2, 1), I3(2, 1, 0), I3(2, 1, 1), I3(3, 3, 0), I3(3, 3, 1), I3(-5, 5, 1), I3(-5, 5, 0),
};
static const conf_case c_bool_f[] = {
    I3(ONE, TWO, 0), I3(ONE, TWO, 1), I3(TWO, ONE, 0), I3(TWO, ONE, 1), I3(QNAN, ONE, 0), I3(QNAN, ONE, 1), I3(ONE, ONE, 1),
};

/* set: all ones / 1.0f when true */
#define SET(var, text, c, k, ity, oty, tval)                                                   \
    static void r_##var(IN in, OUT out) { out[0] = cmp_ref(c, k, in[0], in[1]) ? tval : 0; } \
    static const conf_op var = { text, text " %out0, %in0, %in1;", { ity, ity }, { oty }, { { 0 } }, r_##var, NULL, NULL }
SET(set_lt_u32_s32, "set.lt.u32.s32", LT, KS32, "s32", "u32", 0xffffffffu);
SET(set_hi_s32_u32, "set.hi.s32.u32", GT, KU32, "u32", "s32", 0xffffffffu);
SET(set_eq_f32_s32, "set.eq.f32.s32", EQ, KS32, "s32", "f32", 0x3f800000u);
SET(set_gtu_f32_f32, "set.gtu.f32.f32", GTU, KF32, "f32", "f32", 0x3f800000u);
SET(set_ne_u32_f32, "set.ne.u32.f32", NE, KF32, "f32", "u32", 0xffffffffu);
SET(set_num_u32_f64, "set.num.u32.f64", NUM, KF64, "f64", "u32", 0xffffffffu);
static void r_set_and(IN in, OUT out) { out[0] = (cmp_ref(LE, KS32, in[0], in[1]) && (in[2] & 1)) ? 0xffffffffu : 0; }
static const conf_op set_le_and = { "set.le.and.u32.s32", "set.le.and.u32.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "pred" }, { "u32" }, { { 0 } }, r_set_and, NULL, NULL };
static void r_set_or_not(IN in, OUT out) { out[0] = (cmp_ref(GT, KF32, in[0], in[1]) || !(in[2] & 1)) ? 0x3f800000u : 0; }
static const conf_op set_gt_or_not = { "set.gt.or.f32.f32 with !c", "set.gt.or.f32.f32 %out0, %in0, %in1, !%in2;", { "f32", "f32", "pred" }, { "f32" }, { { 0 } }, r_set_or_not, NULL, NULL };
static const conf_case c_set_isa[] = { E2(1, 2, 0xffffffff), E2(2, 1, 0) };

/* selp / slct */
static void r_selp(IN in, OUT out) { out[0] = (in[2] & 1) ? in[0] : in[1]; }
static const conf_op selp_b32 = { "selp.b32", "selp.b32 %out0, %in0, %in1, %in2;", { "b32", "b32", "pred" }, { "b32" }, { { 0 } }, r_selp, NULL, NULL };
static const conf_op selp_f64 = { "selp.f64", "selp.f64 %out0, %in0, %in1, %in2;", { "f64", "f64", "pred" }, { "f64" }, { { 0 } }, r_selp, NULL, NULL };
static const conf_op selp_u16 = { "selp.u16", "selp.u16 %out0, %in0, %in1, %in2;", { "u16", "u16", "pred" }, { "u16" }, { { 0 } }, r_selp, NULL, NULL };
static const conf_op selp_imm = { "selp.s32 with immediates", "selp.s32 %out0, 7, -9, %in2;", { "b32", "b32", "pred" }, { "s32" }, { { 0 } }, NULL, NULL, NULL };
static const conf_case c_selp[] = { I3(0x11111111, 0x22222222, 1), I3(0x11111111, 0x22222222, 0), I3(~0ull, 0x123456789ull, 1), I3(5, 6, 0) };
static const conf_case c_selp_imm[] = { E3(0, 0, 1, 7), E3(0, 0, 0, 0xfffffff7) };

static void r_slct_s32(IN in, OUT out) { out[0] = (int32_t)(uint32_t)in[2] >= 0 ? in[0] : in[1]; }
static void r_slct_f32(IN in, OUT out) { out[0] = conf_f32(in[2]) >= 0.0f ? in[0] : in[1]; }
static void r_slct_f32_ftz(IN in, OUT out) { out[0] = conf_ftz32(conf_f32(in[2])) >= 0.0f ? in[0] : in[1]; }
static const conf_op slct_s32 = { "slct.b32.s32", "slct.b32.s32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "b32" }, { { 0 } }, r_slct_s32, NULL, NULL };
static const conf_op slct_f32 = { "slct.u32.f32", "slct.u32.f32 %out0, %in0, %in1, %in2;", { "u32", "u32", "f32" }, { "u32" }, { { 0 } }, r_slct_f32, NULL, NULL };
static const conf_op slct_f32_ftz = { "slct.ftz.u32.f32", "slct.ftz.u32.f32 %out0, %in0, %in1, %in2;", { "u32", "u32", "f32" }, { "u32" }, { { 0 } }, r_slct_f32_ftz, NULL, NULL };
static const conf_op slct_f64 = { "slct.f64.s32", "slct.f64.s32 %out0, %in0, %in1, %in2;", { "f64", "f64", "s32" }, { "f64" }, { { 0 } }, r_slct_s32, NULL, NULL };
static const conf_case c_slct_i[] = { I3(0xaaaa, 0xbbbb, 0), I3(0xaaaa, 0xbbbb, 1), I3(0xaaaa, 0xbbbb, -1), I3(0xaaaa, 0xbbbb, 0x80000000), I3(0xaaaa, 0xbbbb, 0x7fffffff) };
static const conf_case c_slct_f[] = {
    I3(0xaaaa, 0xbbbb, ONE), I3(0xaaaa, 0xbbbb, 0xbf800000u), I3(0xaaaa, 0xbbbb, 0), I3(0xaaaa, 0xbbbb, 0x80000000u),
    I3(0xaaaa, 0xbbbb, INF), I3(0xaaaa, 0xbbbb, MINF), I3(0xaaaa, 0xbbbb, 0x80000001u),
};
static const conf_case c_slct_isa[] = { E3(0xaaaa, 0xbbbb, 0x80000000u, 0xaaaa) /* -0.0 counts as zero */ };

static const conf_table tables[] = {
    CONF_TABLE(s32_eq, c_i32), CONF_TABLE(s32_ne, c_i32), CONF_TABLE(s32_lt, c_i32), CONF_TABLE(s32_le, c_i32),
    CONF_TABLE(s32_gt, c_i32), CONF_TABLE(s32_ge, c_i32), CONF_TABLE(u32_lo, c_i32), CONF_TABLE(u32_ls, c_i32),
    CONF_TABLE(u32_hi, c_i32), CONF_TABLE(u32_hs, c_i32), CONF_TABLE(u32_lt, c_i32), CONF_TABLE(u32_ge, c_i32),
    CONF_TABLE(b32_eq, c_i32), CONF_TABLE(b32_ne, c_i32), CONF_TABLE(s64_lt, c_i64), CONF_TABLE(s64_ge, c_i64),
    CONF_TABLE(u64_lo, c_i64), CONF_TABLE(u64_hi, c_i64), CONF_TABLE(u64_eq, c_i64),
    CONF_TABLE(f32_eq, c_f32), CONF_TABLE(f32_eq, c_f32_isa), CONF_TABLE(f32_ne, c_f32), CONF_TABLE(f32_lt, c_f32),
    CONF_TABLE(f32_le, c_f32), CONF_TABLE(f32_gt, c_f32), CONF_TABLE(f32_ge, c_f32), CONF_TABLE(f32_equ, c_f32),
    CONF_TABLE(f32_neu, c_f32), CONF_TABLE(f32_neu, c_f32_neu_isa), CONF_TABLE(f32_ltu, c_f32), CONF_TABLE(f32_leu, c_f32),
    CONF_TABLE(f32_gtu, c_f32), CONF_TABLE(f32_geu, c_f32), CONF_TABLE(f32_num, c_f32), CONF_TABLE(f32_nan, c_f32),
    CONF_TABLE(f32_eq_ftz, c_f32), CONF_TABLE(f32_lt_ftz, c_f32),
    CONF_TABLE(f64_eq, c_f64), CONF_TABLE(f64_ne, c_f64), CONF_TABLE(f64_lt, c_f64), CONF_TABLE(f64_geu, c_f64),
    CONF_TABLE(f64_neu, c_f64), CONF_TABLE(f64_nan, c_f64),
    CONF_TABLE(b_and, c_bool_i), CONF_TABLE(b_or, c_bool_i), CONF_TABLE(b_xor, c_bool_i), CONF_TABLE(b_and_not, c_bool_i),
    CONF_TABLE(b_or_not, c_bool_f), CONF_TABLE(b_xor_not, c_bool_f), CONF_TABLE(b_and_f, c_bool_f),
    CONF_TABLE(set_lt_u32_s32, c_i32), CONF_TABLE(set_lt_u32_s32, c_set_isa), CONF_TABLE(set_hi_s32_u32, c_i32),
    CONF_TABLE(set_eq_f32_s32, c_i32), CONF_TABLE(set_gtu_f32_f32, c_f32), CONF_TABLE(set_ne_u32_f32, c_f32),
    CONF_TABLE(set_num_u32_f64, c_f64), CONF_TABLE(set_le_and, c_bool_i), CONF_TABLE(set_gt_or_not, c_bool_f),
    CONF_TABLE(selp_b32, c_selp), CONF_TABLE(selp_f64, c_selp), CONF_TABLE(selp_u16, c_selp), CONF_TABLE(selp_imm, c_selp_imm),
    CONF_TABLE(slct_s32, c_slct_i), CONF_TABLE(slct_f64, c_slct_i), CONF_TABLE(slct_f32, c_slct_f), CONF_TABLE(slct_f32, c_slct_isa),
    CONF_TABLE(slct_f32_ftz, c_slct_f),
};

START_TEST(cmp_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_cmp");
    conf_add_tables(s, tables, CONF_N(tables), cmp_row);
    return conf_main(s);
}
