/* sem.h: instruction semantics as plain C functions on values.
 *
 * These are the single definition of every operation that is more than one C operator
 * (rounding modes, saturation, flush-to-zero, approximate math, small float formats,
 * conversions): the interpreter calls them per lane, and the JIT will call the same functions
 * from generated code, so both engines agree bit for bit.
 */
#ifndef PTXSIM_EMULATOR_SEM_H
#define PTXSIM_EMULATOR_SEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline float emu_as_f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t emu_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double emu_as_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static inline uint64_t emu_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ---- sem_float.c: f32/f64 (rnd is a ptx_round; PTX_RND_NONE means round to nearest) */
float emu_ftz32(float x);
float emu_add_f32(float a, float b, int rnd);
float emu_mul_f32(float a, float b, int rnd);
float emu_fma_f32(float a, float b, float c, int rnd);
float emu_div_f32(float a, float b, int rnd);
float emu_sqrt_f32(float a, int rnd);
float emu_rcp_f32(float a, int rnd);
double emu_add_f64(double a, double b, int rnd);
double emu_mul_f64(double a, double b, int rnd);
double emu_fma_f64(double a, double b, double c, int rnd);
double emu_div_f64(double a, double b, int rnd);
double emu_sqrt_f64(double a, int rnd);
double emu_rcp_f64(double a, int rnd);
/* min/max: NaN inputs are ignored unless nan_mode (then NaN wins); -0 < +0 */
float emu_min_f32(float a, float b, bool nan_mode);
float emu_max_f32(float a, float b, bool nan_mode);
double emu_min_f64(double a, double b, bool nan_mode);
double emu_max_f64(double a, double b, bool nan_mode);
float emu_sat_f32(float x);      /* clamp to [0, 1], NaN -> 0 */
double emu_sat_f64(double x);
/* the .approx functions of the ISA (single precision) */
float emu_approx_f32(int op, float x);   /* op: ptx_opcode RCP/SQRT/RSQRT/SIN/COS/LG2/EX2/TANH */
double emu_rsqrt_f64(double x);
double emu_rcp_approx_ftz_f64(double a);
/* testp.{finite,infinite,number,notanumber,normal,subnormal}: mode is the ptx_suffix;
 * is_subnormal tells whether x is subnormal in its own format */
bool emu_testp(int mode, double x, bool is_subnormal);
/* setp comparisons on floats: cmp is a ptx_cmp */
bool emu_cmp_float(int cmp, double a, double b);
bool emu_cmp_int(int cmp, uint64_t a, uint64_t b, bool is_signed, unsigned bits);
/* Runs with the host rounding mode set to rnd; returns the previous mode. */
int emu_round_enter(int rnd);
void emu_round_leave(int saved);

/* ---- sem_half.c: narrow formats from/to double */
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
/* Arithmetic on one half-precision lane: op is a ptx_opcode (ADD/SUB/MUL/FMA/MIN/MAX/NEG/ABS),
 * bf selects bf16. The result is rounded once, to nearest unless rnd says otherwise. */
uint16_t emu_half_op(int op, bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz,
                     bool sat, bool nan_mode, bool relu);

/* ---- sem_cvt.c */
/* cvt dtype.stype: value bits of the source in, value bits of the destination out (not yet
 * extended to the register width). rnd/ftz/sat/satfinite as written. */
uint64_t emu_cvt(uint8_t dtype, uint8_t stype, int rnd, bool ftz, bool sat, bool satfinite,
                 uint64_t v);
/* Float (as double) to integer type with integer rounding rnd (RNI/RZI/RMI/RPI; NONE = RZI),
 * saturating to the destination range; NaN gives 0. */
uint64_t emu_float_to_int(double x, unsigned bits, bool is_signed, int rnd);

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

#endif
