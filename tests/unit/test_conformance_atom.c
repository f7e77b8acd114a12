/* test_conformance_atom.c: PTX atom and red against the PTX ISA (sections 9.7.13.5, 9.7.13.6).
 *
 * Per lane (one address per lane): atom.global / atom.shared with add (u32, s32, u64, f32,
 * f64), min/max (s32, u32, s64, u64), inc/dec with their wrap rules, cas (b32, b64), exch,
 * and/or/xor; red with add/min/or. Each row checks the returned old value and the memory
 * afterwards. The ISA's definitions: inc(r, s) = (r >= s) ? 0 : r + 1;
 * dec(r, s) = (r == 0 || r > s) ? s : r - 1; cas(r, s, t) = (r == s) ? t : r; f32/f64 add
 * rounds to nearest even (subnormals avoided: global f32 atomics flush them).
 *
 * Under contention (many lanes, warps and CTAs on one address): the sum must be exact and the
 * returned old values must form a valid serial order (sorted, each is the previous one plus
 * that lane's operand); inc/dec wrap histograms; exch returns a permutation; a CAS retry loop
 * with divergent lanes counts every thread exactly once; red on global and shared memory.
 */
#include "tests/unit/conformance_harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

typedef enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_CAS, A_EXCH, A_AND, A_OR, A_XOR } aop_t;
typedef enum { K_U32, K_S32, K_U64, K_S64, K_F32, K_F64 } akind_t;

typedef struct arow {
    uint64_t init, b, c;
} arow;

typedef struct aform {
    const char *name;
    const char *text;   /* the instruction: %old, [%a], %b, %c */
    const char *type;   /* register type */
    akind_t kind;
    aop_t op;
    bool shared;
    bool has_old;
    const arow *rows;
    size_t nrows;
} aform;

static uint64_t apply(aop_t op, akind_t k, uint64_t r, uint64_t s, uint64_t t)
{
    bool wide = k == K_U64 || k == K_S64 || k == K_F64;
    uint64_t m = wide ? ~0ull : 0xffffffffull;
    r &= m;
    s &= m;
    t &= m;
    switch (op) {
    case A_ADD:
        if (k == K_F32) return conf_b32(conf_add32(conf_f32(r), conf_f32(s), CONF_RN));
        if (k == K_F64) return conf_b64(conf_add64(conf_f64(r), conf_f64(s), CONF_RN));
        return (r + s) & m;
    case A_MIN:
    case A_MAX: {
        bool less;
        if (k == K_S32) less = (int32_t)(uint32_t)r < (int32_t)(uint32_t)s;
        else if (k == K_S64) less = (int64_t)r < (int64_t)s;
        else less = r < s;
        return (op == A_MIN) == less ? r : s;
    }
    case A_INC: return r >= s ? 0 : (r + 1) & m;
    case A_DEC: return (r == 0 || r > s) ? s : r - 1;
    case A_CAS: return r == s ? t : r;
    case A_EXCH: return s;
    case A_AND: return r & s;
    case A_OR: return r | s;
    default: return r ^ s;
    }
}

