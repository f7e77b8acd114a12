/* skeleton.c: the engine skeleton (skeleton.h): SMs, CTA slots, the storage pools of CTAs,
 * SM ownership by host threads, CTA issue, and the epoch loop with its barriers. */
#include "timing/engine/engine_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

bool eng_init(eng_run *E, emu_grid *g, const timing_engine_config *cfg, uint32_t slots_per_sm,
              uint64_t max_slots, uint32_t max_threads)
{
    memset(E, 0, sizeof *E);
    E->g = g;
    E->cfg = cfg;
    E->nsm = cfg->sm_count ? cfg->sm_count : 1;
    E->K = slots_per_sm ? slots_per_sm : 1;
    uint64_t n = (uint64_t)E->nsm * E->K;
    if (n > max_slots) n = max_slots;
    /* no SM gets more slots than exist: gslot k * SMs + sm < n */
    E->K = (uint32_t)((n + E->nsm - 1) / E->nsm);
    if (!E->K) E->K = 1;
    E->ncta = emu_grid_cta_count(g);
    E->perm_a = 1;
    E->perm_b = 0;
    if (!max_threads) max_threads = 1;
    if (max_threads > E->nsm) max_threads = E->nsm;
    E->max_threads = E->nthreads_alloc = max_threads;
    E->nthreads = max_threads;
    if (n > UINT32_MAX) return false;
    E->nslots = (uint32_t)n;
    E->sms = calloc(E->nsm, sizeof *E->sms);
    /* SM by SM: the slots a host thread works on lie together */
    E->slots = calloc((size_t)E->nsm * E->K, sizeof *E->slots);
    E->threads = calloc(max_threads, sizeof *E->threads);
    if (!E->sms || !E->slots || !E->threads) return false;
    for (uint32_t s = 0; s < E->nsm; s++) {
        E->sms[s].id = s;
        for (uint32_t k = 0; k < E->K; k++) {
            eng_slot *sl = eng_slot_at(E, s, k);
            sl->sm = s;
            sl->k = k;
            sl->gslot = k * E->nsm + s;
        }
    }
    for (uint32_t t = 0; t < max_threads; t++) {
        E->threads[t].run = E;
        E->threads[t].tid = t;
    }
    return true;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void eng_issue_shuffle(eng_run *E, timing_rng *rng)
{
    if (E->ncta <= 1) return;
    do E->perm_a = 1 + timing_rng_below(rng, E->ncta - 1);
    while (gcd64(E->perm_a, E->ncta) != 1);
    E->perm_b = timing_rng_below(rng, E->ncta);
}

bool eng_issue_take(eng_run *E, uint64_t *cta)
{
    if (__atomic_load_n(&E->issued, __ATOMIC_RELAXED) >= E->ncta) return false;
    uint64_t i = __atomic_fetch_add(&E->issued, 1, __ATOMIC_RELAXED);
    if (i >= E->ncta) return false;
    *cta = (uint64_t)(((unsigned __int128)E->perm_a * i + E->perm_b) % E->ncta);
    return true;
}

uint64_t eng_issue_left(const eng_run *E)
{
    uint64_t i = __atomic_load_n(&E->issued, __ATOMIC_RELAXED);
    return i < E->ncta ? E->ncta - i : 0;
}

emu_cta *eng_slot_launch(eng_run *E, eng_slot *s, uint64_t cta, eng_thread *T)
{
    assert(!s->cta);
    emu_cta *store = T->npool ? T->pool[T->npool - 1] : NULL;
    bool lent = !store && s->storage && !s->storage_used;
    emu_cta *c = lent ? emu_cta_create_at(s->storage, E->g, cta, s->sm, s->regs)
                      : emu_cta_create_in(store, E->g, cta, s->sm, s->regs);
    if (!c) return NULL;
    if (store) T->npool--;
    if (lent) s->storage_used = true;
    s->cta = c;
    return c;
}

void eng_slot_retire(eng_run *E, eng_slot *s, eng_thread *T)
{
    (void)E;
    emu_cta *c = s->cta;
    if (!c) return;
    T->st.warp_instructions += timing_cta_instructions(c);
    s->cta = NULL;
    if (T->npool == T->pool_cap) {
        uint32_t ncap = T->pool_cap ? 2 * T->pool_cap : 16;
        emu_cta **np = realloc(T->pool, ncap * sizeof *np);
        if (!np) {
            emu_cta_destroy(c);
            return;
        }
        T->pool = np;
        T->pool_cap = ncap;
    }
    T->pool[T->npool++] = c;
}

/* ---------------------------------------------------------------- the epoch loop */

static void epoch_end(void *arg)
{
    eng_thread *T = arg;
    eng_run *E = T->run;
    E->done = E->inst->serial ? !E->inst->serial(E, T) : true;
}

static void thread_main(void *arg, uint32_t tid)
{
    eng_run *E = arg;
    eng_thread *T = &E->threads[tid];
    const eng_instance *I = E->inst;
    uint32_t nt = E->nthreads;
    uint32_t nshares = E->nshares ? E->nshares : nt;
    while (!E->done) {
        for (uint32_t p = 0; p < I->nphases; p++) {
            const eng_phase *ph = &I->phases[p];
            switch (ph->kind) {
            case ENG_PHASE_SMS:
                for (uint32_t sm = tid; sm < E->nsm; sm += nt) ph->run(E, T, sm);
                break;
            case ENG_PHASE_SHARES:
                for (uint32_t i = tid; i < nshares; i += nt) ph->run(E, T, i);
                break;
            case ENG_PHASE_THREAD:
                ph->run(E, T, tid);
                break;
            }
            timing_barrier_wait(&E->bar, p + 1 == I->nphases ? epoch_end : NULL, T);
        }
    }
}

/* The pool knows how many threads it got: SM ownership, the barrier, the first placement. */
static void ready(void *arg, uint32_t n)
{
    eng_run *E = arg;
    assert(n >= 1 && n <= E->max_threads);
    E->nthreads = n;
    for (uint32_t s = 0; s < E->nsm; s++) E->sms[s].owner = s % n;
    timing_barrier_init(&E->bar, n);
    E->done = E->inst->begin ? !E->inst->begin(E, &E->threads[0]) : false;
}

uint32_t eng_run_epochs(eng_run *E, const eng_instance *inst, void *state)
{
    E->inst = inst;
    E->state = state;
    uint32_t n = timing_pool_run(E->max_threads, ready, thread_main, E);
    timing_barrier_destroy(&E->bar);
    return n;
}

void eng_thread_pool_free(eng_thread *T)
{
    for (uint32_t i = 0; i < T->npool; i++) emu_cta_destroy(T->pool[i]);
    free(T->pool);
    T->pool = NULL;
    T->npool = T->pool_cap = 0;
}

void eng_fini(eng_run *E, timing_stats *st)
{
    for (uint32_t t = 0; E->threads && t < E->nthreads_alloc; t++) {
        eng_thread *T = &E->threads[t];
        if (st) timing_stats_add(st, &T->st);
        eng_thread_pool_free(T);
    }
    for (uint64_t i = 0; E->slots && i < (uint64_t)E->nsm * E->K; i++) {
        eng_slot *s = &E->slots[i];
        if (!s->cta) continue;
        if (st) st->warp_instructions += timing_cta_instructions(s->cta);
        emu_cta_destroy(s->cta);
    }
    free(E->sms);
    free(E->slots);
    free(E->threads);
    E->sms = NULL;
    E->slots = NULL;
    E->threads = NULL;
}
