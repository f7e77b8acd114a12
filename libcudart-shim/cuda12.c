/* cuda12.c: what a CUDA 12 program asks of libcudart.so.12 beyond CUDA 13's entry points:
 * the CUDA 12 layout of cudaDeviceProp (CUDA 13 dropped its deprecated fields, which moved the
 * rest), the _v2/_v3 names CUDA 12 gave the graph-edge and capture calls that CUDA 13 folded
 * back into the plain names, and the long-deprecated cudaThread* calls. The plain names whose
 * arguments changed read them the CUDA 12 way when shim_cuda12_abi is set (graph.c,
 * streams.c, memory.c).
 */
#include "libcudart-shim/shim.h"

#include <dlfcn.h>
#include <string.h>

bool shim_cuda12_abi;

/* Loaded as libcudart.so.12 (ptxsim run preloads that name for a program that needs it), or
 * as libcudart.so.11.0: the runtime answers as those runtimes did where CUDA 13's differs.
 * static_attach.c sets the flag too when the static runtime it redirects is CUDA 12's. */
__attribute__((constructor(102))) static void detect_cuda12(void)
{
    Dl_info info;
    if (dladdr((void *)detect_cuda12, &info) && info.dli_fname) {
        size_t n = strlen(info.dli_fname);
        if (n >= 6 && strcmp(info.dli_fname + n - 6, ".so.12") == 0) {
            shim_cuda12_abi = true;
            rt_set_program_runtime_major(12);
        } else if (n >= 8 && strcmp(info.dli_fname + n - 8, ".so.11.0") == 0) {
            rt_set_program_runtime_major(11);
        }
    }
}

/* cudaDeviceProp as CUDA 12.0 to 12.9 declare it (driver_types.h). */
struct cuda12_device_prop {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved[63];
};

cudaError_t shim_device_properties12(void *out, int device);

