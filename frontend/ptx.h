/* ptx.h: the frontend's public interface.
 *
 * The frontend turns PTX text into a read-only IR (module -> functions -> instructions, with
 * a CFG and immediate post-dominators), and reads the fatbins that nvcc embeds in binaries.
 * Everything above it (emulator, timing, runtime) consumes only this header.
 */
#ifndef PTXSIM_FRONTEND_PTX_H
#define PTXSIM_FRONTEND_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- vocabulary */

typedef enum ptx_type {
    PTX_TYPE_NONE = 0,
#define X(id, text, bits, kind) PTX_TYPE_##id,
#include "ptx_types.def"
#undef X
    PTX_TYPE_COUNT
} ptx_type;

typedef enum ptx_opcode {
    PTX_OP_NONE = 0,
#define X(id, text) PTX_OP_##id,
#include "ptx_opcodes.def"
#undef X
    PTX_OP_COUNT
} ptx_opcode;

/* Suffix codes: the values below PTX_SFX_TYPES_END are the ptx_type values, so a type suffix
 * and its type share one number; modifier suffixes follow. */
typedef enum ptx_suffix {
    PTX_SFX_NONE = 0,
    PTX_SFX_TYPES_END = PTX_TYPE_COUNT - 1,
#define X(id, text, group) PTX_SFX_##id,
#include "ptx_suffixes.def"
#undef X
    PTX_SFX_COUNT
} ptx_suffix;

typedef enum ptx_suffix_group {
    PTX_SG_TYPE, PTX_SG_SPACE, PTX_SG_ROUND, PTX_SG_CMP, PTX_SG_LOGIC, PTX_SG_AOP, PTX_SG_VEC,
    PTX_SG_SEM, PTX_SG_SCOPE, PTX_SG_FLAG, PTX_SG_MODE, PTX_SG_CACHE, PTX_SG_SHAPE,
    PTX_SG_LAYOUT, PTX_SG_OTHER
} ptx_suffix_group;

typedef enum ptx_space {
    PTX_SPACE_NONE = 0, /* generic addressing, or no space */
    PTX_SPACE_REG, PTX_SPACE_SREG, PTX_SPACE_CONST, PTX_SPACE_GLOBAL, PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM, PTX_SPACE_SHARED, PTX_SPACE_SHARED_CLUSTER, PTX_SPACE_TEX,
    PTX_SPACE_SURF, PTX_SPACE_SAMPLER
} ptx_space;

/* Flag bits of ptx_instr.flags, one per FLAG-group suffix: PTX_F_FTZ, PTX_F_SAT, ... */
enum {
#define X(id, text, group) PTX_FBIT_##id,
#include "ptx_suffixes.def"
#undef X
};
#define PTX_F(id) (UINT64_C(1) << (PTX_FBIT_##id - PTX_FBIT_FTZ))

/* Special registers (%tid, %ctaid, ...). Component .x/.y/.z is ptx_operand.comp. */
typedef enum ptx_sreg {
    PTX_SREG_NONE = 0,
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID, PTX_SREG_LANEID,
    PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_LANEMASK_GT, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
    PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE, PTX_SREG_AGGR_SMEM_SIZE,
    PTX_SREG_ENVREG,  /* %envreg0..31: index in ptx_operand.comp */
    PTX_SREG_PM,      /* %pm0..7 / %pm0_64..: index in comp */
    PTX_SREG_CLUSTERID, PTX_SREG_NCLUSTERID, PTX_SREG_CLUSTER_CTAID, PTX_SREG_CLUSTER_NCTAID,
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, PTX_SREG_RESERVED_SMEM_OFFSET_END,
    PTX_SREG_RESERVED_SMEM_OFFSET_CAP,
    PTX_SREG_RESERVED_SMEM_OFFSET, /* %reserved_smem_offset_0 and _1: index in comp */
    PTX_SREG_CURRENT_GRAPH_EXEC,
    PTX_SREG_COUNT
} ptx_sreg;

/* ---------------------------------------------------------------- IR */

