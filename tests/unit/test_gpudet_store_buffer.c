/* test_gpudet_store_buffer.c: GPUDet's per-warp store buffer (spec gpudet.md S6, S7.1):
 * one log entry per 128-byte chunk per store instruction with byte masks, in program order;
 * the highest lane winning a same-instruction collision; reads of the warp's own writes byte by
 * byte from the newest covering store (memory for the rest), checked against a shadow copy,
 * single and warp-wide; and the commit rule checked against an independent per-byte
 * reference: each byte ends as the newest write of the lowest warp ID that wrote it, whatever
 * the number of commit shares. */
#include "tests/unit/ptx_kernels.h"
#include "timing/gpudet/gpudet.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *mem;   /* 1 KiB, 128-byte aligned: the "global memory" of these tests */
#define MEM_BYTES 1024u

static void setup(void)
{
    mem = aligned_alloc(128, MEM_BYTES);
    ck_assert_ptr_nonnull(mem);
    memset(mem, 0, MEM_BYTES);
}

static void teardown(void)
{
    free(mem);
}

static uint64_t at(unsigned off)
{
    return (uint64_t)(uintptr_t)(mem + off);
}

/* The warp-level operation of lanes `mask`, each `size` bytes at addr[lane], data[lane]. */
static emu_mem_op lane_op(uint8_t kind, uint32_t mask, const uint64_t *addr, unsigned size,
                          uint8_t (*data)[16], emu_mem_seg *segs)
{
    uint32_t n = 0;
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        segs[n++] = (emu_mem_seg){ addr[l], size, (uint32_t)l * 16, (uint8_t)l };
    }
    return (emu_mem_op){ .kind = kind, .space = PTX_SPACE_GLOBAL, .mask = mask, .nseg = n,
                         .seg = segs, .data = &data[0][0] };
}

/* One warp-level store: lanes of mask store `size` bytes of val[lane] at addr[lane]. */
static int store(gd_sb *sb, uint32_t mask, const uint64_t *addr, unsigned size,
                 const uint64_t *val)
{
    uint8_t data[EMU_WARP_SIZE][16];
    memset(data, 0, sizeof data);
    for (int l = 0; l < EMU_WARP_SIZE; l++) memcpy(data[l], &val[l], size < 8 ? size : 8);
    emu_mem_seg segs[EMU_WARP_SIZE];
    emu_mem_op op = lane_op(EMU_MEM_STORE, mask, addr, size, data, segs);
    return gd_sb_store(sb, &op);
}

/* A warp-level load's overlay of the buffered bytes (lanes that took any). */
static uint32_t read_warp(const gd_sb *sb, uint32_t mask, const uint64_t *addr, unsigned size,
                          uint8_t (*data)[16])
{
    emu_mem_seg segs[EMU_WARP_SIZE];
    emu_mem_op op = lane_op(EMU_MEM_LOAD, mask, addr, size, data, segs);
    return gd_sb_read_op(sb, &op);
}

static int store1(gd_sb *sb, uint64_t a, unsigned size, uint64_t v)
{
    uint64_t addr[EMU_WARP_SIZE] = {a}, val[EMU_WARP_SIZE] = {v};
    return store(sb, 1u, addr, size, val);
}

START_TEST(one_entry_per_chunk)
{
    gd_sb sb;
    gd_sb_init(&sb);
    uint64_t addr[32], val[32];
    for (int l = 0; l < 32; l++) {
        addr[l] = at(128 + 4 * (unsigned)l);   /* coalesced: exactly one chunk */
        val[l] = 0x1000u + (unsigned)l;
    }
    ck_assert_int_eq(store(&sb, 0xffffffffu, addr, 4, val), 1);
    ck_assert_uint_eq(sb.n, 1);
    ck_assert(sb.e[0].mask == ~(gd_mask)0);
    ck_assert_uint_eq(sb.e[0].chunk, at(128));
    for (int l = 0; l < 32; l++) addr[l] = at(64 + 4 * (unsigned)l);   /* straddles two chunks */
    ck_assert_int_eq(store(&sb, 0xffffffffu, addr, 4, val), 2);
    for (int l = 0; l < 8; l++) addr[l] = at(128 * (unsigned)l);   /* one chunk per lane */
    ck_assert_int_eq(store(&sb, 0xffu, addr, 4, val), 8);
    ck_assert_uint_eq(sb.n, 11);
    /* the partial entries have exactly the stored bytes in their masks */
    ck_assert(sb.e[1].mask == ((~(gd_mask)0) << 64));   /* bytes 64..127 of chunk 0 */
    ck_assert(sb.e[2].mask == (((gd_mask)1 << 64) - 1)); /* bytes 0..63 of chunk 1 */
    ck_assert(sb.e[3].mask == (gd_mask)0xf);
    gd_sb_free(&sb);
}
END_TEST

