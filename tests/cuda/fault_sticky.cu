// fault_sticky.cu: a kernel that writes outside every allocation. As on a GPU, the launch
// itself succeeds, the next synchronising call reports cudaErrorIllegalAddress, and the
// context stays poisoned (every later call returns the error, and cudaGetLastError does not
// clear it) until cudaDeviceReset, after which the device works again.
#include "check.cuh"

__global__ void write_far(int *p, long long offset)
{
    if (threadIdx.x == 5 && blockIdx.x == 1)
        p[offset] = 1;  // far past the end of p
}

__global__ void fill(int *p, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = value;
}

int main()
{
    int *d;
    CUDA_OK("setup", cudaMalloc(&d, 64 * sizeof(int)));
    write_far<<<2, 32>>>(d, 1LL << 34);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    check(launch == cudaSuccess || launch == cudaErrorIllegalAddress, "fault_launch_returns",
          "launch reported %s", cudaGetErrorName(launch));
    check(sync == cudaErrorIllegalAddress, "fault_reported_at_sync", "got %s",
          cudaGetErrorName(sync));

    int *other = nullptr;
    cudaError_t later = cudaMalloc(&other, 16);
    check(later == cudaErrorIllegalAddress, "fault_is_sticky", "cudaMalloc after the fault: %s",
          cudaGetErrorName(later));
    cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
    check(first == cudaErrorIllegalAddress && second == cudaErrorIllegalAddress,
          "fault_survives_get_last_error", "%s then %s", cudaGetErrorName(first),
          cudaGetErrorName(second));

    CUDA_OK("reset_recovers", cudaDeviceReset());
    CUDA_OK("reset_recovers", cudaMalloc(&d, 64 * sizeof(int)));
    fill<<<2, 32>>>(d, 64, 9);
    int h[64];
    CUDA_OK("reset_recovers", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 64; i++)
        ok = ok && h[i] == 9;
    check(ok, "reset_recovers", "the kernel after cudaDeviceReset wrote wrong values");
    cudaFree(d);
    return check_finish();
}
