/* exec_cvt.c: data movement and conversion in registers: mov (values, special registers,
 * symbol addresses, vector pack/unpack, .b128), cvt (every type pair, packed forms,
 * cvt.pack.sat), cvta, isspacep, and the one-CTA cluster's mapa and getctarank.
 *
 * Operand plumbing around sem.h's conversion family. A cvt is decoded once into a form (types
 * and modifiers); the commonest pairs (integer widening and narrowing, 32-bit integers to
 * f32/f64, f32 to 32-bit integers, f32 <-> f64, f64 to s32) have handlers of their own whose lane
 * loop is the bare conversion; a conversion that rounds in a directed host mode runs under
 * emu_exec_rounded. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <assert.h>

/* ---------------------------------------------------------------- mov, mapa, getctarank */

static void x_mov(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    EMU_LANEWISE(c, &u->opd[0], t, a[l]);
}

/* mov.v2/.v4.type {d...}, {a...}: element-wise (a vector register is the list of its
 * components); every source is read before any destination is written. */
static void x_mov_vec(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    const emu_opd *d = emu_opd_elems(c, &u->opd[0]), *a = emu_opd_elems(c, &u->opd[1]);
    unsigned n = (unsigned)u->opd[0].imm;
    uint64_t v[4][EMU_WARP_SIZE];
    assert(n <= 4);
    for (unsigned k = 0; k < n; k++) {
        uint64_t ba[EMU_WARP_SIZE];
        memcpy(v[k], emu_src(c, &a[k], t, ba), sizeof v[k]);
    }
    for (unsigned k = 0; k < n; k++) {
        const uint64_t *vk = v[k];
        EMU_LANEWISE(c, &d[k], t, vk[l]);
    }
}

static bool is_pair(const emu_opd *o)
{
    return o->kind == EMU_OPD_VEC && o->imm == 2;
}

/* mov.b128 between a .b128 register (two rows: low, high) and a {lo, hi} pair of 64-bit values */
static void x_mov128(emu_ctx *c, const emu_uop *u)
{
    const emu_opd *d = &u->opd[0], *a = &u->opd[1];
    uint64_t lo[EMU_WARP_SIZE], hi[EMU_WARP_SIZE];
    if (is_pair(a)) {
        const emu_opd *e = emu_opd_elems(c, a);
        uint64_t buf[EMU_WARP_SIZE];
        memcpy(lo, emu_src(c, &e[0], PTX_TYPE_B64, buf), sizeof lo);
        memcpy(hi, emu_src(c, &e[1], PTX_TYPE_B64, buf), sizeof hi);
    } else {
        const uint64_t *row = c->regs + a->row;
        memcpy(lo, row, sizeof lo);
        memcpy(hi, row + EMU_WARP_SIZE, sizeof hi);
    }
    if (is_pair(d)) {
        const emu_opd *e = emu_opd_elems(c, d);
        emu_put(c, &e[0], PTX_TYPE_B64, lo);
        emu_put(c, &e[1], PTX_TYPE_B64, hi);
        return;
    }
    uint64_t *row = c->regs + d->row;
    LANES(c) {
        int l = L_;
        row[l] = lo[l];
        row[EMU_WARP_SIZE + l] = hi[l];
    }
}

/* A cluster here is one CTA: mapa gives the same address, getctarank rank 0. */
static void x_mapa(emu_ctx *c, const emu_uop *u)
{
    x_mov(c, u);
}

static void x_getctarank(emu_ctx *c, const emu_uop *u)
{
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_U32, UINT64_C(0));
}

/* ---------------------------------------------------------------- cvt */

/* A cvt's decoded form (r first: emu_exec_rounded reads it). */
typedef struct cvt_form {
    emu_rounded r;
    int rnd;                  /* ptx_round as written */
    uint8_t dt, st;
    bool ftz, sat, satf, relu;
    unsigned sbits, dbits;    /* integer to integer */
    bool ssigned;
} cvt_form;

