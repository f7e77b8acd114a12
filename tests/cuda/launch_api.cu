// launch_api.cu: every host-side way to launch a kernel: <<<>>> with all four arguments,
// cudaLaunchKernel with an argument array, the cudaLaunchKernelEx template (and its C form
// cudaLaunchKernelExC) with a configuration, cudaGetKernel's handle launched like the
// function, 3D grids and blocks, and launches on a stream.
#include "check.cuh"

__global__ void coords(int *out, int tag)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int i = bx * blockDim.x * blockDim.y * blockDim.z + tx;
    extern __shared__ int dyn[];
    dyn[tx] = tag;
    __syncthreads();
    out[i] = dyn[tx] * 1000000 + blockIdx.z * 10000 + blockIdx.y * 1000 + threadIdx.z * 100 +
             threadIdx.y * 10 + threadIdx.x;
}

static bool verify(const int *h, dim3 g, dim3 b, int tag)
{
    int i = 0;
    for (unsigned bz = 0; bz < g.z; bz++)
        for (unsigned by = 0; by < g.y; by++)
            for (unsigned bx = 0; bx < g.x; bx++)
                for (unsigned tz = 0; tz < b.z; tz++)
                    for (unsigned ty = 0; ty < b.y; ty++)
                        for (unsigned tx = 0; tx < b.x; tx++, i++)
                            if (h[i] != tag * 1000000 + (int)(bz * 10000 + by * 1000 +
                                                              tz * 100 + ty * 10 + tx))
                                return false;
    return true;
}

int main()
{
    const dim3 g(3, 2, 2), b(4, 3, 2);
    const int n = 3 * 2 * 2 * 4 * 3 * 2;
    const size_t smem = 24 * sizeof(int);
    int *d, h[n];
    CUDA_OK("setup", cudaMalloc(&d, sizeof h));
    cudaStream_t s;
    CUDA_OK("setup", cudaStreamCreate(&s));

    coords<<<g, b, smem, s>>>(d, 1);
    CUDA_OK("chevrons", cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CUDA_OK("chevrons", cudaStreamSynchronize(s));
    check(verify(h, g, b, 1), "launch_chevrons_3d", "h[5] = %d", h[5]);

    int tag = 2;
    void *args[] = {&d, &tag};
    CUDA_OK("launch_kernel", cudaLaunchKernel((const void *)coords, g, b, args, smem, s));
    CUDA_OK("launch_kernel", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    check(verify(h, g, b, 2), "launch_kernel_api", "h[5] = %d", h[5]);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = g;
    cfg.blockDim = b;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cudaLaunchAttribute prio;
    prio.id = cudaLaunchAttributePriority;
    prio.val.priority = 0;
    cfg.attrs = &prio;
    cfg.numAttrs = 1;
    CUDA_OK("launch_ex", cudaLaunchKernelEx(&cfg, coords, d, 3));
    CUDA_OK("launch_ex", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    check(verify(h, g, b, 3), "launch_kernel_ex", "h[5] = %d", h[5]);

    cudaKernel_t k;
    CUDA_OK("get_kernel", cudaGetKernel(&k, coords));
    tag = 4;
    CUDA_OK("get_kernel", cudaLaunchKernel((const void *)k, g, b, args, smem, 0));
    CUDA_OK("get_kernel", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    check(verify(h, g, b, 4), "launch_kernel_handle", "h[5] = %d", h[5]);

    check(cudaLaunchKernel((const void *)coords, g, b, nullptr, smem, 0) ==
              cudaErrorInvalidValue,
          "launch_null_args", "a kernel with parameters needs an argument array");
    cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
    return check_finish();
}
