/* test_igpu_stats.c: iGPU's statistics and demand paging, checked against values worked out by
 * hand on the paper's MatrixMultiplyAccumulate (tests/ptx/igpu/fig3_matmul_accumulate.ptx):
 * C (16 x 16) += A (16 x K) * B (K x 16) with K = 8, one 16 x 16 block, so 8 warps that never
 * diverge. --igpu forms regions with the conservative alias model (A, B and C may alias), so
 * the loads of A, B and C all reach the store of C, and the one cut sits before the store's
 * address computation (source line 7), not at i = 0 as in the paper's restrict reading:
 *   region 1: instructions 0-14 (15), mov and ld.param (2), K iterations of 18 (setp, bra and
 *             16 in the body), the exit test (2) = 15 + 2 + 8 * 18 + 2 = 163, 0 live-ins;
 *   region 2: mad, mul, add, st, ret = 5, 3 live-ins (row, col, Cvalue).
 * Global memory operations per warp, from 0: the load of C, then A and B per iteration.
 * A fault at operation 1 (A's first load, instruction 24) discards instructions 0-24 (25) and
 * crosses the entry again. After it the re-executed loads of C and A are operations 2 and 3,
 * before the fault point (they cannot fault); operation 4 is B's first load, instruction 31:
 * 32 more discarded. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16, K = 8, WARPS = N * N / 32, R1 = 15 + 2 + K * 18 + 2, R2 = 5 };

typedef struct fig3 {
    pk_module m;
    float *a, *b, *c;
    float want[N * N];
} fig3;

static void fig3_load(fig3 *f)
{
    f->m = pk_load_file("tests/ptx/igpu/fig3_matmul_accumulate.ptx");
    char err[256];
    ck_assert_msg(timing_igpu_prepare(f->m.emu, err, sizeof err), "%s", err);
    f->a = pk_dalloc(N * K * 4);
    f->b = pk_dalloc(K * N * 4);
    f->c = pk_dalloc(N * N * 4);
}

/* Runs the kernel under spec (and pages unless NULL); checks C against its CPU reference. */
static void fig3_run(fig3 *f, const char *spec, timing_igpu_pages *pages, timing_igpu_stats *st)
{
    for (int i = 0; i < N * K; i++) {
        f->a[i] = (float)(i % 7) - 3;
        f->b[i] = (float)(i % 5) - 2;
    }
    for (int i = 0; i < N * N; i++) f->c[i] = (float)(i % 3);
    for (int r = 0; r < N; r++)
        for (int col = 0; col < N; col++) {
            float v = f->c[r * N + col];
            for (int i = 0; i < K; i++) v += f->a[r * K + i] * f->b[i * N + col];
            f->want[r * N + col] = v;
        }
    timing_igpu_inject inj;
    char err[256];
    ck_assert_msg(timing_igpu_parse_inject(spec, &inj, err, sizeof err), "%s", err);
    timing_igpu *g = timing_igpu_begin(&inj, pages, emu_direct_policy());
    ck_assert_ptr_nonnull(g);
    pk_launch l = {.grid = pk_dim3(1, 1, 1), .block = pk_dim3(N, N, 1),
                   .policy = timing_igpu_policy(g)};
    /* Matrix { int width; int height; float *data; } for A, B and C */
    uint8_t params[48] = {0};
    const float *mats[3] = {f->a, f->b, f->c};
    const int32_t dims[3][2] = {{K, N}, {N, K}, {N, N}};
    for (int q = 0; q < 3; q++) {
        uint64_t p = pk_addr(mats[q]);
        memcpy(params + 16 * q, dims[q], 8);
        memcpy(params + 16 * q + 8, &p, 8);
    }
    ck_assert(pk_run_params(&f->m, "MatrixMultiplyAccumulate", &l, params, sizeof params, NULL));
    timing_igpu_end(g, st);
    for (int i = 0; i < N * N; i++)
        ck_assert_msg(f->c[i] == f->want[i], "%s: C[%d] = %g, expected %g", spec, i, f->c[i],
                      f->want[i]);
}

static void check_region_sizes(const timing_igpu_stats *st)
{
    /* one sample per region a warp ran to its end: 8 x 5 and 8 x 163 */
    ck_assert_uint_eq(st->region_size.n, 2 * WARPS);
    ck_assert_uint_eq(timing_hist_percentile(&st->region_size, 25), R2);
    ck_assert_uint_eq(timing_hist_percentile(&st->region_size, 50), R2);
    ck_assert_uint_eq(timing_hist_percentile(&st->region_size, 75), R1);
    ck_assert_uint_eq(st->region_size.max, R1);
    ck_assert_uint_eq(st->region_size.sum, WARPS * (R1 + R2));
}

