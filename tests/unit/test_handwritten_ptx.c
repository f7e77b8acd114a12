/* test_handwritten_ptx.c: small PTX kernels written by hand, the way other toolchains and
 * people write PTX rather than the way nvcc does (tests/ptx/handwritten/): mixed carry chains,
 * set on halves, variables declared inside function bodies, vector registers and vector
 * parameters, .pred and multiple return values, and address expressions ([var+imm],
 * var+imm as a value). Each kernel k(.param .u64 out, .param .u64 in) runs one block of 32
 * threads on every executor (conf_run compares the step and block executors); its output
 * words are compared with a CPU reference written here from the PTX ISA's definitions. Each
 * module also prints and parses back to the same IR (ptx_print round trip). */
#include "tests/unit/conformance_harness.h"
#include "tests/unit/ptx_kernels.h"
#include "frontend/ptx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HW_THREADS = 32, HW_MAX_OUT = 512 };

typedef struct hw_case {
    const char *file;                     /* in tests/ptx/handwritten/ */
    unsigned nout;                        /* 32-bit output words */
    void (*ref)(const uint32_t *in, uint32_t *out);
    unsigned nin;                         /* 32-bit input words (in[i] = hw_input(i)) */
} hw_case;

/* The input words every kernel reads: a fixed pseudo-random sequence with edge values. */
static uint32_t hw_input(unsigned i)
{
    static const uint32_t edge[] = { 0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 0xfffffffeu, 5 };
    if (i < sizeof edge / sizeof edge[0]) return edge[i];
    uint32_t x = i * 0x9e3779b9u;
    x ^= x >> 15; x *= 0x85ebca6bu; x ^= x >> 13;
    return x;
}

/* ---------------------------------------------------------------- references */

/* The GPU's adder: a + b + cin in `bits` bits, and its carry out (PTX ISA add.cc/addc; sub.cc is
 * a + ~b + 1 and subc a + ~b + CC.CF, so CC.CF after a subtraction is 1 when it did not borrow). */
static uint64_t adder(uint64_t a, uint64_t b, unsigned cin, unsigned bits, unsigned *cout)
{
    unsigned __int128 m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    unsigned __int128 s = (unsigned __int128)(a & m) + (b & m) + cin;
    *cout = (unsigned)(s >> bits) & 1;
    return (uint64_t)(s & m);
}

static void ref_carry_mixed(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t a = in[t], b = in[t + 1], c = in[t + 2], d = in[t + 3], *o = &out[t * 6];
        unsigned cf;
        o[0] = (uint32_t)adder(a, ~b, 1, 32, &cf);
        o[1] = (uint32_t)adder(c, d, cf, 32, &cf);
        o[2] = (uint32_t)adder(0, 0, cf, 32, &cf);
        o[3] = (uint32_t)adder(a, b, 0, 32, &cf);
        o[4] = (uint32_t)adder(c, ~d, cf, 32, &cf);
        o[5] = (uint32_t)adder(0, ~0u, cf, 32, &cf);
    }
}

static void ref_mad_chain(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint64_t a0 = in[t], a1 = in[t + 1], b = in[t + 2], e = in[t + 3];
        unsigned __int128 p = (unsigned __int128)(a1 << 32 | a0) * b;
        unsigned __int128 x = (unsigned __int128)(a1 * e) << 64 | (e * b);
        unsigned __int128 y = (unsigned __int128)(a1 * a1) << 64 | (b * b);
        unsigned __int128 d = x - y;
        uint64_t borrow = x < y ? ~0ull : 0;
        uint32_t *o = &out[t * 9];
        o[0] = (uint32_t)p; o[1] = (uint32_t)(p >> 32); o[2] = (uint32_t)(p >> 64);
        o[3] = (uint32_t)d; o[4] = (uint32_t)(d >> 32); o[5] = (uint32_t)(d >> 64);
        o[6] = (uint32_t)(d >> 96); o[7] = (uint32_t)borrow; o[8] = (uint32_t)(borrow >> 32);
    }
}

