/* ptx_strmap.c: the string-keyed hash map behind names (scopes, labels, mnemonics). */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

uint32_t ptx_hash(const char *s, size_t len)
{
    /* FNV-1a: names are short, so a simple byte hash is fastest here. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static ptx_strmap_slot *find(const ptx_strmap *m, const char *key, size_t len, uint32_t h)
{
    uint32_t mask = m->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        ptx_strmap_slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

int32_t ptx_strmap_get(const ptx_strmap *m, const char *key, size_t len)
{
    if (!m->cap)
        return -1;
    ptx_strmap_slot *s = find(m, key, len, ptx_hash(key, len));
    return s->key ? s->val : -1;
}

static void grow(ptx_strmap *m)
{
    ptx_strmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->slots = calloc(m->cap, sizeof(ptx_strmap_slot));
    if (!m->slots) {
        *m = old;   /* still whole, so the unwinding parse frees it */
        ptx_oom();
    }
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.slots[i].key)
            *find(m, old.slots[i].key, old.slots[i].len, old.slots[i].hash) = old.slots[i];
    free(old.slots);
}

int32_t ptx_strmap_put(ptx_strmap *m, const char *key, size_t len, int32_t val)
{
    if ((m->count + 1) * 4 >= m->cap * 3)
        grow(m);
    uint32_t h = ptx_hash(key, len);
    ptx_strmap_slot *s = find(m, key, len, h);
    if (s->key) {
        int32_t prev = s->val;
        s->val = val;
        return prev;
    }
    s->key = key;
    s->len = (uint32_t)len;
    s->hash = h;
    s->val = val;
    m->count++;
    return -1;
}

void ptx_strmap_free(ptx_strmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}
