/* conformance_harness.c: running PTX snippets for the conformance suites, and the CPU
 * reference helpers they share. See conformance_harness.h. */
#include "tests/unit/conformance_harness.h"
#include "tests/unit/ptx_kernels.h"

#include "frontend/ptx.h"

#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- running a module */

/* The executor whose results the rows check, compared with the step reference: the block
 * interpreter, or the LLVM JIT when CONF_EXECUTOR=jit (tests/run_all.sh runs the tables on
 * both). */
static uint8_t conf_primary(void)
{
    const char *e = getenv("CONF_EXECUTOR");
    if (e && strcmp(e, "jit") == 0) return EMU_EXECUTOR_JIT;
    if (e && strcmp(e, "auto") == 0) return EMU_EXECUTOR_AUTO;
    return EMU_EXECUTOR_INTERP;
}

static const char *conf_primary_name(void)
{
    switch (conf_primary()) {
    case EMU_EXECUTOR_JIT: return "the JIT";
    case EMU_EXECUTOR_AUTO: return "the auto executor";
    default: return "the block interpreter";
    }
}

const char *conf_status_name(conf_status s)
{
    switch (s) {
    case CONF_OK: return "ok";
    case CONF_PARSE_FAILED: return "PTX parse failed";
    case CONF_NO_KERNEL: return "kernel not found";
    case CONF_LOAD_FAILED: return "module load rejected";
    case CONF_LAUNCH_FAILED: return "launch refused";
    case CONF_FAULTED: return "kernel faulted";
    case CONF_EXECUTORS_DIFFER: return "executors differ";
    }
    return "?";
}

static void conf_msg(conf_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* The PTX text with line numbers, shortened to fit a failure message. */
static void conf_numbered(const char *ptx, char *out, size_t cap)
{
    size_t n = 0;
    unsigned line = 1;
    const char *p = ptx;
    while (*p && n + 64 < cap) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 120) len = 120;
        n += (size_t)snprintf(out + n, cap - n, "%4u| %.*s\n", line++, (int)len, p);
        if (!e) break;
        p = e + 1;
    }
    if (*p && n + 8 < cap) snprintf(out + n, cap - n, "...\n");
}

/* What the reference executor left: device memory (a snapshot), its fault, its warps'
 * instruction counts. */
typedef struct conf_reference {
    emu_snapshot *after;
    bool ok;
    emu_fault fault;
    timing_stats st;
    uint64_t *counts;
    size_t ncounts;
} conf_reference;

static void conf_reference_free(conf_reference *ref)
{
    if (ref->after) emu_snapshot_free(ref->after);
    free(ref->counts);
    memset(ref, 0, sizeof *ref);
}

/* Warp instructions past which a conformance launch ends with EMU_FAULT_TIMEOUT: far above
 * what any table runs, so a kernel that no longer ends (a broken exit or reconvergence, as a
 * mutant plants) fails its test in seconds instead of holding it until the suite's timeout. */
#define CONF_WATCHDOG_INSTS UINT64_C(20000000)

/* CONF_TIMING=1: both runs on the cycle model (a V100 of the launch's 4 SMs, host threads
 * CONF_TIMING's value), which reads their events: the primary executor runs with a sink (the
 * JIT its event variant, its run-ahead stops included), and the engine's statistics (cycles
 * and every counter of the model) must agree as well. */
static unsigned conf_timing_threads(void)
{
    const char *e = getenv("CONF_TIMING");
    int n = e ? atoi(e) : 0;
    return n > 0 ? (unsigned)n : 0;
}

static timing_gpu conf_gpu;

/* The engine's configuration of a conformance run: the stats go to *st. */
static void conf_engine_config(timing_engine_config *cfg, uint32_t sm_count, timing_stats *st)
{
    timing_engine_defaults(cfg);
    cfg->watchdog_insts = CONF_WATCHDOG_INSTS;
    /* Turns of the det-off short turn (1000 warp instructions), not the engine's long default:
     * the tests' kernels run a few thousand warp instructions a warp, and their turns are meant
     * to end inside them (budget stops on every µop of a loop). CONF_WARP_BUDGET=N: turns of N
     * warp instructions, CONF_SEED=S: seeded turns (slices of 1 to 2N drawn from S), so that
     * runs end at a kernel's every instruction */
    cfg->warp_budget = TIMING_DET_OFF_SHORT_TURN;
    const char *wb = getenv("CONF_WARP_BUDGET"), *seed = getenv("CONF_SEED");
    if (wb && atoi(wb) > 0) cfg->warp_budget = (uint64_t)atoi(wb);
    if (seed && atoi(seed) > 0) cfg->seed = (uint64_t)atoi(seed);
    memset(st, 0, sizeof *st);
    cfg->stats = st;
    unsigned threads = conf_timing_threads();
    if (threads) {
        conf_gpu = *timing_gpu_find("v100");
        conf_gpu.sm_count = (int)sm_count;
        cfg->cycle_model = true;
        cfg->gpu = &conf_gpu;
        cfg->sm_count = sm_count;
        cfg->host_threads = threads;
    }
}

/* CONF_POLICY=forward: both runs under a policy that passes every access on to the direct one
 * (emu_policy_forward) but is not it, so that no executor takes its memory fast path: the
 * JIT's translated accesses run their handlers from their slow paths and go on after them. */
static emu_mem_policy conf_forward_policy = {.name = "forward", .access = emu_policy_forward};

static emu_mem_policy *conf_policy(void)
{
    const char *e = getenv("CONF_POLICY");
    return e && strcmp(e, "forward") == 0 ? &conf_forward_policy : emu_direct_policy();
}

/* The launch's sink under CONF_TIMING: the model's, with the recorder (may be NULL) beside it. */
static emu_event_sink *conf_sink(emu_event_sink *recorder, timing_tee *tee)
{
    if (!conf_timing_threads()) return recorder;
    return recorder ? timing_tee_sink(tee, timing_model_sink(), recorder) : timing_model_sink();
}

/* Runs launch on the step executor and puts device memory back as it was; false when that
 * cannot be done (memory ran out, or the launch is refused: the block interpreter's run then
 * reports it alone). */
