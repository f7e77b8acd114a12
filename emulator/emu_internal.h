/* emu_internal.h: the emulator's private structures, shared by its files only.
 *
 * A warp keeps its registers slot-major (regs[slot][32]) so a JIT can address them the same
 * way; a SIMT stack of {pc, reconvergence pc, mask} entries drives divergence; call frames sit
 * on top of each other, each with its own register file and its own piece of every lane's
 * local memory.
 */
#ifndef PTXSIM_EMULATOR_EMU_INTERNAL_H
#define PTXSIM_EMULATOR_EMU_INTERNAL_H

#include "emulator/emu.h"
#include "emulator/sem/sem.h"
#include "emulator/decode/decode.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>

/* Per-thread local memory reserved for call frames beyond the kernel's own frame (CUDA's
 * default stack is 1 KiB; recursion in tests needs more). */
#define EMU_CALL_STACK_BYTES (16u * 1024u)
#define EMU_MAX_CALL_DEPTH 1024u
#define EMU_NBARRIERS 16
/* Back-edges a diverged path may take in a row before the waiting lanes get to run. */
#define EMU_SPIN_LIMIT 1024u

typedef struct emu_ctx emu_ctx;

/* The JIT's compiled code of one function (emulator/jit/): runs the warp of c from µop pc (the
 * top SIMT entry's pc, settled) for at most budget warp instructions, exactly as the block
 * interpreter's inner loop runs it, and returns the instructions it issued (w->ninstr is kept
 * up to date as it goes). It leaves the SIMT stack and c->stop as that loop leaves them. */
typedef uint64_t (*emu_jit_entry)(emu_ctx *c, uint32_t pc, uint64_t budget);
enum { EMU_JIT_NONE, EMU_JIT_QUEUED, EMU_JIT_READY, EMU_JIT_FAILED };
/* A function's two compiled variants: the plain one, and the one that records the launch's
 * events as the interpreter does (into the warp's ring, which the executor's loop hands it
 * with room for every instruction it may run), for launches with a sink, so that the
 * plain one pays nothing for them. */
enum { EMU_JIT_PLAIN, EMU_JIT_EVENTS, EMU_JIT_VARIANTS };

/* Where a kernel puts one shared variable (offset in its static window; extern arrays at the
 * start of the dynamic part). */
typedef struct emu_shared_slot {
    int32_t sym;
    uint64_t off;
} emu_shared_slot;

/* What the loader works out for each function. */
/* Consecutive register slots [first, first + count) of a function's frame. */
typedef struct emu_row_run { uint32_t first, count; } emu_row_run;

/* The register rows a µop reads or writes through its first four operands and its guard, as
 * a cycle model's run-ahead asks the host's caches for them (run.c): `row` offsets in its
 * frame's registers, the first `wide` of them whole rows (four lines), the rest predicates
 * (a row's first line). The fresh ones, those the three µops before it (in code order) do not
 * ask for, come first in each part: fresh_wide of the wide, fresh_narrow of the rest. */
typedef struct emu_uop_rows {
    uint8_t n, wide, fresh_wide, fresh_narrow;
    uint32_t row[5];
} emu_uop_rows;

/* The rows compiled code's run-ahead asks for where it enters a function at a µop (run.c):
 * those of that µop and the EMU_ENTRY_LOOK - 1 after it (emu_uop_rows'), each row once, whole
 * rows first. Per µop pc, row[at[pc], at[pc + 1]), the first wide[pc] of them whole rows (four
 * lines), the rest a row's first line that no whole row of the list has. In each part, the
 * rows that those µops read before any writes come first: read_wide[pc] of the whole rows,
 * read_narrow[pc] of the rest (a hint a run ahead asks for those only). One allocation, freed
 * with the table. */
#define EMU_ENTRY_LOOK 8   /* the µops from an entry whose rows its list holds */
typedef struct emu_entry_rows {
    const uint32_t *at, *row;
    const uint8_t *wide, *read_wide, *read_narrow;
} emu_entry_rows;

/* The fields of a µop's event that the µop alone decides (emu_event's first 24 bytes, laid
 * out as there; active and mask are the run's), copied into each event it records (run.c):
 * built field by field at every event, they were a fifth of a timed run's loop. */
typedef struct emu_event_head {
    uint32_t pc, func, active, mask;
    uint16_t op;
    uint8_t cls, stop, flags, space;
    uint16_t size;
} emu_event_head;

