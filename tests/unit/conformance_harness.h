/* conformance_harness.h: runs PTX snippets on the emulator for the conformance suites.
 *
 * The suites (tests/unit/test_conformance_*.c) check instruction semantics against the PTX ISA,
 * independently of how the emulator implements them. Expected values come from the ISA's
 * definitions, written here as CPU reference functions (integer pseudo-code, IEEE-754 arithmetic
 * in the right rounding mode with explicit ftz / saturation / NaN rules), or as literal values
 * taken from the ISA text.
 *
 * Two ways to run PTX:
 *  - conf_run: a whole module, any launch shape, any parameters (memory, warp, sreg tests);
 *  - tables: one instruction form (conf_op) with many input/expected rows (conf_case). The
 *    harness wraps the body into a kernel where every thread loads one row's inputs into
 *    %in0..%in3, runs the body, and stores %out0..%out3. Each row is a separate Check test (a
 *    loop iteration), and a failure names the instruction, the row, its inputs, and the expected
 *    and actual values (hex, with the float value for float outputs).
 *
 * Only public interfaces are used: frontend/ptx.h, emulator/emu.h, timing/timing.h.
 */
#ifndef PTXSIM_TESTS_CONFORMANCE_HARNESS_H
#define PTXSIM_TESTS_CONFORMANCE_HARNESS_H

#include "emulator/emu.h"
#include "timing/timing.h"

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- running a module */

typedef enum conf_status {
    CONF_OK = 0,
    CONF_PARSE_FAILED,   /* ptx_parse rejected the text */
    CONF_NO_KERNEL,      /* the entry is not in the module */
    CONF_LOAD_FAILED,    /* emu_module_load rejected it (e.g. an unsupported instruction) */
    CONF_LAUNCH_FAILED,  /* emu_grid_create refused the launch */
    CONF_FAULTED,        /* the grid ran and faulted */
    CONF_EXECUTORS_DIFFER /* the reference executor left different memory, faults or counts */
} conf_status;

typedef struct conf_launch {
    const char *ptx;          /* the whole module */
    const char *name;         /* for messages: what the module tests */
    const char *kernel;       /* entry to launch */
    emu_dim3 grid, block;
    uint32_t dynamic_smem;
    const void *params;       /* laid out as the entry's .param list */
    size_t params_size;
} conf_launch;

typedef struct conf_result {
    conf_status status;
    emu_fault fault;          /* CONF_FAULTED, CONF_LAUNCH_FAILED */
    char message[4096];       /* what went wrong, ready for a failure message */
} conf_result;

const char *conf_status_name(conf_status s);
/* Parses, loads and runs the module to completion, on every executor: first the reference (one
 * instruction at a time) from a snapshot of device memory, then, from the same snapshot, the
 * block interpreter, whose results stay; any difference between the two in device memory (NaN
 * payloads included: bytes are compared), the fault, or a warp's instruction count is
 * CONF_EXECUTORS_DIFFER. Never aborts: problems land in r. */
conf_status conf_run(const conf_launch *l, conf_result *r);
/* conf_run, then fails the current Check test with r's message unless it completed. */
void conf_run_ok(const conf_launch *l, conf_result *r);

/* The usual module header of the suites' kernels. */
#define CONF_PTX_HEADER ".version 9.0\n.target sm_90\n.address_size 64\n\n"

/* conf_run for an entry named "k" whose parameters are nparams .u64 values (pointers). */
conf_status conf_run_k(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block,
                       uint32_t dynamic_smem, const uint64_t *params, int nparams, conf_result *r);
/* The 1-based line of the first line of text containing marker, 0 if none. */
uint32_t conf_line_of(const char *text, const char *marker);

/* Device memory (zero-filled); the address is directly usable by the host. Fails the current
 * test when memory is exhausted. */
void *conf_dev_alloc(size_t bytes);
void conf_dev_free(void *p);
static inline uint64_t conf_dev_addr(const void *p) { return (uint64_t)(uintptr_t)p; }

/* ---------------------------------------------------------------- tables */

enum { CONF_MAX_IO = 4 };

/* How an output is compared. Float kinds: a NaN expectation accepts any NaN (the ISA leaves
 * single-precision NaN payloads unspecified); zeros and infinities must match exactly (sign
 * included); other values must match bit for bit unless a tolerance is given, in which case
 * any one of the tolerances suffices. */
typedef enum conf_kind {
    CONF_BITS = 0,   /* exact, within the output's width */
    CONF_F16, CONF_BF16, CONF_F32, CONF_F64,
    CONF_F16X2, CONF_BF16X2,  /* two halves, each compared as CONF_F16 / CONF_BF16 */
    CONF_E4M3X2, CONF_E5M2X2  /* two bytes, exact, except that any NaN matches a NaN */
} conf_kind;

typedef struct conf_cmp {
    uint8_t kind;     /* conf_kind */
    double ulps;      /* max distance in units in the last place */
    double rel;       /* max |got - want| / |want| */
    double abs;       /* max |got - want| */
} conf_cmp;

typedef void (*conf_ref_fn)(const uint64_t in[CONF_MAX_IO], uint64_t out[CONF_MAX_IO]);

/* One instruction form. The body uses %in0..%in3 (declared with in[i]'s type and loaded from
 * the row) and %out0..%out3 (declared with out[i]'s type, stored after the body). Types are
 * PTX register types without the dot: "b16", "b32", "b64", "u32", "s32", "u64", "s64", "f32",
 * "f64", "u16", "s16", or "pred" (passed as 0/1). */
