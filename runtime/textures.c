/* textures.c: texture and surface objects (cudaCreateTextureObject, cudaCreateSurfaceObject and
 * their queries). A texture object is the emulator's description of where the texels are (an
 * array, a mipmapped array, linear or pitched device memory), their format and the sampler
 * state; the emulator hands out the handle kernels use. The runtime keeps the descriptors the
 * object was made from, for the cudaGet*ObjectResourceDesc queries.
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct rt_texobj {
    uint64_t handle;
    bool surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    struct cudaResourceViewDesc view;
    bool has_view;
} rt_texobj;

/* The limits device.c reports (cudaDeviceProp): texture alignment, pitch alignment, linear
 * texture sizes. */
#define TEX_ALIGNMENT 512u
#define TEX_PITCH_ALIGNMENT 32u
#define TEX_1D_LINEAR_MAX (1u << 27)
#define TEX_2D_LINEAR_MAX_W 131072u
#define TEX_2D_LINEAR_MAX_H 65000u

static rt_texobj *objs;
static size_t nobjs, cap_objs;

static rt_texobj *find(uint64_t handle, bool surface)
{
    for (size_t i = 0; i < nobjs; i++)
        if (objs[i].handle == handle && objs[i].surface == surface)
            return &objs[i];
    return NULL;
}

/* Whether a device pointer meets textureAlignment. Allocations are 256-byte aligned here, while
 * a GPU's cudaMalloc returns 512-byte aligned memory: an allocation's base counts as aligned, and
 * offsets into it must be multiples of the alignment. */
static bool tex_aligned(const void *p)
{
    uint64_t base = 0;
    if (!emu_find_allocation((uint64_t)(uintptr_t)p, 1, &base, NULL, NULL))
        return false;
    return ((uint64_t)(uintptr_t)p - base) % TEX_ALIGNMENT == 0;
}

/* Fills the format fields from a channel description; false when it is not one a texture can
 * have (channels of 8, 16 or 32 bits in x, y, z, w order; float channels of 16 or 32 bits). */
static bool set_format(emu_texture *t, const struct cudaChannelFormatDesc *d)
{
    const int c[4] = {d->x, d->y, d->z, d->w};
    t->nchan = 0;
    t->elem = 0;
    for (int i = 0; i < 4; i++) {
        if (c[i] == 0)
            break;
        if (c[i] != 8 && c[i] != 16 && c[i] != 32)
            return false;
        t->bits[t->nchan++] = (uint8_t)c[i];
        t->elem += (uint32_t)c[i] / 8;
    }
    for (int i = t->nchan; i < 4; i++)
        if (c[i] != 0)
            return false;
    if (t->nchan == 0)
        return false;
    switch (d->f) {
    case cudaChannelFormatKindSigned: t->kind = EMU_TEXEL_SIGNED; break;
    case cudaChannelFormatKindUnsigned: t->kind = EMU_TEXEL_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
        t->kind = EMU_TEXEL_FLOAT;
        for (int i = 0; i < t->nchan; i++)
            if (t->bits[i] == 8)
                return false;
        break;
    default: return false;
    }
    return true;
}

