/* policy.c: iGPU restart (Menon et al., ISCA 2012; spec igpu.md S-11.5, S-11.7) as a memory
 * policy over the launch's own.
 *
 * Fidelity (the spec's S-11.1): L1, emulator-assisted restart. At every sparse boundary the
 * executor reports (emu_module_set_region_boundaries), each lane that crosses it keeps its
 * restart point and a copy of its registers (emu_warp_checkpoint: a superset of the live-ins
 * the analysis lists, and of the lane's local memory); nothing is rewritten in the PTX (no
 * state-preservation copies, L2). Global memory is never restored: re-execution relies on the
 * regions' idempotence, which region formation guarantees under the conservative alias model
 * (distinct pointer parameters may alias).
 *
 * Short sub-regions (--igpu-short, marked too): an injected timing error (instr-rate, the
 * paper's misspeculation) goes back to the entry of its short sub-region, where each lane keeps
 * a second restart point (RPC_sh), when the faulting path has one there; faults go back to the
 * sparse region's entry (RPC_sp). A short sub-region lies inside one sparse region, so it has
 * no clobber of its own and re-runs safely from the registers kept at its entry.
 *
 * A restartable fault (an injected one: --fault-inject; or a page fault: --igpu-paging, the
 * first touch of a non-resident page, timing/igpu/paging.c) is decided in program order when
 * the warp's global memory operation reaches the policy, before any lane performs it; the
 * faulting path (the top SIMT entry's lanes) goes back to each lane's region entry and runs
 * again. Barriers, atomics, fences and calls sit between forced boundaries, so no restart runs
 * one twice. The decision depends only on the warp's own history (its CTA, its index, how many
 * global memory operations it has issued, re-executed ones included), so a run is the same on
 * any number of host threads and with any seed. Page faults depend on which warp touches a page
 * first: their number is the same on any run (paging.c), which warps restart is not.
 *
 * Statistics (spec S-11.8, timing_igpu_stats): a region's size is the warp instructions from a
 * warp's boundary crossing to its next crossing or exit, less what a restart discarded (counted
 * as re-executed); the live-ins of each crossing come from the analysis (on the boundary mark).
 *
 * Cycles (--timing, timing_igpu_timed): the cycle model runs each warp ahead on the
 * interpreter and issues what it ran, so the instructions a restart discards have issued and
 * cost their cycles, and the ones run again issue again. What the model cannot see in the
 * instructions is kept here per warp, by instruction number, for it to charge when it issues
 * that instruction (timing_igpu_take_cost): the faulting instruction sleeps the warp
 * igpu_page_fault_latency cycles (a page fault: the warp sleeps, the others run, the spec's
 * vm.ctx_switch default) or igpu_restart_penalty (an injected error: squash and refill); a page
 * fault taken in place makes its operation wait as long; and every boundary crossed issues one
 * state-preservation instruction per live-in register first (continuous spilling, the spec's
 * idem.spill default: pushes when a region is entered, pops when a restart enters it again). */
#include "timing/timing.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct igpu_ck {
    emu_warp_checkpoint *ck;
    uint32_t lanes;            /* lanes whose restart point it still is */
    uint32_t func, pc;         /* the boundary (a fault's report names its region) */
} igpu_ck;

/* the boundary mark of a short boundary (timing_igpu_prepare); sparse ones are 1..127 */
#define IGPU_SHORT_MARK 255

/* --timing: what one instruction costs beyond itself (timing_igpu_take_cost) */
typedef struct igpu_cost {
    uint64_t instr;            /* the warp's instruction number (emu_warp_instructions before it) */
    timing_igpu_cost c;
} igpu_cost;
/* a model run ahead is at most 32 instructions, a GPUDet record takes them per event ring (64),
 * each with a boundary and a fault at most */
#define IGPU_COSTS 136

