/* ptx_kernels.h: what the unit suites that run PTX kernels share: parse and load a module
 * (from text or a file), pack 64-bit argument values at the kernel's .param offsets, launch a
 * grid and run it through timing_run_grid, allocate device memory, and the Check main.
 *
 * Every failure that is not the point of a test (unreadable file, parse or load error, missing
 * kernel, refused launch, unexpected fault) is a Check assertion naming the module or kernel,
 * so callers only state what they expect. Launch settings that differ between suites (SM
 * count, memory policy, engine configuration, ...) are fields of pk_launch, not fixed here. */
#ifndef PTXSIM_TESTS_PTX_KERNELS_H
#define PTXSIM_TESTS_PTX_KERNELS_H

#include "emulator/emu.h"
#include "timing/timing.h"

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest parameter block pk_pack_args fills. */
enum { PK_PARAMS_MAX = 256 };

typedef struct pk_module {
    ptx_module *ptx;
    emu_module *emu;
} pk_module;

/* The whole file, NUL-terminated (malloc'd; *len excludes the NUL), or NULL when it cannot be
 * read. Paths are relative to the working directory (the repository root). */
char *pk_read_file(const char *path, size_t *len);
/* Calls each(path, text, len, arg) for every .ptx file in the n directories dirs (relative to
 * the repository root), in directory order, each file's whole text NUL-terminated (freed after
 * the call); the number of files. */
int pk_each_ptx_file(const char *const *dirs, size_t n,
                     void (*each)(const char *path, const char *text, size_t len, void *arg),
                     void *arg);
/* ptx_parse of a NUL-terminated text that must parse; name is the file name diagnostics
 * report. The caller frees the module. */
ptx_module *pk_parse(const char *text, const char *name);
/* Parse + emu_module_load; name is the file name diagnostics report. */
pk_module pk_load_text(const char *text, size_t len, const char *name);
/* The same for a file, read relative to the working directory (the repository root). */
pk_module pk_load_file(const char *path);
/* Frees both modules and clears m (a cleared module is ignored). */
void pk_unload(pk_module *m);

const ptx_function *pk_kernel(const pk_module *m, const char *name);
/* Packs vals (one per .param, each truncated to its size) into block at the PTX offsets;
 * returns the kernel's parameter block size. */
size_t pk_pack_args(const pk_module *m, const ptx_function *k, const uint64_t *vals,
                    uint8_t block[PK_PARAMS_MAX]);

/* Everything of a launch but the kernel and its arguments. Zero fields keep the emulator's
 * defaults; cfg NULL runs with timing_engine_defaults. */
typedef struct pk_launch {
    emu_dim3 grid, block;
    uint32_t dynamic_smem;
    emu_mem_policy *policy;
    uint32_t sm_count;
    uint32_t max_warps_per_sm;
    uint32_t reserved_smem;
    uint64_t grid_id;
    const timing_engine_config *cfg;
    emu_event_sink *events;   /* NULL: none (the cycle model needs timing_model_sink()) */
} pk_launch;

/* Runs kernel with a parameter block laid out as its .params. True when the grid completed;
 * otherwise the fault is copied to *fault, or the test fails with it when fault is NULL. */
bool pk_run_params(const pk_module *m, const char *kernel, const pk_launch *l,
                   const void *params, size_t params_size, emu_fault *fault);
/* pk_run_params with the parameters packed from 64-bit values by pk_pack_args. */
bool pk_run(const pk_module *m, const char *kernel, const pk_launch *l, const uint64_t *args,
            emu_fault *fault);

/* cfg set to run on the cycle model of *gpu with sm_count SMs, its statistics into *ts (zeroed). */
void pk_cycle_config(timing_engine_config *cfg, const timing_gpu *gpu, uint32_t sm_count,
                     timing_stats *ts);

/* Device memory (EMU_ALLOC_DEVICE); fails the test when exhausted. */
void *pk_dalloc(size_t bytes);
static inline uint64_t pk_addr(const void *p) { return (uint64_t)(uintptr_t)p; }
static inline emu_dim3 pk_dim3(uint32_t x, uint32_t y, uint32_t z) { return (emu_dim3){ x, y, z }; }

/* Every suite file's main: runs s and returns the exit status. */
int pk_main(Suite *s);

#endif
