/* test_adv_ptx.c: PTX-level checks of the advanced semantics that CUDA C++ does not reach:
 * txq / suq / istypep on texture and surface objects, tld4's four components, tex with texel
 * offsets, integer coordinates and .f16x2 results, formatted surface stores (sust.p) and surface
 * reductions (sured), cp.async's ignore-src predicate, a misaligned cp.async.bulk, device malloc
 * returning NULL once the heap is exhausted and free of a foreign pointer, and device printf
 * records reaching stdout in order only when flushed, and only as many as the FIFO holds (the
 * overflow counted). Expected values come from the PTX ISA (query codes, component order, zero
 * fill) or a CPU model of the operation.
 */
#include "tests/unit/conformance_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

static void run_ok(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block,
                   const uint64_t *params, int nparams)
{
    conf_result r;
    if (conf_run_k(name, ptx, grid, block, 0, params, nparams, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
}

/* A 4 x 3 texture of uint32 texels (x + 10 y), point sampled, clamped, or a surface. */
static uint64_t make_obj(uint32_t *texels, bool surface, uint8_t mode)
{
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) texels[y * 4 + x] = (uint32_t)(x + 10 * y);
    emu_texture t;
    memset(&t, 0, sizeof t);
    t.surface = surface;
    t.dims = 2;
    t.nchan = 1;
    t.bits[0] = 32;
    t.kind = EMU_TEXEL_UNSIGNED;
    t.elem = 4;
    t.address[0] = t.address[1] = mode;
    t.nlevels = 1;
    t.level[0] = (emu_tex_level){ conf_dev_addr(texels), 4, 3, 1, 16, 48 };
    return emu_texture_create(&t);
}

/* ---------------------------------------------------------------- queries */

START_TEST(txq_suq_istypep)
{
    uint32_t *texels = conf_dev_alloc(48), *out = conf_dev_alloc(64);
    uint64_t tex = make_obj(texels, false, EMU_TEX_BORDER);
    uint64_t surf = make_obj(texels, true, EMU_TEX_CLAMP);
    ck_assert(tex && surf);
    static const char ptx[] = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 o, .param .u64 t, .param .u64 s)\n"
        "{\n"
        "  .reg .b32 %r<16>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
        "  ld.param.u64 %rd1, [o]; ld.param.u64 %rd2, [t]; ld.param.u64 %rd3, [s];\n"
        "  txq.width.b32 %r1, [%rd2];\n"
        "  txq.height.b32 %r2, [%rd2];\n"
        "  txq.channel_data_type.b32 %r3, [%rd2];\n"
        "  txq.channel_order.b32 %r4, [%rd2];\n"
        "  txq.normalized_coords.b32 %r5, [%rd2];\n"
        "  txq.addr_mode_0.b32 %r6, [%rd2];\n"
        "  txq.filter_mode.b32 %r7, [%rd2];\n"
        "  suq.width.b32 %r8, [%rd3];\n"
        "  suq.height.b32 %r9, [%rd3];\n"
        "  istypep.texref %p1, %rd2; selp.u32 %r10, 1, 0, %p1;\n"
        "  istypep.surfref %p2, %rd2; selp.u32 %r11, 1, 0, %p2;\n"
        "  istypep.surfref %p3, %rd3; selp.u32 %r12, 1, 0, %p3;\n"
        "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
        "  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n"
        "  st.global.v4.u32 [%rd1+32], {%r9, %r10, %r11, %r12};\n"
        "  ret;\n"
        "}\n";
    uint64_t params[3] = { conf_dev_addr(out), tex, surf };
    run_ok("txq", ptx, DIM(1, 1, 1), DIM(1, 1, 1), params, 3);
    /* width, height, CL_UNSIGNED_INT32, CL_R, unnormalized, clamp_to_border (4), nearest */
    const uint32_t want[12] = { 4, 3, 0x10DC, 0x10B0, 0, 4, 0, 4, 3, 1, 0, 1 };
    for (int i = 0; i < 12; i++) ck_assert_msg(out[i] == want[i], "query %d: got %u, want %u", i, out[i], want[i]);
    emu_texture_destroy(tex);
    emu_texture_destroy(surf);
}
END_TEST

