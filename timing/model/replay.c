/* replay.c: the cycle model under --det=gpudet.
 *
 * GPUDet decides the program's results: its quanta, store buffers and serial mode run the grid
 * functionally exactly as without --timing, on any number of host threads. While they do, the
 * model's event sink records each warp's instructions (class, registers, masks, lane addresses)
 * in the warp's own record, so the records are the same on every run: GPUDet makes every load's
 * value, hence every branch and address, the same whatever the threads and the seed. The model
 * then issues each warp's recorded instructions on the SMs as it issues executed ones
 * (trace-driven), one host thread, in (cycle, SM, scheduler, warp) order, so cycles and
 * statistics are as deterministic as the record. What the model times are the instructions as
 * executed; what GPUDet's own modes cost (quantum barriers, commits, serial mode) is not timed
 * here. %clock reads in the kernel read GPUDet's deterministic counts, not model cycles. */
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap * 2 : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

/* Whether e, the last instruction of a run, did not complete and runs again: GPUDet defers an
 * atomic in parallel mode to serial mode (EMU_STOP_MEMORDER, the warp still at it), a policy
 * restarts lanes, an mbarrier wait yields. Only the run that completes it is recorded. */
static bool not_done(const emu_warp *w, const emu_event *e)
{
    if (e->stop != EMU_STOP_MEMORDER && e->stop != EMU_STOP_RESTART && e->stop != EMU_STOP_BUDGET)
        return false;
    emu_next_instr at;
    return emu_warp_peek(w, &at) && at.func == e->func && at.pc == e->pc;
}

void tm_trace_record(tm_trace *t, emu_warp *w, const emu_event *ev, uint32_t n)
{
    uint64_t cta = emu_warp_cta_linear(w);
    uint32_t id = emu_warp_id(w);
    if (cta >= t->nctas || id >= t->warps_per_cta) return;
    /* only this warp's host thread writes its record */
    tm_trace_warp *tw = &t->warps[cta * t->warps_per_cta + id];
    if (tw->oom) return;
    if (!grow((void **)&tw->recs, &tw->cap, tw->n + n, sizeof *tw->recs)) {
        tw->oom = true;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        tm_rec *r = &tw->recs[tw->n];
        if (i == n - 1 && not_done(w, e)) continue;
        if (!emu_warp_instr(w, e->func, e->pc, &r->in)) continue;
        r->mask = e->mask;
        r->mem_lanes = e->mem_lanes;
        r->size = e->size;
        r->op = e->op;
        r->cls = e->cls;
        r->flags = e->flags;
        r->space = e->space;
        r->addr = tw->naddrs;
        if (e->flags & EMU_EV_MEM) {
            uint32_t k = (uint32_t)__builtin_popcount(e->mem_lanes);
            if (!grow((void **)&tw->addrs, &tw->acap, tw->naddrs + k, sizeof *tw->addrs)) {
                tw->oom = true;
                return;
            }
            for (uint32_t m = e->mem_lanes; m; m &= m - 1)
                tw->addrs[tw->naddrs++] = e->addr[__builtin_ctz(m)];
        }
        tw->n++;
    }
}

void tm_trace_event(const tm_trace_warp *tw, const tm_rec *r, emu_event *e)
{
    e->pc = r->in.pc;
    e->func = r->in.func;
    e->active = r->mask;
    e->mask = r->mask;
    e->op = r->op;
    e->cls = r->cls;
    e->stop = EMU_EVENT_RAN;
    e->flags = r->flags;
    e->space = r->space;
    e->size = r->size;
    e->mem_lanes = r->mem_lanes;
    e->taken = 0;
    e->reconv = 0;
    if (r->flags & EMU_EV_MEM) {
        uint64_t a = r->addr;
        for (uint32_t m = r->mem_lanes; m; m &= m - 1) e->addr[__builtin_ctz(m)] = tw->addrs[a++];
    }
}

static void trace_free(tm_trace *t)
{
    if (t->warps)
        for (uint64_t i = 0; i < t->nctas * t->warps_per_cta; i++) {
            free(t->warps[i].recs);
            free(t->warps[i].addrs);
        }
    free(t->warps);
}

bool timing_run_cycles_gpudet(emu_grid *g, const timing_engine_config *cfg)
{
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    tm_trace t = {
        .nctas = emu_grid_cta_count(g),
        .warps_per_cta = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE),
    };
    uint64_t nwarps = t.nctas * t.warps_per_cta;
    t.warps = calloc(nwarps ? nwarps : 1, sizeof *t.warps);
    if (!t.warps) {
        emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the cycle model's record of the grid");
        return false;
    }
    tm_sink_record_into(&t);
    bool ok = timing_run_gpudet(g, cfg);
    tm_sink_record_into(NULL);
    for (uint64_t i = 0; ok && i < t.nctas * t.warps_per_cta; i++)
        if (t.warps[i].oom) {
            emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for the cycle model's record of the grid");
            ok = false;
        }
    if (ok) ok = tm_run(g, cfg, &t);
    trace_free(&t);
    return ok;
}
