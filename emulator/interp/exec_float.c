/* exec_float.c: f32 and f64 arithmetic and math functions (rounding modes, .ftz, .sat, .approx),
 * testp, and the fma of a contracted mul + add/sub.
 *
 * The rules are sem.h's float family; these handlers are their operand plumbing, one per
 * operation and modifier set, chosen when the module loads, so that a full-mask lane loop has
 * no branch on the opcode or the modifiers. A directed rounding mode is set once around the
 * whole instruction (emu_exec_rounded). */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <assert.h>

/* ---------------------------------------------------------------- rounding modes */

void emu_exec_rounded(emu_ctx *c, const emu_uop *u)
{
    const emu_rounded *r = u->form;
    int saved = emu_round_enter(r->rnd);
    r->body(c, u);
    emu_round_leave(saved);
}

emu_exec_fn emu_with_rounding(emu_code *code, emu_uop *u, emu_exec_fn body, int rnd)
{
    if (!body || sem_float_nearest(rnd)) return body;
    assert(!u->form);
    emu_rounded *r = emu_code_alloc(code, sizeof *r);
    if (!r) return NULL;
    r->body = body;
    r->rnd = rnd;
    u->form = r;
    return emu_exec_rounded;
}

/* ---------------------------------------------------------------- handler shapes */

/* d = FN(a, b, c, MODIFIERS...) per lane, on sources and destination of type T */
#define UNARY(name, T, FN, ...)                                                        \
    static void name(emu_ctx *c, const emu_uop *u)                                     \
    {                                                                                  \
        uint64_t ba[EMU_WARP_SIZE];                                                    \
        const uint64_t *a = emu_src(c, &u->opd[1], (T), ba);                           \
        EMU_LANEWISE(c, &u->opd[0], (T), FN(a[l], __VA_ARGS__));                       \
    }
#define BINARY(name, T, FN, ...)                                                       \
    static void name(emu_ctx *c, const emu_uop *u)                                     \
    {                                                                                  \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];                                 \
        const uint64_t *a = emu_src(c, &u->opd[1], (T), ba);                           \
        const uint64_t *b = emu_src(c, &u->opd[2], (T), bb);                           \
        EMU_LANEWISE(c, &u->opd[0], (T), FN(a[l], b[l], __VA_ARGS__));                 \
    }
#define TERNARY_FOR(ATTR, name, T, FN, ...)                                            \
    static ATTR void name(emu_ctx *c, const emu_uop *u)                                \
    {                                                                                  \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE];              \
        const uint64_t *a = emu_src(c, &u->opd[1], (T), ba);                           \
        const uint64_t *b = emu_src(c, &u->opd[2], (T), bb);                           \
        const uint64_t *cc = emu_src(c, &u->opd[3], (T), bc);                          \
        EMU_LANEWISE(c, &u->opd[0], (T), FN(a[l], b[l], cc[l], __VA_ARGS__));          \
    }
#define TERNARY(name, T, FN, ...) TERNARY_FOR(, name, T, FN, __VA_ARGS__)

/* The fma handlers once more, compiled for x86-64 hosts with FMA instructions and chosen when
 * the module loads on such a host: the sem rule's fmaf/fma become one instruction instead of a
 * library call. IEEE fma is exactly rounded and the f64 NaN rule is explicit, so the results
 * are the same bits. */
#if defined(__x86_64__) && defined(__GNUC__)
#define HOST_FMA_ATTR __attribute__((target("fma")))
static bool host_fma(void)
{
    return __builtin_cpu_supports("fma");
}
#else
#define HOST_FMA_ATTR
static bool host_fma(void)
{
    return false;
}
#endif
#define TERNARY_HW(name, T, FN, ...) TERNARY_FOR(HOST_FMA_ATTR, name, T, FN, __VA_ARGS__)

/* An f32 rule with its four .ftz/.sat handlers, indexed [ftz][sat] (op names them, RULE is the
 * sem function) */
