/* texref_cuda11.c: a C program shaped like a CUDA 11 binary that uses texture and surface
 * references, for tests/suites/texref_cuda11.sh. It links against libcudart.so.11.0 (the
 * shim under CUDA 11's soname) and does what nvcc 11's host code does for
 *     texture<float, 2> tex;  surface<void, 2> surf;
 *     __global__ void sample(const float2 *xy, float *out, int n);
 *     __global__ void bump(int w);
 * registering a fatbin with their PTX (a raw, uncompressed PTX entry), the kernels, the
 * texture and the surface, then binds them with cudaBindTextureToArray / cudaBindSurfaceToArray
 * and launches with cudaLaunchKernel, and with the pre-CUDA-9 launch ABI (cudaConfigureCall,
 * cudaSetupArgument, cudaLaunch) that ptxsim keeps in its CUDA 11 runtime only (CUDA 13's
 * does not export it). Results are checked against a CPU reference; one
 * "PASS name" / "FAIL name: why" line per check. It also checks an error CUDA 11's runtime
 * answers otherwise than CUDA 13's (a launch configuration the device cannot have). */
#include <cuda_runtime_api.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* CUDA 11's layouts (texture_types.h, surface_types.h); CUDA 12 removed them. */
struct textureReference {
    int normalized;
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureAddressMode addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
    int sRGB;
    unsigned maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int __cudaReserved[14];
};
struct surfaceReference {
    struct cudaChannelFormatDesc channelDesc;
};

/* The CUDA 11 runtime entry points this program calls that CUDA 13's header lacks. */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterTexture(void **handle, const struct textureReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int norm,
                           int ext);
void __cudaRegisterSurface(void **handle, const struct surfaceReference *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int ext);
cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);
cudaError_t cudaUnbindTexture(const struct textureReference *texref);
cudaError_t cudaGetTextureReference(const struct textureReference **texref, const void *symbol);
cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                                   cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);

/* The pre-CUDA-9 launch ABI: CUDA 11's runtime exports it, CUDA 13's does not. */
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
cudaError_t cudaLaunch(const void *func);

static const char ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .texref tex;\n.global .surfref surf;\n"
    ".visible .entry sample(.param .u64 xy, .param .u64 out, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .f32 %f<8>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [n];\n  setp.ge.u32 %p1, %r1, %r2;\n"
    "  @%p1 ret;\n  ld.param.u64 %rd1, [xy];\n  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tex, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.f32 [%rd6], %f3;\n  ret;\n}\n"
    /* texel (x, y) of surf += 10 * y + x, via suld and sust (surf2Dread / surf2Dwrite) */
    ".visible .entry bump(.param .u32 w)\n{\n"
    "  .reg .b32 %r<8>;\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n"
    "  shl.b32 %r3, %r1, 2;\n  suld.b.2d.b32.trap {%r4}, [surf, {%r3, %r2}];\n"
    "  mad.lo.u32 %r5, %r2, 10, %r1;\n  add.u32 %r4, %r4, %r5;\n"
    "  sust.b.2d.b32.trap [surf, {%r3, %r2}], %r4;\n  ret;\n}\n";

static uint8_t fatbin[16 + 64 + sizeof ptx + 8] __attribute__((aligned(8)));
static struct { int magic, version; const void *data, *unused; } wrapper;
static struct textureReference tex;
static struct surfaceReference surf;
/* nvcc's host stubs: their addresses name the kernels */
static void sample_stub(void) {}
static void bump_stub(void) {}

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