typedef struct emu_func {
    const ptx_function *fn;
    uint32_t index;
    emu_code code;            /* the decoded µops (handlers included) */
    uint8_t *region_marks;    /* iGPU: per instruction, what emu_module_set_region_boundaries
                                 gave it (NULL: no boundaries) */
    uint64_t param_base;      /* frame offset of the function's .param area */
    uint64_t frame_size;      /* local bytes one activation takes per thread */
    /* kernels: the static shared layout of everything the kernel (and its callees) uses */
    uint64_t static_smem;
    struct emu_shared_slot *shared;   /* the shared variables it uses, by symbol id */
    uint32_t nshared;
    bool calls;               /* it (or a callee) calls functions */
    uint64_t max_stack;       /* kernels: local bytes per thread the launch reserves */
    /* kernels: the slots a reused warp zeroes before it starts (entry_rows.c); every slot
     * when not planned */
    emu_row_run *entry_rows;
    uint32_t nentry_runs;
    bool entry_rows_planned;
    /* kernels: no instruction can write shared memory (shared_writes.c); false unless shown */
    bool no_shared_writes;
    /* per µop, its rows for the run-ahead's prefetch (run.c), made at its first use */
    _Atomic(emu_uop_rows *) uop_rows;
    /* per µop, the rows compiled code's run-ahead asks for entering there (run.c), made at
     * its first use */
    _Atomic(emu_entry_rows *) entry_rows_ahead;
    /* per µop, its events' head (run.c), made at its first event */
    _Atomic(emu_event_head *) event_heads;
    /* per µop, what emu_grid_instr gives for it (warp_peek.c), made at its first use */
    _Atomic(emu_next_instr *) next_instrs;
    /* The JIT's state of this function (emulator/jit/), written by the JIT only */
    /* compiled code per variant (EMU_JIT_PLAIN, EMU_JIT_EVENTS), NULL until EMU_JIT_READY */
    _Atomic(emu_jit_entry) jit_entry[EMU_JIT_VARIANTS];
    _Atomic int jit_status[EMU_JIT_VARIANTS];   /* EMU_JIT_* */
    _Atomic uint64_t jit_heat;          /* warp instructions it ran interpreted (engine auto) */
    void *jit_owner[EMU_JIT_VARIANTS];  /* the JIT's handle on the code (freed with it) */
    _Atomic bool jit_probed;            /* auto looked for its event variant in the caches */
} emu_func;

/* f's entry rows, made at the first ask by whichever host thread asks (interp/run.c); NULL
 * when no memory can be had */
const emu_entry_rows *emu_entry_rows_of(const emu_func *f);

/* The offset of shared variable sym in kernel k's layout, UINT64_MAX when k does not use it. */
uint64_t emu_kernel_shared_offset(const struct emu_func *k, int32_t sym);

struct emu_module {
    const ptx_module *ptx;
    emu_func *funcs;
    uint32_t nfuncs;
    uint64_t *var_addr;       /* module-scope .global/.const: device address, by symbol id */
    uint64_t *frame_off;      /* function-scope .local/.param: offset in the frame, by id */
    bool *is_input_param;     /* function parameters and return values, by symbol id */
    bool region_boundaries;   /* emu_module_set_region_boundaries marked a function */
};

/* What a SIMT entry stands for. Normal entries are the divergence stack; KILO TM's
 * transaction-aware stack adds the others (a retry entry holds lanes that re-execute from a
 * checkpoint, a transaction entry the lanes inside a transaction); the executor runs them all
 * alike, and the policies that push them give them meaning. */
typedef enum emu_simt_kind { EMU_SIMT_NORMAL = 0, EMU_SIMT_RETRY, EMU_SIMT_TX } emu_simt_kind;

/* One SIMT path: lanes `mask` at pc, reconverging at rpc. bar is 0, 1 + the id of the CTA
 * barrier the lanes wait at, or EMU_SIMT_WARP_SYNC when they wait at a bar.warp.sync for other
 * lanes of its member mask (pc is then past the barrier instruction): with independent thread
 * scheduling a barrier blocks only the lanes that executed it, so the warp's other paths go on
 * (emu_simt_schedule) and the warp as a whole waits only when none of them can run. */
#define EMU_SIMT_WARP_SYNC UINT16_MAX
typedef struct emu_simt {
    uint32_t pc, rpc, mask;
    uint16_t bar;
    uint8_t kind;             /* emu_simt_kind */
} emu_simt;

typedef struct emu_frame {
    const emu_func *f;
    size_t reg_base;          /* index of this frame's registers in the warp's file */
    uint64_t local_base;      /* local-space offset of this frame (same for every lane) */
    uint32_t stack_base;      /* first SIMT entry of this frame */
    uint32_t call_mask;       /* lanes that made the call */
    const ptx_instr *call;    /* the caller's call instruction */
} emu_frame;

enum { EMU_WS_READY, EMU_WS_BARRIER, EMU_WS_EXITED, EMU_WS_FAULT };

/* entries of emu_warp.jit_hit: 8, so that a kernel's arrays up to eight keep one each
 * (Black-Scholes' five over four missed twice per warp, its first and last arrays taking
 * turns at entry 0: a call of emu_jit_refill each, the vector registers spilled around it) */
#define EMU_JIT_HITS 8
/* entries of emu_warp.fast_hit */
#define EMU_FAST_HITS 4
/* entries of emu_warp.jit_prefetch */
#define EMU_JIT_PREFETCH_SITES 4

