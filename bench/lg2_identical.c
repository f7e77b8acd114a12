/* lg2_identical: the JIT's lg2.approx.f32 (emulator/jit/translate.c's lg2_f32: log2 in double
 * from the exponent bits and the series of atanh in s = (m - 1) / (m + 1), lanes near a float
 * rounding boundary left to the handler) against sem_float_lg2_approx_f32 ((float)log2((double)x)
 * with the host's libm) on every one of the 2^32 f32 inputs, bit for bit (every NaN counts as
 * one: both make it the canonical NaN). The operations below are the IR's, in its order; built
 * with -ffp-contract=off, so the compiler fuses nothing the IR does not. Prints how many inputs
 * differ (exit status 0 when none) and how many are hard (the handler computes them: they are
 * not compared), with the first few of each. */
#include "emulator/sem/sem.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2/ln 2 over 2k + 1, k = 0..10 (rounded to nearest) */
static const double series[11] = {
    0x1.71547652b82fep+1, 0x1.ec709dc3a03fdp-1, 0x1.2776c50ef9bfep-1, 0x1.a61762a7aded9p-2,
    0x1.484b13d7c02a9p-2, 0x1.0c9a84994022dp-2, 0x1.c68f568d31760p-3, 0x1.89f3b1694cffep-3,
    0x1.5b9ac9b743f0dp-3, 0x1.3703c1f4d0ffep-3, 0x1.1964ec6fc9491p-3};

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

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

enum { NTHREADS = 2, SHOW = 8 };
typedef struct {
    uint64_t lo, hi, differ, hard;
    uint32_t first[SHOW], first_hard[SHOW];
} range;

static void *check(void *arg)
{
    range *r = arg;
    for (uint64_t i = r->lo; i < r->hi; i++) {
        uint32_t u = (uint32_t)i;
        float x, y;
        int hard;
        memcpy(&x, &u, 4);
        y = jit_lg2(x, &hard);
        if (hard) {
            if (r->hard < SHOW) r->first_hard[r->hard] = u;
            r->hard++;
            continue;
        }
        uint32_t got = isnan(y) ? 0x7fffffffu : bits_of(y);
        if (got != (uint32_t)sem_float_lg2_approx_f32(u, false, false)) {
            if (r->differ < SHOW) r->first[r->differ] = u;
            r->differ++;
        }
    }
    return NULL;
}

int main(void)
{
    range r[NTHREADS];
    pthread_t th[NTHREADS];
    uint64_t all = UINT64_C(1) << 32, differ = 0, hard = 0;
    for (int k = 0; k < NTHREADS; k++) {
        memset(&r[k], 0, sizeof r[k]);
        r[k].lo = all / NTHREADS * (uint64_t)k;
        r[k].hi = k + 1 == NTHREADS ? all : all / NTHREADS * (uint64_t)(k + 1);
        pthread_create(&th[k], NULL, check, &r[k]);
    }
    for (int k = 0; k < NTHREADS; k++) {
        pthread_join(th[k], NULL);
        differ += r[k].differ;
        hard += r[k].hard;
        for (uint64_t j = 0; j < r[k].differ && j < SHOW; j++)
            printf("differs: 0x%08x\n", r[k].first[j]);
        for (uint64_t j = 0; j < r[k].hard && j < SHOW; j++)
            printf("hard: 0x%08x\n", r[k].first_hard[j]);
    }
    printf("lg2.approx.f32: %llu of 4294967296 inputs differ from sem, %llu hard (left to the "
           "handler)\n", (unsigned long long)differ, (unsigned long long)hard);
    return differ != 0;
}
