/* test_conformance_bits.c: PTX bit manipulation, shifts and logic against the PTX ISA
 * (sections 9.7.1 and 9.7.8).
 *
 * popc, clz, bfind (.shiftamt), brev, bfe, bfi, fns, prmt (default and the six modes), shf
 * (.l/.r, .wrap/.clamp), shl/shr with amounts past the width, dp4a/dp2a, bmsk, szext,
 * and/or/xor/not/cnot/lop3 on integers and predicates, and mov packing/unpacking of vectors. The reference functions transcribe the
 * ISA's semantics pseudo-code; rows marked "ISA value" are the examples printed in the ISA
 * (fns, bmsk, szext) or values worked out by hand from its tables (prmt modes).
 */
#include "tests/unit/conformance_harness.h"

typedef const uint64_t *IN;
typedef uint64_t *OUT;

#define U32(x) ((uint32_t)(x))
#define M32(x) ((uint64_t)(uint32_t)(x))

/* ---------------------------------------------------------------- popc / clz / brev / bfind */

static void r_popc32(IN in, OUT out) { out[0] = (uint64_t)__builtin_popcount(U32(in[0])); }
static void r_popc64(IN in, OUT out) { out[0] = (uint64_t)__builtin_popcountll(in[0]); }
static void r_clz32(IN in, OUT out) { out[0] = U32(in[0]) ? (uint64_t)__builtin_clz(U32(in[0])) : 32; }
static void r_clz64(IN in, OUT out) { out[0] = in[0] ? (uint64_t)__builtin_clzll(in[0]) : 64; }
static void r_brev32(IN in, OUT out)
{
    uint32_t a = U32(in[0]), d = 0;
    for (int i = 0; i < 32; i++) d |= ((a >> i) & 1u) << (31 - i);
    out[0] = d;
}
static void r_brev64(IN in, OUT out)
{
    uint64_t d = 0;
    for (int i = 0; i < 64; i++) d |= ((in[0] >> i) & 1u) << (63 - i);
    out[0] = d;
}

/* ISA pseudo-code of bfind. */
static uint32_t bfind_ref(uint64_t a, int msb, bool sgn, bool shiftamt)
{
    if (msb == 31) a &= 0xffffffffu;
    if (sgn && ((a >> msb) & 1)) a = ~a & (msb == 31 ? 0xffffffffu : ~UINT64_C(0));
    uint32_t d = 0xffffffffu;
    for (int i = msb; i >= 0; i--)
        if ((a >> i) & 1) {
            d = (uint32_t)i;
            break;
        }
    if (shiftamt && d != 0xffffffffu) d = (uint32_t)msb - d;
    return d;
}
static void r_bfind_u32(IN in, OUT out) { out[0] = bfind_ref(in[0], 31, false, false); }
static void r_bfind_s32(IN in, OUT out) { out[0] = bfind_ref(in[0], 31, true, false); }
static void r_bfind_u64(IN in, OUT out) { out[0] = bfind_ref(in[0], 63, false, false); }
static void r_bfind_s64(IN in, OUT out) { out[0] = bfind_ref(in[0], 63, true, false); }
static void r_bfind_sa_u32(IN in, OUT out) { out[0] = bfind_ref(in[0], 31, false, true); }
static void r_bfind_sa_s64(IN in, OUT out) { out[0] = bfind_ref(in[0], 63, true, true); }

static const conf_op op_popc32 = { "popc.b32", "popc.b32 %out0, %in0;", { "b32" }, { "u32" }, { { 0 } }, r_popc32, NULL, NULL };
static const conf_op op_popc64 = { "popc.b64", "popc.b64 %out0, %in0;", { "b64" }, { "u32" }, { { 0 } }, r_popc64, NULL, NULL };
static const conf_op op_clz32 = { "clz.b32", "clz.b32 %out0, %in0;", { "b32" }, { "u32" }, { { 0 } }, r_clz32, NULL, NULL };
static const conf_op op_clz64 = { "clz.b64", "clz.b64 %out0, %in0;", { "b64" }, { "u32" }, { { 0 } }, r_clz64, NULL, NULL };
static const conf_op op_brev32 = { "brev.b32", "brev.b32 %out0, %in0;", { "b32" }, { "b32" }, { { 0 } }, r_brev32, NULL, NULL };
static const conf_op op_brev64 = { "brev.b64", "brev.b64 %out0, %in0;", { "b64" }, { "b64" }, { { 0 } }, r_brev64, NULL, NULL };
static const conf_op op_bfind_u32 = { "bfind.u32", "bfind.u32 %out0, %in0;", { "u32" }, { "u32" }, { { 0 } }, r_bfind_u32, NULL, NULL };
static const conf_op op_bfind_s32 = { "bfind.s32", "bfind.s32 %out0, %in0;", { "s32" }, { "u32" }, { { 0 } }, r_bfind_s32, NULL, NULL };
static const conf_op op_bfind_u64 = { "bfind.u64", "bfind.u64 %out0, %in0;", { "u64" }, { "u32" }, { { 0 } }, r_bfind_u64, NULL, NULL };
static const conf_op op_bfind_s64 = { "bfind.s64", "bfind.s64 %out0, %in0;", { "s64" }, { "u32" }, { { 0 } }, r_bfind_s64, NULL, NULL };
static const conf_op op_bfind_sa_u32 = { "bfind.shiftamt.u32", "bfind.shiftamt.u32 %out0, %in0;", { "u32" }, { "u32" }, { { 0 } }, r_bfind_sa_u32, NULL, NULL };
static const conf_op op_bfind_sa_s64 = { "bfind.shiftamt.s64", "bfind.shiftamt.s64 %out0, %in0;", { "s64" }, { "u32" }, { { 0 } }, r_bfind_sa_s64, NULL, NULL };