static const arow r_add_u32[] = { { 5, 7, 0 }, { 0xffffffff, 1, 0 }, { 0x80000000, 0x80000000, 0 }, { 0, 0, 0 }, { 123456, 0xfffffff0, 0 } };
static const arow r_add_s32[] = { { 5, (uint32_t)-7, 0 }, { 0x7fffffff, 1, 0 }, { (uint32_t)-1, (uint32_t)-1, 0 } };
static const arow r_add_u64[] = { { 0xffffffff, 1, 0 }, { ~0ull, 2, 0 }, { 0x123456789ull, 0x987654321ull, 0 } };
static const arow r_add_f32[] = {
    { 0x3f800000, 0x40000000, 0 }, { 0x3f800000, 0x33800000, 0 }, { 0x3f800001, 0x33800000, 0 }, { 0xbf800000, 0x3f800000, 0 },
    { 0x7f7fffff, 0x7f7fffff, 0 }, { 0x3dcccccd, 0x3e4ccccd, 0 },
};
static const arow r_add_f64[] = {
    { 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0 }, { 0x3fb999999999999aull, 0x3fc999999999999aull, 0 },
    { 0xbff0000000000000ull, 0x4008000000000000ull, 0 },
};
static const arow r_minmax_s32[] = { { 5, 7, 0 }, { 7, 5, 0 }, { (uint32_t)-1, 1, 0 }, { 0x80000000, 0x7fffffff, 0 }, { 3, 3, 0 } };
static const arow r_minmax_u64[] = { { 5, 7, 0 }, { ~0ull, 1, 0 }, { 0x100000000ull, 0xffffffffull, 0 } };
static const arow r_minmax_s64[] = { { ~0ull, 1, 0 }, { 0x8000000000000000ull, 0, 0 }, { 9, 8, 0 } };
static const arow r_inc[] = { { 0, 9, 0 }, { 8, 9, 0 }, { 9, 9, 0 }, { 15, 9, 0 }, { 0, 0, 0 }, { 0xfffffffe, 0xffffffff, 0 }, { 0xffffffff, 0xffffffff, 0 } };
static const arow r_dec[] = { { 0, 9, 0 }, { 1, 9, 0 }, { 9, 9, 0 }, { 15, 9, 0 }, { 5, 9, 0 }, { 0, 0, 0 } };
static const arow r_cas32[] = { { 5, 5, 77 }, { 5, 6, 77 }, { 0xffffffff, 0xffffffff, 0 }, { 0, 0, 0xdeadbeef } };
static const arow r_cas64[] = { { 0x123456789ull, 0x123456789ull, 1 }, { 0x123456789ull, 0x23456789ull, 1 }, { ~0ull, ~0ull, 0x8000000000000000ull } };
static const arow r_exch[] = { { 5, 9, 0 }, { 0xffffffff, 0, 0 }, { 0, 0x80000001, 0 } };
static const arow r_exch64[] = { { 5, 0x900000009ull, 0 }, { ~0ull, 0, 0 } };
static const arow r_bits[] = { { 0xf0f0f0f0, 0xff00ff00, 0 }, { 0x12345678, 0xffffffff, 0 }, { 0, 0x80000001, 0 } };
static const arow r_bits64[] = { { 0xf0f0f0f0f0f0f0f0ull, 0xff00ff00ff00ff00ull, 0 }, { 0x8000000000000001ull, 1, 0 } };

