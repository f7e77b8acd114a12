/* emu.h: the emulator's public interface.
 *
 * The emulator owns what a kernel's threads see: device memory and its address map, modules
 * loaded into it (global/const variables, shared-memory layout), and the execution of warps
 * (registers, SIMT reconvergence, instruction semantics). It runs one warp at a time until the
 * warp must stop; who runs next is decided above it (timing/engine), and what a memory
 * operation sees is decided by the active memory policy (direct here, others in timing/).
 */
#ifndef PTXSIM_EMULATOR_EMU_H
#define PTXSIM_EMULATOR_EMU_H

#include "frontend/ptx.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_WARP_SIZE 32

typedef struct emu_dim3 { uint32_t x, y, z; } emu_dim3;

/* ---------------------------------------------------------------- faults */

/* What went wrong in a kernel; the runtime maps each to the cudaError_t the real runtime gives
 * (noted beside each). */
typedef enum emu_fault_kind {
    EMU_FAULT_NONE = 0,
    EMU_FAULT_ILLEGAL_ADDRESS,     /* cudaErrorIllegalAddress */
    EMU_FAULT_MISALIGNED,          /* cudaErrorMisalignedAddress */
    EMU_FAULT_SHARED_OUT_OF_RANGE, /* cudaErrorIllegalAddress (memcheck: shared OOB) */
    EMU_FAULT_LOCAL_OUT_OF_RANGE,  /* cudaErrorIllegalAddress (memcheck: local OOB) */
    EMU_FAULT_BARRIER_DEADLOCK,    /* cudaErrorLaunchFailure (the hardware would hang) */
    EMU_FAULT_TRAP,                /* cudaErrorLaunchFailure */
    EMU_FAULT_ASSERT,              /* cudaErrorAssert */
    EMU_FAULT_ILLEGAL_INSTRUCTION, /* cudaErrorIllegalInstruction */
    EMU_FAULT_UNSUPPORTED,         /* cudaErrorNotSupported: an instruction ptxsim lacks */
    EMU_FAULT_STACK_OVERFLOW,      /* cudaErrorLaunchFailure (call depth / local stack) */
    EMU_FAULT_INVALID_PC,          /* cudaErrorLaunchFailure (bad indirect call/branch) */
    EMU_FAULT_OUT_OF_RESOURCES,    /* cudaErrorLaunchOutOfResources (too much shared, ...) */
    EMU_FAULT_TIMEOUT              /* cudaErrorLaunchTimeout: the watchdog ended the launch */
} emu_fault_kind;

/* A fault with where it happened. message is one line in compute-sanitizer's style:
 * "Invalid __global__ write of size 4 at 0x... in kernel vadd (PTX line 42, file.cu:17)
 *  by thread (3,0,0) in block (1,0,0): address is out of bounds". */
typedef struct emu_fault {
    emu_fault_kind kind;
    uint64_t address;
    emu_dim3 cta, thread;
    uint32_t ptx_line;
    char message[768];
} emu_fault;

const char *emu_fault_kind_name(emu_fault_kind k);

/* ---------------------------------------------------------------- device memory */

/* Device memory lives in one reserved region of the host's address space at a fixed place, so
 * device pointers are the same on every run (determinism) and can be used directly by the
 * host for copies. Every allocation is registered; any device access outside a live
 * allocation is a fault, never a stray host write. */
typedef enum emu_alloc_kind {
    EMU_ALLOC_DEVICE,   /* cudaMalloc and friends */
    EMU_ALLOC_MODULE,   /* a module's .global / .const variable */
    EMU_ALLOC_HOST,     /* host memory registered for device access (pinned, mapped) */
    EMU_ALLOC_MANAGED   /* cudaMallocManaged */
} emu_alloc_kind;

/* Allocates `size` bytes (aligned to 256, zero-filled) of device memory; 0 when exhausted. */
uint64_t emu_device_alloc(uint64_t size, emu_alloc_kind kind);
/* Frees an allocation made above; returns false if addr is not the start of one. */
bool emu_device_free(uint64_t addr);
/* Makes a host range accessible to kernels (cudaHostRegister / mapped pinned memory). */
bool emu_register_host_range(uint64_t addr, uint64_t size);
bool emu_unregister_host_range(uint64_t addr);
/* The live allocation holding [addr, addr+size): true and its base/size/kind, or false. */
bool emu_find_allocation(uint64_t addr, uint64_t size, uint64_t *base, uint64_t *alloc_size,
                         emu_alloc_kind *kind);
/* Pageable memory access (systems with HMM or ATS; off by default, as on most systems): when
 * on, a kernel's global access outside every allocation may still use host memory the process
 * can read and write (emu_pageable_range says where; the executor checks it after the
 * allocation map). */
void emu_set_pageable_access(bool on);
/* True when [addr, addr+size) lies in writable host memory outside the device region and
 * pageable access is on; the whole writable range around it in base/span. */
bool emu_pageable_range(uint64_t addr, uint64_t size, uint64_t *base, uint64_t *span);
/* The live allocations in address order: writes at most max of them to out and returns how
 * many there are (which may be more than max: another host thread may have allocated since a
 * caller counted them). */
typedef struct emu_alloc_info { uint64_t base, size; emu_alloc_kind kind; } emu_alloc_info;
size_t emu_device_allocations(emu_alloc_info *out, size_t max);
/* Counts removals from the map (frees, unregistrations): unchanged over a stretch means no
 * allocation went away meanwhile. */
uint64_t emu_device_generation(void);
/* Sets aside bytes of device memory for the context (the driver's stack and printf FIFO), in
 * place of what was set aside before: they count as used and cannot be allocated. False (the
 * old amount kept) when they do not fit. */
bool emu_device_reserve(uint64_t bytes);
/* Bytes of device memory in use and in all (cudaMemGetInfo). */
void emu_device_mem_info(uint64_t *used, uint64_t *total);
/* Sets the size of the device address space (default 16 GiB); only before the first
 * allocation. */
void emu_device_set_capacity(uint64_t bytes);

/* ---------------------------------------------------------------- modules */

typedef struct emu_module emu_module;

/* Loads a parsed module: allocates and initialises its .global/.const variables (relocations
 * included), lays out static shared memory, and rejects instructions the executor does not
 * implement (reporting each with its PTX line). Returns NULL with a message in err. */
emu_module *emu_module_load(const ptx_module *m, char *err, size_t errlen);
/* What loading may decide about a module's meaning. */
typedef struct emu_load_options {
    /* Execute mul + add/sub pairs without a rounding modifier as one fused multiply-add where
     * ptxas contracts them (its default, --fmad=true); false keeps two roundings, as a binary
     * whose PTX was assembled with --fmad=false computes. */
    bool fmad;
} emu_load_options;
emu_module *emu_module_load_ex(const ptx_module *m, const emu_load_options *opt, char *err,
                               size_t errlen);
/* Lays out the registers of m's functions (before m is loaded) so that registers never live
 * at once share a row (frontend/ptx_slots.c): a timed run keeps every resident warp's rows,
 * and most of them are cold. Only for runs where nothing needs a row per register: not under
 * iGPU (its regions re-run from registers a later one sharing their row overwrites) nor
 * --check. Functions laid out so already are left; returns how many it laid out now. */