typedef enum ptx_operand_kind {
    PTX_OPD_REG,     /* reg = register id (ptx_function.regs), comp = vector component or 0;
                        imm != 0: a video-instruction operand selector (.b0-.b3, .h0/.h1, or a
                        permutation such as .b3210/.h10), its letters as ASCII bytes with the
                        first in the low byte */
    PTX_OPD_SREG,    /* reg = ptx_sreg, comp = 0/1/2 for .x/.y/.z, or the %envreg index */
    PTX_OPD_IMM,     /* imm = integer value */
    PTX_OPD_FIMM32,  /* imm = IEEE single bits (0fXXXXXXXX) */
    PTX_OPD_FIMM64,  /* imm = IEEE double bits (0dXXXX..., or a decimal float literal) */
    PTX_OPD_ADDR,    /* [base+imm]: base is reg >= 0, or sym >= 0, or neither (absolute);
                        comp = 1 for an address written [a].unified (ld of a .unified
                        variable); comp = PTX_ADDR_VALUE for base+imm written without
                        brackets as a source value (mov %rd, var+8): the address itself */
    PTX_OPD_SYM,     /* a symbol used as a value (its address; a function name in call/mov) */
    PTX_OPD_LABEL,   /* imm = target instruction index (bra, brx.idx label lists) */
    PTX_OPD_VEC,     /* {a, b, c, d}: nelem elements in elems */
    PTX_OPD_SINK,    /* _ */
    PTX_OPD_LIST     /* (a, b, ...) for call arguments / return values, or label lists;
                        comp = 1 for a bracketed list [a, b, ...] (tex/suld/sust operands),
                        comp = 2 for a call's .calltargets list (SYMs of functions) */
} ptx_operand_kind;

/* Operand conventions:
 * - `d|p` (setp, shfl, match, elect, tex ...) is written as two operands in ops[]: d, then p
 *   with pipe = true.
 * - call: [(rets),] callee, [(args)] [, prototype] as written; instr.target = callee symbol
 *   (or -1 for an indirect call through a register).
 * - A name resolving to a variable gives PTX_OPD_SYM (mov %r, sym: its address); in brackets
 *   PTX_OPD_ADDR with sym. brx.idx's .branchtargets operand is a LIST of LABELs. A call's
 *   prototype operand is a SYM of the prototype's function. */
#define PTX_ADDR_VALUE 2

typedef struct ptx_operand {
    uint8_t kind;       /* ptx_operand_kind */
    bool neg;           /* !%p for predicates, -%r for vmad operands; -x is folded into imm for numbers */
    bool pipe;          /* the second destination of `d|p` */
    uint8_t comp;       /* .x .y .z .w = 0..3, or an index (see kinds) */
    uint8_t nelem;      /* VEC / LIST */
    int32_t reg;        /* register id, or ptx_sreg for SREG; -1 if none */
    int32_t sym;        /* symbol id (ptx_module.syms); -1 if none */
    int64_t imm;        /* immediate, float bits, address offset, or label target */
    struct ptx_operand *elems;
} ptx_operand;

typedef enum ptx_cmp {
    PTX_CMP_NONE = 0, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS, PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU,
    PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN
} ptx_cmp;

typedef enum ptx_round {
    PTX_RND_NONE = 0, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_RNA, PTX_RND_RS,
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI
} ptx_round;

#define PTX_MAX_SUFFIXES 16
#define PTX_MAX_TYPES 4

typedef struct ptx_instr {
    uint16_t op;                      /* ptx_opcode */
    uint8_t nsfx;
    uint16_t sfx[PTX_MAX_SUFFIXES];   /* every suffix, in the order written (for printing) */
    /* Decoded from sfx[] by the frontend, so executors never scan strings: */
    uint8_t types[PTX_MAX_TYPES];     /* type suffixes in written order (cvt: dst, src) */
    uint8_t ntypes;
    uint8_t space;                    /* ptx_space of the access, PTX_SPACE_NONE = generic */
    uint8_t vec;                      /* 1, 2, 4 or 8 */
    uint8_t rnd;                      /* ptx_round */
    uint8_t cmp;                      /* ptx_cmp (set/setp/slct) */
    uint16_t boolop;                  /* PTX_SFX_AND/OR/XOR combining op of set/setp, or 0 */
    uint16_t aop;                     /* atom/red/redux/bar.red operation suffix, or 0 */
    uint16_t mode;                    /* the sub-operation (MODE group, or lo/hi of mul), or 0 */
    uint16_t sem;                     /* PTX_SFX_RELAXED/ACQUIRE/... or 0 */
    uint16_t scope;                   /* PTX_SFX_CTA/CLUSTER/GPU/SYS or 0 */
    uint64_t flags;                   /* PTX_F(FTZ) | PTX_F(SAT) | ... */
    int32_t guard;                    /* guard predicate register id, -1 if unguarded */
    bool guard_neg;                   /* @!%p */
    uint8_t nops;
    ptx_operand *ops;                 /* destination(s) first, as written */
    int32_t target;                   /* bra: instruction index; call: callee symbol id */
    int32_t reconv;                   /* branches: reconvergence instruction index (IPDOM), or
                                         ninstrs when the branch reconverges only at exit */
    int32_t block;                    /* basic block index */
    uint32_t line, col;               /* position in the PTX text */
    uint32_t dbg_file, dbg_line;      /* last .loc before it (0 = none) */
} ptx_instr;

