/* dab.h: deterministic atomic buffering's parts, shared by the files of timing/dab/ (spec
 * dab.md; paper: Chou et al., "Deterministic Atomic Buffering", MICRO-53).
 *
 * A run is a sequence of epochs of the engine skeleton (timing/engine/skeleton.h), each ended
 * by one GPU-wide flush:
 *
 *   phase "sms" (per SM):        each SM runs its warps (sm.c) until every one of them waits
 *                                for the flush, the atomic token, a barrier, or has exited
 *   barrier
 *   phase "commit" (per share):  the plain global stores of the epoch reach memory, SM after SM
 *   barrier, whose last thread alone runs the flush (flush.c): the atomic buffers in the
 *                                sub-partitions' round-robin order, then the flush-class
 *                                operations in warp order, then the next epoch's start
 *
 * Atomics (buffer.c, policy.c): a relaxed atomic whose result is not used (`red`, or `atom`
 * whose destination the function never reads) goes into the atomic buffer of its warp's
 * scheduler (or of the warp itself, WarpGTO), in the order the determinism-aware scheduler
 * allows (GWAT's token, GTAR's rounds, GTRR, SRR: sched.c), lanes ascending, fused with an
 * entry of the same address, operation and type. One that does not fit closes the buffer (G1a)
 * and waits for the flush. Every other atomic (its result used, cas, exch), device calls
 * (printf, malloc, free) and fences wait for the flush: they are "flush-class" (spec S4).
 *
 * Plain global loads and stores: the paper gives racy programs no guarantee. Here each SM's
 * plain global stores stay in the SM's store buffer (GPUDet's, timing/gpudet/store_buffer.c)
 * until the flush, where they are committed SM by SM (the highest SM's byte wins); the SM's
 * own loads see them at once. So what one SM reads never depends on how far another host
 * thread has got, and a racy program's result is deterministic too. A race-free program cannot
 * tell: it communicates across SMs only through atomics and fences, and those wait for a flush.
 */
#ifndef PTXSIM_TIMING_DAB_DAB_H
#define PTXSIM_TIMING_DAB_DAB_H

#include "timing/engine/engine_internal.h"
#include "timing/gpudet/gpudet.h"   /* gd_sb: the per-SM store buffer of plain stores */

/* ---------------------------------------------------------------- atomic buffer (S5) */

/* One buffered lane atomic: the paper's 9-byte entry (address, argument, opcode), with the
 * argument widened to 8 bytes so that 64-bit atomics buffer too (G5: 13-byte entries). */
typedef struct dab_entry {
    uint64_t addr;
    uint64_t arg;             /* the operand; fused entries hold the combined operand */
    uint16_t aop;             /* PTX_SFX_ADD, MIN, ... */
    uint8_t type;             /* the operand type (ptx_type) */
    uint8_t size;             /* bytes */
} dab_entry;

typedef struct dab_buf {
    dab_entry *e;
    uint32_t n, cap;
    int32_t *index;           /* open addressing over the fusable entries: entry or -1 */
    uint32_t imask;
    bool closed;              /* an atomic did not fit: no more inserts until the flush (G1a) */
} dab_buf;

bool dab_buf_init(dab_buf *b, uint32_t cap);
void dab_buf_free(dab_buf *b);
/* After the flush: empty and open. */
void dab_buf_reset(dab_buf *b);
/* Whether two atomics of operation aop may be combined into one entry (G6: add, min, max, and,
 * or, xor; not inc, dec, cas, exch). */
bool dab_fusable(uint16_t aop);
/* Inserts the n lane atomics of one warp instruction (lanes ascending), all or nothing (S5.4):
 * each fuses (when fusion is on) into a valid entry of the same address, operation and type, or
 * takes the next free entry. False, with the buffer closed and nothing inserted, when the
 * entries the instruction needs after fusion exceed the free ones. *fused counts the fused
 * lanes. */
bool dab_buf_insert(dab_buf *b, const dab_entry *a, uint32_t n, bool fusion, uint32_t *fused);

/* ---------------------------------------------------------------- flush order (S8, G3, G4) */

/* One entry on its way to the ROP: its sub-partition, its transaction's sequence number among
 * the transactions of its SM to that sub-partition, its SM, and its place in the SM's stream. */
typedef struct dab_item {
    uint32_t subp, seq, sm, pos;
    const dab_entry *e;
} dab_item;

/* The memory sub-partition (L2 slice) of an address: 256-byte interleave over nsubp. */
uint32_t dab_subpartition(uint64_t addr, uint32_t nsubp);
/* Appends SM sm's stream to out: its buffers bufs[0..nb) in scheduler order, each from entry
 * `start` round to its last entry and then from entry 0 (from entry 0 when it holds no more
 * than `start`); with coalescing, the entries of one 32-byte sector of a buffer form one
 * transaction at the place of its first entry (in buffer-index order inside it). seq[nsubp] is
 * the SM's per-sub-partition transaction count (zero it for each SM). Returns the items
 * appended and adds the transactions to *ntxn. out needs room for every entry of the buffers. */
size_t dab_drain_sm(const dab_buf *bufs, uint32_t nb, uint32_t sm, uint32_t nsubp,
                    bool coalescing, uint32_t start, uint32_t *seq, dab_item *out,
                    uint64_t *ntxn);
/* Sorts items into the order the ROPs apply them: each sub-partition takes transaction 1 of
 * SM 0, of SM 1, ..., then transaction 2 of each, ... (S8.2 step 3); entries of one transaction
 * in buffer-index order. Sub-partitions are independent, so they go one after another. The
 * items must be as dab_drain_sm appended them, SM after SM in ascending order. */
