/* test_conformance_warp.c: PTX warp-level instructions against the PTX ISA (section 9.7.13).
 *
 * shfl.sync (.up/.down/.bfly/.idx, the clamp and segment-mask fields of c, the predicate
 * output, b past 31, partial member masks inside divergent code), vote.sync (.all/.any/.uni/
 * .ballot, negated source), match.sync (.any/.all, b32 and b64), redux.sync (add/min/max/and/
 * or/xor, full and partial masks), activemask in divergent code, and elect.sync. Every lane's
 * result is compared with a CPU model of the ISA's semantics pseudo-code (shfl) or definition.
 * Row tables add every shfl mode with b = 0 and 31, clamps and segment widths, partial warps,
 * divergent and guarded execution and per-lane membermasks (b, c and the mask as immediates
 * and as registers), and vote/match/redux/elect with per-lane (tile) membermasks in registers.
 *
 * Each kernel gives every thread an input %x (from a buffer), runs the body, and stores two
 * results %d and %e per thread.
 */
#include "tests/unit/conformance_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })
enum { MAXT = 64 };

typedef struct warp_case {
    const char *name;
    int n;                                        /* threads (one CTA) */
    uint32_t (*x)(int t);                         /* input of thread t */
    const char *body;
    void (*ref)(const uint32_t *x, int n, uint32_t *d, uint32_t *e);
    bool check_e;
} warp_case;

static uint32_t x_lin(int t) { return (uint32_t)t * 3 + 100; }
static uint32_t x_quad(int t) { return (uint32_t)(t % 32) / 4; }
static uint32_t x_same(int t) { return 0x1234 + (uint32_t)(t / 32); }
static uint32_t x_mixed(int t) { return (uint32_t)((t * 2654435761u) >> 3) ^ (uint32_t)(t & 1 ? 0x80000000u : 0); }
static uint32_t x_signed(int t) { return (uint32_t)(t * 7 - 100); }
static uint32_t x_odd(int t) { return (uint32_t)t & 1; }
static uint32_t x_bits(int t) { return ((uint32_t)t * 2654435761u >> 9) & 1u; }
/* lanes 0-15 all true, lanes 16-31 mixed: the tiles' votes differ */
static uint32_t x_half_true(int t) { return t % 32 < 16 ? 1u : x_bits(t); }

/* ---- shfl: the ISA's pseudo-code */
typedef enum { UP, DOWN, BFLY, IDX } shfl_mode;
/* The source lane j of `lane` and the predicate pval (the ISA's pseudo-code for shfl.sync). */
static void shfl_isa(shfl_mode m, int lane, uint32_t b, uint32_t c, int32_t *j, bool *pval)
{
    uint32_t bval = b & 31, cval = c & 31, mask = (c >> 8) & 31;
    uint32_t maxl = ((uint32_t)lane & mask) | (cval & ~mask), minl = (uint32_t)lane & mask;
    switch (m) {
    case UP: *j = lane - (int32_t)bval; *pval = *j >= (int32_t)maxl; break;
    case DOWN: *j = lane + (int32_t)bval; *pval = *j <= (int32_t)maxl; break;
    case BFLY: *j = lane ^ (int32_t)bval; *pval = *j <= (int32_t)maxl; break;
    default: *j = (int32_t)(minl | (bval & ~mask)); *pval = *j <= (int32_t)maxl; break;
    }
    if (!*pval) *j = lane;   /* copy from its own lane */
}
static void shfl_ref(const uint32_t *x, int n, uint32_t *d, uint32_t *e, shfl_mode m, const uint32_t *bs, uint32_t c,
                     uint32_t members)
{
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32, lane = t % 32;
        if (!((members >> lane) & 1)) continue;   /* not participating: keeps its initial values */
        int32_t j;
        bool pval;
        shfl_isa(m, lane, bs[t], c, &j, &pval);
        d[t] = x[w + j];
        e[t] = pval;
    }
}
#define SHFL_REF(fname, mode, bexpr, c, members)                                                    \
    static void fname(const uint32_t *x, int n, uint32_t *d, uint32_t *e)                          \
    {                                                                                               \
        uint32_t bs[MAXT];                                                                          \
        for (int t = 0; t < n; t++) { int lane = t % 32; (void)lane; bs[t] = (uint32_t)(bexpr); }   \
        shfl_ref(x, n, d, e, mode, bs, c, members);                                                 \
    }
SHFL_REF(r_up1, UP, 1, 0, ~0u)
SHFL_REF(r_up5, UP, 5, 0, ~0u)
SHFL_REF(r_up2_w8, UP, 2, 0x1800, ~0u)
SHFL_REF(r_up33, UP, 33, 0, ~0u)
SHFL_REF(r_down1, DOWN, 1, 0x1f, ~0u)
SHFL_REF(r_down3_w8, DOWN, 3, 0x181f, ~0u)
SHFL_REF(r_down4_c20, DOWN, 4, 20, ~0u)
SHFL_REF(r_bfly1, BFLY, 1, 0x1f, ~0u)
SHFL_REF(r_bfly16, BFLY, 16, 0x1f, ~0u)
SHFL_REF(r_bfly5_w16, BFLY, 5, 0x101f, ~0u)
SHFL_REF(r_bfly3_c7, BFLY, 3, 7, ~0u)
SHFL_REF(r_idx7, IDX, 7, 0x1f, ~0u)
SHFL_REF(r_idx_rev, IDX, 31 - lane, 0x1f, ~0u)
SHFL_REF(r_idx3_w8, IDX, 3, 0x181f, ~0u)
SHFL_REF(r_idx_rev_c15, IDX, 31 - lane, 0xf, ~0u)
SHFL_REF(r_idx_lane, IDX, lane ^ 3, 0x1f, ~0u)
SHFL_REF(r_bfly1_half, BFLY, 1, 0x1f, 0x0000ffffu)
SHFL_REF(r_down1_c0, DOWN, 1, 0, ~0u)
SHFL_REF(r_idx_c0, IDX, lane ^ 1, 0, ~0u)
SHFL_REF(r_up3_w4, UP, 3, 0x1c00, ~0u)

/* ---- vote */
static void r_vote(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int w = 0; w < n; w += 32) {
        uint32_t ballot = 0;
        for (int l = 0; l < 32; l++) ballot |= (x[w + l] & 1u) << l;
        for (int l = 0; l < 32; l++) {
            d[w + l] = ballot;
            e[w + l] = (ballot == ~0u ? 1 : 0) | (ballot != 0 ? 2 : 0) | ((ballot == 0 || ballot == ~0u) ? 4 : 0);
        }
    }
}
static void r_vote_neg(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    r_vote(x, n, d, e);
    for (int t = 0; t < n; t++) {
        d[t] = ~d[t];
        e[t] = 0;
    }
}
static void r_vote_half(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int t = 0; t < n; t++) {
        uint32_t ballot = 0;
        for (int l = 0; l < 16; l++) ballot |= (x[t / 32 * 32 + l] & 1u) << l;
        d[t] = (t % 32) < 16 ? ballot : 0xdeadu;
        e[t] = (t % 32) < 16 ? 0 : 0xdeadu;
    }
}

