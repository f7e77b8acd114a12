/* test_gpu_configs.c: the GPU descriptions of timing/configs (timing/configs/gpu_config.c):
 * every embedded one parses and is offered by --gpu, with values from the vendors' published
 * specifications and the CUDA Programming Guide; a description with an unknown, repeated or
 * missing key, a malformed or out-of-range value, or a value without a source is refused with
 * its file and line. */
#include "tests/unit/ptx_kernels.h"
#include "timing/timing.h"
#include "runtime/rt.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(every_description_parses_and_is_offered)
{
    const rt_option *o = rt_option_find("gpu");
    ck_assert_ptr_nonnull(o);
    ck_assert_uint_eq(timing_gpu_count(), 8);
    size_t listed = 1;
    for (const char *c = o->choices; *c; c++) listed += *c == '|';
    ck_assert_uint_eq(listed, timing_gpu_count());
    for (size_t i = 0; i < timing_gpu_count(); i++) {
        const timing_gpu *g = timing_gpu_at(i);
        ck_assert_ptr_nonnull(g);
        ck_assert_ptr_eq(timing_gpu_find(g->name), g);
        /* the option's choices name every description (and so nothing else) */
        size_t n = strlen(g->name);
        const char *c = o->choices;
        bool found = false;
        for (const char *p = c; (p = strstr(p, g->name)); p += n)
            found = found || ((p == c || p[-1] == '|') && (p[n] == '|' || p[n] == '\0'));
        ck_assert_msg(found, "--gpu does not offer %s", g->name);
        ck_assert_msg(g->description && *g->description, "%s has no description", g->name);
        ck_assert_int_le(g->smem_per_block_optin, g->smem_per_sm);
    }
    ck_assert_ptr_null(timing_gpu_find("nosuch"));
    ck_assert_ptr_nonnull(timing_gpu_find(o->def));
}
END_TEST

START_TEST(published_values)
{
    /* A100 whitepaper table 3 and the Programming Guide's cc 8.0 column */
    const timing_gpu *a = timing_gpu_find("a100");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->major, 8);
    ck_assert_int_eq(a->minor, 0);
    ck_assert_int_eq(a->sm_count, 108);
    ck_assert_int_eq(a->max_threads_per_sm, 2048);
    ck_assert_uint_eq(a->smem_per_sm, 164 * 1024);
    ck_assert_uint_eq(a->smem_per_block_optin, 163 * 1024);
    ck_assert_uint_eq(a->l2_bytes, 40u << 20);
    ck_assert_uint_eq(a->global_mem, 40ull << 30);
    ck_assert_int_eq(a->mem_bus_bits, 5120);
    /* TITAN V: 80 SMs of cc 7.0, 12 GB HBM2 on 3072 bits, 4.5 MB L2 */
    const timing_gpu *t = timing_gpu_find("titanv");
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->major * 10 + t->minor, 70);
    ck_assert_int_eq(t->sm_count, 80);
    ck_assert_uint_eq(t->global_mem, 12ull << 30);
    ck_assert_uint_eq(t->l2_bytes, 4608 * 1024);
    ck_assert_int_eq(t->mem_bus_bits, 3072);
    /* GTX 480: 15 SMs of cc 2.0, 1536 threads and 8 blocks per SM */
    const timing_gpu *f = timing_gpu_find("gtx480");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->major * 10 + f->minor, 20);
    ck_assert_int_eq(f->sm_count, 15);
    ck_assert_int_eq(f->max_threads_per_sm, 1536);
    ck_assert_int_eq(f->max_blocks_per_sm, 8);
    /* H100 SXM5: 132 SMs, 228 KB shared memory per SM; RTX 4090: 128 SMs of cc 8.9 */
    ck_assert_int_eq(timing_gpu_find("h100")->sm_count, 132);
    ck_assert_uint_eq(timing_gpu_find("h100")->smem_per_sm, 228 * 1024);
    ck_assert_int_eq(timing_gpu_find("rtx4090")->sm_count, 128);
    ck_assert_int_eq(timing_gpu_find("rtx4090")->minor, 9);
    /* H200: what cudaGetDeviceProperties reported on one (bench/micro/native/h200.txt) */
    const timing_gpu *h = timing_gpu_find("h200");
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(h->sm_count, 132);
    ck_assert_uint_eq(h->l2_bytes, 62914560);
    ck_assert_uint_eq(h->global_mem, 150109880320ull);
    ck_assert_int_eq(h->mem_clock_khz, 3201000);
    ck_assert_int_eq(h->mem_bus_bits, 6016);
}
END_TEST