#define AF(name, text, type, kind, op, shared, old, rows) { name, text, type, kind, op, shared, old, rows, CONF_N(rows) }
static const aform forms[] = {
    AF("atom.global.add.u32", "atom.global.add.u32 %old, [%a], %b;", "u32", K_U32, A_ADD, false, true, r_add_u32),
    AF("atom.global.add.s32", "atom.global.add.s32 %old, [%a], %b;", "s32", K_S32, A_ADD, false, true, r_add_s32),
    AF("atom.global.add.u64", "atom.global.add.u64 %old, [%a], %b;", "u64", K_U64, A_ADD, false, true, r_add_u64),
    AF("atom.global.add.f32", "atom.global.add.f32 %old, [%a], %b;", "f32", K_F32, A_ADD, false, true, r_add_f32),
    AF("atom.global.add.f64", "atom.global.add.f64 %old, [%a], %b;", "f64", K_F64, A_ADD, false, true, r_add_f64),
    AF("atom.add.u32 (generic address)", "atom.add.u32 %old, [%a], %b;", "u32", K_U32, A_ADD, false, true, r_add_u32),
    AF("atom.global.min.s32", "atom.global.min.s32 %old, [%a], %b;", "s32", K_S32, A_MIN, false, true, r_minmax_s32),
    AF("atom.global.max.s32", "atom.global.max.s32 %old, [%a], %b;", "s32", K_S32, A_MAX, false, true, r_minmax_s32),
    AF("atom.global.min.u32", "atom.global.min.u32 %old, [%a], %b;", "u32", K_U32, A_MIN, false, true, r_minmax_s32),
    AF("atom.global.max.u32", "atom.global.max.u32 %old, [%a], %b;", "u32", K_U32, A_MAX, false, true, r_minmax_s32),
    AF("atom.global.max.u64", "atom.global.max.u64 %old, [%a], %b;", "u64", K_U64, A_MAX, false, true, r_minmax_u64),
    AF("atom.global.min.s64", "atom.global.min.s64 %old, [%a], %b;", "s64", K_S64, A_MIN, false, true, r_minmax_s64),
    AF("atom.global.inc.u32", "atom.global.inc.u32 %old, [%a], %b;", "u32", K_U32, A_INC, false, true, r_inc),
    AF("atom.global.dec.u32", "atom.global.dec.u32 %old, [%a], %b;", "u32", K_U32, A_DEC, false, true, r_dec),
    AF("atom.global.cas.b32", "atom.global.cas.b32 %old, [%a], %b, %c;", "b32", K_U32, A_CAS, false, true, r_cas32),
    AF("atom.global.cas.b64", "atom.global.cas.b64 %old, [%a], %b, %c;", "b64", K_U64, A_CAS, false, true, r_cas64),
    AF("atom.global.exch.b32", "atom.global.exch.b32 %old, [%a], %b;", "b32", K_U32, A_EXCH, false, true, r_exch),
    AF("atom.global.exch.b64", "atom.global.exch.b64 %old, [%a], %b;", "b64", K_U64, A_EXCH, false, true, r_exch64),
    AF("atom.global.and.b32", "atom.global.and.b32 %old, [%a], %b;", "b32", K_U32, A_AND, false, true, r_bits),
    AF("atom.global.or.b32", "atom.global.or.b32 %old, [%a], %b;", "b32", K_U32, A_OR, false, true, r_bits),
    AF("atom.global.xor.b32", "atom.global.xor.b32 %old, [%a], %b;", "b32", K_U32, A_XOR, false, true, r_bits),
    AF("atom.global.and.b64", "atom.global.and.b64 %old, [%a], %b;", "b64", K_U64, A_AND, false, true, r_bits64),
    AF("atom.global.relaxed.gpu.add.u32", "atom.global.relaxed.gpu.add.u32 %old, [%a], %b;", "u32", K_U32, A_ADD, false, true, r_add_u32),
    AF("atom.shared.add.u32", "atom.shared.add.u32 %old, [%a], %b;", "u32", K_U32, A_ADD, true, true, r_add_u32),
    AF("atom.shared.add.f32", "atom.shared.add.f32 %old, [%a], %b;", "f32", K_F32, A_ADD, true, true, r_add_f32),
    AF("atom.shared.min.s32", "atom.shared.min.s32 %old, [%a], %b;", "s32", K_S32, A_MIN, true, true, r_minmax_s32),
    AF("atom.shared.inc.u32", "atom.shared.inc.u32 %old, [%a], %b;", "u32", K_U32, A_INC, true, true, r_inc),
    AF("atom.shared.cas.b32", "atom.shared.cas.b32 %old, [%a], %b, %c;", "b32", K_U32, A_CAS, true, true, r_cas32),
    AF("atom.shared.exch.b64", "atom.shared.exch.b64 %old, [%a], %b;", "b64", K_U64, A_EXCH, true, true, r_exch64),
    AF("atom.shared.xor.b32", "atom.shared.xor.b32 %old, [%a], %b;", "b32", K_U32, A_XOR, true, true, r_bits),
    AF("red.global.add.u32", "red.global.add.u32 [%a], %b;", "u32", K_U32, A_ADD, false, false, r_add_u32),
    AF("red.global.add.f32", "red.global.add.f32 [%a], %b;", "f32", K_F32, A_ADD, false, false, r_add_f32),
    AF("red.global.min.s32", "red.global.min.s32 [%a], %b;", "s32", K_S32, A_MIN, false, false, r_minmax_s32),
    AF("red.global.or.b32", "red.global.or.b32 [%a], %b;", "b32", K_U32, A_OR, false, false, r_bits),
    AF("red.shared.add.u64", "red.shared.add.u64 [%a], %b;", "u64", K_U64, A_ADD, true, false, r_add_u64),
    AF("red.global.dec.u32", "red.global.dec.u32 [%a], %b;", "u32", K_U32, A_DEC, false, false, r_dec),
};