uint32_t emu_share_register_slots(ptx_module *m);
void emu_module_unload(emu_module *mod);
const ptx_module *emu_module_ptx(const emu_module *mod);
/* What a kernel of a loaded module takes: static shared bytes per block (its own, its callees'
 * and the module-scope variables it uses) and local bytes per thread a launch reserves (its
 * frame and, when it calls functions, the call stack). False when kernel is not an entry of
 * mod. */
typedef struct emu_kernel_resources {
    uint64_t static_smem;
    uint64_t local_per_thread;
} emu_kernel_resources;
bool emu_module_kernel_resources(const emu_module *mod, const ptx_function *kernel,
                                 emu_kernel_resources *out);
/* Device address and size of a module-scope variable; false if there is none by that name. */
bool emu_module_symbol(const emu_module *mod, const char *name, uint64_t *addr, uint64_t *size);

/* ---------------------------------------------------------------- memory policies (v2)
 *
 * A memory policy decides what a warp's memory operations do: the direct policy performs them
 * at once; GPUDet buffers stores and defers atomics; DAB, KILO TM and iGPU will be more. The
 * executor hands the policy exactly ONE operation per warp instruction that touches global
 * memory (vector, bulk and tensor forms included), after it has resolved and checked every
 * piece of it: when the policy sees an operation, nothing can fault any more, and nothing has
 * been written yet. Policies compose: each may pass an operation on to the policy below it
 * (`next`), ending at the direct policy. */

typedef enum emu_mem_kind {
    EMU_MEM_LOAD, EMU_MEM_STORE, EMU_MEM_ATOMIC, EMU_MEM_FENCE,
    /* A device-runtime call with effects beyond the warp (printf output, malloc, free): no
     * pieces; a policy that orders such effects defers it. */
    EMU_MEM_CALL,
    /* A transaction marker (KILO TM, frontend ptx_tx_marker_of): the lanes of mask call
     * tx_begin / tx_commit. No pieces. The direct policy does nothing (a marker has no effect
     * without transactional memory, as on a real GPU); a TM policy may defer a begin
     * (concurrency control) and resolves the transactions of mask at a commit. */
    EMU_MEM_TX_BEGIN,
    EMU_MEM_TX_COMMIT
} emu_mem_kind;

/* One contiguous piece of an operation: `size` bytes at `addr` for `lane`; its bytes are at
 * op->data + off (the values a store writes; where a load puts what it reads; an atomic's old
 * value), and an atomic's operands at op->operand_b + off and op->operand_c + off. Global
 * addresses are device addresses, which the host can use directly. Pieces come in ascending
 * lane order, and in address order within a lane. */
typedef struct emu_mem_seg {
    uint64_t addr;
    uint32_t size;
    uint32_t off;
    uint8_t lane;
} emu_mem_seg;

typedef struct emu_warp emu_warp;

typedef struct emu_mem_op {
    uint8_t kind;               /* emu_mem_kind */
    uint8_t space;              /* PTX_SPACE_GLOBAL; SHARED or LOCAL only for policies that
                                   ask for them (EMU_POLICY_WANTS_*), which observe and decide
                                   while the executor performs those accesses itself */
    uint16_t aop;               /* atomics: the operation (PTX_SFX_ADD, CAS, ...) */
    uint8_t atype;              /* atomics: the operand type */
    uint8_t cls;                /* the instruction's emu_op_class */
    uint16_t func;              /* the function of pc: its index in the module */
    uint32_t mask;              /* lanes taking part */
    uint32_t pc;                /* the instruction */
    uint32_t nseg;
    const emu_mem_seg *seg;
    uint8_t *data;
    const uint8_t *operand_b;   /* atomics: b (cas: the compare value) */
    const uint8_t *operand_c;   /* cas: the new value, else NULL */
    uint32_t restart_lanes;     /* EMU_MEM_RESTART: the lanes that fault and restart */
} emu_mem_op;

/* What became of an operation. */
typedef enum emu_mem_outcome {
    EMU_MEM_DONE,        /* performed */
    EMU_MEM_DONE_STOP,   /* performed; the warp stops after this instruction
                            (EMU_STOP_MEMORDER: the engine orders what follows) */
    EMU_MEM_DEFERRED,    /* not performed: the warp stops before the instruction (pc unchanged,
                            EMU_STOP_MEMORDER) and executes it again when next run */
    EMU_MEM_RESTART      /* not performed: op->restart_lanes take a restartable fault; the warp
                            stops (EMU_STOP_RESTART) for the policy to restore them from a
                            checkpoint (emu_warp_checkpoint_rewind, emu_warp_tx_retry) */
} emu_mem_outcome;

/* Events of a warp that policies may act on besides memory operations. */
typedef enum emu_policy_event {
    EMU_PEV_BARRIER,          /* lanes arrived at a CTA barrier */
    EMU_PEV_TX_BEGIN,         /* lanes entered a transaction (KILO TM) */
    EMU_PEV_TX_COMMIT,        /* lanes reached the end of their transaction */
    EMU_PEV_REGION_BOUNDARY   /* lanes crossed an idempotent-region boundary (iGPU) */
} emu_policy_event;

#define EMU_WARP_BARRIER 0xffffffffu   /* the barrier id of bar.warp.sync for policies */
/* The "barrier" id of a warp-synchronous operation with member masks (shfl, vote, match,
 * redux, elect .sync): count is the union of the masks the executing lanes pass. It orders no
 * memory; a checker compares the lanes named with the lanes there. */
#define EMU_WARP_MEMBERS 0xfffffffeu

enum {
    EMU_POLICY_WANTS_SHARED = 1,   /* shared-memory accesses reach access() too */
    EMU_POLICY_WANTS_LOCAL = 2,    /* local-memory accesses reach access() too */
    /* access() passes every operation on to the direct policy unchanged (the policy wants its
     * barrier callbacks only): the executor may perform plain loads and stores itself */
    EMU_POLICY_PASSTHROUGH = 4,
    /* the policy only observes plain (weak) loads and stores: the executor may perform them
     * itself and then report each to observe() */
    EMU_POLICY_OBSERVER = 8,
    /* what a policy composing over another keeps of the other's wants (the spaces: the
     * shortcuts above hold for a policy alone over the direct one) */
    EMU_POLICY_SPACES = EMU_POLICY_WANTS_SHARED | EMU_POLICY_WANTS_LOCAL
};

typedef struct emu_mem_policy {
    const char *name;
    unsigned wants;                /* EMU_POLICY_WANTS_* */
    /* Decides (and for global memory performs, or passes to `next`) op of warp w. */
    emu_mem_outcome (*access)(struct emu_mem_policy *self, emu_warp *w, emu_mem_op *op);
    /* Optional: an event of the lanes `lanes` of w. */
    void (*event)(struct emu_mem_policy *self, emu_warp *w, emu_policy_event ev,
                  uint32_t lanes);
    /* Optional: lanes of w executed barrier `id` at instruction pc of function func: a CTA
     * barrier (bar.sync, bar.arrive (wait false), bar.red, barrier.sync; count 0 = every
     * thread of the CTA) or, with id EMU_WARP_BARRIER, bar.warp.sync (count: its member
     * mask). Called before the barrier takes effect. */
    void (*barrier)(struct emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                    bool wait, uint32_t lanes, uint16_t func, uint32_t pc);
    /* Optional: op, a plain load or store of global or shared memory, was performed by the
     * executor itself (op->data is not set): with EMU_POLICY_OBSERVER the plain ld/st of the
     * fast path, and always the shared-memory side of a tensor copy (TMA), which the
     * executor writes without asking. */
    void (*observe)(struct emu_mem_policy *self, emu_warp *w, const emu_mem_op *op);
    /* Optional: w's run ended (reason: an emu_stop). */
    void (*warp_stopped)(struct emu_mem_policy *self, emu_warp *w, int reason);
    struct emu_mem_policy *next;   /* the policy this one composes over, or NULL (direct) */
    void *state;
} emu_mem_policy;

