/* exec_mem.c: ld, st, atom, red, cp.async, fences and cache hints, on every state space.
 *
 * Every lane's address is resolved to its space and checked (alignment, then bounds) before
 * any lane touches memory, so a faulting instruction writes nothing. Global memory goes
 * through the launch's memory policy; shared, local and param memory are accessed directly.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <stdio.h>
#include <string.h>

#define MAX_ACCESS 32   /* bytes per lane: up to .v8.b32 / .v4.b64 */

typedef struct addr_set {
    uint8_t space[EMU_WARP_SIZE];   /* GLOBAL, SHARED, LOCAL or PARAM */
    uint64_t a[EMU_WARP_SIZE];      /* device address, or offset within the space */
    uint8_t *p[EMU_WARP_SIZE];      /* host pointer once checked */
    uint32_t global_mask;
} addr_set;

static const char *space_label(uint8_t sp)
{
    switch (sp) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_PARAM: return "__param__";
    default: return "__global__";
    }
}

static void classify_generic(uint64_t v, uint8_t *sp, uint64_t *a)
{
    if (v >= EMU_SHARED_WINDOW && v < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) {
        *sp = PTX_SPACE_SHARED;
        *a = v - EMU_SHARED_WINDOW;
    } else if (v >= EMU_LOCAL_WINDOW && v < EMU_LOCAL_WINDOW + EMU_WINDOW_SIZE) {
        *sp = PTX_SPACE_LOCAL;
        *a = v - EMU_LOCAL_WINDOW;
    } else if (v >= EMU_PARAM_WINDOW && v < EMU_PARAM_WINDOW + EMU_WINDOW_SIZE) {
        *sp = PTX_SPACE_PARAM;
        *a = v - EMU_PARAM_WINDOW;
    } else {
        *sp = PTX_SPACE_GLOBAL;
        *a = v;
    }
}

static uint64_t strip_window(uint64_t v, uint64_t window)
{
    return (v >= window && v < window + EMU_WINDOW_SIZE) ? v - window : v;
}

/* The space and space-relative address of address value v used by an instruction of space
 * ispace (PTX_SPACE_NONE: generic). */
static void resolve_value(const emu_ctx *c, uint8_t ispace, uint64_t v, uint8_t *sp, uint64_t *a)
{
    switch (ispace) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: *sp = PTX_SPACE_GLOBAL; *a = v; break;
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER:
        *sp = PTX_SPACE_SHARED;
        *a = strip_window(v, EMU_SHARED_WINDOW);
        break;
    case PTX_SPACE_LOCAL: *sp = PTX_SPACE_LOCAL; *a = strip_window(v, EMU_LOCAL_WINDOW); break;
    case PTX_SPACE_PARAM:
        if (c->fn->is_entry) {
            *sp = PTX_SPACE_PARAM;
            *a = strip_window(v, EMU_PARAM_WINDOW);
        } else {
            *sp = PTX_SPACE_LOCAL;
            *a = strip_window(v, EMU_LOCAL_WINDOW);
        }
        break;
    default: classify_generic(v, sp, a); break;
    }
}

/* Each active lane's space and address for address operand ao of instruction space ispace. */
static void resolve(emu_ctx *c, uint8_t ispace, const ptx_operand *ao, uint32_t mask, addr_set *A)
{
    A->global_mask = 0;
    uint8_t symspace = PTX_SPACE_NONE;
    uint64_t symaddr = 0;
    const uint64_t *row = NULL;
    bool narrow = false;
    int64_t off = ao->kind == PTX_OPD_ADDR ? ao->imm : 0;
    if (ao->kind == PTX_OPD_ADDR && ao->reg >= 0) {
        const ptx_reg *r = &c->fn->regs[ao->reg];
        row = c->regs + (size_t)r->slot * EMU_WARP_SIZE;
        narrow = emu_type_bits[r->type] <= 32;
    } else if (ao->kind == PTX_OPD_REG) {
        const ptx_reg *r = &c->fn->regs[ao->reg];
        row = c->regs + (size_t)r->slot * EMU_WARP_SIZE;
        narrow = emu_type_bits[r->type] <= 32;
    } else if (ao->sym >= 0 && (ao->kind == PTX_OPD_ADDR || ao->kind == PTX_OPD_SYM)) {
        symaddr = emu_symbol_address(c, ao->sym, &symspace);
    }
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint8_t sp;
        uint64_t a;
        if (symspace != PTX_SPACE_NONE) {
            sp = symspace;
            a = symaddr + (uint64_t)off;
        } else {
            uint64_t v = row ? row[l] : 0;
            v += (uint64_t)off;
            if (narrow) v &= 0xffffffffu;
            resolve_value(c, ispace, v, &sp, &a);
        }
        A->space[l] = sp;
        A->a[l] = a;
        if (sp == PTX_SPACE_GLOBAL) A->global_mask |= 1u << l;
    }
}

