/* policy.c: KILO TM as a memory policy (spec kilotm.md sections 2 and 14, item 5).
 *
 * - tx_begin (EMU_MEM_TX_BEGIN): a lane not yet in a transaction enters one; a nested begin
 *   only counts (flattened). A warp entering its first transaction takes one of its SM's
 *   transactional-warp slots (--tm-warps, the paper's concurrency control, section 4.6) or is
 *   deferred until one is free; it keeps the slot through every retry and gives it back when
 *   none of its lanes is inside a transaction. The run stops after the begin, and the lanes'
 *   registers and local memory are checkpointed then (warp_stopped), at the instruction after
 *   the begin. Under GPUDet the slot is taken in serial mode, in GPUDet's order (tx_begin).
 * - global loads and stores of lanes inside a transaction go to their logs (log.c); the lanes
 *   outside go on to the policy below. Shared and local memory are not transactional (section
 *   2.2; local memory is restored from the checkpoint instead).
 * - tx_commit (EMU_MEM_TX_COMMIT): the outermost commit of the lanes that reach it resolves
 *   them together (commit.c). Failed lanes go back, when the run stops, to the instruction
 *   after their tx_begin in a transaction entry of the SIMT stack that reconverges after the
 *   tx_commit (section 2.4's R/T entries: the committed lanes wait there).
 * - a lane whose read-set goes stale while it runs (log.c) is aborted at that load: the load is
 *   not performed (EMU_MEM_RESTART) and, when the run stops, the lane leaves the transaction's
 *   paths and starts again after its tx_begin (emu_warp_tx_abort), while the others go on.
 * - an atomic of a lane inside a transaction is a fault (the load-time check refuses the ones
 *   written between the markers; this catches one in a called function). */
#include "timing/kilotm/kilotm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kt_policy *kt_of(emu_mem_policy *p) { return (kt_policy *)p->state; }

static kt_warp *state_of(kt_policy *P, emu_warp *w, bool create)
{
    kt_warp *s = emu_warp_user(w, EMU_POLICY_TM);
    if (s || !create) return s;
    pthread_mutex_lock(&P->states_lock);
    s = P->free_list;
    if (s) {
        P->free_list = s->next_free;
    } else if ((s = calloc(1, sizeof *s))) {
        s->next = P->all;
        P->all = s;
    }
    pthread_mutex_unlock(&P->states_lock);
    if (!s) return NULL;
    s->w = w;
    s->in_tx = s->begun = s->aborted = s->doomed = 0;
    s->holds_slot = false;
    s->deferred = s->slot_pending = s->exit_pending = false;
    s->rec.lanes = 0;
    s->natt = 0;
    s->sm = P->nsm ? emu_warp_sm(w) % P->nsm : 0;
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        s->lane[l].reads.n = s->lane[l].writes.n = 0;
        s->lane[l].depth = 0;
    }
    emu_warp_set_user(w, EMU_POLICY_TM, s);
    return s;
}

void kt_release_state(kt_policy *P, kt_warp *s)
{
    for (uint32_t i = 0; i < s->natt; i++) emu_warp_checkpoint_free(s->att[i].ck);
    s->natt = 0;
    if (s->in_tx) kt_stats_concurrency(P, s->sm, -__builtin_popcount(s->in_tx));
    s->in_tx = 0;
    if (s->holds_slot) __atomic_fetch_sub(&P->tx_warps[s->sm], 1, __ATOMIC_RELAXED);
    s->holds_slot = false;
    s->slot_pending = false;
    s->rec.lanes = 0;
    emu_warp_set_user(s->w, EMU_POLICY_TM, NULL);
    s->w = NULL;
    pthread_mutex_lock(&P->states_lock);
    s->next_free = P->free_list;
    P->free_list = s;
    pthread_mutex_unlock(&P->states_lock);
}

static bool take_slot(kt_policy *P, kt_warp *s)
{
    if (s->holds_slot) return true;
    uint32_t *n = &P->tx_warps[s->sm];
    uint32_t cur = __atomic_load_n(n, __ATOMIC_RELAXED);
    do {
        if (P->warps_per_sm && cur >= P->warps_per_sm) return false;
    } while (!__atomic_compare_exchange_n(n, &cur, cur + 1, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_RELAXED));
    s->holds_slot = true;
    return true;
}