/* The policy that reads and writes device memory at once (no determinism). */
emu_mem_policy *emu_direct_policy(void);
/* Passes op to self's next policy (the direct one when there is none). */
emu_mem_outcome emu_policy_forward(emu_mem_policy *self, emu_warp *w, emu_mem_op *op);
/* Performs op on device memory at once: what the direct policy does. */
void emu_mem_perform(const emu_mem_op *op);
/* The atomic read-modify-write of one piece: the one definition of every atom/red operation,
 * used by all policies (a host atomic, so host threads running warps at once stay atomic).
 * Writes the old value to old (as many bytes as the type). */
void emu_atomic_apply(uint16_t aop, uint8_t type, void *addr, const void *b, const void *c,
                      void *old);

/* Per-warp state of the composed policies, one slot per level, for the engine and the
 * policies to keep what they know of a warp (no thread-locals). */
typedef enum emu_policy_level {
    EMU_POLICY_DET, EMU_POLICY_TM, EMU_POLICY_RESTART, EMU_POLICY_TIMING, EMU_POLICY_LEVELS
} emu_policy_level;

/* What the timing model issues an instruction to, and what statistics count it as (decoded once
 * per instruction, emulator/decode/classify.c). */
typedef enum emu_op_class {
    EMU_CLS_INT,          /* integer and logic ALU */
    EMU_CLS_INT_MUL,      /* integer multiply, multiply-add, division, remainder */
    EMU_CLS_FP32,
    EMU_CLS_FP64,
    EMU_CLS_FP16,         /* half, bf16 and packed pairs */
    EMU_CLS_SFU,          /* transcendental and approximate functions, rcp, sqrt */
    EMU_CLS_CONV,         /* cvt and friends */
    EMU_CLS_MOVE,         /* mov, selp, prmt and special-register reads */
    EMU_CLS_LD_GLOBAL, EMU_CLS_LD_SHARED, EMU_CLS_LD_LOCAL, EMU_CLS_LD_PARAM,
    EMU_CLS_LD_CONST, EMU_CLS_LD_GENERIC,
    EMU_CLS_ST_GLOBAL, EMU_CLS_ST_SHARED, EMU_CLS_ST_LOCAL, EMU_CLS_ST_GENERIC,
    EMU_CLS_ATOMIC,       /* atom/red on global or generic addresses */
    EMU_CLS_ATOMIC_SHARED,
    EMU_CLS_FENCE,
    EMU_CLS_BRANCH,       /* bra, brx.idx */
    EMU_CLS_CALL,         /* call, ret, exit */
    EMU_CLS_BARRIER,      /* bar, barrier, bar.warp.sync */
    EMU_CLS_WARP,         /* shfl, vote, match, redux, activemask, elect */
    EMU_CLS_TENSOR,       /* mma, wmma.mma, wgmma */
    EMU_CLS_TENSOR_MEM,   /* wmma.load/store, ldmatrix, stmatrix, movmatrix */
    EMU_CLS_TEX,          /* tex, tld4, txq */
    EMU_CLS_SURF,         /* suld, sust, sured, suq */
    EMU_CLS_ASYNC,        /* cp.async and bulk copies, mbarrier, TMA */
    EMU_CLS_MISC,         /* nops, hints, traps, everything else */
    EMU_CLS_COUNT
} emu_op_class;

const char *emu_op_class_name(emu_op_class c);

/* ---------------------------------------------------------------- events
 *
 * With a sink installed in the launch, the executor records one event per warp instruction it
 * issues (guarded-off ones included, as they count) into the warp's ring, and hands the ring to
 * the sink when it is full and whenever the warp's run ends: the timing model, instruction
 * traces, statistics and race reports are built from these. Without a sink the executor pays a
 * test per run. An event starts a host cache line (allocate rings with aligned_alloc): its
 * header, all of a compact memory event, is one line of the ring to write and read back. */

typedef struct emu_event {
    _Alignas(64) uint32_t pc;      /* instruction index in its function */
    uint32_t func;                 /* the function's index in the module */
    uint32_t active;               /* lanes of the SIMT path that issued it */
    uint32_t mask;                 /* lanes that executed it (guard applied) */
    uint16_t op;                   /* ptx_opcode */
    uint8_t cls;                   /* emu_op_class */
    uint8_t stop;                  /* EMU_EVENT_RAN, or the emu_stop the warp stopped with */
    uint8_t flags;                 /* EMU_EV_* */
    uint8_t space;                 /* memory: the instruction's space (PTX_SPACE_NONE: generic) */
    uint16_t size;                 /* memory: bytes of each lane's first piece */
    uint32_t mem_lanes;            /* memory: lanes with an address (emu_event_lane_addr) */
    uint32_t taken;                /* branches: lanes that jumped */
    uint32_t reconv;               /* branches: the reconvergence pc of a divergent branch */
    int32_t stride;                /* memory, EMU_EV_COMPACT: bytes from a lane's address to
                                      the next lane's within a half-warp */
    int32_t half_stride;           /* memory, EMU_EV_COMPACT: bytes from lane l's address to
                                      lane l + 16's */
    uint64_t base;                 /* memory, EMU_EV_COMPACT: lane 0's address (were it
                                      active) */
    uint64_t *lane_addr;           /* memory without EMU_EV_COMPACT: EMU_WARP_SIZE addresses,
                                      per lane the generic address of its first byte (shared,
                                      local and param addresses in their windows), in the
                                      ring's address rows (EMU_RING_ROWS_BYTES); read through
                                      emu_event_lane_addr or emu_event_addrs, never directly */
} emu_event;
_Static_assert(sizeof(emu_event) == 64, "an event is one host cache line");

/* The space of a generic address (PTX_SPACE_GLOBAL, SHARED, LOCAL or PARAM) and its offset in
 * that space. */
uint8_t emu_address_space(uint64_t generic, uint64_t *offset);
/* The spaces' windows are aligned blocks of 2^EMU_WINDOW_BITS bytes: generic addresses with the
 * same bits above are in one space, at offsets that differ as the addresses do. */
#define EMU_WINDOW_BITS 48

#define EMU_EVENT_RAN 0xff
enum {
    EMU_EV_MEM = 1,       /* the addresses, size and mem_lanes are set */
    EMU_EV_BRANCH = 2,    /* taken (and reconv when it diverged) are set */
    EMU_EV_DIVERGED = 4,  /* the branch split the path */
    EMU_EV_COMPACT = 8    /* memory: lane l's address is base + (l % 16) * stride +
                             (l / 16) * half_stride, and lane_addr is not written */
};

/* Lane l's address of memory event e (l in e->mem_lanes). The executor writes a compact event
 * when the lanes' addresses have that shape, which most accesses have (a warp's contiguous
 * elements; one address for all; a constant stride; a 16-wide block's two rows): 16 bytes
 * instead of up to 256 written into the ring and read back by every consumer. */