typedef struct ptx_reg {
    char *name;           /* "%r12" */
    uint8_t type;         /* ptx_type of its declaration */
    uint8_t nslots;       /* 64-bit slots it takes: 1, or 2 for .b128 */
    uint32_t slot;        /* first slot in the per-thread register file (registers no
                             instruction names share one region: ptx_build.c pack_slots;
                             registers never live at once share slots when the function is
                             laid out so: ptx_function.slots_shared, ptx_slots.c) */
    uint8_t vec;          /* .v2/.v4 register declarations: components, else 1 */
    int32_t scope;        /* inline { } scope it was declared in (ptx_function.scopes), or -1;
                             PTX_REG_SCOPE_PARAM for a .reg parameter of the function */
} ptx_reg;

#define PTX_REG_SCOPE_PARAM (-2)

typedef enum ptx_linkage {
    PTX_LINK_NONE = 0, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON
} ptx_linkage;

typedef enum ptx_symbol_kind { PTX_SYM_VAR, PTX_SYM_FUNC, PTX_SYM_PARAM } ptx_symbol_kind;

/* An initialiser entry that holds an address: bytes [offset, offset+size) of the initial value
 * are the address of symbol sym plus addend (generic() or plain, as written). */
typedef struct ptx_reloc {
    uint64_t offset;
    uint32_t size;
    int32_t sym;
    int64_t addend;
    bool generic;
} ptx_reloc;

/* The addressing modes a .samplerref (or .texref) initialiser names (PTX ISA "Texture Sampler
 * and Surface Types"); the values are the ones txq.addr_mode_N returns. */
typedef enum ptx_sampler_addr {
    PTX_SAMPLER_WRAP = 0, PTX_SAMPLER_MIRROR, PTX_SAMPLER_CLAMP_OGL, PTX_SAMPLER_CLAMP_TO_EDGE,
    PTX_SAMPLER_CLAMP_TO_BORDER
} ptx_sampler_addr;

/* A .samplerref / .texref initialiser { addr_mode_0 = wrap, filter_mode = linear, ... } in
 * structured form; fields not written keep the defaults (clamp_to_edge, nearest, normalized). */
typedef struct ptx_sampler_init {
    uint8_t addr_mode[3];            /* ptx_sampler_addr per dimension */
    bool filter_linear;              /* filter_mode = linear (else nearest) */
    bool force_unnormalized_coords;  /* samplerref: force_unnormalized_coords = 1 */
    uint8_t written;                 /* PTX_SAMPLER_F_* bits of the fields written */
} ptx_sampler_init;

enum {
    PTX_SAMPLER_F_ADDR0 = 1, PTX_SAMPLER_F_ADDR1 = 2, PTX_SAMPLER_F_ADDR2 = 4,
    PTX_SAMPLER_F_FILTER = 8, PTX_SAMPLER_F_UNNORM = 16
};

/* Initial bytes of a variable, stored sparsely so that the cost follows the initialiser as
 * written, not the size of the array: a run puts len bytes at offset; bytes no run covers are
 * zero. Runs are in increasing offset order and do not overlap. */
typedef struct ptx_init_run {
    uint64_t offset;
    uint64_t len;
    const uint8_t *bytes;
} ptx_init_run;

