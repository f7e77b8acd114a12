// Test kernels for tests/unit/test_emu_features.c. Regenerate with
//   nvcc -ptx -arch=sm_75 features.cu -o ../features_sm75.ptx
#include <cstdio>
#include <cstdint>
#include <cassert>

struct Params { int scale; double offset; int table[4]; };

__device__ __noinline__ int sq(int x) { return x * x; }
__device__ __noinline__ int tri(int x) { return x * (x + 1) / 2; }
__device__ __noinline__ int neg(int x) { return -x; }
typedef int (*op_t)(int);
__device__ op_t ops[3] = {sq, tri, neg};

// function pointers: lanes of one warp call different functions
extern "C" __global__ void fptr(int *out)
{
    int t = threadIdx.x;
    op_t f = ops[t % 3];
    out[t] = f(t);
}

// a struct passed by value, and a local array indexed at run time
extern "C" __global__ void byval(Params p, int *out)
{
    int t = threadIdx.x;
    int local[8];
    for (int i = 0; i < 8; i++) local[i] = p.table[i & 3] * (i + t);
    out[t] = local[(t * 5) & 7] * p.scale + (int)p.offset;
}

// a switch that nvcc turns into a jump table
extern "C" __global__ void jump(const int *in, int *out)
{
    int t = threadIdx.x, r;
    switch (in[t] & 7) {
    case 0: r = 11; break;
    case 1: r = t * 3; break;
    case 2: r = -t; break;
    case 3: r = t ^ 0x55; break;
    case 4: r = t << 2; break;
    case 5: r = 1000 - t; break;
    case 6: r = t * t; break;
    default: r = 7;
    }
    out[t] = r;
}

extern "C" __global__ void hello(int n)
{
    printf("thread %d of %d: %5.2f %s %lld %c|%x\n", threadIdx.x, n, threadIdx.x * 0.5, "ok",
           (long long)threadIdx.x << 40, 'A' + threadIdx.x, 255u);
}

extern "C" __global__ void heap(int **slots, int n)
{
    int t = threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) p[i] = t * 100 + i;
    slots[t] = p;
}

extern "C" __global__ void heapfree(int **slots, int *sums, int n)
{
    int t = threadIdx.x, s = 0;
    for (int i = 0; i < n; i++) s += slots[t][i];
    sums[t] = s;
    free(slots[t]);
}

extern "C" __global__ void checker(const int *in)
{
    assert(in[threadIdx.x] >= 0);
}

// __syncthreads_count / _and / _or, and warp-level reduce/match
extern "C" __global__ void syncred(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    int c = __syncthreads_count(v > 10);
    int a = __syncthreads_and(v > 0);
    int o = __syncthreads_or(v > 90);
    out[t * 4 + 0] = c;
    out[t * 4 + 1] = a;
    out[t * 4 + 2] = o;
    out[t * 4 + 3] = __activemask();
}

// a lock that lanes of one warp contend for, the critical section after the spin loop: it
// needs independent thread scheduling (Volta and later) to make progress
extern "C" __global__ void spinlock(int *lock, volatile int *counter, int *order)
{
    while (atomicCAS(lock, 0, 1) != 0) { }
    int v = *counter;
    *counter = v + 1;
    order[v] = blockIdx.x * blockDim.x + threadIdx.x;
    __threadfence();
    atomicExch(lock, 0);
}