#define F32_FTZ_SAT_RULE(SHAPE, op, RULE)                                              \
    SHAPE(x_##op##_f32, PTX_TYPE_F32, RULE, false, false)                              \
    SHAPE(x_##op##_f32_sat, PTX_TYPE_F32, RULE, false, true)                           \
    SHAPE(x_##op##_f32_ftz, PTX_TYPE_F32, RULE, true, false)                           \
    SHAPE(x_##op##_f32_ftz_sat, PTX_TYPE_F32, RULE, true, true)                        \
    static const emu_exec_fn op##_f32[2][2] = {                                        \
        { x_##op##_f32, x_##op##_f32_sat }, { x_##op##_f32_ftz, x_##op##_f32_ftz_sat } };
#define F32_FTZ_SAT(SHAPE, op) F32_FTZ_SAT_RULE(SHAPE, op, sem_float_##op##_f32)
/* An f64 rule with its two .sat handlers */
#define F64_SAT_RULE(SHAPE, op, RULE)                                                  \
    SHAPE(x_##op##_f64, PTX_TYPE_F64, RULE, false)                                     \
    SHAPE(x_##op##_f64_sat, PTX_TYPE_F64, RULE, true)                                  \
    static const emu_exec_fn op##_f64[2] = { x_##op##_f64, x_##op##_f64_sat };
#define F64_SAT(SHAPE, op) F64_SAT_RULE(SHAPE, op, sem_float_##op##_f64)

/* ---------------------------------------------------------------- f32 */

F32_FTZ_SAT(BINARY, add)
F32_FTZ_SAT(BINARY, sub)
F32_FTZ_SAT(BINARY, mul)
F32_FTZ_SAT(TERNARY, fma)
F32_FTZ_SAT_RULE(TERNARY_HW, fma_hw, sem_float_fma_f32)
F32_FTZ_SAT(BINARY, div)
F32_FTZ_SAT(BINARY, div_approx)
F32_FTZ_SAT(UNARY, rcp)
F32_FTZ_SAT(UNARY, sqrt)
F32_FTZ_SAT(UNARY, rcp_approx)
F32_FTZ_SAT(UNARY, sqrt_approx)
F32_FTZ_SAT(UNARY, rsqrt_approx)
F32_FTZ_SAT(UNARY, sin_approx)
F32_FTZ_SAT(UNARY, cos_approx)
F32_FTZ_SAT(UNARY, lg2_approx)
F32_FTZ_SAT(UNARY, ex2_approx)
F32_FTZ_SAT(UNARY, tanh_approx)

/* min/max{.ftz}{.NaN}.f32, indexed [ftz][NaN] */
BINARY(x_min_f32, PTX_TYPE_F32, sem_float_min_f32, false, false)
BINARY(x_min_f32_nan, PTX_TYPE_F32, sem_float_min_f32, false, true)
BINARY(x_min_f32_ftz, PTX_TYPE_F32, sem_float_min_f32, true, false)
BINARY(x_min_f32_ftz_nan, PTX_TYPE_F32, sem_float_min_f32, true, true)
BINARY(x_max_f32, PTX_TYPE_F32, sem_float_max_f32, false, false)
BINARY(x_max_f32_nan, PTX_TYPE_F32, sem_float_max_f32, false, true)
BINARY(x_max_f32_ftz, PTX_TYPE_F32, sem_float_max_f32, true, false)
BINARY(x_max_f32_ftz_nan, PTX_TYPE_F32, sem_float_max_f32, true, true)
static const emu_exec_fn min_f32[2][2] = { { x_min_f32, x_min_f32_nan },
                                           { x_min_f32_ftz, x_min_f32_ftz_nan } };
static const emu_exec_fn max_f32[2][2] = { { x_max_f32, x_max_f32_nan },
                                           { x_max_f32_ftz, x_max_f32_ftz_nan } };

/* min/max with .xorsign.abs, .relu or .sat (rare: the modifiers are read per instruction) */
static void x_minmax_f32_any(emu_ctx *c, const emu_uop *u)
{
    uint64_t fl = u->in->flags;
    bool max = u->op == PTX_OP_MAX, ftz = fl & PTX_F(FTZ), nan = fl & PTX_F(NANMODE);
    bool xorsign = fl & PTX_F(XORSIGN), relu = fl & PTX_F(RELU), sat = fl & PTX_F(SAT);
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_F32, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_F32, bb);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_F32,
                 sem_float_minmax_f32(max, a[l], b[l], ftz, nan, xorsign, relu, sat));
}

UNARY(x_abs_f32, PTX_TYPE_F32, sem_float_abs_f32, false)
UNARY(x_abs_f32_ftz, PTX_TYPE_F32, sem_float_abs_f32, true)
UNARY(x_neg_f32, PTX_TYPE_F32, sem_float_neg_f32, false)
UNARY(x_neg_f32_ftz, PTX_TYPE_F32, sem_float_neg_f32, true)

static void x_copysign_f32(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_F32, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_F32, bb);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_F32, sem_float_copysign_f32(a[l], b[l]));
}

/* ---------------------------------------------------------------- f64 */

F64_SAT(BINARY, add)
F64_SAT(BINARY, sub)
F64_SAT(BINARY, mul)
F64_SAT(TERNARY, fma)
F64_SAT_RULE(TERNARY_HW, fma_hw, sem_float_fma_f64)
F64_SAT(BINARY, div)
F64_SAT(UNARY, rcp)
F64_SAT(UNARY, sqrt)
F64_SAT(UNARY, rcp_approx_ftz)
F64_SAT(UNARY, rsqrt_approx)

/* min/max{.NaN}.f64, indexed [NaN][sat] */
BINARY(x_min_f64, PTX_TYPE_F64, sem_float_min_f64, false, false)
BINARY(x_min_f64_sat, PTX_TYPE_F64, sem_float_min_f64, false, true)
BINARY(x_min_f64_nan, PTX_TYPE_F64, sem_float_min_f64, true, false)
BINARY(x_min_f64_nan_sat, PTX_TYPE_F64, sem_float_min_f64, true, true)
BINARY(x_max_f64, PTX_TYPE_F64, sem_float_max_f64, false, false)
BINARY(x_max_f64_sat, PTX_TYPE_F64, sem_float_max_f64, false, true)
BINARY(x_max_f64_nan, PTX_TYPE_F64, sem_float_max_f64, true, false)
BINARY(x_max_f64_nan_sat, PTX_TYPE_F64, sem_float_max_f64, true, true)
static const emu_exec_fn min_f64[2][2] = { { x_min_f64, x_min_f64_sat },
                                           { x_min_f64_nan, x_min_f64_nan_sat } };
static const emu_exec_fn max_f64[2][2] = { { x_max_f64, x_max_f64_sat },
                                           { x_max_f64_nan, x_max_f64_nan_sat } };

static void x_abs_f64(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_F64, ba);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_F64, sem_float_abs_f64(a[l]));
}

static void x_neg_f64(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_F64, ba);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_F64, sem_float_neg_f64(a[l]));
}

