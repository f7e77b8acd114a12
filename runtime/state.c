/* state.c: the runtime's global state, its one-time initialisation, the lock around it, and
 * the diagnostics helpers. */
#include "runtime/rt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

rt_state rt_g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int program_runtime_major = CUDART_VERSION / 1000;

void rt_set_program_runtime_major(int major)
{
    program_runtime_major = major;
}

int rt_program_runtime_major(void)
{
    return program_runtime_major;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The JIT's disk cache: $XDG_CACHE_HOME/ptxsim/jit, else ~/.cache/ptxsim/jit (the XDG base
 * directory rules); false when neither names a folder. */
static bool jit_cache_dir(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len;
    if (xdg && xdg[0] == '/') len = snprintf(out, n, "%s/ptxsim/jit", xdg);
    else if (home && home[0]) len = snprintf(out, n, "%s/.cache/ptxsim/jit", home);
    else return false;
    return len > 0 && (size_t)len < n;
}

static void init(void)
{
    rt_config_load(&rt_g.cfg);
    rt_g.gpu = rt_gpu_model_find(rt_g.cfg.gpu);
    if (!rt_g.gpu)  /* the option check makes this unreachable; keep a usable device anyway */
        rt_g.gpu = rt_gpu_model_find("a100");
    rt_g.policy = emu_direct_policy();
    if (strcmp(rt_g.cfg.tm, "kilotm") == 0) {
        emu_mem_policy *tm = timing_kilotm_create(rt_g.cfg.tm_warps,
                                                  (uint32_t)rt_g.gpu->sm_count, rt_g.policy);
        if (tm)
            rt_g.policy = tm;
        else
            fprintf(stderr, "ptxsim: --tm=kilotm: out of host memory; kernels run without "
                    "transactions\n");
    }
    char jit_cache[4096];
    bool cached = rt_g.cfg.jit_cache && jit_cache_dir(jit_cache, sizeof jit_cache);
    emu_jit_configure(&(emu_jit_options){.verbose = rt_g.cfg.verbose > 0,
                                         .hot_instructions = rt_g.cfg.jit_threshold,
                                         .cache_dir = cached ? jit_cache : NULL,
                                         .cache_bytes = rt_g.cfg.jit_cache_mib << 20,
                                         .version = RT_PTXSIM_VERSION,
                                         .first_wanted = rt_wake_waiters});
    emu_set_pageable_access(rt_g.cfg.pageable_memory_access);
    /* The device has the model's memory: allocations (and cudaDeviceSetLimit's heap) beyond it
     * fail as on that GPU. Only reserved address space until touched. */
    emu_device_set_capacity(rt_g.gpu->global_mem);
    /* The defaults a CUDA 13 device reports for cudaDeviceGetLimit. */
    rt_g.limits[cudaLimitStackSize] = 1024;
    rt_g.limits[cudaLimitPrintfFifoSize] = 1u << 20;
    rt_g.limits[cudaLimitMallocHeapSize] = 8u << 20;
    rt_g.limits[cudaLimitDevRuntimeSyncDepth] = 2;
    rt_g.limits[cudaLimitDevRuntimePendingLaunchCount] = 2048;
    rt_g.limits[cudaLimitMaxL2FetchGranularity] = 64;
    rt_g.limits[cudaLimitPersistingL2CacheSize] = 0;
    rt_context_reserve(rt_g.limits[cudaLimitPrintfFifoSize], rt_g.limits[cudaLimitStackSize]);
    if (rt_g.cfg.checks) {
        /* registered before the other exit handlers, so it runs after them: the summary is
         * the last thing the program prints, and an --error-exitcode exit skips nothing */
        rt_g.check = timing_check_create(rt_g.cfg.checks);
        if (!rt_g.check) {
            fprintf(stderr, "ptxsim: --check: out of host memory\n");
            exit(2);
        }
        atexit(rt_check_finish);
    }
    if (rt_g.cfg.watch[0]) {
        char err[512];
        if (!(rt_g.watch = timing_watch_create(rt_g.cfg.watch, stderr, err, sizeof err))) {
            fprintf(stderr, "ptxsim: --watch=%s: %s\n", rt_g.cfg.watch, err);
            exit(2);
        }
    }
    if (rt_g.cfg.record[0] || rt_g.cfg.replay[0]) {
        char err[512];
        if (rt_g.cfg.record[0] && !(rt_g.record = timing_record_open(rt_g.cfg.record, err,
                                                                   sizeof err))) {
            fprintf(stderr, "ptxsim: --record=%s: %s\n", rt_g.cfg.record, err);
            exit(2);
        }
        if (rt_g.cfg.replay[0] && !(rt_g.replay = timing_replay_open(rt_g.cfg.replay, err,
                                                                   sizeof err))) {
            fprintf(stderr, "ptxsim: --replay=%s: %s\n", rt_g.cfg.replay, err);
            exit(2);
        }
        if (rt_g.record)
            atexit(rt_record_finish);
    }
    if (rt_g.cfg.trace[0] && strcmp(rt_g.cfg.trace, "off") != 0) {
        char err[256];
        rt_g.trace = timing_trace_open(rt_g.cfg.trace, err, sizeof err);
        if (!rt_g.trace) {
            fprintf(stderr, "ptxsim: --trace=%s: %s\n", rt_g.cfg.trace, err);
            exit(2);
        }
        atexit(rt_trace_finish);
    }
    if (rt_g.cfg.timing && rt_g.cfg.timeline[0] && strcmp(rt_g.cfg.timeline, "off") != 0) {
        char err[256];
        rt_g.timeline = timing_timeline_open(rt_g.cfg.timeline, err, sizeof err);
        if (!rt_g.timeline) {
            fprintf(stderr, "ptxsim: --timeline=%s: %s\n", rt_g.cfg.timeline, err);
            exit(2);
        }
        if (rt_g.cfg.timeline_warps) timing_timeline_want_warps(rt_g.timeline);
        atexit(rt_timeline_finish);
    }
    /* --timing's summary goes to stderr when no --stats destination is named; registered after
     * the refusals above, so a refused run prints no empty summary */
    if (rt_g.cfg.stats[0] || rt_g.cfg.timing)
        atexit(rt_stats_report);
    rt_log(1, "runtime %s: engine %s, %u host thread%s, seed %llu, det %s, timing %s, "
              "gpu %s (sm_%d%d, %d SMs)",
           RT_PTXSIM_VERSION, rt_g.cfg.engine, rt_g.cfg.threads, rt_g.cfg.threads == 1 ? "" : "s",
           (unsigned long long)rt_g.cfg.seed, rt_g.cfg.det, rt_g.cfg.timing ? "on" : "off",
           rt_g.gpu->name, rt_g.gpu->major, rt_g.gpu->minor, rt_g.gpu->sm_count);
}

