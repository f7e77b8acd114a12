/* sem_inline.c: the one external definition of each `inline` function of sem.h (C99's inline
 * model): handlers inline the header's definitions, and the JIT calls these by address. A
 * declaration with `extern` here is all a new inline function needs. */
#include "emulator/sem/sem.h"

/* generic-address windows */
extern uint8_t sem_generic_space(uint64_t v, uint64_t *offset);
extern uint64_t sem_generic_address(uint8_t sp, uint64_t offset);
extern uint64_t sem_strip_window(uint8_t sp, uint64_t v);

/* types */
extern uint64_t emu_mask_bits(unsigned bits);
extern int64_t emu_sext(uint64_t v, unsigned bits);
extern bool emu_is_signed(uint8_t t);
extern bool emu_is_float(uint8_t t);
extern float emu_as_f32(uint64_t b);
extern uint64_t emu_f32_bits(float f);
extern double emu_as_f64(uint64_t b);
extern uint64_t emu_f64_bits(double d);

/* float family */
extern bool sem_float_nearest(int rnd);
extern float emu_ftz32(float x);
extern float emu_sat_f32(float x);
extern double emu_sat_f64(double x);
extern float sem_float_in_f32(uint64_t bits, bool ftz);
extern uint64_t sem_float_out_f32(float r, bool ftz, bool sat);
extern uint64_t sem_float_out_f64(double r, bool sat);
extern uint64_t sem_float_add_f32(uint64_t a, uint64_t b, bool ftz, bool sat);
extern uint64_t sem_float_sub_f32(uint64_t a, uint64_t b, bool ftz, bool sat);
extern uint64_t sem_float_mul_f32(uint64_t a, uint64_t b, bool ftz, bool sat);
extern uint64_t sem_float_fma_f32(uint64_t a, uint64_t b, uint64_t c, bool ftz, bool sat);
extern uint64_t sem_float_div_f32(uint64_t a, uint64_t b, bool ftz, bool sat);
extern uint64_t sem_float_rcp_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_sqrt_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_div_approx_f32(uint64_t a, uint64_t b, bool ftz, bool sat);
extern uint64_t sem_float_rcp_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_sqrt_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_rsqrt_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_sin_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_cos_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_lg2_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_ex2_approx_f32(uint64_t a, bool ftz, bool sat);
extern uint64_t sem_float_tanh_approx_f32(uint64_t a, bool ftz, bool sat);
extern float emu_min_f32(float a, float b, bool nan_mode);
extern float emu_max_f32(float a, float b, bool nan_mode);
extern double emu_min_f64(double a, double b, bool nan_mode);
extern double emu_max_f64(double a, double b, bool nan_mode);
extern uint64_t sem_float_min_f32(uint64_t a, uint64_t b, bool ftz, bool nan_mode);
extern uint64_t sem_float_max_f32(uint64_t a, uint64_t b, bool ftz, bool nan_mode);
extern uint64_t sem_float_abs_f32(uint64_t a, bool ftz);
extern uint64_t sem_float_neg_f32(uint64_t a, bool ftz);
extern uint64_t sem_float_copysign_f32(uint64_t a, uint64_t b);
extern bool sem_float_isnan_f64(uint64_t v);
extern uint64_t sem_float_nan_f64(uint64_t r, uint64_t x, uint64_t y, uint64_t z);
extern uint64_t sem_float_add_f64(uint64_t a, uint64_t b, bool sat);
extern uint64_t sem_float_sub_f64(uint64_t a, uint64_t b, bool sat);
extern uint64_t sem_float_mul_f64(uint64_t a, uint64_t b, bool sat);
extern uint64_t sem_float_fma_f64(uint64_t a, uint64_t b, uint64_t c, bool sat);
extern uint64_t sem_float_div_f64(uint64_t a, uint64_t b, bool sat);
extern uint64_t sem_float_rcp_f64(uint64_t a, bool sat);
extern uint64_t sem_float_sqrt_f64(uint64_t a, bool sat);
extern uint64_t sem_float_rcp_approx_ftz_f64(uint64_t a, bool sat);
extern uint64_t sem_float_rsqrt_approx_f64(uint64_t a, bool sat);
extern uint64_t sem_float_min_f64(uint64_t a, uint64_t b, bool nan_mode, bool sat);
extern uint64_t sem_float_max_f64(uint64_t a, uint64_t b, bool nan_mode, bool sat);
extern uint64_t sem_float_abs_f64(uint64_t a);
extern uint64_t sem_float_neg_f64(uint64_t a);
extern uint64_t sem_float_copysign_f64(uint64_t a, uint64_t b);

/* half family */
extern uint16_t sem_half_neg(uint16_t a);
extern uint16_t sem_half_abs(uint16_t a);
extern uint16_t sem_half_ftz(uint16_t h, bool bf);

/* conversion family */
extern double sem_cvt_round_integral(double x, int rnd);
extern uint64_t emu_float_to_int(double x, unsigned bits, bool is_signed, int rnd);
extern uint64_t sem_cvt_int_resize(uint64_t v, unsigned sbits, bool ssigned, unsigned dbits);
extern uint64_t sem_cvt_s32_to_f32(uint64_t v);
extern uint64_t sem_cvt_u32_to_f32(uint64_t v);
extern uint64_t sem_cvt_s32_to_f64(uint64_t v);
extern uint64_t sem_cvt_u32_to_f64(uint64_t v);
extern uint64_t sem_cvt_f32_to_int(uint64_t v, bool ftz, unsigned bits, bool is_signed, int rnd);
extern uint64_t sem_cvt_f32_to_f64(uint64_t v, bool ftz, bool sat);
extern uint64_t sem_cvt_f64_to_f32(uint64_t v, bool ftz, bool sat);
extern uint64_t sem_cvt_relu(uint8_t dtype, uint64_t r);
extern uint64_t sem_cvt_cvta(uint8_t sp, bool to, uint64_t v);
extern bool sem_cvt_isspacep(uint8_t sp, uint64_t v);

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
extern bool emu_cmp_float(int cmp, double a, double b);
extern bool emu_cmp_int(int cmp, uint64_t a, uint64_t b, bool is_signed, unsigned bits);
extern bool sem_cmp_f32(int cmp, uint64_t a, uint64_t b, bool ftz);
extern bool sem_cmp_f64(int cmp, uint64_t a, uint64_t b);
extern bool sem_cmp_combine(int boolop, bool r, bool c);
extern uint64_t sem_cmp_set_result(uint8_t dtype, bool r);
extern uint64_t sem_cmp_selp(bool p, uint64_t a, uint64_t b);
extern bool sem_cmp_slct_s32(uint64_t c);
extern bool sem_cmp_slct_f32(uint64_t c, bool ftz);

/* warp family */
extern unsigned sem_warp_shfl_src(int mode, unsigned lane, uint32_t b, uint32_t c, bool *valid);
extern uint32_t sem_warp_vote(int mode, uint32_t pred, uint32_t members);
extern uint32_t sem_warp_redux_step(int op, bool is_signed, uint32_t acc, uint32_t x);
extern unsigned sem_warp_elect(uint32_t members);

/* matrix family */
extern unsigned sem_mma_reg_bits(unsigned ebits);
extern unsigned sem_mma_regs(unsigned n, unsigned ebits);
extern void sem_mma_b16_pos(unsigned lane, unsigned h, bool trans, unsigned *row, unsigned *col);
