/* copy.c: every copy and fill (cudaMemcpy 1D/2D/3D, to and from arrays, peer, sync and async;
 * cudaMemset 1D/2D/3D) as one operation on pitched boxes (rt_copy, rt_fill), with the checks
 * the real runtime makes: the direction against where each pointer lies (unified addressing
 * answers cudaMemcpyDefault), and the whole span of each device side inside one live
 * allocation. An operation on a capturing stream becomes a graph node instead of running.
 */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault: return "cudaMemcpyDefault";
    }
    return "an invalid direction";
}

/* A pointer the direction says is on the device: [p, p+n) inside one live allocation. */
static cudaError_t check_device_side(const void *p, size_t n, const char *side,
                                     enum cudaMemcpyKind kind, const char *api)
{
    if (rt_mem_find(p, n, NULL))
        return cudaSuccess;
    if (rt_mem_find(p, 1, NULL))
        return rt_api_error(cudaErrorInvalidValue, api,
                            "%s range [%p, +%zu) runs past the end of its allocation", side, p,
                            n);
    return rt_api_error(cudaErrorInvalidValue, api, "%s %p is not device memory (%s)", side, p,
                        kind_name(kind));
}

/* A pointer the direction says is on the host may be device memory: the runtime API reference
 * calls such a mismatch undefined, and CUDA 13's runtime copies it as device memory, where
 * unified addressing says it lies, as for cudaMemcpyDefault (seen on an H100 with the CUDA 13.0
 * runtime: tests/cuda/expected_errors.cu's device_side_named_host). It must then fit in its
 * allocation, as every device side must. */
static cudaError_t check_host_side(const void *p, size_t n, const char *side,
                                   enum cudaMemcpyKind kind, const char *api)
{
    emu_alloc_kind k;
    if (rt_mem_find(p, 1, &k) && (k == EMU_ALLOC_DEVICE || k == EMU_ALLOC_MODULE))
        return check_device_side(p, n, side, kind, api);
    return cudaSuccess;
}

static size_t span_of(size_t pitch, size_t slice, size_t width, size_t height, size_t depth)
{
    if (!width || !height || !depth)
        return 0;
    return slice * (depth - 1) + pitch * (height - 1) + width;
}

cudaError_t rt_copy_check(const rt_copy *c, enum cudaMemcpyKind kind, const char *api)
{
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt_api_error(cudaErrorInvalidMemcpyDirection, api, "direction %d", (int)kind);
    size_t dspan = span_of(c->dpitch, c->dslice, c->width, c->height, c->depth);
    size_t sspan = span_of(c->spitch, c->sslice, c->width, c->height, c->depth);
    if (!dspan)
        return cudaSuccess;
    const void *dst = c->dst, *src = c->src;
    if (!dst || !src)
        return rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer");
    cudaError_t e = cudaSuccess;
    switch (kind) {
    case cudaMemcpyHostToHost:
        break;
    case cudaMemcpyHostToDevice:
        if ((e = check_device_side(dst, dspan, "destination", kind, api)) == cudaSuccess)
            e = check_host_side(src, sspan, "source", kind, api);
        break;
    case cudaMemcpyDeviceToHost:
        if ((e = check_device_side(src, sspan, "source", kind, api)) == cudaSuccess)
            e = check_host_side(dst, dspan, "destination", kind, api);
        break;
    case cudaMemcpyDeviceToDevice:
        if ((e = check_device_side(dst, dspan, "destination", kind, api)) == cudaSuccess)
            e = check_device_side(src, sspan, "source", kind, api);
        break;
    case cudaMemcpyDefault:
        /* Unified addressing: whichever side lies in an allocation must fit in it. */
        if (rt_mem_find(dst, 1, NULL))
            e = check_device_side(dst, dspan, "destination", kind, api);
        if (e == cudaSuccess && rt_mem_find(src, 1, NULL))
            e = check_device_side(src, sspan, "source", kind, api);
        break;
    }
    return e;
}

/* Where one side of a copy lies, as CUDA's synchronisation rules tell them apart. */
typedef enum side_kind { SIDE_PAGEABLE, SIDE_PINNED, SIDE_DEVICE, SIDE_MANAGED } side_kind;

static side_kind side_of(const void *p)
{
    emu_alloc_kind k;
    if (!rt_mem_find(p, 1, &k))
        return SIDE_PAGEABLE;
    switch (k) {
    case EMU_ALLOC_HOST: return SIDE_PINNED;
    case EMU_ALLOC_MANAGED: return SIDE_MANAGED;
    default: return SIDE_DEVICE;
    }
}

