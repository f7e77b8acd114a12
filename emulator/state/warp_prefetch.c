/* warp_prefetch.c: hints to the host's caches of what a warp's next instruction accesses, for
 * a caller that runs warps one short run after the other in an order it knows ahead: the cycle
 * model's weave runs every SM's deferred warps on one host thread (its other threads wait), a
 * global access and what follows it each, warps whose state another host thread touched last
 * (their SM's bound phase) or long ago, so cache misses are most of a run's time. Each call
 * reads only what an earlier one brought in (emu_warp_prefetch's, then this one's without
 * `lines`). Hints only: nothing is written, no result depends on them. */
#include "emulator/emu_internal.h"

/* The address operand of u when it is a global or generic access through a register. */
static const emu_opd *global_address(const emu_uop *u)
{
    if (u->cls != EMU_CLS_LD_GLOBAL && u->cls != EMU_CLS_ST_GLOBAL &&
        u->cls != EMU_CLS_LD_GENERIC && u->cls != EMU_CLS_ST_GENERIC)
        return NULL;
    for (unsigned i = 0; i < u->nopd && i < 4; i++)
        if (u->opd[i].kind == EMU_OPD_ADDR && (u->opd[i].flags & EMU_OPD_F_BASE_REG))
            return &u->opd[i];
    return NULL;
}

/* The lines the lanes of an access through address operand ao read or write, the address
 * row being row (a prefetch does not fault, whatever the address). */
static void prefetch_lanes(const uint64_t *row, const emu_opd *ao, uint32_t lanes)
{
    uint64_t keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    if (lanes == UINT32_MAX) {
        /* a whole warp whose ends (lanes 0, 15, 16, 31) lie within a few lines of each other:
         * the lines between them, once each (vecadd's 32 contiguous words: 2 or 3 lines, not
         * 32 prefetches); a lane elsewhere only misses its hint */
        uint64_t e[4] = {(row[0] + ao->imm) & keep, (row[15] + ao->imm) & keep,
                         (row[16] + ao->imm) & keep, (row[31] + ao->imm) & keep};
        uint64_t lo = e[0], hi = e[0];
        for (int i = 1; i < 4; i++) {
            lo = e[i] < lo ? e[i] : lo;
            hi = e[i] > hi ? e[i] : hi;
        }
        enum { LINE = 64, SPAN = 8 * LINE };
        if (hi - lo < SPAN) {
            for (uint64_t a = lo & ~(uint64_t)(LINE - 1); a <= hi; a += LINE)
                __builtin_prefetch((const void *)(uintptr_t)a);
            return;
        }
    }
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        __builtin_prefetch((const void *)(uintptr_t)((row[l] + ao->imm) & keep));
    }
}

void emu_warp_prefetch_access(const emu_warp *w, bool lines)
{
    if (w->state != EMU_WS_READY || w->sp == 0 || w->nframes == 0 || !w->regs) return;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    const emu_simt *top = &w->stack[w->sp - 1];
    const emu_code *code = &fr->f->code;
    if (top->pc >= code->n) return;
    const emu_uop *u = &code->uops[top->pc];
    const emu_opd *ao = global_address(u);
    if (!ao || fr->reg_base + ao->row + EMU_WARP_SIZE > w->regs_cap) return;
    const uint64_t *row = w->regs + fr->reg_base + ao->row;
    if (!lines) {
        /* its registers: those the run's first µops read before any of them writes them
         * (interp/run.c emu_entry_rows' read_wide, read_narrow), so that they come in a run
         * ahead: vecadd's run-ahead reads the address rows its two loads, its add and its
         * store's address computation use, written long before (the CTA's first run), and
         * waited for each of them at its entry. The rows it only writes (vecadd's f1, f2, f3,
         * rd9, rd10: half the list) the run's own entry asks for: a store does not wait for
         * its line, and their hints here filled the fill buffers the read rows' hints
         * needed. Else the access's own: the address's and the value loaded or stored. */
        const emu_entry_rows *er = emu_entry_rows_of(fr->f);
        if (er) {
            const uint32_t *r = er->row + er->at[top->pc];
            const uint32_t *narrow = r + er->wide[top->pc], *end = narrow + er->read_narrow[top->pc];
            for (const uint32_t *wend = r + er->read_wide[top->pc]; r < wend; r++)
                if (fr->reg_base + *r + EMU_WARP_SIZE <= w->regs_cap)
                    for (size_t b = 0; b < EMU_WARP_SIZE * sizeof *w->regs; b += 64)
                        __builtin_prefetch((const char *)(w->regs + fr->reg_base + *r) + b);
            for (r = narrow; r < end; r++)
                if (fr->reg_base + *r + 1 <= w->regs_cap)
                    __builtin_prefetch(w->regs + fr->reg_base + *r);
        } else {
            for (unsigned k = 0; k < u->nopd && k < 4; k++) {
                const emu_opd *o = &u->opd[k];
                if ((o->kind != EMU_OPD_REG && o != ao) ||
                    fr->reg_base + o->row + EMU_WARP_SIZE > w->regs_cap)
                    continue;
                const uint64_t *r = w->regs + fr->reg_base + o->row;
                for (size_t b = 0; b < EMU_WARP_SIZE * sizeof *r; b += 64)
                    __builtin_prefetch((const char *)r + b);
            }
        }
        if (w->ring && w->nev < EMU_EVENT_RING)
            for (size_t o = 0; o < sizeof *w->ring; o += 64)
                __builtin_prefetch((const char *)&w->ring[w->nev] + o, 1);
        return;
    }
    uint32_t lanes = top->mask & w->valid & ~w->exited;
    prefetch_lanes(row, ao, lanes);
    /* and the lines of the accesses after it in the run's first µops (its block) whose
     * address row no µop before them there writes (their value is in the row already): vecadd's
     * second load waited for its lines (an eighth of the compiled run-ahead's samples). A µop
     * that writes what its first operand does not name ends the look; a guess only wastes a
     * hint. */
    uint32_t written[2 * EMU_ENTRY_LOOK], nw = 0;
    uint32_t end = u->block_end < top->pc + EMU_ENTRY_LOOK ? u->block_end : top->pc + EMU_ENTRY_LOOK;
    for (uint32_t q = top->pc; q < end && q < code->n; q++) {
        const emu_uop *v = &code->uops[q];
        const emu_opd *va = q > top->pc ? global_address(v) : NULL;
        if (va && fr->reg_base + va->row + EMU_WARP_SIZE <= w->regs_cap) {
            bool stale = false;
            for (uint32_t k = 0; k < nw && !stale; k++) stale = written[k] == va->row;
            if (!stale) prefetch_lanes(w->regs + fr->reg_base + va->row, va, lanes);
        }
        if (v->nwrites == 0) continue;
        if (v->nwrites > 1 || v->opd[0].kind != EMU_OPD_REG || (v->flags & EMU_UOP_CONTROL)) break;
        written[nw++] = v->opd[0].row;
    }
}