typedef struct ptx_symbol {
    char *name;
    uint8_t kind;         /* ptx_symbol_kind */
    uint8_t space;        /* ptx_space: GLOBAL/CONST/SHARED/LOCAL/PARAM/TEX/SURF/SAMPLER */
    uint8_t type;         /* element type */
    uint8_t linkage;      /* ptx_linkage */
    uint32_t align;       /* bytes */
    uint64_t size;        /* bytes in all (0 for `extern .shared` unsized arrays) */
    uint8_t vec;          /* .v2/.v4 element vectors, else 1 */
    bool is_ptr;          /* .param .ptr attribute */
    uint32_t ptr_align;
    uint8_t ptr_space;
    int32_t owner;        /* function index for function-scope symbols, -1 for module scope */
    int32_t func;         /* PTX_SYM_FUNC: function index */
    uint64_t offset;      /* params: byte offset in the parameter block (a .func's return
                             params follow its inputs in the same block); function-scope
                             .shared/.local: offset within the function's static window;
                             .param variables declared in a body (call sites): offset in the
                             function's local frame, like .local (scopes reuse space) */
    ptx_init_run *init;   /* the initial value's nonzero runs (ninit of them), or NULL when
                             it is all zero (or there is no initialiser) */
    uint32_t ninit;
    ptx_reloc *relocs;
    uint32_t nrelocs;
    uint32_t line;
    int32_t scope;        /* function-scope symbols: inline { } scope, or -1 (function level) */
    bool managed;         /* .attribute(.managed) */
    bool unified;         /* .attribute(.unified(uuid1, uuid2)): a .func or a .global variable */
    uint64_t uuid[2];     /* .unified: uuid1 (upper 64 bits of the identifier), then uuid2 */
    int32_t reg;          /* a .reg parameter (kind PARAM, space REG) of a function with a body:
                             its register in ptx_function.regs; -1 in declarations and
                             prototypes. Unused for other symbols. */
    ptx_sampler_init *sampler;   /* .samplerref/.texref with a { field = value } initialiser,
                                    else NULL */
} ptx_symbol;

typedef struct ptx_block {
    uint32_t first, end;  /* instruction indices [first, end) */
    int32_t *succ;        /* successor blocks (nsucc of them, in the module arena): a branch's
                             targets in written order (brx.idx: its whole label list, each
                             block once), then the fall-through; the exit is not listed */
    uint32_t nsucc;
    int32_t ipdom;        /* immediate post-dominator block, -1 for the exit */
} ptx_block;

/* An inline { } scope in a function body, as written (kept for printing): instructions
 * [first, end), and the enclosing scope or -1. */
typedef struct ptx_scope {
    uint32_t first, end;
    int32_t parent;
} ptx_scope;

typedef struct ptx_function {
    char *name;
    bool is_entry;
    bool is_decl;              /* a prototype without a body; also each .callprototype
                                  (its symbol's owner is then the enclosing function) */
    uint8_t linkage;
    int32_t sym;               /* its symbol id */
    int32_t *params;           /* symbol ids of .param inputs, in order */
    uint32_t nparams;
    int32_t *rets;             /* symbol ids of return .params (.func only) */
    uint32_t nrets;
    uint32_t param_size;       /* bytes of the parameter block */
    ptx_reg *regs;
    uint32_t nregs;
    uint32_t nslots;           /* 64-bit register slots per thread (predicates included) */
    bool slots_shared;         /* its registers share slots by liveness (ptx_slots_share, laid
                                  out so by the emulator's emu_share_register_slots) */
    ptx_instr *instrs;
    uint32_t ninstrs;
    ptx_block *blocks;
    uint32_t nblocks;
    uint64_t shared_size;      /* static .shared bytes it declares (module + function scope
                                  are laid out by the emulator) */
    uint64_t local_size;       /* .local bytes per thread */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxclusterrank, reqnctapercluster[3];
    bool noreturn, explicitcluster;
    uint32_t line;
    ptx_scope *scopes;         /* inline { } scopes, in the order they open */
    uint32_t nscopes;
} ptx_function;

