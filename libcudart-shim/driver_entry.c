/* driver_entry.c: cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion (and their
 * per-thread-stream twins), the runtime's door to driver API functions.
 *
 * As NVIDIA's runtime does, the door leads to the driver: ptxsim's own libcuda.so.1, which
 * sits beside this library (libcuda-shim). It is loaded if the program has not loaded it, and
 * its cuGetProcAddress answers, so the runtime and the driver give the same functions from one
 * table (libcuda-shim/proc_table.c). A name the driver lacks is answered as CUDA answers it:
 * cudaSuccess, a NULL function and cudaDriverEntryPointSymbolNotFound.
 */
#include "libcudart-shim/shim.h"

#include <cuda.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t,
                                CUdriverProcAddressQueryResult *);

static get_proc_fn get_proc;
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

/* ptxsim's driver: libcuda.so.1 in this library's own folder. */
static void load_driver(void)
{
    Dl_info self;
    char path[PATH_MAX];
    if (!dladdr((void *)load_driver, &self) || !self.dli_fname)
        return;
    const char *slash = strrchr(self.dli_fname, '/');
    int dir = slash ? (int)(slash - self.dli_fname) : 1;
    snprintf(path, sizeof path, "%.*s/libcuda.so.1", dir, slash ? self.dli_fname : ".");
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        fprintf(stderr, "ptxsim: cannot load the driver shim %s: %s\n", path, dlerror());
        return;
    }
    get_proc = (get_proc_fn)dlsym(h, "cuGetProcAddress_v2");
}

static cudaError_t lookup(const char *symbol, void **fn, unsigned version, unsigned long long flags,
                          enum cudaDriverEntryPointQueryResult *status)
{
    cudaError_t err = rt_driver_entry_check(symbol, fn, version, flags);
    if (err != cudaSuccess)
        return err;
    *fn = NULL;
    pthread_once(&driver_once, load_driver);
    CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc) {
        /* cudaEnableLegacyStream / cudaEnablePerThreadDefaultStream are the driver's flags. */
        get_proc(symbol, fn, version ? (int)version : CUDART_VERSION, (cuuint64_t)flags, &q);
    }
    if (status)
        *status = q == CU_GET_PROC_ADDRESS_SUCCESS ? cudaDriverEntryPointSuccess
                  : q == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                      ? cudaDriverEntryPointVersionNotSufficent
                      : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

/* CUDA 11's cudaGetDriverEntryPoint has no driverStatus argument (CUDA 12.0 added it): when
 * this library answers as libcudart.so.11.0, that register holds whatever the caller left. */
static bool cuda11_abi(void)
{
    Dl_info info;
    if (!dladdr((void *)cuda11_abi, &info) || !info.dli_fname)
        return false;
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
