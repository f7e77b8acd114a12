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

static bool writes_no_memory(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24:
    case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS:
    case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_POPC: case PTX_OP_CLZ:
    case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_TESTP: case PTX_OP_COPYSIGN: case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
    case PTX_OP_TANH:
    case PTX_OP_SET: case PTX_OP_SETP: case PTX_OP_SELP: case PTX_OP_SLCT:
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR:
    case PTX_OP_MOV: case PTX_OP_PRMT: case PTX_OP_CVT: case PTX_OP_CVTA:
    case PTX_OP_LD: case PTX_OP_LDU:
    case PTX_OP_BRA: case PTX_OP_EXIT: case PTX_OP_RET:
        return true;
    default:
        return false;
    }
}

void emu_func_plan_shared_writes(emu_func *f)
{
    const ptx_function *fn = f->fn;
    f->no_shared_writes = false;
    if (f->calls) return;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        if (writes_no_memory(in)) continue;
        if (in->op == PTX_OP_ST && (in->space == PTX_SPACE_GLOBAL ||
                                    in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM))
            continue;
        return;
    }
    f->no_shared_writes = true;
}
