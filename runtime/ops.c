/* ops.c: stream operations kept as data (rt_op): running one (on the device worker, or as a
 * node of a graph), copying one for a graph, freeing one. */
#include "runtime/rt_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A side of a copy that was device memory when the copy was made must still be: a graph may
 * run after the memory was freed. */
static cudaError_t still_there(const void *p, size_t span, const char *side)
{
    if (rt_mem_find(p, span, NULL))
        return cudaSuccess;
    return rt_api_error(cudaErrorInvalidValue, "memory copy", "the %s [%p, +%zu) is no longer "
                        "device memory (freed after the copy was recorded?)", side, p, span);
}

static size_t span_of(size_t pitch, size_t slice, size_t width, size_t height, size_t depth)
{
    if (!width || !height || !depth)
        return 0;
    return slice * (depth - 1) + pitch * (height - 1) + width;
}

static cudaError_t run_copy(const rt_copy *c)
{
    size_t dspan = span_of(c->dpitch, c->dslice, c->width, c->height, c->depth);
    size_t sspan = span_of(c->spitch, c->sslice, c->width, c->height, c->depth);
    if (!dspan)
        return cudaSuccess;
    cudaError_t e = cudaSuccess;
    if (c->dst_device)
        e = still_there(c->dst, dspan, "destination");
    if (e == cudaSuccess && c->src_device)
        e = still_there(c->src, sspan, "source");
    if (e != cudaSuccess)
        return e;
    if (rt_g.check && c->dst_device)   /* initcheck: copied bytes count as written */
        for (size_t z = 0; z < c->depth; z++)
            for (size_t y = 0; y < c->height; y++)
                timing_check_host_write(rt_g.check,
                                        (uint64_t)(uintptr_t)(c->dst + z * c->dslice +
                                                              y * c->dpitch), c->width);
    if (c->dpitch == c->width && c->spitch == c->width && c->dslice == c->width * c->height &&
        c->sslice == c->width * c->height) {
        memmove(c->dst, c->src, dspan);
        return cudaSuccess;
    }
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++)
            memmove(c->dst + z * c->dslice + y * c->dpitch,
                    c->src + z * c->sslice + y * c->spitch, c->width);
    return cudaSuccess;
}

static cudaError_t run_fill(const rt_fill *f)
{
    size_t bytes = f->width * f->elem;
    size_t span = span_of(f->pitch, f->slice, bytes, f->height, f->depth);
    if (!span)
        return cudaSuccess;
    cudaError_t e = still_there(f->dst, span, "destination");
    if (e != cudaSuccess)
        return e;
    for (size_t z = 0; z < f->depth; z++)
        for (size_t y = 0; y < f->height; y++) {
            char *row = f->dst + z * f->slice + y * f->pitch;
            if (rt_g.check)   /* initcheck: filled bytes count as written */
                timing_check_host_write(rt_g.check, (uint64_t)(uintptr_t)row, bytes);
            if (f->elem == 1) {
                memset(row, (int)(f->value & 0xff), bytes);
            } else if (f->elem == 2) {
                uint16_t v = (uint16_t)f->value;
                for (size_t i = 0; i < f->width; i++)
                    memcpy(row + 2 * i, &v, 2);
            } else {
                for (size_t i = 0; i < f->width; i++)
                    memcpy(row + 4 * i, &f->value, 4);
            }
        }
    return cudaSuccess;
}

cudaError_t rt_op_run(rt_op *op, uint64_t seq)
{
    cudaError_t e;
    switch (op->kind) {
    case RT_OP_EMPTY:
    case RT_OP_EVENT_WAIT:  /* what it waits for was issued earlier, so it has completed */
        return cudaSuccess;
    case RT_OP_KERNEL:
        return rt_launch_run(&op->kernel);
    case RT_OP_COPY:
        /* The memory stays allocated meanwhile: freeing waits for the device (memory.c). */
        pthread_mutex_unlock(&rt_g.lock);
        e = run_copy(&op->copy);
        pthread_mutex_lock(&rt_g.lock);
        return e;
    case RT_OP_FILL:
        pthread_mutex_unlock(&rt_g.lock);
        e = run_fill(&op->fill);
        pthread_mutex_lock(&rt_g.lock);
        return e;
    case RT_OP_HOST:
        /* The function may call the runtime (CUDA forbids it, programs do it anyway): run it
         * without the lock. */
        pthread_mutex_unlock(&rt_g.lock);
        emu_output_flush();   /* CUDA flushes device printf output before a host callback */
        op->host.fn(op->host.data);
        pthread_mutex_lock(&rt_g.lock);
        return cudaSuccess;
    case RT_OP_CALLBACK: {
        cudaError_t status = rt_g.sticky;
        pthread_mutex_unlock(&rt_g.lock);
        emu_output_flush();
        op->callback.fn(op->callback.stream, status, op->callback.data);
        pthread_mutex_lock(&rt_g.lock);
        return cudaSuccess;
    }
    case RT_OP_FREE:
        return rt_free_locked(op->free.ptr, op->free.api);
    case RT_OP_EVENT_RECORD:
        return rt_event_record_locked(op->event, seq);
    case RT_OP_GRAPH:
        return rt_graph_run(op->graph, seq);
    }
    return cudaErrorInvalidValue;
}

bool rt_op_clone(rt_op *dst, const rt_op *src)
{
    *dst = *src;
    if (src->kind == RT_OP_KERNEL) {
        dst->kernel.params = malloc(src->kernel.params_size ? src->kernel.params_size : 1);
        if (!dst->kernel.params)
            return false;
        memcpy(dst->kernel.params, src->kernel.params, src->kernel.params_size);
    } else if (src->kind == RT_OP_GRAPH) {
        dst->graph = rt_graph_clone_locked(src->graph);
        if (!dst->graph)
            return false;
    }
    /* A graph reads the source when it runs: only a queued copy stages it. */
    assert(src->kind != RT_OP_COPY || !src->copy.staging);
    return true;
}

void rt_op_free(rt_op *op)
{
    if (op->kind == RT_OP_KERNEL) {
        rt_launch_desc_free(&op->kernel);
    } else if (op->kind == RT_OP_GRAPH && op->graph) {
        rt_graph_free(op->graph);
    } else if (op->kind == RT_OP_COPY && op->copy.staging) {
        free(op->copy.staging);
        rt_staging_release(op->copy.staging_size);
        op->copy.staging = NULL;
    }
    op->kind = RT_OP_EMPTY;
}
