/* test_hardening.c: hostile modules stay within bounds (issue 19): a giant initialiser costs
 * what its text costs, constant expressions follow the PTX ISA's rules, .version / .target /
 * .address_size are checked as the driver checks them, declared sizes are checked against the
 * device's limits with ptxas's messages, and loading is linear in the module (the ratio of two
 * sizes' CPU times, not a time). */
#include "tests/unit/ptx_kernels.h"
#include "emulator/emu.h"
#include "frontend/ptx.h"
#include "runtime/rt_internal.h"

#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HEAD ".version 9.0\n.target sm_80\n.address_size 64\n"

static ptx_module *parse_ok(const char *text)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", &d);
    ck_assert_msg(m != NULL, "parse failed:\n%s", d.text ? d.text : "");
    ptx_diag_free(&d);
    return m;
}

/* Parses text that must fail; returns the diagnostics (caller frees). */
static ptx_diag parse_bad(const char *text)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", &d);
    ck_assert_msg(m == NULL, "parsed, but should not have: %s", text);
    ck_assert_uint_gt(d.errors, 0);
    return d;
}

static void expect_error(const char *text, const char *needle)
{
    ptx_diag d = parse_bad(text);
    ck_assert_msg(d.text && strstr(d.text, needle), "wanted \"%s\" in:\n%s", needle,
                  d.text ? d.text : "(nothing)");
    ptx_diag_free(&d);
}

static const ptx_symbol *sym(const ptx_module *m, const char *name)
{
    int32_t s = ptx_find_symbol(m, -1, name);
    ck_assert_int_ge(s, 0);
    return &m->syms[s];
}