typedef struct igpu_warp {
    igpu_ck cks[EMU_WARP_SIZE];
    /* short sub-regions (instr-rate errors restart there, the paper's RPC_sh): the lanes'
     * restart points at the short boundaries crossed since their sparse ones */
    igpu_ck scks[EMU_WARP_SIZE];
    uint32_t nscks;
    uint64_t short_start;      /* warp instructions when the last short region began */
    uint64_t short_ops;        /* region_ops then */
    bool pending_short;        /* the pending fault restarts from scks[pending_ck] */
    igpu_cost costs[IGPU_COSTS];   /* --timing: not yet taken, in instruction order */
    uint32_t ncosts;
    uint32_t ncks;
    uint64_t mem_ops;          /* global memory operations issued (re-executions included) */
    uint64_t decided_at;       /* instr-rate: its instruction count at the last decision */
    uint32_t pending;          /* a fault waits for the warp to stop: restart from cks[pending_ck] */
    uint32_t pending_ck;
    bool pending_page;         /* the pending fault is a page fault */
    /* forward progress: a restarted region runs fault-free up to the point of its last fault
     * (a page brought in stays resident while the region re-executes), so each fault in a
     * region lies further into it than the one before */
    uint64_t region_ops;       /* global memory operations since the region's entry */
    uint64_t replay_until;     /* no fault while region_ops is below this */
    bool rewound;              /* the next boundary is the restart point crossed again */
    uint32_t deferred_pc;      /* 1 + the pc of an operation the policy below deferred (GPUDet
                                  runs it again later, crossing its boundary again); 0: none */
    bool started;              /* it crossed a boundary: region_start holds */
    uint64_t region_start;     /* warp instructions it had run when its region began (or
                                  restarted) */
    timing_igpu_own own;       /* paging by quanta (GPUDet): the pages it waited for */
    uint64_t cta;              /* its CTA's linear id and its index there (fault reports) */
    uint32_t warp;
} igpu_warp;

struct timing_igpu {
    emu_mem_policy policy;
    timing_igpu_inject inj;
    timing_igpu_pages *pages;  /* --igpu-paging, else NULL */
    pthread_mutex_t lock;      /* states[] and stats */
    igpu_warp **states;
    size_t nstates, cap;
    timing_igpu_stats stats;
    bool timed;                /* --timing: costs are kept for the cycle model */
    uint64_t page_fault_latency, restart_penalty;
    char oom[160];
};

/* ---------------------------------------------------------------- injection */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static bool inject_here(const timing_igpu *g, const emu_warp *w, igpu_warp *s,
                        const emu_mem_op *op)
{
    /* per instruction: the instructions since the warp's last decision */
    uint64_t now = emu_warp_instructions(w), since = now - s->decided_at;
    s->decided_at = now;
    if (s->region_ops < s->replay_until) return false;
    uint64_t n = s->mem_ops;
    switch (g->inj.mode) {
    case TIMING_IGPU_INJECT_RATE:
    case TIMING_IGPU_INJECT_INSTR_RATE: {
        uint64_t h = mix64(g->inj.seed ^ mix64(emu_warp_cta_linear(w) * 0x9e3779b97f4a7c15ull ^
                                               ((uint64_t)emu_warp_id(w) << 40) ^ n));
        double u = (double)(h >> 11) * (1.0 / 9007199254740992.0);
        if (g->inj.mode == TIMING_IGPU_INJECT_RATE) return u < g->inj.rate;
        /* an error in any of the `since` instructions (each with probability rate) is detected
         * here, before this operation commits anything */
        return u < -expm1((double)since * log1p(-g->inj.rate));
    }
    case TIMING_IGPU_INJECT_LIST:
        for (uint32_t k = 0; k < g->inj.nlist; k++)
            if (g->inj.list[k] == n) return true;
        return false;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- per-warp state */

static igpu_warp *warp_state(timing_igpu *g, emu_warp *w)
{
    igpu_warp *s = emu_warp_user(w, EMU_POLICY_RESTART);
    if (s) return s;
    s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_lock(&g->lock);
    if (g->nstates == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        igpu_warp **v = realloc(g->states, cap * sizeof *v);
        if (!v) {
            pthread_mutex_unlock(&g->lock);
            free(s);
            return NULL;
        }
        g->states = v;
        g->cap = cap;
    }
    g->states[g->nstates++] = s;
    pthread_mutex_unlock(&g->lock);
    s->cta = emu_warp_cta_linear(w);
    s->warp = emu_warp_id(w);
    emu_warp_set_user(w, EMU_POLICY_RESTART, s);
    return s;
}

static void drop_from(igpu_ck *cks, uint32_t *n, uint32_t lanes)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n; i++) {
        cks[i].lanes &= ~lanes;
        if (cks[i].lanes) cks[k++] = cks[i];
        else emu_warp_checkpoint_free(cks[i].ck);
    }
    *n = k;
}

/* the lanes' restart points go (a sparse boundary: their short ones with them) */
static void drop_lanes(igpu_warp *s, uint32_t lanes)
{
    drop_from(s->cks, &s->ncks, lanes);
    drop_from(s->scks, &s->nscks, lanes);
}

