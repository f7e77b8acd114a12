/* ptx_build.c: lowering what the grammar recognises into the IR of ptx.h.
 *
 * Names resolve through one map with shadowing: a binding remembers the binding it hides, and
 * closing a scope restores them, so `{ .param .b32 param0; ... }` blocks around calls see their
 * own names. Labels may be used before they are defined, so branch targets are resolved when
 * the function ends. */
#include "frontend/ptx_parser.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS 50
#define MAX_DIMS 8
/* No GPU has a terabyte of memory: larger declarations are refused before any size arithmetic
 * can overflow; the device's own limits are checked when the module is loaded. */
#define VAR_SIZE_LIMIT (UINT64_C(1) << 40)
#define MAX_FUNC_REGS (1u << 20)
#define MAX_MODULE_REGS (1u << 23)

enum { BIND_REG, BIND_SYM };

typedef struct binding {
    const char *name;
    uint32_t len;
    uint8_t kind;
    int32_t id;
    int32_t prev;   /* binding it shadows, or -1 */
} binding;

typedef struct node {
    uint8_t kind;
    bool neg, pipe;
    bool unified;      /* an address written [a].unified */
    bool value;        /* base+imm written without brackets: the address as a value */
    int64_t imm;
    ptx_str name;
    uint32_t line, col;
    int child, next;   /* first child and next sibling, -1 when none */
    int nchild;
} node;

typedef struct label_ref {
    ptx_operand *op;
    uint32_t instr;
    ptx_str name;
    uint32_t line, col;
    bool list;   /* brx.idx table: the operand becomes a LIST of labels */
} label_ref;

typedef struct pending_reloc {
    int32_t sym;
    ptx_reloc r;
    ptx_str name;
    uint32_t line, col;
} pending_reloc;

typedef struct target_table {
    bool calls;           /* .calltargets (functions) rather than .branchtargets (labels) */
    ptx_str *names;       /* arena copies */
    uint32_t n;
    uint32_t line, col;
} target_table;

typedef struct init_run {
    uint64_t offset, len;  /* bytes [offset, offset+len) of the variable */
    uint64_t at;           /* where they start in the declaration's ibytes */
} init_run;

typedef struct scope_mark {
    uint32_t nbinds;
    uint64_t local_off;
    int32_t scope;      /* index in the function's scopes, -1 for function/module level */
} scope_mark;

#define VEC(T) struct { T *v; uint32_t n, cap; }
/* Out of memory unwinds the parse (ptx_oom.c); the vector stays whole so it is freed. */
#define PUSH(vec, item) do { \
        if ((vec).n == (vec).cap) { \
            uint32_t nc_ = (vec).cap ? (vec).cap * 2 : 16; \
            if (nc_ <= (vec).cap) ptx_oom(); \
            (vec).v = ptx_xrealloc((vec).v, (size_t)nc_ * sizeof *(vec).v); \
            (vec).cap = nc_; \
        } \
        (vec).v[(vec).n++] = (item); \
    } while (0)

struct ptx_builder {
    ptx_module *m;
    ptx_arena *a;
    ptx_diag *diag;
    const char *file;
    bool saw_version, saw_target;

    VEC(ptx_symbol) syms;
    VEC(ptx_function) funcs;
    VEC(char *) files;
    VEC(pending_reloc) relocs;

    ptx_strmap names;
    VEC(binding) binds;
    VEC(scope_mark) scopes;

    /* the function being parsed */
    int32_t fn;            /* index in funcs, -1 outside */
    bool fn_redef;         /* defining a function that was declared before */
    int32_t *old_params, *old_rets;
    uint32_t old_nparams, old_nrets;
    enum { PL_NONE, PL_RETS, PL_PARAMS } plist;
    VEC(int32_t) params;
    VEC(int32_t) rets;
    VEC(ptx_symbol) pending_rets;
    bool fn_scope;         /* the function's scope is open (after its name) */
    VEC(ptx_reg) regs;
    VEC(ptx_scope) fscopes;
    int32_t cur_scope;
    uint32_t nslots;
    VEC(ptx_instr) instrs;
    ptx_strmap labels;
    VEC(label_ref) label_refs;
    uint64_t local_off, local_max, shared_off;
    uint32_t dbg_file, dbg_line;
    int pending_linkage;
    bool in_proto;         /* inside a .callprototype */
    ptx_str proto_name;
    uint32_t proto_line, proto_col;
    VEC(ptx_symbol) proto_rets;
    VEC(ptx_symbol) proto_params;
    /* .branchtargets / .calltargets tables of the current function: name -> index */
    ptx_strmap tables;
    VEC(struct target_table) ttabs;

    /* the declaration being parsed */
    struct {
        int space, linkage, type, vec, ptr_space;
        uint32_t align, ptr_align;
        bool is_ptr, managed, unified;
        uint64_t uuid[2];      /* .attribute(.unified(uuid1, uuid2)) */
        uint32_t line, col;
        ptx_str name;
        uint32_t nline, ncol;
        uint64_t dims[MAX_DIMS];
        uint32_t ndims;
        bool unsized;
        int64_t range;         /* %r<N>: N, else -1 */
        /* initialiser, kept sparse: elements are written at increasing positions (a short
         * inner list skips ahead), so each stretch of consecutive elements is one run and
         * what lies between runs is zero. Its memory follows the text, not the array. */
        bool has_init;
        VEC(uint8_t) ibytes;   /* the bytes of every run, one run after another */
        VEC(struct init_run) iruns;
        uint64_t pos;          /* scalar elements written so far (cursor) */
        uint64_t hiwater;      /* highest element written + 1 */
        uint32_t depth;
        uint64_t start[MAX_DIMS + 2];
        VEC(ptx_reloc) irelocs;
        VEC(ptx_str) ireloc_names;
        VEC(uint32_t) ireloc_lines;
        bool has_sampler;      /* { field = value } initialiser of a .samplerref / .texref */
        ptx_sampler_init sampler;
    } d;

    uint64_t module_regs;  /* registers declared in all functions so far */
    uint64_t ints[3];      /* the values of a .maxntid-style list */
    bool fn_unified;       /* .func .attribute(.unified(...)) before the function's name */
    uint64_t fn_uuid[2];
    int nints;

    VEC(node) nodes;
    VEC(ptx_operand) tmpops;

    ptx_strmap mn_cache;       /* mnemonic text -> index in mn */
    VEC(ptx_instr) mn;
};

/* ---------------------------------------------------------------- diagnostics */

static const char *cur_func_name(ptx_builder *b)
{
    return b->fn >= 0 ? b->funcs.v[b->fn].name : NULL;
}

void ptx_b_error(ptx_builder *b, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_add(b->diag, b->file, line, col, true, cur_func_name(b), fmt, ap);
    va_end(ap);
}

void ptx_b_warning(ptx_builder *b, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_add(b->diag, b->file, line, col, false, cur_func_name(b), fmt, ap);
    va_end(ap);
}

void ptx_b_error_at(ptx_builder *b, const ptx_function *f, uint32_t line, uint32_t col,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_add(b->diag, b->file, line, col, true, f ? f->name : NULL, fmt, ap);
    va_end(ap);
}

bool ptx_b_too_many_errors(const ptx_builder *b)
{
    return b->diag && b->diag->errors >= MAX_ERRORS;
}

/* ---------------------------------------------------------------- scopes */

static void bind(ptx_builder *b, const char *name, uint32_t len, int kind, int32_t id)
{
    binding bd = {name, len, (uint8_t)kind, id, -1};
    int32_t idx = (int32_t)b->binds.n;
    bd.prev = ptx_strmap_put(&b->names, name, len, idx);
    PUSH(b->binds, bd);
}

static const binding *lookup(ptx_builder *b, const char *name, size_t len)
{
    int32_t i = ptx_strmap_get(&b->names, name, len);
    return i < 0 ? NULL : &b->binds.v[i];
}

/* Whether `name` is already bound in the innermost scope (a redeclaration). */
static bool bound_in_current_scope(ptx_builder *b, const char *name, size_t len)
{
    int32_t i = ptx_strmap_get(&b->names, name, len);
    uint32_t base = b->scopes.n ? b->scopes.v[b->scopes.n - 1].nbinds : 0;
    return i >= 0 && (uint32_t)i >= base;
}

static void scope_push(ptx_builder *b, bool inline_scope)
{
    scope_mark s = {b->binds.n, b->local_off, b->cur_scope};
    PUSH(b->scopes, s);
    if (inline_scope) {
        ptx_scope ps = {b->instrs.n, b->instrs.n, b->cur_scope};
        PUSH(b->fscopes, ps);
        b->cur_scope = (int32_t)b->fscopes.n - 1;
    }
}

void ptx_b_scope_push(ptx_builder *b)
{
    scope_push(b, b->fn >= 0);
}

void ptx_b_scope_pop(ptx_builder *b)
{
    if (!b->scopes.n)
        return;
    scope_mark s = b->scopes.v[--b->scopes.n];
    if (b->cur_scope >= 0 && s.scope != b->cur_scope) {
        b->fscopes.v[b->cur_scope].end = b->instrs.n;
        b->cur_scope = s.scope;
    }
    while (b->binds.n > s.nbinds) {
        binding *bd = &b->binds.v[--b->binds.n];
        ptx_strmap_put(&b->names, bd->name, bd->len, bd->prev);
    }
    /* Names of a closed scope are dead, so later scopes may reuse their frame bytes. */
    b->local_off = s.local_off;
}

/* ---------------------------------------------------------------- module directives */

void ptx_b_version(ptx_builder *b, ptx_str t, uint32_t line, uint32_t col)
{
    unsigned maj = 0, min = 0;
    const char *dot = memchr(t.s, '.', (size_t)t.len);
    for (const char *p = t.s; p < (dot ? dot : t.s + t.len); p++)
        maj = maj * 10 + (unsigned)(*p - '0');
    if (dot)
        for (const char *p = dot + 1; p < t.s + t.len && isdigit((unsigned char)*p); p++)
            min = min * 10 + (unsigned)(*p - '0');
    if (!dot || maj == 0 || t.len > 8) {
        ptx_b_error(b, line, col, "malformed .version '%.*s'", t.len, t.s);
        return;
    }
    if (maj * 100 + min > PTX_MAX_VERSION_MAJOR * 100 + PTX_MAX_VERSION_MINOR) {
        /* the driver refuses PTX newer than its JIT with CUDA_ERROR_UNSUPPORTED_PTX_VERSION */
        ptx_b_error(b, line, col, "PTX ISA version %u.%u is newer than ptxsim implements (%u.%u "
                    "at most); build with an older nvcc", maj,
                    min, PTX_MAX_VERSION_MAJOR, PTX_MAX_VERSION_MINOR);
        if (b->diag)
            b->diag->unsupported_version = true;
        return;
    }
    b->m->version_major = maj;
    b->m->version_minor = min;
    b->saw_version = true;
}

/* The .target names the PTX ISA defines up to version 9.1: architectures (sm_XX and compute_XX,
 * with the arch-specific 'a' and family 'f' suffixes where they exist) and the options. */
static const unsigned known_archs[] = {
    10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88,
    89, 90, 100, 101, 103, 110, 120, 121
};
static const char *const target_options[] = {
    "texmode_unified", "texmode_independent", "debug", "map_f64_to_f32"
};

/* 0 when name is not a target the ISA defines, else its architecture number (1 for an
 * option). */
