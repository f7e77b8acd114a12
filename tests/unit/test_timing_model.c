/* test_timing_model.c: the cycle model's memory system (timing/model/memsys.c, cache.c) on
 * single accesses, with latencies derived from the configuration's parameters: an L1 hit costs
 * l1_latency; an L2 hit the L1 lookup, a request flit, the interconnect both ways, l2_latency and
 * the reply's flits; a k-way shared-memory bank conflict k wavefronts (broadcasts free); a warp's
 * accesses take one load/store-unit cycle per 128-byte line; a second miss to a line in flight
 * merges with it; LRU replacement. And warps whose SIMT stack and call frames outgrow the storage
 * a CTA is lent in the model's slot block keep their results. */
#include "tests/unit/ptx_kernels.h"
#include "timing/model/model.h"
#include "emulator/sem/sem.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* A warp's full (not compact) memory event, lane l at base + l * stride; its addresses in
 * `addr`. */
static emu_event load(uint64_t addr[EMU_WARP_SIZE], uint8_t cls, uint8_t space, uint64_t base,
                      uint64_t stride)
{
    emu_event e;
    memset(&e, 0, sizeof e);
    e.lane_addr = addr;
    e.cls = cls;
    e.space = space;
    e.mask = e.active = e.mem_lanes = 0xffffffffu;
    e.size = 4;
    e.flags = EMU_EV_MEM;
    for (int l = 0; l < EMU_WARP_SIZE; l++) e.lane_addr[l] = base + (uint64_t)l * stride;
    return e;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

START_TEST(lru_replacement)
{
    tm_cache c;
    ck_assert(tm_cache_init(&c, 2 * TM_LINE, 2));   /* one set of two ways */
    tm_evicted v;
    tm_cache_alloc(&c, 10, 1, &v);
    ck_assert_uint_eq(v.tag, 0);
    tm_cache_alloc(&c, 11, 2, &v);
    ck_assert_ptr_nonnull(tm_cache_find(&c, 10, 3));   /* 10 is now the most recent */
    tm_cache_alloc(&c, 12, 4, &v);
    ck_assert_uint_eq(v.tag, 11 + 1);                   /* so 11 goes */
    ck_assert_ptr_nonnull(tm_cache_find(&c, 10, 5));
    ck_assert_ptr_null(tm_cache_find(&c, 11, 5));
    tm_cache_free(&c);
}
END_TEST

/* tm_cache against a plain model of its rules (64-bit tags and last uses per way; a miss fills
 * the first empty way, else the one of the least last use, the lowest among equals) over random
 * accesses with repeated times (ties), times going back, and times past 2^32 (cache.c then
 * keeps its uses in 64 bits); a 24-way cache (fingerprints in three groups of eight) and a
 * 5-way one of 7 sets (not a power of two). */
START_TEST(lru_matches_plain_model)
{
    enum { MAXW = 24, MAXS = 8 };
    const uint32_t shapes[2][2] = {{24, 4}, {5, 7}};   /* ways, sets */
    for (int sh = 0; sh < 2; sh++) {
        uint32_t ways = shapes[sh][0], sets = shapes[sh][1];
        tm_cache c;
        ck_assert(tm_cache_init(&c, (uint64_t)ways * sets * TM_LINE, ways));
        ck_assert_uint_eq(c.sets, sets);
        uint64_t tag[MAXS][MAXW] = {{0}}, use[MAXS][MAXW] = {{0}};
        uint64_t now = 1, rng = 12345 + (uint64_t)sh;
        for (int n = 0; n < 200000; n++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            uint64_t r = rng >> 33;
            /* a few hundred lines, some far apart (their fingerprints and sets differ) */
            uint64_t line = (r % 400) * ((r >> 20) % 3 == 0 ? UINT64_C(0x10001) : 1);
            if (n == 100000) now = (UINT64_C(1) << 32) - 3;   /* past 32 bits soon */
            uint64_t t = (r >> 9) % 5 == 0 ? now - (now > 2 ? 2 : 0) : now;   /* ties, earlier */
            now += (r >> 12) % 3;
            tm_line *L = tm_cache_peek(&c, line);
            uint32_t set = UINT32_MAX, way = UINT32_MAX;
            for (uint32_t s = 0; s < sets && way == UINT32_MAX; s++)
                for (uint32_t w = 0; w < ways; w++)
                    if (tag[s][w] == line + 1) set = s, way = w;
            ck_assert_int_eq(L != NULL, way != UINT32_MAX);
            if (L) {
                ck_assert_ptr_eq(tm_cache_find(&c, line, t), L);
                use[set][way] = t;
                continue;
            }
            tm_evicted v;
            L = tm_cache_alloc(&c, line, t, &v);
            set = (uint32_t)(L - c.lines) / ways;   /* the set is cache.c's choice */
            uint32_t w = 0;
            while (w < ways && tag[set][w]) w++;
            if (w == ways) {
                w = 0;
                for (uint32_t i = 1; i < ways; i++)
                    if (use[set][i] < use[set][w]) w = i;
            }
            ck_assert_uint_eq((uint32_t)(L - c.lines) % ways, w);
            ck_assert_uint_eq(v.tag, tag[set][w]);
            tag[set][w] = line + 1;
            use[set][w] = t;
        }
        ck_assert_ptr_nonnull(c.wide);
        tm_cache_free(&c);
    }
}
END_TEST

START_TEST(l1_and_l2_hits)
{
    const timing_gpu *g = timing_gpu_find("v100");
    ck_assert_ptr_nonnull(g);
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, g, 2, &st));
    uint64_t e_addr[EMU_WARP_SIZE];
    emu_event e = load(e_addr, EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 0x100000, 4);   /* one line */
    tm_access first = tm_mem_access(&m, 0, 0, &e);
    ck_assert(tm_is_pend(first.done));   /* decided when the DRAM scheduler serves it */
    first.done = tm_mem_settle(&m, first.done);
    ck_assert_uint_eq(first.lsu_cycles, 1);
    ck_assert_uint_eq(st.l1_misses, 4);
    ck_assert_uint_eq(st.l2_misses, 4);
    ck_assert_uint_eq(st.dram_reads, 4);
    /* DRAM at least: the row opened (tRCD + tCL) and the controller's latency */
    ck_assert_uint_gt(first.done, (uint64_t)(g->l1_latency + g->l2_latency + g->dram_trcd +
                                             g->dram_tcl + g->dram_latency));
    /* the same line again on the same SM once it is back: an L1 hit */
    uint64_t t = first.done + 10;
    tm_access hit = tm_mem_access(&m, 0, t, &e);
    ck_assert_uint_eq(hit.done, t + (uint64_t)g->l1_latency);
    ck_assert_uint_eq(st.l1_hits, 4);
    /* on the other SM: an L1 miss and an L2 hit */
    tm_access l2 = tm_mem_access(&m, 1, t, &e);
    uint64_t flit = (uint64_t)g->icnt_bytes_per_cycle;
    uint64_t want = t + (uint64_t)g->l1_latency + ceil_div(8, flit) + (uint64_t)g->icnt_latency +
                    (uint64_t)g->l2_latency + ceil_div(8 + 4 * TM_SECTOR, flit) +
                    (uint64_t)g->icnt_latency;
    ck_assert_uint_eq(l2.done, want);
    ck_assert_uint_eq(st.l2_hits, 4);
    tm_mem_free(&m);
}
END_TEST

