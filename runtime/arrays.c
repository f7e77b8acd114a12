/* arrays.c: CUDA arrays (cudaMallocArray, cudaMalloc3DArray, mipmapped arrays) as plain linear
 * device storage, rows packed (pitch = width x element size), with the channel descriptor and
 * extent kept for cudaArrayGetInfo and for texture objects. Copies to and from arrays address
 * that storage (copy.c). Sampling is the texture unit's business, not this file's.
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define ARRAY_MAGIC 0x61727279u     /* "arry" */
#define MIPMAP_MAGIC 0x6d69706du    /* "mipm" */

typedef struct rt_mipmap {
    uint32_t magic;
    rt_array **levels;
    unsigned nlevels;
} rt_mipmap;

static rt_array **arrays;
static size_t narrays, cap_arrays;
static rt_mipmap **mipmaps;
static size_t nmipmaps, cap_mipmaps;

rt_array *rt_array_lookup(const void *handle)
{
    for (size_t i = 0; handle && i < narrays; i++)
        if (arrays[i] == handle)
            return arrays[i];
    return NULL;
}

static size_t element_size(const struct cudaChannelFormatDesc *d)
{
    int bits = d->x + d->y + d->z + d->w;
    return bits > 0 && bits % 8 == 0 ? (size_t)bits / 8 : 0;
}

/* Checks a channel description the way the runtime does: each channel 0, 8, 16 or 32 bits
 * (channels in order x, y, z, w without gaps), a known kind. */
static bool channel_ok(const struct cudaChannelFormatDesc *d)
{
    const int c[4] = {d->x, d->y, d->z, d->w};
    bool ended = false;
    for (int i = 0; i < 4; i++) {
        if (c[i] != 0 && c[i] != 8 && c[i] != 16 && c[i] != 32)
            return false;
        if (c[i] == 0)
            ended = true;
        else if (ended)
            return false;
    }
    if (c[0] == 0)
        return false;
    return d->f == cudaChannelFormatKindSigned || d->f == cudaChannelFormatKindUnsigned ||
           d->f == cudaChannelFormatKindFloat;
}

static cudaError_t make_array(rt_array **out, const struct cudaChannelFormatDesc *desc,
                              size_t w, size_t h, size_t d, unsigned flags, const char *api)
{
    if (!out || !desc)
        return rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer");
    if (!channel_ok(desc))
        return rt_api_error(cudaErrorInvalidChannelDescriptor, api,
                            "channel description (%d,%d,%d,%d) of kind %d", desc->x, desc->y,
                            desc->z, desc->w, (int)desc->f);
    /* (w, 0, layers) with cudaArrayLayered is a 1D layered array */
    if (w == 0 || (d && !h && !(flags & cudaArrayLayered)))
        return rt_api_error(cudaErrorInvalidValue, api, "extent (%zu, %zu, %zu)", w, h, d);
    size_t elem = element_size(desc);
    rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return cudaErrorMemoryAllocation;
    a->magic = ARRAY_MAGIC;
    a->desc = *desc;
    a->elem = elem;
    a->width = w;
    a->height = h;
    a->depth = d;
    a->flags = flags;
    a->pitch = w * elem;
    a->slice = a->pitch * (h ? h : 1);
    size_t bytes = a->slice * (d ? d : 1);
    uint64_t addr = emu_device_alloc(bytes, EMU_ALLOC_DEVICE);
    if (!addr) {
        free(a);
        return rt_api_error(cudaErrorMemoryAllocation, api, "cannot allocate %zu bytes", bytes);
    }
    a->data = (char *)(uintptr_t)addr;
    if (narrays == cap_arrays) {
        size_t ncap = cap_arrays ? cap_arrays * 2 : 16;
        rt_array **p = realloc(arrays, ncap * sizeof *p);
        if (!p) {
            emu_device_free(addr);
            free(a);
            return cudaErrorMemoryAllocation;
        }
        arrays = p;
        cap_arrays = ncap;
    }
    arrays[narrays++] = a;
    *out = a;
    rt_log(2, "%s(%zu x %zu x %zu, %zu-byte elements) = %p", api, w, h, d, elem, (void *)a);
    return cudaSuccess;
}

static void free_array(rt_array *a)
{
    for (size_t i = 0; i < narrays; i++)
        if (arrays[i] == a) {
            arrays[i] = arrays[--narrays];
            break;
        }
    emu_device_free((uint64_t)(uintptr_t)a->data);
    a->magic = 0;
    free(a);
}

cudaError_t rt_malloc_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_array *a = NULL;
    e = make_array(&a, desc, width, height, 0, flags, "cudaMallocArray");
    if (e == cudaSuccess)
        *array = (cudaArray_t)a;
    return rt_end(e);
}

cudaError_t rt_malloc_3d_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                               struct cudaExtent extent, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_array *a = NULL;
    e = make_array(&a, desc, extent.width, extent.height, extent.depth, flags,
                   "cudaMalloc3DArray");
    if (e == cudaSuccess)
        *array = (cudaArray_t)a;
    return rt_end(e);
}

