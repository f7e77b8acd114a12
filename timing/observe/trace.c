/* trace.c: --trace=FILE, a compact instruction and memory trace of every launch, and its
 * reader for `ptxsim trace`.
 *
 * The file is one zstd stream of records:
 *   header   "PTXTRACE" u32 version
 *   'L'      a launch: u64 id, u32 name length + name, u32 grid x y z, u32 block x y z
 *   'F'      a function of that launch's module: u64 launch, u32 index, u32 name length + name,
 *            u32 instructions, then per instruction u32 PTX line and u16 opcode
 *   'W'      a run of one warp's events: u64 launch, u64 CTA, u32 warp, u32 sequence number,
 *            u32 count, then per event: u32 pc, u32 func, u32 active, u32 mask, u16 op, u8 class,
 *            u8 stop, u8 flags; memory: u8 space, u16 size, u32 lanes, then a u64 generic
 *            address per lane in it; branches: u32 taken, u32 reconvergence pc
 * all little-endian. Warps on several host threads append their runs in whatever order they
 * finish, so the reader sorts runs by (launch, CTA, warp, sequence): what `ptxsim trace` prints
 * does not depend on the host threads (and, under determinism, not on the seed either). */
#include "timing/timing.h"

#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define TRACE_MAGIC "PTXTRACE"
#define TRACE_VERSION 1u

/* ---------------------------------------------------------------- byte buffers */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} buf;

static void put(buf *b, const void *v, size_t n)
{
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + n) nc *= 2;
        uint8_t *np = realloc(b->p, nc);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, v, n);
    b->n += n;
}
static void put8(buf *b, uint8_t v) { put(b, &v, 1); }
static void put16(buf *b, uint16_t v) { put(b, &v, 2); }
static void put32(buf *b, uint32_t v) { put(b, &v, 4); }
static void put64(buf *b, uint64_t v) { put(b, &v, 8); }

/* ---------------------------------------------------------------- writing */

typedef struct warp_seq {
    uint64_t launch, cta;
    uint32_t warp, seq;
} warp_seq;

struct timing_trace {
    emu_event_sink sink;
    pthread_mutex_t lock;
    FILE *f;
    ZSTD_CCtx *z;
    uint8_t *zout;
    size_t zout_cap;
    bool failed;
    uint64_t launch;
    /* the next sequence number of each warp's runs in this launch */
    warp_seq *seqs;
    size_t nseq, capseq;
};

/* Compresses and writes b (lock held). */
static void emit(timing_trace *t, const buf *b, ZSTD_EndDirective end)
{
    if (t->failed) return;
    if (b->oom) {
        t->failed = true;
        return;
    }
    ZSTD_inBuffer in = { b->p, b->n, 0 };
    for (;;) {
        ZSTD_outBuffer out = { t->zout, t->zout_cap, 0 };
        size_t r = ZSTD_compressStream2(t->z, &out, &in, end);
        if (ZSTD_isError(r) || fwrite(t->zout, 1, out.pos, t->f) != out.pos) {
            t->failed = true;
            return;
        }
        if (end == ZSTD_e_continue ? in.pos == in.size : r == 0) break;
    }
}

static uint32_t next_seq(timing_trace *t, uint64_t cta, uint32_t warp)
{
    for (size_t i = 0; i < t->nseq; i++)
        if (t->seqs[i].launch == t->launch && t->seqs[i].cta == cta && t->seqs[i].warp == warp)
            return t->seqs[i].seq++;
    if (t->nseq == t->capseq) {
        size_t nc = t->capseq ? t->capseq * 2 : 256;
        warp_seq *ns = realloc(t->seqs, nc * sizeof *ns);
        if (!ns) {
            t->failed = true;
            return 0;
        }
        t->seqs = ns;
        t->capseq = nc;
    }
    t->seqs[t->nseq++] = (warp_seq){ t->launch, cta, warp, 1 };
    return 0;
}

