// runtime_api.cu: the CUDA runtime's behaviour around the kernels: device properties, error
// codes and the last-error rules, copy directions, launch-configuration limits, dynamic shared
// memory opt-in, __constant__/__device__/__managed__ variables, pinned and managed memory,
// streams, events and function attributes. Expected values are those CUDA documents, or, where
// CUDA 13's runtime answers otherwise, what it answers on a GPU.
#include "check.cuh"

#include <cstring>
#include <vector>

__constant__ int scale[4];
__device__ int counter;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__managed__ int managed_total;

__global__ void apply_scale(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = v[i] * scale[i % 4] + (int)table[i % 8];
        atomicAdd(&counter, 1);
        atomicAdd(&managed_total, v[i]);
    }
}

__global__ void fill(int *v, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = value;
}

// Uses more dynamic shared memory than the default 48 KiB when asked to.
__global__ void big_smem(int *out, int words)
{
    extern __shared__ int buf[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        buf[i] = i;
    __syncthreads();
    int s = 0;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        s += buf[words - 1 - i];
    atomicAdd(out, s);
}

__global__ void __launch_bounds__(128) bounded(int *v)
{
    v[threadIdx.x] = threadIdx.x;
}

static void device_properties(void)
{
    int count = 0;
    CUDA_OK("device_count", cudaGetDeviceCount(&count));
    check(count >= 1, "device_count", "%d devices", count);
    cudaDeviceProp p;
    CUDA_OK("device_properties", cudaGetDeviceProperties(&p, 0));
    check(p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.sharedMemPerBlock == 48 * 1024 &&
              p.maxThreadsDim[2] == 64 && p.maxGridSize[1] == 65535 && p.multiProcessorCount > 0 &&
              p.major >= 2 && p.totalGlobalMem > 0 && p.sharedMemPerBlockOptin >= 48 * 1024,
          "device_properties",
          "warpSize %d, maxThreadsPerBlock %d, sharedMemPerBlock %zu, SMs %d, cc %d.%d",
          p.warpSize, p.maxThreadsPerBlock, p.sharedMemPerBlock, p.multiProcessorCount, p.major,
          p.minor);
    int v = 0;
    CUDA_OK("device_attribute", cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    check(v == p.multiProcessorCount, "device_attribute", "%d SMs vs %d", v,
          p.multiProcessorCount);
    check(cudaSetDevice(count) == cudaErrorInvalidDevice, "set_invalid_device",
          "cudaSetDevice(%d) did not fail with cudaErrorInvalidDevice", count);
    cudaGetLastError();
    int rt = 0;
    CUDA_OK("runtime_version", cudaRuntimeGetVersion(&rt));
    check(rt >= 13000, "runtime_version", "%d", rt);
}

static void error_rules(void)
{
    check(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0 &&
              strcmp(cudaGetErrorName(cudaErrorMemoryAllocation),
                     "cudaErrorMemoryAllocation") == 0 &&
              strcmp(cudaGetErrorString(cudaErrorIllegalAddress),
                     "an illegal memory access was encountered") == 0,
          "error_strings", "%s / %s", cudaGetErrorString(cudaErrorInvalidValue),
          cudaGetErrorName(cudaErrorMemoryAllocation));

    int on_stack = 0;
    cudaError_t e = cudaFree(&on_stack);
    cudaError_t last = cudaGetLastError();
    cudaError_t after = cudaGetLastError();
    check(e == cudaErrorInvalidValue && last == cudaErrorInvalidValue && after == cudaSuccess,
          "last_error_reset", "cudaFree(stack) = %s, then %s, then %s", cudaGetErrorName(e),
          cudaGetErrorName(last), cudaGetErrorName(after));

    check(cudaFree(nullptr) == cudaSuccess, "free_null", "cudaFree(NULL) failed");

    int *d;
    CUDA_OK("memcpy_direction", cudaMalloc(&d, 16 * sizeof(int)));
    int host[16] = {0};
    e = cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice);  // host is no device memory
    check(e == cudaErrorInvalidValue, "memcpy_direction", "got %s", cudaGetErrorName(e));
    e = cudaMemcpy(d, host, 17 * sizeof(int), cudaMemcpyHostToDevice);  // one int too many
    check(e == cudaErrorInvalidValue, "memcpy_past_allocation", "got %s", cudaGetErrorName(e));
    cudaGetLastError();
    cudaFree(d);

    void *big = nullptr;
    e = cudaMalloc(&big, (size_t)1 << 50);
    check(e == cudaErrorMemoryAllocation && cudaGetLastError() == cudaErrorMemoryAllocation,
          "malloc_too_much", "got %s", cudaGetErrorName(e));
}

static void launch_limits(void)
{
    // A grid or block the device cannot have: CUDA 13's runtime reports cudaErrorInvalidValue
    // (an H100 with the CUDA 13.0 runtime and driver 580 does); the runtimes before it reported
    // cudaErrorInvalidConfiguration.
    const cudaError_t bad_config =
        CUDART_VERSION >= 13000 ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
    int *d;
    CUDA_OK("launch_limits", cudaMalloc(&d, 1024 * sizeof(int)));
    fill<<<1, 2048>>>(d, 1024, 1);
    cudaError_t e = cudaGetLastError();
    check(e == bad_config, "launch_block_too_big", "got %s", cudaGetErrorName(e));
    fill<<<dim3(1, 70000), 32>>>(d, 1024, 1);
    e = cudaGetLastError();
    check(e == bad_config, "launch_grid_too_big", "got %s", cudaGetErrorName(e));
    fill<<<0, 32>>>(d, 1024, 1);
    e = cudaGetLastError();
    check(e == bad_config, "launch_zero_grid", "got %s", cudaGetErrorName(e));

    // Over 48 KiB of dynamic shared memory needs the opt-in attribute.
    cudaDeviceProp p;
    CUDA_OK("dynamic_smem_opt_in", cudaGetDeviceProperties(&p, 0));
    int words = 56 * 1024 / 4;
    big_smem<<<1, 128, words * 4>>>(d, words);
    e = cudaGetLastError();
    check(e == cudaErrorInvalidValue, "dynamic_smem_needs_opt_in", "got %s", cudaGetErrorName(e));
    if (p.sharedMemPerBlockOptin >= (size_t)words * 4) {
        CUDA_OK("dynamic_smem_opt_in",
                cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     words * 4));
        CUDA_OK("dynamic_smem_opt_in", cudaMemset(d, 0, sizeof(int)));
        big_smem<<<2, 128, words * 4>>>(d, words);
        CUDA_OK("dynamic_smem_opt_in", cudaGetLastError());
        int got = 0;
        CUDA_OK("dynamic_smem_opt_in", cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost));
        long long want = 2LL * words * (words - 1) / 2;
        check(got == (int)want, "dynamic_smem_opt_in", "sum %d, expected %lld", got, want);
    }

    cudaFuncAttributes fa;
    CUDA_OK("func_attributes", cudaFuncGetAttributes(&fa, bounded));
    check(fa.maxThreadsPerBlock == 128, "func_attributes", "maxThreadsPerBlock %d",
          fa.maxThreadsPerBlock);
    bounded<<<1, 256>>>(d);
    e = cudaGetLastError();
    check(e != cudaSuccess, "launch_bounds_enforced", "a 256-thread block of a kernel bounded "
          "to 128 threads launched");
    int blocks = 0;
    CUDA_OK("occupancy",
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
    check(blocks >= 1 && blocks * 256 <= p.maxThreadsPerMultiProcessor, "occupancy",
          "%d blocks of 256 threads per SM", blocks);
    cudaFree(d);
}

