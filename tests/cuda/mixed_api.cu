// mixed_api.cu: a program that uses the runtime and the driver API together, as libraries
// built on either do: memory from one used by the other, the runtime's primary context as the
// driver's current context, a runtime kernel launched through the driver and a driver kernel
// (a library loaded at run time) launched through the runtime, streams and events of one used
// by the other, cudaGetDriverEntryPoint and cuGetProcAddress answering alike, and the
// runtime's last error left alone by driver calls. Checked against CPU references.
// nvcc: -lcuda
#include "drv_check.cuh"

#include <cstring>

__global__ void add_one(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

static const char *ptx = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .global .align 4 .u32 factor = 3;
.visible .entry triple(.param .u64 x, .param .u32 n)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p;
    ld.param.u64 %rd1, [x];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.s32 %r5, %r3, %r4, %r2;
    setp.ge.u32 %p, %r5, %r1;
    @%p bra DONE;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r5, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r6, [%rd3];
    ld.global.u32 %r7, [factor];
    mul.lo.s32 %r6, %r6, %r7;
    st.global.u32 [%rd3], %r6;
DONE:
    ret;
}
)";

int main()
{
    const int n = 1000;
    int h[n], expect[n];
    for (int i = 0; i < n; i++)
        h[i] = expect[i] = i;

    // The runtime first: its primary context becomes the thread's current one.
    int *d = NULL;
    CUDA_OK("malloc", cudaMalloc(&d, sizeof h));
    CU_OK("init", cuInit(0));
    CUcontext current = NULL, primary = NULL;
    CU_OK("current", cuCtxGetCurrent(&current));
    CU_OK("primary", cuDevicePrimaryCtxRetain(&primary, 0));
    check(current && current == primary, "mixed_primary_context",
          "current %p, primary %p", (void *)current, (void *)primary);

    // Runtime memory filled through the driver, a runtime kernel, read back by the runtime.
    CU_OK("copy", cuMemcpyHtoD((CUdeviceptr)d, h, sizeof h));
    add_one<<<(n + 255) / 256, 256>>>(d, n);
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect[i] += 1;
    check(memcmp(h, expect, sizeof h) == 0, "mixed_driver_copy_runtime_kernel", "h[3] = %d",
          h[3]);

    // The runtime kernel as a driver function, launched by the driver on a runtime stream.
    cudaFunction_t fn;
    CUDA_OK("by symbol", cudaGetFuncBySymbol(&fn, (const void *)add_one));
    int nregs = 0;
    CU_OK("attr", cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)fn));
    const char *fname = NULL;
    CUDA_OK("name", cudaFuncGetName(&fname, (const void *)add_one));
    check(nregs > 0 && fname && strstr(fname, "add_one"), "mixed_function_handles",
          "%d registers, name %s", nregs, fname ? fname : "(null)");
    cudaStream_t rs;
    CUDA_OK("stream", cudaStreamCreate(&rs));
    int nn = n;
    void *args[] = {&d, &nn};
    CU_OK("launch", cuLaunchKernel((CUfunction)fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0,
                                   (CUstream)rs, args, NULL));
    CUevent done;
    CU_OK("event", cuEventCreate(&done, CU_EVENT_DEFAULT));
    CU_OK("record", cuEventRecord(done, (CUstream)rs));
    CUDA_OK("sync", cudaEventSynchronize((cudaEvent_t)done));
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect[i] += 1;
    check(memcmp(h, expect, sizeof h) == 0, "mixed_runtime_kernel_by_driver", "h[3] = %d",
          h[3]);

    // Code loaded at run time by the runtime (cudaLibraryLoadData), launched by the runtime;
    // its global written through the driver.
    cudaLibrary_t lib;
    cudaKernel_t triple;
    CUDA_OK("library", cudaLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    CUDA_OK("kernel", cudaLibraryGetKernel(&triple, lib, "triple"));
    unsigned count = 0;
    CUDA_OK("count", cudaLibraryGetKernelCount(&count, lib));
    void *factor_ptr = NULL;
    size_t factor_size = 0;
    CUDA_OK("global", cudaLibraryGetGlobal(&factor_ptr, &factor_size, lib, "factor"));
    int five = 5;
    CU_OK("set factor", cuMemcpyHtoD((CUdeviceptr)factor_ptr, &five, sizeof five));
    CUDA_OK("launch", cudaLaunchKernel((const void *)triple, dim3((n + 127) / 128), dim3(128),
                                       args, 0, rs));
    CUDA_OK("sync", cudaStreamSynchronize(rs));
    CU_OK("copy", cuMemcpyDtoH(h, (CUdeviceptr)d, sizeof h));
    for (int i = 0; i < n; i++)
        expect[i] *= 5;
    check(count == 1 && factor_size == 4 && memcmp(h, expect, sizeof h) == 0,
          "mixed_runtime_library", "%u kernels, factor %zu bytes, h[3] = %d", count,
          factor_size, h[3]);
    // The kernel's function in the current context: a handle of its own on a GPU (the driver
    // gives a CUfunction distinct from the CUkernel), so it is checked by what it answers.
    CUfunction tf;
    CU_OK("kernel function", cuKernelGetFunction(&tf, (CUkernel)triple));
    size_t poff = 0, psize = 0, foff = 0, fsize = 0;
    const char *tname = NULL;
    CUDA_OK("param", cudaFuncGetParamInfo((const void *)triple, 1, &poff, &psize));
    CU_OK("param", cuFuncGetParamInfo(tf, 1, &foff, &fsize));
    CU_OK("name", cuFuncGetName(&tname, tf));
    check(poff == 8 && psize == 4 && foff == 8 && fsize == 4 && tname &&
              !strcmp(tname, "triple"),
          "mixed_kernel_params", "n at %zu (%zu bytes), by the function at %zu (%zu), name %s",
          poff, psize, foff, fsize, tname ? tname : "(null)");
    CUDA_OK("unload", cudaLibraryUnload(lib));

    // Driver memory used by the runtime.
    CUdeviceptr dd;
    CU_OK("alloc", cuMemAlloc(&dd, sizeof h));
    CUDA_OK("memset", cudaMemset((void *)dd, 0, sizeof h));
    add_one<<<(n + 255) / 256, 256, 0, rs>>>((int *)dd, n);
    CU_OK("sync", cuStreamSynchronize((CUstream)rs));
    CU_OK("copy", cuMemcpyDtoH(h, dd, sizeof h));
    bool ones = true;
    for (int i = 0; i < n; i++)
        ones = ones && h[i] == 1;
    check(ones, "mixed_driver_memory_runtime_kernel", "h[3] = %d", h[3]);
    CUDA_OK("free", cudaFree((void *)dd));

    // One table behind both entry-point lookups.
    void *from_runtime = NULL, *from_driver = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CUDA_OK("entry point", cudaGetDriverEntryPointByVersion("cuMemAlloc", &from_runtime,
                                                            CUDART_VERSION, cudaEnableDefault,
                                                            &q));
    CU_OK("proc", cuGetProcAddress("cuMemAlloc", &from_driver, CUDA_VERSION, 0, NULL));
    check(from_runtime && from_runtime == from_driver && q == cudaDriverEntryPointSuccess,
          "mixed_entry_points", "runtime %p, driver %p", from_runtime, from_driver);
    typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
    CUdeviceptr via = 0;
    CU_OK("alloc", ((alloc_fn)from_runtime)(&via, 64));
    CU_OK("free", cuMemFree(via));

    // A driver error is the driver's: the runtime's last error does not change.
    cudaGetLastError();
    CUdeviceptr zero;
    CUresult r = cuMemAlloc(&zero, 0);
    check(r == CUDA_ERROR_INVALID_VALUE && cudaGetLastError() == cudaSuccess,
          "mixed_last_error", "cuMemAlloc(0) = %s", cu_name(r));

    CUDA_OK("destroy", cudaStreamDestroy(rs));
    CU_OK("event", cuEventDestroy(done));
    CU_OK("release", cuDevicePrimaryCtxRelease(0));
    CUDA_OK("free", cudaFree(d));
    return check_finish();
}