/* Halves: decoded exactly; .ftz flushes f16 subnormals to a zero of the same sign. */
static double half(uint32_t h, bool bf, bool ftz)
{
    const conf_fmt *f = bf ? &CONF_FMT_BF16 : &CONF_FMT_F16;
    h &= 0xffff;
    bool sub = ((h >> f->mbits) & ((1u << f->ebits) - 1)) == 0 && (h & ((1u << f->mbits) - 1));
    double v = conf_mf_decode(f, h);
    return ftz && sub ? copysign(0.0, v) : v;
}
enum { C_LT, C_LE, C_GE, C_GT, C_EQ, C_NE, C_GTU, C_NEU };
static bool fcmp(int c, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (c) {
    case C_LT: return a < b;
    case C_LE: return a <= b;
    case C_GE: return a >= b;
    case C_GT: return a > b;
    case C_EQ: return a == b;
    case C_NE: return !un && a != b;
    case C_GTU: return un || a > b;
    default: return un || a != b;
    }
}
/* set.c.dtype.{f16x2,bf16x2}: per half, `one` when true (c combined by or with `orc`) */
static uint32_t set_x2(int c, uint32_t a, uint32_t b, bool bf, bool ftz, uint32_t one, bool orc)
{
    uint32_t d = 0;
    for (unsigned h = 0; h < 2; h++)
        if (fcmp(c, half(a >> (16 * h), bf, ftz), half(b >> (16 * h), bf, ftz)) || orc)
            d |= one << (16 * h);
    return d;
}

static void ref_set_half_pairs(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t a = in[t], b = in[t + 1], *o = &out[t * 5];
        o[0] = set_x2(C_LT, a, b, false, false, 0x3c00, false);
        o[1] = set_x2(C_GTU, a, b, false, false, 0xffff, false);
        o[2] = set_x2(C_EQ, a, b, false, true, 0xffff, false);
        o[3] = set_x2(C_NE, a, b, true, false, 0x3f80, false);
        o[4] = set_x2(C_LE, a, b, true, false, 0xffff, t & 1);
    }
}

static void ref_set_half_scalar(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t a = in[t], b = in[t + 1], *o = &out[t * 5];
        o[0] = fcmp(C_LT, half(a, false, false), half(b, false, false)) ? 0x3c00 : 0;
        o[1] = fcmp(C_GE, half(a, true, false), half(b, true, false)) ? 0x3f80 : 0;
        o[2] = fcmp(C_NEU, half(a, false, false), half(b, false, false)) ? 0xffffffffu : 0;
        o[3] = fcmp(C_LT, conf_f32(a), conf_f32(b)) ? 0x3c00 : 0;
        o[4] = fcmp(C_GT, half(a, true, false), half(b, true, false)) ? 0xffff : 0;
    }
}

static void ref_fscope_vars(const uint32_t *in, uint32_t *out)
{
    static const uint32_t tab_f[2] = { 100, 200 }, tab_g[2] = { 7, 9 };
    for (unsigned t = 0; t < HW_THREADS; t++) {
        unsigned i = t & 1;
        out[t * 4] = tab_f[i] * 3;
        out[t * 4 + 1] = tab_g[1 - i] * 5;   /* from_g's buf, written by thread t ^ 1 */
        out[t * 4 + 2] = 10 + HW_THREADS;    /* count after every thread's atom.add */
        out[t * 4 + 3] = t ^ 31;             /* the entry's own buf */
    }
}

static void ref_vec_regs(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t v[4] = { in[t], in[t + 1], in[t + 2], in[t + 3] }, *o = &out[t * 8];
        uint32_t w[4] = { v[0] + v[3], v[1] - v[2], v[2], v[3] };
        memcpy(o, w, sizeof w);
        uint32_t s = w[0] ^ w[3];
        o[4] = s;
        o[5] = s + w[1];
        o[6] = t;
        o[7] = (uint32_t)conf_b32((float)t * 2.0f);
    }
}

static void ref_func_pred(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t x = in[t];
        bool p = x & 1;
        out[t * 2] = p;
        out[t * 2 + 1] = (t & 1) ? (!p ? t : x) : (p ? 111 : 222);
    }
}

