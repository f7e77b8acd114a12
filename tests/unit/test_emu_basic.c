/* test_emu_basic.c: real nvcc kernels (tests/ptx/emu/kernels_*.ptx, from
 * tests/ptx/emu/src/kernels.cu) run on the emulator and the serial engine, each result checked
 * against a CPU reference: grid-stride loops, shared memory and barriers, recursion, nested
 * divergence with early exit, warp intrinsics, tiled matmul, atomics, math and conversions. */
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ptx_files[] = {
    "tests/ptx/emu/kernels_sm75.ptx",
    "tests/ptx/emu/kernels_sm90.ptx",
    "tests/ptx/emu/kernels_sm75_G.ptx",
};

static pk_module mod;

static void load_variant(int i) { mod = pk_load_file(ptx_files[i]); }
static void unload(void) { pk_unload(&mod); }

/* The direct memory policy on 4 SMs, default engine. */
static bool run(const char *kernel, emu_dim3 grid, emu_dim3 block, uint32_t dsmem,
                const uint64_t *args, emu_fault *fault)
{
    pk_launch l = { .grid = grid, .block = block, .dynamic_smem = dsmem,
                    .policy = emu_direct_policy(), .sm_count = 4 };
    return pk_run(&mod, kernel, &l, args, fault);
}

START_TEST(vadd_grid_stride)
{
    load_variant(_i);
    int n = 1000;
    float *a = pk_dalloc(n * 4), *b = pk_dalloc(n * 4), *c = pk_dalloc(n * 4);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(n - i);
    }
    uint64_t args[] = { pk_addr(a), pk_addr(b), pk_addr(c), (uint64_t)n };
    run("vadd", pk_dim3(3, 1, 1), pk_dim3(128, 1, 1), 0, args, NULL);
    const float coef[4] = { 1, 2, 3, 4 };
    for (int i = 0; i < n; i++) ck_assert_float_eq(c[i], a[i] + b[i] * coef[i & 3]);
    emu_device_free(pk_addr(a));
    emu_device_free(pk_addr(b));
    emu_device_free(pk_addr(c));
    unload();
}
END_TEST

START_TEST(reduce_shared_atomics)
{
    load_variant(_i);
    int n = 1000, bs = 128, nb = (n + bs - 1) / bs;
    float *in = pk_dalloc(n * 4), *out = pk_dalloc(4);
    double ref = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (float)(i % 17);
        ref += in[i];
    }
    uint64_t args[] = { pk_addr(in), pk_addr(out), (uint64_t)n };
    run("reduce", pk_dim3(nb, 1, 1), pk_dim3(bs, 1, 1), bs * 4, args, NULL);
    ck_assert_float_eq(*out, (float)ref);
    uint64_t ga, gs;
    ck_assert(emu_module_symbol(mod.emu, "gcount", &ga, &gs));
    ck_assert_uint_eq(gs, 4);
    ck_assert_int_eq(*(int *)(uintptr_t)ga, nb * bs);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

START_TEST(recursion)
{
    load_variant(_i);
    int *o = pk_dalloc(64 * 4);
    uint64_t args[] = { pk_addr(o) };
    run("recurse", pk_dim3(1, 1, 1), pk_dim3(64, 1, 1), 0, args, NULL);
    for (int t = 0; t < 64; t++) ck_assert_int_eq(o[t], fib(t % 16));
    emu_device_free(pk_addr(o));
    unload();
}
END_TEST

static int diverge_ref(int v)
{
    int acc = 0;
    if (v & 1) {
        for (int k = 0; k < (v & 15); k++) {
            if (k & 1) acc += k * v;
            else acc -= k;
            if (acc > 1000) break;
        }
    } else if (v % 3 == 0) {
        int x = v;
        while (x > 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            acc++;
        }
        if (acc > 50) return -acc;
    } else {
        acc = v * v;
        if (v > 100) acc = -acc;
    }
    return acc;
}

