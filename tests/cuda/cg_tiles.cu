// cg_tiles.cu: cooperative groups inside a block: this_thread_block, tiled_partition into
// static tiles of 32, 16 and 4 threads with their shuffles and votes, cg::reduce with
// plus/greater, and coalesced_threads() in a divergent branch.
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *sum32, int *max16, int *any4, int *rank, int *coal)
{
    cg::thread_block block = cg::this_thread_block();
    int t = block.thread_rank();
    int v = in[t];
    auto w = cg::tiled_partition<32>(block);
    int s = cg::reduce(w, v, cg::plus<int>());
    if (w.thread_rank() == 0)
        sum32[t / 32] = s;
    auto h = cg::tiled_partition<16>(block);
    int m = cg::reduce(h, v, cg::greater<int>());
    if (h.thread_rank() == 0)
        max16[t / 16] = m;
    auto q = cg::tiled_partition<4>(block);
    int any = q.any(v % 7 == 0);
    int first = q.shfl(v, 0);
    if (q.thread_rank() == 0)
        any4[t / 4] = any * 1000 + first;
    rank[t] = (int)(w.meta_group_rank() * 100 + h.thread_rank());
    if (v % 2 == 0) {
        cg::coalesced_group c = cg::coalesced_threads();
        coal[t] = (int)c.size();
    } else {
        coal[t] = -1;
    }
    block.sync();
}

int main()
{
    const int n = 128;
    int in[n];
    for (int i = 0; i < n; i++)
        in[i] = (i * 37) % 101 - 20;
    int *din, *d32, *d16, *d4, *drank, *dcoal;
    CUDA_OK("setup", cudaMalloc(&din, sizeof in));
    CUDA_OK("setup", cudaMalloc(&d32, n / 32 * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&d16, n / 16 * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&d4, n / 4 * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&drank, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dcoal, n * sizeof(int)));
    CUDA_OK("setup", cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    tiles<<<1, n>>>(din, d32, d16, d4, drank, dcoal);
    int s32[n / 32], m16[n / 16], a4[n / 4], rank[n], coal[n];
    CUDA_OK("kernel", cudaMemcpy(s32, d32, sizeof s32, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(m16, d16, sizeof m16, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(a4, d4, sizeof a4, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(rank, drank, sizeof rank, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(coal, dcoal, sizeof coal, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int g = 0; g < n / 32; g++) {
        int s = 0;
        for (int i = 0; i < 32; i++)
            s += in[g * 32 + i];
        ok = ok && s32[g] == s;
    }
    check(ok, "tile32_reduce_plus", "s32[0] = %d", s32[0]);
    ok = true;
    for (int g = 0; g < n / 16; g++) {
        int m = in[g * 16];
        for (int i = 1; i < 16; i++)
            m = in[g * 16 + i] > m ? in[g * 16 + i] : m;
        ok = ok && m16[g] == m;
    }
    check(ok, "tile16_reduce_greater", "m16[0] = %d", m16[0]);
    ok = true;
    for (int g = 0; g < n / 4; g++) {
        int any = 0;
        for (int i = 0; i < 4; i++)
            any |= in[g * 4 + i] % 7 == 0;
        ok = ok && a4[g] == any * 1000 + in[g * 4];
    }
    check(ok, "tile4_any_shfl", "a4[0] = %d", a4[0]);
    ok = true;
    for (int t = 0; t < n; t++)
        ok = ok && rank[t] == (t / 32) * 100 + t % 16;
    check(ok, "tile_ranks", "rank[20] = %d", rank[20]);
    ok = true;
    for (int w = 0; w < n / 32; w++) {
        int evens = 0;
        for (int i = 0; i < 32; i++)
            evens += in[w * 32 + i] % 2 == 0;
        for (int i = 0; i < 32; i++)
            ok = ok && coal[w * 32 + i] == (in[w * 32 + i] % 2 == 0 ? evens : -1);
    }
    check(ok, "coalesced_threads", "coal[0] = %d", coal[0]);
    cudaFree(din);
    cudaFree(d32);
    cudaFree(d16);
    cudaFree(d4);
    cudaFree(drank);
    cudaFree(dcoal);
    return check_finish();
}
