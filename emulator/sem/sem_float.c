/* sem_float.c: the float family's rules that are not inline in sem.h: the host rounding mode,
 * the approximate functions, min/max with every modifier, rcp.approx.ftz.f64 and testp. */
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

/* The approximate functions are computed in double and rounded once: deterministic on every
 * host, and within the ISA's stated error bounds. */
float sem_float_sin_approx(float x)
{
    return isinf(x) ? NAN : (float)sin((double)x);
}
float sem_float_cos_approx(float x)
{
    return isinf(x) ? NAN : (float)cos((double)x);
}
float sem_float_lg2_approx(float x)
{
    return (float)log2((double)x);
}
float sem_float_ex2_approx(float x)
{
    return (float)exp2((double)x);
}
float sem_float_tanh_approx(float x)
{
    return (float)tanh((double)x);
}

uint64_t sem_float_minmax_f32(bool max, uint64_t a, uint64_t b, bool ftz, bool nan_mode,
                              bool xorsign, bool relu, bool sat)
{
    float x = sem_float_in_f32(a, ftz), y = sem_float_in_f32(b, ftz), r;
    if (xorsign) {
        bool neg = signbit(x) != signbit(y);
        x = fabsf(x);
        y = fabsf(y);
        r = max ? emu_max_f32(x, y, nan_mode) : emu_min_f32(x, y, nan_mode);
        if (!isnan(r)) r = neg ? -r : r;
    } else {
        r = max ? emu_max_f32(x, y, nan_mode) : emu_min_f32(x, y, nan_mode);
        if (relu && !isnan(r) && r < 0) r = 0;
    }
    return sem_float_out_f32(r, ftz, sat);
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

bool sem_float_testp(int mode, uint8_t t, uint64_t bits)
{
    if (t == PTX_TYPE_F64) {
        double x = emu_as_f64(bits);
        return emu_testp(mode, x, fpclassify(x) == FP_SUBNORMAL);
    }
    float f = emu_as_f32(bits);
    return emu_testp(mode, f, fpclassify(f) == FP_SUBNORMAL);
}
