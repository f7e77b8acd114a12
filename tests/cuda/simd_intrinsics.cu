// simd_intrinsics.cu: CUDA's SIMD intrinsics (__vadd2, __vabsdiffu4, __vsadu4, __vsetgtu4,
// __vmaxs2, ...) and the PTX video instructions written as inline PTX, against CPU references
// written from the CUDA Math API's definitions and the PTX ISA's pseudo-code.
//
// nvcc 13 turns most SIMD intrinsics into plain integer code, but __vabsdiffu4, __vsadu4 and
// __vabsss4 become vabsdiff4 (merge and .add forms); the inline-PTX part covers the other
// video instructions: scalar forms with selectors, .sat, secondary operations and merges,
// shifts with .clamp/.wrap, vmad, vset, and SIMD forms with masks and accumulation.
//
// The ISA leaves optSaturate and optMerge undefined; the references follow what a GPU does
// (an H100, and the code ptxas emits for sm_90): see the three cases marked "GPU:".
#include "check.cuh"

#include <cstdint>
#include <cstdlib>

enum {
    K_VADD2, K_VADDUS2, K_VSUBSS4, K_VABSDIFFU4, K_VABSDIFFS2, K_VSADU4, K_VSADS2, K_VAVGU4,
    K_VHADDU2, K_VSETGTU4, K_VCMPEQ4, K_VMAXS2, K_VMINU4, K_VABSSS4, K_VSETEQ2,
    // inline PTX
    P_VADD4_SAT, P_VSUB2_SS_SAT, P_VAVRG4_S, P_VMAX2_MASK, P_VSET4_ADD, P_VABSDIFF2_ADD,
    P_VADD_SEL, P_VSUB_MERGE, P_VMIN_ADD, P_VSHL_CLAMP, P_VSHR_WRAP, P_VMAD, P_VSET_MERGE,
    P_VADD4_SEL,
    NK
};
static const char *const names[NK] = {
    "__vadd2", "__vaddus2", "__vsubss4", "__vabsdiffu4", "__vabsdiffs2", "__vsadu4", "__vsads2",
    "__vavgu4", "__vhaddu2", "__vsetgtu4", "__vcmpeq4", "__vmaxs2", "__vminu4", "__vabsss4",
    "__vseteq2",
    "vadd4.u32.u32.u32.sat", "vsub2.s32.s32.s32.sat", "vavrg4.s32.s32.s32",
    "vmax2.u32.u32.u32 d.h1", "vset4.u32.u32.lt.add", "vabsdiff2.s32.s32.s32.add",
    "vadd.s32.u32.s32.sat d, a.b1, b.h1", "vsub.s32.s32.s32.sat d.b2", "vmin.s32.s32.s32.add",
    "vshl.u32.u32.u32.clamp.sat", "vshr.s32.s32.u32.wrap", "vmad.u32.u32.u32 a.h0 b.h1",
    "vset.u32.s32.ge d.h1", "vadd4.s32.s32.s32.sat a.b0123 b.b4444",
};