cudaError_t shim_device_properties12(void *out, int device)
{
    struct cudaDeviceProp p;
    if (!out)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_get_device_properties(&p, device);
    if (e != cudaSuccess)
        return e;
    struct cuda12_device_prop *q = out;
    memset(q, 0, sizeof *q);
#define SAME(f) memcpy(&q->f, &p.f, sizeof q->f)
    SAME(name); SAME(uuid); SAME(luid); SAME(luidDeviceNodeMask); SAME(totalGlobalMem);
    SAME(sharedMemPerBlock); SAME(regsPerBlock); SAME(warpSize); SAME(memPitch);
    SAME(maxThreadsPerBlock); SAME(maxThreadsDim); SAME(maxGridSize); SAME(totalConstMem);
    SAME(major); SAME(minor); SAME(textureAlignment); SAME(texturePitchAlignment);
    SAME(multiProcessorCount); SAME(integrated); SAME(canMapHostMemory); SAME(maxTexture1D);
    SAME(maxTexture1DMipmap); SAME(maxTexture2D); SAME(maxTexture2DMipmap);
    SAME(maxTexture2DLinear); SAME(maxTexture2DGather); SAME(maxTexture3D);
    SAME(maxTexture3DAlt); SAME(maxTextureCubemap); SAME(maxTexture1DLayered);
    SAME(maxTexture2DLayered); SAME(maxTextureCubemapLayered); SAME(maxSurface1D);
    SAME(maxSurface2D); SAME(maxSurface3D); SAME(maxSurface1DLayered);
    SAME(maxSurface2DLayered); SAME(maxSurfaceCubemap); SAME(maxSurfaceCubemapLayered);
    SAME(surfaceAlignment); SAME(concurrentKernels); SAME(ECCEnabled); SAME(pciBusID);
    SAME(pciDeviceID); SAME(pciDomainID); SAME(tccDriver); SAME(asyncEngineCount);
    SAME(unifiedAddressing); SAME(memoryBusWidth); SAME(l2CacheSize);
    SAME(persistingL2CacheMaxSize); SAME(maxThreadsPerMultiProcessor);
    SAME(streamPrioritiesSupported); SAME(globalL1CacheSupported); SAME(localL1CacheSupported);
    SAME(sharedMemPerMultiprocessor); SAME(regsPerMultiprocessor); SAME(managedMemory);
    SAME(isMultiGpuBoard); SAME(multiGpuBoardGroupID); SAME(hostNativeAtomicSupported);
    SAME(pageableMemoryAccess); SAME(concurrentManagedAccess); SAME(computePreemptionSupported);
    SAME(canUseHostPointerForRegisteredMem); SAME(cooperativeLaunch);
    SAME(sharedMemPerBlockOptin); SAME(pageableMemoryAccessUsesHostPageTables);
    SAME(directManagedMemAccessFromHost); SAME(maxBlocksPerMultiProcessor);
    SAME(accessPolicyMaxWindowSize); SAME(reservedSharedMemPerBlock);
    SAME(hostRegisterSupported); SAME(sparseCudaArraySupported);
    SAME(hostRegisterReadOnlySupported); SAME(timelineSemaphoreInteropSupported);
    SAME(memoryPoolsSupported); SAME(gpuDirectRDMASupported);
    SAME(gpuDirectRDMAFlushWritesOptions); SAME(gpuDirectRDMAWritesOrdering);
    SAME(memoryPoolSupportedHandleTypes); SAME(deferredMappingCudaArraySupported);
    SAME(ipcEventSupported); SAME(clusterLaunch); SAME(unifiedFunctionPointers);
#undef SAME
    /* The fields CUDA 13 removed, from the attributes that still answer them. */
    int v = 0;
    if (rt_device_get_attribute(&v, cudaDevAttrClockRate, device) == cudaSuccess)
        q->clockRate = v;
    if (rt_device_get_attribute(&v, cudaDevAttrMemoryClockRate, device) == cudaSuccess)
        q->memoryClockRate = v;
    q->deviceOverlap = 1;
    q->kernelExecTimeoutEnabled = 0;
    q->computeMode = cudaComputeModeDefault;
    q->maxTexture1DLinear = 1 << 27;
    q->singleToDoublePrecisionPerfRatio = 2;
    q->cooperativeMultiDeviceLaunch = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties_v2(void *prop, int device);

cudaError_t cudaGetDeviceProperties_v2(void *prop, int device)
{
    return shim_device_properties12(prop, device);
}

/* ---------------------------------------------------------------- graph edges with data */

cudaError_t cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                 cudaGraphEdgeData *edgeData, size_t *numEdges);
cudaError_t cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                            cudaGraphEdgeData *edgeData, size_t *count);
cudaError_t cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node, cudaGraphNode_t *nodes,
                                              cudaGraphEdgeData *edgeData, size_t *count);
cudaError_t cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t n);
cudaError_t cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                           const cudaGraphNode_t *to,
                                           const cudaGraphEdgeData *edgeData, size_t n);

cudaError_t cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                 cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    return rt_graph_get_edges(graph, from, to, edgeData, numEdges);
}

cudaError_t cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                            cudaGraphEdgeData *edgeData, size_t *count)
{
    return rt_graph_node_get_edges(node, deps, edgeData, count, false);
}

cudaError_t cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node, cudaGraphNode_t *nodes,
                                              cudaGraphEdgeData *edgeData, size_t *count)
{
    return rt_graph_node_get_edges(node, nodes, edgeData, count, true);
}

cudaError_t cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t n)
{
    (void)edgeData;
    return rt_graph_dependencies(graph, from, to, n, true);
}

cudaError_t cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                           const cudaGraphNode_t *to,
                                           const cudaGraphEdgeData *edgeData, size_t n)
{
    (void)edgeData;
    return rt_graph_dependencies(graph, from, to, n, false);
}

/* ---------------------------------------------------------------- capture queries */

cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                        enum cudaStreamCaptureStatus *status,
                                        unsigned long long *id, cudaGraph_t *graph,
                                        const cudaGraphNode_t **deps, size_t *ndeps);
cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
                                        enum cudaStreamCaptureStatus *status,
                                        unsigned long long *id, cudaGraph_t *graph,
                                        const cudaGraphNode_t **deps,
                                        const cudaGraphEdgeData **edgeData, size_t *ndeps);
cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *deps,
                                                   const cudaGraphEdgeData *edgeData, size_t n,
                                                   unsigned int flags);

cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                        enum cudaStreamCaptureStatus *status,
                                        unsigned long long *id, cudaGraph_t *graph,
                                        const cudaGraphNode_t **deps, size_t *ndeps)
{
    return rt_stream_get_capture_info(stream, status, id, graph, deps, ndeps);
}

cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
                                        enum cudaStreamCaptureStatus *status,
                                        unsigned long long *id, cudaGraph_t *graph,
                                        const cudaGraphNode_t **deps,
                                        const cudaGraphEdgeData **edgeData, size_t *ndeps)
{
    if (edgeData)
        *edgeData = NULL;
    return rt_stream_get_capture_info(stream, status, id, graph, deps, ndeps);
}

cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *deps,
                                                   const cudaGraphEdgeData *edgeData, size_t n,
                                                   unsigned int flags)
{
    (void)edgeData;
    return rt_stream_update_capture_dependencies(stream, deps, n, flags);
}

#define SAME_AS(name, target) extern __typeof__(target) name __attribute__((alias(#target)))
SAME_AS(cudaStreamGetCaptureInfo_v2_ptsz, cudaStreamGetCaptureInfo_v2);
SAME_AS(cudaStreamGetCaptureInfo_v3_ptsz, cudaStreamGetCaptureInfo_v3);
SAME_AS(cudaStreamUpdateCaptureDependencies_v2_ptsz, cudaStreamUpdateCaptureDependencies_v2);

/* ---------------------------------------------------------------- unified-memory hints */

cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                    struct cudaMemLocation location, unsigned int flags,
                                    cudaStream_t stream);
cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                             struct cudaMemLocation location);

cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                    struct cudaMemLocation location, unsigned int flags,
                                    cudaStream_t stream)
{
    (void)devPtr;
    (void)count;
    (void)location;
    (void)flags;
    return rt_stream_check(stream);
}
SAME_AS(cudaMemPrefetchAsync_v2_ptsz, cudaMemPrefetchAsync_v2);

cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                             struct cudaMemLocation location)
{
    (void)devPtr;
    (void)count;
    (void)advice;
    (void)location;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- deprecated thread calls */

cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaSetDoubleForDevice(double *d);
cudaError_t cudaSetDoubleForHost(double *d);

cudaError_t cudaThreadSynchronize(void)
{
    return rt_device_synchronize();
}

cudaError_t cudaThreadExit(void)
{
    return rt_device_reset();
}

cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
    return rt_device_set_limit(limit, value);
}

cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit)
{
    return rt_device_get_limit(value, limit);
}

cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config)
{
    if (!config)
        return cudaErrorInvalidValue;
    *config = cudaFuncCachePreferNone;
    return cudaSuccess;
}

cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config)
{
    return config <= cudaFuncCachePreferEqual ? cudaSuccess : cudaErrorInvalidValue;
}

/* Doubles need no conversion on a device that has them. */
cudaError_t cudaSetDoubleForDevice(double *d)
{
    return d ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaSetDoubleForHost(double *d)
{
    return d ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaLaunchCooperativeKernelMultiDevice(void *launchParamsList, unsigned int numDevices,
                                                   unsigned int flags);

cudaError_t cudaLaunchCooperativeKernelMultiDevice(void *launchParamsList, unsigned int numDevices,
                                                   unsigned int flags)
{
    (void)launchParamsList;
    (void)numDevices;
    (void)flags;
    return rt_unsupported("cudaLaunchCooperativeKernelMultiDevice");
}
