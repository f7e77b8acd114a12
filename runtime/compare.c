/* compare.c: --engine=compare: every launch runs on two executors from the same snapshot of
 * device memory, and what they leave is compared byte for byte.
 *
 * The reference executor runs first (today the step interpreter; the JIT's arrival makes the
 * interpreter the reference), then device memory, the heap and pending device output are put
 * back and the primary executor runs; its results are the ones the program sees. Compared:
 * every byte of every allocation, the device heap, the device printf output, the fault (kind,
 * block, thread, address, PTX line), every warp's instruction count, the engine's
 * statistics and, where the launch has an event sink (--timing, --stats, --trace, ...), every
 * warp's events (a digest of each field the executor records). Without determinism the two runs must follow one schedule, so they run on one
 * host thread; under GPUDet the schedule does not matter and the configured threads are used.
 *
 * A difference is a bug in ptxsim, not in the program: it is reported with the kernel, the
 * first differing byte's address and, for memory, the block, thread and PTX line of the last
 * store each executor made to it (found by running both once more with an event sink watching
 * that address), and the launch fails with cudaErrorUnknown, sticky, so a test cannot miss it. */
#include "runtime/rt_internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the last store to an address */

typedef struct watch {
    emu_event_sink sink;
    pthread_mutex_t lock;
    uint64_t addr;            /* generic address watched */
    bool seen;
    uint64_t cta;
    uint32_t warp, lane, func, pc;
} watch;

static bool writes(uint8_t cls)
{
    switch (cls) {
    case EMU_CLS_ST_GLOBAL: case EMU_CLS_ST_SHARED: case EMU_CLS_ST_LOCAL:
    case EMU_CLS_ST_GENERIC: case EMU_CLS_ATOMIC: case EMU_CLS_ATOMIC_SHARED: case EMU_CLS_ASYNC:
    case EMU_CLS_SURF: case EMU_CLS_TENSOR_MEM:
        return true;
    default:
        return false;
    }
}

static void watch_consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    watch *wt = self->state;
    pthread_mutex_lock(&wt->lock);
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        if (!(e->flags & EMU_EV_MEM) || !writes(e->cls) || e->stop == EMU_STOP_MEMORDER) continue;
        for (uint32_t mk = e->mem_lanes & e->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t a = emu_event_lane_addr(e, l);
            if (wt->addr >= a && wt->addr - a < e->size) {
                wt->seen = true;
                wt->cta = emu_warp_cta_linear(w);
                wt->warp = emu_warp_id(w);
                wt->lane = (uint32_t)l;
                wt->func = e->func;
                wt->pc = e->pc;
            }
        }
    }
    pthread_mutex_unlock(&wt->lock);
}

/* "thread (x,y,z) in block (a,b,c) at PTX line N" for what w saw, or "no store". */
static void describe_writer(const watch *w, const emu_launch *L, char *buf, size_t len)
{
    if (!w->seen) {
        snprintf(buf, len, "no instruction stored to it");
        return;
    }
    const ptx_module *m = emu_module_ptx(L->module);
    uint32_t line = 0;
    if (w->func < m->nfuncs && w->pc < m->funcs[w->func].ninstrs)
        line = m->funcs[w->func].instrs[w->pc].line;
    uint64_t t = (uint64_t)w->warp * EMU_WARP_SIZE + w->lane;
    emu_dim3 b = L->block, g = L->grid;
    snprintf(buf, len,
             "last stored by thread (%u,%u,%u) in block (%" PRIu64 ",%" PRIu64 ",%" PRIu64
             ") at PTX line %u", (unsigned)(t % b.x), (unsigned)(t / b.x % b.y),
             (unsigned)(t / ((uint64_t)b.x * b.y)), w->cta % g.x, w->cta / g.x % g.y,
             w->cta / ((uint64_t)g.x * g.y), line);
}

/* ---------------------------------------------------------------- one run */

/* ---------------------------------------------------------------- the events of both runs
 *
 * Where the launch has a sink, the primary executor records events (the JIT in its event
 * variant), and both runs also hand their events to a digest: per warp, a count and a hash of
 * every field an executor fills (the addresses of the lanes in mem_lanes only: the rest of a
 * ring entry holds whatever it held). A warp's events come from one host thread at a time, so
 * its slot needs no lock. */
typedef struct event_digest {
    emu_event_sink sink;
    uint32_t wpc;             /* warps per CTA */
    size_t nwarps;
    uint64_t *hash, *count;   /* per warp, by CTA linear id * wpc + warp id */
    bool lost;                /* a warp out of range (a ptxsim bug) */
} event_digest;

