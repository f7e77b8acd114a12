// bank_conflicts.cu: shared-memory bank conflicts, 1- to 32-way, timed with clock64. One warp
// loads from shared memory with lane l reading word l * k: k lanes share each bank (k = 1, 2,
// 4, 8, 16, 32), so each load takes k wavefronts. 16 independent loads per iteration keep the
// load/store unit busy, so the cycles grow with the wavefronts.
// Prints "conflict K CYCLES" (cycles for 8 x 16 loads).
#include <cstdio>

__global__ void banks(int k, unsigned long long *out, int *sink)
{
    __shared__ volatile int s[32 * 32 + 32];
    for (int i = threadIdx.x; i < 32 * 32 + 32; i += blockDim.x) s[i] = i;
    __syncwarp();
    int base = threadIdx.x * k, acc = 0;
    unsigned long long t0 = clock64();
    for (int r = 0; r < 8; r++) {
#pragma unroll
        for (int j = 0; j < 16; j++) acc += s[base + j];
    }
    unsigned long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = acc;
}

int main()
{
    unsigned long long *o, r;
    int *sink;
    cudaMalloc(&o, sizeof r);
    cudaMalloc(&sink, 32 * sizeof(int));
    for (int k = 1; k <= 32; k *= 2) {
        banks<<<1, 32>>>(k, o, sink);
        cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
        printf("conflict %d %llu\n", k, r);
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
