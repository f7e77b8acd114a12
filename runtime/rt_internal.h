/* rt_internal.h: state shared between the runtime's files (not part of its public interface;
 * only the runtime's own .c files include it). */
#ifndef PTXSIM_RUNTIME_RT_INTERNAL_H
#define PTXSIM_RUNTIME_RT_INTERNAL_H

#include "runtime/rt.h"
#include "timing/timing.h"

#include <pthread.h>

/* ---------------------------------------------------------------- configuration */

/* The longest value a text option (a path, a specification) may have, its terminator included:
 * a longer one is refused (rt_option_check), never cut to a different path. */
#define RT_TEXT_MAX 4096

typedef struct rt_config {
    char engine[16];        /* interp | compare | jit | auto */
    bool compare_jit;       /* compare mode's primary executor is the JIT */
    uint64_t jit_threshold; /* auto: warp instructions before a function is compiled */
    bool jit_cache;         /* compiled code kept on disk */
    uint64_t jit_cache_mib; /* ... up to this many MiB */
    uint32_t threads;       /* host threads of the engine */
    bool fmad;              /* contract mul + add pairs (decode/fma_contraction.c) */
    uint64_t seed;          /* 0 = fixed scheduling order */
    char det[16];           /* off | gpudet | dab */
    uint64_t quantum;       /* warp instructions per turn; 0 = engine default */
    bool gpudet_bta, gpudet_dwp, gpudet_serial_warp;   /* GPUDet variants */
    bool gpudet_lock_commit;
    uint32_t gpudet_sb_entries;   /* store-buffer entries that end a warp's quantum (0: none) */  /* GPUDet --timing: commit mode by software locks (the baseline) */
    uint32_t dab_entries;   /* DAB: entries per atomic buffer */
    bool dab_fusion, dab_coalescing;   /* DAB variants */
    char dab_scheduler[8];  /* gwat | gtar | gtrr | srr */
    char dab_limit[8];      /* off | nr | nr-of: DAB's limitation study in cycles */
    bool dab_offset_flush;
    bool dab_warp_buffers;  /* --dab-buffers=warp (WarpGTO) */
    uint32_t dab_sms;       /* SM gating: CTAs on the first N SMs (0 = all) */
    uint64_t watchdog_seconds;  /* a launch running longer ends (0 = no limit) */
    uint64_t watchdog_insts;    /* ... or executing more warp instructions (0 = no limit) */
    bool timing;
    char gpu[RT_TEXT_MAX];         /* GPU model name (rt_gpu_model), or a description file's path */
    bool pageable_memory_access;   /* kernels may access malloc'ed host memory (HMM) */
    int verbose;
    char stats[RT_TEXT_MAX];        /* "" = off, "-" = stderr, else a file */
    char tm[16];            /* off | kilotm */
    uint32_t tm_warps;      /* --tm-warps: transactional warps per SM, 0 = unlimited */
    bool igpu;
    bool share_regs;            /* --reg-sharing: registers share rows by liveness */
    char fault_inject[RT_TEXT_MAX];
    bool igpu_paging;           /* --igpu-paging */
    uint64_t igpu_page_size, igpu_resident_pages;
    char trace[RT_TEXT_MAX];
    char timeline[RT_TEXT_MAX];     /* --timeline: "off" or a file */
    bool timeline_warps;    /* --timeline-warps: a slice per warp too */
    unsigned checks;            /* --check: TIMING_CHECK_* bits */
    char check_report[RT_TEXT_MAX];     /* --check-report: JSON file, "" = none */
    int error_exitcode;         /* --error-exitcode (0: the program's own status) */
    char record[RT_TEXT_MAX];           /* --record: file, "" = none */
    char replay[RT_TEXT_MAX];           /* --replay: file, "" = none */
    char watch[RT_TEXT_MAX];            /* --watch: the specification, "" = none */
} rt_config;

/* compare.c: runs launch L on the reference and the primary executor from one snapshot of
 * device memory and compares what they leave (--engine=compare). Returns the primary run's
 * grid (NULL when none could be made), with *ok its outcome; *internal is cudaSuccess, or the
 * error to make sticky when the executors differ or memory ran out. */
