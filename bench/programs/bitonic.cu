// bitonic.cu: N unsigned keys (a power of two) sorted by a bitonic network: each block sorts
// 1024 keys in shared memory, then every merge stage runs its strides of 1024 and more as one
// global compare-exchange launch each and the strides below 1024 in shared memory; checked
// against the host's qsort. Usage: bitonic [N] (default 1M).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 512
#define ELEMS (2 * THREADS)

// one compare-exchange of the network's stage (k, j): the pair (i, i + j), ascending where
// bit k of i is clear
__device__ void exchange(unsigned *a, unsigned i, unsigned lo, unsigned hi, unsigned k)
{
    unsigned x = a[lo], y = a[hi];
    bool up = (i & k) == 0;
    if ((x > y) == up) {
        a[lo] = y;
        a[hi] = x;
    }
}

// the stages (k, j) for k from k0 to k1 and every j < min(k, ELEMS) of each, on the block's
// ELEMS keys in shared memory (k0 == k1: one merge stage's short strides)
__global__ void sort_shared(unsigned *keys, unsigned k0, unsigned k1)
{
    __shared__ unsigned s[ELEMS];
    unsigned t = threadIdx.x, base = blockIdx.x * ELEMS;
    s[t] = keys[base + t];
    s[t + THREADS] = keys[base + t + THREADS];
    for (unsigned k = k0; k <= k1; k *= 2)
        for (unsigned j = (k < ELEMS ? k : ELEMS) / 2; j > 0; j /= 2) {
            __syncthreads();
            unsigned lo = 2 * j * (t / j) + t % j;
            exchange(s, base + lo, lo, lo + j, k);
        }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + THREADS] = s[t + THREADS];
}

__global__ void exchange_global(unsigned *keys, unsigned j, unsigned k)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lo = 2 * j * (t / j) + t % j;
    exchange(keys, lo, lo, lo + j, k);
}

static int cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1u << 20;
    if (n < ELEMS || (n & (n - 1))) {
        fprintf(stderr, "bitonic: N must be a power of two of at least %d\n", ELEMS);
        return 2;
    }
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h = (unsigned *)malloc(bytes), *r = (unsigned *)malloc(bytes), *d;
    unsigned x = 12345;
    for (unsigned i = 0; i < n; i++) h[i] = (x = x * 1664525u + 1013904223u) >> 4;
    cudaMalloc(&d, bytes);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    sort_shared<<<n / ELEMS, THREADS>>>(d, 2, ELEMS);
    for (unsigned k = 2 * ELEMS; k <= n; k *= 2) {
        for (unsigned j = k / 2; j >= ELEMS; j /= 2)
            exchange_global<<<n / 2 / 256, 256>>>(d, j, k);
        sort_shared<<<n / ELEMS, THREADS>>>(d, k, k);
    }
    cudaMemcpy(r, d, bytes, cudaMemcpyDeviceToHost);
    qsort(h, n, sizeof(unsigned), cmp);
    long bad = 0;
    for (unsigned i = 0; i < n; i++) bad += r[i] != h[i];
    printf("%s bitonic sort of %u keys (%ld wrong)\n", bad ? "FAIL" : "PASS", n, bad);
    return bad != 0;
}
