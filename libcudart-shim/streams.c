/* streams.c: streams, events and host callbacks. */
#include "libcudart-shim/shim.h"

#define SAME_AS(name, target) extern __typeof__(target) name __attribute__((alias(#target)))

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return rt_stream_create(pStream, cudaStreamDefault, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return rt_stream_create(pStream, flags, 0);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    return rt_stream_create(pStream, flags, priority);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    return rt_stream_destroy(stream);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return rt_stream_synchronize(stream);
}
SAME_AS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize);

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return rt_stream_query(stream);
}
SAME_AS(cudaStreamQuery_ptsz, cudaStreamQuery);

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return rt_stream_wait_event(stream, event, flags);
}
SAME_AS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent);

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    return rt_stream_get_flags(hStream, flags);
}
SAME_AS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags);

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    return rt_stream_get_priority(hStream, priority);
}
SAME_AS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority);

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    cudaError_t e = rt_stream_check(hStream);
    if (e == cudaSuccess)
        e = rt_get_device(device);
    return e;
}
SAME_AS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice);

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags)
{
    return rt_stream_add_callback(stream, callback, userData, flags);
}
SAME_AS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback);

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return rt_launch_host_func(stream, fn, userData);
}
SAME_AS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc);

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags)
{
    (void)devPtr;
    (void)length;
    (void)flags;
    return rt_stream_check(stream);
}
SAME_AS(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync);

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    return rt_stream_get_id(hStream, streamId);
}
SAME_AS(cudaStreamGetId_ptsz, cudaStreamGetId);

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                   cudaLaunchAttributeValue *value_out)
{
    return rt_stream_attribute(hStream, attr, value_out, false);
}
SAME_AS(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute);

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue *value)
{
    return rt_stream_attribute(hStream, attr, (cudaLaunchAttributeValue *)value, true);
}
SAME_AS(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute);

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    return rt_stream_copy_attributes(dst, src);
}
SAME_AS(cudaStreamCopyAttributes_ptsz, cudaStreamCopyAttributes);

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return rt_ctx_reset_persisting_l2();
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return rt_event_create(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    return rt_event_create(event, flags);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    return rt_event_destroy(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return rt_event_record(event, stream, 0);
}
SAME_AS(cudaEventRecord_ptsz, cudaEventRecord);

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return rt_event_record(event, stream, flags);
}
SAME_AS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags);

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return rt_event_synchronize(event);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return rt_event_query(event);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    return rt_event_elapsed_time(ms, start, end);
}

/* ---------------------------------------------------------------- stream capture */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return rt_stream_begin_capture(stream, mode);
}
SAME_AS(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture);

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, enum cudaStreamCaptureMode mode)
{
    (void)dependencyData;  /* edge data only matters for programmatic launches */
    return rt_stream_begin_capture_to_graph(stream, graph, dependencies, numDependencies, mode);
}
SAME_AS(cudaStreamBeginCaptureToGraph_ptsz, cudaStreamBeginCaptureToGraph);

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    return rt_stream_end_capture(stream, pGraph);
}
SAME_AS(cudaStreamEndCapture_ptsz, cudaStreamEndCapture);

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    return rt_stream_is_capturing(stream, pCaptureStatus);
}
SAME_AS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing);

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    if (shim_cuda12_abi)  /* CUDA 12's cudaStreamGetCaptureInfo: (stream, status, id) */
        return rt_stream_get_capture_info(stream, captureStatus_out, id_out, NULL, NULL, NULL);
    if (edgeData_out)
        *edgeData_out = NULL;  /* no edge carries data */
    return rt_stream_get_capture_info(stream, captureStatus_out, id_out, graph_out,
                                      dependencies_out, numDependencies_out);
}
SAME_AS(cudaStreamGetCaptureInfo_ptsz, cudaStreamGetCaptureInfo);

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData,
                                                size_t numDependencies, unsigned int flags)
{
    if (shim_cuda12_abi)  /* CUDA 12: (stream, dependencies, numDependencies, flags) */
        return rt_stream_update_capture_dependencies(
            stream, dependencies, (size_t)(uintptr_t)dependencyData, (unsigned)numDependencies);
    return rt_stream_update_capture_dependencies(stream, dependencies, numDependencies, flags);
}
SAME_AS(cudaStreamUpdateCaptureDependencies_ptsz, cudaStreamUpdateCaptureDependencies);

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    return rt_thread_exchange_capture_mode(mode);
}
