/* sem_half.c: narrow floating-point formats (f16, bf16, tf32, fp8) and half-precision
 * arithmetic. Every narrow result is computed in double and rounded once to the format. */
#include "emulator/sem/sem.h"
#include "frontend/ptx.h"

#include <math.h>

/* Rounds a non-negative integer-valued scaled significand per mode; neg tells the sign of the
 * number, for the directed modes. */
static double round_sig(double s, int rnd, bool neg)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: return trunc(s);
    case PTX_RND_RM: case PTX_RND_RMI: return neg ? ceil(s) : floor(s);
    case PTX_RND_RP: case PTX_RND_RPI: return neg ? floor(s) : ceil(s);
    case PTX_RND_RNA: return floor(s + 0.5);
    default: {
        double f = floor(s), d = s - f;
        if (d > 0.5) return f + 1;
        if (d < 0.5) return f;
        return fmod(f, 2.0) == 0 ? f : f + 1;
    }
    }
}

uint32_t emu_round_to_format(double x, int ebits, int mbits, int rnd, bool satfinite)
{
    uint32_t sign = signbit(x) ? 1u : 0u;
    uint32_t sbit = sign << (ebits + mbits);
    uint32_t expmask = (1u << ebits) - 1;
    uint32_t maxfinite = ((expmask - 1) << mbits) | ((1u << mbits) - 1);
    uint32_t inf = expmask << mbits;
    if (isnan(x)) return (expmask << mbits) | ((1u << mbits) - 1); /* canonical NaN, sign 0 */
    double a = fabs(x);
    if (isinf(x)) return sbit | (satfinite ? maxfinite : inf);
    if (a == 0) return sbit;
    int bias = (1 << (ebits - 1)) - 1;
    int emin = 1 - bias, emax = bias;
    int e;
    frexp(a, &e);
    int E = e - 1;
    if (E < emin) E = emin;
    double s = ldexp(a, mbits - E);
    double r = round_sig(s, rnd, sign != 0);
    double top = ldexp(1.0, mbits + 1);
    if (r >= top) {
        r = ldexp(1.0, mbits);
        E++;
    }
    if (E > emax) {
        bool to_inf;
        switch (rnd) {
        case PTX_RND_RZ: to_inf = false; break;
        case PTX_RND_RM: to_inf = sign != 0; break;
        case PTX_RND_RP: to_inf = sign == 0; break;
        default: to_inf = true; break;
        }
        if (satfinite) to_inf = false;
        return sbit | (to_inf ? inf : maxfinite);
    }
    uint32_t ri = (uint32_t)r;
    if (ri < (1u << mbits)) return sbit | ri;           /* subnormal (or rounded to zero) */
    return sbit | ((uint32_t)(E + bias) << mbits) | (ri - (1u << mbits));
}

double emu_format_to_f64(uint32_t bits, int ebits, int mbits)
{
    uint32_t expmask = (1u << ebits) - 1;
    uint32_t sign = (bits >> (ebits + mbits)) & 1;
    uint32_t ex = (bits >> mbits) & expmask;
    uint32_t man = bits & ((1u << mbits) - 1);
    int bias = (1 << (ebits - 1)) - 1;
    double v;
    if (ex == expmask) v = man ? NAN : INFINITY;
    else if (ex == 0) v = ldexp((double)man, 1 - bias - mbits);
    else v = ldexp((double)(man | (1u << mbits)), (int)ex - bias - mbits);
    return sign ? -v : v;
}

uint16_t emu_f32_to_f16(float x, int rnd, bool sat)
{
    double d = x;
    if (sat) {
        if (isnan(x)) return 0;
        d = d < 0 ? 0 : d > 1 ? 1 : d;
    }
    return (uint16_t)emu_round_to_format(d, 5, 10, rnd, false);
}

uint16_t emu_f32_to_bf16(float x, int rnd, bool sat)
{
    double d = x;
    if (sat) {
        if (isnan(x)) return 0;
        d = d < 0 ? 0 : d > 1 ? 1 : d;
    }
    return (uint16_t)emu_round_to_format(d, 8, 7, rnd, false);
}

/* e4m3: bias 7, no infinities, S.1111.111 is NaN, largest finite 448. */
uint8_t emu_f32_to_e4m3(float x, bool satfinite)
{
    if (isnan(x)) return 0x7f;
    uint8_t s = signbit(x) ? 0x80 : 0;
    double a = fabs((double)x);
    if (a == 0) return s;
    uint8_t ovf = satfinite ? (uint8_t)(s | 0x7e) : (uint8_t)(s | 0x7f);
    if (isinf(a)) return ovf;
    int e;
    frexp(a, &e);
    int E = e - 1 < -6 ? -6 : e - 1;
    double r = round_sig(ldexp(a, 3 - E), PTX_RND_RN, false);
    if (r >= 16) {
        r = 8;
        E++;
    }
    if (E > 8 || (E == 8 && r > 14)) return ovf;
    uint32_t ri = (uint32_t)r;
    if (ri < 8) return (uint8_t)(s | ri);
    return (uint8_t)(s | ((uint32_t)(E + 7) << 3) | (ri - 8));
}

