/* mempool.c: stream-ordered allocation (cudaMallocAsync / cudaFreeAsync) and memory pools.
 * An asynchronous allocation is an ordinary one made at once (memory is never short enough to
 * wait for the stream); an asynchronous free is queued on the stream, so work queued before it
 * still finds the memory. A pool is the bookkeeping CUDA reports for it: bytes in use, bytes it keeps reserved
 * (it keeps freed memory up to its release threshold until the next synchronisation or trim),
 * and both high-water marks. Each device has a default pool, which is also its current pool
 * until cudaDeviceSetMemPool names another.
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define POOL_MAGIC 0x706f6f6cu  /* "pool" */

typedef struct rt_pool {
    uint32_t magic;
    struct cudaMemPoolProps props;
    uint64_t release_threshold;
    int reuse[3];               /* the three cudaMemPoolReuse* switches */
    uint64_t used, used_high, reserved, reserved_high;
} rt_pool;

typedef struct pool_alloc {
    uint64_t addr, size;
    rt_pool *pool;
} pool_alloc;

static rt_pool default_pool = {.magic = POOL_MAGIC, .reuse = {1, 1, 1}};
static rt_pool *current_pool = &default_pool;
static rt_pool **pools;
static size_t npools, cap_pools;
static pool_alloc *pallocs;
static size_t npallocs, cap_pallocs;

static rt_pool *pool_checked(cudaMemPool_t handle, const char *api)
{
    rt_pool *p = (rt_pool *)handle;
    if (p == &default_pool)
        return p;
    for (size_t i = 0; p && i < npools; i++)
        if (pools[i] == p)
            return p;
    rt_api_error(cudaErrorInvalidValue, api, "%p is not a memory pool", (void *)handle);
    return NULL;
}

/* Freed memory goes back to the pool, which keeps it reserved until a synchronisation. */
static void account_free(rt_pool *p, uint64_t size)
{
    p->used -= size < p->used ? size : p->used;
}

/* At a synchronisation a pool releases what it holds beyond its release threshold. */
static void release(rt_pool *p)
{
    uint64_t keep = p->used > p->release_threshold ? p->used : p->release_threshold;
    if (p->reserved > keep)
        p->reserved = keep;
}

void rt_mempool_forget(uint64_t addr)
{
    for (size_t i = 0; i < npallocs; i++)
        if (pallocs[i].addr == addr) {
            account_free(pallocs[i].pool, pallocs[i].size);
            pallocs[i] = pallocs[--npallocs];
            return;
        }
}

void rt_mempool_release_all(void)
{
    npallocs = 0;
    default_pool.used = default_pool.reserved = 0;
    for (size_t i = 0; i < npools; i++)
        pools[i]->used = pools[i]->reserved = 0;
}

static cudaError_t pool_malloc(void **ptr, size_t size, rt_pool *p, cudaStream_t stream,
                               const char *api)
{
    cudaError_t e = rt_stream_check_locked(stream);
    if (e != cudaSuccess)
        return rt_api_error(e, api, "%p is not a live stream", (void *)stream);
    if (!ptr)
        return rt_api_error(cudaErrorInvalidValue, api, "the result pointer is NULL");
    rt_capture_point *cp = rt_stream_capture_point(stream);
    if (cp && cp->capture)
        return rt_api_error(cudaErrorNotSupported, api,
                            "stream-ordered allocation inside a stream capture (graph memory "
                            "nodes) is not supported yet");
    if (p->props.maxSize && p->used + size > p->props.maxSize)
        return rt_api_error(cudaErrorMemoryAllocation, api,
                            "the pool's %zu-byte limit is reached", p->props.maxSize);
    if ((e = rt_malloc_locked(ptr, size, api)) != cudaSuccess || !*ptr)
        return e;
    if (npallocs == cap_pallocs) {
        size_t ncap = cap_pallocs ? cap_pallocs * 2 : 64;
        pool_alloc *a = realloc(pallocs, ncap * sizeof *a);
        if (!a) {
            rt_device_stop();
            rt_free_locked(*ptr, api);
            return cudaErrorMemoryAllocation;
        }
        pallocs = a;
        cap_pallocs = ncap;
    }
    pallocs[npallocs++] = (pool_alloc){(uint64_t)(uintptr_t)*ptr, size, p};
    p->used += size;
    if (p->used > p->used_high)
        p->used_high = p->used;
    if (p->reserved < p->used)
        p->reserved = p->used;
    if (p->reserved > p->reserved_high)
        p->reserved_high = p->reserved;
    return cudaSuccess;
}

