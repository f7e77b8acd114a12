/* device.c: initialisation, the one device and its attributes, versions, and the driver's
 * error codes (their names and messages, and the translation from the runtime's). */
#include "libcuda-shim/driver.h"

#include <cudaProfiler.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool initialized;

CUresult drv_initialized(void)
{
    if (__atomic_load_n(&initialized, __ATOMIC_ACQUIRE))
        return CUDA_SUCCESS;
    /* A program that used the runtime API has an initialised driver (the runtime calls cuInit
     * on its first call): driver functions it reaches through cudaGetDriverEntryPoint work. */
    int active = 0;
    rt_primary_state(NULL, &active);
    return active ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult drv_context(void)
{
    DRV_CHECK(drv_initialized());
    rt_context *c = rt_ctx_current();
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    return rt_ctx_live(c) ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

CUresult drv_result(cudaError_t e)
{
    if (e >= 100)
        return e == cudaErrorSoftwareValidityNotEstablished || e == cudaErrorStartupFailure
                   ? CUDA_ERROR_UNKNOWN
                   : (CUresult)e;
    switch (e) {
    case cudaSuccess: return CUDA_SUCCESS;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidHostPointer:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorInvalidChannelDescriptor:
    case cudaErrorInvalidTexture:
    case cudaErrorInvalidFilterSetting:
    case cudaErrorInvalidNormSetting:
    case cudaErrorMissingConfiguration:
        return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorMemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorInitializationError: return CUDA_ERROR_NOT_INITIALIZED;
    case cudaErrorCudartUnloading: return CUDA_ERROR_DEINITIALIZED;
    case cudaErrorProfilerDisabled: return CUDA_ERROR_PROFILER_DISABLED;
    case cudaErrorInvalidSymbol: return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidDeviceFunction: return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorNotYetImplemented: return CUDA_ERROR_NOT_SUPPORTED;
    case cudaErrorLaunchPendingCountExceeded: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    default: return CUDA_ERROR_UNKNOWN;
    }
}

/* ---------------------------------------------------------------- error names and messages */

static const struct { CUresult e; const char *name; } cu_errors[] = {
#define CU_ERROR(x) {x, #x},
#include "libcuda-shim/cu_errors.def"
#undef CU_ERROR
};

static const char *error_name(CUresult e)
{
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].e == e)
            return cu_errors[i].name;
    return NULL;
}

const char *drv_error_name(cudaError_t e)
{
    const char *name = error_name(drv_result(e));
    return name ? name : "CUDA_ERROR_UNKNOWN";
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = error_name(error);
    return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    if (!error_name(error)) {
        *pStr = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* The runtime's message for the same number says the same thing (the codes agree from
     * 100 on, and 0-8 mean the same); below 100 the driver's own words for its few codes. */
    switch (error) {
    case CUDA_SUCCESS: *pStr = "no error"; break;
    case CUDA_ERROR_INVALID_VALUE: *pStr = "invalid argument"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *pStr = "out of memory"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *pStr = "initialization error"; break;
    case CUDA_ERROR_DEINITIALIZED: *pStr = "driver shutting down"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *pStr = "invalid device context"; break;
    case CUDA_ERROR_INVALID_HANDLE: *pStr = "invalid resource handle"; break;
    case CUDA_ERROR_NOT_FOUND: *pStr = "named symbol not found"; break;
    default: *pStr = rt_error_string((cudaError_t)error); break;
    }
    return CUDA_SUCCESS;
}

CUresult drv_unsupported(const char *function)
{
    static const char *said[256];
    static size_t nsaid;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    bool seen = false;
    for (size_t i = 0; i < nsaid && !seen; i++)
        seen = strcmp(said[i], function) == 0;
    if (!seen && nsaid < sizeof said / sizeof said[0])
        said[nsaid++] = function;
    pthread_mutex_unlock(&lock);
    if (!seen)
        fprintf(stderr, "ptxsim: %s is not supported by ptxsim (CUDA_ERROR_NOT_SUPPORTED)\n",
                function);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---------------------------------------------------------------- initialisation, versions */

CUresult cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    __atomic_store_n(&initialized, true, __ATOMIC_RELEASE);
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- the device */

static CUresult check_device(CUdevice dev)
{
    DRV_CHECK(drv_initialized());
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    DRV_CHECK(drv_initialized());
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    DRV_CHECK(drv_initialized());
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = DRV(rt_get_device_properties(&p, 0));
    if (r == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "%s", p.name);
    return r;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = DRV(rt_get_device_properties(&p, 0));
    if (r == CUDA_SUCCESS)
        memcpy(uuid->bytes, p.uuid.bytes, sizeof uuid->bytes);
    return r;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return cuDeviceGetUuid(uuid, dev);
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = DRV(rt_get_device_properties(&p, 0));
    if (r == CUDA_SUCCESS)
        *bytes = p.totalGlobalMem;
    return r;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    /* cudaDeviceAttr numbers the attributes as CUdevice_attribute does. */
    return DRV(rt_device_get_attribute(pi, (enum cudaDeviceAttr)attrib, 0));
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    return r == CUDA_SUCCESS
               ? cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
               : r;
}

CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!prop)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = DRV(rt_get_device_properties(&p, 0));
    if (r != CUDA_SUCCESS)
        return r;
    int clock = 0;
    cuDeviceGetAttribute(&clock, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
    prop->maxThreadsPerBlock = p.maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = p.maxThreadsDim[i];
        prop->maxGridSize[i] = p.maxGridSize[i];
    }
    prop->sharedMemPerBlock = (int)p.sharedMemPerBlock;
    prop->totalConstantMemory = (int)p.totalConstMem;
    prop->SIMDWidth = p.warpSize;
    prop->memPitch = (int)p.memPitch;
    prop->regsPerBlock = p.regsPerBlock;
    prop->clockRate = clock;
    prop->textureAlign = (int)p.textureAlignment;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!pciBusId || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(pciBusId, (size_t)len, "0000:01:00.0");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    DRV_CHECK(drv_initialized());
    if (!dev || !pciBusId)
        return CUDA_ERROR_INVALID_VALUE;
    if (strcasecmp(pciBusId, "0000:01:00.0") != 0 && strcasecmp(pciBusId, "01:00.0") != 0 &&
        strcasecmp(pciBusId, "0000:01:00") != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    DRV_CHECK(check_device(dev));
    DRV_CHECK(check_device(peerDev));
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    *canAccessPeer = 0;  /* one device: it has no peer */
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                 CUdevice dstDevice)
{
    DRV_CHECK(check_device(srcDevice));
    DRV_CHECK(check_device(dstDevice));
    (void)attrib;
    (void)value;
    return CUDA_ERROR_INVALID_DEVICE;  /* a device is not its own peer */
}

CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format,
                                            unsigned numChannels, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    struct cudaChannelFormatDesc d;
    if (!maxWidthInElements || !drv_format_desc(format, numChannels, &d))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_texture_1d_linear_max_width(maxWidthInElements, &d, 0));
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    return DRV(rt_device_get_mem_pool((cudaMemPool_t *)pool_out, 0, true));
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    return DRV(rt_device_get_mem_pool((cudaMemPool_t *)pool, 0, false));
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    DRV_CHECK(check_device(dev));
    return DRV(rt_device_set_mem_pool(0, (cudaMemPool_t)pool));
}

CUresult cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev)
{
    DRV_CHECK(check_device(dev));
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    (void)type;
    *pi = 0;  /* SM partitions (MPS affinity) are not modelled */
    return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- array formats */

bool drv_format_desc(CUarray_format format, unsigned n, struct cudaChannelFormatDesc *desc)
{
    if (n != 1 && n != 2 && n != 4)
        return false;
    int bits;
    enum cudaChannelFormatKind kind;
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: bits = 16; kind = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32; kind = cudaChannelFormatKindFloat; break;
    default: return false;
    }
    *desc = (struct cudaChannelFormatDesc){bits, n >= 2 ? bits : 0, n >= 4 ? bits : 0,
                                           n >= 4 ? bits : 0, kind};
    return true;
}

bool drv_desc_format(const struct cudaChannelFormatDesc *d, CUarray_format *format, unsigned *n)
{
    *n = d->w ? 4 : d->z ? 3 : d->y ? 2 : 1;
    switch (d->f) {
    case cudaChannelFormatKindUnsigned:
        *format = d->x == 8 ? CU_AD_FORMAT_UNSIGNED_INT8
                  : d->x == 16 ? CU_AD_FORMAT_UNSIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT32;
        return d->x == 8 || d->x == 16 || d->x == 32;
    case cudaChannelFormatKindSigned:
        *format = d->x == 8 ? CU_AD_FORMAT_SIGNED_INT8
                  : d->x == 16 ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_SIGNED_INT32;
        return d->x == 8 || d->x == 16 || d->x == 32;
    case cudaChannelFormatKindFloat:
        *format = d->x == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
        return d->x == 16 || d->x == 32;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- profiler ranges
 * They mark regions for an external profiler; there is none to tell. */

CUresult cuProfilerInitialize(const char *configFile, const char *outputFile,
                              CUoutput_mode outputMode)
{
    (void)configFile;
    (void)outputFile;
    (void)outputMode;
    return CUDA_SUCCESS;
}

CUresult cuProfilerStart(void)
{
    return drv_context();
}

CUresult cuProfilerStop(void)
{
    return drv_context();
}

CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                    CUflushGPUDirectRDMAWritesScope scope)
{
    DRV_CHECK(drv_context());
    (void)scope;
    /* No third-party device writes into ptxsim's memory: nothing is in flight. */
    return target == CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ? CUDA_SUCCESS
                                                                        : CUDA_ERROR_INVALID_VALUE;
}

/* ---------------------------------------------------------------- private export tables */

CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    (void)pExportTableId;
    /* NVIDIA's undocumented tables between its own libraries and its driver. NVRTC and others
     * probe them and carry on without; saying so on every NVRTC compilation would only alarm,
     * so it is said at PTXSIM_VERBOSE=1. */
    if (ppExportTable)
        *ppExportTable = NULL;
    const char *v = getenv("PTXSIM_VERBOSE");
    if (v && atoi(v) >= 1)
        fprintf(stderr, "ptxsim: cuGetExportTable: NVIDIA's private driver tables are not "
                        "provided (CUDA_ERROR_NOT_SUPPORTED)\n");
    return CUDA_ERROR_NOT_SUPPORTED;
}
