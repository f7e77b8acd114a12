/* operands.c: reading and writing decoded operands (emu_opd) for the handlers.
 *
 * Registers hold canonical values: a register of n bits holds a value below 2^n, a signed
 * value written through a narrower signed type sign-extended to n bits. So a source read as a
 * type at least as wide as its register is the register row itself (no copy), and a result of
 * exactly the register's width can be stored straight into the row. Everything else goes
 * through the conversions of the IR-operand path (interp.c), so both agree bit for bit. */
#include "emulator/emu_internal.h"

#include <string.h>

static inline uint64_t *row_of(emu_ctx *c, const emu_opd *o)
{
    return c->regs + o->row;
}

/* One lane of o read as type t (the rules of emu_read). */
static uint64_t read_lane(emu_ctx *c, const emu_opd *o, int lane, uint8_t t)
{
    unsigned bits = emu_type_bits[t];
    uint64_t v;
    switch (o->kind) {
    case EMU_OPD_REG:
        v = row_of(c, o)[lane];
        if (t == PTX_TYPE_PRED) return (v & 1) ^ ((o->flags & EMU_OPD_F_NEG) ? 1 : 0);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    case EMU_OPD_PRED: {
        uint64_t p = (row_of(c, o)[0] >> lane) & 1;
        return t == PTX_TYPE_PRED ? p ^ ((o->flags & EMU_OPD_F_NEG) ? 1 : 0) : p;
    }
    case EMU_OPD_IMM:
        return t == o->type ? o->imm : emu_imm_convert((uint8_t)o->row, o->raw, t);
    case EMU_OPD_SREG:
        v = emu_sreg_value(c, o->row, o->type, lane);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    case EMU_OPD_SYM:
    case EMU_OPD_ADDR:
        v = emu_opd_address(c, o, lane);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    case EMU_OPD_VEC: {
        const emu_opd *e = &c->code->pool[o->row];
        if (o->imm == 1) return read_lane(c, e, lane, t);   /* {%r} is %r */
        unsigned n = o->imm ? (unsigned)o->imm : 1, ew = (bits ? bits : 64) / n;
        uint8_t et = ew == 8 ? PTX_TYPE_B8 : ew == 16 ? PTX_TYPE_B16 : ew == 32 ? PTX_TYPE_B32
                                                                                  : PTX_TYPE_B64;
        v = 0;
        for (unsigned i = 0; i < n && i * ew < 64; i++)
            v |= (read_lane(c, &e[i], lane, et) & emu_mask_bits(ew)) << (i * ew);
        return v;
    }
    default:
        return 0;
    }
}

uint64_t emu_opd_address(emu_ctx *c, const emu_opd *o, int lane)
{
    if (o->kind == EMU_OPD_SYM) return emu_symbol_address(c, (int32_t)o->row, NULL);
    uint64_t base = 0;
    if (o->flags & EMU_OPD_F_BASE_REG) base = row_of(c, o)[lane];
    else if (o->flags & EMU_OPD_F_BASE_SYM) base = emu_symbol_address(c, (int32_t)o->row, NULL);
    return base + o->imm;
}

/* Whether special register sreg can differ between the lanes of a warp (emu_sreg_value). */
static bool sreg_per_lane(uint32_t sreg)
{
    return sreg == PTX_SREG_TID || sreg == PTX_SREG_LANEID ||
           (sreg >= PTX_SREG_LANEMASK_EQ && sreg <= PTX_SREG_LANEMASK_GT);
}

const uint64_t *emu_src_any(emu_ctx *c, const emu_opd *o, uint8_t t, uint64_t buf[EMU_WARP_SIZE])
{
    unsigned bits = emu_type_bits[t];
    switch (o->kind) {
    case EMU_OPD_REG:
        if (t != PTX_TYPE_PRED && (bits == 0 || bits >= 64 || bits >= o->bits))
            return row_of(c, o);
        if (t != PTX_TYPE_PRED) {
            const uint64_t *row = row_of(c, o);
            uint64_t m = emu_mask_bits(bits);
            for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = row[l] & m;
            return buf;
        }
        break;
    case EMU_OPD_PRED: {
        uint32_t m = (uint32_t)row_of(c, o)[0];
        if (t == PTX_TYPE_PRED && (o->flags & EMU_OPD_F_NEG)) m = ~m;
        for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = (m >> l) & 1;
        return buf;
    }
    case EMU_OPD_IMM: {
        uint64_t v = t == o->type ? o->imm : emu_imm_convert((uint8_t)o->row, o->raw, t);
        /* (unrolled: an immediate source of every warp instruction that has one) */
        _Pragma("GCC unroll 32") for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = v;
        return buf;
    }
    case EMU_OPD_SYM: {
        uint64_t v = read_lane(c, o, 0, t);
        for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = v;
        return buf;
    }
    case EMU_OPD_SREG:
        /* %tid, %laneid and the lane masks differ per lane; every other special register is the
         * warp's, CTA's or launch's (a clock reads the time the warp set, the same for every
         * lane): read once. %tid straight from the lanes' indices (the cycle model's
         * interpreter reads it in every warp's first instructions). */
        if (o->row == PTX_SREG_TID) {
            const emu_dim3 *tid = c->w->tid;
            uint64_t m = bits && bits < 64 ? emu_mask_bits(bits) : ~UINT64_C(0);
            for (int l = 0; l < EMU_WARP_SIZE; l++)
                buf[l] = (o->type == 0 ? tid[l].x : o->type == 1 ? tid[l].y
                                                  : o->type == 2 ? tid[l].z : 0) & m;
            return buf;
        }
        if (!sreg_per_lane(o->row)) {
            uint64_t v = read_lane(c, o, 0, t);
            for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = v;
            return buf;
        }
        break;
    default:
        break;
    }
    for (int l = 0; l < EMU_WARP_SIZE; l++) buf[l] = read_lane(c, o, l, t);
    return buf;
}