static inline uint64_t digest_add(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static void digest_consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    event_digest *d = self->state;
    size_t k = (size_t)emu_warp_cta_linear(w) * d->wpc + emu_warp_id(w);
    if (k >= d->nwarps) {
        d->lost = true;
        return;
    }
    uint64_t h = d->hash[k];
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        h = digest_add(h, (uint64_t)e->pc << 32 | e->func);
        h = digest_add(h, (uint64_t)e->active << 32 | e->mask);
        /* a compact event and its full form are the same access */
        uint64_t flags = e->flags & ~EMU_EV_COMPACT;
        h = digest_add(h, (uint64_t)e->op << 48 | (uint64_t)e->cls << 40 | (uint64_t)e->stop << 32 |
                              flags << 24 | (uint64_t)e->space << 16 | e->size);
        h = digest_add(h, (uint64_t)e->mem_lanes << 32 | e->taken);
        h = digest_add(h, e->reconv);
        if (e->flags & EMU_EV_MEM)
            for (uint32_t mk = e->mem_lanes; mk; mk &= mk - 1)
                h = digest_add(h, emu_event_lane_addr(e, __builtin_ctz(mk)));
    }
    d->hash[k] = h;
    d->count[k] += n;
}

static bool digest_init(event_digest *d, const emu_launch *L)
{
    memset(d, 0, sizeof *d);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    d->wpc = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    d->nwarps = (size_t)L->grid.x * L->grid.y * L->grid.z * d->wpc;
    d->hash = calloc(d->nwarps ? d->nwarps : 1, sizeof *d->hash);
    d->count = calloc(d->nwarps ? d->nwarps : 1, sizeof *d->count);
    d->sink.consume = digest_consume;
    d->sink.state = d;
    return d->hash && d->count;
}

static void digest_free(event_digest *d)
{
    free(d->hash);
    free(d->count);
    memset(d, 0, sizeof *d);
}

/* The first warp whose events differ between a (reference) and b (primary); false if none. */
static bool digests_differ(const event_digest *a, const event_digest *b, char *why, size_t len)
{
    if (a->lost || b->lost) {
        snprintf(why, len, "events came from a warp outside the grid");
        return true;
    }
    for (size_t k = 0; k < a->nwarps; k++)
        if (a->count[k] != b->count[k] || a->hash[k] != b->hash[k]) {
            snprintf(why, len,
                     "the events of warp %u of block %zu differ: %" PRIu64 " events on the "
                     "reference executor, %" PRIu64 " on the primary one%s",
                     (unsigned)(k % a->wpc), k / a->wpc, a->count[k], b->count[k],
                     a->count[k] == b->count[k] ? " (their fields differ)" : "");
            return true;
        }
    return false;
}

typedef struct run_result {
    emu_grid *g;
    bool ok;
    emu_fault fault;
    timing_stats st;
    uint64_t *counts;
    size_t ncounts;
} run_result;

static bool run_once(emu_launch L, uint8_t executor, const timing_engine_config *base,
                     emu_event_sink *events, bool primary, run_result *r)
{
    memset(r, 0, sizeof *r);
    L.executor = executor;
    L.events = events;
    emu_fault f = {0};
    r->g = emu_grid_create(&L, &f);
    if (!r->g) {
        r->fault = f;
        return false;
    }
    if (!emu_grid_keep_warp_counts(r->g)) return false;
    timing_engine_config ec = *base;
    ec.stats = &r->st;
    /* the schedule goes into --timeline once, from the primary run */
    if (!primary) ec.timeline = NULL;
    r->ok = timing_run_grid(r->g, &ec);
    const emu_fault *gf = emu_grid_fault(r->g);
    if (gf) r->fault = *gf;
    size_t n;
    const uint64_t *c = emu_grid_warp_counts(r->g, &n);
    r->counts = malloc((n ? n : 1) * sizeof *r->counts);
    if (!r->counts) return false;
    memcpy(r->counts, c, n * sizeof *c);
    r->ncounts = n;
    return true;
}

static void run_free(run_result *r)
{
    if (r->g) emu_grid_destroy(r->g);
    free(r->counts);
    memset(r, 0, sizeof *r);
}

/* Finds what differs between the reference run a and the primary run b (memory is compared
 * by the caller); false when nothing does. */