__global__ void simd_kernel(const unsigned *A, const unsigned *B, const unsigned *C, unsigned *out,
                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = A[i], b = B[i], c = C[i], r;
    unsigned *o = out + (size_t)i * NK;
    o[K_VADD2] = __vadd2(a, b);
    o[K_VADDUS2] = __vaddus2(a, b);
    o[K_VSUBSS4] = __vsubss4(a, b);
    o[K_VABSDIFFU4] = __vabsdiffu4(a, b);
    o[K_VABSDIFFS2] = __vabsdiffs2(a, b);
    o[K_VSADU4] = __vsadu4(a, b);
    o[K_VSADS2] = __vsads2(a, b);
    o[K_VAVGU4] = __vavgu4(a, b);
    o[K_VHADDU2] = __vhaddu2(a, b);
    o[K_VSETGTU4] = __vsetgtu4(a, b);
    o[K_VCMPEQ4] = __vcmpeq4(a, b);
    o[K_VMAXS2] = __vmaxs2(a, b);
    o[K_VMINU4] = __vminu4(a, b);
    o[K_VABSSS4] = __vabsss4(a);
    o[K_VSETEQ2] = __vseteq2(a, b);

    asm volatile("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VADD4_SAT] = r;
    asm volatile("vsub2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VSUB2_SS_SAT] = r;
    asm volatile("vavrg4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VAVRG4_S] = r;
    asm volatile("vmax2.u32.u32.u32 %0.h1, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VMAX2_MASK] = r;
    asm volatile("vset4.u32.u32.lt.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VSET4_ADD] = r;
    asm volatile("vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VABSDIFF2_ADD] = r;
    asm volatile("vadd.s32.u32.s32.sat %0, %1.b1, %2.h1;" : "=r"(r) : "r"(a), "r"(b));
    o[P_VADD_SEL] = r;
    asm volatile("vsub.s32.s32.s32.sat %0.b2, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VSUB_MERGE] = r;
    asm volatile("vmin.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VMIN_ADD] = r;
    asm volatile("vshl.u32.u32.u32.sat.clamp %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b & 63));
    o[P_VSHL_CLAMP] = r;
    asm volatile("vshr.s32.s32.u32.wrap %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    o[P_VSHR_WRAP] = r;
    asm volatile("vmad.u32.u32.u32 %0, %1.h0, %2.h1, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VMAD] = r;
    asm volatile("vset.u32.s32.ge %0.h1, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VSET_MERGE] = r;
    asm volatile("vadd4.s32.s32.s32.sat %0, %1.b0123, %2.b4444, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[P_VADD4_SEL] = r;
}

// ---------------------------------------------------------------- CPU references

static int64_t lane(uint32_t x, int w, int i, bool sgn)
{
    uint32_t v = (x >> (w * i)) & ((1u << w) - 1);
    if (sgn && (v >> (w - 1))) return (int64_t)v - ((int64_t)1 << w);
    return v;
}
static int64_t clampi(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static uint32_t put(uint32_t d, int w, int i, int64_t v)
{
    uint32_t m = ((1u << w) - 1) << (w * i);
    return (d & ~m) | (((uint32_t)v << (w * i)) & m);
}

static uint32_t ref(int k, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t d = 0;
    int64_t s = 0;
    switch (k) {
    case K_VADD2:
        for (int i = 0; i < 2; i++) d = put(d, 16, i, lane(a, 16, i, false) + lane(b, 16, i, false));
        return d;
    case K_VADDUS2:
        for (int i = 0; i < 2; i++)
            d = put(d, 16, i, clampi(lane(a, 16, i, false) + lane(b, 16, i, false), 0, 65535));
        return d;
    case K_VSUBSS4:
        for (int i = 0; i < 4; i++)
            d = put(d, 8, i, clampi(lane(a, 8, i, true) - lane(b, 8, i, true), -128, 127));
        return d;
    case K_VABSDIFFU4:
        for (int i = 0; i < 4; i++) d = put(d, 8, i, llabs(lane(a, 8, i, false) - lane(b, 8, i, false)));
        return d;
    case K_VABSDIFFS2:
        for (int i = 0; i < 2; i++) d = put(d, 16, i, llabs(lane(a, 16, i, true) - lane(b, 16, i, true)));
        return d;
    case K_VSADU4:
        for (int i = 0; i < 4; i++) s += llabs(lane(a, 8, i, false) - lane(b, 8, i, false));
        return (uint32_t)s;
    case K_VSADS2:
        for (int i = 0; i < 2; i++) s += llabs(lane(a, 16, i, true) - lane(b, 16, i, true));
        return (uint32_t)s;
    case K_VAVGU4:
        for (int i = 0; i < 4; i++) d = put(d, 8, i, (lane(a, 8, i, false) + lane(b, 8, i, false) + 1) / 2);
        return d;
    case K_VHADDU2:
        for (int i = 0; i < 2; i++) d = put(d, 16, i, (lane(a, 16, i, false) + lane(b, 16, i, false)) / 2);
        return d;
    case K_VSETGTU4:
        for (int i = 0; i < 4; i++) d = put(d, 8, i, lane(a, 8, i, false) > lane(b, 8, i, false));
        return d;
    case K_VCMPEQ4:
        for (int i = 0; i < 4; i++) d = put(d, 8, i, lane(a, 8, i, false) == lane(b, 8, i, false) ? 0xff : 0);
        return d;
    case K_VMAXS2:
        for (int i = 0; i < 2; i++) {
            int64_t x = lane(a, 16, i, true), y = lane(b, 16, i, true);
            d = put(d, 16, i, x > y ? x : y);
        }
        return d;
    case K_VMINU4:
        for (int i = 0; i < 4; i++) {
            int64_t x = lane(a, 8, i, false), y = lane(b, 8, i, false);
            d = put(d, 8, i, x < y ? x : y);
        }
        return d;
    case K_VABSSS4:
        for (int i = 0; i < 4; i++) d = put(d, 8, i, clampi(llabs(lane(a, 8, i, true)), 0, 127));
        return d;
    case K_VSETEQ2:
        for (int i = 0; i < 2; i++) d = put(d, 16, i, lane(a, 16, i, false) == lane(b, 16, i, false));
        return d;

    case P_VADD4_SAT:
        for (int i = 0; i < 4; i++)
            d = put(d, 8, i, clampi(lane(a, 8, i, false) + lane(b, 8, i, false), 0, 255));
        return d;
    case P_VSUB2_SS_SAT:
        for (int i = 0; i < 2; i++)
            d = put(d, 16, i, clampi(lane(a, 16, i, true) - lane(b, 16, i, true), -32768, 32767));
        return d;
    case P_VAVRG4_S:
        for (int i = 0; i < 4; i++) {
            int64_t t = lane(a, 8, i, true) + lane(b, 8, i, true);
            // ISA: (t + 1) >> 1 when t >= 0, else t >> 1 (an arithmetic shift: floor)
            d = put(d, 8, i, t >= 0 ? (t + 1) / 2 : -((-t + 1) / 2));
        }
        return d;
    case P_VMAX2_MASK: {
        int64_t x = lane(a, 16, 1, false), y = lane(b, 16, 1, false);
        return put(c, 16, 1, x > y ? x : y);
    }
    case P_VSET4_ADD:
        s = c;
        for (int i = 0; i < 4; i++) s += lane(a, 8, i, false) < lane(b, 8, i, false);
        return (uint32_t)s;
    case P_VABSDIFF2_ADD:
        s = c;
        for (int i = 0; i < 2; i++) s += llabs(lane(a, 16, i, true) - lane(b, 16, i, true));
        return (uint32_t)s;
    case P_VADD_SEL:
        return (uint32_t)clampi(lane(a, 8, 1, false) + lane(b, 16, 1, true), INT32_MIN, INT32_MAX);
    case P_VSUB_MERGE: {
        // GPU: saturating to a merged byte sends every value outside [0, 127] to 127,
        // negative ones included
        int64_t t = (int64_t)(int32_t)a - (int32_t)b;
        return put(c, 8, 2, t < 0 || t > 127 ? 127 : t);
    }
    case P_VMIN_ADD: {
        int64_t x = (int32_t)a, y = (int32_t)b;
        return (uint32_t)((x < y ? x : y) + (int32_t)c);
    }
    case P_VSHL_CLAMP: {
        // GPU: the shifted value keeps 34 bits, signed, before saturating (0x7f << 32 is
        // negative and saturates to 0)
        uint32_t n = (b & 63) > 32 ? 32 : (b & 63);
        uint64_t t34 = ((uint64_t)a << n) & ((1ull << 34) - 1);
        if (t34 >> 33) return 0;
        return t34 > 0xffffffffu ? 0xffffffffu : (uint32_t)t34;
    }
    case P_VSHR_WRAP:
        return (uint32_t)((int32_t)a >> (b & 31));   // arithmetic on the host compilers we use
    case P_VMAD:
        return (uint32_t)((uint64_t)(a & 0xffff) * (b >> 16) + c);
    case P_VSET_MERGE: {
        // GPU: d.h1 takes bits 16-31 of the 32-bit result in place, unshifted; vset's result
        // is 0 or 1, so h1 becomes 0
        uint32_t t = (int64_t)a >= (int64_t)(int32_t)b;
        return (c & 0xffffu) | (t & 0xffff0000u);
    }
    case P_VADD4_SEL:
        for (int i = 0; i < 4; i++)
            d = put(d, 8, i, clampi(lane(a, 8, 3 - i, true) + lane(b, 8, 0, true), -128, 127));
        return d;
    }
    return 0;
}

int main()
{
    const int n = 512;
    unsigned *hA = (unsigned *)malloc(n * sizeof(unsigned)), *hB = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *hC = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *hOut = (unsigned *)malloc((size_t)n * NK * sizeof(unsigned));
    static const unsigned edges[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
                                      0x80000000, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x01ff80fe,
                                      0x00010002, 0xfffe8001 };
    const int ne = (int)(sizeof edges / sizeof edges[0]);
    uint32_t x = 12345;
    for (int i = 0; i < n; i++) {
        if (i < ne * ne) {
            hA[i] = edges[i / ne];
            hB[i] = edges[i % ne];
        } else {
            x = x * 1664525u + 1013904223u; hA[i] = x;
            x = x * 1664525u + 1013904223u; hB[i] = x;
        }
        x = x * 1664525u + 1013904223u;
        hC[i] = x;
    }
    unsigned *dA, *dB, *dC, *dOut;
    CUDA_OK("cudaMalloc", cudaMalloc(&dA, n * sizeof(unsigned)));
    CUDA_OK("cudaMalloc", cudaMalloc(&dB, n * sizeof(unsigned)));
    CUDA_OK("cudaMalloc", cudaMalloc(&dC, n * sizeof(unsigned)));
    CUDA_OK("cudaMalloc", cudaMalloc(&dOut, (size_t)n * NK * sizeof(unsigned)));
    CUDA_OK("copy in", cudaMemcpy(dA, hA, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_OK("copy in", cudaMemcpy(dB, hB, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_OK("copy in", cudaMemcpy(dC, hC, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    simd_kernel<<<(n + 127) / 128, 128>>>(dA, dB, dC, dOut, n);
    CUDA_OK("launch", cudaGetLastError());
    CUDA_OK("synchronize", cudaDeviceSynchronize());
    CUDA_OK("copy out", cudaMemcpy(hOut, dOut, (size_t)n * NK * sizeof(unsigned), cudaMemcpyDeviceToHost));

    for (int k = 0; k < NK; k++) {
        int bad = -1;
        uint32_t want = 0;
        for (int i = 0; i < n && bad < 0; i++) {
            want = ref(k, hA[i], hB[i], hC[i]);
            if (hOut[(size_t)i * NK + k] != want) bad = i;
        }
        if (bad < 0)
            check(true, names[k], " ");
        else
            check(false, names[k], "a=%08x b=%08x c=%08x: got %08x, want %08x", hA[bad], hB[bad],
                  hC[bad], hOut[(size_t)bad * NK + k], want);
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dOut);
    free(hA); free(hB); free(hC); free(hOut);
    return check_finish();
}
