/* test_dab_buffer.c: DAB's scheduler-level atomic buffer and its flush order (spec dab.md
 * S5, S8.2, G3, G4, G6), against values worked out by hand from the spec:
 * - fusion (Fig. 6b): two adds of 3 and 4 to 0xB0BA become one entry holding 7; lanes of one
 *   instruction fuse too; inc, a different op or type do not fuse; an f32 fusion rounds as the
 *   ROP's red.add.f32 does;
 * - all-or-nothing inserts (S5.4): what fits after fusion goes in, one entry too many closes the
 *   buffer and inserts nothing, and a closed buffer takes nothing until it is reset;
 * - flush order (S8.2): per sub-partition, transaction 1 of every SM in SM order, then
 *   transaction 2, ...; with coalescing the entries of one 32-byte sector of a buffer are one
 *   transaction at the place of the first (G4), which changes the order;
 * - applying a flush gives the sums. */
#include "tests/unit/ptx_kernels.h"
#include "timing/dab/dab.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static dab_entry add_u32(uint64_t addr, uint32_t v)
{
    return (dab_entry){ .addr = addr, .arg = v, .aop = PTX_SFX_ADD, .type = PTX_TYPE_U32,
                        .size = 4 };
}

static dab_entry add_f32(uint64_t addr, float v)
{
    dab_entry e = { .addr = addr, .aop = PTX_SFX_ADD, .type = PTX_TYPE_F32, .size = 4 };
    memcpy(&e.arg, &v, 4);
    return e;
}

static float arg_f32(const dab_entry *e)
{
    float f;
    memcpy(&f, &e->arg, 4);
    return f;
}

START_TEST(fusion_fig6b)
{
    dab_buf b;
    ck_assert(dab_buf_init(&b, 64));
    uint32_t fused;
    dab_entry a = add_u32(0xB0BA, 3), c = add_u32(0xB0BA, 4);
    ck_assert(dab_buf_insert(&b, &a, 1, true, &fused));
    ck_assert(dab_buf_insert(&b, &c, 1, true, &fused));
    ck_assert_uint_eq(fused, 1);
    ck_assert_uint_eq(b.n, 1);
    ck_assert_uint_eq(b.e[0].arg, 7);
    /* without fusion: two entries in insert order */
    dab_buf_reset(&b);
    ck_assert(dab_buf_insert(&b, &a, 1, false, &fused));
    ck_assert(dab_buf_insert(&b, &c, 1, false, &fused));
    ck_assert_uint_eq(b.n, 2);
    ck_assert_uint_eq(b.e[0].arg, 3);
    ck_assert_uint_eq(b.e[1].arg, 4);
    dab_buf_free(&b);
}
END_TEST

