/* rt_internal.h: state shared between the runtime's files (not part of its public interface;
 * only the runtime's own .c files include it). */
#ifndef PTXSIM_RUNTIME_RT_INTERNAL_H
#define PTXSIM_RUNTIME_RT_INTERNAL_H

#include "runtime/rt.h"
#include "timing/timing.h"

#include <pthread.h>

/* ---------------------------------------------------------------- configuration */

typedef struct rt_config {
    char engine[16];        /* interp | jit */
    uint32_t threads;       /* host threads of the engine */
    uint64_t seed;          /* 0 = fixed scheduling order */
    char det[16];           /* off | gpudet | dab */
    uint64_t quantum;       /* warp instructions per turn; 0 = engine default */
    bool timing;
    char gpu[32];           /* GPU model name (rt_gpu_model) */
    int verbose;
    char stats[256];        /* "" = off, "-" = stderr, else a file */
    char tm[16];            /* off | kilotm */
    bool igpu;
    char fault_inject[128];
    char trace[256];
} rt_config;

/* Fills cfg from the PTXSIM_* environment, reporting bad values and options that are not
 * implemented yet on stderr. */
void rt_config_load(rt_config *cfg);

/* ---------------------------------------------------------------- GPU models */

typedef struct rt_gpu_model {
    const char *name;           /* PTXSIM_GPU value */
    const char *description;    /* for --help */
    int major, minor;
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm;
    int regs_per_sm, regs_per_block;
    size_t smem_per_sm, smem_per_block_optin, l2_bytes;
    uint64_t global_mem;
    int clock_khz, mem_clock_khz, mem_bus_bits;
} rt_gpu_model;

extern const rt_gpu_model rt_gpu_models[];
extern const size_t rt_gpu_model_count;
const rt_gpu_model *rt_gpu_model_find(const char *name);

/* The limits every CUDA device of compute capability >= 3.0 shares. */
#define RT_MAX_THREADS_PER_BLOCK 1024
#define RT_MAX_BLOCK_X 1024
#define RT_MAX_BLOCK_Y 1024
#define RT_MAX_BLOCK_Z 64
#define RT_MAX_GRID_X 2147483647u
#define RT_MAX_GRID_Y 65535u
#define RT_MAX_GRID_Z 65535u
#define RT_SMEM_PER_BLOCK (48u * 1024u)
#define RT_CONST_MEM (64u * 1024u)

/* ---------------------------------------------------------------- modules */

typedef struct rt_module rt_module;

#define RT_KERNEL_MAGIC 0x6b65726eu  /* "kern": tells our cudaKernel_t from a host function */

typedef struct rt_kernel {
    uint32_t magic;
    rt_module *mod;
    const void *host_fun;
    char *name;                 /* the PTX entry name (mangled) */
    char *pretty;               /* demangled, for messages (NULL until first asked) */
    const ptx_function *fn;     /* set once the module is loaded */
    const emu_module *emu;      /* the loaded unit that defines it */
    int max_dynamic_smem;       /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout */
    /* statistics */
    uint64_t launches, ctas, threads;
    double seconds;
} rt_kernel;

typedef struct rt_var {
    rt_module *mod;
    const void *host_var;       /* the host shadow (the `symbol` of cudaMemcpyToSymbol) */
    char *name;
    size_t size;
    bool constant, managed;
    void **managed_ptr;         /* __managed__: where the host reads the variable's address */
} rt_var;

/* One translation unit's PTX. A fatbin holds one unit, in one or more PTX versions; with
 * -rdc, the linked fatbin carries every unit's own fatbin. */
typedef struct rt_unit {
    char *name;                 /* for messages */
    ptx_fatbin_entry *ptx;      /* its PTX entries, newest first (owned) */
    size_t nptx;
    ptx_module *ir;             /* parsed on first use; kept across cudaDeviceReset */
    emu_module *emu;            /* loaded into device memory; NULL until used / after reset */
    cudaError_t error;          /* why it cannot be used (reported when it was found) */
} rt_unit;

