// driver_matmul.cu: a tiled matrix multiply written as PTX text (16 x 16 shared-memory tiles,
// bar.sync between them), loaded and launched through the driver API on a created stream, with
// sizes that are not multiples of the tile; its attributes and occupancy; cuLaunchKernelEx with
// launch attributes; a pitched 2D copy back; event timing. Checked against a CPU product.
// nvcc: -lcuda
#include "drv_check.cuh"

#include <cstring>

static const char *ptx = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .entry matmul(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 M,
                       .param .u32 N, .param .u32 K)
{
    .shared .align 4 .f32 As[256];
    .shared .align 4 .f32 Bs[256];
    .reg .pred %p<4>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<12>;
    .reg .f32 %f<6>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u32 %r1, [M];
    ld.param.u32 %r2, [N];
    ld.param.u32 %r3, [K];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r4, %tid.x;
    mov.u32 %r5, %tid.y;
    mov.u32 %r6, %ctaid.x;
    mov.u32 %r7, %ctaid.y;
    mad.lo.s32 %r8, %r7, 16, %r5;       // row
    mad.lo.s32 %r9, %r6, 16, %r4;       // col
    mov.f32 %f1, 0f00000000;            // the dot product
    mov.u32 %r10, 0;                    // first k of the tile
    mad.lo.s32 %r11, %r5, 16, %r4;
    shl.b32 %r12, %r11, 2;
    mov.u32 %r13, As;
    add.s32 %r14, %r13, %r12;           // &As[ty][tx]
    mov.u32 %r15, Bs;
    add.s32 %r16, %r15, %r12;           // &Bs[ty][tx]
TILE:
    setp.ge.u32 %p1, %r10, %r3;
    @%p1 bra STORE;
    add.s32 %r17, %r10, %r4;            // A's column
    mov.f32 %f2, 0f00000000;
    setp.lt.u32 %p2, %r8, %r1;
    setp.lt.u32 %p3, %r17, %r3;
    and.pred %p2, %p2, %p3;
    @!%p2 bra NOA;
    mad.lo.s32 %r18, %r8, %r3, %r17;
    mul.wide.u32 %rd4, %r18, 4;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.f32 %f2, [%rd5];
NOA:
    st.shared.f32 [%r14], %f2;
    add.s32 %r19, %r10, %r5;            // B's row
    mov.f32 %f3, 0f00000000;
    setp.lt.u32 %p2, %r19, %r3;
    setp.lt.u32 %p3, %r9, %r2;
    and.pred %p2, %p2, %p3;
    @!%p2 bra NOB;
    mad.lo.s32 %r20, %r19, %r2, %r9;
    mul.wide.u32 %rd6, %r20, 4;
    add.s64 %rd7, %rd2, %rd6;
    ld.global.f32 %f3, [%rd7];
NOB:
    st.shared.f32 [%r16], %f3;
    bar.sync 0;
    mov.u32 %r21, 0;
    shl.b32 %r22, %r5, 6;
    add.s32 %r23, %r13, %r22;           // &As[ty][0]
    shl.b32 %r24, %r4, 2;
    add.s32 %r25, %r15, %r24;           // &Bs[0][tx]
INNER:
    ld.shared.f32 %f4, [%r23];
    ld.shared.f32 %f5, [%r25];
    fma.rn.f32 %f1, %f4, %f5, %f1;
    add.s32 %r23, %r23, 4;
    add.s32 %r25, %r25, 64;
    add.s32 %r21, %r21, 1;
    setp.lt.u32 %p1, %r21, 16;
    @%p1 bra INNER;
    bar.sync 0;
    add.s32 %r10, %r10, 16;
    bra TILE;
STORE:
    setp.lt.u32 %p2, %r8, %r1;
    setp.lt.u32 %p3, %r9, %r2;
    and.pred %p2, %p2, %p3;
    @!%p2 bra END;
    mad.lo.s32 %r26, %r8, %r2, %r9;
    mul.wide.u32 %rd8, %r26, 4;
    add.s64 %rd9, %rd3, %rd8;
    st.global.f32 [%rd9], %f1;
END:
    ret;
}
)";

