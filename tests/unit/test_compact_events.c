/* test_compact_events.c: a compact memory event (EMU_EV_COMPACT: a base, a stride between
 * neighbours and one between half-warps, instead of 32 addresses) means exactly the access
 * its full form (every lane's address in lane_addr) means.
 * Each access below is built both ways, the compact one with garbage in lane_addr so that a
 * consumer reading a stale slot shows, and handed to the consumers: the cycle model's
 * coalescer and caches (timing/model/memsys.c: its result and every statistic), the --stats
 * metrics (timing/observe/metrics.c: sectors and wavefronts), and the accessors of emu.h.
 * Shapes: contiguous words, doubles and vectors, one address for all, strides within a line,
 * across sectors and lines, a row apart, negative, a 16-wide block's two rows (apart, the same,
 * overlapping, before), partial masks (one lane, alternate lanes, the upper half), and bases
 * that put lanes across sector and line boundaries. (That the
 * interpreter writes the compact form, with the kernel's addresses: test_events.c.) */
#include "tests/unit/ptx_kernels.h"
#include "timing/model/model.h"
#include "timing/timing.h"
#include "emulator/sem/sem.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

typedef struct shape {
    uint8_t cls, space;
    uint16_t size;
    uint64_t base;
    int32_t stride, half;   /* half: 0x7fffffff for a single stride (16 * stride) */
    uint32_t mask;
} shape;

#define ONE 0x7fffffff

static int32_t half_of(const shape *s) { return s->half == ONE ? 16 * s->stride : s->half; }

static uint64_t lane_address(const shape *s, int l)
{
    return s->base + (uint64_t)((int64_t)s->stride * (l % 16) + (int64_t)half_of(s) * (l / 16));
}

/* The event of shape s, compact or in full; its lanes' addresses in `addr` (what a compact
 * event's stale row holds, for a compact one). */
static emu_event event_of(const shape *s, bool compact, uint64_t addr[EMU_WARP_SIZE])
{
    emu_event e;
    memset(&e, 0, sizeof e);
    e.lane_addr = addr;
    e.cls = s->cls;
    e.space = s->space;
    e.active = UINT32_MAX;
    e.mask = e.mem_lanes = s->mask;
    e.size = s->size;
    e.flags = EMU_EV_MEM;
    if (compact) {
        e.flags |= EMU_EV_COMPACT;
        e.base = s->base;
        e.stride = s->stride;
        e.half_stride = half_of(s);
        /* what a stale slot would hold: far from every address here */
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            e.lane_addr[l] = UINT64_C(0x7777000000000) + 4096 * (uint64_t)l;
    } else {
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            if (s->mask >> l & 1) e.lane_addr[l] = lane_address(s, l);
    }
    return e;
}

#define G 0x10000000u   /* a global base, line aligned */
#define SH EMU_SHARED_WINDOW

