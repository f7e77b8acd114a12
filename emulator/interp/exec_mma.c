/* exec_mma.c: the warp-level matrix instructions with the ISA's fragment layouts: mma.sync for
 * every shape and type of sm_70 to sm_90 (f16, bf16, tf32, f64, fp8, s8/u8, s4/u4, b1 with
 * AND/XOR popc, the quad-pair m8n8k4 form of sm_70), the sparse mma.sp forms, ldmatrix,
 * stmatrix and movmatrix.
 *
 * Each fragment register element is placed at the (row, col) the PTX ISA's fragment figures
 * give (sem_mma.c), so code that builds fragments by hand (CUTLASS, inline assembly) sees the
 * values the hardware would give.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <stdlib.h>
#include <string.h>

typedef struct mma_form {
    unsigned m, n, k;
    uint8_t at, bt, ct, dt;
    bool sparse, m8n8k4_f16;
    bool a_row, b_row;     /* m8n8k4 .f16: the layouts of A and B */
} mma_form;

static bool shape_of(const ptx_instr *in, unsigned *m, unsigned *n, unsigned *k)
{
    static const struct { uint16_t sfx; unsigned m, n, k; } shapes[] = {
        { PTX_SFX_M8N8K4, 8, 8, 4 },       { PTX_SFX_M8N8K16, 8, 8, 16 },
        { PTX_SFX_M8N8K32, 8, 8, 32 },     { PTX_SFX_M8N8K128, 8, 8, 128 },
        { PTX_SFX_M16N8K4, 16, 8, 4 },     { PTX_SFX_M16N8K8, 16, 8, 8 },
        { PTX_SFX_M16N8K16, 16, 8, 16 },   { PTX_SFX_M16N8K32, 16, 8, 32 },
        { PTX_SFX_M16N8K64, 16, 8, 64 },   { PTX_SFX_M16N8K128, 16, 8, 128 },
        { PTX_SFX_M16N8K256, 16, 8, 256 },
    };
    for (int i = 0; i < in->nsfx; i++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            if (in->sfx[i] == shapes[s].sfx) {
                *m = shapes[s].m, *n = shapes[s].n, *k = shapes[s].k;
                return true;
            }
    return false;
}

/* The layout suffixes in order (alayout, blayout): true for row. */
static void layouts(const ptx_instr *in, bool *a_row, bool *b_row)
{
    int seen = 0;
    *a_row = true;
    *b_row = false;
    for (int i = 0; i < in->nsfx; i++)
        if (in->sfx[i] == PTX_SFX_ROW || in->sfx[i] == PTX_SFX_COL) {
            if (seen == 0) *a_row = in->sfx[i] == PTX_SFX_ROW;
            else if (seen == 1) *b_row = in->sfx[i] == PTX_SFX_ROW;
            seen++;
        }
}

static bool is_i8(uint8_t t) { return t == PTX_TYPE_S8 || t == PTX_TYPE_U8; }
static bool is_i4(uint8_t t) { return t == PTX_TYPE_S4 || t == PTX_TYPE_U4; }
static bool is_fp8(uint8_t t) { return t == PTX_TYPE_E4M3 || t == PTX_TYPE_E5M2; }

/* Whether the shape and types are a combination the ISA defines (dense or sparse). */
static bool combination_ok(const mma_form *f)
{
    unsigned m = f->m, k = f->k;
    uint8_t at = f->at, bt = f->bt, ct = f->ct, dt = f->dt;
    bool f32acc = ct == PTX_TYPE_F32 && dt == PTX_TYPE_F32;
    bool facc = (ct == PTX_TYPE_F32 || ct == PTX_TYPE_F16) && (dt == PTX_TYPE_F32 || dt == PTX_TYPE_F16);
    bool s32acc = ct == PTX_TYPE_S32 && dt == PTX_TYPE_S32;
    if (f->sparse) {
        if (m != 16) return false;
        if (at == PTX_TYPE_F16 && bt == PTX_TYPE_F16) return facc && (k == 16 || k == 32);
        if (at == PTX_TYPE_BF16 && bt == PTX_TYPE_BF16) return f32acc && (k == 16 || k == 32);
        if (at == PTX_TYPE_TF32 && bt == PTX_TYPE_TF32) return f32acc && (k == 8 || k == 16);
        if (is_i8(at) && is_i8(bt)) return s32acc && (k == 32 || k == 64);
        if (is_i4(at) && is_i4(bt)) return s32acc && (k == 64 || k == 128);
        if (is_fp8(at) && is_fp8(bt)) return facc && k == 64;
        return false;
    }
    if (at == PTX_TYPE_F16 && bt == PTX_TYPE_F16)
        return facc && ((m == 8 && k == 4) || (m == 16 && (k == 8 || k == 16)));
    if (at == PTX_TYPE_BF16 && bt == PTX_TYPE_BF16) return f32acc && m == 16 && (k == 8 || k == 16);
    if (at == PTX_TYPE_TF32 && bt == PTX_TYPE_TF32) return f32acc && m == 16 && (k == 4 || k == 8);
    if (at == PTX_TYPE_F64 && bt == PTX_TYPE_F64)
        return ct == PTX_TYPE_F64 && dt == PTX_TYPE_F64 &&
               ((m == 8 && k == 4) || (m == 16 && (k == 4 || k == 8 || k == 16)));
    if (is_i8(at) && is_i8(bt)) return s32acc && ((m == 8 && k == 16) || (m == 16 && (k == 16 || k == 32)));
    if (is_i4(at) && is_i4(bt)) return s32acc && ((m == 8 && k == 32) || (m == 16 && (k == 32 || k == 64)));
    if (at == PTX_TYPE_B1 && bt == PTX_TYPE_B1)
        return s32acc && ((m == 8 && k == 128) || (m == 16 && (k == 128 || k == 256)));
    if (is_fp8(at) && is_fp8(bt)) return facc && m == 16 && (k == 16 || k == 32);
    return false;
}

static bool form_of(const ptx_instr *in, mma_form *f)
{
    memset(f, 0, sizeof *f);
    if (!shape_of(in, &f->m, &f->n, &f->k) || in->ntypes != 4) return false;
    f->dt = in->types[0];
    f->at = in->types[1];
    f->bt = in->types[2];
    f->ct = in->types[3];
    f->sparse = (in->flags & (PTX_F(SP) | PTX_F(SPARSITY_SEL))) != 0;
    layouts(in, &f->a_row, &f->b_row);
    f->m8n8k4_f16 = f->m == 8 && f->k == 4 && f->at == PTX_TYPE_F16;
    return true;
}

static unsigned reg_bits(unsigned ebits) { return ebits == 64 ? 64 : 32; }

/* Registers a fragment of `distinct` elements of ebits takes. */
static unsigned regs_for(unsigned distinct, unsigned ebits)
{
    unsigned per = reg_bits(ebits) / ebits;
    return (distinct + per - 1) / per;
}

/* Element e of a lane's fragment (registers `regs`, row-major by register). */
static uint64_t elem_of(uint64_t (*regs)[EMU_WARP_SIZE], unsigned ebits, unsigned lane, unsigned e)
{
    unsigned per = reg_bits(ebits) / ebits;
    uint64_t v = regs[e / per][lane];
    return ebits >= 64 ? v : (v >> (ebits * (e % per))) & emu_mask_bits(ebits);
}

static void read_regs(emu_ctx *c, const ptx_operand *v, unsigned ebits, uint64_t (*regs)[EMU_WARP_SIZE])
{
    for (unsigned r = 0; r < v->nelem; r++)
        emu_read_all(c, &v->elems[r], ebits == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, regs[r]);
}

static bool whole_warp(emu_ctx *c, const char *what)
{
    if (c->mask == 0xffffffffu) return true;
    emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                    "Invalid warp-synchronous instruction",
                    "%s needs all 32 threads of the warp, active mask is 0x%08x", what, c->mask);
    return false;
}

