/* warp.c: a warp's state: lanes, the SIMT reconvergence stack, call frames (registers and
 * local memory per activation), and lanes leaving by exit or ret. A warp's buffers can be
 * reused for a warp of the next CTA in the same slot (emu_warp_reinit). */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* *p with room for `need` elements; `lent`: *p is storage the warp does not own (its CTA's,
 * emu_cta_create_at), copied out into its own allocation when it grows */
static bool grow(void **p, uint32_t *cap, uint32_t need, size_t elem, bool *lent)
{
    if (need <= *cap) return true;
    uint32_t nc = *cap ? *cap : EMU_WARP_LENT_DEPTH;
    while (nc < need) nc *= 2;
    void *np = *lent ? malloc((size_t)nc * elem) : realloc(*p, (size_t)nc * elem);
    if (!np) return false;
    if (*lent) memcpy(np, *p, (size_t)*cap * elem);
    *lent = false;
    *p = np;
    *cap = nc;
    return true;
}

/* Out of host memory for a warp's own state: the grid ends with a fault (the launch fails
 * with cudaErrorLaunchOutOfResources) rather than the process. The warp stops where it is. */
static void warp_out_of_memory(emu_warp *w, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, "out of host memory for the %s of warp %u in block (%u,%u,%u)",
             what, w->id, w->cta->ctaid.x, w->cta->ctaid.y, w->cta->ctaid.z);
    emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, msg);
}

void emu_simt_push(emu_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (!grow((void **)&w->stack, &w->stack_cap, w->sp + 1, sizeof *w->stack, &w->stack_lent)) {
        warp_out_of_memory(w, "SIMT stack");
        return;
    }
    w->stack[w->sp++] = (emu_simt){ pc, rpc, mask, 0, EMU_SIMT_NORMAL };
}

/* Lanes, thread ids, the kernel frame and the first SIMT entry, into a zeroed warp whose
 * register file holds the kernel's registers. */
static void warp_start(emu_warp *w, emu_cta *cta, uint32_t id)
{
    emu_grid *g = cta->g;
    w->cta = cta;
    w->id = id;
    /* the lanes' thread indices, the same in every CTA (emu_grid.tid); lanes at and past
     * nthreads are the last warp's missing lanes */
    uint32_t t = id * EMU_WARP_SIZE;
    assert(t < cta->nthreads);
    w->tid = g->tid + t;
    uint32_t lanes = cta->nthreads - t;
    w->valid = lanes >= EMU_WARP_SIZE ? UINT32_MAX : (1u << lanes) - 1;
    w->exited = ~w->valid;
    w->local_per_thread = g->local_per_thread;
    const emu_func *kf = g->kf;
    w->regs_used = (size_t)kf->fn->nslots * EMU_WARP_SIZE;
    w->local_dirty = kf->frame_size;
    if (!w->regs ||
        !grow((void **)&w->frames, &w->frames_cap, 1, sizeof *w->frames, &w->frames_lent)) {
        warp_out_of_memory(w, w->regs ? "call frames" : "registers");
        return;
    }
    w->frames[0] = (emu_frame){ kf, 0, 0, 0, w->valid, NULL };
    w->nframes = 1;
    emu_simt_push(w, 0, UINT32_MAX, w->valid);
    if (w->state != EMU_WS_FAULT) w->state = w->valid ? EMU_WS_READY : EMU_WS_EXITED;
}

size_t emu_warp_kernel_regs(const emu_grid *g)
{
    size_t n = (size_t)g->kf->fn->nslots * EMU_WARP_SIZE;
    return n ? n : EMU_WARP_SIZE;
}

/* Zeroes what a fresh warp of kernel kf reads as zero of its registers `regs`: the rows an
 * instruction may read before their lane writes them (entry_rows.c says why the others cannot
 * be seen; a callee's are zeroed when it is called), or every row when that plan is missing. */
static void zero_entry_rows(uint64_t *regs, const emu_func *kf)
{
    if (kf->entry_rows_planned) {
        for (uint32_t i = 0; i < kf->nentry_runs; i++) {
            const emu_row_run *r = &kf->entry_rows[i];
            assert(r->first + r->count <= kf->fn->nslots);
            memset(regs + (size_t)r->first * EMU_WARP_SIZE, 0,
                   (size_t)r->count * EMU_WARP_SIZE * sizeof *regs);
        }
    } else {
        memset(regs, 0, (size_t)kf->fn->nslots * EMU_WARP_SIZE * sizeof *regs);
    }
}

