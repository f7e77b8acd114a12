/* launch.c: kernel launches: the <<<...>>> call-configuration stack, validation against the
 * device's limits, the parameter block, running the grid on the engine, and turning a fault
 * into the CUDA error the real runtime would report. Also the per-kernel queries
 * (attributes, occupancy) that depend on the same limits. */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- call configuration */

/* nvcc pushes the <<<...>>> configuration, then the kernel's stub pops it; a launch inside an
 * argument expression nests, so this is a small per-thread stack. */
typedef struct call_config {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
} call_config;

#define MAX_CONFIG_DEPTH 64
static _Thread_local call_config config_stack[MAX_CONFIG_DEPTH];
static _Thread_local unsigned config_depth;

unsigned rt_push_call_config(dim3 grid, dim3 block, size_t smem, cudaStream_t stream)
{
    if (config_depth >= MAX_CONFIG_DEPTH) {
        fprintf(stderr, "ptxsim: kernel launches nested more than %d deep\n", MAX_CONFIG_DEPTH);
        return 1;  /* nonzero: nvcc's code skips the launch */
    }
    config_stack[config_depth++] = (call_config){grid, block, smem, stream};
    return 0;
}

cudaError_t rt_pop_call_config(dim3 *grid, dim3 *block, size_t *smem, cudaStream_t *stream)
{
    if (config_depth == 0)
        return rt_record(cudaErrorMissingConfiguration);
    call_config c = config_stack[--config_depth];
    if (grid)
        *grid = c.grid;
    if (block)
        *block = c.block;
    if (smem)
        *smem = c.smem;
    if (stream)
        *stream = c.stream;
    return cudaSuccess;
}

cudaError_t rt_get_kernel(cudaKernel_t *kernel, const void *host_fun)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_kernel *k = rt_kernel_lookup(host_fun);
    pthread_mutex_unlock(&rt_g.lock);
    if (!kernel)
        return rt_record(cudaErrorInvalidValue);
    *kernel = (cudaKernel_t)k;
    if (!k)
        return rt_record(rt_api_error(cudaErrorInvalidDeviceFunction, "cudaGetKernel",
                                      "%p is not a registered kernel", host_fun));
    return cudaSuccess;
}

/* ---------------------------------------------------------------- faults */

static cudaError_t fault_error(emu_fault_kind kind)
{
    switch (kind) {
    case EMU_FAULT_NONE: return cudaSuccess;
    case EMU_FAULT_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case EMU_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
    case EMU_FAULT_SHARED_OUT_OF_RANGE: return cudaErrorIllegalAddress;
    case EMU_FAULT_LOCAL_OUT_OF_RANGE: return cudaErrorIllegalAddress;
    case EMU_FAULT_BARRIER_DEADLOCK: return cudaErrorLaunchFailure;
    case EMU_FAULT_TRAP: return cudaErrorLaunchFailure;
    case EMU_FAULT_ASSERT: return cudaErrorAssert;
    case EMU_FAULT_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case EMU_FAULT_UNSUPPORTED: return cudaErrorNotSupported;
    case EMU_FAULT_STACK_OVERFLOW: return cudaErrorLaunchFailure;
    case EMU_FAULT_INVALID_PC: return cudaErrorLaunchFailure;
    case EMU_FAULT_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case EMU_FAULT_TIMEOUT: return cudaErrorLaunchTimeout;
    }
    return cudaErrorLaunchFailure;
}

/* ---------------------------------------------------------------- validation */

/* CPU seconds of the calling thread: what a grid costs the host thread that runs it (with
 * --threads=1, all of it) whatever else the machine runs; --verbose reports it next to the
 * wall time (bench/jit_speed.sh reads it). */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t threads_of(dim3 d)
{
    return (uint64_t)d.x * d.y * d.z;
}

static uint64_t bound_threads(const uint32_t v[3])
{
    return (uint64_t)v[0] * (v[1] ? v[1] : 1) * (v[2] ? v[2] : 1);
}

/* The most dynamic shared memory a launch of k may ask for. */
static uint64_t dynamic_smem_limit(const rt_kernel *k)
{
    uint64_t stat = k->fn->shared_size;
    if (k->max_dynamic_smem >= 0)
        return (uint64_t)k->max_dynamic_smem;
    return stat >= RT_SMEM_PER_BLOCK ? 0 : RT_SMEM_PER_BLOCK - stat;
}

/* The error of a grid or block the device cannot have (a zero or too large dimension, too many
 * threads): CUDA 13's runtime returns cudaErrorInvalidValue (seen on an H100 with the CUDA 13.0
 * runtime and driver 580: tests/cuda/runtime_api.cu's launch_block_too_big, launch_grid_too_big,
 * launch_zero_grid); the runtimes before it returned cudaErrorInvalidConfiguration ("invalid
 * configuration argument", error 9, which programs built for them report), and still do for
 * the programs built for them. */
static cudaError_t launch_config_error(void)
{
    return rt_program_runtime_major() >= 13 ? cudaErrorInvalidValue
                                            : cudaErrorInvalidConfiguration;
}