static emu_mem_outcome tx_begin(kt_policy *P, emu_warp *w, const emu_mem_op *op)
{
    kt_warp *s = state_of(P, w, true);
    if (!s) {
        emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, "out of host memory for KILO TM state");
        return EMU_MEM_DONE;
    }
    uint32_t fresh = 0;
    for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (s->lane[l].depth == 0) fresh |= 1u << l;
    }
    if (fresh && !s->holds_slot && P->warps_per_sm && P->over_det) {
        /* GPUDet: a slot is taken in serial mode, where the warps that want one come in
         * GPUDet's fixed order and slots are given back only by commits (also serial mode) or
         * exits (at fixed points of a warp's parallel mode). Forwarded in parallel mode, the
         * begin is deferred there; in serial mode it comes back DONE and takes a slot or waits
         * for the next quantum's serial mode (EMU_MEM_DEFERRED below, in serial mode too). */
        emu_mem_outcome r = emu_policy_forward(&P->pol, w, (emu_mem_op *)op);
        if (r != EMU_MEM_DONE) return r;
    }
    if (fresh && !take_slot(P, s)) {
        __atomic_fetch_add(&P->st.begin_stalls, 1, __ATOMIC_RELAXED);
        s->deferred = true;
        return EMU_MEM_DEFERRED;
    }
    for (uint32_t mk = op->mask; mk; mk &= mk - 1) {
        kt_lane *ln = &s->lane[__builtin_ctz(mk)];
        if (ln->depth++ == 0) {
            ln->reads.n = ln->writes.n = 0;
            ln->aborts = 0;
        }
    }
    if (fresh) kt_stats_concurrency(P, s->sm, __builtin_popcount(fresh));
    s->in_tx |= fresh;
    s->begun |= fresh;
    return fresh ? EMU_MEM_DONE_STOP : EMU_MEM_DONE;
}

static emu_mem_outcome tx_commit(kt_policy *P, emu_warp *w, const emu_mem_op *op)
{
    kt_warp *s = state_of(P, w, false);
    if (!s) return EMU_MEM_DONE;   /* a commit outside any transaction: the load check's job */
    if (P->over_det) {
        /* GPUDet defers a commit to its serial mode, where the commits of a quantum run one
         * warp at a time in its deterministic order, on memory with every store committed */
        emu_mem_outcome r = emu_policy_forward(&P->pol, w, (emu_mem_op *)op);
        if (r != EMU_MEM_DONE) return r;
    }
    uint32_t outer = 0;
    for (uint32_t mk = op->mask & s->in_tx; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (--s->lane[l].depth == 0) outer |= 1u << l;
    }
    if (!outer) return EMU_MEM_DONE;
    uint32_t failed = kt_commit(P, s, outer);
    uint32_t done = outer & ~failed;
    for (uint32_t mk = failed; mk; mk &= mk - 1) s->lane[__builtin_ctz(mk)].depth = 1;
    s->in_tx &= ~done;
    if (done) kt_stats_concurrency(P, s->sm, -__builtin_popcount(done));
    for (uint32_t i = 0; i < s->natt;) {
        s->att[i].lanes &= ~done;
        if (s->att[i].lanes) {
            i++;
            continue;
        }
        emu_warp_checkpoint_free(s->att[i].ck);
        s->att[i] = s->att[--s->natt];
    }
    if (!s->in_tx && s->holds_slot) {
        if (P->timed) {
            /* the slot is the warp's until its commit's outcome is back (cycles.c) */
            s->slot_pending = true;
        } else {
            __atomic_fetch_sub(&P->tx_warps[s->sm], 1, __ATOMIC_RELEASE);
            s->holds_slot = false;
        }
    }
    if (!failed) return EMU_MEM_DONE;
    s->aborted |= failed;
    s->retry_rpc = op->pc + 1;
    return EMU_MEM_DONE_STOP;
}

/* Performs the pieces of op whose lanes are in `lanes` through the policy below. */
static emu_mem_outcome forward_lanes(emu_mem_policy *self, emu_warp *w, emu_mem_op *op,
                                     uint32_t lanes)
{
    if (!lanes) return EMU_MEM_DONE;
    if (lanes == op->mask) return emu_policy_forward(self, w, op);
    emu_mem_seg segs[256], *seg = op->nseg <= 256 ? segs : malloc(op->nseg * sizeof *seg);
    if (!seg) {
        emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES, "out of host memory for KILO TM");
        return EMU_MEM_DONE;
    }
    emu_mem_op sub = *op;
    sub.nseg = 0;
    sub.seg = seg;
    sub.mask = lanes;
    for (uint32_t i = 0; i < op->nseg; i++)
        if (lanes & (1u << op->seg[i].lane)) seg[sub.nseg++] = op->seg[i];
    emu_mem_outcome r = emu_policy_forward(self, w, &sub);
    if (seg != segs) free(seg);
    return r;
}

/* Can lane l be aborted inside its transaction now (its warp runs in the transaction's frame)? */
static bool may_abort(kt_warp *s, int l)
{
    for (uint32_t i = 0; i < s->natt; i++)
        if (s->att[i].lanes & (1u << l)) return emu_warp_checkpoint_in_frame(s->w, s->att[i].ck);
    return false;   /* not checkpointed yet: the run stops right after tx_begin, so never */
}