typedef struct form_run {
    conf_status status;
    char message[4096];
    uint64_t old[32], mem[32];
} form_run;

static form_run *run_form(size_t fi)
{
    static form_run *runs[CONF_N(forms)];
    if (runs[fi]) return runs[fi];
    form_run *fr = calloc(1, sizeof *fr);
    runs[fi] = fr;
    const aform *f = &forms[fi];
    char ptx[4096];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pmem, .param .u64 pb, .param .u64 pc, .param .u64 pout)\n"
             "{\n"
             "    .shared .align 8 .b8 sh[512];\n"
             "    .reg .b64 %%mem, %%pb, %%pc, %%pout, %%off, %%a, %%s;\n"
             "    .reg .b32 %%t;\n"
             "    .reg .%s %%b, %%c, %%old, %%x;\n"
             "    ld.param.u64 %%mem, [pmem];\n"
             "    ld.param.u64 %%pb, [pb];\n"
             "    ld.param.u64 %%pc, [pc];\n"
             "    ld.param.u64 %%pout, [pout];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%off, %%t, 8;\n"
             "    add.u64 %%a, %%mem, %%off;\n"
             "    add.u64 %%pb, %%pb, %%off;\n"
             "    add.u64 %%pc, %%pc, %%off;\n"
             "    add.u64 %%pout, %%pout, %%off;\n"
             "    ld.global.%s %%b, [%%pb];\n"
             "    ld.global.%s %%c, [%%pc];\n"
             "    ld.global.%s %%old, [%%pout];\n"
             "%s"
             "    %s\n"
             "%s"
             "    st.global.%s [%%pout], %%old;\n"
             "    ret;\n"
             "}\n",
             f->type, f->type, f->type, f->type,
             f->shared ? "    mov.u64 %s, sh;\n    add.u64 %s, %s, %off;\n    ld.global.%TYPE %x, [%a];\n"
                         "    st.shared.%TYPE [%s], %x;\n    bar.sync 0;\n    mov.u64 %a, %s;\n" : "",
             f->text,
             f->shared ? "    bar.sync 0;\n    ld.shared.%TYPE %x, [%s];\n    add.u64 %a, %mem, %off;\n"
                         "    st.global.%TYPE [%a], %x;\n" : "",
             f->type);
    /* the shared-memory copy code names the type as %TYPE */
    for (char *p; (p = strstr(ptx, "%TYPE"));) {
        size_t tl = strlen(f->type);
        memmove(p + tl, p + 5, strlen(p + 5) + 1);
        memcpy(p, f->type, tl);
    }
    uint64_t *mem = conf_dev_alloc(32 * 8), *b = conf_dev_alloc(32 * 8), *c = conf_dev_alloc(32 * 8),
             *out = conf_dev_alloc(32 * 8);
    for (size_t i = 0; i < 32; i++) {
        const arow *r = &f->rows[i < f->nrows ? i : 0];
        mem[i] = r->init;
        b[i] = r->b;
        c[i] = r->c;
        out[i] = 0x5a5a5a5a5a5a5a5aull;
    }
    /* rows past the table must not touch the rows' addresses: give them their own slots */
    uint64_t params[4] = { conf_dev_addr(mem), conf_dev_addr(b), conf_dev_addr(c), conf_dev_addr(out) };
    conf_result res;
    fr->status = conf_run_k(f->name, ptx, DIM(1, 1, 1), DIM(32, 1, 1), 0, params, 4, &res);
    snprintf(fr->message, sizeof fr->message, "%s", res.message);
    memcpy(fr->old, out, sizeof fr->old);
    memcpy(fr->mem, mem, sizeof fr->mem);
    return fr;
}

