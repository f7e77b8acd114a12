/* fault.c: faults, worded the way compute-sanitizer words them, with the kernel, the PTX line
 * (and the .loc source line), the thread and the block. */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *emu_fault_kind_name(emu_fault_kind k)
{
    switch (k) {
    case EMU_FAULT_NONE: return "none";
    case EMU_FAULT_ILLEGAL_ADDRESS: return "illegal address";
    case EMU_FAULT_MISALIGNED: return "misaligned address";
    case EMU_FAULT_SHARED_OUT_OF_RANGE: return "shared memory out of range";
    case EMU_FAULT_LOCAL_OUT_OF_RANGE: return "local memory out of range";
    case EMU_FAULT_BARRIER_DEADLOCK: return "barrier deadlock";
    case EMU_FAULT_TRAP: return "trap";
    case EMU_FAULT_ASSERT: return "assert";
    case EMU_FAULT_ILLEGAL_INSTRUCTION: return "illegal instruction";
    case EMU_FAULT_UNSUPPORTED: return "unsupported";
    case EMU_FAULT_STACK_OVERFLOW: return "stack overflow";
    case EMU_FAULT_INVALID_PC: return "invalid program counter";
    case EMU_FAULT_OUT_OF_RESOURCES: return "out of resources";
    case EMU_FAULT_TIMEOUT: return "launch timed out";
    }
    return "unknown";
}

void emu_grid_record_fault(emu_grid *g, uint64_t cta_linear, const emu_fault *f)
{
    pthread_mutex_lock(&g->lock);
    if (!g->faulted || cta_linear < g->fault_cta) {
        g->faulted = true;
        g->fault_cta = cta_linear;
        g->fault = *f;
    }
    pthread_mutex_unlock(&g->lock);
}

void emu_grid_abort(emu_grid *g, emu_fault_kind kind, const char *message)
{
    emu_fault f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    snprintf(f.message, sizeof f.message, "%s", message);
    pthread_mutex_lock(&g->lock);
    if (!g->faulted) {
        g->faulted = true;
        g->fault_cta = UINT64_MAX;
        g->fault = f;
    }
    pthread_mutex_unlock(&g->lock);
}

void emu_warp_abort(emu_warp *w, emu_fault_kind kind, const char *message)
{
    emu_fault f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.cta = w->cta->ctaid;
    snprintf(f.message, sizeof f.message, "%s", message);
    emu_grid_record_fault(w->cta->g, w->cta->linear, &f);
    w->state = EMU_WS_FAULT;
}

/* "kernel K (PTX line N, file.cu:L)" for instruction in of the current function. */
int emu_format_where(const emu_ctx *c, const ptx_instr *in, char *buf, size_t len)
{
    const ptx_module *m = c->mod->ptx;
    const ptx_function *k = c->g->launch.kernel;
    /* demangled, as compute-sanitizer names them: "kernel(int*)" */
    char *kn = ptx_demangle(k->name);
    int n = snprintf(buf, len, "kernel %s", kn ? kn : k->name);
    free(kn);
    if (c->fn != k && n >= 0 && (size_t)n < len) {
        char *fnn = ptx_demangle(c->fn->name);
        n += snprintf(buf + n, len - (size_t)n, " (function %s)", fnn ? fnn : c->fn->name);
        free(fnn);
    }
    if (n >= 0 && (size_t)n < len) {
        if (in && in->dbg_line && in->dbg_file < m->nfiles && m->files[in->dbg_file])
            n += snprintf(buf + n, len - (size_t)n, " (PTX line %u, %s:%u)", in->line,
                          m->files[in->dbg_file], in->dbg_line);
        else if (in)
            n += snprintf(buf + n, len - (size_t)n, " (PTX line %u)", in ? in->line : 0);
    }
    return n;
}

void emu_fault_raise(emu_ctx *c, emu_fault_kind k, int lane, bool has_addr, uint64_t addr,
                     const char *what, const char *whyfmt, ...)
{
    emu_fault f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.address = addr;
    f.cta = c->cta->ctaid;
    f.thread = c->w->tid[lane & 31];
    const ptx_instr *in = c->pc < c->fn->ninstrs ? &c->fn->instrs[c->pc] : NULL;
    f.ptx_line = in ? in->line : 0;
    char where[320], why[256];
    emu_format_where(c, in, where, sizeof where);
    va_list ap;
    va_start(ap, whyfmt);
    vsnprintf(why, sizeof why, whyfmt, ap);
    va_end(ap);
    if (has_addr)
        snprintf(f.message, sizeof f.message,
                 "%s at 0x%llx in %s by thread (%u,%u,%u) in block (%u,%u,%u): %s", what,
                 (unsigned long long)addr, where, f.thread.x, f.thread.y, f.thread.z, f.cta.x,
                 f.cta.y, f.cta.z, why);
    else
        snprintf(f.message, sizeof f.message,
                 "%s in %s by thread (%u,%u,%u) in block (%u,%u,%u): %s", what, where,
                 f.thread.x, f.thread.y, f.thread.z, f.cta.x, f.cta.y, f.cta.z, why);
    emu_grid_record_fault(c->g, c->cta->linear, &f);
    c->w->state = EMU_WS_FAULT;
    c->stop = EMU_STOP_FAULT;
}
