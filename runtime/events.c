/* events.c: CUDA events. Work completes when it is issued, so an event completes when it is
 * recorded; its timestamp is the host clock at that point. */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define EVENT_MAGIC 0x6576656eu  /* "even" */

typedef struct rt_event {
    uint32_t magic;
    unsigned flags;
    bool recorded;
    double seconds;
    rt_capture_point cap;       /* recorded in a capturing stream: the nodes it stands for */
} rt_event;

static rt_event **events;
static size_t nevents, cap_events;

static rt_event *find(cudaEvent_t e)
{
    for (size_t i = 0; i < nevents; i++)
        if ((cudaEvent_t)events[i] == e)
            return events[i];
    return NULL;
}

rt_capture_point *rt_event_capture_point(cudaEvent_t event)
{
    rt_event *ev = find(event);
    return ev ? &ev->cap : NULL;
}

cudaError_t rt_event_record_locked(cudaEvent_t event)
{
    rt_event *ev = find(event);
    if (!ev)
        return rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventRecord",
                            "%p is not an event (destroyed?)", (void *)event);
    ev->recorded = true;
    ev->seconds = rt_now();
    return cudaSuccess;
}

cudaError_t rt_event_create(cudaEvent_t *event, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (!event || (flags & ~known) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return rt_end(cudaErrorInvalidValue);
    rt_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return rt_end(cudaErrorMemoryAllocation);
    if (nevents == cap_events) {
        size_t ncap = cap_events ? cap_events * 2 : 16;
        rt_event **p = realloc(events, ncap * sizeof *p);
        if (!p) {
            free(ev);
            return rt_end(cudaErrorMemoryAllocation);
        }
        events = p;
        cap_events = ncap;
    }
    ev->magic = EVENT_MAGIC;
    ev->flags = flags;
    events[nevents++] = ev;
    *event = (cudaEvent_t)ev;
    return rt_end(cudaSuccess);
}

cudaError_t rt_event_destroy(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    for (size_t i = 0; i < nevents; i++) {
        if ((cudaEvent_t)events[i] == event) {
            rt_capture_point_clear(&events[i]->cap);
            free(events[i]);
            events[i] = events[--nevents];
            return rt_end(cudaSuccess);
        }
    }
    return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventDestroy",
                               "%p is not an event", (void *)event));
}

cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_event *ev = find(event);
    if (!ev)
        e = rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventRecord",
                         "%p is not an event", (void *)event);
    else if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        rt_api_error(e, "cudaEventRecord", "%p is not a live stream", (void *)stream);
    else if (flags & ~(unsigned)cudaEventRecordExternal)
        e = cudaErrorInvalidValue;
    else if (flags & cudaEventRecordExternal) {
        /* In a capture: a node that records the event when the graph runs. */
        rt_capture_point *p = rt_stream_capture_point(stream);
        if (p && p->capture) {
            rt_op op = {.kind = RT_OP_EVENT_RECORD, .event = event};
            e = rt_op_submit(&op, stream);
        } else {
            e = rt_event_record_locked(event);
        }
    } else if (!rt_capture_event_record(event, stream, &e)) {
        e = rt_event_record_locked(event);
    }
    return rt_end(e);
}

static cudaError_t check_event(cudaEvent_t event, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!find(event))
        e = rt_api_error(cudaErrorInvalidResourceHandle, api, "%p is not an event",
                         (void *)event);
    return rt_end(e);
}

cudaError_t rt_event_synchronize(cudaEvent_t event)
{
    emu_output_flush();   /* device printf and assert output, as CUDA flushes it here */
    cudaError_t e = check_event(event, "cudaEventSynchronize");
    if (e == cudaSuccess) {
        pthread_mutex_lock(&rt_g.lock);
        rt_mempool_synchronized();
        pthread_mutex_unlock(&rt_g.lock);
    }
    return e;
}

cudaError_t rt_event_query(cudaEvent_t event)
{
    return check_event(event, "cudaEventQuery");
}

cudaError_t rt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_event *a = find(start), *b = find(end);
    if (!ms)
        e = cudaErrorInvalidValue;
    else if (!a || !b)
        e = rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                         "%p is not an event", (void *)(a ? end : start));
    else if ((a->flags | b->flags) & cudaEventDisableTiming)
        e = rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                         "an event was created with cudaEventDisableTiming");
    else if (!a->recorded || !b->recorded)
        e = rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                         "an event has not been recorded");
    else
        *ms = (float)((b->seconds - a->seconds) * 1e3);
    return rt_end(e);
}

void rt_events_release_all(void)
{
    for (size_t i = 0; i < nevents; i++) {
        rt_capture_point_clear(&events[i]->cap);
        free(events[i]);
    }
    nevents = 0;
}
