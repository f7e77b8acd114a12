/* test_conformance_mem.c: PTX memory instructions against the PTX ISA (sections 5, 6.4,
 * 9.7.9).
 *
 * ld/st of 8..128 bits and .v2/.v4 vectors on global memory; sign and zero extension of
 * narrow loads into wider registers ("the destination data is zero- or sign-extended to the
 * size of the destination register"); shared memory (static and dynamic) across warps with
 * bar.sync; per-thread local memory; generic addressing through cvta / cvta.to and isspacep;
 * ld.param of every scalar type and a byte array; module .const and .global variables with
 * initialisers; and faults: out-of-bounds global loads and stores (EMU_FAULT_ILLEGAL_ADDRESS),
 * misaligned accesses (EMU_FAULT_MISALIGNED) and out-of-range shared accesses, each with the
 * faulting thread and PTX line.
 */
#include "tests/unit/conformance_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

/* Runs a module and fails the test (with the harness's message) unless it completed. */
static void run_ok(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block, uint32_t dsmem,
                   const uint64_t *params, int nparams)
{
    conf_result r;
    if (conf_run_k(name, ptx, grid, block, dsmem, params, nparams, &r) != CONF_OK) ck_abort_msg("%s", r.message);
}

static void fill_pattern(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 37 + 11);
}

/* ---------------------------------------------------------------- global ld/st widths */

typedef struct width_case {
    const char *name;
    unsigned bytes;        /* per thread */
    const char *decl;
    const char *ld, *st;   /* %a is the address register */
} width_case;

static const width_case widths[] = {
    { "ld/st.global.u8", 1, ".reg .b32 %v;", "ld.global.u8 %v, [%a];", "st.global.u8 [%a], %v;" },
    { "ld/st.global.u16", 2, ".reg .b32 %v;", "ld.global.u16 %v, [%a];", "st.global.u16 [%a], %v;" },
    { "ld/st.global.b16 into a .b16 register", 2, ".reg .b16 %v;", "ld.global.b16 %v, [%a];", "st.global.b16 [%a], %v;" },
    { "ld/st.global.u32", 4, ".reg .b32 %v;", "ld.global.u32 %v, [%a];", "st.global.u32 [%a], %v;" },
    { "ld/st.global.f32", 4, ".reg .f32 %v;", "ld.global.f32 %v, [%a];", "st.global.f32 [%a], %v;" },
    { "ld/st.global.u64", 8, ".reg .b64 %v;", "ld.global.u64 %v, [%a];", "st.global.u64 [%a], %v;" },
    { "ld/st.global.v2.u32", 8, ".reg .b32 %v0, %v1;", "ld.global.v2.u32 {%v0, %v1}, [%a];", "st.global.v2.u32 [%a], {%v0, %v1};" },
    { "ld/st.global.v4.u16", 8, ".reg .b16 %v<4>;", "ld.global.v4.u16 {%v0, %v1, %v2, %v3}, [%a];", "st.global.v4.u16 [%a], {%v0, %v1, %v2, %v3};" },
    { "ld/st.global.v4.u32", 16, ".reg .b32 %v<4>;", "ld.global.v4.u32 {%v0, %v1, %v2, %v3}, [%a];", "st.global.v4.u32 [%a], {%v0, %v1, %v2, %v3};" },
    { "ld/st.global.v4.f32", 16, ".reg .f32 %v<4>;", "ld.global.v4.f32 {%v0, %v1, %v2, %v3}, [%a];", "st.global.v4.f32 [%a], {%v0, %v1, %v2, %v3};" },
    { "ld/st.global.v2.u64", 16, ".reg .b64 %v<2>;", "ld.global.v2.u64 {%v0, %v1}, [%a];", "st.global.v2.u64 [%a], {%v0, %v1};" },
    { "ld/st.global.v2.f64", 16, ".reg .f64 %v<2>;", "ld.global.v2.f64 {%v0, %v1}, [%a];", "st.global.v2.f64 [%a], {%v0, %v1};" },
    { "ld/st.global.b128", 16, ".reg .b128 %v;", "ld.global.b128 %v, [%a];", "st.global.b128 [%a], %v;" },
    { "ld/st generic .u32 (param pointer used directly)", 4, ".reg .b32 %v;", "ld.u32 %v, [%a];", "st.u32 [%a], %v;" },
    { "ld.global.nc / st.global.wb", 4, ".reg .b32 %v;", "ld.global.nc.u32 %v, [%a];", "st.global.wb.u32 [%a], %v;" },
    { "ld.global.ca / st.global.cg", 4, ".reg .b32 %v;", "ld.global.ca.u32 %v, [%a];", "st.global.cg.u32 [%a], %v;" },
    { "ldu.global.u32 / st.global.cs", 4, ".reg .b32 %v;", "ldu.global.u32 %v, [%a];", "st.global.cs.u32 [%a], %v;" },
    { "ld.volatile.global / st.volatile.global", 8, ".reg .b64 %v;", "ld.volatile.global.u64 %v, [%a];", "st.volatile.global.u64 [%a], %v;" },
    { "ld.relaxed.gpu.global / st.relaxed.gpu.global", 4, ".reg .b32 %v;", "ld.relaxed.gpu.global.u32 %v, [%a];", "st.relaxed.gpu.global.u32 [%a], %v;" },
    { "ld.acquire.gpu.global / st.release.gpu.global", 4, ".reg .b32 %v;", "ld.acquire.gpu.global.u32 %v, [%a];", "st.release.gpu.global.u32 [%a], %v;" },
    { "ld.global.L1::evict_last / st.global.L1::no_allocate", 4, ".reg .b32 %v;", "ld.global.L1::evict_last.u32 %v, [%a];", "st.global.L1::no_allocate.u32 [%a], %v;" },
    { "ld/st.global.v2.u32 with an immediate offset", 8, ".reg .b32 %v0, %v1;", "ld.global.v2.u32 {%v0, %v1}, [%a+8];", "st.global.v2.u32 [%a+8], {%v0, %v1};" },
};

