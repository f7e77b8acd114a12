/* test_gpudet_engine.c: GPUDet runs (timing/gpudet/) checked against values the mechanism
 * fixes (spec gpudet.md): a racy kernel gives one memory image for every host-thread count and
 * seed; the same word written by many warps in one quantum ends with the lowest hardware warp
 * ID's value (IDs interleave the SMs); byte stores commit per byte; a warp reads its own
 * buffered stores and no one else's; atomics run in the CU-Ser or W-Ser order; BTA releases
 * barriers inside a quantum; fences end quanta; deadlocks and faults are reported the same way
 * on every run; CTA placement and statistics do not depend on threads or seeds; cooperative
 * spin-waits make progress; device printf and malloc run in a fixed order.
 * Kernels: tests/ptx/engine/src/engine.cu. */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu.h"
#include "timing/timing.h"
#include "tests/unit/engine_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GPUDet on 4 SMs with 2 CTA slots each. */
static timing_engine_config config(uint32_t threads, uint64_t seed)
{
    timing_engine_config c;
    timing_engine_defaults(&c);
    c.det = TIMING_DET_GPUDET;
    c.sm_count = 4;
    c.host_threads = threads;
    c.seed = seed;
    c.max_ctas_per_sm = 2;
    c.max_threads_per_sm = 2048;
    return c;
}

static const uint32_t THREADS[] = {1, 2, 4};
static const uint64_t SEEDS[] = {0, 3, 12345};

/* ---- determinism of a racy kernel */

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

START_TEST(racy_one_result)
{
    ek_load();
    unsigned *m = ek_dalloc(64 * 4), *sig = ek_dalloc(RN * 4);
    static unsigned first[64 + RN], img[64 + RN];
    timing_stats st0 = {0};
    timing_engine_config c = config(1, 0);
    c.quantum = 50 + 50 * (uint64_t)_i;            /* a different quantum per loop index */
    c.serial_order = _i % 2 ? TIMING_SERIAL_WARP : TIMING_SERIAL_CU;
    c.bta = _i != 2;
    racy_run(&c, m, sig, first, &st0);
    ck_assert_uint_gt(st0.quanta, 4);
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            timing_engine_config d = c;
            d.host_threads = THREADS[t];
            d.seed = SEEDS[s];
            timing_stats st = {0};
            racy_run(&d, m, sig, img, &st);
            ck_assert_msg(memcmp(first, img, sizeof img) == 0,
                          "threads %u seed %llu changed the result", THREADS[t],
                          (unsigned long long)SEEDS[s]);
            /* the statistics are part of the contract too */
            ck_assert_msg(memcmp(&st0, &st, sizeof st) == 0,
                          "threads %u seed %llu changed the statistics", THREADS[t],
                          (unsigned long long)SEEDS[s]);
        }
    emu_device_free(ek_addr(m));
    emu_device_free(ek_addr(sig));
    ek_unload();
}
END_TEST

/* ---- commit priority */

