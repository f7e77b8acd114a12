/* memaccess.c: every memory access of an instruction, resolved, checked and performed as one
 * operation (memory policy v2).
 *
 * A handler describes everything its instruction touches as pieces (a lane, an address value
 * as the instruction computed it, a size), then asks emu_acc_check to resolve each piece to its
 * space and check it, and emu_acc_perform to carry it out. Every piece is checked before any is
 * performed, so a faulting instruction leaves no effect (the executor contract). Global pieces
 * go to the memory policy as ONE operation per instruction (EMU_MEM_DEFERRED and
 * EMU_MEM_RESTART then leave no effect either); shared, local and param pieces are performed
 * here, after the policies that asked to see them have agreed. The pieces' data live in the
 * access's own buffer (on the stack for ordinary accesses, the heap for a large bulk copy), so a
 * copy of any size is one operation too. */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *space_label(uint8_t sp)
{
    switch (sp) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_PARAM: return "__param__";
    default: return "__global__";
    }
}

/* ---------------------------------------------------------------- scratch */

/* Reserves `bytes` more of the access's data buffer (its inline bytes, then the heap for a
 * large bulk or tensor copy); false when memory runs out. Offsets stay valid when it grows. */
static bool reserve(emu_access *A, size_t bytes)
{
    size_t need = A->used + bytes;
    if (need > A->cap) {
        size_t nc = A->cap * 2;
        while (nc < need) nc *= 2;
        uint8_t *p = A->data == A->inline_data ? malloc(nc) : realloc(A->data, nc);
        if (!p) return false;
        if (A->data == A->inline_data) memcpy(p, A->inline_data, A->used);
        A->data = p;
        A->cap = nc;
    }
    return true;
}

void emu_acc_begin(emu_access *A, emu_ctx *c, uint8_t kind, uint8_t ispace, const char *verb)
{
    A->c = c;
    A->kind = kind;
    A->ispace = ispace;
    A->verb = verb;
    A->aop = 0;
    A->atype = PTX_TYPE_NONE;
    A->has_c = false;   /* only cas has a third operand; tensor and bulk reductions never */
    A->n = 0;
    A->used = 0;
    A->mask = 0;
    A->global = 0;
    A->failed = false;
}

emu_piece *emu_acc_piece(emu_access *A, int lane, uint64_t value, uint32_t size)
{
    if (A->n == A->pcap) {
        uint32_t nc = A->pcap ? A->pcap * 2 : 64;
        emu_piece *np = A->p == A->inline_pieces ? malloc(nc * sizeof *np)
                                                 : realloc(A->p, nc * sizeof *np);
        if (!np) {
            A->failed = true;
            return NULL;
        }
        if (A->p == A->inline_pieces) memcpy(np, A->inline_pieces, A->n * sizeof *np);
        A->p = np;
        A->pcap = nc;
    }
    size_t per = A->kind == EMU_MEM_ATOMIC ? 3u * size : size;
    if (!reserve(A, per)) {
        A->failed = true;
        return NULL;
    }
    emu_piece *p = &A->p[A->n++];
    p->value = value;
    p->size = size;
    p->lane = (uint8_t)lane;
    p->space = PTX_SPACE_NONE;
    p->addr = 0;
    p->host = NULL;
    p->off = (uint32_t)A->used;
    A->used += per;
    A->mask |= 1u << lane;
    return p;
}

void emu_acc_init(emu_access *A)
{
    A->p = A->inline_pieces;
    A->pcap = EMU_ACC_INLINE;
    A->data = A->inline_data;
    A->cap = sizeof A->inline_data;
}

void emu_acc_release(emu_access *A)
{
    if (A->p != A->inline_pieces) free(A->p);
    if (A->data != A->inline_data) free(A->data);
    emu_acc_init(A);
}

/* ---------------------------------------------------------------- resolving and checking */

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
        *a = sem_strip_window(PTX_SPACE_SHARED, v);
        break;
    case PTX_SPACE_LOCAL: *sp = PTX_SPACE_LOCAL; *a = sem_strip_window(PTX_SPACE_LOCAL, v); break;
    case PTX_SPACE_PARAM:
        /* a .func's parameters live in its frame, in local memory */
        *sp = c->fn->is_entry ? PTX_SPACE_PARAM : PTX_SPACE_LOCAL;
        *a = sem_strip_window(*sp, v);
        break;
    default: *sp = sem_generic_space(v, a); break;
    }
}

