// transpose.cu: an N x N float matrix transposed through shared-memory tiles (memory-bound:
// one load and one store per element, a barrier per tile), checked against the host.
// Usage: transpose [N] (default 1024).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < n && y + j < n) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)malloc(bytes), *r = (float *)malloc(bytes), *din, *dout;
    for (int i = 0; i < n * n; i++) h[i] = (float)(i % 9973) * 0.5f;
    cudaMalloc(&din, bytes);
    cudaMalloc(&dout, bytes);
    cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
    transpose<<<dim3((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), dim3(TILE, 8)>>>(dout, din, n);
    cudaMemcpy(r, dout, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) bad += r[x * n + y] != h[y * n + x];
    printf("%s transpose %dx%d (%d wrong)\n", bad ? "FAIL" : "PASS", n, n, bad);
    return bad != 0;
}
