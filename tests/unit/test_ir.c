/* test_ir.c: basic blocks, successors, immediate post-dominators and reconvergence points of
 * known control-flow shapes; the printer's round trip; structural comparison; the dump. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"
#define REGS ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"

static ptx_module *parse_ok(const char *src)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(src, strlen(src), "cfg.ptx", &d);
    ck_assert_msg(m != NULL, "parse failed:\n%s", d.text ? d.text : "");
    ptx_diag_free(&d);
    return m;
}

static const ptx_function *kernel(const ptx_module *m)
{
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_ptr_nonnull(k);
    return k;
}

static void expect_block(const ptx_function *f, uint32_t b, uint32_t first, uint32_t end,
                         int32_t s0, int32_t s1, int32_t ipdom)
{
    ck_assert_uint_lt(b, f->nblocks);
    const ptx_block *bl = &f->blocks[b];
    ck_assert_msg(bl->first == first && bl->end == end, "block %u is [%u,%u), expected [%u,%u)",
                  b, bl->first, bl->end, first, end);
    uint32_t want = (s0 >= 0) + (s1 >= 0);
    int32_t got0 = bl->nsucc > 0 ? bl->succ[0] : -1, got1 = bl->nsucc > 1 ? bl->succ[1] : -1;
    ck_assert_msg(bl->nsucc == want && got0 == s0 && got1 == s1,
                  "block %u successors (%u) %d %d, expected %d %d", b, bl->nsucc, got0, got1, s0,
                  s1);
    ck_assert_msg(bl->ipdom == ipdom, "block %u ipdom %d, expected %d", b, bl->ipdom, ipdom);
}

START_TEST(if_else_diamond)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "setp.lt.s32 %p1, %r0, 0;\n"   /* 0 */
        "@%p1 bra ELSE;\n"             /* 1 */
        "mov.u32 %r1, 1;\n"            /* 2 */
        "bra.uni JOIN;\n"              /* 3 */
        "ELSE:\n"
        "mov.u32 %r1, 2;\n"            /* 4 */
        "JOIN:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 5 */
        "ret;\n}\n");                  /* 6 */
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->nblocks, 4);
    expect_block(k, 0, 0, 2, 2, 1, 3);   /* taken successor first, then the fall-through */
    expect_block(k, 1, 2, 4, 3, -1, 3);
    expect_block(k, 2, 4, 5, 3, -1, 3);
    expect_block(k, 3, 5, 7, -1, -1, -1);
    ck_assert_int_eq(k->instrs[1].target, 4);
    ck_assert_int_eq(k->instrs[1].reconv, 5);
    ck_assert_int_eq(k->instrs[3].reconv, 5);
    ck_assert_int_eq(k->instrs[0].reconv, -1);   /* not a branch */
    ck_assert_int_eq(k->instrs[4].block, 2);
    ptx_module_free(m);
}
END_TEST

START_TEST(data_dependent_loop)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "mov.u32 %r1, 0;\n"            /* 0 */
        "LOOP:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 1 */
        "setp.lt.s32 %p1, %r1, %r0;\n" /* 2 */
        "@%p1 bra LOOP;\n"             /* 3 */
        "ret;\n}\n");                  /* 4 */
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 1, -1, 1);
    expect_block(k, 1, 1, 4, 1, 2, 2);
    expect_block(k, 2, 4, 5, -1, -1, -1);
    ck_assert_int_eq(k->instrs[3].reconv, 4);   /* threads leaving early wait at the exit */
    ptx_module_free(m);
}
END_TEST

START_TEST(nested_divergence)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "setp.lt.s32 %p1, %r0, 0;\n"   /* 0 */
        "@%p1 bra OUTER_ELSE;\n"       /* 1 */
        "setp.lt.s32 %p2, %r0, 5;\n"   /* 2 */
        "@%p2 bra INNER_ELSE;\n"       /* 3 */
        "mov.u32 %r1, 1;\n"            /* 4 */
        "bra.uni INNER_JOIN;\n"        /* 5 */
        "INNER_ELSE:\n"
        "mov.u32 %r1, 2;\n"            /* 6 */
        "INNER_JOIN:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 7 */
        "bra.uni JOIN;\n"              /* 8 */
        "OUTER_ELSE:\n"
        "mov.u32 %r1, 3;\n"            /* 9 */
        "JOIN:\n"
        "ret;\n}\n");                  /* 10 */
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->nblocks, 7);
    ck_assert_int_eq(k->instrs[1].reconv, 10);
    ck_assert_int_eq(k->instrs[3].reconv, 7);
    ck_assert_int_eq(k->instrs[5].reconv, 7);
    ck_assert_int_eq(k->instrs[8].reconv, 10);
    /* the inner join block is post-dominated by the outer join */
    ck_assert_int_eq(k->blocks[k->instrs[7].block].ipdom, k->instrs[10].block);
    ck_assert_int_eq(k->blocks[k->instrs[1].block].ipdom, k->instrs[10].block);
    ptx_module_free(m);
}
END_TEST

