/* log.c: GPUDet's store buffer in parallel mode, in cycles (spec gpudet.md S6).
 *
 * Each warp slot's log of the quantum: a global store (or a generic one whose lanes are all
 * global) appends one entry per 128-byte chunk it touches (S6.1: chunk address, 128 bytes of
 * data and a 128-bit mask, TM_ZREQ_BYTES) to the warp's log in private memory. The log lives in
 * L1 (write-back), so an entry holds the load/store unit for the two lines it spans and costs
 * the L1 latency; nothing goes to the L2 (the global line is left alone, S6.1), the commit
 * takes the data there. Every append inserts the chunk into the warp's parallel Bloom filter
 * (gpudet_bloom_bits, 4 sub-arrays, a hash function each: S6.2). A global load queries the
 * filter per chunk; on a hit it reads every entry's header of the log (a linear search, the
 * conservative full scan of S6.3: one L1 access per entry, pipelined) before its normal
 * access, which it makes anyway (bytes the log does not cover). A false positive costs the same
 * search. With gpudet_bloom_bits = 0 the filter is ideal: only chunks in the log search.
 * The log and the filter are cleared when the warp's next record is of a later quantum (the
 * commit emptied them). What is left out: log lines evicting data from L1, and the log read by
 * commit mode (its requests are timed by commit.c). */
#include "timing/detcost/detcost.h"

#include <stdlib.h>
#include <string.h>

typedef struct tm_gdl_warp {
    uint64_t q;               /* the quantum its log belongs to */
    uint64_t *chunks;         /* the log's chunks, in order */
    uint64_t n, cap;
    uint64_t *bloom;          /* words of the filter */
} tm_gdl_warp;

typedef struct tm_gdl {
    tm_gdl_warp *w;           /* SM * warp slots */
    uint64_t nw;
    uint32_t words;           /* per filter (0: ideal) */
    uint32_t sub_bits;        /* bits of each of the 4 sub-arrays */
    uint64_t *bits;           /* every filter's words */
} tm_gdl;

bool tm_gdl_init(tm_model *M)
{
    if (!M->trace || M->dab) return true;
    tm_gdl *L = calloc(1, sizeof *L);
    if (!L) return false;
    M->gdl = L;
    L->nw = (uint64_t)M->nsm * M->warp_slots;
    uint32_t bits = (uint32_t)M->gpu->gpudet_bloom_bits;
    L->sub_bits = bits / 4;
    L->words = L->sub_bits ? (4 * L->sub_bits + 63) / 64 : 0;
    L->w = calloc(L->nw ? L->nw : 1, sizeof *L->w);
    L->bits = L->words ? calloc(L->nw ? L->nw * L->words : 1, sizeof *L->bits) : NULL;
    if (!L->w || (L->words && !L->bits)) return false;
    for (uint64_t i = 0; L->words && i < L->nw; i++) L->w[i].bloom = L->bits + i * L->words;
    return true;
}

void tm_gdl_free(tm_model *M)
{
    tm_gdl *L = M->gdl;
    if (!L) return;
    if (L->w)
        for (uint64_t i = 0; i < L->nw; i++) free(L->w[i].chunks);
    free(L->w);
    free(L->bits);
    free(L);
    M->gdl = NULL;
}

/* Sub-array i's bit for chunk (one hash function per sub-array). */
static uint32_t bloom_bit(const tm_gdl *L, uint64_t chunk, unsigned i)
{
    uint64_t h = (chunk + i) * UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return i * L->sub_bits + (uint32_t)(h % L->sub_bits);
}

static bool in_log(const tm_gdl_warp *lw, uint64_t chunk)
{
    for (uint64_t i = 0; i < lw->n; i++)
        if (lw->chunks[i] == chunk) return true;
    return false;
}

static bool bloom_hit(const tm_gdl *L, const tm_gdl_warp *lw, uint64_t chunk)
{
    if (!L->words) return in_log(lw, chunk);
    for (unsigned i = 0; i < 4; i++) {
        uint32_t b = bloom_bit(L, chunk, i);
        if (!(lw->bloom[b / 64] >> (b % 64) & 1)) return false;
    }
    return true;
}

static bool append(const tm_gdl *L, tm_gdl_warp *lw, uint64_t chunk)
{
    if (lw->n == lw->cap) {
        uint64_t c = lw->cap ? 2 * lw->cap : 64;
        uint64_t *p = realloc(lw->chunks, c * sizeof *p);
        if (!p) return false;
        lw->chunks = p;
        lw->cap = c;
    }
    lw->chunks[lw->n++] = chunk;
    for (unsigned i = 0; L->words && i < 4; i++) {
        uint32_t b = bloom_bit(L, chunk, i);
        lw->bloom[b / 64] |= UINT64_C(1) << (b % 64);
    }
    return true;
}

bool tm_gdl_access(tm_model *M, tm_sm *S, tm_warp *tw, const tm_rec *r, const emu_event *e,
                   uint64_t now, uint64_t *done, uint64_t *lsu)
{
    tm_gdl *L = M->gdl;
    if (!L || !r || r->serial || !(e->flags & EMU_EV_MEM)) return false;
    bool store = e->cls == EMU_CLS_ST_GLOBAL || e->cls == EMU_CLS_ST_GENERIC;
    bool load = e->cls == EMU_CLS_LD_GLOBAL || e->cls == EMU_CLS_LD_GENERIC;
    if (!store && !load) return false;
    /* the chunks of its lanes, all of them global */
    uint64_t chunks[EMU_WARP_SIZE];
    unsigned nc = 0;
    for (uint32_t m = e->mem_lanes; m; m &= m - 1) {
        uint64_t a = emu_event_lane_addr(e, __builtin_ctz(m)), off;
        if (e->space != PTX_SPACE_GLOBAL && emu_address_space(a, &off) != PTX_SPACE_GLOBAL) return false;
        uint64_t c = a / TM_LINE;
        unsigned k = 0;
        while (k < nc && chunks[k] != c) k++;
        if (k == nc) chunks[nc++] = c;
    }
    if (!nc) return false;
    tm_gdl_warp *lw = &L->w[(uint64_t)S->id * M->warp_slots + (uint64_t)(tw - S->warps)];
    if (lw->q != r->quantum) {
        lw->q = r->quantum;
        lw->n = 0;
        if (L->words) memset(lw->bloom, 0, L->words * sizeof *lw->bloom);
    }
    const timing_gpu *g = M->gpu;
    if (store) {
        for (unsigned k = 0; k < nc; k++)
            if (!append(L, lw, chunks[k])) {
                M->stop = true;
                emu_grid_abort(M->g, EMU_FAULT_OUT_OF_RESOURCES,
                               "out of host memory for the cycle model's store-buffer logs");
                return false;
            }
        M->st.gd_log_writes += nc;
        *lsu = (nc * TM_ZREQ_BYTES + TM_LINE - 1) / TM_LINE;
        *done = now + (uint64_t)g->l1_latency;
        return true;
    }
    uint64_t read = 0;
    for (unsigned k = 0; k < nc; k++) {
        if (!lw->n || !bloom_hit(L, lw, chunks[k])) continue;
        M->st.gd_log_searches++;
        if (L->words && !in_log(lw, chunks[k])) M->st.gd_bloom_false++;
        read += lw->n;
    }
    M->st.gd_log_entries_read += read;
    uint64_t extra = read ? (uint64_t)g->l1_latency + read : 0;
    tm_access a = tm_mem_access(&M->mem, S->id, now + extra, e);
    *done = a.done;
    *lsu = a.lsu_cycles + read;
    return true;
}
