/* events.c: CUDA events. Recording an event queues an operation on the device worker
 * (worker.c); the event has completed once the worker has run it, and its timestamp is the
 * host clock at that moment. An event remembers the sequence number of its latest record, so
 * querying or synchronising it compares that with what the worker has done. */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define EVENT_MAGIC 0x6576656eu  /* "even" */

typedef struct rt_event {
    uint32_t magic;
    unsigned flags;
    bool recorded;              /* cudaEventRecord was called (it may not have completed) */
    uint64_t record_seq;        /* the worker operation of the latest record (0: none) */
    double seconds;             /* host clock when the latest completed record ran */
    bool destroyed;             /* destroyed while a record was queued: freed once it runs */
    rt_capture_point cap;       /* recorded in a capturing stream: the nodes it stands for */
} rt_event;

static rt_event **events;
static size_t nevents, cap_events;
/* Destroyed events whose last record is still queued (CUDA releases them once it completes). */
static rt_event **zombies;
static size_t nzombies, cap_zombies;

static rt_event *find(cudaEvent_t e)
{
    for (size_t i = 0; i < nevents; i++)
        if ((cudaEvent_t)events[i] == e)
            return events[i];
    return NULL;
}

static bool push(rt_event ***arr, size_t *n, size_t *cap, rt_event *ev)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        rt_event **p = realloc(*arr, ncap * sizeof *p);
        if (!p)
            return false;
        *arr = p;
        *cap = ncap;
    }
    (*arr)[(*n)++] = ev;
    return true;
}

static bool completed(const rt_event *ev)
{
    return !ev->record_seq || rt_seq_done(ev->record_seq);
}

rt_capture_point *rt_event_capture_point(cudaEvent_t event)
{
    rt_event *ev = find(event);
    return ev ? &ev->cap : NULL;
}

cudaError_t rt_event_record_locked(cudaEvent_t event, uint64_t seq)
{
    rt_event *ev = find(event);
    if (!ev) {
        for (size_t i = 0; i < nzombies; i++) {
            if ((cudaEvent_t)zombies[i] != event)
                continue;
            if (zombies[i]->record_seq <= seq) {  /* its last record: release it now */
                free(zombies[i]);
                zombies[i] = zombies[--nzombies];
            }
            return cudaSuccess;
        }
        return rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventRecord",
                            "%p is not an event (destroyed?)", (void *)event);
    }
    ev->recorded = true;
    ev->seconds = rt_now();
    /* A graph's event node records when it runs: the event completes with the graph. */
    if (ev->record_seq < seq)
        ev->record_seq = seq;
    return cudaSuccess;
}

void rt_event_note_record(cudaEvent_t event, uint64_t seq)
{
    rt_event *ev = find(event);
    if (ev && ev->record_seq < seq) {
        ev->recorded = true;
        ev->record_seq = seq;
    }
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
    ev->magic = EVENT_MAGIC;
    ev->flags = flags;
    if (!push(&events, &nevents, &cap_events, ev)) {
        free(ev);
        return rt_end(cudaErrorMemoryAllocation);
    }
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
            rt_event *ev = events[i];
            rt_capture_point_clear(&ev->cap);
            events[i] = events[--nevents];
            ev->destroyed = true;
            if (completed(ev) || !push(&zombies, &nzombies, &cap_zombies, ev)) {
                if (!completed(ev))
                    rt_wait_seq(ev->record_seq);
                free(ev);
            }
            return rt_end(cudaSuccess);
        }
    }
    return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventDestroy",
                               "%p is not an event", (void *)event));
}

/* Queues the record behind the stream's work (or records a node when the stream captures). */
static cudaError_t queue_record(rt_event *ev, rt_op *op, cudaStream_t stream)
{
    rt_capture_point *p = rt_stream_capture_point(stream);
    bool capturing = p && p->capture;
    uint64_t before = rt_issued_seq();
    cudaError_t e = rt_op_submit(op, stream);
    if (e == cudaSuccess && !capturing && rt_issued_seq() != before) {
        ev->recorded = true;
        ev->record_seq = rt_issued_seq();
    }
    return e;
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
        rt_op op = {.kind = RT_OP_EVENT_RECORD, .event = event};
        e = queue_record(ev, &op, stream);
    } else if (!rt_capture_event_record(event, stream, &e)) {
        rt_op op = {.kind = RT_OP_EVENT_RECORD, .event = event};
        e = queue_record(ev, &op, stream);
    }
    return rt_end(e);
}

cudaError_t rt_event_synchronize(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_event *ev = find(event);
    if (!ev)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventSynchronize",
                                   "%p is not an event", (void *)event));
    if (ev->record_seq)
        rt_wait_seq(ev->record_seq);
    rt_mempool_synchronized();
    e = rt_take_async_error();
    rt_flush_output_locked();   /* device printf and assert output, as CUDA flushes it here */
    pthread_mutex_unlock(&rt_g.lock);
    return rt_record(e);
}

cudaError_t rt_event_query(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_event *ev = find(event);
    if (!ev)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaEventQuery",
                                   "%p is not an event", (void *)event));
    /* cudaErrorNotReady is an answer, not an error: it does not become the last error. */
    e = completed(ev) ? cudaSuccess : cudaErrorNotReady;
    pthread_mutex_unlock(&rt_g.lock);
    return e;
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
    else if (!completed(a) || !completed(b))
        e = cudaErrorNotReady;
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
    for (size_t i = 0; i < nzombies; i++)
        free(zombies[i]);
    nzombies = 0;
}