void emu_warp_init(emu_warp *w, emu_cta *cta, uint32_t id, uint64_t *regs, bool regs_zero,
                   emu_simt *stack, emu_frame *frames)
{
    memset(w, 0, sizeof *w);
    if (stack) {
        w->stack = stack;
        w->stack_cap = EMU_WARP_LENT_DEPTH;
        w->stack_lent = true;
    }
    if (frames) {
        w->frames = frames;
        w->frames_cap = EMU_WARP_LENT_DEPTH;
        w->frames_lent = true;
    }
    w->regs_cap = emu_warp_kernel_regs(cta->g);
    w->regs_lent = regs != NULL;
    /* NULL: warp_start faults the warp */
    w->regs = regs ? regs : calloc(w->regs_cap, sizeof *w->regs);
    if (regs && !regs_zero) zero_entry_rows(regs, cta->g->kf);
    warp_start(w, cta, id);
}

/* memset(w, 0, sizeof *w) with plain 16-byte stores: GCC makes that memset (and the
 * assignment of an empty compound literal) a `rep stos`, whose start-up cost on the AMD host
 * was half of this function's samples in a memory-bound JIT run (one per warp of every CTA);
 * the attribute keeps GCC from turning the loop back into the memset. */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void zero_warp(emu_warp *w)
{
    typedef uint64_t zero16 __attribute__((vector_size(16), may_alias, aligned(8)));
    _Static_assert(_Alignof(emu_warp) >= 8 && sizeof(emu_warp) % 8 == 0, "emu_warp's words");
    unsigned char *p = (unsigned char *)w;
    size_t i = 0;
#pragma GCC unroll 32
    for (; i + 16 <= sizeof *w; i += 16) *(zero16 *)(p + i) = (zero16){0, 0};
    if (i < sizeof *w) *(uint64_t *)(p + i) = 0;
}

void emu_warp_reinit(emu_warp *w, emu_cta *cta, uint32_t id, uint64_t *lent)
{
    if (lent) {
        /* its rows in the block the engine lent this CTA */
        if (!w->regs_lent) free(w->regs);
        w->regs = lent;
        w->regs_cap = emu_warp_kernel_regs(cta->g);
        w->regs_lent = true;
    }
    /* the buffers stay; everything else starts as in a fresh warp */
    emu_simt *stack = w->stack;
    uint32_t stack_cap = w->stack_cap;
    emu_frame *frames = w->frames;
    uint32_t frames_cap = w->frames_cap;
    bool stack_lent = w->stack_lent, frames_lent = w->frames_lent;
    uint64_t *regs = w->regs;
    size_t regs_cap = w->regs_cap;
    bool regs_lent = w->regs_lent;
    uint8_t *local = w->local;
    uint64_t local_dirty = w->local_dirty, local_per_thread = w->local_per_thread;
    emu_event *ring = w->ring;
    uint64_t *ring_rows = w->ring_rows;
    bool ring_lent = w->ring_lent;
    uint64_t jit_hit[EMU_JIT_HITS][3], fast_hit[EMU_FAST_HITS][3];
    uint32_t fast_hit_next = w->fast_hit_next;
    memcpy(jit_hit, w->jit_hit, sizeof jit_hit);
    memcpy(fast_hit, w->fast_hit, sizeof fast_hit);
    zero_warp(w);
    memcpy(w->jit_hit, jit_hit, sizeof jit_hit);
    memcpy(w->fast_hit, fast_hit, sizeof fast_hit);
    w->fast_hit_next = fast_hit_next;
    w->stack = stack;
    w->stack_cap = stack_cap;
    w->frames = frames;
    w->frames_cap = frames_cap;
    w->stack_lent = stack_lent;
    w->frames_lent = frames_lent;
    w->regs = regs;
    w->regs_cap = regs_cap;
    w->regs_lent = regs_lent;
    w->local = local;
    w->ring = ring;
    w->ring_rows = ring_rows;
    w->ring_lent = ring_lent;
    /* What a fresh warp reads as zero must be zero: the registers it could read first
     * (zero_entry_rows), and the local memory the last warp may have written (its frames and
     * what it wrote beyond them). */
    const emu_func *kf = cta->g->kf;
    size_t nreg = (size_t)kf->fn->nslots * EMU_WARP_SIZE;
    if (regs && nreg <= regs_cap) {
        zero_entry_rows(regs, kf);
    } else {   /* the last occupant never got its registers (out of memory): try again */
        if (!regs_lent) free(regs);
        w->regs_lent = false;
        w->regs_cap = nreg ? nreg : EMU_WARP_SIZE;
        w->regs = calloc(w->regs_cap, sizeof *w->regs);
    }
    if (local) {
        uint64_t n = local_dirty < local_per_thread ? local_dirty : local_per_thread;
        for (uint32_t l = 0; l < EMU_WARP_SIZE && n; l++)
            memset(local + (size_t)l * local_per_thread, 0, n);
    }
    warp_start(w, cta, id);
}

