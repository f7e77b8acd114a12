/* exec_int.c: the integer family's handlers: arithmetic with carries and saturation, multiply
 * forms, division, min/max, logic on integers and predicates, shifts, bit manipulation, prmt,
 * lop3 and the dot products.
 *
 * Handlers are operand plumbing around the integer rules of sem.h: sources through emu_src,
 * results straight into the destination row when it has the type's width (else emu_put), one
 * sem call per active lane. The selector picks a handler per form at load time, so no lane loop
 * switches on an opcode or a modifier; the plain 32- and 64-bit forms, the interpreter's hottest
 * path, get handlers with the width and signedness fixed at compile time, whose full-warp loop
 * is a straight, branch-free run over the 32 lanes. */
#include "emulator/emu_internal.h"

/* Runs the statements after c (which use the lane index l) for every lane of c->mask: a
 * straight loop over the warp when every lane runs, vectorised (EMU_WARP_LOOP: each lane's
 * statements read and write only lane l's elements, of rows that are the same or apart). */
#define EACH_LANE(c, ...)                                                        \
    do {                                                                         \
        if ((c)->mask == 0xffffffffu) {                                          \
            EMU_WARP_LOOP(l) { __VA_ARGS__; }                                    \
        } else {                                                                 \
            LANES(c) { int l = L_; __VA_ARGS__; }                                \
        }                                                                        \
    } while (0)

/* The destination of operand 0 as type t: its register row when results may be stored there
 * directly, else buf, which dest_done writes back. */
static inline uint64_t *dest(emu_ctx *c, const emu_uop *u, uint8_t t, uint64_t *buf)
{
    uint64_t *row = emu_dst(c, &u->opd[0], t);
    return row ? row : buf;
}

static inline void dest_done(emu_ctx *c, const emu_uop *u, uint8_t t, const uint64_t *d,
                             const uint64_t *buf)
{
    if (d == buf) emu_put(c, &u->opd[0], t, buf);
}

/* Handlers computing d = RULE for each lane from sources a, b, cc (operands 1, 2, 3) read as
 * TA, TB, TC; d has type TD. RULE sees the rows a, b, cc, the lane l, and bits, sg and arg: the
 * values of BITS, SG and ARG (a modifier), computed once per instruction. */
#define HANDLER2(name, BITS, SG, ARG, TD, TA, TB, RULE)                          \
    static void name(emu_ctx *c, const emu_uop *u)                               \
    {                                                                            \
        const unsigned bits = (BITS);                                            \
        const bool sg = (SG);                                                    \
        const uint64_t arg = (ARG);                                              \
        (void)bits; (void)sg; (void)arg;                                         \
        uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE], bd_[EMU_WARP_SIZE];     \
        const uint64_t *a = emu_src(c, &u->opd[1], (TA), ba_);                   \
        const uint64_t *b = emu_src(c, &u->opd[2], (TB), bb_);                   \
        uint64_t *d = dest(c, u, (TD), bd_);                                     \
        EACH_LANE(c, d[l] = (RULE));                                             \
        dest_done(c, u, (TD), d, bd_);                                           \
    }

#define HANDLER3(name, BITS, SG, ARG, TD, TA, TB, TC, RULE)                      \
    static void name(emu_ctx *c, const emu_uop *u)                               \
    {                                                                            \
        const unsigned bits = (BITS);                                            \
        const bool sg = (SG);                                                    \
        const uint64_t arg = (ARG);                                              \
        (void)bits; (void)sg; (void)arg;                                         \
        uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE], bc_[EMU_WARP_SIZE],     \
            bd_[EMU_WARP_SIZE];                                                  \
        const uint64_t *a = emu_src(c, &u->opd[1], (TA), ba_);                   \
        const uint64_t *b = emu_src(c, &u->opd[2], (TB), bb_);                   \
        const uint64_t *cc = emu_src(c, &u->opd[3], (TC), bc_);                  \
        uint64_t *d = dest(c, u, (TD), bd_);                                     \
        EACH_LANE(c, d[l] = (RULE));                                             \
        dest_done(c, u, (TD), d, bd_);                                           \
    }

