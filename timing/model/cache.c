/* cache.c: set-associative tag arrays with LRU replacement and per-sector valid and dirty
 * masks (L1 and the L2 slices). Sets are indexed by the line address with its upper bits
 * folded in, so power-of-two strides do not all fall in one set. */
#include "timing/model/model.h"

#include <stdlib.h>

bool tm_cache_init(tm_cache *c, uint64_t bytes, uint32_t ways)
{
    uint64_t lines = bytes / TM_LINE;
    c->ways = ways ? ways : 1;
    c->sets = (uint32_t)(lines / c->ways);
    if (!c->sets) c->sets = 1;
    c->lines = calloc((size_t)c->sets * c->ways, sizeof *c->lines);
    return c->lines != NULL;
}

void tm_cache_free(tm_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}

static tm_line *set_of(tm_cache *c, uint64_t line)
{
    uint64_t h = line ^ (line >> 7) ^ (line >> 15);
    return &c->lines[(size_t)(h % c->sets) * c->ways];
}

tm_line *tm_cache_find(tm_cache *c, uint64_t line, uint64_t now)
{
    tm_line *s = set_of(c, line);
    for (uint32_t i = 0; i < c->ways; i++)
        if (s[i].tag == line + 1) {
            s[i].used = now;
            return &s[i];
        }
    return NULL;
}

tm_line *tm_cache_alloc(tm_cache *c, uint64_t line, uint64_t now, tm_line *victim)
{
    tm_line *s = set_of(c, line), *v = &s[0];
    for (uint32_t i = 0; i < c->ways; i++) {
        if (!s[i].tag) {
            v = &s[i];
            break;
        }
        /* least recently used; among equals the lowest way (a fixed choice) */
        if (s[i].used < v->used) v = &s[i];
    }
    *victim = *v;
    *v = (tm_line){.tag = line + 1, .fill = now, .used = now};
    return v;
}

tm_line *tm_cache_peek(tm_cache *c, uint64_t line)
{
    tm_line *s = set_of(c, line);
    for (uint32_t i = 0; i < c->ways; i++)
        if (s[i].tag == line + 1) return &s[i];
    return NULL;
}