typedef struct ptx_module {
    char *name;                /* file name or fatbin entry name, for messages */
    uint32_t version_major, version_minor;
    uint32_t sm;               /* .target sm_XX number (75, 80, 90, 100, 120, ...) */
    char *target;              /* the whole .target line's arguments, as written */
    uint32_t address_size;     /* 32 or 64 */
    ptx_symbol *syms;
    uint32_t nsyms;
    ptx_function *funcs;
    uint32_t nfuncs;
    char **files;              /* .file N "name": files[N] (NULL where undeclared) */
    uint32_t nfiles;
    void *arena;               /* owns every allocation above */
    /* Name look-up tables for ptx_find_function / ptx_find_symbol (module scope), so that
     * finding every kernel of a module is linear in its size. Built when a parse ends; a module
     * put together by other code may leave it NULL (look-ups then scan) or build one with
     * ptx_module_index_build. */
    struct ptx_name_index *index;
} ptx_module;

/* Builds m->index (malloc'd, unless m->arena is set: then it lives in the arena). Returns
 * false when memory runs out (look-ups keep working, by scanning). */
bool ptx_module_index_build(ptx_module *m);
/* Frees an index ptx_module_index_build malloc'd (a module without an arena). */
void ptx_module_index_free(ptx_module *m);

/* ---------------------------------------------------------------- parsing */

/* Diagnostics collected while parsing and checking: each line reads
 * "FILE:LINE:COL: error: [in KERNEL] message". */
typedef struct ptx_diag {
    char *text;      /* malloc'd, NUL-terminated; NULL when empty */
    size_t len, cap;
    uint32_t errors, warnings;
    /* set when a module declares a .version above PTX_MAX_VERSION (the driver's
     * CUDA_ERROR_UNSUPPORTED_PTX_VERSION rather than an invalid module) */
    bool unsupported_version;
} ptx_diag;

/* The newest PTX ISA ptxsim takes: CUDA 13.0's 9.0, and 9.1, in which cuDNN 9 ships its PTX
 * (every module of it parses, checks and loads: tests/suites/cuda_libraries.sh). */
#define PTX_MAX_VERSION_MAJOR 9u
#define PTX_MAX_VERSION_MINOR 1u

void ptx_diag_free(ptx_diag *d);

/* Parses and checks a whole PTX module. Returns NULL on any error (details in diag). */
ptx_module *ptx_parse(const char *text, size_t len, const char *name, ptx_diag *diag);
void ptx_module_free(ptx_module *m);

/* Writes the module back as PTX text that parses to the same IR. */
void ptx_print(const ptx_module *m, FILE *out);
/* Writes a readable dump of the IR (blocks, successors, IPDOMs). */
void ptx_dump(const ptx_module *m, FILE *out);

/* Structural equality of two modules' IR (symbols, functions, registers, instructions with
 * their decoded fields and operands, blocks, IPDOMs), ignoring source positions (line, col,
 * .loc) and the module name. On a difference returns false and describes the first one in
 * why (when why is not NULL). */
bool ptx_module_equal(const ptx_module *a, const ptx_module *b, char *why, size_t whylen);

/* Reads n bytes of a variable's initial value from offset off (zero where no run lies). */
void ptx_init_read(const ptx_symbol *s, uint64_t off, void *out, size_t n);

const ptx_function *ptx_find_function(const ptx_module *m, const char *name);
/* The readable form of a (C++-mangled) kernel or function name, "kernel(int*)" for
 * "_Z6kernelPi"; a copy of name when it is not mangled or cannot be demangled. The caller frees
 * it; NULL only when memory runs out. */
char *ptx_demangle(const char *name);
int32_t ptx_find_symbol(const ptx_module *m, int32_t owner, const char *name);

const char *ptx_type_name(ptx_type t);
unsigned ptx_type_bits(ptx_type t);
bool ptx_type_is_signed(ptx_type t);
bool ptx_type_is_float(ptx_type t);
const char *ptx_opcode_name(ptx_opcode op);
const char *ptx_suffix_name(ptx_suffix s);
ptx_suffix_group ptx_suffix_group_of(ptx_suffix s);
const char *ptx_sreg_name(ptx_sreg s);
bool ptx_instr_has(const ptx_instr *in, ptx_suffix s);

/* ---------------------------------------------------------------- operand roles and dataflow */

/* How an instruction uses an operand as a whole: read, written, or both (wgmma's accumulator);
 * an address operand is read (its base register). Labels and symbols have no role. */
