/* sem_video.c: the video instructions (PTX ISA 9.0, section 9.7.18), one lane at a time.
 *
 * Scalar forms (vadd vsub vabsdiff vmin vmax vshl vshr vmad vset) follow the ISA's stages:
 * extract a byte/half-word/word by selector and sign- or zero-extend it per .atype/.btype to 33
 * bits, operate exactly (here in 64 or 128 bits), optionally saturate, then apply the secondary
 * operation with c or merge into c, and keep the low 32 bits. The ISA leaves optSaturate and
 * optMerge undefined; GPUs since sm_70 have no video unit and run the code ptxas emits for
 * them, so saturation, the secondary operations and merges here follow that code (read from
 * ptxas 13.0's sm_90 SASS, and confirmed by an H100: see gpu_saturate and merge below). SIMD forms (vadd2 ... vset4) pick their half-word or byte lanes from the
 * 4 half-words / 8 bytes of {b, a}, operate per lane, and either merge the masked lanes into c
 * or add them to c (.add).
 */
#include "emulator/sem/sem.h"

typedef __int128 s128;

/* A packed selector (ptx_operand.imm): its letter and its digits in written order. */
static int sel_digits(int64_t sel, char *letter, int d[4])
{
    uint64_t s = (uint64_t)sel;
    *letter = (char)(s & 0xff);
    int n = 0;
    for (s >>= 8; s && n < 4; s >>= 8)
        d[n++] = (int)(s & 0xff) - '0';
    return s ? -1 : n;
}

static bool is_simd2(int op)
{
    return op == PTX_OP_VADD2 || op == PTX_OP_VSUB2 || op == PTX_OP_VAVRG2 ||
           op == PTX_OP_VABSDIFF2 || op == PTX_OP_VMIN2 || op == PTX_OP_VMAX2 ||
           op == PTX_OP_VSET2;
}

static bool is_simd4(int op)
{
    return op == PTX_OP_VADD4 || op == PTX_OP_VSUB4 || op == PTX_OP_VAVRG4 ||
           op == PTX_OP_VABSDIFF4 || op == PTX_OP_VMIN4 || op == PTX_OP_VMAX4 ||
           op == PTX_OP_VSET4;
}

/* Scalar selectors: one of .b0-.b3, .h0, .h1. */
static bool scalar_sel_ok(int64_t sel)
{
    if (!sel)
        return true;
    char l;
    int d[4];
    int n = sel_digits(sel, &l, d);
    return n == 1 && ((l == 'b' && d[0] >= 0 && d[0] <= 3) || (l == 'h' && d[0] >= 0 && d[0] <= 1));
}

/* SIMD source selectors pick `lanes` elements out of 2 * lanes; masks name lanes. */
static bool simd_sel_ok(int64_t sel, int lanes, bool mask)
{
    if (!sel)
        return true;
    char l;
    int d[4];
    int n = sel_digits(sel, &l, d);
    if (l != (lanes == 2 ? 'h' : 'b'))
        return false;
    if (mask ? (n < 1 || n > lanes) : n != lanes)
        return false;
    for (int i = 0; i < n; i++)
        if (d[i] < 0 || d[i] >= (mask ? lanes : 2 * lanes))
            return false;
    return true;
}

bool emu_video_valid(const emu_video *v)
{
    int op = v->op;
    bool simd = is_simd2(op) || is_simd4(op);
    if (simd) {
        int lanes = is_simd2(op) ? 2 : 4;
        /* the SIMD forms only accumulate (.add), never saturated; c is always an operand */
        if ((v->op2 && v->op2 != PTX_SFX_ADD) || (v->op2 && v->sat) || !v->has_c)
            return false;
        return simd_sel_ok(v->asel, lanes, false) && simd_sel_ok(v->bsel, lanes, false) &&
               simd_sel_ok(v->dsel, lanes, true);
    }
    switch (op) {
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN:
    case PTX_OP_VMAX: case PTX_OP_VSET: case PTX_OP_VSHL: case PTX_OP_VSHR:
        if (v->op2 && v->op2 != PTX_SFX_ADD && v->op2 != PTX_SFX_MIN && v->op2 != PTX_SFX_MAX)
            return false;
        /* a secondary operation or a merge needs c, and the two do not combine */
        if ((v->op2 || v->dsel) && !v->has_c)
            return false;
        if (v->op2 && v->dsel)
            return false;
        break;
    case PTX_OP_VMAD:
        if (v->op2 || v->dsel || !v->has_c)
            return false;
        break;
    default:
        return false;
    }
    return scalar_sel_ok(v->asel) && scalar_sel_ok(v->bsel) && scalar_sel_ok(v->dsel);
}