__attribute__((constructor)) static void register_module(void)
{
    size_t len = sizeof ptx, padded = (len + 7) & ~(size_t)7;
    put(fatbin, 0xba55ed50u, 4);
    put(fatbin + 4, 1, 2);
    put(fatbin + 6, 16, 2);
    put(fatbin + 8, 64 + padded, 8);
    uint8_t *e = fatbin + 16;
    put(e, 1, 2);
    put(e + 2, 0x0101, 2);
    put(e + 4, 64, 4);
    put(e + 8, padded, 8);
    put(e + 0x18, 7u << 16, 4);
    put(e + 0x1c, 75, 4);
    put(e + 0x28, 0x11, 8);
    memcpy(e + 64, ptx, len);
    wrapper.magic = 0x466243b1;
    wrapper.version = 1;
    wrapper.data = fatbin;
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)sample_stub, (char *)"sample", "sample", -1, NULL,
                           NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, (const char *)bump_stub, (char *)"bump", "bump", -1, NULL, NULL,
                           NULL, NULL, NULL);
    __cudaRegisterTexture(h, &tex, (const void **)"tex", "tex", 2, 0, 0);
    __cudaRegisterSurface(h, &surf, (const void **)"surf", "surf", 2, 0);
    __cudaRegisterFatBinaryEnd(h);
}

static int failures, checks;

static void check(int ok, const char *name, const char *why)
{
    checks++;
    if (ok) {
        printf("PASS %s\n", name);
    } else {
        failures++;
        printf("FAIL %s: %s\n", name, why);
    }
}

#define W 6
#define H 5
static float img[H][W];

static float at(int x, int y)
{
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return img[y][x];
}