static const char good[] =
    "# a test GPU\n"
    "description = Test GPU   # here\n"
    "cc_major = 8  # s\n"
    "cc_minor = 6  # s\n"
    "sm_count = 4  # s\n"
    "max_threads_per_sm = 1536  # s\n"
    "max_blocks_per_sm = 16  # s\n"
    "regs_per_sm = 65536  # s\n"
    "regs_per_block = 65536  # s\n"
    "smem_per_sm = 100 KiB  # s\n"
    "smem_per_block_optin = 99 KiB  # s\n"
    "l2_bytes = 3 MiB  # s\n"
    "global_mem = 8 GiB  # s\n"
    "clock_khz = 1700000  # s\n"
    "mem_clock_khz = 7000000  # s\n"
    "mem_bus_bits = 256  # s\n"
    "model_clock_khz = 1700000  # s\n"
    "sched_per_sm = 4  # s\n"
    "scheduler = gto  # s\n"
    "issue_per_sched = 1  # s\n"
    "lat_int = 4  # s\n"
    "ii_int = 2  # s\n"
    "lat_imul = 5  # s\n"
    "ii_imul = 2  # s\n"
    "lat_fp32 = 4  # s\n"
    "ii_fp32 = 2  # s\n"
    "lat_fp64 = 8  # s\n"
    "ii_fp64 = 4  # s\n"
    "lat_sfu = 21  # s\n"
    "ii_sfu = 8  # s\n"
    "lat_tensor = 64  # s\n"
    "ii_tensor = 64  # s\n"
    "smem_latency = 20  # s\n"
    "smem_banks = 32  # s\n"
    "l1_bytes = 32 KiB  # s\n"
    "l1_ways = 4  # s\n"
    "l1_latency = 30  # s\n"
    "l1_mshrs = 64  # s\n"
    "icnt_latency = 8  # s\n"
    "icnt_bytes_per_cycle = 32  # s\n"
    "l2_slices = 16  # s\n"
    "l2_ways = 16  # s\n"
    "l2_latency = 160  # s\n"
    "dram_channels = 8  # s\n"
    "dram_banks = 16  # s\n"
    "dram_tcl = 12  # s\n"
    "dram_trcd = 12  # s\n"
    "dram_trp = 12  # s\n"
    "dram_latency = 100  # s\n"
    "dram_row_bytes = 2 KiB  # s\n"
    "dram_scheduler = frfcfs  # s\n"
    "tex_l1_bytes = 48 KiB  # s\n"
    "tex_l1_ways = 24  # s\n"
    "tex_latency = 28  # s\n"
    "dram_sched_queue = 64  # s\n"
    "l2_queue = 64  # s\n"
    "cta_launch_latency = 0  # s\n"
    "kernel_launch_latency = 5000  # s\n"
    "gpudet_barrier_latency = 0  # s\n"
    "zunit_clock_khz = 650000  # s\n"
    "zcache_bytes = 16 KiB  # s\n"
    "zunit_requests = 16  # s\n"
    "gpudet_bloom_bits = 1024  # s\n"
    "dab_barrier_latency = 0  # s\n"
    "igpu_page_fault_latency = 28000  # s\n"
    "igpu_restart_penalty = 10  # s\n"
    "kilotm_lwh_entries = 512  # s\n"
    "kilotm_lwh_ways = 4  # s\n"
    "kilotm_rbf_buckets = 256  # s\n"
    "kilotm_rbf_hashes = 4  # s\n"
    "smem_wavefront_cycles = 1  # s\n"
    "l2_clock_khz = 1700000  # s\n";

