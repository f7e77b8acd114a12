/* interp.c: the interpreter's run loop, operand access (registers, immediates, special
 * registers, symbols, vectors) and instruction selection. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <string.h>

uint8_t emu_reg_bits(const emu_ctx *c, int32_t reg)
{
    const ptx_reg *r = &c->fn->regs[reg];
    return r->type == PTX_TYPE_PRED ? 1 : emu_type_bits[r->type];
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
    unsigned bits = emu_type_bits[type];
    uint8_t kind = emu_type_kind[type];
    if (o->kind == PTX_OPD_IMM) {
        if (kind == EMU_TK_F) {
            double d = (double)o->imm;
            switch (type) {
            case PTX_TYPE_F32: return emu_f32_bits((float)d);
            case PTX_TYPE_F64: return emu_f64_bits(d);
            case PTX_TYPE_F16: return emu_f64_to_f16(d, PTX_RND_RN);
            case PTX_TYPE_BF16: return emu_f64_to_bf16(d, PTX_RND_RN);
            default: break;
            }
        }
        if (type == PTX_TYPE_PRED) return o->imm != 0;
        return (uint64_t)o->imm & emu_mask_bits(bits ? bits : 64);
    }
    if (o->kind == PTX_OPD_FIMM32) {
        float f = emu_as_f32((uint64_t)o->imm);
        switch (type) {
        case PTX_TYPE_F64: return emu_f64_bits((double)f);
        case PTX_TYPE_F16: return emu_f64_to_f16(f, PTX_RND_RN);
        case PTX_TYPE_BF16: return emu_f64_to_bf16(f, PTX_RND_RN);
        default: return (uint64_t)o->imm & 0xffffffffu;
        }
    }
    /* FIMM64 */
    double d = emu_as_f64((uint64_t)o->imm);
    switch (type) {
    case PTX_TYPE_F32: return emu_f32_bits((float)d);
    case PTX_TYPE_F16: return emu_f64_to_f16(d, PTX_RND_RN);
    case PTX_TYPE_BF16: return emu_f64_to_bf16(d, PTX_RND_RN);
    default: return (uint64_t)o->imm & emu_mask_bits(bits ? bits : 64);
    }
}

