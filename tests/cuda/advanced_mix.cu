// advanced_mix.cu: one program that uses the advanced features together, checked against the
// CPU. (1) A texture object with clamp addressing and linear filtering resamples a 24 x 20 float
// image into a 64 x 64 half matrix A (coordinates run past the edges, so clamping matters).
// (2) C = A x B with tensor cores (nvcuda::wmma, 16x16x16 tiles), where each block stages the
// K tiles of A and B into shared memory through a two-stage cuda::pipeline of memcpy_async
// (cp.async): tile k+1 is in flight while tile k is multiplied. (3) Each thread of a third
// kernel mallocs a scratch buffer on the device heap, sorts its row of C there, writes the
// median and the sum of the three largest values, and frees the buffer.
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cuda/pipeline>
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cmath>
#include <vector>

using namespace nvcuda;

constexpr int IW = 24, IH = 20;   // source image
constexpr int M = 64, N = 64, K = 64, T = 16;

// (1) resample: A[i][j] = image sampled at ((j - 4) * 0.4 + 0.5, (i - 6) * 0.375 + 0.5) texels
__global__ void resample(cudaTextureObject_t img, half *A)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= K) return;
    float x = (j - 4) * 0.4f + 0.5f, y = (i - 6) * 0.375f + 0.5f;
    A[i * K + j] = __float2half(tex2D<float>(img, x, y));
}

// (2) one warp per 16x16 tile of C; the block's 4 warps share the A row-tile through shared
// memory, each warp has its own B column-tile. Stage s of the pipeline holds tile k of A (16 x 16)
// and of B (16 x 64).
__global__ void gemm_pipelined(const half *A, const half *B, float *C)
{
    __shared__ alignas(16) half sa[2][T * T];
    __shared__ alignas(16) half sb[2][T * N];
    int warp = threadIdx.x / 32, tm = blockIdx.x;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    auto issue = [&](int kt) {
        int s = kt % 2;
        pipe.producer_acquire();
        // 128 threads copy 16x16 + 16x64 halves in 16-byte pieces
        for (int c = threadIdx.x; c < T * T / 8; c += blockDim.x) {
            int r = c / 2, part = c % 2;
            cuda::memcpy_async(&sa[s][r * T + part * 8], &A[(tm * T + r) * K + kt * T + part * 8],
                               cuda::aligned_size_t<16>(16), pipe);
        }
        for (int c = threadIdx.x; c < T * N / 8; c += blockDim.x) {
            int r = c / 8, part = c % 8;
            cuda::memcpy_async(&sb[s][r * N + part * 8], &B[(kt * T + r) * N + part * 8],
                               cuda::aligned_size_t<16>(16), pipe);
        }
        pipe.producer_commit();
    };
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    issue(0);
    for (int kt = 0; kt < K / T; kt++) {
        if (kt + 1 < K / T) issue(kt + 1);
        cuda::pipeline_consumer_wait_prior<1>(pipe);   // tile kt has landed (kt+1 may fly)
        if (kt + 1 >= K / T) cuda::pipeline_consumer_wait_prior<0>(pipe);
        __syncthreads();
        wmma::fragment<wmma::matrix_a, T, T, T, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, T, T, T, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, sa[kt % 2], T);
        wmma::load_matrix_sync(fb, sb[kt % 2] + warp * T, N);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();   // everyone is done with stage kt % 2 before it is refilled
        pipe.consumer_release();
    }
    wmma::store_matrix_sync(C + tm * T * N + warp * T, acc, N, wmma::mem_row_major);
}

