/* ptx_check.c: operand checks after lowering: operand counts, vector widths and register types
 * against the instruction type, with the PTX ISA's type-checking rules:
 *   - a bit-size type (.bN) agrees with any type of the same size;
 *   - signed and unsigned integers agree when they have the same size;
 *   - floating-point types agree only with themselves (or a bit type of their size);
 *   - ld, st and cvt relax this: their data registers may be wider than the instruction type
 *     (the value is truncated on the way in and extended on the way out), except that a float
 *     register must still have the float type's exact size.
 * Instructions whose operand shapes vary a lot (tensor, texture, async copies) are only checked
 * for what every form shares. */
#include "frontend/ptx_parser.h"

#include <stdio.h>
#include <string.h>

enum expect {
    E_ANY,      /* not checked */
    E_T0,       /* the first type suffix, strict rules */
    E_T1,       /* the second type suffix, strict rules */
    E_T0R,      /* the first type, relaxed (ld/st/cvt) */
    E_T1R,      /* the second type, relaxed */
    E_W0,       /* twice the width of the first type (mul.wide / mad.wide) */
    E_PRED,     /* a predicate */
    E_B32       /* a 32-bit integer or bit value (shift amounts, bit positions) */
};

typedef struct check_ctx {
    ptx_builder *b;
    const ptx_module *m;
    const ptx_function *f;
    const ptx_instr *in;
    char mn[160];
    bool failed;
} check_ctx;

static void mnemonic_text(const ptx_instr *in, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", ptx_opcode_name((ptx_opcode)in->op));
    for (unsigned i = 0; i < in->nsfx && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, ".%s", ptx_suffix_name((ptx_suffix)in->sfx[i]));
}

