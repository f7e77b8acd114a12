/* watchdog.c: ending a launch that runs too long (--watchdog=SECONDS, --watchdog-insts=N).
 *
 * A kernel that never ends would otherwise hold the program (and a CI job) until something
 * kills the process. The engines' scheduling loops report each warp step here; when the host
 * time or the warp instructions of the launch pass the limit, the loop stops, every CTA still
 * resident is described warp by warp (emu_warp_where: kernel, PTX and source line, block,
 * warp), and the grid ends with an EMU_FAULT_TIMEOUT fault, which the runtime turns into
 * cudaErrorLaunchTimeout, sticky as on a GPU whose display watchdog fired.
 *
 * The time limit is read from the host clock, so where the run stops varies. The instruction
 * limit under GPUDet is checked only at quantum ends, against a total that does not depend on
 * host threads or timing: the run stops at the same quantum, with the warps at the same
 * places, every time.
 */
#include "timing/engine/engine_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Lines of the report beyond which warps are only counted. */
#define MAX_LINES 256
#define CLOCK_EVERY 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void timing_watchdog_start(timing_watchdog *wd, const timing_engine_config *cfg)
{
    memset(wd, 0, sizeof *wd);
    wd->cfg = cfg;
    if (cfg->watchdog_seconds > 0) wd->deadline = now() + cfg->watchdog_seconds;
    wd->max_insts = cfg->watchdog_insts;
    wd->armed = wd->deadline > 0 || wd->max_insts > 0;
    pthread_mutex_init(&wd->lock, NULL);
}

static bool time_is_up(const timing_watchdog *wd)
{
    return wd->deadline > 0 && now() >= wd->deadline;
}

/* fired: 1 by the time limit, 2 by the instruction limit (the first reason sticks) */
static bool fire(timing_watchdog *wd, bool by_insts)
{
    int none = 0;
    __atomic_compare_exchange_n(&wd->fired, &none, by_insts ? 2 : 1, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
    return true;
}

bool timing_watchdog_step(timing_watchdog *wd, uint64_t n)
{
    if (!wd->armed) return false;
    if (__atomic_load_n(&wd->fired, __ATOMIC_RELAXED)) return true;
    uint64_t total = __atomic_add_fetch(&wd->insts, n, __ATOMIC_RELAXED);
    if (wd->max_insts && total > wd->max_insts) return fire(wd, true);
    if (wd->deadline > 0 &&
        __atomic_add_fetch(&wd->ticks, 1, __ATOMIC_RELAXED) % CLOCK_EVERY == 0 &&
        time_is_up(wd))
        return fire(wd, false);
    return false;
}

bool timing_watchdog_expired(timing_watchdog *wd, uint64_t total)
{
    if (!wd->armed) return false;
    __atomic_store_n(&wd->insts, total, __ATOMIC_RELAXED);
    if (wd->max_insts && total > wd->max_insts) return fire(wd, true);
    if (time_is_up(wd)) return fire(wd, false);
    return false;
}

bool timing_watchdog_fired(const timing_watchdog *wd)
{
    return __atomic_load_n(&wd->fired, __ATOMIC_RELAXED) != 0;
}

static void append(timing_watchdog *wd, const char *s, size_t n)
{
    if (wd->len + n + 1 > wd->cap) {
        size_t cap = wd->cap ? wd->cap * 2 : 4096;
        while (cap < wd->len + n + 1) cap *= 2;
        char *p = realloc(wd->where, cap);
        if (!p) return;   /* the report is shorter; the timeout itself still stands */
        wd->where = p;
        wd->cap = cap;
    }
    memcpy(wd->where + wd->len, s, n);
    wd->len += n;
    wd->where[wd->len] = 0;
}

void timing_watchdog_describe_cta(timing_watchdog *wd, emu_cta *c)
{
    pthread_mutex_lock(&wd->lock);
    uint32_t nw = emu_cta_warp_count(c);
    for (uint32_t i = 0; i < nw; i++) {
        char line[640];
        int n = emu_warp_where(emu_cta_warp(c, i), line, sizeof line - 1);
        if (n <= 0) continue;
        wd->warps++;
        if (wd->shown >= MAX_LINES) continue;
        wd->shown++;
        size_t k = (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
        line[k++] = '\n';
        append(wd, "  ", 2);
        append(wd, line, k);
    }
    pthread_mutex_unlock(&wd->lock);
}

void timing_watchdog_finish(timing_watchdog *wd, emu_grid *g, uint64_t not_started)
{
    const timing_engine_config *cfg = wd->cfg;
    char msg[512];
    uint64_t counted = __atomic_load_n(&wd->insts, __ATOMIC_RELAXED);
    char *kn = ptx_demangle(emu_grid_launch(g)->kernel->name);
    const char *kname = kn ? kn : emu_grid_launch(g)->kernel->name;
    if (__atomic_load_n(&wd->fired, __ATOMIC_RELAXED) == 2)
        snprintf(msg, sizeof msg, "the watchdog ended kernel %s after %llu warp instructions "
                 "(--watchdog-insts=%llu); %llu unfinished warp%s resident, %llu block%s not "
                 "started", kname, (unsigned long long)counted,
                 (unsigned long long)cfg->watchdog_insts, (unsigned long long)wd->warps,
                 wd->warps == 1 ? "" : "s", (unsigned long long)not_started,
                 not_started == 1 ? "" : "s");
    else
        snprintf(msg, sizeof msg, "the watchdog ended kernel %s after %g s of host time "
                 "(--watchdog=%g); %llu unfinished warp%s resident, %llu block%s not started",
                 kname, cfg->watchdog_seconds, cfg->watchdog_seconds,
                 (unsigned long long)wd->warps, wd->warps == 1 ? "" : "s",
                 (unsigned long long)not_started, not_started == 1 ? "" : "s");
    free(kn);
    emu_grid_abort(g, EMU_FAULT_TIMEOUT, msg);
    pthread_mutex_lock(&wd->lock);
    if (wd->warps > wd->shown) {
        char more[96];
        int n = snprintf(more, sizeof more, "  ... and %llu more warps\n",
                         (unsigned long long)(wd->warps - wd->shown));
        append(wd, more, (size_t)n);
    }
    if (cfg->watchdog_where) {
        *cfg->watchdog_where = wd->where;
        wd->where = NULL;
    }
    pthread_mutex_unlock(&wd->lock);
}

void timing_watchdog_destroy(timing_watchdog *wd)
{
    free(wd->where);
    wd->where = NULL;
    pthread_mutex_destroy(&wd->lock);
}
