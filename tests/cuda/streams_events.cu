// streams_events.cu: work spread over several streams (kernels and async copies), events that
// time it and order it (cudaStreamWaitEvent), queries that must report completion after a
// synchronisation, and stream flags and priorities as created.
#include "check.cuh"

#include <vector>

__global__ void scale(float *x, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= f;
}

__global__ void add_from(float *dst, const float *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += src[i];
}

int main()
{
    const int n = 1024, nstreams = 4, chunk = n / nstreams;
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 97);
    float *d, *e;
    CUDA_OK("setup", cudaMalloc(&d, n * sizeof(float)));
    CUDA_OK("setup", cudaMalloc(&e, n * sizeof(float)));
    cudaStream_t s[nstreams];
    for (int k = 0; k < nstreams; k++)
        CUDA_OK("stream_create", cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    cudaEvent_t start, stop, done[nstreams];
    CUDA_OK("event_create", cudaEventCreate(&start));
    CUDA_OK("event_create", cudaEventCreate(&stop));
    for (int k = 0; k < nstreams; k++)
        CUDA_OK("event_create", cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));

    // Each stream: copy its chunk in, scale it by k+1, copy it back.
    std::vector<float> out(n, -1.0f);
    CUDA_OK("record", cudaEventRecord(start, 0));
    for (int k = 0; k < nstreams; k++) {
        size_t off = (size_t)k * chunk;
        CUDA_OK("async_copy", cudaMemcpyAsync(d + off, h.data() + off, chunk * sizeof(float),
                                              cudaMemcpyHostToDevice, s[k]));
        scale<<<chunk / 128, 128, 0, s[k]>>>(d + off, chunk, (float)(k + 1));
        CUDA_OK("async_copy", cudaMemcpyAsync(out.data() + off, d + off, chunk * sizeof(float),
                                              cudaMemcpyDeviceToHost, s[k]));
        CUDA_OK("record", cudaEventRecord(done[k], s[k]));
    }
    CUDA_OK("record", cudaEventRecord(stop, 0));
    for (int k = 0; k < nstreams; k++)
        CUDA_OK("sync", cudaStreamSynchronize(s[k]));
    CUDA_OK("sync", cudaEventSynchronize(stop));
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == h[i] * (float)(i / chunk + 1);
    check(ok, "streams_chunks", "a chunk was not scaled by its stream's factor");

    float ms = -1.0f;
    CUDA_OK("elapsed", cudaEventElapsedTime(&ms, start, stop));
    check(ms >= 0.0f, "event_elapsed_time", "elapsed %f ms", ms);
    float bad;
    check(cudaEventElapsedTime(&bad, start, done[0]) == cudaErrorInvalidResourceHandle,
          "event_disable_timing", "timing an event created with cudaEventDisableTiming");
    cudaGetLastError();

    bool all_done = true;
    for (int k = 0; k < nstreams; k++)
        all_done = all_done && cudaStreamQuery(s[k]) == cudaSuccess &&
                   cudaEventQuery(done[k]) == cudaSuccess;
    check(all_done, "query_after_sync", "a stream or event still reports pending work");

    // Cross-stream order: stream 1 adds what stream 0 produced, after waiting on its event.
    CUDA_OK("order", cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK("order", cudaMemset(e, 0, n * sizeof(float)));
    scale<<<n / 256, 256, 0, s[0]>>>(d, n, 2.0f);
    CUDA_OK("order", cudaEventRecord(done[0], s[0]));
    CUDA_OK("order", cudaStreamWaitEvent(s[1], done[0], 0));
    add_from<<<n / 256, 256, 0, s[1]>>>(e, d, n);
    CUDA_OK("order", cudaMemcpyAsync(out.data(), e, n * sizeof(float), cudaMemcpyDeviceToHost,
                                     s[1]));
    CUDA_OK("order", cudaStreamSynchronize(s[1]));
    ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == 2.0f * h[i];
    check(ok, "stream_wait_event", "the second stream did not see the first stream's result");

    unsigned flags = 0;
    int prio = 1, least = 0, greatest = 0;
    CUDA_OK("flags", cudaStreamGetFlags(s[2], &flags));
    CUDA_OK("priority", cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t hi;
    CUDA_OK("priority", cudaStreamCreateWithPriority(&hi, cudaStreamDefault, greatest));
    CUDA_OK("priority", cudaStreamGetPriority(hi, &prio));
    check(flags == cudaStreamNonBlocking && prio == greatest && greatest <= least,
          "stream_flags_priority", "flags %u, priority %d (range %d..%d)", flags, prio, least,
          greatest);
    CUDA_OK("destroy", cudaStreamDestroy(hi));
    // A destroyed stream used again: ptxsim says so; on a GPU it is undefined (an H100 with
    // the CUDA 13.0 runtime crashes), so it is checked only under ptxsim.
    if (on_ptxsim()) {
        check(cudaStreamQuery(hi) == cudaErrorInvalidResourceHandle, "destroyed_stream",
              "a destroyed stream still answers");
        cudaGetLastError();
    }

    for (int k = 0; k < nstreams; k++) {
        cudaStreamDestroy(s[k]);
        cudaEventDestroy(done[k]);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d);
    cudaFree(e);
    return check_finish();
}