cudaError_t rt_malloc_async(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream)
{
    const char *api = pool ? "cudaMallocFromPoolAsync" : "cudaMallocAsync";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_pool *p = pool ? pool_checked(pool, api) : current_pool;
    if (!p)
        return rt_end(cudaErrorInvalidValue);
    return rt_end(pool_malloc(ptr, size, p, stream, api));
}

cudaError_t rt_free_async(void *ptr, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, "cudaFreeAsync", "%p is not a live stream",
                                   (void *)stream));
    rt_capture_point *cp = rt_stream_capture_point(stream);
    if (cp && cp->capture)
        return rt_end(rt_api_error(cudaErrorNotSupported, "cudaFreeAsync",
                                   "stream-ordered free inside a stream capture is not "
                                   "supported yet"));
    if (!ptr)
        return rt_end(cudaSuccess);
    /* Checked now (a bad pointer is this call's error), freed in stream order. */
    emu_alloc_kind kind;
    if (!rt_mem_find(ptr, 1, &kind) || (kind != EMU_ALLOC_DEVICE && kind != EMU_ALLOC_MANAGED))
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaFreeAsync",
                                   "%p is not device memory (freed twice?)", ptr));
    rt_op op = {.kind = RT_OP_FREE, .free = {ptr, "cudaFreeAsync"}};
    return rt_end(rt_op_submit(&op, stream));
}

cudaError_t rt_device_get_mem_pool(cudaMemPool_t *pool, int device, bool default_one)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!pool)
        return rt_end(cudaErrorInvalidValue);
    if (device != 0)
        return rt_end(cudaErrorInvalidDevice);
    *pool = (cudaMemPool_t)(default_one ? &default_pool : current_pool);
    return rt_end(cudaSuccess);
}

cudaError_t rt_device_set_mem_pool(int device, cudaMemPool_t pool)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (device != 0)
        return rt_end(cudaErrorInvalidDevice);
    rt_pool *p = pool_checked(pool, "cudaDeviceSetMemPool");
    if (!p)
        return rt_end(cudaErrorInvalidValue);
    current_pool = p;
    return rt_end(cudaSuccess);
}

cudaError_t rt_mem_pool_create(cudaMemPool_t *pool, const struct cudaMemPoolProps *props)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!pool || !props || props->allocType != cudaMemAllocationTypePinned ||
        (props->location.type != cudaMemLocationTypeDevice &&
         props->location.type != cudaMemLocationTypeHost &&
         props->location.type != cudaMemLocationTypeHostNuma) ||
        (props->location.type == cudaMemLocationTypeDevice && props->location.id != 0))
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaMemPoolCreate",
                                   "pool properties (pinned allocations on device 0 expected)"));
    rt_pool *p = calloc(1, sizeof *p);
    if (!p)
        return rt_end(cudaErrorMemoryAllocation);
    if (npools == cap_pools) {
        size_t ncap = cap_pools ? cap_pools * 2 : 8;
        rt_pool **a = realloc(pools, ncap * sizeof *a);
        if (!a) {
            free(p);
            return rt_end(cudaErrorMemoryAllocation);
        }
        pools = a;
        cap_pools = ncap;
    }
    p->magic = POOL_MAGIC;
    p->props = *props;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    pools[npools++] = p;
    *pool = (cudaMemPool_t)p;
    return rt_end(cudaSuccess);
}

