/* exec_mma.c: the warp-level matrix instructions with the ISA's fragment layouts: mma.sync for
 * every shape and type of sm_70 to sm_90 (f16, bf16, tf32, f64, fp8, s8/u8, s4/u4, b1 with
 * AND/XOR popc, the quad-pair m8n8k4 form of sm_70), the sparse mma.sp forms, ldmatrix,
 * stmatrix and movmatrix.
 *
 * Each fragment register element is placed at the (row, col) the PTX ISA's fragment figures
 * give (sem_mma.c), so code that builds fragments by hand (CUTLASS, inline assembly) sees the
 * values the hardware would give. The selector decodes each form once: shape, types and every
 * lane's element positions go into u->form (emu_mma_form), so the handler only gathers the
 * fragment registers into matrices, computes (emu_mma_compute) and scatters D back. wmma.mma
 * uses the same handler with its own fragments (exec_wmma.c).
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <assert.h>
#include <string.h>

typedef struct mma_parsed {
    unsigned m, n, k;
    uint8_t at, bt, ct, dt;
    bool sparse, m8n8k4_f16;
    bool a_row, b_row;     /* m8n8k4 .f16: the layouts of A and B */
} mma_parsed;

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
static bool combination_ok(const mma_parsed *f)
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

static bool form_of(const ptx_instr *in, mma_parsed *f)
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

static bool frag_alloc(emu_code *code, emu_mma_frag *fr, unsigned ebits, unsigned n)
{
    fr->ebits = ebits;
    fr->n = n;
    fr->idx = emu_code_alloc(code, sizeof(uint16_t) * n * EMU_WARP_SIZE);
    return fr->idx != NULL;
}

bool emu_mma_frag_layout(emu_code *code, emu_mma_frag *fr, int which, unsigned m, unsigned n,
                         unsigned k, unsigned ebits, unsigned count, unsigned cols)
{
    if (!frag_alloc(code, fr, ebits, count)) return false;
    for (unsigned e = 0; e < count; e++)
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned r, col;
            emu_mma_pos(which, m, n, k, ebits, l, e, &r, &col);
            fr->idx[e * EMU_WARP_SIZE + l] = (uint16_t)(r * cols + col);
        }
    return true;
}

/* mma.m8n8k4 .f16: the layout within a lane's quad-pair (8x8x4) */
static bool frag_layout_m8n8k4(emu_code *code, emu_mma_frag *fr, int which, bool row_major,
                               bool f32_acc, unsigned ebits, unsigned n, unsigned cols)
{
    if (!frag_alloc(code, fr, ebits, n)) return false;
    for (unsigned e = 0; e < n; e++)
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned r, col;
            emu_mma_pos_m8n8k4(which, row_major, f32_acc, l, e, &r, &col);
            fr->idx[e * EMU_WARP_SIZE + l] = (uint16_t)(r * cols + col);
        }
    return true;
}