/* ---------------------------------------------------------------- tld4 and tex forms */

START_TEST(tld4_components_and_tex_forms)
{
    /* 2 x 2 RGBA u32 texels: channel c of texel (x, y) = 100 c + 10 y + x */
    uint32_t *texels = conf_dev_alloc(64), *out = conf_dev_alloc(4 * 16 + 64);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            for (int c = 0; c < 4; c++) texels[(y * 2 + x) * 4 + c] = (uint32_t)(100 * c + 10 * y + x);
    emu_texture t;
    memset(&t, 0, sizeof t);
    t.dims = 2;
    t.nchan = 4;
    for (int i = 0; i < 4; i++) t.bits[i] = 32;
    t.kind = EMU_TEXEL_UNSIGNED;
    t.elem = 16;
    t.address[0] = t.address[1] = EMU_TEX_CLAMP;
    t.nlevels = 1;
    t.level[0] = (emu_tex_level){ conf_dev_addr(texels), 2, 2, 1, 32, 64 };
    uint64_t h = emu_texture_create(&t);
    ck_assert(h);
    static const char ptx[] = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 o, .param .u64 t)\n"
        "{\n"
        "  .reg .b32 %r<40>; .reg .b64 %rd<4>; .reg .f32 %f<4>;\n"
        "  ld.param.u64 %rd1, [o]; ld.param.u64 %rd2, [t];\n"
        "  mov.f32 %f1, 0f3F800000; mov.f32 %f2, 0f3F800000;\n"   /* (1, 1): footprint (0..1, 0..1) */
        "  tld4.r.2d.v4.u32.f32 {%r1,%r2,%r3,%r4}, [%rd2, {%f1, %f2}];\n"
        "  tld4.g.2d.v4.u32.f32 {%r5,%r6,%r7,%r8}, [%rd2, {%f1, %f2}];\n"
        "  tld4.b.2d.v4.u32.f32 {%r9,%r10,%r11,%r12}, [%rd2, {%f1, %f2}];\n"
        "  tld4.a.2d.v4.u32.f32 {%r13,%r14,%r15,%r16}, [%rd2, {%f1, %f2}];\n"
        "  st.global.v4.u32 [%rd1], {%r1,%r2,%r3,%r4};\n"
        "  st.global.v4.u32 [%rd1+16], {%r5,%r6,%r7,%r8};\n"
        "  st.global.v4.u32 [%rd1+32], {%r9,%r10,%r11,%r12};\n"
        "  st.global.v4.u32 [%rd1+48], {%r13,%r14,%r15,%r16};\n"
        /* integer coordinates (1, 0), then an offset of (+1, +1) from (0, 0) */
        "  mov.b32 %r20, 1; mov.b32 %r21, 0;\n"
        "  tex.2d.v4.u32.s32 {%r22,%r23,%r24,%r25}, [%rd2, {%r20, %r21}];\n"
        "  mov.f32 %f3, 0f3F000000;\n"
        "  tex.2d.v4.u32.f32 {%r26,%r27,%r28,%r29}, [%rd2, {%f3, %f3}], {%r20, %r20};\n"
        "  st.global.v4.u32 [%rd1+64], {%r22,%r23,%r24,%r25};\n"
        "  st.global.v4.u32 [%rd1+80], {%r26,%r27,%r28,%r29};\n"
        "  ret;\n"
        "}\n";
    uint64_t params[2] = { conf_dev_addr(out), h };
    run_ok("tld4", ptx, DIM(1, 1, 1), DIM(1, 1, 1), params, 2);
    /* counter-clockwise from the lower left: (0,1) (1,1) (1,0) (0,0) */
    for (int c = 0; c < 4; c++) {
        const uint32_t w[4] = { 100u * c + 10, 100u * c + 11, 100u * c + 1, 100u * c };
        for (int q = 0; q < 4; q++)
            ck_assert_msg(out[c * 4 + q] == w[q], "component %d texel %d: got %u, want %u", c, q,
                          out[c * 4 + q], w[q]);
    }
    for (int c = 0; c < 4; c++) {
        ck_assert_uint_eq(out[16 + c], 100u * c + 1);        /* texel (1, 0) */
        ck_assert_uint_eq(out[20 + c], 100u * c + 11);       /* texel (0, 0) + (1, 1) */
    }
    emu_texture_destroy(h);
}
END_TEST

