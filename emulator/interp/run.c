/* run.c: the interpreter's executors: running a warp over its µops until it must stop.
 *
 * Two executors obey the contract written in emu.h. The block executor (the default) runs a
 * basic block at a time: inside a block the active mask can change only through the guard, so
 * the SIMT stack is settled only where a block starts, after a µop that may change control flow,
 * and when the warp stops. The step executor settles before every µop, as a reference for
 * compare mode (--engine=compare) and for engines that step warps one instruction at a time. */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Pops finished SIMT entries and frames. Returns false when the warp has no lane left. */
static bool settle(emu_ctx *c)
{
    emu_warp *w = c->w;
    for (;;) {
        if (w->sp == 0) return false;
        emu_frame *fr = &w->frames[w->nframes - 1];
        emu_simt *top = &w->stack[w->sp - 1];
        const ptx_function *fn = fr->f->fn;
        if (top->bar || (top->mask != 0 && top->pc != top->rpc && top->pc < fn->ninstrs))
            break;
        if (top->mask != 0 && top->pc >= fn->ninstrs && top->pc != top->rpc) {
            /* fell off the end of the function: an implicit ret */
            uint32_t lanes = top->mask;
            c->fr = fr;
            c->f = fr->f;
            c->fn = fn;
            c->code = &fr->f->code;
            c->regs = w->regs + fr->reg_base;
            if (w->nframes == 1) emu_lanes_exit(c, lanes);
            else emu_lanes_return(c, lanes);
            continue;
        }
        w->sp--;
        if (w->nframes > 1 && w->sp == fr->stack_base) emu_frame_return(c);
    }
    return true;
}

/* settle(c) where it has nothing to pop (a warp's run starts at its top entry nearly always),
 * inline: the executor's loop calls it at every block and every run of a warp. The function's
 * length from its code (code.n, decode.c: fn->ninstrs), one load nearer the warp's frame:
 * at a barrier-bound kernel's every warp run this chain of loads was where the run waited. */
static inline __attribute__((always_inline)) bool settle_quick(emu_ctx *c)
{
    const emu_warp *w = c->w;
    if (__builtin_expect(w->sp != 0, 1)) {
        const emu_simt *top = &w->stack[w->sp - 1];
        const emu_func *f = w->frames[w->nframes - 1].f;
        assert(f->code.n == f->fn->ninstrs);
        if (top->bar || (top->mask != 0 && top->pc != top->rpc && top->pc < f->code.n))
            return true;
    }
    return settle(c);
}

/* Hands the warp's recorded events to the sink. */
static void flush_events(emu_warp *w, emu_event_sink *sink)
{
    if (w->nev) sink->consume(sink, w, w->ring, w->nev);
    w->nev = 0;
}

/* The event for the next instruction of w (flushing a full ring first); NULL when no memory for
 * the ring can be had (events are then lost, the run is not). */
static inline emu_event *next_event(emu_warp *w, emu_event_sink *sink)
{
    if (__builtin_expect(!w->ring, 0)) {
        w->ring = aligned_alloc(_Alignof(emu_event), EMU_RING_EVENTS_BYTES + EMU_RING_ROWS_BYTES);
        if (!w->ring) return NULL;
        w->ring_rows = (uint64_t *)(w->ring + EMU_EVENT_RING);
    }
    if (w->nev == EMU_EVENT_RING) flush_events(w, sink);
    emu_event *ev = &w->ring[w->nev];
    ev->lane_addr = w->ring_rows + (size_t)w->nev++ * EMU_WARP_SIZE;
    return ev;
}

/* event_heads where f has none yet: makes them (by whichever host thread first asks, as
 * uop_rows below); NULL when no memory can be had (each event's head is then built). */
