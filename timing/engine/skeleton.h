/* skeleton.h: the one engine skeleton every engine of the timing layer is an instance of
 * (skeleton.c). Its instances: the det-off engine (engine_parallel.c, one epoch of one phase),
 * GPUDet's quantum loop (timing/gpudet/run.c: parallel mode per SM, commit per share, serial
 * mode alone) and DAB's epochs (timing/dab/run.c: SMs, commit per share, the flush alone);
 * KILO TM commits and the cycle model's windows are to be more.
 *
 * The skeleton owns what all engines share:
 * - SMs and their CTA slots (slot k of SM s is gslot k * SMs + s), and the storage of CTAs:
 *   a retired CTA's storage goes to its thread's pool and holds the next CTA that thread
 *   launches, so a CTA costs no allocation;
 * - host threads, and which one owns which SM: SM s runs on thread s % threads for the whole
 *   grid, and so does share (later: memory partition) p on thread p % threads;
 * - CTA issue: the order CTAs are handed out in (ascending, or a seeded permutation), taken by
 *   the instance when and where it places them;
 * - the epoch loop: an epoch is a list of phases, each run by every thread over what it owns,
 *   with a barrier after each; after the last phase, the last thread to arrive runs the
 *   instance's serial section alone (ordered operations, the next epoch's CTA placement) and
 *   decides whether another epoch follows.
 * An instance supplies the phases and the serial section (eng_instance). Whatever crosses SMs
 * is merged in a fixed key order by the instance's serial section or share phases, never in the
 * order threads finish: results never depend on the number of threads.
 */
#ifndef PTXSIM_TIMING_ENGINE_SKELETON_H
#define PTXSIM_TIMING_ENGINE_SKELETON_H

#include "timing/engine/engine_internal.h"

typedef struct eng_run eng_run;

/* A CTA slot of an SM. */
typedef struct eng_slot {
    uint32_t sm, k;           /* its SM, and its index among the SM's slots */
    uint32_t gslot;           /* k * SMs + sm: slot k of every SM comes before slot k+1 of any */
    emu_cta *cta;             /* the resident CTA, or NULL */
    void *user;               /* the instance's state of the slot */
    /* registers the instance lends to the CTAs it places here (emu_cta_create_in), or NULL
     * (their own); set for every slot or none */
    uint64_t *regs;
    /* storage (emu_cta_storage_bytes) the instance lends for the state of the first CTA that
     * finds its thread's pool empty here (emu_cta_create_at), or NULL; kept by the instance
     * until eng_fini has destroyed the CTAs. `storage_used` once a CTA was built in it. */
    void *storage;
    bool storage_used;
} eng_slot;

typedef struct eng_sm {
    uint32_t id;
    uint32_t owner;           /* the host thread that runs it, fixed for the grid */
    void *user;               /* the instance's state of the SM */
} eng_sm;

/* What one host thread keeps during a run. */
typedef struct eng_thread {
    eng_run *run;
    uint32_t tid;
    timing_stats st;          /* its counts (instructions of the CTAs it retired) */
    /* Storage of the CTAs it retired, the last one on top: the next CTA it launches is built
     * in it (emu_cta_create_in), still in this core's cache, with no allocation. */
    emu_cta **pool;
    uint32_t npool, pool_cap;
    void *user;               /* the instance's state of the thread */
} eng_thread;

typedef enum eng_phase_kind {
    ENG_PHASE_SMS,            /* run(E, T, sm) for every SM the thread owns, ascending */
    ENG_PHASE_SHARES,         /* run(E, T, p) for every share the thread owns, ascending */
    ENG_PHASE_THREAD          /* run(E, T, tid) once */
} eng_phase_kind;

typedef struct eng_phase {
    const char *name;
    eng_phase_kind kind;
    void (*run)(eng_run *E, eng_thread *T, uint32_t index);
} eng_phase;

typedef struct eng_instance {
    const char *name;
    const eng_phase *phases;  /* one epoch, in order; a barrier follows each */
    uint32_t nphases;
    /* Optional: once threads are known, before the first epoch, on the calling thread (thread 0,
     * alone). Returns false when there is nothing to run. */
    bool (*begin)(eng_run *E, eng_thread *T);
    /* Optional: after each epoch's last phase, alone, on whichever thread arrived last (so it
     * must not depend on which: T only says where to count). Returns false to end the run. */
    bool (*serial)(eng_run *E, eng_thread *T);
} eng_instance;

