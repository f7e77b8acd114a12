// latency_chase.cu: load-to-use latency of L1, L2 and DRAM by pointer chase, timed with clock64
// as the published microbenchmark studies do (Wong et al. ISPASS 2010; Jia et al. 2018): one
// thread follows a chain of indices one 128-byte line apart, each load's address depending on
// the last, so the cycles per step are the latency of the level the chain lives in.
//   L1:   a 2 KiB chain, walked once to fill the caches, then timed;
//   L2:   a 256 KiB chain (larger than any configuration's L1, smaller than any L2), the same;
//   DRAM: a 256 KiB chain never touched before, timed on its first walk.
// Prints "latency LEVEL CYCLES" per level (cycles per load, rounded down).
#include <cstdio>
#include <cstdlib>

__global__ void chase(const unsigned *next, unsigned steps, int warm, unsigned long long *out)
{
    unsigned j = 0;
    // the warm walk ends where it began (the chain is a cycle of `steps` links), and the timed
    // walk starts from its result, so the compiler cannot drop it
    if (warm)
        for (unsigned i = 0; i < steps; i++) j = next[j];
    unsigned long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++) j = next[j];
    unsigned long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = j;   // keeps the chain live
}

static unsigned long long run(unsigned bytes, int warm)
{
    const unsigned stride = 32;   // unsigned ints: 128 bytes
    unsigned n = bytes / sizeof(unsigned), steps = n / stride;
    unsigned *h = (unsigned *)malloc(bytes);
    for (unsigned i = 0; i < n; i++) h[i] = (i + stride) % n;
    unsigned *d;
    unsigned long long *o, r[2];
    cudaMalloc(&d, bytes);
    cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    chase<<<1, 1>>>(d, steps, warm, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(d);
    cudaFree(o);
    free(h);
    return r[0] / steps;
}

int main()
{
    printf("latency L1 %llu\n", run(2048, 1));
    printf("latency L2 %llu\n", run(256 * 1024, 1));
    printf("latency DRAM %llu\n", run(256 * 1024, 0));
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
