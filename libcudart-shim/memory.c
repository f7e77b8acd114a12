/* memory.c: allocation, copies, fills and symbol access. Work on a stream runs at once, so
 * the Async forms are the synchronous ones after a check of the stream; the per-thread
 * default-stream forms (_ptds, _ptsz) are the same functions. */
#include "runtime/rt.h"

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

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    cudaError_t e = rt_stream_check(hStream);
    return e != cudaSuccess ? e : rt_malloc(devPtr, size);
}
SAME_AS(cudaMallocAsync_ptsz, cudaMallocAsync);

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    cudaError_t e = rt_stream_check(hStream);
    return e != cudaSuccess ? e : rt_free(devPtr);
}
SAME_AS(cudaFreeAsync_ptsz, cudaFreeAsync);

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

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy(dst, src, count, kind);
}
SAME_AS(cudaMemcpy_ptds, cudaMemcpy);

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memcpy(dst, src, count, kind);
}
SAME_AS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count)
{
    if (dstDevice != 0 || srcDevice != 0)
        return cudaErrorInvalidDevice;
    return rt_memcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    return rt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind);
}
SAME_AS(cudaMemcpy2D_ptds, cudaMemcpy2D);

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind);
}
SAME_AS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_memset(devPtr, value, count);
}
SAME_AS(cudaMemset_ptds, cudaMemset);

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memset(devPtr, value, count);
}
SAME_AS(cudaMemsetAsync_ptsz, cudaMemsetAsync);

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_memset_2d(devPtr, pitch, value, width, height);
}
SAME_AS(cudaMemset2D_ptds, cudaMemset2D);

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memset_2d(devPtr, pitch, value, width, height);
}
SAME_AS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return rt_memcpy_to_symbol(symbol, src, count, offset, kind);
}
SAME_AS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol);

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return rt_memcpy_from_symbol(dst, symbol, count, offset, kind);
}
SAME_AS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol);

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memcpy_to_symbol(symbol, src, count, offset, kind);
}
SAME_AS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync);

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return e != cudaSuccess ? e : rt_memcpy_from_symbol(dst, symbol, count, offset, kind);
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
