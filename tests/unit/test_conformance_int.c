/* test_conformance_int.c: PTX integer arithmetic against the PTX ISA (section 9.7.1).
 *
 * add/sub (wrap and .sat), carry chains (add.cc/addc, sub.cc/subc, mad.cc/madc), mul and mad
 * (.lo/.hi/.wide, .hi.sat), mul24/mad24, sad, div/rem, abs, neg, min/max (incl. .relu and
 * 16x2), on 16-, 32- and 64-bit types; the carry flag kept per thread under partial masks.
 * Expected values come from reference functions that follow the ISA's semantics pseudo-code,
 * using wider host integers (__int128 for 64-bit products); rows marked "ISA value" carry
 * literal results.
 *
 * Left out on purpose, because the ISA leaves them unspecified: integer division or remainder
 * by zero ("Division by zero yields an unspecified, machine-specific value"), INT_MIN / -1, and
 * abs/neg of the most negative value. rem with negative operands is "machine-dependent" in the
 * ISA; nvcc nevertheless emits div.s32/rem.s32 for C's / and %, which truncate toward zero, so
 * those rows are kept in a separate table named after that assumption.
 */
#include "tests/unit/conformance_harness.h"

#include <stdlib.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;

#define U32(x) ((uint32_t)(x))
#define S32(x) ((int32_t)(uint32_t)(x))
#define U16(x) ((uint16_t)(x))
#define S16(x) ((int16_t)(uint16_t)(x))
#define S64(x) ((int64_t)(x))
#define M32(x) ((uint64_t)(uint32_t)(x))
#define M16(x) ((uint64_t)(uint16_t)(x))

static int64_t sat32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }

/* ---------------------------------------------------------------- add / sub */

static void r_add32(IN in, OUT out) { out[0] = M32(U32(in[0]) + U32(in[1])); }
static void r_sub32(IN in, OUT out) { out[0] = M32(U32(in[0]) - U32(in[1])); }
static void r_add_sat(IN in, OUT out) { out[0] = M32(sat32((int64_t)S32(in[0]) + S32(in[1]))); }
static void r_sub_sat(IN in, OUT out) { out[0] = M32(sat32((int64_t)S32(in[0]) - S32(in[1]))); }
static void r_add64(IN in, OUT out) { out[0] = in[0] + in[1]; }
static void r_sub64(IN in, OUT out) { out[0] = in[0] - in[1]; }
static void r_add16(IN in, OUT out) { out[0] = M16(U16(in[0]) + U16(in[1])); }
static void r_sub16(IN in, OUT out) { out[0] = M16(U16(in[0]) - U16(in[1])); }
static void r_add_u16x2(IN in, OUT out)
{
    uint32_t a = U32(in[0]), b = U32(in[1]);
    out[0] = M32((uint32_t)U16(a + b) | (uint32_t)U16((a >> 16) + (b >> 16)) << 16);
}

