// unified_addressing.cu: one address space for host and device: cudaMemcpyDefault between
// every pair of memory kinds (pageable, pinned, device, managed), cudaPointerGetAttributes
// telling them apart, cudaMemcpyPeer on the one device, and the device's unified-addressing
// attribute.
#include "check.cuh"

#include <cstdlib>
#include <cstring>

int main()
{
    int ua = 0;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&ua, cudaDevAttrUnifiedAddressing, 0));
    check(ua == 1, "unified_addressing_attribute", "attribute %d", ua);
    const int n = 512;
    int *pageable = (int *)malloc(n * sizeof(int)), *pinned, *dev, *dev2, *managed;
    CUDA_OK("setup", cudaMallocHost(&pinned, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dev, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dev2, n * sizeof(int)));
    CUDA_OK("setup", cudaMallocManaged(&managed, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        pageable[i] = i * 11;
    // pageable -> device -> managed -> pinned -> device2 -> pageable (cleared first)
    CUDA_OK("default_copies", cudaMemcpy(dev, pageable, n * sizeof(int), cudaMemcpyDefault));
    CUDA_OK("default_copies", cudaMemcpy(managed, dev, n * sizeof(int), cudaMemcpyDefault));
    CUDA_OK("default_copies", cudaMemcpy(pinned, managed, n * sizeof(int), cudaMemcpyDefault));
    CUDA_OK("default_copies", cudaMemcpyPeer(dev2, 0, pinned, 0, n * sizeof(int)));
    memset(pageable, 0, n * sizeof(int));
    CUDA_OK("default_copies", cudaMemcpy(pageable, dev2, n * sizeof(int), cudaMemcpyDefault));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && pageable[i] == i * 11 && managed[i] == i * 11 && pinned[i] == i * 11;
    check(ok, "memcpy_default_chain", "values after the chain of copies");

    cudaPointerAttributes a;
    bool kinds = true;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, dev + 10));
    kinds = kinds && a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == dev + 10;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, pinned));
    kinds = kinds && a.type == cudaMemoryTypeHost;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, managed));
    kinds = kinds && a.type == cudaMemoryTypeManaged;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, pageable));
    kinds = kinds && a.type == cudaMemoryTypeUnregistered;
    check(kinds, "pointer_attribute_kinds", "a pointer's memory type was misreported");

    check(cudaMemcpyPeer(dev2, 1, dev, 0, 16) == cudaErrorInvalidDevice, "peer_invalid_device",
          "device 1 does not exist");
    check(cudaMemcpy(dev, pageable, (n + 1) * sizeof(int), cudaMemcpyDefault) ==
              cudaErrorInvalidValue,
          "default_copy_bounds", "a copy past the device allocation must fail");
    cudaGetLastError();
    int can = -1;
    CUDA_OK("peer", cudaDeviceCanAccessPeer(&can, 0, 0));
    check(can == 0, "peer_access_self", "%d", can);
    free(pageable);
    cudaFreeHost(pinned);
    cudaFree(dev);
    cudaFree(dev2);
    cudaFree(managed);
    return check_finish();
}
