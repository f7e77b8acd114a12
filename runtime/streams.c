/* streams.c: CUDA streams. Work runs when it is issued (launches are synchronous), so a
 * stream is only a validated handle with its flags and priority, and synchronising or querying
 * one has nothing left to wait for. */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define STREAM_MAGIC 0x7374726du  /* "strm" */

typedef struct rt_stream {
    uint32_t magic;
    unsigned flags;
    int priority;
} rt_stream;

static rt_stream **streams;
static size_t nstreams, cap_streams;

static rt_stream *find(cudaStream_t s)
{
    for (size_t i = 0; i < nstreams; i++)
        if ((cudaStream_t)streams[i] == s)
            return streams[i];
    return NULL;
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
    for (size_t i = 0; i < nstreams; i++)
        free(streams[i]);
    nstreams = 0;
}

cudaError_t rt_stream_synchronize(cudaStream_t stream)
{
    return rt_stream_check(stream);
}

cudaError_t rt_stream_query(cudaStream_t stream)
{
    return rt_stream_check(stream);  /* nothing is ever pending */
}

cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    (void)event;
    (void)flags;
    return rt_stream_check(stream);
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
    cudaError_t e = rt_stream_check(stream);
    if (e != cudaSuccess)
        return e;
    if (!cb || flags != 0)
        return rt_record(cudaErrorInvalidValue);
    /* Everything issued before it has finished: run it now, outside the lock. */
    cb(stream, rt_peek_last_error(), data);
    return cudaSuccess;
}

cudaError_t rt_launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *data)
{
    cudaError_t e = rt_stream_check(stream);
    if (e != cudaSuccess)
        return e;
    if (!fn)
        return rt_record(cudaErrorInvalidValue);
    fn(data);
    return cudaSuccess;
}