static cudaError_t check_config(rt_kernel *k, dim3 grid, dim3 block, size_t smem)
{
    const char *fn = "kernel launch";
    const char *name = rt_kernel_pretty(k);
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return rt_api_error(launch_config_error(), fn,
                            "%s<<<(%u,%u,%u), (%u,%u,%u)>>>: a dimension is zero", name, grid.x,
                            grid.y, grid.z, block.x, block.y, block.z);
    if (block.x > RT_MAX_BLOCK_X || block.y > RT_MAX_BLOCK_Y || block.z > RT_MAX_BLOCK_Z ||
        threads_of(block) > RT_MAX_THREADS_PER_BLOCK)
        return rt_api_error(launch_config_error(), fn,
                            "%s: block (%u,%u,%u) exceeds the device's limits (at most "
                            "(%d,%d,%d) and %d threads)",
                            name, block.x, block.y, block.z, RT_MAX_BLOCK_X, RT_MAX_BLOCK_Y,
                            RT_MAX_BLOCK_Z, RT_MAX_THREADS_PER_BLOCK);
    if (grid.x > RT_MAX_GRID_X || grid.y > RT_MAX_GRID_Y || grid.z > RT_MAX_GRID_Z)
        return rt_api_error(launch_config_error(), fn,
                            "%s: grid (%u,%u,%u) exceeds the device's limits (%u,%u,%u)", name,
                            grid.x, grid.y, grid.z, RT_MAX_GRID_X, RT_MAX_GRID_Y, RT_MAX_GRID_Z);
    const ptx_function *f = k->fn;
    if (f->maxntid[0] && threads_of(block) > bound_threads(f->maxntid))
        return rt_api_error(cudaErrorLaunchOutOfResources, fn,
                            "%s: a block of %llu threads exceeds the kernel's .maxntid "
                            "(__launch_bounds__) of %llu",
                            name, (unsigned long long)threads_of(block),
                            (unsigned long long)bound_threads(f->maxntid));
    if (f->reqntid[0] &&
        (block.x != f->reqntid[0] || block.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
         block.z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return rt_api_error(cudaErrorInvalidValue, fn,
                            "%s: block (%u,%u,%u) differs from the kernel's .reqntid %u,%u,%u",
                            name, block.x, block.y, block.z, f->reqntid[0], f->reqntid[1],
                            f->reqntid[2]);
    /* A compile-time cluster (__cluster_dims__: .reqnctapercluster) is refused like a launch
     * attribute asking for one (rt_launch_ex), rather than run as clusters of one block whose
     * distributed shared memory and cluster barriers would silently mean something else. */
    uint64_t cluster = (uint64_t)(f->reqnctapercluster[0] ? f->reqnctapercluster[0] : 1) *
                       (f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1) *
                       (f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1);
    if (cluster > 1)
        return rt_api_error(cudaErrorNotSupported, fn,
                            "%s: the kernel requires clusters of %u x %u x %u blocks "
                            "(__cluster_dims__); thread-block clusters are not supported yet",
                            name, f->reqnctapercluster[0],
                            f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1,
                            f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1);
    /* The driver reserves local memory for every thread the GPU can hold at once; when that
     * does not fit in the device's memory the launch fails. */
    emu_kernel_resources res;
    if (k->emu && emu_module_kernel_resources(k->emu, f, &res)) {
        uint64_t per_thread = res.local_per_thread + (rt_function_local_bytes(f) - f->local_size);
        uint64_t resident = (uint64_t)rt_g.gpu->max_threads_per_sm * (uint64_t)rt_g.gpu->sm_count;
        if (per_thread && per_thread > rt_g.gpu->global_mem / resident)
            return rt_api_error(cudaErrorMemoryAllocation, fn,
                                "%s: %llu bytes of local memory per thread, for the %llu "
                                "threads the GPU holds at once, do not fit in its %llu bytes",
                                name, (unsigned long long)per_thread,
                                (unsigned long long)resident,
                                (unsigned long long)rt_g.gpu->global_mem);
    }
    uint64_t limit = dynamic_smem_limit(k);
    uint64_t total = f->shared_size + smem;
    if (smem > limit || total > rt_g.gpu->smem_per_block_optin)
        return rt_api_error(cudaErrorInvalidValue, fn,
                            "%s: %zu bytes of dynamic shared memory (+ %llu static) exceed the "
                            "%llu bytes allowed%s",
                            name, smem, (unsigned long long)f->shared_size,
                            (unsigned long long)limit,
                            k->max_dynamic_smem < 0
                                ? "; raise it with cudaFuncSetAttribute("
                                  "cudaFuncAttributeMaxDynamicSharedMemorySize)"
                                : "");
    return cudaSuccess;
}

/* ---------------------------------------------------------------- launching */

/* A registered kernel its loaded module does not define: it lived in a unit that could not be
 * loaded (already reported), or the PTX lacks it. */
static cudaError_t missing_kernel(const rt_kernel *k, const char *api)
{
    if (k->mod->unit_error != cudaSuccess)
        return k->mod->unit_error;
    return rt_api_error(cudaErrorInvalidDeviceFunction, api,
                        "kernel %s is not an entry of the PTX of %s", k->name, k->mod->name);
}

/* The kernel behind func, loaded; lock held. */
static cudaError_t loaded_kernel(const void *func, const char *api, rt_kernel **out)
{
    rt_kernel *k = rt_kernel_lookup(func);
    if (!k) {
        /* CUDA 13's runtime takes a pointer it does not know for a cudaKernel_t handle and
         * answers cudaErrorInvalidResourceHandle; NULL is cudaErrorInvalidDeviceFunction (an
         * H100, 2026-11-27: cudaLaunchKernel and cudaFuncGetAttributes of an int's address) */
        cudaError_t code = func && rt_program_runtime_major() >= 13
                               ? cudaErrorInvalidResourceHandle
                               : cudaErrorInvalidDeviceFunction;
        return rt_api_error(code, api, "%p is not a registered kernel", func);
    }
    cudaError_t e = rt_module_ready(k->mod);
    if (e != cudaSuccess)
        return e;
    if (!k->fn)
        return missing_kernel(k, api);
    *out = k;
    return cudaSuccess;
}

/* PTX names virtual registers only; ptxas allocates the real ones. Report what nvcc typically
 * gives a small kernel, or the kernel's own .maxnreg. */
static int register_estimate(const ptx_function *f)
{
    return f->maxnreg && f->maxnreg < 32 ? (int)f->maxnreg : 32;
}

static int max_threads_of(const ptx_function *f)
{
    uint64_t t = f->maxntid[0] ? bound_threads(f->maxntid) : RT_MAX_THREADS_PER_BLOCK;
    return (int)(t < RT_MAX_THREADS_PER_BLOCK ? t : RT_MAX_THREADS_PER_BLOCK);
}

/* Blocks of block_size threads one SM holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
static int blocks_per_sm(const rt_kernel *k, int block_size, size_t dynamic_smem)
{
    const rt_gpu_model *gpu = rt_g.gpu;
    if (block_size > max_threads_of(k->fn))
        return 0;
    int warps = (block_size + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    int n = gpu->max_blocks_per_sm;
    int by_threads = gpu->max_threads_per_sm / (warps * EMU_WARP_SIZE);
    int by_regs = gpu->regs_per_sm / (register_estimate(k->fn) * warps * EMU_WARP_SIZE);
    n = by_threads < n ? by_threads : n;
    n = by_regs < n ? by_regs : n;
    /* Devices of sm_80 and later reserve 1 KiB of shared memory per block. */
    uint64_t per_block = k->fn->shared_size + dynamic_smem + (gpu->major >= 8 ? 1024 : 0);
    if (k->fn->shared_size + dynamic_smem > 0) {
        uint64_t by_smem = gpu->smem_per_sm / per_block;
        n = by_smem < (uint64_t)n ? (int)by_smem : n;
    }
    return n;
}

/* Lays the arguments out as the kernel's .param block: from one pointer per parameter (args),
 * or from a packed buffer (the driver API's `extra` CU_LAUNCH_PARAM_BUFFER_POINTER /
 * CU_LAUNCH_PARAM_BUFFER_SIZE, which cudaGraphAddKernelNode accepts too). */
static cudaError_t build_params(rt_kernel *k, void **args, void **extra, const char *api,
                                uint8_t **out, size_t *size)
{
    const ptx_function *f = k->fn;
    const ptx_module *ir = emu_module_ptx(k->emu);
    *size = f->param_size;
    *out = calloc(1, f->param_size ? f->param_size : 1);
    if (!*out)
        return cudaErrorMemoryAllocation;
    if (!args && extra) {
        const void *buf = NULL;
        size_t bufsize = 0;
        for (size_t i = 0; extra[i] != NULL && i < 16; i += 2) {
            if (extra[i] == (void *)(uintptr_t)0x01)  /* CU_LAUNCH_PARAM_BUFFER_POINTER */
                buf = extra[i + 1];
            else if (extra[i] == (void *)(uintptr_t)0x02)  /* CU_LAUNCH_PARAM_BUFFER_SIZE */
                bufsize = extra[i + 1] ? *(const size_t *)extra[i + 1] : 0;
        }
        if (!buf && f->param_size) {
            free(*out);
            return rt_api_error(cudaErrorInvalidValue, api,
                                "%s takes %u parameter bytes and the `extra` array gives no "
                                "CU_LAUNCH_PARAM_BUFFER_POINTER",
                                rt_kernel_pretty(k), f->param_size);
        }
        /* The driver refuses a buffer larger than the kernel's parameters (a C struct's tail
         * padding included) as too many resources requested for launch: an H100 (driver 580)
         * did, and LLVM's offload plugin trims the padding for that reason. It accepts a
         * shorter one and the kernel reads undefined bytes past it (an H100 ran a legacy
         * launch of 12 bytes for a kernel of 36): here they are zero, and said on stderr. */
        if (bufsize > f->param_size) {
            free(*out);
            return rt_api_error(cudaErrorLaunchOutOfResources, api,
                                "%s: the `extra` parameter buffer holds %zu bytes, more than "
                                "the kernel's %u (tail padding of a struct counts)",
                                rt_kernel_pretty(k), bufsize, f->param_size);
        }
        if (bufsize < f->param_size)
            rt_log(0, "warning: %s: %s gives %zu parameter bytes, the kernel takes %u: the "
                      "rest are zero here, undefined on a GPU",
                   api, rt_kernel_pretty(k), bufsize, f->param_size);
        if (buf && bufsize)
            memcpy(*out, buf, bufsize);
        return cudaSuccess;
    }
    if (f->nparams && !args) {
        free(*out);
        return rt_api_error(cudaErrorInvalidValue, api,
                            "%s takes %u parameters but the argument array is NULL",
                            rt_kernel_pretty(k), f->nparams);
    }
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_symbol *p = &ir->syms[f->params[i]];
        if (p->offset + p->size > f->param_size || !args[i]) {
            free(*out);
            return rt_api_error(cudaErrorInvalidValue, api, "%s: argument %u (%s) is %s",
                                rt_kernel_pretty(k), i, p->name,
                                args[i] ? "outside the parameter block" : "a NULL pointer");
        }
        memcpy(*out + p->offset, args[i], p->size);
    }
    return cudaSuccess;
}

