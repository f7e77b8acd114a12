/* record.c: --record=FILE. A memory policy over the launch's own that logs every memory
 * operation (global and shared loads, stores and atomics, device runtime calls) in the order
 * the run performs them, with the warp and its instruction count; the log of every launch is
 * compressed with zstd into FILE when the program ends.
 *
 * What is recorded is exactly what makes a run without determinism differ from another: the
 * order of memory operations between warps. Everything else a warp does is a function of the
 * values its memory operations read (registers, branches, barriers), and those values are
 * fixed by the order of the operations on each byte. A global operation is performed and
 * logged under one lock, so the log order is the order memory saw; a shared operation is
 * logged by the host thread that runs its CTA, just before that thread performs it, and no
 * other thread touches that CTA's shared memory. */
#include "timing/replay/replay_internal.h"

#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct rr_entry { uint64_t warp; uint64_t icount; uint32_t sm; bool first; } rr_entry;

struct timing_record {
    char *path;
    rr_buf out;
    /* the launch being recorded */
    emu_mem_policy pol;
    pthread_mutex_t lock;
    uint64_t hash, ncta;
    uint32_t wpc;
    char *kernel;
    rr_entry *e;
    size_t n, cap;
    uint8_t *seen;           /* a byte per CTA: its first entry was logged */
    bool oom;
};

timing_record *timing_record_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");   /* fail now, not at exit, when the file cannot be written */
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    fclose(f);
    timing_record *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    for (const char *m = RR_MAGIC; *m; m++) rr_put_byte(&r->out, (uint8_t)*m);
    rr_put_byte(&r->out, RR_VERSION);
    rr_put_varint(&r->out, rr_executable_hash());
    return r;
}

static void log_op(timing_record *r, emu_warp *w)
{
    uint64_t cta = emu_warp_cta_linear(w);
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        rr_entry *e = realloc(r->e, cap * sizeof *e);
        if (!e) {
            r->oom = true;
            return;
        }
        r->e = e;
        r->cap = cap;
    }
    bool first = cta < r->ncta && !r->seen[cta];
    if (first) r->seen[cta] = 1;
    r->e[r->n++] = (rr_entry){ cta * r->wpc + emu_warp_id(w), emu_warp_instructions(w),
                               emu_warp_sm(w), first };
}

static emu_mem_outcome rec_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    timing_record *r = self->state;
    if (op->kind == EMU_MEM_FENCE ||
        (op->space != PTX_SPACE_GLOBAL && op->space != PTX_SPACE_SHARED))
        return emu_policy_forward(self, w, op);
    pthread_mutex_lock(&r->lock);
    emu_mem_outcome o = emu_policy_forward(self, w, op);
    if (o == EMU_MEM_DONE || o == EMU_MEM_DONE_STOP) log_op(r, w);
    pthread_mutex_unlock(&r->lock);
    return o;
}

static void rec_event(emu_mem_policy *self, emu_warp *w, emu_policy_event ev, uint32_t lanes)
{
    if (self->next && self->next->event) self->next->event(self->next, w, ev, lanes);
}

static void rec_barrier(emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                        bool wait, uint32_t lanes, uint16_t func, uint32_t pc)
{
    if (self->next && self->next->barrier)
        self->next->barrier(self->next, w, id, count, wait, lanes, func, pc);
}

static void rec_observe(emu_mem_policy *self, emu_warp *w, const emu_mem_op *op)
{
    if (self->next && self->next->observe) self->next->observe(self->next, w, op);
}

static void rec_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
}

emu_mem_policy *timing_record_begin(timing_record *r, const emu_launch *L, const char *kernel)
{
    uint32_t threads = L->block.x * L->block.y * L->block.z;
    r->wpc = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    r->ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    r->hash = rr_launch_hash(L, kernel);
    free(r->kernel);   /* a launch that could not start left them */
    free(r->seen);
    r->kernel = strdup(kernel);
    r->seen = calloc(r->ncta ? r->ncta : 1, 1);
    r->n = 0;
    if (!r->kernel || !r->seen) {
        r->oom = true;
        return NULL;
    }
    emu_mem_policy *next = L->policy ? L->policy : emu_direct_policy();
    r->pol = (emu_mem_policy){
        .name = "record",
        .wants = EMU_POLICY_WANTS_SHARED | (next->wants & EMU_POLICY_SPACES),
        .access = rec_access,
        .event = rec_event, .observe = rec_observe, .barrier = rec_barrier,
        .warp_stopped = rec_stopped,
        .next = next == emu_direct_policy() ? NULL : next, .state = r,
    };
    return &r->pol;
}

void timing_record_end(timing_record *r, const emu_fault *fault)
{
    rr_put_byte(&r->out, 'L');
    rr_put_varint(&r->out, r->hash);
    rr_put_string(&r->out, r->kernel ? r->kernel : "");
    rr_put_varint(&r->out, r->ncta);
    rr_put_varint(&r->out, r->wpc);
    rr_put_varint(&r->out, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const rr_entry *e = &r->e[i];
        rr_put_varint(&r->out, e->warp << 1 | e->first);
        if (e->first) rr_put_varint(&r->out, e->sm);
        rr_put_varint(&r->out, e->icount);
    }
    rr_put_varint(&r->out, fault ? (uint64_t)fault->kind : 0);
    rr_put_string(&r->out, fault ? fault->message : "");
    free(r->kernel);
    free(r->seen);
    r->kernel = NULL;
    r->seen = NULL;
}

bool timing_record_close(timing_record *r)
{
    bool ok = !r->oom && !r->out.oom;
    if (ok) {
        size_t cap = ZSTD_compressBound(r->out.n);
        void *z = malloc(cap);
        size_t zn = z ? ZSTD_compress(z, cap, r->out.p, r->out.n, 9) : 0;
        FILE *f = z && !ZSTD_isError(zn) ? fopen(r->path, "wb") : NULL;
        ok = f && fwrite(z, 1, zn, f) == zn;
        if (f && fclose(f) != 0) ok = false;
        free(z);
    }
    free(r->out.p);
    free(r->e);
    free(r->path);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return ok;
}