static bool global_ok(emu_warp *w, uint64_t a, uint64_t size)
{
    uint64_t gen = emu_device_generation();
    if (w->cache_gen == gen && a >= w->cache_base && a + size >= a && a + size <= w->cache_end)
        return true;
    uint64_t base, asz;
    if (!emu_find_allocation(a, size, &base, &asz, NULL)) return false;
    w->cache_base = base;
    w->cache_end = base + asz;
    w->cache_gen = gen;
    return true;
}

/* Describes the allocation nearest to a bad global address, as compute-sanitizer does. */
static void nearest_note(uint64_t a, char *buf, size_t len)
{
    uint64_t base, asz;
    buf[0] = 0;
    /* probe backwards a little for the allocation just below */
    for (uint64_t back = 1; back <= 4096 && back <= a; back *= 2) {
        if (emu_find_allocation(a - back, 1, &base, &asz, NULL)) {
            snprintf(buf, len, " and is %llu bytes after the nearest allocation at 0x%llx of "
                     "size %llu bytes", (unsigned long long)(a - (base + asz)),
                     (unsigned long long)base, (unsigned long long)asz);
            return;
        }
    }
}

/* Checks alignment and bounds of every lane; fills A->p. False (with the fault raised) when a
 * lane is bad; the lowest such lane is the one reported. */
static bool check(emu_ctx *c, addr_set *A, uint32_t mask, uint64_t size, uint64_t align,
                  const char *verb)
{
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t a = A->a[l];
        uint8_t sp = A->space[l];
        char what[96];
#define WHAT() snprintf(what, sizeof what, "Invalid %s %s of size %llu", space_label(sp), verb, \
                        (unsigned long long)size)
        if (align > 1 && (a & (align - 1))) {
            WHAT();
            emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true, a, what, "address is misaligned");
            return false;
        }
        switch (sp) {
        case PTX_SPACE_GLOBAL:
            if (!global_ok(c->w, a, size)) {
                char note[160];
                WHAT();
                nearest_note(a, note, sizeof note);
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                                "address is out of bounds%s", note);
                return false;
            }
            A->p[l] = (uint8_t *)(uintptr_t)a;
            break;
        case PTX_SPACE_SHARED:
            if (a > c->cta->smem_size || size > c->cta->smem_size - a) {
                WHAT();
                emu_fault_raise(c, EMU_FAULT_SHARED_OUT_OF_RANGE, l, true, a, what,
                                "address is out of bounds of the block's %llu bytes of shared "
                                "memory", (unsigned long long)c->cta->smem_size);
                return false;
            }
            A->p[l] = c->cta->smem + a;
            break;
        case PTX_SPACE_LOCAL:
            A->p[l] = emu_local_ptr(c, l, a, size);
            if (!A->p[l]) {
                WHAT();
                const emu_frame *top = &c->w->frames[c->w->nframes - 1];
                emu_fault_raise(c, EMU_FAULT_LOCAL_OUT_OF_RANGE, l, true, a, what,
                                "address is out of bounds of the thread's %llu bytes of local "
                                "memory", (unsigned long long)(top->local_base +
                                                               top->f->frame_size));
                return false;
            }
            break;
        case PTX_SPACE_PARAM:
            if (a > c->g->params_size || size > c->g->params_size - a) {
                WHAT();
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                                "address is out of the kernel's %zu-byte parameter block",
                                c->g->params_size);
                return false;
            }
            A->p[l] = c->g->params + a;
            break;
        default:
            WHAT();
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                            "address is in no state space");
            return false;
        }
    }
#undef WHAT
    return true;
}

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* Performs the global part of a load or store through the policy, in pieces of <= 16 bytes. */
static void global_transfer(emu_ctx *c, const ptx_instr *in, addr_set *A, uint32_t mask,
                            uint8_t kind, uint64_t total, uint8_t (*buf)[MAX_ACCESS])
{
    emu_mem_policy *pol = c->g->launch.policy;
    for (uint64_t off = 0; off < total; off += 16) {
        uint64_t piece = total - off < 16 ? total - off : 16;
        uint8_t data[EMU_WARP_SIZE][16];
        emu_mem_op op;
        memset(&op, 0, sizeof op);
        op.kind = kind;
        op.space = PTX_SPACE_GLOBAL;
        op.size = (uint8_t)piece;
        op.mask = mask;
        op.data = data;
        op.instr = in;
        for (uint32_t mk = mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            op.addr[l] = A->a[l] + off;
            if (kind == EMU_MEM_STORE) memcpy(data[l], buf[l] + off, piece);
        }
        if (pol->access(pol, c->w, &op)) c->stop = EMU_STOP_MEMORDER;
        if (kind == EMU_MEM_LOAD)
            for (uint32_t mk = mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                memcpy(buf[l] + off, data[l], piece);
            }
    }
}

