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
 * Arithmetic: products of f16, bf16, tf32 and fp8 values are exact in double precision, so the
 * sum over k is formed exactly and rounded once to the accumulator type; f64 is a chain of fmas
 * in k order; integers are exact (.satfinite clamps to s32); b1 uses AND or XOR and popc.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

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

/* The value of an element (its bits in the low end of v). */
static double fval(uint8_t t, uint64_t v)
{
    switch (t) {
    case PTX_TYPE_F16: return emu_f16_to_f64((uint16_t)v);
    case PTX_TYPE_BF16: return emu_bf16_to_f64((uint16_t)v);
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

void emu_mma_compute(const emu_mma_op *op, const uint64_t *A, const uint64_t *B,
                     const uint64_t *C, uint64_t *D)
{
    unsigned M = op->m, N = op->n, K = op->k;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            uint64_t cb = C[i * N + j], out;
            if (op->dt == PTX_TYPE_S32) {
                int64_t acc = emu_sext(cb, 32);
                for (unsigned kk = 0; kk < K; kk++) {
                    uint64_t a = A[i * K + kk], b = B[kk * N + j];
                    if (op->at == PTX_TYPE_B1)
                        acc += op->bitop == PTX_SFX_XOR ? ((a ^ b) & 1) : (a & b & 1);
                    else
                        acc += ival(op->at, a) * ival(op->bt, b);
                }
                if (op->satfinite) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                out = (uint64_t)(uint32_t)(int32_t)acc;
            } else if (op->dt == PTX_TYPE_F64) {
                double acc = fval(PTX_TYPE_F64, cb);
                for (unsigned kk = 0; kk < K; kk++)
                    acc = fma(fval(op->at, A[i * K + kk]), fval(op->bt, B[kk * N + j]), acc);
                out = emu_f64_bits(acc);
            } else {
                double acc = fval(op->ct, cb);
                for (unsigned kk = 0; kk < K; kk++)
                    acc += fval(op->at, A[i * K + kk]) * fval(op->bt, B[kk * N + j]);
                if (op->dt == PTX_TYPE_F16) {
                    out = emu_f64_to_f16(acc, PTX_RND_RN);
                    if (op->satfinite && (out & 0x7fff) == 0x7c00) out = (out & 0x8000) | 0x7bff;
                } else {
                    float f = (float)acc;
                    if (op->satfinite && isinf(f)) f = copysignf(3.40282347e38f, f);
                    out = emu_f32_bits(f);
                }
            }
            D[i * N + j] = out;
        }
}