static const shape shapes[] = {
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G, 4, ONE, UINT32_MAX},          /* contiguous words */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 64, 8, ONE, UINT32_MAX},     /* doubles, 2 lines */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 16, G, 16, ONE, UINT32_MAX},        /* .v4 */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 8, 0, ONE, UINT32_MAX},      /* one address */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G, 1024, ONE, UINT32_MAX},       /* a row apart */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 20, 36, ONE, UINT32_MAX},    /* across sectors */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 124, 8, ONE, UINT32_MAX},    /* across lines */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 28, 12, ONE, 0x0000ffffu},   /* across sectors */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 4096, -4, ONE, UINT32_MAX},  /* descending */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G, 4, ONE, 0x00000001u},         /* one lane */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G, 4, ONE, 0x80000000u},         /* the last lane */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G, 4, ONE, 0x55555555u},         /* alternate lanes */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 96, 4, ONE, 0xffff0000u},    /* upper half */
    /* a 16 x 16 block's warp: two rows of a 256-float matrix, of a shared tile, one column */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 64, 4, 1024, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 96, 4, 16, UINT32_MAX},    /* overlapping */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 4096, 8, -2048, UINT32_MAX}, /* row before */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 128, 4, 0, UINT32_MAX},    /* rows the same */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 200, 4, 1024, 0x00ff00f0u},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 16, G + 48, 16, 32, UINT32_MAX},  /* across lines */
    /* every lane, addresses not decreasing (the coalescer takes them a sector at a time):
     * the second row from the first's last lane, lanes a sector and two apart, halves and
     * bytes across a line, atomics (their lane counts) */
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 100, 4, 60, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 120, 8, ONE, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 64, 32, ONE, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 12, 64, 1280, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 2, G + 98, 2, 40, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 1, G + 119, 1, 16, UINT32_MAX},
    {EMU_CLS_ATOMIC, PTX_SPACE_GLOBAL, 4, G + 1536 + 116, 4, 64, UINT32_MAX},
    {EMU_CLS_ATOMIC, PTX_SPACE_GLOBAL, 8, G + 1792, 8, ONE, UINT32_MAX},
    {EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 8, G + 8, 8, 112, UINT32_MAX},   /* lane 16 back */
    {EMU_CLS_ST_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 512, 4, ONE, UINT32_MAX},
    {EMU_CLS_ST_GLOBAL, PTX_SPACE_GLOBAL, 4, G + 640, 128, ONE, 0x0f0f0f0fu},
    {EMU_CLS_ATOMIC, PTX_SPACE_GLOBAL, 4, G + 768, 0, ONE, UINT32_MAX},
    {EMU_CLS_LD_GENERIC, PTX_SPACE_NONE, 4, G + 1000, 4, ONE, UINT32_MAX},    /* generic, global */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH, 4, ONE, UINT32_MAX},         /* no conflict */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 8, 0, ONE, UINT32_MAX},     /* broadcast */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH, 8, ONE, UINT32_MAX},         /* 2-way */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH, 128, ONE, UINT32_MAX},       /* 32-way */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 8, SH + 4, 8, ONE, UINT32_MAX},     /* doubles, offset */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 4096, -132, ONE, 0x3c3c3c3cu},
    {EMU_CLS_ST_SHARED, PTX_SPACE_SHARED, 16, SH + 256, 16, ONE, UINT32_MAX},
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 1024, 0, 64, UINT32_MAX}, /* As[ty][k] */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 1024, 4, 0, UINT32_MAX},  /* Bs[k][tx] */
    {EMU_CLS_ST_SHARED, PTX_SPACE_SHARED, 4, SH + 2048, 4, 64, UINT32_MAX}, /* As[ty][tx] */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH, 64, 4, UINT32_MAX},        /* a column: 16-way */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH, 4, 128, UINT32_MAX},       /* rows: 2-way */
    {EMU_CLS_LD_GENERIC, PTX_SPACE_NONE, 4, SH + 512, 4, 64, UINT32_MAX},   /* generic, shared */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 60, 4, -60, UINT32_MAX},
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 2, 4, 64, UINT32_MAX},    /* unaligned */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 1, SH + 3, 1, 128, UINT32_MAX},   /* bytes */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 2, SH + 6, 2, 200, UINT32_MAX},   /* halves */
    {EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, 4, SH + 12, 8, 256, 0xffff00ffu},
    {EMU_CLS_LD_GENERIC, PTX_SPACE_NONE, 4, SH + 64, 4, ONE, 0xfffffffeu},    /* generic, shared */
    {EMU_CLS_LD_PARAM, PTX_SPACE_PARAM, 8, EMU_PARAM_WINDOW + 16, 0, ONE, UINT32_MAX},
    {EMU_CLS_LD_PARAM, PTX_SPACE_PARAM, 4, EMU_PARAM_WINDOW + 8, 0, 4, UINT32_MAX},
    {EMU_CLS_LD_CONST, PTX_SPACE_CONST, 4, G + 2048, 4, ONE, 0x000000ffu},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

START_TEST(accessors_agree)
{
    for (size_t i = 0; i < NSHAPES; i++) {
        uint64_t rf[EMU_WARP_SIZE], rc[EMU_WARP_SIZE];
        emu_event f = event_of(&shapes[i], false, rf), c = event_of(&shapes[i], true, rc);
        uint64_t bf[EMU_WARP_SIZE], bc[EMU_WARP_SIZE];
        const uint64_t *af = emu_event_addrs(&f, bf), *ac = emu_event_addrs(&c, bc);
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            if (!(shapes[i].mask >> l & 1)) continue;
            uint64_t want = lane_address(&shapes[i], l);
            ck_assert_uint_eq(emu_event_lane_addr(&f, l), want);
            ck_assert_uint_eq(emu_event_lane_addr(&c, l), want);
            ck_assert_uint_eq(af[l], want);
            ck_assert_uint_eq(ac[l], want);
        }
    }
}
END_TEST

/* Every shape on each configuration, one after another on one model (so later accesses meet
 * the lines earlier ones left in the caches): the compact run's results and statistics are the
 * full run's. */
