/* ptx_mnemonic.c: splitting an instruction name such as `ld.global.nc.v4.f32` into its opcode
 * (the longest dot-separated prefix that ptx_opcodes.def names) and suffixes, and decoding the
 * suffixes into ptx_instr's structured fields. */
#include "frontend/ptx_parser.h"

#include <string.h>

static ptx_space space_of(ptx_suffix s)
{
    switch (s) {
    case PTX_SFX_GLOBAL: return PTX_SPACE_GLOBAL;
    case PTX_SFX_SHARED: case PTX_SFX_SHARED_CTA: return PTX_SPACE_SHARED;
    case PTX_SFX_SHARED_CLUSTER: return PTX_SPACE_SHARED_CLUSTER;
    case PTX_SFX_LOCAL: return PTX_SPACE_LOCAL;
    case PTX_SFX_CONST: return PTX_SPACE_CONST;
    case PTX_SFX_PARAM: case PTX_SFX_PARAM_ENTRY: case PTX_SFX_PARAM_FUNC: return PTX_SPACE_PARAM;
    case PTX_SFX_TEXSPACE: return PTX_SPACE_TEX;
    default: return PTX_SPACE_NONE;
    }
}

static ptx_round round_of(ptx_suffix s)
{
    switch (s) {
    case PTX_SFX_RN: return PTX_RND_RN;
    case PTX_SFX_RZ: return PTX_RND_RZ;
    case PTX_SFX_RM: return PTX_RND_RM;
    case PTX_SFX_RP: return PTX_RND_RP;
    case PTX_SFX_RNA: return PTX_RND_RNA;
    case PTX_SFX_RS: return PTX_RND_RS;
    case PTX_SFX_RNI: return PTX_RND_RNI;
    case PTX_SFX_RZI: return PTX_RND_RZI;
    case PTX_SFX_RMI: return PTX_RND_RMI;
    case PTX_SFX_RPI: return PTX_RND_RPI;
    default: return PTX_RND_NONE;
    }
}

static ptx_cmp cmp_of(ptx_suffix s)
{
    switch (s) {
    case PTX_SFX_EQ: return PTX_CMP_EQ;
    case PTX_SFX_NE: return PTX_CMP_NE;
    case PTX_SFX_LT: return PTX_CMP_LT;
    case PTX_SFX_LE: return PTX_CMP_LE;
    case PTX_SFX_GT: return PTX_CMP_GT;
    case PTX_SFX_GE: return PTX_CMP_GE;
    case PTX_SFX_LO: return PTX_CMP_LO;
    case PTX_SFX_LS: return PTX_CMP_LS;
    case PTX_SFX_HI: return PTX_CMP_HI;
    case PTX_SFX_HS: return PTX_CMP_HS;
    case PTX_SFX_EQU: return PTX_CMP_EQU;
    case PTX_SFX_NEU: return PTX_CMP_NEU;
    case PTX_SFX_LTU: return PTX_CMP_LTU;
    case PTX_SFX_LEU: return PTX_CMP_LEU;
    case PTX_SFX_GTU: return PTX_CMP_GTU;
    case PTX_SFX_GEU: return PTX_CMP_GEU;
    case PTX_SFX_NUM: return PTX_CMP_NUM;
    case PTX_SFX_NAN: return PTX_CMP_NAN;
    default: return PTX_CMP_NONE;
    }
}

static bool is_compare_op(ptx_opcode op)
{
    return op == PTX_OP_SET || op == PTX_OP_SETP || op == PTX_OP_SLCT || op == PTX_OP_VSET ||
           op == PTX_OP_VSET2 || op == PTX_OP_VSET4;
}

