// bitonic_sort.cu: the sorting network of the sortingNetworks sample: a bitonic sort of each
// block's keys (with values carried along) in shared memory, ascending and descending, and a
// global-memory bitonic merge across blocks driven from the host.
#include "check.cuh"

#include <algorithm>
#include <vector>

#define N 512

__global__ void bitonic_shared(unsigned *keys, unsigned *vals, int ascending)
{
    __shared__ unsigned k[N], v[N];
    unsigned *bk = keys + blockIdx.x * N, *bv = vals + blockIdx.x * N;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        k[i] = bk[i];
        v[i] = bv[i];
    }
    for (int size = 2; size <= N; size <<= 1)
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int i = threadIdx.x; i < N; i += blockDim.x) {
                int j = i ^ stride;
                if (j > i) {
                    bool up = ((i & size) == 0) == (ascending != 0);
                    if ((k[i] > k[j]) == up) {
                        unsigned t = k[i]; k[i] = k[j]; k[j] = t;
                        t = v[i]; v[i] = v[j]; v[j] = t;
                    }
                }
            }
        }
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        bk[i] = k[i];
        bv[i] = v[i];
    }
}

__global__ void bitonic_global_step(unsigned *keys, int total, int size, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i ^ stride;
    if (i < total && j > i && j < total) {
        bool up = (i & size) == 0;
        if ((keys[i] > keys[j]) == up) {
            unsigned t = keys[i]; keys[i] = keys[j]; keys[j] = t;
        }
    }
}

int main()
{
    const int blocks = 4, total = blocks * N;
    std::vector<unsigned> keys(total), vals(total);
    unsigned x = 777;
    for (int i = 0; i < total; i++) {
        x = x * 1664525u + 1013904223u;
        keys[i] = x >> 8;
        vals[i] = (unsigned)i;
    }
    unsigned *dk, *dv;
    CUDA_OK("setup", cudaMalloc(&dk, total * sizeof(unsigned)));
    CUDA_OK("setup", cudaMalloc(&dv, total * sizeof(unsigned)));
    CUDA_OK("setup", cudaMemcpy(dk, keys.data(), total * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_OK("setup", cudaMemcpy(dv, vals.data(), total * sizeof(unsigned), cudaMemcpyHostToDevice));
    bitonic_shared<<<blocks, 128>>>(dk, dv, 1);
    std::vector<unsigned> k(total), v(total);
    CUDA_OK("kernel", cudaMemcpy(k.data(), dk, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(v.data(), dv, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks && ok; b++) {
        std::vector<unsigned> e(keys.begin() + b * N, keys.begin() + (b + 1) * N);
        std::sort(e.begin(), e.end());
        for (int i = 0; i < N && ok; i++)
            ok = k[b * N + i] == e[i] && keys[v[b * N + i]] == k[b * N + i];
    }
    check(ok, "bitonic_block_ascending", "keys or carried values out of place");

    bitonic_shared<<<blocks, 128>>>(dk, dv, 0);
    CUDA_OK("kernel", cudaMemcpy(k.data(), dk, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    ok = true;
    for (int b = 0; b < blocks; b++)
        for (int i = 1; i < N; i++)
            ok = ok && k[b * N + i - 1] >= k[b * N + i];
    check(ok, "bitonic_block_descending", "descending order");

    // Finish as one global sort: the full network on the whole array.
    CUDA_OK("setup", cudaMemcpy(dk, keys.data(), total * sizeof(unsigned), cudaMemcpyHostToDevice));
    for (int size = 2; size <= total; size <<= 1)
        for (int stride = size / 2; stride > 0; stride >>= 1)
            bitonic_global_step<<<total / 256, 256>>>(dk, total, size, stride);
    CUDA_OK("global", cudaMemcpy(k.data(), dk, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::vector<unsigned> e = keys;
    std::sort(e.begin(), e.end());
    check(k == e, "bitonic_global", "the global sort differs from std::sort");
    cudaFree(dk);
    cudaFree(dv);
    return check_finish();
}
