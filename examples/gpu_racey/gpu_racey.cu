// gpu_racey.cu: GPU-Racey, a determinism stress test for CUDA (spec gpudet.md S11).
//
// Every kernel runs Racey's loop (Hill & Xu): each thread repeatedly reads a shared table m[]
// at data-dependent indices, mixes what it read into its running value and writes the result
// back. The accesses race on purpose, so any change in the relative order of memory accesses
// between warps cascades into a different final state. The host folds that state into one
// signature per kernel: a deterministic system prints the same signature on every run, a
// nondeterministic one (two or more warps running concurrently) does not.
//
// Variants (spec S11.3): R1 racey_global, R2 racey_one_warp, R3 racey_atomic_{add,exch,cas,one},
// R4 racey_barrier_k{1,4,13}, R5 racey_fence, R6 racey_diverge, R7 racey_many_wg,
// R8 racey_partial, R9 racey_bytes, R10 racey_shared, and `control`, the same arithmetic
// without sharing, checked against a CPU reference. R2 (one warp) is checked too, against a
// CPU model of a warp executing in lockstep (spec S3.4: highest active lane wins a same-address
// store; every lane's load of an instruction happens before any store of a later one).
//
// Output, one line per kernel:   signature <kernel> <16 hex digits>
// plus                           PASS control | FAIL control: ...
//                                PASS one_warp_reference | FAIL one_warp_reference: ...
// and FAIL <kernel>: <CUDA error> when a launch or copy fails. Exit status 0 when nothing failed.
// `--kernel gpudet_one_quantum` (not part of `all`) runs racey_global and checks it against a
// CPU model of GPUDet's contract, valid when the whole kernel is one quantum (--det=gpudet
// --quantum=1000000000): PASS gpudet_one_quantum_reference | FAIL ...
//
// Build: nvcc -cudart shared -lineinfo -o gpu_racey gpu_racey.cu
// Usage: gpu_racey [--kernel NAME[,NAME...]|all] [--loops N] [--blocks N] [--threads N]

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------- the Racey core (racey.c)

#define PRIME1 103072243u
#define PRIME2 103995407u
#define MAX_ELEM 64u

// Unsigned 32-bit arithmetic as in racey.c: the multiply and the add wrap modulo 2^32.
__host__ __device__ static inline unsigned mix(unsigned i, unsigned j)
{
    return (i + j * PRIME2) % PRIME1;
}

// R8's strided-store table: 1024 words = 32 chunks of 128 bytes.
#define PARTIAL_WORDS 1024u
// R9's byte table: 64 words, written one byte at a time and read back a word at a time.
#define BYTE_WORDS 64u

// The loop counts below are multiples of the default --loops (128): one R1 iteration is about
// 25 PTX instructions, so each warp runs ~3200 warp instructions, crossing a 200-instruction
// quantum ~16 times, while a whole kernel stays far below a million warp instructions.
#define DEFAULT_LOOPS 128
#define DEFAULT_BLOCKS 4
#define DEFAULT_THREADS 128
// R7 launches many small CTAs: this many times --blocks, of this many threads, with
// --loops / MANY_WG_LOOP_DIV iterations each.
#define MANY_WG_BLOCK_FACTOR 32
#define MANY_WG_THREADS 64
#define MANY_WG_LOOP_DIV 8

// ---------------------------------------------------------------- kernels

// R1 and R2: the loop of racey.c with t = global thread ID. In a warp, lanes whose i2
// coincide store to the same word in one instruction (the intra-warp collision case).
__global__ void racey_global(volatile unsigned *m, volatile unsigned *sig, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        sig[t] = num;
    }
}

enum atomic_kind { ATOMIC_ADD = 0, ATOMIC_EXCH = 1, ATOMIC_CAS = 2, ATOMIC_ONE = 3 };

