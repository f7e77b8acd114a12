// mma_sparse.cu: the sparse warp-level MMA (mma.sp and mma.sp::ordered_metadata) for the
// metadata layouts beyond mma_sync.cu's f16 m16n8k16: f16/bf16 m16n8k32 and bf16 m16n8k16, tf32
// m16n8k8/k16 (1:2 sparsity), s8 m16n8k32/k64, each with the sparsity selectors the ISA allows.
// The host builds a 2:4 (1:2 for tf32) sparse A, compresses it, writes the metadata into the
// threads the selector names (every other thread gets an invalid pattern, so reading the wrong
// thread shows), lays every fragment out per the PTX ISA's fragment figures, and compares D with
// A x B computed on the CPU from the dense A.
// Metadata, per the ISA's "Sparse matrix storage" and fragment sections: a row's stream has one
// 4-bit group per chunk (two 2-bit indices of the kept elements; for tf32 the pair 0b0100 or
// 0b1110 in 16-bit halves). 16-bit and tf32 types: a thread's word holds 16 bits of row g (low)
// and of row g+8 (high); two words per row pair go to threads 2*sel and 2*sel+1. 8-bit types: a
// word holds 32 bits of one row: m16n8k32 thread 2*sel+j holds row g+8j; m16n8k64 thread t holds
// bits 32*(t>>1).. of row g+8*(t&1).
// nvcc: -arch=sm_80
#include "check.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <vector>

