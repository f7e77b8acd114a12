/* barrier.c: the barrier between the phases of an engine epoch.
 *
 * A sense-reversing barrier (the round number is the sense): each thread notes the round, then
 * counts itself in; the last one to arrive resets the count, runs the serial section (if any)
 * alone while the others wait, and opens the next round. Waiting threads first spin for a short
 * while (phases are often short, and a wake-up costs more than a few microseconds of spinning),
 * then sleep on the round word with a futex. When there are more threads than cores (tests run
 * four host threads on two cores), spinning only takes the core from the thread everybody waits
 * for, so the spin is cut to a few iterations: a pure spin barrier would starve there, and
 * sched_yield loops are at the mercy of the host's scheduler.
 *
 * Lost wake-ups cannot happen: a sleeper announces itself (sleepers) before the futex checks the
 * round word, and the opener publishes the round before it reads sleepers (both sequentially
 * consistent), so either the opener sees the sleeper and wakes it, or the futex sees the new
 * round and does not sleep.
 */
#include "timing/engine/engine_internal.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Spins of a waiting thread before it sleeps: a few µs on current cores (longer spins cost more
 * than a futex sleep as soon as the cores are shared with other work). */
#define SPIN_CORES_FREE 200u
/* ... and when the threads outnumber the cores. */
#define SPIN_OVERSUBSCRIBED 16u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static uint32_t usable_cores(void)
{
    static uint32_t cores;
    uint32_t n = __atomic_load_n(&cores, __ATOMIC_RELAXED);
    if (n) return n;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = (uint32_t)CPU_COUNT(&set);
    if (!n) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (uint32_t)c : 1;
    }
    __atomic_store_n(&cores, n, __ATOMIC_RELAXED);
    return n;
}

static void futex_wait(uint32_t *word, uint32_t expected)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_all(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void timing_barrier_init(timing_barrier *b, uint32_t n)
{
    b->n = n ? n : 1;
    b->left = b->n;
    b->round = 0;
    b->sleepers = 0;
    b->spin = b->n > usable_cores() ? SPIN_OVERSUBSCRIBED : SPIN_CORES_FREE;
}

bool timing_barrier_wait(timing_barrier *b, void (*last)(void *arg), void *arg)
{
    if (b->n == 1) {
        if (last) last(arg);
        return true;
    }
    uint32_t round = __atomic_load_n(&b->round, __ATOMIC_ACQUIRE);
    if (__atomic_sub_fetch(&b->left, 1, __ATOMIC_ACQ_REL) == 0) {
        /* everyone else is waiting for this round to open: the serial section runs alone */
        b->left = b->n;
        if (last) last(arg);
        __atomic_store_n(&b->round, round + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST)) futex_wake_all(&b->round);
        return true;
    }
    for (uint32_t i = 0; i < b->spin; i++) {
        if (__atomic_load_n(&b->round, __ATOMIC_ACQUIRE) != round) return false;
        cpu_relax();
    }
    __atomic_add_fetch(&b->sleepers, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&b->round, __ATOMIC_SEQ_CST) == round) futex_wait(&b->round, round);
    __atomic_sub_fetch(&b->sleepers, 1, __ATOMIC_RELAXED);
    /* the round was read with seq_cst above, which orders this thread after the opener's
     * serial section */
    return false;
}

void timing_barrier_destroy(timing_barrier *b)
{
    (void)b;
}
