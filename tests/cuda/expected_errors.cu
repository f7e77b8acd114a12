// expected_errors.cu: the errors a program provokes on purpose, and their rules: a bad launch
// configuration (too many threads, a zero dimension, too much shared memory) is reported by
// cudaGetLastError once and does not poison the context; invalid values and handles; an
// allocation larger than the device; the error names and strings; and that the device keeps
// working after each of them.
#include "check.cuh"

#include <cstring>

// A grid or block the device cannot have: CUDA 13's runtime reports cudaErrorInvalidValue (an
// H100 with the CUDA 13.0 runtime and driver 580 does); the runtimes before it reported
// cudaErrorInvalidConfiguration.
static const cudaError_t bad_config =
    CUDART_VERSION >= 13000 ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;

__global__ void fill(int *x, int v)
{
    x[threadIdx.x] = v;
}

__global__ void needs_shared(int *x)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    x[threadIdx.x] = s[threadIdx.x];
}

static bool device_still_works(int *d)
{
    fill<<<1, 32>>>(d, 77);
    int h[32] = {0};
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return false;
    for (int i = 0; i < 32; i++)
        if (h[i] != 77)
            return false;
    return true;
}

int main()
{
    int *d;
    CUDA_OK("setup", cudaMalloc(&d, 1024 * sizeof(int)));

    fill<<<1, 2048>>>(d, 1);
    cudaError_t e1 = cudaGetLastError(), e2 = cudaGetLastError();
    check(e1 == bad_config && e2 == cudaSuccess, "invalid_configuration",
          "first %s, then %s", cudaGetErrorName(e1), cudaGetErrorName(e2));
    check(cudaDeviceSynchronize() == cudaSuccess && device_still_works(d),
          "configuration_error_not_sticky", "the device must keep working");

    fill<<<dim3(1, 0, 1), 32>>>(d, 1);
    check(cudaPeekAtLastError() == bad_config && cudaPeekAtLastError() == bad_config &&
              cudaGetLastError() == bad_config && cudaGetLastError() == cudaSuccess,
          "peek_does_not_clear", "cudaPeekAtLastError must leave the error in place");

    needs_shared<<<1, 32, 200 * 1024>>>(d);
    cudaError_t smem = cudaGetLastError();
    check(smem == cudaErrorInvalidValue || smem == cudaErrorLaunchOutOfResources,
          "too_much_shared_memory", "got %s", cudaGetErrorName(smem));

    void *huge = nullptr;
    cudaError_t oom = cudaMalloc(&huge, (size_t)1 << 50);
    check(oom == cudaErrorMemoryAllocation && cudaGetLastError() == cudaErrorMemoryAllocation,
          "out_of_memory", "got %s", cudaGetErrorName(oom));
    check(device_still_works(d), "oom_not_sticky", "the device must keep working");

    int h[4];
    check(cudaMemcpy(h, (int *)0x1234, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
          "invalid_device_pointer", "a copy from a wild pointer");
    // A copy that runs one int past the end of its allocation is refused whole: nothing of it
    // lands, in either direction.
    static int big[1025];
    for (int i = 0; i < 1025; i++) big[i] = -5;
    check(cudaMemcpy(d, big, sizeof big, cudaMemcpyHostToDevice) == cudaErrorInvalidValue &&
              cudaGetLastError() == cudaErrorInvalidValue,
          "copy_past_end_refused", "a host-to-device copy one int past the allocation");
    check(cudaMemcpy(big, d, sizeof big, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue &&
              big[0] == -5 && big[1024] == -5,
          "copy_from_past_end_refused", "a device-to-host copy one int past the allocation");
    cudaGetLastError();
    // An asynchronous device-to-device copy only queues, so its arguments are checked when it
    // is called: the error comes from the call, and the stream has nothing to report later.
    int *wide;
    CUDA_OK("setup", cudaMalloc(&wide, 2048 * sizeof(int)));
    check(cudaMemcpyAsync(wide, d, 1025 * sizeof(int), cudaMemcpyDeviceToDevice, 0) ==
              cudaErrorInvalidValue,
          "async_copy_past_end_refused_at_call", "a queued copy one int past its source");
    cudaError_t later = cudaStreamSynchronize(0);
    check(later == cudaSuccess, "async_copy_past_end_nothing_queued", "the stream then says %s",
          cudaGetErrorName(later));
    cudaGetLastError();
    cudaFree(wide);
    check(device_still_works(d), "copy_past_end_changed_nothing",
          "the refused copies must leave the allocation as it was");
    // The direction names which side is host memory. The runtime API reference calls a device
    // pointer there undefined; CUDA 13's runtime copies it as device memory, where unified
    // addressing says it lies (an H100 with the CUDA 13.0 runtime does), and ptxsim does the
    // same. Such a side must still fit in its allocation.
    int *d2;
    CUDA_OK("setup", cudaMalloc(&d2, 64 * sizeof(int)));
    CUDA_OK("setup", cudaMemset(d2, 0, 64 * sizeof(int)));
    fill<<<1, 32>>>(d, 5);
    cudaError_t d2h = cudaMemcpy(d2, d, 16 * sizeof(int), cudaMemcpyDeviceToHost);
    int back[32] = {0};
    CUDA_OK("setup", cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost));
    check(d2h == cudaSuccess && back[0] == 5 && back[15] == 5 && back[16] == 0,
          "device_destination_named_host", "%s, d2[0] = %d, d2[15] = %d, d2[16] = %d",
          cudaGetErrorName(d2h), back[0], back[15], back[16]);
    fill<<<1, 32>>>(d, 6);
    cudaError_t h2d = cudaMemcpy(d2 + 16, d, 16 * sizeof(int), cudaMemcpyHostToDevice);
    CUDA_OK("setup", cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost));
    check(h2d == cudaSuccess && back[15] == 5 && back[16] == 6 && back[31] == 6,
          "device_source_named_host", "%s, d2[15] = %d, d2[16] = %d, d2[31] = %d",
          cudaGetErrorName(h2d), back[15], back[16], back[31]);
    cudaGetLastError();
    if (on_ptxsim()) {
        // Past the end of the allocation the side is refused whole, as every device side is
        // (natively the copy would run into whatever lies beyond: undefined).
        cudaError_t past = cudaMemcpy(d2 + 60, d, 16 * sizeof(int), cudaMemcpyDeviceToHost);
        CUDA_OK("setup", cudaMemcpy(back, d2 + 32, sizeof back, cudaMemcpyDeviceToHost));
        check(past == cudaErrorInvalidValue && back[28] == 0 && back[31] == 0,
              "device_side_named_host_past_end", "%s, d2[60] = %d", cudaGetErrorName(past),
              back[28]);
        cudaGetLastError();
    }
    cudaFree(d2);
    check(cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)42) == cudaErrorInvalidMemcpyDirection,
          "invalid_direction", "an unknown copy direction");
    check(cudaFree(d + 1) == cudaErrorInvalidValue, "free_interior_pointer",
          "freeing a pointer inside an allocation");
    // A destroyed stream used again: ptxsim says so; the real runtime's behaviour is undefined
    // (an H100 with the CUDA 13.0 runtime crashes).
    if (on_ptxsim()) {
        cudaStream_t s;
        CUDA_OK("setup", cudaStreamCreate(&s));
        CUDA_OK("setup", cudaStreamDestroy(s));
        check(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle, "invalid_stream",
              "a destroyed stream");
    }
    check(cudaSetDevice(5) == cudaErrorInvalidDevice, "invalid_device", "device 5 of 1");
    cudaEvent_t ev;
    CUDA_OK("setup", cudaEventCreate(&ev));
    float ms;
    check(cudaEventElapsedTime(&ms, ev, ev) == cudaErrorInvalidResourceHandle,
          "unrecorded_event", "elapsed time of events never recorded");
    check(cudaFuncSetAttribute((void *)fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               1 << 30) == cudaErrorInvalidValue,
          "func_attribute_too_large", "a 1 GiB shared memory opt-in");
    // CUDA 13's runtime takes an unknown pointer for a kernel handle (an H100 answers
    // cudaErrorInvalidResourceHandle); NULL is an invalid device function
    int not_a_kernel = 0;
    cudaError_t nk = cudaLaunchKernel((void *)&not_a_kernel, dim3(1), dim3(1), nullptr, 0, 0);
    check(nk == cudaErrorInvalidResourceHandle, "invalid_device_function",
          "launching something that is no kernel: %s", cudaGetErrorName(nk));
    cudaGetLastError();
    nk = cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, 0);
    check(nk == cudaErrorInvalidDeviceFunction, "null_device_function",
          "launching NULL: %s", cudaGetErrorName(nk));
    cudaGetLastError();

    check(strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0 &&
              strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0 &&
              strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0,
          "error_names_and_strings", "%s / %s", cudaGetErrorName(cudaErrorInvalidValue),
          cudaGetErrorString(cudaErrorMemoryAllocation));
    check(device_still_works(d) && cudaGetLastError() == cudaSuccess, "device_survives",
          "after every expected error the device must still work");
    cudaEventDestroy(ev);
    cudaFree(d);
    return check_finish();
}
