/* test_dab_engine.c: DAB runs (timing/dab/, --det=dab) checked against what the mechanism
 * fixes (spec dab.md): a racy kernel gives one memory image and one set of statistics for every
 * host-thread count and seed, under each scheduler; CTA c runs on SM c mod SMs (S7), or mod the
 * gated SMs; atomics
 * whose result is used run in flush order and still hand out every ticket once; barrier
 * deadlocks and faults are reported the same way on every run; a cooperative grid's spin-wait
 * on a global counter makes progress (epochs end at the per-warp cut point); device printf runs
 * in flush order. Kernels: tests/ptx/engine/src/engine.cu. */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu.h"
#include "timing/timing.h"
#include "tests/unit/engine_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* DAB on 4 SMs with 2 CTA slots each. */
static timing_engine_config config(uint32_t threads, uint64_t seed)
{
    timing_engine_config c;
    timing_engine_defaults(&c);
    c.det = TIMING_DET_DAB;
    c.sm_count = 4;
    c.host_threads = threads;
    c.seed = seed;
    c.max_ctas_per_sm = 2;
    c.max_threads_per_sm = 2048;
    return c;
}

static const uint32_t THREADS[] = {1, 2, 4};
static const uint64_t SEEDS[] = {0, 3, 12345};

#define RN 512u   /* 8 CTAs of 64 on 4 SMs x 2 slots */

static void racy_run(const timing_engine_config *c, unsigned *m, unsigned *sig, unsigned *img,
                     timing_stats *st)
{
    for (unsigned k = 0; k < 64; k++) m[k] = (k + k * 103995407u) % 103072243u;
    for (unsigned t = 0; t < RN; t++) sig[t] = t;
    timing_engine_config cc = *c;
    cc.stats = st;
    uint64_t args[] = {ek_addr(m), ek_addr(sig), 40};
    ek_run("racy", RN / 64, 64, args, &cc, NULL);
    memcpy(img, m, 64 * 4);
    memcpy(img + 64, sig, RN * 4);
}

/* Loop index: the scheduler (0..3), or warp-level buffers (4). */
START_TEST(racy_one_result)
{
    ek_load();
    unsigned *m = ek_dalloc(64 * 4), *sig = ek_dalloc(RN * 4);
    static unsigned first[64 + RN], img[64 + RN];
    timing_stats st0 = {0};
    timing_engine_config c = config(1, 0);
    c.dab_scheduler = _i < 4 ? (timing_dab_scheduler)_i : TIMING_DAB_GWAT;
    c.dab_warp_buffers = _i == 4;
    racy_run(&c, m, sig, first, &st0);
    ck_assert_uint_ge(st0.dab_flushes, 1);
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            timing_engine_config d = c;
            d.host_threads = THREADS[t];
            d.seed = SEEDS[s];
            timing_stats st = {0};
            racy_run(&d, m, sig, img, &st);
            ck_assert_msg(memcmp(first, img, sizeof img) == 0,
                          "scheduler %d threads %u seed %llu changed the result", _i,
                          THREADS[t], (unsigned long long)SEEDS[s]);
            ck_assert_msg(memcmp(&st0, &st, sizeof st) == 0,
                          "scheduler %d threads %u seed %llu changed the statistics", _i,
                          THREADS[t], (unsigned long long)SEEDS[s]);
        }
    emu_device_free(ek_addr(m));
    emu_device_free(ek_addr(sig));
    ek_unload();
}
END_TEST

START_TEST(placement_static)
{
    ek_load();
    const unsigned nb = 40;
    unsigned *smid = ek_dalloc(nb * 4);
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        timing_stats st = {0};
        c.stats = &st;
        memset(smid, 0xff, nb * 4);
        uint64_t args[] = {ek_addr(smid)};
        ck_assert(ek_run("placement", nb, 64, args, &c, NULL));
        for (unsigned b = 0; b < nb; b++) ck_assert_uint_eq(smid[b], b % 4);
        ck_assert_uint_eq(st.ctas, nb);
        /* SM gating (Fig. 14): CTA c on SM c mod 3, SM 3 idle */
        c.dab_sms = 3;
        memset(smid, 0xff, nb * 4);
        ck_assert(ek_run("placement", nb, 64, args, &c, NULL));
        for (unsigned b = 0; b < nb; b++) ck_assert_uint_eq(smid[b], b % 3);
    }
    emu_device_free(ek_addr(smid));
    ek_unload();
}
END_TEST

/* atomicAdd whose result is used: flush-class, one per warp, every ticket handed out once, the
 * same ticket to the same thread on every run. */
