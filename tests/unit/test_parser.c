/* test_parser.c: parsing real nvcc output, lowering into the IR (mnemonics, registers, symbols,
 * parameters, initialisers, scopes, calls), and error messages with positions. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

static ptx_module *parse_str(const char *src, ptx_diag *d)
{
    return ptx_parse(src, strlen(src), "t.ptx", d);
}

/* Parses src and fails the test (showing the diagnostics) unless it is valid. */
static ptx_module *parse_ok(const char *src)
{
    ptx_diag d = {0};
    ptx_module *m = parse_str(src, &d);
    ck_assert_msg(m != NULL, "parse failed:\n%s", d.text ? d.text : "(no diagnostics)");
    ck_assert_uint_eq(d.errors, 0);
    ptx_diag_free(&d);
    return m;
}

/* Parses src, expects failure, and checks that the diagnostics contain `want`. */
static void parse_fails_with(const char *src, const char *want)
{
    ptx_diag d = {0};
    ptx_module *m = parse_str(src, &d);
    ck_assert_msg(m == NULL, "expected an error containing \"%s\"", want);
    ck_assert_ptr_nonnull(d.text);
    ck_assert_msg(strstr(d.text, want) != NULL, "diagnostics:\n%s\ndo not contain \"%s\"",
                  d.text, want);
    ck_assert_uint_gt(d.errors, 0);
    ptx_diag_free(&d);
}

static const ptx_instr *instr_at(const ptx_module *m, const char *fn, uint32_t i)
{
    const ptx_function *f = ptx_find_function(m, fn);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_lt(i, f->ninstrs);
    return &f->instrs[i];
}

/* ---------------------------------------------------------------- real nvcc output */

static const struct {
    const char *file;
    const char *kernel;   /* an .entry the file must define */
    unsigned sm;
} samples[] = {
    {"tests/ptx/frontend/vadd.sm75.ptx", "_Z4vaddPKfS0_Pfi", 75},
    {"tests/ptx/frontend/vadd.sm120.ptx", "_Z4vaddPKfS0_Pfi", 120},
    {"tests/ptx/frontend/vadd.G.sm80.ptx", "_Z4vaddPKfS0_Pfi", 80},
    {"tests/ptx/frontend/matmul.sm80.ptx", "_Z6matmulPKfS0_Pfi", 80},
    {"tests/ptx/frontend/matmul.G.sm120.ptx", "_Z6matmulPKfS0_Pfi", 120},
    {"tests/ptx/frontend/reduce.sm80.ptx", "_Z6reducePKfPfi", 80},
    {"tests/ptx/frontend/reduce.sm120.ptx", "_Z6reducePKfPfi", 120},
    {"tests/ptx/frontend/diverge.sm80.ptx", "_Z7divergePiPKii", 80},
    {"tests/ptx/frontend/diverge.lineinfo.sm90.ptx", "_Z7divergePiPKii", 90},
    {"tests/ptx/frontend/features.sm80.ptx", "_Z8warp_opsPjPKfPdi", 80},
    {"tests/ptx/frontend/features.sm120.ptx", "_Z10tex_kernelyyPf", 120},
    {"tests/ptx/frontend/tc.sm80.ptx", "_Z6wmma_kPK6__halfS1_Pf", 80},
    {"tests/ptx/frontend/cluster.sm90.ptx", "_Z2clPi", 90},
    {"tests/ptx/frontend/rdc.sm80.ptx", "_Z6parentPi", 80},
    {"tests/ptx/frontend/directives.ptx", "kern", 90},
};

START_TEST(accepts_nvcc_samples)
{
    size_t len;
    char *text = pk_read_file(samples[_i].file, &len);
    ck_assert_msg(text != NULL, "cannot read %s (run tests from the repository root)",
                  samples[_i].file);
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, len, samples[_i].file, &d);
    ck_assert_msg(m != NULL, "%s:\n%s", samples[_i].file, d.text ? d.text : "");
    ck_assert_uint_eq(m->version_major, 9);
    ck_assert_uint_eq(m->version_minor, 0);
    ck_assert_uint_eq(m->sm, samples[_i].sm);
    ck_assert_uint_eq(m->address_size, 64);
    const ptx_function *k = ptx_find_function(m, samples[_i].kernel);
    ck_assert_msg(k != NULL, "%s: no function %s", samples[_i].file, samples[_i].kernel);
    ck_assert(k->is_entry);
    ck_assert(!k->is_decl);
    ck_assert_uint_gt(k->ninstrs, 0);
    ck_assert_uint_gt(k->nblocks, 0);
    /* every instruction is in a block, and every branch has a reconvergence point */
    for (uint32_t i = 0; i < k->ninstrs; i++) {
        const ptx_instr *in = &k->instrs[i];
        ck_assert_int_ge(in->block, 0);
        ck_assert_uint_ge(i, k->blocks[in->block].first);
        ck_assert_uint_lt(i, k->blocks[in->block].end);
        if (in->op == PTX_OP_BRA) {
            ck_assert_int_ge(in->target, 0);
            ck_assert_int_le(in->target, (int32_t)k->ninstrs);
            ck_assert_int_ge(in->reconv, 0);
            ck_assert_int_le(in->reconv, (int32_t)k->ninstrs);
        }
    }
    ptx_module_free(m);
    ptx_diag_free(&d);
    free(text);
}
END_TEST