// R3: the racy write becomes an atomic whose old value feeds the signature. ATOMIC_CAS
// succeeds only if nobody wrote m[i2] since this thread read it; ATOMIC_ONE sends every
// thread of the grid to the same word in each iteration. rets[t] folds every old value, so
// the order in which atomics were applied is visible even where m[] would not show it.
__global__ void racey_atomic(volatile unsigned *m, volatile unsigned *sig, unsigned *rets,
                             int loops, int kind)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *mm = (unsigned *)m;   // atomics act on the same words the volatile loads read
    unsigned fold = 2166136261u;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        unsigned seen = m[i2];
        num = mix(num, seen);
        unsigned old;
        if (kind == ATOMIC_ADD)
            old = atomicAdd(&mm[i2], num);
        else if (kind == ATOMIC_EXCH)
            old = atomicExch(&mm[i2], num);
        else if (kind == ATOMIC_CAS)
            old = atomicCAS(&mm[i2], seen, num);
        else
            old = atomicAdd(&mm[(unsigned)l % MAX_ELEM], num);
        num = mix(num, old);
        fold = (fold ^ old) * 16777619u;
        sig[t] = num;
    }
    rets[t] = fold;
}

// R4: a CTA barrier every k iterations (k is the same for every thread, so every thread
// reaches each barrier).
__global__ void racey_barrier(volatile unsigned *m, volatile unsigned *sig, int loops, int k)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        sig[t] = num;
        if ((l + 1) % k == 0)
            __syncthreads();
    }
}

// R5: a fence after the racy write, executed by a lane-dependent subset of the warp (so the
// fence itself sits in divergent code), and a second one between the two racy reads.
__global__ void racey_fence(volatile unsigned *m, volatile unsigned *sig, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        if (((unsigned)l + lane) % 7u == 0)
            __threadfence();
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        if (((unsigned)l * 3u + lane) % 5u == 0)
            __threadfence();
        sig[t] = num;
    }
}

// R6: each lane runs its own number of iterations and branches on the data it read, so
// quanta end inside divergent regions and at different loop depths per lane.
__global__ void racey_diverge(volatile unsigned *m, volatile unsigned *sig, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u;
    unsigned half = (unsigned)loops / 2u;
    int my_loops = (int)(half + (lane * 7u + blockIdx.x) % (half + 1u));
    for (int l = 0; l < my_loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        if (num & 1u) {
            num = mix(num, m[i2]);
            m[i2] = num;
        } else {
            unsigned inner = (num >> 5) % 4u;
            for (unsigned j = 0; j < inner; j++)
                num = mix(num, m[(i2 + 5u * j + 1u) % MAX_ELEM]);
            m[(i2 + 17u) % MAX_ELEM] = num;
        }
        sig[t] = num;
    }
}

// R7: many small CTAs (far more than are resident at once), each recording where it ran:
// %smid per CTA and %warpid per warp. Under GPUDet the placement must be deterministic too.
__global__ void racey_many_wg(volatile unsigned *m, volatile unsigned *sig, unsigned *smids,
                              unsigned *warpids, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned smid, warpid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    if (threadIdx.x == 0)
        smids[blockIdx.x] = smid;
    if (threadIdx.x % 32u == 0)
        warpids[t / 32u] = warpid;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        sig[t] = num;
    }
}

// R8: strided 32-bit stores that cover 128-byte chunks partially (and sometimes straddle two),
// then loads of overlapping words in the same quantum: the thread's own fresh store, and a
// neighbouring word that it, a lane of its warp or another warp may have written.
__global__ void racey_partial(volatile unsigned *m, volatile unsigned *sig, volatile unsigned *p,
                              int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned base = num % PARTIAL_WORDS;
        unsigned stride = 1u + (num >> 10) % 9u;
        for (unsigned j = 0; j < 4u; j++)
            p[(base + j * stride) % PARTIAL_WORDS] = mix(num, j + t);
        num = mix(num, p[(base + stride) % PARTIAL_WORDS]);
        num = mix(num, p[(base + 1u) % PARTIAL_WORDS]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        sig[t] = num;
    }
}

// R9: single-byte stores racing on shared words (different threads write different bytes of
// one word, or the same byte), read back a whole word at a time. The bytes are written
// through an unsigned char lvalue, which may alias any object.
__global__ void racey_bytes(volatile unsigned *m, volatile unsigned *sig, volatile unsigned *bw,
                            int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned char *bytes = (volatile unsigned char *)bw;
    const unsigned nbytes = BYTE_WORDS * 4u;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, m[num % MAX_ELEM]);
        unsigned bi = num % nbytes;
        bytes[bi] = (unsigned char)(num >> 8);
        bytes[(bi + 1u + (t & 3u)) % nbytes] = (unsigned char)t;
        num = mix(num, bw[(num >> 8) % BYTE_WORDS]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, m[i2]);
        m[i2] = num;
        sig[t] = num;
    }
}

