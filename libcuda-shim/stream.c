/* stream.c: streams, events, host functions and callbacks, stream capture and stream
 * attributes: the runtime's (runtime/streams.c, events.c, capture.c), whose handles CUstream
 * and CUevent are. Each call that takes a stream has a _ptsz twin in which the NULL stream is
 * the per-thread default stream. */
#include "libcuda-shim/driver.h"

/* ---------------------------------------------------------------- streams */

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_create((cudaStream_t *)phStream, Flags, 0));
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_create((cudaStream_t *)phStream, flags, priority));
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    DRV_CHECK(drv_context());
    if (!hStream || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD)
        return CUDA_ERROR_INVALID_HANDLE;
    return DRV(rt_stream_destroy(hStream));
}

CUresult cuStreamDestroy(CUstream hStream)
{
    return cuStreamDestroy_v2(hStream);
}

/* The calls that take one stream, with their _ptsz twins. */
#define STREAM_CALL(name, params, args, body)                                                \
    static CUresult name##_on(cudaStream_t hStream, params) body                             \
    CUresult name(CUstream hStream, params)                                                  \
    {                                                                                         \
        DRV_CHECK(drv_context());                                                             \
        return name##_on(hStream, args);                                                      \
    }                                                                                         \
    CUresult name##_ptsz(CUstream hStream, params)                                            \
    {                                                                                         \
        DRV_CHECK(drv_context());                                                             \
        return name##_on(PTSZ(hStream), args);                                                \
    }

static CUresult query(cudaStream_t s)
{
    return DRV(rt_stream_query(s));
}

CUresult cuStreamQuery(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return query(hStream);
}
CUresult cuStreamQuery_ptsz(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return query(PTSZ(hStream));
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_synchronize(hStream));
}
CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_synchronize(PTSZ(hStream)));
}

STREAM_CALL(cuStreamGetPriority, int *priority, priority,
            { return DRV(rt_stream_get_priority(hStream, priority)); })
STREAM_CALL(cuStreamGetFlags, unsigned int *flags, flags,
            { return DRV(rt_stream_get_flags(hStream, flags)); })
STREAM_CALL(cuStreamGetId, unsigned long long *streamId, streamId,
            { return DRV(rt_stream_get_id(hStream, streamId)); })
STREAM_CALL(cuStreamGetDevice, CUdevice *device, device, {
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_stream_check(hStream));
    if (r == CUDA_SUCCESS)
        *device = 0;
    return r;
})
STREAM_CALL(cuStreamGetCtx, CUcontext *pctx, pctx, {
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_stream_check(hStream));
    /* Streams belong to the device, which the current context stands for. */
    if (r == CUDA_SUCCESS)
        *pctx = (CUcontext)rt_ctx_current();
    return r;
})

static CUresult get_ctx_v2(cudaStream_t s, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    if (!pCtx || !pGreenCtx)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_stream_check(s));
    if (r == CUDA_SUCCESS) {
        *pCtx = (CUcontext)rt_ctx_current();
        *pGreenCtx = NULL;  /* no green contexts */
    }
    return r;
}
CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    DRV_CHECK(drv_context());
    return get_ctx_v2(hStream, pCtx, pGreenCtx);
}
CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    DRV_CHECK(drv_context());
    return get_ctx_v2(PTSZ(hStream), pCtx, pGreenCtx);
}

static CUresult wait_event(cudaStream_t s, CUevent e, unsigned flags)
{
    return DRV(rt_stream_wait_event(s, (cudaEvent_t)e, flags));
}
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    return wait_event(hStream, hEvent, Flags);
}
CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    return wait_event(PTSZ(hStream), hEvent, Flags);
}

/* The driver's callback has the same shape as the runtime's (CUresult and cudaError_t are
 * both int-sized enums, and the error numbers a callback sees agree). */
static CUresult add_callback(cudaStream_t s, CUstreamCallback cb, void *data, unsigned flags)
{
    return DRV(rt_stream_add_callback(s, (cudaStreamCallback_t)cb, data, flags));
}
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                             unsigned int flags)
{
    DRV_CHECK(drv_context());
    return add_callback(hStream, callback, userData, flags);
}
CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData,
                                  unsigned int flags)
{
    DRV_CHECK(drv_context());
    return add_callback(PTSZ(hStream), callback, userData, flags);
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    DRV_CHECK(drv_context());
    return DRV(rt_launch_host_func(hStream, fn, userData));
}
CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    DRV_CHECK(drv_context());
    return DRV(rt_launch_host_func(PTSZ(hStream), fn, userData));
}