START_TEST(divergence)
{
    load_variant(_i);
    int n = 300;
    int *in = pk_dalloc(n * 4), *out = pk_dalloc(512 * 4);
    for (int i = 0; i < n; i++) in[i] = (i * 7919) % 251;
    for (int i = 0; i < 512; i++) out[i] = 0x5a5a5a5a;
    uint64_t args[] = { pk_addr(in), pk_addr(out), (uint64_t)n };
    run("diverge", pk_dim3(4, 1, 1), pk_dim3(96, 1, 1), 0, args, NULL);
    for (int i = 0; i < n; i++) ck_assert_msg(out[i] == diverge_ref(in[i]), "i=%d v=%d got %d want %d", i, in[i], out[i], diverge_ref(in[i]));
    for (int i = n; i < 512; i++) ck_assert_int_eq(out[i], 0x5a5a5a5a); /* early exit wrote nothing */
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

static unsigned brev32(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

START_TEST(warp_intrinsics)
{
    load_variant(_i);
    int *in = pk_dalloc(32 * 4), *out = pk_dalloc(32 * 8 * 4);
    for (int t = 0; t < 32; t++) in[t] = t * 37 - 500;
    uint64_t args[] = { pk_addr(in), pk_addr(out) };
    run("warpops", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), 0, args, NULL);
    unsigned ballot = 0;
    for (int t = 0; t < 32; t++) ballot |= (unsigned)(in[t] & 1) << t;
    for (int t = 0; t < 32; t++) {
        int *o = &out[t * 8];
        ck_assert_int_eq(o[0], in[t + 1 <= 31 ? t + 1 : t]);
        ck_assert_int_eq(o[1], in[t >= 3 ? t - 3 : t]);
        ck_assert_int_eq(o[2], in[t ^ 5]);
        ck_assert_int_eq(o[3], in[7]);
        ck_assert_int_eq((unsigned)o[4], ballot);
        ck_assert_int_eq(o[5], 1);
        ck_assert_int_eq(o[6], __builtin_popcount((unsigned)in[t]) +
                                   100 * (in[t] ? __builtin_clz((unsigned)in[t]) : 32));
        ck_assert_uint_eq((unsigned)o[7], brev32((unsigned)in[t]));
    }
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(out));
    unload();
}
END_TEST

START_TEST(matmul_tiled)
{
    load_variant(_i);
    int n = 19;  /* not a multiple of the 8x8 tile */
    float *a = pk_dalloc(n * n * 4), *b = pk_dalloc(n * n * 4), *c = pk_dalloc(n * n * 4);
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)((i * 3) % 7) - 3;
        b[i] = (float)((i * 5) % 11) * 0.25f;
    }
    uint64_t args[] = { pk_addr(a), pk_addr(b), pk_addr(c), (uint64_t)n };
    int nt = (n + 7) / 8;
    run("matmul", pk_dim3(nt, nt, 1), pk_dim3(8, 8, 1), 0, args, NULL);
    for (int r = 0; r < n; r++)
        for (int col = 0; col < n; col++) {
            float acc = 0;
            for (int k = 0; k < n; k++) acc += a[r * n + k] * b[k * n + col];
            ck_assert_msg(fabsf(c[r * n + col] - acc) <= 1e-4f * (1 + fabsf(acc)),
                          "C[%d][%d] = %g, want %g", r, col, c[r * n + col], acc);
        }
    emu_device_free(pk_addr(a));
    emu_device_free(pk_addr(b));
    emu_device_free(pk_addr(c));
    unload();
}
END_TEST

START_TEST(histogram_atomics)
{
    load_variant(_i);
    int n = 2000;
    unsigned *in = pk_dalloc(n * 4), *hist = pk_dalloc(16 * 4);
    unsigned long long *stats = pk_dalloc(4 * 8);
    unsigned ref[16] = { 0 };
    unsigned long long mx = 0, mn = ~0ull, sum = 0;
    unsigned x = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (unsigned)(i * 2654435761u) >> 7;
        ref[in[i] & 15]++;
        mx = in[i] > mx ? in[i] : mx;
        mn = in[i] < mn ? in[i] : mn;
        sum += in[i];
        x ^= in[i];
    }
    stats[0] = 0;
    stats[1] = ~0ull;
    stats[2] = 0;
    stats[3] = 0;
    uint64_t args[] = { pk_addr(in), pk_addr(hist), (uint64_t)n, pk_addr(stats) };
    run("histo", pk_dim3(5, 1, 1), pk_dim3(64, 1, 1), 0, args, NULL);
    for (int i = 0; i < 16; i++) ck_assert_uint_eq(hist[i], ref[i]);
    ck_assert_uint_eq(stats[0], mx);
    ck_assert_uint_eq(stats[1], mn);
    ck_assert_uint_eq(stats[2], sum);
    ck_assert_uint_eq((unsigned)stats[3], x);
    emu_device_free(pk_addr(in));
    emu_device_free(pk_addr(hist));
    emu_device_free(pk_addr(stats));
    unload();
}
END_TEST

