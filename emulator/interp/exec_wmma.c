/* exec_wmma.c: the warp-level matrix instructions wmma.load, wmma.mma and wmma.store for every
 * shape and type of sm_70 to sm_90: f16 (m16n16k16, m32n8k16, m8n32k16, f16 or f32
 * accumulators), bf16, tf32 (m16n16k8), f64 (m8n8k4), s8/u8, s4/u4 (m8n8k32) and b1
 * (m8n8k128, AND or XOR with popc).
 *
 * The ISA leaves the distribution of elements over a warp's fragment registers to the
 * implementation; ptxsim uses the one sm_80 and later GPUs use (sem_mma.c), so code that
 * reads fragment elements by position, as some libraries do, sees the values a GPU gives. The
 * memory layout (row or col) and the stride only matter to load and store. Each form is decoded
 * once (every lane's element positions in u->form); wmma.mma runs on mma.sync's handler
 * (emu_exec_mma, exec_mma.c) with wmma's fragments.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <string.h>

typedef struct wmma_shape { unsigned m, n, k; } wmma_shape;

static bool shape_of(const ptx_instr *in, wmma_shape *s)
{
    for (int i = 0; i < in->nsfx; i++) {
        switch (in->sfx[i]) {
        case PTX_SFX_M16N16K16: *s = (wmma_shape){ 16, 16, 16 }; return true;
        case PTX_SFX_M32N8K16: *s = (wmma_shape){ 32, 8, 16 }; return true;
        case PTX_SFX_M8N32K16: *s = (wmma_shape){ 8, 32, 16 }; return true;
        case PTX_SFX_M16N16K8: *s = (wmma_shape){ 16, 16, 8 }; return true;
        case PTX_SFX_M8N8K4: *s = (wmma_shape){ 8, 8, 4 }; return true;
        case PTX_SFX_M8N8K32: *s = (wmma_shape){ 8, 8, 32 }; return true;
        case PTX_SFX_M8N8K128: *s = (wmma_shape){ 8, 8, 128 }; return true;
        default: break;
        }
    }
    return false;
}

/* The first layout suffix: true for row. */
static bool row_layout(const ptx_instr *in)
{
    for (int i = 0; i < in->nsfx; i++)
        if (in->sfx[i] == PTX_SFX_ROW || in->sfx[i] == PTX_SFX_COL) return in->sfx[i] == PTX_SFX_ROW;
    return true;
}

static int which_of(const ptx_instr *in)
{
    return in->mode == PTX_SFX_MATRIX_A ? EMU_MMA_A : in->mode == PTX_SFX_MATRIX_B ? EMU_MMA_B
                                                                                  : EMU_MMA_C;
}

/* rows and columns of matrix `which` */
static void dims(const wmma_shape *s, int which, unsigned *rows, unsigned *cols)
{
    if (which == EMU_MMA_A) *rows = s->m, *cols = s->k;
    else if (which == EMU_MMA_B) *rows = s->k, *cols = s->n;
    else *rows = s->m, *cols = s->n;
}

/* Whether type t may be a wmma operand of `which` for shape s (PTX ISA, wmma.load/mma). */
static bool type_ok(const wmma_shape *s, int which, uint8_t t)
{
    bool big = s->k == 16;   /* m16n16k16, m32n8k16, m8n32k16 */
    if (which == EMU_MMA_C)
        return (big && (t == PTX_TYPE_F16 || t == PTX_TYPE_F32 || t == PTX_TYPE_S32)) ||
               (s->k == 8 && t == PTX_TYPE_F32) || (s->k == 4 && t == PTX_TYPE_F64) ||
               ((s->k == 32 || s->k == 128) && t == PTX_TYPE_S32);
    switch (t) {
    case PTX_TYPE_F16: case PTX_TYPE_BF16: case PTX_TYPE_S8: case PTX_TYPE_U8: return big;
    case PTX_TYPE_TF32: return s->k == 8;
    case PTX_TYPE_F64: return s->k == 4;
    case PTX_TYPE_S4: case PTX_TYPE_U4: return s->k == 32;
    case PTX_TYPE_B1: return s->k == 128;
    default: return false;
    }
}

enum { MAXREGS = 16 };

/* wmma.load / wmma.store, decoded: the element moves and where each element of each lane sits
 * in the matrix (pos[(e * 32 + lane) * 2]: row, then column). */
typedef struct wmma_move {
    unsigned eb, rb, per;     /* element bits, register bits, elements per register */
    unsigned nregs;           /* registers of the fragment vector */
    unsigned nel, step, bytes; /* elements e < nel moved, every step-th, bytes per move */
    unsigned def_stride;      /* the stride when the instruction gives none */
    bool row;                 /* row-major memory layout */
    uint16_t *pos;
} wmma_move;