START_TEST(same_word_lowest_warp_id_wins)
{
    ek_load();
    int *out = ek_dalloc(4);
    for (int t = 0; t < 3; t++) {
        *out = -1;
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        /* 2 CTAs of 4 warps: CTA 0 on SM 0, CTA 1 on SM 1. Warp slot L of SM s has ID
         * L * 4 + s: CTA 0's warps 0,4,8,12; CTA 1's 1,5,9,13. Global warp 0 does not write
         * (skip 1), so the lowest writer is CTA 1's warp 0 (ID 1), global warp index 4;
         * program order would give 1 (first writer) or 7 (last). */
        uint64_t args[] = {ek_addr(out), 1};
        ek_run("same_word", 2, 128, args, &c, NULL);
        ck_assert_int_eq(*out, 4);
    }
    /* the baseline in its fixed order: the last writer wins */
    timing_engine_config off = config(1, 0);
    off.det = TIMING_DET_OFF;
    uint64_t args[] = {ek_addr(out), 1};
    ek_run("same_word", 2, 128, args, &off, NULL);
    ck_assert_int_ne(*out, 4);
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

START_TEST(bytes_commit_per_byte)
{
    ek_load();
    unsigned char *b = ek_dalloc(16);
    unsigned *w = ek_dalloc(4);
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        memset(b, 0, 16);
        /* each warp stores bytes 0..15, lanes l and l+16 colliding (the higher one wins);
         * warp slot ID 0 (CTA 0's warp 0) beats every other: b[j] = 16 + j */
        uint64_t a1[] = {ek_addr(b)};
        ek_run("bytes16", 2, 64, a1, &c, NULL);
        for (unsigned j = 0; j < 16; j++) ck_assert_uint_eq(b[j], 16 + j);
        /* warp 0 stores byte 1, warp 1 the whole word: only byte 1 is warp 0's */
        *w = 0;
        uint64_t a2[] = {ek_addr(w)};
        ek_run("byte_and_word", 1, 64, a2, &c, NULL);
        ck_assert_uint_eq(*w, 0xAABB11DDu);
    }
    emu_device_free(ek_addr(b));
    emu_device_free(ek_addr(w));
    ek_unload();
}
END_TEST

START_TEST(reads_own_writes_only)
{
    ek_load();
    int *x = ek_dalloc(4), *out = ek_dalloc(8);
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        *x = 0;
        out[0] = out[1] = -1;
        uint64_t args[] = {ek_addr(x), ek_addr(out)};
        ek_run("own_writes", 1, 64, args, &c, NULL);
        ck_assert_int_eq(out[0], 42);   /* its own buffered store */
        ck_assert_int_eq(out[1], 0);    /* another warp's store is not visible in the quantum */
        ck_assert_int_eq(*x, 42);       /* committed at the quantum end */
    }
    emu_device_free(ek_addr(x));
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

/* ---- serial mode */

START_TEST(atomic_order_cu_and_w_ser)
{
    ek_load();
    unsigned *counter = ek_dalloc(4), *olds = ek_dalloc(128 * 4);
    for (int order = 0; order < 2; order++)
        for (int t = 0; t < 3; t++) {
            timing_engine_config c = config(THREADS[t], SEEDS[t]);
            c.serial_order = order ? TIMING_SERIAL_WARP : TIMING_SERIAL_CU;
            timing_stats st = {0};
            c.stats = &st;
            *counter = 0;
            uint64_t args[] = {ek_addr(counter), ek_addr(olds)};
            ek_run("tickets", 2, 64, args, &c, NULL);
            ck_assert_uint_eq(*counter, 128);
            ck_assert_uint_eq(st.serial_atomics, 4);
            /* CTA 0 on SM 0, CTA 1 on SM 1; warp IDs: CTA0 w0 = 0, CTA1 w0 = 1, CTA0 w1 = 4,
             * CTA1 w1 = 5; lanes in ascending order within a warp */
            static const unsigned cu_rank[4] = {0, 1, 2, 3};   /* SM 0's warps, then SM 1's */
            static const unsigned w_rank[4] = {0, 2, 1, 3};    /* by warp ID */
            for (unsigned i = 0; i < 128; i++) {
                unsigned warp = i / 32, rank = order ? w_rank[warp] : cu_rank[warp];
                ck_assert_msg(olds[i] == rank * 32 + i % 32, "%s: thread %u got %u",
                              order ? "W-Ser" : "CU-Ser", i, olds[i]);
            }
        }
    emu_device_free(ek_addr(counter));
    emu_device_free(ek_addr(olds));
    ek_unload();
}
END_TEST

/* ---- quantum formation */

