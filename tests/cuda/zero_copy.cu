// zero_copy.cu: mapped pinned memory (the simpleZeroCopy sample): cudaHostAlloc with
// cudaHostAllocMapped, the device pointer from cudaHostGetDevicePointer, kernels that read and
// write host memory directly, and ordinary malloc'ed memory mapped with cudaHostRegister.
#include "check.cuh"

#include <cstdlib>

__global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    int can_map = 0;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0));
    check(can_map == 1, "can_map_host_memory", "attribute %d", can_map);
    CUDA_OK("flags", cudaSetDeviceFlags(cudaDeviceMapHost));
    const int n = 2048;
    float *a, *b, *c;
    CUDA_OK("mapped_alloc", cudaHostAlloc(&a, n * sizeof(float), cudaHostAllocMapped));
    CUDA_OK("mapped_alloc", cudaHostAlloc(&b, n * sizeof(float), cudaHostAllocMapped));
    CUDA_OK("mapped_alloc", cudaHostAlloc(&c, n * sizeof(float),
                                          cudaHostAllocMapped | cudaHostAllocWriteCombined));
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
        c[i] = 0;
    }
    float *da, *db, *dc;
    CUDA_OK("device_pointer", cudaHostGetDevicePointer(&da, a, 0));
    CUDA_OK("device_pointer", cudaHostGetDevicePointer(&db, b, 0));
    CUDA_OK("device_pointer", cudaHostGetDevicePointer(&dc, c, 0));
    vec_add<<<n / 256, 256>>>(da, db, dc, n);
    CUDA_OK("sync", cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = c[i] == 3.0f * i;
    check(ok, "zero_copy_kernel", "kernel result in mapped host memory");

    unsigned flags = 0;
    CUDA_OK("host_flags", cudaHostGetFlags(&flags, a));
    check(flags & cudaHostAllocMapped, "host_get_flags", "flags %#x", flags);

    float *plain = (float *)malloc(n * sizeof(float)), *dplain;
    for (int i = 0; i < n; i++)
        plain[i] = 1.0f;
    CUDA_OK("register_mapped", cudaHostRegister(plain, n * sizeof(float), cudaHostRegisterMapped));
    CUDA_OK("register_mapped", cudaHostGetDevicePointer(&dplain, plain, 0));
    vec_add<<<n / 256, 256>>>(da, dplain, dplain, n);
    CUDA_OK("sync", cudaDeviceSynchronize());
    ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = plain[i] == (float)i + 1.0f;
    check(ok, "zero_copy_registered", "kernel result in registered host memory");
    CUDA_OK("unregister", cudaHostUnregister(plain));
    free(plain);

    float local = 0, *dlocal = nullptr;
    check(cudaHostGetDevicePointer(&dlocal, &local, 0) == cudaErrorInvalidValue,
          "unmapped_pointer", "a stack variable has no device pointer");
    cudaGetLastError();
    cudaFreeHost(a);
    cudaFreeHost(b);
    cudaFreeHost(c);
    return check_finish();
}
