/* test_emu_features.c: language features that reach the emulator as calls and special
 * instructions: function pointers (divergent indirect calls), structs by value, local arrays,
 * switch, device printf/malloc/free/assert, __syncthreads_count/and/or, activemask; plus
 * handwritten PTX for brx.idx, generic addressing, carry chains, vector moves, partial warps,
 * special registers and module-variable relocations. Each result is compared with a CPU
 * reference or with the value the PTX ISA defines. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ptx_files[] = {
    "tests/ptx/emu/features_sm75.ptx",
    "tests/ptx/emu/features_sm90.ptx",
};
static const char *async_files[] = {
    "tests/ptx/emu/async_sm80.ptx",
    "tests/ptx/emu/async_sm90.ptx",
};

static pk_module mod;

static void load_text(const char *text, size_t len, const char *name)
{
    mod = pk_load_text(text, len, name);
}
static void load_path(const char *path) { mod = pk_load_file(path); }
static void load_file(int i) { load_path(ptx_files[i]); }
static void unload(void) { pk_unload(&mod); }

/* 2 SMs; a warp budget of 7: small quanta interleave warps often. */
static bool run_raw(const char *kernel, emu_dim3 grid, emu_dim3 block, const void *params,
                    size_t psize, emu_fault *fault)
{
    timing_engine_config cfg;
    timing_engine_defaults(&cfg);
    cfg.warp_budget = 7;
    pk_launch l = { .grid = grid, .block = block, .sm_count = 2, .cfg = &cfg };
    return pk_run_params(&mod, kernel, &l, params, psize, fault);
}

static bool run(const char *kernel, emu_dim3 grid, emu_dim3 block, const uint64_t *args,
                emu_fault *fault)
{
    uint8_t params[PK_PARAMS_MAX];
    size_t psize = pk_pack_args(&mod, pk_kernel(&mod, kernel), args, params);
    return run_raw(kernel, grid, block, params, psize, fault);
}

/* ---------------------------------------------------------------- nvcc kernels */