static wmma_move *decode_move(emu_code *code, const wmma_shape *s, int which, uint8_t t,
                              bool row, unsigned nregs, unsigned nel)
{
    wmma_move *f = emu_code_alloc(code, sizeof *f);
    if (!f) return NULL;
    unsigned rows, cols;
    dims(s, which, &rows, &cols);
    f->eb = emu_mma_bits(t);
    f->rb = sem_mma_reg_bits(f->eb);
    f->per = f->rb / f->eb;
    f->nregs = nregs;
    f->nel = nel;
    /* sub-byte types move whole 32-bit words: the elements of a word are contiguous along K */
    f->step = f->eb < 8 ? f->per : 1;
    f->bytes = f->eb < 8 ? 4 : f->eb / 8;
    f->def_stride = row ? cols : rows;
    f->row = row;
    f->pos = emu_code_alloc(code, sizeof(uint16_t) * 2 * nel * EMU_WARP_SIZE);
    if (!f->pos) return NULL;
    for (unsigned e = 0; e < nel; e++)
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned r, col;
            emu_mma_pos(which, s->m, s->n, s->k, f->eb, l, e, &r, &col);
            f->pos[(e * EMU_WARP_SIZE + l) * 2] = (uint16_t)r;
            f->pos[(e * EMU_WARP_SIZE + l) * 2 + 1] = (uint16_t)col;
        }
    return f;
}

/* Per-lane addresses of element e: base + (row * stride + col) elements (col-major: swapped). */
static void move_addresses(const wmma_move *f, unsigned e, const uint64_t *base,
                           const uint64_t *stride, uint64_t addr[EMU_WARP_SIZE])
{
    const uint16_t *p = &f->pos[e * EMU_WARP_SIZE * 2];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t r = p[2 * l], col = p[2 * l + 1];
        uint64_t idx = f->row ? r * stride[l] + col : col * stride[l] + r;
        addr[l] = base[l] + idx * f->eb / 8;
    }
}

/* Per-lane base address and stride (in elements) of a load or store: the address operand ai,
 * the stride operand 2 when the instruction has one. */
static void base_stride(emu_ctx *c, const emu_uop *u, unsigned ai, const wmma_move *f,
                        uint64_t *base, uint64_t *stride_buf, const uint64_t **stride)
{
    for (int l = 0; l < EMU_WARP_SIZE; l++) base[l] = emu_opd_address(c, &u->opd[ai], l);
    if (u->nopd > 2) {
        *stride = emu_src(c, &u->opd[2], PTX_TYPE_U32, stride_buf);
    } else {
        for (int l = 0; l < EMU_WARP_SIZE; l++) stride_buf[l] = f->def_stride;
        *stride = stride_buf;
    }
}

static uint8_t reg_type(unsigned rb) { return rb == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32; }

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type {regs}, [p] {, stride} */
static void x_wmma_load(emu_ctx *c, const emu_uop *u)
{
    if (!emu_mma_whole_warp(c, "wmma.load")) return;
    const wmma_move *f = u->form;
    uint64_t base[EMU_WARP_SIZE], sbuf[EMU_WARP_SIZE];
    const uint64_t *stride;
    base_stride(c, u, 1, f, base, sbuf, &stride);
    uint64_t regs[MAXREGS][EMU_WARP_SIZE];
    memset(regs, 0, sizeof regs[0] * f->nregs);
    for (unsigned e = 0; e < f->nel; e += f->step) {
        uint64_t addr[EMU_WARP_SIZE];
        move_addresses(f, e, base, stride, addr);
        uint8_t data[EMU_WARP_SIZE][16];
        if (!emu_mem_lanes(c, u->in, u->in->space, addr, c->mask, f->bytes, data, false)) return;
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t x = 0;
            memcpy(&x, data[l], f->bytes);
            if (f->rb == 64) regs[e][l] = x;
            else regs[e / f->per][l] |= x << (f->eb * (e % f->per));
        }
    }
    const emu_opd *el = emu_opd_elems(c, &u->opd[0]);
    for (unsigned r = 0; r < f->nregs; r++) emu_put(c, &el[r], reg_type(f->rb), regs[r]);
}

/* wmma.store.d.sync.aligned.layout.shape{.space}.type [p], {regs} {, stride} */
static void x_wmma_store(emu_ctx *c, const emu_uop *u)
{
    if (!emu_mma_whole_warp(c, "wmma.store")) return;
    const wmma_move *f = u->form;
    uint64_t base[EMU_WARP_SIZE], sbuf[EMU_WARP_SIZE];
    const uint64_t *stride;
    base_stride(c, u, 0, f, base, sbuf, &stride);
    uint64_t buf[MAXREGS][EMU_WARP_SIZE];
    const uint64_t *regs[MAXREGS];
    const emu_opd *el = emu_opd_elems(c, &u->opd[1]);
    for (unsigned r = 0; r < f->nregs; r++) regs[r] = emu_src(c, &el[r], reg_type(f->rb), buf[r]);
    for (unsigned e = 0; e < f->nel; e++) {
        uint64_t addr[EMU_WARP_SIZE];
        uint8_t data[EMU_WARP_SIZE][16];
        move_addresses(f, e, base, stride, addr);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t x = f->rb == 64 ? regs[e][l] : regs[e / f->per][l] >> (f->eb * (e % f->per));
            memcpy(data[l], &x, f->eb / 8);
        }
        if (!emu_mem_lanes(c, u->in, u->in->space, addr, c->mask, f->eb / 8, data, true)) return;
    }
}

