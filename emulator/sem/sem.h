/* sem.h: instruction semantics as pure functions on values, per lane: the one semantic source.
 *
 * Every per-lane rule of the ISA lives here and nowhere else: integer and bit operations,
 * compares and selects, f32/f64 with their NaN and ftz rules, min/max variants, conversions,
 * half and fp8 formats, video and SIMD16, the combine step of atomics, warp-level shuffles,
 * votes, matches and reductions, generic-address windows, special-register values. The
 * interpreter's handlers (emulator/interp/) are operand plumbing around these functions, and
 * the JIT calls the same functions from generated code, so the executors agree bit for bit by
 * construction.
 *
 * Conventions:
 * - Pure: a function reads only its arguments and writes only its result (and out-parameters
 *   it names, such as a carry); no emulator state, nothing global except the host rounding
 *   mode, which the rules that round in it read: the caller sets it once per instruction
 *   (emu_round_enter/leave, see the float family). This header includes nothing of
 *   the emulator (only the frontend's vocabulary: ptx_type, ptx_round, ptx_cmp, ...).
 * - Values travel as the type's bits in a uint64_t (or as float/double where that is the
 *   natural form), modifiers as plain arguments (rounding mode, ftz, sat, bit width, signed).
 * - Small rules that the interpreter runs in tight lane loops are `inline` definitions in this
 *   header; sem_inline.c gives each its one external definition (C99 inline model), so handlers
 *   inline them and the JIT can call them by address. The rest live in sem_<family>.c.
 * - New functions are named sem_<family>_<operation>; older ones keep their emu_ names.
 */
#ifndef PTXSIM_EMULATOR_SEM_H
#define PTXSIM_EMULATOR_SEM_H

#include "frontend/ptx.h"

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- generic-address windows: a generic address tells its space (sem_space.c) */

/* Windows above the 47-bit user address space: shared, local and param addresses are offsets
 * inside their window; everything below is global (device) memory. */
#define EMU_SHARED_WINDOW UINT64_C(0x0001000000000000)
#define EMU_LOCAL_WINDOW  UINT64_C(0x0002000000000000)
#define EMU_PARAM_WINDOW  UINT64_C(0x0003000000000000)
#define EMU_FUNC_WINDOW   UINT64_C(0x0004000000000000)
#define EMU_WINDOW_SIZE   UINT64_C(0x0001000000000000)

/* The space of generic address v (PTX_SPACE_SHARED, LOCAL, PARAM or GLOBAL) and its offset in
 * that space (for global: the address itself). */
inline uint8_t sem_generic_space(uint64_t v, uint64_t *offset)
{
    if (v >= EMU_SHARED_WINDOW && v < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) {
        *offset = v - EMU_SHARED_WINDOW;
        return PTX_SPACE_SHARED;
    }
    if (v >= EMU_LOCAL_WINDOW && v < EMU_LOCAL_WINDOW + EMU_WINDOW_SIZE) {
        *offset = v - EMU_LOCAL_WINDOW;
        return PTX_SPACE_LOCAL;
    }
    if (v >= EMU_PARAM_WINDOW && v < EMU_PARAM_WINDOW + EMU_WINDOW_SIZE) {
        *offset = v - EMU_PARAM_WINDOW;
        return PTX_SPACE_PARAM;
    }
    *offset = v;
    return PTX_SPACE_GLOBAL;
}

/* The generic address of offset `offset` in space sp (cvta.to generic). */
inline uint64_t sem_generic_address(uint8_t sp, uint64_t offset)
{
    switch (sp) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return EMU_SHARED_WINDOW + offset;
    case PTX_SPACE_LOCAL: return EMU_LOCAL_WINDOW + offset;
    case PTX_SPACE_PARAM: return EMU_PARAM_WINDOW + offset;
    default: return offset;
    }
}

/* An address of space sp as an instruction of that space reads it: a generic address of the
 * same space loses its window (shared/local/param instructions accept both forms). */
inline uint64_t sem_strip_window(uint8_t sp, uint64_t v)
{
    uint64_t w;
    switch (sp) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: w = EMU_SHARED_WINDOW; break;
    case PTX_SPACE_LOCAL: w = EMU_LOCAL_WINDOW; break;
    case PTX_SPACE_PARAM: w = EMU_PARAM_WINDOW; break;
    default: return v;
    }
    return v >= w && v < w + EMU_WINDOW_SIZE ? v - w : v;
}

/* ---- sem_types.c: what each PTX type is (bits; bit-size, unsigned, signed, float, predicate or
 * packed kind) */
enum { EMU_TK_NONE, EMU_TK_B, EMU_TK_U, EMU_TK_S, EMU_TK_F, EMU_TK_P, EMU_TK_PK };
extern const uint8_t emu_type_bits[PTX_TYPE_COUNT];
extern const uint8_t emu_type_kind[PTX_TYPE_COUNT];

/* (inline with external definitions in sem_inline.c, so the inline rules below may use them) */
inline uint64_t emu_mask_bits(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1);
}
inline int64_t emu_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0) return (int64_t)v;
    /* the common widths as conversions (GCC's are modulo 2^N): the same value, and a 32-bit
     * compare of the low halves that the vectoriser can use (SSE2 has no 64-bit one) */
    if (bits == 32) return (int32_t)(uint32_t)v;
    if (bits == 16) return (int16_t)(uint16_t)v;
    if (bits == 8) return (int8_t)(uint8_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= emu_mask_bits(bits);
    return (int64_t)((v ^ m) - m);
}
inline bool emu_is_signed(uint8_t t) { return emu_type_kind[t] == EMU_TK_S; }
inline bool emu_is_float(uint8_t t) { return emu_type_kind[t] == EMU_TK_F; }

inline float emu_as_f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
inline uint64_t emu_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
inline double emu_as_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
inline uint64_t emu_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ---- float family (sem_float.c): f32/f64 arithmetic, flush-to-zero, saturation, min/max,
 * approximate functions, testp.
 *
 * Rounding: the IEEE operations below (add, sub, mul, fma, div, rcp, sqrt; cvt to f32/f64)
 * round in the host's current rounding mode. That is round-to-nearest-even, except between
 * emu_round_enter(rnd) and emu_round_leave(saved): an instruction with a directed rounding
 * modifier sets the mode once around all its lanes, never per lane. Nothing else here depends
 * on the mode (the approximate functions and the narrow formats round in software or from
 * double, always to nearest).
 *
 * f32 values travel as bits. Inputs: .ftz flushes a subnormal to a zero of the same sign.
 * Results: .ftz flushes, then .sat clamps to [0, 1] (NaN -> +0), then a NaN becomes the
 * canonical 0x7fffffff. abs/neg/copysign are bit operations (no canonical NaN). f64 results are
 * not canonicalised (a NaN keeps an operand's payload, see the f64 rules), and .ftz does not
 * apply to them. */

/* Sets the host rounding mode for rnd (a ptx_round; NONE, RN and RNA are to nearest); returns
 * the previous mode for emu_round_leave. */
int emu_round_enter(int rnd);
void emu_round_leave(int saved);
/* Whether rnd rounds to nearest (the host's default: no mode change needed). */
inline bool sem_float_nearest(int rnd)
{
    return rnd == PTX_RND_NONE || rnd == PTX_RND_RN || rnd == PTX_RND_RNA;
}

inline float emu_ftz32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0) u &= 0x80000000u;
    memcpy(&x, &u, 4);
    return x;
}
/* .sat: clamp to [0, 1]; NaN and -0 give +0 */
inline float emu_sat_f32(float x)
{
    if (isnan(x) || x <= 0.0f) return 0.0f;
    return x > 1.0f ? 1.0f : x;
}
inline double emu_sat_f64(double x)
{
    if (isnan(x) || x <= 0.0) return 0.0;
    return x > 1.0 ? 1.0 : x;
}
/* An f32 operand: bits in, .ftz applied. */
inline float sem_float_in_f32(uint64_t bits, bool ftz)
{
    float f = emu_as_f32(bits);
    return ftz ? emu_ftz32(f) : f;
}
/* An f32 result: .ftz, .sat, canonical NaN. */
inline uint64_t sem_float_out_f32(float r, bool ftz, bool sat)
{
    if (ftz) r = emu_ftz32(r);
    if (sat) r = emu_sat_f32(r);
    return isnan(r) ? 0x7fffffffu : emu_f32_bits(r);
}
inline uint64_t sem_float_out_f64(double r, bool sat)
{
    return emu_f64_bits(sat ? emu_sat_f64(r) : r);
}