typedef enum ptx_role { PTX_ROLE_NONE, PTX_ROLE_USE, PTX_ROLE_DEF, PTX_ROLE_USEDEF } ptx_role;
ptx_role ptx_operand_role(const ptx_instr *in, unsigned i);
/* Calls visit for every register the instruction reads or writes (its guard, operands, vector
 * elements, address bases, call lists), with the role it has there; writing one component of a
 * vector register counts as a read too. The carry flag is not a register. */
void ptx_instr_regs(const ptx_function *fn, const ptx_instr *in,
                    void (*visit)(void *ctx, int32_t reg, ptx_role role), void *ctx);
/* Static definitions and uses of every register (arrays of fn->nregs). */
void ptx_reg_counts(const ptx_function *fn, uint32_t *defs, uint32_t *uses);

/* Dominators and register liveness of one function, computed on demand. */
typedef struct ptx_dataflow {
    const ptx_function *fn;
    int32_t *idom;            /* immediate dominator of each block; -1 for the entry block and
                                 blocks the entry does not reach */
    uint32_t words;           /* 64-bit words of one register set */
    uint64_t *live_in;        /* per block: registers live on entry (bit = register id) */
    uint64_t *live_out;       /* per block: registers live on exit */
    uint32_t *ndefs, *nuses;  /* per register: static definitions and uses */
} ptx_dataflow;

ptx_dataflow *ptx_dataflow_compute(const ptx_function *fn);   /* NULL when memory runs out */
void ptx_dataflow_free(ptx_dataflow *df);
bool ptx_dominates(const ptx_dataflow *df, uint32_t a, uint32_t b);   /* block a dominates b */
bool ptx_live_in(const ptx_dataflow *df, uint32_t block, int32_t reg);
bool ptx_live_out(const ptx_dataflow *df, uint32_t block, int32_t reg);
/* Whether reg's value after instruction instr may still be read. */
bool ptx_live_after(const ptx_dataflow *df, uint32_t instr, int32_t reg);

/* Register slots shared by liveness (ptx_slots.c): a layout of fn's registers in which
 * registers never live at once share a slot. own[r] (or NULL) names registers that must keep a
 * slot of their own beyond those the pass keeps alone itself (live at entry, .reg parameters,
 * several slots); extra lists further reads an executor makes, sorted by instruction: reg is
 * also read at instr. Writes slot[r] for every register (fn->nregs of them) and returns the
 * slots the layout takes, or 0 when it makes none (a declaration, or a function too big to
 * colour): then fn's own layout (ptx_reg.slot, ptx_function.nslots) stands. */
typedef struct ptx_slot_use { uint32_t instr; int32_t reg; } ptx_slot_use;
uint32_t ptx_slots_share(const ptx_function *fn, const uint8_t *own, const ptx_slot_use *extra,
                         uint32_t nextra, uint32_t *slot);

/* Transaction markers (KILO TM, include/ptxsim/kilotm.h): a call of tx_begin / tx_commit (or
 * the aliases _Z8tx_beginv, __tbegin, ... of the paper's and GPGPU-Sim's sources) is a
 * transaction boundary, checked when the module is built (ptx_tx.c). */
typedef enum ptx_tx_marker { PTX_TX_NONE, PTX_TX_BEGIN, PTX_TX_COMMIT } ptx_tx_marker;
ptx_tx_marker ptx_tx_marker_of(const ptx_module *m, const ptx_instr *in);
/* The tx_commit that closes the transaction tx_begin `begin` of f opens (its outermost commit
 * when begin is nested), or -1 (a function the load check refused, or out of memory). */
int64_t ptx_tx_closing_commit(const ptx_module *m, const ptx_function *f, uint32_t begin);

/* ---------------------------------------------------------------- idempotent regions (iGPU) */

/* iGPU's region formation (Menon et al., ISCA 2012, and the spec's S-11.3): each kernel is cut
 * into sparse idempotent regions (a cut breaks every memory clobber antidependence, placed
 * where the least register state is live) and forced cuts around operations that must not run
 * twice; sparse regions are cut further into short sub-regions of at most short_limit
 * instructions on any path. A boundary sits before an instruction; the kernel entry is one. */
typedef enum ptx_bnd_kind { PTX_BND_SHORT = 1, PTX_BND_SPARSE = 2 } ptx_bnd_kind;

