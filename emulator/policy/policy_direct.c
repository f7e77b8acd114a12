/* policy_direct.c: the memory policy without determinism: loads, stores and atomics reach
 * device memory at once, lanes in ascending order (so the highest lane wins a same-address
 * store, spec gpudet.md S3.4). */
#include "emulator/emu_internal.h"

#include <string.h>

/* Global memory is shared between host threads running warps at once: copy lane data with
 * relaxed atomic accesses of the access's natural size (addresses are aligned to it, the
 * executor checked), so a race in the program is a race in the model, not undefined
 * behaviour in the emulator. */
static void load_relaxed(void *dst, const void *src, unsigned size)
{
    uintptr_t a = (uintptr_t)src;
    switch (size) {
    case 1: *(uint8_t *)dst = __atomic_load_n((const uint8_t *)src, __ATOMIC_RELAXED); return;
    case 2:
        if (!(a & 1)) {
            uint16_t v = __atomic_load_n((const uint16_t *)src, __ATOMIC_RELAXED);
            memcpy(dst, &v, 2);
            return;
        }
        break;
    case 4:
        if (!(a & 3)) {
            uint32_t v = __atomic_load_n((const uint32_t *)src, __ATOMIC_RELAXED);
            memcpy(dst, &v, 4);
            return;
        }
        break;
    case 8:
    case 16:
        if (!(a & 7)) {
            for (unsigned i = 0; i < size; i += 8) {
                uint64_t v = __atomic_load_n((const uint64_t *)(a + i), __ATOMIC_RELAXED);
                memcpy((uint8_t *)dst + i, &v, 8);
            }
            return;
        }
        break;
    default: break;
    }
    for (unsigned i = 0; i < size; i++)
        ((uint8_t *)dst)[i] = __atomic_load_n((const uint8_t *)(a + i), __ATOMIC_RELAXED);
}

static void store_relaxed(void *dst, const void *src, unsigned size)
{
    uintptr_t a = (uintptr_t)dst;
    switch (size) {
    case 1: __atomic_store_n((uint8_t *)dst, *(const uint8_t *)src, __ATOMIC_RELAXED); return;
    case 2:
        if (!(a & 1)) {
            uint16_t v;
            memcpy(&v, src, 2);
            __atomic_store_n((uint16_t *)dst, v, __ATOMIC_RELAXED);
            return;
        }
        break;
    case 4:
        if (!(a & 3)) {
            uint32_t v;
            memcpy(&v, src, 4);
            __atomic_store_n((uint32_t *)dst, v, __ATOMIC_RELAXED);
            return;
        }
        break;
    case 8:
    case 16:
        if (!(a & 7)) {
            for (unsigned i = 0; i < size; i += 8) {
                uint64_t v;
                memcpy(&v, (const uint8_t *)src + i, 8);
                __atomic_store_n((uint64_t *)(a + i), v, __ATOMIC_RELAXED);
            }
            return;
        }
        break;
    default: break;
    }
    for (unsigned i = 0; i < size; i++)
        __atomic_store_n((uint8_t *)(a + i), ((const uint8_t *)src)[i], __ATOMIC_RELAXED);
}

static bool direct_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    (void)self;
    (void)w;
    switch (op->kind) {
    case EMU_MEM_LOAD:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            load_relaxed(op->data[l], (const void *)(uintptr_t)op->addr[l], op->size);
        }
        break;
    case EMU_MEM_STORE:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            store_relaxed((void *)(uintptr_t)op->addr[l], op->data[l], op->size);
        }
        break;
    case EMU_MEM_ATOMIC:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            emu_atomic_apply(op->instr, (void *)(uintptr_t)op->addr[l], op->operand_b[l],
                             op->operand_c ? op->operand_c[l] : NULL, op->data[l]);
        }
        break;
    case EMU_MEM_FENCE:
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        break;
    default: break;   /* EMU_MEM_CALL: performed at once */
    }
    return false;
}

static emu_mem_policy direct = { "direct", direct_access, NULL, NULL };

emu_mem_policy *emu_direct_policy(void)
{
    return &direct;
}