static bool conf_run_reference(const emu_launch *launch, conf_reference *ref)
{
    memset(ref, 0, sizeof *ref);
    emu_snapshot *before = emu_snapshot_take();
    if (!before) return false;
    emu_launch L = *launch;
    L.executor = EMU_EXECUTOR_STEP;
    timing_tee tee;
    L.events = conf_sink(L.events, &tee);
    emu_fault f;
    memset(&f, 0, sizeof f);
    emu_grid *g = emu_grid_create(&L, &f);
    bool made = g && emu_grid_keep_warp_counts(g);
    if (made) {
        timing_engine_config cfg;
        conf_engine_config(&cfg, L.sm_count, &ref->st);
        ref->ok = timing_run_grid(g, &cfg);
        const emu_fault *gf = emu_grid_fault(g);
        if (gf) ref->fault = *gf;
        size_t n;
        const uint64_t *c = emu_grid_warp_counts(g, &n);
        ref->counts = malloc((n ? n : 1) * sizeof *ref->counts);
        if (ref->counts) {
            memcpy(ref->counts, c, n * sizeof *c);
            ref->ncounts = n;
        }
        ref->after = emu_snapshot_take();
    }
    if (g) emu_grid_destroy(g);
    emu_snapshot_restore(before);
    emu_snapshot_free(before);
    if (!made || !ref->counts || !ref->after) {
        conf_reference_free(ref);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- events (CONF_EVENTS=1)
 *
 * With CONF_EVENTS set, both runs record their events through a sink (so the primary executor
 * runs its event-recording variant: the JIT's second compiled variant), and the streams must
 * agree too: per warp, in issue order, every field the executor fills, the addresses of the
 * lanes in mem_lanes only (the rest of a ring entry is whatever it held). */
/* a warp's events, each with its lanes' addresses beside it (lane_addr NULL in the copy) */
typedef struct conf_warp_events {
    emu_event *ev;
    uint64_t (*addr)[EMU_WARP_SIZE];
    size_t n, cap;
} conf_warp_events;
typedef struct conf_events {
    emu_event_sink sink;
    pthread_mutex_t lock;
    uint32_t wpc;                 /* warps per CTA */
    size_t nwarps;
    conf_warp_events *warp;       /* by CTA linear id * wpc + warp id */
    bool lost;                    /* out of memory, or a warp out of range */
} conf_events;

static bool conf_events_wanted(void)
{
    const char *e = getenv("CONF_EVENTS");
    return e && *e && strcmp(e, "0") != 0;
}

static void conf_events_consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    conf_events *ce = self->state;
    pthread_mutex_lock(&ce->lock);
    size_t k = (size_t)emu_warp_cta_linear(w) * ce->wpc + emu_warp_id(w);
    conf_warp_events *we = k < ce->nwarps ? &ce->warp[k] : NULL;
    if (!we) ce->lost = true;
    for (uint32_t i = 0; we && i < n; i++) {
        if (we->n == we->cap) {
            size_t cap = we->cap ? 2 * we->cap : 64;
            /* events are aligned to a cache line (emu.h): no realloc */
            emu_event *grown = aligned_alloc(_Alignof(emu_event), cap * sizeof *grown);
            uint64_t(*grown_addr)[EMU_WARP_SIZE] = malloc(cap * sizeof *grown_addr);
            if (!grown || !grown_addr) {
                free(grown);
                free(grown_addr);
                ce->lost = true;
                break;
            }
            if (we->n) memcpy(grown, we->ev, we->n * sizeof *grown);
            if (we->n) memcpy(grown_addr, we->addr, we->n * sizeof *grown_addr);
            free(we->ev);
            free(we->addr);
            we->ev = grown;
            we->addr = grown_addr;
            we->cap = cap;
        }
        uint64_t *addr = we->addr[we->n];
        /* field by field into zeroed storage: the ring's padding holds anything */
        emu_event *e = &we->ev[we->n++];
        const emu_event *x = &ev[i];
        memset(e, 0, sizeof *e);
        e->pc = x->pc;
        e->func = x->func;
        e->active = x->active;
        e->mask = x->mask;
        e->op = x->op;
        e->cls = x->cls;
        e->stop = x->stop;
        e->flags = x->flags & ~EMU_EV_COMPACT;   /* compact or not, the same access */
        e->space = x->space;
        e->size = x->size;
        e->mem_lanes = x->mem_lanes;
        e->taken = x->taken;
        e->reconv = x->reconv;
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            addr[l] = (x->flags & EMU_EV_MEM) && (x->mem_lanes >> l & 1)
                          ? emu_event_lane_addr(x, l)
                          : 0;
    }
    pthread_mutex_unlock(&ce->lock);
}

static bool conf_events_init(conf_events *ce, const emu_launch *L)
{
    memset(ce, 0, sizeof *ce);
    pthread_mutex_init(&ce->lock, NULL);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    ce->wpc = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE);
    ce->nwarps = (size_t)L->grid.x * L->grid.y * L->grid.z * ce->wpc;
    ce->warp = calloc(ce->nwarps ? ce->nwarps : 1, sizeof *ce->warp);
    ce->sink.consume = conf_events_consume;
    ce->sink.state = ce;
    return ce->warp != NULL;
}

static void conf_events_free(conf_events *ce)
{
    for (size_t i = 0; ce->warp && i < ce->nwarps; i++) {
        free(ce->warp[i].ev);
        free(ce->warp[i].addr);
    }
    free(ce->warp);
    pthread_mutex_destroy(&ce->lock);
    memset(ce, 0, sizeof *ce);
}

/* True, with the first difference in r's message, when the primary run's events (b) differ
 * from the reference's (a). */
static bool conf_events_differ(const conf_events *a, const conf_events *b, const char *name,
                               conf_result *r)
{
    if (a->lost || b->lost) {
        conf_msg(r, "%s: events were lost (out of host memory?)", name);
        return true;
    }
    for (size_t k = 0; k < a->nwarps; k++) {
        const conf_warp_events *x = &a->warp[k], *y = &b->warp[k];
        for (size_t i = 0; i < x->n || i < y->n; i++) {
            if (i >= x->n || i >= y->n) {
                conf_msg(r, "%s: %s: warp %zu recorded %zu events on the step executor, %zu on "
                         "%s", name, conf_status_name(CONF_EXECUTORS_DIFFER), k, x->n, y->n,
                         conf_primary_name());
                return true;
            }
            const emu_event *e = &x->ev[i], *f = &y->ev[i];
            bool same_addr = memcmp(x->addr[i], y->addr[i], sizeof x->addr[i]) == 0;
            if (memcmp(e, f, sizeof *e) == 0 && same_addr) continue;
            conf_msg(r, "%s: %s: warp %zu's event %zu: step executor pc %u func %u active %08x "
                     "mask %08x op %u stop %u flags %u size %u lanes %08x taken %08x reconv %u; "
                     "%s pc %u func %u active %08x mask %08x op %u stop %u flags %u size %u "
                     "lanes %08x taken %08x reconv %u%s (class %u/%u, space %u/%u)", name,
                     conf_status_name(CONF_EXECUTORS_DIFFER), k, i, e->pc, e->func, e->active,
                     e->mask, e->op, e->stop, e->flags, e->size, e->mem_lanes, e->taken, e->reconv,
                     conf_primary_name(), f->pc, f->func, f->active, f->mask, f->op, f->stop,
                     f->flags, f->size, f->mem_lanes, f->taken, f->reconv,
                     same_addr ? "" : " (addresses differ)",
                     e->cls, f->cls, e->space, f->space);
            return true;
        }
    }
    return false;
}

/* Compares the block interpreter's run (grid g, outcome ran) with the reference; true, with the
 * first difference in r's message, when they differ. */
static bool conf_executors_differ(const conf_reference *ref, emu_grid *g, bool ran,
                                  const char *name, conf_result *r)
{
    const emu_fault *gf = emu_grid_fault(g);
    emu_fault none;
    memset(&none, 0, sizeof none);
    const emu_fault *a = &ref->fault, *b = gf ? gf : &none;
    if (ref->ok != ran || a->kind != b->kind || a->ptx_line != b->ptx_line ||
        a->address != b->address || memcmp(&a->cta, &b->cta, sizeof a->cta) != 0 ||
        memcmp(&a->thread, &b->thread, sizeof a->thread) != 0) {
        conf_msg(r, "%s: %s: the step executor %s (%s at PTX line %u, thread (%u,%u,%u) block "
                 "(%u,%u,%u)); %s %s (%s at PTX line %u, thread (%u,%u,%u) "
                 "block (%u,%u,%u))", name, conf_status_name(CONF_EXECUTORS_DIFFER),
                 ref->ok ? "completed" : "faulted", emu_fault_kind_name(a->kind), a->ptx_line,
                 a->thread.x, a->thread.y, a->thread.z, a->cta.x, a->cta.y, a->cta.z,
                 conf_primary_name(), ran ? "completed" : "faulted", emu_fault_kind_name(b->kind), b->ptx_line,
                 b->thread.x, b->thread.y, b->thread.z, b->cta.x, b->cta.y, b->cta.z);
        return true;
    }
    size_t n;
    const uint64_t *c = emu_grid_warp_counts(g, &n);
    if (c && n == ref->ncounts) {
        for (size_t i = 0; i < n; i++)
            if (c[i] != ref->counts[i]) {
                conf_msg(r, "%s: %s: warp %zu (in launch order) executed %" PRIu64
                         " instructions on the step executor, %" PRIu64 " on %s", name,
                         conf_status_name(CONF_EXECUTORS_DIFFER), i, ref->counts[i], c[i],
                         conf_primary_name());
                return true;
            }
    } else if (c) {
        conf_msg(r, "%s: %s: %zu warp counts on the step executor, %zu on %s", name,
                 conf_status_name(CONF_EXECUTORS_DIFFER), ref->ncounts, n, conf_primary_name());
        return true;
    }
    uint64_t addr;
    uint8_t was, now;
    char why[256] = "";
    if (emu_snapshot_differs(ref->after, &addr, &was, &now, why, sizeof why)) {
        if (addr)
            conf_msg(r, "%s: %s: device memory at 0x%" PRIx64 " holds 0x%02x after the step "
                     "executor, 0x%02x after %s", name, conf_status_name(CONF_EXECUTORS_DIFFER),
                     addr, was, now, conf_primary_name());
        else
            conf_msg(r, "%s: %s: %s", name, conf_status_name(CONF_EXECUTORS_DIFFER), why);
        return true;
    }
    return false;
}

conf_status conf_run(const conf_launch *l, conf_result *r)
{
    memset(r, 0, sizeof *r);
    const char *name = l->name ? l->name : "conformance";
    ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    ptx_module *m = ptx_parse(l->ptx, strlen(l->ptx), name, &diag);
    if (!m) {
        char listing[2048];
        conf_numbered(l->ptx, listing, sizeof listing);
        conf_msg(r, "%s: %s:\n%s\n--- generated PTX ---\n%s", name,
                 conf_status_name(CONF_PARSE_FAILED), diag.text ? diag.text : "(no diagnostics)",
                 listing);
        ptx_diag_free(&diag);
        return r->status = CONF_PARSE_FAILED;
    }
    ptx_diag_free(&diag);

    const ptx_function *k = ptx_find_function(m, l->kernel);
    if (!k || !k->is_entry) {
        conf_msg(r, "%s: entry %s not found in the parsed module", name, l->kernel);
        ptx_module_free(m);
        return r->status = CONF_NO_KERNEL;
    }

    char err[1024] = "";
    emu_module *mod = emu_module_load(m, err, sizeof err);
    if (!mod) {
        conf_msg(r, "%s: %s (instruction family unsupported?): %s", name,
                 conf_status_name(CONF_LOAD_FAILED), err[0] ? err : "(no message)");
        ptx_module_free(m);
        return r->status = CONF_LOAD_FAILED;
    }

    emu_launch launch;
    memset(&launch, 0, sizeof launch);
    launch.module = mod;
    launch.kernel = k;
    launch.grid = l->grid;
    launch.block = l->block;
    launch.dynamic_smem = l->dynamic_smem;
    launch.params = l->params;
    launch.params_size = l->params_size;
    launch.policy = conf_policy();
    launch.executor = conf_primary();
    launch.sm_count = 4;
    launch.grid_id = 1;

    /* the reference executor first, from a snapshot the block interpreter then starts from */
    conf_events ref_events, prim_events;
    bool events = conf_events_wanted();
    if (events && (!conf_events_init(&ref_events, &launch) ||
                   !conf_events_init(&prim_events, &launch))) {
        conf_msg(r, "%s: out of host memory for the events", name);
        emu_module_unload(mod);
        ptx_module_free(m);
        return r->status = CONF_LAUNCH_FAILED;
    }
    if (events) launch.events = &ref_events.sink;
    conf_reference ref;
    bool compared = conf_run_reference(&launch, &ref);
    if (events) launch.events = &prim_events.sink;
    timing_tee tee;
    launch.events = conf_sink(launch.events, &tee);

    emu_fault f;
    memset(&f, 0, sizeof f);
    emu_grid *g = emu_grid_create(&launch, &f);
    if (!g) {
        r->fault = f;
        conf_msg(r, "%s: %s: %s: %s", name, conf_status_name(CONF_LAUNCH_FAILED),
                 emu_fault_kind_name(f.kind), f.message);
        conf_reference_free(&ref);
        if (events) {
            conf_events_free(&ref_events);
            conf_events_free(&prim_events);
        }
        emu_module_unload(mod);
        ptx_module_free(m);
        return r->status = CONF_LAUNCH_FAILED;
    }

    timing_engine_config cfg;
    timing_stats st;
    conf_engine_config(&cfg, launch.sm_count, &st);
    if (compared) emu_grid_keep_warp_counts(g);
    bool ran = timing_run_grid(g, &cfg);
    if (compared && conf_executors_differ(&ref, g, ran, name, r)) {
        r->status = CONF_EXECUTORS_DIFFER;
    } else if (compared && events && conf_events_differ(&ref_events, &prim_events, name, r)) {
        r->status = CONF_EXECUTORS_DIFFER;
    } else if (compared && conf_timing_threads() && memcmp(&ref.st, &st, sizeof st) != 0) {
        conf_msg(r, "%s: %s: the engine's statistics differ: %" PRIu64 " cycles and %" PRIu64
                 " warp instructions on the step executor, %" PRIu64 " and %" PRIu64 " on %s",
                 name, conf_status_name(CONF_EXECUTORS_DIFFER), ref.st.cycles,
                 ref.st.warp_instructions, st.cycles, st.warp_instructions, conf_primary_name());
        r->status = CONF_EXECUTORS_DIFFER;
    } else if (!ran) {
        const emu_fault *gf = emu_grid_fault(g);
        if (gf) r->fault = *gf;
        conf_msg(r, "%s: %s: %s at PTX line %u, thread (%u,%u,%u) block (%u,%u,%u): %s", name,
                 conf_status_name(CONF_FAULTED), emu_fault_kind_name(r->fault.kind),
                 r->fault.ptx_line, r->fault.thread.x, r->fault.thread.y, r->fault.thread.z,
                 r->fault.cta.x, r->fault.cta.y, r->fault.cta.z, r->fault.message);
        r->status = CONF_FAULTED;
    } else {
        r->status = CONF_OK;
    }
    conf_reference_free(&ref);
    if (events) {
        conf_events_free(&ref_events);
        conf_events_free(&prim_events);
    }
    emu_grid_destroy(g);
    emu_module_unload(mod);
    ptx_module_free(m);
    return r->status;
}

void conf_run_ok(const conf_launch *l, conf_result *r)
{
    conf_run(l, r);
    if (r->status != CONF_OK) ck_abort_msg("%s", r->message);
}

conf_status conf_run_k(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block,
                       uint32_t dynamic_smem, const uint64_t *params, int nparams, conf_result *r)
{
    conf_launch l;
    memset(&l, 0, sizeof l);
    l.ptx = ptx;
    l.name = name;
    l.kernel = "k";
    l.grid = grid;
    l.block = block;
    l.dynamic_smem = dynamic_smem;
    l.params = params;
    l.params_size = sizeof(uint64_t) * (size_t)nparams;
    return conf_run(&l, r);
}

uint32_t conf_line_of(const char *text, const char *marker)
{
    const char *m = strstr(text, marker);
    if (!m) return 0;
    uint32_t line = 1;
    for (const char *p = text; p < m; p++)
        if (*p == '\n') line++;
    return line;
}

void *conf_dev_alloc(size_t bytes)
{
    uint64_t a = emu_device_alloc(bytes ? bytes : 1, EMU_ALLOC_DEVICE);
    if (!a) ck_abort_msg("emu_device_alloc(%zu) returned 0", bytes);
    return (void *)(uintptr_t)a;
}

void conf_dev_free(void *p)
{
    if (p) emu_device_free((uint64_t)(uintptr_t)p);
}

/* ---------------------------------------------------------------- CPU reference helpers */

float conf_f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

uint64_t conf_b32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

double conf_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

uint64_t conf_b64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

bool conf_is_sub32(float f) { return f != 0.0f && fabsf(f) < FLT_MIN; }

float conf_ftz32(float f) { return conf_is_sub32(f) ? copysignf(0.0f, f) : f; }

float conf_sat32(float f)
{
    if (isnan(f)) return 0.0f;
    if (f <= 0.0f) return 0.0f;   /* -0.0 included: [0.0, 1.0] starts at +0.0 */
    if (f > 1.0f) return 1.0f;
    return f;
}

double conf_sat64(double d)
{
    if (isnan(d) || d <= 0.0) return 0.0;
    return d > 1.0 ? 1.0 : d;
}

int conf_fe_mode(conf_rnd r)
{
    switch (r) {
    case CONF_RZ: return FE_TOWARDZERO;
    case CONF_RM: return FE_DOWNWARD;
    case CONF_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* The operands and result go through volatiles so that the operation happens at run time,
 * between the two fesetround calls, under the requested mode. */
#define CONF_IN_MODE(r, T, expr)                 \
    do {                                         \
        int old_ = fegetround();                 \
        fesetround(conf_fe_mode(r));             \
        volatile T res_ = (expr);                \
        fesetround(old_);                        \
        return res_;                             \
    } while (0)

float conf_add32(float a, float b, conf_rnd r)
{
    volatile float x = a, y = b;
    CONF_IN_MODE(r, float, x + y);
}

float conf_mul32(float a, float b, conf_rnd r)
{
    volatile float x = a, y = b;
    CONF_IN_MODE(r, float, x * y);
}

float conf_fma32(float a, float b, float c, conf_rnd r)
{
    volatile float x = a, y = b, z = c;
    CONF_IN_MODE(r, float, fmaf(x, y, z));
}

float conf_div32(float a, float b, conf_rnd r)
{
    volatile float x = a, y = b;
    CONF_IN_MODE(r, float, x / y);
}

float conf_sqrt32(float a, conf_rnd r)
{
    volatile float x = a;
    CONF_IN_MODE(r, float, sqrtf(x));
}

double conf_add64(double a, double b, conf_rnd r)
{
    volatile double x = a, y = b;
    CONF_IN_MODE(r, double, x + y);
}

double conf_mul64(double a, double b, conf_rnd r)
{
    volatile double x = a, y = b;
    CONF_IN_MODE(r, double, x * y);
}

double conf_fma64(double a, double b, double c, conf_rnd r)
{
    volatile double x = a, y = b, z = c;
    CONF_IN_MODE(r, double, fma(x, y, z));
}

double conf_div64(double a, double b, conf_rnd r)
{
    volatile double x = a, y = b;
    CONF_IN_MODE(r, double, x / y);
}

double conf_sqrt64(double a, conf_rnd r)
{
    volatile double x = a;
    CONF_IN_MODE(r, double, sqrt(x));
}

float conf_f64_to_f32(double d, conf_rnd r)
{
    volatile double x = d;
    CONF_IN_MODE(r, float, (float)x);
}

const conf_fmt CONF_FMT_F16 = { 5, 10, true };
const conf_fmt CONF_FMT_BF16 = { 8, 7, true };
const conf_fmt CONF_FMT_E4M3 = { 4, 3, false };
const conf_fmt CONF_FMT_E5M2 = { 5, 2, true };

static int conf_mf_bias(const conf_fmt *f) { return (1 << (f->ebits - 1)) - 1; }
static uint32_t conf_mf_expmask(const conf_fmt *f) { return (1u << f->ebits) - 1; }

uint32_t conf_mf_nan(const conf_fmt *f)
{
    if (!f->ieee) return (conf_mf_expmask(f) << f->mbits) | ((1u << f->mbits) - 1);
    if (f->mbits <= 2) return (conf_mf_expmask(f) << f->mbits) | ((1u << f->mbits) - 1);
    return (conf_mf_expmask(f) << f->mbits) | (1u << (f->mbits - 1));
}

bool conf_mf_is_nan(const conf_fmt *f, uint32_t bits)
{
    uint32_t e = (bits >> f->mbits) & conf_mf_expmask(f);
    uint32_t m = bits & ((1u << f->mbits) - 1);
    if (f->ieee) return e == conf_mf_expmask(f) && m != 0;
    return e == conf_mf_expmask(f) && m == (1u << f->mbits) - 1;
}

double conf_mf_decode(const conf_fmt *f, uint32_t bits)
{
    int bias = conf_mf_bias(f);
    bool neg = (bits >> (f->ebits + f->mbits)) & 1;
    uint32_t e = (bits >> f->mbits) & conf_mf_expmask(f);
    uint32_t m = bits & ((1u << f->mbits) - 1);
    double v;
    if (conf_mf_is_nan(f, bits)) return NAN;
    if (f->ieee && e == conf_mf_expmask(f)) v = INFINITY;
    else if (e == 0) v = ldexp((double)m, 1 - bias - f->mbits);
    else v = ldexp((double)(m | (1u << f->mbits)), (int)e - bias - f->mbits);
    return neg ? -v : v;
}

/* The largest finite encoding's magnitude bits, and its value. */
static uint32_t conf_mf_maxfin_bits(const conf_fmt *f)
{
    if (f->ieee) return ((conf_mf_expmask(f) - 1) << f->mbits) | ((1u << f->mbits) - 1);
    return (conf_mf_expmask(f) << f->mbits) | ((1u << f->mbits) - 2);
}

uint32_t conf_mf_encode(const conf_fmt *f, double x, conf_rnd r, bool satfinite)
{
    uint32_t sign = signbit(x) ? 1u << (f->ebits + f->mbits) : 0;
    uint32_t inf = conf_mf_expmask(f) << f->mbits;
    uint32_t maxb = conf_mf_maxfin_bits(f);
    double maxv = conf_mf_decode(f, maxb);
    if (isnan(x)) return conf_mf_nan(f);
    if (isinf(x)) return sign | ((satfinite || !f->ieee) ? maxb : inf);
    double a = fabs(x);
    if (a == 0.0) return sign;

    int bias = conf_mf_bias(f), emin = 1 - bias, e;
    frexp(a, &e);
    e -= 1;                          /* a in [2^e, 2^(e+1)) */
    if (e < emin) e = emin;
    double q = ldexp(1.0, e - f->mbits);
    double m = a / q;                /* exact: a scaled by a power of two */
    double fl = floor(m), rm;
    switch (r) {
    case CONF_RZ: rm = fl; break;
    case CONF_RM: rm = sign ? ceil(m) : fl; break;
    case CONF_RP: rm = sign ? fl : ceil(m); break;
    case CONF_RNA: rm = (m - fl >= 0.5) ? fl + 1 : fl; break;
    default:
        if (m - fl > 0.5) rm = fl + 1;
        else if (m - fl < 0.5) rm = fl;
        else rm = fmod(fl, 2.0) == 0.0 ? fl : fl + 1;
        break;
    }
    double v = rm * q;
    if (v > maxv) {
        if (satfinite) return sign | maxb;
        if (!f->ieee) return sign | conf_mf_nan(f);
        bool to_inf = r == CONF_RN || r == CONF_RNA || (r == CONF_RM && sign) ||
                      (r == CONF_RP && !sign);
        return sign | (to_inf ? inf : maxb);
    }
    double one = ldexp(1.0, f->mbits);
    if (rm >= 2 * one) {             /* rounding carried into the next binade */
        rm /= 2;
        e += 1;
    }
    if (rm < one) return sign | (uint32_t)rm;   /* subnormal (or zero) at emin */
    return sign | ((uint32_t)(e + bias) << f->mbits) | (uint32_t)(rm - one);
}

/* ---------------------------------------------------------------- tables */

/* Bits of a register type, for loads, stores, masks and printing. */
static unsigned conf_type_bits(const char *t)
{
    if (!strcmp(t, "pred")) return 1;
    if (strstr(t, "16")) return 16;
    if (strstr(t, "64")) return 64;
    if (strstr(t, "8")) return 8;
    return 32;
}

static uint64_t conf_mask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

static char *conf_table_ptx(const conf_op *op)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    fprintf(f,
            ".version 9.0\n"
            ".target %s\n"
            ".address_size 64\n"
            "\n"
            ".visible .entry conf_kernel(\n"
            "    .param .u64 conf_param_in,\n"
            "    .param .u64 conf_param_out\n"
            ")\n"
            "{\n"
            "    .reg .b64 %%conf_pin, %%conf_pout, %%conf_off;\n"
            "    .reg .b32 %%conf_idx, %%conf_t0, %%conf_t1, %%conf_t2, %%conf_tmp;\n",
            op->target ? op->target : "sm_90");
    for (int i = 0; i < CONF_MAX_IO; i++)
        if (op->in[i]) fprintf(f, "    .reg .%s %%in%d;\n", op->in[i], i);
    for (int i = 0; i < CONF_MAX_IO; i++)
        if (op->out[i]) fprintf(f, "    .reg .%s %%out%d;\n", op->out[i], i);
    if (op->decls) fprintf(f, "    %s\n", op->decls);
    fprintf(f,
            "    ld.param.u64 %%conf_pin, [conf_param_in];\n"
            "    ld.param.u64 %%conf_pout, [conf_param_out];\n"
            "    mov.u32 %%conf_t0, %%ctaid.x;\n"
            "    mov.u32 %%conf_t1, %%ntid.x;\n"
            "    mov.u32 %%conf_t2, %%tid.x;\n"
            "    mad.lo.u32 %%conf_idx, %%conf_t0, %%conf_t1, %%conf_t2;\n"
            "    mul.wide.u32 %%conf_off, %%conf_idx, 32;\n"
            "    add.u64 %%conf_pin, %%conf_pin, %%conf_off;\n"
            "    add.u64 %%conf_pout, %%conf_pout, %%conf_off;\n");
    for (int i = 0; i < CONF_MAX_IO; i++) {
        if (!op->in[i]) continue;
        if (!strcmp(op->in[i], "pred"))
            fprintf(f,
                    "    ld.global.u32 %%conf_tmp, [%%conf_pin+%d];\n"
                    "    setp.ne.u32 %%in%d, %%conf_tmp, 0;\n",
                    8 * i, i);
        else
            fprintf(f, "    ld.global.%s %%in%d, [%%conf_pin+%d];\n", op->in[i], i, 8 * i);
    }
    fprintf(f, "    // ---- body ----\n    %s\n    // ---- end of body ----\n", op->body);
    for (int i = 0; i < CONF_MAX_IO; i++) {
        if (!op->out[i]) continue;
        if (!strcmp(op->out[i], "pred"))
            fprintf(f,
                    "    selp.u32 %%conf_tmp, 1, 0, %%out%d;\n"
                    "    st.global.u32 [%%conf_pout+%d], %%conf_tmp;\n",
                    i, 8 * i);
        else
            fprintf(f, "    st.global.%s [%%conf_pout+%d], %%out%d;\n", op->out[i], 8 * i, i);
    }
    fprintf(f, "    ret;\n}\n");
    fclose(f);
    return text;
}

typedef struct conf_table_run {
    const conf_table *table;
    conf_status status;
    char message[4096];
    uint64_t *got;                      /* ncases * CONF_MAX_IO */
    struct conf_table_run *next;
} conf_table_run;

static conf_table_run *conf_runs;

/* Check runs each row in its own forked process (unless CK_FORK=no), and every row would run
 * its whole table. So before the rows run, conf_main runs every table once in a child process
 * (conf_prerun) and keeps the results in memory shared with the rows, which then only
 * compare. A table whose kernel crashes that child or hangs is marked, and each of its rows
 * fails at once naming it (the crash's own report is in the suite's output, above the
 * results); the child after it goes on with the next table. */

/* ---- tables run ahead of their rows */

typedef enum { PRE_NONE = 0, PRE_DONE = 2, PRE_DIED = 3 } conf_pre_state;
typedef struct conf_pre_result {
    uint8_t state;                      /* conf_pre_state */
    conf_status status;
    char message[4096];
    size_t got_off;                     /* into conf_pre_got */
} conf_pre_result;
typedef struct conf_pre_header {
    volatile uint32_t current;          /* the table the child is running */
    volatile uint32_t finished;         /* how many it has finished */
} conf_pre_header;

static const conf_table **conf_reg;     /* every table conf_add_tables registered */
static size_t conf_nreg, conf_capreg;
static conf_pre_header *conf_pre_hdr;
static conf_pre_result *conf_pre;       /* conf_nreg of them, shared */
static uint64_t *conf_pre_got;          /* every table's outputs, shared */

enum { CONF_ROW_BYTES = 8 * CONF_MAX_IO, CONF_FILL = 0xa5 };

/* Runs table t's kernel once; its outputs land in got (ncases * CONF_MAX_IO). */
static conf_status conf_execute_table(const conf_table *t, char *message, size_t cap,
                                      uint64_t *got)
{
    size_t threads = (t->ncases + 31) / 32 * 32;
    uint32_t block = threads < 256 ? (uint32_t)threads : 256;
    uint32_t grid = (uint32_t)((threads + block - 1) / block);
    threads = (size_t)block * grid;

    uint8_t *in = conf_dev_alloc(threads * CONF_ROW_BYTES);
    uint8_t *out = conf_dev_alloc(threads * CONF_ROW_BYTES);
    for (size_t i = 0; i < threads; i++) {
        /* Rows past the table repeat row 0, so that every lane of every warp runs the body. */
        const conf_case *c = &t->cases[i < t->ncases ? i : 0];
        memcpy(in + i * CONF_ROW_BYTES, c->in, CONF_ROW_BYTES);
    }
    memset(out, CONF_FILL, threads * CONF_ROW_BYTES);

    char *ptx = conf_table_ptx(t->op);
    uint64_t params[2] = { conf_dev_addr(in), conf_dev_addr(out) };
    conf_launch l;
    memset(&l, 0, sizeof l);
    l.ptx = ptx;
    l.name = t->op->name;
    l.kernel = "conf_kernel";
    l.grid = (emu_dim3){ grid, 1, 1 };
    l.block = (emu_dim3){ block, 1, 1 };
    l.params = params;
    l.params_size = sizeof params;
    conf_result res;
    conf_status st = conf_run(&l, &res);
    snprintf(message, cap, "%s", res.message);
    if (st == CONF_OK)
        for (size_t i = 0; i < t->ncases; i++)
            memcpy(&got[i * CONF_MAX_IO], out + i * CONF_ROW_BYTES, CONF_ROW_BYTES);
    free(ptx);
    conf_dev_free(in);
    conf_dev_free(out);
    return st;
}

static void conf_register(const conf_table *t)
{
    if (conf_nreg == conf_capreg) {
        conf_capreg = conf_capreg ? 2 * conf_capreg : 64;
        conf_reg = realloc(conf_reg, conf_capreg * sizeof *conf_reg);
        if (!conf_reg) abort();
    }
    conf_reg[conf_nreg++] = t;
}

/* Runs the registered tables in child processes, one after another, into shared memory. A
 * child that dies, or spends longer than the row timeout on one table, marks that table and
 * the next child goes on after it. */
static void conf_prerun(void)
{
    if (!conf_nreg) return;
    size_t rows = 0;
    for (size_t k = 0; k < conf_nreg; k++) rows += conf_reg[k]->ncases;
    size_t bytes = sizeof(conf_pre_header) + conf_nreg * sizeof(conf_pre_result) +
                   rows * CONF_MAX_IO * sizeof(uint64_t);
    void *page = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return;   /* the rows run their tables themselves */
    conf_pre_hdr = page;
    conf_pre = (conf_pre_result *)(conf_pre_hdr + 1);
    conf_pre_got = (uint64_t *)(conf_pre + conf_nreg);
    size_t off = 0;
    for (size_t k = 0; k < conf_nreg; k++) {
        conf_pre[k].got_off = off;
        off += conf_reg[k]->ncases * CONF_MAX_IO;
    }
    double limit = 60;
    const char *mul = getenv("CK_TIMEOUT_MULTIPLIER");
    if (mul && atof(mul) > 0) limit *= atof(mul);
    size_t next = 0;
    while (next < conf_nreg) {
        conf_pre_hdr->current = (uint32_t)next;
        conf_pre_hdr->finished = (uint32_t)next;
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) return;
        if (pid == 0) {
            for (size_t k = next; k < conf_nreg; k++) {
                conf_pre_hdr->current = (uint32_t)k;
                conf_pre_result *r = &conf_pre[k];
                r->status = conf_execute_table(conf_reg[k], r->message, sizeof r->message,
                                               conf_pre_got + r->got_off);
                r->state = PRE_DONE;
                conf_pre_hdr->finished = (uint32_t)k + 1;
            }
            _exit(0);
        }
        uint32_t seen = conf_pre_hdr->finished;
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int wstatus;
        for (;;) {
            if (waitpid(pid, &wstatus, WNOHANG) == pid) break;
            if (conf_pre_hdr->finished != seen) {
                seen = conf_pre_hdr->finished;
                clock_gettime(CLOCK_MONOTONIC, &t0);
            }
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) * 1e-9 > limit) {
                kill(pid, SIGKILL);
                waitpid(pid, &wstatus, 0);
                break;
            }
            struct timespec nap = { 0, 2000000 };
            nanosleep(&nap, NULL);
        }
        if (conf_pre_hdr->finished >= conf_nreg) break;
        size_t died = conf_pre_hdr->finished;   /* the table the child was running */
        conf_pre[died].state = PRE_DIED;
        next = died + 1;
    }
}

