/* state.c: the runtime's global state, its one-time initialisation, the lock around it, and
 * the diagnostics helpers. */
#include "runtime/rt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

rt_state rt_g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init(void)
{
    rt_config_load(&rt_g.cfg);
    rt_g.gpu = rt_gpu_model_find(rt_g.cfg.gpu);
    if (!rt_g.gpu)  /* the option check makes this unreachable; keep a usable device anyway */
        rt_g.gpu = rt_gpu_model_find("a100");
    rt_g.policy = emu_direct_policy();
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
    if (rt_g.cfg.stats[0])
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
    pthread_mutex_lock(&rt_g.lock);
    cudaError_t sticky = rt_g.sticky;
    if (sticky != cudaSuccess) {
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
    if (rt_g.sticky == cudaSuccess)
        rt_g.sticky = err;
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

cudaError_t rt_api_error(cudaError_t err, const char *function, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxsim: %s: %s (%s)\n", function, msg, rt_error_name(err));
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
