/* cache.c: set-associative tag arrays with LRU replacement and per-sector valid and dirty
 * masks (L1 and the L2 slices). Sets are indexed by the line address with its upper bits
 * folded in, so power-of-two strides do not all fall in one set. */
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

bool tm_cache_init(tm_cache *c, uint64_t bytes, uint32_t ways)
{
    uint64_t lines = bytes / TM_LINE;
    c->ways = ways ? ways : 1;
    c->sets = (uint32_t)(lines / c->ways);
    if (!c->sets) c->sets = 1;
    c->lines = calloc((size_t)c->sets * c->ways, sizeof *c->lines);
    c->tags = calloc((size_t)c->sets * c->ways, sizeof *c->tags);
    c->used = calloc((size_t)c->sets * c->ways, sizeof *c->used);
    return c->lines != NULL && c->tags != NULL && c->used != NULL;
}

void tm_cache_free(tm_cache *c)
{
    free(c->lines);
    free(c->tags);
    free(c->used);
    c->lines = NULL;
    c->tags = NULL;
    c->used = NULL;
}

void tm_cache_clear(tm_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
    memset(c->tags, 0, (size_t)c->sets * c->ways * sizeof *c->tags);
    memset(c->used, 0, (size_t)c->sets * c->ways * sizeof *c->used);
}

static size_t set_of(const tm_cache *c, uint64_t line)
{
    uint64_t h = line ^ (line >> 7) ^ (line >> 15);
    return (size_t)(h % c->sets) * c->ways;
}

tm_line *tm_cache_find(tm_cache *c, uint64_t line, uint64_t now)
{
    size_t s = set_of(c, line);
    const uint64_t *t = &c->tags[s];
    for (uint32_t i = 0; i < c->ways; i++)
        if (t[i] == line + 1) {
            c->used[s + i] = now;
            return &c->lines[s + i];
        }
    return NULL;
}

tm_line *tm_cache_alloc(tm_cache *c, uint64_t line, uint64_t now, tm_line *victim)
{
    size_t s = set_of(c, line);
    const uint64_t *t = &c->tags[s], *u = &c->used[s];
    uint32_t v = 0;
    /* the first invalid way, else the least recently used; among equals the lowest way (a
     * fixed choice) */
    while (v < c->ways && t[v]) v++;
    if (v == c->ways) {
        v = 0;
        for (uint32_t i = 1; i < c->ways; i++)
            if (u[i] < u[v]) v = i;
    }
    *victim = c->lines[s + v];
    c->lines[s + v] = (tm_line){.tag = line + 1, .fill = now};
    c->tags[s + v] = line + 1;
    c->used[s + v] = now;
    return &c->lines[s + v];
}

tm_line *tm_cache_peek(tm_cache *c, uint64_t line)
{
    size_t s = set_of(c, line);
    for (uint32_t i = 0; i < c->ways; i++)
        if (c->tags[s + i] == line + 1) return &c->lines[s + i];
    return NULL;
}
