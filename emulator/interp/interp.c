/* interp.c: operand access by the IR operand (registers, immediates, special registers, symbols,
 * vectors), for handlers not yet reading decoded operands. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <string.h>

uint8_t emu_reg_bits(const emu_ctx *c, int32_t reg)
{
    const ptx_reg *r = &c->fn->regs[reg];
    return r->type == PTX_TYPE_PRED ? 1 : emu_type_bits[r->type];
}

/* A predicate register's slot holds its 32 lanes as one mask in the low bits of its first
 * word (the predicate mask file shares the register file's slots, so frames, calls and
 * checkpoints treat it like any register). */
static inline bool reg_is_pred(const emu_ctx *c, const ptx_operand *o)
{
    return c->fn->regs[o->reg].type == PTX_TYPE_PRED;
}

static inline uint64_t *reg_row(emu_ctx *c, const ptx_operand *o)
{
    const ptx_reg *r = &c->fn->regs[o->reg];
    return c->regs + (size_t)(r->slot + (r->vec > 1 ? o->comp : 0)) * EMU_WARP_SIZE;
}

uint64_t *emu_reg_row(emu_ctx *c, const ptx_operand *o)
{
    return o->kind == PTX_OPD_REG && o->reg >= 0 ? reg_row(c, o) : NULL;
}

/* An immediate as a value of the instruction's type. */
static uint64_t imm_value(const ptx_operand *o, uint8_t type)
{
    return emu_imm_convert(o->kind, (uint64_t)o->imm, type);
}

/* What the clocks read: the instruction count (4 cycles and 2 ns per instruction), or the
 * simulated time the cycle model set. */
static inline uint64_t warp_cycles(const emu_warp *w)
{
    return w->clock_set ? w->clock_cycles : w->ninstr * 4;
}
static inline uint64_t warp_ns(const emu_warp *w)
{
    return w->clock_set ? w->clock_ns : w->ninstr * 2;
}

uint64_t emu_sreg_value(emu_ctx *c, unsigned sreg, unsigned comp, int lane)
{
    emu_warp *w = c->w;
    const emu_launch *L = &c->g->launch;
#define DIM(d) (comp == 0 ? (d).x : comp == 1 ? (d).y : comp == 2 ? (d).z : 0)
    switch (sreg) {
    case PTX_SREG_TID: return DIM(w->tid[lane]);
    case PTX_SREG_NTID: return DIM(L->block);
    case PTX_SREG_CTAID: return DIM(c->cta->ctaid);
    case PTX_SREG_NCTAID: return DIM(L->grid);
    case PTX_SREG_LANEID: return (uint64_t)lane;
    case PTX_SREG_WARPID: return w->id;
    case PTX_SREG_NWARPID: return L->max_warps_per_sm ? L->max_warps_per_sm : 64;
    case PTX_SREG_SMID: return c->cta->sm;
    case PTX_SREG_NSMID: return L->sm_count ? L->sm_count : 1;
    case PTX_SREG_GRIDID: return L->grid_id;
    case PTX_SREG_LANEMASK_EQ: return UINT64_C(1) << lane;
    case PTX_SREG_LANEMASK_LE: return ((UINT64_C(2) << lane) - 1) & 0xffffffffu;
    case PTX_SREG_LANEMASK_LT: return (UINT64_C(1) << lane) - 1;
    case PTX_SREG_LANEMASK_GE: return ~((UINT64_C(1) << lane) - 1) & 0xffffffffu;
    case PTX_SREG_LANEMASK_GT: return ~((UINT64_C(2) << lane) - 1) & 0xffffffffu;
    /* Clocks count the warp's executed instructions: deterministic and monotonic; under the
     * cycle model they read the simulated time it set (emu_warp_set_clock). */
    case PTX_SREG_CLOCK: return warp_cycles(w) & 0xffffffffu;
    case PTX_SREG_CLOCK_HI: return warp_cycles(w) >> 32;
    case PTX_SREG_CLOCK64: return warp_cycles(w);
    case PTX_SREG_GLOBALTIMER: return warp_ns(w);
    case PTX_SREG_GLOBALTIMER_LO: return warp_ns(w) & 0xffffffffu;
    case PTX_SREG_GLOBALTIMER_HI: return warp_ns(w) >> 32;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return L->dynamic_smem;
    /* the kernel's static and dynamic shared memory; the aggregate adds the reserved region */
    case PTX_SREG_TOTAL_SMEM_SIZE: return c->g->smem_size;
    case PTX_SREG_AGGR_SMEM_SIZE: return c->cta->smem_size;
    case PTX_SREG_CLUSTERID: return DIM(c->cta->ctaid);
    case PTX_SREG_NCLUSTERID: return DIM(L->grid);
    case PTX_SREG_CLUSTER_CTAID: return 0;
    case PTX_SREG_CLUSTER_NCTAID: return comp <= 2 ? 1 : 0;
    case PTX_SREG_CLUSTER_CTARANK: return 0;
    case PTX_SREG_CLUSTER_NCTARANK: return 1;
    case PTX_SREG_ENVREG: return comp < 32 ? L->envreg[comp] : 0;
    /* the reserved region is [0, reserved_smem) of the CTA's shared memory; its two slots (the
     * second one is cooperative_groups' scratch) take a half each */
    case PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN: return 0;
    case PTX_SREG_RESERVED_SMEM_OFFSET_END:
    case PTX_SREG_RESERVED_SMEM_OFFSET_CAP: return L->reserved_smem;
    case PTX_SREG_RESERVED_SMEM_OFFSET: return comp == 1 ? L->reserved_smem / 2 : 0;
    default: return 0;
    }
#undef DIM
}

