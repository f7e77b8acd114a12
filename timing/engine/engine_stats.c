/* engine_stats.c: adding up and printing the engine's per-kernel statistics. */
#include "timing/engine/engine_internal.h"

static const char *const qend_names[TIMING_QEND_COUNT] = {
    "QUANTUM", "ATOMIC", "FENCE", "WGBARRIER", "COMPLETE", "STORE_BUFFER",
};

void timing_stats_add(timing_stats *a, const timing_stats *b)
{
    a->grids += b->grids;
    a->ctas += b->ctas;
    a->warp_instructions += b->warp_instructions;
    a->quanta += b->quanta;
    for (int i = 0; i < TIMING_QEND_COUNT; i++) a->quantum_end[i] += b->quantum_end[i];
    a->sb_entries += b->sb_entries;
    a->sb_bytes += b->sb_bytes;
    a->sb_own_reads += b->sb_own_reads;
    if (b->sb_max_entries > a->sb_max_entries) a->sb_max_entries = b->sb_max_entries;
    a->serial_atomics += b->serial_atomics;
    a->serial_calls += b->serial_calls;
    a->bta_releases += b->bta_releases;
    a->dwp_launches += b->dwp_launches;
    a->dab_flushes += b->dab_flushes;
    a->dab_atomics += b->dab_atomics;
    a->dab_fused += b->dab_fused;
    a->dab_entries += b->dab_entries;
    a->dab_transactions += b->dab_transactions;
    a->dab_full += b->dab_full;
    a->dab_flush_ops += b->dab_flush_ops;
    a->dab_fences += b->dab_fences;
    a->cycles += b->cycles;
    a->thread_instructions += b->thread_instructions;
    for (int i = 0; i < TIMING_SLOT_COUNT; i++) a->slots[i] += b->slots[i];
    a->warp_cycles += b->warp_cycles;
    a->warp_slot_cycles += b->warp_slot_cycles;
    a->diverged_branches += b->diverged_branches;
    a->l1_hits += b->l1_hits;
    a->l1_misses += b->l1_misses;
    a->l1_write_hits += b->l1_write_hits;
    a->l1_write_misses += b->l1_write_misses;
    a->tex_hits += b->tex_hits;
    a->tex_misses += b->tex_misses;
    a->l1_mshr_merges += b->l1_mshr_merges;
    a->smem_requests += b->smem_requests;
    a->smem_wavefronts += b->smem_wavefronts;
    a->l2_hits += b->l2_hits;
    a->l2_misses += b->l2_misses;
    a->l2_atomics += b->l2_atomics;
    a->l2_write_hits += b->l2_write_hits;
    a->l2_write_misses += b->l2_write_misses;
    a->dram_reads += b->dram_reads;
    a->dram_writes += b->dram_writes;
    a->dram_row_hits += b->dram_row_hits;
    a->dram_row_misses += b->dram_row_misses;
    a->icnt_bytes += b->icnt_bytes;
    a->gd_parallel_cycles += b->gd_parallel_cycles;
    a->gd_commit_cycles += b->gd_commit_cycles;
    a->gd_serial_cycles += b->gd_serial_cycles;
    a->gd_barrier_cycles += b->gd_barrier_cycles;
    a->gd_barriers += b->gd_barriers;
    a->gd_commit_requests += b->gd_commit_requests;
    a->dab_parallel_cycles += b->dab_parallel_cycles;
    a->dab_flush_cycles += b->dab_flush_cycles;
    a->dab_flush_op_cycles += b->dab_flush_op_cycles;
    a->dab_barrier_cycles += b->dab_barrier_cycles;
    a->tm_warp_commits += b->tm_warp_commits;
    a->tm_tx_commits += b->tm_tx_commits;
    a->tm_commit_cycles += b->tm_commit_cycles;
    a->tm_begin_waits += b->tm_begin_waits;
    a->tm_log_entries += b->tm_log_entries;
    a->tm_protocol_bytes += b->tm_protocol_bytes;
    a->tm_validation_reads += b->tm_validation_reads;
    a->tm_revalidations += b->tm_revalidations;
    a->tm_false_hazards += b->tm_false_hazards;
    a->tm_commit_writes += b->tm_commit_writes;
    a->tm_cu_entry_cycles += b->tm_cu_entry_cycles;
    a->tm_cu_cycles += b->tm_cu_cycles;
    if (b->tm_cu_max_entries > a->tm_cu_max_entries) a->tm_cu_max_entries = b->tm_cu_max_entries;
    a->dab_ordered += b->dab_ordered;
    a->gd_zcache_misses += b->gd_zcache_misses;
    a->gd_log_writes += b->gd_log_writes;
    a->gd_log_searches += b->gd_log_searches;
    a->gd_bloom_false += b->gd_bloom_false;
    a->gd_log_entries_read += b->gd_log_entries_read;
    a->dab_order_skips += b->dab_order_skips;
}

