/* atomic_apply.c: the read-modify-write of one piece of atom/red, the one definition every
 * memory policy uses: the new value comes from sem_atomic_combine, and a host atomic
 * (compare-and-swap on the location, or on the aligned word around a 16-bit one) keeps it atomic
 * when several host threads run warps at once. */
#include "emulator/emu_internal.h"

#include <pthread.h>
#include <string.h>

void emu_atomic_apply(uint16_t aop, uint8_t t, void *addr, const void *b, const void *c,
                      void *old)
{
    unsigned bits = emu_type_bits[t];
    uint64_t bv = 0, cv = 0;
    if (bits <= 64) {
        memcpy(&bv, b, bits / 8);
        if (c) memcpy(&cv, c, bits / 8);
    }
    if (bits == 64) {
        uint64_t *p = addr, o = __atomic_load_n(p, __ATOMIC_RELAXED), n;
        do {
            n = sem_atomic_combine(aop, t, o, bv, cv);
        } while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        memcpy(old, &o, 8);
    } else if (bits == 32) {
        uint32_t *p = addr, o = __atomic_load_n(p, __ATOMIC_RELAXED), n;
        do {
            n = (uint32_t)sem_atomic_combine(aop, t, o, bv, cv);
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
            uint16_t n16 = (uint16_t)sem_atomic_combine(aop, t, o16, bv, cv);
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
