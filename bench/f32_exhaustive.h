/* f32_exhaustive.h: the driver that bench/ex2_identical.c and bench/lg2_identical.c share: a
 * compiled f32 function (the JIT's operations in C, in the IR's order; `hard` set for inputs it
 * leaves to the handler) against sem's, on every one of the 2^32 f32 inputs, bit for bit (every
 * NaN counts as one: both make it the canonical NaN), on two host threads. Prints how many
 * inputs differ (the result is 1 when any does) and how many are hard (the handler computes
 * them: they are not compared), with the first few of each. An argument N > 1 checks only every
 * N-th input (a quick look; the proof is N = 1). */
#ifndef PTXSIM_BENCH_F32_EXHAUSTIVE_H
#define PTXSIM_BENCH_F32_EXHAUSTIVE_H

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef float (*f32_compiled_fn)(float x, int *hard);
typedef uint32_t (*f32_sem_fn)(uint32_t x);

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

enum { F32X_THREADS = 2, F32X_SHOW = 8 };
typedef struct {
    uint64_t lo, hi, stride, differ, hard;
    f32_compiled_fn compiled;
    f32_sem_fn sem;
    uint32_t first[F32X_SHOW], first_hard[F32X_SHOW];
} f32x_range;

static void *f32x_check(void *arg)
{
    f32x_range *r = arg;
    for (uint64_t i = r->lo; i < r->hi; i += r->stride) {
        uint32_t u = (uint32_t)i;
        float x, y;
        int hard;
        memcpy(&x, &u, 4);
        y = r->compiled(x, &hard);
        if (hard) {
            if (r->hard < F32X_SHOW) r->first_hard[r->hard] = u;
            r->hard++;
            continue;
        }
        uint32_t got = isnan(y) ? 0x7fffffffu : bits_of(y);
        if (got != r->sem(u)) {
            if (r->differ < F32X_SHOW) r->first[r->differ] = u;
            r->differ++;
        }
    }
    return NULL;
}

static int f32_exhaustive(const char *what, f32_compiled_fn compiled, f32_sem_fn sem, int argc,
                          char **argv)
{
    uint64_t stride = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    if (stride == 0) stride = 1;
    f32x_range r[F32X_THREADS];
    pthread_t th[F32X_THREADS];
    uint64_t all = UINT64_C(1) << 32, differ = 0, hard = 0, part = all / stride / F32X_THREADS;
    for (int k = 0; k < F32X_THREADS; k++) {
        memset(&r[k], 0, sizeof r[k]);
        r[k].lo = part * stride * (uint64_t)k;
        r[k].hi = k + 1 == F32X_THREADS ? all : part * stride * (uint64_t)(k + 1);
        r[k].stride = stride;
        r[k].compiled = compiled;
        r[k].sem = sem;
        pthread_create(&th[k], NULL, f32x_check, &r[k]);
    }
    for (int k = 0; k < F32X_THREADS; k++) {
        pthread_join(th[k], NULL);
        differ += r[k].differ;
        hard += r[k].hard;
        for (uint64_t j = 0; j < r[k].differ && j < F32X_SHOW; j++)
            printf("differs: 0x%08x\n", r[k].first[j]);
        for (uint64_t j = 0; j < r[k].hard && j < F32X_SHOW; j++)
            printf("hard: 0x%08x\n", r[k].first_hard[j]);
    }
    printf("%s: %llu of %llu inputs differ from sem, %llu hard (left to the handler)\n", what,
           (unsigned long long)differ, (unsigned long long)((all + stride - 1) / stride),
           (unsigned long long)hard);
    return differ != 0;
}

#endif