int ptx_mnemonic_decode(const char *text, size_t len, ptx_instr *out, char *err, size_t errlen)
{
    /* Split at dots: the pieces are short, and an instruction has at most a few dozen. */
    enum { MAXP = 40 };
    const char *ps[MAXP];
    size_t pl[MAXP];
    int np = 0;
    for (size_t i = 0, start = 0; i <= len; i++) {
        if (i == len || text[i] == '.') {
            if (np == MAXP) {
                snprintf(err, errlen, "too many modifiers on '%.*s'", (int)len, text);
                return -1;
            }
            ps[np] = text + start;
            pl[np] = i - start;
            np++;
            start = i + 1;
        }
    }
    memset(out, 0, sizeof *out);
    out->guard = -1;
    out->target = -1;
    out->reconv = -1;
    out->block = -1;
    out->vec = 1;

    int k;
    ptx_opcode op = PTX_OP_NONE;
    for (k = np < 6 ? np : 6; k >= 1; k--) {
        size_t l = (size_t)(ps[k - 1] + pl[k - 1] - text);
        op = ptx_opcode_lookup(text, l);
        if (op != PTX_OP_NONE)
            break;
    }
    if (op == PTX_OP_NONE) {
        snprintf(err, errlen, "unknown instruction '%.*s'", (int)len, text);
        return -1;
    }
    out->op = (uint16_t)op;
    const char *opname = ptx_opcode_name(op);
    for (int i = k; i < np; i++) {
        ptx_suffix s = pl[i] ? ptx_suffix_lookup(ps[i], pl[i]) : PTX_SFX_NONE;
        if (s == PTX_SFX_NONE) {
            snprintf(err, errlen, "unknown modifier '.%.*s' on '%s'", (int)pl[i], ps[i], opname);
            return -1;
        }
        if (out->nsfx == PTX_MAX_SUFFIXES) {
            snprintf(err, errlen, "too many modifiers on '%s'", opname);
            return -1;
        }
        out->sfx[out->nsfx++] = (uint16_t)s;
        if (s <= PTX_SFX_TYPES_END) {
            /* Instructions with more than PTX_MAX_TYPES types (block-scaled mma) keep the
             * rest only in sfx[]. */
            if (out->ntypes < PTX_MAX_TYPES)
                out->types[out->ntypes++] = (uint8_t)s;
            continue;
        }
        switch (ptx_suffix_group_of(s)) {
        case PTX_SG_SPACE:
            if (!out->space)
                out->space = (uint8_t)space_of(s);
            break;
        case PTX_SG_ROUND:
            out->rnd = (uint8_t)round_of(s);
            break;
        case PTX_SG_CMP:
            /* Outside comparisons, .lo/.hi pick a half of a product (mul, mad, mul24, mad24,
             * madc, dp2a): the sub-operation. */
            if ((s == PTX_SFX_LO || s == PTX_SFX_HI) && !is_compare_op(op)) {
                if (!out->mode)
                    out->mode = (uint16_t)s;
            } else {
                out->cmp = (uint8_t)cmp_of(s);
            }
            break;
        case PTX_SG_LOGIC:
            if (op == PTX_OP_SET || op == PTX_OP_SETP)
                out->boolop = (uint16_t)s;
            else
                out->aop = (uint16_t)s;
            break;
        case PTX_SG_AOP:
            out->aop = (uint16_t)s;
            break;
        case PTX_SG_VEC:
            out->vec = s == PTX_SFX_V2 ? 2 : s == PTX_SFX_V4 ? 4 : 8;
            break;
        case PTX_SG_SEM:
            out->sem = (uint16_t)s;
            break;
        case PTX_SG_SCOPE:
            /* membar.gl is the GPU scope under its old name */
            out->scope = (uint16_t)(s == PTX_SFX_GL ? PTX_SFX_GPU : s);
            break;
        case PTX_SG_FLAG:
            out->flags |= UINT64_C(1) << (s - PTX_SFX_FTZ);
            /* vote.uni is vote's sub-operation, like .all/.any/.ballot */
            if (s == PTX_SFX_UNI && op == PTX_OP_VOTE && !out->mode)
                out->mode = (uint16_t)s;
            break;
        case PTX_SG_MODE:
            if (!out->mode)
                out->mode = (uint16_t)s;
            break;
        default:
            break;
        }
    }
    return 0;
}