static const conf_case c_bits32[] = {
    I1(0), I1(1), I1(0x80000000), I1(0xffffffff), I1(0x7fffffff), I1(0x00f0f000), I1(0x12345678), I1(0xfffffffe),
};
static const conf_case c_bits64[] = {
    I1(0), I1(1), I1(0x8000000000000000ull), I1(~0ull), I1(0x00000001ffffffffull), I1(0x0123456789abcdefull),
    I1(0x7fffffffffffffffull), I1(0xfffffffffffffffeull),
};
static const conf_case c_bfind_isa[] = {
    /* "bfind returns 0xffffffff if no non-sign bit is found": 0 unsigned, -1 signed */
    E1(0, 0xffffffff), E1(0x00010000, 16),
};
static const conf_case c_bfind_s_isa[] = { E1(0xffffffff, 0xffffffff), E1(0xfffffffe, 0), E1(0x80000000, 30) };
static const conf_case c_popc_isa[] = { E1(0xffffffff, 32), E1(0x0f0f0f0f, 16) };
static const conf_case c_clz_isa[] = { E1(0, 32), E1(1, 31), E1(0x80000000, 0) };

/* ---------------------------------------------------------------- bfe / bfi */

/* ISA pseudo-code of bfe. */
static uint64_t bfe_ref(uint64_t a, uint32_t b, uint32_t c, unsigned msb, bool sgn)
{
    unsigned pos = b & 0xff, len = c & 0xff, sbit = 0;
    if (sgn && len != 0) {
        unsigned p = pos + len - 1;
        if (p > msb) p = msb;
        sbit = (unsigned)(a >> p) & 1;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        unsigned bit = (i < len && pos + i <= msb) ? (unsigned)(a >> (pos + i)) & 1 : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}
static void r_bfe_u32(IN in, OUT out) { out[0] = bfe_ref(U32(in[0]), U32(in[1]), U32(in[2]), 31, false); }
static void r_bfe_s32(IN in, OUT out) { out[0] = bfe_ref(U32(in[0]), U32(in[1]), U32(in[2]), 31, true); }
static void r_bfe_u64(IN in, OUT out) { out[0] = bfe_ref(in[0], U32(in[1]), U32(in[2]), 63, false); }
static void r_bfe_s64(IN in, OUT out) { out[0] = bfe_ref(in[0], U32(in[1]), U32(in[2]), 63, true); }

static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t c, uint32_t dd, unsigned msb)
{
    unsigned pos = c & 0xff, len = dd & 0xff;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        uint64_t bit = UINT64_C(1) << (pos + i);
        f = (f & ~bit) | (((a >> i) & 1) << (pos + i));
    }
    return msb == 31 ? (uint32_t)f : f;
}
static void r_bfi32(IN in, OUT out) { out[0] = bfi_ref(U32(in[0]), U32(in[1]), U32(in[2]), U32(in[3]), 31); }
static void r_bfi64(IN in, OUT out) { out[0] = bfi_ref(in[0], in[1], U32(in[2]), U32(in[3]), 63); }

static const conf_op op_bfe_u32 = { "bfe.u32", "bfe.u32 %out0, %in0, %in1, %in2;", { "u32", "u32", "u32" }, { "u32" }, { { 0 } }, r_bfe_u32, NULL, NULL };
static const conf_op op_bfe_s32 = { "bfe.s32", "bfe.s32 %out0, %in0, %in1, %in2;", { "s32", "u32", "u32" }, { "s32" }, { { 0 } }, r_bfe_s32, NULL, NULL };
static const conf_op op_bfe_u64 = { "bfe.u64", "bfe.u64 %out0, %in0, %in1, %in2;", { "u64", "u32", "u32" }, { "u64" }, { { 0 } }, r_bfe_u64, NULL, NULL };
static const conf_op op_bfe_s64 = { "bfe.s64", "bfe.s64 %out0, %in0, %in1, %in2;", { "s64", "u32", "u32" }, { "s64" }, { { 0 } }, r_bfe_s64, NULL, NULL };
static const conf_op op_bfi32 = { "bfi.b32", "bfi.b32 %out0, %in0, %in1, %in2, %in3;", { "b32", "b32", "u32", "u32" }, { "b32" }, { { 0 } }, r_bfi32, NULL, NULL };
static const conf_op op_bfi64 = { "bfi.b64", "bfi.b64 %out0, %in0, %in1, %in2, %in3;", { "b64", "b64", "u32", "u32" }, { "b64" }, { { 0 } }, r_bfi64, NULL, NULL };

static const conf_case c_bfe32[] = {
    I3(0x12345678, 4, 8), I3(0x12345678, 0, 32), I3(0xf0000000, 28, 4), I3(0x80000000, 31, 1),
    I3(0x000000f0, 4, 4), I3(0x00000070, 4, 4), I3(0x12345678, 8, 0), I3(0x80000000, 40, 4),
    I3(0x7fffffff, 40, 4), I3(0x80000000, 28, 10), I3(0x12345678, 0x104, 8), I3(0x12345678, 4, 0x108),
    I3(0xdeadbeef, 12, 255), I3(0x00800000, 16, 8),
};
static const conf_case c_bfe64[] = {
    I3(0x0123456789abcdefull, 4, 8), I3(0x8000000000000000ull, 60, 8), I3(0xf000000000000000ull, 60, 4),
    I3(0x0123456789abcdefull, 32, 32), I3(0x8000000000000000ull, 100, 3), I3(0x0123456789abcdefull, 0, 0),
    I3(0x00000000ff000000ull, 24, 8), I3(0x8123456789abcdefull, 0, 64), I3(0x8123456789abcdefull, 1, 64),
    I3(0x8123456789abcdefull, 63, 1), I3(0x8123456789abcdefull, 32, 200),
};
static const conf_case c_bfi32[] = {
    I4(0xffff, 0, 8, 8), I4(0x5, 0xffffffff, 0, 3), I4(0xabcd, 0x12345678, 28, 8), I4(0xffffffff, 0, 40, 4),
    I4(0x1, 0x12345678, 4, 0), I4(0xffffffff, 0, 0, 32), I4(0x3, 0x80000000, 0x101, 0x102),
};
static const conf_case c_bfi64[] = {
    I4(0xffff, 0, 40, 8), I4(0x5, ~0ull, 62, 4), I4(0xdeadbeefull, 0x1111111111111111ull, 16, 32), I4(1, 0, 64, 1),
};

