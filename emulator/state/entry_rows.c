/* entry_rows.c: which register rows a reused warp must zero before it starts a kernel.
 *
 * A fresh warp's registers are zero (calloc), and a warp reused for the next CTA of its slot
 * must start exactly as a fresh one (emu_warp_reinit). Zeroing every row of the kernel's slots
 * (32 lanes x 8 bytes each) at every CTA start was a tenth of a memory-bound run. A row only
 * needs zeroing when some instruction can observe its value before the lane that owns it has
 * written it in this CTA. Such an observation is one of:
 *
 * 1. A lane reading its own row before writing it: on some path of the control-flow graph from
 *    the entry to the read, no instruction writes the register for that lane. That is the
 *    register being live at the kernel's entry (ptx_dataflow's liveness: a guarded definition
 *    does not kill, lanes whose guard is false keep the old value). A definition kills only
 *    if it writes the whole row entry of every lane that executes it: true of the instructions
 *    in lane_local() below (their handlers and the JIT write through emu_put / masked stores
 *    of the executing lanes, full width: a narrower value is zero- or sign-extended into the
 *    row). Every other instruction's registers are zeroed whatever liveness says (rule 2), so
 *    a definition by one of them that writes fewer lanes or bits than liveness assumes does
 *    not matter.
 * 2. A lane reading another lane's row, which may be inactive, exited, or beyond the last
 *    warp's threads and so never have written it: shfl's source (the ISA leaves the value
 *    undefined; ptxsim reads the row as it stands, deterministically), the matrix operations
 *    (fragments spread over the warp), and whatever else is not in lane_local(). All
 *    registers of every such instruction are zeroed, as are .b128 registers (two slots, the
 *    second written apart from emu_put's row).
 *
 * The executors do load whole rows (the JIT's vectors of 32 lanes), but a value in a lane that
 * does not execute reaches only lanes that do not execute: it is never stored for an executing
 * lane nor used to decide anything that is (guards and branch outcomes are and-ed with the
 * executing lanes). Nothing outside the executors shows register values: the trace records pcs,
 * masks, addresses and branch outcomes; --engine=compare compares memory, faults, counts and
 * statistics; checkpoints (iGPU, KILO TM) put values back into the same warp, so the lanes
 * restored go on along a control-flow path from the entry, which rule 1 covers. A callee's
 * registers are zeroed when it is called (emu_frame_call), so only the kernel's rows matter.
 *
 * So a reused warp zeroes the rows of rules 1 and 2 and leaves the others as the previous CTA
 * left them: no instruction of this CTA can see them. When the plan cannot be made (out of
 * memory) the warp zeroes every row, as before. */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Instructions that read only the executing lanes' own rows and write every executing lane's
 * destination in full (the common arithmetic, moves, conversions, loads and stores, branches).
 * Anything not listed here is treated as a cross-lane reader (rule 2). */
static bool lane_local(const ptx_instr *in)
{
    return emu_instr_lanewise(in) || in->op == PTX_OP_ST;
}

typedef struct plan_ctx {
    uint8_t *zero;            /* per register: its rows must be zeroed */
} plan_ctx;

static void mark_reg(void *p, int32_t reg, ptx_role role)
{
    (void)role;
    ((plan_ctx *)p)->zero[reg] = 1;
}

bool emu_func_plan_entry_rows(emu_func *f)
{
    const ptx_function *fn = f->fn;
    assert(fn && fn->is_entry);
    free(f->entry_rows);
    f->entry_rows = NULL;
    f->nentry_runs = 0;
    f->entry_rows_planned = false;
    if (fn->nblocks == 0 || fn->ninstrs == 0) return false;
    /* Liveness is iterative: up to a pass over every block's register sets per block in the
     * worst case (back edges in every direction). A kernel where that bound exceeds 2^26
     * words zeroes every row instead, so that loading stays linear in the kernel's size. */
    uint64_t words = (fn->nregs + 63) / 64 ? (fn->nregs + 63) / 64 : 1;
    if ((uint64_t)fn->nblocks * fn->nblocks * words > (UINT64_C(1) << 26)) return false;
    uint8_t *zero = calloc(fn->nregs ? fn->nregs : 1, 1);
    ptx_dataflow *df = zero ? ptx_dataflow_compute(fn) : NULL;
    if (!df) {
        free(zero);
        return false;
    }
    plan_ctx pc = { zero };
    for (uint32_t r = 0; r < fn->nregs; r++) {
        const ptx_reg *reg = &fn->regs[r];
        if (ptx_live_in(df, 0, (int32_t)r)) zero[r] = 1;                    /* rule 1 */
        if (reg->type == PTX_TYPE_B128) zero[r] = 1;                        /* rule 2 */
    }
    for (uint32_t i = 0; i < fn->ninstrs; i++)
        if (!lane_local(&fn->instrs[i])) ptx_instr_regs(fn, &fn->instrs[i], mark_reg, &pc);
    ptx_dataflow_free(df);
    /* the slots to zero, as runs of consecutive slots */
    uint8_t *slot = calloc(fn->nslots ? fn->nslots : 1, 1);
    if (!slot) {
        free(zero);
        return false;
    }
    for (uint32_t r = 0; r < fn->nregs; r++) {
        const ptx_reg *reg = &fn->regs[r];
        if (!zero[r]) continue;
        assert(reg->slot + reg->nslots <= fn->nslots);
        memset(slot + reg->slot, 1, reg->nslots);
    }
    free(zero);
    uint32_t nruns = 0;
    for (uint32_t s = 0; s < fn->nslots; s++)
        if (slot[s] && (s == 0 || !slot[s - 1])) nruns++;
    emu_row_run *runs = nruns ? malloc(nruns * sizeof *runs) : NULL;
    if (nruns && !runs) {
        free(slot);
        return false;
    }
    uint32_t k = 0;
    for (uint32_t s = 0; s < fn->nslots; s++) {
        if (!slot[s]) continue;
        if (s == 0 || !slot[s - 1]) runs[k++] = (emu_row_run){ s, 0 };
        runs[k - 1].count++;
    }
    assert(k == nruns);
    free(slot);
    f->entry_rows = runs;
    f->nentry_runs = nruns;
    f->entry_rows_planned = true;
    return true;
}
