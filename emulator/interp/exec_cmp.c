/* exec_cmp.c: comparison and selection: setp, set, selp, slct (integer, float, half types).
 *
 * Operand plumbing around sem.h's comparison family. The plain setp (one destination, no
 * combining operation) on 32/64-bit integers, f32 and f64 has a handler per type and comparison,
 * chosen when the module loads, whose lane loop is a single compare; every other form goes
 * through the general handler, which reads its modifiers from the instruction. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

/* ---------------------------------------------------------------- plain setp */

/* setp.cmp.type p, a, b with COND (of a[l], b[l]) as the comparison */
#define SETP(name, T, COND)                                                                \
    static void name(emu_ctx *c, const emu_uop *u)                                         \
    {                                                                                      \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];                                     \
        const uint64_t *a = emu_src(c, &u->opd[1], (T), ba);                               \
        const uint64_t *b = emu_src(c, &u->opd[2], (T), bb);                               \
        uint32_t p;                                                                        \
        EMU_LANE_MASK(p, COND);                                                            \
        emu_put_pred(c, &u->opd[0], p);                                                    \
    }

/* One handler per ptx_cmp for a type class (RULE(cmp): the comparison), in a table by cmp. */
#define SETP_CLASS(cls, T, RULE)                                                           \
    SETP(x_setp_##cls##_eq, T, RULE(PTX_CMP_EQ))                                           \
    SETP(x_setp_##cls##_ne, T, RULE(PTX_CMP_NE))                                           \
    SETP(x_setp_##cls##_lt, T, RULE(PTX_CMP_LT))                                           \
    SETP(x_setp_##cls##_le, T, RULE(PTX_CMP_LE))                                           \
    SETP(x_setp_##cls##_gt, T, RULE(PTX_CMP_GT))                                           \
    SETP(x_setp_##cls##_ge, T, RULE(PTX_CMP_GE))                                           \
    SETP(x_setp_##cls##_lo, T, RULE(PTX_CMP_LO))                                           \
    SETP(x_setp_##cls##_ls, T, RULE(PTX_CMP_LS))                                           \
    SETP(x_setp_##cls##_hi, T, RULE(PTX_CMP_HI))                                           \
    SETP(x_setp_##cls##_hs, T, RULE(PTX_CMP_HS))                                           \
    SETP(x_setp_##cls##_equ, T, RULE(PTX_CMP_EQU))                                         \
    SETP(x_setp_##cls##_neu, T, RULE(PTX_CMP_NEU))                                         \
    SETP(x_setp_##cls##_ltu, T, RULE(PTX_CMP_LTU))                                         \
    SETP(x_setp_##cls##_leu, T, RULE(PTX_CMP_LEU))                                         \
    SETP(x_setp_##cls##_gtu, T, RULE(PTX_CMP_GTU))                                         \
    SETP(x_setp_##cls##_geu, T, RULE(PTX_CMP_GEU))                                         \
    SETP(x_setp_##cls##_num, T, RULE(PTX_CMP_NUM))                                         \
    SETP(x_setp_##cls##_nan, T, RULE(PTX_CMP_NAN))                                         \
    static const emu_exec_fn setp_##cls[PTX_CMP_NAN + 1] = {                               \
        [PTX_CMP_EQ] = x_setp_##cls##_eq, [PTX_CMP_NE] = x_setp_##cls##_ne,                \
        [PTX_CMP_LT] = x_setp_##cls##_lt, [PTX_CMP_LE] = x_setp_##cls##_le,                \
        [PTX_CMP_GT] = x_setp_##cls##_gt, [PTX_CMP_GE] = x_setp_##cls##_ge,                \
        [PTX_CMP_LO] = x_setp_##cls##_lo, [PTX_CMP_LS] = x_setp_##cls##_ls,                \
        [PTX_CMP_HI] = x_setp_##cls##_hi, [PTX_CMP_HS] = x_setp_##cls##_hs,                \
        [PTX_CMP_EQU] = x_setp_##cls##_equ, [PTX_CMP_NEU] = x_setp_##cls##_neu,            \
        [PTX_CMP_LTU] = x_setp_##cls##_ltu, [PTX_CMP_LEU] = x_setp_##cls##_leu,            \
        [PTX_CMP_GTU] = x_setp_##cls##_gtu, [PTX_CMP_GEU] = x_setp_##cls##_geu,            \
        [PTX_CMP_NUM] = x_setp_##cls##_num, [PTX_CMP_NAN] = x_setp_##cls##_nan,            \
    };

#define R_S32(cmp) emu_cmp_int(cmp, a[l], b[l], true, 32)
#define R_U32(cmp) emu_cmp_int(cmp, a[l], b[l], false, 32)
#define R_S64(cmp) emu_cmp_int(cmp, a[l], b[l], true, 64)
#define R_U64(cmp) emu_cmp_int(cmp, a[l], b[l], false, 64)
#define R_F32(cmp) sem_cmp_f32(cmp, a[l], b[l], false)
#define R_F32_FTZ(cmp) sem_cmp_f32(cmp, a[l], b[l], true)
#define R_F64(cmp) sem_cmp_f64(cmp, a[l], b[l])

SETP_CLASS(s32, PTX_TYPE_S32, R_S32)
SETP_CLASS(u32, PTX_TYPE_U32, R_U32)
SETP_CLASS(s64, PTX_TYPE_S64, R_S64)
SETP_CLASS(u64, PTX_TYPE_U64, R_U64)
SETP_CLASS(f32, PTX_TYPE_F32, R_F32)
SETP_CLASS(f32_ftz, PTX_TYPE_F32, R_F32_FTZ)
SETP_CLASS(f64, PTX_TYPE_F64, R_F64)

/* The table of the plain setp's type, or NULL. */
static const emu_exec_fn *plain_setp(uint8_t t, bool ftz)
{
    switch (t) {
    case PTX_TYPE_S32: return setp_s32;
    case PTX_TYPE_U32: case PTX_TYPE_B32: return setp_u32;
    case PTX_TYPE_S64: return setp_s64;
    case PTX_TYPE_U64: case PTX_TYPE_B64: return setp_u64;
    case PTX_TYPE_F32: return ftz ? setp_f32_ftz : setp_f32;
    case PTX_TYPE_F64: return setp_f64;
    default: return NULL;
    }
}

/* ---------------------------------------------------------------- general forms */

/* setp.cmp{.bool}.type p{|q}, a, b {, {!}c}: the parser gives p and q as two destinations. q is
 * !t combined with c; for the .f16x2/.bf16x2 forms p is the low halves' comparison and q the high
 * halves'. */
static void x_setp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = u->type;
    int cmp = in->cmp, boolop = in->boolop;
    bool ftz = in->flags & PTX_F(FTZ);
    unsigned ndst = u->nopd - (boolop ? 3u : 2u);
    bool x2 = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
    uint8_t et = t == PTX_TYPE_F16X2 ? PTX_TYPE_F16 : t == PTX_TYPE_BF16X2 ? PTX_TYPE_BF16 : t;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, emu_uop_opd(u, ndst), x2 ? PTX_TYPE_B32 : t, ba);
    const uint64_t *b = emu_src(c, emu_uop_opd(u, ndst + 1), x2 ? PTX_TYPE_B32 : t, bb);
    uint32_t cm = boolop ? emu_src_pred(c, emu_uop_opd(u, ndst + 2)) : 0, p = 0, q = 0;
    LANES(c) {
        int l = L_;
        bool cv = (cm >> l) & 1, rp, rq;
        if (x2) {
            rp = sem_cmp_value(cmp, et, ftz, a[l] & 0xffff, b[l] & 0xffff);
            rq = sem_cmp_value(cmp, et, ftz, (a[l] >> 16) & 0xffff, (b[l] >> 16) & 0xffff);
        } else {
            rp = sem_cmp_value(cmp, t, ftz, a[l], b[l]);
            rq = !rp;
        }
        p |= (uint32_t)sem_cmp_combine(boolop, rp, cv) << l;
        q |= (uint32_t)sem_cmp_combine(boolop, rq, cv) << l;
    }
    emu_put_pred(c, &u->opd[0], p);
    if (ndst > 1) emu_put_pred(c, &u->opd[1], q);
}

/* set.cmp{.bool}.dtype.stype d, a, b {, {!}c}: 1.0 (in a float dtype) or all ones for true;
 * a .f16x2/.bf16x2 stype gives a result per half. */
static void x_set(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dt = emu_ty(in, 0), st = emu_ty(in, 1);
    int cmp = in->cmp, boolop = in->boolop;
    bool ftz = in->flags & PTX_F(FTZ);
    bool x2 = st == PTX_TYPE_F16X2 || st == PTX_TYPE_BF16X2;
    uint8_t rt = x2 ? PTX_TYPE_B32 : st;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], rt, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], rt, bb);
    uint32_t cm = boolop ? emu_src_pred(c, emu_uop_opd(u, 3)) : 0;
    if (x2) {
        EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_B32,
                     sem_cmp_set_x2(cmp, boolop, dt, st, ftz, a[l], b[l], (cm >> l) & 1));
        return;
    }
#define SET_LANE(l)                                                                        \
    sem_cmp_set_result(dt, sem_cmp_combine(boolop, sem_cmp_value(cmp, st, ftz, a[l], b[l]),  \
                                           (cm >> (l)) & 1))
    EMU_LANEWISE(c, &u->opd[0], dt, SET_LANE(l));
#undef SET_LANE
}

static void x_selp(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], t, bb);
    uint32_t p = emu_src_pred(c, &u->opd[3]);
    EMU_LANEWISE(c, &u->opd[0], t, sem_cmp_selp((p >> l) & 1, a[l], b[l]));
}

/* slct.dtype.{s32,f32} d, a, b, c: a when c >= 0 */
#define SLCT(name, CT, TEST)                                                               \
    static void name(emu_ctx *c, const emu_uop *u)                                         \
    {                                                                                      \
        uint8_t dt = u->type;                                                              \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bs[EMU_WARP_SIZE];                  \
        const uint64_t *a = emu_src(c, &u->opd[1], dt, ba);                                \
        const uint64_t *b = emu_src(c, &u->opd[2], dt, bb);                                \
        const uint64_t *s = emu_src(c, &u->opd[3], (CT), bs);                              \
        EMU_LANEWISE(c, &u->opd[0], dt, sem_cmp_selp(TEST, a[l], b[l]));                  \
    }
SLCT(x_slct_s32, PTX_TYPE_S32, sem_cmp_slct_s32(s[l]))
SLCT(x_slct_f32, PTX_TYPE_F32, sem_cmp_slct_f32(s[l], false))
SLCT(x_slct_f32_ftz, PTX_TYPE_F32, sem_cmp_slct_f32(s[l], true))

emu_exec_fn emu_select_cmp(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    switch (in->op) {
    case PTX_OP_SETP: {
        if (!in->cmp || t == PTX_TYPE_NONE || emu_type_bits[t] > 64) return NULL;
        if (in->nops < (in->boolop ? 4 : 3) || in->nops > (in->boolop ? 5 : 4)) return NULL;
        const emu_exec_fn *plain = plain_setp(t, in->flags & PTX_F(FTZ));
        if (plain && !in->boolop && in->nops == 3 && in->cmp <= PTX_CMP_NAN) return plain[in->cmp];
        return x_setp;
    }
    case PTX_OP_SET:
        if (!in->cmp || in->ntypes < 2 || in->nops < 3) return NULL;
        return x_set;
    case PTX_OP_SELP: return in->nops == 4 && emu_type_bits[t] <= 64 ? x_selp : NULL;
    case PTX_OP_SLCT:
        if (in->nops != 4 || in->ntypes != 2) return NULL;
        if (emu_ty(in, 1) != PTX_TYPE_F32) return x_slct_s32;
        return in->flags & PTX_F(FTZ) ? x_slct_f32_ftz : x_slct_f32;
    default: return NULL;
    }
}