START_TEST(early_return)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "setp.lt.s32 %p1, %r0, 0;\n"   /* 0 */
        "@%p1 bra EARLY;\n"            /* 1 */
        "add.s32 %r1, %r0, 1;\n"       /* 2 */
        "setp.lt.s32 %p2, %r1, 9;\n"   /* 3 */
        "@%p2 bra SKIP;\n"             /* 4 */
        "st.global.u32 [%rd0], %r1;\n" /* 5 */
        "SKIP:\n"
        "ret;\n"                       /* 6 */
        "EARLY:\n"
        "ret;\n}\n");                  /* 7 */
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->ninstrs, 8);
    /* the two paths only meet at the exit */
    ck_assert_int_eq(k->blocks[0].ipdom, -1);
    ck_assert_int_eq(k->instrs[1].reconv, 8);
    ck_assert_int_eq(k->instrs[4].reconv, 6);
    expect_block(k, 0, 0, 2, 4, 1, -1);
    expect_block(k, 3, 6, 7, -1, -1, -1);
    expect_block(k, 4, 7, 8, -1, -1, -1);
    ptx_module_free(m);
}
END_TEST

START_TEST(guarded_exit_and_fallthrough_to_end)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "@%p1 exit;\n"                 /* 0: some threads leave */
        "add.s32 %r1, %r0, 1;\n"       /* 1 */
        "@%p2 bra END;\n"              /* 2: a label at the very end */
        "add.s32 %r1, %r1, 1;\n"       /* 3 */
        "END:\n}\n");
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 1, -1, 1);   /* guarded exit falls through */
    expect_block(k, 1, 1, 3, 2, -1, -1);  /* the branch to the end goes to the exit */
    expect_block(k, 2, 3, 4, -1, -1, -1);
    ck_assert_int_eq(k->instrs[2].target, 4);
    ck_assert_int_eq(k->instrs[2].reconv, 4);
    ptx_module_free(m);
}
END_TEST

START_TEST(infinite_loop_still_reconverges)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "mov.u32 %r1, 0;\n"            /* 0 */
        "LOOP:\n"
        "@%p1 bra SKIP;\n"             /* 1 */
        "add.s32 %r1, %r1, 1;\n"       /* 2 */
        "SKIP:\n"
        "bra.uni LOOP;\n}\n");         /* 3 */
    const ptx_function *k = kernel(m);
    ck_assert_uint_eq(k->nblocks, 4);
    ck_assert_int_eq(k->instrs[1].reconv, 3);   /* the divergent if rejoins before the back edge */
    ptx_module_free(m);
}
END_TEST

START_TEST(brx_idx_switch)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
        "ts: .branchtargets A, B, C;\n"
        "brx.idx %r0, ts;\n"           /* 0 */
        "A:\nmov.u32 %r1, 1;\nbra.uni J;\n"   /* 1, 2 */
        "B:\nmov.u32 %r1, 2;\nbra.uni J;\n"   /* 3, 4 */
        "C:\nmov.u32 %r1, 3;\n"               /* 5 */
        "J:\nret;\n}\n");                     /* 6 */
    const ptx_function *k = kernel(m);
    ck_assert_int_eq(k->instrs[0].ops[1].nelem, 3);
    ck_assert_int_eq(k->instrs[0].reconv, 6);
    ck_assert_uint_eq(k->nblocks, 5);
    ptx_module_free(m);
}
END_TEST

