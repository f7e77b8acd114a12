/* test_rt_texref.c: texture and surface references (CUDA 11's texture<> / surface<>), through
 * the runtime calls the shim's __cudaRegisterTexture, cudaBindTextureToArray, ... make. A
 * hand-written PTX module is wrapped in a fatbin and registered like nvcc's host code does:
 * - a unified-mode .texref bound to a 2D float array with linear filtering, clamp addressing and
 *   normalized coordinates, checked against a CPU bilinear filter with the hardware's 9-bit
 *   weights (coordinates chosen where those weights differ from exact ones);
 * - txq on the texref (width, height, normalized_coords, filter_mode, addr_mode_0);
 * - a .surfref bound to an array: sust writes, suld reads a neighbour back;
 * - an independent-mode .samplerref whose initialiser (linear, clamp_to_edge, normalized)
 *   overrides the point / wrap / unnormalized state of the texref it samples, and txq on it;
 * - cudaBindTexture on an unaligned pointer returns the alignment offset, and tex1Dfetch reads
 *   the bound range (zero past its end);
 * - an unbound texref faults with the reference's name, and the API's errors for
 *   references that were never registered;
 * - the sampler initialiser is kept in the IR field by field and survives a print round trip. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"
#include "runtime/rt.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char unified_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .texref tex0;\n"
    ".global .texref never_bound;\n"
    ".global .surfref surf0;\n"
    ".visible .entry sample(.param .u64 xy, .param .u64 out, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .f32 %f<8>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [n];\n  setp.ge.u32 %p1, %r1, %r2;\n"
    "  @%p1 ret;\n"
    "  ld.param.u64 %rd1, [xy];\n  ld.param.u64 %rd2, [out];\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tex0, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.f32 [%rd6], %f3;\n  ret;\n}\n"
    ".visible .entry query(.param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
    "  txq.width.b32 %r1, [tex0];\n  txq.height.b32 %r2, [tex0];\n"
    "  txq.normalized_coords.b32 %r3, [tex0];\n  txq.filter_mode.b32 %r4, [tex0];\n"
    "  txq.addr_mode_0.b32 %r5, [tex0];\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n  st.global.u32 [%rd1+16], %r5;\n"
    "  ret;\n}\n"
    /* each thread (x, y) writes 100*y + x at its texel, then reads its right neighbour */
    ".visible .entry surf_rw(.param .u64 out, .param .u32 w)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r9, [w];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n"
    "  mad.lo.u32 %r3, %r2, 100, %r1;\n  shl.b32 %r4, %r1, 2;\n"
    "  sust.b.2d.b32.trap [surf0, {%r4, %r2}], %r3;\n  bar.sync 0;\n"
    "  add.u32 %r5, %r1, 1;\n  rem.u32 %r5, %r5, %r9;\n  shl.b32 %r6, %r5, 2;\n"
    "  suld.b.2d.b32.trap {%r7}, [surf0, {%r6, %r2}];\n"
    "  mad.lo.u32 %r8, %r2, %r9, %r1;\n  mul.wide.u32 %rd2, %r8, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n  ret;\n}\n"
    /* tex1Dfetch(tex0, idx[i]) */
    ".visible .entry fetch(.param .u64 idx, .param .u64 out)\n{\n"
    "  .reg .f32 %f<5>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [idx];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r2, [%rd4];\n"
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, {%r2}];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.f32 [%rd5], %f1;\n  ret;\n}\n"
    ".visible .entry unbound(.param .u64 out)\n{\n"
    "  .reg .f32 %f<6>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
    "  mov.f32 %f1, 0f3F000000;\n"
    "  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [never_bound, {%f1, %f1}];\n"
    "  st.global.f32 [%rd1], %f2;\n  ret;\n}\n";

