/* exec_wmma.c: the warp-level matrix instructions wmma.load, wmma.mma and wmma.store for every
 * shape and type of sm_70 to sm_90: f16 (m16n16k16, m32n8k16, m8n32k16, f16 or f32
 * accumulators), bf16, tf32 (m16n16k8), f64 (m8n8k4), s8/u8, s4/u4 (m8n8k32) and b1
 * (m8n8k128, AND or XOR with popc).
 *
 * The ISA leaves the distribution of elements over a warp's fragment registers to the
 * implementation; ptxsim uses the one sm_80 and later GPUs use (sem_mma.c), so code that
 * reads fragment elements by position, as some libraries do, sees the values a GPU gives. The
 * memory layout (row or col) and the stride only matter to load and store.
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

static unsigned reg_bits(unsigned ebits) { return ebits == 64 ? 64 : 32; }

static bool whole_warp(emu_ctx *c, const char *what)
{
    if (c->mask == 0xffffffffu) return true;
    emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                    "Invalid warp-synchronous instruction",
                    "%s needs all 32 threads of the warp, active mask is 0x%08x", what, c->mask);
    return false;
}

/* Per-lane base address and stride (in elements) of a load or store. */
static void base_stride(emu_ctx *c, const ptx_instr *in, const ptx_operand *ao, int si,
                        unsigned def_stride, uint64_t *base, uint64_t *stride)
{
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        base[l] = ao->reg >= 0 ? emu_read(c, &(ptx_operand){ .kind = PTX_OPD_REG, .reg = ao->reg,
                                                            .sym = -1 }, l, PTX_TYPE_U64)
                               : emu_symbol_address(c, ao->sym, NULL);
        base[l] += (uint64_t)ao->imm;
    }
    if (si < in->nops) emu_read_all(c, &in->ops[si], PTX_TYPE_U32, stride);
    else for (int l = 0; l < EMU_WARP_SIZE; l++) stride[l] = def_stride;
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type {regs}, [p] {, stride} */
static void x_wmma_load(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (!whole_warp(c, "wmma.load")) return;
    wmma_shape s;
    shape_of(in, &s);
    int which = which_of(in);
    uint8_t t = emu_ty(in, 0);
    unsigned eb = emu_mma_bits(t), rb = reg_bits(eb), per = rb / eb;
    unsigned rows, cols;
    dims(&s, which, &rows, &cols);
    bool row = row_layout(in);
    uint64_t base[EMU_WARP_SIZE], stride[EMU_WARP_SIZE];
    base_stride(c, in, &in->ops[1], 2, row ? cols : rows, base, stride);
    const ptx_operand *v = &in->ops[0];
    unsigned nel = v->nelem * per;
    /* sub-byte types move whole 32-bit words: the elements of a word are contiguous along K */
    unsigned step = eb < 8 ? per : 1, bytes = eb < 8 ? 4 : eb / 8;
    uint64_t regs[16][EMU_WARP_SIZE];
    memset(regs, 0, sizeof regs);
    for (unsigned e = 0; e < nel; e += step) {
        uint64_t addr[EMU_WARP_SIZE];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned r, col;
            emu_mma_pos(which, s.m, s.n, s.k, eb, l, e, &r, &col);
            uint64_t idx = row ? (uint64_t)r * stride[l] + col : (uint64_t)col * stride[l] + r;
            addr[l] = base[l] + idx * eb / 8;
        }
        uint8_t data[EMU_WARP_SIZE][16];
        if (!emu_mem_lanes(c, in, in->space, addr, c->mask, bytes, data, false)) return;
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t x = 0;
            memcpy(&x, data[l], bytes);
            if (rb == 64) regs[e][l] = x;
            else regs[e / per][l] |= x << (eb * (e % per));
        }
    }
    for (unsigned r = 0; r < v->nelem && r < 16; r++)
        emu_write_all(c, &v->elems[r], rb == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, regs[r]);
}

