/* cache.c: set-associative tag arrays with LRU replacement and per-sector valid and dirty
 * masks (L1 and the L2 slices). Sets are indexed by the line address with its upper bits
 * folded in, so power-of-two strides do not all fall in one set.
 *
 * A lookup reads as few host cache lines as it can (a streaming kernel misses in L2 on every
 * request, and a set's 24 ways of 64-bit tags and uses were six host lines): a set's ways'
 * 16-bit fingerprints of their tags and their last uses (32 bits) lie side by side in `meta`,
 * a 24-way set's in three host lines, its fingerprints in the first; the full tag is in the
 * line (tm_line), read only where the fingerprint matches (a hit, which reads the line anyway).
 * A use that does not fit 32 bits moves the cache's uses to 64 bits (`wide`), so the victim is
 * always the way of the least last use, the lowest among equals. */
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/* c's geometry for `bytes` in `ways` ways (no arrays yet) */
static void cache_shape(tm_cache *c, uint64_t bytes, uint32_t ways)
{
    uint64_t lines = bytes / TM_LINE;
    c->ways = ways ? ways : 1;
    c->sets = (uint32_t)(lines / c->ways);
    if (!c->sets) c->sets = 1;
    c->pow2 = (c->sets & (c->sets - 1)) == 0;
    c->set_mask = c->sets - 1;
    /* the fingerprints in whole 16-byte groups (way_of compares eight at once) */
    c->uses_at = (uint32_t)round_up(2 * (size_t)c->ways, 16);
    /* a set in whole host lines, or a power-of-two part of one (never across two) */
    size_t stride = c->uses_at + 4 * (size_t)c->ways, p = 16;
    if (stride < 64) {
        while (p < stride) p *= 2;
        stride = p;
    } else {
        stride = round_up(stride, 64);
    }
    c->stride = (uint32_t)stride;
    c->wide = NULL;
    c->narrow_end = UINT64_C(1) << 32;
    c->lines = NULL;
    c->meta = NULL;
    c->block = NULL;
    c->block_bytes = 0;
}

/* The lines and meta of n caches of one shape (the SMs' L1s, the L2 slices) in one allocation,
 * each cache's lines then its meta on whole host lines: allocated cache by cache (160 L1s and
 * 64 L2 slices on v100) each grew the host thread's heap, an mprotect call apiece. calloc's
 * pages come zeroed when first touched (a memset would touch them all now); a block kept from
 * an earlier kernel (`kind` >= 0, kept.c) has its pages, and is zeroed here. */
static bool init_in(tm_cache *c, uint32_t n, uint64_t bytes, uint32_t ways, int kind)
{
    for (uint32_t i = 0; i < n; i++) cache_shape(&c[i], bytes, ways);
    if (!n) return true;
    size_t lines = round_up((size_t)c->sets * c->ways * sizeof *c->lines, 64);
    size_t each = lines + round_up((size_t)c->sets * c->stride, 64);
    size_t need = (size_t)n * each + 63, have = 0;
    void *block = kind >= 0 ? tm_kept_take((tm_kept_kind)kind, need, &have) : NULL;
    if (block) memset(block, 0, need);
    else block = calloc(need, 1);
    if (!block) return false;
    uint8_t *at = (uint8_t *)round_up((uintptr_t)block, 64);
    c[0].block = block;
    c[0].block_bytes = have > need ? have : need;
    for (uint32_t i = 0; i < n; i++, at += each) {
        c[i].lines = (tm_line *)(void *)at;
        c[i].meta = at + lines;
    }
    return true;
}

bool tm_cache_init_n(tm_cache *c, uint32_t n, uint64_t bytes, uint32_t ways)
{
    return init_in(c, n, bytes, ways, -1);
}

bool tm_cache_init_kept(tm_cache *c, uint32_t n, uint64_t bytes, uint32_t ways, tm_kept_kind kind)
{
    return init_in(c, n, bytes, ways, (int)kind);
}

void tm_cache_free_kept(tm_cache *c, uint32_t n, tm_kept_kind kind)
{
    if (!n) return;
    void *block = c[0].block;
    size_t bytes = c[0].block_bytes;
    c[0].block = NULL;
    for (uint32_t i = 0; i < n; i++) tm_cache_free(&c[i]);
    tm_kept_give(kind, block, bytes);
}

bool tm_cache_init(tm_cache *c, uint64_t bytes, uint32_t ways)
{
    return tm_cache_init_n(c, 1, bytes, ways);
}