// R10: the loop on a table in shared memory (one CTA, several warps), loaded from and
// written back to global m[] around it.
__global__ void racey_shared(volatile unsigned *m, volatile unsigned *sig, int loops)
{
    __shared__ unsigned sm_store[MAX_ELEM];
    volatile unsigned *sm = sm_store;
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned k = threadIdx.x; k < MAX_ELEM; k += blockDim.x)
        sm[k] = m[k];
    __syncthreads();
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, sm[num % MAX_ELEM]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, sm[i2]);
        sm[i2] = num;
        sig[t] = num;
    }
    __syncthreads();
    for (unsigned k = threadIdx.x; k < MAX_ELEM; k += blockDim.x)
        m[k] = sm[k];
}

// The race-free control: the same loop, but thread t owns its own table, word k of which is
// mc[k * n + t] (so a warp's lanes touch neighbouring words of the same chunks without ever
// sharing a word). Its result is the same under any schedule.
__global__ void racey_control(volatile unsigned *mc, volatile unsigned *sig, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned n = gridDim.x * blockDim.x;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = mix(num, mc[(num % MAX_ELEM) * n + t]);
        unsigned i2 = num % MAX_ELEM;
        num = mix(num, mc[i2 * n + t]);
        mc[i2 * n + t] = num;
        sig[t] = num;
    }
}

// ---------------------------------------------------------------- host side

static int g_failed = 0;

// Reports a failed CUDA call for kernel `name` and returns false, so callers can stop that
// kernel and go on with the next one.
static bool cuda_ok(cudaError_t e, const char *name, const char *what)
{
    if (e == cudaSuccess)
        return true;
    printf("FAIL %s: %s: %s (%s)\n", name, what, cudaGetErrorString(e), cudaGetErrorName(e));
    g_failed = 1;
    return false;
}

// The 64-bit FNV-1a hash of 32-bit words, little-endian byte order.
static uint64_t fnv_words(uint64_t h, const unsigned *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (w[i] >> (8 * b)) & 0xffu;
            h *= 1099511628211ull;
        }
    return h;
}

// racey.c's final fold of sig[].
static unsigned racey_fold(const unsigned *sig, size_t n)
{
    unsigned s = sig[0];
    for (size_t t = 1; t < n; t++)
        s = mix(sig[t], s);
    return s;
}

// The signature: Racey's fold of sig[], then the whole of m[], then each extra array the
// kernel produced (atomic return values, placement, R8/R9 tables).
struct extra { const unsigned *w; size_t n; };

static uint64_t signature_of(const unsigned *sig, size_t nsig, const unsigned *m, size_t nm,
                             const extra *ex, int nex)
{
    unsigned s = racey_fold(sig, nsig);
    uint64_t h = fnv_words(14695981039346656037ull, &s, 1);
    h = fnv_words(h, m, nm);
    for (int i = 0; i < nex; i++)
        h = fnv_words(h, ex[i].w, ex[i].n);
    return h;
}

static void init_racey(unsigned *m, unsigned *sig, size_t n)
{
    for (unsigned k = 0; k < MAX_ELEM; k++)
        m[k] = mix(k, k);
    for (size_t t = 0; t < n; t++)
        sig[t] = (unsigned)t;
}

// CPU reference of racey_control: each thread alone, in any order.
static void control_reference(unsigned *mc, unsigned *sig, unsigned n, int loops)
{
    for (unsigned t = 0; t < n; t++)
        for (int l = 0; l < loops; l++) {
            unsigned num = sig[t];
            num = mix(num, mc[(num % MAX_ELEM) * n + t]);
            unsigned i2 = num % MAX_ELEM;
            num = mix(num, mc[i2 * n + t]);
            mc[i2 * n + t] = num;
            sig[t] = num;
        }
}