static void free_state(igpu_warp *s)
{
    drop_lanes(s, ~0u);
}

/* when the warp's state goes for good */
static void free_warp(igpu_warp *s)
{
    free_state(s);
    free(s->own.pages);
    free(s);
}

/* --timing: instruction `instr` of the warp costs c beyond itself */
static void add_cost(igpu_warp *s, uint64_t instr, timing_igpu_cost c)
{
    if (s->ncosts && s->costs[s->ncosts - 1].instr == instr) {
        timing_igpu_cost *d = &s->costs[s->ncosts - 1].c;
        d->stall += c.stall;
        d->state += c.state;
        d->restart |= c.restart;
        return;
    }
    /* the model takes them after every run ahead; a full list (never seen) folds into its last */
    if (s->ncosts == IGPU_COSTS) {
        timing_igpu_cost *d = &s->costs[IGPU_COSTS - 1].c;
        d->stall += c.stall;
        d->state += c.state;
        d->restart |= c.restart;
        return;
    }
    s->costs[s->ncosts++] = (igpu_cost){instr, c};
}

/* The one restart point of every lane of the path the warp runs now, if it can go back there. */
static int32_t rewind_in(const emu_warp *w, const igpu_ck *cks, uint32_t n)
{
    uint32_t path = emu_warp_path_lanes(w);
    for (uint32_t i = 0; i < n; i++)
        if ((cks[i].lanes & path) == path && emu_warp_checkpoint_can_rewind(w, cks[i].ck))
            return (int32_t)i;
    return -1;
}

static int32_t rewind_point(const emu_warp *w, const igpu_warp *s)
{
    return rewind_in(w, s->cks, s->ncks);
}

/* ---------------------------------------------------------------- the policy */

static void igpu_event(emu_mem_policy *self, emu_warp *w, emu_policy_event ev, uint32_t lanes)
{
    timing_igpu *g = self->state;
    if (ev == EMU_PEV_REGION_BOUNDARY && lanes && emu_warp_region_mark(w) == IGPU_SHORT_MARK) {
        /* a short sub-region starts: only instr-rate errors restart there */
        igpu_warp *s = g->inj.mode == TIMING_IGPU_INJECT_INSTR_RATE ? warp_state(g, w) : NULL;
        emu_warp_checkpoint *ck = s ? emu_warp_checkpoint_take(w, lanes) : NULL;
        if (s && !ck) {
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory keeping an iGPU restart point");
        } else if (ck) {
            drop_from(s->scks, &s->nscks, lanes);
            s->scks[s->nscks++] = (igpu_ck){ck, lanes, 0, 0};
            s->short_start = emu_warp_instructions(w);
            s->short_ops = s->region_ops;
        }
    } else if (ev == EMU_PEV_REGION_BOUNDARY && lanes) {
        igpu_warp *s = warp_state(g, w);
        emu_warp_checkpoint *ck = s ? emu_warp_checkpoint_take(w, lanes) : NULL;
        emu_next_instr at = {0};
        bool here = s && emu_warp_peek(w, &at);
        bool again = here && s->deferred_pc && at.pc + 1 == s->deferred_pc;
        if (s) s->deferred_pc = 0;
        if (!ck) {
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory keeping an iGPU restart point");
        } else if (again) {
            /* the same crossing: the operation after it was deferred, not run */
            drop_lanes(s, lanes);
            s->cks[s->ncks++] = (igpu_ck){ck, lanes, at.func, at.pc};
        } else {
            drop_lanes(s, lanes);
            s->cks[s->ncks++] = (igpu_ck){ck, lanes, at.func, at.pc};
            uint64_t now = emu_warp_instructions(w);
            uint8_t mark = emu_warp_region_mark(w);
            uint64_t live = mark ? mark - 1u : 0;
            /* the analysis's live-in count rides on the boundary mark (timing_igpu_prepare):
             * continuous spilling pushes them at every crossing, and a restarted region pops
             * them first (counted under --timing, which charges both) */
            uint32_t state = (uint32_t)live;
            if (s->rewound) {
                s->rewound = false;   /* the same region again: replay_until holds */
                if (g->timed) {
                    state += (uint32_t)live;
                    __atomic_fetch_add(&g->stats.reload_instructions, live, __ATOMIC_RELAXED);
                }
            } else {
                s->region_ops = 0;    /* a new region: any of its operations may fault */
                s->replay_until = 0;
                if (s->started) timing_hist_add(&g->stats.region_size, now - s->region_start);
                s->started = true;
            }
            if (g->timed && state) add_cost(s, now, (timing_igpu_cost){0, state, false});
            timing_hist_add(&g->stats.liveins, live);
            __atomic_fetch_add(&g->stats.spill_instructions, live, __ATOMIC_RELAXED);
            __atomic_fetch_add(&g->stats.boundaries, 1, __ATOMIC_RELAXED);
            s->region_start = now;
            s->short_start = now;
            s->short_ops = s->region_ops;
        }
    }
    if (self->next && self->next->event) self->next->event(self->next, w, ev, lanes);
}

