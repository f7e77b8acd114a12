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

enum { LINE = 64, SPAN = 8 * LINE };

/* Whether the lanes of an access through address operand ao, the address row being row, are
 * a whole warp whose ends (lanes 0, 15, 16, 31) lie within a few lines of each other: then
 * *lo, *hi, the least and greatest of those ends, whose lines and those between are asked for
 * once each (vecadd's 32 contiguous words: 2 or 3 lines, not 32 prefetches; a lane elsewhere
 * only misses its hint). */
static bool lanes_span(const uint64_t *row, const emu_opd *ao, uint32_t lanes, uint64_t *lo,
                       uint64_t *hi)
{
    if (lanes != UINT32_MAX) return false;
    uint64_t keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    uint64_t e[4] = {(row[0] + ao->imm) & keep, (row[15] + ao->imm) & keep,
                     (row[16] + ao->imm) & keep, (row[31] + ao->imm) & keep};
    *lo = *hi = e[0];
    for (int i = 1; i < 4; i++) {
        *lo = e[i] < *lo ? e[i] : *lo;
        *hi = e[i] > *hi ? e[i] : *hi;
    }
    return *hi - *lo < SPAN;
}

/* The lines the lanes of an access through address operand ao read or write, the address
 * row being row (a prefetch does not fault, whatever the address). */
static void prefetch_lanes(const uint64_t *row, const emu_opd *ao, uint32_t lanes)
{
    uint64_t lo, hi;
    if (lanes_span(row, ao, lanes, &lo, &hi)) {
        for (uint64_t a = lo & ~(uint64_t)(LINE - 1); a <= hi; a += LINE)
            __builtin_prefetch((const void *)(uintptr_t)a);
        return;
    }
    uint64_t keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        __builtin_prefetch((const void *)(uintptr_t)((row[l] + ao->imm) & keep));
    }
}

/* Where w's next µop is a global access through a register: its frame, its SIMT top, the µop
 * and its address operand. */
typedef struct next_access {
    const emu_frame *fr;
    const emu_simt *top;
    const emu_code *code;
    const emu_uop *u;
    const emu_opd *ao;
} next_access;

static bool next_access_of(const emu_warp *w, next_access *a)
{
    if (w->state != EMU_WS_READY || w->sp == 0 || w->nframes == 0 || !w->regs) return false;
    a->fr = &w->frames[w->nframes - 1];
    a->top = &w->stack[w->sp - 1];
    a->code = &a->fr->f->code;
    if (a->top->pc >= a->code->n) return false;
    a->u = &a->code->uops[a->top->pc];
    a->ao = global_address(a->u);
    return a->ao && a->fr->reg_base + a->ao->row + EMU_WARP_SIZE <= w->regs_cap;
}

/* The accesses whose lines the lines hint asks for, each given to `each` (its address row,
 * address operand and lanes) until it returns false (then false): the next µop's, and those
 * after it in the run's first µops (its block) whose address row no µop before them there
 * writes (their value is in the row already): vecadd's second load waited for its lines (an
 * eighth of the compiled run-ahead's samples). A µop that writes what its first operand does
 * not name ends the look; a guess only wastes a hint. */
static inline __attribute__((always_inline)) bool
each_access(const emu_warp *w, const next_access *a,
            bool (*each)(void *ctx, const uint64_t *row, const emu_opd *ao, uint32_t lanes),
            void *ctx)
{
    const emu_frame *fr = a->fr;
    uint32_t lanes = a->top->mask & w->valid & ~w->exited;
    if (!each(ctx, w->regs + fr->reg_base + a->ao->row, a->ao, lanes)) return false;
    uint32_t written[2 * EMU_ENTRY_LOOK], nw = 0, pc = a->top->pc;
    uint32_t end = a->u->block_end < pc + EMU_ENTRY_LOOK ? a->u->block_end : pc + EMU_ENTRY_LOOK;
    for (uint32_t q = pc; q < end && q < a->code->n; q++) {
        const emu_uop *v = &a->code->uops[q];
        const emu_opd *va = q > pc ? global_address(v) : NULL;
        if (va && fr->reg_base + va->row + EMU_WARP_SIZE <= w->regs_cap) {
            bool stale = false;
            for (uint32_t k = 0; k < nw && !stale; k++) stale = written[k] == va->row;
            if (!stale && !each(ctx, w->regs + fr->reg_base + va->row, va, lanes)) return false;
        }
        if (v->nwrites == 0) continue;
        if (v->nwrites > 1 || v->opd[0].kind != EMU_OPD_REG || (v->flags & EMU_UOP_CONTROL)) break;
        written[nw++] = v->opd[0].row;
    }
    return true;
}

static bool prefetch_each(void *ctx, const uint64_t *row, const emu_opd *ao, uint32_t lanes)
{
    (void)ctx;
    prefetch_lanes(row, ao, lanes);
    return true;
}

/* emu_warp_access_lines' spans so far */
typedef struct line_spans {
    uint64_t *span;
    int n, max;
} line_spans;

static bool span_each(void *ctx, const uint64_t *row, const emu_opd *ao, uint32_t lanes)
{
    line_spans *l = ctx;
    uint64_t lo, hi;
    if (l->n == l->max || !lanes_span(row, ao, lanes, &lo, &hi)) return false;
    /* (fewer than SPAN / LINE + 1 lines after the first: the line's low bits hold it) */
    l->span[l->n++] = (lo & ~(uint64_t)(LINE - 1)) | (hi / LINE - lo / LINE);
    return true;
}

int emu_warp_access_lines(const emu_warp *w, uint64_t *span, int max)
{
    _Static_assert(SPAN / LINE < LINE, "a span's count of lines in its address's low bits");
    next_access a;
    if (!next_access_of(w, &a)) return 0;
    line_spans l = {span, 0, max};
    return each_access(w, &a, span_each, &l) ? l.n : -1;
}

void emu_warp_prefetch_access(const emu_warp *w, bool lines)
{
    next_access a;
    if (!next_access_of(w, &a)) return;
    if (lines) {
        each_access(w, &a, prefetch_each, NULL);
        return;
    }
    const emu_frame *fr = a.fr;
    const emu_simt *top = a.top;
    const emu_uop *u = a.u;
    const emu_opd *ao = a.ao;
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
}
