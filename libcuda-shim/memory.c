/* memory.c: device, pitched, host (pinned, registered, mapped) and managed memory, every copy
 * and fill (synchronous, asynchronous, per-thread-stream variants), CUDA arrays, pointer
 * attributes, and stream-ordered allocation with memory pools. Each maps onto the runtime's
 * memory (runtime/memory.c, copy.c, arrays.c, mempool.c), which the runtime API shares. */
#include "libcuda-shim/driver.h"

#include <string.h>

#define DPTR(p) ((void *)(uintptr_t)(p))

_Static_assert(sizeof(CUmemPoolProps) == sizeof(struct cudaMemPoolProps),
               "CUmemPoolProps and cudaMemPoolProps are laid out alike");
_Static_assert(sizeof(CUmemAccessDesc) == sizeof(struct cudaMemAccessDesc),
               "CUmemAccessDesc and cudaMemAccessDesc are laid out alike");

/* ---------------------------------------------------------------- allocation */

CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    DRV_CHECK(drv_context());
    if (!free || !total)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_mem_get_info(free, total));
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    DRV_CHECK(drv_context());
    if (!dptr || !bytesize)  /* the driver refuses an empty allocation */
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc((void **)dptr, bytesize));
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    DRV_CHECK(drv_context());
    if (!dptr || !pPitch || !WidthInBytes || !Height ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_pitch((void **)dptr, pPitch, WidthInBytes, Height));
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    DRV_CHECK(drv_context());
    return DRV(rt_free(DPTR(dptr)));
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_range(DPTR(dptr), (void **)pbase, psize));
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    DRV_CHECK(drv_context());
    if (!pp || !bytesize)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_host_alloc(pp, bytesize, 0));
}

CUresult cuMemFreeHost(void *p)
{
    DRV_CHECK(drv_context());
    return DRV(rt_free_host(p));
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    if (!pp || !bytesize)
        return CUDA_ERROR_INVALID_VALUE;
    /* CU_MEMHOSTALLOC_PORTABLE / DEVICEMAP / WRITECOMBINED are cudaHostAlloc's bits. */
    return DRV(rt_host_alloc(pp, bytesize, Flags));
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_host_get_device_pointer((void **)pdptr, p, Flags));
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    DRV_CHECK(drv_context());
    if (!pFlags)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaPointerAttributes a;
    CUresult r = DRV(rt_pointer_get_attributes(&a, p));
    if (r != CUDA_SUCCESS)
        return r;
    if (a.type != cudaMemoryTypeHost)
        return CUDA_ERROR_INVALID_VALUE;
    *pFlags = CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE;  /* unified addressing */
    return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    DRV_CHECK(drv_context());
    if (!dptr || !bytesize)  /* the driver refuses an empty allocation (cuMemAllocManaged) */
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_managed((void **)dptr, bytesize, flags));
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                     CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
    if (Flags & ~known)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_host_register(p, bytesize, Flags));
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return cuMemHostRegister_v2(p, bytesize, Flags);
}

CUresult cuMemHostUnregister(void *p)
{
    DRV_CHECK(drv_context());
    return DRV(rt_host_unregister(p));
}

/* ---------------------------------------------------------------- linear copies */

static CUresult copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                     cudaStream_t stream, const char *api)
{
    DRV_CHECK(drv_context());
    return DRV(rt_memcpy(dst, src, n, kind, stream, api));
}

#define LINEAR_COPIES(suffix, stream_of)                                                     \
    CUresult cuMemcpy##suffix(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)             \
    {                                                                                         \
        return copy(DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, stream_of, "cuMemcpy"); \
    }                                                                                         \
    CUresult cuMemcpyHtoD_v2##suffix(CUdeviceptr dstDevice, const void *srcHost,              \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return copy(DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, stream_of,   \
                    "cuMemcpyHtoD");                                                          \
    }                                                                                         \
    CUresult cuMemcpyDtoH_v2##suffix(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)  \
    {                                                                                         \
        return copy(dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, stream_of,   \
                    "cuMemcpyDtoH");                                                          \
    }                                                                                         \
    CUresult cuMemcpyDtoD_v2##suffix(CUdeviceptr dstDevice, CUdeviceptr srcDevice,            \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,    \
                    stream_of, "cuMemcpyDtoD");                                               \
    }