static bool async_call(const char *api)
{
    return strstr(api, "Async") != NULL;
}

/* Queues a checked copy and waits as the CUDA call waits ("API synchronization behavior" in
 * the runtime API reference):
 *   synchronous calls return once the copy is done, except device to device, which only
 *   queues; a side in managed memory counts as host memory (the host may read it next);
 *   asynchronous calls return at once, except host to host and device to pageable host
 *   memory (done before returning), and pageable host to device, whose source is staged
 *   first (up to a bound; beyond it the call waits for the copy instead). Lock held. */
cudaError_t rt_copy_submit(rt_copy *c, cudaStream_t stream, const char *api)
{
    rt_op op = {.kind = RT_OP_COPY, .copy = *c};
    rt_capture_point *cp = rt_stream_capture_point(stream);
    if (cp && cp->capture)
        return rt_op_submit(&op, stream);
    side_kind d = side_of(c->dst), s = side_of(c->src);
    bool host_d = d == SIDE_PAGEABLE || d == SIDE_PINNED, host_s = s == SIDE_PAGEABLE ||
                                                                   s == SIDE_PINNED;
    bool wait;
    if (!async_call(api)) {
        wait = !(d == SIDE_DEVICE && s == SIDE_DEVICE);
    } else if ((host_d && host_s) || d == SIDE_PAGEABLE) {
        wait = true;
    } else if (s == SIDE_PAGEABLE) {
        size_t span = span_of(c->spitch, c->sslice, c->width, c->height, c->depth);
        wait = !span || !rt_staging_reserve(span);
        if (!wait) {
            char *copy = malloc(span);
            if (!copy) {
                rt_staging_release(span);
                wait = true;
            } else {
                memcpy(copy, c->src, span);
                op.copy.staging = copy;
                op.copy.staging_size = span;
                op.copy.src = copy;
            }
        }
    } else {
        wait = false;
    }
    cudaError_t e = rt_op_submit_mode(&op, stream, wait);
    if (wait) {
        /* a blocking copy flushes device printf output */
        rt_flush_output_locked();
    }
    return e;
}

/* Checks c, then queues it or records it into the capturing stream. Lock held. */
static cudaError_t submit_copy(rt_copy *c, enum cudaMemcpyKind kind, cudaStream_t stream,
                               const char *api)
{
    cudaError_t e = rt_stream_check_locked(stream);
    if (e != cudaSuccess)
        return rt_api_error(e, api, "%p is not a live stream", (void *)stream);
    if ((e = rt_copy_check(c, kind, api)) != cudaSuccess)
        return e;
    c->dst_device = rt_mem_find(c->dst, 1, NULL);
    c->src_device = rt_mem_find(c->src, 1, NULL);
    rt_log(2, "%s(%p, %p, %zu x %zu x %zu, %s)", api, (void *)c->dst, (const void *)c->src,
           c->width, c->height, c->depth, kind_name(kind));
    return rt_copy_submit(c, stream, api);
}

static rt_copy linear(void *dst, const void *src, size_t count)
{
    return (rt_copy){.dst = dst, .dpitch = count, .dslice = count, .src = src, .spitch = count,
                     .sslice = count, .width = count, .height = 1, .depth = 1};
}

cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                      cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_copy c = linear(dst, src, count);
    return rt_end(submit_copy(&c, kind, stream, api));
}

cudaError_t rt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                         const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (height > 1 && (width > dpitch || width > spitch))
        return rt_end(rt_api_error(cudaErrorInvalidPitchValue, api,
                                   "width %zu exceeds a pitch (%zu, %zu)", width, dpitch,
                                   spitch));
    rt_copy c = {.dst = dst, .dpitch = dpitch, .dslice = dpitch * height, .src = src,
                 .spitch = spitch, .sslice = spitch * height, .width = width, .height = height,
                 .depth = 1};
    return rt_end(submit_copy(&c, kind, stream, api));
}

