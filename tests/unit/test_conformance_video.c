/* test_conformance_video.c: the PTX video instructions against the PTX ISA (section 9.7.18).
 *
 * Scalar: vadd vsub vabsdiff vmin vmax vshl vshr vmad vset, with byte/half-word selectors on
 * every operand, signed/unsigned mixes, .sat at both ends (and at the byte/half-word range of a
 * merge destination), the secondary operations .add/.min/.max, the data merge d.b0-b3/.h0/.h1,
 * shifts with .clamp and .wrap and amounts past 32. SIMD: vadd2 ... vset2 and vadd4 ... vset4
 * with source selectors from {b, a}, destination masks (merge with c), the .add accumulate and
 * vavrg's rounding.
 *
 * Expected values come from vref below, a reading of the ISA pseudo-code (partSelectSignExtend,
 * optSaturate, optSecOp, optMerge; extractAndSignExt_2/_4, extractMaskBits) that parses the
 * instruction text itself, plus rows with literal results worked out by hand ("hand:"). The
 * ISA does not define optSaturate, optSecOp and optMerge; for the scalar forms vref follows what
 * a GPU does (the code ptxas 13.0 emits for sm_90, which an H100 run confirmed on three forms):
 * a merge selector's saturation sends everything outside [0, max] to max, an unsigned 32-bit
 * saturation clamps only below 0 (shifts clamp both ends), vshl keeps 34 signed bits, the
 * secondary .min/.max compare the result's low 32 bits sign-extended, d.h1 takes the
 * result's bits 16-31 unshifted, and vmad multiplies the selected words as signed 32-bit values,
 * sign-extends c and shifts an unsigned result logically in 64 bits.
 *
 * vmad's operand negation, .po and .shr7/.shr15 cannot be written in PTX yet (the frontend
 * lacks the `-%r` operand and those modifiers), so those forms are checked one level down, on
 * the semantic helper emu_video_exec that the interpreter's handler calls (vmad_sem below).
 */
#include "tests/unit/conformance_harness.h"
#include "emulator/sem/sem.h"

#include <stdlib.h>
#include <string.h>

typedef const uint64_t *IN;
typedef uint64_t *OUT;
typedef __int128 i128;

/* ---------------------------------------------------------------- the ISA, as a reference */

typedef struct vform {
    char op[12];
    int ntypes;
    bool sgn[3];            /* types as written: (d,) a, b */
    bool sat, clamp, po, add, min, max;
    int shr;
    char cmp[3];
} vform;

static void vparse(const char *mn, vform *f)
{
    memset(f, 0, sizeof *f);
    char buf[96];
    snprintf(buf, sizeof buf, "%s", mn);
    char *save = NULL;
    char *tok = strtok_r(buf, ".", &save);
    snprintf(f->op, sizeof f->op, "%s", tok);
    while ((tok = strtok_r(NULL, ".", &save))) {
        if (!strcmp(tok, "u32") || !strcmp(tok, "s32")) f->sgn[f->ntypes++] = tok[0] == 's';
        else if (!strcmp(tok, "sat")) f->sat = true;
        else if (!strcmp(tok, "clamp")) f->clamp = true;
        else if (!strcmp(tok, "wrap")) f->clamp = false;
        else if (!strcmp(tok, "po")) f->po = true;
        else if (!strcmp(tok, "shr7")) f->shr = 7;
        else if (!strcmp(tok, "shr15")) f->shr = 15;
        else if (!strcmp(tok, "add")) f->add = true;
        else if (!strcmp(tok, "min")) f->min = true;
        else if (!strcmp(tok, "max")) f->max = true;
        else snprintf(f->cmp, sizeof f->cmp, "%s", tok);
    }
}

static bool vcompare(const char *cmp, i128 a, i128 b)
{
    if (!strcmp(cmp, "eq")) return a == b;
    if (!strcmp(cmp, "ne")) return a != b;
    if (!strcmp(cmp, "lt")) return a < b;
    if (!strcmp(cmp, "le")) return a <= b;
    if (!strcmp(cmp, "gt")) return a > b;
    if (!strcmp(cmp, "ge")) return a >= b;
    ck_abort_msg("bad comparison %s", cmp);
    return false;
}

static i128 vclamp(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }

/* partSelectSignExtend; sel is "" or ".b0".."b3" / ".h0" / ".h1" */
static i128 part(uint32_t x, bool sgn, const char *sel)
{
    if (!*sel) return sgn ? (i128)(int32_t)x : (i128)x;
    int k = sel[2] - '0';
    if (sel[1] == 'b') {
        uint8_t v = (uint8_t)(x >> (8 * k));
        return sgn ? (i128)(int8_t)v : (i128)v;
    }
    uint16_t v = (uint16_t)(x >> (16 * k));
    return sgn ? (i128)(int16_t)v : (i128)v;
}