/* linear filtering, clamp, normalized coordinates, weights in 1/256 steps */
static float bilinear(float u, float v)
{
    double xb = (double)u * W - 0.5, yb = (double)v * H - 0.5;
    int i = (int)floor(xb), j = (int)floor(yb);
    double a = nearbyint((xb - i) * 256) / 256, b = nearbyint((yb - j) * 256) / 256;
    return (float)((1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
                   (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1));
}

int main(void)
{
    char why[256];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = (float)(x * 7 + y * y * 5) * 0.5f;
    struct cudaChannelFormatDesc fd = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t arr;
    cudaError_t e = cudaMallocArray(&arr, &fd, W, H, 0);
    if (e == cudaSuccess)
        e = cudaMemcpy2DToArray(arr, 0, 0, img, sizeof img[0], sizeof img[0], H,
                                cudaMemcpyHostToDevice);
    check(e == cudaSuccess, "array", cudaGetErrorString(e));

    /* texture<float, 2> tex; tex.normalized = true; linear; clamp (the constructor's default) */
    tex.normalized = 1;
    tex.filterMode = cudaFilterModeLinear;
    tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = cudaAddressModeClamp;
    tex.channelDesc = fd;
    const struct textureReference *ref = NULL;
    e = cudaGetTextureReference(&ref, &tex);
    check(e == cudaSuccess && ref == &tex, "get_texture_reference", cudaGetErrorString(e));
    e = cudaBindTextureToArray(&tex, arr, &fd);
    check(e == cudaSuccess, "bind_texture_to_array", cudaGetErrorString(e));

    enum { N = 6 };
    float xy[N][2] = {{0.5f, 0.5f}, {0.21f, 0.77f}, {0.0f, 1.0f}, {1.3f, -0.2f},
                      {0.6667f, 0.1234f}, {0.93f, 0.41f}};
    float *dxy, *dout, got[N];
    cudaMalloc((void **)&dxy, sizeof xy);
    cudaMalloc((void **)&dout, sizeof got);
    cudaMemcpy(dxy, xy, sizeof xy, cudaMemcpyHostToDevice);
    int n = N;
    void *args[] = {&dxy, &dout, &n};
    e = cudaLaunchKernel((const void *)sample_stub, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0,
                         0);
    if (e == cudaSuccess)
        e = cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    check(e == cudaSuccess, "launch_sample", cudaGetErrorString(e));
    int ok = e == cudaSuccess;
    why[0] = 0;
    for (int k = 0; k < N && ok; k++) {
        float want = bilinear(xy[k][0], xy[k][1]);
        if (fabsf(got[k] - want) > 1e-4f * fmaxf(1.0f, fabsf(want))) {
            snprintf(why, sizeof why, "point %d: got %.6f, want %.6f", k, got[k], want);
            ok = 0;
        }
    }
    check(ok, "tex2D_linear_clamp_normalized", why);

    /* The same launch through cudaConfigureCall, one cudaSetupArgument per parameter at its
     * offset, and cudaLaunch; then cudaLaunch with no configuration. */
    float legacy_got[N];
    e = cudaMemset(dout, 0, sizeof got);
    if (e == cudaSuccess)
        e = cudaConfigureCall((dim3){1, 1, 1}, (dim3){32, 1, 1}, 0, 0);
    if (e == cudaSuccess)
        e = cudaSetupArgument(&dxy, sizeof dxy, 0);
    if (e == cudaSuccess)
        e = cudaSetupArgument(&dout, sizeof dout, 8);
    if (e == cudaSuccess)
        e = cudaSetupArgument(&n, sizeof n, 16);
    if (e == cudaSuccess)
        e = cudaLaunch((const void *)sample_stub);
    if (e == cudaSuccess)
        e = cudaMemcpy(legacy_got, dout, sizeof legacy_got, cudaMemcpyDeviceToHost);
    check(e == cudaSuccess && memcmp(legacy_got, got, sizeof got) == 0, "legacy_launch",
          e == cudaSuccess ? "results differ from cudaLaunchKernel's" : cudaGetErrorString(e));
    e = cudaLaunch((const void *)sample_stub);
    check(e == cudaErrorMissingConfiguration, "legacy_launch_unconfigured",
          cudaGetErrorName(e));
    cudaGetLastError();
    /* A block the device cannot have: the runtimes before CUDA 13 (this program's) report
     * cudaErrorInvalidConfiguration, where CUDA 13's reports cudaErrorInvalidValue. */
    e = cudaLaunchKernel((const void *)sample_stub, (dim3){1, 1, 1}, (dim3){2048, 1, 1}, args,
                         0, 0);
    cudaError_t last = cudaGetLastError(), after = cudaGetLastError();
    check(e == cudaErrorInvalidConfiguration && last == e && after == cudaSuccess,
          "launch_configuration_error", cudaGetErrorName(e));
    e = cudaUnbindTexture(&tex);
    check(e == cudaSuccess, "unbind_texture", cudaGetErrorString(e));

    /* surface<void, 2> surf bound to an array made for surface load/store */
    struct cudaChannelFormatDesc id = {32, 0, 0, 0, cudaChannelFormatKindUnsigned};
    cudaArray_t sa;
    enum { SW = 4, SH = 3 };
    uint32_t init[SH][SW], back[SH][SW];
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) init[y][x] = 1000u * (uint32_t)(y + 1);
    e = cudaMallocArray(&sa, &id, SW, SH, cudaArraySurfaceLoadStore);
    if (e == cudaSuccess)
        e = cudaMemcpy2DToArray(sa, 0, 0, init, sizeof init[0], sizeof init[0], SH,
                                cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaBindSurfaceToArray(&surf, sa, &id);
    check(e == cudaSuccess, "bind_surface_to_array", cudaGetErrorString(e));
    int w = SW;
    void *bargs[] = {&w};
    e = cudaLaunchKernel((const void *)bump_stub, (dim3){1, 1, 1}, (dim3){SW, SH, 1}, bargs, 0,
                         0);
    if (e == cudaSuccess)
        e = cudaMemcpy2DFromArray(back, sizeof back[0], sa, 0, 0, sizeof back[0], SH,
                                  cudaMemcpyDeviceToHost);
    ok = e == cudaSuccess;
    snprintf(why, sizeof why, "%s", cudaGetErrorString(e));
    for (int y = 0; y < SH && ok; y++)
        for (int x = 0; x < SW && ok; x++)
            if (back[y][x] != 1000u * (uint32_t)(y + 1) + (uint32_t)(10 * y + x)) {
                snprintf(why, sizeof why, "texel (%d, %d) is %u", x, y, back[y][x]);
                ok = 0;
            }
    check(ok, "surf2D_read_write", why);
    cudaFree(dxy);
    cudaFree(dout);
    cudaFreeArray(arr);
    cudaFreeArray(sa);
    return failures ? 1 : 0;
}