/* ---------------------------------------------------------------- sust.p and sured */

START_TEST(surface_formatted_and_reductions)
{
    uint32_t *texels = conf_dev_alloc(48);
    uint64_t s = make_obj(texels, true, EMU_TEX_CLAMP);
    static const char ptx[] = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 s)\n"
        "{\n"
        "  .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [s];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  mov.b32 %r2, 0; mov.b32 %r3, 4; mov.b32 %r4, 2;\n"
        "  sured.b.add.2d.u32.trap [%rd1, {%r3, %r2}], %r1;\n"            /* texel (1,0) += tid */
        "  sured.b.max.2d.u32.trap [%rd1, {%r2, %r4}], %r1;\n"            /* texel (0,2) max= tid */
        "  mov.b32 %r5, 12; mov.b32 %r6, 1; mov.b32 %r7, 777;\n"
        "  sust.p.2d.b32.trap [%rd1, {%r6, %r6}], {%r7};\n"               /* element x=1, y=1 */
        "  ret;\n"
        "}\n";
    uint64_t params[1] = { s };
    run_ok("sured", ptx, DIM(1, 1, 1), DIM(32, 1, 1), params, 1);
    ck_assert_uint_eq(texels[1], 1u + 31 * 32 / 2);   /* 1 + sum of 0..31 */
    ck_assert_uint_eq(texels[8], 31u);                /* max(20, 0..31) */
    ck_assert_uint_eq(texels[5], 777u);
    emu_texture_destroy(s);
}
END_TEST

/* ---------------------------------------------------------------- async copies */

START_TEST(cp_async_ignore_src)
{
    uint32_t *src = conf_dev_alloc(32 * 16), *out = conf_dev_alloc(32 * 16);
    for (int i = 0; i < 32 * 4; i++) src[i] = 0x1000u + (uint32_t)i;
    static const char ptx[] = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 s, .param .u64 o)\n"
        "{\n"
        "  .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .pred %p<2>;\n"
        "  .shared .align 16 .b8 buf[512];\n"
        "  ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [o];\n"
        "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 16; add.s64 %rd4, %rd1, %rd3;\n"
        "  mov.u32 %r2, buf; shl.b32 %r3, %r1, 4; add.s32 %r4, %r2, %r3;\n"
        "  and.b32 %r5, %r1, 1; setp.eq.u32 %p1, %r5, 1;\n"               /* odd lanes: ignore */
        "  cp.async.cg.shared.global [%r4], [%rd4], 16, %p1;\n"
        "  cp.async.wait_all;\n"
        "  bar.sync 0;\n"
        "  ld.shared.v4.u32 {%r0, %r5, %r6, %r7}, [%r4];\n"
        "  add.s64 %rd5, %rd2, %rd3;\n"
        "  st.global.v4.u32 [%rd5], {%r0, %r5, %r6, %r7};\n"
        "  ret;\n"
        "}\n";
    uint64_t params[2] = { conf_dev_addr(src), conf_dev_addr(out) };
    run_ok("ignore_src", ptx, DIM(1, 1, 1), DIM(32, 1, 1), params, 2);
    for (int l = 0; l < 32; l++)
        for (int w = 0; w < 4; w++)
            ck_assert_uint_eq(out[l * 4 + w], (l & 1) ? 0u : src[l * 4 + w]);
}
END_TEST

