// memory_pools.cu: stream-ordered allocation: cudaMallocAsync / cudaFreeAsync from the
// device's default pool with kernels in between; the pool's attributes (memory used and
// reserved, their high-water marks, the release threshold) and cudaMemPoolTrimTo; an explicit
// pool made with cudaMemPoolCreate, allocated from with cudaMallocFromPoolAsync and set as the
// device's current pool.
#include "check.cuh"

__global__ void iota(int *x, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = base + i;
}

__global__ void sum_into(const int *x, int n, int *out)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *out = s;
}

static unsigned long long attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
    unsigned long long v = 0;
    cudaMemPoolGetAttribute(p, a, &v);
    return v;
}

int main()
{
    int supported = 0;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    check(supported == 1, "pools_supported", "attribute %d", supported);
    cudaStream_t s;
    CUDA_OK("setup", cudaStreamCreate(&s));
    cudaMemPool_t def, cur;
    CUDA_OK("default_pool", cudaDeviceGetDefaultMemPool(&def, 0));
    CUDA_OK("default_pool", cudaDeviceGetMemPool(&cur, 0));
    check(def != nullptr && def == cur, "default_is_current", "default %p current %p",
          (void *)def, (void *)cur);

    const int n = 1000;
    int *a, *b, *res, h = 0;
    CUDA_OK("malloc_async", cudaMallocAsync(&a, n * sizeof(int), s));
    CUDA_OK("malloc_async", cudaMallocAsync(&b, n * sizeof(int), s));
    CUDA_OK("malloc_async", cudaMallocAsync(&res, sizeof(int), s));
    unsigned long long used = attr(def, cudaMemPoolAttrUsedMemCurrent);
    check(used >= 2 * n * sizeof(int) + sizeof(int), "pool_used_memory", "used %llu", used);
    iota<<<(n + 255) / 256, 256, 0, s>>>(a, n, 1);
    CUDA_OK("d2d", cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    sum_into<<<1, 1, 0, s>>>(b, n, res);
    CUDA_OK("result", cudaMemcpyAsync(&h, res, sizeof h, cudaMemcpyDeviceToHost, s));
    CUDA_OK("free_async", cudaFreeAsync(a, s));
    CUDA_OK("free_async", cudaFreeAsync(b, s));
    CUDA_OK("free_async", cudaFreeAsync(res, s));
    CUDA_OK("sync", cudaStreamSynchronize(s));
    check(h == n * (n + 1) / 2, "stream_ordered_result", "sum %d", h);
    check(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0 &&
              attr(def, cudaMemPoolAttrUsedMemHigh) >= used,
          "pool_after_free", "used %llu, high %llu",
          attr(def, cudaMemPoolAttrUsedMemCurrent), attr(def, cudaMemPoolAttrUsedMemHigh));

    // With a release threshold the pool keeps freed memory reserved across synchronisation.
    // A GPU's pool reserves whole chunks (2 MiB or more), and a chunk above the threshold is
    // released whole, so the threshold keeps everything (UINT64_MAX, as CUDA's guides set it):
    // with 1 MiB an H100 released all of it.
    unsigned long long threshold = ~0ull;
    CUDA_OK("threshold", cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold,
                                                 &threshold));
    int *c;
    CUDA_OK("threshold", cudaMallocAsync(&c, 4096, s));
    CUDA_OK("threshold", cudaFreeAsync(c, s));
    CUDA_OK("threshold", cudaStreamSynchronize(s));
    unsigned long long kept = attr(def, cudaMemPoolAttrReservedMemCurrent);
    CUDA_OK("trim", cudaMemPoolTrimTo(def, 0));
    check(kept >= 4096 && attr(def, cudaMemPoolAttrReservedMemCurrent) == 0,
          "release_threshold_and_trim", "kept %llu, after trim %llu", kept,
          attr(def, cudaMemPoolAttrReservedMemCurrent));

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CUDA_OK("pool_create", cudaMemPoolCreate(&mine, &props));
    int *p;
    CUDA_OK("from_pool", cudaMallocFromPoolAsync(&p, 256 * sizeof(int), mine, s));
    iota<<<1, 256, 0, s>>>(p, 256, 10);
    int back[256];
    CUDA_OK("from_pool", cudaMemcpyAsync(back, p, sizeof back, cudaMemcpyDeviceToHost, s));
    CUDA_OK("from_pool", cudaStreamSynchronize(s));
    check(back[0] == 10 && back[255] == 265 &&
              attr(mine, cudaMemPoolAttrUsedMemCurrent) == 256 * sizeof(int) &&
              attr(def, cudaMemPoolAttrUsedMemCurrent) == 0,
          "explicit_pool", "used %llu", attr(mine, cudaMemPoolAttrUsedMemCurrent));
    CUDA_OK("set_pool", cudaDeviceSetMemPool(0, mine));
    int *q;
    CUDA_OK("set_pool", cudaMallocAsync(&q, 64, s));
    check(attr(mine, cudaMemPoolAttrUsedMemCurrent) == 256 * sizeof(int) + 64,
          "current_pool_used", "used %llu", attr(mine, cudaMemPoolAttrUsedMemCurrent));
    CUDA_OK("cleanup", cudaFreeAsync(q, s));
    CUDA_OK("cleanup", cudaFreeAsync(p, s));
    CUDA_OK("cleanup", cudaStreamSynchronize(s));
    CUDA_OK("cleanup", cudaDeviceSetMemPool(0, def));
    CUDA_OK("cleanup", cudaMemPoolDestroy(mine));
    cudaStreamDestroy(s);
    return check_finish();
}
