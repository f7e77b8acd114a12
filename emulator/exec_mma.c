/* exec_mma.c: the warp-level matrix instructions with documented fragment layouts: mma.sync
 * (f16, bf16, tf32, f64, s8/u8 shapes of sm_80), ldmatrix, stmatrix and movmatrix.
 *
 * Each fragment register element is placed at the (row, col) the PTX ISA's fragment figures
 * give, from groupID = laneid >> 2 and threadID_in_group = laneid % 4, so code that builds
 * fragments by hand (CUTLASS, inline assembly) sees the values the hardware would give.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem.h"

#include <math.h>
#include <string.h>

enum { MA, MB, MC };

typedef struct mma_form {
    unsigned m, n, k;
    uint8_t at, bt, ct, dt;   /* element types */
} mma_form;

static bool form_of(const ptx_instr *in, mma_form *f)
{
    f->m = f->n = f->k = 0;
    for (int i = 0; i < in->nsfx; i++) {
        switch (in->sfx[i]) {
        case PTX_SFX_M16N8K16: f->m = 16, f->n = 8, f->k = 16; break;
        case PTX_SFX_M16N8K8: f->m = 16, f->n = 8, f->k = 8; break;
        case PTX_SFX_M16N8K4: f->m = 16, f->n = 8, f->k = 4; break;
        case PTX_SFX_M16N8K32: f->m = 16, f->n = 8, f->k = 32; break;
        case PTX_SFX_M8N8K4: f->m = 8, f->n = 8, f->k = 4; break;
        case PTX_SFX_M8N8K16: f->m = 8, f->n = 8, f->k = 16; break;
        default: break;
        }
    }
    if (!f->m || in->ntypes != 4) return false;
    f->dt = in->types[0];
    f->at = in->types[1];
    f->bt = in->types[2];
    f->ct = in->types[3];
    return true;
}

static unsigned esize(uint8_t t)
{
    switch (t) {
    case PTX_TYPE_F16: case PTX_TYPE_BF16: return 2;
    case PTX_TYPE_S8: case PTX_TYPE_U8: return 1;
    case PTX_TYPE_F64: return 8;
    default: return 4;
    }
}

/* (row, col) of element j (counted over the packed elements of the fragment registers) of
 * matrix `which` held by lane. False for a combination the ISA does not define. */
static bool coord(const mma_form *f, int which, unsigned j, unsigned lane, unsigned *row,
                  unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    uint8_t ty = which == MA ? f->at : which == MB ? f->bt : f->ct;
    if (which == MC) {
        if (f->m == 16) {   /* 16x8 accumulators: c0..c3 */
            *row = g + 8 * (j >> 1);
            *col = t * 2 + (j & 1);
        } else {            /* 8x8: c0, c1 */
            *row = g;
            *col = t * 2 + (j & 1);
        }
        return true;
    }
    switch (ty) {
    case PTX_TYPE_F16: case PTX_TYPE_BF16:
        if (f->m == 16 && f->k == 16) {
            if (which == MA) *row = g + 8 * ((j >> 1) & 1), *col = t * 2 + (j & 1) + 8 * (j >> 2);
            else *row = t * 2 + (j & 1) + 8 * (j >> 1), *col = g;
            return true;
        }
        if (f->m == 16 && f->k == 8) {
            if (which == MA) *row = g + 8 * (j >> 1), *col = t * 2 + (j & 1);
            else *row = t * 2 + j, *col = g;
            return true;
        }
        return false;
    case PTX_TYPE_TF32:
        if (f->k == 8) {
            if (which == MA) *row = g + 8 * (j & 1), *col = t + 4 * (j >> 1);
            else *row = t + 4 * j, *col = g;
            return true;
        }
        if (f->k == 4) {
            if (which == MA) *row = g + 8 * j, *col = t;
            else *row = t, *col = g;
            return true;
        }
        return false;
    case PTX_TYPE_F64:
        if (f->m == 8 && f->k == 4) {
            if (which == MA) *row = g, *col = t;
            else *row = t, *col = g;
            return true;
        }
        return false;
    case PTX_TYPE_S8: case PTX_TYPE_U8:
        if (f->m == 16 && f->k == 32) {
            if (which == MA) *row = g + 8 * ((j >> 2) & 1), *col = t * 4 + (j & 3) + 16 * (j >> 3);
            else *row = t * 4 + (j & 3) + 16 * (j >> 2), *col = g;
            return true;
        }
        if (f->m == 16 && f->k == 16) {
            if (which == MA) *row = g + 8 * (j >> 2), *col = t * 4 + (j & 3);
            else *row = t * 4 + j, *col = g;
            return true;
        }
        if (f->m == 8 && f->k == 16) {
            if (which == MA) *row = g, *col = t * 4 + j;
            else *row = t * 4 + j, *col = g;
            return true;
        }
        return false;
    default: return false;
    }
}

