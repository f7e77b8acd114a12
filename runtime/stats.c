/* stats.c: the per-kernel report PTXSIM_STATS asks for, written when the program exits: a table
 * for people (stderr or a file), or, when the file name ends in ".json", the machine-readable
 * form that `ptxsim sweep` and scripts read instead of scraping the table.
 *
 * The JSON format (version 1; documented in README.md, "Statistics as JSON"):
 *   {"format": "ptxsim-stats", "version": 1,
 *    "run":    {"gpu", "engine", "det", "threads", "seed", "quantum", "timing"},
 *    "total":  {counters summed over every kernel},
 *    "kernels": [{"name", counters..., "host_seconds"}],
 *    "kilotm": {KILO TM's transactions, the paper's Table 2 columns; only with --tm=kilotm},
 *    "host_seconds": wall time spent in kernels}
 * Everything under "total" is a simulation result (deterministic under --det=gpudet); host
 * time lives outside it, so a consumer can take every number under "total" as a statistic.
 * New statistics (the timing model's cycles and IPC) are added as new members; a consumer
 * must ignore members it does not know. */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <string.h>

/* Writes s as a JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static const char *const qend_json_names[] = {"quantum", "atomic", "fence", "wgbarrier",
                                              "complete", "store_buffer"};
_Static_assert(sizeof qend_json_names / sizeof qend_json_names[0] == TIMING_QEND_COUNT,
               "one JSON name per quantum end reason");

/* The cycle model's numbers (--timing), as members: "cycles" and "ipc" (thread instructions
 * per cycle, a ratio of the sums, so the total's is the whole run's), then a "timing" object. */