#define HANDLER1(name, BITS, SG, ARG, TD, TA, RULE)                              \
    static void name(emu_ctx *c, const emu_uop *u)                               \
    {                                                                            \
        const unsigned bits = (BITS);                                            \
        const bool sg = (SG);                                                    \
        const uint64_t arg = (ARG);                                              \
        (void)bits; (void)sg; (void)arg;                                         \
        uint64_t ba_[EMU_WARP_SIZE], bd_[EMU_WARP_SIZE];                         \
        const uint64_t *a = emu_src(c, &u->opd[1], (TA), ba_);                   \
        uint64_t *d = dest(c, u, (TD), bd_);                                     \
        EACH_LANE(c, d[l] = (RULE));                                             \
        dest_done(c, u, (TD), d, bd_);                                           \
    }

/* The instruction's type, its width and signedness, and its modifiers. */
#define T (u->type)
#define TBITS (emu_type_bits[u->type])
#define TSG (emu_is_signed(u->type))
#define HAS(f) ((u->in->flags & PTX_F(f)) != 0)
#define U32 PTX_TYPE_U32
#define B32 PTX_TYPE_B32
#define S32 PTX_TYPE_S32

/* ---------------------------------------------------------------- the plain 32/64-bit forms */

HANDLER2(x_add32, 32, false, 0, T, T, T, sem_int_add(a[l], b[l], 32))
HANDLER2(x_add64, 64, false, 0, T, T, T, sem_int_add(a[l], b[l], 64))
HANDLER2(x_sub32, 32, false, 0, T, T, T, sem_int_sub(a[l], b[l], 32))
HANDLER2(x_sub64, 64, false, 0, T, T, T, sem_int_sub(a[l], b[l], 64))
HANDLER2(x_mul_lo32, 32, false, 0, T, T, T, sem_int_mul_lo(a[l], b[l], 32))
HANDLER2(x_mul_lo64, 64, false, 0, T, T, T, sem_int_mul_lo(a[l], b[l], 64))
HANDLER2(x_mul_hi_u32, 32, false, 0, T, T, T, sem_int_mul_hi(a[l], b[l], 32, false))
HANDLER2(x_mul_hi_s32, 32, true, 0, T, T, T, sem_int_mul_hi(a[l], b[l], 32, true))
HANDLER2(x_mul_hi_u64, 64, false, 0, T, T, T, sem_int_mul_hi(a[l], b[l], 64, false))
HANDLER2(x_mul_hi_s64, 64, true, 0, T, T, T, sem_int_mul_hi(a[l], b[l], 64, true))
HANDLER2(x_mul_wide_u32, 32, false, 0, PTX_TYPE_U64, T, T,
         sem_int_mul_wide(a[l], b[l], 32, false))
HANDLER2(x_mul_wide_s32, 32, true, 0, PTX_TYPE_S64, T, T,
         sem_int_mul_wide(a[l], b[l], 32, true))
