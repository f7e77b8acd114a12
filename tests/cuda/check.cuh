// check.cuh: what every end-to-end test shares: one line per check ("PASS name" or
// "FAIL name: details") on stdout, and an exit status that is non-zero after any failure.
#pragma once

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

static int check_failures = 0;

// Records one check. The details (printf-style) are printed only when it fails.
__attribute__((format(printf, 3, 4)))
static bool check(bool ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        printf("PASS %s\n", name);
    } else {
        char details[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(details, sizeof details, fmt, ap);
        va_end(ap);
        printf("FAIL %s: %s\n", name, details);
        check_failures++;
    }
    fflush(stdout);
    return ok;
}

// A CUDA call that must succeed for the test to go on: on failure it records the check as
// failed (naming the call and the error) and ends the program.
#define CUDA_OK(name, call)                                                                   \
    do {                                                                                      \
        cudaError_t err_ = (call);                                                            \
        if (err_ != cudaSuccess) {                                                            \
            check(false, name, "%s returned %s (%s)", #call, cudaGetErrorName(err_),          \
                  cudaGetErrorString(err_));                                                  \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// Whether the program runs under ptxsim (its device is named "ptxsim (sm_XY model)") rather
// than on a GPU. A check of behaviour that only ptxsim defines (a model's memory size, an
// error where the real runtime's behaviour is undefined and crashes, a feature ptxsim refuses
// and a GPU has) runs only there: tests/run_native.sh runs these programs on a GPU, where such
// a check would test the GPU, not the program.
static bool on_ptxsim(void)
{
    static int known = -1;
    if (known < 0) {
        cudaDeviceProp prop;
        known = cudaGetDeviceProperties(&prop, 0) == cudaSuccess &&
                __builtin_strncmp(prop.name, "ptxsim", 6) == 0;
    }
    return known == 1;
}

static int check_finish(void)
{
    return check_failures ? 1 : 0;
}
