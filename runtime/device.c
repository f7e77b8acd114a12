/* device.c: the one device ptxsim presents (the configured GPU model): its properties and
 * attributes, limits and flags, synchronisation and reset, and version queries. */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <string.h>

static void fill_props(struct cudaDeviceProp *p)
{
    const rt_gpu_model *g = rt_g.gpu;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "ptxsim (sm_%d%d model)", g->major, g->minor);
    memcpy(p->uuid.bytes, "ptxsim-device-00", sizeof p->uuid.bytes);
    uint64_t used = 0, total = 0;
    emu_device_mem_info(&used, &total);
    /* What cudaMemGetInfo reports, so the two agree. */
    p->totalGlobalMem = (size_t)(total && total < g->global_mem ? total : g->global_mem);
    p->sharedMemPerBlock = RT_SMEM_PER_BLOCK;
    p->regsPerBlock = g->regs_per_block;
    p->warpSize = EMU_WARP_SIZE;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = RT_MAX_THREADS_PER_BLOCK;
    p->maxThreadsDim[0] = RT_MAX_BLOCK_X;
    p->maxThreadsDim[1] = RT_MAX_BLOCK_Y;
    p->maxThreadsDim[2] = RT_MAX_BLOCK_Z;
    p->maxGridSize[0] = (int)RT_MAX_GRID_X;
    p->maxGridSize[1] = (int)RT_MAX_GRID_Y;
    p->maxGridSize[2] = (int)RT_MAX_GRID_Z;
    p->totalConstMem = RT_CONST_MEM;
    p->major = g->major;
    p->minor = g->minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = g->sm_count;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = 32768, p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072, p->maxTexture2DLinear[1] = 65000;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = 32768, p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192, p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768, p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072, p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = 16384, p->maxSurface3D[1] = 16384, p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
    p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->pciBusID = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = g->mem_bus_bits;
    p->l2CacheSize = (int)g->l2_bytes;
    p->persistingL2CacheMaxSize = g->major >= 8 ? (int)(g->l2_bytes * 3 / 4) : 0;
    /* What sm_80 and later GPUs report (128 MiB less a page); none before sm_80. */
    p->accessPolicyMaxWindowSize = g->major >= 8 ? 134213632 : 0;
    /* Kernels may read and write malloc'ed memory only where the device model says so
     * (--pageable-memory-access, as on systems with HMM or ATS). */
    p->pageableMemoryAccess = rt_g.cfg.pageable_memory_access;
    p->pageableMemoryAccessUsesHostPageTables = 0;
    p->maxThreadsPerMultiProcessor = g->max_threads_per_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = g->smem_per_sm;
    p->regsPerMultiprocessor = g->regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;  /* every block of a cooperative grid is kept resident */
    p->sharedMemPerBlockOptin = g->smem_per_block_optin;
    p->maxBlocksPerMultiProcessor = g->max_blocks_per_sm;
    p->reservedSharedMemPerBlock = g->major >= 8 ? 1024 : 0;
    p->hostRegisterSupported = 1;
    p->memoryPoolsSupported = 1;
    p->clusterLaunch = 0;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