emu_grid *rt_compare_run(const emu_launch *L, const timing_engine_config *ec, const char *name,
                         bool *ok, cudaError_t *internal);

/* Fills cfg from the PTXSIM_* environment (checked before the program ran: see
 * rt_config_check_environment). */
void rt_config_load(rt_config *cfg);

/* ---------------------------------------------------------------- GPU models */

/* The GPU ptxsim poses as: a description from timing/configs (timing_gpu), found by the name
 * PTXSIM_GPU gives, or read from the file it names when it has a '/' (gpu_model.c). */
typedef timing_gpu rt_gpu_model;
const rt_gpu_model *rt_gpu_model_find(const char *name);
/* Whether a --gpu value names a file. */
bool rt_gpu_is_path(const char *value);
/* Reads and checks the description file at path into *out; false with a message in err. */
bool rt_gpu_read_file(const char *path, timing_gpu *out, char *err, size_t errlen);

/* The limits every CUDA device of compute capability >= 3.0 shares. */
#define RT_MAX_THREADS_PER_BLOCK 1024
/* --threads: the most host threads a run takes (refused above it) */
#define RT_MAX_HOST_THREADS 1024
#define RT_MAX_BLOCK_X 1024
#define RT_MAX_BLOCK_Y 1024
#define RT_MAX_BLOCK_Z 64
#define RT_MAX_GRID_X 2147483647u
#define RT_MAX_GRID_Y 65535u
#define RT_MAX_GRID_Z 65535u
#define RT_SMEM_PER_BLOCK (48u * 1024u)
#define RT_CONST_MEM (64u * 1024u)
#define RT_LOCAL_PER_THREAD (512u * 1024u)   /* local memory (and so stack) per thread */

/* ---------------------------------------------------------------- modules */


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
    uint64_t failed;            /* launches that ended in a fault (a trap, an illegal access...) */
    cudaError_t first_error;    /* the first of those launches' errors */
    double seconds;
    timing_stats engine;        /* the engine's counts (GPUDet quanta, ...) */
    timing_metrics metrics;     /* from the event stream, when statistics are on */
    timing_igpu_stats *igpu;    /* --igpu: added up over its launches (NULL until one ran) */
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

/* Several units (an -rdc program) linked into one module (link.c). */
typedef struct rt_linked rt_linked;

/* Links the units' IR into one module, binding each unit's .extern functions and variables to
 * another unit's definitions and merging .weak definitions; NULL with a message in err. The
 * units must outlive the result. */
rt_linked *rt_link(const ptx_module *const *units, size_t n, const char *name, char *err,
                   size_t errlen);
const ptx_module *rt_linked_module(const rt_linked *l);
/* The linked module for laying out its registers (emu_share_register_slots): its functions'
 * register arrays are its own, not the units'. */
ptx_module *rt_linked_module_layout(rt_linked *l);
/* Names the externs no unit defines (", "-separated, into out); returns how many. */
size_t rt_link_unresolved(const rt_linked *l, char *out, size_t len);
void rt_link_free(rt_linked *l);

struct rt_module {
    void *slot;                 /* first: the handle nvcc keeps is a pointer to this slot */
    char *name;                 /* for messages */
    char *sass_targets;         /* without PTX: the SASS-only targets it holds, for the hint */
    rt_unit *units;
    size_t nunits;
    rt_linked *linked;          /* several units: their link (made once, kept across resets) */
    emu_module *linked_emu;     /* ... loaded into device memory */
    bool loaded;                /* every unit loaded */
    cudaError_t error;          /* why it cannot be used (cudaSuccess until a failure) */
    cudaError_t unit_error;     /* loaded, but some unit could not be: its error */
    bool registered;            /* false once unregistered */
    bool reported;              /* the missing-PTX hint was given */
    /* Loaded through the driver API (cuModuleLoad*, cuLibraryLoad*, cudaLibraryLoad*): its
     * handle is this structure, every entry of its PTX is a kernel, and the context that was
     * current owns it. */
    bool driver;
    rt_context *owner;
};