static const conf_op op_add_s32 = { "add.s32", "add.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_add32, NULL, NULL };
static const conf_op op_add_u32 = { "add.u32", "add.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_add32, NULL, NULL };
static const conf_op op_sub_s32 = { "sub.s32", "sub.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_sub32, NULL, NULL };
static const conf_op op_add_sat = { "add.sat.s32", "add.sat.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_add_sat, NULL, NULL };
static const conf_op op_sub_sat = { "sub.sat.s32", "sub.sat.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_sub_sat, NULL, NULL };
static const conf_op op_add_u64 = { "add.u64", "add.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_add64, NULL, NULL };
static const conf_op op_sub_s64 = { "sub.s64", "sub.s64 %out0, %in0, %in1;", { "s64", "s64" }, { "s64" }, { { 0 } }, r_sub64, NULL, NULL };
static const conf_op op_add_u16 = { "add.u16", "add.u16 %out0, %in0, %in1;", { "u16", "u16" }, { "u16" }, { { 0 } }, r_add16, NULL, NULL };
static const conf_op op_sub_s16 = { "sub.s16", "sub.s16 %out0, %in0, %in1;", { "s16", "s16" }, { "s16" }, { { 0 } }, r_sub16, NULL, NULL };
static const conf_op op_add_u16x2 = { "add.u16x2", "add.u16x2 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_add_u16x2, NULL, NULL };

static const conf_case c_add32[] = {
    I2(0, 0), I2(1, 2), I2(0x7fffffff, 1), I2(0xffffffff, 1), I2(0x80000000, 0x80000000),
    I2(0x12345678, 0x9abcdef0), I2(-1000, 999), I2(0x7fffffff, 0x7fffffff),
};
static const conf_case c_add32_isa[] = { E2(0xfffffffe, 3, 1), E2(0x7fffffff, 1, 0x80000000) };
static const conf_case c_sat32[] = {
    I2(1, 2), I2(0x7fffffff, 1), I2(0x7ffffff0, 0x100), I2(0x80000000, 0xffffffff),
    I2(0x80000000, 0x80000000), I2(0x7fffffff, 0x80000000), I2(-5, -7), I2(0x40000000, 0x40000000),
    E2(0x7fffffff, 0x7fffffff, 0x7fffffff), E2(0x80000001, 0xfffffffe, 0x80000000),
};
static const conf_case c_subsat32[] = {
    I2(1, 2), I2(0x80000000, 1), I2(0x7fffffff, 0xffffffff), I2(0, 0x80000000),
    I2(0xffffffff, 0x7fffffff), I2(0x80000000, 0x80000000), I2(100, -100),
    E2(0x80000000, 0x7fffffff, 0x80000000),
};
static const conf_case c_add64[] = {
    I2(0, 0), I2(0xffffffff, 1), I2(0xffffffffffffffffull, 1), I2(0x7fffffffffffffffull, 1),
    I2(0x123456789abcdef0ull, 0x0fedcba987654321ull), I2(0x8000000000000000ull, 0x8000000000000000ull),
};
static const conf_case c_sub64[] = {
    I2(0, 1), I2(0x100000000ull, 1), I2(0x8000000000000000ull, 1), I2(5, 0xfffffffffffffffbull),
    I2(0x123456789abcdef0ull, 0x0fedcba987654321ull),
};
static const conf_case c_16[] = {
    I2(1, 2), I2(0xffff, 1), I2(0x7fff, 1), I2(0x8000, 0x8000), I2(0x1234, 0xfedc), I2(0, 1),
};
static const conf_case c_16x2[] = {
    I2(0x00010002, 0x00030004), I2(0xffff0001, 0x0001ffff), I2(0x80007fff, 0x80000001),
    E2(0xffffffff, 0x00010001, 0x00000000),
};

/* ---------------------------------------------------------------- carry chains */

/* 64-bit addition from 32-bit halves with the carry out: add.cc, addc.cc, addc. */
static void r_add_chain(IN in, OUT out)
{
    uint64_t a = (uint64_t)U32(in[1]) << 32 | U32(in[0]);
    uint64_t b = (uint64_t)U32(in[3]) << 32 | U32(in[2]);
    unsigned __int128 s = (unsigned __int128)a + b;
    out[0] = M32(s);
    out[1] = M32(s >> 32);
    out[2] = M32(s >> 64);
}
static const conf_op op_add_chain = {
    "add.cc.u32 + addc.cc.u32 + addc.u32",
    "add.cc.u32 %out0, %in0, %in2; addc.cc.u32 %out1, %in1, %in3; addc.u32 %out2, 0, 0;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32" }, { { 0 } }, r_add_chain, NULL, NULL
};
static const conf_case c_add_chain[] = {
    I4(1, 0, 2, 0), I4(0xffffffff, 0, 1, 0), I4(0xffffffff, 0xffffffff, 1, 0),
    I4(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff), I4(0x80000000, 0x7fffffff, 0x80000000, 0),
    I4(0x12345678, 0x9abcdef0, 0xedcba988, 0x65432110), I4(0, 0x80000000, 0, 0x80000000),
};

/* 64-bit subtraction with the borrow out: sub.cc, subc.cc, subc (0 - 0 - borrow). */
static void r_sub_chain(IN in, OUT out)
{
    uint64_t a = (uint64_t)U32(in[1]) << 32 | U32(in[0]);
    uint64_t b = (uint64_t)U32(in[3]) << 32 | U32(in[2]);
    uint64_t d = a - b;
    out[0] = M32(d);
    out[1] = M32(d >> 32);
    out[2] = a < b ? 0xffffffffu : 0;
}
static const conf_op op_sub_chain = {
    "sub.cc.u32 + subc.cc.u32 + subc.u32",
    "sub.cc.u32 %out0, %in0, %in2; subc.cc.u32 %out1, %in1, %in3; subc.u32 %out2, 0, 0;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32" }, { { 0 } }, r_sub_chain, NULL, NULL
};
static const conf_case c_sub_chain[] = {
    I4(2, 0, 1, 0), I4(0, 1, 1, 0), I4(0, 0, 1, 0), I4(5, 5, 5, 5), I4(0x12345678, 0x9abcdef0, 0x87654321, 0x0fedcba9),
    I4(0, 0x80000000, 0, 0x80000001), I4(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff),
};

/* The carry flag also feeds a multiword multiply: mad.lo.cc then madc.hi. */
static void r_mad_chain(IN in, OUT out)
{
    uint64_t p = (uint64_t)U32(in[0]) * U32(in[1]);
    uint64_t lo = (p & 0xffffffffu) + U32(in[2]);
    out[0] = M32(lo);
    out[1] = M32((p >> 32) + U32(in[3]) + (lo >> 32));
}
static const conf_op op_mad_chain = {
    "mad.lo.cc.u32 + madc.hi.u32",
    "mad.lo.cc.u32 %out0, %in0, %in1, %in2; madc.hi.u32 %out1, %in0, %in1, %in3;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32" }, { { 0 } }, r_mad_chain, NULL, NULL
};
static const conf_case c_mad_chain[] = {
    I4(3, 4, 5, 6), I4(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff), I4(0x10000, 0x10000, 0, 0),
    I4(0x80000000, 2, 0x1, 0x7), I4(0xdeadbeef, 0x12345678, 0xfedcba98, 0x01020304),
};

/* 64-bit flavour: add.cc.u64 / addc.u64 (128-bit addition). */
static void r_add_chain64(IN in, OUT out)
{
    unsigned __int128 a = (unsigned __int128)in[1] << 64 | in[0];
    unsigned __int128 b = (unsigned __int128)in[3] << 64 | in[2];
    unsigned __int128 s = a + b;
    out[0] = (uint64_t)s;
    out[1] = (uint64_t)(s >> 64);
}
static const conf_op op_add_chain64 = {
    "add.cc.u64 + addc.u64", "add.cc.u64 %out0, %in0, %in2; addc.u64 %out1, %in1, %in3;",
    { "u64", "u64", "u64", "u64" }, { "u64", "u64" }, { { 0 } }, r_add_chain64, NULL, NULL
};
static const conf_case c_add_chain64[] = {
    I4(~0ull, 0, 1, 0), I4(~0ull, ~0ull, ~0ull, 0), I4(0x8000000000000000ull, 1, 0x8000000000000000ull, 2),
    I4(5, 6, 7, 8),
};

/* Mixed chains. The condition code is the carry of the GPU's adder (PTX ISA, "Extended-Precision
 * Integer Arithmetic Instructions": add.cc/addc write the carry-out; sub.cc computes a - b as
 * a + ~b + 1 and writes that addition's carry-out, 1 when no borrow occurred; subc, defined as
 * a - (b + borrow), is a + ~b + CC.CF, the borrow being !CC.CF). The reference below is that
 * adder, on the host's 128-bit integers. */
static uint64_t adder(uint64_t a, uint64_t b, unsigned cin, unsigned bits, unsigned *cout)
{
    unsigned __int128 m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    unsigned __int128 s = (unsigned __int128)(a & m) + (b & m) + cin;
    *cout = (unsigned)(s >> bits) & 1;
    return (uint64_t)(s & m);
}
/* sub.cc a,b then addc c,d and a final addc 0,0 (the carry sub.cc.. addc left) */
static void r_sub_addc(IN in, OUT out)
{
    unsigned cf;
    out[0] = adder(in[0], ~in[1], 1, 32, &cf);
    out[1] = adder(in[2], in[3], cf, 32, &cf);
    out[2] = cf;
}
static const conf_op op_sub_addc = {
    "sub.cc.u32 + addc.cc.u32 + addc.u32",
    "sub.cc.u32 %out0, %in0, %in1; addc.cc.u32 %out1, %in2, %in3; addc.u32 %out2, 0, 0;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32" }, { { 0 } }, r_sub_addc, NULL, NULL
};
static const conf_case c_sub_addc[] = {
    /* 5 - 3: no borrow, CF = 1, so 10 + 20 + 1 (an example worked by hand) */
    { { 5, 3, 10, 20 }, { 2, 31, 0 }, true }, I4(3, 5, 10, 20), I4(0, 0, 0xffffffff, 0), I4(0, 1, 0xffffffff, 0),
    I4(0x80000000, 0x80000001, 7, 8), I4(0xffffffff, 0xffffffff, 0xfffffffe, 1),
};
/* add.cc a,b then subc c,d, and subc 0,0 (0xffffffff when that subc borrowed) */
static void r_add_subc(IN in, OUT out)
{
    unsigned cf;
    out[0] = adder(in[0], in[1], 0, 32, &cf);
    out[1] = adder(in[2], ~in[3], cf, 32, &cf);
    out[2] = adder(0, ~0ull, cf, 32, &cf);
}
static const conf_op op_add_subc = {
    "add.cc.u32 + subc.cc.u32 + subc.u32",
    "add.cc.u32 %out0, %in0, %in1; subc.cc.u32 %out1, %in2, %in3; subc.u32 %out2, 0, 0;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32" }, { { 0 } }, r_add_subc, NULL, NULL
};
static const conf_case c_add_subc[] = {
    /* 1 + 2: no carry, so the subc borrows: 10 - 4 - 1; that subc did not borrow: 0 - 0 */
    { { 1, 2, 10, 4 }, { 3, 5, 0 }, true }, I4(0xffffffff, 1, 10, 4), I4(0, 0, 0, 0), I4(0x80000000, 0x80000000, 0, 0),
    I4(0xffffffff, 0xffffffff, 3, 3), I4(0x12345678, 0xfedcba98, 0x11111111, 0x22222222),
};
/* 128-bit subtraction from 64-bit halves: sub.cc.u64, subc.cc.u64, subc.u64 0 - 0 - borrow */
static void r_sub_chain64(IN in, OUT out)
{
    unsigned __int128 a = (unsigned __int128)in[1] << 64 | in[0];
    unsigned __int128 b = (unsigned __int128)in[3] << 64 | in[2];
    unsigned __int128 d = a - b;
    out[0] = (uint64_t)d;
    out[1] = (uint64_t)(d >> 64);
    out[2] = a < b ? ~0ull : 0;
}
static const conf_op op_sub_chain64 = {
    "sub.cc.u64 + subc.cc.u64 + subc.u64",
    "sub.cc.u64 %out0, %in0, %in2; subc.cc.u64 %out1, %in1, %in3; subc.u64 %out2, 0, 0;",
    { "u64", "u64", "u64", "u64" }, { "u64", "u64", "u64" }, { { 0 } }, r_sub_chain64, NULL, NULL
};
static const conf_case c_sub_chain64[] = {
    I4(2, 0, 1, 0), I4(0, 1, 1, 0), I4(0, 0, 1, 0), I4(~0ull, ~0ull, ~0ull, ~0ull),
    I4(0x8000000000000000ull, 5, 0x8000000000000001ull, 5), I4(7, 9, 7, 9),
};
/* sub.cc.u64 then addc.u64, add.cc.u64 then subc.u64 (64-bit mixed chains) */
static void r_mixed64(IN in, OUT out)
{
    unsigned cf;
    out[0] = adder(in[0], ~in[1], 1, 64, &cf);
    out[1] = adder(in[2], in[3], cf, 64, &cf);
    out[2] = adder(in[0], in[1], 0, 64, &cf);
    out[3] = adder(in[2], ~in[3], cf, 64, &cf);
}
static const conf_op op_mixed64 = {
    "sub.cc.u64 + addc.u64, add.cc.u64 + subc.u64",
    "sub.cc.u64 %out0, %in0, %in1; addc.u64 %out1, %in2, %in3;"
    " add.cc.u64 %out2, %in0, %in1; subc.u64 %out3, %in2, %in3;",
    { "u64", "u64", "u64", "u64" }, { "u64", "u64", "u64", "u64" }, { { 0 } }, r_mixed64, NULL, NULL
};
static const conf_case c_mixed64[] = {
    I4(5, 3, 10, 20), I4(3, 5, 10, 20), I4(0, 0, ~0ull, 0), I4(~0ull, 1, 100, 1),
    I4(0x8000000000000000ull, 0x8000000000000000ull, 0, 0), I4(~0ull, ~0ull, 1, 2),
};
/* sub.cc then madc; mad.lo.cc then subc (the multiply-add's carry is the adder's too) */
static void r_mad_mixed(IN in, OUT out)
{
    unsigned cf;
    out[0] = adder(in[0], ~in[1], 1, 32, &cf);
    out[1] = adder(M32(U32(in[2]) * U32(in[3])), in[0], cf, 32, &cf);  /* madc.lo.cc */
    out[2] = adder(M32(((uint64_t)U32(in[2]) * U32(in[3])) >> 32), in[1], cf, 32, &cf); /* madc.hi.cc */
    out[3] = adder(in[2], ~in[3], cf, 32, &cf);
}
static const conf_op op_mad_mixed = {
    "sub.cc.u32 + madc.lo.cc.u32 + madc.hi.cc.u32 + subc.u32",
    "sub.cc.u32 %out0, %in0, %in1; madc.lo.cc.u32 %out1, %in2, %in3, %in0;"
    " madc.hi.cc.u32 %out2, %in2, %in3, %in1; subc.u32 %out3, %in2, %in3;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32", "u32" }, { { 0 } }, r_mad_mixed, NULL, NULL
};
static const conf_case c_mad_mixed[] = {
    I4(5, 3, 7, 9), I4(3, 5, 7, 9), I4(0xffffffff, 1, 0xffffffff, 0xffffffff),
    I4(0, 1, 0x10000, 0x10000), I4(0xdeadbeef, 0x12345678, 0xfedcba98, 0x01020304),
};
/* 64-bit mad.lo.cc / madc.hi (the ISA's 64-bit multiword multiply-add) */
static void r_mad_chain64(IN in, OUT out)
{
    unsigned cf;
    unsigned __int128 p = (unsigned __int128)in[0] * in[1];
    out[0] = adder((uint64_t)p, in[2], 0, 64, &cf);
    out[1] = adder((uint64_t)(p >> 64), in[3], cf, 64, &cf);
}
static const conf_op op_mad_chain64 = {
    "mad.lo.cc.u64 + madc.hi.u64",
    "mad.lo.cc.u64 %out0, %in0, %in1, %in2; madc.hi.u64 %out1, %in0, %in1, %in3;",
    { "u64", "u64", "u64", "u64" }, { "u64", "u64" }, { { 0 } }, r_mad_chain64, NULL, NULL
};
static const conf_case c_mad_chain64[] = {
    I4(3, 4, 5, 6), I4(~0ull, ~0ull, ~0ull, ~0ull), I4(1ull << 32, 1ull << 32, 0, 0),
    I4(~0ull, 1, 1, 0), I4(0xdeadbeefcafef00dull, 0x123456789abcdef0ull, ~0ull, 1),
};

/* ---------------------------------------------------------------- mul / mad */

static void r_mul_lo32(IN in, OUT out) { out[0] = M32(U32(in[0]) * U32(in[1])); }
static void r_mul_hi_s32(IN in, OUT out) { out[0] = M32(((int64_t)S32(in[0]) * S32(in[1])) >> 32); }
static void r_mul_hi_u32(IN in, OUT out) { out[0] = M32(((uint64_t)U32(in[0]) * U32(in[1])) >> 32); }
static void r_mul_wide_s32(IN in, OUT out) { out[0] = (uint64_t)((int64_t)S32(in[0]) * S32(in[1])); }
static void r_mul_wide_u32(IN in, OUT out) { out[0] = (uint64_t)U32(in[0]) * U32(in[1]); }
static void r_mul_wide_s16(IN in, OUT out) { out[0] = M32((int32_t)S16(in[0]) * S16(in[1])); }
static void r_mul_wide_u16(IN in, OUT out) { out[0] = M32((uint32_t)U16(in[0]) * U16(in[1])); }
static void r_mul_lo64(IN in, OUT out) { out[0] = in[0] * in[1]; }
static void r_mul_hi_u64(IN in, OUT out) { out[0] = (uint64_t)(((unsigned __int128)in[0] * in[1]) >> 64); }
static void r_mul_hi_s64(IN in, OUT out) { out[0] = (uint64_t)(((__int128)S64(in[0]) * S64(in[1])) >> 64); }
static void r_mul_lo16(IN in, OUT out) { out[0] = M16(U16(in[0]) * U16(in[1])); }
static void r_mul_hi_s16(IN in, OUT out) { out[0] = M16(((int32_t)S16(in[0]) * S16(in[1])) >> 16); }

static const conf_op op_mul_lo_s32 = { "mul.lo.s32", "mul.lo.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_mul_lo32, NULL, NULL };
static const conf_op op_mul_hi_s32 = { "mul.hi.s32", "mul.hi.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_mul_hi_s32, NULL, NULL };
static const conf_op op_mul_hi_u32 = { "mul.hi.u32", "mul.hi.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_mul_hi_u32, NULL, NULL };
static const conf_op op_mul_wide_s32 = { "mul.wide.s32", "mul.wide.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s64" }, { { 0 } }, r_mul_wide_s32, NULL, NULL };
static const conf_op op_mul_wide_u32 = { "mul.wide.u32", "mul.wide.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u64" }, { { 0 } }, r_mul_wide_u32, NULL, NULL };
static const conf_op op_mul_wide_s16 = { "mul.wide.s16", "mul.wide.s16 %out0, %in0, %in1;", { "s16", "s16" }, { "s32" }, { { 0 } }, r_mul_wide_s16, NULL, NULL };
static const conf_op op_mul_wide_u16 = { "mul.wide.u16", "mul.wide.u16 %out0, %in0, %in1;", { "u16", "u16" }, { "u32" }, { { 0 } }, r_mul_wide_u16, NULL, NULL };
static const conf_op op_mul_lo_u64 = { "mul.lo.u64", "mul.lo.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_mul_lo64, NULL, NULL };
static const conf_op op_mul_hi_u64 = { "mul.hi.u64", "mul.hi.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_mul_hi_u64, NULL, NULL };
static const conf_op op_mul_hi_s64 = { "mul.hi.s64", "mul.hi.s64 %out0, %in0, %in1;", { "s64", "s64" }, { "s64" }, { { 0 } }, r_mul_hi_s64, NULL, NULL };
static const conf_op op_mul_lo_u16 = { "mul.lo.u16", "mul.lo.u16 %out0, %in0, %in1;", { "u16", "u16" }, { "u16" }, { { 0 } }, r_mul_lo16, NULL, NULL };
static const conf_op op_mul_hi_s16 = { "mul.hi.s16", "mul.hi.s16 %out0, %in0, %in1;", { "s16", "s16" }, { "s16" }, { { 0 } }, r_mul_hi_s16, NULL, NULL };

static const conf_case c_mul32[] = {
    I2(0, 5), I2(3, 7), I2(-3, 7), I2(-3, -7), I2(0xffffffff, 0xffffffff), I2(0x80000000, 0x80000000),
    I2(0x80000000, 0xffffffff), I2(0x7fffffff, 0x7fffffff), I2(0x12345678, 0x9abcdef0), I2(0x10000, 0x10000),
    I2(0xdeadbeef, 0xcafebabe),
};
static const conf_case c_mul64[] = {
    I2(3, 7), I2(-3, 7), I2(~0ull, ~0ull), I2(0x8000000000000000ull, 0x8000000000000000ull),
    I2(0x8000000000000000ull, ~0ull), I2(0x123456789abcdef0ull, 0x0fedcba987654321ull),
    I2(0x100000000ull, 0x100000000ull), I2(0x7fffffffffffffffull, 2),
};
static const conf_case c_mul16[] = {
    I2(3, 7), I2(-3, 7), I2(0xffff, 0xffff), I2(0x8000, 0x8000), I2(0x7fff, 0x7fff), I2(0x1234, 0xabcd),
};
static const conf_case c_mulhi_isa[] = {
    /* mul.hi.s32 of -1 * 1 is -1 (all ones), of 0x40000000 * 4 is 1 */
    E2(0xffffffff, 1, 0xffffffff), E2(0x40000000, 4, 1),
};

static void r_mad_lo32(IN in, OUT out) { out[0] = M32(U32(in[0]) * U32(in[1]) + U32(in[2])); }
static void r_mad_hi_s32(IN in, OUT out)
{
    out[0] = M32(U32(((int64_t)S32(in[0]) * S32(in[1])) >> 32) + U32(in[2]));
}
static void r_mad_hi_sat(IN in, OUT out)
{
    out[0] = M32(sat32((int64_t)S32(((int64_t)S32(in[0]) * S32(in[1])) >> 32) + S32(in[2])));
}
static void r_mad_wide_u32(IN in, OUT out) { out[0] = (uint64_t)U32(in[0]) * U32(in[1]) + in[2]; }
static void r_mad_wide_s32(IN in, OUT out) { out[0] = (uint64_t)((int64_t)S32(in[0]) * S32(in[1]) + S64(in[2])); }
static void r_mad_hi_u64(IN in, OUT out) { out[0] = (uint64_t)(((unsigned __int128)in[0] * in[1]) >> 64) + in[2]; }
static void r_mad_lo64(IN in, OUT out) { out[0] = in[0] * in[1] + in[2]; }

static const conf_op op_mad_lo_s32 = { "mad.lo.s32", "mad.lo.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s32" }, { "s32" }, { { 0 } }, r_mad_lo32, NULL, NULL };
static const conf_op op_mad_hi_s32 = { "mad.hi.s32", "mad.hi.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s32" }, { "s32" }, { { 0 } }, r_mad_hi_s32, NULL, NULL };
static const conf_op op_mad_hi_sat = { "mad.hi.sat.s32", "mad.hi.sat.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s32" }, { "s32" }, { { 0 } }, r_mad_hi_sat, NULL, NULL };
static const conf_op op_mad_wide_u32 = { "mad.wide.u32", "mad.wide.u32 %out0, %in0, %in1, %in2;", { "u32", "u32", "u64" }, { "u64" }, { { 0 } }, r_mad_wide_u32, NULL, NULL };
static const conf_op op_mad_wide_s32 = { "mad.wide.s32", "mad.wide.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s64" }, { "s64" }, { { 0 } }, r_mad_wide_s32, NULL, NULL };
static const conf_op op_mad_hi_u64 = { "mad.hi.u64", "mad.hi.u64 %out0, %in0, %in1, %in2;", { "u64", "u64", "u64" }, { "u64" }, { { 0 } }, r_mad_hi_u64, NULL, NULL };
static const conf_op op_mad_lo_s64 = { "mad.lo.s64", "mad.lo.s64 %out0, %in0, %in1, %in2;", { "s64", "s64", "s64" }, { "s64" }, { { 0 } }, r_mad_lo64, NULL, NULL };

