/* memory.c: device, managed and pinned host memory on top of the emulator's address map, and
 * the copies and fills between them, with the checks the real runtime makes (copy direction,
 * pointers inside live allocations). */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What this runtime handed out (or registered), so that cudaFree can tell its own pointers and
 * cudaDeviceReset can release everything. */
typedef struct tracked {
    uint64_t addr;
    emu_alloc_kind kind;
    bool registered;  /* cudaHostRegister'ed host memory (not ours to free) */
} tracked;

static tracked *allocs;
static size_t nallocs, cap_allocs;

static bool track(uint64_t addr, emu_alloc_kind kind, bool registered)
{
    if (nallocs == cap_allocs) {
        size_t ncap = cap_allocs ? cap_allocs * 2 : 64;
        tracked *p = realloc(allocs, ncap * sizeof *p);
        if (!p)
            return false;
        allocs = p;
        cap_allocs = ncap;
    }
    allocs[nallocs++] = (tracked){addr, kind, registered};
    return true;
}

static tracked *find_tracked(uint64_t addr)
{
    for (size_t i = nallocs; i-- > 0;)
        if (allocs[i].addr == addr)
            return &allocs[i];
    return NULL;
}

static void untrack(tracked *t)
{
    *t = allocs[--nallocs];
}

bool rt_mem_find(const void *p, size_t n, emu_alloc_kind *kind)
{
    uint64_t base, size;
    emu_alloc_kind k;
    if (!emu_find_allocation((uint64_t)(uintptr_t)p, n ? n : 1, &base, &size, &k))
        return false;
    if (kind)
        *kind = k;
    return true;
}

void rt_memory_release_all(void)
{
    for (size_t i = 0; i < nallocs; i++) {
        if (allocs[i].registered)
            emu_unregister_host_range(allocs[i].addr);
        else
            emu_device_free(allocs[i].addr);
    }
    nallocs = 0;
}

static const char *kind_word(emu_alloc_kind k)
{
    switch (k) {
    case EMU_ALLOC_DEVICE: return "device memory";
    case EMU_ALLOC_MODULE: return "a __device__/__constant__ variable";
    case EMU_ALLOC_HOST: return "pinned host memory";
    case EMU_ALLOC_MANAGED: return "managed memory";
    }
    return "memory";
}

/* ---------------------------------------------------------------- allocation */

static cudaError_t alloc(void **ptr, size_t size, emu_alloc_kind kind, const char *api)
{
    if (!ptr)
        return rt_api_error(cudaErrorInvalidValue, api, "the result pointer is NULL");
    *ptr = NULL;
    if (size == 0)
        return cudaSuccess;
    uint64_t addr = emu_device_alloc(size, kind);
    if (!addr) {
        uint64_t used = 0, total = 0;
        emu_device_mem_info(&used, &total);
        return rt_api_error(cudaErrorMemoryAllocation, api,
                            "cannot allocate %zu bytes (%llu of %llu bytes in use)", size,
                            (unsigned long long)used, (unsigned long long)total);
    }
    if (!track(addr, kind, false)) {
        emu_device_free(addr);
        return cudaErrorMemoryAllocation;
    }
    *ptr = (void *)(uintptr_t)addr;
    rt_log(2, "%s(%zu) = %p", api, size, *ptr);
    return cudaSuccess;
}

cudaError_t rt_malloc(void **ptr, size_t size)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(alloc(ptr, size, EMU_ALLOC_DEVICE, "cudaMalloc"));
}

cudaError_t rt_malloc_managed(void **ptr, size_t size, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        e = rt_api_error(cudaErrorInvalidValue, "cudaMallocManaged", "flags %#x", flags);
    else if (size == 0)
        e = rt_api_error(cudaErrorInvalidValue, "cudaMallocManaged", "size is 0");
    else
        e = alloc(ptr, size, EMU_ALLOC_MANAGED, "cudaMallocManaged");
    return rt_end(e);
}

cudaError_t rt_malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!pitch) {
        e = cudaErrorInvalidValue;
    } else {
        /* Rows aligned as the real runtime aligns them (texturePitchAlignment rounds to 512). */
        size_t p = (width + 511) & ~(size_t)511;
        *pitch = p;
        e = alloc(ptr, p * height, EMU_ALLOC_DEVICE, "cudaMallocPitch");
    }
    return rt_end(e);
}