LINEAR_COPIES(, 0)
/* _ptds: the synchronous copies of a program built for the per-thread default stream. */
LINEAR_COPIES(_ptds, cudaStreamPerThread)

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return copy(DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, hStream, "cuMemcpyAsync");
}
CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return copy(DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, PTSZ(hStream),
                "cuMemcpyAsync");
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                              CUstream hStream)
{
    return copy(DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream,
                "cuMemcpyHtoDAsync");
}
CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                   CUstream hStream)
{
    return copy(DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, PTSZ(hStream),
                "cuMemcpyHtoDAsync");
}
CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                              CUstream hStream)
{
    return copy(dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream,
                "cuMemcpyDtoHAsync");
}
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream)
{
    return copy(dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, PTSZ(hStream),
                "cuMemcpyDtoHAsync");
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                              CUstream hStream)
{
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream,
                "cuMemcpyDtoDAsync");
}
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                   size_t ByteCount, CUstream hStream)
{
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                PTSZ(hStream), "cuMemcpyDtoDAsync");
}

/* One device: every context is on it, so a peer copy is an ordinary one. */
static CUresult check_peer_contexts(CUcontext a, CUcontext b)
{
    if ((a && !rt_ctx_live((rt_context *)a)) || (b && !rt_ctx_live((rt_context *)b)))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_SUCCESS;
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                      CUcontext srcContext, size_t ByteCount)
{
    DRV_CHECK(check_peer_contexts(dstContext, srcContext));
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, 0,
                "cuMemcpyPeer");
}
CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount)
{
    DRV_CHECK(check_peer_contexts(dstContext, srcContext));
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                cudaStreamPerThread, "cuMemcpyPeer");
}
CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    DRV_CHECK(check_peer_contexts(dstContext, srcContext));
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream,
                "cuMemcpyPeerAsync");
}
CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext,
                                CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount,
                                CUstream hStream)
{
    DRV_CHECK(check_peer_contexts(dstContext, srcContext));
    return copy(DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                PTSZ(hStream), "cuMemcpyPeerAsync");
}

/* ---------------------------------------------------------------- array copies */

/* count bytes at byte offset `offset` of an array (its rows packed one after another). */
static CUresult array_copy(CUarray dst, size_t doff, void *dptr, CUarray src, size_t soff,
                           const void *sptr, size_t n, enum cudaMemcpyKind kind,
                           cudaStream_t stream, const char *api)
{
    DRV_CHECK(drv_context());
    return DRV(rt_memcpy_array_linear((cudaArray_t)dst, doff, 0, dptr, (cudaArray_const_t)src,
                                      soff, 0, sptr, n, kind, stream, api));
}

#define ARRAY_COPIES(suffix, stream_of)                                                      \
    CUresult cuMemcpyDtoA_v2##suffix(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return array_copy(dstArray, dstOffset, NULL, NULL, 0, DPTR(srcDevice), ByteCount,     \
                          cudaMemcpyDeviceToDevice, stream_of, "cuMemcpyDtoA");               \
    }                                                                                         \
    CUresult cuMemcpyAtoD_v2##suffix(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return array_copy(NULL, 0, DPTR(dstDevice), srcArray, srcOffset, NULL, ByteCount,     \
                          cudaMemcpyDeviceToDevice, stream_of, "cuMemcpyAtoD");               \
    }                                                                                         \
    CUresult cuMemcpyHtoA_v2##suffix(CUarray dstArray, size_t dstOffset, const void *srcHost, \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return array_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,             \
                          cudaMemcpyHostToDevice, stream_of, "cuMemcpyHtoA");                 \
    }                                                                                         \
    CUresult cuMemcpyAtoH_v2##suffix(void *dstHost, CUarray srcArray, size_t srcOffset,       \
                                     size_t ByteCount)                                        \
    {                                                                                         \
        return array_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,             \
                          cudaMemcpyDeviceToHost, stream_of, "cuMemcpyAtoH");                 \
    }                                                                                         \
    CUresult cuMemcpyAtoA_v2##suffix(CUarray dstArray, size_t dstOffset, CUarray srcArray,    \
                                     size_t srcOffset, size_t ByteCount)                      \
    {                                                                                         \
        return array_copy(dstArray, dstOffset, NULL, srcArray, srcOffset, NULL, ByteCount,    \
                          cudaMemcpyDeviceToDevice, stream_of, "cuMemcpyAtoA");               \
    }

