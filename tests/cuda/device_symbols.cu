// device_symbols.cu: __device__ variables: scalars and arrays with initialisers, a struct, a
// global counter that kernels bump with atomics, pointers stored in device variables, and the
// asynchronous symbol copies.
#include "check.cuh"

struct Stats {
    int count;
    float sum;
    double weights[3];
};

__device__ int d_scalar = 42;
__device__ float d_array[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ Stats d_stats = {1, 2.5f, {0.25, 0.5, 0.75}};
__device__ unsigned d_counter;
__device__ int *d_ptr;

__global__ void use_symbols(float *out)
{
    int i = threadIdx.x;
    out[i] = d_array[i] * d_scalar + (float)d_stats.weights[i % 3];
    atomicAdd(&d_counter, 1u);
    if (i == 0) {
        d_stats.count += 10;
        d_ptr[0] = d_scalar + 1;
    }
}

int main()
{
    float *out, h[8];
    int *target, t = 0;
    CUDA_OK("setup", cudaMalloc(&out, sizeof h));
    CUDA_OK("setup", cudaMalloc(&target, sizeof(int)));
    CUDA_OK("pointer_symbol", cudaMemcpyToSymbol(d_ptr, &target, sizeof target));
    unsigned zero = 0;
    CUDA_OK("counter", cudaMemcpyToSymbolAsync(d_counter, &zero, sizeof zero, 0,
                                               cudaMemcpyHostToDevice, 0));
    use_symbols<<<1, 8>>>(out);
    CUDA_OK("kernel", cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    const double w[3] = {0.25, 0.5, 0.75};
    for (int i = 0; i < 8 && ok; i++)
        ok = h[i] == (float)(i + 1) * 42 + (float)w[i % 3];
    check(ok, "device_initialisers", "kernel result from initialised variables differs");

    unsigned counter = 0;
    Stats s;
    CUDA_OK("from_symbol", cudaMemcpyFromSymbolAsync(&counter, d_counter, sizeof counter, 0,
                                                     cudaMemcpyDeviceToHost, 0));
    CUDA_OK("from_symbol", cudaMemcpyFromSymbol(&s, d_stats, sizeof s));
    CUDA_OK("from_symbol", cudaMemcpy(&t, target, sizeof t, cudaMemcpyDeviceToHost));
    CUDA_OK("from_symbol", cudaStreamSynchronize(0));
    check(counter == 8, "device_counter_atomics", "counter %u", counter);
    check(s.count == 11 && s.sum == 2.5f && s.weights[2] == 0.75, "device_struct",
          "count %d sum %f w2 %f", s.count, s.sum, s.weights[2]);
    check(t == 43, "device_pointer_variable", "wrote %d through the stored pointer", t);

    // Device-to-device: copy a device buffer into the array symbol.
    float twos[8];
    for (int i = 0; i < 8; i++)
        twos[i] = 2.0f;
    CUDA_OK("d2d_symbol", cudaMemcpy(out, twos, sizeof twos, cudaMemcpyHostToDevice));
    CUDA_OK("d2d_symbol", cudaMemcpyToSymbol(d_array, out, sizeof twos, 0,
                                             cudaMemcpyDeviceToDevice));
    float back[8];
    CUDA_OK("d2d_symbol", cudaMemcpyFromSymbol(back, d_array, sizeof back));
    ok = true;
    for (int i = 0; i < 8; i++)
        ok = ok && back[i] == 2.0f;
    check(ok, "symbol_device_to_device", "array after a device-to-device symbol copy");

    int not_a_symbol = 0;
    check(cudaMemcpyToSymbol(not_a_symbol, &t, sizeof t) == cudaErrorInvalidSymbol,
          "invalid_symbol", "a host variable is not a device symbol");
    cudaGetLastError();
    cudaFree(out);
    cudaFree(target);
    return check_finish();
}
