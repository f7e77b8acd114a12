/* sem_int.c: the integer family's rules that are too large to inline into lane loops: fns,
 * prmt and its modes, dp4a/dp2a, bmsk, szext, and the SIMD16 pairs (u16x2/s16x2, PTX ISA 8.0).
 * The small, hot rules are inline in sem.h (external definitions in sem_inline.c). */
#include "emulator/sem/sem.h"

uint64_t sem_int_fns(uint64_t mask, uint64_t base, uint64_t offset)
{
    uint32_t m = (uint32_t)mask;
    int b = (int)(base & 31);
    int off = (int)emu_sext(offset, 32);
    if (off == 0)
        return m >> b & 1 ? (uint64_t)b : 0xffffffffu;
    int cnt = 0;
    if (off > 0) {
        for (int i = b; i < 32; i++)
            if (m >> i & 1 && ++cnt == off) return (uint64_t)i;
    } else {
        for (int i = b; i >= 0; i--)
            if (m >> i & 1 && ++cnt == -(int64_t)off) return (uint64_t)i;
    }
    return 0xffffffffu;
}

uint64_t sem_int_prmt(uint64_t a, uint64_t b, uint64_t sel, int mode)
{
    uint64_t bytes = (uint64_t)(uint32_t)a | ((uint64_t)(uint32_t)b << 32);
#define BYTE(i) ((uint32_t)(bytes >> (8 * ((i) & 7))) & 0xff)
    uint32_t s = (uint32_t)sel, r = 0, idx[4];
    switch (mode) {
    case PTX_SFX_F4E: {
        uint32_t k = s & 3;
        for (int i = 0; i < 4; i++) idx[i] = (k + (uint32_t)i) & 7;
        break;
    }
    case PTX_SFX_B4E: {
        uint32_t k = s & 3;
        for (int i = 0; i < 4; i++) idx[i] = (k - (uint32_t)i + 8) & 7;
        break;
    }
    case PTX_SFX_RC8:
        for (int i = 0; i < 4; i++) idx[i] = s & 3;
        break;
    case PTX_SFX_ECL: {
        uint32_t k = s & 3;
        for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i >= k ? (uint32_t)i : k;
        break;
    }
    case PTX_SFX_ECR: {
        uint32_t k = s & 3;
        for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i <= k ? (uint32_t)i : k;
        break;
    }
    case PTX_SFX_RC16: {
        uint32_t k = s & 1;
        idx[0] = 2 * k; idx[1] = 2 * k + 1; idx[2] = 2 * k; idx[3] = 2 * k + 1;
        break;
    }
    default:
        for (int i = 0; i < 4; i++) {
            uint32_t nib = (s >> (4 * i)) & 0xf;
            uint32_t v = BYTE(nib & 7);
            if (nib & 8) v = (v & 0x80) ? 0xff : 0;
            r |= v << (8 * i);
        }
        return r;
    }
    for (int i = 0; i < 4; i++) r |= BYTE(idx[i]) << (8 * i);
    return r;
#undef BYTE
}

/* c + the n products of a's elements (aw bits each) with b's bytes from byte b0 on. */
static uint64_t dot(uint64_t a, uint64_t b, uint64_t c, bool a_sg, bool b_sg, unsigned n,
                    unsigned aw, unsigned b0)
{
    int64_t acc = (a_sg || b_sg) ? emu_sext(c, 32) : (int64_t)c;
    for (unsigned i = 0; i < n; i++) {
        uint64_t xa = (a >> (aw * i)) & emu_mask_bits(aw);
        int64_t x = a_sg ? emu_sext(xa, aw) : (int64_t)xa;
        uint64_t yb = (b >> (8 * (b0 + i))) & 0xff;
        int64_t y = b_sg ? emu_sext(yb, 8) : (int64_t)yb;
        acc += x * y;
    }
    return (uint64_t)acc & 0xffffffffu;
}

uint64_t sem_int_dp4a(uint64_t a, uint64_t b, uint64_t c, bool a_sg, bool b_sg)
{
    return dot(a, b, c, a_sg, b_sg, 4, 8, 0);
}

uint64_t sem_int_dp2a(uint64_t a, uint64_t b, uint64_t c, bool a_sg, bool b_sg, bool hi)
{
    return dot(a, b, c, a_sg, b_sg, 2, 16, hi ? 2 : 0);
}

uint64_t sem_int_bmsk(uint64_t pos, uint64_t len, bool wrap)
{
    uint64_t p = wrap ? pos & 31 : (pos > 32 ? 32 : pos);
    uint64_t n = wrap ? len & 31 : (len > 32 ? 32 : len);
    return p >= 32 ? 0 : (emu_mask_bits((unsigned)n) << p) & 0xffffffffu;
}

uint64_t sem_int_szext(uint64_t a, uint64_t n, bool wrap, bool sg)
{
    unsigned k = wrap ? (unsigned)(n & 31) : (n > 32 ? 32 : (unsigned)n);
    if (k == 0) return 0;
    if (k >= 32) return a & 0xffffffffu;
    return sg ? (uint64_t)emu_sext(a, k) & 0xffffffffu : a & emu_mask_bits(k);
}

/* ---- SIMD16 */

/* The two 16-bit lanes of a and b through op, .relu applied to each result. */
static uint64_t halves(uint64_t a, uint64_t b, int op, bool sg, bool relu)
{
    uint32_t d = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t x = (uint16_t)(a >> (16 * h)), y = (uint16_t)(b >> (16 * h));
        int32_t sx = (int16_t)x, sy = (int16_t)y;
        uint16_t r;
        switch (op) {
        case PTX_OP_ADD: r = (uint16_t)(x + y); break;
        case PTX_OP_SUB: r = (uint16_t)(x - y); break;
        case PTX_OP_MIN: r = sg ? (uint16_t)(sx < sy ? sx : sy) : (x < y ? x : y); break;
        default:         r = sg ? (uint16_t)(sx > sy ? sx : sy) : (x > y ? x : y); break;
        }
        if (relu && (int16_t)r < 0)
            r = 0;
        d |= (uint32_t)r << (16 * h);
    }
    return d;
}

uint64_t sem_simd_add16x2(uint64_t a, uint64_t b) { return halves(a, b, PTX_OP_ADD, false, false); }
uint64_t sem_simd_sub16x2(uint64_t a, uint64_t b) { return halves(a, b, PTX_OP_SUB, false, false); }
uint64_t sem_simd_min16x2(uint64_t a, uint64_t b, bool sg, bool relu)
{
    return halves(a, b, PTX_OP_MIN, sg, relu);
}
uint64_t sem_simd_max16x2(uint64_t a, uint64_t b, bool sg, bool relu)
{
    return halves(a, b, PTX_OP_MAX, sg, relu);
}
