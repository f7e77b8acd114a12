/* sem_mma.c: what the tensor cores compute, and where each matrix element sits in a warp's
 * fragment registers; shared by mma.sync (exec_mma.c) and wmma (exec_wmma.c).
 *
 * Fragment layouts (PTX ISA, "Matrix fragments for mma"): every mma shape of sm_80 and later
 * is built from three tiles of 32-bit words, with groupID g = laneid >> 2 and
 * threadID_in_group t = laneid % 4:
 *   A: 8 rows x 4 words; lane (g, t) holds word t of row g. Row tiles vary fastest
 *      (a0: rows 0-7, a1: rows 8-15, then the next four words of K).
 *   B: 4 words x 8 columns; lane holds word t of column g. K tiles vary fastest.
 *   C/D: 8 x 8 elements; lane holds row g, columns 2t and 2t+1. Row tiles vary fastest.
 * A word packs 32/bits consecutive K elements (f16: 2, s8: 4, s4: 8, b1: 32; tf32/f32: 1); an
 * f64 element is a word of its own. The ISA's per-shape formulas are all instances of this.
 * wmma's layouts are the hardware's on sm_80 and later, which compose the same tiles (the
 * m16n16k16 A fragment is the mma.m16n8k16 A fragment; B and C are two mma fragments side by
 * side), and a wmma fragment with more registers than distinct elements holds them again
 * (element e is element e mod distinct). mma.m8n8k4 with .f16 (four independent MMAs, one per
 * quad-pair) has its own layout.
 *
 * Arithmetic: each product of f16, bf16, tf32 and fp8 values is exact in double precision; the
 * products are summed in k order in double precision and the sum is rounded once to the
 * accumulator type; f64 is a chain of fmas in k order; integers are exact (.satfinite clamps to
 * s32); b1 uses AND or XOR and popc. Elements are converted to double (or integers) once per
 * operation, not once per product. An f32 NaN result is the canonical NaN 0x7fffffff.
 */
#include "emulator/sem/sem.h"

#include <assert.h>
#include <math.h>

unsigned emu_mma_bits(uint8_t t)
{
    switch (t) {
    case PTX_TYPE_B1: return 1;
    case PTX_TYPE_S4: case PTX_TYPE_U4: return 4;
    case PTX_TYPE_S8: case PTX_TYPE_U8: case PTX_TYPE_E4M3: case PTX_TYPE_E5M2: return 8;
    case PTX_TYPE_F16: case PTX_TYPE_BF16: return 16;
    case PTX_TYPE_F64: return 64;
    default: return 32;   /* tf32, f32, s32 */
    }
}

static unsigned per_word(unsigned ebits) { return ebits >= 32 ? 1 : 32 / ebits; }

unsigned emu_mma_distinct(int which, unsigned m, unsigned n, unsigned k, unsigned ebits)
{
    unsigned per = per_word(ebits);
    switch (which) {
    case EMU_MMA_A: return (m / 8) * ((k / per + 3) / 4) * per;
    case EMU_MMA_B: return (n / 8) * ((k / per + 3) / 4) * per;
    default: return (m / 8) * (n / 8) * 2;
    }
}

void emu_mma_pos(int which, unsigned m, unsigned n, unsigned k, unsigned ebits, unsigned lane,
                 unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, per = per_word(ebits);
    e %= emu_mma_distinct(which, m, n, k, ebits);
    unsigned w = e / per, s = e % per, kt = (k / per + 3) / 4;
    switch (which) {
    case EMU_MMA_A: {
        unsigned rt = m / 8;
        *row = g + 8 * (w % rt);
        *col = (t + 4 * (w / rt)) * per + s;
        return;
    }
    case EMU_MMA_B:
        *row = (t + 4 * (w % kt)) * per + s;
        *col = g + 8 * (w / kt);
        return;
    default: {
        unsigned rt = m / 8, tile = e / 2;
        *row = g + 8 * (tile % rt);
        *col = 2 * t + (e & 1) + 8 * (tile / rt);
        return;
    }
    }
}

