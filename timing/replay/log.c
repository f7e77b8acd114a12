/* log.c: the byte encoding of the --record file and the hashes that tie it to its program. */
#include "timing/replay/replay_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rr_put_byte(rr_buf *b, uint8_t v)
{
    if (b->oom) return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    b->p[b->n++] = v;
}

void rr_put_varint(rr_buf *b, uint64_t v)
{
    while (v >= 0x80) {
        rr_put_byte(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    rr_put_byte(b, (uint8_t)v);
}

void rr_put_string(rr_buf *b, const char *s)
{
    size_t n = strlen(s);
    rr_put_varint(b, n);
    for (size_t i = 0; i < n; i++) rr_put_byte(b, (uint8_t)s[i]);
}

uint8_t rr_get_byte(rr_reader *r)
{
    if (r->at >= r->n) {
        r->bad = true;
        return 0;
    }
    return r->p[r->at++];
}

uint64_t rr_get_varint(rr_reader *r)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t b = rr_get_byte(r);
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    r->bad = true;
    return 0;
}

char *rr_get_string(rr_reader *r)
{
    uint64_t n = rr_get_varint(r);
    if (n > r->n - r->at) {
        r->bad = true;
        n = 0;
    }
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, r->p + r->at, n);
    s[n] = 0;
    r->at += n;
    return s;
}

uint64_t rr_hash(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t i = 0;
    /* eight bytes at a time: the device memory hashed per launch can be large */
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0x100000001b3);
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static bool all_zero(uint64_t base, uint64_t size)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)base;
    static const uint8_t zero[4096];
    for (uint64_t at = 0; at < size; at += sizeof zero) {
        size_t k = size - at < sizeof zero ? (size_t)(size - at) : sizeof zero;
        if (memcmp(p + at, zero, k) != 0) return false;
    }
    return true;
}

uint64_t rr_launch_hash(const emu_launch *L, const char *kernel)
{
    uint64_t h = rr_hash(RR_HASH_SEED, kernel, strlen(kernel));
    uint32_t shape[7] = { L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z,
                          L->dynamic_smem };
    h = rr_hash(h, shape, sizeof shape);
    if (L->params && L->params_size) h = rr_hash(h, L->params, L->params_size);
    size_t n = emu_device_allocations(NULL, 0);
    emu_alloc_info *a = n ? malloc(n * sizeof *a) : NULL;
    if (a) {
        size_t cap = n;   /* another host thread may have allocated since the count */
        n = emu_device_allocations(a, cap);
        if (n > cap) n = cap;
        for (size_t i = 0; i < n; i++) {
            /* registered host memory is the program's own; device memory is the input. An
             * allocation still all zero is left out: the program's host threads may make one
             * while the launch is queued, so whether it exists yet is a matter of timing */
            if (a[i].kind == EMU_ALLOC_HOST || all_zero(a[i].base, a[i].size)) continue;
            h = rr_hash(h, &a[i].base, sizeof a[i].base);
            h = rr_hash(h, (const void *)(uintptr_t)a[i].base, a[i].size);
        }
        free(a);
    }
    return h;
}

uint64_t rr_executable_hash(void)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f) return 0;
    uint64_t h = RR_HASH_SEED;
    uint8_t buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = rr_hash(h, buf, n);
    fclose(f);
    return h;
}
