/* test_emu_tensor.c: the TMA tensor copies and bulk reductions of exec_tensor.c under ASan, in
 * handwritten PTX: a tensor map encoded by the runtime's encoder passed as a 128-byte kernel
 * parameter, a 2D box loaded into shared memory with the 32B swizzle and zero fill, the box
 * stored back to another tensor through the same swizzle (out-of-bound elements skipped),
 * cp.reduce.async.bulk.tensor add, cp.reduce.async.bulk add.u32 into global memory from
 * several blocks, and the faults of an unencoded map and a misaligned box. Each run is checked
 * against a CPU model of the copy, with and without GPUDet. */
#include "tests/unit/ptx_kernels.h"
#include "runtime/rt.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The map's first dimension has W (12) elements of 4 bytes in rows of 16 elements, H (6) rows;
 * the box is 8 x 4. Block b loads the box at (x0[b], y0[b]), writes its swizzled shared image to
 * dump, stores it through map `out`, add-reduces it through `acc`, and adds 1..16 to sum[0..15]
 * with cp.reduce.async.bulk. */
static const char *ptx =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry tma(.param .align 64 .b8 in_map[128], .param .align 64 .b8 out_map[128],\n"
    "    .param .align 64 .b8 acc_map[128], .param .u64 coords, .param .u64 dump, .param .u64 sum,\n"
    "    .param .u32 misalign)\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<32>;\n"
    "  .reg .b64 %rd<32>;\n"
    "  .shared .align 1024 .b8 box[1024];\n"
    "  .shared .align 16 .b8 ones[64];\n"
    "  .shared .align 8 .b64 bar;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  ld.param.u64 %rd1, [coords];\n"
    "  mul.wide.u32 %rd2, %r2, 8;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n"
    "  ld.global.u32 %r4, [%rd3+4];\n"
    "  ld.param.u32 %r20, [misalign];\n"
    "  mov.u32 %r5, box;\n"
    "  add.u32 %r5, %r5, %r20;\n"
    "  mov.u32 %r6, bar;\n"
    "  mov.u64 %rd4, in_map;\n"
    "  cvta.param.u64 %rd5, %rd4;\n"
    "  mov.u64 %rd6, out_map;\n"
    "  cvta.param.u64 %rd7, %rd6;\n"
    "  mov.u64 %rd8, acc_map;\n"
    "  cvta.param.u64 %rd9, %rd8;\n"
    "  add.u32 %r7, %r1, 1;\n"
    "  shl.b32 %r8, %r1, 2;\n"
    "  mov.u32 %r9, ones;\n"
    "  add.u32 %r10, %r9, %r8;\n"
    "  setp.lt.u32 %p3, %r1, 16;\n"
    "  @%p3 st.shared.u32 [%r10], %r7;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra WAIT;\n"
    "  mbarrier.init.shared::cta.b64 [%r6], 1;\n"
    "  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 128;\n"
    "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd5, {%r3, %r4}], [%r6];\n"
    "WAIT:\n"
    "  bar.sync 0;\n"
    "LOOP:\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r6], 0;\n"
    "  @!%p2 bra LOOP;\n"
    "  ld.param.u64 %rd10, [dump];\n"
    "  mul.wide.u32 %rd11, %r2, 128;\n"
    "  add.s64 %rd12, %rd10, %rd11;\n"
    "  mul.wide.u32 %rd13, %r1, 4;\n"
    "  add.s64 %rd14, %rd12, %rd13;\n"
    "  mov.u32 %r11, box;\n"
    "  add.u32 %r12, %r11, %r8;\n"
    "  ld.shared.u32 %r13, [%r12];\n"
    "  st.global.u32 [%rd14], %r13;\n"
    "  fence.proxy.async.shared::cta;\n"
    "  bar.sync 0;\n"
    "  @%p1 bra DONE;\n"
    "  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd7, {%r3, %r4}], [%r5];\n"
    "  cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd9, {%r3, %r4}], [%r5];\n"
    "  ld.param.u64 %rd15, [sum];\n"
    "  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd15], [%r9], 64;\n"
    "  cp.async.bulk.commit_group;\n"
    "  cp.async.bulk.wait_group 0;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

enum { W = 12, H = 6, P = 16, BW = 8, BH = 4, NB = 3 };

static pk_module mod;

static void encode(void *map, void *base)
{
    uint64_t dims[2] = { W, H }, strides[1] = { P * 4 };
    uint32_t box[2] = { BW, BH }, es[2] = { 1, 1 };
    /* CU_TENSOR_MAP_DATA_TYPE_UINT32, interleave none, swizzle 32B, no promotion, zero fill */
    ck_assert_int_eq(rt_tensor_map_encode_tiled(map, EMU_TMAP_UINT32, 2, base, dims, strides, box,
                                                es, EMU_TMAP_INTERLEAVE_NONE, EMU_TMAP_SWIZZLE_32B,
                                                0, 0),
                     0);
}

/* Runs the kernel on NB blocks of 32 threads; true when it completed. */
static bool launch(const uint8_t *maps, const int32_t *coords, uint32_t *dump, uint32_t *sum,
                   uint32_t misalign, bool gpudet, emu_fault *fault)
{
    const ptx_function *k = pk_kernel(&mod, "tma");
    uint8_t params[512] = { 0 };
    for (int i = 0; i < 3; i++) memcpy(params + mod.ptx->syms[k->params[i]].offset, maps + 128 * i, 128);
    uint64_t a[3] = { (uint64_t)(uintptr_t)coords, (uint64_t)(uintptr_t)dump,
                      (uint64_t)(uintptr_t)sum };
    for (int i = 0; i < 3; i++) memcpy(params + mod.ptx->syms[k->params[3 + i]].offset, &a[i], 8);
    memcpy(params + mod.ptx->syms[k->params[6]].offset, &misalign, 4);
    timing_engine_config cfg;
    timing_engine_defaults(&cfg);
    cfg.warp_budget = 5;
    if (gpudet) {
        cfg.det = TIMING_DET_GPUDET;
        cfg.host_threads = 2;
    }
    pk_launch l = { .grid = { NB, 1, 1 }, .block = { 32, 1, 1 }, .sm_count = 2, .cfg = &cfg };
    emu_fault f;
    bool ok = pk_run_params(&mod, "tma", &l, params, k->param_size, &f);
    if (!ok && fault) *fault = f;
    return ok;
}

static void setup(void) { mod = pk_load_text(ptx, strlen(ptx), "tma.ptx"); }
static void teardown(void) { pk_unload(&mod); }

START_TEST(tensor_copies)
{
    setup();
    uint32_t *in = pk_dalloc(P * H * 4), *out = pk_dalloc(P * H * 4), *acc = pk_dalloc(P * H * 4);
    uint32_t *dump = pk_dalloc(NB * 128), *sum = pk_dalloc(64);
    int32_t *coords = pk_dalloc(NB * 8);
    const int32_t cx[NB] = { 0, 8, -4 }, cy[NB] = { 0, 4, -1 };
    for (int b = 0; b < NB; b++) coords[2 * b] = cx[b], coords[2 * b + 1] = cy[b];
    for (int i = 0; i < P * H; i++) in[i] = 1000u + (uint32_t)i, out[i] = 7, acc[i] = 100;
    for (int i = 0; i < 16; i++) sum[i] = 5;
    _Alignas(64) uint8_t maps[3 * 128];
    encode(maps, in);
    encode(maps + 128, out);
    encode(maps + 256, acc);
    ck_assert(launch(maps, coords, dump, sum, 0, _i == 1, NULL));

    uint32_t want_out[P * H], want_acc[P * H];
    for (int i = 0; i < P * H; i++) want_out[i] = 7, want_acc[i] = 100;
    for (int b = 0; b < NB; b++)
        for (int r = 0; r < BH; r++)
            for (int c = 0; c < BW; c++) {
                int x = cx[b] + c, y = cy[b] + r;
                bool inside = x >= 0 && x < W && y >= 0 && y < H;
                uint32_t v = inside ? in[y * P + x] : 0;
                /* 32B swizzle: 16-byte chunk bit 4 XOR address bit 7 (rows of 32 bytes) */
                unsigned o = (unsigned)(r * BW + c) * 4, s = o ^ ((o >> 3) & 0x10);
                ck_assert_msg(dump[b * 32 + s / 4] == v, "block %d row %d col %d: %u, want %u", b,
                              r, c, dump[b * 32 + s / 4], v);
                if (inside) {
                    want_out[y * P + x] = v;
                    want_acc[y * P + x] += v;
                }
            }
    for (int i = 0; i < P * H; i++) {
        ck_assert_msg(out[i] == want_out[i], "out[%d] = %u, want %u", i, out[i], want_out[i]);
        ck_assert_msg(acc[i] == want_acc[i], "acc[%d] = %u, want %u", i, acc[i], want_acc[i]);
    }
    for (int i = 0; i < 16; i++) ck_assert_uint_eq(sum[i], 5u + NB * (uint32_t)(i + 1));
    uint64_t bufs[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)acc,
                        (uint64_t)(uintptr_t)dump, (uint64_t)(uintptr_t)sum,
                        (uint64_t)(uintptr_t)coords };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) emu_device_free(bufs[i]);
    teardown();
}
END_TEST