void emu_warp_free(emu_warp *w)
{
    if (!w->ring_lent) free(w->ring);
    if (!w->stack_lent) free(w->stack);
    if (!w->frames_lent) free(w->frames);
    if (!w->regs_lent) free(w->regs);
    free(w->local);
    zero_warp(w);   /* (a cycle model destroys thousands at a kernel's end) */
}

static bool local_alloc(emu_warp *w)
{
    if (w->local) return true;
    if (!w->local_per_thread) return false;
    w->local = calloc(EMU_WARP_SIZE, w->local_per_thread);
    return w->local != NULL;
}

uint8_t *emu_local_ptr(emu_ctx *c, int lane, uint64_t off, uint64_t size)
{
    emu_warp *w = c->w;
    const emu_frame *top = &w->frames[w->nframes - 1];
    uint64_t limit = top->local_base + top->f->frame_size;
    if (limit > w->local_per_thread) limit = w->local_per_thread;
    if (off > limit || size > limit - off) return NULL;
    if (!local_alloc(w)) return NULL;
    return w->local + (size_t)lane * w->local_per_thread + off;
}

void emu_lanes_exit(emu_ctx *c, uint32_t lanes)
{
    emu_warp *w = c->w;
    lanes &= ~w->exited;
    w->exited |= lanes;
    for (uint32_t i = 0; i < w->sp; i++) w->stack[i].mask &= ~lanes;
    for (uint32_t i = 0; i < w->nframes; i++) w->frames[i].call_mask &= ~lanes;
    c->control = true;
    if (lanes) emu_cta_warp_exited(w->cta, w, lanes);
}

/* The SIMT stack of a frame is a tree laid out bottom-up: an entry that waits at a reconvergence
 * point R (its pc) holds the lanes of the paths above it that reconverge at R, so an entry can
 * run only when no entry above it holds one of its lanes. Paths with disjoint lanes may run in
 * any order (independent thread scheduling); moving one of them to the top keeps every entry
 * above the entry it reconverges into. */
uint32_t emu_simt_runnable(const emu_warp *w)
{
    uint32_t base = w->frames[w->nframes - 1].stack_base, above = 0;
    for (uint32_t i = w->sp; i-- > base;) {
        const emu_simt *e = &w->stack[i];
        if (!e->bar && !(e->mask & above)) return i;
        above |= e->mask;
    }
    return UINT32_MAX;
}

/* Splits off the lanes of entry x that have already reached its pc R, where the paths above it
 * reconverge: those in no unfinished entry above it (entries finished at R hold lanes that have
 * reached R). They get an entry of their own on top and run on past R, while x keeps the others,
 * which follow once they get there. */
static bool split_arrived(emu_warp *w, uint32_t x)
{
    uint32_t R = w->stack[x].pc, inside = 0;
    for (uint32_t i = x + 1; i < w->sp; i++) {
        const emu_simt *e = &w->stack[i];
        if (e->bar || e->pc != R || e->rpc != R) inside |= e->mask;
    }
    uint32_t arrived = w->stack[x].mask & ~inside;
    if (!arrived) return false;
    for (uint32_t i = x; i < w->sp; i++) w->stack[i].mask &= ~arrived;
    emu_simt_push(w, R, w->stack[x].rpc, arrived);
    return true;
}