static void x_copysign_f64(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_F64, ba);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_F64, bb);
    EMU_LANEWISE(c, &u->opd[0], PTX_TYPE_F64, sem_float_copysign_f64(a[l], b[l]));
}

/* ---------------------------------------------------------------- contracted fma, testp */

#define CONTRACTED_FOR(ATTR, name)                                                         \
    static ATTR void name(emu_ctx *c, const emu_uop *u, uint8_t t, bool ftz, bool sat)     \
    {                                                                                      \
        const emu_fma_contraction *fc = u->form;                                           \
        uint64_t sign = t == PTX_TYPE_F64 ? UINT64_C(1) << 63 : UINT64_C(1) << 31;         \
        uint64_t na = fc->neg_product ? sign : 0, nc = fc->neg_addend ? sign : 0;          \
        uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE];                  \
        const uint64_t *a = emu_src(c, &fc->a, t, ba);                                     \
        const uint64_t *b = emu_src(c, &fc->b, t, bb);                                     \
        const uint64_t *cc = emu_src(c, &fc->c, t, bc);                                    \
        if (t == PTX_TYPE_F64)                                                             \
            EMU_LANEWISE(c, &u->opd[0], t,                                                 \
                         sem_float_fma_f64(a[l] ^ na, b[l], cc[l] ^ nc, sat));             \
        else if (!ftz && !sat)                                                             \
            EMU_LANEWISE(c, &u->opd[0], t,                                                 \
                         sem_float_fma_f32(a[l] ^ na, b[l], cc[l] ^ nc, false, false));    \
        else if (ftz && !sat)                                                              \
            EMU_LANEWISE(c, &u->opd[0], t,                                                 \
                         sem_float_fma_f32(a[l] ^ na, b[l], cc[l] ^ nc, true, false));     \
        else                                                                               \
            EMU_LANEWISE(c, &u->opd[0], t,                                                 \
                         sem_float_fma_f32(a[l] ^ na, b[l], cc[l] ^ nc, ftz, sat));        \
    }
CONTRACTED_FOR(, contracted)
CONTRACTED_FOR(HOST_FMA_ATTR, contracted_hw)

/* An add/sub that ptxas fuses with the mul feeding it (decode/fma_contraction.c): the same fma
 * rule as fma.rn, on the mul's sources (a negated product or addend is a sign flip of the
 * operand), with the add's .ftz and .sat. */
void emu_exec_fma_contracted(emu_ctx *c, const emu_uop *u)
{
    uint64_t fl = u->in->flags;
    bool ftz = fl & PTX_F(FTZ), sat = fl & PTX_F(SAT);
    if (host_fma()) contracted_hw(c, u, u->type, ftz, sat);
    else contracted(c, u, u->type, ftz, sat);
}

/* testp.op.type p, a */
static void x_testp(emu_ctx *c, const emu_uop *u)
{
    uint8_t t = u->type;
    int mode = u->in->mode;
    uint64_t ba[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], t, ba);
    uint32_t p = 0;
    LANES(c) {
        int l = L_;
        p |= (uint32_t)sem_float_testp(mode, t, a[l]) << l;
    }
    emu_put_pred(c, &u->opd[0], p);
}

/* ---------------------------------------------------------------- selection */