static double val(uint8_t t, uint64_t bits)
{
    switch (t) {
    case PTX_TYPE_F16: return emu_f16_to_f64((uint16_t)bits);
    case PTX_TYPE_BF16: return emu_bf16_to_f64((uint16_t)bits);
    case PTX_TYPE_TF32: return emu_as_f32(bits & ~UINT64_C(0x1fff));
    case PTX_TYPE_F32: return emu_as_f32(bits);
    case PTX_TYPE_F64: return emu_as_f64(bits);
    case PTX_TYPE_S8: return (double)emu_sext(bits, 8);
    case PTX_TYPE_U8: return (double)(bits & 0xff);
    case PTX_TYPE_S32: return (double)emu_sext(bits, 32);
    default: return 0;
    }
}

/* Unpacks the fragment of matrix `which` (a register vector) into a dense row-major matrix. */
static void gather(emu_ctx *c, const mma_form *f, int which, const ptx_operand *v, uint64_t *mat,
                   unsigned cols)
{
    uint8_t ty = which == MA ? f->at : which == MB ? f->bt : f->ct;
    unsigned es = esize(ty), per = (es == 8 ? 8 : 4) / es;
    uint8_t rt = es == 8 ? PTX_TYPE_B64 : PTX_TYPE_B32;
    for (unsigned r = 0; r < v->nelem; r++) {
        uint64_t regs[EMU_WARP_SIZE];
        emu_read_all(c, &v->elems[r], rt, regs);
        for (unsigned p = 0; p < per; p++)
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
                unsigned row, col;
                if (!coord(f, which, r * per + p, lane, &row, &col)) continue;
                uint64_t x = es == 8 ? regs[lane] : (regs[lane] >> (8 * es * p)) & emu_mask_bits(8 * es);
                mat[row * cols + col] = x;
            }
    }
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c */
static void x_mma(emu_ctx *c, const ptx_instr *in)
{
    if (c->mask != 0xffffffffu) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                        "Invalid warp-synchronous instruction",
                        "mma.sync needs all 32 threads of the warp, active mask is 0x%08x",
                        c->mask);
        return;
    }
    mma_form f;
    form_of(in, &f);
    uint64_t A[16 * 32], B[32 * 8], C[16 * 8];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
    gather(c, &f, MA, &in->ops[1], A, f.k);
    gather(c, &f, MB, &in->ops[2], B, f.n);
    gather(c, &f, MC, &in->ops[3], C, f.n);
    bool satf = in->flags & PTX_F(SATFINITE);
    uint64_t D[16 * 8];
    for (unsigned m = 0; m < f.m; m++)
        for (unsigned n = 0; n < f.n; n++) {
            uint64_t cb = C[m * f.n + n], out;
            if (f.dt == PTX_TYPE_S32) {
                int64_t acc = emu_sext(cb, 32);
                for (unsigned k = 0; k < f.k; k++)
                    acc += (int64_t)val(f.at, A[m * f.k + k]) * (int64_t)val(f.bt, B[k * f.n + n]);
                if (satf) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                out = (uint64_t)acc & 0xffffffffu;
            } else if (f.dt == PTX_TYPE_F64) {
                double acc = val(f.ct, cb);
                for (unsigned k = 0; k < f.k; k++)
                    acc = fma(val(f.at, A[m * f.k + k]), val(f.bt, B[k * f.n + n]), acc);
                out = emu_f64_bits(acc);
            } else {
                /* products of f16/bf16/tf32 values are exact in f32; summed in k order */
                float acc = (float)val(f.ct, cb);
                for (unsigned k = 0; k < f.k; k++)
                    acc += (float)(val(f.at, A[m * f.k + k]) * val(f.bt, B[k * f.n + n]));
                out = f.dt == PTX_TYPE_F16 ? emu_f32_to_f16(acc, PTX_RND_RN, false)
                                           : emu_f32_bits(acc);
            }
            D[m * f.n + n] = out;
        }
    /* scatter D with the accumulator layout */
    const ptx_operand *dv = &in->ops[0];
    unsigned es = esize(f.dt), per = (es == 8 ? 8 : 4) / es;
    uint8_t rt = es == 8 ? PTX_TYPE_B64 : PTX_TYPE_B32;
    for (unsigned r = 0; r < dv->nelem; r++) {
        uint64_t regs[EMU_WARP_SIZE] = { 0 };
        for (unsigned p = 0; p < per; p++)
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
                unsigned row, col;
                coord(&f, MC, r * per + p, lane, &row, &col);
                uint64_t x = D[row * f.n + col];
                regs[lane] |= es == 8 ? x : x << (8 * es * p);
            }
        emu_write_all(c, &dv->elems[r], rt, regs);
    }
}

