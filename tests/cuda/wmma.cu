// wmma.cu: the nvcuda::wmma API for every shape and type of sm_80 against a CPU matrix
// multiply: half (m16n16k16, m32n8k16, m8n32k16) with float and half accumulators and every
// combination of row/col layouts and strides, bf16, tf32 (m16n16k8), double (m8n8k4), s8/u8
// with int accumulators and saturation, s4/u4 (m8n8k32) and b1 (m8n8k128, AND and XOR popc);
// a tiled GEMM of several warps; and the fragment element layout of sm_80 GPUs (which matrix
// element fragment.x[i] of each lane holds).
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace nvcuda;
namespace wexp = nvcuda::wmma::experimental;

// ---------------------------------------------------------------- generic half/bf16/tf32/f64 kernels

template <int M, int N, int K, typename TI, typename TA, typename LA, typename LB, typename TC>
__global__ void mma_kernel(const TA *a, int lda, const TA *b, int ldb, const TC *c, int ldc,
                           TC *d, int ldd, bool c_row, bool d_row, TC scale)
{
    wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, c_row ? wmma::mem_row_major : wmma::mem_col_major);
    wmma::mma_sync(fc, fa, fb, fc);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] = fc.x[i] * scale;
    wmma::store_matrix_sync(d, fc, ldd, d_row ? wmma::mem_row_major : wmma::mem_col_major);
}

template <typename T> static float tof(T v);
template <> float tof<float>(float v) { return v; }
template <> float tof<double>(double v) { return (float)v; }
template <> float tof<half>(half v) { return __half2float(v); }
template <typename T> static T fromf(float v);
template <> float fromf<float>(float v) { return v; }
template <> double fromf<double>(float v) { return v; }
template <> half fromf<half>(float v) { return __float2half(v); }
template <> __nv_bfloat16 fromf<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

template <typename L> constexpr bool is_row() { return std::is_same<L, wmma::row_major>::value; }

// Runs one form: matrices of small integers (exact in every type), padded leading dimensions.
template <int M, int N, int K, typename TI, typename TA, typename LA, typename LB, typename TC>
static void run_form(const char *name, bool c_row, bool d_row)
{
    const int lda = (is_row<LA>() ? K : M) + 8, ldb = (is_row<LB>() ? N : K) + 8;
    const int ldc = (c_row ? N : M) + 4, ldd = (d_row ? N : M) + 4;
    std::vector<TA> ha(lda * (is_row<LA>() ? M : K)), hb(ldb * (is_row<LB>() ? K : N));
    std::vector<TC> hc(ldc * (c_row ? M : N)), hd(ldd * (d_row ? M : N));
    std::vector<float> A(M * K), B(K * N), C(M * N);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            A[i * K + k] = (float)((i * 3 + k * 5) % 7 - 3);
            ha[is_row<LA>() ? i * lda + k : k * lda + i] = fromf<TA>(A[i * K + k]);
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            B[k * N + j] = (float)((k * 2 + j * 7) % 5 - 2);
            hb[is_row<LB>() ? k * ldb + j : j * ldb + k] = fromf<TA>(B[k * N + j]);
        }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            C[i * N + j] = (float)((i + 2 * j) % 9 - 4);
            hc[c_row ? i * ldc + j : j * ldc + i] = fromf<TC>(C[i * N + j]);
        }
    TA *da, *db;
    TC *dc, *dd;
    cudaMalloc(&da, ha.size() * sizeof(TA));
    cudaMalloc(&db, hb.size() * sizeof(TA));
    cudaMalloc(&dc, hc.size() * sizeof(TC));
    cudaMalloc(&dd, hd.size() * sizeof(TC));
    cudaMemcpy(da, ha.data(), ha.size() * sizeof(TA), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), hb.size() * sizeof(TA), cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), hc.size() * sizeof(TC), cudaMemcpyHostToDevice);
    cudaMemset(dd, 0, hd.size() * sizeof(TC));
    mma_kernel<M, N, K, TI, TA, LA, LB, TC><<<1, 32>>>(da, lda, db, ldb, dc, ldc, dd, ldd, c_row,
                                                     d_row, fromf<TC>(2.0f));
    cudaError_t e = cudaMemcpy(hd.data(), dd, hd.size() * sizeof(TC), cudaMemcpyDeviceToHost);
    int bad = -1;
    float got = 0, want = 0;
    for (int i = 0; i < M && bad < 0 && e == cudaSuccess; i++)
        for (int j = 0; j < N && bad < 0; j++) {
            float s = C[i * N + j];
            for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
            want = 2 * s;
            got = tof<TC>(hd[d_row ? i * ldd + j : j * ldd + i]);
            if (got != want) bad = i * N + j;
        }
    check(e == cudaSuccess && bad < 0, name, "%s; element %d: got %g, want %g",
          cudaGetErrorName(e), bad, got, want);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
}