static emu_mem_outcome kt_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    kt_policy *P = kt_of(self);
    switch (op->kind) {
    case EMU_MEM_TX_BEGIN: return tx_begin(P, w, op);
    case EMU_MEM_TX_COMMIT: return tx_commit(P, w, op);
    default: break;
    }
    kt_warp *s = state_of(P, w, false);
    uint32_t inside = s ? op->mask & s->in_tx : 0;
    if (!inside || op->space != PTX_SPACE_GLOBAL) return emu_policy_forward(self, w, op);
    if (op->kind == EMU_MEM_ATOMIC) {
        emu_warp_abort(w, EMU_FAULT_ILLEGAL_INSTRUCTION,
                       "KILO TM: an atomic inside a transaction (called from the transaction's "
                       "code); atomics cannot be undone when a transaction aborts");
        return EMU_MEM_DONE;
    }
    if (op->kind != EMU_MEM_LOAD && op->kind != EMU_MEM_STORE)
        return emu_policy_forward(self, w, op);   /* fences, device calls */
    /* the transaction's lanes first: a lane that must abort makes the whole instruction wait
     * (not performed for any lane), so nothing may be performed before that is known */
    uint32_t doomed = 0;
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *g = &op->seg[i];
        if (!(inside & (1u << g->lane)) || (doomed & (1u << g->lane))) continue;
        kt_lane *ln = &s->lane[g->lane];
        int r = op->kind == EMU_MEM_LOAD
                    ? kt_tx_load(P, w, g->lane, ln, g->addr, g->size, op->data + g->off,
                                 may_abort(s, g->lane))
                    : (kt_tx_store(ln, g->addr, g->size, op->data + g->off) ? KT_OK
                                                                            : KT_NO_MEMORY);
        if (r == KT_NO_MEMORY) {
            emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for a KILO TM transaction log");
            return EMU_MEM_DONE;
        }
        if (r == KT_DOOMED) doomed |= 1u << g->lane;
    }
    if (doomed) {
        s->doomed |= doomed;
        op->restart_lanes = doomed;
        return EMU_MEM_RESTART;
    }
    return forward_lanes(self, w, op, op->mask & ~inside);
}

/* Lanes of s whose transaction runs in SIMT entry `at` or above it move up by one: an entry
 * was inserted there (emu_warp_tx_abort). */
static void shift_bases(kt_warp *s, uint32_t at)
{
    for (uint32_t mk = s->in_tx; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (s->base[l] >= at) s->base[l]++;
    }
}

/* The attempt holding lane l. */
static kt_attempt *attempt_of(kt_warp *s, int l)
{
    for (uint32_t i = 0; i < s->natt; i++)
        if (s->att[i].lanes & (1u << l)) return &s->att[i];
    return NULL;
}

/* Aborts the doomed lanes inside their transactions, a group (same attempt, same entry) at a
 * time. */
static void abort_doomed(kt_policy *P, kt_warp *s)
{
    uint32_t left = s->doomed & s->in_tx;
    s->doomed = 0;
    while (left) {
        int l0 = __builtin_ctz(left);
        kt_attempt *a = attempt_of(s, l0);
        uint32_t group = 0;
        for (uint32_t mk = left; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (attempt_of(s, l) == a && s->base[l] == s->base[l0]) group |= 1u << l;
        }
        left &= ~group;
        if (!a) continue;
        uint32_t at = s->base[l0];
        for (uint32_t mk = group; mk; mk &= mk - 1) {
            kt_lane *ln = &s->lane[__builtin_ctz(mk)];
            ln->reads.n = ln->writes.n = 0;
            ln->depth = 1;   /* nested begins are flattened: back to the outermost */
            ln->aborts++;
        }
        pthread_mutex_lock(&P->commit_lock);
        P->st.aborted += (uint64_t)__builtin_popcount(group);
        P->st.early_aborts += (uint64_t)__builtin_popcount(group);
        pthread_mutex_unlock(&P->commit_lock);
        uint32_t top = emu_warp_tx_abort(s->w, a->ck, group, at);
        shift_bases(s, at);
        for (uint32_t mk = group; mk; mk &= mk - 1) s->base[__builtin_ctz(mk)] = top;
    }
}

