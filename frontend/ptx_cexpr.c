/* ptx_cexpr.c: PTX constant expressions (PTX ISA "Constant Expressions", "Integer Constant
 * Expression Evaluation" and "Summary of Constant Expression Evaluation Rules"), as they appear
 * in initialisers and array sizes.
 *
 * Every value is .s64, .u64 or .f64. Literals are .s64 unless they need 64 unsigned bits or carry
 * a U suffix; decimal floats and 0d literals are .f64. Unary + and - keep the type; ! gives .s64
 * 0 or 1; ~ works on .u64. The usual arithmetic conversions make both operands .u64 when either
 * is. + - * / follow them (or compute in .f64); % works on .u64 operands; shifts keep the type
 * of the first operand and take the second as .u64 (a signed right shift is arithmetic); & | ^
 * work on .u64; && || == != and the ordered comparisons give .s64 0 or 1; (.s64) and (.u64)
 * cast integers; ?: needs an integer condition and two integers or two floats.
 *
 * The ISA defines integer evaluation "fully in all cases"; where it is silent, ptxsim picks the
 * definition the rest of PTX uses: integer arithmetic wraps around in 64 bits (so INT64_MIN / -1
 * is INT64_MIN), a shift by 64 or more gives 0 (or all sign bits for an arithmetic right shift),
 * as shl/shr clamp their shift amount, and integer division or remainder by zero is an error
 * with a message, as in C's constant expressions (a float division by zero is IEEE: inf or
 * NaN). An integer operand meeting an .f64 one is converted to .f64, as in C.
 *
 * A 0f literal (single-precision bits) is not an .f64 value: the ISA keeps it out of
 * expressions, so it is accepted only on its own.
 */
#include "frontend/ptx_parser.h"

#include <math.h>
#include <string.h>

static ptx_cval err_value(void)
{
    return (ptx_cval){.kind = PTX_CV_ERROR};
}

ptx_cval ptx_cval_int(ptx_numlit n)
{
    /* signed unless the value needs the 64th bit or the literal says U */
    ptx_cval v = {.kind = (n.is_unsigned || n.v > (uint64_t)INT64_MAX) ? PTX_CV_U64 : PTX_CV_S64,
                  .bits = n.v};
    return v;
}

ptx_cval ptx_cval_f64(uint64_t bits, bool literal_bits)
{
    return (ptx_cval){.kind = PTX_CV_F64, .bits = bits, .raw = literal_bits};
}

ptx_cval ptx_cval_f32_bits(uint32_t bits)
{
    return (ptx_cval){.kind = PTX_CV_F32_BITS, .bits = bits, .raw = true};
}

static double as_double(ptx_cval v)
{
    if (v.kind == PTX_CV_F64) {
        double d;
        memcpy(&d, &v.bits, 8);
        return d;
    }
    return v.kind == PTX_CV_U64 ? (double)v.bits : (double)(int64_t)v.bits;
}

static ptx_cval from_double(double d)
{
    ptx_cval v = {.kind = PTX_CV_F64};
    memcpy(&v.bits, &d, 8);
    return v;
}

static ptx_cval make_int(bool is_unsigned, uint64_t bits)
{
    return (ptx_cval){.kind = is_unsigned ? PTX_CV_U64 : PTX_CV_S64, .bits = bits};
}

static bool is_int(ptx_cval v)
{
    return v.kind == PTX_CV_S64 || v.kind == PTX_CV_U64;
}

const char *ptx_cval_type_name(ptx_cval v)
{
    switch (v.kind) {
    case PTX_CV_S64: return ".s64";
    case PTX_CV_U64: return ".u64";
    case PTX_CV_F64: return ".f64";
    case PTX_CV_F32_BITS: return "0f literal";
    default: return "error";
    }
}

/* An operand that cannot take part in an operation: a 0f literal anywhere, or an earlier error
 * (reported already). */
static bool unusable(ptx_builder *b, ptx_cval v, const char *op, uint32_t line, uint32_t col)
{
    if (v.kind == PTX_CV_ERROR)
        return true;
    if (v.kind == PTX_CV_F32_BITS) {
        ptx_b_error(b, line, col, "a 0f (single-precision) literal cannot be an operand of '%s' "
                    "in a constant expression; write it as a 0d literal or a decimal float", op);
        return true;
    }
    return false;
}