static void ref_func_multi_ret(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t a = in[t], b = in[t + 1] | 1, *o = &out[t * 8];
        const uint32_t *v = &in[(t & 7) * 4];
        uint32_t lo = v[0], hi = v[0];
        for (unsigned k = 1; k < 4; k++) {
            lo = v[k] < lo ? v[k] : lo;
            hi = v[k] > hi ? v[k] : hi;
        }
        o[0] = a / b;
        o[1] = a % b;
        o[2] = (uint32_t)conf_b32((float)(a / b));   /* cvt.rn.f32.u32: the host rounds to nearest */
        o[3] = b;
        o[4] = a;
        o[5] = hi;
        o[6] = lo;
        o[7] = hi;
    }
}

static void ref_addr_forms(const uint32_t *in, uint32_t *out)
{
    uint32_t a = 10 + 40 + 70 + 80 + 3000;   /* tab[0] + tab[3] + tab[6] + tab[7] + ctab[2] */
    for (unsigned t = 0; t < HW_THREADS; t++) {
        out[t * 4] = a;
        out[t * 4 + 1] = t;
        out[t * 4 + 2] = 5 + HW_THREADS;      /* sbuf[2] after every thread's atom.add */
        out[t * 4 + 3] = t + 100;
    }
}

static void ref_addr_values(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        out[t * 4] = 22;          /* tab+4 */
        out[t * 4 + 1] = 44;      /* (tab+4)+8 */
        out[t * 4 + 2] = 44 + 33; /* tab+12, and pt = tab+8 */
        out[t * 4 + 3] = t ^ 1;
    }
}

/* m8n8k16 with s8 inputs (PTX ISA, "Matrix Fragments for mma.m8n8k16"): thread l holds
 * A[l / 4][4 * (l % 4) .. +3] and C, D[l / 4][2 * (l % 4) .. +1]. With every B element 2, each
 * D element of row g is 2 * (the sum of row g of A) plus its C, whatever B's layout. */
static void ref_vec_subword(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        unsigned m = t & 15;
        uint32_t w0 = in[2 * m], w1 = in[2 * m + 1], *o = &out[t * 6];
        uint64_t hx = ((w0 & 0xffff) + (w1 >> 16)) & 0xffff;
        uint64_t rd = hx | (uint64_t)(w0 >> 16) << 16 | (uint64_t)(w1 & 0xffff) << 32 |
                      (uint64_t)(w1 >> 16) << 48;
        o[0] = (uint32_t)rd;
        o[1] = (uint32_t)(rd >> 32);
        o[2] = w0;
        int32_t r = (int8_t)(uint8_t)(w0 >> 8);
        o[3] = (uint32_t)r;
        int32_t row = 0;
        for (unsigned q = 0; q < 4; q++) {
            uint32_t w = in[2 * ((4 * (t / 4) + q) & 15)];
            for (unsigned k = 0; k < 4; k++) row += (int8_t)(uint8_t)(w >> (8 * k));
        }
        o[4] = (uint32_t)(2 * row + r);
        o[5] = (uint32_t)(2 * row + 5);
    }
}

static void ref_bigint_mul(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint64_t a = in[t] | (uint64_t)in[t + 1] << 32, b = in[t + 2] | (uint64_t)in[t + 3] << 32;
        unsigned __int128 p = (unsigned __int128)a * b;
        for (unsigned k = 0; k < 4; k++) out[t * 4 + k] = (uint32_t)(p >> (32 * k));
    }
}

static unsigned __int128 limbs128(const uint32_t *w)
{
    unsigned __int128 v = 0;
    for (int k = 3; k >= 0; k--) v = v << 32 | w[k];
    return v;
}

static void ref_bigint_sub_add(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        unsigned __int128 a = limbs128(&in[t]), b = limbs128(&in[t + 4]), c = limbs128(&in[t + 8]);
        unsigned __int128 d = a - b, e = d + c;
        for (unsigned k = 0; k < 4; k++) out[t * 6 + k] = (uint32_t)(e >> (32 * k));
        out[t * 6 + 4] = a < b ? 0xffffffffu : 0;
        out[t * 6 + 5] = e < d;   /* the carry out of d + c */
    }
}