START_TEST(bta_releases_barriers)
{
    ek_load();
    const unsigned nb = 4, bs = 128, rounds = 12;
    int *in = ek_dalloc(nb * bs * 4), *out = ek_dalloc(nb * 4);
    for (unsigned i = 0; i < nb * bs; i++) in[i] = (int)(i * 3 % 17);
    timing_stats with = {0}, without = {0};
    for (int bta = 0; bta < 2; bta++) {
        timing_engine_config c = config(2, 1);
        c.bta = bta;
        c.stats = bta ? &with : &without;
        memset(out, 0, nb * 4);
        uint64_t args[] = {ek_addr(in), ek_addr(out), rounds};
        ek_run("block_sums", nb, bs, args, &c, NULL);
        for (unsigned b = 0; b < nb; b++) {
            int want = 0;
            for (unsigned r = 0; r < rounds; r++)
                for (unsigned t = 0; t < bs; t++) want += in[b * bs + t] + (int)r;
            ck_assert_int_eq(out[b], want);
        }
    }
    ck_assert_uint_gt(with.bta_releases, 0);
    ck_assert_uint_eq(without.bta_releases, 0);
    ck_assert_uint_gt(without.quantum_end[TIMING_QEND_WGBARRIER], 0);
    ck_assert_uint_lt(with.quanta, without.quanta);
    emu_device_free(ek_addr(in));
    emu_device_free(ek_addr(out));
    ek_unload();
}
END_TEST

START_TEST(fences_end_quanta)
{
    ek_load();
    int *out = ek_dalloc(64 * 4);
    timing_engine_config c = config(2, 0);
    timing_stats st = {0};
    c.stats = &st;
    uint64_t args[] = {ek_addr(out), 5};
    ek_run("fenced", 1, 64, args, &c, NULL);
    for (int i = 0; i < 64; i++) ck_assert_int_eq(out[i], 4);
    ck_assert_uint_eq(st.quantum_end[TIMING_QEND_FENCE], 2 * 5);
    ck_assert_uint_eq(st.quantum_end[TIMING_QEND_COMPLETE], 2);
    ck_assert_uint_eq(st.quanta, 6);
    ek_unload();
    emu_device_free(ek_addr(out));
}
END_TEST

/* ---- failures */

