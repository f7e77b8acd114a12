/* decode.h: the decoded form of a function (µops), built once per function when a module loads.
 *
 * decode/ owns the translation IR -> µops: every operand resolved to what an executor needs
 * (a register row offset, an immediate already converted, a special register, an address's base
 * and offset), the guard as a predicate row, the registers read and written, an op class for
 * the timing model, and flags saying what the instruction may do (stop the warp, fault, change
 * control flow, touch memory). The interpreter, the JIT, the timing model and the analyses all
 * read this one form; nothing re-decodes operands at run time.
 *
 * Register file layout (shared by every executor): a frame's registers are rows of 32 uint64_t
 * lanes, row = slot * 32 in ptx_reg.slot numbering; a .b128 register takes two rows (low, high);
 * a .v2/.v4 register one row per component. A predicate register's row holds its 32 lanes as one
 * mask in the low 32 bits of its first word (the predicate mask file shares the slots, so frames,
 * calls and checkpoints need nothing special for it).
 */
#ifndef PTXSIM_EMULATOR_DECODE_DECODE_H
#define PTXSIM_EMULATOR_DECODE_DECODE_H

#include "emulator/emu.h"

#include <stdbool.h>
#include <stdint.h>

struct emu_ctx;
struct emu_uop;
/* The interpreter's handler of one µop: runs it for the lanes in ctx->mask. */
typedef void (*emu_exec_fn)(struct emu_ctx *c, const struct emu_uop *u);

typedef enum emu_opd_kind {
    EMU_OPD_NONE = 0,
    EMU_OPD_REG,    /* a register: row is its row offset (component included), type and bits its
                       declaration (bits 128 for .b128) */
    EMU_OPD_PRED,   /* a predicate register: row is its row offset (the mask is in word 0);
                       EMU_OPD_F_NEG for !p */
    EMU_OPD_IMM,    /* an immediate: imm holds it converted to `type` (the instruction's first
                       type); raw holds it as written and row its ptx_operand_kind */
    EMU_OPD_SREG,   /* a special register: row = ptx_sreg, type = its component or index */
    EMU_OPD_ADDR,   /* [base + imm]: F_BASE_REG (row = the base register's row, bits its width),
                       F_BASE_SYM (row = symbol id), or neither (an absolute address) */
    EMU_OPD_SYM,    /* a symbol used as a value (its address): row = symbol id */
    EMU_OPD_VEC,    /* {a, b, ...}: imm elements, decoded in the code's pool from index row */
    EMU_OPD_LIST,   /* (a, ...) call lists and [a, ...] brackets: as VEC */
    EMU_OPD_LABEL,  /* imm = target instruction index */
    EMU_OPD_SINK    /* _ */
} emu_opd_kind;

enum {
    EMU_OPD_F_NEG = 1,       /* !p, or vmad's -r */
    EMU_OPD_F_SIGNED = 2,    /* REG: a signed integer declaration */
    EMU_OPD_F_BASE_REG = 4,  /* ADDR: the base is a register */
    EMU_OPD_F_BASE_SYM = 8,  /* ADDR: the base is a symbol */
    EMU_OPD_F_COMPONENT = 16 /* REG: one component of a .v2/.v4 register */
};

typedef struct emu_opd {
    uint8_t kind;     /* emu_opd_kind */
    uint8_t type;     /* see the kinds */
    uint8_t bits;     /* REG: declared width; ADDR: width of the base register */
    uint8_t flags;    /* EMU_OPD_F_* */
    uint32_t row;     /* see the kinds */
    uint64_t imm;     /* see the kinds */
    uint64_t raw;     /* IMM: ptx_operand.imm as written */
} emu_opd;