static emu_mem_outcome igpu_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    timing_igpu *g = self->state;
    if (op->space == PTX_SPACE_GLOBAL && op->kind != EMU_MEM_CALL && op->mask &&
        (g->pages || g->inj.mode != TIMING_IGPU_INJECT_OFF)) {
        igpu_warp *s = warp_state(g, w);
        if (s) {
            /* a page fault first (the page arrives now); else perhaps an injected one */
            bool page = g->pages && (timing_igpu_pages_quantum_mode(g->pages)
                                         ? timing_igpu_pages_touch_own(g->pages, op, &s->own)
                                         : timing_igpu_pages_touch(g->pages, op));
            bool injected = !page && g->inj.mode != TIMING_IGPU_INJECT_OFF &&
                            inject_here(g, w, s, op);
            s->mem_ops++;
            s->region_ops++;
            if (page) __atomic_fetch_add(&g->stats.page_faults, 1, __ATOMIC_RELAXED);
            /* the faulting path restarts as a whole from its one restart point; a path whose
             * lanes crossed their last boundaries apart (they merged since) would need the
             * spec's restart lists (S-11.5): no fault is injected there, and a page fault is
             * taken in place (nothing of the operation was done; it runs once the page is in) */
            bool as_page = page || g->inj.as_page;
            /* a timing error (instr-rate) goes back to its short sub-region's entry when the
             * path has one there, as the paper's RPC_sh; faults to the sparse region's */
            int32_t at = -1;
            bool short_restart = false;
            if (injected && !as_page && g->inj.mode == TIMING_IGPU_INJECT_INSTR_RATE) {
                at = rewind_in(w, s->scks, s->nscks);
                short_restart = at >= 0;
            }
            if (at < 0 && (page || injected)) at = rewind_point(w, s);
            uint64_t stall = as_page ? g->page_fault_latency : g->restart_penalty;
            if (at >= 0) {
                s->pending = 1;
                s->pending_ck = (uint32_t)at;
                s->pending_page = page;
                s->pending_short = short_restart;
                s->replay_until = s->region_ops;
                op->restart_lanes = emu_warp_path_lanes(w);
                if (injected) __atomic_fetch_add(&g->stats.faults, 1, __ATOMIC_RELAXED);
                if (g->timed) {
                    add_cost(s, emu_warp_instructions(w), (timing_igpu_cost){stall, 0, true});
                    __atomic_fetch_add(as_page ? &g->stats.page_fault_cycles
                                            : &g->stats.restart_penalty_cycles,
                                       stall, __ATOMIC_RELAXED);
                }
                return EMU_MEM_RESTART;
            }
            if (page) {
                __atomic_fetch_add(&g->stats.page_stalls, 1, __ATOMIC_RELAXED);
                if (g->timed) {
                    add_cost(s, emu_warp_instructions(w), (timing_igpu_cost){stall, 0, false});
                    __atomic_fetch_add(&g->stats.page_fault_cycles, stall, __ATOMIC_RELAXED);
                }
            }
        }
    }
    emu_mem_outcome o = emu_policy_forward(self, w, op);
    if (o == EMU_MEM_DEFERRED) {
        igpu_warp *s = emu_warp_user(w, EMU_POLICY_RESTART);
        if (s) s->deferred_pc = op->pc + 1;
    }
    return o;
}

