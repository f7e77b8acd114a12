/* exec_cvt.c: data movement and conversion in registers: mov (values, special registers,
 * symbol addresses, vector pack/unpack), cvt (every type pair, packed forms), cvta and
 * isspacep. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>

static void x_mov(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    uint64_t v[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, v);
    emu_write_all(c, &in->ops[0], t, v);
}

/* mov.b128 between a .b128 register (two slots) and a {lo, hi} pair of 64-bit values */
static void x_mov128(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    const ptx_operand *d = &in->ops[0], *a = &in->ops[1];
    uint64_t lo[EMU_WARP_SIZE], hi[EMU_WARP_SIZE];
    if (a->kind == PTX_OPD_VEC && a->nelem == 2) {
        emu_read_all(c, &a->elems[0], PTX_TYPE_B64, lo);
        emu_read_all(c, &a->elems[1], PTX_TYPE_B64, hi);
    } else {
        const uint64_t *row = emu_reg_row(c, a);
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            lo[l] = row ? row[l] : 0;
            hi[l] = row ? row[EMU_WARP_SIZE + l] : 0;
        }
    }
    if (d->kind == PTX_OPD_VEC && d->nelem == 2) {
        emu_write_all(c, &d->elems[0], PTX_TYPE_B64, lo);
        emu_write_all(c, &d->elems[1], PTX_TYPE_B64, hi);
        return;
    }
    uint64_t *row = emu_reg_row(c, d);
    for (uint32_t mk = c->mask; mk && row; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        row[l] = lo[l];
        row[EMU_WARP_SIZE + l] = hi[l];
    }
}

/* A cluster here is one CTA: mapa gives the same address, getctarank rank 0. */
static void x_mapa(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t v[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], emu_ty(in, 0), v);
    emu_write_all(c, &in->ops[0], emu_ty(in, 0), v);
}

static void x_getctarank(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t z[EMU_WARP_SIZE] = { 0 };
    emu_write_all(c, &in->ops[0], PTX_TYPE_U32, z);
}

static void x_cvt(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0), st = emu_ty(in, 1);
    bool ftz = in->flags & PTX_F(FTZ), sat = in->flags & PTX_F(SAT);
    bool relu = in->flags & PTX_F(RELU), satf = in->flags & PTX_F(SATFINITE);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], st, a);
    LANES(c) {
        int l = L_;
        uint64_t r = emu_cvt(dt, st, in->rnd, ftz, sat, satf, a[l]);
        if (relu) {
            if (dt == PTX_TYPE_F16 && (r & 0x8000) && (r & 0x7fff) <= 0x7c00) r = 0;
            if (dt == PTX_TYPE_BF16 && (r & 0x8000) && (r & 0x7fff) <= 0x7f80) r = 0;
        }
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], dt, d);
}

/* One half of a packed cvt result: f narrowed to the element type of the pair type dt, with
 * the instruction's rounding, .relu and .satfinite. */
static uint64_t pack_half(const ptx_instr *in, uint8_t dt, float f)
{
    if ((in->flags & PTX_F(RELU)) && !isnan(f) && f < 0) f = 0;
    bool satf = in->flags & PTX_F(SATFINITE);
    switch (dt) {
    case PTX_TYPE_F16X2: return emu_round_to_format(f, 5, 10, in->rnd, satf);
    case PTX_TYPE_BF16X2: return emu_round_to_format(f, 8, 7, in->rnd, satf);
    case PTX_TYPE_E4M3X2: return emu_f32_to_e4m3(f, true);
    case PTX_TYPE_E5M2X2: return emu_f32_to_e5m2(f, true);
    default: return 0;
    }
}