enum {
    EMU_UOP_CONTROL = 1u << 0,       /* may rewrite the SIMT stack (branches, calls, exits,
                                        barriers): the executor re-reads the stack after it */
    EMU_UOP_MAY_STOP = 1u << 1,      /* may end the warp's run (barrier, deferred memory op,
                                        nanosleep, mbarrier wait, device call) */
    EMU_UOP_MAY_FAULT = 1u << 2,     /* may raise a fault */
    EMU_UOP_MEMORY = 1u << 3,        /* reads or writes memory of some space */
    EMU_UOP_SIDE_EFFECT = 1u << 4,   /* writes memory or state beyond the warp's registers */
    EMU_UOP_SPIN_BACKEDGE = 1u << 5, /* a backward branch of a loop that waits on memory: taken
                                        uniformly, it feeds spin detection (emu_simt_backedge) */
    EMU_UOP_BLOCK_START = 1u << 6,   /* first µop of a basic block */
    EMU_UOP_CONTRACTED = 1u << 7,    /* an add/sub executed as one fma with the mul that feeds
                                        it (see emu_fma_contraction) */
    EMU_UOP_TIMED = 1u << 8,         /* its result depends on when it runs relative to other
                                        warps (atomics, fences, barriers, calls, volatile and
                                        ordered accesses, clock reads, waits): a cycle model's
                                        run-ahead stops before it (emu_warp_run_ahead) */
    EMU_UOP_REGION_BOUNDARY = 1u << 9, /* an idempotent region starts here (iGPU): the executor
                                        reports EMU_PEV_REGION_BOUNDARY before running it */
    EMU_UOP_SHARED_STATE = 1u << 10  /* it may read or write what warps of other CTAs see
                                        (global, generic, texture and surface memory, device
                                        calls, fences, traps): emu_warp_run_local stops before it */
};

typedef struct emu_uop {
    emu_exec_fn exec;         /* the interpreter's handler */
    const ptx_instr *in;      /* the IR instruction: modifiers, types, line for messages */
    const void *form;         /* a handler family's decoded form (video, cvt, mma, tex, a
                                 contracted fma), or NULL */
    uint16_t op;              /* ptx_opcode */
    uint8_t cls;              /* emu_op_class */
    uint8_t nopd;             /* operands (in->nops) */
    uint16_t flags;           /* EMU_UOP_* */
    uint8_t type;             /* in->types[0], or PTX_TYPE_NONE */
    uint8_t nreads, nwrites;  /* register ids in the code's rw table from `rw` on: reads first */
    uint32_t guard_row;       /* row of the guard predicate, or EMU_NO_GUARD */
    uint32_t guard_xor;       /* 0, or ~0 for @!p */
    uint32_t block_end;       /* one past the last µop of this one's basic block */
    uint32_t rw;
    const emu_opd *more;      /* operands 4.. (nopd > 4) */
    emu_opd opd[4];
} emu_uop;

#define EMU_NO_GUARD UINT32_MAX

/* Operand i of a µop. */
static inline const emu_opd *emu_uop_opd(const emu_uop *u, unsigned i)
{
    return i < 4 ? &u->opd[i] : &u->more[i - 4];
}

/* A contracted add/sub: d = fma(a, b, c) with the product of the mul µop `mul` (its a and b
 * read when the add executes: decode checked that nothing writes them in between). */
typedef struct emu_fma_contraction {
    uint32_t mul;             /* index of the mul µop */
    emu_opd a, b, c;          /* product operands and addend */
    bool neg_product;         /* c - a*b */
    bool neg_addend;          /* a*b - c */
} emu_fma_contraction;

/* The decoded form of one function. */
typedef struct emu_code {
    const ptx_function *fn;
    emu_uop *uops;            /* fn->ninstrs of them, in instruction order */
    uint32_t n;
    emu_opd *pool;            /* vector and list elements, operands beyond 4 */
    uint32_t npool;
    int32_t *rw;              /* register ids read and written, per µop */
    uint32_t nrw;
    void *arena;              /* owns the families' decoded forms */
} emu_code;

/* Decoding options that change meaning (they are part of a program's semantics). */
typedef struct emu_decode_options {
    bool fmad;                /* contract mul + add/sub pairs as ptxas does (--fmad=true) */
} emu_decode_options;

/* Decodes fn (which has a body): everything but the handlers, which the executor's selection
 * fills in (interp/select.c). Returns false when memory runs out. */
bool emu_decode_function(const ptx_module *m, const ptx_function *fn,
                         const emu_decode_options *opt, emu_code *code);
void emu_code_free(emu_code *code);
/* Zeroed memory owned by code (freed with it), for decoded forms. */
void *emu_code_alloc(emu_code *code, size_t size);

/* An immediate operand (ptx_operand_kind kind, value raw as written) as a value of type t. */
uint64_t emu_imm_convert(uint8_t kind, uint64_t raw, uint8_t t);

#endif
