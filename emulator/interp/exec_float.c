/* exec_float.c: f32 and f64 arithmetic and math functions (rounding, .ftz, .sat, .approx). */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>

static inline float f32_in(uint64_t b, bool ftz)
{
    float f = emu_as_f32(b);
    return ftz ? emu_ftz32(f) : f;
}

static inline uint64_t f32_out(float f, bool ftz, bool sat)
{
    if (ftz) f = emu_ftz32(f);
    if (sat) f = emu_sat_f32(f);
    if (isnan(f)) return 0x7fffffffu;
    return emu_f32_bits(f);
}

static inline uint64_t f64_out(double d, bool sat)
{
    if (sat) d = emu_sat_f64(d);
    return emu_f64_bits(d);
}

static void x_farith(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    bool f64 = t == PTX_TYPE_F64;
    bool ftz = in->flags & PTX_F(FTZ), sat = in->flags & PTX_F(SAT);
    int rnd = in->rnd;
    int nsrc = in->nops - 1;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    if (nsrc > 1) emu_read_all(c, &in->ops[2], t, b);
    if (nsrc > 2) emu_read_all(c, &in->ops[3], t, cc);
    int op = in->op;
    bool approx = in->flags & PTX_F(APPROX);
    bool full = in->flags & PTX_F(FULL);
    if (f64) {
        LANES(c) {
            int l = L_;
            double x = emu_as_f64(a[l]), y = nsrc > 1 ? emu_as_f64(b[l]) : 0,
                   z = nsrc > 2 ? emu_as_f64(cc[l]) : 0, r;
            switch (op) {
            case PTX_OP_ADD: r = emu_add_f64(x, y, rnd); break;
            case PTX_OP_SUB: r = emu_add_f64(x, -y, rnd); break;
            case PTX_OP_MUL: r = emu_mul_f64(x, y, rnd); break;
            case PTX_OP_FMA: case PTX_OP_MAD: r = emu_fma_f64(x, y, z, rnd); break;
            case PTX_OP_DIV: r = emu_div_f64(x, y, rnd); break;
            case PTX_OP_RCP: r = approx ? emu_rcp_approx_ftz_f64(x) : emu_rcp_f64(x, rnd); break;
            case PTX_OP_SQRT: r = emu_sqrt_f64(x, approx ? PTX_RND_RN : rnd); break;
            case PTX_OP_RSQRT: r = emu_rsqrt_f64(x); break;
            case PTX_OP_MIN: r = emu_min_f64(x, y, in->flags & PTX_F(NANMODE)); break;
            case PTX_OP_MAX: r = emu_max_f64(x, y, in->flags & PTX_F(NANMODE)); break;
            case PTX_OP_ABS: d[l] = a[l] & ~(UINT64_C(1) << 63); continue;
            case PTX_OP_NEG: d[l] = a[l] ^ (UINT64_C(1) << 63); continue;
            case PTX_OP_COPYSIGN: d[l] = (b[l] & ~(UINT64_C(1) << 63)) | (a[l] & (UINT64_C(1) << 63)); continue;
            default: r = NAN; break;
            }
            d[l] = f64_out(r, sat);
        }
        emu_write_all(c, &in->ops[0], t, d);
        return;
    }
    LANES(c) {
        int l = L_;
        float x = f32_in(a[l], ftz), y = nsrc > 1 ? f32_in(b[l], ftz) : 0,
              z = nsrc > 2 ? f32_in(cc[l], ftz) : 0, r;
        switch (op) {
        case PTX_OP_ADD: r = emu_add_f32(x, y, rnd); break;
        case PTX_OP_SUB: r = emu_add_f32(x, -y, rnd); break;
        case PTX_OP_MUL: r = emu_mul_f32(x, y, rnd); break;
        case PTX_OP_FMA: case PTX_OP_MAD: r = emu_fma_f32(x, y, z, rnd); break;
        case PTX_OP_DIV:
            if (approx || full) {
                /* div.approx/div.full: the ISA allows 2 ulp; a correctly rounded quotient
                 * is within it and deterministic. Huge divisors flush as the ISA says. */
                if (approx && fabsf(y) > 0x1p126f && fabsf(y) < INFINITY && isfinite(x)) r = 0 * x;
                else r = x / y;
            } else r = emu_div_f32(x, y, rnd);
            break;
        case PTX_OP_RCP: r = approx ? emu_approx_f32(PTX_OP_RCP, x) : emu_rcp_f32(x, rnd); break;
        case PTX_OP_SQRT: r = approx ? emu_approx_f32(PTX_OP_SQRT, x) : emu_sqrt_f32(x, rnd); break;
        case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
        case PTX_OP_TANH: r = emu_approx_f32(op, x); break;
        case PTX_OP_MIN:
        case PTX_OP_MAX: {
            bool nm = in->flags & PTX_F(NANMODE);
            if (in->flags & PTX_F(XORSIGN)) {
                bool neg = signbit(x) != signbit(y);
                r = op == PTX_OP_MIN ? emu_min_f32(fabsf(x), fabsf(y), nm)
                                     : emu_max_f32(fabsf(x), fabsf(y), nm);
                if (!isnan(r)) r = neg ? -r : r;
            } else {
                r = op == PTX_OP_MIN ? emu_min_f32(x, y, nm) : emu_max_f32(x, y, nm);
                if ((in->flags & PTX_F(RELU)) && !isnan(r) && r < 0) r = 0;
            }
            break;
        }
        case PTX_OP_ABS:
            d[l] = emu_f32_bits(ftz ? emu_ftz32(emu_as_f32(a[l])) : emu_as_f32(a[l])) & 0x7fffffffu;
            continue;
        case PTX_OP_NEG:
            d[l] = emu_f32_bits(ftz ? emu_ftz32(emu_as_f32(a[l])) : emu_as_f32(a[l])) ^ 0x80000000u;
            continue;
        case PTX_OP_COPYSIGN: d[l] = (b[l] & 0x7fffffffu) | (a[l] & 0x80000000u); continue;
        default: r = NAN; break;
        }
        d[l] = f32_out(r, ftz, sat);
    }
    emu_write_all(c, &in->ops[0], t, d);
}