/* partSelectSignExtend: the selected byte/half-word/word of x, extended per its type. */
static int64_t part_select(uint32_t x, bool sgn, int64_t sel)
{
    unsigned bits = 32, shift = 0;
    if (sel) {
        char l;
        int d[4];
        sel_digits(sel, &l, d);
        bits = l == 'b' ? 8 : 16;
        shift = (unsigned)d[0] * bits;
    }
    uint64_t v = (x >> shift) & emu_mask_bits(bits);
    return sgn ? emu_sext(v, bits) : (int64_t)v;
}

static s128 clamp(s128 v, s128 lo, s128 hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* optSaturate as a GPU does it (ptxas's sm_90 code; an H100 gives 0x7f for
 * vsub.s32.s32.s32.sat d.b2 of 0 - 1, and 0 for vshl.u32.u32.u32.clamp.sat of 0x7f by 32):
 * - with a byte/half-word merge selector (not for shifts) the range is that of the selected
 *   part, but every value outside [0, max] becomes max, negative ones included;
 * - otherwise the 32-bit range of the destination type; an unsigned destination clamps only
 *   negative values to 0 and keeps the low 32 bits of larger ones (vadd.u32.u32.u32.sat of
 *   0xffffffff + 1 is 0), except after a shift, which clamps both ends;
 * - a shift left keeps only 34 bits of its result, signed, before saturating (scalar() does
 *   it), so 0x7f << 32 is negative and saturates to 0. */
static s128 gpu_saturate(s128 tmp, bool sgn, bool is_shift, int64_t dsel)
{
    if (dsel && !is_shift) {
        unsigned bits = (dsel & 0xff) == 'b' ? 8 : 16;
        s128 max = sgn ? ((s128)1 << (bits - 1)) - 1 : ((s128)1 << bits) - 1;
        return tmp < 0 || tmp > max ? max : tmp;
    }
    if (sgn)
        return clamp(tmp, INT32_MIN, INT32_MAX);
    if (tmp < 0)
        return 0;
    return is_shift ? clamp(tmp, 0, UINT32_MAX) : (s128)(uint32_t)tmp;
}

/* optMerge as a GPU does it: a byte or h0 takes the result's low bits into place, but h1 takes
 * bits 16-31 of the 32-bit result where they are, unshifted (an H100 leaves h1 = 0 for
 * vset.u32.s32.ge d.h1, whose result is 1). */
static uint32_t opt_merge(int64_t dsel, uint32_t t, uint32_t c)
{
    char l;
    int d[4];
    sel_digits(dsel, &l, d);
    unsigned bits = l == 'b' ? 8 : 16, shift = (unsigned)d[0] * bits;
    uint32_t m = (uint32_t)emu_mask_bits(bits) << shift;
    if (l == 'h' && d[0] == 1)
        return (t & m) | (c & ~m);
    return ((t << shift) & m) | (c & ~m);
}

static bool compare(int cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return a < b;
    case PTX_CMP_LE: return a <= b;
    case PTX_CMP_GT: return a > b;
    case PTX_CMP_GE: return a >= b;
    default: return false;
    }
}

/* vmad: (a*b) + c with the ISA's negation, plus-one, scaling and saturation rules. The
 * product is negated when exactly one of a, b is; c's negation only counts when the product's
 * does not, and .po (a+b+1 style rounding) excludes both. As a GPU does it (ptxas's sm_90 code:
 * IMAD.WIDE, not .U32): the selected operands multiply as signed 32-bit values, so a whole u32
 * word of 2^31 or more counts as negative, c is sign-extended whatever the types, the sum is
 * 64 bits, an unsigned result shifts right logically in 64 bits, and an unsigned saturation
 * takes a negative 64-bit value to 0. */
