/* exec_int.c: integer arithmetic, carry chains, bit manipulation, logic and shifts. */
#include "emulator/emu_internal.h"

#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static inline bool is_int(uint8_t t)
{
    uint8_t k = emu_type_kind[t];
    return k == EMU_TK_U || k == EMU_TK_S || k == EMU_TK_B;
}

/* d, a, b with one type: the plain two-operand operations */
static void x_binop(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    uint64_t m = emu_mask_bits(bits);
    bool sg = emu_is_signed(t);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], t, b);
    bool sat = in->flags & PTX_F(SAT);
    bool cc = in->flags & PTX_F(CC);
    emu_warp *w = c->w;
    switch (in->op) {
    case PTX_OP_ADD:
    case PTX_OP_ADDC:
        LANES(c) {
            int l = L_;
            uint64_t cin = in->op == PTX_OP_ADDC ? (w->cc >> l) & 1 : 0;
            if (sat && sg) {
                int64_t r = emu_sext(a[l], bits) + emu_sext(b[l], bits);
                int64_t hi = (int64_t)(m >> 1), lo = -hi - 1;
                d[l] = (uint64_t)(r > hi ? hi : r < lo ? lo : r) & m;
            } else {
                u128 r = (u128)a[l] + b[l] + cin;
                d[l] = (uint64_t)r & m;
                if (cc) {
                    bool co = bits >= 64 ? (r >> 64) != 0 : ((uint64_t)r >> bits) != 0;
                    w->cc = (w->cc & ~(1u << l)) | ((uint32_t)co << l);
                }
            }
        }
        break;
    case PTX_OP_SUB:
    case PTX_OP_SUBC:
        LANES(c) {
            int l = L_;
            uint64_t bin = in->op == PTX_OP_SUBC ? (w->cc >> l) & 1 : 0;
            if (sat && sg) {
                int64_t r = emu_sext(a[l], bits) - emu_sext(b[l], bits);
                int64_t hi = (int64_t)(m >> 1), lo = -hi - 1;
                d[l] = (uint64_t)(r > hi ? hi : r < lo ? lo : r) & m;
            } else {
                d[l] = (a[l] - b[l] - bin) & m;
                if (cc) {
                    bool borrow = (u128)a[l] < (u128)b[l] + bin;
                    w->cc = (w->cc & ~(1u << l)) | ((uint32_t)borrow << l);
                }
            }
        }
        break;
    case PTX_OP_MUL:
        LANES(c) {
            int l = L_;
            if (in->mode == PTX_SFX_WIDE) {
                d[l] = sg ? (uint64_t)(emu_sext(a[l], bits) * emu_sext(b[l], bits))
                          : a[l] * b[l];
            } else if (in->mode == PTX_SFX_HI) {
                if (bits == 64) {
                    d[l] = sg ? (uint64_t)(((s128)(int64_t)a[l] * (int64_t)b[l]) >> 64)
                              : (uint64_t)(((u128)a[l] * b[l]) >> 64);
                } else {
                    d[l] = sg ? (uint64_t)((emu_sext(a[l], bits) * emu_sext(b[l], bits)) >> bits) & m
                              : ((a[l] * b[l]) >> bits) & m;
                }
            } else {
                d[l] = (a[l] * b[l]) & m;
            }
        }
        break;
    case PTX_OP_DIV:
        LANES(c) {
            int l = L_;
            if (b[l] == 0) d[l] = m;   /* the hardware gives all ones */
            else if (sg) {
                int64_t x = emu_sext(a[l], bits), y = emu_sext(b[l], bits);
                d[l] = (y == -1) ? (uint64_t)(-(uint64_t)x) & m : (uint64_t)(x / y) & m;
            } else d[l] = a[l] / b[l];
        }
        break;
    case PTX_OP_REM:
        LANES(c) {
            int l = L_;
            if (b[l] == 0) d[l] = a[l];
            else if (sg) {
                int64_t x = emu_sext(a[l], bits), y = emu_sext(b[l], bits);
                d[l] = y == -1 ? 0 : (uint64_t)(x % y) & m;
            } else d[l] = a[l] % b[l];
        }
        break;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        bool mn = in->op == PTX_OP_MIN, relu = in->flags & PTX_F(RELU);
        LANES(c) {
            int l = L_;
            if (sg) {
                int64_t x = emu_sext(a[l], bits), y = emu_sext(b[l], bits);
                int64_t r = mn ? (x < y ? x : y) : (x > y ? x : y);
                if (relu && r < 0) r = 0;
                d[l] = (uint64_t)r & m;
            } else {
                d[l] = mn ? (a[l] < b[l] ? a[l] : b[l]) : (a[l] > b[l] ? a[l] : b[l]);
            }
        }
        break;
    }
    case PTX_OP_AND: LANES(c) { int l = L_; d[l] = a[l] & b[l]; } break;
    case PTX_OP_OR: LANES(c) { int l = L_; d[l] = a[l] | b[l]; } break;
    case PTX_OP_XOR: LANES(c) { int l = L_; d[l] = a[l] ^ b[l]; } break;
    default: break;
    }
    uint8_t dt = t;
    if (in->op == PTX_OP_MUL && in->mode == PTX_SFX_WIDE)
        dt = bits == 16 ? (sg ? PTX_TYPE_S32 : PTX_TYPE_U32) : (sg ? PTX_TYPE_S64 : PTX_TYPE_U64);
    emu_write_all(c, &in->ops[0], dt, d);
}