/* An add/sub that ptxas fuses with the mul feeding it (decode/fma_contraction.c): one fma with
 * the mul's sources, rounded once, with the add's .ftz and .sat. */
void emu_exec_fma_contracted(emu_ctx *c, const emu_uop *u)
{
    const emu_fma_contraction *fc = u->form;
    const ptx_instr *in = u->in;
    uint8_t t = u->type;
    bool ftz = in->flags & PTX_F(FTZ), sat = in->flags & PTX_F(SAT);
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &fc->a, t, ba);
    const uint64_t *b = emu_src(c, &fc->b, t, bb);
    const uint64_t *cc = emu_src(c, &fc->c, t, bc);
    if (t == PTX_TYPE_F64) {
        LANES(c) {
            int l = L_;
            double x = emu_as_f64(a[l]), y = emu_as_f64(b[l]), z = emu_as_f64(cc[l]);
            if (fc->neg_product) x = -x;
            if (fc->neg_addend) z = -z;
            d[l] = f64_out(emu_fma_f64(x, y, z, PTX_RND_RN), sat);
        }
    } else {
        LANES(c) {
            int l = L_;
            float x = f32_in(a[l], ftz), y = f32_in(b[l], ftz), z = f32_in(cc[l], ftz);
            if (fc->neg_product) x = -x;
            if (fc->neg_addend) z = -z;
            d[l] = f32_out(emu_fma_f32(x, y, z, PTX_RND_RN), ftz, sat);
        }
    }
    emu_put(c, &u->opd[0], t, d);
}

/* testp.op.type p, a */
static void x_testp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    LANES(c) {
        int l = L_;
        double x;
        bool sub;
        if (t == PTX_TYPE_F64) {
            x = emu_as_f64(a[l]);
            sub = fpclassify(x) == FP_SUBNORMAL;
        } else {
            float f = emu_as_f32(a[l]);
            x = f;
            sub = fpclassify(f) == FP_SUBNORMAL;
        }
        d[l] = emu_testp(in->mode, x, sub);
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, d);
}

emu_exec_fn emu_select_float(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    if (t != PTX_TYPE_F32 && t != PTX_TYPE_F64) return NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_DIV: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_COPYSIGN:
        return in->nops == 3 ? x_farith : NULL;
    case PTX_OP_FMA: case PTX_OP_MAD: return in->nops == 4 ? x_farith : NULL;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT:
        return in->nops == 2 ? x_farith : NULL;
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return (in->nops == 2 && t == PTX_TYPE_F32) ? x_farith : NULL;
    case PTX_OP_TESTP: return in->nops == 2 ? x_testp : NULL;
    default: return NULL;
    }
}