typedef enum ptx_cut_reason {
    PTX_CUT_ENTRY,          /* the kernel's entry */
    PTX_CUT_CLOBBER,        /* breaks memory clobber antidependences (pairs that name it) */
    PTX_CUT_FORCED_BEFORE,  /* before an operation that must not be re-executed (forced_by) */
    PTX_CUT_FORCED_AFTER,   /* after an atomic, barrier, fence, call or warp-collective */
    PTX_CUT_LOOP,           /* short: a loop holding no boundary */
    PTX_CUT_LENGTH          /* short: a path would exceed short_limit instructions */
} ptx_cut_reason;

typedef struct ptx_clobber_pair {
    uint32_t load, store;   /* instruction indices: the load reads what the store may overwrite */
    int32_t cut;            /* boundary that breaks it */
    uint32_t ncandidates;   /* points on every load-to-store path where a cut would break it */
} ptx_clobber_pair;

typedef struct ptx_boundary {
    uint32_t instr;         /* the boundary sits before this instruction */
    uint8_t kind;           /* ptx_bnd_kind */
    uint8_t reason;         /* ptx_cut_reason */
    int32_t forced_by;      /* FORCED_*: the operation's instruction, else -1 */
    uint32_t npairs;        /* CLOBBER: clobber pairs it breaks */
    uint32_t loop_depth;
    int32_t *live;          /* live-in registers, memory-backed kernel inputs excluded */
    uint32_t nlive;
    uint32_t live32;        /* their size in 32-bit units (a .b64 counts 2) */
    uint32_t nfree;         /* memory-backed inputs live here (reloaded, never saved) */
    int32_t *preserve;      /* live-ins the region writes: state preservation must keep a copy */
    uint32_t npreserve;
    uint32_t size;          /* static instructions in the region it starts (to the next
                               boundary of its level or coarser) */
} ptx_boundary;

typedef struct ptx_regions {
    ptx_boundary *bounds;   /* in instruction order */
    uint32_t nbounds;
    ptx_clobber_pair *pairs;
    uint32_t npairs;
    int32_t *bnd_before;    /* per instruction: the boundary before it, or -1 */
    uint32_t short_limit;
} ptx_regions;

typedef struct ptx_region_options {
    uint32_t short_limit;     /* 0: the paper's 32 */
    bool alias_conservative;  /* distinct pointer parameters may alias (default: they do not,
                                 as in the paper's example) */
} ptx_region_options;

/* NULL when memory runs out (err says so). */
ptx_regions *ptx_regions_compute(const ptx_module *m, const ptx_function *fn,
                                 const ptx_region_options *opt, char *err, size_t errlen);
void ptx_regions_free(ptx_regions *r);
/* The regions, boundaries, live-ins and the reason of every cut, readably. */
void ptx_regions_print(const ptx_module *m, const ptx_function *fn, const ptx_regions *r,
                       FILE *out);
const char *ptx_cut_reason_name(ptx_cut_reason r);

/* ---------------------------------------------------------------- fatbins */

typedef enum ptx_fatbin_kind { PTX_FATBIN_PTX = 1, PTX_FATBIN_ELF = 2 } ptx_fatbin_kind;

typedef struct ptx_fatbin_entry {
    uint8_t kind;             /* ptx_fatbin_kind */
    uint32_t arch;            /* sm / compute number, e.g. 75 */
    uint32_t ptx_major, ptx_minor;
    bool compressed;          /* as stored */
    char *name;               /* the entry's embedded name ("va.cu"), malloc'd, may be NULL */
    uint8_t *data;            /* decompressed payload, malloc'd; PTX is NUL-terminated (NULL
                                 for ELF entries read with PTX_FATBIN_SKIP_SASS) */
    size_t size;              /* payload bytes (without the NUL) */
    /* Added by the fatbin reader: */
    uint8_t compression;      /* ptx_fatbin_compression, as stored */
    char arch_suffix;         /* 'a' (sm_90a), 'f' (sm_100f) or 0 */
    uint32_t container;       /* index of the fatbin it came from (in -rdc builds, 0 is the
                                 linked fatbin and 1.. the translation units' fatbins) */
    uint64_t flags;           /* the entry header's flags as stored */
    size_t stored_size;       /* payload bytes as stored (compressed size when compressed) */
} ptx_fatbin_entry;