static unsigned known_target(ptx_str name)
{
    for (size_t i = 0; i < sizeof target_options / sizeof target_options[0]; i++)
        if ((size_t)name.len == strlen(target_options[i]) &&
            memcmp(name.s, target_options[i], (size_t)name.len) == 0)
            return 1;
    int pre = name.len > 3 && memcmp(name.s, "sm_", 3) == 0 ? 3
              : name.len > 8 && memcmp(name.s, "compute_", 8) == 0 ? 8 : 0;
    if (!pre)
        return 0;
    unsigned v = 0;
    int i = pre;
    for (; i < name.len && i < pre + 4 && isdigit((unsigned char)name.s[i]); i++)
        v = v * 10 + (unsigned)(name.s[i] - '0');
    if (i == pre || (name.s[pre] == '0'))
        return 0;
    if (i < name.len) {
        /* sm_90a, sm_100f: suffixes exist from sm_90 (a) and sm_100 (f) on */
        char sfx = name.s[i];
        if (i + 1 != name.len || !((sfx == 'a' && v >= 90) || (sfx == 'f' && v >= 100)))
            return 0;
    }
    for (size_t k = 0; k < sizeof known_archs / sizeof known_archs[0]; k++)
        if (known_archs[k] == v)
            return v;
    return 0;
}

void ptx_b_target(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col)
{
    if (!known_target(name)) {
        ptx_b_error(b, line, col, "unknown .target '%.*s' (PTX ISA %u.%u defines sm_XX and "
                    "compute_XX for XX in 10..121 as the ISA lists them, with 'a' from 90 and "
                    "'f' from 100, and the options texmode_unified, texmode_independent, debug "
                    "and map_f64_to_f32)", name.len > 64 ? 64 : name.len, name.s,
                    PTX_MAX_VERSION_MAJOR, PTX_MAX_VERSION_MINOR);
        return;
    }
    char *old = b->m->target;
    size_t ol = old ? strlen(old) : 0;
    char *t = ptx_arena_alloc(b->a, ol + (size_t)name.len + 3);
    if (old) {
        memcpy(t, old, ol);
        memcpy(t + ol, ", ", 2);
        ol += 2;
    }
    memcpy(t + ol, name.s, (size_t)name.len);
    b->m->target = t;
    if (name.len > 3 && memcmp(name.s, "sm_", 3) == 0) {
        unsigned v = 0;
        for (int i = 3; i < name.len && isdigit((unsigned char)name.s[i]); i++)
            v = v * 10 + (unsigned)(name.s[i] - '0');
        b->m->sm = v;
    } else if (name.len > 8 && memcmp(name.s, "compute_", 8) == 0) {
        unsigned v = 0;
        for (int i = 8; i < name.len && isdigit((unsigned char)name.s[i]); i++)
            v = v * 10 + (unsigned)(name.s[i] - '0');
        b->m->sm = v;
    }
    (void)line;
    (void)col;
    b->saw_target = true;
}

