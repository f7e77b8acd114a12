// blackscholes.cu: European call and put prices (compute-bound: exp, log, sqrt and a normal CDF
// per option), checked against the host. Usage: blackscholes [N] (default 262144 options).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __host__ inline float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * expf(-0.5f * d * d) *
              (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - c : c;
}

__global__ void price(const float *s, const float *x, const float *t, float *call, float *put,
                      int n, float r, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sq = sqrtf(t[i]);
    float d1 = (logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
    float d2 = d1 - v * sq;
    float e = expf(-r * t[i]);
    call[i] = s[i] * cnd(d1) - x[i] * e * cnd(d2);
    put[i] = x[i] * e * (1.0f - cnd(d2)) - s[i] * (1.0f - cnd(d1));
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 262144;
    size_t b = n * sizeof(float);
    float *s = (float *)malloc(b), *x = (float *)malloc(b), *t = (float *)malloc(b);
    float *c = (float *)malloc(b), *p = (float *)malloc(b);
    srand(11);
    for (int i = 0; i < n; i++) {
        s[i] = 5 + 25 * (rand() / (float)RAND_MAX);
        x[i] = 1 + 99 * (rand() / (float)RAND_MAX);
        t[i] = 0.25f + 9.75f * (rand() / (float)RAND_MAX);
    }
    float *ds, *dx, *dt, *dc, *dpu;
    cudaMalloc(&ds, b), cudaMalloc(&dx, b), cudaMalloc(&dt, b), cudaMalloc(&dc, b), cudaMalloc(&dpu, b);
    cudaMemcpy(ds, s, b, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice);
    cudaMemcpy(dt, t, b, cudaMemcpyHostToDevice);
    price<<<(n + 255) / 256, 256>>>(ds, dx, dt, dc, dpu, n, 0.02f, 0.30f);
    cudaMemcpy(c, dc, b, cudaMemcpyDeviceToHost);
    cudaMemcpy(p, dpu, b, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i += 31) {
        double sq = sqrt((double)t[i]);
        double d1 = (log((double)s[i] / x[i]) + (0.02 + 0.5 * 0.09) * t[i]) / (0.3 * sq);
        double d2 = d1 - 0.3 * sq, e = exp(-0.02 * t[i]);
        double rc = s[i] * cnd((float)d1) - x[i] * e * cnd((float)d2);
        if (fabs(c[i] - rc) > 1e-3 * (1 + fabs(rc))) bad++;
    }
    printf("%s blackscholes n=%d (%d bad)\n", bad ? "FAIL" : "PASS", n, bad);
    return bad != 0;
}