cudaError_t rt_get_device_count(int *count)
{
    if (!count)
        return rt_record(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

static cudaError_t check_device(int device, const char *api)
{
    if (device == 0)
        return cudaSuccess;
    return rt_api_error(cudaErrorInvalidDevice, api, "device %d: ptxsim has one device, 0",
                        device);
}

cudaError_t rt_set_device(int device)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(check_device(device, "cudaSetDevice"));
}

cudaError_t rt_get_device(int *device)
{
    if (!device)
        return rt_record(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t rt_get_device_properties(struct cudaDeviceProp *prop, int device)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    cudaError_t e = !prop ? cudaErrorInvalidValue : check_device(device, "cudaGetDeviceProperties");
    if (e == cudaSuccess)
        fill_props(prop);
    return rt_end(e);
}

cudaError_t rt_device_get_attribute(int *value, enum cudaDeviceAttr attr, int device)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    cudaError_t e = !value ? cudaErrorInvalidValue : check_device(device, "cudaDeviceGetAttribute");
    if (e != cudaSuccess)
        return rt_end(e);
    struct cudaDeviceProp p;
    fill_props(&p);
    const rt_gpu_model *g = rt_g.gpu;
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: v = p.warpSize; break;
    case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = g->clock_khz; break;
    case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
    case cudaDevAttrGpuOverlap: v = 1; break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: v = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: v = p.maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: v = p.maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: v = p.maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: v = (int)p.surfaceAlignment; break;
    case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: v = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
    case cudaDevAttrTccDriver: v = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: v = g->mem_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: v = p.maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: v = p.maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: v = p.maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: v = p.maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: v = p.maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: v = p.maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: v = p.maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: v = p.pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: v = p.maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: v = p.maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: v = p.maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: v = p.maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: v = p.maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: v = p.maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: v = p.maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: v = p.maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: v = p.maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: v = p.maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: v = p.maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: v = p.maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: v = p.maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: v = p.maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: v = p.maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: v = p.maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: v = p.maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: v = 268435456; break;
    case cudaDevAttrMaxTexture2DLinearWidth: v = p.maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: v = p.maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: v = p.maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: v = p.maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: v = p.maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: v = p.maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = g->major == 7 && g->minor == 0 ? 2
                                                          : g->major == 8 && g->minor == 0 ? 2
                                                          : g->major == 9 ? 2 : 64; break;
    case cudaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: v = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
        v = p.canUseHostPointerForRegisteredMem;
        break;
    case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
    case cudaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
        v = p.pageableMemoryAccessUsesHostPageTables;
        break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = 0; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
    case cudaDevAttrClusterLaunch: v = p.clusterLaunch; break;
    case cudaDevAttrNumaConfig: v = 0; break;
    case cudaDevAttrNumaId: v = -1; break;
    case cudaDevAttrHostNumaId: v = -1; break;
    case cudaDevAttrMemSyncDomainCount: v = 1; break;
    default:
        /* Interop, RDMA, IPC and the like: features this device does not have. */
        if ((int)attr < cudaDevAttrMaxThreadsPerBlock ||
            (int)attr > cudaDevAttrOnlyPartialHostNativeAtomicSupported)
            return rt_end(cudaErrorInvalidValue);
        v = 0;
        break;
    }
    *value = v;
    return rt_end(cudaSuccess);
}

cudaError_t rt_device_synchronize(void)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_wait_idle();
    rt_mempool_synchronized();
    e = rt_take_async_error();
    rt_flush_output_locked();   /* device printf and assert output, as CUDA flushes it here */
    pthread_mutex_unlock(&rt_g.lock);
    return rt_record(e);
}

cudaError_t rt_check_access_policy_window(const struct cudaAccessPolicyWindow *w, const char *api)
{
    struct cudaDeviceProp p;
    fill_props(&p);
    if ((size_t)p.accessPolicyMaxWindowSize < w->num_bytes)
        return rt_api_error(cudaErrorInvalidValue, api,
                            "an access policy window of %zu bytes exceeds the device's %d "
                            "(cudaDevAttrMaxAccessPolicyWindowSize)",
                            w->num_bytes, p.accessPolicyMaxWindowSize);
    if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f))
        return rt_api_error(cudaErrorInvalidValue, api, "hit ratio %g is outside [0, 1]",
                            (double)w->hitRatio);
    if ((unsigned)w->hitProp > cudaAccessPropertyPersisting ||
        (unsigned)w->missProp > cudaAccessPropertyPersisting)
        return rt_api_error(cudaErrorInvalidValue, api, "access properties %d / %d",
                            (int)w->hitProp, (int)w->missProp);
    if (w->missProp == cudaAccessPropertyPersisting)
        return rt_api_error(cudaErrorInvalidValue, api,
                            "the miss property cannot be cudaAccessPropertyPersisting");
    return cudaSuccess;
}

