/* config.c: the runtime's options (one table, read by `ptxsim --help`, `ptxsim run` and the
 * shim's start-up check) and their values from the PTXSIM_* environment. */
#include "runtime/rt_internal.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every option, once. `choices` is what the option can mean; `implemented` is what is built
 * today (NULL: every value). A value outside `implemented` is refused wherever it comes from
 * (the command line, a PTXSIM_* variable), naming what is accepted; building a mode is a
 * one-line change here (add it to `implemented`, or make that NULL). */
const rt_option rt_options[] = {
    {"engine", "PTXSIM_ENGINE", "auto", RT_OPT_CHOICE, "interp|compare|jit|auto", NULL,
     NULL,
     "executor of warps: the interpreter, the LLVM JIT (every kernel compiled before it runs), "
     "auto (the interpreter, and the JIT for kernels that run long enough), or compare (every "
     "launch on two executors from one snapshot of device memory, results compared byte for "
     "byte)"},
    {"compare-with", "PTXSIM_COMPARE_WITH", "interp", RT_OPT_CHOICE, "interp|jit", NULL, NULL,
     "--engine=compare: the executor checked against the step interpreter (the block "
     "interpreter, or the LLVM JIT)"},
    {"jit-threshold", "PTXSIM_JIT_THRESHOLD", "1000000", RT_OPT_UINT, NULL, NULL, NULL,
     "--engine=auto: warp instructions a function of up to 64 instructions runs on the "
     "interpreter before it is compiled (on a background thread); (instructions / 64)^2 "
     "times that for a larger one; a kernel is compiled as soon as its launch's first warp "
     "exits when the launch's warps, running as many as that one, will pass it"},
    {"jit-cache", "PTXSIM_JIT_CACHE", "on", RT_OPT_BOOL, NULL, NULL, NULL,
     "--engine=jit|auto: keep compiled code on disk ($XDG_CACHE_HOME/ptxsim/jit, or "
     "~/.cache/ptxsim/jit) so that another run of the same program compiles nothing"},
    {"jit-cache-size", "PTXSIM_JIT_CACHE_SIZE", "256", RT_OPT_UINT, NULL, NULL, NULL,
     "MiB the JIT's disk cache may hold; the least recently used entries go first"},
    {"fmad", "PTXSIM_FMAD", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "contract mul + add/sub pairs without a rounding modifier into one fused multiply-add, as "
     "ptxas does by default; off matches binaries assembled with ptxas --fmad=false"},
    {"threads", "PTXSIM_THREADS", "auto", RT_OPT_UINT, NULL, NULL, NULL,
     "host threads that run SMs (auto or 0 = the number of cores; 1 = serial; at most 1024)"},
    {"seed", "PTXSIM_SEED", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "scheduling seed: 0 = fixed order, otherwise perturbs CTA placement and warp order "
     "(exposes races; no effect under --det=gpudet or --det=dab)"},
    {"det", "PTXSIM_DET", "off", RT_OPT_CHOICE, "off|gpudet|dab", "off|gpudet|dab", NULL,
     "deterministic execution: off, GPUDet, or deterministic atomic buffering (DAB: atomics "
     "buffered per scheduler and flushed GPU-wide in a fixed order)"},
    {"quantum", "PTXSIM_QUANTUM", "auto", RT_OPT_UINT, NULL, NULL, NULL,
     "warp instructions per turn (det off: before the scheduler switches, auto = 10000, "
     "1000 seeded or cooperative; gpudet: the quantum, auto = 200)"},
    {"gpudet-bta", "PTXSIM_GPUDET_BTA", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "GPUDet: workgroup-aware quanta, barriers released inside a quantum (BTA)"},
    {"gpudet-dwp", "PTXSIM_GPUDET_DWP", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "GPUDet: deterministic workgroup partitioning (CTAs launched mid-quantum)"},
    {"gpudet-serial", "PTXSIM_GPUDET_SERIAL", "cu", RT_OPT_CHOICE, "cu|warp", NULL, NULL,
     "GPUDet serial-mode order of atomics: cu (CU-Ser: SM by SM) or warp (W-Ser)"},
    {"gpudet-commit", "PTXSIM_GPUDET_COMMIT", "zbuffer", RT_OPT_CHOICE, "zbuffer|lock", NULL,
     NULL, "GPUDet commit mode in cycles (needs --det=gpudet --timing): zbuffer (Z-buffer units "
     "at the memory partitions) or lock (software locks per chunk, the paper's baseline); the "
     "committed values are the same"},
    {"gpudet-sb-entries", "PTXSIM_GPUDET_SB_ENTRIES", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "GPUDet: store-buffer entries (128-byte chunks) that fill a warp's log and end its "
     "quantum, like its budget (0 = unbounded, as the paper; an extension of spec S6.4)"},
    {"dab-entries", "PTXSIM_DAB_ENTRIES", "64", RT_OPT_UINT, NULL, NULL, NULL,
     "DAB: entries per scheduler-level atomic buffer (at least 32, one warp's atomics; the "
     "paper evaluates 32, 64, 128 and 256)"},
    {"dab-fusion", "PTXSIM_DAB_FUSION", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "DAB: atomic fusion (atomics with the same address, operation and type combined in the "
     "buffer)"},
    {"dab-coalescing", "PTXSIM_DAB_COALESCING", "on", RT_OPT_BOOL, NULL, NULL, "on",
     "DAB: flush coalescing (a buffer's entries in one 32-byte sector flush as one "
     "transaction)"},
    {"dab-buffers", "PTXSIM_DAB_BUFFERS", "scheduler", RT_OPT_CHOICE, "scheduler|warp", NULL,
     NULL, "DAB: an atomic buffer per warp scheduler (the paper's final design, ordered by "
     "--dab-scheduler) or per warp slot (WarpGTO: plain GTO, finished warps keep their slot "
     "until the flush)"},
    {"dab-offset-flush", "PTXSIM_DAB_OFFSET_FLUSH", "off", RT_OPT_BOOL, NULL, NULL, "on",
     "DAB: offset flushing (SMs of even ID drain their buffers from the middle)"},
    {"dab-sms", "PTXSIM_DAB_SMS", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "DAB: distribute CTAs over only the first N SMs (SM gating; 0 = all)"},
    {"dab-scheduler", "PTXSIM_DAB_SCHEDULER", "gwat", RT_OPT_CHOICE, "gwat|gtar|gtrr|srr", NULL,
     NULL, "DAB: the determinism-aware warp scheduler: gwat (greedy with an atomic token), gtar "
     "(greedy, then rounds of atomics), gtrr (greedy, then strict round robin), srr (strict "
     "round robin)"},
    {"dab-limit", "PTXSIM_DAB_LIMIT", "off", RT_OPT_CHOICE, "off|nr|nr-of|nr-cif", "off|nr|nr-of",
     NULL, "DAB's limitation study in cycles (needs --det=dab --timing; the results stay DAB's): "
     "nr (the sub-partitions do not wait to re-order), nr-of (and flushes overlap); nr-cif "
     "(clusters flush on their own) is not built"},
    {"watchdog", "PTXSIM_WATCHDOG", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "end a kernel that runs longer than this many seconds of host time with "
     "cudaErrorLaunchTimeout and report where its warps are (0 = no limit); for CI"},
    {"watchdog-insts", "PTXSIM_WATCHDOG_INSTS", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "the same limit in warp instructions of one launch (0 = no limit): reproducible under "
     "--det=gpudet"},
    {"timing", "PTXSIM_TIMING", "off", RT_OPT_BOOL, NULL, NULL, "on",
     "cycle-level timing model of the GPU (--gpu picks it): cycles, IPC, stall reasons, "
     "caches and DRAM per kernel (with --det=gpudet: GPUDet runs the grid, the model times "
     "what each warp executed)"},
    {"gpu", "PTXSIM_GPU", "a100", RT_OPT_CHOICE, "gtx480|titanv|v100|rtx2080ti|a100|rtx4090|h100|h200", NULL,
     NULL, "GPU model: device properties and timing configuration; or a path (with a '/') to a "
     "description file, a changed copy of one of timing/configs/*.gpu"},
    {"timeline", "PTXSIM_TIMELINE", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "with --timing: the simulated schedule (launches, CTAs on SMs) written to this file in "
     "the trace-event format Perfetto and chrome://tracing open"},
    {"timeline-warps", "PTXSIM_TIMELINE_WARPS", "off", RT_OPT_BOOL, NULL, NULL, "on",
     "with --timeline: also a slice per warp (its launch to its exit, on a track per SM and "
     "warp slot)"},
    {"pageable-memory-access", "PTXSIM_PAGEABLE_MEMORY_ACCESS", "off", RT_OPT_BOOL, NULL, NULL,
     "on", "kernels may read and write ordinary (malloc'ed) host memory, as on systems with "
     "HMM or ATS; cudaDevAttrPageableMemoryAccess reports it"},
    {"verbose", "PTXSIM_VERBOSE", "0", RT_OPT_UINT, NULL, NULL, "1",
     "diagnostics on stderr: 1 = modules and launches, 2 = also allocations and copies"},
    {"stats", "PTXSIM_STATS", "off", RT_OPT_TEXT, NULL, NULL, "-",
     "per-kernel statistics at exit: off, - (stderr), a file name, or FILE.json for the "
     "machine-readable form (README: Statistics as JSON)"},
    {"tm", "PTXSIM_TM", "off", RT_OPT_CHOICE, "off|kilotm", "off|kilotm", "kilotm",
     "GPU transactional memory: kilotm runs the code between tx_begin() and tx_commit() "
     "(include/ptxsim/kilotm.h) as KILO TM transactions (with --timing, the commit units "
     "in cycles; with --det=gpudet, deterministic)"},
    {"tm-warps", "PTXSIM_TM_WARPS", "2", RT_OPT_UINT, NULL, NULL, NULL,
     "--tm=kilotm: warps per SM that may be inside a transaction at once (KILO TM's "
     "concurrency limit; 0 = unlimited)"},
    {"reg-sharing", "PTXSIM_REG_SHARING", "auto", RT_OPT_CHOICE, "auto|on|off", NULL, NULL,
     "registers never live at once share one row of lanes (a register allocator's layout, "
     "same results and cycles, less host memory): auto = with --timing (whose resident warps "
     "keep every row), on = every run, off = a row per register; never with --igpu or "
     "--check"},
    {"igpu", "PTXSIM_IGPU", "off", RT_OPT_BOOL, NULL, NULL, "on",
     "idempotent-region restart of faulting warps (iGPU): kernels cut into idempotent regions, "
     "a warp that takes a restartable fault runs again from its region's entry (on the "
     "interpreter; with --det=gpudet restarts happen inside quanta; with --timing faults and "
     "state preservation cost cycles; not with --tm, --timing with --det, --record/--replay "
     "or the JIT)"},
    {"fault-inject", "PTXSIM_FAULT_INJECT", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "with --igpu=on: restartable faults injected at global memory operations: rate=P[,seed=N] "
     "(each operation of a warp faults with probability P, at most 0.5, decided from the "
     "warp's own history), instr-rate=P[,seed=N] (each warp instruction errs with "
     "probability P, detected at the warp's next global memory operation) or list=N[:N...] "
     "(the Nth operations of every warp, from 0); ,kind=page makes them cost a page fault's "
     "latency under --timing"},
    {"igpu-paging", "PTXSIM_IGPU_PAGING", "off", RT_OPT_BOOL, NULL, NULL, "on",
     "with --igpu=on: demand paging of device memory: the first touch of a non-resident page "
     "by a global memory operation is a restartable fault; the warp restarts at its region "
     "entry once the page is resident (with --timing the warp sleeps the GPU's "
     "igpu_page_fault_latency; with --det=gpudet pages arrive at quantum ends)"},
    {"igpu-page-size", "PTXSIM_IGPU_PAGE_SIZE", "65536", RT_OPT_UINT, NULL, NULL, NULL,
     "--igpu-paging: the page size in bytes, a power of two from 4096 to 2097152"},
    {"igpu-resident-pages", "PTXSIM_IGPU_RESIDENT_PAGES", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "--igpu-paging: the most pages kept resident between launches (oldest evicted first; "
     "0 = no limit)"},
    {"check", "PTXSIM_CHECK", "none", RT_OPT_LIST, "none|memcheck|racecheck|initcheck|synccheck",
     NULL, NULL,
     "correctness checks, a comma list, reported like compute-sanitizer's tools: memcheck "
     "(faults), racecheck (happens-before races in global and shared memory), initcheck "
     "(reads of device memory never written), synccheck (barrier and warp-mask misuse)"},
    {"check-report", "PTXSIM_CHECK_REPORT", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "with --check: also write what the checks found to this JSON file"},
    {"error-exitcode", "PTXSIM_ERROR_EXITCODE", "0", RT_OPT_UINT, NULL, NULL, NULL,
     "with --check: the program's exit status when a check found errors (0 = the program's "
     "own status), as compute-sanitizer's --error-exitcode"},
    {"record", "PTXSIM_RECORD", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "store the order of every launch's memory operations in this file (zstd), so that "
     "--replay runs it again exactly (determinism off, any --threads and --seed)"},
    {"replay", "PTXSIM_REPLAY", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "run each launch exactly as the --record file says, on any --threads; refused when the "
     "program or its input differ"},
    {"watch", "PTXSIM_WATCH", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "print every write (with :rw also every read) of a kernel to SYMBOL|ADDRESS[:LEN][:rw] "
     "(a module variable or a device address), with thread, PTX and source line, old and new "
     "value, in the order memory saw them"},
    {"trace", "PTXSIM_TRACE", "off", RT_OPT_TEXT, NULL, NULL, NULL,
     "instruction and memory trace of every launch, written to this file (read it with "
     "`ptxsim trace FILE`)"},
};
const size_t rt_option_count = sizeof rt_options / sizeof rt_options[0];