enum { MAXA = 16 * 256, MAXB = 256 * 8, MAXC = 16 * 8 };

typedef struct mma_work {
    uint64_t A[MAXA], B[MAXB], C[MAXC], D[MAXC];
    uint64_t ra[8][EMU_WARP_SIZE], rb[8][EMU_WARP_SIZE], rc[8][EMU_WARP_SIZE], rd[8][EMU_WARP_SIZE];
} mma_work;

static void write_d(emu_ctx *c, const ptx_operand *dv, unsigned ebits, uint64_t (*rd)[EMU_WARP_SIZE])
{
    for (unsigned r = 0; r < dv->nelem; r++)
        emu_write_all(c, &dv->elems[r], ebits == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, rd[r]);
}

static void put_elem(uint64_t (*regs)[EMU_WARP_SIZE], unsigned ebits, unsigned lane, unsigned e,
                     uint64_t v)
{
    unsigned per = reg_bits(ebits) / ebits;
    if (ebits >= 64) regs[e][lane] = v;
    else regs[e / per][lane] |= (v & emu_mask_bits(ebits)) << (ebits * (e % per));
}

/* ---- sparse A: the fragment holds the two kept units of each 4-unit chunk of a row; the
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
static void sparse_expand(const mma_form *f, const uint64_t *meta, unsigned sel,
                          const uint64_t *Ac, uint64_t *A)
{
    unsigned eb = emu_mma_bits(f->at), ub = eb >= 16 ? 16 : 8;
    unsigned kc = f->k / 2, kunits = f->k * eb / ub, words = 2 * kunits / 32;
    memset(A, 0, sizeof(uint64_t) * f->m * f->k);
    for (unsigned r = 0; r < f->m; r++)
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
            if (col < f->k) A[r * f->k + col] = Ac[r * kc + cc];
        }
}

/* mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype.ctype d, a, b, c
 * mma.sp{::ordered_metadata}.sync.aligned... d, a, b, c, e, f */