static void json_cycles(FILE *out, const timing_stats *s, const char *indent)
{
    double ipc = (double)s->thread_instructions / (double)s->cycles;
    fprintf(out, ",\n%s\"cycles\": %llu,\n%s\"ipc\": %.6f,\n%s\"timing\": {"
                 "\"thread_instructions\": %llu, \"warp_ipc\": %.6f, \"occupancy\": %.6f, "
                 "\"issue_slots\": {",
            indent, (unsigned long long)s->cycles, indent, ipc, indent,
            (unsigned long long)s->thread_instructions,
            (double)s->warp_instructions / (double)s->cycles,
            s->warp_slot_cycles ? (double)s->warp_cycles / (double)s->warp_slot_cycles : 0.0);
    for (int i = 0; i < TIMING_SLOT_COUNT; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", timing_slot_name((timing_slot)i),
                (unsigned long long)s->slots[i]);
    fprintf(out, "}, \"diverged_branches\": %llu, \"l1_hits\": %llu, \"l1_misses\": %llu, "
                 "\"l1_mshr_merges\": %llu, \"l1_write_hits\": %llu, \"l1_write_misses\": %llu, "
                 "\"smem_requests\": %llu, \"smem_wavefronts\": %llu, "
                 "\"l2_hits\": %llu, \"l2_misses\": %llu, \"l2_atomics\": %llu, "
                 "\"l2_write_hits\": %llu, \"l2_write_misses\": %llu, "
                 "\"dram_reads\": %llu, \"dram_writes\": %llu, \"dram_row_hits\": %llu, "
                 "\"dram_row_misses\": %llu, \"icnt_bytes\": %llu, \"tex_hits\": %llu, "
                 "\"tex_misses\": %llu",
            (unsigned long long)s->diverged_branches, (unsigned long long)s->l1_hits,
            (unsigned long long)s->l1_misses, (unsigned long long)s->l1_mshr_merges,
            (unsigned long long)s->l1_write_hits, (unsigned long long)s->l1_write_misses,
            (unsigned long long)s->smem_requests, (unsigned long long)s->smem_wavefronts,
            (unsigned long long)s->l2_hits, (unsigned long long)s->l2_misses,
            (unsigned long long)s->l2_atomics, (unsigned long long)s->l2_write_hits,
            (unsigned long long)s->l2_write_misses, (unsigned long long)s->dram_reads,
            (unsigned long long)s->dram_writes, (unsigned long long)s->dram_row_hits,
            (unsigned long long)s->dram_row_misses, (unsigned long long)s->icnt_bytes,
            (unsigned long long)s->tex_hits, (unsigned long long)s->tex_misses);
    if (s->quanta) {
        /* GPUDet's modes in cycles (the paper's breakdown; they add up to "cycles") and why
         * warps ended their quanta */
        fprintf(out, ",\n%s  \"gpudet\": {\"parallel_cycles\": %llu, \"commit_cycles\": %llu, "
                     "\"serial_cycles\": %llu, \"barrier_cycles\": %llu, \"barriers\": %llu, "
                     "\"commit_requests\": %llu, \"zcache_misses\": %llu, \"log_writes\": %llu, "
                     "\"log_searches\": %llu, \"bloom_false_positives\": %llu, "
                     "\"log_entries_read\": %llu, \"quanta\": %llu, \"quantum_end\": {",
                indent, (unsigned long long)s->gd_parallel_cycles,
                (unsigned long long)s->gd_commit_cycles, (unsigned long long)s->gd_serial_cycles,
                (unsigned long long)s->gd_barrier_cycles, (unsigned long long)s->gd_barriers,
                (unsigned long long)s->gd_commit_requests, (unsigned long long)s->gd_zcache_misses,
                (unsigned long long)s->gd_log_writes, (unsigned long long)s->gd_log_searches,
                (unsigned long long)s->gd_bloom_false, (unsigned long long)s->gd_log_entries_read,
                (unsigned long long)s->quanta);
        for (int i = 0; i < TIMING_QEND_COUNT; i++)
            fprintf(out, "%s\"%s\": %llu", i ? ", " : "", qend_json_names[i],
                    (unsigned long long)s->quantum_end[i]);
        fprintf(out, "}}");
    }
    if (s->dab_flushes)
        /* DAB's epochs in cycles: they add up to "cycles" */
        fprintf(out, ",\n%s  \"dab\": {\"parallel_cycles\": %llu, \"flush_cycles\": %llu, "
                     "\"flush_op_cycles\": %llu, \"barrier_cycles\": %llu, \"flushes\": %llu, "
                     "\"flush_transactions\": %llu, \"ordered_instructions\": %llu, "
                     "\"order_skips\": %llu}",
                indent, (unsigned long long)s->dab_parallel_cycles,
                (unsigned long long)s->dab_flush_cycles, (unsigned long long)s->dab_flush_op_cycles,
                (unsigned long long)s->dab_barrier_cycles, (unsigned long long)s->dab_flushes,
                (unsigned long long)s->dab_transactions, (unsigned long long)s->dab_ordered,
                (unsigned long long)s->dab_order_skips);
    if (s->tm_warp_commits)
        /* KILO TM's commit units (--tm=kilotm): what the commits cost, how full the rings were */
        fprintf(out, ",\n%s  \"kilotm\": {\"warp_commits\": %llu, \"tx_commits\": %llu, "
                     "\"commit_cycles\": %llu, \"commit_cycles_mean\": %.6f, "
                     "\"begin_waits\": %llu, \"log_entries\": %llu, \"protocol_bytes\": %llu, "
                     "\"validation_reads\": %llu, \"revalidations\": %llu, "
                     "\"false_hazards\": %llu, \"commit_writes\": %llu, "
                     "\"cu_occupancy_mean\": %.6f, \"cu_occupancy_max\": %llu}",
                indent, (unsigned long long)s->tm_warp_commits,
                (unsigned long long)s->tm_tx_commits, (unsigned long long)s->tm_commit_cycles,
                (double)s->tm_commit_cycles / (double)s->tm_warp_commits,
                (unsigned long long)s->tm_begin_waits, (unsigned long long)s->tm_log_entries,
                (unsigned long long)s->tm_protocol_bytes,
                (unsigned long long)s->tm_validation_reads,
                (unsigned long long)s->tm_revalidations, (unsigned long long)s->tm_false_hazards,
                (unsigned long long)s->tm_commit_writes,
                s->tm_cu_cycles ? (double)s->tm_cu_entry_cycles / (double)s->tm_cu_cycles : 0.0,
                (unsigned long long)s->tm_cu_max_entries);
    fprintf(out, "}");
}