void ptx_b_address_size(ptx_builder *b, uint64_t v, uint32_t line, uint32_t col)
{
    if (v != 32 && v != 64) {
        ptx_b_error(b, line, col, ".address_size must be 32 or 64, not %llu",
                    (unsigned long long)v);
        return;
    }
    if (v == 32) {
        /* 32-bit device code went with 32-bit hosts; CUDA 13 runs only 64-bit programs. */
        ptx_b_error(b, line, col, ".address_size 32 is not supported: ptxsim runs 64-bit device "
                    "code only (build with nvcc -m64, the default)");
        return;
    }
    b->m->address_size = (uint32_t)v;
}

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static const char *read_uint(const char *p, const char *e, uint64_t *v, bool *ok)
{
    p = skip_ws(p, e);
    uint64_t x = 0;
    const char *s = p;
    while (p < e && isdigit((unsigned char)*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    *ok = p > s;
    *v = x;
    return p;
}

void ptx_b_file_line(ptx_builder *b, const char *text, size_t len, uint32_t line)
{
    const char *e = text + len, *p = text + 5;
    uint64_t n;
    bool ok;
    p = read_uint(p, e, &n, &ok);
    p = skip_ws(p, e);
    if (!ok || p >= e || *p != '"' || n > 65535) {
        ptx_b_error(b, line, 1, "malformed .file directive");
        return;
    }
    const char *s = ++p;
    while (p < e && *p != '"') {
        if (*p == '\\' && p + 1 < e)
            p++;
        p++;
    }
    if (p >= e) {
        ptx_b_error(b, line, 1, "unterminated string in .file directive");
        return;
    }
    while (b->files.n <= n)
        PUSH(b->files, NULL);
    b->files.v[n] = ptx_arena_strndup(b->a, s, (size_t)(p - s));
}

void ptx_b_loc_line(ptx_builder *b, const char *text, size_t len, uint32_t line)
{
    const char *e = text + len, *p = text + 4;
    uint64_t file, ln, col;
    bool ok1, ok2, ok3;
    p = read_uint(p, e, &file, &ok1);
    p = read_uint(p, e, &ln, &ok2);
    p = read_uint(p, e, &col, &ok3);
    if (!ok1 || !ok2 || !ok3) {
        ptx_b_error(b, line, 1, "malformed .loc directive");
        return;
    }
    /* `, function_name X, inlined_at F L C` attributes only matter to debuggers. */
    b->dbg_file = (uint32_t)file;
    b->dbg_line = (uint32_t)ln;
}

void ptx_b_pragma(ptx_builder *b, ptx_str text, uint32_t line, uint32_t col)
{
    (void)b; (void)text; (void)line; (void)col;
}

/* ---------------------------------------------------------------- symbols */

static int32_t place_param(ptx_builder *b, const ptx_symbol *ps, bool ret);

static int32_t new_symbol(ptx_builder *b, const ptx_symbol *s)
{
    PUSH(b->syms, *s);
    return (int32_t)b->syms.n - 1;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ---------------------------------------------------------------- declarations */

void ptx_b_decl_linkage(ptx_builder *b, int linkage)
{
    b->pending_linkage = linkage;
}

void ptx_b_decl_begin(ptx_builder *b, int space, uint32_t line, uint32_t col)
{
    free(b->d.ibytes.v);
    free(b->d.iruns.v);
    free(b->d.irelocs.v);
    free(b->d.ireloc_names.v);
    free(b->d.ireloc_lines.v);
    memset(&b->d, 0, sizeof b->d);
    b->d.space = space;
    b->d.linkage = b->pending_linkage;
    b->pending_linkage = 0;
    b->d.line = line;
    b->d.col = col;
    b->d.range = -1;
    b->d.vec = 1;
    if (space == PTX_SPACE_SREG)
        ptx_b_error(b, line, col, ".sreg variables cannot be declared");
}

void ptx_b_decl_align(ptx_builder *b, uint64_t align, uint32_t line, uint32_t col)
{
    if (align == 0 || (align & (align - 1)) || align > (1u << 20)) {
        ptx_b_error(b, line, col, ".align %llu is not a power of two", (unsigned long long)align);
        return;
    }
    if (b->d.is_ptr)
        b->d.ptr_align = (uint32_t)align;
    else
        b->d.align = (uint32_t)align;
}

void ptx_b_decl_type(ptx_builder *b, int type, uint32_t line, uint32_t col)
{
    if (b->d.type)
        ptx_b_error(b, line, col, "declaration has two types");
    b->d.type = type;
}

void ptx_b_decl_vec(ptx_builder *b, int vec)
{
    b->d.vec = vec;
}

void ptx_b_decl_ptr(ptx_builder *b)
{
    b->d.is_ptr = true;
}

void ptx_b_decl_space_attr(ptx_builder *b, int space)
{
    if (!b->d.is_ptr) {
        ptx_b_error(b, b->d.line, b->d.col, "declaration has two state spaces");
        return;
    }
    b->d.ptr_space = space;
}

/* One entry of .attribute(...): .managed takes no values, .unified(uuid1, uuid2) two (PTX ISA
 * "Variable and Function Attribute Directive: .attribute"). Returns 'm', 'u', or 0 on error. */
static int attribute_kind(ptx_builder *b, ptx_str name, bool has_args, uint32_t line,
                          uint32_t col, uint64_t uuid[2])
{
    if (name.len == 8 && memcmp(name.s, ".managed", 8) == 0) {
        if (has_args) {
            ptx_b_error(b, line, col, ".managed takes no values");
            return 0;
        }
        return 'm';
    }
    if (name.len == 8 && memcmp(name.s, ".unified", 8) == 0) {
        if (!has_args || b->nints != 2) {
            ptx_b_error(b, line, col, ".unified needs two integers, the upper and lower 64 bits "
                        "of the identifier: .unified(uuid1, uuid2)");
            return 0;
        }
        if (b->m->sm && b->m->sm < 90) {
            ptx_b_error(b, line, col, ".unified requires sm_90 or higher (the target is sm_%u)",
                        b->m->sm);
            return 0;
        }
        uuid[0] = b->ints[0];
        uuid[1] = b->ints[1];
        return 'u';
    }
    ptx_b_error(b, line, col, "unknown attribute '%.*s'", name.len, name.s);
    return 0;
}

void ptx_b_decl_attribute(ptx_builder *b, ptx_str name, bool has_args, uint32_t line,
                          uint32_t col)
{
    uint64_t uuid[2];
    int k = attribute_kind(b, name, has_args, line, col, uuid);
    if (k && b->d.space != PTX_SPACE_GLOBAL) {
        ptx_b_error(b, line, col, "%.*s applies only to .global variables", name.len, name.s);
        return;
    }
    if (k == 'm')
        b->d.managed = true;
    if (k == 'u') {
        b->d.unified = true;
        memcpy(b->d.uuid, uuid, sizeof uuid);
    }
}

void ptx_b_func_attribute(ptx_builder *b, ptx_str name, bool has_args, uint32_t line,
                          uint32_t col)
{
    uint64_t uuid[2];
    int k = attribute_kind(b, name, has_args, line, col, uuid);
    if (k == 'm') {
        ptx_b_error(b, line, col, ".managed applies only to .global variables, not functions");
    } else if (k == 'u') {
        b->fn_unified = true;
        memcpy(b->fn_uuid, uuid, sizeof uuid);
    }
}

void ptx_b_decl_name(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col)
{
    b->d.name = name;
    b->d.nline = line;
    b->d.ncol = col;
    b->d.ndims = 0;
    b->d.unsized = false;
    b->d.range = -1;
    b->d.has_init = false;
    b->d.pos = b->d.hiwater = 0;
    b->d.depth = 0;
    b->d.ibytes.n = b->d.iruns.n = 0;
    b->d.irelocs.n = b->d.ireloc_names.n = b->d.ireloc_lines.n = 0;
    b->d.has_sampler = false;
    b->d.sampler = (ptx_sampler_init){{PTX_SAMPLER_CLAMP_TO_EDGE, PTX_SAMPLER_CLAMP_TO_EDGE,
                                       PTX_SAMPLER_CLAMP_TO_EDGE}, false, false, 0};
}

void ptx_b_decl_dim(ptx_builder *b, bool has_size, ptx_cval size, uint32_t line, uint32_t col)
{
    uint64_t n = 0;
    if (has_size && !ptx_cval_to_u64(b, size, "an array size", &n, line, col))
        n = 1;   /* reported; go on with a harmless size */
    if (b->d.ndims == MAX_DIMS) {
        ptx_b_error(b, line, col, "too many array dimensions");
        return;
    }
    if (!has_size) {
        if (b->d.ndims) {
            ptx_b_error(b, line, col, "only the first array dimension may be unsized");
            return;
        }
        b->d.unsized = true;
    }
    b->d.dims[b->d.ndims++] = n;
}

void ptx_b_decl_range(ptx_builder *b, uint64_t n, uint32_t line, uint32_t col)
{
    if (b->d.space != PTX_SPACE_REG) {
        ptx_b_error(b, line, col, "'<N>' ranges are only for .reg declarations");
        return;
    }
    if (n > 1000000) {
        ptx_b_error(b, line, col, "register range <%llu> is too large", (unsigned long long)n);
        return;
    }
    b->d.range = (int64_t)n;
}

static uint32_t elem_bytes(ptx_builder *b)
{
    unsigned bits = ptx_type_bits((ptx_type)b->d.type);
    return bits >= 8 ? bits / 8 : 1;
}

/* Scalars that one brace list at `depth` (1 = outermost) covers; saturates at UINT64_MAX (the
 * declaration is then refused as too large when it ends). */
static uint64_t list_span(ptx_builder *b, uint32_t depth)
{
    uint64_t n = (uint64_t)b->d.vec;
    for (uint32_t i = depth - 1; i < b->d.ndims; i++) {
        uint64_t d = b->d.dims[i] ? b->d.dims[i] : 1;
        n = n > UINT64_MAX / d ? UINT64_MAX : n * d;
    }
    return n;
}

void ptx_b_init_open(ptx_builder *b)
{
    b->d.has_init = true;
    if (b->d.depth < MAX_DIMS + 1)
        b->d.start[b->d.depth + 1] = b->d.pos;
    b->d.depth++;
}

void ptx_b_init_close(ptx_builder *b)
{
    uint32_t depth = b->d.depth--;
    /* A short inner list zero-fills the rest of its sub-array. */
    if (depth >= 2 && depth < MAX_DIMS + 2)
        b->d.pos = b->d.start[depth] + list_span(b, depth);
}

static uint8_t *init_slot(ptx_builder *b, uint32_t line, uint32_t col)
{
    b->d.has_init = true;
    uint32_t es = elem_bytes(b);
    if (!b->d.unsized && b->d.depth > 0 && b->d.pos >= list_span(b, 1)) {
        ptx_b_error(b, line, col, "too many initialisers for '%.*s'", b->d.name.len, b->d.name.s);
        return NULL;
    }
    if (b->d.pos >= VAR_SIZE_LIMIT / es) {
        ptx_b_error(b, line, col, "initialiser of '%.*s' reaches past %llu bytes",
                    b->d.name.len, b->d.name.s, (unsigned long long)VAR_SIZE_LIMIT);
        return NULL;
    }
    uint64_t off = b->d.pos * es;
    init_run *r = b->d.iruns.n ? &b->d.iruns.v[b->d.iruns.n - 1] : NULL;
    if (!r || r->offset + r->len != off) {
        init_run nr = {off, 0, b->d.ibytes.n};
        PUSH(b->d.iruns, nr);
        r = &b->d.iruns.v[b->d.iruns.n - 1];
    }
    for (uint32_t i = 0; i < es; i++)
        PUSH(b->d.ibytes, 0);
    r->len += es;
    uint8_t *slot = b->d.ibytes.v + b->d.ibytes.n - es;
    b->d.pos++;
    if (b->d.pos > b->d.hiwater)
        b->d.hiwater = b->d.pos;
    return slot;
}

static void store_le(uint8_t *p, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n && i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t f32_to_f16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = (uint32_t)e << 10 | man >> 13, rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static void store_double(ptx_builder *b, uint8_t *slot, double v)
{
    ptx_type t = (ptx_type)b->d.type;
    uint32_t es = elem_bytes(b);
    if (t == PTX_TYPE_F32) {
        float f = (float)v;
        uint32_t x;
        memcpy(&x, &f, 4);
        store_le(slot, x, 4);
    } else if (t == PTX_TYPE_F64) {
        uint64_t x;
        memcpy(&x, &v, 8);
        store_le(slot, x, 8);
    } else if (t == PTX_TYPE_F16) {
        store_le(slot, f32_to_f16_bits((float)v), 2);
    } else if (t == PTX_TYPE_BF16) {
        float f = (float)v;
        uint32_t x;
        memcpy(&x, &f, 4);
        x += 0x7fff + ((x >> 16) & 1);
        store_le(slot, x >> 16, 2);
    } else if (ptx_type_is_signed(t)) {
        store_le(slot, (uint64_t)(int64_t)v, es);
    } else {
        store_le(slot, v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v, es);
    }
}

/* An integer into an element of the declaration's type: float types get its value, integer
 * types its low bits. */
static void init_integer(ptx_builder *b, uint8_t *slot, ptx_cval v)
{
    if (ptx_type_is_float((ptx_type)b->d.type))
        store_double(b, slot, v.kind == PTX_CV_U64 ? (double)v.bits : (double)(int64_t)v.bits);
    else
        store_le(slot, v.bits, elem_bytes(b));
}

/* A floating-point value into an element. A 0d or 0f literal written on its own keeps its exact
 * bits in an element of its own width (integer elements included, as ptxas takes them); any
 * other float is converted to the element's type. */
static void init_float(ptx_builder *b, uint8_t *slot, ptx_cval v)
{
    ptx_type t = (ptx_type)b->d.type;
    uint32_t es = elem_bytes(b);
    double d;
    if (v.kind == PTX_CV_F32_BITS) {
        if (t == PTX_TYPE_F32 || (!ptx_type_is_float(t) && es == 4)) {
            store_le(slot, v.bits, 4);
            return;
        }
        uint32_t x = (uint32_t)v.bits;
        float f;
        memcpy(&f, &x, 4);
        d = f;
    } else {
        if (v.raw && (t == PTX_TYPE_F64 || (!ptx_type_is_float(t) && es == 8))) {
            store_le(slot, v.bits, 8);
            return;
        }
        memcpy(&d, &v.bits, 8);
    }
    store_double(b, slot, d);
}

void ptx_b_init_value(ptx_builder *b, ptx_cval v, uint32_t line, uint32_t col)
{
    if (v.kind == PTX_CV_ERROR) {
        b->d.has_init = true;
        return;
    }
    uint8_t *slot = init_slot(b, line, col);
    if (!slot)
        return;
    if (v.kind == PTX_CV_S64 || v.kind == PTX_CV_U64)
        init_integer(b, slot, v);
    else
        init_float(b, slot, v);
}

uint64_t ptx_b_decfloat(ptx_str text, bool neg)
{
    char buf[128];
    size_t n = (size_t)text.len < sizeof buf - 1 ? (size_t)text.len : sizeof buf - 1;
    memcpy(buf, text.s, n);
    buf[n] = 0;
    double v = strtod(buf, NULL);
    if (neg)
        v = -v;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    return bits;
}

void ptx_b_init_addr(ptx_builder *b, ptx_str sym, bool generic, ptx_cval offset, uint32_t line,
                     uint32_t col)
{
    if (offset.kind == PTX_CV_ERROR)
        return;
    if (offset.kind != PTX_CV_S64 && offset.kind != PTX_CV_U64) {
        ptx_b_error(b, line, col, "the offset added to '%.*s' must be an integer, not %s",
                    sym.len, sym.s, ptx_cval_type_name(offset));
        return;
    }
    int64_t addend = (int64_t)offset.bits;
    uint64_t pos = b->d.pos;
    uint8_t *slot = init_slot(b, line, col);
    if (!slot)
        return;
    uint32_t es = elem_bytes(b);
    if (es != 4 && es != 8) {
        ptx_b_error(b, line, col, "address initialiser '%.*s' needs a 32- or 64-bit element type",
                    sym.len, sym.s);
        return;
    }
    ptx_reloc r = {.offset = pos * es, .size = es, .sym = -1, .addend = addend,
                   .generic = generic};
    PUSH(b->d.irelocs, r);
    /* Resolved after the scanner's buffer is gone: keep a copy of the name. */
    sym.s = ptx_arena_strndup(b->a, sym.s, (size_t)sym.len);
    PUSH(b->d.ireloc_names, sym);
    PUSH(b->d.ireloc_lines, line << 12 | (col & 0xfff));
}

void ptx_b_init_generic(ptx_builder *b, ptx_str fn, ptx_str sym, ptx_cval addend, uint32_t line,
                        uint32_t col)
{
    if (fn.len != 7 || memcmp(fn.s, "generic", 7) != 0) {
        ptx_b_error(b, line, col, "unknown initialiser operator '%.*s' (expected generic())",
                    fn.len, fn.s);
        return;
    }
    ptx_b_init_addr(b, sym, true, addend, line, col);
}

static bool word_is(ptx_str w, const char *s)
{
    return (size_t)w.len == strlen(s) && memcmp(w.s, s, (size_t)w.len) == 0;
}

void ptx_b_init_field(ptx_builder *b, ptx_str field, ptx_str word, ptx_cval value,
                      uint32_t line, uint32_t col)
{
    int64_t v = 0;
    if (!word.len) {
        if (value.kind == PTX_CV_ERROR)
            return;
        if (value.kind != PTX_CV_S64 && value.kind != PTX_CV_U64) {
            ptx_b_error(b, line, col, "'%.*s' takes an integer, not %s", field.len, field.s,
                        ptx_cval_type_name(value));
            return;
        }
        v = (int64_t)value.bits;
    }
    static const char *const addr[] = {"wrap", "mirror", "clamp_ogl", "clamp_to_edge",
                                       "clamp_to_border"};
    ptx_sampler_init *si = &b->d.sampler;
    b->d.has_sampler = true;
    if (b->d.type != PTX_TYPE_SAMPLERREF && b->d.type != PTX_TYPE_TEXREF) {
        ptx_b_error(b, line, col, "'%.*s = ...' initialises a .samplerref or .texref, not '%.*s'",
                    field.len, field.s, b->d.name.len, b->d.name.s);
        return;
    }
    if (field.len == 11 && memcmp(field.s, "addr_mode_", 10) == 0 && field.s[10] >= '0' &&
        field.s[10] <= '2') {
        int d = field.s[10] - '0';
        for (int i = 0; i < 5; i++)
            if (word_is(word, addr[i])) {
                si->addr_mode[d] = (uint8_t)i;
                si->written |= (uint8_t)(PTX_SAMPLER_F_ADDR0 << d);
                return;
            }
        ptx_b_error(b, line, col, "unknown addressing mode '%.*s' (wrap, mirror, clamp_ogl, "
                    "clamp_to_edge or clamp_to_border)", word.len, word.s);
    } else if (word_is(field, "filter_mode")) {
        if (!word_is(word, "nearest") && !word_is(word, "linear")) {
            ptx_b_error(b, line, col, "unknown filter mode '%.*s' (nearest or linear)", word.len,
                        word.s);
            return;
        }
        si->filter_linear = word_is(word, "linear");
        si->written |= PTX_SAMPLER_F_FILTER;
    } else if (word_is(field, "force_unnormalized_coords") && !word.len) {
        si->force_unnormalized_coords = v != 0;
        si->written |= PTX_SAMPLER_F_UNNORM;
    } else if (word_is(field, "normalized_coords") && !word.len) {
        si->force_unnormalized_coords = v == 0;
        si->written |= PTX_SAMPLER_F_UNNORM;
    } else {
        ptx_b_error(b, line, col, "unknown sampler field '%.*s'", field.len, field.s);
    }
}

/* The declaration's runs as the symbol keeps them: zero bytes at either end of a run dropped
 * (what no run covers reads as zero), runs that are all zero left out, nothing past the
 * variable's size. */
static void store_init_runs(ptx_builder *b, ptx_symbol *s)
{
    uint32_t n = 0;
    ptx_init_run *runs = NULL;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        for (uint32_t i = 0; i < b->d.iruns.n; i++) {
            const init_run *r = &b->d.iruns.v[i];
            if (r->offset >= s->size)
                break;
            uint64_t len = r->len < s->size - r->offset ? r->len : s->size - r->offset;
            const uint8_t *p = b->d.ibytes.v + r->at;
            uint64_t lo = 0, hi = len;
            while (lo < hi && p[lo] == 0)
                lo++;
            while (hi > lo && p[hi - 1] == 0)
                hi--;
            if (lo == hi)
                continue;
            if (pass == 1)
                runs[n] = (ptx_init_run){r->offset + lo, hi - lo,
                                         ptx_arena_dup(b->a, p + lo, (size_t)(hi - lo))};
            n++;
        }
        if (n == 0)
            break;
        if (pass == 0)
            runs = ptx_arena_alloc(b->a, n * sizeof *runs);
    }
    s->init = n ? runs : NULL;
    s->ninit = n;
}

static void declare_regs(ptx_builder *b)
{
    ptx_type t = (ptx_type)b->d.type;
    if (!t) {
        ptx_b_error(b, b->d.nline, b->d.ncol, "register '%.*s' has no type", b->d.name.len,
                    b->d.name.s);
        return;
    }
    if (b->fn < 0) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg declarations must be inside a function");
        return;
    }
    if (b->d.vec > 1 && (b->d.vec > 4 || t == PTX_TYPE_PRED ||
                         (uint64_t)ptx_type_bits(t) * (uint64_t)b->d.vec > 128)) {
        /* PTX ISA "Vectors": .v2/.v4 of a fundamental type, 128 bits at most */
        ptx_b_error(b, b->d.nline, b->d.ncol, "vector register '%.*s' is .v%d .%s: vector "
                    "registers are .v2 or .v4 of at most 128 bits in all", b->d.name.len,
                    b->d.name.s, b->d.vec, ptx_type_name(t));
        return;
    }
    uint8_t nslots = (uint8_t)((t == PTX_TYPE_B128 ? 2 : 1) * b->d.vec);
    int64_t count = b->d.range >= 0 ? b->d.range : 1;
    /* A few lines of %r<1000000> must not cost gigabytes: no function that loads has more
     * than about 131,000 (ptxas spills the registers beyond 255 to local memory, which holds
     * 512 KiB per thread), so more are refused here, before their names are made. */
    if ((uint64_t)b->regs.n + (uint64_t)count > MAX_FUNC_REGS ||
        b->module_regs + (uint64_t)count > MAX_MODULE_REGS) {
        ptx_b_error(b, b->d.nline, b->d.ncol, "too many registers: a function may declare at "
                    "most %u and a module %u", MAX_FUNC_REGS, MAX_MODULE_REGS);
        return;
    }
    b->module_regs += (uint64_t)count;
    char buf[256];
    for (int64_t i = 0; i < count; i++) {
        const char *name;
        size_t len;
        if (b->d.range >= 0) {
            /* %r<N>: the prefix and the decimal index (this runs once per register) */
            char digits[24];
            int nd = 0;
            for (int64_t v = i; nd == 0 || v; v /= 10)
                digits[nd++] = (char)('0' + v % 10);
            size_t pl = (size_t)b->d.name.len < sizeof buf - 24 ? (size_t)b->d.name.len : 0;
            char *q = ptx_arena_alloc_raw(b->a, pl + (size_t)nd + 1);
            memcpy(q, b->d.name.s, pl);
            for (int k = 0; k < nd; k++)
                q[pl + (size_t)k] = digits[nd - 1 - k];
            q[pl + (size_t)nd] = 0;
            name = q;
            len = pl + (size_t)nd;
        } else {
            name = ptx_arena_strndup(b->a, b->d.name.s, (size_t)b->d.name.len);
            len = (size_t)b->d.name.len;
        }
        if (bound_in_current_scope(b, name, len)) {
            ptx_b_error(b, b->d.nline, b->d.ncol, "redeclaration of '%s'", name);
            continue;
        }
        ptx_reg r = {.name = (char *)name, .type = (uint8_t)t, .nslots = nslots,
                     .slot = b->nslots, .vec = (uint8_t)b->d.vec, .scope = b->cur_scope};
        b->nslots += nslots;
        PUSH(b->regs, r);
        bind(b, name, (uint32_t)len, BIND_REG, (int32_t)b->regs.n - 1);
    }
}

/* A .reg parameter of a .func (PTX ISA "Function Declarations and Definitions"): a register of
 * the callee that a call initialises from its argument, or for a return parameter, whose value
 * ret copies back into the caller's register. The ABI passes scalars of at least 32 bits this
 * way (sub-word values are promoted; predicates and arrays cannot be parameters). */
static void reg_param(ptx_builder *b)
{
    ptx_type t = (ptx_type)b->d.type;
    int nl = b->d.name.len;
    const char *ns = b->d.name.s;
    const char *what = b->plist == PL_RETS ? "return parameter" : "parameter";
    if (!b->in_proto && b->fn >= 0 && b->funcs.v[b->fn].is_entry) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".entry parameters must be in the .param state "
                    "space; '%.*s' is .reg", nl, ns);
        return;
    }
    if (!t) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg %s '%.*s' has no type", what, nl, ns);
        return;
    }
    /* .pred parameters and return values: ptxas takes them (with a warning) */
    if (ptx_type_kind(t) == 'O') {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg %s '%.*s' cannot have the opaque type .%s",
                    what, nl, ns, ptx_type_name(t));
        return;
    }
    if (ptx_type_bits(t) < 32 && t != PTX_TYPE_PRED && b->d.vec <= 1) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg %s '%.*s' is .%s: .reg parameters must be at "
                    "least 32 bits (promote it to .b32, or use .param)", what, nl, ns,
                    ptx_type_name(t));
        return;
    }
    if (b->d.ndims || b->d.range >= 0 || b->d.has_init) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg %s '%.*s' must be a single register (no "
                    "array, <N> range or initialiser)", what, nl, ns);
        return;
    }
    if (t == PTX_TYPE_B128 ||
        (b->d.vec > 1 && (t == PTX_TYPE_PRED || b->d.vec > 4 ||
                          (uint64_t)ptx_type_bits(t) * (uint64_t)b->d.vec > 128))) {
        ptx_b_error(b, b->d.nline, b->d.ncol, ".reg %s '%.*s': ptxsim supports .reg parameters "
                    "of scalars and .v2/.v4 vectors of at most 128 bits; pass .b128 "
                    "through .param", what, nl, ns);
        return;
    }
    ptx_symbol ps = {0};
    ps.name = ptx_arena_strndup(b->a, ns, (size_t)nl);
    ps.kind = PTX_SYM_PARAM;
    ps.space = PTX_SPACE_REG;
    ps.type = (uint8_t)t;
    ps.vec = (uint8_t)(b->d.vec > 1 ? b->d.vec : 1);
    ps.size = (t == PTX_TYPE_PRED ? 1 : ptx_type_bits(t) / 8) * ps.vec;
    ps.align = (uint32_t)ps.size;
    ps.owner = b->in_proto ? -1 : b->fn;
    ps.func = -1;
    ps.scope = -1;
    ps.line = b->d.nline;
    ps.reg = -1;
    if (b->in_proto) {
        if (b->plist == PL_RETS)
            PUSH(b->proto_rets, ps);
        else
            PUSH(b->proto_params, ps);
    } else if (b->plist == PL_RETS && !b->fn_scope) {
        PUSH(b->pending_rets, ps);
    } else {
        place_param(b, &ps, b->plist == PL_RETS);
    }
}