START_TEST(global_widths)
{
    const width_case *w = &widths[_i];
    enum { N = 32, BUF = N * 16 + 64 };
    char ptx[2048];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 p0, .param .u64 p1)\n"
             "{\n"
             "    .reg .b64 %%src, %%dst, %%off, %%a;\n"
             "    .reg .b32 %%t;\n"
             "    %s\n"
             "    ld.param.u64 %%src, [p0];\n"
             "    ld.param.u64 %%dst, [p1];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%off, %%t, %u;\n"
             "    add.u64 %%a, %%src, %%off;\n"
             "    %s\n"
             "    add.u64 %%a, %%dst, %%off;\n"
             "    %s\n"
             "    ret;\n"
             "}\n",
             w->decl, w->bytes, w->ld, w->st);
    uint8_t *src = conf_dev_alloc(BUF), *dst = conf_dev_alloc(BUF);
    fill_pattern(src, BUF);
    uint64_t params[2] = { conf_dev_addr(src), conf_dev_addr(dst) };
    run_ok(w->name, ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 2);
    unsigned lo = strstr(w->ld, "+8]") ? 8 : 0, hi = lo + N * w->bytes;
    for (unsigned i = 0; i < BUF; i++) {
        uint8_t want = (i >= lo && i < hi) ? src[i] : 0;
        ck_assert_msg(dst[i] == want, "%s: byte %u of the destination: want 0x%02x got 0x%02x", w->name, i, want, dst[i]);
    }
    conf_dev_free(src);
    conf_dev_free(dst);
}
END_TEST

/* ---------------------------------------------------------------- extension of narrow loads */

typedef struct ext_case {
    const char *name;
    const char *decl, *ld;   /* loads into %v from [%src + offset] */
    const char *st;          /* stores %v to [%dst] */
    uint64_t want;
    unsigned bits;
} ext_case;

/* The source bytes: 0x80 0x7f 0xff 0x01 | 0x00 0x80 (0x8000) 0xff 0x7f (0x7fff) | 0x00 0x00 0x00 0x80 (0x80000000) */
static const uint8_t ext_src[] = { 0x80, 0x7f, 0xff, 0x01, 0x00, 0x80, 0xff, 0x7f, 0x00, 0x00, 0x00, 0x80 };

static const ext_case exts[] = {
    { "ld.global.s8 into .s32 (0x80)", ".reg .s32 %v;", "ld.global.s8 %v, [%src+0];", "st.global.u32 [%dst], %v;", 0xffffff80u, 32 },
    { "ld.global.s8 into .s32 (0x7f)", ".reg .s32 %v;", "ld.global.s8 %v, [%src+1];", "st.global.u32 [%dst], %v;", 0x7f, 32 },
    { "ld.global.u8 into .u32 (0xff)", ".reg .u32 %v;", "ld.global.u8 %v, [%src+2];", "st.global.u32 [%dst], %v;", 0xff, 32 },
    { "ld.global.s8 into .s16 (0xff)", ".reg .s16 %v;", "ld.global.s8 %v, [%src+2];", "st.global.u16 [%dst], %v;", 0xffff, 16 },
    { "ld.global.s16 into .s32 (0x8000)", ".reg .s32 %v;", "ld.global.s16 %v, [%src+4];", "st.global.u32 [%dst], %v;", 0xffff8000u, 32 },
    { "ld.global.s16 into .s32 (0x7fff)", ".reg .s32 %v;", "ld.global.s16 %v, [%src+6];", "st.global.u32 [%dst], %v;", 0x7fff, 32 },
    { "ld.global.u16 into .u32 (0x8000)", ".reg .u32 %v;", "ld.global.u16 %v, [%src+4];", "st.global.u32 [%dst], %v;", 0x8000, 32 },
    { "ld.global.s8 into .s64 (0x80)", ".reg .s64 %v;", "ld.global.s8 %v, [%src+0];", "st.global.u64 [%dst], %v;", 0xffffffffffffff80ull, 64 },
    { "ld.global.s32 into .s64 (0x80000000)", ".reg .s64 %v;", "ld.global.s32 %v, [%src+8];", "st.global.u64 [%dst], %v;", 0xffffffff80000000ull, 64 },
    { "ld.global.u32 into .u64 (0x80000000)", ".reg .u64 %v;", "ld.global.u32 %v, [%src+8];", "st.global.u64 [%dst], %v;", 0x80000000ull, 64 },
    { "ld.global.s16 into .s64 (0x8000)", ".reg .s64 %v;", "ld.global.s16 %v, [%src+4];", "st.global.u64 [%dst], %v;", 0xffffffffffff8000ull, 64 },
    { "st.global.u8 of a 32-bit register stores its low byte", ".reg .u32 %v;", "mov.u32 %v, 0x12345678;", "st.global.u8 [%dst], %v;", 0x78, 32 },
};