/* PTXSIM_* variables that are not options of the runtime (tooling around it), so that the
 * check of the environment lets them be. */
static const char *const not_options[] = {
    "PTXSIM_TEST_FILTER",   /* tests/run_all.sh: which tests to run */
    "PTXSIM_QUICK",         /* tests/run_all.sh: make check-quick's mode */
    "PTXSIM_STOP_ON_FAIL",  /* tests/run_all.sh: stop at the first failure (make mutants) */
    "PTXSIM_CUDA_CACHE",    /* tests/cuda_cache.sh: where nvcc's builds of the tests are kept */
    "PTXSIM_JIT_DUMP",      /* emulator/jit/dump.c: the JIT's IR and assembly, for tuning it */
    "PTXSIM_JIT_PERF_MAP",  /* emulator/jit/dump.c: compiled code named for perf */
};

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

/* What is accepted, for messages: "off, gpudet" / "a non-negative integer or auto" / ... */
static void accepted(const rt_option *opt, char *out, size_t n)
{
    const char *list = opt->implemented ? opt->implemented : opt->choices;
    if (opt->kind == RT_OPT_CHOICE || opt->kind == RT_OPT_LIST || opt->implemented) {
        size_t k = 0;
        out[0] = 0;
        for (const char *p = list; *p && k + 3 < n; p++)
            k += (size_t)snprintf(out + k, n - k, *p == '|' ? ", " : "%c", *p);
        return;
    }
    switch (opt->kind) {
    case RT_OPT_UINT:
        snprintf(out, n, "a non-negative integer%s",
                 strcmp(opt->def, "auto") == 0 ? " or auto" : "");
        break;
    case RT_OPT_BOOL:
        snprintf(out, n, "on or off");
        break;
    default:
        snprintf(out, n, "a value");
        break;
    }
}