START_TEST(math_and_conversions)
{
    load_variant(_i);
    static const float xs[] = { 0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -2.5f, 3.5f, 0.49999997f,
                                1e-3f, 123.456f, -77.7f, 1e30f, -1e30f, 0.75f, 7.0f, -7.5f };
    int n = (int)(sizeof xs / sizeof xs[0]);
    float *x = pk_dalloc(n * 4), *yf = pk_dalloc(n * 16);
    double *yd = pk_dalloc(n * 16);
    int *yi = pk_dalloc(n * 16);
    memcpy(x, xs, sizeof xs);
    uint64_t args[] = { pk_addr(x), pk_addr(yf), pk_addr(yd), pk_addr(yi), (uint64_t)n };
    run("mathk", pk_dim3(1, 1, 1), pk_dim3(32, 1, 1), 0, args, NULL);
    for (int i = 0; i < n; i++) {
        float v = xs[i];
        float sat = isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
        /* CUDA's float -> int conversions saturate (cvt.rzi.s32.f32) */
        double vi = truncf(v);
        int iv = vi >= 2147483647.0 ? 2147483647 : vi <= -2147483648.0 ? (-2147483647 - 1) : (int)vi;
        double vu = truncf(v * v);
        unsigned uv = vu >= 4294967295.0 ? 4294967295u : (unsigned)vu;
        ck_assert_float_eq(yf[i * 4 + 0], sqrtf(fabsf(v)) + v / 3.0f);
        ck_assert_float_eq(yf[i * 4 + 1], fminf(v, 2.5f) * fmaxf(v, -1.0f));
        ck_assert_float_eq(yf[i * 4 + 2], sat + floorf(v) + ceilf(v) + truncf(v) + rintf(v));
        ck_assert_float_eq(yf[i * 4 + 3], (float)iv + (float)uv);
        if (v >= 0) ck_assert_double_eq(yd[i * 2 + 0], sqrt((double)v) + (double)v / 7.0);
        else ck_assert(isnan(yd[i * 2 + 0]));
        ck_assert_double_eq(yd[i * 2 + 1], fma((double)v, 1.5, -2.0));
        ck_assert_int_eq(yi[i * 4 + 0], iv);
        float r10 = rintf(v * 10.0f);
        int i10 = r10 >= 2147483647.0f ? 2147483647 : r10 <= -2147483648.0f ? (-2147483647 - 1) : (int)r10;
        ck_assert_int_eq(yi[i * 4 + 1], i10);
        double dd = trunc((double)v * 1e10 / 1e9);
        long long ll = dd >= 9.2233720368547758e18 ? 9223372036854775807LL
                       : dd <= -9.2233720368547758e18 ? (-9223372036854775807LL - 1) : (long long)dd;
        ck_assert_int_eq(yi[i * 4 + 2], (int)ll);
        int m = iv < -3 ? -3 : iv > 3 ? 3 : iv;
        ck_assert_int_eq(yi[i * 4 + 3], m * 7 % 5);
    }
    emu_device_free(pk_addr(x));
    emu_device_free(pk_addr(yf));
    emu_device_free(pk_addr(yd));
    emu_device_free(pk_addr(yi));
    unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu_basic");
    TCase *tc = tcase_create("nvcc_kernels");
    tcase_set_timeout(tc, 120);
    int nv = (int)(sizeof ptx_files / sizeof ptx_files[0]);
    tcase_add_loop_test(tc, vadd_grid_stride, 0, nv);
    tcase_add_loop_test(tc, reduce_shared_atomics, 0, nv);
    tcase_add_loop_test(tc, recursion, 0, nv);
    tcase_add_loop_test(tc, divergence, 0, nv);
    tcase_add_loop_test(tc, warp_intrinsics, 0, nv);
    tcase_add_loop_test(tc, matmul_tiled, 0, nv);
    tcase_add_loop_test(tc, histogram_atomics, 0, nv);
    tcase_add_loop_test(tc, math_and_conversions, 0, nv);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pk_main(suite()); }
