/* test_emu_barrier.c: CTA barriers with independent thread scheduling (sm_70+): a barrier counts
 * the threads that execute it and blocks only them, so the lanes of one warp may arrive on
 * separate paths (non-.aligned barrier.sync), and lanes split off by spin-loop scheduling wait
 * at bar.sync until every thread of the CTA is there. Hand-written PTX; each result is checked
 * against a CPU reference, under several engines, host-thread counts and scheduling seeds. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n\n"

/* Every thread t writes sh[t] = 3t+1 and then passes barrier 0; warp 1 first idles in a loop,
 * so early-released lanes of warp 0 would read slots it has not written yet. Warp 0 diverges
 * by lane parity and each half executes its own barrier.sync 0. After the barrier each thread
 * reads the slot of thread 63 - t. */
static const char *DIVERGED =
    HDR
    ".visible .entry diverged(.param .u64 out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 sh[64];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd2, sh;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n"
    "  mad.lo.u32 %r2, %r1, 3, 1;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WARP0;\n"
    "  mov.u32 %r3, 0;\n"
    "IDLE:\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p2, %r3, 300;\n"
    "  @%p2 bra IDLE;\n"
    "  st.shared.u32 [%rd4], %r2;\n"
    "  barrier.sync 0; // warp 1 barrier\n"
    "  bra JOIN;\n"
    "WARP0:\n"
    "  and.b32 %r4, %r1, 1;\n"
    "  setp.eq.u32 %p3, %r4, 1;\n"
    "  @%p3 bra ODD;\n"
    "  st.shared.u32 [%rd4], %r2;\n"
    "  barrier.sync 0; // even lanes barrier\n"
    "  bra JOIN;\n"
    "ODD:\n"
    "  st.shared.u32 [%rd4], %r2;\n"
    "  barrier.sync 0; // odd lanes barrier\n"
    "JOIN:\n"
    "  mov.u32 %r5, 63;\n"
    "  sub.u32 %r6, %r5, %r1;\n"
    "  mul.wide.u32 %rd5, %r6, 4;\n"
    "  add.u64 %rd6, %rd2, %rd5;\n"
    "  ld.shared.u32 %r7, [%rd6];\n"
    "  mov.u32 %r8, %ctaid.x;\n"
    "  mad.lo.u32 %r9, %r8, 64, %r1;\n"
    "  mul.wide.u32 %rd5, %r9, 4;\n"
    "  add.u64 %rd7, %rd1, %rd5;\n"
    "  st.global.u32 [%rd7], %r7;\n"
    "  ret;\n}\n";

/* Every thread takes a global spin lock (its warp-mates spin while one lane holds it, which
 * forces spin-loop scheduling to split the warp), writes its slot and the order it entered in
 * inside the critical section, releases the lock and passes bar.sync 0; then it counts the
 * written slots of its CTA, which must be all of them. */
static const char *SPINLOCK =
    HDR
    ".visible .entry spinbar(.param .u64 lock, .param .u64 slots, .param .u64 out,\n"
    "                        .param .u64 ticket, .param .u64 order)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd11, [ticket];\n"
    "  ld.param.u64 %rd12, [order];\n"
    "  ld.param.u64 %rd1, [lock];\n"
    "  ld.param.u64 %rd2, [slots];\n"
    "  ld.param.u64 %rd3, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.u32 %r3, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd4, %r3, 4;\n"
    "  add.u64 %rd5, %rd2, %rd4;\n"
    "LOCK:\n"
    "  atom.global.cas.b32 %r4, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r4, 0;\n"
    "  @%p1 bra LOCK;\n"
    "  add.u32 %r5, %r3, 1;\n"
    "  st.volatile.global.u32 [%rd5], %r5;\n"
    "  atom.global.add.u32 %r11, [%rd11], 1;\n"
    "  mul.wide.u32 %rd13, %r11, 4;\n"
    "  add.u64 %rd14, %rd12, %rd13;\n"
    "  st.global.u32 [%rd14], %r3;\n"
    "  membar.gl;\n"
    "  atom.global.exch.b32 %r6, [%rd1], 0;\n"
    "  bar.sync 0; // the barrier\n"
    "  mul.wide.u32 %rd6, %r2, 256;\n"
    "  add.u64 %rd7, %rd2, %rd6;\n"
    "  mov.u32 %r7, 0;\n"
    "  mov.u32 %r8, 0;\n"
    "COUNT:\n"
    "  mul.wide.u32 %rd8, %r8, 4;\n"
    "  add.u64 %rd9, %rd7, %rd8;\n"
    "  ld.volatile.global.u32 %r9, [%rd9];\n"
    "  setp.ne.u32 %p2, %r9, 0;\n"
    "  selp.u32 %r10, 1, 0, %p2;\n"
    "  add.u32 %r7, %r7, %r10;\n"
    "  add.u32 %r8, %r8, 1;\n"
    "  setp.lt.u32 %p3, %r8, 64;\n"
    "  @%p3 bra COUNT;\n"
    "  add.u64 %rd10, %rd3, %rd4;\n"
    "  st.global.u32 [%rd10], %r7;\n"
    "  ret;\n}\n";