static void kt_warp_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    kt_policy *P = kt_of(self);
    kt_warp *s = state_of(P, w, false);
    if (s && reason != EMU_STOP_FAULT && reason != EMU_STOP_EXIT) {
        if (s->begun) {
            emu_warp_checkpoint *ck = emu_warp_checkpoint_take(w, s->begun);
            if (s->natt == s->att_cap) {
                uint32_t nc = s->att_cap ? 2 * s->att_cap : 4;
                kt_attempt *a = realloc(s->att, nc * sizeof *a);
                if (a) {
                    s->att = a;
                    s->att_cap = nc;
                }
            }
            if (!ck || s->natt == s->att_cap) {
                emu_warp_checkpoint_free(ck);
                emu_warp_abort(w, EMU_FAULT_OUT_OF_RESOURCES,
                               "out of host memory for a KILO TM checkpoint");
            } else {
                s->att[s->natt++] = (kt_attempt){s->begun, ck};
                uint32_t at = emu_warp_checkpoint_entry(ck);
                for (uint32_t mk = s->begun; mk; mk &= mk - 1) s->base[__builtin_ctz(mk)] = at;
            }
            s->begun = 0;
        }
        if (s->aborted) {
            for (uint32_t i = 0; i < s->natt; i++) {
                uint32_t lanes = s->att[i].lanes & s->aborted;
                if (!lanes) continue;
                uint32_t top = emu_warp_tx_retry(w, s->att[i].ck, lanes, s->retry_rpc);
                for (uint32_t mk = lanes; mk; mk &= mk - 1) s->base[__builtin_ctz(mk)] = top;
            }
            s->aborted = 0;
        }
        if (s->doomed) abort_doomed(P, s);
    }
    if (s && reason == EMU_STOP_EXIT) {
        /* timed: the model takes the warp's last commit first (cycles.c releases it) */
        if (P->timed) s->exit_pending = true;
        else kt_release_state(P, s);
    }
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
}

emu_mem_policy *timing_kilotm_create(uint32_t warps_per_sm, uint32_t sm_count,
                                     emu_mem_policy *next)
{
    kt_policy *P = calloc(1, sizeof *P);
    if (!P) return NULL;
    P->nsm = sm_count ? sm_count : 1;
    P->tx_warps = calloc(P->nsm, sizeof *P->tx_warps);
    P->tx_lanes = calloc(P->nsm, sizeof *P->tx_lanes);
    if (!P->tx_warps || !P->tx_lanes) {
        free(P->tx_warps);
        free(P->tx_lanes);
        free(P);
        return NULL;
    }
    P->warps_per_sm = warps_per_sm;
    pthread_mutex_init(&P->commit_lock, NULL);
    pthread_mutex_init(&P->states_lock, NULL);
    P->pol = (emu_mem_policy){
        .name = "kilotm",
        .wants = next ? next->wants & EMU_POLICY_SPACES : 0,
        .access = kt_access,
        .warp_stopped = kt_warp_stopped,
        .next = next,
        .state = P,
    };
    return &P->pol;
}

static void free_states(kt_policy *P)
{
    for (kt_warp *s = P->all, *n; s; s = n) {
        n = s->next;
        for (uint32_t i = 0; i < s->natt; i++) emu_warp_checkpoint_free(s->att[i].ck);
        free(s->att);
        free(s->rec.addr);
        for (int l = 0; l < EMU_WARP_SIZE; l++) {
            kt_log_free(&s->lane[l].reads);
            kt_log_free(&s->lane[l].writes);
        }
        free(s);
    }
    P->all = P->free_list = NULL;
}

void timing_kilotm_destroy(emu_mem_policy *p)
{
    if (!p) return;
    kt_policy *P = kt_of(p);
    free_states(P);
    pthread_mutex_destroy(&P->commit_lock);
    pthread_mutex_destroy(&P->states_lock);
    free(P->tx_warps);
    free(P->tx_lanes);
    free(P);
}

emu_mem_policy *timing_kilotm_find(emu_mem_policy *p)
{
    for (; p; p = p->next)
        if (p->access == kt_access) return p;
    return NULL;
}

emu_mem_policy *timing_kilotm_over(emu_mem_policy *launch, emu_mem_policy *below)
{
    emu_mem_policy *tm = timing_kilotm_find(launch);
    if (!tm) return below;
    tm->next = below;
    tm->wants = below ? below->wants & EMU_POLICY_SPACES : 0;
    ((kt_policy *)tm->state)->over_det = true;
    return tm;
}

void timing_kilotm_rewind(emu_mem_policy *p)
{
    kt_policy *P = kt_of(p);
    /* the warps of an earlier run are gone with their grid: their states are simply dropped */
    free_states(P);
    memset(P->tx_warps, 0, P->nsm * sizeof *P->tx_warps);
    memset(P->tx_lanes, 0, P->nsm * sizeof *P->tx_lanes);
    P->tx_lanes_all = 0;
}

void timing_kilotm_get_stats(const emu_mem_policy *p, timing_kilotm_stats *out)
{
    *out = ((const kt_policy *)p->state)->st;
}
