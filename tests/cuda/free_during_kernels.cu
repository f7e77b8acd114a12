// free_during_kernels.cu: host threads that allocate, fill and free device memory while another
// host thread's kernels run. Under --engine=compare each launch snapshots every live allocation
// and runs twice; memory freed (and so cleared) or handed out by another host thread in the
// middle must not count as a difference between the executors, nor be written back by the
// snapshot's restore.
#include "check.cuh"

#include <thread>
#include <vector>

__global__ void spin(int *x, int n, int v, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int acc = v;
    for (int r = 0; r < rounds; r++)
        acc = acc * 1664525 + 1013904223 + i;
    x[i] = acc;
}

static int expected(int i, int v, int rounds)
{
    unsigned acc = (unsigned)v;
    for (int r = 0; r < rounds; r++)
        acc = acc * 1664525u + 1013904223u + (unsigned)i;
    return (int)acc;
}

// Launches kernels back to back, each checked against the CPU.
static void launcher(bool *ok)
{
    const int n = 256, rounds = 400, reps = 12;
    int *d;
    std::vector<int> h(n);
    *ok = cudaMalloc(&d, n * sizeof(int)) == cudaSuccess;
    for (int rep = 0; rep < reps && *ok; rep++) {
        spin<<<n / 128, 128, 0, cudaStreamPerThread>>>(d, n, rep, rounds);
        *ok = cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost,
                              cudaStreamPerThread) == cudaSuccess &&
              cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
        for (int i = 0; i < n && *ok; i++)
            *ok = h[i] == expected(i, rep, rounds);
    }
    cudaFree(d);
}

// Allocates, fills, reads back and frees, over and over, while the kernels run.
static void churner(int id, bool *ok)
{
    const int n = 1024, reps = 40;
    std::vector<unsigned char> h(n);
    *ok = true;
    for (int rep = 0; rep < reps && *ok; rep++) {
        unsigned char *d;
        int v = 1 + (id * 37 + rep) % 250;
        *ok = cudaMalloc(&d, n) == cudaSuccess &&
              cudaMemsetAsync(d, v, n, cudaStreamPerThread) == cudaSuccess &&
              cudaMemcpyAsync(h.data(), d, n, cudaMemcpyDeviceToHost, cudaStreamPerThread) ==
                  cudaSuccess &&
              cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
        for (int i = 0; i < n && *ok; i++)
            *ok = h[i] == v;
        if (cudaFree(d) != cudaSuccess)
            *ok = false;
    }
}

int main()
{
    bool ok_launch, ok_churn[2];
    std::thread l(launcher, &ok_launch);
    std::thread c0(churner, 0, &ok_churn[0]), c1(churner, 1, &ok_churn[1]);
    l.join();
    c0.join();
    c1.join();
    check(ok_launch, "kernels_while_others_free", "a kernel's results were wrong");
    check(ok_churn[0] && ok_churn[1], "free_while_kernels_run",
          "an allocate/fill/free thread saw wrong values");
    cudaError_t e = cudaDeviceSynchronize();
    check(e == cudaSuccess, "no_sticky_error", "cudaDeviceSynchronize returned %s",
          cudaGetErrorName(e));
    return check_finish();
}