/* Two paths reach one barrier.sync with different reconvergence points. In each warp, lanes
 * 0-15 branch to TSIDE, where lanes 0-7 go to Y and lanes 8-15 fall through to X (that branch
 * reconverges at R); lanes 16-31 take a branch to X that is uniform at run time but could skip
 * R by way of W, so the outer branch reconverges only at END. After the barrier every thread
 * runs on along its own path: lanes 0-7 run Y, R and END, all the others X, R and END. Each
 * thread adds the weight of every block it runs and stores the sum: 1101 for lanes 0-7, 1110
 * for lanes 8-31. (A SIMT model that merged the lanes waiting at X into one path would take
 * the lanes 16-31 to END at R, skipping R's block.) */
static const char *TWO_RECONV =
    HDR
    ".visible .entry tworeconv(.param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 31;\n"
    "  mov.u32 %r3, 0;\n"
    "  setp.lt.u32 %p1, %r2, 16;\n"
    "  @%p1 bra TSIDE;\n"
    "  setp.lt.u32 %p2, %r1, 1024; // true in every thread\n"
    "  @%p2 bra X;\n"
    "W:\n"
    "  add.u32 %r3, %r3, 5000;\n"
    "  bra END;\n"
    "TSIDE:\n"
    "  setp.lt.u32 %p3, %r2, 8;\n"
    "  @%p3 bra Y;\n"
    "X:\n"
    "  barrier.sync 0; // lanes 8-31\n"
    "  add.u32 %r3, %r3, 10;\n"
    "  bra R;\n"
    "Y:\n"
    "  barrier.sync 0; // lanes 0-7\n"
    "  add.u32 %r3, %r3, 1;\n"
    "R:\n"
    "  add.u32 %r3, %r3, 100;\n"
    "END:\n"
    "  add.u32 %r3, %r3, 1000;\n"
    "  mov.u32 %r4, %ctaid.x;\n"
    "  mad.lo.u32 %r5, %r4, 64, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";

/* bar.red over a warp diverged by lane parity: each half runs its own barrier.red with its own
 * destination registers, warp 1 runs a third copy; popc of (t % 3 == 0), and of (t != 7), or
 * of (t == 45) over the 64 threads. */
static const char *REDUCE =
    HDR
    ".visible .entry reduce(.param .u64 out)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .pred %p<16>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 3;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  setp.ne.u32 %p2, %r1, 7;\n"
    "  setp.eq.u32 %p3, %r1, 45;\n"
    "  setp.ge.u32 %p4, %r1, 32;\n"
    "  @%p4 bra WARP1;\n"
    "  and.b32 %r3, %r1, 1;\n"
    "  setp.eq.u32 %p5, %r3, 1;\n"
    "  @%p5 bra ODD;\n"
    "  barrier.red.popc.u32 %r10, 0, %p1;\n"
    "  barrier.red.and.pred %p6, 0, %p2;\n"
    "  barrier.red.or.pred %p7, 0, %p3;\n"
    "  bra STORE;\n"
    "ODD:\n"
    "  barrier.red.popc.u32 %r11, 0, %p1;\n"
    "  barrier.red.and.pred %p8, 0, %p2;\n"
    "  barrier.red.or.pred %p9, 0, %p3;\n"
    "  mov.u32 %r10, %r11;\n"
    "  mov.pred %p6, %p8;\n"
    "  mov.pred %p7, %p9;\n"
    "  bra STORE;\n"
    "WARP1:\n"
    "  bar.red.popc.u32 %r10, 0, %p1;\n"
    "  bar.red.and.pred %p6, 0, %p2;\n"
    "  bar.red.or.pred %p7, 0, %p3;\n"
    "STORE:\n"
    "  selp.u32 %r12, 1, 0, %p6;\n"
    "  selp.u32 %r13, 1, 0, %p7;\n"
    "  mul.lo.u32 %r14, %r1, 3;\n"
    "  mul.wide.u32 %rd2, %r14, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r10;\n"
    "  st.global.u32 [%rd3+4], %r12;\n"
    "  st.global.u32 [%rd3+8], %r13;\n"
    "  ret;\n}\n";

/* Lanes 16-31 of each warp wait at barrier 1 for 64 threads; lanes 0-15 exit, so only 32
 * threads are left and the barrier can never complete. */
