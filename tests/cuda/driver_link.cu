// driver_link.cu: the JIT linker. Two PTX modules, one calling a function and reading a
// variable the other defines, linked with cuLinkCreate / cuLinkAddData / cuLinkAddFile /
// cuLinkComplete and loaded from the image; the logs (the info log empty unless
// CU_JIT_LOG_VERBOSE asks for it, as on an H100); under ptxsim, its image (a fatbin of the
// linked PTX) fed back as an input; and a link with an undefined reference failing at
// cuLinkComplete. Checked against a CPU reference.
// nvcc: -lcuda
#include "drv_check.cuh"

#include <cstring>
#include <unistd.h>

static const char *main_ptx = R"(
.version 7.0
.target sm_50
.address_size 64
.extern .func (.param .b32 r) square(.param .b32 x);
.extern .global .align 4 .u32 offset;
.visible .entry apply(.param .u64 out, .param .u32 n)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.s32 %r5, %r3, %r4, %r2;
    setp.ge.u32 %p, %r5, %r1;
    @%p bra DONE;
    {
        .param .b32 x;
        .param .b32 r;
        st.param.b32 [x], %r5;
        call.uni (r), square, (x);
        ld.param.b32 %r6, [r];
    }
    ld.global.u32 %r7, [offset];
    add.s32 %r6, %r6, %r7;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r5, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r6;
DONE:
    ret;
}
)";

static const char *lib_ptx = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .global .align 4 .u32 offset = 7;
.visible .func (.param .b32 r) square(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    mul.lo.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
)";

static bool run_and_check(CUmodule mod, const char *name)
{
    CUfunction f;
    CU_OK(name, cuModuleGetFunction(&f, mod, "apply"));
    const int n = 300;
    CUdeviceptr d;
    CU_OK(name, cuMemAlloc(&d, n * sizeof(int)));
    int nn = n;
    void *args[] = {&d, &nn};
    CU_OK(name, cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    int h[n];
    CU_OK(name, cuMemcpyDtoH(h, d, sizeof h));
    CU_OK(name, cuMemFree(d));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == i * i + 7;
    return check(ok, name, "h[5] = %d", h[5]);
}

// ptxsim's linked image (a fatbin) fed back to the linker, with the verbose info log.
static void relink(void *image, size_t image_size)
{
    const unsigned char *magic = (const unsigned char *)image;
    bool fatbin = image_size >= 4 && magic[0] == 0x50 && magic[1] == 0xed && magic[2] == 0x55 &&
                  magic[3] == 0xba;
    char info[256] = "";
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_LOG_VERBOSE};
    void *vals[] = {info, (void *)(uintptr_t)sizeof info, (void *)(uintptr_t)1};
    CUlinkState again;
    CU_OK("link", cuLinkCreate(3, opts, vals, &again));
    CU_OK("add fatbin", cuLinkAddData(again, CU_JIT_INPUT_FATBINARY, image, image_size,
                                      "linked.fatbin", 0, NULL, NULL));
    void *image2 = NULL;
    size_t size2 = 0;
    CU_OK("complete", cuLinkComplete(again, &image2, &size2));
    check(fatbin && strstr(info, "linked 2"), "driver_link_verbose_log", "info \"%s\"", info);
    CUmodule mod2;
    CU_OK("load", cuModuleLoadData(&mod2, image2));
    run_and_check(mod2, "driver_link_fatbin_input");
    CU_OK("destroy", cuLinkDestroy(again));
    CU_OK("unload", cuModuleUnload(mod2));
}

int main()
{
    CU_OK("init", cuInit(0));
    CUcontext ctx;
    CU_OK("context", cuCtxCreate(&ctx, NULL, 0, 0));

    char info[256] = "", error[256] = "";
    float wall = -1;
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_WALL_TIME};
    void *vals[] = {info, (void *)(uintptr_t)sizeof info, error,
                    (void *)(uintptr_t)sizeof error, NULL};
    CUlinkState link;
    CU_OK("link", cuLinkCreate(5, opts, vals, &link));
    CU_OK("add", cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)main_ptx, strlen(main_ptx) + 1,
                               "main.ptx", 0, NULL, NULL));
    // The library from a file.
    char path[] = "/tmp/ptxsim_lib_XXXXXX";
    int fd = mkstemp(path);
    bool wrote = fd >= 0 && write(fd, lib_ptx, strlen(lib_ptx)) == (ssize_t)strlen(lib_ptx);
    if (fd >= 0)
        close(fd);
    CU_OK("add file", wrote ? cuLinkAddFile(link, CU_JIT_INPUT_PTX, path, 0, NULL, NULL)
                            : CUDA_ERROR_FILE_NOT_FOUND);
    unlink(path);
    void *image = NULL;
    size_t image_size = 0;
    CU_OK("complete", cuLinkComplete(link, &image, &image_size));
    memcpy(&wall, &vals[4], sizeof wall);
    check(image && image_size > 0 && !info[0] && wall >= 0, "driver_link_logs",
          "image %zu bytes, info \"%s\", %g ms", image_size, info, wall);
    CUmodule mod;
    CU_OK("load", cuModuleLoadData(&mod, image));
    run_and_check(mod, "driver_link_run");
    CUdeviceptr offset_ptr;
    size_t offset_size = 0;
    CU_OK("global", cuModuleGetGlobal(&offset_ptr, &offset_size, mod, "offset"));
    check(offset_size == 4, "driver_link_global", "offset is %zu bytes", offset_size);

    // Under ptxsim the linked image, a fatbin of the linked PTX, is itself an input: the link
    // asks for the verbose info log, which ptxsim fills with what it linked. (A GPU's linker
    // gives an executable cubin for the device's own architecture, which is no fatbin: an H100
    // answered CUDA_ERROR_NO_BINARY_FOR_GPU to it as CU_JIT_INPUT_FATBINARY.)
    if (on_ptxsim())
        relink(image, image_size);
    CU_OK("destroy", cuLinkDestroy(link));

    // Without the library, `square` and `offset` stay undefined: cuLinkComplete fails and says
    // which in the error log.
    CUlinkState broken;
    error[0] = 0;
    vals[3] = (void *)(uintptr_t)sizeof error;
    CU_OK("link", cuLinkCreate(5, opts, vals, &broken));
    CU_OK("add", cuLinkAddData(broken, CU_JIT_INPUT_PTX, (void *)main_ptx, strlen(main_ptx) + 1,
                               "main.ptx", 0, NULL, NULL));
    CUresult r = cuLinkComplete(broken, &image, &image_size);
    check(r != CUDA_SUCCESS && strstr(error, "square"), "driver_link_undefined",
          "%s, error log \"%s\"", cu_name(r), error);
    cuLinkDestroy(broken);

    CU_OK("unload", cuModuleUnload(mod));
    CU_OK("destroy", cuCtxDestroy(ctx));
    return check_finish();
}