/* add/sub/mul/fma/mad.{rnd}{.ftz}{.sat}.f32 (IEEE, host rounding mode) */
inline uint64_t sem_float_add_f32(uint64_t a, uint64_t b, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_in_f32(a, ftz) + sem_float_in_f32(b, ftz), ftz, sat);
}
inline uint64_t sem_float_sub_f32(uint64_t a, uint64_t b, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_in_f32(a, ftz) - sem_float_in_f32(b, ftz), ftz, sat);
}
inline uint64_t sem_float_mul_f32(uint64_t a, uint64_t b, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_in_f32(a, ftz) * sem_float_in_f32(b, ftz), ftz, sat);
}
inline uint64_t sem_float_fma_f32(uint64_t a, uint64_t b, uint64_t c, bool ftz, bool sat)
{
    float x = sem_float_in_f32(a, ftz), y = sem_float_in_f32(b, ftz), z = sem_float_in_f32(c, ftz);
    return sem_float_out_f32(fmaf(x, y, z), ftz, sat);
}
/* div.{rnd}.f32 and div.full.f32 (the ISA allows div.full 2 ulp: the correctly rounded quotient
 * is within it, and deterministic), rcp.{rnd}.f32, sqrt.{rnd}.f32 (IEEE, host rounding mode) */
inline uint64_t sem_float_div_f32(uint64_t a, uint64_t b, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_in_f32(a, ftz) / sem_float_in_f32(b, ftz), ftz, sat);
}
inline uint64_t sem_float_rcp_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(1.0f / sem_float_in_f32(a, ftz), ftz, sat);
}
inline uint64_t sem_float_sqrt_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sqrtf(sem_float_in_f32(a, ftz)), ftz, sat);
}
/* div.approx.f32: the correctly rounded quotient (within the ISA's 2 ulp), except that a finite
 * dividend over a finite divisor with |b| > 2^126 gives zero, as the ISA says. */
inline uint64_t sem_float_div_approx_f32(uint64_t a, uint64_t b, bool ftz, bool sat)
{
    float x = sem_float_in_f32(a, ftz), y = sem_float_in_f32(b, ftz);
    float r = fabsf(y) > 0x1p126f && fabsf(y) < INFINITY && isfinite(x) ? 0 * x : x / y;
    return sem_float_out_f32(r, ftz, sat);
}
/* The .approx functions of the ISA (f32): computed in double and rounded once, deterministic
 * on every host and within the ISA's stated error bounds. */
