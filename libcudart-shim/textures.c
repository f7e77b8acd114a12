/* textures.c: texture and surface objects (the runtime's textures.c does the work). */
#include "libcudart-shim/shim.h"

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc)
{
    return rt_create_texture_object(pTexObject, pResDesc, pTexDesc, pResViewDesc);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return rt_destroy_texture_object(texObject);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject)
{
    return rt_get_texture_object_desc(texObject, pResDesc, NULL, NULL,
                                      "cudaGetTextureObjectResourceDesc");
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject)
{
    return rt_get_texture_object_desc(texObject, NULL, pTexDesc, NULL,
                                      "cudaGetTextureObjectTextureDesc");
}

cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                 cudaTextureObject_t texObject)
{
    return rt_get_texture_object_desc(texObject, NULL, NULL, pResViewDesc,
                                      "cudaGetTextureObjectResourceViewDesc");
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc)
{
    return rt_create_surface_object(pSurfObject, pResDesc);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return rt_destroy_surface_object(surfObject);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject)
{
    return rt_get_surface_object_desc(surfObject, pResDesc);
}

cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                 const struct cudaChannelFormatDesc *fmtDesc,
                                                 int device)
{
    return rt_texture_1d_linear_max_width(maxWidthInElements, fmtDesc, device);
}
