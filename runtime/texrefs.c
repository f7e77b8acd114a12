/* texrefs.c: texture and surface references, the binding API that CUDA 11 programs use
 * (texture<T, dim, mode> and surface<void, dim> variables; removed in CUDA 12).
 *
 * A reference is a module variable (`.global .texref tex;` in the PTX), registered like any
 * __device__ variable with 8 bytes of storage. Binding makes an ordinary texture or surface
 * object from the reference's host-side description (filter mode, addressing, normalized
 * coordinates, channel format; the read mode comes from the registration) and stores its handle
 * in those 8 bytes, where the emulator's tex/suld/sust/sured/txq find it; 0 means unbound.
 * A kernel reads the binding of the moment it runs, and launches run on the device worker
 * after the call that issued them; so a new binding waits until the work already issued has
 * run, and no kernel launched before it sees it (nor reads an object it replaced).
 */
#include "runtime/rt_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* textureAlignment, as device.c reports it and textures.c enforces it */
#define TEX_ALIGNMENT 512u

typedef struct rt_texref {
    const void *host;       /* the textureReference / surfaceReference */
    bool surface;
    int dim;                /* texture type at registration (1, 2, 3, cudaTextureType*) */
    bool read_normalized;   /* cudaReadModeNormalizedFloat */
    uint64_t handle;        /* the bound object, 0 while unbound */
    size_t offset;          /* cudaBindTexture's alignment offset, in bytes */
} rt_texref;

static pthread_mutex_t refs_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_texref *refs;
static size_t nrefs, cap_refs;

static rt_texref *find_ref(const void *host, bool surface)
{
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].host == host && refs[i].surface == surface)
            return &refs[i];
    return NULL;
}

static void add_ref(void **handle, const void *host, const char *device_name, bool surface,
                    int dim, bool norm, int ext)
{
    /* its storage is an ordinary 8-byte module variable, found by the host pointer */
    rt_register_var(handle, host, device_name, sizeof(uint64_t), false, ext != 0);
    pthread_mutex_lock(&refs_lock);
    rt_texref *r = find_ref(host, surface);
    if (!r && nrefs == cap_refs) {
        size_t nc = cap_refs ? cap_refs * 2 : 16;
        rt_texref *n = realloc(refs, nc * sizeof *n);
        if (n) {
            refs = n;
            cap_refs = nc;
        }
    }
    if (!r && nrefs < cap_refs)
        r = &refs[nrefs++];
    if (r)
        *r = (rt_texref){.host = host, .surface = surface, .dim = dim, .read_normalized = norm};
    pthread_mutex_unlock(&refs_lock);
    rt_log(2, "registered %s reference %s (type %d)", surface ? "surface" : "texture",
           device_name ? device_name : "?", dim);
}

void rt_register_texture(void **handle, const struct textureReference *ref,
                         const char *device_name, int dim, int norm, int ext)
{
    add_ref(handle, ref, device_name, false, dim, norm != 0, ext);
}

void rt_register_surface(void **handle, const struct surfaceReference *ref,
                         const char *device_name, int dim, int ext)
{
    add_ref(handle, ref, device_name, true, dim, false, ext);
}

/* A copy of the reference's registration; false if it was never registered. */
static bool lookup(const void *host, bool surface, rt_texref *out)
{
    pthread_mutex_lock(&refs_lock);
    rt_texref *r = host ? find_ref(host, surface) : NULL;
    if (r)
        *out = *r;
    pthread_mutex_unlock(&refs_lock);
    return r != NULL;
}

static cudaError_t not_registered(const void *host, bool surface, const char *api)
{
    return rt_api_error(surface ? cudaErrorInvalidSurface : cudaErrorInvalidTexture, api,
                        "%p is not a registered %s reference", host,
                        surface ? "surface" : "texture");
}

/* Makes object h the reference's binding (h 0: unbinds), and destroys the one it replaces. On
 * failure h is destroyed. */
