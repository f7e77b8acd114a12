// callbacks.cu: host work in stream order: cudaStreamAddCallback (with the stream and status it
// receives) and cudaLaunchHostFunc between kernels, checked by the values the host functions
// see and the order in which they run.
#include "check.cuh"

#include <vector>

__global__ void set_all(int *x, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

struct Probe {
    const int *host;   // pinned copy the callback inspects
    int expect;
    bool saw_expected;
    cudaStream_t stream;
    bool saw_stream;
    cudaError_t status;
    std::vector<int> *order;
    int id;
};

static void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void *data)
{
    Probe *p = (Probe *)data;
    p->saw_expected = p->host[0] == p->expect && p->host[63] == p->expect;
    p->saw_stream = stream == p->stream;
    p->status = status;
    p->order->push_back(p->id);
}

static void CUDART_CB host_func(void *data)
{
    Probe *p = (Probe *)data;
    p->saw_expected = p->host[0] == p->expect;
    p->order->push_back(p->id);
}

int main()
{
    const int n = 64;
    int *d, *h;
    CUDA_OK("setup", cudaMalloc(&d, n * sizeof(int)));
    CUDA_OK("setup", cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s;
    CUDA_OK("setup", cudaStreamCreate(&s));
    std::vector<int> order;
    Probe p1 = {h, 5, false, s, false, cudaErrorUnknown, &order, 1};
    Probe p2 = {h, 9, false, s, false, cudaErrorUnknown, &order, 2};
    Probe p3 = {h, 9, false, s, false, cudaErrorUnknown, &order, 3};

    set_all<<<1, n, 0, s>>>(d, n, 5);
    CUDA_OK("copy", cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CUDA_OK("add_callback", cudaStreamAddCallback(s, stream_callback, &p1, 0));
    set_all<<<1, n, 0, s>>>(d, n, 9);
    CUDA_OK("copy", cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CUDA_OK("launch_host_func", cudaLaunchHostFunc(s, host_func, &p2));
    CUDA_OK("add_callback", cudaStreamAddCallback(s, stream_callback, &p3, 0));
    CUDA_OK("sync", cudaStreamSynchronize(s));

    check(p1.saw_expected && p2.saw_expected && p3.saw_expected, "callback_sees_prior_work",
          "a host function ran before the work issued ahead of it");
    check(p1.saw_stream && p1.status == cudaSuccess && p3.status == cudaSuccess,
          "callback_arguments", "stream %d status %s", p1.saw_stream,
          cudaGetErrorName(p1.status));
    check(order.size() == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3,
          "callback_order", "%zu host functions ran", order.size());
    check(cudaStreamAddCallback(s, stream_callback, &p1, 1) == cudaErrorInvalidValue,
          "callback_flags", "flags must be 0");
    cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(h);
    return check_finish();
}