static bool results_differ(const run_result *a, const run_result *b, const emu_launch *L,
                           char *why, size_t len)
{
    const emu_fault *fa = &a->fault, *fb = &b->fault;
    if (a->ok != b->ok || fa->kind != fb->kind || fa->address != fb->address ||
        fa->ptx_line != fb->ptx_line || memcmp(&fa->cta, &fb->cta, sizeof fa->cta) != 0 ||
        memcmp(&fa->thread, &fb->thread, sizeof fa->thread) != 0 ||
        strcmp(fa->message, fb->message) != 0) {
        snprintf(why, len, "the fault differs: reference: %s; primary: %s",
                 fa->kind ? fa->message : "none", fb->kind ? fb->message : "none");
        return true;
    }
    uint32_t wpc = (uint32_t)((L->block.x * L->block.y * L->block.z + EMU_WARP_SIZE - 1) /
                              EMU_WARP_SIZE);
    for (size_t i = 0; i < a->ncounts && i < b->ncounts; i++)
        if (a->counts[i] != b->counts[i]) {
            uint64_t cta = i / wpc;
            snprintf(why, len,
                     "warp %u of block %" PRIu64 " issued %" PRIu64 " instructions on the "
                     "reference executor, %" PRIu64 " on the primary one", (unsigned)(i % wpc),
                     cta, a->counts[i], b->counts[i]);
            return true;
        }
    if (memcmp(&a->st, &b->st, sizeof a->st) != 0) {
        snprintf(why, len,
                 "the engine's statistics differ (instructions %" PRIu64 " / %" PRIu64
                 ", quanta %" PRIu64 " / %" PRIu64 ", serial atomics %" PRIu64 " / %" PRIu64
                 ", simulated cycles %" PRIu64 " / %" PRIu64 ")",
                 a->st.warp_instructions, b->st.warp_instructions, a->st.quanta, b->st.quanta,
                 a->st.serial_atomics, b->st.serial_atomics, a->st.cycles, b->st.cycles);
        return true;
    }
    return false;
}

/* Whether the kernel's module can call the device heap (malloc/free). */
static bool uses_heap(const emu_launch *L)
{
    const ptx_module *m = emu_module_ptx(L->module);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_decl &&
            (strcmp(m->funcs[i].name, "malloc") == 0 || strcmp(m->funcs[i].name, "free") == 0))
            return true;
    return false;
}

