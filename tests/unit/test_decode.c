/* test_decode.c: the frontend's operand roles, dominators and liveness, and decode's µops:
 * operands resolved to rows and converted immediates, guards, classes and flags, register
 * reads and writes, and FMA contraction (decided by the rule ptxas applies, and executed as
 * one rounding: checked against the host's fmaf/fma on values where one and two roundings
 * differ). */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu_internal.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

static ptx_module *parse_ok(const char *src)
{
    return pk_parse(src, "decode.ptx");
}

typedef struct role_seen { int32_t reg[16]; ptx_role role[16]; int n; } role_seen;

static void note_role(void *p, int32_t reg, ptx_role role)
{
    role_seen *s = p;
    if (s->n < 16) {
        s->reg[s->n] = reg;
        s->role[s->n] = role;
        s->n++;
    }
}

static int32_t reg_id(const ptx_function *f, const char *name)
{
    for (uint32_t i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0) return (int32_t)i;
    ck_abort_msg("no register %s", name);
    return -1;
}

static ptx_role role_of(const ptx_function *f, const ptx_instr *in, const char *reg)
{
    role_seen s = { .n = 0 };
    ptx_instr_regs(f, in, note_role, &s);
    int32_t r = reg_id(f, reg);
    ptx_role got = PTX_ROLE_NONE;
    for (int i = 0; i < s.n; i++)
        if (s.reg[i] == r) got = got == PTX_ROLE_NONE ? s.role[i] : PTX_ROLE_USEDEF;
    return got;
}

START_TEST(operand_roles)
{
    ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 a)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.shared .b64 mb;\n"
        "ld.param.u64 %rd1, [a];\n"                       /* 0 */
        "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;\n"       /* 1 */
        "st.global.u32 [%rd1+4], %r3;\n"                  /* 2 */
        "@%p1 atom.global.add.u32 %r4, [%rd1], %r5;\n"    /* 3 */
        "bar.red.popc.u32 %r6, 0, %p2;\n"                 /* 4 */
        "bar.sync %r7;\n"                                 /* 5 */
        "mbarrier.init.shared.b64 [mb], %r1;\n"           /* 6 */
        "mbarrier.arrive.shared.b64 %rd2, [mb];\n"        /* 7 */
        "ret;\n}\n");
    const ptx_function *f = ptx_find_function(m, "k");
    ck_assert_ptr_nonnull(f);
    const ptx_instr *in = f->instrs;
    ck_assert_int_eq(role_of(f, &in[0], "%rd1"), PTX_ROLE_DEF);
    ck_assert_int_eq(role_of(f, &in[1], "%p1"), PTX_ROLE_DEF);
    ck_assert_int_eq(role_of(f, &in[1], "%p2"), PTX_ROLE_DEF);
    ck_assert_int_eq(role_of(f, &in[1], "%p3"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[1], "%r2"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[2], "%rd1"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[2], "%r3"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[3], "%r4"), PTX_ROLE_DEF);
    ck_assert_int_eq(role_of(f, &in[3], "%p1"), PTX_ROLE_USE);    /* the guard */
    ck_assert_int_eq(role_of(f, &in[4], "%r6"), PTX_ROLE_DEF);
    ck_assert_int_eq(role_of(f, &in[4], "%p2"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[5], "%r7"), PTX_ROLE_USE);    /* a barrier id, not a result */
    ck_assert_int_eq(role_of(f, &in[6], "%r1"), PTX_ROLE_USE);
    ck_assert_int_eq(role_of(f, &in[7], "%rd2"), PTX_ROLE_DEF);
    ptx_module_free(m);
}
END_TEST

/* A loop with a diamond inside:
 *   B0: entry -> B1 (loop head) -> B2 / B3 -> B4 (latch) -> B1 or B5 (exit) */
static const char *LOOP = HEADER ".entry k(.param .u64 a)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [a];\n"          /* 0  B0 */
    "mov.u32 %r1, 0;\n"                  /* 1 */
    "mov.u32 %r2, 7;\n"                  /* 2 */
    "HEAD:\n"
    "setp.lt.u32 %p1, %r1, 3;\n"         /* 3  B1 */
    "@%p1 bra THEN;\n"                   /* 4 */
    "add.u32 %r3, %r2, 1;\n"             /* 5  B2 */
    "bra.uni LATCH;\n"                   /* 6 */
    "THEN:\n"
    "add.u32 %r3, %r2, 2;\n"             /* 7  B3 */
    "LATCH:\n"
    "add.u32 %r1, %r1, %r3;\n"           /* 8  B4 */
    "setp.lt.u32 %p2, %r1, 100;\n"       /* 9 */
    "@%p2 bra HEAD;\n"                   /* 10 */
    "st.global.u32 [%rd1], %r1;\n"       /* 11 B5 */
    "ret;\n}\n";