/* cvt to a packed pair: d = {cvt(a) in the upper half, cvt(b) in the lower half} */
static void x_cvt_pack(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0), st = emu_ty(in, 1);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], st, a);
    emu_read_all(c, &in->ops[2], st, b);
    LANES(c) {
        int l = L_;
        uint64_t hv[2];
        uint64_t src[2] = { b[l], a[l] };
        for (int h = 0; h < 2; h++) {
            float f = st == PTX_TYPE_F32 ? emu_as_f32(src[h]) : (float)emu_f16_to_f64((uint16_t)src[h]);
            hv[h] = pack_half(in, dt, f);
        }
        unsigned hb = (dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2) ? 8 : 16;
        d[l] = hv[0] | (hv[1] << hb);
    }
    emu_write_all(c, &in->ops[0], dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2 ? PTX_TYPE_B16
                                                                                  : PTX_TYPE_B32,
                  d);
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c:
 * a and b are clamped to the narrow type and packed with a above b; the 8/4/2-bit forms fill
 * the bits above the pair from the low bits of c, which lets two instructions pack four bytes. */
static void x_cvt_pack_int(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0);
    unsigned size = emu_type_bits[dt];
    bool is_signed = emu_is_signed(dt);
    int64_t lo = is_signed ? -(INT64_C(1) << (size - 1)) : 0;
    int64_t hi = is_signed ? (INT64_C(1) << (size - 1)) - 1 : (INT64_C(1) << size) - 1;
    uint64_t mask = (UINT64_C(1) << size) - 1;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_S32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_S32, b);
    if (in->nops == 4) emu_read_all(c, &in->ops[3], PTX_TYPE_B32, cc);
    LANES(c) {
        int l = L_;
        int64_t x = (int32_t)a[l], y = (int32_t)b[l];
        x = x < lo ? lo : x > hi ? hi : x;
        y = y < lo ? lo : y > hi ? hi : y;
        uint64_t r = (((uint64_t)x & mask) << size) | ((uint64_t)y & mask);
        if (in->nops == 4) r |= cc[l] << (2 * size);
        d[l] = r & 0xffffffffu;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a: narrow each half of a (f16 widens to f32
 * exactly, so the one rounding is the fp8 one) */
static void x_cvt_f16x2_to_f8x2(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    LANES(c) {
        int l = L_;
        uint64_t r = 0;
        for (int h = 0; h < 2; h++)
            r |= pack_half(in, dt, (float)emu_f16_to_f64((uint16_t)(a[l] >> (16 * h)))) << (8 * h);
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B16, d);
}

/* cvt.f16x2.{e4m3x2,e5m2x2} d, a: widen a pair of fp8 values */
static void x_cvt_unpack8(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t st = emu_ty(in, 1);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B16, a);
    LANES(c) {
        int l = L_;
        uint64_t r = 0;
        for (int h = 0; h < 2; h++) {
            uint8_t v = (uint8_t)(a[l] >> (8 * h));
            float f = st == PTX_TYPE_E4M3X2 ? emu_e4m3_to_f32(v) : emu_e5m2_to_f32(v);
            r |= (uint64_t)emu_round_to_format(f, 5, 10, PTX_RND_RN, false) << (16 * h);
        }
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

static uint64_t window_of(uint8_t space, bool is_entry)
{
    switch (space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return EMU_SHARED_WINDOW;
    case PTX_SPACE_LOCAL: return EMU_LOCAL_WINDOW;
    case PTX_SPACE_PARAM: return is_entry ? EMU_PARAM_WINDOW : EMU_LOCAL_WINDOW;
    default: return 0;
    }
}

/* cvta.space.size d, a (to generic) and cvta.to.space.size d, a (from generic) */
static void x_cvta(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_U64, a);
    bool to = in->flags & PTX_F(TO);
    uint8_t sp = in->space;
    if (sp == PTX_SPACE_PARAM && in->ops[1].kind == PTX_OPD_SYM && !c->fn->is_entry)
        sp = PTX_SPACE_LOCAL;
    uint64_t win = window_of(sp, c->fn->is_entry);
    LANES(c) {
        int l = L_;
        uint64_t v = a[l];
        if (!win) d[l] = v;
        else if (to) d[l] = (v >= win && v < win + EMU_WINDOW_SIZE) ? v - win : v;
        else d[l] = v + win;
    }
    emu_write_all(c, &in->ops[0], t, d);
}

static void x_isspacep(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_U64, a);
    LANES(c) {
        int l = L_;
        uint64_t v = a[l];
        bool in_sh = v >= EMU_SHARED_WINDOW && v < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE;
        bool in_lo = v >= EMU_LOCAL_WINDOW && v < EMU_LOCAL_WINDOW + EMU_WINDOW_SIZE;
        bool in_pa = v >= EMU_PARAM_WINDOW && v < EMU_PARAM_WINDOW + EMU_WINDOW_SIZE;
        bool r;
        switch (in->space) {
        case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: r = in_sh; break;
        case PTX_SPACE_LOCAL: r = in_lo; break;
        case PTX_SPACE_PARAM: r = in_pa; break;
        case PTX_SPACE_CONST:
        case PTX_SPACE_GLOBAL: r = v < EMU_SHARED_WINDOW; break;
        default: r = false; break;
        }
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, d);
}

