/* test_ptx_reg_params.c: .func parameters and return values in the .reg state space (PTX ISA
 * "Function Declarations and Definitions", ".func"): the IR (a parameter symbol bound to a
 * register of the callee), the printer's round trip, what ptxsim rejects (sub-word scalars, .b128
 * and array .reg parameters, .reg parameters of an .entry), the call checks, and the emulator's
 * call ABI: recursion through .reg parameters, mixed .reg and .param parameters, 64-bit values,
 * immediates as arguments, an indirect call through a .callprototype. */
#include "tests/unit/ptx_kernels.h"
#include "tests/unit/conformance_harness.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUNCS                                                                                  \
    ".func (.reg .b32 r) fact(.reg .b32 n)\n"                                                  \
    "{\n"                                                                                      \
    "  .reg .pred %p;\n"                                                                       \
    "  .reg .b32 %t;\n"                                                                        \
    "  setp.le.u32 %p, n, 1;\n"                                                                \
    "  @%p bra BASE;\n"                                                                        \
    "  sub.u32 %t, n, 1;\n"                                                                    \
    "  call (%t), fact, (%t);\n"                                                               \
    "  mul.lo.u32 r, n, %t;\n"                                                                 \
    "  ret;\n"                                                                                 \
    "BASE:\n"                                                                                  \
    "  mov.u32 r, 1;\n"                                                                        \
    "  ret;\n"                                                                                 \
    "}\n"                                                                                      \
    ".func (.param .b64 rp) mix(.reg .b32 a, .param .b64 b, .reg .b64 c, .reg .f32 x)\n"      \
    "{\n"                                                                                      \
    "  .reg .b64 %d<4>;\n"                                                                     \
    "  ld.param.b64 %d1, [b];\n"                                                               \
    "  cvt.u64.u32 %d2, a;\n"                                                                  \
    "  add.s64 %d1, %d1, %d2;\n"                                                               \
    "  add.s64 %d1, %d1, c;\n"                                                                 \
    "  cvt.rzi.u64.f32 %d3, x;\n"                                                              \
    "  add.s64 %d1, %d1, %d3;\n"                                                               \
    "  st.param.b64 [rp], %d1;\n"                                                              \
    "  ret;\n"                                                                                 \
    "}\n"                                                                                      \
    ".func (.reg .b64 w) wide(.reg .b64 v)\n"                                                  \
    "{\n"                                                                                      \
    "  shl.b64 w, v, 33;\n"                                                                    \
    "  or.b64 w, w, 1;\n"                                                                      \
    "  ret;\n"                                                                                 \
    "}\n"

static const char *MODULE =
    CONF_PTX_HEADER FUNCS
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  .reg .f32 %f1;\n"
    "  wproto: .callprototype (.reg .b64 _) _ (.reg .b64 _);\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 13;\n"
    "  call (%r3), fact, (%r2);\n"            /* divergent recursion depths */
    "  mul.wide.u32 %rd2, %r1, 32;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  cvt.u64.u32 %rd4, %r3;\n"
    "  st.global.u64 [%rd3], %rd4;\n"
    "  {\n"
    "    .param .b64 pb;\n"
    "    .param .b64 prp;\n"
    "    cvt.u64.u32 %rd5, %r1;\n"
    "    shl.b64 %rd5, %rd5, 40;\n"
    "    st.param.b64 [pb], %rd5;\n"
    "    mov.u64 %rd6, 1000000007;\n"
    "    cvt.rn.f32.u32 %f1, %r1;\n"
    "    call (prp), mix, (%r1, pb, %rd6, %f1);\n"
    "    ld.param.b64 %rd7, [prp];\n"
    "  }\n"
    "  st.global.u64 [%rd3+8], %rd7;\n"
    "  cvt.u64.u32 %rd8, %r1;\n"
    "  add.s64 %rd8, %rd8, 2147483647;\n"
    "  mov.u64 %rd11, wide;\n"
    "  call (%rd9), %rd11, (%rd8), wproto;\n"  /* indirect, through a prototype */
    "  st.global.u64 [%rd3+16], %rd9;\n"
    "  call (%r4), fact, (5);\n"               /* an immediate argument */
    "  cvt.u64.u32 %rd10, %r4;\n"
    "  st.global.u64 [%rd3+24], %rd10;\n"
    "  ret;\n"
    "}\n";

static ptx_module *parse(const char *src, ptx_diag *d)
{
    return ptx_parse(src, strlen(src), "regparams.ptx", d);
}