START_TEST(load_extension)
{
    const ext_case *e = &exts[_i];
    char ptx[1536];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 p0, .param .u64 p1)\n"
             "{\n"
             "    .reg .b64 %%src, %%dst;\n"
             "    %s\n"
             "    ld.param.u64 %%src, [p0];\n"
             "    ld.param.u64 %%dst, [p1];\n"
             "    %s\n"
             "    %s\n"
             "    ret;\n"
             "}\n",
             e->decl, e->ld, e->st);
    uint8_t *src = conf_dev_alloc(64), *dst = conf_dev_alloc(64);
    memcpy(src, ext_src, sizeof ext_src);
    memset(dst, 0, 64);
    uint64_t params[2] = { conf_dev_addr(src), conf_dev_addr(dst) };
    run_ok(e->name, ptx, DIM(1, 1, 1), DIM(1, 1, 1), 0, params, 2);
    uint64_t got = 0;
    memcpy(&got, dst, 8);
    uint64_t mask = e->bits == 64 ? ~0ull : (1ull << e->bits) - 1;
    ck_assert_msg((got & mask) == e->want, "%s: want 0x%" PRIx64 " got 0x%" PRIx64, e->name, e->want, got & mask);
    ck_assert_msg(e->bits == 64 || (got >> e->bits) == 0, "%s: store wrote past its width: 0x%" PRIx64, e->name, got);
    conf_dev_free(src);
    conf_dev_free(dst);
}
END_TEST

/* ---------------------------------------------------------------- shared memory */

typedef struct shared_case {
    const char *name;
    unsigned bytes;
    const char *decl, *st, *ld;   /* st/ld at [%a]; value in %v (st) / %w (ld) */
    const char *make;             /* computes %v from %t */
    const char *out;              /* stores %w to [%o] */
} shared_case;

static const shared_case shareds[] = {
    { "st/ld.shared.u32 across two warps", 4, ".reg .b32 %v, %w;", "st.shared.u32 [%a], %v;", "ld.shared.u32 %w, [%a];",
      "mad.lo.u32 %v, %t, 7, 3;", "st.global.u32 [%o], %w;" },
    { "st/ld.shared.u8 across two warps", 1, ".reg .b32 %v, %w;", "st.shared.u8 [%a], %v;", "ld.shared.u8 %w, [%a];",
      "mad.lo.u32 %v, %t, 5, 1;", "st.global.u8 [%o], %w;" },
    { "st/ld.shared.u16 across two warps", 2, ".reg .b32 %v, %w;", "st.shared.u16 [%a], %v;", "ld.shared.u16 %w, [%a];",
      "mad.lo.u32 %v, %t, 1031, 9;", "st.global.u16 [%o], %w;" },
    { "st/ld.shared.u64 across two warps", 8, ".reg .b64 %v, %w;", "st.shared.u64 [%a], %v;", "ld.shared.u64 %w, [%a];",
      "mul.wide.u32 %v, %t, 0x10000001;", "st.global.u64 [%o], %w;" },
    { "st/ld.shared.v4.u32 across two warps", 16, ".reg .b32 %v, %w<4>;", "st.shared.v4.u32 [%a], {%v, %t, %v, %t};",
      "ld.shared.v4.u32 {%w0, %w1, %w2, %w3}, [%a];", "mad.lo.u32 %v, %t, 3, 1;", "st.global.v4.u32 [%o], {%w0, %w1, %w2, %w3};" },
};

/* Value thread t stores, as the kernel computes it (the bytes of the slot). */
static void shared_slot(int c, uint32_t t, uint8_t out[16])
{
    memset(out, 0, 16);
    uint32_t v32;
    uint64_t v64;
    switch (c) {
    case 0: v32 = t * 7 + 3; memcpy(out, &v32, 4); break;
    case 1: out[0] = (uint8_t)(t * 5 + 1); break;
    case 2: v32 = (uint16_t)(t * 1031 + 9); memcpy(out, &v32, 2); break;
    case 3: v64 = (uint64_t)t * 0x10000001u; memcpy(out, &v64, 8); break;
    default: {
        uint32_t w[4] = { t * 3 + 1, t, t * 3 + 1, t };
        memcpy(out, w, 16);
        break;
    }
    }
}

START_TEST(shared_roundtrip)
{
    const shared_case *c = &shareds[_i];
    enum { N = 64 };
    char ptx[2560];
    for (int dynamic = 0; dynamic < 2; dynamic++) {
        snprintf(ptx, sizeof ptx,
                 CONF_PTX_HEADER
                 "%s\n"
                 ".visible .entry k(.param .u64 p0)\n"
                 "{\n"
                 "    .reg .b64 %%dst, %%base, %%a, %%o, %%off;\n"
                 "    .reg .b32 %%t, %%u;\n"
                 "    %s\n"
                 "    ld.param.u64 %%dst, [p0];\n"
                 "    mov.u32 %%t, %%tid.x;\n"
                 "    mov.u64 %%base, sh;\n"
                 "    %s\n"
                 "    mul.wide.u32 %%off, %%t, %u;\n"
                 "    add.u64 %%a, %%base, %%off;\n"
                 "    %s\n"
                 "    bar.sync 0;\n"
                 "    sub.u32 %%u, %u, %%t;\n"
                 "    mul.wide.u32 %%off, %%u, %u;\n"
                 "    add.u64 %%a, %%base, %%off;\n"
                 "    %s\n"
                 "    mul.wide.u32 %%off, %%t, %u;\n"
                 "    add.u64 %%o, %%dst, %%off;\n"
                 "    %s\n"
                 "    ret;\n"
                 "}\n",
                 dynamic ? ".extern .shared .align 16 .b8 sh[];" : ".shared .align 16 .b8 sh[1024];", c->decl, c->make,
                 c->bytes, c->st, N - 1, c->bytes, c->ld, c->bytes, c->out);
        uint8_t *dst = conf_dev_alloc(N * 16);
        uint64_t params[1] = { conf_dev_addr(dst) };
        run_ok(c->name, ptx, DIM(1, 1, 1), DIM(N, 1, 1), dynamic ? 1024 : 0, params, 1);
        for (uint32_t t = 0; t < N; t++) {
            uint8_t want[16];
            shared_slot(_i, N - 1 - t, want);
            ck_assert_msg(memcmp(dst + t * c->bytes, want, c->bytes) == 0,
                          "%s (%s shared): thread %u read the wrong value of thread %u's slot", c->name,
                          dynamic ? "dynamic" : "static", t, N - 1 - t);
        }
        conf_dev_free(dst);
    }
}
END_TEST

