// defects.cu: kernels with one known defect each (and defect-free twins) for --check.
// Usage: defects KERNEL. The lines marked "// @NAME" are the lines the checks must name
// (tests/suites/checks.sh finds them by their marks).
#include <cstdio>
#include <cstring>
#include <cstdlib>

// Spins for a while: makes the access after it come much later in any interleaving, so a race
// found across it is found by ordering, not by the accesses happening to meet.
__device__ int spin(int n)
{
    volatile int x = 0;
    for (int i = 0; i < n; i++) x = x + i;
    return x;
}

__global__ void shared_race(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 32) {
        s[threadIdx.x] = threadIdx.x * 3;             // @shared_w
    } else {
        spin(2000);
        out[threadIdx.x] = s[threadIdx.x - 32];       // @shared_r
    }
}

__global__ void shared_ok(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void global_race(int *g)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) g[1] = 5;                    // @global_w
    else { spin(2000); g[2] = g[1]; }                 // @global_r
}

// the last block sums what every block wrote: ordered by fence + atomic
__device__ unsigned int done_count;
__global__ void global_fence_ok(int *g, int *sum)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        g[blockIdx.x] = blockIdx.x + 1;
        __threadfence();
        unsigned v = atomicInc(&done_count, gridDim.x);
        last = v == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < gridDim.x; i++) t += g[i];
        *sum = t;
    }
}

__global__ void atomics_ok(int *g)
{
    atomicAdd(&g[0], 1);
}

__global__ void warp_race(int *out)
{
    __shared__ int s[32];
    if (threadIdx.x < 16) s[threadIdx.x] = threadIdx.x * 5;         // @warp_w
    if (threadIdx.x >= 16) out[threadIdx.x] = s[threadIdx.x - 16];  // @warp_r
}

__global__ void warp_ok(int *out)
{
    __shared__ int s[32];
    if (threadIdx.x < 16) s[threadIdx.x] = threadIdx.x * 5;
    __syncwarp();
    if (threadIdx.x >= 16) out[threadIdx.x] = s[threadIdx.x - 16];
}

__global__ void read_input(const int *in, int *out)
{
    out[threadIdx.x] = in[threadIdx.x] + 1;           // @uninit_r
}

__global__ void shared_uninit(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 32) s[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];                // @shared_uninit_r
}

__global__ void divergent_barrier(int *out)
{
    if (threadIdx.x < 32) {
        out[threadIdx.x] = 1;
        __syncthreads();                              // @bar_a
    } else {
        out[threadIdx.x] = 2;
        __syncthreads();                              // @bar_b
    }
}

__global__ void warp_mask(int *out)
{
    if (threadIdx.x < 16) {
        out[threadIdx.x] = 1;
        __syncwarp(0xffffffff);                       // @mask
    }
}

// producers (warps 0-1) arrive at named barrier 1, consumers (warps 2-3) wait at it: ordered
__global__ void named_barrier_ok(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = threadIdx.x * 7;
        asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[threadIdx.x - 64] = s[threadIdx.x - 64];
    }
}

// the same, but the consumers wait at a barrier of their own: nothing orders them
__global__ void named_barrier_race(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = threadIdx.x * 7;                                       // @named_w
    } else {
        asm volatile("bar.sync 2, 64;" ::: "memory");
        out[threadIdx.x - 64] = s[threadIdx.x - 64];                            // @named_r
    }
}

// message passing across blocks: data, fence, volatile flag; spin on the flag, fence, data
__global__ void flag_ok(int *data, volatile int *flag)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) {}
        __threadfence();
        data[1] = data[0] + 1;
    }
}

// producers arrive at a named barrier and go on to more work, consumers wait there: replayed,
// the consumers' loads come before the producers' later stores, so the replay stops a producer
// before its store until its turn (a deferral)
__global__ void arrive_then_work(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = threadIdx.x * 3;
        asm volatile("bar.arrive 1, 128;" ::: "memory");
        out[256 + threadIdx.x] = spin(3000);
    } else {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[threadIdx.x] = s[threadIdx.x - 64];
    }
}

__device__ int g_watch[4];
__global__ void watched(int *out)
{
    if (threadIdx.x >= 1 && threadIdx.x < 4) g_watch[1] = threadIdx.x + 10;   // @watch_w
    __syncthreads();
    if (threadIdx.x == 0) out[0] = g_watch[1];                              // @watch_r
}

__global__ void shfl_mask(int *out)
{
    int v = threadIdx.x;
    if (threadIdx.x < 16) v = __shfl_sync(0xffffffff, v, 0);
    out[threadIdx.x] = v;
}

__global__ void shfl_ok(int *out)
{
    int v = threadIdx.x;
    if (threadIdx.x < 16) v = __shfl_sync(0x0000ffff, v, 0);
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 31);
}

int main(int argc, char **argv)
{
    const char *k = argc > 1 ? argv[1] : "";
    int *d, *e;
    cudaMalloc(&d, 1024 * sizeof(int));
    cudaMalloc(&e, 1024 * sizeof(int));
    if (strcmp(k, "read_input") != 0) cudaMemset(d, 0, 1024 * sizeof(int));
    cudaMemset(e, 0, 1024 * sizeof(int));
    if (!strcmp(k, "shared_race")) shared_race<<<1, 64>>>(d);
    else if (!strcmp(k, "shared_ok")) shared_ok<<<2, 64>>>(d);
    else if (!strcmp(k, "global_race")) global_race<<<2, 32>>>(d);
    else if (!strcmp(k, "global_fence_ok")) global_fence_ok<<<8, 64>>>(d, e);
    else if (!strcmp(k, "atomics_ok")) atomics_ok<<<4, 64>>>(d);
    else if (!strcmp(k, "warp_race")) warp_race<<<1, 32>>>(d);
    else if (!strcmp(k, "warp_ok")) warp_ok<<<1, 32>>>(d);
    else if (!strcmp(k, "read_input") || !strcmp(k, "read_input_ok")) read_input<<<1, 32>>>(d, e);
    else if (!strcmp(k, "shared_uninit")) shared_uninit<<<1, 64>>>(d);
    else if (!strcmp(k, "divergent_barrier")) divergent_barrier<<<1, 64>>>(d);
    else if (!strcmp(k, "warp_mask")) warp_mask<<<1, 32>>>(d);
    else if (!strcmp(k, "watched")) watched<<<1, 32>>>(d);
    else if (!strcmp(k, "named_barrier_ok")) named_barrier_ok<<<1, 128>>>(d);
    else if (!strcmp(k, "named_barrier_race")) named_barrier_race<<<1, 128>>>(d);
    else if (!strcmp(k, "flag_ok")) flag_ok<<<2, 32>>>(d, e + 512);
    else if (!strcmp(k, "arrive_then_work")) arrive_then_work<<<1, 128>>>(d);
    else if (!strcmp(k, "shfl_mask")) shfl_mask<<<1, 32>>>(d);
    else if (!strcmp(k, "shfl_ok")) shfl_ok<<<1, 32>>>(d);
    else { fprintf(stderr, "unknown kernel %s\n", k); return 2; }
    cudaError_t err = cudaDeviceSynchronize();
    if (!strcmp(k, "global_fence_ok")) {
        int s = 0;
        cudaMemcpy(&s, e, sizeof s, cudaMemcpyDeviceToHost);
        if (s != 36) { printf("wrong sum %d\n", s); return 1; }
    }
    printf("ran %s: %s\n", k, cudaGetErrorString(err));
    return 0;
}
