// mma_sync.cu: inline-PTX mma.sync with the PTX ISA's fragment layouts, against a CPU matrix
// multiply. The host builds each lane's fragment registers from dense matrices with the ISA's
// (row, col) formulas (groupID = laneid >> 2, threadID_in_group = laneid % 4), the kernel runs
// the instruction, and the host reads D back with the accumulator formula. Forms: f16
// (m16n8k16, m16n8k8; f32 and f16 accumulators), bf16, tf32 (m16n8k8, m16n8k4), f64 (m8n8k4,
// m16n8k8, m16n8k16), s8/u8 (m8n8k16, m16n8k32 with .satfinite), s4 (m16n8k64), b1 (m16n8k256
// XOR, m8n8k128 AND), e4m3 (m16n8k32), the quad-pair m8n8k4 .f16 of sm_70 (row/col layouts, f16
// and f32 accumulators), the sparse mma.sp (f16 m16n8k16 with 2:4 metadata and a sparsity
// selector), and ldmatrix / stmatrix / movmatrix (x1/x2/x4, .trans).
// nvcc: -arch=sm_90
#include "check.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

typedef std::function<void(int lane, int i, int *r, int *c)> Pos;

// ---------------------------------------------------------------- element encodings

static uint32_t f16_bits(float f) { __half h = __float2half(f); uint16_t b; memcpy(&b, &h, 2); return b; }
static float f16_val(uint32_t b) { __half h; uint16_t x = (uint16_t)b; memcpy(&h, &x, 2); return __half2float(h); }
static uint32_t bf16_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u >> 16; }   // exact for small ints
static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float f32_val(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t e4m3_bits(int v)   // small integers
{
    if (v == 0) return 0;
    uint32_t s = v < 0 ? 0x80 : 0;
    int a = v < 0 ? -v : v, e = 0;
    while ((1 << (e + 1)) <= a) e++;
    int m = (a - (1 << e)) * 8 / (1 << e);
    return s | ((e + 7) << 3) | m;
}

// ---------------------------------------------------------------- packing

// regs[lane * nregs + r]: element i of a lane is in register i / per, bits (i % per) * ebits
static std::vector<uint64_t> pack(const std::vector<uint64_t> &mat, int cols, Pos pos, int nel,
                                  int ebits, int nregs)
{
    int per = ebits >= 64 ? 1 : 32 / ebits;
    std::vector<uint64_t> regs(32 * nregs, 0);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            int r, c;
            pos(l, i, &r, &c);
            uint64_t v = mat[r * cols + c] & (ebits >= 64 ? ~0ull : ((1ull << ebits) - 1));
            regs[l * nregs + i / per] |= v << (ebits >= 64 ? 0 : ebits * (i % per));
        }
    return regs;
}

static std::vector<uint64_t> unpack(const std::vector<uint64_t> &regs, int rows, int cols, Pos pos,
                                    int nel, int ebits, int nregs)
{
    int per = ebits >= 64 ? 1 : 32 / ebits;
    std::vector<uint64_t> mat(rows * cols, 0);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            int r, c;
            pos(l, i, &r, &c);
            uint64_t v = regs[l * nregs + i / per];
            mat[r * cols + c] = ebits >= 64 ? v : (v >> (ebits * (i % per))) & ((1ull << ebits) - 1);
        }
    return mat;
}

// ---------------------------------------------------------------- kernels: one per form

#define R32(n) "r"(a[n])
#define KERNEL(name, NA, NB, NC, NDR, body)                                                    \
    __global__ void name(const uint32_t *ga, const uint32_t *gb, const uint32_t *gc,          \
                         uint32_t *gd, uint32_t meta)                                          \
    {                                                                                          \
        int l = threadIdx.x;                                                                   \
        uint32_t a[NA > 0 ? NA : 1], b[NB], c[NC], d[NDR];                                    \
        for (int i = 0; i < NA; i++) a[i] = ga[l * NA + i];                                   \
        for (int i = 0; i < NB; i++) b[i] = gb[l * NB + i];                                   \
        for (int i = 0; i < NC; i++) c[i] = gc[l * NC + i];                                   \
        body;                                                                                  \
        for (int i = 0; i < NDR; i++) gd[l * NDR + i] = d[i];                                  \
    }