const char *timing_slot_name(timing_slot s)
{
    static const char *const names[TIMING_SLOT_COUNT] = {
        "issued", "idle", "scoreboard", "pipeline", "memory", "barrier", "control",
    };
    return s < TIMING_SLOT_COUNT ? names[s] : "?";
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The cycle model's part of timing_stats_print. */
static void print_cycles(FILE *out, const char *name, const timing_stats *s)
{
    if (!s->cycles) return;
    fprintf(out, "  timing%s%s: %llu cycles, IPC %.2f (thread instructions per cycle), %.3f warp "
                 "instructions per cycle, achieved occupancy %.1f%%\n",
            name ? " " : "", name ? name : "", (unsigned long long)s->cycles,
            ratio(s->thread_instructions, s->cycles), ratio(s->warp_instructions, s->cycles),
            100.0 * ratio(s->warp_cycles, s->warp_slot_cycles));
    uint64_t slots = 0;
    for (int i = 0; i < TIMING_SLOT_COUNT; i++) slots += s->slots[i];
    fprintf(out, "    issue slots:");
    for (int i = 0; i < TIMING_SLOT_COUNT; i++)
        fprintf(out, " %s %.1f%%", timing_slot_name((timing_slot)i),
                100.0 * ratio(s->slots[i], slots));
    fprintf(out, "\n");
    fprintf(out, "    L1: %llu sector hits, %llu misses, %llu merged in MSHRs, %llu sectors stored "
                 "(%llu to lines it held); shared: %llu requests, "
                 "%.2f wavefronts each; %llu diverged branches\n",
            (unsigned long long)s->l1_hits, (unsigned long long)s->l1_misses,
            (unsigned long long)s->l1_mshr_merges,
            (unsigned long long)(s->l1_write_hits + s->l1_write_misses),
            (unsigned long long)s->l1_write_hits, (unsigned long long)s->smem_requests,
            ratio(s->smem_wavefronts, s->smem_requests), (unsigned long long)s->diverged_branches);
    if (s->tex_hits + s->tex_misses)
        fprintf(out, "    texture cache: %llu sector hits, %llu misses\n",
                (unsigned long long)s->tex_hits, (unsigned long long)s->tex_misses);
    fprintf(out, "    L2: %llu sector hits, %llu misses, %llu atomic lane operations, %llu sectors "
                 "stored (%llu hits); DRAM: %llu "
                 "sectors read, %llu written, row buffer hits %.1f%%; interconnect %llu bytes\n",
            (unsigned long long)s->l2_hits, (unsigned long long)s->l2_misses,
            (unsigned long long)s->l2_atomics,
            (unsigned long long)(s->l2_write_hits + s->l2_write_misses),
            (unsigned long long)s->l2_write_hits, (unsigned long long)s->dram_reads,
            (unsigned long long)s->dram_writes,
            100.0 * ratio(s->dram_row_hits, s->dram_row_hits + s->dram_row_misses),
            (unsigned long long)s->icnt_bytes);
    if (s->dab_flushes)
        fprintf(out, "    DAB: parallel %.1f%%, flushes %.1f%% (%llu), flush-class operations %.1f%%, "
                     "barriers %.1f%%\n",
                100.0 * ratio(s->dab_parallel_cycles, s->cycles),
                100.0 * ratio(s->dab_flush_cycles, s->cycles), (unsigned long long)s->dab_flushes,
                100.0 * ratio(s->dab_flush_op_cycles, s->cycles),
                100.0 * ratio(s->dab_barrier_cycles, s->cycles));
    if (s->tm_warp_commits)
        fprintf(out, "    KILO TM: %llu warp commits (%llu transactions), %.1f cycles each to their "
                     "outcome; commit units %.2f entries on average, at most %llu; %llu "
                     "revalidations (%llu false hazards)\n",
                (unsigned long long)s->tm_warp_commits, (unsigned long long)s->tm_tx_commits,
                ratio(s->tm_commit_cycles, s->tm_warp_commits),
                ratio(s->tm_cu_entry_cycles, s->tm_cu_cycles),
                (unsigned long long)s->tm_cu_max_entries, (unsigned long long)s->tm_revalidations,
                (unsigned long long)s->tm_false_hazards);
    if (!s->quanta) return;
    fprintf(out, "    GPUDet modes: parallel %.1f%%, commit %.1f%% (%llu Z-buffer requests), serial "
                 "%.1f%%, global barriers %.1f%% (%llu)\n",
            100.0 * ratio(s->gd_parallel_cycles, s->cycles),
            100.0 * ratio(s->gd_commit_cycles, s->cycles), (unsigned long long)s->gd_commit_requests,
            100.0 * ratio(s->gd_serial_cycles, s->cycles),
            100.0 * ratio(s->gd_barrier_cycles, s->cycles), (unsigned long long)s->gd_barriers);
}

/* DAB's part of timing_stats_print. */
static void print_dab(FILE *out, const char *name, const timing_stats *s)
{
    if (!s->dab_flushes) return;
    fprintf(out, "  dab%s%s: %llu flushes, %llu lane atomics buffered (%llu fused), %llu entries "
                 "in %llu flush transactions\n",
            name ? " " : "", name ? name : "", (unsigned long long)s->dab_flushes,
            (unsigned long long)s->dab_atomics, (unsigned long long)s->dab_fused,
            (unsigned long long)s->dab_entries, (unsigned long long)s->dab_transactions);
    fprintf(out, "    full buffers %llu; flush-class operations %llu; warps waiting at a fence or "
                 "barrier %llu\n",
            (unsigned long long)s->dab_full, (unsigned long long)s->dab_flush_ops,
            (unsigned long long)s->dab_fences);
}

void timing_stats_print(FILE *out, const char *name, const timing_stats *s)
{
    print_cycles(out, name, s);
    print_dab(out, name, s);
    if (!s->quanta) return;
    uint64_t ends = 0;
    for (int i = 0; i < TIMING_QEND_COUNT; i++) ends += s->quantum_end[i];
    fprintf(out, "  gpudet%s%s: %llu quanta, %.1f warp instructions per quantum, %.1f per warp "
                 "and quantum\n",
            name ? " " : "", name ? name : "", (unsigned long long)s->quanta,
            (double)s->warp_instructions / (double)s->quanta,
            ends ? (double)s->warp_instructions / (double)ends : 0.0);
    fprintf(out, "    quantum ends (warps):");
    for (int i = 0; i < TIMING_QEND_COUNT; i++)
        fprintf(out, " %s %llu (%.1f%%)", qend_names[i], (unsigned long long)s->quantum_end[i],
                ends ? 100.0 * (double)s->quantum_end[i] / (double)ends : 0.0);
    fprintf(out, "\n");
    fprintf(out, "    store buffer: %llu entries (at most %llu in one warp and quantum), %llu bytes "
                 "committed, %llu load lanes read own buffered bytes\n",
            (unsigned long long)s->sb_entries, (unsigned long long)s->sb_max_entries,
            (unsigned long long)s->sb_bytes, (unsigned long long)s->sb_own_reads);
    fprintf(out, "    serial mode: %llu atomics, %llu device calls; BTA releases %llu; DWP "
                 "launches %llu\n",
            (unsigned long long)s->serial_atomics, (unsigned long long)s->serial_calls,
            (unsigned long long)s->bta_releases, (unsigned long long)s->dwp_launches);
}
