/* exec_wmma.c: the warp-level matrix instructions wmma.load, wmma.mma and wmma.store.
 *
 * The ISA leaves the distribution of matrix elements over a warp's fragment registers
 * unspecified, so ptxsim picks a simple one that every wmma instruction agrees on: fragment
 * slot j of lane l (slots counted over the registers, low half first for packed types) holds
 * element (l * slots_per_lane + j) mod (rows * cols) of the matrix in row-major order. Element-
 * wise code on fragments (fill, scaling) works on any distribution.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem.h"

#include <math.h>
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
        default: break;
        }
    }
    return false;
}

/* The first layout suffix (row or col), or ROW when none. */
static int layout_of(const ptx_instr *in, int nth)
{
    int seen = 0;
    for (int i = 0; i < in->nsfx; i++)
        if (in->sfx[i] == PTX_SFX_ROW || in->sfx[i] == PTX_SFX_COL) {
            if (seen++ == nth) return in->sfx[i];
        }
    return PTX_SFX_ROW;
}

static unsigned elem_size(uint8_t t)
{
    switch (t) {
    case PTX_TYPE_F16: case PTX_TYPE_BF16: return 2;
    case PTX_TYPE_S8: case PTX_TYPE_U8: return 1;
    case PTX_TYPE_F64: return 8;
    default: return 4;   /* f32, s32, tf32 */
    }
}

static bool type_ok(uint8_t t)
{
    switch (t) {
    case PTX_TYPE_F16: case PTX_TYPE_BF16: case PTX_TYPE_TF32: case PTX_TYPE_F32:
    case PTX_TYPE_F64: case PTX_TYPE_S32: case PTX_TYPE_S8: case PTX_TYPE_U8: return true;
    default: return false;
    }
}

/* rows and columns of matrix `which` (MATRIX_A/B/C/D) */
static void dims(const wmma_shape *s, int which, unsigned *rows, unsigned *cols)
{
    if (which == PTX_SFX_MATRIX_A) *rows = s->m, *cols = s->k;
    else if (which == PTX_SFX_MATRIX_B) *rows = s->k, *cols = s->n;
    else *rows = s->m, *cols = s->n;
}

/* The fragment layout of a register vector: element size, elements per register and slots. */
typedef struct frag {
    const ptx_operand *vec;
    unsigned esize, per_reg, slots;   /* slots per lane */
    uint8_t reg_type;                 /* B32 or B64 */
} frag;

static bool frag_of(const ptx_operand *o, uint8_t t, frag *f)
{
    if (o->kind != PTX_OPD_VEC || o->nelem == 0) return false;
    f->vec = o;
    f->esize = elem_size(t);
    f->reg_type = f->esize == 8 ? PTX_TYPE_B64 : PTX_TYPE_B32;
    f->per_reg = (f->esize == 8 ? 8 : 4) / f->esize;
    f->slots = o->nelem * f->per_reg;
    return true;
}

static bool whole_warp(emu_ctx *c, const char *what)
{
    if (c->mask == 0xffffffffu) return true;
    emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, __builtin_ctz(c->mask), false, 0,
                    "Invalid warp-synchronous instruction",
                    "%s needs all 32 threads of the warp, active mask is 0x%08x", what, c->mask);
    return false;
}

static double to_double(uint8_t t, uint64_t bits)
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

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type {regs}, [p] {, stride} */
static void x_wmma_load(emu_ctx *c, const ptx_instr *in)
{
    if (!whole_warp(c, "wmma.load")) return;
    wmma_shape s;
    shape_of(in, &s);
    uint8_t t = emu_ty(in, 0);
    frag f;
    frag_of(&in->ops[0], t, &f);
    unsigned rows, cols;
    dims(&s, in->mode, &rows, &cols);
    bool row_major = layout_of(in, 0) == PTX_SFX_ROW;
    uint64_t base[EMU_WARP_SIZE], stride[EMU_WARP_SIZE];
    const ptx_operand *ao = &in->ops[1];
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        base[l] = ao->reg >= 0 ? emu_read(c, &(ptx_operand){ .kind = PTX_OPD_REG, .reg = ao->reg,
                                                            .sym = -1 }, l, PTX_TYPE_U64)
                               : emu_symbol_address(c, ao->sym, NULL);
        base[l] += (uint64_t)ao->imm;
    }
    if (in->nops > 2) emu_read_all(c, &in->ops[2], PTX_TYPE_U32, stride);
    else for (int l = 0; l < EMU_WARP_SIZE; l++) stride[l] = row_major ? cols : rows;
    unsigned E = rows * cols;
    uint64_t regs[16][EMU_WARP_SIZE];
    memset(regs, 0, sizeof regs);
    for (unsigned j = 0; j < f.slots; j++) {
        uint64_t addr[EMU_WARP_SIZE];
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned e = ((unsigned)l * f.slots + j) % E, r = e / cols, col = e % cols;
            uint64_t idx = row_major ? (uint64_t)r * stride[l] + col : (uint64_t)col * stride[l] + r;
            addr[l] = base[l] + idx * f.esize;
        }
        uint8_t data[EMU_WARP_SIZE][16];
        if (!emu_mem_lanes(c, in, in->space, addr, c->mask, f.esize, data, false)) return;
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t v = 0;
            memcpy(&v, data[l], f.esize);
            regs[j / f.per_reg][l] |= v << (8 * f.esize * (j % f.per_reg));
        }
    }
    for (unsigned r = 0; r < f.vec->nelem && r < 16; r++)
        emu_write_all(c, &f.vec->elems[r], f.reg_type, regs[r]);
}