static const char *DEADLOCK =
    HDR
    ".visible .entry stuck()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %laneid;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n"
    "  @%p1 bra DONE;\n"
    "  barrier.sync 1, 64; // waits forever\n"
    "DONE:\n"
    "  ret;\n}\n";

static pk_module mod;

static void load(const char *text) { mod = pk_load_text(text, strlen(text), "barrier.ptx"); }
static void unload(void) { pk_unload(&mod); }

static uint32_t line_of(const char *text, const char *marker)
{
    const char *p = strstr(text, marker);
    if (!p) return 0;
    uint32_t line = 1;
    for (const char *q = text; q < p; q++) line += *q == '\n';
    return line;
}

/* The engine configurations every test runs under: the fixed order with small and large warp
 * budgets, seeded orders on one and two host threads, and GPUDet on one and two threads. */
enum { NCFG = 6 };
static void config(int i, timing_engine_config *cfg)
{
    timing_engine_defaults(cfg);
    cfg->sm_count = 2;
    switch (i) {
    case 0: cfg->warp_budget = 7; break;
    case 1: cfg->warp_budget = 5000; break;
    case 2: cfg->seed = 3; break;
    case 3: cfg->seed = 11; cfg->host_threads = 2; break;
    case 4: cfg->det = TIMING_DET_GPUDET; break;
    default: cfg->det = TIMING_DET_GPUDET; cfg->host_threads = 2; cfg->quantum = 50; break;
    }
}

/* cfg_index < 0: GPUDet on `threads` host threads with scheduling seed `seed`. */
static bool run_cfg(const char *kernel, uint32_t grid, const uint64_t *args, int cfg_index,
                    uint32_t threads, uint64_t seed, emu_fault *fault)
{
    timing_engine_config cfg;
    if (cfg_index >= 0) {
        config(cfg_index, &cfg);
    } else {
        timing_engine_defaults(&cfg);
        cfg.sm_count = 2;
        cfg.det = TIMING_DET_GPUDET;
        cfg.host_threads = threads;
        cfg.seed = seed;
    }
    pk_launch l = { .grid = { grid, 1, 1 }, .block = { 64, 1, 1 }, .sm_count = 2, .cfg = &cfg };
    emu_fault f;
    bool ok = pk_run(&mod, kernel, &l, args, &f);
    ck_assert_msg(ok || fault, "%s (config %d) faulted: %s", kernel, cfg_index, f.message);
    if (!ok) *fault = f;
    return ok;
}

static bool run(const char *kernel, uint32_t grid, const uint64_t *args, int cfg_index,
                emu_fault *fault)
{
    return run_cfg(kernel, grid, args, cfg_index, 0, 0, fault);
}

