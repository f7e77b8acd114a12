/* textures.c: texture and surface objects (the runtime's, runtime/textures.c, described with
 * the driver's structures), and the tensor-map encoders TMA programs call (runtime/tensor_maps.c,
 * which writes ptxsim's documented layout into the opaque CUtensorMap). */
#include "libcuda-shim/driver.h"

#include <string.h>

_Static_assert(sizeof(CUDA_RESOURCE_VIEW_DESC) == sizeof(struct cudaResourceViewDesc),
               "CUDA_RESOURCE_VIEW_DESC and cudaResourceViewDesc are laid out alike");

/* The runtime's description of a driver resource; false when it names an unknown format. */
static bool to_resource(const CUDA_RESOURCE_DESC *d, struct cudaResourceDesc *r)
{
    memset(r, 0, sizeof *r);
    /* CUresourcetype numbers its values as cudaResourceType does. */
    r->resType = (enum cudaResourceType)d->resType;
    switch (d->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        r->res.array.array = (cudaArray_t)d->res.array.hArray;
        return true;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        r->res.mipmap.mipmap = (cudaMipmappedArray_t)d->res.mipmap.hMipmappedArray;
        return true;
    case CU_RESOURCE_TYPE_LINEAR:
        r->res.linear.devPtr = (void *)(uintptr_t)d->res.linear.devPtr;
        r->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
        return drv_format_desc(d->res.linear.format, d->res.linear.numChannels,
                               &r->res.linear.desc);
    case CU_RESOURCE_TYPE_PITCH2D:
        r->res.pitch2D.devPtr = (void *)(uintptr_t)d->res.pitch2D.devPtr;
        r->res.pitch2D.width = d->res.pitch2D.width;
        r->res.pitch2D.height = d->res.pitch2D.height;
        r->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
        return drv_format_desc(d->res.pitch2D.format, d->res.pitch2D.numChannels,
                               &r->res.pitch2D.desc);
    }
    return false;
}

static bool from_resource(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *d)
{
    memset(d, 0, sizeof *d);
    d->resType = (CUresourcetype)r->resType;
    unsigned n = 0;
    switch (r->resType) {
    case cudaResourceTypeArray:
        d->res.array.hArray = (CUarray)r->res.array.array;
        return true;
    case cudaResourceTypeMipmappedArray:
        d->res.mipmap.hMipmappedArray = (CUmipmappedArray)r->res.mipmap.mipmap;
        return true;
    case cudaResourceTypeLinear:
        d->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
        d->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        if (!drv_desc_format(&r->res.linear.desc, &d->res.linear.format, &n))
            return false;
        d->res.linear.numChannels = n;
        return true;
    case cudaResourceTypePitch2D:
        d->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
        d->res.pitch2D.width = r->res.pitch2D.width;
        d->res.pitch2D.height = r->res.pitch2D.height;
        d->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        if (!drv_desc_format(&r->res.pitch2D.desc, &d->res.pitch2D.format, &n))
            return false;
        d->res.pitch2D.numChannels = n;
        return true;
    }
    return false;
}

