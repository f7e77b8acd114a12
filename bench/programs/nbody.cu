// nbody.cu: one all-pairs gravitational step (compute-bound: rsqrtf and FMAs per pair), checked
// against the same computation on the host. Usage: nbody [N] (default 2048 bodies).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void step(const float4 *p, float4 *acc, int n, float soft)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 me = p[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; j++) {
        float4 o = p[j];
        float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
        float r2 = dx * dx + dy * dy + dz * dz + soft;
        float inv = rsqrtf(r2);
        float s = o.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[i] = make_float4(ax, ay, az, 0);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    float4 *h = (float4 *)malloc(n * sizeof(float4)), *ha = (float4 *)malloc(n * sizeof(float4));
    srand(7);
    for (int i = 0; i < n; i++)
        h[i] = make_float4(rand() / (float)RAND_MAX, rand() / (float)RAND_MAX,
                           rand() / (float)RAND_MAX, 0.5f + rand() / (float)RAND_MAX);
    float4 *dp, *da;
    cudaMalloc(&dp, n * sizeof(float4));
    cudaMalloc(&da, n * sizeof(float4));
    cudaMemcpy(dp, h, n * sizeof(float4), cudaMemcpyHostToDevice);
    step<<<(n + 127) / 128, 128>>>(dp, da, n, 0.01f);
    cudaMemcpy(ha, da, n * sizeof(float4), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i += 97) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            double dx = h[j].x - h[i].x, dy = h[j].y - h[i].y, dz = h[j].z - h[i].z;
            double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            double s = h[j].w / (r2 * sqrt(r2));
            ax += dx * s, ay += dy * s, az += dz * s;
        }
        double m = fabs(ax) + fabs(ay) + fabs(az) + 1;
        if (fabs(ha[i].x - ax) > 1e-3 * m || fabs(ha[i].y - ay) > 1e-3 * m ||
            fabs(ha[i].z - az) > 1e-3 * m)
            bad++;
    }
    printf("%s nbody n=%d (%d bad)\n", bad ? "FAIL" : "PASS", n, bad);
    return bad != 0;
}
