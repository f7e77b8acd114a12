// illegal_address.cu: a kernel that writes far out of bounds among kernels that behave: the
// launch returns success, cudaDeviceSynchronize returns cudaErrorIllegalAddress, the host
// program keeps running (its own memory untouched), every later call reports the sticky error.
// Under ptxsim cudaDeviceReset then gives a working device back, and a second kind of fault (a
// misaligned access) is reported the same way; on a GPU only a new process can use CUDA again
// (CUDA's documentation of the error; an H100 answered cudaErrorDevicesUnavailable to a
// cudaMalloc after cudaDeviceReset), so the program ends there.
#include "check.cuh"

__global__ void write_at(int *p, long long index, int v)
{
    if (threadIdx.x == 3 && blockIdx.x == 2)
        p[index] = v;
}

__global__ void misaligned(char *p)
{
    *(int *)(p + 1) = 5;
}

__global__ void ok_kernel(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

int main()
{
    const bool ptxsim = on_ptxsim();  // asked now: after the reset a GPU may not answer
    static int host_guard[16];
    for (int i = 0; i < 16; i++)
        host_guard[i] = 99;
    int *d;
    CUDA_OK("setup", cudaMalloc(&d, 256 * sizeof(int)));
    ok_kernel<<<1, 256>>>(d);
    write_at<<<4, 32>>>(d, 1LL << 36, 1);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    check(launch == cudaSuccess || launch == cudaErrorIllegalAddress, "oob_launch",
          "launch %s", cudaGetErrorName(launch));
    check(sync == cudaErrorIllegalAddress, "oob_sync_reports", "got %s", cudaGetErrorName(sync));
    bool guard = true;
    for (int i = 0; i < 16; i++)
        guard = guard && host_guard[i] == 99;
    check(guard, "host_memory_untouched", "the stray write reached host memory");
    int h[4];
    check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress &&
              cudaStreamSynchronize(0) == cudaErrorIllegalAddress &&
              cudaGetLastError() == cudaErrorIllegalAddress,
          "oob_sticky", "calls after the fault must keep failing");

    CUDA_OK("reset", cudaDeviceReset());
    if (!ptxsim)
        return check_finish();
    CUDA_OK("after_reset", cudaMalloc(&d, 256 * sizeof(int)));
    ok_kernel<<<1, 256>>>(d);
    int back[256];
    CUDA_OK("after_reset", cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 256; i++)
        ok = ok && back[i] == i;
    check(ok, "reset_recovers", "kernel after cudaDeviceReset");

    char *c;
    CUDA_OK("setup", cudaMalloc(&c, 64));
    misaligned<<<1, 1>>>(c);
    cudaError_t mis = cudaDeviceSynchronize();
    check(mis == cudaErrorMisalignedAddress, "misaligned_reported", "got %s",
          cudaGetErrorName(mis));
    CUDA_OK("reset", cudaDeviceReset());
    return check_finish();
}