static conf_table_run *conf_run_table(const conf_table *t)
{
    for (conf_table_run *r = conf_runs; r; r = r->next)
        if (r->table == t) return r;
    conf_table_run *run = calloc(1, sizeof *run);
    run->table = t;
    run->got = calloc(t->ncases * CONF_MAX_IO, sizeof(uint64_t));
    run->next = conf_runs;
    conf_runs = run;

    for (size_t k = 0; conf_pre && k < conf_nreg; k++) {
        if (conf_reg[k] != t) continue;
        if (conf_pre[k].state == PRE_DIED) {
            run->status = CONF_FAULTED;
            snprintf(run->message, sizeof run->message,
                     "%s: the process running this table's kernel died (a crash, or no result "
                     "within the row timeout); its report is in the output above", t->op->name);
            return run;
        }
        if (conf_pre[k].state != PRE_DONE) break;
        run->status = conf_pre[k].status;
        snprintf(run->message, sizeof run->message, "%s", conf_pre[k].message);
        memcpy(run->got, conf_pre_got + conf_pre[k].got_off,
               t->ncases * CONF_MAX_IO * sizeof(uint64_t));
        return run;
    }
    /* not run ahead (no shared memory for it): run it here */
    run->status = conf_execute_table(t, run->message, sizeof run->message, run->got);
    return run;
}