cudaError_t rt_ctx_reset_persisting_l2(void)
{
    /* The functional emulator keeps no cache lines to demote; the call is checked and kept in
     * stream order for the timing model to act on. */
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(cudaSuccess);
}

cudaError_t rt_device_reset(void)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_wait_idle();
    rt_forget_async_error();
    rt_flush_output_locked();
    emu_output_discard();
    rt_device_stop();   /* another host thread's work may have started during the flush */
    rt_textures_release_all();
    emu_heap_release_all();
    rt_modules_unload_all();
    rt_mempool_release_all();
    rt_memory_release_all();
    rt_arrays_release_all();
    rt_streams_release_all();
    rt_events_release_all();
    rt_g.sticky = cudaSuccess;
    rt_g.device_flags = 0;
    pthread_mutex_unlock(&rt_g.lock);
    rt_clear_last_error();
    rt_log(1, "device reset");
    return cudaSuccess;
}

cudaError_t rt_set_device_flags(unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                     cudaDeviceSyncMemops;
    if (flags & ~known)
        e = cudaErrorInvalidValue;
    else
        rt_g.device_flags = flags;
    return rt_end(e);
}

cudaError_t rt_get_device_flags(unsigned *flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!flags)
        e = cudaErrorInvalidValue;
    else
        *flags = rt_g.device_flags | cudaDeviceMapHost;  /* mapping is always on */
    return rt_end(e);
}

bool rt_context_reserve(size_t fifo, size_t stack)
{
    uint64_t resident = (uint64_t)rt_g.gpu->max_threads_per_sm * (uint64_t)rt_g.gpu->sm_count;
    if (stack && stack > UINT64_MAX / 2 / resident)
        return false;
    return emu_device_reserve((uint64_t)fifo + (uint64_t)stack * resident);
}

/* Device memory free now, for limits the device must set aside. */
static uint64_t device_free_bytes(void)
{
    uint64_t used = 0, total = 0;
    emu_device_mem_info(&used, &total);
    return total - used;
}

/* cudaDeviceSetLimit: a value is either carried out (cudaDeviceGetLimit then reports it) or
 * refused with the error the driver gives. */
