/* device_output.c: the FIFO that device printf and assert messages go through.
 *
 * CUDA keeps printf records in a circular buffer of cudaLimitPrintfFifoSize bytes that the host
 * drains at a kernel launch and at synchronisation points; when a kernel prints more than fits,
 * older output is overwritten. Here a record is kept as formatted text together with what it
 * would occupy in the device buffer (its cost, computed by the caller), and the oldest records
 * are dropped while the costs exceed the size. Assertion messages go to stderr and are never
 * dropped (the hardware reports them separately from printf).
 */
#include "emulator/emu_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FIFO (UINT64_C(1) << 20)

typedef struct out_record {
    char *text;
    size_t len;
    uint64_t cost;
    bool to_stderr;
} out_record;

static struct {
    pthread_mutex_t lock;
    uint64_t size, used;
    bool printed;            /* a kernel has printed since the last reset */
    out_record *r;
    size_t head, n, cap;     /* a ring: records head .. head+n-1 (mod cap) */
    uint64_t dropped, dropped_bytes;   /* lost to overflow, in all */
    uint64_t dropped_unreported;       /* ... since the last flush */
} fifo = { .lock = PTHREAD_MUTEX_INITIALIZER, .size = DEFAULT_FIFO };

void emu_output_set_fifo_size(uint64_t bytes)
{
    pthread_mutex_lock(&fifo.lock);
    fifo.size = bytes;
    pthread_mutex_unlock(&fifo.lock);
}

static out_record *at(size_t i) { return &fifo.r[(fifo.head + i) % fifo.cap]; }

/* Drops the oldest printf record (assertion messages stay). */
static bool drop_oldest(void)
{
    for (size_t i = 0; i < fifo.n; i++) {
        out_record *o = at(i);
        if (o->to_stderr) continue;
        fifo.used -= o->cost;
        fifo.dropped++;
        fifo.dropped_unreported++;
        fifo.dropped_bytes += o->cost;
        free(o->text);
        /* close the hole: move the older records up by one */
        for (size_t j = i; j > 0; j--) *at(j) = *at(j - 1);
        fifo.head = (fifo.head + 1) % fifo.cap;
        fifo.n--;
        return true;
    }
    return false;
}

static bool grow(void)
{
    size_t nc = fifo.cap ? fifo.cap * 2 : 256;
    out_record *nr = malloc(nc * sizeof *nr);
    if (!nr) return false;
    for (size_t i = 0; i < fifo.n; i++) nr[i] = *at(i);
    free(fifo.r);
    fifo.r = nr;
    fifo.cap = nc;
    fifo.head = 0;
    return true;
}

void emu_output_append(const char *text, size_t len, uint64_t cost, bool to_stderr)
{
    pthread_mutex_lock(&fifo.lock);
    if (!to_stderr) {
        fifo.printed = true;
        if (cost > fifo.size) {
            fifo.dropped++;
            fifo.dropped_unreported++;
            fifo.dropped_bytes += cost;
            pthread_mutex_unlock(&fifo.lock);
            return;
        }
        while (fifo.used + cost > fifo.size && drop_oldest()) {}
    }
    char *copy = malloc(len + 1);
    if (copy && (fifo.n < fifo.cap || grow())) {
        memcpy(copy, text, len);
        copy[len] = 0;
        *at(fifo.n) = (out_record){ copy, len, to_stderr ? 0 : cost, to_stderr };
        fifo.n++;
        fifo.used += to_stderr ? 0 : cost;
    } else {
        free(copy);
    }
    pthread_mutex_unlock(&fifo.lock);
}

static void drain(bool write)
{
    pthread_mutex_lock(&fifo.lock);
    bool out = false, err = false;
    for (size_t i = 0; i < fifo.n; i++) {
        out_record *o = at(i);
        if (write) {
            FILE *f = o->to_stderr ? stderr : stdout;
            /* keep the order of printf and assertion lines where both go to one terminal */
            if (o->to_stderr && out) fflush(stdout);
            fwrite(o->text, 1, o->len, f);
            if (o->to_stderr) err = true;
            else out = true;
        }
        free(o->text);
    }
    fifo.n = fifo.head = 0;
    fifo.used = 0;
    uint64_t lost = fifo.dropped_unreported, size = fifo.size;
    fifo.dropped_unreported = 0;
    pthread_mutex_unlock(&fifo.lock);
    if (out) fflush(stdout);
    if (write && lost)
        fprintf(stderr, "ptxsim: %llu device printf record%s lost: the output overflowed the "
                        "printf FIFO (cudaLimitPrintfFifoSize = %llu bytes)\n",
                (unsigned long long)lost, lost == 1 ? "" : "s", (unsigned long long)size);
    if (err || (write && lost)) fflush(stderr);
}