struct emu_warp {
    emu_cta *cta;
    uint32_t id;
    uint32_t valid;           /* lanes that exist (the last warp may be partial) */
    uint32_t exited;          /* lanes that have exited (and lanes that never existed) */
    uint8_t state;
    emu_simt *stack;
    uint32_t sp, stack_cap;
    emu_frame *frames;
    uint32_t nframes, frames_cap;
    uint64_t *regs;
    size_t regs_used, regs_cap;
    bool regs_lent;           /* regs lie in its CTA's block (emu_cta.regs): not freed or
                                 reallocated here */
    uint8_t *local;           /* lanes * local_per_thread bytes, allocated on first use */
    uint64_t local_per_thread;
    uint64_t local_dirty;     /* bytes at the start of each lane's local memory that may have
                                 been written (zeroed again when the warp is reused) */
    uint64_t ninstr;
    uint32_t cc;              /* carry flag (CC.CF) per lane */
    uint32_t spin, spin_sp, spin_pc;  /* consecutive uniform back-edges of one SIMT entry */
    uint32_t sync_members;    /* member mask of the last bar.warp.sync lanes wait at */
    const emu_dim3 *tid;      /* its lanes' thread indices: the grid's table (emu_grid.tid) */
    uint64_t cache_base, cache_end, cache_gen;  /* last allocation a lane hit */
    /* compiled code's allocations, one per global access site (its index modulo
     * EMU_JIT_HITS): base, end and the device generation they were found at. A kernel
     * alternates between its arrays, so one entry for the warp would miss at nearly every
     * access of a short warp (vecadd's three per warp); kept when the warp is reused for the
     * next CTA of its slot (emu_warp_reinit): the same grid, and the generation decides. */
    uint64_t jit_hit[EMU_JIT_HITS][3];
    /* compiled code's prefetch hints (jit/translate.c, emit_mem): per global load site in a
     * loop (the first EMU_JIT_PREFETCH_SITES), the address its first active lane last read */
    uint64_t jit_prefetch[EMU_JIT_PREFETCH_SITES];
    /* the interpreter's fast path's last allocations (exec_mem.c, global_bounds: base, end,
     * generation), beside cache_*: for the same reason as jit_hit, and kept as it is; the
     * oldest replaced (fast_hit_next) */
    uint64_t fast_hit[EMU_FAST_HITS][3];
    uint32_t fast_hit_next;
    uint32_t slot;            /* the hardware warp slot the engine gave it */
    uint32_t restart_lanes;   /* lanes waiting after EMU_STOP_RESTART */
    void *user[EMU_POLICY_LEVELS];   /* the policies' per-warp state */
    emu_event *ring;          /* events not yet handed to the sink (EMU_EVENT_RING of them) */
    uint64_t *ring_rows;      /* their address rows (EMU_RING_ROWS_BYTES); when not lent, in
                                 ring's allocation after the events */
    uint32_t nev;
    bool ring_lent;           /* ring and rows are the engine's (emu_warp_lend_ring): not freed
                                 here */
    /* emu_warp_set_clock: what %clock* and %globaltimer* read instead of the counts */
    bool clock_set;
    uint64_t clock_cycles, clock_ns;
    bool ahead;               /* in emu_warp_run_ahead */
    bool ahead_local;         /* in emu_warp_run_local */
    /* stack and frames (their first EMU_WARP_LENT_DEPTH entries) lie in the storage its CTA
     * was built in (emu_cta_create_at): not freed here, and copied out when they grow */
    bool stack_lent, frames_lent;
};
/* SIMT entries and call frames a warp built in lent storage has there (emu_cta_create_at):
 * a warp's first push and frame take the growth's first size, so most warps never grow */
#define EMU_WARP_LENT_DEPTH 8

typedef struct emu_barrier {
    uint32_t arrived;         /* threads arrived */
    uint32_t expected;        /* 0: every live thread of the CTA */
    uint32_t red_popc;
    bool red_and, red_or;
    bool red;                 /* a bar.red arrived: release writes its waiters' results */
} emu_barrier;

struct emu_cta {
    emu_grid *g;
    uint64_t linear;
    emu_dim3 ctaid;
    uint32_t sm;
    uint32_t nthreads, nwarps, live_threads;
    emu_warp *warps;
    uint64_t *regs;           /* its warps' registers, one block (NULL: each warp its own) */
    bool regs_lent;           /* regs are the engine's (emu_cta_create_in): not freed here */
    bool storage_lent;        /* it, its warps and smem lie in the engine's storage
                                 (emu_cta_create_at): not freed here */
    uint8_t *smem;
    uint64_t smem_size;
    emu_barrier bar[EMU_NBARRIERS + 1];   /* the last one serves barrier.cluster.wait */
    uint32_t bar_waiting;     /* bit id: barrier id has arrivals (bar[id].arrived != 0) */
    uint64_t bar_completed;   /* barriers completed (emu_cta_barriers_completed) */
};

struct emu_grid {
    emu_launch launch;
    const emu_func *kf;
    uint8_t *params;
    size_t params_size;
    uint64_t ncta;
    uint32_t nthreads;
    uint64_t smem_size;
    uint64_t local_per_thread;
    pthread_mutex_t lock;
    bool faulted;
    uint64_t fault_cta;
    emu_fault fault;
    uint64_t *warp_counts;    /* compare mode: every warp's instructions, by CTA and warp */
    uint32_t warps_per_cta;
    /* every lane's thread index, 32 per warp of a CTA (zero past the last thread): the same
     * in every CTA, so a warp points at its 32 rather than working them out at every start */
    emu_dim3 *tid;
};

/* grid.c: records c's warps' instruction counts (when the grid keeps them) */
void emu_grid_note_cta_done(emu_grid *g, const emu_cta *c);

/* The executing state of one warp step. */
/* emu_ctx.stop from compiled code that ends its run before the warp's pc, which the
 * interpreter's loop is to run next, to the end of its block, the budget or emu_ctx.next_pc,
 * whichever comes first (the next compiled entry): the budget left is less than the
 * compiled stretch or segment there needs, or the code has no entry at the pc (inside a
 * stretch, or no run entry of a barrier-bound function: emulator/jit/translate.c's
 * stretch_budget(), whole_budget(), run_entry()). */
#define EMU_JIT_INTERPRET (-2)

