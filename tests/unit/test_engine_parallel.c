/* test_engine_parallel.c: the engine without determinism (timing/engine_parallel.c) on several
 * host threads: race-free kernels give the CPU reference's result for any thread count and
 * seed, with more CTAs than fit at once; global atomics are true host atomics; a seed changes
 * the interleaving of a racy kernel even on one thread, while seed 0 is reproducible; a barrier
 * deadlock and a fault are reported and stop every host thread; occupancy limits; cooperative
 * launches keep the grid resident. Kernels: tests/ptx/engine/src/engine.cu. */
#include "emulator/emu.h"
#include "timing/timing.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_FILE "tests/ptx/engine/engine_sm75.ptx"

static ptx_module *pm;
static emu_module *em;

static void load(void)
{
    FILE *f = fopen(PTX_FILE, "rb");
    ck_assert_msg(f != NULL, "cannot read %s (run from the repository root)", PTX_FILE);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    ck_assert(fread(text, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    text[n] = 0;
    ptx_diag diag = {0};
    pm = ptx_parse(text, (size_t)n, PTX_FILE, &diag);
    free(text);
    ck_assert_msg(pm != NULL, "parse failed: %s", diag.text ? diag.text : "");
    ptx_diag_free(&diag);
    char err[2048];
    em = emu_module_load(pm, err, sizeof err);
    ck_assert_msg(em != NULL, "load failed: %s", err);
}

static void unload(void)
{
    emu_module_unload(em);
    ptx_module_free(pm);
}

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

/* Runs kernel with 64-bit argument values; true when the grid completed, else the fault. */
static bool run(const char *kernel, uint32_t grid, uint32_t block, const uint64_t *args,
                const timing_engine_config *cfg, emu_fault *fault)
{
    const ptx_function *k = ptx_find_function(pm, kernel);
    ck_assert_msg(k != NULL, "no kernel %s", kernel);
    uint8_t params[256] = {0};
    for (uint32_t i = 0; i < k->nparams; i++) {
        const ptx_symbol *s = &pm->syms[k->params[i]];
        memcpy(params + s->offset, &args[i], s->size < 8 ? s->size : 8);
    }
    emu_launch L = {0};
    L.module = em;
    L.kernel = k;
    L.grid = (emu_dim3){grid, 1, 1};
    L.block = (emu_dim3){block, 1, 1};
    L.params = params;
    L.params_size = k->param_size;
    L.sm_count = cfg->sm_count;
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert_msg(g != NULL, "launch refused: %s", f.message);
    bool ok = timing_run_grid(g, cfg);
    if (!ok) {
        const emu_fault *gf = emu_grid_fault(g);
        ck_assert_msg(fault != NULL, "kernel %s failed: %s", kernel, gf ? gf->message : "?");
        ck_assert_msg(gf != NULL, "kernel %s failed without a fault", kernel);
        *fault = *gf;
    }
    emu_grid_destroy(g);
    return ok;
}

static void *dalloc(size_t bytes)
{
    uint64_t a = emu_device_alloc(bytes, EMU_ALLOC_DEVICE);
    ck_assert(a != 0);
    return (void *)(uintptr_t)a;
}

static uint64_t A(const void *p) { return (uint64_t)(uintptr_t)p; }

static uint64_t F(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

START_TEST(race_free_any_threads_and_seed)
{
    load();
    const int n = 5000;   /* 40 CTAs of 128: more than 8 SMs x 2 slots hold at once */
    float *in = dalloc(n * 4), *out = dalloc(n * 4);
    for (int i = 0; i < n; i++) in[i] = (float)(i % 97) * 0.25f;
    static const uint32_t threads[] = {1, 2, 4};
    static const uint64_t seeds[] = {0, 5, 99};
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++) {
            memset(out, 0, n * 4);
            timing_engine_config c = config(threads[t], seeds[s]);
            timing_stats st = {0};
            c.stats = &st;
            uint64_t args[] = {A(out), A(in), (uint64_t)n, F(3.0f)};
            run("scale", (n + 127) / 128, 128, args, &c, NULL);
            for (int i = 0; i < n; i++)
                ck_assert_msg(out[i] == in[i] * 3.0f + (float)i, "out[%d] = %g (threads %u seed %llu)",
                              i, out[i], threads[t], (unsigned long long)seeds[s]);
            ck_assert_uint_eq(st.grids, 1);
            ck_assert_uint_eq(st.ctas, 40);
            ck_assert_uint_gt(st.warp_instructions, 0);
        }
    emu_device_free(A(in));
    emu_device_free(A(out));
    unload();
}
END_TEST

START_TEST(atomics_are_host_atomics)
{
    load();
    const unsigned nb = 64, bs = 64, n = nb * bs;
    unsigned *counter = dalloc(4), *olds = dalloc(n * 4);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        *counter = 0;
        timing_engine_config c = config(t, t == 4 ? 3 : 0);
        uint64_t args[] = {A(counter), A(olds)};
        run("tickets", nb, bs, args, &c, NULL);
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
    emu_device_free(A(counter));
    emu_device_free(A(olds));
    unload();
}
END_TEST

/* Racey's signature of one run: a hash of the table and of every thread's value. */
static uint64_t racy_run(uint32_t threads, uint64_t seed, unsigned *m, unsigned *sig, unsigned n)
{
    for (unsigned k = 0; k < 64; k++) m[k] = (k + k * 103995407u) % 103072243u;
    for (unsigned t = 0; t < n; t++) sig[t] = t;
    timing_engine_config c = config(threads, seed);
    uint64_t args[] = {A(m), A(sig), 48};
    run("racy", n / 64, 64, args, &c, NULL);
    uint64_t h = 1469598103934665603ull;
    for (unsigned k = 0; k < 64; k++) h = (h ^ m[k]) * 1099511628211ull;
    for (unsigned t = 0; t < n; t++) h = (h ^ sig[t]) * 1099511628211ull;
    return h;
}

START_TEST(seed_perturbs_one_thread)
{
    load();
    const unsigned n = 256;
    unsigned *m = dalloc(64 * 4), *sig = dalloc(n * 4);
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
    emu_device_free(A(m));
    emu_device_free(A(sig));
    unload();
}
END_TEST

START_TEST(deadlock_stops_all_threads)
{
    load();
    const unsigned nb = 16, bs = 64;
    int *out = dalloc(nb * bs * 4);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        timing_engine_config c = config(t, t == 2 ? 11 : 0);
        emu_fault f;
        uint64_t args[] = {A(out), 5};
        ck_assert(!run("deadlock", nb, bs, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_BARRIER_DEADLOCK);
        ck_assert_uint_eq(f.cta.x, 5);
        ck_assert_msg(strstr(f.message, "deadlock") && strstr(f.message, "barrier"),
                      "message: %s", f.message);
    }
    emu_device_free(A(out));
    unload();
}
END_TEST

/* CTA 9 faults; every other CTA spins forever: only a fault that stops every host thread lets
 * the grid end (a hang fails the test by its timeout). */
START_TEST(fault_stops_all_threads)
{
    load();
    int *p = dalloc(64);
    memset(p, 0, 64);
    for (uint32_t t = 1; t <= 4; t *= 2) {
        timing_engine_config c = config(t, t == 4 ? 8 : 0);
        emu_fault f;
        uint64_t args[] = {A(p), 9, 1000};
        ck_assert(!run("fault_or_spin", 16, 32, args, &c, &f));
        ck_assert_int_eq(f.kind, EMU_FAULT_ILLEGAL_ADDRESS);
        ck_assert_uint_eq(f.cta.x, 9);
        ck_assert_msg(strstr(f.message, "out of bounds") && strstr(f.message, "fault_or_spin"),
                      "message: %s", f.message);
    }
    emu_device_free(A(p));
    unload();
}
END_TEST

/* With one host thread and seed 0 the first fault in CTA order wins. */
START_TEST(first_fault_fixed_order)
{
    load();
    int *p = dalloc(64);
    memset(p, 0, 64);
    timing_engine_config c = config(1, 0);
    emu_fault f;
    uint64_t args[] = {A(p), 3, 4};
    ck_assert(!run("fault_or_spin", 16, 32, args, &c, &f));
    ck_assert_uint_eq(f.cta.x, 3);
    emu_device_free(A(p));
    unload();
}
END_TEST

START_TEST(occupancy_limits)
{
    load();
    const ptx_function *k = ptx_find_function(pm, "block_sums");
    ck_assert(k != NULL);
    uint8_t params[64] = {0};
    emu_launch L = {0};
    L.module = em;
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
    unload();
}
END_TEST

START_TEST(cooperative_grid_resident)
{
    load();
    const unsigned nb = 8;
    unsigned *count = dalloc(4);
    int *vals = dalloc(nb * 4), *sums = dalloc(nb * 4);
    for (uint32_t t = 1; t <= 2; t++) {
        *count = 0;
        timing_engine_config c = config(t, t == 2 ? 4 : 0);
        c.sm_count = 2;
        c.max_ctas_per_sm = 1;   /* without cooperative, 2 of the 8 CTAs would fit */
        c.cooperative = true;
        uint64_t args[] = {A(count), A(vals), A(sums)};
        run("grid_barrier", nb, 64, args, &c, NULL);
        for (unsigned b = 0; b < nb; b++) ck_assert_int_eq(sums[b], 36);
    }
    emu_device_free(A(count));
    emu_device_free(A(vals));
    emu_device_free(A(sums));
    unload();
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
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