void ptx_b_decl_end_item(ptx_builder *b)
{
    if (b->d.space == PTX_SPACE_REG && b->plist != PL_NONE) {
        reg_param(b);
        return;
    }
    if (b->d.space == PTX_SPACE_REG) {
        if (b->d.has_init)
            ptx_b_error(b, b->d.nline, b->d.ncol, "registers cannot have initialisers");
        declare_regs(b);
        return;
    }
    if (b->d.space == PTX_SPACE_SREG)
        return;
    ptx_type t = (ptx_type)b->d.type;
    if (!t) {
        ptx_b_error(b, b->d.nline, b->d.ncol, "variable '%.*s' has no type", b->d.name.len,
                    b->d.name.s);
        return;
    }
    bool in_fn = b->fn >= 0;
    bool is_param_decl = b->plist != PL_NONE;
    if (b->in_proto) {
        /* Prototype parameters describe a call's shape; they become the parameters of a
         * declaration-only function when the prototype ends. */
        ptx_symbol ps = {0};
        ps.name = ptx_arena_strndup(b->a, b->d.name.s, (size_t)b->d.name.len);
        ps.kind = PTX_SYM_PARAM;
        ps.space = (uint8_t)b->d.space;
        ps.type = (uint8_t)t;
        ps.vec = (uint8_t)b->d.vec;
        ps.func = -1;
        ps.scope = -1;
        ps.line = b->d.nline;
        uint32_t es0 = elem_bytes(b);
        uint64_t n0 = (uint64_t)b->d.vec;
        for (uint32_t i = 0; i < b->d.ndims; i++)
            n0 *= b->d.dims[i];
        ps.size = n0 * es0;
        ps.align = b->d.align ? b->d.align : es0 * (uint32_t)b->d.vec;
        if (b->plist == PL_RETS)
            PUSH(b->proto_rets, ps);
        else
            PUSH(b->proto_params, ps);
        return;
    }
    ptx_symbol s = {0};
    s.name = ptx_arena_strndup(b->a, b->d.name.s, (size_t)b->d.name.len);
    s.kind = is_param_decl ? PTX_SYM_PARAM : PTX_SYM_VAR;
    s.space = (uint8_t)b->d.space;
    s.type = (uint8_t)t;
    s.linkage = (uint8_t)b->d.linkage;
    s.vec = (uint8_t)b->d.vec;
    s.is_ptr = b->d.is_ptr;
    s.ptr_align = b->d.ptr_align;
    s.ptr_space = (uint8_t)b->d.ptr_space;
    s.owner = in_fn ? b->fn : -1;
    s.func = -1;
    s.line = b->d.nline;
    s.scope = is_param_decl ? -1 : b->cur_scope;
    s.managed = b->d.managed;
    s.unified = b->d.unified;
    memcpy(s.uuid, b->d.uuid, sizeof s.uuid);
    uint32_t es = elem_bytes(b);
    uint64_t elems = (uint64_t)b->d.vec;
    for (uint32_t i = 0; i < b->d.ndims; i++)
        if (!(i == 0 && b->d.unsized)) {
            /* 2^40 bytes is far beyond any GPU's memory: reject before anything overflows */
            if (b->d.dims[i] && elems > VAR_SIZE_LIMIT / b->d.dims[i] / es) {
                ptx_b_error(b, b->d.nline, b->d.ncol, "variable '%s' is larger than %llu bytes",
                            s.name, (unsigned long long)VAR_SIZE_LIMIT);
                return;
            }
            elems *= b->d.dims[i];
        }
    if (b->d.unsized) {
        /* `x[] = {...}`: the initialiser sets the first dimension. */
        uint64_t inner = elems;
        uint64_t n = inner ? (b->d.hiwater + inner - 1) / inner : 0;
        elems = n * inner;
    }
    s.size = elems * es;
    s.align = b->d.align ? b->d.align : es * (uint32_t)(b->d.vec ? b->d.vec : 1);
    if (ptx_type_kind(t) == 'O')
        s.align = b->d.align ? b->d.align : 8;
    if (b->d.has_init && !b->d.has_sampler) {
        if (b->d.space != PTX_SPACE_GLOBAL && b->d.space != PTX_SPACE_CONST)
            ptx_b_error(b, b->d.nline, b->d.ncol, "only .global and .const variables can have "
                        "initialisers");
        if (b->d.hiwater * es > s.size && !b->d.unsized)
            ptx_b_error(b, b->d.nline, b->d.ncol, "too many initialisers for '%s'", s.name);
        store_init_runs(b, &s);
    }
    if (b->d.has_sampler) {
        if (b->d.hiwater || b->d.irelocs.n)
            ptx_b_error(b, b->d.nline, b->d.ncol, "'%s' mixes values and 'field = value' "
                        "initialisers", s.name);
        s.sampler = ptx_arena_alloc(b->a, sizeof *s.sampler);
        *s.sampler = b->d.sampler;
    }

    if (is_param_decl) {
        if (b->d.space != PTX_SPACE_PARAM) {
            ptx_b_error(b, b->d.nline, b->d.ncol, "function parameters must be .param");
            return;
        }
    } else if (in_fn) {
        if (b->d.space == PTX_SPACE_LOCAL || b->d.space == PTX_SPACE_PARAM) {
            s.offset = align_up(b->local_off, s.align);
            b->local_off = s.offset + s.size;
            if (b->local_off > b->local_max)
                b->local_max = b->local_off;
        } else if (b->d.space == PTX_SPACE_SHARED) {
            s.offset = align_up(b->shared_off, s.align);
            b->shared_off = s.offset + s.size;
        }
    }

    if (is_param_decl) {
        if (b->plist == PL_RETS && !b->fn_scope)
            PUSH(b->pending_rets, s);
        else
            place_param(b, &s, b->plist == PL_RETS);
        return;
    }
    int32_t id = -1;
    {
        const binding *bd = lookup(b, s.name, strlen(s.name));
        if (!in_fn && bd && bd->kind == BIND_SYM && b->syms.v[bd->id].owner == -1 &&
            b->syms.v[bd->id].kind == PTX_SYM_VAR) {
            ptx_symbol *old = &b->syms.v[bd->id];
            if (s.linkage == PTX_LINK_EXTERN)
                return;   /* a repeated .extern declaration */
            if (old->linkage == PTX_LINK_EXTERN) {
                *old = s;  /* the definition of an earlier .extern declaration */
                id = bd->id;
                goto relocs;
            }
        }
        if (bound_in_current_scope(b, s.name, strlen(s.name)) && strcmp(s.name, "_") != 0) {
            ptx_b_error(b, b->d.nline, b->d.ncol, "redeclaration of '%s'", s.name);
            return;
        }
        id = new_symbol(b, &s);
        bind(b, s.name, (uint32_t)strlen(s.name), BIND_SYM, id);
    }
relocs:
    for (uint32_t i = 0; i < b->d.irelocs.n; i++) {
        uint32_t lc = b->d.ireloc_lines.v[i];
        pending_reloc pr = {id, b->d.irelocs.v[i], b->d.ireloc_names.v[i], lc >> 12, lc & 0xfff};
        if (b->fn >= 0) {
            /* in a function body the name may be a variable of the body, visible only now */
            const binding *bd = lookup(b, pr.name.s, (size_t)pr.name.len);
            if (bd && bd->kind == BIND_SYM && b->syms.v[bd->id].owner >= 0)
                pr.r.sym = bd->id;
        }
        PUSH(b->relocs, pr);
    }
}