START_TEST(atom_row)
{
    size_t fi = 0, row = (size_t)_i;
    while (row >= forms[fi].nrows) row -= forms[fi++].nrows;
    const aform *f = &forms[fi];
    const arow *r = &f->rows[row];
    form_run *fr = run_form(fi);
    if (fr->status != CONF_OK) ck_abort_msg("%s row %zu: %s", f->name, row, fr->message);
    bool wide = f->kind == K_U64 || f->kind == K_S64 || f->kind == K_F64;
    uint64_t m = wide ? ~0ull : 0xffffffffull;
    uint64_t want_mem = apply(f->op, f->kind, r->init, r->b, r->c);
    if (f->has_old)
        ck_assert_msg((fr->old[row] & m) == (r->init & m),
                      "%s [row %zu] mem=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": returned 0x%" PRIx64 ", the old value is 0x%" PRIx64,
                      f->name, row, r->init, r->b, r->c, fr->old[row] & m, r->init & m);
    ck_assert_msg((fr->mem[row] & m) == want_mem,
                  "%s [row %zu] mem=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": memory afterwards want 0x%" PRIx64 " got 0x%" PRIx64,
                  f->name, row, r->init, r->b, r->c, want_mem, fr->mem[row] & m);
    if (!wide)
        ck_assert_msg((fr->mem[row] >> 32) == (r->init >> 32), "%s [row %zu]: a 32-bit atomic changed the next word", f->name, row);
}
END_TEST

/* ---------------------------------------------------------------- contention */

static void run_ok(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block, const uint64_t *params, int n)
{
    conf_result r;
    if (conf_run_k(name, ptx, grid, block, 0, params, n, &r) != CONF_OK) ck_abort_msg("%s", r.message);
}

static int cmp_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The old values returned to lanes adding v[i] to one address starting at init must be the
 * prefix sums of some order of the lanes. */
static void check_serial_sum(const char *name, const uint32_t *old, const uint32_t *v, int n, uint32_t init, uint32_t final)
{
    uint64_t (*pairs)[2] = malloc(sizeof(uint64_t[2]) * (size_t)n);
    for (int i = 0; i < n; i++) {
        pairs[i][0] = old[i];
        pairs[i][1] = v[i];
    }
    qsort(pairs, (size_t)n, sizeof pairs[0], cmp_pair);
    uint64_t acc = init;
    for (int i = 0; i < n; i++) {
        ck_assert_msg(pairs[i][0] == acc, "%s: returned old values are not a serial order: the %d-th smallest is %" PRIu64
                      ", expected %" PRIu64, name, i, pairs[i][0], acc);
        acc += pairs[i][1];
    }
    ck_assert_msg(acc == final, "%s: final value %u, the operands sum to %" PRIu64, name, final, acc);
    free(pairs);
}

START_TEST(contention_add)
{
    /* grid x block threads add (global index + 1) to one word; each stores its old value */
    static const struct { const char *name; uint32_t grid, block; bool shared; } cfg[] = {
        { "atom.global.add.u32: 32 lanes, one address", 1, 32, false },
        { "atom.global.add.u32: 4 CTAs x 64 threads, one address", 4, 64, false },
        { "atom.shared.add.u32: 128 threads, one address", 1, 128, true },
    };
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pmem, .param .u64 pout, .param .u64 pflag)\n"
        "{\n"
        "    .shared .align 4 .u32 cnt;\n"
        "    .reg .b64 %mem, %out, %off, %fl;\n"
        "    .reg .b32 %t, %v, %old, %f, %c;\n"
        "    .reg .pred %p, %z;\n"
        "    ld.param.u64 %mem, [pmem];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    ld.param.u64 %fl, [pflag];\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mov.u32 %v, %ntid.x;\n"
        "    mad.lo.u32 %t, %t, %v, %tid.x;\n"
        "    add.u32 %v, %t, 1;\n"
        "    ld.global.u32 %f, [%fl];\n"
        "    setp.ne.u32 %p, %f, 0;\n"
        "    mov.u32 %c, %tid.x;\n"
        "    setp.eq.u32 %z, %c, 0;\n"
        "    @%p bra SHARED;\n"
        "    atom.global.add.u32 %old, [%mem], %v;\n"
        "    bra.uni DONE;\n"
        "SHARED:\n"
        "    @%z st.shared.u32 [cnt], 1000;\n"
        "    bar.sync 0;\n"
        "    atom.shared.add.u32 %old, [cnt], %v;\n"
        "    bar.sync 0;\n"
        "    ld.shared.u32 %c, [cnt];\n"
        "    @%z st.global.u32 [%mem], %c;\n"
        "DONE:\n"
        "    mul.wide.u32 %off, %t, 4;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u32 [%out], %old;\n"
        "    ret;\n"
        "}\n";
    uint32_t n = cfg[_i].grid * cfg[_i].block;
    uint32_t *mem = conf_dev_alloc(4), *out = conf_dev_alloc(4 * n), *flag = conf_dev_alloc(4);
    *flag = cfg[_i].shared;
    *mem = 0;
    uint64_t params[3] = { conf_dev_addr(mem), conf_dev_addr(out), conf_dev_addr(flag) };
    run_ok(cfg[_i].name, ptx, DIM(cfg[_i].grid, 1, 1), DIM(cfg[_i].block, 1, 1), params, 3);
    uint32_t *v = malloc(4 * n);
    for (uint32_t i = 0; i < n; i++) v[i] = i + 1;
    uint32_t init = cfg[_i].shared ? 1000 : 0;
    ck_assert_msg(*mem == init + n * (n + 1) / 2, "%s: final %u, want %u", cfg[_i].name, *mem, init + n * (n + 1) / 2);
    check_serial_sum(cfg[_i].name, out, v, (int)n, init, *mem);
    free(v);
}
END_TEST