typedef struct conf_op {
    const char *name;                 /* e.g. "add.sat.s32" */
    const char *body;
    const char *in[CONF_MAX_IO];
    const char *out[CONF_MAX_IO];
    conf_cmp cmp[CONF_MAX_IO];        /* per output; zero-initialised = CONF_BITS */
    conf_ref_fn ref;                  /* computes the expectation of rows without one */
    const char *decls;                /* extra declarations the body needs */
    const char *target;               /* .target (default "sm_90") */
} conf_op;

typedef struct conf_case {
    uint64_t in[CONF_MAX_IO];
    uint64_t out[CONF_MAX_IO];
    bool lit;                         /* out holds the expectation (an ISA example) */
} conf_case;

typedef struct conf_table {
    const conf_op *op;
    const conf_case *cases;
    size_t ncases;
} conf_table;

#define CONF_N(a) (sizeof(a) / sizeof((a)[0]))
#define CONF_TABLE(op, cases) { &(op), (cases), CONF_N(cases) }

/* Rows: inputs only (the op's reference computes the expectation) ... */
#define I1(a) { { (uint64_t)(a) }, { 0 }, false }
#define I2(a, b) { { (uint64_t)(a), (uint64_t)(b) }, { 0 }, false }
#define I3(a, b, c) { { (uint64_t)(a), (uint64_t)(b), (uint64_t)(c) }, { 0 }, false }
#define I4(a, b, c, d) { { (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), (uint64_t)(d) }, { 0 }, false }
/* ... or inputs with a literal expectation (first output; E?2 for two outputs). */
#define E1(a, r) { { (uint64_t)(a) }, { (uint64_t)(r) }, true }
#define E2(a, b, r) { { (uint64_t)(a), (uint64_t)(b) }, { (uint64_t)(r) }, true }
#define E3(a, b, c, r) { { (uint64_t)(a), (uint64_t)(b), (uint64_t)(c) }, { (uint64_t)(r) }, true }
#define E4(a, b, c, d, r) \
    { { (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), (uint64_t)(d) }, { (uint64_t)(r) }, true }

/* Adds one TCase per table (named after the instruction form) to s, with one loop iteration
 * of `test` per row; `test` must call conf_check_row(tables, n, _i). */
void conf_add_tables(Suite *s, const conf_table *tables, size_t n, const TTest *test);
/* Runs the table holding flat row i (once per process) and checks that row. */
void conf_check_row(const conf_table *tables, size_t n, int i);
/* Total rows in tables. */
size_t conf_count_rows(const conf_table *tables, size_t n);

/* Every conformance suite file's main: pk_main, after mapping the page through which the forked
 * row tests learn that their table's kernel already crashed or hung. */
int conf_main(Suite *s);

/* ---------------------------------------------------------------- CPU reference helpers */

float conf_f32(uint64_t bits);
uint64_t conf_b32(float f);
double conf_f64(uint64_t bits);
uint64_t conf_b64(double d);
bool conf_is_sub32(float f);
/* Flush a subnormal to a zero of the same sign (the .ftz rule). */
float conf_ftz32(float f);
/* The .sat rule for floats: clamp to [0, 1], NaN to +0. */
float conf_sat32(float f);
double conf_sat64(double d);

/* Rounding modes, as PTX names them. */
typedef enum conf_rnd { CONF_RN, CONF_RZ, CONF_RM, CONF_RP, CONF_RNA } conf_rnd;
int conf_fe_mode(conf_rnd r);      /* FE_TONEAREST, ... (CONF_RNA has none: FE_TONEAREST) */

/* f32 arithmetic in a given rounding mode (IEEE-754, on the host's SSE unit). */
float conf_add32(float a, float b, conf_rnd r);
float conf_mul32(float a, float b, conf_rnd r);
float conf_fma32(float a, float b, float c, conf_rnd r);
float conf_div32(float a, float b, conf_rnd r);
float conf_sqrt32(float a, conf_rnd r);
double conf_add64(double a, double b, conf_rnd r);
double conf_mul64(double a, double b, conf_rnd r);
double conf_fma64(double a, double b, double c, conf_rnd r);
double conf_div64(double a, double b, conf_rnd r);
double conf_sqrt64(double a, conf_rnd r);
float conf_f64_to_f32(double d, conf_rnd r);

/* A small binary float format: exponent and mantissa widths, whether the all-ones exponent
 * means Inf/NaN (IEEE style) or only the all-ones pattern is NaN (e4m3's "fn" style). */
typedef struct conf_fmt {
    int ebits, mbits;
    bool ieee;          /* false: e4m3 (no infinities; S.1111.111 is NaN) */
} conf_fmt;
extern const conf_fmt CONF_FMT_F16, CONF_FMT_BF16, CONF_FMT_E4M3, CONF_FMT_E5M2;

/* Value of an encoding. */
double conf_mf_decode(const conf_fmt *f, uint32_t bits);
/* Rounds x (exact in double) to the format. satfinite: overflow and +-Inf give +-max finite
 * (NaN stays NaN). Otherwise overflow follows IEEE for the mode (Inf or max finite). */
uint32_t conf_mf_encode(const conf_fmt *f, double x, conf_rnd r, bool satfinite);
uint32_t conf_mf_nan(const conf_fmt *f);    /* the canonical NaN: 0x7e00, 0x7fc0, 0x7f, 0x7f */
bool conf_mf_is_nan(const conf_fmt *f, uint32_t bits);

/* Sign-extends the low `bits` bits of v. */
static inline int64_t conf_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64) return (int64_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= (UINT64_C(1) << bits) - 1;
    return (int64_t)((v ^ m) - m);
}

#endif