bool emu_mem_lanes(emu_ctx *c, const ptx_instr *in, uint8_t ispace, const uint64_t *addr,
                   uint32_t mask, unsigned size, uint8_t (*data)[16], bool store)
{
    addr_set A;
    A.global_mask = 0;
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        resolve_value(c, ispace, addr[l], &A.space[l], &A.a[l]);
        if (A.space[l] == PTX_SPACE_GLOBAL) A.global_mask |= 1u << l;
    }
    if (!check(c, &A, mask, size, size, store ? "write" : "read")) return false;
    if (store)
        for (uint32_t mk = mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (A.space[l] == PTX_SPACE_PARAM) {
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, A.a[l],
                                "Invalid __param__ write", "kernel parameters are read-only");
                return false;
            }
        }
    uint8_t buf[EMU_WARP_SIZE][MAX_ACCESS];
    if (store)
        for (uint32_t mk = mask; mk; mk &= mk - 1) memcpy(buf[__builtin_ctz(mk)], data[__builtin_ctz(mk)], size);
    if (A.global_mask)
        global_transfer(c, in, &A, A.global_mask, store ? EMU_MEM_STORE : EMU_MEM_LOAD, size, buf);
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (!(A.global_mask >> l & 1)) {
            if (store) memcpy(A.p[l], buf[l], size);
            else memcpy(buf[l], A.p[l], size);
        }
        if (!store) memcpy(data[l], buf[l], size);
    }
    return true;
}

static unsigned elem_bytes(uint8_t t)
{
    unsigned b = emu_type_bits[t];
    return b < 8 ? 1 : b / 8;
}

/* ---------------------------------------------------------------- fast paths
 * A load or store of 4 or 8 bytes per lane through a register address, when the policy is the
 * direct one (nothing to defer or observe): every lane is checked against the allocation the
 * warp last hit (global) or the block's shared memory, and the data moves between the register
 * row and memory without staging. Any lane outside, misaligned or in another space sends the
 * instruction to the general path, which reports faults; so the fast path changes nothing but
 * the time taken. */

static bool fast_lanes(emu_ctx *c, const emu_uop *u, const emu_opd *ao, unsigned es,
                       uint8_t **p)
{
    uint8_t sp = u->in->space;
    const uint64_t *base = c->regs + ao->row;
    uint64_t off = ao->imm, keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    uint32_t mask = c->mask;
    if (sp == PTX_SPACE_SHARED) {
        uint64_t size = c->cta->smem_size;
        for (uint32_t mk = mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t a = (base[l] + off) & keep;
            if (a >= EMU_SHARED_WINDOW && a < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE)
                a -= EMU_SHARED_WINDOW;
            if ((a & (es - 1)) || a > size || es > size - a) return false;
            p[l] = c->cta->smem + a;
        }
        return true;
    }
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST && sp != PTX_SPACE_NONE) return false;
    emu_warp *w = c->w;
    if (w->cache_gen != emu_device_generation()) {
        /* refresh the cached allocation from the first lane; the general path reports a bad one */
        uint64_t a = (base[__builtin_ctz(mask)] + off) & keep, ab, asz;
        if (!emu_find_allocation(a, es, &ab, &asz, NULL)) return false;
        w->cache_base = ab;
        w->cache_end = ab + asz;
        w->cache_gen = emu_device_generation();
    }
    uint64_t lo = w->cache_base, hi = w->cache_end;
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t a = (base[l] + off) & keep;
        /* inside the cached allocation implies global: the windows lie above device memory */
        if ((a & (es - 1)) || a < lo || a > hi - es) return false;
        p[l] = (uint8_t *)(uintptr_t)a;
    }
    return true;
}

static bool ld_fast(emu_ctx *c, const emu_uop *u, unsigned es)
{
    const emu_opd *d = &u->opd[0], *ao = &u->opd[1];
    if (!c->direct_mem || !(ao->flags & EMU_OPD_F_BASE_REG) || d->kind != EMU_OPD_REG ||
        d->bits != es * 8 || u->in->vec > 1)
        return false;
    uint8_t *p[EMU_WARP_SIZE];
    if (!fast_lanes(c, u, ao, es, p)) return false;
    uint64_t *row = c->regs + d->row;
    if (es == 4)
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            row[l] = __atomic_load_n((const uint32_t *)p[l], __ATOMIC_RELAXED);
        }
    else
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            row[l] = __atomic_load_n((const uint64_t *)p[l], __ATOMIC_RELAXED);
        }
    return true;
}