START_TEST(highest_lane_wins)
{
    gd_sb sb;
    gd_sb_init(&sb);
    uint64_t addr[32], val[32];
    for (int l = 0; l < 32; l++) {
        addr[l] = at(256);
        val[l] = 100u + (unsigned)l;
    }
    /* lanes 31 and 30 inactive: lane 29 is the highest active one */
    ck_assert_int_eq(store(&sb, 0x3fffffffu, addr, 4, val), 1);
    uint32_t got = 0;
    ck_assert_uint_eq(gd_sb_read(&sb, at(256), 4, (uint8_t *)&got), 4);
    ck_assert_uint_eq(got, 129);
    gd_sb_commit(&sb, 0, 1);
    uint32_t m;
    memcpy(&m, mem + 256, 4);
    ck_assert_uint_eq(m, 129);
    gd_sb_free(&sb);
}
END_TEST

START_TEST(reads_newest_entry_per_byte)
{
    gd_sb sb;
    gd_sb_init(&sb);
    memset(mem + 512, 0xee, 16);   /* memory's own bytes where nothing is buffered */
    store1(&sb, at(512), 4, 0x11223344u);
    store1(&sb, at(513), 1, 0xaa);
    store1(&sb, at(514), 2, 0xbbcc);
    store1(&sb, at(512), 1, 0x55);
    ck_assert_uint_eq(sb.n, 4);   /* program order kept: never merged into older entries */
    for (int i = 0; i < 4; i++) ck_assert_int_eq(sb.e[i].prev, i - 1);   /* one chunk's chain */
    ck_assert(sb.e[1].mask == (gd_mask)0x2);
    ck_assert(sb.e[2].mask == (gd_mask)0xc);
    uint8_t buf[8];
    memcpy(buf, mem + 512, 8);    /* a load reads memory first, then overlays the buffer */
    ck_assert_uint_eq(gd_sb_read(&sb, at(512), 8, buf), 4);
    const uint8_t want[8] = {0x55, 0xaa, 0xcc, 0xbb, 0xee, 0xee, 0xee, 0xee};
    ck_assert_mem_eq(buf, want, 8);
    /* a read of bytes nobody buffered takes nothing */
    uint8_t z[4] = {1, 2, 3, 4};
    ck_assert_uint_eq(gd_sb_read(&sb, at(520), 4, z), 0);
    ck_assert_uint_eq(z[0], 1);
    /* memory itself is untouched until commit */
    ck_assert_uint_eq(mem[512], 0xee);
    gd_sb_commit(&sb, 0, 1);
    ck_assert_mem_eq(mem + 512, want, 8);
    gd_sb_free(&sb);
}
END_TEST

START_TEST(reset_and_many_chunks)
{
    gd_sb sb;
    gd_sb_init(&sb);
    /* more chunks than the index starts with: it grows and still finds each one */
    static uint8_t big[600 * 128] __attribute__((aligned(128)));
    for (unsigned i = 0; i < 600; i++)
        store1(&sb, (uint64_t)(uintptr_t)(big + 128 * i + (i % 32) * 4), 4, i * 7u);
    for (unsigned i = 0; i < 600; i++) {
        uint32_t v = 0;
        ck_assert_uint_eq(gd_sb_read(&sb, (uint64_t)(uintptr_t)(big + 128 * i + (i % 32) * 4), 4,
                                     (uint8_t *)&v), 4);
        ck_assert_uint_eq(v, i * 7u);
    }
    gd_sb_reset(&sb);
    ck_assert_uint_eq(sb.n, 0);
    uint32_t v = 9;
    ck_assert_uint_eq(gd_sb_read(&sb, (uint64_t)(uintptr_t)big, 4, (uint8_t *)&v), 0);
    ck_assert_uint_eq(v, 9);
    store1(&sb, (uint64_t)(uintptr_t)(big + 128), 4, 77);
    ck_assert_uint_eq(gd_sb_read(&sb, (uint64_t)(uintptr_t)(big + 128), 4, (uint8_t *)&v), 4);
    ck_assert_uint_eq(v, 77);
    ck_assert_uint_eq(gd_sb_read(&sb, (uint64_t)(uintptr_t)(big + 132), 4, (uint8_t *)&v), 0);
    gd_sb_free(&sb);
}
END_TEST

