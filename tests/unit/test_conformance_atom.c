/* test_conformance_atom.c: PTX atom and red against the PTX ISA (sections 9.7.13.5, 9.7.13.6).
 *
 * Per lane (one address per lane): every operation and type (add u32/s32/u64/f32/f64, min/max
 * s32/u32/s64/u64/f32, inc/dec, cas b32/b64, exch b32/b64, and/or/xor b32/b64) as atom and
 * (but cas and exch) as red, each in every space: .global, .shared, and a generic address of
 * global and of shared memory. Every table starts with rows that change an old value of 0
 * (an implementation that skips its work when the old value is 0 must show), then the edges of
 * the type (INT_MIN/INT_MAX, -1, all ones, the wrap points of inc/dec, CAS matches and
 * mismatches in the upper word, f32 ties, signed zeros, NaN, infinities, subnormals). Each row
 * checks the returned old value, the memory afterwards, and that a 32-bit atomic leaves the
 * next word alone. The ISA's definitions: inc(r, s) = (r >= s) ? 0 : r + 1;
 * dec(r, s) = (r == 0 || r > s) ? s : r - 1; cas(r, s, t) = (r == s) ? t : r; f32/f64 add
 * rounds to nearest even, and atom.add.f32 flushes subnormal inputs and results to
 * sign-preserving zero; min/max.f32 of a NaN and a number gives the number, -0 < +0.
 * 16-bit atomics (add.noftz f16/bf16/f16x2/bf16x2, cas.b16, exch.b16) on neighbouring halves
 * of one word: each lane changes its own half only. 128-bit cas and exch: cas stores only when
 * both halves match.
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
/* Where the atomic's address points and how the instruction names it. */
typedef enum { SP_GLOBAL, SP_SHARED, SP_GENERIC_GLOBAL, SP_GENERIC_SHARED, SP_COUNT } aspace_t;
static const char *const space_sfx[SP_COUNT] = { ".global", ".shared", "", "" };
static const char *const space_name[SP_COUNT] = { "", "", " (generic address of global memory)",
                                                  " (generic address of shared memory)" };

typedef struct arow {
    uint64_t init, b, c;
} arow;

/* One operation and type, with its rows; every one runs as atom (and, except cas and exch,
 * as red) in every space. */
typedef struct aopdef {
    const char *op, *type;  /* "add", "u32" */
    akind_t kind;
    aop_t aop;
    const arow *rows;
    size_t nrows;
} aopdef;

typedef struct aform {
    char name[96];
    char text[128];     /* the instruction: %old, [%a], %b, %c */
    const char *type;   /* register type */
    akind_t kind;
    aop_t op;
    aspace_t space;
    bool has_old;
    const arow *rows;
    size_t nrows;
} aform;

static bool is_wide(akind_t k) { return k == K_U64 || k == K_S64 || k == K_F64; }

/* atom.add.f32 "rounds to nearest even and flushes subnormal inputs and results to
 * sign-preserving zero" (PTX ISA, atom); f64 adds round to nearest even without flushing. */
static float ftz32(float x) { return conf_is_sub32(x) ? copysignf(0.0f, x) : x; }

