// scan.cu: prefix sums as the scan samples compute them: a work-efficient (Blelloch)
// exclusive scan of one block in shared memory, and a multi-block scan (scan the blocks, scan
// the block sums, add them back) over an array that is not a multiple of the block.
#include "check.cuh"

#include <vector>

#define B 256

// Exclusive scan of 2*B elements per block; writes the block's total to sums.
__global__ void scan_blocks(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[2 * B];
    int t = threadIdx.x, base = blockIdx.x * 2 * B;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = B; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset <<= 1;
    }
    if (t == 0) {
        if (sums)
            sums[blockIdx.x] = s[2 * B - 1];
        s[2 * B - 1] = 0;
    }
    for (int d = 1; d < 2 * B; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets, int n)
{
    int i = blockIdx.x * 2 * B + threadIdx.x;
    if (i < n)
        out[i] += offsets[blockIdx.x];
    if (i + B < n)
        out[i + B] += offsets[blockIdx.x];
}

int main()
{
    const int n = 5 * 2 * B + 77, blocks = (n + 2 * B - 1) / (2 * B);
    std::vector<int> in(n), out(n), expect(n);
    int run = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (i * 13) % 10 - 3;
        expect[i] = run;
        run += in[i];
    }
    int *din, *dout, *dsums, *doffs;
    CUDA_OK("setup", cudaMalloc(&din, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dout, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dsums, blocks * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&doffs, blocks * sizeof(int)));
    CUDA_OK("setup", cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    scan_blocks<<<1, B>>>(din, dout, nullptr, 2 * B);
    CUDA_OK("one_block", cudaMemcpy(out.data(), dout, 2 * B * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 2 * B; i++)
        ok = ok && out[i] == expect[i];
    check(ok, "blelloch_one_block", "out[%d] = %d", 2 * B - 1, out[2 * B - 1]);

    scan_blocks<<<blocks, B>>>(din, dout, dsums, n);
    scan_blocks<<<1, B>>>(dsums, doffs, nullptr, blocks);
    add_offsets<<<blocks, B>>>(dout, doffs, n);
    CUDA_OK("multi_block", cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && out[i] == expect[i];
    check(ok, "scan_multi_block", "out[n-1] = %d (expected %d)", out[n - 1], expect[n - 1]);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dsums);
    cudaFree(doffs);
    return check_finish();
}