struct emu_ctx {
    emu_warp *w;
    emu_cta *cta;
    emu_grid *g;
    emu_frame *fr;
    const emu_func *f;
    const ptx_function *fn;
    const emu_code *code;     /* the frame's decoded function */
    const emu_uop *u;         /* the µop executing */
    const emu_module *mod;
    uint64_t *regs;
    uint32_t active;          /* the SIMT top's mask */
    uint32_t mask;            /* active lanes whose guard holds */
    uint32_t pc, next_pc;
    bool control;             /* the handler rewrote the SIMT stack itself */
    bool direct_mem;          /* the policy is the direct one and nothing records events:
                                 memory fast paths may bypass the general path */
    bool param_fast;          /* kernel parameters are read directly (no policy sees the
                                 parameter space): nothing records events, or the direct
                                 policy's fast path records them */
    bool observed_mem;        /* direct_mem, but the policy observes plain accesses after the
                                 fact (EMU_POLICY_OBSERVER) */
    bool direct_events;       /* the policy is the direct one and events are recorded: the
                                 ld/st fast paths record their lanes as the general path does */
    emu_event *ev;            /* the event of the executing instruction, or NULL */
    int stop;                 /* -1, or the emu_stop to return after this instruction, or
                                 EMU_JIT_INTERPRET from compiled code */
    /* compiled code's event variant: ran_before tells it that the run issued an instruction
     * before it was entered (the run-ahead rule's n > 0); it sets ahead_stop when it ends
     * before an instruction the run-ahead may not issue (interp/run.c) */
    bool ran_before;
    bool ahead_stop;
};

/* Runs the statement after it once per lane of c->mask, with the lane in L_. */
#define LANES(c) for (uint32_t mk_ = (c)->mask; mk_; mk_ &= mk_ - 1)
#define L_ (__builtin_ctz(mk_))

/* for (int l = 0; l < EMU_WARP_SIZE; l++) over a whole warp's lanes, for a body that reads and
 * writes only lane l's elements of its rows (two registers' rows are the same row or do not
 * overlap; buffers are the handler's own): no iteration depends on another, which
 * GCC cannot see through the row pointers, so without ivdep it keeps the loop scalar (-O2's
 * cheap vectoriser does not version a loop for aliasing). A lane's arithmetic is the same
 * operation in a vector element as in a scalar register (no contraction: -std=c17 keeps
 * -ffp-contract=off), so results are bit for bit the scalar loop's. */
#define EMU_WARP_LOOP(l) _Pragma("GCC ivdep") for (int l = 0; l < EMU_WARP_SIZE; l++)

/* d[l] = EXPR (an expression of the lane l) for every lane of c->mask, d being the destination
 * operand dst's register row when results of type t may be stored into it directly (emu_dst),
 * else a buffer written back with emu_put. A full mask runs a straight loop over the 32 lanes,
 * so a handler specialised for its modifiers has no per-lane branch. */
#define EMU_LANEWISE(c, dst, t, EXPR)                                                       \
    do {                                                                                    \
        uint64_t lw_buf_[EMU_WARP_SIZE];                                                    \
        uint64_t *lw_row_ = emu_dst((c), (dst), (t));                                       \
        uint64_t *lw_d_ = lw_row_ ? lw_row_ : lw_buf_;                                      \
        if ((c)->mask == 0xffffffffu) {                                                     \
            EMU_WARP_LOOP(l) lw_d_[l] = (EXPR);                                             \
        } else {                                                                            \
            for (uint32_t lw_m_ = (c)->mask; lw_m_; lw_m_ &= lw_m_ - 1) {                   \
                int l = __builtin_ctz(lw_m_);                                               \
                lw_d_[l] = (EXPR);                                                          \
            }                                                                               \
        }                                                                                   \
        if (!lw_row_) emu_put((c), (dst), (t), lw_buf_);                                    \
    } while (0)

/* m = the lane mask of COND (an expression of the lane l) over all 32 lanes (the inactive ones
 * are computed too, and dropped by emu_put_pred). Unrolled: each lane's bit a constant shift. */
#define EMU_LANE_MASK(m, COND)                                                              \
    do {                                                                                    \
        (m) = 0;                                                                            \
        _Pragma("GCC unroll 32") for (int l = 0; l < EMU_WARP_SIZE; l++)                    \
            (m) |= (uint32_t)(bool)(COND) << l;                                             \
    } while (0)

/* The elements of a VEC or LIST operand (o->imm of them). */
static inline const emu_opd *emu_opd_elems(const emu_ctx *c, const emu_opd *o);

/* ---- operands.c: decoded operands. A source read as type t: the register row itself when the
 * register is at least t's width, else the values converted into buf. Inline where it is the
 * row (most sources): a handler's call of it for each operand was a tenth of a timed matmul's
 * interpreter instructions. always_inline: GCC would not inline it (nor emu_dst) into the
 * handlers compiled for the host's FMA instructions (exec_float.c's target attribute). */
const uint64_t *emu_src_any(emu_ctx *c, const emu_opd *o, uint8_t t, uint64_t buf[EMU_WARP_SIZE]);
static inline __attribute__((always_inline)) const uint64_t *
emu_src(emu_ctx *c, const emu_opd *o, uint8_t t, uint64_t buf[EMU_WARP_SIZE])
{
    if (o->kind == EMU_OPD_REG && t != PTX_TYPE_PRED) {
        unsigned bits = emu_type_bits[t];
        if (bits == 0 || bits >= 64 || bits >= o->bits) return c->regs + o->row;
    }
    return emu_src_any(c, o, t, buf);
}
/* A predicate source (or any value read as .pred) as a lane mask, negation applied. */
uint32_t emu_src_pred(emu_ctx *c, const emu_opd *o);
/* The destination row when results of type t may be stored into it directly (a register of
 * exactly t's width), else NULL: write through emu_put. */