static void model_agrees(const char *gpu)
{
    const timing_gpu *g = timing_gpu_find(gpu);
    ck_assert_ptr_nonnull(g);
    timing_stats sf, sc;
    memset(&sf, 0, sizeof sf);
    memset(&sc, 0, sizeof sc);
    tm_mem mf, mc;
    ck_assert(tm_mem_init(&mf, g, 2, &sf));
    ck_assert(tm_mem_init(&mc, g, 2, &sc));
    uint64_t now = 0;
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < NSHAPES; i++, now += 3) {
            uint64_t rf[EMU_WARP_SIZE], rc[EMU_WARP_SIZE];
            emu_event f = event_of(&shapes[i], false, rf), c = event_of(&shapes[i], true, rc);
            uint32_t sm = (uint32_t)(i % 2);
            tm_access af = tm_mem_access(&mf, sm, now, &f);
            tm_access ac = tm_mem_access(&mc, sm, now, &c);
            ck_assert_msg(af.done == ac.done && af.lsu_cycles == ac.lsu_cycles,
                          "%s shape %zu: full done %llu lsu %u, compact done %llu lsu %u", gpu, i,
                          (unsigned long long)af.done, af.lsu_cycles,
                          (unsigned long long)ac.done, ac.lsu_cycles);
            if (tm_is_pend(af.done)) {
                ck_assert_uint_eq(tm_mem_settle(&mf, af.done), tm_mem_settle(&mc, ac.done));
            }
        }
        now += 2000;
    }
    ck_assert_msg(memcmp(&sf, &sc, sizeof sf) == 0, "%s: statistics differ", gpu);
    ck_assert_uint_gt(sf.smem_wavefronts, sf.smem_requests);   /* the conflicts were seen */
    tm_mem_free(&mf);
    tm_mem_free(&mc);
}

START_TEST(model_agrees_v100) { model_agrees("v100"); }
END_TEST
START_TEST(model_agrees_gtx480) { model_agrees("gtx480"); }
END_TEST

/* Each shape alone, so that a shape the metrics take a shortcut for (progression_sectors) is
 * compared with the general walk of its lanes' addresses. */
START_TEST(metrics_agree)
{
    timing_metrics tf;
    memset(&tf, 0, sizeof tf);
    for (size_t i = 0; i < NSHAPES; i++) {
        uint64_t rf[EMU_WARP_SIZE], rc[EMU_WARP_SIZE];
        emu_event full = event_of(&shapes[i], false, rf), compact = event_of(&shapes[i], true, rc);
        timing_metrics mf, mc;
        memset(&mf, 0, sizeof mf);
        memset(&mc, 0, sizeof mc);
        timing_metrics_counter cf, cc;
        emu_event_sink *kf = timing_metrics_begin(&cf, &mf), *kc = timing_metrics_begin(&cc, &mc);
        kf->consume(kf, NULL, &full, 1);
        kc->consume(kc, NULL, &compact, 1);
        timing_metrics_end(&cf);
        timing_metrics_end(&cc);
        ck_assert_msg(mf.global_requests == mc.global_requests &&
                          mf.global_sectors == mc.global_sectors &&
                          mf.shared_requests == mc.shared_requests &&
                          mf.shared_wavefronts == mc.shared_wavefronts,
                      "shape %zu: full %llu/%llu %llu/%llu, compact %llu/%llu %llu/%llu", i,
                      (unsigned long long)mf.global_requests,
                      (unsigned long long)mf.global_sectors,
                      (unsigned long long)mf.shared_requests,
                      (unsigned long long)mf.shared_wavefronts,
                      (unsigned long long)mc.global_requests,
                      (unsigned long long)mc.global_sectors,
                      (unsigned long long)mc.shared_requests,
                      (unsigned long long)mc.shared_wavefronts);
        ck_assert_uint_eq(mf.warp_instructions, 1);
        ck_assert_uint_eq(mc.thread_instructions, mf.thread_instructions);
        tf.global_sectors += mf.global_sectors;
        tf.global_requests += mf.global_requests;
        tf.shared_wavefronts += mf.shared_wavefronts;
        tf.shared_requests += mf.shared_requests;
    }
    ck_assert_uint_gt(tf.global_sectors, tf.global_requests);
    ck_assert_uint_gt(tf.shared_wavefronts, tf.shared_requests);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("compact_events");
    TCase *t = tcase_create("core");
    tcase_add_test(t, accessors_agree);
    tcase_add_test(t, model_agrees_v100);
    tcase_add_test(t, model_agrees_gtx480);
    tcase_add_test(t, metrics_agree);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(suite()); }