/* ---- match */
static void r_match_any(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32;
        uint32_t m = 0;
        for (int l = 0; l < 32; l++) m |= (x[w + l] == x[t] ? 1u : 0u) << l;
        d[t] = m;
        e[t] = 0;
    }
}
static void r_match_all(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32;
        bool all = true;
        for (int l = 0; l < 32; l++) all = all && x[w + l] == x[w];
        d[t] = all ? ~0u : 0;
        e[t] = all;
    }
}

/* ---- redux */
typedef enum { R_ADD, R_MIN_S, R_MAX_U, R_AND, R_OR, R_XOR, R_MIN_U, R_MAX_S } redop;
static void redux_ref(const uint32_t *x, int n, uint32_t *d, uint32_t *e, redop op, uint32_t members)
{
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32;
        e[t] = 0;
        if (members && !((members >> (t % 32)) & 1)) {
            d[t] = e[t] = 0xdeadu;
            continue;
        }
        uint32_t acc = op == R_AND || op == R_MIN_U ? ~0u : op == R_MIN_S ? 0x7fffffffu : op == R_MAX_S ? 0x80000000u : 0;
        /* a register membermask of two tiles: each half of the warp names itself */
        uint32_t mine = members == 0 ? ((t % 32) < 16 ? 0x0000ffffu : 0xffff0000u) : members;
        for (int l = 0; l < 32; l++) {
            if (!((mine >> l) & 1)) continue;
            uint32_t v = x[w + l];
            switch (op) {
            case R_ADD: acc += v; break;
            case R_MIN_S: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
            case R_MAX_U: acc = v > acc ? v : acc; break;
            case R_MIN_U: acc = v < acc ? v : acc; break;
            case R_MAX_S: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
            case R_AND: acc &= v; break;
            case R_OR: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        d[t] = acc;
    }
}
#define REDUX_REF(fname, op, members) \
    static void fname(const uint32_t *x, int n, uint32_t *d, uint32_t *e) { redux_ref(x, n, d, e, op, members); }
REDUX_REF(r_redux_add, R_ADD, ~0u)
REDUX_REF(r_redux_min, R_MIN_S, ~0u)
REDUX_REF(r_redux_max, R_MAX_U, ~0u)
REDUX_REF(r_redux_and, R_AND, ~0u)
REDUX_REF(r_redux_or, R_OR, ~0u)
REDUX_REF(r_redux_xor, R_XOR, ~0u)
REDUX_REF(r_redux_add_half, R_ADD, 0xffff0000u)
REDUX_REF(r_redux_min_u, R_MIN_U, ~0u)
REDUX_REF(r_redux_max_s, R_MAX_S, ~0u)
REDUX_REF(r_redux_min_s_tiles, R_MIN_S, 0)
REDUX_REF(r_redux_or_tiles, R_OR, 0)

/* vote over two tiles: each half of the warp passes its own half as membermask (all lanes
 * active); d = the ballot of its half, e = all | any << 1 | uni << 2 within it */
static void r_vote_tiles(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32, lane = t % 32;
        uint32_t mine = lane < 16 ? 0x0000ffffu : 0xffff0000u, ballot = 0;
        for (int l = 0; l < 32; l++) ballot |= (x[w + l] & 1u) << l;
        ballot &= mine;
        d[t] = ballot;
        e[t] = (ballot == mine ? 1u : 0u) | (ballot ? 2u : 0u) | ((ballot == 0 || ballot == mine) ? 4u : 0u);
    }
}

/* ---- elect.sync with a sink destination: exactly one lane gets p */
static void r_elect_sink(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    (void)x;
    for (int t = 0; t < n; t++) {
        d[t] = 1;
        e[t] = 0;
    }
}

/* ---- activemask */
static void r_activemask(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    for (int t = 0; t < n; t++) {
        d[t] = (t % 32) < 10 ? 0x3ffu : 0xdeadu;
        e[t] = ~0u;
    }
}

#define INIT "mov.u32 %d, 0xdead; mov.u32 %e, 0xdead;\n    "
/* %w = thread index << 32 | %x: a .b64 register whose upper half differs from lane to lane (a
 * b32 instruction reads its low 32 bits: PTX ISA, operand size exceeding the instruction type) */
#define W64 "cvt.u64.u32 %w, %t;\n    shl.b64 %w, %w, 32;\n    cvt.u64.u32 %off, %x;\n    or.b64 %w, %w, %off;\n    "