bool emu_simt_schedule(emu_warp *w)
{
    uint32_t i = emu_simt_runnable(w);
    uint32_t t = w->sp - 1;
    if (i == UINT32_MAX) {
        /* every path waits at a barrier: lanes parked at a reconvergence point for them go on
         * (independent thread scheduling), e.g. to exit or to arrive at the barrier elsewhere */
        uint32_t base = w->frames[w->nframes - 1].stack_base;
        for (uint32_t x = w->sp; x-- > base;) {
            const emu_simt *e = &w->stack[x];
            if (!e->bar && e->mask && e->pc != e->rpc && split_arrived(w, x)) return true;
        }
        /* lanes at a bar.warp.sync whose other members cannot arrive (they exited, or wait at
         * a CTA barrier) go on rather than deadlock the warp; a policy that checks the
         * synchronisation (synccheck) learns of it with the lanes that did execute it */
        bool released = false;
        emu_mem_policy *pol = w->cta->g->launch.policy;
        uint16_t func = (uint16_t)w->frames[w->nframes - 1].f->index;
        for (uint32_t x = base; x < w->sp; x++) {
            emu_simt *e = &w->stack[x];
            if (e->bar != EMU_SIMT_WARP_SYNC) continue;
            e->bar = 0;
            released = true;
            if (pol && pol->barrier && e->mask)
                pol->barrier(pol, w, EMU_WARP_BARRIER, w->sync_members, true, e->mask, func,
                             e->pc - 1);
        }
        if (!released) return false;
        emu_simt_merge(w);
        i = emu_simt_runnable(w);
        assert(i != UINT32_MAX);
        t = w->sp - 1;
    }
    if (i != t) {
        emu_simt e = w->stack[i];
        memmove(&w->stack[i], &w->stack[i + 1], (t - i) * sizeof e);
        w->stack[t] = e;
    }
    return true;
}

uint32_t emu_warp_sync_arrive(emu_ctx *c, uint32_t members)
{
    emu_warp *w = c->w;
    uint32_t base = w->frames[w->nframes - 1].stack_base, waiting = 0;
    for (uint32_t i = base; i + 1 < w->sp; i++)
        if (w->stack[i].bar == EMU_SIMT_WARP_SYNC) waiting |= w->stack[i].mask;
    uint32_t need = members & w->valid & ~w->exited;
    emu_simt *t = &w->stack[w->sp - 1];
    if (!(need & ~(c->mask | waiting))) {
        if (!(waiting & need)) return c->mask;
        /* the last members arrive: the waiting ones go on with them */
        uint32_t synced = c->mask;
        for (uint32_t i = base; i + 1 < w->sp; i++)
            if (w->stack[i].bar == EMU_SIMT_WARP_SYNC && (w->stack[i].mask & need)) {
                w->stack[i].bar = 0;
                synced |= w->stack[i].mask;
            }
        uint32_t rest = c->active & ~c->mask;
        t->pc = c->next_pc;
        if (rest) {   /* lanes whose guard is false go on too, as one path */
            t->mask = rest;
            emu_simt_push(w, c->next_pc, t->rpc, c->mask);
        }
        emu_simt_merge(w);
        c->control = true;
        bool runs = emu_simt_schedule(w);
        assert(runs);
        (void)runs;
        return synced;
    }
    /* as at a CTA barrier: only the executing lanes wait, past the instruction */
    uint32_t rest = c->active & ~c->mask, rpc = t->rpc;
    t->pc = c->next_pc;
    if (rest) {
        t->mask = rest;
        emu_simt_push(w, c->next_pc, rpc, c->mask);
    }
    w->stack[w->sp - 1].bar = EMU_SIMT_WARP_SYNC;
    w->sync_members = members;
    c->control = true;
    bool runs = emu_simt_schedule(w);
    assert(runs);   /* at worst the waiting lanes themselves go on */
    (void)runs;
    return 0;
}

emu_frame *emu_simt_frame(emu_warp *w, uint32_t i)
{
    uint32_t f = w->nframes - 1;
    while (f > 0 && w->frames[f].stack_base > i) f--;
    return &w->frames[f];
}

void emu_simt_merge(emu_warp *w)
{
    uint32_t base = w->frames[w->nframes - 1].stack_base, o = base;
    if (w->sp - base < 2) return;   /* one path (a converged warp at a barrier): nothing to join */
    for (uint32_t i = base; i < w->sp; i++) {
        emu_simt e = w->stack[i];
        if (o > base) {
            emu_simt *p = &w->stack[o - 1];
            if (!p->bar && !e.bar && p->pc == e.pc && p->rpc == e.rpc && !(p->mask & e.mask)) {
                p->mask |= e.mask;
                continue;
            }
        }
        w->stack[o++] = e;
    }
    w->sp = o;
}

/* The top entry T spins and reconverges at R = T.rpc. First every other path that can run gets
 * a turn: T sinks below the entries above its nearest overlapping entry (its ancestor), which
 * then run before it. If none of them can run (they wait at a barrier, or there are none), the
 * lanes of T's ancestor X (the entry at pc R reconverging elsewhere) that have reached R run
 * on past it (split_arrived); T's lanes follow once they leave the loop. */
