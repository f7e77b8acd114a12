// region_fault.cu: faults that iGPU cannot restart, for the precise exception report
// (tests/suites/igpu.sh). `x[i] += 1` is a clobber antidependence, so --igpu cuts a second
// idempotent region before its store; the out-of-bounds store after it then faults in that
// region, not in the kernel's first. With argument "trap" the kernel traps there instead.
#include <cstdio>
#include <cstring>

__global__ void bump_then_fault(int *x, int *y, long long far)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += 1;
    if (i == 37)
        y[far] = i;   // far past the end of y
}

__global__ void bump_then_trap(int *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += 1;
    if (i == 37)
        __trap();
}

int main(int argc, char **argv)
{
    int *x, *y;
    cudaMalloc(&x, 64 * sizeof(int));
    cudaMalloc(&y, 64 * sizeof(int));
    cudaMemset(x, 0, 64 * sizeof(int));
    if (argc > 1 && strcmp(argv[1], "trap") == 0)
        bump_then_trap<<<2, 32>>>(x);
    else
        bump_then_fault<<<2, 32>>>(x, y, 1LL << 34);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
