/* exec_fast.c: specialised handlers for the commonest plain forms of 32/64-bit integer
 * arithmetic and logic, chosen at load time. They compute exactly what the general handlers
 * compute; they only skip the generic operand conversion when an operand is a register of the
 * instruction's width, and run a straight loop over all 32 lanes when the whole warp is active.
 * (The float, comparison, selection, move and conversion forms have theirs in exec_float.c,
 * exec_cmp.c and exec_cvt.c.) */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

/* out[l] = EXPR for every active lane l (emu_internal.h's EMU_LANEWISE on operand 0) */
#define LANEWISE(c, u, T, EXPR) EMU_LANEWISE(c, &(u)->opd[0], T, EXPR)

#define BIN(name, T, EXPR)                                                         \
    static void name(emu_ctx *c, const emu_uop *u)                                 \
    {                                                                               \
        uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];                            \
        const uint64_t *a = emu_src(c, &u->opd[1], (T), ba_);                          \
        const uint64_t *b = emu_src(c, &u->opd[2], (T), bb_);                          \
        LANEWISE(c, u, (T), EXPR);                                                 \
    }

#define M32 UINT64_C(0xffffffff)
#define S32(x) ((int64_t)(int32_t)(uint32_t)(x))

BIN(f_add32, PTX_TYPE_B32, (a[l] + b[l]) & M32)
BIN(f_sub32, PTX_TYPE_B32, (a[l] - b[l]) & M32)
BIN(f_mul32, PTX_TYPE_B32, (a[l] * b[l]) & M32)
BIN(f_and32, PTX_TYPE_B32, a[l] & b[l])
BIN(f_or32, PTX_TYPE_B32, a[l] | b[l])
BIN(f_xor32, PTX_TYPE_B32, a[l] ^ b[l])
BIN(f_add64, PTX_TYPE_B64, a[l] + b[l])
BIN(f_sub64, PTX_TYPE_B64, a[l] - b[l])
BIN(f_mul64, PTX_TYPE_B64, a[l] * b[l])
BIN(f_and64, PTX_TYPE_B64, a[l] & b[l])
BIN(f_or64, PTX_TYPE_B64, a[l] | b[l])
BIN(f_xor64, PTX_TYPE_B64, a[l] ^ b[l])
BIN(f_shl32, PTX_TYPE_B32, b[l] >= 32 ? 0 : (a[l] << b[l]) & M32)
BIN(f_shru32, PTX_TYPE_B32, b[l] >= 32 ? 0 : a[l] >> b[l])
BIN(f_shrs32, PTX_TYPE_B32, (uint64_t)(S32(a[l]) >> (b[l] >= 32 ? 31 : b[l])) & M32)
BIN(f_mins32, PTX_TYPE_B32, S32(a[l]) < S32(b[l]) ? a[l] : b[l])
BIN(f_maxs32, PTX_TYPE_B32, S32(a[l]) > S32(b[l]) ? a[l] : b[l])
BIN(f_minu32, PTX_TYPE_B32, a[l] < b[l] ? a[l] : b[l])
BIN(f_maxu32, PTX_TYPE_B32, a[l] > b[l] ? a[l] : b[l])

/* shift amounts are read as .u32 even for 64-bit shifts */
static void f_shl64u(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B64, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    LANEWISE(c, u, PTX_TYPE_B64, b[l] >= 64 ? 0 : a[l] << b[l]);
}

static void f_shr64u(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B64, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    LANEWISE(c, u, PTX_TYPE_B64, b[l] >= 64 ? 0 : a[l] >> b[l]);
}

static void f_shr64s(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B64, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    LANEWISE(c, u, PTX_TYPE_B64, (uint64_t)((int64_t)a[l] >> (b[l] >= 64 ? 63 : b[l])));
}

static void f_mad32(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE], bc_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    const uint64_t *cc = emu_src(c, &u->opd[3], PTX_TYPE_B32, bc_);
    LANEWISE(c, u, PTX_TYPE_B32, (a[l] * b[l] + cc[l]) & M32);
}

static void f_mad64(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE], bc_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B64, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B64, bb_);
    const uint64_t *cc = emu_src(c, &u->opd[3], PTX_TYPE_B64, bc_);
    LANEWISE(c, u, PTX_TYPE_B64, a[l] * b[l] + cc[l]);
}

static void f_mulwide_s32(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    LANEWISE(c, u, PTX_TYPE_B64, (uint64_t)(S32(a[l]) * S32(b[l])));
}

static void f_mulwide_u32(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba_[EMU_WARP_SIZE], bb_[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba_);
    const uint64_t *b = emu_src(c, &u->opd[2], PTX_TYPE_B32, bb_);
    LANEWISE(c, u, PTX_TYPE_B64, a[l] * b[l]);
}

static bool plain_operand(const ptx_operand *o)
{
    return o->kind == PTX_OPD_REG || o->kind == PTX_OPD_IMM || o->kind == PTX_OPD_FIMM32 ||
           o->kind == PTX_OPD_FIMM64 || o->kind == PTX_OPD_SREG || o->kind == PTX_OPD_SYM;
}

static bool plain(const ptx_instr *in, int nops)
{
    if (in->nops != nops || in->ops[0].kind != PTX_OPD_REG) return false;
    for (int i = 1; i < nops; i++)
        if (!plain_operand(&in->ops[i])) return false;
    return true;
}

emu_exec_fn emu_select_fast(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    if (in->ntypes > 1 && in->op != PTX_OP_CVT) return NULL;
    uint8_t k = emu_type_kind[t];
    unsigned bits = emu_type_bits[t];
    bool integer = k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B;
    bool sg = k == EMU_TK_S;
    bool i32 = integer && bits == 32, i64 = integer && bits == 64;
    uint64_t fl = in->flags;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
        if (!plain(in, 3) || fl) break;
        if (i32) {
            switch (in->op) {
            case PTX_OP_ADD: return f_add32;
            case PTX_OP_SUB: return f_sub32;
            case PTX_OP_AND: return f_and32;
            case PTX_OP_OR: return f_or32;
            default: return f_xor32;
            }
        }
        if (i64) {
            switch (in->op) {
            case PTX_OP_ADD: return f_add64;
            case PTX_OP_SUB: return f_sub64;
            case PTX_OP_AND: return f_and64;
            case PTX_OP_OR: return f_or64;
            default: return f_xor64;
            }
        }
        break;
    case PTX_OP_MUL:
        if (!plain(in, 3) || fl) break;
        if (i32 && (in->mode == PTX_SFX_LO)) return f_mul32;
        if (i64 && (in->mode == PTX_SFX_LO)) return f_mul64;
        if (i32 && in->mode == PTX_SFX_WIDE) return sg ? f_mulwide_s32 : f_mulwide_u32;
        break;
    case PTX_OP_MAD:
        if (!plain(in, 4) || fl) break;
        if (i32 && in->mode == PTX_SFX_LO) return f_mad32;
        if (i64 && in->mode == PTX_SFX_LO) return f_mad64;
        break;
    case PTX_OP_SHL:
        if (!plain(in, 3) || fl) break;
        if (i32) return f_shl32;
        if (i64) return f_shl64u;
        break;
    case PTX_OP_SHR:
        if (!plain(in, 3) || fl) break;
        if (i32) return sg ? f_shrs32 : f_shru32;
        if (i64) return sg ? f_shr64s : f_shr64u;
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (!plain(in, 3) || fl || !i32) break;
        if (in->op == PTX_OP_MIN) return sg ? f_mins32 : f_minu32;
        return sg ? f_maxs32 : f_maxu32;
    default: break;
    }
    return NULL;
}
