/* lg2_identical: the JIT's lg2.approx.f32 (emulator/jit/translate.c's lg2_f32: log2 in double
 * from the exponent bits and the series of atanh in s = (m - 1) / (m + 1), lanes near a float
 * rounding boundary left to the handler) against sem_float_lg2_approx_f32 ((float)log2((double)x)
 * with the host's libm) on every one of the 2^32 f32 inputs, bit for bit (every NaN counts as
 * one: both make it the canonical NaN). The operations below are the IR's, in its order; built
 * with -ffp-contract=off, so the compiler fuses nothing the IR does not. Prints how many inputs
 * differ (exit status 0 when none) and how many are hard (the handler computes them: they are
 * not compared), with the first few of each. */
#include "emulator/sem/sem.h"

#include "bench/f32_exhaustive.h"

/* 2/ln 2 over 2k + 1, k = 0..10 (rounded to nearest) */
static const double series[11] = {
    0x1.71547652b82fep+1, 0x1.ec709dc3a03fdp-1, 0x1.2776c50ef9bfep-1, 0x1.a61762a7aded9p-2,
    0x1.484b13d7c02a9p-2, 0x1.0c9a84994022dp-2, 0x1.c68f568d31760p-3, 0x1.89f3b1694cffep-3,
    0x1.5b9ac9b743f0dp-3, 0x1.3703c1f4d0ffep-3, 0x1.1964ec6fc9491p-3};

static float jit_lg2(float x, int *hard)
{
    double d = x;
    /* zero, negative, infinite, NaN: selected after; the series runs on 1 there */
    int special = !(d > 0) || isinf(d);
    if (special) d = 1.0;
    uint64_t b;
    memcpy(&b, &d, 8);
    int64_t e = (int64_t)(b >> 52) - 1023;
    uint64_t mb = (b & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
    /* m in [sqrt(1/2), sqrt(2)): above sqrt(2) (mantissa bits from 0x6a09e667f3bcd) halve it */
    if ((b & 0x000fffffffffffffull) > 0x6a09e667f3bccull) {
        mb -= 0x0010000000000000ull;
        e += 1;
    }
    double m;
    memcpy(&m, &mb, 8);
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, p = series[10];
    for (int k = 9; k >= 1; k--) p = fma(p, s2, series[k]);
    double l = fma(s * s2, p, s * series[0]);
    double r = (double)e + l;
    *hard = bits_of((float)(r * (1 - 0x1p-48))) != bits_of((float)(r * (1 + 0x1p-48)));
    if (isnan(x) || x < 0) return NAN;
    if (x == 0) return -INFINITY;
    if (isinf(x)) return x;
    return (float)r;
}

static uint32_t sem_lg2(uint32_t x)
{
    return (uint32_t)sem_float_lg2_approx_f32(x, false, false);
}

int main(int argc, char **argv)
{
    return f32_exhaustive("lg2.approx.f32", jit_lg2, sem_lg2, argc, argv);
}