static void consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    timing_trace *t = self->state;
    buf b = { 0 };
    uint64_t cta = emu_warp_cta_linear(w);
    uint32_t warp = emu_warp_id(w);
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        put32(&b, e->pc);
        put32(&b, e->func);
        put32(&b, e->active);
        put32(&b, e->mask);
        put16(&b, e->op);
        put8(&b, e->cls);
        put8(&b, e->stop);
        put8(&b, e->flags & ~EMU_EV_COMPACT);   /* the trace holds every address */
        if (e->flags & EMU_EV_MEM) {
            put8(&b, e->space);
            put16(&b, e->size);
            put32(&b, e->mem_lanes);
            for (uint32_t mk = e->mem_lanes; mk; mk &= mk - 1)
                put64(&b, emu_event_lane_addr(e, __builtin_ctz(mk)));
        }
        if (e->flags & EMU_EV_BRANCH) {
            put32(&b, e->taken);
            put32(&b, e->reconv);
        }
    }
    buf h = { 0 };
    pthread_mutex_lock(&t->lock);
    put8(&h, 'W');
    put64(&h, t->launch);
    put64(&h, cta);
    put32(&h, warp);
    put32(&h, next_seq(t, cta, warp));
    put32(&h, n);
    emit(t, &h, ZSTD_e_continue);
    emit(t, &b, ZSTD_e_continue);
    pthread_mutex_unlock(&t->lock);
    free(h.p);
    free(b.p);
}

timing_trace *timing_trace_open(const char *path, char *err, size_t errlen)
{
    timing_trace *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&t->lock, NULL);
    t->f = fopen(path, "wb");
    t->z = ZSTD_createCCtx();
    t->zout_cap = ZSTD_CStreamOutSize();
    t->zout = malloc(t->zout_cap);
    if (!t->f || !t->z || !t->zout) {
        snprintf(err, errlen, "cannot write the trace file %s: %s", path, strerror(errno));
        if (t->f) fclose(t->f);
        ZSTD_freeCCtx(t->z);
        free(t->zout);
        free(t);
        return NULL;
    }
    ZSTD_CCtx_setParameter(t->z, ZSTD_c_compressionLevel, 3);
    t->sink.consume = consume;
    t->sink.state = t;
    buf b = { 0 };
    put(&b, TRACE_MAGIC, 8);
    put32(&b, TRACE_VERSION);
    emit(t, &b, ZSTD_e_continue);
    free(b.p);
    return t;
}

emu_event_sink *timing_trace_sink(timing_trace *t)
{
    return &t->sink;
}

void timing_trace_launch(timing_trace *t, uint64_t id, const char *kernel, const ptx_module *m,
                         emu_dim3 grid, emu_dim3 block)
{
    buf b = { 0 };
    size_t len = strlen(kernel);
    put8(&b, 'L');
    put64(&b, id);
    put32(&b, (uint32_t)len);
    put(&b, kernel, len);
    put32(&b, grid.x), put32(&b, grid.y), put32(&b, grid.z);
    put32(&b, block.x), put32(&b, block.y), put32(&b, block.z);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        size_t nl = strlen(fn->name);
        put8(&b, 'F');
        put64(&b, id);
        put32(&b, f);
        put32(&b, (uint32_t)nl);
        put(&b, fn->name, nl);
        put32(&b, fn->ninstrs);
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            put32(&b, fn->instrs[i].line);
            put16(&b, fn->instrs[i].op);
        }
    }
    pthread_mutex_lock(&t->lock);
    t->launch = id;
    emit(t, &b, ZSTD_e_continue);
    pthread_mutex_unlock(&t->lock);
    free(b.p);
}

bool timing_trace_close(timing_trace *t)
{
    if (!t) return true;
    buf none = { 0 };
    pthread_mutex_lock(&t->lock);
    emit(t, &none, ZSTD_e_end);
    bool ok = !t->failed && fclose(t->f) == 0;
    pthread_mutex_unlock(&t->lock);
    ZSTD_freeCCtx(t->z);
    free(t->zout);
    free(t->seqs);
    pthread_mutex_destroy(&t->lock);
    free(t);
    return ok;
}

/* ---------------------------------------------------------------- reading */

typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    bool bad;
} rd;

static bool get(rd *r, void *v, size_t n)
{
    if (r->bad || r->n - r->at < n) {
        r->bad = true;
        memset(v, 0, n);
        return false;
    }
    memcpy(v, r->p + r->at, n);
    r->at += n;
    return true;
}
static uint8_t get8(rd *r) { uint8_t v; get(r, &v, 1); return v; }
static uint16_t get16(rd *r) { uint16_t v; get(r, &v, 2); return v; }
static uint32_t get32(rd *r) { uint32_t v; get(r, &v, 4); return v; }
static uint64_t get64(rd *r) { uint64_t v; get(r, &v, 8); return v; }

/* Decompresses the whole file into *out. */
static bool read_all(const char *path, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    ZSTD_DCtx *z = ZSTD_createDCtx();
    size_t inc = ZSTD_DStreamInSize(), outc = ZSTD_DStreamOutSize();
    uint8_t *ib = malloc(inc), *ob = malloc(outc);
    buf all = { 0 };
    bool ok = z && ib && ob;
    size_t got, last = 0;
    while (ok && (got = fread(ib, 1, inc, f)) > 0) {
        ZSTD_inBuffer in = { ib, got, 0 };
        while (in.pos < in.size) {
            ZSTD_outBuffer o = { ob, outc, 0 };
            last = ZSTD_decompressStream(z, &o, &in);
            if (ZSTD_isError(last)) {
                snprintf(err, errlen, "%s is not a ptxsim trace (%s)", path, ZSTD_getErrorName(last));
                ok = false;
                break;
            }
            put(&all, ob, o.pos);
        }
    }
    if (ok && last != 0) {
        snprintf(err, errlen, "%s ends early (the traced program did not exit cleanly)", path);
        /* what was written is still readable */
    }
    if (all.oom) {
        snprintf(err, errlen, "out of memory reading %s", path);
        ok = false;
    }
    fclose(f);
    ZSTD_freeDCtx(z);
    free(ib);
    free(ob);
    if (!ok) {
        free(all.p);
        return false;
    }
    *out = all.p;
    *len = all.n;
    return true;
}

void timing_trace_data_free(timing_trace_data *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->nlaunches; i++) {
        free(d->launches[i].kernel);
        for (uint32_t f = 0; f < d->launches[i].nfuncs; f++) {
            free(d->launches[i].funcs[f].name);
            free(d->launches[i].funcs[f].line);
            free(d->launches[i].funcs[f].op);
        }
        free(d->launches[i].funcs);
    }
    free(d->launches);
    free(d->runs);
    free(d->events);
    free(d->addrs);
    free(d);
}

