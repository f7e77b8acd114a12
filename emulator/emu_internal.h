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

#include <pthread.h>
#include <stdarg.h>

/* Generic-address windows above the 47-bit user address space, so a generic address tells its
 * space: shared/local/param addresses are offsets inside their window. */
#define EMU_SHARED_WINDOW UINT64_C(0x0001000000000000)
#define EMU_LOCAL_WINDOW  UINT64_C(0x0002000000000000)
#define EMU_PARAM_WINDOW  UINT64_C(0x0003000000000000)
#define EMU_FUNC_WINDOW   UINT64_C(0x0004000000000000)
#define EMU_WINDOW_SIZE   UINT64_C(0x0001000000000000)

/* Per-thread local memory reserved for call frames beyond the kernel's own frame (CUDA's
 * default stack is 1 KiB; recursion in tests needs more). */
#define EMU_CALL_STACK_BYTES (16u * 1024u)
#define EMU_MAX_CALL_DEPTH 1024u
#define EMU_NBARRIERS 16
/* Back-edges a diverged path may take in a row before the waiting lanes get to run. */
#define EMU_SPIN_LIMIT 1024u

enum { EMU_TK_NONE, EMU_TK_B, EMU_TK_U, EMU_TK_S, EMU_TK_F, EMU_TK_P, EMU_TK_PK };
extern const uint8_t emu_type_bits[PTX_TYPE_COUNT];
extern const uint8_t emu_type_kind[PTX_TYPE_COUNT];

static inline uint64_t emu_mask_bits(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1);
}
static inline int64_t emu_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0) return (int64_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= emu_mask_bits(bits);
    return (int64_t)((v ^ m) - m);
}
static inline bool emu_is_signed(uint8_t t) { return emu_type_kind[t] == EMU_TK_S; }
static inline bool emu_is_float(uint8_t t) { return emu_type_kind[t] == EMU_TK_F; }

typedef struct emu_ctx emu_ctx;
typedef void (*emu_exec_fn)(emu_ctx *c, const ptx_instr *in);

/* Where a kernel puts one shared variable (offset in its static window; extern arrays at the
 * start of the dynamic part). */
typedef struct emu_shared_slot {
    int32_t sym;
    uint64_t off;
} emu_shared_slot;

/* What the loader works out for each function. */
typedef struct emu_func {
    const ptx_function *fn;
    uint32_t index;
    emu_exec_fn *exec;        /* one handler per instruction */
    bool *spin_loop;          /* backward branches whose loop waits on memory (atomics,
                                 volatile or acquire loads, mbarrier tests, nanosleep) */
    uint64_t param_base;      /* frame offset of the function's .param area */
    uint64_t frame_size;      /* local bytes one activation takes per thread */
    /* kernels: the static shared layout of everything the kernel (and its callees) uses */
    uint64_t static_smem;
    struct emu_shared_slot *shared;   /* the shared variables it uses, by symbol id */
    uint32_t nshared;
    bool calls;               /* it (or a callee) calls functions */
    uint64_t max_stack;       /* kernels: local bytes per thread the launch reserves */
} emu_func;

/* The offset of shared variable sym in kernel k's layout, UINT64_MAX when k does not use it. */
uint64_t emu_kernel_shared_offset(const struct emu_func *k, int32_t sym);

struct emu_module {
    const ptx_module *ptx;
    emu_func *funcs;
    uint32_t nfuncs;
    uint64_t *var_addr;       /* module-scope .global/.const: device address, by symbol id */
    uint64_t *frame_off;      /* function-scope .local/.param: offset in the frame, by id */
    bool *is_input_param;     /* function parameters and return values, by symbol id */
};

/* One SIMT path: lanes `mask` at pc, reconverging at rpc. bar is 0, or 1 + the id of the CTA
 * barrier the lanes wait at (pc is then past the barrier instruction): with independent thread
 * scheduling a barrier blocks only the lanes that executed it, so the warp's other paths go on
 * (emu_simt_schedule) and the warp as a whole waits only when none of them can run. */
typedef struct emu_simt { uint32_t pc, rpc, mask, bar; } emu_simt;

typedef struct emu_frame {
    const emu_func *f;
    size_t reg_base;          /* index of this frame's registers in the warp's file */
    uint64_t local_base;      /* local-space offset of this frame (same for every lane) */
    uint32_t stack_base;      /* first SIMT entry of this frame */
    uint32_t call_mask;       /* lanes that made the call */
    const ptx_instr *call;    /* the caller's call instruction */
} emu_frame;

enum { EMU_WS_READY, EMU_WS_BARRIER, EMU_WS_EXITED, EMU_WS_FAULT };

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
    uint8_t *local;           /* lanes * local_per_thread bytes, allocated on first use */
    uint64_t local_per_thread;
    uint64_t ninstr;
    uint32_t cc;              /* carry flag (CC.CF) per lane */
    uint32_t spin, spin_sp, spin_pc;  /* consecutive uniform back-edges of one SIMT entry */
    emu_dim3 tid[EMU_WARP_SIZE];
    uint64_t cache_base, cache_end, cache_gen;  /* last allocation a lane hit */
};

typedef struct emu_barrier {
    uint32_t arrived;         /* threads arrived */
    uint32_t expected;        /* 0: every live thread of the CTA */
    uint32_t red_popc;
    bool red_and, red_or;
} emu_barrier;

struct emu_cta {
    emu_grid *g;
    uint64_t linear;
    emu_dim3 ctaid;
    uint32_t sm;
    uint32_t nthreads, nwarps, live_threads;
    emu_warp *warps;
    uint8_t *smem;
    uint64_t smem_size;
    emu_barrier bar[EMU_NBARRIERS + 1];   /* the last one serves barrier.cluster.wait */
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
};

