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
 * - det = DAB: deterministic atomic buffering (spec dab.md, timing/dab/): relaxed atomics go to
 *   per-scheduler atomic buffers (fused, flushed GPU-wide in a fixed order), atomics whose
 *   result is used, fences and device calls wait for a flush; plain global stores become
 *   visible to other SMs at the flushes. Results do not depend on host threads or the seed.
 */
#ifndef PTXSIM_TIMING_TIMING_H
#define PTXSIM_TIMING_TIMING_H

#include "emulator/emu.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct timing_gpu timing_gpu;   /* a GPU description (below) */
typedef struct timing_timeline timing_timeline;   /* --timeline (below) */

typedef enum timing_det_mode {
    TIMING_DET_OFF = 0,       /* no determinism: the parallel baseline */
    TIMING_DET_GPUDET,        /* GPUDet quanta, store buffers, serial atomics */
    TIMING_DET_DAB            /* deterministic atomic buffering (timing/dab/, spec dab.md) */
} timing_det_mode;

/* Order of serial mode (spec S8): both are deterministic, they give different results. */
typedef enum timing_serial_order {
    TIMING_SERIAL_CU = 0,     /* CU-Ser: SMs ascending, each SM's atomics by warp slot */
    TIMING_SERIAL_WARP        /* W-Ser: ascending hardware warp ID across the whole GPU */
} timing_serial_order;

/* DAB's determinism-aware warp schedulers (spec dab.md S6), strictest first; all deterministic,
 * each gives its own order of atomics. */
typedef enum timing_dab_scheduler {
    TIMING_DAB_GWAT = 0,      /* greedy with an atomic token (the paper's final choice) */
    TIMING_DAB_GTAR,          /* greedy, then a round of atomics one per warp */
    TIMING_DAB_GTRR,          /* greedy until every warp reached its first atomic, then SRR */
    TIMING_DAB_SRR            /* strict round robin, one instruction per warp per turn */
} timing_dab_scheduler;

/* DAB's limitation study (spec dab.md S11, the paper's Fig. 18), in cycles only: the results
 * stay DAB's deterministic ones, the timing relaxes one constraint more at each step. */
typedef enum timing_dab_limit {
    TIMING_DAB_LIMIT_OFF = 0,
    TIMING_DAB_LIMIT_NR,      /* the sub-partitions do not wait to re-order (no pre-flush wait) */
    TIMING_DAB_LIMIT_NR_OF    /* ... and flushes overlap (SMs go on once their packets left) */
} timing_dab_limit;

/* Why a warp's parallel mode ended in a quantum (the paper's Figure 3). */
typedef enum timing_quantum_end {
    TIMING_QEND_QUANTUM,      /* instruction budget used up */
    TIMING_QEND_ATOMIC,       /* stopped before a global atomic */
    TIMING_QEND_FENCE,        /* memory fence */
    TIMING_QEND_WGBARRIER,    /* CTA barrier that could not be released in the quantum */
    TIMING_QEND_COMPLETE,     /* the warp exited */
    TIMING_QEND_STORE_BUFFER, /* its store buffer filled (--gpudet-sb-entries) */
    TIMING_QEND_COUNT
} timing_quantum_end;

/* What a scheduler's issue slot did in a cycle of the cycle model (--timing): issued, or why
 * not (the reason of the warp that came closest to issuing). */