static bool st_fast(emu_ctx *c, const emu_uop *u, unsigned es)
{
    const emu_opd *ao = &u->opd[0], *s = &u->opd[1];
    if (!c->direct_mem || !(ao->flags & EMU_OPD_F_BASE_REG) || u->in->vec > 1 ||
        (s->kind != EMU_OPD_REG && s->kind != EMU_OPD_IMM) ||
        (s->kind == EMU_OPD_REG && (s->bits < es * 8 || s->bits == 128)))
        return false;
    uint8_t *p[EMU_WARP_SIZE];
    if (!fast_lanes(c, u, ao, es, p)) return false;
    uint64_t buf[EMU_WARP_SIZE];
    const uint64_t *v = emu_src(c, s, u->type, buf);
    if (es == 4)
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            __atomic_store_n((uint32_t *)p[l], (uint32_t)v[l], __ATOMIC_RELAXED);
        }
    else
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            __atomic_store_n((uint64_t *)p[l], v[l], __ATOMIC_RELAXED);
        }
    return true;
}

static void x_ld(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned es = elem_bytes(t), vec = in->vec ? in->vec : 1;
    if ((es == 4 || es == 8) && ld_fast(c, u, es)) return;
    uint64_t total = (uint64_t)es * vec;
    const ptx_operand *d = &in->ops[0];
    addr_set A;
    resolve(c, in->space, &in->ops[1], c->mask, &A);
    if (!check(c, &A, c->mask, total, pow2_floor(total), "read")) return;
    uint8_t buf[EMU_WARP_SIZE][MAX_ACCESS];
    if (A.global_mask) global_transfer(c, in, &A, A.global_mask, EMU_MEM_LOAD, total, buf);
    for (uint32_t mk = c->mask & ~A.global_mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        memcpy(buf[l], A.p[l], total);
    }
    if (es == 16) {
        /* .b128: the register's two 64-bit halves */
        uint64_t *row = emu_reg_row(c, d);
        for (uint32_t mk = c->mask; mk && row; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy(&row[l], buf[l], 8);
            memcpy(&row[EMU_WARP_SIZE + l], buf[l] + 8, 8);
        }
        return;
    }
    if (vec == 1 && d->kind == PTX_OPD_REG && es >= 4) {
        /* a register of the access's width takes the bytes as they are */
        const ptx_reg *r = &c->fn->regs[d->reg];
        if (r->vec <= 1 && emu_type_bits[r->type] == es * 8) {
            uint64_t *row = emu_reg_row(c, d);
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                uint64_t v = 0;
                memcpy(&v, buf[l], es);
                row[l] = v;
            }
            return;
        }
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        for (unsigned i = 0; i < vec; i++) {
            uint64_t v = 0;
            memcpy(&v, buf[l] + i * es, es < 8 ? es : 8);
            const ptx_operand *e = (vec > 1 && d->kind == PTX_OPD_VEC && i < d->nelem)
                                       ? &d->elems[i] : d;
            if (vec > 1 && e == d) break;
            emu_write(c, e, l, v, t);
        }
    }
}

static void x_st(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    unsigned es = elem_bytes(t), vec = in->vec ? in->vec : 1;
    if ((es == 4 || es == 8) && st_fast(c, u, es)) return;
    uint64_t total = (uint64_t)es * vec;
    const ptx_operand *s = &in->ops[1];
    addr_set A;
    resolve(c, in->space, &in->ops[0], c->mask, &A);
    if (!check(c, &A, c->mask, total, pow2_floor(total), "write")) return;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (A.space[l] == PTX_SPACE_PARAM) {
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, A.a[l],
                            "Invalid __param__ write", "kernel parameters are read-only");
            return;
        }
    }
    uint8_t buf[EMU_WARP_SIZE][MAX_ACCESS];
    uint64_t *row128 = es == 16 ? emu_reg_row(c, s) : NULL;
    const uint64_t *row1 = NULL;
    if (vec == 1 && es >= 4 && es <= 8 && s->kind == PTX_OPD_REG &&
        c->fn->regs[s->reg].vec <= 1 && emu_type_bits[c->fn->regs[s->reg].type] >= es * 8)
        row1 = emu_reg_row(c, s);
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (row1) {
            memcpy(buf[l], &row1[l], es);   /* little-endian: the low bytes */
            continue;
        }
        if (es == 16) {
            uint64_t lo = row128 ? row128[l] : 0, hi = row128 ? row128[EMU_WARP_SIZE + l] : 0;
            memcpy(buf[l], &lo, 8);
            memcpy(buf[l] + 8, &hi, 8);
            continue;
        }
        for (unsigned i = 0; i < vec; i++) {
            const ptx_operand *e = (vec > 1 && s->kind == PTX_OPD_VEC && i < s->nelem)
                                       ? &s->elems[i] : s;
            uint64_t v = emu_read(c, e, l, t);
            memcpy(buf[l] + i * es, &v, es < 8 ? es : 8);
        }
    }
    if (A.global_mask) global_transfer(c, in, &A, A.global_mask, EMU_MEM_STORE, total, buf);
    for (uint32_t mk = c->mask & ~A.global_mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        memcpy(A.p[l], buf[l], total);
    }
}