emu_exec_fn emu_select_wmma(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    wmma_shape s;
    if (in->op != PTX_OP_WMMA_LOAD && in->op != PTX_OP_WMMA_MMA && in->op != PTX_OP_WMMA_STORE)
        return NULL;
    if (!shape_of(in, &s)) return NULL;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD: {
        if (u->nopd < 2 || u->opd[0].kind != EMU_OPD_VEC || u->opd[1].kind != EMU_OPD_ADDR)
            return NULL;
        if (in->mode != PTX_SFX_MATRIX_A && in->mode != PTX_SFX_MATRIX_B &&
            in->mode != PTX_SFX_MATRIX_C)
            return NULL;
        int which = which_of(in);
        uint8_t t = emu_ty(in, 0);
        if (!type_ok(&s, which, t)) return NULL;
        unsigned eb = emu_mma_bits(t), per = sem_mma_reg_bits(eb) / eb;
        unsigned nregs = (unsigned)u->opd[0].imm;
        /* sub-byte fragments: A row-major, B column-major only */
        if (eb < 8 && (which == EMU_MMA_A) != row_layout(in)) return NULL;
        if (nregs > MAXREGS || nregs * per < emu_mma_distinct(which, s.m, s.n, s.k, eb))
            return NULL;
        u->form = decode_move(code, &s, which, t, row_layout(in), nregs, nregs * per);
        return u->form ? x_wmma_load : NULL;
    }
    case PTX_OP_WMMA_STORE: {
        if (u->nopd < 2 || u->opd[1].kind != EMU_OPD_VEC || u->opd[0].kind != EMU_OPD_ADDR)
            return NULL;
        uint8_t t = emu_ty(in, 0);
        if (!type_ok(&s, EMU_MMA_C, t)) return NULL;
        unsigned eb = emu_mma_bits(t), per = sem_mma_reg_bits(eb) / eb;
        unsigned nregs = (unsigned)u->opd[1].imm;
        unsigned n = emu_mma_distinct(EMU_MMA_C, s.m, s.n, s.k, eb);
        if (nregs > MAXREGS || nregs * per < n) return NULL;
        u->form = decode_move(code, &s, EMU_MMA_C, t, row_layout(in), nregs, n);
        return u->form ? x_wmma_store : NULL;
    }
    default: {
        if (u->nopd != 4 || (in->ntypes != 2 && in->ntypes != 4)) return NULL;
        uint8_t at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_F16,
                bt = in->ntypes == 4 ? in->types[2] : PTX_TYPE_F16,
                ct = in->types[in->ntypes - 1], dt = in->types[0];
        if (!type_ok(&s, EMU_MMA_A, at) || !type_ok(&s, EMU_MMA_B, bt) ||
            !type_ok(&s, EMU_MMA_C, ct) || !type_ok(&s, EMU_MMA_C, dt))
            return NULL;
        const uint8_t tys[4] = { dt, at, bt, ct };
        const int which[4] = { EMU_MMA_C, EMU_MMA_A, EMU_MMA_B, EMU_MMA_C };
        for (int i = 0; i < 4; i++) {
            unsigned eb = emu_mma_bits(tys[i]), per = sem_mma_reg_bits(eb) / eb;
            if (u->opd[i].kind != EMU_OPD_VEC || u->opd[i].imm > MAXREGS ||
                u->opd[i].imm * per < emu_mma_distinct(which[i], s.m, s.n, s.k, eb))
                return NULL;
        }
        emu_mma_form *f = emu_code_alloc(code, sizeof *f);
        if (!f) return NULL;
        f->name = "wmma.mma";
        f->op = (emu_mma_op){ s.m, s.n, s.k, at, bt, ct, dt,
                              (in->flags & PTX_F(SATFINITE)) != 0,
                              ptx_instr_has(in, PTX_SFX_XOR) ? PTX_SFX_XOR : PTX_SFX_AND };
        f->ngroups = 1;
        f->group[0] = 0xffffffffu;
        /* A, B and C: their distinct elements; D: every register (a wmma fragment with more
         * registers than distinct elements holds them again) */
        emu_mma_frag *fr[4] = { &f->d, &f->a, &f->b, &f->c };
        for (int i = 0; i < 4; i++) {
            unsigned eb = emu_mma_bits(tys[i]), per = sem_mma_reg_bits(eb) / eb, rows, cols;
            unsigned count = i == 0 ? (unsigned)u->opd[0].imm * per
                                    : emu_mma_distinct(which[i], s.m, s.n, s.k, eb);
            dims(&s, which[i], &rows, &cols);
            if (!emu_mma_frag_layout(code, fr[i], which[i], s.m, s.n, s.k, eb, count, cols))
                return NULL;
        }
        u->form = f;
        return emu_exec_mma;
    }
    }
}
