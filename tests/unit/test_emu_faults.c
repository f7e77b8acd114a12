/* test_emu_faults.c: faults and the device memory that guards against them: out-of-bounds and
 * misaligned accesses (reported with kernel, PTX line, block and thread, and writing nothing),
 * shared/local range errors, trap, barrier deadlock, unsupported instructions at load time,
 * launch validation, and the allocator (alignment, zero fill, first-fit reuse, host ranges). */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pk_module mod;

static void load(const char *text) { mod = pk_load_text(text, strlen(text), "faults.ptx"); }
static void unload(void) { pk_unload(&mod); }

/* Runs `kernel` with its first nargs parameters from args (the rest zero), on the default
 * engine; returns true when it completed, else fills fault. */
static bool run(const char *kernel, emu_dim3 grid, emu_dim3 block, const uint64_t *args,
                int nargs, emu_fault *fault)
{
    uint64_t all[PK_PARAMS_MAX / 8] = { 0 };
    if (nargs > 0) memcpy(all, args, (size_t)nargs * sizeof *args);
    pk_launch l = { .grid = grid, .block = block };
    return pk_run(&mod, kernel, &l, all, fault);
}

/* run, with the executor recording an event per warp instruction (as for the cycle model; the
 * events themselves are dropped): the fast path of a whole warp's access then checks its
 * lanes from the shape of their addresses (exec_mem.c, fast_warp_shaped). */
static void drop_events(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    (void)self, (void)w, (void)ev, (void)n;
}

static bool run_recorded(const char *kernel, emu_dim3 grid, emu_dim3 block,
                         const uint64_t *args, int nargs, emu_fault *fault)
{
    static emu_event_sink sink = {drop_events, NULL};
    uint64_t all[PK_PARAMS_MAX / 8] = { 0 };
    if (nargs > 0) memcpy(all, args, (size_t)nargs * sizeof *args);
    pk_launch l = { .grid = grid, .block = block, .events = &sink };
    return pk_run(&mod, kernel, &l, all, fault);
}

/* The PTX line holding `needle`, counted from 1. */
static uint32_t line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    ck_assert_msg(p != NULL, "'%s' not in the PTX", needle);
    uint32_t line = 1;
    for (const char *q = text; q < p; q++)
        if (*q == '\n') line++;
    return line;
}

static const char *OOB_PTX =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry oob(.param .u64 p, .param .u32 v)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [v];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n"
    "  mad.lo.s32 %r2, %r3, 32, %r2;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1; // the store\n"
    "  ret;\n}\n"
    ".visible .entry misaligned(.param .u64 p)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1+2]; // the load\n"
    "  ret;\n}\n"
    ".visible .entry misaligned_warp(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r2, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r1, [%rd3+2]; // the warp's load\n"
    "  ret;\n}\n"
    ".visible .entry nullread(.param .u64 p)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
    "  mov.u64 %rd1, 0;\n"
    "  ld.u32 %r1, [%rd1]; // null\n"
    "  ret;\n}\n";

/* A C++ kernel: faults name it demangled, as compute-sanitizer does. */
static const char *MANGLED_PTX =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry _Z6kernelPi(.param .u64 _Z6kernelPi_param_0)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
    "  mov.u64 %rd1, 0;\n"
    "  st.global.u32 [%rd1], 1;\n"
    "  ret;\n}\n";

