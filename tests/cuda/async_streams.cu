// async_streams.cu: work on streams runs while the host goes on. A kernel that waits for a
// flag the host writes into mapped pinned memory can only finish if the host runs meanwhile:
// the stream and an event report cudaErrorNotReady, the host loop makes progress, and the
// kernel sees the value the host wrote. Then stream order across streams (an event waited on),
// the legacy default stream's implicit synchronisation, host functions in stream order seeing
// the kernels before them, a pageable source reused as soon as cudaMemcpyAsync returns, and
// synchronous copies returning with their data. Checked against CPU references.
// compare: no (a kernel waits for a flag the host writes while it runs; a rerun never sees it)
#include "check.cuh"

#include <cstring>

// Waits (a bounded number of turns) for *flag to become non-zero, then writes what it holds
// into out, or -1 when the host never wrote it.
__global__ void wait_for_host(volatile int *flag, int *out, long long max_turns)
{
    long long turns = 0;
    while (*flag == 0 && turns < max_turns)
        turns++;
    *out = *flag ? *flag : -1;
}

__global__ void fill(int *x, int n, int value)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = value + i;
}

__global__ void scale_into(const int *x, int *y, int n, int factor)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[i] * factor;
}

__global__ void busy(int *x, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    for (int r = 0; r < rounds; r++)
        v = (v * 7 + 3) % 1000003;
    x[i] = v;
}

struct seen {
    const int *pinned;
    int n;
    long long sum;
};

static void CUDART_CB record_sum(void *p)
{
    seen *s = (seen *)p;
    s->sum = 0;
    for (int i = 0; i < s->n; i++)
        s->sum += s->pinned[i];
}

int main()
{
    // 1. The host makes progress while a kernel runs.
    int *flag = NULL, *out = NULL;
    CUDA_OK("host alloc", cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
    CUDA_OK("malloc", cudaMalloc(&out, sizeof(int)));
    *flag = 0;
    cudaStream_t s;
    CUDA_OK("stream", cudaStreamCreate(&s));
    cudaEvent_t after;
    CUDA_OK("event", cudaEventCreate(&after));
    wait_for_host<<<1, 1, 0, s>>>(flag, out, 2000000000LL);
    CUDA_OK("record", cudaEventRecord(after, s));
    cudaError_t q1 = cudaStreamQuery(s), q2 = cudaEventQuery(after);
    long long host_work = 0;
    for (int i = 0; i < 2000000; i++)
        host_work += i % 7;
    *(volatile int *)flag = 42;
    CUDA_OK("sync", cudaStreamSynchronize(s));
    int got = 0;
    CUDA_OK("copy", cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    check(q1 == cudaErrorNotReady && q2 == cudaErrorNotReady && host_work > 0 && got == 42,
          "async_host_progress", "query %s / %s, kernel saw %d",
          cudaGetErrorName(q1), cudaGetErrorName(q2), got);
    check(cudaStreamQuery(s) == cudaSuccess && cudaEventQuery(after) == cudaSuccess &&
              cudaGetLastError() == cudaSuccess,
          "async_ready_after_sync", "the stream or event is still pending");

    // 2. Order across streams: b waits for an event a recorded after its kernel.
    const int n = 4096;
    int *x, *y;
    CUDA_OK("malloc", cudaMalloc(&x, n * sizeof(int)));
    CUDA_OK("malloc", cudaMalloc(&y, n * sizeof(int)));
    cudaStream_t a, b;
    CUDA_OK("stream", cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CUDA_OK("stream", cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t filled;
    CUDA_OK("event", cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    busy<<<1, 32, 0, a>>>(y, 32, 20000);  // something to wait behind
    fill<<<8, 128, 0, a>>>(x, n, 1000);
    CUDA_OK("record", cudaEventRecord(filled, a));
    CUDA_OK("wait", cudaStreamWaitEvent(b, filled, 0));
    scale_into<<<8, 128, 0, b>>>(x, y, n, 3);
    int *h = new int[n];
    CUDA_OK("copy", cudaMemcpyAsync(h, y, n * sizeof(int), cudaMemcpyDeviceToHost, b));
    CUDA_OK("sync", cudaStreamSynchronize(b));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == (1000 + i) * 3;
    check(ok, "async_event_order", "h[5] = %d", h[5]);

    // 3. The legacy default stream waits for blocking streams and they wait for it.
    cudaStream_t blocking;
    CUDA_OK("stream", cudaStreamCreate(&blocking));
    fill<<<8, 128, 0, blocking>>>(x, n, 7);
    scale_into<<<8, 128>>>(x, y, n, 2);      // legacy stream: after the fill
    fill<<<8, 128, 0, blocking>>>(x, n, 0);  // after the legacy kernel
    CUDA_OK("copy", cudaMemcpy(h, y, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == (7 + i) * 2;
    check(ok, "async_legacy_stream_sync", "h[5] = %d", h[5]);

    // 4. A host function runs after the work queued before it, on the device's results.
    int *pinned;
    CUDA_OK("host alloc", cudaMallocHost(&pinned, n * sizeof(int)));
    seen sn = {pinned, n, -1};
    fill<<<8, 128, 0, a>>>(x, n, 5);
    CUDA_OK("copy", cudaMemcpyAsync(pinned, x, n * sizeof(int), cudaMemcpyDeviceToHost, a));
    CUDA_OK("host fn", cudaLaunchHostFunc(a, record_sum, &sn));
    CUDA_OK("sync", cudaStreamSynchronize(a));
    long long expect = 0;
    for (int i = 0; i < n; i++)
        expect += 5 + i;
    check(sn.sum == expect, "async_host_function_order", "sum %lld, expected %lld", sn.sum,
          expect);

    // 5. A pageable source may be reused as soon as cudaMemcpyAsync returns, even while the
    // stream is busy with earlier work. (a is a non-blocking stream: the legacy stream's
    // cudaMemcpy does not wait for it, so the stream is synchronised before reading back.)
    int *pageable = new int[n];
    for (int i = 0; i < n; i++)
        pageable[i] = 100 + i;
    busy<<<1, 32, 0, a>>>(y, 32, 20000);
    CUDA_OK("copy", cudaMemcpyAsync(x, pageable, n * sizeof(int), cudaMemcpyHostToDevice, a));
    for (int i = 0; i < n; i++)
        pageable[i] = -1;
    CUDA_OK("sync", cudaStreamSynchronize(a));
    CUDA_OK("copy", cudaMemcpy(h, x, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == 100 + i;
    check(ok, "async_pageable_source_reuse", "h[5] = %d", h[5]);

    // 6. A kernel and a synchronous copy behind it, with no synchronisation in between: the
    // kernel is on a blocking stream, which the legacy stream's copy waits for.
    scale_into<<<8, 128, 0, blocking>>>(x, y, n, -1);
    CUDA_OK("copy", cudaMemcpy(h, y, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == -(100 + i);
    check(ok, "async_sync_copy_waits", "h[5] = %d", h[5]);

    CUDA_OK("sync", cudaDeviceSynchronize());
    cudaStreamDestroy(s);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaStreamDestroy(blocking);
    cudaEventDestroy(after);
    cudaEventDestroy(filled);
    cudaFreeHost(flag);
    cudaFreeHost(pinned);
    cudaFree(out);
    cudaFree(x);
    cudaFree(y);
    delete[] h;
    delete[] pageable;
    return check_finish();
}