/* The channel size of a resource's elements (for the driver's default read mode). */
static int element_bits(const struct cudaResourceDesc *r)
{
    struct cudaChannelFormatDesc d;
    cudaError_t saved = rt_swap_last_error(cudaSuccess);
    switch (r->resType) {
    case cudaResourceTypeLinear: d = r->res.linear.desc; break;
    case cudaResourceTypePitch2D: d = r->res.pitch2D.desc; break;
    case cudaResourceTypeArray:
        if (rt_get_channel_desc(&d, r->res.array.array) != cudaSuccess)
            d.x = 32;
        break;
    default:
        d.x = 32;
        d.f = cudaChannelFormatKindFloat;
        break;
    }
    rt_swap_last_error(saved);
    return d.f == cudaChannelFormatKindFloat ? 32 : d.x;
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc,
                           const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    DRV_CHECK(drv_context());
    struct cudaResourceDesc r;
    if (!pTexObject || !pResDesc || !pTexDesc || !to_resource(pResDesc, &r))
        return CUDA_ERROR_INVALID_VALUE;
    const CUDA_TEXTURE_DESC *t = pTexDesc;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int i = 0; i < 3; i++)
        td.addressMode[i] = (enum cudaTextureAddressMode)t->addressMode[i];
    td.filterMode = (enum cudaTextureFilterMode)t->filterMode;
    /* The driver reads 8- and 16-bit integers as normalised floats unless told otherwise. */
    int bits = element_bits(&r);
    td.readMode = !(t->flags & CU_TRSF_READ_AS_INTEGER) && bits < 32
                      ? cudaReadModeNormalizedFloat
                      : cudaReadModeElementType;
    td.sRGB = (t->flags & CU_TRSF_SRGB) != 0;
    td.normalizedCoords = (t->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    td.disableTrilinearOptimization = (t->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
    td.seamlessCubemap = (t->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
    td.maxAnisotropy = t->maxAnisotropy;
    td.mipmapFilterMode = (enum cudaTextureFilterMode)t->mipmapFilterMode;
    td.mipmapLevelBias = t->mipmapLevelBias;
    td.minMipmapLevelClamp = t->minMipmapLevelClamp;
    td.maxMipmapLevelClamp = t->maxMipmapLevelClamp;
    memcpy(td.borderColor, t->borderColor, sizeof td.borderColor);
    return DRV(rt_create_texture_object(pTexObject, &r, &td,
                                        (const struct cudaResourceViewDesc *)pResViewDesc));
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    DRV_CHECK(drv_context());
    return DRV(rt_destroy_texture_object(texObject));
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    DRV_CHECK(drv_context());
    struct cudaResourceDesc r;
    if (!pResDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult res = DRV(rt_get_texture_object_desc(texObject, &r, NULL, NULL,
                                                  "cuTexObjectGetResourceDesc"));
    if (res == CUDA_SUCCESS && !from_resource(&r, pResDesc))
        res = CUDA_ERROR_INVALID_VALUE;
    return res;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    DRV_CHECK(drv_context());
    struct cudaTextureDesc td;
    if (!pTexDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_get_texture_object_desc(texObject, NULL, &td, NULL,
                                                "cuTexObjectGetTextureDesc"));
    if (r != CUDA_SUCCESS)
        return r;
    memset(pTexDesc, 0, sizeof *pTexDesc);
    for (int i = 0; i < 3; i++)
        pTexDesc->addressMode[i] = (CUaddress_mode)td.addressMode[i];
    pTexDesc->filterMode = (CUfilter_mode)td.filterMode;
    pTexDesc->flags = (td.readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
                      (td.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
                      (td.sRGB ? CU_TRSF_SRGB : 0) |
                      (td.disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION
                                                       : 0) |
                      (td.seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
    pTexDesc->maxAnisotropy = td.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (CUfilter_mode)td.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = td.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = td.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = td.maxMipmapLevelClamp;
    memcpy(pTexDesc->borderColor, td.borderColor, sizeof td.borderColor);
    return CUDA_SUCCESS;
}

CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
                                        CUtexObject texObject)
{
    DRV_CHECK(drv_context());
    return DRV(rt_get_texture_object_desc(texObject, NULL, NULL,
                                          (struct cudaResourceViewDesc *)pResViewDesc,
                                          "cuTexObjectGetResourceViewDesc"));
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    DRV_CHECK(drv_context());
    struct cudaResourceDesc r;
    if (!pSurfObject || !pResDesc || !to_resource(pResDesc, &r))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_create_surface_object(pSurfObject, &r));
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    DRV_CHECK(drv_context());
    return DRV(rt_destroy_surface_object(surfObject));
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    DRV_CHECK(drv_context());
    struct cudaResourceDesc r;
    if (!pResDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult res = DRV(rt_get_surface_object_desc(surfObject, &r));
    if (res == CUDA_SUCCESS && !from_resource(&r, pResDesc))
        res = CUDA_ERROR_INVALID_VALUE;
    return res;
}

/* ---------------------------------------------------------------- tensor maps (TMA) */

CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                cuuint32_t tensorRank, void *globalAddress,
                                const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill)
{
    return (CUresult)rt_tensor_map_encode_tiled(tensorMap, tensorDataType, tensorRank,
                                                globalAddress, globalDim, globalStrides, boxDim,
                                                elementStrides, interleave, swizzle,
                                                l2Promotion, oobFill);
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                 cuuint32_t tensorRank, void *globalAddress,
                                 const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                 const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
                                 cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                 const cuuint32_t *elementStrides,
                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                 CUtensorMapL2promotion l2Promotion,
                                 CUtensorMapFloatOOBfill oobFill)
{
    return (CUresult)rt_tensor_map_encode_im2col(
        tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides,
        pixelBoxLowerCorner, pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
        elementStrides, interleave, swizzle, l2Promotion, oobFill);
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress)
{
    return (CUresult)rt_tensor_map_replace_address(tensorMap, globalAddress);
}
