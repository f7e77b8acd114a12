// per_thread_stream.cu: the per-thread default stream: host threads that each issue kernels
// and copies to cudaStreamPerThread at once, a capture of cudaStreamPerThread into a graph,
// and cudaStreamLegacy as an explicit handle.
#include "check.cuh"

#include <thread>
#include <vector>

__global__ void fill(int *x, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v + i;
}

static void worker(int id, bool *ok)
{
    const int n = 300;
    int *d;
    std::vector<int> h(n);
    *ok = cudaMalloc(&d, n * sizeof(int)) == cudaSuccess;
    for (int rep = 0; rep < 3 && *ok; rep++) {
        fill<<<(n + 127) / 128, 128, 0, cudaStreamPerThread>>>(d, n, id * 1000 + rep);
        *ok = cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost,
                              cudaStreamPerThread) == cudaSuccess &&
              cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
        for (int i = 0; i < n && *ok; i++)
            *ok = h[i] == id * 1000 + rep + i;
    }
    cudaFree(d);
}

int main()
{
    const int nthreads = 3;
    bool ok[nthreads];
    std::vector<std::thread> ts;
    for (int t = 0; t < nthreads; t++)
        ts.emplace_back(worker, t, &ok[t]);
    for (auto &t : ts)
        t.join();
    check(ok[0] && ok[1] && ok[2], "per_thread_streams", "a host thread saw wrong values");

    int *d, h[64];
    CUDA_OK("setup", cudaMalloc(&d, sizeof h));
    CUDA_OK("capture", cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal));
    fill<<<1, 64, 0, cudaStreamPerThread>>>(d, 64, 5);
    CUDA_OK("capture", cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    cudaGraph_t g;
    CUDA_OK("capture", cudaStreamEndCapture(cudaStreamPerThread, &g));
    cudaGraphExec_t x;
    CUDA_OK("capture", cudaGraphInstantiate(&x, g, 0));
    h[0] = -1;
    CUDA_OK("capture", cudaGraphLaunch(x, cudaStreamPerThread));
    CUDA_OK("capture", cudaStreamSynchronize(cudaStreamPerThread));
    check(h[0] == 5 && h[63] == 68, "per_thread_stream_capture", "h[0] = %d", h[0]);
    fill<<<1, 64, 0, cudaStreamLegacy>>>(d, 64, 9);
    CUDA_OK("legacy", cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, cudaStreamLegacy));
    CUDA_OK("legacy", cudaStreamSynchronize(cudaStreamLegacy));
    check(h[10] == 19, "legacy_stream_handle", "h[10] = %d", h[10]);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaFree(d);
    return check_finish();
}
