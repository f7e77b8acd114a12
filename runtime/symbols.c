/* symbols.c: host access to a module's __device__ / __constant__ variables by their host
 * shadow (cudaMemcpyToSymbol and friends). */
#include "runtime/rt_internal.h"

#include <string.h>

cudaError_t rt_symbol_range(const void *symbol, size_t count, size_t offset, const char *api,
                            void **where)
{
    rt_var *v = NULL;
    uint64_t addr = 0;
    cudaError_t e = rt_var_address(symbol, api, &v, &addr);
    if (e != cudaSuccess)
        return e;
    if (offset > v->size || count > v->size - offset)
        return rt_api_error(cudaErrorInvalidValue, api,
                            "%zu bytes at offset %zu exceed variable %s (%zu bytes)", count,
                            offset, v->name, v->size);
    *where = (void *)(uintptr_t)(addr + offset);
    return cudaSuccess;
}

/* A copy between a variable and ptr, in direction kind (to: into the variable), queued or
 * recorded into the capturing stream. */
static cudaError_t symbol_copy(const void *symbol, void *ptr, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, bool to, cudaStream_t stream,
                               const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *where;
    bool direction_ok = kind == cudaMemcpyDefault || kind == cudaMemcpyDeviceToDevice ||
                        kind == (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    if (!direction_ok)
        return rt_end(rt_api_error(cudaErrorInvalidMemcpyDirection, api, "direction %d",
                                   (int)kind));
    if ((e = rt_stream_check_locked(stream)) != cudaSuccess)
        return rt_end(rt_api_error(e, api, "%p is not a live stream", (void *)stream));
    if ((e = rt_symbol_range(symbol, count, offset, api, &where)) != cudaSuccess || !count)
        return rt_end(e);
    if (!ptr)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    if (kind == cudaMemcpyDeviceToDevice && !rt_mem_find(ptr, count, NULL))
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "%s %p is not device memory (cudaMemcpyDeviceToDevice)",
                                   to ? "source" : "destination", ptr));
    rt_copy c = {.dst = to ? where : ptr, .src = to ? ptr : where, .width = count,
                 .height = 1, .depth = 1};
    c.dpitch = c.dslice = c.spitch = c.sslice = count;
    c.dst_device = rt_mem_find(c.dst, 1, NULL);
    c.src_device = rt_mem_find(c.src, 1, NULL);
    return rt_end(rt_copy_submit(&c, stream, api));
}

cudaError_t rt_memcpy_to_symbol(const void *symbol, const void *src, size_t count,
                                size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream,
                                const char *api)
{
    return symbol_copy(symbol, (void *)src, count, offset, kind, true, stream, api);
}

cudaError_t rt_memcpy_from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, cudaStream_t stream, const char *api)
{
    return symbol_copy(symbol, dst, count, offset, kind, false, stream, api);
}

cudaError_t rt_get_symbol_address(void **addr, const void *symbol)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *where;
    if (!addr)
        e = cudaErrorInvalidValue;
    else if ((e = rt_symbol_range(symbol, 0, 0, "cudaGetSymbolAddress", &where)) == cudaSuccess)
        *addr = where;
    return rt_end(e);
}

cudaError_t rt_get_symbol_size(size_t *size, const void *symbol)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_var *v = NULL;
    uint64_t addr;
    if (!size)
        e = cudaErrorInvalidValue;
    else if ((e = rt_var_address(symbol, "cudaGetSymbolSize", &v, &addr)) == cudaSuccess)
        *size = v->size;
    return rt_end(e);
}
