// pointer_chase.cu: load-to-use latency of shared memory, L1, L2 and DRAM as the published
// measurements take it: one thread follows a chain in which each element holds the address of
// the next (p = *p), so each load waits for the last and nothing else is on the chain (no
// address arithmetic; latency_chase.cu follows indices instead). The loads are written as
// ld.shared / ld.global in inline PTX so that neither a conversion of a generic address nor an
// index computation sits between two of them, as in the SASS of the published chases
// (Jia et al. 2018; the gpu-latency benchmark of github.com/te42kyfo/gpu-benches).
//   shared: a 32-element chain in shared memory, walked once, then timed;
//   L1:     a 2 KiB chain of global memory (16 lines, 128 bytes apart), walked once, then timed;
//   L2:     a 512 KiB chain (larger than any configuration's L1, smaller than any L2), the same;
//   DRAM:   a 4 MiB chain never touched before, timed on its first walk.
// Prints "chase LEVEL CYCLES" per level (cycles per load, rounded to the nearest).
#include <cstdio>
#include <cstdlib>

__global__ void chase_shared(unsigned steps, unsigned long long *out)
{
    __shared__ unsigned s[32 * 4];   // elements 16 bytes apart: 32 links over 4 x 32 words
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (unsigned i = 0; i < 32; i++) s[i * 4] = base + ((i * 7 + 3) % 32) * 16;
    unsigned p = base + 3 * 16;
    for (unsigned i = 0; i < 32; i++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
    out[1] = p;   // the warm walk's last load has landed before the clock starts
    unsigned long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
    unsigned long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = p;
}

__global__ void chase_global(unsigned long long start, unsigned steps, int warm,
                             unsigned long long *out)
{
    unsigned long long p = start;
    if (warm)
        for (unsigned i = 0; i < steps; i++) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    out[1] = p;   // the warm walk's last load has landed before the clock starts
    unsigned long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    unsigned long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = p;
}

static unsigned long long per_load(unsigned long long cycles, unsigned steps)
{
    return (cycles + steps / 2) / steps;
}

static unsigned long long global_chain(size_t bytes, int warm)
{
    const size_t stride = 128;   // one link per line
    size_t n = bytes / stride;
    char *d;
    unsigned long long *o, r[2];
    cudaMalloc(&d, bytes);
    cudaMalloc(&o, sizeof r);
    unsigned long long *h = (unsigned long long *)calloc(bytes / 8, 8);
    // a cycle through every line, each link a fixed odd number of lines on, so consecutive
    // loads neither share a line nor follow a simple stride
    size_t step = n / 2 + 1;
    while (step > 1 && (n % step == 0 || step % 2 == 0)) step--;
    for (size_t i = 0; i < n; i++)
        h[i * stride / 8] = (unsigned long long)(d + ((i + step) % n) * stride);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    chase_global<<<1, 1>>>((unsigned long long)d, (unsigned)n, warm, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(d);
    cudaFree(o);
    free(h);
    return per_load(r[0], (unsigned)n);
}

int main()
{
    unsigned long long *o, r[2];
    cudaMalloc(&o, sizeof r);
    chase_shared<<<1, 1>>>(256, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(o);
    printf("chase shared %llu\n", per_load(r[0], 256));
    printf("chase L1 %llu\n", global_chain(2048, 1));
    printf("chase L2 %llu\n", global_chain(512 * 1024, 1));
    printf("chase DRAM %llu\n", global_chain(4 * 1024 * 1024, 0));
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