/* shl/shr: the shift amount is an unsigned 32-bit value, clamped to the width */
static void x_shift(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    uint64_t m = emu_mask_bits(bits);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_U32, b);
    bool sg = emu_is_signed(t);
    LANES(c) {
        int l = L_;
        uint64_t s = b[l];
        if (in->op == PTX_OP_SHL) d[l] = s >= bits ? 0 : (a[l] << s) & m;
        else if (sg) {
            int64_t x = emu_sext(a[l], bits);
            d[l] = (uint64_t)(s >= bits ? (x < 0 ? -1 : 0) : x >> s) & m;
        } else d[l] = s >= bits ? 0 : a[l] >> s;
    }
    emu_write_all(c, &in->ops[0], t, d);
}

static void x_unop(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    uint64_t m = emu_mask_bits(bits);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    uint8_t dt = t;
    switch (in->op) {
    case PTX_OP_NOT: LANES(c) { int l = L_; d[l] = ~a[l] & m; } break;
    case PTX_OP_CNOT: LANES(c) { int l = L_; d[l] = a[l] == 0; } break;
    case PTX_OP_NEG: LANES(c) { int l = L_; d[l] = (0 - a[l]) & m; } break;
    case PTX_OP_ABS:
        LANES(c) {
            int l = L_;
            int64_t x = emu_sext(a[l], bits);
            d[l] = (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x) & m;
        }
        break;
    case PTX_OP_POPC:
        LANES(c) { int l = L_; d[l] = (uint64_t)__builtin_popcountll(a[l]); }
        dt = PTX_TYPE_U32;
        break;
    case PTX_OP_CLZ:
        LANES(c) {
            int l = L_;
            d[l] = a[l] == 0 ? bits : (uint64_t)(__builtin_clzll(a[l]) - (64 - (int)bits));
        }
        dt = PTX_TYPE_U32;
        break;
    case PTX_OP_BREV:
        LANES(c) {
            int l = L_;
            uint64_t x = a[l], r = 0;
            for (unsigned i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i);
            d[l] = r;
        }
        break;
    case PTX_OP_BFIND: {
        bool sa = in->flags & PTX_F(SHIFTAMT);
        bool sg = emu_is_signed(t);
        LANES(c) {
            int l = L_;
            uint64_t x = a[l];
            if (sg && ((x >> (bits - 1)) & 1)) x = ~x & m;
            if (x == 0) d[l] = 0xffffffffu;
            else {
                unsigned pos = 63 - (unsigned)__builtin_clzll(x);
                d[l] = sa ? bits - 1 - pos : pos;
            }
        }
        dt = PTX_TYPE_U32;
        break;
    }
    default: break;
    }
    emu_write_all(c, &in->ops[0], dt, d);
}

