/* test_slots.c: register slots shared by liveness (frontend/ptx_slots.c, laid out by the
 * emulator's emu_share_register_slots): the interference rules on hand-written PTX, the
 * layout's defining property on every sample module, and kernels whose results are the same
 * with rows shared and not (and differ when two interfering registers are forced together). */
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 7.0\n.target sm_70\n.address_size 64\n"

/* ---------------------------------------------------------------- the defining property */

typedef struct regs_of {
    int32_t reg[256];
    ptx_role role[256];
    uint32_t n;
} regs_of;

static void collect(void *p, int32_t reg, ptx_role role)
{
    regs_of *x = p;
    if (x->n < 256) {
        x->reg[x->n] = reg;
        x->role[x->n++] = role;
    }
}

static bool overlap(const ptx_function *fn, const uint32_t *slot, uint32_t a, uint32_t b)
{
    return slot[a] < slot[b] + fn->regs[b].nslots && slot[b] < slot[a] + fn->regs[a].nslots;
}

static unsigned kind(const ptx_reg *r)
{
    return r->type == PTX_TYPE_PRED ? 0 : ptx_type_bits((ptx_type)r->type);
}

/* Whether the layout keeps apart what must be: a definition from every register live after it
 * and from its instruction's other registers; registers live at entry, parameters, several-slot
 * registers and own[] from everything; kinds from each other. Reports the first breach in why. */
static bool layout_ok(const ptx_function *fn, const uint8_t *own, const uint32_t *slot,
                      uint32_t nslots, char *why, size_t len)
{
    ptx_dataflow *df = ptx_dataflow_compute(fn);
    ck_assert_ptr_nonnull(df);
    uint8_t *named = calloc(fn->nregs, 1);
    bool ok = true;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        regs_of x = {.n = 0};
        ptx_instr_regs(fn, &fn->instrs[i], collect, &x);
        for (uint32_t k = 0; k < x.n; k++) named[x.reg[k]] = 1;
    }
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (fn->regs[r].scope == PTX_REG_SCOPE_PARAM) named[r] = 1;
    for (uint32_t r = 0; ok && r < fn->nregs; r++) {
        if (!named[r]) continue;
        if (slot[r] + fn->regs[r].nslots > nslots) {
            snprintf(why, len, "%s: %s beyond the slots", fn->name, fn->regs[r].name);
            ok = false;
        }
        bool alone = (own && own[r]) || fn->regs[r].scope == PTX_REG_SCOPE_PARAM ||
                     fn->regs[r].nslots > 1 || ptx_live_in(df, 0, (int32_t)r);
        for (uint32_t q = 0; ok && q < fn->nregs; q++) {
            if (q == r || !named[q] || !overlap(fn, slot, r, q)) continue;
            if (alone) snprintf(why, len, "%s: %s shares with %s", fn->name, fn->regs[r].name, fn->regs[q].name);
            else if (kind(&fn->regs[r]) != kind(&fn->regs[q]))
                snprintf(why, len, "%s: kinds mixed in %s and %s", fn->name, fn->regs[r].name, fn->regs[q].name);
            else continue;
            ok = false;
        }
    }
    for (uint32_t i = 0; ok && i < fn->ninstrs; i++) {
        regs_of x = {.n = 0};
        ptx_instr_regs(fn, &fn->instrs[i], collect, &x);
        for (uint32_t k = 0; ok && k < x.n; k++) {
            if (x.role[k] != PTX_ROLE_DEF && x.role[k] != PTX_ROLE_USEDEF) continue;
            uint32_t d = (uint32_t)x.reg[k];
            for (uint32_t q = 0; ok && q < fn->nregs; q++) {
                if (q == d || !named[q] || !overlap(fn, slot, d, q)) continue;
                bool in_instr = false;
                for (uint32_t j = 0; j < x.n; j++) in_instr |= (uint32_t)x.reg[j] == q;
                if (in_instr || ptx_live_after(df, i, (int32_t)q)) {
                    snprintf(why, len, "%s: instruction %u (line %u) writes %s while %s is %s",
                             fn->name, i, fn->instrs[i].line, fn->regs[d].name, fn->regs[q].name,
                             in_instr ? "named there" : "live");
                    ok = false;
                }
            }
        }
    }
    free(named);
    ptx_dataflow_free(df);
    return ok;
}

