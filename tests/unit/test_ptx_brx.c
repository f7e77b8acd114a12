/* test_ptx_brx.c: brx.idx jump tables with more than two targets: every target is a successor of
 * the dispatching block (in written order, each block once), the reconvergence point is the
 * shared join, and on the emulator the lanes of one warp that take five different targets meet
 * again there with the whole warp active. */
#include "tests/unit/ptx_kernels.h"
#include "tests/unit/conformance_harness.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lane t adds 10^(t % 5) through one of five arms; the join records the active mask. */
static const char *FIVE_WAY =
    CONF_PTX_HEADER
    ".visible .entry k(.param .u64 pout, .param .u64 pmask)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pout];\n"          /* 0 */
    "  ld.param.u64 %rd2, [pmask];\n"         /* 1 */
    "  mov.u32 %r1, %tid.x;\n"                /* 2 */
    "  rem.u32 %r2, %r1, 5;\n"                /* 3 */
    "  mov.u32 %r3, 0;\n"                     /* 4 */
    "  ts: .branchtargets L0, L1, L2, L3, L4;\n"
    "  brx.idx %r2, ts;\n"                    /* 5   block 0 = [0, 6) */
    "L0:\n  add.u32 %r3, %r3, 1;\n"           /* 6   block 1 */
    "  bra.uni J;\n"                          /* 7 */
    "L1:\n  add.u32 %r3, %r3, 10;\n"          /* 8   block 2 */
    "  bra.uni J;\n"                          /* 9 */
    "L2:\n  add.u32 %r3, %r3, 100;\n"         /* 10  block 3 */
    "  bra.uni J;\n"                          /* 11 */
    "L3:\n  add.u32 %r3, %r3, 1000;\n"        /* 12  block 4 */
    "  bra.uni J;\n"                          /* 13 */
    "L4:\n  add.u32 %r3, %r3, 10000;\n"       /* 14  block 5, falls through into J */
    "J:\n  activemask.b32 %r4;\n"             /* 15  block 6 */
    "  add.u32 %r3, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r4;\n"
    "  ret;\n"
    "}\n";

static ptx_module *parse_ok(const char *src) { return pk_parse(src, "brx.ptx"); }

static void expect_succ(const ptx_function *f, uint32_t b, const int32_t *want, uint32_t n)
{
    ck_assert_uint_lt(b, f->nblocks);
    const ptx_block *bl = &f->blocks[b];
    ck_assert_msg(bl->nsucc == n, "block %u has %u successors, expected %u", b, bl->nsucc, n);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(bl->succ[i] == want[i], "block %u successor %u is %d, expected %d", b, i,
                      bl->succ[i], want[i]);
}

START_TEST(five_targets_cfg)
{
    ptx_module *m = parse_ok(FIVE_WAY);
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(k->nblocks, 7);
    static const int32_t all[5] = {1, 2, 3, 4, 5}, join[1] = {6};
    expect_succ(k, 0, all, 5);
    for (uint32_t b = 1; b <= 5; b++) {
        expect_succ(k, b, join, 1);
        ck_assert_int_eq(k->blocks[b].ipdom, 6);
    }
    expect_succ(k, 6, NULL, 0);
    ck_assert_int_eq(k->blocks[0].ipdom, 6);
    ck_assert_int_eq(k->blocks[6].ipdom, -1);
    const ptx_instr *brx = &k->instrs[5];
    ck_assert_int_eq(brx->op, PTX_OP_BRX_IDX);
    ck_assert_int_eq(brx->reconv, 15);         /* the activemask at J */
    ck_assert_int_eq(k->instrs[7].reconv, 15); /* each arm's bra.uni J */
    ck_assert_int_eq(k->instrs[15].block, 6);

    /* the dump lists all five successors; the round trip keeps them */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ptx_dump(m, f);
    fclose(f);
    ck_assert_msg(strstr(buf, "block 0 [0, 6) succ 1 2 3 4 5, ipdom 6") != NULL, "%s", buf);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ptx_print(m, f);
    fclose(f);
    ptx_module *m2 = parse_ok(buf);
    char why[512];
    ck_assert_msg(ptx_module_equal(m, m2, why, sizeof why), "round trip: %s", why);
    free(buf);
    ptx_module_free(m2);
    ptx_module_free(m);
}
END_TEST

/* Successors follow the table's order; a block named twice is one successor; a guarded
 * brx.idx also falls through. The join is still the IPDOM of the dispatch. */
START_TEST(table_order_duplicates_and_guard)
{
    ptx_module *m = parse_ok(CONF_PTX_HEADER
        ".entry k()\n{\n"
        "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
        "  setp.ne.u32 %p1, %r0, 7;\n"                                  /* 0 */
        "  ts: .branchtargets C, A, D, A, B;\n"
        "  @%p1 brx.idx %r0, ts;\n"                                     /* 1  block 0 */
        "  mov.u32 %r1, 9;\n  bra.uni J;\n"                             /* 2,3 block 1 */
        "A:\n  mov.u32 %r1, 1;\n  bra.uni J;\n"                         /* 4,5 block 2 */
        "B:\n  mov.u32 %r1, 2;\n  bra.uni J;\n"                         /* 6,7 block 3 */
        "C:\n  mov.u32 %r1, 3;\n  bra.uni J;\n"                         /* 8,9 block 4 */
        "D:\n  mov.u32 %r1, 4;\n"                                       /* 10  block 5 */
        "J:\n  add.u32 %r1, %r1, 1;\n  ret;\n}\n");                      /* 11  block 6 */
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_uint_eq(k->nblocks, 7);
    static const int32_t want[5] = {4, 2, 5, 3, 1};  /* C A D B, then the fall-through */
    expect_succ(k, 0, want, 5);
    ck_assert_int_eq(k->blocks[0].ipdom, 6);
    ck_assert_int_eq(k->instrs[1].reconv, 11);
    ptx_module_free(m);
}
END_TEST

START_TEST(five_targets_reconverge_on_the_emulator)
{
    enum { N = 32 };
    uint32_t *out = conf_dev_alloc(4 * N), *mask = conf_dev_alloc(4 * N);
    uint64_t params[2] = {conf_dev_addr(out), conf_dev_addr(mask)};
    conf_result r;
    if (conf_run_k("5-way brx.idx", FIVE_WAY, (emu_dim3){1, 1, 1}, (emu_dim3){N, 1, 1}, 0,
                   params, 2, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    static const uint32_t add[5] = {1, 10, 100, 1000, 10000};
    for (uint32_t t = 0; t < N; t++) {
        ck_assert_msg(out[t] == add[t % 5] + t, "lane %u: got %u, expected %u", t, out[t],
                      add[t % 5] + t);
        ck_assert_msg(mask[t] == 0xffffffffu, "lane %u: active mask at the join is 0x%08x, "
                      "expected the whole warp", t, mask[t]);
    }
    conf_dev_free(out);
    conf_dev_free(mask);
}
END_TEST

static Suite *brx_suite(void)
{
    Suite *s = suite_create("ptx_brx");
    TCase *tc = tcase_create("brx");
    tcase_add_test(tc, five_targets_cfg);
    tcase_add_test(tc, table_order_duplicates_and_guard);
    tcase_add_test(tc, five_targets_reconverge_on_the_emulator);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(brx_suite()); }