/* ---------------------------------------------------------------- local memory */

START_TEST(local_private)
{
    /* Every thread uses the same .local addresses; each must see only its own values, also
     * through a generic pointer made by cvta.local. */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .local .align 8 .b8 loc[32];\n"
        "    .reg .b64 %dst, %l, %g, %off, %o, %v64, %w64;\n"
        "    .reg .b32 %t, %v, %w, %x;\n"
        "    ld.param.u64 %dst, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u64 %l, loc;\n"
        "    mad.lo.u32 %v, %t, 1000, 17;\n"
        "    st.local.u32 [%l], %v;\n"
        "    mul.wide.u32 %v64, %t, 0x80000007;\n"
        "    st.local.u64 [%l+8], %v64;\n"
        "    bar.sync 0;\n"
        "    ld.local.u32 %w, [%l];\n"
        "    ld.local.u64 %w64, [%l+8];\n"
        "    cvta.local.u64 %g, %l;\n"
        "    ld.u32 %x, [%g];\n"
        "    mov.u32 %v, %ctaid.x;\n"
        "    mad.lo.u32 %t, %v, 32, %t;\n"
        "    mul.wide.u32 %off, %t, 16;\n"
        "    add.u64 %o, %dst, %off;\n"
        "    st.global.u32 [%o], %w;\n"
        "    st.global.u32 [%o+4], %x;\n"
        "    st.global.u64 [%o+8], %w64;\n"
        "    ret;\n"
        "}\n";
    enum { N = 64 };
    uint8_t *dst = conf_dev_alloc(N * 16);
    uint64_t params[1] = { conf_dev_addr(dst) };
    run_ok("local memory", ptx, DIM(2, 1, 1), DIM(N / 2, 1, 1), 0, params, 1);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t t = i % (N / 2), w, x;
        uint64_t w64;
        memcpy(&w, dst + i * 16, 4);
        memcpy(&x, dst + i * 16 + 4, 4);
        memcpy(&w64, dst + i * 16 + 8, 8);
        ck_assert_msg(w == t * 1000 + 17, "thread %u: ld.local.u32 want %u got %u", i, t * 1000 + 17, w);
        ck_assert_msg(x == t * 1000 + 17, "thread %u: generic ld of cvta.local want %u got %u", i, t * 1000 + 17, x);
        ck_assert_msg(w64 == (uint64_t)((uint64_t)t * 0x80000007u), "thread %u: ld.local.u64 want 0x%" PRIx64 " got 0x%" PRIx64, i,
                      (uint64_t)((uint64_t)t * 0x80000007u), w64);
    }
    conf_dev_free(dst);
}
END_TEST

/* ---------------------------------------------------------------- generic addressing */