static uint32_t vref_scalar(const vform *f, const char *ds, const char *as, const char *bs,
                            bool neg_a, bool neg_b, bool neg_c, uint32_t a, uint32_t b,
                            uint32_t c)
{
    bool is_set = !strcmp(f->op, "vset");
    bool dsg = is_set ? false : f->sgn[0];
    bool asg = f->sgn[is_set ? 0 : 1], bsg = f->sgn[is_set ? 1 : 2];
    if (!strcmp(f->op, "vmad")) {
        /* as a GPU does it: a signed 32x32 product of the selected words, c sign-extended, an
         * unsigned result shifted logically in 64 bits */
        i128 ta = (int32_t)(uint32_t)part(a, asg, as), tb = (int32_t)(uint32_t)part(b, bsg, bs);
        bool sf = asg || bsg || (neg_a != neg_b) || neg_c;
        i128 p = ta * tb;
        i128 cc = (i128)(int32_t)c;
        i128 r;
        if (f->po) r = p + cc + 1;
        else if (neg_a != neg_b) r = cc - p;
        else if (neg_c) r = p - (i128)(int32_t)c;
        else r = p + cc;
        if (f->shr) r = sf ? r >> f->shr : (i128)((uint64_t)(int64_t)r >> f->shr);
        if (f->sat) r = sf ? vclamp(r, INT32_MIN, INT32_MAX) : vclamp(r, 0, UINT32_MAX);
        return (uint32_t)r;
    }
    bool shift = !strcmp(f->op, "vshl") || !strcmp(f->op, "vshr");
    i128 ta = part(a, asg, as), tb = part(b, shift ? false : bsg, bs);
    i128 t;
    if (!strcmp(f->op, "vadd")) t = ta + tb;
    else if (!strcmp(f->op, "vsub")) t = ta - tb;
    else if (!strcmp(f->op, "vabsdiff")) t = ta > tb ? ta - tb : tb - ta;
    else if (!strcmp(f->op, "vmin")) t = ta < tb ? ta : tb;
    else if (!strcmp(f->op, "vmax")) t = ta > tb ? ta : tb;
    else if (shift) {
        int n = f->clamp ? (tb > 32 ? 32 : (int)tb) : (int)(tb & 31);
        i128 p2 = (i128)1 << n;
        if (!strcmp(f->op, "vshl")) {
            t = ta * p2;
        } else {
            /* floor division is the arithmetic shift */
            t = ta / p2;
            if (ta < 0 && t * p2 != ta) t -= 1;
        }
    } else t = vcompare(f->cmp, ta, tb) ? 1 : 0;
    if (!strcmp(f->op, "vshl")) {
        /* 34 bits, signed: bit 33 is the sign */
        uint64_t low = (uint64_t)t & ((UINT64_C(1) << 34) - 1);
        t = low >> 33 ? (i128)low - ((i128)1 << 34) : (i128)low;
    }
    if (f->sat && !is_set) {
        if (*ds && !shift) {
            /* the SASS: x = t fits in 32 bits unsigned ? t : ~0; then min(x, max) unsigned */
            int bits = ds[1] == 'b' ? 8 : 16;
            uint32_t mx = dsg ? (1u << (bits - 1)) - 1 : (1u << bits) - 1;
            uint32_t x = t < 0 || t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
            t = x > mx ? mx : x;
        } else if (dsg) {
            t = vclamp(t, INT32_MIN, INT32_MAX);
        } else if (shift) {
            t = vclamp(t, 0, UINT32_MAX);
        } else {
            t = t < 0 ? 0 : (i128)(uint32_t)t;
        }
    }
    uint32_t r = (uint32_t)t;
    if (f->add) return r + c;
    if (f->min || f->max) {
        /* signed: int32 against int32; unsigned: sext(r) against zext(c), as 64-bit unsigned */
        bool lt = dsg ? (int32_t)r < (int32_t)c : (uint64_t)(int64_t)(int32_t)r < (uint64_t)c;
        bool gt = dsg ? (int32_t)r > (int32_t)c : (uint64_t)(int64_t)(int32_t)r > (uint64_t)c;
        return f->min ? (lt ? r : c) : (gt ? r : c);
    }
    if (*ds) {
        int bits = ds[1] == 'b' ? 8 : 16, pos = (ds[2] - '0') * bits;
        uint32_t m = (uint32_t)((UINT64_C(1) << bits) - 1) << pos;
        if (!strcmp(ds, ".h1"))
            return (c & ~m) | (r & m);
        return (c & ~m) | ((r << pos) & m);
    }
    return r;
}

/* extractAndSignExt_2/_4 from the element pool {b, a}; lane i is the i-th digit from the
 * right of the selector. */
static i128 lane_of(uint32_t a, uint32_t b, const char *sel, const char *dflt, int lanes, int i,
                    bool sgn)
{
    const char *s = *sel ? sel : dflt;
    int n = (int)strlen(s);
    int idx = s[n - 1 - i] - '0';
    uint64_t pool = (uint64_t)b << 32 | a;
    int w = 32 / lanes;
    uint32_t v = (uint32_t)(pool >> (w * idx)) & ((1u << w) - 1);
    if (!sgn) return v;
    return v >= (1u << (w - 1)) ? (i128)v - ((i128)1 << w) : (i128)v;
}

static uint32_t vref_simd(const vform *f, const char *ds, const char *as, const char *bs,
                          uint32_t a, uint32_t b, uint32_t c)
{
    int lanes = f->op[strlen(f->op) - 1] - '0';
    int w = 32 / lanes;
    bool is_set = !strncmp(f->op, "vset", 4);
    bool dsg = is_set ? false : f->sgn[0];
    bool asg = f->sgn[is_set ? 0 : 1], bsg = f->sgn[is_set ? 1 : 2];
    const char *da = lanes == 2 ? ".h10" : ".b3210", *db = lanes == 2 ? ".h32" : ".b7654";
    bool mask[4] = { !*ds, !*ds, !*ds, !*ds };
    for (const char *p = *ds ? ds + 2 : ""; *p; p++) mask[*p - '0'] = true;
    uint32_t d = f->add ? c : 0;
    for (int i = 0; i < lanes; i++) {
        i128 x = lane_of(a, b, as, da, lanes, i, asg), y = lane_of(a, b, bs, db, lanes, i, bsg);
        i128 t;
        if (!strncmp(f->op, "vadd", 4)) t = x + y;
        else if (!strncmp(f->op, "vsub", 4)) t = x - y;
        else if (!strncmp(f->op, "vavrg", 5)) {
            i128 s = x + y;
            /* (s + 1) >> 1 for s >= 0, s >> 1 (towards minus infinity) otherwise */
            t = s >= 0 ? (s + 1) / 2 : (s % 2 ? (s - 1) / 2 : s / 2);
        } else if (!strncmp(f->op, "vabsdiff", 8)) t = x > y ? x - y : y - x;
        else if (!strncmp(f->op, "vmin", 4)) t = x < y ? x : y;
        else if (!strncmp(f->op, "vmax", 4)) t = x > y ? x : y;
        else t = vcompare(f->cmp, x, y) ? 1 : 0;
        if (f->sat && !is_set)
            t = dsg ? vclamp(t, -((i128)1 << (w - 1)), ((i128)1 << (w - 1)) - 1)
                    : vclamp(t, 0, ((i128)1 << w) - 1);
        uint32_t lm = ((1u << w) - 1) << (w * i);
        if (f->add) {
            if (mask[i]) d += (uint32_t)t;
        } else {
            d |= mask[i] ? (((uint32_t)t << (w * i)) & lm) : (c & lm);
        }
    }
    return d;
}

static uint32_t vref(const char *mn, const char *ds, const char *as, const char *bs, IN in)
{
    vform f;
    vparse(mn, &f);
    char last = f.op[strlen(f.op) - 1];
    if (last == '2' || last == '4')
        return vref_simd(&f, ds, as, bs, (uint32_t)in[0], (uint32_t)in[1], (uint32_t)in[2]);
    return vref_scalar(&f, ds, as, bs, false, false, false, (uint32_t)in[0], (uint32_t)in[1],
                       (uint32_t)in[2]);
}

/* One instruction form: mnemonic, d/a/b selectors ("" for none); V4 with c, V3 without. */
#define V4(id, mn, ds, as, bs)                                                                  \
    static void r_##id(IN in, OUT out) { out[0] = vref(mn, ds, as, bs, in); }                   \
    static const conf_op op_##id = { mn " %out0" ds ", %in0" as ", %in1" bs ", %in2",          \
                                     mn " %out0" ds ", %in0" as ", %in1" bs ", %in2;",         \
                                     { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, r_##id,     \
                                     NULL, NULL };