/* A view's format: the channel layout it names. */
static bool view_format(enum cudaResourceViewFormat f, struct cudaChannelFormatDesc *d)
{
    static const struct { int n, bits; enum cudaChannelFormatKind kind; } fm[] = {
        [cudaResViewFormatUnsignedChar1] = {1, 8, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedChar2] = {2, 8, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedChar4] = {4, 8, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatSignedChar1] = {1, 8, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedChar2] = {2, 8, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedChar4] = {4, 8, cudaChannelFormatKindSigned},
        [cudaResViewFormatUnsignedShort1] = {1, 16, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedShort2] = {2, 16, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedShort4] = {4, 16, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatSignedShort1] = {1, 16, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedShort2] = {2, 16, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedShort4] = {4, 16, cudaChannelFormatKindSigned},
        [cudaResViewFormatUnsignedInt1] = {1, 32, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedInt2] = {2, 32, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatUnsignedInt4] = {4, 32, cudaChannelFormatKindUnsigned},
        [cudaResViewFormatSignedInt1] = {1, 32, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedInt2] = {2, 32, cudaChannelFormatKindSigned},
        [cudaResViewFormatSignedInt4] = {4, 32, cudaChannelFormatKindSigned},
        [cudaResViewFormatHalf1] = {1, 16, cudaChannelFormatKindFloat},
        [cudaResViewFormatHalf2] = {2, 16, cudaChannelFormatKindFloat},
        [cudaResViewFormatHalf4] = {4, 16, cudaChannelFormatKindFloat},
        [cudaResViewFormatFloat1] = {1, 32, cudaChannelFormatKindFloat},
        [cudaResViewFormatFloat2] = {2, 32, cudaChannelFormatKindFloat},
        [cudaResViewFormatFloat4] = {4, 32, cudaChannelFormatKindFloat},
    };
    if ((unsigned)f >= sizeof fm / sizeof fm[0] || fm[f].n == 0)
        return false;
    int b = fm[f].bits;
    *d = (struct cudaChannelFormatDesc){b, fm[f].n > 1 ? b : 0, fm[f].n > 2 ? b : 0,
                                        fm[f].n > 2 ? b : 0, fm[f].kind};
    return true;
}

/* Level l of the object from an array's storage. */
static void level_of_array(emu_texture *t, const rt_array *a, unsigned l)
{
    emu_tex_level *v = &t->level[l];
    v->base = (uint64_t)(uintptr_t)a->data;
    v->width = (uint32_t)a->width;
    v->height = a->height ? (uint32_t)a->height : 1;
    v->depth = (a->depth && !(a->flags & (cudaArrayLayered | cudaArrayCubemap)))
                   ? (uint32_t)a->depth : 1;
    v->pitch = a->pitch;
    v->slice = a->slice;
}

/* The geometry of an array: dimensions, layers, cubemap. */
static void shape_of_array(emu_texture *t, const rt_array *a)
{
    bool layered = a->flags & cudaArrayLayered, cube = a->flags & cudaArrayCubemap;
    t->cubemap = cube;
    t->layered = layered && !cube;
    if (cube) {
        t->dims = 2;
        t->layers = a->depth ? (uint32_t)a->depth : 6;
        t->layered = layered;
    } else if (layered) {
        t->dims = a->height ? 2 : 1;
        t->layers = a->depth ? (uint32_t)a->depth : 1;
    } else {
        t->dims = a->depth ? 3 : a->height ? 2 : 1;
    }
}