bool emu_global_ok(emu_warp *w, uint64_t a, uint64_t size)
{
    uint64_t gen = emu_device_generation();
    if (w->cache_gen == gen && a >= w->cache_base && a + size >= a && a + size <= w->cache_end)
        return true;
    uint64_t base, asz;
    if (!emu_find_allocation(a, size, &base, &asz, NULL) &&
        !emu_pageable_range(a, size, &base, &asz))
        return false;
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
    for (uint64_t back = 1; back <= 4096 && back <= a; back *= 2) {
        if (emu_find_allocation(a - back, 1, &base, &asz, NULL)) {
            snprintf(buf, len, " and is %llu bytes after the nearest allocation at 0x%llx of "
                     "size %llu bytes", (unsigned long long)(a - (base + asz)),
                     (unsigned long long)base, (unsigned long long)asz);
            return;
        }
    }
}

bool emu_acc_check(emu_access *A, uint64_t align)
{
    emu_ctx *c = A->c;
    if (A->failed) {
        emu_fault_raise(c, EMU_FAULT_OUT_OF_RESOURCES, A->n ? A->p[0].lane : 0, false, 0,
                        "Out of host memory", "ptxsim could not stage the instruction's data");
        return false;
    }
    bool writes = A->kind != EMU_MEM_LOAD;
    const char *verb = A->verb;
    A->global = 0;
    for (uint32_t i = 0; i < A->n; i++) {
        emu_piece *p = &A->p[i];
        if (p->space == PTX_SPACE_NONE) resolve_value(c, A->ispace, p->value, &p->space, &p->addr);
        uint64_t a = p->addr, size = p->size;
        uint8_t sp = p->space;
        int l = p->lane;
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
            if (!emu_global_ok(c->w, a, size)) {
                char note[160];
                WHAT();
                nearest_note(a, note, sizeof note);
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                                "address is out of bounds%s", note);
                return false;
            }
            p->host = (uint8_t *)(uintptr_t)a;
            A->global |= 1u << l;
            break;
        case PTX_SPACE_SHARED:
            if (a > c->cta->smem_size || size > c->cta->smem_size - a) {
                WHAT();
                emu_fault_raise(c, EMU_FAULT_SHARED_OUT_OF_RANGE, l, true, a, what,
                                "address is out of bounds of the block's %llu bytes of shared "
                                "memory", (unsigned long long)c->cta->smem_size);
                return false;
            }
            p->host = c->cta->smem + a;
            break;
        case PTX_SPACE_LOCAL:
            p->host = emu_local_ptr(c, l, a, size);
            if (!p->host) {
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
            if (writes) {
                snprintf(what, sizeof what, "Invalid __param__ %s", verb);
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                                "kernel parameters are read-only");
                return false;
            }
            p->host = c->g->params + a;
            break;
        default:
            WHAT();
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a, what,
                            "address is in no state space");
            return false;
        }
#undef WHAT
    }
    emu_event *ev = c->ev;
    if (ev && !(ev->flags & EMU_EV_MEM) && A->n) {
        /* the instruction's first access: each lane's first piece */
        ev->flags |= EMU_EV_MEM;
        ev->size = (uint16_t)(A->p[0].size > 0xffff ? 0xffff : A->p[0].size);
        ev->mem_lanes = 0;
        for (uint32_t i = 0; i < A->n; i++) {
            const emu_piece *p = &A->p[i];
            if (ev->mem_lanes >> p->lane & 1) continue;
            ev->mem_lanes |= 1u << p->lane;
            ev->lane_addr[p->lane] = sem_generic_address(p->space, p->addr);
        }
    }
    return true;
}

/* ---------------------------------------------------------------- performing */

