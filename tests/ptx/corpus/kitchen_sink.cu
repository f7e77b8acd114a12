// PTX corpus source: the features issue 3 names that the other corpus sources lack. Compiled
// to PTX for every architecture and flag set by tests/suites/ptx_corpus.sh; never run.
#include <cassert>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/pipeline>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

template <typename T, int N> struct Vec { T v[N]; };

template <typename T, int N>
__device__ T dot(const Vec<T, N> &a, const Vec<T, N> &b) {
    T s = T(0);
#pragma unroll
    for (int i = 0; i < N; i++) s += a.v[i] * b.v[i];
    return s;
}

__device__ int ackermann(int m, int n) {  // deep, non-tail recursion
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

typedef float (*unary_fn)(float);
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }
__device__ unary_fn table[2] = {square, negate};

struct Shape {
    __device__ virtual ~Shape() {}
    __device__ virtual float area() const = 0;
};
struct Rect : Shape {
    float w, h;
    __device__ Rect(float a, float b) : w(a), h(b) {}
    __device__ float area() const override { return w * h; }
};

__global__ void heap_and_virtuals(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Shape *s = new Rect(float(i), 2.0f);
    int *scratch = (int *)malloc(16 * sizeof(int));
    assert(scratch != nullptr);
    for (int k = 0; k < 16; k++) scratch[k] = k * i;
    out[i] = s->area() + table[i & 1](float(scratch[i & 15])) + float(ackermann(1, i & 3));
    free(scratch);
    delete s;
}

__global__ void wide_types(unsigned __int128 *out, const unsigned long long *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned __int128 x = (unsigned __int128)in[i] * in[(i + 1) % n];
    __int128 y = (__int128)x - ((__int128)1 << 100);
    out[i] = x ^ (unsigned __int128)y;
    printf("thread %d: %llu %f\n", i, (unsigned long long)(x >> 64), 1.5);
}

__global__ void half_math(__half2 *h, __nv_bfloat162 *b, float *f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = h[i];
    x = __hfma2(x, x, __float2half2_rn(0.5f));
    x = h2sqrt(__habs2(x));
    h[i] = __hmax2(x, __hneg2(x));
    __nv_bfloat162 y = b[i];
    y = __hmul2(y, __float2bfloat162_rn(3.0f));
    b[i] = y;
    Vec<float, 4> va = {{f[i], 1.f, 2.f, 3.f}}, vb = {{2.f, f[i], 1.f, 0.f}};
    f[i] = dot(va, vb) + __low2float(x) + __bfloat162float(__low2bfloat16(y));
}

// Double-buffered staging through the CUDA pipeline primitives (cp.async on sm_80+).
__global__ void pipelined_copy(const float4 *in, float4 *out, int tiles) {
    __shared__ float4 stage[2][128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&stage[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = stage[k & 1][t];
        out[k * 128 + t] = make_float4(v.w, v.z, v.y, v.x);
        __syncthreads();
    }
}

// cooperative_groups::memcpy_async with a block-scoped cuda::pipeline.
__global__ void cg_async(const int *in, int *out, int n) {
    extern __shared__ int buf[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, buf, in + blockIdx.x * n, sizeof(int) * n);
    cg::wait(block);
    auto tile = cg::tiled_partition<16>(block);
    int v = buf[block.thread_rank() % n];
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(out, v);
}