#define V3(id, mn, as, bs)                                                                      \
    static void r_##id(IN in, OUT out) { out[0] = vref(mn, "", as, bs, in); }                   \
    static const conf_op op_##id = { mn " %out0, %in0" as ", %in1" bs,                         \
                                     mn " %out0, %in0" as ", %in1" bs ";",                     \
                                     { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, r_##id,     \
                                     NULL, NULL };

/* ---------------------------------------------------------------- scalar arithmetic */

V3(vadd_uuu, "vadd.u32.u32.u32", "", "")
V3(vadd_uuu_sat, "vadd.u32.u32.u32.sat", "", "")
V3(vadd_sss_sat, "vadd.s32.s32.s32.sat", "", "")
V3(vadd_sus_sat_sel, "vadd.s32.u32.s32.sat", ".b1", ".h1")
V3(vadd_uss_sel, "vadd.u32.s32.s32", ".b3", ".b0")
V3(vsub_uuu_sat, "vsub.u32.u32.u32.sat", "", "")
V3(vsub_sss_sat, "vsub.s32.s32.s32.sat", "", "")
V3(vsub_ssu_sat_h, "vsub.s32.s32.u32.sat", ".h1", ".h1")
V3(vabsdiff_uss, "vabsdiff.u32.s32.s32", "", "")
V3(vabsdiff_sss_sat, "vabsdiff.s32.s32.s32.sat", "", "")
V3(vabsdiff_suu_b, "vabsdiff.s32.u32.u32", ".b2", ".b1")
V3(vmin_sss, "vmin.s32.s32.s32", "", "")
V3(vmin_uus, "vmin.u32.u32.s32", "", "")
V3(vmax_sus_h, "vmax.s32.u32.s32", ".h0", ".h1")
V3(vmax_uuu_sat_b, "vmax.u32.s32.s32.sat", ".b0", ".b3")

static const conf_case c_scalar[] = {
    I3(0xffffffff, 1, 0), I3(0x80000000, 0x7fffffff, 0), I3(0x12345678, 0x9abcdef0, 0),
    I3(0xff7f8001, 0x807fff80, 0), I3(5, 0xfffffffb, 0),
};
static const conf_case c_vadd_hand[] = {
    E3(0xffffffff, 1, 0, 0),                   /* hand: wraps without .sat */
    E3(0x7fffffff, 1, 0, 0x80000000),
};
static const conf_case c_vadd_sat_hand[] = {
    E3(0xffffffff, 1, 0, 0),                   /* hand: a GPU clamps u32 only below 0 */
    E3(0xfffffff0, 0x0f, 0, 0xffffffff),
};
static const conf_case c_vadd_ssat_hand[] = {
    E3(0x7fffffff, 1, 0, 0x7fffffff),          /* hand: s32 clamps at both ends */
    E3(0x80000000, 0xffffffff, 0, 0x80000000),
};
static const conf_case c_vadd_sel_hand[] = {
    /* hand: a.b1 = 0xff as u32 (255), b.h1 = 0x8000 as s16 (-32768): -32513 */
    E3(0x0000ff00, 0x80000000, 0, 0xffff80ff),
};
static const conf_case c_vsub_sat_hand[] = {
    E3(1, 2, 0, 0),                            /* hand: u32 clamps at 0 */
    E3(0, 0xffffffff, 0, 0),
};
static const conf_case c_vsub_ssat_hand[] = {
    E3(0x80000000, 1, 0, 0x80000000),          /* hand */
    E3(0x7fffffff, 0xffffffff, 0, 0x7fffffff),
};
static const conf_case c_vabsdiff_hand[] = {
    /* hand: |-2^31 - (2^31 - 1)| = 2^32 - 1 */
    E3(0x80000000, 0x7fffffff, 0, 0xffffffff),
};
static const conf_case c_vabsdiff_sat_hand[] = {
    E3(0x80000000, 0x7fffffff, 0, 0x7fffffff), /* hand: the same, clamped to s32 */
};

/* ---------------------------------------------------------------- secondary ops and merges */

V4(vadd_uuu_add, "vadd.u32.u32.u32.add", "", "", "")
V4(vadd_sss_sat_add, "vadd.s32.s32.s32.sat.add", "", "", "")
V4(vsub_sss_min, "vsub.s32.s32.s32.min", "", "", "")
V4(vmax_sss_min, "vmax.s32.s32.s32.min", "", "", "")
V4(vadd_uuu_min, "vadd.u32.u32.u32.min", "", "", "")
V4(vsub_uuu_max, "vsub.u32.u32.u32.max", "", "", "")
V4(vabsdiff_uuu_sat_max, "vabsdiff.u32.u32.u32.sat.max", "", ".h0", ".h1")
V4(vmin_ssu_add_sel, "vmin.s32.s32.u32.add", "", ".b2", ".h0")
V4(vadd_merge_b0, "vadd.u32.u32.u32.sat", ".b0", "", "")
V4(vadd_merge_b1, "vadd.u32.u32.u32.sat", ".b1", "", "")
V4(vsub_merge_b2, "vsub.s32.s32.s32.sat", ".b2", "", "")
V4(vsub_merge_b3, "vsub.s32.u32.u32.sat", ".b3", ".b0", ".b1")
V4(vadd_merge_h0, "vadd.s32.s32.s32.sat", ".h0", "", "")
V4(vsub_merge_h1, "vsub.u32.u32.u32.sat", ".h1", "", "")
V4(vmax_merge_h1_nosat, "vmax.s32.s32.s32", ".h1", ".h0", ".h1")
V4(vabsdiff_merge_b1_nosat, "vabsdiff.u32.u32.u32", ".b1", "", "")

static const conf_case c_scalar3[] = {
    I3(1, 2, 0x11223344), I3(0xffffffff, 1, 7), I3(0x80000000, 0xffffffff, 0xffffffff),
    I3(200, 100, 0xaaaaaaaa), I3(0xfffffff0, 0x40000, 0x55555555),
};
static const conf_case c_merge_b2_hand[] = {
    E3(0, 1, 0x043c7ad3, 0x047f7ad3),          /* hand: an H100's result: -1 saturates to 0x7f */
};
static const conf_case c_merge_b1_hand[] = {
    E3(200, 100, 0x11223344, 0x1122ff44),      /* hand: 300 clamps to 255 in byte 1 */
    E3(3, 4, 0x11223344, 0x11220744),
};
static const conf_case c_merge_h0_hand[] = {
    /* hand: 0x7fff + 1 clamps to the s16 maximum in h0; on a GPU -32768 + -1 (and any negative
     * value) does too */
    E3(0x7fff, 1, 0xaaaabbbb, 0xaaaa7fff),
    E3(0xffff8000, 0xffffffff, 0xaaaabbbb, 0xaaaa7fff),
};
static const conf_case c_vadd_min_hand[] = {
    E3(0xffffffff, 1, 7, 0),                   /* hand: a GPU compares 2^32's low bits, 0 */
    E3(0x80000000, 0x10000000, 0x90000000, 0x90000000),  /* hand: sext(0x90000000) is above c */
    E3(1, 2, 7, 3),
};
static const conf_case c_vmax_min_hand[] = {
    E3(5, 0xfffffffd, 2, 2),                   /* hand: min(max(5, -3), 2) */
    E3(0xfffffff0, 0xfffffff1, 0xfffffff2, 0xfffffff1),
};
static const conf_case c_vadd_add_hand[] = {
    E3(0xffffffff, 0xffffffff, 2, 0),          /* hand: (2^33 - 2) + 2, low 32 bits */
};