uint8_t emu_f32_to_e5m2(float x, bool satfinite)
{
    return (uint8_t)emu_round_to_format(x, 5, 2, PTX_RND_RN, satfinite);
}

float emu_e4m3_to_f32(uint8_t b)
{
    if ((b & 0x7f) == 0x7f) return NAN;
    uint32_t ex = (b >> 3) & 0xf, man = b & 7;
    double v = ex == 0 ? ldexp(man, -9) : ldexp(man | 8, (int)ex - 10);
    return (float)((b & 0x80) ? -v : v);
}

float emu_e5m2_to_f32(uint8_t b)
{
    return (float)emu_format_to_f64(b, 5, 2);
}

static double h2d(uint16_t h, bool bf)
{
    return bf ? emu_bf16_to_f64(h) : emu_f16_to_f64(h);
}

static bool h_isnan(uint16_t h, bool bf)
{
    return bf ? ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) : ((h & 0x7c00) == 0x7c00 && (h & 0x3ff));
}

/* The one rounding of an arithmetic result r (exact or rounded in double) to the format. */
static uint16_t half_result(double r, bool bf, int rnd, bool ftz, bool sat, bool relu)
{
    if (sat) r = isnan(r) ? 0 : r < 0 ? 0 : r > 1 ? 1 : r;   /* .sat takes NaN to +0 */
    if (isnan(r)) return 0x7fff;
    if (relu && r < 0) r = 0;
    uint16_t out = bf ? emu_f64_to_bf16(r, rnd) : emu_f64_to_f16(r, rnd);
    return ftz ? sem_half_ftz(out, bf) : out;
}

static double h_in(uint16_t h, bool bf, bool ftz)
{
    return h2d(ftz ? sem_half_ftz(h, bf) : h, bf);
}

uint16_t sem_half_add(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu)
{
    return half_result(h_in(a, bf, ftz) + h_in(b, bf, ftz), bf, rnd, ftz, sat, relu);
}

uint16_t sem_half_sub(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu)
{
    return sem_half_add(bf, a, sem_half_neg(b), rnd, ftz, sat, relu);
}

uint16_t sem_half_mul(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu)
{
    return half_result(h_in(a, bf, ftz) * h_in(b, bf, ftz), bf, rnd, ftz, sat, relu);
}

uint16_t sem_half_fma(bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz, bool sat,
                      bool relu)
{
    return half_result(fma(h_in(a, bf, ftz), h_in(b, bf, ftz), h_in(c, bf, ftz)), bf, rnd, ftz,
                       sat, relu);
}

static uint16_t half_minmax(bool max, bool bf, uint16_t a, uint16_t b, bool ftz, bool nan_mode,
                            bool relu)
{
    if (ftz) {
        a = sem_half_ftz(a, bf);
        b = sem_half_ftz(b, bf);
    }
    uint16_t out;
    if (h_isnan(a, bf) || h_isnan(b, bf)) {
        if (nan_mode || (h_isnan(a, bf) && h_isnan(b, bf))) return 0x7fff;
        out = h_isnan(a, bf) ? b : a;
    } else {
        double x = h2d(a, bf), y = h2d(b, bf);
        if (x == y) out = !max == ((a & 0x8000) != 0) ? a : b;
        else out = !max == (x < y) ? a : b;
    }
    if (relu && !h_isnan(out, bf) && (out & 0x8000)) out = 0;
    return out;
}

uint16_t sem_half_min(bool bf, uint16_t a, uint16_t b, bool ftz, bool nan_mode, bool relu)
{
    return half_minmax(false, bf, a, b, ftz, nan_mode, relu);
}

uint16_t sem_half_max(bool bf, uint16_t a, uint16_t b, bool ftz, bool nan_mode, bool relu)
{
    return half_minmax(true, bf, a, b, ftz, nan_mode, relu);
}

uint16_t emu_half_op(int op, bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz,
                     bool sat, bool nan_mode, bool relu)
{
    switch (op) {
    case PTX_OP_ADD: return sem_half_add(bf, a, b, rnd, ftz, sat, relu);
    case PTX_OP_SUB: return sem_half_sub(bf, a, b, rnd, ftz, sat, relu);
    case PTX_OP_MUL: return sem_half_mul(bf, a, b, rnd, ftz, sat, relu);
    case PTX_OP_FMA: return sem_half_fma(bf, a, b, c, rnd, ftz, sat, relu);
    case PTX_OP_MIN: return sem_half_min(bf, a, b, ftz, nan_mode, relu);
    case PTX_OP_MAX: return sem_half_max(bf, a, b, ftz, nan_mode, relu);
    case PTX_OP_NEG: return sem_half_neg(a);
    case PTX_OP_ABS: return sem_half_abs(a);
    default: return 0x7fff;
    }
}