cudaError_t rt_free(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (ptr) {
        tracked *t = find_tracked((uint64_t)(uintptr_t)ptr);
        emu_alloc_kind kind;
        if (t && !t->registered && (t->kind == EMU_ALLOC_DEVICE || t->kind == EMU_ALLOC_MANAGED)) {
            emu_device_free(t->addr);
            untrack(t);
            rt_log(2, "cudaFree(%p)", ptr);
        } else if (rt_mem_find(ptr, 1, &kind)) {
            e = rt_api_error(cudaErrorInvalidValue, "cudaFree",
                             "%p is inside %s but not the start of a cudaMalloc allocation", ptr,
                             kind_word(kind));
        } else {
            e = rt_api_error(cudaErrorInvalidValue, "cudaFree",
                             "%p is not device memory (freed twice?)", ptr);
        }
    }
    return rt_end(e);
}

cudaError_t rt_host_alloc(void **ptr, size_t size, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                            cudaHostAllocWriteCombined))
        e = rt_api_error(cudaErrorInvalidValue, "cudaHostAlloc", "flags %#x", flags);
    else
        e = alloc(ptr, size, EMU_ALLOC_HOST, "cudaHostAlloc");
    return rt_end(e);
}

cudaError_t rt_free_host(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (ptr) {
        tracked *t = find_tracked((uint64_t)(uintptr_t)ptr);
        if (t && !t->registered && t->kind == EMU_ALLOC_HOST) {
            emu_device_free(t->addr);
            untrack(t);
        } else {
            e = rt_api_error(cudaErrorInvalidValue, "cudaFreeHost",
                             "%p was not allocated by cudaMallocHost/cudaHostAlloc", ptr);
        }
    }
    return rt_end(e);
}

cudaError_t rt_host_register(void *ptr, size_t size, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    (void)flags;
    emu_alloc_kind kind;
    if (!ptr || !size)
        e = rt_api_error(cudaErrorInvalidValue, "cudaHostRegister", "empty range");
    else if (rt_mem_find(ptr, 1, &kind))
        e = kind == EMU_ALLOC_HOST ? cudaErrorHostMemoryAlreadyRegistered
                                   : rt_api_error(cudaErrorInvalidValue, "cudaHostRegister",
                                                  "%p is %s", ptr, kind_word(kind));
    else if (!emu_register_host_range((uint64_t)(uintptr_t)ptr, size))
        e = rt_api_error(cudaErrorInvalidValue, "cudaHostRegister",
                         "cannot register [%p, +%zu)", ptr, size);
    else if (!track((uint64_t)(uintptr_t)ptr, EMU_ALLOC_HOST, true))
        e = cudaErrorMemoryAllocation;
    return rt_end(e);
}

cudaError_t rt_host_unregister(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    tracked *t = find_tracked((uint64_t)(uintptr_t)ptr);
    if (!t || !t->registered) {
        e = cudaErrorHostMemoryNotRegistered;
    } else {
        emu_unregister_host_range(t->addr);
        untrack(t);
    }
    return rt_end(e);
}

cudaError_t rt_host_get_device_pointer(void **dev, void *host, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    emu_alloc_kind kind;
    if (!dev || flags != 0)
        e = cudaErrorInvalidValue;
    else if (!rt_mem_find(host, 1, &kind) || kind != EMU_ALLOC_HOST)
        e = rt_api_error(cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                         "%p is not pinned or registered host memory", host);
    else
        *dev = host;  /* unified addressing: the device sees it at the same address */
    return rt_end(e);
}

/* ---------------------------------------------------------------- copies and fills */

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

/* A pointer the direction says is on the host must not be device-only memory. */
static cudaError_t check_host_side(const void *p, const char *side, enum cudaMemcpyKind kind,
                                   const char *api)
{
    emu_alloc_kind k;
    if (rt_mem_find(p, 1, &k) && (k == EMU_ALLOC_DEVICE || k == EMU_ALLOC_MODULE))
        return rt_api_error(cudaErrorInvalidValue, api, "%s %p is %s, not host memory (%s)",
                            side, p, kind_word(k), kind_name(kind));
    return cudaSuccess;
}

