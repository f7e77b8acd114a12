/* test_jit.c: the LLVM JIT against the step interpreter, on random programs.
 *
 * Each seed makes one kernel of random instructions drawn from every form the JIT translates
 * (integer add/sub/mul.lo/mul.wide/mad.lo/min/max/and/or/xor/not/shl/shr on 32 and 64 bits,
 * and/or/xor/not of predicates, f32 add/sub/mul/fma/mad/div/rcp/sqrt/rsqrt/min/max with and
 * without .ftz, .sat and .NaN, f64 add/sub/mul/fma, setp on integers and f32, selp, mov, cvt
 * (cvt.sat.f32.f32 too), global and shared loads and stores (faulting ones too), uniform and
 * divergent forward branches (with and without an else arm, nested), counted loops with
 * per-lane trip counts) and forms it leaves to the interpreter's handlers (directed rounding
 * modes, setp with a combining operation, integer division), with random guards (@p, @!p), register or immediate operands (special
 * floats among them: NaN payloads, infinities, subnormals, -0), partial warps and several blocks.
 * Every thread loads its registers from random input, runs the body and stores every register;
 * conf_run (tests/unit/conformance_harness.c) runs the kernel on the step interpreter and on the
 * JIT from one snapshot and compares every byte of memory, the fault and every warp's
 * instruction count. The same programs then run on the auto executor with a threshold of one
 * instruction, compiled in the foreground, so that warps change executor between their runs.
 * With an event sink installed (CONF_EVENTS=1: the harness records both runs' events and
 * compares them field by field, per warp, in issue order) the same programs run on the JIT's
 * event variant, and on auto, which switches to it.
 *
 * make check runs the fixed seeds below; JIT_FUZZ_SEEDS=N (bench/jit_fuzz.sh) runs N more;
 * JIT_DUMP=1 writes every program to stderr. */
#include "tests/unit/conformance_harness.h"
#include "tests/unit/ptx_kernels.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR 8        /* registers of each kind */
#define NP 4        /* predicates */
#define SLOTS (3 * NR + NP)
#define FIXED_SEEDS 24

/* xorshift64*: the programs depend on the seed only */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static unsigned pick(uint64_t *s, unsigned n) { return (unsigned)(rnd(s) % n); }

/* f32 bit patterns that exercise sem.h's rules */
static const uint32_t special_f32[] = {
    0x7fc00000u, 0x7fa00001u, 0xffc12345u, 0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu,
    0x80000000u, 0x00000000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x00800000u, 0x3effffffu,
    0x7f000000u, 0xfe800001u, 0x7e800000u,
};

static uint64_t random_f32(uint64_t *s)
{
    if (pick(s, 3) == 0) return special_f32[pick(s, sizeof special_f32 / sizeof *special_f32)];
    /* moderate exponents, so sums and products stay in range most of the time */
    return (rnd(s) & 0x807fffffu) | (uint32_t)(100 + pick(s, 56)) << 23;
}

typedef struct gen {
    char *buf;
    size_t len, cap;
    uint64_t s;
    unsigned labels;
} gen;

static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < g->cap - g->len) {
            g->len += (size_t)n;
            return;
        }
        g->cap = g->cap * 2 + (size_t)n;
        g->buf = realloc(g->buf, g->cap);
        ck_assert_ptr_nonnull(g->buf);
    }
}

static void guard(gen *g)
{
    unsigned k = pick(&g->s, 4);
    if (k == 0) emit(g, "    @%%p%u ", pick(&g->s, NP));
    else if (k == 1) emit(g, "    @!%%p%u ", pick(&g->s, NP));
    else emit(g, "    ");
}

/* an operand of kind 'r' (32-bit), 'd' (64-bit) or 'f' (f32): a register or an immediate */
static void operand(gen *g, char kind, char *out, size_t n)
{
    if (pick(&g->s, 4) != 0) {
        snprintf(out, n, "%%%c%u", kind, pick(&g->s, NR));
        return;
    }
    if (kind == 'f') snprintf(out, n, "0f%08" PRIX64, random_f32(&g->s));
    else if (kind == 'r') snprintf(out, n, "%u", (unsigned)(rnd(&g->s) >> (pick(&g->s, 2) ? 32 : 60)));
    else snprintf(out, n, "%" PRIu64, rnd(&g->s) >> pick(&g->s, 64));
}

static const char *const int_cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
static const char *const uns_cmps[] = {"lo", "ls", "hi", "hs"};
static const char *const f_cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
                                     "leu", "gtu", "geu", "num", "nan"};
static const char *const rnds[] = {".rn", ".rz", ".rm", ".rp"};

/* One random instruction (or a short branch structure). depth limits nesting. */
static void instruction(gen *g, int depth)
{
    char a[48], b[48], c[48];
    unsigned d = pick(&g->s, NR);
    unsigned k = pick(&g->s, depth > 0 ? 29 : 27);
    if (k >= 25 && k < 27) k = 12;   /* setp twice as often: guards and loops depend on it */
    bool wide = pick(&g->s, 2);
    char rk = wide ? 'd' : 'r';
    const char *bits = wide ? "64" : "32";
    const char *sg = pick(&g->s, 2) ? "s" : "u";
    switch (k) {
    case 0: case 1: {
        static const char *const ops[] = {"add", "sub", "mul.lo", "min", "max", "div", "rem"};
        const char *op = ops[pick(&g->s, k == 0 ? 3 : 7)];
        operand(g, rk, a, sizeof a);
        operand(g, rk, b, sizeof b);
        /* a divisor that is zero gives what the ISA leaves unspecified but ptxsim defines */
        guard(g);
        emit(g, "%s.%s%s %%%c%u, %s, %s;\n", op, sg, bits, rk, d, a, b);
        break;
    }
    case 2: {
        static const char *const ops[] = {"and", "or", "xor", "not"};
        unsigned f = pick(&g->s, 4);
        if (pick(&g->s, 3) == 0) {
            /* on predicates: whole lane masks */
            guard(g);
            if (f == 3) emit(g, "not.pred %%p%u, %%p%u;\n", pick(&g->s, NP), pick(&g->s, NP));
            else emit(g, "%s.pred %%p%u, %%p%u, %%p%u;\n", ops[f], pick(&g->s, NP), pick(&g->s, NP),
                      pick(&g->s, NP));
            break;
        }
        operand(g, rk, a, sizeof a);
        operand(g, rk, b, sizeof b);
        guard(g);
        if (f == 3) emit(g, "not.b%s %%%c%u, %s;\n", bits, rk, d, a);
        else emit(g, "%s.b%s %%%c%u, %s, %s;\n", ops[f], bits, rk, d, a, b);
        break;
    }
    case 3: {
        operand(g, rk, a, sizeof a);
        if (pick(&g->s, 2)) snprintf(b, sizeof b, "%%r%u", pick(&g->s, NR));
        else snprintf(b, sizeof b, "%u", pick(&g->s, 80));
        guard(g);
        if (pick(&g->s, 2)) emit(g, "shl.b%s %%%c%u, %s, %s;\n", bits, rk, d, a, b);
        else emit(g, "shr.%s%s %%%c%u, %s, %s;\n", pick(&g->s, 3) ? sg : "b", bits, rk, d, a, b);
        break;
    }
    case 4:
        operand(g, 'r', a, sizeof a);
        operand(g, 'r', b, sizeof b);
        guard(g);
        emit(g, "mul.wide.%s32 %%d%u, %s, %s;\n", sg, d, a, b);
        break;
    case 5:
        operand(g, rk, a, sizeof a);
        operand(g, rk, b, sizeof b);
        operand(g, rk, c, sizeof c);
        guard(g);
        emit(g, "mad.lo.%s%s %%%c%u, %s, %s, %s;\n", sg, bits, rk, d, a, b, c);
        break;
    case 6: case 7: case 8: {
        static const char *const ops[] = {"add", "sub", "mul"};
        operand(g, 'f', a, sizeof a);
        operand(g, 'f', b, sizeof b);
        unsigned m = pick(&g->s, 8);
        const char *rm = m < 4 ? "" : m < 6 ? ".rn" : rnds[pick(&g->s, 4)];
        guard(g);
        emit(g, "%s%s%s%s.f32 %%f%u, %s, %s;\n", ops[pick(&g->s, 3)], rm,
             pick(&g->s, 2) ? ".ftz" : "", pick(&g->s, 8) == 0 ? ".sat" : "", d, a, b);
        break;
    }
    case 9: case 10:
        operand(g, 'f', a, sizeof a);
        operand(g, 'f', b, sizeof b);
        operand(g, 'f', c, sizeof c);
        guard(g);
        emit(g, "%s%s%s%s.f32 %%f%u, %s, %s, %s;\n", pick(&g->s, 4) ? "fma" : "mad",
             pick(&g->s, 3) ? ".rn" : rnds[pick(&g->s, 4)],
             pick(&g->s, 2) ? ".ftz" : "", pick(&g->s, 8) == 0 ? ".sat" : "", d, a, b, c);
        break;
    case 11: case 12: {
        unsigned p = pick(&g->s, NP), form = pick(&g->s, 3);
        if (depth == 2 && pick(&g->s, 6) == 0) {
            /* a barrier every thread reaches (top level, unguarded): warps stop there */
            emit(g, "    bar.sync 0;\n");
            break;
        }
        guard(g);
        if (form == 0) {
            operand(g, 'f', a, sizeof a);
            operand(g, 'f', b, sizeof b);
            emit(g, "setp.%s%s.f32 %%p%u, %s, %s;\n", f_cmps[pick(&g->s, 14)],
                 pick(&g->s, 2) ? ".ftz" : "", p, a, b);
        } else {
            operand(g, rk, a, sizeof a);
            operand(g, rk, b, sizeof b);
            bool uns = pick(&g->s, 4) == 0;
            const char *cmp = uns ? uns_cmps[pick(&g->s, 4)] : int_cmps[pick(&g->s, 6)];
            if (!uns && pick(&g->s, 3)) sg = "s";   /* signed orders: the sign bit matters */
            if (form == 1) {
                emit(g, "setp.%s.%s%s %%p%u, %s, %s;\n", cmp, uns ? "u" : sg, bits, p, a, b);
            } else {
                /* a combining operation: the interpreter's general handler */
                static const char *const bools[] = {"and", "or", "xor"};
                emit(g, "setp.%s.%s.%s%s %%p%u, %s, %s, %s%%p%u;\n", cmp, bools[pick(&g->s, 3)],
                     uns ? "u" : sg, bits, p, a, b, pick(&g->s, 2) ? "!" : "", pick(&g->s, NP));
            }
        }
        break;
    }
    case 13: {
        char kind = "rdf"[pick(&g->s, 3)];
        operand(g, kind, a, sizeof a);
        operand(g, kind, b, sizeof b);
        guard(g);
        emit(g, "selp.%s %%%c%u, %s, %s, %s%%p%u;\n",
             kind == 'r' ? "b32" : kind == 'd' ? "b64" : "f32", kind, d, a, b, "", pick(&g->s, NP));
        break;
    }
    case 14: case 15: {
        char kind = "rdf"[pick(&g->s, 3)];
        operand(g, kind, a, sizeof a);
        guard(g);
        if (kind == 'f' && pick(&g->s, 3) == 0) {
            /* abs/neg: bit operations (after .ftz), NaNs kept as they are; cvt.f32.f32: .ftz,
             * .sat, the canonical NaN */
            static const char *const ops[] = {"abs", "neg", "cvt", "cvt.sat"};
            unsigned f = pick(&g->s, 4);
            emit(g, "%s%s.f32%s %%f%u, %%f%u;\n", ops[f], pick(&g->s, 2) ? ".ftz" : "",
                 f >= 2 ? ".f32" : "", d, pick(&g->s, NR));
            break;
        }
        emit(g, "mov.%s %%%c%u, %s;\n", kind == 'r' ? "b32" : kind == 'd' ? "b64" : "f32", kind, d,
             a);
        break;
    }
    case 16: {
        /* a read of this thread's input row (a gather), of one word for all threads, or of
         * consecutive words (the compiled code's plain-load shapes) */
        unsigned shape = pick(&g->s, 3);
        guard(g);
        if (shape == 0) emit(g, "ld.global.u32 %%r%u, [%%in+%u];\n", d, 8 * pick(&g->s, SLOTS));
        else if (shape == 1 && pick(&g->s, 2)) emit(g, "ld.global.u32 %%r%u, [%%ub+%u];\n", d, 4 * pick(&g->s, SLOTS));
        else if (shape == 1) emit(g, "ld.global.f32 %%f%u, [%%ub+%u];\n", d, 4 * pick(&g->s, SLOTS));
        else emit(g, "ld.global.u32 %%r%u, [%%cb+%u];\n", d, 4 * pick(&g->s, SLOTS));
        break;
    }
    case 17:
        operand(g, 'f', a, sizeof a);
        operand(g, 'f', b, sizeof b);
        guard(g);
        emit(g, "%s%s%s.f32 %%f%u, %s, %s;\n", pick(&g->s, 2) ? "min" : "max",
             pick(&g->s, 2) ? ".ftz" : "", pick(&g->s, 4) == 0 ? ".NaN" : "", d, a, b);
        break;
    case 18:
        if (pick(&g->s, 4) == 0) {
            /* nanosleep ends the warp's run: another warp goes on */
            guard(g);
            emit(g, "nanosleep.u32 %u;\n", pick(&g->s, 100));
            break;
        }
        /* a condition that is uniform (same for every lane) */
        guard(g);
        emit(g, "setp.%s.u32 %%p%u, %%ctaid.x, %u;\n", int_cmps[pick(&g->s, 6)], pick(&g->s, NP),
             pick(&g->s, 3));
        break;
    case 19:
        operand(g, 'r', a, sizeof a);
        guard(g);
        emit(g, "cvt.rn.f32.%s32 %%f%u, %s;\n", sg, d, a);
        break;
    case 20: {
        /* shared memory at a lane's own or a neighbour's word (threads race only across
         * warps, which both executors order alike); now and then past the end: a fault */
        unsigned off = pick(&g->s, 64) == 0 ? 4096 + 8 * pick(&g->s, 4) : 8 * pick(&g->s, 3);
        /* the address in a 64-bit register, or in a 32-bit one, whose offset may wrap around
         * 2^32 (-8: lane 0 then faults) */
        const char *ar = "%sa";
        if (pick(&g->s, 2)) {
            ar = "%sw";
            if (pick(&g->s, 16) == 0) off = 4294967288u;
        }
        guard(g);
        if (pick(&g->s, 2)) emit(g, "st.shared.%s [%s+%u], %%%c%u;\n", wide ? "u64" : "u32", ar, off, rk, d);
        else emit(g, "ld.shared.%s %%%c%u, [%s+%u];\n", wide ? "u64" : "u32", rk, d, ar, off);
        break;
    }
    case 21:
        guard(g);
        if (pick(&g->s, 4) == 0) {
            /* cvta: shared addresses into and out of the generic window, global ones as they are */
            static const char *const forms[] = {"cvta.shared", "cvta.to.shared", "cvta.to.global",
                                                "cvta.global"};
            unsigned f = pick(&g->s, 4);
            if (f == 0) emit(g, "cvta.shared.u64 %%d%u, %%sa;\n", d);
            else emit(g, "%s.u64 %%d%u, %%d%u;\n", forms[f], d, pick(&g->s, NR));
            break;
        }
        if (pick(&g->s, 2)) emit(g, "cvt.%s64.%s32 %%d%u, %%r%u;\n", sg, sg, d, pick(&g->s, NR));
        else emit(g, "cvt.u32.u64 %%r%u, %%d%u;\n", d, pick(&g->s, NR));
        break;
    case 22:
        /* a global read at a misaligned or outside address: a fault, identical on both */
        if (pick(&g->s, 8) != 0) {
            guard(g);
            emit(g, "ld.global.u32 %%r%u, [%%in+%u];\n", d, 8 * pick(&g->s, SLOTS) + 4);
            break;
        }
        guard(g);
        emit(g, "ld.global.u32 %%r%u, [%%in+%u];\n", d, pick(&g->s, 2) ? 2u : 1u << 24);
        break;
    case 23: {
        /* div, rcp, sqrt, rsqrt in their rounding and approximate forms */
        static const char *const forms[] = {"div.rn", "div.full", "div.approx", "div.rz",
                                            "rcp.rn", "rcp.approx", "rcp.rm", "sqrt.rn",
                                            "sqrt.approx", "rsqrt.approx"};
        unsigned f = pick(&g->s, 10);
        operand(g, 'f', a, sizeof a);
        operand(g, 'f', b, sizeof b);
        /* divisors around 2^126, where div.approx gives zero */
        if (f < 4 && pick(&g->s, 3) == 0) snprintf(b, sizeof b, "0f%08X", 0x7e800000u + pick(&g->s, 3) * 0x00400000u);
        guard(g);
        emit(g, "%s%s.f32 %%f%u, %s", forms[f], pick(&g->s, 2) ? ".ftz" : "", d, a);
        emit(g, f < 4 ? ", %s;\n" : ";\n", b);
        break;
    }
    case 24: {
        /* f64 on the 64-bit registers (random bits: NaN payloads among them) */
        static const char *const ops[] = {"add", "sub", "mul", "fma", "mad"};
        unsigned f = pick(&g->s, 5);
        snprintf(a, sizeof a, "%%d%u", pick(&g->s, NR));
        operand(g, 'd', b, sizeof b);
        operand(g, 'd', c, sizeof c);
        if (b[0] != '%') snprintf(b, sizeof b, "0d%016" PRIX64, rnd(&g->s));
        if (c[0] != '%') snprintf(c, sizeof c, "0d7FF4000000000001");
        guard(g);
        emit(g, "%s%s.f64 %%d%u, %s, %s", ops[f], f >= 3 || pick(&g->s, 2) ? ".rn" : "", d, a, b);
        emit(g, f >= 3 ? ", %s;\n" : ";\n", c);
        break;
    }
    case 27: {
        /* a forward branch over a few instructions, divergent or not, sometimes with an else
         * arm (the first arm ends with a branch over it) */
        unsigned l = g->labels++;
        emit(g, "    @%s%%p%u bra L%u;\n", pick(&g->s, 2) ? "!" : "", pick(&g->s, NP), l);
        unsigned n = 1 + pick(&g->s, 4);
        for (unsigned i = 0; i < n; i++) instruction(g, depth - 1);
        if (pick(&g->s, 3) == 0) {
            unsigned e = g->labels++;
            emit(g, "    bra L%u;\nL%u:\n", e, l);
            n = 1 + pick(&g->s, 3);
            for (unsigned i = 0; i < n; i++) instruction(g, depth - 1);
            l = e;
        }
        emit(g, "L%u:\n", l);
        break;
    }
    default: {
        /* a loop of 1..4 trips, the count from a register (per lane) */
        unsigned l = g->labels++;
        emit(g, "    and.b32 %%c%u, %%r%u, 3;\n", depth, pick(&g->s, NR));
        emit(g, "L%u:\n", l);
        unsigned n = 1 + pick(&g->s, 4);
        for (unsigned i = 0; i < n; i++) instruction(g, depth - 1);
        emit(g, "    sub.u32 %%c%u, %%c%u, 1;\n", depth, depth);
        emit(g, "    setp.ne.u32 %%q%u, %%c%u, -1;\n", depth, depth);
        emit(g, "    @%%q%u bra L%u;\n", depth, l);
        break;
    }
    }
}

/* The kernel of one seed: loads, body, stores. */
/* non-zero: program() ends by adding it to the first output (the disk cache test) */
static unsigned tail_constant;

static char *program(uint64_t seed, unsigned ninstr)
{
    gen g = {.cap = 8192, .s = seed * UINT64_C(0x9e3779b97f4a7c15) + 1};
    g.buf = malloc(g.cap);
    ck_assert_ptr_nonnull(g.buf);
    g.buf[0] = 0;
    emit(&g, CONF_PTX_HEADER
         ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
         "    .reg .b32 %%r<%d>, %%c<4>, %%t, %%n, %%x, %%sw;\n"
         "    .reg .b64 %%d<%d>, %%in, %%out, %%off, %%sa, %%ub, %%cb;\n"
         "    .reg .f32 %%f<%d>;\n"
         "    .reg .pred %%p<%d>, %%q<4>;\n"
         "    .shared .align 8 .b8 sh[4096];\n"
         "    ld.param.u64 %%in, [pin];\n"
         /* pout read by offset: the [param+imm] form of the compiled ld.param */
         "    ld.param.u64 %%out, [pin+8];\n"
         "    mov.u32 %%t, %%tid.x;\n"
         "    mov.u32 %%n, %%ntid.x;\n"
         "    mov.u32 %%x, %%ctaid.x;\n"
         "    mad.lo.u32 %%t, %%x, %%n, %%t;\n"
         "    mov.u32 %%x, %%tid.x;\n"
         "    mul.wide.u32 %%sa, %%x, 8;\n"
         "    and.b64 %%sa, %%sa, 4095;\n"
         "    mov.u64 %%off, sh;\n"
         "    add.u64 %%sa, %%sa, %%off;\n"
         "    cvt.u32.u64 %%sw, %%sa;\n"
         "    mov.u32 %%x, %%ctaid.x;\n"
         "    mul.wide.u32 %%off, %%t, %d;\n"
         "    mov.u64 %%ub, %%in;\n"
         "    mul.wide.u32 %%cb, %%t, 4;\n"
         "    add.u64 %%cb, %%cb, %%in;\n"
         "    add.u64 %%in, %%in, %%off;\n"
         "    add.u64 %%out, %%out, %%off;\n",
         NR, NR, NR, NP, SLOTS * 8);
    for (int i = 0; i < NR; i++) emit(&g, "    ld.global.u32 %%r%d, [%%in+%d];\n", i, 8 * i);
    for (int i = 0; i < NR; i++) emit(&g, "    ld.global.u64 %%d%d, [%%in+%d];\n", i, 8 * (NR + i));
    for (int i = 0; i < NR; i++) emit(&g, "    ld.global.f32 %%f%d, [%%in+%d];\n", i, 8 * (2 * NR + i));
    for (int i = 0; i < NP; i++) {
        emit(&g, "    ld.global.u32 %%x, [%%in+%d];\n", 8 * (3 * NR + i));
        emit(&g, "    setp.ne.u32 %%p%d, %%x, 0;\n", i);
    }
    for (unsigned i = 0; i < ninstr; i++) instruction(&g, 2);
    for (int i = 0; i < NR; i++) emit(&g, "    st.global.u32 [%%out+%d], %%r%d;\n", 8 * i, i);
    for (int i = 0; i < NR; i++) emit(&g, "    st.global.u64 [%%out+%d], %%d%d;\n", 8 * (NR + i), i);
    for (int i = 0; i < NR; i++) emit(&g, "    st.global.f32 [%%out+%d], %%f%d;\n", 8 * (2 * NR + i), i);
    for (int i = 0; i < NP; i++) {
        emit(&g, "    selp.u32 %%x, 1, 0, %%p%d;\n", i);
        emit(&g, "    st.global.u32 [%%out+%d], %%x;\n", 8 * (3 * NR + i));
    }
    if (tail_constant)   /* a program that differs from the plain one in its last µops only */
        emit(&g, "    add.u32 %%r0, %%r0, %u;\n    st.global.u32 [%%out], %%r0;\n", tail_constant);
    emit(&g, "    ret;\n}\n");
    return g.buf;
}