static inline uint64_t emu_event_lane_addr(const emu_event *e, int l)
{
    return (e->flags & EMU_EV_COMPACT)
               ? e->base + (uint64_t)(int64_t)e->stride * (uint64_t)(l & 15) +
                     (uint64_t)(int64_t)e->half_stride * (uint64_t)(l >> 4)
               : e->lane_addr[l];
}
/* Every lane's address of memory event e (those in mem_lanes meaningful): e's own array, or buf
 * filled from its shape. */
static inline const uint64_t *emu_event_addrs(const emu_event *e, uint64_t buf[EMU_WARP_SIZE])
{
    if (!(e->flags & EMU_EV_COMPACT)) return e->lane_addr;
    uint64_t s = (uint64_t)(int64_t)e->stride, h = e->base + (uint64_t)(int64_t)e->half_stride;
    for (int l = 0; l < EMU_WARP_SIZE / 2; l++) {
        buf[l] = e->base + (uint64_t)l * s;
        buf[l + EMU_WARP_SIZE / 2] = h + (uint64_t)l * s;
    }
    return buf;
}

/* Events a warp records before handing them to the launch's sink. */
#define EMU_EVENT_RING 64
/* A ring's storage: its EMU_EVENT_RING events (EMU_RING_EVENTS_BYTES, 4 KiB: one page), what
 * every run writes, and apart from them per event a row of EMU_WARP_SIZE addresses
 * (EMU_RING_ROWS_BYTES; event i's lane_addr is row i), written only by a memory event that is
 * not compact. Two blocks, so that a cycle model may keep its warp slots' events together in
 * huge pages and their rows in small pages that only the warps that write rows touch
 * (emu_warp_lend_ring); a ring of events with their addresses inline (320 bytes each) spread
 * every run's writes over five pages. */
#define EMU_RING_EVENTS_BYTES ((size_t)EMU_EVENT_RING * sizeof(emu_event))
#define EMU_RING_ROWS_BYTES ((size_t)EMU_EVENT_RING * EMU_WARP_SIZE * sizeof(uint64_t))
/* A copy of event e that stays valid after its ring is reused: its addresses (a non-compact
 * memory event's) copied into `addrs`, which the copy then points to. */
static inline emu_event emu_event_copy(const emu_event *e, uint64_t addrs[EMU_WARP_SIZE])
{
    emu_event c = *e;
    if ((e->flags & EMU_EV_MEM) && !(e->flags & EMU_EV_COMPACT)) {
        for (int l = 0; l < EMU_WARP_SIZE; l++) addrs[l] = e->lane_addr[l];
        c.lane_addr = addrs;
    }
    return c;
}

typedef struct emu_event_sink {
    /* n events of warp w, in the order the warp issued them. Called on the host thread running
     * the warp; several warps' calls may come at once from different host threads. */
    void (*consume)(struct emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n);
    void *state;
} emu_event_sink;

/* ---------------------------------------------------------------- execution */

typedef struct emu_launch {
    const emu_module *module;
    const ptx_function *kernel;    /* an entry of module */
    emu_dim3 grid, block;
    uint32_t dynamic_smem;         /* bytes of extern .shared */
    const void *params;            /* the parameter block, laid out as the PTX .params */
    size_t params_size;
    emu_mem_policy *policy;
    uint8_t executor;              /* emu_executor that runs the grid's warps */
    emu_event_sink *events;        /* NULL: no events are recorded */
    uint32_t sm_count;             /* for %nsmid / %smid */
    uint32_t max_warps_per_sm;     /* %nwarpid: warps one SM of the modelled GPU holds (0: 64) */
    /* Shared memory the system reserves for each CTA (sm_80 and later: 1 KiB), laid out below
     * the kernel's own shared memory; %reserved_smem_offset_* point into it. */
    uint32_t reserved_smem;
    uint64_t grid_id;              /* %gridid */
    /* %envreg0..31 as the driver sets them for this launch: every launch (a CUDA 13 driver's
     * way) puts the address of the grid-synchronisation workspace in %envreg1 (high) :
     * %envreg2 (low), which cooperative_groups::this_grid() reads; zero where there is none. */
    uint32_t envreg[32];
    /* Per-thread stack for calls (cudaLimitStackSize): honoured above ptxsim's own 16 KiB call
     * stack, which smaller values leave as it is; 0 = the default. */
    uint64_t call_stack;
} emu_launch;

typedef struct emu_grid emu_grid;
typedef struct emu_cta emu_cta;

/* The executors of warps. Every executor obeys the contract at emu_warp_run, so any two give
 * bit-identical memory, registers, faults, instruction counts and statistics. */
typedef enum emu_executor {
    EMU_EXECUTOR_INTERP = 0,   /* the interpreter, a basic block at a time (the default) */
    EMU_EXECUTOR_STEP,         /* the interpreter, one instruction at a time (the reference
                                  that --engine=compare checks the others against) */
    EMU_EXECUTOR_JIT,          /* code compiled by LLVM (emulator/jit/) for every function it
                                  can compile, compiled before it first runs; the block
                                  interpreter for the rest, and whenever events are recorded */
    EMU_EXECUTOR_AUTO          /* the block interpreter, switching to compiled code for the
                                  functions that have run enough warp instructions (compiled on
                                  a background thread meanwhile) */
} emu_executor;

/* The JIT's settings (EMU_EXECUTOR_JIT and AUTO): verbose notes on stderr (what compiled, in
 * how long, and why a function stays on the interpreter), and the warp instructions a function
 * runs interpreted before AUTO compiles it. */
typedef struct emu_jit_options {
    unsigned verbose;
    uint64_t hot_instructions;
    /* compile on the thread that finds a function hot rather than in the background, so that
     * warps switch executor at a reproducible point (tests) */
    bool foreground;
    /* the disk cache of compiled code (NULL: none): a folder of object files, keyed by the
     * translated code, `version` (the simulator's), LLVM's version and the host CPU, so that
     * another run of the same program compiles nothing; oldest entries go past cache_bytes */
    const char *cache_dir;
    uint64_t cache_bytes;
    const char *version;
    /* called (from a device thread, without locks) when a device thread has asked for the
     * process's first compile: a program thread waiting in the runtime should call
     * emu_jit_serve_first */
    void (*first_wanted)(void);
} emu_jit_options;
void emu_jit_configure(const emu_jit_options *o);
/* The process's first code generation (and its first link of cached code) happens on a
 * program thread inside a runtime call, never on a thread that runs device work for it: the
 * program could call exit() meanwhile, and exit() would destroy the objects LLVM made for that
 * work under it. Threads ptxsim starts to run warps mark themselves (emu_jit_device_thread);
 * until then they ask for the compile and interpret. A program thread compiles what was asked
 * for in emu_jit_serve_first (true if it compiled: call it where the program waits for the
 * device), and in emu_jit_launching, which a program thread calls as it queues a launch: it
 * also does the launch's own share first (under EMU_EXECUTOR_JIT compiles the kernel, in the
 * variant with events where the launch records them; under AUTO with events looks for that
 * variant in the caches). Both do nothing more once a compile has run. */
void emu_jit_device_thread(void);
bool emu_jit_serve_first(void);
void emu_jit_launching(const emu_module *mod, const ptx_function *kernel, emu_executor executor,
                       bool events);
