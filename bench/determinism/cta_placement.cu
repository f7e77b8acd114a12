// cta_placement.cu: which SM each CTA ran on (%smid), for checking that the cycle model under
// --det=gpudet --timing places CTAs where GPUDet's functional run did (tests/suites/
// gpudet_costs.sh, "placement"). CTAs do uneven amounts of work (a global store each iteration,
// a barrier every 8), so they finish at different quanta and the CTAs after the first wave go
// wherever GPUDet's work distribution (or DWP) puts them, not in launch order.
// Usage: cta_placement [blocks]; prints one line "block B sm S" per CTA.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void work(unsigned *sm, float *data, int n)
{
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    int b = blockIdx.x;
    int iters = 1 + (b * 7 + b / 3) % 23 * 6;   // uneven per CTA: 1 to 133
    float v = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        v = v * 1.5f + 1.0f;
        data[(b * blockDim.x + threadIdx.x) % n] = v;
        if (i % 8 == 7) __syncthreads();   // BTA releases these inside a quantum
    }
    if (threadIdx.x == 0) sm[b] = id;
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 360;
    const int threads = 64, n = blocks * threads;
    unsigned *d_sm;
    float *d_data;
    if (cudaMalloc(&d_sm, blocks * sizeof(unsigned)) != cudaSuccess ||
        cudaMalloc(&d_data, n * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    work<<<blocks, threads>>>(d_sm, d_data, n);
    unsigned *sm = (unsigned *)malloc(blocks * sizeof(unsigned));
    if (cudaMemcpy(sm, d_sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    for (int b = 0; b < blocks; b++) printf("block %d sm %u\n", b, sm[b]);
    free(sm);
    cudaFree(d_sm);
    cudaFree(d_data);
    return 0;
}