static inline __attribute__((always_inline)) uint64_t *emu_dst(emu_ctx *c, const emu_opd *o,
                                                               uint8_t t)
{
    if (o->kind != EMU_OPD_REG || t == PTX_TYPE_PRED || o->bits == 128 ||
        emu_type_bits[t] != o->bits)
        return NULL;
    return c->regs + o->row;
}
/* Writes the lanes of c->mask of v (values of type t) to destination o. */
void emu_put(emu_ctx *c, const emu_opd *o, uint8_t t, const uint64_t v[EMU_WARP_SIZE]);
/* emu_put of the same value x in every lane. */
void emu_put_uniform(emu_ctx *c, const emu_opd *o, uint8_t t, uint64_t x);
/* Writes the lanes of c->mask of bits to predicate destination o. */
void emu_put_pred(emu_ctx *c, const emu_opd *o, uint32_t bits);
/* The address an ADDR or SYM operand names in lane (its space decided by the instruction). */
uint64_t emu_opd_address(emu_ctx *c, const emu_opd *o, int lane);

/* ---- interp.c: operands by their IR form */
uint64_t emu_read(emu_ctx *c, const ptx_operand *o, int lane, uint8_t type);
void emu_read_all(emu_ctx *c, const ptx_operand *o, uint8_t type, uint64_t out[EMU_WARP_SIZE]);
void emu_write(emu_ctx *c, const ptx_operand *o, int lane, uint64_t v, uint8_t type);
void emu_write_all(emu_ctx *c, const ptx_operand *o, uint8_t type,
                   const uint64_t v[EMU_WARP_SIZE]);
uint32_t emu_read_pred_mask(emu_ctx *c, const ptx_operand *o);
/* Address of a symbol as its own space sees it (shared offset, local offset, device addr). */
uint64_t emu_symbol_address(emu_ctx *c, int32_t sym, uint8_t *space);
uint8_t emu_reg_bits(const emu_ctx *c, int32_t reg);
/* The register row (32 lanes) of a register operand, NULL otherwise; a .b128 register has its
 * high half in the next row. */
uint64_t *emu_reg_row(emu_ctx *c, const ptx_operand *o);
/* The instruction's type i, or NONE. */
static inline uint8_t emu_ty(const ptx_instr *in, int i)
{
    return i < in->ntypes ? in->types[i] : PTX_TYPE_NONE;
}

/* ---- fault.c: records a fault of lane at the current instruction; `what` opens the message
 * ("Invalid __global__ write of size 4"), the formatted reason closes it. */
void emu_fault_raise(emu_ctx *c, emu_fault_kind k, int lane, bool has_addr, uint64_t addr,
                     const char *what, const char *whyfmt, ...)
    __attribute__((format(printf, 7, 8)));
void emu_grid_record_fault(emu_grid *g, uint64_t cta_linear, const emu_fault *f);
int emu_format_where(const emu_ctx *c, const ptx_instr *in, char *buf, size_t len);

/* ---- warp.c: SIMT and frames */
void emu_simt_push(emu_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask);
void emu_lanes_exit(emu_ctx *c, uint32_t lanes);
/* Called on a uniform backward branch of a spin loop (see emu_func.spin_loop) by the top SIMT
 * entry: after many in a row while other lanes of the warp wait, lets those lanes go on (as
 * independent thread scheduling would), so a lane spinning on a lock another lane of its warp
 * holds cannot starve it. */
void emu_simt_backedge(emu_ctx *c, uint32_t target);
/* Index of the topmost SIMT entry of the top frame that can run (not waiting at a barrier, and
 * holding no lane of an entry above it), or UINT32_MAX when every one waits. */
uint32_t emu_simt_runnable(const emu_warp *w);
/* Moves the topmost runnable entry of the top frame to the top of the stack; false when none. */
bool emu_simt_schedule(emu_warp *w);
/* bar.warp.sync of the executing lanes (c->mask) with member mask `members`: they go on when
 * every live member lane of the top frame has executed one, else they wait (a member lane on
 * another path, e.g. one spinning that unsticking left behind, arrives later and releases
 * them). Returns the lanes synchronised now (the executing ones and those released), 0 when
 * they wait. When no path of the warp can run, waiting lanes go on unsynchronised
 * (emu_simt_schedule). */
uint32_t emu_warp_sync_arrive(emu_ctx *c, uint32_t members);
/* The frame SIMT entry i belongs to. */
emu_frame *emu_simt_frame(emu_warp *w, uint32_t i);
/* Joins neighbouring entries of the top frame that have come to the same pc and reconvergence
 * point (lanes released from a barrier by separate paths run on together). */
void emu_simt_merge(emu_warp *w);
void emu_lanes_return(emu_ctx *c, uint32_t lanes);
bool emu_call_push(emu_ctx *c, const emu_func *callee, uint32_t mask, const ptx_instr *call);
/* Pops the finished top frame: copies return values to the caller and resumes it. */
void emu_frame_return(emu_ctx *c);
/* Operand indices of a call: return list (-1 if none), callee, argument list (-1 if none). */
void emu_call_operands(const ptx_instr *in, int *rets, int *callee, int *args);
/* Register words of a warp's kernel frame (slots x lanes; at least one row). */
size_t emu_warp_kernel_regs(const emu_grid *g);
/* regs: its registers (emu_warp_kernel_regs words) in the CTA's block, or NULL: its own;
 * regs_zero: they are zero (else the rows it could read first are zeroed); stack and frames:
 * EMU_WARP_LENT_DEPTH entries each in its CTA's lent storage (emu_cta_create_at), or NULL: its
 * own. */
