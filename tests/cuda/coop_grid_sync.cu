// coop_grid_sync.cu: cooperative groups across the whole grid: kernels launched with
// cudaLaunchCooperativeKernel (and cudaLaunchKernelExC with the cooperative attribute) that
// pass phases with grid.sync(), so every block must see every other block's writes; the grid
// size taken from the occupancy API; and the launch that asks for more blocks than can be
// resident (cudaErrorCooperativeLaunchTooLarge).
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

// Phase 1: each block sums its slice; phase 2: block 0 adds the partial sums; phase 3: every
// thread scales its elements by the total.
__global__ void normalise(const int *in, int *partial, long long *total, int *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    int sum = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        sum += in[i];
    s[block.thread_rank()] = sum;
    block.sync();
    for (unsigned k = block.size() / 2; k > 0; k >>= 1) {
        if (block.thread_rank() < k)
            s[block.thread_rank()] += s[block.thread_rank() + k];
        block.sync();
    }
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        long long t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *total = t;
    }
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        out[i] = (int)(in[i] * 1000 / *total);
}

// Many grid barriers in a row: a running prefix over blocks, one block per step.
__global__ void ripple(int *cells, int steps)
{
    cg::grid_group grid = cg::this_grid();
    for (int s = 1; s <= steps; s++) {
        if (threadIdx.x == 0 && blockIdx.x == (unsigned)(s % gridDim.x))
            cells[blockIdx.x] += cells[(blockIdx.x + gridDim.x - 1) % gridDim.x] + 1;
        grid.sync();
    }
}

__global__ void is_valid(int *flag)
{
    *flag = cg::this_grid().is_valid() ? 1 : 0;
}

int main()
{
    int supported = 0;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    check(supported == 1, "cooperative_supported", "attribute %d", supported);

    const int n = 6000, threads = 256;
    int per_sm = 0, sms = 0;
    CUDA_OK("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalise,
                                                                       threads, 0));
    CUDA_OK("occupancy", cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int blocks = 12;
    check(per_sm >= 1 && blocks <= per_sm * sms, "cooperative_occupancy", "%d per SM x %d SMs",
          per_sm, sms);

    std::vector<int> in(n), out(n);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        in[i] = i % 31 + 1;
        total += in[i];
    }
    int *din, *dpart, *dout;
    long long *dtotal;
    CUDA_OK("setup", cudaMalloc(&din, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dout, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dpart, blocks * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dtotal, sizeof(long long)));
    CUDA_OK("setup", cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n;
    void *args[] = {&din, &dpart, &dtotal, &dout, &nn};
    CUDA_OK("cooperative_launch", cudaLaunchCooperativeKernel((void *)normalise, dim3(blocks),
                                                              dim3(threads), args, 0, 0));
    CUDA_OK("cooperative_launch", cudaDeviceSynchronize());
    long long got_total = 0;
    CUDA_OK("result", cudaMemcpy(&got_total, dtotal, sizeof got_total, cudaMemcpyDeviceToHost));
    CUDA_OK("result", cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = got_total == total;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == (int)(in[i] * 1000LL / total);
    check(ok, "grid_sync_phases", "total %lld (expected %lld)", got_total, total);

    // The same through cudaLaunchKernelExC and the cooperative attribute.
    const int cells_n = 16, steps = 40;
    int *dcells;
    CUDA_OK("setup", cudaMalloc(&dcells, cells_n * sizeof(int)));
    CUDA_OK("setup", cudaMemset(dcells, 0, cells_n * sizeof(int)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(cells_n);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CUDA_OK("launch_ex_cooperative", cudaLaunchKernelEx(&cfg, ripple, dcells, steps));
    int cells[cells_n], expect[cells_n] = {0};
    CUDA_OK("result", cudaMemcpy(cells, dcells, sizeof cells, cudaMemcpyDeviceToHost));
    for (int s = 1; s <= steps; s++) {
        int b = s % cells_n;
        expect[b] += expect[(b + cells_n - 1) % cells_n] + 1;
    }
    ok = true;
    for (int i = 0; i < cells_n; i++)
        ok = ok && cells[i] == expect[i];
    check(ok, "grid_sync_many_barriers", "cells after %d grid-wide steps", steps);

    int *dflag, flag = -1;
    CUDA_OK("setup", cudaMalloc(&dflag, sizeof(int)));
    is_valid<<<1, 1>>>(dflag);
    CUDA_OK("valid", cudaMemcpy(&flag, dflag, sizeof flag, cudaMemcpyDeviceToHost));
    // is_valid() tests the grid-barrier workspace's address (%envreg1:%envreg2), which a CUDA 13
    // driver gives every launch: an H100 says 1 for this plain launch
    check(flag == 1, "grid_valid_without_cooperative_launch", "is_valid() = %d", flag);

    cudaError_t e = cudaLaunchCooperativeKernel((void *)normalise, dim3(per_sm * sms + 1),
                                                dim3(threads), args, 0, 0);
    check(e == cudaErrorCooperativeLaunchTooLarge, "cooperative_too_large", "got %s",
          cudaGetErrorName(e));
    check(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge &&
              cudaGetLastError() == cudaSuccess,
          "cooperative_error_not_sticky", "the launch error must be reported once");
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dpart);
    cudaFree(dtotal);
    cudaFree(dcells);
    cudaFree(dflag);
    return check_finish();
}