/* Compression of a fatbin entry, from its header flags (nvcc 13: zstd by default; lz4 with
 * --compress-mode=speed; -Xfatbin -compress-algo=1 zlib, =2 LZ4 block, =3 LZ4 frame). */
typedef enum ptx_fatbin_compression {
    PTX_FATBIN_RAW = 0, PTX_FATBIN_ZLIB, PTX_FATBIN_LZ4, PTX_FATBIN_LZ4_FRAME, PTX_FATBIN_ZSTD
} ptx_fatbin_compression;

typedef struct ptx_fatbin {
    ptx_fatbin_entry *entries;
    size_t count;
    uint32_t containers;      /* fatbin containers read (entries' `container` is below this;
                                 a container may be empty) */
} ptx_fatbin;

/* Reads what __cudaRegisterFatBinary receives: a __fatBinC_Wrapper_t (magic 0x466243b1,
 * version 1 or 2) or a bare fatbin (magic 0xba55ed50). Returns 0, or -1 with a message. */
int ptx_fatbin_read_wrapper(const void *wrapper, ptx_fatbin *out, char *err, size_t errlen);
/* How many bytes of this process's memory can be read from p: up to the end of the section of
 * the loaded ELF object that holds p (or of its segment), else of the readable mapping around
 * it; 0 when p is not readable memory. Bounds what a registered fatbin's header may claim. */
size_t ptx_fatbin_readable_extent(const void *p);
/* Reads a bare fatbin image of at most `len` bytes (several may follow one another). */
int ptx_fatbin_read(const void *data, size_t len, ptx_fatbin *out, char *err, size_t errlen);
/* Reads every fatbin embedded in an ELF executable or shared object on disk (.nv_fatbin and
 * __nv_relfatbin sections). A bare fatbin file (`nvcc -fatbin`) is read as it is. */
int ptx_fatbin_read_elf_file(const char *path, ptx_fatbin *out, char *err, size_t errlen);
void ptx_fatbin_free(ptx_fatbin *fb);
/* The same readers with options: PTX_FATBIN_SKIP_SASS leaves ELF (SASS) payloads undecoded
 * (data NULL, size the image size from the header). ptxsim never runs SASS, and libraries such
 * as cuBLAS and cuDNN carry gigabytes of it. */
#define PTX_FATBIN_SKIP_SASS 1u
int ptx_fatbin_read_wrapper_ex(const void *wrapper, unsigned opts, ptx_fatbin *out, char *err,
                               size_t errlen);
int ptx_fatbin_read_ex(const void *data, size_t len, unsigned opts, ptx_fatbin *out, char *err,
                       size_t errlen);
int ptx_fatbin_read_elf_file_ex(const char *path, unsigned opts, ptx_fatbin *out, char *err,
                                size_t errlen);
/* The PTX entry to run: the first of ptx_fatbin_ptx_order (newest PTX version, then highest
 * arch). Returns NULL (and a rebuild hint in err) when the fatbin holds no PTX. */
const ptx_fatbin_entry *ptx_fatbin_best_ptx(const ptx_fatbin *fb, char *err, size_t errlen);
/* The PTX entries in the order to try them: newest PTX version first, then highest arch, then
 * generic before family ('f') before arch-specific ('a') targets, then fatbin order. Writes at
 * most `max` pointers to `order` and returns how many PTX entries there are. The runtime parses
 * them in turn and keeps the first that parses. */
size_t ptx_fatbin_ptx_order(const ptx_fatbin *fb, const ptx_fatbin_entry **order, size_t max);
/* The same, for the entries of one container only. A -rdc registration (wrapper version 2)
 * holds one container per translation unit, plus device libraries such as cudadevrt (whose PTX
 * may well be the newest): take the best PTX of each container and link them, rather than the
 * best of all. */
size_t ptx_fatbin_ptx_order_in(const ptx_fatbin *fb, uint32_t container,
                               const ptx_fatbin_entry **order, size_t max);
/* "none", "zlib", "lz4", "lz4-frame", "zstd" (or "?" for a value out of range). */
const char *ptx_fatbin_compression_name(unsigned compression);

#endif
