// tma_tensor.cu: the tensor memory accelerator (TMA) of sm_90. Tensor maps built with
// cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col reached through
// cudaGetDriverEntryPointByVersion, passed as __grid_constant__ parameters; cp.async.bulk.tensor
// global->shared (2D boxes over a matrix that is not a multiple of the box, so out-of-bound boxes
// are zero-filled or NaN-filled; a 3D box with negative coordinates and an element stride; an
// im2col pixel column) completing an mbarrier transaction count; shared->global stores that skip
// out-of-bound elements; the 128B swizzle layout; tensor and non-tensor bulk reductions
// (cp.reduce.async.bulk{.tensor}); the CUDA programming guide's libcu++ example
// (cuda::barrier, cp_async_bulk_tensor_2d_*); cuTensorMapReplaceAddress; and the encoder's
// argument checks. Every result is compared with a CPU reference.
// nvcc: -arch=sm_90
#include "check.cuh"

#include <cuda.h>
#include <cuda/barrier>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ void wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "WAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n"
                 "}" ::"r"(bar), "r"(parity) : "memory");
}

__device__ void bar_init(unsigned bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("fence.proxy.async.shared::cta;");
}

// Thread 0 loads the box at c[] into s (through bar, expecting `bytes`).
template <int ND>
__device__ void tma_load(const CUtensorMap *tm, void *s, unsigned bar, const int *c, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
    unsigned long long m = (unsigned long long)tm;
    if constexpr (ND == 2)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(smem(s)), "l"(m), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory");
    else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];"
                     ::"r"(smem(s)), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
}

// Thread 0 stores (reduce = 0) or add-reduces (reduce = 1) the box in s at c[].
template <int ND>
__device__ void tma_store(const CUtensorMap *tm, const void *s, const int *c, int reduce)
{
    unsigned long long m = (unsigned long long)tm;
    if (reduce) {
        if constexpr (ND == 2)
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(m), "r"(c[0]), "r"(c[1]), "r"(smem(s)) : "memory");
    } else {
        if constexpr (ND == 2)
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(m), "r"(c[0]), "r"(c[1]), "r"(smem(s)) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                         ::"l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(smem(s)) : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Block b loads the box at coords[b*ND..] and copies its raw shared-memory image (bytes) to dump.
template <int ND>
__global__ void load_dump(const __grid_constant__ CUtensorMap tm, const int *coords, unsigned bytes,
                          unsigned *dump)
{
    __shared__ alignas(1024) unsigned s[1024];
    __shared__ alignas(8) unsigned long long bar;
    const int *c = coords + blockIdx.x * ND;
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0xdeadbeefu;
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_init(smem(&bar));
        asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)&tm));
        tma_load<ND>(&tm, s, smem(&bar), c, bytes);
    }
    __syncthreads();
    wait_parity(smem(&bar), 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x)
        dump[blockIdx.x * (bytes / 4) + i] = s[i];
}

// Block b fills shared memory with src[b*bytes/4..] and stores (or add-reduces) it as the box
// at coords[b*ND..].
template <int ND>
__global__ void store_box(const __grid_constant__ CUtensorMap tm, const int *coords, unsigned bytes,
                          const unsigned *src, int reduce)
{
    __shared__ alignas(1024) unsigned s[1024];
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) s[i] = src[blockIdx.x * (bytes / 4) + i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) tma_store<ND>(&tm, s, coords + blockIdx.x * ND, reduce);
}

// One 32x8 box per block: load, out = in * 2 + 1, store through the output map.
__global__ void tile_transform(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out)
{
    __shared__ alignas(128) float a[8][32];
    __shared__ alignas(128) float b[8][32];
    __shared__ alignas(8) unsigned long long bar;
    int c[2] = { (int)blockIdx.x * 32, (int)blockIdx.y * 8 };
    if (threadIdx.x == 0) {
        bar_init(smem(&bar));
        tma_load<2>(&in, a, smem(&bar), c, sizeof a);
    }
    __syncthreads();
    wait_parity(smem(&bar), 0);
    int r = threadIdx.x / 32, k = threadIdx.x % 32;
    b[r][k] = a[r][k] * 2.0f + 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) tma_store<2>(&out, b, c, 0);
}

