/* memory.c: allocation, copies, fills, arrays, memory pools and symbol access. Copies and
 * fills are queued on their stream (or recorded, when the stream captures); the runtime tells
 * an Async form from its synchronous one by the name it is given, and waits as CUDA's does
 * (runtime/copy.c). The per-thread default-stream forms (_ptds, _ptsz) are the same
 * functions. */
#include "libcudart-shim/shim.h"

#define SAME_AS(name, target) extern __typeof__(target) name __attribute__((alias(#target)))

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    return rt_malloc(devPtr, size);
}

cudaError_t cudaFree(void *devPtr)
{
    return rt_free(devPtr);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    return rt_malloc_managed(devPtr, size, flags);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    return rt_malloc_pitch(devPtr, pitch, width, height);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    return rt_malloc_3d(pitchedDevPtr, extent);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return rt_host_alloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    return rt_host_alloc(pHost, size, flags);
}

cudaError_t cudaFreeHost(void *ptr)
{
    return rt_free_host(ptr);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    return rt_host_register(ptr, size, flags);
}

cudaError_t cudaHostUnregister(void *ptr)
{
    return rt_host_unregister(ptr);
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    return rt_host_get_device_pointer(pDevice, pHost, flags);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    struct cudaPointerAttributes a;
    cudaError_t e = rt_pointer_get_attributes(&a, pHost);
    if (e != cudaSuccess)
        return e;
    if (!pFlags || a.type != cudaMemoryTypeHost)
        return cudaErrorInvalidValue;
    *pFlags = cudaHostAllocMapped | cudaHostAllocPortable;  /* unified addressing: both */
    return cudaSuccess;
}

/* ---------------------------------------------------------------- copies */

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy(dst, src, count, kind, 0, "cudaMemcpy");
}
SAME_AS(cudaMemcpy_ptds, cudaMemcpy);

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    return rt_memcpy(dst, src, count, kind, stream, "cudaMemcpyAsync");
}
SAME_AS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count)
{
    return rt_memcpy_peer(dst, dstDevice, src, srcDevice, count, 0, "cudaMemcpyPeer");
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream)
{
    return rt_memcpy_peer(dst, dstDevice, src, srcDevice, count, stream, "cudaMemcpyPeerAsync");
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    return rt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind, 0, "cudaMemcpy2D");
}
SAME_AS(cudaMemcpy2D_ptds, cudaMemcpy2D);

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    return rt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream,
                        "cudaMemcpy2DAsync");
}
SAME_AS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return rt_memcpy_3d(p, 0, "cudaMemcpy3D");
}
SAME_AS(cudaMemcpy3D_ptds, cudaMemcpy3D);

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_memcpy_3d(p, stream, "cudaMemcpy3DAsync");
}
SAME_AS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync);

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    return rt_memcpy_3d_peer(p, 0, "cudaMemcpy3DPeer");
}
SAME_AS(cudaMemcpy3DPeer_ptds, cudaMemcpy3DPeer);

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return rt_memcpy_3d_peer(p, stream, "cudaMemcpy3DPeerAsync");
}
SAME_AS(cudaMemcpy3DPeerAsync_ptsz, cudaMemcpy3DPeerAsync);

/* ---------------------------------------------------------------- arrays */

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags)
{
    return rt_malloc_array(array, desc, width, height, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags)
{
    return rt_malloc_3d_array(array, desc, extent, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    return rt_free_array(array);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array)
{
    return rt_array_get_info(desc, extent, flags, array);
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    return rt_get_channel_desc(desc, array);
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int numLevels,
                                     unsigned int flags)
{
    return rt_malloc_mipmapped_array(mipmappedArray, desc, extent, numLevels, flags);
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                       cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level)
{
    return rt_get_mipmapped_array_level(levelArray, mipmappedArray, level);
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    return rt_free_mipmapped_array(mipmappedArray);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind)
{
    return rt_memcpy_2d_array(dst, wOffset, hOffset, NULL, 0, NULL, 0, 0, src, spitch, width,
                              height, kind, 0, "cudaMemcpy2DToArray");
}
SAME_AS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray);

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
    return rt_memcpy_2d_array(dst, wOffset, hOffset, NULL, 0, NULL, 0, 0, src, spitch, width,
                              height, kind, stream, "cudaMemcpy2DToArrayAsync");
}
SAME_AS(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync);

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind)
{
    return rt_memcpy_2d_array(NULL, 0, 0, dst, dpitch, src, wOffset, hOffset, NULL, 0, width,
                              height, kind, 0, "cudaMemcpy2DFromArray");
}
SAME_AS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray);

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    return rt_memcpy_2d_array(NULL, 0, 0, dst, dpitch, src, wOffset, hOffset, NULL, 0, width,
                              height, kind, stream, "cudaMemcpy2DFromArrayAsync");
}
SAME_AS(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync);

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc,
                                     size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind)
{
    return rt_memcpy_2d_array(dst, wOffsetDst, hOffsetDst, NULL, 0, src, wOffsetSrc, hOffsetSrc,
                              NULL, 0, width, height, kind, 0, "cudaMemcpy2DArrayToArray");
}
SAME_AS(cudaMemcpy2DArrayToArray_ptds, cudaMemcpy2DArrayToArray);

