/* test_lane_paths.c: a handler's full-warp path against its lane-by-lane path.
 *
 * The interpreter's handlers run a whole warp's lanes in one straight loop, which the compiler
 * vectorises, and a partial warp's lane by lane (emu_internal.h's EMU_LANEWISE, exec_int.c's
 * EACH_LANE). Both must give every lane the same bits (floats included: NaN payloads, rounding,
 * .ftz, .sat). Each instruction here runs on random and special inputs three times in one
 * kernel: on the whole warp, then guarded so that lane 31, then lane 0, is left out (the
 * lane-by-lane path); every lane's results must agree. Both executors run it (conf_run). */
#include "conformance_harness.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

enum { WARPS = 64, N = WARPS * 32 };

typedef struct lane_op {
    const char *name;
    const char *type;   /* the operands' and result's register type: b32 or b64 */
    const char *body;   /* %d from %a, %b, %c (%p, %t: a scratch predicate, .b32) */
} lane_op;

static const lane_op ops[] = {
    { "add.f32", "b32", "add.f32 %d, %a, %b;" },
    { "sub.ftz.f32", "b32", "sub.ftz.f32 %d, %a, %b;" },
    { "mul.sat.f32", "b32", "mul.sat.f32 %d, %a, %b;" },
    { "fma.rn.f32", "b32", "fma.rn.f32 %d, %a, %b, %c;" },
    { "fma.rn.ftz.sat.f32", "b32", "fma.rn.ftz.sat.f32 %d, %a, %b, %c;" },
    { "fma.rz.f32", "b32", "fma.rz.f32 %d, %a, %b, %c;" },
    { "fma.rm.ftz.f32", "b32", "fma.rm.ftz.f32 %d, %a, %b, %c;" },
    { "mad.rn.f32", "b32", "mad.rn.f32 %d, %a, %b, %c;" },
    { "min.f32", "b32", "min.f32 %d, %a, %b;" },
    { "max.NaN.f32", "b32", "max.NaN.f32 %d, %a, %b;" },
    { "div.rn.f32", "b32", "div.rn.f32 %d, %a, %b;" },
    { "sqrt.rn.f32", "b32", "sqrt.rn.f32 %d, %a;" },
    { "abs.f32", "b32", "abs.f32 %d, %a;" },
    { "neg.f32", "b32", "neg.f32 %d, %a;" },
    { "cvt.rni.f32.f32", "b32", "cvt.rni.f32.f32 %d, %a;" },
    { "cvt.rn.f32.s32", "b32", "cvt.rn.f32.s32 %d, %a;" },
    { "cvt.rzi.s32.f32", "b32", "cvt.rzi.s32.f32 %d, %a;" },
    { "setp.lt.f32", "b32", "setp.lt.f32 %p, %a, %b; selp.b32 %d, 1, 0, %p;" },
    { "setp.geu.ftz.f32", "b32", "setp.geu.ftz.f32 %p, %a, %b; selp.b32 %d, 1, 0, %p;" },
    { "setp.ge.s32", "b32", "setp.ge.s32 %p, %a, %b; selp.b32 %d, 1, 0, %p;" },
    { "setp.lt.u32", "b32", "setp.lt.u32 %p, %a, %b; selp.b32 %d, 1, 0, %p;" },
    { "setp.ne.s32", "b32", "setp.ne.s32 %p, %a, %b; selp.b32 %d, 1, 0, %p;" },
    { "add.s32", "b32", "add.s32 %d, %a, %b;" },
    { "add.s32 imm", "b32", "add.s32 %d, %a, -7;" },
    { "sub.u32", "b32", "sub.u32 %d, %a, %b;" },
    { "mul.lo.s32", "b32", "mul.lo.s32 %d, %a, %b;" },
    { "mul.hi.s32", "b32", "mul.hi.s32 %d, %a, %b;" },
    { "mad.lo.s32", "b32", "mad.lo.s32 %d, %a, %b, %c;" },
    { "shl.b32", "b32", "shl.b32 %d, %a, %b;" },
    { "shr.s32", "b32", "shr.s32 %d, %a, %b;" },
    { "shr.u32 imm", "b32", "shr.u32 %d, %a, 3;" },
    { "min.s32", "b32", "min.s32 %d, %a, %b;" },
    { "max.u32", "b32", "max.u32 %d, %a, %b;" },
    { "and.b32", "b32", "and.b32 %d, %a, %b;" },
    { "xor.b32", "b32", "xor.b32 %d, %a, %b;" },
    { "add.f64", "b64", "add.f64 %d, %a, %b;" },
    { "mul.rz.f64", "b64", "mul.rz.f64 %d, %a, %b;" },
    { "fma.rn.f64", "b64", "fma.rn.f64 %d, %a, %b, %c;" },
    { "min.f64", "b64", "min.f64 %d, %a, %b;" },
    { "setp.le.f64", "b64", "setp.le.f64 %p, %a, %b; selp.b64 %d, 1, 0, %p;" },
    { "add.s64", "b64", "add.s64 %d, %a, %b;" },
    { "mul.lo.u64", "b64", "mul.lo.u64 %d, %a, %b;" },
    { "shl.b64", "b64", "cvt.u32.u64 %t, %b; shl.b64 %d, %a, %t;" },
    { "setp.lt.s64", "b64", "setp.lt.s64 %p, %a, %b; selp.b64 %d, 1, 0, %p;" },
};

