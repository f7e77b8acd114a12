// async_bulk.cu: the bulk asynchronous copies of sm_90 and mbarrier transaction counts:
// cuda::memcpy_async with a 16-byte-aligned size through a cuda::barrier (cp.async.bulk with
// mbarrier::complete_tx::bytes and expect_tx), a double-buffered tile loop written in inline PTX
// (arrive.expect_tx, cp.async.bulk global->shared, try_wait.parity over alternating phases, and
// cp.async.bulk shared->global with bulk commit/wait groups), and the phase rules of an
// mbarrier with a transaction count (expect_tx, complete_tx, arrive.expect_tx, test_wait and
// try_wait with a state and with a parity).
// nvcc: -arch=sm_90
#include "check.cuh"

#include <cooperative_groups.h>
#include <cuda/barrier>

#include <vector>

namespace cg = cooperative_groups;

__global__ void barrier_bulk(const float *in, float *out)
{
    __shared__ alignas(16) float s[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, s, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x] + 1.0f;
}

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ void wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "WAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n"
                 "}" ::"r"(bar), "r"(parity));
}

// out tile t = in tile t * 2 + t, tiles of 128 floats, two buffers alternating
__global__ void tiles(const float *in, float *out, int ntiles)
{
    __shared__ alignas(16) float buf[2][128];
    __shared__ alignas(8) unsigned long long bars[2];
    const unsigned bytes = 128 * sizeof(float);
    if (threadIdx.x == 0) {
        for (int i = 0; i < 2; i++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bars[i])));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    auto issue = [&](int t) {
        unsigned b = smem(&bars[t % 2]);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem(buf[t % 2])), "l"(in + t * 128), "r"(bytes), "r"(b) : "memory");
    };
    if (threadIdx.x == 0) issue(0);
    for (int t = 0; t < ntiles; t++) {
        if (threadIdx.x == 0 && t + 1 < ntiles) issue(t + 1);
        wait_parity(smem(&bars[t % 2]), (t / 2) & 1);
        buf[t % 2][threadIdx.x] = buf[t % 2][threadIdx.x] * 2 + t;
        asm volatile("fence.proxy.async.shared::cta;");
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         ::"l"(out + t * 128), "r"(smem(buf[t % 2])), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.commit_group;");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
        __syncthreads();
    }
}

__device__ int test_state(unsigned bar, unsigned long long st)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(bar), "l"(st));
    return r;
}
// test_wait.parity never blocks. A try_wait may block and on a GPU the thread's next
// mbarrier operations go on while it waits: an H100 reported phase 0 complete to a try_wait
// issued with 16 bytes outstanding, because the complete_tx of those bytes that follows it in
// program order reached the barrier first. So an incomplete phase is checked with test_wait.
__device__ int test_parity(unsigned bar, unsigned parity)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(bar), "r"(parity));
    return r;
}
__device__ int try_parity(unsigned bar, unsigned parity)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(bar), "r"(parity));
    return r;
}
__device__ unsigned long long arrive(unsigned bar)
{
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(bar));
    return st;
}

__global__ void tx_semantics(int *out)
{
    __shared__ alignas(8) unsigned long long bar;
    unsigned a = smem(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(a));
    int k = 0;
    // phase 0: two arrivals and 64 transaction bytes
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 64;" ::"r"(a));
    unsigned long long s0 = arrive(a);
    arrive(a);
    out[k++] = test_state(a, s0);       // 0: bytes outstanding
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 48;" ::"r"(a));
    out[k++] = test_parity(a, 0);       // 0: 16 bytes still outstanding
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 16;" ::"r"(a));
    out[k++] = test_state(a, s0);       // 1
    out[k++] = try_parity(a, 0);        // 1: the even phase completed
    out[k++] = test_parity(a, 1);       // 0: the odd phase runs
    // phase 1: the bytes complete before they are expected (the count goes negative)
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 32;" ::"r"(a));
    unsigned long long s1;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 32;" : "=l"(s1) : "r"(a));
    out[k++] = test_state(a, s1);       // 0: one arrival missing
    arrive(a);
    out[k++] = test_state(a, s1);       // 1
    out[k++] = try_parity(a, 1);        // 1
    out[k] = -1;
}

int main()
{
    const int B = 2;
    std::vector<float> in(B * 256);
    for (size_t i = 0; i < in.size(); i++) in[i] = (float)((i * 17) % 61);
    float *din, *dout;
    CUDA_OK("malloc", cudaMalloc(&din, 64 * 128 * sizeof(float)));
    CUDA_OK("malloc", cudaMalloc(&dout, 64 * 128 * sizeof(float)));
    CUDA_OK("copy", cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    barrier_bulk<<<B, 256>>>(din, dout);
    std::vector<float> got(B * 256);
    CUDA_OK("copy_back", cudaMemcpy(got.data(), dout, got.size() * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < 256; i++)
            if (got[b * 256 + i] != in[b * 256 + 255 - i] + 1.0f) ok = false;
    check(ok, "barrier_memcpy_async_bulk", "got[0] = %g", got[0]);

    const int NT = 9;
    std::vector<float> tin(NT * 128), tout(NT * 128);
    for (size_t i = 0; i < tin.size(); i++) tin[i] = (float)((i * 5) % 23) - 7;
    CUDA_OK("copy", cudaMemcpy(din, tin.data(), tin.size() * 4, cudaMemcpyHostToDevice));
    tiles<<<1, 128>>>(din, dout, NT);
    CUDA_OK("copy_back", cudaMemcpy(tout.data(), dout, tout.size() * 4, cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < 128; i++)
            if (tout[t * 128 + i] != tin[t * 128 + i] * 2 + t) ok = false;
    check(ok, "bulk_copies_double_buffered", "tile 1: got %g, want %g", tout[128], tin[128] * 2 + 1);

    int *dres, res[16];
    CUDA_OK("malloc", cudaMalloc(&dres, sizeof res));
    tx_semantics<<<1, 1>>>(dres);
    CUDA_OK("copy_back", cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
    const int want[] = {0, 0, 1, 1, 0, 0, 1, 1, -1};
    int bad = -1;
    for (int i = 0; i < (int)(sizeof want / sizeof want[0]) && bad < 0; i++)
        if (res[i] != want[i]) bad = i;
    check(bad < 0, "mbarrier_transaction_counts", "result %d: got %d, want %d", bad,
          bad >= 0 ? res[bad] : 0, bad >= 0 ? want[bad] : 0);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dres);
    return check_finish();
}
