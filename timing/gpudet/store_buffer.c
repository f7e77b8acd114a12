/* store_buffer.c: a warp slot's store buffer (spec gpudet.md S6).
 *
 * Two views of the same stores:
 * - the log: one entry per 128-byte chunk per store instruction, in program order, each with
 *   its byte mask and a link to the previous entry of its chunk (never merged into an older
 *   entry): what the hardware keeps, and what the statistics and a timing model count;
 * - the image: per chunk the bytes stored so far, each from the newest store that wrote it,
 *   and the mask of bytes stored. It is exactly what "each byte from the newest covering log
 *   entry" gives, kept up to date at every store, so a load of the warp's own writes and the
 *   commit take constant time per chunk instead of walking the log.
 */
#include "timing/gpudet/gpudet.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t chunk_hash(uint64_t chunk)
{
    return (uint32_t)(((chunk >> 7) * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
}

uint32_t gd_chunk_share(uint64_t chunk, uint32_t nparts)
{
    return nparts <= 1 ? 0 : chunk_hash(chunk) % nparts;
}

/* A run of len bytes from byte `from` of a chunk. */
static inline gd_mask run_mask(unsigned from, unsigned len)
{
    gd_mask m = len >= GD_CHUNK ? ~(gd_mask)0 : (((gd_mask)1 << len) - 1);
    return m << from;
}

void gd_sb_init(gd_sb *sb)
{
    memset(sb, 0, sizeof *sb);
}

void gd_sb_free(gd_sb *sb)
{
    free(sb->e);
    free(sb->lines);
    free(sb->index);
    free(sb->used_pos);
    memset(sb, 0, sizeof *sb);
}

void gd_sb_reset(gd_sb *sb)
{
    if (!sb->n) return;
    for (uint32_t i = 0; i < sb->nlines; i++) sb->index[sb->used_pos[i]] = -1;
    sb->n = 0;
    sb->nlines = 0;
}

/* Index position of chunk: where its line is, or the empty position where it would go. */
static uint32_t index_find(const gd_sb *sb, uint64_t chunk)
{
    uint32_t m = sb->index_cap - 1, p = chunk_hash(chunk) & m;
    while (sb->index[p] >= 0 && sb->lines[sb->index[p]].chunk != chunk) p = (p + 1) & m;
    return p;
}

/* The line of chunk, or NULL. */
static const gd_line *line_of(const gd_sb *sb, uint64_t chunk)
{
    if (!sb->nlines) return NULL;
    int32_t i = sb->index[index_find(sb, chunk)];
    return i >= 0 ? &sb->lines[i] : NULL;
}

static bool index_grow(gd_sb *sb)
{
    uint32_t ncap = sb->index_cap ? sb->index_cap * 2 : 64;
    int32_t *ni = malloc(ncap * sizeof *ni);
    uint32_t *np = malloc((ncap / 2) * sizeof *np);
    if (!ni || !np) {
        free(ni);
        free(np);
        return false;
    }
    memset(ni, 0xff, ncap * sizeof *ni);
    free(sb->index);
    free(sb->used_pos);
    sb->index = ni;
    sb->used_pos = np;
    sb->index_cap = ncap;
    for (uint32_t i = 0; i < sb->nlines; i++) {
        uint32_t p = index_find(sb, sb->lines[i].chunk);
        sb->index[p] = (int32_t)i;
        sb->used_pos[i] = p;
    }
    return true;
}

/* The line of chunk, made (empty) when there is none; NULL when memory ran out. */
static gd_line *line_for(gd_sb *sb, uint64_t chunk)
{
    if (sb->index_cap) {
        int32_t i = sb->index[index_find(sb, chunk)];
        if (i >= 0) return &sb->lines[i];
    }
    if (sb->nlines == sb->lines_cap) {
        uint32_t nc = sb->lines_cap ? sb->lines_cap * 2 : 8;
        gd_line *nl = realloc(sb->lines, nc * sizeof *nl);
        if (!nl) return NULL;
        sb->lines = nl;
        sb->lines_cap = nc;
    }
    if ((sb->nlines + 1) * 2 > sb->index_cap && !index_grow(sb)) return NULL;
    uint32_t i = sb->nlines++;
    gd_line *L = &sb->lines[i];
    L->chunk = chunk;
    L->mask = 0;
    L->newest = -1;
    uint32_t p = index_find(sb, chunk);
    sb->index[p] = (int32_t)i;
    sb->used_pos[i] = p;
    return L;
}

/* Appends an empty log entry for line L; its index, or -1 when memory ran out. */
static int32_t append(gd_sb *sb, gd_line *L)
{
    if (sb->n == sb->cap) {
        uint32_t nc = sb->cap ? sb->cap * 2 : 16;
        gd_entry *ne = realloc(sb->e, nc * sizeof *ne);
        if (!ne) return -1;
        sb->e = ne;
        sb->cap = nc;
    }
    int32_t i = (int32_t)sb->n++;
    sb->e[i] = (gd_entry){.mask = 0, .chunk = L->chunk, .prev = L->newest};
    L->newest = i;
    return i;
}

/* Copies n bytes (1..128); the usual sizes are fixed-size copies the compiler inlines. */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, unsigned n)
{
    switch (n) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, n); break;
    }
}