static CUresult attach_mem(cudaStream_t s, CUdeviceptr dptr, size_t length, unsigned flags)
{
    (void)length;
    if (flags & ~(unsigned)(CU_MEM_ATTACH_GLOBAL | CU_MEM_ATTACH_HOST | CU_MEM_ATTACH_SINGLE))
        return CUDA_ERROR_INVALID_VALUE;
    void *base;
    size_t size;
    CUresult r = DRV(rt_mem_range((void *)(uintptr_t)dptr, &base, &size));
    /* Managed memory is visible to every stream and the host at once: nothing to attach. */
    return r == CUDA_SUCCESS ? DRV(rt_stream_check(s)) : r;
}
CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                unsigned int flags)
{
    DRV_CHECK(drv_context());
    return attach_mem(hStream, dptr, length, flags);
}
CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                     unsigned int flags)
{
    DRV_CHECK(drv_context());
    return attach_mem(PTSZ(hStream), dptr, length, flags);
}

/* ---------------------------------------------------------------- stream attributes */

_Static_assert(sizeof(CUlaunchAttributeValue) == sizeof(cudaLaunchAttributeValue),
               "the driver's and the runtime's attribute values are laid out alike");

static CUresult attribute(cudaStream_t s, CUstreamAttrID attr, CUstreamAttrValue *value,
                          bool set)
{
    return DRV(rt_stream_attribute(s, (cudaLaunchAttributeID)attr,
                                   (cudaLaunchAttributeValue *)value, set));
}
CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    DRV_CHECK(drv_context());
    return attribute(hStream, attr, value_out, false);
}
CUresult cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
                                   CUstreamAttrValue *value_out)
{
    DRV_CHECK(drv_context());
    return attribute(PTSZ(hStream), attr, value_out, false);
}
CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
                              const CUstreamAttrValue *value)
{
    DRV_CHECK(drv_context());
    return attribute(hStream, attr, (CUstreamAttrValue *)value, true);
}
CUresult cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
                                   const CUstreamAttrValue *value)
{
    DRV_CHECK(drv_context());
    return attribute(PTSZ(hStream), attr, (CUstreamAttrValue *)value, true);
}
CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_copy_attributes(dst, src));
}
CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_copy_attributes(PTSZ(dst), PTSZ(src)));
}

/* ---------------------------------------------------------------- events */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    DRV_CHECK(drv_context());
    /* CU_EVENT_BLOCKING_SYNC / DISABLE_TIMING / INTERPROCESS are cudaEvent*'s bits. */
    return DRV(rt_event_create((cudaEvent_t *)phEvent, Flags));
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_destroy((cudaEvent_t)hEvent));
}

CUresult cuEventDestroy(CUevent hEvent)
{
    return cuEventDestroy_v2(hEvent);
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_record((cudaEvent_t)hEvent, hStream, 0));
}
CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_record((cudaEvent_t)hEvent, PTSZ(hStream), 0));
}
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_record((cudaEvent_t)hEvent, hStream, flags));
}
CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_record((cudaEvent_t)hEvent, PTSZ(hStream), flags));
}

CUresult cuEventQuery(CUevent hEvent)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_query((cudaEvent_t)hEvent));
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_synchronize((cudaEvent_t)hEvent));
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    DRV_CHECK(drv_context());
    return DRV(rt_event_elapsed_time(pMilliseconds, (cudaEvent_t)hStart, (cudaEvent_t)hEnd));
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

/* ---------------------------------------------------------------- stream capture */