cudaError_t rt_device_set_limit(enum cudaLimit limit, size_t value)
{
    const char *fn = "cudaDeviceSetLimit";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    uint64_t resident = (uint64_t)rt_g.gpu->max_threads_per_sm * (uint64_t)rt_g.gpu->sm_count;
    if (limit == cudaLimitMallocHeapSize || limit == cudaLimitPrintfFifoSize ||
        limit == cudaLimitStackSize)
        rt_wait_idle();   /* not while a kernel of the stream queues uses them */
    struct cudaDeviceProp p;
    fill_props(&p);
    /* The driver rounds these two up as an H100 with the 580 driver does (probed 2026-11-27):
     * the printf FIFO to a multiple of 256 bytes and at least 512 KiB (4096 and 0 read back
     * 524288, 524289 reads back 524544), the device heap to a multiple of 64 KiB and at least
     * 4 MiB (4096 and 1 MiB read back 4194304, 10000001 reads back 10027008). */
    if (limit == cudaLimitPrintfFifoSize)
        value = value < (512u << 10) ? 512u << 10 : (value + 255) / 256 * 256;
    else if (limit == cudaLimitMallocHeapSize)
        value = value < (4u << 20) ? 4u << 20 : (value + 0xffff) / 0x10000 * 0x10000;
    /* A value that names no limit is an invalid value to CUDA 13's runtime (seen on an H100:
     * tests/cuda/device_limits.cu's unknown_limit); cudaErrorUnsupportedLimit is for a limit
     * the device lacks. */
    if ((unsigned)limit >= RT_MAX_LIMITS) {
        e = rt_api_error(cudaErrorInvalidValue, fn, "%d is no cudaLimit", (int)limit);
    } else if (limit == cudaLimitStackSize && value > RT_LOCAL_PER_THREAD) {
        /* beyond the local memory a thread can have, whatever the device's size (an H100
         * with the CUDA 13.0 runtime refuses a 1 GiB stack so: huge_stack_refused) */
        e = rt_api_error(cudaErrorInvalidValue, fn,
                         "a stack of %zu bytes per thread (a thread has at most %u bytes of "
                         "local memory)", value, RT_LOCAL_PER_THREAD);
    } else if (limit == cudaLimitMaxL2FetchGranularity && value > 128) {
        e = rt_api_error(cudaErrorInvalidValue, fn,
                         "an L2 fetch granularity of %zu bytes (at most 128)", value);
    } else if (limit == cudaLimitPersistingL2CacheSize && rt_g.gpu->major < 8 && value) {
        e = rt_api_error(cudaErrorUnsupportedLimit, fn,
                         "no persisting L2 cache before compute capability 8.0");
    } else if (limit == cudaLimitPersistingL2CacheSize &&
               value > (size_t)p.persistingL2CacheMaxSize) {
        /* refused rather than clamped (an H100 with the CUDA 13.0 runtime refuses 4 times its
         * L2: tests/cuda/stream_attributes.cu's l2_persisting_limit) */
        e = rt_api_error(cudaErrorInvalidValue, fn,
                         "a persisting L2 set-aside of %zu bytes (the device allows %d: "
                         "cudaDevAttrMaxPersistingL2CacheSize)",
                         value, p.persistingL2CacheMaxSize);
    } else if ((limit == cudaLimitMallocHeapSize && emu_heap_in_use()) ||
               (limit == cudaLimitPrintfFifoSize && emu_output_in_use())) {
        /* fixed once a kernel has used the heap / printed, until cudaDeviceReset */
        e = rt_api_error(cudaErrorInvalidValue, fn,
                         "the %s cannot change once a kernel has used it (until "
                         "cudaDeviceReset)",
                         limit == cudaLimitMallocHeapSize ? "device heap" : "printf FIFO");
    } else if (limit == cudaLimitStackSize &&
               !rt_context_reserve(rt_g.limits[cudaLimitPrintfFifoSize], value)) {
        /* the driver sets the stack aside for every thread the GPU holds at once */
        e = rt_api_error(cudaErrorMemoryAllocation, fn,
                         "a stack of %zu bytes per thread for the %llu threads the GPU holds at "
                         "once does not fit in the %llu bytes of device memory free",
                         value, (unsigned long long)resident,
                         (unsigned long long)device_free_bytes());
    } else if (limit == cudaLimitPrintfFifoSize &&
               !rt_context_reserve(value, rt_g.limits[cudaLimitStackSize])) {
        e = rt_api_error(cudaErrorMemoryAllocation, fn,
                         "a printf FIFO of %zu bytes does not fit in the %llu bytes of device "
                         "memory free", value, (unsigned long long)device_free_bytes());
    } else if (limit == cudaLimitMallocHeapSize && !emu_heap_set_size(value)) {
        e = rt_api_error(cudaErrorMemoryAllocation, fn,
                         "a device heap of %zu bytes does not fit in the %llu bytes of device "
                         "memory free", value, (unsigned long long)device_free_bytes());
    } else {
        rt_g.limits[limit] = value;
        if (limit == cudaLimitPrintfFifoSize)
            emu_output_set_fifo_size(value);
    }
    return rt_end(e);
}

cudaError_t rt_device_get_limit(size_t *value, enum cudaLimit limit)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!value || (unsigned)limit >= RT_MAX_LIMITS)  /* no cudaLimit: as cudaDeviceSetLimit */
        e = cudaErrorInvalidValue;
    else
        *value = rt_g.limits[limit];
    return rt_end(e);
}

cudaError_t rt_driver_get_version(int *version)
{
    if (!version)
        return rt_record(cudaErrorInvalidValue);
    *version = CUDART_VERSION;  /* the driver a CUDA 13.0 runtime needs */
    return cudaSuccess;
}

cudaError_t rt_runtime_get_version(int *version)
{
    if (!version)
        return rt_record(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t rt_choose_device(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return rt_record(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
