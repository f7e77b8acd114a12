/* checkpoint.c: warp checkpoints for the mechanisms that re-execute code (iGPU's idempotent
 * regions, KILO TM's aborted transactions): a copy of the registers of every frame and of the
 * local memory of some lanes, with where those lanes were, and its restoration for any subset
 * of them while the warp's other lanes stay where they are.
 *
 * The register file is copied whole (it is small: rows of 32 lanes per register) and restored
 * per lane: a value row column by column, a predicate row (its lanes are bits of word 0) bit by
 * bit. Local memory is copied for the checkpointed lanes only. */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct emu_warp_checkpoint {
    uint32_t lanes;
    uint32_t nframes;
    uint32_t pc;               /* the top entry's pc: where restored lanes resume */
    uint32_t entry;            /* the top entry's index in the SIMT stack */
    uint32_t cc;
    uint64_t ninstr;
    size_t nregs;              /* words of the register file copied */
    uint64_t *regs;
    uint64_t local_per_thread;
    uint8_t *local;            /* 32 lanes' worth, only checkpointed lanes filled */
};

emu_warp_checkpoint *emu_warp_checkpoint_take(const emu_warp *w, uint32_t lanes)
{
    emu_warp_checkpoint *ck = calloc(1, sizeof *ck);
    if (!ck) return NULL;
    ck->lanes = lanes & ~w->exited;
    ck->nframes = w->nframes;
    ck->pc = w->sp ? w->stack[w->sp - 1].pc : 0;
    ck->entry = w->sp ? w->sp - 1 : 0;
    ck->cc = w->cc;
    ck->ninstr = w->ninstr;
    ck->nregs = w->regs_used;
    ck->regs = malloc((ck->nregs ? ck->nregs : 1) * sizeof *ck->regs);
    if (!ck->regs) goto fail;
    memcpy(ck->regs, w->regs, ck->nregs * sizeof *ck->regs);
    ck->local_per_thread = w->local ? w->local_per_thread : 0;
    if (ck->local_per_thread) {
        ck->local = malloc((size_t)EMU_WARP_SIZE * ck->local_per_thread);
        if (!ck->local) goto fail;
        for (uint32_t mk = ck->lanes; mk; mk &= mk - 1) {
            size_t off = (size_t)__builtin_ctz(mk) * ck->local_per_thread;
            memcpy(ck->local + off, w->local + off, ck->local_per_thread);
        }
    }
    return ck;
fail:
    emu_warp_checkpoint_free(ck);
    return NULL;
}

/* Restores the lanes of the registers of frame fr (whose function defines which rows hold
 * predicates). */
static void restore_frame_regs(emu_warp *w, const emu_frame *fr, const uint64_t *saved,
                               uint32_t lanes)
{
    const ptx_function *fn = fr->f->fn;
    for (uint32_t r = 0; r < fn->nregs; r++) {
        const ptx_reg *reg = &fn->regs[r];
        uint32_t rows = reg->nslots > 1 ? reg->nslots : (reg->vec > 1 ? reg->vec : 1);
        for (uint32_t k = 0; k < rows; k++) {
            size_t at = fr->reg_base + (size_t)(reg->slot + k) * EMU_WARP_SIZE;
            if (at + EMU_WARP_SIZE > w->regs_used) continue;
            uint64_t *row = w->regs + at;
            const uint64_t *old = saved + at;
            if (reg->type == PTX_TYPE_PRED) {
                row[0] = (row[0] & ~(uint64_t)lanes) | (old[0] & lanes);
                continue;
            }
            for (uint32_t mk = lanes; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                row[l] = old[l];
            }
        }
    }
}

/* Puts back the registers, local memory and carry flags of lanes (of ck's, not exited). */
static uint32_t restore_lanes(emu_warp *w, const emu_warp_checkpoint *ck, uint32_t lanes)
{
    lanes &= ck->lanes & ~w->exited;
    if (!lanes) return 0;
    assert(ck->nframes == w->nframes && ck->nregs <= w->regs_used && w->sp > 0);
    for (uint32_t f = 0; f < w->nframes; f++) restore_frame_regs(w, &w->frames[f], ck->regs, lanes);
    if (ck->local && w->local)
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            size_t off = (size_t)__builtin_ctz(mk) * ck->local_per_thread;
            memcpy(w->local + off, ck->local + off, ck->local_per_thread);
        }
    w->cc = (w->cc & ~lanes) | (ck->cc & lanes);
    return lanes;
}

