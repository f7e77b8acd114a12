// device_malloc.cu: the device heap: malloc and free inside kernels, new/delete of arrays, a
// list built by one kernel and consumed by a later one (heap memory outlives the kernel), and
// the heap-size limit.
#include "check.cuh"

struct Item {
    int value;
    Item *next;
};

__device__ Item *g_list[4];

__global__ void per_thread_buffers(int *out)
{
    int t = threadIdx.x;
    int *buf = (int *)malloc((t + 1) * sizeof(int));
    if (!buf) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i <= t; i++)
        buf[i] = i;
    int s = 0;
    for (int i = 0; i <= t; i++)
        s += buf[i];
    free(buf);
    out[t] = s;
}

__global__ void build_lists(int len)
{
    Item *head = nullptr;
    for (int i = 0; i < len; i++) {
        Item *it = new Item;
        it->value = threadIdx.x * 100 + i;
        it->next = head;
        head = it;
    }
    g_list[threadIdx.x] = head;
}

__global__ void consume_lists(int *sums)
{
    int s = 0;
    Item *p = g_list[threadIdx.x];
    while (p) {
        s += p->value;
        Item *n = p->next;
        delete p;
        p = n;
    }
    sums[threadIdx.x] = s;
}

__global__ void array_new(double *out)
{
    double *a = new double[8];
    for (int i = 0; i < 8; i++)
        a[i] = i * 0.5;
    double s = 0;
    for (int i = 0; i < 8; i++)
        s += a[i];
    delete[] a;
    out[threadIdx.x] = s;
}

int main()
{
    CUDA_OK("heap_limit", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
    size_t heap = 0;
    CUDA_OK("heap_limit", cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    check(heap >= (16u << 20), "heap_limit", "%zu bytes", heap);

    int *dout, out[64];
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    per_thread_buffers<<<1, 64>>>(dout);
    CUDA_OK("malloc", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < 64; t++)
        ok = ok && out[t] == t * (t + 1) / 2;
    check(ok, "device_malloc_free", "out[10] = %d", out[10]);

    const int len = 20;
    build_lists<<<1, 4>>>(len);
    consume_lists<<<1, 4>>>(dout);
    CUDA_OK("lists", cudaMemcpy(out, dout, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < 4; t++)
        ok = ok && out[t] == t * 100 * len + len * (len - 1) / 2;
    check(ok, "heap_outlives_kernel", "sums %d %d", out[0], out[3]);

    double *dd, hd[32];
    CUDA_OK("setup", cudaMalloc(&dd, sizeof hd));
    array_new<<<1, 32>>>(dd);
    CUDA_OK("new", cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < 32; t++)
        ok = ok && hd[t] == 14.0;
    check(ok, "device_new_delete_array", "hd[0] = %f", hd[0]);
    cudaFree(dout);
    cudaFree(dd);
    return check_finish();
}