cudaError_t rt_launch_prepare(const void *func, dim3 grid, dim3 block, void **args, void **extra,
                              size_t smem, bool cooperative, const char *api, rt_launch_desc *d)
{
    memset(d, 0, sizeof *d);
    rt_kernel *k = NULL;
    cudaError_t e = loaded_kernel(func, api, &k);
    if (e != cudaSuccess)
        return e;
    if ((e = check_config(k, grid, block, smem)) != cudaSuccess)
        return e;
    if (cooperative) {
        /* Grid-wide synchronisation needs every block resident at once. */
        uint64_t per_sm = (uint64_t)blocks_per_sm(k, (int)threads_of(block), smem);
        uint64_t most = per_sm * (uint64_t)rt_g.gpu->sm_count;
        if (threads_of(grid) > most)
            return rt_api_error(cudaErrorCooperativeLaunchTooLarge, api,
                                "%s: a cooperative grid of %llu blocks exceeds the %llu that "
                                "can be resident at once (%llu per SM x %d SMs)",
                                rt_kernel_pretty(k), (unsigned long long)threads_of(grid),
                                (unsigned long long)most, (unsigned long long)per_sm,
                                rt_g.gpu->sm_count);
    }
    if ((e = build_params(k, args, extra, api, &d->params, &d->params_size)) != cudaSuccess)
        return e;
    d->kernel = k;
    d->grid = grid;
    d->block = block;
    d->smem = smem;
    d->cooperative = cooperative;
    return cudaSuccess;
}

void **rt_launch_argv(const rt_launch_desc *d)
{
    const ptx_function *f = d->kernel->fn;
    void **argv = calloc(f && f->nparams ? f->nparams : 1, sizeof *argv);
    if (!argv || !f)
        return argv;
    const ptx_module *ir = emu_module_ptx(d->kernel->emu);
    for (uint32_t i = 0; i < f->nparams; i++)
        argv[i] = d->params + ir->syms[f->params[i]].offset;
    return argv;
}

void rt_launch_desc_free(rt_launch_desc *d)
{
    free(d->params);
    d->params = NULL;
}

