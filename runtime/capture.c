/* capture.c: stream capture. Between cudaStreamBeginCapture and cudaStreamEndCapture the work
 * issued to a stream is recorded as graph nodes instead of being run: each operation depends
 * on the stream's current frontier (the nodes the previous operations left), then becomes
 * that frontier. Other streams join a capture by waiting on an event recorded in a capturing
 * stream (fork), and must be joined back into the origin stream before the capture ends.
 *
 * A capture object outlives its capture (it is small and never freed), so that an event
 * recorded during a capture that has since ended is recognised as such and never followed to
 * nodes that may have been freed with their graph.
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>

struct rt_capture {
    rt_graph *graph;
    unsigned long long id;
    cudaStream_t origin;
    enum cudaStreamCaptureMode mode;
    bool active;                /* between begin and end */
    bool invalidated;           /* an error ended it early: EndCapture fails */
    bool user_graph;            /* cudaStreamBeginCaptureToGraph: the graph is the caller's */
};

static unsigned long long next_capture_id = 1;

/* The captures begun so far (to find the streams of one, and to check handles). */
static rt_capture **captures;
static size_t ncaptures, cap_captures;

/* The capture mode of this thread (cudaThreadExchangeStreamCaptureMode). */
static _Thread_local enum cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

static bool live(const rt_capture_point *p)
{
    return p && p->capture && p->capture->active;
}

void rt_capture_point_clear(rt_capture_point *p)
{
    if (!p)
        return;
    free(p->deps);
    memset(p, 0, sizeof *p);
}

static cudaError_t set_deps(rt_capture_point *p, rt_gnode *const *deps, size_t n)
{
    if (n > p->cap) {
        rt_gnode **d = realloc(p->deps, n * sizeof *d);
        if (!d)
            return cudaErrorMemoryAllocation;
        p->deps = d;
        p->cap = n;
    }
    if (n)
        memmove(p->deps, deps, n * sizeof *deps);
    p->ndeps = n;
    return cudaSuccess;
}

static cudaError_t add_deps(rt_capture_point *p, rt_gnode *const *deps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool have = false;
        for (size_t j = 0; j < p->ndeps && !have; j++)
            have = p->deps[j] == deps[i];
        if (have)
            continue;
        if (p->ndeps == p->cap) {
            size_t ncap = p->cap ? p->cap * 2 : 4;
            rt_gnode **d = realloc(p->deps, ncap * sizeof *d);
            if (!d)
                return cudaErrorMemoryAllocation;
            p->deps = d;
            p->cap = ncap;
        }
        p->deps[p->ndeps++] = deps[i];
    }
    return cudaSuccess;
}

/* Ends a capture: every stream leaves it. The graph is returned to the caller or freed. */
static void finish(rt_capture *c, rt_capture_point *origin_point)
{
    c->active = false;
    rt_capture_point_clear(origin_point);
    rt_capture_point *points[256];
    size_t n = rt_stream_capture_points(points, sizeof points / sizeof points[0]);
    for (size_t i = 0; i < n; i++)
        if (points[i]->capture == c)
            rt_capture_point_clear(points[i]);
}

static void invalidate(rt_capture *c)
{
    c->invalidated = true;
}

bool rt_capture_op(cudaStream_t stream, rt_op *op, cudaError_t *err)
{
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (!live(p))
        return false;
    if (p->capture->invalidated) {
        rt_op_free(op);
        *err = cudaErrorStreamCaptureInvalidated;
        return true;
    }
    rt_gnode *node = NULL;
    *err = rt_graph_add_op(p->capture->graph, op, p->deps, p->ndeps, &node);
    if (*err == cudaSuccess)
        *err = set_deps(p, &node, 1);
    if (*err != cudaSuccess)
        invalidate(p->capture);
    return true;
}

cudaError_t rt_capture_forbid(cudaStream_t stream, const char *api)
{
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (!live(p))
        return cudaSuccess;
    invalidate(p->capture);
    return rt_api_error(cudaErrorStreamCaptureUnsupported, api,
                        "stream %p is capturing: work in it is recorded, not run, so there is "
                        "nothing to wait for (the capture is now invalid)",
                        (void *)stream);
}