/* Is every comma-separated word of `value` one of `list`? */
/* Whether the comma-separated value names word. */
static bool has_word(const char *value, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = value;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return true;
        if (!end)
            return false;
        p = end + 1;
    }
}

static bool list_ok(const char *list, const char *value)
{
    if (!value[0])
        return false;
    for (const char *p = value;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char word[64];
        if (len == 0 || len >= sizeof word)
            return false;
        memcpy(word, p, len);
        word[len] = 0;
        if (!in_list(list, word))
            return false;
        if (!end)
            return true;
        p = end + 1;
    }
}

bool rt_option_implemented(const rt_option *opt, const char *v)
{
    if (!opt->implemented)
        return true;
    if (opt->kind == RT_OPT_LIST)
        return list_ok(opt->implemented, v);
    bool a, b;
    if (opt->kind == RT_OPT_BOOL && parse_bool(v, &a) && parse_bool(opt->implemented, &b))
        return a == b;
    return in_list(opt->implemented, v);
}

bool rt_option_check(const rt_option *opt, const char *value, char *err, size_t errlen)
{
    uint64_t u;
    bool b, ok = false;
    switch (opt->kind) {
    case RT_OPT_CHOICE:
    case RT_OPT_TEXT:
        if (strlen(value) >= RT_TEXT_MAX) {
            snprintf(err, errlen, "too long (at most %d characters)", RT_TEXT_MAX - 1);
            return false;
        }
        break;
    default:
        break;
    }
    switch (opt->kind) {
    case RT_OPT_CHOICE:
        ok = in_list(opt->choices, value);
        if (!ok && strcmp(opt->name, "gpu") == 0 && rt_gpu_is_path(value)) {
            /* a description file of the user's: it must parse as the built-in ones do */
            timing_gpu g;
            if (!rt_gpu_read_file(value, &g, err, errlen)) return false;
            timing_gpu_release(&g);
            return true;
        }
        break;
    case RT_OPT_UINT:
        ok = parse_uint(value, &u) ||
             (strcmp(opt->def, "auto") == 0 && strcmp(value, "auto") == 0);
        if (ok && strcmp(opt->name, "igpu-page-size") == 0 &&
            (u < 4096 || u > 2097152 || (u & (u - 1)))) {
            snprintf(err, errlen, "not a valid page size (accepted: a power of two from 4096 "
                     "to 2097152 bytes)");
            return false;
        }
        if (ok && strcmp(opt->name, "error-exitcode") == 0 && u > 255) {
            /* an exit status is 8 bits: 256 would read as 0, the program's own status */
            snprintf(err, errlen, "not a valid value (accepted: an exit status, 0 to 255)");
            return false;
        }
        if (ok && strcmp(opt->name, "jit-threshold") == 0 && u == 0) {
            snprintf(err, errlen, "not a valid value (accepted: 1 or more warp instructions; "
                     "--engine=jit compiles every function before it runs)");
            return false;
        }
        if (ok && strcmp(opt->name, "threads") == 0 && strcmp(value, "auto") != 0 &&
            u > RT_MAX_HOST_THREADS) {
            /* refused, not cut down: the run a user asked for is the run they get */
            snprintf(err, errlen, "not a valid value (accepted: auto, or 0 (auto) to %d host "
                     "threads)", RT_MAX_HOST_THREADS);
            return false;
        }
        break;
    case RT_OPT_BOOL:
        ok = parse_bool(value, &b);
        break;
    case RT_OPT_TEXT:
        ok = value[0] != 0;
        if (ok && strcmp(opt->name, "fault-inject") == 0) {
            timing_igpu_inject inj;
            return timing_igpu_parse_inject(value, &inj, err, errlen);
        }
        break;
    case RT_OPT_LIST:
        ok = list_ok(opt->choices, value);
        break;
    }
    char acc[160];
    accepted(opt, acc, sizeof acc);
    if (!ok) {
        snprintf(err, errlen, "not a valid value (accepted: %s)", acc);
        return false;
    }
    if (!rt_option_implemented(opt, value)) {
        snprintf(err, errlen, "%s is not built yet (accepted: %s)",
                 opt->kind == RT_OPT_TEXT ? "this option" : "this mode", acc);
        return false;
    }
    return true;
}