/* Stores allocate their sectors at L2 without a fetch: counted as stored sectors, a miss the
 * first time, a hit the second; a load of the line then hits L2 and reads no DRAM. At L1 a
 * store writes through: counted as a hit only where L1 holds the line (after that load). */
START_TEST(l2_counts_stores)
{
    const timing_gpu *g = timing_gpu_find("v100");
    ck_assert_ptr_nonnull(g);
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, g, 2, &st));
    uint64_t e_addr[EMU_WARP_SIZE];
    emu_event w = load(e_addr, EMU_CLS_ST_GLOBAL, PTX_SPACE_GLOBAL, 0x300000, 4);   /* one line */
    tm_access a = tm_mem_access(&m, 0, 0, &w);
    (void)tm_mem_settle(&m, a.done);
    ck_assert_uint_eq(st.l2_write_misses, 4);
    ck_assert_uint_eq(st.l2_write_hits, 0);
    tm_access b = tm_mem_access(&m, 0, 1000, &w);
    (void)tm_mem_settle(&m, b.done);
    ck_assert_uint_eq(st.l2_write_misses, 4);
    ck_assert_uint_eq(st.l2_write_hits, 4);
    uint64_t r_addr[EMU_WARP_SIZE];
    emu_event r = load(r_addr, EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 0x300000, 4);
    tm_access c = tm_mem_access(&m, 1, 2000, &r);
    uint64_t back = tm_mem_settle(&m, c.done);
    ck_assert_uint_eq(st.l2_hits, 4);
    ck_assert_uint_eq(st.l2_misses, 0);
    ck_assert_uint_eq(st.dram_reads, 0);
    ck_assert_uint_eq(st.l1_hits + st.l1_misses, 4);   /* stores are not L1's loads */
    ck_assert_uint_eq(st.l1_write_misses, 8);
    ck_assert_uint_eq(st.l1_write_hits, 0);
    tm_access d = tm_mem_access(&m, 1, back + 10, &w);   /* SM 1 holds the line now */
    (void)tm_mem_settle(&m, d.done);
    ck_assert_uint_eq(st.l1_write_hits, 4);
    ck_assert_uint_eq(st.l2_write_hits, 8);
    tm_mem_free(&m);
}
END_TEST