int main()
{
    CU_OK("init", cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CU_OK("device", cuDeviceGet(&dev, 0));
    CU_OK("context", cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_OK("current", cuCtxSetCurrent(ctx));
    CUmodule mod;
    CUfunction mm;
    CU_OK("module", cuModuleLoadData(&mod, ptx));
    CU_OK("function", cuModuleGetFunction(&mm, mod, "matmul"));

    int smem = 0, threads = 0, nparams = 0;
    CU_OK("attr", cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, mm));
    CU_OK("attr", cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, mm));
    size_t off = 0, size = 0;
    while (cuFuncGetParamInfo(mm, nparams, &off, &size) == CUDA_SUCCESS)
        nparams++;
    CU_OK("param", cuFuncGetParamInfo(mm, 3, &off, &size));
    check(smem == 2048 && threads == 1024 && nparams == 6 && off == 24 && size == 4,
          "driver_function_attributes", "smem %d, threads %d, %d params, M at %zu (%zu bytes)",
          smem, threads, nparams, off, size);
    int blocks = 0, min_grid = 0, block = 0;
    CU_OK("occupancy", cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, mm, 256, 0));
    CU_OK("occupancy", cuOccupancyMaxPotentialBlockSize(&min_grid, &block, mm, NULL, 0, 0));
    check(blocks >= 1 && block > 0 && block % 32 == 0 && min_grid > 0, "driver_occupancy",
          "%d blocks of 256; best block %d, grid %d", blocks, block, min_grid);

    const int M = 70, N = 50, K = 40;
    float *A = new float[M * K], *B = new float[K * N], *C = new float[M * N],
          *ref = new float[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = (float)(i % 7 - 3);
    for (int i = 0; i < K * N; i++)
        B[i] = (float)(i % 5 - 2);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++)
                s += A[i * K + k] * B[k * N + j];
            ref[i * N + j] = s;
        }
    CUdeviceptr dA, dB, dC;
    CU_OK("alloc", cuMemAlloc(&dA, sizeof(float) * M * K));
    CU_OK("alloc", cuMemAlloc(&dB, sizeof(float) * K * N));
    CU_OK("alloc", cuMemAlloc(&dC, sizeof(float) * M * N));
    CUstream s;
    CU_OK("stream", cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_OK("copy", cuMemcpyHtoDAsync(dA, A, sizeof(float) * M * K, s));
    CU_OK("copy", cuMemcpyHtoDAsync(dB, B, sizeof(float) * K * N, s));
    CUevent start, stop;
    CU_OK("event", cuEventCreate(&start, CU_EVENT_DEFAULT));
    CU_OK("event", cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CU_OK("record", cuEventRecord(start, s));
    int m = M, n = N, k = K;
    void *args[] = {&dA, &dB, &dC, &m, &n, &k};
    CU_OK("launch", cuLaunchKernel(mm, (N + 15) / 16, (M + 15) / 16, 1, 16, 16, 1, 0, s, args,
                                   NULL));
    CU_OK("record", cuEventRecord(stop, s));
    CU_OK("sync", cuEventSynchronize(stop));
    float ms = -1;
    CU_OK("elapsed", cuEventElapsedTime(&ms, start, stop));
    check(ms >= 0, "driver_event_timing", "%g ms", ms);

    // Back into a host buffer with a wider pitch, through cuMemcpy2D.
    const size_t hpitch = (N + 3) * sizeof(float);
    float *wide = new float[(size_t)M * (N + 3)];
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.srcDevice = dC;
    cp.srcPitch = N * sizeof(float);
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = wide;
    cp.dstPitch = hpitch;
    cp.WidthInBytes = N * sizeof(float);
    cp.Height = M;
    CU_OK("copy2d", cuMemcpy2D(&cp));
    bool ok = true;
    for (int i = 0; i < M && ok; i++)
        for (int j = 0; j < N && ok; j++)
            ok = wide[(size_t)i * (N + 3) + j] == ref[i * N + j];
    check(ok, "driver_matmul_ptx", "C differs from the CPU product");

    // cuLaunchKernelEx with launch attributes (an access policy window, a priority).
    CU_OK("fill", cuMemsetD32Async(dC, 0, M * N, s));
    CUlaunchAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
    attrs[0].value.accessPolicyWindow.base_ptr = (void *)dA;
    attrs[0].value.accessPolicyWindow.num_bytes = sizeof(float) * M * K;
    attrs[0].value.accessPolicyWindow.hitRatio = 0.5f;
    attrs[0].value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    attrs[0].value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    attrs[1].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attrs[1].value.priority = -1;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = (N + 15) / 16;
    cfg.gridDimY = (M + 15) / 16;
    cfg.gridDimZ = 1;
    cfg.blockDimX = 16;
    cfg.blockDimY = 16;
    cfg.blockDimZ = 1;
    cfg.hStream = s;
    cfg.attrs = attrs;
    cfg.numAttrs = 2;
    CU_OK("launch ex", cuLaunchKernelEx(&cfg, mm, args, NULL));
    CU_OK("copy", cuMemcpyDtoHAsync(C, dC, sizeof(float) * M * N, s));
    CU_OK("sync", cuStreamSynchronize(s));
    ok = memcmp(C, ref, sizeof(float) * M * N) == 0;
    check(ok, "driver_launch_kernel_ex", "C differs from the CPU product");

    // A block the device cannot hold: refused at the launch, the context stays usable.
    CUresult r = cuLaunchKernel(mm, 1, 1, 1, 64, 32, 1, 0, s, args, NULL);
    check(r == CUDA_ERROR_INVALID_VALUE, "driver_launch_too_large", "%s", cu_name(r));

    CU_OK("destroy", cuStreamDestroy(s));
    CU_OK("free", cuMemFree(dA));
    CU_OK("free", cuMemFree(dB));
    CU_OK("free", cuMemFree(dC));
    CU_OK("unload", cuModuleUnload(mod));
    CU_OK("release", cuDevicePrimaryCtxRelease(dev));
    delete[] A;
    delete[] B;
    delete[] C;
    delete[] ref;
    delete[] wide;
    return check_finish();
}
