/* test_regions.c: iGPU region formation (frontend/ptx_regions.c) against the paper's worked
 * example (Menon et al., ISCA 2012, Figs. 3-4; the spec's S-10 A and S-11.7 unit tests 1, 2
 * and 4), alias and short-region rules, and, on every sample module of the repository, the
 * property that defines the regions: no clobber antidependence lies inside a sparse region. */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

static ptx_regions *regions_of(const ptx_module *m, const ptx_function *fn, uint32_t short_limit,
                               bool conservative)
{
    ptx_region_options o = {short_limit, conservative};
    char err[256] = "";
    ptx_regions *r = ptx_regions_compute(m, fn, &o, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    return r;
}

/* Every path from a pair's load to its store crosses a sparse boundary; every boundary is
 * where bnd_before says; the kernel entry is a sparse boundary. */
static void check_regions(const ptx_function *fn, const ptx_regions *r, const char *where)
{
    if (!fn->ninstrs) return;
    ck_assert_msg(r->bnd_before[0] >= 0 && r->bounds[r->bnd_before[0]].kind == PTX_BND_SPARSE,
                  "%s %s: the entry is not a sparse boundary", where, fn->name);
    for (uint32_t b = 0; b < r->nbounds; b++)
        ck_assert_int_eq(r->bnd_before[r->bounds[b].instr], (int)b);
    uint8_t *seen = calloc(fn->ninstrs, 1);
    uint32_t *stack = malloc((fn->ninstrs * 4 + 64) * sizeof *stack);
    ck_assert(seen && stack);
    for (uint32_t k = 0; k < r->npairs; k++) {
        const ptx_clobber_pair *p = &r->pairs[k];
        ck_assert_msg(p->cut >= 0 && (uint32_t)p->cut < r->nbounds, "%s %s: clobber %u uncut",
                      where, fn->name, k);
        memset(seen, 0, fn->ninstrs);
        uint32_t sp = 0;
        stack[sp++] = p->load;
        while (sp) {
            uint32_t q = stack[--sp];
            const ptx_block *b = &fn->blocks[fn->instrs[q].block];
            uint32_t next[64], nn = 0;
            if (q + 1 < b->end) next[nn++] = q + 1;
            else
                for (uint32_t s = 0; s < b->nsucc && nn < 64; s++) next[nn++] = fn->blocks[b->succ[s]].first;
            for (uint32_t j = 0; j < nn; j++) {
                uint32_t x = next[j];
                int32_t bi = r->bnd_before[x];
                if (bi >= 0 && r->bounds[bi].kind == PTX_BND_SPARSE) continue;
                ck_assert_msg(x != p->store, "%s %s: clobber %u (load %u, store %u) lies inside a "
                              "sparse region", where, fn->name, k, p->load, p->store);
                if (!seen[x]) {
                    seen[x] = 1;
                    stack[sp++] = x;
                }
            }
        }
    }
    free(seen);
    free(stack);
}

static const ptx_boundary *boundary_before(const ptx_regions *r, uint32_t instr)
{
    int32_t b = r->bnd_before[instr];
    return b >= 0 ? &r->bounds[b] : NULL;
}

static bool has_reg(const ptx_function *fn, const int32_t *regs, uint32_t n, const char *name)
{
    for (uint32_t k = 0; k < n; k++)
        if (strcmp(fn->regs[regs[k]].name, name) == 0) return true;
    return false;
}

START_TEST(paper_fig3_one_clobber_cut_before_the_loop)
{
    size_t len;
    char *text = pk_read_file("tests/ptx/igpu/fig3_matmul_accumulate.ptx", &len);
    ck_assert_ptr_nonnull(text);
    ptx_module *m = pk_parse(text, "fig3_matmul_accumulate.ptx");
    const ptx_function *fn = ptx_find_function(m, "MatrixMultiplyAccumulate");
    ck_assert_ptr_nonnull(fn);
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "fig3");
    /* exactly one clobber antidependence: load C.data[row*C.width+col] (line 4) -> store to
     * the same element (line 7) */
    ck_assert_uint_eq(r->npairs, 1);
    const ptx_instr *ld = &fn->instrs[r->pairs[0].load], *st = &fn->instrs[r->pairs[0].store];
    ck_assert_int_eq(ld->op, PTX_OP_LD);
    ck_assert_int_eq(ld->space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(ld->dbg_line, 4);
    ck_assert_int_eq(st->op, PTX_OP_ST);
    ck_assert_uint_eq(st->dbg_line, 7);
    /* one cut: before the loop, at i = 0 (Fig. 4), the only sparse boundary besides the entry */
    uint32_t sparse = 0;
    for (uint32_t b = 0; b < r->nbounds; b++) sparse += r->bounds[b].kind == PTX_BND_SPARSE;
    ck_assert_uint_eq(sparse, 2);
    const ptx_boundary *cut = &r->bounds[r->pairs[0].cut];
    ck_assert_int_eq(cut->kind, PTX_BND_SPARSE);
    ck_assert_int_eq(cut->reason, PTX_CUT_CLOBBER);
    const ptx_instr *at = &fn->instrs[cut->instr];
    ck_assert_int_eq(at->op, PTX_OP_MOV);
    ck_assert_uint_eq(at->dbg_line, 5);
    ck_assert_int_eq(at->ops[1].kind, PTX_OPD_IMM);
    ck_assert_int_eq(at->ops[1].imm, 0);
    ck_assert_uint_eq(cut->loop_depth, 0);
    /* 3 live-ins: row, col, Cvalue; the kernel's inputs in memory are not counted */
    ck_assert_uint_eq(cut->nlive, 3);
    ck_assert_uint_eq(cut->live32, 3);
    ck_assert(has_reg(fn, cut->live, cut->nlive, "%r4"));   /* row */
    ck_assert(has_reg(fn, cut->live, cut->nlive, "%r8"));   /* col */
    ck_assert(has_reg(fn, cut->live, cut->nlive, "%f1"));   /* Cvalue */
    /* Cvalue is accumulated in the loop: one copy preserves it (Fig. 4's mov $r3, $r1) */
    ck_assert_uint_eq(cut->npreserve, 1);
    ck_assert(has_reg(fn, cut->preserve, cut->npreserve, "%f1"));
    /* the loop holds no sparse boundary, so its header starts a short sub-region */
    uint32_t loops = 0;
    for (uint32_t b = 0; b < r->nbounds; b++)
        if (r->bounds[b].reason == PTX_CUT_LOOP) {
            loops++;
            ck_assert_int_eq(fn->instrs[r->bounds[b].instr].op, PTX_OP_SETP);
        }
    ck_assert_uint_eq(loops, 1);
    ptx_regions_free(r);
    ptx_module_free(m);
    free(text);
}
END_TEST

/* x[i] += 1: the load and the store of one element; the cut falls after the load, at the
 * latest before the store. */
START_TEST(increment_in_place_is_cut_between_load_and_store)
{
    ptx_module *m = pk_parse(HEADER
        ".visible .entry k(.param .u64 x)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [x];\n"            /* 0 */
        "cvta.to.global.u64 %rd2, %rd1;\n"     /* 1 */
        "mov.u32 %r1, %tid.x;\n"               /* 2 */
        "mul.wide.u32 %rd3, %r1, 4;\n"         /* 3 */
        "add.s64 %rd4, %rd2, %rd3;\n"          /* 4 */
        "ld.global.u32 %r2, [%rd4];\n"         /* 5 */
        "add.s32 %r3, %r2, 1;\n"               /* 6 */
        "st.global.u32 [%rd4], %r3;\n"         /* 7 */
        "ret;\n}\n", "inc.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "inc");
    ck_assert_uint_eq(r->npairs, 1);
    ck_assert_uint_eq(r->pairs[0].load, 5);
    ck_assert_uint_eq(r->pairs[0].store, 7);
    uint32_t at = r->bounds[r->pairs[0].cut].instr;
    ck_assert_msg(at == 6 || at == 7, "cut before %u", at);
    ptx_regions_free(r);
    ptx_module_free(m);
}
END_TEST

/* A read of one pointer parameter and a write through another: no clobber when distinct
 * parameters do not alias (the paper's example), one when they may. Shared and global never
 * alias. */
START_TEST(alias_model)
{
    ptx_module *m = pk_parse(HEADER
        ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
        ".shared .align 4 .b8 tile[128];\n"
        "ld.param.u64 %rd1, [a];\n"
        "ld.param.u64 %rd2, [b];\n"
        "cvta.to.global.u64 %rd3, %rd1;\n"
        "cvta.to.global.u64 %rd4, %rd2;\n"
        "ld.global.u32 %r1, [%rd3];\n"
        "ld.shared.u32 %r2, [tile];\n"
        "add.s32 %r3, %r1, %r2;\n"
        "st.global.u32 [%rd4], %r3;\n"
        "ret;\n}\n", "alias.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "alias restrict");
    ck_assert_uint_eq(r->npairs, 0);
    ptx_regions_free(r);
    r = regions_of(m, fn, 0, true);
    check_regions(fn, r, "alias conservative");
    ck_assert_uint_eq(r->npairs, 1);
    ck_assert_uint_eq(r->pairs[0].load, 4);
    ptx_regions_free(r);
    ptx_module_free(m);
}
END_TEST

/* One base plus disjoint constant offsets never alias: a variable, or a register defined
 * once outside loops; a base register redefined in a loop may (its value changes). */
START_TEST(disjoint_constant_offsets)
{
    ptx_module *m = pk_parse(HEADER
        ".visible .entry k(.param .u64 a)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
        ".shared .align 4 .b8 tile[128];\n"
        "ld.param.u64 %rd1, [a];\n"            /* 0 */
        "cvta.to.global.u64 %rd2, %rd1;\n"     /* 1 */
        "ld.shared.u32 %r1, [tile];\n"         /* 2 */
        "st.shared.u32 [tile+4], %r1;\n"       /* 3: no pair */
        "ld.global.u32 %r2, [%rd2];\n"         /* 4 */
        "st.global.u32 [%rd2+4], %r2;\n"       /* 5: no pair */
        "ld.global.v2.u32 {%r3, %r4}, [%rd2+8];\n"   /* 6 */
        "st.global.u32 [%rd2+12], %r3;\n"      /* 7: overlaps bytes 12..15 of the load */
        "mov.u32 %r5, 0;\n"                    /* 8 */
        "L:\n"
        "ld.global.u32 %r6, [%rd3];\n"         /* 9 */
        "st.global.u32 [%rd3+4], %r6;\n"       /* 10: %rd3 changes per iteration: a pair */
        "add.s64 %rd3, %rd3, 4;\n"             /* 11 */
        "add.s32 %r5, %r5, 1;\n"               /* 12 */
        "setp.lt.u32 %p1, %r5, 4;\n"           /* 13 */
        "@%p1 bra L;\n"                        /* 14 */
        "ret;\n}\n", "offsets.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "offsets");
    ck_assert_uint_eq(r->npairs, 2);
    ck_assert_uint_eq(r->pairs[0].load, 6);
    ck_assert_uint_eq(r->pairs[0].store, 7);
    ck_assert_uint_eq(r->pairs[1].load, 9);
    ck_assert_uint_eq(r->pairs[1].store, 10);
    ptx_regions_free(r);
    ptx_module_free(m);
}
END_TEST

/* Atomics and barriers sit in regions of their own; warp-collectives end one; trap starts one
 * (spec S-4.5). A forced cut also stops the clobber search: the barrier separates the shared
 * load from the shared store. */
START_TEST(forced_boundaries)
{
    ptx_module *m = pk_parse(HEADER
        ".visible .entry k(.param .u64 a)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        ".shared .align 4 .b8 s[128];\n"
        "ld.param.u64 %rd1, [a];\n"                         /* 0 */
        "ld.shared.u32 %r1, [s];\n"                         /* 1 */
        "bar.sync 0;\n"                                     /* 2 */
        "st.shared.u32 [s], %r1;\n"                         /* 3 */
        "atom.global.add.u32 %r2, [%rd1], 1;\n"             /* 4 */
        "add.s32 %r3, %r2, 1;\n"                            /* 5 */
        "vote.sync.any.pred %p1, 1, 0xffffffff;\n"          /* 6 */
        "selp.u32 %r4, 1, 0, %p1;\n"                        /* 7 */
        "setp.eq.u32 %p1, %r4, 7;\n"                        /* 8 */
        "@%p1 trap;\n"                                      /* 9 */
        "ret;\n}\n", "forced.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "forced");
    ck_assert_uint_eq(r->npairs, 0);
    static const struct { uint32_t instr; int reason; } want[] = {
        {2, PTX_CUT_FORCED_BEFORE}, {3, PTX_CUT_FORCED_AFTER}, {4, PTX_CUT_FORCED_BEFORE},
        {5, PTX_CUT_FORCED_AFTER}, {7, PTX_CUT_FORCED_AFTER}, {9, PTX_CUT_FORCED_BEFORE}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const ptx_boundary *b = boundary_before(r, want[k].instr);
        ck_assert_msg(b && b->kind == PTX_BND_SPARSE && b->reason == want[k].reason,
                      "instr %u: expected a forced sparse boundary", want[k].instr);
    }
    ck_assert_ptr_null(boundary_before(r, 6));   /* nothing before the vote */
    ck_assert_ptr_null(boundary_before(r, 8));
    ptx_regions_free(r);
    ptx_module_free(m);
}
END_TEST

/* Straight-line code of 100 instructions: short boundaries every `limit` instructions. */
START_TEST(short_regions_respect_the_limit)
{
    char *src = malloc(8192);
    ck_assert_ptr_nonnull(src);
    int n = snprintf(src, 8192, HEADER ".visible .entry k()\n{\n.reg .b32 %%r<4>;\nmov.u32 %%r1, 0;\n");
    for (int i = 1; i < 100; i++) n += snprintf(src + n, 8192 - (size_t)n, "add.s32 %%r1, %%r1, 1;\n");
    snprintf(src + n, 8192 - (size_t)n, "}\n");
    ptx_module *m = pk_parse(src, "short.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ck_assert_uint_eq(fn->ninstrs, 100);
    static const uint32_t limits[] = {16, 32, 64};
    for (size_t k = 0; k < 3; k++) {
        ptx_regions *r = regions_of(m, fn, limits[k], false);
        check_regions(fn, r, "short");
        ck_assert_uint_eq(r->nbounds, (100 + limits[k] - 1) / limits[k]);
        for (uint32_t b = 0; b < r->nbounds; b++) {
            ck_assert_uint_eq(r->bounds[b].instr, b * limits[k]);
            if (!b) continue;   /* the entry's size is its whole sparse region */
            ck_assert_uint_le(r->bounds[b].size, limits[k]);
            ck_assert_int_eq(r->bounds[b].reason, PTX_CUT_LENGTH);
        }
        ptx_regions_free(r);
    }
    ptx_module_free(m);
    free(src);
}
END_TEST

/* A clobber inside a loop: each iteration reads a[i] and writes a[i+1] through one pointer
 * (may alias): the cut goes inside the loop body, between the load and the store. */
START_TEST(clobber_in_a_loop_is_cut_inside_the_loop)
{
    ptx_module *m = pk_parse(HEADER
        ".visible .entry k(.param .u64 a, .param .u32 n)\n{\n.reg .pred %p<2>;\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [a];\n"          /* 0 */
        "ld.param.u32 %r1, [n];\n"           /* 1 */
        "cvta.to.global.u64 %rd2, %rd1;\n"   /* 2 */
        "mov.u32 %r2, 0;\n"                  /* 3 */
        "L:\n"
        "mul.wide.u32 %rd3, %r2, 4;\n"       /* 4 */
        "add.s64 %rd4, %rd2, %rd3;\n"        /* 5 */
        "ld.global.u32 %r3, [%rd4];\n"       /* 6 */
        "add.s32 %r4, %r3, 1;\n"             /* 7 */
        "st.global.u32 [%rd4+4], %r4;\n"     /* 8 */
        "add.s32 %r2, %r2, 1;\n"             /* 9 */
        "setp.lt.u32 %p1, %r2, %r1;\n"       /* 10 */
        "@%p1 bra L;\n"                      /* 11 */
        "ret;\n}\n", "loopcarried.ptx");
    const ptx_function *fn = ptx_find_function(m, "k");
    ptx_regions *r = regions_of(m, fn, 0, false);
    check_regions(fn, r, "loop");
    ck_assert_uint_ge(r->npairs, 1);
    for (uint32_t k = 0; k < r->npairs; k++) {
        uint32_t at = r->bounds[r->pairs[k].cut].instr;
        ck_assert_msg(at >= 7 && at <= 8, "cut before %u", at);
    }
    ptx_regions_free(r);
    ptx_module_free(m);
}
END_TEST

/* Every function of every sample module (nvcc's PTX of the repository's kernels and the
 * hand-written ones): regions form, and no clobber antidependence lies inside a sparse
 * region. */
static void sample_cut_correctly(const char *path, const char *text, size_t len, void *arg)
{
    (void)len;
    (void)arg;
    ptx_module *m = pk_parse(text, path);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (m->funcs[f].is_decl) continue;
        ptx_regions *r = regions_of(m, &m->funcs[f], 0, false);
        check_regions(&m->funcs[f], r, path);
        ptx_regions_free(r);
    }
    ptx_module_free(m);
}

START_TEST(all_samples_are_cut_correctly)
{
    static const char *const dirs[] = {"tests/ptx/frontend", "tests/ptx/emu", "tests/ptx/engine",
                                       "tests/ptx/handwritten", "tests/ptx/igpu"};
    ck_assert_int_ge(pk_each_ptx_file(dirs, sizeof dirs / sizeof *dirs, sample_cut_correctly, NULL), 20);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("regions");
    TCase *tc = tcase_create("formation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, paper_fig3_one_clobber_cut_before_the_loop);
    tcase_add_test(tc, increment_in_place_is_cut_between_load_and_store);
    tcase_add_test(tc, alias_model);
    tcase_add_test(tc, disjoint_constant_offsets);
    tcase_add_test(tc, forced_boundaries);
    tcase_add_test(tc, short_regions_respect_the_limit);
    tcase_add_test(tc, clobber_in_a_loop_is_cut_inside_the_loop);
    tcase_add_test(tc, all_samples_are_cut_correctly);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
