// nvrtc_programs.cu: kernels compiled at run time by the toolkit's NVRTC and run through the
// driver API, as CUDA's *_nvrtc samples do: PTX for a virtual architecture (-arch=compute_XX),
// a cubin for the device's real architecture (--gpu-architecture=sm_XX, which ptxsim runs from
// the same program's PTX), loaded, and linked by the JIT linker when it is relocatable device
// code (-rdc=true; an executable cubin is refused), template instances by name expression and lowered name, a header
// given to NVRTC, several kernels in one program, and a compile error with its log. Checked
// against CPU references.
// nvcc: -lcuda -lnvrtc
#include "drv_check.cuh"

#include <nvrtc.h>

#include <cstring>
#include <string>
#include <vector>

static const char *header = R"(
#pragma once
template <typename T> __device__ T twice(T x) { return x + x; }
)";

static const char *source = R"(
#include "twice.h"
template <typename T>
__global__ void scale(T *x, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = twice(x[i]) * s;
}
extern "C" __global__ void iota(int *x, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = i;
}
)";

#define NVRTC_OK(name, call)                                                                  \
    do {                                                                                      \
        nvrtcResult r_ = (call);                                                              \
        if (r_ != NVRTC_SUCCESS) {                                                            \
            check(false, name, "%s returned %s", #call, nvrtcGetErrorString(r_));             \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

struct compiled {
    std::vector<char> image;
    std::string scale_float, scale_double;
};

static compiled compile(const std::string &arch, bool cubin, const char *extra = "-std=c++17")
{
    nvrtcProgram prog;
    const char *headers[] = {header};
    const char *names[] = {"twice.h"};
    NVRTC_OK("create", nvrtcCreateProgram(&prog, source, "scale.cu", 1, headers, names));
    NVRTC_OK("name", nvrtcAddNameExpression(prog, "scale<float>"));
    NVRTC_OK("name", nvrtcAddNameExpression(prog, "scale<double>"));
    std::string opt = arch;
    const char *opts[] = {opt.c_str(), "-std=c++17", extra};
    nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        std::string log(n, '\0');
        nvrtcGetProgramLog(prog, &log[0]);
        check(false, "nvrtc_compile", "%s: %s", nvrtcGetErrorString(r), log.c_str());
        exit(1);
    }
    compiled c;
    const char *lowered;
    NVRTC_OK("lowered", nvrtcGetLoweredName(prog, "scale<float>", &lowered));
    c.scale_float = lowered;
    NVRTC_OK("lowered", nvrtcGetLoweredName(prog, "scale<double>", &lowered));
    c.scale_double = lowered;
    size_t size = 0;
    if (cubin) {
        NVRTC_OK("cubin size", nvrtcGetCUBINSize(prog, &size));
        c.image.resize(size);
        NVRTC_OK("cubin", nvrtcGetCUBIN(prog, c.image.data()));
    } else {
        NVRTC_OK("ptx size", nvrtcGetPTXSize(prog, &size));
        c.image.resize(size);
        NVRTC_OK("ptx", nvrtcGetPTX(prog, c.image.data()));
    }
    NVRTC_OK("destroy", nvrtcDestroyProgram(&prog));
    return c;
}

template <typename T>
static bool run_scale(CUmodule mod, const std::string &name, T factor)
{
    CUfunction f;
    CU_OK("function", cuModuleGetFunction(&f, mod, name.c_str()));
    const int n = 777;
    std::vector<T> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (T)i;
    CUdeviceptr d;
    CU_OK("alloc", cuMemAlloc(&d, n * sizeof(T)));
    CU_OK("copy", cuMemcpyHtoD(d, h.data(), n * sizeof(T)));
    int nn = n;
    void *args[] = {&d, &factor, &nn};
    CU_OK("launch", cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CU_OK("copy", cuMemcpyDtoH(h.data(), d, n * sizeof(T)));
    CU_OK("free", cuMemFree(d));
    for (int i = 0; i < n; i++)
        if (h[i] != (T)(2 * i) * factor)
            return false;
    return true;
}

static bool run_iota(CUmodule mod)
{
    CUfunction f;
    CU_OK("function", cuModuleGetFunction(&f, mod, "iota"));
    const int n = 5000;
    CUdeviceptr d;
    CU_OK("alloc", cuMemAlloc(&d, n * sizeof(int)));
    int nn = n;
    void *args[] = {&d, &nn};
    CU_OK("launch", cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    std::vector<int> h(n);
    CU_OK("copy", cuMemcpyDtoH(h.data(), d, n * sizeof(int)));
    CU_OK("free", cuMemFree(d));
    for (int i = 0; i < n; i++)
        if (h[i] != i)
            return false;
    return true;
}

int main()
{
    CU_OK("init", cuInit(0));
    CUdevice dev;
    CU_OK("device", cuDeviceGet(&dev, 0));
    int major = 0, minor = 0;
    CU_OK("cc", cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU_OK("cc", cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CUcontext ctx;
    CU_OK("context", cuCtxCreate(&ctx, NULL, 0, dev));
    std::string cc = std::to_string(major) + std::to_string(minor);

    // PTX for the virtual architecture.
    compiled p = compile("-arch=compute_" + cc, false);
    check(p.scale_float != p.scale_double && p.scale_float.find("scale") != std::string::npos,
          "nvrtc_lowered_names", "%s / %s", p.scale_float.c_str(), p.scale_double.c_str());
    check(strstr(p.image.data(), ".target sm_" ) != NULL, "nvrtc_ptx", "no .target in the PTX");
    CUmodule mod;
    CU_OK("load", cuModuleLoadData(&mod, p.image.data()));
    check(run_scale<float>(mod, p.scale_float, 3.0f), "nvrtc_ptx_template_float", "mismatch");
    check(run_scale<double>(mod, p.scale_double, 0.5), "nvrtc_ptx_template_double", "mismatch");
    check(run_iota(mod), "nvrtc_ptx_extern_c", "mismatch");
    CU_OK("unload", cuModuleUnload(mod));

    // A cubin for the device's own architecture, the way the samples' nvrtc_helper.h does it.
    compiled b = compile("--gpu-architecture=sm_" + cc, true);
    check(b.image.size() > 4 && memcmp(b.image.data(), "\177ELF", 4) == 0, "nvrtc_cubin",
          "NVRTC did not return an ELF cubin");
    CU_OK("load", cuModuleLoadData(&mod, b.image.data()));
    check(run_scale<float>(mod, b.scale_float, -2.0f), "nvrtc_cubin_run", "mismatch");
    CU_OK("unload", cuModuleUnload(mod));
    // That cubin is linked for execution: the JIT linker refuses it (as an H100 does), and takes
    // the same program compiled as relocatable device code, copied elsewhere.
    CUlinkState link;
    CU_OK("link", cuLinkCreate(0, NULL, NULL, &link));
    CUresult refused = cuLinkAddData(link, CU_JIT_INPUT_CUBIN, b.image.data(), b.image.size(),
                                     "scale.cubin", 0, NULL, NULL);
    check(refused == CUDA_ERROR_NO_BINARY_FOR_GPU, "nvrtc_cubin_not_relocatable", "%s",
          cu_name(refused));
    CU_OK("destroy", cuLinkDestroy(link));
    compiled rdc = compile("--gpu-architecture=sm_" + cc, true, "-rdc=true");
    std::vector<char> copy = rdc.image;
    CU_OK("link", cuLinkCreate(0, NULL, NULL, &link));
    CU_OK("add", cuLinkAddData(link, CU_JIT_INPUT_CUBIN, copy.data(), copy.size(), "scale.cubin",
                               0, NULL, NULL));
    void *image;
    size_t size;
    CU_OK("complete", cuLinkComplete(link, &image, &size));
    CU_OK("load", cuModuleLoadData(&mod, image));
    CU_OK("destroy", cuLinkDestroy(link));
    check(run_iota(mod), "nvrtc_cubin_linked", "mismatch");
    CU_OK("unload", cuModuleUnload(mod));

    // A compile error: NVRTC's own answer and log, nothing loaded.
    nvrtcProgram bad;
    NVRTC_OK("create", nvrtcCreateProgram(&bad, "__global__ void k() { undeclared(); }",
                                          "bad.cu", 0, NULL, NULL));
    nvrtcResult r = nvrtcCompileProgram(bad, 0, NULL);
    size_t logn = 0;
    nvrtcGetProgramLogSize(bad, &logn);
    std::string log(logn, '\0');
    nvrtcGetProgramLog(bad, &log[0]);
    check(r == NVRTC_ERROR_COMPILATION && log.find("undeclared") != std::string::npos,
          "nvrtc_compile_error", "%s", nvrtcGetErrorString(r));
    nvrtcDestroyProgram(&bad);

    CU_OK("destroy", cuCtxDestroy(ctx));
    return check_finish();
}
