// nbody.cu: the n-body sample's all-pairs force step: body positions tiled through shared
// memory, rsqrtf-based softened gravity, an integration step.
// Forces: the GPU sums n float terms, each with a few roundings and an approximate rsqrt (the
// ISA allows 2 ulp), so each coordinate is compared with a double-precision CPU reference
// within a bound that follows from that computation: 256 float ulps (2^-24) of the sum of the
// terms' magnitudes (a sum of n = 200 terms can lose n * 2^-24 of it, each term ~10 * 2^-24).
// Integration: v = a * dt and p += v * dt in float, from the GPU's own a: v is one rounded
// product (compared exactly), p is the float result of one fused multiply-add or of a rounded
// product and a rounded add (nvcc may contract): either, exactly, for all three coordinates.
#include "check.cuh"

#include <cmath>
#include <vector>

#define TILE 64
#define SOFT2 0.01f

__global__ void forces(const float4 *pos, float3 *acc, int n)
{
    __shared__ float4 sh[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 a = make_float3(0, 0, 0);
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
        for (int k = 0; k < TILE && base + k < n; k++) {
            float4 o = sh[k];
            float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFT2);
            float s = o.w * inv * inv * inv;
            a.x += dx * s;
            a.y += dy * s;
            a.z += dz * s;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = a;
}

__global__ void integrate(float4 *pos, float3 *vel, const float3 *acc, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    vel[i].x += acc[i].x * dt;
    vel[i].y += acc[i].y * dt;
    vel[i].z += acc[i].z * dt;
    pos[i].x += vel[i].x * dt;
    pos[i].y += vel[i].y * dt;
    pos[i].z += vel[i].z * dt;
}

int main()
{
    const int n = 200;
    const float dt = 0.01f;
    std::vector<float4> p(n);
    for (int i = 0; i < n; i++)
        p[i] = make_float4(sinf(i * 0.7f) * 3, cosf(i * 1.3f) * 2, (i % 17) * 0.2f - 1.6f,
                           1.0f + (i % 5) * 0.1f);
    float4 *dp;
    float3 *dv, *da;
    CUDA_OK("setup", cudaMalloc(&dp, n * sizeof(float4)));
    CUDA_OK("setup", cudaMalloc(&dv, n * sizeof(float3)));
    CUDA_OK("setup", cudaMalloc(&da, n * sizeof(float3)));
    CUDA_OK("setup", cudaMemcpy(dp, p.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_OK("setup", cudaMemset(dv, 0, n * sizeof(float3)));
    forces<<<(n + TILE - 1) / TILE, TILE>>>(dp, da, n);
    std::vector<float3> a(n);
    CUDA_OK("forces", cudaMemcpy(a.data(), da, n * sizeof(float3), cudaMemcpyDeviceToHost));
    double worst = 0;
    int worst_i = -1;
    for (int i = 0; i < n; i++) {
        double r[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
        for (int j = 0; j < n; j++) {
            double d[3] = {(double)p[j].x - p[i].x, (double)p[j].y - p[i].y, (double)p[j].z - p[i].z};
            double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + SOFT2;
            double s = p[j].w / (d2 * sqrt(d2));
            for (int c = 0; c < 3; c++) {
                r[c] += d[c] * s;
                mag[c] += fabs(d[c] * s);
            }
        }
        const float got[3] = {a[i].x, a[i].y, a[i].z};
        for (int c = 0; c < 3; c++) {
            double tol = 256.0 * ldexp(1.0, -24) * mag[c];
            double e = fabs(got[c] - r[c]) / tol;   // in units of the allowed error
            if (e > worst) {
                worst = e;
                worst_i = 3 * i + c;
            }
        }
    }
    check(worst <= 1.0, "nbody_forces",
          "body %d coordinate %d: error %.3g times the allowed bound", worst_i / 3, worst_i % 3,
          worst);

    integrate<<<(n + 127) / 128, 128>>>(dp, dv, da, dt, n);
    std::vector<float4> q(n);
    std::vector<float3> v(n);
    CUDA_OK("integrate", cudaMemcpy(q.data(), dp, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CUDA_OK("integrate", cudaMemcpy(v.data(), dv, n * sizeof(float3), cudaMemcpyDeviceToHost));
    int bad_v = -1, bad_p = -1;
    for (int i = 0; i < n; i++) {
        const float ac[3] = {a[i].x, a[i].y, a[i].z}, p0[3] = {p[i].x, p[i].y, p[i].z};
        const float vg[3] = {v[i].x, v[i].y, v[i].z}, pg[3] = {q[i].x, q[i].y, q[i].z};
        for (int c = 0; c < 3; c++) {
            volatile float vw = ac[c] * dt;   // one rounding (volatile: no contraction here)
            if (vg[c] != vw && bad_v < 0) bad_v = 3 * i + c;
            volatile float prod = vw * dt;
            volatile float unfused = p0[c] + prod;
            float fused = fmaf(vw, dt, p0[c]);
            if (pg[c] != unfused && pg[c] != fused && bad_p < 0) bad_p = 3 * i + c;
        }
    }
    check(bad_v < 0, "nbody_integrate_velocity", "body %d coordinate %d: v = %.9g",
          bad_v / 3, bad_v % 3, bad_v >= 0 ? (double)(&v[bad_v / 3].x)[bad_v % 3] : 0.0);
    check(bad_p < 0 && q[n - 1].w == p[n - 1].w, "nbody_integrate_position",
          "body %d coordinate %d: p = %.9g", bad_p / 3, bad_p % 3,
          bad_p >= 0 ? (double)(&q[bad_p / 3].x)[bad_p % 3] : 0.0);
    cudaFree(dp);
    cudaFree(dv);
    cudaFree(da);
    return check_finish();
}