START_TEST(statistics_of_the_paper_kernel_match_the_hand_count)
{
    fig3 f;
    fig3_load(&f);
    timing_igpu_stats *st = calloc(1, sizeof *st);
    ck_assert_ptr_nonnull(st);

    /* no fault: every warp crosses the two boundaries once */
    fig3_run(&f, "list=100000", NULL, st);
    ck_assert_uint_eq(st->faults, 0);
    ck_assert_uint_eq(st->restarts, 0);
    ck_assert_uint_eq(st->reexecuted, 0);
    ck_assert_uint_eq(st->boundaries, 2 * WARPS);
    check_region_sizes(st);
    ck_assert_uint_eq(st->liveins.n, 2 * WARPS);
    ck_assert_uint_eq(timing_hist_percentile(&st->liveins, 50), 0);   /* 8 zeros, 8 threes */
    ck_assert_uint_eq(timing_hist_percentile(&st->liveins, 75), 3);
    ck_assert_uint_eq(st->liveins.max, 3);
    ck_assert_uint_eq(st->spill_instructions, WARPS * 3);

    /* a fault at A's first load: region 1 restarts after 25 instructions, and the entry is
     * crossed again (no live-in to push) */
    fig3_run(&f, "list=1", NULL, st);
    ck_assert_uint_eq(st->faults, WARPS);
    ck_assert_uint_eq(st->restarts, WARPS);
    ck_assert_uint_eq(st->reexecuted, WARPS * 25);
    ck_assert_uint_eq(st->boundaries, 3 * WARPS);
    check_region_sizes(st);
    ck_assert_uint_eq(timing_hist_percentile(&st->liveins, 50), 0);   /* 16 zeros, 8 threes */
    ck_assert_uint_eq(timing_hist_percentile(&st->liveins, 75), 3);
    ck_assert_uint_eq(st->spill_instructions, WARPS * 3);

    /* and then at B's first load: 32 more */
    fig3_run(&f, "list=1:4", NULL, st);
    ck_assert_uint_eq(st->faults, 2 * WARPS);
    ck_assert_uint_eq(st->restarts, 2 * WARPS);
    ck_assert_uint_eq(st->reexecuted, WARPS * (25 + 32));
    ck_assert_uint_eq(st->reexecuted_paging, 0);
    ck_assert_uint_eq(st->boundaries, 4 * WARPS);
    check_region_sizes(st);
    ck_assert_uint_eq(timing_hist_percentile(&st->liveins, 75), 0);   /* 24 zeros, 8 threes */
    ck_assert_uint_eq(st->liveins.max, 3);
    ck_assert_uint_eq(st->spill_instructions, WARPS * 3);

    /* the statistics add up over launches */
    timing_igpu_stats *sum = calloc(1, sizeof *sum);
    ck_assert_ptr_nonnull(sum);
    timing_igpu_stats_add(sum, st);
    timing_igpu_stats_add(sum, st);
    ck_assert_uint_eq(sum->reexecuted, 2 * WARPS * 57);
    ck_assert_uint_eq(timing_hist_percentile(&sum->region_size, 75), R1);
    ck_assert_uint_eq(sum->region_size.n, 4 * WARPS);
    free(sum);
    free(st);
    pk_unload(&f.m);
}
END_TEST

/* The pages [addr, addr + bytes) spans, added to set (n so far); returns the new n. */
static size_t add_pages(uint64_t *set, size_t n, uint64_t addr, uint64_t bytes, uint64_t size)
{
    for (uint64_t p = addr / size; p <= (addr + bytes - 1) / size; p++) {
        bool seen = false;
        for (size_t i = 0; i < n; i++) seen |= set[i] == p;
        if (!seen) set[n++] = p;
    }
    return n;
}

START_TEST(demand_paging_faults_once_per_page_and_restarts)
{
    fig3 f;
    fig3_load(&f);
    timing_igpu_stats *st = calloc(1, sizeof *st);
    ck_assert_ptr_nonnull(st);
    enum { PAGE = 4096 };
    uint64_t set[16];
    size_t n = add_pages(set, 0, pk_addr(f.a), N * K * 4, PAGE);
    n = add_pages(set, n, pk_addr(f.b), K * N * 4, PAGE);
    n = add_pages(set, n, pk_addr(f.c), N * N * 4, PAGE);

    timing_igpu_pages *pages = timing_igpu_pages_create(PAGE, 1);
    ck_assert_ptr_nonnull(pages);
    fig3_run(&f, "off", pages, st);
    /* every page the three matrices span faults once, the first warp to touch it restarts
     * (the warps never diverge, so each has its one restart point) */
    ck_assert_uint_eq(st->page_faults, n);
    ck_assert_uint_eq(st->page_stalls, 0);
    ck_assert_uint_eq(st->restarts, n);
    ck_assert_uint_eq(st->faults, 0);
    ck_assert_uint_gt(st->reexecuted, 0);
    ck_assert_uint_eq(st->reexecuted_paging, st->reexecuted);
    check_region_sizes(st);
    /* the launch ended: one page stays resident (the newest arrival; ties: highest address) */
    ck_assert_uint_eq(st->evictions, n - 1);
    fig3_run(&f, "off", pages, st);
    ck_assert_uint_eq(st->page_faults, n - 1);
    timing_igpu_pages_destroy(pages);

    /* no limit: nothing is evicted, and a second launch takes no fault */
    pages = timing_igpu_pages_create(PAGE, 0);
    fig3_run(&f, "off", pages, st);
    ck_assert_uint_eq(st->page_faults, n);
    ck_assert_uint_eq(st->evictions, 0);
    fig3_run(&f, "list=1", pages, st);
    ck_assert_uint_eq(st->page_faults, 0);
    ck_assert_uint_eq(st->faults, WARPS);
    ck_assert_uint_eq(st->reexecuted, WARPS * 25);
    ck_assert_uint_eq(st->reexecuted_paging, 0);
    timing_igpu_pages_destroy(pages);
    free(st);
    pk_unload(&f.m);
}
END_TEST