START_TEST(fusion_rules)
{
    dab_buf b;
    ck_assert(dab_buf_init(&b, 64));
    uint32_t fused;
    /* one instruction, 32 lanes on 4 addresses: 4 entries, lane order kept */
    dab_entry w[32];
    for (int l = 0; l < 32; l++) w[l] = add_u32(0x1000 + 4 * (l % 4), (uint32_t)l);
    ck_assert(dab_buf_insert(&b, w, 32, true, &fused));
    ck_assert_uint_eq(fused, 28);
    ck_assert_uint_eq(b.n, 4);
    for (int k = 0; k < 4; k++) {
        ck_assert_uint_eq(b.e[k].addr, 0x1000 + 4 * k);
        ck_assert_uint_eq(b.e[k].arg, (uint32_t)(k + (k + 4) + (k + 8) + (k + 12) + (k + 16) +
                                                 (k + 20) + (k + 24) + (k + 28)));
    }
    /* inc never fuses; a different op or type at the same address is another entry */
    dab_entry inc = add_u32(0x1000, 9);
    inc.aop = PTX_SFX_INC;
    dab_entry mx = add_u32(0x1000, 5);
    mx.aop = PTX_SFX_MAX;
    dab_entry f = add_f32(0x1000, 1.0f);
    ck_assert(dab_buf_insert(&b, &inc, 1, true, &fused));
    ck_assert(dab_buf_insert(&b, &inc, 1, true, &fused));
    ck_assert(dab_buf_insert(&b, &mx, 1, true, &fused));
    ck_assert(dab_buf_insert(&b, &f, 1, true, &fused));
    ck_assert_uint_eq(b.n, 8);
    /* max fuses as max */
    dab_entry mx2 = add_u32(0x1000, 3);
    mx2.aop = PTX_SFX_MAX;
    ck_assert(dab_buf_insert(&b, &mx2, 1, true, &fused));
    ck_assert_uint_eq(fused, 1);
    ck_assert_uint_eq(b.e[6].arg, 5);
    /* f32: the fused operand is the f32 sum, rounded to nearest even: 1 + 2^-25 is 1 */
    dab_entry tiny = add_f32(0x1000, 0x1p-25f);
    ck_assert(dab_buf_insert(&b, &tiny, 1, true, &fused));
    ck_assert(arg_f32(&b.e[7]) == 1.0f);
    dab_entry big = add_f32(0x1000, 0.5f);
    ck_assert(dab_buf_insert(&b, &big, 1, true, &fused));
    ck_assert(arg_f32(&b.e[7]) == 1.5f);
    dab_buf_free(&b);
}
END_TEST

START_TEST(all_or_nothing)
{
    dab_buf b;
    ck_assert(dab_buf_init(&b, 32));
    uint32_t fused;
    dab_entry w[32];
    for (int l = 0; l < 20; l++) w[l] = add_u32(0x2000 + 4 * (uint64_t)l, 1);
    ck_assert(dab_buf_insert(&b, w, 20, true, &fused));
    ck_assert_uint_eq(b.n, 20);
    /* 16 lanes: 4 fuse into entries there, 12 new: 32 entries exactly */
    for (int l = 0; l < 16; l++) w[l] = add_u32(0x2000 + 4 * (uint64_t)(l < 4 ? l : 100 + l), 2);
    ck_assert(dab_buf_insert(&b, w, 16, true, &fused));
    ck_assert_uint_eq(fused, 4);
    ck_assert_uint_eq(b.n, 32);
    ck_assert(!b.closed);
    /* one new entry too many: nothing goes in, and the buffer closes (G1a) */
    w[0] = add_u32(0x2000, 5);
    w[1] = add_u32(0x9000, 5);
    ck_assert(!dab_buf_insert(&b, w, 2, true, &fused));
    ck_assert(b.closed);
    ck_assert_uint_eq(b.n, 32);
    ck_assert_uint_eq(b.e[0].arg, 3);
    /* closed: even a fully fusing atomic waits for the flush */
    ck_assert(!dab_buf_insert(&b, w, 1, true, &fused));
    ck_assert_uint_eq(b.e[0].arg, 3);
    dab_buf_reset(&b);
    ck_assert(!b.closed);
    ck_assert(dab_buf_insert(&b, w, 2, true, &fused));
    ck_assert_uint_eq(b.n, 2);
    dab_buf_free(&b);
}
END_TEST

/* The addresses of the order tests are keys only (nothing is applied): with 2 sub-partitions
 * and a 256-byte interleave, 0x000-0x0ff is sub-partition 0 and 0x100-0x1ff is 1. */