START_TEST(generic_addressing)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .shared .align 8 .b8 sh[256];\n"
        "    .local .align 8 .b8 loc[16];\n"
        "    .reg .b64 %dst, %s, %gs, %l, %gl, %gg, %back, %off, %o, %a;\n"
        "    .reg .b32 %t, %v, %w, %q<8>;\n"
        "    .reg .pred %p<8>;\n"
        "    ld.param.u64 %dst, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u64 %s, sh;\n"
        "    cvta.shared.u64 %gs, %s;\n"
        "    mov.u64 %l, loc;\n"
        "    cvta.local.u64 %gl, %l;\n"
        "    cvta.global.u64 %gg, %dst;\n"
        /* a generic store into shared memory, read back through the shared window */
        "    mul.wide.u32 %off, %t, 4;\n"
        "    add.u64 %a, %gs, %off;\n"
        "    mad.lo.u32 %v, %t, 11, 5;\n"
        "    st.u32 [%a], %v;\n"
        "    bar.sync 0;\n"
        "    sub.u32 %w, 31, %t;\n"
        "    mul.wide.u32 %off, %w, 4;\n"
        "    add.u64 %a, %s, %off;\n"
        "    ld.shared.u32 %w, [%a];\n"
        "    isspacep.shared %p0, %gs;\n"
        "    isspacep.global %p1, %gs;\n"
        "    isspacep.local %p2, %gl;\n"
        "    isspacep.shared %p3, %gl;\n"
        "    isspacep.global %p4, %gg;\n"
        "    isspacep.local %p5, %gg;\n"
        "    cvta.to.shared.u64 %back, %gs;\n"
        "    setp.eq.u64 %p6, %back, %s;\n"
        "    cvta.to.local.u64 %back, %gl;\n"
        "    setp.eq.u64 %p7, %back, %l;\n"
        "    selp.u32 %q0, 1, 0, %p0;\n"
        "    selp.u32 %q1, 2, 0, %p1;\n"
        "    selp.u32 %q2, 4, 0, %p2;\n"
        "    selp.u32 %q3, 8, 0, %p3;\n"
        "    selp.u32 %q4, 16, 0, %p4;\n"
        "    selp.u32 %q5, 32, 0, %p5;\n"
        "    selp.u32 %q6, 64, 0, %p6;\n"
        "    selp.u32 %q7, 128, 0, %p7;\n"
        "    or.b32 %q0, %q0, %q1;\n"
        "    or.b32 %q0, %q0, %q2;\n"
        "    or.b32 %q0, %q0, %q3;\n"
        "    or.b32 %q0, %q0, %q4;\n"
        "    or.b32 %q0, %q0, %q5;\n"
        "    or.b32 %q0, %q0, %q6;\n"
        "    or.b32 %q0, %q0, %q7;\n"
        "    mul.wide.u32 %off, %t, 8;\n"
        "    add.u64 %o, %gg, %off;\n"
        "    st.u32 [%o], %w;\n"
        "    st.u32 [%o+4], %q0;\n"
        "    ret;\n"
        "}\n";
    uint8_t *dst = conf_dev_alloc(32 * 8);
    uint64_t params[1] = { conf_dev_addr(dst) };
    run_ok("generic addressing", ptx, DIM(1, 1, 1), DIM(32, 1, 1), 0, params, 1);
    static const char *const names[8] = {
        "isspacep.shared(cvta.shared) true", "isspacep.global(cvta.shared) false", "isspacep.local(cvta.local) true",
        "isspacep.shared(cvta.local) false", "isspacep.global(cvta.global) true", "isspacep.local(cvta.global) false",
        "cvta.to.shared(cvta.shared(x)) == x", "cvta.to.local(cvta.local(x)) == x",
    };
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t w, q;
        memcpy(&w, dst + t * 8, 4);
        memcpy(&q, dst + t * 8 + 4, 4);
        ck_assert_msg(w == (31 - t) * 11 + 5, "thread %u: generic st to shared then ld.shared: want %u got %u", t,
                      (31 - t) * 11 + 5, w);
        ck_assert_msg(q == 0xd5, "thread %u: predicates 0x%02x, want 0xd5 (%s%s%s%s%s%s%s%s)", t, q,
                      (q & 1) ? "" : names[0], (q & 2) ? names[1] : "", (q & 4) ? "" : names[2], (q & 8) ? names[3] : "",
                      (q & 16) ? "" : names[4], (q & 32) ? names[5] : "", (q & 64) ? "" : names[6], (q & 128) ? "" : names[7]);
    }
    conf_dev_free(dst);
}
END_TEST

/* ---------------------------------------------------------------- ld.param */

START_TEST(param_types)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p_out, .param .u8 p_u8, .param .s16 p_s16, .param .u32 p_u32,\n"
        "                  .param .u64 p_u64, .param .f32 p_f32, .param .f64 p_f64,\n"
        "                  .param .align 8 .b8 p_arr[12])\n"
        "{\n"
        "    .reg .b64 %o, %d;\n"
        "    .reg .b32 %r;\n"
        "    .reg .s32 %s;\n"
        "    .reg .f32 %f;\n"
        "    .reg .f64 %fd;\n"
        "    ld.param.u64 %o, [p_out];\n"
        "    ld.param.u8 %r, [p_u8];\n"
        "    st.global.u32 [%o], %r;\n"
        "    ld.param.s16 %s, [p_s16];\n"
        "    st.global.u32 [%o+4], %s;\n"
        "    ld.param.u32 %r, [p_u32];\n"
        "    st.global.u32 [%o+8], %r;\n"
        "    ld.param.u64 %d, [p_u64];\n"
        "    st.global.u64 [%o+16], %d;\n"
        "    ld.param.f32 %f, [p_f32];\n"
        "    st.global.f32 [%o+24], %f;\n"
        "    ld.param.f64 %fd, [p_f64];\n"
        "    st.global.f64 [%o+32], %fd;\n"
        "    ld.param.u32 %r, [p_arr+8];\n"
        "    st.global.u32 [%o+40], %r;\n"
        "    ld.param.u8 %r, [p_arr+1];\n"
        "    st.global.u32 [%o+44], %r;\n"
        "    ret;\n"
        "}\n";
    /* Layout of the parameter block: each parameter at its alignment. */
    uint8_t params[64];
    memset(params, 0, sizeof params);
    uint8_t *out = conf_dev_alloc(64);
    uint64_t o = conf_dev_addr(out), u64 = 0x0123456789abcdefull;
    uint32_t u32 = 0xdeadbeef;
    int16_t s16 = -1234;
    float f32 = 3.25f;
    double f64 = -1.0e300;
    uint8_t arr[12] = { 1, 0xab, 3, 4, 5, 6, 7, 8, 0x78, 0x56, 0x34, 0x12 };
    memcpy(params + 0, &o, 8);
    params[8] = 0xfe;
    memcpy(params + 10, &s16, 2);
    memcpy(params + 12, &u32, 4);
    memcpy(params + 16, &u64, 8);
    memcpy(params + 24, &f32, 4);
    memcpy(params + 32, &f64, 8);
    memcpy(params + 40, arr, 12);
    conf_launch l;
    memset(&l, 0, sizeof l);
    l.ptx = ptx;
    l.name = "ld.param";
    l.kernel = "k";
    l.grid = DIM(1, 1, 1);
    l.block = DIM(1, 1, 1);
    l.params = params;
    l.params_size = 52;
    conf_result r;
    conf_run_ok(&l, &r);
    uint32_t w[12];
    memcpy(w, out, 48);
    ck_assert_msg(w[0] == 0xfe, "ld.param.u8: want 0xfe got 0x%x", w[0]);
    ck_assert_msg(w[1] == 0xfffffb2e, "ld.param.s16 into .s32 (-1234): want 0xfffffb2e got 0x%x", w[1]);
    ck_assert_msg(w[2] == u32, "ld.param.u32: want 0x%x got 0x%x", u32, w[2]);
    uint64_t g64;
    memcpy(&g64, out + 16, 8);
    ck_assert_msg(g64 == u64, "ld.param.u64: want 0x%" PRIx64 " got 0x%" PRIx64, u64, g64);
    float gf;
    memcpy(&gf, out + 24, 4);
    ck_assert_msg(gf == f32, "ld.param.f32: want %g got %g", f32, gf);
    double gd;
    memcpy(&gd, out + 32, 8);
    ck_assert_msg(gd == f64, "ld.param.f64: want %g got %g", f64, gd);
    ck_assert_msg(w[10] == 0x12345678, "ld.param.u32 [p_arr+8]: want 0x12345678 got 0x%x", w[10]);
    ck_assert_msg(w[11] == 0xab, "ld.param.u8 [p_arr+1]: want 0xab got 0x%x", w[11]);
    conf_dev_free(out);
}
END_TEST