START_TEST(fault_names_demangled_kernel)
{
    char *d = ptx_demangle("_Z6kernelPi");
    ck_assert_str_eq(d, "kernel(int*)");
    free(d);
    d = ptx_demangle("oob");   /* not mangled: itself */
    ck_assert_str_eq(d, "oob");
    free(d);
    load(MANGLED_PTX);
    emu_fault f;
    uint64_t args[] = { 0 };
    ck_assert(!run("_Z6kernelPi", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    ck_assert_msg(strstr(f.message, "in kernel kernel(int*) (PTX line") &&
                  !strstr(f.message, "_Z6kernelPi"), "message: %s", f.message);
    unload();
}
END_TEST

START_TEST(out_of_bounds_store)
{
    load(OOB_PTX);
    /* 40 valid bytes: threads 10.. of block 0 are out of bounds */
    uint32_t *buf = (uint32_t *)(uintptr_t)emu_device_alloc(40, EMU_ALLOC_DEVICE);
    uint32_t *next = (uint32_t *)(uintptr_t)emu_device_alloc(256, EMU_ALLOC_DEVICE);
    ck_assert(buf && next);
    for (int i = 0; i < 10; i++) buf[i] = 0xdeadbeef;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, 7 };
    emu_fault f;
    ck_assert(!run("oob", (emu_dim3){ 2, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 2, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.cta.x, 0);
    ck_assert_uint_eq(f.thread.x, 10);
    ck_assert_uint_eq(f.ptx_line, line_of(OOB_PTX, "st.global.u32"));
    ck_assert_uint_eq(f.address, (uint64_t)(uintptr_t)buf + 40);
    ck_assert_msg(strstr(f.message, "Invalid __global__ write of size 4") &&
                  strstr(f.message, "kernel oob") && strstr(f.message, "thread (10,0,0)") &&
                  strstr(f.message, "block (0,0,0)") && strstr(f.message, "out of bounds"),
                  "message: %s", f.message);
    /* the faulting warp instruction wrote nothing, not even its in-bounds lanes */
    for (int i = 0; i < 10; i++) ck_assert_uint_eq(buf[i], 0xdeadbeef);
    for (int i = 0; i < 64; i++) ck_assert_uint_eq(next[i], 0);
    emu_device_free((uint64_t)(uintptr_t)buf);
    emu_device_free((uint64_t)(uintptr_t)next);
    unload();
}
END_TEST

START_TEST(out_of_bounds_second_block)
{
    load(OOB_PTX);
    /* block 0 fits exactly; block 1's thread 0 is the first bad one */
    uint32_t *buf = (uint32_t *)(uintptr_t)emu_device_alloc(128, EMU_ALLOC_DEVICE);
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, 3 };
    emu_fault f;
    ck_assert(!run("oob", (emu_dim3){ 2, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 2, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.cta.x, 1);
    ck_assert_uint_eq(f.thread.x, 0);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(buf[i], 3);
    emu_device_free((uint64_t)(uintptr_t)buf);
    unload();
}
END_TEST

START_TEST(misaligned_load)
{
    load(OOB_PTX);
    uint64_t p = emu_device_alloc(64, EMU_ALLOC_DEVICE);
    uint64_t args[] = { p };
    emu_fault f;
    ck_assert(!run("misaligned", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_MISALIGNED);
    ck_assert_uint_eq(f.address, p + 2);
    ck_assert_uint_eq(f.ptx_line, line_of(OOB_PTX, "ld.global.u32 %r1, [%rd1+2]"));
    ck_assert_msg(strstr(f.message, "misaligned"), "message: %s", f.message);
    emu_device_free(p);
    unload();
}
END_TEST

START_TEST(null_pointer)
{
    load(OOB_PTX);
    emu_fault f;
    uint64_t args[] = { 0 };
    ck_assert(!run("nullread", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 4, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.address, 0);
    ck_assert_uint_eq(f.thread.x, 0);
    unload();
}
END_TEST

static const char *SPACES_PTX =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry shared_oob(.param .u32 off)\n{\n"
    "  .shared .align 4 .b8 sm[64];\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.u32 %r1, [off];\n  mov.u32 %r2, sm;\n  add.s32 %r3, %r2, %r1;\n"
    "  st.shared.u32 [%r3], 5; // shared store\n"
    "  ret;\n}\n"
    ".visible .entry local_oob(.param .u32 off)\n{\n"
    "  .local .align 4 .b8 depot[16];\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u32 %r1, [off];\n  mov.u64 %rd1, depot;\n  cvt.u64.u32 %rd2, %r1;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.local.u32 [%rd3], 5; // local store\n"
    "  ret;\n}\n"
    ".visible .entry trapk()\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 5;\n"
    "  @%p1 trap; // the trap\n"
    "  ret;\n}\n"
    ".visible .entry deadlock()\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra A;\n"
    "  bar.sync 1; // second barrier\n"
    "  ret;\n"
    "A:\n  bar.sync 0; // first barrier\n"
    "  ret;\n}\n"
    ".visible .entry exited_ok(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 40;\n"
    "  @%p1 exit;\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n}\n";

START_TEST(shared_out_of_range)
{
    load(SPACES_PTX);
    emu_fault f;
    uint64_t ok_args[] = { 60 };
    ck_assert(run("shared_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, ok_args, 1, &f));
    uint64_t args[] = { 64 };
    ck_assert(!run("shared_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_SHARED_OUT_OF_RANGE);
    ck_assert_uint_eq(f.ptx_line, line_of(SPACES_PTX, "st.shared.u32"));
    ck_assert_msg(strstr(f.message, "__shared__"), "message: %s", f.message);
    unload();
}
END_TEST

START_TEST(local_out_of_range)
{
    load(SPACES_PTX);
    emu_fault f;
    uint64_t ok_args[] = { 12 };
    ck_assert(run("local_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, ok_args, 1, &f));
    uint64_t args[] = { 4096 };
    ck_assert(!run("local_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 1, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_LOCAL_OUT_OF_RANGE);
    ck_assert_uint_eq(f.ptx_line, line_of(SPACES_PTX, "st.local.u32"));
    unload();
}
END_TEST

START_TEST(trap)
{
    load(SPACES_PTX);
    emu_fault f;
    ck_assert(!run("trapk", (emu_dim3){ 3, 1, 1 }, (emu_dim3){ 8, 1, 1 }, NULL, 0, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_TRAP);
    ck_assert_uint_eq(f.thread.x, 5);
    ck_assert_uint_eq(f.cta.x, 0);
    ck_assert_uint_eq(f.ptx_line, line_of(SPACES_PTX, "@%p1 trap"));
    unload();
}
END_TEST

START_TEST(barrier_deadlock)
{
    load(SPACES_PTX);
    emu_fault f;
    ck_assert(!run("deadlock", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 64, 1, 1 }, NULL, 0, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_BARRIER_DEADLOCK);
    char l0[32], l1[32];
    snprintf(l0, sizeof l0, "PTX line %u", line_of(SPACES_PTX, "bar.sync 0"));
    snprintf(l1, sizeof l1, "PTX line %u", line_of(SPACES_PTX, "bar.sync 1"));
    ck_assert_msg(strstr(f.message, "deadlock") && strstr(f.message, "barrier 0") &&
                  strstr(f.message, l0) && strstr(f.message, l1), "message: %s", f.message);
    unload();
}
END_TEST

START_TEST(exited_threads_do_not_block_barrier)
{
    load(SPACES_PTX);
    emu_fault f;
    uint32_t *buf = (uint32_t *)(uintptr_t)emu_device_alloc(96 * 4, EMU_ALLOC_DEVICE);
    for (int i = 0; i < 96; i++) buf[i] = 0xffffffffu;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    ck_assert_msg(run("exited_ok", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 96, 1, 1 }, args, 1, &f),
                  "faulted: %s", f.message);
    for (int i = 0; i < 96; i++) ck_assert_uint_eq(buf[i], i < 40 ? (uint32_t)i : 0xffffffffu);
    emu_device_free((uint64_t)(uintptr_t)buf);
    unload();
}
END_TEST

static const char *RECURSE_PTX =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".func (.param .b32 r) down(.param .b32 x)\n{\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.b32 %r1, [x];\n  add.s32 %r2, %r1, 1;\n"
    "  { .param .b32 a; .param .b32 rv;\n"
    "    st.param.b32 [a], %r2;\n    call.uni (rv), down, (a); // recursive call\n"
    "    ld.param.b32 %r3, [rv]; }\n"
    "  st.param.b32 [r], %r3;\n  ret;\n}\n"
    ".visible .entry forever(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n"
    "  { .param .b32 a; .param .b32 rv;\n"
    "    st.param.b32 [a], %r1;\n    call.uni (rv), down, (a);\n"
    "    ld.param.b32 %r2, [rv]; }\n"
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

START_TEST(stack_overflow)
{
    load(RECURSE_PTX);
    uint64_t p = emu_device_alloc(4, EMU_ALLOC_DEVICE);
    uint64_t args[] = { p };
    emu_fault f;
    ck_assert(!run("forever", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_STACK_OVERFLOW);
    ck_assert_uint_eq(f.ptx_line, line_of(RECURSE_PTX, "call.uni (rv), down, (a); // rec"));
    ck_assert_msg(strstr(f.message, "function down"), "message: %s", f.message);
    ck_assert_uint_eq(*(uint32_t *)(uintptr_t)p, 0);
    emu_device_free(p);
    unload();
}
END_TEST

START_TEST(unsupported_instruction_at_load)
{
    const char *text = ".version 9.0\n.target sm_90a\n.address_size 64\n"
                       ".visible .entry k()\n{\n"
                       "  .reg .b32 %r<2>;\n"
                       "  wgmma.fence.sync.aligned;\n"
                       "  ret;\n}\n";
    ptx_diag diag = { 0 };
    ptx_module *m = ptx_parse(text, strlen(text), "unsup.ptx", &diag);
    ck_assert_msg(m != NULL, "parse failed: %s", diag.text ? diag.text : "");
    ptx_diag_free(&diag);
    char err[1024];
    emu_module *e = emu_module_load(m, err, sizeof err);
    ck_assert(e == NULL);
    ck_assert_msg(strstr(err, "unsup.ptx:7: unsupported instruction 'wgmma.fence.sync.aligned' "
                              "in function 'k'"), "err: %s", err);
    ptx_module_free(m);
}
END_TEST

START_TEST(launch_validation)
{
    load(SPACES_PTX);
    const ptx_function *k = ptx_find_function(mod.ptx, "trapk");
    emu_launch L = { 0 };
    L.module = mod.emu;
    L.kernel = k;
    L.grid = (emu_dim3){ 1, 1, 1 };
    L.block = (emu_dim3){ 1025, 1, 1 };
    emu_fault f;
    ck_assert(emu_grid_create(&L, &f) == NULL);
    ck_assert_int_eq(f.kind, EMU_FAULT_OUT_OF_RESOURCES);
    L.block = (emu_dim3){ 32, 1, 1 };
    L.dynamic_smem = 1u << 30;
    ck_assert(emu_grid_create(&L, &f) == NULL);
    ck_assert_int_eq(f.kind, EMU_FAULT_OUT_OF_RESOURCES);
    L.dynamic_smem = 0;
    L.grid = (emu_dim3){ 0, 1, 1 };
    ck_assert(emu_grid_create(&L, &f) == NULL);
    unload();
}
END_TEST

START_TEST(device_memory_allocator)
{
    uint64_t a = emu_device_alloc(100, EMU_ALLOC_DEVICE);
    uint64_t b = emu_device_alloc(1000, EMU_ALLOC_DEVICE);
    uint64_t c = emu_device_alloc(10, EMU_ALLOC_DEVICE);
    ck_assert(a && b && c);
    ck_assert_uint_eq(a % 256, 0);
    ck_assert_uint_eq(b % 256, 0);
    ck_assert_uint_eq(c % 256, 0);
    uint64_t base, size;
    emu_alloc_kind kind;
    ck_assert(emu_find_allocation(b + 10, 4, &base, &size, &kind));
    ck_assert_uint_eq(base, b);
    ck_assert_uint_eq(size, 1000);
    ck_assert_int_eq(kind, EMU_ALLOC_DEVICE);
    ck_assert(!emu_find_allocation(b + 998, 4, NULL, NULL, NULL)); /* crosses the end */
    ck_assert(!emu_find_allocation(a + 100, 1, NULL, NULL, NULL)); /* in the padding */
    memset((void *)(uintptr_t)b, 0xab, 1000);
    ck_assert(emu_device_free(b));
    ck_assert(!emu_device_free(b));
    ck_assert(!emu_find_allocation(b, 1, NULL, NULL, NULL));
    /* first fit: the hole b left is reused, and reads as zero */
    uint64_t d = emu_device_alloc(600, EMU_ALLOC_DEVICE);
    ck_assert_uint_eq(d, b);
    for (int i = 0; i < 600; i++) ck_assert_uint_eq(((uint8_t *)(uintptr_t)d)[i], 0);
    /* a large block, freed and reused, is zero again */
    uint64_t big = emu_device_alloc(1 << 20, EMU_ALLOC_DEVICE);
    memset((void *)(uintptr_t)big, 0x5c, 1 << 20);
    ck_assert(emu_device_free(big));
    uint64_t big2 = emu_device_alloc(1 << 20, EMU_ALLOC_DEVICE);
    ck_assert_uint_eq(big2, big);
    for (int i = 0; i < (1 << 20); i += 4093) ck_assert_uint_eq(((uint8_t *)(uintptr_t)big2)[i], 0);
    uint64_t used, total;
    emu_device_mem_info(&used, &total);
    ck_assert(used >= (1 << 20) && total >= used);
    /* a registered host range is valid device memory */
    static uint8_t host[300];
    ck_assert(!emu_find_allocation((uint64_t)(uintptr_t)host, 4, NULL, NULL, NULL));
    ck_assert(emu_register_host_range((uint64_t)(uintptr_t)host, sizeof host));
    ck_assert(emu_find_allocation((uint64_t)(uintptr_t)host + 296, 4, NULL, NULL, &kind));
    ck_assert_int_eq(kind, EMU_ALLOC_HOST);
    ck_assert(!emu_device_free((uint64_t)(uintptr_t)host));
    ck_assert(emu_unregister_host_range((uint64_t)(uintptr_t)host));
    ck_assert(!emu_find_allocation((uint64_t)(uintptr_t)host, 4, NULL, NULL, NULL));
    emu_device_free(a);
    emu_device_free(c);
    emu_device_free(d);
    emu_device_free(big2);
}
END_TEST

/* Whole warps whose lanes' addresses have a shape (a stride) with events recorded: a lane out of
 * bounds at one end, a misaligned start, shared memory past its end, each the fault the lanes
 * checked one by one give; in bounds, the access goes through. */
START_TEST(shaped_warp_faults_with_events)
{
    load(OOB_PTX);
    uint32_t *buf = (uint32_t *)(uintptr_t)emu_device_alloc(40 * 4, EMU_ALLOC_DEVICE);
    ck_assert(buf != NULL);
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, 7 };
    emu_fault f;
    /* lanes 0-31 of block 0 fit, block 1's lane 8 is the first past the end */
    ck_assert(!run_recorded("oob", (emu_dim3){ 2, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 2, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(f.cta.x, 1);
    ck_assert_uint_eq(f.thread.x, 8);
    ck_assert_uint_eq(f.address, (uint64_t)(uintptr_t)buf + 160);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(buf[i], 7);
    for (int i = 32; i < 40; i++) ck_assert_uint_eq(buf[i], 0);
    ck_assert(run_recorded("oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args, 2, &f));
    ck_assert(!run_recorded("misaligned_warp", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, args,
                            1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_MISALIGNED);
    ck_assert_uint_eq(f.address, (uint64_t)(uintptr_t)buf + 2);
    ck_assert_uint_eq(f.thread.x, 0);
    emu_device_free((uint64_t)(uintptr_t)buf);
    unload();
    load(SPACES_PTX);
    uint64_t ok_args[] = { 60 }, bad_args[] = { 64 };
    ck_assert(run_recorded("shared_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, ok_args, 1,
                           &f));
    ck_assert(!run_recorded("shared_oob", (emu_dim3){ 1, 1, 1 }, (emu_dim3){ 32, 1, 1 }, bad_args,
                            1, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_SHARED_OUT_OF_RANGE);
    unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu_faults");
    TCase *tc = tcase_create("faults");
    tcase_add_test(tc, out_of_bounds_store);
    tcase_add_test(tc, out_of_bounds_second_block);
    tcase_add_test(tc, misaligned_load);
    tcase_add_test(tc, null_pointer);
    tcase_add_test(tc, shaped_warp_faults_with_events);
    tcase_add_test(tc, shared_out_of_range);
    tcase_add_test(tc, local_out_of_range);
    tcase_add_test(tc, trap);
    tcase_add_test(tc, barrier_deadlock);
    tcase_add_test(tc, fault_names_demangled_kernel);
    tcase_add_test(tc, exited_threads_do_not_block_barrier);
    tcase_add_test(tc, stack_overflow);
    tcase_add_test(tc, unsupported_instruction_at_load);
    tcase_add_test(tc, launch_validation);
    suite_add_tcase(s, tc);
    TCase *tm = tcase_create("device_memory");
    tcase_add_test(tm, device_memory_allocator);
    suite_add_tcase(s, tm);
    return s;
}

int main(void) { return pk_main(suite()); }