/* good with line `line` (1-based) replaced by `repl` (NULL: removed); parses it and returns
 * whether it was accepted, with the message in err */
static bool parse_edited(int line, const char *repl, char *err, size_t errlen)
{
    char text[8192] = "";
    const char *p = good;
    for (int l = 1; *p; l++) {
        const char *e = strchr(p, '\n');
        size_t n = (size_t)(e - p) + 1;
        if (l != line) strncat(text, p, n);
        else if (repl) {
            strcat(text, repl);
            strcat(text, "\n");
        }
        p += n;
    }
    timing_gpu g;
    bool ok = timing_gpu_parse("test", text, &g, err, errlen);
    if (ok) timing_gpu_release(&g);
    return ok;
}

START_TEST(parse_good)
{
    timing_gpu g;
    char err[256];
    ck_assert_msg(timing_gpu_parse("test", good, &g, err, sizeof err), "%s", err);
    ck_assert_str_eq(g.name, "test");
    ck_assert_str_eq(g.description, "Test GPU");
    ck_assert_int_eq(g.major * 10 + g.minor, 86);
    ck_assert_uint_eq(g.smem_per_sm, 100 * 1024);
    ck_assert_uint_eq(g.l2_bytes, 3u << 20);
    ck_assert_uint_eq(g.global_mem, 8ull << 30);
    ck_assert_int_eq(g.mem_bus_bits, 256);
    timing_gpu_release(&g);
}
END_TEST

START_TEST(parse_refusals)
{
    static const struct {
        int line;
        const char *repl;
        const char *want;       /* in the message */
    } cases[] = {
        { 5, "sm_count = 4", "test.gpu:5: `sm_count` names no source" },
        { 5, "sm_count = 4  #   ", "names no source" },
        { 5, "sm_count = 4  # s\nsm_count = 5  # s", "test.gpu:6: `sm_count` given twice" },
        { 5, NULL, "`sm_count` is missing" },
        { 5, "sm_cout = 4  # s", "test.gpu:5: unknown key `sm_cout`" },
        { 5, "sm_count = four  # s", "expected a number" },
        { 5, "sm_count = 4 KiB  # s", "expected a number" },
        { 5, "sm_count = 0  # s", "out of range" },
        { 10, "smem_per_sm = 100 kB  # s", "optional unit KiB, MiB or GiB" },
        { 11, "smem_per_block_optin = 200 KiB  # s", "exceeds smem_per_sm" },
        { 5, "sm_count 4  # s", "test.gpu:5: expected `key = value  # source`" },
        { 5, "sm_count =   # s", "has no value" },
        { 13, "global_mem = 99999999999999999999 GiB  # s", "expected a number" },
        { 19, "scheduler = fifo  # s", "scheduler `fifo`: expected lrr, gto or two_level" },
        { 35, "l1_bytes = 1100  # s", "not a whole number of sets" },
        { 41, "l2_slices = 12  # s", "not a multiple of dram_channels" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        ck_assert_msg(!parse_edited(cases[i].line, cases[i].repl, err, sizeof err),
                      "case %zu accepted", i);
        ck_assert_msg(strstr(err, cases[i].want), "case %zu: message `%s`, expected `%s`", i, err,
                      cases[i].want);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_configs");
    TCase *tc = tcase_create("configs");
    tcase_add_test(tc, every_description_parses_and_is_offered);
    tcase_add_test(tc, published_values);
    tcase_add_test(tc, parse_good);
    tcase_add_test(tc, parse_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
