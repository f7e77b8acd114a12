/* test_igpu_cycles.c: --igpu under the cycle model (--timing): what faults, restarts and state
 * preservation cost, in exact cycles.
 *
 * The paper's MatrixMultiplyAccumulate (tests/ptx/igpu/fig3_matmul_accumulate.ptx) on one warp:
 * C (1 x 32) += A (1 x K) * B (K x 32), K = 8, one CTA of 32 threads. With a single warp on
 * the GPU nothing overlaps a stall: once the warp sleeps longer than any memory request takes,
 * the GPU is idle until it wakes, and what follows is the same run shifted in time. So two runs
 * that differ only in igpu_restart_penalty (P1, P2, both above any memory latency) differ in
 * cycles by exactly restarts x (P2 - P1), and two that differ only in igpu_page_fault_latency by
 * exactly page faults x (L2 - L1). The counts themselves are the hand counts of
 * test_igpu_stats.c for one warp: list=1:4 restarts twice, demand paging faults once per page
 * that A, B and C span. A fault-free run is faster than one with restarts (the discarded
 * instructions issued), and the state-preservation pushes of the cut's 3 live-ins are counted
 * (3 per crossing of the cut), the entry's reloads none (no live-in). */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

enum { N = 32, K = 8 };

typedef struct fig3 {
    pk_module m;
    float *a, *b, *c;
} fig3;

static void fig3_load(fig3 *f)
{
    f->m = pk_load_file("tests/ptx/igpu/fig3_matmul_accumulate.ptx");
    char err[256];
    ck_assert_msg(timing_igpu_prepare(f->m.emu, err, sizeof err), "%s", err);
    f->a = pk_dalloc(K * 4);
    f->b = pk_dalloc(K * N * 4);
    f->c = pk_dalloc(N * 4);
}

typedef struct outcome {
    uint64_t cycles;
    timing_igpu_stats st;
} outcome;

/* One launch on the cycle model of an A100 whose iGPU costs are the given ones; C is checked
 * against its CPU reference. page_size 0: no demand paging. */
static void fig3_timed(fig3 *f, const char *spec, uint64_t page_size, int restart_penalty,
                       int page_latency, outcome *out)
{
    float want[N];
    for (int i = 0; i < K; i++) f->a[i] = (float)(i % 7) - 3;
    for (int i = 0; i < K * N; i++) f->b[i] = (float)(i % 5) - 2;
    for (int col = 0; col < N; col++) {
        f->c[col] = (float)(col % 3);
        float v = f->c[col];
        for (int i = 0; i < K; i++) v += f->a[i] * f->b[i * N + col];
        want[col] = v;
    }
    timing_gpu gpu = *timing_gpu_find("a100");
    gpu.igpu_restart_penalty = restart_penalty;
    gpu.igpu_page_fault_latency = page_latency;
    timing_igpu_inject inj;
    char err[256];
    ck_assert_msg(timing_igpu_parse_inject(spec, &inj, err, sizeof err), "%s", err);
    timing_igpu_pages *pages = page_size ? timing_igpu_pages_create(page_size, 0) : NULL;
    timing_igpu *g = timing_igpu_begin(&inj, pages, emu_direct_policy());
    ck_assert_ptr_nonnull(g);
    timing_igpu_timed(g, &gpu);
    timing_stats ts;
    timing_engine_config cfg;
    pk_cycle_config(&cfg, &gpu, (uint32_t)gpu.sm_count, &ts);
    pk_launch l = {.grid = pk_dim3(1, 1, 1), .block = pk_dim3(N, 1, 1),
                   .policy = timing_igpu_policy(g), .sm_count = (uint32_t)gpu.sm_count,
                   .cfg = &cfg, .events = timing_model_sink()};
    /* Matrix { int width; int height; float *data; } for A, B and C */
    uint8_t params[48] = {0};
    const float *mats[3] = {f->a, f->b, f->c};
    const int32_t dims[3][2] = {{K, 1}, {N, K}, {N, 1}};
    for (int q = 0; q < 3; q++) {
        uint64_t p = pk_addr(mats[q]);
        memcpy(params + 16 * q, dims[q], 8);
        memcpy(params + 16 * q + 8, &p, 8);
    }
    ck_assert(pk_run_params(&f->m, "MatrixMultiplyAccumulate", &l, params, sizeof params, NULL));
    timing_igpu_end(g, &out->st);
    timing_igpu_pages_destroy(pages);
    out->cycles = ts.cycles;
    ck_assert_uint_gt(out->cycles, 0);
    for (int i = 0; i < N; i++)
        ck_assert_msg(f->c[i] == want[i], "%s: C[%d] = %g, expected %g", spec, i, f->c[i],
                      want[i]);
}

