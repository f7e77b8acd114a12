// legacy_launch.cu: the launch ABI of binaries built before CUDA 9 (and hand-written launchers):
// cudaConfigureCall, one cudaSetupArgument per argument at its offset, then cudaLaunch. CUDA
// 13's headers no longer declare them, so the program looks them up at run time, as a
// dynamically loading launcher would; and the error when cudaLaunch comes unconfigured.
#include "check.cuh"

#include <cstddef>
#include <dlfcn.h>

struct Args {
    int *out;
    int n;
    double scale;
    char tag;
};

__global__ void legacy(int *out, int n, double scale, char tag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)(i * scale) + tag;
}

typedef cudaError_t (*configure_fn)(dim3, dim3, size_t, cudaStream_t);
typedef cudaError_t (*setup_fn)(const void *, size_t, size_t);
typedef cudaError_t (*launch_fn)(const void *);

int main()
{
    configure_fn configure = (configure_fn)dlsym(RTLD_DEFAULT, "cudaConfigureCall");
    setup_fn setup = (setup_fn)dlsym(RTLD_DEFAULT, "cudaSetupArgument");
    launch_fn launch = (launch_fn)dlsym(RTLD_DEFAULT, "cudaLaunch");
    if (!check(configure && setup && launch, "legacy_entry_points",
               "the runtime does not export cudaConfigureCall/cudaSetupArgument/cudaLaunch"))
        return check_finish();
    const int n = 100;
    int *d, h[n];
    CUDA_OK("setup", cudaMalloc(&d, sizeof h));
    // The arguments at the offsets the host compiler gives the same fields in a struct.
    Args a = {d, n, 2.5, 'A'};
    CUDA_OK("configure", configure(dim3(4), dim3(32), 0, 0));
    CUDA_OK("setup_argument", setup(&a.out, sizeof a.out, offsetof(Args, out)));
    CUDA_OK("setup_argument", setup(&a.n, sizeof a.n, offsetof(Args, n)));
    CUDA_OK("setup_argument", setup(&a.scale, sizeof a.scale, offsetof(Args, scale)));
    CUDA_OK("setup_argument", setup(&a.tag, sizeof a.tag, offsetof(Args, tag)));
    CUDA_OK("launch", launch((const void *)legacy));
    CUDA_OK("launch", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == (int)(i * 2.5) + 'A';
    check(ok, "legacy_launch_result", "h[3] = %d", h[3]);
    check(launch((const void *)legacy) == cudaErrorMissingConfiguration,
          "legacy_launch_unconfigured", "cudaLaunch without cudaConfigureCall");
    cudaGetLastError();
    cudaFree(d);
    return check_finish();
}
