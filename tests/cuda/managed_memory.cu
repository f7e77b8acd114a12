// managed_memory.cu: unified memory: cudaMallocManaged buffers that host code and kernels both
// read and write (a linked list built on the host and walked on the device), __managed__
// variables, prefetch and advice hints, and the pointer attributes.
#include "check.cuh"

struct Node {
    int value;
    Node *next;
};

__managed__ int m_total;
__managed__ int m_vec[16];

__global__ void walk(const Node *head)
{
    int s = 0;
    for (const Node *p = head; p; p = p->next)
        s += p->value;
    m_total = s;
}

__global__ void bump(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += i;
    if (i < 16)
        m_vec[i] *= 2;
}

int main()
{
    const int n = 10;
    Node *nodes;
    CUDA_OK("managed_alloc", cudaMallocManaged(&nodes, n * sizeof(Node)));
    int expect = 0;
    for (int i = 0; i < n; i++) {
        nodes[i].value = i * i;
        nodes[i].next = i + 1 < n ? &nodes[i + 1] : nullptr;
        expect += i * i;
    }
    walk<<<1, 1>>>(nodes);
    CUDA_OK("sync", cudaDeviceSynchronize());
    check(m_total == expect, "managed_linked_list", "walked %d, expected %d", m_total, expect);

    int *x;
    const int m = 1000;
    CUDA_OK("managed_alloc", cudaMallocManaged(&x, m * sizeof(int), cudaMemAttachGlobal));
    for (int i = 0; i < m; i++)
        x[i] = 1;
    for (int i = 0; i < 16; i++)
        m_vec[i] = i;
    cudaMemLocation dev = {};
    dev.type = cudaMemLocationTypeDevice;
    dev.id = 0;
    CUDA_OK("hints", cudaMemAdvise(x, m * sizeof(int), cudaMemAdviseSetPreferredLocation, dev));
    CUDA_OK("hints", cudaMemPrefetchAsync(x, m * sizeof(int), dev, 0, 0));
    bump<<<(m + 255) / 256, 256>>>(x, m);
    CUDA_OK("sync", cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < m && ok; i++)
        ok = x[i] == 1 + i;
    for (int i = 0; i < 16 && ok; i++)
        ok = m_vec[i] == 2 * i;
    check(ok, "managed_host_device_same_bytes", "values after the kernel");

    cudaPointerAttributes a;
    CUDA_OK("attributes", cudaPointerGetAttributes(&a, x));
    check(a.type == cudaMemoryTypeManaged && a.devicePointer == x && a.hostPointer == x,
          "managed_attributes", "type %d", (int)a.type);

    // A managed buffer is also an ordinary source and destination of cudaMemcpy.
    int tmp[4] = {9, 8, 7, 6};
    CUDA_OK("memcpy", cudaMemcpy(x, tmp, sizeof tmp, cudaMemcpyDefault));
    check(x[0] == 9 && x[3] == 6 && x[4] == 5, "managed_memcpy", "%d %d %d", x[0], x[3], x[4]);
    // A zero-byte managed allocation is no error to CUDA 13's runtime (an H100 with the CUDA
    // 13.0 runtime accepts it), though its reference says cudaErrorInvalidValue; ptxsim then
    // hands out NULL, as cudaMalloc does for zero bytes.
    int *z = x;
    cudaError_t ez = cudaMallocManaged(&z, 0);
    check(ez == cudaSuccess && (!on_ptxsim() || z == nullptr), "managed_zero_size",
          "got %s, pointer %p", cudaGetErrorName(ez), (void *)z);
    if (ez == cudaSuccess)
        cudaFree(z);
    cudaGetLastError();
    cudaFree(nodes);
    return check_finish();
}