void tm_cache_touch_n(tm_cache *c, uint32_t n, uint32_t part, uint32_t parts)
{
    if (!n || !parts || !c[0].lines) return;
    uint8_t *start = (uint8_t *)c[0].lines;
    size_t bytes = (size_t)(c[n - 1].meta + (size_t)c[n - 1].sets * c[n - 1].stride - start);
    size_t lo = bytes * part / parts, hi = (size_t)(bytes * ((uint64_t)part + 1) / parts);
    tm_touch(start + lo, hi - lo);
}

void tm_cache_free(tm_cache *c)
{
    free(c->block);
    free(c->wide);
    c->lines = NULL;
    c->meta = NULL;
    c->block = NULL;
    c->wide = NULL;
}

void tm_cache_clear(tm_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
    memset(c->meta, 0, (size_t)c->sets * c->stride);
    if (c->wide) memset(c->wide, 0, (size_t)c->sets * c->ways * sizeof *c->wide);
}

static uint32_t set_of(const tm_cache *c, uint64_t line)
{
    uint64_t h = line ^ (line >> 7) ^ (line >> 15);
    /* the same set either way; a division takes tens of host cycles, and every access of L1
     * and L2 asks it once or twice */
    return c->pow2 ? (uint32_t)(h & c->set_mask) : (uint32_t)(h % c->sets);
}

/* A line's fingerprint: never 0 (an empty way's), from all its bits (the set's index takes the
 * low bits of a fold of them). */
static uint16_t fingerprint(uint64_t line)
{
    return (uint16_t)(((line + 1) * UINT64_C(0x9E3779B97F4A7C15)) >> 48) | 1u;
}

static uint8_t *set_meta(const tm_cache *c, uint32_t set)
{
    return &c->meta[(size_t)set * c->stride];
}

static uint32_t *uses_of(const tm_cache *c, uint8_t *sm)
{
    return (uint32_t *)(void *)&sm[c->uses_at];
}

/* The cache's uses in 64 bits from now on (a kernel past 2^32 cycles). */
static void go_wide(tm_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    c->wide = malloc(n * sizeof *c->wide);
    if (!c->wide) abort();
    for (uint32_t s = 0; s < c->sets; s++)
        for (uint32_t i = 0; i < c->ways; i++)
            c->wide[(size_t)s * c->ways + i] = uses_of(c, set_meta(c, s))[i];
    c->narrow_end = 0;
}

/* Way `way` of set `set` (its meta at sm) used at `now`. */
static void set_use(tm_cache *c, uint8_t *sm, uint32_t set, uint32_t way, uint64_t now)
{
    if (__builtin_expect(now >= c->narrow_end, 0)) {
        if (!c->wide) go_wide(c);
        c->wide[(size_t)set * c->ways + way] = now;
    } else {
        uses_of(c, sm)[way] = (uint32_t)now;
    }
}

/* The way holding `line` (its tag line + 1) of the set whose meta is at sm and lines at L, or
 * UINT32_MAX: the ways whose fingerprint matches, eight at a time (the fingerprints' padding
 * is 0, never a match). */
static inline __attribute__((always_inline)) uint32_t
way_of(const tm_cache *c, const uint8_t *sm, const tm_line *L, uint64_t line)
{
    const uint16_t *fp = (const uint16_t *)(const void *)sm;
    uint16_t f = fingerprint(line);
#ifdef __SSE2__
    __m128i key = _mm_set1_epi16((short)f);
    for (uint32_t from = 0; from < c->ways; from += 8) {
        __m128i v = _mm_load_si128((const __m128i *)(const void *)&fp[from]);
        /* a bit per byte: the low one of each way's two */
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi16(v, key)) & 0x5555u;
        for (; m; m &= m - 1) {
            uint32_t i = from + (uint32_t)__builtin_ctz(m) / 2;
            if (L[i].tag == line + 1) return i;
        }
    }
#else
    for (uint32_t i = 0; i < c->ways; i++)
        if (fp[i] == f && L[i].tag == line + 1) return i;
#endif
    return UINT32_MAX;
}

tm_line *tm_cache_find(tm_cache *c, uint64_t line, uint64_t now)
{
    uint32_t set = set_of(c, line);
    uint8_t *sm = set_meta(c, set);
    tm_line *L = &c->lines[(size_t)set * c->ways];
    /* a miss (the victim's choice) reads all of the set's uses */
    for (uint32_t k = 64; k < c->stride; k += 64) __builtin_prefetch(&sm[k], 1);
    uint32_t i = way_of(c, sm, L, line);
    if (i == UINT32_MAX) return NULL;
    set_use(c, sm, set, i, now);
    return &L[i];
}

#ifdef __SSE2__
/* The first of a set's n (>= 12; fewer are as cheap one by one) uses that is least, four at a
 * time (an L2 set's 24 ways took a compare and a branch each per allocation: every L2 miss of
 * a streaming kernel). Unsigned order: the uses compared with their top bit flipped, as
 * signed. */