struct eng_run {
    emu_grid *g;
    const timing_engine_config *cfg;
    const eng_instance *inst;
    void *state;              /* the instance's run */
    uint32_t nsm;             /* SMs */
    uint32_t K;               /* CTA slots per SM (no more than exist) */
    uint32_t nslots;          /* slots that exist: gslots 0 .. nslots-1 */
    eng_sm *sms;
    eng_slot *slots;          /* SM by SM: slot k of SM s at s * K + k (eng_slot_at) */
    uint32_t nthreads;        /* threads of the run (known once it starts) */
    uint32_t max_threads;     /* threads asked for (at most nthreads_alloc) */
    uint32_t nthreads_alloc;  /* entries of `threads` */
    eng_thread *threads;
    uint32_t nshares;         /* shares of ENG_PHASE_SHARES phases (0: one per thread) */
    timing_barrier bar;
    bool done;                /* written by the serial section, read after the barrier */
    /* CTA issue: the i-th CTA handed out is (perm_a * i + perm_b) mod ncta */
    uint64_t ncta;
    uint64_t perm_a, perm_b;
    uint64_t issued;          /* atomic: CTAs handed out */
};

/* Prepares a run of grid g: `slots_per_sm` CTA slots per SM, of which only gslots below
 * `max_slots` exist (UINT64_MAX: all; K shrinks to what is needed for them), up to
 * `max_threads` host threads (at least 1, at most the SMs); CTAs issue in ascending order. False when memory ran out (eng_fini still frees). */
bool eng_init(eng_run *E, emu_grid *g, const timing_engine_config *cfg, uint32_t slots_per_sm,
              uint64_t max_slots, uint32_t max_threads);
/* CTAs issue in a random order that seed rng fixes (a permutation of all of them). */
void eng_issue_shuffle(eng_run *E, timing_rng *rng);
/* The next CTA of the issue order (any thread); false when every CTA has been handed out. */
bool eng_issue_take(eng_run *E, uint64_t *cta);
/* CTAs not handed out yet. */
uint64_t eng_issue_left(const eng_run *E);

static inline eng_slot *eng_slot_at(eng_run *E, uint32_t sm, uint32_t k)
{
    return &E->slots[(uint64_t)sm * E->K + k];
}
static inline eng_slot *eng_slot_by_gslot(eng_run *E, uint32_t gslot)
{
    return eng_slot_at(E, gslot % E->nsm, gslot / E->nsm);
}
/* Whether slot k of SM sm exists (gslot below the run's limit). */
static inline bool eng_slot_exists(const eng_run *E, uint32_t sm, uint32_t k)
{
    return (uint64_t)k * E->nsm + sm < E->nslots;
}

/* Creates CTA `cta` in the empty slot s, in storage from T's pool (when it is empty, in the
 * slot's lent storage the first time, else new storage). NULL when memory ran out. Only the thread T that owns s's SM, or the serial section,
 * calls it. */
emu_cta *eng_slot_launch(eng_run *E, eng_slot *s, uint64_t cta, eng_thread *T);
/* Retires s's CTA (finished, or given up): counts its warp instructions into T->st and keeps
 * its storage in T's pool. */
void eng_slot_retire(eng_run *E, eng_slot *s, eng_thread *T);

/* Runs the epochs of `inst` (with its state) on up to max_threads host threads. Returns the
 * number of threads that ran. */
uint32_t eng_run_epochs(eng_run *E, const eng_instance *inst, void *state);

/* Destroys the CTAs kept in T's pool and frees it, on any one thread (the pool's CTAs are
 * retired: nothing else reads them). A run whose host threads are done with their pools frees
 * each on its own thread, in parallel, before eng_fini (their CTAs are in that core's cache). */
void eng_thread_pool_free(eng_thread *T);
/* Adds up the threads' counts (in thread order) into st, with the warp instructions of CTAs
 * still resident, then frees every CTA, storage and table of the run. */
void eng_fini(eng_run *E, timing_stats *st);

#endif