/* ---------------------------------------------------------------- .const and .global variables */

START_TEST(module_variables)
{
    const char *ptx = CONF_PTX_HEADER
        ".const .align 4 .b32 ctab[4] = {1, 2, 3, 0xdeadbeef};\n"
        ".const .align 8 .f64 cpi = 0d400921FB54442D18;\n"
        ".const .align 2 .b16 c16[3] = {0x1234, 0x5678, 0x9abc};\n"
        ".global .align 4 .u32 gtab[2] = {7, 9};\n"
        ".global .align 4 .u32 gzero[4];\n"
        "\n"
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .reg .b64 %o, %a, %off, %g;\n"
        "    .reg .b32 %t, %i, %v;\n"
        "    .reg .b16 %h;\n"
        "    .reg .f64 %d;\n"
        "    ld.param.u64 %o, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    and.b32 %i, %t, 3;\n"
        "    mul.wide.u32 %off, %i, 4;\n"
        "    mov.u64 %a, ctab;\n"
        "    add.u64 %a, %a, %off;\n"
        "    ld.const.u32 %v, [%a];\n"
        "    mul.wide.u32 %off, %t, 32;\n"
        "    add.u64 %o, %o, %off;\n"
        "    st.global.u32 [%o], %v;\n"
        "    ld.const.f64 %d, [cpi];\n"
        "    st.global.f64 [%o+8], %d;\n"
        "    ld.const.u16 %h, [c16+4];\n"
        "    st.global.u16 [%o+16], %h;\n"
        "    ld.global.u32 %v, [gtab+4];\n"
        "    st.global.u32 [%o+20], %v;\n"
        "    mov.u64 %g, gtab;\n"
        "    ld.global.u32 %v, [%g];\n"
        "    st.global.u32 [%o+24], %v;\n"
        "    ld.global.u32 %v, [gzero+8];\n"
        "    st.global.u32 [%o+28], %v;\n"
        "    ret;\n"
        "}\n";
    uint8_t *out = conf_dev_alloc(8 * 32);
    memset(out, 0xee, 8 * 32);
    uint64_t params[1] = { conf_dev_addr(out) };
    run_ok(".const/.global variables", ptx, DIM(1, 1, 1), DIM(8, 1, 1), 0, params, 1);
    static const uint32_t ctab[4] = { 1, 2, 3, 0xdeadbeef };
    for (uint32_t t = 0; t < 8; t++) {
        const uint8_t *o = out + t * 32;
        uint32_t v;
        double d;
        uint16_t h;
        memcpy(&v, o, 4);
        ck_assert_msg(v == ctab[t & 3], "thread %u: ld.const ctab[%u]: want 0x%x got 0x%x", t, t & 3, ctab[t & 3], v);
        memcpy(&d, o + 8, 8);
        ck_assert_msg(conf_b64(d) == 0x400921FB54442D18ull, "thread %u: ld.const.f64 cpi: got %.17g", t, d);
        memcpy(&h, o + 16, 2);
        ck_assert_msg(h == 0x9abc, "thread %u: ld.const.u16 [c16+4]: want 0x9abc got 0x%x", t, h);
        memcpy(&v, o + 20, 4);
        ck_assert_msg(v == 9, "thread %u: ld.global [gtab+4]: want 9 got %u", t, v);
        memcpy(&v, o + 24, 4);
        ck_assert_msg(v == 7, "thread %u: ld.global through mov of gtab's address: want 7 got %u", t, v);
        memcpy(&v, o + 28, 4);
        ck_assert_msg(v == 0, "thread %u: an uninitialised .global reads 0, got %u", t, v);
    }
    conf_dev_free(out);
}
END_TEST

/* ---------------------------------------------------------------- faults */

typedef struct fault_case {
    const char *name;
    const char *decl;
    const char *access;   /* the faulting instruction, run by thread 5 only; %a = buffer */
    emu_fault_kind kind;
} fault_case;