cudaError_t rt_free_array(cudaArray_t array)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!array)
        return rt_end(cudaSuccess);
    rt_array *a = rt_array_lookup(array);
    if (!a || a->mipmap_level)
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaFreeArray",
                                   "%p is not an array from cudaMallocArray/cudaMalloc3DArray",
                                   (void *)array));
    rt_wait_idle();  /* queued work may still use it */
    free_array(a);
    return rt_end(cudaSuccess);
}

cudaError_t rt_array_get_info(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                              unsigned *flags, cudaArray_const_t array)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_array *a = rt_array_lookup(array);
    if (!a)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, "cudaArrayGetInfo",
                                   "%p is not an array", (const void *)array));
    if (desc)
        *desc = a->desc;
    if (extent)
        *extent = (struct cudaExtent){a->width, a->height, a->depth};
    if (flags)
        *flags = a->flags;
    return rt_end(cudaSuccess);
}

cudaError_t rt_get_channel_desc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    return rt_array_get_info(desc, NULL, NULL, array);
}

/* ---------------------------------------------------------------- mipmapped arrays */

cudaError_t rt_malloc_mipmapped_array(cudaMipmappedArray_t *out,
                                      const struct cudaChannelFormatDesc *desc,
                                      struct cudaExtent extent, unsigned nlevels, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!out || !desc || extent.width == 0)
        return rt_end(cudaErrorInvalidValue);
    /* Level i halves every dimension (at least 1) of level i-1; no more levels than the
     * largest dimension allows. */
    size_t big = extent.width > extent.height ? extent.width : extent.height;
    big = big > extent.depth ? big : extent.depth;
    unsigned most = 1;
    while ((big >> most) > 0)
        most++;
    if (nlevels == 0 || nlevels > most)
        nlevels = most;
    rt_mipmap *m = calloc(1, sizeof *m);
    rt_array **levels = calloc(nlevels, sizeof *levels);
    if (!m || !levels || nmipmaps == cap_mipmaps) {
        size_t ncap = cap_mipmaps ? cap_mipmaps * 2 : 8;
        rt_mipmap **p = m && levels ? realloc(mipmaps, ncap * sizeof *p) : NULL;
        if (!p) {
            free(m);
            free(levels);
            return rt_end(cudaErrorMemoryAllocation);
        }
        mipmaps = p;
        cap_mipmaps = ncap;
    }
    m->magic = MIPMAP_MAGIC;
    m->levels = levels;
    size_t w = extent.width, h = extent.height, d = extent.depth;
    for (unsigned i = 0; i < nlevels && e == cudaSuccess; i++) {
        e = make_array(&levels[i], desc, w, h, d, flags, "cudaMallocMipmappedArray");
        if (e == cudaSuccess) {
            levels[i]->mipmap_level = true;
            m->nlevels++;
        }
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : h;
        d = d > 1 ? d / 2 : d;
    }
    if (e != cudaSuccess) {
        for (unsigned i = 0; i < m->nlevels; i++)
            free_array(levels[i]);
        free(levels);
        free(m);
        return rt_end(e);
    }
    mipmaps[nmipmaps++] = m;
    *out = (cudaMipmappedArray_t)m;
    return rt_end(cudaSuccess);
}

static rt_mipmap *mipmap_lookup(const void *handle)
{
    for (size_t i = 0; handle && i < nmipmaps; i++)
        if (mipmaps[i] == handle)
            return mipmaps[i];
    return NULL;
}

/* Level `index` of a mipmapped array and its level count, or NULL (textures.c). Lock held. */
rt_array *rt_mipmap_level_locked(const void *mm, unsigned index, unsigned *nlevels)
{
    rt_mipmap *m = mipmap_lookup(mm);
    if (!m)
        return NULL;
    if (nlevels)
        *nlevels = m->nlevels;
    return index < m->nlevels ? m->levels[index] : NULL;
}

cudaError_t rt_get_mipmapped_array_level(cudaArray_t *level, cudaMipmappedArray_const_t mm,
                                         unsigned index)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_mipmap *m = mipmap_lookup(mm);
    if (!level || !m || index >= m->nlevels)
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaGetMipmappedArrayLevel",
                                   "%p is not a mipmapped array with a level %u",
                                   (const void *)mm, index));
    *level = (cudaArray_t)m->levels[index];
    return rt_end(cudaSuccess);
}

cudaError_t rt_free_mipmapped_array(cudaMipmappedArray_t mm)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!mm)
        return rt_end(cudaSuccess);
    rt_mipmap *m = mipmap_lookup(mm);
    if (!m)
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaFreeMipmappedArray",
                                   "%p is not a mipmapped array", (void *)mm));
    rt_wait_idle();
    for (unsigned i = 0; i < m->nlevels; i++)
        free_array(m->levels[i]);
    for (size_t i = 0; i < nmipmaps; i++)
        if (mipmaps[i] == m) {
            mipmaps[i] = mipmaps[--nmipmaps];
            break;
        }
    free(m->levels);
    free(m);
    return rt_end(cudaSuccess);
}

void rt_arrays_release_all(void)
{
    while (nmipmaps) {
        rt_mipmap *m = mipmaps[--nmipmaps];
        free(m->levels);  /* the levels are arrays, freed below */
        free(m);
    }
    while (narrays)
        free_array(arrays[narrays - 1]);
}