HANDLER2(x_and32, 32, false, 0, T, T, T, sem_int_and(a[l], b[l]))
HANDLER2(x_and64, 64, false, 0, T, T, T, sem_int_and(a[l], b[l]))
HANDLER2(x_or32, 32, false, 0, T, T, T, sem_int_or(a[l], b[l]))
HANDLER2(x_or64, 64, false, 0, T, T, T, sem_int_or(a[l], b[l]))
HANDLER2(x_xor32, 32, false, 0, T, T, T, sem_int_xor(a[l], b[l]))
HANDLER2(x_xor64, 64, false, 0, T, T, T, sem_int_xor(a[l], b[l]))
HANDLER2(x_shl32, 32, false, 0, T, T, U32, sem_int_shl(a[l], b[l], 32))
HANDLER2(x_shl64, 64, false, 0, T, T, U32, sem_int_shl(a[l], b[l], 64))
HANDLER2(x_shr_u32, 32, false, 0, T, T, U32, sem_int_shr(a[l], b[l], 32, false))
HANDLER2(x_shr_s32, 32, true, 0, T, T, U32, sem_int_shr(a[l], b[l], 32, true))
HANDLER2(x_shr_u64, 64, false, 0, T, T, U32, sem_int_shr(a[l], b[l], 64, false))
HANDLER2(x_shr_s64, 64, true, 0, T, T, U32, sem_int_shr(a[l], b[l], 64, true))
HANDLER2(x_min_u32, 32, false, 0, T, T, T, sem_int_min(a[l], b[l], 32, false, false))
HANDLER2(x_min_s32, 32, true, 0, T, T, T, sem_int_min(a[l], b[l], 32, true, false))
HANDLER2(x_max_u32, 32, false, 0, T, T, T, sem_int_max(a[l], b[l], 32, false, false))
HANDLER2(x_max_s32, 32, true, 0, T, T, T, sem_int_max(a[l], b[l], 32, true, false))
HANDLER2(x_min_u64, 64, false, 0, T, T, T, sem_int_min(a[l], b[l], 64, false, false))
HANDLER2(x_min_s64, 64, true, 0, T, T, T, sem_int_min(a[l], b[l], 64, true, false))
HANDLER2(x_max_u64, 64, false, 0, T, T, T, sem_int_max(a[l], b[l], 64, false, false))
HANDLER2(x_max_s64, 64, true, 0, T, T, T, sem_int_max(a[l], b[l], 64, true, false))
/* (mad.lo without .cc: the carry out goes nowhere) */
HANDLER3(x_mad_lo32, 32, false, 0, T, T, T, T,
         sem_int_mad_lo(a[l], b[l], cc[l], 0, 32, &(unsigned){0}))
HANDLER3(x_mad_lo64, 64, false, 0, T, T, T, T,
         sem_int_mad_lo(a[l], b[l], cc[l], 0, 64, &(unsigned){0}))

/* ---------------------------------------------------------------- every width and modifier */

/* The type of mul.wide / mad.wide results (and of mad.wide's c). */
static uint8_t wide_type(uint8_t t)
{
    bool sg = emu_is_signed(t);
    return emu_type_bits[t] == 16 ? (sg ? PTX_TYPE_S32 : PTX_TYPE_U32)
                                  : (sg ? PTX_TYPE_S64 : PTX_TYPE_U64);
}

HANDLER2(x_add, TBITS, TSG, 0, T, T, T, sem_int_add(a[l], b[l], bits))
HANDLER2(x_sub, TBITS, TSG, 0, T, T, T, sem_int_sub(a[l], b[l], bits))
HANDLER2(x_add_sat, TBITS, TSG, 0, T, T, T, sem_int_add_sat(a[l], b[l], bits))
HANDLER2(x_sub_sat, TBITS, TSG, 0, T, T, T, sem_int_sub_sat(a[l], b[l], bits))
HANDLER2(x_mul_lo, TBITS, TSG, 0, T, T, T, sem_int_mul_lo(a[l], b[l], bits))
HANDLER2(x_mul_hi, TBITS, TSG, 0, T, T, T, sem_int_mul_hi(a[l], b[l], bits, sg))
HANDLER2(x_mul_wide, TBITS, TSG, 0, wide_type(T), T, T,
         sem_int_mul_wide(a[l], b[l], bits, sg))