// Non-tensor bulk reductions: every block adds its 64 values into out (f32 add, u32 add/min/max
// into global memory) and reduces into a shared array through an mbarrier (u32 add).
__global__ void bulk_reduce(float *fsum, unsigned *usum, unsigned *umin, unsigned *umax)
{
    __shared__ alignas(128) float f[64];
    __shared__ alignas(128) unsigned u[64];
    __shared__ alignas(128) unsigned acc[64];
    __shared__ alignas(8) unsigned long long bar;
    int t = threadIdx.x, b = blockIdx.x;
    f[t] = (float)(b + 1) * 0.5f + (float)t;
    u[t] = (unsigned)(t * 7 + b * 13) % 50;
    acc[t] = 1000u * (unsigned)t;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;"
                     ::"l"(fsum), "r"(smem(f)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 256;"
                     ::"l"(usum), "r"(smem(u)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 [%0], [%1], 256;"
                     ::"l"(umin), "r"(smem(u)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [%0], [%1], 256;"
                     ::"l"(umax), "r"(smem(u)) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// The same values reduced into a shared array through an mbarrier (u32 add): shared::cta into
// shared::cluster, which runs only in a cluster launch (a plain launch raises an illegal
// instruction on an H100, and ptxsim does the same: cluster_copy_fault.cu).
__global__ void bulk_reduce_shared(unsigned *shared_out)
{
    __shared__ alignas(128) unsigned u[64];
    __shared__ alignas(128) unsigned acc[64];
    __shared__ alignas(8) unsigned long long bar;
    int t = threadIdx.x, b = blockIdx.x;
    u[t] = (unsigned)(t * 7 + b * 13) % 50;
    acc[t] = 1000u * (unsigned)t;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        bar_init(smem(&bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(smem(&bar)) : "memory");
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 256, [%2];"
                     ::"r"(smem(acc)), "r"(smem(u)), "r"(smem(&bar)) : "memory");
    }
    __syncthreads();
    wait_parity(smem(&bar), 0);
    shared_out[b * 64 + t] = acc[t];
}

// The CUDA programming guide's TMA example through libcu++: cuda::barrier with
// barrier_arrive_tx, cp_async_bulk_tensor_2d_global_to_shared / _shared_to_global and the bulk
// group waits. Each block adds (row * 1000 + column) to its 16 x 32 box of ints.
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__global__ void guide_example(const __grid_constant__ CUtensorMap tensor_map)
{
    __shared__ alignas(128) int box[16][32];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    int x = blockIdx.x * 32, y = blockIdx.y * 16;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    block_barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&box, &tensor_map, x, y, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(box));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));
    for (int r = 0; r < 16; r++) box[r][threadIdx.x] += (y + r) * 1000 + x + (int)threadIdx.x;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_shared_to_global(&tensor_map, x, y, &box);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
    if (threadIdx.x == 0) (&bar)->~block_barrier();
}

// im2col: block b loads the pixel column at coords[b*6..] (c, w, h, n, then the W and H im2col
// offsets) of an NHWC float tensor and dumps it.
__global__ void im2col_dump(const __grid_constant__ CUtensorMap tm, const int *coords, unsigned bytes,
                            unsigned *dump)
{
    __shared__ alignas(128) unsigned s[1024];
    __shared__ alignas(8) unsigned long long bar;
    const int *c = coords + blockIdx.x * 6;
    if (threadIdx.x == 0) {
        bar_init(smem(&bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(bytes) : "memory");
        unsigned short ow = (unsigned short)c[4], oh = (unsigned short)c[5];
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                     ::"r"(smem(s)), "l"((unsigned long long)&tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),
                     "r"(smem(&bar)), "h"(ow), "h"(oh) : "memory");
    }
    __syncthreads();
    wait_parity(smem(&bar), 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) dump[blockIdx.x * (bytes / 4) + i] = s[i];
}

// More bulk reductions into global memory: xor.b64, inc.u32, add.noftz.f16, min.s64 (one block
// each of 16 elements, 128 bytes)
__global__ void bulk_reduce_more(unsigned long long *x, unsigned *inc, __half *h, long long *mn)
{
    __shared__ alignas(128) unsigned long long sx[16];
    __shared__ alignas(128) unsigned si[32];
    __shared__ alignas(128) __half sh[64];
    __shared__ alignas(128) long long sm[16];
    int t = threadIdx.x;
    if (t < 16) {
        sx[t] = 0x0101010101010101ull * (unsigned)(t + 1);
        sm[t] = (long long)(t - 8) * 1000000000000ll;
    }
    si[t] = 10u;                              // inc wraps to 0 past 10
    sh[t] = __float2half(0.25f * (float)t);
    sh[t + 32] = __float2half(-1.0f);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64 [%0], [%1], 128;" ::"l"(x), "r"(smem(sx)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%0], [%1], 128;" ::"l"(inc), "r"(smem(si)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], 128;" ::"l"(h), "r"(smem(sh)) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s64 [%0], [%1], 128;" ::"l"(mn), "r"(smem(sm)) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// A tensor map in global memory: the block copies its parameter map into shared memory, publishes
// it to global memory with tensormap.cp_fenceproxy, acquires it for the tensor proxy, and loads
// the box at (x, y) through the global copy.
__global__ void global_map_load(const __grid_constant__ CUtensorMap tm, CUtensorMap *gmap, int x, int y,
                                unsigned *dump)
{
    __shared__ alignas(128) CUtensorMap smap;
    __shared__ alignas(128) unsigned s[256];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x < 16) ((unsigned long long *)&smap)[threadIdx.x] = ((const unsigned long long *)&tm)[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32)
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                     ::"l"(gmap), "r"(smem(&smap)) : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    if (threadIdx.x == 0) {
        bar_init(smem(&bar));
        int c[2] = { x, y };
        tma_load<2>(gmap, s, smem(&bar), c, 1024);
    }
    __syncthreads();
    wait_parity(smem(&bar), 0);
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) dump[i] = s[i];
}