static uint64_t read_u64(const ptx_symbol *s, uint64_t index)
{
    uint64_t v;
    ptx_init_read(s, index * 8, &v, 8);
    return v;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- initialisers */

START_TEST(giant_initialiser_is_cheap)
{
    /* 4 GiB declared, one byte written: one run of one byte in the IR */
    ptx_module *m = parse_ok(HEAD ".global .b8 g[4294967296] = {1};\n");
    const ptx_symbol *g = sym(m, "g");
    ck_assert_uint_eq(g->size, UINT64_C(4294967296));
    ck_assert_uint_eq(g->ninit, 1);
    ck_assert_uint_eq(g->init[0].offset, 0);
    ck_assert_uint_eq(g->init[0].len, 1);
    uint8_t b[2];
    ptx_init_read(g, 0, b, 2);
    ck_assert(b[0] == 1 && b[1] == 0);
    ptx_init_read(g, UINT64_C(3) << 30, b, 2);
    ck_assert(b[0] == 0 && b[1] == 0);
    /* loading it allocates the 4 GiB (address space, untouched) and writes the one byte */
    char err[256];
    emu_module *em = emu_module_load(m, err, sizeof err);
    ck_assert_msg(em != NULL, "%s", err);
    uint64_t addr, size;
    ck_assert(emu_module_symbol(em, "g", &addr, &size));
    ck_assert_uint_eq(((uint8_t *)(uintptr_t)addr)[0], 1);
    ck_assert_uint_eq(((uint8_t *)(uintptr_t)addr)[size - 1], 0);
    emu_module_unload(em);
    ptx_module_free(m);

    /* short inner lists skip ahead: 4096 of them over 4 GiB cost 4096 runs, not 4 GiB */
    size_t cap = 64 + 4096 * 8, n = 0;
    char *text = malloc(cap + 128);
    n += (size_t)snprintf(text, cap, HEAD ".global .b8 h[65536][65536] = {");
    for (int i = 0; i < 4096; i++)
        n += (size_t)snprintf(text + n, cap + 128 - n, "%s{%d}", i ? "," : "", i % 250 + 1);
    snprintf(text + n, cap + 128 - n, "};\n");
    m = parse_ok(text);
    const ptx_symbol *h = sym(m, "h");
    ck_assert_uint_eq(h->ninit, 4096);
    ck_assert_uint_eq(h->init[4095].offset, UINT64_C(4095) * 65536);
    ptx_init_read(h, UINT64_C(4095) * 65536, b, 1);
    ck_assert_uint_eq(b[0], 4095 % 250 + 1);
    ptx_module_free(m);
    free(text);

    /* zeros cost nothing: an all-zero initialiser leaves no run */
    m = parse_ok(HEAD ".global .u32 z[1000000] = {0, 0, 0};\n.global .u32 w[4] = {0, 5, 0, 0};\n");
    ck_assert_uint_eq(sym(m, "z")->ninit, 0);
    ck_assert_ptr_null(sym(m, "z")->init);
    ck_assert_uint_eq(sym(m, "w")->ninit, 1);
    ck_assert_uint_eq(sym(m, "w")->init[0].offset, 4);
    ptx_module_free(m);

    /* two lines of registers cannot make gigabytes of IR */
    expect_error(HEAD ".entry k()\n{\n.reg .b32 %a<1000000>;\n.reg .b32 %b<1000000>;\nret;\n}\n",
                 "too many registers: a function may declare at most 1048576");
    expect_error(HEAD ".global .b8 t[2000000000000];\n", "larger than");
    expect_error(HEAD ".global .b8 u[1099511627776][2] = {1};\n", "larger than");
}
END_TEST

/* ---------------------------------------------------------------- constant expressions */

START_TEST(constant_expressions)
{
    ptx_module *m = parse_ok(
        HEAD
        ".global .s64 a[20] = {1/0x1, 1<<200, (-9223372036854775807-1)/-1, -7 % 3, -8 >> 1,\n"
        "  0xffffffffffffffff >> 60, (.u64)-8 >> 1, 2 + 3 * 4, 1 ? 5 : 6, !0 + ~0,\n"
        "  1 < 2 && 3 >= 3, 7 / 2 * 2, 1 << 2 + 1, 6 & 3 ^ 1, 1 | 2 ^ 3, -1 < 0U,\n"
        "  (.s64)0xffffffffffffffff < 0, 10 - 2 - 3, 0 ? 1 : 2 ? 3 : 4, -(-42) == 42};\n"
        ".global .f64 f[4] = {1.5 * 2, 1.0 / 0.0, 0d3FF0000000000000, 3 > 2.5 ? 1.25 : 2.5};\n"
        ".global .f32 s = 0f3F800000;\n"
        ".global .u32 dims[2 * 3 + 1];\n"
        ".global .u8 bytes[(1 << 4) - 6] = {255 + 1, -1};\n");
    const ptx_symbol *a = sym(m, "a");
    static const uint64_t want[20] = {
        1, 0, UINT64_C(0x8000000000000000), 0, (uint64_t)-4, 15, UINT64_C(0x7ffffffffffffffc),
        14, 5, 0, 1, 6, 8, 3, 1,
        0,   /* -1 < 0U: usual conversions make -1 unsigned, the largest value */
        1, 5, 3, 1};
    for (int i = 0; i < 20; i++)
        ck_assert_msg(read_u64(a, (uint64_t)i) == want[i], "a[%d] = %llu, want %llu", i,
                      (unsigned long long)read_u64(a, (uint64_t)i),
                      (unsigned long long)want[i]);
    const ptx_symbol *f = sym(m, "f");
    double d[4];
    ptx_init_read(f, 0, d, sizeof d);
    ck_assert(d[0] == 3.0 && d[1] > 1e308 && d[2] == 1.0 && d[3] == 1.25);
    uint32_t sb;
    ptx_init_read(sym(m, "s"), 0, &sb, 4);
    ck_assert_uint_eq(sb, 0x3F800000);
    ck_assert_uint_eq(sym(m, "dims")->size, 28);
    const ptx_symbol *by = sym(m, "bytes");
    ck_assert_uint_eq(by->size, 10);
    uint8_t bb[2];
    ptx_init_read(by, 0, bb, 2);
    ck_assert(bb[0] == 0 && bb[1] == 255);   /* the low bits of 256 and of -1 */
    ptx_module_free(m);

    /* errors, each with its own message */
    expect_error(HEAD ".global .s64 x = 1 / 0;\n", "division by zero");
    expect_error(HEAD ".global .s64 x = 5 % (3 - 3);\n", "remainder by zero");
    expect_error(HEAD ".global .f64 x = 1.5 % 2;\n", "needs an integer operand");
    expect_error(HEAD ".global .f64 x = 0f3F800000 + 1;\n", "0f (single-precision) literal");
    expect_error(HEAD ".global .s64 x = 1 ? 2 : 3.0;\n", "both be integers or both be floats");
    expect_error(HEAD ".global .u32 x[2 - 3];\n", "must not be negative");
    expect_error(HEAD ".global .u32 x[1.5];\n", "must be an integer");
    expect_error(HEAD ".global .s64 x = (.f32)1;\n", "cast to .s64 or .u64 only");
}
END_TEST

/* ---------------------------------------------------------------- module directives */

START_TEST(version_target_address_size)
{
    ptx_diag d = parse_bad(".version 9.2\n.target sm_80\n.address_size 64\n");
    ck_assert(d.unsupported_version);
    ck_assert_ptr_nonnull(strstr(d.text, "newer than ptxsim implements (9.1 at most)"));
    ptx_diag_free(&d);
    d = parse_bad(".version 99.99\n.target sm_80\n.address_size 64\n");
    ck_assert(d.unsupported_version);
    ptx_diag_free(&d);
    d = parse_bad(".version 9.0\n.target sm_9999\n.address_size 64\n");
    ck_assert(!d.unsupported_version);
    ck_assert_ptr_nonnull(strstr(d.text, "unknown .target 'sm_9999'"));
    ptx_diag_free(&d);
    expect_error(".version 9.0\n.target sm_89a\n.address_size 64\n", "unknown .target");
    expect_error(".version 9.0\n.target sm_75f\n.address_size 64\n", "unknown .target");
    expect_error(".version 9.0\n.target gfx90a\n.address_size 64\n", "unknown .target");
    expect_error(".version 9.0\n.target sm_80\n.address_size 32\n",
                 ".address_size 32 is not supported");
    const char *good[] = {"sm_90a", "sm_100f", "sm_120a", "compute_75", "sm_80, texmode_unified",
                          "sm_75, debug", "sm_121", "sm_20, map_f64_to_f32"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char text[160];
        snprintf(text, sizeof text, ".version 9.0\n.target %s\n.address_size 64\n", good[i]);
        ptx_module_free(parse_ok(text));
    }
    ptx_module_free(parse_ok(".version 1.4\n.target sm_10\n.address_size 64\n"));
    ptx_module_free(parse_ok(".version 9.1\n.target sm_100a\n.address_size 64\n"));
}
END_TEST

/* ---------------------------------------------------------------- device limits */

static cudaError_t limits_of(const char *text, char *err, size_t errlen)
{
    ptx_module *m = parse_ok(text);
    char lerr[512];
    emu_module *em = emu_module_load(m, lerr, sizeof lerr);
    ck_assert_msg(em != NULL, "%s", lerr);
    err[0] = 0;
    cudaError_t e = rt_check_module_limits(m, em, err, errlen);
    emu_module_unload(em);
    ptx_module_free(m);
    return e;
}

START_TEST(device_limits_at_load)
{
    char err[512];
    /* static shared: 48 KiB is the most, with module-scope arrays the kernel uses counted */
    ck_assert_int_eq(limits_of(HEAD ".shared .b8 big[49152];\n.entry k()\n{\n.reg .b64 %a;\n"
                               "mov.u64 %a, big;\nret;\n}\n", err, sizeof err), cudaSuccess);
    ck_assert_int_eq(limits_of(HEAD ".shared .b8 big[49153];\n.entry k()\n{\n.reg .b64 %a;\n"
                               "mov.u64 %a, big;\nret;\n}\n", err, sizeof err),
                     cudaErrorInvalidPtx);
    ck_assert_msg(strstr(err, "ptxas error   : Entry function 'k' uses too much shared data "
                              "(0xc010 bytes, 0xc000 max)"), "%s", err);
    ck_assert_int_eq(limits_of(HEAD ".entry k()\n{\n.shared .b8 own[4294967296];\nret;\n}\n",
                               err, sizeof err), cudaErrorInvalidPtx);
    /* constant data: 64 KiB per module */
    ck_assert_int_eq(limits_of(HEAD ".const .b8 c1[40000];\n.const .b8 c2[30000];\n", err,
                               sizeof err), cudaErrorInvalidPtx);
    ck_assert_msg(strstr(err, "File uses too much global constant data (0x11170 bytes, 0x10000 "
                              "max)"), "%s", err);
    /* local data, registers beyond 255 counting as spilled */
    ck_assert_int_eq(limits_of(HEAD ".entry k()\n{\n.local .b8 l[524289];\nret;\n}\n", err,
                               sizeof err), cudaErrorInvalidPtx);
    ck_assert_msg(strstr(err, "uses too much local data (0x80001 bytes, 0x80000 max)"), "%s",
                  err);
    ck_assert_int_eq(limits_of(HEAD ".entry k()\n{\n.reg .b64 %r<300000>;\nret;\n}\n", err,
                               sizeof err), cudaErrorInvalidPtx);
    ck_assert_msg(strstr(err, "uses too much local data"), "%s", err);
    ck_assert_int_eq(limits_of(HEAD ".entry k()\n{\n.reg .b32 %r<1000>;\nret;\n}\n", err,
                               sizeof err), cudaSuccess);
    /* parameter space: 4 KiB before PTX 8.1, 32764 bytes from 8.1 on sm_70 and later */
    ck_assert_int_eq(limits_of(".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".entry k(.param .align 4 .b8 p[4100])\n{\nret;\n}\n", err,
                               sizeof err), cudaErrorInvalidPtx);
    ck_assert_msg(strstr(err, "uses too much parameter space (0x1004 bytes, 0x1000 max)"), "%s",
                  err);
    ck_assert_int_eq(limits_of(HEAD ".entry k(.param .align 4 .b8 p[32764])\n{\nret;\n}\n",
                               err, sizeof err), cudaSuccess);
    ck_assert_int_eq(limits_of(HEAD ".entry k(.param .align 4 .b8 p[32768])\n{\nret;\n}\n",
                               err, sizeof err), cudaErrorInvalidPtx);
}
END_TEST

/* ---------------------------------------------------------------- device memory */

typedef struct churn {
    volatile int stop, started;
    uint64_t lookups, misses;
} churn;

static void *look_up(void *arg)
{
    churn *c = arg;
    uint64_t keep = emu_device_alloc(4096, EMU_ALLOC_DEVICE);
    ck_assert(keep);
    while (!c->stop) {
        uint64_t base, size;
        if (!emu_find_allocation(keep + 100, 8, &base, &size, NULL) || base != keep ||
            size != 4096)
            c->misses++;
        c->lookups++;
        c->started = 1;
    }
    emu_device_free(keep);
    return NULL;
}

START_TEST(device_memory_lookups_while_allocating)
{
    /* look-ups take no lock: they must see every live allocation while another thread
     * allocates and frees around it (the map's entries move under them) */
    churn c = {0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, look_up, &c), 0);
    /* on a loaded machine the looking thread may not run before the churn is over: the check
     * means something only once it is looking */
    while (!c.started)
        sched_yield();
    uint64_t live[64] = {0};
    for (int round = 0; round < 20000; round++) {
        int i = round % 64;
        if (live[i]) {
            ck_assert(emu_device_free(live[i]));
            live[i] = 0;
        } else {
            live[i] = emu_device_alloc((uint64_t)(round % 7 + 1) * 300, EMU_ALLOC_DEVICE);
            ck_assert(live[i]);
        }
    }
    c.stop = 1;
    pthread_join(t, NULL);
    for (int i = 0; i < 64; i++)
        if (live[i]) emu_device_free(live[i]);
    ck_assert_uint_gt(c.lookups, 0);
    ck_assert_uint_eq(c.misses, 0);

    /* freed memory is handed out again, first fit, and reads as zero; a large block that was
     * touched only in part is cleared where it was touched */
    uint64_t a = emu_device_alloc(UINT64_C(8) << 20, EMU_ALLOC_DEVICE);
    ck_assert(a);
    memset((void *)(uintptr_t)(a + (UINT64_C(3) << 20)), 0x77, 4096 * 3);
    ((uint8_t *)(uintptr_t)a)[0] = 1;
    ck_assert(emu_device_free(a));
    uint64_t b = emu_device_alloc(UINT64_C(8) << 20, EMU_ALLOC_DEVICE);
    ck_assert_uint_eq(a, b);
    for (uint64_t o = 0; o < (UINT64_C(8) << 20); o += 512)
        ck_assert_uint_eq(((uint8_t *)(uintptr_t)b)[o], 0);
    emu_device_free(b);

    /* memory set aside for the context cannot be allocated, and counts as used */
    uint64_t used0, total;
    emu_device_mem_info(&used0, &total);
    ck_assert(emu_device_reserve(total - used0 - (UINT64_C(1) << 20)));
    ck_assert_uint_eq(emu_device_alloc(UINT64_C(2) << 20, EMU_ALLOC_DEVICE), 0);
    uint64_t small = emu_device_alloc(UINT64_C(512) << 10, EMU_ALLOC_DEVICE);
    ck_assert(small);
    ck_assert(!emu_device_reserve(total));
    emu_device_free(small);
    ck_assert(emu_device_reserve(0));
    uint64_t used1;
    emu_device_mem_info(&used1, &total);
    ck_assert_uint_le(used1, used0);
}
END_TEST

