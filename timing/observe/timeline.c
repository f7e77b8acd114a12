/* timeline.c: --timeline=FILE.json, the cycle model's schedule in the trace-event format that
 * Perfetto (ui.perfetto.dev) and chrome://tracing open.
 *
 * Process 0 ("kernels") has one track with a slice per launch; process 1 ("SMs") a track per SM
 * with a slice per CTA it ran ("block (x,y,z)"); with --timeline-warps process 2 ("warps") a
 * track per SM and warp slot with a slice per warp ("block (x,y,z) warp w"). Times are simulated: microseconds at the
 * model's clock, launches one after another as the model runs them. Slices are kept in memory
 * and written at close, in the order they ended (deterministic: the model is). */
#include "timing/timing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct slice {
    uint64_t start, end;      /* cycles since the first launch */
    uint32_t pid, tid;
    char name[96];
} slice;

struct timing_timeline {
    FILE *f;
    slice *s;
    size_t n, cap;
    uint64_t base;            /* cycles of the launches before this one */
    double us_per_cycle;
    bool oom, warps;
};

timing_timeline *timing_timeline_open(const char *path, char *err, size_t errlen)
{
    timing_timeline *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->f = fopen(path, "w");
    if (!t->f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(t);
        return NULL;
    }
    return t;
}

static void add(timing_timeline *t, uint32_t pid, uint32_t tid, uint64_t start, uint64_t end,
                const char *name)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        slice *s = realloc(t->s, cap * sizeof *s);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    slice *s = &t->s[t->n++];
    s->pid = pid;
    s->tid = tid;
    s->start = t->base + start;
    s->end = t->base + end;
    snprintf(s->name, sizeof s->name, "%s", name);
}

void timing_timeline_cta(timing_timeline *t, uint32_t sm, emu_dim3 cta, uint64_t start,
                         uint64_t end)
{
    char name[64];
    snprintf(name, sizeof name, "block (%u,%u,%u)", cta.x, cta.y, cta.z);
    add(t, 1, sm, start, end, name);
}

void timing_timeline_want_warps(timing_timeline *t) { t->warps = true; }

bool timing_timeline_wants_warps(const timing_timeline *t) { return t && t->warps; }

void timing_timeline_warp(timing_timeline *t, uint32_t sm, uint32_t slot, emu_dim3 cta,
                          uint32_t warp, uint64_t start, uint64_t end)
{
    char name[80];
    snprintf(name, sizeof name, "block (%u,%u,%u) warp %u", cta.x, cta.y, cta.z, warp);
    add(t, 2, sm << 16 | slot, start, end, name);
}

void timing_timeline_kernel(timing_timeline *t, const char *kernel, uint64_t cycles,
                            int clock_khz)
{
    add(t, 0, 0, 0, cycles, kernel ? kernel : "kernel");
    t->base += cycles;
    t->us_per_cycle = 1000.0 / (clock_khz > 0 ? clock_khz : 1000);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

bool timing_timeline_close(timing_timeline *t)
{
    if (!t) return true;
    FILE *f = t->f;
    double us = t->us_per_cycle > 0 ? t->us_per_cycle : 0.001;
    fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
               "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": "
               "\"kernels\"}},\n"
               "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": "
               "\"SMs\"}}");
    if (t->warps)
        fprintf(f, ",\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, \"args\": "
                   "{\"name\": \"warps\"}}");
    for (size_t i = 0; i < t->n; i++) {
        const slice *s = &t->s[i];
        fprintf(f, ",\n{\"name\": ");
        json_string(f, s->name);
        fprintf(f, ", \"ph\": \"X\", \"pid\": %u, \"tid\": %u, \"ts\": %.4f, \"dur\": %.4f, "
                   "\"args\": {\"start_cycle\": %llu, \"end_cycle\": %llu}}",
                s->pid, s->tid, (double)s->start * us, (double)(s->end - s->start) * us,
                (unsigned long long)s->start, (unsigned long long)s->end);
    }
    fprintf(f, "\n]}\n");
    bool ok = !t->oom && !ferror(f);
    ok = fclose(f) == 0 && ok;
    free(t->s);
    free(t);
    return ok;
}
