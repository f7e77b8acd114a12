/* context.c: the primary context, created contexts and each thread's context stack
 * (runtime/context.c keeps them, shared with the runtime API), and the per-context settings
 * that are the device's here (limits, cache configuration, stream priorities). */
#include "libcuda-shim/driver.h"

#include <string.h>

/* The contexts' flags the driver accepts (scheduling, host mapping, local memory resizing,
 * coredump and sync-memops bits). */
#define KNOWN_CTX_FLAGS                                                                       \
    (CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_COREDUMP_ENABLE | \
     CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS)

static CUresult check_device(CUdevice dev)
{
    DRV_CHECK(drv_initialized());
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static CUresult create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!pctx || (flags & ~(unsigned)KNOWN_CTX_FLAGS))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_ctx_create((rt_context **)pctx, flags));
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create(pctx, flags, dev);
}

CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                        unsigned int flags, CUdevice dev)
{
    if (numParams > 0 || paramsArray)
        return drv_unsupported("cuCtxCreate_v3 with execution affinity");
    return create(pctx, flags, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                        CUdevice dev)
{
    if (ctxCreateParams &&
        (ctxCreateParams->numExecAffinityParams > 0 || ctxCreateParams->cigParams))
        return drv_unsupported("cuCtxCreate_v4 with execution affinity or CIG parameters");
    return create(pctx, flags, dev);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    DRV_CHECK(drv_initialized());
    if (!ctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_ctx_live((rt_context *)ctx) || rt_ctx_is_primary((rt_context *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return DRV(rt_ctx_destroy((rt_context *)ctx));
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    DRV_CHECK(drv_initialized());
    if (!ctx || !rt_ctx_live((rt_context *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return DRV(rt_ctx_push((rt_context *)ctx));
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    DRV_CHECK(drv_initialized());
    rt_context *c = NULL;
    if (rt_ctx_pop(&c) != cudaSuccess)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (pctx)
        *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    DRV_CHECK(drv_initialized());
    if (ctx && !rt_ctx_live((rt_context *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return DRV(rt_ctx_set_current((rt_context *)ctx));
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    DRV_CHECK(drv_initialized());
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)rt_ctx_current();
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    DRV_CHECK(drv_context());
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    DRV_CHECK(drv_initialized());
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ctx ? !rt_ctx_live((rt_context *)ctx) : drv_context() != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    DRV_CHECK(drv_context());
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = rt_ctx_flags(rt_ctx_current());
    return CUDA_SUCCESS;
}

CUresult cuCtxSetFlags(unsigned int flags)
{
    DRV_CHECK(drv_context());
    if (flags & ~(unsigned)KNOWN_CTX_FLAGS)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_ctx_set_flags(rt_ctx_current(), flags));
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    DRV_CHECK(drv_initialized());
    if (!ctxId)
        return CUDA_ERROR_INVALID_VALUE;
    rt_context *c = ctx ? (rt_context *)ctx : rt_ctx_current();
    if (!c || !rt_ctx_live(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    *ctxId = rt_ctx_id(c);
    return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    DRV_CHECK(drv_initialized());
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    rt_context *c = ctx ? (rt_context *)ctx : rt_ctx_current();
    if (!c || !rt_ctx_live(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020;  /* the context API every driver since CUDA 3.2 reports */
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    DRV_CHECK(drv_context());
    return DRV(rt_device_synchronize());
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    DRV_CHECK(drv_initialized());
    if (ctx ? !rt_ctx_live((rt_context *)ctx) : drv_context() != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    return DRV(rt_device_synchronize());
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    DRV_CHECK(drv_context());
    return DRV(rt_device_set_limit((enum cudaLimit)limit, value));
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    DRV_CHECK(drv_context());
    return DRV(rt_device_get_limit(pvalue, (enum cudaLimit)limit));
}

CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    DRV_CHECK(drv_context());
    if (!pconfig)
        return CUDA_ERROR_INVALID_VALUE;
    *pconfig = CU_FUNC_CACHE_PREFER_NONE;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    DRV_CHECK(drv_context());
    /* A preference for the L1 / shared split: the functional emulator has no L1 to split. */
    return (unsigned)config <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS
                                                          : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    DRV_CHECK(drv_context());
    if (!pConfig)
        return CUDA_ERROR_INVALID_VALUE;
    *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    DRV_CHECK(drv_context());
    return (unsigned)config <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    DRV_CHECK(drv_context());
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return CUDA_SUCCESS;
}

CUresult cuCtxResetPersistingL2Cache(void)
{
    DRV_CHECK(drv_context());
    return DRV(rt_ctx_reset_persisting_l2());
}

CUresult cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent)
{
    DRV_CHECK(drv_initialized());
    if (!hCtx || !rt_ctx_live((rt_context *)hCtx))
        return CUDA_ERROR_INVALID_CONTEXT;
    /* Everything the context has issued: the legacy stream's view of the device. */
    return DRV(rt_event_record((cudaEvent_t)hEvent, cudaStreamLegacy, 0));
}

CUresult cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent)
{
    DRV_CHECK(drv_initialized());
    if (!hCtx || !rt_ctx_live((rt_context *)hCtx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return DRV(rt_stream_wait_event(cudaStreamLegacy, (cudaEvent_t)hEvent, 0));
}

/* ---------------------------------------------------------------- the primary context */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    rt_primary_retain();
    *pctx = (CUcontext)rt_ctx_primary();
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    return rt_primary_release() == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    DRV_CHECK(check_device(dev));
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    rt_primary_state(flags, active);
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    DRV_CHECK(check_device(dev));
    if (flags & ~(unsigned)KNOWN_CTX_FLAGS)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_ctx_set_flags(rt_ctx_primary(), flags));
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    return DRV(rt_device_reset());
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return cuDevicePrimaryCtxReset_v2(dev);
}

/* ---------------------------------------------------------------- the first versions
 * CUDA 2.0's forms of these calls took the same arguments; programs of that time call them. */

CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create(pctx, flags, dev);
}

CUresult cuCtxDestroy(CUcontext ctx)
{
    return cuCtxDestroy_v2(ctx);
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
    return cuCtxPushCurrent_v2(ctx);
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    return cuCtxPopCurrent_v2(pctx);
}