static emu_mma_form *decode_mma(emu_code *code, const ptx_instr *in, const mma_parsed *f)
{
    emu_mma_form *d = emu_code_alloc(code, sizeof *d);
    if (!d) return NULL;
    d->name = "mma.sync";
    d->op = (emu_mma_op){ f->m, f->n, f->k, f->at, f->bt, f->ct, f->dt,
                          (in->flags & PTX_F(SATFINITE)) != 0,
                          ptx_instr_has(in, PTX_SFX_XOR) ? PTX_SFX_XOR : PTX_SFX_AND };
    d->sparse = f->sparse;
    unsigned ea = emu_mma_bits(f->at), eb = emu_mma_bits(f->bt), ec = emu_mma_bits(f->ct),
             ed = emu_mma_bits(f->dt);
    if (f->m8n8k4_f16) {
        /* four independent 8x8x4 products, one per quad-pair: lanes 4q..4q+3, 16+4q..19+4q */
        d->ngroups = 4;
        for (unsigned q = 0; q < 4; q++) d->group[q] = (0xfu << (4 * q)) | (0xfu << (16 + 4 * q));
        bool f32c = f->ct == PTX_TYPE_F32, f32d = f->dt == PTX_TYPE_F32;
        bool ok = frag_layout_m8n8k4(code, &d->a, EMU_MMA_A, f->a_row, false, ea, 4, 4) &&
                  frag_layout_m8n8k4(code, &d->b, EMU_MMA_B, f->b_row, false, eb, 4, 8) &&
                  frag_layout_m8n8k4(code, &d->c, EMU_MMA_C, false, f32c, ec, 8, 8) &&
                  frag_layout_m8n8k4(code, &d->d, EMU_MMA_C, false, f32d, ed, 8, 8);
        return ok ? d : NULL;
    }
    unsigned m = f->m, n = f->n, k = f->k, ka = f->sparse ? k / 2 : k;
    d->ngroups = 1;
    d->group[0] = 0xffffffffu;
    bool ok = emu_mma_frag_layout(code, &d->a, EMU_MMA_A, m, n, ka, ea,
                                  emu_mma_distinct(EMU_MMA_A, m, n, ka, ea), ka) &&
              emu_mma_frag_layout(code, &d->b, EMU_MMA_B, m, n, k, eb,
                                  emu_mma_distinct(EMU_MMA_B, m, n, k, eb), n) &&
              emu_mma_frag_layout(code, &d->c, EMU_MMA_C, m, n, k, ec,
                                  emu_mma_distinct(EMU_MMA_C, m, n, k, ec), n) &&
              emu_mma_frag_layout(code, &d->d, EMU_MMA_C, m, n, k, ed,
                                  emu_mma_distinct(EMU_MMA_C, m, n, k, ed), n);
    return ok ? d : NULL;
}

bool emu_mma_whole_warp(emu_ctx *c, const char *what)
{
    if (c->mask == 0xffffffffu) return true;
    emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                    "Invalid warp-synchronous instruction",
                    "%s needs all 32 threads of the warp, active mask is 0x%08x", what, c->mask);
    return false;
}

/* The largest matrices and fragments of mma.sync (m16n8k256 b1) and wmma (m16n16, m32n8, m8n32
 * accumulators; 16 registers a fragment). */
enum { MAXA = 16 * 256, MAXB = 256 * 8, MAXC = 16 * 16, MAXREGS = 16 };

/* The register rows of a fragment vector (each register read as a whole word). */
static void frag_rows(emu_ctx *c, const emu_opd *v, unsigned ebits, const uint64_t **rows,
                      uint64_t (*buf)[EMU_WARP_SIZE])
{
    const emu_opd *el = emu_opd_elems(c, v);
    uint8_t t = sem_mma_reg_bits(ebits) == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32;
    assert(v->imm <= MAXREGS);
    for (unsigned r = 0; r < v->imm; r++) rows[r] = emu_src(c, &el[r], t, buf[r]);
}

static void frag_put(emu_ctx *c, const emu_opd *v, unsigned ebits,
                     const uint64_t (*regs)[EMU_WARP_SIZE])
{
    const emu_opd *el = emu_opd_elems(c, v);
    uint8_t t = sem_mma_reg_bits(ebits) == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32;
    for (unsigned r = 0; r < v->imm; r++) emu_put(c, &el[r], t, regs[r]);
}

/* mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype.ctype d, a, b, c
 * mma.sp{::ordered_metadata}.sync.aligned... d, a, b, c, e, f
 * wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype{.satfinite} d, a, b, c */