static CUresult begin_capture(cudaStream_t s, CUstreamCaptureMode mode)
{
    return DRV(rt_stream_begin_capture(s, (enum cudaStreamCaptureMode)mode));
}
CUresult cuStreamBeginCapture(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return begin_capture(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUresult cuStreamBeginCapture_ptsz(CUstream hStream)
{
    DRV_CHECK(drv_context());
    return begin_capture(PTSZ(hStream), CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    DRV_CHECK(drv_context());
    return begin_capture(hStream, mode);
}
CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
    DRV_CHECK(drv_context());
    return begin_capture(PTSZ(hStream), mode);
}

static CUresult begin_capture_to_graph(cudaStream_t s, CUgraph g, const CUgraphNode *deps,
                                       size_t n, CUstreamCaptureMode mode)
{
    return DRV(rt_stream_begin_capture_to_graph(s, g, deps, n, (enum cudaStreamCaptureMode)mode));
}
CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph,
                                     const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData,
                                     size_t numDependencies, CUstreamCaptureMode mode)
{
    (void)dependencyData;
    DRV_CHECK(drv_context());
    return begin_capture_to_graph(hStream, hGraph, dependencies, numDependencies, mode);
}
CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
                                          const CUgraphNode *dependencies,
                                          const CUgraphEdgeData *dependencyData,
                                          size_t numDependencies, CUstreamCaptureMode mode)
{
    (void)dependencyData;
    DRV_CHECK(drv_context());
    return begin_capture_to_graph(PTSZ(hStream), hGraph, dependencies, numDependencies, mode);
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_end_capture(hStream, phGraph));
}
CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_end_capture(PTSZ(hStream), phGraph));
}

CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_is_capturing(hStream, (enum cudaStreamCaptureStatus *)captureStatus));
}
CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_is_capturing(PTSZ(hStream),
                                      (enum cudaStreamCaptureStatus *)captureStatus));
}

static CUresult capture_info(cudaStream_t s, CUstreamCaptureStatus *status, cuuint64_t *id,
                             CUgraph *graph, const CUgraphNode **deps,
                             const CUgraphEdgeData **edges, size_t *ndeps)
{
    if (edges)
        *edges = NULL;  /* no edge carries data */
    return DRV(rt_stream_get_capture_info(s, (enum cudaStreamCaptureStatus *)status,
                                          (unsigned long long *)id, graph, deps, ndeps));
}
CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                cuuint64_t *id_out)
{
    DRV_CHECK(drv_context());
    return capture_info(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                     cuuint64_t *id_out)
{
    DRV_CHECK(drv_context());
    return capture_info(PTSZ(hStream), captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                   cuuint64_t *id_out, CUgraph *graph_out,
                                   const CUgraphNode **dependencies_out,
                                   size_t *numDependencies_out)
{
    DRV_CHECK(drv_context());
    return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                        numDependencies_out);
}
CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out, CUgraph *graph_out,
                                        const CUgraphNode **dependencies_out,
                                        size_t *numDependencies_out)
{
    DRV_CHECK(drv_context());
    return capture_info(PTSZ(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                        NULL, numDependencies_out);
}
CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                   cuuint64_t *id_out, CUgraph *graph_out,
                                   const CUgraphNode **dependencies_out,
                                   const CUgraphEdgeData **edgeData_out,
                                   size_t *numDependencies_out)
{
    DRV_CHECK(drv_context());
    return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out,
                        edgeData_out, numDependencies_out);
}
CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream,
                                        CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out, CUgraph *graph_out,
                                        const CUgraphNode **dependencies_out,
                                        const CUgraphEdgeData **edgeData_out,
                                        size_t *numDependencies_out)
{
    DRV_CHECK(drv_context());
    return capture_info(PTSZ(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                        edgeData_out, numDependencies_out);
}

CUresult cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                           size_t numDependencies, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_update_capture_dependencies(hStream, dependencies, numDependencies,
                                                     flags));
}
CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                size_t numDependencies, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_stream_update_capture_dependencies(PTSZ(hStream), dependencies,
                                                     numDependencies, flags));
}
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
                                              const CUgraphEdgeData *dependencyData,
                                              size_t numDependencies, unsigned int flags)
{
    (void)dependencyData;
    return cuStreamUpdateCaptureDependencies(hStream, dependencies, numDependencies, flags);
}
CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                   const CUgraphEdgeData *dependencyData,
                                                   size_t numDependencies, unsigned int flags)
{
    (void)dependencyData;
    return cuStreamUpdateCaptureDependencies_ptsz(hStream, dependencies, numDependencies, flags);
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    DRV_CHECK(drv_initialized());
    return DRV(rt_thread_exchange_capture_mode((enum cudaStreamCaptureMode *)mode));
}