void emu_mma_pos_m8n8k4(int which, bool row_major, bool f32_acc, unsigned lane, unsigned e,
                        unsigned *row, unsigned *col)
{
    unsigned hi = lane >= 16 ? 4 : 0, q = lane % 4;
    switch (which) {
    case EMU_MMA_A:
        if (row_major) *row = q + hi, *col = e;
        else *row = e % 4 + hi, *col = q;
        return;
    case EMU_MMA_B:
        if (row_major) *row = q, *col = e + hi;
        else *row = e, *col = q + hi;
        return;
    default:
        if (!f32_acc) {
            *row = q + hi;
            *col = e;
        } else {
            *row = (lane & 1) + (e & 2) + hi;
            *col = (e & 4) + (lane & 2) + (e & 1);
        }
        return;
    }
}

void sem_mma_gather(const uint64_t *const *regs, unsigned ebits, unsigned n, const uint16_t *idx,
                    uint32_t lanes, uint64_t *mat)
{
    unsigned per = sem_mma_reg_bits(ebits) / ebits;
    uint64_t m = emu_mask_bits(ebits);
    for (unsigned e = 0; e < n; e++) {
        const uint64_t *r = regs[e / per];
        const uint16_t *ix = idx + e * 32;
        unsigned sh = ebits >= 64 ? 0 : ebits * (e % per);
        if (lanes == 0xffffffffu) {
            for (unsigned l = 0; l < 32; l++) mat[ix[l]] = (r[l] >> sh) & m;
        } else {
            for (uint32_t mk = lanes; mk; mk &= mk - 1) {
                unsigned l = (unsigned)__builtin_ctz(mk);
                mat[ix[l]] = (r[l] >> sh) & m;
            }
        }
    }
}

void sem_mma_scatter(const uint64_t *mat, unsigned ebits, unsigned n, const uint16_t *idx,
                     uint32_t lanes, uint64_t (*regs)[32])
{
    unsigned per = sem_mma_reg_bits(ebits) / ebits;
    uint64_t m = emu_mask_bits(ebits);
    for (unsigned e = 0; e < n; e++) {
        uint64_t *r = regs[e / per];
        const uint16_t *ix = idx + e * 32;
        unsigned sh = ebits >= 64 ? 0 : ebits * (e % per);
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            unsigned l = (unsigned)__builtin_ctz(mk);
            r[l] |= (mat[ix[l]] & m) << sh;
        }
    }
}

/* Sparse A: the fragment holds the two kept units of each 4-unit chunk of a row; the
 * metadata's 2-bit indices say where they sit, chunk after chunk along a row's bit stream.
 * Units are 16 bits for 16- and 32-bit types (a tf32 element is two units, kept together) and
 * 8 bits for 8- and 4-bit types (an s4 unit is a pair of elements).
 * Which thread of a group of four holds which bits differs between the two:
 * - 16-bit units: a word holds 16 bits of row g's stream (low half) and the same 16 bits of
 *   row g+8's (high half); with two words per row pair, thread 2*sel + w holds bits 16w..
 * - 8-bit units: a word holds 32 consecutive bits of one row's stream: with four threads
 *   (m16n8k64 s8 and fp8, m16n8k128 s4), thread t holds bits 32*(t>>1).. of row g + 8*(t&1)
 *   (the ISA's m16n8k64 u8/s8 figures; Triton's dot_sparse work measured the same on sm_86 to
 *   sm_120, and found it is not the 16-bit rule); with two (m16n8k32 s8, m16n8k64 s4), thread
 *   2*sel + j holds row g + 8j, the same one-row-per-word rule. */