static int32_t reg_id(const ptx_function *fn, const char *name)
{
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (strcmp(fn->regs[r].name, name) == 0) return (int32_t)r;
    ck_abort_msg("no register %s in %s", name, fn->name);
    return -1;
}

/* The function's shared layout (own = NULL), checked */
typedef struct layout {
    ptx_module *m;
    const ptx_function *fn;
    uint32_t *slot, nslots;
} layout;

static layout share(const char *text)
{
    layout L = { pk_parse(text, "test.ptx"), NULL, NULL, 0 };
    L.fn = &L.m->funcs[L.m->nfuncs - 1];
    L.slot = malloc(L.fn->nregs * sizeof *L.slot);
    L.nslots = ptx_slots_share(L.fn, NULL, NULL, 0, L.slot);
    ck_assert_uint_gt(L.nslots, 0);
    char why[256] = "";
    ck_assert_msg(layout_ok(L.fn, NULL, L.slot, L.nslots, why, sizeof why), "%s", why);
    return L;
}

static void layout_free(layout *L)
{
    free(L->slot);
    ptx_module_free(L->m);
}

static uint32_t slot_of(const layout *L, const char *name) { return L->slot[reg_id(L->fn, name)]; }

/* no other named register of L shares name's slot */
static bool alone(const layout *L, const char *name)
{
    int32_t r = reg_id(L->fn, name);
    for (uint32_t q = 0; q < L->fn->nregs; q++)
        if ((int32_t)q != r && L->slot[q] == L->slot[r] && strcmp(L->fn->regs[q].name, "%r0") != 0 &&
            strcmp(L->fn->regs[q].name, "%rd0") != 0)
            return false;
    return true;
}

/* ---------------------------------------------------------------- the rules, one by one */

START_TEST(straight_line_temporaries_share)
{
    layout L = share(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  add.u32 %r2, %r1, 1;\n"         /* r1 dies here */
        "  mul.lo.u32 %r3, %r2, 3;\n"      /* r2 dies here */
        "  add.u32 %r4, %r3, 5;\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n"   /* (r1 read again: it lives to here) */
        "  st.global.u32 [%rd1], %r4;\n"
        "  ret;\n}\n");
    /* r2 and r4 may take r3's row: some sharing happens */
    ck_assert_uint_lt(L.nslots, L.fn->nslots);
    ck_assert_uint_ne(slot_of(&L, "%r1"), slot_of(&L, "%r2"));
    ck_assert_uint_ne(slot_of(&L, "%r1"), slot_of(&L, "%r4"));
    layout_free(&L);
}
END_TEST

START_TEST(live_at_entry_keeps_its_own_slot)
{
    layout L = share(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  add.u32 %r2, %r1, 1;\n"         /* r1 read before any write: live at entry */
        "  st.global.u32 [%rd1], %r2;\n"
        "  mov.u32 %r3, 7;\n"              /* r1 is dead here: r3 could take its row */
        "  st.global.u32 [%rd1+4], %r3;\n"
        "  ret;\n}\n");
    ck_assert(alone(&L, "%r1"));
    layout_free(&L);
}
END_TEST

START_TEST(guarded_definition_does_not_kill)
{
    layout L = share(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mov.u32 %r2, 7;\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.u32 %p1, %r1, 3;\n"
        "  mov.u32 %r3, %laneid;\n"        /* r2 is live here: lanes whose guard below is */
        "  add.u32 %r4, %r3, 1;\n"         /* false keep its 7 */
        "  @%p1 mov.u32 %r2, %r4;\n"
        "  st.global.u32 [%rd1], %r2;\n"
        "  ret;\n}\n");
    ck_assert_uint_ne(slot_of(&L, "%r2"), slot_of(&L, "%r3"));
    ck_assert_uint_ne(slot_of(&L, "%r2"), slot_of(&L, "%r4"));
    layout_free(&L);
}
END_TEST