void emu_output_dropped(uint64_t *records, uint64_t *bytes)
{
    pthread_mutex_lock(&fifo.lock);
    if (records) *records = fifo.dropped;
    if (bytes) *bytes = fifo.dropped_bytes;
    pthread_mutex_unlock(&fifo.lock);
}

bool emu_output_in_use(void)
{
    pthread_mutex_lock(&fifo.lock);
    bool p = fifo.printed;
    pthread_mutex_unlock(&fifo.lock);
    return p;
}

void emu_output_flush(void) { drain(true); }

void emu_output_discard(void)
{
    drain(false);
    pthread_mutex_lock(&fifo.lock);
    fifo.printed = false;
    fifo.dropped_unreported = 0;
    pthread_mutex_unlock(&fifo.lock);
}

char *emu_output_pending(size_t *len)
{
    pthread_mutex_lock(&fifo.lock);
    size_t total = 1;
    for (size_t i = 0; i < fifo.n; i++) total += at(i)->len + 24;
    char *buf = malloc(total), *p = buf;
    if (buf) {
        for (size_t i = 0; i < fifo.n; i++) {
            const out_record *r = at(i);
            p += sprintf(p, "%c%zu:", r->to_stderr ? 'E' : 'O', r->len);
            memcpy(p, r->text, r->len);
            p += r->len;
        }
        *p = 0;
        *len = (size_t)(p - buf);
    }
    pthread_mutex_unlock(&fifo.lock);
    return buf;
}

void emu_output_drop_pending(void)
{
    pthread_mutex_lock(&fifo.lock);
    while (fifo.n) {
        free(at(0)->text);
        fifo.head = (fifo.head + 1) % fifo.cap;
        fifo.n--;
    }
    fifo.used = 0;
    pthread_mutex_unlock(&fifo.lock);
}

/* ---------------------------------------------------------------- save and load (snapshots) */

struct emu_output_state {
    out_record *r;            /* the records in order, their texts copied */
    size_t n;
    uint64_t used, dropped, dropped_bytes, dropped_unreported;
    bool printed;
};

void emu_output_state_free(emu_output_state *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) free(s->r[i].text);
    free(s->r);
    free(s);
}

emu_output_state *emu_output_save(void)
{
    emu_output_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_lock(&fifo.lock);
    s->r = calloc(fifo.n ? fifo.n : 1, sizeof *s->r);
    bool ok = s->r != NULL;
    for (size_t i = 0; ok && i < fifo.n; i++) {
        const out_record *o = at(i);
        s->r[i] = *o;
        if (!(s->r[i].text = malloc(o->len + 1))) {
            ok = false;
            break;
        }
        memcpy(s->r[i].text, o->text, o->len + 1);
        s->n = i + 1;
    }
    s->used = fifo.used;
    s->dropped = fifo.dropped;
    s->dropped_bytes = fifo.dropped_bytes;
    s->dropped_unreported = fifo.dropped_unreported;
    s->printed = fifo.printed;
    pthread_mutex_unlock(&fifo.lock);
    if (!ok) {
        emu_output_state_free(s);
        return NULL;
    }
    return s;
}

bool emu_output_load(const emu_output_state *s)
{
    out_record *r = malloc((s->n ? s->n : 1) * sizeof *r);
    if (!r) return false;
    for (size_t i = 0; i < s->n; i++) {
        r[i] = s->r[i];
        r[i].text = malloc(s->r[i].len + 1);
        if (!r[i].text) {
            while (i--) free(r[i].text);
            free(r);
            return false;
        }
        memcpy(r[i].text, s->r[i].text, s->r[i].len + 1);
    }
    pthread_mutex_lock(&fifo.lock);
    for (size_t i = 0; i < fifo.n; i++) free(at(i)->text);
    free(fifo.r);
    fifo.r = r;
    fifo.cap = s->n ? s->n : 1;
    fifo.head = 0;
    fifo.n = s->n;
    fifo.used = s->used;
    fifo.dropped = s->dropped;
    fifo.dropped_bytes = s->dropped_bytes;
    fifo.dropped_unreported = s->dropped_unreported;
    fifo.printed = s->printed;
    pthread_mutex_unlock(&fifo.lock);
    return true;
}