HANDLER2(x_div, TBITS, TSG, 0, T, T, T, sem_int_div(a[l], b[l], bits, sg))
HANDLER2(x_rem, TBITS, TSG, 0, T, T, T, sem_int_rem(a[l], b[l], bits, sg))
HANDLER2(x_min, TBITS, TSG, HAS(RELU), T, T, T, sem_int_min(a[l], b[l], bits, sg, arg))
HANDLER2(x_max, TBITS, TSG, HAS(RELU), T, T, T, sem_int_max(a[l], b[l], bits, sg, arg))
HANDLER2(x_and, TBITS, TSG, 0, T, T, T, sem_int_and(a[l], b[l]))
HANDLER2(x_or, TBITS, TSG, 0, T, T, T, sem_int_or(a[l], b[l]))
HANDLER2(x_xor, TBITS, TSG, 0, T, T, T, sem_int_xor(a[l], b[l]))
HANDLER2(x_shl, TBITS, TSG, 0, T, T, U32, sem_int_shl(a[l], b[l], bits))
HANDLER2(x_shr, TBITS, TSG, 0, T, T, U32, sem_int_shr(a[l], b[l], bits, sg))
HANDLER2(x_mul24, TBITS, TSG, u->in->mode == PTX_SFX_HI, T, T, T,
         sem_int_mul24(a[l], b[l], arg, sg))

HANDLER1(x_not, TBITS, TSG, 0, T, T, sem_int_not(a[l], bits))
HANDLER1(x_cnot, TBITS, TSG, 0, T, T, sem_int_cnot(a[l]))
HANDLER1(x_neg, TBITS, TSG, 0, T, T, sem_int_neg(a[l], bits))
HANDLER1(x_abs, TBITS, TSG, 0, T, T, sem_int_abs(a[l], bits))
HANDLER1(x_popc, TBITS, TSG, 0, U32, T, sem_int_popc(a[l]))
HANDLER1(x_clz, TBITS, TSG, 0, U32, T, sem_int_clz(a[l], bits))
HANDLER1(x_brev, TBITS, TSG, 0, T, T, sem_int_brev(a[l], bits))
HANDLER1(x_bfind, TBITS, TSG, HAS(SHIFTAMT), U32, T, sem_int_bfind(a[l], bits, sg, arg))

HANDLER3(x_mad_hi_sat, 32, true, 0, T, T, T, T, sem_int_mad_hi_sat(a[l], b[l], cc[l]))
/* mad24: arg holds .hi (bit 0) and .sat (bit 1) */
HANDLER3(x_mad24, TBITS, TSG, (u->in->mode == PTX_SFX_HI) | (uint64_t)HAS(SAT) << 1, T, T, T, T,
         sem_int_mad24(a[l], b[l], cc[l], arg & 1, sg, arg >> 1, bits))
HANDLER3(x_sad, TBITS, TSG, 0, T, T, T, T, sem_int_sad(a[l], b[l], cc[l], bits, sg))
HANDLER3(x_bfe, TBITS, TSG, 0, T, T, U32, U32, sem_int_bfe(a[l], b[l], cc[l], bits, sg))
HANDLER3(x_fns, 32, false, 0, B32, B32, U32, S32, sem_int_fns(a[l], b[l], cc[l]))
HANDLER3(x_prmt, 32, false, u->in->mode, B32, B32, B32, B32,
         sem_int_prmt(a[l], b[l], cc[l], (int)arg))
/* shf: arg holds .l (bit 0) and .wrap (bit 1) */
HANDLER3(x_shf, 32, false, (u->in->mode == PTX_SFX_L) | (uint64_t)HAS(WRAP) << 1, B32, B32, B32,
         U32, sem_int_shf(a[l], b[l], cc[l], arg & 1, arg >> 1))
/* dp4a/dp2a: sg is a's signedness; arg holds b's (bit 0) and dp2a's .hi (bit 1) */
HANDLER3(x_dp4a, 32, TSG, emu_is_signed(emu_ty(u->in, 1)), B32, B32, B32, B32,
         sem_int_dp4a(a[l], b[l], cc[l], sg, arg))
HANDLER3(x_dp2a, 32, TSG,
         emu_is_signed(emu_ty(u->in, 1)) | (uint64_t)(u->in->mode == PTX_SFX_HI) << 1, B32, B32,
         B32, B32, sem_int_dp2a(a[l], b[l], cc[l], sg, arg & 1, arg >> 1))
HANDLER2(x_bmsk, 32, false, HAS(WRAP), B32, U32, U32, sem_int_bmsk(a[l], b[l], arg))
HANDLER2(x_szext, 32, TSG, HAS(WRAP), T, B32, U32, sem_int_szext(a[l], b[l], arg, sg))

