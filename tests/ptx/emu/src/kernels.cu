// Test kernels for tests/unit/test_emu_basic.c. Regenerate the PTX with
//   nvcc -ptx -arch=sm_75 kernels.cu -o ../kernels_sm75.ptx
// (and the sm_90 and -G variants: see tests/ptx/emu/README.md).
#include <cstdint>

__device__ int gcount;
__constant__ float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i] * coef[i & 3];
}

extern "C" __global__ void reduce(const float *in, float *out, int n)
{
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
    atomicAdd(&gcount, 1);
}

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern "C" __global__ void recurse(int *o) { o[threadIdx.x] = fib(threadIdx.x % 16); }

// data-dependent loops, nested divergence and early exit
extern "C" __global__ void diverge(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int acc = 0;
    if (v & 1) {
        for (int k = 0; k < (v & 15); k++) {
            if (k & 1) acc += k * v;
            else acc -= k;
            if (acc > 1000) break;
        }
    } else if (v % 3 == 0) {
        int x = v;
        while (x > 1) { x = (x & 1) ? 3 * x + 1 : x / 2; acc++; }
        if (acc > 50) { out[i] = -acc; return; }
    } else {
        acc = v * v;
        if (v > 100) acc = -acc;
    }
    out[i] = acc;
}

extern "C" __global__ void warpops(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    int s = __shfl_down_sync(0xffffffffu, v, 1);
    int u = __shfl_up_sync(0xffffffffu, v, 3);
    int x = __shfl_xor_sync(0xffffffffu, v, 5);
    int w = __shfl_sync(0xffffffffu, v, 7);
    unsigned b = __ballot_sync(0xffffffffu, v & 1);
    int all = __all_sync(0xffffffffu, v > -1000);
    int any = __any_sync(0xffffffffu, v == 12345);
    out[t * 8 + 0] = s;
    out[t * 8 + 1] = u;
    out[t * 8 + 2] = x;
    out[t * 8 + 3] = w;
    out[t * 8 + 4] = (int)b;
    out[t * 8 + 5] = all + 2 * any;
    out[t * 8 + 6] = __popc(v) + 100 * __clz(v);
    out[t * 8 + 7] = (int)__brev((unsigned)v);
}

// 2D tiled matrix multiply with shared tiles; n need not be a multiple of the tile
#define TILE 8
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (br < n && col < n) ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}

// shared-memory atomics histogram, then global atomics of several kinds
extern "C" __global__ void histo(const unsigned *in, unsigned *hist, int n, unsigned long long *stats)
{
    __shared__ unsigned h[16];
    if (threadIdx.x < 16) h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&h[in[i] & 15], 1u);
        atomicMax(&stats[0], (unsigned long long)in[i]);
        atomicMin(&stats[1], (unsigned long long)in[i]);
        atomicAdd(&stats[2], (unsigned long long)in[i]);
        atomicXor((unsigned *)&stats[3], in[i]);
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// math: conversions, doubles, intrinsics
extern "C" __global__ void mathk(const float *x, float *yf, double *yd, int *yi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    yf[i * 4 + 0] = sqrtf(fabsf(v)) + v / 3.0f;
    yf[i * 4 + 1] = fminf(v, 2.5f) * fmaxf(v, -1.0f);
    yf[i * 4 + 2] = __saturatef(v) + floorf(v) + ceilf(v) + truncf(v) + rintf(v);
    yf[i * 4 + 3] = (float)(int)v + (float)(unsigned)(v * v);
    yd[i * 2 + 0] = sqrt((double)v) + (double)v / 7.0;
    yd[i * 2 + 1] = fma((double)v, 1.5, -2.0);
    yi[i * 4 + 0] = (int)v;
    yi[i * 4 + 1] = __float2int_rn(v * 10.0f);
    yi[i * 4 + 2] = (int)(long long)((double)v * 1e10 / 1e9);
    yi[i * 4 + 3] = min(max((int)v, -3), 3) * 7 % 5;
}