/* Runs seed's program on executor (CONF_EXECUTOR) against the step interpreter. */
static void run_seed(uint64_t seed, const char *executor)
{
    uint64_t s = seed + 77;
    unsigned ninstr = 20 + pick(&s, 50);
    char *ptx = program(seed, ninstr);
    emu_dim3 grid = {1 + pick(&s, 3), 1, 1}, block = {1 + pick(&s, 96), 1, 1};
    size_t threads = (size_t)grid.x * block.x, bytes = threads * SLOTS * 8;
    uint8_t *in = conf_dev_alloc(bytes), *out = conf_dev_alloc(bytes);
    for (size_t t = 0; t < threads; t++)
        for (int i = 0; i < SLOTS; i++) {
            uint64_t v;
            if (i < NR) v = pick(&s, 4) ? rnd(&s) >> 32 : pick(&s, 40);
            else if (i < 2 * NR && pick(&s, 5) == 0)   /* an f64 NaN with a payload */
                v = (rnd(&s) & UINT64_C(0x800fffffffffffff)) | UINT64_C(0x7ff0000000000001);
            else if (i < 2 * NR) v = rnd(&s) >> pick(&s, 64);
            else if (i < 3 * NR) v = random_f32(&s);
            else v = pick(&s, 2);
            memcpy(in + (t * SLOTS + i) * 8, &v, 8);
        }
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    if (getenv("JIT_DUMP")) fprintf(stderr, "--- seed %" PRIu64 " ---\n%s", seed, ptx);
    setenv("CONF_EXECUTOR", executor, 1);
    char name[64];
    snprintf(name, sizeof name, "random program %" PRIu64 " (%s)", seed, executor);
    conf_result r;
    conf_status st = conf_run_k(name, ptx, grid, block, 0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    if (st != CONF_OK && st != CONF_FAULTED) {
        /* the program on stderr (Check's messages are short) */
        fprintf(stderr, "--- %s ---\n%s", name, ptx);
        ck_abort_msg("%.1500s (the program is on stderr)", r.message);
    }
    conf_dev_free(in);
    conf_dev_free(out);
    free(ptx);
}

START_TEST(random_programs_jit)
{
    run_seed((uint64_t)_i, "jit");
}
END_TEST

START_TEST(random_programs_auto)
{
    /* compiled as soon as a warp's first run ends: the warps still running switch to it */
    emu_jit_configure(&(emu_jit_options){.verbose = 0, .hot_instructions = 1, .foreground = true});
    run_seed((uint64_t)_i, "auto");
}
END_TEST

/* The same with the background compiler: the switch falls wherever the compile ends, and the
 * module may unload while its function compiles (the unload waits for it) */
START_TEST(random_programs_auto_background)
{
    emu_jit_configure(&(emu_jit_options){.verbose = 0, .hot_instructions = 1});
    run_seed((uint64_t)_i + 100, "auto");
}
END_TEST

/* The event variant (a sink installed): the events, memory, faults and counts of the step
 * interpreter's run */
START_TEST(random_programs_jit_events)
{
    setenv("CONF_EVENTS", "1", 1);
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    run_seed((uint64_t)_i + 200, "jit");
    emu_jit_get_stats(&after);
    unsetenv("CONF_EVENTS");
    ck_assert_msg(after.failed == before.failed, "the event variant was left to the interpreter");
    ck_assert_msg(after.functions + after.cache_hits > before.functions + before.cache_hits,
                  "no event variant was compiled");
}
END_TEST

/* Slow paths that go on: under a policy that is not the direct one (CONF_POLICY=forward)
 * every translated ld/st runs its handler from its slow path (emu_jit_call_handler) and the run
 * goes on after it in compiled code, the loaded rows read back (a shared access through a
 * 32-bit address ends the run there instead, for the interpreter's loop: slow_ends_run):
 * memory, faults and counts as the step interpreter's */
START_TEST(random_programs_jit_slow_paths)
{
    setenv("CONF_POLICY", "forward", 1);
    run_seed((uint64_t)_i + 400, "jit");
    unsetenv("CONF_POLICY");
}
END_TEST

START_TEST(random_programs_auto_events)
{
    emu_jit_configure(&(emu_jit_options){.verbose = 0, .hot_instructions = 1, .foreground = true});
    setenv("CONF_EVENTS", "1", 1);
    run_seed((uint64_t)_i + 300, "auto");
    unsetenv("CONF_EVENTS");
}
END_TEST

/* The event variant on the cycle model (CONF_TIMING: the model reads the events; on 1 and 2
 * host threads, whose run-aheads differ): a loop whose barrier, atomic and %clock read are
 * timed (the run-ahead stops before them once it issued an instruction, and before the global
 * accesses in a local run-ahead; a %clock read is also where a divergent branch reconverges,
 * so compiled code is entered at it within a run), and whose results depend on when they ran (the atomic's old
 * value, the clock), so a run-ahead stop in the wrong place changes memory as well as the
 * cycles, the statistics and the events, all compared with the step interpreter's. */
START_TEST(events_under_the_cycle_model)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %i, %a, %c, %g;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .pred %p, %q;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %g, %ctaid.x;\n"
        "    mad.lo.u32 %t, %g, 96, %t;\n"
        "    mul.wide.u32 %o, %t, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    mov.u32 %i, 0;\n"
        "    mov.u32 %a, 0;\n"
        "L:\n"
        "    ld.global.u32 %c, [%in];\n"
        "    add.u32 %a, %a, %c;\n"
        "    mul.lo.u32 %a, %a, 3;\n"
        "    bar.sync 0;\n"
        /* a divergent branch whose reconvergence point is the %clock read: the outer loop
         * settles the stack and enters compiled code there, at a timed µop, in a run that
         * issued instructions already (c->ran_before) */
        "    and.b32 %c, %t, 1;\n"
        "    setp.eq.u32 %q, %c, 0;\n"
        "    @%q bra SKIP;\n"
        "    add.u32 %a, %a, 7;\n"
        "SKIP:\n"
        "    mov.u32 %c, %clock;\n"
        "    xor.b32 %a, %a, %c;\n"
        "    atom.global.add.u32 %c, [%out], 1;\n"
        "    add.u32 %a, %a, %c;\n"
        "    mov.u32 %c, %clock;\n"
        "    xor.b32 %a, %a, %c;\n"
        "    add.u32 %i, %i, 1;\n"
        "    setp.lt.u32 %p, %i, 6;\n"
        "    @%p bra L;\n"
        "    add.u64 %o, %o, 4;\n"
        "    add.u64 %o, %out, %o;\n"
        "    st.global.u32 [%o], %a;\n"
        "    ret;\n}\n";
    enum { CTAS = 6, THREADS = 96 };
    uint8_t *in = conf_dev_alloc(CTAS * THREADS * 4), *out = conf_dev_alloc(4 + CTAS * THREADS * 4);
    for (uint32_t t = 0; t < CTAS * THREADS; t++) {
        uint32_t v = t * 2654435761u;
        memcpy(in + 4 * t, &v, 4);
    }
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    const char *threads[2] = {"1", "2"};
    const char *executors[2] = {"jit", "auto"};
    emu_jit_configure(&(emu_jit_options){.verbose = 0, .hot_instructions = 1, .foreground = true});
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    for (int e = 0; e < 2; e++)
        for (int h = 0; h < 2; h++) {
            memset(out, 0, 4 + CTAS * THREADS * 4);
            setenv("CONF_EXECUTOR", executors[e], 1);
            setenv("CONF_EVENTS", "1", 1);
            setenv("CONF_TIMING", threads[h], 1);
            char name[96];
            snprintf(name, sizeof name, "cycle model, %s, %s host threads", executors[e], threads[h]);
            conf_result r;
            conf_status st = conf_run_k(name, ptx, (emu_dim3){CTAS, 1, 1}, (emu_dim3){THREADS, 1, 1},
                                        0, params, 2, &r);
            unsetenv("CONF_EXECUTOR");
            unsetenv("CONF_EVENTS");
            unsetenv("CONF_TIMING");
            ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
            uint32_t count;
            memcpy(&count, out, 4);
            ck_assert_uint_eq(count, CTAS * THREADS * 6);
        }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "the kernel was left to the interpreter");
    ck_assert_msg(after.functions + after.cache_hits > before.functions + before.cache_hits,
                  "no event variant was compiled");
    emu_jit_configure(&(emu_jit_options){.hot_instructions = 50000});
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* The JIT translated a real share of what it compiled (a guard against every µop quietly
 * falling back to its handler, which would still compare equal). */
START_TEST(translates_most)
{
    for (int i = 0; i < 4; i++) run_seed((uint64_t)i, "jit");
    emu_jit_stats st;
    emu_jit_get_stats(&st);
    ck_assert_msg(st.functions >= 1, "the JIT compiled nothing");
    /* a function LLVM rejects runs on the interpreter and would compare equal too */
    ck_assert_msg(st.failed == 0, "%" PRIu64 " functions were left to the interpreter", st.failed);
    ck_assert_msg(st.native * 10 > st.uops * 3, "only %" PRIu64 " of %" PRIu64 " instructions translated",
                  st.native, st.uops);
}
END_TEST

/* The disk cache (engine.c): programs compiled, stored and unloaded are loaded again rather
 * than compiled, and still agree with the step interpreter; programs that differ only in their
 * last instruction's immediate get their own entries (a key blind to part of the code would
 * hand one the other's code, and the comparison would fail). */
START_TEST(disk_cache)
{
    char dir[] = "/tmp/ptxsim-test-jit-cache-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    emu_jit_configure(&(emu_jit_options){.verbose = getenv("JIT_VERBOSE") != NULL, .hot_instructions = 50000, .cache_dir = dir,
                                         .cache_bytes = (uint64_t)1 << 30, .version = "test"});
    emu_jit_stats st[3];
    emu_jit_get_stats(&st[0]);
    for (int round = 1; round <= 2; round++) {
        for (unsigned k = 1; k <= 2; k++)
            for (uint64_t seed = 0; seed < 4; seed++) {
                tail_constant = k;
                run_seed(seed, "jit");
            }
        emu_jit_get_stats(&st[round]);
    }
    tail_constant = 0;
    uint64_t compiled = st[1].functions - st[0].functions;
    ck_assert_msg(compiled >= 8, "only %" PRIu64 " functions compiled", compiled);
    ck_assert_uint_eq(st[1].cache_stores - st[0].cache_stores, compiled);
    ck_assert_uint_eq(st[1].cache_hits, st[0].cache_hits);
    ck_assert_msg(st[2].functions == st[1].functions, "the second round compiled %" PRIu64,
                  st[2].functions - st[1].functions);
    ck_assert_uint_eq(st[2].cache_hits - st[1].cache_hits, compiled);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    unsigned entries = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        char path[sizeof dir + sizeof de->d_name + 1];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        entries++;
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
    ck_assert_uint_eq(entries, compiled);
    emu_jit_configure(&(emu_jit_options){.hot_instructions = 50000});
}
END_TEST

/* Counts and removes the files of cache folder dir, and the folder. */
static unsigned cache_dir_clear(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    unsigned entries = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        entries++;
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
    return entries;
}

/* Counts the lines beginning with prefix (a block's label) in the IR files (.ll) the JIT dumped
 * into dir, and removes dir with every file in it. */
static unsigned dumped_ir_lines(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    unsigned n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len = strlen(de->d_name);
        if (len > 3 && !strcmp(de->d_name + len - 3, ".ll")) {
            FILE *fp = fopen(path, "r");
            ck_assert_ptr_nonnull(fp);
            char line[4096];
            while (fgets(line, sizeof line, fp))
                if (!strncmp(line, prefix, strlen(prefix))) n++;
            fclose(fp);
        }
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
    return n;
}

static void run_compiled_on_jit(const char *name, const char *ptx, unsigned B, unsigned T,
                                void *in, void *out);

/* The disk cache's key is made from the translator's inputs, before any translation
 * (engine.c's code_key, input_key.c): kernels that differ in one field of one µop the
 * translator reads (a type, an immediate, a guard's sense) get keys of their own, so each
 * runs its own code from the cache and agrees with the step interpreter (a shared key would
 * hand the later kernels the first one's code); a second round loads all of them. */
START_TEST(disk_cache_keys_differ_by_one_field)
{
    static const char *const variants[] = {
        "    @%p shr.s32 %y, %x, 3;\n",
        "    @%p shr.u32 %y, %x, 3;\n",    /* the type */
        "    @%p shr.s32 %y, %x, 5;\n",    /* the immediate */
        "    @!%p shr.s32 %y, %x, 3;\n",   /* the guard's sense */
    };
    enum { N = sizeof variants / sizeof variants[0], T = 64 };
    char dir[] = "/tmp/ptxsim-test-jit-keys-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    emu_jit_configure(&(emu_jit_options){.verbose = getenv("JIT_VERBOSE") != NULL, .hot_instructions = 50000, .cache_dir = dir,
                                         .cache_bytes = (uint64_t)1 << 30, .version = "test"});
    emu_jit_stats st[3];
    emu_jit_get_stats(&st[0]);
    for (int round = 1; round <= 2; round++) {
        for (unsigned v = 0; v < N; v++) {
            char ptx[2048];
            snprintf(ptx, sizeof ptx,
                     CONF_PTX_HEADER
                     ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                     "    .reg .b32 %%i, %%x, %%y;\n"
                     "    .reg .b64 %%in, %%out, %%o;\n"
                     "    .reg .pred %%p;\n"
                     "    ld.param.u64 %%in, [pin];\n"
                     "    ld.param.u64 %%out, [pout];\n"
                     "    mov.u32 %%i, %%tid.x;\n"
                     "    mul.wide.u32 %%o, %%i, 4;\n"
                     "    add.u64 %%in, %%in, %%o;\n"
                     "    ld.global.u32 %%x, [%%in];\n"
                     "    setp.lt.s32 %%p, %%x, 0;\n"
                     "    mov.u32 %%y, 1;\n"
                     "%s"
                     "    add.u64 %%out, %%out, %%o;\n"
                     "    st.global.u32 [%%out], %%y;\n"
                     "    ret;\n}\n",
                     variants[v]);
            uint32_t *in = conf_dev_alloc(4 * T), *out = conf_dev_alloc(4 * T);
            for (unsigned i = 0; i < T; i++) in[i] = i * 0x9e3779b1u;   /* both signs */
            run_compiled_on_jit(variants[v], ptx, 1, T, in, out);
        }
        emu_jit_get_stats(&st[round]);
    }
    ck_assert_uint_eq(st[1].functions - st[0].functions, N);
    ck_assert_uint_eq(st[1].cache_stores - st[0].cache_stores, N);
    ck_assert_uint_eq(st[1].cache_hits, st[0].cache_hits);
    ck_assert_msg(st[2].functions == st[1].functions, "the second round compiled %" PRIu64,
                  st[2].functions - st[1].functions);
    ck_assert_uint_eq(st[2].cache_hits - st[1].cache_hits, N);
    ck_assert_uint_eq(cache_dir_clear(dir), N);
    emu_jit_configure(&(emu_jit_options){.hot_instructions = 50000});
}
END_TEST

/* The JIT compiled (or loaded from its cache) a function since `before`, and left none to the
 * interpreter. */
static void assert_compiled_since(const emu_jit_stats *before)
{
    emu_jit_stats after;
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before->failed && after.functions + after.cache_hits >
                                                        before->functions + before->cache_hits,
                  "the kernel was not compiled");
}

/* Runs ptx's kernel k(in, out) on B blocks of T threads under the JIT against the step
 * interpreter (the conformance harness), checks that it agreed and was compiled, and frees the
 * two device buffers. */
static void run_compiled_on_jit(const char *name, const char *ptx, unsigned B, unsigned T,
                                void *in, void *out)
{
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st =
        conf_run_k(name, ptx, (emu_dim3){B, 1, 1}, (emu_dim3){T, 1, 1}, 0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}

/* auto foresees a long launch (emu_jit_foresee): when its first warp exits, the launch's warps,
 * each running as many instructions, will pass the threshold, so the kernel compiles then, not
 * once the warps have counted up to it; a launch that will not pass it compiles nothing. Both
 * still agree with the step interpreter. */
START_TEST(auto_foresees_a_long_launch)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %i, %j, %s;\n"
        "    .reg .b64 %out, %o;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mov.u32 %s, %ctaid.x;\n"
        "    mov.u32 %j, 0;\n"
        "L1:\n"
        "    mad.lo.u32 %s, %s, 3, %i;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %p, %j, 15;\n"
        "    @%p bra L1;\n"
        "    mov.u32 %j, %ctaid.x;\n"
        "    mad.lo.u32 %j, %j, 64, %i;\n"
        "    mul.wide.u32 %o, %j, 4;\n"
        "    add.u64 %o, %o, %out;\n"
        "    st.global.u32 [%o], %s;\n"
        "    ret;\n}\n";
    /* each warp runs 70 warp instructions, within its first turn (the det-off turn is 100 or
     * more), so warps exit before the function's count nears the threshold, 71 warps' worth */
    enum { THRESHOLD = 5000, SHORT = 8, LONG = 128 };
    emu_jit_configure(&(emu_jit_options){.hot_instructions = THRESHOLD, .foreground = true});
    setenv("CONF_EXECUTOR", "auto", 1);
    const unsigned ctas[2] = {SHORT, LONG};   /* 16 warps, then 256 */
    for (int i = 0; i < 2; i++) {
        uint8_t *in = conf_dev_alloc(8), *out = conf_dev_alloc(4 * 64 * LONG);
        uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
        emu_jit_stats before, after;
        emu_jit_get_stats(&before);
        conf_result r;
        conf_status st = conf_run_k(i ? "a long launch" : "a short launch", ptx,
                                    (emu_dim3){ctas[i], 1, 1}, (emu_dim3){64, 1, 1}, 0, params, 2, &r);
        ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
        emu_jit_get_stats(&after);
        if (i == 0) {
            ck_assert_msg(after.functions + after.cache_hits == before.functions + before.cache_hits,
                          "a launch of %u warp instructions compiled its kernel", SHORT * 2 * 70);
            ck_assert_uint_eq(after.foreseen, before.foreseen);
        } else {
            assert_compiled_since(&before);
            ck_assert_uint_eq(after.foreseen, before.foreseen + 1);
        }
        conf_dev_free(in);
        conf_dev_free(out);
    }
    unsetenv("CONF_EXECUTOR");
    emu_jit_configure(&(emu_jit_options){.hot_instructions = 50000});
}
END_TEST

/* Rows the compiled code keeps in registers: temporaries read within a segment and dead after
 * it are stored only where a run leaves (a budget stop lands on every µop of the loop: two
 * iterations are 27 µops, prime to the det-off budget of 100), and a row read only at a branch
 * target two blocks on (dead on the fall path) must be stored at its segment's end. */