START_TEST(loop_carried_register_keeps_its_row_through_the_loop)
{
    layout L = share(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mov.u32 %r1, 0;\n"               /* the sum, carried round the loop */
        "  mov.u32 %r2, 0;\n"               /* the counter */
        "L:\n"
        "  add.u32 %r3, %r2, 3;\n"          /* defined in the loop while r1 and r2 live */
        "  mul.lo.u32 %r4, %r3, %r3;\n"
        "  add.u32 %r1, %r1, %r4;\n"
        "  add.u32 %r2, %r2, 1;\n"
        "  setp.lt.u32 %p1, %r2, 10;\n"
        "  @%p1 bra L;\n"
        "  add.u32 %r5, %r1, 1;\n"          /* after the loop: may take r3's or r2's row */
        "  st.global.u32 [%rd1], %r5;\n"
        "  ret;\n}\n");
    uint32_t s1 = slot_of(&L, "%r1"), s2 = slot_of(&L, "%r2");
    ck_assert_uint_ne(s1, s2);
    ck_assert_uint_ne(slot_of(&L, "%r3"), s1);
    ck_assert_uint_ne(slot_of(&L, "%r3"), s2);
    ck_assert_uint_ne(slot_of(&L, "%r4"), s1);
    ck_assert_uint_ne(slot_of(&L, "%r4"), s2);
    ck_assert_uint_lt(L.nslots, L.fn->nslots);
    layout_free(&L);
}
END_TEST

START_TEST(kinds_never_mixed)
{
    layout L = share(HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n  .reg .b16 %rs<3>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.u32 %p1, %r1, 3;\n"       /* r1 dies */
        "  selp.u32 %r2, 1, 2, %p1;\n"       /* p1 dies */
        "  cvt.u64.u32 %rd2, %r2;\n"         /* r2 dies: rd2 must not take a 32-bit row */
        "  add.u64 %rd3, %rd1, %rd2;\n"
        "  cvt.u16.u64 %rs1, %rd3;\n"        /* rd2, rd3 die */
        "  setp.ne.u16 %p2, %rs1, 0;\n"      /* a predicate after predicates died */
        "  selp.u32 %r3, 5, 6, %p2;\n"
        "  st.global.u32 [%rd1], %r3;\n"
        "  ret;\n}\n");
    static const char *const named[] = {"%p1", "%p2", "%r1", "%r2", "%r3", "%rd1", "%rd2",
                                        "%rd3", "%rs1"};
    for (size_t a = 0; a < sizeof named / sizeof *named; a++)
        for (size_t b = 0; b < sizeof named / sizeof *named; b++) {
            const ptx_reg *ra = &L.fn->regs[reg_id(L.fn, named[a])];
            const ptx_reg *rb = &L.fn->regs[reg_id(L.fn, named[b])];
            if (slot_of(&L, named[a]) == slot_of(&L, named[b]))
                ck_assert_msg(kind(ra) == kind(rb), "%s and %s share a row", named[a], named[b]);
        }
    /* and like kinds do share: p2 takes p1's row, r2 r1's */
    ck_assert_uint_eq(slot_of(&L, "%p1"), slot_of(&L, "%p2"));
    ck_assert_uint_eq(slot_of(&L, "%r1"), slot_of(&L, "%r2"));
    layout_free(&L);
}
END_TEST

/* ---------------------------------------------------------------- through the emulator */

/* A kernel with all the rules at work: a loop-carried sum, guarded definitions, predicates, a
 * shuffle (cross-lane: its registers keep their rows), a contracted mul + add whose sources die
 * at the mul (the add reads them), and temporaries that share. out[tid] = f(tid). */
