// sfu_throughput.cu: the issue rate of the special function unit, timed with clock64: one warp
// runs 16 independent chains of __sinf (sin.approx.f32, an SFU instruction), 16 deep, so the
// unit, not the chains' latency, is the limit (16 instructions in flight cover a latency of up
// to 16 initiation intervals): the cycles per SFU instruction are its initiation interval.
// Prints "sfu CYCLES_PER_INSTRUCTION_x100" (hundredths of a cycle).
#include <cstdio>

__global__ void sfu(float seed, long long *out, float *sink)
{
    float x[16];
#pragma unroll
    for (int c = 0; c < 16; c++) x[c] = seed + threadIdx.x + c;
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < 16; i++) {
#pragma unroll
        for (int c = 0; c < 16; c++) x[c] = __sinf(x[c]);
    }
    long long t1 = clock64();
    out[0] = t1 - t0;
    float s = 0;
#pragma unroll
    for (int c = 0; c < 16; c++) s += x[c];
    sink[threadIdx.x] = s;
}

int main()
{
    long long *o, r;
    float *sink;
    cudaMalloc(&o, sizeof r);
    cudaMalloc(&sink, 32 * sizeof(float));
    sfu<<<1, 32>>>(0.5f, o, sink);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("sfu %lld\n", r * 100 / 256);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
