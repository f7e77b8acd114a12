/* proc_address.c: cuGetProcAddress, the driver's lookup of its own entry points by name and
 * CUDA version. It is also the runtime's: cudaGetDriverEntryPoint (libcudart-shim) loads this
 * library and asks here, so both APIs answer from one table (proc_table.c). */
#include "libcuda-shim/driver.h"
#include "libcuda-shim/proc_table.h"

#include <string.h>

/* A name cuda.h maps onto another function from some version on. */
static const struct { const char *name; int since; const char *target; } renamed[] = {
    {"cuGraphInstantiate", 12000, "cuGraphInstantiateWithFlags"},
};

static CUresult lookup(const char *symbol, void **pfn, int version, cuuint64_t flags,
                       CUdriverProcAddressQueryResult *status)
{
    if (!symbol || !pfn)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return CUDA_ERROR_INVALID_VALUE;
    *pfn = NULL;
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (strcmp(symbol, renamed[i].name) == 0 && version >= renamed[i].since)
            symbol = renamed[i].target;
    bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    const drv_proc *best = NULL, *best_pt = NULL;
    bool known = false;
    for (size_t i = 0; i < drv_nprocs; i++) {
        const drv_proc *p = &drv_procs[i];
        if (strcmp(p->name, symbol) != 0)
            continue;
        known = true;
        if (p->version > version)
            continue;
        const drv_proc **slot = p->per_thread ? &best_pt : &best;
        if (!*slot || (*slot)->version < p->version)
            *slot = p;
    }
    const drv_proc *found = per_thread && best_pt ? best_pt : best;
    CUdriverProcAddressQueryResult q = found ? CU_GET_PROC_ADDRESS_SUCCESS
                                       : known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                               : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (status)
        *status = q;
    /* With a status to say why, the 580 driver answers CUDA_SUCCESS and a NULL pointer for a
     * name it lacks or a version too old (an H100, 2026-11-27: cuNoSuchCall, and
     * cuMemAllocAsync at 11000); without one, the reference's CUDA_ERROR_NOT_FOUND. */
    if (!found)
        return status ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
    *pfn = found->fn;
    return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    return lookup(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return lookup(symbol, pfn, cudaVersion, flags, NULL);
}