START_TEST(contention_float)
{
    /* 64 lanes add small integers to an f32 and an f64: every partial sum is exact */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pf, .param .u64 pd)\n"
        "{\n"
        "    .reg .b64 %pf, %pd;\n"
        "    .reg .b32 %t;\n"
        "    .reg .f32 %f, %of;\n"
        "    .reg .f64 %d, %od;\n"
        "    ld.param.u64 %pf, [pf];\n"
        "    ld.param.u64 %pd, [pd];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    cvt.rn.f32.u32 %f, %t;\n"
        "    cvt.rn.f64.u32 %d, %t;\n"
        "    atom.global.add.f32 %of, [%pf], %f;\n"
        "    atom.global.add.f64 %od, [%pd], %d;\n"
        "    ret;\n"
        "}\n";
    float *pf = conf_dev_alloc(4);
    double *pd = conf_dev_alloc(8);
    *pf = 0.5f;
    *pd = -0.25;
    uint64_t params[2] = { conf_dev_addr(pf), conf_dev_addr(pd) };
    run_ok("atom.add.f32/f64 contention", ptx, DIM(1, 1, 1), DIM(64, 1, 1), params, 2);
    ck_assert_msg(*pf == 0.5f + 2016.0f, "atom.global.add.f32 of 0..63 onto 0.5: want 2016.5 got %.9g", *pf);
    ck_assert_msg(*pd == -0.25 + 2016.0, "atom.global.add.f64 of 0..63 onto -0.25: want 2015.75 got %.17g", *pd);
}
END_TEST

