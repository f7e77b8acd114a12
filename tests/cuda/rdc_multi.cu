// rdc_multi.cu: separate compilation (-rdc=true) across three translation units, as a library
// of device code is usually split: this file's kernels call __device__ functions and read
// __device__ / __constant__ variables defined in rdc_multi/math.cu and rdc_multi/table.cu,
// a template instantiated in two units (a .weak definition each), and host code copies to a
// variable another unit defines.
// nvcc: -rdc=true
#include "check.cuh"
#include "rdc_multi/shared.cuh"

__global__ void apply(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = poly(in[i]) + lookup(i) + g_offset + twice<int>(1);
}

__global__ void bump_counter(int times)
{
    for (int k = 0; k < times; k++)
        count_call();
}

int main()
{
    const int n = 200;
    int h[n], out[n], *din, *dout;
    for (int i = 0; i < n; i++)
        h[i] = i % 17 - 8;
    CUDA_OK("setup", cudaMalloc(&din, sizeof h));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    int offset = 1000;
    CUDA_OK("extern_symbol", cudaMemcpyToSymbol(g_offset, &offset, sizeof offset));
    apply<<<(n + 63) / 64, 64>>>(din, dout, n);
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        int x = h[i];
        ok = out[i] == 3 * x * x - 2 * x + 7 + (i % TABLE_SIZE) * 10 + offset + 2;
    }
    check(ok, "rdc_cross_unit_calls", "results through functions of other units differ");

    bump_counter<<<2, 32>>>(3);
    int calls = 0;
    CUDA_OK("counter", cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
    check(calls == 2 * 32 * 3 + 1, "rdc_cross_unit_variable",
          "the counter in another unit reads %d", calls);
    check(table_sum_on_device() == 450, "rdc_other_unit_kernel",
          "a kernel launched from another unit's host code");
    cudaFree(din);
    cudaFree(dout);
    return check_finish();
}