static void igpu_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    timing_igpu *g = self->state;
    igpu_warp *s = emu_warp_user(w, EMU_POLICY_RESTART);
    if (s && reason == EMU_STOP_RESTART && s->pending && s->pending_short) {
        /* back to the short sub-region's entry: the sparse region goes on (its size does not
         * count what was discarded) */
        s->pending = 0;
        s->pending_short = false;
        uint64_t now = emu_warp_instructions(w), lost = now - s->short_start;
        __atomic_fetch_add(&g->stats.reexecuted, lost, __ATOMIC_RELAXED);
        __atomic_fetch_add(&g->stats.short_restarts, 1, __ATOMIC_RELAXED);
        s->region_start += lost;
        s->region_ops = s->short_ops;
        s->short_start = now;
        emu_warp_checkpoint_rewind(w, s->scks[s->pending_ck].ck);
        __atomic_fetch_add(&g->stats.restarts, 1, __ATOMIC_RELAXED);
    } else if (s && reason == EMU_STOP_RESTART && s->pending) {
        /* back to the region entry, with the registers the lanes had there */
        s->pending = 0;
        drop_from(s->scks, &s->nscks, emu_warp_path_lanes(w));
        s->region_ops = 0;
        s->rewound = true;
        uint64_t now = emu_warp_instructions(w);
        __atomic_fetch_add(&g->stats.reexecuted, now - s->region_start, __ATOMIC_RELAXED);
        if (s->pending_page)
            __atomic_fetch_add(&g->stats.reexecuted_paging, now - s->region_start,
                               __ATOMIC_RELAXED);
        s->region_start = now;
        emu_warp_checkpoint_rewind(w, s->cks[s->pending_ck].ck);
        __atomic_fetch_add(&g->stats.restarts, 1, __ATOMIC_RELAXED);
    } else if (s && reason == EMU_STOP_EXIT) {
        if (s->started) {
            timing_hist_add(&g->stats.region_size, emu_warp_instructions(w) - s->region_start);
            s->started = false;
        }
        free_state(s);
    }
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
}

timing_igpu *timing_igpu_begin(const timing_igpu_inject *inj, timing_igpu_pages *pages,
                               emu_mem_policy *next)
{
    timing_igpu *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (inj) g->inj = *inj;
    g->pages = pages;
    pthread_mutex_init(&g->lock, NULL);
    g->policy = (emu_mem_policy){
        .name = "igpu",
        .wants = next ? (next->wants & EMU_POLICY_SPACES) : 0,
        .access = igpu_access,
        .event = igpu_event,
        .barrier = NULL,
        .observe = NULL,
        .warp_stopped = igpu_stopped,
        .next = next,
        .state = g,
    };
    return g;
}

emu_mem_policy *timing_igpu_policy(timing_igpu *g)
{
    return &g->policy;
}

void timing_igpu_timed(timing_igpu *g, const timing_gpu *gpu)
{
    g->timed = true;
    g->page_fault_latency = (uint64_t)gpu->igpu_page_fault_latency;
    g->restart_penalty = (uint64_t)gpu->igpu_restart_penalty;
}

timing_igpu *timing_igpu_of(emu_mem_policy *p)
{
    for (; p && p->access != igpu_access; p = p->next) {
    }
    return p ? p->state : NULL;
}

bool timing_igpu_take_cost(timing_igpu *g, emu_warp *w, uint64_t instr, timing_igpu_cost *out)
{
    igpu_warp *s = emu_warp_user(w, EMU_POLICY_RESTART);
    if (!g->timed || !s || !s->ncosts || s->costs[0].instr > instr) return false;
    *out = (timing_igpu_cost){0, 0, false};
    uint32_t k = 0;
    for (; k < s->ncosts && s->costs[k].instr <= instr; k++) {
        out->stall += s->costs[k].c.stall;
        out->state += s->costs[k].c.state;
        out->restart |= s->costs[k].c.restart;
    }
    memmove(s->costs, s->costs + k, (s->ncosts - k) * sizeof *s->costs);
    s->ncosts -= k;
    return true;
}

emu_mem_policy *timing_igpu_over(emu_mem_policy *launch, emu_mem_policy *below)
{
    for (; launch && launch->access != igpu_access; launch = launch->next) {
    }
    if (!launch) return below;
    launch->next = below;
    launch->wants = below ? (below->wants & EMU_POLICY_SPACES) : 0;
    return launch;
}

void timing_igpu_rewind(emu_mem_policy *p)
{
    for (; p && p->access != igpu_access; p = p->next) {
    }
    if (!p) return;
    timing_igpu *g = p->state;
    /* the warps of the earlier run are gone with their grid: their states are dropped */
    for (size_t i = 0; i < g->nstates; i++) {
        free_warp(g->states[i]);
    }
    g->nstates = 0;
    memset(&g->stats, 0, sizeof g->stats);
    if (g->pages) timing_igpu_pages_rewind(g->pages);
}

