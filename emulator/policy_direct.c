/* policy_direct.c: the memory policy without determinism: loads, stores and atomics reach
 * device memory at once, lanes in order. */
#include "emulator/emu_internal.h"

#include <string.h>

static bool direct_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    (void)self;
    (void)w;
    switch (op->kind) {
    case EMU_MEM_LOAD:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy(op->data[l], (const void *)(uintptr_t)op->addr[l], op->size);
        }
        break;
    case EMU_MEM_STORE:
        for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy((void *)(uintptr_t)op->addr[l], op->data[l], op->size);
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
    }
    return false;
}

static emu_mem_policy direct = { "direct", direct_access, NULL, NULL };

emu_mem_policy *emu_direct_policy(void)
{
    return &direct;
}
