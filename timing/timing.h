/* timing.h: the timing layer's public interface.
 *
 * This layer decides who runs when: the engine places a grid's CTAs on SMs, SMs on host
 * threads, and interleaves the warps of an SM. It will also hold the cycle model and the
 * determinism / transactional-memory / restart mechanisms (one folder each), which plug in as
 * memory policies of the emulator.
 */
#ifndef PTXSIM_TIMING_TIMING_H
#define PTXSIM_TIMING_TIMING_H

#include "emulator/emu.h"

#include <stdint.h>

typedef struct timing_engine_config {
    uint32_t sm_count;        /* SMs of the modelled GPU */
    uint32_t host_threads;    /* host threads that run SMs (1 = serial) */
    uint64_t seed;            /* 0: the fixed order; otherwise perturbs warp order and runs */
    uint64_t warp_budget;     /* warp instructions a warp runs before the scheduler switches */
} timing_engine_config;

/* Fills in the defaults (environment-independent). */
void timing_engine_defaults(timing_engine_config *cfg);

/* Runs every CTA of the grid to completion, or until the first fault. Returns true when the
 * grid completed; false with the fault in emu_grid_fault(g). */
bool timing_run_grid(emu_grid *g, const timing_engine_config *cfg);

#endif
