// reduction.cu: block tree reductions in dynamic (extern __shared__) shared memory whose block
// sums meet through atomicAdd in global memory; a histogram built with shared-memory atomics;
// and atomicMin/atomicMax/atomicCAS. Inputs are integers (or integer-valued floats) so that
// every result is exact and independent of the order the atomics happen in.
#include "check.cuh"

#include <vector>

// Each thread first accumulates a grid-stride slice, then the block halves its partial sums
// in shared memory until one is left, which thread 0 adds to the total.
__global__ void reduce_sum(const int *in, int n, unsigned long long *total)
{
    extern __shared__ int partial[];
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, (unsigned long long)(long long)partial[0]);
}

__global__ void reduce_float(const float *in, int n, float *total)
{
    extern __shared__ float fpartial[];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    fpartial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            fpartial[threadIdx.x] += fpartial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, fpartial[0]);
}

#define BINS 64

__global__ void histogram(const unsigned char *in, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

__global__ void min_max(const int *in, int n, int *lo, int *hi, int *first_negative)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicMin(lo, in[i]);
    atomicMax(hi, in[i]);
    // The smallest index holding a negative value, through a compare-and-swap loop.
    if (in[i] < 0) {
        int seen = *first_negative;
        while (i < seen) {
            int prev = atomicCAS(first_negative, seen, i);
            if (prev == seen)
                break;
            seen = prev;
        }
    }
}

static int value(int i)
{
    return (int)((i * 2654435761u) >> 20) % 2001 - 1000;  // spread over [-1000, 1000]
}

static void test_sum(const char *name, int n, int blocks, int threads)
{
    std::vector<int> h(n);
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = value(i);
        want += h[i];
    }
    int *d;
    unsigned long long *dtotal, total = 0;
    CUDA_OK(name, cudaMalloc(&d, n * sizeof(int)));
    CUDA_OK(name, cudaMalloc(&dtotal, sizeof *dtotal));
    CUDA_OK(name, cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemset(dtotal, 0, sizeof *dtotal));
    reduce_sum<<<blocks, threads, threads * sizeof(int)>>>(d, n, dtotal);
    CUDA_OK(name, cudaGetLastError());
    CUDA_OK(name, cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
    check((long long)total == want, name, "sum %lld, expected %lld (n=%d, <<<%d,%d>>>)",
          (long long)total, want, n, blocks, threads);
    cudaFree(d);
    cudaFree(dtotal);
}

static void test_float_sum(void)
{
    const char *name = "reduction_float_atomic";
    const int n = 20000;
    std::vector<float> h(n);
    double want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (float)(i % 17);  // partial sums stay below 2^24: exact in any order
        want += h[i];
    }
    float *d, *dtotal, total = -1;
    CUDA_OK(name, cudaMalloc(&d, n * sizeof(float)));
    CUDA_OK(name, cudaMalloc(&dtotal, sizeof(float)));
    CUDA_OK(name, cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemset(dtotal, 0, sizeof(float)));
    reduce_float<<<16, 128, 128 * sizeof(float)>>>(d, n, dtotal);
    CUDA_OK(name, cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
    check((double)total == want, name, "sum %.1f, expected %.1f", (double)total, want);
    cudaFree(d);
    cudaFree(dtotal);
}

static void test_histogram(void)
{
    const char *name = "histogram_shared_atomics";
    const int n = 30000;
    std::vector<unsigned char> h(n);
    unsigned want[BINS] = {0}, got[BINS];
    for (int i = 0; i < n; i++) {
        h[i] = (unsigned char)((i * 31 + i / 7) & 0xff);
        want[h[i] % BINS]++;
    }
    unsigned char *d;
    unsigned *dbins;
    CUDA_OK(name, cudaMalloc(&d, n));
    CUDA_OK(name, cudaMalloc(&dbins, sizeof got));
    CUDA_OK(name, cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemset(dbins, 0, sizeof got));
    histogram<<<12, 96>>>(d, n, dbins);
    CUDA_OK(name, cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int b = 0; b < BINS && bad < 0; b++)
        if (got[b] != want[b])
            bad = b;
    check(bad < 0, name, "bin %d holds %u, expected %u", bad, bad < 0 ? 0 : got[bad],
          bad < 0 ? 0 : want[bad]);
    cudaFree(d);
    cudaFree(dbins);
}

static void test_min_max(void)
{
    const char *name = "atomic_min_max_cas";
    const int n = 5000;
    std::vector<int> h(n);
    int want_lo = 1 << 30, want_hi = -(1 << 30), want_first = n;
    for (int i = 0; i < n; i++) {
        h[i] = value(i + 17);
        want_lo = h[i] < want_lo ? h[i] : want_lo;
        want_hi = h[i] > want_hi ? h[i] : want_hi;
        if (h[i] < 0 && i < want_first)
            want_first = i;
    }
    int *d, *dres, res[3] = {1 << 30, -(1 << 30), n};
    CUDA_OK(name, cudaMalloc(&d, n * sizeof(int)));
    CUDA_OK(name, cudaMalloc(&dres, sizeof res));
    CUDA_OK(name, cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemcpy(dres, res, sizeof res, cudaMemcpyHostToDevice));
    min_max<<<(n + 255) / 256, 256>>>(d, n, dres, dres + 1, dres + 2);
    CUDA_OK(name, cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
    check(res[0] == want_lo && res[1] == want_hi && res[2] == want_first, name,
          "min %d max %d first negative %d, expected %d %d %d", res[0], res[1], res[2], want_lo,
          want_hi, want_first);
    cudaFree(d);
    cudaFree(dres);
}

int main()
{
    test_sum("reduction_sum_256", 50000, 32, 256);
    test_sum("reduction_sum_64", 12345, 7, 64);  // a block of two warps, an odd grid
    test_float_sum();
    test_histogram();
    test_min_max();
    return check_finish();
}
