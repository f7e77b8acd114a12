// half_precision.cu: 16-bit floating point with cuda_fp16.h and cuda_bf16.h: conversions in
// both directions (round to nearest even), half and half2 arithmetic, hfma, comparisons, and
// bfloat16 conversions, against the host's float arithmetic on exactly representable inputs.
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

#define N 128

__global__ void halves(const float *in, float *out, __half *raw)
{
    int i = threadIdx.x;
    __half a = __float2half(in[i]), b = __float2half(0.5f * i - 3.0f);
    raw[i] = a;
    out[0 * N + i] = __half2float(__hadd(a, b));
    out[1 * N + i] = __half2float(__hmul(a, b));
    out[2 * N + i] = __half2float(__hfma(a, b, __float2half(1.0f)));
    out[3 * N + i] = __hlt(a, b) ? 1.0f : 0.0f;
    __half2 p = __halves2half2(a, b), q = __hadd2(p, p);
    out[4 * N + i] = __low2float(q) + __high2float(q);
    __nv_bfloat16 bf = __float2bfloat16(in[i]);
    out[5 * N + i] = __bfloat162float(bf);
}

static float round_to_half(float f)
{
    // Round to the nearest value with an 11-bit significand (normal range only here).
    if (f == 0)
        return 0;
    int e;
    float m = frexpf(f, &e);
    return ldexpf(nearbyintf(m * 2048.0f) / 2048.0f, e);
}

int main()
{
    float in[N], out[6 * N], *din, *dout;
    __half raw[N], *draw;
    for (int i = 0; i < N; i++)
        in[i] = (i - 64) * 0.375f + (i % 3) * 0.0009765625f;
    CUDA_OK("setup", cudaMalloc(&din, sizeof in));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMalloc(&draw, sizeof raw));
    CUDA_OK("setup", cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    halves<<<1, N>>>(din, dout, draw);
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(raw, draw, sizeof raw, cudaMemcpyDeviceToHost));
    bool conv = true, arith = true, cmp = true, vec = true, bf = true;
    for (int i = 0; i < N; i++) {
        float a = round_to_half(in[i]), b = round_to_half(0.5f * i - 3.0f);
        conv = conv && __half2float(raw[i]) == a;
        arith = arith && out[i] == round_to_half(a + b) &&
                out[N + i] == round_to_half(a * b) &&
                out[2 * N + i] == round_to_half((float)((double)a * b + 1.0));
        cmp = cmp && out[3 * N + i] == (a < b ? 1.0f : 0.0f);
        vec = vec && out[4 * N + i] == round_to_half(2 * a) + round_to_half(2 * b);
        uint32_t bits;
        memcpy(&bits, &in[i], 4);
        uint32_t rb = bits + 0x7fff + ((bits >> 16) & 1);
        rb &= 0xffff0000u;
        float bref;
        memcpy(&bref, &rb, 4);
        bf = bf && out[5 * N + i] == bref;
    }
    check(conv, "half_conversion", "float to half rounding");
    check(arith, "half_arithmetic", "hadd/hmul/hfma");
    check(cmp, "half_compare", "hlt");
    check(vec, "half2_vector", "hadd2");
    check(bf, "bfloat16_conversion", "float to bfloat16 rounding");
    cudaFree(din);
    cudaFree(dout);
    cudaFree(draw);
    return check_finish();
}