uint64_t emu_symbol_address(emu_ctx *c, int32_t sym, uint8_t *space)
{
    const ptx_module *m = c->mod->ptx;
    uint8_t sp = PTX_SPACE_GLOBAL;
    uint64_t v = 0;
    if (sym < 0 || (uint32_t)sym >= m->nsyms) {
        if (space) *space = PTX_SPACE_NONE;
        return 0;
    }
    const ptx_symbol *s = &m->syms[sym];
    if (s->kind == PTX_SYM_FUNC) {
        v = EMU_FUNC_WINDOW + (uint64_t)(s->func >= 0 ? s->func : 0);
        sp = PTX_SPACE_NONE;
    } else {
        switch (s->space) {
        case PTX_SPACE_GLOBAL:
        case PTX_SPACE_CONST:
            v = c->mod->var_addr[sym];
            sp = PTX_SPACE_GLOBAL;
            break;
        case PTX_SPACE_SHARED:
        case PTX_SPACE_SHARED_CLUSTER:
            v = emu_kernel_shared_offset(c->g->kf, sym);
            if (v == UINT64_MAX) v = c->cta->smem_size; /* never laid out: any access faults */
            else v += c->g->launch.reserved_smem;        /* above the system's reserved region */
            sp = PTX_SPACE_SHARED;
            break;
        case PTX_SPACE_LOCAL:
            v = c->fr->local_base + c->mod->frame_off[sym];
            sp = PTX_SPACE_LOCAL;
            break;
        case PTX_SPACE_PARAM:
            if (c->fn->is_entry && c->mod->is_input_param[sym]) {
                v = s->offset;
                sp = PTX_SPACE_PARAM;
            } else {
                v = c->fr->local_base + c->mod->frame_off[sym];
                sp = PTX_SPACE_LOCAL;
            }
            break;
        default:
            sp = PTX_SPACE_NONE;
            break;
        }
    }
    if (space) *space = sp;
    return v;
}

uint64_t emu_read(emu_ctx *c, const ptx_operand *o, int lane, uint8_t type)
{
    unsigned bits = emu_type_bits[type];
    switch (o->kind) {
    case PTX_OPD_REG: {
        if (reg_is_pred(c, o)) {
            uint64_t p = (reg_row(c, o)[0] >> lane) & 1;
            return type == PTX_TYPE_PRED ? p ^ (o->neg ? 1 : 0) : p;
        }
        uint64_t v = reg_row(c, o)[lane];
        if (type == PTX_TYPE_PRED) return (v & 1) ^ (o->neg ? 1 : 0);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    }
    case PTX_OPD_IMM:
    case PTX_OPD_FIMM32:
    case PTX_OPD_FIMM64: return imm_value(o, type);
    case PTX_OPD_SREG: {
        uint64_t v = emu_sreg_value(c, (unsigned)o->reg, o->comp, lane);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    }
    case PTX_OPD_SYM:
    case PTX_OPD_ADDR: {
        uint64_t v = o->kind == PTX_OPD_ADDR && o->reg >= 0 ? reg_row(c, o)[lane]
                                                            : emu_symbol_address(c, o->sym, NULL);
        if (o->kind == PTX_OPD_ADDR) v += (uint64_t)o->imm;
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    }
    case PTX_OPD_VEC: {
        if (o->nelem == 1) return emu_read(c, &o->elems[0], lane, type);   /* {%r} is %r */
        unsigned n = o->nelem ? o->nelem : 1, ew = (bits ? bits : 64) / n;
        uint8_t et = ew == 8 ? PTX_TYPE_B8 : ew == 16 ? PTX_TYPE_B16 : ew == 32 ? PTX_TYPE_B32
                                                                                  : PTX_TYPE_B64;
        uint64_t v = 0;
        for (unsigned i = 0; i < n && i * ew < 64; i++)
            v |= (emu_read(c, &o->elems[i], lane, et) & emu_mask_bits(ew)) << (i * ew);
        return v;
    }
    default: return 0;
    }
}

