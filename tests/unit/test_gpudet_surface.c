/* test_gpudet_surface.c: surface stores and reductions under GPUDet (timing/gpudet/). sust and
 * suld go through the memory policy like st and ld, and sured like red (a global atomic, run in
 * serial mode), so racy surface kernels give one result for every host-thread count and seed:
 * - racy_sust: threads of 16 blocks store different values to the same 8 texels;
 * - sured_observe: every thread adds to one texel with sured, then reads it back with suld and
 *   records what it saw (with the reduction outside the policy, what a thread sees would depend
 *   on the other host threads' progress);
 * and with determinism off, the sured sum is exact for any number of host threads. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <string.h>

static const char ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    /* texel (tid % 8, 0) = ctaid * 1000 + tid, by every thread of every block */
    ".visible .entry racy_sust(.param .u64 surf)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [surf];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r3, %r2, 1000, %r1;\n"
    "  and.b32 %r4, %r1, 7;\n  shl.b32 %r4, %r4, 2;\n  mov.u32 %r5, 0;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r4, %r5}], %r3;\n"
    /* and once more after reading the texel of the next thread, to race on what was read */
    "  add.u32 %r6, %r4, 4;\n  and.b32 %r6, %r6, 31;\n"
    "  suld.b.2d.b32.trap {%r7}, [%rd1, {%r6, %r5}];\n  add.u32 %r7, %r7, %r1;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r4, %r5}], %r7;\n  ret;\n}\n"
    /* texel (0, 0) += ctaid + 1; out[gid] = the texel as this thread then reads it */
    ".visible .entry sured_observe(.param .u64 surf, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [surf];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  add.u32 %r4, %r2, 1;\n  mov.u32 %r5, 0;\n"
    "  sured.b.add.2d.trap.u32 [%rd1, {%r5, %r5}], %r4;\n"
    "  suld.b.2d.b32.trap {%r6}, [%rd1, {%r5, %r5}];\n"
    "  mad.lo.u32 %r7, %r2, %r3, %r1;\n  mul.wide.u32 %rd3, %r7, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r6;\n  ret;\n}\n";

#define SW 8
#define SH 2
#define BLOCKS 16
#define BLOCK 64

static pk_module mod;
static uint64_t surf_mem, out_mem, surf;

static void setup(void)
{
    mod = pk_load_text(ptx, strlen(ptx), "gpudet_surface");
    surf_mem = emu_device_alloc(SW * SH * 4, EMU_ALLOC_DEVICE);
    out_mem = emu_device_alloc(BLOCKS * BLOCK * 4, EMU_ALLOC_DEVICE);
    ck_assert(surf_mem && out_mem);
    emu_texture t;
    memset(&t, 0, sizeof t);
    t.surface = true;
    t.dims = 2;
    t.nchan = 1;
    t.bits[0] = 32;
    t.kind = EMU_TEXEL_UNSIGNED;
    t.elem = 4;
    t.nlevels = 1;
    t.level[0] = (emu_tex_level){surf_mem, SW, SH, 1, SW * 4, SW * SH * 4};
    surf = emu_texture_create(&t);
    ck_assert(surf != 0);
}

static void run(const char *kernel, uint32_t threads, uint64_t seed, bool gpudet)
{
    memset((void *)(uintptr_t)surf_mem, 0, SW * SH * 4);
    memset((void *)(uintptr_t)out_mem, 0, BLOCKS * BLOCK * 4);
    uint64_t params[2] = {surf, out_mem};
    timing_engine_config c;
    timing_engine_defaults(&c);
    c.det = gpudet ? TIMING_DET_GPUDET : TIMING_DET_OFF;
    c.sm_count = 4;
    c.host_threads = threads;
    c.seed = seed;
    c.max_ctas_per_sm = 2;
    c.warp_budget = 3;   /* switch warps often, so that races have room */
    pk_launch l = {.grid = {BLOCKS, 1, 1}, .block = {BLOCK, 1, 1}, .policy = emu_direct_policy(),
                   .sm_count = 4, .grid_id = 1, .cfg = &c};
    pk_run_params(&mod, kernel, &l, params, pk_kernel(&mod, kernel)->param_size, NULL);
}

static const uint32_t THREADS[] = {1, 2, 4};
static const uint64_t SEEDS[] = {1, 2, 3};

START_TEST(racy_sust_one_result_under_gpudet)
{
    setup();
    uint32_t first[SW * SH];
    bool have = false;
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            run("racy_sust", THREADS[t], SEEDS[s], true);
            uint32_t img[SW * SH];
            memcpy(img, (void *)(uintptr_t)surf_mem, sizeof img);
            if (!have) {
                memcpy(first, img, sizeof img);
                have = true;
                /* every texel of row 0 was written by some thread: ctaid*1000 + tid + more */
                for (int x = 0; x < SW; x++) ck_assert_uint_ne(img[x], 0);
                continue;
            }
            for (int i = 0; i < SW * SH; i++)
                ck_assert_msg(img[i] == first[i], "threads %u seed %llu: texel %d is %u, "
                              "first run had %u", THREADS[t], (unsigned long long)SEEDS[s], i,
                              img[i], first[i]);
        }
}
END_TEST

START_TEST(sured_ordered_under_gpudet)
{
    setup();
    /* every block adds ctaid + 1 for each of its threads */
    const uint32_t total = BLOCK * BLOCKS * (BLOCKS + 1) / 2;
    static uint32_t first[BLOCKS * BLOCK], seen[BLOCKS * BLOCK];
    bool have = false;
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            run("sured_observe", THREADS[t], SEEDS[s], true);
            ck_assert_uint_eq(*(uint32_t *)(uintptr_t)surf_mem, total);
            memcpy(seen, (void *)(uintptr_t)out_mem, sizeof seen);
            for (int i = 0; i < BLOCKS * BLOCK; i++)
                ck_assert(seen[i] >= (uint32_t)(i / BLOCK + 1) && seen[i] <= total);
            if (!have) {
                memcpy(first, seen, sizeof seen);
                have = true;
                continue;
            }
            for (int i = 0; i < BLOCKS * BLOCK; i++)
                ck_assert_msg(seen[i] == first[i], "threads %u seed %llu: thread %d saw %u, "
                              "first run %u", THREADS[t], (unsigned long long)SEEDS[s], i,
                              seen[i], first[i]);
        }
}
END_TEST

START_TEST(sured_sum_exact_without_determinism)
{
    setup();
    const uint32_t total = BLOCK * BLOCKS * (BLOCKS + 1) / 2;
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            run("sured_observe", THREADS[t], SEEDS[s], false);
            ck_assert_uint_eq(*(uint32_t *)(uintptr_t)surf_mem, total);
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpudet_surface");
    TCase *tc = tcase_create("surface");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, racy_sust_one_result_under_gpudet);
    tcase_add_test(tc, sured_ordered_under_gpudet);
    tcase_add_test(tc, sured_sum_exact_without_determinism);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