static void fail(check_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(check_ctx *c, const char *fmt, ...)
{
    char msg[512];
    mnemonic_text(c->in, c->mn, sizeof c->mn);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ptx_b_error_at(c->b, c->f, c->in->line, c->in->col, "'%s': %s", c->mn, msg);
    c->failed = true;
}

static bool is_int_kind(char k)
{
    return k == 'S' || k == 'U';
}

/* Whether a register of type r may stand where the instruction expects type t. */
static bool type_agrees(ptx_type t, ptx_type r, bool relaxed)
{
    if (t == r)
        return true;
    char tk = ptx_type_kind(t), rk = ptx_type_kind(r);
    unsigned tb = ptx_type_bits(t), rb = ptx_type_bits(r);
    if (tk == 'P' || rk == 'P')
        return false;
    if (tk == 'O' || rk == 'O')
        return false;
    bool tfloat = tk == 'F' || tk == 'K', rfloat = rk == 'F' || rk == 'K';
    if (relaxed) {
        /* ld/st/cvt: the register may be wider; floats keep their exact size. */
        if (rb < tb)
            return false;
        if (rfloat)
            return rb == tb && (tk == 'B' || (tfloat && rb == tb));
        if (tfloat)
            return rk == 'B';
        return true;
    }
    if (tb != rb)
        return false;
    if (tk == 'B' || rk == 'B')
        return true;
    if (is_int_kind(tk) && is_int_kind(rk))
        return true;
    /* packed halves (f16x2, bf16x2) and small floats travel in bit registers only */
    return false;
}

static const char *type_text(ptx_type t)
{
    return ptx_type_name(t);
}

static bool is_fimm(const ptx_operand *o)
{
    return o->kind == PTX_OPD_FIMM32 || o->kind == PTX_OPD_FIMM64;
}

/* Constants follow the same type rules as registers (PTX ISA "Constants"): an integer constant
 * is .s64/.u64 and a floating-point one .f64, each converted to the instruction's size, and a
 * bit-size type agrees with both. So a floating-point constant cannot feed an integer operand,
 * nor an integer constant an .f32/.f64 one (.f16/.bf16 have no literal form: left alone). */
static void check_imm(check_ctx *c, const ptx_operand *o, unsigned idx, enum expect e)
{
    ptx_type want = PTX_TYPE_NONE;
    switch (e) {
    case E_T0: case E_T0R: want = c->in->ntypes > 0 ? (ptx_type)c->in->types[0] : 0; break;
    case E_T1: case E_T1R: want = c->in->ntypes > 1 ? (ptx_type)c->in->types[1] : 0; break;
    case E_W0: case E_B32: want = PTX_TYPE_S32; break;
    case E_PRED: want = PTX_TYPE_PRED; break;
    default: return;
    }
    if (want == PTX_TYPE_NONE)
        return;
    char k = ptx_type_kind(want);
    if (is_fimm(o) && (is_int_kind(k) || want == PTX_TYPE_PRED))
        fail(c, "operand %u: a floating-point constant cannot be a .%s operand", idx + 1,
             type_text(want));
    else if (o->kind == PTX_OPD_IMM && (want == PTX_TYPE_F32 || want == PTX_TYPE_F64))
        fail(c, "operand %u: the integer constant %lld cannot be a .%s operand (write a "
             "floating-point constant such as %lld.0 or 0f/0d hex)", idx + 1,
             (long long)o->imm, type_text(want), (long long)o->imm);
}

static void check_reg(check_ctx *c, const ptx_operand *o, unsigned idx, enum expect e)
{
    if (e != E_ANY && (o->kind == PTX_OPD_IMM || is_fimm(o))) {
        check_imm(c, o, idx, e);
        return;
    }
    if (e != E_ANY && o->kind == PTX_OPD_VEC && o->nelem > 1) {
        /* a brace list, or a whole .v2/.v4 register, where one value is expected */
        fail(c, "operand %u: a vector of %u elements cannot be a scalar operand (name one "
             "component, such as .x)", idx + 1, o->nelem);
        return;
    }
    if (e == E_ANY || o->kind != PTX_OPD_REG || o->reg < 0)
        return;
    const ptx_reg *r = &c->f->regs[o->reg];
    ptx_type rt = (ptx_type)r->type;
    char name[128];   /* as written: a vector register's component with its suffix */
    snprintf(name, sizeof name, "%s%s", r->name,
             r->vec > 1 ? (const char *[]){".x", ".y", ".z", ".w"}[o->comp & 3] : "");
    ptx_type want = PTX_TYPE_NONE;
    bool relaxed = false;
    switch (e) {
    case E_T0: want = c->in->ntypes > 0 ? (ptx_type)c->in->types[0] : PTX_TYPE_NONE; break;
    case E_T1: want = c->in->ntypes > 1 ? (ptx_type)c->in->types[1] : PTX_TYPE_NONE; break;
    case E_T0R: want = c->in->ntypes > 0 ? (ptx_type)c->in->types[0] : PTX_TYPE_NONE;
        relaxed = true; break;
    case E_T1R: want = c->in->ntypes > 1 ? (ptx_type)c->in->types[1] : PTX_TYPE_NONE;
        relaxed = true; break;
    case E_PRED:
        if (rt != PTX_TYPE_PRED)
            fail(c, "operand %u: register '%s' is .%s, expected a .pred register", idx + 1,
                 name, type_text(rt));
        return;
    case E_B32:
        if (ptx_type_bits(rt) != 32 || ptx_type_kind(rt) == 'F' || ptx_type_kind(rt) == 'K')
            fail(c, "operand %u: register '%s' is .%s, expected a 32-bit integer register",
                 idx + 1, name, type_text(rt));
        return;
    case E_W0: {
        if (c->in->ntypes < 1)
            return;
        ptx_type t0 = (ptx_type)c->in->types[0];
        unsigned wb = 2 * ptx_type_bits(t0);
        if (ptx_type_bits(rt) != wb || ptx_type_kind(rt) == 'F' || rt == PTX_TYPE_PRED)
            fail(c, "operand %u: register '%s' is .%s, expected a %u-bit integer register "
                 "(.wide of .%s)", idx + 1, name, type_text(rt), wb, type_text(t0));
        return;
    }
    default:
        return;
    }
    if (want == PTX_TYPE_NONE)
        return;
    /* a component of a vector register (%v.x) is a register of the vector's element type */
    if (!type_agrees(want, rt, relaxed)) {
        if (want == PTX_TYPE_PRED || rt == PTX_TYPE_PRED)
            fail(c, "operand %u: register '%s' is .%s, expected .%s", idx + 1, name,
                 type_text(rt), type_text(want));
        else if (relaxed)
            fail(c, "operand %u: register '%s' is .%s, which cannot hold .%s data "
                 "(too narrow or the wrong kind)", idx + 1, name, type_text(rt),
                 type_text(want));
        else
            fail(c, "operand %u: register '%s' is .%s, which does not agree with .%s (type "
                 "or size mismatch)", idx + 1, name, type_text(rt), type_text(want));
    }
}

/* A data operand of ld/st/atom: a register, or a vector of them for .v2/.v4/.v8. */
static void check_data(check_ctx *c, const ptx_operand *o, unsigned idx, enum expect e)
{
    unsigned vec = c->in->vec ? c->in->vec : 1;
    if (o->kind == PTX_OPD_VEC) {
        if (vec == 1 && o->nelem == 1) {
            /* {%r} without .v: ptxas takes it as %r (NCCL's inline assembly writes it) */
            check_reg(c, &o->elems[0], idx, e);
            return;
        }
        if (vec == 1) {
            fail(c, "operand %u: a vector operand needs a .v2/.v4/.v8 modifier", idx + 1);
            return;
        }
        if (o->nelem != vec) {
            fail(c, "operand %u: vector has %u elements but the instruction is .v%u", idx + 1,
                 o->nelem, vec);
            return;
        }
        for (unsigned k = 0; k < o->nelem; k++)
            check_reg(c, &o->elems[k], idx, e);
        return;
    }
    if (vec > 1 && (o->kind == PTX_OPD_REG || o->kind == PTX_OPD_IMM)) {
        fail(c, "operand %u: .v%u needs a vector operand {...}", idx + 1, vec);
        return;
    }
    check_reg(c, o, idx, e);
}

static void check_count(check_ctx *c, unsigned lo, unsigned hi)
{
    if (c->in->nops < lo || c->in->nops > hi) {
        if (lo == hi)
            fail(c, "expects %u operands, got %u", lo, c->in->nops);
        else
            fail(c, "expects %u to %u operands, got %u", lo, hi, c->in->nops);
    }
}

static void check_all(check_ctx *c, unsigned from, enum expect e)
{
    for (unsigned i = from; i < c->in->nops; i++)
        check_reg(c, &c->in->ops[i], i, e);
}

static void check_addr(check_ctx *c, unsigned idx)
{
    if (idx >= c->in->nops)
        return;
    const ptx_operand *o = &c->in->ops[idx];
    if (o->kind != PTX_OPD_ADDR)
        fail(c, "operand %u must be an address [...]", idx + 1);
    else if (o->reg >= 0) {
        const ptx_reg *r = &c->f->regs[o->reg];
        unsigned bits = ptx_type_bits((ptx_type)r->type);
        if (r->type == PTX_TYPE_PRED || (bits != 32 && bits != 64) ||
            ptx_type_kind((ptx_type)r->type) == 'F')
            fail(c, "operand %u: address register '%s' is .%s, expected a 32- or 64-bit integer",
                 idx + 1, r->name, ptx_type_name((ptx_type)r->type));
    }
}

/* ---------------------------------------------------------------- tensor, texture, async */

/* Registers an operand names: a vector's elements, else 1. */
static unsigned opd_count(const ptx_operand *o)
{
    return o->kind == PTX_OPD_VEC ? o->nelem : 1;
}

/* Operand idx (called `what`) must name `want` registers (0: any number) of `bits` bits each
 * (0: any width); sinks and constants stand for a register. */
static bool check_elems(check_ctx *c, unsigned idx, unsigned want, unsigned bits,
                        const char *what)
{
    if (idx >= c->in->nops)
        return false;
    const ptx_operand *o = &c->in->ops[idx];
    if (o->kind != PTX_OPD_VEC && o->kind != PTX_OPD_REG && o->kind != PTX_OPD_SINK &&
        o->kind != PTX_OPD_IMM && o->kind != PTX_OPD_FIMM32 && o->kind != PTX_OPD_FIMM64) {
        fail(c, "operand %u (%s) must be a register or a vector of registers", idx + 1, what);
        return false;
    }
    unsigned n = opd_count(o);
    if (want && n != want) {
        fail(c, "operand %u (%s) has %u element%s, expected %u", idx + 1, what, n,
             n == 1 ? "" : "s", want);
        return false;
    }
    for (unsigned i = 0; i < n && bits; i++) {
        const ptx_operand *e = o->kind == PTX_OPD_VEC ? &o->elems[i] : o;
        if (e->kind != PTX_OPD_REG || e->reg < 0)
            continue;
        const ptx_reg *r = &c->f->regs[e->reg];
        if (r->type == PTX_TYPE_PRED || ptx_type_bits((ptx_type)r->type) != bits) {
            fail(c, "operand %u (%s): register '%s' is .%s, expected a %u-bit register",
                 idx + 1, what, r->name, type_text((ptx_type)r->type), bits);
            return false;
        }
    }
    return true;
}

static bool check_is_addr(check_ctx *c, unsigned idx, const char *what)
{
    if (idx < c->in->nops && c->in->ops[idx].kind == PTX_OPD_ADDR)
        return true;
    fail(c, "operand %u (%s) must be an address [...]", idx + 1, what);
    return false;
}

/* The shape suffix mMnNkK of a matrix instruction. */
static bool shape_mnk(const ptx_instr *in, unsigned *m, unsigned *n, unsigned *k)
{
    for (unsigned i = 0; i < in->nsfx; i++) {
        if (ptx_suffix_group_of((ptx_suffix)in->sfx[i]) != PTX_SG_SHAPE)
            continue;
        char extra;
        if (sscanf(ptx_suffix_name((ptx_suffix)in->sfx[i]), "m%un%uk%u%c", m, n, k, &extra) == 3)
            return true;
    }
    return false;
}

static bool has_prefix_sfx(const ptx_instr *in, const char *prefix)
{
    size_t n = strlen(prefix);
    for (unsigned i = 0; i < in->nsfx; i++)
        if (strncmp(ptx_suffix_name((ptx_suffix)in->sfx[i]), prefix, n) == 0)
            return true;
    return false;
}

/* 32-bit registers holding `elems` packed elements of `bits` bits, or one 64-bit register per
 * element of a 64-bit type. */
static unsigned frag_regs(unsigned elems, unsigned bits)
{
    return bits == 64 ? elems : (elems * bits + 31) / 32;
}

/* mma.sync.aligned.shape.alayout.blayout.dtype.atype.btype.ctype d, a, b, c (mma.sp: e, f
 * follow). Each thread holds M*K/32 elements of A (half of them for .sp), K*N/32 of B and
 * M*N/32 of C and D, packed into 32-bit registers (PTX ISA "Matrix fragments for mma.m*n*k*");
 * the Volta m8n8k4 .f16 form distributes over quad-pairs instead. */
static void check_mma(check_ctx *c)
{
    const ptx_instr *in = c->in;
    unsigned m, n, k;
    if (in->ntypes != 4 || !shape_mnk(in, &m, &n, &k) || has_prefix_sfx(in, "kind::") ||
        has_prefix_sfx(in, "block_scale"))
        return;   /* block-scaled forms take scale operands on top */
    bool sparse = ptx_instr_has(in, PTX_SFX_SP) || ptx_instr_has(in, PTX_SFX_SPARSITY_SEL);
    unsigned nops = sparse ? 6 : 4;
    if (in->nops != nops) {
        fail(c, "expects %u operands (d, a, b, c%s), got %u", nops, sparse ? ", e, f" : "",
             in->nops);
        return;
    }
    unsigned db = ptx_type_bits((ptx_type)in->types[0]);
    unsigned ab = ptx_type_bits((ptx_type)in->types[1]);
    unsigned bb = ptx_type_bits((ptx_type)in->types[2]);
    unsigned cb = ptx_type_bits((ptx_type)in->types[3]);
    unsigned na, nb, nc, nd;
    if (m == 8 && n == 8 && k == 4 && ab == 16) {
        na = nb = 2;
        nc = cb == 32 ? 8 : 4;
        nd = db == 32 ? 8 : 4;
    } else {
        unsigned ea = m * k / 32 / (sparse ? 2 : 1), eb = k * n / 32, ecd = m * n / 32;
        na = frag_regs(ea, ab);
        nb = frag_regs(eb, bb);
        nc = frag_regs(ecd, cb);
        nd = frag_regs(ecd, db);
    }
    if (check_elems(c, 0, nd, db == 64 ? 64 : 32, "D") &&
        check_elems(c, 1, na, ab == 64 ? 64 : 32, "A") &&
        check_elems(c, 2, nb, bb == 64 ? 64 : 32, "B"))
        check_elems(c, 3, nc, cb == 64 ? 64 : 32, "C");
}

/* Registers of a wmma fragment (PTX ISA "Matrix Fragments for WMMA"); 0 when unknown. */
static unsigned wmma_frag(unsigned m, unsigned n, unsigned k, int which, ptx_type t)
{
    bool big = k == 16 && m * n == 256;   /* m16n16k16, m32n8k16, m8n32k16 */
    if (which == 'c')
        return big && (t == PTX_TYPE_F16) ? 4 : big ? 8 : k == 8 ? 8 : k == 4 || k == 32 ||
               k == 128 ? 2 : 0;
    unsigned rows = which == 'a' ? m : n;   /* 32 (m32n8k16 A, m8n32k16 B), 16 or 8 */
    switch (t) {
    case PTX_TYPE_F16: return big ? 8 : 0;
    case PTX_TYPE_BF16: return big ? rows / 4 : 0;
    case PTX_TYPE_S8: case PTX_TYPE_U8: return big ? rows / 8 : 0;
    case PTX_TYPE_TF32: return k == 8 ? 4 : 0;
    case PTX_TYPE_F64: case PTX_TYPE_S4: case PTX_TYPE_U4: case PTX_TYPE_B1:
        return k == 4 || k == 32 || k == 128 ? 1 : 0;
    default: return 0;
    }
}

static void check_wmma(check_ctx *c)
{
    const ptx_instr *in = c->in;
    unsigned m, n, k;
    if (!shape_mnk(in, &m, &n, &k) || in->ntypes < 1)
        return;
    if (in->op == PTX_OP_WMMA_MMA) {
        if (in->nops != 4) {
            fail(c, "expects 4 operands (d, a, b, c), got %u", in->nops);
            return;
        }
        ptx_type dt = (ptx_type)in->types[0], ct = (ptx_type)in->types[in->ntypes - 1];
        ptx_type at = in->ntypes == 4 ? (ptx_type)in->types[1] : PTX_TYPE_F16;
        ptx_type bt = in->ntypes == 4 ? (ptx_type)in->types[2] : PTX_TYPE_F16;
        const struct { int which; ptx_type t; const char *what; } f[4] = {
            {'c', dt, "D"}, {'a', at, "A"}, {'b', bt, "B"}, {'c', ct, "C"}};
        for (unsigned i = 0; i < 4; i++) {
            unsigned want = wmma_frag(m, n, k, f[i].which, f[i].t);
            unsigned bits = ptx_type_bits(f[i].t) == 64 ? 64 : 32;
            if (want && !check_elems(c, i, want, bits, f[i].what))
                return;
        }
        return;
    }
    /* wmma.load.{a,b,c} {frag}, [p] {, stride} / wmma.store.d [p], {frag} {, stride} */
    bool load = in->op == PTX_OP_WMMA_LOAD;
    if (in->nops < 2 || in->nops > 3) {
        fail(c, "expects 2 or 3 operands, got %u", in->nops);
        return;
    }
    int which = in->mode == PTX_SFX_MATRIX_A ? 'a' : in->mode == PTX_SFX_MATRIX_B ? 'b' : 'c';
    ptx_type t = (ptx_type)in->types[0];
    unsigned want = wmma_frag(m, n, k, which, t);
    if (!check_is_addr(c, load ? 1 : 0, "the matrix address"))
        return;
    if (want)
        check_elems(c, load ? 0 : 1, want, ptx_type_bits(t) == 64 ? 64 : 32, "the fragment");
    if (in->nops == 3)
        check_reg(c, &in->ops[2], 2, E_B32);
}

/* The xN count of ldmatrix / stmatrix. */
static unsigned matrix_num(const ptx_instr *in)
{
    return ptx_instr_has(in, PTX_SFX_X1) ? 1 : ptx_instr_has(in, PTX_SFX_X2) ? 2
           : ptx_instr_has(in, PTX_SFX_X4) ? 4 : 0;
}

static void check_matrix_move(check_ctx *c)
{
    const ptx_instr *in = c->in;
    if (in->nops != 2) {
        fail(c, "expects 2 operands, got %u", in->nops);
        return;
    }
    if (in->op == PTX_OP_MOVMATRIX) {
        if (check_elems(c, 0, 1, 32, "d"))
            check_elems(c, 1, 1, 32, "a");
        return;
    }
    bool ld = in->op == PTX_OP_LDMATRIX;
    unsigned num = matrix_num(in);
    /* ldmatrix .m16n16 moves two registers per matrix; every other shape one */
    unsigned want = num * (ld && ptx_instr_has(in, PTX_SFX_M16N16) ? 2 : 1);
    if (check_is_addr(c, ld ? 1 : 0, "the shared-memory address"))
        check_elems(c, ld ? 0 : 1, want, 32, "the matrix registers");
}

/* Coordinates a texture or surface geometry takes (PTX ISA tex/suld: 3d, the arrays and cube
 * maps take four-element vectors, the unused ones ignored). */
static unsigned geometry_coords(const ptx_instr *in)
{
    if (ptx_instr_has(in, PTX_SFX_G1D)) return 1;
    if (ptx_instr_has(in, PTX_SFX_G2D) || ptx_instr_has(in, PTX_SFX_GA1D)) return 2;
    if (ptx_instr_has(in, PTX_SFX_G3D) || ptx_instr_has(in, PTX_SFX_GA2D) ||
        ptx_instr_has(in, PTX_SFX_GCUBE) || ptx_instr_has(in, PTX_SFX_GACUBE) ||
        ptx_instr_has(in, PTX_SFX_G2DMS) || ptx_instr_has(in, PTX_SFX_GA2DMS))
        return 4;
    return 0;
}

/* The [tex, (sampler,) coordinates] operand: returns its index, or -1. */
static int bracket_list(const ptx_instr *in)
{
    for (unsigned i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_LIST && in->ops[i].comp == 1)
            return (int)i;
    return -1;
}

static void check_texture(check_ctx *c)
{
    const ptx_instr *in = c->in;
    if (in->op == PTX_OP_TXQ || in->op == PTX_OP_SUQ) {
        if (in->nops < 2 || in->nops > 3) {
            fail(c, "expects 2 or 3 operands, got %u", in->nops);
            return;
        }
        if (in->ops[1].kind != PTX_OPD_ADDR && bracket_list(in) != 1)
            fail(c, "operand 2 must name the texture, sampler or surface: [name]");
        else
            check_elems(c, 0, 1, 32, "d");
        return;
    }
    int li = bracket_list(in);
    if (li < 0) {
        fail(c, "needs a [%s, coordinates] operand", in->op == PTX_OP_TEX ||
             in->op == PTX_OP_TLD4 ? "texture" : "surface");
        return;
    }
    const ptx_operand *l = &in->ops[li];
    unsigned want = geometry_coords(in);
    if (in->op == PTX_OP_TLD4 && want == 1)
        want = 0;
    if (l->nelem < 2) {
        fail(c, "operand %d: [...] needs the %s and the coordinates", li + 1,
             in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 ? "texture" : "surface");
        return;
    }
    const ptx_operand *co = &l->elems[l->nelem - 1];
    unsigned n = opd_count(co);
    if (want && n != want) {
        fail(c, "operand %d: the coordinates have %u element%s, the geometry takes %u", li + 1,
             n, n == 1 ? "" : "s", want);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const ptx_operand *e = co->kind == PTX_OPD_VEC ? &co->elems[i] : co;
        if (e->kind == PTX_OPD_REG && e->reg >= 0 &&
            ptx_type_bits((ptx_type)c->f->regs[e->reg].type) != 32) {
            fail(c, "operand %d: coordinate register '%s' is .%s, expected a 32-bit register",
                 li + 1, c->f->regs[e->reg].name,
                 type_text((ptx_type)c->f->regs[e->reg].type));
            return;
        }
    }
    /* the data: d (tex, tld4, suld; d|p keeps d first) or the value stored (sust, sured) */
    unsigned vec = in->vec ? in->vec : 1;
    if (in->op == PTX_OP_TLD4)
        vec = 4;
    if (in->op == PTX_OP_SURED)
        return;
    unsigned di = in->op == PTX_OP_SUST ? (unsigned)li + 1 : 0;
    if (di == (unsigned)li || di >= in->nops) {
        fail(c, "missing the %s operand", in->op == PTX_OP_SUST ? "value" : "destination");
        return;
    }
    check_elems(c, di, vec, 0, in->op == PTX_OP_SUST ? "the values" : "the destination");
}

static void check_async(check_ctx *c)
{
    const ptx_instr *in = c->in;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_CP_ASYNC: {
        /* cp.async.{ca,cg}.shared.global [dst], [src], cp-size {, src-size | ignore-src}
         * {, cache-policy} */
        if (in->nops < 3 || in->nops > 5) {
            fail(c, "expects 3 to 5 operands ([dst], [src], cp-size, ...), got %u", in->nops);
            return;
        }
        if (!check_is_addr(c, 0, "the shared-memory destination") ||
            !check_is_addr(c, 1, "the global source"))
            return;
        const ptx_operand *sz = &in->ops[2];
        if (sz->kind != PTX_OPD_IMM) {
            fail(c, "operand 3 (cp-size) must be the constant 4, 8 or 16");
            return;
        }
        if (sz->imm != 4 && sz->imm != 8 && sz->imm != 16)
            fail(c, "cp-size is %lld bytes, it must be 4, 8 or 16", (long long)sz->imm);
        else if (ptx_instr_has(in, PTX_SFX_CG) && sz->imm != 16)
            fail(c, "cp.async.cg copies 16 bytes: cp-size must be 16, not %lld",
                 (long long)sz->imm);
        return;
    }
    case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_ALL:
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP:
        check_count(c, 0, 0);
        return;
    case PTX_OP_CP_ASYNC_WAIT_GROUP: case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP:
        check_count(c, 1, 1);
        if (in->nops == 1 && in->ops[0].kind != PTX_OPD_IMM)
            fail(c, "the group count must be an integer constant");
        return;
    case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
        check_count(c, 1, 1);
        if (in->nops == 1)
            check_is_addr(c, 0, "the mbarrier");
        return;
    case PTX_OP_CP_ASYNC_BULK: case PTX_OP_CP_REDUCE_ASYNC_BULK: {
        /* [dst], [src], size {, [mbar]} {, ctaMask} {, cache-policy} */
        if (in->nops < 3) {
            fail(c, "expects at least 3 operands ([dst], [src], size), got %u", in->nops);
            return;
        }
        if (!check_is_addr(c, 0, "the destination") || !check_is_addr(c, 1, "the source"))
            return;
        const ptx_operand *sz = &in->ops[2];
        if (sz->kind == PTX_OPD_IMM && (sz->imm <= 0 || sz->imm % 16))
            fail(c, "size is %lld bytes, it must be a positive multiple of 16",
                 (long long)sz->imm);
        else
            check_reg(c, sz, 2, E_B32);
        return;
    }
    case PTX_OP_CP_ASYNC_BULK_PREFETCH:
        if (in->nops < 2) {
            fail(c, "expects [src], size, got %u operands", in->nops);
            return;
        }
        check_is_addr(c, 0, "the source");
        return;
    case PTX_OP_CP_ASYNC_BULK_TENSOR: case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR: {
        /* [tensorMap, {coordinates}]: one coordinate per dimension; the gather4/scatter4
         * tiles name four rows and one column */
        int li = bracket_list(in);
        if (li < 0) {
            fail(c, "needs a [tensorMap, {coordinates}] operand");
            return;
        }
        unsigned dims = ptx_instr_has(in, PTX_SFX_G1D) ? 1 : ptx_instr_has(in, PTX_SFX_G2D) ? 2
                        : ptx_instr_has(in, PTX_SFX_G3D) ? 3 : ptx_instr_has(in, PTX_SFX_G4D) ? 4
                        : ptx_instr_has(in, PTX_SFX_G5D) ? 5 : 0;
        if (ptx_instr_has(in, PTX_SFX_TILE_GATHER4) || ptx_instr_has(in, PTX_SFX_TILE_SCATTER4))
            dims = 5;
        const ptx_operand *l = &in->ops[li];
        if (l->nelem != 2) {
            fail(c, "operand %d: [...] needs the tensor map and the coordinates", li + 1);
            return;
        }
        unsigned n = opd_count(&l->elems[1]);
        if (dims && n != dims)
            fail(c, "operand %d: %u coordinate%s for a %ud tensor (the instruction takes %u)",
                 li + 1, n, n == 1 ? "" : "s", dims, dims);
        return;
    }
    case PTX_OP_MBARRIER:
        switch (in->mode) {
        case PTX_SFX_INIT:
            check_count(c, 2, 2);
            if (in->nops == 2 && check_is_addr(c, 0, "the mbarrier"))
                check_reg(c, &in->ops[1], 1, E_B32);
            return;
        case PTX_SFX_INVAL:
            check_count(c, 1, 1);
            if (in->nops == 1)
                check_is_addr(c, 0, "the mbarrier");
            return;
        case PTX_SFX_ARRIVE: case PTX_SFX_ARRIVE_DROP:
            /* state, [addr] {, count | txCount}; the state may be the sink _ */
            check_count(c, 2, 3);
            if (in->nops >= 2 && check_is_addr(c, 1, "the mbarrier") &&
                in->ops[0].kind != PTX_OPD_SINK)
                check_elems(c, 0, 1, 64, "the state");
            return;
        case PTX_SFX_TEST_WAIT: case PTX_SFX_TRY_WAIT:
            /* waitComplete, [addr], state | phaseParity {, suspendTimeHint} */
            check_count(c, 3, 4);
            if (in->nops >= 3 && check_is_addr(c, 1, "the mbarrier")) {
                check_reg(c, &in->ops[0], 0, E_PRED);
                if (ptx_instr_has(in, PTX_SFX_PARITY))
                    check_reg(c, &in->ops[2], 2, E_B32);
                else
                    check_elems(c, 2, 1, 64, "the state");
            }
            return;
        case PTX_SFX_PENDING_COUNT:
            check_count(c, 2, 2);
            if (in->nops == 2 && check_elems(c, 0, 1, 32, "the count"))
                check_elems(c, 1, 1, 64, "the state");
            return;
        default:
            return;
        }
    default:
        return;
    }
}