/* Describes resource res for the emulator. Lock held. */
static cudaError_t describe(emu_texture *t, const struct cudaResourceDesc *res, bool surface,
                            const char *api)
{
    memset(t, 0, sizeof *t);
    t->surface = surface;
    t->nlevels = 1;
    switch (res->resType) {
    case cudaResourceTypeArray: {
        const rt_array *a = rt_array_lookup(res->res.array.array);
        if (!a)
            return rt_api_error(cudaErrorInvalidValue, api, "%p is not a CUDA array",
                                (void *)res->res.array.array);
        /* An array made without cudaArraySurfaceLoadStore still becomes a surface object:
         * CUDA 13's runtime creates it (seen on an H100: tests/cuda/textures.cu's
         * surface_without_load_store_flag), and the flag is documented for surface
         * references, which CUDA 12 removed. */
        if (!set_format(t, &a->desc))
            return rt_api_error(cudaErrorInvalidChannelDescriptor, api,
                                "the array's channel format cannot be sampled");
        shape_of_array(t, a);
        level_of_array(t, a, 0);
        return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray: {
        unsigned n = 0;
        const rt_array *a0 = rt_mipmap_level_locked(res->res.mipmap.mipmap, 0, &n);
        if (!a0 || surface)
            return rt_api_error(cudaErrorInvalidValue, api, "%p is not a mipmapped array",
                                (void *)res->res.mipmap.mipmap);
        if (!set_format(t, &a0->desc))
            return rt_api_error(cudaErrorInvalidChannelDescriptor, api,
                                "the array's channel format cannot be sampled");
        shape_of_array(t, a0);
        t->nlevels = n < EMU_TEX_MAX_LEVELS ? n : EMU_TEX_MAX_LEVELS;
        for (unsigned l = 0; l < t->nlevels; l++)
            level_of_array(t, rt_mipmap_level_locked(res->res.mipmap.mipmap, l, NULL), l);
        return cudaSuccess;
    }
    case cudaResourceTypeLinear: {
        const void *ptr = res->res.linear.devPtr;
        if (surface || !ptr || !set_format(t, &res->res.linear.desc))
            return rt_api_error(cudaErrorInvalidValue, api,
                                "a linear resource needs a device pointer and a channel format "
                                "of 8-, 16- or 32-bit channels");
        if (!tex_aligned(ptr))
            return rt_api_error(cudaErrorInvalidValue, api,
                                "devPtr %p is not aligned to textureAlignment (%zu bytes)", ptr,
                                (size_t)TEX_ALIGNMENT);
        size_t n = res->res.linear.sizeInBytes / t->elem;
        if (n == 0 || n > (size_t)TEX_1D_LINEAR_MAX ||
            !rt_mem_find(ptr, res->res.linear.sizeInBytes, NULL))
            return rt_api_error(cudaErrorInvalidValue, api,
                                "sizeInBytes %zu does not fit the allocation or the limit of "
                                "%u elements", res->res.linear.sizeInBytes,
                                TEX_1D_LINEAR_MAX);
        t->dims = 1;
        t->linear = true;
        t->level[0] = (emu_tex_level){(uint64_t)(uintptr_t)ptr, (uint32_t)n, 1, 1,
                                      res->res.linear.sizeInBytes, res->res.linear.sizeInBytes};
        return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
        const void *ptr = res->res.pitch2D.devPtr;
        size_t w = res->res.pitch2D.width, h = res->res.pitch2D.height,
               pitch = res->res.pitch2D.pitchInBytes;
        if (surface || !ptr || !set_format(t, &res->res.pitch2D.desc) || !w || !h)
            return rt_api_error(cudaErrorInvalidValue, api,
                                "a pitch-2D resource needs a device pointer, a size and a "
                                "channel format of 8-, 16- or 32-bit channels");
        if (!tex_aligned(ptr) || pitch % (size_t)TEX_PITCH_ALIGNMENT ||
            pitch < w * t->elem)
            return rt_api_error(cudaErrorInvalidValue, api,
                                "devPtr %p or pitch %zu is not aligned (textureAlignment %zu, "
                                "texturePitchAlignment %zu) or the pitch is below a row",
                                ptr, pitch, (size_t)TEX_ALIGNMENT, (size_t)TEX_PITCH_ALIGNMENT);
        if (w > (size_t)TEX_2D_LINEAR_MAX_W || h > (size_t)TEX_2D_LINEAR_MAX_H ||
            !rt_mem_find(ptr, pitch * (h - 1) + w * t->elem, NULL))
            return rt_api_error(cudaErrorInvalidValue, api,
                                "%zu x %zu texels at pitch %zu do not fit the allocation or "
                                "the device's limits", w, h, pitch);
        t->dims = 2;
        t->level[0] = (emu_tex_level){(uint64_t)(uintptr_t)ptr, (uint32_t)w, (uint32_t)h, 1,
                                      pitch, pitch * h};
        return cudaSuccess;
    }
    default:
        return rt_api_error(cudaErrorInvalidValue, api, "resource type %d", (int)res->resType);
    }
}

/* A resource view: another format of the same texel size, a range of levels and layers. */
static cudaError_t apply_view(emu_texture *t, const struct cudaResourceViewDesc *v,
                              const char *api)
{
    if (v->format != cudaResViewFormatNone) {
        struct cudaChannelFormatDesc d;
        emu_texture f = *t;
        if (!view_format(v->format, &d) || !set_format(&f, &d) || f.elem != t->elem)
            return rt_api_error(cudaErrorInvalidValue, api,
                                "view format %d is not a reinterpretation of the resource's "
                                "texels", (int)v->format);
        t->nchan = f.nchan;
        t->kind = f.kind;
        memcpy(t->bits, f.bits, sizeof t->bits);
    }
    if (v->lastMipmapLevel < v->firstMipmapLevel || v->lastMipmapLevel >= t->nlevels ||
        ((t->layered || t->cubemap) &&
         (v->lastLayer < v->firstLayer || v->lastLayer >= t->layers)))
        return rt_api_error(cudaErrorInvalidValue, api, "the view's levels or layers are "
                            "outside the resource");
    if (v->firstMipmapLevel) {
        memmove(&t->level[0], &t->level[v->firstMipmapLevel],
                (v->lastMipmapLevel - v->firstMipmapLevel + 1) * sizeof t->level[0]);
    }
    t->nlevels = v->lastMipmapLevel - v->firstMipmapLevel + 1;
    if (t->layered || t->cubemap) {
        for (unsigned l = 0; l < t->nlevels; l++)
            t->level[l].base += (uint64_t)v->firstLayer * t->level[l].slice;
        t->layers = v->lastLayer - v->firstLayer + 1;
    }
    return cudaSuccess;
}

static cudaError_t add_object(uint64_t handle, bool surface, const struct cudaResourceDesc *res,
                              const struct cudaTextureDesc *tex,
                              const struct cudaResourceViewDesc *view)
{
    if (nobjs == cap_objs) {
        size_t nc = cap_objs ? cap_objs * 2 : 16;
        rt_texobj *n = realloc(objs, nc * sizeof *n);
        if (!n)
            return cudaErrorMemoryAllocation;
        objs = n;
        cap_objs = nc;
    }
    rt_texobj *o = &objs[nobjs++];
    memset(o, 0, sizeof *o);
    o->handle = handle;
    o->surface = surface;
    o->res = *res;
    if (tex)
        o->tex = *tex;
    if (view) {
        o->view = *view;
        o->has_view = true;
    }
    return cudaSuccess;
}

cudaError_t rt_create_texture_object(cudaTextureObject_t *obj, const struct cudaResourceDesc *res,
                                     const struct cudaTextureDesc *tex,
                                     const struct cudaResourceViewDesc *view)
{
    static const char api[] = "cudaCreateTextureObject";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!obj || !res)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    /* CUDA 13's runtime answers a missing texture description with cudaErrorInvalidResourceHandle
     * (seen on an H100: tests/cuda/textures.cu's texture_needs_texture_desc). */
    if (!tex)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, api,
                                   "pTexDesc is NULL: a texture object needs a texture "
                                   "description"));
    emu_texture t;
    if ((e = describe(&t, res, false, api)) != cudaSuccess)
        return rt_end(e);
    for (int i = 0; i < 3; i++) {
        if ((unsigned)tex->addressMode[i] > cudaAddressModeBorder)
            return rt_end(rt_api_error(cudaErrorInvalidValue, api, "address mode %d",
                                       (int)tex->addressMode[i]));
        t.address[i] = (uint8_t)tex->addressMode[i];
    }
    if ((unsigned)tex->filterMode > cudaFilterModeLinear ||
        (unsigned)tex->readMode > cudaReadModeNormalizedFloat ||
        (unsigned)tex->mipmapFilterMode > cudaFilterModeLinear)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "filter mode %d, read mode %d",
                                   (int)tex->filterMode, (int)tex->readMode));
    /* linear filtering needs float results: a float format, or integers read normalized */
    bool float_out = t.kind == EMU_TEXEL_FLOAT ||
                     (tex->readMode == cudaReadModeNormalizedFloat && t.bits[0] <= 16);
    if (tex->filterMode == cudaFilterModeLinear && !float_out)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "linear filtering of integer texels read as integers"));
    t.filter_linear = tex->filterMode == cudaFilterModeLinear && !t.linear;
    t.read_normalized = tex->readMode == cudaReadModeNormalizedFloat;
    t.normalized_coords = tex->normalizedCoords != 0;
    t.srgb = tex->sRGB != 0;
    memcpy(t.border, tex->borderColor, sizeof t.border);
    t.mip_linear = tex->mipmapFilterMode == cudaFilterModeLinear;
    t.lod_bias = tex->mipmapLevelBias;
    t.min_lod = tex->minMipmapLevelClamp;
    t.max_lod = tex->maxMipmapLevelClamp;
    if (view && (e = apply_view(&t, view, api)) != cudaSuccess)
        return rt_end(e);
    uint64_t h = emu_texture_create(&t);
    if (!h)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "the resource cannot be sampled"));
    if ((e = add_object(h, false, res, tex, view)) != cudaSuccess) {
        emu_texture_destroy(h);
        return rt_end(e);
    }
    *obj = h;
    rt_log(2, "%s(%d-D, %u channel(s) of %u bits) = %llu", api, t.dims, t.nchan, t.bits[0],
           (unsigned long long)h);
    return rt_end(cudaSuccess);
}