START_TEST(round_robin_per_subpartition)
{
    ck_assert_uint_eq(dab_subpartition(0x0ff, 2), 0);
    ck_assert_uint_eq(dab_subpartition(0x100, 2), 1);
    ck_assert_uint_eq(dab_subpartition(0x200, 2), 0);
    dab_buf sm0[2], sm1[2];
    for (int i = 0; i < 2; i++) {
        ck_assert(dab_buf_init(&sm0[i], 32));
        ck_assert(dab_buf_init(&sm1[i], 32));
    }
    uint32_t fused;
    /* SM 0: scheduler 0 holds A (sp 1), B (sp 0); scheduler 1 holds E (sp 0).
     * SM 1: scheduler 0 holds C (sp 0); scheduler 1 holds D (sp 0). */
    dab_entry A = add_u32(0x100, 1), B = add_u32(0x040, 2), E = add_u32(0x0c0, 5);
    dab_entry C = add_u32(0x080, 3), D = add_u32(0x040, 4);
    ck_assert(dab_buf_insert(&sm0[0], &A, 1, true, &fused));
    ck_assert(dab_buf_insert(&sm0[0], &B, 1, true, &fused));
    ck_assert(dab_buf_insert(&sm0[1], &E, 1, true, &fused));
    ck_assert(dab_buf_insert(&sm1[0], &C, 1, true, &fused));
    ck_assert(dab_buf_insert(&sm1[1], &D, 1, true, &fused));
    dab_item items[8];
    uint32_t seq[2];
    uint64_t ntxn = 0;
    memset(seq, 0, sizeof seq);
    size_t n = dab_drain_sm(sm0, 2, 0, 2, false, 0, seq, items, &ntxn);
    memset(seq, 0, sizeof seq);
    n += dab_drain_sm(sm1, 2, 1, 2, false, 0, seq, items + n, &ntxn);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(ntxn, 5);
    dab_order(items, n);
    /* sp 0: SM0's 1st (B), SM1's 1st (C), SM0's 2nd (E), SM1's 2nd (D); then sp 1: A. (A
     * round robin over each SM's whole stream would give C before B.) */
    uint32_t want[] = {2, 3, 5, 4, 1};
    for (size_t i = 0; i < n; i++) ck_assert_uint_eq(items[i].e->arg, want[i]);
    for (int i = 0; i < 2; i++) {
        dab_buf_free(&sm0[i]);
        dab_buf_free(&sm1[i]);
    }
}
END_TEST

START_TEST(coalescing_changes_order)
{
    dab_buf sm0, sm1;
    ck_assert(dab_buf_init(&sm0, 32));
    ck_assert(dab_buf_init(&sm1, 32));
    uint32_t fused;
    /* SM 0: 0x00, 0x04 (sector 0), 0x100 (sp 1), 0x08 (sector 0); SM 1: 0x10 (sector 0) */
    dab_entry e0[] = {add_u32(0x00, 1), add_u32(0x04, 2), add_u32(0x100, 3), add_u32(0x08, 4)};
    dab_entry e1 = add_u32(0x10, 5);
    ck_assert(dab_buf_insert(&sm0, e0, 4, true, &fused));
    ck_assert(dab_buf_insert(&sm1, &e1, 1, true, &fused));
    for (int co = 0; co < 2; co++) {
        dab_item items[8];
        uint32_t seq[2] = {0, 0};
        uint64_t ntxn = 0;
        size_t n = dab_drain_sm(&sm0, 1, 0, 2, co, 0, seq, items, &ntxn);
        seq[0] = seq[1] = 0;
        n += dab_drain_sm(&sm1, 1, 1, 2, co, 0, seq, items + n, &ntxn);
        dab_order(items, n);
        ck_assert_uint_eq(n, 5);
        /* coalesced: SM0's sector-0 transaction {1, 2, 4}, SM1's {5}, then sp 1's {3};
         * separate: 1 and 5 (first of each SM), 2, 4, then 3 */
        uint32_t with[] = {1, 2, 4, 5, 3}, without[] = {1, 5, 2, 4, 3};
        ck_assert_uint_eq(ntxn, co ? 3 : 5);
        for (size_t i = 0; i < n; i++) ck_assert_uint_eq(items[i].e->arg, co ? with[i] : without[i]);
    }
    dab_buf_free(&sm0);
    dab_buf_free(&sm1);
}
END_TEST

/* Offset flushing (S8.4): an SM that starts at entry 2 of 4 sends C, D, A, B; with every entry
 * in one sub-partition, its transactions take turns with SM 1's (which starts at 0) in that
 * order. A buffer holding no more than `start` entries drains from 0. Coalesced entries keep
 * buffer-index order inside their transaction (G4) even when the drain wraps. */