/* One register operand of a call for a .reg parameter (or one element of a vector one): a
 * register of an agreeing type (a component of a vector register counts as one), or, for an
 * argument, a constant. */
static void check_reg_arg(check_ctx *c, const ptx_operand *o, const ptx_symbol *ps, bool ret,
                          const char *what, const char *pwhat, unsigned idx, const char *name)
{
    if (o->kind == PTX_OPD_REG && o->reg >= 0) {
        const ptx_reg *r = &c->f->regs[o->reg];
        if (!type_agrees((ptx_type)ps->type, (ptx_type)r->type, false))
            fail(c, "%s %u: register '%s' is .%s, but %s '%s' of %s is .%s", what, idx + 1,
                 r->name, type_text((ptx_type)r->type), pwhat, ps->name, name,
                 type_text((ptx_type)ps->type));
    } else if (ret || (o->kind != PTX_OPD_IMM && o->kind != PTX_OPD_FIMM32 &&
                       o->kind != PTX_OPD_FIMM64)) {
        fail(c, "%s %u: %s '%s' of %s is a .reg parameter: pass a register%s", what, idx + 1,
             pwhat, ps->name, name, ret ? "" : " or a constant");
    }
}

/* call [(rets),] callee [, (args)] [, prototype | targets]: against the callee's (or the
 * prototype's) parameter list. Counts must match; .reg parameters and return values must agree
 * with the registers passed (PTX ISA: the arguments and return variables "must have type and
 * size that match the callee's corresponding formal parameters"). */