START_TEST(real_kernel_reconvergence)
{
    /* reduce.sm80.ptx: `if (i < n) s = in[i];` is the first divergent branch; its reconvergence
     * point is the label right after the load. */
    FILE *f = fopen("tests/ptx/frontend/reduce.sm80.ptx", "rb");
    ck_assert_ptr_nonnull(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ptx_module *m = ptx_parse(buf, n, "reduce", NULL);
    ck_assert_ptr_nonnull(m);
    const ptx_function *k = ptx_find_function(m, "_Z6reducePKfPfi");
    const ptx_instr *br = NULL;
    for (uint32_t i = 0; i < k->ninstrs && !br; i++)
        if (k->instrs[i].op == PTX_OP_BRA && k->instrs[i].guard >= 0)
            br = &k->instrs[i];
    ck_assert_ptr_nonnull(br);
    ck_assert_int_eq(br->reconv, br->target);        /* an if without else */
    ck_assert_int_eq(k->instrs[br->target].op, PTX_OP_ADD);
    ptx_module_free(m);
}
END_TEST

/* ---------------------------------------------------------------- printing */

static char *print_to_string(const ptx_module *m, size_t *len)
{
    char *buf = NULL;
    FILE *o = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(o);
    ptx_print(m, o);
    fclose(o);
    return buf;
}

START_TEST(round_trip_all_samples)
{
    DIR *dir = opendir("tests/ptx/frontend");
    ck_assert_msg(dir != NULL, "run the tests from the repository root");
    int files = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t nl = strlen(e->d_name);
        if (nl < 5 || strcmp(e->d_name + nl - 4, ".ptx") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/ptx/frontend/%s", e->d_name);
        size_t len;
        char *text = pk_read_file(path, &len);
        ck_assert_ptr_nonnull(text);
        ptx_diag d = {0};
        ptx_module *a = ptx_parse(text, len, path, &d);
        ck_assert_msg(a != NULL, "%s:\n%s", path, d.text ? d.text : "");
        size_t plen;
        char *printed = print_to_string(a, &plen);
        ptx_diag d2 = {0};
        ptx_module *b = ptx_parse(printed, plen, "printed", &d2);
        ck_assert_msg(b != NULL, "%s: printed text does not parse:\n%s", path,
                      d2.text ? d2.text : "");
        char why[512];
        ck_assert_msg(ptx_module_equal(a, b, why, sizeof why), "%s: %s", path, why);
        /* printing is a fixed point after one round */
        size_t plen2;
        char *printed2 = print_to_string(b, &plen2);
        ck_assert_uint_eq(plen, plen2);
        ck_assert_int_eq(memcmp(printed, printed2, plen), 0);
        ptx_module_free(a);
        ptx_module_free(b);
        ptx_diag_free(&d);
        ptx_diag_free(&d2);
        free(text);
        free(printed);
        free(printed2);
        files++;
    }
    closedir(dir);
    ck_assert_int_ge(files, 10);
}
END_TEST

START_TEST(equality_finds_differences)
{
    const char *base = HEADER ".entry k(.param .u32 n)\n{\n" REGS
                       "ld.param.u32 %r1, [n];\nadd.s32 %r1, %r1, 1;\nret;\n}\n";
    const char *other = HEADER ".entry k(.param .u32 n)\n{\n" REGS
                        "ld.param.u32 %r1, [n];\nadd.s32 %r1, %r1, 2;\nret;\n}\n";
    const char *moved = HEADER "\n\n.entry k(.param .u32 n)\n{\n" REGS
                        "ld.param.u32 %r1, [n];   // a comment\n\n add.s32 %r1, %r1, 1;\nret;\n}\n";
    ptx_module *a = parse_ok(base), *b = parse_ok(other), *c = parse_ok(moved);
    char why[256];
    ck_assert(!ptx_module_equal(a, b, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "instruction 1"));
    ck_assert(ptx_module_equal(a, c, why, sizeof why));   /* positions do not count */
    ck_assert(ptx_module_equal(a, a, NULL, 0));
    ptx_module_free(a);
    ptx_module_free(b);
    ptx_module_free(c);
}
END_TEST

START_TEST(print_is_valid_ptx_text)
{
    ptx_module *m = parse_ok(HEADER ".global .align 4 .f32 t[2] = {1.0, 0f40000000};\n"
                             ".entry k()\n{\n" REGS
                             "@!%p1 bra L;\nld.global.f32 %r1, [t+4];\nL:\nret;\n}\n");
    size_t len;
    char *text = print_to_string(m, &len);
    ck_assert_ptr_nonnull(strstr(text, ".version 9.0\n.target sm_80\n.address_size 64\n"));
    ck_assert_ptr_nonnull(strstr(text, ".global .f32 t[2] = {0f3F800000, 0f40000000};"));
    ck_assert_ptr_nonnull(strstr(text, ".reg .pred %p<4>;"));
    ck_assert_ptr_nonnull(strstr(text, "@!%p1 bra $L__2;"));
    ck_assert_ptr_nonnull(strstr(text, "ld.global.f32 %r1, [t+4];"));
    ck_assert_ptr_nonnull(strstr(text, "$L__2:\n\tret;"));
    free(text);
    ptx_module_free(m);
}
END_TEST

START_TEST(dump_lists_blocks)
{
    ptx_module *m = parse_ok(HEADER ".entry k()\n{\n" REGS
                             "@%p1 bra L;\nadd.s32 %r1, %r1, 1;\nL:\nret;\n}\n");
    char *buf = NULL;
    size_t len;
    FILE *o = open_memstream(&buf, &len);
    ptx_dump(m, o);
    fclose(o);
    ck_assert_ptr_nonnull(strstr(buf, "function #0 k: entry"));
    ck_assert_ptr_nonnull(strstr(buf, "block 0 [0, 1) succ 2 1, ipdom 2"));
    ck_assert_ptr_nonnull(strstr(buf, "block 2 [2, 3) succ exit, ipdom exit"));
    ck_assert_ptr_nonnull(strstr(buf, "reconverge at 2"));
    free(buf);
    ptx_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ir");
    TCase *tc = tcase_create("cfg");
    tcase_add_test(tc, if_else_diamond);
    tcase_add_test(tc, data_dependent_loop);
    tcase_add_test(tc, nested_divergence);
    tcase_add_test(tc, early_return);
    tcase_add_test(tc, guarded_exit_and_fallthrough_to_end);
    tcase_add_test(tc, infinite_loop_still_reconverges);
    tcase_add_test(tc, brx_idx_switch);
    tcase_add_test(tc, real_kernel_reconvergence);
    suite_add_tcase(s, tc);
    tc = tcase_create("print");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_trip_all_samples);
    tcase_add_test(tc, equality_finds_differences);
    tcase_add_test(tc, print_is_valid_ptx_text);
    tcase_add_test(tc, dump_lists_blocks);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
