/* engine_kernels.h: shared by the engine unit suites (test_engine_parallel.c,
 * test_gpudet_engine.c): loads the kernels of tests/ptx/engine/engine_sm75.ptx (source:
 * tests/ptx/engine/src/engine.cu) and runs one of them through timing_run_grid. Every failure
 * is a Check assertion, so callers only state what they expect. */
#ifndef PTXSIM_TESTS_ENGINE_KERNELS_H
#define PTXSIM_TESTS_ENGINE_KERNELS_H

#include "emulator/emu.h"
#include "timing/timing.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses and loads the engine kernels (run from the repository root). */
void ek_load(void);
void ek_unload(void);
/* The loaded modules, for tests that build a launch of their own. */
const ptx_module *ek_ptx(void);
const emu_module *ek_module(void);
/* Runs kernel on a 1D grid with 64-bit argument values (each truncated to its .param size);
 * true when the grid completed, else false with the fault (which fault must then be given). */
bool ek_run(const char *kernel, uint32_t grid, uint32_t block, const uint64_t *args,
            const timing_engine_config *cfg, emu_fault *fault);
void *ek_dalloc(size_t bytes);
static inline uint64_t ek_addr(const void *p) { return (uint64_t)(uintptr_t)p; }

#endif
