/* test_events.c: the executor's event stream: one event per issued warp instruction (guarded-
 * off ones included) in issue order, with the masks, per-lane addresses of every space, branch
 * outcomes and stop reasons; the same stream from the block and the step executors; and no
 * event when no sink is installed. */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu_internal.h"

#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Each thread: loads in[tid], stores it to shared, a divergent branch on tid < 8, a guarded-
 * off instruction, a barrier, a shared load of the neighbour's value, a global store. */
static const char *KERNEL = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.shared .align 4 .b8 sh[256];\n"
    "ld.param.u64 %rd1, [in];\n"                 /* 0 */
    "ld.param.u64 %rd2, [out];\n"                /* 1 */
    "mov.u32 %r1, %tid.x;\n"                     /* 2 */
    "mul.wide.u32 %rd3, %r1, 4;\n"               /* 3 */
    "add.s64 %rd4, %rd1, %rd3;\n"                /* 4 */
    "ld.global.u32 %r2, [%rd4];\n"               /* 5 */
    "mov.u32 %r3, sh;\n"                         /* 6 */
    "shl.b32 %r4, %r1, 2;\n"                     /* 7 */
    "add.s32 %r5, %r3, %r4;\n"                   /* 8 */
    "st.shared.u32 [%r5], %r2;\n"                /* 9 */
    "setp.lt.u32 %p1, %r1, 8;\n"                 /* 10 */
    "@%p1 bra SMALL;\n"                          /* 11 */
    "add.s32 %r2, %r2, 100;\n"                   /* 12 */
    "bra.uni JOIN;\n"                            /* 13 */
    "SMALL:\n"
    "add.s32 %r2, %r2, 1;\n"                     /* 14 */
    "JOIN:\n"
    "setp.gt.u32 %p2, %r1, 99;\n"                /* 15 */
    "@%p2 add.s32 %r2, %r2, 7;\n"                /* 16: off for every lane */
    "bar.sync 0;\n"                              /* 17 */
    "xor.b32 %r6, %r1, 1;\n"                     /* 18 */
    "shl.b32 %r7, %r6, 2;\n"                     /* 19 */
    "add.s32 %r8, %r3, %r7;\n"                   /* 20 */
    "ld.shared.u32 %r9, [%r8];\n"                /* 21 */
    "add.s32 %r10, %r9, %r2;\n"                  /* 22 */
    "add.s64 %rd5, %rd2, %rd3;\n"                /* 23 */
    "st.global.u32 [%rd5], %r10;\n"              /* 24 */
    "ret;\n}\n";

enum { MAXEV = 4096 };

typedef struct recorder {
    emu_event_sink sink;
    pthread_mutex_t lock;
    emu_event ev[MAXEV];
    uint64_t addr[MAXEV][EMU_WARP_SIZE];   /* the full events' addresses (emu_event_copy) */
    uint32_t warp[MAXEV];
    uint64_t cta[MAXEV];
    uint32_t n;
} recorder;

static void record(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    recorder *r = self->state;
    pthread_mutex_lock(&r->lock);
    for (uint32_t i = 0; i < n && r->n < MAXEV; i++) {
        r->ev[r->n] = emu_event_copy(&ev[i], r->addr[r->n]);
        r->warp[r->n] = emu_warp_id(w);
        r->cta[r->n] = emu_warp_cta_linear(w);
        r->n++;
    }
    pthread_mutex_unlock(&r->lock);
}

static pk_module mod;
static uint32_t *in, *out;

static void setup(void)
{
    mod = pk_load_text(KERNEL, strlen(KERNEL), "events.ptx");
    in = pk_dalloc(64 * 4);
    out = pk_dalloc(64 * 4);
    for (uint32_t i = 0; i < 64; i++) in[i] = 1000 + i;
}

static void teardown(void)
{
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    pk_unload(&mod);
}

/* Runs k with 64 threads (two warps) on executor x; events into r (NULL: no sink). */
static void run_k(recorder *r, uint8_t executor)
{
    if (r) {
        memset(r, 0, sizeof *r);
        pthread_mutex_init(&r->lock, NULL);
        r->sink.consume = record;
        r->sink.state = r;
    }
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    const ptx_function *k = pk_kernel(&mod, "k");
    uint8_t params[PK_PARAMS_MAX];
    size_t psz = pk_pack_args(&mod, k, args, params);
    emu_launch L = {
        .module = mod.emu, .kernel = k, .grid = { 1, 1, 1 }, .block = { 64, 1, 1 },
        .params = params, .params_size = psz, .policy = emu_direct_policy(), .sm_count = 1,
        .executor = executor, .events = r ? &r->sink : NULL,
    };
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert_msg(g != NULL, "%s", f.message);
    timing_engine_config cfg;
    timing_engine_defaults(&cfg);
    cfg.sm_count = 1;
    cfg.warp_budget = 5;   /* many short runs: the ring is flushed at every stop */
    ck_assert(timing_run_grid(g, &cfg));
    emu_grid_destroy(g);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t mine = in[t] + (t < 8 ? 1 : 100), other = in[t ^ 1];
        ck_assert_uint_eq(out[t], other + mine);
    }
}

/* The events of one warp, in order. */
static uint32_t warp_events(const recorder *r, uint32_t warp, const emu_event **v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->n; i++)
        if (r->warp[i] == warp) v[n++] = &r->ev[i];
    return n;
}