typedef enum timing_slot {
    TIMING_SLOT_ISSUED,
    TIMING_SLOT_IDLE,         /* no warp on the scheduler */
    TIMING_SLOT_SCOREBOARD,   /* operands still in flight */
    TIMING_SLOT_PIPELINE,     /* the functional unit is busy (initiation interval) */
    TIMING_SLOT_MEMORY,       /* load/store unit busy (replays) or no free MSHR */
    TIMING_SLOT_BARRIER,      /* warps wait at a CTA barrier */
    TIMING_SLOT_CONTROL,      /* warps being launched, or refetching after a branch */
    TIMING_SLOT_COUNT
} timing_slot;

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
    uint64_t serial_calls;        /* device printf/malloc/free, KILO TM's commits and the
                                     tx_begins that took a slot, run in serial mode */
    uint64_t bta_releases;        /* barriers released inside a quantum (BTA) */
    uint64_t dwp_launches;        /* CTAs launched mid-quantum from a DWP partition */
    /* DAB only */
    uint64_t dab_flushes;         /* GPU-wide flushes (epochs) */
    uint64_t dab_atomics;         /* lane atomics put in the atomic buffers */
    uint64_t dab_fused;           /* ... of them combined into an existing entry (fusion) */
    uint64_t dab_entries;         /* buffer entries flushed */
    uint64_t dab_transactions;    /* flush transactions (entries of one sector coalesced) */
    uint64_t dab_full;            /* buffers closed because an atomic did not fit */
    uint64_t dab_flush_ops;       /* flush-class operations (atom whose result is used, cas,
                                     exch, device calls) run in flush order */
    uint64_t dab_fences;          /* warps that waited for a flush at a fence or barrier */
    /* cycle model only (--timing; timing/model/): the same on every run, for any number of
     * host threads and either executor */
    uint64_t cycles;              /* simulated cycles, launches one after another */
    uint64_t thread_instructions; /* warp instructions x lanes that executed them */
    uint64_t slots[TIMING_SLOT_COUNT];   /* issue slots (cycles x schedulers x SMs) by outcome */
    uint64_t warp_cycles;         /* sum over warps of the cycles they were resident */
    uint64_t warp_slot_cycles;    /* cycles x SMs x the warps one SM holds: occupancy's base */
    uint64_t diverged_branches;
    uint64_t l1_hits, l1_misses, l1_mshr_merges;   /* global/local load sectors */
    uint64_t l1_write_hits, l1_write_misses;       /* store sectors: to a line L1 held (updated
                                                      there), or not (written through only) */
    uint64_t tex_hits, tex_misses;                 /* texture cache sectors (tex, tld4, suld) */
    uint64_t smem_requests, smem_wavefronts;
    uint64_t l2_hits, l2_misses;  /* sectors loaded (and atomics' sectors) */
    uint64_t l2_write_hits, l2_write_misses;   /* sectors stored, found valid or allocated */
    uint64_t l2_atomics;          /* lane operations performed at L2 */
    uint64_t dram_reads, dram_writes;   /* sectors */
    uint64_t dram_row_hits, dram_row_misses;
    uint64_t icnt_bytes;          /* both directions */
    /* GPUDet's modes in cycles (--det=gpudet --timing; timing/model/replay.c): the four add up
     * to `cycles` (parallel includes the kernel launch latency) */
    uint64_t gd_parallel_cycles;  /* parallel mode: the warps' recorded instructions */
    uint64_t gd_commit_cycles;    /* commit mode: store-buffer updates through the Z-buffer units */
    uint64_t gd_serial_cycles;    /* serial mode: the deferred atomics in CU-Ser / W-Ser order */
    uint64_t gd_barrier_cycles;   /* global barriers between the modes */
    uint64_t gd_barriers;         /* global barriers (2 per quantum, 3 with serial mode) */
    uint64_t gd_commit_requests;  /* Z-buffer unit update requests (one per store-buffer entry) */
    uint64_t gd_zcache_misses;    /* Z-cache misses in commit mode (depth blocks fetched) */
    uint64_t gd_log_writes;       /* parallel mode: store-buffer entries written to the log */
    uint64_t gd_log_searches;     /* parallel mode: loads whose chunk hit the Bloom filter */
    uint64_t gd_bloom_false;      /* ... of which the log held no entry of the chunk */
    uint64_t gd_log_entries_read; /* log entries the searches read */
    /* DAB's epochs in cycles (--det=dab --timing): the four add up to `cycles` */
    uint64_t dab_parallel_cycles; /* the warps' recorded instructions (buffered atomics: 1 cycle) */
    uint64_t dab_flush_cycles;    /* the flush protocol: pre-flush, push, ROPs, writebacks */
    uint64_t dab_flush_op_cycles; /* flush-class operations (used-result atomics, cas, exch) */
    uint64_t dab_barrier_cycles;  /* the GPU-wide barrier of each flush */
    uint64_t dab_ordered;         /* instructions issued in the scheduler's order (token, turns) */
    uint64_t dab_order_skips;     /* turns the model skipped to go on (none when consistent) */
    /* KILO TM's commit units (--tm=kilotm --timing; timing/kilotm/cycles.c) */
    uint64_t tm_warp_commits;     /* warp commit steps timed */
    uint64_t tm_tx_commits;       /* lane transactions sent to the commit units */
    uint64_t tm_commit_cycles;    /* sum over warp commits: tx_commit's issue to the warp's go */
    uint64_t tm_begin_waits;      /* tx_begins that waited for a transactional-warp slot */
    uint64_t tm_log_entries;      /* log entries the walkers read and sent */
    uint64_t tm_protocol_bytes;   /* core <-> commit unit bytes (also in icnt_bytes) */
    uint64_t tm_validation_reads; /* words read to validate (revalidations included) */
    uint64_t tm_revalidations;    /* commit-unit entries revalidated after a hazard */
    uint64_t tm_false_hazards;    /* ... of them with no older unretired writer (LWH aliasing) */
    uint64_t tm_commit_writes;    /* words written by commits */
    uint64_t tm_cu_entry_cycles;  /* sum over commit-unit entries of their cycles in the ring */
    uint64_t tm_cu_cycles;        /* cycles x commit units: the occupancy's base */
    uint64_t tm_cu_max_entries;   /* most entries in one commit unit's ring at once */
} timing_stats;

/* Warp instructions per turn without determinism when the configuration leaves it open
 * (timing_engine_config.warp_budget 0, --quantum=auto): see engine_parallel.c. The short turn
 * is that of seeded runs (slices drawn from 1 .. twice it) and of cooperative grids (whose
 * grid-wide syncs spin). */
