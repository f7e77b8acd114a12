/* decode.c: one function's IR -> µops: operands, guard, blocks, register reads and writes.
 *
 * Operands are resolved once here: a register becomes its row offset in the frame's register
 * file (vector components included), a predicate its mask row, an immediate the value of the
 * instruction's type, a special register its id. Vector and list elements, and operands past
 * the fourth, go to the code's operand pool. The op class and flags come from classify.c, the
 * FMA contraction from fma_contraction.c. */
#include "emulator/decode/decode_internal.h"
#include "emulator/sem/sem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arena for decoded forms */

typedef struct form_chunk {
    struct form_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} form_chunk;

void *emu_code_alloc(emu_code *code, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    form_chunk *c = code->arena;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > 4096 ? size : 4096;
        form_chunk *n = malloc(sizeof *n + cap);
        if (!n) return NULL;
        n->next = c;
        n->used = 0;
        n->cap = cap;
        code->arena = c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

void emu_code_free(emu_code *code)
{
    if (!code) return;
    for (form_chunk *c = code->arena; c;) {
        form_chunk *n = c->next;
        free(c);
        c = n;
    }
    free(code->uops);
    free(code->pool);
    free(code->rw);
    memset(code, 0, sizeof *code);
}

/* ---------------------------------------------------------------- immediates */

uint64_t emu_imm_convert(uint8_t kind, uint64_t raw, uint8_t type)
{
    unsigned bits = emu_type_bits[type];
    uint8_t tk = emu_type_kind[type];
    if (kind == PTX_OPD_IMM) {
        if (tk == EMU_TK_F) {
            double d = (double)(int64_t)raw;
            switch (type) {
            case PTX_TYPE_F32: return emu_f32_bits((float)d);
            case PTX_TYPE_F64: return emu_f64_bits(d);
            case PTX_TYPE_F16: return emu_f64_to_f16(d, PTX_RND_RN);
            case PTX_TYPE_BF16: return emu_f64_to_bf16(d, PTX_RND_RN);
            default: break;
            }
        }
        if (type == PTX_TYPE_PRED) return raw != 0;
        return raw & emu_mask_bits(bits ? bits : 64);
    }
    if (kind == PTX_OPD_FIMM32) {
        float f = emu_as_f32(raw);
        switch (type) {
        case PTX_TYPE_F64: return emu_f64_bits((double)f);
        case PTX_TYPE_F16: return emu_f64_to_f16(f, PTX_RND_RN);
        case PTX_TYPE_BF16: return emu_f64_to_bf16(f, PTX_RND_RN);
        default: return raw & 0xffffffffu;
        }
    }
    /* FIMM64 */
    double d = emu_as_f64(raw);
    switch (type) {
    case PTX_TYPE_F32: return emu_f32_bits((float)d);
    case PTX_TYPE_F16: return emu_f64_to_f16(d, PTX_RND_RN);
    case PTX_TYPE_BF16: return emu_f64_to_bf16(d, PTX_RND_RN);
    default: return raw & emu_mask_bits(bits ? bits : 64);
    }
}

/* ---------------------------------------------------------------- operands */

typedef struct decoder {
    const ptx_module *m;
    const ptx_function *fn;
    emu_code *code;
    uint32_t pool_used;
} decoder;

static uint32_t reg_row(const ptx_function *fn, const ptx_operand *o)
{
    const ptx_reg *r = &fn->regs[o->reg];
    return (r->slot + (r->vec > 1 ? o->comp : 0)) * EMU_WARP_SIZE;
}

static void decode_operand(decoder *d, const ptx_operand *o, uint8_t itype, emu_opd *out);

static void decode_elements(decoder *d, const ptx_operand *o, uint8_t itype, emu_opd *out)
{
    out->imm = o->nelem;
    out->row = d->pool_used;
    assert(d->pool_used + o->nelem <= d->code->npool);
    d->pool_used += o->nelem;
    for (unsigned k = 0; k < o->nelem; k++)
        decode_operand(d, &o->elems[k], itype, &d->code->pool[out->row + k]);
}

static void decode_operand(decoder *d, const ptx_operand *o, uint8_t itype, emu_opd *out)
{
    const ptx_function *fn = d->fn;
    memset(out, 0, sizeof *out);
    switch (o->kind) {
    case PTX_OPD_REG: {
        if (o->reg < 0 || (uint32_t)o->reg >= fn->nregs) break;
        const ptx_reg *r = &fn->regs[o->reg];
        out->row = reg_row(fn, o);
        out->type = r->type;
        if (r->type == PTX_TYPE_PRED) {
            out->kind = EMU_OPD_PRED;
            out->bits = 1;
            if (o->neg) out->flags |= EMU_OPD_F_NEG;
            break;
        }
        out->kind = EMU_OPD_REG;
        out->bits = emu_type_bits[r->type];   /* a .b128 is 128; a .v2 component its type */
        if (emu_is_signed(r->type)) out->flags |= EMU_OPD_F_SIGNED;
        if (r->vec > 1) out->flags |= EMU_OPD_F_COMPONENT;
        if (o->neg) out->flags |= EMU_OPD_F_NEG;
        break;
    }
    case PTX_OPD_SREG:
        out->kind = EMU_OPD_SREG;
        out->row = (uint32_t)o->reg;
        out->type = o->comp;
        break;
    case PTX_OPD_IMM:
    case PTX_OPD_FIMM32:
    case PTX_OPD_FIMM64:
        out->kind = EMU_OPD_IMM;
        out->type = itype;
        out->row = o->kind;
        out->raw = (uint64_t)o->imm;
        out->imm = emu_imm_convert(o->kind, (uint64_t)o->imm, itype);
        break;
    case PTX_OPD_ADDR:
        out->kind = EMU_OPD_ADDR;
        out->imm = (uint64_t)o->imm;
        if (o->reg >= 0 && (uint32_t)o->reg < fn->nregs) {
            out->flags |= EMU_OPD_F_BASE_REG;
            out->row = reg_row(fn, o);
            out->bits = emu_type_bits[fn->regs[o->reg].type];
        } else if (o->sym >= 0) {
            out->flags |= EMU_OPD_F_BASE_SYM;
            out->row = (uint32_t)o->sym;
        }
        break;
    case PTX_OPD_SYM:
        out->kind = EMU_OPD_SYM;
        out->row = (uint32_t)o->sym;
        break;
    case PTX_OPD_LABEL:
        out->kind = EMU_OPD_LABEL;
        out->imm = (uint64_t)o->imm;
        break;
    case PTX_OPD_VEC:
        out->kind = EMU_OPD_VEC;
        decode_elements(d, o, itype, out);
        break;
    case PTX_OPD_LIST:
        out->kind = EMU_OPD_LIST;
        out->type = o->comp;
        decode_elements(d, o, itype, out);
        break;
    case PTX_OPD_SINK:
        out->kind = EMU_OPD_SINK;
        break;
    default:
        break;
    }
}

static uint32_t pool_need(const ptx_operand *o)
{
    uint32_t n = 0;
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_LIST) {
        n += o->nelem;
        for (unsigned k = 0; k < o->nelem; k++) n += pool_need(&o->elems[k]);
    }
    return n;
}