static const char kernel_all[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"       /* global index */
    "  mov.u32 %r5, 0;\n"                      /* sum */
    "  mov.u32 %r6, 0;\n"                      /* i */
    "L:\n"
    "  add.u32 %r7, %r6, %r4;\n"
    "  mul.lo.u32 %r8, %r7, 2654435761;\n"
    "  shr.u32 %r9, %r8, 7;\n"
    "  and.b32 %r10, %r9, 1;\n"
    "  setp.eq.u32 %p1, %r10, 0;\n"
    "  @%p1 add.u32 %r5, %r5, %r9;\n"          /* guarded: the sum lives on where p1 is false */
    "  @!%p1 xor.b32 %r5, %r5, %r8;\n"
    "  add.u32 %r6, %r6, 1;\n"
    "  setp.lt.u32 %p2, %r6, %r1;\n"           /* divergent trip counts */
    "  @%p2 bra L;\n"
    "  shfl.sync.bfly.b32 %r11, %r5, 1, 31, -1;\n"
    "  add.u32 %r12, %r11, %r5;\n"
    "  cvt.rn.f32.u32 %f1, %r12;\n"
    "  cvt.rn.f32.u32 %f2, %r4;\n"
    "  mul.f32 %f3, %f1, 0f3DCCCCCD;\n"        /* contracted with the add below */
    "  cvt.rn.f32.u32 %f4, %r6;\n"             /* f1 is dead by PTX: f4 may not take its row */
    "  add.f32 %f5, %f3, %f2;\n"
    "  add.f32 %f6, %f5, %f4;\n"
    "  cvt.rzi.u32.f32 %r13, %f6;\n"
    "  setp.gt.u32 %p3, %r13, 1000;\n"
    "  @%p3 sub.u32 %r13, %r13, 1000;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r13;\n"
    "  ret;\n}\n";

enum { NTHREADS = 2 * 64 };

/* Runs kernel_all: rows shared (share), and forced together with `force` onto `onto` when
 * given; returns the output (malloc'd). */
static uint32_t *run_all(bool share_rows, const char *force, const char *onto)
{
    pk_module m = { pk_parse(kernel_all, "kernel_all.ptx"), NULL };
    ptx_function *fn = &m.ptx->funcs[m.ptx->nfuncs - 1];
    uint32_t before = fn->nslots;
    if (share_rows) {
        ck_assert_uint_eq(emu_share_register_slots(m.ptx), 1);
        ck_assert(fn->slots_shared);
        ck_assert_uint_lt(fn->nslots, before);
        ck_assert_uint_eq(emu_share_register_slots(m.ptx), 0);   /* laid out once */
    }
    if (force) fn->regs[reg_id(fn, force)].slot = fn->regs[reg_id(fn, onto)].slot;
    char err[256] = "";
    m.emu = emu_module_load(m.ptx, err, sizeof err);
    ck_assert_msg(m.emu != NULL, "%s", err);
    uint32_t *out = pk_dalloc(NTHREADS * sizeof *out);
    memset(out, 0xee, NTHREADS * sizeof *out);
    pk_launch l = { .grid = pk_dim3(2, 1, 1), .block = pk_dim3(64, 1, 1) };
    uint64_t args[] = { pk_addr(out) };
    ck_assert(pk_run(&m, "k", &l, args, NULL));
    uint32_t *copy = malloc(NTHREADS * sizeof *copy);
    memcpy(copy, out, NTHREADS * sizeof *copy);
    pk_unload(&m);
    return copy;
}

START_TEST(results_identical_with_rows_shared)
{
    uint32_t *own = run_all(false, NULL, NULL), *shared = run_all(true, NULL, NULL);
    for (int t = 0; t < NTHREADS; t++) ck_assert_uint_eq(shared[t], own[t]);
    free(own);
    free(shared);
}
END_TEST

/* The layout the emulator makes keeps the shuffle's registers and the contracted add's reads
 * apart, and passes the property check with its own[] (every non-lane-wise instruction's). */
START_TEST(cross_lane_and_contracted_reads_keep_their_rows)
{
    ptx_module *m = pk_parse(kernel_all, "kernel_all.ptx");
    ptx_function *fn = &m->funcs[m->nfuncs - 1];
    ck_assert_uint_eq(emu_share_register_slots(m), 1);
    layout L = { m, fn, malloc(fn->nregs * sizeof(uint32_t)), fn->nslots };
    for (uint32_t r = 0; r < fn->nregs; r++) L.slot[r] = fn->regs[r].slot;
    ck_assert(alone(&L, "%r11"));   /* shfl's destination and source */
    ck_assert(alone(&L, "%r5"));
    ck_assert_uint_ne(slot_of(&L, "%f4"), slot_of(&L, "%f1"));
    free(L.slot);
    ptx_module_free(m);
}
END_TEST

/* Forcing an interfering pair together must show: the loop counter onto the loop's temporary,
 * and the mul's source onto the register defined between the mul and its add. */
START_TEST(mutation_interfering_registers_forced_together_change_results)
{
    uint32_t *good = run_all(false, NULL, NULL);
    static const char *const pairs[][2] = { {"%r7", "%r6"}, {"%f4", "%f1"}, {"%r9", "%r5"} };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        uint32_t *bad = run_all(true, pairs[k][0], pairs[k][1]);
        bool differs = false;
        for (int t = 0; t < NTHREADS; t++) differs |= bad[t] != good[t];
        ck_assert_msg(differs, "%s forced onto %s's row changed nothing", pairs[k][0], pairs[k][1]);
        free(bad);
    }
    free(good);
}
END_TEST