START_TEST(vadd_shape)
{
    size_t len;
    char *text = pk_read_file("tests/ptx/frontend/vadd.sm75.ptx", &len);
    ck_assert_ptr_nonnull(text);
    ptx_module *m = ptx_parse(text, len, "vadd", NULL);
    ck_assert_ptr_nonnull(m);
    const ptx_function *k = ptx_find_function(m, "_Z4vaddPKfS0_Pfi");
    ck_assert_uint_eq(k->nparams, 4);
    ck_assert_uint_eq(k->param_size, 28);   /* three pointers and an int */
    ck_assert_uint_eq(m->syms[k->params[3]].offset, 24);
    ck_assert_uint_eq(m->syms[k->params[3]].type, PTX_TYPE_U32);
    ck_assert_str_eq(m->syms[k->params[0]].name, "_Z4vaddPKfS0_Pfi_param_0");
    ck_assert_int_eq(m->syms[k->params[0]].owner, (int32_t)(k - m->funcs));
    ck_assert_int_eq(ptx_find_symbol(m, (int32_t)(k - m->funcs), "_Z4vaddPKfS0_Pfi_param_2"),
                     k->params[2]);
    /* the first instruction loads param 0 */
    const ptx_instr *in = &k->instrs[0];
    ck_assert_int_eq(in->op, PTX_OP_LD);
    ck_assert_int_eq(in->space, PTX_SPACE_PARAM);
    ck_assert_int_eq(in->ops[1].kind, PTX_OPD_ADDR);
    ck_assert_int_eq(in->ops[1].sym, k->params[0]);
    ptx_module_free(m);
    free(text);
}
END_TEST

START_TEST(debug_info_positions)
{
    size_t len;
    char *text = pk_read_file("tests/ptx/frontend/diverge.lineinfo.sm90.ptx", &len);
    ck_assert_ptr_nonnull(text);
    ptx_module *m = ptx_parse(text, len, "d", NULL);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_ge(m->nfiles, 2);
    ck_assert_ptr_nonnull(m->files[1]);
    ck_assert_ptr_nonnull(strstr(m->files[1], "diverge.cu"));
    const ptx_function *k = ptx_find_function(m, "_Z7divergePiPKii");
    bool any = false;
    for (uint32_t i = 0; i < k->ninstrs; i++)
        if (k->instrs[i].dbg_line) {
            ck_assert_uint_eq(k->instrs[i].dbg_file, 1);
            ck_assert_uint_ge(k->instrs[i].dbg_line, 11);   /* inside the kernel's source */
            any = true;
        }
    ck_assert(any);
    ptx_module_free(m);
    free(text);
}
END_TEST

/* ---------------------------------------------------------------- mnemonics */

