// legacy_launch.cu: the launch ABI of binaries built before CUDA 9 (cudaConfigureCall,
// cudaSetupArgument, cudaLaunch) is gone from CUDA 13: its headers do not declare it and its
// libcudart.so.13 does not export it (nm -D; an H100's CUDA 13 runtime did not either), so a
// launcher that looks it up at run time finds nothing and must fall back to cudaLaunchKernel,
// which it then does. ptxsim keeps the old ABI in its libcudart.so.11.0 only, for CUDA 11
// binaries: tests/suites/texref_cuda11.c launches through it.
#include "check.cuh"

#include <dlfcn.h>

__global__ void legacy(int *out, int n, double scale, char tag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)(i * scale) + tag;
}

int main()
{
    int version = 0;
    CUDA_OK("version", cudaRuntimeGetVersion(&version));
    void *configure = dlsym(RTLD_DEFAULT, "cudaConfigureCall");
    void *setup = dlsym(RTLD_DEFAULT, "cudaSetupArgument");
    void *launch = dlsym(RTLD_DEFAULT, "cudaLaunch");
    check(version < 13000 || (!configure && !setup && !launch), "legacy_entry_points_removed",
          "runtime %d exports cudaConfigureCall %p, cudaSetupArgument %p, cudaLaunch %p",
          version, configure, setup, launch);

    // The launcher's fallback: the same arguments through cudaLaunchKernel.
    const int n = 100;
    int *d, h[n];
    CUDA_OK("setup", cudaMalloc(&d, sizeof h));
    int nn = n;
    double scale = 2.5;
    char tag = 'A';
    void *args[] = {&d, &nn, &scale, &tag};
    CUDA_OK("launch", cudaLaunchKernel((const void *)legacy, dim3(4), dim3(32), args, 0, 0));
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == (int)(i * 2.5) + 'A';
    check(ok, "legacy_fallback_launch", "h[3] = %d", h[3]);
    cudaFree(d);
    return check_finish();
}