static const conf_case c_mad32[] = {
    I3(3, 7, 1), I3(-3, 7, 100), I3(0xffffffff, 0xffffffff, 1), I3(0x80000000, 2, 0x80000000),
    I3(0x12345678, 0x9abcdef0, 0xdeadbeef), I3(0x7fffffff, 0x7fffffff, 0x7fffffff),
};
static const conf_case c_madsat[] = {
    I3(0x7fffffff, 0x7fffffff, 0x7fffffff), I3(0x80000000, 0x7fffffff, 0x80000000), I3(0x10000, 0x10000, 5),
    I3(-3, 7, 100), I3(0x80000000, 0x80000000, 0x7fffffff), I3(0x40000000, 4, 0x7fffffff),
};
static const conf_case c_madwide[] = {
    I3(3, 7, 1), I3(0xffffffff, 0xffffffff, 0xffffffffull), I3(-1, 1, 0), I3(0x80000000, 0x80000000, ~0ull),
    I3(0x12345678, 0x9abcdef0, 0x123456789ull),
};
static const conf_case c_mad64[] = {
    I3(3, 7, 1), I3(~0ull, ~0ull, 1), I3(0x8000000000000000ull, 2, 5), I3(0x123456789abcdef0ull, 0xfedcba9876543210ull, 77),
};

