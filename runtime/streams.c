/* streams.c: CUDA streams. Work runs when it is issued (launches are synchronous), so a
 * stream is a validated handle with its flags and priority, and synchronising or querying one
 * has nothing left to wait for; what a stream does keep is its capture state (capture.c),
 * while it records work into a graph instead of running it. */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define STREAM_MAGIC 0x7374726du  /* "strm" */

typedef struct rt_stream {
    uint32_t magic;
    unsigned flags;
    int priority;
    rt_capture_point cap;
} rt_stream;

/* cudaStreamPerThread is a stream of its own in each host thread, and may capture. */
static _Thread_local rt_capture_point per_thread_cap;

static rt_stream **streams;
static size_t nstreams, cap_streams;

static rt_stream *find(cudaStream_t s)
{
    for (size_t i = 0; i < nstreams; i++)
        if ((cudaStream_t)streams[i] == s)
            return streams[i];
    return NULL;
}

rt_capture_point *rt_stream_capture_point(cudaStream_t stream)
{
    if (stream == cudaStreamPerThread)
        return &per_thread_cap;
    rt_stream *s = stream && stream != cudaStreamLegacy ? find(stream) : NULL;
    return s ? &s->cap : NULL;
}

size_t rt_stream_capture_points(rt_capture_point **out, size_t max)
{
    size_t n = 0;
    if (n < max)
        out[n++] = &per_thread_cap;
    for (size_t i = 0; i < nstreams && n < max; i++)
        out[n++] = &streams[i]->cap;
    return n;
}

cudaError_t rt_stream_check_locked(cudaStream_t stream)
{
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
        find(stream))
        return cudaSuccess;
    return cudaErrorInvalidResourceHandle;
}

cudaError_t rt_stream_check(cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    e = rt_stream_check_locked(stream);
    if (e != cudaSuccess)
        rt_api_error(e, "stream", "%p is not a live stream", (void *)stream);
    return rt_end(e);
}

cudaError_t rt_stream_create(cudaStream_t *stream, unsigned flags, int priority)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!stream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return rt_end(cudaErrorInvalidValue);
    rt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return rt_end(cudaErrorMemoryAllocation);
    if (nstreams == cap_streams) {
        size_t ncap = cap_streams ? cap_streams * 2 : 16;
        rt_stream **p = realloc(streams, ncap * sizeof *p);
        if (!p) {
            free(s);
            return rt_end(cudaErrorMemoryAllocation);
        }
        streams = p;
        cap_streams = ncap;
    }
    s->magic = STREAM_MAGIC;
    s->flags = flags;
    /* Priorities clamp to the device's range [-5, 0] (lower is higher priority). */
    s->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
    streams[nstreams++] = s;
    *stream = (cudaStream_t)s;
    return rt_end(cudaSuccess);
}

cudaError_t rt_stream_destroy(cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    for (size_t i = 0; i < nstreams; i++) {
        if ((cudaStream_t)streams[i] == stream) {
            rt_capture_point_clear(&streams[i]->cap);
            free(streams[i]);
            streams[i] = streams[--nstreams];
            return rt_end(cudaSuccess);
        }
    }
    return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                               "%p is not a stream", (void *)stream));
}

void rt_streams_release_all(void)
{
    for (size_t i = 0; i < nstreams; i++) {
        rt_capture_point_clear(&streams[i]->cap);
        free(streams[i]);
    }
    nstreams = 0;
    rt_capture_point_clear(&per_thread_cap);
}

/* Synchronize and query: nothing is ever pending, but a capturing stream has nothing to wait
 * for either (its work is recorded, not run): an error that ends the capture. */
static cudaError_t sync_or_query(cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, api, "%p is not a live stream", (void *)stream));
    if ((e = rt_capture_forbid(stream, api)) == cudaSuccess)
        rt_mempool_synchronized();
    return rt_end(e);
}

cudaError_t rt_stream_synchronize(cudaStream_t stream)
{
    emu_output_flush();   /* device printf and assert output, as CUDA flushes it here */
    return sync_or_query(stream, "cudaStreamSynchronize");
}

cudaError_t rt_stream_query(cudaStream_t stream)
{
    return sync_or_query(stream, "cudaStreamQuery");
}

cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, "cudaStreamWaitEvent", "%p is not a live stream",
                                   (void *)stream));
    if (!rt_event_capture_point(event))
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent",
                                   "%p is not an event", (void *)event));
    if (flags & ~(unsigned)cudaEventWaitExternal)
        return rt_end(cudaErrorInvalidValue);
    /* Outside a capture the event's work has completed: nothing to wait for. */
    rt_capture_stream_wait(stream, event, &e);
    return rt_end(e);
}

cudaError_t rt_stream_get_flags(cudaStream_t stream, unsigned *flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!flags)
        return rt_end(cudaErrorInvalidValue);
    if ((e = rt_stream_check_locked(stream)) == cudaSuccess) {
        rt_stream *s = find(stream);
        *flags = s ? s->flags : 0;
    }
    return rt_end(e);
}

cudaError_t rt_stream_get_priority(cudaStream_t stream, int *priority)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!priority)
        return rt_end(cudaErrorInvalidValue);
    if ((e = rt_stream_check_locked(stream)) == cudaSuccess) {
        rt_stream *s = find(stream);
        *priority = s ? s->priority : 0;
    }
    return rt_end(e);
}

cudaError_t rt_stream_add_callback(cudaStream_t stream, cudaStreamCallback_t cb, void *data,
                                   unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, "cudaStreamAddCallback", "%p is not a live stream",
                                   (void *)stream));
    if (!cb || flags != 0)
        return rt_end(cudaErrorInvalidValue);
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (p && p->capture)
        return rt_end(rt_api_error(cudaErrorStreamCaptureUnsupported, "cudaStreamAddCallback",
                                   "not allowed while stream %p is capturing; use "
                                   "cudaLaunchHostFunc",
                                   (void *)stream));
    pthread_mutex_unlock(&rt_g.lock);
    /* Everything issued before it has finished: run it now, outside the lock (it may call
     * the runtime, though CUDA forbids it). */
    cb(stream, rt_peek_last_error(), data);
    return cudaSuccess;
}

cudaError_t rt_launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *data)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, "cudaLaunchHostFunc", "%p is not a live stream",
                                   (void *)stream));
    if (!fn)
        return rt_end(cudaErrorInvalidValue);
    rt_op op = {.kind = RT_OP_HOST, .host = {fn, data}};
    return rt_end(rt_op_submit(&op, stream));
}