static uint8_t atom_type(const ptx_instr *in)
{
    uint8_t t = PTX_TYPE_NONE;
    for (int i = 0; i < in->ntypes; i++) t = in->types[i];
    return t;
}

/* atom: d, [a], b {, c}; red: [a], b */
static void x_atom(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool is_red = in->op == PTX_OP_RED;
    uint8_t t = atom_type(in);
    unsigned es = elem_bytes(t);
    int ai = is_red ? 0 : 1;
    addr_set A;
    resolve(c, in->space, &in->ops[ai], c->mask, &A);
    if (!check(c, &A, c->mask, es, es, "atomic")) return;
    uint8_t bv[EMU_WARP_SIZE][16], cv[EMU_WARP_SIZE][16], old[EMU_WARP_SIZE][16];
    bool has_c = in->aop == PTX_SFX_CAS && in->nops > ai + 2;
    memset(old, 0, sizeof old);
    uint64_t *brow = es == 16 ? emu_reg_row(c, &in->ops[ai + 1]) : NULL;
    uint64_t *crow = es == 16 && has_c ? emu_reg_row(c, &in->ops[ai + 2]) : NULL;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (es == 16) {
            /* .b128 operands: two 64-bit register halves */
            memcpy(bv[l], &brow[l], 8);
            memcpy(bv[l] + 8, &brow[EMU_WARP_SIZE + l], 8);
            if (crow) {
                memcpy(cv[l], &crow[l], 8);
                memcpy(cv[l] + 8, &crow[EMU_WARP_SIZE + l], 8);
            }
            continue;
        }
        uint64_t b = emu_read(c, &in->ops[ai + 1], l, t);
        memcpy(bv[l], &b, 8);
        if (has_c) {
            uint64_t x = emu_read(c, &in->ops[ai + 2], l, t);
            memcpy(cv[l], &x, 8);
        }
    }
    if (A.global_mask) {
        emu_mem_op op;
        memset(&op, 0, sizeof op);
        op.kind = EMU_MEM_ATOMIC;
        op.space = PTX_SPACE_GLOBAL;
        op.size = (uint8_t)es;
        op.mask = A.global_mask;
        op.data = old;
        op.instr = in;
        op.operand_b = bv;
        op.operand_c = has_c ? cv : NULL;
        for (uint32_t mk = A.global_mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            op.addr[l] = A.a[l];
        }
        emu_mem_policy *pol = c->g->launch.policy;
        if (pol->access(pol, c->w, &op)) c->stop = EMU_STOP_MEMORDER;
        if (op.deferred) {
            /* not performed: stop before this instruction; no lane (shared ones included)
             * has done anything yet, so running it again later is exact */
            c->stop = EMU_STOP_MEMORDER;
            c->next_pc = c->pc;
            return;
        }
    }
    for (uint32_t mk = c->mask & ~A.global_mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (A.space[l] == PTX_SPACE_PARAM) {
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, A.a[l],
                            "Invalid __param__ atomic", "kernel parameters are read-only");
            return;
        }
        emu_atomic_apply(in, A.p[l], bv[l], has_c ? cv[l] : NULL, old[l]);
    }
    if (!is_red && es == 16) {
        uint64_t *drow = emu_reg_row(c, &in->ops[0]);
        for (uint32_t mk = c->mask; mk && drow; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy(&drow[l], old[l], 8);
            memcpy(&drow[EMU_WARP_SIZE + l], old[l] + 8, 8);
        }
        return;
    }
    if (!is_red)
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t v = 0;
            memcpy(&v, old[l], es < 8 ? es : 8);
            emu_write(c, &in->ops[0], l, v, t);
        }
}

/* atom/red .v2/.v4/.v8 (sm_90): each element is its own atomic operation on consecutive
 * elements, performed as the scalar form would */
