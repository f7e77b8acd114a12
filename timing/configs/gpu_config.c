/* gpu_config.c: the GPU descriptions of timing/configs (NAME.gpu; README.md there): parsing one, and
 * the table of all of them, parsed once from the copies the build embeds
 * (build/gen/gpu_configs.c), so that the library needs no file at run time. */
#include "timing/timing.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* build/gen/gpu_configs.c: {name, text} of every description in timing/configs, by name */
extern const char *const timing_gpu_files[][2];
extern const size_t timing_gpu_file_count;

typedef enum { K_TEXT, K_INT, K_SIZE } key_kind;

typedef struct key_desc {
    const char *key;
    key_kind kind;
    size_t offset;
    uint64_t min, max;          /* for numbers */
} key_desc;

#define INT_KEY(k, f, lo, hi) { k, K_INT, offsetof(timing_gpu, f), lo, hi }
#define SIZE_KEY(k, f, lo, hi) { k, K_SIZE, offsetof(timing_gpu, f), lo, hi }

static const key_desc keys[] = {
    { "description", K_TEXT, offsetof(timing_gpu, description), 0, 0 },
    INT_KEY("cc_major", major, 1, 99),
    INT_KEY("cc_minor", minor, 0, 9),
    INT_KEY("sm_count", sm_count, 1, 4096),
    INT_KEY("max_threads_per_sm", max_threads_per_sm, 32, 65536),
    INT_KEY("max_blocks_per_sm", max_blocks_per_sm, 1, 1024),
    INT_KEY("regs_per_sm", regs_per_sm, 1024, 1 << 24),
    INT_KEY("regs_per_block", regs_per_block, 1024, 1 << 24),
    SIZE_KEY("smem_per_sm", smem_per_sm, 1024, UINT64_C(1) << 32),
    SIZE_KEY("smem_per_block_optin", smem_per_block_optin, 1024, UINT64_C(1) << 32),
    SIZE_KEY("l2_bytes", l2_bytes, 0, UINT64_C(1) << 40),
    SIZE_KEY("global_mem", global_mem, UINT64_C(1) << 20, UINT64_C(1) << 50),
    INT_KEY("clock_khz", clock_khz, 1000, 100000000),
    INT_KEY("mem_clock_khz", mem_clock_khz, 1000, 100000000),
    INT_KEY("mem_bus_bits", mem_bus_bits, 8, 1 << 16),
    INT_KEY("model_clock_khz", model_clock_khz, 1000, 100000000),
    INT_KEY("sched_per_sm", sched_per_sm, 1, 64),
    { "scheduler", K_TEXT, offsetof(timing_gpu, scheduler), 0, 0 },
    INT_KEY("issue_per_sched", issue_per_sched, 1, 8),
    INT_KEY("lat_int", lat_int, 1, 10000), INT_KEY("ii_int", ii_int, 1, 10000),
    INT_KEY("lat_imul", lat_imul, 1, 10000), INT_KEY("ii_imul", ii_imul, 1, 10000),
    INT_KEY("lat_fp32", lat_fp32, 1, 10000), INT_KEY("ii_fp32", ii_fp32, 1, 10000),
    INT_KEY("lat_fp64", lat_fp64, 1, 10000), INT_KEY("ii_fp64", ii_fp64, 1, 10000),
    INT_KEY("lat_sfu", lat_sfu, 1, 10000), INT_KEY("ii_sfu", ii_sfu, 1, 10000),
    INT_KEY("lat_tensor", lat_tensor, 1, 10000), INT_KEY("ii_tensor", ii_tensor, 1, 10000),
    INT_KEY("smem_latency", smem_latency, 1, 10000),
    INT_KEY("smem_banks", smem_banks, 1, 64),
    INT_KEY("smem_wavefront_cycles", smem_wavefront_cycles, 1, 64),
    SIZE_KEY("l1_bytes", l1_bytes, 1024, UINT64_C(1) << 30),
    INT_KEY("l1_ways", l1_ways, 1, 64),
    INT_KEY("l1_latency", l1_latency, 1, 10000),
    INT_KEY("l1_mshrs", l1_mshrs, 1, 65536),
    SIZE_KEY("tex_l1_bytes", tex_l1_bytes, 1024, UINT64_C(1) << 30),
    INT_KEY("tex_l1_ways", tex_l1_ways, 1, 64),
    INT_KEY("tex_latency", tex_latency, 1, 10000),
    INT_KEY("icnt_latency", icnt_latency, 0, 10000),
    INT_KEY("icnt_bytes_per_cycle", icnt_bytes_per_cycle, 1, 4096),
    INT_KEY("l2_slices", l2_slices, 1, 4096),
    INT_KEY("l2_ways", l2_ways, 1, 64),
    INT_KEY("l2_latency", l2_latency, 1, 10000),
    INT_KEY("l2_clock_khz", l2_clock_khz, 1000, 100000000),
    INT_KEY("dram_channels", dram_channels, 1, 4096),
    INT_KEY("dram_banks", dram_banks, 1, 256),
    INT_KEY("dram_tcl", dram_tcl, 0, 10000),
    INT_KEY("dram_trcd", dram_trcd, 0, 10000),
    INT_KEY("dram_trp", dram_trp, 0, 10000),
    INT_KEY("dram_latency", dram_latency, 0, 100000),
    SIZE_KEY("dram_row_bytes", dram_row_bytes, 128, UINT64_C(1) << 20),
    { "dram_scheduler", K_TEXT, offsetof(timing_gpu, dram_scheduler), 0, 0 },
    INT_KEY("dram_sched_queue", dram_sched_queue, 0, 65536),
    INT_KEY("l2_queue", l2_queue, 1, 65536),
    INT_KEY("cta_launch_latency", cta_launch_latency, 0, 1000000),
    INT_KEY("kernel_launch_latency", kernel_launch_latency, 0, 100000000),
    INT_KEY("gpudet_barrier_latency", gpudet_barrier_latency, 0, 100000000),
    INT_KEY("zunit_clock_khz", zunit_clock_khz, 1000, 100000000),
    SIZE_KEY("zcache_bytes", zcache_bytes, 128, UINT64_C(1) << 30),
    INT_KEY("zunit_requests", zunit_requests, 1, 1 << 20),
    INT_KEY("gpudet_bloom_bits", gpudet_bloom_bits, 0, 1 << 24),
    INT_KEY("dab_barrier_latency", dab_barrier_latency, 0, 100000000),
    INT_KEY("igpu_page_fault_latency", igpu_page_fault_latency, 0, 1000000000),
    INT_KEY("igpu_restart_penalty", igpu_restart_penalty, 0, 1000000),
    INT_KEY("kilotm_lwh_entries", kilotm_lwh_entries, 0, 1 << 20),
    INT_KEY("kilotm_lwh_ways", kilotm_lwh_ways, 1, 64),
    INT_KEY("kilotm_rbf_buckets", kilotm_rbf_buckets, 1, 1 << 20),
    INT_KEY("kilotm_rbf_hashes", kilotm_rbf_hashes, 1, 16),
};
#define NKEYS (sizeof keys / sizeof keys[0])

