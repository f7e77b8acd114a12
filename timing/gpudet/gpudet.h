/* gpudet.h: GPUDet's parts, shared by the files of timing/gpudet/ (spec gpudet.md).
 *
 * A run is a sequence of quanta, the epochs of an instance of the engine skeleton
 * (timing/engine/skeleton.h). Each quantum: parallel mode (gd_run_workgroup, each host thread
 * for the workgroup slots of the SMs it owns), commit (gd_commit, each host thread its shares of
 * the chunks), then alone serial mode and the next quantum's work distribution (gd_serial,
 * gd_distribute). Global memory changes only in commit and serial mode; in parallel mode each warp
 * sees memory as it was at the quantum start plus its own store buffer, and the warps of a
 * CTA take turns on one host thread in a fixed order, so shared memory is deterministic too.
 */
#ifndef PTXSIM_TIMING_GPUDET_GPUDET_H
#define PTXSIM_TIMING_GPUDET_GPUDET_H

#include "timing/engine/engine_internal.h"

/* ---------------------------------------------------------------- store buffer (S6) */

#define GD_CHUNK 128u
typedef unsigned __int128 gd_mask;   /* one bit per byte of a chunk */

/* The log: one entry per 128-byte chunk a store instruction touches, in program order. */
typedef struct gd_entry {
    gd_mask mask;             /* bytes the instruction stored in the chunk */
    uint64_t chunk;           /* chunk address (128-byte aligned) */
    int32_t prev;             /* the previous entry of the same chunk, or -1 */
} gd_entry;

/* The image of one chunk: each stored byte's newest value. */
typedef struct gd_line {
    gd_mask mask;             /* bytes stored */
    uint64_t chunk;
    int32_t newest;           /* the chunk's newest log entry */
    uint8_t data[GD_CHUNK];
} gd_line;

/* A warp slot's store buffer: the log and the per-chunk image (store_buffer.c), with an index
 * from chunk to line: an exact filter in place of the paper's Bloom filter. */
typedef struct gd_sb {
    gd_entry *e;              /* the log */
    uint32_t n, cap;
    gd_line *lines;
    uint32_t nlines, lines_cap;
    int32_t *index;           /* open addressing, chunk -> line, -1 = empty */
    uint32_t *used_pos;       /* the index position of each line, to clear them quickly */
    uint32_t index_cap;
} gd_sb;

void gd_sb_init(gd_sb *sb);
void gd_sb_free(gd_sb *sb);
/* Empties the log (after commit). */
void gd_sb_reset(gd_sb *sb);
/* Appends one warp-level store (every piece of op, in ascending lane order, so the highest
 * lane wins a byte two lanes store, S3.4). Returns the entries appended (one per chunk the
 * instruction touches), or -1 when memory ran out. */
int gd_sb_store(gd_sb *sb, const emu_mem_op *op);
/* Overlays the buffered bytes of [addr, addr+size) on dst, each byte from the newest entry that
 * holds it; bytes no entry holds are left alone. Returns how many bytes came from the buffer. */
unsigned gd_sb_read(const gd_sb *sb, uint64_t addr, unsigned size, uint8_t *dst);
/* gd_sb_read for every piece of a warp-level load; returns the lanes that took at least one
 * byte from the buffer. */
uint32_t gd_sb_read_op(const gd_sb *sb, emu_mem_op *op);
/* Writes the buffered bytes of the chunks in share `part` of `nparts` to memory, each byte the
 * warp's newest write of it (what applying the log oldest entry first gives). Returns the
 * bytes written. */
uint64_t gd_sb_commit(const gd_sb *sb, uint32_t part, uint32_t nparts);
/* Which share of nparts a chunk belongs to in commit mode. */
uint32_t gd_chunk_share(uint64_t chunk, uint32_t nparts);

/* ---------------------------------------------------------------- slots */

enum { GD_IDLE, GD_PAR, GD_WFW, GD_ENDED };          /* warp slot state in a quantum (S3.2) */
enum { GD_PEND_NONE, GD_PEND_ATOMIC, GD_PEND_CALL };  /* what waits for serial mode */

/* A hardware warp slot: its store buffer and instruction counter outlive the warps that use it
 * (a CTA launched into a slot mid-quantum inherits both, S5.2). */
typedef struct gd_slot {
    uint32_t wid;             /* hardware warp ID: commit priority (lower wins) and W-Ser order */
    uint32_t sm, local;       /* SM and warp slot within it: CU-Ser order */
    emu_warp *w;              /* the warp in the slot, or NULL */
    gd_sb sb;
    uint64_t used;            /* warp instructions this quantum */
    uint8_t state;
    uint8_t reason;           /* timing_quantum_end once GD_ENDED */
    uint8_t stop_reason;      /* set by the policy when it stops the warp (ATOMIC, FENCE) */
    uint8_t pending;          /* GD_PEND_*: the instruction serial mode runs */
    uint32_t sb_cap;          /* entries that fill the store buffer (0: unbounded, the paper) */
    struct gd_exec *exec;     /* the host thread's state while it runs this slot's warp */
} gd_slot;