/* The pieces of space sp as a policy operation; segs is caller storage for A->n entries. */
static uint32_t build_op(emu_access *A, uint8_t sp, emu_mem_seg *segs, emu_mem_op *op)
{
    uint32_t n = 0, mask = 0;
    for (uint32_t i = 0; i < A->n; i++) {
        const emu_piece *p = &A->p[i];
        if (p->space != sp) continue;
        segs[n++] = (emu_mem_seg){ sp == PTX_SPACE_GLOBAL ? (uint64_t)(uintptr_t)p->host : p->addr,
                                   p->size, p->off, p->lane };
        mask |= 1u << p->lane;
    }
    uint8_t *scratch = A->data;
    *op = (emu_mem_op){
        .kind = A->kind, .space = sp, .aop = A->aop, .atype = A->atype,
        .cls = A->c->u ? A->c->u->cls : EMU_CLS_MISC, .func = (uint16_t)A->c->f->index,
        .mask = mask, .pc = A->c->pc, .nseg = n,
        .seg = segs, .data = scratch,
    };
    if (A->kind == EMU_MEM_ATOMIC && A->n) {
        /* an atomic piece's bytes: the old value, then b, then c, each of the element size */
        uint32_t es = A->p[0].size;
        op->operand_b = scratch + es;
        op->operand_c = A->has_c ? scratch + 2 * es : NULL;
    }
    return n;
}

/* Asks the policy about op; false (with the stop set) when the instruction must have no
 * effect now. */
static bool ask(emu_access *A, emu_mem_op *op, bool *stop_after)
{
    emu_ctx *c = A->c;
    emu_mem_policy *pol = c->g->launch.policy;
    emu_mem_outcome r = pol->access(pol, c->w, op);
    switch (r) {
    case EMU_MEM_DONE: return true;
    case EMU_MEM_DONE_STOP: *stop_after = true; return true;
    case EMU_MEM_DEFERRED:
        c->stop = EMU_STOP_MEMORDER;
        c->next_pc = c->pc;
        return false;
    case EMU_MEM_RESTART:
        c->stop = EMU_STOP_RESTART;
        c->next_pc = c->pc;
        c->w->restart_lanes = op->restart_lanes;
        return false;
    }
    return true;
}

static void perform_local(emu_access *A, uint8_t sp)
{
    uint8_t *scratch = A->data;
    for (uint32_t i = 0; i < A->n; i++) {
        const emu_piece *p = &A->p[i];
        if (p->space != sp) continue;
        uint8_t *d = scratch + p->off;
        switch (A->kind) {
        case EMU_MEM_LOAD: memcpy(d, p->host, p->size); break;
        case EMU_MEM_STORE: memcpy(p->host, d, p->size); break;
        case EMU_MEM_ATOMIC:
            emu_atomic_apply(A->aop, A->atype, p->host, d + p->size,
                             A->has_c ? d + 2 * p->size : NULL, d);
            break;
        default: break;
        }
    }
}

bool emu_acc_perform(emu_access *A)
{
    emu_ctx *c = A->c;
    emu_mem_policy *pol = c->g->launch.policy;
    emu_mem_seg inline_segs[EMU_ACC_INLINE], *segs = inline_segs;
    if (A->n > EMU_ACC_INLINE && !(segs = malloc(A->n * sizeof *segs))) {
        emu_fault_raise(c, EMU_FAULT_OUT_OF_RESOURCES, A->p[0].lane, false, 0,
                        "Out of host memory", "ptxsim could not stage the instruction's data");
        return false;
    }
    bool ok = true, stop_after = false;
    emu_mem_op op;
    /* the spaces a policy only observes come first: a deferral there leaves no effect */
    static const uint8_t observed[2] = { PTX_SPACE_SHARED, PTX_SPACE_LOCAL };
    static const unsigned wants[2] = { EMU_POLICY_WANTS_SHARED, EMU_POLICY_WANTS_LOCAL };
    for (int k = 0; k < 2 && ok; k++)
        if ((pol->wants & wants[k]) && build_op(A, observed[k], segs, &op))
            ok = ask(A, &op, &stop_after);
    if (ok && A->global && build_op(A, PTX_SPACE_GLOBAL, segs, &op)) ok = ask(A, &op, &stop_after);
    if (ok) {
        perform_local(A, PTX_SPACE_SHARED);
        perform_local(A, PTX_SPACE_LOCAL);
        perform_local(A, PTX_SPACE_PARAM);
        if (stop_after) c->stop = EMU_STOP_MEMORDER;
    }
    if (segs != inline_segs) free(segs);
    return ok;
}