/* Prints a value of register type t. */
static void conf_fmt_value(char *buf, size_t cap, const char *t, uint64_t v)
{
    unsigned bits = conf_type_bits(t);
    v &= conf_mask(bits);
    if (!strcmp(t, "pred")) snprintf(buf, cap, "%" PRIu64, v);
    else if (!strcmp(t, "f32")) snprintf(buf, cap, "0x%08" PRIx64 " (%.9g)", v, conf_f32(v));
    else if (!strcmp(t, "f64")) snprintf(buf, cap, "0x%016" PRIx64 " (%.17g)", v, conf_f64(v));
    else if (t[0] == 's') snprintf(buf, cap, "0x%0*" PRIx64 " (%" PRId64 ")", (int)(bits / 4), v,
                                   conf_sext(v, bits));
    else snprintf(buf, cap, "0x%0*" PRIx64 " (%" PRIu64 ")", (int)(bits / 4), v, v);
}

/* A float's value per kind, and its position on the ordered integer line (for ulps). */
static double conf_kind_value(conf_kind k, uint64_t v)
{
    switch (k) {
    case CONF_F16: return conf_mf_decode(&CONF_FMT_F16, (uint32_t)v & 0xffff);
    case CONF_BF16: return conf_mf_decode(&CONF_FMT_BF16, (uint32_t)v & 0xffff);
    case CONF_F32: return conf_f32(v);
    case CONF_F64: return conf_f64(v);
    default: return 0;
    }
}

