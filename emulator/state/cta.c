/* cta.c: a thread block: its warps, shared memory, and the named barriers (bar.sync,
 * bar.arrive, bar.red), including the deadlock report when no warp can go on. A finished CTA's
 * storage can hold the next CTA of its grid (emu_cta_create_in), which then costs no allocation. */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(EMU_NBARRIERS + 1 <= 32, "emu_cta.bar_waiting has a bit per barrier");

/* The CTA's identity and counters, as a fresh CTA has them. */
static void cta_start(emu_cta *c, emu_grid *g, uint64_t linear_id, uint32_t sm)
{
    emu_dim3 gd = g->launch.grid;
    c->g = g;
    c->linear = linear_id;
    c->ctaid.x = (uint32_t)(linear_id % gd.x);
    c->ctaid.y = (uint32_t)((linear_id / gd.x) % gd.y);
    c->ctaid.z = (uint32_t)(linear_id / ((uint64_t)gd.x * gd.y));
    c->sm = sm;
    c->nthreads = g->nthreads;
    c->live_threads = g->nthreads;
    c->nwarps = (g->nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    /* the system's reserved region first, then the kernel's static and dynamic shared memory:
     * a kernel's overrun past its end still faults */
    c->smem_size = g->launch.reserved_smem + g->smem_size;
}

size_t emu_cta_regs_words(const emu_grid *g)
{
    return (size_t)((g->nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE) * emu_warp_kernel_regs(g);
}

/* Where the parts of a CTA of g lie in storage lent by the engine (emu_cta_create_at): the
 * CTA, its warps, each warp's first SIMT entries and call frames, its shared memory; each part
 * on whole host lines. */
typedef struct cta_layout {
    size_t warps, stacks, frames, smem, bytes;
} cta_layout;

static size_t lines(size_t bytes) { return (bytes + 63) / 64 * 64; }

static cta_layout cta_layout_of(const emu_grid *g)
{
    size_t nwarps = (g->nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    cta_layout l;
    l.warps = lines(sizeof(emu_cta));
    l.stacks = l.warps + lines(nwarps * sizeof(emu_warp));
    l.frames = l.stacks + lines(nwarps * EMU_WARP_LENT_DEPTH * sizeof(emu_simt));
    l.smem = l.frames + lines(nwarps * EMU_WARP_LENT_DEPTH * sizeof(emu_frame));
    uint64_t smem = g->launch.reserved_smem + g->smem_size;
    l.bytes = l.smem + lines(smem ? smem : 1);
    return l;
}

size_t emu_cta_storage_bytes(const emu_grid *g)
{
    return cta_layout_of(g).bytes;
}

/* A new CTA, its registers in `lent` (emu_cta_create_in) or its own, its state in `storage`
 * (emu_cta_create_at) or its own. */
static emu_cta *cta_create(emu_grid *g, uint64_t linear_id, uint32_t sm, uint64_t *lent,
                           void *storage)
{
    if (linear_id >= g->ncta) return NULL;
    cta_layout at = cta_layout_of(g);
    uint8_t *st = storage;
    emu_cta *c = st ? (emu_cta *)st : calloc(1, sizeof *c);
    if (!c) return NULL;
    if (st) memset(c, 0, sizeof *c);
    c->storage_lent = st != NULL;
    cta_start(c, g, linear_id, sm);
    if (st) {
        /* zero, as calloc's: the storage may hold an earlier kernel's CTA */
        c->smem = st + at.smem;
        memset(c->smem, 0, c->smem_size ? c->smem_size : 1);
        c->warps = (emu_warp *)(st + at.warps);
    } else {
        c->smem = calloc(1, c->smem_size ? c->smem_size : 1);
        c->warps = calloc(c->nwarps, sizeof *c->warps);
    }
    /* the warps' registers in one block: one allocation (and one growth of the host thread's
     * heap, a system call) per CTA rather than per warp. Without it each warp tries its own. */
    size_t nreg = emu_warp_kernel_regs(g);
    c->regs_lent = lent != NULL;
    c->regs = lent ? lent : calloc((size_t)c->nwarps * nreg, sizeof *c->regs);
    if (!c->smem || !c->warps) {
        if (!c->regs_lent) free(c->regs);
        free(c->smem);
        free(c->warps);
        free(c);
        emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the shared memory and warps of a block");
        return NULL;
    }
    for (uint32_t i = 0; i < c->nwarps; i++)
        emu_warp_init(&c->warps[i], c, i, c->regs ? c->regs + (size_t)i * nreg : NULL,
                      !c->regs_lent,
                      st ? (emu_simt *)(st + at.stacks) + (size_t)i * EMU_WARP_LENT_DEPTH : NULL,
                      st ? (emu_frame *)(st + at.frames) + (size_t)i * EMU_WARP_LENT_DEPTH
                         : NULL);
    return c;
}

emu_cta *emu_cta_create(emu_grid *g, uint64_t linear_id, uint32_t sm)
{
    return cta_create(g, linear_id, sm, NULL, NULL);
}

emu_cta *emu_cta_create_at(void *storage, emu_grid *g, uint64_t linear_id, uint32_t sm,
                           uint64_t *regs)
{
    assert(storage && (uintptr_t)storage % 64 == 0);
    return cta_create(g, linear_id, sm, regs, storage);
}

emu_cta *emu_cta_create_in(emu_cta *c, emu_grid *g, uint64_t linear_id, uint32_t sm,
                           uint64_t *lent)
{
    if (!c) return cta_create(g, linear_id, sm, lent, NULL);
    if (linear_id >= g->ncta) return NULL;
    /* each warp's record is read and rewritten whole below (emu_warp_reinit), and a finished
     * CTA's records have left the host's caches since (a cycle model keeps hundreds resident):
     * asked for all at once, their misses overlap rather than come one warp after another */
    for (const char *p = (const char *)c->warps, *end = (const char *)(c->warps + c->nwarps);
         p < end; p += 64)
        __builtin_prefetch(p, 1);
    assert(c->g == g);
    assert(c->regs_lent == (lent != NULL));
    /* the finished CTA ends here as it would in emu_cta_destroy */
    emu_grid_note_cta_done(g, c);
    emu_warp *warps = c->warps;
    uint64_t *regs = lent ? lent : c->regs;
    uint8_t *smem = c->smem;
    bool storage_lent = c->storage_lent;
    memset(c, 0, sizeof *c);
    cta_start(c, g, linear_id, sm);
    c->warps = warps;
    c->regs = regs;
    c->regs_lent = lent != NULL;
    c->storage_lent = storage_lent;
    c->smem = smem;
    /* a fresh CTA's shared memory is zero (calloc): so is a reused one's, for determinism;
     * a kernel that cannot write shared memory left it zero (shared_writes.c) */
    if (!g->kf->no_shared_writes) memset(c->smem, 0, c->smem_size);
    size_t nreg = emu_warp_kernel_regs(g);
    for (uint32_t i = 0; i < c->nwarps; i++)
        emu_warp_reinit(&c->warps[i], c, i, lent ? lent + (size_t)i * nreg : NULL);
    return c;
}

void emu_cta_destroy(emu_cta *c)
{
    if (!c) return;
    /* every warp's record is read and zeroed (a cycle model's pool of finished CTAs, destroyed
     * at the kernel's end, long out of the host's caches): asked for at once, as in
     * emu_cta_create_in */
    for (const char *p = (const char *)c->warps, *end = (const char *)(c->warps + c->nwarps);
         p < end; p += 64)
        __builtin_prefetch(p, 1);
    emu_grid_note_cta_done(c->g, c);
    for (uint32_t i = 0; i < c->nwarps; i++) emu_warp_free(&c->warps[i]);
    if (!c->regs_lent) free(c->regs);
    if (c->storage_lent) return;
    free(c->warps);
    free(c->smem);
    free(c);
}

uint32_t emu_cta_warp_count(const emu_cta *c)
{
    return c->nwarps;
}

emu_warp *emu_cta_warp(emu_cta *c, uint32_t i)
{
    return i < c->nwarps ? &c->warps[i] : NULL;
}

uint64_t emu_cta_barriers_completed(const emu_cta *c)
{
    return c->bar_completed;
}

void emu_cta_warp_bits(const emu_cta *c, uint32_t which, uint32_t *live, uint32_t *ready)
{
    assert(c->nwarps <= 32 && (c->nwarps == 32 || which >> c->nwarps == 0));
    uint32_t l = 0, r = 0;
    for (uint32_t m = which; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(m);
        uint8_t state = c->warps[i].state;
        if (state != EMU_WS_EXITED) l |= 1u << i;
        if (state == EMU_WS_READY) r |= 1u << i;
    }
    *live = l;
    *ready = r;
}

bool emu_cta_done(const emu_cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != EMU_WS_EXITED) return false;
    return true;
}

/* Writes a bar.red result into the destination register of the lanes that waited at in. */
static void write_red_result(emu_warp *w, const emu_frame *fr, const ptx_instr *in,
                             uint32_t lanes, const emu_barrier *b)
{
    if (in->nops < 1) return;
    const ptx_operand *d = &in->ops[0];
    if (d->kind != PTX_OPD_REG) return;
    const ptx_reg *r = &fr->f->fn->regs[d->reg];
    uint64_t *row = w->regs + fr->reg_base + (size_t)r->slot * EMU_WARP_SIZE;
    uint64_t v;
    if (in->aop == PTX_SFX_POPC) v = b->red_popc;
    else if (in->aop == PTX_SFX_AND) v = b->red_and;
    else v = b->red_or;
    if (r->type == PTX_TYPE_PRED) {
        /* a predicate keeps its lanes as one mask in its slot's first word */
        row[0] = v ? row[0] | lanes : row[0] & ~(uint64_t)lanes;
        return;
    }
    for (uint32_t mk = lanes; mk; mk &= mk - 1) row[__builtin_ctz(mk)] = v;
}

/* The barrier instruction SIMT entry i of w waits at (its pc is just past it). */
static const ptx_instr *waiting_instr(emu_warp *w, uint32_t i, emu_frame **frp)
{
    emu_frame *fr = emu_simt_frame(w, i);
    if (frp) *frp = fr;
    uint32_t pc = w->stack[i].pc;
    return pc > 0 && pc <= fr->f->fn->ninstrs ? &fr->f->fn->instrs[pc - 1] : NULL;
}

/* The lanes of a mask, counted without a call: the library is built for any x86-64 (no
 * -mpopcnt), where __builtin_popcount is a libgcc call, and a barrier-bound kernel counts a
 * warp's lanes at every arrival. */
static inline uint32_t lanes_count(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}

/* Releases every lane that waits at barrier id, over all warps of the CTA (its arrivals
 * complete it). Out of line: most arrivals do not complete their barrier, and check_complete's
 * test then costs no more than itself (this loop's registers made every arrival save six). */
static __attribute__((noinline)) void release(emu_cta *cta, uint32_t id)
{
    emu_barrier *b = &cta->bar[id];
    cta->bar_completed++;
    cta->bar_waiting &= ~(1u << id);
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        emu_warp *w = &cta->warps[wi];
        if (w->state == EMU_WS_EXITED || w->state == EMU_WS_FAULT) continue;
        bool released = false;
        for (uint32_t i = 0; i < w->sp; i++) {
            emu_simt *e = &w->stack[i];
            if (e->bar != id + 1) continue;
            if (b->red) {
                /* lanes that waited at a bar.red (x_bar marked the barrier) get its result */
                emu_frame *fr;
                const ptx_instr *in = waiting_instr(w, i, &fr);
                if (in && in->aop) write_red_result(w, fr, in, e->mask, b);
            }
            e->bar = 0;
            released = true;
        }
        if (!released) continue;
        if (w->state == EMU_WS_BARRIER) w->state = EMU_WS_READY;
        /* one entry (a converged warp, the usual waiter) has nothing to join: no call */
        if (w->sp > 1) emu_simt_merge(w);
    }
    memset(b, 0, sizeof *b);
    b->red_and = true;
}

/* Releases the lanes waiting at barrier id when its arrivals complete it. */
static inline void check_complete(emu_cta *cta, uint32_t id)
{
    const emu_barrier *b = &cta->bar[id];
    if (b->arrived == 0) return;
    uint32_t need = b->expected ? b->expected : cta->live_threads;
    if (b->arrived >= need) release(cta, id);
}

void emu_barrier_arrive(emu_ctx *c, uint32_t id, uint32_t count, bool wait, uint32_t red_popc,
                        bool red_and, bool red_or)
{
    emu_cta *cta = c->cta;
    emu_warp *w = c->w;
    emu_barrier *b = &cta->bar[id];
    emu_mem_policy *pol = c->g->launch.policy;
    if (pol && pol->event) pol->event(pol, w, EMU_PEV_BARRIER, c->mask);
    if (b->arrived == 0) {
        b->red_and = true;
        b->red_or = false;
        b->red_popc = 0;
    }
    if (count) b->expected = count;
    /* the barrier counts the threads that execute it (sm_70+: the lanes of a warp may arrive
     * on separate paths) */
    b->arrived += lanes_count(c->mask);
    if (b->arrived) cta->bar_waiting |= 1u << id;
    b->red_popc += red_popc;
    b->red_and = b->red_and && red_and;
    b->red_or = b->red_or || red_or;
    if (wait) {
        /* only the executing lanes wait, past the barrier; lanes whose guard is false go on */
        emu_simt *t = &w->stack[w->sp - 1];
        uint32_t rest = c->active & ~c->mask, rpc = t->rpc;
        t->pc = c->next_pc;
        if (rest) {
            t->mask = rest;
            emu_simt_push(w, c->next_pc, rpc, c->mask);
        }
        w->stack[w->sp - 1].bar = id + 1;
        c->control = true;
        /* a converged warp (its frame's one path now waits) has nothing to schedule: what
         * emu_simt_schedule finds, without its scans */
        bool alone = w->sp - 1 == w->frames[w->nframes - 1].stack_base;
        if (alone || !emu_simt_schedule(w)) {
            /* the whole warp has arrived (a released warp still ends its run here) */
            w->state = EMU_WS_BARRIER;
            c->stop = EMU_STOP_BARRIER;
        }
    }
    check_complete(cta, id);
}

bool emu_barrier_sync_converged(emu_ctx *c, uint32_t id, uint32_t next_pc, uint32_t mask)
{
    emu_warp *w = c->w;
    const emu_mem_policy *pol = c->g->launch.policy;
    if (pol->barrier || pol->event || mask != c->active ||
        w->sp - 1 != w->frames[w->nframes - 1].stack_base)
        return false;
    assert(id < EMU_NBARRIERS && mask != 0);
    emu_cta *cta = c->cta;
    emu_barrier *b = &cta->bar[id];
    /* emu_barrier_arrive(c, id, 0, true, 0, true, false) of the whole path, alone in its
     * frame: the reduction's fields start at the first arrival and get nothing from this one;
     * the path waits past the barrier and the warp stops */
    if (b->arrived == 0) {
        b->red_and = true;
        b->red_or = false;
        b->red_popc = 0;
    }
    b->arrived += lanes_count(mask);
    if (b->arrived) cta->bar_waiting |= 1u << id;
    emu_simt *t = &w->stack[w->sp - 1];
    t->pc = next_pc;
    t->bar = (uint16_t)(id + 1);
    c->mask = mask;
    c->next_pc = next_pc;
    c->control = true;
    w->state = EMU_WS_BARRIER;
    c->stop = EMU_STOP_BARRIER;
    check_complete(cta, id);
    return true;
}

void emu_cta_warp_exited(emu_cta *cta, emu_warp *w, uint32_t lanes)
{
    (void)w;
    uint32_t n = lanes_count(lanes);
    cta->live_threads = cta->live_threads > n ? cta->live_threads - n : 0;
    /* fewer live threads can complete a barrier others wait at (one nobody waits at stays);
     * most exits find none waiting, and skip the barriers' records */
    for (uint32_t m = cta->bar_waiting; m; m &= m - 1) {
        uint32_t id = (uint32_t)__builtin_ctz(m);
        assert(cta->bar[id].arrived);
        check_complete(cta, id);
    }
}

void emu_cta_report_deadlock(emu_cta *c)
{
    emu_grid *g = c->g;
    emu_fault f;
    memset(&f, 0, sizeof f);
    f.kind = EMU_FAULT_BARRIER_DEADLOCK;
    f.cta = c->ctaid;
    char detail[512];
    size_t n = 0;
    detail[0] = 0;
    bool first = true;
    uint32_t bar_id = 0;
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        emu_warp *w = &c->warps[wi];
        if (w->state != EMU_WS_BARRIER) continue;
        for (uint32_t i = 0; i < w->sp; i++) {
            const emu_simt *e = &w->stack[i];
            /* lanes at a bar.warp.sync (of a caller's frame) wait for lanes listed here */
            if (!e->bar || e->bar == EMU_SIMT_WARP_SYNC || !e->mask) continue;
            const ptx_instr *in = waiting_instr(w, i, NULL);
            uint32_t line = in ? in->line : 0;
            int lo = __builtin_ctz(e->mask), hi = 31 - __builtin_clz(e->mask);
            if (first) {
                f.thread = w->tid[lo];
                f.ptx_line = line;
                bar_id = e->bar - 1;
                first = false;
            }
            if (n < sizeof detail - 80) {
                char lanes[48] = "";
                uint32_t run = (uint32_t)(((uint64_t)2 << hi) - ((uint64_t)1 << lo));
                if (e->mask != w->valid && e->mask == run)
                    snprintf(lanes, sizeof lanes, " lanes %d-%d", lo, hi);
                else if (e->mask != w->valid)
                    snprintf(lanes, sizeof lanes, " lanes 0x%08x", e->mask);
                int k = snprintf(detail + n, sizeof detail - n,
                                 "%swarp %u%s at barrier %u (PTX line %u)", n ? ", " : "", w->id,
                                 lanes, e->bar - 1, line);
                if (k > 0) n += (size_t)k;
                if (n >= sizeof detail) n = sizeof detail - 1;
            } else if (n < sizeof detail - 5) {
                strcpy(detail + n, ", ...");
                n += 5;
            }
        }
    }
    const emu_barrier *b = &c->bar[bar_id];
    uint32_t need = b->expected ? b->expected : c->live_threads;
    char *kn = ptx_demangle(g->launch.kernel->name);
    snprintf(f.message, sizeof f.message,
             "Barrier deadlock in kernel %s by thread (%u,%u,%u) in block (%u,%u,%u): barrier %u "
             "expects %u threads but only %u of the %u live threads arrived and no other thread "
             "can run; waiting: %s",
             kn ? kn : g->launch.kernel->name, f.thread.x, f.thread.y, f.thread.z, f.cta.x,
             f.cta.y, f.cta.z, bar_id, need, b->arrived, c->live_threads, detail);
    free(kn);
    emu_grid_record_fault(g, c->linear, &f);
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state == EMU_WS_BARRIER) c->warps[i].state = EMU_WS_FAULT;
}