static const char independent_ptx[] =
    ".version 7.0\n.target sm_75, texmode_independent\n.address_size 64\n"
    ".global .texref itex;\n"
    ".global .samplerref smp = { addr_mode_0 = clamp_to_edge, addr_mode_1 = clamp_to_edge, "
    "filter_mode = linear };\n"
    ".entry isample(.param .u64 xy, .param .u64 out, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .f32 %f<8>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [n];\n  setp.ge.u32 %p1, %r1, %r2;\n"
    "  @%p1 ret;\n"
    "  ld.param.u64 %rd1, [xy];\n  ld.param.u64 %rd2, [out];\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [itex, smp, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.f32 [%rd6], %f3;\n  ret;\n}\n"
    ".entry squery(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
    "  txq.filter_mode.b32 %r1, [smp];\n  txq.addr_mode_0.b32 %r2, [smp];\n"
    "  txq.force_unnormalized_coords.b32 %r3, [smp];\n"
    "  st.global.v2.u32 [%rd1], {%r1, %r2};\n  st.global.u32 [%rd1+8], %r3;\n  ret;\n}\n";

/* ---------------------------------------------------------------- a fatbin around PTX text */

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

typedef struct fatbin_image {
    uint8_t bytes[16384];
    struct { int32_t magic, version; const void *data, *rest; } wrapper;
} fatbin_image;

/* One uncompressed PTX entry (sm_75, ISA 7.0) in one container, and its wrapper, as nvcc lays
 * them out (frontend/fatbin.c has the format). */
static void *make_fatbin(fatbin_image *img, const char *ptx)
{
    size_t len = strlen(ptx) + 1, padded = (len + 7) & ~(size_t)7;
    ck_assert_uint_le(16 + 64 + padded, sizeof img->bytes);
    memset(img->bytes, 0, sizeof img->bytes);
    uint8_t *c = img->bytes, *e = c + 16;
    put32(c, 0xba55ed50u);
    put16(c + 4, 1);
    put16(c + 6, 16);
    put64(c + 8, 64 + padded);
    put16(e, 1);                  /* PTX */
    put16(e + 2, 0x0101);
    put32(e + 4, 64);             /* header size */
    put64(e + 8, padded);
    put32(e + 0x18, 7u << 16 | 0);
    put32(e + 0x1c, 75);
    put64(e + 0x28, 0x11);        /* 64-bit, Linux */
    memcpy(e + 64, ptx, len);
    img->wrapper.magic = 0x466243b1;
    img->wrapper.version = 1;
    img->wrapper.data = img->bytes;
    img->wrapper.rest = NULL;
    return &img->wrapper;
}

/* ---------------------------------------------------------------- the host side of a program */

static fatbin_image image;
static struct textureReference tex0, never_bound, itex;
static struct surfaceReference surf0;
static const char k_sample = 0, k_query = 0, k_surf = 0, k_unbound = 0, k_isample = 0,
                  k_squery = 0, k_fetch = 0;

static void **register_unified(void)
{
    void **h = rt_register_fatbin(make_fatbin(&image, unified_ptx));
    ck_assert_ptr_nonnull(h);
    rt_register_function(h, &k_sample, "sample");
    rt_register_function(h, &k_query, "query");
    rt_register_function(h, &k_surf, "surf_rw");
    rt_register_function(h, &k_unbound, "unbound");
    rt_register_function(h, &k_fetch, "fetch");
    rt_register_texture(h, &tex0, "tex0", 2, 0, 0);
    rt_register_texture(h, &never_bound, "never_bound", 2, 0, 0);
    rt_register_surface(h, &surf0, "surf0", 2, 0);
    rt_register_fatbin_end(h);
    return h;
}

/* texture<float, 2> with the given state, as its constructor and the program set it */
static void set_ref(struct textureReference *r, int normalized, enum cudaTextureFilterMode f,
                    enum cudaTextureAddressMode a)
{
    memset(r, 0, sizeof *r);
    r->normalized = normalized;
    r->filterMode = f;
    r->addressMode[0] = r->addressMode[1] = r->addressMode[2] = a;
    r->channelDesc = (struct cudaChannelFormatDesc){32, 0, 0, 0, cudaChannelFormatKindFloat};
}