/* A module from the PTX of fb (taken over), loaded at once as the driver loads: every entry
 * becomes a kernel. Lock held. NULL with the error in *err (reported). */
rt_module *rt_module_from_fatbin(ptx_fatbin *fb, const char *name, const char *api,
                                 cudaError_t *err);
/* Unloads a driver module for good (cuModuleUnload, its context's end). Lock held, device
 * idle. */
void rt_module_drop(rt_module *m);
/* A live module loaded through the driver API, or NULL. Lock held. */
rt_module *rt_driver_module(const void *handle);
/* cuCtxDestroy / the primary context's last release: unload what it loaded. Lock held. */
void rt_modules_release_owner(const rt_context *owner);
/* ... and free what it allocated (memory.c). Lock held. */
void rt_memory_release_owner(const rt_context *owner);
/* The context a resource made now belongs to: the current one, else the primary. */
rt_context *rt_ctx_owner(void);
/* A runtime API call: a thread without a current context gets the primary one. */
void rt_ctx_bind_runtime(void);
/* A module against the device's limits (module_limits.c): before loading, whether its
 * variables fit in the device memory left (cudaErrorMemoryAllocation); after loading, what
 * ptxas would refuse (rt_check_module_limits, in rt.h). The message goes to err. */
cudaError_t rt_check_module_memory(const ptx_module *m, char *err, size_t errlen);
/* Local bytes per thread a function declares, registers ptxas would spill included. */
uint64_t rt_function_local_bytes(const ptx_function *f);

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
/* The kernel's name for people: "vadd(float const*, float*, int)" (ptx_demangle), else the
 * PTX name. Lock held. */
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
    unsigned sticky_count;       /* times the context was poisoned (cudaGetLastError) */
    uint64_t grid_id;
    unsigned device_flags;
    size_t limits[RT_MAX_LIMITS];
    emu_mem_policy *policy;
    timing_trace *trace;         /* --trace: every launch's events, or NULL */
    timing_timeline *timeline;   /* --timeline: the cycle model's schedule, or NULL */
    timing_check *check;         /* --check: the checks, or NULL */
    timing_record *record;       /* --record, or NULL */
    timing_replay *replay;       /* --replay, or NULL */
    timing_watch *watch;         /* --watch, or NULL */
    timing_igpu_pages *igpu_pages;   /* --igpu-paging: resident pages, kept for the process */
} rt_state;

extern rt_state rt_g;

/* Sets aside the device memory the context keeps as the driver does: the printf FIFO and a
 * stack of `stack` bytes for every thread the GPU holds at once (what is left is what
 * cudaMemGetInfo reports free). False, nothing changed, when it does not fit. */
bool rt_context_reserve(size_t fifo, size_t stack);

/* What rt_set_program_runtime_major said: 13 unless the program was built for an older
 * runtime. */
int rt_program_runtime_major(void);

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

/* ---------------------------------------------------------------- deferred work
 * What a stream operation does, kept as data so that a graph (explicit, or captured from a
 * stream) can run it later, as often as it is launched. Checked when it is made. */

/* A kernel launch, checked, with its parameter block laid out (owned). */
typedef struct rt_launch_desc {
    rt_kernel *kernel;
    dim3 grid, block;
    size_t smem;
    uint8_t *params;
    size_t params_size;
    bool cooperative;
} rt_launch_desc;

/* Resolves and checks a launch and builds its parameter block from args (one pointer per
 * parameter) or extra (a packed buffer); api names the call in messages. Lock held. */
cudaError_t rt_launch_prepare(const void *func, dim3 grid, dim3 block, void **args, void **extra,
                              size_t smem, bool cooperative, const char *api,
                              rt_launch_desc *d);
/* Runs it on the engine; a kernel fault poisons the context (and returns cudaSuccess, as the
 * launch itself succeeded). Lock held (released while the grid runs). */
cudaError_t rt_launch_run(const rt_launch_desc *d);
void rt_launch_desc_free(rt_launch_desc *d);