static unsigned count_of(const ptx_instr *in)
{
    for (int i = 0; i < in->nsfx; i++) {
        if (in->sfx[i] == PTX_SFX_X1) return 1;
        if (in->sfx[i] == PTX_SFX_X2) return 2;
        if (in->sfx[i] == PTX_SFX_X4) return 4;
    }
    return 0;
}

/* Lane l of an 8x8 b16 matrix fragment holds row l/4, columns 2*(l%4) and 2*(l%4)+1; with
 * .trans it holds that position of the transpose. */
static void frag_pos(unsigned lane, unsigned h, bool trans, unsigned *row, unsigned *col)
{
    unsigned r = lane >> 2, cc = (lane & 3) * 2 + h;
    if (trans) *row = cc, *col = r;
    else *row = r, *col = cc;
}

/* ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 d, [p]: lanes 8i..8i+7 give the row
 * addresses of matrix i. stmatrix is the same movement in reverse. */
static void x_ldstmatrix(emu_ctx *c, const ptx_instr *in)
{
    if (c->mask != 0xffffffffu) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                        "Invalid warp-synchronous instruction",
                        "%s needs all 32 threads of the warp, active mask is 0x%08x",
                        in->op == PTX_OP_LDMATRIX ? "ldmatrix" : "stmatrix", c->mask);
        return;
    }
    bool st = in->op == PTX_OP_STMATRIX;
    unsigned n = count_of(in);
    bool trans = in->flags & PTX_F(TRANS);
    const ptx_operand *ao = &in->ops[st ? 0 : 1], *rv = &in->ops[st ? 1 : 0];
    uint64_t rows_addr[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t base = ao->reg >= 0 ? emu_read(c, &(ptx_operand){ .kind = PTX_OPD_REG,
                                                                  .reg = ao->reg, .sym = -1 },
                                               l, PTX_TYPE_U64)
                                     : emu_symbol_address(c, ao->sym, NULL);
        rows_addr[l] = base + (uint64_t)ao->imm;
    }
    /* the 8 rows of each matrix, 16 bytes each: lane 8*i + r moves row r of matrix i */
    uint32_t movers = n == 1 ? 0xffu : n == 2 ? 0xffffu : 0xffffffffu;
    uint8_t rowdata[EMU_WARP_SIZE][16];
    uint64_t regs[4][EMU_WARP_SIZE];
    if (st) {
        for (unsigned i = 0; i < n; i++) {
            const ptx_operand *e = rv->kind == PTX_OPD_VEC ? &rv->elems[i] : rv;
            emu_read_all(c, e, PTX_TYPE_B32, regs[i]);
        }
        for (unsigned i = 0; i < n; i++)
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++)
                for (unsigned h = 0; h < 2; h++) {
                    unsigned row, col;
                    frag_pos(lane, h, trans, &row, &col);
                    uint16_t v = (uint16_t)(regs[i][lane] >> (16 * h));
                    memcpy(&rowdata[8 * i + row][2 * col], &v, 2);
                }
        emu_mem_lanes(c, in, in->space, rows_addr, movers, 16, rowdata, true);
        return;
    }
    if (!emu_mem_lanes(c, in, in->space, rows_addr, movers, 16, rowdata, false)) return;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            uint64_t v = 0;
            for (unsigned h = 0; h < 2; h++) {
                unsigned row, col;
                frag_pos(lane, h, trans, &row, &col);
                uint16_t x;
                memcpy(&x, &rowdata[8 * i + row][2 * col], 2);
                v |= (uint64_t)x << (16 * h);
            }
            regs[i][lane] = v;
        }
        const ptx_operand *e = rv->kind == PTX_OPD_VEC ? &rv->elems[i] : rv;
        emu_write_all(c, e, PTX_TYPE_B32, regs[i]);
    }
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: transposes an 8x8 b16 fragment */
static void x_movmatrix(emu_ctx *c, const ptx_instr *in)
{
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    emu_read_all(c, &in->ops[1], PTX_TYPE_B32, a);
    uint16_t m[8][8];
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++)
        for (unsigned h = 0; h < 2; h++) {
            unsigned row, col;
            frag_pos(lane, h, false, &row, &col);
            m[row][col] = (uint16_t)(a[lane] >> (16 * h));
        }
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t v = 0;
        for (unsigned h = 0; h < 2; h++) {
            unsigned row, col;
            frag_pos(lane, h, true, &row, &col);
            v |= (uint64_t)m[row][col] << (16 * h);
        }
        d[lane] = v;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* Number of registers the fragment of `which` takes. */
