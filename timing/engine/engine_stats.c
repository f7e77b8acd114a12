/* engine_stats.c: adding up and printing the engine's per-kernel statistics. */
#include "timing/engine/engine_internal.h"

static const char *const qend_names[TIMING_QEND_COUNT] = {
    "QUANTUM", "ATOMIC", "FENCE", "WGBARRIER", "COMPLETE",
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
}

void timing_stats_print(FILE *out, const char *name, const timing_stats *s)
{
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
