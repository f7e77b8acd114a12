// coalescing.cu: global loads by stride, timed with clock64. 160 blocks of 256 threads each
// read 8 floats, thread i of the grid reading element (i + j * threads) * S for stride S = 1,
// 2, 4, 8, 16, 32 floats. A warp's 32 loads touch 4 sectors of 32 bytes at stride 1 and 32
// sectors from stride 8 on: the bytes moved grow with the stride, and with them the time.
// Prints "stride S CYCLES": the slowest block's cycles from its first load to its last result.
#include <cstdio>

__global__ void strided(const float *in, int stride, float *out, unsigned long long *t)
{
    unsigned threads = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    __syncthreads();
    unsigned long long t0 = clock64();
    float acc = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) acc += in[(size_t)(i + j * threads) * stride];
    out[i] = acc;
    __syncthreads();
    unsigned long long t1 = clock64();
    if (threadIdx.x == 0) t[blockIdx.x] = t1 - t0;
}

int main()
{
    const int blocks = 160, threads = 256;
    size_t n = (size_t)blocks * threads * 8 * 32;
    float *in, *out;
    unsigned long long *t, h[blocks];
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, blocks * threads * sizeof(float));
    cudaMalloc(&t, sizeof h);
    for (int s = 1; s <= 32; s *= 2) {
        strided<<<blocks, threads>>>(in, s, out, t);
        cudaMemcpy(h, t, sizeof h, cudaMemcpyDeviceToHost);
        unsigned long long worst = 0;
        for (int b = 0; b < blocks; b++) worst = h[b] > worst ? h[b] : worst;
        printf("stride %d %llu\n", s, worst);
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
