/* streams.c: CUDA streams. Work issued to a stream is queued on the device worker (worker.c)
 * in one order across all streams; a stream keeps the sequence number of its last operation,
 * so synchronising it waits for that and querying it compares. It also keeps its flags, its
 * priority, its attributes, and its capture state (capture.c), while it records work into a
 * graph instead of queueing it.
 *
 * The legacy default stream synchronises with every blocking stream; since the worker runs
 * everything in issue order, waiting for it means waiting for all work issued so far. The
 * per-thread default stream (cudaStreamPerThread) is a stream of its own in each host thread. */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define STREAM_MAGIC 0x7374726du  /* "strm" */

typedef struct rt_stream {
    uint32_t magic;
    unsigned flags;
    int priority;
    uint64_t last_seq;          /* its latest queued operation */
    unsigned long long id;      /* cudaStreamGetId */
    rt_stream_attrs attrs;      /* cudaStreamSetAttribute */
    rt_capture_point cap;
} rt_stream;

/* cudaStreamPerThread is a stream of its own in each host thread, and may capture. */
static _Thread_local rt_capture_point per_thread_cap;
static _Thread_local uint64_t per_thread_last_seq;
static _Thread_local rt_stream_attrs per_thread_attrs;
static rt_stream_attrs legacy_attrs;
static unsigned long long next_stream_id = 3;  /* 0..2: the legacy and per-thread streams */

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

void rt_stream_note_work(cudaStream_t stream, uint64_t seq)
{
    if (stream == cudaStreamPerThread) {
        per_thread_last_seq = seq;
        return;
    }
    rt_stream *s = stream && stream != cudaStreamLegacy ? find(stream) : NULL;
    if (s)
        s->last_seq = seq;
}

uint64_t rt_stream_last_seq(cudaStream_t stream)
{
    if (stream == cudaStreamPerThread)
        return per_thread_last_seq;
    rt_stream *s = stream && stream != cudaStreamLegacy ? find(stream) : NULL;
    if (s)
        return s->last_seq;
    return rt_issued_seq();  /* the legacy stream: everything before it */
}

rt_stream_attrs *rt_stream_attrs_of(cudaStream_t stream)
{
    if (stream == cudaStreamPerThread)
        return &per_thread_attrs;
    if (!stream || stream == cudaStreamLegacy)
        return &legacy_attrs;
    rt_stream *s = find(stream);
    return s ? &s->attrs : NULL;
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
    s->id = next_stream_id++;
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

/* Synchronize and query. A capturing stream has nothing to wait for (its work is recorded,
 * not run): an error that ends the capture. */
static cudaError_t sync_or_query(cudaStream_t stream, bool sync, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, api, "%p is not a live stream", (void *)stream));
    if ((e = rt_capture_forbid(stream, api)) != cudaSuccess)
        return rt_end(e);
    uint64_t seq = rt_stream_last_seq(stream);
    if (!sync) {
        /* cudaErrorNotReady is an answer, not an error: it does not become the last error. */
        e = rt_seq_done(seq) ? cudaSuccess : cudaErrorNotReady;
        pthread_mutex_unlock(&rt_g.lock);
        return e;
    }
    rt_wait_seq(seq);
    rt_mempool_synchronized();
    e = rt_take_async_error();
    rt_flush_output_locked();   /* device printf and assert output, as CUDA flushes it here */
    pthread_mutex_unlock(&rt_g.lock);
    return rt_record(e);
}

cudaError_t rt_stream_synchronize(cudaStream_t stream)
{
    return sync_or_query(stream, true, "cudaStreamSynchronize");
}

cudaError_t rt_stream_query(cudaStream_t stream)
{
    return sync_or_query(stream, false, "cudaStreamQuery");
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
    rt_op op = {.kind = RT_OP_CALLBACK, .callback = {cb, data, stream}};
    return rt_end(rt_op_submit(&op, stream));
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

/* ---------------------------------------------------------------- attributes and ids */

cudaError_t rt_stream_get_id(cudaStream_t stream, unsigned long long *id)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!id)
        return rt_end(cudaErrorInvalidValue);
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, "cudaStreamGetId", "%p is not a live stream",
                                   (void *)stream));
    rt_stream *s = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread
                       ? find(stream)
                       : NULL;
    *id = s ? s->id : stream == cudaStreamPerThread ? 2 : 1;
    return rt_end(cudaSuccess);
}

cudaError_t rt_stream_attribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                cudaLaunchAttributeValue *value, bool set)
{
    const char *api = set ? "cudaStreamSetAttribute" : "cudaStreamGetAttribute";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, api, "%p is not a live stream", (void *)stream));
    if (!value)
        return rt_end(cudaErrorInvalidValue);
    rt_stream_attrs *a = rt_stream_attrs_of(stream);
    rt_stream *s = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread
                       ? find(stream)
                       : NULL;
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow:
        if (!set) {
            value->accessPolicyWindow = a->window;
            break;
        }
        if ((e = rt_check_access_policy_window(&value->accessPolicyWindow, api)) == cudaSuccess)
            a->window = value->accessPolicyWindow;
        break;
    case cudaLaunchAttributeSynchronizationPolicy:
        if (!set) {
            value->syncPolicy = a->sync_policy ? a->sync_policy : cudaSyncPolicyAuto;
        } else if (value->syncPolicy < cudaSyncPolicyAuto ||
                   value->syncPolicy > cudaSyncPolicyBlockingSync) {
            e = rt_api_error(cudaErrorInvalidValue, api, "synchronization policy %d",
                             (int)value->syncPolicy);
        } else {
            a->sync_policy = value->syncPolicy;
        }
        break;
    case cudaLaunchAttributePriority:
        if (!set) {
            value->priority = s ? s->priority : 0;
        } else if (s) {
            s->priority = value->priority < -5 ? -5 : value->priority > 0 ? 0 : value->priority;
        }
        break;
    case cudaLaunchAttributeMemSyncDomainMap:
        if (set)
            a->domain_map = value->memSyncDomainMap;
        else
            value->memSyncDomainMap = a->domain_map;
        break;
    case cudaLaunchAttributeMemSyncDomain:
        if (!set)
            value->memSyncDomain = a->domain;
        else if (value->memSyncDomain != cudaLaunchMemSyncDomainDefault &&
                 value->memSyncDomain != cudaLaunchMemSyncDomainRemote)
            e = rt_api_error(cudaErrorInvalidValue, api, "memory synchronization domain %d",
                             (int)value->memSyncDomain);
        else
            a->domain = value->memSyncDomain;
        break;
    default:
        e = rt_api_error(cudaErrorInvalidValue, api,
                         "attribute %d is a launch attribute, not a stream attribute", (int)attr);
        break;
    }
    return rt_end(e);
}

cudaError_t rt_stream_copy_attributes(cudaStream_t dst, cudaStream_t src)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (rt_stream_check_locked(dst) != cudaSuccess || rt_stream_check_locked(src) != cudaSuccess)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaStreamCopyAttributes",
                                   "%p is not a live stream",
                                   (void *)(rt_stream_check_locked(dst) ? dst : src)));
    *rt_stream_attrs_of(dst) = *rt_stream_attrs_of(src);
    /* the priority is one of the attributes copied (an H100 with CUDA 13.0: a priority -1
     * stream copying from a priority 0 one reads back 0, by cudaStreamGetPriority too) */
    rt_stream *d = dst && dst != cudaStreamLegacy ? find(dst) : NULL;
    rt_stream *s = src && src != cudaStreamLegacy ? find(src) : NULL;
    if (d)
        d->priority = s ? s->priority : 0;
    return rt_end(cudaSuccess);
}