static void x_atom_vec(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool is_red = in->op == PTX_OP_RED;
    int ai = is_red ? 0 : 1;
    unsigned es = elem_bytes(atom_type(in));
    ptx_instr one = *in;
    ptx_operand ops[3];
    one.vec = 1;
    one.ops = ops;
    one.nops = (uint8_t)(is_red ? 2 : 3);
    emu_uop one_u = *u;   /* x_atom reads the IR operands of `one` */
    one_u.in = &one;
    for (unsigned i = 0; i < in->vec; i++) {
        if (!is_red) ops[0] = in->ops[0].elems[i];
        ops[ai] = in->ops[ai];
        ops[ai].imm += (int64_t)(i * es);
        ops[ai + 1] = in->ops[ai + 1].elems[i];
        x_atom(c, &one_u);
        if (c->stop == EMU_STOP_FAULT || (c->stop == EMU_STOP_MEMORDER && c->next_pc == c->pc))
            return;   /* a fault, or the policy deferred the whole instruction */
    }
}

/* cp.async{.ca,.cg}.shared.global [dst], [src], cp-size {, src-size}: done at once; the
 * commit/wait instructions then have nothing to wait for. */
static void x_cp_async(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (in->nops < 3) return;
    uint64_t cpsize = (uint64_t)in->ops[2].imm;
    addr_set D, S;
    resolve(c, PTX_SPACE_SHARED, &in->ops[0], c->mask, &D);
    resolve(c, PTX_SPACE_GLOBAL, &in->ops[1], c->mask, &S);
    uint64_t srcsize[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = cpsize;
    if (in->nops > 3 && in->ops[3].kind != PTX_OPD_SYM) {
        uint64_t v[EMU_WARP_SIZE];
        const ptx_operand *o = &in->ops[3];
        if (o->kind == PTX_OPD_REG && c->fn->regs[o->reg].type == PTX_TYPE_PRED) {
            /* ignore-src: a true predicate copies nothing and zero-fills the destination */
            uint32_t ign = emu_read_pred_mask(c, o);
            for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = (ign >> l & 1) ? 0 : cpsize;
        } else if (o->kind == PTX_OPD_REG && c->fn->regs[o->reg].type != PTX_TYPE_U64 &&
                   c->fn->regs[o->reg].type != PTX_TYPE_B64) {
            emu_read_all(c, o, PTX_TYPE_U32, v);
            for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = v[l] < cpsize ? v[l] : cpsize;
        } else if (o->kind == PTX_OPD_IMM) {
            emu_read_all(c, o, PTX_TYPE_U32, v);
            for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = v[l] < cpsize ? v[l] : cpsize;
        }
        /* a .b64 register here is the cache-policy operand of .L2::cache_hint */
    }
    if (!check(c, &D, c->mask, cpsize, cpsize, "write")) return;
    uint32_t readers = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (srcsize[l]) readers |= 1u << l;
    }
    uint64_t sz = cpsize;
    if (!check(c, &S, readers, sz, cpsize, "read")) return;
    uint8_t buf[EMU_WARP_SIZE][MAX_ACCESS];
    memset(buf, 0, sizeof buf);
    if (S.global_mask & readers) global_transfer(c, in, &S, S.global_mask & readers,
                                                 EMU_MEM_LOAD, cpsize, buf);
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (srcsize[l] < cpsize) memset(buf[l] + srcsize[l], 0, cpsize - srcsize[l]);
        memcpy(D.p[l], buf[l], cpsize);
    }
}

/* mbarrier: a 64-bit object in memory. Its layout is ptxsim's own (the ISA keeps it opaque):
 * bits 0-19 pending arrivals, 20-39 expected arrivals, 40-61 transaction count (signed),
 * bit 63 the phase parity. The state token an arrive returns is the object before it. */
#define MB_PEND(v) ((uint32_t)((v) & 0xfffff))
#define MB_EXP(v) ((uint32_t)(((v) >> 20) & 0xfffff))
#define MB_TX(v) ((int32_t)((int64_t)((v) << 2) >> 42))
#define MB_PAR(v) ((uint32_t)((v) >> 63))
static uint64_t mb_make(uint32_t pend, uint32_t exp, int32_t tx, uint32_t par)
{
    return (uint64_t)(pend & 0xfffff) | ((uint64_t)(exp & 0xfffff) << 20) |
           (((uint64_t)(uint32_t)tx & 0x3fffff) << 40) | ((uint64_t)(par & 1) << 63);
}