START_TEST(dominators_and_liveness)
{
    ptx_module *m = parse_ok(LOOP);
    const ptx_function *f = ptx_find_function(m, "k");
    ck_assert_uint_eq(f->nblocks, 6);
    ptx_dataflow *df = ptx_dataflow_compute(f);
    ck_assert_ptr_nonnull(df);
    ck_assert_int_eq(df->idom[1], 0);
    ck_assert_int_eq(df->idom[2], 1);
    ck_assert_int_eq(df->idom[3], 1);
    ck_assert_int_eq(df->idom[4], 1);   /* the join is dominated by the head, not by a branch */
    ck_assert_int_eq(df->idom[5], 4);
    ck_assert(ptx_dominates(df, 0, 5));
    ck_assert(ptx_dominates(df, 1, 4));
    ck_assert(!ptx_dominates(df, 2, 4));
    ck_assert(!ptx_dominates(df, 3, 4));
    int32_t r1 = reg_id(f, "%r1"), r2 = reg_id(f, "%r2"), r3 = reg_id(f, "%r3");
    int32_t rd1 = reg_id(f, "%rd1"), p1 = reg_id(f, "%p1");
    /* %r2 and %rd1 are read in and after the loop: live around it */
    ck_assert(ptx_live_in(df, 1, r2) && ptx_live_out(df, 4, r2));
    ck_assert(ptx_live_in(df, 1, rd1));
    /* %r1 is carried around the loop */
    ck_assert(ptx_live_in(df, 1, r1) && ptx_live_out(df, 4, r1));
    /* %r3 is written on both arms before its only read: live from the arms to the latch only */
    ck_assert(!ptx_live_in(df, 1, r3) && ptx_live_out(df, 2, r3) && ptx_live_in(df, 4, r3));
    /* %p1 dies at the branch */
    ck_assert(ptx_live_after(df, 3, p1) && !ptx_live_after(df, 4, p1));
    /* nothing is live after the store but... nothing */
    ck_assert(!ptx_live_after(df, 11, r1));
    ck_assert_uint_eq(df->ndefs[r3], 2);
    ck_assert_uint_eq(df->nuses[r3], 1);
    ptx_dataflow_free(df);
    ptx_module_free(m);
}
END_TEST

static const emu_func *func_of(const pk_module *pm, const char *name)
{
    const ptx_function *k = pk_kernel(pm, name);
    return emu_module_func_by_ptx(pm->emu, k);
}