static __attribute__((noinline, cold)) const emu_event_head *make_event_heads(const emu_func *cf)
{
    _Static_assert(sizeof(emu_event_head) == offsetof(emu_event, mem_lanes) &&
                       offsetof(emu_event_head, func) == offsetof(emu_event, func) &&
                       offsetof(emu_event_head, active) == offsetof(emu_event, active) &&
                       offsetof(emu_event_head, mask) == offsetof(emu_event, mask) &&
                       offsetof(emu_event_head, op) == offsetof(emu_event, op) &&
                       offsetof(emu_event_head, cls) == offsetof(emu_event, cls) &&
                       offsetof(emu_event_head, stop) == offsetof(emu_event, stop) &&
                       offsetof(emu_event_head, flags) == offsetof(emu_event, flags) &&
                       offsetof(emu_event_head, space) == offsetof(emu_event, space) &&
                       offsetof(emu_event_head, size) == offsetof(emu_event, size),
                   "an event head is laid out as the event's first fields");
    emu_func *f = (emu_func *)cf;
    emu_event_head *t = calloc(f->code.n ? f->code.n : 1, sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < f->code.n; i++) {
        const emu_uop *u = &f->code.uops[i];
        t[i].pc = i;
        t[i].func = f->index;
        t[i].op = u->op;
        t[i].cls = u->cls;
        t[i].stop = EMU_EVENT_RAN;
        t[i].space = u->in->space;
    }
    emu_event_head *had = NULL;
    if (!atomic_compare_exchange_strong_explicit(&f->event_heads, &had, t, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(t);
        t = had;
    }
    return t;
}

/* f's µops' event heads (emu_event_head), made at the first ask; NULL when no memory can be
 * had. Inline: compiled code's event variant asks at every event (emu_jit_event_begin). */
static inline __attribute__((always_inline)) const emu_event_head *event_heads(const emu_func *f)
{
    const emu_event_head *t = atomic_load_explicit(&((emu_func *)f)->event_heads,
                                                   memory_order_acquire);
    return __builtin_expect(t != NULL, 1) ? t : make_event_heads(f);
}

/* The header of the event of µop u at pc (lanes mask) of c's warp: what the interpreter's loop
 * and compiled code's event variant both record, the handler then adding its fields. From the
 * µop's head in heads (c->f's event_heads; u is its µop pc), or field by field where there are
 * none. */
static inline __attribute__((always_inline)) void event_header(emu_event *ev, const emu_ctx *c,
                                                               const emu_uop *u, uint32_t pc,
                                                               uint32_t mask,
                                                               const emu_event_head *heads)
{
    if (__builtin_expect(heads != NULL, 1)) {
        memcpy(ev, &heads[pc], sizeof *heads);
    } else {
        ev->pc = pc;
        ev->func = c->f->index;
        ev->op = u->op;
        ev->cls = u->cls;
        ev->stop = EMU_EVENT_RAN;
        ev->flags = 0;
        ev->space = u->in->space;
        ev->size = 0;
    }
    ev->active = c->active;
    ev->mask = mask;
    ev->mem_lanes = 0;
    ev->taken = 0;
    ev->reconv = 0;
}

/* Room in w's ring for the events of compiled code's next call (emulator/jit/ writes them
 * inline, one per instruction it runs, and never hands a full ring to the sink): a full ring
 * goes to the sink first, as next_event would hand it over at the next event; 0 when no memory
 * for the ring can be had (the interpreter's loop then runs the block). */
static inline uint32_t ring_room(emu_warp *w, emu_event_sink *sink)
{
    if (__builtin_expect(!w->ring, 0)) {
        w->ring = aligned_alloc(_Alignof(emu_event), EMU_RING_EVENTS_BYTES + EMU_RING_ROWS_BYTES);
        if (!w->ring) return 0;
        w->ring_rows = (uint64_t *)(w->ring + EMU_EVENT_RING);
    }
    if (w->nev == EMU_EVENT_RING) flush_events(w, sink);
    return EMU_EVENT_RING - w->nev;
}

int32_t emu_jit_resume(emu_ctx *c, const emu_uop *uops, uint32_t nframes)
{
    emu_warp *w = c->w;
    if (!settle(c) || w->nframes != nframes) return -1;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    const emu_simt *top = &w->stack[w->sp - 1];
    if (top->bar || fr->f->code.uops != uops) return -1;
    c->fr = (emu_frame *)fr;
    c->f = fr->f;
    c->fn = fr->f->fn;
    c->code = &fr->f->code;
    c->regs = w->regs + fr->reg_base;
    c->active = top->mask;
    assert(top->pc < c->code->n && c->active != 0);
    return (int32_t)top->pc;
}

/* c for a run of w: every field zero but the warp's, the launch's and stop (-1). Field by
 * field, not memset: GCC makes the memset of a context a `rep stos`, whose start-up cost a
 * barrier-bound kernel pays at every warp's run (a few warp instructions each: a scan's warp
 * runs ~7 between bar.syncs). A field added to emu_ctx is set here too (the size check). */
static inline __attribute__((always_inline)) void ctx_start(emu_ctx *c, emu_warp *w)
{
    _Static_assert(sizeof(emu_ctx) == 120, "ctx_start sets every field (LP64 layout)");
    c->w = w;
    c->cta = w->cta;
    c->g = w->cta->g;
    c->fr = NULL;
    c->f = NULL;
    c->fn = NULL;
    c->code = NULL;
    c->u = NULL;
    c->mod = c->g->launch.module;
    c->regs = NULL;
    c->active = c->mask = 0;
    c->pc = c->next_pc = 0;
    c->control = c->direct_mem = c->param_fast = c->observed_mem = c->direct_events = false;
    c->ev = NULL;
    c->stop = -1;
    c->ran_before = c->ahead_stop = false;
}

/* Warp instructions interpreted in a function, told to the JIT's count (emu_jit_warm: compiled
 * once hot), for a cycle model's run-ahead (`batch`) a batch at a time per host thread: its
 * warps run a few instructions a run, and an atomic add at every run's end (a locked
 * instruction, which also waits for the run's event writes to drain) was 1.7% of a timed
 * matmul 256. A thread tells up to HEAT_BATCH - 1 instructions late, and drops them where it
 * goes on to another function (the count only decides when to compile; a function's count is
 * only written while it is the one running, so a module unloaded meanwhile is never written).
 * Other runs tell theirs at once (a low --jit-threshold compiles after the first run). */
#define HEAT_BATCH 4096
static _Thread_local const emu_func *heat_f;
static _Thread_local uint64_t heat_n;

static void warm(const emu_func *f, uint64_t n, int variant, bool batch)
{
    if (!batch) {
        emu_jit_warm(f, n, variant);
        return;
    }
    if (f != heat_f) {
        heat_f = f;
        heat_n = 0;
    }
    heat_n += n;
    if (heat_n >= HEAT_BATCH) {
        emu_jit_warm(f, heat_n, variant);
        heat_n = 0;
    }
}

/* A cycle model's run-ahead asks the host's caches for the register rows of the µops it runs,
 * ROW_AHEAD µops before each (past the block's end too: where a run goes on after a barrier
 * or a branch, its next block is most often the one that follows). The model keeps every CTA
 * that occupancy allows resident (matmul 256: 2,048 warps of 31 KiB of rows each) and runs
 * each warp a few instructions at a time, so a run finds its warp's rows out of the cache, and
 * each handler waited for its own rows in turn: those loads and stores were most of a timed
 * run's emulator time (perf). Asked ahead, the misses overlap (v100 matmul 256 --timing: the
 * emulator's share of the samples 41% -> 31%, CPU time 0.38 -> 0.31 s). Compiled code gets
 * twice as many µops asked for as it starts. Hints only: nothing is read. always_inline: GCC
 * drops the calls of a static function that only prefetches (it has no effect to it). */
#define ROW_AHEAD 4

/* The rows µop u reads or writes through its first four operands and its guard. */
static void uop_rows_of(const emu_uop *u, emu_uop_rows *r)
{
    uint32_t narrow[5], nn = 0;
    r->n = 0;
    if (u->guard_row != EMU_NO_GUARD) narrow[nn++] = u->guard_row;
    unsigned n = u->nopd < 4 ? u->nopd : 4;
    for (unsigned i = 0; i < n; i++) {
        const emu_opd *o = &u->opd[i];
        if (o->kind == EMU_OPD_PRED)
            narrow[nn++] = o->row;
        else if (o->kind == EMU_OPD_REG ||
                 (o->kind == EMU_OPD_ADDR && (o->flags & EMU_OPD_F_BASE_REG)))
            r->row[r->n++] = o->row;
    }
    r->wide = r->n;
    for (uint32_t i = 0; i < nn; i++) r->row[r->n++] = narrow[i];
    r->fresh_wide = r->wide;
    r->fresh_narrow = (uint8_t)(r->n - r->wide);
}

/* Whether row (wide: its four lines, else its first) is among those r asks for. */
static bool rows_ask(const emu_uop_rows *r, uint32_t row, bool wide)
{
    for (unsigned i = 0; i < (wide ? r->wide : r->n); i++)
        if (r->row[i] == row) return true;
    return false;
}

/* Orders r's rows fresh first in each part (fresh_wide, fresh_narrow), given the rows of the
 * (up to three) µops before it, before[0] the nearest. */
static void uop_rows_fresh(emu_uop_rows *r, const emu_uop_rows *const before[], unsigned nbefore)
{
    uint32_t fresh[5], stale[5];
    unsigned from = 0;
    for (int part = 0; part < 2; part++) {
        const bool wide = part == 0;
        const unsigned to = wide ? r->wide : r->n;
        unsigned nf = 0, ns = 0;
        for (unsigned i = from; i < to; i++) {
            bool asked = false;
            for (unsigned b = 0; b < nbefore && !asked; b++)
                asked = rows_ask(before[b], r->row[i], wide);
            if (asked) stale[ns++] = r->row[i];
            else fresh[nf++] = r->row[i];
        }
        for (unsigned i = 0; i < nf; i++) r->row[from + i] = fresh[i];
        for (unsigned i = 0; i < ns; i++) r->row[from + nf + i] = stale[i];
        if (wide) r->fresh_wide = (uint8_t)nf;
        else r->fresh_narrow = (uint8_t)nf;
        from = to;
    }
}

/* f's µops' rows (emu_uop_rows), made once (by whichever host thread first asks); NULL
 * when no memory can be had (nothing is then asked for). The walk over each µop's operands
 * was ~60 instructions a µop, at every µop a run-ahead runs. */
static const emu_uop_rows *uop_rows(const emu_func *cf)
{
    emu_func *f = (emu_func *)cf;
    emu_uop_rows *t = atomic_load_explicit(&f->uop_rows, memory_order_acquire);
    if (__builtin_expect(t != NULL, 1)) return t;
    t = malloc((f->code.n ? f->code.n : 1) * sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < f->code.n; i++) uop_rows_of(&f->code.uops[i], &t[i]);
    /* from the last, so that each µop's rows before are still in full */
    for (uint32_t i = f->code.n; i-- > 1;) {
        const emu_uop_rows *before[ROW_AHEAD - 1];
        unsigned nb = 0;
        for (uint32_t b = 1; b < ROW_AHEAD && b <= i; b++) before[nb++] = &t[i - b];
        uop_rows_fresh(&t[i], before, nb);
    }
    emu_uop_rows *had = NULL;
    if (!atomic_compare_exchange_strong_explicit(&f->uop_rows, &had, t, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(t);
        t = had;
    }
    return t;
}

_Static_assert(EMU_ENTRY_LOOK == 2 * ROW_AHEAD, "compiled code's entry asks for twice the loop's rows");

/* The list of entry_rows_ahead for µop pc into out (EMU_ENTRY_LOOK * 5 rows at most): the whole
 * rows first (*wide of them), each once; returns the list's length. */
static uint32_t entry_list(const emu_uop_rows *rows, uint32_t n, uint32_t pc, uint32_t *out,
                           uint8_t *wide)
{
    uint32_t k = 0;
    for (int part = 0; part < 2; part++) {
        for (uint32_t q = pc; q < pc + EMU_ENTRY_LOOK && q < n; q++) {
            const emu_uop_rows *r = &rows[q];
            for (unsigned i = part ? r->wide : 0; i < (part ? r->n : r->wide); i++) {
                /* a narrow row is had where any row of the list, whole or not, is it */
                bool had = false;
                for (uint32_t j = 0; j < k && !had; j++) had = out[j] == r->row[i];
                if (!had) out[k++] = r->row[i];
            }
        }
        if (!part) *wide = (uint8_t)k;
    }
    return k;
}

/* Whether the first of µops [pc, pc + EMU_ENTRY_LOOK) that names row reads it (or may: all but
 * an unguarded µop's one register or predicate result read). A row the first µop naming it only
 * writes is read first by none of them: a run stores to it, and stores do not wait for their
 * lines. */
static bool entry_row_read(const emu_code *code, uint32_t pc, uint32_t row)
{
    for (uint32_t q = pc; q < pc + EMU_ENTRY_LOOK && q < code->n; q++) {
        const emu_uop *u = &code->uops[q];
        bool named = u->guard_row == row, read = named;
        unsigned n = u->nopd < 4 ? u->nopd : 4;
        for (unsigned i = 0; i < n; i++) {
            const emu_opd *o = &u->opd[i];
            if (o->row != row || (o->kind != EMU_OPD_REG && o->kind != EMU_OPD_PRED &&
                                  !(o->kind == EMU_OPD_ADDR && (o->flags & EMU_OPD_F_BASE_REG))))
                continue;
            named = true;
            bool result = i == 0 && u->nwrites == 1 && o->kind != EMU_OPD_ADDR &&
                          u->guard_row == EMU_NO_GUARD && !(u->flags & EMU_UOP_CONTROL);
            read |= !result;
        }
        if (named) return read;
    }
    return true;
}

/* Orders list[lo, hi) read first (entry_row_read), returning how many are. */
static uint8_t entry_order_read(const emu_code *code, uint32_t pc, uint32_t *list, uint32_t lo,
                                uint32_t hi)
{
    uint32_t written[EMU_ENTRY_LOOK * 5], nw = 0, k = lo;
    for (uint32_t i = lo; i < hi; i++) {
        if (entry_row_read(code, pc, list[i])) list[k++] = list[i];
        else written[nw++] = list[i];
    }
    memcpy(list + k, written, nw * sizeof *written);
    return (uint8_t)(k - lo);
}

/* f's entry rows (emu_entry_rows), made once from its µops' rows (uop_rows) by whichever
 * host thread first asks; NULL when no memory can be had. Compiled code's run-ahead asked for
 * the rows of the eight µops from its entry one µop at a time, a row named by several of them
 * each time (vecadd's run-ahead: 14 whole rows, 9 of them distinct): the loop and the repeats
 * were half of the executor's own instructions in a run. */
static __attribute__((noinline, cold)) const emu_entry_rows *make_entry_rows(const emu_func *cf)
{
    emu_func *f = (emu_func *)cf;
    emu_entry_rows *t;
    const emu_uop_rows *rows = uop_rows(cf);
    if (!rows) return NULL;
    const uint32_t n = f->code.n;
    uint32_t list[EMU_ENTRY_LOOK * 5];
    uint8_t wide;
    size_t total = 0;
    for (uint32_t pc = 0; pc < n; pc++) total += entry_list(rows, n, pc, list, &wide);
    t = malloc(sizeof *t + ((size_t)n + 1 + total) * sizeof(uint32_t) + 3 * ((size_t)n + 1));
    if (!t) return NULL;
    uint32_t *at = (uint32_t *)(t + 1), *row = at + n + 1, k = 0;
    uint8_t *wides = (uint8_t *)(row + total), *read_wide = wides + n + 1,
            *read_narrow = read_wide + n + 1;
    for (uint32_t pc = 0; pc < n; pc++) {
        at[pc] = k;
        uint32_t len = entry_list(rows, n, pc, row + k, &wides[pc]);
        read_wide[pc] = entry_order_read(&f->code, pc, row + k, 0, wides[pc]);
        read_narrow[pc] = entry_order_read(&f->code, pc, row + k, wides[pc], len);
        k += len;
    }
    assert(k == total);
    at[n] = k;
    t->at = at;
    t->row = row;
    t->wide = wides;
    t->read_wide = read_wide;
    t->read_narrow = read_narrow;
    emu_entry_rows *had = NULL;
    if (!atomic_compare_exchange_strong_explicit(&f->entry_rows_ahead, &had, t,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        free(t);
        t = had;
    }
    return t;
}

/* Inline: compiled code's run-ahead asks at every run. */
static inline __attribute__((always_inline)) const emu_entry_rows *entry_rows_ahead(const emu_func *f)
{
    const emu_entry_rows *t = atomic_load_explicit(&((emu_func *)f)->entry_rows_ahead,
                                                   memory_order_acquire);
    return __builtin_expect(t != NULL, 1) ? t : make_entry_rows(f);
}

const emu_entry_rows *emu_entry_rows_of(const emu_func *f)
{
    return entry_rows_ahead(f);
}

/* Asks for the rows r names. */
static inline __attribute__((always_inline)) void prefetch_rows(const uint64_t *regs,
                                                                 const emu_uop_rows *r)
{
    _Static_assert(EMU_WARP_SIZE * sizeof *regs == 4 * 64, "a row is four lines");
    unsigned i = 0;
    for (; i < r->wide; i++) {
        const char *a = (const char *)(regs + r->row[i]);
        __builtin_prefetch(a);
        __builtin_prefetch(a + 64);
        __builtin_prefetch(a + 128);
        __builtin_prefetch(a + 192);
    }
    for (; i < r->n; i++) __builtin_prefetch(regs + r->row[i]);
}

/* prefetch_rows of r's fresh rows only: where the three µops before it were asked for just
 * before (the loop's steady state, ROW_AHEAD µops ahead of the one it runs), the rest are asked
 * for already (a timed matmul's µop has ~2.2 whole rows, ~1 of them fresh). */
static inline __attribute__((always_inline)) void prefetch_fresh(const uint64_t *regs,
                                                                  const emu_uop_rows *r)
{
    for (unsigned i = 0; i < r->fresh_wide; i++) {
        const char *a = (const char *)(regs + r->row[i]);
        __builtin_prefetch(a);
        __builtin_prefetch(a + 64);
        __builtin_prefetch(a + 128);
        __builtin_prefetch(a + 192);
    }
    for (unsigned i = r->wide; i < r->wide + r->fresh_narrow; i++)
        __builtin_prefetch(regs + r->row[i]);
}

/* Asks for the rows of compiled code's entry at µop pc (emu_entry_rows). */
static inline __attribute__((always_inline)) void prefetch_entry(const uint64_t *regs,
                                                                  const emu_entry_rows *er,
                                                                  uint32_t pc)
{
    const uint32_t *r = er->row + er->at[pc], *end = er->row + er->at[pc + 1];
    for (const uint32_t *wend = r + er->wide[pc]; r < wend; r++) {
        const char *a = (const char *)(regs + *r);
        __builtin_prefetch(a);
        __builtin_prefetch(a + 64);
        __builtin_prefetch(a + 128);
        __builtin_prefetch(a + 192);
    }
    for (; r < end; r++) __builtin_prefetch(regs + *r);
}

/* Where the block executor takes compiled code (emulator/jit/) for a block: never, for every
 * function the JIT can compile (compiling it first), or once a function is hot (auto). */
enum { TIER_NONE, TIER_JIT, TIER_AUTO };

/* One executor loop, specialised by the compiler for the step/block, events/no-events and tier
 * cases (the flags are constants at every call), so running without a sink costs nothing per
 * instruction. Compiled code replaces the inner loop only: it starts where that loop starts
 * (a settled stack) and leaves the warp as that loop would, so the two mix at any block; with
 * events it is the function's event variant, which records the same events and ends a
 * run-ahead where this loop does (c.ran_before, c.ahead_stop). */
static inline __attribute__((always_inline)) emu_stop run(emu_warp *w, uint64_t budget,
                                                          bool step, bool events, int tier)
{
    if (w->state == EMU_WS_EXITED) return EMU_STOP_EXIT;
    if (w->state == EMU_WS_FAULT) return EMU_STOP_FAULT;
    if (w->state == EMU_WS_BARRIER) return EMU_STOP_BARRIER;
    emu_ctx c;
    ctx_start(&c, w);
    emu_event_sink *sink = events ? c.g->launch.events : NULL;
    unsigned wants = c.g->launch.policy->wants;
    const bool direct_policy = c.g->launch.policy == emu_direct_policy();
    c.direct_mem = (direct_policy || (wants & (EMU_POLICY_PASSTHROUGH | EMU_POLICY_OBSERVER))) &&
                   !events;
    c.observed_mem = c.direct_mem && (wants & EMU_POLICY_OBSERVER);
    c.direct_events = direct_policy && events;
    c.param_fast = !events || c.direct_events;
    emu_stop result = EMU_STOP_BUDGET;
    uint64_t n = 0;
    /* auto: instructions run interpreted in function hot_f, told to the JIT when the function
     * changes and when the run ends (not per block: the count is shared between threads) */
    const emu_func *hot_f = NULL;
    uint64_t hot_n = 0;
    /* compiled code asked for the next block (EMU_JIT_INTERPRET), up to interpret_to */
    bool interpret_block = false;
    uint32_t interpret_to = 0;
    /* rows asked for (ROW_AHEAD): the µops of rows_code before rows_to */
    const emu_code *rows_code = NULL;
    uint32_t rows_to = 0;
    /* the µop flags a cycle model's run-ahead ends before (the rule in the loop below); the
     * warp's ahead flags hold through the run (emu_warp_run_ahead/_local set them around it) */
    const unsigned ahead_stops =
        events && w->ahead ? EMU_UOP_TIMED | (w->ahead_local ? EMU_UOP_SHARED_STATE : 0) : 0;
    while (n < budget) {
        if (!settle_quick(&c)) {
            result = EMU_STOP_EXIT;
            break;
        }
        emu_simt *top = &w->stack[w->sp - 1];
        if (__builtin_expect(top->bar != 0, 0)) {
            /* these lanes wait at a barrier: another path of the warp runs, if one can */
            if (!emu_simt_schedule(w)) {
                w->state = EMU_WS_BARRIER;
                result = EMU_STOP_BARRIER;
                break;
            }
            continue;
        }
        emu_frame *fr = &w->frames[w->nframes - 1];
        c.fr = fr;
        c.f = fr->f;
        c.fn = fr->f->fn;
        c.code = &fr->f->code;
        c.regs = w->regs + fr->reg_base;
        c.active = top->mask;
        uint32_t pc = top->pc;
        assert(pc < c.code->n && c.active != 0);
        /* compiled code stops before a region boundary (iGPU): its block runs here */
        if (tier != TIER_NONE && !interpret_block &&
            !(c.code->uops[pc].flags & EMU_UOP_REGION_BOUNDARY)) {
            const int variant = events ? EMU_JIT_EVENTS : EMU_JIT_PLAIN;
            /* the code once compiled, without a call (every warp's run at a barrier-bound
             * kernel's bar.sync comes back here); --engine=jit compiles it when it is not */
            emu_jit_entry code = atomic_load_explicit(&c.f->jit_entry[variant],
                                                      memory_order_acquire);
            if (tier == TIER_JIT && !code) code = emu_jit_compiled_now(c.f, variant);
            /* the event variant's budget: the events its ring has room for, at most */
            uint64_t left = budget - n;
            if (code && events) {
                uint32_t room = ring_room(w, sink);
                if (!room) code = NULL;
                else if (left > room) left = room;
            }
            if (code) {
                if (events) {
                    c.ran_before = n > 0;
                    c.ahead_stop = false;
                    const emu_entry_rows *er = w->ahead ? entry_rows_ahead(c.f) : NULL;
                    if (er) prefetch_entry(c.regs, er, pc);
                }
                n += code(&c, pc, left);
                assert(n <= budget);   /* compiled code stops at the budget, as this loop does */
                if (c.stop == EMU_JIT_INTERPRET) {
                    /* the budget left is short of the compiled stretch or segment at the
                     * top's pc, or the code has no entry there (inside a stretch, or not a
                     * barrier-bound function's run entry): the block runs here, to
                     * c.next_pc at most */
                    c.stop = -1;
                    interpret_block = true;
                    interpret_to = c.next_pc;
                    continue;
                }
                if (events && c.ahead_stop) {
                    /* the top's pc is the instruction the run-ahead may not issue */
                    result = EMU_STOP_BUDGET;
                    goto done;
                }
                if (c.stop == EMU_STOP_FAULT) {
                    result = EMU_STOP_FAULT;
                    goto done;
                }
                if (c.stop >= 0) {
                    result = (emu_stop)c.stop;
                    /* a warp whose path waits at a barrier (the usual stop) has nothing to
                     * settle: settle() would stop at that top entry */
                    bool waits = w->sp && w->stack[w->sp - 1].bar;
                    if (!waits && !settle(&c)) result = EMU_STOP_EXIT;
                    goto done;
                }
                continue;
            }
        }
        const uint64_t n_block = n;
        const emu_uop *u = &c.code->uops[pc];
        /* the µops this run may execute without looking at the stack again: the rest of the
         * block (or one), within the budget */
        uint32_t end = step ? pc + 1 : u->block_end;
        if (interpret_block && interpret_to > pc && interpret_to < end) end = interpret_to;
        if (end - pc > budget - n) end = pc + (uint32_t)(budget - n);
        const emu_uop_rows *rows = events && w->ahead ? uop_rows(c.f) : NULL;
        const bool rows_ahead = events && rows;
        const emu_event_head *heads = events ? event_heads(c.f) : NULL;
        const uint32_t ncode = c.code->n;
        if (rows_ahead) {
            /* the µops the last block's loop asked for already, where it fell into this one */
            uint32_t k = rows_code == c.code && rows_to > pc && rows_to <= pc + ROW_AHEAD
                             ? rows_to : pc;
            for (; k < pc + ROW_AHEAD && k < ncode; k++) prefetch_rows(c.regs, &rows[k]);
            rows_to = k;
            rows_code = c.code;
        }
        for (;;) {
            if (events && __builtin_expect(u->flags & ahead_stops, 0) &&
                (n > 0 || (u->flags & ahead_stops & EMU_UOP_SHARED_STATE))) {
                /* a cycle model's run-ahead ends before an instruction whose result depends
                 * on when it runs (timed, after the run's first; one of the SM's shared state
                 * in a local run-ahead): the model issues it at its own cycle */
                w->stack[w->sp - 1].pc = pc;
                result = EMU_STOP_BUDGET;
                goto done;
            }
            uint32_t mask = c.active;
            if (u->guard_row != EMU_NO_GUARD)
                mask &= (uint32_t)c.regs[u->guard_row] ^ u->guard_xor;
            c.mask = mask;
            c.pc = pc;
            c.next_pc = pc + 1;
            c.control = false;
            c.u = u;
            /* handlers that look at or rewrite the stack see their own pc on top */
            if (u->flags & (EMU_UOP_CONTROL | EMU_UOP_MAY_STOP | EMU_UOP_REGION_BOUNDARY))
                w->stack[w->sp - 1].pc = pc;
            if (__builtin_expect(u->flags & EMU_UOP_REGION_BOUNDARY, 0)) {
                /* an idempotent region starts: the policy keeps where these lanes restart */
                emu_mem_policy *pol = c.g->launch.policy;
                if (pol->event) pol->event(pol, w, EMU_PEV_REGION_BOUNDARY, c.active & ~w->exited);
            }
            if (rows_ahead && pc + ROW_AHEAD < ncode) {
                /* the µops from pc + 1 on were asked for in this run (the run asks for a
                 * contiguous stretch, from at most the block's first µop on, as it goes) */
                assert(rows_to == pc + ROW_AHEAD);
                prefetch_fresh(c.regs, &rows[pc + ROW_AHEAD]);
                rows_to = pc + ROW_AHEAD + 1;
            }
            emu_event *ev = NULL;
            if (events && (ev = next_event(w, sink))) {
                event_header(ev, &c, u, pc, mask, heads);
                c.ev = ev;
            }
            if (mask) u->exec(&c, u);
            w->ninstr++;
            n++;
            if (__builtin_expect(c.stop >= 0, 0)) {
                if (events && ev) ev->stop = (uint8_t)c.stop;
                if (c.stop == EMU_STOP_FAULT) {
                    result = EMU_STOP_FAULT;
                    goto done;
                }
                if (c.control) break;
                w->stack[w->sp - 1].pc = c.next_pc;
                break;
            }
            if (c.control) break;   /* the handler rewrote the stack, pcs included */
            const uint32_t next = c.next_pc;
            if ((u->flags & EMU_UOP_CONTROL) || next != pc + 1 || next >= end) {
                w->stack[w->sp - 1].pc = next;
                break;
            }
            pc = next;
            u++;
        }
        interpret_block = false;
        if (tier == TIER_AUTO) {
            if (c.f != hot_f) {
                if (hot_f)
                    warm(hot_f, hot_n, events ? EMU_JIT_EVENTS : EMU_JIT_PLAIN, events && w->ahead);
                hot_f = c.f;
                hot_n = 0;
            }
            hot_n += n - n_block;
        }
        if (c.stop >= 0) {
            result = (emu_stop)c.stop;
            if (!settle(&c) && result != EMU_STOP_FAULT) result = EMU_STOP_EXIT;
            goto done;
        }
    }
    if (result == EMU_STOP_BUDGET && !settle(&c)) result = EMU_STOP_EXIT;
done:
    if (tier == TIER_AUTO && hot_f)
        warm(hot_f, hot_n, events ? EMU_JIT_EVENTS : EMU_JIT_PLAIN, events && w->ahead);
    if (tier == TIER_AUTO && result == EMU_STOP_EXIT &&
        atomic_load_explicit(&((emu_func *)c.g->kf)->jit_status[events ? EMU_JIT_EVENTS
                                                                        : EMU_JIT_PLAIN],
                             memory_order_relaxed) == EMU_JIT_NONE) {
        /* the launch's other warps will likely run as many instructions as this one: a
         * launch that will pass the threshold compiles its kernel now, not most of the way
         * through (a 16M-element scan is one launch of 16384 CTAs); once its kernel's compile
         * is asked for, nothing (emu_jit_foresee's own test, here without the call at every
         * warp's exit) */
        uint64_t launch;
        if (__builtin_mul_overflow(w->ninstr, c.g->ncta * w->cta->nwarps, &launch))
            launch = UINT64_MAX;
        emu_jit_foresee(c.g->kf, launch, events ? EMU_JIT_EVENTS : EMU_JIT_PLAIN);
    }
    if (result == EMU_STOP_EXIT) w->state = EMU_WS_EXITED;
    if (events) flush_events(w, sink);
    emu_mem_policy *p = c.g->launch.policy;
    if (p && p->warp_stopped) p->warp_stopped(p, w, (int)result);
    return result;
}

emu_stop emu_warp_run_ahead(emu_warp *w, uint64_t budget)
{
    w->ahead = true;
    emu_stop r = emu_warp_run(w, budget);
    w->ahead = false;
    return r;
}

emu_stop emu_warp_run_local(emu_warp *w, uint64_t budget)
{
    w->ahead = w->ahead_local = true;
    emu_stop r = emu_warp_run(w, budget);
    w->ahead = w->ahead_local = false;
    return r;
}

emu_stop emu_warp_run(emu_warp *w, uint64_t budget)
{
    const emu_launch *L = &w->cta->g->launch;
    /* with a sink, compiled code is the functions' event variant */
    switch (L->executor) {
    case EMU_EXECUTOR_STEP:
        return L->events ? run(w, budget, true, true, TIER_NONE)
                         : run(w, budget, true, false, TIER_NONE);
    case EMU_EXECUTOR_JIT:
        return L->events ? run(w, budget, false, true, TIER_JIT)
                         : run(w, budget, false, false, TIER_JIT);
    case EMU_EXECUTOR_AUTO:
        return L->events ? run(w, budget, false, true, TIER_AUTO)
                         : run(w, budget, false, false, TIER_AUTO);
    default:
        break;
    }
    return L->events ? run(w, budget, false, true, TIER_NONE)
                     : run(w, budget, false, false, TIER_NONE);
}

/* emu_cta_run_turn's loop, run() inlined for the executor tier (no events), or, tier < 0,
 * through emu_warp_run. */
static inline __attribute__((always_inline)) emu_stop turn(emu_cta *c, emu_cta_turn *t,
                                                           const int *stop, int tier)
{
    const uint32_t nw = c->nwarps;
    /* the turn's state in locals (the runs' calls would make t's fields memory), written back
     * at the end */
    uint32_t live = t->live, ready = t->ready, next = t->next;
    uint64_t left = t->left, barriers = t->barriers;
    const uint64_t slice = t->slice;
    assert(nw <= 32 && ready);
    emu_stop r;
    for (;;) {
        uint64_t budget = slice < left ? slice : left;
        uint32_t from = ready & (UINT32_MAX << next);
        uint32_t wi = (uint32_t)__builtin_ctz(from ? from : ready);
        emu_warp *w = &c->warps[wi];
        assert(w->state == EMU_WS_READY);
        next = wi + 1 < nw ? wi + 1 : 0;
        uint64_t before = w->ninstr;
        r = tier < 0 ? emu_warp_run(w, budget) : run(w, budget, false, false, tier);
        uint64_t ran = w->ninstr - before;
        if (t->ran) t->ran(t->arg, ran);
        if (r == EMU_STOP_FAULT) break;
        uint32_t bit = 1u << wi;
        live = w->state == EMU_WS_EXITED ? live & ~bit : live | bit;
        ready = w->state == EMU_WS_READY ? ready | bit : ready & ~bit;
        if (c->bar_completed != barriers) {
            /* the run completed a barrier: warps that waited at it can run again */
            barriers = c->bar_completed;
            uint32_t which = live & ~ready & ~bit, l, rd;
            emu_cta_warp_bits(c, which, &l, &rd);
            live = (live & ~which) | l;
            ready = (ready & ~which) | rd;
        }
        if (r == EMU_STOP_EXIT && !live) break;
        if ((r != EMU_STOP_BARRIER && r != EMU_STOP_EXIT) || ran == 0 || ran >= budget || !ready ||
            __atomic_load_n(stop, __ATOMIC_RELAXED))
            break;
        left -= ran;
        if (t->draw) next = t->draw(t->arg);
    }
    t->live = live;
    t->ready = ready;
    t->next = next;
    t->left = left;
    t->barriers = barriers;
    return r;
}

emu_stop emu_cta_run_turn(emu_cta *c, emu_cta_turn *t, const int *stop)
{
    const emu_launch *L = &c->g->launch;
    if (!L->events && L->executor == EMU_EXECUTOR_JIT) return turn(c, t, stop, TIER_JIT);
    if (!L->events && L->executor == EMU_EXECUTOR_AUTO) return turn(c, t, stop, TIER_AUTO);
    if (!L->events && L->executor == EMU_EXECUTOR_INTERP) return turn(c, t, stop, TIER_NONE);
    return turn(c, t, stop, -1);
}