/* A copy of depth slices of height rows of width bytes, between pitched boxes. dst_device /
 * src_device: that side lay in device memory when checked (checked again when it runs).
 * staging: a queued copy from pageable host memory reads this copy of the source, made when it
 * was issued (owned; src points into it). */
typedef struct rt_copy {
    char *dst;
    size_t dpitch, dslice;
    const char *src;
    size_t spitch, sslice;
    size_t width, height, depth;
    bool dst_device, src_device;
    char *staging;
    size_t staging_size;
} rt_copy;

/* A fill of depth x height rows of width elements (elem bytes: 1, 2 or 4) with value. */
typedef struct rt_fill {
    char *dst;
    size_t pitch, slice;
    uint32_t value;
    unsigned elem;
    size_t width, height, depth;
} rt_fill;

typedef enum rt_op_kind {
    RT_OP_EMPTY, RT_OP_KERNEL, RT_OP_COPY, RT_OP_FILL, RT_OP_HOST, RT_OP_EVENT_RECORD,
    RT_OP_EVENT_WAIT, RT_OP_GRAPH, RT_OP_CALLBACK, RT_OP_FREE
} rt_op_kind;

typedef struct rt_graph rt_graph;

typedef struct rt_op {
    rt_op_kind kind;
    union {
        rt_launch_desc kernel;
        rt_copy copy;
        rt_fill fill;
        struct { cudaHostFn_t fn; void *data; } host;
        /* cudaStreamAddCallback: called with the stream and the context's error */
        struct { cudaStreamCallback_t fn; void *data; cudaStream_t stream; } callback;
        cudaEvent_t event;
        rt_graph *graph;        /* a child graph (owned clone) */
        struct { void *ptr; const char *api; } free;   /* cudaFreeAsync */
    };
} rt_op;

/* Runs op; seq is its place in the device worker's order. Lock held (released around a
 * kernel, a copy and a host function). */
cudaError_t rt_op_run(rt_op *op, uint64_t seq);
/* Copies op (a kernel's parameter block, a child graph); false when out of memory. */
bool rt_op_clone(rt_op *dst, const rt_op *src);
void rt_op_free(rt_op *op);
/* ---------------------------------------------------------------- the device worker (worker.c)
 * Operations queue in issue order and run on the device worker thread; sequence numbers say
 * what has completed. Every function here is called with the lock held. */

/* Queues op on stream, or records it when the stream is capturing (taking op over either
 * way); returns at once. */
cudaError_t rt_op_submit(rt_op *op, cudaStream_t stream);
/* The same; with wait, returns once op has run, with its error (or an earlier asynchronous
 * one): the synchronous calls. */
cudaError_t rt_op_submit_mode(rt_op *op, cudaStream_t stream, bool wait);
/* A host thread's wait for one operation. */
typedef struct rt_completion {
    bool done;
    cudaError_t error;
} rt_completion;
uint64_t rt_issued_seq(void);
bool rt_seq_done(uint64_t seq);
/* Waits (releasing the lock) until operation seq has run / until every queued one has. No
 * wait on the worker thread itself, where everything before the running operation is done. */
void rt_wait_seq(uint64_t seq);
/* ... and then until the device runs nothing (rt_device_stop): what frees or unloads calls it. */
void rt_wait_idle(void);
/* Waits (releasing the lock) until the worker runs no operation; as the caller holds the lock
 * from then on, it starts none until the lock is released. What changes device memory or the
 * allocations from a host thread calls it first: a running launch (under --engine=compare,
 * its snapshots) must not see memory change under it. No wait on the worker itself. */
void rt_device_stop(void);
/* Wakes the host threads waiting for the device (emu_jit_options.first_wanted). */
void rt_wake_waiters(void);
/* Writes the device printf output out from a host thread (lock held, and held on return).
 * Under --engine=compare a launch saves the pending output with its snapshot and puts it back
 * between its runs, so the output is written only while the device is stopped (else lines
 * print twice, or the runs' outputs differ); otherwise without the lock, as writing may block
 * and the device goes on meanwhile. */