START_TEST(function_pointers)
{
    load_file(_i);
    int *out = pk_dalloc(64 * 4);
    uint64_t args[] = { pk_addr(out) };
    run("fptr", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), args, NULL);
    for (int t = 0; t < 64; t++) {
        int want = t % 3 == 0 ? t * t : t % 3 == 1 ? t * (t + 1) / 2 : -t;
        ck_assert_int_eq(out[t], want);
    }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(struct_by_value_and_local_array)
{
    load_file(_i);
    const ptx_function *k = ptx_find_function(mod.ptx, "byval");
    ck_assert(k != NULL);
    int *out = pk_dalloc(32 * 4);
    struct { int scale; int pad; double offset; int table[4]; } p = { 3, 0, 2.75, { 1, -2, 5, 7 } };
    uint8_t params[64] = { 0 };
    memcpy(params + mod.ptx->syms[k->params[0]].offset, &p, sizeof p);
    uint64_t o = pk_addr(out);
    memcpy(params + mod.ptx->syms[k->params[1]].offset, &o, 8);
    run_raw("byval", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), params, k->param_size, NULL);
    for (int t = 0; t < 32; t++) {
        int local[8];
        for (int i = 0; i < 8; i++) local[i] = p.table[i & 3] * (i + t);
        ck_assert_int_eq(out[t], local[(t * 5) & 7] * p.scale + (int)p.offset);
    }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(switch_statement)
{
    load_file(_i);
    int *in = pk_dalloc(96 * 4), *out = pk_dalloc(96 * 4);
    for (int t = 0; t < 96; t++) in[t] = (t * 13) ^ (t >> 2);
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("jump", pk_dim3(1, 1, 1), pk_dim3(96, 1, 1), args, NULL);
    for (int t = 0; t < 96; t++) {
        int r;
        switch (in[t] & 7) {
        case 0: r = 11; break;
        case 1: r = t * 3; break;
        case 2: r = -t; break;
        case 3: r = t ^ 0x55; break;
        case 4: r = t << 2; break;
        case 5: r = 1000 - t; break;
        case 6: r = t * t; break;
        default: r = 7;
        }
        ck_assert_int_eq(out[t], r);
    }
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(device_printf)
{
    load_file(_i);
    char path[] = "/tmp/ptxsim_printf_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    uint64_t args[] = { 3 };
    run("hello", pk_dim3(1, 1, 1), pk_dim3(3, 1, 1), args, NULL);
    emu_output_flush();   /* where the runtime would flush: at synchronisation */
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[1024] = { 0 };
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    unlink(path);
    ck_assert(n > 0);
    char want[1024] = { 0 };
    size_t w = 0;
    for (int t = 0; t < 3; t++)
        w += (size_t)snprintf(want + w, sizeof want - w, "thread %d of %d: %5.2f %s %lld %c|%x\n",
                              t, 3, t * 0.5, "ok", (long long)t << 40, 'A' + t, 255u);
    ck_assert_str_eq(buf, want);
    unload();
}
END_TEST

START_TEST(device_malloc_free)
{
    load_file(_i);
    int n = 10;
    uint64_t *slots = pk_dalloc(32 * 8);
    int *sums = pk_dalloc(32 * 4);
    uint64_t args[] = { pk_addr(slots), (uint64_t)n };
    run("heap", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (int t = 0; t < 32; t++) {
        ck_assert(slots[t] != 0);
        ck_assert(emu_find_allocation(slots[t], (uint64_t)n * 4, NULL, NULL, NULL));
        for (int t2 = 0; t2 < t; t2++)   /* disjoint blocks */
            ck_assert(slots[t] + (uint64_t)n * 4 <= slots[t2] || slots[t2] + (uint64_t)n * 4 <= slots[t]);
    }
    uint64_t args2[] = { pk_addr(slots), pk_addr(sums), (uint64_t)n };
    run("heapfree", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args2, NULL);
    for (int t = 0; t < 32; t++) {
        ck_assert_int_eq(sums[t], t * 100 * n + n * (n - 1) / 2);
        ck_assert(!emu_heap_free(slots[t]));   /* the kernel freed it already */
    }
    emu_device_free(pk_addr(slots));
    emu_device_free(pk_addr(sums));
    unload();
}
END_TEST

START_TEST(device_assert)
{
    load_file(_i);
    int *in = pk_dalloc(64 * 4);
    for (int t = 0; t < 64; t++) in[t] = t == 37 ? -1 : t;
    uint64_t args[] = { pk_addr(in) };
    emu_fault f;
    ck_assert(!run("checker", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), args, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ASSERT);
    ck_assert_uint_eq(f.thread.x, 37);
    ck_assert_msg(strstr(f.message, "in[threadIdx.x] >= 0") && strstr(f.message, "features.cu"),
                  "message: %s", f.message);
    for (int t = 0; t < 64; t++) in[t] = t;
    ck_assert(run("checker", pk_dim3(2, 1, 1), pk_dim3(64, 1, 1), args, &f));
    emu_device_free(pk_addr(in));
    unload();
}
END_TEST

START_TEST(syncthreads_reductions)
{
    load_file(_i);
    int nt = 80; /* two full warps and a partial one */
    int *in = pk_dalloc(nt * 4), *out = pk_dalloc(nt * 16);
    int count = 0, all = 1, any = 0;
    for (int t = 0; t < nt; t++) {
        in[t] = (t * 37) % 100 + 1;
        count += in[t] > 10;
        all &= in[t] > 0;
        any |= in[t] > 90;
    }
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("syncred", pk_dim3(1, 1, 1), pk_dim3(nt, 1, 1), args, NULL);
    for (int t = 0; t < nt; t++) {
        ck_assert_int_eq(out[t * 4 + 0], count);
        ck_assert_int_eq(out[t * 4 + 1], all);
        ck_assert_int_eq(out[t * 4 + 2], any);
        unsigned full = t < 64 ? 0xffffffffu : 0xffffu;
        ck_assert_uint_eq((unsigned)out[t * 4 + 3], full);
    }
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

/* ---------------------------------------------------------------- handwritten PTX */

static const char *HAND_PTX =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};\n"
    ".global .align 8 .u64 gptr[2] = {generic(gtab), gtab+8};\n"
    "\n"
    /* brx.idx: each lane jumps through a table by tid % 4; all meet again at DONE */
    ".visible .entry brx(.param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, 4;\n  mov.u32 %r3, 0;\n"
    "  ts: .branchtargets L0, L1, L2, L3;\n"
    "  brx.idx %r2, ts;\n"
    "L0: add.u32 %r3, %r3, 1;\n  bra DONE;\n"
    "L1: add.u32 %r3, %r3, 10;\n  bra DONE;\n"
    "L2: add.u32 %r3, %r3, 100;\n  bra DONE;\n"
    "L3: add.u32 %r3, %r3, 1000;\n"
    "DONE: add.u32 %r3, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n"
    /* generic addressing of shared and local memory, isspacep, cvta both ways */
    ".visible .entry generic(.param .u64 out)\n{\n"
    "  .shared .align 4 .b32 sh[64];\n  .local .align 4 .b32 lo[4];\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n  .reg .pred %p<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd2, sh;\n  cvta.shared.u64 %rd3, %rd2;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd3, %rd4;\n"
    "  mul.lo.u32 %r2, %r1, 3;\n  st.u32 [%rd5], %r2;\n"           /* generic store to shared */
    "  bar.sync 0;\n"
    "  xor.b32 %r3, %r1, 1;\n  mul.wide.u32 %rd6, %r3, 4;\n  add.s64 %rd6, %rd2, %rd6;\n"
    "  ld.shared.u32 %r4, [%rd6];\n"                              /* neighbour, shared space */
    "  mov.u64 %rd7, lo;\n  cvta.local.u64 %rd8, %rd7;\n"
    "  st.u32 [%rd8+4], %r4;\n  ld.local.u32 %r5, [lo+4];\n"      /* generic -> local */
    "  isspacep.shared %p1, %rd5;\n  isspacep.local %p2, %rd8;\n  isspacep.global %p3, %rd1;\n"
    "  isspacep.global %p4, %rd5;\n"
    "  selp.u32 %r6, 1, 0, %p1;\n  selp.u32 %r7, 2, 0, %p2;\n  selp.u32 %r8, 4, 0, %p3;\n"
    "  selp.u32 %r9, 8, 0, %p4;\n  add.u32 %r6, %r6, %r7;\n  add.u32 %r6, %r6, %r8;\n"
    "  add.u32 %r6, %r6, %r9;\n"
    "  cvta.to.shared.u64 %rd9, %rd5;\n  cvt.u32.u64 %r10, %rd9;\n"
    "  mul.wide.u32 %rd10, %r1, 16;\n  add.s64 %rd10, %rd1, %rd10;\n"
    "  st.global.v2.u32 [%rd10], {%r5, %r6};\n  st.global.u32 [%rd10+8], %r10;\n"
    "  ret;\n}\n"
    /* 128-bit add and subtract with carry chains; mov pack/unpack */
    ".visible .entry carry(.param .u64 io)\n{\n"
    "  .reg .b32 %r<24>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [io];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 64;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd3];\n"
    "  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd3+16];\n"
    "  add.cc.u32 %r9, %r1, %r5;\n  addc.cc.u32 %r10, %r2, %r6;\n"
    "  addc.cc.u32 %r11, %r3, %r7;\n  addc.u32 %r12, %r4, %r8;\n"
    "  sub.cc.u32 %r13, %r1, %r5;\n  subc.cc.u32 %r14, %r2, %r6;\n"
    "  subc.cc.u32 %r15, %r3, %r7;\n  subc.u32 %r16, %r4, %r8;\n"
    "  st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
    "  mov.b64 %rd4, {%r13, %r14};\n  st.global.u64 [%rd3+48], %rd4;\n"
    "  mov.b64 %rd5, {%r15, %r16};\n  mov.b64 {%r17, %r18}, %rd5;\n"
    "  st.global.v2.u32 [%rd3+56], {%r17, %r18};\n"
    "  ret;\n}\n"
    /* special registers in a 3D block with a partial last warp */
    ".visible .entry sregs(.param .u64 out)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
    "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n"
    "  mad.lo.u32 %r6, %r3, %r5, %r2;\n  mad.lo.u32 %r6, %r6, %r4, %r1;\n" /* linear tid */
    "  mov.u32 %r7, %laneid;\n  mov.u32 %r8, %warpid;\n  mov.u32 %r9, %lanemask_lt;\n"
    "  mov.u32 %r10, %lanemask_ge;\n  mov.u32 %r11, %ctaid.y;\n  mov.u32 %r12, %nctaid.y;\n"
    "  activemask.b32 %r13;\n  mov.u32 %r14, %lanemask_eq;\n  mov.u32 %r15, %ntid.z;\n"
    "  mov.u32 %r16, %lanemask_le;\n  mov.u32 %r17, %lanemask_gt;\n"
    "  mov.u32 %r18, %nctaid.x;\n  mov.u32 %r19, %ctaid.x;\n"
    "  mad.lo.u32 %r11, %r11, %r18, %r19;\n"
    "  mul.lo.u32 %r19, %r4, %r5;\n  mul.lo.u32 %r19, %r19, %r15;\n"
    "  mad.lo.u32 %r11, %r11, %r19, %r6;\n"                           /* global linear id */
    "  mul.wide.u32 %rd2, %r11, 48;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r9};\n"
    "  st.global.v4.u32 [%rd3+16], {%r10, %r12, %r13, %r14};\n"
    "  st.global.v2.u32 [%rd3+32], {%r16, %r17};\n"
    "  ret;\n}\n"
    /* module variables: an initialiser holding addresses (relocations), and atomics on them */
    ".visible .entry relocs(.param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u64 %rd2, [gptr];\n  ld.global.u64 %rd3, [gptr+8];\n"
    "  ld.u32 %r1, [%rd2+4];\n  ld.global.u32 %r2, [%rd3];\n"
    "  mov.u64 %rd4, gtab;\n  atom.global.add.u32 %r3, [%rd4+12], 1;\n"
    "  atom.global.cas.b32 %r4, [%rd4], 10, 77;\n"
    "  atom.global.exch.b32 %r5, [gtab+4], 5;\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n  st.global.u32 [%rd1+16], %r5;\n"
    "  ret;\n}\n"
    /* shared atomics: inc/dec wrap, cas, min/max signed */
    ".visible .entry satom(.param .u64 out)\n{\n"
    "  .shared .align 4 .b32 cnt[4];\n"
    "  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 st.shared.v4.u32 [cnt], {0, 5, 100, -7};\n"
    "  bar.sync 0;\n"
    "  atom.shared.inc.u32 %r2, [cnt], 9;\n"           /* counts 0..9 and wraps */
    "  atom.shared.dec.u32 %r3, [cnt+4], 20;\n"        /* 5 down to 0, then wraps to 20 */
    "  atom.shared.max.s32 %r4, [cnt+8], %r1;\n"
    "  sub.s32 %r5, 0, %r1;\n  atom.shared.min.s32 %r6, [cnt+12], %r5;\n"
    "  bar.sync 0;\n"
    "  @%p1 ld.shared.v4.u32 {%r2, %r3, %r4, %r6}, [cnt];\n"
    "  @%p1 st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r6};\n"
    "  ret;\n}\n"
    /* a cluster of one CTA: the split cluster barrier orders the shared-memory exchange */
    ".visible .entry clusterbar(.param .u64 out)\n{\n"
    "  .shared .align 4 .b32 sv[64];\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %cluster_ctarank;\n"
    "  shl.b32 %r3, %r1, 2;\n  mov.u32 %r4, sv;\n  add.u32 %r5, %r4, %r3;\n"
    "  st.shared.u32 [%r5], %r1;\n"
    "  barrier.cluster.arrive;\n  barrier.cluster.wait;\n"
    "  xor.b32 %r6, %r1, 63;\n  shl.b32 %r6, %r6, 2;\n  add.u32 %r6, %r4, %r6;\n"
    "  ld.shared.u32 %r7, [%r6];\n  add.u32 %r7, %r7, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r7;\n  ret;\n}\n"
    /* vector atomics (sm_90): one atomic add per element */
    ".visible .entry vatom(.param .u64 p, .param .u64 olds)\n{\n"
    "  .reg .f32 %f<6>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [olds];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f40000000;\n"
    "  atom.global.add.v2.f32 {%f3, %f4}, [%rd1], {%f1, %f2};\n"
    "  red.global.add.v2.f32 [%rd1+8], {%f2, %f1};\n"
    "  st.global.v2.f32 [%rd4], {%f3, %f4};\n  ret;\n}\n";

static void load_hand(void)
{
    load_text(HAND_PTX, strlen(HAND_PTX), "hand.ptx");
}

START_TEST(brx_idx_multiway)
{
    load_hand();
    unsigned *out = pk_dalloc(64 * 4);
    uint64_t args[] = { pk_addr(out) };
    run("brx", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), args, NULL);
    static const unsigned add[4] = { 1, 10, 100, 1000 };
    for (unsigned t = 0; t < 64; t++) ck_assert_uint_eq(out[t], add[t % 4] + t);
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(generic_addressing)
{
    load_hand();
    unsigned *out = pk_dalloc(64 * 16);
    uint64_t args[] = { pk_addr(out) };
    run("generic", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), args, NULL);
    for (unsigned t = 0; t < 64; t++) {
        ck_assert_uint_eq(out[t * 4 + 0], (t ^ 1) * 3);
        ck_assert_uint_eq(out[t * 4 + 1], 1 + 2 + 4);  /* shared, local, global; not global */
        ck_assert_uint_eq(out[t * 4 + 2], t * 4);      /* back to a shared offset */
    }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(carry_chains)
{
    load_hand();
    int n = 40;
    uint32_t *io = pk_dalloc((size_t)n * 64);
    unsigned __int128 av[40], bv[40];
    for (int t = 0; t < n; t++) {
        uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(t + 1);
        av[t] = ((unsigned __int128)x << 64) | (x ^ 0xffffffffffffffffull);
        bv[t] = ((unsigned __int128)(x >> 3) << 64) | (t % 3 ? ~0ull : (uint64_t)t);
        if (t == 5) bv[t] = av[t];
        memcpy(&io[t * 16], &av[t], 16);
        memcpy(&io[t * 16 + 4], &bv[t], 16);
    }
    uint64_t args[] = { pk_addr(io) };
    run("carry", pk_dim3(1, 1, 1), pk_dim3(n, 1, 1), args, NULL);
    for (int t = 0; t < n; t++) {
        unsigned __int128 s, d;
        memcpy(&s, &io[t * 16 + 8], 16);
        memcpy(&d, &io[t * 16 + 12], 16);
        ck_assert_msg(s == av[t] + bv[t], "sum of row %d", t);
        ck_assert_msg(d == av[t] - bv[t], "difference of row %d", t);
    }
    emu_device_free(pk_addr(io));
    unload();
}
END_TEST

START_TEST(special_registers)
{
    load_hand();
    emu_dim3 b = pk_dim3(5, 3, 3), g = pk_dim3(2, 2, 1); /* 45 threads: warp 1 has 13 lanes */
    unsigned nt = b.x * b.y * b.z;
    unsigned *out = pk_dalloc(nt * 4 * 48);
    uint64_t args[] = { pk_addr(out) };
    run("sregs", g, b, args, NULL);
    for (unsigned cy = 0; cy < 2; cy++)
        for (unsigned cx = 0; cx < 2; cx++)
            for (unsigned t = 0; t < nt; t++) {
                unsigned *o = &out[((cy * 2 + cx) * nt + t) * 12];
                unsigned lane = t % 32, warp = t / 32;
                unsigned live = warp == 0 ? 0xffffffffu : (1u << (nt - 32)) - 1;
                ck_assert_uint_eq(o[0], t);
                ck_assert_uint_eq(o[1], lane);
                ck_assert_uint_eq(o[2], warp);
                ck_assert_uint_eq(o[3], (1u << lane) - 1);
                ck_assert_uint_eq(o[4], ~((1u << lane) - 1));
                ck_assert_uint_eq(o[5], 2);
                ck_assert_uint_eq(o[6], live);
                ck_assert_uint_eq(o[7], 1u << lane);
                ck_assert_uint_eq(o[8], (uint32_t)((2ull << lane) - 1));
                ck_assert_uint_eq(o[9], (uint32_t)~((2ull << lane) - 1));
            }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(module_variables_and_relocations)
{
    load_hand();
    unsigned *out = pk_dalloc(32);
    uint64_t args[] = { pk_addr(out) };
    run("relocs", pk_dim3(1, 1, 1), pk_dim3(1, 1, 1), args, NULL);
    ck_assert_uint_eq(out[0], 20);  /* generic(gtab) + 4 */
    ck_assert_uint_eq(out[1], 30);  /* gtab + 8 */
    ck_assert_uint_eq(out[2], 40);  /* old value of the atomic add */
    ck_assert_uint_eq(out[3], 10);  /* cas saw 10 */
    ck_assert_uint_eq(out[4], 20);  /* exch returned the old value */
    uint64_t ga, gs;
    ck_assert(emu_module_symbol(mod.emu, "gtab", &ga, &gs));
    ck_assert_uint_eq(gs, 16);
    const unsigned *gt = (const unsigned *)(uintptr_t)ga;
    ck_assert_uint_eq(gt[0], 77);
    ck_assert_uint_eq(gt[1], 5);
    ck_assert_uint_eq(gt[3], 41);
    ck_assert(!emu_module_symbol(mod.emu, "nosuch", &ga, &gs));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(shared_atomics)
{
    load_hand();
    unsigned *out = pk_dalloc(16);
    uint64_t args[] = { pk_addr(out) };
    unsigned nt = 70;
    run("satom", pk_dim3(1, 1, 1), pk_dim3(nt, 1, 1), args, NULL);
    /* inc with bound 9: old >= 9 wraps to 0 */
    unsigned v = 0;
    for (unsigned i = 0; i < nt; i++) v = v >= 9 ? 0 : v + 1;
    ck_assert_uint_eq(out[0], v);
    unsigned d = 5;
    for (unsigned i = 0; i < nt; i++) d = (d == 0 || d > 20) ? 20 : d - 1;
    ck_assert_uint_eq(out[1], d);
    ck_assert_int_eq((int)out[2], 100 > (int)nt - 1 ? 100 : (int)nt - 1);
    ck_assert_int_eq((int)out[3], -(int)(nt - 1) < -7 ? -(int)(nt - 1) : -7);
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

/* ---------------------------------------------------------------- sm_80+: async copies, tensor cores */

START_TEST(barrier_memcpy_async)
{
    load_path(async_files[_i]);
    float *in = pk_dalloc(3 * 256 * 4), *out = pk_dalloc(3 * 256 * 4);
    for (int i = 0; i < 3 * 256; i++) in[i] = (float)(i * 3 % 1001);
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("barrier_copy", pk_dim3(3, 1, 1), pk_dim3(256, 1, 1), args, NULL);
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 256; t++)
            ck_assert_float_eq(out[b * 256 + t], in[b * 256 + 255 - t] * 2.0f);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(pipeline_memcpy_async)
{
    load_path(async_files[_i]);
    float *in = pk_dalloc(256 * 4), *out = pk_dalloc(128 * 4);
    for (int i = 0; i < 256; i++) in[i] = (float)i * 0.25f;
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("pipeline_copy", pk_dim3(1, 1, 1), pk_dim3(128, 1, 1), args, NULL);
    for (int t = 0; t < 128; t++) ck_assert_float_eq(out[t], in[t] + in[128 + 127 - t]);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(cooperative_groups)
{
    load_path(async_files[_i]);
    int n = 64;
    int *in = pk_dalloc(n * 4), *out = pk_dalloc(n * 12);
    for (int i = 0; i < n; i++) in[i] = (i * 29) % 101;
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("cgroups", pk_dim3(1, 1, 1), pk_dim3(n, 1, 1), args, NULL);
    for (int t = 0; t < n; t++) {
        int w0 = t & ~31, s = 0, m4 = 0;
        unsigned ballot = 0;
        for (int i = 0; i < 32; i++) {
            s += in[w0 + i];
            ballot |= (unsigned)(in[w0 + i] > 50) << i;
        }
        for (int i = 0; i < 4; i++) m4 = in[(t & ~3) + i] > m4 ? in[(t & ~3) + i] : m4;
        int down = (t & 3) == 3 ? in[t] : in[t + 1];
        ck_assert_int_eq(out[t * 3 + 0], s);
        ck_assert_int_eq(out[t * 3 + 1], m4);
        ck_assert_int_eq(out[t * 3 + 2], down + (int)ballot);
    }
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

static uint16_t f2h(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static float h2f(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, 2);
    return (float)h;
}
static uint16_t f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);   /* the test values are exact in bf16 */
}
static float tf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u = (u + 0x1000u) & ~0x1fffu;   /* cvt.rna.tf32.f32 of a finite value */
    memcpy(&f, &u, 4);
    return f;
}

static float tf32_trunc(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u &= ~0x1fffu;
    memcpy(&f, &u, 4);
    return f;
}

START_TEST(wmma_half)
{
    load_path(async_files[_i]);
    uint16_t *a = pk_dalloc(256 * 2), *b = pk_dalloc(256 * 2), *dh = pk_dalloc(256 * 2);
    float *c = pk_dalloc(256 * 4), *d = pk_dalloc(256 * 4);
    float A_[16][16], B_[16][16];
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 16; k++) {
            A_[r][k] = (float)((r * 7 + k * 3) % 9 - 4) * 0.5f;
            B_[r][k] = (float)((r * 5 + k) % 7 - 3) * 0.25f;
        }
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 16; k++) {
            a[r * 16 + k] = f2h(A_[r][k]);   /* row major */
            b[k * 16 + r] = f2h(B_[r][k]);   /* col major: B[r][k] at k*16+r */
            c[r * 16 + k] = (float)(r - k);
        }
    uint64_t args[] = { pk_addr(a), pk_addr(b), pk_addr(c), pk_addr(d), pk_addr(dh) };
    run("wmma_f16", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            float acc = c[m * 16 + n], acch = 1.0f;
            for (int k = 0; k < 16; k++) {
                acc += A_[m][k] * B_[k][n];
                acch += A_[m][k] * B_[k][n];
            }
            ck_assert_float_eq(d[m * 16 + n], acc * 2.0f);
            ck_assert_float_eq(h2f(dh[n * 16 + m]), h2f(f2h(acch)));
        }
    emu_device_free(pk_addr(a));
    emu_device_free(pk_addr(b));
    emu_device_free(pk_addr(c));
    emu_device_free(pk_addr(d));
    emu_device_free(pk_addr(dh));
    unload();
}
END_TEST

START_TEST(wmma_bf16_and_tf32)
{
    load_path(async_files[_i]);
    uint16_t *a = pk_dalloc(256 * 2), *b = pk_dalloc(256 * 2);
    float *x = pk_dalloc(128 * 4), *y = pk_dalloc(128 * 4), *d = pk_dalloc(256 * 4), *e = pk_dalloc(256 * 4);
    float A_[16][16], B_[16][16], X[16][8], Y[8][16];
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 16; k++) {
            A_[r][k] = (float)((r * 3 + k * 5) % 11 - 5);
            B_[r][k] = (float)((r + k * 7) % 5 - 2) * 0.5f;
            a[k * 16 + r] = f2bf(A_[r][k]);   /* col major */
            b[r * 16 + k] = f2bf(B_[r][k]);   /* row major */
        }
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 8; k++) {
            X[m][k] = 1.0f + (float)(m * 8 + k) * 0.0009765625f + 0.0001f;
            x[m * 8 + k] = X[m][k];
        }
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 16; n++) {
            Y[k][n] = (float)((k * 16 + n) % 13) - 6.0f + 0.00003f;
            y[k * 16 + n] = Y[k][n];
        }
    uint64_t args[] = { pk_addr(a), pk_addr(b), pk_addr(x), pk_addr(y), pk_addr(d), pk_addr(e) };
    run("wmma_bf16_tf32", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            float acc = 0.5f;
            for (int k = 0; k < 16; k++) acc += A_[m][k] * B_[k][n];
            ck_assert_float_eq(d[m * 16 + n], acc);
            /* tensor cores sum the (exact) products and round once; in double the sum of
             * these few tf32 products is exact */
            double t = 0.0;
            for (int k = 0; k < 8; k++) t += (double)tf32(X[m][k]) * (double)tf32(Y[k][n]);
            ck_assert_float_eq(e[m * 16 + n], (float)t);
        }
    emu_device_free(pk_addr(a));
    emu_device_free(pk_addr(b));
    emu_device_free(pk_addr(x));
    emu_device_free(pk_addr(y));
    emu_device_free(pk_addr(d));
    emu_device_free(pk_addr(e));
    unload();
}
END_TEST

