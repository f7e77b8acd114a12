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

/* ---------------------------------------------------------------- memory policies */

/* A warp-level memory operation as the executor hands it to the policy: one address per
 * active lane, already checked against the address map. */
typedef enum emu_mem_kind {
    EMU_MEM_LOAD, EMU_MEM_STORE, EMU_MEM_ATOMIC, EMU_MEM_FENCE,
    /* A device-runtime call with effects beyond the warp (printf output, malloc, free): no
     * addresses; a policy that orders such effects defers it (see `deferred`). */
    EMU_MEM_CALL
} emu_mem_kind;

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
    /* Set by the policy (atomics and calls only): it did not perform the operation; the warp
     * stops BEFORE the instruction (EMU_STOP_MEMORDER, nothing written, pc unchanged) and
     * executes it again when next run. GPUDet defers global atomics to its serial mode. */
    bool deferred;
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
    uint32_t max_warps_per_sm;     /* %nwarpid: warps one SM of the modelled GPU holds (0: 64) */
    /* Shared memory the system reserves for each CTA (sm_80 and later: 1 KiB), laid out below
     * the kernel's own shared memory; %reserved_smem_offset_* point into it. */
    uint32_t reserved_smem;
    uint64_t grid_id;              /* %gridid */
    /* %envreg0..31 as the driver sets them for this launch: a cooperative launch puts the
     * address of the grid-synchronisation workspace in %envreg1 (high) : %envreg2 (low),
     * which cooperative_groups::this_grid() reads; zero otherwise. */
    uint32_t envreg[32];
    /* Per-thread stack for calls (cudaLimitStackSize): honoured above ptxsim's own 16 KiB call
     * stack, which smaller values leave as it is; 0 = the default. */
    uint64_t call_stack;
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
/* The launch as the grid keeps it, and the shared memory one CTA takes (static + dynamic). */
const emu_launch *emu_grid_launch(const emu_grid *g);
uint64_t emu_grid_smem_per_cta(const emu_grid *g);
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
/* Where an unfinished warp is, in one line for people: "block (1,0,0) warp 3 (lanes
 * 0xffffffff): kernel k (PTX line 42, k.cu:17), waiting at barrier 0". Returns what snprintf
 * returns; nothing (0) for a warp that has exited. */
int emu_warp_where(const emu_warp *w, char *buf, size_t len);

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

#endif