/* The engine's configuration for a launch from the runtime's options. */
static void engine_config(timing_engine_config *ec, rt_kernel *k, bool cooperative)
{
    timing_engine_defaults(ec);
    ec->sm_count = (uint32_t)rt_g.gpu->sm_count;
    ec->host_threads = rt_g.cfg.threads;
    ec->seed = rt_g.cfg.seed;
    ec->max_ctas_per_sm = (uint32_t)rt_g.gpu->max_blocks_per_sm;
    ec->max_threads_per_sm = (uint32_t)rt_g.gpu->max_threads_per_sm;
    ec->smem_per_sm = rt_g.gpu->smem_per_sm;
    ec->det = strcmp(rt_g.cfg.det, "gpudet") == 0 ? TIMING_DET_GPUDET
              : strcmp(rt_g.cfg.det, "dab") == 0  ? TIMING_DET_DAB
                                                  : TIMING_DET_OFF;
    if (rt_g.cfg.quantum) {
        ec->warp_budget = rt_g.cfg.quantum;
        ec->quantum = rt_g.cfg.quantum;
    }
    ec->bta = rt_g.cfg.gpudet_bta;
    ec->dwp = rt_g.cfg.gpudet_dwp;
    ec->serial_order = rt_g.cfg.gpudet_serial_warp ? TIMING_SERIAL_WARP : TIMING_SERIAL_CU;
    ec->gpudet_lock_commit = rt_g.cfg.gpudet_lock_commit;
    ec->gpudet_sb_entries = rt_g.cfg.gpudet_sb_entries;
    ec->dab_limit = strcmp(rt_g.cfg.dab_limit, "nr") == 0      ? TIMING_DAB_LIMIT_NR
                    : strcmp(rt_g.cfg.dab_limit, "nr-of") == 0 ? TIMING_DAB_LIMIT_NR_OF
                                                               : TIMING_DAB_LIMIT_OFF;
    ec->dab_entries = rt_g.cfg.dab_entries;
    ec->dab_fusion = rt_g.cfg.dab_fusion;
    ec->dab_coalescing = rt_g.cfg.dab_coalescing;
    ec->dab_offset_flush = rt_g.cfg.dab_offset_flush;
    ec->dab_warp_buffers = rt_g.cfg.dab_warp_buffers;
    ec->dab_sms = rt_g.cfg.dab_sms;
    ec->dab_scheduler = strcmp(rt_g.cfg.dab_scheduler, "gtar") == 0   ? TIMING_DAB_GTAR
                        : strcmp(rt_g.cfg.dab_scheduler, "gtrr") == 0 ? TIMING_DAB_GTRR
                        : strcmp(rt_g.cfg.dab_scheduler, "srr") == 0  ? TIMING_DAB_SRR
                                                                      : TIMING_DAB_GWAT;
    ec->stats = &k->engine;
    ec->cooperative = cooperative;
    ec->watchdog_seconds = (double)rt_g.cfg.watchdog_seconds;
    ec->watchdog_insts = rt_g.cfg.watchdog_insts;
    ec->cycle_model = rt_g.cfg.timing;
    ec->gpu = rt_g.gpu;
    ec->timeline = rt_g.timeline;
}

/* Host memory the resident CTAs of one grid may hold in warp state (registers, local memory)
 * and shared memory. The modelled GPU keeps every CTA its occupancy allows resident at once
 * (an A100: 108 SMs x up to 32 CTAs), and a resident CTA's warps own their whole register file
 * in host memory; for kernels with many registers (tensor-core GEMMs) that is hundreds of MB
 * beyond the program's own data. Past this budget fewer CTAs are resident at once: fewer per
 * SM, then fewer SMs. The choice depends only on the kernel and the launch, so it is the same
 * on every run (GPUDet's schedule stays deterministic); a cooperative grid keeps every CTA
 * resident, as grid-wide synchronisation needs. */
#define RT_RESIDENT_STATE_BUDGET (UINT64_C(16) << 20)

static void cap_residency(timing_engine_config *ec, const emu_grid *g, const rt_kernel *k)
{
    /* the cycle model times the GPU's own occupancy: residency is not traded for memory */
    if (ec->cooperative || ec->cycle_model)
        return;
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    uint64_t warps = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    /* 64-bit register slots for 32 lanes, local memory for 32 threads, and the SIMT stack and
     * frames (a few hundred bytes) */
    uint64_t per_warp = (uint64_t)k->fn->nslots * EMU_WARP_SIZE * sizeof(uint64_t) +
                        k->fn->local_size * EMU_WARP_SIZE + 512;
    uint64_t per_cta = warps * per_warp + emu_grid_smem_per_cta(g) + L->reserved_smem;
    uint64_t live = RT_RESIDENT_STATE_BUDGET / (per_cta ? per_cta : 1);
    if (!live)
        live = 1;
    uint64_t resident = (uint64_t)ec->sm_count * timing_ctas_per_sm(g, ec);
    if (resident <= live || emu_grid_cta_count(g) <= live)
        return;
    if (live >= ec->sm_count) {
        ec->max_ctas_per_sm = (uint32_t)(live / ec->sm_count);
    } else {
        ec->max_ctas_per_sm = 1;
        ec->sm_count = (uint32_t)live;
    }
    rt_log(2, "%s: %llu bytes of state per CTA; %llu CTAs resident at once instead of %llu",
           rt_kernel_pretty((rt_kernel *)k), (unsigned long long)per_cta,
           (unsigned long long)((uint64_t)ec->sm_count * timing_ctas_per_sm(g, ec)),
           (unsigned long long)resident);
}

/* Ends a launch's iGPU policy, saying what it did (-v). */
/* --igpu: the idempotent region the faulting thread was in, for the fault's report ("" when
 * the fault names no thread or the thread crossed no boundary) */
static void igpu_fault_region(timing_igpu *igpu, const rt_kernel *k, const emu_fault *f,
                              const emu_launch *L, char *out, size_t len)
{
    if (!f->ptx_line) return;
    uint64_t cta = f->cta.x + (uint64_t)L->grid.x * (f->cta.y + (uint64_t)L->grid.y * f->cta.z);
    uint64_t t = f->thread.x + (uint64_t)L->block.x * (f->thread.y + (uint64_t)L->block.y * f->thread.z);
    uint32_t func, pc;
    char name[400];
    if (timing_igpu_region_of(igpu, cta, (uint32_t)(t / EMU_WARP_SIZE),
                              (uint32_t)(t % EMU_WARP_SIZE), &func, &pc) &&
        timing_igpu_region_name(k->emu, func, pc, name, sizeof name) > 0)
        snprintf(out, len, "; in %s; not restartable, so it is reported, not re-run", name);
}