/* Deprecated in CUDA's headers, still exported and still called. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy_array_linear(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind, 0,
                                  "cudaMemcpyToArray");
}
SAME_AS(cudaMemcpyToArray_ptds, cudaMemcpyToArray);

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream)
{
    return rt_memcpy_array_linear(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                                  stream, "cudaMemcpyToArrayAsync");
}
SAME_AS(cudaMemcpyToArrayAsync_ptsz, cudaMemcpyToArrayAsync);

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy_array_linear(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind, 0,
                                  "cudaMemcpyFromArray");
}
SAME_AS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray);

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
    return rt_memcpy_array_linear(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind,
                                  stream, "cudaMemcpyFromArrayAsync");
}
SAME_AS(cudaMemcpyFromArrayAsync_ptsz, cudaMemcpyFromArrayAsync);

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy_array_linear(dst, wOffsetDst, hOffsetDst, NULL, src, wOffsetSrc,
                                  hOffsetSrc, NULL, count, kind, 0, "cudaMemcpyArrayToArray");
}
SAME_AS(cudaMemcpyArrayToArray_ptds, cudaMemcpyArrayToArray);
#pragma GCC diagnostic pop

/* ---------------------------------------------------------------- fills */

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_memset(devPtr, value, count, 0, "cudaMemset");
}
SAME_AS(cudaMemset_ptds, cudaMemset);

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return rt_memset(devPtr, value, count, stream, "cudaMemsetAsync");
}
SAME_AS(cudaMemsetAsync_ptsz, cudaMemsetAsync);

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_memset_3d(devPtr, pitch, 0, value, width, height, 1, 0, "cudaMemset2D");
}
SAME_AS(cudaMemset2D_ptds, cudaMemset2D);

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream)
{
    return rt_memset_3d(devPtr, pitch, 0, value, width, height, 1, stream, "cudaMemset2DAsync");
}
SAME_AS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);

cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent extent)
{
    return rt_memset_3d(p.ptr, p.pitch, p.ysize, value, extent.width, extent.height,
                        extent.depth, 0, "cudaMemset3D");
}
SAME_AS(cudaMemset3D_ptds, cudaMemset3D);

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    return rt_memset_3d(p.ptr, p.pitch, p.ysize, value, extent.width, extent.height,
                        extent.depth, stream, "cudaMemset3DAsync");
}
SAME_AS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync);

/* ---------------------------------------------------------------- symbols */

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return rt_memcpy_to_symbol(symbol, src, count, offset, kind, 0, "cudaMemcpyToSymbol");
}
SAME_AS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol);

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return rt_memcpy_from_symbol(dst, symbol, count, offset, kind, 0, "cudaMemcpyFromSymbol");
}
SAME_AS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol);

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_memcpy_to_symbol(symbol, src, count, offset, kind, stream,
                               "cudaMemcpyToSymbolAsync");
}
SAME_AS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync);

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_memcpy_from_symbol(dst, symbol, count, offset, kind, stream,
                                 "cudaMemcpyFromSymbolAsync");
}
SAME_AS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync);

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    return rt_get_symbol_address(devPtr, symbol);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    return rt_get_symbol_size(size, symbol);
}

/* ---------------------------------------------------------------- queries and hints */

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    return rt_mem_get_info(free, total);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    return rt_pointer_get_attributes(attributes, ptr);
}

/* Managed memory is always where both sides can see it: hints have nothing to move. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    (void)devPtr;
    (void)count;
    (void)location;
    (void)flags;
    if (shim_cuda12_abi)  /* CUDA 12: (ptr, count, int device, stream): stream is lost here */
        return cudaSuccess;
    return rt_stream_check(stream);
}
SAME_AS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync);

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    (void)devPtr;
    (void)count;
    (void)advice;
    (void)location;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- stream-ordered allocation */

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    return rt_malloc_async(devPtr, size, NULL, hStream);
}
SAME_AS(cudaMallocAsync_ptsz, cudaMallocAsync);

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream)
{
    if (!memPool)
        return cudaErrorInvalidValue;
    return rt_malloc_async(ptr, size, memPool, stream);
}
SAME_AS(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    return rt_free_async(devPtr, hStream);
}
SAME_AS(cudaFreeAsync_ptsz, cudaFreeAsync);

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    return rt_device_get_mem_pool(memPool, device, true);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    return rt_device_get_mem_pool(memPool, device, false);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    return rt_device_set_mem_pool(device, memPool);
}

/* The CUDA 13 forms that name a location: device 0's pools. */
static int location_device(const struct cudaMemLocation *location)
{
    return location && location->type == cudaMemLocationTypeDevice ? location->id : -1;
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type)
{
    if (type != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    return rt_device_get_mem_pool(memPool, location_device(location), true);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                              enum cudaMemAllocationType type)
{
    if (type != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    return rt_device_get_mem_pool(memPool, location_device(location), false);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                              cudaMemPool_t memPool)
{
    if (type != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    return rt_device_set_mem_pool(location_device(location), memPool);
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    return rt_mem_pool_create(memPool, poolProps);
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    return rt_mem_pool_destroy(memPool);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    return rt_mem_pool_trim_to(memPool, minBytesToKeep);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                    void *value)
{
    return rt_mem_pool_attribute(memPool, attr, value, true);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                    void *value)
{
    return rt_mem_pool_attribute(memPool, attr, value, false);
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count)
{
    return rt_mem_pool_access(memPool, NULL, descList, count, true);
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location)
{
    (void)location;
    return rt_mem_pool_access(memPool, flags, NULL, 0, false);
}