START_TEST(uops_decoded)
{
    pk_module pm = pk_load_text(LOOP, strlen(LOOP), "decode.ptx");
    const emu_func *f = func_of(&pm, "k");
    const emu_code *code = &f->code;
    const ptx_function *fn = f->fn;
    ck_assert_uint_eq(code->n, fn->ninstrs);
    const emu_uop *u = code->uops;
    /* mov.u32 %r1, 0: a register row and an immediate */
    ck_assert_int_eq(u[1].opd[0].kind, EMU_OPD_REG);
    ck_assert_uint_eq(u[1].opd[0].row, fn->regs[reg_id(fn, "%r1")].slot * EMU_WARP_SIZE);
    ck_assert_uint_eq(u[1].opd[0].bits, 32);
    ck_assert_int_eq(u[1].opd[1].kind, EMU_OPD_IMM);
    ck_assert_uint_eq(u[1].opd[1].imm, 0);
    /* setp writes a predicate row; the branch is guarded by it */
    ck_assert_int_eq(u[3].opd[0].kind, EMU_OPD_PRED);
    ck_assert_uint_eq(u[4].guard_row, fn->regs[reg_id(fn, "%p1")].slot * EMU_WARP_SIZE);
    ck_assert_uint_eq(u[4].guard_xor, 0);
    ck_assert(u[4].flags & EMU_UOP_CONTROL);
    ck_assert_int_eq(u[4].cls, EMU_CLS_BRANCH);
    ck_assert_uint_eq(u[1].guard_row, EMU_NO_GUARD);
    /* blocks */
    ck_assert(u[3].flags & EMU_UOP_BLOCK_START);
    ck_assert(!(u[4].flags & EMU_UOP_BLOCK_START));
    ck_assert_uint_eq(u[3].block_end, 5);
    ck_assert_uint_eq(u[8].block_end, 11);
    /* a loop that only computes is no spin loop */
    ck_assert(!(u[10].flags & EMU_UOP_SPIN_BACKEDGE));
    /* the store: memory, may fault and stop, a side effect; reads %rd1 and %r1, writes nothing */
    ck_assert_int_eq(u[11].cls, EMU_CLS_ST_GLOBAL);
    ck_assert((u[11].flags & (EMU_UOP_MEMORY | EMU_UOP_MAY_FAULT | EMU_UOP_SIDE_EFFECT)) ==
              (EMU_UOP_MEMORY | EMU_UOP_MAY_FAULT | EMU_UOP_SIDE_EFFECT));
    ck_assert_int_eq(u[11].opd[0].kind, EMU_OPD_ADDR);
    ck_assert(u[11].opd[0].flags & EMU_OPD_F_BASE_REG);
    ck_assert_uint_eq(u[11].nreads, 2);
    ck_assert_uint_eq(u[11].nwrites, 0);
    /* add %r1, %r1, %r3 reads two registers and writes one */
    ck_assert_uint_eq(u[8].nreads, 2);
    ck_assert_uint_eq(u[8].nwrites, 1);
    ck_assert_int_eq(code->rw[u[8].rw + 2], reg_id(fn, "%r1"));
    ck_assert_int_eq(u[8].cls, EMU_CLS_INT);
    pk_unload(&pm);
}
END_TEST

START_TEST(spin_loop_backedge_marked)
{
    static const char *SPIN = HEADER ".entry k(.param .u64 a)\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [a];\n"
        "WAIT:\n"
        "ld.volatile.global.u32 %r1, [%rd1];\n"
        "setp.eq.u32 %p1, %r1, 0;\n"
        "@%p1 bra WAIT;\n"
        "ret;\n}\n";
    pk_module pm = pk_load_text(SPIN, strlen(SPIN), "spin.ptx");
    const emu_code *code = &func_of(&pm, "k")->code;
    ck_assert(code->uops[3].flags & EMU_UOP_SPIN_BACKEDGE);
    ck_assert(code->uops[1].flags & EMU_UOP_MAY_STOP);
    pk_unload(&pm);
}
END_TEST

/* d[i] = a[i] * b[i] + c[i] through every contractible shape, and the forms that must stay two
 * roundings. Out: 8 results per thread. */
static const char *FMA = HEADER ".entry k(.param .u64 a, .param .u64 out)\n{\n"
    ".reg .f32 %f<24>;\n.reg .f64 %fd<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [a];\n"                 /* 0 */
    "ld.param.u64 %rd2, [out];\n"               /* 1 */
    "ld.global.f32 %f1, [%rd1];\n"              /* 2 */
    "ld.global.f32 %f2, [%rd1+4];\n"            /* 3 */
    "ld.global.f32 %f3, [%rd1+8];\n"            /* 4 */
    "mul.f32 %f4, %f1, %f2;\n"                  /* 5: contracted into 6 */
    "add.f32 %f5, %f4, %f3;\n"                  /* 6  a*b + c */
    "mul.f32 %f6, %f1, %f2;\n"                  /* 7 */
    "sub.f32 %f7, %f6, %f3;\n"                  /* 8  a*b - c */
    "mul.f32 %f8, %f1, %f2;\n"                  /* 9 */
    "sub.f32 %f9, %f3, %f8;\n"                  /* 10 c - a*b */
    "mul.rn.f32 %f10, %f1, %f2;\n"              /* 11: .rn keeps two roundings */
    "add.f32 %f11, %f10, %f3;\n"                /* 12 */
    "mul.f32 %f12, %f1, %f2;\n"                 /* 13: two uses keep the product */
    "add.f32 %f13, %f12, %f3;\n"                /* 14 */
    "add.f32 %f14, %f13, %f12;\n"               /* 15 */
    "mul.ftz.f32 %f15, %f1, %f2;\n"             /* 16: .ftz differs from the add */
    "add.f32 %f16, %f15, %f3;\n"                /* 17 */
    "st.global.f32 [%rd2], %f5;\n"
    "st.global.f32 [%rd2+4], %f7;\n"
    "st.global.f32 [%rd2+8], %f9;\n"
    "st.global.f32 [%rd2+12], %f11;\n"
    "st.global.f32 [%rd2+16], %f13;\n"
    "st.global.f32 [%rd2+20], %f16;\n"
    "ld.global.f64 %fd1, [%rd1+16];\n"
    "ld.global.f64 %fd2, [%rd1+24];\n"
    "ld.global.f64 %fd3, [%rd1+32];\n"
    "mul.f64 %fd4, %fd1, %fd2;\n"
    "add.f64 %fd5, %fd3, %fd4;\n"              /* c + a*b, contracted */
    "st.global.f64 [%rd2+24], %fd5;\n"
    "ret;\n}\n";

