// watchdog.cu: a kernel that never ends is ended by the watchdog (--watchdog=SECONDS): the
// program gets cudaErrorLaunchTimeout at the next synchronisation, sticky as on a GPU, and
// after cudaDeviceReset the device works again. tests/suites/watchdog.sh runs it under
// --det=gpudet with --watchdog-insts and checks that the report is the same on every run.
// ptxsim: --watchdog=2
// native: skip never ends on purpose: on a GPU nothing stops it
// gpudet: skip never ends on purpose; tests/suites/watchdog.sh runs it under --det=gpudet
#include "check.cuh"

__global__ void spin(volatile int *flag, int *out)
{
    while (*flag == 0) {
    }
    out[threadIdx.x] = 1;
}

__global__ void fill(int *p, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = value;
}

int main()
{
    int *flag, *out;
    CUDA_OK("setup", cudaMalloc(&flag, sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&out, 256 * sizeof(int)));
    CUDA_OK("setup", cudaMemset(flag, 0, sizeof(int)));
    spin<<<3, 64>>>(flag, out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    check(launch == cudaSuccess || launch == cudaErrorLaunchTimeout, "watchdog_launch_returns",
          "launch reported %s", cudaGetErrorName(launch));
    check(sync == cudaErrorLaunchTimeout, "watchdog_timeout_reported", "got %s",
          cudaGetErrorName(sync));
    int *other = nullptr;
    cudaError_t later = cudaMalloc(&other, 16);
    check(later == cudaErrorLaunchTimeout, "watchdog_timeout_is_sticky",
          "cudaMalloc after the timeout: %s", cudaGetErrorName(later));

    CUDA_OK("reset_recovers", cudaDeviceReset());
    CUDA_OK("reset_recovers", cudaMalloc(&out, 64 * sizeof(int)));
    fill<<<2, 32>>>(out, 64, 7);
    int h[64];
    CUDA_OK("reset_recovers", cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 64; i++)
        ok = ok && h[i] == 7;
    check(ok, "reset_recovers", "the kernel after cudaDeviceReset wrote wrong values");
    cudaFree(out);
    return check_finish();
}
