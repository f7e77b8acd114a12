/* grid.c: a kernel launch: validation of its configuration and the state every CTA shares
 * (parameter block, shared-memory size, per-thread local memory, the first fault). */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMU_MAX_BLOCK_THREADS 1024u
#define EMU_MAX_SMEM (228u * 1024u)

static emu_grid *launch_error(emu_fault *fault, emu_fault_kind k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static emu_grid *launch_error(emu_fault *fault, emu_fault_kind k, const char *fmt, ...)
{
    if (fault) {
        memset(fault, 0, sizeof *fault);
        fault->kind = k;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(fault->message, sizeof fault->message, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

emu_grid *emu_grid_create(const emu_launch *L, emu_fault *fault)
{
    if (fault) memset(fault, 0, sizeof *fault);
    if (!L || !L->module || !L->kernel)
        return launch_error(fault, EMU_FAULT_INVALID_PC, "launch without a kernel");
    const emu_func *kf = emu_module_func_by_ptx(L->module, L->kernel);
    const char *kn = L->kernel->name;
    if (!kf || !L->kernel->is_entry || !kf->code.uops)
        return launch_error(fault, EMU_FAULT_INVALID_PC,
                            "kernel %s is not an .entry with a body in its module", kn);
    emu_dim3 b = L->block, gd = L->grid;
    uint64_t nthreads = (uint64_t)b.x * b.y * b.z;
    if (!b.x || !b.y || !b.z || !gd.x || !gd.y || !gd.z)
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: empty grid (%u,%u,%u) or block (%u,%u,%u)", kn, gd.x,
                            gd.y, gd.z, b.x, b.y, b.z);
    if (nthreads > EMU_MAX_BLOCK_THREADS || b.z > 64)
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: block (%u,%u,%u) has more than %u threads or z > 64", kn,
                            b.x, b.y, b.z, EMU_MAX_BLOCK_THREADS);
    const ptx_function *k = L->kernel;
    if (k->maxntid[0] && nthreads > (uint64_t)k->maxntid[0] * (k->maxntid[1] ? k->maxntid[1] : 1) *
                                        (k->maxntid[2] ? k->maxntid[2] : 1))
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: block of %llu threads exceeds its .maxntid", kn,
                            (unsigned long long)nthreads);
    if (k->reqntid[0] && (b.x != k->reqntid[0] || b.y != (k->reqntid[1] ? k->reqntid[1] : 1) ||
                          b.z != (k->reqntid[2] ? k->reqntid[2] : 1)))
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: block (%u,%u,%u) differs from its .reqntid", kn, b.x, b.y,
                            b.z);
    uint64_t smem = kf->static_smem + L->dynamic_smem;
    if (smem > EMU_MAX_SMEM)
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: %llu bytes of shared memory (%llu static + %u dynamic) "
                            "exceed %u", kn, (unsigned long long)smem,
                            (unsigned long long)kf->static_smem, L->dynamic_smem, EMU_MAX_SMEM);
    if (k->param_size && (!L->params || L->params_size < k->param_size))
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES,
                            "kernel %s: parameter block of %zu bytes, the kernel takes %u", kn,
                            L->params ? L->params_size : 0, k->param_size);
    emu_grid *g = calloc(1, sizeof *g);
    if (!g) return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES, "out of memory");
    g->launch = *L;
    if (!g->launch.policy) g->launch.policy = emu_direct_policy();
    g->kf = kf;
    g->params_size = L->params ? L->params_size : 0;
    g->params = malloc(g->params_size ? g->params_size : 1);
    if (!g->params) {
        free(g);
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES, "out of memory");
    }
    if (g->params_size) memcpy(g->params, L->params, g->params_size);
    uint32_t nwarps = (uint32_t)((nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    g->tid = calloc((size_t)nwarps * EMU_WARP_SIZE, sizeof *g->tid);
    if (!g->tid) {
        free(g->params);
        free(g);
        return launch_error(fault, EMU_FAULT_OUT_OF_RESOURCES, "out of memory");
    }
    /* counted up from thread 0 (x fastest), without a division per thread */
    emu_dim3 i = {0, 0, 0};
    for (uint64_t t = 0; t < nthreads; t++) {
        g->tid[t] = i;
        if (++i.x == b.x) {
            i.x = 0;
            if (++i.y == b.y) {
                i.y = 0;
                i.z++;
            }
        }
    }
    g->launch.params = g->params;
    g->ncta = (uint64_t)gd.x * gd.y * gd.z;
    g->nthreads = (uint32_t)nthreads;
    g->smem_size = smem;
    g->local_per_thread = kf->max_stack;
    if (kf->calls && L->call_stack > EMU_CALL_STACK_BYTES)
        g->local_per_thread += L->call_stack - EMU_CALL_STACK_BYTES;
    pthread_mutex_init(&g->lock, NULL);
    return g;
}

void emu_grid_destroy(emu_grid *g)
{
    if (!g) return;
    pthread_mutex_destroy(&g->lock);
    free(g->warp_counts);
    free(g->params);
    free(g->tid);
    free(g);
}

uint64_t emu_grid_cta_count(const emu_grid *g)
{
    return g->ncta;
}

const emu_fault *emu_grid_fault(const emu_grid *g)
{
    return g->faulted ? &g->fault : NULL;
}

const emu_launch *emu_grid_launch(const emu_grid *g)
{
    return &g->launch;
}

uint64_t emu_grid_smem_per_cta(const emu_grid *g)
{
    return g->smem_size;
}

void emu_grid_set_policy(emu_grid *g, emu_mem_policy *policy)
{
    g->launch.policy = policy ? policy : emu_direct_policy();
}

bool emu_grid_keep_warp_counts(emu_grid *g)
{
    uint64_t warps = (g->nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    if (g->ncta > SIZE_MAX / 8 / (warps ? warps : 1)) return false;
    g->warps_per_cta = (uint32_t)warps;
    g->warp_counts = calloc((size_t)(g->ncta * warps), sizeof *g->warp_counts);
    return g->warp_counts != NULL;
}

const uint64_t *emu_grid_warp_counts(const emu_grid *g, size_t *n)
{
    *n = g->warp_counts ? (size_t)(g->ncta * g->warps_per_cta) : 0;
    return g->warp_counts;
}

void emu_grid_note_cta_done(emu_grid *g, const emu_cta *c)
{
    if (!g->warp_counts) return;
    for (uint32_t i = 0; i < c->nwarps && i < g->warps_per_cta; i++)
        g->warp_counts[c->linear * g->warps_per_cta + i] = c->warps[i].ninstr;
}
