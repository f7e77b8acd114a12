/* commit.c: GPUDet's commit mode in cycles (spec gpudet.md S7).
 *
 * Z-buffer commit (S7.2): one Z-buffer unit per DRAM channel takes one request per cycle of
 * zunit_clock_khz; a request whose chunk's depth block is not in the unit's Z-cache
 * (zcache_bytes of 128-byte blocks, fully associative, LRU: ptxsim's choice, the paper gives no
 * organisation) fetches it from the L2 and is deferred; the unit works on zunit_requests
 * requests at once, so its misses overlap in groups of that many, each group one L2 access
 * (l2_latency) added to the unit's time (ptxsim's choice). Depth blocks stay cached from
 * quantum to quantum (one grid's record: the Z-caches start cold at each launch). Dirty depth
 * blocks written back on eviction are not charged.
 *
 * Lock-based commit (S7.6, the paper's baseline, --gpudet-commit=lock): every warp walks its
 * log, and for each entry locks the entry's chunk with an atomic at the L2, compares priorities
 * and writes the chunk, waits for the write, and unlocks. So a warp takes two round trips per
 * entry, and the lock of one chunk is held for a round trip and the unlock's trip per entry
 * that writes it. Commit mode ends with the slowest of: the longest log, the most contended
 * chunk, the busiest L2 channel (lock, write and unlock: three operations per entry, one per
 * cycle per slice), the busiest SM port (the request plus two lock messages per entry); then a
 * round trip. As in the paper, contended atomics cost nothing beyond their order. */
#include "timing/detcost/detcost.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of a lock or unlock message: an address and an opcode (ptxsim's choice). */
#define TM_LOCK_MSG_BYTES 16u

typedef struct tm_gdc {
    tm_cache *zc;             /* per unit: the Z-cache */
    uint32_t nunit;
    uint64_t clock;           /* LRU order of the Z-caches */
    uint64_t *miss, miss_cap; /* per quantum and unit: [(q - 1) * nunit + unit] */
    uint64_t *lk, lk_cap;     /* per quantum: [2(q - 1)] the longest log of one warp,
                                 [2(q - 1) + 1] the most entries of one chunk */
    uint64_t q;               /* the quantum being recorded */
    uint32_t wid;             /* the warp committing now, and its entries so far */
    uint64_t wn;
    uint64_t *ckey;           /* entries per chunk this quantum: open addressing, key chunk + 1 */
    uint64_t *cnt;
    uint64_t ccap, cn;
} tm_gdc;

static bool grow(uint64_t **p, uint64_t *cap, uint64_t need)
{
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    uint64_t *q = realloc(*p, c * sizeof *q);
    if (!q) return false;
    memset(q + *cap, 0, (c - *cap) * sizeof *q);
    *p = q;
    *cap = c;
    return true;
}

bool tm_gdc_open(tm_trace *t)
{
    tm_gdc *c = calloc(1, sizeof *c);
    if (!c) return false;
    c->nunit = t->nchan ? t->nchan : 1;
    c->zc = calloc(c->nunit, sizeof *c->zc);
    c->wid = UINT32_MAX;
    uint64_t blocks = (uint64_t)t->gpu->zcache_bytes / TM_LINE;
    bool ok = c->zc != NULL;
    for (uint32_t i = 0; ok && i < c->nunit; i++)
        ok = tm_cache_init(&c->zc[i], (uint64_t)t->gpu->zcache_bytes, (uint32_t)(blocks ? blocks : 1));
    t->gdc = c;
    if (!ok) tm_gdc_free(t);
    return ok;
}

void tm_gdc_free(tm_trace *t)
{
    tm_gdc *c = t->gdc;
    if (!c) return;
    if (c->zc)
        for (uint32_t i = 0; i < c->nunit; i++) tm_cache_free(&c->zc[i]);
    free(c->zc);
    free(c->miss);
    free(c->lk);
    free(c->ckey);
    free(c->cnt);
    free(c);
    t->gdc = NULL;
}

/* One more entry of chunk in this quantum: how many it has now (0: out of memory). */
static uint64_t chunk_count(tm_gdc *c, uint64_t chunk)
{
    if (2 * (c->cn + 1) > c->ccap) {
        uint64_t ncap = c->ccap ? 2 * c->ccap : 1024;
        uint64_t *k = calloc(ncap, sizeof *k), *n = calloc(ncap, sizeof *n);
        if (!k || !n) {
            free(k);
            free(n);
            return 0;
        }
        for (uint64_t i = 0; i < c->ccap; i++) {
            if (!c->ckey[i]) continue;
            uint64_t h = (c->ckey[i] * UINT64_C(0x9E3779B97F4A7C15)) & (ncap - 1);
            while (k[h]) h = (h + 1) & (ncap - 1);
            k[h] = c->ckey[i];
            n[h] = c->cnt[i];
        }
        free(c->ckey);
        free(c->cnt);
        c->ckey = k;
        c->cnt = n;
        c->ccap = ncap;
    }
    uint64_t key = chunk + 1, h = (key * UINT64_C(0x9E3779B97F4A7C15)) & (c->ccap - 1);
    while (c->ckey[h] && c->ckey[h] != key) h = (h + 1) & (c->ccap - 1);
    if (!c->ckey[h]) {
        c->ckey[h] = key;
        c->cn++;
    }
    return ++c->cnt[h];
}

