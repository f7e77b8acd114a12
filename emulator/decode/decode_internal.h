/* decode_internal.h: the pieces of decode/ shared by its files. */
#ifndef PTXSIM_EMULATOR_DECODE_DECODE_INTERNAL_H
#define PTXSIM_EMULATOR_DECODE_DECODE_INTERNAL_H

#include "emulator/decode/decode.h"
#include "emulator/emu.h"

/* classify.c: waits[i] = how many of fn's first i instructions can wait on memory (ninstrs + 1
 * entries, malloc'd; NULL when memory runs out), and the op class and EMU_UOP_* flags of one
 * instruction given that table. */
uint32_t *emu_memory_waits(const ptx_function *fn);
void emu_classify(const ptx_module *m, const ptx_function *fn, const ptx_instr *in,
                  const uint32_t *waits, emu_uop *u);
/* fma_contraction.c: marks the add/sub µops that execute fused with the mul feeding them. */
bool emu_contract_fma(emu_code *code);
/* Calls pair(ctx, mul, add, side) for every add/sub of fn that contracts with the mul feeding
 * its operand `side` (1 or 2), in instruction order, until pair returns false; false then, or
 * when memory runs out. */
bool emu_fma_pairs(const ptx_function *fn,
                   bool (*pair)(void *ctx, uint32_t mul, uint32_t add, int side), void *ctx);

#endif
