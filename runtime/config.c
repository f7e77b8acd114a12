/* config.c: the runtime's options (one table, read by `ptxsim --help` and `ptxsim run`) and
 * their values from the PTXSIM_* environment. */
#include "runtime/rt_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const rt_option rt_options[] = {
    {"engine", "PTXSIM_ENGINE", "interp", RT_OPT_CHOICE, "interp|compare|jit", "interp|compare",
     NULL,
     "executor of warps: the interpreter, the LLVM JIT, or compare (every launch on two "
     "executors from one snapshot of device memory, results compared byte for byte)"},
    {"fmad", "PTXSIM_FMAD", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "contract mul + add/sub pairs without a rounding modifier into one fused multiply-add, as "
     "ptxas does by default; off matches binaries assembled with ptxas --fmad=false"},
    {"threads", "PTXSIM_THREADS", "auto", RT_OPT_UINT, NULL, NULL, NULL,
     "host threads that run SMs (auto = the number of cores; 1 = serial)"},
    {"seed", "PTXSIM_SEED", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "scheduling seed: 0 = fixed order, otherwise perturbs CTA placement and warp order "
     "(exposes races; no effect under --det=gpudet)"},
    {"det", "PTXSIM_DET", "off", RT_OPT_CHOICE, "off|gpudet|dab", "off|gpudet", NULL,
     "deterministic execution: off, GPUDet, or deterministic atomic buffering"},
    {"quantum", "PTXSIM_QUANTUM", "auto", RT_OPT_UINT, NULL, NULL, NULL,
     "warp instructions per turn (det off: before the scheduler switches, auto = 100; "
     "gpudet: the quantum, auto = 200)"},
    {"gpudet-bta", "PTXSIM_GPUDET_BTA", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "GPUDet: workgroup-aware quanta, barriers released inside a quantum (BTA)"},
    {"gpudet-dwp", "PTXSIM_GPUDET_DWP", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "GPUDet: deterministic workgroup partitioning (CTAs launched mid-quantum)"},
    {"gpudet-serial", "PTXSIM_GPUDET_SERIAL", "cu", RT_OPT_CHOICE, "cu|warp", NULL, NULL,
     "GPUDet serial-mode order of atomics: cu (CU-Ser: SM by SM) or warp (W-Ser)"},
    {"timing", "PTXSIM_TIMING", "off", RT_OPT_BOOL, NULL, "off", "on",
     "cycle-level timing model of the GPU"},
    {"gpu", "PTXSIM_GPU", "a100", RT_OPT_CHOICE, "gtx480|titanv|v100|rtx2080ti|a100|rtx4090|h100", NULL,
     NULL, "GPU model: device properties and timing configuration"},
    {"pageable-memory-access", "PTXSIM_PAGEABLE_MEMORY_ACCESS", "off", RT_OPT_BOOL, NULL, NULL,
     "on", "kernels may read and write ordinary (malloc'ed) host memory, as on systems with "
     "HMM or ATS; cudaDevAttrPageableMemoryAccess reports it"},
    {"verbose", "PTXSIM_VERBOSE", "0", RT_OPT_UINT, NULL, NULL, "1",
     "diagnostics on stderr: 1 = modules and launches, 2 = also allocations and copies"},
    {"stats", "PTXSIM_STATS", "off", RT_OPT_TEXT, NULL, NULL, "-",
     "per-kernel statistics at exit: off, - (stderr), a file name, or FILE.json for the "
     "machine-readable form (README: Statistics as JSON)"},
    {"tm", "PTXSIM_TM", "off", RT_OPT_CHOICE, "off|kilotm", "off", "kilotm",
     "GPU transactional memory"},
    {"igpu", "PTXSIM_IGPU", "off", RT_OPT_BOOL, NULL, "off", "on",
     "idempotent-region restart of faulting warps (iGPU)"},
    {"fault-inject", "PTXSIM_FAULT_INJECT", "off", RT_OPT_TEXT, NULL, "off", NULL,
     "fault injection specification for iGPU restart"},
    {"trace", "PTXSIM_TRACE", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "instruction and memory trace of every launch, written to this file (read it with "
     "`ptxsim trace FILE`)"},
};
const size_t rt_option_count = sizeof rt_options / sizeof rt_options[0];

const rt_option *rt_option_find(const char *name)
{
    for (size_t i = 0; i < rt_option_count; i++)
        if (strcmp(rt_options[i].name, name) == 0)
            return &rt_options[i];
    return NULL;
}

/* Is `value` one of the '|'-separated words of `list`? */
static bool in_list(const char *list, const char *value)
{
    size_t n = strlen(value);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, '|');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, value, n) == 0)
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"on", "1", "yes", "true"};
    static const char *const no[] = {"off", "0", "no", "false"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) { *out = true; return true; }
        if (strcasecmp(v, no[i]) == 0) { *out = false; return true; }
    }
    return false;
}