START_TEST(contention_incdec)
{
    /* 32 lanes: inc with bound 9 from 0 and dec with bound 9 from 3. Whatever the order, the
     * old values are the first 32 steps of the wrapping sequence. */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pm, .param .u64 po)\n"
        "{\n"
        "    .reg .b64 %m, %o, %off;\n"
        "    .reg .b32 %t, %a, %b;\n"
        "    ld.param.u64 %m, [pm];\n"
        "    ld.param.u64 %o, [po];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    atom.global.inc.u32 %a, [%m], 9;\n"
        "    atom.global.dec.u32 %b, [%m+4], 9;\n"
        "    mul.wide.u32 %off, %t, 8;\n"
        "    add.u64 %o, %o, %off;\n"
        "    st.global.v2.u32 [%o], {%a, %b};\n"
        "    ret;\n"
        "}\n";
    uint32_t *m = conf_dev_alloc(8), *o = conf_dev_alloc(32 * 8);
    m[0] = 0;
    m[1] = 3;
    uint64_t params[2] = { conf_dev_addr(m), conf_dev_addr(o) };
    run_ok("atom.inc/dec contention", ptx, DIM(1, 1, 1), DIM(32, 1, 1), params, 2);
    ck_assert_msg(m[0] == 2, "atom.inc bound 9, 32 times from 0: want 2 got %u", m[0]);
    ck_assert_msg(m[1] == 1, "atom.dec bound 9, 32 times from 3: want 1 got %u", m[1]);
    int hi[10] = { 0 }, hd[10] = { 0 }, wi[10] = { 0 }, wd[10] = { 0 };
    for (uint32_t k = 0, x = 0, y = 3; k < 32; k++) {
        wi[x]++;
        wd[y]++;
        x = x >= 9 ? 0 : x + 1;
        y = (y == 0 || y > 9) ? 9 : y - 1;
    }
    for (int t = 0; t < 32; t++) {
        ck_assert_msg(o[2 * t] < 10 && o[2 * t + 1] < 10, "lane %d: inc/dec returned %u / %u, outside [0, 9]", t, o[2 * t], o[2 * t + 1]);
        hi[o[2 * t]]++;
        hd[o[2 * t + 1]]++;
    }
    for (int v = 0; v < 10; v++) {
        ck_assert_msg(hi[v] == wi[v], "atom.inc: old value %d returned %d times, want %d", v, hi[v], wi[v]);
        ck_assert_msg(hd[v] == wd[v], "atom.dec: old value %d returned %d times, want %d", v, hd[v], wd[v]);
    }
}
END_TEST

START_TEST(contention_exch_minmax)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pm, .param .u64 po)\n"
        "{\n"
        "    .reg .b64 %m, %o, %off;\n"
        "    .reg .b32 %t, %v, %a, %b, %c;\n"
        "    ld.param.u64 %m, [pm];\n"
        "    ld.param.u64 %o, [po];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mad.lo.u32 %v, %t, 3, 100;\n"
        "    atom.global.exch.b32 %a, [%m], %v;\n"
        "    sub.s32 %v, %t, 20;\n"
        "    atom.global.max.s32 %b, [%m+4], %v;\n"
        "    atom.global.min.s32 %c, [%m+8], %v;\n"
        "    mul.wide.u32 %off, %t, 4;\n"
        "    add.u64 %o, %o, %off;\n"
        "    st.global.u32 [%o], %a;\n"
        "    ret;\n"
        "}\n";
    uint32_t *m = conf_dev_alloc(12), *o = conf_dev_alloc(64 * 4);
    m[0] = 7;
    m[1] = (uint32_t)-100;
    m[2] = 100;
    uint64_t params[2] = { conf_dev_addr(m), conf_dev_addr(o) };
    run_ok("atom.exch/min/max contention", ptx, DIM(1, 1, 1), DIM(64, 1, 1), params, 2);
    ck_assert_msg((int32_t)m[1] == 43, "atom.max.s32 of t-20 for t < 64 from -100: want 43 got %d", (int32_t)m[1]);
    ck_assert_msg((int32_t)m[2] == -20, "atom.min.s32 of t-20 for t < 64 from 100: want -20 got %d", (int32_t)m[2]);
    /* exch: the old values plus the final value are the initial value plus every operand */
    int seen[64 * 3 + 101] = { 0 };
    seen[7]++;
    for (int t = 0; t < 64; t++) seen[t * 3 + 100]++;
    for (int t = 0; t < 64; t++) {
        ck_assert_msg(o[t] < CONF_N(seen) && seen[o[t]] == 1, "atom.exch: lane %d got %u, not an unreturned value", t, o[t]);
        seen[o[t]]--;
    }
    ck_assert_msg(m[0] < CONF_N(seen) && seen[m[0]] == 1, "atom.exch: final value %u is not the one value left", m[0]);
}
END_TEST