bool rt_capture_event_record(cudaEvent_t event, cudaStream_t stream, cudaError_t *err)
{
    rt_capture_point *p = rt_stream_capture_point(stream);
    rt_capture_point *ev = rt_event_capture_point(event);
    if (!ev)
        return false;
    if (!live(p)) {
        rt_capture_point_clear(ev);  /* recorded outside any capture now */
        return false;
    }
    /* The event stands for the stream's frontier, for a stream that waits on it to join. */
    ev->capture = p->capture;
    *err = set_deps(ev, p->deps, p->ndeps);
    return true;
}

bool rt_capture_stream_wait(cudaStream_t stream, cudaEvent_t event, cudaError_t *err)
{
    rt_capture_point *p = rt_stream_capture_point(stream);
    rt_capture_point *ev = rt_event_capture_point(event);
    if (!live(ev)) {
        /* An event of finished work: nothing to wait for, captured or not. */
        return live(p);
    }
    if (!p) {
        *err = rt_api_error(cudaErrorStreamCaptureImplicit, "cudaStreamWaitEvent",
                            "the legacy default stream cannot join a capture");
        invalidate(ev->capture);
        return true;
    }
    if (live(p) && p->capture != ev->capture) {
        *err = rt_api_error(cudaErrorStreamCaptureMerge, "cudaStreamWaitEvent",
                            "stream %p belongs to another capture than the event", (void *)stream);
        invalidate(p->capture);
        invalidate(ev->capture);
        return true;
    }
    if (!live(p)) {
        /* Fork: the stream joins the capture, after the event's nodes. */
        rt_capture_point_clear(p);
        p->capture = ev->capture;
        *err = set_deps(p, ev->deps, ev->ndeps);
    } else {
        *err = add_deps(p, ev->deps, ev->ndeps);
    }
    return true;
}

static cudaError_t begin(cudaStream_t stream, rt_graph *user, rt_gnode *const *deps, size_t ndeps,
                         enum cudaStreamCaptureMode mode, const char *api)
{
    if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
        mode != cudaStreamCaptureModeRelaxed)
        return rt_api_error(cudaErrorInvalidValue, api, "capture mode %d", (int)mode);
    if (rt_stream_check_locked(stream) != cudaSuccess)
        return rt_api_error(cudaErrorInvalidResourceHandle, api, "%p is not a live stream",
                            (void *)stream);
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (!p)
        return rt_api_error(cudaErrorStreamCaptureUnsupported, api,
                            "the legacy default stream cannot be captured; capture a stream "
                            "created with cudaStreamCreate (or cudaStreamPerThread)");
    if (live(p))
        return rt_api_error(cudaErrorIllegalState, api, "stream %p is already capturing",
                            (void *)stream);
    if (ncaptures == cap_captures) {
        size_t ncap = cap_captures ? cap_captures * 2 : 16;
        rt_capture **a = realloc(captures, ncap * sizeof *a);
        if (!a)
            return cudaErrorMemoryAllocation;
        captures = a;
        cap_captures = ncap;
    }
    rt_capture *c = calloc(1, sizeof *c);
    if (!c)
        return cudaErrorMemoryAllocation;
    c->graph = user ? user : rt_graph_new();
    if (!c->graph) {
        free(c);
        return cudaErrorMemoryAllocation;
    }
    c->user_graph = user != NULL;
    c->id = next_capture_id++;
    c->origin = stream;
    c->mode = mode;
    c->active = true;
    captures[ncaptures++] = c;
    rt_capture_point_clear(p);
    p->capture = c;
    cudaError_t e = set_deps(p, deps, ndeps);
    rt_log(2, "%s(%p): capture %llu begins", api, (void *)stream, c->id);
    return e;
}

cudaError_t rt_stream_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(begin(stream, NULL, NULL, 0, mode, "cudaStreamBeginCapture"));
}

cudaError_t rt_stream_begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             enum cudaStreamCaptureMode mode)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaStreamBeginCaptureToGraph");
    if (!g)
        return rt_end(cudaErrorInvalidValue);
    if (ndeps && !deps)
        return rt_end(cudaErrorInvalidValue);
    return rt_end(begin(stream, g, (rt_gnode *const *)deps, ndeps, mode,
                        "cudaStreamBeginCaptureToGraph"));
}

/* Is every node in `nodes` an ancestor of (or one of) the origin's frontier? */
static bool joined(rt_gnode *const *frontier, size_t nf, rt_gnode *const *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!rt_graph_node_reaches(nodes[i], frontier, nf))
            return false;
    return true;
}

