// tc_gemm.cu: the memory benchmark's tensor-core program (bench/memory_rss.sh): a wmma GEMM
// D = A * B + C on N x N matrices (half inputs, float accumulators), as NVIDIA's
// cudaTensorCoreGemm sample does it, with every matrix made on the device by a kernel so the
// program's own host memory stays small. It prints the bytes it allocated on the device and a
// few checked elements, and its peak resident memory (VmHWM). Usage: tc_gemm N (a multiple of
// 128).
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace nvcuda;

__global__ void init_half(half *m, int n, int salt)
{
    size_t total = (size_t)n * n;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total;
         i += (size_t)gridDim.x * blockDim.x)
        m[i] = __int2half_rn((int)((i * 7 + salt) % 5) - 2);
}

__global__ void init_float(float *m, int n)
{
    size_t total = (size_t)n * n;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total;
         i += (size_t)gridDim.x * blockDim.x)
        m[i] = (float)(i % 3);
}

// One warp computes one 16 x 16 tile of D; a block holds 4 x 4 warps (a 64 x 64 tile).
__global__ void gemm(const half *a, const half *b, const float *c, float *d, int n)
{
    int warp = threadIdx.x / 32;
    int row = (blockIdx.y * 4 + warp / 4) * 16, col = (blockIdx.x * 4 + warp % 4) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c + (size_t)row * n + col, n, wmma::mem_row_major);
    for (int k = 0; k < n; k += 16) {
        wmma::load_matrix_sync(fa, a + (size_t)row * n + k, n);
        wmma::load_matrix_sync(fb, b + (size_t)col * n + k, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + (size_t)row * n + col, acc, n, wmma::mem_row_major);
}

// The process's peak resident set (kB), from /proc/self/status.
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n <= 0 || n % 128) {
        fprintf(stderr, "tc_gemm: N must be a positive multiple of 128\n");
        return 2;
    }
    size_t nn = (size_t)n * n;
    half *a, *b;
    float *c, *d;
    if (cudaMalloc(&a, nn * sizeof(half)) || cudaMalloc(&b, nn * sizeof(half)) ||
        cudaMalloc(&c, nn * sizeof(float)) || cudaMalloc(&d, nn * sizeof(float))) {
        fprintf(stderr, "tc_gemm: cudaMalloc failed\n");
        return 1;
    }
    init_half<<<256, 256>>>(a, n, 1);
    init_half<<<256, 256>>>(b, n, 2);  // column-major B: element (k, j) at j * n + k
    init_float<<<256, 256>>>(c, n);
    gemm<<<dim3(n / 64, n / 64), 512>>>(a, b, c, d, n);
    // Check a few elements against the CPU.
    int bad = 0;
    for (int s = 0; s < 8; s++) {
        int i = (s * 37) % n, j = (s * 101) % n;
        float got;
        cudaMemcpy(&got, d + (size_t)i * n + j, sizeof got, cudaMemcpyDeviceToHost);
        double want = (double)(((size_t)i * n + j) % 3);
        for (int k = 0; k < n; k++) {
            int av = (int)((((size_t)i * n + k) * 7 + 1) % 5) - 2;
            int bv = (int)((((size_t)j * n + k) * 7 + 2) % 5) - 2;
            want += av * bv;
        }
        bad += got != (float)want;
    }
    cudaDeviceSynchronize();
    printf("allocated %zu\n", nn * (2 * sizeof(half) + 2 * sizeof(float)));
    printf("peak_rss_kb %ld\n", peak_rss_kb());
    printf("%s tc_gemm %d (%d of 8 elements wrong)\n", bad ? "FAIL" : "PASS", n, bad);
    return bad ? 1 : 0;
}