/* cvt.dtype.stype d, a: any pair (emu_cvt), .relu on a half result */
static void x_cvt(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], f->st, ba);
#define CVT_LANE(l) emu_cvt(f->dt, f->st, f->rnd, f->ftz, f->sat, f->satf, a[l])
    if (f->relu) EMU_LANEWISE(c, &u->opd[0], f->dt, sem_cvt_relu(f->dt, CVT_LANE(l)));
    else EMU_LANEWISE(c, &u->opd[0], f->dt, CVT_LANE(l));
#undef CVT_LANE
}

/* d = EXPR(a[l]) with the source read as ST and the result written as the cvt's dtype */
#define CVT(name, ST, EXPR)                                                                \
    static void name(emu_ctx *c, const emu_uop *u)                                         \
    {                                                                                      \
        uint64_t ba[EMU_WARP_SIZE];                                                        \
        const uint64_t *a = emu_src(c, &u->opd[1], (ST), ba);                             \
        EMU_LANEWISE(c, &u->opd[0], u->type, EXPR);                                        \
    }

/* integer to integer without .sat */
CVT(x_cvt_sext32_64, PTX_TYPE_B32, sem_cvt_int_resize(a[l], 32, true, 64))
CVT(x_cvt_zext32_64, PTX_TYPE_B32, sem_cvt_int_resize(a[l], 32, false, 64))
CVT(x_cvt_trunc64_32, PTX_TYPE_B64, sem_cvt_int_resize(a[l], 64, false, 32))
static void x_cvt_int(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], f->st, ba);
    EMU_LANEWISE(c, &u->opd[0], f->dt, sem_cvt_int_resize(a[l], f->sbits, f->ssigned, f->dbits));
}
/* 32-bit integers to f32 (host rounding mode) and f64 (exact) */
CVT(x_cvt_s32_f32, PTX_TYPE_S32, sem_cvt_s32_to_f32(a[l]))
CVT(x_cvt_u32_f32, PTX_TYPE_U32, sem_cvt_u32_to_f32(a[l]))
CVT(x_cvt_s32_f64, PTX_TYPE_S32, sem_cvt_s32_to_f64(a[l]))
CVT(x_cvt_u32_f64, PTX_TYPE_U32, sem_cvt_u32_to_f64(a[l]))
/* f32 (with or without .ftz) and f64 to s32/u32, one handler per integer rounding mode; the
 * tables are indexed [integer_rounding_row][ftz] */