/* A workgroup (CTA) slot of an SM, the skeleton's slot `es` with GPUDet's state: slot k of SM
 * sm owns warp slots k*W .. k*W+W-1 of it. */
typedef struct gd_wg {
    uint32_t gslot, sm, k;    /* gslot = k * SMs + sm (S5.1) */
    eng_slot *es;             /* the skeleton's slot: its CTA (es->cta, or NULL) and storage */
    gd_slot *warps;           /* W warp slots */
    bool active;              /* occupied at this quantum's work distribution */
    bool ending;              /* BTA: a warp ended parallel mode before a barrier (S4.1) */
    uint64_t dwp_popped;      /* CTAs taken from this slot's DWP queue this quantum */
    uint64_t launches;        /* CTAs launched here so far (--timing's record of placement) */
} gd_wg;

/* What one host thread is doing; the memory policy reaches it through the warp's slot (the
 * warp's EMU_POLICY_DET state), so nothing is thread-local. */
typedef struct gd_exec {
    eng_thread *T;            /* the skeleton's thread: its CTA storage pool */
    bool serial;              /* serial mode: operations go to memory at once */
    timing_stats st;          /* this thread's counts, added up at the end */
    uint64_t deferred;        /* instructions deferred (counted again when they run) */
    bool oom;
} gd_exec;

/* The GPUDet memory policy: buffers global stores, reads own writes, defers atomics and device
 * calls, ends the quantum at fences; in serial mode (or outside the engine) it is direct. */
emu_mem_policy *gd_policy(void);

/* ---------------------------------------------------------------- a run */

/* A grid's run: the skeleton's run (its SMs, slots and threads) with GPUDet's state. */
typedef struct gd_run {
    eng_run E;                /* first: the skeleton hands it back to the phases */
    emu_grid *g;
    const timing_engine_config *cfg;
    uint32_t nsm, K, W;       /* SMs, CTA slots per SM, warps per CTA */
    uint32_t nwg;             /* workgroup slots: min(nsm * K, CTAs) */
    uint64_t Q;
    bool bta, dwp;
    uint64_t ncta;
    gd_wg *wgs;               /* by gslot */
    gd_slot *slots;
    /* Pending CTAs in ascending order: left[head..nleft) (returned from DWP queues), then
     * [fresh, ncta). */
    uint64_t *left;
    size_t head, nleft, capleft;
    uint64_t fresh;
    /* This quantum */
    gd_wg **active;           /* occupied at work distribution, ascending gslot */
    uint32_t nactive;
    gd_slot **commit_order;   /* their warp slots, descending wid */
    uint32_t ncommit;
    bool order_stale;
    gd_slot **serial;         /* scratch for serial mode */
    gd_exec *exec;            /* per host thread */
    bool failed;
    uint64_t quanta;
    timing_watchdog wd;       /* the launch's time / instruction limit (engine/watchdog.c) */
} gd_run;

/* Pending CTAs (distribute.c). */
uint64_t gd_pending_count(const gd_run *R);
uint64_t gd_pending_at(const gd_run *R, uint64_t i);
/* Work distribution (S5.1) and DWP bookkeeping at a quantum start, counting into X; false
 * when out of memory. */
bool gd_distribute(gd_run *R, gd_exec *X);
/* DWP (S5.2): the next CTA of wg's partition, or false. */
bool gd_dwp_next(gd_run *R, gd_wg *wg, uint64_t *cta);
/* Binds the warps of wg's CTA to its warp slots. */
void gd_bind(gd_run *R, gd_wg *wg);
/* Launches CTA `cta` into the empty slot wg (in storage from X's thread's pool) and binds its
 * warps, counting it into X; false when out of memory. */
bool gd_launch(gd_run *R, gd_wg *wg, uint64_t cta, gd_exec *X);
/* Retires wg's finished CTA, counting its instructions; its storage goes to X's thread's pool. */
void gd_retire(gd_run *R, gd_wg *wg, gd_exec *X);

/* Parallel mode of one workgroup slot (quantum.c). */
void gd_run_workgroup(gd_run *R, gd_wg *wg, gd_exec *X);
/* Commit mode, share `part` of nparts (commit.c). */
void gd_commit(gd_run *R, uint32_t part, uint32_t nparts, gd_exec *X);
/* Rebuilds R->commit_order from R->active. */
bool gd_commit_order(gd_run *R);
/* Serial mode (serial.c): every pending atomic and call, in the configured order. */
void gd_serial(gd_run *R, gd_exec *X);

#endif