/* ---------------------------------------------------------------- functions */

void ptx_b_func_begin(ptx_builder *b, bool entry, uint32_t line, uint32_t col)
{
    ptx_function f = {0};
    f.is_entry = entry;
    f.linkage = (uint8_t)b->pending_linkage;
    b->pending_linkage = 0;
    b->fn_unified = false;
    f.line = line;
    f.sym = -1;
    (void)col;
    PUSH(b->funcs, f);
    b->fn = (int32_t)b->funcs.n - 1;
    b->fn_redef = false;
    b->params.n = b->rets.n = 0;
    b->regs.n = 0;
    b->fscopes.n = 0;
    b->cur_scope = -1;
    b->nslots = 0;
    b->instrs.n = 0;
    b->label_refs.n = 0;
    ptx_strmap_free(&b->labels);
    ptx_strmap_free(&b->tables);
    b->ttabs.n = 0;
    b->local_off = b->local_max = b->shared_off = 0;
    b->dbg_file = b->dbg_line = 0;
    b->plist = PL_NONE;
    b->fn_scope = false;
    b->pending_rets.n = 0;
}

void ptx_b_func_rets_begin(ptx_builder *b)
{
    b->plist = PL_RETS;
}

void ptx_b_func_params_begin(ptx_builder *b)
{
    b->plist = PL_PARAMS;
}

static int32_t place_param(ptx_builder *b, const ptx_symbol *ps, bool ret)
{
    /* A definition after a prototype reuses the prototype's parameter symbols by position. */
    int32_t id = -1;
    uint32_t i = ret ? b->rets.n : b->params.n;
    if (b->fn_redef) {
        int32_t *old = ret ? b->old_rets : b->old_params;
        uint32_t nold = ret ? b->old_nrets : b->old_nparams;
        if (i < nold) {
            id = old[i];
            b->syms.v[id] = *ps;
        }
    }
    if (id < 0)
        id = new_symbol(b, ps);
    b->syms.v[id].owner = b->fn;
    if (ret)
        PUSH(b->rets, id);
    else
        PUSH(b->params, id);
    const char *nm = b->syms.v[id].name;
    if (ps->space == PTX_SPACE_REG) {
        /* the body names it as a register */
        if (bound_in_current_scope(b, nm, strlen(nm))) {
            ptx_b_error(b, ps->line, 1, "redeclaration of parameter '%s'", nm);
            return id;
        }
        uint8_t vec = ps->vec > 1 ? ps->vec : 1;
        ptx_reg r = {.name = (char *)nm, .type = ps->type, .nslots = vec, .slot = b->nslots,
                     .vec = vec, .scope = PTX_REG_SCOPE_PARAM};
        b->nslots += vec;
        PUSH(b->regs, r);
        b->syms.v[id].reg = (int32_t)b->regs.n - 1;
        bind(b, nm, (uint32_t)strlen(nm), BIND_REG, (int32_t)b->regs.n - 1);
        return id;
    }
    if (strcmp(nm, "_") != 0) {
        if (bound_in_current_scope(b, nm, strlen(nm)))
            ptx_b_error(b, ps->line, 1, "redeclaration of parameter '%s'", nm);
        else
            bind(b, nm, (uint32_t)strlen(nm), BIND_SYM, id);
    }
    return id;
}

void ptx_b_func_name(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col)
{
    b->plist = PL_NONE;
    if (b->in_proto)
        return;
    char *nm = ptx_arena_strndup(b->a, name.s, (size_t)name.len);
    const binding *bd = lookup(b, nm, (size_t)name.len);
    if (bd && bd->kind == BIND_SYM && b->syms.v[bd->id].kind == PTX_SYM_FUNC &&
        b->syms.v[bd->id].owner == -1) {
        ptx_symbol *s = &b->syms.v[bd->id];
        ptx_function *old = &b->funcs.v[s->func];
        if (!old->is_decl) {
            ptx_b_error(b, line, col, "redefinition of function '%s'", nm);
        } else {
            /* A prototype seen earlier: this declaration fills in its entry. */
            int32_t oldidx = s->func;
            ptx_function nf = b->funcs.v[b->fn];
            b->funcs.n--;
            b->fn = oldidx;
            b->fn_redef = true;
            b->old_params = old->params;
            b->old_nparams = old->nparams;
            b->old_rets = old->rets;
            b->old_nrets = old->nrets;
            old->is_entry = nf.is_entry;
            old->line = nf.line;
            if (nf.linkage)
                old->linkage = nf.linkage;
            goto scope;
        }
    } else if (bd) {
        ptx_b_error(b, line, col, "function '%s' redeclares a variable", nm);
    }
    {
        ptx_function *f = &b->funcs.v[b->fn];
        f->name = nm;
        ptx_symbol s = {0};
        s.name = nm;
        s.kind = PTX_SYM_FUNC;
        s.linkage = f->linkage;
        s.owner = -1;
        s.func = b->fn;
        s.line = f->line;
        s.scope = -1;
        s.align = 1;
        int32_t id = new_symbol(b, &s);
        f->sym = id;
        bind(b, nm, (uint32_t)name.len, BIND_SYM, id);
    }
scope:
    if (b->fn_unified && b->funcs.v[b->fn].sym >= 0) {
        ptx_symbol *fs = &b->syms.v[b->funcs.v[b->fn].sym];
        fs->unified = true;
        memcpy(fs->uuid, b->fn_uuid, sizeof fs->uuid);
    }
    scope_push(b, false);
    b->fn_scope = true;
    for (uint32_t i = 0; i < b->pending_rets.n; i++)
        place_param(b, &b->pending_rets.v[i], true);
    b->pending_rets.n = 0;
}

void ptx_b_func_perf(ptx_builder *b, ptx_str d, const uint64_t *v, int n, uint32_t line,
                     uint32_t col)
{
    if (b->in_proto || b->fn < 0)
        return;
    ptx_function *f = &b->funcs.v[b->fn];
#define IS(lit) (d.len == (int)sizeof(lit) - 1 && memcmp(d.s, lit, sizeof(lit) - 1) == 0)
    uint32_t xyz[3] = {1, 1, 1};
    for (int i = 0; i < n && i < 3; i++)
        xyz[i] = (uint32_t)v[i];
    if (IS(".maxntid") || IS(".reqntid") || IS(".reqnctapercluster")) {
        if (n < 1 || n > 3) {
            ptx_b_error(b, line, col, "%.*s takes 1 to 3 values", d.len, d.s);
            return;
        }
        uint32_t *dst = IS(".maxntid") ? f->maxntid : IS(".reqntid") ? f->reqntid
                                                                      : f->reqnctapercluster;
        memcpy(dst, xyz, sizeof xyz);
    } else if (IS(".minnctapersm") || IS(".maxnctapersm") || IS(".maxnreg") ||
               IS(".maxclusterrank")) {
        if (n != 1) {
            ptx_b_error(b, line, col, "%.*s takes one value", d.len, d.s);
            return;
        }
        if (IS(".minnctapersm") || IS(".maxnctapersm"))
            f->minnctapersm = xyz[0];
        else if (IS(".maxnreg"))
            f->maxnreg = xyz[0];
        else
            f->maxclusterrank = xyz[0];
    } else if (IS(".explicitcluster") || IS(".noreturn") || IS(".blocksareclusters")) {
        if (n) {
            ptx_b_error(b, line, col, "%.*s takes no values", d.len, d.s);
            return;
        }
        if (IS(".noreturn"))
            f->noreturn = true;
        else if (IS(".explicitcluster"))
            f->explicitcluster = true;
    } else if (IS(".abi_preserve") || IS(".abi_preserve_control")) {
        /* register-allocation hints for ptxas; nothing to emulate */
        if (n != 1)
            ptx_b_error(b, line, col, "%.*s takes one value", d.len, d.s);
    }
#undef IS
}

void ptx_b_ints_reset(ptx_builder *b)
{
    b->nints = 0;
}

void ptx_b_ints_add(ptx_builder *b, uint64_t v)
{
    if (b->nints < 3)
        b->ints[b->nints] = v;
    b->nints++;
}