START_TEST(misses_in_flight_merge)
{
    const timing_gpu *g = timing_gpu_find("gtx480");
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, g, 1, &st));
    uint64_t e_addr[EMU_WARP_SIZE];
    emu_event e = load(e_addr, EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, 0x200000, 4);
    tm_access a = tm_mem_access(&m, 0, 0, &e);
    tm_access b = tm_mem_access(&m, 0, 1, &e);
    ck_assert_uint_eq(tm_mem_settle(&m, b.done), tm_mem_settle(&m, a.done));
    ck_assert_uint_eq(st.l1_mshr_merges, 4);
    ck_assert_uint_eq(st.l2_misses, 4);   /* one trip to memory */
    tm_mem_free(&m);
}
END_TEST

START_TEST(coalescing_by_stride)
{
    const timing_gpu *g = timing_gpu_find("v100");
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, g, 1, &st));
    static const struct { uint64_t stride; uint32_t lines; uint64_t sectors; } cases[] = {
        {4, 1, 4}, {8, 2, 8}, {16, 4, 16}, {32, 8, 32}, {128, 32, 32},
    };
    uint64_t base = 0x1000000;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t before = st.l1_misses;
        uint64_t e_addr[EMU_WARP_SIZE];
        emu_event e = load(e_addr, EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, base, cases[i].stride);
        tm_access a = tm_mem_access(&m, 0, 0, &e);
        ck_assert_uint_eq(a.lsu_cycles, cases[i].lines);
        ck_assert_uint_eq(st.l1_misses - before, cases[i].sectors);
        base += 0x100000;
    }
    tm_mem_free(&m);
}
END_TEST

START_TEST(shared_bank_conflicts)
{
    const timing_gpu *g = timing_gpu_find("v100");
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, g, 1, &st));
    for (uint64_t k = 1; k <= 32; k *= 2) {
        uint64_t e_addr[EMU_WARP_SIZE];
        emu_event e = load(e_addr, EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, EMU_SHARED_WINDOW, 4 * k);
        tm_access a = tm_mem_access(&m, 0, 100, &e);
        ck_assert_uint_eq(a.lsu_cycles, k);
        ck_assert_uint_eq(a.done, 100 + (uint64_t)g->smem_latency + k - 1);
    }
    /* every lane the same word: a broadcast */
    uint64_t b_addr[EMU_WARP_SIZE];
    emu_event b = load(b_addr, EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, EMU_SHARED_WINDOW + 64, 0);
    ck_assert_uint_eq(tm_mem_access(&m, 0, 0, &b).lsu_cycles, 1);
    /* 16 distinct words in one bank, each read by two lanes: 16 wavefronts */
    uint64_t h_addr[EMU_WARP_SIZE];
    emu_event h = load(h_addr, EMU_CLS_LD_SHARED, PTX_SPACE_SHARED, EMU_SHARED_WINDOW, 0);
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        h.lane_addr[l] = EMU_SHARED_WINDOW + (uint64_t)(l / 2) * 128;
    ck_assert_uint_eq(tm_mem_access(&m, 0, 0, &h).lsu_cycles, 16);
    tm_mem_free(&m);
}
END_TEST

