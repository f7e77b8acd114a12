/* libraries.c: the runtime's library management (cudaLibrary*, CUDA 12): code loaded at run
 * time, as the driver's cuLibrary* loads it (runtime/jit.c), with its kernels launchable by
 * cudaLaunchKernel; and the queries that turn a kernel or a host stub into a handle and back
 * (cudaGetFuncBySymbol, cudaFuncGetName, cudaFuncGetParamInfo). */
#include "libcudart-shim/shim.h"

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions,
                                void **libraryOptionValues, unsigned int numLibraryOptions)
{
    /* JIT options steer a compiler ptxsim does not run; library options say how long the
     * caller keeps its copy of the code, and the library keeps its own. */
    (void)jitOptions;
    (void)jitOptionsValues;
    (void)libraryOptionValues;
    if ((numJitOptions && !jitOptions) || (numLibraryOptions && !libraryOptions))
        return cudaErrorInvalidValue;
    return rt_module_load_image((rt_module **)library, code, NULL, "cudaLibraryLoadData");
}

cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName,
                                    enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                    unsigned int numJitOptions,
                                    enum cudaLibraryOption *libraryOptions,
                                    void **libraryOptionValues, unsigned int numLibraryOptions)
{
    (void)jitOptions;
    (void)jitOptionsValues;
    (void)libraryOptionValues;
    if ((numJitOptions && !jitOptions) || (numLibraryOptions && !libraryOptions))
        return cudaErrorInvalidValue;
    return rt_module_load_file((rt_module **)library, fileName, "cudaLibraryLoadFromFile");
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
    return rt_module_unload((rt_module *)library, "cudaLibraryUnload");
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library, const char *name)
{
    return rt_module_get_function((void **)pKernel, (rt_module *)library, name);
}

cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
    return rt_module_get_functions((rt_module *)lib, NULL, count);
}

cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels,
                                        cudaLibrary_t lib)
{
    if (!kernels)
        return cudaErrorInvalidValue;
    return rt_module_get_functions((rt_module *)lib, (void **)kernels, &numKernels);
}

cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library,
                                 const char *name)
{
    return rt_module_get_global(dptr, bytes, (rt_module *)library, name);
}

cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes, cudaLibrary_t library,
                                  const char *name)
{
    /* A .managed variable lives in the one unified address space like any global here. */
    return rt_module_get_global(dptr, bytes, (rt_module *)library, name);
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    return rt_get_func_by_symbol((void **)functionPtr, symbolPtr);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name)
        return cudaErrorInvalidValue;
    return rt_kernel_info(func, NULL, name);
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                 size_t *paramSize)
{
    return rt_kernel_param_info(func, paramIndex, paramOffset, paramSize);
}

cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                            int value, int device)
{
    if (device != 0)
        return cudaErrorInvalidDevice;
    return rt_func_set_attribute(kernel, attr, value);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize)
{
    return rt_occupancy_available_smem(dynamicSmemSize, func, numBlocks, blockSize);
}
