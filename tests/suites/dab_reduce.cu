// dab_reduce.cu: float reductions with atomicAdd whose result is unused (nvcc emits
// red.global.add.f32), the workload DAB targets (spec dab.md S2): every thread adds values of
// widely different magnitudes into a few shared sums ("sums") and into a 256-bin float
// histogram ("histogram", enough distinct addresses to fill DAB's buffers). Floating-point
// addition is not associative, so the bits of each sum depend on the order of the atomics:
// under --det=dab they must be the same on every run; without determinism they vary with the
// schedule. Prints each result's bits as "signature NAME HEX" and checks the sums against a
// double-precision CPU reference ("PASS/FAIL NAME_reference").
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>

#define N (64 * 256 * 4)
#define SUMS 4
#define BINS 256

__global__ void sums(const float *x, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&out[i % SUMS], x[i]);
}

__global__ void histogram(const float *x, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        atomicAdd(&out[(h >> 8) % BINS], x[i]);
    }
}

// Each thread adds 1 to its block's counter (red: buffered), then after __syncthreads (DAB
// flushes at the barrier's CTA-level fence) or after __threadfence (a fence waits for the flush)
// thread 0 reads the counter back with a plain load: it must see every add of its block.
__global__ void after_barrier(unsigned *count, unsigned *seen)
{
    atomicAdd(&count[blockIdx.x], 1u);
    __syncthreads();
    if (threadIdx.x == 0) seen[blockIdx.x] = *(volatile unsigned *)&count[blockIdx.x];
}

__global__ void after_fence(unsigned *count, unsigned *seen)
{
    if (threadIdx.x < 32) {   // one warp: its own adds, then its fence
        atomicAdd(&count[blockIdx.x], 2u);
        __threadfence();
        if (threadIdx.x == 0) seen[blockIdx.x] = *(volatile unsigned *)&count[blockIdx.x];
    }
}

// The order the scheduler lets atomics into one buffer: warps 0 and 4 of a CTA share scheduler 0
// (slot mod 4). Warp 0 does inc(limit 0) twice at once ("reset", A0 A1), warp 4 spins a while,
// then does inc(limit 100) twice ("count", B0 B1); warps 1-3 and 5-7 exit at once; the buffer
// applies its entries in insert order (inc does not fuse). Worked out by hand from spec S6:
// - srr: one instruction per warp per turn: A0 A1 long before B0 B1: 0, 0, 1, 2 -> 2;
// - gwat: w0 inserts A0, the token passes over the exiting warps to w4, which inserts B0 after its
//   spin; the token comes back to w0 (A1), then w4 (B1): 0, 1, 0, 1 -> 1;
// - gtar: round 1 {A0, B0}, round 2 {A1, B1} -> 1;
// - gtrr: greedy until both wait at their first atomic, then strict round robin: A0 B0 A1 B1 -> 1;
// - warp-level buffers (WarpGTO): each warp its own buffer, drained in slot order: A0 A1 B0 B1
//   -> 2.
__global__ void order_probe(unsigned *x)
{
    if (threadIdx.x % 32) return;
    int w = threadIdx.x / 32;
    if (w == 0) {
        atomicInc(x, 0u);
        atomicInc(x, 0u);
    } else if (w == 4) {
        unsigned v = x[1];
        for (int i = 0; i < 50; i++) v = v * 3u + 1u;
        if (v == 12345u) x[2] = v;   // keeps the spin; never true for x[1] = 0
        atomicInc(x, 100u);
        atomicInc(x, 100u);
    }
}