static ptx_module *parse_ok(const char *src) { return pk_parse(src, "regparams.ptx"); }

START_TEST(reg_params_in_the_ir)
{
    ptx_module *m = parse_ok(MODULE);
    const ptx_function *f = ptx_find_function(m, "fact");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->nparams, 1);
    ck_assert_uint_eq(f->nrets, 1);
    ck_assert_uint_eq(f->param_size, 0);   /* nothing goes through the parameter block */
    const ptx_symbol *n = &m->syms[f->params[0]], *r = &m->syms[f->rets[0]];
    ck_assert_str_eq(n->name, "n");
    ck_assert_int_eq(n->kind, PTX_SYM_PARAM);
    ck_assert_int_eq(n->space, PTX_SPACE_REG);
    ck_assert_int_eq(n->type, PTX_TYPE_B32);
    ck_assert_int_ge(n->reg, 0);
    ck_assert_str_eq(f->regs[n->reg].name, "n");
    ck_assert_int_eq(f->regs[n->reg].scope, PTX_REG_SCOPE_PARAM);
    ck_assert_int_eq(f->regs[r->reg].type, PTX_TYPE_B32);
    /* `mul.lo.u32 r, n, %t` names both parameters as registers */
    const ptx_instr *mul = &f->instrs[4];
    ck_assert_int_eq(mul->op, PTX_OP_MUL);
    ck_assert_int_eq(mul->ops[0].kind, PTX_OPD_REG);
    ck_assert_int_eq(mul->ops[0].reg, r->reg);
    ck_assert_int_eq(mul->ops[1].reg, n->reg);

    /* mixed: only the .param ones take parameter-block space (b at 0, the return at 8) */
    const ptx_function *mx = ptx_find_function(m, "mix");
    ck_assert_uint_eq(mx->nparams, 4);
    ck_assert_int_eq(m->syms[mx->params[0]].space, PTX_SPACE_REG);
    ck_assert_int_eq(m->syms[mx->params[1]].space, PTX_SPACE_PARAM);
    ck_assert_int_eq(m->syms[mx->params[2]].type, PTX_TYPE_B64);
    ck_assert_int_eq(m->syms[mx->params[3]].type, PTX_TYPE_F32);
    ck_assert_uint_eq(m->syms[mx->params[1]].offset, 0);
    ck_assert_uint_eq(m->syms[mx->rets[0]].offset, 8);
    ck_assert_uint_eq(mx->param_size, 16);

    /* round trip: the parameters print in the head, not again among the body's .reg lines */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ptx_print(m, out);
    fclose(out);
    ck_assert_msg(strstr(buf, ".reg .b32 r\n) fact(\n\t.reg .b32 n\n)") != NULL, "%s", buf);
    ptx_module *m2 = parse_ok(buf);
    char why[512];
    ck_assert_msg(ptx_module_equal(m, m2, why, sizeof why), "round trip: %s", why);
    ptx_module_free(m2);
    free(buf);
    ptx_module_free(m);
}
END_TEST

START_TEST(prototype_then_definition)
{
    ptx_module *m = parse_ok(CONF_PTX_HEADER
        ".func (.reg .b64 r) twice(.reg .b64 v);\n"
        ".func (.reg .b64 r) twice(.reg .b64 v)\n{\n  add.s64 r, v, v;\n  ret;\n}\n"
        ".entry k()\n{\n  .reg .b64 %rd<2>;\n"
        "  proto: .callprototype (.reg .b64 _) _ (.reg .b64 _);\n"
        "  call (%rd1), twice, (%rd0);\n  ret;\n}\n");
    const ptx_function *f = ptx_find_function(m, "twice");
    ck_assert(!f->is_decl);
    ck_assert_int_ge(m->syms[f->params[0]].reg, 0);
    ck_assert_str_eq(f->regs[m->syms[f->params[0]].reg].name, "v");
    ptx_module_free(m);
}
END_TEST