static uint32_t vmad(const emu_video *v, uint32_t a, uint32_t b, uint32_t c)
{
    int64_t ta = (int32_t)(uint32_t)part_select(a, v->a_signed, v->asel);
    int64_t tb = (int32_t)(uint32_t)part_select(b, v->b_signed, v->bsel);
    bool neg_p = v->neg_a != v->neg_b;
    bool signed_final = v->a_signed || v->b_signed || neg_p || v->neg_c;
    uint64_t tmp = (uint64_t)(ta * tb);
    int lsb = 0;
    if (v->po) {
        lsb = 1;
    } else if (neg_p) {
        tmp = ~tmp;
        lsb = 1;
    } else if (v->neg_c) {
        c = ~c;
        lsb = 1;
    }
    tmp = tmp + (uint64_t)(int64_t)(int32_t)c + (uint64_t)lsb;
    if (v->shr)
        tmp = signed_final ? (uint64_t)((int64_t)tmp >> v->shr) : tmp >> v->shr;
    int64_t t = (int64_t)tmp;
    if (v->sat)
        t = signed_final ? (int64_t)clamp(t, INT32_MIN, INT32_MAX) : (int64_t)clamp(t, 0, UINT32_MAX);
    return (uint32_t)t;
}

static uint32_t scalar(const emu_video *v, uint32_t a, uint32_t b, uint32_t c)
{
    bool shift = v->op == PTX_OP_VSHL || v->op == PTX_OP_VSHR;
    int64_t ta = part_select(a, v->a_signed, v->asel);
    /* the shift amount is always unsigned */
    int64_t tb = part_select(b, shift ? false : v->b_signed, v->bsel);
    s128 tmp;
    switch (v->op) {
    case PTX_OP_VADD: tmp = (s128)ta + tb; break;
    case PTX_OP_VSUB: tmp = (s128)ta - tb; break;
    case PTX_OP_VABSDIFF: tmp = ta > tb ? (s128)ta - tb : (s128)tb - ta; break;
    case PTX_OP_VMIN: tmp = ta < tb ? ta : tb; break;
    case PTX_OP_VMAX: tmp = ta > tb ? ta : tb; break;
    case PTX_OP_VSHL: case PTX_OP_VSHR:
        if (v->clamp)
            tb = tb > 32 ? 32 : tb;
        else
            tb &= 0x1f;
        /* multiply rather than shift: ta may be negative */
        tmp = v->op == PTX_OP_VSHL ? (s128)ta * ((s128)1 << tb) : (s128)(ta >> tb);
        break;
    case PTX_OP_VSET: tmp = compare(v->cmp, ta, tb) ? 1 : 0; break;
    default: return 0;
    }
    if (v->op == PTX_OP_VSHL)
        tmp = (int64_t)((uint64_t)tmp << 30) >> 30;   /* 34 bits, signed */
    /* vset's result, d and c are unsigned and it has no .sat */
    bool is_set = v->op == PTX_OP_VSET;
    bool dsgn = !is_set && v->d_signed;
    if (!is_set && v->sat)
        tmp = gpu_saturate(tmp, dsgn, shift, v->dsel);
    uint32_t t = (uint32_t)tmp;
    if (v->op2) {
        /* As a GPU does it: the low 32 bits of the result, sign-extended, against c extended
         * per the destination's sign, compared with that sign; so for an unsigned destination
         * a result of 2^31 or more is above every c. */
        int64_t x = (int32_t)t, cc = dsgn ? (int64_t)(int32_t)c : (int64_t)c;
        bool less = dsgn ? x < cc : (uint64_t)x < (uint64_t)cc;
        bool greater = dsgn ? x > cc : (uint64_t)x > (uint64_t)cc;
        switch (v->op2) {
        case PTX_SFX_ADD: return t + c;
        case PTX_SFX_MIN: return less ? t : c;
        case PTX_SFX_MAX: return greater ? t : c;
        default: return t;
        }
    }
    if (v->dsel)
        return opt_merge(v->dsel, t, c);
    return t;
}

