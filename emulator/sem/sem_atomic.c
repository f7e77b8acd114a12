/* sem_atomic.c: the read-modify-write of one lane of atom/red, the one definition every memory
 * policy uses. Host atomics make it safe when several host threads run warps at once. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>

/* The new value from the old one; bits = operand width. */
static uint64_t combine(int aop, uint8_t t, unsigned bits, uint64_t old, uint64_t b, uint64_t c)
{
    uint64_t m = emu_mask_bits(bits);
    bool sgn = emu_is_signed(t);
    switch (aop) {
    case PTX_SFX_EXCH: return b;
    case PTX_SFX_CAS: return (old & m) == (b & m) ? c : old;
    case PTX_SFX_AND: return old & b;
    case PTX_SFX_OR: return old | b;
    case PTX_SFX_XOR: return old ^ b;
    case PTX_SFX_INC: return (old & m) >= (b & m) ? 0 : (old + 1) & m;
    case PTX_SFX_DEC: return ((old & m) == 0 || (old & m) > (b & m)) ? b : (old - 1) & m;
    case PTX_SFX_ADD:
        switch (t) {
        case PTX_TYPE_F32: {
            float r = emu_ftz32(emu_ftz32(emu_as_f32(old)) + emu_ftz32(emu_as_f32(b)));
            return emu_f32_bits(r);
        }
        case PTX_TYPE_F64: return emu_f64_bits(emu_as_f64(old) + emu_as_f64(b));
        case PTX_TYPE_F16: return emu_half_op(PTX_OP_ADD, false, (uint16_t)old, (uint16_t)b, 0,
                                              PTX_RND_RN, false, false, false, false);
        case PTX_TYPE_BF16: return emu_half_op(PTX_OP_ADD, true, (uint16_t)old, (uint16_t)b, 0,
                                               PTX_RND_RN, false, false, false, false);
        case PTX_TYPE_F16X2:
        case PTX_TYPE_BF16X2: {
            bool bf = t == PTX_TYPE_BF16X2;
            uint16_t lo = emu_half_op(PTX_OP_ADD, bf, (uint16_t)old, (uint16_t)b, 0, PTX_RND_RN,
                                      false, false, false, false);
            uint16_t hi = emu_half_op(PTX_OP_ADD, bf, (uint16_t)(old >> 16), (uint16_t)(b >> 16),
                                      0, PTX_RND_RN, false, false, false, false);
            return (uint32_t)lo | ((uint32_t)hi << 16);
        }
        default: return (old + b) & m;
        }
    case PTX_SFX_MIN:
    case PTX_SFX_MAX: {
        bool mn = aop == PTX_SFX_MIN;
        switch (t) {
        case PTX_TYPE_F32: {
            float x = emu_as_f32(old), y = emu_as_f32(b);
            return emu_f32_bits(mn ? emu_min_f32(x, y, false) : emu_max_f32(x, y, false));
        }
        case PTX_TYPE_F64: {
            double x = emu_as_f64(old), y = emu_as_f64(b);
            return emu_f64_bits(mn ? emu_min_f64(x, y, false) : emu_max_f64(x, y, false));
        }
        case PTX_TYPE_F16: case PTX_TYPE_BF16:
            return emu_half_op(mn ? PTX_OP_MIN : PTX_OP_MAX, t == PTX_TYPE_BF16, (uint16_t)old,
                               (uint16_t)b, 0, PTX_RND_RN, false, false, false, false);
        default:
            if (sgn) {
                int64_t x = emu_sext(old, bits), y = emu_sext(b, bits);
                return (uint64_t)(mn ? (x < y ? x : y) : (x > y ? x : y)) & m;
            } else {
                uint64_t x = old & m, y = b & m;
                return mn ? (x < y ? x : y) : (x > y ? x : y);
            }
        }
    }
    default: return old;
    }
}

void emu_atomic_apply(const ptx_instr *in, void *addr, const void *b, const void *c, void *old)
{
    uint8_t t = PTX_TYPE_NONE;
    for (int i = 0; i < in->ntypes; i++) t = in->types[i];
    unsigned bits = emu_type_bits[t];
    int aop = in->aop;
    uint64_t bv = 0, cv = 0;
    if (bits <= 64) {
        memcpy(&bv, b, bits / 8);
        if (c) memcpy(&cv, c, bits / 8);
    }
    if (bits == 64) {
        uint64_t *p = addr, o = __atomic_load_n(p, __ATOMIC_RELAXED), n;
        do {
            n = combine(aop, t, 64, o, bv, cv);
        } while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        memcpy(old, &o, 8);
    } else if (bits == 32) {
        uint32_t *p = addr, o = __atomic_load_n(p, __ATOMIC_RELAXED), n;
        do {
            n = (uint32_t)combine(aop, t, 32, o, bv, cv);
        } while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        memcpy(old, &o, 4);
    } else if (bits == 16) {
        /* a 16-bit atomic: CAS on the aligned 32-bit word that holds it */
        uintptr_t a = (uintptr_t)addr;
        uint32_t *p = (uint32_t *)(a & ~(uintptr_t)3);
        unsigned sh = (unsigned)(a & 2) * 8;
        uint32_t o = __atomic_load_n(p, __ATOMIC_RELAXED), n;
        uint16_t o16;
        do {
            o16 = (uint16_t)(o >> sh);
            uint16_t n16 = (uint16_t)combine(aop, t, 16, o16, bv, cv);
            n = (o & ~(0xffffu << sh)) | ((uint32_t)n16 << sh);
        } while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        memcpy(old, &o16, 2);
    } else if (bits == 128) {
        /* atom.exch/cas.b128: no host 128-bit CAS everywhere; a global lock keeps it atomic */
        static pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&lk);
        uint8_t o[16], bb[16], cc[16] = { 0 };
        memcpy(o, addr, 16);
        memcpy(bb, b, 16);
        if (c) memcpy(cc, c, 16);
        if (aop == PTX_SFX_EXCH) memcpy(addr, bb, 16);
        else if (aop == PTX_SFX_CAS && memcmp(o, bb, 16) == 0) memcpy(addr, cc, 16);
        memcpy(old, o, 16);
        pthread_mutex_unlock(&lk);
    }
}