void ptx_b_func_perf_list(ptx_builder *b, ptx_str d, uint32_t line, uint32_t col)
{
    ptx_b_func_perf(b, d, b->ints, b->nints, line, col);
}

void ptx_b_func_body_begin(ptx_builder *b)
{
    b->plist = PL_NONE;
}

static void resolve_labels(ptx_builder *b, ptx_function *f)
{
    for (uint32_t i = 0; i < b->label_refs.n; i++) {
        label_ref *r = &b->label_refs.v[i];
        int32_t ti = ptx_strmap_get(&b->tables, r->name.s, (size_t)r->name.len);
        if (ti >= 0) {
            /* brx.idx / call through a .branchtargets / .calltargets table: the operand
             * becomes the list itself (comp 2 marks a .calltargets list). */
            const target_table *t = &b->ttabs.v[ti];
            r->op->kind = PTX_OPD_LIST;
            r->op->comp = t->calls ? 2 : 0;
            r->op->nelem = (uint8_t)(t->n > 255 ? 255 : t->n);
            r->op->elems = ptx_arena_alloc(b->a, (r->op->nelem ? r->op->nelem : 1) *
                                                     sizeof(ptx_operand));
            for (uint32_t k = 0; k < r->op->nelem; k++) {
                ptx_operand *e = &r->op->elems[k];
                e->reg = e->sym = -1;
                if (t->calls) {
                    const binding *bd = lookup(b, t->names[k].s, (size_t)t->names[k].len);
                    if (!bd || bd->kind != BIND_SYM ||
                        b->syms.v[bd->id].kind != PTX_SYM_FUNC) {
                        ptx_b_error(b, t->line, t->col, ".calltargets entry '%.*s' is not a "
                                    "function", t->names[k].len, t->names[k].s);
                        continue;
                    }
                    e->kind = PTX_OPD_SYM;
                    e->sym = bd->id;
                } else {
                    int32_t lt = ptx_strmap_get(&b->labels, t->names[k].s,
                                                (size_t)t->names[k].len);
                    if (lt < 0) {
                        ptx_b_error(b, t->line, t->col, "undefined label '%.*s' in "
                                    ".branchtargets", t->names[k].len, t->names[k].s);
                        continue;
                    }
                    e->kind = PTX_OPD_LABEL;
                    e->imm = lt;
                }
            }
            continue;
        }
        int32_t t = ptx_strmap_get(&b->labels, r->name.s, (size_t)r->name.len);
        if (t < 0) {
            ptx_b_error(b, r->line, r->col, "undefined label or symbol '%.*s'", r->name.len,
                        r->name.s);
            continue;
        }
        if (r->list) {
            ptx_b_error(b, r->line, r->col, "'%.*s' is a label, not a .branchtargets table",
                        r->name.len, r->name.s);
            continue;
        }
        r->op->kind = PTX_OPD_LABEL;
        r->op->imm = t;
        r->op->reg = -1;
        r->op->sym = -1;
        ptx_instr *in = &b->instrs.v[r->instr];
        if (in->op == PTX_OP_BRA && in->target < 0)
            in->target = t;
    }
    (void)f;
}

/* Marks every register operand o names (a vector's or list's elements, an address's base). */
static void mark_named(const ptx_operand *o, uint8_t *named, uint32_t nregs)
{
    if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && o->reg >= 0 &&
        (uint32_t)o->reg < nregs)
        named[o->reg] = 1;
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_LIST)
        for (unsigned k = 0; k < o->nelem; k++) mark_named(&o->elems[k], named, nregs);
}

/* Slots for the registers of f's body that an instruction names, in order of declaration;
 * the others (nvcc declares %r<N> and names %r1 .. %r(N-1): its %r0, %f0, %rd0 and %p0, and
 * registers its own optimisation left unused) share one region after them (reading it as
 * zero, as their own slots did, since nothing writes it). Every PTX virtual register is a row
 * of EMU_WARP_SIZE 64-bit lanes per warp, and a cycle model keeps thousands of warps resident:
 * the anchors' matmul declares 133 registers and names 103, reduce 69 and 56, vecadd 23 and 19.
 * A .reg parameter keeps its slot (a call writes it). */
static void pack_slots(ptx_function *f)
{
    if (!f->nregs) return;
    uint8_t *named = calloc(f->nregs, 1);
    if (!named) ptx_oom();
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        if (in->guard >= 0 && (uint32_t)in->guard < f->nregs) named[in->guard] = 1;
        for (unsigned k = 0; k < in->nops; k++) mark_named(&in->ops[k], named, f->nregs);
    }
    uint32_t next = 0, unnamed = 0;
    for (uint32_t r = 0; r < f->nregs; r++) {
        ptx_reg *reg = &f->regs[r];
        if (named[r] || reg->scope == PTX_REG_SCOPE_PARAM) {
            reg->slot = next;
            next += reg->nslots;
        } else if (reg->nslots > unnamed) {
            unnamed = reg->nslots;
        }
    }
    for (uint32_t r = 0; r < f->nregs; r++)
        if (!named[r] && f->regs[r].scope != PTX_REG_SCOPE_PARAM) f->regs[r].slot = next;
    f->nslots = next + unnamed;
    free(named);
}

void ptx_b_func_end(ptx_builder *b, bool has_body)
{
    if (b->fn < 0)
        return;
    ptx_function *f = &b->funcs.v[b->fn];
    if (!has_body) {
        if (b->fn_redef) {
            /* A second prototype: nothing new. */
        }
        f->is_decl = true;
    } else {
        f->is_decl = false;
    }
    f->params = ptx_arena_dup(b->a, b->params.v, b->params.n * sizeof(int32_t));
    f->nparams = b->params.n;
    f->rets = ptx_arena_dup(b->a, b->rets.v, b->rets.n * sizeof(int32_t));
    f->nrets = b->rets.n;
    /* One parameter block: inputs, then return parameters (.reg parameters live in registers;
     * a declaration has none). */
    uint64_t off = 0;
    for (uint32_t i = 0; i < b->params.n + b->rets.n; i++) {
        ptx_symbol *ps = &b->syms.v[i < b->params.n ? b->params.v[i] : b->rets.v[i - b->params.n]];
        if (ps->space == PTX_SPACE_REG) {
            if (!has_body)
                ps->reg = -1;
            continue;
        }
        ps->offset = align_up(off, ps->align);
        off = ps->offset + ps->size;
    }
    f->param_size = (uint32_t)off;
    if (has_body) {
        resolve_labels(b, f);
        /* The builder's arrays become the function's: no copy of big instruction arrays. */
        f->regs = ptx_arena_adopt(b->a, b->regs.v, b->regs.n * sizeof(ptx_reg));
        f->nregs = b->regs.n;
        f->nslots = b->nslots;
        f->instrs = ptx_arena_adopt(b->a, b->instrs.v, b->instrs.n * sizeof(ptx_instr));
        f->ninstrs = b->instrs.n;
        pack_slots(f);
        b->regs.v = NULL;
        b->regs.n = b->regs.cap = 0;
        b->instrs.v = NULL;
        b->instrs.n = b->instrs.cap = 0;
        f->local_size = b->local_max;
        f->scopes = ptx_arena_dup(b->a, b->fscopes.v, b->fscopes.n * sizeof(ptx_scope));
        f->nscopes = b->fscopes.n;
        f->shared_size = b->shared_off;
    }
    if (b->fn_scope)
        ptx_b_scope_pop(b);
    b->fn_scope = false;
    b->fn = -1;
    b->fn_redef = false;
    b->plist = PL_NONE;
}

/* ---------------------------------------------------------------- labels, tables, prototypes */

void ptx_b_label(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col)
{
    const char *nm = ptx_arena_strndup(b->a, name.s, (size_t)name.len);
    if (ptx_strmap_get(&b->labels, nm, (size_t)name.len) >= 0) {
        ptx_b_error(b, line, col, "duplicate label '%s'", nm);
        return;
    }
    ptx_strmap_put(&b->labels, nm, (size_t)name.len, (int32_t)b->instrs.n);
}

static void add_table(ptx_builder *b, ptx_str name, ptx_node_list items, bool calls,
                      uint32_t line, uint32_t col)
{
    target_table t = {calls, NULL, (uint32_t)items.n, line, col};
    t.names = ptx_arena_alloc(b->a, (size_t)(items.n ? items.n : 1) * sizeof(ptx_str));
    int k = items.first;
    for (int i = 0; i < items.n && k >= 0; i++, k = b->nodes.v[k].next) {
        ptx_str nm = b->nodes.v[k].name;
        t.names[i].s = ptx_arena_strndup(b->a, nm.s, (size_t)nm.len);
        t.names[i].len = nm.len;
    }
    b->nodes.n = 0;
    const char *key = ptx_arena_strndup(b->a, name.s, (size_t)name.len);
    if (ptx_strmap_get(&b->tables, key, (size_t)name.len) >= 0 ||
        ptx_strmap_get(&b->labels, key, (size_t)name.len) >= 0) {
        ptx_b_error(b, line, col, "duplicate label '%s'", key);
        return;
    }
    PUSH(b->ttabs, t);
    ptx_strmap_put(&b->tables, key, (size_t)name.len, (int32_t)b->ttabs.n - 1);
}

void ptx_b_branchtargets(ptx_builder *b, ptx_str name, ptx_node_list labels, uint32_t line,
                         uint32_t col)
{
    add_table(b, name, labels, false, line, col);
}

void ptx_b_calltargets(ptx_builder *b, ptx_str name, ptx_node_list funcs, uint32_t line,
                       uint32_t col)
{
    add_table(b, name, funcs, true, line, col);
}

void ptx_b_callprototype_begin(ptx_builder *b, ptx_str name, uint32_t line, uint32_t col)
{
    b->in_proto = true;
    b->proto_name = name;
    b->proto_line = line;
    b->proto_col = col;
    b->proto_rets.n = b->proto_params.n = 0;
}

void ptx_b_callprototype_end(ptx_builder *b)
{
    b->in_proto = false;
    b->plist = PL_NONE;
    if (b->fn < 0)
        return;
    /* A prototype is a declaration-only function whose symbol lives in the enclosing
     * function's scope: `call (r), %rd, (a), proto;` names it. */
    char *nm = ptx_arena_strndup(b->a, b->proto_name.s, (size_t)b->proto_name.len);
    if (bound_in_current_scope(b, nm, (size_t)b->proto_name.len)) {
        ptx_b_error(b, b->proto_line, b->proto_col, "redeclaration of '%s'", nm);
        return;
    }
    ptx_function pf = {0};
    pf.name = nm;
    pf.is_decl = true;
    pf.line = b->proto_line;
    int32_t pfi = (int32_t)b->funcs.n;
    ptx_symbol fs = {0};
    fs.name = nm;
    fs.kind = PTX_SYM_FUNC;
    fs.owner = b->fn;
    fs.func = pfi;
    fs.scope = b->cur_scope;
    fs.line = b->proto_line;
    fs.align = 1;
    pf.sym = new_symbol(b, &fs);
    uint32_t np = b->proto_params.n, nr = b->proto_rets.n;
    pf.params = ptx_arena_alloc(b->a, (np ? np : 1) * sizeof(int32_t));
    pf.rets = ptx_arena_alloc(b->a, (nr ? nr : 1) * sizeof(int32_t));
    uint64_t off = 0;
    for (uint32_t i = 0; i < np + nr; i++) {
        ptx_symbol ps = i < np ? b->proto_params.v[i] : b->proto_rets.v[i - np];
        ps.owner = pfi;
        if (ps.space != PTX_SPACE_REG) {
            ps.offset = align_up(off, ps.align);
            off = ps.offset + ps.size;
        }
        int32_t id = new_symbol(b, &ps);
        if (i < np)
            pf.params[pf.nparams++] = id;
        else
            pf.rets[pf.nrets++] = id;
    }
    pf.param_size = (uint32_t)off;
    PUSH(b->funcs, pf);
    bind(b, nm, (uint32_t)b->proto_name.len, BIND_SYM, pf.sym);
}