static emu_exec_fn select_f32(const ptx_instr *in, bool *rounds)
{
    uint64_t fl = in->flags;
    bool ftz = fl & PTX_F(FTZ), sat = fl & PTX_F(SAT);
    bool approx = fl & PTX_F(APPROX), full = fl & PTX_F(FULL);
    switch (in->op) {
    case PTX_OP_ADD: *rounds = true; return add_f32[ftz][sat];
    case PTX_OP_SUB: *rounds = true; return sub_f32[ftz][sat];
    case PTX_OP_MUL: *rounds = true; return mul_f32[ftz][sat];
    case PTX_OP_FMA: case PTX_OP_MAD:
        *rounds = true;
        return host_fma() ? fma_hw_f32[ftz][sat] : fma_f32[ftz][sat];
    case PTX_OP_DIV:
        if (approx) return div_approx_f32[ftz][sat];
        *rounds = !full;
        return div_f32[ftz][sat];
    case PTX_OP_RCP:
        if (approx) return rcp_approx_f32[ftz][sat];
        *rounds = true;
        return rcp_f32[ftz][sat];
    case PTX_OP_SQRT:
        if (approx) return sqrt_approx_f32[ftz][sat];
        *rounds = true;
        return sqrt_f32[ftz][sat];
    case PTX_OP_RSQRT: return rsqrt_approx_f32[ftz][sat];
    case PTX_OP_SIN: return sin_approx_f32[ftz][sat];
    case PTX_OP_COS: return cos_approx_f32[ftz][sat];
    case PTX_OP_LG2: return lg2_approx_f32[ftz][sat];
    case PTX_OP_EX2: return ex2_approx_f32[ftz][sat];
    case PTX_OP_TANH: return tanh_approx_f32[ftz][sat];
    case PTX_OP_MIN: case PTX_OP_MAX: {
        if (fl & (PTX_F(XORSIGN) | PTX_F(RELU) | PTX_F(SAT))) return x_minmax_f32_any;
        bool nan = fl & PTX_F(NANMODE);
        return in->op == PTX_OP_MIN ? min_f32[ftz][nan] : max_f32[ftz][nan];
    }
    case PTX_OP_ABS: return ftz ? x_abs_f32_ftz : x_abs_f32;
    case PTX_OP_NEG: return ftz ? x_neg_f32_ftz : x_neg_f32;
    case PTX_OP_COPYSIGN: return x_copysign_f32;
    default: return NULL;
    }
}

static emu_exec_fn select_f64(const ptx_instr *in, bool *rounds)
{
    uint64_t fl = in->flags;
    bool sat = fl & PTX_F(SAT), approx = fl & PTX_F(APPROX);
    switch (in->op) {
    case PTX_OP_ADD: *rounds = true; return add_f64[sat];
    case PTX_OP_SUB: *rounds = true; return sub_f64[sat];
    case PTX_OP_MUL: *rounds = true; return mul_f64[sat];
    case PTX_OP_FMA: case PTX_OP_MAD:
        *rounds = true;
        return host_fma() ? fma_hw_f64[sat] : fma_f64[sat];
    case PTX_OP_DIV: *rounds = true; return div_f64[sat];
    case PTX_OP_RCP:
        if (approx) return rcp_approx_ftz_f64[sat];
        *rounds = true;
        return rcp_f64[sat];
    case PTX_OP_SQRT:
        *rounds = !approx;
        return sqrt_f64[sat];
    case PTX_OP_RSQRT: return rsqrt_approx_f64[sat];
    case PTX_OP_MIN: return min_f64[(fl & PTX_F(NANMODE)) != 0][sat];
    case PTX_OP_MAX: return max_f64[(fl & PTX_F(NANMODE)) != 0][sat];
    case PTX_OP_ABS: return x_abs_f64;
    case PTX_OP_NEG: return x_neg_f64;
    case PTX_OP_COPYSIGN: return x_copysign_f64;
    default: return NULL;
    }
}

/* Operands each form takes (d included); 0: not a float instruction. */
static int float_nops(int op, bool f64)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_DIV: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_COPYSIGN: return 3;
    case PTX_OP_FMA: case PTX_OP_MAD: return 4;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT:
    case PTX_OP_TESTP: return 2;
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return f64 ? 0 : 2;
    default: return 0;
    }
}

emu_exec_fn emu_select_float(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    if (t != PTX_TYPE_F32 && t != PTX_TYPE_F64) return NULL;
    int nops = float_nops(in->op, t == PTX_TYPE_F64);
    if (!nops || in->nops != nops) return NULL;
    if (in->op == PTX_OP_TESTP) return x_testp;
    bool rounds = false;
    emu_exec_fn h = t == PTX_TYPE_F64 ? select_f64(in, &rounds) : select_f32(in, &rounds);
    return rounds ? emu_with_rounding(code, u, h, in->rnd) : h;
}
