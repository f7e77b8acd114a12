// async_copies.cu: asynchronous copies into shared memory on sm_80 (cp.async) and their
// synchronisation: a multi-stage cuda::pipeline that prefetches tile i+1 while tile i is used,
// a block-scope pipeline (pipeline_shared_state) with producer and consumer roles, the
// __pipeline_memcpy_async primitives with zero-fill, cooperative_groups::memcpy_async with
// wait_prior, cuda::barrier completions (cp.async.mbarrier.arrive), and the mbarrier
// instructions themselves through inline PTX (phases, arrival counts, arrive_drop, test_wait with
// state and parity, pending_count; the transaction counts of sm_90 are in async_bulk.cu).
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline_primitives.h>

#include <vector>

namespace cg = cooperative_groups;

// ---- a 3-stage pipeline per thread: out[b] = sum over tiles of tile[t] * (t + 1)
constexpr int TILE = 128, STAGES = 3;
static_assert(STAGES == 3, "staged_sum's last two waits are written for three stages");

__global__ void staged_sum(const float *in, float *out, int ntiles)
{
    __shared__ float buf[STAGES][TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const float *src = in + (size_t)blockIdx.x * ntiles * TILE;
    float acc = 0;
    int fetch = 0;
    for (; fetch < STAGES - 1 && fetch < ntiles; fetch++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[fetch % STAGES][threadIdx.x], &src[fetch * TILE + threadIdx.x],
                           sizeof(float), pipe);
        pipe.producer_commit();
    }
    for (int t = 0; t < ntiles; t++, fetch++) {
        if (fetch < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetch % STAGES][threadIdx.x], &src[fetch * TILE + threadIdx.x],
                               sizeof(float), pipe);
            pipe.producer_commit();
        }
        // Tile t must have landed: all but the batches committed after it. In the last two
        // iterations nothing new is committed, so fewer batches may stay in flight (waiting for
        // all but STAGES - 1 there left tile t in flight: an H100 read stale data).
        if (fetch < ntiles)
            cuda::pipeline_consumer_wait_prior<STAGES - 1>(pipe);
        else if (t + 1 < ntiles)
            cuda::pipeline_consumer_wait_prior<1>(pipe);
        else
            cuda::pipeline_consumer_wait_prior<0>(pipe);
        __syncthreads();
        // read a neighbour's element: the whole tile must have landed
        acc += buf[t % STAGES][(threadIdx.x + 1) % TILE] * (t + 1);
        __syncthreads();
        pipe.consumer_release();
    }
    out[blockIdx.x * TILE + threadIdx.x] = acc;
}

// ---- block-scope pipeline: the first warp produces, everyone consumes
__global__ void block_pipeline(const int *in, int *out, int ntiles)
{
    __shared__ int buf[2][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int acc = 0;
    for (int t = 0; t < ntiles; t++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[t % 2], in + t * TILE, sizeof(int) * TILE, pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        acc += buf[t % 2][TILE - 1 - threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

// ---- primitives with zero-fill: copy 16-byte chunks, the last `zfill` bytes read as zero
__global__ void primitives(const int4 *in, int4 *out, int zfill_bytes)
{
    __shared__ int4 s[64];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int4),
                            threadIdx.x % 4 == 3 ? zfill_bytes : 0);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

// ---- cooperative groups: two batches, wait for the first while the second flies
__global__ void cg_copies(const float *in, float *out)
{
    __shared__ float a[256], b[256];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::memcpy_async(block, b, in + 256, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    float x = a[255 - threadIdx.x];
    cg::wait(block);
    out[threadIdx.x] = x - b[threadIdx.x];
}

// ---- cuda::barrier completions for two phases of copies
__global__ void barrier_phases(const float *in, float *out)
{
    __shared__ float s[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    float acc = 0;
    for (int phase = 0; phase < 2; phase++) {
        cuda::memcpy_async(block, s, in + phase * 256, sizeof(float) * 256, bar);
        bar.arrive_and_wait();
        acc += s[(threadIdx.x * 7) % 256];
        bar.arrive_and_wait();  // everyone has read before the next copy overwrites
    }
    out[threadIdx.x] = acc;
}

// ---- the mbarrier instructions, one thread, results in out[]
__device__ unsigned long long mb_arrive(unsigned long long *bar)
{
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"((unsigned)__cvta_generic_to_shared(bar)));
    return st;
}
__device__ unsigned long long mb_arrive_drop(unsigned long long *bar)
{
    unsigned long long st;
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st) : "r"((unsigned)__cvta_generic_to_shared(bar)));
    return st;
}
__device__ int mb_test(unsigned long long *bar, unsigned long long st)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(bar)), "l"(st));
    return r;
}
__device__ int mb_test_parity(unsigned long long *bar, unsigned parity)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(bar)), "r"(parity));
    return r;
}
__device__ unsigned mb_pending(unsigned long long st)
{
    unsigned r;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(st));
    return r;
}