START_TEST(deadlock_reported)
{
    ek_load();
    int *out = ek_dalloc(16 * 64 * 4);
    for (int t = 0; t < 3; t++)
        for (int bta = 0; bta < 2; bta++) {
            timing_engine_config c = config(THREADS[t], SEEDS[t]);
            c.bta = bta;
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

START_TEST(fault_lowest_cta_every_run)
{
    ek_load();
    int *p = ek_dalloc(64);
    memset(p, 0, 64);
    char first[sizeof ((emu_fault *)0)->message] = "";
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        emu_fault f;
        /* CTAs 3, 7, 11, 15 fault, the others spin until the run stops */
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

/* ---- distribution */

START_TEST(placement_fixed)
{
    ek_load();
    const unsigned nb = 40;
    unsigned *smid = ek_dalloc(nb * 4);
    unsigned first[40];
    for (int dwp = 0; dwp < 2; dwp++)
        for (int t = 0; t < 3; t++) {
            timing_engine_config c = config(THREADS[t], SEEDS[t]);
            c.dwp = dwp;
            timing_stats st = {0};
            c.stats = &st;
            memset(smid, 0xff, nb * 4);
            uint64_t args[] = {ek_addr(smid)};
            ek_run("placement", nb, 64, args, &c, NULL);
            /* the first quantum fills slot 0 of SMs 0..3, then slot 1: CTA i on SM i % 4 */
            for (unsigned b = 0; b < 8; b++) ck_assert_uint_eq(smid[b], b % 4);
            if (t == 0) memcpy(first, smid, sizeof first);
            ck_assert_mem_eq(first, smid, sizeof first);
            ck_assert_uint_eq(st.ctas, nb);
            if (dwp) ck_assert_uint_gt(st.dwp_launches, 0);
            else ck_assert_uint_eq(st.dwp_launches, 0);
        }
    emu_device_free(ek_addr(smid));
    ek_unload();
}
END_TEST

START_TEST(many_ctas_race_free)
{
    ek_load();
    const int n = 5000;
    float *in = ek_dalloc(n * 4), *out = ek_dalloc(n * 4);
    for (int i = 0; i < n; i++) in[i] = (float)(i % 89) * 0.5f;
    for (int dwp = 0; dwp < 2; dwp++) {
        timing_engine_config c = config(4, 2);
        c.dwp = dwp;
        memset(out, 0, n * 4);
        float k = 2.0f;
        uint32_t kb;
        memcpy(&kb, &k, 4);
        uint64_t args[] = {ek_addr(out), ek_addr(in), (uint64_t)n, kb};
        ek_run("scale", (n + 127) / 128, 128, args, &c, NULL);
        for (int i = 0; i < n; i++) ck_assert(out[i] == in[i] * 2.0f + (float)i);
    }
    emu_device_free(ek_addr(in));
    emu_device_free(ek_addr(out));
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
        c.max_ctas_per_sm = 1;
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

/* Device printf runs in serial mode: the same lines in the same order on every run. */
static char *captured_say(uint32_t threads, uint64_t seed, timing_stats *st)
{
    char path[] = "/tmp/ptxsim_gpudet_sayXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    timing_engine_config c = config(threads, seed);
    c.stats = st;
    uint64_t args[] = {7};
    ek_run("say", 6, 96, args, &c, NULL);
    emu_output_flush();   /* device printf records, in the order kernels made them */
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
    ck_assert_uint_eq(st.serial_calls, 18);   /* 6 CTAs x 3 warps */
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

/* Device malloc runs in serial mode, in a fixed order: the warps' blocks lie in the same
 * address order on every run (the blocks are not freed, so each run allocates past the
 * previous one's). */
START_TEST(malloc_order_fixed)
{
    ek_load();
    enum { NW = 6 * 3 };
    unsigned long long *ptrs = ek_dalloc(NW * 8);
    unsigned first[NW];
    for (int t = 0; t < 3; t++) {
        timing_engine_config c = config(THREADS[t], SEEDS[t]);
        timing_stats st = {0};
        c.stats = &st;
        memset(ptrs, 0, NW * 8);
        uint64_t args[] = {ek_addr(ptrs)};
        ek_run("grab", 6, 96, args, &c, NULL);
        ck_assert_uint_eq(st.serial_calls, NW);
        unsigned rank[NW];
        for (unsigned w = 0; w < NW; w++) {
            ck_assert_uint_ne(ptrs[w], 0);
            rank[w] = 0;
            for (unsigned v = 0; v < NW; v++) rank[w] += ptrs[v] < ptrs[w];
        }
        if (t == 0) memcpy(first, rank, sizeof first);
        else ck_assert_mem_eq(first, rank, sizeof first);
    }
    emu_device_free(ek_addr(ptrs));
    ek_unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpudet_engine");
    TCase *tc = tcase_create("gpudet");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, racy_one_result, 0, 4);
    tcase_add_test(tc, same_word_lowest_warp_id_wins);
    tcase_add_test(tc, bytes_commit_per_byte);
    tcase_add_test(tc, reads_own_writes_only);
    tcase_add_test(tc, atomic_order_cu_and_w_ser);
    tcase_add_test(tc, bta_releases_barriers);
    tcase_add_test(tc, fences_end_quanta);
    tcase_add_test(tc, deadlock_reported);
    tcase_add_test(tc, fault_lowest_cta_every_run);
    tcase_add_test(tc, placement_fixed);
    tcase_add_test(tc, many_ctas_race_free);
    tcase_add_test(tc, cooperative_spin_progresses);
    tcase_add_test(tc, printf_order_fixed);
    tcase_add_test(tc, malloc_order_fixed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