static cudaError_t destroy(uint64_t handle, bool surface, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (handle == 0)
        return rt_end(cudaSuccess);
    rt_texobj *o = find(handle, surface);
    if (!o) {
        /* CUDA 13's runtime does not check the handle: destroying one that is no live object
         * returns cudaSuccess (seen on an H100: tests/cuda/textures.cu's
         * destroy_unknown_texture). */
        rt_log(1, "%s: %llu is not a live %s object; nothing destroyed", api,
               (unsigned long long)handle, surface ? "surface" : "texture");
        return rt_end(cudaSuccess);
    }
    rt_wait_idle();  /* a queued kernel may still sample it */
    emu_texture_destroy(handle);
    *o = objs[--nobjs];
    return rt_end(cudaSuccess);
}

cudaError_t rt_destroy_texture_object(cudaTextureObject_t obj)
{
    return destroy(obj, false, "cudaDestroyTextureObject");
}

cudaError_t rt_get_texture_object_desc(cudaTextureObject_t obj, struct cudaResourceDesc *res,
                                       struct cudaTextureDesc *tex,
                                       struct cudaResourceViewDesc *view, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_texobj *o = find(obj, false);
    if (!o || (!res && !tex && !view))
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "%llu is not a live texture "
                                   "object, or the result pointer is NULL",
                                   (unsigned long long)obj));
    if (res)
        *res = o->res;
    if (tex)
        *tex = o->tex;
    if (view) {
        if (!o->has_view)
            return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                       "the object was created without a resource view"));
        *view = o->view;
    }
    return rt_end(cudaSuccess);
}