// ---------------------------------------------------------------- integers

template <int M, int N, int K, typename T>
__global__ void int_kernel(const T *a, const T *b, const int *c, int *d, bool sat)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, int> fc;
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc, sat);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

template <int M, int N, int K, typename T>
static void run_int(const char *name, bool is_signed, bool sat)
{
    std::vector<T> ha(M * K), hb(K * N);   // A row-major, B column-major (N x K)
    std::vector<int> hc(M * N), hd(M * N);
    for (int i = 0; i < M * K; i++) ha[i] = (T)(is_signed ? (i * 37) % 255 - 127 : (i * 53) % 256);
    for (int i = 0; i < K * N; i++) hb[i] = (T)(is_signed ? (i * 91) % 255 - 127 : (i * 29) % 256);
    for (int i = 0; i < M * N; i++) hc[i] = sat ? (i % 2 ? 2147483000 : -2147483000) : i * 1000 - 7;
    T *da, *db;
    int *dc, *dd;
    cudaMalloc(&da, M * K);
    cudaMalloc(&db, K * N);
    cudaMalloc(&dc, M * N * 4);
    cudaMalloc(&dd, M * N * 4);
    cudaMemcpy(da, ha.data(), M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), K * N, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), M * N * 4, cudaMemcpyHostToDevice);
    int_kernel<M, N, K, T><<<1, 32>>>(da, db, dc, dd, sat);
    cudaMemcpy(hd.data(), dd, M * N * 4, cudaMemcpyDeviceToHost);
    int bad = -1;
    long long want = 0;
    for (int i = 0; i < M && bad < 0; i++)
        for (int j = 0; j < N && bad < 0; j++) {
            long long s = hc[i * N + j];
            for (int k = 0; k < K; k++) s += (long long)ha[i * K + k] * (long long)hb[j * K + k];
            if (sat) s = s > 2147483647LL ? 2147483647LL : s < -2147483648LL ? -2147483648LL : s;
            else s = (int)(unsigned)(s & 0xffffffffu);
            want = s;
            if (hd[i * N + j] != (int)s) bad = i * N + j;
        }
    check(bad < 0, name, "element %d: got %d, want %lld", bad, bad >= 0 ? hd[bad] : 0, want);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
}

// s4 (8 per word) and b1 (32 per word); A row-major, B column-major, words of K elements
__global__ void s4_kernel(const unsigned *a, const unsigned *b, int *d, bool is_signed)
{
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 5);
    if (is_signed) {
        wmma::fragment<wmma::matrix_a, 8, 8, 32, wexp::precision::s4, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, wexp::precision::s4, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, a, 32);
        wmma::load_matrix_sync(fb, b, 32);
        wmma::mma_sync(fc, fa, fb, fc);
    } else {
        wmma::fragment<wmma::matrix_a, 8, 8, 32, wexp::precision::u4, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, wexp::precision::u4, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, a, 32);
        wmma::load_matrix_sync(fb, b, 32);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

__global__ void b1_kernel(const unsigned *a, const unsigned *b, int *d, bool use_xor)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wexp::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wexp::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::fill_fragment(fc, -3);
    wmma::load_matrix_sync(fa, a, 128);
    wmma::load_matrix_sync(fb, b, 128);
    if (use_xor) wmma::bmma_sync(fc, fa, fb, fc, wexp::bmmaBitOpXOR);
    else wmma::bmma_sync(fc, fa, fb, fc, wexp::bmmaBitOpAND);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