/* One side of a 3D copy: an array (positions in elements) or a pitched pointer (x in bytes). */
static cudaError_t side_3d(cudaArray_t array, struct cudaPos pos, struct cudaPitchedPtr ptr,
                           size_t elem, struct cudaExtent ext, const char *side, const char *api,
                           char **base, size_t *pitch, size_t *slice)
{
    size_t wbytes = ext.width * elem;
    if (array) {
        rt_array *a = rt_array_lookup(array);
        if (!a)
            return rt_api_error(cudaErrorInvalidResourceHandle, api, "%s %p is not an array",
                                side, (void *)array);
        size_t h = a->height ? a->height : 1, d = a->depth ? a->depth : 1;
        if (pos.x + ext.width > a->width || pos.y + ext.height > h || pos.z + ext.depth > d)
            return rt_api_error(cudaErrorInvalidValue, api,
                                "%s box at (%zu,%zu,%zu) of (%zu,%zu,%zu) elements exceeds the "
                                "%zu x %zu x %zu array",
                                side, pos.x, pos.y, pos.z, ext.width, ext.height, ext.depth,
                                a->width, h, d);
        *base = a->data + pos.z * a->slice + pos.y * a->pitch + pos.x * a->elem;
        *pitch = a->pitch;
        *slice = a->slice;
        return cudaSuccess;
    }
    if (!ptr.ptr)
        return rt_api_error(cudaErrorInvalidValue, api, "no %s pointer or array", side);
    if (ext.height > 1 && pos.x + wbytes > ptr.pitch)
        return rt_api_error(cudaErrorInvalidPitchValue, api,
                            "%s rows of %zu bytes at x=%zu exceed the pitch %zu", side, wbytes,
                            pos.x, ptr.pitch);
    size_t rows = ptr.ysize ? ptr.ysize : ext.height;
    if (ext.depth > 1 && ptr.ysize && pos.y + ext.height > ptr.ysize)
        return rt_api_error(cudaErrorInvalidValue, api,
                            "%s rows %zu..%zu exceed the %zu rows of a slice", side, pos.y,
                            pos.y + ext.height, ptr.ysize);
    *pitch = ptr.pitch ? ptr.pitch : wbytes;
    *slice = *pitch * rows;
    *base = (char *)ptr.ptr + pos.z * *slice + pos.y * *pitch + pos.x;
    return cudaSuccess;
}

cudaError_t rt_copy_from_3d(const struct cudaMemcpy3DParms *p, rt_copy *c, const char *api)
{
    if (!p)
        return rt_api_error(cudaErrorInvalidValue, api, "no parameters");
    if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return rt_api_error(cudaErrorInvalidValue, api,
                            "a side names both an array and a pointer");
    /* With an array involved, widths and x positions count its elements. */
    size_t elem = 1;
    rt_array *sa = p->srcArray ? rt_array_lookup(p->srcArray) : NULL;
    rt_array *da = p->dstArray ? rt_array_lookup(p->dstArray) : NULL;
    if (sa)
        elem = sa->elem;
    if (da) {
        if (sa && sa->elem != da->elem)
            return rt_api_error(cudaErrorInvalidValue, api,
                                "the arrays' elements differ in size (%zu, %zu)", sa->elem,
                                da->elem);
        elem = da->elem;
    }
    memset(c, 0, sizeof *c);
    char *sbase = NULL, *dbase = NULL;
    cudaError_t e = side_3d(p->srcArray, p->srcPos, p->srcPtr, elem, p->extent, "source", api,
                            &sbase, &c->spitch, &c->sslice);
    if (e == cudaSuccess)
        e = side_3d(p->dstArray, p->dstPos, p->dstPtr, elem, p->extent, "destination", api,
                    &dbase, &c->dpitch, &c->dslice);
    if (e != cudaSuccess)
        return e;
    c->src = sbase;
    c->dst = dbase;
    c->width = p->extent.width * elem;
    c->height = p->extent.height;
    c->depth = p->extent.depth;
    if ((e = rt_copy_check(c, p->kind, api)) != cudaSuccess)
        return e;
    c->dst_device = rt_mem_find(c->dst, 1, NULL);
    c->src_device = rt_mem_find(c->src, 1, NULL);
    return cudaSuccess;
}

cudaError_t rt_memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_copy c;
    if ((e = rt_copy_from_3d(p, &c, api)) != cudaSuccess)
        return rt_end(e);
    return rt_end(submit_copy(&c, p->kind, stream, api));
}

