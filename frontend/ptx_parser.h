/* ptx_parser.h: the frontend's internal interfaces (not for other layers).
 *
 * The flex scanner and bison grammar drive a builder (ptx_build.c) that lowers declarations and
 * instructions straight into the IR of ptx.h; ptx_cfg.c then adds blocks and post-dominators.
 * Everything lives in a per-parse context so several threads can parse at once.
 */
#ifndef PTXSIM_FRONTEND_PTX_PARSER_H
#define PTXSIM_FRONTEND_PTX_PARSER_H

#include "frontend/ptx.h"

#include <setjmp.h>
#include <stdarg.h>

/* ---------------------------------------------------------------- out of memory (ptx_oom.c) */

/* An entry point that parses sets up a frame: setjmp(f.jb) == 0, then ptx_oom_push(&f), the
 * work, ptx_oom_pop(&f). Allocation failures below it call ptx_oom(), which pops the frame and
 * returns from that setjmp with 1; the entry point then frees what the parse made and reports
 * the error. */
typedef struct ptx_oom_frame {
    jmp_buf jb;
    struct ptx_oom_frame *prev;
} ptx_oom_frame;
void ptx_oom_push(ptx_oom_frame *f);
void ptx_oom_pop(ptx_oom_frame *f);
_Noreturn void ptx_oom(void);
/* malloc, calloc and realloc that call ptx_oom() instead of returning NULL. */
void *ptx_xmalloc(size_t size);
void *ptx_xcalloc(size_t n, size_t size);
void *ptx_xrealloc(void *p, size_t size);
/* bison's stack allocator (YYMALLOC / YYFREE): blocks it holds are freed when a parse unwinds. */
void *ptx_yy_alloc(size_t size);
void ptx_yy_free(void *p);

/* ---------------------------------------------------------------- arena */

typedef struct ptx_arena ptx_arena;
ptx_arena *ptx_arena_new(void);
void ptx_arena_free(ptx_arena *a);
void *ptx_arena_alloc(ptx_arena *a, size_t size);           /* zeroed, 16-byte aligned */
void *ptx_arena_alloc_raw(ptx_arena *a, size_t size);       /* not zeroed */
/* The same, returning NULL when memory runs out instead of unwinding the parse. */
void *ptx_arena_try_alloc(ptx_arena *a, size_t size);
void *ptx_arena_try_alloc_raw(ptx_arena *a, size_t size);
/* Takes ownership of a malloc'd block (shrunk to size): freed with the arena. */
void *ptx_arena_adopt(ptx_arena *a, void *p, size_t size);
void *ptx_arena_dup(ptx_arena *a, const void *p, size_t size);
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t len);

/* ---------------------------------------------------------------- name index (ptx_index.c) */

/* Look-ups through m->index (which must be set): a function index / symbol id, or -1. */
int32_t ptx_index_find_function(const ptx_module *m, const char *name);
int32_t ptx_index_find_symbol(const ptx_module *m, const char *name);

/* ---------------------------------------------------------------- string map */

/* Open-addressing map from byte strings to int32 values. Keys are not copied: they must
 * outlive the map. A value of -1 reads as absent. */
typedef struct ptx_strmap_slot {
    const char *key;
    uint32_t len, hash;
    int32_t val;
} ptx_strmap_slot;

typedef struct ptx_strmap {
    ptx_strmap_slot *slots;
    uint32_t cap, count;
} ptx_strmap;

uint32_t ptx_hash(const char *s, size_t len);
int32_t ptx_strmap_get(const ptx_strmap *m, const char *key, size_t len);
/* Sets key to val; returns the previous value (-1 when absent). */
int32_t ptx_strmap_put(ptx_strmap *m, const char *key, size_t len, int32_t val);
void ptx_strmap_free(ptx_strmap *m);

/* ---------------------------------------------------------------- vocabulary lookups */

