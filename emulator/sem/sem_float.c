/* sem_float.c: f32/f64 arithmetic with PTX rounding modes, flush-to-zero, min/max, approximate
 * functions, comparisons and testp. */
#include "emulator/sem/sem.h"
#include "frontend/ptx.h"

#include <fenv.h>
#include <math.h>

int emu_round_enter(int rnd)
{
    int saved = fegetround();
    int want = FE_TONEAREST;
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: want = FE_TOWARDZERO; break;
    case PTX_RND_RM: case PTX_RND_RMI: want = FE_DOWNWARD; break;
    case PTX_RND_RP: case PTX_RND_RPI: want = FE_UPWARD; break;
    default: break;
    }
    if (want != saved) fesetround(want);
    return saved;
}

void emu_round_leave(int saved)
{
    if (fegetround() != saved) fesetround(saved);
}

static inline bool nearest(int rnd)
{
    return rnd == PTX_RND_NONE || rnd == PTX_RND_RN;
}

float emu_ftz32(float x)
{
    if (fpclassify(x) == FP_SUBNORMAL) return copysignf(0.0f, x);
    return x;
}

/* Directed rounding: the operands are volatile so the compiler cannot move the operation
 * across the rounding-mode change. */
#define ROUNDED(T, expr)                                        \
    do {                                                        \
        int saved_ = emu_round_enter(rnd);                      \
        volatile T va_ = a, vb_ = b;                            \
        T a_ = va_, b_ = vb_;                                   \
        volatile T r_ = (expr);                                 \
        emu_round_leave(saved_);                                \
        return r_;                                              \
    } while (0)

float emu_add_f32(float a, float b, int rnd)
{
    if (nearest(rnd)) return a + b;
    ROUNDED(float, a_ + b_);
}
float emu_mul_f32(float a, float b, int rnd)
{
    if (nearest(rnd)) return a * b;
    ROUNDED(float, a_ * b_);
}
float emu_div_f32(float a, float b, int rnd)
{
    if (nearest(rnd)) return a / b;
    ROUNDED(float, a_ / b_);
}
float emu_sqrt_f32(float a, int rnd)
{
    if (nearest(rnd)) return sqrtf(a);
    int saved = emu_round_enter(rnd);
    volatile float va = a;
    volatile float r = sqrtf(va);
    emu_round_leave(saved);
    return r;
}
float emu_rcp_f32(float a, int rnd)
{
    float b = 1.0f;
    if (nearest(rnd)) return 1.0f / a;
    ROUNDED(float, b_ / a_);
}
float emu_fma_f32(float a, float b, float c, int rnd)
{
    if (nearest(rnd)) return fmaf(a, b, c);
    int saved = emu_round_enter(rnd);
    volatile float r = fmaf(a, b, c);
    emu_round_leave(saved);
    return r;
}
double emu_add_f64(double a, double b, int rnd)
{
    if (nearest(rnd)) return a + b;
    ROUNDED(double, a_ + b_);
}
double emu_mul_f64(double a, double b, int rnd)
{
    if (nearest(rnd)) return a * b;
    ROUNDED(double, a_ * b_);
}
double emu_div_f64(double a, double b, int rnd)
{
    if (nearest(rnd)) return a / b;
    ROUNDED(double, a_ / b_);
}
double emu_sqrt_f64(double a, int rnd)
{
    if (nearest(rnd)) return sqrt(a);
    int saved = emu_round_enter(rnd);
    volatile double va = a;
    volatile double r = sqrt(va);
    emu_round_leave(saved);
    return r;
}
double emu_rcp_f64(double a, int rnd)
{
    double b = 1.0;
    if (nearest(rnd)) return 1.0 / a;
    ROUNDED(double, b_ / a_);
}
double emu_fma_f64(double a, double b, double c, int rnd)
{
    if (nearest(rnd)) return fma(a, b, c);
    int saved = emu_round_enter(rnd);
    volatile double r = fma(a, b, c);
    emu_round_leave(saved);
    return r;
}

static const uint32_t CANON_NAN32 = 0x7fffffffu;

