/* warp_peek.c: what the cycle model asks of a warp before it lets it issue: its next
 * instruction (for the scoreboard and the functional units), and the simulated time its clocks
 * read. */
#include "emulator/emu_internal.h"

#include <stdlib.h>

bool emu_warp_peek(const emu_warp *w, emu_next_instr *out)
{
    if (w->state != EMU_WS_READY || w->sp == 0 || w->nframes == 0) return false;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    /* the path the executor runs: the top one, or the first below it (of this frame) that does
     * not wait at a barrier, as emu_simt_schedule picks under independent thread scheduling */
    uint32_t i = w->sp;
    while (i > fr->stack_base && w->stack[i - 1].bar) i--;
    if (i == fr->stack_base) i = w->sp;
    const emu_simt *top = &w->stack[i - 1];
    const emu_code *code = &fr->f->code;
    if (top->pc >= code->n) {
        /* the path is about to return or exit (the executor settles it first) */
        *out = (emu_next_instr){.func = fr->f->index, .pc = top->pc, .depth = w->nframes - 1,
                                .op = 0, .cls = EMU_CLS_CALL};
        return true;
    }
    const emu_uop *u = &code->uops[top->pc];
    *out = (emu_next_instr){
        .func = fr->f->index,
        .pc = top->pc,
        .depth = w->nframes - 1,
        .op = u->op,
        .cls = u->cls,
        .nreads = u->nreads,
        .nwrites = u->nwrites,
        .regs = code->rw + u->rw,
        .shared_state = (u->flags & EMU_UOP_SHARED_STATE) != 0,
    };
    return true;
}

bool emu_warp_instr(const emu_warp *w, uint32_t func, uint32_t pc, emu_next_instr *out)
{
    return emu_grid_instr(w->cta->g, func, pc, out);
}

/* µop pc of f as emu_grid_instr gives it. */
static emu_next_instr grid_instr_of(const emu_func *f, uint32_t pc)
{
    const emu_code *code = &f->code;
    const emu_uop *u = &code->uops[pc];
    return (emu_next_instr){
        .func = f->index,
        .pc = pc,
        .op = u->op,
        .cls = u->cls,
        .nreads = u->nreads,
        .nwrites = u->nwrites,
        .regs = code->rw + u->rw,
        .shared_state = (u->flags & EMU_UOP_SHARED_STATE) != 0,
    };
}

/* f's µops as emu_grid_instr gives them, made once (by whichever host thread first asks);
 * NULL when no memory can be had. A cycle model asks for every instruction it issues: a copy
 * from here is half the instructions of building the answer from the µop. */
static __attribute__((noinline, cold)) const emu_next_instr *make_next_instrs(emu_func *f)
{
    emu_next_instr *t = malloc(f->code.n * sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < f->code.n; i++) t[i] = grid_instr_of(f, i);
    emu_next_instr *had = NULL;
    if (!atomic_compare_exchange_strong_explicit(&f->next_instrs, &had, t, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(t);
        t = had;
    }
    return t;
}

/* emu_grid_instr of µop pc of f where f's table is not made yet. */
static __attribute__((noinline, cold)) bool grid_instr_first(const emu_func *f, uint32_t pc,
                                                             emu_next_instr *out)
{
    const emu_next_instr *t = make_next_instrs((emu_func *)f);
    *out = t ? t[pc] : grid_instr_of(f, pc);
    return true;
}

bool emu_grid_instr(const emu_grid *g, uint32_t func, uint32_t pc, emu_next_instr *out)
{
    const emu_module *mod = g->launch.module;
    if (func >= mod->nfuncs) return false;
    const emu_func *f = &mod->funcs[func];
    if (pc >= f->code.n) {
        *out = (emu_next_instr){.func = func, .pc = pc, .cls = EMU_CLS_CALL};
        return true;
    }
    const emu_next_instr *t = atomic_load_explicit(&f->next_instrs, memory_order_acquire);
    if (__builtin_expect(!t, 0)) return grid_instr_first(f, pc, out);
    *out = t[pc];
    return true;
}

void emu_warp_set_clock(emu_warp *w, uint64_t cycles, uint64_t ns)
{
    w->clock_set = true;
    w->clock_cycles = cycles;
    w->clock_ns = ns;
}

uint8_t emu_warp_region_mark(const emu_warp *w)
{
    emu_next_instr n;
    if (!emu_warp_peek(w, &n)) return 0;
    const emu_func *f = w->frames[w->nframes - 1].f;
    return f->region_marks && n.pc < f->code.n ? f->region_marks[n.pc] : 0;
}