void ptx_b_alias(ptx_builder *b, ptx_str alias, ptx_str target, uint32_t line, uint32_t col)
{
    const binding *t = lookup(b, target.s, (size_t)target.len);
    if (!t || t->kind != BIND_SYM || b->syms.v[t->id].kind != PTX_SYM_FUNC) {
        ptx_b_error(b, line, col, ".alias target '%.*s' is not a function", target.len, target.s);
        return;
    }
    const binding *a = lookup(b, alias.s, (size_t)alias.len);
    if (!a || a->kind != BIND_SYM || b->syms.v[a->id].kind != PTX_SYM_FUNC) {
        ptx_b_error(b, line, col, ".alias '%.*s' must be declared as a function first",
                    alias.len, alias.s);
        return;
    }
    b->syms.v[a->id].func = b->syms.v[t->id].func;
}

/* ---------------------------------------------------------------- operands */

static int new_node(ptx_builder *b, int kind, uint32_t line, uint32_t col)
{
    node n = {.kind = (uint8_t)kind, .line = line, .col = col, .child = -1, .next = -1};
    PUSH(b->nodes, n);
    return (int)b->nodes.n - 1;
}

int ptx_b_node_name(ptx_builder *b, ptx_str name, bool neg, uint32_t line, uint32_t col)
{
    int i = new_node(b, PTX_N_NAME, line, col);
    b->nodes.v[i].name = name;
    b->nodes.v[i].neg = neg;
    return i;
}

void ptx_b_node_negate(ptx_builder *b, int ni)
{
    b->nodes.v[ni].neg = true;
}

int ptx_b_node_imm(ptx_builder *b, int kind, int64_t v, uint32_t line, uint32_t col)
{
    int i = new_node(b, kind, line, col);
    b->nodes.v[i].imm = v;
    return i;
}

int ptx_b_node_addr(ptx_builder *b, int base, int64_t off, uint32_t line, uint32_t col)
{
    int i = new_node(b, PTX_N_ADDR, line, col);
    b->nodes.v[i].child = base;
    b->nodes.v[i].nchild = base >= 0;
    b->nodes.v[i].imm = off;
    return i;
}

int ptx_b_node_addr_value(ptx_builder *b, int base, int64_t off, uint32_t line, uint32_t col)
{
    int i = ptx_b_node_addr(b, base, off, line, col);
    b->nodes.v[i].value = true;
    return i;
}

int ptx_b_node_group(ptx_builder *b, int kind, ptx_node_list elems, uint32_t line, uint32_t col)
{
    int i = new_node(b, kind, line, col);
    b->nodes.v[i].child = elems.first;
    b->nodes.v[i].nchild = elems.n;
    return i;
}

void ptx_b_node_addr_qualifier(ptx_builder *b, int node_idx, ptx_str q, uint32_t line,
                               uint32_t col)
{
    if (q.len != 8 || memcmp(q.s, ".unified", 8) != 0) {
        ptx_b_error(b, line, col, "unknown address qualifier '%.*s' (only .unified follows an "
                    "address)", q.len, q.s);
        return;
    }
    b->nodes.v[node_idx].unified = true;
}

int ptx_b_node_pipe(ptx_builder *b, int a, int c)
{
    b->nodes.v[c].pipe = true;
    b->nodes.v[a].next = c;
    return a;   /* the pair is two siblings; list_add links past both */
}

ptx_node_list ptx_b_list_one(ptx_builder *b, int n)
{
    ptx_node_list l = {n, n, 1};
    while (b->nodes.v[l.last].next >= 0) {   /* a d|p pair */
        l.last = b->nodes.v[l.last].next;
        l.n++;
    }
    return l;
}

ptx_node_list ptx_b_list_add(ptx_builder *b, ptx_node_list l, int n)
{
    b->nodes.v[l.last].next = n;
    l.last = n;
    l.n++;
    while (b->nodes.v[l.last].next >= 0) {
        l.last = b->nodes.v[l.last].next;
        l.n++;
    }
    return l;
}

ptx_node_list ptx_b_list_prepend(ptx_builder *b, ptx_node_list l, int n)
{
    b->nodes.v[n].next = l.first;
    l.first = n;
    l.n++;
    return l;
}

static int comp_index(const char *s, size_t len)
{
    if (len != 1)
        return -1;
    switch (s[0]) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

/* A video-instruction operand selector (.b0, .h1, .b3210, .h10) packed as ptx.h describes
 * for PTX_OPD_REG, or 0 when s is not one. */
static int64_t video_selector(const char *s, size_t len)
{
    if (len < 2 || len > 5 || (s[0] != 'b' && s[0] != 'h'))
        return 0;
    /* The SIMD forms pick from the 8 bytes / 4 half-words of {b, a} (vadd4's default b
     * selector is .b7654, vadd2's .h32); the executor checks what each instruction allows. */
    char top = s[0] == 'b' ? '7' : '3';
    if (s[0] == 'h' && len > 3)
        return 0;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && (s[i] < '0' || s[i] > top))
            return 0;
        v |= (int64_t)(unsigned char)s[i] << (8 * i);
    }
    return v;
}

/* %tid.x, %envreg3, %pm0_64 ... */
static bool resolve_sreg(const char *s, size_t len, ptx_operand *o)
{
    const char *dot = memchr(s, '.', len);
    size_t base = dot ? (size_t)(dot - s) : len;
    ptx_sreg r = ptx_sreg_lookup(s, base);
    int comp = 0;
    if (r == PTX_SREG_NONE) {
        /* numbered families */
        size_t k = base;
        while (k > 0 && isdigit((unsigned char)s[k - 1]))
            k--;
        bool pm64 = false;
        if (k == base && base > 3 && memcmp(s + base - 3, "_64", 3) == 0) {
            k = base - 3;
            while (k > 0 && isdigit((unsigned char)s[k - 1]))
                k--;
            pm64 = true;
        }
        if (k == base || dot)
            return false;
        r = ptx_sreg_lookup(s, k);
        if (r != PTX_SREG_ENVREG && r != PTX_SREG_PM && r != PTX_SREG_RESERVED_SMEM_OFFSET)
            return false;
        if (pm64 && r != PTX_SREG_PM)
            return false;
        comp = atoi(s + k);
        if ((r == PTX_SREG_ENVREG && comp > 31) || (r == PTX_SREG_PM && comp > 7) ||
            (r == PTX_SREG_RESERVED_SMEM_OFFSET && comp > 1))
            return false;
        if (pm64)
            comp += 8;  /* %pm0_64.. are the 64-bit counters: comp 8..15 */
    } else if (dot) {
        comp = comp_index(dot + 1, len - base - 1);
        if (comp < 0 || comp > 2)
            return false;
        switch (r) {
        case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
        case PTX_SREG_CLUSTERID: case PTX_SREG_NCLUSTERID: case PTX_SREG_CLUSTER_CTAID:
        case PTX_SREG_CLUSTER_NCTAID:
            break;
        default:
            return false;
        }
    } else {
        switch (r) {
        case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
        case PTX_SREG_CLUSTERID: case PTX_SREG_NCLUSTERID: case PTX_SREG_CLUSTER_CTAID:
        case PTX_SREG_CLUSTER_NCTAID:
            comp = 3;   /* the whole vector (mov.v4 / mov.u32 %r, %tid is not allowed) */
            break;
        default:
            break;
        }
    }
    o->kind = PTX_OPD_SREG;
    o->reg = r;
    o->comp = (uint8_t)comp;
    return true;
}

typedef struct lower_ctx {
    uint32_t instr;
    ptx_opcode op;
} lower_ctx;

static void add_label_ref(ptx_builder *b, ptx_operand *o, const node *n, const lower_ctx *c,
                          bool list)
{
    label_ref r = {o, c->instr, n->name, n->line, n->col, list};
    PUSH(b->label_refs, r);
}

/* Resolves a name node into o. */
static void lower_name(ptx_builder *b, const node *n, ptx_operand *o, const lower_ctx *c,
                       bool label_ok)
{
    o->kind = PTX_OPD_REG;
    o->reg = -1;
    o->sym = -1;
    o->neg = n->neg;
    const char *s = n->name.s;
    size_t len = (size_t)n->name.len;
    if (c->op == PTX_OP_BRA && s[0] != '%') {
        o->kind = PTX_OPD_LABEL;
        add_label_ref(b, o, n, c, false);
        return;
    }
    const binding *bd = lookup(b, s, len);
    if (bd) {
        if (bd->kind == BIND_REG) {
            o->reg = bd->id;
            unsigned vec = b->regs.v[bd->id].vec;
            if (vec > 1) {
                /* A whole .v2/.v4 register stands for the brace list of its components, so
                 * that everything taking {a, b, c, d} takes it (ld/st/mov .v4, call lists). */
                o->kind = PTX_OPD_VEC;
                o->nelem = (uint8_t)vec;
                o->elems = ptx_arena_alloc_raw(b->a, vec * sizeof(ptx_operand));
                for (unsigned k = 0; k < vec; k++)
                    o->elems[k] = (ptx_operand){.kind = PTX_OPD_REG, .reg = bd->id,
                                                .sym = -1, .comp = (uint8_t)k};
                o->reg = -1;
            }
        } else {
            o->kind = PTX_OPD_SYM;
            o->sym = bd->id;
        }
        return;
    }
    if (s[0] == '%') {
        if (resolve_sreg(s, len, o))
            return;
        const char *dot = memchr(s, '.', len);
        if (dot) {
            const binding *vb = lookup(b, s, (size_t)(dot - s));
            int comp = comp_index(dot + 1, len - (size_t)(dot - s) - 1);
            if (vb && vb->kind == BIND_REG && comp >= 0) {
                unsigned vec = b->regs.v[vb->id].vec;
                if (vec < 2 || (unsigned)comp >= vec) {
                    ptx_b_error(b, n->line, n->col, "'%.*s': %s", (int)len, s,
                                vec < 2 ? "not a vector register"
                                        : "no such component (a .v2 register has .x and .y)");
                    return;
                }
                o->reg = vb->id;
                o->comp = (uint8_t)comp;
                return;
            }
            int64_t sel = video_selector(dot + 1, len - (size_t)(dot - s) - 1);
            if (vb && vb->kind == BIND_REG && sel) {
                o->reg = vb->id;
                o->imm = sel;
                return;
            }
            if (vb && vb->kind == BIND_REG) {
                ptx_b_error(b, n->line, n->col, "operand selector '%.*s' on '%.*s' is not "
                            "supported", (int)(len - (size_t)(dot - s)), dot, (int)(dot - s), s);
                return;
            }
        }
        ptx_b_error(b, n->line, n->col, "undefined register '%.*s'", (int)len, s);
        return;
    }
    if (len == 7 && memcmp(s, "WARP_SZ", 7) == 0) {
        /* the ISA's predefined constant (threads per warp), unless the module declares the name */
        o->kind = PTX_OPD_IMM;
        o->imm = 32;
        return;
    }
    if (label_ok) {
        o->kind = PTX_OPD_LABEL;
        add_label_ref(b, o, n, c, c->op == PTX_OP_BRX_IDX);
        return;
    }
    ptx_b_error(b, n->line, n->col, "undefined symbol '%.*s'", (int)len, s);
}

