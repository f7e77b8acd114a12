// barrier_inside.cu: a __syncthreads() between tx_begin() and tx_commit() (an aborted subset of
// the warp would execute it again alone): ptxsim refuses the kernel's PTX when it loads it, the
// launch returns cudaErrorInvalidPtx, and the message names the PTX line of the barrier.
#include <ptxsim/kilotm.h>

#include <cstdio>

__global__ void k(int *c)
{
    tx_begin();
    c[threadIdx.x] += 1;
    __syncthreads();
    c[(threadIdx.x + 1) % 32] += 1;
    tx_commit();
}

int main()
{
    int *d;
    cudaMalloc(&d, 128);
    k<<<1, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("launch: %s\n", cudaGetErrorName(e));
    return 0;
}