// (3) per-row statistics in a heap buffer
__global__ void row_stats(const float *C, float *median, float *top3, int *failed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= M) return;
    float *buf = (float *)malloc(N * sizeof(float));
    if (!buf) {
        atomicAdd(failed, 1);
        return;
    }
    for (int j = 0; j < N; j++) buf[j] = C[i * N + j];
    for (int a = 1; a < N; a++) {   // insertion sort
        float v = buf[a];
        int b = a - 1;
        while (b >= 0 && buf[b] > v) {
            buf[b + 1] = buf[b];
            b--;
        }
        buf[b + 1] = v;
    }
    median[i] = 0.5f * (buf[N / 2 - 1] + buf[N / 2]);
    top3[i] = buf[N - 1] + buf[N - 2] + buf[N - 3];
    free(buf);
}

// The texture unit's 9-bit weights: frac held with 8 fractional bits, in 1/256 units.
static int w8(float f) { return (int)rintf(f * 256.0f); }

int main()
{
    // ---- the image and its texture (clamp, linear, unnormalized coordinates)
    std::vector<float> img(IW * IH);
    for (int y = 0; y < IH; y++)
        for (int x = 0; x < IW; x++) img[y * IW + x] = (float)((x * 3 + y * 5) % 17) - 8.0f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CUDA_OK("array", cudaMallocArray(&arr, &fd, IW, IH));
    CUDA_OK("array_copy", cudaMemcpy2DToArray(arr, 0, 0, img.data(), IW * 4, IW * 4, IH, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    CUDA_OK("texture", cudaCreateTextureObject(&tex, &rd, &td, NULL));

    half *dA, *dB;
    float *dC, *dmed, *dtop;
    int *dfail;
    CUDA_OK("malloc", cudaMalloc(&dA, M * K * 2));
    CUDA_OK("malloc", cudaMalloc(&dB, K * N * 2));
    CUDA_OK("malloc", cudaMalloc(&dC, M * N * 4));
    CUDA_OK("malloc", cudaMalloc(&dmed, M * 4));
    CUDA_OK("malloc", cudaMalloc(&dtop, M * 4));
    CUDA_OK("malloc", cudaMalloc(&dfail, 4));
    CUDA_OK("memset", cudaMemset(dfail, 0, 4));

    resample<<<dim3(1, M), 64>>>(tex, dA);
    std::vector<half> hA(M * K);
    CUDA_OK("copy_A", cudaMemcpy(hA.data(), dA, M * K * 2, cudaMemcpyDeviceToHost));
    // CPU model of the texture unit: clamp each neighbour, 8-bit fractional weights a and b;
    // the corner weights are held with 8 fractional bits too (an H100 gives 2.2109375 at
    // A[7][12], not the 2.203125 of exact products): ab rounded to a multiple of 1/256, and the
    // others what is left of a, b and 1, so that each row and column keeps its 1-D weight.
    // Where ab falls exactly halfway, either rounding is accepted (the GPU run did not show it).
    auto T2 = [&](int x, int y) {
        x = x < 0 ? 0 : x >= IW ? IW - 1 : x;
        y = y < 0 ? 0 : y >= IH ? IH - 1 : y;
        return img[y * IW + x];
    };
    std::vector<float> A(M * K);
    bool ok = true;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < K; j++) {
            // the kernel's coordinates, less the half texel of linear filtering
            double x = (double)((j - 4) * 0.4f + 0.5f) - 0.5, y = (double)((i - 6) * 0.375f + 0.5f) - 0.5;
            int x0 = (int)floor(x), y0 = (int)floor(y);
            int a = w8((float)(x - x0)), b = w8((float)(y - y0));
            float got = __half2float(hA[i * K + j]), v[2];
            for (int up = 0; up < 2; up++) {
                int w11 = (a * b + 127 + up) / 256;   // a tie rounds down, then up
                int w10 = a - w11, w01 = b - w11, w00 = 256 - a - b + w11;
                // exact: integer weights times integer texels, scaled by 2^-8
                v[up] = (w00 * T2(x0, y0) + w10 * T2(x0 + 1, y0) + w01 * T2(x0, y0 + 1) +
                         w11 * T2(x0 + 1, y0 + 1)) / 256.0f;
                v[up] = __half2float(__float2half(v[up]));   // the kernel rounds it to half once
            }
            A[i * K + j] = got == v[0] ? v[0] : v[1];
            if (got != A[i * K + j] && ok) {
                ok = false;
                printf("resample: A[%d][%d] = %.9g, want %.9g\n", i, j,
                       __half2float(hA[i * K + j]), A[i * K + j]);
            }
        }
    check(ok, "mix_texture_clamp_linear_resample", "the first difference is printed above");

    std::vector<half> hB(K * N);
    std::vector<float> B(K * N);
    for (int i = 0; i < K * N; i++) hB[i] = __float2half(B[i] = (float)((i * 7) % 9 - 4) * 0.25f);
    CUDA_OK("copy_B", cudaMemcpy(dB, hB.data(), K * N * 2, cudaMemcpyHostToDevice));
    gemm_pipelined<<<M / T, 128>>>(dA, dB, dC);
    std::vector<float> hC(M * N), C(M * N);
    CUDA_OK("copy_C", cudaMemcpy(hC.data(), dC, M * N * 4, cudaMemcpyDeviceToHost));
    // Exact where the arithmetic is: when every product's lowest set bit is at least g and the
    // products' magnitudes sum to less than 2^24 g, every partial sum is exact in float, so any
    // accumulation order gives the exact sum. Elsewhere (an A value so small that its bits reach
    // far down) the float sum of K terms is within K + 2 float ulps (2^-24) of their magnitude.
    ok = true;
    double worst = 0;
    int exact = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0, mag = 0;
            int low = INT32_MAX;
            for (int k = 0; k < K; k++) {
                // the A the kernel read (the resample check above judged it already)
                double prod = (double)__half2float(hA[i * K + k]) * B[k * N + j];   // exact
                s += prod;
                mag += fabs(prod);
                if (prod != 0) {
                    int e;
                    double f = frexp(fabs(prod), &e);
                    uint64_t bits = (uint64_t)ldexp(f, 53);
                    low = std::min(low, e - 53 + __builtin_ctzll(bits));
                }
            }
            C[i * N + j] = (float)s;
            double err = fabs(hC[i * N + j] - s);
            bool is_exact = low == INT32_MAX || mag < ldexp(1.0, 24 + low);
            exact += is_exact;
            double tol = is_exact ? 0 : (K + 2) * ldexp(1.0, -24) * mag;
            worst = err > worst ? err : worst;
            if (err > tol) ok = false;
        }
    ok = ok && exact >= M * N * 3 / 4;   // the exact comparison must stay the rule
    check(ok, "mix_wmma_gemm_pipelined_async_copies", "largest error %g; %d of %d compared exactly",
          worst, exact, M * N);

    row_stats<<<2, 32>>>(dC, dmed, dtop, dfail);
    std::vector<float> med(M), top(M);
    int failed = 0;
    CUDA_OK("copy_stats", cudaMemcpy(med.data(), dmed, M * 4, cudaMemcpyDeviceToHost));
    CUDA_OK("copy_stats", cudaMemcpy(top.data(), dtop, M * 4, cudaMemcpyDeviceToHost));
    CUDA_OK("copy_stats", cudaMemcpy(&failed, dfail, 4, cudaMemcpyDeviceToHost));
    ok = failed == 0;
    for (int i = 0; i < M && ok; i++) {
        std::vector<float> row(hC.begin() + i * N, hC.begin() + (i + 1) * N);
        std::sort(row.begin(), row.end());
        if (med[i] != 0.5f * (row[N / 2 - 1] + row[N / 2]) || top[i] != row[N - 1] + row[N - 2] + row[N - 3])
            ok = false;
    }
    check(ok, "mix_device_malloc_row_stats", "%d mallocs failed; median[0] = %g", failed, med[0]);

    cudaDestroyTextureObject(tex);
    cudaFreeArray(arr);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dmed);
    cudaFree(dtop);
    cudaFree(dfail);
    return check_finish();
}