void rt_flush_output_locked(void);
/* Whether the device runs nothing now, or this is the worker (lock held): the invariant of
 * changing the allocations. */
bool rt_device_stopped(void);
bool rt_on_worker(void);
/* What a synchronisation reports: the sticky error, else the first failure of asynchronous
 * work since the last synchronisation (which it clears). */
cudaError_t rt_take_async_error(void);
void rt_forget_async_error(void);
/* Bytes of pageable memory queued copies may hold (STAGING_LIMIT in all); false when the copy
 * must wait instead. */
bool rt_staging_reserve(uint64_t bytes);
void rt_staging_release(uint64_t bytes);
/* What cudaStreamSetAttribute sets (the launch attributes a stream carries). The emulator has
 * no cache to steer, so they are kept, checked and reported back; the timing model will read
 * the access policy window. */
typedef struct rt_stream_attrs {
    struct cudaAccessPolicyWindow window;
    enum cudaSynchronizationPolicy sync_policy;
    cudaLaunchMemSyncDomainMap domain_map;
    enum cudaLaunchMemSyncDomain domain;
} rt_stream_attrs;
/* The attributes of a live stream (the legacy and per-thread streams included), or NULL. */
rt_stream_attrs *rt_stream_attrs_of(cudaStream_t stream);
/* Checks an access policy window against the device (its size limit, hit ratio and
 * properties); api names the call. */
cudaError_t rt_check_access_policy_window(const struct cudaAccessPolicyWindow *w, const char *api);
/* Streams remember their last operation (streams.c). */
void rt_stream_note_work(cudaStream_t stream, uint64_t seq);
uint64_t rt_stream_last_seq(cudaStream_t stream);
/* Checks and queues a copy, waiting as the CUDA call named api waits (copy.c). Lock held. */
cudaError_t rt_copy_submit(rt_copy *c, cudaStream_t stream, const char *api);

/* Checks the parts of a copy that lie in device memory; api names the call. */
cudaError_t rt_copy_check(const rt_copy *c, enum cudaMemcpyKind kind, const char *api);

/* ---------------------------------------------------------------- graphs and capture */

typedef struct rt_gnode rt_gnode;

/* Adds a node that runs op (taken over, also on failure) to g after deps. Lock held. */
cudaError_t rt_graph_add_op(rt_graph *g, rt_op *op, rt_gnode *const *deps, size_t ndeps,
                            rt_gnode **out);
rt_graph *rt_graph_new(void);
/* A deep copy of g, or NULL. */
rt_graph *rt_graph_clone_locked(const rt_graph *g);
void rt_graph_free(rt_graph *g);
/* Runs every node of g in an order that respects its dependencies, as worker operation seq.
 * Lock held. */
cudaError_t rt_graph_run(rt_graph *g, uint64_t seq);

/* Where a stream or an event keeps its capture: the graph and the nodes that the next
 * captured operation depends on. */
typedef struct rt_capture rt_capture;
typedef struct rt_capture_point {
    rt_capture *capture;        /* NULL: not capturing / not recorded in a capture */
    rt_gnode **deps;
    size_t ndeps, cap;
} rt_capture_point;

/* The capture slot of a stream (NULL for the legacy default stream, which cannot capture)
 * and of an event (NULL for anything but a live event). Lock held. */
rt_capture_point *rt_stream_capture_point(cudaStream_t stream);
rt_capture_point *rt_event_capture_point(cudaEvent_t event);
/* When stream is capturing: records op as a node (taken over) and returns true, the result
 * in *err. Otherwise false, op untouched. Lock held. */
bool rt_capture_op(cudaStream_t stream, rt_op *op, cudaError_t *err);
/* A synchronising call on a capturing stream is an error that ends (invalidates) its capture:
 * cudaErrorStreamCaptureUnsupported, else cudaSuccess. Lock held. */
cudaError_t rt_capture_forbid(cudaStream_t stream, const char *api);
/* Event record / stream wait hooks while capturing; return true when they handled the call.
 * Lock held. */