void rt_init(void)
{
    pthread_once(&init_once, init);
}

cudaError_t rt_begin(void)
{
    rt_init();
    rt_ctx_bind_runtime();  /* a thread without a current context gets the primary one */
    pthread_mutex_lock(&rt_g.lock);
    cudaError_t sticky = rt_g.sticky;
    if (sticky != cudaSuccess) {
        /* the device output that explains the error (a failed assertion's lines) reaches the
         * program by the first call that reports it, even when the device worker poisoned the
         * context before the program's synchronisation came to flush it */
        rt_flush_output_locked();
        pthread_mutex_unlock(&rt_g.lock);
        return rt_record(sticky);
    }
    return cudaSuccess;
}

cudaError_t rt_end(cudaError_t err)
{
    pthread_mutex_unlock(&rt_g.lock);
    return rt_record(err);
}

void rt_poison(cudaError_t err)
{
    if (rt_g.sticky == cudaSuccess) {
        rt_g.sticky = err;
        rt_g.sticky_count++;
    }
}

bool rt_error_is_sticky(cudaError_t err)
{
    switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorIllegalInstruction:
    case cudaErrorHardwareStackError:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchTimeout:
        return true;
    default:
        return false;
    }
}

/* Who names errors in messages on this thread: the driver API's calls name CUresults. */
static _Thread_local rt_error_namer namer;

rt_error_namer rt_swap_error_namer(rt_error_namer n)
{
    rt_error_namer was = namer;
    namer = n;
    return was;
}

cudaError_t rt_api_error(cudaError_t err, const char *function, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxsim: %s: %s (%s)\n", function, msg,
            namer ? namer(err) : rt_error_name(err));
    return err;
}

void rt_log(int level, const char *fmt, ...)
{
    if (rt_g.cfg.verbose < level)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxsim: %s\n", msg);
}

double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rt_timeline_finish(void)
{
    pthread_mutex_lock(&rt_g.lock);
    timing_timeline *t = rt_g.timeline;
    rt_g.timeline = NULL;
    pthread_mutex_unlock(&rt_g.lock);
    if (t && !timing_timeline_close(t))
        fprintf(stderr, "ptxsim: the timeline file %s could not be written completely\n",
                rt_g.cfg.timeline);
}

void rt_trace_finish(void)
{
    pthread_mutex_lock(&rt_g.lock);
    timing_trace *t = rt_g.trace;
    rt_g.trace = NULL;
    pthread_mutex_unlock(&rt_g.lock);
    if (t && !timing_trace_close(t))
        fprintf(stderr, "ptxsim: the trace file %s could not be written completely\n",
                rt_g.cfg.trace);
}

void rt_check_finish(void)
{
    pthread_mutex_lock(&rt_g.lock);
    timing_check *c = rt_g.check;
    pthread_mutex_unlock(&rt_g.lock);
    if (!c)
        return;
    uint64_t errors = timing_check_finish(c, stderr, rt_g.cfg.check_report);
    if (errors && rt_g.cfg.error_exitcode) {
        fflush(NULL);
        _exit(rt_g.cfg.error_exitcode);
    }
}

void rt_record_finish(void)
{
    pthread_mutex_lock(&rt_g.lock);
    timing_record *r = rt_g.record;
    rt_g.record = NULL;
    pthread_mutex_unlock(&rt_g.lock);
    if (r && !timing_record_close(r))
        fprintf(stderr, "ptxsim: the recording %s could not be written completely\n",
                rt_g.cfg.record);
}