START_TEST(rows_kept_in_registers)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %i, %j, %a, %b, %c, %s, %t;\n"
        "    .reg .b64 %out, %o;\n"
        "    .reg .pred %p, %q;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mov.u32 %j, 0;\n"
        "    mov.u32 %s, 0;\n"
        "    setp.eq.u32 %p, %i, 1000000;\n"
        "    @%p bra L0;\n"
        "L1:\n"
        "    add.u32 %a, %i, %j;\n"
        "    mul.lo.u32 %b, %a, 3;\n"
        "    add.u32 %c, %b, %a;\n"
        "    mov.u32 %t, %c;\n"
        "L0:\n"
        "    and.b32 %b, %j, 1;\n"
        "    setp.ne.u32 %q, %b, 0;\n"
        "    @%q bra L2;\n"
        "    mov.u32 %t, 7;\n"
        "L2:\n"
        "    add.u32 %s, %s, %t;\n"
        "    xor.b32 %s, %s, %c;\n"
        "    shl.b32 %s, %s, 1;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %p, %j, 300;\n"
        "    @%p bra L1;\n"
        "    mul.wide.u32 %o, %i, 4;\n"
        "    add.u64 %o, %o, %out;\n"
        "    st.global.u32 [%o], %s;\n"
        "    ret;\n}\n";
    uint8_t *in = conf_dev_alloc(8), *out = conf_dev_alloc(4 * 64);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_options o = {.verbose = getenv("JIT_DUMP") ? 1 : 0, .hot_instructions = 1};
    emu_jit_configure(&o);
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k("rows kept in registers", ptx, (emu_dim3){1, 1, 1},
                                (emu_dim3){40, 1, 1}, 0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Loop segments (a block that branches back to itself, its rows kept in registers across
 * iterations, translate.c's open_loop/emit_back_edge): a uniform loop of 397 trips of 17 µops
 * (prime to the budget of 100, so budget stops land on every µop, the back edge included),
 * whose head is the
 * reconvergence point of a divergent branch, carrying 32-bit, 64-bit and f32 rows, a guarded
 * write, a load, a handler call (sin.approx) and a row written in the loop and read only after
 * it; then a loop of 9 µops whose back edge diverges (per-lane trip counts), no handler in
 * it. */
START_TEST(loops_kept_in_registers)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %i, %j, %a, %s, %t, %w, %n, %c;\n"
        "    .reg .b64 %out, %in, %ia, %d, %o;\n"
        "    .reg .f32 %f, %g, %e;\n"
        "    .reg .pred %p, %q, %z;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    ld.param.u64 %in, [pin];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mov.u32 %j, 0;\n"
        "    mov.u32 %s, 0;\n"
        "    mov.u32 %t, 5;\n"
        "    cvt.u64.u32 %d, %i;\n"
        "    add.u64 %d, %d, 0x123456789;\n"
        "    cvt.rn.f32.u32 %f, %i;\n"
        "    mov.f32 %e, 0f3F000000;\n"
        "    ld.global.u32 %n, [%in];\n"
        "    mul.wide.u32 %ia, %i, 4;\n"
        "    add.u64 %ia, %ia, %in;\n"
        "    and.b32 %a, %i, 1;\n"
        "    setp.ne.u32 %p, %a, 0;\n"
        "    @%p bra L1;\n"
        "    add.u32 %s, %s, 3;\n"
        "L1:\n"
        "    add.u32 %a, %s, %j;\n"
        "    mul.lo.u32 %w, %a, 3;\n"
        "    xor.b32 %s, %s, %w;\n"
        "    shl.b32 %s, %s, 1;\n"
        "    shl.b64 %o, %d, 3;\n"
        "    xor.b64 %d, %d, %o;\n"
        "    setp.lt.u32 %z, %i, 7;\n"
        "    @%z add.u32 %t, %t, %j;\n"
        "    ld.global.u32 %w, [%ia+4];\n"
        "    add.u32 %s, %s, %w;\n"
        "    fma.rn.f32 %f, %f, %e, %e;\n"
        "    sin.approx.f32 %g, %e;\n"
        "    add.f32 %f, %f, %g;\n"
        "    add.u32 %s, %s, 1;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %q, %j, %n;\n"
        "    @%q bra L1;\n"
        "    and.b32 %c, %i, 3;\n"
        "    add.u32 %c, %c, 40;\n"
        "L2:\n"
        "    add.u32 %t, %t, %c;\n"
        "    mul.lo.u32 %w, %t, 7;\n"
        "    xor.b32 %t, %t, %w;\n"
        "    add.u64 %d, %d, %o;\n"
        "    mul.f32 %f, %f, %e;\n"
        "    add.u32 %t, %t, 1;\n"
        "    sub.u32 %c, %c, 1;\n"
        "    setp.ne.u32 %q, %c, 0;\n"
        "    @%q bra L2;\n"
        "    mul.wide.u32 %o, %i, 48;\n"
        "    add.u64 %o, %o, %out;\n"
        "    st.global.u32 [%o], %s;\n"
        "    st.global.u32 [%o+4], %t;\n"
        "    st.global.u32 [%o+8], %a;\n"
        "    st.global.u32 [%o+12], %j;\n"
        "    st.global.u64 [%o+16], %d;\n"
        "    st.global.f32 [%o+24], %f;\n"
        "    st.global.f32 [%o+28], %g;\n"
        "    st.global.u32 [%o+32], %w;\n"
        "    ret;\n}\n";
    uint32_t *in = conf_dev_alloc(4 * 64);
    uint8_t *out = conf_dev_alloc(48 * 64);
    in[0] = 397;
    for (int k = 1; k < 64; k++) in[k] = (uint32_t)(k * 2654435761u);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_options o = {.verbose = getenv("JIT_DUMP") ? 1 : 0, .hot_instructions = 1};
    emu_jit_configure(&o);
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k("loops kept in registers", ptx, (emu_dim3){1, 1, 1},
                                (emu_dim3){40, 1, 1}, 0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* A consecutive global load in a loop segment prefetches its lines a few iterations ahead at
 * its stride (emit_stride_prefetch): a grid-stride loop whose last prefetches pass the end of
 * its array, a loop whose loads alternate between two allocations (the stride between them,
 * then its negative: the prefetched address may be anywhere, mapped or not), and a descending
 * loop, with a guard that leaves part of each warp out; prefetching never faults or changes
 * what is loaded: the JIT agrees with the step interpreter (memory, faults, counts). */
START_TEST(loop_loads_prefetch_their_stride)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %i, %j, %s, %w, %a;\n"
        "    .reg .b64 %in, %out, %base, %obase, %ia, %pp, %o;\n"
        "    .reg .pred %p, %q, %odd;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mul.wide.u32 %o, %i, 4;\n"
        "    add.u64 %base, %in, %o;\n"
        "    add.u64 %obase, %out, %o;\n"
        "    setp.lt.u32 %p, %i, 50;\n"
        "    @!%p bra DONE;\n"
        "    mov.u32 %s, 0;\n"
        "    mov.u32 %j, 0;\n"
        "L1:\n"
        "    mul.wide.u32 %ia, %j, 256;\n"
        "    add.u64 %ia, %ia, %base;\n"
        "    ld.global.u32 %w, [%ia];\n"
        "    add.u32 %s, %s, %w;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %q, %j, 16;\n"
        "    @%q bra L1;\n"
        "    mov.u32 %j, 0;\n"
        "L2:\n"
        "    and.b32 %a, %j, 1;\n"
        "    setp.ne.u32 %odd, %a, 0;\n"
        "    selp.b64 %pp, %obase, %base, %odd;\n"
        "    ld.global.u32 %w, [%pp+1024];\n"
        "    xor.b32 %s, %s, %w;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %q, %j, 9;\n"
        "    @%q bra L2;\n"
        "    mov.u32 %j, 15;\n"
        "L3:\n"
        "    mul.wide.u32 %ia, %j, 256;\n"
        "    add.u64 %ia, %ia, %base;\n"
        "    ld.global.u32 %w, [%ia];\n"
        "    mad.lo.u32 %s, %s, 3, %w;\n"
        "    sub.u32 %j, %j, 1;\n"
        "    setp.ne.u32 %q, %j, 0;\n"
        "    @%q bra L3;\n"
        "    st.global.u32 [%obase], %s;\n"
        "DONE:\n"
        "    ret;\n}\n";
    enum { T = 64, N = T * 16 };
    uint32_t *in = conf_dev_alloc(4 * N), *out = conf_dev_alloc(4 * N);
    for (unsigned k = 0; k < N; k++) {
        in[k] = k * 2654435761u;
        out[k] = k ^ 0x5a5a5a5au;
    }
    run_compiled_on_jit("loop loads prefetch their stride", ptx, 2, T, in, out);
}
END_TEST

/* Divergence resumed in compiled code (emu_jit_resume: after a divergent branch, at a path's
 * reconvergence point, after exited lanes, the run goes on at the path the executor loop would
 * pick, without returning): an if/else with an if nested in one arm, entered by part of each
 * warp; a loop whose body diverges (if/else, per-lane trip counts); a barrier in each arm of a
 * divergent branch; a path of one lane that faults (when `bad` names a thread); a path that
 * exits, the other storing after it. Partial warps (70 threads), two blocks; the JIT and its
 * event variant, and the cycle model on 1 and 2 host threads, against the step interpreter
 * (memory, fault, counts, events, cycles). */
START_TEST(divergence_resumed_in_compiled_code)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 bad)\n{\n"
        "    .reg .b32 %i, %a, %b, %c, %s, %t, %x, %bad;\n"
        "    .reg .b64 %in, %out, %o, %ia, %ba;\n"
        "    .reg .pred %p, %q, %r, %z;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    ld.param.u32 %bad, [bad];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mov.u32 %x, %ctaid.x;\n"
        "    mad.lo.u32 %i, %x, 70, %i;\n"
        "    mul.wide.u32 %ia, %i, 4;\n"
        "    add.u64 %ia, %ia, %in;\n"
        "    ld.global.u32 %a, [%ia];\n"
        "    mov.u32 %s, 0;\n"
        "    mov.u32 %t, 1;\n"
        "    and.b32 %x, %a, 0x300;\n"
        "    setp.eq.u32 %z, %x, 0;\n"
        "    @%z bra AFTER1;\n"
        "    and.b32 %b, %a, 1;\n"
        "    setp.ne.u32 %p, %b, 0;\n"
        "    @%p bra ELSE;\n"
        "    add.u32 %s, %s, %a;\n"
        "    mul.lo.u32 %t, %t, 3;\n"
        "    and.b32 %b, %a, 6;\n"
        "    setp.eq.u32 %q, %b, 2;\n"
        "    @%q bra N1;\n"
        "    xor.b32 %s, %s, 0x55;\n"
        "N1:\n"
        "    add.u32 %t, %t, %s;\n"
        "    bra ENDIF;\n"
        "ELSE:\n"
        "    sub.u32 %s, %s, %a;\n"
        "    shl.b32 %t, %t, 2;\n"
        "ENDIF:\n"
        "    add.u32 %s, %s, %t;\n"
        "AFTER1:\n"
        "    shr.u32 %c, %a, 4;\n"
        "    and.b32 %c, %c, 7;\n"
        "    add.u32 %c, %c, 1;\n"
        "LOOP:\n"
        "    and.b32 %b, %c, 1;\n"
        "    setp.eq.u32 %r, %b, 0;\n"
        "    @%r bra EVEN;\n"
        "    add.u32 %s, %s, %c;\n"
        "    bra NEXT;\n"
        "EVEN:\n"
        "    xor.b32 %s, %s, %c;\n"
        "    shl.b32 %t, %t, 1;\n"
        "NEXT:\n"
        "    sub.u32 %c, %c, 1;\n"
        "    setp.ne.u32 %r, %c, 0;\n"
        "    @%r bra LOOP;\n"
        "    and.b32 %b, %a, 0x800;\n"
        "    setp.eq.u32 %p, %b, 0;\n"
        "    @%p bra B2;\n"
        "    add.u32 %s, %s, 7;\n"
        "    bar.sync 0;\n"
        "    add.u32 %t, %t, %s;\n"
        "    bra B3;\n"
        "B2:\n"
        "    mul.lo.u32 %s, %s, 5;\n"
        "    bar.sync 0;\n"
        "    add.u32 %t, %t, 11;\n"
        "B3:\n"
        "    setp.eq.u32 %q, %i, %bad;\n"
        "    @!%q bra F1;\n"
        "    mov.u64 %ba, 8;\n"
        "    ld.global.u32 %x, [%ba];\n"
        "    add.u32 %s, %s, %x;\n"
        "F1:\n"
        "    mul.wide.u32 %o, %i, 8;\n"
        "    add.u64 %o, %o, %out;\n"
        "    and.b32 %b, %a, 0x1000;\n"
        "    setp.ne.u32 %q, %b, 0;\n"
        "    @%q bra X1;\n"
        "    st.global.u32 [%o], %s;\n"
        "    exit;\n"
        "X1:\n"
        "    add.u32 %s, %s, 1000;\n"
        "    st.global.u32 [%o], %s;\n"
        "    st.global.u32 [%o+4], %t;\n"
        "    ret;\n}\n";
    enum { THREADS = 70, CTAS = 2 };
    uint32_t *in = conf_dev_alloc(4 * CTAS * THREADS);
    uint8_t *out = conf_dev_alloc(8 * CTAS * THREADS);
    uint64_t seed = 99;
    for (int k = 0; k < CTAS * THREADS; k++) in[k] = (uint32_t)(rnd(&seed) >> 32);
    const uint32_t bads[2] = {UINT32_MAX, 37};
    const char *timing[3] = {NULL, "1", "2"};
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    for (int f = 0; f < 2; f++)
        for (int v = 0; v < 4; v++) {
            uint64_t params[3] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, bads[f]};
            memset(out, 0, 8 * CTAS * THREADS);
            setenv("CONF_EXECUTOR", "jit", 1);
            if (v > 0) setenv("CONF_EVENTS", "1", 1);
            if (v > 1) setenv("CONF_TIMING", timing[v - 1], 1);
            char name[96];
            snprintf(name, sizeof name, "divergence, bad %u, variant %d", bads[f], v);
            conf_result r;
            conf_status st = conf_run_k(name, ptx, (emu_dim3){CTAS, 1, 1},
                                        (emu_dim3){THREADS, 1, 1}, 0, params, 3, &r);
            unsetenv("CONF_EXECUTOR");
            unsetenv("CONF_EVENTS");
            unsetenv("CONF_TIMING");
            ck_assert_msg(st == (f ? CONF_FAULTED : CONF_OK), "%s: %.1500s", name, r.message);
        }
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Runs kernel `ptx` (grid x block, params) on the JIT against the step interpreter (the
 * conformance harness compares memory and counts) and checks that the JIT compiled it and left at
 * most `handled` of its µops to their handlers (ret always is). */
static void run_on_jit_translated(const char *what, const char *ptx, emu_dim3 grid, emu_dim3 block,
                                  uint64_t *params, unsigned nparams, uint64_t handled)
{
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k(what, ptx, grid, block, 0, params, nparams, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%s: %.1500s", what, r.message);
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "%s: the kernel was left to the interpreter", what);
    ck_assert_msg(after.uops - before.uops <= after.native - before.native + handled,
                  "%s: %" PRIu64 " of %" PRIu64 " instructions translated", what,
                  after.native - before.native, after.uops - before.uops);
}

/* Runs kernel `ptx` (params: in, out) on one block of a thread per ordered pair of special_f32's
 * patterns (thread t reads patterns t % N and t / N from in + t * 8; out holds out_bytes per
 * thread) on the JIT against the step interpreter, and checks that every instruction but the
 * closing ret was translated. */
static void run_special_pairs_translated(const char *what, const char *ptx, size_t out_bytes)
{
    enum { N = sizeof special_f32 / sizeof *special_f32 };
    uint8_t *in = conf_dev_alloc(N * N * 8), *out = conf_dev_alloc(N * N * out_bytes);
    for (unsigned t = 0; t < N * N; t++) {
        memcpy(in + t * 8, &special_f32[t % N], 4);
        memcpy(in + t * 8 + 4, &special_f32[t / N], 4);
    }
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    run_on_jit_translated(what, ptx, (emu_dim3){1, 1, 1}, (emu_dim3){N * N, 1, 1}, params, 2, 1);
    conf_dev_free(in);
    conf_dev_free(out);
}

/* The simple semantics compiled inline (min/max, .sat, cvt.f32.f32, not, predicate logic) on
 * every pair of special_f32's patterns, read as f32, as 32-bit and as 64-bit integers (sign
 * bits set and clear), some under a guard, against the step interpreter. */
START_TEST(simple_semantics_on_special_values)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %a, %b, %r, %k;\n"
        "    .reg .b64 %in, %out, %o, %da, %db, %dr;\n"
        "    .reg .f32 %fa, %fb, %fr;\n"
        "    .reg .pred %p, %q, %pr;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 8;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %a, [%in];\n"
        "    ld.global.u32 %b, [%in+4];\n"
        "    mov.b32 %fa, %a;\n"
        "    mov.b32 %fb, %b;\n"
        "    cvt.u64.u32 %da, %a;\n"
        "    cvt.u64.u32 %db, %b;\n"
        "    shl.b64 %o, %db, 32;\n"
        "    or.b64 %o, %o, %da;\n"
        "    shl.b64 %da, %da, 32;\n"
        "    or.b64 %da, %da, %db;\n"
        "    mov.b64 %db, %o;\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    and.b32 %k, %t, 2;\n"
        "    setp.ne.u32 %q, %k, 0;\n"
        "    mul.wide.u32 %o, %t, 256;\n"
        "    add.u64 %out, %out, %o;\n"
        "    min.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+0], %fr;\n"
        "    max.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+4], %fr;\n"
        "    min.ftz.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+8], %fr;\n"
        "    max.ftz.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+12], %fr;\n"
        "    min.NaN.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+16], %fr;\n"
        "    max.ftz.NaN.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+20], %fr;\n"
        "    add.sat.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+24], %fr;\n"
        "    mul.ftz.sat.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+28], %fr;\n"
        "    fma.rn.sat.f32 %fr, %fa, %fb, %fa;\n    st.global.f32 [%out+32], %fr;\n"
        "    sub.rn.ftz.sat.f32 %fr, %fa, %fb;\n    st.global.f32 [%out+36], %fr;\n"
        "    cvt.sat.f32.f32 %fr, %fa;\n    st.global.f32 [%out+40], %fr;\n"
        "    cvt.ftz.f32.f32 %fr, %fb;\n    st.global.f32 [%out+44], %fr;\n"
        "    cvt.ftz.sat.f32.f32 %fr, %fb;\n    st.global.f32 [%out+48], %fr;\n"
        "    mov.f32 %fr, %fb;\n"
        "    @%p max.f32 %fr, %fa, 0f00000000;\n    st.global.f32 [%out+52], %fr;\n"
        "    min.s32 %r, %a, %b;\n    st.global.u32 [%out+56], %r;\n"
        "    max.s32 %r, %a, %b;\n    st.global.u32 [%out+60], %r;\n"
        "    min.u32 %r, %a, %b;\n    st.global.u32 [%out+64], %r;\n"
        "    max.u32 %r, %a, %b;\n    st.global.u32 [%out+68], %r;\n"
        "    not.b32 %r, %a;\n    st.global.u32 [%out+72], %r;\n"
        "    mov.u32 %r, %b;\n"
        "    @!%q min.s32 %r, %a, -7;\n    st.global.u32 [%out+76], %r;\n"
        "    min.s64 %dr, %da, %db;\n    st.global.u64 [%out+80], %dr;\n"
        "    max.s64 %dr, %da, %db;\n    st.global.u64 [%out+88], %dr;\n"
        "    min.u64 %dr, %da, %db;\n    st.global.u64 [%out+96], %dr;\n"
        "    max.u64 %dr, %da, %db;\n    st.global.u64 [%out+104], %dr;\n"
        "    not.b64 %dr, %da;\n    st.global.u64 [%out+112], %dr;\n"
        "    and.pred %pr, %p, %q;\n    selp.u32 %r, 1, 0, %pr;\n    st.global.u32 [%out+120], %r;\n"
        "    or.pred %pr, %p, %q;\n    selp.u32 %r, 1, 0, %pr;\n    st.global.u32 [%out+124], %r;\n"
        "    xor.pred %pr, %p, %q;\n    selp.u32 %r, 1, 0, %pr;\n    st.global.u32 [%out+128], %r;\n"
        "    not.pred %pr, %q;\n    selp.u32 %r, 1, 0, %pr;\n    st.global.u32 [%out+132], %r;\n"
        "    @%q xor.pred %pr, %p, %pr;\n    selp.u32 %r, 1, 0, %pr;\n    st.global.u32 [%out+136], %r;\n"
        "    ret;\n}\n";
    run_special_pairs_translated("simple semantics", ptx, 256);
}
END_TEST

/* In a loop segment an f32 result's NaN is made canonical (0x7fffffff) only where its bits are
 * read (the straight part runs as a loop of two iterations for that): a store, a
 * bit operation (neg, abs: sem.h's bit operations), a mov into a row an integer operation reads,
 * a selp, a guarded result's merge with the lanes it does not write, and a loop that carries the
 * result round in a register (its first iteration holds the row's loaded bits, a NaN of any
 * payload: each iteration stores what it reads). The inputs are special_f32's pairs (NaNs of several payloads and signs, signalling
 * ones among them), against the step interpreter. */
START_TEST(nan_payloads_through_bit_readers)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %r, %k, %i, %j;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .f32 %fa, %fb, %f1, %f2, %f3, %f4, %f5, %g, %g2, %h;\n"
        "    .reg .pred %p, %q, %pl, %pj;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 8;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.f32 %fa, [%in];\n"
        "    ld.global.f32 %fb, [%in+4];\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    and.b32 %k, %t, 2;\n"
        "    setp.ne.u32 %q, %k, 0;\n"
        "    mul.wide.u32 %o, %t, 128;\n"
        "    add.u64 %out, %out, %o;\n"
        "    mov.u32 %j, 0;\n"
        "$L_twice:\n"
        "    add.f32 %f1, %fa, %fb;\n"
        "    neg.f32 %f2, %f1;\n    st.global.f32 [%out+0], %f2;\n"
        "    abs.f32 %f2, %f1;\n    st.global.f32 [%out+4], %f2;\n"
        "    mov.b32 %r, %f1;\n    st.global.u32 [%out+8], %r;\n"
        "    mov.f32 %f3, %f1;\n    neg.f32 %f2, %f3;\n    st.global.f32 [%out+12], %f2;\n"
        "    mov.f32 %f3, %f1;\n    mov.b32 %r, %f3;\n    xor.b32 %r, %r, 1;\n"
        "    st.global.u32 [%out+16], %r;\n"
        "    selp.f32 %f2, %f1, %fa, %p;\n    st.global.f32 [%out+20], %f2;\n"
        "    mov.f32 %f4, %fa;\n    @%p add.f32 %f4, %fb, %fb;\n    st.global.f32 [%out+24], %f4;\n"
        "    add.f32 %f5, %fa, %fa;\n    @%p mul.f32 %f5, %fb, %fb;\n    neg.f32 %f2, %f5;\n"
        "    st.global.f32 [%out+28], %f2;\n"
        "    @%q mov.f32 %f5, %f1;\n    abs.f32 %f2, %f5;\n    st.global.f32 [%out+32], %f2;\n"
        "    setp.nan.f32 %pl, %f1, %f5;\n    selp.u32 %r, 1, 0, %pl;\n    st.global.u32 [%out+36], %r;\n"
        "    min.f32 %f2, %f1, %fb;\n    neg.f32 %f2, %f2;\n    st.global.f32 [%out+40], %f2;\n"
        "    mul.f32 %f3, %fa, %fb;\n    @%q st.global.f32 [%out+44], %f3;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %pj, %j, 2;\n"
        "    @%pj bra $L_twice;\n"
        "    mov.f32 %g, %fa;\n"
        "    mov.f32 %g2, %fb;\n"
        "    mov.u32 %i, 0;\n"
        "    mov.u64 %o, %out;\n"
        "$L_loop:\n"
        "    neg.f32 %h, %g;\n"
        "    st.global.f32 [%o+48], %h;\n"
        "    mov.b32 %r, %g2;\n"
        "    st.global.u32 [%o+52], %r;\n"
        "    add.u64 %o, %o, 8;\n"
        "    sub.f32 %h, %g, %fb;\n"
        "    mov.f32 %g2, %g;\n"
        "    add.f32 %g, %h, %fa;\n"
        "    add.u32 %i, %i, 1;\n"
        "    setp.lt.u32 %pl, %i, 3;\n"
        "    @%pl bra $L_loop;\n"
        "    neg.f32 %h, %g;\n    st.global.f32 [%out+72], %h;\n"
        "    abs.f32 %h, %g2;\n    st.global.f32 [%out+76], %h;\n"
        "    ret;\n}\n";
    run_special_pairs_translated("NaN payloads", ptx, 128);
}
END_TEST