START_TEST(used_results_in_flush_order)
{
    ek_load();
    const unsigned nb = 6, bs = 64, n = nb * bs;
    unsigned *counter = ek_dalloc(4), *olds = ek_dalloc(n * 4);
    static unsigned first[6 * 64];
    for (int t = 0; t < 3; t++) {
        *counter = 0;
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        timing_stats st = {0};
        c.stats = &st;
        uint64_t args[] = {ek_addr(counter), ek_addr(olds)};
        ck_assert(ek_run("tickets", nb, bs, args, &c, NULL));
        ck_assert_uint_eq(*counter, n);
        ck_assert_uint_eq(st.dab_flush_ops, n / 32);
        ck_assert_uint_eq(st.dab_atomics, 0);
        static unsigned char seen[6 * 64];
        memset(seen, 0, sizeof seen);
        for (unsigned i = 0; i < n; i++) {
            ck_assert_uint_lt(olds[i], n);
            ck_assert(!seen[olds[i]]);
            seen[olds[i]] = 1;
        }
        if (t == 0) memcpy(first, olds, n * 4);
        else ck_assert_mem_eq(first, olds, n * 4);
    }
    emu_device_free(ek_addr(counter));
    emu_device_free(ek_addr(olds));
    ek_unload();
}
END_TEST

START_TEST(deadlock_reported)
{
    ek_load();
    int *out = ek_dalloc(16 * 64 * 4);
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        emu_fault f;
        uint64_t args[] = {ek_addr(out), 5};
        ck_assert(!ek_run("deadlock", 16, 64, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_BARRIER_DEADLOCK);
        ck_assert_uint_eq(f.cta.x, 5);
    }
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

START_TEST(fault_same_every_run)
{
    ek_load();
    int *p = ek_dalloc(64);
    memset(p, 0, 64);
    char first[sizeof ((emu_fault *)0)->message] = "";
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        emu_fault f;
        /* CTAs 3, 7, 11, 15 fault (all on SM 3), the others spin until the run stops */
        uint64_t args[] = {ek_addr(p), 3, 4};
        ck_assert(!ek_run("fault_or_spin", 16, 32, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
        ck_assert_uint_eq(f.cta.x, 3);
        if (!first[0]) strcpy(first, f.message);
        ck_assert_str_eq(f.message, first);
    }
    emu_device_free(ek_addr(p));
    ek_unload();
}
END_TEST

START_TEST(cooperative_spin_progresses)
{
    ek_load();
    const unsigned nb = 8;
    unsigned *count = ek_dalloc(4);
    int *vals = ek_dalloc(nb * 4), *sums = ek_dalloc(nb * 4);
    for (int t = 0; t < 2; t++) {
        *count = 0;
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        c.sm_count = 2;
        c.max_ctas_per_sm = 4;
        c.cooperative = true;
        c.dab_epoch_insts = 2000;
        uint64_t args[] = {ek_addr(count), ek_addr(vals), ek_addr(sums)};
        ck_assert(ek_run("grid_barrier", nb, 64, args, &c, NULL));
        for (unsigned b = 0; b < nb; b++) ck_assert_int_eq(sums[b], 36);
    }
    emu_device_free(ek_addr(count));
    emu_device_free(ek_addr(vals));
    emu_device_free(ek_addr(sums));
    ek_unload();
}
END_TEST

static char *captured_say(uint32_t threads, uint64_t seed, timing_stats *st)
{
    char path[] = "/tmp/ptxsim_dab_sayXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    timing_engine_config c = config(threads, seed);
    c.stats = st;
    uint64_t args[] = {7};
    ek_run("say", 6, 96, args, &c, NULL);
    emu_output_flush();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    off_t n = lseek(fd, 0, SEEK_END);
    char *buf = calloc((size_t)n + 1, 1);
    ck_assert(pread(fd, buf, (size_t)n, 0) == n);
    close(fd);
    unlink(path);
    return buf;
}

START_TEST(printf_order_fixed)
{
    ek_load();
    timing_stats st = {0};
    char *first = captured_say(1, 0, &st);
    ck_assert_uint_eq(st.dab_flush_ops, 18);   /* 6 CTAs x 3 warps */
    ck_assert_ptr_nonnull(strstr(first, "tag 7 block 5 warp 2\n"));
    for (int t = 1; t < 3; t++) {
        timing_stats st2 = {0};
        char *again = captured_say(THREADS[t], SEEDS[t], &st2);
        ck_assert_str_eq(first, again);
        free(again);
    }
    free(first);
    ek_unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dab_engine");
    TCase *tc = tcase_create("dab");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, racy_one_result, 0, 5);
    tcase_add_test(tc, placement_static);
    tcase_add_test(tc, used_results_in_flush_order);
    tcase_add_test(tc, deadlock_reported);
    tcase_add_test(tc, fault_same_every_run);
    tcase_add_test(tc, cooperative_spin_progresses);
    tcase_add_test(tc, printf_order_fixed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