/* ---------------------------------------------------------------- shifts */

V3(vshl_uuu_clamp, "vshl.u32.u32.u32.clamp", "", "")
V3(vshl_uuu_wrap, "vshl.u32.u32.u32.wrap", "", "")
V3(vshl_uuu_sat_clamp, "vshl.u32.u32.u32.sat.clamp", "", "")
V3(vshl_sss_sat_wrap, "vshl.s32.s32.u32.sat.wrap", "", "")
V3(vshr_ssu_clamp, "vshr.s32.s32.u32.clamp", "", "")
V3(vshr_ssu_wrap, "vshr.s32.s32.u32.wrap", "", "")
V3(vshr_uuu_clamp, "vshr.u32.u32.u32.clamp", "", "")
V3(vshr_ssu_b, "vshr.s32.s32.u32.wrap", ".b3", ".h1")
V4(vshl_add, "vshl.u32.u32.u32.clamp.add", "", "", "")
V4(vshr_merge_h1, "vshr.s32.s32.u32.sat.clamp", ".h1", "", "")

static const conf_case c_shift[] = {
    I3(1, 31, 0x1000), I3(1, 33, 0x1000), I3(0x80000000, 31, 0x1000),
    I3(0x80000001, 40, 0x1000), I3(0xffffffff, 0xffffffff, 0x1000), I3(0x00008000, 0x00040000, 0xffffffff),
};
static const conf_case c_vshl_clamp_hand[] = {
    E3(1, 40, 0, 0),                           /* hand: clamped to 32: 2^32, low bits 0 */
    E3(3, 31, 0, 0x80000000),
};
static const conf_case c_vshl_wrap_hand[] = { E3(1, 40, 0, 0x100) };  /* hand: 40 & 31 = 8 */
static const conf_case c_vshl_sat_hand[] = {
    E3(1, 40, 0, 0xffffffff), E3(2, 31, 0, 0xffffffff),
    /* hand: 34 signed bits: 0x7f << 32 and 3 << 32 are negative and saturate to 0 (an H100 gives
     * 0 for the first) */
    E3(0x7f, 0x7f, 0, 0), E3(3, 32, 0, 0),
};
static const conf_case c_vshr_clamp_hand[] = {
    E3(0x80000000, 100, 0, 0xffffffff),        /* hand: >> 32 of a negative value */
    E3(0x7fffffff, 100, 0, 0),
};
static const conf_case c_vshr_wrap_hand[] = { E3(0x80000000, 100, 0, 0xf8000000) };  /* 100 & 31 = 4 */
static const conf_case c_vshr_u_hand[] = { E3(0x80000000, 33, 0, 0), E3(0x80000000, 31, 0, 1) };

/* ---------------------------------------------------------------- vmad (PTX-expressible) */

V4(vmad_uuu, "vmad.u32.u32.u32", "", "", "")
V4(vmad_uuu_sat, "vmad.u32.u32.u32.sat", "", "", "")
V4(vmad_sss_sat, "vmad.s32.s32.s32.sat", "", "", "")
V4(vmad_ssu, "vmad.s32.s32.u32", "", "", "")
V4(vmad_sel, "vmad.s32.u32.s32.sat", "", ".h1", ".b0")

static const conf_case c_vmad[] = {
    I3(3, 4, 5), I3(0xffffffff, 0xffffffff, 1), I3(0x7fffffff, 2, 0), I3(0x80000000, 0x80000000, 0),
    I3(0x12345678, 0x9abc, 0xdef01234),
};
static const conf_case c_vmad_hand[] = {
    E3(0xffffffff, 0xffffffff, 1, 2),          /* hand: 0xfffffffe00000001 + 1 */
    E3(3, 4, 5, 17),
};
/* hand: a GPU multiplies the words as signed: (-1)(-1) + 1 */
static const conf_case c_vmad_sat_hand[] = { E3(0xffffffff, 0xffffffff, 1, 2) };
static const conf_case c_vmad_ssat_hand[] = {
    E3(0x7fffffff, 2, 0, 0x7fffffff),          /* hand */
    E3(0x80000000, 2, 0, 0x80000000),
    E3(0xffffffff, 5, 0, 0xfffffffb),
};

/* ---------------------------------------------------------------- vset */

V3(vset_uu_eq, "vset.u32.u32.eq", "", "")
V3(vset_uu_ne, "vset.u32.u32.ne", "", "")
V3(vset_su_lt, "vset.s32.u32.lt", "", "")
V3(vset_uu_lt, "vset.u32.u32.lt", "", "")
V3(vset_ss_le, "vset.s32.s32.le", "", "")
V3(vset_us_gt, "vset.u32.s32.gt", "", "")
V3(vset_ss_ge, "vset.s32.s32.ge", "", "")
V3(vset_uu_ne_h, "vset.u32.u32.ne", "", ".h1")
V3(vset_ss_lt_b, "vset.s32.s32.lt", ".b0", ".b3")
V4(vset_add, "vset.s32.s32.ge.add", "", "", "")
V4(vset_min, "vset.u32.u32.lt.min", "", "", "")
V4(vset_max, "vset.s32.s32.gt.max", "", "", "")
V4(vset_merge_b2, "vset.u32.u32.eq", ".b2", "", "")
V4(vset_merge_h1, "vset.s32.u32.lt", ".h1", ".h0", ".h0")

static const conf_case c_set[] = {
    I3(1, 2, 0x55), I3(2, 1, 0x55), I3(0xffffffff, 0, 0x55), I3(0x80ff0001, 0x01ff8080, 0x12345678),
    I3(7, 7, 0xffffffff),
};
static const conf_case c_vset_su_hand[] = {
    E3(0xffffffff, 0, 0, 1),                   /* hand: -1 < 0 as s32 vs u32 */
    E3(0, 0xffffffff, 0, 1),
};
static const conf_case c_vset_uu_hand[] = { E3(0xffffffff, 0, 0, 0) };
static const conf_case c_vset_add_hand[] = { E3(5, 5, 10, 11), E3(4, 5, 10, 10) };
/* hand: an H100's results: d.h1 takes bits 16-31 of the result 1, unshifted */
V4(vset_merge_h1_ge, "vset.u32.s32.ge", ".h1", "", "")
static const conf_case c_vset_h1_hand[] = { E3(0, 0, 0x05391c44, 0x00001c44) };
static const conf_case c_vset_merge_hand[] = { E3(3, 3, 0xffffffff, 0xff01ffff), E3(3, 4, 0xffffffff, 0xff00ffff) };

