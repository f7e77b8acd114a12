/* test_engine_parallel.c: the engine without determinism (timing/engine/engine_parallel.c) on several
 * host threads: race-free kernels give the CPU reference's result for any thread count and
 * seed, with more CTAs than fit at once; global atomics are true host atomics; a seed changes
 * the interleaving of a racy kernel even on one thread, while seed 0 is reproducible; a barrier
 * deadlock and a fault are reported and stop every host thread; occupancy limits; cooperative
 * launches keep the grid resident; a CTA built in a retired CTA's storage starts as a fresh one. Kernels: tests/ptx/engine/src/engine.cu. */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu.h"
#include "timing/timing.h"
#include "tests/unit/engine_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static timing_engine_config config(uint32_t threads, uint64_t seed)
{
    timing_engine_config c;
    timing_engine_defaults(&c);
    c.sm_count = 8;
    c.host_threads = threads;
    c.seed = seed;
    c.max_ctas_per_sm = 2;
    c.max_threads_per_sm = 2048;
    return c;
}

static uint64_t F(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

START_TEST(race_free_any_threads_and_seed)
{
    ek_load();
    const int n = 5000;   /* 40 CTAs of 128: more than 8 SMs x 2 slots hold at once */
    float *in = ek_dalloc(n * 4), *out = ek_dalloc(n * 4);
    for (int i = 0; i < n; i++) in[i] = (float)(i % 97) * 0.25f;
    static const uint32_t threads[] = {1, 2, 4};
    static const uint64_t seeds[] = {0, 5, 99};
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            memset(out, 0, n * 4);
            timing_engine_config c = config(threads[t], seeds[s]);
            timing_stats st = {0};
            c.stats = &st;
            uint64_t args[] = {ek_addr(out), ek_addr(in), (uint64_t)n, F(3.0f)};
            ek_run("scale", (n + 127) / 128, 128, args, &c, NULL);
            for (int i = 0; i < n; i++)
                ck_assert_msg(out[i] == in[i] * 3.0f + (float)i, "out[%d] = %g (threads %u seed %llu)",
                              i, out[i], threads[t], (unsigned long long)seeds[s]);
            ck_assert_uint_eq(st.grids, 1);
            ck_assert_uint_eq(st.ctas, 40);
            ck_assert_uint_gt(st.warp_instructions, 0);
        }
    emu_device_free(ek_addr(in));
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

START_TEST(atomics_are_host_atomics)
{
    ek_load();
    const unsigned nb = 64, bs = 64, n = nb * bs;
    unsigned *counter = ek_dalloc(4), *olds = ek_dalloc(n * 4);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        *counter = 0;
        timing_engine_config c = config(t, t == 4 ? 3 : 0);
        uint64_t args[] = {ek_addr(counter), ek_addr(olds)};
        ek_run("tickets", nb, bs, args, &c, NULL);
        ck_assert_uint_eq(*counter, n);
        /* every ticket handed out exactly once */
        uint8_t *seen = calloc(n, 1);
        for (unsigned i = 0; i < n; i++) {
            ck_assert_uint_lt(olds[i], n);
            ck_assert_msg(!seen[olds[i]], "ticket %u twice", olds[i]);
            seen[olds[i]] = 1;
        }
        free(seen);
    }
    emu_device_free(ek_addr(counter));
    emu_device_free(ek_addr(olds));
    ek_unload();
}
END_TEST

/* Racey's signature of one run: a hash of the table and of every thread's value. */
static uint64_t racy_run(uint32_t threads, uint64_t seed, unsigned *m, unsigned *sig, unsigned n)
{
    for (unsigned k = 0; k < 64; k++) m[k] = (k + k * 103995407u) % 103072243u;
    for (unsigned t = 0; t < n; t++) sig[t] = t;
    timing_engine_config c = config(threads, seed);
    uint64_t args[] = {ek_addr(m), ek_addr(sig), 48};
    ek_run("racy", n / 64, 64, args, &c, NULL);
    uint64_t h = 1469598103934665603ull;
    for (unsigned k = 0; k < 64; k++) h = (h ^ m[k]) * 1099511628211ull;
    for (unsigned t = 0; t < n; t++) h = (h ^ sig[t]) * 1099511628211ull;
    return h;
}