/* Checks a copy in direction kind that writes [dst, +dspan) and reads [src, +sspan). */
static cudaError_t check_copy(void *dst, size_t dspan, const void *src, size_t sspan,
                              enum cudaMemcpyKind kind, const char *api)
{
    cudaError_t e = cudaSuccess;
    switch (kind) {
    case cudaMemcpyHostToHost:
        break;
    case cudaMemcpyHostToDevice:
        if ((e = check_device_side(dst, dspan, "destination", kind, api)) == cudaSuccess)
            e = check_host_side(src, "source", kind, api);
        break;
    case cudaMemcpyDeviceToHost:
        if ((e = check_device_side(src, sspan, "source", kind, api)) == cudaSuccess)
            e = check_host_side(dst, "destination", kind, api);
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
    default:
        return rt_api_error(cudaErrorInvalidMemcpyDirection, api, "direction %d", (int)kind);
    }
    if (e == cudaSuccess && (!dst || !src))
        e = rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer");
    return e;
}

cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (count) {
        e = check_copy(dst, count, src, count, kind, "cudaMemcpy");
        if (e == cudaSuccess) {
            memmove(dst, src, count);
            rt_log(2, "cudaMemcpy(%p, %p, %zu, %s)", dst, src, count, kind_name(kind));
        }
    } else if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
        e = cudaErrorInvalidMemcpyDirection;
    }
    return rt_end(e);
}

cudaError_t rt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (width > dpitch || width > spitch) {
        e = rt_api_error(cudaErrorInvalidPitchValue, "cudaMemcpy2D",
                         "width %zu exceeds a pitch (%zu, %zu)", width, dpitch, spitch);
    } else if (width && height) {
        /* Both spans, first byte to last, must be valid; then copy row by row. */
        size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
        e = check_copy(dst, dspan, src, sspan, kind, "cudaMemcpy2D");
        for (size_t r = 0; e == cudaSuccess && r < height; r++)
            memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    }
    return rt_end(e);
}

static cudaError_t check_fill(void *ptr, size_t span, const char *api)
{
    if (rt_mem_find(ptr, span, NULL))
        return cudaSuccess;
    return rt_api_error(cudaErrorInvalidValue, api, "[%p, +%zu) is not inside device memory",
                        ptr, span);
}

cudaError_t rt_memset(void *ptr, int value, size_t count)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (count && (e = check_fill(ptr, count, "cudaMemset")) == cudaSuccess)
        memset(ptr, value, count);
    return rt_end(e);
}

cudaError_t rt_memset_2d(void *ptr, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (width > pitch)
        e = cudaErrorInvalidPitchValue;
    else if (width && height &&
             (e = check_fill(ptr, pitch * (height - 1) + width, "cudaMemset2D")) == cudaSuccess)
        for (size_t r = 0; r < height; r++)
            memset((char *)ptr + r * pitch, value, width);
    return rt_end(e);
}

/* ---------------------------------------------------------------- queries */

cudaError_t rt_mem_get_info(size_t *free_bytes, size_t *total_bytes)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    uint64_t used = 0, total = 0;
    emu_device_mem_info(&used, &total);
    if (free_bytes)
        *free_bytes = (size_t)(total - used);
    if (total_bytes)
        *total_bytes = (size_t)total;
    return rt_end(cudaSuccess);
}

cudaError_t rt_pointer_get_attributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!attr)
        return rt_end(cudaErrorInvalidValue);
    memset(attr, 0, sizeof *attr);
    emu_alloc_kind kind;
    if (!rt_mem_find(ptr, 1, &kind)) {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = -2;
        attr->hostPointer = (void *)ptr;
    } else {
        attr->device = 0;
        switch (kind) {
        case EMU_ALLOC_DEVICE:
        case EMU_ALLOC_MODULE:
            attr->type = cudaMemoryTypeDevice;
            attr->devicePointer = (void *)ptr;
            break;
        case EMU_ALLOC_HOST:
            attr->type = cudaMemoryTypeHost;
            attr->devicePointer = attr->hostPointer = (void *)ptr;
            break;
        case EMU_ALLOC_MANAGED:
            attr->type = cudaMemoryTypeManaged;
            attr->devicePointer = attr->hostPointer = (void *)ptr;
            break;
        }
    }
    return rt_end(cudaSuccess);
}