static int run_order(const void *a, const void *b)
{
    const timing_trace_run *x = a, *y = b;
    if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
    if (x->cta != y->cta) return x->cta < y->cta ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

#define GROW(ptr, n, cap)                                                                   \
    do {                                                                                    \
        if ((n) == (cap)) {                                                                 \
            size_t nc_ = (cap) ? (cap) * 2 : 64;                                            \
            void *np_ = realloc((ptr), nc_ * sizeof *(ptr));                                \
            if (!np_) goto oom;                                                             \
            (ptr) = np_;                                                                    \
            (cap) = nc_;                                                                    \
        }                                                                                   \
    } while (0)

timing_trace_data *timing_trace_read(const char *path, char *err, size_t errlen)
{
    uint8_t *bytes;
    size_t len;
    err[0] = 0;
    if (!read_all(path, &bytes, &len, err, errlen)) return NULL;
    timing_trace_data *d = calloc(1, sizeof *d);
    if (!d) goto oom;
    rd r = { bytes, len, 0, false };
    char magic[8];
    if (!get(&r, magic, 8) || memcmp(magic, TRACE_MAGIC, 8) != 0 || get32(&r) != TRACE_VERSION) {
        snprintf(err, errlen, "%s is not a ptxsim trace of version %u", path, TRACE_VERSION);
        free(bytes);
        timing_trace_data_free(d);
        return NULL;
    }
    size_t caplaunch = 0, caprun = 0, capev = 0, capaddr = 0;
    while (r.at < r.n && !r.bad) {
        uint8_t tag = get8(&r);
        if (tag == 'L') {
            GROW(d->launches, d->nlaunches, caplaunch);
            timing_trace_launch_info *L = &d->launches[d->nlaunches++];
            memset(L, 0, sizeof *L);
            L->id = get64(&r);
            uint32_t nl = get32(&r);
            if (nl > r.n - r.at) break;
            if (!(L->kernel = malloc(nl + 1))) goto oom;
            get(&r, L->kernel, nl);
            L->kernel[nl] = 0;
            L->grid.x = get32(&r), L->grid.y = get32(&r), L->grid.z = get32(&r);
            L->block.x = get32(&r), L->block.y = get32(&r), L->block.z = get32(&r);
        } else if (tag == 'F') {
            uint64_t id = get64(&r);
            uint32_t idx = get32(&r), nl = get32(&r);
            if (!d->nlaunches || d->launches[d->nlaunches - 1].id != id || nl > r.n - r.at) break;
            timing_trace_launch_info *L = &d->launches[d->nlaunches - 1];
            if (idx >= L->nfuncs) {
                void *nf = realloc(L->funcs, (idx + 1) * sizeof *L->funcs);
                if (!nf) goto oom;
                L->funcs = nf;
                memset(L->funcs + L->nfuncs, 0, (idx + 1 - L->nfuncs) * sizeof *L->funcs);
                L->nfuncs = idx + 1;
            }
            timing_trace_func *F = &L->funcs[idx];
            if (!(F->name = malloc(nl + 1))) goto oom;
            get(&r, F->name, nl);
            F->name[nl] = 0;
            F->ninstrs = get32(&r);
            if ((uint64_t)F->ninstrs * 6 > r.n - r.at) break;
            F->line = malloc((F->ninstrs ? F->ninstrs : 1) * sizeof *F->line);
            F->op = malloc((F->ninstrs ? F->ninstrs : 1) * sizeof *F->op);
            if (!F->line || !F->op) goto oom;
            for (uint32_t i = 0; i < F->ninstrs; i++) {
                F->line[i] = get32(&r);
                F->op[i] = get16(&r);
            }
        } else if (tag == 'W') {
            GROW(d->runs, d->nruns, caprun);
            timing_trace_run *R = &d->runs[d->nruns++];
            R->launch = get64(&r);
            R->cta = get64(&r);
            R->warp = get32(&r);
            R->seq = get32(&r);
            R->n = get32(&r);
            R->first = d->nevents;
            for (uint32_t i = 0; i < R->n && !r.bad; i++) {
                GROW(d->events, d->nevents, capev);
                timing_trace_event *e = &d->events[d->nevents++];
                memset(e, 0, sizeof *e);
                e->pc = get32(&r);
                e->func = get32(&r);
                e->active = get32(&r);
                e->mask = get32(&r);
                e->op = get16(&r);
                e->cls = get8(&r);
                e->stop = get8(&r);
                e->flags = get8(&r);
                if (e->flags & EMU_EV_MEM) {
                    e->space = get8(&r);
                    e->size = get16(&r);
                    e->mem_lanes = get32(&r);
                    e->addr_first = d->naddrs;
                    for (uint32_t mk = e->mem_lanes; mk; mk &= mk - 1) {
                        GROW(d->addrs, d->naddrs, capaddr);
                        d->addrs[d->naddrs++] = get64(&r);
                    }
                }
                if (e->flags & EMU_EV_BRANCH) {
                    e->taken = get32(&r);
                    e->reconv = get32(&r);
                }
            }
        } else {
            r.bad = true;
        }
    }
    if (r.bad && !err[0]) snprintf(err, errlen, "%s is damaged at byte %zu", path, r.at);
    free(bytes);
    qsort(d->runs, d->nruns, sizeof *d->runs, run_order);
    return d;
oom:
    snprintf(err, errlen, "out of memory reading %s", path);
    free(bytes);
    timing_trace_data_free(d);
    return NULL;
}