void sem_mma_sparse_expand(const emu_mma_op *op, const uint64_t meta[32], unsigned sel,
                           const uint64_t *Ac, uint64_t *A)
{
    unsigned eb = emu_mma_bits(op->at), ub = eb >= 16 ? 16 : 8;
    unsigned kc = op->k / 2, kunits = op->k * eb / ub, words = 2 * kunits / 32;
    memset(A, 0, sizeof(uint64_t) * op->m * op->k);
    for (unsigned r = 0; r < op->m; r++)
        for (unsigned cc = 0; cc < kc; cc++) {
            unsigned cbit = cc * eb, cu = cbit / ub, chunk = cu / 2, slot = cu % 2;
            unsigned bitpos = (chunk * 2 + slot) * 2, word = bitpos / 16;
            unsigned g = r % 8, hi = r >= 8, lane, sh;
            if (ub == 8) {
                if (words == 2) lane = g * 4 + 2 * sel + hi;
                else lane = g * 4 + 2 * (bitpos / 32) + hi;
                sh = bitpos % 32;
            } else {
                if (words == 1) lane = g * 4 + sel;
                else lane = g * 4 + 2 * sel + word;
                sh = bitpos % 16 + (hi ? 16 : 0);
            }
            unsigned idx = (unsigned)(meta[lane] >> sh) & 3;
            unsigned unit = chunk * 4 + idx;
            unsigned col = (unit * ub + cbit % ub) / eb;
            if (col < op->k) A[r * op->k + col] = Ac[r * kc + cc];
        }
}

/* A 16-bit float with ebits exponent bits as a double: zeros and normal numbers are built
 * directly (the same exact value, without emu_format_to_f64's ldexp; checked equal for all
 * 65536 f16 and bf16 inputs), the rest go through the format rule. */
static double narrow_value(uint16_t h, int ebits)
{
    int mbits = 15 - ebits, bias = (1 << (ebits - 1)) - 1;
    uint64_t ex = (h >> mbits) & ((1u << ebits) - 1);
    if ((h & 0x7fff) == 0) return h ? -0.0 : 0.0;   /* ±0 */
    if (ex == 0 || ex == (1u << ebits) - 1) return emu_format_to_f64(h, ebits, mbits);
    return emu_as_f64((uint64_t)(h >> 15) << 63 | (ex - (uint64_t)bias + 1023) << 52 |
                      (uint64_t)(h & ((1u << mbits) - 1)) << (52 - mbits));
}

/* The value of an element (its bits in the low end of v). */
static double fval(uint8_t t, uint64_t v)
{
    switch (t) {
    case PTX_TYPE_F16: return narrow_value((uint16_t)v, 5);
    case PTX_TYPE_BF16: return narrow_value((uint16_t)v, 8);
    case PTX_TYPE_TF32: return emu_as_f32(v & ~UINT64_C(0x1fff));   /* the low 13 bits are ignored */
    case PTX_TYPE_F32: return emu_as_f32(v);
    case PTX_TYPE_F64: return emu_as_f64(v);
    case PTX_TYPE_E4M3: return emu_e4m3_to_f32((uint8_t)v);
    case PTX_TYPE_E5M2: return emu_e5m2_to_f32((uint8_t)v);
    default: return 0;
    }
}

static int64_t ival(uint8_t t, uint64_t v)
{
    switch (t) {
    case PTX_TYPE_S4: return emu_sext(v, 4);
    case PTX_TYPE_U4: return (int64_t)(v & 0xf);
    case PTX_TYPE_S8: return emu_sext(v, 8);
    case PTX_TYPE_U8: return (int64_t)(v & 0xff);
    case PTX_TYPE_B1: return (int64_t)(v & 1);
    default: return emu_sext(v, 32);
    }
}

enum { MAX_MN = 32, MAX_K = 256, MAX_KN = 2048, MAX_K_WORDS = MAX_K / 64 };

/* An f32 NaN result is the canonical NaN, as ptxsim's other f32 arithmetic gives it (the GPU's
 * encoding), rather than whichever NaN the host's additions propagate: which operand's NaN an
 * x86 addition keeps depends on the order the compiler emits, so the bits would vary by build. */
#define CANONICAL_NAN32 UINT64_C(0x7fffffff)

static uint64_t s32_result(const emu_mma_op *op, int64_t acc)
{
    if (op->satfinite) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
    return (uint64_t)(uint32_t)(int32_t)acc;
}