START_TEST(mnemonic_decoding)
{
    ptx_module *m = parse_ok(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .pred %p<3>; .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .f32 %f<5>;\n"
        "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n"          /* 0 */
        "setp.lt.and.s32 %p1, %r1, %r2, %p2;\n"                          /* 1 */
        "mul.lo.s32 %r1, %r2, %r3;\n"                                    /* 2 */
        "mul.wide.u32 %rd1, %r2, 4;\n"                                   /* 3 */
        "atom.global.and.b32 %r1, [%rd1], %r2;\n"                        /* 4 */
        "cvt.rzi.s32.f32 %r1, %f1;\n"                                    /* 5 */
        "membar.gl;\n"                                                   /* 6 */
        "cvta.to.global.u64 %rd2, %rd1;\n"                               /* 7 */
        "shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;\n"                  /* 8 */
        "ld.shared::cta.u32 %r1, [%r2];\n"                               /* 9 */
        "atom.acquire.gpu.shared::cluster.add.u32 %r1, [%rd1], 1;\n"     /* 10 */
        "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;\n"                       /* 11 */
        "set.hi.u32.u32 %r1, %r2, %r3;\n"                                /* 12 */
        "vote.sync.ballot.b32 %r1, %p1, -1;\n"                           /* 13 */
        "mad.hi.cc.u32 %r1, %r2, %r3, %r4;\n"                            /* 14 */
        "bar.red.or.pred %p1, 0, %p2;\n"                                 /* 15 */
        "ret;\n}\n");
    const ptx_instr *in = instr_at(m, "k", 0);
    ck_assert_int_eq(in->op, PTX_OP_LD);
    ck_assert_int_eq(in->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(in->vec, 4);
    ck_assert_int_eq(in->ntypes, 1);
    ck_assert_int_eq(in->types[0], PTX_TYPE_F32);
    ck_assert(in->flags & PTX_F(NC));
    ck_assert(ptx_instr_has(in, PTX_SFX_NC));
    ck_assert(!ptx_instr_has(in, PTX_SFX_CA));
    ck_assert_int_eq(in->nsfx, 4);
    ck_assert_int_eq(in->sfx[0], PTX_SFX_GLOBAL);
    ck_assert_int_eq(in->sfx[3], PTX_TYPE_F32);
    ck_assert_int_eq(in->ops[0].kind, PTX_OPD_VEC);
    ck_assert_int_eq(in->ops[0].nelem, 4);
    ck_assert_int_eq(in->ops[1].imm, 16);

    in = instr_at(m, "k", 1);
    ck_assert_int_eq(in->cmp, PTX_CMP_LT);
    ck_assert_int_eq(in->boolop, PTX_SFX_AND);
    ck_assert_int_eq(in->aop, 0);
    ck_assert_int_eq(instr_at(m, "k", 2)->mode, PTX_SFX_LO);
    ck_assert_int_eq(instr_at(m, "k", 2)->cmp, PTX_CMP_NONE);
    ck_assert_int_eq(instr_at(m, "k", 3)->mode, PTX_SFX_WIDE);
    in = instr_at(m, "k", 4);
    ck_assert_int_eq(in->aop, PTX_SFX_AND);
    ck_assert_int_eq(in->boolop, 0);
    in = instr_at(m, "k", 5);
    ck_assert_int_eq(in->rnd, PTX_RND_RZI);
    ck_assert_int_eq(in->types[0], PTX_TYPE_S32);
    ck_assert_int_eq(in->types[1], PTX_TYPE_F32);
    ck_assert_int_eq(instr_at(m, "k", 6)->scope, PTX_SFX_GPU);
    in = instr_at(m, "k", 7);
    ck_assert(in->flags & PTX_F(TO));
    ck_assert_int_eq(in->space, PTX_SPACE_GLOBAL);
    in = instr_at(m, "k", 8);
    ck_assert_int_eq(in->mode, PTX_SFX_DOWN);
    ck_assert(in->flags & PTX_F(SYNC));
    ck_assert_int_eq(in->nops, 6);
    ck_assert(!in->ops[0].pipe);
    ck_assert(in->ops[1].pipe);
    ck_assert_int_eq(in->ops[5].imm, -1);
    ck_assert_int_eq(instr_at(m, "k", 9)->space, PTX_SPACE_SHARED);
    in = instr_at(m, "k", 10);
    ck_assert_int_eq(in->sem, PTX_SFX_ACQUIRE);
    ck_assert_int_eq(in->scope, PTX_SFX_GPU);
    ck_assert_int_eq(in->space, PTX_SPACE_SHARED_CLUSTER);
    ck_assert_int_eq(in->aop, PTX_SFX_ADD);
    in = instr_at(m, "k", 11);
    ck_assert_int_eq(in->rnd, PTX_RND_RN);
    ck_assert_uint_eq(in->flags, PTX_F(FTZ) | PTX_F(SAT));
    in = instr_at(m, "k", 12);
    ck_assert_int_eq(in->cmp, PTX_CMP_HI);   /* .hi is a comparison for set */
    ck_assert_int_eq(in->mode, 0);
    ck_assert_int_eq(instr_at(m, "k", 13)->mode, PTX_SFX_BALLOT);
    in = instr_at(m, "k", 14);
    ck_assert_int_eq(in->mode, PTX_SFX_HI);
    ck_assert(in->flags & PTX_F(CC));
    in = instr_at(m, "k", 15);
    ck_assert_int_eq(in->mode, PTX_SFX_RED);
    ck_assert_int_eq(in->aop, PTX_SFX_OR);
    ptx_module_free(m);
}
END_TEST

START_TEST(names_and_vocabulary)
{
    ck_assert_str_eq(ptx_type_name(PTX_TYPE_BF16X2), "bf16x2");
    ck_assert_uint_eq(ptx_type_bits(PTX_TYPE_B128), 128);
    ck_assert_uint_eq(ptx_type_bits(PTX_TYPE_PRED), 1);
    ck_assert(ptx_type_is_signed(PTX_TYPE_S16));
    ck_assert(!ptx_type_is_signed(PTX_TYPE_U16));
    ck_assert(ptx_type_is_float(PTX_TYPE_F16));
    ck_assert(ptx_type_is_float(PTX_TYPE_E4M3));
    ck_assert(!ptx_type_is_float(PTX_TYPE_B32));
    ck_assert_str_eq(ptx_opcode_name(PTX_OP_CP_ASYNC_BULK_TENSOR), "cp.async.bulk.tensor");
    ck_assert_str_eq(ptx_suffix_name(PTX_SFX_SHARED_CTA), "shared::cta");
    ck_assert_str_eq(ptx_suffix_name((ptx_suffix)PTX_TYPE_U64), "u64");
    ck_assert_int_eq(ptx_suffix_group_of(PTX_SFX_RZ), PTX_SG_ROUND);
    ck_assert_int_eq(ptx_suffix_group_of((ptx_suffix)PTX_TYPE_F32), PTX_SG_TYPE);
    ck_assert_int_eq(ptx_suffix_group_of(PTX_SFX_NAN), PTX_SG_CMP);
    ck_assert_str_eq(ptx_sreg_name(PTX_SREG_CLUSTER_CTARANK), "%cluster_ctarank");
    /* every flag fits in the 64-bit mask */
    ck_assert_uint_ne(PTX_F(RANGE), 0);
}
END_TEST

/* ---------------------------------------------------------------- registers, symbols, params */

START_TEST(register_ranges_and_slots)
{
    ptx_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<3>, %x;\n.reg .b128 %q;\n.reg .v4 .f32 %v;\n"
        "mov.u32 %r2, %x;\nmov.f32 %v.w, 0f3F800000;\nret;\n}\n");
    const ptx_function *f = ptx_find_function(m, "k");
    ck_assert_uint_eq(f->nregs, 2 + 3 + 1 + 1 + 1);
    ck_assert_str_eq(f->regs[0].name, "%p0");
    ck_assert_str_eq(f->regs[4].name, "%r2");
    ck_assert_str_eq(f->regs[5].name, "%x");
    ck_assert_uint_eq(f->regs[6].nslots, 2);     /* .b128 */
    /* the registers an instruction names have slots of their own, in order of declaration
     * (%r2, %x, then %v's four), and the others share one region after them, as large as
     * the largest (%q's two) */
    ck_assert_uint_eq(f->regs[4].slot, 0);
    ck_assert_uint_eq(f->regs[5].slot, 1);
    ck_assert_uint_eq(f->regs[7].slot, 2);
    ck_assert_uint_eq(f->regs[7].vec, 4);
    ck_assert_uint_eq(f->regs[0].slot, 6);
    ck_assert_uint_eq(f->regs[6].slot, 6);
    ck_assert_uint_eq(f->nslots, 2 + 4 + 2);
    const ptx_instr *in = &f->instrs[0];
    ck_assert_int_eq(in->ops[0].kind, PTX_OPD_REG);
    ck_assert_int_eq(in->ops[0].reg, 4);
    ck_assert_int_eq(in->ops[1].reg, 5);
    in = &f->instrs[1];
    ck_assert_int_eq(in->ops[0].reg, 7);
    ck_assert_int_eq(in->ops[0].comp, 3);
    ck_assert_int_eq(in->ops[1].kind, PTX_OPD_FIMM32);
    ck_assert_int_eq(in->ops[1].imm, 0x3F800000);
    ptx_module_free(m);
}
END_TEST