/* What the JIT compiled so far in this process. */
typedef struct emu_jit_stats {
    uint64_t functions, failed;   /* compiled, and left to the interpreter */
    uint64_t uops, native;        /* their instructions, and how many were translated (the rest
                                     call the interpreter's handler) */
    double seconds;               /* translating, optimising and compiling */
    uint64_t cache_hits;          /* functions loaded from the disk cache (not in `functions`) */
    uint64_t cache_stores;        /* compiled functions written to the disk cache */
    uint64_t foreseen;            /* compiles (auto) started because a launch's warps were
                                     foreseen to pass the threshold (emu_jit_foresee) */
} emu_jit_stats;
void emu_jit_get_stats(emu_jit_stats *out);

/* Why emu_warp_run returned. */
typedef enum emu_stop {
    EMU_STOP_BUDGET,     /* ran its instruction budget */
    EMU_STOP_BARRIER,    /* waits at a CTA barrier (emu_warp_runnable tells when released) */
    EMU_STOP_MEMORDER,   /* the memory policy asked to stop (atomic, fence, ...) */
    EMU_STOP_EXIT,       /* every thread of the warp has exited */
    EMU_STOP_FAULT,      /* a fault; emu_grid_fault has it */
    EMU_STOP_RESTART     /* the memory policy answered EMU_MEM_RESTART: lanes wait for it to
                            restore them (emu_warp_checkpoint_rewind, emu_warp_tx_retry) */
} emu_stop;

/* Validates the launch (block size, shared memory, parameter size) and prepares the grid. */
emu_grid *emu_grid_create(const emu_launch *launch, emu_fault *fault);
void emu_grid_destroy(emu_grid *g);
uint64_t emu_grid_cta_count(const emu_grid *g);
/* The first fault of the grid, if any (set by whichever warp faulted first in CTA order). */
const emu_fault *emu_grid_fault(const emu_grid *g);
/* The launch as the grid keeps it, and the shared memory one CTA takes (static + dynamic). */
const emu_launch *emu_grid_launch(const emu_grid *g);
uint64_t emu_grid_smem_per_cta(const emu_grid *g);
/* Keeps every warp's instruction count as its CTA finishes (compare mode); false when memory
 * runs out. The counts, by CTA linear id then warp: */
bool emu_grid_keep_warp_counts(emu_grid *g);
const uint64_t *emu_grid_warp_counts(const emu_grid *g, size_t *n);
/* Ends the grid from outside its warps (the engine's watchdog): records a fault of kind with
 * message unless a warp faulted first. */
void emu_grid_abort(emu_grid *g, emu_fault_kind kind, const char *message);
/* The same for a fault that belongs to warp w (out of host memory for its state, say): w stops
 * (emu_warp_run returns EMU_STOP_FAULT from now on). */
void emu_warp_abort(emu_warp *w, emu_fault_kind kind, const char *message);
/* Replaces the grid's memory policy (the engine installs the one its determinism mode needs);
 * only before the first CTA is created. */
void emu_grid_set_policy(emu_grid *g, emu_mem_policy *policy);

/* Creates CTA number `linear_id` (x fastest) ready to run on SM `sm`. */
emu_cta *emu_cta_create(emu_grid *g, uint64_t linear_id, uint32_t sm);
/* emu_cta_create in the storage of `storage`, a CTA of the same grid that no engine runs any
 * more (finished, or abandoned after a fault), or in new storage when it is NULL. The CTA starts
 * exactly as a fresh one (registers, shared and local memory zero) but costs no allocation: an
 * engine keeps one such storage per CTA slot. NULL when linear_id is out of range or memory ran
 * out (a non-NULL storage is then still the caller's to destroy).
 * `regs`: the CTA's registers in memory of the caller's (emu_cta_regs_words(g) words, 64-byte
 * aligned), which it keeps until the CTA is destroyed or built again, or NULL: in the CTA's own.
 * They may hold anything: the CTA zeroes the rows an instruction could read before writing
 * them (entry_rows.c), as a reused CTA does. A storage is built again with registers lent
 * exactly when it was built with them (an engine lends to every CTA of a run or to none). */
emu_cta *emu_cta_create_in(emu_cta *storage, emu_grid *g, uint64_t linear_id, uint32_t sm,
                           uint64_t *regs);
/* emu_cta_create_in(NULL, ...) with the CTA's own state (the CTA, its warps with their first
 * SIMT entries and call frames, its shared memory) in `storage`, emu_cta_storage_bytes(g) bytes
 * of the caller's, 64-byte aligned, which may hold anything and which the caller keeps until the
 * CTA is destroyed (its storage may serve later CTAs through emu_cta_create_in until then): an
 * engine that places many CTAs at once takes their storage in one block rather than in a dozen
 * allocations each, every one a growth of the host thread's heap (a system call) and its pages'
 * faults. What outgrows it (a deeper SIMT stack or call chain) is the CTA's own. */
emu_cta *emu_cta_create_at(void *storage, emu_grid *g, uint64_t linear_id, uint32_t sm,
                           uint64_t *regs);
size_t emu_cta_storage_bytes(const emu_grid *g);
/* Register words of a CTA of g: its warps' kernel frames (emu_warp_kernel_regs each). */
size_t emu_cta_regs_words(const emu_grid *g);
void emu_cta_destroy(emu_cta *c);
uint32_t emu_cta_warp_count(const emu_cta *c);
emu_warp *emu_cta_warp(emu_cta *c, uint32_t i);
/* True when every warp has exited. */
bool emu_cta_done(const emu_cta *c);
/* Barriers of c completed so far: a warp waiting at a barrier becomes runnable only when this
 * count moves (an engine that caches which warps can run rereads them then). */
uint64_t emu_cta_barriers_completed(const emu_cta *c);
/* The warps of c (at most 32) among `which`, one bit per warp: in *live those that have not
 * exited (emu_warp_exited false), in *ready those that can run (emu_warp_runnable); bits
 * outside `which` are 0. One call for what a barrier's completion changes, not three per warp. */
void emu_cta_warp_bits(const emu_cta *c, uint32_t which, uint32_t *live, uint32_t *ready);
/* Called by the engine when no warp of the CTA can run: records a barrier-deadlock fault that
 * names the barrier, the waiting threads and their PTX lines. */
void emu_cta_report_deadlock(emu_cta *c);

/* The identity of a warp as the engine placed it, and the policies' per-warp state. */
uint64_t emu_warp_cta_linear(const emu_warp *w);   /* its CTA's linear id (x fastest) */
uint32_t emu_warp_sm(const emu_warp *w);           /* the SM its CTA runs on */
uint32_t emu_warp_slot(const emu_warp *w);         /* the hardware warp slot the engine gave it */
void emu_warp_set_slot(emu_warp *w, uint32_t slot);
void *emu_warp_user(const emu_warp *w, emu_policy_level level);
void emu_warp_set_user(emu_warp *w, emu_policy_level level, void *p);
/* The warp records its events from now on in `ring` (EMU_RING_EVENTS_BYTES) and their address
 * rows in `rows` (EMU_RING_ROWS_BYTES), which the caller keeps and frees, not the warp: a cycle
 * model lends each warp slot's ring to the warps it places there, so that rings are not
 * allocated warp by warp. No events may be pending. */
void emu_warp_lend_ring(emu_warp *w, emu_event *ring, uint64_t *rows);