inline uint64_t sem_float_rcp_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32((float)(1.0 / (double)sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_sqrt_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32((float)sqrt((double)sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_rsqrt_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32((float)(1.0 / sqrt((double)sem_float_in_f32(a, ftz))), ftz, sat);
}
float sem_float_sin_approx(float x);
float sem_float_cos_approx(float x);
float sem_float_lg2_approx(float x);
float sem_float_ex2_approx(float x);
float sem_float_tanh_approx(float x);
inline uint64_t sem_float_sin_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_sin_approx(sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_cos_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_cos_approx(sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_lg2_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_lg2_approx(sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_ex2_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_ex2_approx(sem_float_in_f32(a, ftz)), ftz, sat);
}
inline uint64_t sem_float_tanh_approx_f32(uint64_t a, bool ftz, bool sat)
{
    return sem_float_out_f32(sem_float_tanh_approx(sem_float_in_f32(a, ftz)), ftz, sat);
}

/* min/max: a NaN input is ignored unless nan_mode (then the result is the canonical NaN), and
 * so is one when both are NaN; -0 < +0. */
inline float emu_min_f32(float a, float b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f32(0x7fffffffu);
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
inline float emu_max_f32(float a, float b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f32(0x7fffffffu);
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
inline double emu_min_f64(double a, double b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f64(UINT64_C(0x7fffffffffffffff));
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
inline double emu_max_f64(double a, double b, bool nan_mode)
{
    if (isnan(a) || isnan(b)) {
        if (nan_mode || (isnan(a) && isnan(b))) return emu_as_f64(UINT64_C(0x7fffffffffffffff));
        return isnan(a) ? b : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
/* min/max{.ftz}{.NaN}.f32 */
inline uint64_t sem_float_min_f32(uint64_t a, uint64_t b, bool ftz, bool nan_mode)
{
    float x = sem_float_in_f32(a, ftz), y = sem_float_in_f32(b, ftz);
    return sem_float_out_f32(emu_min_f32(x, y, nan_mode), ftz, false);
}
inline uint64_t sem_float_max_f32(uint64_t a, uint64_t b, bool ftz, bool nan_mode)
{
    float x = sem_float_in_f32(a, ftz), y = sem_float_in_f32(b, ftz);
    return sem_float_out_f32(emu_max_f32(x, y, nan_mode), ftz, false);
}
/* The min/max forms with every modifier: .xorsign.abs (the min/max of |a| and |b|, with the
 * xor of the signs unless NaN), .relu (a negative result becomes +0; not with xorsign), .sat. */
uint64_t sem_float_minmax_f32(bool max, uint64_t a, uint64_t b, bool ftz, bool nan_mode,
                              bool xorsign, bool relu, bool sat);
/* abs/neg{.ftz}.f32, copysign.f32 (d takes b's magnitude and a's sign): bit operations */
inline uint64_t sem_float_abs_f32(uint64_t a, bool ftz)
{
    return emu_f32_bits(sem_float_in_f32(a, ftz)) & 0x7fffffffu;
}
inline uint64_t sem_float_neg_f32(uint64_t a, bool ftz)
{
    return emu_f32_bits(sem_float_in_f32(a, ftz)) ^ 0x80000000u;
}
inline uint64_t sem_float_copysign_f32(uint64_t a, uint64_t b)
{
    return (b & 0x7fffffffu) | (a & 0x80000000u);
}

/* f64: add, sub, mul, fma, div, rcp, sqrt (IEEE, host rounding mode), .sat.
 * A NaN result keeps a NaN operand's payload, by x86-64's rules, written out here so that they
 * do not depend on the order in which a compiler puts a commutative operation's operands: add,
 * sub and mul give the first NaN of a, b (sub: of a, -b), fma the first of b, a, c (the
 * hardware fma glibc uses there), quieted; an invalid operation on numbers gives the host's
 * default NaN. div, rcp and sqrt have no operands to reorder. */
inline bool sem_float_isnan_f64(uint64_t v)
{
    return (v & ~(UINT64_C(1) << 63)) > UINT64_C(0x7ff0000000000000);
}
/* A NaN result r as x86-64 gives it: the first NaN of x, y, z, quieted, else r itself. */
inline uint64_t sem_float_nan_f64(uint64_t r, uint64_t x, uint64_t y, uint64_t z)
{
    const uint64_t quiet = UINT64_C(1) << 51;
    if (!sem_float_isnan_f64(r)) return r;
    if (sem_float_isnan_f64(x)) return x | quiet;
    if (sem_float_isnan_f64(y)) return y | quiet;
    return sem_float_isnan_f64(z) ? z | quiet : r;
}
inline uint64_t sem_float_add_f64(uint64_t a, uint64_t b, bool sat)
{
    uint64_t r = emu_f64_bits(emu_as_f64(a) + emu_as_f64(b));
    return sem_float_out_f64(emu_as_f64(sem_float_nan_f64(r, a, b, b)), sat);
}
inline uint64_t sem_float_sub_f64(uint64_t a, uint64_t b, bool sat)
{
    return sem_float_add_f64(a, b ^ (UINT64_C(1) << 63), sat);
}
inline uint64_t sem_float_mul_f64(uint64_t a, uint64_t b, bool sat)
{
    uint64_t r = emu_f64_bits(emu_as_f64(a) * emu_as_f64(b));
    return sem_float_out_f64(emu_as_f64(sem_float_nan_f64(r, a, b, b)), sat);
}
inline uint64_t sem_float_fma_f64(uint64_t a, uint64_t b, uint64_t c, bool sat)
{
    uint64_t r = emu_f64_bits(fma(emu_as_f64(a), emu_as_f64(b), emu_as_f64(c)));
    return sem_float_out_f64(emu_as_f64(sem_float_nan_f64(r, b, a, c)), sat);
}
inline uint64_t sem_float_div_f64(uint64_t a, uint64_t b, bool sat)
{
    return sem_float_out_f64(emu_as_f64(a) / emu_as_f64(b), sat);
}
inline uint64_t sem_float_rcp_f64(uint64_t a, bool sat)
{
    return sem_float_out_f64(1.0 / emu_as_f64(a), sat);
}
inline uint64_t sem_float_sqrt_f64(uint64_t a, bool sat)
{
    return sem_float_out_f64(sqrt(emu_as_f64(a)), sat);
}
/* rcp.approx.ftz.f64 (the ISA's "gross approximation", see sem_float.c), rsqrt.approx.f64 */
double emu_rcp_approx_ftz_f64(double a);
inline uint64_t sem_float_rcp_approx_ftz_f64(uint64_t a, bool sat)
{
    return sem_float_out_f64(emu_rcp_approx_ftz_f64(emu_as_f64(a)), sat);
}
inline uint64_t sem_float_rsqrt_approx_f64(uint64_t a, bool sat)
{
    return sem_float_out_f64(1.0 / sqrt(emu_as_f64(a)), sat);
}
inline uint64_t sem_float_min_f64(uint64_t a, uint64_t b, bool nan_mode, bool sat)
{
    return sem_float_out_f64(emu_min_f64(emu_as_f64(a), emu_as_f64(b), nan_mode), sat);
}
inline uint64_t sem_float_max_f64(uint64_t a, uint64_t b, bool nan_mode, bool sat)
{
    return sem_float_out_f64(emu_max_f64(emu_as_f64(a), emu_as_f64(b), nan_mode), sat);
}
inline uint64_t sem_float_abs_f64(uint64_t a) { return a & ~(UINT64_C(1) << 63); }
inline uint64_t sem_float_neg_f64(uint64_t a) { return a ^ (UINT64_C(1) << 63); }
inline uint64_t sem_float_copysign_f64(uint64_t a, uint64_t b)
{
    return (b & ~(UINT64_C(1) << 63)) | (a & (UINT64_C(1) << 63));
}

/* testp.{finite,infinite,number,notanumber,normal,subnormal}: mode is the ptx_suffix;
 * is_subnormal tells whether x is subnormal in its own format */
bool emu_testp(int mode, double x, bool is_subnormal);
/* testp on the bits of an f32 or f64 value (t) */
bool sem_float_testp(int mode, uint8_t t, uint64_t bits);

/* ---- half family (sem_half.c): the narrow formats (f16, bf16, tf32, fp8) from and to double,
 * and half-precision arithmetic */
/* Rounds x to a binary format with ebits exponent and mbits fraction bits (IEEE-like, with
 * infinities); satfinite clamps to the largest finite value, NaN gives the canonical NaN. */
uint32_t emu_round_to_format(double x, int ebits, int mbits, int rnd, bool satfinite);
double emu_format_to_f64(uint32_t bits, int ebits, int mbits);
static inline uint16_t emu_f64_to_f16(double x, int rnd) { return (uint16_t)emu_round_to_format(x, 5, 10, rnd, false); }
static inline double emu_f16_to_f64(uint16_t h) { return emu_format_to_f64(h, 5, 10); }
static inline uint16_t emu_f64_to_bf16(double x, int rnd) { return (uint16_t)emu_round_to_format(x, 8, 7, rnd, false); }
static inline double emu_bf16_to_f64(uint16_t h) { return emu_format_to_f64(h, 8, 7); }
/* f32 -> f16/bf16 with PTX rounding (NaN -> canonical 0x7fff) */
uint16_t emu_f32_to_f16(float x, int rnd, bool sat);
uint16_t emu_f32_to_bf16(float x, int rnd, bool sat);
/* the fp8 formats (e4m3 has no infinity; satfinite is required by cvt) */
uint8_t emu_f32_to_e4m3(float x, bool satfinite);
uint8_t emu_f32_to_e5m2(float x, bool satfinite);
float emu_e4m3_to_f32(uint8_t b);
float emu_e5m2_to_f32(uint8_t b);
/* Arithmetic on one half-precision value (bf selects bf16): computed in double and rounded
 * once, to nearest unless rnd says otherwise. .ftz flushes subnormal inputs and results, .sat
 * clamps to [0, 1] (NaN -> +0), .relu makes a negative result +0, a NaN result is the canonical
 * 0x7fff. min/max: as the f32 forms (NaN ignored unless nan_mode, -0 < +0), the result is one
 * of the inputs. neg/abs are bit operations. */
uint16_t sem_half_add(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu);
uint16_t sem_half_sub(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu);
uint16_t sem_half_mul(bool bf, uint16_t a, uint16_t b, int rnd, bool ftz, bool sat, bool relu);
uint16_t sem_half_fma(bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz, bool sat,
                      bool relu);
uint16_t sem_half_min(bool bf, uint16_t a, uint16_t b, bool ftz, bool nan_mode, bool relu);
uint16_t sem_half_max(bool bf, uint16_t a, uint16_t b, bool ftz, bool nan_mode, bool relu);
inline uint16_t sem_half_neg(uint16_t a) { return a ^ 0x8000; }
inline uint16_t sem_half_abs(uint16_t a) { return a & 0x7fff; }
/* A half operand with .ftz: subnormals flushed to a zero of the same sign. */
inline uint16_t sem_half_ftz(uint16_t h, bool bf)
{
    return (h & (bf ? 0x7f80 : 0x7c00)) == 0 ? h & 0x8000 : h;
}
/* One of the above by opcode (ADD/SUB/MUL/FMA/MIN/MAX/NEG/ABS), for callers that hold the
 * operation as data (atomics). */
uint16_t emu_half_op(int op, bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz,
                     bool sat, bool nan_mode, bool relu);

/* ---- conversion family (sem_cvt.c): cvt on every type pair, the packed forms, cvt.pack.sat,
 * cvta and isspacep */

/* cvt dtype.stype: value bits of the source in, value bits of the destination out (not yet
 * extended to the register width). rnd/ftz/sat/satfinite as written. A conversion to f32 or
 * f64 rounds in the host rounding mode, which the caller sets to sem_cvt_host_round(...) (once
 * per instruction, see the float family); everything else rounds in software. */
uint64_t emu_cvt(uint8_t dtype, uint8_t stype, int rnd, bool ftz, bool sat, bool satfinite,
                 uint64_t v);
/* The host rounding mode (a ptx_round) emu_cvt(dtype, stype, rnd, ...) needs. */
int sem_cvt_host_round(uint8_t dtype, uint8_t stype, int rnd);
/* x rounded to an integral value by an integer rounding mode (RNI/RZI/RMI/RPI; else x). */
inline double sem_cvt_round_integral(double x, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return rint(x);
    case PTX_RND_RMI: return floor(x);
    case PTX_RND_RPI: return ceil(x);
    case PTX_RND_RZI: return trunc(x);
    default: return x;
    }
}
/* Float (as double) to integer type with integer rounding rnd (RNI/RZI/RMI/RPI, or the IEEE
 * name of the same direction; NONE = RZI), saturating to the destination range; NaN gives 0. */
inline uint64_t emu_float_to_int(double x, unsigned bits, bool is_signed, int rnd)
{
    if (isnan(x)) return 0;
    if (rnd == PTX_RND_NONE || rnd == PTX_RND_RZ) rnd = PTX_RND_RZI;
    if (rnd == PTX_RND_RN) rnd = PTX_RND_RNI;
    if (rnd == PTX_RND_RM) rnd = PTX_RND_RMI;
    if (rnd == PTX_RND_RP) rnd = PTX_RND_RPI;
    x = sem_cvt_round_integral(x, rnd);
    if (is_signed) {
        double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
        int64_t v;
        if (x < lo) v = bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
        else if (x >= hi) v = bits >= 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
        else v = (int64_t)x;
        return (uint64_t)v & emu_mask_bits(bits);
    }
    double hi = ldexp(1.0, (int)bits);
    if (x <= 0) return 0;
    if (x >= hi) return emu_mask_bits(bits);
    return (uint64_t)x;
}
/* The commonest pairs, as emu_cvt computes them: integer to integer without .sat (sign- or
 * zero-extend from sbits, truncate to dbits); 32-bit integers to f32 (host rounding mode) and
 * f64 (exact); f32 to an integer; f32 to f64 (exact; NaN keeps its payload) and f64 to f32. */
inline uint64_t sem_cvt_int_resize(uint64_t v, unsigned sbits, bool ssigned, unsigned dbits)
{
    return (ssigned ? (uint64_t)emu_sext(v, sbits) : (v & emu_mask_bits(sbits))) &
           emu_mask_bits(dbits);
}
inline uint64_t sem_cvt_s32_to_f32(uint64_t v)
{
    return emu_f32_bits((float)(int32_t)(uint32_t)v);
}
inline uint64_t sem_cvt_u32_to_f32(uint64_t v) { return emu_f32_bits((float)(uint32_t)v); }
inline uint64_t sem_cvt_s32_to_f64(uint64_t v)
{
    return emu_f64_bits((double)(int32_t)(uint32_t)v);
}
inline uint64_t sem_cvt_u32_to_f64(uint64_t v) { return emu_f64_bits((double)(uint32_t)v); }
inline uint64_t sem_cvt_f32_to_int(uint64_t v, bool ftz, unsigned bits, bool is_signed, int rnd)
{
    return emu_float_to_int(sem_float_in_f32(v, ftz), bits, is_signed, rnd);
}
inline uint64_t sem_cvt_f32_to_f64(uint64_t v, bool ftz, bool sat)
{
    double x = sem_float_in_f32(v, ftz);
    return emu_f64_bits(sat ? emu_sat_f64(x) : x);
}
inline uint64_t sem_cvt_f64_to_f32(uint64_t v, bool ftz, bool sat)
{
    double x = emu_as_f64(v);
    if (sat) x = emu_sat_f64(x);
    return sem_float_out_f32((float)x, ftz, false);
}
/* cvt{.rnd}.relu.{f16,bf16}: a negative result (not NaN) becomes +0 */
inline uint64_t sem_cvt_relu(uint8_t dtype, uint64_t r)
{
    if (dtype == PTX_TYPE_F16 && (r & 0x8000) && (r & 0x7fff) <= 0x7c00) return 0;
    if (dtype == PTX_TYPE_BF16 && (r & 0x8000) && (r & 0x7fff) <= 0x7f80) return 0;
    return r;
}
/* The packed forms (dtype f16x2, bf16x2, e4m3x2 or e5m2x2; .relu and .satfinite as written):
 * cvt to a pair from two f32 or f16 values (stype), a above b; f16x2 to an fp8 pair; an fp8
 * pair (stype) widened to f16x2. */
uint64_t sem_cvt_pack_pair(uint8_t dtype, uint8_t stype, uint64_t a, uint64_t b, int rnd,
                           bool relu, bool satfinite);
uint64_t sem_cvt_f16x2_to_f8x2(uint8_t dtype, uint64_t a, int rnd, bool relu, bool satfinite);
uint64_t sem_cvt_f8x2_to_f16x2(uint8_t stype, uint64_t a);
/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c:
 * a and b clamped to dtype and packed with a above b; with c (has_c), the bits above the pair
 * come from the low bits of c. */
uint64_t sem_cvt_pack_sat_int(uint8_t dtype, uint64_t a, uint64_t b, uint64_t c, bool has_c);
/* cvta{.to}.space: a generic address from an offset in space sp, or (to) back; an address
 * outside the space's window passes unchanged. */
inline uint64_t sem_cvt_cvta(uint8_t sp, bool to, uint64_t v)
{
    return to ? sem_strip_window(sp, v) : sem_generic_address(sp, v);
}
/* isspacep.space: whether generic address v lies in space sp (global and const: below the
 * windows). */
inline bool sem_cvt_isspacep(uint8_t sp, uint64_t v)
{
    uint64_t off;
    uint8_t in = sem_generic_space(v, &off);
    switch (sp) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return in == PTX_SPACE_SHARED;
    case PTX_SPACE_LOCAL: return in == PTX_SPACE_LOCAL;
    case PTX_SPACE_PARAM: return in == PTX_SPACE_PARAM;
    case PTX_SPACE_CONST: case PTX_SPACE_GLOBAL: return v < EMU_SHARED_WINDOW;
    default: return false;
    }
}

/* ---- sem_video.c: the video instructions (vadd ... vset, vadd2 ... vset4) on one lane.
 * Selectors are packed as ptx_operand.imm holds them (0 = none: the instruction's default);
 * for the SIMD forms dsel is the destination's lane mask. */
typedef struct emu_video {
    int op;                       /* ptx_opcode PTX_OP_VADD ... PTX_OP_VSET4 */
    bool d_signed, a_signed, b_signed;
    bool sat;
    int op2;                      /* secondary operation: ptx_suffix ADD/MIN/MAX, or 0 */
    int cmp;                      /* vset, vset2, vset4: ptx_cmp EQ/NE/LT/LE/GT/GE */
    bool clamp;                   /* vshl/vshr: .clamp, else .wrap */
    bool po;                      /* vmad .po */
    unsigned shr;                 /* vmad .shr7 / .shr15: 7 or 15, else 0 */
    bool neg_a, neg_b, neg_c;     /* vmad operand negations */
    bool has_c;                   /* a third source operand c was written */
    int64_t asel, bsel, dsel;
} emu_video;
/* Whether the form is one the ISA defines (operands and selectors fit the instruction). */
bool emu_video_valid(const emu_video *v);
/* d from a, b and c (c is ignored where the form has none). */
uint32_t emu_video_exec(const emu_video *v, uint32_t a, uint32_t b, uint32_t c);

/* ---- sem_atomic.c: the combine step of atom/red (aop a ptx_suffix: ADD, MIN, MAX, INC, DEC,
 * AND, OR, XOR, EXCH, CAS; t the operand type): the location's new value from its old value, b
 * and (cas) c */
uint64_t sem_atomic_combine(unsigned aop, uint8_t t, uint64_t old, uint64_t b, uint64_t c);

/* ---- integer family (sem_int.c): arithmetic with carry and saturation, multiply forms, division
 * rules, shifts, bit fields, prmt, lop3, dp2a/dp4a, SIMD16.
 *
 * Values are the type's bits (below 2^bits) in a uint64_t, bits the type's width (16, 32 or 64
 * where the ISA allows more than one), sg whether the type is signed; results come back within
 * their type's bits. The carry flag (CC.CF) is one bit per lane in the warp; the functions take
 * it in and give it out as 0/1. */

typedef unsigned __int128 sem_u128;
typedef __int128 sem_s128;

inline uint64_t sem_int_add(uint64_t a, uint64_t b, unsigned bits)
{
    return (a + b) & emu_mask_bits(bits);
}

inline uint64_t sem_int_sub(uint64_t a, uint64_t b, unsigned bits)
{
    return (a - b) & emu_mask_bits(bits);
}

/* add.sat / sub.sat (signed): the exact result clamped to the type's range. */
inline uint64_t sem_int_add_sat(uint64_t a, uint64_t b, unsigned bits)
{
    uint64_t m = emu_mask_bits(bits);
    int64_t r = (int64_t)((uint64_t)emu_sext(a, bits) + (uint64_t)emu_sext(b, bits));
    int64_t hi = (int64_t)(m >> 1), lo = -hi - 1;
    return (uint64_t)(r > hi ? hi : r < lo ? lo : r) & m;
}

inline uint64_t sem_int_sub_sat(uint64_t a, uint64_t b, unsigned bits)
{
    uint64_t m = emu_mask_bits(bits);
    int64_t r = (int64_t)((uint64_t)emu_sext(a, bits) - (uint64_t)emu_sext(b, bits));
    int64_t hi = (int64_t)(m >> 1), lo = -hi - 1;
    return (uint64_t)(r > hi ? hi : r < lo ? lo : r) & m;
}

/* add.cc / addc (and the sums of mad.cc / madc): a + b + carry_in, *carry_out the carry out of
 * the type's top bit. */
inline uint64_t sem_int_add_cc(uint64_t a, uint64_t b, unsigned carry_in, unsigned bits,
                               unsigned *carry_out)
{
    sem_u128 r = (sem_u128)a + b + carry_in;
    *carry_out = bits >= 64 ? (r >> 64) != 0 : ((uint64_t)r >> bits) != 0;
    return (uint64_t)r & emu_mask_bits(bits);
}

/* sub.cc / subc: a - b - borrow_in, *borrow_out 1 when the subtraction borrowed. */
inline uint64_t sem_int_sub_cc(uint64_t a, uint64_t b, unsigned borrow_in, unsigned bits,
                               unsigned *borrow_out)
{
    *borrow_out = (sem_u128)a < (sem_u128)b + borrow_in;
    return (a - b - borrow_in) & emu_mask_bits(bits);
}

/* What CC.CF holds after a subtraction, and the borrow subc takes from it. The GPU's adder
 * computes a - b as a + ~b + 1 and keeps that addition's carry, which is 1 when no borrow
 * occurred; subc is a + ~b + CC.CF, that is a - (b + !CC.CF). A sub.cc -> subc chain gives the
 * ISA's "d = a - (b + CC.CF)" with CC.CF read as the borrow; mixed chains (sub.cc -> addc,
 * add.cc -> subc) see the carry, as a GPU does (issue 21). */
#define SEM_INT_SUB_CF_IS_CARRY 1u
inline unsigned sem_int_cf_from_borrow(unsigned borrow)
{
    return borrow ^ SEM_INT_SUB_CF_IS_CARRY;
}
inline unsigned sem_int_borrow_from_cf(unsigned cf)
{
    return cf ^ SEM_INT_SUB_CF_IS_CARRY;
}

inline uint64_t sem_int_mul_lo(uint64_t a, uint64_t b, unsigned bits)
{
    return (a * b) & emu_mask_bits(bits);
}

/* mul.hi: the upper half of the 2*bits-bit product. */
inline uint64_t sem_int_mul_hi(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    if (bits >= 64)
        return sg ? (uint64_t)(((sem_s128)(int64_t)a * (int64_t)b) >> 64)
                  : (uint64_t)(((sem_u128)a * b) >> 64);
    uint64_t m = emu_mask_bits(bits);
    return sg ? (uint64_t)((emu_sext(a, bits) * emu_sext(b, bits)) >> bits) & m
              : ((a * b) >> bits) & m;
}

/* The product of a and b (sign-extended from bits when sg) as 64 bits: mul.wide's and
 * mad.wide's (16 or 32 bits; 64-bit types keep the low half). */
inline uint64_t sem_int_product64(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    return sg && bits < 64 ? (uint64_t)(emu_sext(a, bits) * emu_sext(b, bits)) : a * b;
}

/* mul.wide (16 or 32 bits): the whole product, 2*bits wide. */
inline uint64_t sem_int_mul_wide(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    return sem_int_product64(a, b, bits, sg) & emu_mask_bits(2 * bits);
}

/* mad.lo{.cc}, madc.lo: the low half of a * b, plus c and the carry in. */
inline uint64_t sem_int_mad_lo(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                               unsigned bits, unsigned *carry_out)
{
    return sem_int_add_cc(sem_int_mul_lo(a, b, bits), c, carry_in, bits, carry_out);
}

/* mad.hi{.cc}, madc.hi: the high half of a * b, plus c and the carry in. */
inline uint64_t sem_int_mad_hi(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                               unsigned bits, bool sg, unsigned *carry_out)
{
    return sem_int_add_cc(sem_int_mul_hi(a, b, bits, sg), c, carry_in, bits, carry_out);
}

/* mad.hi.sat.s32: the high half of a * b plus c, clamped to the s32 range. */
inline uint64_t sem_int_mad_hi_sat(uint64_t a, uint64_t b, uint64_t c)
{
    return sem_int_add_sat(sem_int_mul_hi(a, b, 32, true), c, 32);
}

/* mad.wide: the 2*bits-bit product plus c (2*bits wide). The ISA has no carry forms of
 * mad.wide (ptxas rejects mad.wide.cc and madc.wide; ptxsim's checker still accepts them): their
 * carry is taken on the product as the 64-bit value sem_int_product64 gives. */
inline uint64_t sem_int_mad_wide(uint64_t a, uint64_t b, uint64_t c, unsigned carry_in,
                                 unsigned bits, bool sg, unsigned *carry_out)
{
    return sem_int_add_cc(sem_int_product64(a, b, bits, sg), c, carry_in, 2 * bits, carry_out);
}

/* mul24.lo/.hi: the 48-bit product of the low 24 bits of a and b (sign-extended when sg); .lo
 * keeps its low 32 bits, .hi bits 16..47. */
inline int64_t sem_int_mul24_product(uint64_t a, uint64_t b, bool sg)
{
    int64_t x = sg ? emu_sext(a, 24) : (int64_t)(a & 0xffffff);
    int64_t y = sg ? emu_sext(b, 24) : (int64_t)(b & 0xffffff);
    return x * y;
}

inline uint64_t sem_int_mul24(uint64_t a, uint64_t b, bool hi, bool sg)
{
    int64_t p = sem_int_mul24_product(a, b, sg);
    return (hi ? (uint64_t)(p >> 16) : (uint64_t)p) & 0xffffffffu;
}

/* mad24.lo/.hi: mul24's result plus c; .hi.sat.s32 clamps the sum to the s32 range. */
inline uint64_t sem_int_mad24(uint64_t a, uint64_t b, uint64_t c, bool hi, bool sg, bool sat,
                              unsigned bits)
{
    int64_t prod = sem_int_mul24_product(a, b, sg);
    uint64_t p = hi ? (uint64_t)(prod >> 16) : (uint64_t)prod;
    if (sat && sg && hi) {
        int64_t r = emu_sext(p, 32) + emu_sext(c, 32);
        return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r) &
               emu_mask_bits(bits);
    }
    return (p + c) & emu_mask_bits(bits);
}

/* sad: |a - b| + c. */
inline uint64_t sem_int_sad(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool sg)
{
    uint64_t p;
    if (sg) {
        int64_t x = emu_sext(a, bits), y = emu_sext(b, bits);
        p = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    } else {
        p = a > b ? a - b : b - a;
    }
    return (p + c) & emu_mask_bits(bits);
}

/* div and rem. The ISA leaves division by zero unspecified; ptxsim gives what the hardware
 * gives: all ones for the quotient, a for the remainder. x / -1 is -x (no trap on the most
 * negative value), x % -1 is 0. */
inline uint64_t sem_int_div(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    uint64_t m = emu_mask_bits(bits);
    if (b == 0) return m;
    if (!sg) return a / b;
    int64_t x = emu_sext(a, bits), y = emu_sext(b, bits);
    return y == -1 ? (uint64_t)(-(uint64_t)x) & m : (uint64_t)(x / y) & m;
}

inline uint64_t sem_int_rem(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    if (b == 0) return a;
    if (!sg) return a % b;
    int64_t x = emu_sext(a, bits), y = emu_sext(b, bits);
    return y == -1 ? 0 : (uint64_t)(x % y) & emu_mask_bits(bits);
}

/* min/max; .relu (signed types) turns a negative result into 0. */
inline uint64_t sem_int_min(uint64_t a, uint64_t b, unsigned bits, bool sg, bool relu)
{
    if (!sg) return a < b ? a : b;
    int64_t x = emu_sext(a, bits), y = emu_sext(b, bits);
    int64_t r = x < y ? x : y;
    if (relu && r < 0) r = 0;
    return (uint64_t)r & emu_mask_bits(bits);
}

inline uint64_t sem_int_max(uint64_t a, uint64_t b, unsigned bits, bool sg, bool relu)
{
    if (!sg) return a > b ? a : b;
    int64_t x = emu_sext(a, bits), y = emu_sext(b, bits);
    int64_t r = x > y ? x : y;
    if (relu && r < 0) r = 0;
    return (uint64_t)r & emu_mask_bits(bits);
}

inline uint64_t sem_int_and(uint64_t a, uint64_t b) { return a & b; }
inline uint64_t sem_int_or(uint64_t a, uint64_t b) { return a | b; }
inline uint64_t sem_int_xor(uint64_t a, uint64_t b) { return a ^ b; }
inline uint64_t sem_int_not(uint64_t a, unsigned bits) { return ~a & emu_mask_bits(bits); }
/* cnot: 1 when a is 0, else 0. */
inline uint64_t sem_int_cnot(uint64_t a) { return a == 0; }
inline uint64_t sem_int_neg(uint64_t a, unsigned bits) { return (0 - a) & emu_mask_bits(bits); }
/* abs of the most negative value is itself. */
inline uint64_t sem_int_abs(uint64_t a, unsigned bits)
{
    int64_t x = emu_sext(a, bits);
    return (x < 0 ? -(uint64_t)x : (uint64_t)x) & emu_mask_bits(bits);
}

/* shl/shr: the amount s is unsigned; amounts of the width or more shift everything out (shr
 * of a signed type leaves the sign in every bit). */
inline uint64_t sem_int_shl(uint64_t a, uint64_t s, unsigned bits)
{
    return s >= bits ? 0 : (a << s) & emu_mask_bits(bits);
}

inline uint64_t sem_int_shr(uint64_t a, uint64_t s, unsigned bits, bool sg)
{
    if (!sg) return s >= bits ? 0 : a >> s;
    int64_t x = emu_sext(a, bits);
    return (uint64_t)(s >= bits ? (x < 0 ? -1 : 0) : x >> s) & emu_mask_bits(bits);
}

/* popc, clz (bits when a is 0), brev (the low bits bits of a, reversed). */
inline uint64_t sem_int_popc(uint64_t a) { return (uint64_t)__builtin_popcountll(a); }
inline uint64_t sem_int_clz(uint64_t a, unsigned bits)
{
    return a == 0 ? bits : (uint64_t)(__builtin_clzll(a) - (64 - (int)bits));
}
inline uint64_t sem_int_brev(uint64_t a, unsigned bits)
{
    uint64_t r = a;
    r = (r >> 1 & UINT64_C(0x5555555555555555)) | (r & UINT64_C(0x5555555555555555)) << 1;
    r = (r >> 2 & UINT64_C(0x3333333333333333)) | (r & UINT64_C(0x3333333333333333)) << 2;
    r = (r >> 4 & UINT64_C(0x0f0f0f0f0f0f0f0f)) | (r & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4;
    r = __builtin_bswap64(r);
    return r >> (64 - bits);
}

/* bfind: the position of the most significant bit that differs from the sign (signed) or is
 * set (unsigned), or 0xffffffff when there is none; .shiftamt counts from the top instead. */
inline uint64_t sem_int_bfind(uint64_t a, unsigned bits, bool sg, bool shiftamt)
{
    uint64_t x = a;
    if (sg && ((x >> (bits - 1)) & 1)) x = ~x & emu_mask_bits(bits);
    if (x == 0) return 0xffffffffu;
    unsigned pos = 63 - (unsigned)__builtin_clzll(x);
    return shiftamt ? bits - 1 - pos : pos;
}

/* bfe: len bits of a from pos (each taken from its low 8 bits), zero-extended, or
 * sign-extended from the field's top bit (from a's sign when the field starts past it). */
inline uint64_t sem_int_bfe(uint64_t a, uint64_t pos, uint64_t len, unsigned bits, bool sg)
{
    unsigned p = (unsigned)(pos & 0xff), n = (unsigned)(len & 0xff);
    if (n == 0) return 0;
    uint64_t m = emu_mask_bits(bits), x = a & m;
    unsigned msb = p + n - 1;
    unsigned copied = p >= bits ? 0 : (n < bits - p ? n : bits - p);
    uint64_t r = copied ? (x >> p) & emu_mask_bits(copied) : 0;
    if (sg) {
        unsigned top = p >= bits || msb >= bits ? bits - 1 : msb;
        if ((x >> top) & 1) r |= ~emu_mask_bits(copied) & m;
    }
    return r;
}

/* bfi: b with len bits at pos replaced by a's low bits (those that fit in the type). */
inline uint64_t sem_int_bfi(uint64_t a, uint64_t b, uint64_t pos, uint64_t len, unsigned bits)
{
    unsigned p = (unsigned)(pos & 0xff), n = (unsigned)(len & 0xff);
    if (p >= bits || n == 0) return b;
    unsigned k = n < bits - p ? n : bits - p;
    uint64_t m = emu_mask_bits(k) << p;
    return (b & ~m) | ((a << p) & m);
}

/* shf.l / shf.r: the funnel shift of b:a (b high), amount n clamped to 32 or wrapped mod 32;
 * .l keeps the upper word, .r the lower. */
inline uint64_t sem_int_shf(uint64_t a, uint64_t b, uint64_t n, bool left, bool wrap)
{
    uint32_t s = wrap ? (uint32_t)(n & 31) : (n > 32 ? 32 : (uint32_t)n);
    uint64_t x = (b << 32) | (a & 0xffffffffu);
    return left ? ((x << s) >> 32) & 0xffffffffu : (x >> s) & 0xffffffffu;
}

/* lop3.b32: bit i of the result is bit (a_i b_i c_i) of the look-up table's low 8 bits. */
inline uint64_t sem_int_lop3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut)
{
    uint32_t r = 0, x = (uint32_t)a, y = (uint32_t)b, z = (uint32_t)c;
    for (int i = 0; i < 8; i++)
        if ((lut >> i) & 1)
            r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
    return r;
}

/* The rest of the family, in sem_int.c. */

/* fns.b32: the position of the offset-th set bit of mask counting up from base (down for a
 * negative offset; offset 0 asks whether base itself is set), or 0xffffffff. */
uint64_t sem_int_fns(uint64_t mask, uint64_t base, uint64_t offset);
/* prmt.b32: bytes of b:a (b high) picked by sel; mode is the ptx_suffix of .f4e .b4e .rc8 .ecl
 * .ecr .rc16, or 0 for the default form (a nibble per byte, its top bit replicating the
 * picked byte's sign). */
uint64_t sem_int_prmt(uint64_t a, uint64_t b, uint64_t sel, int mode);
/* dp4a: c + the four byte products of a and b; dp2a: c + the two half-word products of a with
 * the lower (hi false) or upper bytes of b. a_sg, b_sg: the operands' signedness. */
uint64_t sem_int_dp4a(uint64_t a, uint64_t b, uint64_t c, bool a_sg, bool b_sg);
uint64_t sem_int_dp2a(uint64_t a, uint64_t b, uint64_t c, bool a_sg, bool b_sg, bool hi);
/* bmsk.b32: len ones from bit pos (.clamp: each at most 32; .wrap: each mod 32). */
uint64_t sem_int_bmsk(uint64_t pos, uint64_t len, bool wrap);
/* szext.s32/.u32: the low n bits of a sign- or zero-extended (n clamped or wrapped as bmsk). */
uint64_t sem_int_szext(uint64_t a, uint64_t n, bool wrap, bool sg);

/* SIMD16 (add/sub/min/max on .u16x2/.s16x2): each half of the 32-bit value is its own lane;
 * add and sub wrap, min/max compare signed or unsigned, .relu (signed) turns negatives to 0. */
uint64_t sem_simd_add16x2(uint64_t a, uint64_t b);
uint64_t sem_simd_sub16x2(uint64_t a, uint64_t b);
uint64_t sem_simd_min16x2(uint64_t a, uint64_t b, bool sg, bool relu);
uint64_t sem_simd_max16x2(uint64_t a, uint64_t b, bool sg, bool relu);

/* ---- comparison family (sem_cmp.c): setp/set/selp/slct rules on every type */
/* cmp is a ptx_cmp. Float compares are IEEE's: the ordered ones (eq ... ge) are false and the
 * unordered ones (equ ... geu) true when an operand is NaN; num and nan test for NaN. */
inline bool emu_cmp_float(int cmp, double a, double b)
{
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a < b || a > b;
    case PTX_CMP_LT: return a < b;
    case PTX_CMP_LE: return a <= b;
    case PTX_CMP_GT: return a > b;
    case PTX_CMP_GE: return a >= b;
    case PTX_CMP_EQU: return !(a < b || a > b);
    case PTX_CMP_NEU: return a != b;
    case PTX_CMP_LTU: return !(a >= b);
    case PTX_CMP_LEU: return !(a > b);
    case PTX_CMP_GTU: return !(a <= b);
    case PTX_CMP_GEU: return !(a < b);
    case PTX_CMP_NUM: return !isnan(a) && !isnan(b);
    case PTX_CMP_NAN: return isnan(a) || isnan(b);
    default: return false;
    }
}
/* Integers of `bits` bits (the operands' higher bits are ignored); lo/ls/hi/hs are unsigned. */
inline bool emu_cmp_int(int cmp, uint64_t a, uint64_t b, bool is_signed, unsigned bits)
{
    a &= emu_mask_bits(bits);
    b &= emu_mask_bits(bits);
    int64_t sa = emu_sext(a, bits), sb = emu_sext(b, bits);
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return is_signed ? sa < sb : a < b;
    case PTX_CMP_LE: return is_signed ? sa <= sb : a <= b;
    case PTX_CMP_GT: return is_signed ? sa > sb : a > b;
    case PTX_CMP_GE: return is_signed ? sa >= sb : a >= b;
    case PTX_CMP_LO: return a < b;
    case PTX_CMP_LS: return a <= b;
    case PTX_CMP_HI: return a > b;
    case PTX_CMP_HS: return a >= b;
    default: return false;
    }
}
/* f32 and f64 compares on bits (.ftz flushes f32 inputs) */
inline bool sem_cmp_f32(int cmp, uint64_t a, uint64_t b, bool ftz)
{
    return emu_cmp_float(cmp, sem_float_in_f32(a, ftz), sem_float_in_f32(b, ftz));
}
inline bool sem_cmp_f64(int cmp, uint64_t a, uint64_t b)
{
    return emu_cmp_float(cmp, emu_as_f64(a), emu_as_f64(b));
}
/* a cmp b on values of any scalar type t (integers by kind and width; f32, f64, f16 and bf16,
 * .ftz flushing the inputs of every float type). */
bool sem_cmp_value(int cmp, uint8_t t, bool ftz, uint64_t a, uint64_t b);
/* setp/set's combining operation (boolop: ptx_suffix AND/OR/XOR, or 0 for none) */
inline bool sem_cmp_combine(int boolop, bool r, bool c)
{
    switch (boolop) {
    case PTX_SFX_AND: return r && c;
    case PTX_SFX_OR: return r || c;
    case PTX_SFX_XOR: return r != c;
    default: return r;
    }
}
/* set's result in dtype: 1.0 for a float type (f32 0x3F800000, f16 0x3C00, bf16 0x3F80), all
 * ones for an integer type; 0 for false. */
inline uint64_t sem_cmp_set_result(uint8_t dtype, bool r)
{
    if (!r) return 0;
    switch (dtype) {
    case PTX_TYPE_F32: return 0x3f800000u;
    case PTX_TYPE_F16: return 0x3c00u;
    case PTX_TYPE_BF16: return 0x3f80u;
    default: return emu_mask_bits(emu_type_bits[dtype]);
    }
}
/* set.cmp{.bool}.dtype.{f16x2,bf16x2}: each half compared on its own (c combined with both);
 * a true half is 1.0 in a .f16x2/.bf16x2 dtype, 0xFFFF in a .u32/.s32 one. */
uint64_t sem_cmp_set_x2(int cmp, int boolop, uint8_t dtype, uint8_t stype, bool ftz, uint64_t a,
                        uint64_t b, bool c);
inline uint64_t sem_cmp_selp(bool p, uint64_t a, uint64_t b) { return p ? a : b; }
/* slct's test c >= 0 on an s32 c, or an f32 c (-0 counts as zero, NaN fails) */
inline bool sem_cmp_slct_s32(uint64_t c) { return emu_sext(c, 32) >= 0; }
inline bool sem_cmp_slct_f32(uint64_t c, bool ftz) { return sem_float_in_f32(c, ftz) >= 0.0f; }

/* ---- warp family (sem_warp.c): shuffle source lanes and segment rules, votes, matches,
 * reductions, elect. Lanes are 0..31 and sets of lanes 32-bit masks (bit i: lane i); `members`
 * is a lane's participating set (its membermask and the lanes executing the instruction). Ops
 * and modes are the instruction's ptx_suffix values. */

/* shfl{.sync}.mode: the lane whose `a` value `lane` receives, from the instruction's b and c
 * (c packs the clamp value in bits 0-4 and the segment mask in bits 8-12). *valid is the
 * predicate result: false when the source lies outside the lane's segment, in which case the
 * lane receives its own value (the ISA's pseudo-code, shfl.sync). mode: UP, DOWN, BFLY, IDX. */
inline unsigned sem_warp_shfl_src(int mode, unsigned lane, uint32_t b, uint32_t c, bool *valid)
{
    int l = (int)lane, bval = (int)(b & 31), cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
    int max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg, j;
    bool pv;
    switch (mode) {
    case PTX_SFX_UP: j = l - bval; pv = j >= max_lane; break;
    case PTX_SFX_DOWN: j = l + bval; pv = j <= max_lane; break;
    case PTX_SFX_BFLY: j = l ^ bval; pv = j <= max_lane; break;
    default: j = min_lane | (bval & ~seg); pv = j <= max_lane; break;   /* IDX */
    }
    *valid = pv;
    return pv ? (unsigned)j : lane;
}

/* vote{.sync}.mode over the members' predicate bits `pred`: BALLOT gives the members whose
 * predicate holds; ALL, ANY and UNI give 1 or 0. */
inline uint32_t sem_warp_vote(int mode, uint32_t pred, uint32_t members)
{
    uint32_t on = pred & members;
    switch (mode) {
    case PTX_SFX_ALL: return on == members;
    case PTX_SFX_ANY: return on != 0;
    case PTX_SFX_BALLOT: return on;
    default: return on == members || on == 0;   /* UNI */
    }
}

/* match.any: the members whose value (v: every lane's) equals lane's. */
uint32_t sem_warp_match_any(const uint64_t v[32], uint32_t members, unsigned lane);
/* match.all: the members when every member's value equals lane's (*all true), else 0. */
uint32_t sem_warp_match_all(const uint64_t v[32], uint32_t members, unsigned lane, bool *all);

/* redux.sync.op: acc combined with x (op ADD, MIN, MAX, AND, OR, XOR; 32-bit values, min and
 * max signed when is_signed). */
inline uint32_t sem_warp_redux_step(int op, bool is_signed, uint32_t acc, uint32_t x)
{
    switch (op) {
    case PTX_SFX_ADD: return acc + x;
    case PTX_SFX_AND: return acc & x;
    case PTX_SFX_OR: return acc | x;
    case PTX_SFX_XOR: return acc ^ x;
    case PTX_SFX_MIN: return (is_signed ? (int32_t)x < (int32_t)acc : x < acc) ? x : acc;
    default: return (is_signed ? (int32_t)x > (int32_t)acc : x > acc) ? x : acc;   /* MAX */
    }
}
/* redux.sync.op over the members' values (v: every lane's, low 32 bits); 0 for no member. */
uint32_t sem_warp_redux(int op, bool is_signed, const uint64_t v[32], uint32_t members);

/* elect.sync: the leader of the members, their lowest lane (0 when there is none); a lane's
 * predicate is lane == leader for a non-empty set. */
inline unsigned sem_warp_elect(uint32_t members)
{
    return members ? (unsigned)__builtin_ctz(members) : 0;
}

/* ---- matrix family (sem_mma.c): where each matrix element sits in a warp's fragment
 * registers, the sparse-metadata and ldmatrix layouts, and what the tensor cores compute;
 * shared by mma.sync (exec_mma.c) and wmma (exec_wmma.c). */
enum { EMU_MMA_A, EMU_MMA_B, EMU_MMA_C };
/* Bits of a matrix element of type t (b1 1, s4 4, s8 8, f16 16, f64 64, else 32). */
unsigned emu_mma_bits(uint8_t t);
/* Bits of a fragment register holding elements of ebits (64 for f64, else 32), and how many
 * registers n elements take. */
inline unsigned sem_mma_reg_bits(unsigned ebits) { return ebits == 64 ? 64 : 32; }
inline unsigned sem_mma_regs(unsigned n, unsigned ebits)
{
    unsigned per = sem_mma_reg_bits(ebits) / ebits;
    return (n + per - 1) / per;
}
/* Distinct elements a lane holds of matrix `which` of an m x n x k operation (sm_80 layouts). */
unsigned emu_mma_distinct(int which, unsigned m, unsigned n, unsigned k, unsigned ebits);
/* (row, col) of element e (counted over the fragment registers, low bits first) of lane. */
void emu_mma_pos(int which, unsigned m, unsigned n, unsigned k, unsigned ebits, unsigned lane,
                 unsigned e, unsigned *row, unsigned *col);
/* The same for mma.m8n8k4 with .f16 (within the lane's quad-pair's 8x8x4 operation). */
void emu_mma_pos_m8n8k4(int which, bool row_major, bool f32_acc, unsigned lane, unsigned e,
                        unsigned *row, unsigned *col);
/* (row, col) of half h (0: low 16 bits) of lane's register in an 8x8 b16 matrix fragment of
 * ldmatrix, stmatrix and movmatrix; with trans, that position of the transpose. */
inline void sem_mma_b16_pos(unsigned lane, unsigned h, bool trans, unsigned *row,
                            unsigned *col)
{
    unsigned r = lane >> 2, c = (lane & 3) * 2 + h;
    *row = trans ? c : r;
    *col = trans ? r : c;
}
/* Fragment registers and dense matrices: element e of lane (e < n) is register e / per at bits
 * (e % per) * ebits (per = sem_mma_reg_bits(ebits) / ebits), and idx[e * 32 + lane] is its
 * index in the row-major matrix. regs[r] is register r's row of 32 lanes. Only `lanes` move;
 * scatter ORs the elements into the registers, which start zeroed. */
void sem_mma_gather(const uint64_t *const *regs, unsigned ebits, unsigned n, const uint16_t *idx,
                    uint32_t lanes, uint64_t *mat);
void sem_mma_scatter(const uint64_t *mat, unsigned ebits, unsigned n, const uint16_t *idx,
                     uint32_t lanes, uint64_t (*regs)[32]);
typedef struct emu_mma_op {
    unsigned m, n, k;
    uint8_t at, bt, ct, dt;
    bool satfinite;
    uint16_t bitop;            /* b1: PTX_SFX_AND or PTX_SFX_XOR */
} emu_mma_op;
/* mma.sp: the dense m x k matrix A of the compressed one Ac (m x k/2, the kept elements in
 * order) under the metadata (every lane's register e) and the sparsity selector sel. */
void sem_mma_sparse_expand(const emu_mma_op *op, const uint64_t meta[32], unsigned sel,
                           const uint64_t *Ac, uint64_t *A);
/* D = A x B + C on row-major matrices of element bits (A: m x k, B: k x n, C and D: m x n;
 * m, n <= 32, k <= 256). */
void emu_mma_compute(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                     const uint64_t *C, uint64_t *D);

#endif