void dab_order(dab_item *items, size_t n);
/* Applies the items to memory in their order (emu_atomic_apply, the ROP's arithmetic). */
void dab_apply(const dab_item *items, size_t n);

/* ---------------------------------------------------------------- warps and SMs */

enum { DAB_RUN, DAB_WAIT_TOKEN, DAB_WAIT_FLUSH };   /* a warp slot's state in an epoch */

struct dab_sm;
struct dab_exec;

/* A hardware warp slot of an SM. */
typedef struct dab_warp {
    emu_warp *w;              /* the warp in the slot, or NULL */
    struct dab_sm *sm;
    uint32_t slot;            /* warp slot within the SM: CTA slot k, warp i -> k * W + i */
    uint32_t buf;             /* its atomic buffer: its scheduler's (slot mod schedulers), or
                                 with warp-level buffers its own (the slot) */
    uint8_t wait;             /* DAB_RUN / DAB_WAIT_* */
    bool pending;             /* a flush-class operation waits to run in flush order */
    bool grant;               /* GTAR: the warp's atomic is in the current round */
    uint64_t used;            /* warp instructions this epoch */
    struct dab_exec *exec;    /* the host thread's state while the warp runs */
} dab_warp;

typedef struct dab_sm {
    uint32_t id;
    struct dab_run *R;
    dab_buf *bufs;            /* one per scheduler (or per warp slot: R->nbuf) */
    gd_sb sb;                 /* the epoch's plain global stores */
    dab_warp *warps;          /* K * W */
    uint32_t nk;              /* CTA slots this SM has (its share of the grid may be smaller) */
    eng_slot **slots;         /* the skeleton's CTA slots, by k */
    bool *cta_flush;          /* per CTA slot: its warps wait for the flush after a barrier */
    uint32_t token;           /* the warp slot holding the atomic token (GWAT) */
    bool srr;                 /* GTRR: past the greedy start, strict round robin from now on */
    uint32_t last;            /* the warp slot that had the last turn */
    uint64_t next;            /* the next of the SM's CTAs (sm, sm + SMs, ...) to launch */
    uint8_t **cls;            /* per function, per pc: 0 unknown, 1 buffered, 2 flush-class */
    uint64_t ran;             /* warp instructions this epoch */
    bool oom;
} dab_sm;

/* What one host thread is doing. */
typedef struct dab_exec {
    eng_thread *T;
    bool direct;              /* the flush runs flush-class operations: straight to memory */
    timing_stats st;
    uint64_t deferred;        /* instructions deferred (counted again when they run) */
} dab_exec;

typedef struct dab_run {
    eng_run E;                /* first: the skeleton hands it back to the phases */
    emu_grid *g;
    const timing_engine_config *cfg;
    const ptx_module *ptx;
    uint32_t nsm, K, W, S;    /* SMs, CTA slots per SM, warps per CTA, schedulers per SM */
    uint32_t nsubp, entries;
    bool warp_buffers;        /* WarpGTO (S5.2): a buffer per warp slot, plain GTO */
    uint32_t nbuf;            /* buffers per SM */
    bool fusion, coalescing, offset_flush;
    uint32_t gsm;             /* SMs CTAs are distributed over (SM gating: the first gsm) */
    timing_dab_scheduler sched;
    uint64_t cap;             /* warp instructions per warp and epoch */
    uint64_t turn;            /* warp instructions per turn (outside lockstep) */
    uint64_t ncta;
    dab_sm *sms;
    dab_warp *warps;
    dab_exec *exec;
    dab_item *items;          /* the flush's entries */
    size_t items_cap;
    uint32_t *seq;            /* nsubp */
    dab_warp **serial;        /* scratch: flush-class operations in order */
    bool failed;
    uint64_t epochs;
    timing_watchdog wd;
} dab_run;

/* The DAB memory policy (policy.c). */
emu_mem_policy *dab_policy(void);
/* Whether the atomic op of warp w is buffered (a relaxed reduction whose result is unused) or
 * flush-class (policy.c). */
bool dab_buffered(dab_sm *S, emu_warp *w, const emu_mem_op *op);
/* Whether the scheduler lets warp dw put its atomic into the buffer now, and what follows
 * when it did (sm.c). */
bool dab_may_insert(const dab_sm *S, const dab_warp *dw);
void dab_inserted(dab_sm *S, dab_warp *dw);
/* Whether dw can run now (sched.c). */
bool dab_ready(const dab_sm *S, const dab_warp *dw);
/* Whether the SM's warps go one instruction per turn (SRR, and GTRR once it switched). */
bool dab_lockstep(const dab_sm *S);
/* Before each pick: GWAT hands on a token its holder cannot use. */
void dab_before_pick(dab_sm *S);
/* No warp is ready: true when the scheduler let waiting warps go on (a GTAR round, GTRR's
 * switch to SRR), false when the SM's epoch is over. */
bool dab_none_ready(dab_sm *S);
/* One SM's part of an epoch (sm.c). */
void dab_run_sm(dab_run *R, dab_sm *S, dab_exec *X);
/* The SM's CTAs whose warps are all stuck at barriers: reported as deadlocks (sm.c). */
bool dab_sm_deadlocks(dab_run *R, dab_sm *S);
/* Retires the finished CTAs of S and launches its next ones (sm.c). */
bool dab_sm_fill(dab_run *R, dab_sm *S, dab_exec *X);
/* The GPU-wide flush, alone (flush.c). */
bool dab_flush(dab_run *R, dab_exec *X);

#endif
