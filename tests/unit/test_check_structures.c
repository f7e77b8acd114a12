/* test_check_structures.c: the data structures under --check, against plain references:
 * sparse vector clocks (a join is the pointwise maximum, a raise keeps the larger clock, absent
 * warps read 0), checked against dense arrays over random operations; initcheck's byte map
 * (an allocation clears exactly its bytes, a write marks exactly its bytes, the first
 * unwritten byte of any range), checked against a byte-per-byte reference over random
 * allocations, writes and queries, including ranges that cross pages and bitmap bytes. */
#include "tests/unit/ptx_kernels.h"
#include "timing/check/check_internal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define NWARPS 64

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(uint64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state % n;
}

START_TEST(vector_clock_join_is_pointwise_max)
{
    for (int round = 0; round < 200; round++) {
        ck_vc a = {0}, b = {0};
        uint32_t ra[NWARPS] = {0}, rb[NWARPS] = {0};
        for (int k = 0; k < 40; k++) {
            uint64_t w = 1 + rnd(NWARPS - 1);
            uint32_t c = (uint32_t)rnd(1000);
            if (rnd(2)) {
                ck_assert(ck_vc_raise(&a, w, c));
                if (c > ra[w]) ra[w] = c;
            } else {
                ck_assert(ck_vc_raise(&b, w, c));
                if (c > rb[w]) rb[w] = c;
            }
        }
        for (uint64_t w = 0; w < NWARPS; w++) {
            ck_assert_uint_eq(ck_vc_get(&a, w), ra[w]);
            ck_assert_uint_eq(ck_vc_get(&b, w), rb[w]);
        }
        ck_assert(ck_vc_join(&a, &b));
        for (uint64_t w = 0; w < NWARPS; w++)
            ck_assert_uint_eq(ck_vc_get(&a, w), ra[w] > rb[w] ? ra[w] : rb[w]);
        for (uint32_t i = 1; i < a.n; i++) ck_assert(a.t[i - 1].warp < a.t[i].warp);
        ck_vc_free(&a);
        ck_vc_free(&b);
    }
}
END_TEST

START_TEST(init_map_matches_bytewise_reference)
{
    enum { SPAN = 3 * 4096 + 100 };
    const uint64_t base = UINT64_C(0x200000000000) + 4000;   /* not page aligned */
    ck_initmap *m = ck_initmap_create();
    ck_assert_ptr_nonnull(m);
    static uint8_t ref[SPAN];
    memset(ref, 1, sizeof ref);   /* memory the map has never seen counts as written */
    for (int k = 0; k < 2000; k++) {
        uint64_t off = rnd(SPAN), n = 1 + rnd(SPAN - off < 300 ? SPAN - off : 300);
        switch (rnd(4)) {
        case 0:   /* an allocation: uninitialised */
            ck_initmap_set(m, base + off, n, false);
            memset(ref + off, 0, n);
            break;
        case 1:   /* a write */
            ck_initmap_set(m, base + off, n, true);
            memset(ref + off, 1, n);
            break;
        default: {
            uint64_t first = 0;
            bool got = ck_initmap_first_uninit(m, base + off, n, &first);
            uint64_t want = 0;
            bool any = false;
            for (uint64_t i = 0; i < n && !any; i++)
                if (!ref[off + i]) {
                    any = true;
                    want = base + off + i;
                }
            ck_assert_int_eq(got, any);
            if (any) ck_assert_uint_eq(first, want);
        }
        }
    }
    ck_initmap_destroy(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("check_structures");
    TCase *t = tcase_create("structures");
    tcase_add_test(t, vector_clock_join_is_pointwise_max);
    tcase_add_test(t, init_map_matches_bytewise_reference);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(suite()); }
