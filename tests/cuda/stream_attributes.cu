// stream_attributes.cu: the calls programs use to steer the L2 cache and streams: an access
// policy window set on a stream and on a launch, read back and copied to another stream, the
// persisting L2 set-aside limit, cudaCtxResetPersistingL2Cache, the device properties that must
// agree with them, stream ids and priorities through attributes, the errors for windows the
// device cannot have, and kernels run under those attributes computing the right thing.
// Pageable memory access is off by default, as on most systems, and the device says so.
#include "check.cuh"

#include <cstring>

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    cudaDeviceProp p;
    CUDA_OK("props", cudaGetDeviceProperties(&p, 0));
    int max_window = 0, max_persist = 0, l2 = 0, pageable = -1;
    CUDA_OK("attr", cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    CUDA_OK("attr", cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CUDA_OK("attr", cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CUDA_OK("attr", cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    check(max_window == p.accessPolicyMaxWindowSize && max_persist == p.persistingL2CacheMaxSize &&
              l2 == p.l2CacheSize && max_persist > 0 && max_persist <= l2 && max_window > 0,
          "l2_properties_agree", "window %d/%d, persisting %d/%d, L2 %d/%d", max_window,
          p.accessPolicyMaxWindowSize, max_persist, p.persistingL2CacheMaxSize, l2,
          p.l2CacheSize);
    check(pageable == 0 && p.pageableMemoryAccess == 0, "pageable_access_off_by_default",
          "attribute %d, property %d", pageable, p.pageableMemoryAccess);

    // The set-aside for persisting accesses: set and read back; more than the device allows
    // is refused with cudaErrorInvalidValue (an H100 with the CUDA 13.0 runtime refuses 4
    // times its L2), not sticky.
    size_t limit = 0;
    CUDA_OK("limit", cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persist / 2));
    CUDA_OK("limit", cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
    cudaError_t too_big = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)l2 * 4);
    cudaError_t last = cudaGetLastError();
    size_t full = 0;
    CUDA_OK("limit", cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persist));
    CUDA_OK("limit", cudaDeviceGetLimit(&full, cudaLimitPersistingL2CacheSize));
    check(limit == (size_t)max_persist / 2 && too_big == cudaErrorInvalidValue &&
              last == cudaErrorInvalidValue && full == (size_t)max_persist,
          "l2_persisting_limit", "set %zu, 4 x L2: %s, the most: %zu", limit,
          cudaGetErrorName(too_big), full);

    const int n = 1 << 16;
    float *x, *y;
    CUDA_OK("malloc", cudaMalloc(&x, n * sizeof(float)));
    CUDA_OK("malloc", cudaMalloc(&y, n * sizeof(float)));
    float *hx = new float[n], *hy = new float[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 100);
        hy[i] = (float)(i % 7);
    }
    CUDA_OK("copy", cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK("copy", cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice));

    // The window of the CUDA programming guide's example, on a stream.
    cudaStream_t s, t;
    CUDA_OK("stream", cudaStreamCreate(&s));
    CUDA_OK("stream", cudaStreamCreateWithPriority(&t, cudaStreamNonBlocking, -1));
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    attr.accessPolicyWindow.base_ptr = x;
    attr.accessPolicyWindow.num_bytes = n * sizeof(float);
    attr.accessPolicyWindow.hitRatio = 0.6f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CUDA_OK("set", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    cudaStreamAttrValue back;
    memset(&back, 0, sizeof back);
    CUDA_OK("get", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back));
    check(back.accessPolicyWindow.base_ptr == x &&
              back.accessPolicyWindow.num_bytes == n * sizeof(float) &&
              back.accessPolicyWindow.hitRatio == 0.6f &&
              back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
              back.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
          "stream_access_policy_window", "the window read back differs");
    CUDA_OK("copy attrs", cudaStreamCopyAttributes(t, s));
    memset(&back, 0, sizeof back);
    CUDA_OK("get", cudaStreamGetAttribute(t, cudaStreamAttributeAccessPolicyWindow, &back));
    cudaStreamAttrValue prio;
    CUDA_OK("get", cudaStreamGetAttribute(t, cudaStreamAttributePriority, &prio));
    // the priority is copied too (an H100 with CUDA 13.0)
    int src_priority = 1;
    CUDA_OK("priority", cudaStreamGetPriority(s, &src_priority));
    check(back.accessPolicyWindow.base_ptr == x && back.accessPolicyWindow.hitRatio == 0.6f &&
              prio.priority == src_priority && src_priority != -1,
          "stream_copy_attributes", "window %p, priority %d (the source's %d)",
          back.accessPolicyWindow.base_ptr, prio.priority, src_priority);
    unsigned long long id_s = 0, id_t = 0;
    CUDA_OK("id", cudaStreamGetId(s, &id_s));
    CUDA_OK("id", cudaStreamGetId(t, &id_t));
    check(id_s != id_t, "stream_ids", "both streams have id %llu", id_s);

    // Kernels under the window compute what they compute without one.
    saxpy<<<(n + 255) / 256, 256, 0, s>>>(2.0f, x, y, n);
    // The same window as a launch attribute.
    cudaLaunchAttribute la[1];
    la[0].id = cudaLaunchAttributeAccessPolicyWindow;
    la[0].val.accessPolicyWindow = attr.accessPolicyWindow;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 255) / 256);
    cfg.blockDim = dim3(256);
    cfg.stream = t;
    cfg.attrs = la;
    cfg.numAttrs = 1;
    CUDA_OK("sync", cudaStreamSynchronize(s));
    CUDA_OK("launch", cudaLaunchKernelEx(&cfg, saxpy, 1.0f, (const float *)x, y, n));
    // Reset: persisting lines become normal; the stream's window is then cleared with a
    // zero-sized one, as the guide does.
    CUDA_OK("reset", cudaCtxResetPersistingL2Cache());
    attr.accessPolicyWindow.num_bytes = 0;
    CUDA_OK("clear", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    CUDA_OK("copy", cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && hy[i] == 3.0f * (float)(i % 100) + (float)(i % 7);
    check(ok, "kernels_under_access_policy", "y[3] = %g", hy[3]);

    // Windows the device cannot have: refused with cudaErrorInvalidValue, not sticky.
    cudaStreamAttrValue bad = attr;
    bad.accessPolicyWindow.num_bytes = (size_t)max_window + 1;
    cudaError_t e1 = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad);
    bad = attr;
    bad.accessPolicyWindow.num_bytes = 1024;
    bad.accessPolicyWindow.hitRatio = 1.5f;
    cudaError_t e2 = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad);
    la[0].val.accessPolicyWindow.num_bytes = (size_t)max_window + 1;
    cudaError_t e3 = cudaLaunchKernelEx(&cfg, saxpy, 1.0f, (const float *)x, y, n);
    cudaGetLastError();
    check(e1 == cudaErrorInvalidValue && e2 == cudaErrorInvalidValue &&
              e3 == cudaErrorInvalidValue && cudaDeviceSynchronize() == cudaSuccess,
          "access_policy_errors", "%s / %s / %s", cudaGetErrorName(e1), cudaGetErrorName(e2),
          cudaGetErrorName(e3));

    cudaStreamDestroy(s);
    cudaStreamDestroy(t);
    cudaFree(x);
    cudaFree(y);
    delete[] hx;
    delete[] hy;
    return check_finish();
}
