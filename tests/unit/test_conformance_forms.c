/* test_conformance_forms.c: operand and declaration forms that PTX written by hand or by other
 * toolchains uses (issue 21), as conformance tables: vector registers (PTX ISA "Vectors":
 * .reg .v2/.v4 declarations, components .x .y .z .w and .r .g .b .a, mov.v2/.v4 between a
 * vector register and a brace list, sub-word vectors packed with mov), variables of the
 * .global and .const spaces declared in a function body with initialisers ("Variable
 * Declarations": statically allocated wherever declared), and address expressions ptxas takes:
 * [var], [var+imm], [reg+imm], [reg-imm], and var+imm / reg+imm as source values.
 * Every row runs on the step and block executors (conformance_harness.c compares them); the
 * expectation is the same computation in C, or a constant from the initialisers.
 */
#include "tests/unit/conformance_harness.h"

typedef const uint64_t *IN;
typedef uint64_t *OUT;

#define U32(x) ((uint32_t)(x))

/* mov.v4 from a brace list, components by both names, mov.v4 back into scalars */
static void r_vec_mov(IN in, OUT out)
{
    out[0] = U32(in[0] + in[3]);
    out[1] = U32(in[1] - in[2]);
    out[2] = U32(in[1]);   /* {%out2, %out3, ..} = the vector after the swap below */
    out[3] = U32(in[0]);
}
static const conf_op op_vec_mov = {
    "mov.v4.u32 with a .v4 register",
    "mov.v4.u32 %vv, {%in0, %in1, %in2, %in3};"
    " add.u32 %out0, %vv.x, %vv.w; sub.u32 %out1, %vv.g, %vv.b;"
    " mov.v2.u32 {%vv.x, %vv.y}, {%vv.y, %vv.x};"
    " mov.v4.u32 {%out2, %out3, %conf_tmp, %conf_t0}, %vv;",
    { "u32", "u32", "u32", "u32" }, { "u32", "u32", "u32", "u32" }, { { 0 } }, r_vec_mov,
    ".reg .v4 .u32 %vv;", NULL
};
static const conf_case c_vec_mov[] = {
    I4(1, 2, 3, 4), I4(0xffffffff, 0, 1, 1), I4(0x80000000, 0x7fffffff, 5, 0x80000000),
    { { 10, 20, 30, 40 }, { 50, 0xfffffff6, 20, 10 }, true },
};

/* .v2 .f32 register in float arithmetic, .v2 .u64 in integer arithmetic */
static void r_vec_f32(IN in, OUT out)
{
    out[0] = conf_b32(conf_f32(in[0]) * conf_f32(in[1]));
    out[1] = in[2] + (in[2] << 1);
}
static const conf_op op_vec_f32 = {
    ".v2 .f32 and .v2 .u64 registers",
    "mov.v2.f32 %vf, {%in0, %in1}; mul.rn.f32 %out0, %vf.x, %vf.y;"
    " mov.v2.u64 %vd, {%in2, %in2}; shl.b64 %vd.y, %vd.y, 1; add.u64 %out1, %vd.x, %vd.y;",
    { "f32", "f32", "u64" }, { "f32", "u64" }, { { CONF_F32, 0, 0, 0 } }, r_vec_f32,
    ".reg .v2 .f32 %vf; .reg .v2 .u64 %vd;", NULL
};
static const conf_case c_vec_f32[] = {
    I3(0x3fc00000, 0x40000000, 7), I3(0xbf800000, 0x7f800000, 0x8000000000000000ull),
    I3(0x00800000, 0x3f000000, 0xffffffffffffffffull),
};

