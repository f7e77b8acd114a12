#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Base { __device__ virtual int f(int x) { return x + 1; } };
struct Der : Base { __device__ int f(int x) override { return x * 2; } };

__device__ int (*fptr)(int);
__device__ int twice(int x) { return 2 * x; }
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

__global__ void warp_ops(unsigned *out, const float *in, double *dout, int n)
{
    unsigned t = threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, t & 1);
    int any = __any_sync(0xffffffffu, t == 3);
    int all = __all_sync(0xffffffffu, t < 64);
    unsigned a = __activemask();
    float v = __shfl_xor_sync(0xffffffffu, in[t], 1);
    v += __shfl_up_sync(0xffffffffu, v, 2);
    v += __shfl_sync(0xffffffffu, v, 5);
    unsigned mm = __match_any_sync(0xffffffffu, t / 4);
#if __CUDA_ARCH__ >= 800
    unsigned r = __reduce_add_sync(0xffffffffu, t);
#else
    unsigned r = 0;
#endif
    __syncwarp();
    atomicMax(out + 1, t); atomicMin(out + 2, t); atomicCAS(out + 3, 0u, t);
    atomicExch(out + 4, t); atomicAnd(out + 5, t); atomicOr(out + 6, t); atomicXor(out + 7, t);
    atomicInc(out + 8, 100u); atomicDec(out + 9, 100u);
    atomicAdd(dout, (double)v);
    atomicAdd((unsigned long long *)(dout + 1), 1ull);
    __half h = __float2half(v); __half2 h2 = __halves2half2(h, h); h2 = __hfma2(h2, h2, h2);
    __nv_bfloat16 b = __float2bfloat16(v); b = __hadd(b, b);
    out[t] = m + any + all + a + mm + r + __popc(t) + __clz(t) + __brev(t) + __ffs(t) +
             __byte_perm(t, m, 0x5410) + __funnelshift_l(t, m, 3) + __usad(t, m, 1) +
             (unsigned)__half2float(__low2half(h2)) + (unsigned)__bfloat162float(b) + __float_as_uint(__fdividef(v, 3.0f));
    dout[t] = sin(v) + exp((double)v) + sqrt((double)t) + rsqrtf(v) + __expf(v) + log2f(v) + tanhf(v) + fma((double)v, (double)v, 1.0);
    Base *p = (t & 1) ? new Der() : new Base();
    out[t] += p->f(t);
    delete p;
    fptr = (t & 2) ? twice : fact;
    out[t] += fptr(t) + fact(t & 7);
    long long c = clock64();
    if (t == 0) printf("%lld %d\n", c, n);
    if (t == 99) __trap();
    cg::thread_block blk = cg::this_thread_block();
    blk.sync();
    __nanosleep(100);
    __threadfence(); __threadfence_block(); __threadfence_system();
    out[t] += __syncthreads_count(t & 1) + __syncthreads_or(t) + __syncthreads_and(t);
}

__global__ void tex_kernel(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out)
{
    float x = tex2D<float>(tex, threadIdx.x, threadIdx.y);
    float4 y = tex1Dfetch<float4>(tex, threadIdx.x);
    surf2Dwrite(x + y.x, surf, threadIdx.x * 4, threadIdx.y);
    out[threadIdx.x] = x + y.w;
}

__global__ void vec_kernel(float4 *a, double2 *b, int4 *c, const __restrict__ float4 *d, short *s, char *ch)
{
    int i = threadIdx.x;
    float4 v = d[i];
    a[i] = make_float4(v.w, v.z, v.y, v.x);
    b[i] = make_double2(v.x, v.y);
    c[i] = make_int4(i, i + 1, i + 2, __float2int_rn(v.x));
    s[i] = (short)(s[i] * 3); ch[i] = (char)(ch[i] + __float2uint_rz(v.y) + __double2ll_rd(b[0].x) + (int)__half2float(__float2half_rn(v.z)));
    unsigned long long u = (unsigned long long)__umul64hi(i, 77) + __mulhi(i, 5) + __umul24(i, 3);
    a[0].x = (float)u + __saturatef(v.x) + copysignf(v.x, v.y) + fmaxf(v.x, v.y) + fminf(v.x, v.z) + floorf(v.x) + ceilf(v.y) + truncf(v.z) + roundf(v.w) + rintf(v.x);
}
