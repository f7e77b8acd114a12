/* vector_clock.c: sparse vector clocks for racecheck's happens-before relation (FastTrack's
 * clocks, with a warp as the unit that owns a clock). */
#include "timing/check/check_internal.h"

#include <stdlib.h>
#include <string.h>

static uint32_t find(const ck_vc *v, uint64_t warp)
{
    uint32_t lo = 0, hi = v->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (v->t[mid].warp < warp) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

uint32_t ck_vc_get(const ck_vc *v, uint64_t warp)
{
    uint32_t i = find(v, warp);
    return i < v->n && v->t[i].warp == warp ? v->t[i].clock : 0;
}

static bool reserve(ck_vc *v, uint32_t n)
{
    if (n <= v->cap) return true;
    uint32_t cap = v->cap ? v->cap : 4;
    while (cap < n) cap *= 2;
    ck_tick *t = realloc(v->t, (size_t)cap * sizeof *t);
    if (!t) return false;
    v->t = t;
    v->cap = cap;
    return true;
}

bool ck_vc_raise(ck_vc *v, uint64_t warp, uint32_t clock)
{
    uint32_t i = find(v, warp);
    if (i < v->n && v->t[i].warp == warp) {
        if (v->t[i].clock < clock) v->t[i].clock = clock;
        return true;
    }
    if (!reserve(v, v->n + 1)) return false;
    memmove(v->t + i + 1, v->t + i, (size_t)(v->n - i) * sizeof *v->t);
    v->t[i] = (ck_tick){ warp, clock };
    v->n++;
    return true;
}

bool ck_vc_join(ck_vc *v, const ck_vc *w)
{
    if (!w->n) return true;
    /* merge two sorted lists into new storage */
    uint32_t total = v->n + w->n;
    ck_tick *out = malloc((size_t)total * sizeof *out);
    if (!out) return false;
    uint32_t i = 0, j = 0, k = 0;
    while (i < v->n || j < w->n) {
        if (j == w->n || (i < v->n && v->t[i].warp < w->t[j].warp)) out[k++] = v->t[i++];
        else if (i == v->n || w->t[j].warp < v->t[i].warp) out[k++] = w->t[j++];
        else {
            out[k] = v->t[i];
            if (out[k].clock < w->t[j].clock) out[k].clock = w->t[j].clock;
            k++, i++, j++;
        }
    }
    free(v->t);
    v->t = out;
    v->n = k;
    v->cap = total;
    return true;
}

void ck_vc_clear(ck_vc *v)
{
    v->n = 0;
}

void ck_vc_free(ck_vc *v)
{
    free(v->t);
    memset(v, 0, sizeof *v);
}