uint32_t emu_warp_checkpoint_entry(const emu_warp_checkpoint *ck) { return ck->entry; }

bool emu_warp_checkpoint_in_frame(const emu_warp *w, const emu_warp_checkpoint *ck)
{
    return ck->nframes == w->nframes;
}

uint32_t emu_warp_tx_retry(emu_warp *w, const emu_warp_checkpoint *ck, uint32_t lanes, uint32_t rpc)
{
    if (!(lanes = restore_lanes(w, ck, lanes))) return w->sp - 1;
    emu_simt_push(w, ck->pc, rpc, lanes);
    w->stack[w->sp - 1].kind = EMU_SIMT_TX;
    return w->sp - 1;
}

uint32_t emu_warp_tx_abort(emu_warp *w, const emu_warp_checkpoint *ck, uint32_t lanes,
                           uint32_t base)
{
    w->restart_lanes &= ~lanes;
    if (!(lanes = restore_lanes(w, ck, lanes))) return w->sp - 1;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    assert(base >= fr->stack_base && base < w->sp && ck->pc > 0);
    int64_t commit = ptx_tx_closing_commit(w->cta->g->launch.module->ptx, fr->f->fn, ck->pc - 1);
    if (commit < 0) {
        emu_warp_abort(w, EMU_FAULT_ILLEGAL_INSTRUCTION,
                       "a transaction without a closing tx_commit (ptxsim could not find it)");
        return w->sp - 1;
    }
    uint32_t rpc = (uint32_t)commit + 1;
    /* the lanes leave every path of their transaction ... */
    for (uint32_t i = base + 1; i < w->sp; i++) w->stack[i].mask &= ~lanes;
    /* ... and the transaction's entry splits as a divergent branch would: everyone meets
     * after the commit, the others go on where they were, the aborted lanes start again */
    emu_simt_push(w, 0, 0, 0);
    if (w->state == EMU_WS_FAULT) return w->sp - 1;
    memmove(&w->stack[base + 1], &w->stack[base], (w->sp - 1 - base) * sizeof *w->stack);
    emu_simt outer = w->stack[base];
    outer.pc = rpc;
    outer.bar = 0;
    w->stack[base] = outer;
    w->stack[base + 1].rpc = rpc;
    w->stack[base + 1].mask &= ~lanes;
    emu_simt_push(w, ck->pc, rpc, lanes);
    w->stack[w->sp - 1].kind = EMU_SIMT_TX;
    return w->sp - 1;
}

void emu_warp_checkpoint_free(emu_warp_checkpoint *ck)
{
    if (!ck) return;
    free(ck->regs);
    free(ck->local);
    free(ck);
}

bool emu_warp_checkpoint_can_rewind(const emu_warp *w, const emu_warp_checkpoint *ck)
{
    if (!w->sp || ck->nframes != w->nframes || ck->nregs > w->regs_used) return false;
    const emu_simt *top = &w->stack[w->sp - 1];
    uint32_t lanes = top->mask & ~w->exited;
    return lanes && (lanes & ck->lanes) == lanes && top->kind == EMU_SIMT_NORMAL &&
           ck->pc != top->rpc && top->bar == 0 &&
           w->stack[w->sp - 1].pc < w->frames[w->nframes - 1].f->fn->ninstrs;
}

void emu_warp_checkpoint_rewind(emu_warp *w, const emu_warp_checkpoint *ck)
{
    assert(emu_warp_checkpoint_can_rewind(w, ck));
    emu_simt *top = &w->stack[w->sp - 1];
    /* can_rewind holds: every lane of the path is in ck */
    uint32_t lanes = restore_lanes(w, ck, top->mask & ~w->exited);
    top->pc = ck->pc;
    w->restart_lanes &= ~lanes;
}
