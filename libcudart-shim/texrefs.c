/* texrefs.c: CUDA 11's texture and surface reference API (removed in CUDA 12, so only programs
 * that load libcudart.so.11.0 call it), and the registration calls nvcc's host code makes for
 * texture<> and surface<> variables. The runtime's texrefs.c does the work. Prototypes as in
 * CUDA 11's cuda_runtime_api.h and crt/host_runtime.h. */
#include "libcudart-shim/shim.h"

void __cudaRegisterTexture(void **fatCubinHandle, const struct textureReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int norm,
                           int ext);
void __cudaRegisterSurface(void **fatCubinHandle, const struct surfaceReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int ext);
cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref,
                            const void *devPtr, const struct cudaChannelFormatDesc *desc,
                            size_t size);
cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                              const void *devPtr, const struct cudaChannelFormatDesc *desc,
                              size_t width, size_t height, size_t pitch);
cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);
cudaError_t cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                            cudaMipmappedArray_const_t mipmappedArray,
                                            const struct cudaChannelFormatDesc *desc);
cudaError_t cudaUnbindTexture(const struct textureReference *texref);
cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct textureReference *texref);
cudaError_t cudaGetTextureReference(const struct textureReference **texref, const void *symbol);
cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                                   cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);
cudaError_t cudaGetSurfaceReference(const struct surfaceReference **surfref, const void *symbol);

void __cudaRegisterTexture(void **fatCubinHandle, const struct textureReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int norm,
                           int ext)
{
    (void)deviceAddress;  /* nvcc passes the name again */
    rt_register_texture(fatCubinHandle, hostVar, deviceName, dim, norm, ext);
}

void __cudaRegisterSurface(void **fatCubinHandle, const struct surfaceReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int ext)
{
    (void)deviceAddress;
    rt_register_surface(fatCubinHandle, hostVar, deviceName, dim, ext);
}

cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref,
                            const void *devPtr, const struct cudaChannelFormatDesc *desc,
                            size_t size)
{
    return rt_bind_texture(offset, texref, devPtr, desc, size);
}

cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                              const void *devPtr, const struct cudaChannelFormatDesc *desc,
                              size_t width, size_t height, size_t pitch)
{
    return rt_bind_texture_2d(offset, texref, devPtr, desc, width, height, pitch);
}

cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc)
{
    return rt_bind_texture_to_array(texref, array, desc);
}

cudaError_t cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                            cudaMipmappedArray_const_t mipmappedArray,
                                            const struct cudaChannelFormatDesc *desc)
{
    return rt_bind_texture_to_mipmapped_array(texref, mipmappedArray, desc);
}

cudaError_t cudaUnbindTexture(const struct textureReference *texref)
{
    return rt_unbind_texture(texref);
}

cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct textureReference *texref)
{
    return rt_get_texture_alignment_offset(offset, texref);
}

cudaError_t cudaGetTextureReference(const struct textureReference **texref, const void *symbol)
{
    return rt_get_texture_reference(texref, symbol);
}

cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                                   cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc)
{
    return rt_bind_surface_to_array(surfref, array, desc);
}

cudaError_t cudaGetSurfaceReference(const struct surfaceReference **surfref, const void *symbol)
{
    return rt_get_surface_reference(surfref, symbol);
}