static const fault_case faults[] = {
    { "ld.global out of bounds", ".reg .b32 %v;", "ld.global.u32 %v, [%a+1048576];", EMU_FAULT_ILLEGAL_ADDRESS },
    { "st.global out of bounds", ".reg .b32 %v;", "st.global.u32 [%a+1048576], %t;", EMU_FAULT_ILLEGAL_ADDRESS },
    { "ld.global before the allocation", ".reg .b32 %v;", "ld.global.u32 %v, [%a+-4096];", EMU_FAULT_ILLEGAL_ADDRESS },
    { "generic ld of address 0", ".reg .b32 %v; .reg .b64 %z;", "mov.u64 %z, 0;\n    ld.u32 %v, [%z];", EMU_FAULT_ILLEGAL_ADDRESS },
    { "ld.global.u32 misaligned", ".reg .b32 %v;", "ld.global.u32 %v, [%a+1];", EMU_FAULT_MISALIGNED },
    { "st.global.u64 misaligned", ".reg .b64 %v;", "st.global.u64 [%a+4], %a;", EMU_FAULT_MISALIGNED },
    { "ld.global.v4.u32 misaligned (8 of 16)", ".reg .b32 %v<4>;", "ld.global.v4.u32 {%v0, %v1, %v2, %v3}, [%a+8];", EMU_FAULT_MISALIGNED },
    { "ld.shared.u32 misaligned", ".reg .b32 %v; .reg .b64 %s;", "mov.u64 %s, sh;\n    ld.shared.u32 %v, [%s+2];", EMU_FAULT_MISALIGNED },
    { "ld.shared.u32 out of range", ".reg .b32 %v; .reg .b64 %s;", "mov.u64 %s, sh;\n    ld.shared.u32 %v, [%s+1048576];", EMU_FAULT_SHARED_OUT_OF_RANGE },
    { "st.shared.u32 out of range", ".reg .b64 %s;", "mov.u64 %s, sh;\n    st.shared.u32 [%s+65536], %t;", EMU_FAULT_SHARED_OUT_OF_RANGE },
    { "ld.local.u32 out of range", ".reg .b32 %v; .reg .b64 %l; .local .align 4 .b8 loc[16];", "mov.u64 %l, loc;\n    ld.local.u32 %v, [%l+1048576];", EMU_FAULT_LOCAL_OUT_OF_RANGE },
    { "atom.global.add.u32 out of bounds", ".reg .b32 %v;", "atom.global.add.u32 %v, [%a+1048576], 1;", EMU_FAULT_ILLEGAL_ADDRESS },
    { "atom.global.add.u32 misaligned", ".reg .b32 %v;", "atom.global.add.u32 %v, [%a+2], 1;", EMU_FAULT_MISALIGNED },
    { "st.global.v2.u32 out of bounds", ".reg .b32 %v;", "st.global.v2.u32 [%a+1048576], {%t, %t};", EMU_FAULT_ILLEGAL_ADDRESS },
};

START_TEST(fault_reports)
{
    const fault_case *f = &faults[_i];
    char ptx[2048];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 p0)\n"
             "{\n"
             "    .shared .align 16 .b8 sh[64];\n"
             "    .reg .b64 %%a;\n"
             "    .reg .b32 %%t;\n"
             "    .reg .pred %%p;\n"
             "    %s\n"
             "    ld.param.u64 %%a, [p0];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    setp.ne.u32 %%p, %%t, 5;\n"
             "    @%%p bra DONE;\n"
             "    %s // FAULT HERE\n"
             "DONE:\n"
             "    ret;\n"
             "}\n",
             f->decl, f->access);
    uint32_t want_line = conf_line_of(ptx, "// FAULT HERE");
    uint8_t *buf = conf_dev_alloc(256);
    uint64_t params[1] = { conf_dev_addr(buf) };
    conf_result r;
    conf_status st = conf_run_k(f->name, ptx, DIM(1, 1, 1), DIM(32, 1, 1), 0, params, 1, &r);
    ck_assert_msg(st == CONF_FAULTED, "%s: want a %s fault, got status '%s': %s", f->name, emu_fault_kind_name(f->kind),
                  conf_status_name(st), r.message);
    ck_assert_msg(r.fault.kind == f->kind, "%s: want fault %s got %s: %s", f->name, emu_fault_kind_name(f->kind),
                  emu_fault_kind_name(r.fault.kind), r.message);
    ck_assert_msg(r.fault.thread.x == 5 && r.fault.thread.y == 0 && r.fault.cta.x == 0,
                  "%s: the fault names thread (%u,%u,%u) block (%u,%u,%u); thread (5,0,0) of block (0,0,0) faulted",
                  f->name, r.fault.thread.x, r.fault.thread.y, r.fault.thread.z, r.fault.cta.x, r.fault.cta.y, r.fault.cta.z);
    ck_assert_msg(r.fault.ptx_line == want_line, "%s: the fault names PTX line %u, the access is on line %u", f->name,
                  r.fault.ptx_line, want_line);
    ck_assert_msg(r.fault.message[0] != 0, "%s: the fault has no message", f->name);
    conf_dev_free(buf);
}
END_TEST