/* 16 one-sector loads to one DRAM bank, alternating between two rows (A B A B ...), issued one
 * a cycle: FR-FCFS serves the open row's requests first (A A ... B B ...: two row misses), FCFS
 * in arrival order (a row miss each), so FR-FCFS finishes first with more row hits. */
static uint64_t interleaved_rows(const char *scheduler, uint64_t *row_hits)
{
    timing_gpu g = *timing_gpu_find("v100");
    g.dram_scheduler = scheduler;
    uint32_t ch0 = tm_mem_channel(&g, 0), bank0, bank;
    uint64_t row0, row, rows[2] = {0, UINT64_MAX}, lines[2][8];
    unsigned n[2] = {0, 0};
    tm_mem_dram_place(&g, 0, &bank0, &row0);
    rows[0] = row0;
    for (uint64_t line = 0; line < (UINT64_C(1) << 24) && (n[0] < 8 || n[1] < 8); line++) {
        if (tm_mem_channel(&g, line) != ch0) continue;
        tm_mem_dram_place(&g, line, &bank, &row);
        if (bank != bank0) continue;
        if (rows[1] == UINT64_MAX && row != row0) rows[1] = row;
        for (int k = 0; k < 2; k++)
            if (row == rows[k] && n[k] < 8) lines[k][n[k]++] = line;
    }
    ck_assert_uint_eq(n[0], 8);
    ck_assert_uint_eq(n[1], 8);
    timing_stats st = {0};
    tm_mem m;
    ck_assert(tm_mem_init(&m, &g, 1, &st));
    uint64_t done[16], last = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t e_addr[EMU_WARP_SIZE];
        emu_event e = load(e_addr, EMU_CLS_LD_GLOBAL, PTX_SPACE_GLOBAL, lines[i % 2][i / 2] * TM_LINE, 0);
        e.mem_lanes = e.mask = 1;
        done[i] = tm_mem_access(&m, 0, (uint64_t)i, &e).done;
    }
    for (int i = 0; i < 16; i++) {
        uint64_t t = tm_mem_settle(&m, done[i]);
        if (t > last) last = t;
    }
    *row_hits = st.dram_row_hits;
    ck_assert_uint_eq(st.dram_row_hits + st.dram_row_misses, 16);
    tm_mem_free(&m);
    return last;
}

START_TEST(frfcfs_beats_fcfs_on_interleaved_rows)
{
    uint64_t hits_fr, hits_fcfs;
    uint64_t fr = interleaved_rows("frfcfs", &hits_fr);
    uint64_t fcfs = interleaved_rows("fcfs", &hits_fcfs);
    ck_assert_uint_eq(hits_fcfs, 0);   /* every request changes the row */
    ck_assert_uint_ge(hits_fr, 12);    /* at most the first few before the queue fills */
    ck_assert_uint_lt(fr, fcfs);
}
END_TEST

/* A kernel whose warps outgrow the SIMT stack and call frames a CTA built in the model's slot
 * block is lent (EMU_WARP_LENT_DEPTH entries each, emu_cta_create_at): lane l of each warp
 * drops out of ten nested ifs at level min(l, 10), and then recurses 9 + l % 4 deep. */