/* mad{.lo,.hi,.wide}{.cc}, madc; mul24/mad24; sad */
static void x_mad(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    uint64_t m = emu_mask_bits(bits);
    bool sg = emu_is_signed(t);
    bool wide = in->mode == PTX_SFX_WIDE;
    uint8_t ct = wide ? (bits == 16 ? (sg ? PTX_TYPE_S32 : PTX_TYPE_U32)
                                    : (sg ? PTX_TYPE_S64 : PTX_TYPE_U64))
                      : t;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cv[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], t, b);
    emu_read_all(c, &in->ops[3], ct, cv);
    bool cc = in->flags & PTX_F(CC), sat = in->flags & PTX_F(SAT);
    emu_warp *w = c->w;
    LANES(c) {
        int l = L_;
        uint64_t p;
        if (in->op == PTX_OP_SAD) {
            if (sg) {
                int64_t x = emu_sext(a[l], bits), y = emu_sext(b[l], bits);
                p = (uint64_t)(x > y ? x - y : y - x);
            } else p = a[l] > b[l] ? a[l] - b[l] : b[l] - a[l];
            d[l] = (p + cv[l]) & m;
            continue;
        }
        if (in->op == PTX_OP_MAD24) {
            int64_t x = sg ? emu_sext(a[l], 24) : (int64_t)(a[l] & 0xffffff);
            int64_t y = sg ? emu_sext(b[l], 24) : (int64_t)(b[l] & 0xffffff);
            int64_t prod = x * y;
            p = in->mode == PTX_SFX_HI ? (uint64_t)(prod >> 16) : (uint64_t)prod;
            if (sat && sg && in->mode == PTX_SFX_HI) {
                int64_t r = emu_sext(p, 32) + emu_sext(cv[l], 32);
                d[l] = (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r) & m;
            } else d[l] = (p + cv[l]) & m;
            continue;
        }
        /* mad / madc */
        if (wide) {
            uint64_t prod = sg ? (uint64_t)(emu_sext(a[l], bits) * emu_sext(b[l], bits))
                               : a[l] * b[l];
            unsigned wb = bits * 2;
            u128 r = (u128)prod + cv[l] + (in->op == PTX_OP_MADC ? (w->cc >> l) & 1 : 0);
            d[l] = (uint64_t)r & emu_mask_bits(wb);
            if (cc) {
                bool co = wb >= 64 ? (r >> 64) != 0 : ((uint64_t)r >> wb) != 0;
                w->cc = (w->cc & ~(1u << l)) | ((uint32_t)co << l);
            }
            continue;
        }
        if (in->mode == PTX_SFX_HI) {
            if (bits == 64) p = sg ? (uint64_t)(((s128)(int64_t)a[l] * (int64_t)b[l]) >> 64)
                                   : (uint64_t)(((u128)a[l] * b[l]) >> 64);
            else p = sg ? (uint64_t)((emu_sext(a[l], bits) * emu_sext(b[l], bits)) >> bits) & m
                        : ((a[l] * b[l]) >> bits) & m;
            if (sat && sg && bits == 32) {
                int64_t r = emu_sext(p, 32) + emu_sext(cv[l], 32);
                d[l] = (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r) & m;
                continue;
            }
        } else {
            p = (a[l] * b[l]) & m;
        }
        u128 r = (u128)p + cv[l] + (in->op == PTX_OP_MADC ? (w->cc >> l) & 1 : 0);
        d[l] = (uint64_t)r & m;
        if (cc) {
            bool co = bits >= 64 ? (r >> 64) != 0 : ((uint64_t)r >> bits) != 0;
            w->cc = (w->cc & ~(1u << l)) | ((uint32_t)co << l);
        }
    }
    emu_write_all(c, &in->ops[0], wide ? ct : t, d);
}

static void x_mul24(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    bool sg = emu_is_signed(t);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], t, b);
    LANES(c) {
        int l = L_;
        int64_t x = sg ? emu_sext(a[l], 24) : (int64_t)(a[l] & 0xffffff);
        int64_t y = sg ? emu_sext(b[l], 24) : (int64_t)(b[l] & 0xffffff);
        int64_t prod = x * y;
        d[l] = (in->mode == PTX_SFX_HI ? (uint64_t)(prod >> 16) : (uint64_t)prod) & 0xffffffffu;
    }
    emu_write_all(c, &in->ops[0], t, d);
}

/* bfe d, a, pos, len */
static void x_bfe(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    bool sg = emu_is_signed(t);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cl[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_U32, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_U32, cl);
    LANES(c) {
        int l = L_;
        unsigned pos = (unsigned)(b[l] & 0xff), len = (unsigned)(cl[l] & 0xff);
        uint64_t x = a[l];
        unsigned msb = pos + len - 1;
        uint64_t sbit = 0;
        if (sg && len) sbit = (pos >= bits) ? (x >> (bits - 1)) & 1 : (x >> (msb >= bits ? bits - 1 : msb)) & 1;
        uint64_t r = 0;
        for (unsigned i = 0; i < bits; i++) {
            uint64_t bit;
            if (i < len && pos + i < bits) bit = (x >> (pos + i)) & 1;
            else bit = sg ? sbit : 0;
            r |= bit << i;
        }
        if (len == 0) r = 0;
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], t, d);
}

