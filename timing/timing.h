/* timing.h: the timing layer's public interface.
 *
 * This layer decides who runs when: the engine places a grid's CTAs on SMs, SMs on host
 * threads, and interleaves the warps of an SM. It will also hold the cycle model and the
 * determinism / transactional-memory / restart mechanisms (one folder each), which plug in as
 * memory policies of the emulator.
 *
 * Two engines sit behind timing_run_grid:
 * - det = OFF: the parallel baseline. SMs are spread over host threads (sm % threads), each SM
 *   holds as many CTAs as its occupancy allows and interleaves their warps; global memory is
 *   shared for real, so racy programs race. A non-zero seed perturbs every scheduling choice.
 * - det = GPUDET: the GPUDet execution model (spec gpudet.md): quanta with parallel, commit and
 *   serial modes, per-warp store buffers, deterministic CTA distribution. Memory results, atomic
 *   return values, %smid and the statistics do not depend on the host threads or the seed.
 *   Device printf, malloc and free run in serial mode too, so their output order and addresses
 *   are fixed. %clock, %clock64 and %globaltimer count the warp's own executed instructions
 *   (4 and 2 per instruction; an atomic deferred to serial mode counts twice), so they are
 *   deterministic; they are not a time, and they do not order events of different warps.
 */
#ifndef PTXSIM_TIMING_TIMING_H
#define PTXSIM_TIMING_TIMING_H

#include "emulator/emu.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum timing_det_mode {
    TIMING_DET_OFF = 0,       /* no determinism: the parallel baseline */
    TIMING_DET_GPUDET         /* GPUDet quanta, store buffers, serial atomics */
} timing_det_mode;

/* Order of serial mode (spec S8): both are deterministic, they give different results. */
typedef enum timing_serial_order {
    TIMING_SERIAL_CU = 0,     /* CU-Ser: SMs ascending, each SM's atomics by warp slot */
    TIMING_SERIAL_WARP        /* W-Ser: ascending hardware warp ID across the whole GPU */
} timing_serial_order;

/* Why a warp's parallel mode ended in a quantum (the paper's Figure 3). */
typedef enum timing_quantum_end {
    TIMING_QEND_QUANTUM,      /* instruction budget used up */
    TIMING_QEND_ATOMIC,       /* stopped before a global atomic */
    TIMING_QEND_FENCE,        /* memory fence */
    TIMING_QEND_WGBARRIER,    /* CTA barrier that could not be released in the quantum */
    TIMING_QEND_COMPLETE,     /* the warp exited */
    TIMING_QEND_COUNT
} timing_quantum_end;

/* What one or more runs did. Every field is deterministic under GPUDet. */
typedef struct timing_stats {
    uint64_t grids;               /* runs added up here */
    uint64_t ctas;                /* CTAs run */
    uint64_t warp_instructions;   /* warp instructions executed */
    /* GPUDet only */
    uint64_t quanta;              /* quanta (each: parallel, commit, serial) */
    uint64_t quantum_end[TIMING_QEND_COUNT];   /* per warp and quantum */
    uint64_t sb_entries;          /* store-buffer entries (one per 128-byte chunk per store) */
    uint64_t sb_bytes;            /* bytes committed from store buffers */
    uint64_t sb_own_reads;        /* load lanes that read their warp's buffered bytes */
    uint64_t sb_max_entries;      /* most entries one warp buffered in one quantum */
    uint64_t serial_atomics;      /* warp atomic instructions run in serial mode */
    uint64_t serial_calls;        /* device printf/malloc/free run in serial mode */
    uint64_t bta_releases;        /* barriers released inside a quantum (BTA) */
    uint64_t dwp_launches;        /* CTAs launched mid-quantum from a DWP partition */
} timing_stats;

typedef struct timing_engine_config {
    uint32_t sm_count;        /* SMs of the modelled GPU */
    uint32_t host_threads;    /* host threads that run SMs (1 = serial) */
    uint64_t seed;            /* 0: the fixed order; otherwise perturbs warp order and runs */
    uint64_t warp_budget;     /* warp instructions a warp runs before the scheduler switches */
    /* ---- occupancy (0 = unlimited by that resource) */
    uint32_t max_ctas_per_sm;
    uint32_t max_threads_per_sm;
    uint64_t smem_per_sm;
    /* Cooperative launch: every CTA of the grid is resident at once and interleaved, because
     * grid-wide synchronisation spins on global memory. */
    bool cooperative;
    /* ---- determinism */
    timing_det_mode det;
    uint64_t quantum;         /* GPUDet quantum in warp instructions (0 = 200) */
    bool bta;                 /* workgroup-aware formation with barrier termination avoidance */
    bool dwp;                 /* deterministic workgroup partitioning (mid-quantum launches) */
    timing_serial_order serial_order;
    /* When set, the run's statistics are added to it. */
    timing_stats *stats;
    /* ---- watchdog (timing/engine/watchdog.c): a run longer than this many host seconds, or
     * than this many warp instructions, ends with an EMU_FAULT_TIMEOUT fault (0 = no limit).
     * The instruction limit is checked at quantum ends under GPUDet, so there it ends the run
     * at the same point on every run. */
    double watchdog_seconds;
    uint64_t watchdog_insts;
    /* When the watchdog ends a run and this is set: where each unfinished warp was, one line
     * each (malloc'd, the caller frees it). */
    char **watchdog_where;
} timing_engine_config;

/* Fills in the defaults (environment-independent): one host thread, seed 0, det off, GPUDet
 * quantum 200 with BTA and DWP on and CU-Ser. */
void timing_engine_defaults(timing_engine_config *cfg);

/* Runs every CTA of the grid to completion, or until the first fault. Returns true when the
 * grid completed; false with the fault in emu_grid_fault(g). Installs the memory policy the
 * determinism mode needs (GPUDet's), so the launch's own policy only matters with det off. */
bool timing_run_grid(emu_grid *g, const timing_engine_config *cfg);

/* CTAs one SM holds at once for this grid under cfg (at least 1). */
uint32_t timing_ctas_per_sm(const emu_grid *g, const timing_engine_config *cfg);

/* Adds b into a (counters add up; the maximum stays a maximum). */
void timing_stats_add(timing_stats *a, const timing_stats *b);
/* Prints the GPUDet part of s (nothing when no quantum ran), a few lines indented by two
 * spaces, naming kernel `name` unless it is NULL. */
void timing_stats_print(FILE *out, const char *name, const timing_stats *s);

#endif