static void run_fma(bool fmad, float *out32, double *out64)
{
    ptx_module *pm = pk_parse(FMA, "fma.ptx");
    char err[256];
    emu_load_options opt = { .fmad = fmad };
    emu_module *em = emu_module_load_ex(pm, &opt, err, sizeof err);
    ck_assert_msg(em != NULL, "%s", err);
    pk_module m = { pm, em };
    const emu_code *code = &emu_module_func_by_ptx(em, pk_kernel(&m, "k"))->code;
    static const int contracted[] = { 6, 8, 10 };
    for (unsigned i = 0; i < 3; i++)
        ck_assert_msg(((code->uops[contracted[i]].flags & EMU_UOP_CONTRACTED) != 0) == fmad,
                      "instruction %d contracted %d with fmad %d", contracted[i],
                      (code->uops[contracted[i]].flags & EMU_UOP_CONTRACTED) != 0, fmad);
    ck_assert(!(code->uops[12].flags & EMU_UOP_CONTRACTED));
    ck_assert(!(code->uops[14].flags & EMU_UOP_CONTRACTED));
    ck_assert(!(code->uops[17].flags & EMU_UOP_CONTRACTED));
    /* 1+2^-12 squared needs 2^-24 that f32 drops when it rounds the product */
    float a = 1.0f + 0x1p-12f, b = 1.0f + 0x1p-12f, c = -1.0f;
    double da = 1.0 + 0x1p-30, db = 1.0 + 0x1p-30, dc = -1.0;
    uint8_t *in = pk_dalloc(40), *out = pk_dalloc(32);
    memcpy(in, &a, 4);
    memcpy(in + 4, &b, 4);
    memcpy(in + 8, &c, 4);
    memcpy(in + 16, &da, 8);
    memcpy(in + 24, &db, 8);
    memcpy(in + 32, &dc, 8);
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    pk_launch l = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
    pk_run(&m, "k", &l, args, NULL);
    memcpy(out32, out, 24);
    memcpy(out64, out + 24, 8);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    pk_unload(&m);
}

START_TEST(fma_contraction_rounds_once)
{
    float a = 1.0f + 0x1p-12f, b = a, c = -1.0f;
    volatile float p = a * b;   /* rounded product, as two instructions compute it */
    double da = 1.0 + 0x1p-30, db = da, dc = -1.0;
    volatile double dp = da * db;
    float r[6];
    double d;
    run_fma(true, r, &d);
    ck_assert_float_eq(r[0], fmaf(a, b, c));
    ck_assert_float_eq(r[1], fmaf(a, b, -c));
    ck_assert_float_eq(r[2], fmaf(-a, b, c));
    ck_assert_float_eq(r[3], p + c);            /* .rn */
    ck_assert_float_eq(r[4], p + c);            /* the product has two uses */
    ck_assert_float_eq(r[5], p + c);            /* .ftz on one side only */
    ck_assert_double_eq(d, fma(da, db, dc));
    ck_assert(fmaf(a, b, c) != p + c);          /* the values do tell the two apart */
    run_fma(false, r, &d);
    ck_assert_float_eq(r[0], p + c);
    ck_assert_float_eq(r[1], p - c);
    ck_assert_float_eq(r[2], c - p);
    ck_assert_double_eq(d, dc + dp);
}
END_TEST

/* The rows a reused warp zeroes (entry_rows.c): registers live at the entry (a guarded
 * definition does not kill, nor does a definition on one path only), every register of a
 * cross-lane instruction (shfl's source and the others), and nothing a lane writes before it
 * reads it. */