static unsigned frag_regs(const mma_form *f, int which)
{
    unsigned rows = which == MA ? f->m : which == MB ? f->k : f->m;
    unsigned cols = which == MA ? f->k : f->n;
    uint8_t ty = which == MA ? f->at : which == MB ? f->bt : f->ct;
    unsigned es = esize(ty), per = (es == 8 ? 8 : 4) / es;
    return rows * cols / (EMU_WARP_SIZE * per);
}

emu_exec_fn emu_select_mma(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_MMA: {
        mma_form f;
        if (!form_of(in, &f) || in->nops != 4) return NULL;
        if (ptx_instr_has(in, PTX_SFX_COL) && !ptx_instr_has(in, PTX_SFX_ROW)) return NULL;
        if (in->flags & (PTX_F(SP) | PTX_F(SPARSITY_SEL))) return NULL;
        bool fp = (f.at == PTX_TYPE_F16 || f.at == PTX_TYPE_BF16 || f.at == PTX_TYPE_TF32) &&
                  f.at == f.bt && (f.dt == PTX_TYPE_F32 || (f.dt == PTX_TYPE_F16 && f.at == PTX_TYPE_F16)) &&
                  (f.ct == PTX_TYPE_F32 || (f.ct == PTX_TYPE_F16 && f.at == PTX_TYPE_F16));
        bool f64 = f.at == PTX_TYPE_F64 && f.bt == PTX_TYPE_F64 && f.ct == PTX_TYPE_F64 &&
                   f.dt == PTX_TYPE_F64;
        bool i8 = (f.at == PTX_TYPE_S8 || f.at == PTX_TYPE_U8) &&
                  (f.bt == PTX_TYPE_S8 || f.bt == PTX_TYPE_U8) && f.ct == PTX_TYPE_S32 &&
                  f.dt == PTX_TYPE_S32;
        if (!fp && !f64 && !i8) return NULL;
        unsigned r, cc;
        if (!coord(&f, MA, 0, 0, &r, &cc) || !coord(&f, MB, 0, 0, &r, &cc)) return NULL;
        if (f.m * f.n > 16 * 8 || f.m * f.k > 16 * 32 || f.k * f.n > 32 * 8) return NULL;
        for (int i = 0; i < 4; i++)
            if (in->ops[i].kind != PTX_OPD_VEC) return NULL;
        uint8_t dsave = f.ct;
        f.ct = f.dt;
        bool dok = in->ops[0].nelem == frag_regs(&f, MC);
        f.ct = dsave;
        if (!dok || in->ops[1].nelem != frag_regs(&f, MA) || in->ops[2].nelem != frag_regs(&f, MB) ||
            in->ops[3].nelem != frag_regs(&f, MC))
            return NULL;
        return x_mma;
    }
    case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX: {
        if (in->nops != 2 || !count_of(in) || !ptx_instr_has(in, PTX_SFX_M8N8)) return NULL;
        if (emu_ty(in, 0) != PTX_TYPE_B16) return NULL;
        const ptx_operand *rv = &in->ops[in->op == PTX_OP_STMATRIX ? 1 : 0];
        unsigned nr = rv->kind == PTX_OPD_VEC ? rv->nelem : 1;
        if (nr != count_of(in)) return NULL;
        if (in->ops[in->op == PTX_OP_STMATRIX ? 0 : 1].kind != PTX_OPD_ADDR) return NULL;
        return x_ldstmatrix;
    }
    case PTX_OP_MOVMATRIX:
        if (in->nops != 2 || !(in->flags & PTX_F(TRANS))) return NULL;
        return x_movmatrix;
    default: return NULL;
    }
}