/* ---------------------------------------------------------------- fns */

static void r_fns(IN in, OUT out)
{
    uint32_t mask = U32(in[0]);
    int base = (int)U32(in[1]), offset = (int32_t)U32(in[2]);
    uint32_t d = 0xffffffffu;
    if (offset == 0) {
        if ((mask >> base) & 1) d = (uint32_t)base;
    } else {
        int pos = base, count = (offset < 0 ? -offset : offset) - 1, inc = offset > 0 ? 1 : -1;
        while (pos >= 0 && pos < 32) {
            if ((mask >> pos) & 1) {
                if (count == 0) {
                    d = (uint32_t)pos;
                    break;
                }
                count--;
            }
            pos += inc;
        }
    }
    out[0] = d;
}
static const conf_op op_fns = { "fns.b32", "fns.b32 %out0, %in0, %in1, %in2;", { "b32", "u32", "s32" }, { "b32" }, { { 0 } }, r_fns, NULL, NULL };
static const conf_case c_fns[] = {
    /* the four examples of the ISA */
    E3(0xaaaaaaaa, 3, 1, 3), E3(0xaaaaaaaa, 3, -1, 3), E3(0xaaaaaaaa, 2, 1, 3), E3(0xaaaaaaaa, 2, -1, 1),
    I3(0xaaaaaaaa, 0, 0), I3(0xaaaaaaaa, 1, 0), I3(0xffffffff, 0, 32), I3(0xffffffff, 0, 33), I3(0x80000001, 0, 2),
    I3(0x80000001, 31, -2), I3(0x80000001, 31, -3), I3(0, 5, 1), I3(0x00010000, 31, -1), I3(0x12345678, 4, 5),
};

/* ---------------------------------------------------------------- prmt */

static uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t tmp = (uint64_t)b << 32 | a;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel, byte;
        unsigned ctl = c & 3;
        switch (mode) {
        case 0: {
            sel = (c >> (4 * i)) & 0xf;
            byte = (unsigned)(tmp >> (8 * (sel & 7))) & 0xff;
            if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
            d |= (uint32_t)byte << (8 * i);
            continue;
        }
        case 1: sel = ctl + i; break;                           /* f4e */
        case 2: sel = (8 + ctl - i) & 7; break;                 /* b4e */
        case 3: sel = ctl; break;                               /* rc8 */
        case 4: sel = ctl > i ? ctl : i; break;                 /* ecl */
        case 5: sel = ctl < i ? ctl : i; break;                 /* ecr */
        default: sel = (i & 1) | ((ctl & 1) << 1); break;       /* rc16 */
        }
        byte = (unsigned)(tmp >> (8 * sel)) & 0xff;
        d |= (uint32_t)byte << (8 * i);
    }
    return d;
}
static void r_prmt(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 0); }
static void r_prmt_f4e(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 1); }
static void r_prmt_b4e(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 2); }
static void r_prmt_rc8(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 3); }
static void r_prmt_ecl(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 4); }
static void r_prmt_ecr(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 5); }
static void r_prmt_rc16(IN in, OUT out) { out[0] = prmt_ref(U32(in[0]), U32(in[1]), U32(in[2]), 6); }

