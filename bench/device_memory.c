/* device_memory.c: what device memory costs against the same operations done by the host
 * directly, as ratios measured in one run (bench/device_memory.sh runs it).
 *
 *   cycle:  cudaMalloc(N) + cudaMemset(N) + cudaFree, repeated   vs  mmap + memset + munmap
 *   touch:  first write to every page of a fresh N-byte allocation  vs  the same on a fresh mmap
 *   live:   cudaMemset of a live allocation                        vs  memset of a live buffer
 *
 * The ptxsim side goes through the runtime's own entry points (the ones the shim exports as
 * cudaMalloc, cudaMemset, cudaFree), so its checks and bookkeeping are counted.
 */
#include "runtime/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double host_cycle(size_t n, int reps)
{
    double t0 = now();
    for (int i = 0; i < reps; i++) {
        void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) abort();
        memset(p, i, n);
        munmap(p, n);
    }
    return (now() - t0) / reps;
}

static double dev_cycle(size_t n, int reps)
{
    double t0 = now();
    for (int i = 0; i < reps; i++) {
        void *p;
        if (rt_malloc(&p, n) != cudaSuccess || rt_memset(p, i, n, 0, "bench") != cudaSuccess)
            abort();
        rt_free(p);
    }
    return (now() - t0) / reps;
}

/* first touch of every page: writes one byte per 4 KiB */
static double touch(volatile char *p, size_t n)
{
    double t0 = now();
    for (size_t o = 0; o < n; o += 4096) p[o] = 1;
    return now() - t0;
}

static double host_touch(size_t n)
{
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) abort();
    double t = touch(p, n);
    munmap(p, n);
    return t;
}

static double dev_touch(size_t n)
{
    void *p;
    if (rt_malloc(&p, n) != cudaSuccess) abort();
    double t = touch(p, n);
    rt_free(p);
    return t;
}

static volatile char sink;

static double host_live(size_t n, int reps)
{
    char *p = malloc(n);
    memset(p, 0, n);
    double t0 = now();
    for (int i = 0; i < reps; i++) {
        memset(p, i, n);
        sink = p[(size_t)i % n];   /* keeps the fills */
    }
    double t = (now() - t0) / reps;
    free(p);
    return t;
}

static double dev_live(size_t n, int reps)
{
    void *p;
    if (rt_malloc(&p, n) != cudaSuccess) abort();
    rt_memset(p, 0, n, 0, "bench");
    double t0 = now();
    for (int i = 0; i < reps; i++) rt_memset(p, i, n, 0, "bench");
    double t = (now() - t0) / reps;
    rt_free(p);
    return t;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    const size_t sizes[] = {4096, 1 << 20, 16 << 20};
    printf("%-28s %12s %12s %8s\n", "operation", "host us", "ptxsim us", "ratio");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        int r = n >= (16 << 20) ? reps / 10 + 1 : reps;
        dev_cycle(n, 3);   /* warm */
        double h = host_cycle(n, r), d = dev_cycle(n, r);
        char name[64];
        snprintf(name, sizeof name, "malloc+memset+free %zu KiB", n >> 10);
        printf("%-28s %12.1f %12.1f %8.2f\n", name, h * 1e6, d * 1e6, d / h);
    }
    size_t big = (size_t)1 << 30;
    double ht = host_touch(big), dt = dev_touch(big);
    printf("%-28s %12.1f %12.1f %8.2f\n", "first touch 1 GiB", ht * 1e6, dt * 1e6, dt / ht);
    double hl = host_live(1 << 20, reps), dl = dev_live(1 << 20, reps);
    printf("%-28s %12.1f %12.1f %8.2f\n", "memset live 1 MiB", hl * 1e6, dl * 1e6, dl / hl);
    return 0;
}
