/* test_rt_link.c: the runtime's -rdc linker (runtime/link.c) on two hand-written translation
 * units: a kernel in one unit calls a .visible function and reads a .visible variable of the
 * other; both units define an internal variable of the same name (each must keep its own);
 * both carry a .weak variable (the first definition must win, and be one storage for both
 * units). The linked module is loaded and run, and the kernel's output checked. */
#include "tests/unit/ptx_kernels.h"
#include "runtime/rt_internal.h"

#include <check.h>
#include <string.h>

static const char unit_a[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".extern .global .align 4 .u32 offset;\n"
    ".global .align 4 .u32 local_only = 7;\n"
    ".weak .global .align 4 .u32 shared_weak = 100;\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
    "  {\n  .param .b32 p0;\n  .param .b32 r0;\n  st.param.b32 [p0], %r1;\n"
    "  call.uni (r0), twice, (p0);\n  ld.param.b32 %r2, [r0];\n  }\n"
    "  ld.global.u32 %r3, [offset];\n  add.s32 %r2, %r2, %r3;\n"
    "  ld.global.u32 %r4, [local_only];\n  add.s32 %r2, %r2, %r4;\n"
    "  ld.global.u32 %r5, [shared_weak];\n  add.s32 %r2, %r2, %r5;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd3, %rd2, %rd3;\n  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

static const char unit_b[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .align 4 .u32 offset = 1000;\n"
    ".global .align 4 .u32 local_only = 50000;\n"
    ".weak .global .align 4 .u32 shared_weak = 200;\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    "  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n  shl.b32 %r2, %r1, 1;\n"
    "  st.param.b32 [r], %r2;\n  ret;\n}\n"
    ".visible .entry bump()\n{\n"
    "  .reg .b32 %r<3>;\n  ld.global.u32 %r1, [shared_weak];\n  add.s32 %r1, %r1, 1;\n"
    "  st.global.u32 [shared_weak], %r1;\n  ld.global.u32 %r2, [local_only];\n"
    "  add.s32 %r2, %r2, 1;\n  st.global.u32 [local_only], %r2;\n  ret;\n}\n";

static void run(const emu_module *em, const char *kernel, uint32_t threads, uint64_t out)
{
    const ptx_function *f = ptx_find_function(emu_module_ptx(em), kernel);
    ck_assert_ptr_nonnull(f);
    emu_launch L = {
        .module = em,
        .kernel = f,
        .grid = {1, 1, 1},
        .block = {threads, 1, 1},
        .params = &out,
        .params_size = f->param_size,
        .policy = emu_direct_policy(),
        .sm_count = 1,
        .grid_id = 1,
    };
    emu_fault fault = {0};
    emu_grid *g = emu_grid_create(&L, &fault);
    ck_assert_msg(g != NULL, "%s", fault.message);
    timing_engine_config ec;
    timing_engine_defaults(&ec);
    ec.host_threads = 1;
    bool ok = timing_run_grid(g, &ec);
    const emu_fault *ef = emu_grid_fault(g);
    ck_assert_msg(ok, "%s", ef ? ef->message : "failed");
    emu_grid_destroy(g);
}

START_TEST(link_binds_externs_and_merges_weak)
{
    ptx_module *a = pk_parse(unit_a, "unit_a"), *b = pk_parse(unit_b, "unit_b");
    const ptx_module *units[2] = {a, b};
    char err[256] = "";
    rt_linked *l = rt_link(units, 2, "linked", err, sizeof err);
    ck_assert_msg(l != NULL, "%s", err);
    char names[128];
    ck_assert_uint_eq(rt_link_unresolved(l, names, sizeof names), 0);
    emu_module *em = emu_module_load(rt_linked_module(l), err, sizeof err);
    ck_assert_msg(em != NULL, "%s", err);

    uint64_t out = emu_device_alloc(32 * 4, EMU_ALLOC_DEVICE);
    ck_assert(out != 0);
    run(em, "k", 32, out);
    const uint32_t *r = (const uint32_t *)(uintptr_t)out;
    for (uint32_t t = 0; t < 32; t++)
        ck_assert_uint_eq(r[t], 2 * t + 1000 + 7 + 100);
    /* bump (unit b) increments the weak variable and b's own internal one: unit a must see
     * the first, never the second. */
    run(em, "bump", 1, 0);
    run(em, "k", 32, out);
    for (uint32_t t = 0; t < 32; t++)
        ck_assert_uint_eq(r[t], 2 * t + 1000 + 7 + 101);
    /* The visible variable resolves to its one definition by name. */
    uint64_t addr = 0, size = 0;
    ck_assert(emu_module_symbol(em, "offset", &addr, &size));
    ck_assert_uint_eq(*(const uint32_t *)(uintptr_t)addr, 1000);
    ck_assert_uint_eq(size, 4);

    emu_device_free(out);
    emu_module_unload(em);
    rt_link_free(l);
    ptx_module_free(a);
    ptx_module_free(b);
}
END_TEST

START_TEST(link_reports_unresolved)
{
    ptx_module *a = pk_parse(unit_a, "unit_a");
    const ptx_module *units[1] = {a};
    char err[256] = "";
    rt_linked *l = rt_link(units, 1, "alone", err, sizeof err);
    ck_assert_msg(l != NULL, "%s", err);
    char names[128];
    ck_assert_uint_eq(rt_link_unresolved(l, names, sizeof names), 2);
    ck_assert(strstr(names, "twice") != NULL && strstr(names, "offset") != NULL);
    rt_link_free(l);
    ptx_module_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_link");
    TCase *tc = tcase_create("link");
    tcase_add_test(tc, link_binds_externs_and_merges_weak);
    tcase_add_test(tc, link_reports_unresolved);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
