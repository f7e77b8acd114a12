/* test_lexer.c: the PTX scanner's tokens, values and positions. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx_parser.h"
#include "ptx_grammar.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define MAXTOK 64

typedef struct toks {
    ptx_token t[MAXTOK];
    char text[MAXTOK][96];
    int n;
} toks;

static void collect(void *ctx, const ptx_token *t)
{
    toks *ts = ctx;
    if (ts->n >= MAXTOK)
        return;
    ts->t[ts->n] = *t;
    size_t len = t->len < 95 ? t->len : 95;
    if (t->text)
        memcpy(ts->text[ts->n], t->text, len);
    ts->text[ts->n][t->text ? len : 0] = 0;
    ts->n++;
}

static int lex(const char *src, toks *ts, ptx_diag *d)
{
    memset(ts, 0, sizeof *ts);
    return ptx_lex_tokens(src, strlen(src), "t.ptx", d, collect, ts);
}

START_TEST(mnemonic_is_one_token)
{
    toks ts;
    ck_assert_int_eq(lex("ld.global.nc.v4.f32 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "cp.async.ca.shared::cta.global.L2::128B", &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(ts.t[i].kind, WORD);
    ck_assert_str_eq(ts.text[0], "ld.global.nc.v4.f32");
    ck_assert_str_eq(ts.text[1], "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    ck_assert_str_eq(ts.text[2], "cp.async.ca.shared::cta.global.L2::128B");
}
END_TEST

START_TEST(registers_labels_and_sinks)
{
    toks ts;
    ck_assert_int_eq(lex("%r12 %tid.x %envreg3 $L__BB0_1 _ temp_param_reg $str$1", &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 7);
    ck_assert_int_eq(ts.t[0].kind, REGNAME);
    ck_assert_str_eq(ts.text[0], "%r12");
    ck_assert_int_eq(ts.t[1].kind, REGNAME);
    ck_assert_str_eq(ts.text[1], "%tid.x");
    ck_assert_int_eq(ts.t[2].kind, REGNAME);
    ck_assert_int_eq(ts.t[3].kind, WORD);
    ck_assert_str_eq(ts.text[3], "$L__BB0_1");
    ck_assert_int_eq(ts.t[4].kind, SINK);
    ck_assert_int_eq(ts.t[5].kind, WORD);
    ck_assert_int_eq(ts.t[6].kind, WORD);
    ck_assert_str_eq(ts.text[6], "$str$1");
}
END_TEST

START_TEST(directives_carry_codes)
{
    toks ts;
    ck_assert_int_eq(lex(".reg .b32 .v4 .visible .entry .shared .pred .f16x2 .maxntid .align",
                         &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 10);
    ck_assert_int_eq(ts.t[0].kind, SPACE);
    ck_assert_int_eq(ts.t[0].ival, PTX_SPACE_REG);
    ck_assert_int_eq(ts.t[1].kind, TYPE);
    ck_assert_int_eq(ts.t[1].ival, PTX_TYPE_B32);
    ck_assert_int_eq(ts.t[2].kind, VECSPEC);
    ck_assert_int_eq(ts.t[2].ival, 4);
    ck_assert_int_eq(ts.t[3].kind, LINKAGE);
    ck_assert_int_eq(ts.t[3].ival, PTX_LINK_VISIBLE);
    ck_assert_int_eq(ts.t[4].kind, D_ENTRY);
    ck_assert_int_eq(ts.t[5].kind, SPACE);
    ck_assert_int_eq(ts.t[5].ival, PTX_SPACE_SHARED);
    ck_assert_int_eq(ts.t[6].ival, PTX_TYPE_PRED);
    ck_assert_int_eq(ts.t[7].ival, PTX_TYPE_F16X2);
    ck_assert_int_eq(ts.t[8].kind, D_PERF);
    ck_assert_int_eq(ts.t[9].kind, D_ALIGN);
}
END_TEST

START_TEST(number_literals)
{
    toks ts;
    ck_assert_int_eq(lex("0f3F800000 0d3FF0000000000000 0x1F 017 0b101 42U 1.5 0 "
                         "18446744073709551615 2.5e-3", &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 10);
    ck_assert_int_eq(ts.t[0].kind, F32LIT);
    ck_assert_uint_eq(ts.t[0].u, 0x3F800000u);
    ck_assert_int_eq(ts.t[1].kind, F64LIT);
    ck_assert_uint_eq(ts.t[1].u, UINT64_C(0x3FF0000000000000));
    ck_assert_int_eq(ts.t[2].kind, INTLIT);
    ck_assert_uint_eq(ts.t[2].u, 31);
    ck_assert_uint_eq(ts.t[3].u, 15);          /* octal */
    ck_assert_uint_eq(ts.t[4].u, 5);           /* binary */
    ck_assert_uint_eq(ts.t[5].u, 42);
    ck_assert(ts.t[5].is_unsigned);
    ck_assert(!ts.t[4].is_unsigned);
    ck_assert_int_eq(ts.t[6].kind, DECFLOAT);
    ck_assert_int_eq(ts.t[7].kind, INTLIT);
    ck_assert_uint_eq(ts.t[7].u, 0);
    ck_assert_uint_eq(ts.t[8].u, UINT64_MAX);
    ck_assert_int_eq(ts.t[9].kind, DECFLOAT);
}
END_TEST