/* One thread's update; returns the old value. (exec_async.c's bulk copies complete_tx too.) */
uint64_t emu_mbarrier_update(uint8_t *p, int what, uint32_t count, int32_t tx)
{
    uint64_t *o = (uint64_t *)p, old = __atomic_load_n(o, __ATOMIC_RELAXED), nv;
    do {
        uint32_t pend = MB_PEND(old), exp = MB_EXP(old), par = MB_PAR(old);
        int32_t t = MB_TX(old);
        switch (what) {
        case 0: pend = exp = count; t = 0; par = 0; break;             /* init */
        case 1: case 2:                                                 /* arrive, arrive_drop */
            t += tx;
            pend = pend > count ? pend - count : 0;
            if (what == 2) exp = exp > count ? exp - count : 0;
            break;
        case 3: t += tx; break;                                         /* expect_tx */
        case 4: t -= tx; break;                                         /* complete_tx */
        default: pend = exp = 0; t = 0; par = 0; break;                 /* inval */
        }
        if (what >= 1 && what <= 4 && pend == 0 && t == 0) {
            par ^= 1;   /* the phase completes; the next one expects the same arrivals */
            pend = exp;
        }
        nv = mb_make(pend, exp, t, par);
    } while (!__atomic_compare_exchange_n(o, &old, nv, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    return old;
}

static void x_mbarrier(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int mode = in->mode;
    bool expect_tx = in->flags & PTX_F(EXPECT_TX);
    int what, ai;
    if (mode == PTX_SFX_INIT) what = 0, ai = 0;
    else if (mode == PTX_SFX_ARRIVE) what = 1, ai = 1;
    else if (mode == PTX_SFX_ARRIVE_DROP) what = 2, ai = 1;
    else if (mode == PTX_SFX_COMPLETE_TX) what = 4, ai = 0;
    else if (mode == PTX_SFX_INVAL) what = 5, ai = 0;
    else if (mode == PTX_SFX_TEST_WAIT || mode == PTX_SFX_TRY_WAIT) what = 6, ai = 1;
    else if (mode == PTX_SFX_PENDING_COUNT) {
        uint64_t st[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
        emu_read_all(c, &in->ops[1], PTX_TYPE_B64, st);
        for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = MB_PEND(st[l]);
        emu_write_all(c, &in->ops[0], PTX_TYPE_U32, d);
        return;
    } else if (expect_tx) what = 3, ai = 0;
    else return;
    addr_set A;
    resolve(c, in->space, &in->ops[ai], c->mask, &A);
    if (!check(c, &A, c->mask, 8, 8, what == 6 ? "read" : "write")) return;
    uint64_t arg[EMU_WARP_SIZE], out[EMU_WARP_SIZE];
    bool has_arg = in->nops > ai + 1;
    if (has_arg) emu_read_all(c, &in->ops[ai + 1], what == 6 ? PTX_TYPE_B64 : PTX_TYPE_U32, arg);
    if (what == 6) {
        bool parity = ptx_instr_has(in, PTX_SFX_PARITY);
        bool all = true;
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t cur = __atomic_load_n((uint64_t *)A.p[l], __ATOMIC_ACQUIRE);
            uint32_t want = parity ? (uint32_t)(arg[l] & 1) : MB_PAR(arg[l]);
            out[l] = MB_PAR(cur) != want;
            all = all && out[l];
        }
        emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, out);
        /* a waiting warp lets the others run: they are the ones that complete the phase */
        if (!all && mode == PTX_SFX_TRY_WAIT) c->stop = EMU_STOP_BUDGET;
        if (!all && mode == PTX_SFX_TEST_WAIT) c->stop = EMU_STOP_BUDGET;
        return;
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint32_t count = 1;
        int32_t tx = 0;
        if (what == 0) count = has_arg ? (uint32_t)arg[l] : 0;
        else if (what == 3 || what == 4) tx = has_arg ? (int32_t)arg[l] : 0;
        else if (expect_tx) tx = has_arg ? (int32_t)arg[l] : 0;
        else if (has_arg) count = (uint32_t)arg[l];
        out[l] = emu_mbarrier_update(A.p[l], what, count, tx);
    }
    if (what == 1 || what == 2) emu_write_all(c, &in->ops[0], PTX_TYPE_B64, out);
}

/* cp.async.mbarrier.arrive{.noinc} [mbar]: the copies are already done, so the arrive happens
 * now; without .noinc the pending count is raised first, which cancels it out. */
static void x_cp_async_mbarrier_arrive(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (!(in->flags & PTX_F(NOINC))) return;
    addr_set A;
    resolve(c, in->space, &in->ops[0], c->mask, &A);
    if (!check(c, &A, c->mask, 8, 8, "write")) return;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) emu_mbarrier_update(A.p[__builtin_ctz(mk)], 1, 1, 0);
}

static void x_fence(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    emu_mem_op op;
    memset(&op, 0, sizeof op);
    op.kind = EMU_MEM_FENCE;
    op.mask = c->mask;
    op.instr = in;
    emu_mem_policy *pol = c->g->launch.policy;
    if (pol->access(pol, c->w, &op)) c->stop = EMU_STOP_MEMORDER;
}