static float ftz32(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

static void ref_set_classic(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t a = in[t], b = in[t + 1], *o = &out[t * 5];
        float fa = conf_f32(a), fb = conf_f32(b), za = ftz32(fa), zb = ftz32(fb);
        bool p = t & 1;
        o[0] = fa < fb ? 0x3f800000u : 0;
        o[1] = (isnan(za) || isnan(zb) || za > zb) ? 0xffffffffu : 0;
        o[2] = ((int32_t)a < (int32_t)b && p) ? 0xffffffffu : 0;
        o[3] = ((a > b) != !p) ? 0xffffffffu : 0;
        o[4] = ((!isnan(fa) && !isnan(fb)) || p) ? 0xffffffffu : 0;
    }
}

static void ref_fscope_nested(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        out[t * 2] = 2 + 1000;   /* the first block's g[1], plus base */
        out[t * 2 + 1] = 30 + t; /* the second block's g[0] */
    }
}

static void ref_vec_rgba_func(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        float s[4] = { (float)t * 0.125f, 0.5f, 0.0f, (float)(t & 3) * 0.25f };
        float d[4] = { 1.0f, 1.0f, 2.0f, 1.0f };
        float ia = 1.0f - s[3];
        for (unsigned k = 0; k < 3; k++) out[t * 4 + k] = (uint32_t)conf_b32(fmaf(s[k], s[3], d[k] * ia));
        out[t * 4 + 3] = 0x3f800000u;
    }
}

static void ref_pred_recursive(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) out[t] = (t % 2 == 0) ? 2 : 3;
}

static void ref_addr_param_struct(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        out[t * 4] = t;
        out[t * 4 + 1] = 77;
        out[t * 4 + 2] = in[t];
        out[t * 4 + 3] = in[t + 1];
    }
}

static void ref_set_f16x2_mask(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint32_t x = in[t] & 0xbbffbbffu, m = 0, y = 0;
        for (unsigned h = 0; h < 2; h++) {
            uint32_t xh = (x >> (16 * h)) & 0xffff;
            bool gt = half(xh, false, false) > 0;
            m |= (gt ? 0x3c00u : 0) << (16 * h);
            y |= (gt ? xh : (xh & 0x8000)) << (16 * h);   /* x * 1.0, or a zero signed like x */
        }
        out[t * 2] = m;
        out[t * 2 + 1] = y;
    }
}

static void ref_carry_mixed64(const uint32_t *in, uint32_t *out)
{
    for (unsigned t = 0; t < HW_THREADS; t++) {
        uint64_t a = in[t] | (uint64_t)in[t + 1] << 32, b = in[t + 1];
        uint64_t c = in[t + 2] | (uint64_t)in[t + 3] << 32, d = in[t + 3], r[5];
        unsigned cf;
        r[0] = adder(a, ~c, 1, 64, &cf);
        r[1] = adder(b, d, cf, 64, &cf);
        r[2] = adder(a, c, 0, 64, &cf);
        r[3] = adder(b, ~d, cf, 64, &cf);
        r[4] = adder(0, ~0ull, cf, 64, &cf);
        for (unsigned k = 0; k < 5; k++) {
            out[t * 10 + 2 * k] = (uint32_t)r[k];
            out[t * 10 + 2 * k + 1] = (uint32_t)(r[k] >> 32);
        }
    }
}

