/* sem_inline.c: the one external definition of each `inline` function of sem.h (C99's inline
 * model): handlers inline the header's definitions, and the JIT calls these by address. A
 * declaration with `extern` here is all a new inline function needs. */
#include "emulator/sem/sem.h"

/* generic-address windows */
extern uint8_t sem_generic_space(uint64_t v, uint64_t *offset);
extern uint64_t sem_generic_address(uint8_t sp, uint64_t offset);
extern uint64_t sem_strip_window(uint8_t sp, uint64_t v);

/* integer family */

/* comparison family */

/* warp family */
extern unsigned sem_warp_shfl_src(int mode, unsigned lane, uint32_t b, uint32_t c, bool *valid);
extern uint32_t sem_warp_vote(int mode, uint32_t pred, uint32_t members);
extern uint32_t sem_warp_redux_step(int op, bool is_signed, uint32_t acc, uint32_t x);
extern unsigned sem_warp_elect(uint32_t members);

/* matrix family */
extern unsigned sem_mma_reg_bits(unsigned ebits);
extern unsigned sem_mma_regs(unsigned n, unsigned ebits);
extern void sem_mma_b16_pos(unsigned lane, unsigned h, bool trans, unsigned *row, unsigned *col);
