// timing_barrier_wait.cu (tests/suites/timing.sh): a warp waiting at a CTA barrier for a known
// time. One block of two warps: warp 0 runs N dependent fp32 FMAs, then the barrier; warp 1
// reaches the barrier at once and waits there for warp 0's chain (N x the FMA's latency).
// Kernels for N = 100 and 200; the cycle model's issue slots of the two differ by exactly 100
// chains' worth. (Not in bench/micro, whose every program bench/timing_identical.sh and the
// native runs take.) Prints "barrier_wait N RESULT" for each N (the chain's value, kept).
#include <cstdio>

template <int N>
__global__ void wait(float a, float b, float *out)
{
    float x = threadIdx.x;
    if (threadIdx.x < 32) {
#pragma unroll
        for (int i = 0; i < N; i++) x = fmaf(x, a, b);
    }
    __syncthreads();
    if (threadIdx.x == 0) out[0] = x;
}

template <int N>
static float run(float *o)
{
    float r;
    wait<N><<<1, 64>>>(1.0001f, 0.5f, o);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    return r;
}

int main()
{
    float *o;
    cudaMalloc(&o, sizeof(float));
    printf("barrier_wait 100 %g\n", run<100>(o));
    printf("barrier_wait 200 %g\n", run<200>(o));
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