/* ---------------------------------------------------------------- SIMD, two half-words */

V4(vadd2_uuu, "vadd2.u32.u32.u32", "", "", "")
V4(vadd2_uuu_sat, "vadd2.u32.u32.u32.sat", "", "", "")
V4(vadd2_sss_sat, "vadd2.s32.s32.s32.sat", "", "", "")
V4(vadd2_ssu_sat, "vadd2.s32.s32.u32.sat", "", "", "")
V4(vsub2_sss_sat, "vsub2.s32.s32.s32.sat", "", "", "")
V4(vsub2_uuu_sat_mask, "vsub2.u32.u32.u32.sat", ".h0", "", "")
V4(vavrg2_uuu, "vavrg2.u32.u32.u32", "", "", "")
V4(vavrg2_sss, "vavrg2.s32.s32.s32", "", "", "")
V4(vabsdiff2_sss, "vabsdiff2.s32.s32.s32", "", "", "")
V4(vabsdiff2_uuu_add, "vabsdiff2.u32.u32.u32.add", "", "", "")
V4(vmin2_sss, "vmin2.s32.s32.s32", "", "", "")
V4(vmin2_suu_add_sel, "vmin2.s32.u32.u32.add", ".h10", ".h00", ".h22")
V4(vmax2_uuu_mask, "vmax2.u32.u32.u32", ".h1", "", "")
V4(vmax2_sss_sel, "vmax2.s32.s32.s32", "", ".h32", ".h01")
V4(vsub2_sel, "vsub2.s32.s32.s32.sat", ".h0", ".h10", ".h32")
V4(vadd2_add_mask, "vadd2.s32.s32.s32.add", ".h1", "", "")
V4(vset2_uu_lt, "vset2.u32.u32.lt", "", "", "")
V4(vset2_ss_ge, "vset2.s32.s32.ge", "", "", "")
V4(vset2_add, "vset2.u32.u32.ne.add", "", "", "")
V4(vset2_mask_sel, "vset2.s32.u32.eq", ".h1", ".h33", ".h10")

static const conf_case c_simd[] = {
    I3(0x00010002, 0x00030004, 0xaabbccdd), I3(0x7fff8000, 0x00018000, 0xffffffff),
    I3(0x80007fff, 0xffff0001, 0), I3(0x12345678, 0x9abcdef0, 0x0f0f0f0f),
    I3(0x7f80ff01, 0x80817f7f, 0xdeadbeef),
};
static const conf_case c_vadd2_add_hand[] = {
    /* hand: only lane 1 (5 + -16 = -11) is added: 1000 - 11 */
    E3(0x00050003, 0xfff00001, 1000, 989),
};
static const conf_case c_vavrg2_s_hand[] = {
    /* hand: lane 0: (-1 + -2) = -3 -> -2; lane 1: (1 + 2) = 3 -> 2 */
    E3(0x0001ffff, 0x0002fffe, 0, 0x0002fffe),
};

/* ---------------------------------------------------------------- SIMD, four bytes */

V4(vadd4_uuu, "vadd4.u32.u32.u32", "", "", "")
V4(vadd4_uuu_sat, "vadd4.u32.u32.u32.sat", "", "", "")
V4(vadd4_sss_sat, "vadd4.s32.s32.s32.sat", "", "", "")
V4(vadd4_sus_sat, "vadd4.s32.u32.s32.sat", "", "", "")
V4(vsub4_sss_sat, "vsub4.s32.s32.s32.sat", "", "", "")
V4(vsub4_uuu_sat, "vsub4.u32.u32.u32.sat", "", "", "")
V4(vsub4_sel_mask, "vsub4.s32.s32.s32.sat", ".b0", ".b3210", ".b7654")
V4(vavrg4_uuu, "vavrg4.u32.u32.u32", "", "", "")
V4(vavrg4_sss, "vavrg4.s32.s32.s32", "", "", "")
V4(vavrg4_uss_sat, "vavrg4.u32.s32.s32.sat", "", "", "")
V4(vabsdiff4_uuu, "vabsdiff4.u32.u32.u32", "", "", "")
V4(vabsdiff4_uuu_add, "vabsdiff4.u32.u32.u32.add", "", "", "")
V4(vabsdiff4_sss_sat, "vabsdiff4.s32.s32.s32.sat", "", "", "")
V4(vmin4_sss, "vmin4.s32.s32.s32", "", "", "")
V4(vmin4_suu_add, "vmin4.s32.u32.u32.add", ".b10", ".b0000", ".b2222")
V4(vmax4_uuu_mask, "vmax4.u32.u32.u32", ".b31", "", "")
V4(vmax4_ssu_sel, "vmax4.s32.s32.u32", "", ".b7654", ".b0123")
V4(vadd4_mask_b20, "vadd4.u32.u32.u32", ".b20", "", "")
V4(vadd4_swap, "vadd4.u32.u32.u32", "", ".b7654", ".b3210")
V4(vset4_uu_gt, "vset4.u32.u32.gt", "", "", "")
V4(vset4_ss_lt, "vset4.s32.s32.lt", "", "", "")
V4(vset4_su_le, "vset4.s32.u32.le", "", "", "")
V4(vset4_add, "vset4.s32.s32.ne.add", "", "", "")
V4(vset4_mask, "vset4.u32.u32.eq", ".b321", ".b4567", ".b3210")

static const conf_case c_simd4_hand_sadd[] = {
    /* hand: 3, 1 + -1 = 0, -128 + -128 -> -128, 127 + 1 -> 127 */
    E3(0x7f800102, 0x0180ff01, 0, 0x7f800003),
};
static const conf_case c_simd4_hand_sad[] = {
    E3(0x01020304, 0x04030201, 100, 108),      /* hand: 3 + 1 + 1 + 3 added to c */
};
static const conf_case c_simd4_hand_gt[] = { E3(0x05050505, 0x01050a05, 0, 0x01000000) };
static const conf_case c_simd4_hand_mask[] = { E3(0x01010101, 0x01010101, 0xaabbccdd, 0xaa02cc02) };
static const conf_case c_simd4_hand_swap[] = { E3(0x04030201, 0x40302010, 0, 0x44332211) };
static const conf_case c_simd4_hand_avrg_s[] = {
    /* hand: lane 0 (-1 + -2) -> -2 = 0xfe; lane 1 (1 + -2) = -1 -> -1 = 0xff; lane 2 (1 + 2) -> 2;
     * lane 3 (127 + 127) -> 127 */
    E3(0x7f0101ff, 0x7f02fefe, 0, 0x7f02fffe),
};
static const conf_case c_simd4_hand_avrg_u[] = { E3(0xff000201, 0xff000102, 0, 0xff000202) };