/* extractAndSignExt_2/_4: lane i of the selection from {b, a}; without a selector a takes its
 * own lanes (.h10 / .b3210) and b its own (.h32 / .b7654). The last digit written is lane 0. */
static void simd_select(uint32_t a, uint32_t b, int64_t sel, bool sgn, int lanes, bool is_b,
                        int64_t out[4])
{
    uint64_t pool = (uint64_t)b << 32 | a;
    unsigned w = 32u / (unsigned)lanes;
    char l;
    int d[4];
    int n = sel ? sel_digits(sel, &l, d) : 0;
    for (int i = 0; i < lanes; i++) {
        int idx = n ? d[n - 1 - i] : i + (is_b ? lanes : 0);
        uint64_t x = (pool >> ((unsigned)idx * w)) & emu_mask_bits(w);
        out[i] = sgn ? emu_sext(x, w) : (int64_t)x;
    }
}

static uint32_t simd(const emu_video *v, uint32_t a, uint32_t b, uint32_t c)
{
    int lanes = is_simd2(v->op) ? 2 : 4;
    unsigned w = 32u / (unsigned)lanes;
    int64_t va[4], vb[4], t[4];
    simd_select(a, b, v->asel, v->a_signed, lanes, false, va);
    simd_select(a, b, v->bsel, v->b_signed, lanes, true, vb);
    uint32_t mask = (1u << lanes) - 1;
    if (v->dsel) {
        char l;
        int d[4];
        int n = sel_digits(v->dsel, &l, d);
        mask = 0;
        for (int i = 0; i < n; i++)
            mask |= 1u << d[i];
    }
    int base = v->op;
    bool is_set = base == PTX_OP_VSET2 || base == PTX_OP_VSET4;
    for (int i = 0; i < lanes; i++) {
        int64_t x = va[i], y = vb[i], r;
        switch (base) {
        case PTX_OP_VADD2: case PTX_OP_VADD4: r = x + y; break;
        case PTX_OP_VSUB2: case PTX_OP_VSUB4: r = x - y; break;
        case PTX_OP_VAVRG2: case PTX_OP_VAVRG4:
            /* rounds half up for non-negative sums, floors negative ones */
            r = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
            break;
        case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4: r = x > y ? x - y : y - x; break;
        case PTX_OP_VMIN2: case PTX_OP_VMIN4: r = x < y ? x : y; break;
        case PTX_OP_VMAX2: case PTX_OP_VMAX4: r = x > y ? x : y; break;
        default: r = compare(v->cmp, x, y) ? 1 : 0; break;
        }
        if (v->sat && !is_set) {
            if (v->d_signed)
                r = r < -(INT64_C(1) << (w - 1)) ? -(INT64_C(1) << (w - 1))
                  : r > (INT64_C(1) << (w - 1)) - 1 ? (INT64_C(1) << (w - 1)) - 1 : r;
            else
                r = r < 0 ? 0 : r > (INT64_C(1) << w) - 1 ? (INT64_C(1) << w) - 1 : r;
        }
        t[i] = r;
    }
    if (v->op2 == PTX_SFX_ADD) {
        uint32_t d = c;
        for (int i = 0; i < lanes; i++)
            if (mask >> i & 1)
                d += (uint32_t)t[i];
        return d;
    }
    uint32_t d = 0;
    for (int i = 0; i < lanes; i++) {
        uint32_t m = (uint32_t)emu_mask_bits(w) << (w * (unsigned)i);
        uint32_t lane = mask >> i & 1 ? (uint32_t)t[i] << (w * (unsigned)i) : c;
        d |= lane & m;
    }
    return d;
}

uint32_t emu_video_exec(const emu_video *v, uint32_t a, uint32_t b, uint32_t c)
{
    if (is_simd2(v->op) || is_simd4(v->op))
        return simd(v, a, b, c);
    if (v->op == PTX_OP_VMAD)
        return vmad(v, a, b, c);
    return scalar(v, a, b, c);
}