ARRAY_COPIES(, 0)
ARRAY_COPIES(_ptds, cudaStreamPerThread)

CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                              size_t ByteCount, CUstream hStream)
{
    return array_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                      cudaMemcpyHostToDevice, hStream, "cuMemcpyHtoAAsync");
}
CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                   size_t ByteCount, CUstream hStream)
{
    return array_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                      cudaMemcpyHostToDevice, PTSZ(hStream), "cuMemcpyHtoAAsync");
}
CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount, CUstream hStream)
{
    return array_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                      cudaMemcpyDeviceToHost, hStream, "cuMemcpyAtoHAsync");
}
CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount, CUstream hStream)
{
    return array_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                      cudaMemcpyDeviceToHost, PTSZ(hStream), "cuMemcpyAtoHAsync");
}

/* ---------------------------------------------------------------- 2D and 3D copies */

static bool host_type(CUmemorytype t)
{
    return t == CU_MEMORYTYPE_HOST;
}

/* The direction the memory types name (unified: the runtime finds out). */
static enum cudaMemcpyKind kind_of(CUmemorytype src, CUmemorytype dst)
{
    if (src == CU_MEMORYTYPE_UNIFIED || dst == CU_MEMORYTYPE_UNIFIED)
        return cudaMemcpyDefault;
    if (host_type(src))
        return host_type(dst) ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice;
    return host_type(dst) ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
}

static bool valid_type(CUmemorytype t)
{
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_ARRAY ||
           t == CU_MEMORYTYPE_UNIFIED;
}

static const void *side_pointer(CUmemorytype t, const void *host, CUdeviceptr dev)
{
    return t == CU_MEMORYTYPE_HOST ? host : DPTR(dev);
}

static CUresult copy_2d(const CUDA_MEMCPY2D *p, cudaStream_t stream, const char *api)
{
    DRV_CHECK(drv_context());
    if (!p || !valid_type(p->srcMemoryType) || !valid_type(p->dstMemoryType))
        return CUDA_ERROR_INVALID_VALUE;
    bool sarr = p->srcMemoryType == CU_MEMORYTYPE_ARRAY,
         darr = p->dstMemoryType == CU_MEMORYTYPE_ARRAY;
    const char *s = sarr ? NULL : side_pointer(p->srcMemoryType, p->srcHost, p->srcDevice);
    char *d = darr ? NULL : (char *)side_pointer(p->dstMemoryType, p->dstHost, p->dstDevice);
    if (s)
        s += p->srcY * p->srcPitch + p->srcXInBytes;
    if (d)
        d += p->dstY * p->dstPitch + p->dstXInBytes;
    return DRV(rt_memcpy_2d_array(darr ? (cudaArray_t)p->dstArray : NULL, p->dstXInBytes,
                                  p->dstY, d, darr ? 0 : p->dstPitch,
                                  sarr ? (cudaArray_const_t)p->srcArray : NULL, p->srcXInBytes,
                                  p->srcY, s, sarr ? 0 : p->srcPitch, p->WidthInBytes,
                                  p->Height, kind_of(p->srcMemoryType, p->dstMemoryType),
                                  stream, api));
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, 0, "cuMemcpy2D");
}
CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, cudaStreamPerThread, "cuMemcpy2D");
}
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, 0, "cuMemcpy2DUnaligned");
}
CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, cudaStreamPerThread, "cuMemcpy2DUnaligned");
}
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, hStream, "cuMemcpy2DAsync");
}
CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, PTSZ(hStream), "cuMemcpy2DAsync");
}

/* Bytes per element of an array, or 0. */
static size_t array_elem(CUarray a)
{
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned flags;
    cudaError_t saved = rt_swap_last_error(cudaSuccess);
    cudaError_t err = rt_array_get_info(&d, &e, &flags, (cudaArray_const_t)a);
    rt_swap_last_error(saved);
    if (err != cudaSuccess)
        return 0;
    return (size_t)(d.x + d.y + d.z + d.w) / 8;
}

