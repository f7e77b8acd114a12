#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda/barrier>
using namespace nvcuda;
__global__ void wmma_k(const half *a, const half *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void async_k(const int4 *g, int4 *o)
{
    __shared__ int4 s[256];
    __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    o[threadIdx.x] = s[255 - threadIdx.x];
}