static void unstick(emu_warp *w)
{
    const emu_frame *fr = &w->frames[w->nframes - 1];
    uint32_t t = w->sp - 1, base = fr->stack_base;
    emu_simt T = w->stack[t];
    uint32_t above = T.mask, p = t;
    bool others = false;
    while (p > base && !(w->stack[p - 1].mask & T.mask)) {
        const emu_simt *e = &w->stack[p - 1];
        if (!e->bar && !(e->mask & above)) others = true;
        above |= e->mask;
        p--;
    }
    if (others) {
        memmove(&w->stack[p + 1], &w->stack[p], (t - p) * sizeof T);
        w->stack[p] = T;
        return;
    }
    uint32_t R = T.rpc, x = t;
    while (x > base) {
        const emu_simt *e = &w->stack[--x];
        if (e->pc == R && e->rpc != R && !e->bar && (e->mask & T.mask) == T.mask) break;
        if (x == base) return;
    }
    if (x == t) return;
    split_arrived(w, x);
}

void emu_simt_backedge(emu_ctx *c, uint32_t target)
{
    emu_warp *w = c->w;
    if (w->spin_sp != w->sp || w->spin_pc != target) {
        w->spin_sp = w->sp;
        w->spin_pc = target;
        w->spin = 0;
    }
    if (++w->spin < EMU_SPIN_LIMIT) return;
    w->spin = 0;
    uint32_t sp = w->sp;
    emu_simt top = w->stack[sp - 1];
    unstick(w);
    if (w->sp != sp || memcmp(&top, &w->stack[sp - 1], sizeof top) != 0) {
        /* the stack changed: the branch's own entry may no longer be on top */
        for (uint32_t i = w->frames[w->nframes - 1].stack_base; i < w->sp; i++)
            if (w->stack[i].pc == top.pc && w->stack[i].mask == top.mask &&
                w->stack[i].rpc == top.rpc) {
                w->stack[i].pc = target;
                break;
            }
        c->control = true;
    }
}

void emu_lanes_return(emu_ctx *c, uint32_t lanes)
{
    emu_warp *w = c->w;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    for (uint32_t i = fr->stack_base; i < w->sp; i++) w->stack[i].mask &= ~lanes;
    c->control = true;
}

void emu_call_operands(const ptx_instr *in, int *rets, int *callee, int *args)
{
    int i = 0;
    *rets = *args = -1;
    if (in->nops > 0 && in->ops[0].kind == PTX_OPD_LIST) *rets = i++;
    *callee = i < in->nops ? i : -1;
    i++;
    if (i < in->nops && in->ops[i].kind == PTX_OPD_LIST) *args = i;
}

/* The local-space address of a .param symbol operand of the current frame, or false when the
 * operand is a value (register or immediate). */
static bool param_operand_addr(const emu_module *mod, const emu_frame *fr, const ptx_operand *o,
                               uint64_t *addr)
{
    if ((o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_ADDR) && o->sym >= 0) {
        *addr = fr->local_base + mod->frame_off[o->sym] +
                (o->kind == PTX_OPD_ADDR ? (uint64_t)o->imm : 0);
        return true;
    }
    return false;
}

static uint8_t type_of_size(uint64_t size)
{
    return size >= 8 ? PTX_TYPE_B64 : size >= 4 ? PTX_TYPE_B32 : size >= 2 ? PTX_TYPE_B16
                                                                            : PTX_TYPE_B8;
}

/* The element k of a .reg argument or return operand: a scalar is its own element 0; a vector
 * parameter takes a brace list (a vector register is one: the frontend expands it). */
static const ptx_operand *reg_param_elem(const ptx_operand *o, unsigned k)
{
    if (o->kind == PTX_OPD_VEC) return k < o->nelem ? &o->elems[k] : NULL;
    return k == 0 ? o : NULL;
}

/* A callee's .reg parameter register r (scalar, .pred, or .v2/.v4: one row per component)
 * starts as the argument a's value in each lane of mask. A predicate keeps its lanes as one
 * mask in its row's first word. Arguments passed by address (a .param of the caller) are read
 * from its local memory, psz bytes. */