/* bfi d, a, b, pos, len: insert a's low len bits into b at pos */
static void x_bfi(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned bits = emu_type_bits[t];
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], p[EMU_WARP_SIZE], n[EMU_WARP_SIZE],
        d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], t, a);
    emu_read_all(c, &in->ops[2], t, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_U32, p);
    emu_read_all(c, &in->ops[4], PTX_TYPE_U32, n);
    LANES(c) {
        int l = L_;
        unsigned pos = (unsigned)(p[l] & 0xff), len = (unsigned)(n[l] & 0xff);
        uint64_t r = b[l];
        for (unsigned i = 0; i < len && pos + i < bits; i++)
            r = (r & ~(UINT64_C(1) << (pos + i))) | (((a[l] >> i) & 1) << (pos + i));
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], t, d);
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit from base */
static void x_fns(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t mk[EMU_WARP_SIZE], bs[EMU_WARP_SIZE], of[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, mk);
    emu_read_all(c, &in->ops[2], PTX_TYPE_U32, bs);
    emu_read_all(c, &in->ops[3], PTX_TYPE_S32, of);
    LANES(c) {
        int l = L_;
        uint32_t mask = (uint32_t)mk[l];
        int base = (int)(bs[l] & 31);
        int off = (int)emu_sext(of[l], 32);
        uint32_t r = 0xffffffffu;
        if (off == 0) {
            if (mask >> base & 1) r = (uint32_t)base;
        } else if (off > 0) {
            int cnt = 0;
            for (int i = base; i < 32; i++)
                if (mask >> i & 1 && ++cnt == off) { r = (uint32_t)i; break; }
        } else {
            int cnt = 0;
            for (int i = base; i >= 0; i--)
                if (mask >> i & 1 && ++cnt == -off) { r = (uint32_t)i; break; }
        }
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

static void x_prmt(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], s[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_B32, s);
    LANES(c) {
        int l = L_;
        uint64_t bytes = (uint64_t)(uint32_t)a[l] | ((uint64_t)(uint32_t)b[l] << 32);
#define BYTE(i) ((uint32_t)(bytes >> (8 * ((i) & 7))) & 0xff)
        uint32_t sel = (uint32_t)s[l], r = 0, idx[4];
        switch (in->mode) {
        case PTX_SFX_F4E: {
            uint32_t k = sel & 3;
            for (int i = 0; i < 4; i++) idx[i] = (k + (uint32_t)i) & 7;
            break;
        }
        case PTX_SFX_B4E: {
            uint32_t k = sel & 3;
            for (int i = 0; i < 4; i++) idx[i] = (k - (uint32_t)i + 8) & 7;
            break;
        }
        case PTX_SFX_RC8: for (int i = 0; i < 4; i++) idx[i] = sel & 3; break;
        case PTX_SFX_ECL: {
            uint32_t k = sel & 3;
            for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i >= k ? (uint32_t)i : k;
            break;
        }
        case PTX_SFX_ECR: {
            uint32_t k = sel & 3;
            for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i <= k ? (uint32_t)i : k;
            break;
        }
        case PTX_SFX_RC16: {
            uint32_t k = sel & 1;
            idx[0] = 2 * k; idx[1] = 2 * k + 1; idx[2] = 2 * k; idx[3] = 2 * k + 1;
            break;
        }
        default:
            for (int i = 0; i < 4; i++) {
                uint32_t nib = (sel >> (4 * i)) & 0xf;
                uint32_t v = BYTE(nib & 7);
                if (nib & 8) v = (v & 0x80) ? 0xff : 0;
                r |= v << (8 * i);
            }
            d[l] = r;
            continue;
        }
        for (int i = 0; i < 4; i++) r |= BYTE(idx[i]) << (8 * i);
        d[l] = r;
#undef BYTE
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of b:a by c */
static void x_shf(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], s[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_U32, s);
    bool wrap = in->flags & PTX_F(WRAP);
    bool left = in->mode == PTX_SFX_L;
    LANES(c) {
        int l = L_;
        uint32_t n = wrap ? (uint32_t)(s[l] & 31) : (s[l] > 32 ? 32 : (uint32_t)s[l]);
        uint64_t x = (b[l] << 32) | (a[l] & 0xffffffffu);
        d[l] = left ? ((x << n) >> 32) & 0xffffffffu : (x >> n) & 0xffffffffu;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

static void x_lop3(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], lut[EMU_WARP_SIZE],
        d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_B32, cc);
    emu_read_all(c, &in->ops[4], PTX_TYPE_U32, lut);
    LANES(c) {
        int l = L_;
        uint32_t r = 0, x = (uint32_t)a[l], y = (uint32_t)b[l], z = (uint32_t)cc[l];
        for (int i = 0; i < 8; i++)
            if ((lut[l] >> i) & 1) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
        d[l] = r;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* dp4a.atype.btype d, a, b, c; dp2a.{lo,hi}.atype.btype d, a, b, c */
static void x_dp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool as = emu_is_signed(emu_ty(in, 0)), bs = emu_is_signed(emu_ty(in, 1));
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cv[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_B32, b);
    emu_read_all(c, &in->ops[3], PTX_TYPE_B32, cv);
    bool four = in->op == PTX_OP_DP4A;
    unsigned hi = in->mode == PTX_SFX_HI ? 2 : 0;
    LANES(c) {
        int l = L_;
        int64_t acc = (as || bs) ? emu_sext(cv[l], 32) : (int64_t)cv[l];
        for (unsigned i = 0; i < (four ? 4u : 2u); i++) {
            int64_t x, y;
            if (four) {
                uint64_t xa = (a[l] >> (8 * i)) & 0xff;
                x = as ? emu_sext(xa, 8) : (int64_t)xa;
            } else {
                uint64_t xa = (a[l] >> (16 * i)) & 0xffff;
                x = as ? emu_sext(xa, 16) : (int64_t)xa;
            }
            uint64_t yb = (b[l] >> (8 * (four ? i : i + hi))) & 0xff;
            y = bs ? emu_sext(yb, 8) : (int64_t)yb;
            acc += x * y;
        }
        d[l] = (uint64_t)acc & 0xffffffffu;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* bmsk.{clamp,wrap}.b32 d, pos, len */
static void x_bmsk(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_U32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_U32, b);
    bool wrap = in->flags & PTX_F(WRAP);
    LANES(c) {
        int l = L_;
        uint64_t pos = wrap ? a[l] & 31 : (a[l] > 32 ? 32 : a[l]);
        uint64_t len = wrap ? b[l] & 31 : (b[l] > 32 ? 32 : b[l]);
        uint64_t mask = (len >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << len) - 1));
        d[l] = pos >= 32 ? 0 : (mask << pos) & 0xffffffffu;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* szext.{clamp,wrap}.{s32,u32} d, a, b: extend the low b bits of a */
static void x_szext(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    bool sg = emu_is_signed(t);
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[2], PTX_TYPE_U32, b);
    bool wrap = in->flags & PTX_F(WRAP);
    LANES(c) {
        int l = L_;
        unsigned n = wrap ? (unsigned)(b[l] & 31) : (b[l] > 32 ? 32 : (unsigned)b[l]);
        if (n == 0) d[l] = 0;
        else if (n >= 32) d[l] = a[l] & 0xffffffffu;
        else d[l] = sg ? (uint64_t)emu_sext(a[l], n) & 0xffffffffu : a[l] & emu_mask_bits(n);
    }
    emu_write_all(c, &in->ops[0], t, d);
}

emu_exec_fn emu_select_int(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    bool it = is_int(t) || (t == PTX_TYPE_PRED && (in->op == PTX_OP_AND || in->op == PTX_OP_OR ||
                                                   in->op == PTX_OP_XOR || in->op == PTX_OP_NOT));
    if (!it) return NULL;
    unsigned bits = emu_type_bits[t];
    if (bits > 64) return NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
        if (in->nops != 3 || bits < 16) return NULL;
        return x_binop;
    case PTX_OP_MUL: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX:
        if (in->nops != 3 || bits < 16) return NULL;
        return x_binop;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
        return in->nops == 3 ? x_binop : NULL;
    case PTX_OP_SHL: case PTX_OP_SHR: return in->nops == 3 ? x_shift : NULL;
    case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
        return in->nops == 2 ? x_unop : NULL;
    case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MAD24: case PTX_OP_SAD:
        return in->nops == 4 ? x_mad : NULL;
    case PTX_OP_MUL24: return in->nops == 3 ? x_mul24 : NULL;
    case PTX_OP_BFE: return in->nops == 4 ? x_bfe : NULL;
    case PTX_OP_BFI: return in->nops == 5 ? x_bfi : NULL;
    case PTX_OP_FNS: return in->nops == 4 ? x_fns : NULL;
    case PTX_OP_PRMT: return in->nops == 4 ? x_prmt : NULL;
    case PTX_OP_SHF: return in->nops == 4 ? x_shf : NULL;
    case PTX_OP_LOP3: return in->nops == 5 ? x_lop3 : NULL;
    case PTX_OP_DP4A: case PTX_OP_DP2A: return in->nops == 4 ? x_dp : NULL;
    case PTX_OP_BMSK: return in->nops == 3 ? x_bmsk : NULL;
    case PTX_OP_SZEXT: return in->nops == 3 ? x_szext : NULL;
    default: return NULL;
    }
}