START_TEST(mma_sync_f16)
{
    load_path("tests/ptx/emu/mma_sm80.ptx");
    uint16_t *a = pk_dalloc(256 * 2), *bt = pk_dalloc(128 * 2);
    float *c = pk_dalloc(128 * 4), *d = pk_dalloc(128 * 4), *d2 = pk_dalloc(128 * 4);
    float A_[16][16], B_[16][8];
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 16; k++) {
            A_[m][k] = (float)((m * 5 + k * 3) % 11 - 5) * 0.5f;
            a[m * 16 + k] = f2h(A_[m][k]);
        }
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 8; n++) {
            B_[k][n] = (float)((k * 7 + n) % 9 - 4) * 0.25f;
            bt[n * 16 + k] = f2h(B_[k][n]);
        }
    for (int i = 0; i < 128; i++) c[i] = (float)(i % 5) - 2.0f;
    uint64_t args[] = { pk_addr(d), pk_addr(a), pk_addr(bt), pk_addr(c) };
    run("mma_f16", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    uint64_t args2[] = { pk_addr(d2), pk_addr(a), pk_addr(bt) };
    run("mma_ldmatrix", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args2, NULL);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            float acc = c[m * 8 + n], acc2 = 0;
            for (int k = 0; k < 16; k++) {
                acc += A_[m][k] * B_[k][n];
                acc2 += A_[m][k] * B_[k][n];
            }
            ck_assert_float_eq(d[m * 8 + n], acc);
            ck_assert_float_eq(d2[m * 8 + n], acc2);
        }
    emu_device_free(pk_addr(a));
    emu_device_free(pk_addr(bt));
    emu_device_free(pk_addr(c));
    emu_device_free(pk_addr(d));
    emu_device_free(pk_addr(d2));
    unload();
}
END_TEST

