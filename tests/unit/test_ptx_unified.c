/* test_ptx_unified.c: the .unified attribute (PTX ISA "Variable and Function Attribute
 * Directive: .attribute"): `.func .attribute(.unified(uuid1, uuid2)) f`, `.global
 * .attribute(.unified(uuid1, uuid2)) .T v` and the `[v].unified` address qualifier of ld. The
 * IR keeps the flag and both 64-bit halves of the identifier, the printer writes them back, the
 * misuses the ISA names are rejected, and a unified variable loads on the emulator. */
#include "tests/unit/ptx_kernels.h"
#include "tests/unit/conformance_harness.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *MODULE =
    CONF_PTX_HEADER
    ".global .attribute(.unified(19, 95)) .u32 uv[2] = {42, 43};\n"
    ".global .attribute(.managed) .u32 mv;\n"
    ".extern .func .attribute(.unified(1, 2)) (.param .b32 r) ext(.param .b32 a);\n"
    ".func .attribute(.unified(0xAB, 0xFFFFFFFFFFFFFFFF)) (.reg .b32 r) bar()\n"
    "{\n  mov.u32 r, 7;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 pout)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  ld.global.u32 %r1, [uv].unified;\n"
    "  ld.global.u32 %r2, [uv+4].unified;\n"
    "  call (%r3), bar;\n"
    "  add.u32 %r1, %r1, %r2;\n"
    "  add.u32 %r1, %r1, %r3;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

static ptx_module *parse(const char *src, ptx_diag *d)
{
    return ptx_parse(src, strlen(src), "unified.ptx", d);
}

static ptx_module *parse_ok(const char *src) { return pk_parse(src, "unified.ptx"); }

static char *print_text(const ptx_module *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ptx_print(m, f);
    fclose(f);
    return buf;
}

START_TEST(kept_in_the_ir)
{
    ptx_module *m = parse_ok(MODULE);
    const ptx_symbol *uv = &m->syms[ptx_find_symbol(m, -1, "uv")];
    ck_assert(uv->unified);
    ck_assert(!uv->managed);
    ck_assert_uint_eq(uv->uuid[0], 19);
    ck_assert_uint_eq(uv->uuid[1], 95);
    const ptx_symbol *mv = &m->syms[ptx_find_symbol(m, -1, "mv")];
    ck_assert(mv->managed && !mv->unified);
    const ptx_function *bar = ptx_find_function(m, "bar");
    ck_assert(m->syms[bar->sym].unified);
    ck_assert_uint_eq(m->syms[bar->sym].uuid[0], 0xAB);
    ck_assert_uint_eq(m->syms[bar->sym].uuid[1], UINT64_MAX);
    const ptx_function *ext = ptx_find_function(m, "ext");
    ck_assert(ext->is_decl);
    ck_assert(m->syms[ext->sym].unified);
    ck_assert_uint_eq(m->syms[ext->sym].uuid[1], 2);
    const ptx_function *k = ptx_find_function(m, "k");
    const ptx_operand *a1 = &k->instrs[1].ops[1], *a2 = &k->instrs[2].ops[1];
    ck_assert_int_eq(a1->kind, PTX_OPD_ADDR);
    ck_assert_int_eq(a1->comp, 1);
    ck_assert_int_eq(a2->comp, 1);
    ck_assert_int_eq(a2->imm, 4);
    ck_assert_int_eq(k->instrs[0].ops[1].comp, 0);   /* [pout] has no qualifier */
    ptx_module_free(m);
}
END_TEST

START_TEST(printed_back)
{
    ptx_module *m = parse_ok(MODULE);
    char *text = print_text(m);
    ck_assert_msg(strstr(text, ".global .attribute(.unified(0x13, 0x5F)) .u32 uv[2]"), "%s",
                  text);
    ck_assert_msg(strstr(text, ".func .attribute(.unified(0xAB, 0xFFFFFFFFFFFFFFFF)) ("), "%s",
                  text);
    ck_assert_msg(strstr(text, "[uv+4].unified"), "%s", text);
    ptx_module *m2 = parse_ok(text);
    char why[512];
    ck_assert_msg(ptx_module_equal(m, m2, why, sizeof why), "round trip: %s", why);
    ptx_module_free(m2);
    free(text);

    /* the comparison sees a different identifier */
    char *other = strdup(MODULE);
    char *p = strstr(other, "unified(19, 95)");
    memcpy(p, "unified(19, 96)", 15);
    m2 = parse_ok(other);
    ck_assert(!ptx_module_equal(m, m2, why, sizeof why));
    ck_assert_msg(strstr(why, "uv") != NULL, "%s", why);
    ptx_module_free(m2);
    free(other);
    ptx_module_free(m);
}
END_TEST

static const struct bad_case {
    const char *target;
    const char *src;
    const char *msg;
    const char *where;   /* file:line: of the message */
} bad[] = {
    {"sm_90", ".shared .attribute(.unified(1, 2)) .u32 s;\n", "applies only to .global", "unified.ptx:4:"},
    {"sm_90", ".global .attribute(.unified(1)) .u32 g;\n", ".unified needs two integers", "unified.ptx:4:"},
    {"sm_90", ".global .attribute(.unified) .u32 g;\n", ".unified needs two integers", "unified.ptx:4:"},
    {"sm_90", ".global .attribute(.managed(3)) .u32 g;\n", ".managed takes no values", "unified.ptx:4:"},
    {"sm_90", ".func .attribute(.managed) f()\n{\n  ret;\n}\n",
     ".managed applies only to .global variables, not functions", "unified.ptx:4:"},
    {"sm_80", ".global .attribute(.unified(1, 2)) .u32 g;\n", ".unified requires sm_90", "unified.ptx:4:"},
    {"sm_90", ".global .u32 g;\n.entry k()\n{\n  .reg .b32 %r;\n"
              "  ld.global.u32 %r, [g].managed;\n  ret;\n}\n",
     "unknown address qualifier '.managed'", "unified.ptx:8:24:"},
};

START_TEST(rejected_forms)
{
    const struct bad_case *c = &bad[_i];
    char src[1024];
    snprintf(src, sizeof src, ".version 9.0\n.target %s\n.address_size 64\n%s", c->target,
             c->src);
    ptx_diag d = {0};
    ptx_module *m = parse(src, &d);
    ck_assert_msg(m == NULL, "accepted:\n%s", src);
    ck_assert_msg(d.text && strstr(d.text, c->msg), "expected '%s' in:\n%s", c->msg,
                  d.text ? d.text : "(no message)");
    ck_assert_msg(strstr(d.text, c->where) != NULL, "no %s in: %s", c->where, d.text);
    ptx_diag_free(&d);
}
END_TEST

START_TEST(unified_variable_loads_on_the_emulator)
{
    uint32_t *out = conf_dev_alloc(4);
    uint64_t params[1] = {conf_dev_addr(out)};
    conf_result r;
    if (conf_run_k(".unified", MODULE, (emu_dim3){1, 1, 1}, (emu_dim3){1, 1, 1}, 0, params, 1,
                   &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    ck_assert_uint_eq(out[0], 42 + 43 + 7);
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_unified");
    TCase *tc = tcase_create("unified");
    tcase_add_test(tc, kept_in_the_ir);
    tcase_add_test(tc, printed_back);
    tcase_add_loop_test(tc, rejected_forms, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, unified_variable_loads_on_the_emulator);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