static void check_call(check_ctx *c)
{
    const ptx_instr *in = c->in;
    const ptx_module *m = c->m;
    int i = 0, ri = -1, ai = -1;
    if (in->nops > 0 && in->ops[0].kind == PTX_OPD_LIST)
        ri = i++;
    int ci = i < in->nops ? i++ : -1;
    if (i < in->nops && in->ops[i].kind == PTX_OPD_LIST && in->ops[i].comp == 0)
        ai = i++;
    const ptx_function *fn = NULL;
    if (in->target >= 0 && (uint32_t)in->target < m->nsyms &&
        m->syms[in->target].kind == PTX_SYM_FUNC && m->syms[in->target].func >= 0)
        fn = &m->funcs[m->syms[in->target].func];
    else if (ci >= 0 && i < in->nops && in->ops[i].kind == PTX_OPD_SYM && in->ops[i].sym >= 0 &&
             m->syms[in->ops[i].sym].kind == PTX_SYM_FUNC && m->syms[in->ops[i].sym].func >= 0)
        fn = &m->funcs[m->syms[in->ops[i].sym].func];   /* the .callprototype */
    if (!fn)
        return;
    const char *name = fn->name ? fn->name : "the callee";
    unsigned nargs = ai >= 0 ? in->ops[ai].nelem : 0;
    if (nargs != fn->nparams) {
        fail(c, "%s takes %u argument%s, the call passes %u", name, fn->nparams,
             fn->nparams == 1 ? "" : "s", nargs);
        return;
    }
    if (ri >= 0 && in->ops[ri].nelem != fn->nrets) {
        fail(c, "%s returns %u value%s, the call takes %u", name, fn->nrets,
             fn->nrets == 1 ? "" : "s", in->ops[ri].nelem);
        return;
    }
    for (unsigned k = 0; k < nargs + (ri >= 0 ? fn->nrets : 0); k++) {
        bool ret = k >= nargs;
        unsigned idx = ret ? k - nargs : k;
        const ptx_symbol *ps = &m->syms[ret ? fn->rets[idx] : fn->params[idx]];
        const ptx_operand *o = &in->ops[ret ? ri : ai].elems[idx];
        const char *what = ret ? "return value" : "argument";
        const char *pwhat = ret ? "return parameter" : "parameter";
        if (ps->space != PTX_SPACE_REG) {
            /* a .param parameter takes a .param variable (or one scalar value), not a list */
            if (o->kind == PTX_OPD_VEC && o->nelem > 1)
                fail(c, "%s %u: %s '%s' of %s is in .param space: pass a .param variable, not "
                     "a vector", what, idx + 1, pwhat, ps->name, name);
            continue;
        }
        if (ps->vec > 1) {
            /* a vector parameter takes a vector register or a brace list of its elements */
            if (o->kind != PTX_OPD_VEC || o->nelem != ps->vec) {
                fail(c, "%s %u: %s '%s' of %s is a .v%u .reg parameter: pass a .v%u register or "
                     "a list of %u", what, idx + 1, pwhat, ps->name, name, ps->vec, ps->vec,
                     ps->vec);
                continue;
            }
            for (unsigned e = 0; e < o->nelem; e++)
                check_reg_arg(c, &o->elems[e], ps, ret, what, pwhat, idx, name);
            continue;
        }
        check_reg_arg(c, o, ps, ret, what, pwhat, idx, name);
    }
}

