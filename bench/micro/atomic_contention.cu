// atomic_contention.cu: global atomics on one address against atomics on a line per thread,
// timed with clock64. 16 blocks of 256 threads each do 16 atomicAdds and use the old values (so
// each waits for its reply). On one address all 65536 lane operations are performed one after
// another at that address's L2 slice; on a line per thread they spread over the slices (and
// the SMs' ports). Prints "atomics same CYCLES" and "atomics distinct CYCLES" (the slowest
// warp's), and checks the sums.
#include <cstdio>

enum { BLOCKS = 16, THREADS = 256, STRIDE = 32 };

__global__ void add(unsigned *words, int stride, long long *t, unsigned *olds)
{
    unsigned id = blockIdx.x * THREADS + threadIdx.x, acc = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < 16; i++) acc += atomicAdd(&words[id * stride], 1u);
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x % 32 == 0) t[id / 32] = t1 - t0;
    olds[id] = acc;
}

static unsigned h[BLOCKS * THREADS * STRIDE];

static long long run(unsigned *words, int stride, long long *t, unsigned *olds)
{
    cudaMemset(words, 0, sizeof h);
    add<<<BLOCKS, THREADS>>>(words, stride, t, olds);
    long long ht[BLOCKS * THREADS / 32], worst = 0;
    cudaMemcpy(ht, t, sizeof ht, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, words, sizeof h, cudaMemcpyDeviceToHost);
    for (int w = 0; w < BLOCKS * THREADS / 32; w++) worst = ht[w] > worst ? ht[w] : worst;
    return worst;
}

int main()
{
    unsigned *words, *olds;
    long long *t;
    cudaMalloc(&words, sizeof h);
    cudaMalloc(&olds, BLOCKS * THREADS * sizeof(unsigned));
    cudaMalloc(&t, BLOCKS * THREADS / 32 * sizeof(long long));
    long long same = run(words, 0, t, olds);
    if (h[0] != BLOCKS * THREADS * 16) { printf("FAIL same: %u\n", h[0]); return 1; }
    long long distinct = run(words, STRIDE, t, olds);
    for (int i = 0; i < BLOCKS * THREADS; i++)
        if (h[i * STRIDE] != 16) { printf("FAIL distinct %d: %u\n", i, h[i * STRIDE]); return 1; }
    printf("atomics same %lld\natomics distinct %lld\n", same, distinct);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