START_TEST(restart_penalty_costs_exactly_its_cycles)
{
    fig3 f;
    fig3_load(&f);
    outcome *none = calloc(3, sizeof *none), *p1 = none + 1, *p2 = none + 2;
    ck_assert_ptr_nonnull(none);
    fig3_timed(&f, "list=100000", 0, 2000, 0, none);
    fig3_timed(&f, "list=1:4", 0, 2000, 0, p1);
    fig3_timed(&f, "list=1:4", 0, 7000, 0, p2);
    ck_assert_uint_eq(none->st.restarts, 0);
    ck_assert_uint_eq(p1->st.restarts, 2);
    ck_assert_uint_eq(p2->st.restarts, 2);
    ck_assert_uint_eq(p1->st.reexecuted, 25 + 32);
    ck_assert_uint_eq(p1->st.restart_penalty_cycles, 2 * 2000);
    ck_assert_uint_eq(p2->st.restart_penalty_cycles, 2 * 7000);
    ck_assert_uint_eq(p1->st.page_fault_cycles, 0);
    /* the re-executed instructions and the penalty cost: more than the penalty alone */
    ck_assert_uint_gt(p1->cycles, none->cycles + 2 * 2000);
    ck_assert_uint_eq(p2->cycles - p1->cycles, 2 * (7000 - 2000));
    /* continuous spilling: the cut's 3 live-ins pushed once; the entry has none to reload */
    ck_assert_uint_eq(none->st.spill_instructions, 3);
    ck_assert_uint_eq(p1->st.spill_instructions, 3);
    ck_assert_uint_eq(p1->st.reload_instructions, 0);
    free(none);
    pk_unload(&f.m);
}
END_TEST

static size_t pages_of(uint64_t *set, size_t n, uint64_t addr, uint64_t bytes, uint64_t size)
{
    for (uint64_t p = addr / size; p <= (addr + bytes - 1) / size; p++) {
        size_t i = 0;
        while (i < n && set[i] != p) i++;
        if (i == n) set[n++] = p;
    }
    return n;
}

START_TEST(page_fault_latency_costs_exactly_its_cycles)
{
    fig3 f;
    fig3_load(&f);
    uint64_t set[16];
    size_t n = pages_of(set, 0, pk_addr(f.a), K * 4, 4096);
    n = pages_of(set, n, pk_addr(f.b), K * N * 4, 4096);
    n = pages_of(set, n, pk_addr(f.c), N * 4, 4096);
    outcome *l1 = calloc(2, sizeof *l1), *l2 = l1 + 1;
    ck_assert_ptr_nonnull(l1);
    fig3_timed(&f, "off", 4096, 10, 10000, l1);
    fig3_timed(&f, "off", 4096, 10, 30000, l2);
    ck_assert_uint_eq(l1->st.page_faults, n);
    ck_assert_uint_eq(l2->st.page_faults, n);
    ck_assert_uint_eq(l1->st.page_stalls, 0);
    ck_assert_uint_eq(l1->st.restarts, n);
    ck_assert_uint_eq(l1->st.page_fault_cycles, n * 10000);
    ck_assert_uint_eq(l1->st.restart_penalty_cycles, 0);
    ck_assert_uint_gt(l1->cycles, n * 10000);
    ck_assert_uint_eq(l2->cycles - l1->cycles, n * (30000 - 10000));
    free(l1);
    pk_unload(&f.m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("igpu_cycles");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, restart_penalty_costs_exactly_its_cycles);
    tcase_add_test(tc, page_fault_latency_costs_exactly_its_cycles);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