static const warp_case cases[] = {
    { "shfl.sync.up.b32 by 1", 64, x_lin, "shfl.sync.up.b32 %d|%p, %x, 1, 0, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_up1, true },
    { "shfl.sync.up.b32 by 5", 32, x_lin, "shfl.sync.up.b32 %d|%p, %x, 5, 0, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_up5, true },
    { "shfl.sync.up.b32 by 2, width 8 (c = 0x1800)", 32, x_lin, "shfl.sync.up.b32 %d|%p, %x, 2, 0x1800, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_up2_w8, true },
    { "shfl.sync.up.b32 by 33 uses b[4:0] = 1", 32, x_lin, "shfl.sync.up.b32 %d|%p, %x, 33, 0, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_up33, true },
    { "shfl.sync.down.b32 by 1", 64, x_lin, "shfl.sync.down.b32 %d|%p, %x, 1, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_down1, true },
    { "shfl.sync.down.b32 by 3, width 8 (c = 0x181f)", 32, x_lin, "shfl.sync.down.b32 %d|%p, %x, 3, 0x181f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_down3_w8, true },
    { "shfl.sync.down.b32 by 4, clamp 20", 32, x_lin, "shfl.sync.down.b32 %d|%p, %x, 4, 20, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_down4_c20, true },
    { "shfl.sync.down.b32 by 1 with c = 0 (clamp at lane 0)", 32, x_lin, "shfl.sync.down.b32 %d|%p, %x, 1, 0, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_down1_c0, true },
    { "shfl.sync.idx.b32 laneid ^ 1 with c = 0", 32, x_lin, "xor.b32 %b, %lane, 1;\n    shfl.sync.idx.b32 %d|%p, %x, %b, 0, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx_c0, true },
    { "shfl.sync.up.b32 by 3, width 4 (c = 0x1c00)", 64, x_lin, "shfl.sync.up.b32 %d|%p, %x, 3, 0x1c00, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_up3_w4, true },
    { "shfl.sync.bfly.b32 xor 1", 32, x_lin, "shfl.sync.bfly.b32 %d|%p, %x, 1, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_bfly1, true },
    { "shfl.sync.bfly.b32 xor 16", 64, x_lin, "shfl.sync.bfly.b32 %d|%p, %x, 16, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_bfly16, true },
    { "shfl.sync.bfly.b32 xor 5, width 16 (c = 0x101f)", 32, x_lin, "shfl.sync.bfly.b32 %d|%p, %x, 5, 0x101f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_bfly5_w16, true },
    { "shfl.sync.bfly.b32 xor 3, clamp 7", 32, x_lin, "shfl.sync.bfly.b32 %d|%p, %x, 3, 7, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_bfly3_c7, true },
    { "shfl.sync.idx.b32 broadcast lane 7", 64, x_lin, "shfl.sync.idx.b32 %d|%p, %x, 7, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx7, true },
    { "shfl.sync.idx.b32 lane 31 - laneid (register b)", 32, x_lin, "sub.u32 %b, 31, %lane;\n    shfl.sync.idx.b32 %d|%p, %x, %b, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx_rev, true },
    { "shfl.sync.idx.b32 lane 3 of each 8 (c = 0x181f)", 32, x_lin, "shfl.sync.idx.b32 %d|%p, %x, 3, 0x181f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx3_w8, true },
    { "shfl.sync.idx.b32 31 - laneid with clamp 15", 32, x_lin, "sub.u32 %b, 31, %lane;\n    shfl.sync.idx.b32 %d|%p, %x, %b, 0xf, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx_rev_c15, true },
    { "shfl.sync.idx.b32 laneid ^ 3, no predicate output", 32, x_mixed, "xor.b32 %b, %lane, 3;\n    shfl.sync.idx.b32 %d, %x, %b, 0x1f, 0xffffffff;\n    mov.u32 %e, 1;", r_idx_lane, false },
    { "shfl.sync.bfly.b32 in a divergent half warp (membermask 0xffff)", 32, x_lin,
      INIT "setp.lt.u32 %q, %lane, 16;\n    @!%q bra SKIP;\n    shfl.sync.bfly.b32 %d|%p, %x, 1, 0x1f, 0x0000ffff;\n    selp.u32 %e, 1, 0, %p;\nSKIP:", r_bfly1_half, true },
    { "shfl.sync.idx.b32 from a .b64 register moves its low 32 bits", 64, x_lin,
      W64 "shfl.sync.idx.b32 %d|%p, %w, 7, 0x1f, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_idx7, true },
    { "shfl.sync.idx.b32 from a .b64 register, b = laneid ^ 3 in a register", 32, x_mixed,
      W64 "xor.b32 %b, %lane, 3;\n    shfl.sync.idx.b32 %d, %w, %b, 0x1f, 0xffffffff;\n    mov.u32 %e, 1;", r_idx_lane, false },
    { "vote.sync.ballot/all/any/uni on alternating predicates", 64, x_odd,
      "setp.ne.u32 %q, %x, 0;\n    vote.sync.ballot.b32 %d, %q, 0xffffffff;\n    vote.sync.all.pred %p, %q, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;\n"
      "    vote.sync.any.pred %p, %q, 0xffffffff;\n    selp.u32 %b, 2, 0, %p;\n    or.b32 %e, %e, %b;\n    vote.sync.uni.pred %p, %q, 0xffffffff;\n"
      "    selp.u32 %b, 4, 0, %p;\n    or.b32 %e, %e, %b;", r_vote, true },
    { "vote.sync on an all-true predicate", 32, x_quad,
      "setp.lt.u32 %q, %x, 100;\n    vote.sync.ballot.b32 %d, %q, 0xffffffff;\n    vote.sync.all.pred %p, %q, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;\n"
      "    vote.sync.any.pred %p, %q, 0xffffffff;\n    selp.u32 %b, 2, 0, %p;\n    or.b32 %e, %e, %b;\n    vote.sync.uni.pred %p, %q, 0xffffffff;\n"
      "    selp.u32 %b, 4, 0, %p;\n    or.b32 %e, %e, %b;", NULL, true },
    { "vote.sync.ballot.b32 of a negated predicate", 32, x_odd, "setp.ne.u32 %q, %x, 0;\n    vote.sync.ballot.b32 %d, !%q, 0xffffffff;\n    mov.u32 %e, 0;", r_vote_neg, true },
    { "vote.sync.ballot.b32 in a divergent half warp (membermask 0xffff)", 32, x_odd,
      INIT "setp.lt.u32 %p, %lane, 16;\n    @!%p bra SKIP;\n    setp.ne.u32 %q, %x, 0;\n    vote.sync.ballot.b32 %d, %q, 0x0000ffff;\n    mov.u32 %e, 0;\nSKIP:", r_vote_half, true },
    { "match.any.sync.b32", 64, x_quad, "match.any.sync.b32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_match_any, true },
    { "match.any.sync.b64", 32, x_mixed, "and.b32 %b, %x, 0x80000000;\n    cvt.u64.u32 %w, %b;\n    match.any.sync.b64 %d, %w, 0xffffffff;\n    mov.u32 %e, 0;", NULL, true },
    { "match.any.sync.b32 on a .b64 register compares its low 32 bits", 64, x_quad,
      W64 "match.any.sync.b32 %d, %w, 0xffffffff;\n    mov.u32 %e, 0;", r_match_any, true },
    { "match.all.sync.b32 on equal values", 64, x_same, "match.all.sync.b32 %d|%p, %x, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_match_all, true },
    { "match.all.sync.b32 on different values", 32, x_quad, "match.all.sync.b32 %d|%p, %x, 0xffffffff;\n    selp.u32 %e, 1, 0, %p;", r_match_all, true },
    { "redux.sync.add.u32", 64, x_mixed, "redux.sync.add.u32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_add, true },
    { "redux.sync.min.s32", 32, x_signed, "redux.sync.min.s32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_min, true },
    { "redux.sync.max.u32", 32, x_mixed, "redux.sync.max.u32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_max, true },
    { "redux.sync.and.b32", 32, x_mixed, "redux.sync.and.b32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_and, true },
    { "redux.sync.or.b32", 32, x_mixed, "redux.sync.or.b32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_or, true },
    { "redux.sync.xor.b32", 64, x_mixed, "redux.sync.xor.b32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_xor, true },
    { "redux.sync.add.u32 in a divergent half warp (membermask 0xffff0000)", 32, x_lin,
      INIT "setp.ge.u32 %p, %lane, 16;\n    @!%p bra SKIP;\n    redux.sync.add.u32 %d, %x, 0xffff0000;\n    mov.u32 %e, 0;\nSKIP:", r_redux_add_half, true },
    { "redux.sync.min.u32", 64, x_mixed, "redux.sync.min.u32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_min_u, true },
    { "redux.sync.max.s32", 32, x_signed, "redux.sync.max.s32 %d, %x, 0xffffffff;\n    mov.u32 %e, 0;", r_redux_max_s, true },
    { "redux.sync.min.s32 over two tiles (register membermask per half)", 64, x_mixed,
      "setp.lt.u32 %q, %lane, 16;\n    selp.b32 %b, 0x0000ffff, 0xffff0000, %q;\n    redux.sync.min.s32 %d, %x, %b;\n    mov.u32 %e, 0;",
      r_redux_min_s_tiles, true },
    { "redux.sync.or.b32 over two tiles (register membermask per half)", 32, x_mixed,
      "setp.lt.u32 %q, %lane, 16;\n    selp.b32 %b, 0x0000ffff, 0xffff0000, %q;\n    redux.sync.or.b32 %d, %x, %b;\n    mov.u32 %e, 0;",
      r_redux_or_tiles, true },
    { "vote.sync ballot/all/any/uni over two tiles (register membermask per half)", 64, x_half_true,
      "setp.lt.u32 %q, %lane, 16;\n    selp.b32 %b, 0x0000ffff, 0xffff0000, %q;\n    setp.ne.u32 %p, %x, 0;\n"
      "    vote.sync.ballot.b32 %d, %p, %b;\n    vote.sync.all.pred %q, %p, %b;\n    selp.u32 %e, 1, 0, %q;\n"
      "    vote.sync.any.pred %q, %p, %b;\n    selp.u32 %x, 2, 0, %q;\n    or.b32 %e, %e, %x;\n"
      "    vote.sync.uni.pred %q, %p, %b;\n    selp.u32 %x, 4, 0, %q;\n    or.b32 %e, %e, %x;", r_vote_tiles, true },
    { "elect.sync _|p: one leader per warp", 64, x_lin,
      "elect.sync _|%p, 0xffffffff;\n    vote.sync.ballot.b32 %b, %p, 0xffffffff;\n    popc.b32 %d, %b;\n    mov.u32 %e, 0;", r_elect_sink, true },
    { "activemask.b32 inside and after a divergent branch", 64, x_lin,
      INIT "setp.lt.u32 %p, %lane, 10;\n    @!%p bra SKIP;\n    activemask.b32 %d;\nSKIP:\n    bar.warp.sync 0xffffffff;\n    activemask.b32 %e;", r_activemask, true },
};

/* references that need the case's own input (computed generically) */
static void r_vote_all_true(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    (void)x;
    for (int t = 0; t < n; t++) {
        d[t] = ~0u;
        e[t] = 7;
    }
}
static void r_match_any64(const uint32_t *x, int n, uint32_t *d, uint32_t *e)
{
    uint32_t y[MAXT];
    for (int t = 0; t < n; t++) y[t] = x[t] & 0x80000000u;
    r_match_any(y, n, d, e);
}

START_TEST(warp_case_test)
{
    const warp_case *c = &cases[_i];
    void (*ref)(const uint32_t *, int, uint32_t *, uint32_t *) = c->ref;
    if (!ref) ref = strstr(c->name, "all-true") ? r_vote_all_true : r_match_any64;
    char ptx[4096];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
             "{\n"
             "    .reg .b64 %%out, %%in, %%off, %%w;\n"
             "    .reg .b32 %%lane, %%t, %%x, %%d, %%e, %%b;\n"
             "    .reg .pred %%p, %%q;\n"
             "    ld.param.u64 %%out, [pout];\n"
             "    ld.param.u64 %%in, [pin];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mov.u32 %%lane, %%laneid;\n"
             "    mul.wide.u32 %%off, %%t, 4;\n"
             "    add.u64 %%in, %%in, %%off;\n"
             "    ld.global.u32 %%x, [%%in];\n"
             "    %s\n"
             "    mul.wide.u32 %%off, %%t, 8;\n"
             "    add.u64 %%out, %%out, %%off;\n"
             "    st.global.v2.u32 [%%out], {%%d, %%e};\n"
             "    ret;\n"
             "}\n",
             c->body);
    uint32_t *in = conf_dev_alloc(4 * MAXT), *out = conf_dev_alloc(8 * MAXT);
    uint32_t x[MAXT], d[MAXT], e[MAXT];
    for (int t = 0; t < c->n; t++) {
        x[t] = c->x(t);
        in[t] = x[t];
        d[t] = e[t] = 0xdead;
    }
    ref(x, c->n, d, e);
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    if (conf_run_k(c->name, ptx, DIM(1, 1, 1), DIM((uint32_t)c->n, 1, 1), 0, params, 2, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    for (int t = 0; t < c->n; t++) {
        ck_assert_msg(out[2 * t] == d[t], "%s: thread %d (input 0x%x): d want 0x%08x got 0x%08x", c->name, t, x[t], d[t], out[2 * t]);
        if (c->check_e)
            ck_assert_msg(out[2 * t + 1] == e[t], "%s: thread %d (input 0x%x): second result (predicate/flags) want 0x%x got 0x%x",
                          c->name, t, x[t], e[t], out[2 * t + 1]);
    }
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

START_TEST(elect_sync)
{
    /* One leader per warp, the same for every lane, flagged by p on that lane only; it is a
     * member of the mask (here: the odd lanes only, in a divergent branch). */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .b64 %out, %off;\n"
        "    .reg .b32 %t, %lane, %d, %e, %o;\n"
        "    .reg .pred %p, %q;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %lane, %laneid;\n"
        "    mov.u32 %d, 0xdead;\n"
        "    mov.u32 %e, 0xdead;\n"
        "    elect.sync %d|%p, 0xffffffff;\n"
        "    selp.u32 %e, 1, 0, %p;\n"
        "    mov.u32 %o, 0xdead;\n"
        "    and.b32 %o, %lane, 1;\n"
        "    setp.eq.u32 %q, %o, 1;\n"
        "    mov.u32 %o, 0xdead;\n"
        "    @!%q bra SKIP;\n"
        "    elect.sync %o|%p, 0xaaaaaaaa;\n"
        "    @%p or.b32 %o, %o, 0x100;\n"
        "SKIP:\n"
        "    mul.wide.u32 %off, %t, 12;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u32 [%out], %d;\n"
        "    st.global.u32 [%out+4], %e;\n"
        "    st.global.u32 [%out+8], %o;\n"
        "    ret;\n"
        "}\n";
    enum { N = 64 };
    uint32_t *out = conf_dev_alloc(12 * N);
    uint64_t params[1] = { conf_dev_addr(out) };
    conf_result r;
    if (conf_run_k("elect.sync", ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 1, &r) != CONF_OK) ck_abort_msg("%s", r.message);
    for (int w = 0; w < N; w += 32) {
        uint32_t leader = out[3 * w], leaders = 0, odd_leader = out[3 * (w + 1) + 2] & 0xff, odd_leaders = 0;
        ck_assert_msg(leader < 32, "elect.sync: warp %d elected lane %u", w / 32, leader);
        ck_assert_msg(odd_leader < 32 && (odd_leader & 1), "elect.sync among odd lanes: warp %d elected lane %u", w / 32, odd_leader);
        for (int l = 0; l < 32; l++) {
            const uint32_t *o = &out[3 * (w + l)];
            ck_assert_msg(o[0] == leader, "elect.sync: lane %d of warp %d names leader %u, lane 0 names %u", l, w / 32, o[0], leader);
            ck_assert_msg(o[1] == (l == (int)leader), "elect.sync: lane %d of warp %d has p = %u (leader %u)", l, w / 32, o[1], leader);
            leaders += o[1];
            if (l & 1) {
                ck_assert_msg((o[2] & 0xff) == odd_leader, "elect.sync 0xaaaaaaaa: lane %d names %u", l, o[2] & 0xff);
                bool is = (o[2] & 0x100) != 0;
                ck_assert_msg(is == (l == (int)odd_leader), "elect.sync 0xaaaaaaaa: lane %d has p = %d (leader %u)", l, is, odd_leader);
                odd_leaders += is;
            } else {
                ck_assert_msg(o[2] == 0xdead, "lane %d did not run elect.sync but its value changed to 0x%x", l, o[2]);
            }
        }
        ck_assert_msg(leaders == 1 && odd_leaders == 1, "elect.sync: %u and %u leaders in warp %d", leaders, odd_leaders, w / 32);
    }
    conf_dev_free(out);
}
END_TEST

/* ---- shfl.sync rows: every mode with deltas 0 and 31, clamps and segment widths, and partial,
 * divergent and per-lane membermasks. Each thread reads its input x, its b, its membermask and
 * whether it executes the shuffle from a buffer; the expectation is the ISA's pseudo-code
 * (shfl_isa). Where the source lane does not execute the shuffle or is not in the reader's
 * membermask the ISA leaves d undefined: only the predicate is checked there. Each row runs
 * with b, c and the membermask as immediates (where they are the same in every lane), as
 * registers, and (for partial execution) under a guard instead of a branch. */

/* c for a sub-warp width as CUDA's __shfl_*_sync build it */
#define C_WIDTH(m, w) ((uint32_t)((32 - (w)) << 8) | ((m) == UP ? 0u : 0x1fu))

typedef struct shfl_row {
    const char *what;
    int n;                          /* threads (one CTA) */
    uint32_t c;
    uint32_t b;                     /* b of every lane, unless b_of */
    uint32_t (*b_of)(int lane);
    uint32_t exec;                  /* lanes of each warp that execute the shuffle */
    uint32_t (*member_of)(int lane, uint32_t exec);   /* NULL: the executing lanes */
} shfl_row;

static uint32_t b_hash(int lane) { return (uint32_t)lane * 7 + 3; }   /* b past 31 too */
static uint32_t b_small(int lane) { return (uint32_t)(lane * 5) % 11; }
static uint32_t tile16(int lane, uint32_t exec) { return (lane < 16 ? 0x0000ffffu : 0xffff0000u) & exec; }
static uint32_t tile8(int lane, uint32_t exec) { return (0xffu << (lane / 8 * 8)) & exec; }
static uint32_t tile4(int lane, uint32_t exec) { return (0xfu << (lane / 4 * 4)) & exec; }

#define SHFL_ROWS(m)                                                                                           \
    { "b = 0, whole warp", 64, C_WIDTH(m, 32), 0, NULL, ~0u, NULL },                                           \
    { "b = 31, whole warp", 64, C_WIDTH(m, 32), 31, NULL, ~0u, NULL },                                         \
    { "b = 1, width 8", 32, C_WIDTH(m, 8), 1, NULL, ~0u, NULL },                                                \
    { "b = 3, width 4", 32, C_WIDTH(m, 4), 3, NULL, ~0u, NULL },                                                \
    { "b = 31, width 16", 32, C_WIDTH(m, 16), 31, NULL, ~0u, NULL },                                            \
    { "b = 0, width 2", 32, C_WIDTH(m, 2), 0, NULL, ~0u, NULL },                                                \
    { "b = 31, width 2", 32, C_WIDTH(m, 2), 31, NULL, ~0u, NULL },                                              \
    { "b = 5, clamp 20, segment mask 0x08 (c = 0x0814)", 32, 0x0814, 5, NULL, ~0u, NULL },                     \
    { "b = 2, clamp 9 (c = 9)", 32, 9, 2, NULL, ~0u, NULL },                                                    \
    { "b = 31, clamp 0 (c = 0)", 32, 0, 31, NULL, ~0u, NULL },                                                  \
    { "per-lane b = 7 * lane + 3 (past 31)", 64, C_WIDTH(m, 32), 0, b_hash, ~0u, NULL },                       \
    { "per-lane b, width 8", 32, C_WIDTH(m, 8), 0, b_small, ~0u, NULL },                                       \
    { "lanes 0-15 execute (membermask 0xffff), b = 1", 32, C_WIDTH(m, 32), 1, NULL, 0x0000ffffu, NULL },        \
    { "lanes 16-31 execute (membermask 0xffff0000), b = 16", 32, C_WIDTH(m, 32), 16, NULL, 0xffff0000u, NULL }, \
    { "odd lanes execute (membermask 0xaaaaaaaa), b = 2", 64, C_WIDTH(m, 32), 2, NULL, 0xaaaaaaaau, NULL },     \
    { "lanes 3-27 execute, b = 31", 32, C_WIDTH(m, 32), 31, NULL, 0x0ffffff8u, NULL },                         \
    { "lanes 3-27 execute, per-lane b, width 16", 32, C_WIDTH(m, 16), 0, b_small, 0x0ffffff8u, NULL },          \
    { "tiles of 16 (membermask 0xffff or 0xffff0000 per lane), width 16, b = 5", 64, C_WIDTH(m, 16), 5, NULL,  \
      ~0u, tile16 },                                                                                            \
    { "tiles of 8 among lanes 0-5 of each 8, width 8, b = 1", 32, C_WIDTH(m, 8), 1, NULL, 0x3f3f3f3fu, tile8 }, \
    { "tiles of 4 among lanes 1-3 of each 4, width 4, b = 0", 32, C_WIDTH(m, 4), 0, NULL, 0xeeeeeeeeu, tile4 }, \
    { "48 threads (a partial second warp), b = 1", 48, C_WIDTH(m, 32), 1, NULL, ~0u, NULL },                   \
    { "48 threads (a partial second warp), b = 31", 48, C_WIDTH(m, 32), 31, NULL, ~0u, NULL }

static const shfl_row shfl_rows_up[] = { SHFL_ROWS(UP) }, shfl_rows_down[] = { SHFL_ROWS(DOWN) },
                      shfl_rows_bfly[] = { SHFL_ROWS(BFLY) }, shfl_rows_idx[] = { SHFL_ROWS(IDX) };
static const struct { shfl_mode mode; const char *name; const shfl_row *rows; } shfl_modes[] = {
    { UP, "up", shfl_rows_up }, { DOWN, "down", shfl_rows_down },
    { BFLY, "bfly", shfl_rows_bfly }, { IDX, "idx", shfl_rows_idx },
};
enum { SHFL_NROWS = (int)CONF_N(shfl_rows_up) };

/* How a row's operands reach the instruction. */
typedef enum { V_IMM, V_REG, V_GUARD } operand_variant;
static const char *const variant_names[] = { "immediates", "registers", "registers, under a guard" };

typedef struct row_run { int mode, row; operand_variant v; } row_run;
static row_run shfl_runs[4 * SHFL_NROWS * 3];
static int n_shfl_runs;

static void plan_shfl_runs(void)
{
    for (int m = 0; m < 4; m++)
        for (int r = 0; r < SHFL_NROWS; r++) {
            const shfl_row *row = &shfl_modes[m].rows[r];
            if (!row->b_of && !row->member_of)
                shfl_runs[n_shfl_runs++] = (row_run){ m, r, V_IMM };
            shfl_runs[n_shfl_runs++] = (row_run){ m, r, V_REG };
            if (row->exec != ~0u)
                shfl_runs[n_shfl_runs++] = (row_run){ m, r, V_GUARD };
        }
}

/* Per-thread inputs of the group kernels: x, b, membermask, executes (16 bytes a thread). */
typedef struct lane_in { uint32_t x, b, m, q; } lane_in;

/* The kernel shared by the shfl and group rows: loads the thread's lane_in, runs body (which
 * writes %d and %e only in executing lanes), stores {%d, %e}. */
static void group_kernel(char *ptx, size_t len, const char *body)
{
    snprintf(ptx, len,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
             "{\n"
             "    .reg .b64 %%out, %%in, %%off;\n"
             "    .reg .b32 %%t, %%lane, %%x, %%b, %%c, %%m, %%qv, %%y, %%d, %%e, %%f;\n"
             "    .reg .pred %%p, %%q, %%r;\n"
             "    ld.param.u64 %%out, [pout];\n"
             "    ld.param.u64 %%in, [pin];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mov.u32 %%lane, %%laneid;\n"
             "    mul.wide.u32 %%off, %%t, 16;\n"
             "    add.u64 %%in, %%in, %%off;\n"
             "    ld.global.v4.u32 {%%x, %%b, %%m, %%qv}, [%%in];\n"
             "    setp.ne.u32 %%q, %%qv, 0;\n"
             "    and.b32 %%y, %%x, 1;\n"
             "    setp.ne.u32 %%r, %%y, 0;\n"
             "    mov.u32 %%d, 0xdead;\n"
             "    mov.u32 %%e, 0xdead;\n"
             "%s"
             "    mul.wide.u32 %%off, %%t, 8;\n"
             "    add.u64 %%out, %%out, %%off;\n"
             "    st.global.v2.u32 [%%out], {%%d, %%e};\n"
             "    ret;\n"
             "}\n",
             body);
}

static uint32_t x_of(int t) { return 0x1000u + (uint32_t)t * 0x10001u; }

START_TEST(shfl_row_test)
{
    const row_run *run = &shfl_runs[_i];
    const shfl_row *row = &shfl_modes[run->mode].rows[run->row];
    shfl_mode mode = shfl_modes[run->mode].mode;
    char name[256], body[512], ptx[4096];
    snprintf(name, sizeof name, "shfl.sync.%s: %s [%s]", shfl_modes[run->mode].name, row->what,
             variant_names[run->v]);
    uint32_t member0 = row->member_of ? 0 : row->exec;
    if (run->v == V_IMM)
        snprintf(body, sizeof body,
                 "    @!%%q bra SKIP;\n"
                 "    shfl.sync.%s.b32 %%d|%%p, %%x, %u, 0x%x, 0x%x;\n"
                 "    selp.u32 %%e, 1, 0, %%p;\n"
                 "SKIP:\n",
                 shfl_modes[run->mode].name, row->b, row->c, member0);
    else
        snprintf(body, sizeof body,
                 "    mov.u32 %%c, 0x%x;\n"
                 "%s"
                 "    @%%q shfl.sync.%s.b32 %%d|%%p, %%x, %%b, %%c, %%m;\n"
                 "    @%%q selp.u32 %%e, 1, 0, %%p;\n"
                 "%s",
                 row->c, run->v == V_GUARD ? "" : "    @!%q bra SKIP;\n", shfl_modes[run->mode].name,
                 run->v == V_GUARD ? "" : "SKIP:\n");
    group_kernel(ptx, sizeof ptx, body);

    int n = row->n;
    lane_in *in = conf_dev_alloc(sizeof(lane_in) * MAXT);
    uint32_t *out = conf_dev_alloc(8 * MAXT);
    for (int t = 0; t < n; t++) {
        int lane = t % 32;
        in[t].x = x_of(t);
        in[t].b = row->b_of ? row->b_of(lane) : row->b;
        in[t].m = row->member_of ? row->member_of(lane, row->exec) : row->exec;
        in[t].q = (row->exec >> lane) & 1;
    }
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    if (conf_run_k(name, ptx, DIM(1, 1, 1), DIM((uint32_t)n, 1, 1), 0, params, 2, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    for (int t = 0; t < n; t++) {
        int w = t / 32 * 32, lane = t % 32;
        uint32_t got_d = out[2 * t], got_e = out[2 * t + 1];
        if (!in[t].q) {
            ck_assert_msg(got_d == 0xdead && got_e == 0xdead,
                          "%s: thread %d does not execute the shuffle, but d = 0x%x, p = 0x%x", name, t,
                          got_d, got_e);
            continue;
        }
        int32_t j;
        bool pval;
        shfl_isa(mode, lane, in[t].b, row->c, &j, &pval);
        ck_assert_msg(got_e == pval, "%s: thread %d (b %u): p want %d got %u", name, t, in[t].b, pval, got_e);
        int s = w + j;
        bool defined = !pval || (s < n && in[s].q && ((in[t].m >> j) & 1));
        if (defined)
            ck_assert_msg(got_d == in[s].x, "%s: thread %d (b %u): d want 0x%08x (lane %d) got 0x%08x", name, t,
                          in[t].b, in[s].x, j, got_d);
    }
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* ---- vote, match, redux and elect with per-lane membermasks (tiles) in registers, inside
 * divergent branches and under guards: each group of lanes gets its own group's answer. */

typedef enum { G_BALLOT, G_VOTES, G_MATCH_ANY, G_MATCH_ALL, G_ADD, G_MIN_S, G_MAX_U, G_AND, G_OR, G_XOR, G_ELECT } group_op;
static const struct { group_op op; const char *what, *body; } group_ops[] = {
    { G_BALLOT, "vote.sync.ballot.b32", "    @%q vote.sync.ballot.b32 %d, %r, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_VOTES, "vote.sync.all/any/uni.pred",
      "    @%q mov.u32 %d, 0;\n"
      "    @%q vote.sync.all.pred %p, %r, %m;\n    @%q selp.u32 %e, 1, 0, %p;\n"
      "    @%q vote.sync.any.pred %p, %r, %m;\n    @%q selp.u32 %f, 2, 0, %p;\n    @%q or.b32 %e, %e, %f;\n"
      "    @%q vote.sync.uni.pred %p, %r, %m;\n    @%q selp.u32 %f, 4, 0, %p;\n    @%q or.b32 %e, %e, %f;\n" },
    { G_MATCH_ANY, "match.any.sync.b32", "    @%q match.any.sync.b32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_MATCH_ALL, "match.all.sync.b32", "    @%q match.all.sync.b32 %d|%p, %x, %m;\n    @%q selp.u32 %e, 1, 0, %p;\n" },
    { G_ADD, "redux.sync.add.u32", "    @%q redux.sync.add.u32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_MIN_S, "redux.sync.min.s32", "    @%q redux.sync.min.s32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_MAX_U, "redux.sync.max.u32", "    @%q redux.sync.max.u32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_AND, "redux.sync.and.b32", "    @%q redux.sync.and.b32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_OR, "redux.sync.or.b32", "    @%q redux.sync.or.b32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_XOR, "redux.sync.xor.b32", "    @%q redux.sync.xor.b32 %d, %x, %m;\n    @%q mov.u32 %e, 0;\n" },
    { G_ELECT, "elect.sync", "    @%q elect.sync %d|%p, %m;\n    @%q selp.u32 %e, 1, 0, %p;\n" },
};

static const struct { const char *what; uint32_t exec; uint32_t (*member_of)(int lane, uint32_t exec); } group_patterns[] = {
    { "tiles of 16", ~0u, tile16 },
    { "tiles of 8 among lanes 0-5 of each 8", 0x3f3f3f3fu, tile8 },
    { "tiles of 4 among lanes 1-3 of each 4", 0xeeeeeeeeu, tile4 },
    { "odd lanes, one group (membermask 0xaaaaaaaa in a register)", 0xaaaaaaaau, NULL },
};

/* inputs: equal in some groups, not in others (match); votes' predicate (bit 0) true in lanes
 * 0-15, false in 16-23, mixed in 24-31, so tiles and the whole warp answer differently; signed
 * and unsigned spread (redux) */
static uint32_t x_group(group_op op, int t)
{
    int lane = t % 32;
    if (op == G_BALLOT || op == G_VOTES)
        return (uint32_t)t << 1 | (lane < 16 ? 1u : lane < 24 ? 0u : (uint32_t)(lane >> 1) & 1);
    if (op == G_MATCH_ANY || op == G_MATCH_ALL) return lane < 16 ? 7u + (uint32_t)(t / 32) : (uint32_t)(lane % 3);
    return (uint32_t)((t * 2654435761u) >> 5) ^ (t & 2 ? 0x80000000u : 0);
}

static void group_ref(group_op op, const lane_in *in, int t, uint32_t *d, uint32_t *e)
{
    int w = t / 32 * 32, lane = t % 32;
    uint32_t mem = in[t].m, ballot = 0, same = 0;
    bool first = true;
    uint32_t acc = 0;
    for (int l = 0; l < 32; l++) {
        if (!((mem >> l) & 1)) continue;
        uint32_t v = in[w + l].x;
        ballot |= (v & 1) << l;
        same |= (uint32_t)(v == in[t].x) << l;
        if (first) {
            acc = v;
            first = false;
            continue;
        }
        switch (op) {
        case G_ADD: acc += v; break;
        case G_MIN_S: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
        case G_MAX_U: acc = v > acc ? v : acc; break;
        case G_AND: acc &= v; break;
        case G_OR: acc |= v; break;
        case G_XOR: acc ^= v; break;
        default: break;
        }
    }
    *e = 0;
    switch (op) {
    case G_BALLOT: *d = ballot; break;
    case G_VOTES:
        *d = 0;
        *e = (ballot == mem ? 1u : 0u) | (ballot ? 2u : 0u) | ((ballot == 0 || ballot == mem) ? 4u : 0u);
        break;
    case G_MATCH_ANY: *d = same; break;
    case G_MATCH_ALL: *d = same == mem ? mem : 0; *e = same == mem; break;
    case G_ELECT: *d = (uint32_t)__builtin_ctz(mem); *e = (uint32_t)lane == *d; break;
    default: *d = acc; break;
    }
}

enum { NGROUP_RUNS = (int)(CONF_N(group_ops) * CONF_N(group_patterns) * 2) };

START_TEST(group_row_test)
{
    int op_i = _i / (int)(CONF_N(group_patterns) * 2), rest = _i % (int)(CONF_N(group_patterns) * 2);
    int pat_i = rest / 2;
    bool guard = rest % 2;
    group_op op = group_ops[op_i].op;
    char name[256], body[1024], ptx[4096];
    snprintf(name, sizeof name, "%s: %s [%s]", group_ops[op_i].what, group_patterns[pat_i].what,
             guard ? "under a guard" : "in a divergent branch");
    snprintf(body, sizeof body, "%s%s%s", guard ? "" : "    @!%q bra SKIP;\n", group_ops[op_i].body,
             guard ? "" : "SKIP:\n");
    group_kernel(ptx, sizeof ptx, body);
    enum { N = 64 };
    lane_in *in = conf_dev_alloc(sizeof(lane_in) * N);
    uint32_t *out = conf_dev_alloc(8 * N);
    uint32_t exec = group_patterns[pat_i].exec;
    for (int t = 0; t < N; t++) {
        int lane = t % 32;
        in[t].x = x_group(op, t);
        in[t].m = group_patterns[pat_i].member_of ? group_patterns[pat_i].member_of(lane, exec) : exec;
        in[t].q = (exec >> lane) & 1;
    }
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    if (conf_run_k(name, ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 2, &r) != CONF_OK) ck_abort_msg("%s", r.message);
    for (int t = 0; t < N; t++) {
        uint32_t d = 0xdead, e = 0xdead;
        if (in[t].q) group_ref(op, in, t, &d, &e);
        ck_assert_msg(out[2 * t] == d && out[2 * t + 1] == e,
                      "%s: thread %d (x 0x%08x, membermask 0x%08x): want d 0x%08x e 0x%x, got d 0x%08x e 0x%x", name,
                      t, in[t].x, in[t].m, d, e, out[2 * t], out[2 * t + 1]);
    }
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* ---- shfl: every mode, delta and width, lane by lane
 *
 * One kernel runs a shfl.sync for every combination of mode (up, down, bfly, idx), b (0, 1, 2,
 * 3, 5, 8, 15, 16, 17, 30, 31; and per-lane values, some above 31 whose bits past b[4:0] are
 * ignored) and c (the values CUDA's __shfl_*_sync give for widths 32, 16, 8, 4, 2 and 1, plus
 * clamp-only and mixed values), over two warps, and stores each lane's d and p. The expected
 * values are the ISA's pseudo-code (shfl_ref above). Variants: the whole warp; a divergent,
 * irregular subset of lanes naming itself as membermask (a lane that does not execute keeps its
 * old values; d is compared only where the source lane executes it, as the ISA leaves d
 * undefined otherwise, while p is defined for every executing lane). */
enum { SM_THREADS = 64 };
static const uint32_t sm_deltas[] = { 0, 1, 2, 3, 5, 8, 15, 16, 17, 30, 31 };
static const char *const sm_modes[] = { "up", "down", "bfly", "idx" };
/* c per mode kind: up clamps at the segment's start (c[4:0] = 0), the others at its end */
static uint32_t sm_c(int mode, int ci)
{
    static const uint32_t widths[] = { 32, 16, 8, 4, 2, 1 };
    static const uint32_t extra_up[] = { 0x03, 0x10, 0x1f, 0x1c05 };
    static const uint32_t extra[] = { 0x00, 0x07, 0x14, 0x180f };
    if (ci < 6) return ((32 - widths[ci]) << 8) | (mode == UP ? 0 : 0x1f);
    return mode == UP ? extra_up[ci - 6] : extra[ci - 6];
}
enum { SM_NC = 10, SM_NB = CONF_N(sm_deltas) + 1 };   /* the last b is per lane */
enum { SM_COMBOS = 4 * SM_NB * SM_NC };
static uint32_t sm_lane_b(int lane) { return (uint32_t)(lane * 7 + 3) % 40; }
static uint32_t sm_b(int bi, int lane) { return bi < (int)CONF_N(sm_deltas) ? sm_deltas[bi] : sm_lane_b(lane); }

START_TEST(shfl_matrix)
{
    bool divergent = _i == 1;
    const uint32_t members = divergent ? 0xb5e1a7d3u : 0xffffffffu;   /* lanes that execute */
    size_t cap = (size_t)SM_COMBOS * 200 + 4096, n = 0;
    char *ptx = malloc(cap);
    n += (size_t)snprintf(ptx + n, cap - n,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
             "{\n"
             "    .reg .b64 %%out, %%in, %%off;\n"
             "    .reg .b32 %%lane, %%t, %%x, %%d, %%e, %%b, %%m;\n"
             "    .reg .pred %%p, %%q;\n"
             "    ld.param.u64 %%out, [pout];\n"
             "    ld.param.u64 %%in, [pin];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mov.u32 %%lane, %%laneid;\n"
             "    mul.wide.u32 %%off, %%t, 4;\n"
             "    add.u64 %%in, %%in, %%off;\n"
             "    ld.global.u32 %%x, [%%in];\n"
             "    mul.wide.u32 %%off, %%t, 8;\n"
             "    add.u64 %%out, %%out, %%off;\n"
             "    mad.lo.u32 %%b, %%lane, 7, 3;\n"
             "    rem.u32 %%b, %%b, 40;\n"
             "    shr.b32 %%m, %u, %%lane;\n"
             "    and.b32 %%m, %%m, 1;\n"
             "    setp.eq.u32 %%q, %%m, 0;\n"
             "    @%%q bra DONE;\n",
             members);
    for (int mo = 0; mo < 4; mo++)
        for (int bi = 0; bi < SM_NB; bi++)
            for (int ci = 0; ci < SM_NC; ci++) {
                int k = (mo * SM_NB + bi) * SM_NC + ci;
                char bop[16];
                if (bi < (int)CONF_N(sm_deltas)) snprintf(bop, sizeof bop, "%u", sm_deltas[bi]);
                else snprintf(bop, sizeof bop, "%%b");
                n += (size_t)snprintf(ptx + n, cap - n,
                                      "    shfl.sync.%s.b32 %%d|%%p, %%x, %s, %u, %u;\n"
                                      "    selp.u32 %%e, 1, 0, %%p;\n"
                                      "    st.global.v2.u32 [%%out+%u], {%%d, %%e};\n",
                                      sm_modes[mo], bop, sm_c(mo, ci), members,
                                      (unsigned)k * SM_THREADS * 8);
            }
    snprintf(ptx + n, cap - n, "DONE:\n    ret;\n}\n");
    uint32_t *in = conf_dev_alloc(4 * SM_THREADS), *out = conf_dev_alloc((size_t)SM_COMBOS * SM_THREADS * 8);
    uint32_t x[SM_THREADS];
    for (int t = 0; t < SM_THREADS; t++) in[t] = x[t] = 0x1000u * (uint32_t)(t / 32) + 0x100u + (uint32_t)t * 3;
    for (size_t i = 0; i < (size_t)SM_COMBOS * SM_THREADS * 2; i++) out[i] = 0xdeadbeefu;
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    if (conf_run_k("shfl matrix", ptx, DIM(1, 1, 1), DIM(SM_THREADS, 1, 1), 0, params, 2, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    free(ptx);
    int checked = 0;
    for (int mo = 0; mo < 4; mo++)
        for (int bi = 0; bi < SM_NB; bi++)
            for (int ci = 0; ci < SM_NC; ci++) {
                int k = (mo * SM_NB + bi) * SM_NC + ci;
                uint32_t c = sm_c(mo, ci);
                for (int t = 0; t < SM_THREADS; t++) {
                    int w = t / 32 * 32, lane = t % 32;
                    const uint32_t *o = &out[((size_t)k * SM_THREADS + (size_t)t) * 2];
                    char what[160];
                    snprintf(what, sizeof what, "shfl.sync.%s.b32 b=%u c=0x%x membermask=0x%08x: warp %d lane %d",
                             sm_modes[mo], sm_b(bi, lane), c, members, t / 32, lane);
                    if (!((members >> lane) & 1)) {
                        ck_assert_msg(o[0] == 0xdeadbeefu && o[1] == 0xdeadbeefu,
                                      "%s does not execute the shfl, yet its results changed to 0x%x / %u", what, o[0], o[1]);
                        continue;
                    }
                    uint32_t bval = sm_b(bi, lane) & 31, cval = c & 31, seg = (c >> 8) & 31;
                    int32_t maxl = (int32_t)(((uint32_t)lane & seg) | (cval & ~seg)), minl = (int32_t)((uint32_t)lane & seg);
                    int32_t j;
                    bool pval;
                    switch (mo) {
                    case UP: j = lane - (int32_t)bval; pval = j >= maxl; break;
                    case DOWN: j = lane + (int32_t)bval; pval = j <= maxl; break;
                    case BFLY: j = lane ^ (int32_t)bval; pval = j <= maxl; break;
                    default: j = minl | (int32_t)(bval & ~seg); pval = j <= maxl; break;
                    }
                    if (!pval) j = lane;
                    ck_assert_msg(o[1] == (uint32_t)pval, "%s: p want %d got %u (source lane %d)", what, pval, o[1], j);
                    if ((members >> j) & 1) {
                        ck_assert_msg(o[0] == x[w + j], "%s: d want 0x%x (lane %d) got 0x%x", what, x[w + j], j, o[0]);
                        checked++;
                    }
                }
            }
    ck_assert_int_gt(checked, SM_COMBOS * 16);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_warp");
    TCase *tc = tcase_create("warp-level instructions");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, warp_case_test, 0, (int)CONF_N(cases));
    tcase_add_test(tc, elect_sync);
    plan_shfl_runs();
    tcase_add_loop_test(tc, shfl_row_test, 0, n_shfl_runs);
    tcase_add_loop_test(tc, group_row_test, 0, NGROUP_RUNS);
    tcase_add_loop_test(tc, shfl_matrix, 0, 2);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