static bool is_half_pair(ptx_type t) { return t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2; }
static bool is_half(ptx_type t) { return t == PTX_TYPE_F16 || t == PTX_TYPE_BF16; }

/* set's destination and source types, as the ISA lists them: .u32/.s32/.f32 from any scalar;
 * .f16/.bf16 (1.0 or 0) from any scalar; .u16/.s16 from .f16/.bf16; and from .f16x2/.bf16x2 the
 * same pair type or .u32/.s32. The .bf16 forms have no .ftz. */
static void check_set_types(check_ctx *c, const ptx_instr *in)
{
    if (in->ntypes != 2) {
        fail(c, "expects a destination and a source type (set.cmp.dtype.stype)");
        return;
    }
    ptx_type d = (ptx_type)in->types[0], s = (ptx_type)in->types[1];
    bool ok;
    if (is_half_pair(s))
        ok = d == s || d == PTX_TYPE_U32 || d == PTX_TYPE_S32;
    else if (is_half_pair(d))
        ok = false;
    else if (d == PTX_TYPE_U16 || d == PTX_TYPE_S16)
        ok = is_half(s);
    else
        ok = (d == PTX_TYPE_U32 || d == PTX_TYPE_S32 || is_half(d) ||
              (d == PTX_TYPE_F32 && !is_half(s))) && s != PTX_TYPE_PRED;
    if (!ok) {
        fail(c, "has no form with destination type %s and source type %s", ptx_type_name(d),
             ptx_type_name(s));
        return;
    }
    bool bf = d == PTX_TYPE_BF16 || d == PTX_TYPE_BF16X2 || s == PTX_TYPE_BF16 ||
              s == PTX_TYPE_BF16X2;
    if (bf && (in->flags & PTX_F(FTZ))) fail(c, "has no .ftz form with .bf16 types");
}

