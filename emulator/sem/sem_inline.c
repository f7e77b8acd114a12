/* sem_inline.c: the one external definition of each `inline` function of sem.h (C99's inline
 * model): handlers inline the header's definitions, and the JIT calls these by address. A
 * declaration with `extern` here is all a new inline function needs. */
#include "emulator/sem/sem.h"

/* generic-address windows */
extern uint8_t sem_generic_space(uint64_t v, uint64_t *offset);
extern uint64_t sem_generic_address(uint8_t sp, uint64_t offset);
extern uint64_t sem_strip_window(uint8_t sp, uint64_t v);

/* type helpers */
extern uint64_t emu_mask_bits(unsigned bits);
extern int64_t emu_sext(uint64_t v, unsigned bits);

/* integer family */
extern uint64_t sem_int_add(uint64_t a, uint64_t b, unsigned bits);
extern uint64_t sem_int_sub(uint64_t a, uint64_t b, unsigned bits);
extern uint64_t sem_int_add_sat(uint64_t a, uint64_t b, unsigned bits);
extern uint64_t sem_int_sub_sat(uint64_t a, uint64_t b, unsigned bits);
extern uint64_t sem_int_add_cc(uint64_t a, uint64_t b, unsigned carry_in, unsigned bits,
                               unsigned *carry_out);
extern uint64_t sem_int_sub_cc(uint64_t a, uint64_t b, unsigned borrow_in, unsigned bits,
                               unsigned *borrow_out);
extern unsigned sem_int_cf_from_borrow(unsigned borrow);
extern unsigned sem_int_borrow_from_cf(unsigned cf);
extern uint64_t sem_int_mul_lo(uint64_t a, uint64_t b, unsigned bits);
extern uint64_t sem_int_mul_hi(uint64_t a, uint64_t b, unsigned bits, bool sg);
extern uint64_t sem_int_product64(uint64_t a, uint64_t b, unsigned bits, bool sg);
extern uint64_t sem_int_mul_wide(uint64_t a, uint64_t b, unsigned bits, bool sg);
extern uint64_t sem_int_mad_lo(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                               unsigned bits, unsigned *carry_out);
extern uint64_t sem_int_mad_hi(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                               unsigned bits, bool sg, unsigned *carry_out);
extern uint64_t sem_int_mad_hi_sat(uint64_t a, uint64_t b, uint64_t c);
extern uint64_t sem_int_mad_wide(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                                 unsigned bits, bool sg, unsigned *carry_out);
extern int64_t sem_int_mul24_product(uint64_t a, uint64_t b, bool sg);
extern uint64_t sem_int_mul24(uint64_t a, uint64_t b, bool hi, bool sg);
extern uint64_t sem_int_mad24(uint64_t a, uint64_t b, uint64_t c, bool hi, bool sg, bool sat,
                              unsigned bits);
extern uint64_t sem_int_sad(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool sg);
extern uint64_t sem_int_div(uint64_t a, uint64_t b, unsigned bits, bool sg);
extern uint64_t sem_int_rem(uint64_t a, uint64_t b, unsigned bits, bool sg);
extern uint64_t sem_int_min(uint64_t a, uint64_t b, unsigned bits, bool sg, bool relu);
extern uint64_t sem_int_max(uint64_t a, uint64_t b, unsigned bits, bool sg, bool relu);
extern uint64_t sem_int_and(uint64_t a, uint64_t b);
extern uint64_t sem_int_or(uint64_t a, uint64_t b);
extern uint64_t sem_int_xor(uint64_t a, uint64_t b);
extern uint64_t sem_int_not(uint64_t a, unsigned bits);
extern uint64_t sem_int_cnot(uint64_t a);
extern uint64_t sem_int_neg(uint64_t a, unsigned bits);
extern uint64_t sem_int_abs(uint64_t a, unsigned bits);
extern uint64_t sem_int_shl(uint64_t a, uint64_t s, unsigned bits);
extern uint64_t sem_int_shr(uint64_t a, uint64_t s, unsigned bits, bool sg);
extern uint64_t sem_int_popc(uint64_t a);
extern uint64_t sem_int_clz(uint64_t a, unsigned bits);
extern uint64_t sem_int_brev(uint64_t a, unsigned bits);
extern uint64_t sem_int_bfind(uint64_t a, unsigned bits, bool sg, bool shiftamt);
extern uint64_t sem_int_bfe(uint64_t a, uint64_t pos, uint64_t len, unsigned bits, bool sg);
extern uint64_t sem_int_bfi(uint64_t a, uint64_t b, uint64_t pos, uint64_t len, unsigned bits);
extern uint64_t sem_int_shf(uint64_t a, uint64_t b, uint64_t n, bool left, bool wrap);
extern uint64_t sem_int_lop3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut);

/* comparison family */

/* warp family */