START_TEST(contention_cas_loop)
{
    /* Every thread increments a counter with a compare-and-swap retry loop; the lanes of a
     * warp diverge (only one wins each round). 4 CTAs x 64 threads: the count must be 256
     * and every thread's ticket unique. */
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pm, .param .u64 po)\n"
        "{\n"
        "    .reg .b64 %m, %o, %off;\n"
        "    .reg .b32 %t, %n, %cur, %new, %got;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %m, [pm];\n"
        "    ld.param.u64 %o, [po];\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mov.u32 %n, %ntid.x;\n"
        "    mad.lo.u32 %t, %t, %n, %tid.x;\n"
        "    ld.volatile.global.u32 %cur, [%m];\n"
        "RETRY:\n"
        "    add.u32 %new, %cur, 1;\n"
        "    atom.global.cas.b32 %got, [%m], %cur, %new;\n"
        "    setp.ne.u32 %p, %got, %cur;\n"
        "    mov.u32 %cur, %got;\n"
        "    @%p bra RETRY;\n"
        "    mul.wide.u32 %off, %t, 4;\n"
        "    add.u64 %o, %o, %off;\n"
        "    st.global.u32 [%o], %got;\n"
        "    ret;\n"
        "}\n";
    enum { N = 256 };
    uint32_t *m = conf_dev_alloc(4), *o = conf_dev_alloc(N * 4);
    uint64_t params[2] = { conf_dev_addr(m), conf_dev_addr(o) };
    run_ok("atom.cas retry loop", ptx, DIM(4, 1, 1), DIM(64, 1, 1), params, 2);
    ck_assert_msg(*m == N, "CAS loop: counter want %d got %u", N, *m);
    int seen[N] = { 0 };
    for (int i = 0; i < N; i++) {
        ck_assert_msg(o[i] < N && !seen[o[i]], "CAS loop: thread %d got ticket %u twice or out of range", i, o[i]);
        seen[o[i]] = 1;
    }
}
END_TEST

START_TEST(contention_red)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pm)\n"
        "{\n"
        "    .shared .align 4 .b32 bits;\n"
        "    .reg .b64 %m;\n"
        "    .reg .b32 %t, %b, %s, %x;\n"
        "    .reg .pred %z;\n"
        "    ld.param.u64 %m, [pm];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    setp.eq.u32 %z, %t, 0;\n"
        "    @%z st.shared.u32 [bits], 0;\n"
        "    bar.sync 0;\n"
        "    red.global.add.u32 [%m], %t;\n"
        "    and.b32 %s, %t, 31;\n"
        "    shl.b32 %b, 1, %s;\n"
        "    red.shared.or.b32 [bits], %b;\n"
        "    red.global.xor.b32 [%m+4], %b;\n"
        "    bar.sync 0;\n"
        "    ld.shared.u32 %x, [bits];\n"
        "    @%z st.global.u32 [%m+8], %x;\n"
        "    ret;\n"
        "}\n";
    uint32_t *m = conf_dev_alloc(12);
    m[0] = 5;
    m[1] = 0;
    uint64_t params[1] = { conf_dev_addr(m) };
    run_ok("red contention", ptx, DIM(1, 1, 1), DIM(96, 1, 1), params, 1);
    ck_assert_msg(m[0] == 5 + 95 * 96 / 2, "red.global.add.u32 of 0..95 onto 5: want %u got %u", 5 + 95 * 96 / 2, m[0]);
    ck_assert_msg(m[1] == 0xffffffffu, "red.global.xor.b32: every bit flipped three times: want 0xffffffff got 0x%x", m[1]);
    ck_assert_msg(m[2] == 0xffffffffu, "red.shared.or.b32 of all 32 bits: want 0xffffffff got 0x%x", m[2]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_atom");
    size_t rows = 0;
    for (size_t i = 0; i < CONF_N(forms); i++) rows += forms[i].nrows;
    TCase *tc = tcase_create("atom/red per lane");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, atom_row, 0, (int)rows);
    suite_add_tcase(s, tc);
    tc = tcase_create("atomics under contention");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, contention_add, 0, 3);
    tcase_add_test(tc, contention_float);
    tcase_add_test(tc, contention_incdec);
    tcase_add_test(tc, contention_exch_minmax);
    tcase_add_test(tc, contention_cas_loop);
    tcase_add_test(tc, contention_red);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