/* The counters one kernel (or the total) has, as JSON members after an opening brace. The
 * GPUDet object is there only when quanta ran: with determinism off those counters do not
 * apply, and a consumer sees them as absent rather than zero. */
static void json_counters(FILE *out, uint64_t launches, uint64_t ctas, uint64_t threads,
                          const timing_stats *s, const char *indent)
{
    fprintf(out, "%s\"launches\": %llu,\n%s\"ctas\": %llu,\n%s\"threads\": %llu,\n"
                 "%s\"warp_instructions\": %llu",
            indent, (unsigned long long)launches, indent, (unsigned long long)ctas, indent,
            (unsigned long long)threads, indent, (unsigned long long)s->warp_instructions);
    if (s->cycles)
        json_cycles(out, s, indent);
    if (s->dab_flushes)
        fprintf(out,
                ",\n%s\"dab\": {\"flushes\": %llu, \"atomics_buffered\": %llu, \"fused\": %llu, "
                "\"entries_flushed\": %llu, \"flush_transactions\": %llu, \"full_buffers\": %llu, "
                "\"flush_class_ops\": %llu, \"fence_waits\": %llu}",
                indent, (unsigned long long)s->dab_flushes, (unsigned long long)s->dab_atomics,
                (unsigned long long)s->dab_fused, (unsigned long long)s->dab_entries,
                (unsigned long long)s->dab_transactions, (unsigned long long)s->dab_full,
                (unsigned long long)s->dab_flush_ops, (unsigned long long)s->dab_fences);
    if (!s->quanta)
        return;
    fprintf(out, ",\n%s\"gpudet\": {\"quanta\": %llu, \"quantum_end\": {", indent,
            (unsigned long long)s->quanta);
    for (int i = 0; i < TIMING_QEND_COUNT; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", qend_json_names[i],
                (unsigned long long)s->quantum_end[i]);
    fprintf(out,
            "}, \"store_buffer_entries\": %llu, \"store_buffer_max_entries\": %llu, "
            "\"store_buffer_bytes\": %llu, \"store_buffer_own_reads\": %llu, "
            "\"serial_atomics\": %llu, \"serial_calls\": %llu, \"bta_releases\": %llu, "
            "\"dwp_launches\": %llu}",
            (unsigned long long)s->sb_entries, (unsigned long long)s->sb_max_entries,
            (unsigned long long)s->sb_bytes, (unsigned long long)s->sb_own_reads,
            (unsigned long long)s->serial_atomics, (unsigned long long)s->serial_calls,
            (unsigned long long)s->bta_releases, (unsigned long long)s->dwp_launches);
}

/* KILO TM's statistics over the whole run (every kernel), as the paper's Table 2 gives them:
 * transactions committed and aborted, aborts per committed transaction (mean, and the most one
 * transaction took), the committed read- and write-sets in 32-bit words (mean, max), and the
 * most transactions in flight at once (in the GPU and in one SM: these depend on the schedule).
 * Nothing when --tm is off. */
static void json_kilotm(FILE *out)
{
    emu_mem_policy *tm = timing_kilotm_find(rt_g.policy);
    if (!tm)
        return;
    timing_kilotm_stats t;
    timing_kilotm_get_stats(tm, &t);
    double c = t.committed ? (double)t.committed : 1.0;
    fprintf(out, "  \"kilotm\": {\"tm_warps\": %u, \"committed\": %llu, \"aborted\": %llu, "
                 "\"aborted_inside\": %llu, \"warp_commits\": %llu, \"begin_deferrals\": %llu,\n"
                 "    \"aborts_per_tx\": {\"mean\": %.6f, \"max\": %llu},\n"
                 "    \"read_set_words\": {\"mean\": %.6f, \"max\": %llu},\n"
                 "    \"write_set_words\": {\"mean\": %.6f, \"max\": %llu},\n"
                 "    \"max_concurrent_tx\": %llu, \"max_concurrent_tx_per_sm\": %llu},\n",
            rt_g.cfg.tm_warps, (unsigned long long)t.committed, (unsigned long long)t.aborted,
            (unsigned long long)t.early_aborts, (unsigned long long)t.commit_steps,
            (unsigned long long)t.begin_stalls, (double)t.aborted / c,
            (unsigned long long)t.max_aborts, (double)t.committed_read_words / c,
            (unsigned long long)t.max_read_words, (double)t.committed_write_words / c,
            (unsigned long long)t.max_write_words, (unsigned long long)t.max_concurrent,
            (unsigned long long)t.max_concurrent_sm);
}

