// histogram256.cu: the histogram sample: 256 bins per block in shared memory (per-warp
// sub-histograms to spread the atomics), merged into the global histogram with atomics, on
// bytes with a skewed distribution; and a second pass with one global-atomic per element.
#include "check.cuh"

#include <vector>

#define BINS 256
#define WARPS 4

__global__ void hist_shared(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned sub[WARPS][BINS];
    int warp = threadIdx.x / 32;
    for (int i = threadIdx.x; i < WARPS * BINS; i += blockDim.x)
        (&sub[0][0])[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&sub[warp][data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned s = 0;
        for (int w = 0; w < WARPS; w++)
            s += sub[w][b];
        atomicAdd(&hist[b], s);
    }
}

__global__ void hist_global(const unsigned char *data, int n, unsigned *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[data[i]], 1u);
}

int main()
{
    const int n = 40000;
    std::vector<unsigned char> data(n);
    unsigned expect[BINS] = {0};
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        unsigned v = (x >> 16) & 0xff;
        data[i] = (unsigned char)(v < 128 ? v / 4 : v);  // skewed towards low bins
        expect[data[i]]++;
    }
    unsigned char *dd;
    unsigned *dh, got[BINS];
    CUDA_OK("setup", cudaMalloc(&dd, n));
    CUDA_OK("setup", cudaMalloc(&dh, sizeof got));
    CUDA_OK("setup", cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice));
    CUDA_OK("setup", cudaMemset(dh, 0, sizeof got));
    hist_shared<<<16, WARPS * 32>>>(dd, n, dh);
    CUDA_OK("kernel", cudaMemcpy(got, dh, sizeof got, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < BINS; b++)
        ok = ok && got[b] == expect[b];
    check(ok, "histogram_shared_subhistograms", "bin 0: %u (expected %u)", got[0], expect[0]);
    CUDA_OK("setup", cudaMemset(dh, 0, sizeof got));
    hist_global<<<(n + 255) / 256, 256>>>(dd, n, dh);
    CUDA_OK("kernel", cudaMemcpy(got, dh, sizeof got, cudaMemcpyDeviceToHost));
    ok = true;
    unsigned total = 0;
    for (int b = 0; b < BINS; b++) {
        ok = ok && got[b] == expect[b];
        total += got[b];
    }
    check(ok && total == (unsigned)n, "histogram_global_atomics", "total %u", total);
    cudaFree(dd);
    cudaFree(dh);
    return check_finish();
}