static bool fail(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s.gpu:%d: ", name, line);
    if (n < 0 || (size_t)n >= errlen) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* "123", "48 KiB", "1536 MiB", "12 GiB" */
static bool parse_number(const char *v, bool units, uint64_t *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*v)) return false;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno) return false;
    while (isspace((unsigned char)*end)) end++;
    uint64_t scale = 1;
    if (*end) {
        if (!units) return false;
        if (strcmp(end, "KiB") == 0) scale = UINT64_C(1) << 10;
        else if (strcmp(end, "MiB") == 0) scale = UINT64_C(1) << 20;
        else if (strcmp(end, "GiB") == 0) scale = UINT64_C(1) << 30;
        else return false;
    }
    if (n > UINT64_MAX / scale) return false;
    *out = (uint64_t)n * scale;
    return true;
}

void timing_gpu_release(timing_gpu *g)
{
    free((char *)g->name);
    free((char *)g->description);
    free((char *)g->scheduler);
    free((char *)g->dram_scheduler);
    g->name = g->description = g->scheduler = g->dram_scheduler = NULL;
}

bool timing_gpu_parse(const char *name, const char *text, timing_gpu *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof *out);
    bool seen[NKEYS] = {false};
    char *copy = strdup(text);
    out->name = strdup(name);
    if (!copy || !out->name) {
        free(copy);
        timing_gpu_release(out);
        return fail(err, errlen, name, 0, "out of memory");
    }
    bool ok = true;
    int line = 0;
    for (char *p = copy, *next; ok && p; p = next) {
        line++;
        next = strchr(p, '\n');
        if (next) *next++ = '\0';
        char *hash = strchr(p, '#');
        char *source = hash ? trim(hash + 1) : NULL;
        if (hash) *hash = '\0';
        char *body = trim(p);
        if (!*body) continue;
        char *eq = strchr(body, '=');
        if (!eq) {
            ok = fail(err, errlen, name, line, "expected `key = value  # source`");
            break;
        }
        *eq = '\0';
        char *key = trim(body), *val = trim(eq + 1);
        size_t k = 0;
        while (k < NKEYS && strcmp(keys[k].key, key) != 0) k++;
        if (k == NKEYS) {
            ok = fail(err, errlen, name, line, "unknown key `%s`", key);
            break;
        }
        if (seen[k]) {
            ok = fail(err, errlen, name, line, "`%s` given twice", key);
            break;
        }
        seen[k] = true;
        if (!source || !*source) {
            ok = fail(err, errlen, name, line, "`%s` names no source (add `# where it is from`)", key);
            break;
        }
        if (!*val) {
            ok = fail(err, errlen, name, line, "`%s` has no value", key);
            break;
        }
        const key_desc *d = &keys[k];
        if (d->kind == K_TEXT) {
            char *s = strdup(val);
            if (!s) {
                ok = fail(err, errlen, name, line, "out of memory");
                break;
            }
            *(const char **)((char *)out + d->offset) = s;
            continue;
        }
        uint64_t v;
        if (!parse_number(val, d->kind == K_SIZE, &v)) {
            ok = fail(err, errlen, name, line, "`%s = %s`: expected a number%s", key, val,
                      d->kind == K_SIZE ? " with an optional unit KiB, MiB or GiB" : "");
            break;
        }
        if (v < d->min || v > d->max) {
            ok = fail(err, errlen, name, line, "`%s = %s` is out of range [%" PRIu64 ", %" PRIu64 "]",
                      key, val, d->min, d->max);
            break;
        }
        if (d->kind == K_INT) *(int *)((char *)out + d->offset) = (int)v;
        else if (d->offset == offsetof(timing_gpu, global_mem))
            *(uint64_t *)((char *)out + d->offset) = v;
        else *(size_t *)((char *)out + d->offset) = (size_t)v;
    }
    free(copy);
    for (size_t k = 0; ok && k < NKEYS; k++)
        if (!seen[k]) ok = fail(err, errlen, name, line, "`%s` is missing", keys[k].key);
    if (ok && out->smem_per_block_optin > out->smem_per_sm)
        ok = fail(err, errlen, name, line, "smem_per_block_optin exceeds smem_per_sm");
    if (ok && strcmp(out->scheduler, "lrr") != 0 && strcmp(out->scheduler, "gto") != 0 &&
        strcmp(out->scheduler, "two_level") != 0)
        ok = fail(err, errlen, name, line, "scheduler `%s`: expected lrr, gto or two_level",
                  out->scheduler);
    if (ok && strcmp(out->dram_scheduler, "frfcfs") != 0 && strcmp(out->dram_scheduler, "fcfs") != 0)
        ok = fail(err, errlen, name, line, "dram_scheduler `%s`: expected frfcfs or fcfs",
                  out->dram_scheduler);
    if (ok && out->l2_slices % out->dram_channels != 0)
        ok = fail(err, errlen, name, line, "l2_slices is not a multiple of dram_channels (each "
                  "channel has the same number of L2 slices)");
    if (ok && out->l1_bytes % (128u * (unsigned)out->l1_ways) != 0)
        ok = fail(err, errlen, name, line, "l1_bytes is not a whole number of sets of l1_ways "
                  "128-byte lines");
    if (ok && out->tex_l1_bytes % (128u * (unsigned)out->tex_l1_ways) != 0)
        ok = fail(err, errlen, name, line, "tex_l1_bytes is not a whole number of sets of "
                  "tex_l1_ways 128-byte lines");
    if (ok && out->regs_per_block > out->regs_per_sm)
        ok = fail(err, errlen, name, line, "regs_per_block exceeds regs_per_sm");
    if (!ok) timing_gpu_release(out);
    return ok;
}

/* ---------------------------------------------------------------- the embedded table */

static timing_gpu *table;
static size_t table_n;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void load_table(void)
{
    table = calloc(timing_gpu_file_count ? timing_gpu_file_count : 1, sizeof *table);
    if (!table) {
        fprintf(stderr, "ptxsim: out of memory reading the GPU descriptions\n");
        abort();
    }
    for (size_t i = 0; i < timing_gpu_file_count; i++) {
        char err[256];
        /* the build embeds the files and test_gpu_configs parses each: a failure here is a
         * broken build, not bad input */
        if (!timing_gpu_parse(timing_gpu_files[i][0], timing_gpu_files[i][1], &table[table_n],
                              err, sizeof err)) {
            fprintf(stderr, "ptxsim: timing/configs/%s\n", err);
            abort();
        }
        table_n++;
    }
}

size_t timing_gpu_count(void)
{
    pthread_once(&table_once, load_table);
    return table_n;
}

const timing_gpu *timing_gpu_at(size_t i)
{
    pthread_once(&table_once, load_table);
    return i < table_n ? &table[i] : NULL;
}

const timing_gpu *timing_gpu_find(const char *name)
{
    pthread_once(&table_once, load_table);
    for (size_t i = 0; i < table_n; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}