static uint64_t sreg_value(emu_ctx *c, const ptx_operand *o, int lane)
{
    emu_warp *w = c->w;
    const emu_launch *L = &c->g->launch;
    unsigned comp = o->comp;
#define DIM(d) (comp == 0 ? (d).x : comp == 1 ? (d).y : comp == 2 ? (d).z : 0)
    switch (o->reg) {
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
    /* Clocks count the warp's executed instructions: deterministic and monotonic. */
    case PTX_SREG_CLOCK: return (w->ninstr * 4) & 0xffffffffu;
    case PTX_SREG_CLOCK_HI: return (w->ninstr * 4) >> 32;
    case PTX_SREG_CLOCK64: return w->ninstr * 4;
    case PTX_SREG_GLOBALTIMER: return w->ninstr * 2;
    case PTX_SREG_GLOBALTIMER_LO: return (w->ninstr * 2) & 0xffffffffu;
    case PTX_SREG_GLOBALTIMER_HI: return (w->ninstr * 2) >> 32;
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
        uint64_t v = reg_row(c, o)[lane];
        if (type == PTX_TYPE_PRED) return (v & 1) ^ (o->neg ? 1 : 0);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    }
    case PTX_OPD_IMM:
    case PTX_OPD_FIMM32:
    case PTX_OPD_FIMM64: return imm_value(o, type);
    case PTX_OPD_SREG: {
        uint64_t v = sreg_value(c, o, lane);
        return bits && bits < 64 ? v & emu_mask_bits(bits) : v;
    }
    case PTX_OPD_SYM:
    case PTX_OPD_ADDR: {
        uint64_t v = emu_symbol_address(c, o->sym, NULL);
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
        if (type == PTX_TYPE_PRED) {
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
    uint32_t m = 0;
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        if (emu_read(c, o, l, PTX_TYPE_PRED)) m |= 1u << l;
    return m;
}

void emu_write(emu_ctx *c, const ptx_operand *o, int lane, uint64_t v, uint8_t type)
{
    if (o->kind == PTX_OPD_REG) {
        const ptx_reg *r = &c->fn->regs[o->reg];
        unsigned rbits = r->type == PTX_TYPE_PRED ? 1 : emu_type_bits[r->type];
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
        unsigned rbits = r->type == PTX_TYPE_PRED ? 1 : emu_type_bits[r->type];
        unsigned tbits = emu_type_bits[type];
        uint64_t *row = reg_row(c, o);
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

emu_exec_fn emu_select(const ptx_instr *in)
{
    emu_exec_fn f;
    if ((f = emu_select_fast(in))) return f;
    if ((f = emu_select_simd(in))) return f;
    if ((f = emu_select_video(in))) return f;
    if ((f = emu_select_control(in))) return f;
    if ((f = emu_select_mem(in))) return f;
    if ((f = emu_select_multimem(in))) return f;
    if ((f = emu_select_cvt(in))) return f;
    if ((f = emu_select_cmp(in))) return f;
    if ((f = emu_select_warp(in))) return f;
    if ((f = emu_select_wmma(in))) return f;
    if ((f = emu_select_mma(in))) return f;
    if ((f = emu_select_tex(in))) return f;
    if ((f = emu_select_async(in))) return f;
    if ((f = emu_select_half(in))) return f;
    if ((f = emu_select_float(in))) return f;
    if ((f = emu_select_int(in))) return f;
    return NULL;
}

/* Pops finished SIMT entries and frames. Returns false when the warp has no lane left. */
static bool settle(emu_ctx *c)
{
    emu_warp *w = c->w;
    for (;;) {
        if (w->sp == 0) return false;
        emu_frame *fr = &w->frames[w->nframes - 1];
        emu_simt *top = &w->stack[w->sp - 1];
        const ptx_function *fn = fr->f->fn;
        if (top->bar || (top->mask != 0 && top->pc != top->rpc && top->pc < fn->ninstrs))
            break;
        if (top->mask != 0 && top->pc >= fn->ninstrs && top->pc != top->rpc) {
            /* fell off the end of the function: an implicit ret */
            uint32_t lanes = top->mask;
            c->fr = fr;
            c->f = fr->f;
            c->fn = fn;
            c->regs = w->regs + fr->reg_base;
            if (w->nframes == 1) emu_lanes_exit(c, lanes);
            else emu_lanes_return(c, lanes);
            continue;
        }
        w->sp--;
        if (w->nframes > 1 && w->sp == fr->stack_base) emu_frame_return(c);
    }
    return true;
}

emu_stop emu_warp_run(emu_warp *w, uint64_t budget)
{
    if (w->state == EMU_WS_EXITED) return EMU_STOP_EXIT;
    if (w->state == EMU_WS_FAULT) return EMU_STOP_FAULT;
    if (w->state == EMU_WS_BARRIER) return EMU_STOP_BARRIER;
    emu_ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.cta = w->cta;
    c.g = w->cta->g;
    c.mod = c.g->launch.module;
    c.stop = -1;
    emu_stop result = EMU_STOP_BUDGET;
    for (uint64_t n = 0; n < budget; n++) {
        if (!settle(&c)) {
            result = EMU_STOP_EXIT;
            break;
        }
        emu_simt *top = &w->stack[w->sp - 1];
        if (__builtin_expect(top->bar != 0, 0)) {
            /* these lanes wait at a barrier: another path of the warp runs, if one can */
            if (!emu_simt_schedule(w)) {
                w->state = EMU_WS_BARRIER;
                result = EMU_STOP_BARRIER;
                break;
            }
            n--;
            continue;
        }
        emu_frame *fr = &w->frames[w->nframes - 1];
        c.fr = fr;
        c.f = fr->f;
        c.fn = fr->f->fn;
        c.regs = w->regs + fr->reg_base;
        c.pc = top->pc;
        c.next_pc = top->pc + 1;
        c.active = top->mask;
        c.control = false;
        const ptx_instr *in = &c.fn->instrs[c.pc];
        uint32_t mask = c.active;
        if (in->guard >= 0) {
            const ptx_reg *g = &c.fn->regs[in->guard];
            const uint64_t *row = c.regs + (size_t)g->slot * EMU_WARP_SIZE;
            uint32_t gm = 0;
            for (int l = 0; l < EMU_WARP_SIZE; l++) gm |= (uint32_t)(row[l] & 1) << l;
            if (in->guard_neg) gm = ~gm;
            mask &= gm;
        }
        c.mask = mask;
        if (mask) c.f->exec[c.pc](&c, in);
        w->ninstr++;
        if (c.stop == EMU_STOP_FAULT) {
            result = EMU_STOP_FAULT;
            break;
        }
        if (!c.control) w->stack[w->sp - 1].pc = c.next_pc;
        if (c.stop >= 0) {
            result = (emu_stop)c.stop;
            if (!settle(&c) && result != EMU_STOP_FAULT) result = EMU_STOP_EXIT;
            break;
        }
    }
    if (result == EMU_STOP_BUDGET && !settle(&c)) result = EMU_STOP_EXIT;
    if (result == EMU_STOP_EXIT) {
        w->state = EMU_WS_EXITED;
    }
    emu_mem_policy *p = c.g->launch.policy;
    if (p && p->warp_stopped) p->warp_stopped(p, w, (int)result);
    return result;
}