float emu_min_f32(float a, float b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) {
            float n;
            memcpy(&n, &CANON_NAN32, 4);
            return n;
        }
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
float emu_max_f32(float a, float b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) {
            float n;
            memcpy(&n, &CANON_NAN32, 4);
            return n;
        }
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
double emu_min_f64(double a, double b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f64(UINT64_C(0x7fffffffffffffff));
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
double emu_max_f64(double a, double b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f64(UINT64_C(0x7fffffffffffffff));
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

float emu_sat_f32(float x)
{
    if (isnan(x)) return 0.0f;
    if (x <= 0.0f) return 0.0f;   /* -0 saturates to +0 */
    if (x > 1.0f) return 1.0f;
    return x;
}
double emu_sat_f64(double x)
{
    if (isnan(x)) return 0.0;
    if (x <= 0.0) return 0.0;
    if (x > 1.0) return 1.0;
    return x;
}

/* The approximate functions are computed in double and rounded once: deterministic on every
 * host, and within the ISA's stated error bounds. */
float emu_approx_f32(int op, float x)
{
    double d = x;
    switch (op) {
    case PTX_OP_RCP: return (float)(1.0 / d);
    case PTX_OP_SQRT: return (float)sqrt(d);
    case PTX_OP_RSQRT: return (float)(1.0 / sqrt(d));
    case PTX_OP_SIN: return isinf(x) ? NAN : (float)sin(d);
    case PTX_OP_COS: return isinf(x) ? NAN : (float)cos(d);
    case PTX_OP_LG2: return (float)log2(d);
    case PTX_OP_EX2: return (float)exp2(d);
    case PTX_OP_TANH: return (float)tanh(d);
    default: return NAN;
    }
}

/* rcp.approx.ftz.f64 (PTX ISA): a "gross approximation" that reads only the upper 32 bits of
 * the operand (sign, exponent, 20 mantissa bits), and whose result has its lower 32 mantissa bits
 * zero. The library's double-precision routines (pow, tgamma, division helpers) refine it with
 * fma steps whose exactness relies on those zero bits, so an exact reciprocal here makes their
 * results worse, not better. Denormal inputs and results are flushed to zero. */
double emu_rcp_approx_ftz_f64(double a)
{
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    if (isnan(a)) return a;
    if (fpclassify(a) == FP_SUBNORMAL || a == 0.0) return signbit(a) ? -INFINITY : INFINITY;
    uint64_t hi = bits & ~UINT64_C(0xffffffff);
    double x;
    memcpy(&x, &hi, sizeof x);
    double r = 1.0 / x;
    if (fpclassify(r) == FP_SUBNORMAL) r = copysign(0.0, r);
    memcpy(&bits, &r, sizeof bits);
    bits &= ~UINT64_C(0xffffffff);
    memcpy(&r, &bits, sizeof r);
    return r;
}

double emu_rsqrt_f64(double x)
{
    return 1.0 / sqrt(x);
}

bool emu_testp(int mode, double x, bool is_subnormal)
{
    switch (mode) {
    case PTX_SFX_FINITE: return isfinite(x);
    case PTX_SFX_INFINITE: return isinf(x);
    case PTX_SFX_NUMBER: return !isnan(x);
    case PTX_SFX_NOTANUMBER: return isnan(x);
    case PTX_SFX_NORMAL: return isfinite(x) && !is_subnormal;   /* zero counts as normal */
    case PTX_SFX_SUBNORMAL: return is_subnormal;
    default: return false;
    }
}

bool emu_cmp_float(int cmp, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: return !un && a < b;
    case PTX_CMP_LE: return !un && a <= b;
    case PTX_CMP_GT: return !un && a > b;
    case PTX_CMP_GE: return !un && a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return un || a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return false;
    }
}

bool emu_cmp_int(int cmp, uint64_t a, uint64_t b, bool is_signed, unsigned bits)
{
    uint64_t m = bits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1);
    a &= m;
    b &= m;
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    if (bits < 64) {
        uint64_t s = UINT64_C(1) << (bits - 1);
        sa = (int64_t)((a ^ s) - s);
        sb = (int64_t)((b ^ s) - s);
    }
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return is_signed ? sa < sb : a < b;
    case PTX_CMP_LE: return is_signed ? sa <= sb : a <= b;
    case PTX_CMP_GT: return is_signed ? sa > sb : a > b;
    case PTX_CMP_GE: return is_signed ? sa >= sb : a >= b;
    case PTX_CMP_LO: return a < b;
    case PTX_CMP_LS: return a <= b;
    case PTX_CMP_HI: return a > b;
    case PTX_CMP_HS: return a >= b;
    default: return false;
    }
}
