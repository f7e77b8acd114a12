// sync.cuh: the one critical-section shape every bench/tm program uses, built three ways from
// the same source (KILO TM, Fung et al., MICRO 2011, §5: each benchmark in a transactional,
// a fine-grained-lock and a serial one-global-lock version):
//   -DSYNC_TM   transactions: tx_begin() / tx_commit() (include/ptxsim/kilotm.h); atomic only
//               under `ptxsim run --tm=kilotm`
//   -DSYNC_FGL  fine-grained locks: the section takes the locks of the data it touches
//   -DSYNC_GL   one global lock for every section (the paper's "serial" baseline)
//
//     critical(locks, a, b, [&] { ... });   // a, b: the section's lock numbers (a == b: one)
//
// The lock versions use the paper's Example 2 shape: the lock is tried inside a loop that runs
// until the thread's own `done` flag is set, and the section and the release sit inside the
// successful branch. A loop that spins on the lock before the section (Example 1) deadlocks
// within a warp on a GPU without independent thread scheduling: the lanes that lost keep the
// warp spinning while the winner waits at the reconvergence point. Two locks are taken in
// index order, and a thread that gets the first but not the second gives the first back, so
// lanes of one warp that need overlapping pairs cannot hold each other up forever.
// Builds print their variant through sync_name(). The lock builds need sm_70 (nanosleep).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include <ptxsim/kilotm.h>

#if defined(SYNC_TM) + defined(SYNC_FGL) + defined(SYNC_GL) != 1
#error "build with exactly one of -DSYNC_TM, -DSYNC_FGL, -DSYNC_GL"
#endif

#if defined(SYNC_TM)
static const char *sync_name() { return "tm"; }
#elif defined(SYNC_FGL)
static const char *sync_name() { return "fgl"; }
#else
static const char *sync_name() { return "gl"; }
#endif

__device__ __forceinline__ bool lock_try(unsigned *lock)
{
    return atomicCAS(lock, 0u, 1u) == 0u;
}

__device__ __forceinline__ void lock_release(unsigned *lock)
{
    __threadfence();   // the section's stores are visible before the lock is free
    atomicExch(lock, 0u);
}

template <class Body>
__device__ __forceinline__ void critical(unsigned *locks, unsigned a, unsigned b, Body body)
{
#if defined(SYNC_TM)
    (void)locks, (void)a, (void)b;
    tx_begin();
    body();
    tx_commit();
#else
#if defined(SYNC_GL)
    a = b = 0;   // the global lock: locks[0]
#endif
    if (b < a) {
        unsigned t = a;
        a = b;
        b = t;
    }
    int done = 0;
    while (!done) {
        if (lock_try(&locks[a])) {
            if (a == b || lock_try(&locks[b])) {
                __threadfence();   // no load of the section moves above the acquire
                body();
                if (a != b) lock_release(&locks[b]);
                done = 1;
            }
            lock_release(&locks[a]);
        }
        // Both paths meet here before the loop test: without this the compiler threads the
        // winner's `done = 1` straight to the loop exit, the lanes' reconvergence point becomes
        // the exit, and the losers spin while the winner waits (Example 1 again).
        asm volatile("" : "+r"(done));
        // back off: on a GPU it leaves the memory system to the holder; in ptxsim nanosleep
        // ends the warp's turn, so waiters do not spin through their whole time slice
        if (!done) __nanosleep(64);
    }
#endif
}

// The section's loads and stores go through these: in the lock builds another thread's
// section may have written the word since this thread last read it (volatile: no cached
// value), and under KILO TM they are ordinary transactional loads and stores.
template <class T> __device__ __forceinline__ T ld(const T *p) { return *(const volatile T *)p; }
template <class T> __device__ __forceinline__ void st(T *p, T v) { *(volatile T *)p = v; }

static int bench_failures = 0;

__attribute__((format(printf, 3, 4)))
static bool report(bool ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        printf("PASS %s.%s\n", name, sync_name());
    } else {
        char details[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(details, sizeof details, fmt, ap);
        va_end(ap);
        printf("FAIL %s.%s: %s\n", name, sync_name(), details);
        bench_failures++;
    }
    fflush(stdout);
    return ok;
}

#define CUDA_OK(call)                                                                          \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            printf("FAIL %s: %s returned %s\n", sync_name(), #call, cudaGetErrorName(err_));   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

__host__ __device__ inline unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

// One lock per data item, one block-wide array: sized by the program, zeroed.
static unsigned *make_locks(size_t n)
{
    unsigned *d;
    CUDA_OK(cudaMalloc(&d, n * sizeof(unsigned)));
    CUDA_OK(cudaMemset(d, 0, n * sizeof(unsigned)));
    return d;
}