START_TEST(one_event_per_issued_instruction)
{
    static recorder r;
    run_k(&r, EMU_EXECUTOR_INTERP);
    static const emu_event *v[MAXEV];
    /* warp 0: lanes 0-7 take the branch, the others fall through: 0..11, then the two paths
     * (12, 13 and 14), then 15..24 */
    uint32_t n = warp_events(&r, 0, v);
    ck_assert_uint_eq(n, 12 + 3 + 11);
    for (uint32_t i = 0; i < 12; i++) ck_assert_uint_eq(v[i]->pc, i);
    /* the branch: taken by lanes 0-7, divergent, reconverging at JOIN (15) */
    const emu_event *b = v[11];
    ck_assert(b->flags & EMU_EV_BRANCH);
    ck_assert(b->flags & EMU_EV_DIVERGED);
    ck_assert_uint_eq(b->taken, 0xffu);
    ck_assert_uint_eq(b->reconv, 15);
    ck_assert_uint_eq(b->cls, EMU_CLS_BRANCH);
    /* the taken path runs first, with its lanes only */
    ck_assert_uint_eq(v[12]->pc, 14);
    ck_assert_uint_eq(v[12]->active, 0xffu);
    ck_assert_uint_eq(v[13]->pc, 12);
    ck_assert_uint_eq(v[13]->active, 0xffffff00u);
    ck_assert_uint_eq(v[15]->pc, 15);
    ck_assert_uint_eq(v[15]->active, 0xffffffffu);
    /* the guarded-off add issues (and counts) with no lane */
    ck_assert_uint_eq(v[16]->pc, 16);
    ck_assert_uint_eq(v[16]->mask, 0);
    ck_assert_uint_eq(v[16]->active, 0xffffffffu);
    /* the barrier stops the warp */
    ck_assert_uint_eq(v[17]->pc, 17);
    ck_assert_uint_eq(v[17]->stop, EMU_STOP_BARRIER);
    /* global load: every lane's address */
    const emu_event *ld = v[5];
    ck_assert(ld->flags & EMU_EV_MEM);
    ck_assert_uint_eq(ld->cls, EMU_CLS_LD_GLOBAL);
    ck_assert_uint_eq(ld->mem_lanes, 0xffffffffu);
    ck_assert_uint_eq(ld->size, 4);
    for (uint32_t l = 0; l < 32; l++)
        ck_assert_uint_eq(emu_event_lane_addr(ld, (int)l), pk_addr(in) + 4 * l);
    /* contiguous: written compact (base and stride), not as 32 addresses */
    ck_assert(ld->flags & EMU_EV_COMPACT);
    ck_assert_int_eq(ld->stride, 4);
    /* shared accesses: addresses in the shared window, past the reserved region (none here) */
    const emu_event *sst = v[9], *sld = v[21];
    ck_assert_uint_eq(sst->cls, EMU_CLS_ST_SHARED);
    for (uint32_t l = 0; l < 32; l++) {
        uint64_t off;
        ck_assert_uint_eq(sem_generic_space(emu_event_lane_addr(sst, (int)l), &off),
                          PTX_SPACE_SHARED);
        ck_assert_uint_eq(off, 4 * l);
    }
    ck_assert_uint_eq(sld->pc, 21);
    for (uint32_t l = 0; l < 32; l++) {
        uint64_t off;
        sem_generic_space(emu_event_lane_addr(sld, (int)l), &off);
        ck_assert_uint_eq(off, 4 * (l ^ 1));
    }
    ck_assert(!(sld->flags & EMU_EV_COMPACT));   /* neighbours swapped: no stride, in full */
    /* warp 1: every lane falls through */
    n = warp_events(&r, 1, v);
    ck_assert_uint_eq(n, 12 + 2 + 11);
    ck_assert_uint_eq(v[11]->taken, 0);
    ck_assert(!(v[11]->flags & EMU_EV_DIVERGED));
    for (uint32_t l = 0; l < 32; l++)
        ck_assert_uint_eq(emu_event_lane_addr(v[5], (int)l), pk_addr(in) + 4 * (32 + l));
}
END_TEST

START_TEST(block_and_step_executors_agree)
{
    static recorder a, b;
    run_k(&a, EMU_EXECUTOR_INTERP);
    run_k(&b, EMU_EXECUTOR_STEP);
    ck_assert_uint_eq(a.n, b.n);
    static const emu_event *va[MAXEV], *vb[MAXEV];
    for (uint32_t w = 0; w < 2; w++) {
        uint32_t na = warp_events(&a, w, va), nb = warp_events(&b, w, vb);
        ck_assert_uint_eq(na, nb);
        for (uint32_t i = 0; i < na; i++) {
            const emu_event *x = va[i], *y = vb[i];
            ck_assert_msg(x->pc == y->pc && x->active == y->active && x->mask == y->mask &&
                          ((x->flags ^ y->flags) & ~EMU_EV_COMPACT) == 0 && x->stop == y->stop &&
                          x->taken == y->taken,
                          "warp %u event %u differs (pc %u/%u active %x/%x mask %x/%x flags %x/%x "
                          "stop %u/%u taken %x/%x)", w, i, x->pc, y->pc, x->active, y->active,
                          x->mask, y->mask, x->flags, y->flags, x->stop, y->stop, x->taken,
                          y->taken);
            if (x->flags & EMU_EV_MEM)
                for (uint32_t l = 0; l < 32; l++)
                    if (x->mem_lanes >> l & 1) ck_assert_uint_eq(emu_event_lane_addr(x, (int)l),
                                                                emu_event_lane_addr(y, (int)l));
        }
    }
}
END_TEST

START_TEST(no_sink_no_events)
{
    run_k(NULL, EMU_EXECUTOR_INTERP);   /* runs, and checks its results, without a sink */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("events");
    TCase *tc = tcase_create("events");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, one_event_per_issued_instruction);
    tcase_add_test(tc, block_and_step_executors_agree);
    tcase_add_test(tc, no_sink_no_events);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pk_main(suite());
}