/* The matrix `which` (rows x cols, row-major element bits) held by a fragment vector. */
static void gather(emu_ctx *c, const ptx_operand *v, int which, const wmma_shape *s, uint8_t t,
                   uint64_t *mat)
{
    unsigned eb = emu_mma_bits(t), rb = reg_bits(eb), per = rb / eb;
    unsigned rows, cols;
    dims(s, which, &rows, &cols);
    unsigned n = emu_mma_distinct(which, s->m, s->n, s->k, eb);
    for (unsigned r = 0; r < v->nelem && r * per < n; r++) {
        uint64_t x[EMU_WARP_SIZE];
        emu_read_all(c, &v->elems[r], rb == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, x);
        for (unsigned j = 0; j < per && r * per + j < n; j++)
            for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
                unsigned row, col;
                emu_mma_pos(which, s->m, s->n, s->k, eb, l, r * per + j, &row, &col);
                mat[row * cols + col] = rb == 64 ? x[l] : (x[l] >> (eb * j)) & emu_mask_bits(eb);
            }
    }
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype{.satfinite} d, a, b, c
 * (b1: wmma.mma.op.popc...) */
static void x_wmma_mma(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (!whole_warp(c, "wmma.mma")) return;
    wmma_shape s;
    shape_of(in, &s);
    emu_mma_op op;
    memset(&op, 0, sizeof op);
    op.m = s.m, op.n = s.n, op.k = s.k;
    op.dt = emu_ty(in, 0);
    if (in->ntypes >= 4) op.at = in->types[1], op.bt = in->types[2], op.ct = in->types[3];
    else op.at = op.bt = PTX_TYPE_F16, op.ct = emu_ty(in, 1);
    op.satfinite = (in->flags & PTX_F(SATFINITE)) != 0;
    op.bitop = ptx_instr_has(in, PTX_SFX_XOR) ? PTX_SFX_XOR : PTX_SFX_AND;
    static __thread uint64_t A[32 * 128], B[128 * 32], C[32 * 32], D[32 * 32];
    gather(c, &in->ops[1], EMU_MMA_A, &s, op.at, A);
    gather(c, &in->ops[2], EMU_MMA_B, &s, op.bt, B);
    gather(c, &in->ops[3], EMU_MMA_C, &s, op.ct, C);
    emu_mma_compute(&op, A, B, C, D);
    const ptx_operand *dv = &in->ops[0];
    unsigned eb = emu_mma_bits(op.dt), rb = reg_bits(eb), per = rb / eb;
    for (unsigned r = 0; r < dv->nelem; r++) {
        uint64_t x[EMU_WARP_SIZE] = { 0 };
        for (unsigned j = 0; j < per; j++)
            for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
                unsigned row, col;
                emu_mma_pos(EMU_MMA_C, s.m, s.n, s.k, eb, l, r * per + j, &row, &col);
                uint64_t v = D[row * s.n + col];
                x[l] |= rb == 64 ? v : (v & emu_mask_bits(eb)) << (eb * j);
            }
        emu_write_all(c, &dv->elems[r], rb == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, x);
    }
}

/* wmma.store.d.sync.aligned.layout.shape{.space}.type [p], {regs} {, stride} */
static void x_wmma_store(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (!whole_warp(c, "wmma.store")) return;
    wmma_shape s;
    shape_of(in, &s);
    uint8_t t = emu_ty(in, 0);
    unsigned eb = emu_mma_bits(t), rb = reg_bits(eb), per = rb / eb;
    bool row = row_layout(in);
    uint64_t base[EMU_WARP_SIZE], stride[EMU_WARP_SIZE];
    base_stride(c, in, &in->ops[0], 2, row ? s.n : s.m, base, stride);
    const ptx_operand *v = &in->ops[1];
    uint64_t regs[16][EMU_WARP_SIZE];
    for (unsigned r = 0; r < v->nelem && r < 16; r++)
        emu_read_all(c, &v->elems[r], rb == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32, regs[r]);
    unsigned n = emu_mma_distinct(EMU_MMA_C, s.m, s.n, s.k, eb);
    for (unsigned e = 0; e < n && e < v->nelem * per; e++) {
        uint64_t addr[EMU_WARP_SIZE];
        uint8_t data[EMU_WARP_SIZE][16];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned r, col;
            emu_mma_pos(EMU_MMA_C, s.m, s.n, s.k, eb, l, e, &r, &col);
            uint64_t idx = row ? (uint64_t)r * stride[l] + col : (uint64_t)col * stride[l] + r;
            addr[l] = base[l] + idx * eb / 8;
            uint64_t x = rb == 64 ? regs[e][l] : regs[e / per][l] >> (eb * (e % per));
            memcpy(data[l], &x, eb / 8);
        }
        if (!emu_mem_lanes(c, in, in->space, addr, c->mask, eb / 8, data, true)) return;
    }
}

