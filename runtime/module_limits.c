/* module_limits.c: a module's declared sizes against the device's limits, checked when it is
 * loaded, with the message ptxas (or the driver) would give and the error the program would
 * see. Without these checks a hostile or careless module made ptxsim allocate whatever it
 * declared.
 *
 * What ptxas refuses at JIT time (the driver then fails the load with CUDA_ERROR_INVALID_PTX,
 * cudaErrorInvalidPtx to the program):
 *   - constant data of the module beyond 64 KiB ("File uses too much global constant data");
 *   - static shared memory of a kernel beyond 48 KiB ("uses too much shared data"); more needs
 *     dynamic shared memory and cudaFuncAttributeMaxDynamicSharedMemorySize;
 *   - local memory of a function beyond 512 KiB per thread ("uses too much local data"),
 *     counting the registers beyond the 255 a thread has, which ptxas spills to local memory;
 *   - a kernel parameter block beyond 4 KiB, or 32,764 bytes for PTX ISA 8.1 and sm_70 or
 *     later ("uses too much parameter space").
 * What the driver refuses when it loads (cudaErrorMemoryAllocation): __device__ and
 * __constant__ variables that do not fit in the device memory left.
 * What a launch refuses (cudaErrorMemoryAllocation, as the driver's local-memory resize fails):
 * local memory per thread times the threads the whole GPU holds at once beyond its memory.
 */
#include "runtime/rt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CONST_BANK_BYTES   UINT64_C(0x10000)
#define STATIC_SMEM_BYTES  UINT64_C(0xc000)
#define LOCAL_BYTES        ((uint64_t)RT_LOCAL_PER_THREAD)
#define PHYSICAL_REGS      255u

static cudaError_t refuse(cudaError_t e, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cudaError_t refuse(cudaError_t e, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return e;
}

/* Registers beyond the 255 32-bit ones a thread has, in bytes: what ptxas would spill (a
 * deliberately simple count: every register of the function live at once). */
static uint64_t spilled_register_bytes(const ptx_function *f)
{
    uint64_t words = 0;
    for (uint32_t i = 0; i < f->nregs; i++) {
        const ptx_reg *r = &f->regs[i];
        /* a predicate counts as a word: beyond the few predicate registers a thread has,
         * ptxas keeps them in general registers */
        unsigned bits = r->type == PTX_TYPE_PRED ? 32 : ptx_type_bits((ptx_type)r->type);
        words += (uint64_t)((bits + 31) / 32) * (r->vec ? r->vec : 1);
    }
    return words > PHYSICAL_REGS ? (words - PHYSICAL_REGS) * 4 : 0;
}

uint64_t rt_function_local_bytes(const ptx_function *f)
{
    return f->local_size + spilled_register_bytes(f);
}

static uint64_t param_limit(const ptx_module *m)
{
    bool large = m->version_major * 10 + m->version_minor >= 81 && (m->sm == 0 || m->sm >= 70);
    return large ? 32764 : 4096;
}

cudaError_t rt_check_module_memory(const ptx_module *m, char *err, size_t errlen)
{
    uint64_t need = 0, used = 0, total = 0;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->kind != PTX_SYM_VAR || s->owner != -1 || s->linkage == PTX_LINK_EXTERN)
            continue;
        if (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST)
            need += (s->size + 255) & ~UINT64_C(255);
    }
    emu_device_mem_info(&used, &total);
    if (need > total - used)
        return refuse(cudaErrorMemoryAllocation, err, errlen,
                      "out of memory: its __device__ and __constant__ variables take %llu bytes, "
                      "%llu of the device's %llu bytes are free",
                      (unsigned long long)need, (unsigned long long)(total - used),
                      (unsigned long long)total);
    return cudaSuccess;
}

cudaError_t rt_check_module_limits(const ptx_module *m, const emu_module *em, char *err,
                                   size_t errlen)
{
    uint64_t cdata = 0;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->kind == PTX_SYM_VAR && s->owner == -1 && s->space == PTX_SPACE_CONST &&
            s->linkage != PTX_LINK_EXTERN)
            cdata = ((cdata + (s->align ? s->align : 1) - 1) / (s->align ? s->align : 1)) *
                        (s->align ? s->align : 1) + s->size;
    }
    if (cdata > CONST_BANK_BYTES)
        return refuse(cudaErrorInvalidPtx, err, errlen,
                      "ptxas error   : File uses too much global constant data (0x%llx bytes, "
                      "0x%llx max)", (unsigned long long)cdata,
                      (unsigned long long)CONST_BANK_BYTES);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        if (f->is_decl)
            continue;
        const char *what = f->is_entry ? "Entry function" : "Function";
        uint64_t local = rt_function_local_bytes(f);
        if (local > LOCAL_BYTES)
            return refuse(cudaErrorInvalidPtx, err, errlen,
                          "ptxas error   : %s '%s' uses too much local data (0x%llx bytes, "
                          "0x%llx max)", what, f->name, (unsigned long long)local,
                          (unsigned long long)LOCAL_BYTES);
        if (!f->is_entry)
            continue;
        uint64_t plimit = param_limit(m);
        if (f->param_size > plimit)
            return refuse(cudaErrorInvalidPtx, err, errlen,
                          "ptxas error   : Entry function '%s' uses too much parameter space "
                          "(0x%x bytes, 0x%llx max)", f->name, f->param_size,
                          (unsigned long long)plimit);
        emu_kernel_resources r;
        if (em && emu_module_kernel_resources(em, f, &r) && r.static_smem > STATIC_SMEM_BYTES)
            return refuse(cudaErrorInvalidPtx, err, errlen,
                          "ptxas error   : Entry function '%s' uses too much shared data (0x%llx "
                          "bytes, 0x%llx max)", f->name, (unsigned long long)r.static_smem,
                          (unsigned long long)STATIC_SMEM_BYTES);
    }
    return cudaSuccess;
}
