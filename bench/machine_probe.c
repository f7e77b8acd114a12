/* machine_probe: what the machine gives two host threads right now, in one line, so that a
 * speed ratio measured beside it can be read (bench/timing_speed.sh prints it before and after
 * its runs).
 *
 * The scaling target (--threads=2 against 1) holds "on an idle 2-core machine"; on a shared or
 * virtual one three things change it, each measured here in well under a second:
 * - concurrency: the same spin loop on two threads at once against one alone (1.00: both cores
 *   free; 2.00: the two take turns on one core; more: the host takes cycles from both);
 * - a cache line's round trip between the two threads (two transfers: one thread writes, the
 *   other sees it and writes back), what every handoff of the parallel model's steps and every
 *   record written on one core and read on the other pays (~100-150 ns between two cores of one
 *   chip; 400-550 ns was seen on this project's VM when its two vCPUs lay far apart);
 * - a page's first touch (the fault and its zeroing: ~1-2 us on bare metal; 12-16 us was seen on
 *   the VM), which every fresh page of the emulator's and the model's memory pays, with timing
 *   on and off alike (a timing-off run of 0.03 s can take 0.15 s where faults are dear).
 * Usage: machine_probe (no arguments). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { SPINS = 30000000, ROUND_TRIPS = 100000, PAGES = 2000 };

static void *spin(void *arg)
{
    volatile uint64_t x = 0;
    for (uint64_t i = 0; i < SPINS; i++) x += i;
    return arg;
}

/* the least of three tries: the machine's own noise only ever adds */
static double concurrency(void)
{
    double best = 1e9;
    for (int k = 0; k < 3; k++) {
        double t0 = seconds();
        spin(NULL);
        double one = seconds() - t0;
        pthread_t a, b;
        t0 = seconds();
        if (pthread_create(&a, NULL, spin, NULL)) return 0;
        if (pthread_create(&b, NULL, spin, NULL)) {
            pthread_join(a, NULL);
            return 0;
        }
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        double two = seconds() - t0;
        if (two / one < best) best = two / one;
    }
    return best;
}

static _Alignas(64) volatile uint64_t line;

static void *pong(void *arg)
{
    for (uint64_t i = 1; i <= ROUND_TRIPS; i++) {
        while (line != 2 * i - 1) {}
        line = 2 * i;
    }
    return arg;
}

static double round_trip_ns(void)
{
    pthread_t b;
    line = 0;
    if (pthread_create(&b, NULL, pong, NULL)) return 0;
    double t0 = seconds();
    for (uint64_t i = 1; i <= ROUND_TRIPS; i++) {
        line = 2 * i - 1;
        while (line != 2 * i) {}
    }
    double t = seconds() - t0;
    pthread_join(b, NULL);
    return t / ROUND_TRIPS * 1e9;
}

static double first_touch_us(void)
{
    size_t bytes = (size_t)PAGES * 4096;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 0;
    (void)madvise(p, bytes, MADV_NOHUGEPAGE);   /* (a page each, as most first touches are) */
    double t0 = seconds();
    for (size_t i = 0; i < PAGES; i++) p[i * 4096] = 1;
    double t = seconds() - t0;
    munmap(p, bytes);
    return t / PAGES * 1e6;
}

int main(void)
{
    double c = concurrency(), rt = round_trip_ns(), pf = first_touch_us();
    printf("machine: two threads at once take %.2fx one thread's time (1.00: both cores free), "
           "a cache line's round trip between them %.0f ns, a page's first touch %.1f us\n",
           c, rt, pf);
    return 0;
}
