// divergence.cu: threads of one warp taking different paths: loops whose trip counts depend
// on each thread's data, nested if/else, early return, break and continue. Each kernel's
// output is compared with the same function run on the CPU. And __syncwarp after a lane's
// long spin: the lanes that reach it first wait there for the spinning one.
#include "check.cuh"

#include <vector>

// Collatz steps: a trip count that differs for every thread.
__host__ __device__ int collatz_steps(unsigned x)
{
    int steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

__global__ void collatz(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = collatz_steps((unsigned)i + 1);
}

__host__ __device__ int classify(int v)
{
    int r;
    if (v % 2 == 0) {
        if (v % 3 == 0)
            r = v / 6;
        else if (v % 5 == 0)
            r = -v;
        else
            r = v * 2;
    } else {
        if (v > 100) {
            if (v % 7 == 3)
                r = 7;
            else
                r = v - 100;
        } else {
            r = v * v;
        }
    }
    return r;
}

__global__ void nested(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = classify(in[i]);
}

// Threads whose index is a multiple of 3 leave at once; the others write.
__global__ void early_return(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (i % 3 == 0)
        return;
    out[i] = i * 10;
}

// A loop with data-dependent continue and break, then code after the loop that every thread
// reaches again (reconvergence).
__host__ __device__ int skip_and_stop(int v)
{
    int acc = 0;
    for (int k = 0; k < 64; k++) {
        if ((v + k) % 4 == 0)
            continue;
        acc += k;
        if (acc > v)
            break;
    }
    return acc * 3 + 1;
}

__global__ void loop_control(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = skip_and_stop(in[i]);
}

// Lane 0 of warp 0 spins until warp 1 has done a long computation, then hands a value to its
// warp through shared memory; __syncwarp must hold lanes 1-31 until lane 0 arrives, however
// long it spins (cooperative groups' multi-warp tile sync has this shape).
__global__ void spin_then_syncwarp(int *flag, int *out, int work)
{
    __shared__ int handed;
    int lane = threadIdx.x & 31;
    if (threadIdx.x >= 32) {
        if (lane == 0) {
            unsigned acc = 1;
            for (int i = 0; i < work; i++)
                acc = acc * 1664525u + 1013904223u;
            atomicExch(flag, 1 + (int)(acc & 0xffff));
        }
        return;
    }
    if (lane == 0) {
        int v;
        while ((v = atomicAdd(flag, 0)) == 0)
            ;
        handed = 1000 + v;
    }
    __syncwarp();
    out[threadIdx.x] = handed;
}

template <typename F>
static void compare(const char *name, const std::vector<int> &got, int n, F want)
{
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (got[i] != want(i))
            bad = i;
    check(bad < 0, name, "out[%d] = %d, expected %d", bad, bad < 0 ? 0 : got[bad],
          bad < 0 ? 0 : want(bad));
}

int main()
{
    const int n = 2000;
    std::vector<int> in(n), out(n);
    for (int i = 0; i < n; i++)
        in[i] = (i * 37 + 11) % 301;
    int *din, *dout;
    CUDA_OK("setup", cudaMalloc(&din, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dout, n * sizeof(int)));
    CUDA_OK("setup", cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    collatz<<<(n + 127) / 128, 128>>>(dout, n);
    CUDA_OK("divergent_loop_trip_counts", cudaMemcpy(out.data(), dout, n * sizeof(int),
                                                    cudaMemcpyDeviceToHost));
    compare("divergent_loop_trip_counts", out, n,
            [](int i) { return collatz_steps((unsigned)i + 1); });

    nested<<<(n + 63) / 64, 64>>>(din, dout, n);
    CUDA_OK("nested_if_else", cudaMemcpy(out.data(), dout, n * sizeof(int),
                                        cudaMemcpyDeviceToHost));
    compare("nested_if_else", out, n, [&](int i) { return classify(in[i]); });

    const int sentinel = -12345;
    std::vector<int> fill(n, sentinel);
    CUDA_OK("early_return", cudaMemcpy(dout, fill.data(), n * sizeof(int),
                                      cudaMemcpyHostToDevice));
    early_return<<<(n + 95) / 96, 96>>>(dout, n);
    CUDA_OK("early_return", cudaMemcpy(out.data(), dout, n * sizeof(int),
                                      cudaMemcpyDeviceToHost));
    compare("early_return", out, n, [&](int i) { return i % 3 == 0 ? sentinel : i * 10; });

    loop_control<<<(n + 31) / 32, 32>>>(din, dout, n);
    CUDA_OK("loop_break_continue", cudaMemcpy(out.data(), dout, n * sizeof(int),
                                             cudaMemcpyDeviceToHost));
    compare("loop_break_continue", out, n, [&](int i) { return skip_and_stop(in[i]); });

    const int work = 200000;
    unsigned acc = 1;
    for (int i = 0; i < work; i++)
        acc = acc * 1664525u + 1013904223u;
    CUDA_OK("spin_then_syncwarp", cudaMemset(din, 0, sizeof(int)));
    spin_then_syncwarp<<<1, 64>>>(din, dout, work);
    CUDA_OK("spin_then_syncwarp", cudaMemcpy(out.data(), dout, 32 * sizeof(int),
                                            cudaMemcpyDeviceToHost));
    compare("spin_then_syncwarp", out, 32, [&](int) { return 1001 + (int)(acc & 0xffff); });

    cudaFree(din);
    cudaFree(dout);
    return check_finish();
}