/* add.cc, addc{.cc}, sub.cc, subc{.cc}: CC.CF in (addc: the carry, subc: the borrow it
 * stands for) and out (.cc) */
static void x_add_sub_cc(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    unsigned bits = emu_type_bits[t];
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bd[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], t, bb);
    uint64_t *d = dest(c, u, t, bd);
    bool takes_cf = u->op == PTX_OP_ADDC || u->op == PTX_OP_SUBC;
    uint32_t cf = c->w->cc, cf_out = 0;
    if (u->op == PTX_OP_SUB || u->op == PTX_OP_SUBC)
        EACH_LANE(c, unsigned bo;
                  unsigned bin = takes_cf ? sem_int_borrow_from_cf(cf >> l & 1) : 0;
                  d[l] = sem_int_sub_cc(a[l], b[l], bin, bits, &bo);
                  cf_out |= (uint32_t)sem_int_cf_from_borrow(bo) << l);
    else
        EACH_LANE(c, unsigned co;
                  d[l] = sem_int_add_cc(a[l], b[l], takes_cf ? cf >> l & 1 : 0, bits, &co);
                  cf_out |= (uint32_t)co << l);
    if (HAS(CC)) c->w->cc = (cf & ~c->mask) | (cf_out & c->mask);
    dest_done(c, u, t, d, bd);
}

/* mad{.lo,.hi,.wide}{.cc}, madc: the sum's carry in from CC.CF (madc), out to it (.cc) */
static void x_mad(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    unsigned bits = emu_type_bits[t];
    bool sg = emu_is_signed(t);
    int mode = u->in->mode;
    uint8_t ct = mode == PTX_SFX_WIDE ? wide_type(t) : t;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE], bd[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], t, bb);
    const uint64_t *cv = emu_src(c, &u->opd[3], ct, bc);
    uint64_t *d = dest(c, u, ct, bd);
    uint32_t cf_in = u->op == PTX_OP_MADC ? c->w->cc : 0, cf_out = 0;
    if (mode == PTX_SFX_WIDE)
        EACH_LANE(c, unsigned co;
                  d[l] = sem_int_mad_wide(a[l], b[l], cv[l], cf_in >> l & 1, bits, sg, &co);
                  cf_out |= (uint32_t)co << l);
    else if (mode == PTX_SFX_HI)
        EACH_LANE(c, unsigned co;
                  d[l] = sem_int_mad_hi(a[l], b[l], cv[l], cf_in >> l & 1, bits, sg, &co);
                  cf_out |= (uint32_t)co << l);
    else
        EACH_LANE(c, unsigned co;
                  d[l] = sem_int_mad_lo(a[l], b[l], cv[l], cf_in >> l & 1, bits, &co);
                  cf_out |= (uint32_t)co << l);
    if (HAS(CC)) c->w->cc = (c->w->cc & ~c->mask) | (cf_out & c->mask);
    dest_done(c, u, ct, d, bd);
}

/* bfi d, a, b, pos, len */
static void x_bfi(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    unsigned bits = emu_type_bits[t];
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bp[EMU_WARP_SIZE], bn[EMU_WARP_SIZE],
        bd[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], t, bb);
    const uint64_t *pos = emu_src(c, &u->opd[3], U32, bp);
    const uint64_t *len = emu_src(c, emu_uop_opd(u, 4), U32, bn);
    uint64_t *d = dest(c, u, t, bd);
    EACH_LANE(c, d[l] = sem_int_bfi(a[l], b[l], pos[l], len[l], bits));
    dest_done(c, u, t, d, bd);
}

/* lop3.b32 d, a, b, c, immLut */
static void x_lop3(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE], bl[EMU_WARP_SIZE],
        bd[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], B32, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], B32, bb);
    const uint64_t *cv = emu_src(c, &u->opd[3], B32, bc);
    const uint64_t *lut = emu_src(c, emu_uop_opd(u, 4), U32, bl);
    uint64_t *d = dest(c, u, B32, bd);
    EACH_LANE(c, d[l] = sem_int_lop3(a[l], b[l], cv[l], lut[l]));
    dest_done(c, u, B32, d, bd);
}