/* Whether v says what the option's default says (a number, a boolean or a word as written). */
static bool is_default(const rt_option *o, const char *v)
{
    uint64_t a, b;
    bool x, y;
    if (o->kind == RT_OPT_UINT && parse_uint(v, &a) && parse_uint(o->def, &b)) return a == b;
    if (o->kind == RT_OPT_BOOL && parse_bool(v, &x) && parse_bool(o->def, &y)) return x == y;
    return strcmp(v, o->def) == 0;
}

/* An option that only a mode reads, set to anything but its default while that mode is off,
 * would change nothing: refused, as a mode not built is, so that nobody takes the run for the
 * one they asked for (--dab-entries=128 without --det=dab is a run without DAB). */
static bool option_dependencies_met(char *err, size_t errlen)
{
    static const struct {
        const char *option, *mode_env, *mode_value, *needs;
    } deps[] = {
        {"gpudet-bta", "PTXSIM_DET", "gpudet", "--det=gpudet"},
        {"gpudet-dwp", "PTXSIM_DET", "gpudet", "--det=gpudet"},
        {"gpudet-serial", "PTXSIM_DET", "gpudet", "--det=gpudet"},
        {"gpudet-commit", "PTXSIM_DET", "gpudet", "--det=gpudet"},
        {"gpudet-sb-entries", "PTXSIM_DET", "gpudet", "--det=gpudet"},
        {"dab-entries", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-fusion", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-coalescing", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-buffers", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-offset-flush", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-sms", "PTXSIM_DET", "dab", "--det=dab"},
        {"dab-scheduler", "PTXSIM_DET", "dab", "--det=dab"},
        {"tm-warps", "PTXSIM_TM", "kilotm", "--tm=kilotm"},
        {"igpu-page-size", "PTXSIM_IGPU_PAGING", "on", "--igpu-paging=on"},
        {"igpu-resident-pages", "PTXSIM_IGPU_PAGING", "on", "--igpu-paging=on"},
        {"check-report", "PTXSIM_CHECK", NULL, "--check"},
        {"error-exitcode", "PTXSIM_CHECK", NULL, "--check"},
        {"compare-with", "PTXSIM_ENGINE", "compare", "--engine=compare"},
    };
    for (size_t i = 0; i < sizeof deps / sizeof deps[0]; i++) {
        const rt_option *o = rt_option_find(deps[i].option);
        assert(o);
        const char *v = getenv(o->env);
        if (!v || is_default(o, v)) continue;
        const char *mode = getenv(deps[i].mode_env);
        bool wanted, set = false, on;
        if (!deps[i].mode_value)   /* --check: any check but none */
            on = mode && *mode && strcmp(mode, "none") != 0 && strcmp(mode, "off") != 0;
        else if (parse_bool(deps[i].mode_value, &wanted))
            on = mode && parse_bool(mode, &set) && set == wanted;
        else
            on = mode && strcmp(mode, deps[i].mode_value) == 0;
        if (!on) {
            snprintf(err, errlen, "--%s=%.64s needs %s: without it nothing reads it, and the run "
                     "would not be the one asked for", o->name, v, deps[i].needs);
            return false;
        }
    }
    return true;
}

bool rt_config_check_environment(char *err, size_t errlen)
{
    extern char **environ;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "PTXSIM_", 7) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t nlen = eq ? (size_t)(eq - *e) : strlen(*e);
        const rt_option *opt = NULL;
        for (size_t i = 0; i < rt_option_count && !opt; i++)
            if (strlen(rt_options[i].env) == nlen && strncmp(rt_options[i].env, *e, nlen) == 0)
                opt = &rt_options[i];
        if (!opt) {
            bool tooling = false;
            for (size_t i = 0; i < sizeof not_options / sizeof not_options[0]; i++)
                tooling |= strlen(not_options[i]) == nlen && strncmp(not_options[i], *e, nlen) == 0;
            if (tooling)
                continue;
            snprintf(err, errlen, "%.*s is not a ptxsim option (see `ptxsim --help` for the "
                     "PTXSIM_* variables)", (int)(nlen > 64 ? 64 : nlen), *e);
            return false;
        }
        char why[200];
        const char *v = eq ? eq + 1 : "";
        if (!rt_option_check(opt, v, why, sizeof why)) {
            snprintf(err, errlen, "%s=%.64s: %s", opt->env, v, why);
            return false;
        }
    }
    /* Combinations that cannot work. Compare mode runs every launch twice from a snapshot of
     * device memory; host memory a kernel writes through pageable access is not device memory,
     * so the second run would see the first run's writes (and atomics would count twice). */
    const char *engine = getenv("PTXSIM_ENGINE");
    const char *pageable = getenv("PTXSIM_PAGEABLE_MEMORY_ACCESS");
    bool on;
    if (engine && strcmp(engine, "compare") == 0 && pageable && parse_bool(pageable, &on) && on) {
        snprintf(err, errlen, "--engine=compare cannot be combined with "
                 "--pageable-memory-access=on: compare mode runs each launch twice from a "
                 "snapshot of device memory, and host memory that kernels write is not in it");
        return false;
    }
    const char *timing = getenv("PTXSIM_TIMING");
    const char *timeline = getenv("PTXSIM_TIMELINE");
    if (timeline && *timeline && strcmp(timeline, "off") != 0 &&
        !(timing && parse_bool(timing, &on) && on)) {
        snprintf(err, errlen, "--timeline=%s needs --timing: it is the cycle model's schedule",
                 timeline);
        return false;
    }
    const char *timeline_warps = getenv("PTXSIM_TIMELINE_WARPS");
    if (timeline_warps && parse_bool(timeline_warps, &on) && on &&
        !(timeline && *timeline && strcmp(timeline, "off") != 0)) {
        snprintf(err, errlen, "--timeline-warps needs --timeline=FILE.json: it adds the warps to "
                 "that file");
        return false;
    }
    const char *commit = getenv("PTXSIM_GPUDET_COMMIT"), *det_env = getenv("PTXSIM_DET");
    if (commit && strcmp(commit, "lock") == 0 &&
        (!(timing && parse_bool(timing, &on) && on) || !det_env || strcmp(det_env, "gpudet") != 0)) {
        snprintf(err, errlen, "--gpudet-commit=lock needs --det=gpudet and --timing: it times "
                 "GPUDet's commit mode by software locks, whose committed values are the "
                 "Z-buffer's");
        return false;
    }
    const char *limit = getenv("PTXSIM_DAB_LIMIT");
    if (limit && *limit && strcmp(limit, "off") != 0 &&
        (!(timing && parse_bool(timing, &on) && on) || !det_env || strcmp(det_env, "dab") != 0)) {
        snprintf(err, errlen, "--dab-limit=%s needs --det=dab and --timing: it relaxes DAB's "
                 "flush in cycles only", limit);
        return false;
    }
    /* Record and replay: one at a time, without determinism (a deterministic run needs no
     * recording) and without compare mode (which runs each launch twice). */
    const char *rec = getenv("PTXSIM_RECORD"), *rep = getenv("PTXSIM_REPLAY");
    bool recording = rec && strcmp(rec, "off") != 0, replaying = rep && strcmp(rep, "off") != 0;
    if (recording && replaying) {
        snprintf(err, errlen, "--record and --replay cannot be combined: a replay is the "
                 "recorded run");
        return false;
    }
    if ((recording || replaying) && engine && strcmp(engine, "compare") == 0) {
        snprintf(err, errlen, "--%s cannot be combined with --engine=compare: compare mode runs "
                 "each launch twice", recording ? "record" : "replay");
        return false;
    }
    if ((recording || replaying) && timing && parse_bool(timing, &on) && on) {
        snprintf(err, errlen, "--%s cannot be combined with --timing: the cycle model orders the "
                 "warps itself (and a run with --timing is already deterministic)",
                 recording ? "record" : "replay");
        return false;
    }
    const char *detmode = getenv("PTXSIM_DET");
    const char *tm = getenv("PTXSIM_TM");
    if (tm && strcmp(tm, "kilotm") == 0) {
        if (detmode && strcmp(detmode, "off") != 0 && strcmp(detmode, "gpudet") != 0) {
            snprintf(err, errlen, "--tm=kilotm cannot be combined with --det=%s yet: "
                     "transactions are built over GPUDet's quanta only (--det=gpudet)", detmode);
            return false;
        }
        /* with --det=gpudet: commits, and the begins that take a concurrency slot, run in
         * GPUDet's serial mode (timing/kilotm/policy.c); with --timing too, its replay times the
         * commit steps (timing/kilotm/cycles.c) */
        if (recording || replaying) {
            snprintf(err, errlen, "--tm=kilotm cannot be combined with --%s: a recording "
                     "orders memory operations, not transactions' commits",
                     recording ? "record" : "replay");
            return false;
        }
        /* racecheck would take two transactions' logged accesses for a race, initcheck and
         * synccheck see speculative accesses an abort undoes: none of them knows transactions */
        const char *checks = getenv("PTXSIM_CHECK");
        static const char *const tx_blind[] = {"racecheck", "initcheck", "synccheck"};
        for (size_t i = 0; checks && i < sizeof tx_blind / sizeof *tx_blind; i++)
            if (has_word(checks, tx_blind[i])) {
                snprintf(err, errlen, "--tm=kilotm cannot be combined with --check=%s yet: the "
                         "check does not know transactions (it would report their speculative "
                         "accesses); --check=memcheck works with --tm", tx_blind[i]);
                return false;
            }
    }
    const char *dab_entries = getenv("PTXSIM_DAB_ENTRIES");
    uint64_t ent;
    if (dab_entries && parse_uint(dab_entries, &ent) && (ent < 32 || ent > 65536)) {
        snprintf(err, errlen, "--dab-entries=%s: a buffer holds 32 to 65536 entries (at least "
                 "one warp instruction's 32 lanes)", dab_entries);
        return false;
    }
    if ((recording || replaying) && detmode && strcmp(detmode, "off") != 0) {
        snprintf(err, errlen, "--%s cannot be combined with --det=%s: a deterministic run is "
                 "reproduced without a recording", recording ? "record" : "replay", detmode);
        return false;
    }
    /* iGPU restarts warps under its own policy (compiled code stops at region boundaries, which
     * the interpreter runs); the mechanisms it does not compose with yet are refused. */
    const char *igpu = getenv("PTXSIM_IGPU"), *inject = getenv("PTXSIM_FAULT_INJECT");
    bool igpu_on = igpu && parse_bool(igpu, &on) && on;
    const char *paging = getenv("PTXSIM_IGPU_PAGING");
    if (paging && parse_bool(paging, &on) && on && !igpu_on) {
        snprintf(err, errlen, "--igpu-paging=on needs --igpu=on: its page faults are recovered "
                 "by restarting idempotent regions");
        return false;
    }
    if (inject && strcmp(inject, "off") != 0 && !igpu_on) {
        snprintf(err, errlen, "--fault-inject=%s needs --igpu=on: the faults it injects are "
                 "recovered by restarting idempotent regions", inject);
        return false;
    }
    if (igpu_on) {
        const char *clash = detmode && strcmp(detmode, "off") != 0 &&
                                    strcmp(detmode, "gpudet") != 0 ? "--det"
                            : tm && strcmp(tm, "off") != 0 ? "--tm"
                            : recording ? "--record" : replaying ? "--replay" : NULL;
        if (clash) {
            snprintf(err, errlen, "--igpu=on cannot be combined with %s yet: iGPU restarts run "
                     "under their own memory policy", clash);
            return false;
        }
    }
    /* The checks and the watchpoint observe memory through the launch's policy; GPUDet
     * installs its own. */
    const char *check = getenv("PTXSIM_CHECK");
    const char *det = detmode;
    const char *watch = getenv("PTXSIM_WATCH");
    if (watch && strcmp(watch, "off") != 0 && det && strcmp(det, "off") != 0) {
        snprintf(err, errlen, "--watch cannot be combined with --det=%s: it observes the memory "
                 "accesses of runs without determinism (for a reproducible order use --threads=1 "
                 "or --replay)", det);
        return false;
    }
    if (check && det && strcmp(det, "off") != 0 &&
        (strstr(check, "racecheck") || strstr(check, "initcheck") || strstr(check, "synccheck"))) {
        snprintf(err, errlen, "--check=%s cannot be combined with --det=%s: racecheck, initcheck "
                 "and synccheck observe the memory accesses of runs without determinism only "
                 "(a race found there is one under every schedule)", check, det);
        return false;
    }
    return option_dependencies_met(err, errlen);
}