cudaError_t rt_mem_pool_destroy(cudaMemPool_t pool)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_pool *p = pool_checked(pool, "cudaMemPoolDestroy");
    if (!p || p == &default_pool)
        return rt_end(cudaErrorInvalidValue);
    /* Memory still allocated from it stays valid until freed (as CUDA defers the release);
     * it simply belongs to no pool's accounting any more. */
    for (size_t i = 0; i < npallocs;)
        if (pallocs[i].pool == p)
            pallocs[i] = pallocs[--npallocs];
        else
            i++;
    for (size_t i = 0; i < npools; i++)
        if (pools[i] == p) {
            pools[i] = pools[--npools];
            break;
        }
    if (current_pool == p)
        current_pool = &default_pool;
    p->magic = 0;
    free(p);
    return rt_end(cudaSuccess);
}

cudaError_t rt_mem_pool_trim_to(cudaMemPool_t pool, size_t keep)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_pool *p = pool_checked(pool, "cudaMemPoolTrimTo");
    if (!p)
        return rt_end(cudaErrorInvalidValue);
    uint64_t floor = p->used > keep ? p->used : keep;
    if (p->reserved > floor)
        p->reserved = floor;
    return rt_end(cudaSuccess);
}

cudaError_t rt_mem_pool_attribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value,
                                  bool set)
{
    const char *api = set ? "cudaMemPoolSetAttribute" : "cudaMemPoolGetAttribute";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_pool *p = pool_checked(pool, api);
    if (!p || !value)
        return rt_end(cudaErrorInvalidValue);
    uint64_t *u64 = value;
    int *i32 = value;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        if (set)
            p->reuse[attr - 1] = *i32 != 0;
        else
            *i32 = p->reuse[attr - 1];
        break;
    case cudaMemPoolAttrReleaseThreshold:
        if (set)
            p->release_threshold = *u64;
        else
            *u64 = p->release_threshold;
        break;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        /* Only resetting to zero is allowed: it restarts the mark from the current value. */
        if (set && *u64 != 0)
            e = cudaErrorInvalidValue;
        else if (set && attr == cudaMemPoolAttrReservedMemHigh)
            p->reserved_high = p->reserved;
        else if (set)
            p->used_high = p->used;
        else
            *u64 = attr == cudaMemPoolAttrReservedMemHigh ? p->reserved_high : p->used_high;
        break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
        if (set)
            e = cudaErrorInvalidValue;
        else
            *u64 = attr == cudaMemPoolAttrReservedMemCurrent ? p->reserved : p->used;
        break;
    default:
        e = rt_api_error(cudaErrorInvalidValue, api, "attribute %d", (int)attr);
    }
    return rt_end(e);
}

cudaError_t rt_mem_pool_access(cudaMemPool_t pool, enum cudaMemAccessFlags *flags,
                               const struct cudaMemAccessDesc *descs, size_t count, bool set)
{
    const char *api = set ? "cudaMemPoolSetAccess" : "cudaMemPoolGetAccess";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_pool *p = pool_checked(pool, api);
    if (!p || (set && count && !descs) || (!set && !flags))
        return rt_end(cudaErrorInvalidValue);
    for (size_t i = 0; set && i < count; i++)
        if (descs[i].location.type == cudaMemLocationTypeDevice && descs[i].location.id != 0)
            return rt_end(cudaErrorInvalidDevice);
    /* One device: it can always read and write its own pools. */
    if (!set)
        *flags = cudaMemAccessFlagsProtReadWrite;
    return rt_end(cudaSuccess);
}

/* The pools come back to their release thresholds at every synchronisation. */
void rt_mempool_synchronized(void)
{
    release(&default_pool);
    for (size_t i = 0; i < npools; i++)
        release(pools[i]);
}