bool drv_memcpy3d_params(const CUDA_MEMCPY3D *p, struct cudaMemcpy3DParms *q)
{
    memset(q, 0, sizeof *q);
    if (!valid_type(p->srcMemoryType) || !valid_type(p->dstMemoryType) || p->srcLOD ||
        p->dstLOD)
        return false;
    size_t elem = 1;
    if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY)
        elem = array_elem(p->srcArray);
    else if (p->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        elem = array_elem(p->dstArray);
    if (!elem || p->WidthInBytes % elem || p->srcXInBytes % elem || p->dstXInBytes % elem)
        return false;
    if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY) {
        q->srcArray = (cudaArray_t)p->srcArray;
        q->srcPos = (struct cudaPos){p->srcXInBytes / elem, p->srcY, p->srcZ};
    } else {
        q->srcPtr = (struct cudaPitchedPtr){(void *)side_pointer(p->srcMemoryType, p->srcHost,
                                                                 p->srcDevice),
                                            p->srcPitch, p->WidthInBytes, p->srcHeight};
        q->srcPos = (struct cudaPos){p->srcXInBytes, p->srcY, p->srcZ};
    }
    if (p->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        q->dstArray = (cudaArray_t)p->dstArray;
        q->dstPos = (struct cudaPos){p->dstXInBytes / elem, p->dstY, p->dstZ};
    } else {
        q->dstPtr = (struct cudaPitchedPtr){(void *)side_pointer(p->dstMemoryType, p->dstHost,
                                                                 p->dstDevice),
                                            p->dstPitch, p->WidthInBytes, p->dstHeight};
        q->dstPos = (struct cudaPos){p->dstXInBytes, p->dstY, p->dstZ};
    }
    q->extent = (struct cudaExtent){p->WidthInBytes / elem, p->Height, p->Depth};
    q->kind = kind_of(p->srcMemoryType, p->dstMemoryType);
    return true;
}

static CUresult copy_3d(const CUDA_MEMCPY3D *p, cudaStream_t stream, const char *api)
{
    DRV_CHECK(drv_context());
    struct cudaMemcpy3DParms q;
    if (!p || !drv_memcpy3d_params(p, &q))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_memcpy_3d(&q, stream, api));
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
    return copy_3d(pCopy, 0, "cuMemcpy3D");
}
CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
    return copy_3d(pCopy, cudaStreamPerThread, "cuMemcpy3D");
}
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy_3d(pCopy, hStream, "cuMemcpy3DAsync");
}
CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy_3d(pCopy, PTSZ(hStream), "cuMemcpy3DAsync");
}

/* A peer copy's contexts are all on the one device: the same copy without them. */
static CUresult copy_3d_peer(const CUDA_MEMCPY3D_PEER *p, cudaStream_t stream, const char *api)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_CHECK(check_peer_contexts(p->dstContext, p->srcContext));
    CUDA_MEMCPY3D q = {
        .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
        .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcDevice = p->srcDevice,
        .srcArray = p->srcArray, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
        .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
        .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
        .dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
        .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth,
    };
    return copy_3d(&q, stream, api);
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy_3d_peer(pCopy, 0, "cuMemcpy3DPeer");
}
CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy_3d_peer(pCopy, cudaStreamPerThread, "cuMemcpy3DPeer");
}
CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, hStream, "cuMemcpy3DPeerAsync");
}
CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, PTSZ(hStream), "cuMemcpy3DPeerAsync");
}

/* ---------------------------------------------------------------- fills */

static CUresult fill(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned elem, size_t width,
                     size_t height, cudaStream_t stream, const char *api)
{
    DRV_CHECK(drv_context());
    return DRV(rt_memset_elems(DPTR(dst), pitch, value, elem, width, height, stream, api));
}