static uint64_t apply(aop_t op, akind_t k, uint64_t r, uint64_t s, uint64_t t)
{
    uint64_t m = is_wide(k) ? ~0ull : 0xffffffffull;
    r &= m;
    s &= m;
    t &= m;
    switch (op) {
    case A_ADD:
        if (k == K_F32) return conf_b32(ftz32(conf_add32(ftz32(conf_f32(r)), ftz32(conf_f32(s)), CONF_RN)));
        if (k == K_F64) return conf_b64(conf_add64(conf_f64(r), conf_f64(s), CONF_RN));
        return (r + s) & m;
    case A_MIN:
    case A_MAX: {
        if (k == K_F32) {
            /* atom.min/max.f32: a NaN operand yields the other one; -0 < +0 */
            float x = conf_f32(r), y = conf_f32(s), v;
            if (isnan(x) || isnan(y)) v = isnan(x) ? y : x;
            else if (x == y) v = (op == A_MIN) == (signbit(x) != 0) ? x : y;
            else v = (op == A_MIN) == (x < y) ? x : y;
            return conf_b32(v);
        }
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

#define I32(x) ((uint64_t)(uint32_t)(int32_t)(x))
/* Every table starts from an old value of 0 with non-zero operands (an operation that skips
 * its work when the old value is 0 must show), then the edges of its type. */
static const arow r_add_u32[] = { { 0, 7, 0 }, { 0, 0xffffffff, 0 }, { 0, 0x80000000, 0 }, { 5, 7, 0 }, { 0xffffffff, 1, 0 },
                                  { 0x80000000, 0x80000000, 0 }, { 0, 0, 0 }, { 123456, 0xfffffff0, 0 } };
static const arow r_add_s32[] = { { 0, I32(-7), 0 }, { 0, 1, 0 }, { 5, I32(-7), 0 }, { 0x7fffffff, 1, 0 }, { I32(-1), I32(-1), 0 },
                                  { 0x80000000, I32(-1), 0 } };
static const arow r_add_u64[] = { { 0, 1, 0 }, { 0, ~0ull, 0 }, { 0, 0x100000000ull, 0 }, { 0xffffffff, 1, 0 }, { ~0ull, 2, 0 },
                                  { 0x123456789ull, 0x987654321ull, 0 } };
static const arow r_add_f32[] = {
    { 0, 0x3f800000, 0 }, { 0, 0xc0200000, 0 }, { 0, 0x80000000, 0 } /* +0 + -0 = +0 */, { 0x80000000, 0x80000000, 0 },
    { 0x80000000, 0, 0 }, { 0x3f800000, 0x40000000, 0 }, { 0x3f800000, 0x33800000, 0 } /* tie to even: 1 */,
    { 0x3f800001, 0x33800000, 0 } /* tie to even: up */, { 0xbf800000, 0x3f800000, 0 }, { 0x7f7fffff, 0x7f7fffff, 0 },
    { 0x3dcccccd, 0x3e4ccccd, 0 }, { 0x7f800000, 0xff800000, 0 } /* inf - inf: NaN */,
    { 0, 0x00000001, 0 } /* a subnormal operand flushes */, { 0x00800000, 0x80000001, 0 },
    { 0x00800001, 0x80800000, 0 } /* a subnormal result flushes to +0 */, { 0x80800001, 0x00800000, 0 },
};
static const arow r_add_f64[] = {
    { 0, 0x3ff0000000000000ull, 0 }, { 0, 0x8000000000000000ull, 0 }, { 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0 },
    { 0x3fb999999999999aull, 0x3fc999999999999aull, 0 }, { 0xbff0000000000000ull, 0x4008000000000000ull, 0 },
    { 0, 1, 0 } /* subnormals stay */, { 0x0010000000000001ull, 0x8010000000000000ull, 0 },
};
static const arow r_minmax_s32[] = { { 0, 5, 0 }, { 0, I32(-1), 0 }, { 0, 0x80000000, 0 }, { 0, 0x7fffffff, 0 }, { 5, 7, 0 },
                                     { 7, 5, 0 }, { I32(-1), 1, 0 }, { 0x80000000, 0x7fffffff, 0 }, { 3, 3, 0 } };
static const arow r_minmax_u32[] = { { 0, 5, 0 }, { 0, 0xffffffff, 0 }, { 0, 0x80000000, 0 }, { 0xffffffff, 1, 0 },
                                     { 0x80000000, 0x7fffffff, 0 }, { 5, 5, 0 } };
static const arow r_minmax_s64[] = { { 0, 5, 0 }, { 0, ~0ull, 0 }, { 0, 0x8000000000000000ull, 0 }, { ~0ull, 1, 0 },
                                     { 0x8000000000000000ull, 0x7fffffffffffffffull, 0 }, { 9, 8, 0 },
                                     { 0x100000000ull, 0xffffffffull, 0 } };
static const arow r_minmax_u64[] = { { 0, 5, 0 }, { 0, ~0ull, 0 }, { ~0ull, 1, 0 }, { 0x100000000ull, 0xffffffffull, 0 },
                                     { 0x8000000000000000ull, 1, 0 } };
static const arow r_minmax_f32[] = { { 0, 0x3f800000, 0 }, { 0, 0xbf800000, 0 }, { 0, 0x80000000, 0 } /* +0 vs -0 */,
                                     { 0x80000000, 0, 0 }, { 0x7fc00000, 0x40000000, 0 } /* NaN: the other */,
                                     { 0x40000000, 0x7fc00000, 0 }, { 0xbf800000, 0xc0000000, 0 }, { 0xff800000, 0x40400000, 0 } };
static const arow r_inc[] = { { 0, 9, 0 }, { 0, 1, 0 }, { 0, 0, 0 }, { 8, 9, 0 }, { 9, 9, 0 }, { 15, 9, 0 }, { 5, 0, 0 },
                              { 0xfffffffe, 0xffffffff, 0 }, { 0xffffffff, 0xffffffff, 0 } };
static const arow r_dec[] = { { 0, 9, 0 }, { 0, 0, 0 }, { 0, 0xffffffff, 0 }, { 1, 9, 0 }, { 9, 9, 0 }, { 10, 9, 0 },
                              { 15, 9, 0 }, { 5, 9, 0 }, { 1, 0, 0 } };
static const arow r_cas32[] = { { 0, 0, 77 }, { 0, 1, 77 }, { 0, 0, 0 }, { 5, 5, 0 }, { 5, 0, 9 }, { 0xffffffff, 0xffffffff, 1 },
                                { 0x80000000, 0, 1 }, { 7, 7, 7 } };
static const arow r_cas64[] = { { 0, 0, 1 }, { 0, 1, 2 }, { 0x123456789ull, 0x123456789ull, 5 }, { 0x123456789ull, 0x23456789ull, 5 },
                                { ~0ull, ~0ull, 0x8000000000000000ull }, { 0x100000000ull, 0, 3 } /* low words equal */ };
static const arow r_exch32[] = { { 0, 9, 0 }, { 0, 0xffffffff, 0 }, { 5, 0, 0 }, { 0xffffffff, 0, 0 }, { 0, 0, 0 } };
static const arow r_exch64[] = { { 0, 0x900000009ull, 0 }, { ~0ull, 0, 0 }, { 5, ~0ull, 0 } };
static const arow r_bits32[] = { { 0, 0xffffffff, 0 }, { 0, 0x80000001, 0 }, { 0xffffffff, 0, 0 }, { 0xf0f0f0f0, 0xff00ff00, 0 },
                                 { 0x12345678, 0xffffffff, 0 }, { 0xffffffff, 0xffffffff, 0 } };
static const arow r_bits64[] = { { 0, ~0ull, 0 }, { 0, 0x100000001ull, 0 }, { 0xf0f0f0f0f0f0f0f0ull, 0xff00ff00ff00ff00ull, 0 },
                                 { 0x8000000000000001ull, 1, 0 }, { ~0ull, 0xffffffff00000000ull, 0 } };

#define OPDEF(op, type, kind, aop, rows) { op, type, kind, aop, rows, CONF_N(rows) }
static const aopdef opdefs[] = {
    OPDEF("add", "u32", K_U32, A_ADD, r_add_u32),
    OPDEF("add", "s32", K_S32, A_ADD, r_add_s32),
    OPDEF("add", "u64", K_U64, A_ADD, r_add_u64),
    OPDEF("add", "f32", K_F32, A_ADD, r_add_f32),
    OPDEF("add", "f64", K_F64, A_ADD, r_add_f64),
    OPDEF("min", "s32", K_S32, A_MIN, r_minmax_s32),
    OPDEF("max", "s32", K_S32, A_MAX, r_minmax_s32),
    OPDEF("min", "u32", K_U32, A_MIN, r_minmax_u32),
    OPDEF("max", "u32", K_U32, A_MAX, r_minmax_u32),
    OPDEF("min", "s64", K_S64, A_MIN, r_minmax_s64),
    OPDEF("max", "s64", K_S64, A_MAX, r_minmax_s64),
    OPDEF("min", "u64", K_U64, A_MIN, r_minmax_u64),
    OPDEF("max", "u64", K_U64, A_MAX, r_minmax_u64),
    OPDEF("min", "f32", K_F32, A_MIN, r_minmax_f32),
    OPDEF("max", "f32", K_F32, A_MAX, r_minmax_f32),
    OPDEF("inc", "u32", K_U32, A_INC, r_inc),
    OPDEF("dec", "u32", K_U32, A_DEC, r_dec),
    OPDEF("cas", "b32", K_U32, A_CAS, r_cas32),
    OPDEF("cas", "b64", K_U64, A_CAS, r_cas64),
    OPDEF("exch", "b32", K_U32, A_EXCH, r_exch32),
    OPDEF("exch", "b64", K_U64, A_EXCH, r_exch64),
    OPDEF("and", "b32", K_U32, A_AND, r_bits32),
    OPDEF("or", "b32", K_U32, A_OR, r_bits32),
    OPDEF("xor", "b32", K_U32, A_XOR, r_bits32),
    OPDEF("and", "b64", K_U64, A_AND, r_bits64),
    OPDEF("or", "b64", K_U64, A_OR, r_bits64),
    OPDEF("xor", "b64", K_U64, A_XOR, r_bits64),
};

/* Every opdef as atom and as red (red has no cas or exch), in every space. */
enum { MAX_FORMS = CONF_N(opdefs) * 2 * SP_COUNT };
static aform forms[MAX_FORMS];
static size_t nforms;

static void make_forms(void)
{
    for (size_t i = 0; i < CONF_N(opdefs); i++)
        for (int red = 0; red < 2; red++)
            for (int sp = 0; sp < SP_COUNT; sp++) {
                const aopdef *d = &opdefs[i];
                if (red && (d->aop == A_CAS || d->aop == A_EXCH)) continue;
                aform *f = &forms[nforms++];
                const char *ins = red ? "red" : "atom";
                snprintf(f->name, sizeof f->name, "%s%s.%s.%s%s", ins, space_sfx[sp], d->op, d->type,
                         space_name[sp]);
                snprintf(f->text, sizeof f->text, "%s%s.%s.%s %s[%%a], %%b%s;", ins, space_sfx[sp], d->op,
                         d->type, red ? "" : "%old, ", d->aop == A_CAS ? ", %c" : "");
                f->type = d->type;
                f->kind = d->kind;
                f->op = d->aop;
                f->space = (aspace_t)sp;
                f->has_old = !red;
                f->rows = d->rows;
                f->nrows = d->nrows;
            }
}

typedef struct form_run {
    conf_status status;
    char message[4096];
    uint64_t old[32], mem[32];
} form_run;

/* What a 32-bit atomic must leave alone: the upper half of its lane's 8-byte slot. */
#define GUARD 0xa5a5a5a500000000ull

static form_run *run_form(size_t fi)
{
    static form_run *runs[MAX_FORMS];
    if (runs[fi]) return runs[fi];
    form_run *fr = calloc(1, sizeof *fr);
    runs[fi] = fr;
    const aform *f = &forms[fi];
    bool shared = f->space == SP_SHARED || f->space == SP_GENERIC_SHARED;
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
             "%s%s"
             "    %s\n"
             "%s"
             "    st.global.%s [%%pout], %%old;\n"
             "    ret;\n"
             "}\n",
             f->type, f->type, f->type, f->type,
             shared ? "    mov.u64 %s, sh;\n    add.u64 %s, %s, %off;\n    ld.global.%TYPE %x, [%a];\n"
                      "    st.shared.%TYPE [%s], %x;\n    bar.sync 0;\n" : "",
             !shared ? "" : f->space == SP_SHARED ? "    mov.u64 %a, %s;\n" : "    cvta.shared.u64 %a, %s;\n",
             f->text,
             shared ? "    bar.sync 0;\n    ld.shared.%TYPE %x, [%s];\n    add.u64 %a, %mem, %off;\n"
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
    uint64_t guard = is_wide(f->kind) ? 0 : GUARD;
    for (size_t i = 0; i < 32; i++) {
        /* lanes past the table repeat its first row, each on its own slot */
        const arow *r = &f->rows[i < f->nrows ? i : 0];
        mem[i] = r->init | guard;
        b[i] = r->b;
        c[i] = r->c;
        out[i] = 0x5a5a5a5a5a5a5a5aull;
    }
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
    bool wide = is_wide(f->kind);
    uint64_t m = wide ? ~0ull : 0xffffffffull;
    uint64_t want_mem = apply(f->op, f->kind, r->init, r->b, r->c);
    bool nan = f->kind == K_F32 && isnan(conf_f32(want_mem));
    if (f->has_old)
        ck_assert_msg((fr->old[row] & m) == (r->init & m),
                      "%s [row %zu] mem=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": returned 0x%" PRIx64 ", the old value is 0x%" PRIx64,
                      f->name, row, r->init, r->b, r->c, fr->old[row] & m, r->init & m);
    ck_assert_msg(nan ? isnan(conf_f32(fr->mem[row])) : (fr->mem[row] & m) == want_mem,
                  "%s [row %zu] mem=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": memory afterwards want 0x%" PRIx64 " got 0x%" PRIx64,
                  f->name, row, r->init, r->b, r->c, want_mem, fr->mem[row] & m);
    if (!wide)
        ck_assert_msg((fr->mem[row] & ~m) == GUARD, "%s [row %zu]: a 32-bit atomic changed the next word (0x%" PRIx64 ")",
                      f->name, row, fr->mem[row]);
}
END_TEST

/* ---------------------------------------------------------------- 16-bit atomics */

/* Lane l works on the 16-bit slot at byte 2l, so lanes 2k and 2k+1 share a 32-bit word (the
 * lower and upper half): each must change its own half only. f16/bf16 adds round once to
 * nearest even (.noftz keeps subnormals); f16x2/bf16x2 add each half. */
typedef struct h16form {
    const char *name, *text, *type;   /* text uses %old, [%a], %b, %c */
    int kind;                         /* 0 f16, 1 bf16, 2 b16 cas, 3 b16 exch */
    bool x2;
} h16form;

static const h16form h16forms[] = {
    { "atom.global.add.noftz.f16", "atom.global.add.noftz.f16 %old, [%a], %b;", "b16", 0, false },
    { "atom.shared.add.noftz.f16", "atom.shared.add.noftz.f16 %old, [%a], %b;", "b16", 0, false },
    { "atom.global.add.noftz.bf16", "atom.global.add.noftz.bf16 %old, [%a], %b;", "b16", 1, false },
    { "atom.global.cas.b16", "atom.global.cas.b16 %old, [%a], %b, %c;", "b16", 2, false },
    { "atom.global.exch.b16", "atom.global.exch.b16 %old, [%a], %b;", "b16", 3, false },
    { "atom.global.add.noftz.f16x2", "atom.global.add.noftz.f16x2 %old, [%a], %b;", "b32", 0, true },
    { "atom.global.add.noftz.bf16x2", "atom.global.add.noftz.bf16x2 %old, [%a], %b;", "b32", 1, true },
};

static uint32_t h16_add(int kind, uint32_t a, uint32_t b)
{
    const conf_fmt *f = kind ? &CONF_FMT_BF16 : &CONF_FMT_F16;
    double s = conf_mf_decode(f, a) + conf_mf_decode(f, b);   /* exact in double */
    if (isnan(s)) return conf_mf_nan(f);
    return conf_mf_encode(f, s, CONF_RN, false);
}

START_TEST(atom_16bit)
{
    const h16form *f = &h16forms[_i];
    bool shared = strstr(f->name, ".shared") != NULL;
    unsigned es = f->x2 ? 4 : 2;
    char ptx[3072];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pmem, .param .u64 pb, .param .u64 pc, .param .u64 pout)\n"
             "{\n"
             "    .shared .align 8 .b8 sh[256];\n"
             "    .reg .b64 %%mem, %%pb, %%pc, %%pout, %%off, %%a, %%s;\n"
             "    .reg .b32 %%t;\n"
             "    .reg .%s %%b, %%c, %%old, %%x;\n"
             "    ld.param.u64 %%mem, [pmem];\n"
             "    ld.param.u64 %%pb, [pb];\n"
             "    ld.param.u64 %%pc, [pc];\n"
             "    ld.param.u64 %%pout, [pout];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%off, %%t, %u;\n"
             "    add.u64 %%a, %%mem, %%off;\n"
             "    add.u64 %%pb, %%pb, %%off;\n"
             "    add.u64 %%pc, %%pc, %%off;\n"
             "    add.u64 %%pout, %%pout, %%off;\n"
             "    ld.global.%s %%b, [%%pb];\n"
             "    ld.global.%s %%c, [%%pc];\n"
             "%s"
             "    %s\n"
             "%s"
             "    st.global.%s [%%pout], %%old;\n"
             "    ret;\n"
             "}\n",
             f->type, es, f->type, f->type,
             shared ? "    mov.u64 %s, sh;\n    add.u64 %s, %s, %off;\n    ld.global.b16 %x, [%a];\n"
                      "    st.shared.b16 [%s], %x;\n    bar.sync 0;\n    mov.u64 %a, %s;\n" : "",
             f->text,
             shared ? "    bar.sync 0;\n    ld.shared.b16 %x, [%s];\n    add.u64 %a, %mem, %off;\n"
                      "    st.global.b16 [%a], %x;\n" : "",
             f->type);
    enum { N = 32 };
    uint8_t *mem = conf_dev_alloc(N * 4), *b = conf_dev_alloc(N * 4), *c = conf_dev_alloc(N * 4),
            *out = conf_dev_alloc(N * 4);
    /* operands: zeros, ones, a tie, signed zeros, values that round, NaN, subnormals */
    static const uint16_t f16v[] = { 0x0000, 0x3c00, 0x3c00, 0x3c01, 0x8000, 0x0001, 0x7bff, 0xc000, 0x3555, 0x7e00, 0x03ff, 0x1400 };
    static const uint16_t bf16v[] = { 0x0000, 0x3f80, 0x3f80, 0x3f81, 0x8000, 0x0001, 0x7f7f, 0xc000, 0x3eab, 0x7fc0, 0x007f, 0x3b80 };
    const uint16_t *vals = f->kind == 1 ? bf16v : f16v;
    size_t nv = CONF_N(f16v);
    uint16_t *m16 = (uint16_t *)mem, *b16 = (uint16_t *)b, *c16 = (uint16_t *)c;
    size_t halves = N * es / 2;
    uint16_t init[N * 2], bw[N * 2], cw[N * 2];
    for (size_t i = 0; i < halves; i++) {
        init[i] = i < 4 ? 0 : vals[(i * 5 + 1) % nv];   /* old 0 first */
        bw[i] = vals[(i * 7 + 2) % nv];
        if (f->kind >= 2) {
            init[i] = (uint16_t)(i < 4 ? 0 : 0x1000 + i);
            bw[i] = (uint16_t)(i % 3 == 0 ? init[i] : 0x2000 + i);   /* cas: a third match */
        }
        cw[i] = (uint16_t)(0x4000 + 3 * i);
        m16[i] = init[i];
        b16[i] = bw[i];
        c16[i] = cw[i];
    }
    memset(out, 0x5a, N * 4);
    uint64_t params[4] = { conf_dev_addr(mem), conf_dev_addr(b), conf_dev_addr(c), conf_dev_addr(out) };
    conf_result r;
    if (conf_run_k(f->name, ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 4, &r) != CONF_OK) ck_abort_msg("%s", r.message);
    const uint16_t *o16 = (const uint16_t *)out;
    for (size_t i = 0; i < halves; i++) {
        uint32_t want;
        switch (f->kind) {
        case 2: want = init[i] == bw[i] ? cw[i] : init[i]; break;
        case 3: want = bw[i]; break;
        default: want = h16_add(f->kind, init[i], bw[i]); break;
        }
        const conf_fmt *fmt = f->kind == 1 ? &CONF_FMT_BF16 : &CONF_FMT_F16;
        bool ok = f->kind < 2 && conf_mf_is_nan(fmt, want) ? conf_mf_is_nan(fmt, m16[i]) : m16[i] == want;
        ck_assert_msg(ok, "%s: half %zu (lane %zu, byte %zu): memory 0x%04x + 0x%04x (c 0x%04x) want 0x%04x got 0x%04x",
                      f->name, i, i * 2 / es, i * 2, init[i], bw[i], cw[i], want, m16[i]);
        ck_assert_msg(o16[i] == init[i], "%s: half %zu: returned 0x%04x, the old value is 0x%04x", f->name, i, o16[i], init[i]);
    }
}
END_TEST

/* ---------------------------------------------------------------- 128-bit atomics */

/* atom.cas.b128 / atom.exch.b128 (sm_90): cas stores c only when all 16 bytes equal b (rows
 * where only the low or only the high half matches must not store); exch always stores b; both
 * return the old 16 bytes. Global, shared and generic addresses. */
typedef struct b128form { const char *name, *text; bool shared, cas; } b128form;
static const b128form b128forms[] = {
    { "atom.global.cas.b128", "atom.global.cas.b128 %old, [%a], %b, %c;", false, true },
    { "atom.shared.cas.b128", "atom.shared.cas.b128 %old, [%a], %b, %c;", true, true },
    { "atom.cas.b128 (generic address of global memory)", "atom.cas.b128 %old, [%a], %b, %c;", false, true },
    { "atom.global.exch.b128", "atom.global.exch.b128 %old, [%a], %b;", false, false },
    { "atom.shared.exch.b128", "atom.shared.exch.b128 %old, [%a], %b;", true, false },
};

START_TEST(atom_b128)
{
    const b128form *f = &b128forms[_i];
    char ptx[3072];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 pmem, .param .u64 pb, .param .u64 pc, .param .u64 pout)\n"
             "{\n"
             "    .shared .align 16 .b8 sh[512];\n"
             "    .reg .b64 %%mem, %%pb, %%pc, %%pout, %%off, %%a, %%s, %%bl, %%bh, %%cl, %%ch, %%ol, %%oh;\n"
             "    .reg .b32 %%t;\n"
             "    .reg .b128 %%b, %%c, %%old;\n"
             "    ld.param.u64 %%mem, [pmem];\n"
             "    ld.param.u64 %%pb, [pb];\n"
             "    ld.param.u64 %%pc, [pc];\n"
             "    ld.param.u64 %%pout, [pout];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%off, %%t, 16;\n"
             "    add.u64 %%a, %%mem, %%off;\n"
             "    add.u64 %%pb, %%pb, %%off;\n"
             "    add.u64 %%pc, %%pc, %%off;\n"
             "    add.u64 %%pout, %%pout, %%off;\n"
             "    ld.global.v2.u64 {%%bl, %%bh}, [%%pb];\n"
             "    ld.global.v2.u64 {%%cl, %%ch}, [%%pc];\n"
             "    mov.b128 %%b, {%%bl, %%bh};\n"
             "    mov.b128 %%c, {%%cl, %%ch};\n"
             "%s"
             "    %s\n"
             "%s"
             "    mov.b128 {%%ol, %%oh}, %%old;\n"
             "    st.global.v2.u64 [%%pout], {%%ol, %%oh};\n"
             "    ret;\n"
             "}\n",
             f->shared ? "    mov.u64 %s, sh;\n    add.u64 %s, %s, %off;\n    ld.global.v2.u64 {%ol, %oh}, [%a];\n"
                         "    st.shared.v2.u64 [%s], {%ol, %oh};\n    bar.sync 0;\n    mov.u64 %a, %s;\n" : "",
             f->text,
             f->shared ? "    bar.sync 0;\n    ld.shared.v2.u64 {%bl, %bh}, [%s];\n    add.u64 %a, %mem, %off;\n"
                         "    st.global.v2.u64 [%a], {%bl, %bh};\n" : "");
    enum { N = 32 };
    uint64_t *mem = conf_dev_alloc(N * 16), *b = conf_dev_alloc(N * 16), *c = conf_dev_alloc(N * 16),
             *out = conf_dev_alloc(N * 16);
    uint64_t init[N][2], bw[N][2], cw[N][2];
    for (int l = 0; l < N; l++) {
        uint64_t lo = l < 4 ? 0 : 0x1111111100000000ull + (uint64_t)l, hi = l < 4 ? 0 : 0x2222222200000000ull + (uint64_t)l;
        init[l][0] = lo;
        init[l][1] = hi;
        switch (l % 4) {   /* both halves match, only the low, only the high, neither */
        case 0: bw[l][0] = lo; bw[l][1] = hi; break;
        case 1: bw[l][0] = lo; bw[l][1] = hi ^ 0x8000000000000000ull; break;
        case 2: bw[l][0] = lo ^ 1; bw[l][1] = hi; break;
        default: bw[l][0] = ~lo; bw[l][1] = ~hi; break;
        }
        cw[l][0] = 0xc0c0c0c000000000ull | (uint64_t)(l + 1);
        cw[l][1] = 0xd0d0d0d000000000ull | (uint64_t)(l + 1);
        memcpy(&mem[2 * l], init[l], 16);
        memcpy(&b[2 * l], bw[l], 16);
        memcpy(&c[2 * l], cw[l], 16);
        out[2 * l] = out[2 * l + 1] = 0x5a5a5a5a5a5a5a5aull;
    }
    uint64_t params[4] = { conf_dev_addr(mem), conf_dev_addr(b), conf_dev_addr(c), conf_dev_addr(out) };
    conf_result r;
    if (conf_run_k(f->name, ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 4, &r) != CONF_OK) ck_abort_msg("%s", r.message);
    for (int l = 0; l < N; l++) {
        const uint64_t *want = f->cas ? (l % 4 == 0 ? cw[l] : init[l]) : bw[l];
        ck_assert_msg(mem[2 * l] == want[0] && mem[2 * l + 1] == want[1],
                      "%s lane %d: memory 0x%016" PRIx64 "%016" PRIx64 " b 0x%016" PRIx64 "%016" PRIx64
                      ": afterwards want 0x%016" PRIx64 "%016" PRIx64 " got 0x%016" PRIx64 "%016" PRIx64,
                      f->name, l, init[l][1], init[l][0], bw[l][1], bw[l][0], want[1], want[0], mem[2 * l + 1], mem[2 * l]);
        ck_assert_msg(out[2 * l] == init[l][0] && out[2 * l + 1] == init[l][1],
                      "%s lane %d: returned 0x%016" PRIx64 "%016" PRIx64 ", the old value is 0x%016" PRIx64 "%016" PRIx64,
                      f->name, l, out[2 * l + 1], out[2 * l], init[l][1], init[l][0]);
    }
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
    make_forms();
    size_t rows = 0;
    for (size_t i = 0; i < nforms; i++) rows += forms[i].nrows;
    TCase *tc = tcase_create("atom/red per lane");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, atom_row, 0, (int)rows);
    tcase_add_loop_test(tc, atom_16bit, 0, (int)CONF_N(h16forms));
    tcase_add_loop_test(tc, atom_b128, 0, (int)CONF_N(b128forms));
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
