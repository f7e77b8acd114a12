// dynamic_shared.cu: dynamic shared memory sized at launch: two arrays carved from one
// extern __shared__ buffer, the opt-in above 48 KiB with cudaFuncSetAttribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize), the attributes cudaFuncGetAttributes reports,
// and the occupancy calculator's answers as the shared memory per block grows.
#include "check.cuh"

__global__ void two_arrays(const float *in, float *out, int n)
{
    extern __shared__ unsigned char pool[];
    float *a = (float *)pool;
    int *b = (int *)(pool + n * sizeof(float));
    int t = threadIdx.x;
    a[t] = in[t];
    b[t] = t * 2;
    __syncthreads();
    out[t] = a[n - 1 - t] + (float)b[(t + 1) % n];
}

__global__ void big_shared(int *out, int words)
{
    extern __shared__ int s[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        s[i] = i;
    __syncthreads();
    int sum = 0;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        sum += s[words - 1 - i];
    atomicAdd(out, sum);
}

__global__ void static_shared(int *out)
{
    __shared__ int tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[1023 - threadIdx.x];
}

int main()
{
    const int n = 128;
    float in[n], out[n], *din, *dout;
    for (int i = 0; i < n; i++)
        in[i] = (float)i * 0.5f;
    CUDA_OK("setup", cudaMalloc(&din, sizeof in));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    two_arrays<<<1, n, n * (sizeof(float) + sizeof(int))>>>(din, dout, n);
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < n; t++)
        ok = ok && out[t] == in[n - 1 - t] + (float)(((t + 1) % n) * 2);
    check(ok, "dynamic_shared_two_arrays", "out[0] = %f", out[0]);

    // 80 KiB needs the opt-in; without it the launch fails and leaves the device usable.
    const int words = 80 * 1024 / 4;
    int *dsum, sum = 0;
    CUDA_OK("setup", cudaMalloc(&dsum, sizeof(int)));
    CUDA_OK("setup", cudaMemset(dsum, 0, sizeof(int)));
    big_shared<<<1, 256, words * sizeof(int)>>>(dsum, words);
    check(cudaGetLastError() != cudaSuccess, "large_shared_needs_opt_in",
          "an 80 KiB launch without the opt-in must fail");
    CUDA_OK("opt_in", cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           words * sizeof(int)));
    big_shared<<<2, 256, words * sizeof(int)>>>(dsum, words);
    CUDA_OK("opt_in", cudaGetLastError());
    CUDA_OK("opt_in", cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost));
    long long expect = 2LL * words * (words - 1) / 2;
    check(sum == (int)expect, "large_shared_after_opt_in", "sum %d (expected %lld)", sum,
          expect);

    cudaFuncAttributes fa;
    CUDA_OK("attributes", cudaFuncGetAttributes(&fa, static_shared));
    check(fa.sharedSizeBytes == 4096 && fa.maxThreadsPerBlock == 1024, "func_attributes",
          "static shared %zu, max threads %d", fa.sharedSizeBytes, fa.maxThreadsPerBlock);
    CUDA_OK("attributes", cudaFuncGetAttributes(&fa, big_shared));
    check(fa.maxDynamicSharedSizeBytes == (int)(words * sizeof(int)), "func_attribute_opt_in",
          "max dynamic %d", fa.maxDynamicSharedSizeBytes);

    int small = 0, large = 0;
    CUDA_OK("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&small, big_shared, 256,
                                                                       1024));
    CUDA_OK("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&large, big_shared, 256,
                                                                       words * sizeof(int)));
    check(small >= 1 && large >= 1 && large < small, "occupancy_shrinks_with_shared",
          "%d blocks with 1 KiB, %d with 80 KiB", small, large);
    int *dst;
    CUDA_OK("setup", cudaMalloc(&dst, 1024 * sizeof(int)));
    static_shared<<<1, 1024>>>(dst);
    int h[1024];
    CUDA_OK("kernel", cudaMemcpy(h, dst, sizeof h, cudaMemcpyDeviceToHost));
    check(h[0] == 1023 && h[1023] == 0, "static_shared_full_block", "%d %d", h[0], h[1023]);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dsum);
    cudaFree(dst);
    return check_finish();
}