__global__ void mbarrier_semantics(int *out)
{
    __shared__ unsigned long long bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(3));
    int k = 0;
    // phase 0: three arrivals complete it
    unsigned long long s0 = mb_arrive(&bar);
    out[k++] = mb_pending(s0);            // 3: the state before this arrive
    out[k++] = mb_test(&bar, s0);         // 0: phase 0 still open
    out[k++] = mb_test_parity(&bar, 0);    // 0
    mb_arrive(&bar);
    unsigned long long s2 = mb_arrive(&bar);
    out[k++] = mb_pending(s2);            // 1
    out[k++] = mb_test(&bar, s0);         // 1: phase 0 completed
    out[k++] = mb_test_parity(&bar, 0);    // 1: the phase of parity 0 is done
    out[k++] = mb_test_parity(&bar, 1);    // 0: phase 1 (odd) is running
    // phase 1: arrive_drop lowers the expected count from 3 to 2 for later phases
    unsigned long long s3 = mb_arrive_drop(&bar);
    mb_arrive(&bar);
    out[k++] = mb_test(&bar, s3);         // 0: one arrival still missing
    mb_arrive(&bar);
    out[k++] = mb_test(&bar, s3);         // 1
    // phase 2 needs two arrivals now
    unsigned long long s4 = mb_arrive(&bar);
    out[k++] = mb_pending(s4);            // 2
    out[k++] = mb_test(&bar, s4);         // 0
    mb_arrive(&bar);
    out[k++] = mb_test(&bar, s4);         // 1
    out[k++] = mb_test_parity(&bar, 0);   // 1: phase 2 (even) has completed
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a));
    out[k] = -1;
}

int main()
{
    // ---- staged pipeline
    const int B = 3, NT = 7;
    std::vector<float> in(B * NT * TILE);
    for (size_t i = 0; i < in.size(); i++) in[i] = (float)((i * 29) % 97);
    float *din, *dout;
    CUDA_OK("malloc", cudaMalloc(&din, in.size() * 4));
    CUDA_OK("malloc", cudaMalloc(&dout, B * TILE * 4));
    CUDA_OK("copy", cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    staged_sum<<<B, TILE>>>(din, dout, NT);
    std::vector<float> got(B * TILE);
    CUDA_OK("copy_back", cudaMemcpy(got.data(), dout, B * TILE * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < TILE; i++) {
            float want = 0;
            for (int t = 0; t < NT; t++) want += in[(b * NT + t) * TILE + (i + 1) % TILE] * (t + 1);
            if (got[b * TILE + i] != want) ok = false;
        }
    check(ok, "pipeline_three_stages", "a staged sum differs");

    // ---- block pipeline
    {
        const int NTL = 5;
        std::vector<int> v(NTL * TILE);
        for (size_t i = 0; i < v.size(); i++) v[i] = (int)(i * 3 + 1);
        int *dv, *dres, res[TILE];
        cudaMalloc(&dv, v.size() * 4);
        cudaMalloc(&dres, sizeof res);
        cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice);
        block_pipeline<<<1, TILE>>>(dv, dres, NTL);
        CUDA_OK("copy_back", cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
        ok = true;
        for (int i = 0; i < TILE; i++) {
            int want = 0;
            for (int t = 0; t < NTL; t++) want += v[t * TILE + TILE - 1 - i];
            if (res[i] != want) ok = false;
        }
        check(ok, "pipeline_block_scope", "res[0] = %d", res[0]);
        cudaFree(dv);
        cudaFree(dres);
    }

    // ---- primitives and zero-fill
    {
        int4 v[64], res[64];
        for (int i = 0; i < 64; i++) v[i] = make_int4(i + 1, -(i + 1), 1000 + i, 7);
        int4 *dv, *dres;
        cudaMalloc(&dv, sizeof v);
        cudaMalloc(&dres, sizeof res);
        cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice);
        primitives<<<1, 64>>>(dv, dres, 8);  // every fourth chunk: its last 8 bytes zero
        CUDA_OK("copy_back", cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
        ok = true;
        for (int i = 0; i < 64; i++) {
            int src = 63 - i;
            int4 w = v[src];
            if (src % 4 == 3) w.z = w.w = 0;
            if (res[i].x != w.x || res[i].y != w.y || res[i].z != w.z || res[i].w != w.w) ok = false;
        }
        check(ok, "pipeline_primitives_zfill", "res[0] = (%d %d %d %d)", res[0].x, res[0].y,
              res[0].z, res[0].w);
        cudaFree(dv);
        cudaFree(dres);
    }

    // ---- cooperative groups memcpy_async
    {
        float res[256];
        cg_copies<<<1, 256>>>(din, dout);
        CUDA_OK("copy_back", cudaMemcpy(res, dout, sizeof res, cudaMemcpyDeviceToHost));
        ok = true;
        for (int i = 0; i < 256; i++)
            if (res[i] != in[255 - i] - in[256 + i]) ok = false;
        check(ok, "cg_memcpy_async_wait_prior", "res[0] = %g", res[0]);
    }

    // ---- barrier phases
    {
        float res[256];
        barrier_phases<<<1, 256>>>(din, dout);
        CUDA_OK("copy_back", cudaMemcpy(res, dout, sizeof res, cudaMemcpyDeviceToHost));
        ok = true;
        for (int i = 0; i < 256; i++)
            if (res[i] != in[(i * 7) % 256] + in[256 + (i * 7) % 256]) ok = false;
        check(ok, "barrier_memcpy_async_two_phases", "res[1] = %g", res[1]);
    }

    // ---- mbarrier semantics
    {
        int *dres, res[32];
        cudaMalloc(&dres, sizeof res);
        mbarrier_semantics<<<1, 1>>>(dres);
        CUDA_OK("copy_back", cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
        const int want[] = {3, 0, 0, 1, 1, 1, 0, 0, 1, 2, 0, 1, 1, -1};
        int bad = -1;
        for (int i = 0; i < (int)(sizeof want / sizeof want[0]) && bad < 0; i++)
            if (res[i] != want[i]) bad = i;
        check(bad < 0, "mbarrier_phases_counts_tx", "result %d: got %d, want %d", bad,
              bad >= 0 ? res[bad] : 0, bad >= 0 ? want[bad] : 0);
        cudaFree(dres);
    }
    cudaFree(din);
    cudaFree(dout);
    return check_finish();
}