#define PRMT_OP(var, mode, fn) \
    static const conf_op var = { "prmt.b32" mode, "prmt.b32" mode " %out0, %in0, %in1, %in2;", { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, fn, NULL, NULL }
PRMT_OP(op_prmt, "", r_prmt);
PRMT_OP(op_prmt_f4e, ".f4e", r_prmt_f4e);
PRMT_OP(op_prmt_b4e, ".b4e", r_prmt_b4e);
PRMT_OP(op_prmt_rc8, ".rc8", r_prmt_rc8);
PRMT_OP(op_prmt_ecl, ".ecl", r_prmt_ecl);
PRMT_OP(op_prmt_ecr, ".ecr", r_prmt_ecr);
PRMT_OP(op_prmt_rc16, ".rc16", r_prmt_rc16);

/* a = bytes 0..3 = 0x33221100, b = bytes 4..7 = 0x77665544: each result byte names its source. */
#define PA 0x33221100u
#define PB 0x77665544u
static const conf_case c_prmt[] = {
    E3(PA, PB, 0x3210, 0x33221100), E3(PA, PB, 0x7654, 0x77665544), E3(PA, PB, 0x0123, 0x00112233),
    E3(PA, PB, 0x4444, 0x44444444), E3(0x00007f80, 0, 0x8888, 0xffffffff), E3(0x00007f80, 0, 0x9999, 0),
    E3(0x00007f80, 0, 0x0819, 0x80ff7f00), I3(0xdeadbeef, 0xcafebabe, 0x5140), I3(0x8899aabb, 0xccddeeff, 0xfedc),
    I3(0x8899aabb, 0xccddeeff, 0xffff1234),
};
/* Byte tables of the modes (d.b3 d.b2 d.b1 d.b0 for selector 0..3), from the ISA. */
static const conf_case c_prmt_f4e[] = {
    E3(PA, PB, 0, 0x33221100), E3(PA, PB, 1, 0x44332211), E3(PA, PB, 2, 0x55443322), E3(PA, PB, 3, 0x66554433),
    E3(PA, PB, 0xfffffff5, 0x44332211),
};
static const conf_case c_prmt_b4e[] = {
    E3(PA, PB, 0, 0x55667700), E3(PA, PB, 1, 0x66770011), E3(PA, PB, 2, 0x77001122), E3(PA, PB, 3, 0x00112233),
};
static const conf_case c_prmt_rc8[] = {
    E3(PA, PB, 0, 0x00000000), E3(PA, PB, 1, 0x11111111), E3(PA, PB, 2, 0x22222222), E3(PA, PB, 3, 0x33333333),
};
static const conf_case c_prmt_ecl[] = {
    E3(PA, PB, 0, 0x33221100), E3(PA, PB, 1, 0x33221111), E3(PA, PB, 2, 0x33222222), E3(PA, PB, 3, 0x33333333),
};
static const conf_case c_prmt_ecr[] = {
    E3(PA, PB, 0, 0x00000000), E3(PA, PB, 1, 0x11111100), E3(PA, PB, 2, 0x22221100), E3(PA, PB, 3, 0x33221100),
};
static const conf_case c_prmt_rc16[] = {
    E3(PA, PB, 0, 0x11001100), E3(PA, PB, 1, 0x33223322), E3(PA, PB, 2, 0x11001100), E3(PA, PB, 3, 0x33223322),
};

/* ---------------------------------------------------------------- shf / shl / shr */

static uint32_t shf_ref(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp)
{
    uint32_t n = clamp ? (c < 32 ? c : 32) : (c & 0x1f);
    uint64_t v = (uint64_t)b << 32 | a;
    return left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
}
static void r_shf_l_wrap(IN in, OUT out) { out[0] = shf_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, false); }
static void r_shf_l_clamp(IN in, OUT out) { out[0] = shf_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, true); }
static void r_shf_r_wrap(IN in, OUT out) { out[0] = shf_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, false); }
static void r_shf_r_clamp(IN in, OUT out) { out[0] = shf_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, true); }
static const conf_op op_shf_l_wrap = { "shf.l.wrap.b32", "shf.l.wrap.b32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "b32" }, { { 0 } }, r_shf_l_wrap, NULL, NULL };
static const conf_op op_shf_l_clamp = { "shf.l.clamp.b32", "shf.l.clamp.b32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "b32" }, { { 0 } }, r_shf_l_clamp, NULL, NULL };
static const conf_op op_shf_r_wrap = { "shf.r.wrap.b32", "shf.r.wrap.b32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "b32" }, { { 0 } }, r_shf_r_wrap, NULL, NULL };
static const conf_op op_shf_r_clamp = { "shf.r.clamp.b32", "shf.r.clamp.b32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "b32" }, { { 0 } }, r_shf_r_clamp, NULL, NULL };
static const conf_case c_shf[] = {
    I3(0x89abcdef, 0x01234567, 0), I3(0x89abcdef, 0x01234567, 4), I3(0x89abcdef, 0x01234567, 31),
    I3(0x89abcdef, 0x01234567, 32), I3(0x89abcdef, 0x01234567, 36), I3(0x89abcdef, 0x01234567, 64),
    I3(0x89abcdef, 0x01234567, 0xffffffff), I3(0x80000000, 0x00000001, 1),
};
static const conf_case c_shf_l_isa[] = {
    /* clamp at 32: the result is all of a */
    E3(0x89abcdef, 0x01234567, 40, 0x89abcdef), E3(0x89abcdef, 0x01234567, 8, 0x23456789),
};

static void r_shl32(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = n >= 32 ? 0 : M32(U32(in[0]) << n); }
static void r_shr_u32(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = n >= 32 ? 0 : M32(U32(in[0]) >> n); }
static void r_shr_s32(IN in, OUT out)
{
    uint32_t n = U32(in[1]);
    out[0] = M32((int32_t)U32(in[0]) >> (n >= 32 ? 31 : n));
}
static void r_shl64(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = n >= 64 ? 0 : in[0] << n; }
static void r_shr_s64(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = (uint64_t)((int64_t)in[0] >> (n >= 64 ? 63 : n)); }
static void r_shr_u64(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = n >= 64 ? 0 : in[0] >> n; }
static void r_shl16(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = n >= 16 ? 0 : (uint16_t)((uint16_t)in[0] << n); }
static void r_shr_s16(IN in, OUT out) { uint32_t n = U32(in[1]); out[0] = (uint16_t)((int16_t)(uint16_t)in[0] >> (n >= 16 ? 15 : n)); }

static const conf_op op_shl_b32 = { "shl.b32", "shl.b32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_shl32, NULL, NULL };
static const conf_op op_shr_u32 = { "shr.u32", "shr.u32 %out0, %in0, %in1;", { "u32", "u32" }, { "u32" }, { { 0 } }, r_shr_u32, NULL, NULL };
static const conf_op op_shr_b32 = { "shr.b32 (logical)", "shr.b32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_shr_u32, NULL, NULL };
static const conf_op op_shr_s32 = { "shr.s32", "shr.s32 %out0, %in0, %in1;", { "s32", "u32" }, { "s32" }, { { 0 } }, r_shr_s32, NULL, NULL };
static const conf_op op_shl_b64 = { "shl.b64", "shl.b64 %out0, %in0, %in1;", { "b64", "u32" }, { "b64" }, { { 0 } }, r_shl64, NULL, NULL };
static const conf_op op_shr_s64 = { "shr.s64", "shr.s64 %out0, %in0, %in1;", { "s64", "u32" }, { "s64" }, { { 0 } }, r_shr_s64, NULL, NULL };
static const conf_op op_shr_u64 = { "shr.u64", "shr.u64 %out0, %in0, %in1;", { "u64", "u32" }, { "u64" }, { { 0 } }, r_shr_u64, NULL, NULL };
static const conf_op op_shl_b16 = { "shl.b16", "shl.b16 %out0, %in0, %in1;", { "b16", "u32" }, { "b16" }, { { 0 } }, r_shl16, NULL, NULL };
static const conf_op op_shr_s16 = { "shr.s16", "shr.s16 %out0, %in0, %in1;", { "s16", "u32" }, { "s16" }, { { 0 } }, r_shr_s16, NULL, NULL };
static const conf_op op_shl_imm = { "shl.b32 by immediate", "shl.b32 %out0, %in0, 7;", { "b32" }, { "b32" }, { { 0 } }, NULL, NULL, NULL };

static const conf_case c_shift32[] = {
    I2(0x80000001, 0), I2(0x80000001, 1), I2(0x80000001, 31), I2(0x80000001, 32), I2(0x80000001, 33),
    I2(0x80000001, 0xffffffff), I2(0x7ffffff0, 4), I2(0xf0000000, 100), I2(0x12345678, 16),
};
static const conf_case c_shift64[] = {
    I2(0x8000000000000001ull, 1), I2(0x8000000000000001ull, 63), I2(0x8000000000000001ull, 64),
    I2(0x8000000000000001ull, 65), I2(0x8000000000000001ull, 32), I2(0x7ff0000000000000ull, 200), I2(0x0123456789abcdefull, 4),
};
static const conf_case c_shift16[] = { I2(0x8001, 1), I2(0x8001, 15), I2(0x8001, 16), I2(0x8001, 40), I2(0x4000, 1) };
static const conf_case c_shl_imm[] = { E1(1, 0x80), E1(0x03000001, 0x80000080) };

/* ---------------------------------------------------------------- dp4a / dp2a */

static int32_t byte_of(uint32_t v, int i, bool sgn)
{
    uint8_t b = (uint8_t)(v >> (8 * i));
    return sgn ? (int8_t)b : b;
}
static int32_t half_of(uint32_t v, int i, bool sgn)
{
    uint16_t h = (uint16_t)(v >> (16 * i));
    return sgn ? (int16_t)h : h;
}
static uint32_t dp4a_ref(uint32_t a, uint32_t b, uint32_t c, bool as, bool bs)
{
    uint32_t d = c;
    for (int i = 0; i < 4; i++) d += (uint32_t)(byte_of(a, i, as) * byte_of(b, i, bs));
    return d;
}
static uint32_t dp2a_ref(uint32_t a, uint32_t b, uint32_t c, bool as, bool bs, bool hi)
{
    uint32_t d = c;
    for (int i = 0; i < 2; i++) d += (uint32_t)(half_of(a, i, as) * byte_of(b, (hi ? 2 : 0) + i, bs));
    return d;
}
static void r_dp4a_uu(IN in, OUT out) { out[0] = dp4a_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, false); }
static void r_dp4a_ss(IN in, OUT out) { out[0] = dp4a_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, true); }
static void r_dp4a_us(IN in, OUT out) { out[0] = dp4a_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, true); }
static void r_dp4a_su(IN in, OUT out) { out[0] = dp4a_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, false); }
static void r_dp2a_lo_uu(IN in, OUT out) { out[0] = dp2a_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, false, false); }
static void r_dp2a_hi_ss(IN in, OUT out) { out[0] = dp2a_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, true, true); }
static void r_dp2a_lo_su(IN in, OUT out) { out[0] = dp2a_ref(U32(in[0]), U32(in[1]), U32(in[2]), true, false, false); }
static void r_dp2a_hi_us(IN in, OUT out) { out[0] = dp2a_ref(U32(in[0]), U32(in[1]), U32(in[2]), false, true, true); }