START_TEST(fault_in_later_block)
{
    /* Only thread 37 of block 2 (of 3 blocks of 64) faults: the report names it. */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .reg .b64 %a;\n"
        "    .reg .b32 %t, %c, %v;\n"
        "    .reg .pred %p, %q;\n"
        "    ld.param.u64 %a, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %c, %ctaid.x;\n"
        "    setp.eq.u32 %p, %t, 37;\n"
        "    setp.eq.u32 %q, %c, 2;\n"
        "    and.pred %p, %p, %q;\n"
        "    @%p ld.global.u32 %v, [%a+4096]; // FAULT HERE\n"
        "    ret;\n"
        "}\n";
    uint8_t *buf = conf_dev_alloc(256);
    uint64_t params[1] = { conf_dev_addr(buf) };
    conf_result r;
    conf_status st = conf_run_k("fault in block 2", ptx, DIM(3, 1, 1), DIM(64, 1, 1), 0, params, 1, &r);
    ck_assert_msg(st == CONF_FAULTED && r.fault.kind == EMU_FAULT_ILLEGAL_ADDRESS, "want an illegal-address fault, got '%s' (%s): %s",
                  conf_status_name(st), emu_fault_kind_name(r.fault.kind), r.message);
    ck_assert_msg(r.fault.thread.x == 37 && r.fault.cta.x == 2, "the fault names thread %u of block %u; thread 37 of block 2 faulted",
                  r.fault.thread.x, r.fault.cta.x);
    ck_assert_msg(r.fault.ptx_line == conf_line_of(ptx, "// FAULT HERE"), "the fault names PTX line %u, want %u", r.fault.ptx_line,
                  conf_line_of(ptx, "// FAULT HERE"));
    ck_assert_msg(r.fault.address == conf_dev_addr(buf) + 4096, "the fault names address 0x%" PRIx64 ", want 0x%" PRIx64,
                  r.fault.address, conf_dev_addr(buf) + 4096);
    conf_dev_free(buf);
}
END_TEST

/* ---------------------------------------------------------------- multimem on one device */

/* A multicast group of one GPU (all ptxsim emulates): multimem.ld_reduce returns the one copy's
 * value (with .acc::f32 too), multimem.st writes it, multimem.red reduces into it atomically. */
START_TEST(multimem_single_device)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 p0)\n"
        "{\n"
        "    .reg .b64 %p, %v64;\n"
        "    .reg .b32 %t, %v, %h<4>;\n"
        "    .reg .f32 %f<4>;\n"
        "    .reg .pred %first;\n"
        "    ld.param.u64 %p, [p0];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    add.u32 %v, %t, 1;\n"
        "    multimem.red.relaxed.sys.add.u32 [%p], %v;\n"
        "    multimem.red.relaxed.sys.global.max.u32 [%p+4], %t;\n"
        "    bar.sync 0;\n"
        "    setp.eq.u32 %first, %t, 0;\n"
        "    @!%first ret;\n"
        "    multimem.ld_reduce.acquire.sys.global.min.u64 %v64, [%p+8];\n"
        "    st.global.u64 [%p+16], %v64;\n"
        "    multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%f0, %f1, %f2, %f3}, [%p+32];\n"
        "    multimem.st.global.v4.f32 [%p+48], {%f3, %f2, %f1, %f0};\n"
        "    multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.f16x2 {%h0, %h1, %h2, %h3}, [%p+32];\n"
        "    st.global.v4.b32 [%p+64], {%h0, %h1, %h2, %h3};\n"
        "    ret;\n"
        "}\n";
    uint8_t *buf = conf_dev_alloc(80);
    memset(buf, 0, 80);
    uint64_t v64 = 0x123456789abcdef0ull;
    memcpy(buf + 8, &v64, 8);
    const float in[4] = { 1.5f, -2.0f, 1e30f, 0.25f };
    memcpy(buf + 32, in, 16);
    uint64_t params[1] = { conf_dev_addr(buf) };
    run_ok("multimem", ptx, DIM(1, 1, 1), DIM(64, 1, 1), 0, params, 1);
    uint32_t sum, max;
    memcpy(&sum, buf, 4);
    memcpy(&max, buf + 4, 4);
    ck_assert_msg(sum == 64 * 65 / 2, "multimem.red.add.u32 of 1..64: want %u got %u", 64 * 65 / 2, sum);
    ck_assert_msg(max == 63, "multimem.red.max.u32 of 0..63: want 63 got %u", max);
    uint64_t got64;
    memcpy(&got64, buf + 16, 8);
    ck_assert_msg(got64 == v64, "multimem.ld_reduce.min.u64 over one copy: want 0x%" PRIx64 " got 0x%" PRIx64, v64, got64);
    float out[4];
    memcpy(out, buf + 48, 16);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(out[i] == in[3 - i], "multimem.ld_reduce.add.v4.f32 then multimem.st: element %d want %g got %g", i,
                      (double)in[3 - i], (double)out[i]);
    ck_assert_msg(memcmp(buf + 64, buf + 32, 16) == 0, "multimem.ld_reduce .acc::f32 .f16x2 over one copy is the copy");
    conf_dev_free(buf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_mem");
    TCase *tc;
#define ADD(name, fn, n)                        \
    tc = tcase_create(name);                    \
    tcase_set_timeout(tc, 60);                 \
    tcase_add_loop_test(tc, fn, 0, (int)(n));   \
    suite_add_tcase(s, tc)
    ADD("ld/st global widths", global_widths, CONF_N(widths));
    ADD("narrow loads: sign and zero extension", load_extension, CONF_N(exts));
    ADD("shared memory (static and dynamic)", shared_roundtrip, CONF_N(shareds));
    ADD("local memory is per thread", local_private, 1);
    ADD("generic addressing, cvta, isspacep", generic_addressing, 1);
    ADD("ld.param of each type", param_types, 1);
    ADD(".const and .global module variables", module_variables, 1);
    ADD("faults", fault_reports, CONF_N(faults));
    ADD("fault in a later block", fault_in_later_block, 1);
    ADD("multimem on a group of one device", multimem_single_device, 1);
    return conf_main(s);
}