#define F32_TO_I32(name, SIGNED, RND, FTZ)                                                 \
    CVT(name, PTX_TYPE_F32, sem_cvt_f32_to_int(a[l], FTZ, 32, SIGNED, PTX_RND_##RND))
#define F32_TO_I32_ROW(pre, SIGNED, RND)                                                   \
    F32_TO_I32(pre##_##RND, SIGNED, RND, false) F32_TO_I32(pre##_##RND##_ftz, SIGNED, RND, true)
#define F64_TO_S32(name, RND)                                                              \
    CVT(name, PTX_TYPE_F64, emu_float_to_int(emu_as_f64(a[l]), 32, true, PTX_RND_##RND))
F32_TO_I32_ROW(x_cvt_s32_f32, true, RNI)
F32_TO_I32_ROW(x_cvt_s32_f32, true, RZI)
F32_TO_I32_ROW(x_cvt_s32_f32, true, RMI)
F32_TO_I32_ROW(x_cvt_s32_f32, true, RPI)
F32_TO_I32_ROW(x_cvt_u32_f32, false, RNI)
F32_TO_I32_ROW(x_cvt_u32_f32, false, RZI)
F32_TO_I32_ROW(x_cvt_u32_f32, false, RMI)
F32_TO_I32_ROW(x_cvt_u32_f32, false, RPI)
F64_TO_S32(x_cvt_s32_f64_RNI, RNI)
F64_TO_S32(x_cvt_s32_f64_RZI, RZI)
F64_TO_S32(x_cvt_s32_f64_RMI, RMI)
F64_TO_S32(x_cvt_s32_f64_RPI, RPI)
static const emu_exec_fn cvt_s32_f32[4][2] = {
    { x_cvt_s32_f32_RNI, x_cvt_s32_f32_RNI_ftz }, { x_cvt_s32_f32_RZI, x_cvt_s32_f32_RZI_ftz },
    { x_cvt_s32_f32_RMI, x_cvt_s32_f32_RMI_ftz }, { x_cvt_s32_f32_RPI, x_cvt_s32_f32_RPI_ftz } };
static const emu_exec_fn cvt_u32_f32[4][2] = {
    { x_cvt_u32_f32_RNI, x_cvt_u32_f32_RNI_ftz }, { x_cvt_u32_f32_RZI, x_cvt_u32_f32_RZI_ftz },
    { x_cvt_u32_f32_RMI, x_cvt_u32_f32_RMI_ftz }, { x_cvt_u32_f32_RPI, x_cvt_u32_f32_RPI_ftz } };
static const emu_exec_fn cvt_s32_f64[4] = { x_cvt_s32_f64_RNI, x_cvt_s32_f64_RZI, x_cvt_s32_f64_RMI,
                                            x_cvt_s32_f64_RPI };
/* f32 <-> f64 */
CVT(x_cvt_f32_f64, PTX_TYPE_F32, sem_cvt_f32_to_f64(a[l], false, false))
CVT(x_cvt_f32_f64_ftz, PTX_TYPE_F32, sem_cvt_f32_to_f64(a[l], true, false))
CVT(x_cvt_f64_f32, PTX_TYPE_F64, sem_cvt_f64_to_f32(a[l], false, false))
CVT(x_cvt_f64_f32_ftz, PTX_TYPE_F64, sem_cvt_f64_to_f32(a[l], true, false))

/* cvt to a packed pair: d = {cvt(a) in the upper half, cvt(b) in the lower half} */
static void x_cvt_pack(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], f->st, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], f->st, bb);
    bool fp8 = f->dt == PTX_TYPE_E4M3X2 || f->dt == PTX_TYPE_E5M2X2;
    EMU_LANEWISE(c, &u->opd[0], fp8 ? PTX_TYPE_B16 : PTX_TYPE_B32,
                 sem_cvt_pack_pair(f->dt, f->st, a[l], b[l], f->rnd, f->relu, f->satf));
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c */
static void x_cvt_pack_int(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    bool has_c = u->nopd == 4;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_S32, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_S32, bb);
    const uint64_t *cc = has_c ? emu_src(c, &u->opd[3], PTX_TYPE_B32, bc) : a;
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_B32,
                 sem_cvt_pack_sat_int(f->dt, a[l], b[l], cc[l], has_c));
}

/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a */
static void x_cvt_f16x2_to_f8x2(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_B16,
                 sem_cvt_f16x2_to_f8x2(f->dt, a[l], f->rnd, f->relu, f->satf));
}

/* cvt.f16x2.{e4m3x2,e5m2x2} d, a */
static void x_cvt_unpack8(emu_ctx *c, const emu_uop *u)
{
    const cvt_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B16, ba);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_B32, sem_cvt_f8x2_to_f16x2(f->st, a[l]));
}

static bool cvt_type_ok(uint8_t t)
{
    switch (emu_type_kind[t]) {
    case EMU_TK_U: case EMU_TK_S: case EMU_TK_B:
        return emu_type_bits[t] >= 8 && emu_type_bits[t] <= 64;
    case EMU_TK_F: return true;
    default: return t == PTX_TYPE_TF32 || t == PTX_TYPE_E4M3 || t == PTX_TYPE_E5M2;
    }
}

static bool is_int(uint8_t t)
{
    uint8_t k = emu_type_kind[t];
    return k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B;
}

/* The f32/f64 to 32-bit integer handler tables' row for rnd (as emu_float_to_int reads it). */
static int integer_rounding_row(int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: case PTX_RND_RN: return 0;
    case PTX_RND_RMI: case PTX_RND_RM: return 2;
    case PTX_RND_RPI: case PTX_RND_RP: return 3;
    default: return 1;   /* RZI, RZ, none */
    }
}

