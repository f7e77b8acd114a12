// fma_chain.cu: the latency of dependent fp32 fused multiply-adds, timed with clock64: one
// thread runs N FMAs, each needing the one before, between two clock reads, for N = 100 and
// 200. The difference of the two is 100 times the FMA's latency (what comes before and after
// the chain cancels), provided each clock read happens at the cycle it issues.
// Prints "fma_chain N CYCLES" for each N.
#include <cstdio>

template <int N>
__global__ void chain(float a, float b, long long *out, float *sink)
{
    float x = threadIdx.x;
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < N; i++) x = fmaf(x, a, b);
    long long t1 = clock64();
    out[0] = t1 - t0;
    sink[0] = x;
}

template <int N>
static long long run(long long *o, float *sink)
{
    long long r;
    chain<N><<<1, 1>>>(1.0001f, 0.5f, o, sink);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    return r;
}

int main()
{
    long long *o;
    float *sink;
    cudaMalloc(&o, sizeof(long long));
    cudaMalloc(&sink, sizeof(float));
    printf("fma_chain 100 %lld\n", run<100>(o, sink));
    printf("fma_chain 200 %lld\n", run<200>(o, sink));
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