/* The property checker itself rejects a forced pair. */
START_TEST(mutation_checker_rejects_a_forced_pair)
{
    layout L = share(kernel_all);
    L.slot[reg_id(L.fn, "%r7")] = slot_of(&L, "%r6");
    char why[256] = "";
    ck_assert(!layout_ok(L.fn, NULL, L.slot, L.nslots, why, sizeof why));
    layout_free(&L);
}
END_TEST

/* Every sample module's layout (as the emulator makes it) keeps the property. */
static void sample_keeps_property(const char *path, const char *text, size_t len, void *arg)
{
    int *shared = arg;
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse(text, len, path, &diag);
    ptx_diag_free(&diag);
    if (!m) return;   /* the samples of rejected PTX */
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (fn->is_decl || !fn->nregs) continue;
        uint32_t *slot = malloc(fn->nregs * sizeof *slot);
        uint32_t n = ptx_slots_share(fn, NULL, NULL, 0, slot);
        char why[256] = "";
        if (n) ck_assert_msg(layout_ok(fn, NULL, slot, n, why, sizeof why), "%s: %s", path, why);
        *shared += n != 0;
        free(slot);
    }
    ptx_module_free(m);
}

START_TEST(all_samples_keep_interfering_registers_apart)
{
    static const char *const dirs[] = {"tests/ptx/frontend", "tests/ptx/emu", "tests/ptx/engine",
                                       "tests/ptx/handwritten", "tests/ptx/igpu", "tests/ptx/tm"};
    int shared = 0;
    int files = pk_each_ptx_file(dirs, sizeof dirs / sizeof *dirs, sample_keeps_property, &shared);
    ck_assert_int_ge(files, 20);
    ck_assert_int_ge(shared, 20);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("slots");
    TCase *tc = tcase_create("sharing");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, straight_line_temporaries_share);
    tcase_add_test(tc, live_at_entry_keeps_its_own_slot);
    tcase_add_test(tc, guarded_definition_does_not_kill);
    tcase_add_test(tc, loop_carried_register_keeps_its_row_through_the_loop);
    tcase_add_test(tc, kinds_never_mixed);
    tcase_add_test(tc, results_identical_with_rows_shared);
    tcase_add_test(tc, cross_lane_and_contracted_reads_keep_their_rows);
    tcase_add_test(tc, mutation_interfering_registers_forced_together_change_results);
    tcase_add_test(tc, mutation_checker_rejects_a_forced_pair);
    tcase_add_test(tc, all_samples_keep_interfering_registers_apart);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