static void variables_and_memory(void)
{
    const int n = 100;
    int h_scale[4] = {1, -2, 3, 10};
    CUDA_OK("symbols", cudaMemcpyToSymbol(scale, h_scale, sizeof h_scale));
    int zero = 0;
    CUDA_OK("symbols", cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    managed_total = 0;  // the host writes a __managed__ variable directly

    // Pinned host memory, written by the host and transformed in place by a kernel through
    // its device pointer.
    int *pinned, *dev_view;
    CUDA_OK("pinned_memory", cudaHostAlloc((void **)&pinned, n * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < n; i++)
        pinned[i] = i;
    CUDA_OK("pinned_memory", cudaHostGetDevicePointer((void **)&dev_view, pinned, 0));
    apply_scale<<<4, 32>>>(dev_view, n);
    CUDA_OK("pinned_memory", cudaDeviceSynchronize());
    long long want_total = 0;
    int bad = -1;
    for (int i = 0; i < n; i++) {
        int want = i * h_scale[i % 4] + (i % 8) + 1;
        want_total += want;
        if (pinned[i] != want && bad < 0)
            bad = i;
    }
    check(bad < 0, "pinned_memory_kernel", "element %d = %d", bad, bad < 0 ? 0 : pinned[bad]);

    int count = -1;
    CUDA_OK("symbols", cudaMemcpyFromSymbol(&count, counter, sizeof count));
    check(count == n, "device_variable", "counter %d, expected %d", count, n);
    check(managed_total == want_total, "managed_variable", "total %d, expected %lld",
          managed_total, want_total);

    float *table_addr = nullptr;
    size_t table_size = 0;
    CUDA_OK("symbol_address", cudaGetSymbolAddress((void **)&table_addr, table));
    CUDA_OK("symbol_address", cudaGetSymbolSize(&table_size, table));
    float t[8];
    CUDA_OK("symbol_address", cudaMemcpy(t, table_addr, sizeof t, cudaMemcpyDeviceToHost));
    check(table_size == sizeof t && t[0] == 1 && t[7] == 8, "symbol_address",
          "size %zu, table[0] %g, table[7] %g", table_size, t[0], t[7]);
    cudaError_t e = cudaMemcpyToSymbol(scale, h_scale, sizeof h_scale, sizeof(int));
    check(e == cudaErrorInvalidValue, "symbol_bounds", "got %s", cudaGetErrorName(e));
    cudaGetLastError();

    // Managed memory: written by the host, updated by a kernel, read back without a copy.
    int *m;
    CUDA_OK("managed_memory", cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        m[i] = -1;
    fill<<<1, 64>>>(m, 50, 7);
    CUDA_OK("managed_memory", cudaDeviceSynchronize());
    bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (m[i] != (i < 50 ? 7 : -1))
            bad = i;
    check(bad < 0, "managed_memory", "m[%d] = %d", bad, bad < 0 ? 0 : m[bad]);
    cudaPointerAttributes pa;
    CUDA_OK("pointer_attributes", cudaPointerGetAttributes(&pa, m));
    check(pa.type == cudaMemoryTypeManaged, "pointer_attributes", "type %d", (int)pa.type);
    cudaFree(m);
    cudaFreeHost(pinned);

    size_t free_b = 0, total_b = 0;
    CUDA_OK("mem_info", cudaMemGetInfo(&free_b, &total_b));
    check(total_b > 0 && free_b <= total_b, "mem_info", "free %zu of %zu", free_b, total_b);
}

static void streams_and_events(void)
{
    const int n = 4096;
    cudaStream_t s;
    cudaEvent_t start, stop;
    CUDA_OK("streams", cudaStreamCreate(&s));
    CUDA_OK("events", cudaEventCreate(&start));
    CUDA_OK("events", cudaEventCreate(&stop));
    int *d, *h;
    CUDA_OK("streams", cudaMalloc(&d, n * sizeof(int)));
    CUDA_OK("streams", cudaMallocHost(&h, n * sizeof(int)));
    CUDA_OK("events", cudaEventRecord(start, s));
    CUDA_OK("streams", cudaMemsetAsync(d, 0, n * sizeof(int), s));
    fill<<<n / 256, 256, 0, s>>>(d, n - 1, 42);
    CUDA_OK("streams", cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CUDA_OK("events", cudaEventRecord(stop, s));
    CUDA_OK("streams", cudaStreamSynchronize(s));
    check(h[0] == 42 && h[n - 2] == 42 && h[n - 1] == 0, "stream_ordering",
          "h[0]=%d h[n-2]=%d h[n-1]=%d", h[0], h[n - 2], h[n - 1]);
    float ms = -1;
    CUDA_OK("events", cudaEventSynchronize(stop));
    CUDA_OK("events", cudaEventElapsedTime(&ms, start, stop));
    check(ms >= 0.0f, "event_elapsed_time", "%f ms", ms);
    check(cudaStreamQuery(s) == cudaSuccess && cudaEventQuery(stop) == cudaSuccess,
          "stream_event_query", "work still pending after synchronisation");
    CUDA_OK("streams", cudaStreamDestroy(s));
    CUDA_OK("events", cudaEventDestroy(start));
    CUDA_OK("events", cudaEventDestroy(stop));
    cudaFree(d);
    cudaFreeHost(h);
}

int main()
{
    device_properties();
    error_rules();
    launch_limits();
    variables_and_memory();
    streams_and_events();
    return check_finish();
}
