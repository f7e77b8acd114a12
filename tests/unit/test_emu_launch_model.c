/* test_emu_launch_model.c: what a launch takes from the modelled GPU: %nwarpid (warps per SM),
 * %nsmid, and the shared memory the system reserves per CTA on sm_80 and later
 * (%reserved_smem_offset_*, %total_smem_size, %aggr_smem_size): the reserved region lies below
 * the kernel's own shared memory, never aliases it, and an overrun past the kernel's shared
 * memory still faults. Expected values come from the PTX ISA's definitions and the launch. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char *PTX =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry model(.param .u64 out)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  .shared .align 4 .b32 sh[16];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %nwarpid;\n  st.global.u32 [%rd1], %r1;\n"
    "  mov.u32 %r2, %nsmid;\n  st.global.u32 [%rd1+4], %r2;\n"
    "  mov.u32 %r3, %reserved_smem_offset_begin;\n  st.global.u32 [%rd1+8], %r3;\n"
    "  mov.u32 %r4, %reserved_smem_offset_end;\n  st.global.u32 [%rd1+12], %r4;\n"
    "  mov.u32 %r5, %reserved_smem_offset_cap;\n  st.global.u32 [%rd1+16], %r5;\n"
    "  mov.u32 %r6, %reserved_smem_offset_1;\n  st.global.u32 [%rd1+20], %r6;\n"
    "  mov.u32 %r7, %total_smem_size;\n  st.global.u32 [%rd1+24], %r7;\n"
    "  mov.u32 %r8, %aggr_smem_size;\n  st.global.u32 [%rd1+28], %r8;\n"
    "  mov.u32 %r9, %dynamic_smem_size;\n  st.global.u32 [%rd1+32], %r9;\n"
    "  mov.u32 %r10, sh;\n  st.global.u32 [%rd1+36], %r10;\n"
    "  st.shared.u32 [sh], 7;\n"
    "  st.shared.u32 [sh+60], 9;\n"
    /* fill the whole reserved region, as cooperative_groups' scratch would */
    "  mov.u32 %r11, %r3;\n"
    "FILL:\n"
    "  setp.ge.u32 %p1, %r11, %r4;\n"
    "  @%p1 bra DONE;\n"
    "  st.shared.u32 [%r11], -1;\n"
    "  add.u32 %r11, %r11, 4;\n"
    "  bra FILL;\n"
    "DONE:\n"
    "  ld.shared.u32 %r12, [sh];\n  st.global.u32 [%rd1+40], %r12;\n"
    "  ld.shared.u32 %r13, [sh+60];\n  st.global.u32 [%rd1+44], %r13;\n"
    "  ret;\n}\n"
    ".visible .entry overrun(.param .u32 idx)\n{\n"
    "  .reg .b32 %r<4>;\n"
    "  .shared .align 4 .b32 sh[16];\n"
    "  ld.param.u32 %r1, [idx];\n"
    "  mov.u32 %r2, sh;\n"
    "  mad.lo.u32 %r3, %r1, 4, %r2;\n"
    "  st.shared.u32 [%r3], 1; // the store\n"
    "  ret;\n}\n";

static pk_module mod;

static void setup(void) { mod = pk_load_text(PTX, strlen(PTX), "model.ptx"); }
static void teardown(void) { pk_unload(&mod); }

/* One warp on a 108-SM GPU whose SMs hold warps_per_sm warps and reserve `reserved` bytes of
 * shared memory per CTA; the kernel's single parameter is arg. */
static bool run(const char *kernel, uint64_t arg, uint32_t warps_per_sm, uint32_t reserved,
                uint32_t dynamic, emu_fault *fault)
{
    pk_launch l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .dynamic_smem = dynamic,
                    .sm_count = 108, .max_warps_per_sm = warps_per_sm, .reserved_smem = reserved };
    return pk_run(&mod, kernel, &l, &arg, fault);
}

START_TEST(model_registers_sm80)
{
    uint32_t *out = (uint32_t *)(uintptr_t)emu_device_alloc(64, EMU_ALLOC_DEVICE);
    ck_assert(out != NULL);
    emu_fault f;
    ck_assert(run("model", (uint64_t)(uintptr_t)out, 48, 1024, 32, &f));
    ck_assert_uint_eq(out[0], 48);      /* %nwarpid: sm_86-class SM */
    ck_assert_uint_eq(out[1], 108);     /* %nsmid */
    ck_assert_uint_eq(out[2], 0);       /* reserved region [0, 1024) */
    ck_assert_uint_eq(out[3], 1024);
    ck_assert_uint_eq(out[4], 1024);
    ck_assert(out[5] >= out[2] && out[5] + 288 <= out[3]);  /* cg scratch fits inside */
    ck_assert_uint_eq(out[6], 64 + 32); /* %total_smem_size: static + dynamic */
    ck_assert_uint_eq(out[7], 1024 + 64 + 32);
    ck_assert_uint_eq(out[8], 32);
    ck_assert_uint_eq(out[9], 1024);    /* the kernel's shared memory starts past the region */
    ck_assert_uint_eq(out[10], 7);      /* filling the region left the kernel's words alone */
    ck_assert_uint_eq(out[11], 9);
    emu_device_free((uint64_t)(uintptr_t)out);
}
END_TEST

START_TEST(model_registers_defaults)
{
    uint32_t *out = (uint32_t *)(uintptr_t)emu_device_alloc(64, EMU_ALLOC_DEVICE);
    ck_assert(out != NULL);
    emu_fault f;
    /* no model given (sm_75-like: nothing reserved): %nwarpid 64, the region is empty */
    ck_assert(run("model", (uint64_t)(uintptr_t)out, 0, 0, 0, &f));
    ck_assert_uint_eq(out[0], 64);
    ck_assert_uint_eq(out[3], 0);
    ck_assert_uint_eq(out[4], 0);
    ck_assert_uint_eq(out[6], 64);
    ck_assert_uint_eq(out[7], 64);
    ck_assert_uint_eq(out[9], 0);
    ck_assert_uint_eq(out[10], 7);
    emu_device_free((uint64_t)(uintptr_t)out);
}
END_TEST

START_TEST(overrun_past_kernel_shared_faults)
{
    emu_fault f;
    ck_assert(run("overrun", 15, 64, 1024, 0, &f));   /* the last word: fine */
    ck_assert(!run("overrun", 16, 64, 1024, 0, &f));  /* one past the end */
    ck_assert_int_eq(f.kind, EMU_FAULT_SHARED_OUT_OF_RANGE);
    ck_assert_uint_eq(f.address, 1024 + 64);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu_launch_model");
    TCase *tc = tcase_create("model");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, model_registers_sm80);
    tcase_add_test(tc, model_registers_defaults);
    tcase_add_test(tc, overrun_past_kernel_shared_faults);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
