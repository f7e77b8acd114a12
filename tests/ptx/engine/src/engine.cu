// engine.cu: kernels for the engine and GPUDet unit tests (tests/unit/test_engine_*.c,
// test_gpudet_*.c). Regenerate the PTX with:
//   nvcc -arch=sm_75 -ptx -o tests/ptx/engine/engine_sm75.ptx tests/ptx/engine/src/engine.cu
#include <cuda_runtime.h>

// Race-free: one element per thread.
extern "C" __global__ void scale(float *out, const float *in, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * k + (float)i;
}

// Every thread takes a ticket from one counter.
extern "C" __global__ void tickets(unsigned *counter, unsigned *olds)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    olds[t] = atomicAdd(counter, 1u);
}

// Racey's loop (Hill & Xu) on a global table: the result records the order of the races.
extern "C" __global__ void racy(volatile unsigned *m, volatile unsigned *sig, int loops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int l = 0; l < loops; l++) {
        unsigned num = sig[t];
        num = (num + m[num % 64u] * 103995407u) % 103072243u;
        unsigned i2 = num % 64u;
        num = (num + m[i2] * 103995407u) % 103072243u;
        m[i2] = num;
        sig[t] = num;
    }
}

// CTAs whose index is a multiple of `every` (from `first`) store far out of bounds; the
// others spin forever on a word nobody writes, so only a fault that stops every host thread
// ends the grid.
extern "C" __global__ void fault_or_spin(int *p, int first, int every)
{
    int b = blockIdx.x;
    if (b >= first && (b - first) % every == 0) {
        p[-100000000 - b] = b;
        return;
    }
    volatile int *v = p;
    while (v[0] == 0) {
    }
}

// In CTA `bad` the first warp waits at barrier 1 and the others at barrier 2: both wait for
// every thread, so no barrier can complete (a deadlock). Other CTAs synchronise normally.
extern "C" __global__ void deadlock(int *out, int bad)
{
    if ((int)blockIdx.x == bad) {
        if (threadIdx.x < 32)
            asm volatile("bar.sync 1;");
        else
            asm volatile("bar.sync 2;");
    } else {
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// Lane 0 of every warp from global warp index `skip` on writes its index to out[0]: the same
// word, once per warp.
extern "C" __global__ void same_word(int *out, int skip)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 == 0 && (int)(t / 32) >= skip)
        out[0] = (int)(t / 32);
}

// Warp 0 stores 42 and reads it back; warp 1 reads the same word without synchronising.
extern "C" __global__ void own_writes(volatile int *x, int *out)
{
    if (threadIdx.x == 0) {
        x[0] = 42;
        out[0] = x[0];
    } else if (threadIdx.x == 32) {
        out[1] = x[0];
    }
}

// Every thread stores one byte, b[t % 16] = t: lanes l and l+16 of a warp collide, and every
// warp writes the same 16 bytes.
extern "C" __global__ void bytes16(unsigned char *b)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    b[t % 16u] = (unsigned char)t;
}

// Warp 0 stores byte 1 of w[0]; warp 1 stores the whole word.
extern "C" __global__ void byte_and_word(unsigned *w)
{
    if (threadIdx.x == 0)
        ((volatile unsigned char *)w)[1] = 0x11;
    else if (threadIdx.x == 32)
        w[0] = 0xAABBCCDDu;
}

// A CTA-wide sum in shared memory with a barrier per step, `rounds` times.
extern "C" __global__ void block_sums(const int *in, int *out, int rounds)
{
    __shared__ int s[256];
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + r;
        __syncthreads();
        for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
            if (threadIdx.x < h)
                s[threadIdx.x] += s[threadIdx.x + h];
            __syncthreads();
        }
        acc += s[0];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

// Fences between stores.
extern "C" __global__ void fenced(int *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < n; i++) {
        out[t] = i;
        __threadfence();
    }
}

// Where each CTA ran.
extern "C" __global__ void placement(unsigned *smid)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    if (threadIdx.x == 0)
        smid[blockIdx.x] = s;
}

// A grid-wide barrier on a global counter (what cooperative groups' grid.sync does): every CTA
// publishes a value, arrives, waits for all, then sums every CTA's value. Needs every CTA
// resident at once.
extern "C" __global__ void grid_barrier(unsigned *count, int *vals, int *sums)
{
    if (threadIdx.x == 0) {
        vals[blockIdx.x] = (int)blockIdx.x + 1;
        __threadfence();
        atomicAdd(count, 1u);
        while (((volatile unsigned *)count)[0] < gridDim.x) {
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            s += ((volatile int *)vals)[b];
        sums[blockIdx.x] = s;
    }
}

// printf from every warp's lane 0 (the output order is part of the result under GPUDet).
extern "C" __global__ void say(int tag)
{
    if (threadIdx.x % 32 == 0)
        printf("tag %d block %d warp %d\n", tag, (int)blockIdx.x, (int)(threadIdx.x / 32));
}

// Lane 0 of every warp allocates from the device heap and records the address: under GPUDet
// the allocations happen in serial mode, in a fixed order, so the addresses are fixed too.
extern "C" __global__ void grab(unsigned long long *ptrs)
{
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (threadIdx.x % 32 == 0) {
        void *p = malloc(16 + 8 * (w % 5));
        ptrs[w] = (unsigned long long)p;
    }
}
