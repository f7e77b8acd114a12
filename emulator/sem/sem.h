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
 *   mode, which the float helpers set and restore themselves. This header includes nothing of
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

static inline uint64_t emu_mask_bits(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1);
}
static inline int64_t emu_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0) return (int64_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= emu_mask_bits(bits);
    return (int64_t)((v ^ m) - m);
}
static inline bool emu_is_signed(uint8_t t) { return emu_type_kind[t] == EMU_TK_S; }
static inline bool emu_is_float(uint8_t t) { return emu_type_kind[t] == EMU_TK_F; }



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

/* ---- integer family (sem_int.c): arithmetic with carry and saturation, multiply forms, division
 * rules, shifts, bit fields, prmt, lop3, dp2a/dp4a, SIMD16 */

/* ---- comparison family (sem_cmp.c): setp/set/selp/slct rules on every type */

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