/* ---------------------------------------------------------------- registers read and written */

typedef struct rw_ctx {
    int32_t *reads, *writes;
    uint32_t nr, nw, cap;
} rw_ctx;

static void add_unique(int32_t *v, uint32_t *n, int32_t r)
{
    for (uint32_t i = 0; i < *n; i++)
        if (v[i] == r) return;
    v[(*n)++] = r;
}

static void collect_rw(void *p, int32_t reg, ptx_role role)
{
    rw_ctx *c = p;
    if ((role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) && c->nr < c->cap)
        add_unique(c->reads, &c->nr, reg);
    if ((role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) && c->nw < c->cap)
        add_unique(c->writes, &c->nw, reg);
}

static void count_rw(void *p, int32_t reg, ptx_role role)
{
    (void)reg;
    uint32_t *n = p;
    *n += role == PTX_ROLE_USEDEF ? 2 : 1;
}

/* Whether the result of u depends on when it runs relative to other warps (EMU_UOP_TIMED). */
static bool is_timed(const ptx_instr *in, const emu_uop *u)
{
    switch (u->cls) {
    case EMU_CLS_ATOMIC: case EMU_CLS_ATOMIC_SHARED: case EMU_CLS_FENCE: case EMU_CLS_BARRIER:
    case EMU_CLS_CALL: case EMU_CLS_ASYNC:
        return u->op != PTX_OP_EXIT && u->op != PTX_OP_RET;
    default:
        break;
    }
    if (u->op == PTX_OP_NANOSLEEP || u->op == PTX_OP_MBARRIER) return true;
    if ((u->flags & EMU_UOP_MEMORY) && ((in->flags & PTX_F(VOLATILE)) || in->sem != 0))
        return true;
    for (unsigned i = 0; i < u->nopd; i++) {
        const emu_opd *o = emu_uop_opd(u, i);
        if (o->kind == EMU_OPD_SREG &&
            (o->row == PTX_SREG_CLOCK || o->row == PTX_SREG_CLOCK_HI ||
             o->row == PTX_SREG_CLOCK64 || o->row == PTX_SREG_GLOBALTIMER ||
             o->row == PTX_SREG_GLOBALTIMER_LO || o->row == PTX_SREG_GLOBALTIMER_HI))
            return true;
    }
    return false;
}

