/* policy_direct.c: the memory policy without determinism: loads, stores and atomics reach
 * device memory at once, lanes in ascending order (so the highest lane wins a same-address
 * store, spec gpudet.md S3.4); the end of every chain of composed policies. */
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
    default:
        if (!(a & 7) && !(size & 7)) {
            for (unsigned i = 0; i < size; i += 8) {
                uint64_t v = __atomic_load_n((const uint64_t *)(a + i), __ATOMIC_RELAXED);
                memcpy((uint8_t *)dst + i, &v, 8);
            }
            return;
        }
        break;
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
    default:
        if (!(a & 7) && !(size & 7)) {
            for (unsigned i = 0; i < size; i += 8) {
                uint64_t v;
                memcpy(&v, (const uint8_t *)src + i, 8);
                __atomic_store_n((uint64_t *)(a + i), v, __ATOMIC_RELAXED);
            }
            return;
        }
        break;
    }
    for (unsigned i = 0; i < size; i++)
        __atomic_store_n((uint8_t *)(a + i), ((const uint8_t *)src)[i], __ATOMIC_RELAXED);
}

void emu_mem_perform(const emu_mem_op *op)
{
    switch (op->kind) {
    case EMU_MEM_LOAD:
        for (uint32_t i = 0; i < op->nseg; i++) {
            const emu_mem_seg *g = &op->seg[i];
            load_relaxed(op->data + g->off, (const void *)(uintptr_t)g->addr, g->size);
        }
        break;
    case EMU_MEM_STORE:
        /* pieces come in ascending lane order: the highest lane wins a byte two lanes store */
        for (uint32_t i = 0; i < op->nseg; i++) {
            const emu_mem_seg *g = &op->seg[i];
            store_relaxed((void *)(uintptr_t)g->addr, op->data + g->off, g->size);
        }
        break;
    case EMU_MEM_ATOMIC:
        for (uint32_t i = 0; i < op->nseg; i++) {
            const emu_mem_seg *g = &op->seg[i];
            emu_atomic_apply(op->aop, op->atype, (void *)(uintptr_t)g->addr,
                             op->operand_b + g->off, op->operand_c ? op->operand_c + g->off : NULL,
                             op->data + g->off);
        }
        break;
    case EMU_MEM_FENCE:
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        break;
    default: break;   /* EMU_MEM_CALL: performed at once */
    }
}

static emu_mem_outcome direct_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    (void)self;
    (void)w;
    /* shared and local accesses reach a policy only to be observed */
    if (op->space == PTX_SPACE_GLOBAL) emu_mem_perform(op);
    return EMU_MEM_DONE;
}

static emu_mem_policy direct = { .name = "direct", .access = direct_access };

emu_mem_policy *emu_direct_policy(void)
{
    return &direct;
}

emu_mem_outcome emu_policy_forward(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    emu_mem_policy *next = self && self->next ? self->next : &direct;
    return next->access(next, w, op);
}
