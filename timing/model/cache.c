/* cache.c: set-associative tag arrays with LRU replacement and per-sector valid and dirty
 * masks (L1 and the L2 slices). Sets are indexed by the line address with its upper bits
 * folded in, so power-of-two strides do not all fall in one set.
 *
 * A set's tags and last uses lie side by side in `meta` (a lookup reads the tags, a miss's
 * victim choice the uses right after them: one stretch of host memory per set, fetched while
 * the tags are compared), the lines' fill times and masks apart (16 bytes each). */
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

bool tm_cache_init(tm_cache *c, uint64_t bytes, uint32_t ways)
{
    uint64_t lines = bytes / TM_LINE;
    c->ways = ways ? ways : 1;
    c->sets = (uint32_t)(lines / c->ways);
    if (!c->sets) c->sets = 1;
    c->pow2 = (c->sets & (c->sets - 1)) == 0;
    c->set_mask = c->sets - 1;
    c->lines = calloc((size_t)c->sets * c->ways, sizeof *c->lines);
    c->meta = calloc((size_t)c->sets * c->ways * 2, sizeof *c->meta);
    return c->lines != NULL && c->meta != NULL;
}

void tm_cache_free(tm_cache *c)
{
    free(c->lines);
    free(c->meta);
    c->lines = NULL;
    c->meta = NULL;
}

void tm_cache_clear(tm_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
    memset(c->meta, 0, (size_t)c->sets * c->ways * 2 * sizeof *c->meta);
}

static uint32_t set_of(const tm_cache *c, uint64_t line)
{
    uint64_t h = line ^ (line >> 7) ^ (line >> 15);
    /* the same set either way; a division takes tens of host cycles, and every access of L1
     * and L2 asks it once or twice */
    return c->pow2 ? (uint32_t)(h & c->set_mask) : (uint32_t)(h % c->sets);
}

static uint64_t *tags_of(const tm_cache *c, uint32_t set)
{
    return &c->meta[(size_t)set * c->ways * 2];
}

/* the set's last uses follow its tags */
static void prefetch_uses(const uint64_t *tags, uint32_t ways)
{
    for (uint32_t i = 0; i < ways; i += 8) __builtin_prefetch(&tags[ways + i], 1);
}

tm_line *tm_cache_find(tm_cache *c, uint64_t line, uint64_t now)
{
    uint32_t set = set_of(c, line);
    uint64_t *t = tags_of(c, set);
    prefetch_uses(t, c->ways);
    for (uint32_t i = 0; i < c->ways; i++)
        if (t[i] == line + 1) {
            t[c->ways + i] = now;
            return &c->lines[(size_t)set * c->ways + i];
        }
    return NULL;
}

tm_line *tm_cache_alloc(tm_cache *c, uint64_t line, uint64_t now, tm_evicted *victim)
{
    uint32_t set = set_of(c, line);
    uint64_t *t = tags_of(c, set), *u = t + c->ways;
    uint32_t v = 0;
    /* the first invalid way, else the least recently used; among equals the lowest way (a
     * fixed choice). A set's valid ways are its first ones (only this fills a way, the first
     * invalid one, and only tm_cache_clear empties them, all at once): a full set, the usual
     * one once a kernel has run a while, is known by its last way. */
    if (t[c->ways - 1]) {
        for (uint32_t i = 1; i < c->ways; i++)
            if (u[i] < u[v]) v = i;
    } else {
        while (t[v]) v++;
    }
    tm_line *L = &c->lines[(size_t)set * c->ways + v];
    if (victim) *victim = (tm_evicted){.tag = t[v], .dirty = t[v] ? L->dirty : 0};
    *L = (tm_line){.fill = now};
    t[v] = line + 1;
    u[v] = now;
    return L;
}

tm_line *tm_cache_peek(tm_cache *c, uint64_t line)
{
    uint32_t set = set_of(c, line);
    const uint64_t *t = tags_of(c, set);
    for (uint32_t i = 0; i < c->ways; i++)
        if (t[i] == line + 1) return &c->lines[(size_t)set * c->ways + i];
    return NULL;
}

void tm_cache_prefetch_set(const tm_cache *c, uint64_t line)
{
    uint32_t set = set_of(c, line);
    const uint64_t *t = tags_of(c, set);
    for (uint32_t i = 0; i < c->ways; i += 8) __builtin_prefetch(&t[i]);
    const tm_line *L = &c->lines[(size_t)set * c->ways];
    for (uint32_t i = 0; i < c->ways; i += 4) __builtin_prefetch(&L[i]);
    __builtin_prefetch(&L[c->ways - 1]);
}
