/* launch.c: kernel launches (nvcc's <<<...>>> path and the public API) and per-kernel
 * queries. */
#include "runtime/rt.h"

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem, cudaStream_t stream);

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream)
{
    return rt_push_call_config(gridDim, blockDim, sharedMem, stream);
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
    return rt_pop_call_config(gridDim, blockDim, sharedMem, (cudaStream_t *)stream);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    return rt_get_kernel(kernel, hostFun);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    return rt_launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

extern __typeof__(__cudaLaunchKernel) __cudaLaunchKernel_ptsz
    __attribute__((alias("__cudaLaunchKernel")));

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    return rt_launch(func, gridDim, blockDim, args, sharedMem, stream);
}

extern __typeof__(cudaLaunchKernel) cudaLaunchKernel_ptsz
    __attribute__((alias("cudaLaunchKernel")));

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return rt_launch_ex(config, func, args);
}

extern __typeof__(cudaLaunchKernelExC) cudaLaunchKernelExC_ptsz
    __attribute__((alias("cudaLaunchKernelExC")));

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream)
{
    return rt_launch_cooperative(func, gridDim, blockDim, args, sharedMem, stream);
}

extern __typeof__(cudaLaunchCooperativeKernel) cudaLaunchCooperativeKernel_ptsz
    __attribute__((alias("cudaLaunchCooperativeKernel")));

/* The pre-CUDA-9 launch ABI (gone from CUDA 13's headers; old binaries still call it). */
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                              cudaStream_t stream);
cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
cudaError_t cudaLaunch(const void *func);

cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    return rt_configure_call(gridDim, blockDim, sharedMem, stream);
}

cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset)
{
    return rt_setup_argument(arg, size, offset);
}

cudaError_t cudaLaunch(const void *func)
{
    return rt_launch_legacy(func);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return rt_get_kernel(kernelPtr, entryFuncAddr);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    return rt_func_get_attributes(attr, func);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    return rt_func_set_attribute(func, attr, value);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    return rt_func_set_cache_config(func, cacheConfig);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    return rt_occupancy_max_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags)
{
    return rt_occupancy_max_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
}