ptx_opcode ptx_opcode_lookup(const char *s, size_t len);
/* A type or modifier suffix without its dot; PTX_SFX_NONE when unknown. */
ptx_suffix ptx_suffix_lookup(const char *s, size_t len);
/* "%tid" etc. (without component); PTX_SREG_NONE when unknown. */
ptx_sreg ptx_sreg_lookup(const char *s, size_t len);
char ptx_type_kind(ptx_type t);   /* 'B','U','S','F','P','K' (packed), 'O' (opaque) */

/* ---------------------------------------------------------------- diagnostics */

void ptx_diag_add(ptx_diag *d, const char *file, uint32_t line, uint32_t col, bool error,
                  const char *func, const char *fmt, va_list ap);

/* ---------------------------------------------------------------- decoded mnemonics */

typedef struct ptx_mnemonic {
    ptx_instr tmpl;       /* op, sfx[], and the decoded fields; operands unset */
} ptx_mnemonic;

/* Splits `text` (an instruction name with all its dot suffixes) and decodes it into *out.
 * Returns 0, or -1 with a message in err. */
int ptx_mnemonic_decode(const char *text, size_t len, ptx_instr *out, char *err, size_t errlen);

/* ---------------------------------------------------------------- constant expressions */

/* The value of a constant expression (ptx_cexpr.c). raw: a 0d/0f literal written as such,
 * whose bits an initialiser of the same width stores unchanged. */
typedef enum ptx_cval_kind {
    PTX_CV_ERROR = 0, PTX_CV_S64, PTX_CV_U64, PTX_CV_F64, PTX_CV_F32_BITS
} ptx_cval_kind;
typedef struct ptx_cval {
    uint8_t kind;
    bool raw;
    uint64_t bits;
} ptx_cval;
/* Operators of more than one character (the others are their own character). */
enum {
    PTX_CX_SHL = 256, PTX_CX_SHR, PTX_CX_LE, PTX_CX_GE, PTX_CX_EQ, PTX_CX_NE, PTX_CX_ANDAND,
    PTX_CX_OROR
};

typedef struct ptx_builder ptx_builder;
typedef struct ptx_numlit { uint64_t v; bool is_unsigned; } ptx_numlit;

ptx_cval ptx_cval_int(ptx_numlit n);
ptx_cval ptx_cval_f64(uint64_t bits, bool literal_bits);
ptx_cval ptx_cval_f32_bits(uint32_t bits);
/* Errors go to the builder's diagnostics; the result is then PTX_CV_ERROR, which later
 * operations pass on without a second message. */
ptx_cval ptx_cexpr_unary(ptx_builder *b, int op, ptx_cval a, uint32_t line, uint32_t col);
ptx_cval ptx_cexpr_cast(ptx_builder *b, int type, ptx_cval a, uint32_t line, uint32_t col);
ptx_cval ptx_cexpr_binary(ptx_builder *b, int op, ptx_cval a, ptx_cval c, uint32_t line,
                          uint32_t col);
ptx_cval ptx_cexpr_select(ptx_builder *b, ptx_cval cond, ptx_cval x, ptx_cval y, uint32_t line,
                          uint32_t col);
const char *ptx_cexpr_op_name(int op);
const char *ptx_cval_type_name(ptx_cval v);
/* A value that must be a non-negative integer (an array size): false with a message else. */
bool ptx_cval_to_u64(ptx_builder *b, ptx_cval v, const char *what, uint64_t *out, uint32_t line,
                     uint32_t col);

/* ---------------------------------------------------------------- the builder */

typedef struct ptx_str { const char *s; int len; } ptx_str;


typedef struct ptx_node_list { int first, last, n; } ptx_node_list;

/* Scanner extra data: the builder and position tracking. */
typedef struct ptx_lex_state {
    ptx_builder *b;
    uint32_t line;
    const char *line_start;
    int section_depth;
} ptx_lex_state;