START_TEST(seed_perturbs_one_thread)
{
    ek_load();
    const unsigned n = 256;
    unsigned *m = ek_dalloc(64 * 4), *sig = ek_dalloc(n * 4);
    uint64_t a = racy_run(1, 0, m, sig, n), b = racy_run(1, 0, m, sig, n);
    ck_assert_msg(a == b, "seed 0 on one host thread must be reproducible");
    uint64_t sigs[6];
    int distinct = 0;
    for (int s = 0; s < 6; s++) {
        sigs[s] = racy_run(1, (uint64_t)s + 1, m, sig, n);
        bool fresh = true;
        for (int j = 0; j < s; j++) fresh = fresh && sigs[j] != sigs[s];
        distinct += fresh;
    }
    ck_assert_msg(distinct > 1, "six seeds gave one interleaving of a racy kernel");
    emu_device_free(ek_addr(m));
    emu_device_free(ek_addr(sig));
    ek_unload();
}
END_TEST

START_TEST(deadlock_stops_all_threads)
{
    ek_load();
    const unsigned nb = 16, bs = 64;
    int *out = ek_dalloc(nb * bs * 4);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        timing_engine_config c = config(t, t == 2 ? 11 : 0);
        emu_fault f;
        uint64_t args[] = {ek_addr(out), 5};
        ck_assert(!ek_run("deadlock", nb, bs, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_BARRIER_DEADLOCK);
        ck_assert_uint_eq(f.cta.x, 5);
        ck_assert_msg(strstr(f.message, "deadlock") && strstr(f.message, "barrier"),
                      "message: %s", f.message);
    }
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

/* CTA 9 faults; every other CTA spins forever: only a fault that stops every host thread lets
 * the grid end (a hang fails the test by its timeout). */
START_TEST(fault_stops_all_threads)
{
    ek_load();
    int *p = ek_dalloc(64);
    memset(p, 0, 64);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        timing_engine_config c = config(t, t == 4 ? 8 : 0);
        emu_fault f;
        uint64_t args[] = {ek_addr(p), 9, 1000};
        ck_assert(!ek_run("fault_or_spin", 16, 32, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
        ck_assert_uint_eq(f.cta.x, 9);
        ck_assert_msg(strstr(f.message, "out of bounds") && strstr(f.message, "fault_or_spin"),
                      "message: %s", f.message);
    }
    emu_device_free(ek_addr(p));
    ek_unload();
}
END_TEST

/* With one host thread and seed 0 the first fault in CTA order wins. */
START_TEST(first_fault_fixed_order)
{
    ek_load();
    int *p = ek_dalloc(64);
    memset(p, 0, 64);
    timing_engine_config c = config(1, 0);
    emu_fault f;
    uint64_t args[] = {ek_addr(p), 3, 4};
    ck_assert(!ek_run("fault_or_spin", 16, 32, args, &c, &f));
    ck_assert_uint_eq(f.cta.x, 3);
    emu_device_free(ek_addr(p));
    ek_unload();
}
END_TEST

START_TEST(occupancy_limits)
{
    ek_load();
    const ptx_function *k = ptx_find_function(ek_ptx(), "block_sums");
    ck_assert(k != NULL);
    uint8_t params[64] = {0};
    emu_launch L = {0};
    L.module = ek_module();
    L.kernel = k;
    L.grid = (emu_dim3){100, 1, 1};
    L.block = (emu_dim3){128, 1, 1};
    L.params = params;
    L.params_size = k->param_size;
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert(g != NULL);
    ck_assert_uint_eq(emu_grid_smem_per_cta(g), 1024);   /* __shared__ int s[256] */
    timing_engine_config c;
    timing_engine_defaults(&c);
    c.sm_count = 8;
    c.max_ctas_per_sm = 32;
    c.max_threads_per_sm = 2048;
    ck_assert_uint_eq(timing_ctas_per_sm(g, &c), 16);    /* threads: 2048 / 128 */
    c.max_ctas_per_sm = 8;
    ck_assert_uint_eq(timing_ctas_per_sm(g, &c), 8);     /* the CTA limit */
    c.smem_per_sm = 3 * 1024;
    ck_assert_uint_eq(timing_ctas_per_sm(g, &c), 3);     /* shared memory */
    c.smem_per_sm = 100;
    ck_assert_uint_eq(timing_ctas_per_sm(g, &c), 1);     /* never below one */
    c.cooperative = true;
    ck_assert_uint_eq(timing_ctas_per_sm(g, &c), 13);    /* the whole grid: ceil(100 / 8) */
    emu_grid_destroy(g);
    ek_unload();
}
END_TEST

START_TEST(cooperative_grid_resident)
{
    ek_load();
    const unsigned nb = 8;
    unsigned *count = ek_dalloc(4);
    int *vals = ek_dalloc(nb * 4), *sums = ek_dalloc(nb * 4);
    for (uint32_t t = 1; t <= 2; t++) {
        *count = 0;
        timing_engine_config c = config(t, t == 2 ? 4 : 0);
        c.sm_count = 2;
        c.max_ctas_per_sm = 1;   /* without cooperative, 2 of the 8 CTAs would fit */
        c.cooperative = true;
        uint64_t args[] = {ek_addr(count), ek_addr(vals), ek_addr(sums)};
        ek_run("grid_barrier", nb, 64, args, &c, NULL);
        for (unsigned b = 0; b < nb; b++) ck_assert_int_eq(sums[b], 36);
    }
    emu_device_free(ek_addr(count));
    emu_device_free(ek_addr(vals));
    emu_device_free(ek_addr(sums));
    ek_unload();
}
END_TEST

/* Each thread reads its shared word, a local word and a register before writing any of them,
 * then writes all three: a CTA built in a retired CTA's storage (skeleton.c) must still start
 * with shared memory, local memory and registers zero, as a fresh one does. */
static const char fresh_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry fresh(.param .u64 out)\n{\n"
    "  .reg .u32 %r<10>;\n  .reg .u64 %rd<4>;\n"
    "  .shared .align 4 .b8 sh[256];\n  .local .align 4 .b8 loc[16];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  shl.b32 %r5, %r1, 2;\n  mov.u32 %r6, sh;\n  add.u32 %r6, %r6, %r5;\n"
    "  ld.shared.u32 %r7, [%r6];\n  ld.local.u32 %r8, [loc+8];\n"
    "  add.u32 %r9, %r7, %r8;\n  add.u32 %r9, %r9, %r0;\n"
    "  cvt.u64.u32 %rd2, %r4;\n  shl.b64 %rd2, %rd2, 2;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r9;\n"
    "  add.u32 %r0, %r4, 1;\n  st.shared.u32 [%r6], %r0;\n  st.local.u32 [loc+8], %r0;\n"
    "  ret;\n}\n";

START_TEST(reused_cta_storage_starts_fresh)
{
    pk_module m = pk_load_text(fresh_ptx, sizeof fresh_ptx - 1, "fresh.ptx");
    const unsigned nb = 48, bs = 64, n = nb * bs;
    unsigned *out = pk_dalloc(n * 4);
    for (int det = 0; det < 2; det++)
        for (uint32_t t = 1; t <= 2; t++) {
            memset(out, 0xff, n * 4);
            /* two SMs of one slot: every CTA after the first two reuses a retired one's storage */
            timing_engine_config c = config(t, det ? 0 : 7);
            c.sm_count = 2;
            c.max_ctas_per_sm = 1;
            c.det = det ? TIMING_DET_GPUDET : TIMING_DET_OFF;
            timing_stats st = {0};
            c.stats = &st;
            uint64_t args[] = {pk_addr(out)};
            pk_launch l = { .grid = { nb, 1, 1 }, .block = { bs, 1, 1 }, .sm_count = c.sm_count,
                            .cfg = &c };
            ck_assert(pk_run(&m, "fresh", &l, args, NULL));
            for (unsigned i = 0; i < n; i++)
                ck_assert_msg(out[i] == 0, "thread %u read %u (det %d, threads %u)", i, out[i], det,
                              t);
            ck_assert_uint_eq(st.ctas, nb);
        }
    emu_device_free(pk_addr(out));
    pk_unload(&m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("engine_parallel");
    TCase *tc = tcase_create("parallel");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, race_free_any_threads_and_seed);
    tcase_add_test(tc, atomics_are_host_atomics);
    tcase_add_test(tc, seed_perturbs_one_thread);
    tcase_add_test(tc, deadlock_stops_all_threads);
    tcase_add_test(tc, fault_stops_all_threads);
    tcase_add_test(tc, first_fault_fixed_order);
    tcase_add_test(tc, occupancy_limits);
    tcase_add_test(tc, cooperative_grid_resident);
    tcase_add_test(tc, reused_cta_storage_starts_fresh);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