#define FILLS(suffix, stream_of)                                                             \
    CUresult cuMemsetD8_v2##suffix(CUdeviceptr dstDevice, unsigned char uc, size_t N)         \
    {                                                                                         \
        return fill(dstDevice, 0, uc, 1, N, 1, stream_of, "cuMemsetD8");                      \
    }                                                                                         \
    CUresult cuMemsetD16_v2##suffix(CUdeviceptr dstDevice, unsigned short us, size_t N)       \
    {                                                                                         \
        return fill(dstDevice, 0, us, 2, N, 1, stream_of, "cuMemsetD16");                     \
    }                                                                                         \
    CUresult cuMemsetD32_v2##suffix(CUdeviceptr dstDevice, unsigned int ui, size_t N)         \
    {                                                                                         \
        return fill(dstDevice, 0, ui, 4, N, 1, stream_of, "cuMemsetD32");                     \
    }                                                                                         \
    CUresult cuMemsetD2D8_v2##suffix(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, \
                                     size_t Width, size_t Height)                             \
    {                                                                                         \
        return fill(dstDevice, dstPitch, uc, 1, Width, Height, stream_of, "cuMemsetD2D8");    \
    }                                                                                         \
    CUresult cuMemsetD2D16_v2##suffix(CUdeviceptr dstDevice, size_t dstPitch,                 \
                                      unsigned short us, size_t Width, size_t Height)         \
    {                                                                                         \
        return fill(dstDevice, dstPitch, us, 2, Width, Height, stream_of, "cuMemsetD2D16");   \
    }                                                                                         \
    CUresult cuMemsetD2D32_v2##suffix(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, \
                                      size_t Width, size_t Height)                            \
    {                                                                                         \
        return fill(dstDevice, dstPitch, ui, 4, Width, Height, stream_of, "cuMemsetD2D32");   \
    }

FILLS(, 0)
FILLS(_ptds, cudaStreamPerThread)

#define ASYNC_FILLS(suffix, stream_expr)                                                     \
    CUresult cuMemsetD8Async##suffix(CUdeviceptr dstDevice, unsigned char uc, size_t N,       \
                                     CUstream hStream)                                        \
    {                                                                                         \
        return fill(dstDevice, 0, uc, 1, N, 1, stream_expr, "cuMemsetD8Async");               \
    }                                                                                         \
    CUresult cuMemsetD16Async##suffix(CUdeviceptr dstDevice, unsigned short us, size_t N,     \
                                      CUstream hStream)                                       \
    {                                                                                         \
        return fill(dstDevice, 0, us, 2, N, 1, stream_expr, "cuMemsetD16Async");              \
    }                                                                                         \
    CUresult cuMemsetD32Async##suffix(CUdeviceptr dstDevice, unsigned int ui, size_t N,       \
                                      CUstream hStream)                                       \
    {                                                                                         \
        return fill(dstDevice, 0, ui, 4, N, 1, stream_expr, "cuMemsetD32Async");              \
    }                                                                                         \
    CUresult cuMemsetD2D8Async##suffix(CUdeviceptr dstDevice, size_t dstPitch,                \
                                       unsigned char uc, size_t Width, size_t Height,         \
                                       CUstream hStream)                                      \
    {                                                                                         \
        return fill(dstDevice, dstPitch, uc, 1, Width, Height, stream_expr,                   \
                    "cuMemsetD2D8Async");                                                     \
    }                                                                                         \
    CUresult cuMemsetD2D16Async##suffix(CUdeviceptr dstDevice, size_t dstPitch,               \
                                        unsigned short us, size_t Width, size_t Height,       \
                                        CUstream hStream)                                     \
    {                                                                                         \
        return fill(dstDevice, dstPitch, us, 2, Width, Height, stream_expr,                   \
                    "cuMemsetD2D16Async");                                                    \
    }                                                                                         \
    CUresult cuMemsetD2D32Async##suffix(CUdeviceptr dstDevice, size_t dstPitch,               \
                                        unsigned int ui, size_t Width, size_t Height,         \
                                        CUstream hStream)                                     \
    {                                                                                         \
        return fill(dstDevice, dstPitch, ui, 4, Width, Height, stream_expr,                   \
                    "cuMemsetD2D32Async");                                                    \
    }

ASYNC_FILLS(, hStream)
ASYNC_FILLS(_ptsz, PTSZ(hStream))

/* ---------------------------------------------------------------- arrays */

CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *d)
{
    DRV_CHECK(drv_context());
    struct cudaChannelFormatDesc desc;
    if (!pHandle || !d || !d->Width || !drv_format_desc(d->Format, d->NumChannels, &desc))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_array((cudaArray_t *)pHandle, &desc, d->Width, d->Height, 0));
}

CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    DRV_CHECK(drv_context());
    struct cudaChannelFormatDesc desc;
    if (!pHandle || !d || !d->Width || !drv_format_desc(d->Format, d->NumChannels, &desc))
        return CUDA_ERROR_INVALID_VALUE;
    /* CUDA_ARRAY3D_LAYERED / SURFACE_LDST / CUBEMAP / TEXTURE_GATHER are cudaArray* bits. */
    return DRV(rt_malloc_3d_array((cudaArray_t *)pHandle, &desc,
                                  (struct cudaExtent){d->Width, d->Height, d->Depth}, d->Flags));
}