static const struct bad_case {
    const char *src;
    const char *msg;
} bad[] = {
    {".func f(.reg .u16 h)\n{\n  ret;\n}\n", "must be at least 32 bits"},
    {".func f(.reg .b32 a[4])\n{\n  ret;\n}\n", "must be a single register"},
    {".func f(.reg .v2 .pred a)\n{\n  ret;\n}\n", "scalars and .v2/.v4 vectors"},
    {".func f(.reg .b128 a)\n{\n  ret;\n}\n", "pass .b128 through .param"},
    {".func f(.reg .v4 .b32 a)\n{\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .b32 %r;\n  call f, (%r);\n  ret;\n}\n",
     "argument 1: parameter 'a' of f is a .v4 .reg parameter: pass a .v4 register or a list of 4"},
    {".func f(.param .align 16 .b8 a[16])\n{\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .v4 .b32 %v;\n  call f, (%v);\n  ret;\n}\n",
     "argument 1: parameter 'a' of f is in .param space: pass a .param variable, not a vector"},
    {".func (.reg .pred p) f()\n{\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .b32 %r;\n  call (%r), f, ();\n  ret;\n}\n",
     "return value 1: register '%r' is .b32, but return parameter 'p' of f is .pred"},
    {".entry k(.reg .b32 a)\n{\n  ret;\n}\n", ".entry parameters must be in the .param"},
    {".func f(.reg .b32 a, .reg .b32 a)\n{\n  ret;\n}\n", "redeclaration of parameter 'a'"},
    {".func (.reg .b32 r) f(.reg .b32 a)\n{\n  mov.b32 r, a;\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .b64 %rd;\n  .reg .b32 %r;\n  call (%r), f, (%rd);\n  ret;\n}\n",
     "argument 1: register '%rd' is .b64, but parameter 'a' of f is .b32"},
    {".func (.reg .b32 r) f(.reg .b32 a)\n{\n  mov.b32 r, a;\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .b64 %d;\n  .reg .b32 %r;\n  call (%d), f, (%r);\n  ret;\n}\n",
     "return value 1: register '%d' is .b64, but return parameter 'r' of f is .b32"},
    {".func (.reg .b32 r) f(.reg .b32 a)\n{\n  mov.b32 r, a;\n  ret;\n}\n"
     ".entry k()\n{\n  .reg .b32 %r;\n  call (%r), f, (%r, %r);\n  ret;\n}\n",
     "f takes 1 argument, the call passes 2"},
};

START_TEST(rejected_forms)
{
    const struct bad_case *c = &bad[_i];
    char src[2048];
    snprintf(src, sizeof src, "%s%s", CONF_PTX_HEADER, c->src);
    ptx_diag d = {0};
    ptx_module *m = parse(src, &d);
    ck_assert_msg(m == NULL, "accepted:\n%s", c->src);
    ck_assert_msg(d.text && strstr(d.text, c->msg), "expected '%s' in:\n%s", c->msg,
                  d.text ? d.text : "(no message)");
    ck_assert_msg(strstr(d.text, "regparams.ptx:") != NULL, "no file:line in: %s", d.text);
    ptx_diag_free(&d);
}
END_TEST

START_TEST(call_abi_on_the_emulator)
{
    enum { N = 40 };   /* two warps; the second one partial */
    uint64_t *out = conf_dev_alloc(32 * N);
    uint64_t params[1] = {conf_dev_addr(out)};
    conf_result r;
    if (conf_run_k(".reg parameters", MODULE, (emu_dim3){1, 1, 1}, (emu_dim3){N, 1, 1}, 0,
                   params, 1, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    for (uint64_t t = 0; t < N; t++) {
        uint64_t f = 1;
        for (uint64_t i = 2; i <= t % 13; i++)
            f *= i;
        const uint64_t *o = &out[4 * t];
        ck_assert_msg(o[0] == f, "lane %lu: fact(%lu) = %lu, expected %lu", (unsigned long)t,
                      (unsigned long)(t % 13), (unsigned long)o[0], (unsigned long)f);
        uint64_t mix = (t << 40) + t + 1000000007u + t;
        ck_assert_msg(o[1] == mix, "lane %lu: mix = %lu, expected %lu", (unsigned long)t,
                      (unsigned long)o[1], (unsigned long)mix);
        uint64_t wide = ((t + 2147483647u) << 33) | 1;
        ck_assert_msg(o[2] == wide, "lane %lu: wide = 0x%lx, expected 0x%lx", (unsigned long)t,
                      (unsigned long)o[2], (unsigned long)wide);
        ck_assert_msg(o[3] == 120, "lane %lu: fact(5) = %lu", (unsigned long)t,
                      (unsigned long)o[3]);
    }
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_reg_params");
    TCase *tc = tcase_create("reg_params");
    tcase_add_test(tc, reg_params_in_the_ir);
    tcase_add_test(tc, prototype_then_definition);
    tcase_add_loop_test(tc, rejected_forms, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, call_abi_on_the_emulator);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