static void run_subbyte()
{
    // 8 rows of 32 4-bit elements (4 words a row) / 8 rows of 128 bits (4 words a row)
    unsigned ha[32], hb[32];
    for (int i = 0; i < 32; i++) {
        ha[i] = 0x9e3779b9u * (i + 1);
        hb[i] = 0x85ebca6bu * (i + 3);
    }
    unsigned *da, *db;
    int *dd, hd[64];
    cudaMalloc(&da, sizeof ha);
    cudaMalloc(&db, sizeof hb);
    cudaMalloc(&dd, sizeof hd);
    cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
    for (int sgn = 0; sgn < 2; sgn++) {
        s4_kernel<<<1, 32>>>(da, db, dd, sgn);
        cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
        bool ok = true;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int s = 5;
                for (int k = 0; k < 32; k++) {
                    int x = (ha[i * 4 + k / 8] >> (4 * (k % 8))) & 15;
                    int y = (hb[j * 4 + k / 8] >> (4 * (k % 8))) & 15;
                    if (sgn) {
                        x = x >= 8 ? x - 16 : x;
                        y = y >= 8 ? y - 16 : y;
                    }
                    s += x * y;
                }
                if (hd[i * 8 + j] != s) ok = false;
            }
        check(ok, sgn ? "wmma_s4_m8n8k32" : "wmma_u4_m8n8k32", "d[0] = %d", hd[0]);
    }
    for (int x = 0; x < 2; x++) {
        b1_kernel<<<1, 32>>>(da, db, dd, x);
        cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
        bool ok = true;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int s = -3;
                for (int w = 0; w < 4; w++)
                    s += __builtin_popcount(x ? ha[i * 4 + w] ^ hb[j * 4 + w] : ha[i * 4 + w] & hb[j * 4 + w]);
                if (hd[i * 8 + j] != s) ok = false;
            }
        check(ok, x ? "wmma_b1_xor_popc" : "wmma_b1_and_popc", "d[0] = %d", hd[0]);
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dd);
}

// ---------------------------------------------------------------- a tiled GEMM over several warps

__global__ void gemm(const half *a, const half *b, float *c, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = N / 16;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm * 16 >= M) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + k * N + tn * 16, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// ---------------------------------------------------------------- the sm_80 fragment layout

__global__ void layout(const half *a, const float *c, float *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, a, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    int l = threadIdx.x;
    for (int i = 0; i < 16; i++) out[l * 40 + i] = __half2float(fa.x[i]);
    for (int i = 0; i < 16; i++) out[l * 40 + 16 + i] = __half2float(fb.x[i]);
    for (int i = 0; i < 8; i++) out[l * 40 + 32 + i] = fc.x[i];
}

