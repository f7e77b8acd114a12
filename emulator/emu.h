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
    EMU_FAULT_OUT_OF_RESOURCES     /* cudaErrorLaunchOutOfResources (too much shared, ...) */
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
void emu_module_unload(emu_module *mod);
const ptx_module *emu_module_ptx(const emu_module *mod);
/* Device address and size of a module-scope variable; false if there is none by that name. */
bool emu_module_symbol(const emu_module *mod, const char *name, uint64_t *addr, uint64_t *size);

/* ---------------------------------------------------------------- memory policies */

/* A warp-level memory operation as the executor hands it to the policy: one address per
 * active lane, already checked against the address map. */
typedef enum emu_mem_kind { EMU_MEM_LOAD, EMU_MEM_STORE, EMU_MEM_ATOMIC, EMU_MEM_FENCE }
    emu_mem_kind;

typedef struct emu_warp emu_warp;

typedef struct emu_mem_op {
    uint8_t kind;               /* emu_mem_kind */
    uint8_t space;              /* ptx_space after generic resolution: GLOBAL or SHARED... */
    uint8_t size;               /* bytes per lane: 1..16 (vector accesses are one op) */
    uint32_t mask;              /* active lanes */
    uint64_t addr[EMU_WARP_SIZE];   /* host-usable addresses */
    uint8_t (*data)[16];        /* per lane: the value stored, or where a load writes */
    const ptx_instr *instr;     /* atomics: op, type, cas operands come from here */
    uint8_t (*operand_b)[16];   /* atomics: second operand per lane (b, or cas compare) */
    uint8_t (*operand_c)[16];   /* cas: new value */
} emu_mem_op;

typedef struct emu_mem_policy {
    const char *name;
    /* Performs op for warp w. Returns true when the warp must stop after this instruction
     * (the policy needs the engine to order it: EMU_STOP_MEMORDER). */
    bool (*access)(struct emu_mem_policy *self, emu_warp *w, emu_mem_op *op);
    /* Called when a warp reaches a stop point the policy may care about (quantum end). */
    void (*warp_stopped)(struct emu_mem_policy *self, emu_warp *w, int reason);
    void *state;
} emu_mem_policy;

/* The policy that reads and writes device memory at once (no determinism). */
emu_mem_policy *emu_direct_policy(void);
/* The atomic read-modify-write of one lane: the one definition of every atom/red operation,
 * used by all policies. Returns the old value in old (as many bytes as the type). */
void emu_atomic_apply(const ptx_instr *in, void *addr, const void *b, const void *c,
                      void *old);

/* ---------------------------------------------------------------- execution */

typedef struct emu_launch {
    const emu_module *module;
    const ptx_function *kernel;    /* an entry of module */
    emu_dim3 grid, block;
    uint32_t dynamic_smem;         /* bytes of extern .shared */
    const void *params;            /* the parameter block, laid out as the PTX .params */
    size_t params_size;
    emu_mem_policy *policy;
    uint32_t sm_count;             /* for %nsmid / %smid */
    uint64_t grid_id;              /* %gridid */
} emu_launch;

typedef struct emu_grid emu_grid;
typedef struct emu_cta emu_cta;

/* Why emu_warp_run returned. */
typedef enum emu_stop {
    EMU_STOP_BUDGET,     /* ran its instruction budget */
    EMU_STOP_BARRIER,    /* waits at a CTA barrier (emu_warp_runnable tells when released) */
    EMU_STOP_MEMORDER,   /* the memory policy asked to stop (atomic, fence, ...) */
    EMU_STOP_EXIT,       /* every thread of the warp has exited */
    EMU_STOP_FAULT       /* a fault; emu_grid_fault has it */
} emu_stop;

/* Validates the launch (block size, shared memory, parameter size) and prepares the grid. */
emu_grid *emu_grid_create(const emu_launch *launch, emu_fault *fault);
void emu_grid_destroy(emu_grid *g);
uint64_t emu_grid_cta_count(const emu_grid *g);
/* The first fault of the grid, if any (set by whichever warp faulted first in CTA order). */
const emu_fault *emu_grid_fault(const emu_grid *g);

/* Creates CTA number `linear_id` (x fastest) ready to run on SM `sm`. */
emu_cta *emu_cta_create(emu_grid *g, uint64_t linear_id, uint32_t sm);
void emu_cta_destroy(emu_cta *c);
uint32_t emu_cta_warp_count(const emu_cta *c);
emu_warp *emu_cta_warp(emu_cta *c, uint32_t i);
/* True when every warp has exited. */
bool emu_cta_done(const emu_cta *c);
/* Called by the engine when no warp of the CTA can run: records a barrier-deadlock fault that
 * names the barrier, the waiting threads and their PTX lines. */
void emu_cta_report_deadlock(emu_cta *c);

/* Runs warp w for at most `budget` warp instructions. */
emu_stop emu_warp_run(emu_warp *w, uint64_t budget);
/* False while the warp waits at a barrier that has not completed, or has exited. */
bool emu_warp_runnable(const emu_warp *w);
bool emu_warp_exited(const emu_warp *w);
uint32_t emu_warp_id(const emu_warp *w);          /* index within its CTA */
uint64_t emu_warp_instructions(const emu_warp *w); /* warp instructions executed so far */

#endif