void emu_exec_mma(emu_ctx *c, const emu_uop *u)
{
    const emu_mma_form *f = u->form;
    if (!emu_mma_whole_warp(c, f->name)) return;
    static __thread struct {
        uint64_t A[MAXA], Ac[MAXA], B[MAXB], C[MAXC], D[MAXC];
        uint64_t buf[3 * MAXREGS][EMU_WARP_SIZE], rd[MAXREGS][EMU_WARP_SIZE];
    } wk;
    const uint64_t *ra[MAXREGS], *rb[MAXREGS], *rc[MAXREGS];
    frag_rows(c, &u->opd[1], f->a.ebits, ra, wk.buf);
    frag_rows(c, &u->opd[2], f->b.ebits, rb, wk.buf + MAXREGS);
    frag_rows(c, &u->opd[3], f->c.ebits, rc, wk.buf + 2 * MAXREGS);
    uint64_t bm[EMU_WARP_SIZE], bs[EMU_WARP_SIZE];
    const uint64_t *meta = NULL, *sel = NULL;
    if (f->sparse) {
        meta = emu_src(c, emu_uop_opd(u, 4), PTX_TYPE_B32, bm);
        sel = emu_src(c, emu_uop_opd(u, 5), PTX_TYPE_U32, bs);
    }
    memset(wk.rd, 0, sizeof wk.rd[0] * u->opd[0].imm);
    for (unsigned g = 0; g < f->ngroups; g++) {
        uint32_t lanes = f->group[g];
        sem_mma_gather(ra, f->a.ebits, f->a.n, f->a.idx, lanes, f->sparse ? wk.Ac : wk.A);
        sem_mma_gather(rb, f->b.ebits, f->b.n, f->b.idx, lanes, wk.B);
        sem_mma_gather(rc, f->c.ebits, f->c.n, f->c.idx, lanes, wk.C);
        if (f->sparse) sem_mma_sparse_expand(&f->op, meta, (unsigned)sel[0] & 3, wk.Ac, wk.A);
        emu_mma_compute(&f->op, wk.A, wk.B, wk.C, wk.D);
        sem_mma_scatter(wk.D, f->d.ebits, f->d.n, f->d.idx, lanes, wk.rd);
    }
    frag_put(c, &u->opd[0], f->d.ebits, (const uint64_t (*)[EMU_WARP_SIZE])wk.rd);
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

typedef struct ldst_form {
    unsigned n;               /* matrices: .x1, .x2, .x4 */
    bool trans, store;
} ldst_form;

/* Register i of the fragment operand v (a vector, or one register for .x1). */
static const emu_opd *frag_reg(emu_ctx *c, const emu_opd *v, unsigned i)
{
    return v->kind == EMU_OPD_VEC ? &emu_opd_elems(c, v)[i] : v;
}

/* ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 d, [p]: lanes 8i..8i+7 give the row
 * addresses of matrix i; lane l's register i holds two b16 elements of matrix i at the places
 * sem_mma_b16_pos gives. stmatrix is the same movement in reverse. */
static void x_ldstmatrix(emu_ctx *c, const emu_uop *u)
{
    const ldst_form *f = u->form;
    if (!emu_mma_whole_warp(c, f->store ? "stmatrix" : "ldmatrix")) return;
    unsigned n = f->n;
    const emu_opd *ao = &u->opd[f->store ? 0 : 1], *rv = &u->opd[f->store ? 1 : 0];
    uint64_t rows_addr[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) rows_addr[l] = emu_opd_address(c, ao, l);
    /* the 8 rows of each matrix, 16 bytes each: lane 8*i + r moves row r of matrix i */
    uint32_t movers = n == 1 ? 0xffu : n == 2 ? 0xffffu : 0xffffffffu;
    uint8_t rowdata[EMU_WARP_SIZE][16];
    uint64_t regs[4][EMU_WARP_SIZE];
    if (f->store) {
        for (unsigned i = 0; i < n; i++) {
            const uint64_t *r = emu_src(c, frag_reg(c, rv, i), PTX_TYPE_B32, regs[i]);
            for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++)
                for (unsigned h = 0; h < 2; h++) {
                    unsigned row, col;
                    sem_mma_b16_pos(lane, h, f->trans, &row, &col);
                    uint16_t v = (uint16_t)(r[lane] >> (16 * h));
                    memcpy(&rowdata[8 * i + row][2 * col], &v, 2);
                }
        }
        emu_mem_lanes(c, u->in, u->in->space, rows_addr, movers, 16, rowdata, true);
        return;
    }
    if (!emu_mem_lanes(c, u->in, u->in->space, rows_addr, movers, 16, rowdata, false)) return;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            uint64_t v = 0;
            for (unsigned h = 0; h < 2; h++) {
                unsigned row, col;
                sem_mma_b16_pos(lane, h, f->trans, &row, &col);
                uint16_t x;
                memcpy(&x, &rowdata[8 * i + row][2 * col], 2);
                v |= (uint64_t)x << (16 * h);
            }
            regs[i][lane] = v;
        }
    }
    for (unsigned i = 0; i < n; i++) emu_put(c, frag_reg(c, rv, i), PTX_TYPE_B32, regs[i]);
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: transposes an 8x8 b16 fragment */
static void x_movmatrix(emu_ctx *c, const emu_uop *u)
{
    uint64_t ba[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], PTX_TYPE_B32, ba);
    uint16_t m[8][8];
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++)
        for (unsigned h = 0; h < 2; h++) {
            unsigned row, col;
            sem_mma_b16_pos(lane, h, false, &row, &col);
            m[row][col] = (uint16_t)(a[lane] >> (16 * h));
        }
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint64_t v = 0;
        for (unsigned h = 0; h < 2; h++) {
            unsigned row, col;
            sem_mma_b16_pos(lane, h, true, &row, &col);
            v |= (uint64_t)m[row][col] << (16 * h);
        }
        d[lane] = v;
    }
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
}

