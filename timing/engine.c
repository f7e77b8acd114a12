/* engine.c: the serial engine. CTAs run one after another in linear order (x fastest); the
 * warps of a CTA take turns, each for a quantum of warp instructions, in warp order. The order
 * is fixed, so a run is deterministic. */
#include "timing/timing.h"

void timing_engine_defaults(timing_engine_config *cfg)
{
    cfg->sm_count = 80;
    cfg->host_threads = 1;
    cfg->seed = 0;
    cfg->warp_budget = 1000;
}

bool timing_run_grid(emu_grid *g, const timing_engine_config *cfg)
{
    uint64_t budget = cfg && cfg->warp_budget ? cfg->warp_budget : 1000;
    uint32_t sms = cfg && cfg->sm_count ? cfg->sm_count : 1;
    uint64_t n = emu_grid_cta_count(g);
    for (uint64_t id = 0; id < n; id++) {
        emu_cta *c = emu_cta_create(g, id, (uint32_t)(id % sms));
        if (!c) return false;
        uint32_t nw = emu_cta_warp_count(c);
        bool ok = true;
        while (!emu_cta_done(c)) {
            bool progress = false;
            for (uint32_t i = 0; i < nw; i++) {
                emu_warp *w = emu_cta_warp(c, i);
                if (!emu_warp_runnable(w)) continue;
                progress = true;
                if (emu_warp_run(w, budget) == EMU_STOP_FAULT) {
                    ok = false;
                    break;
                }
            }
            if (!ok) break;
            if (!progress) {
                emu_cta_report_deadlock(c);
                ok = false;
                break;
            }
        }
        emu_cta_destroy(c);
        if (!ok || emu_grid_fault(g)) return false;
    }
    return true;
}