START_TEST(scopes_shadow_names)
{
    ptx_module *m = parse_ok(HEADER
        ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %x;\nld.param.b32 %x, [a];\n"
        "st.param.b32 [r], %x;\nret;\n}\n"
        ".entry k()\n{\n.reg .b32 %x;\n"
        "mov.u32 %x, 1;\n"                                     /* 0: outer %x */
        "{\n.reg .b32 %x;\n.param .b32 param0;\n.param .b32 retval0;\n"
        "mov.u32 %x, 2;\n"                                     /* 1: inner %x */
        "st.param.b32 [param0], %x;\n"                         /* 2 */
        "call.uni (retval0), f, (param0);\n"                   /* 3 */
        "ld.param.b32 %x, [retval0];\n}\n"                     /* 4 */
        "{\n.param .b32 param0;\nst.param.b32 [param0+0], %x;\n}\n" /* 5: outer %x again */
        "ret;\n}\n");
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_uint_eq(k->nregs, 2);
    ck_assert_int_eq(k->instrs[0].ops[0].reg, 0);
    ck_assert_int_eq(k->instrs[1].ops[0].reg, 1);
    ck_assert_int_eq(k->regs[1].scope, 0);
    ck_assert_int_eq(k->instrs[5].ops[1].reg, 0);
    /* the two param0 declarations are distinct symbols; scopes reuse the local frame */
    int32_t p0a = k->instrs[2].ops[0].sym, p0b = k->instrs[5].ops[0].sym;
    ck_assert_int_ge(p0a, 0);
    ck_assert_int_ne(p0a, p0b);
    ck_assert_str_eq(m->syms[p0b].name, "param0");
    ck_assert_uint_eq(m->syms[p0a].offset, 0);
    ck_assert_uint_eq(m->syms[p0b].offset, 0);
    ck_assert_uint_eq(k->local_size, 8);
    ck_assert_uint_eq(k->nscopes, 2);
    ck_assert_uint_eq(k->scopes[0].first, 1);
    ck_assert_uint_eq(k->scopes[0].end, 5);
    ck_assert_uint_eq(k->scopes[1].first, 5);
    ck_assert_uint_eq(k->scopes[1].end, 6);
    /* the call names f and resolves its lists */
    const ptx_instr *call = &k->instrs[3];
    ck_assert_int_eq(call->op, PTX_OP_CALL);
    ck_assert(call->flags & PTX_F(UNI));
    ck_assert_int_eq(call->nops, 3);
    ck_assert_int_eq(call->ops[0].kind, PTX_OPD_LIST);
    ck_assert_int_eq(call->ops[0].elems[0].kind, PTX_OPD_SYM);
    ck_assert_str_eq(m->syms[call->ops[0].elems[0].sym].name, "retval0");
    ck_assert_int_eq(call->ops[1].kind, PTX_OPD_SYM);
    ck_assert_int_eq(call->target, call->ops[1].sym);
    ck_assert_int_eq(m->syms[call->target].kind, PTX_SYM_FUNC);
    ck_assert_str_eq(m->funcs[m->syms[call->target].func].name, "f");
    ptx_module_free(m);
}
END_TEST

START_TEST(param_offsets)
{
    ptx_module *m = parse_ok(HEADER
        ".visible .entry k(.param .u8 a, .param .u64 b, .param .align 16 .b8 c[20],\n"
        "                  .param .u32 d, .param .u64 .ptr .global .align 8 e,\n"
        "                  .param .v2 .f32 v)\n{\nret;\n}\n"
        ".func (.param .b64 r0, .param .b8 r1) g(.param .b16 x, .param .b32 y)\n{\nret;\n}\n");
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_uint_eq(k->nparams, 6);
    uint64_t want_off[] = {0, 8, 16, 36, 40, 48};
    uint64_t want_size[] = {1, 8, 20, 4, 8, 8};
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(m->syms[k->params[i]].offset, want_off[i]);
        ck_assert_uint_eq(m->syms[k->params[i]].size, want_size[i]);
        ck_assert_int_eq(m->syms[k->params[i]].kind, PTX_SYM_PARAM);
    }
    ck_assert_uint_eq(m->syms[k->params[2]].align, 16);
    ck_assert(m->syms[k->params[4]].is_ptr);
    ck_assert_int_eq(m->syms[k->params[4]].ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(m->syms[k->params[4]].ptr_align, 8);
    ck_assert_uint_eq(m->syms[k->params[4]].align, 8);   /* .align after .ptr is the pointee's */
    ck_assert_uint_eq(k->param_size, 56);
    /* a .func block: inputs first, then return parameters */
    const ptx_function *g = ptx_find_function(m, "g");
    ck_assert_uint_eq(g->nparams, 2);
    ck_assert_uint_eq(g->nrets, 2);
    ck_assert_uint_eq(m->syms[g->params[0]].offset, 0);
    ck_assert_uint_eq(m->syms[g->params[1]].offset, 4);
    ck_assert_uint_eq(m->syms[g->rets[0]].offset, 8);
    ck_assert_uint_eq(m->syms[g->rets[1]].offset, 16);
    ck_assert_uint_eq(g->param_size, 17);
    ptx_module_free(m);
}
END_TEST