static void x_nop(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    (void)c;
}

/* createpolicy writes an opaque cache-policy value: any value works */
static void x_createpolicy(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t z[EMU_WARP_SIZE] = { 0 };
    if (in->nops > 0) emu_write_all(c, &in->ops[0], PTX_TYPE_B64, z);
}

static bool simple_space(uint8_t sp)
{
    return sp == PTX_SPACE_NONE || sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
           sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_CONST ||
           sp == PTX_SPACE_PARAM;
}

emu_exec_fn emu_select_mem(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    switch (in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST: {
        if (!simple_space(in->space) || in->nops < 2 || t == PTX_TYPE_NONE) return NULL;
        const ptx_operand *ad = &in->ops[in->op == PTX_OP_ST ? 0 : 1];
        if (ad->kind != PTX_OPD_ADDR && ad->kind != PTX_OPD_SYM && ad->kind != PTX_OPD_REG)
            return NULL;
        unsigned vec = in->vec ? in->vec : 1;
        if (vec * elem_bytes(t) > MAX_ACCESS) return NULL;
        if (emu_type_bits[t] > 64) {
            /* .b128: one register of two slots, no vectors */
            const ptx_operand *r = &in->ops[in->op == PTX_OP_ST ? 1 : 0];
            if (emu_type_bits[t] != 128 || vec != 1 || r->kind != PTX_OPD_REG) return NULL;
        }
        return in->op == PTX_OP_ST ? x_st : x_ld;
    }
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        if (!simple_space(in->space)) return NULL;
        uint8_t at = atom_type(in);
        if (in->vec > 1) {
            int ai = in->op == PTX_OP_RED ? 0 : 1;
            if (in->aop == PTX_SFX_CAS || in->aop == PTX_SFX_EXCH || in->nops != ai + 2 ||
                in->ops[ai].kind != PTX_OPD_ADDR || in->ops[ai + 1].kind != PTX_OPD_VEC ||
                in->ops[ai + 1].nelem != in->vec ||
                (ai && (in->ops[0].kind != PTX_OPD_VEC || in->ops[0].nelem != in->vec)))
                return NULL;
            unsigned vb = emu_type_bits[at];
            return (vb == 16 || vb == 32) && in->aop ? x_atom_vec : NULL;
        }
        unsigned b = emu_type_bits[at];
        if (!in->aop || (b != 16 && b != 32 && b != 64 && b != 128)) return NULL;
        if (b == 128) {
            if (in->aop != PTX_SFX_EXCH && in->aop != PTX_SFX_CAS) return NULL;
            for (int i = in->op == PTX_OP_RED ? 1 : 0; i < in->nops; i++)
                if (i != (in->op == PTX_OP_RED ? 0 : 1) && in->ops[i].kind != PTX_OPD_REG)
                    return NULL;
        }
        if (in->nops < (in->op == PTX_OP_RED ? 2 : 3)) return NULL;
        return x_atom;
    }
    case PTX_OP_CP_ASYNC: return in->nops >= 3 ? x_cp_async : NULL;
    case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE: return in->nops == 1 ? x_cp_async_mbarrier_arrive : NULL;
    case PTX_OP_MBARRIER:
        if (!simple_space(in->space) && in->mode != PTX_SFX_PENDING_COUNT) return NULL;
        switch (in->mode) {
        case PTX_SFX_INIT: case PTX_SFX_COMPLETE_TX: return in->nops == 2 ? x_mbarrier : NULL;
        case PTX_SFX_INVAL: return in->nops == 1 ? x_mbarrier : NULL;
        case PTX_SFX_ARRIVE: case PTX_SFX_ARRIVE_DROP:
            return in->nops >= 2 && in->nops <= 3 ? x_mbarrier : NULL;
        case PTX_SFX_TEST_WAIT: case PTX_SFX_TRY_WAIT:
            return in->nops >= 3 && in->nops <= 4 ? x_mbarrier : NULL;
        case PTX_SFX_PENDING_COUNT: return in->nops == 2 ? x_mbarrier : NULL;
        case 0: return (in->flags & PTX_F(EXPECT_TX)) && in->nops == 2 ? x_mbarrier : NULL;
        default: return NULL;
        }
    case PTX_OP_CP_ASYNC_COMMIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL:
    case PTX_OP_PREFETCH:
    case PTX_OP_PREFETCHU:
    case PTX_OP_APPLYPRIORITY:
    case PTX_OP_DISCARD: return x_nop;
    case PTX_OP_CREATEPOLICY: return x_createpolicy;
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: return x_fence;
    default: return NULL;
    }
}