/* min/max.NaN: the ISA gives .NaN to the f32, f16 and bf16 forms only (min.f64 has none). */
static void check_nan_mode(check_ctx *c)
{
    const ptx_instr *in = c->in;
    if (!(in->flags & PTX_F(NANMODE)) || in->ntypes < 1)
        return;
    ptx_type t = (ptx_type)in->types[0];
    if (t == PTX_TYPE_F64 || (ptx_type_kind(t) != 'F' && ptx_type_kind(t) != 'K'))
        fail(c, ".NaN applies to .f32, .f16 and .bf16 operands, not .%s", type_text(t));
}

/* The rounding modifiers cvt cannot do without (PTX ISA, cvt: "integer rounding is required
 * for float-to-integer conversions"; .tf32 is written cvt.rna, cvt.rn or cvt.rz). ptxas refuses
 * both forms without one, so there is no default rounding to guess. */
static void check_cvt_rounding(check_ctx *c)
{
    const ptx_instr *in = c->in;
    if (in->ntypes < 2)
        return;
    ptx_type dt = (ptx_type)in->types[0], st = (ptx_type)in->types[1];
    char dk = ptx_type_kind(dt), sk = ptx_type_kind(st);
    int r = in->rnd;
    if (is_int_kind(dk) && sk == 'F' && r != PTX_RND_RNI && r != PTX_RND_RZI &&
        r != PTX_RND_RMI && r != PTX_RND_RPI)
        fail(c, "a float-to-integer conversion needs an integer rounding modifier "
                "(.rni, .rzi, .rmi or .rpi)");
    else if (dt == PTX_TYPE_TF32 && r != PTX_RND_RNA && r != PTX_RND_RN && r != PTX_RND_RZ)
        fail(c, "a conversion to .tf32 needs a rounding modifier (.rna, .rn or .rz)");
}