void tm_gdc_record(tm_trace *t, uint32_t wid, uint64_t chunk, uint32_t chan)
{
    tm_gdc *c = t->gdc;
    uint64_t q = t->quantum;
    if (!c || !q) return;
    if (q != c->q) {
        c->q = q;
        c->wid = UINT32_MAX;
        if (c->cn) {
            memset(c->ckey, 0, c->ccap * sizeof *c->ckey);
            memset(c->cnt, 0, c->ccap * sizeof *c->cnt);
            c->cn = 0;
        }
    }
    if (!grow(&c->miss, &c->miss_cap, q * c->nunit) || !grow(&c->lk, &c->lk_cap, 2 * q)) {
        t->oom = true;
        return;
    }
    if (chan >= c->nunit) chan = c->nunit - 1;
    c->clock++;
    if (!tm_cache_find(&c->zc[chan], chunk / TM_LINE, c->clock)) {
        tm_evicted victim;
        tm_cache_alloc(&c->zc[chan], chunk / TM_LINE, c->clock, &victim);
        c->miss[(q - 1) * c->nunit + chan]++;
    }
    if (wid != c->wid) {
        c->wid = wid;
        c->wn = 0;
    }
    uint64_t *row = &c->lk[2 * (q - 1)];
    if (++c->wn > row[0]) row[0] = c->wn;
    uint64_t n = chunk_count(c, chunk);
    if (!n) t->oom = true;
    if (n > row[1]) row[1] = n;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

uint64_t tm_gdc_cycles(const tm_model *M, uint64_t q, const uint64_t *unit_reqs,
                       const uint64_t *port_entries, uint64_t *misses)
{
    const tm_trace *t = M->trace;
    const timing_gpu *g = M->gpu;
    const tm_gdc *c = t->gdc;
    *misses = 0;
    uint64_t reqs = 0, busiest = 0, port = 0;
    for (uint32_t u = 0; u < t->nchan; u++) {
        reqs += unit_reqs[u];
        busiest = max2(busiest, unit_reqs[u]);
    }
    for (uint32_t s = 0; s < t->nsm; s++) port = max2(port, port_entries[s]);
    if (!reqs) return 0;
    uint64_t icnt = (uint64_t)g->icnt_latency, l2 = (uint64_t)g->l2_latency;
    uint64_t bpc = (uint64_t)g->icnt_bytes_per_cycle;
    if (M->lock_commit) {
        const uint64_t *row = c && 2 * q <= c->lk_cap ? &c->lk[2 * (q - 1)] : NULL;
        uint64_t rtt = 2 * icnt + l2;
        uint64_t slices = g->dram_channels > 0 && g->l2_slices > g->dram_channels
                              ? (uint64_t)(g->l2_slices / g->dram_channels) : 1;
        uint64_t t_warp = row ? row[0] * 2 * rtt : 0;
        uint64_t t_chunk = row ? row[1] * (rtt + icnt) : 0;
        uint64_t t_l2 = ceil_div(3 * busiest, slices);
        uint64_t t_port = ceil_div(port * (TM_ZREQ_BYTES + 2 * TM_LOCK_MSG_BYTES), bpc);
        return max2(max2(t_warp, t_chunk), max2(t_l2, t_port)) + rtt;
    }
    const uint64_t *mrow = c && q * c->nunit <= c->miss_cap ? &c->miss[(q - 1) * c->nunit] : NULL;
    uint64_t unit = 0;
    for (uint32_t u = 0; u < t->nchan; u++) {
        uint64_t m = mrow && u < c->nunit ? mrow[u] : 0;
        *misses += m;
        /* a unit takes one request per cycle of its clock: model cycles = n x model / unit
         * clock; its misses overlap zunit_requests at a time, each group an L2 access */
        uint64_t cyc = ceil_div(unit_reqs[u] * (uint64_t)g->model_clock_khz, (uint64_t)g->zunit_clock_khz) +
                       ceil_div(m, (uint64_t)g->zunit_requests) * l2;
        unit = max2(unit, cyc);
    }
    uint64_t port_cycles = ceil_div(port * TM_ZREQ_BYTES, bpc);
    return max2(unit, port_cycles) + icnt + l2;
}