static bool integral_rounding(int rnd)
{
    return rnd == PTX_RND_RNI || rnd == PTX_RND_RZI || rnd == PTX_RND_RMI || rnd == PTX_RND_RPI;
}

/* The handler of a plain cvt.dtype.stype (no packed type), before its rounding mode. */
static emu_exec_fn select_plain_cvt(const cvt_form *f)
{
    uint8_t dt = f->dt, st = f->st;
    bool dint = is_int(dt), sint = is_int(st);
    if (f->relu || f->satf) return x_cvt;
    if (dint && sint) {
        if (f->sat) return x_cvt;
        if (f->sbits == 32 && f->dbits == 64) return f->ssigned ? x_cvt_sext32_64 : x_cvt_zext32_64;
        if (f->sbits == 64 && f->dbits == 32) return x_cvt_trunc64_32;
        return x_cvt_int;
    }
    if (f->sat) return x_cvt;
    if (sint && f->sbits == 32 && (dt == PTX_TYPE_F32 || dt == PTX_TYPE_F64)) {
        if (dt == PTX_TYPE_F32) return f->ssigned ? x_cvt_s32_f32 : x_cvt_u32_f32;
        return f->ssigned ? x_cvt_s32_f64 : x_cvt_u32_f64;
    }
    if (dint && f->dbits == 32 && (dt == PTX_TYPE_S32 || dt == PTX_TYPE_U32)) {
        int row = integer_rounding_row(f->rnd);
        if (st == PTX_TYPE_F32 && dt == PTX_TYPE_S32) return cvt_s32_f32[row][f->ftz];
        if (st == PTX_TYPE_F32) return cvt_u32_f32[row][f->ftz];
        if (st == PTX_TYPE_F64 && dt == PTX_TYPE_S32) return cvt_s32_f64[row];
        return x_cvt;
    }
    if (integral_rounding(f->rnd)) return x_cvt;
    if (st == PTX_TYPE_F32 && dt == PTX_TYPE_F64) return f->ftz ? x_cvt_f32_f64_ftz : x_cvt_f32_f64;
    if (st == PTX_TYPE_F64 && dt == PTX_TYPE_F32) return f->ftz ? x_cvt_f64_f32_ftz : x_cvt_f64_f32;
    return x_cvt;
}

static emu_exec_fn select_cvt(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t0 = emu_ty(in, 0), t1 = emu_ty(in, 1);
    emu_exec_fn h = NULL;
    bool packed = t0 == PTX_TYPE_F16X2 || t0 == PTX_TYPE_BF16X2 || t0 == PTX_TYPE_E4M3X2 ||
                  t0 == PTX_TYPE_E5M2X2;
    if (packed) {
        if (in->nops == 3 && (t1 == PTX_TYPE_F32 || t1 == PTX_TYPE_F16)) h = x_cvt_pack;
        else if (in->nops == 2 && t1 == PTX_TYPE_F16X2 &&
                 (t0 == PTX_TYPE_E4M3X2 || t0 == PTX_TYPE_E5M2X2))
            h = x_cvt_f16x2_to_f8x2;
        else if (in->nops == 2 && t0 == PTX_TYPE_F16X2 &&
                 (t1 == PTX_TYPE_E4M3X2 || t1 == PTX_TYPE_E5M2X2))
            h = x_cvt_unpack8;
        else
            return NULL;
    } else if ((in->flags & PTX_F(PACK)) && (in->flags & PTX_F(SAT)) && t1 == PTX_TYPE_S32) {
        bool wide = t0 == PTX_TYPE_U16 || t0 == PTX_TYPE_S16;
        bool narrow = t0 == PTX_TYPE_U8 || t0 == PTX_TYPE_S8 || t0 == PTX_TYPE_U4 ||
                      t0 == PTX_TYPE_S4 || t0 == PTX_TYPE_U2 || t0 == PTX_TYPE_S2;
        if (!(wide && in->nops == 3 && in->ntypes == 2) &&
            !(narrow && in->nops == 4 && in->ntypes == 3 && emu_ty(in, 2) == PTX_TYPE_B32))
            return NULL;
        h = x_cvt_pack_int;
    } else if (in->nops != 2 || !cvt_type_ok(t0) || !cvt_type_ok(t1)) {
        return NULL;
    }
    cvt_form *f = emu_code_alloc(code, sizeof *f);
    if (!f) return NULL;
    f->rnd = in->rnd;
    f->dt = t0;
    f->st = t1;
    f->ftz = in->flags & PTX_F(FTZ);
    f->sat = in->flags & PTX_F(SAT);
    f->satf = in->flags & PTX_F(SATFINITE);
    f->relu = in->flags & PTX_F(RELU);
    f->sbits = emu_type_bits[t1];
    f->dbits = emu_type_bits[t0];
    f->ssigned = emu_is_signed(t1);
    u->form = f;
    if (h) return h;   /* the packed forms round in software */
    h = select_plain_cvt(f);
    f->r.body = h;
    f->r.rnd = sem_cvt_host_round(t0, t1, in->rnd);
    return sem_float_nearest(f->r.rnd) ? h : emu_exec_rounded;
}