static bool need_int(ptx_builder *b, ptx_cval v, const char *op, uint32_t line, uint32_t col)
{
    if (is_int(v))
        return true;
    ptx_b_error(b, line, col, "operator '%s' needs an integer operand, not %s", op,
                ptx_cval_type_name(v));
    return false;
}

ptx_cval ptx_cexpr_unary(ptx_builder *b, int op, ptx_cval a, uint32_t line, uint32_t col)
{
    char name[2] = {(char)op, 0};
    if (unusable(b, a, name, line, col))
        return err_value();
    switch (op) {
    case '+':
        a.raw = false;
        return a;
    case '-':
        if (a.kind == PTX_CV_F64)
            return from_double(-as_double(a));
        return make_int(a.kind == PTX_CV_U64, 0 - a.bits);
    case '!':
        if (!need_int(b, a, name, line, col))
            return err_value();
        return make_int(false, a.bits == 0);
    case '~':
        if (!need_int(b, a, name, line, col))
            return err_value();
        return make_int(true, ~a.bits);
    }
    return err_value();
}

ptx_cval ptx_cexpr_cast(ptx_builder *b, int type, ptx_cval a, uint32_t line, uint32_t col)
{
    if (type != PTX_TYPE_S64 && type != PTX_TYPE_U64) {
        ptx_b_error(b, line, col, "a constant expression can be cast to .s64 or .u64 only, not "
                    ".%s", ptx_type_name((ptx_type)type));
        return err_value();
    }
    if (unusable(b, a, "cast", line, col) || !need_int(b, a, "cast", line, col))
        return err_value();
    return make_int(type == PTX_TYPE_U64, a.bits);
}

static uint64_t shift_left(uint64_t a, uint64_t n)
{
    return n >= 64 ? 0 : a << n;
}

static uint64_t shift_right(uint64_t a, uint64_t n, bool arithmetic)
{
    if (arithmetic) {
        int64_t s = (int64_t)a;
        return (uint64_t)(n >= 64 ? (s < 0 ? -1 : 0) : s >> n);
    }
    return n >= 64 ? 0 : a >> n;
}

ptx_cval ptx_cexpr_binary(ptx_builder *b, int op, ptx_cval a, ptx_cval c, uint32_t line,
                          uint32_t col)
{
    const char *name = ptx_cexpr_op_name(op);
    if (unusable(b, a, name, line, col) || unusable(b, c, name, line, col))
        return err_value();
    bool flt = a.kind == PTX_CV_F64 || c.kind == PTX_CV_F64;
    bool uns = a.kind == PTX_CV_U64 || c.kind == PTX_CV_U64;   /* usual conversions */
    switch (op) {
    case '+': case '-': case '*': case '/':
        if (flt) {
            double x = as_double(a), y = as_double(c);
            return from_double(op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y);
        }
        if (op == '/') {
            if (c.bits == 0) {
                ptx_b_error(b, line, col, "division by zero in a constant expression");
                return err_value();
            }
            if (uns)
                return make_int(true, a.bits / c.bits);
            int64_t x = (int64_t)a.bits, y = (int64_t)c.bits;
            if (x == INT64_MIN && y == -1)
                return make_int(false, a.bits);   /* wraps around, as every integer op does */
            return make_int(false, (uint64_t)(x / y));
        }
        return make_int(uns, op == '+' ? a.bits + c.bits : op == '-' ? a.bits - c.bits
                                                                     : a.bits * c.bits);
    case '%':
        if (!need_int(b, a, name, line, col) || !need_int(b, c, name, line, col))
            return err_value();
        if (c.bits == 0) {
            ptx_b_error(b, line, col, "remainder by zero in a constant expression");
            return err_value();
        }
        /* the table gives .s64 as the result type of % on .u64 operands */
        return make_int(false, a.bits % c.bits);
    case PTX_CX_SHL: case PTX_CX_SHR:
        if (!need_int(b, a, name, line, col) || !need_int(b, c, name, line, col))
            return err_value();
        if (op == PTX_CX_SHL)
            return make_int(a.kind == PTX_CV_U64, shift_left(a.bits, c.bits));
        return make_int(a.kind == PTX_CV_U64,
                        shift_right(a.bits, c.bits, a.kind == PTX_CV_S64));
    case '&': case '|': case '^':
        if (!need_int(b, a, name, line, col) || !need_int(b, c, name, line, col))
            return err_value();
        return make_int(uns, op == '&' ? a.bits & c.bits : op == '|' ? a.bits | c.bits
                                                                      : a.bits ^ c.bits);
    case PTX_CX_ANDAND: case PTX_CX_OROR:
        if (!need_int(b, a, name, line, col) || !need_int(b, c, name, line, col))
            return err_value();
        return make_int(false, op == PTX_CX_ANDAND ? (a.bits && c.bits) : (a.bits || c.bits));
    case PTX_CX_EQ: case PTX_CX_NE: case '<': case '>': case PTX_CX_LE: case PTX_CX_GE: {
        int cmp;
        if (flt) {
            double x = as_double(a), y = as_double(c);
            if (isnan(x) || isnan(y))   /* unordered: only != holds */
                return make_int(false, op == PTX_CX_NE);
            cmp = x < y ? -1 : x > y;
        } else if (uns) {
            cmp = a.bits < c.bits ? -1 : a.bits > c.bits;
        } else {
            int64_t x = (int64_t)a.bits, y = (int64_t)c.bits;
            cmp = x < y ? -1 : x > y;
        }
        bool r = op == PTX_CX_EQ ? cmp == 0 : op == PTX_CX_NE ? cmp != 0 : op == '<' ? cmp < 0
                 : op == '>' ? cmp > 0 : op == PTX_CX_LE ? cmp <= 0 : cmp >= 0;
        return make_int(false, r);
    }
    }
    return err_value();
}