static int64_t conf_ordered(conf_kind k, uint64_t v)
{
    unsigned bits = k == CONF_F64 ? 64 : k == CONF_F32 ? 32 : 16;
    uint64_t sign = UINT64_C(1) << (bits - 1);
    v &= conf_mask(bits);
    int64_t mag = (int64_t)(v & (sign - 1));
    return (v & sign) ? -mag : mag;
}

static bool conf_float_match(conf_kind k, uint64_t want, uint64_t got, const conf_cmp *cmp,
                             char *why, size_t cap)
{
    double w = conf_kind_value(k, want), g = conf_kind_value(k, got);
    unsigned bits = k == CONF_F64 ? 64 : k == CONF_F32 ? 32 : 16;
    want &= conf_mask(bits);
    got &= conf_mask(bits);
    why[0] = 0;
    if (isnan(w)) {
        if (isnan(g)) return true;
        snprintf(why, cap, "want NaN");
        return false;
    }
    if (want == got) return true;
    if (w == 0.0 || isinf(w) || isnan(g) || isinf(g)) {
        snprintf(why, cap, "exact value required (zero sign, infinity or NaN)");
        return false;
    }
    if (cmp->ulps > 0) {
        int64_t d = conf_ordered(k, want) - conf_ordered(k, got);
        if (d < 0) d = -d;
        if ((double)d <= cmp->ulps) return true;
    }
    if (cmp->rel > 0 && fabs(g - w) <= cmp->rel * fabs(w)) return true;
    if (cmp->abs > 0 && fabs(g - w) <= cmp->abs) return true;
    if (cmp->ulps > 0 || cmp->rel > 0 || cmp->abs > 0) {
        int64_t d = conf_ordered(k, want) - conf_ordered(k, got);
        snprintf(why, cap, "off by %" PRId64 " ulp, rel %.3g, abs %.3g; allowed ulps %g rel %.3g abs %.3g",
                 d < 0 ? -d : d, fabs(g - w) / fabs(w), fabs(g - w), cmp->ulps, cmp->rel, cmp->abs);
    } else {
        snprintf(why, cap, "bit-exact result required");
    }
    return false;
}