static void lower_node(ptx_builder *b, int ni, ptx_operand *o, const lower_ctx *c, bool top);

static void lower_children(ptx_builder *b, const node *n, ptx_operand *o, const lower_ctx *c)
{
    o->nelem = (uint8_t)(n->nchild > 255 ? 255 : n->nchild);
    if (n->nchild > 255)
        ptx_b_error(b, n->line, n->col, "too many elements in a vector or list");
    o->elems = n->nchild ? ptx_arena_alloc_raw(b->a, o->nelem * sizeof(ptx_operand)) : NULL;
    int k = n->child;
    for (int i = 0; i < o->nelem && k >= 0; i++, k = b->nodes.v[k].next)
        lower_node(b, k, &o->elems[i], c, false);
}

static void lower_node(ptx_builder *b, int ni, ptx_operand *o, const lower_ctx *c, bool top)
{
    const node *n = &b->nodes.v[ni];
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym = -1;
    o->pipe = n->pipe;
    switch (n->kind) {
    case PTX_N_NAME:
        lower_name(b, n, o, c, top || c->op == PTX_OP_BRX_IDX || c->op == PTX_OP_CALL);
        break;
    case PTX_N_IMM:
        o->kind = PTX_OPD_IMM;
        o->imm = n->imm;
        break;
    case PTX_N_F32:
        o->kind = PTX_OPD_FIMM32;
        o->imm = n->imm;
        break;
    case PTX_N_F64:
        o->kind = PTX_OPD_FIMM64;
        o->imm = n->imm;
        break;
    case PTX_N_SINK:
        o->kind = PTX_OPD_SINK;
        break;
    case PTX_N_ADDR:
        o->kind = PTX_OPD_ADDR;
        o->imm = n->imm;
        o->comp = n->value ? PTX_ADDR_VALUE : n->unified;
        if (n->child >= 0) {
            ptx_operand base;
            const node *bn = &b->nodes.v[n->child];
            lower_name(b, bn, &base, c, false);
            if (base.kind == PTX_OPD_REG)
                o->reg = base.reg;
            else if (base.kind == PTX_OPD_SYM)
                o->sym = base.sym;
            else if (base.kind == PTX_OPD_SREG)
                ptx_b_error(b, bn->line, bn->col, "special register '%.*s' cannot be an address",
                            bn->name.len, bn->name.s);
            else if (base.kind == PTX_OPD_VEC)
                ptx_b_error(b, bn->line, bn->col, "vector register '%.*s' cannot be an address "
                            "(name one component, such as .x)", bn->name.len, bn->name.s);
        }
        break;
    case PTX_N_VEC:
        o->kind = PTX_OPD_VEC;
        lower_children(b, n, o, c);
        break;
    case PTX_N_LIST:
        o->kind = PTX_OPD_LIST;
        lower_children(b, n, o, c);
        break;
    case PTX_N_BLIST:
        o->kind = PTX_OPD_LIST;
        o->comp = 1;
        lower_children(b, n, o, c);
        break;
    }
}

void ptx_b_instr(ptx_builder *b, ptx_str mn, int guard, bool guard_neg, ptx_node_list ops,
                 uint32_t line, uint32_t col)
{
    if (b->fn < 0) {
        ptx_b_error(b, line, col, "instruction outside a function");
        b->nodes.n = 0;
        return;
    }
    int32_t ci = ptx_strmap_get(&b->mn_cache, mn.s, (size_t)mn.len);
    ptx_instr in;
    if (ci < 0) {
        char err[256];
        if (ptx_mnemonic_decode(mn.s, (size_t)mn.len, &in, err, sizeof err)) {
            ptx_b_error(b, line, col, "%s", err);
            b->nodes.n = 0;
            return;
        }
        PUSH(b->mn, in);
        const char *key = ptx_arena_strndup(b->a, mn.s, (size_t)mn.len);
        ptx_strmap_put(&b->mn_cache, key, (size_t)mn.len, (int32_t)b->mn.n - 1);
    } else {
        in = b->mn.v[ci];
    }
    in.line = line;
    in.col = col;
    in.dbg_file = b->dbg_file;
    in.dbg_line = b->dbg_line;
    lower_ctx c = {b->instrs.n, (ptx_opcode)in.op};
    if (guard >= 0) {
        ptx_operand g;
        /* a guard is a register, also on a bra (whose plain names are otherwise labels) */
        lower_ctx gc = {b->instrs.n, PTX_OP_SETP};
        lower_name(b, &b->nodes.v[guard], &g, &gc, false);
        if (g.kind != PTX_OPD_REG || g.reg < 0) {
            if (g.kind != PTX_OPD_REG || g.reg >= 0 || ptx_b_too_many_errors(b) == false)
                if (g.kind != PTX_OPD_REG)
                    ptx_b_error(b, b->nodes.v[guard].line, b->nodes.v[guard].col,
                                "guard '%.*s' is not a predicate register",
                                b->nodes.v[guard].name.len, b->nodes.v[guard].name.s);
        } else if (b->regs.v[g.reg].type != PTX_TYPE_PRED) {
            ptx_b_error(b, b->nodes.v[guard].line, b->nodes.v[guard].col,
                        "guard '%s' is not a .pred register", b->regs.v[g.reg].name);
        } else {
            in.guard = g.reg;
            in.guard_neg = guard_neg;
        }
    }
    if (ops.n > 255) {
        ptx_b_error(b, line, col, "too many operands");
        ops.n = 255;
    }
    in.nops = (uint8_t)ops.n;
    in.ops = ops.n ? ptx_arena_alloc_raw(b->a, (size_t)ops.n * sizeof(ptx_operand)) : NULL;
    int k = ops.first;
    for (int i = 0; i < ops.n && k >= 0; i++, k = b->nodes.v[k].next)
        lower_node(b, k, &in.ops[i], &c, true);
    if (in.op == PTX_OP_CALL) {
        for (int i = 0; i < in.nops; i++) {
            if (in.ops[i].kind == PTX_OPD_LIST)
                continue;
            if (in.ops[i].kind == PTX_OPD_SYM && b->syms.v[in.ops[i].sym].kind == PTX_SYM_FUNC)
                in.target = in.ops[i].sym;
            else if (in.ops[i].kind == PTX_OPD_LABEL) {
                /* a name that is neither a function nor declared */
            }
            break;
        }
    }
    PUSH(b->instrs, in);
    b->nodes.n = 0;
}

/* ---------------------------------------------------------------- the whole module */

ptx_builder *ptx_builder_new(const char *name, ptx_diag *diag)
{
    ptx_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->a = ptx_arena_new();
    if (!b->a) {
        free(b);
        return NULL;
    }
    const char *nm = name ? name : "<ptx>";
    b->m = ptx_arena_try_alloc(b->a, sizeof(ptx_module));
    char *copy = b->m ? ptx_arena_try_alloc(b->a, strlen(nm) + 1) : NULL;
    if (!copy) {
        ptx_arena_free(b->a);
        free(b);
        return NULL;
    }
    memcpy(copy, nm, strlen(nm) + 1);
    b->m->arena = b->a;
    b->m->name = copy;
    b->m->address_size = 64;
    b->file = b->m->name;
    b->diag = diag;
    b->fn = -1;
    b->cur_scope = -1;
    return b;
}

static void builder_free(ptx_builder *b)
{
    free(b->syms.v);
    free(b->funcs.v);
    free(b->files.v);
    free(b->relocs.v);
    ptx_strmap_free(&b->names);
    free(b->binds.v);
    free(b->scopes.v);
    free(b->params.v);
    free(b->rets.v);
    free(b->pending_rets.v);
    free(b->regs.v);
    free(b->fscopes.v);
    free(b->instrs.v);
    ptx_strmap_free(&b->labels);
    ptx_strmap_free(&b->tables);
    free(b->ttabs.v);
    free(b->proto_rets.v);
    free(b->proto_params.v);
    free(b->label_refs.v);
    free(b->d.ibytes.v);
    free(b->d.iruns.v);
    free(b->d.irelocs.v);
    free(b->d.ireloc_names.v);
    free(b->d.ireloc_lines.v);
    free(b->nodes.v);
    free(b->tmpops.v);
    ptx_strmap_free(&b->mn_cache);
    free(b->mn.v);
    free(b);
}

void ptx_builder_discard(ptx_builder *b)
{
    if (!b)
        return;
    ptx_arena *a = b->a;
    builder_free(b);
    ptx_arena_free(a);
}

ptx_module *ptx_builder_finish(ptx_builder *b)
{
    ptx_module *m = b->m;
    bool failed = b->diag ? b->diag->errors > 0 : false;
    if (!failed) {
        if (!b->saw_version)
            ptx_b_error(b, 1, 1, "missing .version directive");
        if (!b->saw_target)
            ptx_b_error(b, 1, 1, "missing .target directive");
    }
    /* Address initialisers may name symbols declared later. */
    for (uint32_t i = 0; i < b->relocs.n; i++) {
        pending_reloc *pr = &b->relocs.v[i];
        if (pr->r.sym >= 0 && b->syms.v[pr->r.sym].owner >= 0)
            continue;   /* a function-scope variable, resolved where it was visible */
        const binding *bd = lookup(b, pr->name.s, (size_t)pr->name.len);
        if (!bd || bd->kind != BIND_SYM) {
            ptx_b_error(b, pr->line, pr->col, "undefined symbol '%.*s' in initialiser",
                        pr->name.len, pr->name.s);
            continue;
        }
        pr->r.sym = bd->id;
    }
    for (uint32_t i = 0; i < b->relocs.n; i++) {
        ptx_symbol *s = &b->syms.v[b->relocs.v[i].sym];
        s->nrelocs++;
    }
    for (uint32_t i = 0; i < b->syms.n; i++) {
        ptx_symbol *s = &b->syms.v[i];
        if (s->nrelocs) {
            s->relocs = ptx_arena_alloc(b->a, s->nrelocs * sizeof(ptx_reloc));
            s->nrelocs = 0;
        }
    }
    for (uint32_t i = 0; i < b->relocs.n; i++) {
        ptx_symbol *s = &b->syms.v[b->relocs.v[i].sym];
        s->relocs[s->nrelocs++] = b->relocs.v[i].r;
    }
    m->syms = ptx_arena_dup(b->a, b->syms.v, b->syms.n * sizeof(ptx_symbol));
    m->nsyms = b->syms.n;
    m->funcs = ptx_arena_dup(b->a, b->funcs.v, b->funcs.n * sizeof(ptx_function));
    m->nfuncs = b->funcs.n;
    m->files = ptx_arena_dup(b->a, b->files.v, b->files.n * sizeof(char *));
    m->nfiles = b->files.n;
    if (!b->diag || b->diag->errors == 0)
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (!m->funcs[i].is_decl && ptx_build_cfg(m, &m->funcs[i], b->a) != 0)
                ptx_b_error_at(b, &m->funcs[i], m->funcs[i].line, 1,
                               "out of host memory building the control-flow graph of %u "
                               "instructions", m->funcs[i].ninstrs);
    if (!b->diag || b->diag->errors == 0)
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (!m->funcs[i].is_decl) {
                ptx_check_function(b, m, &m->funcs[i]);
                ptx_check_transactions(b, m, &m->funcs[i]);
            }
    failed = b->diag && b->diag->errors > 0;
    if (!failed)
        ptx_module_index_build(m);   /* without it look-ups scan: slower, still right */
    builder_free(b);
    if (failed) {
        ptx_module_free(m);
        return NULL;
    }
    return m;
}