int main()
{
    run_form<16, 16, 16, half, half, wmma::row_major, wmma::col_major, float>("wmma_f16_m16n16k16_row_col_f32", true, true);
    run_form<16, 16, 16, half, half, wmma::col_major, wmma::row_major, float>("wmma_f16_m16n16k16_col_row_f32_colC", false, true);
    run_form<16, 16, 16, half, half, wmma::row_major, wmma::row_major, half>("wmma_f16_m16n16k16_f16acc", true, false);
    run_form<32, 8, 16, half, half, wmma::row_major, wmma::col_major, float>("wmma_f16_m32n8k16_f32", true, true);
    run_form<32, 8, 16, half, half, wmma::col_major, wmma::col_major, half>("wmma_f16_m32n8k16_f16acc_colD", true, false);
    run_form<8, 32, 16, half, half, wmma::row_major, wmma::row_major, float>("wmma_f16_m8n32k16_f32", false, true);
    run_form<8, 32, 16, half, half, wmma::col_major, wmma::col_major, half>("wmma_f16_m8n32k16_f16acc", true, true);
    run_form<16, 16, 16, __nv_bfloat16, __nv_bfloat16, wmma::row_major, wmma::col_major, float>("wmma_bf16_m16n16k16", true, true);
    run_form<32, 8, 16, __nv_bfloat16, __nv_bfloat16, wmma::col_major, wmma::row_major, float>("wmma_bf16_m32n8k16", true, false);
    run_form<8, 32, 16, __nv_bfloat16, __nv_bfloat16, wmma::row_major, wmma::row_major, float>("wmma_bf16_m8n32k16", false, true);
    run_form<16, 16, 8, wmma::precision::tf32, float, wmma::row_major, wmma::col_major, float>("wmma_tf32_m16n16k8", true, true);
    run_form<16, 16, 8, wmma::precision::tf32, float, wmma::col_major, wmma::row_major, float>("wmma_tf32_m16n16k8_col_row", false, false);
    run_form<8, 8, 4, double, double, wmma::row_major, wmma::col_major, double>("wmma_f64_m8n8k4", true, true);
    run_form<8, 8, 4, double, double, wmma::col_major, wmma::row_major, double>("wmma_f64_m8n8k4_col_row", false, true);

    run_int<16, 16, 16, signed char>("wmma_s8_m16n16k16", true, false);
    run_int<16, 16, 16, unsigned char>("wmma_u8_m16n16k16", false, false);
    run_int<32, 8, 16, signed char>("wmma_s8_m32n8k16_satfinite", true, true);
    run_int<8, 32, 16, unsigned char>("wmma_u8_m8n32k16", false, false);
    run_subbyte();

    // a 64 x 48 x 32 GEMM, one warp per 16 x 16 tile
    {
        const int M = 64, N = 48, K = 32;
        std::vector<half> a(M * K), b(K * N);
        std::vector<float> fa(M * K), fb(K * N), c(M * N);
        for (int i = 0; i < M * K; i++) a[i] = __float2half(fa[i] = (float)((i * 7) % 11 - 5) / 4);
        for (int i = 0; i < K * N; i++) b[i] = __float2half(fb[i] = (float)((i * 3) % 13 - 6) / 2);
        half *da, *db;
        float *dc;
        cudaMalloc(&da, M * K * 2);
        cudaMalloc(&db, K * N * 2);
        cudaMalloc(&dc, M * N * 4);
        cudaMemcpy(da, a.data(), M * K * 2, cudaMemcpyHostToDevice);
        cudaMemcpy(db, b.data(), K * N * 2, cudaMemcpyHostToDevice);
        gemm<<<3, 128>>>(da, db, dc, M, N, K);
        CUDA_OK("gemm", cudaMemcpy(c.data(), dc, M * N * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++) s += (double)fa[i * K + k] * fb[k * N + j];
                // exact: products are multiples of 1/8 and every partial sum stays below
                // 2^21 of them, so a float accumulator rounds nothing in any order
                if (c[i * N + j] != s) ok = false;
            }
        check(ok, "wmma_gemm_64x48x32", "c[0] = %g", c[0]);
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
    }

    // fragment layout: element (r, c) holds r * 16 + c
    {
        std::vector<half> a(256);
        std::vector<float> cm(256), out(32 * 40);
        for (int i = 0; i < 256; i++) {
            a[i] = __float2half((float)i);
            cm[i] = (float)i;
        }
        half *da;
        float *dc, *dout;
        cudaMalloc(&da, 512);
        cudaMalloc(&dc, 1024);
        cudaMalloc(&dout, out.size() * 4);
        cudaMemcpy(da, a.data(), 512, cudaMemcpyHostToDevice);
        cudaMemcpy(dc, cm.data(), 1024, cudaMemcpyHostToDevice);
        layout<<<1, 32>>>(da, dc, dout);
        CUDA_OK("layout", cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int l = 0; l < 32 && ok; l++) {
            int g = l / 4, t = l % 4;
            for (int x = 0; x < 16; x++) {
                int xx = x % 8;
                // A (row-major memory): row g + 8*bit1, col 2t + bit0 + 8*bit2
                int ar = g + 8 * ((xx >> 1) & 1), ac = 2 * t + (xx & 1) + 8 * ((xx >> 2) & 1);
                // B (column-major memory, element (k, n) at n * 16 + k): k = 2t + bit0 + 8*bit1, n = g + 8*bit2
                int bk = 2 * t + (xx & 1) + 8 * ((xx >> 1) & 1), bn = g + 8 * ((xx >> 2) & 1);
                if (out[l * 40 + x] != ar * 16 + ac || out[l * 40 + 16 + x] != bn * 16 + bk) ok = false;
            }
            for (int x = 0; x < 8; x++) {
                int cr = g + 8 * ((x >> 1) & 1), cc = 2 * t + (x & 1) + 8 * ((x >> 2) & 1);
                if (out[l * 40 + 32 + x] != cr * 16 + cc) ok = false;
            }
        }
        check(ok, "wmma_fragment_layout_sm80", "lane 5: a.x[0..3] = %g %g %g %g", out[200], out[201],
              out[202], out[203]);
        cudaFree(da);
        cudaFree(dc);
        cudaFree(dout);
    }
    return check_finish();
}