/* Operands that name a variable (mov %rd, sh: emu_symbol_address, compiled as one call per µop
 * instead of the handler's one per lane) for shared, global and local variables, as 64-bit and
 * 32-bit values and as an add's source, under a guard, against the step interpreter. */
START_TEST(symbol_addresses)
{
    const char *ptx = CONF_PTX_HEADER
        ".global .align 8 .b8 gvar[64];\n"
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %k, %r;\n"
        "    .reg .b64 %out, %o, %d;\n"
        "    .reg .pred %p;\n"
        "    .shared .align 8 .b8 sa[256];\n"
        "    .shared .align 4 .b8 sb[128];\n"
        "    .local .align 8 .b8 lv[16];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    mul.wide.u32 %o, %t, 64;\n"
        "    add.u64 %out, %out, %o;\n"
        "    mov.u64 %d, sa;\n    st.global.u64 [%out+0], %d;\n"
        "    mov.u64 %d, sb;\n    st.global.u64 [%out+8], %d;\n"
        "    mov.u32 %r, sb;\n    st.global.u32 [%out+16], %r;\n"
        "    mov.u64 %d, gvar;\n    st.global.u64 [%out+24], %d;\n"
        "    add.u64 %d, %o, sb;\n    st.global.u64 [%out+32], %d;\n"
        "    mov.u64 %d, 7;\n"
        "    @%p mov.u64 %d, sa;\n    st.global.u64 [%out+40], %d;\n"
        "    mov.u64 %d, lv;\n    st.global.u64 [%out+48], %d;\n"
        "    ret;\n}\n";
    enum { T = 64 };
    uint8_t *in = conf_dev_alloc(8), *out = conf_dev_alloc(T * 64);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    run_on_jit_translated("symbol addresses", ptx, (emu_dim3){2, 1, 1}, (emu_dim3){T, 1, 1},
                          params, 2, 1);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Shared accesses through 32-bit addresses (the compiled shared path's checks, after the
 * address is cut to 32 bits): a warp's consecutive words placed across the end of the block
 * wherever it lies (so one lane is at exactly the end), and offsets that wrap around 2^32 below
 * the variable, loads and stores, against the step interpreter: the same memory and the same
 * fault. (The random programs seldom reach the block's exact end.) */
START_TEST(shared_32bit_addresses)
{
    static const uint32_t offsets[] = {0, 4, 128, 256, 512, 1024, 1280, 2048,
                                       0xfffffffcu, 0xfffffe00u, 0x80000000u};
    enum { T = 64 };
    uint8_t *in = conf_dev_alloc(8), *out = conf_dev_alloc(T * 8);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    for (unsigned c = 0; c < 2 * sizeof offsets / sizeof offsets[0]; c++) {
        uint32_t off = offsets[c / 2];
        bool store = c % 2;
        char access[64], ptx[2048];
        if (store) snprintf(access, sizeof access, "st.shared.u32 [%%a+%u], %%t;", off);
        else snprintf(access, sizeof access, "ld.shared.u32 %%v, [%%a+%u];", off);
        snprintf(ptx, sizeof ptx,
                 CONF_PTX_HEADER
                 ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                 "    .reg .b32 %%t, %%a, %%v;\n"
                 "    .reg .b64 %%out, %%o;\n"
                 "    .shared .align 8 .b8 sw[256];\n"
                 "    ld.param.u64 %%out, [pout];\n"
                 "    mov.u32 %%t, %%tid.x;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    mad.lo.u32 %%a, %%t, 4, %%a;\n"
                 "    add.u32 %%v, %%t, 100;\n"
                 "    st.shared.u32 [%%a], %%v;\n"
                 "    bar.sync 0;\n"
                 "    %s\n"
                 "    mul.wide.u32 %%o, %%t, 4;\n"
                 "    add.u64 %%out, %%out, %%o;\n"
                 "    st.global.u32 [%%out], %%v;\n"
                 "    ret;\n}\n",
                 access);
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("shared 32-bit addresses", ptx, (emu_dim3){1, 1, 1},
                                    (emu_dim3){T, 1, 1}, 0, params, 2, &r);
        unsetenv("CONF_EXECUTOR");
        ck_assert_msg(st == CONF_OK || st == CONF_FAULTED, "offset %#x (%s): %.1500s", off,
                      store ? "store" : "load", r.message);
    }
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* The shapes of a warp's shared addresses that the compiled code reads or writes without a
 * gather or scatter (per half-warp: one address, or consecutive elements), and their near
 * misses, each lane's offset from a table: the halves of a 16-wide tile (one row each, or one
 * row for both), a whole warp at one address or consecutive, one lane off by one element,
 * half 1 reversed, halves that overlap (stores: lane order decides), partial and empty halves
 * whose inactive lanes hold addresses far outside the block, a last lane exactly at the end of
 * the block or one element past it, a misaligned lane; loads and stores of 4 and 8 bytes,
 * through 32- and 64-bit address registers, against the step interpreter: the same memory, the
 * same loaded values, the same fault. */
enum { HS_T = 64, HS_SHAPES = 18, HS_BYTES = 1024 };

static uint32_t half_shape_offset(unsigned shape, unsigned t, unsigned es, bool *active)
{
    unsigned l = t % 32, h = l / 16, i = l % 16;
    *active = true;
    switch (shape) {
    case 0: return h * 16 * es;                                   /* each half one row */
    case 1: return i * es;                                        /* both halves one row */
    case 2: return (i + h * 32) * es;                             /* each half its own row */
    case 3: return 5 * es;                                        /* the warp at one address */
    case 4: return l * es;                                        /* the warp consecutive */
    case 5: return (i + h * 16) * es + (l == 7 ? es : 0);         /* one lane one element on */
    case 6: return h * 16 * es + (l == 20 ? es : 0);              /* a half all but one lane */
    case 7: return (h ? 15 - i + 32 : i) * es;                    /* half 1 reversed */
    case 8: return (i + (t / 32) * 48) * es;                      /* halves overlap, per warp */
    case 9:                                                       /* half 0 empty */
        *active = h == 1;
        return *active ? (i + 40) * es : 0x7ffff000u;
    case 10:                                                      /* half 1 empty */
        *active = h == 0;
        return *active ? 3 * es : 0x7ffff000u;
    case 11:                                                      /* every third lane */
        *active = l % 3 == 1;
        return *active ? (i + h * 64) * es : 0x40000000u + l;
    case 12:                                                      /* one lane */
        *active = l == 19;
        return *active ? 9 * es : 0x7ffff000u;
    case 13: return HS_BYTES - 32 * es + l * es;                  /* the last lane at the end */
    case 14: return HS_BYTES - 32 * es + (l + 1) * es;            /* the last one past it */
    case 15: return HS_BYTES - 16 * es + i * es;                  /* both halves at the end */
    case 16: return (i + h * 16) * es + (l == 30 ? 2 : 0);        /* a misaligned lane */
    default:                                                      /* no active lane */
        *active = false;
        return 0x7ffff000u;
    }
}

START_TEST(shared_half_warp_shapes)
{
    uint32_t table[2 * HS_T];
    uint8_t *in = conf_dev_alloc(sizeof table), *out = conf_dev_alloc(HS_BYTES + HS_T * 12);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    for (unsigned c = 0; c < HS_SHAPES * 8; c++) {
        /* the address in a 32-bit register (offsets compared in 32 bits) or a 64-bit one */
        unsigned shape = c / 8, es = c % 2 ? 8 : 4;
        bool store = (c / 2) % 2, wide = (c / 4) % 2;
        for (unsigned t = 0; t < HS_T; t++) {
            bool on;
            table[t] = half_shape_offset(shape, t, es, &on);
            table[HS_T + t] = on;
        }
        memcpy(in, table, sizeof table);
        const char *ty = es == 8 ? "u64" : "u32", *rg = es == 8 ? "%d" : "%v";
        const char *ar = wide ? "%ad" : "%a";
        char access[96], ptx[4096];
        if (store) snprintf(access, sizeof access, "@%%p st.shared.%s [%s], %s;", ty, ar, rg);
        else snprintf(access, sizeof access, "@%%p ld.shared.%s %s, [%s];", ty, rg, ar);
        /* shared memory starts as words t * 16 + k (so each element read is distinct), then
         * the access; the block and each thread's value go to out */
        snprintf(ptx, sizeof ptx,
                 CONF_PTX_HEADER
                 ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                 "    .reg .b32 %%t, %%a, %%v, %%w, %%x;\n"
                 "    .reg .b64 %%in, %%out, %%o, %%d, %%ad, %%ao;\n"
                 "    .reg .pred %%p;\n"
                 "    .shared .align 16 .b8 sw[%u];\n"
                 "    ld.param.u64 %%in, [pin];\n"
                 "    ld.param.u64 %%out, [pout];\n"
                 "    mov.u32 %%t, %%tid.x;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    shl.b32 %%x, %%t, 4;\n"
                 "    add.u32 %%a, %%a, %%x;\n"
                 "    add.u32 %%v, %%x, 1000;\n"
                 "    st.shared.v4.u32 [%%a], {%%v, %%v, %%v, %%v};\n"
                 "    st.shared.u32 [%%a+4], %%x;\n"
                 "    bar.sync 0;\n"
                 "    mul.wide.u32 %%o, %%t, 4;\n"
                 "    add.u64 %%in, %%in, %%o;\n"
                 "    ld.global.u32 %%x, [%%in];\n"
                 "    ld.global.u32 %%w, [%%in+%u];\n"
                 "    setp.ne.u32 %%p, %%w, 0;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    add.u32 %%a, %%a, %%x;\n"
                 "    mov.u64 %%ad, sw;\n"
                 "    cvt.u64.u32 %%ao, %%x;\n"
                 "    add.u64 %%ad, %%ad, %%ao;\n"
                 "    add.u32 %%v, %%t, 5000;\n"
                 "    mul.wide.u32 %%d, %%t, 77777777;\n"
                 "    %s\n"
                 "    bar.sync 0;\n"
                 "    shl.b32 %%x, %%t, 4;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    add.u32 %%a, %%a, %%x;\n"
                 "    ld.shared.v4.u32 {%%w, %%x, %%t, %%a}, [%%a];\n"
                 "    mul.lo.u64 %%in, %%o, 4;\n"
                 "    add.u64 %%in, %%out, %%in;\n"
                 "    st.global.v4.u32 [%%in], {%%w, %%x, %%t, %%a};\n"
                 "    add.u64 %%in, %%out, %%o;\n"
                 "    st.global.u32 [%%in+%u], %%v;\n"
                 "    add.u64 %%in, %%in, %%o;\n"
                 "    st.global.u64 [%%in+%u], %%d;\n"
                 "    ret;\n}\n",
                 HS_BYTES, HS_T * 4, access, HS_BYTES, HS_BYTES + HS_T * 4);
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("shared half-warp shapes", ptx, (emu_dim3){1, 1, 1},
                                    (emu_dim3){HS_T, 1, 1}, 0, params, 2, &r);
        unsetenv("CONF_EXECUTOR");
        ck_assert_msg(st == CONF_OK || st == CONF_FAULTED, "shape %u (%s.%s, %s): %.1500s", shape,
                      store ? "st" : "ld", ty, ar, r.message);
        /* only the misaligned lane and the lane past the end fault */
        ck_assert_msg((st == CONF_FAULTED) == (shape == 14 || shape == 16), "shape %u (%s.%s, %s): %s",
                      shape, store ? "st" : "ld", ty, ar, conf_status_name(st));
    }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Shared loads through one base row in one segment (the compiled code keeps the shape the
 * first found, shared_shape, and reads lanes 0 and 16 for the loads after it): each shape of
 * shared_half_warp_shapes and two more (the warp at the block's last element, half 1's row at
 * the block's end), the loads after the first at imm + one element and + 64 bytes (past the
 * end for the shapes at the end: the first load's check ahead fails, the run ends before the
 * second and the interpreter's loop reports the fault), or at half an element (misaligned:
 * the shape is not kept, each load checks its own lanes), then the base row moved by a
 * different amount per lane (a new shape: the kept one must be dropped) and two more loads;
 * lanes made inactive by a branch (partial warps: the known shape is not taken, the run ends
 * before the second load), 4- and 8-byte elements; against the step interpreter
 * (the same values, the same fault). Shapes of neither kind (gathered, whole or partial warps)
 * keep their lanes for the loads after the first where it checked their offsets
 * (gather_checked): two more, lanes two elements apart, in the block and at its end (the
 * second load past it: a gather without that check reads past the block instead of faulting).
 * The IR of one case must hold the known path. */
static uint32_t kept_shape_offset(unsigned shape, unsigned t, unsigned es, bool *active)
{
    unsigned l = t % 32, h = l / 16, i = l % 16;
    *active = true;
    if (shape == HS_SHAPES) return HS_BYTES - es;                            /* uniform at the end */
    if (shape == HS_SHAPES + 1) return h ? HS_BYTES - 16 * es + i * es : i * es; /* half 1 at the end */
    if (shape == HS_SHAPES + 2) return 2 * l * es;            /* two elements apart (a scan's step) */
    if (shape == HS_SHAPES + 3) return HS_BYTES - es - 2 * (31 - l) * es;     /* so, at the end */
    return half_shape_offset(shape, t, es, active);
}

START_TEST(shared_shapes_kept_in_a_segment)
{
    uint32_t table[2 * HS_T];
    uint8_t *in = conf_dev_alloc(sizeof table), *out = conf_dev_alloc(HS_T * 8 * 5);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    char dir[] = "/tmp/ptxsim-test-jit-shapes-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    unsigned faulted = 0;
    for (unsigned c = 0; c < (HS_SHAPES + 4) * 4; c++) {
        unsigned shape = c / 4, es = c % 2 ? 8 : 4;
        bool misaligned = (c / 2) % 2;
        for (unsigned t = 0; t < HS_T; t++) {
            bool on;
            table[t] = kept_shape_offset(shape, t, es, &on);
            table[HS_T + t] = on;
        }
        memcpy(in, table, sizeof table);
        const char *ty = es == 8 ? "u64" : "u32", *rg = es == 8 ? "%d" : "%v";
        char ptx[4096];
        snprintf(ptx, sizeof ptx,
                 CONF_PTX_HEADER
                 ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                 "    .reg .b32 %%t, %%a, %%x, %%w, %%y, %%v<5>;\n"
                 "    .reg .b64 %%in, %%out, %%o, %%d<5>;\n"
                 "    .reg .pred %%p;\n"
                 "    .shared .align 16 .b8 sw[%u];\n"
                 "    ld.param.u64 %%in, [pin];\n"
                 "    ld.param.u64 %%out, [pout];\n"
                 "    mov.u32 %%t, %%tid.x;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    shl.b32 %%x, %%t, 4;\n"
                 "    add.u32 %%a, %%a, %%x;\n"
                 "    add.u32 %%v0, %%x, 1000;\n"
                 "    add.u32 %%v1, %%x, 3000;\n"
                 "    st.shared.v4.u32 [%%a], {%%v0, %%x, %%t, %%v1};\n"
                 "    bar.sync 0;\n"
                 "    mul.wide.u32 %%o, %%t, 4;\n"
                 "    add.u64 %%in, %%in, %%o;\n"
                 "    ld.global.u32 %%x, [%%in];\n"
                 "    ld.global.u32 %%w, [%%in+%u];\n"
                 "    setp.eq.u32 %%p, %%w, 0;\n"
                 "    mov.u32 %%a, sw;\n"
                 "    add.u32 %%a, %%a, %%x;\n"
                 "    mul.lo.u32 %%y, %%t, 24;\n"
                 "    and.b32 %%y, %%y, 56;\n"
                 "    mov.u32 %%v0, 0;\n    mov.u32 %%v1, 0;\n    mov.u32 %%v2, 0;\n"
                 "    mov.u32 %%v3, 0;\n    mov.u32 %%v4, 0;\n"
                 "    mov.u64 %%d0, 0;\n    mov.u64 %%d1, 0;\n    mov.u64 %%d2, 0;\n"
                 "    mov.u64 %%d3, 0;\n    mov.u64 %%d4, 0;\n"
                 "    @%%p bra SKIP;\n"
                 "    ld.shared.%s %s0, [%%a];\n"
                 "    ld.shared.%s %s1, [%%a+%u];\n"
                 "    ld.shared.%s %s2, [%%a+%u];\n"
                 "    add.u32 %%a, %%a, %%y;\n"
                 "    ld.shared.%s %s3, [%%a];\n"
                 "    ld.shared.%s %s4, [%%a+%u];\n"
                 "SKIP:\n"
                 "    mul.lo.u64 %%o, %%o, 10;\n"
                 "    add.u64 %%out, %%out, %%o;\n"
                 "    st.global.u32 [%%out], %%v0;\n"
                 "    st.global.u32 [%%out+4], %%v1;\n"
                 "    st.global.u32 [%%out+8], %%v2;\n"
                 "    st.global.u32 [%%out+12], %%v3;\n"
                 "    st.global.u32 [%%out+16], %%v4;\n"
                 "    xor.b64 %%d0, %%d0, %%d1;\n    xor.b64 %%d0, %%d0, %%d2;\n"
                 "    xor.b64 %%d0, %%d0, %%d3;\n    xor.b64 %%d0, %%d0, %%d4;\n"
                 "    st.global.u64 [%%out+24], %%d0;\n"
                 "    ret;\n}\n",
                 HS_BYTES, HS_T * 4, ty, rg, ty, rg, es, ty, rg, misaligned ? es / 2 : 64, ty, rg, ty, rg,
                 es);
        if (c == 0) setenv("PTXSIM_JIT_DUMP", dir, 1);
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("shared shapes kept", ptx, (emu_dim3){1, 1, 1},
                                    (emu_dim3){HS_T, 1, 1}, 0, params, 2, &r);
        unsetenv("CONF_EXECUTOR");
        unsetenv("PTXSIM_JIT_DUMP");
        ck_assert_msg(st == CONF_OK || st == CONF_FAULTED, "shape %u (%s%s): %.1500s", shape, ty,
                      misaligned ? ", misaligned" : "", r.message);
        faulted += st == CONF_FAULTED;
        /* the shapes at the block's end read past it at +64 (the last one at + one element) */
        if (!misaligned && (shape == 13 || shape == 15 || (shape >= HS_SHAPES && shape != HS_SHAPES + 2)))
            ck_assert_msg(st == CONF_FAULTED, "shape %u (%s): no fault past the end", shape, ty);
        if (!misaligned && shape == HS_SHAPES + 2)
            ck_assert_msg(st == CONF_OK, "shape %u (%s): %s", shape, ty, conf_status_name(st));
    }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    ck_assert_msg(faulted < (HS_SHAPES + 4) * 4, "every case faulted");
    /* the known path is there: the dumped IR's blocks */
    unsigned known = dumped_ir_lines(dir, "mem.known.consecutive");
    ck_assert_msg(known >= 3, "%u loads with a known shape in the IR", known);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Shared accesses whose lanes the function's arithmetic puts a constant step apart other than
 * 0 and the element size (emu_jit_lane_strides: 8 * off bytes from (2 %tid.x | 1) << k, a
 * scan's up-sweep) go to their gather or scatter without looking for a uniform or consecutive
 * half: the steps' loads and stores under `t < d` (partial warps from d = 16 on), two loads
 * through one base row, and a last load at 8 t + P bytes, P a parameter: 0, past the block's
 * end for the upper lanes (a fault), 2 (misaligned: a fault). Blocks of 128 threads, and of
 * (1, 64) and (4, 16), where %tid.x does not step from lane to lane as predicted (every lane
 * of the first at one address): results as the step interpreter's. The consecutive accesses
 * keep their shape search (mem.consecutive); none of the strided ones has one. */
START_TEST(strided_shared_accesses)
{
    enum { T = 128, K = 6, BYTES = 2 * T * 4 };
    uint8_t *out = conf_dev_alloc(T * 3 * 4 * 2);
    char dir[] = "/tmp/ptxsim-test-jit-strided-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    char ptx[8192];
    int n = snprintf(ptx, sizeof ptx,
                     CONF_PTX_HEADER
                     ".visible .entry k(.param .u64 pout, .param .u64 pp)\n{\n"
                     "    .reg .b32 %%t, %%s, %%a, %%b, %%x, %%y, %%e, %%q, %%i, %%k<%u>;\n"
                     "    .reg .b64 %%out, %%o, %%pq;\n"
                     "    .reg .pred %%p;\n"
                     "    .shared .align 8 .b8 sw[%u];\n"
                     "    ld.param.u64 %%out, [pout];\n"
                     "    ld.param.u64 %%pq, [pp];\n"
                     "    cvt.u32.u64 %%q, %%pq;\n"
                     "    mov.u32 %%t, %%tid.x;\n"
                     "    mov.u32 %%i, %%tid.y;\n"
                     "    mad.lo.u32 %%i, %%i, %%t, %%t;\n"
                     "    mov.u32 %%s, sw;\n"
                     "    shl.b32 %%a, %%t, 2;\n"
                     "    add.u32 %%a, %%s, %%a;\n"
                     "    mul.lo.u32 %%x, %%i, 7;\n"
                     "    add.u32 %%x, %%x, 1;\n"
                     "    st.shared.u32 [%%a], %%x;\n"
                     "    st.shared.u32 [%%a+%u], %%i;\n"
                     "    bar.sync 0;\n"
                     "    shl.b32 %%b, %%t, 1;\n"
                     "    or.b32 %%b, %%b, 1;\n",
                     K, BYTES, T * 4);
    for (unsigned k = 0; k < K; k++) {
        unsigned off = 1u << k, d = T >> (k + 1);
        n += snprintf(ptx + n, sizeof ptx - (size_t)n,
                      "    shl.b32 %%k%u, %%b, %u;\n"
                      "    add.u32 %%k%u, %%k%u, %%s;\n"
                      "    setp.ge.u32 %%p, %%t, %u;\n"
                      "    @%%p bra S%u;\n"
                      "    ld.shared.u32 %%x, [%%k%u+-4];\n"
                      "    ld.shared.u32 %%y, [%%k%u+%u];\n"
                      "    add.u32 %%y, %%y, %%x;\n"
                      "    st.shared.u32 [%%k%u+%u], %%y;\n"
                      "S%u:\n"
                      "    bar.sync 0;\n",
                      k, k + 2, k, k, d, k, k, k, 4 * off - 4, k, 4 * off - 4, k);
    }
    n += snprintf(ptx + n, sizeof ptx - (size_t)n,
                  "    shl.b32 %%e, %%t, 3;\n"
                  "    add.u32 %%e, %%e, %%s;\n"
                  "    add.u32 %%e, %%e, %%q;\n"
                  "    mov.u32 %%y, 0;\n"
                  "    setp.ge.u32 %%p, %%t, %u;\n"
                  "    @%%p bra LAST;\n"
                  "    ld.shared.u32 %%y, [%%e];\n"
                  "LAST:\n"
                  "    ld.shared.u32 %%x, [%%a];\n"
                  "    mul.wide.u32 %%o, %%i, 12;\n"
                  "    add.u64 %%out, %%out, %%o;\n"
                  "    st.global.u32 [%%out], %%x;\n"
                  "    ld.shared.u32 %%x, [%%a+%u];\n"
                  "    st.global.u32 [%%out+4], %%x;\n"
                  "    st.global.u32 [%%out+8], %%y;\n"
                  "    ret;\n}\n",
                  T / 2 + 3, T * 4);
    ck_assert_int_lt(n, (int)sizeof ptx);
    const emu_dim3 blocks[3] = {{T, 1, 1}, {1, 64, 1}, {4, 16, 1}};
    const uint64_t last[3] = {0, BYTES - 8 * (T / 2), 2};
    unsigned faulted = 0;
    for (unsigned c = 0; c < 9; c++) {
        uint64_t params[2] = {conf_dev_addr(out), last[c % 3]};
        if (c == 0) setenv("PTXSIM_JIT_DUMP", dir, 1);
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("strided shared accesses", ptx, (emu_dim3){2, 1, 1}, blocks[c / 3], 0,
                                    params, 2, &r);
        unsetenv("CONF_EXECUTOR");
        unsetenv("PTXSIM_JIT_DUMP");
        ck_assert_msg(st == CONF_OK || st == CONF_FAULTED, "block %u, P %" PRIu64 ": %.1500s", c / 3,
                      last[c % 3], r.message);
        /* a block of 128 reads past the end and misaligned; the others' lanes stay below 8 * 4 */
        if (c / 3 == 0 || c % 3 == 2)
            ck_assert_msg((st == CONF_FAULTED) == (c % 3 != 0), "block %u, P %" PRIu64 ": %s", c / 3,
                          last[c % 3], conf_status_name(st));
        faulted += st == CONF_FAULTED;
    }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    ck_assert_msg(faulted < 9, "every case faulted");
    unsigned searched = dumped_ir_lines(dir, "mem.consecutive");
    /* the first store and load through %a and the three global stores (the second load through
     * %a takes the first's shape) */
    ck_assert_msg(searched <= 6, "%u accesses searched for a shape (6 consecutive ones, %u strided)", searched,
                  3 * K + 1);
    conf_dev_free(out);
}
END_TEST

/* %tid.x/y/z compiled from a full warp's first and last lanes when its threads are consecutive
 * in x or share y and z, else gathered: block shapes where a warp wraps rows once, many
 * times, across z with y back where it started ((1,31,2): lanes 0 and 31 both at y 0), and
 * partial warps, each thread writing its three coordinates, against the step interpreter. */
START_TEST(thread_ids_by_warp_shape)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "    .reg .b32 %x, %y, %z, %nx, %ny, %i;\n"
        "    .reg .b64 %out, %o;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %x, %tid.x;\n"
        "    mov.u32 %y, %tid.y;\n"
        "    mov.u32 %z, %tid.z;\n"
        "    mov.u32 %nx, %ntid.x;\n"
        "    mov.u32 %ny, %ntid.y;\n"
        "    mad.lo.u32 %i, %z, %ny, %y;\n"
        "    mad.lo.u32 %i, %i, %nx, %x;\n"
        "    mul.wide.u32 %o, %i, 12;\n"
        "    add.u64 %out, %out, %o;\n"
        "    st.global.u32 [%out], %x;\n"
        "    st.global.u32 [%out+4], %y;\n"
        "    st.global.u32 [%out+8], %z;\n"
        "    ret;\n}\n";
    static const emu_dim3 shapes[] = {{32, 8, 1}, {256, 1, 1}, {1, 31, 2}, {10, 2, 1}, {33, 2, 1},
                                      {16, 2, 2}, {2, 4, 8}, {48, 3, 1}, {1, 1, 64}, {7, 5, 3}};
    uint32_t *out = conf_dev_alloc(1024 * 12);
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        emu_dim3 blk = shapes[k];
        uint32_t n = blk.x * blk.y * blk.z;
        memset(out, 0xff, 1024 * 12);
        uint64_t params[1] = {conf_dev_addr(out)};
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("thread ids", ptx, (emu_dim3){2, 1, 1}, blk, 0, params, 1, &r);
        unsetenv("CONF_EXECUTOR");
        ck_assert_msg(st == CONF_OK, "block (%u,%u,%u): %.1500s", blk.x, blk.y, blk.z, r.message);
        for (uint32_t i = 0; i < n; i++)
            ck_assert_msg(out[3 * i] == i % blk.x && out[3 * i + 1] == i / blk.x % blk.y &&
                              out[3 * i + 2] == i / (blk.x * blk.y),
                          "block (%u,%u,%u), thread %u: (%u,%u,%u)", blk.x, blk.y, blk.z, i,
                          out[3 * i], out[3 * i + 1], out[3 * i + 2]);
    }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    conf_dev_free(out);
}
END_TEST

/* Compiled global accesses keep an allocation per access site (emu_warp.jit_hit, one entry per
 * site modulo EMU_JIT_HITS, kept when a warp slot takes the next CTA): five sites over four
 * arrays, so that the fifth shares the first's entry, and one site that changes array with the
 * CTA's parity, over enough CTAs that slots are reused; then the last array made shorter than
 * the grid, so that the last CTAs' accesses leave the allocation their site holds and fault as
 * the step interpreter's do. */
enum { SITE_CTAS = 4096, SITE_T = 32, SITE_N = SITE_CTAS * SITE_T };

START_TEST(global_sites_keep_their_allocation)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
        "    .reg .b32 %t, %n, %c, %i, %x, %y, %z;\n"
        "    .reg .b64 %a, %b, %cc, %d, %o, %p;\n"
        "    .reg .pred %odd;\n"
        "    ld.param.u64 %a, [pa];\n"
        "    ld.param.u64 %b, [pb];\n"
        "    ld.param.u64 %cc, [pc];\n"
        "    ld.param.u64 %d, [pd];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %c, %ctaid.x;\n"
        "    mov.u32 %n, %ntid.x;\n"
        "    mad.lo.u32 %i, %c, %n, %t;\n"
        "    mul.wide.u32 %o, %i, 4;\n"
        "    add.u64 %p, %a, %o;\n"
        "    ld.global.u32 %x, [%p];\n"
        "    add.u64 %p, %b, %o;\n"
        "    ld.global.u32 %y, [%p];\n"
        "    and.b32 %z, %c, 1;\n"
        "    setp.ne.u32 %odd, %z, 0;\n"
        "    selp.b64 %p, %a, %b, %odd;\n"
        "    add.u64 %p, %p, %o;\n"
        "    ld.global.u32 %z, [%p];\n"
        "    add.u32 %x, %x, %y;\n"
        "    add.u32 %x, %x, %z;\n"
        "    add.u64 %p, %cc, %o;\n"
        "    st.global.u32 [%p], %x;\n"
        "    add.u64 %p, %d, %o;\n"
        "    st.global.u32 [%p], %y;\n"
        "    ret;\n}\n";
    uint32_t *a = conf_dev_alloc(SITE_N * 4), *b = conf_dev_alloc(SITE_N * 4);
    uint32_t *c = conf_dev_alloc(SITE_N * 4), *d = conf_dev_alloc(SITE_N * 4);
    for (uint32_t i = 0; i < SITE_N; i++) {
        a[i] = i * 3 + 1;
        b[i] = i ^ 0x5555u;
    }
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    for (int shorter = 0; shorter < 2; shorter++) {
        if (shorter) {   /* the same place, most likely, and a new generation */
            conf_dev_free(d);
            d = conf_dev_alloc((SITE_N - 40) * 4);
        }
        uint64_t params[4] = {conf_dev_addr(a), conf_dev_addr(b), conf_dev_addr(c), conf_dev_addr(d)};
        setenv("CONF_EXECUTOR", "jit", 1);
        conf_result r;
        conf_status st = conf_run_k("global sites", ptx, (emu_dim3){SITE_CTAS, 1, 1},
                                    (emu_dim3){SITE_T, 1, 1}, 0, params, 4, &r);
        unsetenv("CONF_EXECUTOR");
        if (!shorter) {
            ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
            for (uint32_t i = 0; i < SITE_N; i++) {
                uint32_t odd = (i / SITE_T) % 2, z = odd ? a[i] : b[i];
                ck_assert_msg(c[i] == a[i] + b[i] + z && d[i] == b[i], "element %u: %u %u", i,
                              c[i], d[i]);
            }
        } else {
            ck_assert_msg(st == CONF_FAULTED, "%s: %.1500s", conf_status_name(st), r.message);
        }
    }
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    conf_dev_free(a);
    conf_dev_free(b);
    conf_dev_free(c);
    conf_dev_free(d);
}
END_TEST

/* A warp's global load whose halves each read 16 consecutive elements is judged from lanes 0
 * and 16 (emit_global_quick): each half at the allocation's start, apart, ending at its end, one
 * element past it, one before it, misaligned, far past it; and the cases the quick path must
 * leave to the per-lane checks (a lane off the sequence, descending, uniform halves, inactive
 * lanes, the last lane one on), 4- and 8-byte elements, against the step interpreter (the same
 * values, the same fault); then the same warp slot's allocation entry made stale (the buffer
 * freed and a shorter one allocated in its place): a read past the new end must fault. The IR
 * of one case must hold the quick path. */
/* not a multiple of the allocations' 256-byte alignment: the bytes past the end are no one's */
#define GQ_BYTES 448
#define GQ_SHAPES 12
static int32_t quick_offset(unsigned shape, unsigned l, unsigned es, bool *on)
{
    unsigned h = l / 16, i = l % 16;
    int32_t e = (int32_t)es, end = GQ_BYTES;
    *on = true;
    switch (shape) {
    case 0: return (int32_t)l * e;                                 /* the whole warp */
    case 1: return (h ? 40 : 0) * e + (int32_t)i * e;               /* halves apart */
    case 2: return h ? end - 16 * e + (int32_t)i * e : (int32_t)i * e; /* half 1 ends at the end */
    case 3: return h ? end - 15 * e + (int32_t)i * e : (int32_t)i * e; /* one element past it */
    case 4: return h ? (int32_t)i * e : -e + (int32_t)i * e;        /* half 0 one before it */
    case 5: return 2 + (int32_t)l * e;                              /* misaligned */
    case 6: return h ? end + 4096 + (int32_t)i * e : (int32_t)i * e; /* half 1 far past it */
    case 7: return l == 7 ? 50 * e : (int32_t)l * e;                /* a lane off the sequence */
    case 8: return (int32_t)(h * 16 + 15 - i) * e;                  /* descending */
    case 9: return (int32_t)h * 8 * e;                              /* uniform halves */
    case 10: *on = l != 5 && l != 20; return (int32_t)l * e;        /* inactive lanes */
    default: return i == 15 ? (int32_t)(h * 16 + 16) * e : (int32_t)l * e; /* last lane one on */
    }
}

static conf_status run_quick_load(uint8_t *src, uint32_t *table, const char *ty, const char *rg,
                                  uint8_t *out, conf_result *r)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx,
             CONF_PTX_HEADER
             ".visible .entry k(.param .u64 psrc, .param .u64 ptab, .param .u64 pout)\n{\n"
             "    .reg .b32 %%t, %%x, %%w, %%v;\n"
             "    .reg .b64 %%src, %%tab, %%out, %%o, %%a, %%d;\n"
             "    .reg .pred %%p;\n"
             "    ld.param.u64 %%src, [psrc];\n"
             "    ld.param.u64 %%tab, [ptab];\n"
             "    ld.param.u64 %%out, [pout];\n"
             "    mov.u32 %%t, %%tid.x;\n"
             "    mul.wide.u32 %%o, %%t, 4;\n"
             "    add.u64 %%tab, %%tab, %%o;\n"
             "    ld.global.u32 %%x, [%%tab];\n"
             "    ld.global.u32 %%w, [%%tab+128];\n"
             "    setp.ne.u32 %%p, %%w, 0;\n"
             "    cvt.s64.s32 %%a, %%x;\n"
             "    add.u64 %%a, %%src, %%a;\n"
             "    mov.u32 %%v, 7;\n"
             "    mov.u64 %%d, 9;\n"
             "    @%%p ld.global.%s %s, [%%a];\n"
             "    add.u64 %%out, %%out, %%o;\n"
             "    st.global.u32 [%%out], %%v;\n"
             "    add.u64 %%out, %%out, %%o;\n"
             "    st.global.u64 [%%out+128], %%d;\n"
             "    ret;\n}\n",
             ty, rg);
    uint64_t params[3] = {(uint64_t)(uintptr_t)src, (uint64_t)(uintptr_t)table, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    conf_status st = conf_run_k("quick global loads", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0,
                                params, 3, r);
    unsetenv("CONF_EXECUTOR");
    return st;
}

START_TEST(global_consecutive_halves)
{
    uint8_t *src = conf_dev_alloc(GQ_BYTES), *out = conf_dev_alloc(32 * 8 + 128 + 256);
    uint32_t *table = conf_dev_alloc(64 * 4);
    for (unsigned k = 0; k < GQ_BYTES; k++) src[k] = (uint8_t)(k * 7 + 3);
    char dir[] = "/tmp/ptxsim-test-jit-quick-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    for (unsigned c = 0; c < GQ_SHAPES * 2; c++) {
        unsigned shape = c / 2, es = c % 2 ? 8 : 4;
        for (unsigned l = 0; l < 32; l++) {
            bool on;
            table[l] = (uint32_t)quick_offset(shape, l, es, &on);
            table[32 + l] = on;
        }
        if (c == 0) setenv("PTXSIM_JIT_DUMP", dir, 1);
        conf_result r;
        conf_status st = run_quick_load(src, table, es == 8 ? "u64" : "u32", es == 8 ? "%d" : "%v", out, &r);
        unsetenv("PTXSIM_JIT_DUMP");
        ck_assert_msg(st == CONF_OK || st == CONF_FAULTED, "shape %u (%u bytes): %.1500s", shape, es,
                      r.message);
        /* before the start and far past the end may be another allocation's */
        if (shape != 4 && shape != 6)
            ck_assert_msg((st == CONF_FAULTED) == (shape == 3 || shape == 5), "shape %u (%u bytes): %s",
                          shape, es, conf_status_name(st));
    }
    /* the allocation entry of the warp's slot made stale: the same place, most likely, shorter */
    conf_dev_free(src);
    src = conf_dev_alloc(GQ_BYTES / 2);
    ck_assert_msg(GQ_BYTES / 2 % 256, "the shorter buffer's end is no one's");
    for (unsigned l = 0; l < 32; l++) {
        table[l] = (uint32_t)(GQ_BYTES / 2 - 16 * 4 + (l % 16) * 4 + (l / 16) * 64);
        table[32 + l] = 1;
    }
    conf_result r;
    conf_status st = run_quick_load(src, table, "u32", "%v", out, &r);
    ck_assert_msg(st == CONF_FAULTED, "past a shorter buffer's end: %s: %.1500s", conf_status_name(st),
                  r.message);
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "a kernel was left to the interpreter");
    unsigned quick = dumped_ir_lines(dir, "mem.quick.load");
    ck_assert_msg(quick >= 1, "%u quick loads in the IR", quick);
    conf_dev_free(src);
    conf_dev_free(table);
    conf_dev_free(out);
}
END_TEST