START_TEST(cp_async_bulk_misaligned_faults)
{
    uint32_t *src = conf_dev_alloc(256);
    static const char ptx[] = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 s)\n"
        "{\n"
        "  .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
        "  .shared .align 16 .b8 buf[256];\n"
        "  .shared .align 8 .b64 bar;\n"
        "  ld.param.u64 %rd1, [s];\n"
        "  mov.u32 %r1, bar; mbarrier.init.shared.b64 [%r1], 1;\n"
        "  mov.u32 %r2, buf; add.s64 %rd2, %rd1, 8;\n"
        "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd2], 64, [%r1];\n"
        "  ret;\n"
        "}\n";
    uint64_t params[1] = { conf_dev_addr(src) };
    conf_result r;
    ck_assert_int_eq(conf_run_k("bulk", ptx, DIM(1, 1, 1), DIM(1, 1, 1), 0, params, 1, &r), CONF_FAULTED);
    ck_assert_int_eq(r.fault.kind, EMU_FAULT_MISALIGNED);
}
END_TEST

/* ---------------------------------------------------------------- heap */

START_TEST(heap_exhaustion_and_bad_free)
{
    uint64_t *out = conf_dev_alloc(32 * 8);
    emu_heap_release_all();
    emu_heap_set_size(4096);
    static const char ptx[] = CONF_PTX_HEADER
        ".extern .func (.param .b64 r) malloc (.param .b64 n);\n"
        ".extern .func free (.param .b64 p);\n"
        ".visible .entry k(.param .u64 o)\n"
        "{\n"
        "  .reg .b32 %r<2>; .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [o];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  { .param .b64 n; .param .b64 r; st.param.b64 [n], 1000;\n"
        "    call.uni (r), malloc, (n); ld.param.b64 %rd2, [r]; }\n"
        "  mul.wide.u32 %rd3, %r1, 8; add.s64 %rd4, %rd1, %rd3; st.global.u64 [%rd4], %rd2;\n"
        "  ret;\n"
        "}\n";
    uint64_t params[1] = { conf_dev_addr(out) };
    run_ok("heap", ptx, DIM(1, 1, 1), DIM(32, 1, 1), params, 1);
    /* 4096 bytes hold four blocks of 1000 bytes (1008 + 16 bytes of overhead each), no more */
    int got = 0;
    for (int i = 0; i < 32; i++) got += out[i] != 0;
    ck_assert_int_eq(got, 4);
    for (int i = 0; i < 32; i++) ck_assert(out[i] % 16 == 0);
    static const char bad[] = CONF_PTX_HEADER
        ".extern .func free (.param .b64 p);\n"
        ".visible .entry k(.param .u64 o)\n"
        "{\n"
        "  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [o];\n"
        "  { .param .b64 p; st.param.b64 [p], %rd1; call.uni free, (p); }\n"
        "  ret;\n"
        "}\n";
    conf_result r;
    ck_assert_int_eq(conf_run_k("bad_free", bad, DIM(1, 1, 1), DIM(1, 1, 1), 0, params, 1, &r), CONF_FAULTED);
    ck_assert_int_eq(r.fault.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    emu_heap_release_all();
    emu_heap_set_size(8u << 20);
}
END_TEST

/* ---------------------------------------------------------------- printf FIFO */

/* each of the block's threads prints "tid NN" */
static const char printf_ptx[] = CONF_PTX_HEADER
    ".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n"
    ".global .align 1 .b8 fmt[12] = {116, 105, 100, 32, 37, 48, 50, 100, 10, 0};\n"
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
    "  .local .align 4 .b8 args[4];\n"
    "  mov.u32 %r1, %tid.x; st.local.u32 [args], %r1;\n"
    "  mov.u64 %rd1, fmt; cvta.global.u64 %rd2, %rd1;\n"
    "  mov.u64 %rd3, args; cvta.local.u64 %rd3, %rd3;\n"
    "  { .param .b64 f; .param .b64 a; .param .b32 r; st.param.b64 [f], %rd2; st.param.b64 [a], %rd3;\n"
    "    call.uni (r), vprintf, (f, a); }\n"
    "  ret;\n"
    "}\n";

START_TEST(printf_waits_for_flush)
{
    const char *ptx = printf_ptx;
    fflush(stdout);
    char path[] = "/tmp/test_adv_printf_XXXXXX";
    int fd = mkstemp(path), saved = dup(1);
    dup2(fd, 1);
    emu_output_discard();
    run_ok("printf", ptx, DIM(1, 1, 1), DIM(4, 1, 1), NULL, 0);
    fflush(stdout);
    off_t before = lseek(fd, 0, SEEK_END);
    emu_output_flush();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[256] = { 0 };
    if (pread(fd, buf, sizeof buf - 1, 0) < 0) buf[0] = 0;
    close(fd);
    unlink(path);
    ck_assert_msg(before == 0, "output appeared before the flush");
    ck_assert_str_eq(buf, "tid 00\ntid 01\ntid 02\ntid 03\n");
}
END_TEST

/* Reads what fd holds into buf (NUL-terminated), then closes and removes it. */
static void read_back(int fd, const char *path, char *buf, size_t size)
{
    ssize_t n = pread(fd, buf, size - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
}

/* cudaLimitPrintfFifoSize is honoured: with room for two of the four records, the two oldest
 * give way, the loss is counted (for the run's summary) and reported once on stderr. */
START_TEST(printf_fifo_overflow_counted)
{
    uint64_t lost0, bytes0, lost1, bytes1;
    fflush(stdout);
    fflush(stderr);
    char out_path[] = "/tmp/test_adv_fifo_out_XXXXXX", err_path[] = "/tmp/test_adv_fifo_err_XXXXXX";
    int out = mkstemp(out_path), err = mkstemp(err_path);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(out, 1);
    dup2(err, 2);
    emu_output_discard();
    emu_output_dropped(&lost0, &bytes0);
    /* a record is a 16-byte header, the format's address and one int argument: 2 fit in 48 */
    emu_output_set_fifo_size(48);
    run_ok("printf_fifo", printf_ptx, DIM(1, 1, 1), DIM(4, 1, 1), NULL, 0);
    emu_output_flush();
    emu_output_dropped(&lost1, &bytes1);
    emu_output_set_fifo_size(1u << 20);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    char obuf[256], ebuf[512];
    read_back(out, out_path, obuf, sizeof obuf);
    read_back(err, err_path, ebuf, sizeof ebuf);
    ck_assert_str_eq(obuf, "tid 02\ntid 03\n");
    ck_assert_uint_eq(lost1 - lost0, 2);
    ck_assert_uint_gt(bytes1 - bytes0, 2 * 16);   /* more than their headers */
    ck_assert_msg(strstr(ebuf, "2 device printf records lost") != NULL &&
                      strstr(ebuf, "cudaLimitPrintfFifoSize = 48 bytes") != NULL,
                  "stderr: %s", ebuf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adv_ptx");
    TCase *tc = tcase_create("adv_ptx");
    tcase_add_test(tc, txq_suq_istypep);
    tcase_add_test(tc, tld4_components_and_tex_forms);
    tcase_add_test(tc, surface_formatted_and_reductions);
    tcase_add_test(tc, cp_async_ignore_src);
    tcase_add_test(tc, cp_async_bulk_misaligned_faults);
    tcase_add_test(tc, heap_exhaustion_and_bad_free);
    tcase_add_test(tc, printf_waits_for_flush);
    tcase_add_test(tc, printf_fifo_overflow_counted);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