void emu_read_all(emu_ctx *c, const ptx_operand *o, uint8_t type, uint64_t out[EMU_WARP_SIZE])
{
    unsigned bits = emu_type_bits[type];
    if (o->kind == PTX_OPD_REG) {
        const uint64_t *row = reg_row(c, o);
        if (reg_is_pred(c, o)) {
            uint32_t m = (uint32_t)row[0] ^ (type == PTX_TYPE_PRED && o->neg ? ~0u : 0u);
            for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = (m >> l) & 1;
        } else if (type == PTX_TYPE_PRED) {
            uint64_t x = o->neg ? 1 : 0;
            for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = (row[l] & 1) ^ x;
        } else if (bits && bits < 64) {
            uint64_t m = emu_mask_bits(bits);
            for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = row[l] & m;
        } else {
            memcpy(out, row, EMU_WARP_SIZE * sizeof(uint64_t));
        }
        return;
    }
    if (o->kind == PTX_OPD_IMM || o->kind == PTX_OPD_FIMM32 || o->kind == PTX_OPD_FIMM64 ||
        o->kind == PTX_OPD_SYM) {
        uint64_t v = emu_read(c, o, 0, type);
        for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = v;
        return;
    }
    for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = emu_read(c, o, l, type);
}

uint32_t emu_read_pred_mask(emu_ctx *c, const ptx_operand *o)
{
    if (o->kind == PTX_OPD_REG && reg_is_pred(c, o))
        return (uint32_t)reg_row(c, o)[0] ^ (o->neg ? ~0u : 0u);
    uint32_t m = 0;
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        if (emu_read(c, o, l, PTX_TYPE_PRED)) m |= 1u << l;
    return m;
}

void emu_write(emu_ctx *c, const ptx_operand *o, int lane, uint64_t v, uint8_t type)
{
    if (o->kind == PTX_OPD_REG) {
        const ptx_reg *r = &c->fn->regs[o->reg];
        if (r->type == PTX_TYPE_PRED) {
            uint64_t *row = reg_row(c, o);
            row[0] = (row[0] & ~(UINT64_C(1) << lane)) | ((v & 1) << lane);
            return;
        }
        unsigned rbits = emu_type_bits[r->type];
        unsigned tbits = emu_type_bits[type];
        uint64_t x;
        if (type == PTX_TYPE_PRED || rbits == 1) x = v & 1;
        else if (emu_is_signed(type)) x = (uint64_t)emu_sext(v, tbits) & emu_mask_bits(rbits);
        else x = v & emu_mask_bits(tbits < rbits ? tbits : rbits);
        reg_row(c, o)[lane] = x;
    } else if (o->kind == PTX_OPD_VEC && o->nelem == 1) {
        emu_write(c, &o->elems[0], lane, v, type);   /* {%r} is %r */
    } else if (o->kind == PTX_OPD_VEC) {
        unsigned bits = emu_type_bits[type];
        unsigned n = o->nelem ? o->nelem : 1, ew = (bits ? bits : 64) / n;
        uint8_t et = ew == 8 ? PTX_TYPE_B8 : ew == 16 ? PTX_TYPE_B16 : ew == 32 ? PTX_TYPE_B32
                                                                                  : PTX_TYPE_B64;
        for (unsigned i = 0; i < n && i * ew < 64; i++)
            emu_write(c, &o->elems[i], lane, (v >> (i * ew)) & emu_mask_bits(ew), et);
    }
    /* a sink (_) or anything else takes nothing */
}

void emu_write_all(emu_ctx *c, const ptx_operand *o, uint8_t type, const uint64_t v[EMU_WARP_SIZE])
{
    if (o->kind == PTX_OPD_REG) {
        const ptx_reg *r = &c->fn->regs[o->reg];
        uint64_t *row = reg_row(c, o);
        if (r->type == PTX_TYPE_PRED) {
            uint32_t bits = 0;
            for (int l = 0; l < EMU_WARP_SIZE; l++) bits |= (uint32_t)(v[l] & 1) << l;
            row[0] = (row[0] & ~(uint64_t)c->mask) | (bits & c->mask);
            return;
        }
        unsigned rbits = emu_type_bits[r->type];
        unsigned tbits = emu_type_bits[type];
        bool sx = emu_is_signed(type) && tbits < rbits && type != PTX_TYPE_PRED;
        uint64_t m = (type == PTX_TYPE_PRED || rbits == 1) ? 1
                     : emu_mask_bits(sx ? rbits : (tbits < rbits ? tbits : rbits));
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            row[l] = sx ? (uint64_t)emu_sext(v[l], tbits) & m : v[l] & m;
        }
        return;
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_write(c, o, l, v[l], type);
    }
}