/* --igpu (spec igpu.md S-11.8): region sizes are warp instructions from a warp's boundary
 * crossing to its next crossing or exit (a restart's discarded part excluded); live-ins per
 * boundary crossed are the analysis's registers (memory-backed inputs excluded); the
 * compiler-induced overhead is continuous spilling's pushes of those live-ins (the paper's
 * CS), counted, not run, relative to the warp instructions executed. */
static double igpu_overhead(const timing_igpu_stats *g, const timing_stats *s)
{
    return s->warp_instructions ? (double)g->spill_instructions / (double)s->warp_instructions
                                : 0.0;
}

static void json_igpu(FILE *out, const timing_igpu_stats *g, const timing_stats *s,
                      const char *indent)
{
    fprintf(out, ",\n%s\"igpu\": {\"boundaries\": %llu, \"region_size\": {\"p25\": %llu, "
                 "\"p50\": %llu, \"p75\": %llu, \"max\": %llu}, \"liveins\": {\"p50\": %llu, "
                 "\"max\": %llu}, \"faults_injected\": %llu, \"page_faults\": %llu, "
                 "\"page_fault_stalls\": %llu, \"page_evictions\": %llu, \"restarts\": %llu, "
                 "\"reexecuted_instructions\": %llu, \"reexecuted_by_page_faults\": %llu, "
                 "\"spill_instructions\": %llu, "
                 "\"spill_overhead\": %.6f, \"reload_instructions\": %llu, "
                 "\"page_fault_cycles\": %llu, \"restart_penalty_cycles\": %llu, "
                 "\"short_restarts\": %llu}",
            indent, (unsigned long long)g->boundaries,
            (unsigned long long)timing_hist_percentile(&g->region_size, 25),
            (unsigned long long)timing_hist_percentile(&g->region_size, 50),
            (unsigned long long)timing_hist_percentile(&g->region_size, 75),
            (unsigned long long)g->region_size.max,
            (unsigned long long)timing_hist_percentile(&g->liveins, 50),
            (unsigned long long)g->liveins.max, (unsigned long long)g->faults,
            (unsigned long long)g->page_faults, (unsigned long long)g->page_stalls,
            (unsigned long long)g->evictions, (unsigned long long)g->restarts,
            (unsigned long long)g->reexecuted, (unsigned long long)g->reexecuted_paging,
            (unsigned long long)g->spill_instructions, igpu_overhead(g, s),
            (unsigned long long)g->reload_instructions, (unsigned long long)g->page_fault_cycles,
            (unsigned long long)g->restart_penalty_cycles,
            (unsigned long long)g->short_restarts);
}

static void table_igpu(FILE *out, const timing_igpu_stats *g, const timing_stats *s)
{
    fprintf(out, "  igpu: %llu boundaries crossed; region size p25/p50/p75/max %llu/%llu/%llu/%llu "
                 "warp instructions; live-ins p50 %llu max %llu; %llu faults injected, %llu page "
                 "faults (%llu taken in place, %llu pages evicted), %llu restarts, %llu warp "
                 "instructions re-executed (%llu after page faults); spilling %llu instructions (%.2f%%)\n",
            (unsigned long long)g->boundaries,
            (unsigned long long)timing_hist_percentile(&g->region_size, 25),
            (unsigned long long)timing_hist_percentile(&g->region_size, 50),
            (unsigned long long)timing_hist_percentile(&g->region_size, 75),
            (unsigned long long)g->region_size.max,
            (unsigned long long)timing_hist_percentile(&g->liveins, 50),
            (unsigned long long)g->liveins.max, (unsigned long long)g->faults,
            (unsigned long long)g->page_faults, (unsigned long long)g->page_stalls,
            (unsigned long long)g->evictions, (unsigned long long)g->restarts,
            (unsigned long long)g->reexecuted, (unsigned long long)g->reexecuted_paging,
            (unsigned long long)g->spill_instructions, 100.0 * igpu_overhead(g, s));
    if (rt_g.cfg.timing)
        fprintf(out, "  igpu cycles: %llu reload instructions, %llu cycles waiting for pages, "
                     "%llu cycles of restart penalty\n",
                (unsigned long long)g->reload_instructions,
                (unsigned long long)g->page_fault_cycles,
                (unsigned long long)g->restart_penalty_cycles);
}