/* div.u32 and rem.u32 by a divisor the same in all 32 lanes and a power of two go by a shift and
 * a mask (int_div_rem's div.pow2 block), anything else by doubles: a parameter's divisor (one
 * for the grid), one per warp (the parameter shifted by the warp's index: uniform, a power of
 * two in some warps only), one per lane, one times three, and a guarded division (the inactive
 * lanes divide too), for divisors 0, 1, 2, 64, 2^31, 2^32 - 1, 3 and 12 and dividends at the
 * ends of the range, against the step interpreter. Catches a quotient shifted one too far or
 * a remainder masked one bit short (cttz + 1, y0 - 2) and a uniformity test that looks at lane
 * 0 only. */
START_TEST(uniform_power_of_two_divisors)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 pd)\n{\n"
        "    .reg .b32 %t, %x, %d, %w, %e, %q, %r;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    ld.param.u32 %d, [pd];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %x, [%in];\n"
        "    mul.wide.u32 %o, %t, 40;\n"
        "    add.u64 %out, %out, %o;\n"
        "    div.u32 %q, %x, %d;\n    st.global.u32 [%out+0], %q;\n"
        "    rem.u32 %r, %x, %d;\n    st.global.u32 [%out+4], %r;\n"
        "    shr.u32 %w, %t, 5;\n"
        "    shl.b32 %e, %d, %w;\n"
        "    div.u32 %q, %x, %e;\n    st.global.u32 [%out+8], %q;\n"
        "    rem.u32 %r, %x, %e;\n    st.global.u32 [%out+12], %r;\n"
        "    and.b32 %w, %t, 1;\n"
        "    add.u32 %e, %d, %w;\n"
        "    div.u32 %q, %x, %e;\n    st.global.u32 [%out+16], %q;\n"
        "    rem.u32 %r, %x, %e;\n    st.global.u32 [%out+20], %r;\n"
        "    mul.lo.u32 %e, %d, 3;\n"
        "    div.u32 %q, %x, %e;\n    st.global.u32 [%out+24], %q;\n"
        "    rem.u32 %r, %x, %e;\n    st.global.u32 [%out+28], %r;\n"
        "    and.b32 %w, %t, 3;\n"
        "    setp.ne.u32 %p, %w, 0;\n"
        "    mov.u32 %q, 77;\n"
        "    mov.u32 %r, 78;\n"
        "    @%p div.u32 %q, %x, %d;\n    st.global.u32 [%out+32], %q;\n"
        "    @%p rem.u32 %r, %x, %d;\n    st.global.u32 [%out+36], %r;\n"
        "    ret;\n}\n";
    static const uint32_t divisors[] = {0, 1, 2, 64, UINT32_C(1) << 31, UINT32_MAX, 3, 12};
    enum { T = 128 };
    uint32_t *in = conf_dev_alloc(T * 4), *out = conf_dev_alloc(T * 40);
    for (unsigned t = 0; t < T; t++)
        in[t] = t % 4 == 0 ? UINT32_MAX - t : t % 4 == 1 ? t : (uint32_t)(t * 2654435761u);
    char dir[] = "/tmp/ptxsim-test-jit-div-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (unsigned k = 0; k < sizeof divisors / sizeof *divisors; k++) {
        uint64_t params[3] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, divisors[k]};
        char what[64];
        snprintf(what, sizeof what, "division by %u", divisors[k]);
        if (k == 0) setenv("PTXSIM_JIT_DUMP", dir, 1);
        run_on_jit_translated(what, ptx, (emu_dim3){1, 1, 1}, (emu_dim3){T, 1, 1}, params, 3, 1);
        unsetenv("PTXSIM_JIT_DUMP");
    }
    unsigned pow2 = dumped_ir_lines(dir, "div.pow2");
    ck_assert_msg(pow2 >= 8, "%u divisions with a power-of-two path in the IR", pow2);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* An f32 add/sub that decode fuses with the mul feeding it (fma_contraction.c), compiled inline
 * (the product's sign, the addend's sign, .ftz, .sat, a guard) on every pair of special_f32's
 * patterns with a third from the table, against the step interpreter. */
