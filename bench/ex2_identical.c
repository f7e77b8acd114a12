/* ex2_identical: the JIT's ex2.approx.f32 (emulator/jit/translate.c's ex2_f32: 2^x in double
 * from a polynomial (two Horner chains) and the exponent bits, lanes near a float rounding
 * boundary left to the handler) against sem_float_ex2_approx_f32 ((float)exp2((double)x) with the host's libm) on
 * every one of the 2^32 f32 inputs, bit for bit (every NaN counts as one: both make it the
 * canonical NaN). The operations below are the IR's, in its order; built with
 * -ffp-contract=off, so the compiler fuses nothing the IR does not. Prints how many inputs
 * differ (exit status 0 when none) and how many are hard (the handler computes them: they are
 * not compared), with the first few of each. */
#include "emulator/sem/sem.h"

#include "bench/f32_exhaustive.h"

static const double cheb[12] = {
    0x1.0000000000000p+0,  0x1.62e42fefa39efp-1,  0x1.ebfbdff82c5aep-3,  0x1.c6b08d704a0c6p-5,
    0x1.3b2ab6fb9f1a5p-7,  0x1.5d87fe78a3f9cp-10, 0x1.430913112c61bp-13, 0x1.ffcbfc6da6ed1p-17,
    0x1.62bfc2c86d700p-20, 0x1.b524ebd13a55fp-24, 0x1.e6228acd1c6e5p-28, 0x1.e9ec1fcb69a7fp-32};

static float jit_ex2(float x, int *hard)
{
    double d = x;
    if (d > 200.0) d = 200.0;
    if (d < -200.0) d = -200.0;
    if (isnan(d)) d = 0.0;
    double n = __builtin_roundeven(d), f = d - n, half[2];
    /* two Horner chains, c[0..5] and c[6..11], joined by f^6, as the IR */
    for (int h = 0; h < 2; h++) {
        double q = cheb[6 * h + 5];
        for (int k = 6 * h + 4; k >= 6 * h; k--) q = fma(q, f, cheb[k]);
        half[h] = q;
    }
    double f2 = f * f, f6 = (f2 * f2) * f2;
    double p = fma(half[1], f6, half[0]);
    uint64_t e = (uint64_t)((int64_t)n + 1023) << 52;
    double s, r;
    memcpy(&s, &e, 8);
    r = p * s;
    *hard = bits_of((float)(r * (1 - 0x1p-48))) != bits_of((float)(r * (1 + 0x1p-48)));
    return isnan(x) ? x : (float)r;
}

static uint32_t sem_ex2(uint32_t x)
{
    return (uint32_t)sem_float_ex2_approx_f32(x, false, false);
}

int main(int argc, char **argv)
{
    return f32_exhaustive("ex2.approx.f32", jit_ex2, sem_ex2, argc, argv);
}
