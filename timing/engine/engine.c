/* engine.c: the engine's entry point: defaults, and the choice between the parallel baseline
 * (timing/engine_parallel.c), GPUDet (timing/gpudet/) and DAB (timing/dab/). */
#include "timing/engine/engine_internal.h"

void timing_engine_defaults(timing_engine_config *cfg)
{
    *cfg = (timing_engine_config){0};
    cfg->sm_count = 80;
    cfg->host_threads = 1;
    cfg->seed = 0;
    cfg->warp_budget = 0;   /* each engine's own: TIMING_DET_OFF_TURN, DAB's 100 */
    cfg->det = TIMING_DET_OFF;
    cfg->quantum = 200;
    cfg->bta = true;
    cfg->dwp = true;
    cfg->serial_order = TIMING_SERIAL_CU;
    cfg->dab_entries = 64;
    cfg->dab_fusion = true;
    cfg->dab_coalescing = true;
}

bool timing_run_grid(emu_grid *g, const timing_engine_config *cfg)
{
    timing_engine_config def;
    if (!cfg) {
        timing_engine_defaults(&def);
        cfg = &def;
    }
    /* KILO TM keeps per-warp transactions: a run of a grid starts with none */
    emu_mem_policy *tm = timing_kilotm_find(emu_grid_launch(g)->policy);
    if (tm) timing_kilotm_rewind(tm);
    if (cfg->cycle_model && cfg->gpu)
        return cfg->det == TIMING_DET_GPUDET ? timing_run_cycles_gpudet(g, cfg)
               : cfg->det == TIMING_DET_DAB  ? timing_run_cycles_dab(g, cfg)
                                             : timing_run_cycles(g, cfg);
    if (cfg->det == TIMING_DET_GPUDET) return timing_run_gpudet(g, cfg);
    if (cfg->det == TIMING_DET_DAB) return timing_run_dab(g, cfg);
    return timing_run_parallel(g, cfg);
}

uint64_t timing_cta_instructions(emu_cta *c)
{
    uint64_t n = 0;
    uint32_t nw = emu_cta_warp_count(c);
    for (uint32_t i = 0; i < nw; i++) n += emu_warp_instructions(emu_cta_warp(c, i));
    return n;
}