/* Checkpoints (iGPU regions, KILO TM transactions): a copy of the registers of every frame and
 * the local memory of the lanes `lanes`, with the warp's position (frame depth, pc, SIMT entry
 * of those lanes, carry flag, instruction count); iGPU rewinds a path to one
 * (emu_warp_checkpoint_rewind) and KILO TM retries a transaction's lanes from one
 * (emu_warp_tx_retry, emu_warp_tx_abort). NULL when memory runs out. */
typedef struct emu_warp_checkpoint emu_warp_checkpoint;
emu_warp_checkpoint *emu_warp_checkpoint_take(const emu_warp *w, uint32_t lanes);
void emu_warp_checkpoint_free(emu_warp_checkpoint *ck);
/* KILO TM's retry: restores the lanes `lanes` of ck (registers and local memory) and sends them
 * back to the checkpointed pc in a transaction entry (EMU_SIMT_TX) pushed on top of the stack
 * that reconverges at rpc, leaving them in the entries below (where they wait at rpc with the
 * lanes that committed: the paper's R/T entries, spec kilotm.md section 2.4). Call it only
 * between runs of w, with the checkpoint taken in the same frame. Returns the index of the
 * entry pushed (the lanes' transaction now runs in it). */
uint32_t emu_warp_tx_retry(emu_warp *w, const emu_warp_checkpoint *ck, uint32_t lanes,
                           uint32_t rpc);
/* The index of the SIMT entry that was on top when ck was taken. */
uint32_t emu_warp_checkpoint_entry(const emu_warp_checkpoint *ck);
/* True when w runs in the frame ck was taken in (not in a function called since). */
bool emu_warp_checkpoint_in_frame(const emu_warp *w, const emu_warp_checkpoint *ck);
/* KILO TM's abort inside a transaction (a lane whose reads became inconsistent; ck was taken
 * right after the lanes' outermost tx_begin): restores `lanes` and restarts them after their
 * tx_begin, in a transaction entry reconverging after the transaction's closing tx_commit.
 * `base` is the index of the SIMT entry the transaction runs in; the lanes leave it and every
 * entry above it, and it splits as a divergent branch would (one entry is inserted at base:
 * entries from base on move up by one). Returns the index of the restarted lanes' entry. */
uint32_t emu_warp_tx_abort(emu_warp *w, const emu_warp_checkpoint *ck, uint32_t lanes,
                           uint32_t base);
/* Restart of the path the warp runs now (its top SIMT entry) when every one of its lanes
 * crossed checkpoint ck together: their registers, local memory and carry flag go back to ck's
 * and the path's pc to ck's pc, its mask and reconvergence point unchanged, so a branch taken
 * since runs again for the same lanes and the path pops where it did. can_rewind says whether
 * that holds (same frame depth, the path's lanes all in ck, ck's pc not the path's
 * reconvergence point, a plain path not waiting at a barrier). */
bool emu_warp_checkpoint_can_rewind(const emu_warp *w, const emu_warp_checkpoint *ck);
void emu_warp_checkpoint_rewind(emu_warp *w, const emu_warp_checkpoint *ck);
/* The lanes of the path the warp runs now (its top SIMT entry), exited lanes excluded. */
uint32_t emu_warp_path_lanes(const emu_warp *w);
/* iGPU: marks the region boundaries of function fn of mod: with boundary[i] != 0 the executors
 * tell the memory policy (event EMU_PEV_REGION_BOUNDARY, the lanes about to run instruction i)
 * before they run instruction i, with the warp's pc on i; boundary NULL clears the marks.
 * The values are kept (emu_warp_region_mark).
 * Compiled code (JIT, AUTO) stops before a boundary and the interpreter runs the boundary's
 * block, so every executor tells the policy alike. False when fn is not a function of mod. */
bool emu_module_set_region_boundaries(emu_module *mod, const ptx_function *fn,
                                      const uint8_t *boundary);
/* Whether some function of mod has region boundaries marked. */
bool emu_module_has_region_boundaries(const emu_module *mod);
/* The value boundary[] gave the instruction w runs next (0: not a boundary, or none marked);
 * iGPU keeps 1 + the boundary's live-in count there (timing/igpu). */
uint8_t emu_warp_region_mark(const emu_warp *w);

/* Runs warp w for at most `budget` warp instructions, on the grid's executor.
 *
 * The executor contract (what every executor, interpreter or JIT, must do exactly alike):
 * - Counting. Every instruction the warp issues counts one, whether or not its guard holds for
 *   any lane (a guarded-off instruction still issues on a GPU). An instruction that the memory
 *   policy defers counts each time it issues, the deferred issue included. Switching between the
 *   warp's paths (a path waiting at a barrier lets another run) counts nothing. %clock, %clock64,
 *   %globaltimer and GPUDet's quanta read this count, so it is part of the program's meaning.
 * - Budget. The run ends after exactly `budget` counted instructions unless it stops earlier.
 * - Stops. A run ends early only: when the warp waits at a barrier (EMU_STOP_BARRIER); when the
 *   memory policy asks for it after an instruction or defers one (EMU_STOP_MEMORDER; a deferred
 *   instruction leaves no effect and the warp's pc stays on it); at nanosleep, mbarrier test/try
 *   waits that did not complete, and yields (EMU_STOP_BUDGET); when every lane has exited
 *   (EMU_STOP_EXIT); at a fault (EMU_STOP_FAULT).
 * - Faults. An instruction that faults has no effect at all: every lane's address is checked,
 *   and every operand validated, before any lane writes a register or memory.
 * - Spin detection. A uniformly taken back-edge marked EMU_UOP_SPIN_BACKEDGE calls
 *   emu_simt_backedge (which may let waiting lanes of the warp run, as independent thread
 *   scheduling does); no other branch does.
 * - State. Between runs all of a warp's state lives in the warp (registers in their rows, SIMT
 *   stack, frames, carry flag, instruction count), so a warp can move between executors at any
 *   stop. */
emu_stop emu_warp_run(emu_warp *w, uint64_t budget);
/* A CTA's turn of warp runs, as an engine without determinism gives it (timing/engine/
 * engine_parallel.c): its ready warps run one after another, each the first ready one at or
 * after `next` (round the CTA), for at most `slice` and what is `left`, while each stops at a
 * barrier or exits having run something short of its budget. In one call, so that a
 * barrier-bound kernel (a scan's warps stop at a bar.sync every few instructions) pays no
 * engine step, no calls for the warps' bits and no executor dispatch per warp run. */
typedef struct emu_cta_turn {
    uint32_t live, ready;     /* in/out: one bit per warp: not exited; can run */
    uint32_t next;            /* in: where the search for a ready warp starts; out: the warp
                                 after the last one run */
    uint64_t slice;           /* in: the most one warp's run may execute */
    uint64_t left;            /* in/out: what the turn's runs may still execute together */
    uint64_t barriers;        /* in/out: the CTA's completed barriers the bits have seen */
    /* optional (NULL: none), with arg: after each run, its instruction count (a watchdog's;
     * before the run's fault is looked at), and where the search after it starts instead of
     * the warp after it (a seeded engine's draw) */
    void (*ran)(void *arg, uint64_t n);
    uint32_t (*draw)(void *arg);
    void *arg;
} emu_cta_turn;
/* Runs turn t of c until a run faults (returned at once, the bits as before it), the CTA's
 * last warp exits, a run stops otherwise or runs nothing or its whole budget, no warp is
 * ready, or *stop (read relaxed: another host thread's request, or t->ran's) is set. Returns
 * the last run's stop. t->ready != 0. */
