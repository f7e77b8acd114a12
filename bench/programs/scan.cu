// scan.cu: an exclusive prefix sum of N unsigned ints (Blelloch's work-efficient scan: each block
// scans 1024 elements in shared memory, the block sums are scanned the same way, level by level,
// and added back), checked against the host. Usage: scan [N] (default 16M).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 512
#define ELEMS (2 * THREADS)

// out[i] = in[0] + ... + in[i-1] within each block's ELEMS elements; sums[block] = their total
__global__ void scan_block(unsigned *out, const unsigned *in, unsigned *sums, int n)
{
    __shared__ unsigned s[ELEMS];
    int t = threadIdx.x, base = blockIdx.x * ELEMS;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + THREADS] = base + t + THREADS < n ? in[base + t + THREADS] : 0;
    int off = 1;
    for (int d = ELEMS / 2; d > 0; d /= 2, off *= 2) {   // up-sweep
        __syncthreads();
        if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    }
    if (t == 0) {
        sums[blockIdx.x] = s[ELEMS - 1];
        s[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d *= 2) {                  // down-sweep
        off /= 2;
        __syncthreads();
        if (t < d) {
            int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
            unsigned x = s[a];
            s[a] = s[b];
            s[b] += x;
        }
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + THREADS < n) out[base + t + THREADS] = s[t + THREADS];
}

__global__ void add_block_sums(unsigned *out, const unsigned *scanned_sums, int n)
{
    int i = blockIdx.x * ELEMS + threadIdx.x;
    unsigned add = scanned_sums[blockIdx.x];
    if (i < n) out[i] += add;
    if (i + THREADS < n) out[i + THREADS] += add;
}

// scans d_in (n elements) into d_out, recursively over the block sums
static void scan(unsigned *d_out, const unsigned *d_in, int n)
{
    int blocks = (n + ELEMS - 1) / ELEMS;
    unsigned *sums, *scanned;
    cudaMalloc(&sums, blocks * sizeof(unsigned));
    cudaMalloc(&scanned, blocks * sizeof(unsigned));
    scan_block<<<blocks, THREADS>>>(d_out, d_in, sums, n);
    if (blocks > 1) {
        scan(scanned, sums, blocks);
        add_block_sums<<<blocks, THREADS>>>(d_out, scanned, n);
    }
    cudaFree(sums);
    cudaFree(scanned);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 16 << 20;
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h = (unsigned *)malloc(bytes), *r = (unsigned *)malloc(bytes), *din, *dout;
    for (int i = 0; i < n; i++) h[i] = (unsigned)(i * 7 + 3) % 13;
    cudaMalloc(&din, bytes);
    cudaMalloc(&dout, bytes);
    cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
    scan(dout, din, n);
    cudaMemcpy(r, dout, bytes, cudaMemcpyDeviceToHost);
    long bad = 0;
    unsigned sum = 0;
    for (int i = 0; i < n; i++) {
        bad += r[i] != sum;
        sum += h[i];
    }
    printf("%s scan of %d elements (%ld wrong)\n", bad ? "FAIL" : "PASS", n, bad);
    return bad != 0;
}