/* One element of a matrix held in fragment f: the first slot that holds element e. */
static uint64_t frag_elem(const frag *f, uint64_t (*regs)[EMU_WARP_SIZE], unsigned e)
{
    unsigned lane = e / f->slots, j = e % f->slots;
    uint64_t v = regs[j / f->per_reg][lane];
    unsigned sh = 8 * f->esize * (j % f->per_reg);
    return f->esize == 8 ? v : (v >> sh) & emu_mask_bits(8 * f->esize);
}

static void read_frag(emu_ctx *c, const frag *f, uint64_t (*regs)[EMU_WARP_SIZE])
{
    for (unsigned r = 0; r < f->vec->nelem && r < 16; r++)
        emu_read_all(c, &f->vec->elems[r], f->reg_type, regs[r]);
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype d, a, b, c */
static void x_wmma_mma(emu_ctx *c, const ptx_instr *in)
{
    if (!whole_warp(c, "wmma.mma")) return;
    wmma_shape s;
    shape_of(in, &s);
    uint8_t dt = emu_ty(in, 0), at, bt, ct;
    if (in->ntypes >= 4) at = in->types[1], bt = in->types[2], ct = in->types[3];
    else at = bt = PTX_TYPE_F16, ct = emu_ty(in, 1);
    frag fd, fa, fb, fc;
    frag_of(&in->ops[0], dt, &fd);
    frag_of(&in->ops[1], at, &fa);
    frag_of(&in->ops[2], bt, &fb);
    frag_of(&in->ops[3], ct, &fc);
    static __thread uint64_t ra[16][EMU_WARP_SIZE], rb[16][EMU_WARP_SIZE], rc[16][EMU_WARP_SIZE],
        rd[16][EMU_WARP_SIZE];
    read_frag(c, &fa, ra);
    read_frag(c, &fb, rb);
    read_frag(c, &fc, rc);
    memset(rd, 0, sizeof rd);
    bool satf = in->flags & PTX_F(SATFINITE);
    for (unsigned m = 0; m < s.m; m++)
        for (unsigned n = 0; n < s.n; n++) {
            unsigned ce = m * s.n + n;
            uint64_t cbits = frag_elem(&fc, rc, ce), out;
            if (dt == PTX_TYPE_S32) {
                int64_t acc = emu_sext(cbits, 32);
                for (unsigned k = 0; k < s.k; k++)
                    acc += (int64_t)to_double(at, frag_elem(&fa, ra, m * s.k + k)) *
                           (int64_t)to_double(bt, frag_elem(&fb, rb, k * s.n + n));
                if (satf) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                out = (uint64_t)acc & 0xffffffffu;
            } else if (dt == PTX_TYPE_F64) {
                double acc = emu_as_f64(cbits);
                for (unsigned k = 0; k < s.k; k++)
                    acc = fma(to_double(at, frag_elem(&fa, ra, m * s.k + k)),
                              to_double(bt, frag_elem(&fb, rb, k * s.n + n)), acc);
                out = emu_f64_bits(acc);
            } else {
                /* products of f16/bf16/tf32 values are exact in f32; sum in k order */
                float acc = (float)to_double(ct, cbits);
                for (unsigned k = 0; k < s.k; k++)
                    acc += (float)(to_double(at, frag_elem(&fa, ra, m * s.k + k)) *
                                   to_double(bt, frag_elem(&fb, rb, k * s.n + n)));
                if (satf && isinf(acc)) acc = copysignf(3.40282347e38f, acc);
                out = dt == PTX_TYPE_F16 ? emu_f32_to_f16(acc, PTX_RND_RN, false)
                                         : emu_f32_bits(acc);
            }
            unsigned lane = ce / fd.slots, j = ce % fd.slots;
            rd[j / fd.per_reg][lane] |= out << (8 * fd.esize * (j % fd.per_reg));
        }
    for (unsigned r = 0; r < fd.vec->nelem && r < 16; r++)
        emu_write_all(c, &fd.vec->elems[r], fd.reg_type, rd[r]);
}

/* wmma.store.d.sync.aligned.layout.shape{.space}.type [p], {regs} {, stride} */
static void x_wmma_store(emu_ctx *c, const ptx_instr *in)
{
    if (!whole_warp(c, "wmma.store")) return;
    wmma_shape s;
    shape_of(in, &s);
    uint8_t t = emu_ty(in, 0);
    frag f;
    frag_of(&in->ops[1], t, &f);
    unsigned rows = s.m, cols = s.n, E = rows * cols;
    bool row_major = layout_of(in, 0) == PTX_SFX_ROW;
    uint64_t regs[16][EMU_WARP_SIZE], stride[EMU_WARP_SIZE], base[EMU_WARP_SIZE];
    read_frag(c, &f, regs);
    const ptx_operand *ao = &in->ops[0];
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        base[l] = ao->reg >= 0 ? emu_read(c, &(ptx_operand){ .kind = PTX_OPD_REG, .reg = ao->reg,
                                                            .sym = -1 }, l, PTX_TYPE_U64)
                               : emu_symbol_address(c, ao->sym, NULL);
        base[l] += (uint64_t)ao->imm;
    }
    if (in->nops > 2) emu_read_all(c, &in->ops[2], PTX_TYPE_U32, stride);
    else for (int l = 0; l < EMU_WARP_SIZE; l++) stride[l] = row_major ? cols : rows;
    for (unsigned j = 0; j < f.slots; j++) {
        uint64_t addr[EMU_WARP_SIZE];
        uint8_t data[EMU_WARP_SIZE][16];
        uint32_t mask = 0;
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned s_idx = (unsigned)l * f.slots + j;
            if (s_idx >= E) continue;   /* a duplicate of an element another slot stores */
            mask |= 1u << l;
            unsigned r = s_idx / cols, col = s_idx % cols;
            uint64_t idx = row_major ? (uint64_t)r * stride[l] + col : (uint64_t)col * stride[l] + r;
            addr[l] = base[l] + idx * f.esize;
            uint64_t v = regs[j / f.per_reg][l] >> (8 * f.esize * (j % f.per_reg));
            memcpy(data[l], &v, f.esize);
        }
        if (mask && !emu_mem_lanes(c, in, in->space, addr, mask, f.esize, data, true)) return;
    }
}