/* and/or/xor/not on predicates: whole lane masks at once */
static void x_pred_logic(emu_ctx *c, const emu_uop *u)
{
    uint64_t a = emu_src_pred(c, &u->opd[1]), r;
    switch (u->op) {
    case PTX_OP_AND: r = sem_int_and(a, emu_src_pred(c, &u->opd[2])); break;
    case PTX_OP_OR: r = sem_int_or(a, emu_src_pred(c, &u->opd[2])); break;
    case PTX_OP_XOR: r = sem_int_xor(a, emu_src_pred(c, &u->opd[2])); break;
    default: r = sem_int_not(a, EMU_WARP_SIZE); break;
    }
    emu_put_pred(c, &u->opd[0], (uint32_t)r);
}

/* ---------------------------------------------------------------- selection */

static inline bool is_int(uint8_t t)
{
    uint8_t k = emu_type_kind[t];
    return k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B;
}

/* The plain (no modifier) 32- and 64-bit forms' handlers, or NULL. */
static emu_exec_fn select_plain(const ptx_instr *in, unsigned bits, bool sg)
{
    bool w = bits == 64;
    if (in->flags || (bits != 32 && bits != 64)) return NULL;
    switch (in->op) {
    case PTX_OP_ADD: return in->nops == 3 ? (w ? x_add64 : x_add32) : NULL;
    case PTX_OP_SUB: return in->nops == 3 ? (w ? x_sub64 : x_sub32) : NULL;
    case PTX_OP_AND: return in->nops == 3 ? (w ? x_and64 : x_and32) : NULL;
    case PTX_OP_OR: return in->nops == 3 ? (w ? x_or64 : x_or32) : NULL;
    case PTX_OP_XOR: return in->nops == 3 ? (w ? x_xor64 : x_xor32) : NULL;
    case PTX_OP_SHL: return in->nops == 3 ? (w ? x_shl64 : x_shl32) : NULL;
    case PTX_OP_SHR:
        if (in->nops != 3) return NULL;
        return w ? (sg ? x_shr_s64 : x_shr_u64) : (sg ? x_shr_s32 : x_shr_u32);
    case PTX_OP_MIN:
        if (in->nops != 3) return NULL;
        return w ? (sg ? x_min_s64 : x_min_u64) : (sg ? x_min_s32 : x_min_u32);
    case PTX_OP_MAX:
        if (in->nops != 3) return NULL;
        return w ? (sg ? x_max_s64 : x_max_u64) : (sg ? x_max_s32 : x_max_u32);
    case PTX_OP_MUL:
        if (in->nops != 3) return NULL;
        if (in->mode == PTX_SFX_WIDE) return w ? NULL : (sg ? x_mul_wide_s32 : x_mul_wide_u32);
        if (in->mode == PTX_SFX_HI)
            return w ? (sg ? x_mul_hi_s64 : x_mul_hi_u64) : (sg ? x_mul_hi_s32 : x_mul_hi_u32);
        return w ? x_mul_lo64 : x_mul_lo32;
    case PTX_OP_MAD:
        if (in->nops != 4 || (in->mode != PTX_SFX_LO && in->mode != 0)) return NULL;
        return w ? x_mad_lo64 : x_mad_lo32;
    default: return NULL;
    }
}

