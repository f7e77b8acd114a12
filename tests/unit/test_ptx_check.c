/* test_ptx_check.c: the operand checks of the instruction families with irregular shapes (the
 * tensor-core, texture/surface and asynchronous-copy instructions) and of constants (PTX ISA
 * "Constants", "Operand Type Information"). Each case has a valid form, which must be
 * accepted, and a broken one, which must be rejected with the expected message, at the right
 * file:line:col, naming the function. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGS                                                                                   \
    "  .reg .pred %p<4>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<20>;\n"    \
    "  .reg .f32 %f<40>;\n  .reg .f64 %fd<20>;\n"                                             \
    "  .shared .align 16 .b8 sm[4096]; .reg .v4 .u32 %v;\n"

typedef struct check_case {
    const char *name;
    const char *good;   /* one or more instructions, valid */
    const char *bad;    /* the same with one mistake */
    const char *msg;    /* expected in the error */
} check_case;

static const check_case cases[] = {
    /* constants */
    {"float constant to an integer add", "add.s32 %r1, %r2, 1;", "add.s32 %r1, %r2, 1.5;",
     "operand 3: a floating-point constant cannot be a .s32 operand"},
    {"hex float constant to an unsigned mul", "mul.lo.u32 %r1, %r2, 0x3F800000;",
     "mul.lo.u32 %r1, %r2, 0f3F800000;", "operand 3: a floating-point constant cannot be a .u32"},
    {"integer constant to an f32 add", "add.f32 %f1, %f2, 0f3F800000;",
     "add.f32 %f1, %f2, 1;", "the integer constant 1 cannot be a .f32 operand"},
    {"integer constant to an f64 fma", "fma.rn.f64 %fd1, %fd2, %fd3, 2.5;",
     "fma.rn.f64 %fd1, %fd2, %fd3, 2;", "the integer constant 2 cannot be a .f64 operand"},
    {"float shift amount", "shl.b32 %r1, %r2, 3;", "shl.b32 %r1, %r2, 3.0;",
     "operand 3: a floating-point constant cannot be a .s32 operand"},
    {"float constant as a predicate", "selp.b32 %r1, %r2, %r3, %p1;",
     "setp.eq.and.s32 %p1, %r2, %r3, 1.0;", "a floating-point constant cannot be a .pred"},
    {"float constant moved into an integer", "mov.u32 %r1, 0xFFFFFFFF;",
     "mov.u32 %r1, 0d3FF0000000000000;", "operand 2: a floating-point constant cannot be a .u32"},
    {"integer constant moved into an f32", "mov.f32 %f1, 0f00000000;", "mov.f32 %f1, 0;",
     "operand 2: the integer constant 0 cannot be a .f32 operand"},
    /* vector registers */
    {"whole vector register as a scalar", "add.u32 %r1, %v.w, 1;", "add.u32 %r1, %v, 1;",
     "operand 2: a vector of 4 elements cannot be a scalar operand"},
    {"vector component of another type", "add.u32 %r1, %v.y, 1;",
     "add.f32 %f1, %v.y, 0f3F800000;",
     "operand 2: register '%v.y' is .u32, which does not agree with .f32"},
    {"mov.v4 from three elements", "mov.v4.u32 %v, {%r1, %r2, %r3, %r4};",
     "mov.v4.u32 %v, {%r1, %r2, %r3};", "operand 2: mov.v4 needs a vector of 4 elements"},
    /* set's type pairs (PTX ISA "set", "Half Precision Comparison Instructions: set") */
    {"set from f16x2 into f32", "set.lt.u32.f16x2 %r1, %r2, %r3;", "set.lt.f32.f16x2 %r1, %r2, %r3;",
     "has no form with destination type f32 and source type f16x2"},
    {"set into f16x2 from f32", "set.lt.f16x2.f16x2 %r1, %r2, %r3;",
     "set.lt.f16x2.f32 %r1, %f1, %f2;", "has no form with destination type f16x2 and source type f32"},
    {"set.ftz on bf16x2", "set.lt.bf16x2.bf16x2 %r1, %r2, %r3;",
     "set.lt.ftz.bf16x2.bf16x2 %r1, %r2, %r3;", "has no .ftz form with .bf16 types"},
    /* tensor cores */
    {"mma m16n8k16 f32.f16.f16.f32: C has four f32",
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
     "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
     "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7};",
     "operand 4 (C) has 3 elements, expected 4"},
    {"mma m16n8k16: B has two registers",
     "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, "
     "{%r7, %r8}, {%r9, %r10};",
     "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, "
     "{%r7, %r8, %r11}, {%r9, %r10};",
     "operand 3 (B) has 3 elements, expected 2"},
    {"mma f32 accumulator in 64-bit registers",
     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, "
     "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %fd4}, "
     "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
     "operand 1 (D): register '%fd4' is .f64, expected a 32-bit register"},
    {"mma f64 m8n8k4",
     "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, "
     "{%fd5, %fd6};",
     "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd5};",
     "operand 4 (C) has 1 element, expected 2"},
    {"mma s8 m16n8k32 operand count",
     "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, "
     "{%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12, %r13, %r14};",
     "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, "
     "{%r5, %r6, %r7, %r8}, {%r9, %r10};",
     "expects 4 operands (d, a, b, c), got 3"},
    {"mma f64 m16n8k16: A has eight f64",
     "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64.rn {%fd1, %fd2, %fd3, %fd4}, "
     "{%fd5, %fd6, %fd7, %fd8, %fd9, %fd10, %fd11, %fd12}, {%fd13, %fd14, %fd15, %fd16}, "
     "{%fd1, %fd2, %fd3, %fd4};",
     "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64.rn {%fd1, %fd2, %fd3, %fd4}, "
     "{%fd5, %fd6, %fd7, %fd8}, {%fd13, %fd14, %fd15, %fd16}, {%fd1, %fd2, %fd3, %fd4};",
     "operand 2 (A) has 4 elements, expected 8"},
    {"sparse mma e4m3 m16n8k64 takes e and f",
     "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 "
     "{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
     "{%f5, %f6, %f7, %f8}, %r9, 0;",
     "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 "
     "{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
     "{%f5, %f6, %f7, %f8};",
     "expects 6 operands (d, a, b, c, e, f), got 4"},
    {"Volta mma m8n8k4 f16 with f32 accumulators",
     "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
     "{%r1, %r2}, {%r3, %r4}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};",
     "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
     "{%r1, %r2}, {%r3, %r4}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};",
     "operand 1 (D) has 4 elements, expected 8"},
    {"mma b1 m16n8k256",
     "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, "
     "{%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12, %r13, %r14};",
     "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, "
     "{%r5, %r6, %r7, %r8}, {%r9}, {%r11, %r12, %r13, %r14};",
     "operand 3 (B) has 1 element, expected 2"},
    {"wmma.load.a f16 takes eight registers",
     "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, "
     "%r8}, [sm], 16;",
     "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4}, [sm], 16;",
     "operand 1 (the fragment) has 4 elements, expected 8"},
    {"wmma bf16 A of m32n8k16 takes eight registers",
     "wmma.load.a.sync.aligned.row.m32n8k16.global.bf16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, "
     "%r8}, [%rd1];",
     "wmma.load.a.sync.aligned.row.m32n8k16.global.bf16 {%r1, %r2, %r3, %r4}, [%rd1];",
     "operand 1 (the fragment) has 4 elements, expected 8"},
    {"wmma s8 B of m32n8k16 is one register",
     "wmma.load.b.sync.aligned.col.m32n8k16.global.s8 {%r1}, [%rd1], %r2;",
     "wmma.load.b.sync.aligned.col.m32n8k16.global.s8 {%r1, %r2}, [%rd1], %r2;",
     "operand 1 (the fragment) has 2 elements, expected 1"},
    {"wmma f16 C is four registers",
     "wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4}, [%rd1];",
     "wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4}, %rd1;",
     "operand 2 (the matrix address) must be an address"},
    {"wmma.store.d f32 takes eight f32",
     "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [sm], {%f1, %f2, %f3, %f4, %f5, %f6, "
     "%f7, %f8}, 16;",
     "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [sm], {%f1, %f2, %f3, %f4, %f5, %f6, "
     "%f7, %fd8}, 16;",
     "operand 2 (the fragment): register '%fd8' is .f64, expected a 32-bit register"},
    {"wmma.mma f32.f32 accumulates eight",
     "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
     "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12, %r13, %r14, %r15, "
     "%r16}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};",
     "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4}, "
     "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12, %r13, %r14, %r15, "
     "%r16}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};",
     "operand 1 (D) has 4 elements, expected 8"},
    {"ldmatrix .x4 loads four registers",
     "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [sm];",
     "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [sm];",
     "operand 1 (the matrix registers) has 2 elements, expected 4"},
    {"stmatrix needs an address",
     "stmatrix.sync.aligned.m8n8.x2.shared.b16 [sm], {%r1, %r2};",
     "stmatrix.sync.aligned.m8n8.x2.shared.b16 %rd1, {%r1, %r2};",
     "operand 1 (the shared-memory address) must be an address"},
    {"movmatrix on 32-bit registers", "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;",
     "movmatrix.sync.aligned.m8n8.trans.b16 %rd1, %r2;",
     "operand 1 (d): register '%rd1' is .b64, expected a 32-bit register"},
    /* textures and surfaces */
    {"tex.2d takes two coordinates",
     "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];",
     "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6, %f7, %f8}];",
     "operand 2: the coordinates have 4 elements, the geometry takes 2"},
    {"tex .v4 needs four destinations",
     "tex.3d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [tex0, {%r5, %r6, %r7, %r8}];",
     "tex.3d.v4.s32.s32 {%r1, %r2}, [tex0, {%r5, %r6, %r7, %r8}];",
     "operand 1 (the destination) has 2 elements, expected 4"},
    {"tex coordinates are 32-bit",
     "tex.a1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%r5, %f6}];",
     "tex.a1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%rd5, %f6}];",
     "coordinate register '%rd5' is .b64, expected a 32-bit register"},
    {"tld4 gathers four", "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];",
     "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3}, [tex0, {%f5, %f6}];",
     "operand 1 (the destination) has 3 elements, expected 4"},
    {"txq result is 32-bit", "txq.width.b32 %r1, [tex0];", "txq.width.b32 %rd1, [tex0];",
     "operand 1 (d): register '%rd1' is .b64, expected a 32-bit register"},
    {"suld.b.2d coordinates",
     "suld.b.2d.v2.b32.trap {%r1, %r2}, [surf0, {%r3, %r4}];",
     "suld.b.2d.v2.b32.trap {%r1, %r2}, [surf0, {%r3}];",
     "the coordinates have 1 element, the geometry takes 2"},
    {"sust.b.3d values", "sust.b.3d.v4.b32.trap [surf0, {%r1, %r2, %r3, %r4}], "
     "{%r5, %r6, %r7, %r8};",
     "sust.b.3d.v4.b32.trap [surf0, {%r1, %r2, %r3, %r4}], {%r5, %r6};",
     "operand 2 (the values) has 2 elements, expected 4"},
    /* asynchronous copies and barriers */
    {"cp.async cp-size", "cp.async.ca.shared.global [sm], [%rd1], 8;",
     "cp.async.ca.shared.global [sm], [%rd1], 12;", "cp-size is 12 bytes, it must be 4, 8 or 16"},
    {"cp.async.cg copies 16", "cp.async.cg.shared.global [sm], [%rd1], 16, %r1;",
     "cp.async.cg.shared.global [sm], [%rd1], 8;", "cp.async.cg copies 16 bytes"},
    {"cp.async needs two addresses", "cp.async.ca.shared.global [sm], [%rd1], 4;",
     "cp.async.ca.shared.global [sm], %rd1, 4;", "operand 2 (the global source) must be an "
     "address"},
    {"cp.async cp-size is a constant", "cp.async.ca.shared.global [sm], [%rd1], 16;",
     "cp.async.ca.shared.global [sm], [%rd1], %r1;", "operand 3 (cp-size) must be the constant"},
    {"cp.async.wait_group count", "cp.async.wait_group 1;", "cp.async.wait_group %r1;",
     "the group count must be an integer constant"},
    {"cp.async.bulk size", "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [sm], 256;",
     "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [sm], 100;",
     "size is 100 bytes, it must be a positive multiple of 16"},
    {"cp.async.bulk.tensor coordinates",
     "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r2}], [sm];",
     "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r2, %r3}], [sm];",
     "operand 1: 3 coordinates for a 2d tensor"},
    {"mbarrier.init", "mbarrier.init.shared.b64 [sm], 32;", "mbarrier.init.shared.b64 [sm];",
     "expects 2 operands, got 1"},
    {"mbarrier.arrive state is 64-bit", "mbarrier.arrive.shared.b64 %rd1, [sm];",
     "mbarrier.arrive.shared.b64 %r1, [sm];",
     "operand 1 (the state): register '%r1' is .b32, expected a 64-bit register"},
    {"mbarrier.try_wait.parity", "mbarrier.try_wait.parity.shared.b64 %p1, [sm], %r1;",
     "mbarrier.try_wait.parity.shared.b64 %r2, [sm], %r1;",
     "operand 1: register '%r2' is .b32, expected a .pred register"},
    {"mbarrier.test_wait state", "mbarrier.test_wait.shared.b64 %p1, [sm], %rd1;",
     "mbarrier.test_wait.shared.b64 %p1, [sm], %r1;",
     "operand 3 (the state): register '%r1' is .b32, expected a 64-bit register"},
    /* modifiers the ISA makes required or leaves out (ptxas refuses each broken form) */
    {"float-to-integer cvt without a rounding modifier", "cvt.rzi.s32.f32 %r1, %f1;",
     "cvt.s32.f32 %r1, %f1;", "a float-to-integer conversion needs an integer rounding modifier"},
    {"float-to-integer cvt with a float rounding modifier", "cvt.rni.u64.f64 %rd1, %fd1;",
     "cvt.rn.u64.f64 %rd1, %fd1;",
     "a float-to-integer conversion needs an integer rounding modifier"},
    {"f16-to-integer cvt without a rounding modifier", "cvt.rmi.s16.f16 %h1, %h2;",
     "cvt.s16.f16 %h1, %h2;", "a float-to-integer conversion needs an integer rounding modifier"},
    {"cvt to tf32 without a rounding modifier", "cvt.rn.tf32.f32 %r1, %f1;",
     "cvt.tf32.f32 %r1, %f1;", "a conversion to .tf32 needs a rounding modifier (.rna, .rn or .rz)"},
    {"min.NaN on f64", "min.NaN.f32 %f1, %f2, %f3;", "min.NaN.f64 %fd1, %fd2, %fd3;",
     ".NaN applies to .f32, .f16 and .bf16 operands, not .f64"},
    {"max.NaN on an integer type", "max.NaN.f32 %f1, %f2, %f3;", "max.NaN.s32 %r1, %r2, %r3;",
     ".NaN applies to .f32, .f16 and .bf16 operands, not .s32"},
};

