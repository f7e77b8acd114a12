// async_pinned.cu: the simpleStreams pattern: pinned host buffers (cudaMallocHost,
// cudaHostAlloc with flags, cudaHostRegister of ordinary memory), a pipeline of chunked
// host-to-device copy, kernel and device-to-host copy over several streams, and the pinned
// memory's pointer attributes.
#include "check.cuh"

#include <cstdlib>
#include <cstring>

__global__ void incr(int *x, int n, int by)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] += by;
}

int main()
{
    const int n = 1 << 14, nstreams = 4, chunk = n / nstreams;
    int *in, *out, *d;
    CUDA_OK("pinned_alloc", cudaMallocHost(&in, n * sizeof(int)));
    CUDA_OK("pinned_alloc", cudaHostAlloc(&out, n * sizeof(int), cudaHostAllocPortable));
    CUDA_OK("setup", cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) {
        in[i] = i * 3;
        out[i] = -1;
    }
    cudaStream_t s[nstreams];
    for (int k = 0; k < nstreams; k++)
        CUDA_OK("stream", cudaStreamCreate(&s[k]));
    for (int k = 0; k < nstreams; k++) {
        int off = k * chunk;
        CUDA_OK("pipeline", cudaMemcpyAsync(d + off, in + off, chunk * sizeof(int),
                                            cudaMemcpyHostToDevice, s[k]));
        incr<<<8, 128, 0, s[k]>>>(d + off, chunk, k);
        CUDA_OK("pipeline", cudaMemcpyAsync(out + off, d + off, chunk * sizeof(int),
                                            cudaMemcpyDeviceToHost, s[k]));
    }
    CUDA_OK("pipeline", cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == i * 3 + i / chunk;
    check(ok, "pinned_pipeline", "a chunk came back wrong");

    struct cudaPointerAttributes a;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, in));
    check(a.type == cudaMemoryTypeHost && a.hostPointer == in, "pinned_attributes",
          "type %d", (int)a.type);

    // Registered ordinary memory works like pinned memory for async copies.
    int *plain = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        plain[i] = 7;
    CUDA_OK("register", cudaHostRegister(plain, n * sizeof(int), cudaHostRegisterDefault));
    CUDA_OK("register", cudaMemcpyAsync(d, plain, n * sizeof(int), cudaMemcpyHostToDevice, s[0]));
    incr<<<16, 256, 0, s[0]>>>(d, n, 5);
    CUDA_OK("register", cudaMemcpyAsync(plain, d, n * sizeof(int), cudaMemcpyDeviceToHost, s[0]));
    CUDA_OK("register", cudaStreamSynchronize(s[0]));
    ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = plain[i] == 12;
    check(ok, "host_register_copy", "registered memory round trip");
    check(cudaHostRegister(plain, n * sizeof(int), 0) == cudaErrorHostMemoryAlreadyRegistered,
          "host_register_twice", "registering twice must fail");
    cudaGetLastError();
    CUDA_OK("unregister", cudaHostUnregister(plain));
    check(cudaHostUnregister(plain) == cudaErrorHostMemoryNotRegistered, "host_unregister_twice",
          "unregistering twice must fail");
    cudaGetLastError();
    free(plain);

    for (int k = 0; k < nstreams; k++)
        cudaStreamDestroy(s[k]);
    CUDA_OK("free", cudaFreeHost(in));
    CUDA_OK("free", cudaFreeHost(out));
    cudaFree(d);
    return check_finish();
}