static void igpu_finish(timing_igpu *igpu, rt_kernel *k)
{
    if (!igpu)
        return;
    timing_igpu_stats *st = calloc(1, sizeof *st);
    timing_igpu_end(igpu, st);
    if (!st)
        return;
    rt_log(1, "%s: iGPU: %llu region boundaries crossed, %llu faults injected, %llu page faults, "
           "%llu restarts", rt_kernel_pretty(k), (unsigned long long)st->boundaries,
           (unsigned long long)st->faults, (unsigned long long)st->page_faults,
           (unsigned long long)st->restarts);
    if (!k->igpu) {
        k->igpu = st;   /* the first launch's counts are the sum so far */
        return;
    }
    timing_igpu_stats_add(k->igpu, st);
    free(st);
}

cudaError_t rt_launch_run(const rt_launch_desc *d)
{
    rt_kernel *k = d->kernel;
    emu_output_flush();   /* a launch flushes the device printf output of earlier kernels */
    /* A graph may run after cudaDeviceReset unloaded the module: load it again. */
    cudaError_t e = rt_module_ready(k->mod);
    if (e != cudaSuccess)
        return e;
    if (!k->fn)
        return missing_kernel(k, "kernel launch");
    dim3 grid = d->grid, block = d->block;
    uint64_t workspace = 0;
    emu_launch L = {
        .module = k->emu,
        .kernel = k->fn,
        .grid = {grid.x, grid.y, grid.z},
        .block = {block.x, block.y, block.z},
        .dynamic_smem = (uint32_t)d->smem,
        .params = d->params,
        .params_size = d->params_size,
        .policy = rt_g.policy,
        .executor = strcmp(rt_g.cfg.engine, "jit") == 0    ? EMU_EXECUTOR_JIT
                    : strcmp(rt_g.cfg.engine, "auto") == 0 ? EMU_EXECUTOR_AUTO
                                                           : EMU_EXECUTOR_INTERP,
        .sm_count = (uint32_t)rt_g.gpu->sm_count,
        .max_warps_per_sm = (uint32_t)rt_g.gpu->max_threads_per_sm / EMU_WARP_SIZE,
        /* as cudaDevAttrReservedSharedMemoryPerBlock reports it (device.c) */
        .reserved_smem = rt_g.gpu->major >= 8 ? 1024 : 0,
        .call_stack = rt_g.limits[cudaLimitStackSize],
        .grid_id = ++rt_g.grid_id,
    };
    {
        /* cooperative_groups' grid barrier counts arrivals in a zeroed word the driver
         * provides; the kernel finds it in %envreg1:%envreg2 (and traps without it). A CUDA 13
         * driver provides it to every launch, cooperative or not: grid_group::is_valid(), which
         * tests that address, is true in a plain <<<1, 1>>> launch on an H100. */
        workspace = emu_device_alloc(256, EMU_ALLOC_DEVICE);
        if (!workspace && d->cooperative)
            return rt_api_error(cudaErrorMemoryAllocation, "cudaLaunchCooperativeKernel",
                                "no device memory for the grid barrier");
        /* a plain launch on a full device goes on without one (the driver's is reserved
         * ahead; ptxsim's device memory is all the program's) */
        L.envreg[1] = (uint32_t)(workspace >> 32);
        L.envreg[2] = (uint32_t)workspace;
    }
    /* --igpu: the module's regions are formed once; the launch runs under the restart policy on
     * its executor (compiled code stops before each boundary, which the interpreter runs) */
    timing_igpu *igpu = NULL;
    if (rt_g.cfg.igpu) {
        char why[256] = "out of host memory";
        timing_igpu_inject inj;
        bool ready =
            (emu_module_has_region_boundaries(k->emu) ||
             /* the runtime loaded the module: marking its boundaries is the runtime's to do */
             timing_igpu_prepare((emu_module *)k->emu, why, sizeof why)) &&
            timing_igpu_parse_inject(rt_g.cfg.fault_inject, &inj, why, sizeof why);
        if (ready && rt_g.cfg.igpu_paging && !rt_g.igpu_pages) {
            ready = (rt_g.igpu_pages = timing_igpu_pages_create(
                         rt_g.cfg.igpu_page_size, rt_g.cfg.igpu_resident_pages)) != NULL;
            /* GPUDet: pages arrive at quantum ends, so no warp's fault hangs on another's */
            if (ready && strcmp(rt_g.cfg.det, "gpudet") == 0)
                timing_igpu_pages_by_quantum(rt_g.igpu_pages);
        }
        if (!ready || !(igpu = timing_igpu_begin(&inj, rt_g.igpu_pages, L.policy))) {
            if (workspace)
                emu_device_free(workspace);
            return rt_api_error(cudaErrorMemoryAllocation, "kernel launch", "%s: --igpu: %s",
                                rt_kernel_pretty(k), why);
        }
        L.policy = timing_igpu_policy(igpu);
        /* --timing: faults, restarts and state preservation cost the model cycles */
        if (rt_g.cfg.timing) timing_igpu_timed(igpu, rt_g.gpu);
    }
    rt_log(1, "launch %s<<<(%u,%u,%u), (%u,%u,%u), %zu>>>%s", rt_kernel_pretty(k), grid.x,
           grid.y, grid.z, block.x, block.y, block.z, d->smem,
           d->cooperative ? " (cooperative)" : "");
    timing_engine_config ec;
    timing_stats run_stats = {0};
    engine_config(&ec, k, d->cooperative);
    ec.stats = &run_stats;

    /* events for the --stats table's metrics and --trace */
    emu_event_sink *trace = NULL;
    timing_metrics_counter metrics;   /* ended where the grid is over, on every path */
    timing_tee tee, tee_model;
    if (rt_g.trace) {
        timing_trace_launch(rt_g.trace, L.grid_id, rt_kernel_pretty(k), emu_module_ptx(k->emu),
                            L.grid, L.block);
        trace = timing_trace_sink(rt_g.trace);
    }
    emu_event_sink *counted = timing_metrics_begin(&metrics, &k->metrics);
    L.events = timing_tee_sink(&tee, rt_stats_wants_metrics() ? counted : NULL, trace);
    if (rt_g.cfg.timing)
        L.events = timing_tee_sink(&tee_model, timing_model_sink(), L.events);

    /* --record: the launch runs under the recorder's policy, which logs and passes on */
    if (rt_g.record) {
        emu_mem_policy *rec = timing_record_begin(rt_g.record, &L, rt_kernel_pretty(k));
        if (rec)
            L.policy = rec;
        else
            fprintf(stderr, "ptxsim: --record: out of host memory; the recording is lost\n");
    }
    /* --check: the launch runs under the checks' policy, which passes everything on */
    if (rt_g.check && (rt_g.cfg.checks & ~TIMING_CHECK_MEM)) {
        emu_mem_policy *checked = timing_check_begin(rt_g.check, &L, rt_kernel_pretty(k));
        if (!checked)
            fprintf(stderr, "ptxsim: --check: out of host memory; %s runs unchecked\n",
                    rt_kernel_pretty(k));
        else
            L.policy = checked;
    }

    /* --watch: outermost, so it prints what the launch's accesses do */
    if (rt_g.watch) {
        emu_mem_policy *watched = timing_watch_begin(rt_g.watch, &L, rt_kernel_pretty(k));
        if (watched)
            L.policy = watched;
    }

    emu_fault fault = {0};
    emu_grid *g = emu_grid_create(&L, &fault);
    if (!g) {
        if (rt_g.check)
            timing_check_end(rt_g.check, stderr);
        igpu_finish(igpu, k);
        if (workspace)
            emu_device_free(workspace);
        e = fault_error(fault.kind);
        if (e == cudaSuccess)
            e = cudaErrorLaunchFailure;
        fprintf(stderr, "ptxsim: %s\nptxsim: cannot launch %s (%s)\n",
                fault.message[0] ? fault.message : emu_fault_kind_name(fault.kind),
                rt_kernel_pretty(k), rt_error_name(e));
        return e;
    }

    cap_residency(&ec, g, k);
    char *unfinished = NULL;   /* where the warps were, when the watchdog ends the launch */
    ec.watchdog_where = &unfinished;

    /* The grid runs without the runtime's lock, so the host goes on issuing work meanwhile
     * (this is the device worker, or a graph node on it); nothing it uses can go away: freeing
     * memory and unloading modules wait for the device first. */
    pthread_mutex_unlock(&rt_g.lock);
    double t0 = rt_now(), cpu0 = thread_cpu_seconds();
    bool ok;
    cudaError_t internal = cudaSuccess;   /* compare mode's own failure: sticky, poisons */
    if (strcmp(rt_g.cfg.engine, "compare") == 0) {
        /* the launch was validated by creating g; compare mode runs grids of its own */
        emu_grid_destroy(g);
        g = rt_compare_run(&L, &ec, rt_kernel_pretty(k), &ok, &internal);
        if (internal != cudaSuccess)
            fprintf(stderr, "ptxsim: kernel %s: %s (%s); every later CUDA call returns it\n",
                    rt_kernel_pretty(k), rt_error_name(internal), rt_error_string(internal));
        if (!g) {
            pthread_mutex_lock(&rt_g.lock);   /* the caller gets the lock back */
            timing_metrics_end(&metrics);
            if (internal != cudaSuccess)
                rt_poison(internal);
            if (rt_g.check)
                timing_check_end(rt_g.check, stderr);
            igpu_finish(igpu, k);
            if (workspace)
                emu_device_free(workspace);
            return internal != cudaSuccess ? cudaSuccess : cudaErrorLaunchFailure;
        }
    } else if (rt_g.replay) {
        char why[512];
        bool diverged;
        ok = timing_replay_grid(rt_g.replay, g, &ec, rt_kernel_pretty(k), why, sizeof why,
                                &diverged);
        if (diverged) {
            /* nothing after this point would be the recorded run */
            fprintf(stderr, "ptxsim: --replay=%s: %s; the replay stops here\n",
                    rt_g.cfg.replay, why);
            fflush(NULL);
            _exit(2);
        }
    } else {
        ok = timing_run_grid(g, &ec);
    }
    if (rt_g.record)
        timing_record_end(rt_g.record, ok ? NULL : emu_grid_fault(g));
    double dt = rt_now() - t0, cpu = thread_cpu_seconds() - cpu0;
    pthread_mutex_lock(&rt_g.lock);
    if (internal != cudaSuccess)
        rt_poison(internal);
    timing_metrics_end(&metrics);
    timing_stats_add(&k->engine, &run_stats);
    if (rt_g.timeline && run_stats.cycles)
        timing_timeline_kernel(rt_g.timeline, rt_kernel_pretty(k), run_stats.cycles,
                               rt_g.gpu->model_clock_khz);
    k->launches++;
    k->ctas += emu_grid_cta_count(g);
    k->threads += emu_grid_cta_count(g) * threads_of(block);
    k->seconds += dt;
    if (ok) {
        rt_log(1, "%s finished in %.3f ms (%.3f ms CPU time of its first host thread)",
               rt_kernel_pretty(k), dt * 1e3, cpu * 1e3);
    } else {
        const emu_fault *f = emu_grid_fault(g);
        e = f ? fault_error(f->kind) : cudaErrorLaunchFailure;
        if (e == cudaSuccess)
            e = cudaErrorLaunchFailure;
        if (!k->failed++) k->first_error = e;
        char region[480] = "";
        if (igpu && f) igpu_fault_region(igpu, k, f, &L, region, sizeof region);
        fprintf(stderr, "ptxsim: %s%s\n", f && f->message[0] ? f->message : "kernel failed",
                region);
        if (rt_g.check)
            timing_check_fault(rt_g.check);
        if (unfinished)
            fprintf(stderr, "ptxsim: where the unfinished warps were:\n%s", unfinished);
        if (rt_error_is_sticky(e)) {
            /* As on a GPU: the launch itself succeeded; the context is now unusable. */
            fprintf(stderr,
                    "ptxsim: kernel %s failed: %s (%s); every later CUDA call returns it\n",
                    rt_kernel_pretty(k), rt_error_name(e), rt_error_string(e));
            rt_poison(e);
            e = cudaSuccess;
        } else {
            fprintf(stderr, "ptxsim: kernel %s failed: %s (%s)\n", rt_kernel_pretty(k),
                    rt_error_name(e), rt_error_string(e));
        }
    }
    free(unfinished);
    if (rt_g.check)
        timing_check_end(rt_g.check, stderr);
    igpu_finish(igpu, k);
    emu_grid_destroy(g);
    if (workspace)
        emu_device_free(workspace);
    return e;
}