// Per lane the kernel reads 16 words: A registers at 0.., B registers at 4.., metadata at 8.
#define SP_KERNEL(NAME, MNEMONIC, NA, NB)                                                         \
    template <int SEL> __global__ void NAME(const unsigned *in, unsigned *out)                   \
    {                                                                                            \
        const unsigned *p = in + threadIdx.x * 16;                                              \
        unsigned d0, d1, d2, d3, z = 0;                                                          \
        if constexpr (NA == 2)                                                                   \
            asm volatile(MNEMONIC " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%8,%8,%8}, %9, %10;"   \
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                \
                         : "r"(p[0]), "r"(p[1]), "r"(p[4]), "r"(p[5]), "r"(z), "r"(p[8]),        \
                           "n"(SEL));                                                            \
        else                                                                                     \
            asm volatile(MNEMONIC " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "            \
                                  "{%12,%12,%12,%12}, %13, %14;"                                 \
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                \
                         : "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]), "r"(p[4]), "r"(p[5]),     \
                           "r"(p[6]), "r"(p[7]), "r"(z), "r"(p[8]), "n"(SEL));                   \
        unsigned *o = out + threadIdx.x * 4;                                                     \
        o[0] = d0, o[1] = d1, o[2] = d2, o[3] = d3;                                              \
    }

SP_KERNEL(sp_f16_k32, "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 4, 4)
SP_KERNEL(sp_f16_k32_ordered, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 4, 4)
SP_KERNEL(sp_bf16_k32, "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", 4, 4)
SP_KERNEL(sp_bf16_k16, "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 2, 2)
SP_KERNEL(sp_tf32_k8, "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 2, 2)
SP_KERNEL(sp_tf32_k16, "mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", 4, 4)
SP_KERNEL(sp_s8_k32, "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 2, 2)
SP_KERNEL(sp_s8_k64, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", 4, 4)

enum kind { F16, BF16, TF32, S8 };

static unsigned bits_of(kind t, int v)
{
    switch (t) {
    case F16: { __half h = __float2half((float)v); unsigned short u; memcpy(&u, &h, 2); return u; }
    case BF16: { __nv_bfloat16 h = __float2bfloat16((float)v); unsigned short u; memcpy(&u, &h, 2); return u; }
    case TF32: { float f = (float)v; unsigned u; memcpy(&u, &f, 4); return u; }
    default: return (unsigned)(v & 0xff);
    }
}

static int ebits(kind t) { return t == TF32 ? 32 : t == S8 ? 8 : 16; }

// Packs element e (of `per` per register) of a lane's registers.
static void put(unsigned *regs, kind t, int e, int v)
{
    int eb = ebits(t), per = 32 / eb;
    regs[e / per] |= bits_of(t, v) << (eb * (e % per));
}

// One sparse product of shape m16n8K with selector sel through launcher `run`.
static bool sparse_case(const char *name, kind t, int K, int sel,
                        void (*run)(const unsigned *, unsigned *))
{
    const int M = 16, N = 8, K2 = K / 2;
    std::vector<int> A(M * K, 0), Ac(M * K2), B(K * N);
    std::vector<uint64_t> stream(M, 0);   // each row's metadata bits
    static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };
    for (int r = 0; r < M; r++) {
        if (t == TF32) {
            for (int c = 0; c < K / 2; c++) {   // 1:2: one of each pair of elements
                int e = (r + c * 3) % 2, v = (r * 5 + c * 3) % 7 - 3;
                if (v == 0) v = 2;
                A[r * K + 2 * c + e] = v;
                Ac[r * K2 + c] = v;
                stream[r] |= (uint64_t)(e ? 0xe : 0x4) << (4 * c);
            }
        } else {
            for (int c = 0; c < K / 4; c++) {   // 2:4: two of each four
                const int *p = pairs[(r * 3 + c) % 6];
                for (int s = 0; s < 2; s++) {
                    int v = (r * 7 + c * 5 + s * 3) % 9 - 4;
                    if (v == 0) v = 3;
                    A[r * K + 4 * c + p[s]] = v;
                    Ac[r * K2 + 2 * c + s] = v;
                }
                stream[r] |= (uint64_t)(p[0] | p[1] << 2) << (4 * c);
            }
        }
    }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) B[k * N + n] = (k * 3 + n * 5) % 7 - 3;

    std::vector<unsigned> in(32 * 16, 0), out(32 * 4);
    for (int l = 0; l < 32; l++) in[l * 16 + 8] = 0xffffffffu;   // invalid everywhere else
    for (int l = 0; l < 32; l++) {
        int g = l / 4, tg = l % 4;
        unsigned *a = &in[l * 16], *b = &in[l * 16 + 4];
        // A (compressed, as a dense m16n8(K/2) fragment)
        if (t == TF32) {
            for (int i = 0; i < K2 / 2; i++) put(a, t, i, Ac[(g + 8 * (i & 1)) * K2 + tg + 4 * (i >> 1)]);
        } else if (t == S8) {
            for (int i = 0; i < K2 / 2; i++) {
                int j = i / 4, byte = i % 4;
                put(a, t, i, Ac[(g + 8 * (j & 1)) * K2 + 4 * tg + byte + 16 * (j >> 1)]);
            }
        } else {
            for (int i = 0; i < K2 / 2; i++)
                put(a, t, i, Ac[(g + 8 * ((i >> 1) & 1)) * K2 + 2 * tg + (i & 1) + 8 * (i >> 2)]);
        }
        // B (K x 8, column-major fragments)
        if (t == TF32) {
            for (int j = 0; j < K / 4; j++) put(b, t, j, B[(tg + 4 * j) * N + g]);
        } else if (t == S8) {
            for (int i = 0; i < K / 4; i++) put(b, t, i, B[(4 * tg + i % 4 + 16 * (i / 4)) * N + g]);
        } else {
            for (int i = 0; i < K / 4; i++) put(b, t, i, B[(2 * tg + i % 2 + 8 * (i / 2)) * N + g]);
        }
    }
    // the metadata, into the threads the selector names
    for (int g = 0; g < 8; g++) {
        if (t == S8) {
            if (K == 32)
                for (int j = 0; j < 2; j++) in[(4 * g + 2 * sel + j) * 16 + 8] = (unsigned)stream[g + 8 * j];
            else
                for (int tg = 0; tg < 4; tg++)
                    in[(4 * g + tg) * 16 + 8] = (unsigned)(stream[g + 8 * (tg & 1)] >> (32 * (tg >> 1)));
        } else {
            int words = (t == TF32 ? K / 2 : K / 4) * 4 / 16;   // 16-bit blocks per row
            for (int w = 0; w < words; w++) {
                int lane = 4 * g + (words == 1 ? sel : 2 * sel + w);
                unsigned lo = (unsigned)(stream[g] >> (16 * w)) & 0xffff, hi = (unsigned)(stream[g + 8] >> (16 * w)) & 0xffff;
                in[lane * 16 + 8] = lo | hi << 16;
            }
        }
    }
    unsigned *din, *dout;
    CUDA_OK("cudaMalloc", cudaMalloc(&din, in.size() * 4));
    CUDA_OK("cudaMalloc", cudaMalloc(&dout, out.size() * 4));
    CUDA_OK("cudaMemcpy", cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    run(din, dout);
    CUDA_OK(name, cudaDeviceSynchronize());
    CUDA_OK("cudaMemcpy", cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    cudaFree(din);
    cudaFree(dout);
    int bad = 0, first = -1;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            int r = l / 4 + 8 * (i >> 1), c = 2 * (l % 4) + (i & 1);
            long want = 0;
            for (int k = 0; k < K; k++) want += (long)A[r * K + k] * B[k * N + c];
            unsigned u = out[l * 4 + i];
            long got;
            if (t == S8) {
                got = (int)u;
            } else {
                float f;
                memcpy(&f, &u, 4);
                got = (long)f;
                if ((float)got != f) got = 1 << 30;
            }
            if (got != want && bad++ == 0) first = r * N + c;
        }
    return check(bad == 0, name, "%d of 128 elements wrong (first at row %d col %d)", bad,
                  first / N, first % N);
}

#define LAUNCH(K, SEL) [](const unsigned *i, unsigned *o) { K<SEL><<<1, 32>>>(i, o); }

int main()
{
    sparse_case("mma_sp_f16_m16n8k32_sel0", F16, 32, 0, LAUNCH(sp_f16_k32, 0));
    sparse_case("mma_sp_f16_m16n8k32_sel1", F16, 32, 1, LAUNCH(sp_f16_k32, 1));
    sparse_case("mma_sp_ordered_f16_m16n8k32_sel1", F16, 32, 1, LAUNCH(sp_f16_k32_ordered, 1));
    sparse_case("mma_sp_bf16_m16n8k32_sel0", BF16, 32, 0, LAUNCH(sp_bf16_k32, 0));
    sparse_case("mma_sp_bf16_m16n8k32_sel1", BF16, 32, 1, LAUNCH(sp_bf16_k32, 1));
    sparse_case("mma_sp_bf16_m16n8k16_sel0", BF16, 16, 0, LAUNCH(sp_bf16_k16, 0));
    sparse_case("mma_sp_bf16_m16n8k16_sel2", BF16, 16, 2, LAUNCH(sp_bf16_k16, 2));
    sparse_case("mma_sp_tf32_m16n8k8_sel0", TF32, 8, 0, LAUNCH(sp_tf32_k8, 0));
    sparse_case("mma_sp_tf32_m16n8k8_sel3", TF32, 8, 3, LAUNCH(sp_tf32_k8, 3));
    sparse_case("mma_sp_tf32_m16n8k16_sel0", TF32, 16, 0, LAUNCH(sp_tf32_k16, 0));
    sparse_case("mma_sp_tf32_m16n8k16_sel1", TF32, 16, 1, LAUNCH(sp_tf32_k16, 1));
    sparse_case("mma_sp_s8_m16n8k32_sel0", S8, 32, 0, LAUNCH(sp_s8_k32, 0));
    sparse_case("mma_sp_s8_m16n8k32_sel1", S8, 32, 1, LAUNCH(sp_s8_k32, 1));
    sparse_case("mma_sp_s8_m16n8k64_sel0", S8, 64, 0, LAUNCH(sp_s8_k64, 0));
    return check_finish();
}