static const char DEEP[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".func (.reg .u32 r) depth(.reg .u32 n)\n{\n"
    "  .reg .pred p;\n  .reg .u32 t, u;\n"
    "  setp.eq.u32 p, n, 0;\n  @p bra Done;\n"
    "  sub.u32 t, n, 1;\n  call (u), depth, (t);\n  add.u32 r, u, n;\n  ret;\n"
    "Done:\n  mov.u32 r, 0;\n  ret;\n}\n"
    ".visible .entry deep(.param .u64 out)\n{\n"
    "  .reg .pred p;\n  .reg .u32 tid, lane, v, n, d, gid, ctaid, ntid;\n"
    "  .reg .u64 a, o;\n"
    "  mov.u32 tid, %tid.x;\n  mov.u32 ctaid, %ctaid.x;\n  mov.u32 ntid, %ntid.x;\n"
    "  mad.lo.u32 gid, ctaid, ntid, tid;\n  and.b32 lane, tid, 31;\n  mov.u32 v, 0;\n"
    "  setp.le.u32 p, lane, 0;\n  @p bra L0;\n  add.u32 v, v, 1;\n"
    "  setp.le.u32 p, lane, 1;\n  @p bra L1;\n  add.u32 v, v, 2;\n"
    "  setp.le.u32 p, lane, 2;\n  @p bra L2;\n  add.u32 v, v, 3;\n"
    "  setp.le.u32 p, lane, 3;\n  @p bra L3;\n  add.u32 v, v, 4;\n"
    "  setp.le.u32 p, lane, 4;\n  @p bra L4;\n  add.u32 v, v, 5;\n"
    "  setp.le.u32 p, lane, 5;\n  @p bra L5;\n  add.u32 v, v, 6;\n"
    "  setp.le.u32 p, lane, 6;\n  @p bra L6;\n  add.u32 v, v, 7;\n"
    "  setp.le.u32 p, lane, 7;\n  @p bra L7;\n  add.u32 v, v, 8;\n"
    "  setp.le.u32 p, lane, 8;\n  @p bra L8;\n  add.u32 v, v, 9;\n"
    "  setp.le.u32 p, lane, 9;\n  @p bra L9;\n  add.u32 v, v, 10;\n"
    "L9:\n  add.u32 v, v, 1000;\nL8:\n  add.u32 v, v, 900;\nL7:\n  add.u32 v, v, 800;\n"
    "L6:\n  add.u32 v, v, 700;\nL5:\n  add.u32 v, v, 600;\nL4:\n  add.u32 v, v, 500;\n"
    "L3:\n  add.u32 v, v, 400;\nL2:\n  add.u32 v, v, 300;\nL1:\n  add.u32 v, v, 200;\n"
    "L0:\n  add.u32 v, v, 100;\n"
    "  and.b32 n, lane, 3;\n  add.u32 n, n, 9;\n"
    "  call (d), depth, (n);\n  add.u32 v, v, d;\n"
    "  ld.param.u64 o, [out];\n  mul.wide.u32 a, gid, 4;\n  add.u64 o, o, a;\n"
    "  st.global.u32 [o], v;\n  ret;\n}\n";

START_TEST(deep_warps_outgrow_lent_storage)
{
    pk_module m = pk_load_text(DEEP, strlen(DEEP), "deep.ptx");
    enum { CTAS = 300, THREADS = 64 };
    uint32_t *out = pk_dalloc(CTAS * THREADS * 4);
    timing_gpu gpu = *timing_gpu_find("v100");
    timing_stats ts;
    timing_engine_config cfg;
    /* 2 SMs, 64 CTA slots: later CTAs are built in earlier ones' storage */
    pk_cycle_config(&cfg, &gpu, 2, &ts);
    pk_launch l = {.grid = pk_dim3(CTAS, 1, 1), .block = pk_dim3(THREADS, 1, 1),
                   .sm_count = 2, .cfg = &cfg, .events = timing_model_sink()};
    /* twice: the second launch builds its first CTAs in the block the first one left */
    for (int run = 0; run < 2; run++) {
        memset(out, 0, CTAS * THREADS * 4);
        ck_assert(pk_run(&m, "deep", &l, (uint64_t[]){pk_addr(out)}, NULL));
        for (uint32_t g = 0; g < CTAS * THREADS; g++) {
            uint32_t lane = g % THREADS % 32, k = lane < 10 ? lane : 10, want = 0;
            for (uint32_t i = 0; i < k; i++) want += i + 1;
            for (uint32_t i = 0; i <= (k < 9 ? k : 9); i++) want += (i + 1) * 100;
            uint32_t n = 9 + lane % 4;
            want += n * (n + 1) / 2;
            ck_assert_msg(out[g] == want, "run %d thread %u: %u, expected %u", run, g, out[g],
                          want);
        }
    }
    ck_assert_uint_gt(ts.cycles, 0);
    pk_unload(&m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing_model");
    TCase *t = tcase_create("memory");
    tcase_add_test(t, lru_replacement);
    tcase_add_test(t, lru_matches_plain_model);
    tcase_add_test(t, l1_and_l2_hits);
    tcase_add_test(t, l2_counts_stores);
    tcase_add_test(t, misses_in_flight_merge);
    tcase_add_test(t, coalescing_by_stride);
    tcase_add_test(t, shared_bank_conflicts);
    tcase_add_test(t, frfcfs_beats_fcfs_on_interleaved_rows);
    tcase_add_test(t, deep_warps_outgrow_lent_storage);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(suite()); }
