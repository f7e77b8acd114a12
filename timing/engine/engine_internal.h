/* engine_internal.h: what the engines of the timing layer share (not part of its public
 * interface): the seeded generator, the host-thread pool and its barrier, the engine skeleton
 * (skeleton.h), and the engines' entry points behind timing_run_grid. */
#ifndef PTXSIM_TIMING_ENGINE_INTERNAL_H
#define PTXSIM_TIMING_ENGINE_INTERNAL_H

#include "timing/timing.h"

#include <pthread.h>

/* ---------------------------------------------------------------- seeded choices */

/* splitmix64: a small, good generator; a seed fixes the whole sequence. */
typedef struct timing_rng { uint64_t s; } timing_rng;

static inline uint64_t timing_rng_next(timing_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A number in [0, n) (n > 0). */
static inline uint64_t timing_rng_below(timing_rng *r, uint64_t n)
{
    return timing_rng_next(r) % n;
}

/* ---------------------------------------------------------------- host threads */

/* Runs fn(arg, tid) for tid 0..n-1, tid 0 on the calling thread, and returns when all have
 * finished. When fewer threads can be created, fewer run: ready(arg, count) (if given) learns
 * the count before any fn starts. Returns the count. */
uint32_t timing_pool_run(uint32_t n, void (*ready)(void *arg, uint32_t n),
                         void (*fn)(void *arg, uint32_t tid), void *arg);

/* The barrier between the phases of an epoch (barrier.c): sense-reversing, spinning briefly and
 * then sleeping on a futex. */
typedef struct timing_barrier {
    uint32_t n;               /* threads that meet at it */
    uint32_t left;            /* atomic: threads still to arrive this round */
    uint32_t round;           /* atomic (the futex word): rounds opened so far */
    uint32_t sleepers;        /* atomic: threads asleep on round, or about to be */
    uint32_t spin;            /* spins before sleeping */
} timing_barrier;

void timing_barrier_init(timing_barrier *b, uint32_t n);
/* Waits until all n threads have arrived. The last one to arrive runs last(arg) (when given),
 * with its own arg, alone, before any thread leaves: a serial section between two phases that
 * costs no third barrier. Everything a thread did before it arrived is visible to every thread
 * after it leaves. Returns true in the thread that ran the serial section. */
bool timing_barrier_wait(timing_barrier *b, void (*last)(void *arg), void *arg);
void timing_barrier_destroy(timing_barrier *b);

#include "timing/engine/skeleton.h"

/* ---------------------------------------------------------------- engines */

/* The baseline (det off): SMs on host threads, shared global memory, seeded perturbation. */
bool timing_run_parallel(emu_grid *g, const timing_engine_config *cfg);
/* The cycle model (timing/model/run.c): one host thread, deterministic by construction. */
bool timing_run_cycles(emu_grid *g, const timing_engine_config *cfg);
/* The cycle model timing a GPUDet run (timing/model/replay.c): GPUDet runs the grid, the model
 * times what each warp executed. */
bool timing_run_cycles_gpudet(emu_grid *g, const timing_engine_config *cfg);
/* GPUDet (timing/gpudet/). */
bool timing_run_gpudet(emu_grid *g, const timing_engine_config *cfg);
/* What GPUDet tells the cycle model's record of its run (timing/model/replay.c), called only
 * while no other host thread runs (between phases); each does nothing unless a --timing run
 * records: whether one does; the quantum (from 1) and mode (serial or parallel) the
 * instructions executed from now belong to; a store-buffer entry of chunk `chunk` (128-byte
 * aligned address) that the warp of hardware ID `wid` on SM `sm` committed in the current
 * quantum (each warp's entries one after another, in its log's order). */
bool timing_record_active(void);
void timing_record_gpudet_phase(uint64_t quantum, bool serial);
void timing_record_gpudet_commit(uint32_t sm, uint32_t wid, uint64_t chunk);
/* GPUDet launched CTA `cta` in CTA slot k of SM sm, the slot's seq-th launch (from 0); also
 * from the host thread that runs the slot in parallel mode (DWP): each CTA has its own entry. */
void timing_record_gpudet_launch(uint64_t cta, uint32_t sm, uint32_t k, uint64_t seq);
/* The same for DAB (timing/dab/): the epoch (from 1) and whether the flush runs (its
 * flush-class operations); one flush transaction of SM sm to sub-partition subp carrying
 * `entries` buffer entries. */
void timing_record_dab_phase(uint64_t epoch, bool flushing);
void timing_record_dab_flush(uint32_t sm, uint32_t subp, uint32_t entries);
/* DAB: whether the instructions the calling host thread's warp runs from now are in its SM's
 * lockstep (SRR, GTRR after its switch): the model then issues them in the same order per SM
 * as the scheduler's turns (thread-local; the SM's host thread sets it around each run). */
void timing_record_dab_lockstep(bool on);
/* The cycle model timing a DAB run (timing/model/replay.c). */
bool timing_run_cycles_dab(emu_grid *g, const timing_engine_config *cfg);
/* Deterministic atomic buffering (timing/dab/). */
bool timing_run_dab(emu_grid *g, const timing_engine_config *cfg);

/* ---------------------------------------------------------------- watchdog (watchdog.c) */

/* One run's watchdog. The engines' loops call timing_watchdog_step after each warp step (or
 * timing_watchdog_expired at a quantum end); once it says so they stop, describe the CTAs
 * still resident, and call timing_watchdog_finish. */
typedef struct timing_watchdog {
    const timing_engine_config *cfg;
    bool armed;               /* a limit is set */
    double deadline;          /* host seconds (timing_watchdog_now), 0 = none */
    uint64_t max_insts;       /* 0 = none */
    uint64_t insts;           /* atomic: warp instructions counted by timing_watchdog_step */
    uint32_t ticks;           /* atomic: steps since the clock was last read */
    int fired;                /* atomic */
    pthread_mutex_t lock;     /* the report */
    char *where;
    size_t len, cap;
    uint64_t warps, shown;
} timing_watchdog;

void timing_watchdog_start(timing_watchdog *wd, const timing_engine_config *cfg);
/* Adds n warp instructions of one step; true once the run must end. Cheap: reads the clock
 * every few dozen steps. */
bool timing_watchdog_step(timing_watchdog *wd, uint64_t n);
/* At a point every run reaches the same way (a GPUDet quantum end): true once total warp
 * instructions exceed the limit, or the time is up. */
bool timing_watchdog_expired(timing_watchdog *wd, uint64_t total);
bool timing_watchdog_fired(const timing_watchdog *wd);
/* Adds the unfinished warps of c to the report. */
void timing_watchdog_describe_cta(timing_watchdog *wd, emu_cta *c);
/* Ends the grid with the timeout fault and hands the report over (cfg->watchdog_where);
 * not_started: CTAs of the grid that never ran. */
void timing_watchdog_finish(timing_watchdog *wd, emu_grid *g, uint64_t not_started);
void timing_watchdog_destroy(timing_watchdog *wd);

/* Warp instructions of every warp of c (before it is destroyed). */
uint64_t timing_cta_instructions(emu_cta *c);

#endif
