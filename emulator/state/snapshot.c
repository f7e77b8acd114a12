/* snapshot.c: the state a launch can change beyond its own threads, saved and put back, for
 * compare mode: the bytes of every live allocation, the device heap's bookkeeping, and the
 * device output not yet written to the host. */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct region {
    uint64_t base, size;
    uint8_t *bytes;
} region;

struct emu_snapshot {
    region *r;
    size_t n;
    emu_heap_state *heap;
    char *output;             /* the pending output as text, to compare */
    size_t output_len;
    emu_output_state *out;    /* ... and the FIFO itself, to put back */
};

emu_snapshot *emu_snapshot_take(void)
{
    emu_snapshot *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t n = emu_device_allocations(NULL, 0);
    emu_alloc_info *a = malloc((n ? n : 1) * sizeof *a);
    s->r = calloc(n ? n : 1, sizeof *s->r);
    if (!a || !s->r) goto fail;
    /* another host thread may have allocated since the count: the snapshot keeps the ones
     * counted (a launch's kernel cannot know a newer one), never more than `a` holds */
    size_t cap = n;
    n = emu_device_allocations(a, cap);
    if (n > cap) n = cap;
    for (size_t i = 0; i < n; i++) {
        region *r = &s->r[s->n];
        r->base = a[i].base;
        r->size = a[i].size;
        r->bytes = malloc(r->size ? r->size : 1);
        if (!r->bytes) goto fail;
        memcpy(r->bytes, (const void *)(uintptr_t)r->base, r->size);
        s->n++;
    }
    free(a);
    a = NULL;
    if (!(s->heap = emu_heap_save())) goto fail;
    if (!(s->output = emu_output_pending(&s->output_len))) goto fail;
    if (!(s->out = emu_output_save())) goto fail;
    return s;
fail:
    free(a);
    emu_snapshot_free(s);
    return NULL;
}

void emu_snapshot_restore(const emu_snapshot *s)
{
    for (size_t i = 0; i < s->n; i++)
        memcpy((void *)(uintptr_t)s->r[i].base, s->r[i].bytes, s->r[i].size);
    emu_heap_load(s->heap);
    if (!emu_output_load(s->out)) {
        /* out of memory for a copy: what is pending then came at least partly from the run
         * being undone, so none of it can be trusted */
        emu_output_drop_pending();
    }
}

bool emu_snapshot_differs(const emu_snapshot *s, uint64_t *addr, uint8_t *was, uint8_t *now,
                          char *why, size_t whylen)
{
    *addr = 0;
    if (why && whylen) why[0] = 0;
    for (size_t i = 0; i < s->n; i++) {
        const region *r = &s->r[i];
        const uint8_t *live = (const uint8_t *)(uintptr_t)r->base;
        if (memcmp(live, r->bytes, r->size) == 0) continue;
        for (uint64_t k = 0; k < r->size; k++)
            if (live[k] != r->bytes[k]) {
                *addr = r->base + k;
                *was = r->bytes[k];
                *now = live[k];
                return true;
            }
    }
    if (!emu_heap_state_equal(s->heap)) {
        snprintf(why, whylen, "the device heap's blocks differ (device malloc/free)");
        return true;
    }
    size_t len = 0;
    char *out = emu_output_pending(&len);
    bool differ = out && (len != s->output_len || memcmp(out, s->output, len) != 0);
    if (differ) {
        size_t k = 0;
        while (k < len && k < s->output_len && out[k] == s->output[k]) k++;
        snprintf(why, whylen, "the device printf output differs from byte %zu on", k);
    }
    free(out);
    return differ;
}

void emu_snapshot_free(emu_snapshot *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) free(s->r[i].bytes);
    free(s->r);
    emu_heap_state_free(s->heap);
    free(s->output);
    emu_output_state_free(s->out);
    free(s);
}