ptx_cval ptx_cexpr_select(ptx_builder *b, ptx_cval cond, ptx_cval x, ptx_cval y, uint32_t line,
                          uint32_t col)
{
    if (unusable(b, cond, "?:", line, col) || unusable(b, x, "?:", line, col) ||
        unusable(b, y, "?:", line, col))
        return err_value();
    if (!is_int(cond)) {
        ptx_b_error(b, line, col, "the condition of '?:' must be an integer, not %s",
                    ptx_cval_type_name(cond));
        return err_value();
    }
    if (is_int(x) != is_int(y)) {
        ptx_b_error(b, line, col, "the two values of '?:' must both be integers or both be "
                    "floats (%s and %s)", ptx_cval_type_name(x), ptx_cval_type_name(y));
        return err_value();
    }
    ptx_cval r = cond.bits ? x : y;
    if (is_int(r))
        r.kind = (x.kind == PTX_CV_U64 || y.kind == PTX_CV_U64) ? PTX_CV_U64 : PTX_CV_S64;
    r.raw = false;
    return r;
}

const char *ptx_cexpr_op_name(int op)
{
    switch (op) {
    case PTX_CX_SHL: return "<<";
    case PTX_CX_SHR: return ">>";
    case PTX_CX_LE: return "<=";
    case PTX_CX_GE: return ">=";
    case PTX_CX_EQ: return "==";
    case PTX_CX_NE: return "!=";
    case PTX_CX_ANDAND: return "&&";
    case PTX_CX_OROR: return "||";
    case '+': return "+";
    case '-': return "-";
    case '*': return "*";
    case '/': return "/";
    case '%': return "%";
    case '&': return "&";
    case '|': return "|";
    case '^': return "^";
    case '<': return "<";
    case '>': return ">";
    default: return "?";
    }
}

bool ptx_cval_to_u64(ptx_builder *b, ptx_cval v, const char *what, uint64_t *out, uint32_t line,
                     uint32_t col)
{
    if (v.kind == PTX_CV_ERROR)
        return false;
    if (!is_int(v)) {
        ptx_b_error(b, line, col, "%s must be an integer, not %s", what, ptx_cval_type_name(v));
        return false;
    }
    if (v.kind == PTX_CV_S64 && (int64_t)v.bits < 0) {
        ptx_b_error(b, line, col, "%s must not be negative (%lld)", what, (long long)v.bits);
        return false;
    }
    *out = v.bits;
    return true;
}