static void reg_param_in(emu_ctx *c, emu_warp *w, size_t reg_base, const ptx_reg *r,
                         const ptx_operand *a, bool by_addr, uint64_t src, uint64_t psz,
                         uint32_t mask)
{
    unsigned n = r->vec > 1 ? r->vec : 1;
    bool pred = r->type == PTX_TYPE_PRED;
    uint64_t es = pred ? 1 : emu_type_bits[r->type] / 8;
    uint64_t keep = es >= 8 ? UINT64_MAX : (UINT64_C(1) << (es * 8)) - 1;
    for (unsigned k = 0; k < n; k++) {
        uint64_t *row = w->regs + reg_base + (size_t)(r->slot + k) * EMU_WARP_SIZE;
        const ptx_operand *e = reg_param_elem(a, k);
        for (uint32_t mk = mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t v = 0;
            if (by_addr) {
                const uint8_t *lb = w->local + (size_t)l * w->local_per_thread;
                if (src + psz <= w->local_per_thread && (k + 1) * es <= psz)
                    memcpy(&v, lb + src + k * es, es < 8 ? es : 8);
            } else if (e) {
                v = emu_read(c, e, l, r->type);
            }
            if (pred) row[0] = (row[0] & ~(UINT64_C(1) << l)) | ((v & 1) << l);
            else row[l] = v & keep;
        }
    }
}

/* The callee's .reg return register r goes to the caller's operand d (through cc, a context on
 * the caller's frame) in each lane of lanes, or to its local memory when passed by address. */
static void reg_param_out(emu_ctx *cc, emu_warp *w, size_t callee_base, const ptx_reg *r,
                          const ptx_operand *d, bool by_addr, uint64_t dst, uint64_t rsz,
                          uint32_t lanes)
{
    unsigned n = r->vec > 1 ? r->vec : 1;
    bool pred = r->type == PTX_TYPE_PRED;
    uint64_t es = pred ? 1 : emu_type_bits[r->type] / 8;
    for (unsigned k = 0; k < n; k++) {
        const uint64_t *row = w->regs + callee_base + (size_t)(r->slot + k) * EMU_WARP_SIZE;
        const ptx_operand *e = reg_param_elem(d, k);
        for (uint32_t mk = lanes; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t v = pred ? (row[0] >> l) & 1 : row[l];
            if (by_addr) {
                uint8_t *lb = w->local + (size_t)l * w->local_per_thread;
                if (dst + rsz <= w->local_per_thread && (k + 1) * es <= rsz)
                    memcpy(lb + dst + k * es, &v, es < 8 ? es : 8);
            } else if (e) {
                emu_write(cc, e, l, v, r->type);
            }
        }
    }
}