START_TEST(variables_and_initialisers)
{
    ptx_module *m = parse_ok(HEADER
        ".global .align 4 .u32 counter;\n"
        ".const .align 4 .b8 coeffs[20] = {1, 0, 0, 0, 2};\n"
        ".global .align 8 .u64 ptr_to_counter = generic(counter);\n"
        ".global .align 8 .u64 tab[3] = {coeffs, counter+8};\n"
        ".extern .shared .align 16 .b8 smem[];\n"
        ".global .f32 fl[3] = {1, 0f40000000, -2.5};\n"
        ".global .f64 dl = 0.5;\n"
        ".global .s16 sh[2][2] = {{-1}, {3, 4}};\n"
        ".global .u8 str[] = {104, 105, 0};\n"
        ".global .f16 h = 0f3F800000;\n"
        ".global .attribute(.managed) .align 4 .u32 mv = 3;\n"
        ".entry k()\n{\n.local .align 8 .b8 depot[24];\n.shared .align 4 .f32 tile[256];\n"
        ".shared .align 16 .b8 t2[4];\nret;\n}\n");
    int32_t s = ptx_find_symbol(m, -1, "coeffs");
    ck_assert_int_ge(s, 0);
    const ptx_symbol *c = &m->syms[s];
    ck_assert_int_eq(c->space, PTX_SPACE_CONST);
    ck_assert_uint_eq(c->size, 20);
    uint8_t want[20] = {1, 0, 0, 0, 2};
    uint8_t got[20];
    ptx_init_read(c, 0, got, sizeof got);
    ck_assert_mem_eq(got, want, 20);
    const ptx_symbol *cnt = &m->syms[ptx_find_symbol(m, -1, "counter")];
    ck_assert_ptr_null(cnt->init);
    ck_assert_uint_eq(cnt->size, 4);
    const ptx_symbol *p = &m->syms[ptx_find_symbol(m, -1, "ptr_to_counter")];
    ck_assert_uint_eq(p->nrelocs, 1);
    ck_assert(p->relocs[0].generic);
    ck_assert_int_eq(p->relocs[0].sym, ptx_find_symbol(m, -1, "counter"));
    ck_assert_uint_eq(p->relocs[0].size, 8);
    const ptx_symbol *t = &m->syms[ptx_find_symbol(m, -1, "tab")];
    ck_assert_uint_eq(t->nrelocs, 2);
    ck_assert_uint_eq(t->relocs[1].offset, 8);
    ck_assert_int_eq(t->relocs[1].addend, 8);
    ck_assert(!t->relocs[1].generic);
    ck_assert_uint_eq(t->size, 24);
    const ptx_symbol *sm = &m->syms[ptx_find_symbol(m, -1, "smem")];
    ck_assert_uint_eq(sm->size, 0);
    ck_assert_uint_eq(sm->align, 16);
    ck_assert_int_eq(sm->linkage, PTX_LINK_EXTERN);
    const ptx_symbol *fl = &m->syms[ptx_find_symbol(m, -1, "fl")];
    float fv[3];
    ptx_init_read(fl, 0, fv, 12);
    ck_assert(fv[0] == 1.0f && fv[1] == 2.0f && fv[2] == -2.5f);
    double dv;
    ptx_init_read(&m->syms[ptx_find_symbol(m, -1, "dl")], 0, &dv, 8);
    ck_assert(dv == 0.5);
    int16_t sv[4];
    ptx_init_read(&m->syms[ptx_find_symbol(m, -1, "sh")], 0, sv, 8);
    ck_assert(sv[0] == -1 && sv[1] == 0 && sv[2] == 3 && sv[3] == 4);   /* short row zero-fills */
    const ptx_symbol *str = &m->syms[ptx_find_symbol(m, -1, "str")];
    ck_assert_uint_eq(str->size, 3);   /* unsized array sized by its initialiser */
    uint16_t hv;
    ptx_init_read(&m->syms[ptx_find_symbol(m, -1, "h")], 0, &hv, 2);
    ck_assert_uint_eq(hv, 0x3C00);     /* 1.0 in half precision */
    ck_assert(m->syms[ptx_find_symbol(m, -1, "mv")].managed);
    const ptx_function *k = ptx_find_function(m, "k");
    int32_t ki = (int32_t)(k - m->funcs);
    const ptx_symbol *dep = &m->syms[ptx_find_symbol(m, ki, "depot")];
    ck_assert_int_eq(dep->owner, ki);
    ck_assert_uint_eq(dep->offset, 0);
    ck_assert_uint_eq(k->local_size, 24);
    ck_assert_uint_eq(m->syms[ptx_find_symbol(m, ki, "tile")].offset, 0);
    ck_assert_uint_eq(m->syms[ptx_find_symbol(m, ki, "t2")].offset, 1024);
    ck_assert_uint_eq(k->shared_size, 1028);
    ptx_module_free(m);
}
END_TEST