START_TEST(tensor_faults)
{
    setup();
    uint32_t *in = pk_dalloc(P * H * 4), *dump = pk_dalloc(NB * 128), *sum = pk_dalloc(64);
    int32_t *coords = pk_dalloc(NB * 8);
    memset(coords, 0, NB * 8);
    _Alignas(64) uint8_t maps[3 * 128];
    memset(maps, 0, sizeof maps);
    emu_fault f;
    /* a map the encoder never wrote */
    ck_assert(!launch(maps, coords, dump, sum, 0, false, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_INSTRUCTION);
    ck_assert_msg(strstr(f.message, "tensor map") != NULL, "%s", f.message);
    /* a box 16 bytes past a 128-byte boundary */
    encode(maps, in);
    encode(maps + 128, in);
    encode(maps + 256, in);
    ck_assert(!launch(maps, coords, dump, sum, 16, false, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_MISALIGNED);
    ck_assert_msg(strstr(f.message, "128-byte aligned") != NULL, "%s", f.message);
    /* the encoder refuses an inner box of 12 bytes and leaves the map alone */
    uint64_t dims[2] = { W, H }, strides[1] = { P * 4 };
    uint32_t box[2] = { 3, 4 }, es[2] = { 1, 1 };
    uint8_t before[128];
    memcpy(before, maps, 128);
    ck_assert_int_ne(rt_tensor_map_encode_tiled(maps, EMU_TMAP_UINT32, 2, in, dims, strides, box,
                                                es, 0, 0, 0, 0),
                     0);
    ck_assert(memcmp(before, maps, 128) == 0);
    uint64_t bufs[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)dump,
                        (uint64_t)(uintptr_t)sum, (uint64_t)(uintptr_t)coords };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) emu_device_free(bufs[i]);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emu_tensor");
    TCase *tc = tcase_create("tma");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, tensor_copies, 0, 2);   /* 0: det off, 1: GPUDet on 2 threads */
    tcase_add_test(tc, tensor_faults);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