bool rt_capture_event_record(cudaEvent_t event, cudaStream_t stream, cudaError_t *err);
bool rt_capture_stream_wait(cudaStream_t stream, cudaEvent_t event, cudaError_t *err);
/* A stream or event goes away: drop what its capture slot holds. */
void rt_capture_point_clear(rt_capture_point *p);

/* A live graph (user-visible), or NULL with a message naming api. Lock held. */
rt_graph *rt_graph_checked(cudaGraph_t graph, const char *api);
bool rt_graph_node_in(const rt_graph *g, const rt_gnode *node);
/* Is node one of targets or an ancestor of one? */
bool rt_graph_node_reaches(const rt_gnode *node, rt_gnode *const *targets, size_t n);
/* The capture slots of every stream (at most max), to find the streams of a capture. */
size_t rt_stream_capture_points(rt_capture_point **out, size_t max);

/* Builders of checked operations from the API's parameter structures. Lock held. */
cudaError_t rt_copy_from_3d(const struct cudaMemcpy3DParms *p, rt_copy *c, const char *api);
cudaError_t rt_fill_from_params(const struct cudaMemsetParams *p, rt_fill *f, const char *api);
/* The device bytes [offset, offset+count) of a registered variable, checked. Lock held. */
cudaError_t rt_symbol_range(const void *symbol, size_t count, size_t offset, const char *api,
                            void **where);
/* One pointer per kernel parameter into d's parameter block (malloc'd), or NULL. */
void **rt_launch_argv(const rt_launch_desc *d);

/* A CUDA array: linear device storage, rows packed, with its description (arrays.c). */
typedef struct rt_array {
    uint32_t magic;
    struct cudaChannelFormatDesc desc;
    size_t elem;                /* bytes per element */
    size_t width, height, depth;  /* in elements; height and depth 0 when absent */
    unsigned flags;
    bool mipmap_level;          /* a level of a mipmapped array (freed with it) */
    char *data;
    size_t pitch, slice;        /* bytes per row, per 2D slice */
} rt_array;

/* The live array behind a cudaArray_t, or NULL. Lock held. */
rt_array *rt_array_lookup(const void *handle);
/* Level `index` of a mipmapped array (and how many it has), or NULL. Lock held. */
rt_array *rt_mipmap_level_locked(const void *mm, unsigned index, unsigned *nlevels);
/* cudaDeviceReset: texture and surface objects (textures.c). Lock held. */
void rt_textures_release_all(void);
/* cudaDeviceReset: texture and surface references lose their bindings (texrefs.c). Lock held. */
void rt_texrefs_release_all(void);

/* cudaMalloc and cudaFree with the lock held; api names the call in messages. */
cudaError_t rt_malloc_locked(void **ptr, size_t size, const char *api);
cudaError_t rt_free_locked(void *ptr, const char *api);
/* A synchronisation: pools give back what they hold beyond their release threshold. */
void rt_mempool_synchronized(void);

/* Memory pools: forget an allocation freed with cudaFree (lock held). */
void rt_mempool_forget(uint64_t addr);
/* cudaDeviceReset: every pool allocation is gone. */
void rt_mempool_release_all(void);
/* cudaDeviceReset: arrays. */
void rt_arrays_release_all(void);

/* Records an event: its operation seq has run (the device worker, or a graph's event node). */
cudaError_t rt_event_record_locked(cudaEvent_t event, uint64_t seq);
/* A graph launched as operation seq records event when it runs: the event completes with it. */
void rt_event_note_record(cudaEvent_t event, uint64_t seq);

/* ---------------------------------------------------------------- statistics */

/* Writes the per-kernel report to PTXSIM_STATS (called at exit). */
void rt_stats_report(void);
/* Whether launches count the metrics (the --stats table shows them; the JSON has none). */
bool rt_stats_wants_metrics(void);
/* Prints the --check summary and report (at exit) and ends the process with
 * --error-exitcode when a check found errors. */
void rt_check_finish(void);
/* Writes the --record file (at exit). */
void rt_record_finish(void);
/* Finishes the --trace file (at exit). */
void rt_trace_finish(void);
/* Writes the --timeline file (at exit). */
void rt_timeline_finish(void);

#endif