bool emu_call_push(emu_ctx *c, const emu_func *callee, uint32_t mask, const ptx_instr *call)
{
    emu_warp *w = c->w;
    const emu_module *mod = c->mod;
    const ptx_module *m = mod->ptx;
    emu_frame *fr = &w->frames[w->nframes - 1];
    const ptx_function *cfn = callee->fn;
    if (w->nframes >= EMU_MAX_CALL_DEPTH) {
        emu_fault_raise(c, EMU_FAULT_STACK_OVERFLOW, __builtin_ctz(mask), false, 0,
                        "Stack overflow", "call depth exceeds %u calling %s",
                        EMU_MAX_CALL_DEPTH, cfn->name);
        return false;
    }
    uint64_t base = (fr->local_base + fr->f->frame_size + 15) & ~UINT64_C(15);
    if (base + callee->frame_size > w->local_per_thread || !local_alloc(w)) {
        emu_fault_raise(c, EMU_FAULT_STACK_OVERFLOW, __builtin_ctz(mask), false, 0,
                        "Stack overflow",
                        "calling %s needs %llu bytes of local memory per thread, %llu available",
                        cfn->name, (unsigned long long)(base + callee->frame_size),
                        (unsigned long long)w->local_per_thread);
        return false;
    }
    size_t reg_base = fr->reg_base + (size_t)fr->f->fn->nslots * EMU_WARP_SIZE;
    size_t need = reg_base + (size_t)cfn->nslots * EMU_WARP_SIZE;
    if (need > w->regs_cap) {
        size_t nc = w->regs_cap * 2;
        while (nc < need) nc *= 2;
        /* registers lent by the CTA move to the warp's own allocation */
        uint64_t *nr = w->regs_lent ? malloc(nc * sizeof *nr) : realloc(w->regs, nc * sizeof *nr);
        if (nr && w->regs_lent) memcpy(nr, w->regs, w->regs_cap * sizeof *nr);
        if (nr) w->regs_lent = false;
        if (!nr) {
            emu_fault_raise(c, EMU_FAULT_OUT_OF_RESOURCES, __builtin_ctz(mask), false, 0,
                            "Out of resources", "no host memory for the registers of %s",
                            cfn->name);
            return false;
        }
        w->regs = nr;
        w->regs_cap = nc;
        c->regs = w->regs + fr->reg_base;   /* the caller's registers moved: arguments are
                                               read from them below */
    }
    memset(w->regs + reg_base, 0, (need - reg_base) * sizeof *w->regs);
    w->regs_used = need;
    if (base + callee->frame_size > w->local_dirty) w->local_dirty = base + callee->frame_size;
    /* zero the new frame (deterministic locals), then copy the arguments into it */
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        memset(w->local + (size_t)l * w->local_per_thread + base, 0, callee->frame_size);
    }
    int ri, ci, ai;
    emu_call_operands(call, &ri, &ci, &ai);
    if (ai >= 0) {
        const ptx_operand *args = &call->ops[ai];
        for (uint32_t p = 0; p < cfn->nparams && p < args->nelem; p++) {
            int32_t ps = cfn->params[p];
            if (ps < 0) continue;
            uint64_t psz = m->syms[ps].size ? m->syms[ps].size : 8;
            uint64_t dst = base + mod->frame_off[ps];
            const ptx_operand *a = &args->elems[p];
            uint64_t src = 0;
            bool by_addr = param_operand_addr(mod, fr, a, &src);
            if (m->syms[ps].space == PTX_SPACE_REG) {
                /* a .reg parameter: the callee's register starts as the argument's value */
                int32_t pr = m->syms[ps].reg;
                if (pr < 0 || (uint32_t)pr >= cfn->nregs) continue;
                reg_param_in(c, w, reg_base, &cfn->regs[pr], a, by_addr, src, psz, mask);
                continue;
            }
            for (uint32_t mk = mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                uint8_t *lb = w->local + (size_t)l * w->local_per_thread;
                if (by_addr) {
                    if (src + psz <= w->local_per_thread) memcpy(lb + dst, lb + src, psz);
                } else {
                    uint64_t v = emu_read(c, a, l, type_of_size(psz));
                    memcpy(lb + dst, &v, psz < 8 ? psz : 8);
                }
            }
        }
    }
    emu_frame nf = { callee, reg_base, base, w->sp, mask, call };
    if (!grow((void **)&w->frames, &w->frames_cap, w->nframes + 1, sizeof *w->frames,
              &w->frames_lent)) {
        emu_fault_raise(c, EMU_FAULT_OUT_OF_RESOURCES, __builtin_ctz(mask), false, 0,
                        "Out of resources", "no host memory for the call frame of %s",
                        cfn->name);
        return false;
    }
    w->frames[w->nframes++] = nf;
    emu_simt_push(w, 0, UINT32_MAX, mask);
    c->control = true;
    return true;
}

void emu_frame_return(emu_ctx *c)
{
    emu_warp *w = c->w;
    const emu_module *mod = c->mod;
    const ptx_module *m = mod->ptx;
    emu_frame *cf = &w->frames[w->nframes - 1];
    emu_frame *caller = &w->frames[w->nframes - 2];
    uint32_t lanes = cf->call_mask & ~w->exited;
    int ri, ci, ai;
    emu_call_operands(cf->call, &ri, &ci, &ai);
    const ptx_function *cfn = cf->f->fn;
    if (ri >= 0 && lanes && w->local) {
        const ptx_operand *rets = &cf->call->ops[ri];
        /* registers of the caller are written through a context that points at it */
        emu_ctx cc = *c;
        cc.fr = caller;
        cc.f = caller->f;
        cc.fn = caller->f->fn;
        cc.regs = w->regs + caller->reg_base;
        cc.mask = lanes;
        for (uint32_t r = 0; r < cfn->nrets && r < rets->nelem; r++) {
            int32_t rs = cfn->rets[r];
            if (rs < 0) continue;
            uint64_t rsz = m->syms[rs].size ? m->syms[rs].size : 8;
            uint64_t src = cf->local_base + mod->frame_off[rs];
            const ptx_operand *d = &rets->elems[r];
            uint64_t dst = 0;
            bool by_addr = param_operand_addr(mod, caller, d, &dst);
            if (by_addr && dst + rsz <= w->local_per_thread && dst + rsz > w->local_dirty)
                w->local_dirty = dst + rsz;
            if (m->syms[rs].space == PTX_SPACE_REG) {
                /* a .reg return value: the callee's register goes to the caller's operand */
                int32_t rr = m->syms[rs].reg;
                if (rr < 0 || (uint32_t)rr >= cfn->nregs) continue;
                reg_param_out(&cc, w, cf->reg_base, &cfn->regs[rr], d, by_addr, dst, rsz, lanes);
                continue;
            }
            for (uint32_t mk = lanes; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                uint8_t *lb = w->local + (size_t)l * w->local_per_thread;
                if (src + rsz > w->local_per_thread) continue;
                if (by_addr) {
                    if (dst + rsz <= w->local_per_thread) memmove(lb + dst, lb + src, rsz);
                } else {
                    uint64_t v = 0;
                    memcpy(&v, lb + src, rsz < 8 ? rsz : 8);
                    emu_write(&cc, d, l, v, type_of_size(rsz));
                }
            }
        }
    }
    w->regs_used = cf->reg_base;
    w->nframes--;
    c->fr = caller;
    c->f = caller->f;
    c->fn = caller->f->fn;
    c->regs = w->regs + caller->reg_base;
}

