/* kilotm.h: KILO TM's functional model, shared by the files of timing/kilotm/ (spec kilotm.md).
 *
 * A memory policy (policy.c) composed over the launch's own: transactional global loads and
 * stores go to per-lane logs (log.c), a warp's lanes at tx_commit are validated by value and
 * committed together (commit.c), and lanes that fail go back to their tx_begin from a warp
 * checkpoint (registers and local memory) in a transaction entry of the SIMT stack. Under
 * GPUDet (timing_kilotm_over) the policy sits over GPUDet's: a commit is deferred to GPUDet's
 * serial mode (deterministic order, memory with every store buffer committed), and first reads
 * go through GPUDet (quantum-start memory and the warp's own buffered stores). A tx_begin that
 * must take a concurrency slot is deferred to serial mode too, so slots go to warps in GPUDet's
 * order (a warp that finds none waits for the next quantum's serial mode). */
#ifndef PTXSIM_TIMING_KILOTM_KILOTM_H
#define PTXSIM_TIMING_KILOTM_KILOTM_H

#include "timing/timing.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* One 32-bit word of a log: conflicts are detected per word (paper section 4). A write entry
 * holds the bytes written (bytes: bit i = byte i of the word), so sub-word stores commit only
 * what they wrote. */
typedef struct kt_entry {
    uint64_t addr;      /* word address (a multiple of 4), a device address */
    uint32_t value;
    uint32_t bytes;
} kt_entry;

typedef struct kt_log {
    kt_entry *v;
    uint32_t n, cap;
} kt_log;

/* A lane's transaction: its read-set (the value each word had when first read) and write-set
 * (its own writes, seen by its own later reads), and how deeply nested it is (flattened). */
typedef struct kt_lane {
    kt_log reads, writes;
    uint32_t depth;
    uint32_t aborts;                 /* of this transaction so far */
} kt_lane;

/* Lanes that began a transaction together, with their checkpoint. */
typedef struct kt_attempt {
    uint32_t lanes;                  /* lanes of it still inside their transaction */
    emu_warp_checkpoint *ck;
} kt_attempt;

/* A warp's last commit step, for the cycle model's commit units (cycles.c; kept only when the
 * policy is timed): per lane in lane order, how many words of each set it sent, whether it
 * passed, and the words' addresses (reads then writes, lane after lane). */
typedef struct kt_commit_rec {
    uint32_t lanes;                  /* lanes of the step, in lane order (0: none pending) */
    uint32_t passed;
    uint32_t nreads[EMU_WARP_SIZE], nwrites[EMU_WARP_SIZE];
    uint64_t *addr;
    uint32_t naddr, cap;
} kt_commit_rec;

typedef struct kt_warp {
    emu_warp *w;
    uint32_t in_tx;                  /* lanes inside a transaction (depth > 0) */
    uint32_t sm;
    bool holds_slot;                 /* counted in its SM's transactional warps */
    uint32_t begun;                  /* lanes to checkpoint when the run stops */
    uint32_t aborted;                /* lanes to send back to their tx_begin when it stops */
    uint32_t doomed;                 /* lanes whose reads became inconsistent: aborted inside
                                        the transaction when the run stops */
    uint32_t base[EMU_WARP_SIZE];    /* per lane in a transaction: the SIMT entry it runs in */
    uint32_t retry_rpc;              /* where they reconverge: the instruction after tx_commit */
    kt_attempt *att;
    uint32_t natt, att_cap;
    kt_lane lane[EMU_WARP_SIZE];
    kt_commit_rec rec;               /* timed: the commit step the model has not taken yet */
    bool deferred;                   /* timed: its last tx_begin waited for a slot */
    bool slot_pending;               /* timed: its slot goes back when the model says so */
    bool exit_pending;               /* timed: exited; released once the model took its record */
    struct kt_warp *next;            /* every state of the policy, for freeing */
    struct kt_warp *next_free;       /* the policy's free list */
} kt_warp;

typedef struct kt_policy {
    emu_mem_policy pol;
    uint32_t warps_per_sm;           /* concurrency limit, 0 = none */
    uint32_t nsm;
    bool timed;                      /* the cycle model times the commits (cycles.c) */
    bool over_det;                   /* over GPUDet: first reads and commits go through it */
    bool recorded;                   /* GPUDet's run is recorded for the cycle model: the
                                        commit steps are kept (cycles.c) */
    uint32_t *tx_warps;              /* per SM: warps inside a transaction (atomics) */
    uint32_t *tx_lanes;              /* per SM: lanes inside a transaction (atomics) */
    uint32_t tx_lanes_all;           /* the same in the GPU (atomic) */
    pthread_mutex_t commit_lock;     /* commits are validated and written one warp at a time */
    pthread_mutex_t states_lock;     /* the lists below */
    kt_warp *all, *free_list;
    timing_kilotm_stats st;          /* under commit_lock */
} kt_policy;

/* ---- stats.c */
/* n lanes of SM sm entered (n > 0) or left (n < 0) their transactions: the concurrency maxima. */
void kt_stats_concurrency(kt_policy *P, uint32_t sm, int n);
/* Lane ln committed (under P->commit_lock): the per-transaction maxima and committed sets. */
void kt_stats_committed(kt_policy *P, const kt_lane *ln);

/* ---- policy.c */
/* Forgets warp s's transactions and gives its slot back (its warp exited). */
void kt_release_state(kt_policy *P, kt_warp *s);

/* ---- cycles.c: the commit units in the cycle model; the policy side: */
/* Keeps lane l's sets (before they are emptied) in s's commit record; false when out of
 * memory. */
bool kt_rec_lane(kt_warp *s, int l, bool passed);

/* ---- log.c */
/* False when host memory runs out. */
bool kt_log_append(kt_log *l, uint64_t addr, uint32_t value, uint32_t bytes);
kt_entry *kt_log_find(const kt_log *l, uint64_t addr);
void kt_log_free(kt_log *l);
/* A transactional load of `size` bytes at addr into dst (read-own-writes, then the read-set,
 * then memory, which enters the read-set after the read-set so far is validated with it).
 * KT_DOOMED: the read-set no longer holds (the lane must abort before it uses what it read);
 * never when !may_abort (the value is logged and the commit's validation fails instead). */
enum { KT_OK, KT_NO_MEMORY, KT_DOOMED };
int kt_tx_load(struct kt_policy *P, emu_warp *w, int lane, kt_lane *ln, uint64_t addr,
               uint32_t size, uint8_t *dst, bool may_abort);
/* A transactional store of `size` bytes at addr from src into the write-set. */
bool kt_tx_store(kt_lane *ln, uint64_t addr, uint32_t size, const uint8_t *src);

/* ---- commit.c */
/* Does every word of ln's read-set still hold what ln read? (under P->commit_lock) */
bool kt_still_valid(const kt_lane *ln);
/* Validates and commits the transactions of lanes `lanes` of warp s together, in lane order;
 * returns the lanes that failed validation (their logs are emptied for the retry). */
uint32_t kt_commit(kt_policy *P, kt_warp *s, uint32_t lanes);

#endif