/* sub-word vectors: .v4 .u16 built from halves and packed into a .b64 (element 0 lowest) */
static void r_vec_u16(IN in, OUT out)
{
    uint64_t h[4] = { in[0] & 0xffff, in[0] >> 16 & 0xffff, in[1] & 0xffff, in[1] >> 16 & 0xffff };
    h[0] = (h[0] + h[3]) & 0xffff;
    out[0] = h[0] | h[1] << 16 | h[2] << 32 | h[3] << 48;
}
static const conf_op op_vec_u16 = {
    ".v4 .u16 register packed with mov.b64",
    "mov.b32 {%vh.x, %vh.y}, %in0; mov.b32 {%vh.z, %vh.w}, %in1;"
    " add.u16 %vh.r, %vh.r, %vh.a; mov.b64 %out0, %vh;",
    { "b32", "b32" }, { "b64" }, { { 0 } }, r_vec_u16, ".reg .v4 .u16 %vh;", NULL
};
static const conf_case c_vec_u16[] = {
    I2(0x00020001, 0x00040003), I2(0xffffffff, 0x0001ffff), I2(0x12345678, 0x9abcdef0),
    { { 0x00020001, 0x00040003 }, { 0x0004000300020005ull }, true },
};

/* .global and .const declared in the kernel's body, with initialisers */
static const uint32_t fs_tab[4] = { 3, 5, 7, 11 };
static void r_fscope(IN in, OUT out)
{
    out[0] = fs_tab[in[0] & 3];
    out[1] = 7 + 200;
    out[2] = U32(in[0] + 0x1234);
}
static const conf_op op_fscope = {
    "function-scope .global/.const with initialisers",
    "and.b32 %conf_tmp, %in0, 3; mul.wide.u32 %fa, %conf_tmp, 4; mov.u64 %fb, fsg;"
    " add.u64 %fa, %fa, %fb; ld.global.u32 %out0, [%fa];"
    " ld.global.u32 %out1, [fsg+8]; ld.const.u32 %conf_tmp, [fsc+4]; add.u32 %out1, %out1, %conf_tmp;"
    " ld.const.u32 %conf_tmp, [fsc+8]; add.u32 %out2, %in0, %conf_tmp;",
    { "u32" }, { "u32", "u32", "u32" }, { { 0 } }, r_fscope,
    ".reg .u64 %fa, %fb; .global .align 4 .u32 fsg[4] = {3, 5, 7, 11};"
    " .const .align 4 .u32 fsc[3] = {100, 200, 0x1234};",
    NULL
};
static const conf_case c_fscope[] = { I1(0), I1(1), I1(2), I1(3), I1(0xfffffffe) };

/* address expressions: var+imm and reg+imm as values, [reg+imm] and [reg-imm] */
static void r_addr(IN in, OUT out)
{
    static const uint32_t at[4] = { 1, 2, 3, 4 };
    out[0] = at[2];
    out[1] = at[1];
    out[2] = at[3];
    out[3] = at[1];
}
static const conf_op op_addr = {
    "address expressions",
    "mov.u64 %aq, avt+8; ld.global.u32 %out0, [%aq]; ld.global.u32 %out1, [%aq+-4];"
    " ld.global.u32 %out2, [avt+12]; mov.u64 %aq, %aq+4; ld.global.u32 %out3, [%aq-8];",
    { "u32" }, { "u32", "u32", "u32", "u32" }, { { 0 } }, r_addr,
    ".reg .u64 %aq; .global .align 8 .u32 avt[4] = {1, 2, 3, 4};", NULL
};
static const conf_case c_addr[] = { { { 0 }, { 3, 2, 4, 2 }, true } };

static const conf_table tables[] = {
    CONF_TABLE(op_vec_mov, c_vec_mov), CONF_TABLE(op_vec_f32, c_vec_f32),
    CONF_TABLE(op_vec_u16, c_vec_u16), CONF_TABLE(op_fscope, c_fscope),
    CONF_TABLE(op_addr, c_addr),
};

START_TEST(forms_row) { conf_check_row(tables, CONF_N(tables), _i); }
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_forms");
    conf_add_tables(s, tables, CONF_N(tables), forms_row);
    return conf_main(s);
}