struct rt_module {
    void *slot;                 /* first: the handle nvcc keeps is a pointer to this slot */
    char *name;                 /* for messages */
    char *sass_targets;         /* without PTX: the SASS-only targets it holds, for the hint */
    rt_unit *units;
    size_t nunits;
    bool loaded;                /* every unit loaded */
    cudaError_t error;          /* why it cannot be used (cudaSuccess until a failure) */
    cudaError_t unit_error;     /* loaded, but some unit could not be: its error */
    bool registered;            /* false once unregistered */
    bool reported;              /* the missing-PTX hint was given */
};

/* Makes the module usable (parse + load + resolve kernels and managed variables). Lock held.
 * Prints the reason on failure. */
cudaError_t rt_module_ready(rt_module *m);
/* Lookups; lock held. NULL when unknown. */
rt_kernel *rt_kernel_lookup(const void *func);
rt_var *rt_var_lookup(const void *host_var);
/* Device address of a registered variable (loads its module); lock held. Reports and returns
 * the error on failure, naming `function`. */
cudaError_t rt_var_address(const void *host_var, const char *function, rt_var **var,
                           uint64_t *addr);
/* The kernel's name for people: "vadd(float const*, float*, int)" when the program carries
 * the C++ demangler, else the PTX name. Lock held. */
const char *rt_kernel_pretty(rt_kernel *k);
/* Every registered kernel, for the statistics report; lock held. */
rt_kernel *const *rt_kernels(size_t *count);
/* Unloads every module from device memory (cudaDeviceReset); parsed IR stays. */
void rt_modules_unload_all(void);

/* ---------------------------------------------------------------- global state */

#define RT_MAX_LIMITS 7

typedef struct rt_state {
    pthread_mutex_t lock;
    rt_config cfg;
    const rt_gpu_model *gpu;
    cudaError_t sticky;          /* kernel fault that poisoned the context */
    uint64_t grid_id;
    unsigned device_flags;
    size_t limits[RT_MAX_LIMITS];
    emu_mem_policy *policy;
} rt_state;

extern rt_state rt_g;

/* Initialises the runtime once (configuration from the environment). */
void rt_init(void);
/* Entry of a call that uses the context: initialises, takes the lock and returns cudaSuccess;
 * or, when the context is poisoned, records and returns the sticky error without the lock. */
cudaError_t rt_begin(void);
/* Leaves a call: releases the lock and records err as the thread's last error. */
cudaError_t rt_end(cudaError_t err);
/* Records err as this thread's last error (unless cudaSuccess) and returns it. */
cudaError_t rt_record(cudaError_t err);
/* Resets this thread's last error (cudaDeviceReset). */
void rt_clear_last_error(void);
/* Marks the context poisoned by a kernel fault. */
void rt_poison(cudaError_t err);
bool rt_error_is_sticky(cudaError_t err);

/* Reports an API misuse on stderr: "ptxsim: FUNCTION: what (cudaErrorX)"; returns err. */
cudaError_t rt_api_error(cudaError_t err, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints "ptxsim: ..." on stderr when PTXSIM_VERBOSE >= level. */
void rt_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- memory, streams */

/* The live allocation holding [p, p+n): true with its kind. */
bool rt_mem_find(const void *p, size_t n, emu_alloc_kind *kind);
/* Frees what cudaMalloc/cudaMallocHost handed out (cudaDeviceReset). Lock held. */
void rt_memory_release_all(void);
void rt_streams_release_all(void);
void rt_events_release_all(void);
/* rt_stream_check with the lock held. */
cudaError_t rt_stream_check_locked(cudaStream_t stream);
/* Host seconds since an arbitrary fixed point (events, statistics). */
double rt_now(void);

/* ---------------------------------------------------------------- statistics */

/* Writes the per-kernel report to PTXSIM_STATS (called at exit). */
void rt_stats_report(void);

#endif