/* Special f32 and f64 bit patterns, and small shift counts, among the random inputs. */
static const uint32_t special32[] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
    0x7fbfffffu, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u,
    0xbf800000u, 0x3f000000u, 0x4b800001u, 0x33800000u, 0x0000001fu, 0x00000020u, 0x7fffffffu,
    0x80000001u, 0xffffffffu,
};
static const uint64_t special64[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0xfff8000000000123ull, 0x7ff0000000000001ull, 1, 0x800fffffffffffffull,
    0x7fefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 63, 64,
    0x7fffffffffffffffull, 0xffffffffffffffffull,
};

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* An input: a special value a quarter of the time, else random bits (half of the f32s near 1
 * so that sums and products round rather than overflow). */
static uint64_t input(uint64_t *s, bool wide)
{
    uint64_t r = next_random(s);
    if (r % 4 == 0)
        return wide ? special64[(r >> 8) % (sizeof special64 / sizeof *special64)]
                    : special32[(r >> 8) % (sizeof special32 / sizeof *special32)];
    uint64_t v = next_random(s);
    if (!wide) {
        v &= 0xffffffffu;
        if (r % 4 == 1) v = (v & 0x807fffffu) | 0x3f000000u;
    }
    return v;
}

START_TEST(full_warp_path_matches_lane_by_lane)
{
    const lane_op *op = &ops[_i];
    const bool wide = strcmp(op->type, "b64") == 0;
    const unsigned es = wide ? 8 : 4;
    static char ptx[8192];
    /* the body three times: whole warp, then branched around by lane 31, then by lane 0 (a
     * diverged path: the lane-by-lane loop); inputs a[t] at t, b[t] at N + t, c[t] at 2N + t
     * (elements of es bytes), results likewise */
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
             "{\n"
             "    .reg .b64 %%out, %%in, %%off;\n"
             "    .reg .b32 %%t, %%lane;\n"
             "    .reg .%s %%a, %%b, %%c, %%d, %%d1, %%d2, %%d3;\n"
             "    .reg .pred %%p, %%is31, %%is0;\n"
             "    ld.param.u64 %%out, [pout];\n"
             "    ld.param.u64 %%in, [pin];\n"
             "    mov.u32 %%lane, %%laneid;\n"
             "    setp.eq.u32 %%is31, %%lane, 31;\n"
             "    setp.eq.u32 %%is0, %%lane, 0;\n"
             "    mov.u32 %%t, %%ctaid.x;\n"
             "    shl.b32 %%t, %%t, 5;\n"
             "    add.u32 %%t, %%t, %%lane;\n"
             "    mul.wide.u32 %%off, %%t, %u;\n"
             "    add.u64 %%in, %%in, %%off;\n"
             "    add.u64 %%out, %%out, %%off;\n"
             "    ld.global.%s %%a, [%%in];\n"
             "    ld.global.%s %%b, [%%in+%u];\n"
             "    ld.global.%s %%c, [%%in+%u];\n"
             "    mov.%s %%d, 0;\n"
             "    %s\n"
             "    mov.%s %%d1, %%d;\n"
             "    mov.%s %%d, 0;\n"
             "    @%%is31 bra NOT31;\n"
             "    %s\n"
             "NOT31:\n"
             "    mov.%s %%d2, %%d;\n"
             "    mov.%s %%d, 0;\n"
             "    @%%is0 bra NOT0;\n"
             "    %s\n"
             "NOT0:\n"
             "    mov.%s %%d3, %%d;\n"
             "    st.global.%s [%%out], %%d1;\n"
             "    st.global.%s [%%out+%u], %%d2;\n"
             "    st.global.%s [%%out+%u], %%d3;\n"
             "    ret;\n"
             "}\n",
             op->type, es, op->type, op->type, N * es, op->type, 2 * N * es, op->type, op->body,
             op->type, op->type, op->body, op->type, op->type, op->body, op->type, op->type,
             op->type, N * es, op->type, 2 * N * es);
    uint8_t *in = conf_dev_alloc(3 * (size_t)N * es), *out = conf_dev_alloc(3 * (size_t)N * es);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)_i;
    for (int k = 0; k < 3 * N; k++) {
        uint64_t v = input(&seed, wide);
        memcpy(in + (size_t)k * es, &v, es);
    }
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    if (conf_run_k(op->name, ptx, DIM(WARPS, 1, 1), DIM(32, 1, 1), 0, params, 2, &r) != CONF_OK)
        ck_abort_msg("%s: %s", op->name, r.message);
    for (int t = 0; t < N; t++) {
        uint64_t d1 = 0, d2 = 0, d3 = 0;
        memcpy(&d1, out + (size_t)t * es, es);
        memcpy(&d2, out + ((size_t)N + t) * es, es);
        memcpy(&d3, out + (2 * (size_t)N + t) * es, es);
        int lane = t % 32;
        if (lane != 31)
            ck_assert_msg(d1 == d2, "%s: thread %d, whole warp %#llx, lane by lane %#llx", op->name,
                          t, (unsigned long long)d1, (unsigned long long)d2);
        if (lane != 0)
            ck_assert_msg(d1 == d3, "%s: thread %d, whole warp %#llx, lane by lane %#llx", op->name,
                          t, (unsigned long long)d1, (unsigned long long)d3);
    }
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lane_paths");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, full_warp_path_matches_lane_by_lane, 0, (int)(sizeof ops / sizeof *ops));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