void emu_warp_prefetch(const emu_warp *w, bool deep)
{
    if (!deep) {
        /* the record's lines a run reads (its lanes' thread indices, between them, are read
         * only by moves from %tid) */
        __builtin_prefetch(w);
        __builtin_prefetch((const char *)w + 64);
        __builtin_prefetch(&w->cache_base);
        __builtin_prefetch(&w->ahead);
        /* the last allocations a global access hit (exec_mem.c global_bounds: vecadd's warps
         * look there at each of their three accesses, the cached one being another array) */
        __builtin_prefetch(&w->fast_hit[0][0]);
        __builtin_prefetch(&w->fast_hit[EMU_FAST_HITS - 1][2]);
        /* and compiled code's (the JIT's event variant checks a global access's entry there
         * first: vecadd's run-ahead waited at each of its three accesses' entries) */
        for (size_t o = 0; o < sizeof w->jit_hit; o += 64)
            __builtin_prefetch((const char *)w->jit_hit + o);
        __builtin_prefetch(&w->jit_hit[EMU_JIT_HITS - 1][2]);
        /* its event ring's place (every event a run records reads and writes it; the weave's
         * register hint reads it first: a third of that hint's samples waited there) */
        __builtin_prefetch(&w->ring);
        __builtin_prefetch(&w->nev);
        return;
    }
    /* not the registers: a run reads few of its rows before the host's prefetcher sees the
     * stream, and loading every row (Mandelbrot's warps) measured slower */
    __builtin_prefetch(w->cta);
    if (w->sp) __builtin_prefetch(&w->stack[w->sp - 1]);
    if (w->nframes) __builtin_prefetch(&w->frames[w->nframes - 1]);
}

bool emu_warp_runnable(const emu_warp *w)
{
    return w->state == EMU_WS_READY;
}

bool emu_warp_exited(const emu_warp *w)
{
    return w->state == EMU_WS_EXITED;
}

uint32_t emu_warp_path_lanes(const emu_warp *w)
{
    return w->sp ? w->stack[w->sp - 1].mask & ~w->exited : 0;
}

uint32_t emu_warp_id(const emu_warp *w)
{
    return w->id;
}

uint64_t emu_warp_instructions(const emu_warp *w)
{
    return w->ninstr;
}

uint64_t emu_warp_cta_linear(const emu_warp *w)
{
    return w->cta->linear;
}

uint32_t emu_warp_sm(const emu_warp *w)
{
    return w->cta->sm;
}

uint32_t emu_warp_slot(const emu_warp *w)
{
    return w->slot;
}

void emu_warp_set_slot(emu_warp *w, uint32_t slot)
{
    w->slot = slot;
}

void emu_warp_lend_ring(emu_warp *w, emu_event *ring, uint64_t *rows)
{
    assert(w->nev == 0 && ring && rows);
    if (w->ring != ring && !w->ring_lent) free(w->ring);
    w->ring = ring;
    w->ring_rows = rows;
    w->ring_lent = true;
}

void *emu_warp_user(const emu_warp *w, emu_policy_level level)
{
    assert((unsigned)level < EMU_POLICY_LEVELS);
    return w->user[level];
}

void emu_warp_set_user(emu_warp *w, emu_policy_level level, void *p)
{
    assert((unsigned)level < EMU_POLICY_LEVELS);
    w->user[level] = p;
}
