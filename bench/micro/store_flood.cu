// store_flood.cu: stores alone, 32 MiB of float4s in a grid-stride loop, far more than any L2
// holds: the written lines must leave L2 for DRAM, so the kernel's simulated cycles (ptxsim
// --timing --stats) can go no faster than DRAM's peak write bandwidth allows once the L2 is full
// (backpressure from the DRAM queues through L2 and the interconnect to the storing warps).
// Prints "stored BYTES" and checks the values.
#include <cstdio>
#include <cstdlib>

__global__ void flood(float4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = make_float4((float)(i % 1000), 1.0f, 2.0f, 3.0f);
}

int main()
{
    const size_t bytes = 32u << 20, n = bytes / sizeof(float4);
    float4 *out;
    cudaMalloc(&out, bytes);
    flood<<<480, 256>>>(out, n);
    float4 *h = (float4 *)malloc(bytes);
    cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < n; i++)
        if (h[i].x != (float)(i % 1000) || h[i].w != 3.0f) {
            printf("FAIL store at %zu\n", i);
            return 1;
        }
    printf("stored %zu\n", bytes);
    free(h);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
