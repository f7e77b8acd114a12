/* stats.c: the per-kernel report PTXSIM_STATS asks for, written when the program exits. */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <string.h>

void rt_stats_report(void)
{
    const char *dest = rt_g.cfg.stats;
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
        timing_stats_print(out, NULL, &k->engine);
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
    pthread_mutex_unlock(&rt_g.lock);
    if (out != stderr)
        fclose(out);
}
