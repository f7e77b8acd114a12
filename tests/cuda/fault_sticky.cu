// fault_sticky.cu: a kernel that writes outside every allocation. As on a GPU, the launch
// itself succeeds, the next synchronising call reports cudaErrorIllegalAddress, and the
// context stays poisoned: every later call returns the error, while cudaGetLastError returns
// it once and then cudaSuccess (as CUDA 13 on an H100 does). CUDA's documentation says such a
// process must be ended to use CUDA again; an H100 answered cudaErrorDevicesUnavailable to a
// cudaMalloc after cudaDeviceReset. ptxsim's device works again after cudaDeviceReset, which
// is checked under ptxsim only.
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
    const bool ptxsim = on_ptxsim();  // asked now: after the reset a GPU may not answer
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
    cudaError_t again = cudaDeviceSynchronize(), third = cudaGetLastError();
    check(first == cudaErrorIllegalAddress && second == cudaSuccess &&
              again == cudaErrorIllegalAddress && third == cudaErrorIllegalAddress,
          "fault_get_last_error_resets", "%s then %s; a later call %s, then %s",
          cudaGetErrorName(first), cudaGetErrorName(second), cudaGetErrorName(again),
          cudaGetErrorName(third));

    CUDA_OK("reset", cudaDeviceReset());
    if (!ptxsim)
        return check_finish();
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
