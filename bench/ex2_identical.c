/* ex2_identical: the JIT's ex2.approx.f32 (emulator/jit/translate.c's ex2_f32: 2^x in double
 * from a Taylor series and the exponent bits, lanes near a float rounding boundary left to the
 * handler) against sem_float_ex2_approx_f32 ((float)exp2((double)x) with the host's libm) on
 * every one of the 2^32 f32 inputs, bit for bit (every NaN counts as one: both make it the
 * canonical NaN). The operations below are the IR's, in its order; built with
 * -ffp-contract=off, so the compiler fuses nothing the IR does not. Prints how many inputs
 * differ (exit status 0 when none) and how many are hard (the handler computes them: they are
 * not compared), with the first few of each. */
#include "emulator/sem/sem.h"

#include "bench/f32_exhaustive.h"

static const double taylor[14] = {
    0x1.0000000000000p+0,  0x1.62e42fefa39efp-1,  0x1.ebfbdff82c58fp-3,  0x1.c6b08d704a0c0p-5,
    0x1.3b2ab6fba4e77p-7,  0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13, 0x1.ffcbfc588b0c7p-17,
    0x1.62c0223a5c824p-20, 0x1.b5253d395e7c4p-24, 0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32,
    0x1.c3bd650fc2986p-36, 0x1.816193166d0f9p-40};

static float jit_ex2(float x, int *hard)
{
    double d = x;
    if (d > 200.0) d = 200.0;
    if (d < -200.0) d = -200.0;
    if (isnan(d)) d = 0.0;
    double n = __builtin_roundeven(d), f = d - n, p = taylor[13];
    for (int k = 12; k >= 0; k--) p = fma(p, f, taylor[k]);
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