START_TEST(offset_flushing)
{
    dab_buf sm0, sm1;
    ck_assert(dab_buf_init(&sm0, 32));
    ck_assert(dab_buf_init(&sm1, 32));
    uint32_t fused;
    dab_entry e0[] = {add_u32(0x000, 1), add_u32(0x040, 2), add_u32(0x080, 3), add_u32(0x0c0, 4)};
    dab_entry e1[] = {add_u32(0x000, 5), add_u32(0x040, 6)};
    ck_assert(dab_buf_insert(&sm0, e0, 4, true, &fused));
    ck_assert(dab_buf_insert(&sm1, e1, 2, true, &fused));
    dab_item items[8];
    uint32_t seq[1] = {0};
    uint64_t ntxn = 0;
    size_t n = dab_drain_sm(&sm0, 1, 0, 1, false, 2, seq, items, &ntxn);
    seq[0] = 0;
    n += dab_drain_sm(&sm1, 1, 1, 1, false, 2, seq, items + n, &ntxn);   /* 2 entries: from 0 */
    dab_order(items, n);
    uint32_t want[] = {3, 5, 4, 6, 1, 2};
    ck_assert_uint_eq(n, 6);
    for (size_t i = 0; i < n; i++) ck_assert_uint_eq(items[i].e->arg, want[i]);
    /* coalesced, wrapping: 0x00 and 0x08 (sector 0) at entries 3 and 0, drained from entry 2:
     * 0x40 first, then sector 0's transaction at entry 3's place, entries 0 then 3 */
    dab_buf b;
    ck_assert(dab_buf_init(&b, 32));
    dab_entry e2[] = {add_u32(0x08, 7), add_u32(0x80, 8), add_u32(0x40, 9), add_u32(0x00, 10)};
    ck_assert(dab_buf_insert(&b, e2, 4, true, &fused));
    seq[0] = 0;
    n = dab_drain_sm(&b, 1, 0, 1, true, 2, seq, items, &ntxn);
    dab_order(items, n);
    uint32_t want2[] = {9, 7, 10, 8};
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++) ck_assert_uint_eq(items[i].e->arg, want2[i]);
    dab_buf_free(&b);
    dab_buf_free(&sm0);
    dab_buf_free(&sm1);
}
END_TEST

START_TEST(apply_sums)
{
    uint32_t *mem = aligned_alloc(64, 64);
    ck_assert_ptr_nonnull(mem);
    memset(mem, 0, 64);
    dab_buf b;
    ck_assert(dab_buf_init(&b, 32));
    uint32_t fused;
    dab_entry w[32];
    for (int l = 0; l < 32; l++) w[l] = add_u32((uint64_t)(uintptr_t)&mem[l % 8], (uint32_t)l + 1);
    ck_assert(dab_buf_insert(&b, w, 32, true, &fused));
    dab_item items[32];
    uint32_t seq[4] = {0};
    uint64_t ntxn = 0;
    size_t n = dab_drain_sm(&b, 1, 0, 4, true, 0, seq, items, &ntxn);
    dab_order(items, n);
    dab_apply(items, n);
    /* mem[k] = (k+1) + (k+9) + (k+17) + (k+25) */
    for (int k = 0; k < 8; k++) ck_assert_uint_eq(mem[k], (uint32_t)(4 * k + 52));
    dab_buf_free(&b);
    free(mem);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dab_buffer");
    TCase *tc = tcase_create("buffer");
    tcase_add_test(tc, fusion_fig6b);
    tcase_add_test(tc, fusion_rules);
    tcase_add_test(tc, all_or_nothing);
    tcase_add_test(tc, round_robin_per_subpartition);
    tcase_add_test(tc, coalescing_changes_order);
    tcase_add_test(tc, offset_flushing);
    tcase_add_test(tc, apply_sums);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
