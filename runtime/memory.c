/* memory.c: device, managed and pinned host memory on top of the emulator's address map
 * (allocation, pitched allocation, registration, queries). Copies and fills are in copy.c,
 * arrays in arrays.c, memory pools in mempool.c. */
#include "runtime/rt_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What this runtime handed out (or registered), so that cudaFree can tell its own pointers and
 * cudaDeviceReset can release everything. */
typedef struct tracked {
    uint64_t addr;
    emu_alloc_kind kind;
    bool registered;  /* cudaHostRegister'ed host memory (not ours to free) */
    rt_context *owner;  /* the context current when it was made (cuCtxDestroy frees it) */
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
    allocs[nallocs++] = (tracked){addr, kind, registered, rt_ctx_owner()};
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

/* initcheck: freed bytes stop being "never written", so memory the address is reused for later
 * (a module's variables, pinned host memory) does not inherit the state. */
static void forget_for_checks(uint64_t addr)
{
    uint64_t base, size;
    if (rt_g.check && emu_find_allocation(addr, 1, &base, &size, NULL))
        timing_check_host_write(rt_g.check, base, size);
}

void rt_memory_release_all(void)
{
    assert(rt_device_stopped());
    for (size_t i = 0; i < nallocs; i++) {
        if (allocs[i].registered) {
            emu_unregister_host_range(allocs[i].addr);
        } else {
            forget_for_checks(allocs[i].addr);
            emu_device_free(allocs[i].addr);
        }
    }
    nallocs = 0;
}

void rt_memory_release_owner(const rt_context *owner)
{
    assert(rt_device_stopped());
    for (size_t i = 0; i < nallocs;) {
        if (allocs[i].owner != owner) {
            i++;
            continue;
        }
        if (allocs[i].registered) {
            emu_unregister_host_range(allocs[i].addr);
        } else {
            rt_mempool_forget(allocs[i].addr);
            forget_for_checks(allocs[i].addr);
            emu_device_free(allocs[i].addr);
        }
        allocs[i] = allocs[--nallocs];
    }
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
    if (rt_g.check && kind == EMU_ALLOC_DEVICE)
        timing_check_alloc(rt_g.check, addr, size);   /* initcheck: not written yet */
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
    /* A zero size is no error: CUDA 13's runtime accepts it (seen on an H100:
     * tests/cuda/managed_memory.cu's managed_zero_size), though its reference says
     * cudaErrorInvalidValue; as for cudaMalloc, *ptr is then NULL. */
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        e = rt_api_error(cudaErrorInvalidValue, "cudaMallocManaged", "flags %#x", flags);
    else
        e = alloc(ptr, size, EMU_ALLOC_MANAGED, "cudaMallocManaged");
    return rt_end(e);
}

/* Rows aligned as the real runtime aligns them for pitched allocations (512 bytes). */
static size_t row_pitch(size_t width)
{
    return (width + 511) & ~(size_t)511;
}

cudaError_t rt_malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!pitch) {
        e = cudaErrorInvalidValue;
    } else {
        size_t p = row_pitch(width);
        *pitch = p;
        e = alloc(ptr, p * height, EMU_ALLOC_DEVICE, "cudaMallocPitch");
    }
    return rt_end(e);
}

cudaError_t rt_malloc_3d(struct cudaPitchedPtr *out, struct cudaExtent extent)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!out)
        return rt_end(cudaErrorInvalidValue);
    size_t p = row_pitch(extent.width);
    void *ptr = NULL;
    e = alloc(&ptr, p * extent.height * extent.depth, EMU_ALLOC_DEVICE, "cudaMalloc3D");
    if (e == cudaSuccess)
        *out = (struct cudaPitchedPtr){ptr, p, extent.width, extent.height};
    return rt_end(e);
}

cudaError_t rt_malloc_locked(void **ptr, size_t size, const char *api)
{
    return alloc(ptr, size, EMU_ALLOC_DEVICE, api);
}

cudaError_t rt_free_locked(void *ptr, const char *api)
{
    if (!ptr)
        return cudaSuccess;
    assert(rt_device_stopped());
    tracked *t = find_tracked((uint64_t)(uintptr_t)ptr);
    emu_alloc_kind kind;
    if (t && !t->registered && (t->kind == EMU_ALLOC_DEVICE || t->kind == EMU_ALLOC_MANAGED)) {
        rt_mempool_forget(t->addr);
        forget_for_checks(t->addr);
        emu_device_free(t->addr);
        untrack(t);
        rt_log(2, "%s(%p)", api, ptr);
        return cudaSuccess;
    }
    if (rt_mem_find(ptr, 1, &kind))
        return rt_api_error(cudaErrorInvalidValue, api,
                            "%p is inside %s but not the start of a cudaMalloc allocation", ptr,
                            kind_word(kind));
    return rt_api_error(cudaErrorInvalidValue, api, "%p is not device memory (freed twice?)",
                        ptr);
}

cudaError_t rt_free(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    /* cudaFree synchronises with the device: queued work may still use the memory. */
    if (ptr)
        rt_wait_idle();
    return rt_end(rt_free_locked(ptr, "cudaFree"));
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
        rt_wait_idle();  /* as cudaFree: queued copies may still use it */
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
    rt_wait_idle();  /* queued copies and kernels may still use it */
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

cudaError_t rt_mem_range(const void *ptr, void **base, size_t *size)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    uint64_t b, n;
    if (!emu_find_allocation((uint64_t)(uintptr_t)ptr, 1, &b, &n, NULL))
        return rt_end(cudaErrorInvalidValue);
    if (base)
        *base = (void *)(uintptr_t)b;
    if (size)
        *size = (size_t)n;
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