cudaError_t rt_memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream,
                              const char *api)
{
    if (!p)
        return rt_record(cudaErrorInvalidValue);
    if (p->srcDevice != 0 || p->dstDevice != 0)
        return rt_record(rt_api_error(cudaErrorInvalidDevice, api,
                                      "ptxsim has one device (0), not %d and %d", p->srcDevice,
                                      p->dstDevice));
    struct cudaMemcpy3DParms q;
    memset(&q, 0, sizeof q);
    q.srcArray = p->srcArray;
    q.srcPos = p->srcPos;
    q.srcPtr = p->srcPtr;
    q.dstArray = p->dstArray;
    q.dstPos = p->dstPos;
    q.dstPtr = p->dstPtr;
    q.extent = p->extent;
    q.kind = cudaMemcpyDefault;
    return rt_memcpy_3d(&q, stream, api);
}

cudaError_t rt_memcpy_peer(void *dst, int dst_device, const void *src, int src_device,
                           size_t count, cudaStream_t stream, const char *api)
{
    if (dst_device != 0 || src_device != 0)
        return rt_record(rt_api_error(cudaErrorInvalidDevice, api,
                                      "ptxsim has one device (0), not %d and %d", src_device,
                                      dst_device));
    return rt_memcpy(dst, src, count, cudaMemcpyDeviceToDevice, stream, api);
}

/* ---------------------------------------------------------------- arrays */

/* The 2D box (x bytes, y rows) of width bytes x height rows inside an array, checked. */
static cudaError_t array_box(cudaArray_const_t array, size_t x, size_t y, size_t width,
                             size_t height, const char *api, char **base, size_t *pitch)
{
    rt_array *a = rt_array_lookup(array);
    if (!a)
        return rt_api_error(cudaErrorInvalidResourceHandle, api, "%p is not an array",
                            (const void *)array);
    size_t rows = a->height ? a->height : 1;
    if (a->depth > 1)
        rows *= a->depth;  /* the 2D calls see a 3D array's slices one after another */
    if (x + width > a->pitch || y + height > rows)
        return rt_api_error(cudaErrorInvalidValue, api,
                            "a box of %zu bytes x %zu rows at (%zu bytes, row %zu) exceeds the "
                            "array's %zu bytes x %zu rows",
                            width, height, x, y, a->pitch, rows);
    *base = a->data + y * a->pitch + x;
    *pitch = a->pitch;
    return cudaSuccess;
}

cudaError_t rt_memcpy_2d_array(cudaArray_t dst, size_t dx, size_t dy, void *dptr, size_t dpitch,
                               cudaArray_const_t src, size_t sx, size_t sy, const void *sptr,
                               size_t spitch, size_t width, size_t height,
                               enum cudaMemcpyKind kind, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_copy c = {.width = width, .height = height, .depth = 1};
    char *d = dptr, *s = (char *)sptr;
    if (dst)
        e = array_box(dst, dx, dy, width, height, api, &d, &dpitch);
    if (e == cudaSuccess && src)
        e = array_box(src, sx, sy, width, height, api, &s, &spitch);
    if (e == cudaSuccess && height > 1 && (width > dpitch || width > spitch))
        e = rt_api_error(cudaErrorInvalidPitchValue, api, "width %zu exceeds a pitch (%zu, %zu)",
                         width, dpitch, spitch);
    if (e != cudaSuccess)
        return rt_end(e);
    c.dst = d;
    c.dpitch = dpitch;
    c.dslice = dpitch * height;
    c.src = s;
    c.spitch = spitch;
    c.sslice = spitch * height;
    return rt_end(submit_copy(&c, kind, stream, api));
}

cudaError_t rt_memcpy_array_linear(cudaArray_t dst, size_t dx, size_t dy, void *dptr,
                                   cudaArray_const_t src, size_t sx, size_t sy, const void *sptr,
                                   size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                                   const char *api)
{
    /* The deprecated 1D forms: count bytes from (x bytes, row y), running on into the next
     * rows, which the packed storage makes one contiguous range. */
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    char *d = dptr, *s = (char *)sptr;
    rt_array *a;
    if (dst) {
        if (!(a = rt_array_lookup(dst)))
            return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, api,
                                       "%p is not an array", (void *)dst));
        size_t off = dy * a->pitch + dx, total = a->slice * (a->depth ? a->depth : 1);
        if (off > total || count > total - off)
            return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                       "%zu bytes at offset %zu exceed the %zu-byte array",
                                       count, off, total));
        d = a->data + off;
    }
    if (src) {
        if (!(a = rt_array_lookup(src)))
            return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, api,
                                       "%p is not an array", (const void *)src));
        size_t off = sy * a->pitch + sx, total = a->slice * (a->depth ? a->depth : 1);
        if (off > total || count > total - off)
            return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                       "%zu bytes at offset %zu exceed the %zu-byte array",
                                       count, off, total));
        s = a->data + off;
    }
    rt_copy c = linear(d, s, count);
    return rt_end(submit_copy(&c, kind, stream, api));
}