KERNEL(k_f16_16816_f32, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_f16_16816_f16, 4, 2, 2, 2,
       asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                    : "=r"(d[0]), "=r"(d[1])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1])))
KERNEL(k_f16_1688_f32, 2, 1, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_bf16_16816, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_tf32_1688, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_tf32_1684, 2, 1, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_s8_8816, 1, 1, 2, 2,
       asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                    : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])))
KERNEL(k_s8u8_16832_sat, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_s4_16864, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_b1_168256_xor, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_b1_88128_and, 1, 1, 2, 2,
       asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1}, {%2}, {%3}, {%4,%5};"
                    : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])))
KERNEL(k_e4m3_16832, 4, 2, 4, 4,
       asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_884_rc_f32, 2, 2, 8, 8,
       asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7])
                    : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])))
KERNEL(k_884_cr_f16, 2, 2, 4, 4,
       asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
KERNEL(k_sp_f16_16816, 2, 2, 4, 4,
       asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x1;"
                    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                    : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(meta)))

// f64 forms: 64-bit registers
__global__ void k_f64(const double *ga, const double *gb, const double *gc, double *gd, int form)
{
    int l = threadIdx.x;
    if (form == 0) {
        double a = ga[l], b = gb[l], c0 = gc[l * 2], c1 = gc[l * 2 + 1], d0, d1;
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
        gd[l * 2] = d0;
        gd[l * 2 + 1] = d1;
    } else {
        double a[4], b[2], c[4], d[4];
        for (int i = 0; i < 4; i++) a[i] = ga[l * 4 + i], c[i] = gc[l * 4 + i];
        for (int i = 0; i < 2; i++) b[i] = gb[l * 2 + i];
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
        for (int i = 0; i < 4; i++) gd[l * 4 + i] = d[i];
    }
}

