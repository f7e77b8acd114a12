// device_limits.cu: cudaDeviceSetLimit values are either carried out (cudaDeviceGetLimit then
// reports them, and device code sees them) or refused with the driver's error, leaving the
// limit as it was. On a 16 GiB device (--gpu=v100) a 16 GiB heap cannot be set aside: the call
// fails with cudaErrorMemoryAllocation instead of succeeding and leaving every device malloc to
// return NULL. That, and the memory each limit sets aside at once, is ptxsim's model (a GPU's
// driver sets the heap aside later, at a launch, and accepts the call): those checks run only
// under ptxsim.
// ptxsim: --gpu=v100
// compare: no (a 2 GiB device heap, which compare mode would copy twice for every launch)
#include "check.cuh"

__global__ void grab(size_t bytes, unsigned long long *out)
{
    void *p = malloc(bytes);
    out[threadIdx.x] = (unsigned long long)p;
    if (p) free(p);
}

int main()
{
    const size_t GiB = size_t(1) << 30;
    size_t v = 0, total = 0, free_b = 0;
    CUDA_OK("mem_info", cudaMemGetInfo(&free_b, &total));
    cudaError_t e;
    if (on_ptxsim()) {
        check(total == 16 * GiB, "device_memory_is_the_models", "%zu bytes", total);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 * GiB);
        check(e == cudaErrorMemoryAllocation, "heap_of_all_memory_refused", "got %s",
              cudaGetErrorName(e));
        cudaGetLastError();
        CUDA_OK("get_heap", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
        check(v == (8u << 20), "refused_heap_keeps_limit", "%zu bytes", v);
    }

    // a large heap that fits is set aside at once and serves large device mallocs
    CUDA_OK("set_heap", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 * GiB));
    CUDA_OK("get_heap", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    check(v == 2 * GiB, "heap_limit_reported", "%zu bytes", v);
    size_t free_after = 0;
    CUDA_OK("mem_info", cudaMemGetInfo(&free_after, &total));
    if (on_ptxsim())
        check(free_b - free_after >= 2 * GiB, "heap_set_aside", "free went from %zu to %zu",
              free_b, free_after);
    unsigned long long *d, h[2];
    CUDA_OK("malloc", cudaMalloc(&d, sizeof h));
    grab<<<1, 1>>>(GiB, d);
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h[0], cudaMemcpyDeviceToHost));
    check(h[0] != 0, "device_malloc_from_large_heap", "malloc(1 GiB) returned NULL");
    grab<<<1, 1>>>(3 * GiB, d);
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h[0], cudaMemcpyDeviceToHost));
    check(h[0] == 0, "device_malloc_beyond_heap_null", "malloc(3 GiB) from a 2 GiB heap: %llx",
          h[0]);

    // a stack beyond the 512 KiB of local memory a thread can have (cudaErrorInvalidValue,
    // as an H100 with the CUDA 13.0 runtime answers), and, on ptxsim's 16 GiB model, one that
    // fits a thread but not a GPU-full of them, and a printf FIFO larger than the device
    CUDA_OK("get_stack", cudaDeviceGetLimit(&v, cudaLimitStackSize));
    size_t stack = v;
    e = cudaDeviceSetLimit(cudaLimitStackSize, 1 * GiB);
    check(e == cudaErrorInvalidValue, "huge_stack_refused", "got %s", cudaGetErrorName(e));
    cudaGetLastError();
    if (on_ptxsim()) {
        e = cudaDeviceSetLimit(cudaLimitStackSize, 256 * 1024);   // x 163840 threads: 40 GiB
        check(e == cudaErrorMemoryAllocation, "stack_beyond_memory_refused", "got %s",
              cudaGetErrorName(e));
        cudaGetLastError();
    }
    CUDA_OK("get_stack", cudaDeviceGetLimit(&v, cudaLimitStackSize));
    check(v == stack, "refused_stack_keeps_limit", "%zu bytes", v);
    CUDA_OK("set_stack", cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    CUDA_OK("get_stack", cudaDeviceGetLimit(&v, cudaLimitStackSize));
    check(v == 8192, "stack_limit_reported", "%zu bytes", v);
    if (on_ptxsim()) {
        e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 32 * GiB);
        check(e == cudaErrorMemoryAllocation, "huge_printf_fifo_refused", "got %s",
              cudaGetErrorName(e));
        cudaGetLastError();
    }
    e = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256);
    check(e == cudaErrorInvalidValue, "l2_fetch_granularity_bounded", "got %s",
          cudaGetErrorName(e));
    cudaGetLastError();
    // a value that names no limit: cudaErrorInvalidValue (an H100 with the CUDA 13.0 runtime
    // answers so; cudaErrorUnsupportedLimit is for a limit the device lacks)
    e = cudaDeviceSetLimit((cudaLimit)99, 1);
    check(e == cudaErrorInvalidValue, "unknown_limit", "got %s", cudaGetErrorName(e));
    cudaGetLastError();
    cudaFree(d);
    return check_finish();
}
