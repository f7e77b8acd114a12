// driver_vector_add.cu: a driver-API program as CUDA's samples write one: cuInit, a device,
// a created context, a module from PTX text (and the same PTX from a file), a kernel launched
// with an argument array and with a packed `extra` buffer, globals, fills, the context stack,
// the primary context, cuGetProcAddress and the driver's error codes. Checked against a CPU
// reference.
// nvcc: -lcuda
#include "drv_check.cuh"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <unistd.h>

static const char *ptx = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .global .align 4 .f32 bias = 0f3F800000;
.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<10>;
    .reg .f32 %f<6>;
    .reg .pred %p;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p, %r5, %r1;
    @%p bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    ld.global.f32 %f1, [%rd8];
    add.s64 %rd8, %rd5, %rd7;
    ld.global.f32 %f2, [%rd8];
    add.f32 %f3, %f1, %f2;
    ld.global.f32 %f4, [bias];
    add.f32 %f5, %f3, %f4;
    add.s64 %rd8, %rd6, %rd7;
    st.global.f32 [%rd8], %f5;
DONE:
    ret;
}
)";

static bool check_sum(const float *a, const float *b, const float *c, int n, float bias)
{
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i] + bias)
            return false;
    return true;
}

int main()
{
    // Before cuInit every call but a few says so.
    int count = 0;
    check(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED, "driver_not_initialized",
          "cuDeviceGetCount before cuInit");
    CU_OK("init", cuInit(0));
    CU_OK("count", cuDeviceGetCount(&count));
    CUdevice dev;
    CU_OK("device", cuDeviceGet(&dev, 0));
    char name[128];
    int major = 0, minor = 0, sms = 0;
    size_t total = 0;
    CU_OK("name", cuDeviceGetName(name, sizeof name, dev));
    CU_OK("cc", cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU_OK("cc", cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CU_OK("sms", cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CU_OK("mem", cuDeviceTotalMem(&total, dev));
    check(count == 1 && major >= 5 && sms > 0 && total > 0 && name[0], "driver_device",
          "count %d, sm_%d%d, %d SMs, %zu bytes", count, major, minor, sms, total);
    CUdevice bad;
    check(cuDeviceGet(&bad, 1) == CUDA_ERROR_INVALID_DEVICE, "driver_invalid_device",
          "cuDeviceGet(1)");

    // No context yet: a call that needs one says so.
    CUdeviceptr none;
    check(cuMemAlloc(&none, 16) == CUDA_ERROR_INVALID_CONTEXT, "driver_no_context",
          "cuMemAlloc without a context");

    CUcontext ctx, current = NULL;
    CU_OK("context", cuCtxCreate(&ctx, NULL, 0, dev));
    CU_OK("current", cuCtxGetCurrent(&current));
    check(current == ctx, "driver_context_current", "created context is not current");

    CUmodule mod;
    CU_OK("module", cuModuleLoadData(&mod, ptx));
    CUfunction vadd;
    CU_OK("function", cuModuleGetFunction(&vadd, mod, "vadd"));
    CUfunction missing;
    check(cuModuleGetFunction(&missing, mod, "nothere") == CUDA_ERROR_NOT_FOUND,
          "driver_function_not_found", "cuModuleGetFunction of an absent kernel");
    unsigned nfuncs = 0;
    CU_OK("count", cuModuleGetFunctionCount(&nfuncs, mod));
    check(nfuncs == 1, "driver_function_count", "%u functions", nfuncs);

    // The module's global: its address and size, and a write the kernel then reads.
    CUdeviceptr bias_ptr;
    size_t bias_size = 0;
    CU_OK("global", cuModuleGetGlobal(&bias_ptr, &bias_size, mod, "bias"));
    float bias = 0;
    CU_OK("global", cuMemcpyDtoH(&bias, bias_ptr, sizeof bias));
    check(bias_size == 4 && bias == 1.0f, "driver_module_global", "size %zu, value %g",
          bias_size, bias);

    const int n = 5000;
    float *a = new float[n], *b = new float[n], *c = new float[n];
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    CUdeviceptr da, db, dc;
    CU_OK("alloc", cuMemAlloc(&da, n * sizeof(float)));
    CU_OK("alloc", cuMemAlloc(&db, n * sizeof(float)));
    CU_OK("alloc", cuMemAlloc(&dc, n * sizeof(float)));
    CU_OK("copy", cuMemcpyHtoD(da, a, n * sizeof(float)));
    CU_OK("copy", cuMemcpyHtoD(db, b, n * sizeof(float)));
    int nn = n;
    void *args[] = {&da, &db, &dc, &nn};
    CU_OK("launch", cuLaunchKernel(vadd, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU_OK("copy", cuMemcpyDtoH(c, dc, n * sizeof(float)));
    check(check_sum(a, b, c, n, 1.0f), "driver_vadd_args", "c[7] = %g", c[7]);

    // The same launch with the parameters packed as the PTX lays them out: 28 bytes, without
    // the struct's tail padding, which the driver refuses as too many resources requested for
    // launch (an H100 did; LLVM's offload plugin trims the padding for that reason).
    struct {
        CUdeviceptr a, b, c;
        int n;
    } packed = {da, db, dc, n};
    size_t packed_size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &packed_size, CU_LAUNCH_PARAM_END};
    CUresult padded = cuLaunchKernel(vadd, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, extra);
    check(padded == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "driver_vadd_extra_padded",
          "%zu bytes for 28: %s", packed_size, cu_name(padded));
    packed_size = offsetof(decltype(packed), n) + sizeof packed.n;
    float two = 2.0f;
    CU_OK("set global", cuMemcpyHtoD(bias_ptr, &two, sizeof two));
    CU_OK("fill", cuMemsetD32(dc, 0, n));
    CU_OK("launch", cuLaunchKernel(vadd, (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, NULL, extra));
    CU_OK("sync", cuCtxSynchronize());
    CU_OK("copy", cuMemcpyDtoH(c, dc, n * sizeof(float)));
    check(check_sum(a, b, c, n, 2.0f), "driver_vadd_extra", "c[7] = %g", c[7]);

    // Fills of 8, 16 and 32 bits.
    unsigned char bytes[64];
    unsigned short halves[32];
    CU_OK("fill8", cuMemsetD8(dc, 0xab, 64));
    CU_OK("copy", cuMemcpyDtoH(bytes, dc, 64));
    CU_OK("fill16", cuMemsetD16(dc, 0x1234, 32));
    CU_OK("copy", cuMemcpyDtoH(halves, dc, 64));
    bool fills = true;
    for (int i = 0; i < 64; i++)
        fills = fills && bytes[i] == 0xab;
    for (int i = 0; i < 32; i++)
        fills = fills && halves[i] == 0x1234;
    check(fills, "driver_memset", "bytes[0] %#x, halves[0] %#x", bytes[0], halves[0]);

    // The same PTX from a file.
    char path[] = "/tmp/ptxsim_vadd_XXXXXX";
    int fd = mkstemp(path);
    bool wrote = fd >= 0 && write(fd, ptx, strlen(ptx)) == (ssize_t)strlen(ptx);
    if (fd >= 0)
        close(fd);
    CUmodule fmod;
    CUfunction fvadd;
    CU_OK("module file", wrote ? cuModuleLoad(&fmod, path) : CUDA_ERROR_FILE_NOT_FOUND);
    unlink(path);
    CU_OK("function", cuModuleGetFunction(&fvadd, fmod, "vadd"));
    CU_OK("launch", cuLaunchKernel(fvadd, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU_OK("copy", cuMemcpyDtoH(c, dc, n * sizeof(float)));
    check(check_sum(a, b, c, n, 1.0f), "driver_module_file", "c[7] = %g (its own bias)", c[7]);
    CU_OK("unload", cuModuleUnload(fmod));
    check(cuModuleGetFunction(&fvadd, fmod, "vadd") == CUDA_ERROR_INVALID_HANDLE,
          "driver_module_unloaded", "a function of an unloaded module");
    check(cuModuleLoad(&fmod, "/nonexistent/x.ptx") == CUDA_ERROR_FILE_NOT_FOUND,
          "driver_module_missing_file", "cuModuleLoad of a missing file");
    check(cuModuleLoadData(&fmod, ".version 7.0\n.target sm_50\nnot ptx") ==
              CUDA_ERROR_INVALID_PTX,
          "driver_module_bad_ptx", "cuModuleLoadData of broken PTX");

    // The context stack: push the primary context over ours, pop it back.
    CUcontext primary, popped = NULL;
    CU_OK("primary", cuDevicePrimaryCtxRetain(&primary, dev));
    CU_OK("push", cuCtxPushCurrent(primary));
    CU_OK("current", cuCtxGetCurrent(&current));
    bool pushed = current == primary;
    CU_OK("pop", cuCtxPopCurrent(&popped));
    CU_OK("current", cuCtxGetCurrent(&current));
    check(pushed && popped == primary && current == ctx, "driver_context_stack",
          "push/pop did not restore the context");
    unsigned pflags = 0;
    int active = 0;
    CU_OK("state", cuDevicePrimaryCtxGetState(dev, &pflags, &active));
    check(active == 1, "driver_primary_state", "active %d", active);
    CU_OK("release", cuDevicePrimaryCtxRelease(dev));

    // cuGetProcAddress finds the current version of a function, and the same as the export.
    void *fn = NULL;
    CUdriverProcAddressQueryResult status;
    CU_OK("proc", cuGetProcAddress("cuMemAlloc", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT,
                                   &status));
    bool same = fn == (void *)&cuMemAlloc_v2 && status == CU_GET_PROC_ADDRESS_SUCCESS;
    // with a status to say why, a missing name or a version too old is CUDA_SUCCESS and NULL
    // (the 580 driver on an H100)
    CUresult r = cuGetProcAddress("cuNoSuchCall", &fn, CUDA_VERSION, 0, &status);
    check(r == CUDA_SUCCESS && !fn && status == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND && same,
          "driver_get_proc_address", "lookups: %d, status %d, same %d", (int)r, (int)status, same);
    r = cuGetProcAddress("cuMemAllocAsync", &fn, 11000, 0, &status);
    check(r == CUDA_SUCCESS && !fn && status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
          "driver_get_proc_address_version", "cuMemAllocAsync came in CUDA 11.2: %d, status %d",
          (int)r, (int)status);

    const char *ename = NULL, *estr = NULL;
    CU_OK("name", cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &ename));
    CU_OK("string", cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &estr));
    check(!strcmp(ename, "CUDA_ERROR_INVALID_VALUE") && !strcmp(estr, "invalid argument"),
          "driver_error_names", "%s / %s", ename, estr);

    CU_OK("free", cuMemFree(da));
    CU_OK("free", cuMemFree(db));
    CU_OK("free", cuMemFree(dc));
    CU_OK("destroy", cuCtxDestroy(ctx));
    CU_OK("current", cuCtxGetCurrent(&current));
    check(current == NULL, "driver_context_destroyed", "a context is still current");
    delete[] a;
    delete[] b;
    delete[] c;
    return check_finish();
}
