/* exec_cmp.c: comparison and selection: setp, set, selp, slct (integer, float, half types). */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>

static double fval(uint8_t t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_TYPE_F32: {
        float f = emu_as_f32(v);
        return ftz ? emu_ftz32(f) : f;
    }
    case PTX_TYPE_F64: return emu_as_f64(v);
    case PTX_TYPE_F16:
        if (ftz && (v & 0x7c00) == 0) v &= 0x8000;
        return emu_f16_to_f64((uint16_t)v);
    case PTX_TYPE_BF16:
        if (ftz && (v & 0x7f80) == 0) v &= 0x8000;
        return emu_bf16_to_f64((uint16_t)v);
    default: return 0;
    }
}

static bool compare(const ptx_instr *in, uint8_t t, uint64_t a, uint64_t b)
{
    uint8_t k = emu_type_kind[t];
    if (k == EMU_TK_F) {
        bool ftz = in->flags & PTX_F(FTZ);
        return emu_cmp_float(in->cmp, fval(t, a, ftz), fval(t, b, ftz));
    }
    return emu_cmp_int(in->cmp, a, b, k == EMU_TK_S, emu_type_bits[t]);
}

static bool combine(uint16_t op, bool r, bool c)
{
    switch (op) {
    case PTX_SFX_AND: return r && c;
    case PTX_SFX_OR: return r || c;
    case PTX_SFX_XOR: return r != c;
    default: return r;
    }
}

/* setp.cmp{.bool}.type p{|q}, a, b {, {!}c}: the parser gives p and q as two destinations */
static void x_setp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    int nsrc = in->boolop ? 3 : 2;
    int ndst = in->nops - nsrc;
    const ptx_operand *sa = &in->ops[ndst], *sb = &in->ops[ndst + 1];
    bool x2 = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
    uint8_t et = t == PTX_TYPE_F16X2 ? PTX_TYPE_F16 : t == PTX_TYPE_BF16X2 ? PTX_TYPE_BF16 : t;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], p[EMU_WARP_SIZE],
        q[EMU_WARP_SIZE];
    emu_read_all(c, sa, x2 ? PTX_TYPE_B32 : t, a);
    emu_read_all(c, sb, x2 ? PTX_TYPE_B32 : t, b);
    if (in->boolop) emu_read_all(c, &in->ops[ndst + 2], PTX_TYPE_PRED, cc);
    LANES(c) {
        int l = L_;
        bool cv = in->boolop ? cc[l] != 0 : false;
        if (x2) {
            bool lo = compare(in, et, a[l] & 0xffff, b[l] & 0xffff);
            bool hi = compare(in, et, (a[l] >> 16) & 0xffff, (b[l] >> 16) & 0xffff);
            p[l] = combine(in->boolop, lo, cv);
            q[l] = combine(in->boolop, hi, cv);
        } else {
            bool r = compare(in, t, a[l], b[l]);
            p[l] = combine(in->boolop, r, cv);
            q[l] = combine(in->boolop, !r, cv);
        }
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, p);
    if (ndst > 1) emu_write_all(c, &in->ops[1], PTX_TYPE_PRED, q);
}

/* set.cmp{.bool}.dtype.stype d, a, b {, {!}c}: all ones / 1.0 for true */
static void x_set(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0), st = emu_ty(in, 1);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], st, a);
    emu_read_all(c, &in->ops[2], st, b);
    if (in->boolop) emu_read_all(c, &in->ops[3], PTX_TYPE_PRED, cc);
    LANES(c) {
        int l = L_;
        bool r = combine(in->boolop, compare(in, st, a[l], b[l]), in->boolop ? cc[l] != 0 : false);
        if (dt == PTX_TYPE_F32) d[l] = r ? 0x3f800000u : 0;
        else d[l] = r ? emu_mask_bits(emu_type_bits[dt]) : 0;
    }
    emu_write_all(c, &in->ops[0], dt, d);
}

static void x_selp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], p[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], t, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_PRED, p);
    LANES(c) {
        int l = L_;
        d[l] = p[l] ? a[l] : b[l];
    }
    emu_write_all(c, &in->ops[0], t, d);
}

/* slct.dtype.{s32,f32} d, a, b, c: a when c >= 0 */
static void x_slct(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0), ct = emu_ty(in, 1);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], s[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], dt, a);
    emu_read_all(c, &in->ops[2], dt, b);
    emu_read_all(c, &in->ops[3], ct, s);
    bool ftz = in->flags & PTX_F(FTZ);
    LANES(c) {
        int l = L_;
        bool ge;
        if (ct == PTX_TYPE_F32) {
            float f = emu_as_f32(s[l]);
            if (ftz) f = emu_ftz32(f);
            ge = f >= 0.0f;
        } else {
            ge = emu_sext(s[l], 32) >= 0;
        }
        d[l] = ge ? a[l] : b[l];
    }
    emu_write_all(c, &in->ops[0], dt, d);
}

emu_exec_fn emu_select_cmp(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    switch (in->op) {
    case PTX_OP_SETP:
        if (!in->cmp || t == PTX_TYPE_NONE || emu_type_bits[t] > 64) return NULL;
        if (in->nops < (in->boolop ? 4 : 3) || in->nops > (in->boolop ? 5 : 4)) return NULL;
        return x_setp;
    case PTX_OP_SET:
        if (!in->cmp || in->ntypes < 2 || in->nops < 3) return NULL;
        return x_set;
    case PTX_OP_SELP: return in->nops == 4 && emu_type_bits[t] <= 64 ? x_selp : NULL;
    case PTX_OP_SLCT: return in->nops == 4 && in->ntypes == 2 ? x_slct : NULL;
    default: return NULL;
    }
}