bool timing_igpu_region_of(timing_igpu *g, uint64_t cta_linear, uint32_t warp, uint32_t lane,
                           uint32_t *func, uint32_t *pc)
{
    if (!g) return false;
    /* the latest state of that warp (compare mode's reference run dropped its own) */
    for (size_t i = g->nstates; i-- > 0;) {
        const igpu_warp *s = g->states[i];
        if (s->cta != cta_linear || s->warp != warp) continue;
        for (uint32_t k = 0; k < s->ncks; k++)
            if (s->cks[k].lanes & (1u << lane)) {
                *func = s->cks[k].func;
                *pc = s->cks[k].pc;
                return true;
            }
        return false;
    }
    return false;
}

void timing_igpu_end(timing_igpu *g, timing_igpu_stats *out)
{
    if (!g) return;
    if (g->pages) g->stats.evictions += timing_igpu_pages_end_launch(g->pages);
    if (out) *out = g->stats;
    for (size_t i = 0; i < g->nstates; i++) {
        free_warp(g->states[i]);
    }
    free(g->states);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void timing_igpu_quantum_end(emu_mem_policy *chain)
{
    timing_igpu *g = timing_igpu_of(chain);
    if (g && g->pages && timing_igpu_pages_quantum_mode(g->pages))
        timing_igpu_pages_quantum_end(g->pages);
}

/* ---------------------------------------------------------------- region boundaries */

bool timing_igpu_prepare(emu_module *mod, char *err, size_t errlen)
{
    const ptx_module *m = emu_module_ptx(mod);
    ptx_region_options opt = {0, true};   /* pointer parameters may alias: restarts must be right */
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (fn->is_decl || !fn->ninstrs) continue;
        ptx_regions *r = ptx_regions_compute(m, fn, &opt, err, errlen);
        if (!r) return false;
        uint8_t *sparse = calloc(fn->ninstrs, 1);
        if (!sparse) {
            ptx_regions_free(r);
            snprintf(err, errlen, "out of host memory marking the regions of %s", fn->name);
            return false;
        }
        /* a sparse boundary's mark is 1 + its live-in count (for the statistics, at most
         * 126); a short one's IGPU_SHORT_MARK (a sparse boundary wins where both are) */
        for (uint32_t b = 0; b < r->nbounds; b++)
            if (r->bounds[b].kind == PTX_BND_SPARSE)
                sparse[r->bounds[b].instr] =
                    (uint8_t)(1 + (r->bounds[b].nlive < 126 ? r->bounds[b].nlive : 126));
        for (uint32_t b = 0; b < r->nbounds; b++)
            if (r->bounds[b].kind == PTX_BND_SHORT && !sparse[r->bounds[b].instr])
                sparse[r->bounds[b].instr] = IGPU_SHORT_MARK;
        emu_module_set_region_boundaries(mod, fn, sparse);
        free(sparse);
        ptx_regions_free(r);
    }
    return true;
}

int timing_igpu_region_name(const emu_module *mod, uint32_t func, uint32_t pc, char *buf,
                            size_t len)
{
    const ptx_module *m = emu_module_ptx(mod);
    if (!m || func >= m->nfuncs || pc >= m->funcs[func].ninstrs) return 0;
    const ptx_function *fn = &m->funcs[func];
    ptx_region_options opt = {0, true};   /* as timing_igpu_prepare formed them */
    char err[160];
    ptx_regions *r = ptx_regions_compute(m, fn, &opt, err, sizeof err);
    if (!r) return 0;
    int n = 0;
    for (uint32_t b = 0, sparse = 0; b < r->nbounds; b++) {
        const ptx_boundary *bd = &r->bounds[b];
        if (bd->kind == PTX_BND_SPARSE) sparse++;
        if (bd->instr != pc || bd->kind != PTX_BND_SPARSE) continue;
        /* numbered as `ptxsim ptx FILE --regions --igpu-alias=conservative` prints them */
        n = snprintf(buf, len,
                     "idempotent region %u of %s (boundary %u of `ptxsim ptx --regions "
                     "--igpu-alias=conservative`: sparse, before instr %u, PTX line %u; %s)",
                     sparse, fn->name, b + 1, pc, fn->instrs[pc].line,
                     ptx_cut_reason_name((ptx_cut_reason)bd->reason));
        break;
    }
    ptx_regions_free(r);
    return n;
}
