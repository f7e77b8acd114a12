// graph_capture.cu: CUDA graphs from stream capture, as simpleCudaGraphs builds them: work
// forked into a second stream and joined back through events, a host function inside, the
// capture status and capture info while capturing, the graph instantiated once and launched
// several times (each launch replays every node), and the errors of capture misuse.
#include "check.cuh"

#include <vector>

__global__ void add(int *x, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += v;
}

__global__ void combine(int *x, const int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2 * x[i] + y[i];
}

static void CUDART_CB count(void *p)
{
    ++*(int *)p;
}

int main()
{
    const int n = 512;
    int *a, *b, *h;
    CUDA_OK("setup", cudaMalloc(&a, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&b, n * sizeof(int)));
    CUDA_OK("setup", cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s1, s2;
    CUDA_OK("setup", cudaStreamCreate(&s1));
    CUDA_OK("setup", cudaStreamCreate(&s2));
    cudaEvent_t fork, join;
    CUDA_OK("setup", cudaEventCreate(&fork));
    CUDA_OK("setup", cudaEventCreate(&join));
    int host_runs = 0;

    CUDA_OK("begin_capture", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    CUDA_OK("capture_status", cudaStreamIsCapturing(s1, &st));
    check(st == cudaStreamCaptureStatusActive, "capture_active", "status %d", (int)st);
    CUDA_OK("capture", cudaMemsetAsync(a, 0, n * sizeof(int), s1));
    CUDA_OK("capture", cudaEventRecord(fork, s1));
    CUDA_OK("capture", cudaStreamWaitEvent(s2, fork, 0));
    CUDA_OK("capture_status", cudaStreamIsCapturing(s2, &st));
    check(st == cudaStreamCaptureStatusActive, "fork_joins_capture", "status %d", (int)st);
    CUDA_OK("capture", cudaMemsetAsync(b, 0, n * sizeof(int), s2));
    add<<<n / 128, 128, 0, s2>>>(b, n, 7);
    CUDA_OK("capture", cudaLaunchHostFunc(s2, count, &host_runs));
    CUDA_OK("capture", cudaEventRecord(join, s2));
    add<<<n / 128, 128, 0, s1>>>(a, n, 1);
    CUDA_OK("capture", cudaStreamWaitEvent(s1, join, 0));
    combine<<<n / 128, 128, 0, s1>>>(a, b, n);
    CUDA_OK("capture", cudaMemcpyAsync(h, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
    size_t ndeps = 0;
    cudaGraph_t during = nullptr;
    CUDA_OK("capture_info", cudaStreamGetCaptureInfo(s1, &st, &id, &during, nullptr, nullptr,
                                                     &ndeps));
    check(id != 0 && during != nullptr && ndeps == 1, "capture_info",
          "id %llu, graph %p, %zu dependencies", id, (void *)during, ndeps);
    check(host_runs == 0 && h[0] == 0, "capture_records_not_runs",
          "captured work ran during the capture");
    cudaGraph_t graph;
    CUDA_OK("end_capture", cudaStreamEndCapture(s1, &graph));
    CUDA_OK("capture_status", cudaStreamIsCapturing(s1, &st));
    check(st == cudaStreamCaptureStatusNone, "capture_ended", "status %d", (int)st);

    size_t nodes = 0, roots = 0, edges = 0;
    CUDA_OK("graph_nodes", cudaGraphGetNodes(graph, nullptr, &nodes));
    CUDA_OK("graph_nodes", cudaGraphGetRootNodes(graph, nullptr, &roots));
    CUDA_OK("graph_nodes", cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
    check(nodes == 7 && roots == 1 && edges == 7, "captured_graph_shape",
          "%zu nodes, %zu roots, %zu edges", nodes, roots, edges);

    cudaGraphExec_t exec;
    CUDA_OK("instantiate", cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < n; i++)
            h[i] = -1;
        CUDA_OK("graph_launch", cudaGraphLaunch(exec, s1));
        CUDA_OK("graph_launch", cudaStreamSynchronize(s1));
    }
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = h[i] == 2 * 1 + 7;
    check(ok && host_runs == 3, "graph_replay", "h[0] = %d, host function ran %d times", h[0],
          host_runs);

    // Misuse: synchronising a capturing stream ends the capture with an error.
    CUDA_OK("begin_capture", cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    add<<<1, 32, 0, s1>>>(a, 32, 1);
    check(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported,
          "sync_while_capturing", "cudaStreamSynchronize must fail while capturing");
    cudaGraph_t bad = nullptr;
    check(cudaStreamEndCapture(s1, &bad) == cudaErrorStreamCaptureInvalidated && bad == nullptr,
          "invalidated_capture", "ending an invalidated capture must fail");
    check(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
              cudaErrorStreamCaptureUnsupported,
          "legacy_stream_capture", "the legacy default stream cannot capture");
    check(cudaStreamEndCapture(s2, &bad) == cudaErrorIllegalState, "end_without_begin",
          "ending a capture that never began");
    cudaGetLastError();

    CUDA_OK("cleanup", cudaGraphExecDestroy(exec));
    CUDA_OK("cleanup", cudaGraphDestroy(graph));
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(a);
    cudaFree(b);
    cudaFreeHost(h);
    return check_finish();
}