/* ---------------------------------------------------------------- mul24 / mad24 */

/* The operands are 24-bit values held in 32-bit registers; the rows keep them in range
 * (as 24-bit signed or unsigned values) so that the upper byte is their extension. */
static int64_t s24(uint64_t v) { return conf_sext(v, 24); }
static void r_mul24_lo_u(IN in, OUT out) { out[0] = M32((U32(in[0]) & 0xffffff) * (uint64_t)(U32(in[1]) & 0xffffff)); }
static void r_mul24_hi_u(IN in, OUT out) { out[0] = M32(((U32(in[0]) & 0xffffff) * (uint64_t)(U32(in[1]) & 0xffffff)) >> 16); }
static void r_mul24_lo_s(IN in, OUT out) { out[0] = M32(s24(in[0]) * s24(in[1])); }
static void r_mul24_hi_s(IN in, OUT out) { out[0] = M32((s24(in[0]) * s24(in[1])) >> 16); }
static void r_mad24_lo_u(IN in, OUT out) { out[0] = M32((U32(in[0]) & 0xffffff) * (uint64_t)(U32(in[1]) & 0xffffff) + U32(in[2])); }
static void r_mad24_hi_s(IN in, OUT out) { out[0] = M32(((s24(in[0]) * s24(in[1])) >> 16) + S32(in[2])); }

