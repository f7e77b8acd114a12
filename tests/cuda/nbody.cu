// nbody.cu: the n-body sample's all-pairs force step: body positions tiled through shared
// memory, rsqrtf-based softened gravity, an integration step, compared with a double-precision
// CPU reference within a tolerance (the GPU computes in float with approximate rsqrt).
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
    std::vector<double> ref(3 * n);
    for (int i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
            double d2 = dx * dx + dy * dy + dz * dz + SOFT2;
            double s = p[j].w / (d2 * sqrt(d2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        ref[3 * i] = ax;
        ref[3 * i + 1] = ay;
        ref[3 * i + 2] = az;
        double mag = sqrt(ax * ax + ay * ay + az * az) + 1.0;
        worst = fmax(worst, fabs(a[i].x - ax) / mag);
        worst = fmax(worst, fabs(a[i].y - ay) / mag);
        worst = fmax(worst, fabs(a[i].z - az) / mag);
    }
    check(worst < 1e-3, "nbody_forces", "worst relative error %g", worst);

    integrate<<<(n + 127) / 128, 128>>>(dp, dv, da, dt, n);
    std::vector<float4> q(n);
    CUDA_OK("integrate", cudaMemcpy(q.data(), dp, n * sizeof(float4), cudaMemcpyDeviceToHost));
    double err = 0;
    for (int i = 0; i < n; i++) {
        err = fmax(err, fabs(q[i].x - (p[i].x + ref[3 * i] * dt * dt)));
        err = fmax(err, fabs(q[i].z - (p[i].z + ref[3 * i + 2] * dt * dt)));
    }
    check(err < 1e-3, "nbody_integrate", "worst position error %g", err);
    cudaFree(dp);
    cudaFree(dv);
    cudaFree(da);
    return check_finish();
}