#define W 5
#define H 4

static float texels[H][W];

static cudaArray_t make_array(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            texels[y][x] = (float)(x * x * 3 + y * 17) + (float)((x + 2 * y) % 3) * 0.25f;
    struct cudaChannelFormatDesc d = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t a = NULL;
    ck_assert_int_eq(rt_malloc_array(&a, &d, W, H, 0), cudaSuccess);
    ck_assert_int_eq(rt_memcpy_2d_array(a, 0, 0, NULL, 0, NULL, 0, 0, texels, sizeof texels[0],
                                        sizeof texels[0], H, cudaMemcpyHostToDevice, 0,
                                        "cudaMemcpy2DToArray"),
                     cudaSuccess);
    return a;
}

/* The texture unit's bilinear filter with clamp addressing and normalized coordinates: weights
 * are frac(x * size - 0.5) rounded to 1/256 (CUDA Programming Guide, "Linear Filtering"). */
static float at(int x, int y)
{
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return texels[y][x];
}

static float bilinear(float u, float v)
{
    double xb = (double)u * W - 0.5, yb = (double)v * H - 0.5;
    int i = (int)floor(xb), j = (int)floor(yb);
    double a = nearbyint((xb - i) * 256.0) / 256.0, b = nearbyint((yb - j) * 256.0) / 256.0;
    return (float)((1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
                   (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1));
}

#define NPTS 8
static const float pts[NPTS][2] = {
    {0.5f, 0.5f}, {0.13f, 0.71f}, {0.0f, 0.0f}, {1.0f, 1.0f},      /* the corners clamp */
    {-0.4f, 0.3f}, {0.377f, 1.6f}, {0.611f, 0.2093f}, {0.9f, 0.05f},
};

/* Runs a sampling kernel over pts and compares with the CPU filter. */
static void check_samples(const void *kernel)
{
    float *dxy = NULL, *dout = NULL, got[NPTS];
    ck_assert_int_eq(rt_malloc((void **)&dxy, sizeof pts), cudaSuccess);
    ck_assert_int_eq(rt_malloc((void **)&dout, sizeof got), cudaSuccess);
    ck_assert_int_eq(rt_memcpy(dxy, pts, sizeof pts, cudaMemcpyHostToDevice, 0, "cudaMemcpy"),
                     cudaSuccess);
    uint32_t n = NPTS;
    void *args[] = {&dxy, &dout, &n};
    ck_assert_int_eq(rt_launch(kernel, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(rt_device_synchronize(), cudaSuccess);
    ck_assert_int_eq(rt_memcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost, 0, "cudaMemcpy"),
                     cudaSuccess);
    bool weights_matter = false;
    for (int k = 0; k < NPTS; k++) {
        float want = bilinear(pts[k][0], pts[k][1]);
        ck_assert_msg(fabsf(got[k] - want) <= 1e-4f * fmaxf(1.0f, fabsf(want)),
                      "point %d (%g, %g): got %.6f, want %.6f", k, pts[k][0], pts[k][1],
                      got[k], want);
        /* exact weights would give another value at some point: the test sees the 9 bits */
        double xb = pts[k][0] * W - 0.5, yb = pts[k][1] * H - 0.5;
        int i = (int)floor(xb), j = (int)floor(yb);
        double a = xb - i, b = yb - j;
        double exact = (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
                       (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
        if (fabs(exact - want) > 1e-3)
            weights_matter = true;
    }
    ck_assert(weights_matter);
    rt_free(dxy);
    rt_free(dout);
}

START_TEST(texref_linear_clamp_normalized)
{
    register_unified();
    set_ref(&tex0, 1, cudaFilterModeLinear, cudaAddressModeClamp);
    cudaArray_t a = make_array();
    ck_assert_int_eq(rt_bind_texture_to_array(&tex0, a, &tex0.channelDesc), cudaSuccess);
    check_samples(&k_sample);

    /* txq on the reference: its binding's shape and sampler state (the ISA's codes) */
    uint32_t *dq = NULL, q[5];
    ck_assert_int_eq(rt_malloc((void **)&dq, sizeof q), cudaSuccess);
    void *args[] = {&dq};
    ck_assert_int_eq(rt_launch(&k_query, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(rt_memcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost, 0, "cudaMemcpy"),
                     cudaSuccess);
    ck_assert_uint_eq(q[0], W);
    ck_assert_uint_eq(q[1], H);
    ck_assert_uint_eq(q[2], 1);   /* normalized coordinates */
    ck_assert_uint_eq(q[3], 1);   /* linear */
    ck_assert_uint_eq(q[4], 3);   /* clamp_to_edge */

    const struct textureReference *got = NULL;
    ck_assert_int_eq(rt_get_texture_reference(&got, &tex0), cudaSuccess);
    ck_assert_ptr_eq(got, &tex0);
    size_t off = 99;
    ck_assert_int_eq(rt_get_texture_alignment_offset(&off, &tex0), cudaSuccess);
    ck_assert_uint_eq(off, 0);
    ck_assert_int_eq(rt_unbind_texture(&tex0), cudaSuccess);
    ck_assert_int_eq(rt_get_texture_alignment_offset(&off, &tex0),
                     cudaErrorInvalidTextureBinding);
    rt_free_array(a);
}
END_TEST

START_TEST(texref_linear_memory_offset)
{
    /* cudaBindTexture on an unaligned pointer: the binding starts textureAlignment lower and
     * *offset says by how much (in bytes), as the CUDA 11 reference documents */
    register_unified();
    set_ref(&tex0, 0, cudaFilterModePoint, cudaAddressModeClamp);
    float *d = NULL, host[1024];
    ck_assert_int_eq(rt_malloc((void **)&d, 4096), cudaSuccess);
    for (int i = 0; i < 1024; i++)
        host[i] = (float)i * 1.5f + 0.25f;
    ck_assert_int_eq(rt_memcpy(d, host, sizeof host, cudaMemcpyHostToDevice, 0, "cudaMemcpy"),
                     cudaSuccess);
    size_t off = 0;
    ck_assert_int_eq(rt_bind_texture(&off, &tex0, d + 3, &tex0.channelDesc, 256), cudaSuccess);
    ck_assert_uint_eq(off, 12);
    /* tex1Dfetch(tex0, i + offset / sizeof(float)) reads d[3 + i]; the binding covers the 64
     * floats asked for plus the 3 before them, and fetches past its end read 0 */
    int32_t idx[4] = {3, 4, 66, 67}, *didx = NULL;
    float *dout = NULL, got[4];
    ck_assert_int_eq(rt_malloc((void **)&didx, sizeof idx), cudaSuccess);
    ck_assert_int_eq(rt_malloc((void **)&dout, sizeof got), cudaSuccess);
    ck_assert_int_eq(rt_memcpy(didx, idx, sizeof idx, cudaMemcpyHostToDevice, 0, "cudaMemcpy"),
                     cudaSuccess);
    void *args[] = {&didx, &dout};
    ck_assert_int_eq(rt_launch(&k_fetch, (dim3){1, 1, 1}, (dim3){4, 1, 1}, args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(rt_memcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost, 0, "cudaMemcpy"),
                     cudaSuccess);
    ck_assert_float_eq(got[0], host[3]);
    ck_assert_float_eq(got[1], host[4]);
    ck_assert_float_eq(got[2], host[66]);
    ck_assert_float_eq(got[3], 0.0f);
    size_t off2 = 0;
    ck_assert_int_eq(rt_get_texture_alignment_offset(&off2, &tex0), cudaSuccess);
    ck_assert_uint_eq(off2, 12);
    ck_assert_int_eq(rt_bind_texture(NULL, &tex0, d + 3, &tex0.channelDesc, 256),
                     cudaErrorInvalidValue);
    rt_get_last_error();
    ck_assert_int_eq(rt_bind_texture(&off, &tex0, d, &tex0.channelDesc, (size_t)UINT32_MAX),
                     cudaSuccess);
    ck_assert_uint_eq(off, 0);
    rt_free(d);
}
END_TEST

START_TEST(surfref_store_and_load)
{
    register_unified();
    enum { SW = 8, SH = 3 };
    struct cudaChannelFormatDesc d = {32, 0, 0, 0, cudaChannelFormatKindUnsigned};
    cudaArray_t a = NULL;
    ck_assert_int_eq(rt_malloc_array(&a, &d, SW, SH, cudaArraySurfaceLoadStore), cudaSuccess);
    ck_assert_int_eq(rt_bind_surface_to_array(&surf0, a, &d), cudaSuccess);
    const struct surfaceReference *got = NULL;
    ck_assert_int_eq(rt_get_surface_reference(&got, &surf0), cudaSuccess);
    ck_assert_ptr_eq(got, &surf0);
    uint32_t *dout = NULL, out[SH][SW];
    ck_assert_int_eq(rt_malloc((void **)&dout, sizeof out), cudaSuccess);
    uint32_t w = SW;
    void *args[] = {&dout, &w};
    ck_assert_int_eq(rt_launch(&k_surf, (dim3){1, 1, 1}, (dim3){SW, SH, 1}, args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(rt_device_synchronize(), cudaSuccess);
    ck_assert_int_eq(rt_memcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost, 0, "cudaMemcpy"),
                     cudaSuccess);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            ck_assert_uint_eq(out[y][x], (uint32_t)(100 * y + (x + 1) % SW));
    /* and the array holds what sust wrote */
    uint32_t back[SH][SW];
    ck_assert_int_eq(rt_memcpy_2d_array(NULL, 0, 0, back, sizeof back[0], a, 0, 0, NULL, 0,
                                        sizeof back[0], SH, cudaMemcpyDeviceToHost, 0,
                                        "cudaMemcpy2DFromArray"),
                     cudaSuccess);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            ck_assert_uint_eq(back[y][x], (uint32_t)(100 * y + x));
    rt_free(dout);
    rt_free_array(a);
}
END_TEST

START_TEST(samplerref_independent_mode)
{
    void **h = rt_register_fatbin(make_fatbin(&image, independent_ptx));
    ck_assert_ptr_nonnull(h);
    rt_register_function(h, &k_isample, "isample");
    rt_register_function(h, &k_squery, "squery");
    rt_register_texture(h, &itex, "itex", 2, 0, 0);
    rt_register_fatbin_end(h);
    /* the reference says point, wrap, unnormalized: the sampler's linear, clamp_to_edge and
     * normalized coordinates must win */
    set_ref(&itex, 0, cudaFilterModePoint, cudaAddressModeWrap);
    cudaArray_t a = make_array();
    ck_assert_int_eq(rt_bind_texture_to_array(&itex, a, NULL), cudaSuccess);
    check_samples(&k_isample);
    uint32_t *dq = NULL, q[3];
    ck_assert_int_eq(rt_malloc((void **)&dq, sizeof q), cudaSuccess);
    void *args[] = {&dq};
    ck_assert_int_eq(rt_launch(&k_squery, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, 0),
                     cudaSuccess);
    ck_assert_int_eq(rt_memcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost, 0, "cudaMemcpy"),
                     cudaSuccess);
    ck_assert_uint_eq(q[0], 1);   /* linear */
    ck_assert_uint_eq(q[1], 3);   /* clamp_to_edge */
    ck_assert_uint_eq(q[2], 0);
    rt_free_array(a);
}
END_TEST

START_TEST(unbound_and_unregistered)
{
    register_unified();
    struct textureReference stranger;
    set_ref(&stranger, 0, cudaFilterModePoint, cudaAddressModeClamp);
    cudaArray_t a = make_array();
    ck_assert_int_eq(rt_bind_texture_to_array(&stranger, a, NULL), cudaErrorInvalidTexture);
    ck_assert_int_eq(rt_get_last_error(), cudaErrorInvalidTexture);
    const struct textureReference *got = NULL;
    ck_assert_int_eq(rt_get_texture_reference(&got, &stranger), cudaErrorInvalidTexture);
    struct surfaceReference s2;
    ck_assert_int_eq(rt_bind_surface_to_array(&s2, a, NULL), cudaErrorInvalidSurface);
    rt_get_last_error();

    /* a kernel reading a reference nobody bound: a fault naming it, reported at the next
     * synchronisation like any kernel fault */
    float *dout = NULL;
    ck_assert_int_eq(rt_malloc((void **)&dout, 4), cudaSuccess);
    void *args[] = {&dout};
    rt_launch(&k_unbound, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, 0);
    ck_assert_int_eq(rt_device_synchronize(), cudaErrorIllegalAddress);
}
END_TEST

START_TEST(sampler_initialiser_in_the_ir)
{
    /* the initialiser is kept field by field, printed back, and parses to the same IR */
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(independent_ptx, strlen(independent_ptx), "ind", &d);
    ck_assert_msg(m != NULL, "%s", d.text ? d.text : "");
    int32_t s = ptx_find_symbol(m, -1, "smp");
    ck_assert_int_ge(s, 0);
    const ptx_sampler_init *si = m->syms[s].sampler;
    ck_assert_ptr_nonnull(si);
    ck_assert_uint_eq(si->addr_mode[0], PTX_SAMPLER_CLAMP_TO_EDGE);
    ck_assert_uint_eq(si->addr_mode[1], PTX_SAMPLER_CLAMP_TO_EDGE);
    ck_assert(si->filter_linear);
    ck_assert(!si->force_unnormalized_coords);
    ck_assert_uint_eq(si->written, PTX_SAMPLER_F_ADDR0 | PTX_SAMPLER_F_ADDR1 | PTX_SAMPLER_F_FILTER);
    ck_assert_ptr_null(m->syms[ptx_find_symbol(m, -1, "itex")].sampler);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ptx_print(m, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "addr_mode_1 = clamp_to_edge, filter_mode = linear }"));
    ptx_module *m2 = ptx_parse(text, len, "printed", &d);
    ck_assert_msg(m2 != NULL, "%s", d.text ? d.text : "");
    char why[256];
    ck_assert_msg(ptx_module_equal(m, m2, why, sizeof why), "%s", why);
    free(text);
    ptx_module_free(m2);
    ptx_module_free(m);

    /* an unknown field or value is an error at its line */
    static const char bad[] = ".version 7.0\n.target sm_75, texmode_independent\n"
                              ".address_size 64\n"
                              ".global .samplerref s1 = { filter_mode = cubic };\n";
    ck_assert_ptr_null(ptx_parse(bad, strlen(bad), "bad", &d));
    ck_assert_ptr_nonnull(strstr(d.text, "bad:4:"));
    ck_assert_ptr_nonnull(strstr(d.text, "unknown filter mode 'cubic'"));
    ptx_diag_free(&d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rt_texref");
    TCase *t = tcase_create("texref");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, texref_linear_clamp_normalized);
    tcase_add_test(t, texref_linear_memory_offset);
    tcase_add_test(t, surfref_store_and_load);
    tcase_add_test(t, samplerref_independent_mode);
    tcase_add_test(t, unbound_and_unregistered);
    tcase_add_test(t, sampler_initialiser_in_the_ir);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(suite()); }