static const conf_op op_mul24_lo_u32 = { "mul24.lo.u32", "mul24.lo.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_mul24_lo_u, NULL, NULL };
static const conf_op op_mul24_hi_u32 = { "mul24.hi.u32", "mul24.hi.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_mul24_hi_u, NULL, NULL };
static const conf_op op_mul24_lo_s32 = { "mul24.lo.s32", "mul24.lo.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_mul24_lo_s, NULL, NULL };
static const conf_op op_mul24_hi_s32 = { "mul24.hi.s32", "mul24.hi.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_mul24_hi_s, NULL, NULL };
static const conf_op op_mad24_lo_u32 = { "mad24.lo.u32", "mad24.lo.u32 %out0, %in0, %in1, %in2;", { "u32", "u32", "u32" }, { "u32" }, { { 0 } }, r_mad24_lo_u, NULL, NULL };
static const conf_op op_mad24_hi_s32 = { "mad24.hi.s32", "mad24.hi.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s32" }, { "s32" }, { { 0 } }, r_mad24_hi_s, NULL, NULL };

static const conf_case c_mul24u[] = {
    I3(3, 7, 1), I3(0xffffff, 0xffffff, 0), I3(0x800000, 0x800000, 5), I3(0x123456, 0xabcdef, 0xffffffff), I3(0x10000, 0x100, 0),
};
static const conf_case c_mul24s[] = {
    I3(3, 7, 1), I3(-3, 7, -10), I3(0x7fffff, 0x7fffff, 0), I3(0xff800000, 0xff800000, 1), I3(0xff800000, 0x7fffff, 0),
    I3(-1, -1, 0x7fffffff),
};

/* ---------------------------------------------------------------- sad */

static void r_sad_u32(IN in, OUT out)
{
    uint32_t a = U32(in[0]), b = U32(in[1]);
    out[0] = M32(U32(in[2]) + (a < b ? b - a : a - b));
}
static void r_sad_s32(IN in, OUT out)
{
    int32_t a = S32(in[0]), b = S32(in[1]);
    uint32_t d = a < b ? (uint32_t)b - (uint32_t)a : (uint32_t)a - (uint32_t)b;
    out[0] = M32(U32(in[2]) + d);
}
static void r_sad_u64(IN in, OUT out) { out[0] = in[2] + (in[0] < in[1] ? in[1] - in[0] : in[0] - in[1]); }
static const conf_op op_sad_u32 = { "sad.u32", "sad.u32 %out0, %in0, %in1, %in2;", { "u32", "u32", "u32" }, { "u32" }, { { 0 } }, r_sad_u32, NULL, NULL };
static const conf_op op_sad_s32 = { "sad.s32", "sad.s32 %out0, %in0, %in1, %in2;", { "s32", "s32", "s32" }, { "s32" }, { { 0 } }, r_sad_s32, NULL, NULL };
static const conf_op op_sad_u64 = { "sad.u64", "sad.u64 %out0, %in0, %in1, %in2;", { "u64", "u64", "u64" }, { "u64" }, { { 0 } }, r_sad_u64, NULL, NULL };
static const conf_case c_sad32[] = {
    I3(5, 3, 10), I3(3, 5, 10), I3(0, 0xffffffff, 1), I3(-5, 5, 0), I3(0x80000000, 0x7fffffff, 0), I3(7, 7, 7),
};
static const conf_case c_sad64[] = { I3(5, 3, 10), I3(3, 5, 10), I3(0, ~0ull, 1), I3(0x8000000000000000ull, 1, 2) };

/* ---------------------------------------------------------------- div / rem */

static void r_div_u32(IN in, OUT out) { out[0] = M32(U32(in[0]) / U32(in[1])); }
static void r_rem_u32(IN in, OUT out) { out[0] = M32(U32(in[0]) % U32(in[1])); }
static void r_div_s32(IN in, OUT out) { out[0] = M32(S32(in[0]) / S32(in[1])); }
static void r_rem_s32(IN in, OUT out) { out[0] = M32(S32(in[0]) % S32(in[1])); }
static void r_div_u64(IN in, OUT out) { out[0] = in[0] / in[1]; }
static void r_rem_u64(IN in, OUT out) { out[0] = in[0] % in[1]; }
static void r_div_s64(IN in, OUT out) { out[0] = (uint64_t)(S64(in[0]) / S64(in[1])); }
static void r_rem_s64(IN in, OUT out) { out[0] = (uint64_t)(S64(in[0]) % S64(in[1])); }
static void r_div_u16(IN in, OUT out) { out[0] = M16(U16(in[0]) / U16(in[1])); }
static void r_rem_s16(IN in, OUT out) { out[0] = M16(S16(in[0]) % S16(in[1])); }

static const conf_op op_div_u32 = { "div.u32", "div.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_div_u32, NULL, NULL };
static const conf_op op_rem_u32 = { "rem.u32", "rem.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_rem_u32, NULL, NULL };
static const conf_op op_div_s32 = { "div.s32", "div.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_div_s32, NULL, NULL };
static const conf_op op_rem_s32 = { "rem.s32", "rem.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_rem_s32, NULL, NULL };
static const conf_op op_div_s32_neg = { "div.s32 negative operands (C truncation, as nvcc relies on)", "div.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_div_s32, NULL, NULL };
static const conf_op op_rem_s32_neg = { "rem.s32 negative operands (C truncation, as nvcc relies on)", "rem.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_rem_s32, NULL, NULL };
static const conf_op op_div_u64 = { "div.u64", "div.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_div_u64, NULL, NULL };
static const conf_op op_rem_u64 = { "rem.u64", "rem.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_rem_u64, NULL, NULL };
static const conf_op op_div_s64_neg = { "div.s64 negative operands (C truncation)", "div.s64 %out0, %in0, %in1;", { "s64", "s64" }, { "s64" }, { { 0 } }, r_div_s64, NULL, NULL };
static const conf_op op_rem_s64_neg = { "rem.s64 negative operands (C truncation)", "rem.s64 %out0, %in0, %in1;", { "s64", "s64" }, { "s64" }, { { 0 } }, r_rem_s64, NULL, NULL };
static const conf_op op_div_u16 = { "div.u16", "div.u16 %out0, %in0, %in1;", { "u16", "u16" }, { "u16" }, { { 0 } }, r_div_u16, NULL, NULL };
static const conf_op op_rem_s16 = { "rem.s16 (positive operands)", "rem.s16 %out0, %in0, %in1;", { "s16", "s16" }, { "s16" }, { { 0 } }, r_rem_s16, NULL, NULL };

static const conf_case c_divu32[] = {
    I2(7, 2), I2(0xffffffff, 1), I2(0xffffffff, 0xffffffff), I2(0xffffffff, 2), I2(1, 2), I2(0x80000000, 3),
    I2(1000000007, 97), I2(0x12345678, 0x1234),
};
static const conf_case c_divs32_pos[] = { I2(7, 2), I2(0x7fffffff, 1), I2(0x7fffffff, 0x10000), I2(100, 7), I2(0, 5), I2(6, 3) };
static const conf_case c_divs32_neg[] = {
    I2(-7, 2), I2(7, -2), I2(-7, -2), I2(0x80000000, 1), I2(0x80000000, 2), I2(-1, 0x7fffffff), I2(-100, 7),
};
static const conf_case c_divu64[] = {
    I2(7, 2), I2(~0ull, 1), I2(~0ull, 0xffffffffull), I2(0x123456789abcdef0ull, 0x12345ull), I2(1ull << 63, 3),
};
static const conf_case c_divs64_neg[] = { I2(-7, 2), I2(7, -2), I2(0x8000000000000000ull, 2), I2(-1000000000000ll, 7) };
static const conf_case c_divu16[] = { I2(7, 2), I2(0xffff, 3), I2(0x8000, 0x7fff), I2(12345, 100) };
static const conf_case c_rems16[] = { I2(7, 2), I2(0x7fff, 0x100), I2(12345, 100), I2(5, 7) };

/* ---------------------------------------------------------------- abs / neg / min / max */

static void r_abs32(IN in, OUT out) { int32_t a = S32(in[0]); out[0] = M32(a < 0 ? -a : a); }
static void r_neg32(IN in, OUT out) { out[0] = M32(0u - U32(in[0])); }
static void r_abs64(IN in, OUT out) { int64_t a = S64(in[0]); out[0] = (uint64_t)(a < 0 ? -a : a); }
static void r_neg64(IN in, OUT out) { out[0] = 0 - in[0]; }
static void r_abs16(IN in, OUT out) { int16_t a = S16(in[0]); out[0] = M16(a < 0 ? -a : a); }

static const conf_op op_abs_s32 = { "abs.s32", "abs.s32 %out0, %in0;", { "s32" }, { "s32" }, { { 0 } }, r_abs32, NULL, NULL };
static const conf_op op_neg_s32 = { "neg.s32", "neg.s32 %out0, %in0;", { "s32" }, { "s32" }, { { 0 } }, r_neg32, NULL, NULL };
static const conf_op op_abs_s64 = { "abs.s64", "abs.s64 %out0, %in0;", { "s64" }, { "s64" }, { { 0 } }, r_abs64, NULL, NULL };
static const conf_op op_neg_s64 = { "neg.s64", "neg.s64 %out0, %in0;", { "s64" }, { "s64" }, { { 0 } }, r_neg64, NULL, NULL };
static const conf_op op_abs_s16 = { "abs.s16", "abs.s16 %out0, %in0;", { "s16" }, { "s16" }, { { 0 } }, r_abs16, NULL, NULL };
static const conf_case c_abs32[] = { I1(0), I1(5), I1(-5), I1(0x7fffffff), I1(0x80000001), I1(-1) };
static const conf_case c_abs64[] = { I1(0), I1(5), I1(-5), I1(0x7fffffffffffffffull), I1(0x8000000000000001ull), I1(0xffffffff) };
static const conf_case c_abs16[] = { I1(0), I1(5), I1(0xfffb), I1(0x7fff), I1(0x8001) };

static void r_min_s32(IN in, OUT out) { out[0] = M32(S32(in[0]) < S32(in[1]) ? S32(in[0]) : S32(in[1])); }
static void r_max_s32(IN in, OUT out) { out[0] = M32(S32(in[0]) > S32(in[1]) ? S32(in[0]) : S32(in[1])); }
static void r_min_u32(IN in, OUT out) { out[0] = M32(U32(in[0]) < U32(in[1]) ? U32(in[0]) : U32(in[1])); }
static void r_max_u32(IN in, OUT out) { out[0] = M32(U32(in[0]) > U32(in[1]) ? U32(in[0]) : U32(in[1])); }
static void r_min_s64(IN in, OUT out) { out[0] = S64(in[0]) < S64(in[1]) ? in[0] : in[1]; }
static void r_max_u64(IN in, OUT out) { out[0] = in[0] > in[1] ? in[0] : in[1]; }
static void r_min_s16(IN in, OUT out) { out[0] = M16(S16(in[0]) < S16(in[1]) ? S16(in[0]) : S16(in[1])); }
static void r_max_u16(IN in, OUT out) { out[0] = M16(U16(in[0]) > U16(in[1]) ? U16(in[0]) : U16(in[1])); }
static void r_min_relu(IN in, OUT out) { int32_t m = S32(in[0]) < S32(in[1]) ? S32(in[0]) : S32(in[1]); out[0] = M32(m < 0 ? 0 : m); }
static void r_max_relu(IN in, OUT out) { int32_t m = S32(in[0]) > S32(in[1]) ? S32(in[0]) : S32(in[1]); out[0] = M32(m < 0 ? 0 : m); }
static void r_min_s16x2(IN in, OUT out)
{
    uint32_t a = U32(in[0]), b = U32(in[1]), d = 0;
    for (int h = 0; h < 2; h++) {
        int16_t x = S16(a >> (16 * h)), y = S16(b >> (16 * h));
        d |= (uint32_t)U16(x < y ? x : y) << (16 * h);
    }
    out[0] = d;
}
static void r_max_u16x2(IN in, OUT out)
{
    uint32_t a = U32(in[0]), b = U32(in[1]), d = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t x = U16(a >> (16 * h)), y = U16(b >> (16 * h));
        d |= (uint32_t)(x > y ? x : y) << (16 * h);
    }
    out[0] = d;
}

static const conf_op op_min_s32 = { "min.s32", "min.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_min_s32, NULL, NULL };
static const conf_op op_max_s32 = { "max.s32", "max.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_max_s32, NULL, NULL };
static const conf_op op_min_u32 = { "min.u32", "min.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_min_u32, NULL, NULL };
static const conf_op op_max_u32 = { "max.u32", "max.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_max_u32, NULL, NULL };
static const conf_op op_min_s64 = { "min.s64", "min.s64 %out0, %in0, %in1;", { "s64", "s64" }, { "s64" }, { { 0 } }, r_min_s64, NULL, NULL };
static const conf_op op_max_u64 = { "max.u64", "max.u64 %out0, %in0, %in1;", { "u64", "u64" }, { "u64" }, { { 0 } }, r_max_u64, NULL, NULL };
static const conf_op op_min_s16 = { "min.s16", "min.s16 %out0, %in0, %in1;", { "s16", "s16" }, { "s16" }, { { 0 } }, r_min_s16, NULL, NULL };
static const conf_op op_max_u16 = { "max.u16", "max.u16 %out0, %in0, %in1;", { "u16", "u16" }, { "u16" }, { { 0 } }, r_max_u16, NULL, NULL };
static const conf_op op_min_relu = { "min.relu.s32", "min.relu.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_min_relu, NULL, NULL };
static const conf_op op_max_relu = { "max.relu.s32", "max.relu.s32 %out0, %in0, %in1;", { "s32", "s32" }, { "s32" }, { { 0 } }, r_max_relu, NULL, NULL };
static const conf_op op_min_s16x2 = { "min.s16x2", "min.s16x2 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_min_s16x2, NULL, NULL };
static const conf_op op_max_u16x2 = { "max.u16x2", "max.u16x2 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_max_u16x2, NULL, NULL };

static const conf_case c_minmax32[] = {
    I2(1, 2), I2(2, 1), I2(-1, 1), I2(0x80000000, 0x7fffffff), I2(0xffffffff, 0), I2(5, 5), I2(-7, -3),
};
static const conf_case c_minmax64[] = {
    I2(1, 2), I2(-1, 1), I2(0x8000000000000000ull, 0x7fffffffffffffffull), I2(~0ull, 0), I2(0x100000000ull, 0xffffffffull),
};
static const conf_case c_minmax16[] = { I2(1, 2), I2(0xffff, 1), I2(0x8000, 0x7fff), I2(3, 3) };
static const conf_case c_relu[] = { I2(1, 2), I2(-1, 5), I2(-1, -5), I2(0x80000000, 0x7fffffff), I2(0, -1) };
static const conf_case c_minmax16x2[] = { I2(0x00010002, 0x00020001), I2(0xffff0005, 0x0001fff0), I2(0x80007fff, 0x7fff8000) };


/* ---------------------------------------------------------------- immediate operands */

/* Integer literals: negative decimal, hex, octal (leading 0) and binary (0b). */
static void r_add_m5(IN in, OUT out) { out[0] = M32(U32(in[0]) - 5); }
static void r_and_hex(IN in, OUT out) { out[0] = M32(U32(in[0]) & 0xff00ff00u); }
static void r_add_oct(IN in, OUT out) { out[0] = M32(U32(in[0]) + 15); }
static void r_or_bin(IN in, OUT out) { out[0] = M32(U32(in[0]) | 10); }
static void r_add_m1_64(IN in, OUT out) { out[0] = in[0] - 1; }
static void r_mad_imm(IN in, OUT out) { out[0] = M32(U32(in[0]) * (uint32_t)-3 + 7); }
static const conf_op op_imm_neg = { "add.s32 with immediate -5", "add.s32 %out0, %in0, -5;", { "s32" }, { "s32" }, { { 0 } }, r_add_m5, NULL, NULL };
static const conf_op op_imm_hex = { "and.b32 with immediate 0xff00ff00", "and.b32 %out0, %in0, 0xff00ff00;", { "b32" }, { "b32" }, { { 0 } }, r_and_hex, NULL, NULL };
static const conf_op op_imm_oct = { "add.u32 with octal immediate 017", "add.u32 %out0, %in0, 017;", { "u32" }, { "u32" }, { { 0 } }, r_add_oct, NULL, NULL };
static const conf_op op_imm_bin = { "or.b32 with binary immediate 0b1010", "or.b32 %out0, %in0, 0b1010;", { "b32" }, { "b32" }, { { 0 } }, r_or_bin, NULL, NULL };
static const conf_op op_imm_64 = { "add.u64 with immediate 0xffffffffffffffff", "add.u64 %out0, %in0, 0xffffffffffffffff;", { "u64" }, { "u64" }, { { 0 } }, r_add_m1_64, NULL, NULL };
static const conf_op op_imm_mad = { "mad.lo.s32 with immediates -3 and 7", "mad.lo.s32 %out0, %in0, -3, 7;", { "s32" }, { "s32" }, { { 0 } }, r_mad_imm, NULL, NULL };
static const conf_case c_imm[] = { I1(0), I1(10), I1(0xffffffff), I1(0x12345678), I1(0x80000000) };
static const conf_case c_imm64[] = { I1(0), I1(1), I1(0x100000000ull) };

/* ---------------------------------------------------------------- suite */

static const conf_table tables[] = {
    CONF_TABLE(op_add_s32, c_add32), CONF_TABLE(op_add_u32, c_add32), CONF_TABLE(op_add_u32, c_add32_isa), CONF_TABLE(op_sub_s32, c_add32),
    CONF_TABLE(op_add_sat, c_sat32), CONF_TABLE(op_sub_sat, c_subsat32),
    CONF_TABLE(op_add_u64, c_add64), CONF_TABLE(op_sub_s64, c_sub64),
    CONF_TABLE(op_add_u16, c_16), CONF_TABLE(op_sub_s16, c_16), CONF_TABLE(op_add_u16x2, c_16x2),
    CONF_TABLE(op_add_chain, c_add_chain), CONF_TABLE(op_sub_chain, c_sub_chain),
    CONF_TABLE(op_mad_chain, c_mad_chain), CONF_TABLE(op_add_chain64, c_add_chain64),
    CONF_TABLE(op_sub_addc, c_sub_addc), CONF_TABLE(op_add_subc, c_add_subc),
    CONF_TABLE(op_sub_chain64, c_sub_chain64), CONF_TABLE(op_mixed64, c_mixed64),
    CONF_TABLE(op_mad_mixed, c_mad_mixed), CONF_TABLE(op_mad_chain64, c_mad_chain64),
    CONF_TABLE(op_mul_lo_s32, c_mul32), CONF_TABLE(op_mul_hi_s32, c_mul32), CONF_TABLE(op_mul_hi_s32, c_mulhi_isa),
    CONF_TABLE(op_mul_hi_u32, c_mul32), CONF_TABLE(op_mul_wide_s32, c_mul32), CONF_TABLE(op_mul_wide_u32, c_mul32),
    CONF_TABLE(op_mul_wide_s16, c_mul16), CONF_TABLE(op_mul_wide_u16, c_mul16), CONF_TABLE(op_mul_lo_u16, c_mul16),
    CONF_TABLE(op_mul_hi_s16, c_mul16),
    CONF_TABLE(op_mul_lo_u64, c_mul64), CONF_TABLE(op_mul_hi_u64, c_mul64), CONF_TABLE(op_mul_hi_s64, c_mul64),
    CONF_TABLE(op_mad_lo_s32, c_mad32), CONF_TABLE(op_mad_hi_s32, c_mad32), CONF_TABLE(op_mad_hi_sat, c_madsat),
    CONF_TABLE(op_mad_wide_u32, c_madwide), CONF_TABLE(op_mad_wide_s32, c_madwide),
    CONF_TABLE(op_mad_hi_u64, c_mad64), CONF_TABLE(op_mad_lo_s64, c_mad64),
    CONF_TABLE(op_mul24_lo_u32, c_mul24u), CONF_TABLE(op_mul24_hi_u32, c_mul24u), CONF_TABLE(op_mad24_lo_u32, c_mul24u),
    CONF_TABLE(op_mul24_lo_s32, c_mul24s), CONF_TABLE(op_mul24_hi_s32, c_mul24s), CONF_TABLE(op_mad24_hi_s32, c_mul24s),
    CONF_TABLE(op_sad_u32, c_sad32), CONF_TABLE(op_sad_s32, c_sad32), CONF_TABLE(op_sad_u64, c_sad64),
    CONF_TABLE(op_div_u32, c_divu32), CONF_TABLE(op_rem_u32, c_divu32),
    CONF_TABLE(op_div_s32, c_divs32_pos), CONF_TABLE(op_rem_s32, c_divs32_pos),
    CONF_TABLE(op_div_s32_neg, c_divs32_neg), CONF_TABLE(op_rem_s32_neg, c_divs32_neg),
    CONF_TABLE(op_div_u64, c_divu64), CONF_TABLE(op_rem_u64, c_divu64),
    CONF_TABLE(op_div_s64_neg, c_divs64_neg), CONF_TABLE(op_rem_s64_neg, c_divs64_neg),
    CONF_TABLE(op_div_u16, c_divu16), CONF_TABLE(op_rem_s16, c_rems16),
    CONF_TABLE(op_abs_s32, c_abs32), CONF_TABLE(op_neg_s32, c_abs32), CONF_TABLE(op_abs_s64, c_abs64),
    CONF_TABLE(op_neg_s64, c_abs64), CONF_TABLE(op_abs_s16, c_abs16),
    CONF_TABLE(op_min_s32, c_minmax32), CONF_TABLE(op_max_s32, c_minmax32), CONF_TABLE(op_min_u32, c_minmax32),
    CONF_TABLE(op_max_u32, c_minmax32), CONF_TABLE(op_min_s64, c_minmax64), CONF_TABLE(op_max_u64, c_minmax64),
    CONF_TABLE(op_min_s16, c_minmax16), CONF_TABLE(op_max_u16, c_minmax16),
    CONF_TABLE(op_min_relu, c_relu), CONF_TABLE(op_max_relu, c_relu),
    CONF_TABLE(op_min_s16x2, c_minmax16x2), CONF_TABLE(op_max_u16x2, c_minmax16x2),
    CONF_TABLE(op_imm_neg, c_imm), CONF_TABLE(op_imm_hex, c_imm), CONF_TABLE(op_imm_oct, c_imm), CONF_TABLE(op_imm_bin, c_imm),
    CONF_TABLE(op_imm_64, c_imm64), CONF_TABLE(op_imm_mad, c_imm),
};

START_TEST(int_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

/* ---------------------------------------------------------------- the carry flag under partial masks */

/* CC.CF is per thread: a carry-setting instruction changes it only in the threads that execute
 * it. Every thread sets CF = t & 1 (0xffffffff + (t & 1)); threads with t % 3 == 0 then set it
 * to the opposite in a branch the others skip, threads with t % 5 == 0 to 1 in a guarded
 * mad.lo.cc (0xffffffff * 1 + 1); after reconvergence every thread adds its CF with addc. */
START_TEST(carry_partial_masks)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .reg .b64 %a, %off;\n"
        "    .reg .b32 %t, %x, %y, %z, %r, %d, %e;\n"
        "    .reg .pred %p, %q;\n"
        "    ld.param.u64 %a, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %x, 0xffffffff;\n"
        "    and.b32 %y, %t, 1;\n"
        "    add.cc.u32 %d, %x, %y;\n"
        "    rem.u32 %r, %t, 3;\n"
        "    setp.ne.u32 %p, %r, 0;\n"
        "    @%p bra SKIP;\n"
        "    xor.b32 %z, %y, 1;\n"
        "    add.cc.u32 %d, %x, %z;\n"
        "SKIP:\n"
        "    rem.u32 %r, %t, 5;\n"
        "    setp.eq.u32 %q, %r, 0;\n"
        "    @%q mad.lo.cc.u32 %d, %x, 1, 1;\n"
        "    addc.u32 %e, %t, 0;\n"
        "    mul.wide.u32 %off, %t, 4;\n"
        "    add.u64 %a, %a, %off;\n"
        "    st.global.u32 [%a], %e;\n"
        "    ret;\n"
        "}\n";
    enum { N = 64 };
    uint32_t *out = conf_dev_alloc(N * sizeof(uint32_t));
    uint64_t params[1] = { conf_dev_addr(out) };
    conf_result r;
    conf_status st = conf_run_k("carry under partial masks", ptx, (emu_dim3){ 1, 1, 1 },
                                (emu_dim3){ N, 1, 1 }, 0, params, 1, &r);
    ck_assert_msg(st == CONF_OK, "%s", r.message);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t cf = t & 1;
        if (t % 3 == 0) cf = !cf;
        if (t % 5 == 0) cf = 1;
        ck_assert_msg(out[t] == t + cf, "thread %u: addc gave %u, want %u (CF %u)", t, out[t],
                      t + cf, cf);
    }
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_int");
    conf_add_tables(s, tables, CONF_N(tables), int_row);
    TCase *tc = tcase_create("carry flag under partial masks");
    tcase_add_test(tc, carry_partial_masks);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