static bool parse_uint(const char *v, uint64_t *out)
{
    if (!isdigit((unsigned char)v[0]))
        return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end)
        return false;
    *out = x;
    return true;
}

bool rt_option_check(const rt_option *opt, const char *value, char *err, size_t errlen)
{
    uint64_t u;
    bool b;
    switch (opt->kind) {
    case RT_OPT_CHOICE:
        if (in_list(opt->choices, value))
            return true;
        snprintf(err, errlen, "%s=%s: expected one of %s", opt->env, value, opt->choices);
        return false;
    case RT_OPT_UINT:
        if (parse_uint(value, &u) || (strcmp(opt->def, "auto") == 0 && strcmp(value, "auto") == 0))
            return true;
        snprintf(err, errlen, "%s=%s: expected a non-negative integer%s", opt->env, value,
                 strcmp(opt->def, "auto") == 0 ? " or auto" : "");
        return false;
    case RT_OPT_BOOL:
        if (parse_bool(value, &b))
            return true;
        snprintf(err, errlen, "%s=%s: expected on or off", opt->env, value);
        return false;
    case RT_OPT_TEXT:
        if (value[0])
            return true;
        snprintf(err, errlen, "%s is empty: expected a value or off", opt->env);
        return false;
    }
    return false;
}

bool rt_option_implemented(const rt_option *opt, const char *v)
{
    if (!opt->implemented)
        return true;
    bool a, b;
    if (opt->kind == RT_OPT_BOOL && parse_bool(v, &a) && parse_bool(opt->implemented, &b))
        return a == b;
    return in_list(opt->implemented, v);
}

/* The option's value: the environment's if valid, else the default (with a message). */
static const char *option_value(const rt_option *opt)
{
    const char *v = getenv(opt->env);
    if (!v)
        return opt->def;
    char err[256];
    if (!rt_option_check(opt, v, err, sizeof err)) {
        fprintf(stderr, "ptxsim: %s; using the default %s\n", err, opt->def);
        return opt->def;
    }
    /* Accepted, but only some values work today: say so, and run with the default. */
    if (!rt_option_implemented(opt, v)) {
        fprintf(stderr, "ptxsim: %s=%s is not implemented yet; running with %s\n", opt->env, v,
                opt->def);
        return opt->def;
    }
    return v;
}

static void copy_text(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src);
}

void rt_config_load(rt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    uint64_t u;
    bool b;

    copy_text(cfg->engine, sizeof cfg->engine, option_value(rt_option_find("engine")));
    cfg->threads = parse_uint(option_value(rt_option_find("threads")), &u) && u > 0
                       ? (uint32_t)(u > 1024 ? 1024 : u) : 0;
    if (!cfg->threads) {   /* auto (or 0): one per core */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg->threads = n > 0 ? (uint32_t)(n > 1024 ? 1024 : n) : 1;
    }
    cfg->seed = parse_uint(option_value(rt_option_find("seed")), &u) ? u : 0;
    cfg->fmad = !parse_bool(option_value(rt_option_find("fmad")), &b) || b;
    copy_text(cfg->det, sizeof cfg->det, option_value(rt_option_find("det")));
    cfg->quantum = parse_uint(option_value(rt_option_find("quantum")), &u) ? u : 0;
    cfg->gpudet_bta = !parse_bool(option_value(rt_option_find("gpudet-bta")), &b) || b;
    cfg->gpudet_dwp = !parse_bool(option_value(rt_option_find("gpudet-dwp")), &b) || b;
    cfg->gpudet_serial_warp = strcmp(option_value(rt_option_find("gpudet-serial")), "warp") == 0;
    cfg->timing = parse_bool(option_value(rt_option_find("timing")), &b) && b;
    copy_text(cfg->gpu, sizeof cfg->gpu, option_value(rt_option_find("gpu")));
    cfg->pageable_memory_access =
        parse_bool(option_value(rt_option_find("pageable-memory-access")), &b) && b;
    cfg->verbose =
        parse_uint(option_value(rt_option_find("verbose")), &u) ? (int)(u > 9 ? 9 : u) : 0;
    const char *stats = option_value(rt_option_find("stats"));
    /* PTXSIM_STATS=1 (or on) means stderr, as "-" does; "0" is off */
    if (parse_bool(stats, &b))
        stats = b ? "-" : "off";
    copy_text(cfg->stats, sizeof cfg->stats, strcmp(stats, "off") == 0 ? "" : stats);
    copy_text(cfg->tm, sizeof cfg->tm, option_value(rt_option_find("tm")));
    cfg->igpu = parse_bool(option_value(rt_option_find("igpu")), &b) && b;
    copy_text(cfg->fault_inject, sizeof cfg->fault_inject,
              option_value(rt_option_find("fault-inject")));
    copy_text(cfg->trace, sizeof cfg->trace, option_value(rt_option_find("trace")));
}