START_TEST(contracted_fma_on_special_values)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %k;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .f32 %fa, %fb, %fc, %m<8>, %fr;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 12;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.f32 %fa, [%in];\n"
        "    ld.global.f32 %fb, [%in+4];\n"
        "    ld.global.f32 %fc, [%in+8];\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    mul.wide.u32 %o, %t, 64;\n"
        "    add.u64 %out, %out, %o;\n"
        "    mul.f32 %m0, %fa, %fb;\n    add.f32 %fr, %m0, %fc;\n    st.global.f32 [%out+0], %fr;\n"
        "    mul.f32 %m1, %fa, %fb;\n    sub.f32 %fr, %fc, %m1;\n    st.global.f32 [%out+4], %fr;\n"
        "    mul.f32 %m2, %fa, %fb;\n    sub.f32 %fr, %m2, %fc;\n    st.global.f32 [%out+8], %fr;\n"
        "    mul.ftz.f32 %m3, %fa, %fb;\n    add.ftz.f32 %fr, %fc, %m3;\n    st.global.f32 [%out+12], %fr;\n"
        "    mul.f32 %m4, %fb, %fc;\n    add.sat.f32 %fr, %m4, %fa;\n    st.global.f32 [%out+16], %fr;\n"
        "    mul.ftz.f32 %m5, %fa, %fc;\n    sub.ftz.sat.f32 %fr, %m5, %fb;\n    st.global.f32 [%out+20], %fr;\n"
        "    mov.f32 %fr, %fc;\n"
        "    @%p mul.f32 %m6, %fa, %fa;\n    @%p add.f32 %fr, %m6, %fb;\n    st.global.f32 [%out+24], %fr;\n"
        "    ret;\n}\n";
    enum { N = sizeof special_f32 / sizeof *special_f32 };
    uint8_t *in = conf_dev_alloc(N * N * 12), *out = conf_dev_alloc(N * N * 64);
    for (unsigned t = 0; t < N * N; t++) {
        memcpy(in + t * 12, &special_f32[t % N], 4);
        memcpy(in + t * 12 + 4, &special_f32[t / N], 4);
        memcpy(in + t * 12 + 8, &special_f32[(t * 7 + 3) % N], 4);
    }
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    run_on_jit_translated("contracted fma", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){N * N, 1, 1},
                          params, 2, 1);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Global loads in a loop get a prefetch hint (translate.c, emit_prefetch): the address their
 * warp's first active lane will read next, from the step since its last trip. Six load sites
 * in one loop (the first four get a hint): one walking forwards, one backwards from the end
 * (its last hint lies below the allocation), one guarded to the upper half-warp (lane 0 not
 * active), one that every lane reads at the same address, a gather, one that never moves; once
 * a loop of several blocks with a barrier (ordinary segments, as matmul's tile loop: the hints)
 * and once a loop segment (none). A hint changes nothing: against the step interpreter (memory,
 * counts). */
START_TEST(looped_global_loads_prefetch)
{
    enum { T = 64, TRIPS = 16, ROW = T * 4 };
    for (int split = 0; split < 2; split++) {
        char ptx[4096];
        snprintf(ptx, sizeof ptx,
            CONF_PTX_HEADER
            ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
            "    .reg .b32 %%t, %%i, %%s, %%v<6>, %%g;\n"
            "    .reg .b64 %%in, %%out, %%o, %%a<6>;\n"
            "    .reg .pred %%p, %%q;\n"
            "    ld.param.u64 %%in, [pin];\n"
            "    ld.param.u64 %%out, [pout];\n"
            "    mov.u32 %%t, %%tid.x;\n"
            "    mov.u32 %%s, 0;\n"
            "    mov.u32 %%i, 0;\n"
            "    mov.u32 %%v2, 7;\n"
            "    and.b32 %%g, %%t, 31;\n"
            "    setp.ge.u32 %%q, %%g, 16;\n"
            "    mul.wide.u32 %%o, %%t, 4;\n"
            "    add.u64 %%a0, %%in, %%o;\n"
            "    add.u64 %%a1, %%a0, %d;\n"
            "    mov.u64 %%a2, %%a0;\n"
            "    mov.u64 %%a3, %%in;\n"
            "    mul.lo.u32 %%g, %%t, 37;\n"
            "    and.b32 %%g, %%g, 63;\n"
            "    mul.wide.u32 %%o, %%g, 4;\n"
            "    add.u64 %%a4, %%in, %%o;\n"
            "    mov.u64 %%a5, %%a0;\n"
            "L:\n"
            "    ld.global.u32 %%v0, [%%a0];\n"
            "    ld.global.u32 %%v1, [%%a1];\n"
            "    @%%q ld.global.u32 %%v2, [%%a2];\n"
            "    ld.global.u32 %%v3, [%%a3];\n"
            "    ld.global.u32 %%v4, [%%a4];\n"
            "    ld.global.u32 %%v5, [%%a5];\n"
            "%s"
            "    xor.b32 %%s, %%s, %%v0;\n    add.u32 %%s, %%s, %%v1;\n"
            "    xor.b32 %%s, %%s, %%v2;\n    add.u32 %%s, %%s, %%v3;\n"
            "    xor.b32 %%s, %%s, %%v4;\n    add.u32 %%s, %%s, %%v5;\n"
            "    shl.b32 %%g, %%s, 3;\n    add.u32 %%s, %%s, %%g;\n"
            "    add.u64 %%a0, %%a0, %d;\n"
            "    sub.u64 %%a1, %%a1, %d;\n"
            "    add.u64 %%a2, %%a2, %d;\n"
            "    add.u64 %%a3, %%a3, 4;\n"
            "    add.u64 %%a4, %%a4, %d;\n"
            "    add.u32 %%i, %%i, 1;\n"
            "    setp.lt.u32 %%p, %%i, %d;\n"
            "    @%%p bra L;\n"
            "    mul.wide.u32 %%o, %%t, 4;\n"
            "    add.u64 %%out, %%out, %%o;\n"
            "    st.global.u32 [%%out], %%s;\n"
            "    ret;\n}\n",
            (TRIPS - 1) * ROW,
            split ? "    bar.sync 0;\n    @%q bra S;\n    add.u32 %s, %s, 5;\nS:\n" : "", ROW, ROW,
            ROW, ROW, TRIPS);
        uint32_t *in = conf_dev_alloc(TRIPS * ROW), *out = conf_dev_alloc(T * 4);
        for (unsigned k = 0; k < TRIPS * ROW / 4; k++) in[k] = k * 2654435761u;
        uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
        run_on_jit_translated("looped loads", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){T, 1, 1},
                              params, 2, 1 + (unsigned)split);
        uint32_t sum = 0;
        for (unsigned k = 0; k < T; k++) sum |= out[k];
        ck_assert_msg(sum != 0, "the kernel wrote nothing");
        conf_dev_free(in);
        conf_dev_free(out);
    }
}
END_TEST

/* A loop block of 28 µops whose rows live at its head are more than a loop segment carries in
 * phis (JIT_LOOP_ROWS, 48): 24 accumulators, their 24 increments and the trip counter (the 49th
 * row). Such a block is an ordinary segment, so every row read across the back edge has its
 * latest value; against the step interpreter (memory, counts). */
START_TEST(loop_with_more_rows_than_carried)
{
    char ptx[8192];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s",
        CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %i, %x<24>, %y<24>;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %i, [%in];\n");
    for (int k = 0; k < 24; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                              "    mov.u32 %%x%d, %d;\n    add.u32 %%y%d, %%t, %d;\n", k, k, k, 7 * k);
    n += (size_t)snprintf(ptx + n, sizeof ptx - n, "L:\n");
    for (int k = 0; k < 24; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    add.u32 %%x%d, %%x%d, %%y%d;\n", k, k, k);
    n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                          "    add.u32 %%i, %%i, 1;\n"
                          "    setp.lt.u32 %%p, %%i, 37;\n"
                          "    @%%p bra L;\n"
                          "    mul.wide.u32 %%o, %%t, 96;\n"
                          "    add.u64 %%out, %%out, %%o;\n");
    for (int k = 0; k < 24; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.u32 [%%out+%d], %%x%d;\n",
                              4 * k, k);
    snprintf(ptx + n, sizeof ptx - n, "    ret;\n}\n");
    enum { T = 64 };
    uint32_t start[T];
    for (unsigned t = 0; t < T; t++) start[t] = t % 5;   /* 33 to 37 trips, uniform per warp no */
    uint8_t *in = conf_dev_alloc(sizeof start), *out = conf_dev_alloc(T * 96);
    memcpy(in, start, sizeof start);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_stats before, after;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k("loop rows", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){T, 1, 1}, 0,
                                params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    emu_jit_get_stats(&after);
    ck_assert_msg(after.failed == before.failed, "the kernel was left to the interpreter");
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* Chained segments (translate.c's chain_edge/open_chain): where a segment ends at the start of
 * another block (a uniform branch's either way, a fall into a label) the run goes on there in
 * compiled code with the rows live there as phis, stored only where a run leaves. A loop of
 * three blocks (head, a body the even trips skip, a tail whose back edge goes to the head: no
 * loop segment) carrying 32-bit, 64-bit and f32 rows, guarded writes (one into a row carried in
 * unstored from before the loop), a row written in the body and read only after the loop; a branch uniform in warp 1 and not taken by warp 0 (each warp
 * takes one way); a divergent branch (the handler's way) whose reconvergence point is a chain
 * head; trip counts prime to the budget, so budget stops land on every µop and every way in;
 * partial warps (70 threads), two blocks. Against the step interpreter (memory, counts). */
START_TEST(rows_chained_across_blocks)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %i, %j, %a, %b, %s, %t, %n, %w, %u;\n"
        "    .reg .b64 %in, %out, %o, %d;\n"
        "    .reg .f32 %f;\n"
        "    .reg .pred %p, %q, %z, %y;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    ld.param.u64 %in, [pin];\n"
        "    mov.u32 %i, %tid.x;\n"
        "    ld.global.u32 %n, [%in];\n"
        "    setp.lt.u32 %y, %i, 11;\n"
        "    cvt.u64.u32 %d, %i;\n"
        "    add.u64 %d, %d, 0x123456789;\n"
        "    cvt.rn.f32.u32 %f, %i;\n"
        "    mov.u32 %s, 1;\n"
        "    mov.u32 %t, 5;\n"
        "    mov.u32 %u, 9;\n"
        "    mov.u32 %j, 0;\n"
        "    setp.eq.u32 %p, %n, 0;\n"
        "    @%p bra DONE;\n"
        "HEAD:\n"
        "    add.u32 %a, %s, %j;\n"
        "    @%y xor.b32 %u, %u, %j;\n"
        "    and.b32 %b, %j, 1;\n"
        "    setp.eq.u32 %q, %b, 0;\n"
        "    @%q bra TAIL;\n"
        "    mul.lo.u32 %s, %a, 3;\n"
        "    add.f32 %f, %f, 0f3FC00000;\n"
        "    setp.lt.u32 %z, %i, 7;\n"
        "    @%z add.u32 %t, %t, %j;\n"
        "    xor.b32 %u, %u, %a;\n"
        "TAIL:\n"
        "    add.u32 %s, %s, %a;\n"
        "    shl.b64 %o, %d, 1;\n"
        "    xor.b64 %d, %d, %o;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.lt.u32 %q, %j, %n;\n"
        "    @%q bra HEAD;\n"
        "    shr.u32 %w, %i, 5;\n"
        "    setp.eq.u32 %z, %w, 1;\n"
        "    @%z bra W1;\n"
        "    add.u32 %s, %s, 77;\n"
        "    mul.f32 %f, %f, 0f40000000;\n"
        "W1:\n"
        "    add.u32 %t, %t, %s;\n"
        "    and.b32 %b, %i, 3;\n"
        "    setp.ne.u32 %p, %b, 0;\n"
        "    @%p bra SKIP;\n"
        "    add.u32 %s, %s, 1000;\n"
        "    add.u64 %d, %d, 3;\n"
        "SKIP:\n"
        "    mul.wide.u32 %o, %i, 32;\n"
        "    add.u64 %o, %o, %out;\n"
        "    st.global.u32 [%o], %s;\n"
        "    st.global.u32 [%o+4], %t;\n"
        "    st.global.u32 [%o+8], %a;\n"
        "    st.global.u32 [%o+12], %u;\n"
        "    st.global.u64 [%o+16], %d;\n"
        "    st.global.f32 [%o+24], %f;\n"
        "    st.global.u32 [%o+28], %j;\n"
        "DONE:\n"
        "    ret;\n}\n";
    enum { T = 70 };
    uint32_t *in = conf_dev_alloc(4), *out = conf_dev_alloc(32 * T);
    in[0] = 37;
    memset(out, 0xa5, 32 * T);
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_options o = {.verbose = getenv("JIT_DUMP") ? 1 : 0, .hot_instructions = 1};
    emu_jit_configure(&o);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k("rows chained across blocks", ptx, (emu_dim3){2, 1, 1},
                                (emu_dim3){T, 1, 1}, 0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* A loop block longer than a straight-line segment (JIT_SEGMENT) but within a loop segment
 * (JIT_LOOP_SEGMENT): 20 accumulators and their 20 increments go round in registers, 20
 * temporaries, an f32 row, a load, a guarded write and a handler call (sin.approx) fill the
 * register cache past its 64 rows (a result that finds it full is stored at once, and the back
 * edge reloads it); per-lane trip counts (23 to 25) make the last back edges diverge, and budget
 * stops land on every µop of the 70-µop body. Against the step interpreter (memory, counts). */
START_TEST(long_loop_segment)
{
    char ptx[16384];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s",
        CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %i, %n, %w, %x<20>, %y<20>, %u<20>;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .f32 %f, %g, %e;\n"
        "    .reg .pred %p, %z;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %n, [%in];\n"
        "    mov.u32 %i, 0;\n"
        "    cvt.rn.f32.u32 %f, %t;\n"
        "    mov.f32 %e, 0f3F000000;\n"
        "    setp.lt.u32 %z, %t, 9;\n");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                              "    mov.u32 %%x%d, %d;\n    add.u32 %%y%d, %%t, %d;\n", k, k, k, 7 * k);
    n += (size_t)snprintf(ptx + n, sizeof ptx - n, "L:\n");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                              "    mul.lo.u32 %%u%d, %%x%d, 3;\n"
                              "    xor.b32 %%x%d, %%x%d, %%u%d;\n"
                              "    add.u32 %%x%d, %%x%d, %%y%d;\n", k, k, k, k, k, k, k, k);
    n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                          "    ld.global.u32 %%w, [%%in];\n"
                          "    @%%z add.u32 %%x0, %%x0, %%w;\n"
                          "    fma.rn.f32 %%f, %%f, %%e, %%e;\n"
                          "    sin.approx.f32 %%g, %%f;\n"
                          "    add.f32 %%f, %%f, %%g;\n"
                          "    add.u32 %%x19, %%x19, %%u0;\n"
                          "    add.u32 %%i, %%i, 1;\n"
                          "    setp.lt.u32 %%p, %%i, %%n;\n"
                          "    @%%p bra L;\n"
                          "    mul.wide.u32 %%o, %%t, 84;\n"
                          "    add.u64 %%out, %%out, %%o;\n"
                          "    st.global.f32 [%%out+80], %%f;\n");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.u32 [%%out+%d], %%x%d;\n",
                              4 * k, k);
    snprintf(ptx + n, sizeof ptx - n, "    ret;\n}\n");
    enum { T = 70 };
    uint32_t trips[T];
    for (unsigned t = 0; t < T; t++) trips[t] = 23 + (t * 7) % 3;
    uint8_t *in = conf_dev_alloc(sizeof trips), *out = conf_dev_alloc(T * 84);
    memcpy(in, trips, sizeof trips);
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    setenv("CONF_EXECUTOR", "jit", 1);
    emu_jit_options o = {.verbose = getenv("JIT_DUMP") ? 1 : 0, .hot_instructions = 1};
    emu_jit_configure(&o);
    emu_jit_stats before;
    emu_jit_get_stats(&before);
    conf_result r;
    conf_status st = conf_run_k("long loop segment", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){T, 1, 1},
                                0, params, 2, &r);
    unsetenv("CONF_EXECUTOR");
    ck_assert_msg(st == CONF_OK, "%.1500s", r.message);
    assert_compiled_since(&before);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

/* A straight block longer than a segment (two: four stretches and three, translate.c's
 * stretch_budget()) after a loop of 3-µop trips (240 + c / 3 for CTA c) and a skip of 3, 7 or
 * 8 µops (c % 3), so that the first det-off turn (1000 warp instructions) ends in the block
 * at every µop over the CTAs: the stretch whose budget is short ends the run before it, the
 * interpreter's loop runs on to the budget, the next turn comes back in (at a stretch's start,
 * after a load or a handler, else the interpreter runs the block's rest). An atomic ticket in
 * the block tells the warps' order, which a run past the budget changes. The block's f32
 * results keep their NaN until a bit reader (mov.b32, neg, abs, selp, a store, a guarded
 * merge) asks, on special_f32's patterns. Against the step interpreter (memory, counts, the
 * engine's statistics). */
START_TEST(stretches_end_anywhere)
{
    char ptx[32768];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s",
        CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %c, %j, %e, %m, %k, %r, %w, %g, %tk;\n"
        "    .reg .b64 %in, %out, %o, %cnt;\n"
        "    .reg .f32 %a, %b, %s, %f<8>;\n"
        "    .reg .pred %p, %q, %l, %x;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %c, %ctaid.x;\n"
        "    div.u32 %e, %c, 3;\n"
        "    add.u32 %e, %e, 240;\n"
        "    mov.u32 %j, 0;\n"
        "$L_wait:\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.le.u32 %l, %j, %e;\n"
        "    @%l bra $L_wait;\n"
        "    rem.u32 %m, %c, 3;\n"
        "    setp.eq.u32 %x, %m, 0;\n"
        "    @%x bra $L_go;\n"
        "    add.u32 %j, %j, 1;\n"
        "    add.u32 %j, %j, 1;\n"
        "    setp.eq.u32 %x, %m, 1;\n"
        "    @%x bra $L_go;\n"
        "    add.u32 %j, %j, 1;\n"
        "$L_go:\n"
        "    add.u64 %cnt, %in, 768;\n"
        "    mul.wide.u32 %o, %t, 8;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.f32 %a, [%in];\n"
        "    ld.global.f32 %b, [%in+4];\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    and.b32 %k, %t, 2;\n"
        "    setp.ne.u32 %q, %k, 0;\n"
        "    mov.u32 %w, 0;\n"
        "    mov.f32 %f0, %a;\n"
        "    mov.f32 %f1, %b;\n");
    static const char *const step[] = {
        "    add.f32 %%f%d, %%a, %%f%d;\n",
        "    mul.f32 %%f%d, %%f%d, %%b;\n",
        "    fma.rn.f32 %%f%d, %%f%d, %%b, %%a;\n",
        "    sub.f32 %%f%d, %%b, %%f%d;\n",
        "    neg.f32 %%f%d, %%f%d;\n",
        "    @%%p add.f32 %%f%d, %%f%d, %%a;\n",
        "    abs.f32 %%f%d, %%f%d;\n",
        "    max.f32 %%f%d, %%f%d, %%a;\n",
        "    @%%q mul.f32 %%f%d, %%f%d, %%f%d;\n",
        "    selp.f32 %%f%d, %%f%d, %%b, %%p;\n",
    };
    for (int k = 0; k < 190; k++) {
        int d = (k + 2) % 8, x = (k + 1) % 8;
        if (k % 17 == 16) {   /* a bit reader into an integer */
            n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                  "    mov.b32 %%r, %%f%d;\n    xor.b32 %%w, %%w, %%r;\n", x);
            continue;
        }
        if (k == 70)   /* a load and a handler: a run comes back in after each */
            n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                  "    ld.global.f32 %%s, [%%in+4];\n"
                                  "    sin.approx.f32 %%s, %%s;\n"
                                  "    add.f32 %%f%d, %%f%d, %%s;\n", d, x);
        if (k == 120)
            n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    atom.global.add.u32 %%tk, [%%cnt], 1;\n");
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, step[k % 10], d, x, x);
    }
    n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                          "    mad.lo.u32 %%g, %%c, %d, %%t;\n"
                          "    mul.wide.u32 %%o, %%g, 40;\n"
                          "    add.u64 %%out, %%out, %%o;\n"
                          "    st.global.u32 [%%out], %%w;\n"
                          "    st.global.u32 [%%out+36], %%tk;\n", 96);
    for (int k = 0; k < 8; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.f32 [%%out+%d], %%f%d;\n",
                              4 + 4 * k, k);
    snprintf(ptx + n, sizeof ptx - n, "    ret;\n}\n");
    enum { P = sizeof special_f32 / sizeof *special_f32, T = 96, B = 300 };
    uint8_t *in = conf_dev_alloc(T * 8 + 4), *out = conf_dev_alloc(B * T * 40);
    for (unsigned t = 0; t < T; t++) {
        memcpy(in + t * 8, &special_f32[t % P], 4);
        memcpy(in + t * 8 + 4, &special_f32[(t / P + t) % P], 4);
    }
    memset(in + T * 8, 0, 4);
    run_compiled_on_jit("stretches end anywhere", ptx, B, T, in, out);
}
END_TEST

/* A contracted add reads its mul's sources (fma_contraction.c), which liveness() counts as the
 * add's reads: loaded f32 rows that nothing else reads after the mul, with the adds 50, 100 and
 * 150 µops on (fillers between: the last across a segment's end, budget stops on every µop of
 * a run), so a source taken for dead would be read back stale from its row. */
START_TEST(contracted_add_sources_live_across_segments)
{
    char ptx[16384];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s",
        CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %n, %i, %u<8>;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .f32 %a<3>, %b<3>, %c<3>, %m<3>, %r<3>;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mov.u32 %n, %ntid.x;\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mad.lo.u32 %t, %t, %n, %i;\n"
        "    mul.wide.u32 %o, %t, 36;\n"
        "    add.u64 %in, %in, %o;\n");
    for (int k = 0; k < 3; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                              "    ld.global.f32 %%a%d, [%%in+%d];\n"
                              "    ld.global.f32 %%b%d, [%%in+%d];\n"
                              "    ld.global.f32 %%c%d, [%%in+%d];\n"
                              "    mul.f32 %%m%d, %%a%d, %%b%d;\n",
                              k, 12 * k, k, 12 * k + 4, k, 12 * k + 8, k, k, k);
    for (int k = 0; k < 8; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    add.u32 %%u%d, %%t, %d;\n", k, k);
    for (int k = 0; k < 3; k++) {
        for (int f = 0; f < 50; f++)
            n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    mul.lo.u32 %%u%d, %%u%d, %%u%d;\n",
                                  f % 8, f % 8, (f + 3) % 8);
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    %s.f32 %%r%d, %%m%d, %%c%d;\n",
                              k == 1 ? "sub" : "add", k, k, k);
    }
    n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                          "    mul.wide.u32 %%o, %%t, 44;\n"
                          "    add.u64 %%out, %%out, %%o;\n");
    for (int k = 0; k < 3; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.f32 [%%out+%d], %%r%d;\n",
                              4 * k, k);
    for (int k = 0; k < 8; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.u32 [%%out+%d], %%u%d;\n",
                              12 + 4 * k, k);
    snprintf(ptx + n, sizeof ptx - n, "    ret;\n}\n");
    enum { T = 96, B = 3, N = T * B };
    uint32_t *in = conf_dev_alloc(36 * N);
    uint8_t *out = conf_dev_alloc(44 * N);
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int k = 0; k < 9 * N; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        in[k] = 0x3f000000u + (uint32_t)(x % 0x01800000u);   /* 0.5 to 64: no specials */
    }
    run_compiled_on_jit("contracted add across segments", ptx, B, T, in, out);
}
END_TEST

/* Runs that start inside a block (translate.c's run_entry, whole_budget, entry_check, for a
 * barrier-bound function): a straight-line kernel of about 250 µops in nine blocks of 5 to 40
 * (each a segment) with a bar.sync and handler calls (sin.approx, atom) inside segments, run
 * in turns of 37 warp instructions (CONF_WARP_BUDGET), then in seeded slices of 1 to 74
 * (CONF_SEED), which end runs at µops where the plain variant's code has no entry (the
 * executor loop interprets the rest of the block) and at segments the budget left does not
 * cover (the code returns before them); the barrier's release comes back in the middle of a
 * segment checked whole. Results and counts as the step interpreter's, and the tickets the
 * warps draw from a global counter, which show where runs ended; a segment that ran a µop
 * past its budget fails run()'s assert (seen with the check off by one). */