// CPU reference of racey_global run by one warp of `lanes` threads (spec S3.4): the warp
// executes each instruction for all lanes before the next, in the source's order of volatile
// accesses (ld sig, ld m, ld m, st m, st sig); in the one same-address store instruction
// (st m[i2]) the highest lane wins, which storing in ascending lane order gives. written[k]
// (when given) records which words of m[] the warp stored to.
static void one_warp_reference(unsigned *m, unsigned *sig, unsigned lanes, int loops,
                               bool *written = NULL)
{
    unsigned num[32], i2[32];
    for (int l = 0; l < loops; l++) {
        for (unsigned a = 0; a < lanes; a++)
            num[a] = sig[a];
        for (unsigned a = 0; a < lanes; a++)
            num[a] = mix(num[a], m[num[a] % MAX_ELEM]);
        for (unsigned a = 0; a < lanes; a++) {
            i2[a] = num[a] % MAX_ELEM;
            num[a] = mix(num[a], m[i2[a]]);
        }
        for (unsigned a = 0; a < lanes; a++) {
            m[i2[a]] = num[a];
            if (written)
                written[i2[a]] = true;
        }
        for (unsigned a = 0; a < lanes; a++)
            sig[a] = num[a];
    }
}

// CPU model of GPUDet's contract (spec S3, S6, S7) for racey_global run as ONE quantum (a
// quantum larger than any warp's instruction count, so no warp stops before it exits): every
// warp runs in isolation on the memory of the kernel's start plus its own stores, which is
// one_warp_reference on a private copy of m[]; then the stores commit so that each word holds
// the value of the highest-priority warp that wrote it, priority being the lowest hardware
// warp ID. With at most one CTA per SM, CTA c sits in CTA slot c (slots fill in ascending
// order, gslot = k * SMs + sm), on SM c, and its warp i has ID i * SMs + c (warp slot L of SM s
// has ID L * SMs + s). sig[] words are written by their own thread only.
static void gpudet_one_quantum_reference(unsigned *m, unsigned *sig, unsigned blocks,
                                         unsigned threads, unsigned sms, int loops)
{
    unsigned warps = threads / 32u;
    unsigned start[MAX_ELEM], best_id[MAX_ELEM];
    memcpy(start, m, sizeof start);
    for (unsigned k = 0; k < MAX_ELEM; k++)
        best_id[k] = ~0u;
    for (unsigned c = 0; c < blocks; c++)
        for (unsigned i = 0; i < warps; i++) {
            unsigned view[MAX_ELEM], id = i * sms + c;
            bool written[MAX_ELEM] = {false};
            memcpy(view, start, sizeof view);
            unsigned *wsig = sig + c * threads + i * 32u;
            one_warp_reference(view, wsig, 32u, loops, written);
            for (unsigned k = 0; k < MAX_ELEM; k++)
                if (written[k] && id < best_id[k]) {
                    best_id[k] = id;
                    m[k] = view[k];
                }
        }
}

struct options {
    int loops, blocks, threads;
};

// Device buffers of one kernel run, and their host copies.
struct run_buffers {
    unsigned *d_m, *d_sig, *d_x1, *d_x2;
    unsigned *m, *sig, *x1, *x2;
    size_t nm, nsig, nx1, nx2;
};

static void free_buffers(run_buffers *b)
{
    cudaFree(b->d_m);
    cudaFree(b->d_sig);
    cudaFree(b->d_x1);
    cudaFree(b->d_x2);
    free(b->m);
    free(b->sig);
    free(b->x1);
    free(b->x2);
    memset(b, 0, sizeof *b);
}