/* The executing state of one warp step. */
struct emu_ctx {
    emu_warp *w;
    emu_cta *cta;
    emu_grid *g;
    emu_frame *fr;
    const emu_func *f;
    const ptx_function *fn;
    const emu_module *mod;
    uint64_t *regs;
    uint32_t active;          /* the SIMT top's mask */
    uint32_t mask;            /* active lanes whose guard holds */
    uint32_t pc, next_pc;
    bool control;             /* the handler rewrote the SIMT stack itself */
    int stop;                 /* -1, or the emu_stop to return after this instruction */
};

/* ---- interp.c: operands */
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
void emu_warp_init(emu_warp *w, emu_cta *cta, uint32_t id);
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

/* ---- exec_mem.c: loads or stores `size` (<= 16) bytes per lane of mask at per-lane addresses
 * of space ispace (PTX_SPACE_NONE: generic), checked as ld/st are; false after a fault. */
bool emu_mem_lanes(emu_ctx *c, const ptx_instr *in, uint8_t ispace, const uint64_t *addr,
                   uint32_t mask, unsigned size, uint8_t (*data)[16], bool store);

/* ---- device_memory.c */
uint64_t emu_device_generation(void);

/* ---- instruction selection: each family returns a handler, or NULL when it lacks it */
emu_exec_fn emu_select(const ptx_instr *in);
emu_exec_fn emu_select_fast(const ptx_instr *in);
emu_exec_fn emu_select_int(const ptx_instr *in);
emu_exec_fn emu_select_simd(const ptx_instr *in);
emu_exec_fn emu_select_video(const ptx_instr *in);
emu_exec_fn emu_select_float(const ptx_instr *in);
emu_exec_fn emu_select_half(const ptx_instr *in);
emu_exec_fn emu_select_cvt(const ptx_instr *in);
emu_exec_fn emu_select_cmp(const ptx_instr *in);
emu_exec_fn emu_select_mem(const ptx_instr *in);
emu_exec_fn emu_select_multimem(const ptx_instr *in);   /* exec_multimem.c */
emu_exec_fn emu_select_control(const ptx_instr *in);
emu_exec_fn emu_select_warp(const ptx_instr *in);
emu_exec_fn emu_select_wmma(const ptx_instr *in);
emu_exec_fn emu_select_mma(const ptx_instr *in);

/* module.c */
int emu_instr_text(const ptx_instr *in, char *buf, size_t len);
const emu_func *emu_module_func(const emu_module *mod, uint32_t index);
const emu_func *emu_module_func_by_ptx(const emu_module *mod, const ptx_function *fn);

/* ---- advanced semantics: textures (sem_tex.c, exec_tex.c), the device heap (heap.c),
 * printf and assert output (device_output.c), async copies (exec_async.c) */
emu_exec_fn emu_select_tex(const ptx_instr *in);
emu_exec_fn emu_select_async(const ptx_instr *in);
/* the state spaces a copy instruction names, destination first (exec_async.c) */
void emu_copy_spaces(const ptx_instr *in, uint8_t *dst, uint8_t *src);
/* exec_tensor.c: the tensor (TMA) copies and bulk reductions; emu_select_async asks it */
emu_exec_fn emu_select_tensor(const ptx_instr *in);

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
} emu_tex_result;

void emu_tex_sample(const emu_texture *t, const emu_tex_query *q, emu_tex_result *r);

/* exec_mem.c: one thread's update of an mbarrier object (what: 0 init, 1 arrive, 2 arrive_drop,
 * 3 expect_tx, 4 complete_tx, 5 inval); returns the object before it. */
uint64_t emu_mbarrier_update(uint8_t *p, int what, uint32_t count, int32_t tx);
/* Address of a surface access of `size` bytes at integer coordinates c (the first one in bytes,
 * or in elements when `elements`). Out of range: false, unless clamp, which moves the access to
 * the nearest element inside. */
bool emu_surf_address(const emu_texture *t, uint16_t geom, const uint32_t *c, bool elements,
                      unsigned size, bool clamp, uint64_t *addr);

/* ---- sem_mma.c: tensor-core fragment layouts and arithmetic (exec_mma.c, exec_wmma.c) */
enum { EMU_MMA_A, EMU_MMA_B, EMU_MMA_C };
/* Bits of a matrix element of type t (b1 1, s4 4, s8 8, f16 16, f64 64, else 32). */
unsigned emu_mma_bits(uint8_t t);
/* Distinct elements a lane holds of matrix `which` of an m x n x k operation (sm_80 layouts). */
unsigned emu_mma_distinct(int which, unsigned m, unsigned n, unsigned k, unsigned ebits);
/* (row, col) of element e (counted over the fragment registers, low bits first) of lane. */
void emu_mma_pos(int which, unsigned m, unsigned n, unsigned k, unsigned ebits, unsigned lane,
                 unsigned e, unsigned *row, unsigned *col);
/* The same for mma.m8n8k4 with .f16 (within the lane's quad-pair's 8x8x4 operation). */
void emu_mma_pos_m8n8k4(int which, bool row_major, bool f32_acc, unsigned lane, unsigned e,
                        unsigned *row, unsigned *col);
typedef struct emu_mma_op {
    unsigned m, n, k;
    uint8_t at, bt, ct, dt;
    bool satfinite;
    uint16_t bitop;            /* b1: PTX_SFX_AND or PTX_SFX_XOR */
} emu_mma_op;
/* D = A x B + C on row-major matrices of element bits (A: m x k, B: k x n, C and D: m x n). */
void emu_mma_compute(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                     const uint64_t *C, uint64_t *D);

/* Device-side calls (exec_builtin.c): printf records and assertion messages for the FIFO. */
void emu_output_append(const char *text, size_t len, uint64_t cost, bool to_stderr);

#endif