static uint32_t least_use(const uint32_t *u, uint32_t n)
{
    const __m128i flip = _mm_set1_epi32(INT32_MIN);
    __m128i mn = _mm_set1_epi32(INT32_MAX), lt, sh;
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)&u[i]), flip);
        lt = _mm_cmplt_epi32(x, mn);
        mn = _mm_or_si128(_mm_and_si128(lt, x), _mm_andnot_si128(lt, mn));
    }
    sh = _mm_shuffle_epi32(mn, _MM_SHUFFLE(1, 0, 3, 2));
    lt = _mm_cmplt_epi32(sh, mn);
    mn = _mm_or_si128(_mm_and_si128(lt, sh), _mm_andnot_si128(lt, mn));
    sh = _mm_shuffle_epi32(mn, _MM_SHUFFLE(2, 3, 0, 1));
    lt = _mm_cmplt_epi32(sh, mn);
    mn = _mm_or_si128(_mm_and_si128(lt, sh), _mm_andnot_si128(lt, mn));
    uint32_t least = (uint32_t)_mm_cvtsi128_si32(mn) ^ UINT32_C(0x80000000);
    for (uint32_t j = i; j < n; j++)
        if (u[j] < least) least = u[j];
    __m128i key = _mm_set1_epi32((int)least);
    for (i = 0; i + 4 <= n; i += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)&u[i]), key);
        unsigned mask = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(eq));
        if (mask) return i + (uint32_t)__builtin_ctz(mask);
    }
    while (u[i] != least) i++;
    return i;
}
#endif

tm_line *tm_cache_alloc(tm_cache *c, uint64_t line, uint64_t now, tm_evicted *victim)
{
    uint32_t set = set_of(c, line);
    uint8_t *sm = set_meta(c, set);
    uint16_t *fp = (uint16_t *)(void *)sm;
    uint32_t v = 0;
    /* the first empty way, else the least recently used; among equals the lowest way (a fixed
     * choice). A set's valid ways are its first ones (only this fills a way, the first empty
     * one, and only tm_cache_clear empties them, all at once): a full set, the usual one once a
     * kernel has run a while, is known by its last way. */
    if (fp[c->ways - 1]) {
        if (c->wide) {
            const uint64_t *u = &c->wide[(size_t)set * c->ways];
            for (uint32_t i = 1; i < c->ways; i++)
                if (u[i] < u[v]) v = i;
        } else {
            const uint32_t *u = uses_of(c, sm);
#ifdef __SSE2__
            if (c->ways >= 12) {
                v = least_use(u, c->ways);
            } else
#endif
                for (uint32_t i = 1; i < c->ways; i++)
                    if (u[i] < u[v]) v = i;
        }
    } else {
#ifdef __SSE2__
        /* the first 0 fingerprint, eight at a time (the last way's is 0, so one is found) */
        for (uint32_t from = 0;; from += 8) {
            __m128i f = _mm_load_si128((const __m128i *)(const void *)&fp[from]);
            uint32_t mask = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi16(f, _mm_setzero_si128())) & 0x5555u;
            if (mask) {
                v = from + (uint32_t)__builtin_ctz(mask) / 2;
                break;
            }
        }
#else
        while (fp[v]) v++;
#endif
    }
    tm_line *L = &c->lines[(size_t)set * c->ways + v];
    if (victim) *victim = (tm_evicted){.tag = L->tag, .dirty = L->tag ? L->dirty : 0};
    *L = (tm_line){.fill = now, .tag = line + 1};
    fp[v] = fingerprint(line);
    set_use(c, sm, set, v, now);
    return L;
}

tm_line *tm_cache_peek(tm_cache *c, uint64_t line)
{
    uint32_t set = set_of(c, line);
    tm_line *L = &c->lines[(size_t)set * c->ways];
    uint32_t i = way_of(c, set_meta(c, set), L, line);
    return i == UINT32_MAX ? NULL : &L[i];
}

void tm_cache_prefetch_set(const tm_cache *c, uint64_t line)
{
    uint32_t set = set_of(c, line);
    const uint8_t *sm = set_meta(c, set);
    for (uint32_t k = 0; k < c->stride; k += 64) __builtin_prefetch(&sm[k]);
    const char *L = (const char *)&c->lines[(size_t)set * c->ways];
    size_t n = (size_t)c->ways * sizeof(tm_line);
    for (size_t k = 0; k < n; k += 64) __builtin_prefetch(&L[k]);
    __builtin_prefetch(&L[n - 1]);
}
