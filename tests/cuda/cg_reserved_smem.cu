// cg_reserved_smem.cu: cooperative groups' multi-warp tiles (thread_block_tile<128>) keep their
// scratch in the shared memory the system reserves per block on sm_80 and later
// (%reserved_smem_offset_1): reductions and shuffles across four warps must work, and the
// kernel's own shared memory must come through untouched; the device reports the reserved
// 1 KiB (cudaDevAttrReservedSharedMemoryPerBlock) as CUDA does.
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void wide_tiles(int *sum, int *user, int *shuffled)
{
    __shared__ int mine[256];
    mine[threadIdx.x] = 1000 + threadIdx.x;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
    int v = cg::reduce(tile, (int)threadIdx.x, cg::plus<int>());
    tile.sync();
    int s = tile.shfl((int)threadIdx.x * 2, 77);
    block.sync();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    sum[t] = v;
    user[t] = mine[threadIdx.x];
    shuffled[t] = s;
}

int main()
{
    int reserved = -1;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&reserved,
                                                cudaDevAttrReservedSharedMemoryPerBlock, 0));
    check(reserved == 1024, "reserved_attribute", "reserved %d bytes", reserved);

    const int blocks = 3, threads = 256, n = blocks * threads;
    int *d_sum, *d_user, *d_shfl;
    CUDA_OK("malloc", cudaMalloc(&d_sum, n * sizeof(int)));
    CUDA_OK("malloc", cudaMalloc(&d_user, n * sizeof(int)));
    CUDA_OK("malloc", cudaMalloc(&d_shfl, n * sizeof(int)));
    wide_tiles<<<blocks, threads>>>(d_sum, d_user, d_shfl);
    CUDA_OK("launch", cudaGetLastError());
    CUDA_OK("sync", cudaDeviceSynchronize());
    int sum[n], user[n], shfl[n];
    CUDA_OK("copy", cudaMemcpy(sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    CUDA_OK("copy", cudaMemcpy(user, d_user, sizeof user, cudaMemcpyDeviceToHost));
    CUDA_OK("copy", cudaMemcpy(shfl, d_shfl, sizeof shfl, cudaMemcpyDeviceToHost));
    int bad_sum = 0, bad_user = 0, bad_shfl = 0;
    for (int i = 0; i < n; i++) {
        int tid = i % threads, base = tid / 128 * 128, expect = 0;
        for (int k = base; k < base + 128; k++) expect += k;
        bad_sum += sum[i] != expect;
        bad_user += user[i] != 1000 + tid;
        bad_shfl += shfl[i] != 2 * (base + 77);
    }
    check(bad_sum == 0, "tile128_reduce", "%d wrong sums (thread 0: %d)", bad_sum, sum[0]);
    check(bad_shfl == 0, "tile128_shfl", "%d wrong shuffles (thread 0: %d)", bad_shfl, shfl[0]);
    check(bad_user == 0, "user_shared_untouched", "%d words changed (thread 0: %d)", bad_user,
          user[0]);
    cudaFree(d_sum);
    cudaFree(d_user);
    cudaFree(d_shfl);
    return check_finish();
}