/* ---- the commit rule against a per-byte reference */

#define NWARPS 6
#define NSTORES 40

typedef struct ref_store {
    uint32_t mask;
    unsigned size;
    uint64_t off[32];
    uint64_t val[32];
} ref_store;

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return rng_state >> 33;
}

START_TEST(commit_matches_per_byte_reference)
{
    static ref_store st[NWARPS][NSTORES];
    const uint32_t wid[NWARPS] = {9, 2, 14, 0, 5, 7};   /* commit priority: lower wins */
    rng_state = 12345u + (uint64_t)_i;
    for (int w = 0; w < NWARPS; w++)
        for (int s = 0; s < NSTORES; s++) {
            ref_store *r = &st[w][s];
            static const unsigned sizes[] = {1, 2, 4, 8, 16};
            r->size = sizes[rnd() % 5];
            r->mask = (uint32_t)rnd() | 1u;
            for (int l = 0; l < 32; l++) {
                /* a small region, so warps and lanes collide often */
                r->off[l] = (rnd() % (MEM_BYTES / r->size)) * r->size;
                if (rnd() % 4 == 0) r->off[l] = (rnd() % 8) * r->size;
                r->val[l] = ((uint64_t)rnd() << 32) | rnd();
            }
        }
    /* Reference, byte by byte: the warps in ascending ID; the first to have written a byte
     * owns it, with its last write in program order (within an instruction: highest lane). */
    uint8_t want[MEM_BYTES], init[MEM_BYTES];
    for (unsigned b = 0; b < MEM_BYTES; b++) init[b] = (uint8_t)(b * 31u);
    memcpy(want, init, MEM_BYTES);
    bool owned[MEM_BYTES] = {false};
    int order[NWARPS];
    for (int i = 0; i < NWARPS; i++) order[i] = i;
    for (int i = 0; i < NWARPS; i++)
        for (int j = i + 1; j < NWARPS; j++)
            if (wid[order[j]] < wid[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    for (int k = 0; k < NWARPS; k++) {
        int w = order[k];
        bool mine[MEM_BYTES] = {false};
        uint8_t val[MEM_BYTES];
        for (int s = 0; s < NSTORES; s++) {
            const ref_store *r = &st[w][s];
            for (int l = 0; l < 32; l++) {
                if (!((r->mask >> l) & 1)) continue;
                uint8_t bytes[16] = {0};
                memcpy(bytes, &r->val[l], r->size < 8 ? r->size : 8);
                for (unsigned b = 0; b < r->size; b++) {
                    mine[r->off[l] + b] = true;
                    val[r->off[l] + b] = bytes[b];
                }
            }
        }
        for (unsigned b = 0; b < MEM_BYTES; b++)
            if (mine[b] && !owned[b]) {
                owned[b] = true;
                want[b] = val[b];
            }
    }
    /* The store buffers, committed in descending warp ID, with 1 and with 3 shares (the
     * shares in a scrambled order: they are disjoint, so the order must not matter). */
    for (unsigned nparts = 1; nparts <= 3; nparts += 2) {
        memcpy(mem, init, MEM_BYTES);
        gd_sb sb[NWARPS];
        for (int w = 0; w < NWARPS; w++) {
            gd_sb_init(&sb[w]);
            for (int s = 0; s < NSTORES; s++) {
                ref_store *r = &st[w][s];
                uint64_t addr[32];
                for (int l = 0; l < 32; l++) addr[l] = at((unsigned)r->off[l]);
                ck_assert_int_ge(store(&sb[w], r->mask, addr, r->size, r->val), 1);
            }
        }
        const uint32_t share_order[3] = {2, 0, 1};
        for (unsigned p = 0; p < nparts; p++)
            for (int k = NWARPS - 1; k >= 0; k--)
                gd_sb_commit(&sb[order[k]], nparts == 1 ? 0 : share_order[p], nparts);
        for (unsigned b = 0; b < MEM_BYTES; b++)
            ck_assert_msg(mem[b] == want[b], "byte %u: %02x, reference %02x (%u shares)", b,
                          mem[b], want[b], nparts);
        for (int w = 0; w < NWARPS; w++) gd_sb_free(&sb[w]);
    }
}
END_TEST

/* Read-own-writes against the same reference idea: after each store of one warp, every byte a
 * load sees is the warp's newest write of it, or memory. */
START_TEST(read_own_writes_reference)
{
    rng_state = 777u;
    gd_sb sb;
    gd_sb_init(&sb);
    uint8_t shadow[MEM_BYTES];
    bool written[MEM_BYTES] = {false};
    for (unsigned b = 0; b < MEM_BYTES; b++) mem[b] = (uint8_t)(b ^ 0x5a);
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    for (int s = 0; s < 200; s++) {
        unsigned size = sizes[rnd() % 5];
        uint32_t mask = (uint32_t)rnd() | 1u;
        uint64_t addr[32], val[32];
        for (int l = 0; l < 32; l++) {
            addr[l] = at((unsigned)((rnd() % (MEM_BYTES / size)) * size));
            val[l] = ((uint64_t)rnd() << 32) | rnd();
        }
        store(&sb, mask, addr, size, val);
        for (int l = 0; l < 32; l++) {
            if (!((mask >> l) & 1)) continue;
            uint8_t bytes[16] = {0};
            memcpy(bytes, &val[l], size < 8 ? size : 8);
            for (unsigned b = 0; b < size; b++) {
                unsigned o = (unsigned)(addr[l] - at(0)) + b;
                shadow[o] = bytes[b];
                written[o] = true;
            }
        }
        unsigned o = (unsigned)(rnd() % (MEM_BYTES / 16)) * 16;
        uint8_t got[16];
        memcpy(got, mem + o, 16);
        gd_sb_read(&sb, at(o), 16, got);
        for (unsigned b = 0; b < 16; b++) {
            uint8_t w = written[o + b] ? shadow[o + b] : mem[o + b];
            ck_assert_msg(got[b] == w, "store %d, byte %u: %02x want %02x", s, o + b, got[b], w);
        }
        /* the warp-level read: lanes of one load, some sharing chunks (coalesced), some not */
        unsigned rsize = sizes[rnd() % 5];
        uint32_t rmask = (uint32_t)rnd() | 1u;
        uint64_t raddr[32];
        uint8_t lane[32][16];
        for (int l = 0; l < 32; l++) {
            unsigned base = (unsigned)(rnd() % (MEM_BYTES / 128)) * 128;
            raddr[l] = at(rnd() % 3 ? (unsigned)(base + ((unsigned)l * rsize) % 128)
                                    : (unsigned)((rnd() % (MEM_BYTES / rsize)) * rsize));
            memcpy(lane[l], (const void *)(uintptr_t)raddr[l], rsize);
        }
        uint32_t hit = read_warp(&sb, rmask, raddr, rsize, lane);
        for (int l = 0; l < 32; l++) {
            if (!((rmask >> l) & 1)) continue;
            unsigned lo = (unsigned)(raddr[l] - at(0));
            bool any = false;
            for (unsigned b = 0; b < rsize; b++) {
                uint8_t w = written[lo + b] ? shadow[lo + b] : mem[lo + b];
                any = any || written[lo + b];
                ck_assert_msg(lane[l][b] == w, "warp read after store %d, lane %d byte %u", s, l,
                              b);
            }
            ck_assert_int_eq(!!(hit & (1u << l)), any);
        }
    }
    gd_sb_free(&sb);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpudet_store_buffer");
    TCase *tc = tcase_create("store_buffer");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, one_entry_per_chunk);
    tcase_add_test(tc, highest_lane_wins);
    tcase_add_test(tc, reads_newest_entry_per_byte);
    tcase_add_test(tc, reset_and_many_chunks);
    tcase_add_loop_test(tc, commit_matches_per_byte_reference, 0, 4);
    tcase_add_test(tc, read_own_writes_reference);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