cudaError_t rt_stream_end_capture(cudaStream_t stream, cudaGraph_t *graph)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!graph)
        return rt_end(cudaErrorInvalidValue);
    *graph = NULL;
    if (rt_stream_check_locked(stream) != cudaSuccess)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaStreamEndCapture",
                                   "%p is not a live stream", (void *)stream));
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (!live(p))
        return rt_end(rt_api_error(cudaErrorIllegalState, "cudaStreamEndCapture",
                                   "stream %p is not capturing", (void *)stream));
    rt_capture *c = p->capture;
    if (c->origin != stream) {
        invalidate(c);
        return rt_end(rt_api_error(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture",
                                   "the capture began in stream %p, not %p", (void *)c->origin,
                                   (void *)stream));
    }
    /* Work forked into other streams must have been joined back (an event recorded there
     * that the origin waited on). */
    rt_capture_point *points[256];
    size_t n = rt_stream_capture_points(points, sizeof points / sizeof points[0]);
    for (size_t i = 0; i < n && !c->invalidated; i++) {
        if (points[i] == p || points[i]->capture != c)
            continue;
        if (!joined(p->deps, p->ndeps, points[i]->deps, points[i]->ndeps)) {
            rt_api_error(cudaErrorStreamCaptureUnjoined, "cudaStreamEndCapture",
                         "a stream forked from the capture was not joined back into %p",
                         (void *)stream);
            e = cudaErrorStreamCaptureUnjoined;
            invalidate(c);
        }
    }
    if (c->invalidated) {
        if (e == cudaSuccess)
            e = cudaErrorStreamCaptureInvalidated;
        if (!c->user_graph)
            rt_graph_free(c->graph);
        c->graph = NULL;
        finish(c, p);
        return rt_end(e);
    }
    *graph = (cudaGraph_t)c->graph;
    rt_log(2, "cudaStreamEndCapture(%p): capture %llu ends", (void *)stream, c->id);
    c->graph = NULL;
    finish(c, p);
    return rt_end(cudaSuccess);
}

static enum cudaStreamCaptureStatus status_of(const rt_capture_point *p)
{
    if (!live(p))
        return cudaStreamCaptureStatusNone;
    return p->capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                   : cudaStreamCaptureStatusActive;
}

cudaError_t rt_stream_is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!status)
        return rt_end(cudaErrorInvalidValue);
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(e);
    *status = status_of(rt_stream_capture_point(stream));
    return rt_end(cudaSuccess);
}

cudaError_t rt_stream_get_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                       unsigned long long *id, cudaGraph_t *graph,
                                       const cudaGraphNode_t **deps, size_t *ndeps)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!status)
        return rt_end(cudaErrorInvalidValue);
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(e);
    rt_capture_point *p = rt_stream_capture_point(stream);
    *status = status_of(p);
    bool active = *status == cudaStreamCaptureStatusActive;
    if (id)
        *id = active ? p->capture->id : 0;
    if (graph)
        *graph = active ? (cudaGraph_t)p->capture->graph : NULL;
    if (deps)
        *deps = active ? (const cudaGraphNode_t *)p->deps : NULL;
    if (ndeps)
        *ndeps = active ? p->ndeps : 0;
    return rt_end(cudaSuccess);
}

cudaError_t rt_stream_update_capture_dependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                  size_t n, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_capture_point *p = rt_stream_capture_point(stream);
    if (!live(p))
        return rt_end(rt_api_error(cudaErrorIllegalState, "cudaStreamUpdateCaptureDependencies",
                                   "stream %p is not capturing", (void *)stream));
    if ((n && !deps) || flags > cudaStreamSetCaptureDependencies)
        return rt_end(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++)
        if (!rt_graph_node_in(p->capture->graph, (rt_gnode *)deps[i]))
            return rt_end(rt_api_error(cudaErrorInvalidValue,
                                       "cudaStreamUpdateCaptureDependencies",
                                       "node %p is not part of the capture's graph",
                                       (void *)deps[i]));
    if (flags == cudaStreamSetCaptureDependencies)
        e = set_deps(p, (rt_gnode *const *)deps, n);
    else
        e = add_deps(p, (rt_gnode *const *)deps, n);
    return rt_end(e);
}

cudaError_t rt_thread_exchange_capture_mode(enum cudaStreamCaptureMode *mode)
{
    if (!mode || (*mode != cudaStreamCaptureModeGlobal &&
                  *mode != cudaStreamCaptureModeThreadLocal &&
                  *mode != cudaStreamCaptureModeRelaxed))
        return rt_record(cudaErrorInvalidValue);
    enum cudaStreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}