// out: per lane 16 halves (x4: 8, x2.trans: 4, x1: 2, movmatrix: 2), then the stmatrix results
__global__ void ldst_matrix(unsigned short *out)
{
    __shared__ unsigned short m[4][64], st[4][64], stt[2][64];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) m[i / 64][i % 64] = (unsigned short)i;
    __syncthreads();
    unsigned r[8], x1, mv;
    // lanes 8i..8i+7 give the rows of matrix i
    unsigned addr = (unsigned)__cvta_generic_to_shared(&m[l / 8][(l % 8) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[4]), "=r"(r[5]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x1) : "r"(addr));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(mv) : "r"(r[0]));
    unsigned sa = (unsigned)__cvta_generic_to_shared(&st[l / 8][(l % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                 :: "r"(sa), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    unsigned sta = (unsigned)__cvta_generic_to_shared(&stt[(l / 8) % 2][(l % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};"
                 :: "r"(sta), "r"(r[0]), "r"(r[1]) : "memory");
    __syncthreads();
    unsigned vals[8] = {r[0], r[1], r[2], r[3], r[4], r[5], x1, mv};
    for (int i = 0; i < 8; i++) {
        out[l * 16 + 2 * i] = (unsigned short)(vals[i] & 0xffff);
        out[l * 16 + 2 * i + 1] = (unsigned short)(vals[i] >> 16);
    }
    for (int i = l; i < 256; i += 32) out[512 + i] = st[i / 64][i % 64];
    for (int i = l; i < 128; i += 32) out[768 + i] = stt[i / 64][i % 64];
}

typedef void (*Kern)(const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *, uint32_t);

// ---------------------------------------------------------------- one dense form

struct Form {
    const char *name;
    Kern k;
    int M, N, K;
    int ea, eb, ec, ed;          // element bits
    int na, nb, nc, nd;          // registers per lane
    Pos pa, pb, pc, pd;
    int nela, nelb, nelc, neld;  // elements per lane
};

// values: A, B small integers; C small integer; encode per type via enc
static void run(const Form &f, std::function<uint64_t(int)> enc_a, std::function<uint64_t(int)> enc_b,
                std::function<uint64_t(int)> enc_c, std::function<double(uint64_t)> dec_d,
                std::function<double(const std::vector<int> &, const std::vector<int> &,
                                     const std::vector<int> &, int, int)> ref,
                int amod = 7, int bmod = 5)
{
    std::vector<int> A(f.M * f.K), B(f.K * f.N), C(f.M * f.N);
    std::vector<uint64_t> ma(A.size()), mb(B.size()), mc(C.size());
    for (int i = 0; i < f.M * f.K; i++) ma[i] = enc_a(A[i] = (i * 5 + i / f.K) % amod - amod / 2);
    for (int i = 0; i < f.K * f.N; i++) mb[i] = enc_b(B[i] = (i * 3 + i / f.N) % bmod - bmod / 2);
    for (int i = 0; i < f.M * f.N; i++) mc[i] = enc_c(C[i] = (i * 7) % 11 - 5);
    auto ra = pack(ma, f.K, f.pa, f.nela, f.ea, f.na), rb = pack(mb, f.N, f.pb, f.nelb, f.eb, f.nb),
         rc = pack(mc, f.N, f.pc, f.nelc, f.ec, f.nc);
    std::vector<uint32_t> ha(ra.begin(), ra.end()), hb(rb.begin(), rb.end()), hc(rc.begin(), rc.end()),
        hd(32 * f.nd);
    uint32_t *da, *db, *dc, *dd;
    cudaMalloc(&da, ha.size() * 4);
    cudaMalloc(&db, hb.size() * 4);
    cudaMalloc(&dc, hc.size() * 4);
    cudaMalloc(&dd, hd.size() * 4);
    cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice);
    f.k<<<1, 32>>>(da, db, dc, dd, 0);
    cudaError_t e = cudaMemcpy(hd.data(), dd, hd.size() * 4, cudaMemcpyDeviceToHost);
    std::vector<uint64_t> rd(hd.begin(), hd.end());
    auto D = unpack(rd, f.M, f.N, f.pd, f.neld, f.ed, f.nd);
    int bad = -1;
    double got = 0, want = 0;
    for (int i = 0; i < f.M && bad < 0; i++)
        for (int j = 0; j < f.N && bad < 0; j++) {
            want = ref(A, B, C, i, j);
            got = dec_d(D[i * f.N + j]);
            if (got != want) bad = i * f.N + j;
        }
    check(e == cudaSuccess && bad < 0, f.name, "%s; element %d: got %g, want %g", cudaGetErrorName(e),
          bad, got, want);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
}

// the sum C + A x B of small integers
static double dot(const std::vector<int> &A, const std::vector<int> &B, const std::vector<int> &C,
                  int i, int j, int K, int N)
{
    double s = C[i * N + j];
    for (int k = 0; k < K; k++) s += (double)A[i * K + k] * B[k * N + j];
    return s;
}

int main()
{
    // ---- accumulator layouts
    Pos c16 = [](int l, int i, int *r, int *c) { *r = l / 4 + 8 * (i >= 2); *c = 2 * (l % 4) + (i & 1); };
    Pos c8 = [](int l, int i, int *r, int *c) { *r = l / 4; *c = 2 * (l % 4) + i; };
    auto f32e = [](int v) { return (uint64_t)f32_bits((float)v); };
    auto f32d = [](uint64_t b) { return (double)f32_val((uint32_t)b); };
    auto f16e = [](int v) { return (uint64_t)f16_bits((float)v); };
    auto f16d = [](uint64_t b) { return (double)f16_val((uint32_t)b); };
    auto ie = [](int v) { return (uint64_t)(uint32_t)v; };
    auto id = [](uint64_t b) { return (double)(int32_t)(uint32_t)b; };

    // ---- f16 m16n8k16: A a0..a7, B b0..b3
    Pos a16816 = [](int l, int i, int *r, int *c) {
        *r = l / 4 + ((i < 2 || (i >= 4 && i < 6)) ? 0 : 8);
        *c = 2 * (l % 4) + (i & 1) + (i >= 4 ? 8 : 0);
    };
    Pos b16816 = [](int l, int i, int *r, int *c) { *r = 2 * (l % 4) + (i & 1) + (i >= 2 ? 8 : 0); *c = l / 4; };
    {
        Form f = {"mma_f16_m16n8k16_f32", k_f16_16816_f32, 16, 8, 16, 16, 16, 32, 32, 4, 2, 4, 4,
                  a16816, b16816, c16, c16, 8, 4, 4, 4};
        run(f, f16e, f16e, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 16, 8); });
        Form g = {"mma_f16_m16n8k16_f16acc", k_f16_16816_f16, 16, 8, 16, 16, 16, 16, 16, 4, 2, 2, 2,
                  a16816, b16816, c16, c16, 8, 4, 4, 4};
        run(g, f16e, f16e, f16e, f16d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 16, 8); });
        Form h = {"mma_bf16_m16n8k16", k_bf16_16816, 16, 8, 16, 16, 16, 32, 32, 4, 2, 4, 4,
                  a16816, b16816, c16, c16, 8, 4, 4, 4};
        auto bfe = [](int v) { return (uint64_t)bf16_bits((float)v); };
        run(h, bfe, bfe, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 16, 8); });
    }
    // ---- f16 m16n8k8
    {
        Pos a = [](int l, int i, int *r, int *c) { *r = l / 4 + (i >= 2 ? 8 : 0); *c = 2 * (l % 4) + (i & 1); };
        Pos b = [](int l, int i, int *r, int *c) { *r = 2 * (l % 4) + i; *c = l / 4; };
        Form f = {"mma_f16_m16n8k8_f32", k_f16_1688_f32, 16, 8, 8, 16, 16, 32, 32, 2, 1, 4, 4, a, b, c16, c16, 4, 2, 4, 4};
        run(f, f16e, f16e, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 8, 8); });
    }
    // ---- tf32 m16n8k8 and m16n8k4 (the low 13 bits of a tf32 operand are ignored)
    {
        Pos a = [](int l, int i, int *r, int *c) { *r = l / 4 + ((i & 1) ? 8 : 0); *c = l % 4 + (i >= 2 ? 4 : 0); };
        Pos b = [](int l, int i, int *r, int *c) { *r = l % 4 + 4 * i; *c = l / 4; };
        Form f = {"mma_tf32_m16n8k8", k_tf32_1688, 16, 8, 8, 32, 32, 32, 32, 4, 2, 4, 4, a, b, c16, c16, 4, 2, 4, 4};
        auto tfe = [](int v) { return (uint64_t)(f32_bits((float)v) | 0x1fffu * (v != 0)); };
        run(f, tfe, tfe, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 8, 8); });
        Pos a4 = [](int l, int i, int *r, int *c) { *r = l / 4 + 8 * i; *c = l % 4; };
        Pos b4 = [](int l, int, int *r, int *c) { *r = l % 4; *c = l / 4; };
        Form g = {"mma_tf32_m16n8k4", k_tf32_1684, 16, 8, 4, 32, 32, 32, 32, 2, 1, 4, 4, a4, b4, c16, c16, 2, 1, 4, 4};
        run(g, f32e, f32e, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 4, 8); });
    }
    // ---- integers
    {
        Pos a = [](int l, int i, int *r, int *c) { *r = l / 4; *c = 4 * (l % 4) + i; };
        Pos b = [](int l, int i, int *r, int *c) { *r = 4 * (l % 4) + i; *c = l / 4; };
        Form f = {"mma_s8_m8n8k16", k_s8_8816, 8, 8, 16, 8, 8, 32, 32, 1, 1, 2, 2, a, b, c8, c8, 4, 4, 2, 2};
        auto s8e = [](int v) { return (uint64_t)(uint8_t)(int8_t)v; };
        run(f, s8e, s8e, ie, id, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 16, 8); });

        Pos a32 = [](int l, int i, int *r, int *c) {
            *r = l / 4 + ((i < 4 || (i >= 8 && i < 12)) ? 0 : 8);
            *c = 4 * (l % 4) + (i & 3) + (i >= 8 ? 16 : 0);
        };
        Pos b32 = [](int l, int i, int *r, int *c) { *r = 4 * (l % 4) + (i & 3) + (i >= 4 ? 16 : 0); *c = l / 4; };
        Form g = {"mma_s8u8_m16n8k32_satfinite", k_s8u8_16832_sat, 16, 8, 32, 8, 8, 32, 32, 4, 2, 4, 4,
                  a32, b32, c16, c16, 16, 8, 4, 4};
        // large values so that the sums saturate in both directions
        auto bige = [](int v) { return (uint64_t)(uint32_t)(v > 0 ? 2147483600 : v < 0 ? -2147483600 : 0); };
        run(g, [](int v) { return (uint64_t)(uint8_t)(int8_t)(v * 40); }, [](int v) { return (uint64_t)(uint8_t)(v + 200); },
            bige, id, [](auto &A, auto &B, auto &C, int i, int j) {
                double s = C[i * 8 + j] > 0 ? 2147483600.0 : C[i * 8 + j] < 0 ? -2147483600.0 : 0;
                for (int k = 0; k < 32; k++) s += (double)(int8_t)(A[i * 32 + k] * 40) * (double)(uint8_t)(B[k * 8 + j] + 200);
                return s > 2147483647.0 ? 2147483647.0 : s < -2147483648.0 ? -2147483648.0 : s;
            });

        Pos a64 = [](int l, int i, int *r, int *c) {
            *r = l / 4 + (((i >> 3) & 1) ? 8 : 0);
            *c = 8 * (l % 4) + (i & 7) + (i >= 16 ? 32 : 0);
        };
        Pos b64 = [](int l, int i, int *r, int *c) { *r = 8 * (l % 4) + (i & 7) + (i >= 8 ? 32 : 0); *c = l / 4; };
        Form h = {"mma_s4_m16n8k64", k_s4_16864, 16, 8, 64, 4, 4, 32, 32, 4, 2, 4, 4, a64, b64, c16, c16, 32, 16, 4, 4};
        auto s4e = [](int v) { return (uint64_t)(v & 15); };
        run(h, s4e, s4e, ie, id, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 64, 8); }, 15, 13);

        Pos a256 = [](int l, int i, int *r, int *c) {
            *r = l / 4 + (((i >> 5) & 1) ? 8 : 0);
            *c = 32 * (l % 4) + (i & 31) + (i >= 64 ? 128 : 0);
        };
        Pos b256 = [](int l, int i, int *r, int *c) { *r = 32 * (l % 4) + (i & 31) + (i >= 32 ? 128 : 0); *c = l / 4; };
        Form x = {"mma_b1_m16n8k256_xor_popc", k_b1_168256_xor, 16, 8, 256, 1, 1, 32, 32, 4, 2, 4, 4,
                  a256, b256, c16, c16, 128, 64, 4, 4};
        auto b1e = [](int v) { return (uint64_t)(v & 1); };
        run(x, b1e, b1e, ie, id, [](auto &A, auto &B, auto &C, int i, int j) {
            double s = C[i * 8 + j];
            for (int k = 0; k < 256; k++) s += (A[i * 256 + k] & 1) ^ (B[k * 8 + j] & 1);
            return s;
        });
        Pos a128 = [](int l, int i, int *r, int *c) { *r = l / 4; *c = 32 * (l % 4) + i; };
        Pos b128 = [](int l, int i, int *r, int *c) { *r = 32 * (l % 4) + i; *c = l / 4; };
        Form y = {"mma_b1_m8n8k128_and_popc", k_b1_88128_and, 8, 8, 128, 1, 1, 32, 32, 1, 1, 2, 2,
                  a128, b128, c8, c8, 32, 32, 2, 2};
        run(y, b1e, b1e, ie, id, [](auto &A, auto &B, auto &C, int i, int j) {
            double s = C[i * 8 + j];
            for (int k = 0; k < 128; k++) s += (A[i * 128 + k] & 1) & (B[k * 8 + j] & 1);
            return s;
        });
    }
    // ---- e4m3 m16n8k32 (same layout as the 8-bit integers)
    {
        Pos a32 = [](int l, int i, int *r, int *c) {
            *r = l / 4 + ((i < 4 || (i >= 8 && i < 12)) ? 0 : 8);
            *c = 4 * (l % 4) + (i & 3) + (i >= 8 ? 16 : 0);
        };
        Pos b32 = [](int l, int i, int *r, int *c) { *r = 4 * (l % 4) + (i & 3) + (i >= 4 ? 16 : 0); *c = l / 4; };
        Form f = {"mma_e4m3_m16n8k32", k_e4m3_16832, 16, 8, 32, 8, 8, 32, 32, 4, 2, 4, 4, a32, b32, c16, c16, 16, 8, 4, 4};
        auto e4 = [](int v) { return (uint64_t)e4m3_bits(v); };
        run(f, e4, e4, f32e, f32d, [](auto &A, auto &B, auto &C, int i, int j) { return dot(A, B, C, i, j, 32, 8); });
    }
    // ---- m8n8k4 .f16: four quad-pair products of 8x8x4 (lanes 4q..4q+3 and 16+4q..19+4q)
    {
        // the 32 x 4 A and 4 x 32 B hold the four products side by side: quad-pair q uses
        // rows / columns 8q..8q+7
        auto qp = [](int l) { return (l % 16) / 4; };
        Pos a_row = [qp](int l, int i, int *r, int *c) { *r = 8 * qp(l) + l % 4 + (l >= 16 ? 4 : 0); *c = i; };
        Pos a_col = [qp](int l, int i, int *r, int *c) { *r = 8 * qp(l) + i % 4 + (l >= 16 ? 4 : 0); *c = l % 4; };
        Pos b_col = [qp](int l, int i, int *r, int *c) { *r = i; *c = 8 * qp(l) + l % 4 + (l >= 16 ? 4 : 0); };
        Pos b_row = [qp](int l, int i, int *r, int *c) { *r = l % 4; *c = 8 * qp(l) + i + (l >= 16 ? 4 : 0); };
        Pos c_f16 = [qp](int l, int i, int *r, int *c) { *r = 8 * qp(l) + l % 4 + (l >= 16 ? 4 : 0); *c = 8 * qp(l) + i; };
        Pos c_f32 = [qp](int l, int i, int *r, int *c) {
            *r = 8 * qp(l) + (l & 1) + (i & 2) + (l >= 16 ? 4 : 0);
            *c = 8 * qp(l) + (i & 4) + (l & 2) + (i & 1);
        };
        // only the diagonal 8x8 blocks are products (no lane holds the others, which unpack
        // as 0)
        auto ref = [](auto &A, auto &B, auto &C, int i, int j) {
            if (i / 8 != j / 8) return 0.0;
            double s = C[i * 32 + j];
            for (int k = 0; k < 4; k++) s += (double)A[i * 4 + k] * B[k * 32 + j];
            return s;
        };
        Form f = {"mma_m8n8k4_f16_row_col_f32", k_884_rc_f32, 32, 32, 4, 16, 16, 32, 32, 2, 2, 8, 8,
                  a_row, b_col, c_f32, c_f32, 4, 4, 8, 8};
        run(f, f16e, f16e, f32e, f32d, ref);
        Form g = {"mma_m8n8k4_f16_col_row_f16", k_884_cr_f16, 32, 32, 4, 16, 16, 16, 16, 2, 2, 4, 4,
                  a_col, b_row, c_f16, c_f16, 4, 4, 8, 8};
        run(g, f16e, f16e, f16e, f16d, ref);
    }
    // ---- f64 m8n8k4 and m16n8k8
    for (int form = 0; form < 2; form++) {
        int M = form ? 16 : 8, K = form ? 8 : 4, N = 8, na = form ? 4 : 1, nb = form ? 2 : 1, nc = form ? 4 : 2;
        std::vector<double> A(M * K), B(K * N), C(M * N), ha(32 * na), hb(32 * nb), hc(32 * nc), hd(32 * nc);
        for (int i = 0; i < M * K; i++) A[i] = (i * 5) % 9 - 4 + 0.5;
        for (int i = 0; i < K * N; i++) B[i] = (i * 3) % 7 - 3 + 0.25;
        for (int i = 0; i < M * N; i++) C[i] = i % 5 - 2;
        for (int l = 0; l < 32; l++) {
            int g = l / 4, t = l % 4;
            for (int i = 0; i < na; i++) ha[l * na + i] = A[(g + 8 * (i % 2)) * K + t + 4 * (i / 2)];
            for (int i = 0; i < nb; i++) hb[l * nb + i] = B[(t + 4 * i) * N + g];
            for (int i = 0; i < nc; i++) hc[l * nc + i] = C[(g + 8 * (i / 2)) * N + 2 * t + (i & 1)];
        }
        double *da, *db, *dc, *dd;
        cudaMalloc(&da, ha.size() * 8);
        cudaMalloc(&db, hb.size() * 8);
        cudaMalloc(&dc, hc.size() * 8);
        cudaMalloc(&dd, hd.size() * 8);
        cudaMemcpy(da, ha.data(), ha.size() * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(db, hb.data(), hb.size() * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(dc, hc.data(), hc.size() * 8, cudaMemcpyHostToDevice);
        k_f64<<<1, 32>>>(da, db, dc, dd, form);
        cudaMemcpy(hd.data(), dd, hd.size() * 8, cudaMemcpyDeviceToHost);
        bool ok = true;
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < nc; i++) {
                int r = l / 4 + 8 * (i / 2), c = 2 * (l % 4) + (i & 1);
                double s = C[r * N + c];
                for (int k = 0; k < K; k++) s = fma(A[r * K + k], B[k * N + c], s);
                if (hd[l * nc + i] != s) ok = false;
            }
        check(ok, form ? "mma_f64_m16n8k8" : "mma_f64_m8n8k4", "d[0] = %g", hd[0]);
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        cudaFree(dd);
    }
    // ---- sparse f16 m16n8k16: A keeps 2 of every 4 columns; metadata from thread 1 of each group
    {
        const int M = 16, N = 8, K = 16;
        std::vector<int> A(M * K, 0), B(K * N), C(M * N);
        std::vector<uint32_t> meta(8, 0);   // per group: row g bits 0-15, row g+8 bits 16-31
        std::vector<uint64_t> acomp(M * 8);
        for (int r = 0; r < M; r++)
            for (int ch = 0; ch < 4; ch++) {
                int i0 = (r + ch) % 3, i1 = i0 + 1 + (r % (3 - i0));   // two distinct indices, i0 < i1
                if (i1 > 3) i1 = 3;
                int v0 = (r * 3 + ch) % 5 - 2, v1 = (r + ch * 7) % 7 - 3;
                A[r * K + ch * 4 + i0] = v0;
                A[r * K + ch * 4 + i1] = v1;
                acomp[r * 8 + ch * 2] = f16_bits((float)v0);
                acomp[r * 8 + ch * 2 + 1] = f16_bits((float)v1);
                uint32_t nib = (uint32_t)(i0 | (i1 << 2));
                meta[r % 8] |= nib << (4 * ch + (r >= 8 ? 16 : 0));
            }
        std::vector<uint64_t> mb(K * N), mc(M * N);
        for (int i = 0; i < K * N; i++) mb[i] = f16_bits((float)(B[i] = (i * 3) % 5 - 2));
        for (int i = 0; i < M * N; i++) mc[i] = f32_bits((float)(C[i] = i % 7 - 3));
        // compressed A: the layout of a dense m16n8k8 A fragment
        Pos ac = [](int l, int i, int *r, int *c) { *r = l / 4 + (i >= 2 ? 8 : 0); *c = 2 * (l % 4) + (i & 1); };
        auto ra = pack(acomp, 8, ac, 4, 16, 2), rb = pack(mb, N, b16816, 4, 16, 2), rc = pack(mc, N, c16, 4, 32, 4);
        std::vector<uint32_t> ha(ra.begin(), ra.end()), hb(rb.begin(), rb.end()), hc(rc.begin(), rc.end()), hd(32 * 4);
        uint32_t *da, *db, *dc, *dd;
        cudaMalloc(&da, ha.size() * 4);
        cudaMalloc(&db, hb.size() * 4);
        cudaMalloc(&dc, hc.size() * 4);
        cudaMalloc(&dd, hd.size() * 4);
        cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(dc, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice);
        // the kernel gives every lane the same metadata word: run once per group g, and check
        // rows g and g+8, which take their indices from thread 1 (selector 1) of group g
        bool ok = true;
        for (int g = 0; g < 8 && ok; g++) {
            k_sp_f16_16816<<<1, 32>>>(da, db, dc, dd, meta[g]);
            cudaMemcpy(hd.data(), dd, hd.size() * 4, cudaMemcpyDeviceToHost);
            // rows g and g+8 used the metadata of group g (every lane passed meta[g])
            std::vector<uint64_t> rd(hd.begin(), hd.end());
            auto D = unpack(rd, M, N, c16, 4, 32, 4);
            for (int r : {g, g + 8})
                for (int j = 0; j < N; j++) {
                    double s = C[r * N + j];
                    for (int k = 0; k < K; k++) s += (double)A[r * K + k] * B[k * N + j];
                    if (f32_val((uint32_t)D[r * N + j]) != s) ok = false;
                }
        }
        check(ok, "mma_sp_f16_m16n8k16_metadata", "a row of the sparse product differs");
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        cudaFree(dd);
    }
    // ---- ldmatrix / stmatrix / movmatrix on four 8x8 b16 matrices (element value = 64*m + 8*r + c)
    {
        unsigned short *dout;
        cudaMalloc(&dout, 32 * 16 * 2 + 4 * 64 * 2 * 2);
        ldst_matrix<<<1, 32>>>(dout);
        std::vector<unsigned short> h(32 * 16 + 4 * 64 * 2);
        CUDA_OK("ldmatrix", cudaMemcpy(h.data(), dout, h.size() * 2, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int l = 0; l < 32; l++) {
            int r = l / 4, c = 2 * (l % 4);
            for (int m = 0; m < 4; m++)
                for (int hh = 0; hh < 2; hh++) {
                    // x4: matrix m, row r, cols c, c+1; x2.trans: matrix m<2 transposed; x1 matrix 0
                    if (h[l * 16 + m * 2 + hh] != 64 * m + 8 * r + c + hh) ok = false;
                    if (m < 2 && h[l * 16 + 8 + m * 2 + hh] != 64 * m + 8 * (c + hh) + r) ok = false;
                }
            if (h[l * 16 + 12] != 8 * r + c || h[l * 16 + 13] != 8 * r + c + 1) ok = false;
            // movmatrix of matrix 0: the transpose's fragment
            if (h[l * 16 + 14] != 8 * c + r || h[l * 16 + 15] != 8 * (c + 1) + r) ok = false;
        }
        // stmatrix x4 wrote the matrices back; stmatrix x2.trans wrote matrices 0 and 1 transposed
        for (int m = 0; m < 4; m++)
            for (int i = 0; i < 64; i++) {
                if (h[512 + m * 64 + i] != 64 * m + i) ok = false;
                if (m < 2 && h[768 + m * 64 + i] != 64 * m + 8 * (i % 8) + i / 8) ok = false;
            }
        check(ok, "ldmatrix_stmatrix_movmatrix", "lane 5: %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u",
              h[80], h[81], h[82], h[83], h[84], h[85], h[86], h[87], h[88], h[89], h[90], h[91],
              h[92], h[93], h[94], h[95]);
        cudaFree(dout);
    }
    return check_finish();
}