START_TEST(operands_and_literals)
{
    ptx_module *m = parse_ok(HEADER
        ".global .align 4 .b8 buf[64];\n"
        ".entry k()\n{\n.reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .f64 %fd1; .reg .pred %p;\n"
        "mov.u32 %r1, %ctaid.y;\n"                     /* 0 */
        "mov.u32 %r1, %envreg7;\n"                     /* 1 */
        "mov.u64 %rd1, buf;\n"                         /* 2 */
        "ld.global.u32 %r1, [buf+8];\n"                /* 3 */
        "ld.global.u32 %r1, [%rd1+-4];\n"              /* 4 */
        "mov.f64 %fd1, 0d3FF0000000000000;\n"          /* 5 */
        "mov.f64 %fd1, -1.5;\n"                        /* 6 */
        "mov.b32 %r1, 0x7fffffff;\n"                   /* 7 */
        "add.s32 %r1, %r2, -0x10;\n"                   /* 8 */
        "atom.global.add.u32 _, [%rd1], 1;\n"          /* 9 */
        "mov.b64 %rd2, {%r1, %r2};\n"                  /* 10 */
        "@!%p bra DONE;\n"                             /* 11 */
        "ld.global.u32 %r1, [1024];\n"                 /* 12 */
        "DONE:\nret;\n}\n");
    const ptx_function *k = ptx_find_function(m, "k");
    const ptx_instr *in = k->instrs;
    ck_assert_int_eq(in[0].ops[1].kind, PTX_OPD_SREG);
    ck_assert_int_eq(in[0].ops[1].reg, PTX_SREG_CTAID);
    ck_assert_int_eq(in[0].ops[1].comp, 1);
    ck_assert_int_eq(in[1].ops[1].reg, PTX_SREG_ENVREG);
    ck_assert_int_eq(in[1].ops[1].comp, 7);
    ck_assert_int_eq(in[2].ops[1].kind, PTX_OPD_SYM);
    ck_assert_int_eq(in[2].ops[1].sym, ptx_find_symbol(m, -1, "buf"));
    ck_assert_int_eq(in[3].ops[1].kind, PTX_OPD_ADDR);
    ck_assert_int_eq(in[3].ops[1].sym, ptx_find_symbol(m, -1, "buf"));
    ck_assert_int_eq(in[3].ops[1].reg, -1);
    ck_assert_int_eq(in[3].ops[1].imm, 8);
    ck_assert_int_eq(in[4].ops[1].imm, -4);
    ck_assert_int_ge(in[4].ops[1].reg, 0);
    ck_assert_int_eq(in[5].ops[1].kind, PTX_OPD_FIMM64);
    ck_assert_uint_eq((uint64_t)in[5].ops[1].imm, UINT64_C(0x3FF0000000000000));
    double d;
    uint64_t bits = (uint64_t)in[6].ops[1].imm;
    memcpy(&d, &bits, 8);
    ck_assert_int_eq(in[6].ops[1].kind, PTX_OPD_FIMM64);
    ck_assert(d == -1.5);
    ck_assert_int_eq(in[7].ops[1].imm, 0x7fffffff);
    ck_assert_int_eq(in[8].ops[2].imm, -16);
    ck_assert_int_eq(in[9].ops[0].kind, PTX_OPD_SINK);
    ck_assert_int_eq(in[10].ops[1].kind, PTX_OPD_VEC);
    ck_assert_int_eq(in[10].ops[1].nelem, 2);
    ck_assert_int_ge(in[11].guard, 0);
    ck_assert(in[11].guard_neg);
    ck_assert_int_eq(in[11].ops[0].kind, PTX_OPD_LABEL);
    ck_assert_int_eq(in[11].ops[0].imm, 13);
    ck_assert_int_eq(in[11].target, 13);
    ck_assert_int_eq(in[12].ops[1].kind, PTX_OPD_ADDR);
    ck_assert_int_eq(in[12].ops[1].reg, -1);
    ck_assert_int_eq(in[12].ops[1].sym, -1);
    ck_assert_int_eq(in[12].ops[1].imm, 1024);
    ptx_module_free(m);
}
END_TEST