START_TEST(ldmatrix_trans_movmatrix)
{
    load_path("tests/ptx/emu/mma_sm80.ptx");
    uint16_t *m = pk_dalloc(64 * 2);
    uint32_t *out = pk_dalloc(64 * 4);
    for (int i = 0; i < 64; i++) m[i] = (uint16_t)(0x100 + i);  /* M[r][c] = 0x100 + 8r + c */
    uint64_t args[] = { pk_addr(out), pk_addr(m) };
    run("trans_moves", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (unsigned l = 0; l < 32; l++) {
        unsigned r = l / 4, c0 = (l % 4) * 2;
        /* .trans: lane l holds M^T[r][c0], M^T[r][c0+1] = M[c0][r], M[c0+1][r] */
        uint32_t want_t = (uint32_t)(0x100 + 8 * c0 + r) | ((uint32_t)(0x100 + 8 * (c0 + 1) + r) << 16);
        /* movmatrix transposes back */
        uint32_t want_m = (uint32_t)(0x100 + 8 * r + c0) | ((uint32_t)(0x100 + 8 * r + c0 + 1) << 16);
        ck_assert_uint_eq(out[l * 2], want_t);
        ck_assert_uint_eq(out[l * 2 + 1], want_m);
    }
    emu_device_free(pk_addr(m));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(mma_sync_tf32_s8_f64)
{
    load_path("tests/ptx/emu/mma_sm80.ptx");
    float *at = pk_dalloc(128 * 4), *bt = pk_dalloc(64 * 4), *dt = pk_dalloc(128 * 4);
    int8_t *ai = pk_dalloc(512), *bi = pk_dalloc(256);
    int *di = pk_dalloc(128 * 4);
    double *ad = pk_dalloc(32 * 8), *bd = pk_dalloc(32 * 8), *dd = pk_dalloc(64 * 8);
    for (int i = 0; i < 128; i++) at[i] = 1.0f + (float)i / 256.0f + 0.0001f;
    for (int i = 0; i < 64; i++) bt[i] = (float)(i % 7) - 3.0f + 0.00002f;
    for (int i = 0; i < 512; i++) ai[i] = (int8_t)((i * 37) % 256 - 128);
    for (int i = 0; i < 256; i++) bi[i] = (int8_t)((i * 11) % 256 - 128);
    for (int i = 0; i < 32; i++) {
        ad[i] = 0.1 * i - 1.0;
        bd[i] = 1.0 / (i + 1);
    }
    uint64_t args[] = { pk_addr(dt), pk_addr(at), pk_addr(bt), pk_addr(di), pk_addr(ai), pk_addr(bi), pk_addr(dd), pk_addr(ad), pk_addr(bd) };
    run("mma_other", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            /* mma reads a tf32 operand's upper 19 bits: raw f32 inputs are truncated; the
             * exact sum (exact in double here) is rounded once */
            double acc = 1.0;
            for (int k = 0; k < 8; k++)
                acc += (double)tf32_trunc(at[m * 8 + k]) * (double)tf32_trunc(bt[n * 8 + k]);
            ck_assert_float_eq(dt[m * 8 + n], (float)acc);
            int ia = 0;
            for (int k = 0; k < 32; k++) ia += ai[m * 32 + k] * bi[n * 32 + k];
            ck_assert_int_eq(di[m * 8 + n], ia);
        }
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++) {
            double acc = (n % 2 == 0) ? 0.5 : -0.5;
            for (int k = 0; k < 4; k++) acc = fma(ad[m * 4 + k], bd[n * 4 + k], acc);
            ck_assert_double_eq(dd[m * 8 + n], acc);
        }
    emu_device_free(pk_addr(at));
    emu_device_free(pk_addr(bt));
    emu_device_free(pk_addr(dt));
    emu_device_free(pk_addr(ai));
    emu_device_free(pk_addr(bi));
    emu_device_free(pk_addr(di));
    emu_device_free(pk_addr(ad));
    emu_device_free(pk_addr(bd));
    emu_device_free(pk_addr(dd));
    unload();
}
END_TEST

START_TEST(intra_warp_spinlock)
{
    load_file(_i);
    int *lock = pk_dalloc(4), *counter = pk_dalloc(4), *order = pk_dalloc(96 * 4);
    for (int i = 0; i < 96; i++) order[i] = -1;
    uint64_t args[] = { pk_addr(lock), pk_addr(counter), pk_addr(order) };
    run("spinlock", pk_dim3(2, 1, 1), pk_dim3(48, 1, 1), args, NULL);
    ck_assert_int_eq(*counter, 96);
    ck_assert_int_eq(*lock, 0);
    int seen[96] = { 0 };
    for (int i = 0; i < 96; i++) {
        ck_assert(order[i] >= 0 && order[i] < 96);
        ck_assert_int_eq(seen[order[i]]++, 0);   /* every thread entered exactly once */
    }
    emu_device_free(pk_addr(lock));
    emu_device_free(pk_addr(counter));
    emu_device_free(pk_addr(order));
    unload();
}
END_TEST

START_TEST(cluster_barrier)
{
    load_hand();
    unsigned *out = pk_dalloc(64 * 4);
    uint64_t args[] = { pk_addr(out) };
    run("clusterbar", pk_dim3(2, 1, 1), pk_dim3(64, 1, 1), args, NULL);
    for (unsigned t = 0; t < 64; t++) ck_assert_uint_eq(out[t], t ^ 63);
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

/* mma.sync's f32 results: a NaN arising from inf x 0, inf - inf or a NaN operand is the
 * canonical NaN 0x7fffffff, the one encoding ptxsim gives every f32 NaN result (the ISA leaves
 * NaN payloads open; a fixed one keeps results the same on every host and build), also when
 * two NaNs of different signs meet in the sum. Every element of A is a, of B b, of C c, so
 * every element of D is 8ab + c whatever the fragment layout. */
static const char MMA_NAN_PTX[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry mma_nan(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
    "  mul.wide.u32 %rd3, %r2, 12;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n  ld.global.u32 %r4, [%rd4+4];\n  ld.global.f32 %f1, [%rd4+8];\n"
    "  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r3, %r3}, {%r4},"
    " {%f1, %f1, %f1, %f1};\n"
    "  mul.wide.u32 %rd5, %r1, 16;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  st.global.v4.f32 [%rd6], {%f2, %f3, %f4, %f5};\n  ret;\n}\n";

START_TEST(mma_nan_results)
{
    load_text(MMA_NAN_PTX, strlen(MMA_NAN_PTX), "mma_nan.ptx");
    /* per warp: a and b (f16, in both halves of a word), c (f32 bits), the expected D bits */
    static const struct { uint16_t a, b; uint32_t c, d; } cases[] = {
        { 0x7c00, 0x0000, 0x3f800000, 0x7fffffff },   /* inf x 0 */
        { 0x3c00, 0x3c00, 0xffc00001, 0x7fffffff },   /* a negative quiet NaN in C */
        { 0x7c00, 0x3c00, 0xff800000, 0x7fffffff },   /* inf + -inf */
        { 0x7c00, 0x0000, 0xff800001, 0x7fffffff },   /* inf x 0 and a negative signalling NaN */
        { 0xfe01, 0x3c00, 0x40000000, 0x7fffffff },   /* a negative NaN in A */
        { 0x3e00, 0x4000, 0x3e800000, 0x41c20000 },   /* 8 x 1.5 x 2 + 0.25 = 24.25 */
    };
    enum { NC = sizeof cases / sizeof cases[0] };
    uint32_t *in = pk_dalloc(NC * 12), *out = pk_dalloc(NC * 32 * 16);
    for (int i = 0; i < NC; i++) {
        in[3 * i] = cases[i].a * 0x10001u;
        in[3 * i + 1] = cases[i].b * 0x10001u;
        in[3 * i + 2] = cases[i].c;
    }
    uint64_t args[] = { pk_addr(out), pk_addr(in) };
    run("mma_nan", pk_dim3(1, 1, 1), pk_dim3(NC * 32, 1, 1), args, NULL);
    for (int t = 0; t < NC * 32; t++)
        for (int e = 0; e < 4; e++)
            ck_assert_msg(out[4 * t + e] == cases[t / 32].d, "case %d, lane %d, element %d: want 0x%08x got 0x%08x",
                          t / 32, t % 32, e, cases[t / 32].d, out[4 * t + e]);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(stmatrix_x4)
{
    load_path("tests/ptx/emu/mma_sm90.ptx");
    uint16_t *out = pk_dalloc(256 * 2);
    uint64_t args[] = { pk_addr(out) };
    run("st_matrix", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), args, NULL);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 64; k++) ck_assert_uint_eq(out[i * 64 + k], 0x1000u * i + k);
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(vector_atomics)
{
    load_hand();
    float *p = pk_dalloc(16), *olds = pk_dalloc(64 * 8);
    uint64_t args[] = { pk_addr(p), pk_addr(olds) };
    run("vatom", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), args, NULL);
    ck_assert_float_eq(p[0], 64.0f);
    ck_assert_float_eq(p[1], 128.0f);
    ck_assert_float_eq(p[2], 128.0f);
    ck_assert_float_eq(p[3], 64.0f);
    bool seen[64] = { false };
    for (int t = 0; t < 64; t++) {   /* each thread saw a distinct old value of each element */
        int k = (int)olds[t * 2];
        ck_assert(k >= 0 && k < 64 && !seen[k]);
        seen[k] = true;
        ck_assert_float_eq(olds[t * 2 + 1], 2.0f * olds[t * 2]);
    }
    emu_device_free(pk_addr(p));
    emu_device_free(pk_addr(olds));
    unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu_features");
    TCase *tn = tcase_create("nvcc_features");
    tcase_set_timeout(tn, 60);
    int nv = (int)(sizeof ptx_files / sizeof ptx_files[0]);
    tcase_add_loop_test(tn, function_pointers, 0, nv);
    tcase_add_loop_test(tn, struct_by_value_and_local_array, 0, nv);
    tcase_add_loop_test(tn, switch_statement, 0, nv);
    tcase_add_loop_test(tn, device_printf, 0, nv);
    tcase_add_loop_test(tn, device_malloc_free, 0, nv);
    tcase_add_loop_test(tn, device_assert, 0, nv);
    tcase_add_loop_test(tn, syncthreads_reductions, 0, nv);
    tcase_add_loop_test(tn, intra_warp_spinlock, 0, nv);
    suite_add_tcase(s, tn);
    TCase *ta = tcase_create("sm80_async_tensor");
    tcase_set_timeout(ta, 60);
    int na = (int)(sizeof async_files / sizeof async_files[0]);
    tcase_add_loop_test(ta, barrier_memcpy_async, 0, na);
    tcase_add_loop_test(ta, pipeline_memcpy_async, 0, na);
    tcase_add_loop_test(ta, cooperative_groups, 0, na);
    tcase_add_loop_test(ta, wmma_half, 0, na);
    tcase_add_loop_test(ta, wmma_bf16_and_tf32, 0, na);
    tcase_add_test(ta, mma_sync_f16);
    tcase_add_test(ta, ldmatrix_trans_movmatrix);
    tcase_add_test(ta, mma_sync_tf32_s8_f64);
    tcase_add_test(ta, stmatrix_x4);
    tcase_add_test(ta, mma_nan_results);
    suite_add_tcase(s, ta);
    TCase *th = tcase_create("handwritten");
    tcase_add_test(th, brx_idx_multiway);
    tcase_add_test(th, generic_addressing);
    tcase_add_test(th, carry_chains);
    tcase_add_test(th, special_registers);
    tcase_add_test(th, module_variables_and_relocations);
    tcase_add_test(th, shared_atomics);
    tcase_add_test(th, cluster_barrier);
    tcase_add_test(th, vector_atomics);
    suite_add_tcase(s, th);
    return s;
}

int main(void) { return pk_main(suite()); }