static CUresult describe(CUarray a, CUDA_ARRAY3D_DESCRIPTOR *out)
{
    DRV_CHECK(drv_context());
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned flags = 0, n = 0;
    CUresult r = DRV(rt_array_get_info(&d, &e, &flags, (cudaArray_const_t)a));
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_desc_format(&d, &out->Format, &n))
        return CUDA_ERROR_INVALID_VALUE;
    out->Width = e.width;
    out->Height = e.height;
    out->Depth = e.depth;
    out->NumChannels = n;
    out->Flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    if (!pArrayDescriptor)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = describe(hArray, &d);
    if (r == CUDA_SUCCESS)
        *pArrayDescriptor = (CUDA_ARRAY_DESCRIPTOR){d.Width, d.Height, d.Format, d.NumChannels};
    return r;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    if (!pArrayDescriptor)
        return CUDA_ERROR_INVALID_VALUE;
    return describe(hArray, pArrayDescriptor);
}

CUresult cuArrayDestroy(CUarray hArray)
{
    DRV_CHECK(drv_context());
    if (!hArray)
        return CUDA_ERROR_INVALID_HANDLE;
    return DRV(rt_free_array((cudaArray_t)hArray));
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d,
                                unsigned int numMipmapLevels)
{
    DRV_CHECK(drv_context());
    struct cudaChannelFormatDesc desc;
    if (!pHandle || !d || !drv_format_desc(d->Format, d->NumChannels, &desc))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_mipmapped_array((cudaMipmappedArray_t *)pHandle, &desc,
                                         (struct cudaExtent){d->Width, d->Height, d->Depth},
                                         numMipmapLevels, d->Flags));
}

CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                                  unsigned int level)
{
    DRV_CHECK(drv_context());
    return DRV(rt_get_mipmapped_array_level((cudaArray_t *)pLevelArray,
                                            (cudaMipmappedArray_const_t)hMipmappedArray, level));
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
    DRV_CHECK(drv_context());
    return DRV(rt_free_mipmapped_array((cudaMipmappedArray_t)hMipmappedArray));
}

/* ---------------------------------------------------------------- pointer attributes */

/* One attribute of the memory at ptr; unregistered host memory answers only some. */
static CUresult pointer_attribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr,
                                  bool many)
{
    struct cudaPointerAttributes a;
    CUresult r = DRV(rt_pointer_get_attributes(&a, DPTR(ptr)));
    if (r != CUDA_SUCCESS)
        return r;
    bool known = a.type != cudaMemoryTypeUnregistered;
    if (!known && !many)
        return CUDA_ERROR_INVALID_VALUE;  /* not memory CUDA knows (how programs test it) */
    void *base = NULL;
    size_t size = 0;
    if (known)
        DRV(rt_mem_range(DPTR(ptr), &base, &size));
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = known ? (CUcontext)rt_ctx_primary() : NULL;
        break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(CUmemorytype *)data = !known ? (CUmemorytype)0
                                : a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST
                                                               : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = known ? (CUdeviceptr)(uintptr_t)a.devicePointer : 0;
        break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        *(void **)data = known && a.type != cudaMemoryTypeDevice ? a.hostPointer : NULL;
        break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
        *(int *)data = 0;
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        /* The allocation's start is unique among live allocations. */
        *(unsigned long long *)data = (unsigned long long)(uintptr_t)base;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = a.type == cudaMemoryTypeManaged;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = known ? 0 : -2;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)base;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        *(size_t *)data = size;
        break;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = known;
        break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        *(unsigned long long *)data = 0;
        break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        *(unsigned long long *)data = known ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : 0;
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(void **)data = NULL;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    DRV_CHECK(drv_context());
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    return pointer_attribute(data, attribute, ptr, false);
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                void **data, CUdeviceptr ptr)
{
    DRV_CHECK(drv_context());
    if (numAttributes && (!attributes || !data))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < numAttributes; i++) {
        if (!data[i])
            continue;
        CUresult r = pointer_attribute(data[i], attributes[i], ptr, true);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    DRV_CHECK(drv_context());
    if (!value || attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        return CUDA_ERROR_INVALID_VALUE;
    void *base;
    size_t size;
    /* Synchronous memory operations on it are already synchronous. */
    return DRV(rt_mem_range(DPTR(ptr), &base, &size));
}

/* ---------------------------------------------------------------- managed memory hints */

/* Managed memory is where host and device both see it: there is nothing to move. */
static CUresult hint(CUdeviceptr ptr, size_t count, cudaStream_t stream, bool has_stream)
{
    DRV_CHECK(drv_context());
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    void *base;
    size_t size;
    CUresult r = DRV(rt_mem_range(DPTR(ptr), &base, &size));
    if (r == CUDA_SUCCESS && has_stream)
        r = DRV(rt_stream_check(stream));
    return r;
}

CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                            CUstream hStream)
{
    (void)dstDevice;
    return hint(devPtr, count, hStream, true);
}
CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                 CUstream hStream)
{
    (void)dstDevice;
    return hint(devPtr, count, PTSZ(hStream), true);
}
CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                               unsigned int flags, CUstream hStream)
{
    (void)location;
    (void)flags;
    return hint(devPtr, count, hStream, true);
}
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                    unsigned int flags, CUstream hStream)
{
    (void)location;
    (void)flags;
    return hint(devPtr, count, PTSZ(hStream), true);
}
CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
    (void)advice;
    (void)device;
    return hint(devPtr, count, 0, false);
}
CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                        CUmemLocation location)
{
    (void)advice;
    (void)location;
    return hint(devPtr, count, 0, false);
}