START_TEST(prototypes_then_definitions)
{
    ptx_module *m = parse_ok(HEADER
        ".func (.param .b32 r) f(.param .b32 a);\n"
        ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
        ".entry k()\n{\n.reg .b32 %r;\n{\n.param .b32 p;\n.param .b32 q;\n"
        "call.uni (q), f, (p);\n}\nret;\n}\n"
        ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n");
    ck_assert_uint_eq(m->nfuncs, 3);
    const ptx_function *f = ptx_find_function(m, "f");
    ck_assert(!f->is_decl);
    ck_assert_uint_eq(f->ninstrs, 1);
    ck_assert_int_eq((int)(f - m->funcs), 0);   /* the definition filled the prototype's entry */
    ck_assert_uint_eq(f->nparams, 1);
    ck_assert_str_eq(m->syms[f->params[0]].name, "a");
    ck_assert_int_eq(m->syms[f->params[0]].owner, 0);
    const ptx_function *v = ptx_find_function(m, "vprintf");
    ck_assert(v->is_decl);
    ck_assert_int_eq(v->linkage, PTX_LINK_EXTERN);
    const ptx_function *k = ptx_find_function(m, "k");
    ck_assert_int_eq(m->syms[k->instrs[0].target].func, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(indirect_calls_and_tables)
{
    size_t len;
    char *text = pk_read_file("tests/ptx/frontend/directives.ptx", &len);
    ck_assert_ptr_nonnull(text);
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, len, "directives.ptx", &d);
    ck_assert_msg(m != NULL, "%s", d.text ? d.text : "");
    const ptx_function *k = ptx_find_function(m, "kern");
    ck_assert_uint_eq(k->maxntid[0], 128);
    ck_assert_uint_eq(k->maxntid[1], 1);
    ck_assert_uint_eq(k->minnctapersm, 2);
    ck_assert_uint_eq(k->maxclusterrank, 4);
    ck_assert_uint_eq(k->reqnctapercluster[0], 2);
    ck_assert(k->explicitcluster);
    ck_assert(ptx_find_function(m, "add1")->noreturn);
    const ptx_instr *brx = NULL, *icall = NULL, *tcall = NULL;
    for (uint32_t i = 0; i < k->ninstrs; i++) {
        const ptx_instr *in = &k->instrs[i];
        if (in->op == PTX_OP_BRX_IDX)
            brx = in;
        if (in->op == PTX_OP_CALL && !icall)
            icall = in;
        else if (in->op == PTX_OP_CALL)
            tcall = in;
    }
    ck_assert_ptr_nonnull(brx);
    ck_assert_int_eq(brx->ops[1].kind, PTX_OPD_LIST);
    ck_assert_int_eq(brx->ops[1].nelem, 2);
    ck_assert_int_eq(brx->ops[1].elems[0].kind, PTX_OPD_LABEL);
    /* L0 and L1 are the two instructions after the brx.idx */
    ck_assert_int_eq(brx->ops[1].elems[0].imm, (brx - k->instrs) + 1);
    ck_assert_int_eq(brx->ops[1].elems[1].imm, (brx - k->instrs) + 2);
    ck_assert_uint_eq(k->blocks[brx->block].nsucc, 2);
    ck_assert_int_eq(k->blocks[brx->block].succ[0], k->instrs[brx->ops[1].elems[0].imm].block);
    ck_assert_int_eq(k->blocks[brx->block].succ[1], k->instrs[brx->ops[1].elems[1].imm].block);
    ck_assert_ptr_nonnull(icall);
    ck_assert_int_eq(icall->target, -1);            /* through a register */
    ck_assert_int_eq(icall->ops[1].kind, PTX_OPD_REG);
    ck_assert_int_eq(icall->ops[3].kind, PTX_OPD_SYM);
    const ptx_symbol *proto = &m->syms[icall->ops[3].sym];
    ck_assert_str_eq(proto->name, "proto");
    ck_assert_int_eq(proto->kind, PTX_SYM_FUNC);
    ck_assert_int_eq(proto->owner, (int32_t)(k - m->funcs));
    const ptx_function *pf = &m->funcs[proto->func];
    ck_assert(pf->is_decl);
    ck_assert_uint_eq(pf->nparams, 1);
    ck_assert_uint_eq(pf->nrets, 1);
    ck_assert_ptr_nonnull(tcall);
    ck_assert_int_eq(tcall->ops[3].kind, PTX_OPD_LIST);
    ck_assert_int_eq(tcall->ops[3].comp, 2);
    ck_assert_int_eq(tcall->ops[3].elems[1].sym, ptx_find_symbol(m, -1, "dbl"));
    /* .alias resolves to the aliased body */
    int32_t al = ptx_find_symbol(m, -1, "alias_of_dbl");
    ck_assert_int_eq(m->syms[al].func, (int32_t)(ptx_find_function(m, "dbl") - m->funcs));
    ptx_module_free(m);
    ptx_diag_free(&d);
    free(text);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static const struct {
    const char *src;
    const char *want;
} bad[] = {
    {HEADER ".entry k()\n{\n  add.s32 %r1, %r2, %r3;\n}\n",
     "t.ptx:6:11: error: in function 'k': undefined register '%r1'"},
    {HEADER ".entry k()\n{\n.reg .b32 %r<4>;\n  ld.foo.u32 %r1, [%r2];\n}\n",
     "t.ptx:7:3: error: in function 'k': unknown modifier '.foo' on 'ld'"},
    {HEADER ".entry k()\n{\n  frobnicate.u32;\n}\n",
     "t.ptx:6:3: error: in function 'k': unknown instruction 'frobnicate.u32'"},
    {HEADER ".entry k()\n{\n.reg .pred %p;\n@%p bra NOWHERE;\nret;\n}\n",
     "t.ptx:7:9: error: in function 'k': undefined label or symbol 'NOWHERE'"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n   ld.global.u32 %r, [nosuch];\n}\n",
     "t.ptx:7:23: error: in function 'k': undefined symbol 'nosuch'"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n.reg .b32 %r;\n}\n",
     "t.ptx:7:11: error: in function 'k': redeclaration of '%r'"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n  mov.u32 %r 1;\n}\n",
     "t.ptx:7:14: error: in function 'k': syntax error, unexpected integer literal"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n.reg .b64 %rd;\n  add.s32 %r, %r, %rd;\n}\n",
     "t.ptx:8:3: error: in function 'k': 'add.s32': operand 3: register '%rd' is .b64"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n.reg .f32 %f;\n  add.s32 %r, %r, %f;\n}\n",
     "'add.s32': operand 3: register '%f' is .f32, which does not agree with .s32"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n  add.s32 %r, %r;\n}\n",
     "t.ptx:7:3: error: in function 'k': 'add.s32': expects 3 operands, got 2"},
    {HEADER ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd;\n"
            "  ld.global.v4.u32 {%r0, %r1, %r2}, [%rd];\n}\n",
     "'ld.global.v4.u32': operand 1: vector has 3 elements but the instruction is .v4"},
    {HEADER ".entry k()\n{\n.reg .b16 %h;\n.reg .b64 %rd;\n  ld.global.u32 %h, [%rd];\n}\n",
     "'ld.global.u32': operand 1: register '%h' is .b16, which cannot hold .u32 data"},
    {HEADER ".entry k()\n{\n.reg .f64 %fd;\n.reg .b64 %rd;\n  ld.global.f32 %fd, [%rd];\n}\n",
     "register '%fd' is .f64, which cannot hold .f32 data"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n  @%r bra L;\nL:\nret;\n}\n",
     "t.ptx:7:4: error: in function 'k': guard '%r' is not a .pred register"},
    {HEADER ".entry k()\n{\n.reg .b32 %r;\n.reg .pred %p;\n  setp.eq.s32 %r, %r, 1;\n}\n",
     "'setp.eq.s32': operand 1: register '%r' is .b32, expected a .pred register"},
    {HEADER ".global .u32 x = 1;\n.global .u32 x;\n",
     "t.ptx:5:14: error: redeclaration of 'x'"},
    {HEADER ".global .u64 p = generic(missing);\n",
     "t.ptx:4:18: error: undefined symbol 'missing' in initialiser"},
    {HEADER ".global .u32 a[2] = {1, 2, 3};\n",
     "t.ptx:4:28: error: too many initialisers for 'a'"},
    {HEADER ".entry k()\n{\nL:\nL:\nret;\n}\n",
     "t.ptx:7:1: error: in function 'k': duplicate label 'L'"},
    {".target sm_80\n.entry k()\n{\nret;\n}\n", "t.ptx:1:1: error: missing .version directive"},
    {HEADER ".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n",
     "t.ptx:8:8: error: redefinition of function 'k'"},
    {HEADER ".entry k()\n{\n.reg .b32 %r<2>;\n  mov.u32 %r0, %tid.w;\n}\n",
     "undefined register '%tid.w'"},
    {HEADER ".entry k()\n{\n", "t.ptx:6:1: error: in function 'k': syntax error, unexpected end of file"},
    {HEADER ".global .u32 big[4294967296][4294967296] = {1};\n",
     "t.ptx:4:14: error: variable 'big' is larger than 1099511627776 bytes"},
    {HEADER ".func f(.reg .v4 .pred a)\n{\nret;\n}\n",
     "t.ptx:4:24: error: in function 'f': .reg parameter 'a': ptxsim supports .reg parameters"},
    {HEADER ".entry k()\n{\n.reg .v8 .b32 %e;\nret;\n}\n",
     "in function 'k': vector register '%e' is .v8 .b32: vector registers are .v2 or .v4 of at most 128 bits"},
    {HEADER ".entry k()\n{\n.reg .v4 .f64 %e;\nret;\n}\n",
     "vector register '%e' is .v4 .f64"},
    {HEADER ".entry k()\n{\n.reg .v2 .u32 %v;\n.reg .u32 %r;\nmov.u32 %r, %v.w;\nret;\n}\n",
     "'%v.w': no such component"},
    {HEADER ".entry k()\n{\n.reg .u32 %r;\nmov.u32 %r, %r.y;\nret;\n}\n",
     "'%r.y': not a vector register"},
    {HEADER ".entry k()\n{\n.reg .v2 .u64 %v;\n.reg .u32 %r;\nld.global.u32 %r, [%v+4];\nret;\n}\n",
     "t.ptx:8:20: error: in function 'k': vector register '%v' cannot be an address"},
};