static cudaError_t install(const void *host, bool surface, uint64_t h, size_t offset,
                           const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess) {
        if (h)
            surface ? rt_destroy_surface_object(h) : rt_destroy_texture_object(h);
        return e;
    }
    uint64_t addr = 0, old = 0;
    e = rt_var_address(host, api, NULL, &addr);
    if (e == cudaSuccess) {
        rt_wait_idle();
        pthread_mutex_lock(&refs_lock);
        rt_texref *r = find_ref(host, surface);
        if (r) {
            old = r->handle;
            r->handle = h;
            r->offset = offset;
        }
        pthread_mutex_unlock(&refs_lock);
        __atomic_store_n((uint64_t *)(uintptr_t)addr, h, __ATOMIC_RELEASE);
    }
    rt_end(e);
    uint64_t drop = e == cudaSuccess ? old : h;
    if (drop)
        surface ? rt_destroy_surface_object(drop) : rt_destroy_texture_object(drop);
    return rt_record(e);
}

/* The sampler state of a texture reference, as a texture object's description. */
static void texture_desc(const rt_texref *r, const struct textureReference *ref,
                         struct cudaTextureDesc *td)
{
    memset(td, 0, sizeof *td);
    for (int i = 0; i < 3; i++)
        td->addressMode[i] = ref->addressMode[i];
    td->filterMode = ref->filterMode;
    td->readMode = r->read_normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td->sRGB = ref->sRGB;
    td->normalizedCoords = ref->normalized;
    td->maxAnisotropy = ref->maxAnisotropy;
    td->mipmapFilterMode = ref->mipmapFilterMode;
    td->mipmapLevelBias = ref->mipmapLevelBias;
    td->minMipmapLevelClamp = ref->minMipmapLevelClamp;
    td->maxMipmapLevelClamp = ref->maxMipmapLevelClamp;
    td->disableTrilinearOptimization = ref->disableTrilinearOptimization;
}

static cudaError_t bind_resource(const struct textureReference *ref,
                                 const struct cudaResourceDesc *res, size_t offset,
                                 const char *api)
{
    rt_texref r;
    if (!lookup(ref, false, &r))
        return rt_record(not_registered(ref, false, api));
    struct cudaTextureDesc td;
    texture_desc(&r, ref, &td);
    cudaTextureObject_t h = 0;
    cudaError_t e = rt_create_texture_object(&h, res, &td, NULL);
    if (e != cudaSuccess)
        return e;
    return install(ref, false, h, offset, api);
}

/* The start of a linear binding moved down to textureAlignment within its allocation, and the
 * offset that moved it (cudaBindTexture's *offset); false when it is not device memory. */
static bool align_down(const void *p, size_t *size, const void **base, size_t *offset)
{
    uint64_t a = (uint64_t)(uintptr_t)p, ab = 0, as = 0;
    if (!emu_find_allocation(a, 1, &ab, &as, NULL))
        return false;
    *offset = (size_t)((a - ab) % TEX_ALIGNMENT);
    *base = (const void *)(uintptr_t)(a - *offset);
    /* texture<>'s cudaBindTexture passes size UINT_MAX: the rest of the allocation */
    uint64_t room = ab + as - a;
    if (*size > room)
        *size = (size_t)room;
    *size += *offset;
    return true;
}

cudaError_t rt_bind_texture(size_t *offset, const struct textureReference *ref,
                            const void *dev_ptr, const struct cudaChannelFormatDesc *desc,
                            size_t size)
{
    static const char api[] = "cudaBindTexture";
    if (!ref || !dev_ptr)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    const void *base;
    size_t off;
    if (!align_down(dev_ptr, &size, &base, &off))
        return rt_record(rt_api_error(cudaErrorInvalidValue, api,
                                      "%p is not device memory", dev_ptr));
    if (off && !offset)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api,
                                      "%p is not aligned to textureAlignment (%u bytes) and "
                                      "offset is NULL", dev_ptr, TEX_ALIGNMENT));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = (void *)(uintptr_t)base;
    res.res.linear.desc = desc ? *desc : ref->channelDesc;
    res.res.linear.sizeInBytes = size;
    cudaError_t e = bind_resource(ref, &res, off, api);
    if (e == cudaSuccess && offset)
        *offset = off;
    return e;
}

cudaError_t rt_bind_texture_2d(size_t *offset, const struct textureReference *ref,
                               const void *dev_ptr, const struct cudaChannelFormatDesc *desc,
                               size_t width, size_t height, size_t pitch)
{
    static const char api[] = "cudaBindTexture2D";
    if (!ref || !dev_ptr)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    /* a 2D binding cannot be shifted by whole texels: the start must be aligned */
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = (void *)(uintptr_t)dev_ptr;
    res.res.pitch2D.desc = desc ? *desc : ref->channelDesc;
    res.res.pitch2D.width = width;
    res.res.pitch2D.height = height;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaError_t e = bind_resource(ref, &res, 0, api);
    if (e == cudaSuccess && offset)
        *offset = 0;
    return e;
}