bool emu_policy_call(emu_ctx *c)
{
    emu_mem_op op = { .kind = EMU_MEM_CALL, .space = PTX_SPACE_GLOBAL,
                      .cls = c->u ? c->u->cls : EMU_CLS_CALL, .func = (uint16_t)c->f->index,
                      .mask = c->mask, .pc = c->pc };
    emu_access A = { .c = c };
    bool stop_after = false;
    bool ok = ask(&A, &op, &stop_after);
    if (ok && stop_after) c->stop = EMU_STOP_MEMORDER;
    return ok;
}

bool emu_policy_tx(emu_ctx *c, uint8_t kind)
{
    emu_mem_op op = { .kind = kind, .space = PTX_SPACE_GLOBAL,
                      .cls = c->u ? c->u->cls : EMU_CLS_CALL, .func = (uint16_t)c->f->index,
                      .mask = c->mask, .pc = c->pc };
    emu_access A = { .c = c };
    bool stop_after = false;
    bool ok = ask(&A, &op, &stop_after);
    if (ok && stop_after) c->stop = EMU_STOP_MEMORDER;
    return ok;
}

bool emu_acc_run(emu_access *A, uint64_t align)
{
    return emu_acc_check(A, align) && emu_acc_perform(A);
}

bool emu_acc_lanes(emu_access *A, const emu_opd *ao, uint32_t mask, uint32_t size,
                   uint32_t count, uint32_t stride)
{
    emu_ctx *c = A->c;
    const uint64_t *row = NULL;
    uint64_t off = 0, keep = ~UINT64_C(0), symaddr = 0;
    uint8_t symspace = PTX_SPACE_NONE;
    switch (ao->kind) {
    case EMU_OPD_REG:
        row = c->regs + ao->row;
        if (ao->bits <= 32) keep = 0xffffffffu;
        break;
    case EMU_OPD_ADDR:
        off = ao->imm;
        if (ao->flags & EMU_OPD_F_BASE_REG) {
            row = c->regs + ao->row;
            if (ao->bits <= 32) keep = 0xffffffffu;
        } else if (ao->flags & EMU_OPD_F_BASE_SYM) {
            symaddr = emu_symbol_address(c, (int32_t)ao->row, &symspace);
        }
        break;
    case EMU_OPD_SYM:
        symaddr = emu_symbol_address(c, (int32_t)ao->row, &symspace);
        break;
    default:
        break;
    }
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        for (uint32_t k = 0; k < count; k++) {
            uint64_t koff = (uint64_t)k * stride;
            if (symspace != PTX_SPACE_NONE) {
                /* a variable's address is in the variable's own space */
                emu_piece *p = emu_acc_piece(A, l, symaddr + off + koff, size);
                if (!p) return false;
                p->space = symspace;
                p->addr = symaddr + off + koff;
            } else {
                uint64_t v = ((row ? row[l] : 0) + off + koff) & keep;
                if (!emu_acc_piece(A, l, v, size)) return false;
            }
        }
    }
    return true;
}

/* ---------------------------------------------------------------- the lane-wise form */

bool emu_mem_lanes(emu_ctx *c, const ptx_instr *in, uint8_t ispace, const uint64_t *addr,
                   uint32_t mask, unsigned size, uint8_t (*data)[16], bool store)
{
    (void)in;
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, store ? EMU_MEM_STORE : EMU_MEM_LOAD, ispace, store ? "write" : "read");
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_piece *p = emu_acc_piece(&A, l, addr[l], size);
        if (p && store) memcpy(emu_acc_data(&A, p), data[l], size);
    }
    bool ok = emu_acc_run(&A, size);
    if (ok && !store)
        for (uint32_t i = 0; i < A.n; i++) memcpy(data[A.p[i].lane], emu_acc_data(&A, &A.p[i]), size);
    emu_acc_release(&A);
    return ok;
}