/* Whether u may read or write what warps of other CTAs see (EMU_UOP_SHARED_STATE): anything
 * but registers, its CTA's shared memory and barriers, its threads' local memory, and the
 * read-only parameter and constant spaces. */
static bool is_shared_state(const ptx_instr *in, const emu_uop *u)
{
    switch (u->cls) {
    case EMU_CLS_ATOMIC: case EMU_CLS_FENCE: case EMU_CLS_TEX: case EMU_CLS_SURF:
    case EMU_CLS_ASYNC:
        return true;
    case EMU_CLS_CALL:
        return u->op != PTX_OP_EXIT && u->op != PTX_OP_RET;
    default:
        break;
    }
    if (u->op == PTX_OP_TRAP || u->op == PTX_OP_BRKPT) return true;
    if (!(u->flags & EMU_UOP_MEMORY)) return false;
    return !(in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_LOCAL ||
             in->space == PTX_SPACE_PARAM || in->space == PTX_SPACE_CONST);
}

/* ---------------------------------------------------------------- functions */

bool emu_decode_function(const ptx_module *m, const ptx_function *fn,
                         const emu_decode_options *opt, emu_code *code)
{
    memset(code, 0, sizeof *code);
    code->fn = fn;
    code->n = fn->ninstrs;
    uint32_t npool = 0, nrw = 0;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        for (unsigned k = 0; k < in->nops; k++) npool += pool_need(&in->ops[k]);
        if (in->nops > 4) npool += in->nops - 4;
        ptx_instr_regs(fn, in, count_rw, &nrw);
    }
    code->uops = calloc(fn->ninstrs ? fn->ninstrs : 1, sizeof *code->uops);
    code->pool = calloc(npool ? npool : 1, sizeof *code->pool);
    code->rw = malloc((nrw ? nrw : 1) * sizeof *code->rw);
    code->npool = npool;
    uint32_t *waits = emu_memory_waits(fn);
    if (!code->uops || !code->pool || !code->rw || !waits) {
        free(waits);
        goto fail;
    }

    decoder d = { m, fn, code, 0 };
    int32_t tmp_r[256], tmp_w[256];
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        emu_uop *u = &code->uops[i];
        u->in = in;
        u->op = in->op;
        u->nopd = in->nops;
        u->type = in->ntypes ? in->types[0] : PTX_TYPE_NONE;
        u->guard_row = EMU_NO_GUARD;
        if (in->guard >= 0 && (uint32_t)in->guard < fn->nregs) {
            u->guard_row = fn->regs[in->guard].slot * EMU_WARP_SIZE;
            u->guard_xor = in->guard_neg ? ~0u : 0u;
        }
        if (in->block >= 0 && (uint32_t)in->block < fn->nblocks) {
            const ptx_block *b = &fn->blocks[in->block];
            u->block_end = b->end;
            if (b->first == i) u->flags |= EMU_UOP_BLOCK_START;
        } else {
            u->block_end = i + 1;
            u->flags |= EMU_UOP_BLOCK_START;
        }
        /* a branch reconverges at the start of a block (or the function's end): the
         * interpreter relies on it to settle the SIMT stack only at block starts */
        assert(in->reconv < 0 || (uint32_t)in->reconv >= fn->ninstrs ||
               fn->instrs[in->reconv].block < 0 ||
               fn->blocks[fn->instrs[in->reconv].block].first == (uint32_t)in->reconv);
        emu_classify(m, fn, in, waits, u);
        if (in->nops > 4) {
            u->more = &code->pool[d.pool_used];
            d.pool_used += in->nops - 4;
        }
        for (unsigned k = 0; k < in->nops; k++)
            decode_operand(&d, &in->ops[k], u->type, (emu_opd *)emu_uop_opd(u, k));
        rw_ctx rc = { tmp_r, tmp_w, 0, 0, 256 };
        ptx_instr_regs(fn, in, collect_rw, &rc);
        assert(code->nrw + rc.nr + rc.nw <= nrw);
        u->rw = code->nrw;
        u->nreads = (uint8_t)(rc.nr < 255 ? rc.nr : 255);
        u->nwrites = (uint8_t)(rc.nw < 255 ? rc.nw : 255);
        memcpy(code->rw + code->nrw, rc.reads, u->nreads * sizeof *code->rw);
        code->nrw += u->nreads;
        memcpy(code->rw + code->nrw, rc.writes, u->nwrites * sizeof *code->rw);
        code->nrw += u->nwrites;
        if (is_timed(in, u)) u->flags |= EMU_UOP_TIMED;
        if (is_shared_state(in, u)) u->flags |= EMU_UOP_SHARED_STATE;
    }
    free(waits);
    assert(d.pool_used <= npool);
    if (opt && opt->fmad && !emu_contract_fma(code)) goto fail;
    return true;
fail:
    emu_code_free(code);
    return false;
}