void emu_warp_init(emu_warp *w, emu_cta *cta, uint32_t id, uint64_t *regs, bool regs_zero,
                   emu_simt *stack, emu_frame *frames);
/* emu_warp_init for a warp of a finished CTA of the same grid: keeps its buffers, its registers
 * too unless `regs` (its rows in the CTA's block lent by the engine) is given. */
void emu_warp_reinit(emu_warp *w, emu_cta *cta, uint32_t id, uint64_t *regs);
/* Plans kernel f's entry_rows: the register rows an instruction may read before their lane
 * writes them (entry_rows.c). False (every row zeroed) when memory runs out. */
bool emu_func_plan_entry_rows(emu_func *f);
/* Sets kernel f's no_shared_writes (shared_writes.c); needs f->calls (layout_kernels). */
void emu_func_plan_shared_writes(emu_func *f);
/* lanewise_ops.c: in reads only its executing lanes' own registers, writes each executing
 * lane's destination in full and writes no memory */
bool emu_instr_lanewise(const ptx_instr *in);
void emu_warp_free(emu_warp *w);
/* Host pointer of local-space [off, off+size) of lane, or NULL when out of the thread's
 * stack; allocates the warp's local memory on first use. */
uint8_t *emu_local_ptr(emu_ctx *c, int lane, uint64_t off, uint64_t size);

/* ---- cta.c: barriers */
/* The executing lanes arrive at barrier id (count: expected threads, 0 = the whole CTA) and,
 * when wait, wait there; red_*: their bar.red contributions. The result of a bar.red is
 * written when the barrier completes, from the instruction each waiting path stopped at. */
void emu_barrier_arrive(emu_ctx *c, uint32_t id, uint32_t count, bool wait, uint32_t red_popc,
                        bool red_and, bool red_or);
void emu_cta_warp_exited(emu_cta *cta, emu_warp *w, uint32_t lanes);
/* bar.sync id (x_bar_sync_imm's) by lanes mask of c's warp, the µop's next pc next_pc, where
 * the launch's policy has no barrier or event hook, mask is the whole path and the path is
 * alone in its frame (a converged warp): the arrival emu_barrier_arrive makes, the warp
 * stopping at the barrier (c->stop), released if it completes it; false (nothing done) in any
 * other case, which the handler takes. Compiled code's arrival (jit/translate.c). */
bool emu_barrier_sync_converged(emu_ctx *c, uint32_t id, uint32_t next_pc, uint32_t mask);
/* Whether u's handler is x_bar_sync_imm (bar.sync or barrier.sync with one immediate id, no
 * count, no reduction: exec_control.c), whose usual arrival compiled code makes itself
 * (translate.c's emit_bar_sync) */
bool emu_bar_sync_imm_selected(const emu_uop *u);

/* ---- memaccess.c: an instruction's memory access, as pieces resolved, checked and performed
 * as one operation (see the file's opening comment). */
#define EMU_ACC_INLINE 64
typedef struct emu_piece {
    uint64_t value;           /* the address as the instruction computed it */
    uint64_t addr;            /* resolved: address within its space */
    uint8_t *host;            /* checked: where its bytes are */
    uint32_t size;
    uint32_t off;             /* its data in the access's buffer (atomics: old, b, c) */
    uint8_t lane;
    uint8_t space;            /* resolved: GLOBAL, SHARED, LOCAL or PARAM (set before checking
                                 when the address names a variable: its own space) */
} emu_piece;

typedef struct emu_access {
    emu_ctx *c;
    uint8_t kind;             /* EMU_MEM_LOAD, STORE or ATOMIC */
    uint8_t ispace;           /* the instruction's space (PTX_SPACE_NONE: generic) */
    const char *verb;         /* "read", "write", "atomic" (fault messages) */
    uint16_t aop;             /* atomics */
    uint8_t atype;
    bool has_c;
    bool failed;              /* out of host memory while adding pieces */
    uint32_t mask;            /* lanes with pieces */
    uint32_t global;          /* lanes with global pieces (after checking) */
    uint32_t n, pcap;
    emu_piece *p;
    uint8_t *data;            /* the pieces' data */
    size_t used, cap;
    emu_piece inline_pieces[EMU_ACC_INLINE];
    _Alignas(16) uint8_t inline_data[2048];
} emu_access;

void emu_acc_init(emu_access *A);
void emu_acc_release(emu_access *A);
/* Starts describing an access of kind (LOAD, STORE, ATOMIC) by an instruction of space ispace. */
void emu_acc_begin(emu_access *A, emu_ctx *c, uint8_t kind, uint8_t ispace, const char *verb);
/* Adds a piece of size bytes at address value for lane; NULL when memory ran out (reported by
 * emu_acc_check). A store's values, an atomic's operands go into its data before performing. */
emu_piece *emu_acc_piece(emu_access *A, int lane, uint64_t value, uint32_t size);
static inline uint8_t *emu_acc_data(const emu_access *A, const emu_piece *p)
{
    return A->data + p->off;
}
/* Adds, for each lane of mask, `count` pieces of size bytes at the address operand ao plus
 * k * stride (a register, [reg+imm], [var+imm] in the variable's space, or an absolute
 * address); false when memory ran out. */
bool emu_acc_lanes(emu_access *A, const emu_opd *ao, uint32_t mask, uint32_t size,
                   uint32_t count, uint32_t stride);
/* Resolves and checks every piece (alignment to align when > 1, bounds, read-only params);
 * false after raising the fault of the first bad piece. */
