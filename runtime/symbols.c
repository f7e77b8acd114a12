/* symbols.c: host access to a module's __device__ / __constant__ variables by their host
 * shadow (cudaMemcpyToSymbol and friends). */
#include "runtime/rt_internal.h"

#include <string.h>

/* The variable's device bytes [offset, offset+count), checked; lock held. */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, const char *api,
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

cudaError_t rt_memcpy_to_symbol(const void *symbol, const void *src, size_t count,
                                size_t offset, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *dst;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = rt_api_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpyToSymbol", "direction %d",
                         (int)kind);
    else if ((e = symbol_range(symbol, count, offset, "cudaMemcpyToSymbol", &dst)) == cudaSuccess &&
             count) {
        if (!src)
            e = cudaErrorInvalidValue;
        else if (kind == cudaMemcpyDeviceToDevice && !rt_mem_find(src, count, NULL))
            e = rt_api_error(cudaErrorInvalidValue, "cudaMemcpyToSymbol",
                             "source %p is not device memory (cudaMemcpyDeviceToDevice)", src);
        else
            memmove(dst, src, count);
    }
    return rt_end(e);
}

cudaError_t rt_memcpy_from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *src;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = rt_api_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpyFromSymbol",
                         "direction %d", (int)kind);
    else if ((e = symbol_range(symbol, count, offset, "cudaMemcpyFromSymbol", &src)) ==
                 cudaSuccess &&
             count) {
        if (!dst)
            e = cudaErrorInvalidValue;
        else if (kind == cudaMemcpyDeviceToDevice && !rt_mem_find(dst, count, NULL))
            e = rt_api_error(cudaErrorInvalidValue, "cudaMemcpyFromSymbol",
                             "destination %p is not device memory (cudaMemcpyDeviceToDevice)",
                             dst);
        else
            memmove(dst, src, count);
    }
    return rt_end(e);
}

cudaError_t rt_get_symbol_address(void **addr, const void *symbol)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *where;
    if (!addr)
        e = cudaErrorInvalidValue;
    else if ((e = symbol_range(symbol, 0, 0, "cudaGetSymbolAddress", &where)) == cudaSuccess)
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