/* ---------------------------------------------------------------- linear loading */

typedef char *(*gen_fn)(size_t n);

static char *gen_functions(size_t n)
{
    size_t cap = 128 + n * 64, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t, cap, HEAD);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len,
                                i % 2 ? ".func f%zu()\n{\nret;\n}\n"
                                      : ".entry e%zu()\n{\n.shared .b8 s[8];\nret;\n}\n", i);
    return t;
}

static char *gen_labels(size_t n)
{
    size_t cap = 256 + n * 40, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t, cap, HEAD ".entry k()\n{\n.reg .pred %%p;\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "L%zu:\n@%%p bra L%zu;\n", i,
                                (i * 7919) % n);
    snprintf(t + len, cap - len, "ret;\n}\n");
    return t;
}

static char *gen_instructions(size_t n)
{
    size_t cap = 256 + n * 32, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t, cap, HEAD ".entry k()\n{\n.reg .b32 %%r<4>;\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "add.s32 %%r1, %%r2, %%r3;\n");
    snprintf(t + len, cap - len, "ret;\n}\n");
    return t;
}

/* loops that never reach the exit: each needs its own virtual exit edge */
static char *gen_loops(size_t n)
{
    size_t cap = 256 + n * 32, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t, cap, HEAD ".entry k()\n{\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "X%zu:\nbra X%zu;\n", i, i);
    snprintf(t + len, cap - len, "ret;\n}\n");
    return t;
}