int gd_sb_store(gd_sb *sb, const emu_mem_op *op)
{
    /* A log entry at index >= first was made by this instruction: the chunk's newest entry
     * tells whether this instruction already has one (the lanes of a coalesced store share
     * it). Pieces come in ascending lane order, so the highest lane's bytes end in the image. */
    int32_t first = (int32_t)sb->n;
    uint64_t last_chunk = 1;   /* never a chunk address */
    gd_line *L = NULL;
    int made = 0;
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *g = &op->seg[i];
        uint64_t a = g->addr;
        const uint8_t *data = op->data + g->off;
        for (unsigned off = 0; off < g->size;) {
            uint64_t chunk = (a + off) & ~(uint64_t)(GD_CHUNK - 1);
            unsigned in = (unsigned)((a + off) & (GD_CHUNK - 1));
            unsigned len = g->size - off < GD_CHUNK - in ? g->size - off : GD_CHUNK - in;
            if (chunk != last_chunk) {
                if (!(L = line_for(sb, chunk))) return -1;
                if (L->newest < first) {
                    if (append(sb, L) < 0) return -1;
                    made++;
                }
                last_chunk = chunk;
            }
            gd_mask m = run_mask(in, len);
            copy_bytes(L->data + in, data + off, len);
            L->mask |= m;
            sb->e[L->newest].mask |= m;
            off += len;
        }
    }
    return made;
}

/* Copies the bytes of mask from a chunk's data to dst, byte b of the chunk to dst[b - skip]
 * (skip: the first byte the mask can hold), one copy per run of set bits. */
static uint64_t copy_masked(uint8_t *dst, const uint8_t *src, gd_mask mask, unsigned skip)
{
    if (mask == ~(gd_mask)0 && skip == 0) {
        memcpy(dst, src, GD_CHUNK);
        return GD_CHUNK;
    }
    uint64_t bytes = 0;
    for (unsigned half = 0; half < 2; half++) {
        uint64_t w = (uint64_t)(mask >> (64 * half));
        unsigned base = 64 * half;
        while (w) {
            unsigned from = (unsigned)__builtin_ctzll(w);
            uint64_t rest = ~(w >> from);
            unsigned len = rest ? (unsigned)__builtin_ctzll(rest) : 64 - from;
            copy_bytes(dst + base + from - skip, src + base + from, len);
            bytes += len;
            w &= len + from >= 64 ? 0 : ~UINT64_C(0) << (from + len);
        }
    }
    return bytes;
}

/* Overlays onto dst the stored bytes among [in, in+len) of line L; returns how many. */
static unsigned overlay(const gd_line *L, unsigned in, unsigned len, uint8_t *dst)
{
    gd_mask need = run_mask(in, len);
    gd_mask cover = need & L->mask;
    if (!cover) return 0;
    if (cover == need) {   /* the usual case: every byte asked for was stored */
        copy_bytes(dst, L->data + in, len);
        return len;
    }
    return (unsigned)copy_masked(dst, L->data, cover, in);
}

unsigned gd_sb_read(const gd_sb *sb, uint64_t addr, unsigned size, uint8_t *dst)
{
    if (!sb->n) return 0;
    unsigned got = 0;
    for (unsigned off = 0; off < size;) {
        uint64_t chunk = (addr + off) & ~(uint64_t)(GD_CHUNK - 1);
        unsigned in = (unsigned)((addr + off) & (GD_CHUNK - 1));
        unsigned len = size - off < GD_CHUNK - in ? size - off : GD_CHUNK - in;
        const gd_line *L = line_of(sb, chunk);
        if (L) got += overlay(L, in, len, dst + off);
        off += len;
    }
    return got;
}

uint32_t gd_sb_read_op(const gd_sb *sb, emu_mem_op *op)
{
    if (!sb->n) return 0;
    uint32_t hit = 0;
    uint64_t last_chunk = 1;   /* never a chunk address */
    const gd_line *L = NULL;
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *g = &op->seg[i];
        uint64_t a = g->addr;
        uint8_t *dst = op->data + g->off;
        uint64_t chunk = a & ~(uint64_t)(GD_CHUNK - 1);
        unsigned in = (unsigned)(a & (GD_CHUNK - 1));
        if (in + g->size > GD_CHUNK) {   /* straddles chunks: the general path */
            if (gd_sb_read(sb, a, g->size, dst)) hit |= 1u << g->lane;
            continue;
        }
        if (chunk != last_chunk) {       /* lanes of a coalesced access share one lookup */
            last_chunk = chunk;
            L = line_of(sb, chunk);
        }
        if (L && overlay(L, in, g->size, dst)) hit |= 1u << g->lane;
    }
    return hit;
}

uint64_t gd_sb_commit(const gd_sb *sb, uint32_t part, uint32_t nparts)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < sb->nlines; i++) {
        const gd_line *L = &sb->lines[i];
        if (nparts > 1 && gd_chunk_share(L->chunk, nparts) != part) continue;
        bytes += copy_masked((uint8_t *)(uintptr_t)L->chunk, L->data, L->mask, 0);
    }
    return bytes;
}