START_TEST(runs_entering_inside_blocks)
{
    char ptx[32768];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s",
        CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %i, %x, %u<6>;\n"
        "    .reg .b64 %in, %out, %o, %sa, %cnt;\n"
        "    .reg .f32 %f, %g;\n"
        "    .reg .pred %p;\n"
        "    .shared .align 4 .b32 s[128];\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    add.u64 %cnt, %in, 2400;\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mad.lo.u32 %t, %t, 128, %i;\n"
        "    mul.wide.u32 %o, %t, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %x, [%in];\n"
        "    mov.u64 %sa, s;\n"
        "    mul.wide.u32 %o, %i, 4;\n"
        "    add.u64 %sa, %sa, %o;\n");
    for (int k = 0; k < 6; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    add.u32 %%u%d, %%x, %d;\n", k, 3 * k + 1);
    for (int blk = 0; blk < 9; blk++) {
        for (int f = 0; f < 4 + 3 * blk; f++) {
            n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    %s %%u%d, %%u%d, %%u%d;\n",
                                  f % 3 == 0 ? "xor.b32" : f % 3 == 1 ? "mul.lo.u32" : "add.u32",
                                  f % 6, f % 6, (f + 1) % 6);
            if (blk == 3 && f == 8) {
                /* a barrier in the middle of the block: each warp's shared word read by its
                 * neighbour after it */
                n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                      "    st.shared.u32 [%%sa], %%u%d;\n"
                                      "    bar.sync 0;\n"
                                      "    xor.b32 %%i, %%i, 32;\n"
                                      "    mov.u64 %%sa, s;\n"
                                      "    mul.wide.u32 %%o, %%i, 4;\n"
                                      "    add.u64 %%sa, %%sa, %%o;\n"
                                      "    ld.shared.u32 %%x, [%%sa];\n"
                                      "    add.u32 %%u%d, %%u%d, %%x;\n"
                                      "    bar.sync 0;\n",
                                      blk, (blk + 1) % 6, (blk + 1) % 6);
            }
            if (f % 7 == 3)   /* a ticket: the order the warps' runs reach here */
                n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                      "    atom.global.add.u32 %%x, [%%cnt], 1;\n"
                                      "    xor.b32 %%u%d, %%u%d, %%x;\n",
                                      f % 6, f % 6);
            if (blk % 3 == 1 && f == 2)
                n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                      "    cvt.rn.f32.u32 %%f, %%u%d;\n"
                                      "    sin.approx.f32 %%g, %%f;\n"
                                      "    cvt.rzi.u32.f32 %%x, %%g;\n"
                                      "    add.u32 %%u%d, %%u%d, %%x;\n",
                                      (blk + 2) % 6, blk % 6, blk % 6);
        }
        if (blk < 8)   /* a block ends: a branch every lane takes, one no lane takes */
            n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                  "    setp.eq.u32 %%p, %%u0, %%u0;\n"
                                  "    @%%p bra B%d;\n"
                                  "    add.u32 %%u1, %%u1, 1;\n"
                                  "B%d:\n",
                                  blk, blk);
    }
    n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                          "    mul.wide.u32 %%o, %%t, 24;\n"
                          "    add.u64 %%out, %%out, %%o;\n");
    for (int k = 0; k < 6; k++)
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    st.global.u32 [%%out+%d], %%u%d;\n",
                              4 * k, k);
    int len = snprintf(ptx + n, sizeof ptx - n, "    ret;\n}\n");
    ck_assert_int_lt((int)n + len, (int)sizeof ptx);
    enum { T = 64, B = 5, N = T * B };
    uint32_t *in = conf_dev_alloc(4 * 2 * N);
    uint8_t *out = conf_dev_alloc(24 * 2 * N);
    for (int k = 0; k < 2 * N; k++) in[k] = (uint32_t)k * 2654435761u;
    setenv("CONF_WARP_BUDGET", "37", 1);   /* prime to the blocks' lengths */
    run_compiled_on_jit("runs entering inside blocks", ptx, B, T, in, out);
    /* seeded: slices of 1 to 74 */
    in = conf_dev_alloc(4 * 2 * N);
    out = conf_dev_alloc(24 * 2 * N);
    for (int k = 0; k < 2 * N; k++) in[k] = (uint32_t)k * 2654435761u;
    setenv("CONF_SEED", "11", 1);
    run_compiled_on_jit("runs entering inside blocks, seeded", ptx, B, T, in, out);
    unsetenv("CONF_SEED");
    unsetenv("CONF_WARP_BUDGET");
}
END_TEST

/* Runs ptx's kernel k(in, out) (B blocks of T threads, in: 4 * 2 * B * T bytes of a fixed
 * pattern, out: out_bytes) under the JIT against the step interpreter in turns of
 * CONF_WARP_BUDGET `turn`, then in slices of 1 to 2 * turn drawn from each of `nseeds` seeds
 * (CONF_SEED 1, 2, ...), so that runs end at every µop. */
static void run_in_slices(const char *name, const char *ptx, unsigned B, unsigned T,
                          size_t out_bytes, const char *turn, int nseeds)
{
    char what[96];
    setenv("CONF_WARP_BUDGET", turn, 1);
    for (int s = 0; s <= nseeds; s++) {
        uint32_t *in = conf_dev_alloc(4 * 2 * B * T);
        uint8_t *out = conf_dev_alloc(out_bytes);
        for (unsigned k = 0; k < 2 * B * T; k++) in[k] = k * 2654435761u;
        char seed[16];
        snprintf(seed, sizeof seed, "%d", s);
        if (s) setenv("CONF_SEED", seed, 1);
        snprintf(what, sizeof what, "%s, turns of %s, seed %d", name, turn, s);
        run_compiled_on_jit(what, ptx, B, T, in, out);
    }
    unsetenv("CONF_SEED");
    unsetenv("CONF_WARP_BUDGET");
}

/* Emits `count` ALU µops on rows %u0..%u5 (no µop in them stops or touches memory). */
static size_t fillers(char *ptx, size_t n, size_t size, int count, int salt)
{
    for (int f = 0; f < count; f++) {
        int g = f + salt;
        n += (size_t)snprintf(ptx + n, size - n, "    %s %%u%d, %%u%d, %%u%d;\n",
                              g % 3 == 0 ? "xor.b32" : g % 3 == 1 ? "mul.lo.u32" : "add.u32",
                              g % 6, g % 6, (g + 1) % 6);
    }
    return n;
}

/* Emits `at` fillers, then a handler µop (sin.approx, between a conversion there and back: 4
 * µops) that reads row %u<salt % 6> and adds into %u<(salt + 1) % 6>. */
static size_t handler_after(char *ptx, size_t n, size_t size, int at, int salt)
{
    n = fillers(ptx, n, size, at, salt);
    return n + (size_t)snprintf(ptx + n, size - n,
                                "    cvt.rn.f32.u32 %%f, %%u%d;\n"
                                "    sin.approx.f32 %%g, %%f;\n"
                                "    cvt.rzi.u32.f32 %%x, %%g;\n"
                                "    add.u32 %%u%d, %%u%d, %%x;\n",
                                salt % 6, (salt + 1) % 6, (salt + 1) % 6);
}

/* Emits `at` fillers, then a global load (2 µops) added into row %u<salt % 6>. */
static size_t load_after(char *ptx, size_t n, size_t size, int at, int salt)
{
    n = fillers(ptx, n, size, at, salt);
    return n + (size_t)snprintf(ptx + n, size - n,
                                "    ld.global.u32 %%x, [%%in+4];\n"
                                "    add.u32 %%u%d, %%u%d, %%x;\n",
                                salt % 6, salt % 6);
}

/* The kernel's head: k(in, out), %t the thread's index, rows %u0..%u5 from its input word. */
#define RUN_ENDS_HEAD                                                                          \
    CONF_PTX_HEADER                                                                            \
    ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"                                \
    "    .reg .b32 %t, %i, %x, %u<6>;\n"                                                       \
    "    .reg .b64 %in, %out, %o;\n"                                                           \
    "    .reg .f32 %f, %g;\n"                                                                  \
    "    .reg .pred %p;\n"                                                                     \
    "    ld.param.u64 %in, [pin];\n"                                                           \
    "    ld.param.u64 %out, [pout];\n"                                                         \
    "    mov.u32 %i, %tid.x;\n"                                                                \
    "    mov.u32 %t, %ctaid.x;\n"                                                              \
    "    mad.lo.u32 %t, %t, 128, %i;\n"                                                        \
    "    mul.wide.u32 %o, %t, 4;\n"                                                            \
    "    add.u64 %in, %in, %o;\n"                                                              \
    "    ld.global.u32 %x, [%in];\n"                                                           \
    "    add.u32 %u0, %x, 1;\n    add.u32 %u1, %x, 4;\n    add.u32 %u2, %x, 7;\n"              \
    "    add.u32 %u3, %x, 10;\n    add.u32 %u4, %x, 13;\n    add.u32 %u5, %x, 16;\n"

/* Ends a block: a branch every lane takes (setp and bra end the segment) over an add no lane
 * runs (a block of its own). */
static size_t block_end(char *ptx, size_t n, size_t size, int label)
{
    return n + (size_t)snprintf(ptx + n, size - n,
                                "    setp.eq.u32 %%p, %%u0, %%u0;\n"
                                "    @%%p bra E%d;\n"
                                "    add.u32 %%u1, %%u1, 1;\n"
                                "E%d:\n",
                                label, label);
}

/* The kernel's tail: rows %u0..%u5 stored at out + 24 * %t. */
static size_t store_rows(char *ptx, size_t n, size_t size)
{
    n += (size_t)snprintf(ptx + n, size - n, "    mul.wide.u32 %%o, %%t, 24;\n"
                                             "    add.u64 %%out, %%out, %%o;\n");
    for (int k = 0; k < 6; k++)
        n += (size_t)snprintf(ptx + n, size - n, "    st.global.u32 [%%out+%d], %%u%d;\n", 4 * k, k);
    int len = snprintf(ptx + n, size - n, "    ret;\n}\n");
    ck_assert_int_lt((int)n + len, (int)size);
    return n + (size_t)len;
}

/* Emits piece k of direct_edges_between_blocks: by kind, an if/else on a lane's bit whose
 * taken path falls at its block's end into the reconvergence point and whose other path
 * branches there (a uniform branch within the path), the same with a handler µop in the
 * second path (the stack as last checked is then unknown: the full check), an if without
 * else, or (loop) a loop whose lanes leave it at different turns. */
static size_t edge_piece(char *ptx, size_t n, size_t size, int k, int kind, int len)
{
    n += (size_t)snprintf(ptx + n, size - n,
                          "    and.b32 %%x, %%u%d, %d;\n"
                          "    setp.ne.u32 %%p, %%x, 0;\n",
                          k % 6, 1 << (k % 5));
    switch (kind) {
    case 0:
    case 1:
        n += (size_t)snprintf(ptx + n, size - n, "    @%%p bra L%de;\n", k);
        if (kind == 1) n = handler_after(ptx, n, size, 1, k + 2);
        n = fillers(ptx, n, size, len, k);
        n += (size_t)snprintf(ptx + n, size - n, "    bra L%dj;\nL%de:\n", k, k);
        n = fillers(ptx, n, size, len, k + 3);
        n += (size_t)snprintf(ptx + n, size - n, "L%dj:\n", k);
        return fillers(ptx, n, size, len, k + 1);
    case 2:
        n += (size_t)snprintf(ptx + n, size - n, "    @%%p bra L%dj;\n", k);
        n = fillers(ptx, n, size, len, k + 4);
        n += (size_t)snprintf(ptx + n, size - n, "L%dj:\n", k);
        return fillers(ptx, n, size, len, k + 2);
    default:
        n += (size_t)snprintf(ptx + n, size - n,
                              "    and.b32 %%x, %%u%d, 3;\n"
                              "    add.u32 %%x, %%x, 1;\n"
                              "L%dl:\n",
                              (k + 1) % 6, k);
        n = fillers(ptx, n, size, len, k + 5);
        return n + (size_t)snprintf(ptx + n, size - n,
                                    "    sub.u32 %%x, %%x, 1;\n"
                                    "    setp.ne.u32 %%p, %%x, 0;\n"
                                    "    @%%p bra L%dl;\n",
                                    k);
    }
}

/* Direct edges between blocks (translate.c's goto_block, and chain_edge's test in a function
 * that chains: goes_on_at): a block's end or a uniform branch goes on at the next block
 * without the dispatch block, testing only that the pc is not the SIMT top's reconvergence
 * point. Divergent if/else paths that reach their reconvergence point by falling into it and
 * by a branch, one with a handler µop before its edge, ifs without else and loops left at
 * different turns, in a kernel short enough to chain (54 µops) and in one that does not (over
 * JIT_CHAIN_UOPS), in turns of 1000 and 5 and seeded slices, against the step interpreter.
 * Catches an edge that does not test the reconvergence point, in either function (a path runs
 * on past it: counts and rows differ). */
START_TEST(direct_edges_between_blocks)
{
    for (int v = 0; v < 2; v++) {
        char ptx[32768];
        size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", RUN_ENDS_HEAD);
        int pieces = v ? 9 : 3;
        for (int k = 0; k < pieces; k++) {
            n = edge_piece(ptx, n, sizeof ptx, k, v ? k % 4 : k % 3, v ? 3 + k % 3 : 1);
            if (v && k % 3 == 2) n = block_end(ptx, n, sizeof ptx, k);
        }
        store_rows(ptx, n, sizeof ptx);
        const char *name = v ? "direct edges (not chained)" : "direct edges (chained)";
        run_in_slices(name, ptx, 3, 128, 24 * 3 * 128, "1000", 2);
        run_in_slices(name, ptx, 3, 128, 24 * 3 * 128, "5", 2);
    }
}
END_TEST

/* Short segments checked whole (translate.c's whole_budget(), entry_check()): a barrier-bound
 * kernel (4 warps a CTA) of 30 blocks, each a segment of 2 to 14 µops outside loops (and a
 * 1-µop block), most with a bar.sync after their first 0 to 11 µops (a run comes back in
 * after it: entry_check), run in turns of 23 and in seeded slices, so that a turn's budget
 * left is every count from 0 to a segment's length where a run comes in at a segment's first
 * µop and after a barrier. A check that lets a run in with one µop too few left runs past the
 * budget: run()'s assert.
 * Catches: the segment start's comparison off by one (seg_last + 1 - i made seg_last - i in
 * emit_uop), entry_check's (end - i made end - i - 1), each alone; runs_entering_inside_blocks
 * no longer does (its 16-µop segment checks by stretches). */
START_TEST(whole_segments_stop_at_the_budget)
{
    char ptx[32768];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", RUN_ENDS_HEAD);
    for (int blk = 0; blk < 30; blk++) {
        /* segment: before + bar.sync + after + setp, bra: len - 1 µops, 2 to 14 */
        int len = 3 + blk % 13, before = blk % 5 == 4 || len < 4 ? -1 : (blk * 7) % (len - 3);
        if (before >= 0) {
            n = fillers(ptx, n, sizeof ptx, before, blk);
            n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    bar.sync 0;\n");
            n = fillers(ptx, n, sizeof ptx, len - 4 - before, blk + 1);
        } else {
            n = fillers(ptx, n, sizeof ptx, len - 3, blk);
        }
        n = block_end(ptx, n, sizeof ptx, blk);
    }
    store_rows(ptx, n, sizeof ptx);
    run_in_slices("whole segments stop at the budget", ptx, 4, 128, 24 * 4 * 128, "23", 6);
}
END_TEST

/* bar.sync's arrivals of converged warps made from compiled code (translate.c's emit_bar_sync:
 * cta.c's emu_barrier_sync_converged, the completing one releasing the others) and by the
 * handler (partly guarded ones), in blocks of four warps:
 * warp 3 exits first (the barriers count the live threads), warp 0 loops before the first
 * barrier (the others' arrivals wait for it); at the second id warp 1 loops and exits instead
 * of arriving, so its exit completes the barrier warps 0 and 2 wait at (emu_cta_warp_exited
 * finds it through bar_waiting, which the compiled arrival sets); then bar.syncs whose guard
 * is false in half of a warp's lanes. In turns of 1000, of 5 and seeded slices, against the step
 * interpreter (memory and counts). Catches a compiled arrival that leaves bar_waiting alone (the
 * second barrier deadlocks), one that does not release at the completing arrival, or one
 * that counts the µop twice. The guarded halves arrive one after the other, each at id 0 once. */
START_TEST(barrier_arrivals_in_compiled_code)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %w, %x, %i, %l;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .pred %p, %q;\n"
        "    .shared .align 4 .b8 sh[512];\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %i, %ctaid.x;\n"
        "    mad.lo.u32 %i, %i, 128, %t;\n"
        "    mul.wide.u32 %o, %i, 4;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %x, [%in];\n"
        "    mul.wide.u32 %o, %i, 16;\n"
        "    add.u64 %out, %out, %o;\n"
        "    shr.u32 %w, %t, 5;\n"
        "    mov.u32 %l, sh;\n"
        "    shl.b32 %i, %t, 2;\n"
        "    add.u32 %l, %l, %i;\n"
        "    st.shared.u32 [%l], %x;\n"
        "    setp.eq.u32 %p, %w, 3;\n"
        "    @%p exit;\n"
        "    setp.ne.u32 %q, %w, 0;\n"
        "    mov.u32 %i, 0;\n"
        "    @%q bra A;\n"
        "LA:\n"
        "    add.u32 %x, %x, %i;\n"
        "    add.u32 %i, %i, 1;\n"
        "    setp.lt.u32 %p, %i, 60;\n"
        "    @%p bra LA;\n"
        "A:\n"
        "    bar.sync 0;\n"
        "    xor.b32 %i, %t, 32;\n"
        "    shl.b32 %i, %i, 2;\n"
        "    mov.u32 %l, sh;\n"
        "    add.u32 %l, %l, %i;\n"
        "    ld.shared.u32 %i, [%l];\n"
        "    add.u32 %x, %x, %i;\n"
        "    st.global.u32 [%out], %x;\n"
        "    setp.ne.u32 %q, %w, 1;\n"
        "    mov.u32 %i, 0;\n"
        "    @%q bra B;\n"
        "LB:\n"
        "    add.u32 %x, %x, %i;\n"
        "    add.u32 %i, %i, 1;\n"
        "    setp.lt.u32 %p, %i, 40;\n"
        "    @%p bra LB;\n"
        "    st.global.u32 [%out+4], %x;\n"
        "    exit;\n"
        "B:\n"
        "    bar.sync 1;\n"
        "    st.global.u32 [%out+8], %x;\n"
        "    and.b32 %i, %t, 1;\n"
        "    setp.eq.u32 %p, %i, 0;\n"
        "    @%p bar.sync 0;\n"
        "    @!%p bar.sync 0;\n"
        "    add.u32 %x, %x, 5;\n"
        "    bar.sync 0;\n"
        "    st.global.u32 [%out+12], %x;\n"
        "    ret;\n}\n";
    run_in_slices("barrier arrivals", ptx, 3, 128, 16 * 3 * 128, "1000", 0);
    run_in_slices("barrier arrivals", ptx, 3, 128, 16 * 3 * 128, "5", 4);
}
END_TEST

/* Long straight segments checked by stretches of JIT_STRETCH (32) µops (translate.c's
 * stretch_budget(), check_stretch(), stretch_rest()): a kernel without a barrier whose
 * blocks are segments of 16, 17, 31, 32, 33, 47, 64, 65 and 100 µops, some with a load or a
 * handler (sin.approx) inside a stretch (the run comes back in after it: check_stretch at a
 * side entry), and the same blocks after a bar.sync (a barrier-bound function: its runs start
 * at a stretch's first µop), in turns of 29 and seeded slices. A stretch check that lets a run
 * in with one µop too few left runs past the budget: run()'s assert. Catches: check_stretch's
 * comparison off by one (need - 1; also where only a side entry's check has it, which
 * stretches_end_anywhere and runs_entering_inside_blocks let pass), stretch_rest() one short
 * (- 1), each alone. A to_interp or stretch check whose next_pc is one µop early or late (or
 * stretch_rest() one long) changes only how many µops the interpreter runs, which no result,
 * count or statistic shows: not caught here. */
static void straight_stretches(const char *name, bool barrier)
{
    static const int lens[] = {16, 17, 31, 32, 33, 47, 64, 65, 100};
    char ptx[32768];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", RUN_ENDS_HEAD);
    if (barrier) n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    bar.sync 0;\n");
    for (int blk = 0; blk < (int)(sizeof lens / sizeof *lens); blk++) {
        int len = lens[blk] - 3;
        if (blk % 3 == 1) {
            /* a handler 20 µops in */
            n = handler_after(ptx, n, sizeof ptx, 20, blk);
            len -= 24;
        } else if (blk % 3 == 2) {
            /* a load 9 µops in */
            n = load_after(ptx, n, sizeof ptx, 9, blk);
            len -= 11;
        }
        n = fillers(ptx, n, sizeof ptx, len, blk + 2);
        n = block_end(ptx, n, sizeof ptx, blk);
    }
    store_rows(ptx, n, sizeof ptx);
    run_in_slices(name, ptx, 3, 96, 24 * 3 * 128, "29", 4);
}

START_TEST(stretches_stop_at_the_budget)
{
    straight_stretches("stretches stop at the budget", false);
    straight_stretches("barrier-bound stretches stop at the budget", true);
}
END_TEST

/* Loop segments run their fast copy (translate.c's emit_fast_loop: no budget check inside)
 * only from the head and only when the budget left covers a whole iteration; else, and where a
 * run comes in mid-iteration, the checked copy runs it µop by µop. Loops whose iterations are
 * 3, 4, 7, 16, 29, 30, 31, 45, 48, 49 and 70 µops long (two with a load inside, whose slow path
 * returns into the checked copy; one with a handler, sin.approx, whose return keeps the fast
 * copy's rows; one whose trips differ between lanes, so that its back edge diverges), in turns
 * of 29 and seeded slices, so that a turn's budget left at a head is every count from 0 to an
 * iteration's length (the longer loops' iterations span turns). A head check that lets the
 * fast copy in with one µop too few left runs past the budget: run()'s assert. Catches: the
 * head's comparison off by one (seg_last + 1 - i made seg_last - i in emit_uop's fast
 * branch); a row the loop writes left out of what the fast copy's exits store
 * (loop_writes_row() false). */