/* The page model on hand-made operations: the lowest missing page arrives first; eviction
 * between launches keeps the newest. */
START_TEST(page_model_orders_arrivals_and_evictions)
{
    timing_igpu_pages *p = timing_igpu_pages_create(4096, 1);
    ck_assert_ptr_nonnull(p);
    emu_mem_seg seg[2] = {{.addr = 0x2ffc, .size = 8, .lane = 0},   /* pages 2 and 3 */
                          {.addr = 0x1000, .size = 4, .lane = 1}};  /* page 1 */
    emu_mem_op op = {.kind = EMU_MEM_LOAD, .space = PTX_SPACE_GLOBAL, .mask = 3, .nseg = 2,
                     .seg = seg};
    int faults = 0;
    while (timing_igpu_pages_touch(p, &op)) faults++;
    ck_assert_int_eq(faults, 3);
    ck_assert_uint_eq(timing_igpu_pages_end_launch(p), 2);   /* pages 1 and 2 go */
    op.mask = 1;                                             /* lane 0 only: pages 2, 3 */
    ck_assert(timing_igpu_pages_touch(p, &op));               /* 2 again */
    ck_assert(!timing_igpu_pages_touch(p, &op));              /* 3 stayed */
    ck_assert(timing_igpu_pages_create(3000, 0) == NULL);     /* not a power of two */
    timing_igpu_pages_destroy(p);
}
END_TEST

/* Pages by quanta (GPUDet): within a quantum a page that arrived is resident only for the
 * warps that waited for it, whichever touched it first; from the next quantum on for all. */
START_TEST(pages_by_quanta_fault_each_warp_that_waits)
{
    timing_igpu_pages *p = timing_igpu_pages_create(4096, 0);
    ck_assert_ptr_nonnull(p);
    timing_igpu_pages_by_quantum(p);
    ck_assert(timing_igpu_pages_quantum_mode(p));
    emu_mem_seg seg[2] = {{.addr = 0x2ffc, .size = 8, .lane = 0},   /* pages 2 and 3 */
                          {.addr = 0x5000, .size = 4, .lane = 1}};  /* page 5 */
    emu_mem_op op = {.kind = EMU_MEM_LOAD, .space = PTX_SPACE_GLOBAL, .mask = 3, .nseg = 2,
                     .seg = seg};
    timing_igpu_own a = {0}, b = {0};
    int fa = 0, fb = 0;
    while (timing_igpu_pages_touch_own(p, &op, &a)) fa++;
    while (timing_igpu_pages_touch_own(p, &op, &b)) fb++;   /* a's arrivals do not help b */
    ck_assert_int_eq(fa, 3);
    ck_assert_int_eq(fb, 3);
    ck_assert_uint_eq(a.n, 3);
    ck_assert_uint_eq(a.pages[0], 2);                        /* the lowest first */
    ck_assert_uint_eq(a.pages[2], 5);
    timing_igpu_own c = {0};
    seg[1].addr = 0x7000;                                     /* page 7: new */
    timing_igpu_pages_quantum_end(p);
    ck_assert(timing_igpu_pages_touch_own(p, &op, &c));      /* 7 only: 2, 3, 5 are in */
    ck_assert_uint_eq(c.pages[0], 7);
    ck_assert(!timing_igpu_pages_touch_own(p, &op, &c));
    ck_assert(timing_igpu_pages_touch_own(p, &op, &a));      /* a waits for 7 as well */
    ck_assert_uint_eq(a.n, 1);                               /* its old list went */
    free(a.pages);
    free(b.pages);
    free(c.pages);
    timing_igpu_pages_destroy(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("igpu_stats");
    TCase *tc = tcase_create("stats");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, statistics_of_the_paper_kernel_match_the_hand_count);
    tcase_add_test(tc, demand_paging_faults_once_per_page_and_restarts);
    tcase_add_test(tc, page_model_orders_arrivals_and_evictions);
    tcase_add_test(tc, pages_by_quanta_fault_each_warp_that_waits);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