/* b1: each row of A and column of B as a bit string; the sum over k is a popc per word */
static void compute_b1(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                       const uint64_t *C, uint64_t *D)
{
    unsigned M = op->m, N = op->n, K = op->k, nw = (K + 63) / 64;
    uint64_t bcol[MAX_MN][MAX_K_WORDS] = { { 0 } }, arow[MAX_K_WORDS];
    for (unsigned kk = 0; kk < K; kk++)
        for (unsigned j = 0; j < N; j++) bcol[j][kk / 64] |= (B[kk * N + j] & 1) << (kk % 64);
    for (unsigned i = 0; i < M; i++) {
        for (unsigned w = 0; w < nw; w++) arow[w] = 0;
        for (unsigned kk = 0; kk < K; kk++) arow[kk / 64] |= (A[i * K + kk] & 1) << (kk % 64);
        for (unsigned j = 0; j < N; j++) {
            int64_t acc = emu_sext(C[i * N + j], 32);
            for (unsigned w = 0; w < nw; w++) {
                uint64_t valid = K - 64 * w >= 64 ? ~UINT64_C(0) : emu_mask_bits(K - 64 * w);
                uint64_t x = op->bitop == PTX_SFX_XOR ? arow[w] ^ bcol[j][w] : arow[w] & bcol[j][w];
                acc += __builtin_popcountll(x & valid);
            }
            D[i * N + j] = s32_result(op, acc);
        }
    }
}

static void compute_int(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                        const uint64_t *C, uint64_t *D)
{
    unsigned M = op->m, N = op->n, K = op->k;
    int64_t bt[MAX_KN], ar[MAX_K];   /* B transposed: bt[j * K + k] */
    for (unsigned kk = 0; kk < K; kk++)
        for (unsigned j = 0; j < N; j++) bt[j * K + kk] = ival(op->bt, B[kk * N + j]);
    for (unsigned i = 0; i < M; i++) {
        for (unsigned kk = 0; kk < K; kk++) ar[kk] = ival(op->at, A[i * K + kk]);
        for (unsigned j = 0; j < N; j++) {
            int64_t acc = emu_sext(C[i * N + j], 32);
            const int64_t *b = &bt[j * K];
            for (unsigned kk = 0; kk < K; kk++) acc += ar[kk] * b[kk];
            D[i * N + j] = s32_result(op, acc);
        }
    }
}

static void compute_float(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                          const uint64_t *C, uint64_t *D)
{
    unsigned M = op->m, N = op->n, K = op->k;
    double bt[MAX_KN], ar[MAX_K];   /* B transposed: bt[j * K + k] */
    for (unsigned kk = 0; kk < K; kk++)
        for (unsigned j = 0; j < N; j++) bt[j * K + kk] = fval(op->bt, B[kk * N + j]);
    for (unsigned i = 0; i < M; i++) {
        for (unsigned kk = 0; kk < K; kk++) ar[kk] = fval(op->at, A[i * K + kk]);
        for (unsigned j = 0; j < N; j++) {
            uint64_t cb = C[i * N + j], out;
            const double *b = &bt[j * K];
            if (op->dt == PTX_TYPE_F64) {
                double acc = fval(PTX_TYPE_F64, cb);
                for (unsigned kk = 0; kk < K; kk++) acc = fma(ar[kk], b[kk], acc);
                out = emu_f64_bits(acc);
            } else {
                double acc = fval(op->ct, cb);
                for (unsigned kk = 0; kk < K; kk++) acc += ar[kk] * b[kk];
                if (op->dt == PTX_TYPE_F16) {
                    out = emu_f64_to_f16(acc, PTX_RND_RN);
                    if (op->satfinite && (out & 0x7fff) == 0x7c00) out = (out & 0x8000) | 0x7bff;
                } else {
                    float f = (float)acc;
                    if (op->satfinite && isinf(f)) f = copysignf(3.40282347e38f, f);
                    out = isnan(f) ? CANONICAL_NAN32 : emu_f32_bits(f);
                }
            }
            D[i * N + j] = out;
        }
    }
}

void emu_mma_compute(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                     const uint64_t *C, uint64_t *D)
{
    assert(op->m <= MAX_MN && op->n <= MAX_MN && op->k <= MAX_K && op->k * op->n <= MAX_KN);
    if (op->dt != PTX_TYPE_S32) compute_float(op, A, B, C, D);
    else if (op->at == PTX_TYPE_B1) compute_b1(op, A, B, C, D);
    else compute_int(op, A, B, C, D);
}
