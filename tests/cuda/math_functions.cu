// math_functions.cu: the CUDA math library and integer intrinsics against the host's libm:
// single- and double-precision sin, cos, exp, log, pow, sqrt, atan2, erf, fma, within the
// error bounds the CUDA programming guide gives (in ulps, with margin), exact results where
// the guide requires them (sqrt, fma, rounding functions), and __clz, __popc, __brev, __ffs,
// __byte_perm, __umulhi, __mul24, __sad.
#include "check.cuh"

#include <cmath>
#include <cstdint>

#define N 256

__global__ void fmath(const float *x, float *out)
{
    int i = threadIdx.x;
    float v = x[i];
    out[0 * N + i] = sinf(v);
    out[1 * N + i] = cosf(v);
    out[2 * N + i] = expf(v * 0.25f);
    out[3 * N + i] = logf(fabsf(v) + 1.0f);
    out[4 * N + i] = powf(fabsf(v) + 0.5f, 1.7f);
    out[5 * N + i] = sqrtf(fabsf(v));
    out[6 * N + i] = atan2f(v, 1.5f);
    out[7 * N + i] = erff(v * 0.3f);
    out[8 * N + i] = fmaf(v, 1.25f, -0.5f);
    out[9 * N + i] = floorf(v) + ceilf(v) + truncf(v) + rintf(v);
}

__global__ void dmath(const double *x, double *out)
{
    int i = threadIdx.x;
    double v = x[i];
    out[0 * N + i] = sin(v);
    out[1 * N + i] = exp(v * 0.25);
    out[2 * N + i] = log(fabs(v) + 1.0);
    out[3 * N + i] = pow(fabs(v) + 0.5, 1.7);
    out[4 * N + i] = sqrt(fabs(v));
    out[5 * N + i] = fma(v, 1.25, -0.5);
}

__global__ void intrinsics(const unsigned *x, unsigned *out)
{
    int i = threadIdx.x;
    unsigned v = x[i];
    out[0 * N + i] = __clz(v);
    out[1 * N + i] = __popc(v);
    out[2 * N + i] = __brev(v);
    out[3 * N + i] = __ffs(v);
    out[4 * N + i] = __byte_perm(v, 0x11223344u, 0x5140);
    out[5 * N + i] = __umulhi(v, 0x9e3779b9u);
    out[6 * N + i] = (unsigned)__mul24((int)(v & 0x7fffff), 1000);
    out[7 * N + i] = __sad((int)v, 12345, 7);
}

static double ulps_f(float got, double ref)
{
    if (got == (float)ref)  /* the correctly rounded result */
        return 0;
    float r = (float)ref;
    float ulp = nextafterf(fabsf(r), INFINITY) - fabsf(r);
    return fabs(got - ref) / ulp;
}

static double ulps_d(double got, long double ref)
{
    if (got == (double)ref)  /* the correctly rounded result */
        return 0;
    double r = (double)ref;
    double ulp = nextafter(fabs(r), INFINITY) - fabs(r);
    return (double)(fabsl((long double)got - ref) / ulp);
}

