/* driver.h: what the driver shim's files share (no part of the exported ABI).
 *
 * The shim exports NVIDIA's libcuda.so.1 ABI: every versioned name (cuMemAlloc and
 * cuMemAlloc_v2, cuMemcpyHtoD_v2 and cuMemcpyHtoD_v2_ptds, ...) is a function of its own,
 * so cuda.h is read with __CUDA_API_VERSION_INTERNAL, which turns off its renaming macros and
 * declares the old versions too. Each function is a thin translation onto the runtime
 * (runtime/rt.h): the driver's and the runtime's handles are the same objects, so a program may
 * mix both APIs.
 */
#ifndef PTXSIM_DRIVER_SHIM_H
#define PTXSIM_DRIVER_SHIM_H

#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>

#include "runtime/rt.h"

/* The CUresult of a runtime error (their numbers agree from 100 on; below, the runtime's own
 * codes map to the driver's nearest). */
CUresult drv_result(cudaError_t e);

/* The checks of most calls: cuInit was called (CUDA_ERROR_NOT_INITIALIZED), and a context is
 * current (CUDA_ERROR_INVALID_CONTEXT). DRV_CHECK returns from the caller on failure. */
CUresult drv_initialized(void);
CUresult drv_context(void);
#define DRV_CHECK(check)                                                                      \
    do {                                                                                      \
        CUresult drv_check_ = (check);                                                        \
        if (drv_check_ != CUDA_SUCCESS)                                                       \
            return drv_check_;                                                                \
    } while (0)

/* A runtime call made for the driver: its error is the driver's answer and does not become the
 * runtime's last error (cudaGetLastError reports runtime API calls only). */
#define DRV(call)                                                                             \
    __extension__({                                                                           \
        cudaError_t drv_saved_ = rt_swap_last_error(cudaSuccess);                             \
        rt_error_namer drv_namer_ = rt_swap_error_namer(drv_error_name);                      \
        cudaError_t drv_e_ = (call);                                                          \
        rt_swap_error_namer(drv_namer_);                                                      \
        rt_swap_last_error(drv_saved_);                                                       \
        drv_result(drv_e_);                                                                   \
    })
/* The driver's name of the CUresult a runtime error becomes (for ptxsim's messages). */
const char *drv_error_name(cudaError_t e);

/* An entry point ptxsim does not implement: one line naming it, CUDA_ERROR_NOT_SUPPORTED. */
CUresult drv_unsupported(const char *function);

/* The channel description of a CUarray_format with n channels; false for an unknown format. */
bool drv_format_desc(CUarray_format format, unsigned n, struct cudaChannelFormatDesc *desc);
/* ... and back. */
bool drv_desc_format(const struct cudaChannelFormatDesc *desc, CUarray_format *format,
                     unsigned *n);

/* The CUDA_MEMCPY3D of the driver as the runtime's cudaMemcpy3DParms (positions of array sides
 * in elements, of pointer sides in bytes); false when it names no valid memory type. */
bool drv_memcpy3d_params(const CUDA_MEMCPY3D *p, struct cudaMemcpy3DParms *out);

/* NULL (the legacy default stream) in a _ptsz entry point means the per-thread stream. */
#define PTSZ(stream) ((stream) ? (cudaStream_t)(stream) : cudaStreamPerThread)

#endif