static void check_instr(check_ctx *c)
{
    const ptx_instr *in = c->in;
    unsigned n = in->nops;
    const ptx_operand *o = in->ops;
    for (unsigned i = 0; i < n; i++) {
        const ptx_operand *x = &o[i];
        if (!x->neg || x->kind != PTX_OPD_REG || x->reg < 0)
            continue;
        bool pred = c->f->regs[x->reg].type == PTX_TYPE_PRED;
        if (!pred && in->op != PTX_OP_VMAD)
            fail(c, "operand %u: '-' negates a register only in vmad", i + 1);
        else if (pred && in->op == PTX_OP_VMAD)
            fail(c, "operand %u: vmad operands are not predicates", i + 1);
    }
    switch ((ptx_opcode)in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
    case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_COPYSIGN: case PTX_OP_ADDC: case PTX_OP_SUBC:
    case PTX_OP_MUL24:
        check_count(c, 3, 3);
        check_all(c, 0, E_T0);
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        check_count(c, 3, 4);
        check_all(c, 0, E_T0);
        check_nan_mode(c);
        break;
    case PTX_OP_NOT: case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_CNOT: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2:
    case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_BREV:
        check_count(c, 2, 2);
        check_all(c, 0, E_T0);
        break;
    case PTX_OP_MUL:
        check_count(c, 3, 3);
        if (in->mode == PTX_SFX_WIDE) {
            check_reg(c, &o[0], 0, E_W0);
            check_all(c, 1, E_T0);
        } else {
            check_all(c, 0, E_T0);
        }
        break;
    case PTX_OP_MAD: case PTX_OP_MADC:
        check_count(c, 4, 4);
        if (in->mode == PTX_SFX_WIDE) {
            if (n == 4) {
                check_reg(c, &o[0], 0, E_W0);
                check_reg(c, &o[1], 1, E_T0);
                check_reg(c, &o[2], 2, E_T0);
                check_reg(c, &o[3], 3, E_W0);
            }
        } else {
            check_all(c, 0, E_T0);
        }
        break;
    case PTX_OP_MAD24: case PTX_OP_SAD:
        check_count(c, 4, 4);
        check_all(c, 0, E_T0);
        break;
    case PTX_OP_FMA:
        check_count(c, 4, 4);
        check_all(c, 0, E_T0);
        break;
    case PTX_OP_SHL: case PTX_OP_SHR:
        check_count(c, 3, 3);
        if (n == 3) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
            check_reg(c, &o[2], 2, E_B32);
        }
        break;
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND:
        check_count(c, 2, 2);
        if (n == 2) {
            check_reg(c, &o[0], 0, E_B32);
            check_reg(c, &o[1], 1, E_T0);
        }
        break;
    case PTX_OP_BFE:
        check_count(c, 4, 4);
        if (n == 4) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
            check_reg(c, &o[2], 2, E_B32);
            check_reg(c, &o[3], 3, E_B32);
        }
        break;
    case PTX_OP_BFI:
        check_count(c, 5, 5);
        if (n == 5) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
            check_reg(c, &o[2], 2, E_T0);
            check_reg(c, &o[3], 3, E_B32);
            check_reg(c, &o[4], 4, E_B32);
        }
        break;
    case PTX_OP_SETP: {
        unsigned dests = n > 1 && o[1].pipe ? 2 : 1;
        unsigned want = dests + 2 + (in->boolop ? 1 : 0);
        if (n != want) {
            fail(c, "expects %u operands, got %u", want, n);
            break;
        }
        for (unsigned i = 0; i < dests; i++)
            check_reg(c, &o[i], i, E_PRED);
        check_reg(c, &o[dests], dests, E_T0);
        check_reg(c, &o[dests + 1], dests + 1, E_T0);
        if (in->boolop)
            check_reg(c, &o[dests + 2], dests + 2, E_PRED);
        break;
    }
    case PTX_OP_SET:
        check_count(c, 3, 4);
        check_set_types(c, in);
        if (n >= 3) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T1);
            check_reg(c, &o[2], 2, E_T1);
            if (n == 4)
                check_reg(c, &o[3], 3, E_PRED);
        }
        break;
    case PTX_OP_SELP:
        check_count(c, 4, 4);
        if (n == 4) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
            check_reg(c, &o[2], 2, E_T0);
            check_reg(c, &o[3], 3, E_PRED);
        }
        break;
    case PTX_OP_SLCT:
        check_count(c, 4, 4);
        if (n == 4) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
            check_reg(c, &o[2], 2, E_T0);
            check_reg(c, &o[3], 3, E_T1);
        }
        break;
    case PTX_OP_TESTP:
        check_count(c, 2, 2);
        if (n == 2) {
            check_reg(c, &o[0], 0, E_PRED);
            check_reg(c, &o[1], 1, E_T0);
        }
        break;
    case PTX_OP_CVT:
        if (in->ntypes < 2) {
            fail(c, "needs a destination and a source type");
            break;
        }
        check_count(c, 2, 4);
        if (n == 2 && o[1].kind != PTX_OPD_VEC) {
            check_reg(c, &o[0], 0, E_T0R);
            check_reg(c, &o[1], 1, E_T1R);
        }
        check_cvt_rounding(c);
        break;
    case PTX_OP_CVTA:
        check_count(c, 2, 2);
        if (n == 2) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
        }
        break;
    case PTX_OP_MOV:
        check_count(c, 2, 2);
        if (n == 2 && in->vec > 1) {
            /* mov.v2/.v4: element by element between vectors (registers or brace lists) */
            for (unsigned i = 0; i < 2; i++) {
                if (o[i].kind != PTX_OPD_VEC || o[i].nelem != in->vec) {
                    fail(c, "operand %u: mov.v%u needs a vector of %u elements", i + 1, in->vec,
                         in->vec);
                    break;
                }
                for (unsigned k = 0; k < in->vec; k++)
                    check_reg(c, &o[i].elems[k], i, E_T0);
            }
        } else if (n == 2 && o[0].kind == PTX_OPD_REG &&
            (o[1].kind == PTX_OPD_REG || o[1].kind == PTX_OPD_IMM || is_fimm(&o[1]))) {
            check_reg(c, &o[0], 0, E_T0);
            check_reg(c, &o[1], 1, E_T0);
        } else if (n == 2 && (o[0].kind == PTX_OPD_VEC || o[1].kind == PTX_OPD_VEC)) {
            /* pack/unpack: the vector's elements together make up the scalar */
            const ptx_operand *v = o[0].kind == PTX_OPD_VEC ? &o[0] : &o[1];
            unsigned bits = 0;
            bool known = in->ntypes > 0;
            for (unsigned k = 0; k < v->nelem; k++) {
                if (v->elems[k].kind == PTX_OPD_REG && v->elems[k].reg >= 0)
                    bits += ptx_type_bits((ptx_type)c->f->regs[v->elems[k].reg].type);
                else if (v->elems[k].kind == PTX_OPD_SINK && v->nelem)
                    known = false;  /* `_` elements take the remaining width */
                else
                    known = false;
            }
            if (known && bits != ptx_type_bits((ptx_type)in->types[0]))
                fail(c, "vector elements total %u bits but .%s has %u", bits,
                     ptx_type_name((ptx_type)in->types[0]),
                     ptx_type_bits((ptx_type)in->types[0]));
        }
        break;
    case PTX_OP_LD: case PTX_OP_LDU:
        check_count(c, 2, 3);
        if (n >= 2) {
            check_data(c, &o[0], 0, E_T0R);
            check_addr(c, 1);
        }
        break;
    case PTX_OP_ST:
        check_count(c, 2, 3);
        if (n >= 2) {
            check_addr(c, 0);
            check_data(c, &o[1], 1, E_T0R);
        }
        break;
    case PTX_OP_ATOM:
        check_count(c, 3, 5);
        if (n >= 3 && in->vec <= 1) {
            check_reg(c, &o[0], 0, E_T0);
            check_addr(c, 1);
            check_reg(c, &o[2], 2, E_T0);
            if (in->aop == PTX_SFX_CAS && n >= 4)
                check_reg(c, &o[3], 3, E_T0);
        }
        break;
    case PTX_OP_RED:
        check_count(c, 2, 3);
        if (n >= 2 && in->vec <= 1) {
            check_addr(c, 0);
            check_reg(c, &o[1], 1, E_T0);
        }
        break;
    case PTX_OP_BRA:
        check_count(c, 1, 1);
        if (n == 1 && o[0].kind != PTX_OPD_LABEL)
            fail(c, "the target must be a label");
        break;
    case PTX_OP_CALL:
        check_call(c);
        break;
    case PTX_OP_MMA:
        check_mma(c);
        break;
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA:
        check_wmma(c);
        break;
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        check_matrix_move(c);
        break;
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_TXQ: case PTX_OP_SULD: case PTX_OP_SUST:
    case PTX_OP_SURED: case PTX_OP_SUQ:
        check_texture(c);
        break;
    case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL: case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE: case PTX_OP_CP_ASYNC_BULK:
    case PTX_OP_CP_REDUCE_ASYNC_BULK: case PTX_OP_CP_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR: case PTX_OP_CP_ASYNC_BULK_PREFETCH:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR: case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP:
    case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP: case PTX_OP_MBARRIER:
        check_async(c);
        break;
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_BRKPT:
        check_count(c, 0, 0);
        break;
    default:
        break;
    }
}

void ptx_check_function(ptx_builder *b, const ptx_module *m, const ptx_function *f)
{
    check_ctx c = {.b = b, .m = m, .f = f};
    for (uint32_t i = 0; i < f->ninstrs && !ptx_b_too_many_errors(b); i++) {
        c.in = &f->instrs[i];
        check_instr(&c);
    }
}