emu_stop emu_cta_run_turn(emu_cta *c, emu_cta_turn *t, const int *stop);
/* A hint to the host's caches, with no effect on anything else: loads what emu_warp_run of w
 * reads first. Not deep: the warp's own record; deep (the record is read, so it should be in
 * cache by then: from an earlier call that was not deep), its CTA's record and the tops of its
 * SIMT stack and call frames. An engine that knows which warp it runs next overlaps those
 * loads with the runs before (a grid's warps are far more than the caches hold). */
void emu_warp_prefetch(const emu_warp *w, bool deep);
/* The same for what w's next instruction accesses when it is a global or generic load or
 * store through a register: not `lines`, the registers of the run's first instructions (rows
 * of their lanes) and the event the run records first; `lines` (the registers are read, so
 * they should be in cache by then), the lines its lanes access, and those of the global
 * accesses after it in its block whose address register those instructions do not write
 * first. A cycle model's weave, which runs the warps of every SM one short run
 * after the other, gives a warp emu_warp_prefetch's two calls and then these two, each a run
 * ahead of the next (warp_prefetch.c). */
void emu_warp_prefetch_access(const emu_warp *w, bool lines);
/* False while the warp waits at a barrier that has not completed, or has exited. */
bool emu_warp_runnable(const emu_warp *w);
bool emu_warp_exited(const emu_warp *w);
uint32_t emu_warp_id(const emu_warp *w);          /* index within its CTA */
uint64_t emu_warp_instructions(const emu_warp *w); /* warp instructions executed so far */
/* Where an unfinished warp is, in one line for people: "block (1,0,0) warp 3 (lanes
 * 0xffffffff): kernel k (PTX line 42, k.cu:17), waiting at barrier 0". Returns what snprintf
 * returns; nothing (0) for a warp that has exited. */
int emu_warp_where(const emu_warp *w, char *buf, size_t len);

/* ---------------------------------------------------------------- for the cycle model
 * (timing/model/): it decides when a warp issues, so it looks at the instruction before the
 * warp runs it, and the clocks read the simulated time. */

/* The instruction w issues next (its top SIMT path's), without running it. */
typedef struct emu_next_instr {
    uint32_t func, pc;        /* as emu_event gives them */
    uint32_t depth;           /* call frames below it (registers of different frames differ) */
    uint16_t op;              /* ptx_opcode */
    uint8_t cls;              /* emu_op_class */
    uint8_t nreads, nwrites;
    const int32_t *regs;      /* register ids of its function: nreads read, then nwrites written */
    bool shared_state;        /* may touch what other CTAs see (see emu_warp_run_local) */
} emu_next_instr;
/* False when w has exited, waits at a barrier, faulted or has no path to run. */
bool emu_warp_peek(const emu_warp *w, emu_next_instr *out);
/* The same for instruction pc of function func of w's module (an event's func and pc). */
bool emu_warp_instr(const emu_warp *w, uint32_t func, uint32_t pc, emu_next_instr *out);
/* The same for a warp of grid g, without reading the warp (a cycle model asks it for every
 * instruction it issues, when the warp's own state is out of the cache). */
bool emu_grid_instr(const emu_grid *g, uint32_t func, uint32_t pc, emu_next_instr *out);
/* From now on %clock/%clock64 read `cycles` and %globaltimer reads `ns` in w (the model sets
 * them before each instruction it lets w issue). */
void emu_warp_set_clock(emu_warp *w, uint64_t cycles, uint64_t ns);
/* emu_warp_run, except that with the launch's event sink installed the run also ends (as at its
 * budget) before an instruction whose result depends on when it runs relative to other warps
 * (atomics, fences, barriers, calls, volatile and ordered accesses, clock reads, waits), unless
 * that is the run's first: a cycle model runs warps ahead this far and issues the events later,
 * and the instructions that synchronise at the cycles it issues them. */
emu_stop emu_warp_run_ahead(emu_warp *w, uint64_t budget);
/* emu_warp_run_ahead, except that the run also ends before (even as its first) an instruction
 * that may read or write what warps of other CTAs see (emu_next_instr.shared_state): a
 * parallel cycle model runs warps this far on its SMs' host threads, and the rest in a serial
 * merge in a fixed order, so that racing programs give the same results on any thread count. */
emu_stop emu_warp_run_local(emu_warp *w, uint64_t budget);

/* ---------------------------------------------------------------- textures and surfaces */

/* A texture or surface object as the runtime describes it (cudaCreateTextureObject,
 * cudaCreateSurfaceObject): where the texels are, their format and, for textures, how they are
 * sampled. Kernels name it by the 64-bit handle emu_texture_create returns (the value of a
 * cudaTextureObject_t / cudaSurfaceObject_t). */
typedef enum emu_texel_kind { EMU_TEXEL_UNSIGNED, EMU_TEXEL_SIGNED, EMU_TEXEL_FLOAT } emu_texel_kind;
/* The values of cudaTextureAddressMode. */
typedef enum emu_tex_address {
    EMU_TEX_WRAP = 0, EMU_TEX_CLAMP = 1, EMU_TEX_MIRROR = 2, EMU_TEX_BORDER = 3
} emu_tex_address;

#define EMU_TEX_MAX_LEVELS 16

typedef struct emu_tex_level {
    uint64_t base;                  /* device address of texel (0,0,0) of layer 0 */
    uint32_t width, height, depth;  /* texels; 1 for a dimension the resource lacks */
    uint64_t pitch, slice;          /* bytes from a row to the next, from a 2D slice (or a
                                       layer, or a cube face) to the next */
} emu_tex_level;

typedef struct emu_texture {
    bool surface;                   /* a surface object: suld/sust/sured/suq name it */
    uint8_t dims;                   /* 1, 2 or 3 */
    bool layered, cubemap;          /* layers (cube faces) follow each other `slice` apart */
    bool linear;                    /* cudaResourceTypeLinear: tex1Dfetch, no sampling */
    uint32_t layers;                /* layered / cubemap: layers in all (6 per cube) */
    uint8_t nchan;                  /* channels: 1..4 (x, y, z, w) */
    uint8_t bits[4];                /* bits of each channel: 8, 16 or 32 */
    uint8_t kind;                   /* emu_texel_kind of every channel */
    uint32_t elem;                  /* bytes per texel */
    /* sampling (textures only) */
    uint8_t address[3];             /* emu_tex_address per dimension */
    bool filter_linear;
    bool read_normalized;           /* 8/16-bit integers read as floats in [0,1] / [-1,1] */
    bool normalized_coords;
    bool srgb;
    float border[4];
    bool mip_linear;
    float lod_bias, min_lod, max_lod;
    uint32_t nlevels;               /* 1 unless a mipmapped array */
    emu_tex_level level[EMU_TEX_MAX_LEVELS];
} emu_texture;

/* Texture and surface references (`.global .texref t;` / `.surfref`, CUDA 11's texture<> and
 * surface<>) are bound by storing an object's handle in the reference's 8 bytes of module memory
 * (emu_module_symbol gives the address); 0 means unbound, and an instruction that names an
 * unbound reference faults. A .samplerref's state is its initialiser in the IR. */