static PFN_cuTensorMapEncodeTiled_v12000 encode;

static CUresult encode2d(CUtensorMap *m, CUtensorMapDataType dt, void *p, uint64_t w, uint64_t h,
                         uint64_t pitch, uint32_t bw, uint32_t bh,
                         CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_NONE,
                         CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
{
    cuuint64_t dims[2] = { w, h }, strides[1] = { pitch };
    cuuint32_t box[2] = { bw, bh }, es[2] = { 1, 1 };
    return encode(m, dt, 2, p, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                  CU_TENSOR_MAP_L2_PROMOTION_NONE, oob);
}

template <typename T> static T *to_device(const std::vector<T> &v)
{
    T *d;
    CUDA_OK("cudaMalloc", cudaMalloc(&d, v.size() * sizeof(T)));
    CUDA_OK("cudaMemcpy", cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <typename T> static std::vector<T> from_device(const T *d, size_t n)
{
    std::vector<T> v(n);
    CUDA_OK("cudaMemcpy", cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
}

static float bits_f(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

int main()
{
    // ---- the driver entry point
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (!check(e == cudaSuccess && fn && q == cudaDriverEntryPointSuccess, "entry_point_tiled",
               "error %d, fn %p, status %d", (int)e, fn, (int)q))
        return 1;
    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    void *nf = (void *)1;
    e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &nf, 12000, cudaEnableDefault, &q);
    check(e == cudaSuccess && nf == nullptr && q == cudaDriverEntryPointSymbolNotFound,
          "entry_point_unknown", "error %d, fn %p, status %d", (int)e, nf, (int)q);
    void *rf = nullptr, *gn = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &rf, 12000, cudaEnableDefault, &q);
    cudaGetDriverEntryPointByVersion("cuGetErrorName", &gn, 12000, cudaEnableDefault, &q);
    const char *name = nullptr;
    if (gn) ((PFN_cuGetErrorName_v6000)gn)(CUDA_ERROR_INVALID_VALUE, &name);
    check(rf && name && strcmp(name, "CUDA_ERROR_INVALID_VALUE") == 0, "entry_point_others",
          "replace %p, error name %s", rf, name ? name : "(null)");
    // A NULL result pointer: ptxsim refuses it; CUDA 13's runtime writes through it (an H100
    // crashes), so it is checked only under ptxsim.
    if (on_ptxsim()) {
        e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", nullptr, 12000,
                                             cudaEnableDefault, &q);
        check(e == cudaErrorInvalidValue, "entry_point_null", "got %d", (int)e);
        cudaGetLastError();
    }

    // ---- 2D: a 37 x 70 float matrix (rows 72 floats apart), 32 x 8 boxes
    const int W = 70, H = 37, P = 72;
    std::vector<float> in(H * P), out0(H * P, -7.0f);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < P; x++) in[y * P + x] = (float)(y * 100 + x);
    float *din = to_device(in), *dout = to_device(out0);
    alignas(64) CUtensorMap min, mout, mnan;
    CUresult r1 = encode2d(&min, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, din, W, H, P * 4, 32, 8);
    CUresult r2 = encode2d(&mout, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dout, W, H, P * 4, 32, 8);
    CUresult r3 = encode2d(&mnan, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, din, W, H, P * 4, 32, 8,
                           CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    check(r1 == CUDA_SUCCESS && r2 == CUDA_SUCCESS && r3 == CUDA_SUCCESS, "encode_2d", "%d %d %d", r1, r2, r3);

    dim3 grid((W + 31) / 32, (H + 7) / 8);
    tile_transform<<<grid, 256>>>(min, mout);
    CUDA_OK("tile_transform", cudaDeviceSynchronize());
    std::vector<float> got = from_device(dout, H * P);
    int bad = 0, first = -1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < P; x++) {
            // the pitch padding untouched, but for the rest of the row's last 16-byte granule,
            // which a tensor store writes as an H100 does (zeros loaded out of bounds, so
            // 0 * 2 + 1)
            bool tail = x >= W && x * 4 / 16 == (W * 4 - 1) / 16;
            float want = x < W ? in[y * P + x] * 2 + 1 : tail ? 1.0f : -7.0f;
            if (got[y * P + x] != want && bad++ == 0) first = y * P + x;
        }
    check(bad == 0, "tile_transform_2d", "%d wrong, first at %d: %g", bad, first, first >= 0 ? got[first] : 0.0);

    // raw boxes: an interior one, one over the right/bottom edges, one at negative coordinates
    std::vector<int> c2 = { 0, 0, 64, 32, -8, -3 };
    int *dc2 = to_device(c2);
    unsigned *ddump;
    CUDA_OK("cudaMalloc", cudaMalloc(&ddump, 3 * 1024 * 4));
    for (int nan = 0; nan < 2; nan++) {
        load_dump<2><<<3, 128>>>(nan ? mnan : min, dc2, 1024, ddump);
        CUDA_OK("load_dump", cudaDeviceSynchronize());
        std::vector<unsigned> d = from_device(ddump, 3 * 256);
        bad = 0;
        for (int b = 0; b < 3; b++)
            for (int r = 0; r < 8; r++)
                for (int k = 0; k < 32; k++) {
                    int x = c2[b * 2] + k, y = c2[b * 2 + 1] + r;
                    float v = bits_f(d[b * 256 + r * 32 + k]);
                    bool inside = x >= 0 && x < W && y >= 0 && y < H;
                    bool ok = inside ? v == in[y * P + x] : nan ? std::isnan(v) : d[b * 256 + r * 32 + k] == 0;
                    if (!ok) bad++;
                }
        check(bad == 0, nan ? "oob_fill_nan_2d" : "oob_fill_zero_2d", "%d wrong elements", bad);
    }

    // ---- 128B swizzle: a 64 x 16 matrix, box 32 x 8 (128-byte rows) at (32, 8)
    std::vector<float> sw(16 * 64);
    for (int i = 0; i < 16 * 64; i++) sw[i] = (float)i + 0.25f;
    float *dsw = to_device(sw);
    alignas(64) CUtensorMap msw;
    CUresult rs = encode2d(&msw, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dsw, 64, 16, 256, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B);
    std::vector<int> csw = { 32, 8 };
    int *dcsw = to_device(csw);
    load_dump<2><<<1, 128>>>(msw, dcsw, 1024, ddump);
    CUDA_OK("load_dump swizzle", cudaDeviceSynchronize());
    std::vector<unsigned> d = from_device(ddump, 256);
    bad = 0;
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 32; k++) {
            unsigned o = r * 128 + k * 4;
            unsigned s = o ^ (((o >> 7) & 7) << 4);   // the 16-byte chunk XOR row % 8
            if (bits_f(d[s / 4]) != sw[(8 + r) * 64 + 32 + k]) bad++;
        }
    check(rs == CUDA_SUCCESS && bad == 0, "swizzle_128b_load", "encode %d, %d wrong", rs, bad);
    // and back: storing the swizzled image through the same map gives the box unswizzled
    std::vector<float> zero(16 * 64, 0.0f);
    CUDA_OK("cudaMemcpy", cudaMemcpy(dsw, zero.data(), zero.size() * 4, cudaMemcpyHostToDevice));
    store_box<2><<<1, 128>>>(msw, dcsw, 1024, ddump, 0);
    CUDA_OK("store_box swizzle", cudaDeviceSynchronize());
    std::vector<float> back = from_device(dsw, 16 * 64);
    bad = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 64; x++) {
            float want = (y >= 8 && x >= 32) ? sw[y * 64 + x] : 0.0f;
            if (back[y * 64 + x] != want) bad++;
        }
    check(bad == 0, "swizzle_128b_store", "%d wrong", bad);

    // ---- 3D: 20 x 6 x 5 u32, box 8 x 4 x 2; a second map steps 2 along dimension 1
    const int X = 20, Y = 6, Z = 5, XP = 20;   // rows of 80 bytes
    std::vector<unsigned> t3(X * Y * Z);
    for (int i = 0; i < X * Y * Z; i++) t3[i] = 0x10000u + (unsigned)i;
    unsigned *dt3 = to_device(t3);
    alignas(64) CUtensorMap m3, m3s;
    cuuint64_t dims3[3] = { X, Y, Z }, str3[2] = { XP * 4, XP * 4 * Y };
    cuuint32_t box3[3] = { 8, 4, 2 }, es1[3] = { 1, 1, 1 }, es2[3] = { 1, 2, 1 };
    CUresult a3 = encode(&m3, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, dt3, dims3, str3, box3, es1,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    CUresult b3 = encode(&m3s, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, dt3, dims3, str3, box3, es2,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::vector<int> c3 = { 0, 0, 0, 16, 4, 4, -4, -2, 1 };
    int *dc3 = to_device(c3);
    for (int strided = 0; strided < 2; strided++) {
        int ny = strided ? 2 : 4;
        unsigned bytes = 8 * ny * 2 * 4;
        load_dump<3><<<3, 64>>>(strided ? m3s : m3, dc3, bytes, ddump);
        CUDA_OK("load_dump 3d", cudaDeviceSynchronize());
        d = from_device(ddump, 3 * bytes / 4);
        bad = 0;
        for (int b = 0; b < 3; b++)
            for (int k = 0; k < 2; k++)
                for (int j = 0; j < ny; j++)
                    for (int i = 0; i < 8; i++) {
                        int x = c3[b * 3] + i, y = c3[b * 3 + 1] + j * (strided ? 2 : 1), z = c3[b * 3 + 2] + k;
                        bool inside = x >= 0 && x < X && y >= 0 && y < Y && z >= 0 && z < Z;
                        unsigned want = inside ? t3[(z * Y + y) * XP + x] : 0;
                        if (d[b * (bytes / 4) + (k * ny + j) * 8 + i] != want) bad++;
                    }
        check((strided ? b3 : a3) == CUDA_SUCCESS && bad == 0,
              strided ? "load_3d_element_stride" : "load_3d_edges", "%d wrong", bad);
    }
    // 3D store of a box over the corner: only the in-bound elements land
    std::vector<unsigned> src3(64);
    for (int i = 0; i < 64; i++) src3[i] = 0xabc00u + (unsigned)i;
    unsigned *dsrc3 = to_device(src3);
    store_box<3><<<1, 64>>>(m3, dc3 + 3, 256, dsrc3, 0);
    CUDA_OK("store_box 3d", cudaDeviceSynchronize());
    std::vector<unsigned> g3 = from_device(dt3, X * Y * Z);
    bad = 0;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                int i = x - 16, j = y - 4, k = z - 4;
                bool inbox = i >= 0 && i < 8 && j >= 0 && j < 4 && k >= 0 && k < 2;
                unsigned want = inbox ? src3[(k * 4 + j) * 8 + i] : t3[(z * Y + y) * XP + x];
                if (g3[(z * Y + y) * XP + x] != want) bad++;
            }
    check(bad == 0, "store_3d_edges", "%d wrong", bad);

    // ---- tensor reduction: add boxes of index values into a u32 matrix
    alignas(64) CUtensorMap mred;
    std::vector<unsigned> racc(16 * 8, 5u);
    unsigned *dracc = to_device(racc);
    cuuint64_t rd[2] = { 12, 8 }, rs2[1] = { 64 };   // 12 x 8 u32 in rows of 16
    cuuint32_t rb[2] = { 8, 4 }, re[2] = { 1, 1 };
    CUresult ar = encode(&mred, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, dracc, rd, rs2, rb, re,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::vector<int> cr = { 8, 6, 8, 6, 0, 0 };   // twice over the corner, once at the origin
    int *dcr = to_device(cr);
    std::vector<unsigned> rsrc(3 * 32);
    for (int i = 0; i < 3 * 32; i++) rsrc[i] = (unsigned)i;
    unsigned *drsrc = to_device(rsrc);
    store_box<2><<<3, 32>>>(mred, dcr, 128, drsrc, 1);
    CUDA_OK("reduce tensor", cudaDeviceSynchronize());
    std::vector<unsigned> gr = from_device(dracc, 16 * 8);
    std::vector<unsigned> wr(16 * 8, 5u);
    for (int b = 0; b < 3; b++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 8; i++) {
                int x = cr[b * 2] + i, y = cr[b * 2 + 1] + j;
                if (x < 12 && y < 8) wr[y * 16 + x] += rsrc[b * 32 + j * 8 + i];
            }
    check(ar == CUDA_SUCCESS && gr == wr, "reduce_tensor_add", "encode %d, results differ", ar);

    // ---- non-tensor bulk reductions from 4 blocks
    std::vector<float> fs(64, 1.0f);
    std::vector<unsigned> us(64, 3u), um(64, 40u), ux(64, 10u);
    float *dfs = to_device(fs);
    unsigned *dus = to_device(us), *dum = to_device(um), *dux = to_device(ux), *dsh;
    CUDA_OK("cudaMalloc", cudaMalloc(&dsh, 4 * 64 * 4));
    bulk_reduce<<<4, 64>>>(dfs, dus, dum, dux);
    CUDA_OK("bulk_reduce", cudaDeviceSynchronize());
    // the shared::cluster reduction needs a cluster launch, which ptxsim refuses
    bool clusters = !on_ptxsim();
    if (clusters) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(4);
        cfg.blockDim = dim3(64);
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        CUDA_OK("bulk_reduce_shared", cudaLaunchKernelEx(&cfg, bulk_reduce_shared, dsh));
        CUDA_OK("bulk_reduce_shared", cudaDeviceSynchronize());
    }
    std::vector<float> gfs = from_device(dfs, 64);
    std::vector<unsigned> gus = from_device(dus, 64), gum = from_device(dum, 64), gux = from_device(dux, 64),
                          gsh = from_device(dsh, 4 * 64);
    int badf = 0, badu = 0, bads = 0;
    for (int t = 0; t < 64; t++) {
        float f = 1.0f;
        unsigned s = 3, mn = 40, mx = 10;
        for (int b = 0; b < 4; b++) {
            f += (float)(b + 1) * 0.5f + (float)t;
            unsigned u = (unsigned)(t * 7 + b * 13) % 50;
            s += u;
            mn = u < mn ? u : mn;
            mx = u > mx ? u : mx;
            if (gsh[b * 64 + t] != 1000u * t + u) bads++;
        }
        if (gfs[t] != f) badf++;
        if (gus[t] != s || gum[t] != mn || gux[t] != mx) badu++;
    }
    check(badf == 0, "bulk_reduce_add_f32", "%d wrong", badf);
    check(badu == 0, "bulk_reduce_u32_add_min_max", "%d wrong", badu);
    if (clusters) check(bads == 0, "bulk_reduce_shared_mbarrier", "%d wrong", bads);

    // ---- xor.b64, inc.u32, add.noftz.f16, min.s64
    {
        std::vector<unsigned long long> x(16, 0xff00ff00ff00ff00ull);
        std::vector<unsigned> inc(32);
        for (int i = 0; i < 32; i++) inc[i] = (unsigned)i % 12;   // 10 and 11 wrap to 0
        std::vector<__half> hh(64);
        for (int i = 0; i < 64; i++) hh[i] = __float2half((float)i);
        std::vector<long long> mn(16, 5);
        unsigned long long *dx = to_device(x);
        unsigned *dinc = to_device(inc);
        __half *dh = to_device(hh);
        long long *dmn = to_device(mn);
        bulk_reduce_more<<<1, 32>>>(dx, dinc, dh, dmn);
        CUDA_OK("bulk_reduce_more", cudaDeviceSynchronize());
        std::vector<unsigned long long> gx = from_device(dx, 16);
        std::vector<unsigned> ginc = from_device(dinc, 32);
        std::vector<__half> gh = from_device(dh, 64);
        std::vector<long long> gmn = from_device(dmn, 16);
        int b1 = 0, b2 = 0, b3 = 0, b4 = 0;
        for (int i = 0; i < 16; i++) {
            if (gx[i] != (0xff00ff00ff00ff00ull ^ (0x0101010101010101ull * (unsigned)(i + 1)))) b1++;
            long long sv = (long long)(i - 8) * 1000000000000ll;
            if (gmn[i] != (sv < 5 ? sv : 5)) b4++;
        }
        for (int i = 0; i < 32; i++)
            if (ginc[i] != (inc[i] >= 10 ? 0u : inc[i] + 1)) b2++;
        for (int i = 0; i < 64; i++) {
            float want = (float)i + (i < 32 ? 0.25f * (float)i : -1.0f);
            if (__half2float(gh[i]) != want) b3++;
        }
        check(b1 == 0 && b2 == 0 && b3 == 0 && b4 == 0, "bulk_reduce_xor_inc_f16_min_s64",
              "xor %d, inc %d, f16 %d, min %d wrong", b1, b2, b3, b4);
    }

    // ---- a map in global memory, published with tensormap.cp_fenceproxy
    {
        CUtensorMap *dmap;
        CUDA_OK("cudaMalloc", cudaMalloc(&dmap, sizeof(CUtensorMap)));
        global_map_load<<<1, 64>>>(min, dmap, 64, 32, ddump);
        CUDA_OK("global_map_load", cudaDeviceSynchronize());
        std::vector<unsigned> gd = from_device(ddump, 256);
        alignas(64) CUtensorMap back_map;
        CUDA_OK("cudaMemcpy", cudaMemcpy(&back_map, dmap, sizeof back_map, cudaMemcpyDeviceToHost));
        bad = memcmp(&back_map, &min, sizeof min) != 0 ? 1000 : 0;
        for (int r = 0; r < 8; r++)
            for (int k = 0; k < 32; k++) {
                int x = 64 + k, y = 32 + r;
                float want = x < W && y < H ? in[y * P + x] : 0.0f;
                if (bits_f(gd[r * 32 + k]) != want) bad++;
            }
        check(bad == 0, "global_tensormap_cp_fenceproxy", "%d wrong (1000: the copied map differs)", bad);
    }

    // ---- cuTensorMapReplaceAddress: the 2D input map now reads the transformed output matrix
    alignas(64) CUtensorMap mrep = min;
    CUresult rr = ((PFN_cuTensorMapReplaceAddress_v12000)rf)(&mrep, dout);
    load_dump<2><<<1, 128>>>(mrep, dc2, 1024, ddump);
    CUDA_OK("load_dump replaced", cudaDeviceSynchronize());
    d = from_device(ddump, 256);
    bad = 0;
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 32; k++)
            if (bits_f(d[r * 32 + k]) != got[r * P + k]) bad++;
    check(rr == CUDA_SUCCESS && bad == 0, "replace_address", "result %d, %d wrong", rr, bad);

    // ---- the programming guide's libcu++ example over a 40 x 50 int matrix (rows of 64)
    {
        const int GW = 50, GH = 40, GP = 64;
        std::vector<int> gm(GH * GP);
        for (int i = 0; i < GH * GP; i++) gm[i] = i % 97;
        int *dgm = to_device(gm);
        alignas(64) CUtensorMap mg;
        CUresult rg = encode2d(&mg, CU_TENSOR_MAP_DATA_TYPE_INT32, dgm, GW, GH, GP * 4, 32, 16);
        guide_example<<<dim3((GW + 31) / 32, (GH + 15) / 16), 32>>>(mg);
        CUDA_OK("guide_example", cudaDeviceSynchronize());
        std::vector<int> gg = from_device(dgm, GH * GP);
        bad = 0;
        for (int yy = 0; yy < GH; yy++)
            for (int xx = 0; xx < GP; xx++) {
                // the store also writes the rest of a row's last 16-byte granule (see
                // tile_transform_2d): there the box held zeros (loaded out of bounds) plus the
                // kernel's addend
                bool tail = xx >= GW && xx * 4 / 16 == (GW * 4 - 1) / 16;
                int want = xx < GW ? gm[yy * GP + xx] + yy * 1000 + xx
                           : tail  ? yy * 1000 + xx
                                   : gm[yy * GP + xx];
                if (gg[yy * GP + xx] != want) bad++;
            }
        check(rg == CUDA_SUCCESS && bad == 0, "libcudacxx_guide_example", "encode %d, %d wrong", rg, bad);
    }

    // ---- im2col: an NHWC tensor (C 8, W 5, H 4, N 2) with a 3x3-filter bounding box (corners
    // -1/-1), 16 pixels of 8 channels from two starting points, the second running off the batch
    {
        const int C = 8, IW = 5, IH = 4, IN = 2, PPC = 16;
        std::vector<float> img(C * IW * IH * IN);
        for (size_t i = 0; i < img.size(); i++) img[i] = (float)i + 0.5f;
        float *dimg = to_device(img);
        void *fi = nullptr;
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &fi, 12000, cudaEnableDefault, &q);
        alignas(64) CUtensorMap mi;
        cuuint64_t idim[4] = { C, IW, IH, IN }, istr[3] = { C * 4, C * 4 * IW, C * 4 * IW * IH };
        cuuint32_t ies[4] = { 1, 1, 1, 1 };
        int lower[2] = { -1, -1 }, upper[2] = { -1, -1 };
        CUresult ri = fi ? ((PFN_cuTensorMapEncodeIm2col_v12000)fi)(
                               &mi, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, dimg, idim, istr, lower, upper, C, PPC,
                               ies, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
                         : CUDA_ERROR_NOT_FOUND;
        std::vector<int> ic = { 0, -1, -1, 0, 0, 0, 0, 2, 1, 1, 1, 1 };
        int *dic = to_device(ic);
        unsigned bytes = PPC * C * 4;
        im2col_dump<<<2, 64>>>(mi, dic, bytes, ddump);
        CUDA_OK("im2col_dump", cudaDeviceSynchronize());
        std::vector<unsigned> dd = from_device(ddump, 2 * bytes / 4);
        int cntW = (IW - 1 + upper[0]) - lower[0] + 1, cntH = (IH - 1 + upper[1]) - lower[1] + 1;
        bad = 0;
        for (int b = 0; b < 2; b++) {
            const int *cc = &ic[b * 6];
            long lin = ((long)cc[3] * cntH + (cc[2] - lower[1])) * cntW + (cc[1] - lower[0]);
            for (int p = 0; p < PPC; p++) {
                long L = lin + p;
                int x = lower[0] + (int)(L % cntW) + cc[4];
                L /= cntW;
                int y = lower[1] + (int)(L % cntH) + cc[5];
                long n = L / cntH;
                for (int ch = 0; ch < C; ch++) {
                    bool inside = x >= 0 && x < IW && y >= 0 && y < IH && n < IN;
                    float want = inside ? img[((n * IH + y) * IW + x) * C + cc[0] + ch] : 0.0f;
                    if (bits_f(dd[b * (bytes / 4) + p * C + ch]) != want) bad++;
                }
            }
        }
        check(ri == CUDA_SUCCESS && bad == 0, "im2col_4d", "encode %d, %d wrong", ri, bad);
        int empty_lo[2] = { 3, 0 }, empty_hi[2] = { -3, 0 };   // W from 3 to 5-1-3 = 1: empty
        CUresult re = ((PFN_cuTensorMapEncodeIm2col_v12000)fi)(
            &mi, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, dimg, idim, istr, empty_lo, empty_hi, C, PPC, ies,
            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        check(re == CUDA_ERROR_INVALID_VALUE, "im2col_empty_box", "got %d", re);
    }

    // ---- the encoder's argument checks
    struct { const char *what; CUresult got; } errs[32];
    int ne = 0;
    alignas(64) CUtensorMap m;
    cuuint64_t dm[5] = { 64, 16, 4, 2, 2 }, st[4] = { 256, 4096, 16384, 32768 };
    cuuint32_t bx[5] = { 32, 8, 1, 1, 1 }, el[5] = { 1, 1, 1, 1, 1 };
#define ENC(w_, t, rank, ptr, dims, strides, box, estr, il, swz, oob)                                   \
    errs[ne].what = w_;                                                                                 \
    errs[ne++].got = encode(&m, t, rank, ptr, dims, strides, box, estr, il, swz,                        \
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, oob)
    const auto F32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    const auto NI = CU_TENSOR_MAP_INTERLEAVE_NONE;
    const auto NS = CU_TENSOR_MAP_SWIZZLE_NONE;
    const auto NO = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
    ENC("rank 0", F32, 0, dsw, dm, st, bx, el, NI, NS, NO);
    ENC("rank 6", F32, 6, dsw, dm, st, bx, el, NI, NS, NO);
    ENC("address not 16-aligned", F32, 2, (char *)dsw + 4, dm, st, bx, el, NI, NS, NO);
    cuuint64_t st_bad[1] = { 260 }, st_big[1] = { 1ull << 40 };
    ENC("stride not a multiple of 16", F32, 2, dsw, dm, st_bad, bx, el, NI, NS, NO);
    ENC("stride of 2^40", F32, 2, dsw, dm, st_big, bx, el, NI, NS, NO);
    cuuint64_t dm0[2] = { 0, 16 };
    ENC("dimension 0", F32, 2, dsw, dm0, st, bx, el, NI, NS, NO);
    cuuint32_t bx0[2] = { 0, 8 }, bx257[2] = { 32, 257 }, bx3[2] = { 3, 8 };
    ENC("box 0", F32, 2, dsw, dm, st, bx0, el, NI, NS, NO);
    ENC("box 257", F32, 2, dsw, dm, st, bx257, el, NI, NS, NO);
    ENC("inner box of 12 bytes", F32, 2, dsw, dm, st, bx3, el, NI, NS, NO);
    cuuint32_t el0[2] = { 1, 0 }, el9[2] = { 1, 9 };
    ENC("element stride 0", F32, 2, dsw, dm, st, bx, el0, NI, NS, NO);
    ENC("element stride 9", F32, 2, dsw, dm, st, bx, el9, NI, NS, NO);
    ENC("128-byte rows with a 64B swizzle", F32, 2, dsw, dm, st, bx, el, NI, CU_TENSOR_MAP_SWIZZLE_64B, NO);
    ENC("interleave with rank 2", F32, 2, dsw, dm, st, bx, el, CU_TENSOR_MAP_INTERLEAVE_16B, NS, NO);
    ENC("NaN fill of integers", CU_TENSOR_MAP_DATA_TYPE_INT32, 2, dsw, dm, st, bx, el, NI, NS,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    ENC("unknown data type", (CUtensorMapDataType)42, 2, dsw, dm, st, bx, el, NI, NS, NO);
    ENC("unknown swizzle", F32, 2, dsw, dm, st, bx, el, NI, (CUtensorMapSwizzle)9, NO);
    int wrong = 0;
    std::string which;
    for (int i = 0; i < ne; i++)
        if (errs[i].got != CUDA_ERROR_INVALID_VALUE) {
            wrong++;
            which += std::string(which.empty() ? "" : "; ") + errs[i].what + ": got " +
                     std::to_string((int)errs[i].got);
        }
    check(wrong == 0, "encode_errors", "%s", which.c_str());
    CUresult okr = encode(&m, F32, 5, dsw, dm, st, bx, el, NI, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, NO);
    // the reference asks a 32B interleave to go with the 32B swizzle; the 580 driver encodes it
    // without one
    CUresult il32 = encode(&m, F32, 3, dsw, dm, st, bx, el, CU_TENSOR_MAP_INTERLEAVE_32B, NS,
                           CU_TENSOR_MAP_L2_PROMOTION_NONE, NO);
    check(il32 == CUDA_SUCCESS, "encode_32b_interleave_without_swizzle", "got %d", il32);
    // the driver encodes into a map that is not 64-byte aligned (a kernel needs it aligned)
    alignas(64) char spare[sizeof(CUtensorMap) + 64];
    CUresult mis = encode((CUtensorMap *)(spare + 8), F32, 2, dsw, dm, st, bx, el, NI, NS, CU_TENSOR_MAP_L2_PROMOTION_NONE, NO);
    check(okr == CUDA_SUCCESS && mis == CUDA_SUCCESS, "encode_valid_and_misaligned_map",
          "5D with 128B swizzle %d, map at +8 %d", okr, mis);

    // ---- last, since the fault is sticky: a map the encoder never wrote faults the kernel
    alignas(64) CUtensorMap junk;
    memset(&junk, 0, sizeof junk);
    load_dump<2><<<1, 32>>>(junk, dc2, 1024, ddump);
    cudaError_t fe = cudaDeviceSynchronize();
    check(fe == cudaErrorIllegalInstruction, "unencoded_map_faults", "got %s", cudaGetErrorName(fe));
    return check_finish();
}