START_TEST(error_messages)
{
    parse_fails_with(bad[_i].src, bad[_i].want);
}
END_TEST

START_TEST(errors_are_collected)
{
    ptx_diag d = {0};
    ptx_module *m = parse_str(HEADER ".entry k()\n{\nmov.u32 %a, 1;\nmov.u32 %b, 1;\n"
                              "mov.u32 %c, 1;\n}\n", &d);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(d.errors, 3);
    ck_assert_ptr_nonnull(strstr(d.text, "'%a'"));
    ck_assert_ptr_nonnull(strstr(d.text, "'%c'"));
    ptx_diag_free(&d);
    /* a NULL diag is allowed, and NUL-padded text (as fatbins hold it) parses */
    const char src[] = HEADER ".entry k()\n{\nret;\n}\n\0\0\0";
    m = ptx_parse(src, sizeof src, "padded", NULL);
    ck_assert_ptr_nonnull(m);
    ptx_module_free(m);
    ck_assert_ptr_null(ptx_parse("", 0, "empty", NULL));
    ck_assert_ptr_null(ptx_parse("garbage \x01\x02", 10, "bin", NULL));
}
END_TEST

/* ---------------------------------------------------------------- threads */

typedef struct job {
    const char *text;
    size_t len;
    int ok;
} job;

static void *parse_many(void *arg)
{
    job *j = arg;
    j->ok = 1;
    for (int i = 0; i < 20; i++) {
        ptx_module *m = ptx_parse(j->text, j->len, "thread", NULL);
        if (!m || !ptx_find_function(m, "_Z8warp_opsPjPKfPdi"))
            j->ok = 0;
        ptx_module_free(m);
    }
    return NULL;
}

START_TEST(parses_concurrently)
{
    size_t len;
    char *text = pk_read_file("tests/ptx/frontend/features.sm80.ptx", &len);
    ck_assert_ptr_nonnull(text);
    pthread_t th[4];
    job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){text, len, 0};
        ck_assert_int_eq(pthread_create(&th[i], NULL, parse_many, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        ck_assert_int_eq(jobs[i].ok, 1);
    }
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("nvcc");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, accepts_nvcc_samples, 0, (int)(sizeof samples / sizeof samples[0]));
    tcase_add_test(tc, vadd_shape);
    tcase_add_test(tc, debug_info_positions);
    tcase_add_test(tc, parses_concurrently);
    suite_add_tcase(s, tc);
    tc = tcase_create("lowering");
    tcase_add_test(tc, mnemonic_decoding);
    tcase_add_test(tc, names_and_vocabulary);
    tcase_add_test(tc, register_ranges_and_slots);
    tcase_add_test(tc, scopes_shadow_names);
    tcase_add_test(tc, param_offsets);
    tcase_add_test(tc, variables_and_initialisers);
    tcase_add_test(tc, operands_and_literals);
    tcase_add_test(tc, prototypes_then_definitions);
    tcase_add_test(tc, indirect_calls_and_tables);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, error_messages, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, errors_are_collected);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