/* The option's value: the environment's, checked before the program ran (the shim's
 * constructor and `ptxsim run` refuse a bad one), else the default. */
static const char *option_value(const rt_option *opt)
{
    const char *v = getenv(opt->env);
    if (!v)
        return opt->def;
    char err[256];
    if (!rt_option_check(opt, v, err, sizeof err)) {
        /* only reachable without the shim (a test linking the runtime directly) */
        fprintf(stderr, "ptxsim: %s=%s: %s; using the default %s\n", opt->env, v, err, opt->def);
        return opt->def;
    }
    return v;
}

static void copy_text(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src);
}

bool rt_config_check_files(char *err, size_t errlen)
{
    static const char *const outputs[] = {"stats", "timeline", "check-report", "record", "trace"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        const rt_option *o = rt_option_find(outputs[i]);
        assert(o);
        const char *path = getenv(o->env);
        if (!path || !*path || strcmp(path, "off") == 0) continue;
        bool b;   /* --stats' other words for stderr and off (rt_config_load) */
        if (strcmp(o->name, "stats") == 0 &&
            (strcmp(path, "-") == 0 || strcmp(path, "stderr") == 0 || parse_bool(path, &b)))
            continue;
        /* created when absent, left as it is otherwise: its writer truncates it later */
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            snprintf(err, errlen, "--%s=%.200s: cannot write %.200s: %s", o->name, path, path,
                     strerror(errno));
            return false;
        }
        close(fd);
    }
    const char *replay = getenv("PTXSIM_REPLAY");
    if (replay && *replay && strcmp(replay, "off") != 0) {
        int fd = open(replay, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, errlen, "--replay=%.200s: cannot read %.200s: %s", replay, replay,
                     strerror(errno));
            return false;
        }
        close(fd);
    }
    return true;
}

