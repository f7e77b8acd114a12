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

static void check_reg(check_ctx *c, const ptx_operand *o, unsigned idx, enum expect e)
{
    if (e == E_ANY || o->kind != PTX_OPD_REG || o->reg < 0)
        return;
    const ptx_reg *r = &c->f->regs[o->reg];
    ptx_type rt = (ptx_type)r->type;
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
                 r->name, type_text(rt));
        return;
    case E_B32:
        if (ptx_type_bits(rt) != 32 || ptx_type_kind(rt) == 'F' || ptx_type_kind(rt) == 'K')
            fail(c, "operand %u: register '%s' is .%s, expected a 32-bit integer register",
                 idx + 1, r->name, type_text(rt));
        return;
    case E_W0: {
        if (c->in->ntypes < 1)
            return;
        ptx_type t0 = (ptx_type)c->in->types[0];
        unsigned wb = 2 * ptx_type_bits(t0);
        if (ptx_type_bits(rt) != wb || ptx_type_kind(rt) == 'F' || rt == PTX_TYPE_PRED)
            fail(c, "operand %u: register '%s' is .%s, expected a %u-bit integer register "
                 "(.wide of .%s)", idx + 1, r->name, type_text(rt), wb, type_text(t0));
        return;
    }
    default:
        return;
    }
    if (want == PTX_TYPE_NONE)
        return;
    if (r->vec > 1)
        return;   /* vector registers are used by component; not checked here */
    if (!type_agrees(want, rt, relaxed)) {
        if (want == PTX_TYPE_PRED || rt == PTX_TYPE_PRED)
            fail(c, "operand %u: register '%s' is .%s, expected .%s", idx + 1, r->name,
                 type_text(rt), type_text(want));
        else if (relaxed)
            fail(c, "operand %u: register '%s' is .%s, which cannot hold .%s data "
                 "(too narrow or the wrong kind)", idx + 1, r->name, type_text(rt),
                 type_text(want));
        else
            fail(c, "operand %u: register '%s' is .%s, which does not agree with .%s (type "
                 "or size mismatch)", idx + 1, r->name, type_text(rt), type_text(want));
    }
}

/* A data operand of ld/st/atom: a register, or a vector of them for .v2/.v4/.v8. */
static void check_data(check_ctx *c, const ptx_operand *o, unsigned idx, enum expect e)
{
    unsigned vec = c->in->vec ? c->in->vec : 1;
    if (o->kind == PTX_OPD_VEC) {
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
        if (o->kind == PTX_OPD_REG && o->reg >= 0 && c->f->regs[o->reg].vec == vec)
            return;   /* a .v4 register */
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

static void check_instr(check_ctx *c)
{
    const ptx_instr *in = c->in;
    unsigned n = in->nops;
    const ptx_operand *o = in->ops;
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
        if (n == 2 && o[0].kind == PTX_OPD_REG && o[1].kind == PTX_OPD_REG) {
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