/* ---------------------------------------------------------------- cvta, isspacep */

typedef struct space_form {
    uint8_t space;            /* as the function sees it: .param of a .func is local memory */
    bool to;
} space_form;

/* cvta.space.size d, a (to generic) and cvta.to.space.size d, a (from generic) */
static void x_cvta(emu_ctx *c, const emu_uop *u)
{
    const space_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_U64, ba);
    EMU_LANEWISE(c, &u->opd[0], u->type, sem_cvt_cvta(f->space, f->to, a[l]));
}

static void x_isspacep(emu_ctx *c, const emu_uop *u)
{
    const space_form *f = u->form;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_U64, ba);
    uint32_t p = 0;
    LANES(c) {
        int l = L_;
        p |= (uint32_t)sem_cvt_isspacep(f->space, a[l]) << l;
    }
    emu_put_pred(c, &u->opd[0], p);
}

static emu_exec_fn select_space(emu_code *code, emu_uop *u, emu_exec_fn h)
{
    const ptx_instr *in = u->in;
    if (in->nops != 2) return NULL;
    space_form *f = emu_code_alloc(code, sizeof *f);
    if (!f) return NULL;
    f->space = in->space;
    /* a .func's parameters live in its frame (local memory); isspacep keeps the space as
     * written */
    if (in->op == PTX_OP_CVTA && in->space == PTX_SPACE_PARAM && !code->fn->is_entry)
        f->space = PTX_SPACE_LOCAL;
    f->to = in->flags & PTX_F(TO);
    u->form = f;
    return h;
}

emu_exec_fn emu_select_cvt(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t0 = emu_ty(in, 0);
    switch (in->op) {
    case PTX_OP_MOV:
        if (in->nops != 2 || t0 == PTX_TYPE_NONE) return NULL;
        if (emu_type_bits[t0] == 128) {
            for (int i = 0; i < 2; i++) {
                const emu_opd *o = &u->opd[i];
                if (!(o->kind == EMU_OPD_REG || is_pair(o))) return NULL;
            }
            return x_mov128;
        }
        if (emu_type_bits[t0] > 64) return NULL;
        if (in->vec > 1)
            return u->opd[0].kind == EMU_OPD_VEC && u->opd[1].kind == EMU_OPD_VEC &&
                   u->opd[0].imm == in->vec && u->opd[1].imm == in->vec && in->vec <= 4
                       ? x_mov_vec : NULL;
        return x_mov;
    case PTX_OP_MAPA: return in->nops == 3 ? x_mapa : NULL;
    case PTX_OP_GETCTARANK: return in->nops == 2 ? x_getctarank : NULL;
    case PTX_OP_CVT: return select_cvt(code, u);
    case PTX_OP_CVTA: return select_space(code, u, x_cvta);
    case PTX_OP_ISSPACEP: return select_space(code, u, x_isspacep);
    default: return NULL;
    }
}