static void x_mma(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (!whole_warp(c, "mma.sync")) return;
    mma_form f;
    form_of(in, &f);
    static __thread mma_work *wk;
    if (!wk && !(wk = malloc(sizeof *wk))) return;
    unsigned ea = emu_mma_bits(f.at), eb = emu_mma_bits(f.bt), ec = emu_mma_bits(f.ct),
             ed = emu_mma_bits(f.dt);
    memset(wk->ra, 0, sizeof wk->ra);
    memset(wk->rb, 0, sizeof wk->rb);
    memset(wk->rc, 0, sizeof wk->rc);
    memset(wk->rd, 0, sizeof wk->rd);
    read_regs(c, &in->ops[1], ea, wk->ra);
    read_regs(c, &in->ops[2], eb, wk->rb);
    read_regs(c, &in->ops[3], ec, wk->rc);
    emu_mma_op op = { f.m, f.n, f.k, f.at, f.bt, f.ct, f.dt,
                      (in->flags & PTX_F(SATFINITE)) != 0,
                      ptx_instr_has(in, PTX_SFX_XOR) ? PTX_SFX_XOR : PTX_SFX_AND };
    if (f.m8n8k4_f16) {
        /* four independent 8x8x4 products, one per quad-pair */
        op.m = op.n = 8;
        op.k = 4;
        for (unsigned q = 0; q < 4; q++) {
            unsigned lanes[8] = { 4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3,
                                  16 + 4 * q, 17 + 4 * q, 18 + 4 * q, 19 + 4 * q };
            for (int li = 0; li < 8; li++) {
                unsigned l = lanes[li], r, col;
                for (unsigned e = 0; e < 4; e++) {
                    emu_mma_pos_m8n8k4(EMU_MMA_A, f.a_row, false, l, e, &r, &col);
                    wk->A[r * 4 + col] = elem_of(wk->ra, ea, l, e);
                    emu_mma_pos_m8n8k4(EMU_MMA_B, f.b_row, false, l, e, &r, &col);
                    wk->B[r * 8 + col] = elem_of(wk->rb, eb, l, e);
                }
                for (unsigned e = 0; e < 8; e++) {
                    emu_mma_pos_m8n8k4(EMU_MMA_C, false, f.ct == PTX_TYPE_F32, l, e, &r, &col);
                    wk->C[r * 8 + col] = elem_of(wk->rc, ec, l, e);
                }
            }
            emu_mma_compute(&op, wk->A, wk->B, wk->C, wk->D);
            for (int li = 0; li < 8; li++) {
                unsigned l = lanes[li], r, col;
                for (unsigned e = 0; e < 8; e++) {
                    emu_mma_pos_m8n8k4(EMU_MMA_C, false, f.dt == PTX_TYPE_F32, l, e, &r, &col);
                    put_elem(wk->rd, ed, l, e, wk->D[r * 8 + col]);
                }
            }
        }
        write_d(c, &in->ops[0], ed, wk->rd);
        return;
    }
    unsigned ka = f.sparse ? f.k / 2 : f.k;
    uint64_t *Adense = wk->A;
    static __thread uint64_t Acomp[MAXA];
    if (f.sparse) Adense = Acomp;
    unsigned na = emu_mma_distinct(EMU_MMA_A, f.m, f.n, ka, ea),
             nb = emu_mma_distinct(EMU_MMA_B, f.m, f.n, f.k, eb),
             nc = emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ec);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        unsigned r, col;
        for (unsigned e = 0; e < na; e++) {
            emu_mma_pos(EMU_MMA_A, f.m, f.n, ka, ea, l, e, &r, &col);
            Adense[r * ka + col] = elem_of(wk->ra, ea, l, e);
        }
        for (unsigned e = 0; e < nb; e++) {
            emu_mma_pos(EMU_MMA_B, f.m, f.n, f.k, eb, l, e, &r, &col);
            wk->B[r * f.n + col] = elem_of(wk->rb, eb, l, e);
        }
        for (unsigned e = 0; e < nc; e++) {
            emu_mma_pos(EMU_MMA_C, f.m, f.n, f.k, ec, l, e, &r, &col);
            wk->C[r * f.n + col] = elem_of(wk->rc, ec, l, e);
        }
    }
    if (f.sparse) {
        uint64_t meta[EMU_WARP_SIZE], sel[EMU_WARP_SIZE];
        emu_read_all(c, &in->ops[4], PTX_TYPE_B32, meta);
        emu_read_all(c, &in->ops[5], PTX_TYPE_U32, sel);
        sparse_expand(&f, meta, (unsigned)sel[0] & 3, Acomp, wk->A);
    }
    emu_mma_compute(&op, wk->A, wk->B, wk->C, wk->D);
    unsigned nd = emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ed);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        for (unsigned e = 0; e < nd; e++) {
            unsigned r, col;
            emu_mma_pos(EMU_MMA_C, f.m, f.n, f.k, ed, l, e, &r, &col);
            put_elem(wk->rd, ed, l, e, wk->D[r * f.n + col]);
        }
    write_d(c, &in->ops[0], ed, wk->rd);
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
static void x_ldstmatrix(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
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
static void x_movmatrix(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
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

emu_exec_fn emu_select_mma(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_MMA: {
        mma_form f;
        if (!form_of(in, &f) || !combination_ok(&f)) return NULL;
        if (ptx_instr_has(in, PTX_SFX_BLOCK_SCALE) || ptx_instr_has(in, PTX_SFX_KIND_F8F6F4))
            return NULL;
        if (in->nops != (f.sparse ? 6 : 4)) return NULL;
        for (int i = 0; i < 4; i++)
            if (in->ops[i].kind != PTX_OPD_VEC) return NULL;
        unsigned ea = emu_mma_bits(f.at), eb = emu_mma_bits(f.bt), ec = emu_mma_bits(f.ct),
                 ed = emu_mma_bits(f.dt);
        unsigned want_a, want_b, want_c, want_d;
        if (f.m8n8k4_f16) {
            want_a = want_b = 2;
            want_c = f.ct == PTX_TYPE_F32 ? 8 : 4;
            want_d = f.dt == PTX_TYPE_F32 ? 8 : 4;
        } else {
            if (!ptx_instr_has(in, PTX_SFX_ROW) || !ptx_instr_has(in, PTX_SFX_COL)) return NULL;
            want_a = regs_for(emu_mma_distinct(EMU_MMA_A, f.m, f.n, f.sparse ? f.k / 2 : f.k, ea), ea);
            want_b = regs_for(emu_mma_distinct(EMU_MMA_B, f.m, f.n, f.k, eb), eb);
            want_c = regs_for(emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ec), ec);
            want_d = regs_for(emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ed), ed);
        }
        if (in->ops[0].nelem != want_d || in->ops[1].nelem != want_a ||
            in->ops[2].nelem != want_b || in->ops[3].nelem != want_c || want_a > 8 || want_b > 8)
            return NULL;
        if (f.sparse && in->ops[5].kind != PTX_OPD_IMM && in->ops[5].kind != PTX_OPD_REG)
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