bool emu_acc_check(emu_access *A, uint64_t align);
/* Performs a checked access: global pieces through the memory policy as one operation, the
 * rest directly. False when the instruction must have no effect now (deferred or restarting:
 * c->stop is set and c->next_pc is the instruction's own pc). */
bool emu_acc_perform(emu_access *A);
/* emu_acc_check, then emu_acc_perform. */
bool emu_acc_run(emu_access *A, uint64_t align);
/* Asks the memory policy whether a device-runtime call (printf, malloc, free) of the executing
 * lanes may have its effects now; false when it deferred (or restarts) the call. */
bool emu_policy_call(emu_ctx *c);
/* A transaction marker's operation (EMU_MEM_TX_BEGIN / COMMIT) for the lanes of c, asked of the
 * policy as emu_policy_call does; false when deferred. */
bool emu_policy_tx(emu_ctx *c, uint8_t kind);
/* The handler of a call that is a transaction marker (ptx_tx_marker kind). */
emu_exec_fn emu_tx_marker_handler(int marker);
/* Whether [a, a+size) lies in one live allocation (cached per warp). */
bool emu_global_ok(emu_warp *w, uint64_t a, uint64_t size);

/* Loads or stores `size` (<= 16) bytes per lane of mask at per-lane addresses of space ispace
 * (PTX_SPACE_NONE: generic) as one access; false after a fault or a deferral. */
bool emu_mem_lanes(emu_ctx *c, const ptx_instr *in, uint8_t ispace, const uint64_t *addr,
                   uint32_t mask, unsigned size, uint8_t (*data)[16], bool store);

/* ---- instruction selection (select.c): the handler of a µop, or NULL when the interpreter
 * lacks the form. Each family's selector returns a handler, or NULL when it lacks the form; it
 * may attach a decoded form to the µop (u->form, allocated with emu_code_alloc). */
emu_exec_fn emu_interp_handler(emu_code *code, emu_uop *u);
/* exec_float.c: an add/sub contracted with the mul feeding it (EMU_UOP_CONTRACTED) */
void emu_exec_fma_contracted(emu_ctx *c, const emu_uop *u);
/* exec_float.c: rounding modes. A handler whose rules round in the host rounding mode (see
 * sem.h's float family) runs under emu_exec_rounded when the instruction's mode is directed:
 * u->form starts with an emu_rounded naming the handler and the mode, set once per
 * instruction. emu_with_rounding gives body itself for round-to-nearest, else attaches such a
 * form (for a handler with no form of its own) and gives emu_exec_rounded. */