#define TIMING_DET_OFF_TURN 10000
#define TIMING_DET_OFF_SHORT_TURN 1000

typedef struct timing_engine_config {
    uint32_t sm_count;        /* SMs of the modelled GPU */
    uint32_t host_threads;    /* host threads that run SMs (1 = serial) */
    uint64_t seed;            /* 0: the fixed order; otherwise perturbs warp order and runs */
    uint64_t warp_budget;     /* warp instructions a warp runs before the scheduler switches
                                 (0: the engine's own, TIMING_DET_OFF_TURN without determinism) */
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
    uint32_t gpudet_sb_entries;   /* store-buffer entries that end a warp's quantum (0: none) */
    bool gpudet_lock_commit;  /* --timing: commit mode by software locks (the paper's baseline) */
    uint32_t dab_entries;     /* DAB: entries per scheduler-level atomic buffer (0 = 64) */
    bool dab_fusion;          /* DAB: same address and operation fused in the buffer */
    bool dab_coalescing;      /* DAB: one flush transaction per 32-byte sector of a buffer */
    timing_dab_scheduler dab_scheduler;
    bool dab_offset_flush;    /* DAB: SMs of even ID drain their buffers from the middle */
    bool dab_warp_buffers;    /* DAB: a buffer per warp slot with plain GTO (WarpGTO) */
    timing_dab_limit dab_limit;   /* DAB --timing: the limitation study's relaxation */
    uint32_t dab_sms;         /* DAB: CTAs go to the first this many SMs (SM gating; 0 = all) */
    /* DAB: warp instructions a warp runs before it waits for the next flush (0 = 100000): a
     * deterministic cut point so that a warp spinning on another SM's store goes on */
    uint64_t dab_epoch_insts;
    /* When set, the run's statistics are added to it. */
    timing_stats *stats;
    /* ---- the cycle model (--timing; timing/model/): when set, the grid runs on it, on the GPU
     * that gpu describes (its sm_count should be the one above). The launch's event sink must
     * include timing_model_sink(). */
    bool cycle_model;
    const struct timing_gpu *gpu;
    /* When set (with the cycle model), each CTA's span on its SM is added to it. */
    timing_timeline *timeline;
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

/* The event sink the cycle model reads its warps' instructions from (timing/model/run.c):
 * a launch with cycle_model on must hand its events to it (directly or through a tee). */
emu_event_sink *timing_model_sink(void);

/* "issued", "idle", "scoreboard", ... */
const char *timing_slot_name(timing_slot s);
/* Adds b into a (counters add up; the maximum stays a maximum). */
void timing_stats_add(timing_stats *a, const timing_stats *b);
/* Prints the GPUDet part of s (nothing when no quantum ran) and the cycle model's (nothing
 * when no cycle was simulated), a few lines indented by two spaces, naming kernel `name`
 * unless it is NULL. */
void timing_stats_print(FILE *out, const char *name, const timing_stats *s);

/* ---------------------------------------------------------------- KILO TM (timing/kilotm/)
 * `--tm=kilotm`: transactions marked by tx_begin()/tx_commit() calls (include/ptxsim/kilotm.h)
 * run as the paper's KILO TM runs them, functionally: per-lane logs, value-based validation
 * and commit of a warp's lanes together, aborted lanes re-executed from a checkpoint. One
 * policy per launch, composed over the launch's own; the engine rewinds it before each run of
 * a grid (compare mode runs a launch twice). With the cycle model, its commit units time each
 * commit (timing/kilotm/cycles.c); not with GPUDet. */
typedef struct timing_kilotm_stats {
    uint64_t committed, aborted;     /* lane transactions */
    uint64_t early_aborts;           /* of the aborts, inside the transaction (stale reads) */
    uint64_t commit_steps;           /* warp commits (each resolves its lanes together) */
    uint64_t read_words, write_words;   /* words of the read/write-sets at validation */
    uint64_t begin_stalls;           /* tx_begins deferred by the concurrency limit */
    /* the paper's Table 2 columns: */
    uint64_t max_aborts;             /* aborts of one transaction before it committed */
    uint64_t committed_read_words, committed_write_words;   /* sets of the committed attempts */
    uint64_t max_read_words, max_write_words;               /* the largest of those */
    uint64_t max_concurrent;         /* lanes inside a transaction at once, in the GPU */
    uint64_t max_concurrent_sm;      /* the same in one SM */
} timing_kilotm_stats;
/* warps_per_sm: transactional warps one SM may hold (0 = unlimited); sm_count: SMs of the
 * modelled GPU. NULL when out of memory. */
emu_mem_policy *timing_kilotm_create(uint32_t warps_per_sm, uint32_t sm_count,
                                     emu_mem_policy *next);
void timing_kilotm_destroy(emu_mem_policy *p);
/* p, or a policy below it, if it is KILO TM's (else NULL). */
emu_mem_policy *timing_kilotm_find(emu_mem_policy *p);
/* Forgets every warp's transactions and the SMs' counts (a new run of the grid). */
void timing_kilotm_rewind(emu_mem_policy *p);
/* GPUDet's grid: the launch's KILO TM policy (if it has one) over `below` (GPUDet's), returned;
 * else below. Its first reads then see the warp's own buffered stores, and its commits run in
 * serial mode. */
emu_mem_policy *timing_kilotm_over(emu_mem_policy *launch, emu_mem_policy *below);
void timing_kilotm_get_stats(const emu_mem_policy *p, timing_kilotm_stats *out);

/* ---------------------------------------------------------------- correctness checks
 * (timing/check/): `--check=racecheck,initcheck,synccheck,memcheck`, reported the way
 * compute-sanitizer reports them. One timing_check lives for the process; each launch runs
 * under the memory policy timing_check_begin returns (it observes every access, barrier and
 * fence of the grid and passes them on to the launch's own policy). */
enum {
    TIMING_CHECK_MEM = 1,     /* memcheck: the emulator's fault reports, counted */
    TIMING_CHECK_RACE = 2,    /* racecheck: happens-before races in global and shared memory */
    TIMING_CHECK_INIT = 4,    /* initcheck: reads of device memory never written */
    TIMING_CHECK_SYNC = 8     /* synccheck: misuse of barriers and warp-synchronous masks */
};
typedef struct timing_check timing_check;
/* NULL when out of memory. */
timing_check *timing_check_create(unsigned kinds);
/* The policy to run launch L under (L->policy below it), or NULL when out of memory; `kernel`
 * is the kernel's name for reports. One launch at a time. */
emu_mem_policy *timing_check_begin(timing_check *c, const emu_launch *L, const char *kernel);
/* Ends the launch begun last: prints the hazards it found first on out. */
void timing_check_end(timing_check *c, FILE *out);
/* memcheck: a kernel fault (already reported by the runtime) counts as an error. */
void timing_check_fault(timing_check *c);
/* initcheck: device memory [addr, addr+n) was allocated (uninitialised) or written by the host
 * (cudaMemcpy, cudaMemset, ...). */
void timing_check_alloc(timing_check *c, uint64_t addr, uint64_t n);
void timing_check_host_write(timing_check *c, uint64_t addr, uint64_t n);
/* --watch=SYMBOL|ADDRESS[:LEN][:rw]: every write (and with rw every read) of those bytes, with
 * thread, PTX and source line, old and new bytes, printed on out as it is performed. NULL with
 * a reason when spec is malformed. */
typedef struct timing_watch timing_watch;
timing_watch *timing_watch_create(const char *spec, FILE *out, char *err, size_t errlen);
/* The policy to run launch L under (L->policy below it), or NULL when nothing of L's module is
 * watched (a symbol it does not define). */
emu_mem_policy *timing_watch_begin(timing_watch *w, const emu_launch *L, const char *kernel);
/* The summary lines (one per kind checked, then the error summary) on out, and the JSON report
 * to json_path unless NULL; returns the number of errors (hazard pairs, uninitialised reads,
 * sync errors, faults). */
uint64_t timing_check_finish(timing_check *c, FILE *out, const char *json_path);

/* ---------------------------------------------------------------- iGPU (timing/igpu/)
 * --igpu=on: every function of a module cut into idempotent regions (ptx_regions, alias model
 * conservative), the executor reporting each sparse boundary; a launch runs under the policy
 * timing_igpu_begin returns, which keeps each lane's restart point and registers there and
 * sends a path that takes a restartable fault (--fault-inject) back to its region entries,
 * with nothing of the faulting instruction done. */
enum { TIMING_IGPU_INJECT_OFF, TIMING_IGPU_INJECT_RATE, TIMING_IGPU_INJECT_LIST,
       TIMING_IGPU_INJECT_INSTR_RATE };
#define TIMING_IGPU_LIST_MAX 16
typedef struct timing_igpu_inject {
    int mode;                            /* TIMING_IGPU_INJECT_* */
    double rate;                         /* RATE: per global memory operation of a warp;
                                            INSTR_RATE: per warp instruction, an error
                                            detected at the warp's next global memory
                                            operation (the paper's per-instruction rate) */
    bool as_page;                        /* kind=page: costs a page fault's latency */
    uint64_t seed;
    uint64_t list[TIMING_IGPU_LIST_MAX]; /* LIST: the Nth global memory operations of every warp
                                            (from 0, re-executed ones counted) fault once */
    uint32_t nlist;
} timing_igpu_inject;
/* "off", "rate=P[,seed=N]", "instr-rate=P[,seed=N]" (0 < P <= 0.5) or "list=N[:N...]", each
 * with an optional ",kind=page" (or error); false with a message naming what is accepted. */
bool timing_igpu_parse_inject(const char *spec, timing_igpu_inject *out, char *err,
                              size_t errlen);
/* Marks mod's sparse region boundaries (emu_module_set_region_boundaries); false with a reason
 * (out of host memory). */
bool timing_igpu_prepare(emu_module *mod, char *err, size_t errlen);
/* A distribution of non-negative integers kept in buckets: exact below 256, then 32 buckets per
 * power of two (a bucket's values differ by under 1/32 of its lower bound). */
#define TIMING_HIST_EXACT 256u
#define TIMING_HIST_BUCKETS (TIMING_HIST_EXACT + 32u * 56u)
typedef struct timing_hist {
    uint64_t n, max, sum;
    uint64_t count[TIMING_HIST_BUCKETS];
} timing_hist;
void timing_hist_add(timing_hist *h, uint64_t v);          /* thread-safe (atomic) */
void timing_hist_merge(timing_hist *a, const timing_hist *b);
/* The nearest-rank percentile (the smallest value with at least p percent of the samples at
 * or below it), as its bucket's lower bound; 0 when empty. */
uint64_t timing_hist_percentile(const timing_hist *h, double p);

typedef struct timing_igpu_stats {
    uint64_t boundaries;   /* sparse boundaries crossed (restart points kept) */
    uint64_t faults;       /* restartable faults injected (--fault-inject) */
    uint64_t restarts;     /* paths sent back to their region entries */
    uint64_t short_restarts;   /* of those, instr-rate errors sent back to the entry of their
                                  short sub-region (the paper's RPC_sh) */
    uint64_t reexecuted;   /* warp instructions a restart discarded (run again): from the
                              region entry to the faulting instruction, that one included */
    uint64_t reexecuted_paging;   /* of those, discarded by page-fault restarts */
    uint64_t page_faults;  /* --igpu-paging: first touches of non-resident pages */
    uint64_t page_stalls;  /* of those, faults taken in place (the path had no single restart
                              point; nothing of the operation was done, so it waits) */
    uint64_t evictions;    /* pages evicted to keep the resident set */
    /* continuous spilling (the paper's CS overhead, S-7.4): the live-in registers a warp
     * pushes at the sparse boundaries it crosses, one store instruction each, as L2 code
     * would run them (L1 runs no such code: counted, not executed) */
    uint64_t spill_instructions;
    /* --timing: the pops of continuous spilling, the live-ins a restarted region reloads from
     * the context when it crosses its entry again; each issues as one instruction */
    uint64_t reload_instructions;
    /* --timing: cycles the warps slept waiting for pages (igpu_page_fault_latency per page
     * fault) and refilling after an injected error's restart (igpu_restart_penalty each) */
    uint64_t page_fault_cycles, restart_penalty_cycles;
    timing_hist region_size;   /* warp instructions from a warp's boundary crossing to its next
                                  crossing or exit; a restart's discarded part not counted */
    timing_hist liveins;       /* live-in registers (memory-backed inputs excluded) per
                                  boundary crossed */
} timing_igpu_stats;
void timing_igpu_stats_add(timing_igpu_stats *a, const timing_igpu_stats *b);

/* --igpu-paging=on (timing/igpu/paging.c): device memory in pages of page_size bytes, none
 * resident at first; a global memory operation that touches a non-resident page takes a
 * restartable fault, the page arrives (becomes resident) and the warp restarts at its region
 * entry. Pages arrive for the rest of the launch (forward progress: a restarted region finds
 * its pages); at the end of a launch the resident set is cut back to resident_max pages
 * (0 = no limit), oldest first by a deterministic clock: the launch the page arrived in, then
 * its address. */
typedef struct timing_igpu_pages timing_igpu_pages;
timing_igpu_pages *timing_igpu_pages_create(uint64_t page_size, uint64_t resident_max);
/* Ends a launch: evicts down to resident_max; returns the pages evicted. */
uint64_t timing_igpu_pages_end_launch(timing_igpu_pages *p);
void timing_igpu_pages_destroy(timing_igpu_pages *p);
/* The lowest page of op's lanes that is not resident, made resident now; false when all are. */
bool timing_igpu_pages_touch(timing_igpu_pages *p, const emu_mem_op *op);
/* GPUDet (--det=gpudet): pages arrive by quanta (paging.c's header): a page that arrived in
 * this quantum is resident only for the warps that waited for it, kept in their own list. */
typedef struct timing_igpu_own {
    uint64_t *pages;          /* malloc'd */
    uint32_t n, cap;
    uint64_t quantum;         /* the quantum the list is for (an older one is emptied first) */
} timing_igpu_own;
void timing_igpu_pages_by_quantum(timing_igpu_pages *p);
bool timing_igpu_pages_quantum_mode(const timing_igpu_pages *p);
/* The quantum ended: the pages that arrived in it are resident for every warp. */
void timing_igpu_pages_quantum_end(timing_igpu_pages *p);
/* timing_igpu_pages_touch by quanta for the warp whose list is own. */
bool timing_igpu_pages_touch_own(timing_igpu_pages *p, const emu_mem_op *op, timing_igpu_own *own);

typedef struct timing_igpu timing_igpu;
/* NULL when out of memory; next is the policy the launch had; pages NULL: no paging. One
 * launch at a time. */
timing_igpu *timing_igpu_begin(const timing_igpu_inject *inj, timing_igpu_pages *pages,
                               emu_mem_policy *next);
emu_mem_policy *timing_igpu_policy(timing_igpu *g);
/* The launch runs again from its start (--engine=compare's second run): when p's chain holds
 * an iGPU policy, it forgets the earlier run's warps and counts, and the pages that arrived in
 * it leave again, so that both runs see the same residency. */
void timing_igpu_rewind(emu_mem_policy *p);
/* GPUDet (timing/gpudet/run.c) replaces the launch's policy with its own (below): when the
 * launch's chain holds an iGPU policy, that policy goes on top of below and is returned; else
 * below. Demand paging then runs by quanta (timing_igpu_pages_by_quantum, timing_igpu_quantum_end). */
emu_mem_policy *timing_igpu_over(emu_mem_policy *launch, emu_mem_policy *below);
/* GPUDet's quantum ended (timing/gpudet/run.c, after the commit): when chain holds an iGPU
 * policy with paging by quanta, the pages of the quantum are resident for every warp. */
void timing_igpu_quantum_end(emu_mem_policy *chain);
/* The pages that arrived in the launch now running leave again. */
void timing_igpu_pages_rewind(timing_igpu_pages *p);
/* Frees g, after copying its counts to *out (unless NULL). */
void timing_igpu_end(timing_igpu *g, timing_igpu_stats *out);
/* Precise exception reports: the entry of the idempotent region that lane `lane` of warp `warp`
 * of CTA `cta_linear` was in when it stopped (its sparse restart point: function index and
 * instruction), before timing_igpu_end; false when it crossed none. region_name writes how
 * `ptxsim ptx --regions --igpu-alias=conservative` numbers that region (0: not a boundary). */
bool timing_igpu_region_of(timing_igpu *g, uint64_t cta_linear, uint32_t warp, uint32_t lane,
                           uint32_t *func, uint32_t *pc);
int timing_igpu_region_name(const emu_module *mod, uint32_t func, uint32_t pc, char *buf,
                            size_t len);

/* --igpu with --timing (the cycle model, timing/model/sm.c): from now on g keeps, per warp,
 * what each instruction costs beyond itself, for the model to charge when it issues that
 * instruction: a page fault sleeps the warp gpu->igpu_page_fault_latency cycles, an injected
 * error's restart costs gpu->igpu_restart_penalty (the squash and the refill), and state
 * preservation issues one instruction per live-in register at each boundary crossed
 * (continuous spilling: pushes at a region's entry, pops when a restart crosses it again). */
void timing_igpu_timed(timing_igpu *g, const struct timing_gpu *gpu);
/* The iGPU policy in a launch's chain, or NULL. */
timing_igpu *timing_igpu_of(emu_mem_policy *chain);
typedef struct timing_igpu_cost {
    uint64_t stall;       /* cycles before the warp issues again (page arrival, refill) */
    uint32_t state;       /* state-preservation instructions issued before it */
    bool restart;         /* it faulted and did not run: the path restarts at its region entry */
} timing_igpu_cost;
/* What warp w's instruction number `instr` (emu_warp_instructions before it ran) costs beyond
 * itself, taken out of what g keeps (costs of earlier instructions the model did not issue are
 * added in); false when nothing. */
bool timing_igpu_take_cost(timing_igpu *g, emu_warp *w, uint64_t instr, timing_igpu_cost *out);

/* ---------------------------------------------------------------- record and replay
 * (timing/replay/): --record=FILE logs the order of every launch's memory operations (any
 * --threads and --seed, determinism off); --replay=FILE runs each launch in that order on one
 * host thread, refusing a program or an input that differ from the recorded ones. */
typedef struct timing_record timing_record;
timing_record *timing_record_open(const char *path, char *err, size_t errlen);
/* The policy to run launch L under while recording it (L->policy below it); NULL when out of
 * memory. One launch at a time. */
emu_mem_policy *timing_record_begin(timing_record *r, const emu_launch *L, const char *kernel);
/* Ends the launch begun last, with the fault it ended with (NULL: none). */
void timing_record_end(timing_record *r, const emu_fault *fault);
/* Compresses the log into the file; false when it could not be written whole. */
bool timing_record_close(timing_record *r);

typedef struct timing_replay timing_replay;
/* NULL with a reason when the file is no recording or the executable differs. */
timing_replay *timing_replay_open(const char *path, char *err, size_t errlen);
void timing_replay_close(timing_replay *r);
/* Runs g as the recording's next launch, instead of timing_run_grid: true when it completed
 * (false with the fault in emu_grid_fault(g), as timing_run_grid); *diverged and a reason in why
 * when the launch, its input or its run differ from the recording. */
bool timing_replay_grid(timing_replay *r, emu_grid *g, const timing_engine_config *cfg,
                        const char *kernel, char *why, size_t whylen, bool *diverged);

/* ---------------------------------------------------------------- observers of the event stream
 * (timing/observe/) */

/* Per-kernel metrics from the events (metrics.c has the definitions). */
typedef struct timing_metrics {
    uint64_t warp_instructions, thread_instructions;
    uint64_t by_class[EMU_CLS_COUNT];       /* warp instructions per op class */
    uint64_t global_requests, global_sectors;
    uint64_t shared_requests, shared_wavefronts;
} timing_metrics;

/* The counter of one launch's metrics: a shard per host thread (a host line apart), added to
 * the kernel's totals at the end. */
#define TIMING_METRICS_SHARDS 8
typedef struct timing_metrics_counter {
    emu_event_sink sink;
    timing_metrics *into;
    struct { _Alignas(64) timing_metrics m; } shard[TIMING_METRICS_SHARDS];
} timing_metrics_counter;
/* The sink that counts the events it receives in c (from any number of host threads at once),
 * for timing_metrics_end to add to *into. */
emu_event_sink *timing_metrics_begin(timing_metrics_counter *c, timing_metrics *into);
/* Adds what c counted to its totals; c counts afresh from here (no events may arrive meanwhile). */
void timing_metrics_end(timing_metrics_counter *c);
/* A few lines indented by two spaces (nothing when no instruction was counted). */
void timing_metrics_print(FILE *out, const timing_metrics *m);

/* A sink that hands every event run to both a and b (either may be NULL). */
typedef struct timing_tee { emu_event_sink sink; emu_event_sink *a, *b; } timing_tee;
emu_event_sink *timing_tee_sink(timing_tee *t, emu_event_sink *a, emu_event_sink *b);

/* --trace=FILE: a compressed instruction and memory trace (trace.c has the format). */
typedef struct timing_trace timing_trace;
timing_trace *timing_trace_open(const char *path, char *err, size_t errlen);
emu_event_sink *timing_trace_sink(timing_trace *t);
/* Starts launch id of kernel (whose module m gives the functions' PTX lines). */
void timing_trace_launch(timing_trace *t, uint64_t id, const char *kernel, const ptx_module *m,
                         emu_dim3 grid, emu_dim3 block);
/* Finishes the file; false when anything could not be written. */
bool timing_trace_close(timing_trace *t);

/* --timeline=FILE.json: the cycle model's schedule in the trace-event format Perfetto and
 * chrome://tracing open (timeline.c): a slice per launch, and per SM a slice per CTA. */
timing_timeline *timing_timeline_open(const char *path, char *err, size_t errlen);
/* CTA cta ran on SM sm from cycle start to end of the launch in progress. */
void timing_timeline_cta(timing_timeline *t, uint32_t sm, emu_dim3 cta, uint64_t start,
                         uint64_t end);
/* The launch in progress (named kernel) took `cycles` at clock_khz: its slice; the next launch
 * starts where it ended. */
void timing_timeline_kernel(timing_timeline *t, const char *kernel, uint64_t cycles,
                            int clock_khz);
/* Writes the file and frees t; false when it could not be written completely. */
bool timing_timeline_close(timing_timeline *t);
/* --timeline-warps: a slice per warp too (process "warps", a track per SM and warp slot). */
void timing_timeline_want_warps(timing_timeline *t);
bool timing_timeline_wants_warps(const timing_timeline *t);
/* Warp `warp` of CTA `cta` ran in warp slot `slot` of SM sm from cycle start to end. */
void timing_timeline_warp(timing_timeline *t, uint32_t sm, uint32_t slot, emu_dim3 cta,
                          uint32_t warp, uint64_t start, uint64_t end);

/* A trace read back, its warp runs sorted by (launch, CTA, warp, sequence). */
typedef struct timing_trace_func {
    char *name;
    uint32_t ninstrs;
    uint32_t *line;     /* PTX line of each instruction */
    uint16_t *op;       /* its ptx_opcode */
} timing_trace_func;
typedef struct timing_trace_launch_info {
    uint64_t id;
    char *kernel;
    emu_dim3 grid, block;
    timing_trace_func *funcs;
    uint32_t nfuncs;
} timing_trace_launch_info;
typedef struct timing_trace_event {
    uint32_t pc, func, active, mask, mem_lanes, taken, reconv;
    uint16_t op, size;
    uint8_t cls, stop, flags, space;
    size_t addr_first;  /* its lanes' addresses: addrs[addr_first ...], one per lane of mem_lanes */
} timing_trace_event;
typedef struct timing_trace_run {
    uint64_t launch, cta;
    uint32_t warp, seq, n;
    size_t first;       /* its events: events[first .. first+n) */
} timing_trace_run;
typedef struct timing_trace_data {
    timing_trace_launch_info *launches;
    size_t nlaunches;
    timing_trace_run *runs;
    size_t nruns;
    timing_trace_event *events;
    size_t nevents;
    uint64_t *addrs;
    size_t naddrs;
} timing_trace_data;
/* NULL with a message in err when the file cannot be read; a damaged or truncated file gives
 * what could be read, with a message in err. */
timing_trace_data *timing_trace_read(const char *path, char *err, size_t errlen);
void timing_trace_data_free(timing_trace_data *d);

/* ---------------------------------------------------------------- GPU descriptions
 * The GPUs ptxsim can pose as, read from the data files in timing/configs/ (embedded at build
 * time; format and sources in timing/configs/README.md). */
struct timing_gpu {
    const char *name;           /* the file's name without .gpu: the --gpu / PTXSIM_GPU value */
    const char *description;
    int major, minor;           /* compute capability */
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm;
    int regs_per_sm, regs_per_block;
    size_t smem_per_sm, smem_per_block_optin, l2_bytes;
    uint64_t global_mem;
    int clock_khz, mem_clock_khz, mem_bus_bits;
    /* ---- the cycle model (timing/model/README.md): latencies and intervals in cycles of
     * model_clock_khz */
    int model_clock_khz;
    int sched_per_sm, issue_per_sched;
    const char *scheduler;      /* "lrr", "gto" or "two_level" */
    int lat_int, ii_int, lat_imul, ii_imul, lat_fp32, ii_fp32, lat_fp64, ii_fp64;
    int lat_sfu, ii_sfu, lat_tensor, ii_tensor;
    int smem_latency, smem_banks;
    int smem_wavefront_cycles;  /* cycles of the load/store unit per shared-memory wavefront */
    size_t l1_bytes;
    int l1_ways, l1_latency, l1_mshrs;
    size_t tex_l1_bytes;        /* texture cache per SM (tex, tld4, suld) */
    int tex_l1_ways, tex_latency;
    int icnt_latency, icnt_bytes_per_cycle;
    int l2_slices, l2_ways, l2_latency;
    int l2_clock_khz;           /* an L2 slice takes a request, and performs an atomic lane
                                   operation, per cycle of this clock */
    int dram_channels, dram_banks, dram_tcl, dram_trcd, dram_trp, dram_latency;
    size_t dram_row_bytes;
    const char *dram_scheduler; /* "frfcfs" or "fcfs" */
    int dram_sched_queue;       /* FR-FCFS window: oldest arrived requests per channel (0: all) */
    int l2_queue;               /* requests an L2 slice's input queue holds (backpressure) */
    int cta_launch_latency, kernel_launch_latency;
    /* ---- GPUDet's hardware in the cycle model (timing/model/replay.c) */
    int gpudet_barrier_latency; /* cycles of one global barrier between modes */
    int zunit_clock_khz;        /* a Z-buffer unit (one per DRAM channel) takes one request per
                                   cycle of this clock */
    size_t zcache_bytes;        /* each Z-buffer unit's Z-cache (128-byte depth blocks) */
    int zunit_requests;         /* requests a Z-buffer unit works on at once (its request
                                   buffer: Z-cache misses overlap up to this many) */
    int gpudet_bloom_bits;      /* bits of each warp's store-buffer Bloom filter (4 sub-arrays;
                                   0 = ideal, no false positives) */
    int dab_barrier_latency;    /* DAB: cycles of the GPU-wide barrier of a flush */
    /* ---- iGPU in the cycle model (timing/igpu/policy.c, timing/model/sm.c) */
    int igpu_page_fault_latency; /* cycles a warp sleeps while its faulting page arrives */
    int igpu_restart_penalty;   /* cycles to squash and refill after an injected error */
    /* ---- KILO TM's commit units (timing/kilotm/cycles.c): the last writer history */
    int kilotm_lwh_entries;     /* lookup-table entries (0: perfect hazard detection) */
    int kilotm_lwh_ways;        /* its associativity */
    int kilotm_rbf_buckets;     /* recency bloom filter: CID buckets per sub-array */
    int kilotm_rbf_hashes;      /* ... and sub-arrays (one H3 hash each) */
};

/* The GPU named `name`, or NULL. */
const timing_gpu *timing_gpu_find(const char *name);
/* How many GPUs there are, and the i-th (by name). */
size_t timing_gpu_count(void);
const timing_gpu *timing_gpu_at(size_t i);
/* Parses one description (its text, `name` for messages and the result's name) into *out;
 * false with a message in err (file:line: what) when a key is unknown, repeated or missing, a
 * value is malformed or out of range, or a value names no source in a comment. The strings of
 * *out are malloc'd (timing_gpu_release frees them). */
bool timing_gpu_parse(const char *name, const char *text, timing_gpu *out, char *err,
                      size_t errlen);
void timing_gpu_release(timing_gpu *g);

#endif