emu_exec_fn emu_select_wmma(const ptx_instr *in)
{
    wmma_shape s;
    if (in->op != PTX_OP_WMMA_LOAD && in->op != PTX_OP_WMMA_MMA && in->op != PTX_OP_WMMA_STORE)
        return NULL;
    if (!shape_of(in, &s)) return NULL;
    for (int i = 0; i < in->ntypes; i++)
        if (!type_ok(in->types[i])) return NULL;
    unsigned esz;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD: {
        if (in->nops < 2 || in->ops[0].kind != PTX_OPD_VEC || in->ops[1].kind != PTX_OPD_ADDR)
            return NULL;
        if (in->mode != PTX_SFX_MATRIX_A && in->mode != PTX_SFX_MATRIX_B &&
            in->mode != PTX_SFX_MATRIX_C)
            return NULL;
        esz = elem_size(emu_ty(in, 0));
        unsigned rows, cols;
        dims(&s, in->mode, &rows, &cols);
        unsigned slots = in->ops[0].nelem * ((esz == 8 ? 8 : 4) / esz);
        if (in->ops[0].nelem > 16 || slots * 32 < rows * cols) return NULL;
        return x_wmma_load;
    }
    case PTX_OP_WMMA_STORE: {
        if (in->nops < 2 || in->ops[1].kind != PTX_OPD_VEC || in->ops[0].kind != PTX_OPD_ADDR)
            return NULL;
        esz = elem_size(emu_ty(in, 0));
        unsigned slots = in->ops[1].nelem * ((esz == 8 ? 8 : 4) / esz);
        if (in->ops[1].nelem > 16 || slots * 32 < s.m * s.n) return NULL;
        return x_wmma_store;
    }
    default: {
        if (in->nops != 4 || (in->ntypes != 2 && in->ntypes != 4)) return NULL;
        for (int i = 0; i < 4; i++)
            if (in->ops[i].kind != PTX_OPD_VEC || in->ops[i].nelem > 16) return NULL;
        return x_wmma_mma;
    }
    }
}