int main()
{
    float x[N], out[10 * N], *dx, *dout;
    for (int i = 0; i < N; i++)
        x[i] = (i - N / 2) * 0.137f;
    CUDA_OK("setup", cudaMalloc(&dx, sizeof x));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    fmath<<<1, N>>>(dx, dout);
    CUDA_OK("float", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    double worst[10] = {0};
    for (int i = 0; i < N; i++) {
        double v = x[i];
        /* The arguments as the device computes them, in float; then the exact function. */
        float lg = fabsf(x[i]) + 1.0f, pw = fabsf(x[i]) + 0.5f, er = x[i] * 0.3f;
        double ref[10] = {sin(v), cos(v), exp(v * 0.25), log((double)lg), pow((double)pw, 1.7),
                          sqrt(fabs(v)), atan2(v, 1.5), erf((double)er), fma(v, 1.25, -0.5),
                          (double)(floorf(x[i]) + ceilf(x[i]) + truncf(x[i]) + rintf(x[i]))};
        for (int k = 0; k < 10; k++)
            worst[k] = fmax(worst[k], ulps_f(out[k * N + i], ref[k]));
    }
    // Programming guide bounds: sin/cos/exp/log 1-2 ulp, pow 4 (allow 8), atan2 3, erf 2;
    // sqrt, fma and the rounding functions are exact (correctly rounded).
    check(worst[0] <= 4 && worst[1] <= 4 && worst[2] <= 4 && worst[3] <= 4,
          "float_transcendental", "sin %g cos %g exp %g log %g ulps", worst[0], worst[1],
          worst[2], worst[3]);
    check(worst[4] <= 8 && worst[6] <= 4 && worst[7] <= 4, "float_pow_atan2_erf",
          "pow %g atan2 %g erf %g ulps", worst[4], worst[6], worst[7]);
    check(worst[5] == 0 && worst[8] == 0 && worst[9] == 0, "float_exact", "sqrt %g fma %g round %g",
          worst[5], worst[8], worst[9]);

    double dxh[N], dres[6 * N], *ddx, *ddo;
    for (int i = 0; i < N; i++)
        dxh[i] = (i - N / 2) * 0.0731;
    CUDA_OK("setup", cudaMalloc(&ddx, sizeof dxh));
    CUDA_OK("setup", cudaMalloc(&ddo, sizeof dres));
    CUDA_OK("setup", cudaMemcpy(ddx, dxh, sizeof dxh, cudaMemcpyHostToDevice));
    dmath<<<1, N>>>(ddx, ddo);
    CUDA_OK("double", cudaMemcpy(dres, ddo, sizeof dres, cudaMemcpyDeviceToHost));
    double dworst[6] = {0};
    for (int i = 0; i < N; i++) {
        long double v = dxh[i];
        /* The arguments as the device computes them, in double; then the exact function. */
        double lg = fabs(dxh[i]) + 1.0, pw = fabs(dxh[i]) + 0.5;
        long double ref[6] = {sinl(v), expl(v * 0.25L), logl((long double)lg),
                              powl((long double)pw, 1.7L), sqrtl(fabsl(v)),
                              (long double)fma((double)v, 1.25, -0.5)};
        for (int k = 0; k < 6; k++)
            dworst[k] = fmax(dworst[k], ulps_d(dres[k * N + i], ref[k]));
    }
    check(dworst[0] <= 2 && dworst[1] <= 2 && dworst[2] <= 2 && dworst[3] <= 4,
          "double_transcendental", "sin %g exp %g log %g pow %g ulps", dworst[0], dworst[1],
          dworst[2], dworst[3]);
    check(dworst[4] == 0 && dworst[5] == 0, "double_exact", "sqrt %g fma %g", dworst[4],
          dworst[5]);

    unsigned u[N], uo[8 * N], *du, *duo;
    for (int i = 0; i < N; i++)
        u[i] = i == 0 ? 0 : (unsigned)(i * 2654435761u) >> (i % 13);
    CUDA_OK("setup", cudaMalloc(&du, sizeof u));
    CUDA_OK("setup", cudaMalloc(&duo, sizeof uo));
    CUDA_OK("setup", cudaMemcpy(du, u, sizeof u, cudaMemcpyHostToDevice));
    intrinsics<<<1, N>>>(du, duo);
    CUDA_OK("intrinsics", cudaMemcpy(uo, duo, sizeof uo, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < N; i++) {
        unsigned v = u[i], rev = 0;
        for (int b = 0; b < 32; b++)
            rev |= ((v >> b) & 1u) << (31 - b);
        uint64_t y = 0x1122334411223344ull, xv = ((uint64_t)0x11223344u << 32) | v;
        (void)y;
        unsigned char bytes[8];
        for (int k = 0; k < 8; k++)
            bytes[k] = (unsigned char)(xv >> (8 * k));
        unsigned perm = bytes[0] | bytes[4] << 8 | bytes[1] << 16 | bytes[5] << 24;
        int a = (int)v, d = a > 12345 ? a - 12345 : 12345 - a;
        int m24 = (int)(v & 0x7fffff);
        int32_t s24 = (m24 << 8) >> 8;
        ok = ok && uo[i] == (v ? (unsigned)__builtin_clz(v) : 32u) &&
             uo[N + i] == (unsigned)__builtin_popcount(v) && uo[2 * N + i] == rev &&
             uo[3 * N + i] == (unsigned)__builtin_ffs((int)v) && uo[4 * N + i] == perm &&
             uo[5 * N + i] == (unsigned)(((uint64_t)v * 0x9e3779b9u) >> 32) &&
             uo[6 * N + i] == (unsigned)(s24 * 1000) && uo[7 * N + i] == (unsigned)(d + 7);
        if (!ok) {
            check(false, "integer_intrinsics", "value %#x at %d", v, i);
            break;
        }
    }
    if (ok)
        check(true, "integer_intrinsics", "");
    cudaFree(dx);
    cudaFree(dout);
    cudaFree(ddx);
    cudaFree(ddo);
    cudaFree(du);
    cudaFree(duo);
    return check_finish();
}