START_TEST(bad_numbers_are_errors)
{
    toks ts;
    ptx_diag d = {0};
    ck_assert_int_eq(lex("mov.u64 %rd1, 18446744073709551616;", &ts, &d), 1);
    ck_assert_ptr_nonnull(d.text);
    ck_assert_ptr_nonnull(strstr(d.text, "t.ptx:1:15: error: integer literal"));
    ptx_diag_free(&d);
    ck_assert_int_eq(lex("  089", &ts, &d), 1);
    ck_assert_ptr_nonnull(strstr(d.text, "t.ptx:1:3: error: invalid digit"));
    ptx_diag_free(&d);
}
END_TEST

START_TEST(positions_across_comments)
{
    toks ts;
    const char *src = "// header\n"
                      "  add.s32 /* a\n"
                      " multi-line comment */ %r1,\n"
                      "\t%r2;\n";
    ck_assert_int_eq(lex(src, &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 5);
    ck_assert_uint_eq(ts.t[0].line, 2);
    ck_assert_uint_eq(ts.t[0].col, 3);
    ck_assert_uint_eq(ts.t[1].line, 3);   /* %r1 after the comment */
    ck_assert_uint_eq(ts.t[1].col, 24);
    ck_assert_int_eq(ts.t[2].kind, ',');
    ck_assert_uint_eq(ts.t[3].line, 4);
    ck_assert_uint_eq(ts.t[3].col, 2);
    ck_assert_int_eq(ts.t[4].kind, ';');
}
END_TEST

START_TEST(loc_file_and_sections_are_consumed)
{
    toks ts;
    const char *src = ".file 1 \"a.cu\", 1700000000, 1234\n"
                      ".loc 1 17 5, function_name $L__info_string0, inlined_at 1 20 3\n"
                      "ret;\n"
                      ".section .debug_info\n{\n.b8 1, 2\n.b64 $L__func_begin0\n"
                      ".b8 118,111,105,100 // {not a brace}\n}\n"
                      "exit;\n";
    ck_assert_int_eq(lex(src, &ts, NULL), 0);
    ck_assert_int_eq(ts.n, 4);
    ck_assert_str_eq(ts.text[0], "ret");
    ck_assert_uint_eq(ts.t[0].line, 3);
    ck_assert_str_eq(ts.text[2], "exit");
    ck_assert_uint_eq(ts.t[2].line, 10);
}
END_TEST

START_TEST(strings_and_punctuation)
{
    toks ts;
    ck_assert_int_eq(lex(".pragma \"nounroll\"; @!%p1 bra L; {%r1|%p2} [x+-4] <8> =", &ts, NULL),
                     0);
    int kinds[] = {D_PRAGMA, STRING, ';', '@', '!', REGNAME, WORD, WORD, ';', '{', REGNAME, '|',
                   REGNAME, '}', '[', WORD, '+', '-', INTLIT, ']', '<', INTLIT, '>', '='};
    ck_assert_int_eq(ts.n, (int)(sizeof kinds / sizeof kinds[0]));
    for (int i = 0; i < ts.n; i++)
        ck_assert_int_eq(ts.t[i].kind, kinds[i]);
    ck_assert_str_eq(ts.text[1], "\"nounroll\"");
}
END_TEST

START_TEST(unknown_directive_and_character)
{
    toks ts;
    ptx_diag d = {0};
    ck_assert_int_eq(lex("\n   .bogus 1\n  # x", &ts, &d), 2);
    ck_assert_ptr_nonnull(strstr(d.text, "t.ptx:2:4: error: unknown directive '.bogus'"));
    ck_assert_ptr_nonnull(strstr(d.text, "t.ptx:3:3: error: unexpected character '#'"));
    ptx_diag_free(&d);
}
END_TEST

START_TEST(unterminated_section)
{
    toks ts;
    ptx_diag d = {0};
    ck_assert_int_eq(lex("ret;\n.section .debug_str\n{\n.b8 1\n", &ts, &d), 1);
    ck_assert_ptr_nonnull(strstr(d.text, "unterminated .section block"));
    ck_assert_int_eq(ts.t[0].kind, WORD);
    ptx_diag_free(&d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, mnemonic_is_one_token);
    tcase_add_test(tc, registers_labels_and_sinks);
    tcase_add_test(tc, directives_carry_codes);
    tcase_add_test(tc, number_literals);
    tcase_add_test(tc, bad_numbers_are_errors);
    tcase_add_test(tc, positions_across_comments);
    tcase_add_test(tc, loc_file_and_sections_are_consumed);
    tcase_add_test(tc, strings_and_punctuation);
    tcase_add_test(tc, unknown_directive_and_character);
    tcase_add_test(tc, unterminated_section);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