/* Registers an object and returns its handle (never 0), or 0 when t is not valid. */
uint64_t emu_texture_create(const emu_texture *t);
bool emu_texture_destroy(uint64_t handle);
/* The object behind a handle; false if there is none. */
bool emu_texture_get(uint64_t handle, emu_texture *out);
/* Forgets every object (cudaDeviceReset). */
void emu_texture_release_all(void);

/* ---------------------------------------------------------------- tensor maps (TMA) */

/* ptxsim's encoding of a CUtensorMap (the 128-byte, 64-byte-aligned object that
 * cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col fill and cp.async.bulk.tensor names). The
 * driver keeps its layout opaque; this one is ours: the runtime's encoder writes it after
 * checking every argument as the driver does, and the emulator reads it back (from the kernel's
 * __grid_constant__ parameter or from global memory) at each tensor copy. Dimension 0 is the
 * innermost (contiguous) one everywhere. */
#define EMU_TENSOR_MAP_MAGIC UINT32_C(0x414d5450)   /* "PTMA" */
/* The values of cuda.h's CUtensorMapDataType, CUtensorMapInterleave and CUtensorMapSwizzle that
 * the fields below hold (the emulator does not include cuda.h). */
enum {
    EMU_TMAP_UINT8, EMU_TMAP_UINT16, EMU_TMAP_UINT32, EMU_TMAP_INT32, EMU_TMAP_UINT64,
    EMU_TMAP_INT64, EMU_TMAP_FLOAT16, EMU_TMAP_FLOAT32, EMU_TMAP_FLOAT64, EMU_TMAP_BFLOAT16,
    EMU_TMAP_FLOAT32_FTZ, EMU_TMAP_TFLOAT32, EMU_TMAP_TFLOAT32_FTZ, EMU_TMAP_16U4_ALIGN8B,
    EMU_TMAP_16U4_ALIGN16B, EMU_TMAP_16U6_ALIGN16B
};
enum { EMU_TMAP_INTERLEAVE_NONE, EMU_TMAP_INTERLEAVE_16B, EMU_TMAP_INTERLEAVE_32B };
enum {
    EMU_TMAP_SWIZZLE_NONE, EMU_TMAP_SWIZZLE_32B, EMU_TMAP_SWIZZLE_64B, EMU_TMAP_SWIZZLE_128B,
    EMU_TMAP_SWIZZLE_128B_ATOM_32B, EMU_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
    EMU_TMAP_SWIZZLE_128B_ATOM_64B
};
#define EMU_TENSOR_MAP_MAX_RANK 5

typedef struct emu_tensor_map {
    uint32_t magic;              /*   0: EMU_TENSOR_MAP_MAGIC once encoded */
    uint8_t dtype;               /*   4: CUtensorMapDataType */
    uint8_t rank;                /*   5: 1..5 */
    uint8_t interleave;          /*   6: CUtensorMapInterleave */
    uint8_t swizzle;             /*   7: CUtensorMapSwizzle */
    uint8_t l2_promotion;        /*   8: CUtensorMapL2promotion (no functional effect) */
    uint8_t oob_fill;            /*   9: CUtensorMapFloatOOBfill: 1 fills with NaN */
    uint8_t im2col;              /*  10: 0 tiled, 1 im2col */
    uint8_t elem_bytes;          /*  11: bytes per element; 0 for the packed 4/6-bit types */
    uint16_t channels_per_pixel; /*  12: im2col */
    uint16_t pixels_per_column;  /*  14: im2col */
    uint64_t global_address;     /*  16: device address of element (0,...,0) */
    uint64_t global_dim[5];      /*  24: elements per dimension */
    uint64_t global_stride[4];   /*  64: bytes from one index to the next of dimensions 1..4 */
    uint16_t box_dim[5];         /*  96: tiled: box elements per dimension (1..256) */
    uint8_t element_stride[5];   /* 106: traversal step per dimension (1..8) */
    uint8_t reserved;            /* 111 */
    int16_t lower_corner[3];     /* 112: im2col: pixel box corners of the spatial dims */
    int16_t upper_corner[3];     /* 118 */
    uint8_t pad[4];              /* 124 */
} emu_tensor_map;

_Static_assert(sizeof(emu_tensor_map) == 128, "a CUtensorMap holds 128 bytes");

/* ---------------------------------------------------------------- device runtime services */

/* The heap that malloc/free (and new/delete) in kernels use: its size is
 * cudaLimitMallocHeapSize (8 MiB by default). It is one allocation of device memory, made
 * when a kernel first calls malloc; a size set while blocks are live applies once they are
 * all freed. malloc returns 0 (NULL) when no free range is large enough. */
/* Sets the heap's size and, while no block is live, sets the heap aside in device memory at
 * once; false (the old heap kept) when the device memory left cannot hold it. */
bool emu_heap_set_size(uint64_t bytes);
uint64_t emu_heap_size(void);
/* True once a kernel has called malloc (CUDA then refuses a new heap size until a reset). */
bool emu_heap_in_use(void);
/* Device malloc/free (thread-safe). free of 0 does nothing; false for an address malloc did
 * not return. */
uint64_t emu_heap_alloc(uint64_t size);
bool emu_heap_free(uint64_t addr);
/* Frees the heap and every block in it (cudaDeviceReset). */
void emu_heap_release_all(void);
/* Sets the heap aside now (as the first device malloc would); false when it cannot be. */
bool emu_heap_ensure(void);

/* Device printf and assert output. Kernels append records to a FIFO of
 * cudaLimitPrintfFifoSize bytes; like the hardware's, it is circular: when a record does not
 * fit, the oldest records give way. emu_output_flush writes the records, in the order they
 * were made, to the host's stdout (printf) and stderr (assertion messages); the runtime calls
 * it where CUDA flushes: at the start of a launch and at synchronisation points. */
void emu_output_set_fifo_size(uint64_t bytes);
/* Writes the records; where records were lost to overflow since the last flush, a line on
 * stderr says how many. */
void emu_output_flush(void);
/* printf records (and their bytes in the FIFO) lost to overflow since the program started. */
void emu_output_dropped(uint64_t *records, uint64_t *bytes);
/* True once a kernel has printed (CUDA then refuses a new FIFO size until a reset). */
bool emu_output_in_use(void);
/* Drops what is buffered and forgets that kernels printed (cudaDeviceReset, after a flush). */
void emu_output_discard(void);

/* ---------------------------------------------------------------- snapshots
 *
 * The state a kernel can change outside its own threads: the bytes of every live allocation
 * (device, module variables, managed and registered host memory), the device heap's
 * bookkeeping, and the device output not yet written. Compare mode runs a launch twice from one
 * snapshot and compares what each run left. Taken and restored between launches only. */
typedef struct emu_snapshot emu_snapshot;
emu_snapshot *emu_snapshot_take(void);   /* NULL when memory runs out */
/* Puts memory, the heap and the device output (its records and loss counters) back as s has
 * them (the allocations must be the ones s saw). */
void emu_snapshot_restore(const emu_snapshot *s);
void emu_snapshot_free(emu_snapshot *s);
/* The first difference between s and the state now: false when none; else the address of the
 * first differing byte of memory (*addr, with the byte in s and now) or, when memory agrees,
 * *addr = 0 and what else differs in why. */
bool emu_snapshot_differs(const emu_snapshot *s, uint64_t *addr, uint8_t *was, uint8_t *now,
                          char *why, size_t whylen);

#endif
