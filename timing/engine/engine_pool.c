/* engine_pool.c: the host threads of a grid run (their barrier is in barrier.c).
 *
 * Worker threads are started once and kept (waiting on a condition variable) for the next
 * run: programs launch many small kernels, and starting threads for each costs more than the
 * kernel. One run uses the pool at a time; a second run at the same moment (engines called
 * from several host threads without the runtime's lock) starts threads of its own. After
 * fork() the child has no workers, and the pool starts afresh there.
 */
#include "timing/engine/engine_internal.h"

#include <stdlib.h>

typedef struct pool_gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
} pool_gate;

typedef struct pool_job {
    void (*fn)(void *arg, uint32_t tid);
    void *arg;
    uint32_t tid;
    pool_gate *gate;
} pool_job;

static struct {
    pthread_once_t once;
    pthread_mutex_t busy;      /* held for a whole run */
    pthread_mutex_t lock;      /* the fields below */
    pthread_cond_t work, done;
    uint32_t workers;          /* started: tids 1..workers */
    uint64_t generation;       /* one per run */
    void (*fn)(void *arg, uint32_t tid);
    void *arg;
    uint32_t n;                /* threads of the current run (tids 0..n-1) */
    uint32_t finished;         /* workers done with the current run */
} pool = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
          PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL, 0, 0};

typedef struct worker_start {
    uint32_t tid;
    uint64_t seen;            /* the generation when it was created: the next one is its */
} worker_start;

static void *pool_worker(void *p)
{
    worker_start st = *(worker_start *)p;
    free(p);
    uint32_t tid = st.tid;
    uint64_t seen = st.seen;
    emu_jit_device_thread();
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == seen) pthread_cond_wait(&pool.work, &pool.lock);
        seen = pool.generation;
        if (tid >= pool.n) continue;
        void (*fn)(void *, uint32_t) = pool.fn;
        void *arg = pool.arg;
        pthread_mutex_unlock(&pool.lock);
        fn(arg, tid);
        pthread_mutex_lock(&pool.lock);
        if (++pool.finished + 1 >= pool.n) pthread_cond_signal(&pool.done);
    }
    return NULL;
}

static void after_fork_child(void)
{
    /* the workers did not survive the fork */
    pthread_mutex_init(&pool.busy, NULL);
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.workers = 0;
    pool.n = 0;
}

static void pool_init(void)
{
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* A thread of its own waits at the gate until the run knows how many threads it got, so the
 * work (and its barriers) is sized for the threads that really run. */
static void *oneshot_main(void *p)
{
    pool_job *j = p;
    emu_jit_device_thread();
    pthread_mutex_lock(&j->gate->lock);
    while (!j->gate->open) pthread_cond_wait(&j->gate->cond, &j->gate->lock);
    pthread_mutex_unlock(&j->gate->lock);
    j->fn(j->arg, j->tid);
    return NULL;
}

/* Threads of its own, for a run that finds the pool busy. */
static uint32_t run_oneshot(uint32_t n, void (*ready)(void *arg, uint32_t n),
                            void (*fn)(void *arg, uint32_t tid), void *arg)
{
    pthread_t *th = calloc(n, sizeof *th);
    pool_job *jobs = calloc(n, sizeof *jobs);
    pool_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    uint32_t started = 1;
    if (th && jobs) {
        for (uint32_t t = 1; t < n; t++) {
            jobs[t] = (pool_job){fn, arg, t, &gate};
            if (pthread_create(&th[t], NULL, oneshot_main, &jobs[t]) != 0) break;
            started++;
        }
    }
    if (ready) ready(arg, started);
    pthread_mutex_lock(&gate.lock);
    gate.open = true;
    pthread_cond_broadcast(&gate.cond);
    pthread_mutex_unlock(&gate.lock);
    fn(arg, 0);
    for (uint32_t t = 1; t < started; t++) pthread_join(th[t], NULL);
    free(th);
    free(jobs);
    return started;
}

uint32_t timing_pool_run(uint32_t n, void (*ready)(void *arg, uint32_t n),
                         void (*fn)(void *arg, uint32_t tid), void *arg)
{
    if (n <= 1) {
        if (ready) ready(arg, 1);
        fn(arg, 0);
        return 1;
    }
    pthread_once(&pool.once, pool_init);
    if (pthread_mutex_trylock(&pool.busy) != 0) return run_oneshot(n, ready, fn, arg);
    pthread_mutex_lock(&pool.lock);
    while (pool.workers + 1 < n) {
        pthread_t t;
        pthread_attr_t at;
        worker_start *ws = malloc(sizeof *ws);
        if (!ws) break;
        *ws = (worker_start){pool.workers + 1, pool.generation};
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int e = pthread_create(&t, &at, pool_worker, ws);
        pthread_attr_destroy(&at);
        if (e != 0) {
            free(ws);
            break;
        }
        pool.workers++;
    }
    if (n > pool.workers + 1) n = pool.workers + 1;
    pthread_mutex_unlock(&pool.lock);
    if (ready) ready(arg, n);
    if (n > 1) {
        pthread_mutex_lock(&pool.lock);
        pool.fn = fn;
        pool.arg = arg;
        pool.n = n;
        pool.finished = 0;
        pool.generation++;
        pthread_cond_broadcast(&pool.work);
        pthread_mutex_unlock(&pool.lock);
    }
    fn(arg, 0);
    if (n > 1) {
        pthread_mutex_lock(&pool.lock);
        while (pool.finished + 1 < n) pthread_cond_wait(&pool.done, &pool.lock);
        pool.n = 0;
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_unlock(&pool.busy);
    return n;
}