/* Checks, then queues the launch or, when the stream is capturing, records it. Lock held. */
static cudaError_t launch_locked(const void *func, dim3 grid, dim3 block, void **args,
                                 void **extra, size_t smem, cudaStream_t stream,
                                 bool cooperative, const char *api)
{
    if (rt_stream_check_locked(stream) != cudaSuccess) {
        rt_kernel *k = rt_kernel_lookup(func);
        return rt_api_error(cudaErrorInvalidResourceHandle, api, "%s: %p is not a live stream",
                            k ? rt_kernel_pretty(k) : "kernel", (void *)stream);
    }
    rt_op op = {.kind = RT_OP_KERNEL};
    cudaError_t e = rt_launch_prepare(func, grid, block, args, extra, smem, cooperative, api,
                                      &op.kernel);
    if (e != cudaSuccess)
        return e;
    /* the process's first compile, here on the program's thread (emu_jit_launching); not
     * before --igpu has marked the module's region boundaries (at its first launch, on the
     * worker): code made from the unmarked module would not stop at them */
    const rt_kernel *k = op.kernel.kernel;
    emu_executor ex = strcmp(rt_g.cfg.engine, "jit") == 0 ||
                              (strcmp(rt_g.cfg.engine, "compare") == 0 && rt_g.cfg.compare_jit)
                          ? EMU_EXECUTOR_JIT
                      : strcmp(rt_g.cfg.engine, "auto") == 0 ? EMU_EXECUTOR_AUTO
                                                             : EMU_EXECUTOR_INTERP;
    if (rt_g.cfg.igpu && !emu_module_has_region_boundaries(k->emu))
        ex = EMU_EXECUTOR_INTERP;
    emu_jit_launching(k->emu, k->fn, ex, rt_g.cfg.timing || rt_g.trace || rt_stats_wants_metrics());
    return rt_op_submit(&op, stream);
}

cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                      cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(launch_locked(func, grid, block, args, NULL, smem, stream, false,
                                "kernel launch"));
}

cudaError_t rt_launch_cooperative(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t smem, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    return rt_end(launch_locked(func, grid, block, args, NULL, smem, stream, true,
                                "cudaLaunchCooperativeKernel"));
}

/* Checks launch attributes; sets *cooperative. Lock not needed. */
static cudaError_t check_attributes(const cudaLaunchAttribute *attrs, unsigned n,
                                    bool *cooperative, const char *api)
{
    if (n && !attrs)
        return cudaErrorInvalidValue;
    for (unsigned i = 0; i < n; i++) {
        const cudaLaunchAttribute *a = &attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative:
            *cooperative = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
                return rt_api_error(cudaErrorNotSupported, api,
                                    "thread-block clusters are not supported yet");
            break;
        case cudaLaunchAttributeProgrammaticEvent:
        case cudaLaunchAttributeLaunchCompletionEvent:
            return rt_api_error(cudaErrorNotSupported, api,
                                "launch attribute %d is not supported yet", a->id);
        case cudaLaunchAttributeAccessPolicyWindow: {
            /* Checked like the stream attribute; the timing model will read it. */
            cudaError_t e = rt_check_access_policy_window(&a->val.accessPolicyWindow, api);
            if (e != cudaSuccess)
                return e;
            break;
        }
        default:
            /* Scheduling hints (priority, programmatic serialization, memory sync domains,
             * preferred shared memory): nothing for the emulator to do. */
            break;
        }
    }
    return cudaSuccess;
}

cudaError_t rt_launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config)
        return rt_record(cudaErrorInvalidValue);
    bool cooperative = false;
    cudaError_t e = check_attributes(config->attrs, config->numAttrs, &cooperative,
                                     "cudaLaunchKernelExC");
    if (e != cudaSuccess)
        return rt_record(e);
    if ((e = rt_begin()) != cudaSuccess)
        return e;
    return rt_end(launch_locked(func, config->gridDim, config->blockDim, args, NULL,
                                config->dynamicSmemBytes, config->stream, cooperative,
                                "cudaLaunchKernelExC"));
}

cudaError_t rt_launch_driver(const void *func, dim3 grid, dim3 block, size_t smem,
                             cudaStream_t stream, void **args, void **extra,
                             const cudaLaunchAttribute *attrs, unsigned nattrs, bool cooperative,
                             const char *api)
{
    cudaError_t e = check_attributes(attrs, nattrs, &cooperative, api);
    if (e != cudaSuccess)
        return rt_record(e);
    if (args && extra)
        return rt_record(rt_api_error(cudaErrorInvalidValue, api,
                                      "both kernelParams and extra are given"));
    if ((e = rt_begin()) != cudaSuccess)
        return e;
    return rt_end(launch_locked(func, grid, block, args, extra, smem, stream, cooperative, api));
}

/* ---------------------------------------------------------------- pre-CUDA-9 launches */

/* cudaConfigureCall pushes a configuration, each cudaSetupArgument copies one argument to its
 * offset in the parameter buffer, and cudaLaunch pops and launches: per host thread, like the
 * real runtime. */
typedef struct legacy_call {
    call_config cfg;
    uint8_t args[4096];         /* CUDA's limit on the parameter block */
    size_t size;
} legacy_call;

#define MAX_LEGACY_DEPTH 8
static _Thread_local legacy_call *legacy_stack[MAX_LEGACY_DEPTH];
static _Thread_local unsigned legacy_depth;

cudaError_t rt_configure_call(dim3 grid, dim3 block, size_t smem, cudaStream_t stream)
{
    if (legacy_depth >= MAX_LEGACY_DEPTH)
        return rt_record(rt_api_error(cudaErrorInvalidConfiguration, "cudaConfigureCall",
                                      "more than %d configurations pending",
                                      MAX_LEGACY_DEPTH));
    legacy_call *c = legacy_stack[legacy_depth];
    if (!c && !(c = legacy_stack[legacy_depth] = malloc(sizeof *c)))
        return rt_record(cudaErrorMemoryAllocation);
    c->cfg = (call_config){grid, block, smem, stream};
    c->size = 0;
    legacy_depth++;
    return cudaSuccess;
}