// Allocates m[nm] and sig[nsig] initialised as in racey.c (sig[t] = t; m[k] = mix(k, k), or
// with per_thread_tables word k of every thread's table, m[k * nsig + t] = mix(k, k)), and
// zeroed extra arrays x1[nx1], x2[nx2]; copies them all to the device.
static bool setup_buffers(run_buffers *b, const char *name, size_t nm, size_t nsig, size_t nx1,
                          size_t nx2, bool per_thread_tables = false)
{
    memset(b, 0, sizeof *b);
    b->nm = nm;
    b->nsig = nsig;
    b->nx1 = nx1;
    b->nx2 = nx2;
    b->m = (unsigned *)calloc(nm, sizeof(unsigned));
    b->sig = (unsigned *)calloc(nsig, sizeof(unsigned));
    b->x1 = (unsigned *)calloc(nx1 ? nx1 : 1, sizeof(unsigned));
    b->x2 = (unsigned *)calloc(nx2 ? nx2 : 1, sizeof(unsigned));
    if (!b->m || !b->sig || !b->x1 || !b->x2) {
        printf("FAIL %s: out of host memory\n", name);
        g_failed = 1;
        return false;
    }
    if (!per_thread_tables) {
        init_racey(b->m, b->sig, nsig);
    } else {
        for (size_t t = 0; t < nsig; t++)
            b->sig[t] = (unsigned)t;
        for (size_t k = 0; k < MAX_ELEM; k++)
            for (size_t t = 0; t < nsig; t++)
                b->m[k * nsig + t] = mix((unsigned)k, (unsigned)k);
    }
    return cuda_ok(cudaMalloc(&b->d_m, nm * sizeof(unsigned)), name, "cudaMalloc") &&
           cuda_ok(cudaMalloc(&b->d_sig, nsig * sizeof(unsigned)), name, "cudaMalloc") &&
           cuda_ok(cudaMalloc(&b->d_x1, (nx1 ? nx1 : 1) * sizeof(unsigned)), name, "cudaMalloc") &&
           cuda_ok(cudaMalloc(&b->d_x2, (nx2 ? nx2 : 1) * sizeof(unsigned)), name, "cudaMalloc") &&
           cuda_ok(cudaMemcpy(b->d_m, b->m, nm * sizeof(unsigned), cudaMemcpyHostToDevice), name,
                   "cudaMemcpy to device") &&
           cuda_ok(cudaMemcpy(b->d_sig, b->sig, nsig * sizeof(unsigned), cudaMemcpyHostToDevice),
                   name, "cudaMemcpy to device") &&
           cuda_ok(cudaMemset(b->d_x1, 0, (nx1 ? nx1 : 1) * sizeof(unsigned)), name,
                   "cudaMemset") &&
           cuda_ok(cudaMemset(b->d_x2, 0, (nx2 ? nx2 : 1) * sizeof(unsigned)), name,
                   "cudaMemset");
}

// Waits for the launch just made, copies every buffer back and prints the signature.
static bool finish_run(run_buffers *b, const char *name, uint64_t *sig_out)
{
    if (!cuda_ok(cudaGetLastError(), name, "kernel launch") ||
        !cuda_ok(cudaDeviceSynchronize(), name, "kernel execution") ||
        !cuda_ok(cudaMemcpy(b->m, b->d_m, b->nm * sizeof(unsigned), cudaMemcpyDeviceToHost), name,
                 "cudaMemcpy to host") ||
        !cuda_ok(cudaMemcpy(b->sig, b->d_sig, b->nsig * sizeof(unsigned),
                            cudaMemcpyDeviceToHost),
                 name, "cudaMemcpy to host") ||
        !cuda_ok(cudaMemcpy(b->x1, b->d_x1, (b->nx1 ? b->nx1 : 1) * sizeof(unsigned),
                            cudaMemcpyDeviceToHost),
                 name, "cudaMemcpy to host") ||
        !cuda_ok(cudaMemcpy(b->x2, b->d_x2, (b->nx2 ? b->nx2 : 1) * sizeof(unsigned),
                            cudaMemcpyDeviceToHost),
                 name, "cudaMemcpy to host"))
        return false;
    extra ex[2] = {{b->x1, b->nx1}, {b->x2, b->nx2}};
    uint64_t s = signature_of(b->sig, b->nsig, b->m, b->nm, ex, 2);
    printf("signature %s %016llx\n", name, (unsigned long long)s);
    if (sig_out)
        *sig_out = s;
    return true;
}

// ---------------------------------------------------------------- one runner per variant

