/* driver_entry.c: cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion (and their
 * per-thread-stream twins), the runtime's door to driver API functions.
 *
 * There is no driver under ptxsim, so the door opens onto a small table of its own: the tensor
 * map encoders that TMA programs need (the CUDA guide builds its CUtensorMap this way) and the
 * driver's error-name queries. Any other name is answered as CUDA answers a symbol the driver
 * lacks: cudaSuccess, a NULL function and cudaDriverEntryPointSymbolNotFound.
 *
 * The table's functions are local to this library (the version script exports only cuda*), so
 * a static program's own copies of driver symbols are never redirected to them by name.
 */
#include "libcudart-shim/shim.h"

#include <cuda.h>
#include <dlfcn.h>
#include <string.h>

static CUresult drv_encode_tiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank,
                                 void *addr, const cuuint64_t *dims, const cuuint64_t *strides,
                                 const cuuint32_t *box, const cuuint32_t *estrides,
                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                 CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
    return (CUresult)rt_tensor_map_encode_tiled(map, dtype, rank, addr, dims, strides, box,
                                                estrides, interleave, swizzle, l2, oob);
}

static CUresult drv_encode_im2col(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank,
                                  void *addr, const cuuint64_t *dims, const cuuint64_t *strides,
                                  const int *lower, const int *upper, cuuint32_t channels,
                                  cuuint32_t pixels, const cuuint32_t *estrides,
                                  CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                  CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
    return (CUresult)rt_tensor_map_encode_im2col(map, dtype, rank, addr, dims, strides, lower,
                                                 upper, channels, pixels, estrides, interleave,
                                                 swizzle, l2, oob);
}

static CUresult drv_replace_address(CUtensorMap *map, void *addr)
{
    return (CUresult)rt_tensor_map_replace_address(map, addr);
}

/* The driver's names and messages of the CUresult values a ptxsim program can meet. */
static const struct { CUresult e; const char *name, *text; } cu_errors[] = {
    { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
    { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
    { CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
      "an illegal memory access was encountered" },
    { CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
    { CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

static CUresult drv_error_lookup(CUresult e, const char **out, bool name)
{
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].e == e) {
            *out = name ? cu_errors[i].name : cu_errors[i].text;
            return CUDA_SUCCESS;
        }
    *out = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

static CUresult drv_get_error_string(CUresult e, const char **s)
{
    return drv_error_lookup(e, s, false);
}

static CUresult drv_get_error_name(CUresult e, const char **s)
{
    return drv_error_lookup(e, s, true);
}

/* name, the CUDA version that introduced it, the function */
static const struct { const char *name; unsigned since; void *fn; } driver_table[] = {
    { "cuTensorMapEncodeTiled", 12000, (void *)drv_encode_tiled },
    { "cuTensorMapEncodeIm2col", 12000, (void *)drv_encode_im2col },
    { "cuTensorMapReplaceAddress", 12000, (void *)drv_replace_address },
    { "cuGetErrorString", 6000, (void *)drv_get_error_string },
    { "cuGetErrorName", 6000, (void *)drv_get_error_name },
};

static cudaError_t lookup(const char *symbol, void **fn, unsigned version, unsigned long long flags,
                          enum cudaDriverEntryPointQueryResult *status)
{
    cudaError_t err = rt_driver_entry_check(symbol, fn, version, flags);
    if (err != cudaSuccess) return err;
    *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    for (size_t i = 0; i < sizeof driver_table / sizeof driver_table[0]; i++) {
        if (strcmp(driver_table[i].name, symbol) != 0) continue;
        if (version && version < driver_table[i].since) {
            q = cudaDriverEntryPointVersionNotSufficent;
        } else {
            *fn = driver_table[i].fn;
            q = cudaDriverEntryPointSuccess;
        }
        break;
    }
    if (status) *status = q;
    return cudaSuccess;
}

/* CUDA 11's cudaGetDriverEntryPoint has no driverStatus argument (CUDA 12.0 added it): when
 * this library answers as libcudart.so.11.0, that register holds whatever the caller left. */
static bool cuda11_abi(void)
{
    Dl_info info;
    if (!dladdr((void *)cuda11_abi, &info) || !info.dli_fname) return false;
    size_t n = strlen(info.dli_fname);
    return n >= 8 && strcmp(info.dli_fname + n - 8, ".so.11.0") == 0;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return lookup(symbol, funcPtr, 0, flags, cuda11_abi() ? NULL : driverStatus);
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                         unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return lookup(symbol, funcPtr, 0, flags, cuda11_abi() ? NULL : driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                             unsigned int cudaVersion, unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return lookup(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                  unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return lookup(symbol, funcPtr, cudaVersion, flags, driverStatus);
}