static bool zeroed(const emu_func *f, const char *reg)
{
    const ptx_reg *r = &f->fn->regs[reg_id(f->fn, reg)];
    for (uint32_t i = 0; i < f->nentry_runs; i++) {
        const emu_row_run *run = &f->entry_rows[i];
        if (r->slot >= run->first && r->slot + r->nslots <= run->first + run->count) return true;
        ck_assert_msg(r->slot + r->nslots <= run->first || r->slot >= run->first + run->count,
                      "%s partly zeroed", reg);
    }
    return false;
}

START_TEST(entry_rows_planned)
{
    static const char *SRC = HEADER ".entry k(.param .u64 a)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [a];\n"
        "mov.u32 %r1, %tid.x;\n"
        "setp.eq.u32 %p1, %r1, 0;\n"
        "@%p1 mov.u32 %r2, 7;\n"                 /* guarded: %r2 live at entry */
        "st.global.u32 [%rd1], %r2;\n"
        "@%p1 bra SKIP;\n"
        "mov.u32 %r3, 1;\n"                      /* one path: %r3 live at entry */
        "SKIP:\n"
        "add.u32 %r4, %r3, %r1;\n"
        "st.global.u32 [%rd1+4], %r4;\n"
        "mov.u32 %r5, 3;\n"
        "shfl.sync.down.b32 %r6|%p2, %r5, 1, 31, -1;\n"   /* %r5 read from other lanes */
        "st.global.u32 [%rd1+8], %r6;\n"
        "add.u32 %r7, %r7, 1;\n"                 /* read before any write */
        "st.global.u32 [%rd1+12], %r7;\n"
        "mov.u32 %r8, 9;\n"                      /* written, then read: not zeroed */
        "st.global.u32 [%rd1+16], %r8;\n"
        "ret;\n}\n";
    pk_module pm = pk_load_text(SRC, strlen(SRC), "rows.ptx");
    const emu_func *f = func_of(&pm, "k");
    ck_assert(f->entry_rows_planned);
    ck_assert(zeroed(f, "%r2"));
    ck_assert(zeroed(f, "%r3"));
    ck_assert(zeroed(f, "%r5"));
    ck_assert(zeroed(f, "%r6"));
    ck_assert(zeroed(f, "%p2"));
    ck_assert(zeroed(f, "%r7"));
    ck_assert(!zeroed(f, "%r1"));
    ck_assert(!zeroed(f, "%r4"));
    ck_assert(!zeroed(f, "%r8"));
    ck_assert(!zeroed(f, "%rd1"));
    ck_assert(!zeroed(f, "%p1"));
    ck_assert(!zeroed(f, "%r9"));                /* declared, never used */
    for (uint32_t i = 0; i < f->nentry_runs; i++)
        ck_assert_uint_le(f->entry_rows[i].first + f->entry_rows[i].count, f->fn->nslots);
    pk_unload(&pm);
}
END_TEST

/* A kernel whose instructions cannot write shared memory skips the zeroing of a reused CTA's
 * shared memory (shared_writes.c): global stores only, yes; a shared or generic store, an
 * atomic or a call, no. */
static bool no_shared_writes(const char *body)
{
    char src[1024];
    snprintf(src, sizeof src, HEADER ".func f()\n{\nret;\n}\n.entry k(.param .u64 a)\n{\n"
             ".reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n.shared .b32 s[4];\n"
             "ld.param.u64 %%rd1, [a];\nld.global.u32 %%r1, [%%rd1];\n%s\nret;\n}\n", body);
    pk_module pm = pk_load_text(src, strlen(src), "shared.ptx");
    bool r = func_of(&pm, "k")->no_shared_writes;
    pk_unload(&pm);
    return r;
}

START_TEST(shared_writes_planned)
{
    ck_assert(no_shared_writes("st.global.u32 [%rd1], %r1;\nld.shared.u32 %r2, [s];"));
    ck_assert(!no_shared_writes("st.shared.u32 [s], %r1;"));
    ck_assert(!no_shared_writes("st.u32 [%rd1], %r1;"));
    ck_assert(!no_shared_writes("atom.global.add.u32 %r2, [%rd1], 1;"));
    ck_assert(!no_shared_writes("call f;"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("decode");
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, operand_roles);
    tcase_add_test(tc, dominators_and_liveness);
    tcase_add_test(tc, uops_decoded);
    tcase_add_test(tc, spin_loop_backedge_marked);
    tcase_add_test(tc, fma_contraction_rounds_once);
    tcase_add_test(tc, entry_rows_planned);
    tcase_add_test(tc, shared_writes_planned);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pk_main(suite());
}