static bool cvt_type_ok(uint8_t t)
{
    switch (emu_type_kind[t]) {
    case EMU_TK_U: case EMU_TK_S: case EMU_TK_B: return emu_type_bits[t] >= 8 && emu_type_bits[t] <= 64;
    case EMU_TK_F: return true;
    default: return t == PTX_TYPE_TF32 || t == PTX_TYPE_E4M3 || t == PTX_TYPE_E5M2;
    }
}

emu_exec_fn emu_select_cvt(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t0 = emu_ty(in, 0), t1 = emu_ty(in, 1);
    switch (in->op) {
    case PTX_OP_MOV:
        if (in->nops != 2 || t0 == PTX_TYPE_NONE) return NULL;
        if (emu_type_bits[t0] == 128) {
            for (int i = 0; i < 2; i++) {
                const ptx_operand *o = &in->ops[i];
                if (!(o->kind == PTX_OPD_REG || (o->kind == PTX_OPD_VEC && o->nelem == 2)))
                    return NULL;
            }
            return x_mov128;
        }
        if (emu_type_bits[t0] > 64) return NULL;
        return x_mov;
    case PTX_OP_MAPA: return in->nops == 3 ? x_mapa : NULL;
    case PTX_OP_GETCTARANK: return in->nops == 2 ? x_getctarank : NULL;
    case PTX_OP_CVT:
        if (t0 == PTX_TYPE_F16X2 || t0 == PTX_TYPE_BF16X2 || t0 == PTX_TYPE_E4M3X2 ||
            t0 == PTX_TYPE_E5M2X2) {
            if (in->nops == 3 && (t1 == PTX_TYPE_F32 || t1 == PTX_TYPE_F16)) return x_cvt_pack;
            if (in->nops == 2 && t1 == PTX_TYPE_F16X2 &&
                (t0 == PTX_TYPE_E4M3X2 || t0 == PTX_TYPE_E5M2X2))
                return x_cvt_f16x2_to_f8x2;
            if (in->nops == 2 && t0 == PTX_TYPE_F16X2 &&
                (t1 == PTX_TYPE_E4M3X2 || t1 == PTX_TYPE_E5M2X2))
                return x_cvt_unpack8;
            return NULL;
        }
        if ((in->flags & PTX_F(PACK)) && (in->flags & PTX_F(SAT)) && t1 == PTX_TYPE_S32) {
            bool wide = t0 == PTX_TYPE_U16 || t0 == PTX_TYPE_S16;
            bool narrow = t0 == PTX_TYPE_U8 || t0 == PTX_TYPE_S8 || t0 == PTX_TYPE_U4 ||
                          t0 == PTX_TYPE_S4 || t0 == PTX_TYPE_U2 || t0 == PTX_TYPE_S2;
            if ((wide && in->nops == 3 && in->ntypes == 2) ||
                (narrow && in->nops == 4 && in->ntypes == 3 && emu_ty(in, 2) == PTX_TYPE_B32))
                return x_cvt_pack_int;
            return NULL;
        }
        if (in->nops != 2 || !cvt_type_ok(t0) || !cvt_type_ok(t1)) return NULL;
        return x_cvt;
    case PTX_OP_CVTA: return in->nops == 2 ? x_cvta : NULL;
    case PTX_OP_ISSPACEP: return in->nops == 2 ? x_isspacep : NULL;
    default: return NULL;
    }
}