static void report_json(FILE *out, rt_kernel *const *ks, size_t n)
{
    const rt_config *c = &rt_g.cfg;
    fprintf(out, "{\n  \"format\": \"ptxsim-stats\",\n  \"version\": 1,\n  \"run\": {\"gpu\": ");
    json_string(out, rt_g.gpu->name);
    fprintf(out, ", \"engine\": ");
    json_string(out, c->engine);
    fprintf(out, ", \"det\": ");
    json_string(out, c->det);
    fprintf(out, ", \"threads\": %u, \"seed\": %llu, \"quantum\": %llu, \"timing\": %s},\n",
            c->threads, (unsigned long long)c->seed, (unsigned long long)c->quantum,
            c->timing ? "true" : "false");

    uint64_t launches = 0, ctas = 0, threads = 0, failed = 0;
    double seconds = 0;
    timing_stats total = {0};
    static timing_igpu_stats igpu_total;   /* large; the report runs once, under the lock */
    memset(&igpu_total, 0, sizeof igpu_total);
    bool igpu = false;
    fprintf(out, "  \"kernels\": [");
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        rt_kernel *k = ks[i];
        if (!k->launches)
            continue;
        fprintf(out, "%s\n    {\n      \"name\": ", first ? "" : ",");
        first = false;
        json_string(out, rt_kernel_pretty(k));
        fprintf(out, ",\n");
        json_counters(out, k->launches, k->ctas, k->threads, &k->engine, "      ");
        if (k->igpu) {
            json_igpu(out, k->igpu, &k->engine, "      ");
            timing_igpu_stats_add(&igpu_total, k->igpu);
            igpu = true;
        }
        fprintf(out, ",\n      \"failed_launches\": %llu", (unsigned long long)k->failed);
        if (k->failed)
            fprintf(out, ", \"first_error\": \"%s\"", rt_error_name(k->first_error));
        fprintf(out, ",\n      \"host_seconds\": %.6f\n    }", k->seconds);
        failed += k->failed;
        launches += k->launches;
        ctas += k->ctas;
        threads += k->threads;
        seconds += k->seconds;
        timing_stats_add(&total, &k->engine);
    }
    fprintf(out, "%s],\n  \"total\": {\n", first ? "" : "\n  ");
    json_counters(out, launches, ctas, threads, &total, "    ");
    fprintf(out, ",\n    \"failed_launches\": %llu", (unsigned long long)failed);
    if (igpu)
        json_igpu(out, &igpu_total, &total, "    ");
    fprintf(out, "\n  },\n");
    json_kilotm(out);
    fprintf(out, "  \"host_seconds\": %.6f\n}\n", seconds);
}