emu_exec_fn emu_select_int(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    bool logic = in->op == PTX_OP_AND || in->op == PTX_OP_OR || in->op == PTX_OP_XOR ||
                 in->op == PTX_OP_NOT;
    if (t == PTX_TYPE_PRED && logic)
        return in->nops == (in->op == PTX_OP_NOT ? 2 : 3) ? x_pred_logic : NULL;
    if (!is_int(t)) return NULL;
    unsigned bits = emu_type_bits[t];
    if (bits > 64) return NULL;
    bool sg = emu_is_signed(t);
    emu_exec_fn plain = select_plain(in, bits, sg);
    if (plain) return plain;
    bool sat = in->flags & PTX_F(SAT), cc = in->flags & PTX_F(CC);
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_ADDC:
        if (in->nops != 3 || bits < 16) return NULL;
        if (sat && sg) return x_add_sat;
        return cc || in->op == PTX_OP_ADDC ? x_add_sub_cc : x_add;
    case PTX_OP_SUB: case PTX_OP_SUBC:
        if (in->nops != 3 || bits < 16) return NULL;
        if (sat && sg) return x_sub_sat;
        return cc || in->op == PTX_OP_SUBC ? x_add_sub_cc : x_sub;
    case PTX_OP_MUL:
        if (in->nops != 3 || bits < 16) return NULL;
        if (in->mode == PTX_SFX_WIDE) return x_mul_wide;
        return in->mode == PTX_SFX_HI ? x_mul_hi : x_mul_lo;
    case PTX_OP_DIV: return in->nops == 3 && bits >= 16 ? x_div : NULL;
    case PTX_OP_REM: return in->nops == 3 && bits >= 16 ? x_rem : NULL;
    case PTX_OP_MIN: return in->nops == 3 && bits >= 16 ? x_min : NULL;
    case PTX_OP_MAX: return in->nops == 3 && bits >= 16 ? x_max : NULL;
    case PTX_OP_AND: return in->nops == 3 ? x_and : NULL;
    case PTX_OP_OR: return in->nops == 3 ? x_or : NULL;
    case PTX_OP_XOR: return in->nops == 3 ? x_xor : NULL;
    case PTX_OP_SHL: return in->nops == 3 ? x_shl : NULL;
    case PTX_OP_SHR: return in->nops == 3 ? x_shr : NULL;
    case PTX_OP_NOT: return in->nops == 2 ? x_not : NULL;
    case PTX_OP_CNOT: return in->nops == 2 ? x_cnot : NULL;
    case PTX_OP_NEG: return in->nops == 2 ? x_neg : NULL;
    case PTX_OP_ABS: return in->nops == 2 ? x_abs : NULL;
    case PTX_OP_POPC: return in->nops == 2 ? x_popc : NULL;
    case PTX_OP_CLZ: return in->nops == 2 ? x_clz : NULL;
    case PTX_OP_BREV: return in->nops == 2 ? x_brev : NULL;
    case PTX_OP_BFIND: return in->nops == 2 ? x_bfind : NULL;
    case PTX_OP_MAD: case PTX_OP_MADC:
        if (in->nops != 4) return NULL;
        /* .sat (mad.hi.sat.s32) saturates the sum and leaves the carry alone */
        if (in->mode == PTX_SFX_HI && sat && sg && bits == 32) return x_mad_hi_sat;
        return x_mad;
    case PTX_OP_MAD24: return in->nops == 4 ? x_mad24 : NULL;
    case PTX_OP_SAD: return in->nops == 4 ? x_sad : NULL;
    case PTX_OP_MUL24: return in->nops == 3 ? x_mul24 : NULL;
    case PTX_OP_BFE: return in->nops == 4 ? x_bfe : NULL;
    case PTX_OP_BFI: return in->nops == 5 ? x_bfi : NULL;
    case PTX_OP_FNS: return in->nops == 4 ? x_fns : NULL;
    case PTX_OP_PRMT: return in->nops == 4 ? x_prmt : NULL;
    case PTX_OP_SHF: return in->nops == 4 ? x_shf : NULL;
    case PTX_OP_LOP3: return in->nops == 5 ? x_lop3 : NULL;
    case PTX_OP_DP4A: return in->nops == 4 ? x_dp4a : NULL;
    case PTX_OP_DP2A: return in->nops == 4 ? x_dp2a : NULL;
    case PTX_OP_BMSK: return in->nops == 3 ? x_bmsk : NULL;
    case PTX_OP_SZEXT: return in->nops == 3 ? x_szext : NULL;
    default: return NULL;
    }
}