static const hw_case cases[] = {
    { "carry_mixed.ptx", 6 * HW_THREADS, ref_carry_mixed, HW_THREADS + 3 },
    { "mad_chain.ptx", 9 * HW_THREADS, ref_mad_chain, HW_THREADS + 3 },
    { "set_half_pairs.ptx", 5 * HW_THREADS, ref_set_half_pairs, HW_THREADS + 1 },
    { "set_half_scalar.ptx", 5 * HW_THREADS, ref_set_half_scalar, HW_THREADS + 1 },
    { "fscope_vars.ptx", 4 * HW_THREADS, ref_fscope_vars, 0 },
    { "vec_regs.ptx", 8 * HW_THREADS, ref_vec_regs, HW_THREADS + 3 },
    { "func_pred.ptx", 2 * HW_THREADS, ref_func_pred, HW_THREADS },
    { "func_multi_ret.ptx", 8 * HW_THREADS, ref_func_multi_ret, HW_THREADS + 3 },
    { "addr_forms.ptx", 4 * HW_THREADS, ref_addr_forms, 0 },
    { "addr_values.ptx", 4 * HW_THREADS, ref_addr_values, 0 },
    { "vec_subword.ptx", 6 * HW_THREADS, ref_vec_subword, HW_THREADS },
    { "bigint_mul.ptx", 4 * HW_THREADS, ref_bigint_mul, HW_THREADS + 3 },
    { "bigint_sub_add.ptx", 6 * HW_THREADS, ref_bigint_sub_add, HW_THREADS + 11 },
    { "set_classic.ptx", 5 * HW_THREADS, ref_set_classic, HW_THREADS + 1 },
    { "fscope_nested.ptx", 2 * HW_THREADS, ref_fscope_nested, 0 },
    { "vec_rgba_func.ptx", 4 * HW_THREADS, ref_vec_rgba_func, 0 },
    { "pred_recursive.ptx", HW_THREADS, ref_pred_recursive, 0 },
    { "addr_param_struct.ptx", 4 * HW_THREADS, ref_addr_param_struct, HW_THREADS + 1 },
    { "set_f16x2_mask.ptx", 2 * HW_THREADS, ref_set_f16x2_mask, HW_THREADS },
    { "carry_mixed64.ptx", 10 * HW_THREADS, ref_carry_mixed64, HW_THREADS + 3 },
};

static char *read_case(const hw_case *c, char *path, size_t plen)
{
    snprintf(path, plen, "tests/ptx/handwritten/%s", c->file);
    size_t len;
    char *text = pk_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    return text;
}

START_TEST(runs_like_the_reference)
{
    const hw_case *c = &cases[_i];
    char path[256];
    char *text = read_case(c, path, sizeof path);
    uint32_t *out = conf_dev_alloc(HW_MAX_OUT * 4), *in = conf_dev_alloc(HW_MAX_OUT * 4);
    uint32_t host_in[HW_MAX_OUT] = { 0 }, want[HW_MAX_OUT] = { 0 };
    ck_assert(c->nout <= HW_MAX_OUT && c->nin <= HW_MAX_OUT);
    for (unsigned i = 0; i < c->nin; i++) in[i] = host_in[i] = hw_input(i);
    c->ref(host_in, want);
    uint64_t params[2] = { conf_dev_addr(out), conf_dev_addr(in) };
    conf_result r;
    conf_status st = conf_run_k(path, text, pk_dim3(1, 1, 1), pk_dim3(HW_THREADS, 1, 1), 0,
                                params, 2, &r);
    ck_assert_msg(st == CONF_OK, "%s: %s: %s", path, conf_status_name(st), r.message);
    for (unsigned i = 0; i < c->nout; i++)
        ck_assert_msg(out[i] == want[i], "%s: word %u: got 0x%08x, want 0x%08x", path, i, out[i],
                      want[i]);
    conf_dev_free(out);
    conf_dev_free(in);
    free(text);
}
END_TEST

START_TEST(prints_and_parses_back)
{
    const hw_case *c = &cases[_i];
    char path[256];
    char *text = read_case(c, path, sizeof path);
    ptx_module *m = pk_parse(text, path);
    char *printed = NULL;
    size_t plen = 0;
    FILE *f = open_memstream(&printed, &plen);
    ck_assert(f != NULL);
    ptx_print(m, f);
    fclose(f);
    ptx_diag d = { 0 };
    ptx_module *back = ptx_parse(printed, plen, path, &d);
    ck_assert_msg(back != NULL, "%s: the printed module does not parse:\n%s\n%s", path,
                  d.text ? d.text : "", printed);
    char why[512] = "";
    ck_assert_msg(ptx_module_equal(m, back, why, sizeof why), "%s: round trip differs: %s",
                  path, why);
    ptx_module_free(back);
    ptx_module_free(m);
    ptx_diag_free(&d);
    free(printed);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("handwritten_ptx");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    int n = (int)(sizeof cases / sizeof cases[0]);
    tcase_add_loop_test(tc, runs_like_the_reference, 0, n);
    tcase_add_loop_test(tc, prints_and_parses_back, 0, n);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