START_TEST(diverged_paths_meet_at_one_barrier)
{
    load(DIVERGED);
    const uint32_t grid = 3;
    uint32_t *out = pk_dalloc(grid * 64 * 4);
    uint64_t args[] = { pk_addr(out) };
    run("diverged", grid, args, _i, NULL);
    for (uint32_t b = 0; b < grid; b++)
        for (uint32_t t = 0; t < 64; t++)
            ck_assert_msg(out[b * 64 + t] == 3 * (63 - t) + 1,
                          "config %d block %u thread %u read %u, expected %u", _i, b, t,
                          out[b * 64 + t], 3 * (63 - t) + 1);
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(paths_at_one_barrier_keep_their_reconvergence)
{
    load(TWO_RECONV);
    const uint32_t grid = 2;
    uint32_t *out = pk_dalloc(grid * 64 * 4);
    uint64_t args[] = { pk_addr(out) };
    run("tworeconv", grid, args, _i, NULL);
    for (uint32_t t = 0; t < grid * 64; t++) {
        uint32_t want = t % 32 < 8 ? 1101 : 1110;
        ck_assert_msg(out[t] == want, "config %d thread %u ran blocks worth %u, expected %u", _i,
                      t, out[t], want);
    }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

/* Runs spinbar on 2 CTAs under configuration cfg_index (or GPUDet on `threads` host threads
 * with `seed` when cfg_index < 0); checks it and returns the order the threads took the lock. */
static void run_spinbar(int cfg_index, uint32_t threads, uint64_t seed, uint32_t order_out[128])
{
    const uint32_t grid = 2, n = grid * 64;
    uint32_t *lock = pk_dalloc(4), *slots = pk_dalloc(n * 4), *out = pk_dalloc(n * 4);
    uint32_t *ticket = pk_dalloc(4), *order = pk_dalloc(n * 4);
    uint64_t args[] = { pk_addr(lock), pk_addr(slots), pk_addr(out), pk_addr(ticket), pk_addr(order) };
    run_cfg("spinbar", grid, args, cfg_index, threads, seed, NULL);
    ck_assert_uint_eq(*lock, 0);
    ck_assert_uint_eq(*ticket, n);
    bool seen[128] = { false };
    for (uint32_t t = 0; t < n; t++) {
        ck_assert_uint_eq(slots[t], t + 1);
        ck_assert_msg(out[t] == 64, "config %d: thread %u passed the barrier after only %u of "
                      "64 slots were written", cfg_index, t, out[t]);
        ck_assert(order[t] < n && !seen[order[t]]);   /* each thread entered once */
        seen[order[t]] = true;
    }
    if (order_out) memcpy(order_out, order, n * 4);
    emu_device_free(pk_addr(lock));
    emu_device_free(pk_addr(slots));
    emu_device_free(pk_addr(out));
    emu_device_free(pk_addr(ticket));
    emu_device_free(pk_addr(order));
}

START_TEST(spin_lock_then_barrier)
{
    load(SPINLOCK);
    run_spinbar(_i, 0, 0, NULL);
    unload();
}
END_TEST

/* Under GPUDet the order in which the lanes of the split warps take the lock is the same for
 * every host-thread count and seed. */
START_TEST(spin_lock_order_deterministic)
{
    load(SPINLOCK);
    static const struct { uint32_t threads; uint64_t seed; } runs[] = {
        { 1, 0 }, { 2, 1 }, { 4, 2 }, { 2, 3 }, { 4, 7 },
    };
    uint32_t first[128], order[128];
    run_spinbar(-1, runs[0].threads, runs[0].seed, first);
    for (size_t r = 1; r < sizeof runs / sizeof runs[0]; r++) {
        run_spinbar(-1, runs[r].threads, runs[r].seed, order);
        for (int t = 0; t < 128; t++)
            ck_assert_msg(order[t] == first[t], "threads %u seed %llu: ticket %d went to "
                          "thread %u, with one thread to %u", runs[r].threads,
                          (unsigned long long)runs[r].seed, t, order[t], first[t]);
    }
    unload();
}
END_TEST

START_TEST(reductions_over_diverged_warp)
{
    load(REDUCE);
    uint32_t *out = pk_dalloc(64 * 3 * 4);
    for (int i = 0; i < 64 * 3; i++) out[i] = 0xdeadu;
    uint64_t args[] = { pk_addr(out) };
    run("reduce", 1, args, _i, NULL);
    uint32_t popc = 0;
    bool all = true, any = false;
    for (uint32_t t = 0; t < 64; t++) {
        popc += t % 3 == 0;
        all = all && t != 7;
        any = any || t == 45;
    }
    ck_assert_uint_eq(popc, 22);
    for (uint32_t t = 0; t < 64; t++) {
        ck_assert_msg(out[t * 3] == popc, "config %d thread %u: popc %u", _i, t, out[t * 3]);
        ck_assert_msg(out[t * 3 + 1] == (uint32_t)all, "config %d thread %u: and %u", _i, t,
                      out[t * 3 + 1]);
        ck_assert_msg(out[t * 3 + 2] == (uint32_t)any, "config %d thread %u: or %u", _i, t,
                      out[t * 3 + 2]);
    }
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(partial_warps_deadlock_reported)
{
    load(DEADLOCK);
    emu_fault f;
    ck_assert(!run("stuck", 1, NULL, _i, &f));
    ck_assert_int_eq(f.kind, EMU_FAULT_BARRIER_DEADLOCK);
    /* the first waiting thread is lane 16 of warp 0; lanes 0-15 have exited */
    ck_assert_uint_eq(f.thread.x, 16);
    ck_assert_uint_eq(f.ptx_line, line_of(DEADLOCK, "barrier.sync 1"));
    char line[32];
    snprintf(line, sizeof line, "PTX line %u", line_of(DEADLOCK, "barrier.sync 1"));
    ck_assert_msg(strstr(f.message, "deadlock") && strstr(f.message, "barrier 1 expects 64") &&
                  strstr(f.message, "only 32 of the 32 live threads") &&
                  strstr(f.message, "warp 0 lanes 16-31") &&
                  strstr(f.message, "warp 1 lanes 16-31") && strstr(f.message, line),
                  "message: %s", f.message);
    unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu_barrier");
    TCase *tc = tcase_create("its_barriers");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, diverged_paths_meet_at_one_barrier, 0, NCFG);
    tcase_add_loop_test(tc, paths_at_one_barrier_keep_their_reconvergence, 0, NCFG);
    tcase_add_loop_test(tc, spin_lock_then_barrier, 0, NCFG);
    tcase_add_test(tc, spin_lock_order_deterministic);
    tcase_add_loop_test(tc, reductions_over_diverged_warp, 0, NCFG);
    tcase_add_loop_test(tc, partial_warps_deadlock_reported, 0, NCFG);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