emu_grid *rt_compare_run(const emu_launch *L, const timing_engine_config *ec, const char *name,
                         bool *ok, cudaError_t *internal)
{
    *internal = cudaSuccess;
    *ok = false;
    timing_engine_config base = *ec;
    /* without determinism one schedule for both runs: the fixed order on one host thread */
    if (base.det == TIMING_DET_OFF) base.host_threads = 1;
    /* the heap is made by the first device malloc: make it before the snapshot, so both runs
     * see the same heap at the same address */
    if (uses_heap(L) && !emu_heap_ensure()) {
        fprintf(stderr, "ptxsim: --engine=compare: no device memory for the heap of %s\n", name);
        *internal = cudaErrorMemoryAllocation;
        return NULL;
    }
    /* counts frees: nothing but another host thread frees while the launch runs */
    uint64_t generation = emu_device_generation();
    emu_snapshot *before = emu_snapshot_take(), *after_ref = NULL;
    if (!before) {
        fprintf(stderr, "ptxsim: --engine=compare: out of host memory snapshotting device memory "
                        "for %s\n", name);
        *internal = cudaErrorMemoryAllocation;
        return NULL;
    }
    run_result ref, prim;
    /* the cycle model reads its warps' instructions from their events: both runs feed it */
    emu_event_sink *model = base.cycle_model ? timing_model_sink() : NULL;
    /* --check and --watch observe the primary run only: the reference run gets the policy
     * below them */
    emu_launch Lref = *L;
    while (Lref.policy && (strcmp(Lref.policy->name, "check") == 0 ||
                           strcmp(Lref.policy->name, "watch") == 0))
        Lref.policy = Lref.policy->next ? Lref.policy->next : emu_direct_policy();
    /* with a sink, both runs' events go to a digest too */
    event_digest dref, dprim;
    bool digests = L->events != NULL;
    if (digests && (!digest_init(&dref, L) || !digest_init(&dprim, L))) {
        digest_free(&dref);
        digest_free(&dprim);
        digests = false;
        rt_log(1, "--engine=compare: no host memory for the event digests of %s; events are not "
                  "compared", name);
    }
    timing_tee tref, tprim;
    bool ran = run_once(Lref, EMU_EXECUTOR_STEP, &base,
                        digests ? timing_tee_sink(&tref, model, &dref.sink) : model, false, &ref);
    if (ran) after_ref = emu_snapshot_take();
    emu_snapshot_restore(before);
    timing_igpu_rewind(L->policy);   /* --igpu: the pages and counts of the run above go */
    /* with a sink (--stats, --trace, --timing) the JIT runs its event variant */
    uint8_t primary = rt_g.cfg.compare_jit ? EMU_EXECUTOR_JIT : EMU_EXECUTOR_INTERP;
    bool ran2 = run_once(*L, primary, &base,
                         digests ? timing_tee_sink(&tprim, L->events, &dprim.sink) : L->events,
                         true, &prim);
    if (!ran || !ran2 || !after_ref) {
        if (digests) {
            digest_free(&dref);
            digest_free(&dprim);
        }
        fprintf(stderr, "ptxsim: --engine=compare: out of host memory running %s twice\n", name);
        *internal = cudaErrorMemoryAllocation;
        run_free(&ref);
        emu_snapshot_free(before);
        emu_snapshot_free(after_ref);
        *ok = prim.ok;
        emu_grid *g = prim.g;
        prim.g = NULL;
        run_free(&prim);
        return g;
    }
    char why[2048] = "";
    uint64_t addr = 0;
    uint8_t was = 0, now = 0;
    /* A time limit falls at a different instruction on each executor (their speeds differ), so
     * a run the watchdog's clock ended is not compared; an instruction limit is, as it falls at
     * the same instruction on both. */
    bool clocked_out = base.watchdog_seconds > 0 &&
                       (ref.fault.kind == EMU_FAULT_TIMEOUT || prim.fault.kind == EMU_FAULT_TIMEOUT);
    if (clocked_out)
        rt_log(1, "--engine=compare: %s was ended by the watchdog's time limit; its two runs are "
                  "not compared", name);
    /* The snapshots hold every live allocation: one freed meanwhile (by a host thread that
     * did not stop the device first, rt_device_stop) would read as a difference the executors
     * did not make, and the restore wrote into memory no longer allocated. Said as what it is,
     * and not compared. */
    bool freed = emu_device_generation() != generation;
    if (freed) {
        fprintf(stderr, "ptxsim: --engine=compare: device memory was freed while %s ran, not by "
                        "the launch (a host thread did not stop the device first: a ptxsim "
                        "bug); its two runs cannot be compared\n", name);
        *internal = cudaErrorUnknown;
    }
    bool differ = !clocked_out && !freed && results_differ(&ref, &prim, L, why, sizeof why);
    if (!differ && !clocked_out && !freed && digests)
        differ = digests_differ(&dref, &dprim, why, sizeof why);
    if (digests) {
        digest_free(&dref);
        digest_free(&dprim);
    }
    if (!differ && !clocked_out && !freed) {
        char mwhy[256];
        if (emu_snapshot_differs(after_ref, &addr, &was, &now, mwhy, sizeof mwhy)) {
            differ = true;
            if (addr) {
                /* who stored it, on each executor: both once more, watching the byte */
                watch wr = { .sink = { .consume = watch_consume }, .addr = addr };
                watch wp = wr;
                wr.sink.state = &wr;
                wp.sink.state = &wp;
                pthread_mutex_init(&wr.lock, NULL);
                pthread_mutex_init(&wp.lock, NULL);
                run_result x;
                timing_tee tr, tp;
                emu_snapshot_restore(before);
                run_once(Lref, EMU_EXECUTOR_STEP, &base, timing_tee_sink(&tr, model, &wr.sink),
                         false, &x);
                run_free(&x);
                emu_snapshot_restore(before);
                run_once(Lref, primary, &base, timing_tee_sink(&tp, model, &wp.sink), false,
                         &x);
                run_free(&x);
                char a[256], b[256];
                describe_writer(&wr, L, a, sizeof a);
                describe_writer(&wp, L, b, sizeof b);
                snprintf(why, sizeof why,
                         "the byte at 0x%" PRIx64 " is 0x%02x after the reference executor (%s) "
                         "and 0x%02x after the primary one (%s)", addr, was, a, now, b);
            } else {
                snprintf(why, sizeof why, "%s", mwhy);
            }
        }
    }
    if (differ) {
        fprintf(stderr, "ptxsim: --engine=compare: the step interpreter and the %s differ "
                        "running %s: %s\n", rt_g.cfg.compare_jit ? "JIT" : "block interpreter",
                name, why);
        *internal = cudaErrorUnknown;
    }
    if (ec->stats) timing_stats_add(ec->stats, &prim.st);
    *ok = prim.ok;
    emu_grid *g = prim.g;
    prim.g = NULL;
    run_free(&prim);
    run_free(&ref);
    emu_snapshot_free(before);
    emu_snapshot_free(after_ref);
    return g;
}