static float value(int i)
{
    unsigned h = (unsigned)i * 2246822519u + 374761393u;
    h ^= h >> 15;
    float mant = (float)(h % 20001) / 10000.0f - 1.0f;       // [-1, 1]
    int e = (int)((h >> 16) % 24) - 12;                      // 2^-12 .. 2^11
    return ldexpf(mant, e);
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int main()
{
    static float x[N];
    double ref[SUMS] = {0}, mag[SUMS] = {0};
    for (int i = 0; i < N; i++) {
        x[i] = value(i);
        ref[i % SUMS] += x[i];
        mag[i % SUMS] += fabs(x[i]);
    }
    float *dx, *dsum, *dhist;
    if (cudaMalloc(&dx, sizeof x) || cudaMalloc(&dsum, SUMS * sizeof(float)) ||
        cudaMalloc(&dhist, BINS * sizeof(float))) {
        printf("FAIL cudaMalloc\n");
        return 1;
    }
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemset(dsum, 0, SUMS * sizeof(float));
    cudaMemset(dhist, 0, BINS * sizeof(float));
    sums<<<64, 256>>>(dx, dsum, N);
    histogram<<<64, 256>>>(dx, dhist, N);
    float s[SUMS], hgram[BINS];
    cudaMemcpy(s, dsum, sizeof s, cudaMemcpyDeviceToHost);
    cudaMemcpy(hgram, dhist, sizeof hgram, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL launch: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("signature sums %016llx\n", (unsigned long long)fnv(s, sizeof s));
    printf("signature histogram %016llx\n", (unsigned long long)fnv(hgram, sizeof hgram));
    bool ok = true;
    for (int k = 0; k < SUMS; k++) {
        // float rounding of N/SUMS additions: far below 1e-4 of the sum of magnitudes
        double tol = 1e-4 * mag[k];
        if (fabs((double)s[k] - ref[k]) > tol) {
            printf("FAIL sums_reference: sum %d is %.9g, CPU %.9g (tolerance %.3g)\n", k, s[k],
                   ref[k], tol);
            ok = false;
        }
    }
    double htotal = 0, total = 0;
    for (int b = 0; b < BINS; b++) htotal += hgram[b];
    for (int k = 0; k < SUMS; k++) total += ref[k];
    double allmag = mag[0] + mag[1] + mag[2] + mag[3];
    if (fabs(htotal - total) > 1e-4 * allmag) {
        printf("FAIL histogram_reference: bins add up to %.9g, CPU %.9g\n", htotal, total);
        ok = false;
    }
    if (ok) printf("PASS sums_reference\nPASS histogram_reference\n");
    unsigned *dcount, *dseen, seen[2][16];
    cudaMalloc(&dcount, 2 * 16 * sizeof(unsigned));
    cudaMalloc(&dseen, 2 * 16 * sizeof(unsigned));
    cudaMemset(dcount, 0, 2 * 16 * sizeof(unsigned));
    after_barrier<<<16, 256>>>(dcount, dseen);
    after_fence<<<16, 64>>>(dcount + 16, dseen + 16);
    cudaMemcpy(seen, dseen, sizeof seen, cudaMemcpyDeviceToHost);
    bool seen_ok[2] = {true, true};
    for (int b = 0; b < 16; b++) {
        seen_ok[0] = seen_ok[0] && seen[0][b] == 256;
        seen_ok[1] = seen_ok[1] && seen[1][b] == 64;
    }
    printf("%s barrier_sees_atomics: block 0 read %u of 256\n", seen_ok[0] ? "PASS" : "FAIL",
           seen[0][0]);
    printf("%s fence_sees_atomics: block 0 read %u of 64\n", seen_ok[1] ? "PASS" : "FAIL",
           seen[1][0]);
    ok = ok && seen_ok[0] && seen_ok[1];
    unsigned *dprobe, probe;
    cudaMalloc(&dprobe, 3 * sizeof(unsigned));
    cudaMemset(dprobe, 0, 3 * sizeof(unsigned));
    order_probe<<<1, 256>>>(dprobe);
    cudaMemcpy(&probe, dprobe, sizeof probe, cudaMemcpyDeviceToHost);
    printf("order_probe %u\n", probe);
    return ok ? 0 : 1;
}