cudaError_t rt_create_surface_object(cudaSurfaceObject_t *obj, const struct cudaResourceDesc *res)
{
    static const char api[] = "cudaCreateSurfaceObject";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!obj || !res)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    if (res->resType != cudaResourceTypeArray)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                   "a surface object needs a CUDA array (resource type %d)",
                                   (int)res->resType));
    emu_texture t;
    if ((e = describe(&t, res, true, api)) != cudaSuccess)
        return rt_end(e);
    uint64_t h = emu_texture_create(&t);
    if (!h)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "the array cannot be a surface"));
    if ((e = add_object(h, true, res, NULL, NULL)) != cudaSuccess) {
        emu_texture_destroy(h);
        return rt_end(e);
    }
    *obj = h;
    return rt_end(cudaSuccess);
}

cudaError_t rt_destroy_surface_object(cudaSurfaceObject_t obj)
{
    return destroy(obj, true, "cudaDestroySurfaceObject");
}

cudaError_t rt_get_surface_object_desc(cudaSurfaceObject_t obj, struct cudaResourceDesc *res)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_texobj *o = find(obj, true);
    if (!o || !res)
        return rt_end(rt_api_error(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc",
                                   "%llu is not a live surface object, or res is NULL",
                                   (unsigned long long)obj));
    *res = o->res;
    return rt_end(cudaSuccess);
}

cudaError_t rt_texture_1d_linear_max_width(size_t *width, const struct cudaChannelFormatDesc *fmt,
                                           int device)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    emu_texture t;
    if (device != 0)
        e = cudaErrorInvalidDevice;
    else if (!width || !fmt || !set_format(&t, fmt))
        e = cudaErrorInvalidValue;
    else
        *width = TEX_1D_LINEAR_MAX;
    return rt_end(e);
}

void rt_textures_release_all(void)
{
    rt_texrefs_release_all();
    for (size_t i = 0; i < nobjs; i++)
        emu_texture_destroy(objs[i].handle);
    nobjs = 0;
    emu_texture_release_all();
}
