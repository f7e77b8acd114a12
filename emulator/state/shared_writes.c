/* shared_writes.c: whether a kernel can write shared memory at all.
 *
 * A CTA built in the storage of a finished CTA of the same grid (emu_cta_create_in) must start
 * with zero shared memory, as a fresh one (calloc) does. When no instruction of the kernel can
 * write shared memory, the storage still holds the zeros it was allocated with: every CTA of a
 * grid runs the same kernel, so neither the last occupant nor another CTA of its cluster
 * (st.shared::cluster) wrote any. Such a CTA skips the zeroing (1 KB or more per CTA on sm_80
 * and later, where the system's reserved region comes first).
 *
 * "Cannot write" is decided conservatively: the kernel calls no function, and each of its
 * instructions is one that writes no memory (arithmetic, moves, conversions, loads, branches)
 * or a store to global, local or param space. Anything else (a generic or shared store, atomics,
 * asynchronous and bulk copies, mbarriers, matrix stores, ...) counts as a possible write. */
#include "emulator/emu_internal.h"

void emu_func_plan_shared_writes(emu_func *f)
{
    const ptx_function *fn = f->fn;
    f->no_shared_writes = false;
    if (f->calls) return;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        if (emu_instr_lanewise(in)) continue;
        if (in->op == PTX_OP_ST && (in->space == PTX_SPACE_GLOBAL ||
                                    in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM))
            continue;
        return;
    }
    f->no_shared_writes = true;
}