static void run_global(const options *o)
{
    const char *name = "racey_global";
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_global<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_one_warp(const options *o)
{
    const char *name = "racey_one_warp";
    const unsigned lanes = 32;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, lanes, 0, 0)) {
        racey_global<<<1, lanes>>>(b.d_m, b.d_sig, o->loops);
        uint64_t got_sig;
        if (finish_run(&b, name, &got_sig)) {
            unsigned rm[MAX_ELEM], rsig[32];
            init_racey(rm, rsig, lanes);
            one_warp_reference(rm, rsig, lanes, o->loops);
            uint64_t want_sig = signature_of(rsig, lanes, rm, MAX_ELEM, NULL, 0);
            int bad = -1;
            const char *what = "";
            for (unsigned k = 0; k < MAX_ELEM && bad < 0; k++)
                if (b.m[k] != rm[k]) { bad = (int)k; what = "m"; }
            for (unsigned a = 0; a < lanes && bad < 0; a++)
                if (b.sig[a] != rsig[a]) { bad = (int)a; what = "sig"; }
            if (bad < 0 && got_sig == want_sig) {
                printf("PASS one_warp_reference\n");
            } else if (bad >= 0) {
                unsigned got = what[0] == 'm' ? b.m[bad] : b.sig[bad];
                unsigned want = what[0] == 'm' ? rm[bad] : rsig[bad];
                printf("FAIL one_warp_reference: signature %016llx, the lockstep CPU reference "
                       "(highest lane wins) gives %016llx; first difference %s[%d] = %u, "
                       "reference %u\n", (unsigned long long)got_sig,
                       (unsigned long long)want_sig, what, bad, got, want);
                g_failed = 1;
            } else {
                printf("FAIL one_warp_reference: signature %016llx, reference %016llx\n",
                       (unsigned long long)got_sig, (unsigned long long)want_sig);
                g_failed = 1;
            }
        }
    }
    free_buffers(&b);
}

// Not part of `all`: holds only under --det=gpudet with a quantum no warp reaches (the
// determinism suite runs it with --quantum=1000000000). Checks racey_global against the model.
static void run_gpudet_one_quantum(const options *o)
{
    const char *name = "gpudet_one_quantum";
    size_t n = (size_t)o->blocks * o->threads;
    cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), name, "cudaGetDeviceProperties"))
        return;
    if (o->threads % 32 != 0 || o->blocks > prop.multiProcessorCount) {
        printf("FAIL %s: the model needs whole warps and at most one CTA per SM (%d SMs)\n",
               name, prop.multiProcessorCount);
        g_failed = 1;
        return;
    }
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_global<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops);
        uint64_t got_sig;
        if (finish_run(&b, name, &got_sig)) {
            unsigned rm[MAX_ELEM];
            unsigned *rsig = (unsigned *)calloc(n, sizeof(unsigned));
            if (!rsig) {
                printf("FAIL %s: out of host memory\n", name);
                g_failed = 1;
                free_buffers(&b);
                return;
            }
            init_racey(rm, rsig, n);
            gpudet_one_quantum_reference(rm, rsig, (unsigned)o->blocks, (unsigned)o->threads,
                                         (unsigned)prop.multiProcessorCount, o->loops);
            int bad = -1;
            const char *what = "";
            for (unsigned k = 0; k < MAX_ELEM && bad < 0; k++)
                if (b.m[k] != rm[k]) { bad = (int)k; what = "m"; }
            for (size_t a = 0; a < n && bad < 0; a++)
                if (b.sig[a] != rsig[a]) { bad = (int)a; what = "sig"; }
            if (bad < 0) {
                printf("PASS gpudet_one_quantum_reference\n");
            } else {
                unsigned got = what[0] == 'm' ? b.m[bad] : b.sig[bad];
                unsigned want = what[0] == 'm' ? rm[bad] : rsig[bad];
                printf("FAIL gpudet_one_quantum_reference: %s[%d] = %u, the GPUDet model (warps "
                       "isolated, lowest warp ID wins) gives %u\n", what, bad, got, want);
                g_failed = 1;
            }
            free(rsig);
        }
    }
    free_buffers(&b);
}

