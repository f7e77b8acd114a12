// constant_memory.cu: __constant__ data as the convolution sample uses it: a filter uploaded
// with cudaMemcpyToSymbol (whole and at an offset), read back with cudaMemcpyFromSymbol, an
// initialised __constant__ table, and the symbol's address and size.
#include "check.cuh"

#include <vector>

#define RADIUS 4
#define TAPS (2 * RADIUS + 1)

__constant__ float c_filter[TAPS];
__constant__ int c_table[5] = {2, 3, 5, 7, 11};
__constant__ struct Params {
    int n;
    float bias;
} c_params;

__global__ void convolve(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= c_params.n)
        return;
    float s = c_params.bias;
    for (int k = -RADIUS; k <= RADIUS; k++) {
        int j = i + k;
        if (j >= 0 && j < c_params.n)
            s += in[j] * c_filter[k + RADIUS];
    }
    out[i] = s;
}

__global__ void primes(int *out)
{
    out[threadIdx.x] = c_table[threadIdx.x] * c_table[4 - threadIdx.x];
}

int main()
{
    const int n = 500;
    float filter[TAPS];
    for (int k = 0; k < TAPS; k++)
        filter[k] = (float)(k + 1);
    CUDA_OK("to_symbol", cudaMemcpyToSymbol(c_filter, filter, sizeof filter));
    Params p = {n, 0.5f};
    CUDA_OK("to_symbol", cudaMemcpyToSymbol(c_params, &p, sizeof p));
    std::vector<float> in(n), out(n);
    for (int i = 0; i < n; i++)
        in[i] = (float)(i % 5);
    float *d_in, *d_out;
    CUDA_OK("setup", cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_OK("setup", cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_OK("setup", cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    convolve<<<(n + 127) / 128, 128>>>(d_in, d_out);
    CUDA_OK("convolve", cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        float s = 0.5f;
        for (int k = -RADIUS; k <= RADIUS; k++)
            if (i + k >= 0 && i + k < n)
                s += in[i + k] * filter[k + RADIUS];
        ok = out[i] == s;
    }
    check(ok, "constant_convolution", "convolution with the __constant__ filter differs");

    // Overwrite taps 2..4 through an offset, then read the whole filter back.
    float mid[3] = {-1.0f, -2.0f, -3.0f};
    CUDA_OK("offset", cudaMemcpyToSymbol(c_filter, mid, sizeof mid, 2 * sizeof(float)));
    float back[TAPS];
    CUDA_OK("from_symbol", cudaMemcpyFromSymbol(back, c_filter, sizeof back));
    ok = true;
    for (int k = 0; k < TAPS && ok; k++)
        ok = back[k] == (k >= 2 && k < 5 ? mid[k - 2] : filter[k]);
    check(ok, "symbol_offset_roundtrip", "filter after an offset write");

    int *d_pr, pr[5];
    CUDA_OK("setup", cudaMalloc(&d_pr, sizeof pr));
    primes<<<1, 5>>>(d_pr);
    CUDA_OK("initialised", cudaMemcpy(pr, d_pr, sizeof pr, cudaMemcpyDeviceToHost));
    check(pr[0] == 22 && pr[1] == 21 && pr[2] == 25 && pr[3] == 21 && pr[4] == 22,
          "constant_initialiser", "%d %d %d %d %d", pr[0], pr[1], pr[2], pr[3], pr[4]);

    void *addr = nullptr;
    size_t size = 0;
    CUDA_OK("symbol_info", cudaGetSymbolAddress(&addr, c_table));
    CUDA_OK("symbol_info", cudaGetSymbolSize(&size, c_table));
    int direct[5];
    CUDA_OK("symbol_info", cudaMemcpy(direct, addr, sizeof direct, cudaMemcpyDeviceToHost));
    check(size == sizeof(int) * 5 && direct[4] == 11, "symbol_address_size",
          "size %zu, last element %d", size, direct[4]);

    check(cudaMemcpyToSymbol(c_filter, filter, sizeof filter, sizeof(float)) ==
              cudaErrorInvalidValue,
          "symbol_overflow", "a copy past the end of the symbol must fail");
    cudaGetLastError();
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_pr);
    return check_finish();
}
