/* test_igpu_restart.c: iGPU restart (timing/igpu/policy.c) on kernels whose result shows
 * whether a restart had a partial effect: an in-place increment followed by another load
 * (x[i] += 1; y[i] = z[i]), where a fault at the load of z must not increment x twice, and the
 * paper's MatrixMultiplyAccumulate (C += A * B), checked against a CPU reference while faults
 * hit its loads and store. The same increment kernel with its clobber cut removed (only the
 * entry boundary left) increments twice: the check would see a wrong region. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char *INC_PTX = HEADER
    ".visible .entry inc(.param .u64 x, .param .u64 y, .param .u64 z)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [x];\n"
    "ld.param.u64 %rd2, [y];\n"
    "ld.param.u64 %rd3, [z];\n"
    "cvta.to.global.u64 %rd4, %rd1;\n"
    "cvta.to.global.u64 %rd5, %rd2;\n"
    "cvta.to.global.u64 %rd6, %rd3;\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd7, %r1, 4;\n"
    "add.s64 %rd8, %rd4, %rd7;\n"
    "ld.global.u32 %r2, [%rd8];\n"          /* memory operation 0 of the warp */
    "add.s32 %r3, %r2, 1;\n"
    "st.global.u32 [%rd8], %r3;\n"          /* 1 */
    "add.s64 %rd9, %rd6, %rd7;\n"
    "ld.global.u32 %r4, [%rd9];\n"          /* 2: the injected fault */
    "add.s64 %rd10, %rd5, %rd7;\n"
    "st.global.u32 [%rd10], %r4;\n"         /* 3 */
    "ret;\n}\n";

/* Runs inc on 64 threads with faults at the warps' memory operations `list`; returns the
 * faults injected and restarts, and leaves x. */
static void run_inc(pk_module *m, const char *list, uint32_t *x, timing_igpu_stats *st)
{
    uint32_t *dx = pk_dalloc(64 * 4), *dy = pk_dalloc(64 * 4), *dz = pk_dalloc(64 * 4);
    for (uint32_t i = 0; i < 64; i++) {
        dx[i] = 100 + i;
        dz[i] = 7 * i;
        dy[i] = 0;
    }
    timing_igpu_inject inj;
    char err[256];
    ck_assert_msg(timing_igpu_parse_inject(list, &inj, err, sizeof err), "%s", err);
    timing_igpu *g = timing_igpu_begin(&inj, NULL, emu_direct_policy());
    ck_assert_ptr_nonnull(g);
    pk_launch l = {.grid = pk_dim3(1, 1, 1), .block = pk_dim3(64, 1, 1),
                   .policy = timing_igpu_policy(g)};
    uint64_t args[3] = {pk_addr(dx), pk_addr(dy), pk_addr(dz)};
    ck_assert(pk_run(m, "inc", &l, args, NULL));
    timing_igpu_end(g, st);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(dy[i], 7 * i);
    memcpy(x, dx, 64 * 4);
}

START_TEST(fault_after_an_in_place_update_restarts_past_it)
{
    pk_module m = pk_load_text(INC_PTX, strlen(INC_PTX), "inc.ptx");
    char err[256];
    ck_assert_msg(timing_igpu_prepare(m.emu, err, sizeof err), "%s", err);
    uint32_t x[64];
    timing_igpu_stats st;
    run_inc(&m, "list=2", x, &st);
    ck_assert_uint_eq(st.faults, 2);     /* one per warp */
    ck_assert_uint_eq(st.restarts, 2);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(x[i], 101 + i);
    /* every operation once, in turn: the load of x, the store, the other load and store */
    run_inc(&m, "list=0:2:4:6", x, &st);
    ck_assert_uint_eq(st.faults, 6);   /* 0, 2, 4 per warp: the 6th operation is the load of z
                                          re-executed before its fault point, which cannot fault */
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(x[i], 101 + i);
    /* without the cut between the load and the store of x, the restart from the entry
     * increments x again: the check above is not vacuous */
    const ptx_function *fn = pk_kernel(&m, "inc");
    uint8_t *entry_only = calloc(fn->ninstrs, 1);
    ck_assert_ptr_nonnull(entry_only);
    entry_only[0] = 1;
    ck_assert(emu_module_set_region_boundaries(m.emu, fn, entry_only));
    run_inc(&m, "list=2", x, &st);
    ck_assert_uint_eq(st.restarts, 2);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(x[i], 102 + i);
    free(entry_only);
    pk_unload(&m);
}
END_TEST

/* Fig. 3's kernel (C += A * B, 16 x 16, one 16 x 16 block) under rates and seeds. */
START_TEST(paper_matmul_accumulate_gives_its_reference_under_faults)
{
    pk_module m = pk_load_file("tests/ptx/igpu/fig3_matmul_accumulate.ptx");
    char err[256];
    ck_assert_msg(timing_igpu_prepare(m.emu, err, sizeof err), "%s", err);
    enum { N = 16 };
    float *a = pk_dalloc(N * N * 4), *b = pk_dalloc(N * N * 4), *c = pk_dalloc(N * N * 4);
    float want[N * N];
    static const char *const specs[] = {"rate=0.05,seed=1", "rate=0.2,seed=2", "rate=0.5,seed=3",
                                        "list=0:1:17:18"};
    uint64_t faults = 0;
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        for (int i = 0; i < N * N; i++) {
            a[i] = (float)(i % 7) - 3;
            b[i] = (float)(i % 5) - 2;
            c[i] = (float)(i % 3);
        }
        for (int r = 0; r < N; r++)
            for (int col = 0; col < N; col++) {
                float v = c[r * N + col];
                for (int i = 0; i < N; i++) v += a[r * N + i] * b[i * N + col];
                want[r * N + col] = v;
            }
        timing_igpu_inject inj;
        ck_assert_msg(timing_igpu_parse_inject(specs[k], &inj, err, sizeof err), "%s", err);
        timing_igpu *g = timing_igpu_begin(&inj, NULL, emu_direct_policy());
        pk_launch l = {.grid = pk_dim3(1, 1, 1), .block = pk_dim3(N, N, 1),
                       .policy = timing_igpu_policy(g)};
        /* Matrix { int width; int height; float *data; } for A, B and C */
        uint8_t params[48] = {0};
        const float *mats[3] = {a, b, c};
        for (int q = 0; q < 3; q++) {
            int32_t dims[2] = {N, N};
            uint64_t p = pk_addr(mats[q]);
            memcpy(params + 16 * q, dims, 8);
            memcpy(params + 16 * q + 8, &p, 8);
        }
        ck_assert(pk_run_params(&m, "MatrixMultiplyAccumulate", &l, params, sizeof params, NULL));
        timing_igpu_stats st;
        timing_igpu_end(g, &st);
        ck_assert_uint_eq(st.faults, st.restarts);
        faults += st.faults;
        for (int i = 0; i < N * N; i++)
            ck_assert_msg(c[i] == want[i], "%s: C[%d] = %g, expected %g", specs[k], i, c[i],
                          want[i]);
    }
    ck_assert_uint_gt(faults, 50);
    pk_unload(&m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("igpu_restart");
    TCase *tc = tcase_create("restart");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fault_after_an_in_place_update_restarts_past_it);
    tcase_add_test(tc, paper_matmul_accumulate_gives_its_reference_under_faults);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