typedef struct emu_rounded {
    emu_exec_fn body;
    int rnd;                  /* ptx_round */
} emu_rounded;
void emu_exec_rounded(emu_ctx *c, const emu_uop *u);
emu_exec_fn emu_with_rounding(emu_code *code, emu_uop *u, emu_exec_fn body, int rnd);
/* interp.c: the value of special register sreg (component or index comp) in lane */
uint64_t emu_sreg_value(emu_ctx *c, unsigned sreg, unsigned comp, int lane);
emu_exec_fn emu_select_int(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_simd(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_video(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_float(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_half(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_cvt(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_cmp(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_mem(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_multimem(emu_code *code, emu_uop *u);   /* exec_multimem.c */
emu_exec_fn emu_select_control(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_warp(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_wmma(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_mma(emu_code *code, emu_uop *u);

/* ---- jit/: the LLVM-C JIT. Compiled code of f, compiled now if it is not yet (executor jit);
 * NULL when f cannot be compiled (the interpreter runs it). */
emu_jit_entry emu_jit_compiled_now(const emu_func *f, int variant);
/* Executor auto: f ran n more warp instructions interpreted; once it is hot enough, a
 * background thread compiles its variant. The compiled code when it is ready, else NULL. */
emu_jit_entry emu_jit_warm(const emu_func *f, uint64_t n, int variant);
/* Executor auto: a warp of f's launch exited; the launch's warps will run about `launch` warp
 * instructions of it in all. A long launch compiles f as soon as that shows, rather than once
 * the warps have counted up to the threshold, so that most of its CTAs run compiled. */
emu_jit_entry emu_jit_foresee(const emu_func *f, uint64_t launch, int variant);
/* Compiled code whose warp's SIMT stack changed (a handler rewrote it, a path reached its
 * reconvergence point, lanes exited): does what the executor loop (interp/run.c) does before
 * it would enter compiled code again (settle the stack), and when that loop would enter the
 * same function (code uops) in the same frame (nframes deep) at an entry not waiting at a
 * barrier, sets c's frame fields and active lanes as it does and returns the pc to go on at;
 * else -1 (the code returns, and the loop finds the stack as it left it). */
int32_t emu_jit_resume(emu_ctx *c, const emu_uop *uops, uint32_t nframes);
/* Releases f's compiled code (module unload; waits for a compile of f in progress). */
void emu_jit_forget(emu_func *f);
/* The counter emu_device_generation reads (device_memory.c): compiled code loads it (acquire)
 * rather than calling the function, whose call would make it spill every vector register it
 * keeps live across the access. */
const uint64_t *emu_device_generation_word(void);

/* module.c */
int emu_instr_text(const ptx_instr *in, char *buf, size_t len);
const emu_func *emu_module_func(const emu_module *mod, uint32_t index);
const emu_func *emu_module_func_by_ptx(const emu_module *mod, const ptx_function *fn);

/* ---- advanced semantics: textures (sem_tex.c, exec_tex.c), the device heap (heap.c),
 * printf and assert output (device_output.c), async copies (exec_async.c) */
emu_exec_fn emu_select_tex(emu_code *code, emu_uop *u);
emu_exec_fn emu_select_async(emu_code *code, emu_uop *u);
/* the state spaces a copy instruction names, destination first (exec_async.c) */
void emu_copy_spaces(const ptx_instr *in, uint8_t *dst, uint8_t *src);
/* A shared::cta -> shared::cluster bulk copy or reduction outside a cluster launch: raises the
 * GPU's illegal instruction and says true. */
bool emu_bulk_needs_cluster(emu_ctx *c, uint8_t dst_space, uint8_t src_space);
/* exec_tensor.c: the tensor (TMA) copies and bulk reductions; emu_select_async asks it */
emu_exec_fn emu_select_tensor(emu_code *code, emu_uop *u);

/* One texture lookup: coordinates as the instruction's register bits. */
typedef struct emu_tex_query {
    uint16_t geom;            /* PTX_SFX_G1D ... PTX_SFX_GA2DMS */
    bool int_coords;          /* .s32 coordinates: texel indices, no filtering */
    uint32_t c[4];
    bool has_off;
    int32_t off[3];           /* texel offsets (the optional e operand) */
    int lod_mode;             /* 0: level 0, 1: tex.level (lod), 2: tex.grad */
    float lod;
    float dpdx[3], dpdy[3];
    int gather;               /* tld4: the component 0..3 (r, g, b, a); -1 for tex */
} emu_tex_query;

typedef struct emu_tex_result {
    bool is_float;            /* v holds f32 bits, else 32-bit integers */
    uint32_t v[4];
    uint64_t addr;            /* the (first) texel's address, for the timing model; 0: none */
} emu_tex_result;

void emu_tex_sample(const emu_texture *t, const emu_tex_query *q, emu_tex_result *r);

/* exec_mbarrier.c: one thread's update of an mbarrier object; returns the object before it. */
enum {
    EMU_MBAR_INIT, EMU_MBAR_ARRIVE, EMU_MBAR_ARRIVE_DROP, EMU_MBAR_EXPECT_TX,
    EMU_MBAR_COMPLETE_TX, EMU_MBAR_INVAL
};
emu_exec_fn emu_select_mbarrier(emu_code *code, emu_uop *u);
uint64_t emu_mbarrier_update(uint8_t *p, int what, uint32_t count, int32_t tx);
/* Address of a surface access of `size` bytes at integer coordinates c (the first one in bytes,
 * or in elements when `elements`). Out of range: false, unless clamp, which moves the access to
 * the nearest element inside. */
bool emu_surf_address(const emu_texture *t, uint16_t geom, const uint32_t *c, bool elements,
                      unsigned size, bool clamp, uint64_t *addr);

/* ---- exec_mma.c: a matrix multiply-accumulate on fragment registers, decoded once; mma.sync
 * and wmma.mma share it (exec_wmma.c decodes wmma's form). */
/* One fragment operand: n elements per lane of ebits, and where each sits in its row-major
 * matrix (idx[e * 32 + lane], as sem_mma_gather reads it). */
typedef struct emu_mma_frag {
    unsigned ebits, n;
    uint16_t *idx;
} emu_mma_frag;
typedef struct emu_mma_form {
    const char *name;         /* the instruction, for the partial-warp fault */
    emu_mma_op op;            /* the operation of one group of lanes */
    bool sparse;              /* mma.sp: A compressed; operands 4 and 5 metadata and selector */
    unsigned ngroups;         /* 1, or the four quad-pairs of mma.m8n8k4 .f16 */
    uint32_t group[4];        /* the lanes of each group */
    emu_mma_frag a, b, c, d;
} emu_mma_form;
/* The sm_80 layout of `count` elements per lane of matrix `which` (cols columns) of an
 * m x n x k operation (element e is element e mod distinct, see emu_mma_pos). */
bool emu_mma_frag_layout(emu_code *code, emu_mma_frag *fr, int which, unsigned m, unsigned n,
                         unsigned k, unsigned ebits, unsigned count, unsigned cols);
/* The handler of a µop whose form is an emu_mma_form. */
void emu_exec_mma(emu_ctx *c, const emu_uop *u);
/* True when the whole warp executes; else faults (a warp-synchronous `what`) and is false. */
bool emu_mma_whole_warp(emu_ctx *c, const char *what);

/* heap.c: the heap's bookkeeping, saved and loaded around compare mode's runs */
typedef struct emu_heap_state emu_heap_state;
emu_heap_state *emu_heap_save(void);
bool emu_heap_load(const emu_heap_state *s);
bool emu_heap_state_equal(const emu_heap_state *s);
void emu_heap_state_free(emu_heap_state *s);
/* device_output.c: the pending records as one string ("O<len>:text" / "E<len>:text" each, in
 * order; malloc'd), and dropping them without forgetting that kernels printed */
char *emu_output_pending(size_t *len);
void emu_output_drop_pending(void);
/* The whole FIFO (records, sizes, loss counters), saved and put back for snapshots. */
typedef struct emu_output_state emu_output_state;
emu_output_state *emu_output_save(void);   /* NULL when memory runs out */
bool emu_output_load(const emu_output_state *s);   /* false (nothing changed) likewise */
void emu_output_state_free(emu_output_state *s);

/* Device-side calls (exec_builtin.c): printf records and assertion messages for the FIFO. */
void emu_output_append(const char *text, size_t len, uint64_t cost, bool to_stderr);

static inline const emu_opd *emu_opd_elems(const emu_ctx *c, const emu_opd *o)
{
    return &c->code->pool[o->row];
}

#endif