emu_exec_fn emu_select_mma(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    switch (in->op) {
    case PTX_OP_MMA: {
        mma_parsed f;
        if (!form_of(in, &f) || !combination_ok(&f)) return NULL;
        if (ptx_instr_has(in, PTX_SFX_BLOCK_SCALE) || ptx_instr_has(in, PTX_SFX_KIND_F8F6F4))
            return NULL;
        if (in->nops != (f.sparse ? 6 : 4)) return NULL;
        for (int i = 0; i < 4; i++)
            if (u->opd[i].kind != EMU_OPD_VEC) return NULL;
        unsigned ea = emu_mma_bits(f.at), eb = emu_mma_bits(f.bt), ec = emu_mma_bits(f.ct),
                 ed = emu_mma_bits(f.dt);
        unsigned want_a, want_b, want_c, want_d;
        if (f.m8n8k4_f16) {
            want_a = want_b = 2;
            want_c = f.ct == PTX_TYPE_F32 ? 8 : 4;
            want_d = f.dt == PTX_TYPE_F32 ? 8 : 4;
        } else {
            if (!ptx_instr_has(in, PTX_SFX_ROW) || !ptx_instr_has(in, PTX_SFX_COL)) return NULL;
            unsigned ka = f.sparse ? f.k / 2 : f.k;
            want_a = sem_mma_regs(emu_mma_distinct(EMU_MMA_A, f.m, f.n, ka, ea), ea);
            want_b = sem_mma_regs(emu_mma_distinct(EMU_MMA_B, f.m, f.n, f.k, eb), eb);
            want_c = sem_mma_regs(emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ec), ec);
            want_d = sem_mma_regs(emu_mma_distinct(EMU_MMA_C, f.m, f.n, f.k, ed), ed);
        }
        if (u->opd[0].imm != want_d || u->opd[1].imm != want_a || u->opd[2].imm != want_b ||
            u->opd[3].imm != want_c || want_a > MAXREGS || want_b > MAXREGS ||
            want_c > MAXREGS || want_d > MAXREGS)
            return NULL;
        uint8_t sel_kind = f.sparse ? emu_uop_opd(u, 5)->kind : EMU_OPD_IMM;
        if (sel_kind != EMU_OPD_IMM && sel_kind != EMU_OPD_REG) return NULL;
        u->form = decode_mma(code, in, &f);
        return u->form ? emu_exec_mma : NULL;
    }
    case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX: {
        bool st = in->op == PTX_OP_STMATRIX;
        unsigned n = count_of(in);
        if (in->nops != 2 || !n || !ptx_instr_has(in, PTX_SFX_M8N8)) return NULL;
        if (emu_ty(in, 0) != PTX_TYPE_B16) return NULL;
        const emu_opd *rv = &u->opd[st ? 1 : 0];
        if ((rv->kind == EMU_OPD_VEC ? rv->imm : 1) != n) return NULL;
        if (u->opd[st ? 0 : 1].kind != EMU_OPD_ADDR) return NULL;
        ldst_form *f = emu_code_alloc(code, sizeof *f);
        if (!f) return NULL;
        *f = (ldst_form){ n, (in->flags & PTX_F(TRANS)) != 0, st };
        u->form = f;
        return x_ldstmatrix;
    }
    case PTX_OP_MOVMATRIX:
        if (in->nops != 2 || !(in->flags & PTX_F(TRANS))) return NULL;
        return x_movmatrix;
    default: return NULL;
    }
}