/* CPU seconds to parse and load gen(n), the best of a few runs */
static double load_time(gen_fn gen, size_t n)
{
    char *text = gen(n);
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = cpu_seconds();
        ptx_module *m = parse_ok(text);
        char err[256];
        emu_module *em = emu_module_load(m, err, sizeof err);
        ck_assert_msg(em != NULL, "%s", err);
        /* the runtime finds every kernel by name */
        for (uint32_t i = 0; i < m->nfuncs; i++)
            ck_assert_ptr_eq(ptx_find_function(m, m->funcs[i].name), &m->funcs[i]);
        emu_module_unload(em);
        ptx_module_free(m);
        double t = cpu_seconds() - t0;
        if (t < best) best = t;
    }
    free(text);
    return best;
}

static const struct {
    const char *what;
    gen_fn gen;
    size_t small;
} shapes[] = {
    {"functions", gen_functions, 12500},
    {"labels", gen_labels, 25000},
    {"instructions", gen_instructions, 25000},
    {"endless loops", gen_loops, 12500},
};

START_TEST(load_is_linear)
{
    /* 8x the size must cost about 8x, not 64x: a bound of 20 leaves room for noise and
     * for the caches of the bigger run, and catches anything quadratic */
    double t1 = load_time(shapes[_i].gen, shapes[_i].small);
    double t8 = load_time(shapes[_i].gen, 8 * shapes[_i].small);
    double ratio = t8 / (t1 > 1e-4 ? t1 : 1e-4);
    fprintf(stderr, "load_is_linear: %s: %zu in %.3f s, %zu in %.3f s, ratio %.1f\n",
            shapes[_i].what, shapes[_i].small, t1, 8 * shapes[_i].small, t8, ratio);
    ck_assert_msg(ratio < 20, "%s: 8x the size took %.1fx the time (%.3f s vs %.3f s)",
                  shapes[_i].what, ratio, t8, t1);
}
END_TEST

static Suite *hardening_suite(void)
{
    Suite *s = suite_create("hardening");
    TCase *t = tcase_create("bounded");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, giant_initialiser_is_cheap);
    tcase_add_test(t, constant_expressions);
    tcase_add_test(t, version_target_address_size);
    tcase_add_test(t, device_limits_at_load);
    tcase_add_test(t, device_memory_lookups_while_allocating);
    tcase_add_loop_test(t, load_is_linear, 0, (int)(sizeof shapes / sizeof shapes[0]));
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(hardening_suite()); }