cudaError_t rt_bind_texture_to_array(const struct textureReference *ref, cudaArray_const_t array,
                                     const struct cudaChannelFormatDesc *desc)
{
    (void)desc;   /* the array's own format is what the texture unit reads */
    if (!ref || !array)
        return rt_record(rt_api_error(cudaErrorInvalidValue, "cudaBindTextureToArray",
                                      "a NULL pointer"));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = (cudaArray_t)(uintptr_t)array;
    return bind_resource(ref, &res, 0, "cudaBindTextureToArray");
}

cudaError_t rt_bind_texture_to_mipmapped_array(const struct textureReference *ref,
                                               cudaMipmappedArray_const_t mm,
                                               const struct cudaChannelFormatDesc *desc)
{
    (void)desc;
    if (!ref || !mm)
        return rt_record(rt_api_error(cudaErrorInvalidValue, "cudaBindTextureToMipmappedArray",
                                      "a NULL pointer"));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = (cudaMipmappedArray_t)(uintptr_t)mm;
    return bind_resource(ref, &res, 0, "cudaBindTextureToMipmappedArray");
}

cudaError_t rt_unbind_texture(const struct textureReference *ref)
{
    rt_texref r;
    if (!lookup(ref, false, &r))
        return rt_record(not_registered(ref, false, "cudaUnbindTexture"));
    return install(ref, false, 0, 0, "cudaUnbindTexture");
}

cudaError_t rt_get_texture_reference(const struct textureReference **out, const void *symbol)
{
    rt_texref r;
    if (!out)
        return rt_record(rt_api_error(cudaErrorInvalidValue, "cudaGetTextureReference",
                                      "a NULL pointer"));
    if (!lookup(symbol, false, &r))
        return rt_record(not_registered(symbol, false, "cudaGetTextureReference"));
    *out = symbol;
    return rt_record(cudaSuccess);
}

cudaError_t rt_get_texture_alignment_offset(size_t *offset, const struct textureReference *ref)
{
    static const char api[] = "cudaGetTextureAlignmentOffset";
    rt_texref r;
    if (!offset)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    if (!lookup(ref, false, &r))
        return rt_record(not_registered(ref, false, api));
    if (!r.handle)
        return rt_record(rt_api_error(cudaErrorInvalidTextureBinding, api,
                                      "the texture reference is not bound"));
    *offset = r.offset;
    return rt_record(cudaSuccess);
}

cudaError_t rt_bind_surface_to_array(const struct surfaceReference *ref, cudaArray_const_t array,
                                     const struct cudaChannelFormatDesc *desc)
{
    static const char api[] = "cudaBindSurfaceToArray";
    (void)desc;
    rt_texref r;
    if (!ref || !array)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api, "a NULL pointer"));
    if (!lookup(ref, true, &r))
        return rt_record(not_registered(ref, true, api));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = (cudaArray_t)(uintptr_t)array;
    cudaSurfaceObject_t h = 0;
    cudaError_t e = rt_create_surface_object(&h, &res);
    if (e != cudaSuccess)
        return e;
    return install(ref, true, h, 0, api);
}

cudaError_t rt_get_surface_reference(const struct surfaceReference **out, const void *symbol)
{
    rt_texref r;
    if (!out)
        return rt_record(rt_api_error(cudaErrorInvalidValue, "cudaGetSurfaceReference",
                                      "a NULL pointer"));
    if (!lookup(symbol, true, &r))
        return rt_record(not_registered(symbol, true, "cudaGetSurfaceReference"));
    *out = symbol;
    return rt_record(cudaSuccess);
}

void rt_texrefs_release_all(void)
{
    /* the objects go with every other object; the modules' storage is unloaded */
    pthread_mutex_lock(&refs_lock);
    for (size_t i = 0; i < nrefs; i++) {
        refs[i].handle = 0;
        refs[i].offset = 0;
    }
    pthread_mutex_unlock(&refs_lock);
}