/* ---------------------------------------------------------------- stream-ordered allocation */

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_malloc_async((void **)dptr, bytesize, NULL, hStream));
}
CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_malloc_async((void **)dptr, bytesize, NULL, PTSZ(hStream)));
}
CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                 CUstream hStream)
{
    DRV_CHECK(drv_context());
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_async((void **)dptr, bytesize, (cudaMemPool_t)pool, hStream));
}
CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                      CUstream hStream)
{
    DRV_CHECK(drv_context());
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_malloc_async((void **)dptr, bytesize, (cudaMemPool_t)pool, PTSZ(hStream)));
}
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_free_async(DPTR(dptr), hStream));
}
CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_free_async(DPTR(dptr), PTSZ(hStream)));
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_pool_create((cudaMemPool_t *)pool,
                                  (const struct cudaMemPoolProps *)poolProps));
}
CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_pool_destroy((cudaMemPool_t)pool));
}
CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_pool_trim_to((cudaMemPool_t)pool, minBytesToKeep));
}
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    DRV_CHECK(drv_context());
    /* CUmemPool_attribute numbers its values as cudaMemPoolAttr does. */
    return DRV(rt_mem_pool_attribute((cudaMemPool_t)pool, (enum cudaMemPoolAttr)attr, value,
                                     true));
}
CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_pool_attribute((cudaMemPool_t)pool, (enum cudaMemPoolAttr)attr, value,
                                     false));
}
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    DRV_CHECK(drv_context());
    return DRV(rt_mem_pool_access((cudaMemPool_t)pool, NULL,
                                  (const struct cudaMemAccessDesc *)map, count, true));
}
CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool,
                            CUmemLocation *location)
{
    DRV_CHECK(drv_context());
    if (!location || (location->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id != 0))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_mem_pool_access((cudaMemPool_t)memPool, (enum cudaMemAccessFlags *)flags,
                                  NULL, 0, false));
}

static CUresult device_location(const CUmemLocation *location, CUmemAllocationType type)
{
    if (!location || type != CU_MEM_ALLOCATION_TYPE_PINNED ||
        location->type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    return location->id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location,
                                CUmemAllocationType type)
{
    DRV_CHECK(drv_initialized());
    DRV_CHECK(device_location(location, type));
    return DRV(rt_device_get_mem_pool((cudaMemPool_t *)pool_out, 0, true));
}
CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
    DRV_CHECK(drv_initialized());
    DRV_CHECK(device_location(location, type));
    return DRV(rt_device_get_mem_pool((cudaMemPool_t *)pool, 0, false));
}
CUresult cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
    DRV_CHECK(drv_initialized());
    DRV_CHECK(device_location(location, type));
    return DRV(rt_device_set_mem_pool(0, (cudaMemPool_t)pool));
}
