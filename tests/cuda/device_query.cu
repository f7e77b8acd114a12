// device_query.cu: what the deviceQuery sample prints, checked for coherence: the device count,
// properties against the attributes that report the same thing, limits that can be set and read
// back, the PCI bus id round trip, memory information, driver and runtime versions, and the
// device flags.
#include "check.cuh"

#include <cstring>

int main()
{
    int count = 0, dev = -1;
    CUDA_OK("count", cudaGetDeviceCount(&count));
    CUDA_OK("device", cudaSetDevice(0));
    CUDA_OK("device", cudaGetDevice(&dev));
    check(count >= 1 && dev == 0, "device_count", "%d devices, current %d", count, dev);
    cudaDeviceProp p;
    CUDA_OK("properties", cudaGetDeviceProperties(&p, 0));
    int v;
    bool same = true;
#define SAME(attr, field)                                        \
    CUDA_OK("attribute", cudaDeviceGetAttribute(&v, attr, 0)); \
    same = same && v == (int)(field);
    SAME(cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock);
    SAME(cudaDevAttrMultiProcessorCount, p.multiProcessorCount);
    SAME(cudaDevAttrWarpSize, p.warpSize);
    SAME(cudaDevAttrComputeCapabilityMajor, p.major);
    SAME(cudaDevAttrComputeCapabilityMinor, p.minor);
    SAME(cudaDevAttrMaxSharedMemoryPerBlock, p.sharedMemPerBlock);
    SAME(cudaDevAttrMaxGridDimX, p.maxGridSize[0]);
    SAME(cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]);
    SAME(cudaDevAttrL2CacheSize, p.l2CacheSize);
    SAME(cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor);
#undef SAME
    check(same, "properties_match_attributes", "an attribute disagrees with the properties");
    check(p.warpSize == 32 && p.major >= 7 && p.maxThreadsPerBlock == 1024 &&
              p.totalGlobalMem > ((size_t)1 << 30) && p.multiProcessorCount > 0 &&
              p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock && strlen(p.name) > 0,
          "properties_sane", "sm_%d%d, %d SMs, %zu bytes", p.major, p.minor,
          p.multiProcessorCount, p.totalGlobalMem);

    size_t stack = 0, heap = 0;
    CUDA_OK("limits", cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CUDA_OK("limits", cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    CUDA_OK("limits", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
    CUDA_OK("limits", cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    check(stack >= 4096 && heap >= (32u << 20), "limits_roundtrip", "stack %zu heap %zu", stack,
          heap);

    char bus[32];
    int back = -1;
    CUDA_OK("pci", cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    CUDA_OK("pci", cudaDeviceGetByPCIBusId(&back, bus));
    check(back == 0 && strchr(bus, ':') != nullptr, "pci_bus_id_roundtrip", "%s -> %d", bus,
          back);

    size_t free_b = 0, total_b = 0, free_after = 0;
    CUDA_OK("mem_info", cudaMemGetInfo(&free_b, &total_b));
    void *big;
    CUDA_OK("mem_info", cudaMalloc(&big, 64 << 20));
    CUDA_OK("mem_info", cudaMemGetInfo(&free_after, &total_b));
    check(total_b >= free_b && free_b - free_after >= (64u << 20), "mem_info_tracks_allocations",
          "free %zu -> %zu of %zu", free_b, free_after, total_b);
    cudaFree(big);

    int drv = 0, rt = 0;
    CUDA_OK("versions", cudaDriverGetVersion(&drv));
    CUDA_OK("versions", cudaRuntimeGetVersion(&rt));
    check(rt >= 12000 && drv >= rt, "versions", "driver %d runtime %d", drv, rt);

    unsigned flags = 0;
    CUDA_OK("flags", cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    CUDA_OK("flags", cudaGetDeviceFlags(&flags));
    check(flags & cudaDeviceScheduleBlockingSync, "device_flags", "flags %#x", flags);
    int chosen = -1;
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = p.major;
    CUDA_OK("choose", cudaChooseDevice(&chosen, &want));
    check(chosen == 0, "choose_device", "%d", chosen);
    check(cudaGetDeviceProperties(&p, count) == cudaErrorInvalidDevice, "properties_bad_device",
          "device %d does not exist", count);
    cudaGetLastError();
    CUDA_OK("sync", cudaDeviceSynchronize());
    return check_finish();
}