void rt_config_load(rt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    uint64_t u;
    bool b;

    copy_text(cfg->engine, sizeof cfg->engine, option_value(rt_option_find("engine")));
    cfg->compare_jit = strcmp(option_value(rt_option_find("compare-with")), "jit") == 0;
    cfg->jit_threshold =
        parse_uint(option_value(rt_option_find("jit-threshold")), &u) && u > 0 ? u : 1000000;
    cfg->jit_cache = !parse_bool(option_value(rt_option_find("jit-cache")), &b) || b;
    cfg->jit_cache_mib = parse_uint(option_value(rt_option_find("jit-cache-size")), &u) ? u : 256;
    cfg->threads = parse_uint(option_value(rt_option_find("threads")), &u) && u > 0
                       ? (uint32_t)(u > RT_MAX_HOST_THREADS ? RT_MAX_HOST_THREADS : u) : 0;
    if (!cfg->threads) {   /* auto (or 0): one per core */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg->threads = n > 0 ? (uint32_t)(n > RT_MAX_HOST_THREADS ? RT_MAX_HOST_THREADS : n) : 1;
    }
    cfg->seed = parse_uint(option_value(rt_option_find("seed")), &u) ? u : 0;
    cfg->fmad = !parse_bool(option_value(rt_option_find("fmad")), &b) || b;
    copy_text(cfg->det, sizeof cfg->det, option_value(rt_option_find("det")));
    cfg->quantum = parse_uint(option_value(rt_option_find("quantum")), &u) ? u : 0;
    cfg->gpudet_bta = !parse_bool(option_value(rt_option_find("gpudet-bta")), &b) || b;
    cfg->gpudet_dwp = !parse_bool(option_value(rt_option_find("gpudet-dwp")), &b) || b;
    cfg->gpudet_serial_warp = strcmp(option_value(rt_option_find("gpudet-serial")), "warp") == 0;
    cfg->gpudet_lock_commit = strcmp(option_value(rt_option_find("gpudet-commit")), "lock") == 0;
    cfg->gpudet_sb_entries = parse_uint(option_value(rt_option_find("gpudet-sb-entries")), &u) &&
                                     u < UINT32_MAX ? (uint32_t)u : 0;
    cfg->dab_entries = parse_uint(option_value(rt_option_find("dab-entries")), &u) ? (uint32_t)u : 64;
    cfg->dab_fusion = !parse_bool(option_value(rt_option_find("dab-fusion")), &b) || b;
    cfg->dab_coalescing = !parse_bool(option_value(rt_option_find("dab-coalescing")), &b) || b;
    cfg->dab_warp_buffers = strcmp(option_value(rt_option_find("dab-buffers")), "warp") == 0;
    cfg->dab_offset_flush = parse_bool(option_value(rt_option_find("dab-offset-flush")), &b) && b;
    cfg->dab_sms = parse_uint(option_value(rt_option_find("dab-sms")), &u) && u < UINT32_MAX
                       ? (uint32_t)u : 0;
    copy_text(cfg->dab_scheduler, sizeof cfg->dab_scheduler,
              option_value(rt_option_find("dab-scheduler")));
    copy_text(cfg->dab_limit, sizeof cfg->dab_limit, option_value(rt_option_find("dab-limit")));
    cfg->watchdog_seconds = parse_uint(option_value(rt_option_find("watchdog")), &u) ? u : 0;
    cfg->watchdog_insts = parse_uint(option_value(rt_option_find("watchdog-insts")), &u) ? u : 0;
    cfg->timing = parse_bool(option_value(rt_option_find("timing")), &b) && b;
    cfg->timeline_warps = parse_bool(option_value(rt_option_find("timeline-warps")), &b) && b;
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
    cfg->tm_warps = parse_uint(option_value(rt_option_find("tm-warps")), &u)
                        ? (uint32_t)(u > UINT32_MAX ? UINT32_MAX : u) : 2;
    cfg->igpu = parse_bool(option_value(rt_option_find("igpu")), &b) && b;
    copy_text(cfg->fault_inject, sizeof cfg->fault_inject,
              option_value(rt_option_find("fault-inject")));
    cfg->igpu_paging = parse_bool(option_value(rt_option_find("igpu-paging")), &b) && b;
    cfg->igpu_page_size =
        parse_uint(option_value(rt_option_find("igpu-page-size")), &u) ? u : 65536;
    cfg->igpu_resident_pages =
        parse_uint(option_value(rt_option_find("igpu-resident-pages")), &u) ? u : 0;
    copy_text(cfg->trace, sizeof cfg->trace, option_value(rt_option_find("trace")));
    copy_text(cfg->timeline, sizeof cfg->timeline, option_value(rt_option_find("timeline")));
    cfg->checks = 0;
    static const char *const check_names[] = {"memcheck", "racecheck", "initcheck", "synccheck"};
    const char *checks = option_value(rt_option_find("check"));
    for (const char *p = checks; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        for (unsigned k = 0; k < 4; k++)
            if (strlen(check_names[k]) == len && strncmp(check_names[k], p, len) == 0)
                cfg->checks |= 1u << k;   /* the TIMING_CHECK_* bits, in this order */
        if (!end)
            break;
        p = end + 1;
    }
    /* iGPU re-runs a region from registers that a later register sharing their row would
     * have overwritten; --check keeps a row per register */
    const char *sharing = option_value(rt_option_find("reg-sharing"));
    cfg->share_regs = !cfg->igpu && !cfg->checks &&
                      (strcmp(sharing, "on") == 0 || (strcmp(sharing, "auto") == 0 && cfg->timing));
    const char *report = option_value(rt_option_find("check-report"));
    copy_text(cfg->check_report, sizeof cfg->check_report,
              strcmp(report, "off") == 0 ? "" : report);
    const char *watch = option_value(rt_option_find("watch"));
    copy_text(cfg->watch, sizeof cfg->watch, strcmp(watch, "off") == 0 ? "" : watch);
    const char *rec = option_value(rt_option_find("record"));
    copy_text(cfg->record, sizeof cfg->record, strcmp(rec, "off") == 0 ? "" : rec);
    const char *rep = option_value(rt_option_find("replay"));
    copy_text(cfg->replay, sizeof cfg->replay, strcmp(rep, "off") == 0 ? "" : rep);
    cfg->error_exitcode =
        parse_uint(option_value(rt_option_find("error-exitcode")), &u) && u <= 255 ? (int)u : 0;
}
