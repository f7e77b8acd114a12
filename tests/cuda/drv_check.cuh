// drv_check.cuh: the driver API's counterpart of check.cuh's CUDA_OK, for the tests that link
// -lcuda: a driver call that must succeed for the test to go on.
#pragma once

#include "check.cuh"

#include <cuda.h>

#define CU_OK(name, call)                                                                     \
    do {                                                                                      \
        CUresult err_ = (call);                                                               \
        if (err_ != CUDA_SUCCESS) {                                                           \
            const char *ename_ = "?";                                                         \
            cuGetErrorName(err_, &ename_);                                                    \
            check(false, name, "%s returned %s", #call, ename_);                              \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// The name of a CUresult, for failure details.
static inline const char *cu_name(CUresult r)
{
    const char *s = "?";
    cuGetErrorName(r, &s);
    return s;
}
