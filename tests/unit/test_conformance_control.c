/* test_conformance_control.c: PTX control flow against the PTX ISA (sections 9.3, 9.7.12,
 * 9.7.13.1-4).
 *
 * Divergent if/else with reconvergence, nested divergence, loops with per-lane trip counts
 * (break and continue), guard predicates (@p / @!p) on arithmetic, moves and stores, bra.uni,
 * calls to .func with parameters and return values (including recursion and a .b8 array
 * parameter), early exit of some lanes (also inside a called .func), brx.idx jump tables, bar.sync between warps, the
 * barrier reductions bar.red.popc/.and/.or, and trap (EMU_FAULT_TRAP naming the thread).
 * Each kernel stores one value per thread; the expectation is the same computation in C.
 */
#include "tests/unit/conformance_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

typedef struct ctl_case {
    const char *name;
    int n;
    const char *funcs;   /* module-level functions placed before the kernel */
    const char *body;    /* computes %d from %t (thread index) */
    uint32_t (*ref)(uint32_t t, int n);
} ctl_case;

static uint32_t ref_ifelse(uint32_t t, int n) { (void)n; return (t & 1) ? t * 3 + 1000 : t * 5 + 2000; }
static uint32_t ref_nested(uint32_t t, int n)
{
    (void)n;
    uint32_t d;
    if (t % 4 == 0) d = 10;
    else if (t % 4 == 1) d = t < 16 ? 21 : 22;
    else d = (t % 4 == 2) ? 30 : 40;
    return d + 100;
}
static uint32_t ref_loop(uint32_t t, int n) { (void)n; return t * (t + 1) / 2; }
static uint32_t ref_breakcont(uint32_t t, int n)
{
    (void)n;
    uint32_t s = 0;
    for (uint32_t i = 0; i < 100; i++) {
        if (i % 3 == 0) continue;
        if (i > t) break;
        s += i;
    }
    return s;
}
static uint32_t ref_pred(uint32_t t, int n)
{
    (void)n;
    uint32_t d = t;
    if (t & 2) d += 100;
    if (!(t & 4)) d *= 2;
    return d;
}
static uint32_t ref_call(uint32_t t, int n) { (void)n; return t * t + 7 * t + 1; }
static uint32_t ref_call_wide(uint32_t t, int n)
{
    (void)n;
    uint64_t r = (uint64_t)t * UINT64_C(0x100000001) + 5;   /* the .func, in C */
    return (uint32_t)(r >> 32) * 1000 + (uint32_t)r;
}
static uint32_t fib(uint32_t k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
static uint32_t ref_fib(uint32_t t, int n) { (void)n; return fib(t % 12); }
static uint32_t ref_array_param(uint32_t t, int n) { (void)n; return (t + 1) * 0x01010101u + 0x04030201u; }
static uint32_t ref_exit(uint32_t t, int n) { (void)n; return t >= 16 ? 0xe0000000u + t : 0xa0000000u + t; }
static uint32_t ref_exit_in_call(uint32_t t, int n)
{
    (void)n;
    if (t < 16) return (t & 1) ? 0xe0000000u + t : 5 + t;
    return 7 + t;
}
static uint32_t ref_brx(uint32_t t, int n) { (void)n; return (t % 4) * 111 + t; }
static uint32_t ref_bar(uint32_t t, int n) { return (uint32_t)(n - 1 - (int)t) * 13 + 7; }
static uint32_t ref_barred(uint32_t t, int n)
{
    /* popc of (t % 3 == 0) over the CTA, and/or of (t < n) and (t == 5) */
    uint32_t cnt = 0;
    for (int i = 0; i < n; i++) cnt += i % 3 == 0;
    (void)t;
    return cnt | 0x10000 | 0x20000;
}
static uint32_t ref_uni(uint32_t t, int n) { (void)n; return t + 5 * 8; }

/* .func forms other toolchains write (issue 21): .pred parameters and return values (ptxas
 * takes them with a warning), several return values mixing .reg and .param, .v2/.v4 .reg
 * parameters (a vector register or a brace list as the argument), and a .global declared in a
 * .func body, whose storage outlives the call (PTX ISA "Variable Declarations": variables in
 * the .global space are statically allocated wherever they are declared). */
static uint32_t ref_pred_ret(uint32_t t, int n) { (void)n; return t < 10 ? 7 : 9; }
static uint32_t ref_pred_arg(uint32_t t, int n) { (void)n; return t > 20 ? t + 100 : t; }
static uint32_t ref_three_rets(uint32_t t, int n) { (void)n; return 5 + (t + 1) + 3 * t; }
static uint32_t ref_vec_param(uint32_t t, int n) { (void)n; return (t + 40) + 2 * 3 + (t + 1) + t; }
static uint32_t ref_fscope_static(uint32_t t, int n) { (void)t; return 200 + 3 * (uint32_t)n; }
static uint32_t ref_s8_dot(uint32_t t, int n)
{
    (void)n;
    uint32_t w1 = t * 0x01FF0203u, w2 = w1 ^ 0x80808080u;
    int32_t d = 0;
    for (unsigned k = 0; k < 4; k++) d += (int8_t)(uint8_t)(w1 >> (8 * k)) * (int8_t)(uint8_t)(w2 >> (8 * k));
    return (uint32_t)d;
}

static const ctl_case cases[] = {
    { "divergent if/else reconverges", 64, NULL,
      "and.b32 %a, %t, 1;\n"
      "    setp.eq.u32 %p, %a, 0;\n"
      "    @%p bra EVEN;\n"
      "    mad.lo.u32 %d, %t, 3, 1000;\n"
      "    bra.uni JOIN;\n"
      "EVEN:\n"
      "    mad.lo.u32 %d, %t, 5, 2000;\n"
      "JOIN:", ref_ifelse },
    { "nested divergence", 32, NULL,
      "and.b32 %a, %t, 3;\n"
      "    setp.ne.u32 %p, %a, 0;\n"
      "    @%p bra NOT0;\n"
      "    mov.u32 %d, 10;\n"
      "    bra.uni JOIN;\n"
      "NOT0:\n"
      "    setp.ne.u32 %p, %a, 1;\n"
      "    @%p bra NOT1;\n"
      "    setp.lt.u32 %q, %t, 16;\n"
      "    selp.u32 %d, 21, 22, %q;\n"
      "    bra.uni JOIN;\n"
      "NOT1:\n"
      "    setp.eq.u32 %q, %a, 2;\n"
      "    @%q mov.u32 %d, 30;\n"
      "    @!%q mov.u32 %d, 40;\n"
      "JOIN:\n"
      "    add.u32 %d, %d, 100;", ref_nested },
    { "loop with a per-lane trip count", 64, NULL,
      "mov.u32 %d, 0;\n"
      "    mov.u32 %a, 0;\n"
      "LOOP:\n"
      "    setp.gt.u32 %p, %a, %t;\n"
      "    @%p bra DONE;\n"
      "    add.u32 %d, %d, %a;\n"
      "    add.u32 %a, %a, 1;\n"
      "    bra LOOP;\n"
      "DONE:", ref_loop },
    { "loop with continue and break", 32, NULL,
      "mov.u32 %d, 0;\n"
      "    mov.u32 %a, 0;\n"
      "LOOP:\n"
      "    rem.u32 %b, %a, 3;\n"
      "    setp.eq.u32 %p, %b, 0;\n"
      "    @%p bra NEXT;\n"
      "    setp.gt.u32 %q, %a, %t;\n"
      "    @%q bra DONE;\n"
      "    add.u32 %d, %d, %a;\n"
      "NEXT:\n"
      "    add.u32 %a, %a, 1;\n"
      "    setp.lt.u32 %p, %a, 100;\n"
      "    @%p bra LOOP;\n"
      "DONE:", ref_breakcont },
    { "guard predicates @p / @!p", 32, NULL,
      "mov.u32 %d, %t;\n"
      "    and.b32 %a, %t, 2;\n"
      "    setp.ne.u32 %p, %a, 0;\n"
      "    @%p add.u32 %d, %d, 100;\n"
      "    and.b32 %a, %t, 4;\n"
      "    setp.ne.u32 %q, %a, 0;\n"
      "    @!%q shl.b32 %d, %d, 1;", ref_pred },
    { "call to a .func with parameters and a return value", 32,
      ".func (.param .b32 ret) poly(.param .b32 x, .param .b32 y)\n"
      "{\n"
      "    .reg .b32 %x, %y, %r;\n"
      "    ld.param.b32 %x, [x];\n"
      "    ld.param.b32 %y, [y];\n"
      "    mad.lo.u32 %r, %x, %x, %y;\n"
      "    st.param.b32 [ret], %r;\n"
      "    ret;\n"
      "}\n",
      "mad.lo.u32 %a, %t, 7, 1;\n"
      "    {\n"
      "    .param .b32 px;\n"
      "    .param .b32 py;\n"
      "    .param .b32 pr;\n"
      "    st.param.b32 [px], %t;\n"
      "    st.param.b32 [py], %a;\n"
      "    call.uni (pr), poly, (px, py);\n"
      "    ld.param.b32 %d, [pr];\n"
      "    }", ref_call },
    /* call (%reg), f, (%reg): registers as the argument and the return value (PTX ISA, call);
     * the .b64 return value arrives whole, high half included */
    { "call with a .b64 return value and argument in registers", 32,
      ".func (.param .b64 ret) wide(.param .b64 x)\n"
      "{\n"
      "    .reg .b64 %x;\n"
      "    ld.param.b64 %x, [x];\n"
      "    mul.lo.u64 %x, %x, 0x100000001;\n"
      "    add.u64 %x, %x, 5;\n"
      "    st.param.b64 [ret], %x;\n"
      "    ret;\n"
      "}\n",
      "cvt.u64.u32 %w, %t;\n"
      "    call (%s), wide, (%w);\n"
      "    mov.b64 {%a, %b}, %s;\n"
      "    mad.lo.u32 %d, %b, 1000, %a;", ref_call_wide },
    { "recursive .func calls (fib) with divergent depth", 32,
      ".func (.param .b32 ret) fib(.param .b32 k)\n"
      "{\n"
      "    .reg .b32 %k, %a, %b, %r;\n"
      "    .reg .pred %p;\n"
      "    ld.param.b32 %k, [k];\n"
      "    setp.lt.u32 %p, %k, 2;\n"
      "    @%p bra BASE;\n"
      "    sub.u32 %a, %k, 1;\n"
      "    {\n"
      "    .param .b32 q;\n"
      "    .param .b32 r;\n"
      "    st.param.b32 [q], %a;\n"
      "    call (r), fib, (q);\n"
      "    ld.param.b32 %a, [r];\n"
      "    }\n"
      "    sub.u32 %b, %k, 2;\n"
      "    {\n"
      "    .param .b32 q;\n"
      "    .param .b32 r;\n"
      "    st.param.b32 [q], %b;\n"
      "    call (r), fib, (q);\n"
      "    ld.param.b32 %b, [r];\n"
      "    }\n"
      "    add.u32 %r, %a, %b;\n"
      "    st.param.b32 [ret], %r;\n"
      "    ret;\n"
      "BASE:\n"
      "    st.param.b32 [ret], %k;\n"
      "    ret;\n"
      "}\n",
      "rem.u32 %a, %t, 12;\n"
      "    {\n"
      "    .param .b32 q;\n"
      "    .param .b32 r;\n"
      "    st.param.b32 [q], %a;\n"
      "    call (r), fib, (q);\n"
      "    ld.param.b32 %d, [r];\n"
      "    }", ref_fib },
    { "call with a .b8 array parameter (a struct by value)", 32,
      ".func (.param .b32 ret) bytesum(.param .align 4 .b8 s[8])\n"
      "{\n"
      "    .reg .b32 %a, %b;\n"
      "    ld.param.b32 %a, [s];\n"
      "    ld.param.b32 %b, [s+4];\n"
      "    add.u32 %a, %a, %b;\n"
      "    st.param.b32 [ret], %a;\n"
      "    ret;\n"
      "}\n",
      "add.u32 %a, %t, 1;\n"
      "    mul.lo.u32 %a, %a, 0x01010101;\n"
      "    {\n"
      "    .param .align 4 .b8 s[8];\n"
      "    .param .b32 r;\n"
      "    st.param.b32 [s], %a;\n"
      "    mov.u32 %b, 0x04030201;\n"
      "    st.param.b32 [s+4], %b;\n"
      "    call.uni (r), bytesum, (s);\n"
      "    ld.param.b32 %d, [r];\n"
      "    }", ref_array_param },
    { "exit in some lanes", 32, NULL,
      "add.u32 %d, %t, 0xe0000000;\n"
      "    st.global.u32 [%o], %d;\n"
      "    setp.ge.u32 %p, %t, 16;\n"
      "    @%p exit;\n"
      "    add.u32 %d, %t, 0xa0000000;", ref_exit },
    /* the exited lanes leave every path of the caller too: past the caller's join they store
     * nothing (only the marker written before the branch stays) */
    { "exit in a .func called on one side of a divergent branch", 32,
      ".func stop_odd(.param .b32 k)\n"
      "{\n"
      "    .reg .b32 %k, %a;\n"
      "    .reg .pred %p;\n"
      "    ld.param.b32 %k, [k];\n"
      "    and.b32 %a, %k, 1;\n"
      "    setp.eq.u32 %p, %a, 1;\n"
      "    @%p exit;\n"
      "    ret;\n"
      "}\n",
      "add.u32 %d, %t, 0xe0000000;\n"
      "    st.global.u32 [%o], %d;\n"
      "    setp.lt.u32 %p, %t, 16;\n"
      "    @%p bra LOW;\n"
      "    mov.u32 %b, 7;\n"
      "    bra.uni JOIN;\n"
      "LOW:\n"
      "    {\n"
      "    .param .b32 q;\n"
      "    st.param.b32 [q], %t;\n"
      "    call stop_odd, (q);\n"
      "    }\n"
      "    mov.u32 %b, 5;\n"
      "JOIN:\n"
      "    add.u32 %d, %b, %t;", ref_exit_in_call },
    { "brx.idx jump table", 32, NULL,
      "and.b32 %a, %t, 3;\n"
      "    bra.uni DISPATCH;\n"
      "L0:\n"
      "    mov.u32 %b, 0;\n"
      "    bra.uni JOIN;\n"
      "L1:\n"
      "    mov.u32 %b, 111;\n"
      "    bra.uni JOIN;\n"
      "L2:\n"
      "    mov.u32 %b, 222;\n"
      "    bra.uni JOIN;\n"
      "L3:\n"
      "    mov.u32 %b, 333;\n"
      "    bra.uni JOIN;\n"
      "TARGETS: .branchtargets L0, L1, L2, L3;\n"
      "DISPATCH:\n"
      "    brx.idx %a, TARGETS;\n"
      "JOIN:\n"
      "    add.u32 %d, %b, %t;", ref_brx },
    { "bar.sync orders shared memory between warps", 96, NULL,
      "mad.lo.u32 %a, %t, 13, 7;\n"
      "    mul.wide.u32 %w, %t, 4;\n"
      "    mov.u64 %s, sh;\n"
      "    add.u64 %s, %s, %w;\n"
      "    st.shared.u32 [%s], %a;\n"
      "    bar.sync 0;\n"
      "    mov.u32 %b, %ntid.x;\n"
      "    sub.u32 %b, %b, 1;\n"
      "    sub.u32 %b, %b, %t;\n"
      "    mul.wide.u32 %w, %b, 4;\n"
      "    mov.u64 %s, sh;\n"
      "    add.u64 %s, %s, %w;\n"
      "    ld.shared.u32 %d, [%s];", ref_bar },
    { "bar.red.popc.u32, bar.red.and.pred, bar.red.or.pred", 96, NULL,
      "rem.u32 %a, %t, 3;\n"
      "    setp.eq.u32 %p, %a, 0;\n"
      "    bar.red.popc.u32 %d, 0, %p;\n"
      "    mov.u32 %b, %ntid.x;\n"
      "    setp.lt.u32 %p, %t, %b;\n"
      "    bar.red.and.pred %q, 1, %p;\n"
      "    selp.u32 %a, 0x10000, 0, %q;\n"
      "    or.b32 %d, %d, %a;\n"
      "    setp.eq.u32 %p, %t, 5;\n"
      "    bar.red.or.pred %q, 2, %p;\n"
      "    selp.u32 %a, 0x20000, 0, %q;\n"
      "    or.b32 %d, %d, %a;", ref_barred },
    { "bra.uni in a uniform loop", 32, NULL,
      "mov.u32 %d, %t;\n"
      "    mov.u32 %a, 0;\n"
      "LOOP:\n"
      "    add.u32 %d, %d, 5;\n"
      "    add.u32 %a, %a, 1;\n"
      "    setp.lt.u32 %p, %a, 8;\n"
      "    @!%p bra.uni DONE;\n"
      "    bra.uni LOOP;\n"
      "DONE:", ref_uni },
    { ".func returning .pred", 32,
      ".func (.reg .pred %r) lt10(.reg .u32 %x)\n{\n    setp.lt.u32 %r, %x, 10;\n    ret;\n}\n",
      "call (%p), lt10, (%t);\n"
      "    selp.u32 %d, 7, 9, %p;", ref_pred_ret },
    { ".func taking .pred", 32,
      ".func (.reg .u32 %r) sel(.reg .pred %c, .reg .u32 %x)\n{\n"
      "    @%c add.u32 %r, %x, 100;\n    @!%c mov.u32 %r, %x;\n    ret;\n}\n",
      "setp.gt.u32 %p, %t, 20;\n"
      "    call (%d), sel, (%p, %t);", ref_pred_arg },
    { "three return values, .reg and .param", 32,
      ".func (.reg .u32 %ra, .reg .u32 %rb, .param .u32 rc) three(.reg .u32 %x)\n{\n"
      "    add.u32 %ra, %x, 1;\n    mul.lo.u32 %rb, %x, 3;\n    st.param.u32 [rc], 5;\n"
      "    ret;\n}\n",
      "{\n    .param .u32 c;\n    call (%a, %b, c), three, (%t);\n    ld.param.u32 %d, [c];\n    }\n"
      "    add.u32 %d, %d, %a;\n    add.u32 %d, %d, %b;", ref_three_rets },
    { ".v4 .reg parameter, .v2 .reg return value", 32,
      ".func (.reg .v2 .u32 %r) mix(.reg .v4 .u32 %v)\n{\n"
      "    add.u32 %r.x, %v.x, %v.w;\n    mul.lo.u32 %r.y, %v.g, %v.b;\n    ret;\n}\n",
      "{\n    .reg .v4 .u32 %vv;\n    .reg .v2 .u32 %rr;\n"
      "    mov.v4.u32 %vv, {%t, 2, 3, 40};\n    call (%rr), mix, (%vv);\n"
      "    add.u32 %d, %rr.x, %rr.y;\n"
      "    call (%rr), mix, ({%t, %t, 1, 1});\n"
      "    add.u32 %d, %d, %rr.x;\n    add.u32 %d, %d, %rr.y;\n    }", ref_vec_param },
    { ".global declared in a .func body keeps its value", 64,
      ".func (.reg .u32 %r) bump()\n{\n    .global .align 4 .u32 cnt = 100;\n"
      "    atom.global.add.u32 %r, [cnt], 1;\n    bar.sync 0;\n"
      "    ld.volatile.global.u32 %r, [cnt];\n    bar.sync 0;\n    ret;\n}\n",
      "call (%a), bump, ();\n"
      "    call (%b), bump, ();\n"
      "    add.u32 %d, %a, %b;", ref_fscope_static },
    { ".v4 .s8 .reg parameters (sub-word vectors)", 32,
      ".func (.reg .s32 %r) dot(.reg .v4 .s8 %x, .reg .v4 .s8 %y)\n{\n"
      "    .reg .s32 %p, %q;\n"
      "    cvt.s32.s8 %p, %x.x;\n    cvt.s32.s8 %q, %y.x;\n    mul.lo.s32 %r, %p, %q;\n"
      "    cvt.s32.s8 %p, %x.y;\n    cvt.s32.s8 %q, %y.y;\n    mad.lo.s32 %r, %p, %q, %r;\n"
      "    cvt.s32.s8 %p, %x.z;\n    cvt.s32.s8 %q, %y.z;\n    mad.lo.s32 %r, %p, %q, %r;\n"
      "    cvt.s32.s8 %p, %x.w;\n    cvt.s32.s8 %q, %y.w;\n    mad.lo.s32 %r, %p, %q, %r;\n"
      "    ret;\n}\n",
      "{\n    .reg .v4 .s8 %u, %v;\n"
      "    mul.lo.u32 %a, %t, 0x01FF0203;\n    mov.b32 %u, %a;\n"
      "    xor.b32 %a, %a, 0x80808080;\n    mov.b32 %v, %a;\n"
      "    call (%d), dot, (%u, %v);\n    }", ref_s8_dot },
};

START_TEST(control_case)
{
    const ctl_case *c = &cases[_i];
    char ptx[8192];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             "%s\n"
             ".visible .entry k(.param .u64 pout)\n"
             "{\n"
             "    .shared .align 4 .b8 sh[1024];\n"
             "    .reg .b64 %%o, %%w, %%s;\n"
             "    .reg .b32 %%t, %%d, %%a, %%b;\n"
             "    .reg .pred %%p, %%q;\n"
             "    ld.param.u64 %%o, [pout];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%w, %%t, 4;\n"
             "    add.u64 %%o, %%o, %%w;\n"
             "    %s\n"
             "    st.global.u32 [%%o], %%d;\n"
             "    ret;\n"
             "}\n",
             c->funcs ? c->funcs : "", c->body);
    uint32_t *out = conf_dev_alloc(4 * (size_t)c->n);
    memset(out, 0xee, 4 * (size_t)c->n);
    uint64_t params[1] = { conf_dev_addr(out) };
    conf_result r;
    if (conf_run_k(c->name, ptx, DIM(1, 1, 1), DIM((uint32_t)c->n, 1, 1), 0, params, 1, &r) != CONF_OK)
        ck_abort_msg("%s", r.message);
    for (int t = 0; t < c->n; t++) {
        uint32_t want = c->ref((uint32_t)t, c->n);
        ck_assert_msg(out[t] == want, "%s: thread %d: want 0x%x (%u) got 0x%x (%u)", c->name, t, want, want, out[t], out[t]);
    }
    conf_dev_free(out);
}
END_TEST