/* ---------------------------------------------------------------- immediate operands */

static void r_vadd4_imm(IN in, OUT out)
{
    const uint64_t v[3] = { in[0], 0x80ff0102u, in[2] };
    out[0] = vref("vadd4.u32.u32.u32.sat", "", "", "", v);
}
static void r_vsub_imm(IN in, OUT out)
{
    const uint64_t v[3] = { in[0], 0xfffffffbu, 0 };
    out[0] = vref("vsub.s32.s32.s32.sat", "", "", "", v);
}
static const conf_op op_vadd4_imm = {
    "vadd4.u32.u32.u32.sat %out0, %in0, 0x80ff0102, %in2",
    "vadd4.u32.u32.u32.sat %out0, %in0, 0x80ff0102, %in2;",
    { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, r_vadd4_imm, NULL, NULL
};
static const conf_op op_vsub_imm = {
    "vsub.s32.s32.s32.sat %out0, %in0, -5", "vsub.s32.s32.s32.sat %out0, %in0, -5;",
    { "b32", "b32", "b32" }, { "b32" }, { { 0 } }, r_vsub_imm, NULL, NULL
};
static const conf_case c_imm[] = {
    I3(0, 0, 0), I3(0x7f01ff80, 0, 0x12345678), I3(0x7ffffffc, 0, 0), I3(0x80000004, 0, 0),
};

/* ---------------------------------------------------------------- vmad forms below the PTX level */

typedef struct vmad_row {
    const char *mn;
    bool na, nb, nc;
    const char *as, *bs;
    uint32_t a, b, c;
    bool lit;
    uint32_t want;
} vmad_row;

static const vmad_row vmad_rows[] = {
    { "vmad.s32.u32.u32", true, false, false, "", "", 3, 4, 20, false, 0 },
    { "vmad.s32.u32.u32", false, true, false, "", "", 3, 4, 20, true, 8 },          /* hand: -(12) + 20 */
    { "vmad.s32.u32.u32", true, true, false, "", "", 3, 4, 20, true, 32 },          /* hand: negations cancel */
    { "vmad.s32.u32.u32", false, false, true, "", "", 3, 4, 20, true, 0xfffffff8 },  /* hand: 12 - 20 */
    { "vmad.s32.s32.s32", true, false, false, "", "", 0xfffffffd, 4, 1, true, 13 },  /* hand: -(-12) + 1 */
    { "vmad.s32.s32.s32.sat", true, false, false, "", "", 0x80000000, 1, 0, true, 0x7fffffff },
    { "vmad.s32.u32.u32.sat", true, false, false, "", "", 0xffffffff, 0xffffffff, 0, true, 0xffffffff },  /* hand: -((-1)(-1)) */
    { "vmad.s32.u32.s32", false, false, true, "", "", 0x10000, 0x10000, 0x80000000, false, 0 },
    { "vmad.s32.s32.u32.sat", false, false, true, "", "", 0x7fffffff, 1, 0xffffffff, false, 0 },
    { "vmad.u32.u32.u32.po", false, false, false, "", "", 3, 4, 5, true, 18 },      /* hand: 12 + 5 + 1 */
    { "vmad.u32.u32.u32.po", false, false, false, "", "", 0xffffffff, 1, 0, true, 0 },
    { "vmad.u32.u32.u32.po.sat", false, false, false, "", "", 0xffffffff, 1, 0, true, 0 },  /* hand: (-1)(1) + 1 */
    { "vmad.s32.s32.s32.po", false, false, false, "", "", 0xfffffffe, 3, 0, true, 0xfffffffb },
    { "vmad.u32.u32.u32.po.shr7", false, false, false, ".b0", ".b0", 0xff, 0xff, 0, false, 0 },
    { "vmad.u32.u32.u32.shr15", false, false, false, ".h0", ".h0", 0x8000, 0x8000, 0, true, 0x8000 },
    { "vmad.u32.u32.u32.shr15", false, false, false, "", "", 0xffffffff, 0xffffffff, 0xffffffff, false, 0 },
    { "vmad.s32.s32.s32.shr7", false, false, false, "", "", 0xffffff00, 1, 0, true, 0xfffffffe },
    { "vmad.s32.s32.s32.shr7.sat", false, false, false, "", "", 0x7fffffff, 0x7fffffff, 0, true, 0x7fffffff },
    { "vmad.s32.s32.s32.shr15", true, false, false, ".h1", ".h0", 0x40000000, 0x4000, 0, false, 0 },
    { "vmad.u32.u32.u32.shr7", false, false, true, "", "", 100, 200, 1000, false, 0 },
};

START_TEST(vmad_sem)
{
    const vmad_row *r = &vmad_rows[_i];
    vform f;
    vparse(r->mn, &f);
    uint32_t want = r->lit ? r->want
                           : vref_scalar(&f, "", r->as, r->bs, r->na, r->nb, r->nc, r->a, r->b, r->c);
    if (r->lit) {
        uint32_t ref = vref_scalar(&f, "", r->as, r->bs, r->na, r->nb, r->nc, r->a, r->b, r->c);
        ck_assert_msg(ref == want, "reference disagrees with the hand value for %s: %08x vs %08x",
                      r->mn, ref, want);
    }
    emu_video v;
    memset(&v, 0, sizeof v);
    v.op = PTX_OP_VMAD;
    v.d_signed = f.sgn[0];
    v.a_signed = f.sgn[1];
    v.b_signed = f.sgn[2];
    v.sat = f.sat;
    v.po = f.po;
    v.shr = (unsigned)f.shr;
    v.neg_a = r->na;
    v.neg_b = r->nb;
    v.neg_c = r->nc;
    v.has_c = true;
    /* selectors packed as the frontend packs them: letter, then digits, low byte first */
    if (*r->as) v.asel = (int64_t)r->as[1] | (int64_t)r->as[2] << 8;
    if (*r->bs) v.bsel = (int64_t)r->bs[1] | (int64_t)r->bs[2] << 8;
    ck_assert(emu_video_valid(&v));
    uint32_t got = emu_video_exec(&v, r->a, r->b, r->c);
    ck_assert_msg(got == want, "%s d, %sa%s, %sb%s, %sc with a=%08x b=%08x c=%08x: got %08x, want %08x",
                  r->mn, r->na ? "-" : "", r->as, r->nb ? "-" : "", r->bs, r->nc ? "-" : "",
                  r->a, r->b, r->c, got, want);
}
END_TEST

/* ---------------------------------------------------------------- rejected forms */

/* Forms the ISA does not define fail at load with "unsupported instruction", never run. */
static const char *const bad_forms[] = {
    "vadd.u32.u32.u32 %r1.b10, %r2, %r3, %r4;",      /* two-digit selector on a scalar form */
    "vadd.u32.u32.u32 %r1, %r2.b5, %r3;",            /* scalar byte selectors stop at b3 */
    "vshl.u32.u32.u32 %r1, %r2, %r3;",               /* shifts need .clamp or .wrap */
    "vshl.u32.u32.s32.clamp %r1, %r2, %r3;",         /* the shift amount is .u32 */
    "vadd.u32.u32.u32.min %r1.b0, %r2, %r3, %r4;",   /* secondary op and merge together */
    "vadd.u32.u32.u32.add %r1, %r2, %r3;",           /* secondary op without c */
    "vadd4.u32.u32.u32 %r1, %r2.h10, %r3, %r4;",     /* half-word selector on a byte form */
    "vadd2.u32.u32.u32 %r1.h2, %r2, %r3, %r4;",      /* mask names a lane that is not there */
    "vadd4.u32.u32.u32.min %r1, %r2, %r3, %r4;",     /* SIMD forms only accumulate with .add */
    "vadd2.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", /* no saturation with the accumulate */
    "vadd.f32.u32.u32 %r1, %r2, %r3;",               /* types are .u32/.s32 */
};

START_TEST(video_rejected)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<6>;\n"
             "  mov.u32 %%r2, 1;\n  mov.u32 %%r3, 1;\n  mov.u32 %%r4, 1;\n  %s\n  ret;\n}\n",
             bad_forms[_i]);
    conf_result r;
    uint64_t p = 0;
    conf_status st = conf_run_k("video form", ptx, (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, 0,
                                &p, 1, &r);
    ck_assert_msg(st == CONF_LOAD_FAILED || st == CONF_PARSE_FAILED,
                  "'%s' was accepted (%s): %s", bad_forms[_i], conf_status_name(st), r.message);
}
END_TEST

