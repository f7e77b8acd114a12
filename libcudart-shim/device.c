/* device.c: device selection, properties, attributes, limits, synchronisation and versions. */
#include "libcudart-shim/shim.h"

#include <stdio.h>
#include <string.h>

cudaError_t cudaGetDeviceCount(int *count)
{
    return rt_get_device_count(count);
}

cudaError_t cudaSetDevice(int device)
{
    return rt_set_device(device);
}

cudaError_t cudaGetDevice(int *device)
{
    return rt_get_device(device);
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    (void)flags;
    cudaError_t e = rt_set_device(device);
    return e != cudaSuccess || !deviceFlags ? e : rt_set_device_flags(deviceFlags);
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    return rt_choose_device(device, prop);
}

cudaError_t shim_device_properties12(void *out, int device);

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (shim_cuda12_abi)  /* a CUDA 12 program's struct: the deprecated fields still in it */
        return shim_device_properties12(prop, device);
    return rt_get_device_properties(prop, device);
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    return rt_device_get_attribute(value, attr, device);
}

cudaError_t cudaDeviceSynchronize(void)
{
    return rt_device_synchronize();
}

cudaError_t cudaDeviceReset(void)
{
    return rt_device_reset();
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    return rt_set_device_flags(flags);
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    return rt_get_device_flags(flags);
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    return rt_device_set_limit(limit, value);
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    return rt_device_get_limit(pValue, limit);
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig)
        return cudaErrorInvalidValue;
    *pCacheConfig = cudaFuncCachePreferNone;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    return cacheConfig <= cudaFuncCachePreferEqual ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0 || device != 0)
        return device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue;
    snprintf(pciBusId, (size_t)len, "0000:01:00.0");
    return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId)
        return cudaErrorInvalidValue;
    if (strcasecmp(pciBusId, "0000:01:00.0") != 0 && strcasecmp(pciBusId, "01:00.0") != 0)
        return cudaErrorInvalidDevice;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return cudaErrorInvalidValue;
    if (device != 0 || peerDevice != 0)
        return cudaErrorInvalidDevice;
    *canAccessPeer = 0;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    return rt_driver_get_version(driverVersion);
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    return rt_runtime_get_version(runtimeVersion);
}

/* Profiler ranges mark regions for an external profiler; there is none to tell. */
cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

/* ---------------------------------------------------------------- one device, no peers */

cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    if (len < 0 || (len > 0 && !device_arr))
        return cudaErrorInvalidValue;
    for (int i = 0; i < len; i++)
        if (device_arr[i] != 0)
            return cudaErrorInvalidDevice;
    return cudaSuccess;
}

/* A device is not its own peer: CUDA answers cudaErrorInvalidDevice. */
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    (void)peerDevice;
    return flags ? cudaErrorInvalidValue : cudaErrorInvalidDevice;
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    (void)peerDevice;
    return cudaErrorInvalidDevice;
}

cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
                                      int dstDevice)
{
    (void)attr;
    if (!value)
        return cudaErrorInvalidValue;
    (void)srcDevice;
    (void)dstDevice;
    return cudaErrorInvalidDevice;
}

/* Graph memory nodes are not supported, so no memory is kept for them. */
cudaError_t cudaDeviceGraphMemTrim(int device)
{
    return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

/* Shared memory bank width: a preference without functional effect (deprecated since 12.4). */
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig)
        return cudaErrorInvalidValue;
    *pConfig = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    return (unsigned)config <= cudaSharedMemBankSizeEightByte ? cudaSuccess
                                                              : cudaErrorInvalidValue;
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    if ((unsigned)config > cudaSharedMemBankSizeEightByte)
        return cudaErrorInvalidValue;
    return rt_kernel_info(func, NULL, NULL);
}
