// dram_copy.cu: DRAM bandwidth by a copy of 32 MiB (16 MiB read, 16 MiB written), each thread
// moving float4s in a grid-stride loop; the kernel's simulated cycles (ptxsim --timing
// --stats) give the bytes per cycle, against the configuration's peak (channels x bus bytes x
// 2 transfers per memory clock). Prints "copied BYTES" and checks the copy.
#include <cstdio>
#include <cstdlib>

__global__ void copy(const float4 *in, float4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

int main()
{
    const size_t bytes = 16u << 20, n = bytes / sizeof(float4);
    float4 *in, *out;
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, bytes);
    float *h = (float *)malloc(bytes);
    for (size_t i = 0; i < bytes / sizeof(float); i++) h[i] = (float)(i % 1000);
    cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice);
    copy<<<480, 256>>>(in, out, n);
    cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < bytes / sizeof(float); i++)
        if (h[i] != (float)(i % 1000)) {
            printf("FAIL copy at %zu\n", i);
            return 1;
        }
    printf("copied %zu\n", 2 * bytes);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