static bool conf_output_match(const conf_op *op, int i, uint64_t want, uint64_t got, char *why,
                              size_t cap)
{
    const conf_cmp *cmp = &op->cmp[i];
    unsigned bits = conf_type_bits(op->out[i]);
    want &= conf_mask(bits);
    got &= conf_mask(bits);
    why[0] = 0;
    switch ((conf_kind)cmp->kind) {
    case CONF_BITS:
        return want == got;
    case CONF_F16X2:
    case CONF_BF16X2: {
        conf_kind h = cmp->kind == CONF_F16X2 ? CONF_F16 : CONF_BF16;
        char w1[160], w2[160];
        bool lo = conf_float_match(h, want & 0xffff, got & 0xffff, cmp, w1, sizeof w1);
        bool hi = conf_float_match(h, want >> 16, got >> 16, cmp, w2, sizeof w2);
        if (!lo || !hi)
            snprintf(why, cap, "%s%s%s%s", lo ? "" : "low half: ", w1, hi ? "" : " high half: ", w2);
        return lo && hi;
    }
    case CONF_E4M3X2:
    case CONF_E5M2X2: {
        const conf_fmt *f = cmp->kind == CONF_E4M3X2 ? &CONF_FMT_E4M3 : &CONF_FMT_E5M2;
        for (int b = 0; b < 2; b++) {
            uint32_t w = (uint32_t)(want >> (8 * b)) & 0xff, g = (uint32_t)(got >> (8 * b)) & 0xff;
            bool same = conf_mf_is_nan(f, w) ? conf_mf_is_nan(f, g) : w == g;
            if (!same) {
                snprintf(why, cap, "%s byte: want %g got %g", b ? "high" : "low",
                         conf_mf_decode(f, w), conf_mf_decode(f, g));
                return false;
            }
        }
        return true;
    }
    default:
        return conf_float_match((conf_kind)cmp->kind, want, got, cmp, why, cap);
    }
}