uint32_t emu_src_pred(emu_ctx *c, const emu_opd *o)
{
    if (o->kind == EMU_OPD_PRED)
        return (uint32_t)row_of(c, o)[0] ^ ((o->flags & EMU_OPD_F_NEG) ? ~0u : 0u);
    uint32_t m = 0;
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        if (read_lane(c, o, l, PTX_TYPE_PRED)) m |= 1u << l;
    return m;
}

static void put_lane(emu_ctx *c, const emu_opd *o, int lane, uint64_t v, uint8_t t)
{
    switch (o->kind) {
    case EMU_OPD_REG: {
        unsigned rbits = o->bits == 128 ? 64 : o->bits, tbits = emu_type_bits[t];
        uint64_t x;
        if (t == PTX_TYPE_PRED) x = v & 1;
        else if (emu_is_signed(t)) x = (uint64_t)emu_sext(v, tbits) & emu_mask_bits(rbits);
        else x = v & emu_mask_bits(tbits < rbits ? tbits : rbits);
        row_of(c, o)[lane] = x;
        break;
    }
    case EMU_OPD_PRED: {
        uint64_t *row = row_of(c, o);
        row[0] = (row[0] & ~(UINT64_C(1) << lane)) | ((v & 1) << lane);
        break;
    }
    case EMU_OPD_VEC: {
        const emu_opd *e = &c->code->pool[o->row];
        if (o->imm == 1) {
            put_lane(c, e, lane, v, t);   /* {%r} is %r */
            break;
        }
        unsigned bits = emu_type_bits[t];
        unsigned n = o->imm ? (unsigned)o->imm : 1, ew = (bits ? bits : 64) / n;
        uint8_t et = ew == 8 ? PTX_TYPE_B8 : ew == 16 ? PTX_TYPE_B16 : ew == 32 ? PTX_TYPE_B32
                                                                                  : PTX_TYPE_B64;
        for (unsigned i = 0; i < n && i * ew < 64; i++)
            put_lane(c, &e[i], lane, (v >> (i * ew)) & emu_mask_bits(ew), et);
        break;
    }
    default:
        break;   /* a sink (_) takes nothing */
    }
}

/* The bits of register o's row that a value of type t keeps, and whether it is sign-extended
 * to the row's width first (*sx). */
static inline uint64_t row_put_mask(const emu_opd *o, uint8_t t, bool *sx)
{
    unsigned rbits = o->bits == 128 ? 64 : o->bits, tbits = emu_type_bits[t];
    *sx = emu_is_signed(t) && tbits < rbits && t != PTX_TYPE_PRED;
    return t == PTX_TYPE_PRED ? 1 : emu_mask_bits(*sx ? rbits : (tbits < rbits ? tbits : rbits));
}

void emu_put(emu_ctx *c, const emu_opd *o, uint8_t t, const uint64_t v[EMU_WARP_SIZE])
{
    if (o->kind == EMU_OPD_REG) {
        unsigned tbits = emu_type_bits[t];
        uint64_t *row = row_of(c, o);
        bool sx;
        uint64_t m = row_put_mask(o, t, &sx);
        if (c->mask == 0xffffffffu && !sx) {
            for (int l = 0; l < EMU_WARP_SIZE; l++) row[l] = v[l] & m;
            return;
        }
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            row[l] = sx ? (uint64_t)emu_sext(v[l], tbits) & m : v[l] & m;
        }
        return;
    }
    if (o->kind == EMU_OPD_PRED) {
        uint32_t bits = 0;
        for (int l = 0; l < EMU_WARP_SIZE; l++) bits |= (uint32_t)(v[l] & 1) << l;
        emu_put_pred(c, o, bits);
        return;
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        put_lane(c, o, l, v[l], t);
    }
}

void emu_put_uniform(emu_ctx *c, const emu_opd *o, uint8_t t, uint64_t x)
{
    if (o->kind == EMU_OPD_REG) {
        /* the lane value emu_put writes, made once */
        uint64_t *row = row_of(c, o);
        bool sx;
        uint64_t m = row_put_mask(o, t, &sx);
        uint64_t y = sx ? (uint64_t)emu_sext(x, emu_type_bits[t]) & m : x & m;
        if (c->mask == 0xffffffffu) {
            /* (unrolled: GCC's -O2 keeps it a loop of 16 two-lane stores, with its counter
             * and branch, half of this function's instructions on ld.param's path) */
            _Pragma("GCC unroll 32") for (int l = 0; l < EMU_WARP_SIZE; l++) row[l] = y;
            return;
        }
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) row[__builtin_ctz(mk)] = y;
        return;
    }
    uint64_t v[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = x;
    emu_put(c, o, t, v);
}

void emu_put_pred(emu_ctx *c, const emu_opd *o, uint32_t bits)
{
    if (o->kind == EMU_OPD_PRED) {
        uint64_t *row = row_of(c, o);
        row[0] = (row[0] & ~(uint64_t)c->mask) | (bits & c->mask);
        return;
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        put_lane(c, o, l, (bits >> l) & 1, PTX_TYPE_PRED);
    }
}
