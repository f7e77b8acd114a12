// templates.cu: templated kernels as C++ CUDA code uses them: one kernel instantiated for
// int, float and double; a block size given as a template parameter (the reduction sample's
// unrolled tail); a functor type parameter; and a template device function with a non-type
// parameter.
#include "check.cuh"

#include <vector>

template <typename T>
__global__ void axpy(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

template <unsigned BLOCK, typename T>
__global__ void block_sum(const T *in, T *out, int n)
{
    __shared__ T s[BLOCK];
    unsigned t = threadIdx.x;
    T v = 0;
    for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK)
        v += in[i];
    s[t] = v;
    __syncthreads();
    if (BLOCK >= 256) { if (t < 128) s[t] += s[t + 128]; __syncthreads(); }
    if (BLOCK >= 128) { if (t < 64) s[t] += s[t + 64]; __syncthreads(); }
    if (t < 32) {
        volatile T *vs = s;
        if (BLOCK >= 64) vs[t] += vs[t + 32];
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            if (t < (unsigned)off) vs[t] += vs[t + off];
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

struct Square {
    __device__ int operator()(int v) const { return v * v; }
};
struct Negate {
    __device__ int operator()(int v) const { return -v; }
};

template <typename F>
__global__ void transform(const int *in, int *out, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = f(in[i]);
}

template <int P>
__device__ int power(int v)
{
    return P == 0 ? 1 : v * power<(P > 0 ? P - 1 : 0)>(v);
}

__global__ void cube(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = power<3>(x[i]);
}

template <typename T>
static bool run_axpy(const char *name)
{
    const int n = 300;
    std::vector<T> x(n), y(n), r(n);
    for (int i = 0; i < n; i++) {
        x[i] = (T)(i % 13);
        y[i] = (T)(i % 7);
    }
    T *dx, *dy;
    cudaMalloc(&dx, n * sizeof(T));
    cudaMalloc(&dy, n * sizeof(T));
    cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    axpy<T><<<(n + 63) / 64, 64>>>((T)3, dx, dy, n);
    cudaMemcpy(r.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = r[i] == (T)3 * x[i] + y[i];
    return check(ok, name, "axpy result differs");
}

int main()
{
    run_axpy<int>("template_axpy_int");
    run_axpy<float>("template_axpy_float");
    run_axpy<double>("template_axpy_double");

    const int n = 5000, blocks = 8;
    std::vector<int> in(n);
    long long expect = 0;
    for (int i = 0; i < n; i++) {
        in[i] = i % 101 - 50;
        expect += in[i];
    }
    int *din, *dout, part[blocks];
    CUDA_OK("setup", cudaMalloc(&din, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dout, blocks * sizeof(int)));
    CUDA_OK("setup", cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    bool ok = true;
    block_sum<256, int><<<blocks, 256>>>(din, dout, n);
    CUDA_OK("reduce", cudaMemcpy(part, dout, sizeof part, cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int b = 0; b < blocks; b++)
        got += part[b];
    ok = got == expect;
    block_sum<64, int><<<blocks, 64>>>(din, dout, n);
    CUDA_OK("reduce", cudaMemcpy(part, dout, sizeof part, cudaMemcpyDeviceToHost));
    got = 0;
    for (int b = 0; b < blocks; b++)
        got += part[b];
    check(ok && got == expect, "template_block_size", "sums %lld (expected %lld)", got, expect);

    int *tout, h[64];
    CUDA_OK("setup", cudaMalloc(&tout, 64 * sizeof(int)));
    transform<<<1, 64>>>(din, tout, 64, Square());
    CUDA_OK("functor", cudaMemcpy(h, tout, sizeof h, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < 64; i++)
        ok = ok && h[i] == in[i] * in[i];
    transform<<<1, 64>>>(din, tout, 64, Negate());
    CUDA_OK("functor", cudaMemcpy(h, tout, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        ok = ok && h[i] == -in[i];
    check(ok, "template_functor", "functor results differ");

    cube<<<1, 64>>>(din, 64);
    CUDA_OK("nontype", cudaMemcpy(h, din, sizeof h, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < 64; i++)
        ok = ok && h[i] == in[i] * in[i] * in[i];
    check(ok, "template_nontype_recursion", "power<3> differs");
    cudaFree(din);
    cudaFree(dout);
    cudaFree(tout);
    return check_finish();
}