static void conf_fmt_out(char *buf, size_t cap, const conf_op *op, int i, uint64_t v)
{
    unsigned bits = conf_type_bits(op->out[i]);
    v &= conf_mask(bits);
    switch ((conf_kind)op->cmp[i].kind) {
    case CONF_F16:
    case CONF_BF16:
        snprintf(buf, cap, "0x%04" PRIx64 " (%.9g)", v, conf_kind_value((conf_kind)op->cmp[i].kind, v));
        break;
    case CONF_F16X2:
    case CONF_BF16X2: {
        conf_kind h = op->cmp[i].kind == CONF_F16X2 ? CONF_F16 : CONF_BF16;
        snprintf(buf, cap, "0x%08" PRIx64 " (hi %.9g, lo %.9g)", v, conf_kind_value(h, v >> 16),
                 conf_kind_value(h, v & 0xffff));
        break;
    }
    default:
        conf_fmt_value(buf, cap, op->out[i], v);
        break;
    }
}

size_t conf_count_rows(const conf_table *tables, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += tables[i].ncases;
    return total;
}

void conf_check_row(const conf_table *tables, size_t n, int flat)
{
    size_t ti = 0, row = (size_t)flat;
    while (ti < n && row >= tables[ti].ncases) row -= tables[ti++].ncases;
    ck_assert_msg(ti < n, "row %d is past the tables", flat);
    const conf_table *t = &tables[ti];
    const conf_op *op = t->op;
    const conf_case *c = &t->cases[row];

    uint64_t want[CONF_MAX_IO] = { 0 };
    if (c->lit) {
        memcpy(want, c->out, sizeof want);
    } else {
        ck_assert_msg(op->ref != NULL, "%s row %zu: suite bug: no expectation and no reference",
                      op->name, row);
        op->ref(c->in, want);
    }

    conf_table_run *run = conf_run_table(t);
    if (run->status != CONF_OK) ck_abort_msg("%s row %zu: %s", op->name, row, run->message);
    const uint64_t *got = &run->got[row * CONF_MAX_IO];

    char ins[1024] = "";
    size_t len = 0;
    for (int i = 0; i < CONF_MAX_IO && op->in[i]; i++) {
        char v[128];
        /* b16/b32 inputs of a half-precision op are shown as halves, like its output */
        conf_kind k = (conf_kind)op->cmp[0].kind;
        bool halves = (k == CONF_F16 || k == CONF_BF16) ? !strcmp(op->in[i], "b16")
                      : (k == CONF_F16X2 || k == CONF_BF16X2) ? !strcmp(op->in[i], "b32") : false;
        if (halves) conf_fmt_out(v, sizeof v, op, 0, c->in[i]);
        else conf_fmt_value(v, sizeof v, op->in[i], c->in[i]);
        if (len < sizeof ins)
            len += (size_t)snprintf(ins + len, sizeof ins - len, "%s%%in%d=%s", i ? ", " : "", i, v);
    }

    char msg[2048];
    size_t ml = 0;
    bool ok = true;
    for (int i = 0; i < CONF_MAX_IO; i++) {
        if (!op->out[i]) continue;
        char why[512];
        if (conf_output_match(op, i, want[i], got[i], why, sizeof why)) continue;
        char w[128], g[128];
        conf_fmt_out(w, sizeof w, op, i, want[i]);
        conf_fmt_out(g, sizeof g, op, i, got[i]);
        if (ok)
            ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "%s [row %zu%s]: inputs %s:", op->name,
                                   row, c->lit ? ", ISA value" : "", ins);
        if (ml < sizeof msg)
            ml += (size_t)snprintf(msg + ml, sizeof msg - ml, " %%out%d want %s got %s%s%s%s", i, w,
                                   g, why[0] ? " [" : "", why, why[0] ? "]" : "");
        ok = false;
    }
    ck_assert_msg(ok, "%s", msg);
}

void conf_add_tables(Suite *s, const conf_table *tables, size_t n, const TTest *test)
{
    int start = 0;
    for (size_t i = 0; i < n; i++) {
        TCase *tc = tcase_create(tables[i].op->name);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test, start, start + (int)tables[i].ncases);
        suite_add_tcase(s, tc);
        start += (int)tables[i].ncases;
        conf_register(&tables[i]);
    }
}

int conf_main(Suite *s)
{
    conf_prerun();
    return pk_main(s);
}