/* ---------------------------------------------------------------- fills */

cudaError_t rt_fill_from_params(const struct cudaMemsetParams *p, rt_fill *f, const char *api)
{
    if (!p)
        return rt_api_error(cudaErrorInvalidValue, api, "no parameters");
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return rt_api_error(cudaErrorInvalidValue, api, "element size %u (1, 2 or 4)",
                            p->elementSize);
    size_t bytes = p->width * p->elementSize;
    if (p->height > 1 && bytes > p->pitch)
        return rt_api_error(cudaErrorInvalidPitchValue, api, "rows of %zu bytes exceed pitch %zu",
                            bytes, p->pitch);
    *f = (rt_fill){.dst = p->dst, .pitch = p->height > 1 ? p->pitch : bytes,
                   .value = p->value, .elem = p->elementSize, .width = p->width,
                   .height = p->height, .depth = 1};
    f->slice = f->pitch * p->height;
    size_t span = span_of(f->pitch, f->slice, bytes, f->height, 1);
    if (span && !rt_mem_find(p->dst, span, NULL))
        return rt_api_error(cudaErrorInvalidValue, api, "[%p, +%zu) is not inside device memory",
                            p->dst, span);
    return cudaSuccess;
}

static cudaError_t submit_fill(rt_fill *f, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_stream_check_locked(stream);
    if (e != cudaSuccess)
        return rt_api_error(e, api, "%p is not a live stream", (void *)stream);
    size_t span = span_of(f->pitch, f->slice, f->width * f->elem, f->height, f->depth);
    if (span && !rt_mem_find(f->dst, span, NULL))
        return rt_api_error(cudaErrorInvalidValue, api, "[%p, +%zu) is not inside device memory",
                            (void *)f->dst, span);
    /* A synchronous fill waits only when it writes memory the host reads directly (pinned
     * or managed memory), as CUDA's memset does. */
    side_kind where = side_of(f->dst);
    bool wait = !async_call(api) && (where == SIDE_PINNED || where == SIDE_MANAGED);
    rt_op op = {.kind = RT_OP_FILL, .fill = *f};
    return rt_op_submit_mode(&op, stream, wait);
}

cudaError_t rt_memset(void *ptr, int value, size_t count, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_fill f = {.dst = ptr, .pitch = count, .slice = count, .value = (uint32_t)value, .elem = 1,
                 .width = count, .height = 1, .depth = 1};
    return rt_end(submit_fill(&f, stream, api));
}

cudaError_t rt_memset_elems(void *ptr, size_t pitch, uint32_t value, unsigned elem, size_t width,
                            size_t height, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (elem != 1 && elem != 2 && elem != 4)
        return rt_end(cudaErrorInvalidValue);
    if ((uintptr_t)ptr % elem)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "%p is not aligned to the %u-byte elements", ptr, elem));
    if (height > 1 && (width * elem > pitch || pitch % elem))
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "rows of %zu bytes do not fit the pitch %zu", width * elem,
                                   pitch));
    if (height <= 1)
        pitch = width * elem;
    rt_fill f = {.dst = ptr, .pitch = pitch, .slice = pitch * height, .value = value,
                 .elem = elem, .width = width, .height = height, .depth = 1};
    return rt_end(submit_fill(&f, stream, api));
}

cudaError_t rt_memset_3d(void *ptr, size_t pitch, size_t ysize, int value, size_t width,
                         size_t height, size_t depth, cudaStream_t stream, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (height > 1 && width > pitch)
        return rt_end(rt_api_error(cudaErrorInvalidPitchValue, api,
                                   "width %zu exceeds the pitch %zu", width, pitch));
    if (depth > 1 && ysize && height > ysize)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "%zu rows exceed the %zu rows of a slice", height, ysize));
    rt_fill f = {.dst = ptr, .pitch = pitch, .slice = pitch * (ysize ? ysize : height),
                 .value = (uint32_t)value, .elem = 1, .width = width, .height = height,
                 .depth = depth};
    return rt_end(submit_fill(&f, stream, api));
}