START_TEST(trap_fault)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .b32 %t;\n"
        "    .reg .pred %p;\n"
        "    mov.u32 %t, %tid.x;\n"
        "    setp.eq.u32 %p, %t, 9;\n"
        "    @%p trap; // TRAP HERE\n"
        "    ret;\n"
        "}\n";
    uint64_t params[1] = { 0 };
    conf_result r;
    conf_status st = conf_run_k("trap", ptx, DIM(2, 1, 1), DIM(32, 1, 1), 0, params, 1, &r);
    ck_assert_msg(st == CONF_FAULTED, "trap: want a fault, got '%s': %s", conf_status_name(st), r.message);
    ck_assert_msg(r.fault.kind == EMU_FAULT_TRAP, "trap: want EMU_FAULT_TRAP got %s", emu_fault_kind_name(r.fault.kind));
    ck_assert_msg(r.fault.thread.x == 9, "trap: the fault names thread %u, thread 9 trapped", r.fault.thread.x);
    ck_assert_msg(r.fault.ptx_line == conf_line_of(ptx, "// TRAP HERE"), "trap: the fault names PTX line %u, want %u",
                  r.fault.ptx_line, conf_line_of(ptx, "// TRAP HERE"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_control");
    TCase *tc = tcase_create("control flow");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, control_case, 0, (int)CONF_N(cases));
    tcase_add_test(tc, trap_fault);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
