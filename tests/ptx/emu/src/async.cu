// Test kernels for tests/unit/test_emu_features.c (sm_80 and up). Regenerate with
//   nvcc -ptx -arch=sm_80 -std=c++17 async.cu -o ../async_sm80.ptx
//   nvcc -ptx -arch=sm_90 -std=c++17 async.cu -o ../async_sm90.ptx
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
namespace cg = cooperative_groups;
using namespace nvcuda;

// cuda::memcpy_async into shared memory completed through a cuda::barrier (mbarrier)
extern "C" __global__ void barrier_copy(const float *in, float *out)
{
    __shared__ float s[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, s, in + blockIdx.x * 256, sizeof(float) * 256, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x] * 2.0f;
}

// a two-stage cuda::pipeline (cp.async with commit/wait groups)
extern "C" __global__ void pipeline_copy(const float *in, float *out)
{
    __shared__ float s[2][128];
    cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();
    for (int i = 0; i < 2; i++) {
        p.producer_acquire();
        cuda::memcpy_async(&s[i][threadIdx.x], &in[i * 128 + threadIdx.x], sizeof(float), p);
        p.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<0>(p);
    __syncthreads();
    out[threadIdx.x] = s[0][threadIdx.x] + s[1][127 - threadIdx.x];
}

// cooperative groups: tiles, reductions, shuffles
extern "C" __global__ void cgroups(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    int v = in[b.thread_rank()];
    int s = cg::reduce(w, v, cg::plus<int>());
    auto t4 = cg::tiled_partition<4>(w);
    int m4 = cg::reduce(t4, v, cg::greater<int>());
    out[b.thread_rank() * 3 + 0] = s;
    out[b.thread_rank() * 3 + 1] = m4;
    out[b.thread_rank() * 3 + 2] = t4.shfl_down(v, 1) + (int)w.ballot(v > 50);
}

// tensor cores through wmma: half inputs with f32 and f16 accumulators, bf16, tf32
extern "C" __global__ void wmma_f16(const half *a, const half *b, const float *c, float *d, half *dh)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] *= 2.0f;
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
    wmma::fill_fragment(fh, __float2half(1.0f));
    wmma::mma_sync(fh, fa, fb, fh);
    wmma::store_matrix_sync(dh, fh, 16, wmma::mem_col_major);
}

extern "C" __global__ void wmma_bf16_tf32(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                          const float *x, const float *y, float *d, float *e)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.5f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
    wmma::fill_fragment(tc, 0.0f);
    wmma::load_matrix_sync(ta, x, 8);
    wmma::load_matrix_sync(tb, y, 16);
    for (int i = 0; i < ta.num_elements; i++) ta.x[i] = wmma::__float_to_tf32(ta.x[i]);
    for (int i = 0; i < tb.num_elements; i++) tb.x[i] = wmma::__float_to_tf32(tb.x[i]);
    wmma::mma_sync(tc, ta, tb, tc);
    wmma::store_matrix_sync(e, tc, 16, wmma::mem_row_major);
}