void ptx_b_error(ptx_builder *b, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ptx_b_warning(ptx_builder *b, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool ptx_b_too_many_errors(const ptx_builder *b);

/* module-level directives */
void ptx_b_version(ptx_builder *b, ptx_str text, uint32_t line, uint32_t col);
void ptx_b_target(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col);
void ptx_b_address_size(ptx_builder *b, uint64_t v, uint32_t line, uint32_t col);
void ptx_b_file_line(ptx_builder *b, const char *text, size_t len, uint32_t line);
void ptx_b_loc_line(ptx_builder *b, const char *text, size_t len, uint32_t line);
void ptx_b_alias(ptx_builder *b, ptx_str alias, ptx_str target, uint32_t line, uint32_t col);

/* declarations: a declaration starts, attributes accumulate, then each declared name */
void ptx_b_decl_begin(ptx_builder *b, int space, uint32_t line, uint32_t col);
void ptx_b_decl_linkage(ptx_builder *b, int linkage);
void ptx_b_decl_align(ptx_builder *b, uint64_t align, uint32_t line, uint32_t col);
void ptx_b_decl_type(ptx_builder *b, int type, uint32_t line, uint32_t col);
void ptx_b_decl_vec(ptx_builder *b, int vec);
void ptx_b_decl_ptr(ptx_builder *b);
void ptx_b_decl_space_attr(ptx_builder *b, int space);  /* .ptr .global */
/* .attribute(.managed) / .attribute(.unified(uuid1, uuid2)); has_args: the values are in the
 * builder's integer list (see ptx_b_ints_add) */
void ptx_b_decl_attribute(ptx_builder *b, ptx_str name, bool has_args, uint32_t line,
                          uint32_t col);
void ptx_b_decl_name(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col);
void ptx_b_decl_dim(ptx_builder *b, bool has_size, ptx_cval n, uint32_t line, uint32_t col);
void ptx_b_decl_range(ptx_builder *b, uint64_t n, uint32_t line, uint32_t col); /* %r<N> */
/* initialisers */
void ptx_b_init_open(ptx_builder *b);
void ptx_b_init_close(ptx_builder *b);
/* One scalar of an initialiser: the value of a constant expression. */
void ptx_b_init_value(ptx_builder *b, ptx_cval v, uint32_t line, uint32_t col);
void ptx_b_init_generic(ptx_builder *b, ptx_str fn, ptx_str sym, ptx_cval addend,
                        uint32_t line, uint32_t col);
uint64_t ptx_b_decfloat(ptx_str text, bool neg);   /* IEEE double bits */
/* `field = value` in a .samplerref / .texref initialiser (value a word, or an integer when
 * word.len is 0). */
void ptx_b_init_field(ptx_builder *b, ptx_str field, ptx_str word, ptx_cval v, uint32_t line,
                      uint32_t col);
void ptx_b_init_addr(ptx_builder *b, ptx_str sym, bool generic, ptx_cval addend,
                     uint32_t line, uint32_t col);
void ptx_b_decl_end_item(ptx_builder *b);

/* functions */
void ptx_b_func_begin(ptx_builder *b, bool entry, uint32_t line, uint32_t col);
void ptx_b_func_rets_begin(ptx_builder *b);
void ptx_b_func_name(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col);
void ptx_b_func_params_begin(ptx_builder *b);
/* .func .attribute(...) entries, before the function's name */
void ptx_b_func_attribute(ptx_builder *b, ptx_str name, bool has_args, uint32_t line,
                          uint32_t col);
void ptx_b_func_perf(ptx_builder *b, ptx_str directive, const uint64_t *v, int n,
                     uint32_t line, uint32_t col);
void ptx_b_func_perf_list(ptx_builder *b, ptx_str directive, uint32_t line, uint32_t col);
void ptx_b_ints_reset(ptx_builder *b);
void ptx_b_ints_add(ptx_builder *b, uint64_t v);
void ptx_b_func_body_begin(ptx_builder *b);
void ptx_b_func_end(ptx_builder *b, bool has_body);

/* function bodies */
void ptx_b_scope_push(ptx_builder *b);
void ptx_b_scope_pop(ptx_builder *b);
void ptx_b_label(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col);
void ptx_b_branchtargets(ptx_builder *b, ptx_str name, ptx_node_list labels, uint32_t line, uint32_t col);
void ptx_b_calltargets(ptx_builder *b, ptx_str name, ptx_node_list funcs, uint32_t line, uint32_t col);
void ptx_b_callprototype_begin(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col);
void ptx_b_callprototype_end(ptx_builder *b);
void ptx_b_pragma(ptx_builder *b, ptx_str text, uint32_t line, uint32_t col);

/* operands: tree nodes in a per-instruction scratch area, referred to by index */
enum ptx_node_kind {
    PTX_N_NAME,    /* identifier or %register (name), resolved when the instruction ends */
    PTX_N_IMM, PTX_N_F32, PTX_N_F64, PTX_N_SINK,
    PTX_N_ADDR,    /* child 0: base NAME node or none; imm: offset */
    PTX_N_VEC, PTX_N_LIST, PTX_N_BLIST /* [a, b] */
};
int ptx_b_node_name(ptx_builder *b, ptx_str name, bool neg, uint32_t line, uint32_t col);
int ptx_b_node_imm(ptx_builder *b, int kind, int64_t v, uint32_t line, uint32_t col);
int ptx_b_node_addr(ptx_builder *b, int base, int64_t off, uint32_t line, uint32_t col);
/* name+imm / name-imm written as a value (mov %rd, var+8; st [a], var+8): an address without
 * a memory access */
int ptx_b_node_addr_value(ptx_builder *b, int base, int64_t off, uint32_t line, uint32_t col);
int ptx_b_node_group(ptx_builder *b, int kind, ptx_node_list elems, uint32_t line, uint32_t col);
int ptx_b_node_pipe(ptx_builder *b, int a, int c);
/* [a].unified: a qualifier after an address operand */
void ptx_b_node_addr_qualifier(ptx_builder *b, int node, ptx_str q, uint32_t line, uint32_t col);
void ptx_b_node_negate(ptx_builder *b, int node);
ptx_node_list ptx_b_list_prepend(ptx_builder *b, ptx_node_list l, int node);
ptx_node_list ptx_b_list_one(ptx_builder *b, int node);
ptx_node_list ptx_b_list_add(ptx_builder *b, ptx_node_list l, int node);
void ptx_b_instr(ptx_builder *b, ptx_str mnemonic, int guard, bool guard_neg,
                 ptx_node_list ops, uint32_t line, uint32_t col);

/* Tokens without parsing, for tests and tools: kind is the grammar's token number (see
 * ptx_grammar.h), u the value of number literals (or float bits), ival the code of TYPE,
 * SPACE, VECSPEC and LINKAGE tokens. Returns the number of errors (lexical errors go to diag). */
typedef struct ptx_token {
    int kind;
    const char *text;
    size_t len;
    uint32_t line, col;
    uint64_t u;
    int ival;
    bool is_unsigned;
} ptx_token;
typedef void (*ptx_token_fn)(void *ctx, const ptx_token *t);
int ptx_lex_tokens(const char *text, size_t len, const char *name, ptx_diag *diag,
                   ptx_token_fn fn, void *ctx);
void ptx_builder_discard(ptx_builder *b);

/* the whole parse */
int ptx_run_parser(ptx_builder *b, const char *text, size_t len);
ptx_builder *ptx_builder_new(const char *name, ptx_diag *diag);
ptx_module *ptx_builder_finish(ptx_builder *b);   /* NULL on errors; frees the builder */

/* ptx_cfg.c: blocks, successors, post-dominators and reconvergence points of one function. */
int ptx_build_cfg(ptx_module *m, ptx_function *f, ptx_arena *a);

/* ptx_print.c: one instruction as PTX text (labels written as $L__<index>). */
void ptx_print_instr(const ptx_module *m, const ptx_function *f, const ptx_instr *in, FILE *out);
void ptx_print_operand(const ptx_module *m, const ptx_function *f, const ptx_operand *o,
                       FILE *out);

/* ptx_check.c: operand checks; reports through the builder's diagnostics. */
void ptx_check_function(ptx_builder *b, const ptx_module *m, const ptx_function *f);
/* Transactions of f (ptx_tx.c): one entry and one exit, no barrier, atomic or exit inside. */
void ptx_check_transactions(ptx_builder *b, const ptx_module *m, const ptx_function *f);
void ptx_b_error_at(ptx_builder *b, const ptx_function *f, uint32_t line, uint32_t col,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