static void report_table(FILE *out, rt_kernel *const *ks, size_t n)
{
    uint64_t launches = 0;
    double seconds = 0;
    fprintf(out, "ptxsim statistics (gpu %s, engine %s, det %s, %u host thread%s)\n",
            rt_g.gpu->name, rt_g.cfg.engine, rt_g.cfg.det, rt_g.cfg.threads,
            rt_g.cfg.threads == 1 ? "" : "s");
    fprintf(out, "%-40s %10s %12s %14s %12s\n", "kernel", "launches", "blocks", "threads",
            "host ms");
    for (size_t i = 0; i < n; i++) {
        rt_kernel *k = ks[i];
        if (!k->launches)
            continue;
        fprintf(out, "%-40s %10llu %12llu %14llu %12.3f\n", rt_kernel_pretty(k),
                (unsigned long long)k->launches, (unsigned long long)k->ctas,
                (unsigned long long)k->threads, k->seconds * 1e3);
        if (k->failed)
            fprintf(out, "  failed: %llu of its launches (the first: %s)\n",
                    (unsigned long long)k->failed, rt_error_name(k->first_error));
        timing_stats_print(out, NULL, &k->engine);
        timing_metrics_print(out, &k->metrics);
        if (k->igpu)
            table_igpu(out, k->igpu, &k->engine);
        launches += k->launches;
        seconds += k->seconds;
    }
    fprintf(out, "%-40s %10llu %12s %14s %12.3f\n", "total", (unsigned long long)launches, "",
            "", seconds * 1e3);
    uint64_t lost, lost_bytes;
    emu_output_dropped(&lost, &lost_bytes);
    fprintf(out, "device printf: %llu record%s (%llu bytes) lost to FIFO overflow "
                 "(cudaLimitPrintfFifoSize = %zu bytes)\n",
            (unsigned long long)lost, lost == 1 ? "" : "s", (unsigned long long)lost_bytes,
            rt_g.limits[cudaLimitPrintfFifoSize]);
    emu_mem_policy *tm = timing_kilotm_find(rt_g.policy);
    if (tm) {
        timing_kilotm_stats t;
        timing_kilotm_get_stats(tm, &t);
        uint64_t tx = t.committed + t.aborted;
        fprintf(out, "kilotm: %llu transactions committed, %llu aborted (%.3f aborts per "
                "transaction; %llu inside the transaction on a stale read), %llu warp commits, "
                "%.2f read / %.2f write words per attempt, "
                "%llu tx_begin deferrals (--tm-warps=%u)\n",
                (unsigned long long)t.committed, (unsigned long long)t.aborted,
                t.committed ? (double)t.aborted / (double)t.committed : 0.0,
                (unsigned long long)t.early_aborts, (unsigned long long)t.commit_steps, tx ? (double)t.read_words / (double)tx : 0.0,
                tx ? (double)t.write_words / (double)tx : 0.0,
                (unsigned long long)t.begin_stalls, rt_g.cfg.tm_warps);
        fprintf(out, "kilotm: committed transactions: at most %llu aborts each; read-set "
                "%.2f words (max %llu), write-set %.2f words (max %llu); at most %llu "
                "transactions at once (%llu in one SM)\n",
                (unsigned long long)t.max_aborts,
                t.committed ? (double)t.committed_read_words / (double)t.committed : 0.0,
                (unsigned long long)t.max_read_words,
                t.committed ? (double)t.committed_write_words / (double)t.committed : 0.0,
                (unsigned long long)t.max_write_words, (unsigned long long)t.max_concurrent,
                (unsigned long long)t.max_concurrent_sm);
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The metrics (timing_metrics: instruction mix, sectors and wavefronts per request) are in the
 * table only: counting them costs every event a look (on the cycle model's serial weave too),
 * so a launch counts them only where the report will show them. */
bool rt_stats_wants_metrics(void)
{
    const char *dest = rt_g.cfg.stats;
    if (!dest[0]) return false;
    return strcmp(dest, "-") == 0 || strcmp(dest, "stderr") == 0 || !ends_with(dest, ".json");
}

void rt_stats_report(void)
{
    const char *dest = rt_g.cfg.stats[0] ? rt_g.cfg.stats : "-";
    FILE *out = stderr;
    if (strcmp(dest, "-") != 0 && strcmp(dest, "stderr") != 0) {
        out = fopen(dest, "w");
        if (!out) {
            fprintf(stderr, "ptxsim: cannot write statistics to %s\n", dest);
            return;
        }
    }
    pthread_mutex_lock(&rt_g.lock);
    size_t n;
    rt_kernel *const *ks = rt_kernels(&n);
    if (out != stderr && ends_with(dest, ".json"))
        report_json(out, ks, n);
    else
        report_table(out, ks, n);
    pthread_mutex_unlock(&rt_g.lock);
    if (out != stderr && fclose(out) != 0)
        fprintf(stderr, "ptxsim: cannot write statistics to %s\n", dest);
}