START_TEST(loops_stop_at_the_budget)
{
    static const int lens[] = {3, 4, 7, 16, 29, 30, 31, 45, 48, 49, 70};
    char ptx[32768];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", RUN_ENDS_HEAD);
    for (int blk = 0; blk < (int)(sizeof lens / sizeof *lens); blk++) {
        /* the add, setp and bra that end an iteration (and two more for the lane's trips) */
        int len = lens[blk] - 3 - (blk == 3 ? 2 : 0);
        n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    mov.u32 %%i, 0;\nL%d:\n", blk);
        if (blk == 4 || blk == 10) {
            /* a load 5 or 37 µops in */
            int at = blk == 4 ? 5 : 37;
            n = load_after(ptx, n, sizeof ptx, at, blk);
            len -= at + 2;
        } else if (blk == 6) {
            /* a handler 10 µops in */
            n = handler_after(ptx, n, sizeof ptx, 10, blk);
            len -= 14;
        }
        n = fillers(ptx, n, sizeof ptx, len, blk + 3);
        /* 5 to 15 trips; the 16-µop loop's from the lane (2 to 5) */
        if (blk == 3)
            n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                  "    add.u32 %%i, %%i, 1;\n"
                                  "    and.b32 %%x, %%t, 3;\n"
                                  "    add.u32 %%x, %%x, 2;\n"
                                  "    setp.lt.u32 %%p, %%i, %%x;\n"
                                  "    @%%p bra L%d;\n", blk);
        else
            n += (size_t)snprintf(ptx + n, sizeof ptx - n,
                                  "    add.u32 %%i, %%i, 1;\n"
                                  "    setp.lt.u32 %%p, %%i, %d;\n"
                                  "    @%%p bra L%d;\n", 5 + blk, blk);
    }
    store_rows(ptx, n, sizeof ptx);
    run_in_slices("loops stop at the budget", ptx, 3, 96, 24 * 3 * 128, "29", 4);
}
END_TEST

/* Runs k(in, out) of module m on 2 blocks of 96 threads with executor x, in turns of 29 warp
 * instructions, slices drawn from seed (0: none), into out (24 * 256 bytes: a thread's rows
 * at 24 * (128 * block + thread)). */
static void run_marked(const pk_module *m, emu_executor x, uint64_t seed, const uint32_t *in,
                       uint8_t *out)
{
    memset(out, 0, 24 * 256);
    uint64_t params[2] = {pk_addr(in), pk_addr(out)};
    emu_launch L = {0};
    L.module = m->emu;
    L.kernel = pk_kernel(m, "k");
    L.grid = (emu_dim3){2, 1, 1};
    L.block = (emu_dim3){96, 1, 1};
    L.params = params;
    L.params_size = sizeof params;
    L.policy = emu_direct_policy();
    L.executor = x;
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert_msg(g != NULL, "launch refused: %s", f.message);
    timing_engine_config cfg;
    timing_engine_defaults(&cfg);
    cfg.warp_budget = 29;
    cfg.seed = seed;
    ck_assert_msg(timing_run_grid(g, &cfg), "the kernel faulted");
    emu_grid_destroy(g);
}

/* iGPU region boundaries inside long straight segments (stretches: translate.c's
 * stretch_budget()): compiled code ends its run before a boundary µop and the interpreter runs
 * the boundary's block, so the µop after one is never fallen into and needs a side entry of
 * its own even inside a stretch (after_handler()). Boundaries on the fillers 5, 20, 33, 34
 * and 70 of a segment of about 115 µops and 5, 20 and 33 of one of 40 (in a kernel with and
 * one without a barrier), under the JIT executor against the step executor, in turns of 29
 * and seeded slices. Catches: the
 * boundary left out of after_handler() (emit_uop's assert at translation, aedb4a1's crash). */
START_TEST(region_boundaries_inside_stretches)
{
    for (int barrier = 0; barrier < 2; barrier++) {
        char ptx[32768];
        size_t n = (size_t)snprintf(ptx, sizeof ptx, "%s", RUN_ENDS_HEAD);
        if (barrier) n += (size_t)snprintf(ptx + n, sizeof ptx - n, "    bar.sync 0;\n");
        n = fillers(ptx, n, sizeof ptx, 97, 0);
        n = block_end(ptx, n, sizeof ptx, 0);
        n = fillers(ptx, n, sizeof ptx, 37, 5);
        n = block_end(ptx, n, sizeof ptx, 1);
        store_rows(ptx, n, sizeof ptx);
        pk_module m = pk_load_text(ptx, strlen(ptx), "marked.ptx");
        const ptx_function *fn = pk_kernel(&m, "k");
        uint8_t *mark = calloc(fn->ninstrs, 1);
        ck_assert_ptr_nonnull(mark);
        /* the first filler's instruction index: the head's 14 instructions, the barrier */
        uint32_t first = 14 + (uint32_t)barrier;
        static const uint32_t at[] = {5, 20, 33, 34, 70, 100 + 5, 100 + 20, 100 + 33};
        for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
            ck_assert_uint_lt(first + at[k], fn->ninstrs);
            mark[first + at[k]] = 1;
        }
        ck_assert(emu_module_set_region_boundaries(m.emu, fn, mark));
        free(mark);
        uint32_t *in = pk_dalloc(4 * 2 * 256);
        for (unsigned k = 0; k < 2 * 256; k++) in[k] = k * 2654435761u;
        uint8_t *want = pk_dalloc(24 * 256), *got = pk_dalloc(24 * 256);
        for (uint64_t seed = 0; seed < 4; seed++) {
            run_marked(&m, EMU_EXECUTOR_STEP, seed, in, want);
            emu_jit_stats before;
            emu_jit_get_stats(&before);
            run_marked(&m, EMU_EXECUTOR_JIT, seed, in, got);
            if (seed == 0) assert_compiled_since(&before);
            ck_assert_msg(memcmp(want, got, 24 * 256) == 0,
                          "barrier %d, seed %" PRIu64 ": the JIT's results differ", barrier, seed);
        }
        pk_unload(&m);
    }
}
END_TEST

/* A unary .approx.f32 instruction `op` (ex2, lg2) compiled against the step interpreter's:
 * plain and .ftz, every lane or under a guard, on the given edge inputs and then random bit
 * patterns (2^16 lanes in all). */
static void run_approx_f32_on_jit(const char *op, const uint32_t *edges, size_t nedges)
{
    char ptx[2048];
    int len = snprintf(ptx, sizeof ptx, CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %%t, %%n, %%i;\n"
        "    .reg .b64 %%in, %%out, %%o;\n"
        "    .reg .f32 %%x, %%a, %%b, %%c;\n"
        "    .reg .pred %%p;\n"
        "    ld.param.u64 %%in, [pin];\n"
        "    ld.param.u64 %%out, [pout];\n"
        "    mov.u32 %%t, %%ctaid.x;\n"
        "    mov.u32 %%n, %%ntid.x;\n"
        "    mov.u32 %%i, %%tid.x;\n"
        "    mad.lo.u32 %%t, %%t, %%n, %%i;\n"
        "    mul.wide.u32 %%o, %%t, 4;\n"
        "    add.u64 %%in, %%in, %%o;\n"
        "    ld.global.f32 %%x, [%%in];\n"
        "    %s.approx.f32 %%a, %%x;\n"
        "    %s.approx.ftz.f32 %%b, %%x;\n"
        "    mov.f32 %%c, 0f3F800000;\n"
        "    and.b32 %%n, %%t, 5;\n"
        "    setp.ne.u32 %%p, %%n, 0;\n"
        "    @%%p %s.approx.f32 %%c, %%x;\n"
        "    mul.wide.u32 %%o, %%t, 12;\n"
        "    add.u64 %%out, %%out, %%o;\n"
        "    st.global.f32 [%%out], %%a;\n"
        "    st.global.f32 [%%out+4], %%b;\n"
        "    st.global.f32 [%%out+8], %%c;\n"
        "    ret;\n}\n", op, op, op);
    ck_assert_int_lt(len, (int)sizeof ptx);
    enum { T = 256, B = 300, N = T * B };
    uint32_t *in = conf_dev_alloc(4 * N);
    uint8_t *out = conf_dev_alloc(12 * N);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < N; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        in[k] = (size_t)k < nedges ? edges[k] : (uint32_t)x;
    }
    char name[32];
    snprintf(name, sizeof name, "%s.approx", op);
    run_compiled_on_jit(name, ptx, B, T, in, out);
}

/* ex2.approx.f32 compiled (translate.c's ex2_f32, the handler for lanes near a float rounding
 * boundary) against the step interpreter's (float)exp2((double)x), on zeros, infinities, NaNs,
 * subnormals, the overflow and underflow edges and inputs bench/ex2_identical.sh found hard. */
START_TEST(ex2_approx_compiled)
{
    static const uint32_t edges[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
        0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
        0xbf800000, 0x43000000, 0x42fffffe, 0x42ffffff, 0x43000001, 0xc2fc0000, 0xc2fe0000,
        0xc3150000, 0xc3160000, 0xc3158000, 0xc3148000, 0xc2fc0001, 0xc2fbffff, 0x44800000,
        0xc4800000, 0x4b000000, 0xcb000000, 0x3effffff, 0x3f000000, 0xbf000000, 0x3f000001,
        0x34000000, 0xb4000000, 0x7f7fffff, 0xff7fffff, 0x4e800000, 0xce800000,
        /* hard (bench/ex2_identical.sh) */
        0x33b8aa3b, 0x36879cf7, 0x37e338eb, 0x383ecb1d, 0x3a07857c, 0x3a0b4316, 0x3b429d37,
        0x3b53aa14, 0xb338aa3a, 0xb338aa3b, 0xb338aa3c, 0xb40a7fad, 0xb466d4cb, 0xb4a194f5,
        0xb4fdea14, 0xb5160a52};
    run_approx_f32_on_jit("ex2", edges, sizeof edges / sizeof edges[0]);
}
END_TEST

/* lg2.approx.f32 compiled (translate.c's lg2_f32, the handler for lanes near a float rounding
 * boundary) against the step interpreter's (float)log2((double)x), on zeros, infinities, NaNs,
 * negatives, subnormals, powers of two, the neighbours of 1 and of sqrt(2) (where the reduction
 * switches) and inputs bench/lg2_identical.sh found hard. */
START_TEST(lg2_approx_compiled)
{
    static const uint32_t edges[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
        0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
        0xbf800000, 0x3f800001, 0x3f7fffff, 0x3f800002, 0x3f7ffffe, 0x3fb504f3, 0x3fb504f4,
        0x3fb504f2, 0x3f3504f3, 0x3f3504f4, 0x40000000, 0x3f000000, 0x4b000000, 0x34000000,
        0x7f7fffff, 0xff7fffff, 0x00400000, 0x00000002, 0x3fffffff, 0x3fc00000, 0x41200000,
        0xc1200000, 0x42c80000, 0x3dcccccd,
        /* hard (bench/lg2_identical.sh) */
        0x002452a4, 0x003ae024, 0x0048a548, 0x0075c048, 0x00914a90, 0x00974467, 0x00eb8090,
        0x01114a90, 0x3ea07ab9, 0x3feddffd, 0x40207ab9, 0x43ffc006, 0x447fc006, 0x47d54996};
    run_approx_f32_on_jit("lg2", edges, sizeof edges / sizeof edges[0]);
}
END_TEST

/* fma.rm.f32 and fma.rp.f32 compiled (translate.c's fma_f32_directed: on an AVX-512 host the
 * embedded rounding of fma_f32_embedded, else TwoSum in double, then the nearest float stepped
 * towards the rounding) against the step interpreter's fmaf under
 * the host's directed rounding, plain, .ftz and .sat: every triple of 18 edge values (zeros,
 * subnormals, the normal and overflow edges, one and its neighbours, infinities, NaN), triples
 * whose sum cancels (c = -(a b) rounded, and its neighbours), and random bit patterns. */
START_TEST(fma_directed_compiled)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %n, %i;\n"
        "    .reg .b64 %in, %out, %o;\n"
        "    .reg .f32 %a, %b, %c, %d<5>;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mov.u32 %n, %ntid.x;\n"
        "    mov.u32 %i, %tid.x;\n"
        "    mad.lo.u32 %t, %t, %n, %i;\n"
        "    mul.wide.u32 %o, %t, 12;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.f32 %a, [%in];\n"
        "    ld.global.f32 %b, [%in+4];\n"
        "    ld.global.f32 %c, [%in+8];\n"
        "    fma.rm.f32 %d0, %a, %b, %c;\n"
        "    fma.rp.f32 %d1, %a, %b, %c;\n"
        "    fma.rm.ftz.f32 %d2, %a, %b, %c;\n"
        "    fma.rp.ftz.sat.f32 %d3, %a, %b, %c;\n"
        "    fma.rm.sat.f32 %d4, %a, %b, %c;\n"
        "    mul.wide.u32 %o, %t, 20;\n"
        "    add.u64 %out, %out, %o;\n"
        "    st.global.f32 [%out], %d0;\n"
        "    st.global.f32 [%out+4], %d1;\n"
        "    st.global.f32 [%out+8], %d2;\n"
        "    st.global.f32 [%out+12], %d3;\n"
        "    st.global.f32 [%out+16], %d4;\n"
        "    ret;\n}\n";
    static const uint32_t edges[18] = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000,
        0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000,
        0xff800000, 0x7fc00000, 0x1f800000, 0x5f800000};
    enum { T = 256, B = 64, N = T * B };
    uint32_t *in = conf_dev_alloc(12 * N);
    uint8_t *out = conf_dev_alloc(20 * N);
    uint64_t x = 0x2545f4914f6cdd1du;
    int k = 0;
    for (int i = 0; i < 18; i++)
        for (int j = 0; j < 18; j++)
            for (int l = 0; l < 18; l++, k++) {
                in[3 * k] = edges[i];
                in[3 * k + 1] = edges[j];
                in[3 * k + 2] = edges[l];
            }
    for (; k < N; k++) {
        uint32_t r[3];
        for (int j = 0; j < 3; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            r[j] = (uint32_t)x;
        }
        if (k % 2) {
            /* a b + c cancels: c is -(a b) rounded to float, or a neighbour of it, a and b
             * of moderate exponents (also some subnormal products) */
            float fa, fb, fc;
            r[0] = (r[0] & 0x807fffffu) | ((100u + (r[2] >> 26)) << 23);
            r[1] = (r[1] & 0x807fffffu) | ((64u + ((r[2] >> 20) & 63)) << 23);
            memcpy(&fa, &r[0], 4);
            memcpy(&fb, &r[1], 4);
            fc = -(fa * fb);
            memcpy(&r[2], &fc, 4);
            r[2] += (uint32_t)(k % 5) - 2;
        }
        memcpy(&in[3 * k], r, 12);
    }
    run_compiled_on_jit("fma.rm/.rp", ptx, B, T, in, out);
}
END_TEST

/* Integer div and rem compiled inline (int_div_rem) on every pair of edge values (zero, 1, -1,
 * the most negative and positive values...) as 32-bit and 64-bit, signed and unsigned, with a
 * guard (the lanes it leaves out divide too, by zero among others) and immediate divisors,
 * against the step interpreter: division by zero and the most negative value by -1 as
 * sem_int_div/_rem define them. */
START_TEST(integer_division_on_edge_values)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "    .reg .b32 %t, %a, %b, %r, %k;\n"
        "    .reg .b64 %in, %out, %o, %xa, %xb, %ya, %dr;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %in, [pin];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mul.wide.u32 %o, %t, 8;\n"
        "    add.u64 %in, %in, %o;\n"
        "    ld.global.u32 %a, [%in];\n"
        "    ld.global.u32 %b, [%in+4];\n"
        "    cvt.s64.s32 %xa, %a;\n"
        "    cvt.s64.s32 %xb, %b;\n"
        "    shl.b64 %ya, %xa, 32;\n"
        "    and.b32 %k, %t, 1;\n"
        "    setp.ne.u32 %p, %k, 0;\n"
        "    mul.wide.u32 %o, %t, 128;\n"
        "    add.u64 %out, %out, %o;\n"
        "    div.s32 %r, %a, %b;\n    st.global.u32 [%out+0], %r;\n"
        "    div.u32 %r, %a, %b;\n    st.global.u32 [%out+4], %r;\n"
        "    rem.s32 %r, %a, %b;\n    st.global.u32 [%out+8], %r;\n"
        "    rem.u32 %r, %a, %b;\n    st.global.u32 [%out+12], %r;\n"
        "    mov.u32 %r, %a;\n"
        "    @%p div.u32 %r, %b, %a;\n    st.global.u32 [%out+16], %r;\n"
        "    mov.u32 %r, %b;\n"
        "    @!%p rem.s32 %r, %b, %a;\n    st.global.u32 [%out+20], %r;\n"
        "    div.u32 %r, %a, 7;\n    st.global.u32 [%out+24], %r;\n"
        "    rem.s32 %r, %a, -7;\n    st.global.u32 [%out+28], %r;\n"
        "    div.s32 %r, -2147483648, %b;\n    st.global.u32 [%out+32], %r;\n"
        "    div.s64 %dr, %ya, %xb;\n    st.global.u64 [%out+40], %dr;\n"
        "    rem.s64 %dr, %ya, %xb;\n    st.global.u64 [%out+48], %dr;\n"
        "    div.u64 %dr, %xa, %xb;\n    st.global.u64 [%out+56], %dr;\n"
        "    rem.u64 %dr, %ya, %xb;\n    st.global.u64 [%out+64], %dr;\n"
        "    div.s64 %dr, %xa, %xb;\n    st.global.u64 [%out+72], %dr;\n"
        "    rem.s64 %dr, %xa, %xb;\n    st.global.u64 [%out+80], %dr;\n"
        "    mov.u64 %dr, %xb;\n"
        "    @%p div.s64 %dr, %ya, %xa;\n    st.global.u64 [%out+88], %dr;\n"
        "    ret;\n}\n";
    static const uint32_t edge[] = {0, 1, 0xffffffffu, 2, 7, 0xfffffff9u, 0x80000000u,
                                    0x7fffffffu, 0x12345678u, 0xfffffffeu};
    enum { N = sizeof edge / sizeof *edge };
    uint8_t *in = conf_dev_alloc(N * N * 8), *out = conf_dev_alloc(N * N * 128);
    for (unsigned t = 0; t < N * N; t++) {
        memcpy(in + t * 8, &edge[t % N], 4);
        memcpy(in + t * 8 + 4, &edge[t / N], 4);
    }
    uint64_t params[2] = {(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out};
    run_on_jit_translated("integer division", ptx, (emu_dim3){1, 1, 1}, (emu_dim3){N * N, 1, 1},
                          params, 2, 1);
    /* the values themselves, beside the agreement: 0x80000000 / -1 and x / 0 */
    uint32_t q;
    unsigned t_min_by_m1 = 6 + N * 2;   /* a = 0x80000000, b = -1 */
    memcpy(&q, out + t_min_by_m1 * 128 + 0, 4);
    ck_assert_uint_eq(q, 0x80000000u);
    memcpy(&q, out + t_min_by_m1 * 128 + 8, 4);
    ck_assert_uint_eq(q, 0);
    unsigned t_by_zero = 4;             /* a = 7, b = 0 */
    memcpy(&q, out + t_by_zero * 128 + 4, 4);
    ck_assert_uint_eq(q, 0xffffffffu);
    memcpy(&q, out + t_by_zero * 128 + 12, 4);
    ck_assert_uint_eq(q, 7);
    conf_dev_free(in);
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jit");
    TCase *tc = tcase_create("random programs");
    tcase_set_timeout(tc, 120);
    int extra = getenv("JIT_FUZZ_SEEDS") ? atoi(getenv("JIT_FUZZ_SEEDS")) : 0;
    tcase_add_loop_test(tc, random_programs_jit, 0, FIXED_SEEDS + (extra > 0 ? extra : 0));
    tcase_add_loop_test(tc, random_programs_auto, 0, FIXED_SEEDS / 3);
    tcase_add_loop_test(tc, random_programs_auto_background, 0, 4);
    tcase_add_loop_test(tc, random_programs_jit_events, 0, FIXED_SEEDS / 2);
    tcase_add_loop_test(tc, random_programs_jit_slow_paths, 0, FIXED_SEEDS / 2);
    tcase_add_loop_test(tc, random_programs_auto_events, 0, FIXED_SEEDS / 4);
    tcase_add_test(tc, translates_most);
    tcase_add_test(tc, disk_cache);
    tcase_add_test(tc, disk_cache_keys_differ_by_one_field);
    tcase_add_test(tc, rows_kept_in_registers);
    tcase_add_test(tc, loops_kept_in_registers);
    tcase_add_test(tc, loop_loads_prefetch_their_stride);
    tcase_add_test(tc, divergence_resumed_in_compiled_code);
    tcase_add_test(tc, simple_semantics_on_special_values);
    tcase_add_test(tc, nan_payloads_through_bit_readers);
    tcase_add_test(tc, integer_division_on_edge_values);
    tcase_add_test(tc, contracted_fma_on_special_values);
    tcase_add_test(tc, uniform_power_of_two_divisors);
    tcase_add_test(tc, loop_with_more_rows_than_carried);
    tcase_add_test(tc, looped_global_loads_prefetch);
    tcase_add_test(tc, long_loop_segment);
    tcase_add_test(tc, rows_chained_across_blocks);
    tcase_add_test(tc, contracted_add_sources_live_across_segments);
    tcase_add_test(tc, ex2_approx_compiled);
    tcase_add_test(tc, lg2_approx_compiled);
    tcase_add_test(tc, fma_directed_compiled);
    tcase_add_test(tc, symbol_addresses);
    tcase_add_test(tc, shared_32bit_addresses);
    tcase_add_test(tc, shared_half_warp_shapes);
    tcase_add_test(tc, shared_shapes_kept_in_a_segment);
    tcase_add_test(tc, strided_shared_accesses);
    tcase_add_test(tc, global_sites_keep_their_allocation);
    tcase_add_test(tc, global_consecutive_halves);
    tcase_add_test(tc, thread_ids_by_warp_shape);
    tcase_add_test(tc, events_under_the_cycle_model);
    tcase_add_test(tc, auto_foresees_a_long_launch);
    tcase_add_test(tc, stretches_end_anywhere);
    tcase_add_test(tc, runs_entering_inside_blocks);
    suite_add_tcase(s, tc);
    TCase *ends = tcase_create("run ends");
    tcase_set_timeout(ends, 120);
    tcase_add_test(ends, whole_segments_stop_at_the_budget);
    tcase_add_test(ends, stretches_stop_at_the_budget);
    tcase_add_test(ends, region_boundaries_inside_stretches);
    tcase_add_test(ends, loops_stop_at_the_budget);
    tcase_add_test(ends, barrier_arrivals_in_compiled_code);
    tcase_add_test(ends, direct_edges_between_blocks);
    suite_add_tcase(s, ends);
    return conf_main(s);
}
