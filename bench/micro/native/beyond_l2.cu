// beyond_l2.cu: DRAM latency and bandwidth on a real GPU, with footprints far beyond its L2
// (the 4 MiB "DRAM" chain of bench/micro/pointer_chase.cu stays in a Hopper's 50-60 MB L2).
// Run natively only, by bench/micro/run_native.sh (its footprints are too large for a useful
// run under ptxsim); the figures calibrate a configuration's dram_latency and check its copy
// bandwidth (timing/configs/h200.gpu).
//   chase: one thread follows a random cycle through every 128-byte line of the footprint
//          (Sattolo's algorithm, fixed seed: no two consecutive loads share a DRAM row by
//          design, no prefetcher can follow), 20,000 untimed loads, then 200,000 timed by
//          clock64 and %globaltimer. Prints "chase MIB CYCLES cycles NS ns" per load.
//   copy:  a float4 grid-stride copy of 1 GiB to another 1 GiB, best of 5 by CUDA events;
//          and cudaMemcpy device to device of the same. Prints "copy_kernel GB/s" and
//          "memcpy_d2d GB/s", counting bytes read and written.
#include <cstdio>
#include <cstdlib>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void chase(unsigned long long start, unsigned warm, unsigned steps, unsigned long long *out)
{
    unsigned long long p = start;
    for (unsigned i = 0; i < warm; i++) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    out[2] = p;
    unsigned long long g0, g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    unsigned long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    unsigned long long t1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    out[0] = t1 - t0;
    out[1] = g1 - g0;
    out[2] = p;
}

__global__ void copy(const float4 *in, float4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

static void chase_footprint(size_t mib)
{
    const size_t line = 128, bytes = mib << 20, n = bytes / line;
    const unsigned warm = 20000, steps = 200000;
    char *d;
    unsigned long long *o, r[3];
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMalloc(&o, sizeof r));
    uint32_t *next = (uint32_t *)malloc(n * sizeof *next);
    unsigned long long *h = (unsigned long long *)calloc(bytes / 8, 8);
    for (size_t i = 0; i < n; i++) next[i] = (uint32_t)i;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = n - 1; i > 0; i--) {   // Sattolo: one cycle through every line
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t j = (size_t)((s >> 33) % i);
        uint32_t t = next[i]; next[i] = next[j]; next[j] = t;
    }
    for (size_t i = 0; i < n; i++) h[i * line / 8] = (unsigned long long)(d + (size_t)next[i] * line);
    CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    chase<<<1, 1>>>((unsigned long long)d, warm, steps, o);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
    printf("chase %zu %.1f cycles %.1f ns\n", mib, (double)r[0] / steps, (double)r[1] / steps);
    CHECK(cudaFree(d));
    CHECK(cudaFree(o));
    free(h);
    free(next);
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t mibs[] = {256, 1024, 4096};
    for (size_t m : mibs) chase_footprint(m);

    const size_t bytes = (size_t)1 << 30, n = bytes / sizeof(float4);
    float4 *in, *out;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemset(in, 1, bytes));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    float best_k = 1e30f, best_m = 1e30f, ms;
    for (int rep = 0; rep < 6; rep++) {
        CHECK(cudaEventRecord(a));
        copy<<<sms * 8, 256>>>(in, out, n);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0 && ms < best_k) best_k = ms;   // the first run pays first-touch costs
        CHECK(cudaEventRecord(a));
        CHECK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0 && ms < best_m) best_m = ms;
    }
    printf("copy_kernel %.0f GB/s\n", 2.0 * bytes / (best_k * 1e-3) / 1e9);
    printf("memcpy_d2d %.0f GB/s\n", 2.0 * bytes / (best_m * 1e-3) / 1e9);
    return 0;
}