static char *module_text(const char *body)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fputs(".version 9.0\n.target sm_90\n.address_size 64\n"
          ".global .texref tex0;\n.global .surfref surf0;\n"
          ".visible .entry kern()\n{\n" REGS, f);
    fprintf(f, "  %s\n  ret;\n}\n", body);
    fclose(f);
    return buf;
}

START_TEST(valid_form_is_accepted)
{
    const check_case *c = &cases[_i];
    char *src = module_text(c->good);
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(src, strlen(src), "check.ptx", &d);
    ck_assert_msg(m != NULL, "%s: rejected the valid form:\n%s\n%s", c->name, c->good,
                  d.text ? d.text : "");
    ptx_module_free(m);
    ptx_diag_free(&d);
    free(src);
}
END_TEST

START_TEST(broken_form_is_reported)
{
    const check_case *c = &cases[_i];
    char *src = module_text(c->bad);
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(src, strlen(src), "check.ptx", &d);
    ck_assert_msg(m == NULL, "%s: accepted\n%s", c->name, c->bad);
    ck_assert_msg(d.text && strstr(d.text, c->msg), "%s: expected '%s' in:\n%s", c->name,
                  c->msg, d.text ? d.text : "(nothing)");
    /* the body's instruction is on line 15, column 3, in kernel 'kern' */
    ck_assert_msg(strstr(d.text, "check.ptx:15:3: error:") != NULL, "%s: position in:\n%s",
                  c->name, d.text);
    ck_assert_msg(strstr(d.text, "kern") != NULL, "%s: no function in:\n%s", c->name, d.text);
    ptx_diag_free(&d);
    free(src);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_check");
    TCase *tc = tcase_create("families");
    int n = (int)(sizeof cases / sizeof cases[0]);
    tcase_add_loop_test(tc, valid_form_is_accepted, 0, n);
    tcase_add_loop_test(tc, broken_form_is_reported, 0, n);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