emu_exec_fn emu_select_wmma(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    wmma_shape s;
    if (in->op != PTX_OP_WMMA_LOAD && in->op != PTX_OP_WMMA_MMA && in->op != PTX_OP_WMMA_STORE)
        return NULL;
    if (!shape_of(in, &s)) return NULL;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD: {
        if (in->nops < 2 || in->ops[0].kind != PTX_OPD_VEC || in->ops[1].kind != PTX_OPD_ADDR)
            return NULL;
        if (in->mode != PTX_SFX_MATRIX_A && in->mode != PTX_SFX_MATRIX_B &&
            in->mode != PTX_SFX_MATRIX_C)
            return NULL;
        int which = which_of(in);
        uint8_t t = emu_ty(in, 0);
        if (!type_ok(&s, which, t)) return NULL;
        unsigned eb = emu_mma_bits(t), per = reg_bits(eb) / eb;
        /* sub-byte fragments: A row-major, B column-major only */
        if (eb < 8 && (which == EMU_MMA_A) != row_layout(in)) return NULL;
        if (in->ops[0].nelem > 16 ||
            in->ops[0].nelem * per < emu_mma_distinct(which, s.m, s.n, s.k, eb))
            return NULL;
        return x_wmma_load;
    }
    case PTX_OP_WMMA_STORE: {
        if (in->nops < 2 || in->ops[1].kind != PTX_OPD_VEC || in->ops[0].kind != PTX_OPD_ADDR)
            return NULL;
        uint8_t t = emu_ty(in, 0);
        if (!type_ok(&s, EMU_MMA_C, t)) return NULL;
        unsigned eb = emu_mma_bits(t), per = reg_bits(eb) / eb;
        if (in->ops[1].nelem > 16 ||
            in->ops[1].nelem * per < emu_mma_distinct(EMU_MMA_C, s.m, s.n, s.k, eb))
            return NULL;
        return x_wmma_store;
    }
    default: {
        if (in->nops != 4 || (in->ntypes != 2 && in->ntypes != 4)) return NULL;
        uint8_t at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_F16,
                bt = in->ntypes == 4 ? in->types[2] : PTX_TYPE_F16,
                ct = in->types[in->ntypes - 1], dt = in->types[0];
        if (!type_ok(&s, EMU_MMA_A, at) || !type_ok(&s, EMU_MMA_B, bt) ||
            !type_ok(&s, EMU_MMA_C, ct) || !type_ok(&s, EMU_MMA_C, dt))
            return NULL;
        const uint8_t tys[4] = { dt, at, bt, ct };
        const int which[4] = { EMU_MMA_C, EMU_MMA_A, EMU_MMA_B, EMU_MMA_C };
        for (int i = 0; i < 4; i++) {
            unsigned eb = emu_mma_bits(tys[i]), per = reg_bits(eb) / eb;
            if (in->ops[i].kind != PTX_OPD_VEC || in->ops[i].nelem > 16 ||
                in->ops[i].nelem * per < emu_mma_distinct(which[i], s.m, s.n, s.k, eb))
                return NULL;
        }
        return x_wmma_mma;
    }
    }
}