static void run_atomic(const options *o, int kind)
{
    static const char *names[] = {"racey_atomic_add", "racey_atomic_exch", "racey_atomic_cas",
                                  "racey_atomic_one"};
    const char *name = names[kind];
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, n, 0)) {
        racey_atomic<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, b.d_x1, o->loops, kind);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_barrier(const options *o, int k)
{
    char name[32];
    snprintf(name, sizeof name, "racey_barrier_k%d", k);
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_barrier<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops, k);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_fence(const options *o)
{
    const char *name = "racey_fence";
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_fence<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_diverge(const options *o)
{
    const char *name = "racey_diverge";
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_diverge<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_many_wg(const options *o)
{
    const char *name = "racey_many_wg";
    int blocks = o->blocks * MANY_WG_BLOCK_FACTOR;
    int loops = o->loops / MANY_WG_LOOP_DIV > 0 ? o->loops / MANY_WG_LOOP_DIV : 1;
    size_t n = (size_t)blocks * MANY_WG_THREADS;
    size_t warps = (size_t)blocks * ((MANY_WG_THREADS + 31) / 32);
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, (size_t)blocks, warps)) {
        racey_many_wg<<<blocks, MANY_WG_THREADS>>>(b.d_m, b.d_sig, b.d_x1, b.d_x2, loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_partial(const options *o)
{
    const char *name = "racey_partial";
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, PARTIAL_WORDS, 0)) {
        racey_partial<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, b.d_x1, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_bytes(const options *o)
{
    const char *name = "racey_bytes";
    size_t n = (size_t)o->blocks * o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, BYTE_WORDS, 0)) {
        racey_bytes<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, b.d_x1, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_shared(const options *o)
{
    const char *name = "racey_shared";
    size_t n = (size_t)o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, MAX_ELEM, n, 0, 0)) {
        racey_shared<<<1, o->threads>>>(b.d_m, b.d_sig, o->loops);
        finish_run(&b, name, NULL);
    }
    free_buffers(&b);
}

static void run_control(const options *o)
{
    const char *name = "control";
    unsigned n = (unsigned)o->blocks * (unsigned)o->threads;
    run_buffers b;
    if (setup_buffers(&b, name, (size_t)MAX_ELEM * n, n, 0, 0, true)) {
        // Reference from the same initial state, computed before the device results arrive.
        unsigned *rm = (unsigned *)malloc((size_t)MAX_ELEM * n * sizeof(unsigned));
        unsigned *rsig = (unsigned *)malloc((size_t)n * sizeof(unsigned));
        if (!rm || !rsig) {
            printf("FAIL control: out of host memory\n");
            g_failed = 1;
        } else {
            memcpy(rm, b.m, (size_t)MAX_ELEM * n * sizeof(unsigned));
            memcpy(rsig, b.sig, (size_t)n * sizeof(unsigned));
            control_reference(rm, rsig, n, o->loops);
            uint64_t want_sig = signature_of(rsig, n, rm, (size_t)MAX_ELEM * n, NULL, 0);
            uint64_t got_sig;
            racey_control<<<o->blocks, o->threads>>>(b.d_m, b.d_sig, o->loops);
            if (finish_run(&b, name, &got_sig)) {
                long bad = -1;
                const char *what = "";
                for (size_t i = 0; i < (size_t)MAX_ELEM * n && bad < 0; i++)
                    if (b.m[i] != rm[i]) { bad = (long)i; what = "m"; }
                for (size_t t = 0; t < n && bad < 0; t++)
                    if (b.sig[t] != rsig[t]) { bad = (long)t; what = "sig"; }
                if (bad < 0 && got_sig == want_sig) {
                    printf("PASS control\n");
                } else if (bad < 0) {
                    printf("FAIL control: signature %016llx, CPU reference %016llx\n",
                           (unsigned long long)got_sig, (unsigned long long)want_sig);
                    g_failed = 1;
                } else if (what[0] == 'm') {
                    printf("FAIL control: signature %016llx, CPU reference %016llx; first "
                           "difference m[%ld] (thread %ld, word %ld) = %u, reference %u\n",
                           (unsigned long long)got_sig, (unsigned long long)want_sig, bad,
                           bad % (long)n, bad / (long)n, b.m[bad], rm[bad]);
                    g_failed = 1;
                } else {
                    printf("FAIL control: signature %016llx, CPU reference %016llx; first "
                           "difference sig[%ld] = %u, reference %u\n",
                           (unsigned long long)got_sig, (unsigned long long)want_sig, bad,
                           b.sig[bad], rsig[bad]);
                    g_failed = 1;
                }
            }
        }
        free(rm);
        free(rsig);
    }
    free_buffers(&b);
}

// ---------------------------------------------------------------- driver

// The names --kernel accepts, in the order `all` runs them. A family name (racey_atomic,
// racey_barrier) selects every member; the "racey_" prefix may be left out.
static const char *const kernel_names[] = {
    "racey_global",    "racey_one_warp",    "racey_atomic_add", "racey_atomic_exch",
    "racey_atomic_cas", "racey_atomic_one", "racey_barrier_k1", "racey_barrier_k4",
    "racey_barrier_k13", "racey_fence",     "racey_diverge",    "racey_many_wg",
    "racey_partial",   "racey_bytes",       "racey_shared",     "control",
    "gpudet_one_quantum",
};
#define KERNEL_COUNT (sizeof kernel_names / sizeof kernel_names[0])
// `all` runs the kernels before this one; the ones after it are checks of one mode each.
#define ALL_COUNT 16

static void run_kernel(int idx, const options *o)
{
    switch (idx) {
    case 0: run_global(o); break;
    case 1: run_one_warp(o); break;
    case 2: case 3: case 4: case 5: run_atomic(o, idx - 2); break;
    case 6: run_barrier(o, 1); break;
    case 7: run_barrier(o, 4); break;
    case 8: run_barrier(o, 13); break;
    case 9: run_fence(o); break;
    case 10: run_diverge(o); break;
    case 11: run_many_wg(o); break;
    case 12: run_partial(o); break;
    case 13: run_bytes(o); break;
    case 14: run_shared(o); break;
    case 15: run_control(o); break;
    case 16: run_gpudet_one_quantum(o); break;
    }
}

// Marks in sel[] the kernels one --kernel word names; false if it names none.
static bool select_word(const char *word, bool *sel)
{
    if (strcmp(word, "all") == 0) {
        for (size_t i = 0; i < ALL_COUNT; i++)
            sel[i] = true;
        return true;
    }
    char full[64];
    if (strcmp(word, "racey_control") == 0)
        word = "control";
    if (strncmp(word, "racey_", 6) != 0 && strcmp(word, "control") != 0 &&
        strcmp(word, "gpudet_one_quantum") != 0)
        snprintf(full, sizeof full, "racey_%s", word);
    else
        snprintf(full, sizeof full, "%s", word);
    size_t len = strlen(full);
    bool any = false;
    for (size_t i = 0; i < KERNEL_COUNT; i++) {
        const char *k = kernel_names[i];
        // exact, or a family prefix followed by '_' (racey_atomic -> racey_atomic_add, ...)
        if (strcmp(k, full) == 0 || (strncmp(k, full, len) == 0 && k[len] == '_' &&
                                     (strcmp(full, "racey_atomic") == 0 ||
                                      strcmp(full, "racey_barrier") == 0))) {
            sel[i] = true;
            any = true;
        }
    }
    return any;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpu_racey [--kernel NAME[,NAME...]|all] [--loops N] [--blocks N] "
            "[--threads N]\n"
            "  defaults: --kernel all --loops %d --blocks %d --threads %d\n"
            "  kernels:",
            DEFAULT_LOOPS, DEFAULT_BLOCKS, DEFAULT_THREADS);
    for (size_t i = 0; i < ALL_COUNT; i++)
        fprintf(f, " %s", kernel_names[i]);
    fprintf(f, "\n  families: racey_atomic, racey_barrier\n"
               "  gpudet_one_quantum: racey_global checked against a model of GPUDet, for\n"
               "    --det=gpudet with a quantum no warp reaches (not part of all)\n");
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

int main(int argc, char **argv)
{
    options o = {DEFAULT_LOOPS, DEFAULT_BLOCKS, DEFAULT_THREADS};
    const char *kernels = "all";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--kernel") == 0 && v) {
            kernels = v;
        } else if (strcmp(a, "--loops") == 0 && v) {
            ok = parse_int(v, 1, 1 << 20, &o.loops);
        } else if (strcmp(a, "--blocks") == 0 && v) {
            ok = parse_int(v, 1, 1 << 16, &o.blocks);
        } else if (strcmp(a, "--threads") == 0 && v) {
            ok = parse_int(v, 1, 1024, &o.threads);
        } else {
            fprintf(stderr, "gpu_racey: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "gpu_racey: bad value '%s' for %s\n", v, a);
            return 2;
        }
        i++;
    }

    bool sel[KERNEL_COUNT] = {false};
    char list[256];
    snprintf(list, sizeof list, "%s", kernels);
    for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!select_word(w, sel)) {
            fprintf(stderr, "gpu_racey: unknown kernel '%s'\n", w);
            usage(stderr);
            return 2;
        }
    }

    for (size_t i = 0; i < KERNEL_COUNT; i++)
        if (sel[i])
            run_kernel((int)i, &o);
    return g_failed ? 1 : 0;
}