/* ---------------------------------------------------------------- suite */

static const conf_table tables[] = {
    CONF_TABLE(op_vadd_uuu, c_scalar), CONF_TABLE(op_vadd_uuu, c_vadd_hand),
    CONF_TABLE(op_vadd_uuu_sat, c_scalar), CONF_TABLE(op_vadd_uuu_sat, c_vadd_sat_hand),
    CONF_TABLE(op_vadd_sss_sat, c_scalar), CONF_TABLE(op_vadd_sss_sat, c_vadd_ssat_hand),
    CONF_TABLE(op_vadd_sus_sat_sel, c_scalar), CONF_TABLE(op_vadd_sus_sat_sel, c_vadd_sel_hand),
    CONF_TABLE(op_vadd_uss_sel, c_scalar),
    CONF_TABLE(op_vsub_uuu_sat, c_scalar), CONF_TABLE(op_vsub_uuu_sat, c_vsub_sat_hand),
    CONF_TABLE(op_vsub_sss_sat, c_scalar), CONF_TABLE(op_vsub_sss_sat, c_vsub_ssat_hand),
    CONF_TABLE(op_vsub_ssu_sat_h, c_scalar),
    CONF_TABLE(op_vabsdiff_uss, c_scalar), CONF_TABLE(op_vabsdiff_uss, c_vabsdiff_hand),
    CONF_TABLE(op_vabsdiff_sss_sat, c_scalar), CONF_TABLE(op_vabsdiff_sss_sat, c_vabsdiff_sat_hand),
    CONF_TABLE(op_vabsdiff_suu_b, c_scalar),
    CONF_TABLE(op_vmin_sss, c_scalar), CONF_TABLE(op_vmin_uus, c_scalar),
    CONF_TABLE(op_vmax_sus_h, c_scalar), CONF_TABLE(op_vmax_uuu_sat_b, c_scalar),

    CONF_TABLE(op_vadd_uuu_add, c_scalar3), CONF_TABLE(op_vadd_uuu_add, c_vadd_add_hand),
    CONF_TABLE(op_vadd_sss_sat_add, c_scalar3), CONF_TABLE(op_vsub_sss_min, c_scalar3),
    CONF_TABLE(op_vmax_sss_min, c_scalar3), CONF_TABLE(op_vmax_sss_min, c_vmax_min_hand),
    CONF_TABLE(op_vadd_uuu_min, c_scalar3), CONF_TABLE(op_vadd_uuu_min, c_vadd_min_hand),
    CONF_TABLE(op_vsub_uuu_max, c_scalar3), CONF_TABLE(op_vabsdiff_uuu_sat_max, c_scalar3),
    CONF_TABLE(op_vmin_ssu_add_sel, c_scalar3),
    CONF_TABLE(op_vadd_merge_b0, c_scalar3), CONF_TABLE(op_vadd_merge_b1, c_scalar3),
    CONF_TABLE(op_vadd_merge_b1, c_merge_b1_hand), CONF_TABLE(op_vsub_merge_b2, c_scalar3),
    CONF_TABLE(op_vsub_merge_b2, c_merge_b2_hand),
    CONF_TABLE(op_vsub_merge_b3, c_scalar3), CONF_TABLE(op_vadd_merge_h0, c_scalar3),
    CONF_TABLE(op_vadd_merge_h0, c_merge_h0_hand), CONF_TABLE(op_vsub_merge_h1, c_scalar3),
    CONF_TABLE(op_vmax_merge_h1_nosat, c_scalar3), CONF_TABLE(op_vabsdiff_merge_b1_nosat, c_scalar3),

    CONF_TABLE(op_vshl_uuu_clamp, c_shift), CONF_TABLE(op_vshl_uuu_clamp, c_vshl_clamp_hand),
    CONF_TABLE(op_vshl_uuu_wrap, c_shift), CONF_TABLE(op_vshl_uuu_wrap, c_vshl_wrap_hand),
    CONF_TABLE(op_vshl_uuu_sat_clamp, c_shift), CONF_TABLE(op_vshl_uuu_sat_clamp, c_vshl_sat_hand),
    CONF_TABLE(op_vshl_sss_sat_wrap, c_shift),
    CONF_TABLE(op_vshr_ssu_clamp, c_shift), CONF_TABLE(op_vshr_ssu_clamp, c_vshr_clamp_hand),
    CONF_TABLE(op_vshr_ssu_wrap, c_shift), CONF_TABLE(op_vshr_ssu_wrap, c_vshr_wrap_hand),
    CONF_TABLE(op_vshr_uuu_clamp, c_shift), CONF_TABLE(op_vshr_uuu_clamp, c_vshr_u_hand),
    CONF_TABLE(op_vshr_ssu_b, c_shift), CONF_TABLE(op_vshl_add, c_shift),
    CONF_TABLE(op_vshr_merge_h1, c_shift),

    CONF_TABLE(op_vmad_uuu, c_vmad), CONF_TABLE(op_vmad_uuu, c_vmad_hand),
    CONF_TABLE(op_vmad_uuu_sat, c_vmad), CONF_TABLE(op_vmad_uuu_sat, c_vmad_sat_hand),
    CONF_TABLE(op_vmad_sss_sat, c_vmad), CONF_TABLE(op_vmad_sss_sat, c_vmad_ssat_hand),
    CONF_TABLE(op_vmad_ssu, c_vmad), CONF_TABLE(op_vmad_sel, c_vmad),

    CONF_TABLE(op_vset_uu_eq, c_set), CONF_TABLE(op_vset_uu_ne, c_set),
    CONF_TABLE(op_vset_su_lt, c_set), CONF_TABLE(op_vset_su_lt, c_vset_su_hand),
    CONF_TABLE(op_vset_uu_lt, c_set), CONF_TABLE(op_vset_uu_lt, c_vset_uu_hand),
    CONF_TABLE(op_vset_ss_le, c_set), CONF_TABLE(op_vset_us_gt, c_set), CONF_TABLE(op_vset_ss_ge, c_set),
    CONF_TABLE(op_vset_uu_ne_h, c_set), CONF_TABLE(op_vset_ss_lt_b, c_set),
    CONF_TABLE(op_vset_add, c_set), CONF_TABLE(op_vset_add, c_vset_add_hand),
    CONF_TABLE(op_vset_min, c_set), CONF_TABLE(op_vset_max, c_set),
    CONF_TABLE(op_vset_merge_b2, c_set), CONF_TABLE(op_vset_merge_b2, c_vset_merge_hand),
    CONF_TABLE(op_vset_merge_h1, c_set), CONF_TABLE(op_vset_merge_h1_ge, c_set),
    CONF_TABLE(op_vset_merge_h1_ge, c_vset_h1_hand),

    CONF_TABLE(op_vadd2_uuu, c_simd), CONF_TABLE(op_vadd2_uuu_sat, c_simd),
    CONF_TABLE(op_vadd2_sss_sat, c_simd), CONF_TABLE(op_vadd2_ssu_sat, c_simd),
    CONF_TABLE(op_vsub2_sss_sat, c_simd), CONF_TABLE(op_vsub2_uuu_sat_mask, c_simd),
    CONF_TABLE(op_vavrg2_uuu, c_simd), CONF_TABLE(op_vavrg2_sss, c_simd),
    CONF_TABLE(op_vavrg2_sss, c_vavrg2_s_hand),
    CONF_TABLE(op_vabsdiff2_sss, c_simd), CONF_TABLE(op_vabsdiff2_uuu_add, c_simd),
    CONF_TABLE(op_vmin2_sss, c_simd), CONF_TABLE(op_vmin2_suu_add_sel, c_simd),
    CONF_TABLE(op_vmax2_uuu_mask, c_simd), CONF_TABLE(op_vmax2_sss_sel, c_simd),
    CONF_TABLE(op_vsub2_sel, c_simd), CONF_TABLE(op_vadd2_add_mask, c_simd),
    CONF_TABLE(op_vadd2_add_mask, c_vadd2_add_hand),
    CONF_TABLE(op_vset2_uu_lt, c_simd), CONF_TABLE(op_vset2_ss_ge, c_simd),
    CONF_TABLE(op_vset2_add, c_simd), CONF_TABLE(op_vset2_mask_sel, c_simd),

    CONF_TABLE(op_vadd4_uuu, c_simd), CONF_TABLE(op_vadd4_uuu_sat, c_simd),
    CONF_TABLE(op_vadd4_sss_sat, c_simd), CONF_TABLE(op_vadd4_sss_sat, c_simd4_hand_sadd),
    CONF_TABLE(op_vadd4_sus_sat, c_simd),
    CONF_TABLE(op_vsub4_sss_sat, c_simd), CONF_TABLE(op_vsub4_uuu_sat, c_simd),
    CONF_TABLE(op_vsub4_sel_mask, c_simd),
    CONF_TABLE(op_vavrg4_uuu, c_simd), CONF_TABLE(op_vavrg4_uuu, c_simd4_hand_avrg_u),
    CONF_TABLE(op_vavrg4_sss, c_simd), CONF_TABLE(op_vavrg4_sss, c_simd4_hand_avrg_s),
    CONF_TABLE(op_vavrg4_uss_sat, c_simd),
    CONF_TABLE(op_vabsdiff4_uuu, c_simd), CONF_TABLE(op_vabsdiff4_uuu_add, c_simd),
    CONF_TABLE(op_vabsdiff4_uuu_add, c_simd4_hand_sad), CONF_TABLE(op_vabsdiff4_sss_sat, c_simd),
    CONF_TABLE(op_vmin4_sss, c_simd), CONF_TABLE(op_vmin4_suu_add, c_simd),
    CONF_TABLE(op_vmax4_uuu_mask, c_simd), CONF_TABLE(op_vmax4_ssu_sel, c_simd),
    CONF_TABLE(op_vadd4_mask_b20, c_simd), CONF_TABLE(op_vadd4_mask_b20, c_simd4_hand_mask),
    CONF_TABLE(op_vadd4_swap, c_simd), CONF_TABLE(op_vadd4_swap, c_simd4_hand_swap),
    CONF_TABLE(op_vset4_uu_gt, c_simd), CONF_TABLE(op_vset4_uu_gt, c_simd4_hand_gt),
    CONF_TABLE(op_vset4_ss_lt, c_simd), CONF_TABLE(op_vset4_su_le, c_simd),
    CONF_TABLE(op_vset4_add, c_simd), CONF_TABLE(op_vset4_mask, c_simd),
    CONF_TABLE(op_vadd4_imm, c_imm), CONF_TABLE(op_vsub_imm, c_imm),
};

START_TEST(video_row)
{
    conf_check_row(tables, CONF_N(tables), _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_video");
    conf_add_tables(s, tables, CONF_N(tables), video_row);
    TCase *tc = tcase_create("vmad negation, .po, .shr7/.shr15 (semantic helper)");
    tcase_add_loop_test(tc, vmad_sem, 0, (int)CONF_N(vmad_rows));
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("forms the ISA does not define");
    tcase_add_loop_test(tr, video_rejected, 0, (int)CONF_N(bad_forms));
    suite_add_tcase(s, tr);
    return conf_main(s);
}