static const conf_op op_dp4a_uu = { "dp4a.u32.u32", "dp4a.u32.u32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "u32" }, { { 0 } }, r_dp4a_uu, NULL, NULL };
static const conf_op op_dp4a_ss = { "dp4a.s32.s32", "dp4a.s32.s32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp4a_ss, NULL, NULL };
static const conf_op op_dp4a_us = { "dp4a.u32.s32", "dp4a.u32.s32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp4a_us, NULL, NULL };
static const conf_op op_dp4a_su = { "dp4a.s32.u32", "dp4a.s32.u32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp4a_su, NULL, NULL };
static const conf_op op_dp2a_lo_uu = { "dp2a.lo.u32.u32", "dp2a.lo.u32.u32 %out0, %in0, %in1, %in2;", { "b32", "b32", "u32" }, { "u32" }, { { 0 } }, r_dp2a_lo_uu, NULL, NULL };
static const conf_op op_dp2a_hi_ss = { "dp2a.hi.s32.s32", "dp2a.hi.s32.s32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp2a_hi_ss, NULL, NULL };
static const conf_op op_dp2a_lo_su = { "dp2a.lo.s32.u32", "dp2a.lo.s32.u32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp2a_lo_su, NULL, NULL };
static const conf_op op_dp2a_hi_us = { "dp2a.hi.u32.s32", "dp2a.hi.u32.s32 %out0, %in0, %in1, %in2;", { "b32", "b32", "s32" }, { "s32" }, { { 0 } }, r_dp2a_hi_us, NULL, NULL };
static const conf_case c_dp[] = {
    I3(0x01020304, 0x05060708, 0), I3(0xffffffff, 0xffffffff, 0), I3(0x80808080, 0x7f7f7f7f, 100),
    I3(0xff01ff01, 0x01ff01ff, -5), I3(0x12345678, 0x9abcdef0, 0xfffffff0), I3(0x80008000, 0x80808080, 0x7fffffff),
};
static const conf_case c_dp4a_isa[] = { E3(0x01020304, 0x01010101, 10, 20) };

/* ---------------------------------------------------------------- bmsk / szext */

static uint32_t bmsk_ref(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
    bool bpo = false, bwo = false;
    if (clamp) {
        if (a >= 32) {
            bpo = true;
            mask0 = 0;
        }
        if (b >= 32) bwo = true;
    }
    if (sum >= 32 || bpo || bwo) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    return mask0 & ~mask1;
}
static void r_bmsk_clamp(IN in, OUT out) { out[0] = bmsk_ref(U32(in[0]), U32(in[1]), true); }
static void r_bmsk_wrap(IN in, OUT out) { out[0] = bmsk_ref(U32(in[0]), U32(in[1]), false); }
static const conf_op op_bmsk_clamp = { "bmsk.clamp.b32", "bmsk.clamp.b32 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_bmsk_clamp, NULL, NULL };
static const conf_op op_bmsk_wrap = { "bmsk.wrap.b32", "bmsk.wrap.b32 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_bmsk_wrap, NULL, NULL };
static const conf_case c_bmsk[] = {
    E2(1, 2, 0x6), /* the ISA's example */
    I2(0, 0), I2(0, 8), I2(4, 8), I2(24, 8), I2(24, 16), I2(0, 31), I2(31, 1), I2(33, 2), I2(2, 33), I2(40, 40), I2(16, 32),
};

static uint32_t szext_ref(uint32_t a, uint32_t b, bool clamp, bool sgn)
{
    uint32_t b1 = b & 0x1f;
    bool too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    uint32_t sign_pos = (b1 - 1) & 0x1f;
    bool sign_bit = (b1 == 0 || too_large || !sgn) ? false : (a >> sign_pos) & 1;
    return (a & ~mask) | (sign_bit ? mask : 0);
}
static void r_szext_clamp_s(IN in, OUT out) { out[0] = szext_ref(U32(in[0]), U32(in[1]), true, true); }
static void r_szext_wrap_s(IN in, OUT out) { out[0] = szext_ref(U32(in[0]), U32(in[1]), false, true); }
static void r_szext_clamp_u(IN in, OUT out) { out[0] = szext_ref(U32(in[0]), U32(in[1]), true, false); }
static void r_szext_wrap_u(IN in, OUT out) { out[0] = szext_ref(U32(in[0]), U32(in[1]), false, false); }
static const conf_op op_szext_clamp_s = { "szext.clamp.s32", "szext.clamp.s32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_szext_clamp_s, NULL, NULL };
static const conf_op op_szext_wrap_s = { "szext.wrap.s32", "szext.wrap.s32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_szext_wrap_s, NULL, NULL };
static const conf_op op_szext_clamp_u = { "szext.clamp.u32", "szext.clamp.u32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_szext_clamp_u, NULL, NULL };
static const conf_op op_szext_wrap_u = { "szext.wrap.u32", "szext.wrap.u32 %out0, %in0, %in1;", { "b32", "u32" }, { "b32" }, { { 0 } }, r_szext_wrap_u, NULL, NULL };
static const conf_case c_szext[] = {
    I2(0x000000ff, 8), I2(0x0000007f, 8), I2(0x00000080, 8), I2(0xffff8000, 16), I2(0x12345678, 12),
    I2(0x12345678, 0), I2(0x80000000, 32), I2(0x12345678, 33), I2(0x00000001, 1), I2(0xdeadbeef, 31),
};
static const conf_case c_szext_u_isa[] = { E2(0xffffffff, 0, 0) /* the ISA's example */ };

/* ---------------------------------------------------------------- logic */

static void r_and(IN in, OUT out) { out[0] = in[0] & in[1]; }
static void r_or(IN in, OUT out) { out[0] = in[0] | in[1]; }
static void r_xor(IN in, OUT out) { out[0] = in[0] ^ in[1]; }
static void r_not(IN in, OUT out) { out[0] = ~in[0]; }
static void r_cnot(IN in, OUT out) { out[0] = U32(in[0]) == 0; }
static void r_cnot16(IN in, OUT out) { out[0] = (uint16_t)in[0] == 0; }
static void r_pand(IN in, OUT out) { out[0] = (in[0] & 1) & (in[1] & 1); }
static void r_por(IN in, OUT out) { out[0] = (in[0] & 1) | (in[1] & 1); }
static void r_pxor(IN in, OUT out) { out[0] = (in[0] & 1) ^ (in[1] & 1); }
static void r_pnot(IN in, OUT out) { out[0] = !(in[0] & 1); }

static const conf_op op_and32 = { "and.b32", "and.b32 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_and, NULL, NULL };
static const conf_op op_or32 = { "or.b32", "or.b32 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_or, NULL, NULL };
static const conf_op op_xor32 = { "xor.b32", "xor.b32 %out0, %in0, %in1;", { "b32", "b32" }, { "b32" }, { { 0 } }, r_xor, NULL, NULL };
static const conf_op op_not32 = { "not.b32", "not.b32 %out0, %in0;", { "b32" }, { "b32" }, { { 0 } }, r_not, NULL, NULL };
static const conf_op op_and64 = { "and.b64", "and.b64 %out0, %in0, %in1;", { "b64", "b64" }, { "b64" }, { { 0 } }, r_and, NULL, NULL };
static const conf_op op_xor64 = { "xor.b64", "xor.b64 %out0, %in0, %in1;", { "b64", "b64" }, { "b64" }, { { 0 } }, r_xor, NULL, NULL };
static const conf_op op_not64 = { "not.b64", "not.b64 %out0, %in0;", { "b64" }, { "b64" }, { { 0 } }, r_not, NULL, NULL };
static const conf_op op_or16 = { "or.b16", "or.b16 %out0, %in0, %in1;", { "b16", "b16" }, { "b16" }, { { 0 } }, r_or, NULL, NULL };
static const conf_op op_cnot32 = { "cnot.b32", "cnot.b32 %out0, %in0;", { "b32" }, { "b32" }, { { 0 } }, r_cnot, NULL, NULL };
static const conf_op op_cnot16 = { "cnot.b16", "cnot.b16 %out0, %in0;", { "b16" }, { "b16" }, { { 0 } }, r_cnot16, NULL, NULL };
static const conf_op op_pand = { "and.pred", "and.pred %out0, %in0, %in1;", { "pred", "pred" }, { "pred" }, { { 0 } }, r_pand, NULL, NULL };
static const conf_op op_por = { "or.pred", "or.pred %out0, %in0, %in1;", { "pred", "pred" }, { "pred" }, { { 0 } }, r_por, NULL, NULL };
static const conf_op op_pxor = { "xor.pred", "xor.pred %out0, %in0, %in1;", { "pred", "pred" }, { "pred" }, { { 0 } }, r_pxor, NULL, NULL };
static const conf_op op_pnot = { "not.pred", "not.pred %out0, %in0;", { "pred" }, { "pred" }, { { 0 } }, r_pnot, NULL, NULL };

static const conf_case c_logic32[] = {
    I2(0, 0), I2(0xffffffff, 0x12345678), I2(0xf0f0f0f0, 0x0ff00ff0), I2(0x80000001, 0x80000000), I2(0xdeadbeef, 0xffffffff),
};
static const conf_case c_logic64[] = { I2(~0ull, 0x0123456789abcdefull), I2(0xf0f0f0f0f0f0f0f0ull, 0x0ff00ff00ff00ff0ull), I2(0, 1) };
static const conf_case c_logic16[] = { I2(0xf000, 0x000f), I2(0x1234, 0x4321) };
static const conf_case c_cnot[] = { I1(0), I1(1), I1(0x80000000), I1(0xffffffff), I1(0x10000) };
static const conf_case c_pred2[] = { I2(0, 0), I2(0, 1), I2(1, 0), I2(1, 1) };

/* lop3: each result bit is bit (a<<2 | b<<1 | c) of immLut (ta = 0xf0, tb = 0xcc, tc = 0xaa). */
static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
    uint32_t d = 0;
    for (int i = 0; i < 32; i++) {
        unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
        d |= (uint32_t)((lut >> idx) & 1) << i;
    }
    return d;
}
#define LOP3(var, lut)                                                                          \
    static void r_##var(IN in, OUT out) { out[0] = lop3_ref(U32(in[0]), U32(in[1]), U32(in[2]), lut); } \
    static const conf_op var = { "lop3.b32 immLut " #lut, "lop3.b32 %out0, %in0, %in1, %in2, " #lut ";", { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, r_##var, NULL, NULL }
LOP3(op_lop3_and3, 0x80);   /* a & b & c */
LOP3(op_lop3_xor3, 0x96);   /* a ^ b ^ c */
LOP3(op_lop3_sel, 0xca);    /* a ? b : c, bitwise */
LOP3(op_lop3_or_andn, 0xf8);/* a | (b & c) */
LOP3(op_lop3_maj, 0xe8);    /* majority */
LOP3(op_lop3_zero, 0x00);
LOP3(op_lop3_ones, 0xff);
LOP3(op_lop3_nb, 0x33);     /* ~b */
static const conf_case c_lop3[] = {
    I3(0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa), I3(0x12345678, 0x9abcdef0, 0x0fedcba9), I3(0, 0xffffffff, 0x55555555),
};


/* ---------------------------------------------------------------- mov packing */

/* "mov may be used to pack vector elements into a scalar register or unpack sub-fields of a
 * scalar register into a vector": the first element is the least significant. */
static void r_pack64(IN in, OUT out) { out[0] = (uint64_t)U32(in[1]) << 32 | U32(in[0]); }
static void r_unpack64(IN in, OUT out) { out[0] = U32(in[0]); out[1] = U32(in[0] >> 32); }
static void r_pack32(IN in, OUT out) { out[0] = (uint32_t)(uint16_t)in[1] << 16 | (uint16_t)in[0]; }
static void r_unpack32(IN in, OUT out) { out[0] = (uint16_t)in[0]; out[1] = (uint16_t)(in[0] >> 16); }
static void r_pack64x4(IN in, OUT out)
{
    out[0] = (uint64_t)(uint16_t)in[3] << 48 | (uint64_t)(uint16_t)in[2] << 32 | (uint64_t)(uint16_t)in[1] << 16 | (uint16_t)in[0];
}
static const conf_op op_pack64 = { "mov.b64 d, {a, b}", "mov.b64 %out0, {%in0, %in1};", { "b32", "b32" }, { "b64" }, { { 0 } }, r_pack64, NULL, NULL };
static const conf_op op_unpack64 = { "mov.b64 {a, b}, d", "mov.b64 {%out0, %out1}, %in0;", { "b64" }, { "b32", "b32" }, { { 0 } }, r_unpack64, NULL, NULL };
static const conf_op op_pack32 = { "mov.b32 d, {a, b} (16-bit halves)", "mov.b32 %out0, {%in0, %in1};", { "b16", "b16" }, { "b32" }, { { 0 } }, r_pack32, NULL, NULL };
static const conf_op op_unpack32 = { "mov.b32 {a, b}, d (16-bit halves)", "mov.b32 {%out0, %out1}, %in0;", { "b32" }, { "b16", "b16" }, { { 0 } }, r_unpack32, NULL, NULL };
static const conf_op op_pack64x4 = { "mov.b64 d, {a, b, c, e} (16-bit quarters)", "mov.b64 %out0, {%in0, %in1, %in2, %in3};", { "b16", "b16", "b16", "b16" }, { "b64" }, { { 0 } }, r_pack64x4, NULL, NULL };
static const conf_case c_pack[] = { I4(0x11112222, 0x33334444, 0x5555, 0x6666), I4(0xffffffff, 0, 0xffff, 0), I4(0x89abcdef, 0x01234567, 0x1234, 0xfedc) };
static const conf_case c_unpack64[] = { I1(0x0123456789abcdefull), I1(0xffffffff00000000ull) };
static const conf_case c_unpack32[] = { I1(0x12345678), I1(0xffff0000) };
static const conf_case c_pack64_isa[] = { E2(0x89abcdef, 0x01234567, 0x0123456789abcdefull) };

static const conf_table tables[] = {
    CONF_TABLE(op_popc32, c_bits32), CONF_TABLE(op_popc32, c_popc_isa), CONF_TABLE(op_popc64, c_bits64),
    CONF_TABLE(op_clz32, c_bits32), CONF_TABLE(op_clz32, c_clz_isa), CONF_TABLE(op_clz64, c_bits64),
    CONF_TABLE(op_brev32, c_bits32), CONF_TABLE(op_brev64, c_bits64),
    CONF_TABLE(op_bfind_u32, c_bits32), CONF_TABLE(op_bfind_u32, c_bfind_isa), CONF_TABLE(op_bfind_s32, c_bits32),
    CONF_TABLE(op_bfind_s32, c_bfind_s_isa), CONF_TABLE(op_bfind_u64, c_bits64), CONF_TABLE(op_bfind_s64, c_bits64),
    CONF_TABLE(op_bfind_sa_u32, c_bits32), CONF_TABLE(op_bfind_sa_s64, c_bits64),
    CONF_TABLE(op_bfe_u32, c_bfe32), CONF_TABLE(op_bfe_s32, c_bfe32), CONF_TABLE(op_bfe_u64, c_bfe64),
    CONF_TABLE(op_bfe_s64, c_bfe64), CONF_TABLE(op_bfi32, c_bfi32), CONF_TABLE(op_bfi64, c_bfi64),
    CONF_TABLE(op_fns, c_fns),
    CONF_TABLE(op_prmt, c_prmt), CONF_TABLE(op_prmt_f4e, c_prmt_f4e), CONF_TABLE(op_prmt_b4e, c_prmt_b4e),
    CONF_TABLE(op_prmt_rc8, c_prmt_rc8), CONF_TABLE(op_prmt_ecl, c_prmt_ecl), CONF_TABLE(op_prmt_ecr, c_prmt_ecr),
    CONF_TABLE(op_prmt_rc16, c_prmt_rc16),
    CONF_TABLE(op_shf_l_wrap, c_shf), CONF_TABLE(op_shf_l_clamp, c_shf), CONF_TABLE(op_shf_l_clamp, c_shf_l_isa),
    CONF_TABLE(op_shf_r_wrap, c_shf), CONF_TABLE(op_shf_r_clamp, c_shf),
    CONF_TABLE(op_shl_b32, c_shift32), CONF_TABLE(op_shr_u32, c_shift32), CONF_TABLE(op_shr_b32, c_shift32),
    CONF_TABLE(op_shr_s32, c_shift32), CONF_TABLE(op_shl_b64, c_shift64), CONF_TABLE(op_shr_s64, c_shift64),
    CONF_TABLE(op_shr_u64, c_shift64), CONF_TABLE(op_shl_b16, c_shift16), CONF_TABLE(op_shr_s16, c_shift16),
    CONF_TABLE(op_shl_imm, c_shl_imm),
    CONF_TABLE(op_dp4a_uu, c_dp), CONF_TABLE(op_dp4a_uu, c_dp4a_isa), CONF_TABLE(op_dp4a_ss, c_dp),
    CONF_TABLE(op_dp4a_us, c_dp), CONF_TABLE(op_dp4a_su, c_dp), CONF_TABLE(op_dp2a_lo_uu, c_dp),
    CONF_TABLE(op_dp2a_hi_ss, c_dp), CONF_TABLE(op_dp2a_lo_su, c_dp), CONF_TABLE(op_dp2a_hi_us, c_dp),
    CONF_TABLE(op_bmsk_clamp, c_bmsk), CONF_TABLE(op_bmsk_wrap, c_bmsk),
    CONF_TABLE(op_szext_clamp_s, c_szext), CONF_TABLE(op_szext_wrap_s, c_szext), CONF_TABLE(op_szext_clamp_u, c_szext),
    CONF_TABLE(op_szext_wrap_u, c_szext), CONF_TABLE(op_szext_wrap_u, c_szext_u_isa),
    CONF_TABLE(op_and32, c_logic32), CONF_TABLE(op_or32, c_logic32), CONF_TABLE(op_xor32, c_logic32),
    CONF_TABLE(op_not32, c_logic32), CONF_TABLE(op_and64, c_logic64), CONF_TABLE(op_xor64, c_logic64),
    CONF_TABLE(op_not64, c_logic64), CONF_TABLE(op_or16, c_logic16), CONF_TABLE(op_cnot32, c_cnot),
    CONF_TABLE(op_cnot16, c_cnot),
    CONF_TABLE(op_pand, c_pred2), CONF_TABLE(op_por, c_pred2), CONF_TABLE(op_pxor, c_pred2), CONF_TABLE(op_pnot, c_pred2),
    CONF_TABLE(op_lop3_and3, c_lop3), CONF_TABLE(op_lop3_xor3, c_lop3), CONF_TABLE(op_lop3_sel, c_lop3),
    CONF_TABLE(op_lop3_or_andn, c_lop3), CONF_TABLE(op_lop3_maj, c_lop3), CONF_TABLE(op_lop3_zero, c_lop3),
    CONF_TABLE(op_lop3_ones, c_lop3), CONF_TABLE(op_lop3_nb, c_lop3),
    CONF_TABLE(op_pack64, c_pack), CONF_TABLE(op_pack64, c_pack64_isa), CONF_TABLE(op_unpack64, c_unpack64),
    CONF_TABLE(op_pack32, c_pack), CONF_TABLE(op_unpack32, c_unpack32), CONF_TABLE(op_pack64x4, c_pack),
};

START_TEST(bits_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_bits");
    conf_add_tables(s, tables, CONF_N(tables), bits_row);
    return conf_main(s);
}
