// struct_params.cu: kernel parameters of every shape the ABI lays out: structs by value with
// mixed member sizes and padding, a fixed array inside a struct, a large (1 KiB) parameter
// block, char/short/bool/double scalars side by side, vector types and a pointer to a struct
// array.
#include "check.cuh"

struct Mixed {
    char c;
    double d;
    short s;
    int i;
    bool b;
    float f[3];
};

struct Big {
    int values[256];
};

struct Particle {
    float3 p;
    int id;
};

__global__ void mixed(Mixed m, char c2, short s2, bool flag, double d2, float4 v, int2 w,
                      double *out)
{
    out[0] = m.c + m.d + m.s + m.i + (m.b ? 1 : 0) + m.f[0] + m.f[1] + m.f[2];
    out[1] = c2 + s2 + (flag ? 100 : 0) + d2;
    out[2] = v.x + v.y + v.z + v.w + w.x + w.y;
}

__global__ void big(Big b, int *out)
{
    out[threadIdx.x] = b.values[threadIdx.x] * 2 + b.values[255 - threadIdx.x];
}

__global__ void particles(const Particle *ps, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = ps[i].p.x + ps[i].p.y * 10 + ps[i].p.z * 100 + ps[i].id;
}

int main()
{
    Mixed m = {'a', 2.5, -300, 70000, true, {0.5f, 0.25f, 0.125f}};
    double *dout, out[3];
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    mixed<<<1, 1>>>(m, 'z', 1234, true, -0.75, make_float4(1, 2, 3, 4), make_int2(-5, 9), dout);
    CUDA_OK("mixed", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    double e0 = 'a' + 2.5 - 300 + 70000 + 1 + 0.875;
    check(out[0] == e0 && out[1] == 'z' + 1234 + 100 - 0.75 && out[2] == 14.0,
          "struct_and_scalars", "%f %f %f", out[0], out[1], out[2]);

    Big bg;
    for (int i = 0; i < 256; i++)
        bg.values[i] = i * i;
    int *dbig, hb[256];
    CUDA_OK("setup", cudaMalloc(&dbig, sizeof hb));
    big<<<1, 256>>>(bg, dbig);
    CUDA_OK("big", cudaMemcpy(hb, dbig, sizeof hb, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 256; i++)
        ok = ok && hb[i] == i * i * 2 + (255 - i) * (255 - i);
    check(ok, "large_param_block", "hb[1] = %d", hb[1]);

    const int n = 50;
    Particle ps[n];
    for (int i = 0; i < n; i++)
        ps[i] = {make_float3(i * 1.0f, i * 0.5f, i * 0.25f), 1000 + i};
    Particle *dps;
    float *dpo, po[n];
    CUDA_OK("setup", cudaMalloc(&dps, sizeof ps));
    CUDA_OK("setup", cudaMalloc(&dpo, sizeof po));
    CUDA_OK("setup", cudaMemcpy(dps, ps, sizeof ps, cudaMemcpyHostToDevice));
    particles<<<1, 64>>>(dps, n, dpo);
    CUDA_OK("particles", cudaMemcpy(po, dpo, sizeof po, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && po[i] == ps[i].p.x + ps[i].p.y * 10 + ps[i].p.z * 100 + ps[i].id;
    check(ok, "struct_array_in_memory", "po[3] = %f", po[3]);
    cudaFree(dout);
    cudaFree(dbig);
    cudaFree(dps);
    cudaFree(dpo);
    return check_finish();
}