cudaError_t rt_setup_argument(const void *arg, size_t size, size_t offset)
{
    if (legacy_depth == 0)
        return rt_record(cudaErrorMissingConfiguration);
    legacy_call *c = legacy_stack[legacy_depth - 1];
    if (!arg || offset > sizeof c->args || size > sizeof c->args - offset)
        return rt_record(rt_api_error(cudaErrorInvalidValue, "cudaSetupArgument",
                                      "%zu bytes at offset %zu exceed the %zu-byte parameter "
                                      "block",
                                      size, offset, sizeof c->args));
    memcpy(c->args + offset, arg, size);
    if (offset + size > c->size)
        c->size = offset + size;
    return cudaSuccess;
}

cudaError_t rt_launch_legacy(const void *func)
{
    if (legacy_depth == 0)
        return rt_record(cudaErrorMissingConfiguration);
    legacy_call *c = legacy_stack[--legacy_depth];
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = NULL;
    if ((e = loaded_kernel(func, "cudaLaunch", &k)) == cudaSuccess) {
        /* The host compiler laid the arguments out as the PTX .param block is laid out (the
         * CUDA ABI), so each parameter is found at its own offset. */
        const ptx_function *f = k->fn;
        const ptx_module *ir = emu_module_ptx(k->emu);
        void *args[512];
        if (f->nparams > 512 || f->param_size > sizeof c->args) {
            e = rt_api_error(cudaErrorInvalidValue, "cudaLaunch", "%s has too many parameters",
                             rt_kernel_pretty(k));
        } else {
            for (uint32_t i = 0; i < f->nparams; i++)
                args[i] = c->args + ir->syms[f->params[i]].offset;
            e = launch_locked(func, c->cfg.grid, c->cfg.block, args, NULL, c->cfg.smem,
                              c->cfg.stream, false, "cudaLaunch");
        }
    }
    return rt_end(e);
}

/* ---------------------------------------------------------------- kernel queries */

cudaError_t rt_func_get_attributes(struct cudaFuncAttributes *attr, const void *func)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = NULL;
    if (!attr)
        e = cudaErrorInvalidValue;
    else
        e = loaded_kernel(func, "cudaFuncGetAttributes", &k);
    if (e == cudaSuccess) {
        const ptx_function *f = k->fn;
        const ptx_module *ir = emu_module_ptx(k->emu);
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = f->shared_size;
        for (uint32_t i = 0; i < ir->nsyms; i++)
            if (ir->syms[i].owner < 0 && ir->syms[i].space == PTX_SPACE_CONST)
                attr->constSizeBytes += ir->syms[i].size;
        attr->localSizeBytes = f->local_size;
        attr->maxThreadsPerBlock = max_threads_of(f);
        attr->numRegs = register_estimate(f);
        attr->ptxVersion = (int)ir->sm;
        attr->binaryVersion = rt_g.gpu->major * 10 + rt_g.gpu->minor;
        attr->maxDynamicSharedSizeBytes = (int)dynamic_smem_limit(k);
        attr->preferredShmemCarveout = k->carveout;
    }
    return rt_end(e);
}

cudaError_t rt_func_set_attribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = NULL;
    e = loaded_kernel(func, "cudaFuncSetAttribute", &k);
    if (e == cudaSuccess) {
        switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            if (value < 0 ||
                (uint64_t)value + k->fn->shared_size > rt_g.gpu->smem_per_block_optin)
                e = rt_api_error(cudaErrorInvalidValue, "cudaFuncSetAttribute",
                                 "%s: %d bytes of dynamic shared memory exceed the device's "
                                 "%zu bytes per block",
                                 rt_kernel_pretty(k), value, rt_g.gpu->smem_per_block_optin);
            else
                k->max_dynamic_smem = value;
            break;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100)
                e = cudaErrorInvalidValue;
            else
                k->carveout = value;
            break;
        default:
            break;  /* cluster preferences: hints without effect here */
        }
    }
    return rt_end(e);
}

cudaError_t rt_func_set_cache_config(const void *func, enum cudaFuncCache config)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k;
    e = loaded_kernel(func, "cudaFuncSetCacheConfig", &k);
    (void)config;
    return rt_end(e);
}

cudaError_t rt_occupancy_max_blocks(int *num_blocks, const void *func, int block_size,
                                    size_t dynamic_smem, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = NULL;
    if (!num_blocks || block_size <= 0)
        e = cudaErrorInvalidValue;
    else
        e = loaded_kernel(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", &k);
    if (e == cudaSuccess) {
        (void)flags;
        *num_blocks = blocks_per_sm(k, block_size, dynamic_smem);
    }
    return rt_end(e);
}

cudaError_t rt_occupancy_available_smem(size_t *smem, const void *func, int num_blocks,
                                        int block_size)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = NULL;
    if (!smem || num_blocks <= 0 || block_size <= 0)
        e = cudaErrorInvalidValue;
    else
        e = loaded_kernel(func, "cudaOccupancyAvailableDynamicSMemPerBlock", &k);
    if (e != cudaSuccess)
        return rt_end(e);
    /* The inverse of blocks_per_sm's shared-memory bound: what each of num_blocks blocks may
     * add to its static shared memory and the reserved 1 KiB, within the per-block limit;
     * 0 when the blocks do not fit by threads or registers whatever their shared memory. */
    const rt_gpu_model *gpu = rt_g.gpu;
    uint64_t reserved = gpu->major >= 8 ? 1024 : 0;
    uint64_t per_block = gpu->smem_per_sm / (uint64_t)num_blocks;
    uint64_t fixed = k->fn->shared_size + reserved;
    uint64_t avail = per_block > fixed ? per_block - fixed : 0;
    uint64_t limit = dynamic_smem_limit(k);
    if (avail > limit)
        avail = limit;
    if (blocks_per_sm(k, block_size, 0) < num_blocks)
        avail = 0;
    *smem = (size_t)avail;
    return rt_end(cudaSuccess);
}
