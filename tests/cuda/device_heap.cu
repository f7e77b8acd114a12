// device_heap.cu: the size of the device heap. cudaLimitMallocHeapSize is 8 MiB by default and
// bounds what malloc in kernels can hand out (with per-block overhead, a request as large as
// the heap fails): malloc returns NULL when the heap is exhausted, free makes room again, the
// limit cannot change once a kernel has used the heap (cudaErrorInvalidValue) until
// cudaDeviceReset, and blocks are 16-byte aligned, distinct and usable from later kernels.
#include "check.cuh"

#include <algorithm>
#include <vector>

__global__ void grab(size_t bytes, unsigned long long *out)
{
    out[threadIdx.x] = (unsigned long long)malloc(bytes);
}

__global__ void fill_blocks(unsigned long long *ptrs, size_t words)
{
    unsigned *p = (unsigned *)ptrs[blockIdx.x];
    if (!p) return;
    for (size_t i = threadIdx.x; i < words; i += blockDim.x) p[i] = blockIdx.x * 65536u + (unsigned)i;
}

__global__ void check_and_free(unsigned long long *ptrs, size_t words, int *bad)
{
    unsigned *p = (unsigned *)ptrs[blockIdx.x];
    if (!p) return;
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
        if (p[i] != blockIdx.x * 65536u + (unsigned)i) atomicAdd(bad, 1);
    __syncthreads();
    if (threadIdx.x == 0) free(p);
}

__global__ void free_all(unsigned long long *ptrs)
{
    free((void *)ptrs[threadIdx.x]);  // free(NULL) is allowed
}

// churn: every thread allocates, writes and frees blocks of varying sizes many times
__global__ void churn(int rounds, int *fails)
{
    for (int r = 0; r < rounds; r++) {
        size_t n = 16 + ((threadIdx.x * 7 + r * 13) % 50) * 16;
        unsigned char *p = (unsigned char *)malloc(n);
        if (!p) {
            atomicAdd(fails, 1);
            continue;
        }
        for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(threadIdx.x + i);
        for (size_t i = 0; i < n; i++)
            if (p[i] != (unsigned char)(threadIdx.x + i)) atomicAdd(fails, 1000);
        free(p);
    }
}

int main()
{
    size_t heap = 0;
    CUDA_OK("get_limit", cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    check(heap == (8u << 20), "heap_default_8mib", "%zu bytes", heap);

    // a 4 MiB heap, set before any kernel uses malloc
    CUDA_OK("set_limit", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4u << 20));
    CUDA_OK("get_limit", cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    check(heap == (4u << 20), "heap_limit_set", "%zu bytes", heap);

    unsigned long long *dptrs, ptrs[256];
    CUDA_OK("malloc", cudaMalloc(&dptrs, sizeof ptrs));
    grab<<<1, 2>>>(4u << 20, dptrs);  // as large as the heap: no room for the overhead
    CUDA_OK("copy", cudaMemcpy(ptrs, dptrs, 2 * sizeof ptrs[0], cudaMemcpyDeviceToHost));
    check(ptrs[0] == 0 && ptrs[1] == 0, "malloc_heap_size_fails", "got %llx %llx", ptrs[0], ptrs[1]);

    grab<<<1, 8>>>(1u << 20, dptrs);  // eight 1 MiB blocks: at most three fit
    CUDA_OK("copy", cudaMemcpy(ptrs, dptrs, 8 * sizeof ptrs[0], cudaMemcpyDeviceToHost));
    int got = 0;
    for (int i = 0; i < 8; i++) got += ptrs[i] != 0;
    check(got >= 1 && got <= 3, "malloc_null_when_exhausted", "%d of 8 1-MiB blocks from a 4 MiB heap", got);
    free_all<<<1, 8>>>(dptrs);
    grab<<<1, 3>>>(1u << 20, dptrs);  // freed: the room is back
    CUDA_OK("copy", cudaMemcpy(ptrs, dptrs, 3 * sizeof ptrs[0], cudaMemcpyDeviceToHost));
    int again = 0;
    for (int i = 0; i < 3; i++) again += ptrs[i] != 0;
    check(again == got || again == 3, "free_returns_room", "%d blocks after freeing (had %d)", again, got);
    free_all<<<1, 3>>>(dptrs);
    CUDA_OK("sync", cudaDeviceSynchronize());

    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20);
    check(e == cudaErrorInvalidValue, "heap_limit_fixed_after_use", "got %s", cudaGetErrorName(e));
    cudaGetLastError();

    // after a reset the heap can be resized: 64 MiB for 256 blocks of 128 KiB
    CUDA_OK("reset", cudaDeviceReset());
    CUDA_OK("set_limit_after_reset", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20));
    CUDA_OK("malloc", cudaMalloc(&dptrs, sizeof ptrs));
    const size_t bytes = 128u << 10;
    grab<<<1, 256>>>(bytes, dptrs);
    CUDA_OK("copy", cudaMemcpy(ptrs, dptrs, sizeof ptrs, cudaMemcpyDeviceToHost));
    std::vector<unsigned long long> v(ptrs, ptrs + 256);
    bool all = std::all_of(v.begin(), v.end(), [](unsigned long long p) { return p != 0; });
    bool aligned = std::all_of(v.begin(), v.end(), [](unsigned long long p) { return p % 16 == 0; });
    std::sort(v.begin(), v.end());
    bool disjoint = true;
    for (int i = 1; i < 256; i++) disjoint = disjoint && v[i] - v[i - 1] >= bytes;
    check(all && aligned && disjoint, "malloc_blocks_distinct_aligned",
          "all %d aligned %d disjoint %d", all, aligned, disjoint);
    int *dbad, bad = 0;
    CUDA_OK("malloc", cudaMalloc(&dbad, sizeof bad));
    CUDA_OK("memset", cudaMemset(dbad, 0, sizeof bad));
    fill_blocks<<<256, 64>>>(dptrs, bytes / 4);
    check_and_free<<<256, 64>>>(dptrs, bytes / 4, dbad);
    CUDA_OK("copy", cudaMemcpy(&bad, dbad, sizeof bad, cudaMemcpyDeviceToHost));
    check(bad == 0, "heap_blocks_keep_data_across_kernels", "%d words differ", bad);

    CUDA_OK("memset", cudaMemset(dbad, 0, sizeof bad));
    churn<<<2, 128>>>(20, dbad);
    CUDA_OK("copy", cudaMemcpy(&bad, dbad, sizeof bad, cudaMemcpyDeviceToHost));
    check(bad == 0, "malloc_free_churn", "%d failures", bad);
    cudaFree(dptrs);
    cudaFree(dbad);
    return check_finish();
}
