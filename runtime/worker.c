/* worker.c: the device worker. Stream operations (kernel launches, copies, fills, host
 * functions, event records, graph launches) are queued here and run by one host thread, so the
 * program goes on while the device works, as on a GPU.
 *
 * The queue is one FIFO in issue order across every stream. That is one of the schedules CUDA
 * allows (stream order holds, an event waited on was recorded earlier and so has completed, the
 * legacy default stream's implicit synchronisation holds), and it is the one that makes the
 * result independent of host timing: for a program that issues its work from one host thread,
 * the device runs the same operations in the same order on every run, so GPUDet's memory
 * contents are exact. The cost is concurrency between streams, which an emulator running one
 * grid at a time would not have anyway.
 *
 * Completion is a sequence number: operation n has run once `done` >= n. A stream or an event
 * remembers the number of its last operation; synchronising waits for it. Everything is
 * guarded by rt_g.lock; the worker releases it while a kernel, a copy or a host function runs.
 *
 * Stopping: what changes the device's memory map or its state from a host thread (freeing,
 * unregistering, unloading, resetting, a new heap) waits until the worker runs nothing, not
 * only for the work issued before it: meanwhile the worker may have started an operation
 * another host thread issued later, and a launch under --engine=compare snapshots every live
 * allocation, runs twice and compares them all, so memory freed (and cleared) in the middle
 * would read as a difference between the executors, and the snapshot put back would write
 * into memory no longer allocated. While a host thread waits to stop it, the worker starts
 * nothing new, so the wait is for one operation at most; host functions and callbacks are not
 * waited for (they touch no device state, and may wait for the program's other threads).
 *
 * Errors: a kernel fault poisons the context (rt_poison) and every later call reports it; any
 * other failure of an operation nobody waits for is kept and reported by the next
 * synchronisation (rt_take_async_error), as CUDA reports errors of asynchronous work.
 */
#include "runtime/rt_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pageable host memory an asynchronous copy may stage before it must wait instead. */
#define STAGING_LIMIT (UINT64_C(16) << 20)

typedef struct rt_work {
    struct rt_work *next;
    uint64_t seq;
    rt_op op;
    rt_completion *waiter;      /* the host thread waiting for this operation, or NULL */
} rt_work;

static struct {
    pthread_t thread;
    bool started;
    pthread_cond_t work_cv;     /* the worker waits here for work */
    pthread_cond_t done_cv;     /* host threads wait here for completions */
    rt_work *head, *tail;
    uint64_t issued, done;
    unsigned running;           /* device operations running now (without the lock, mostly) */
    unsigned stoppers;          /* host threads waiting in rt_device_stop: start nothing */
    cudaError_t async_error;    /* first failure of unwaited work since the last sync point */
    uint64_t staged;            /* bytes of pageable memory held by queued copies */
} W = {.work_cv = PTHREAD_COND_INITIALIZER, .done_cv = PTHREAD_COND_INITIALIZER};

static _Thread_local bool on_worker;

bool rt_on_worker(void)
{
    return on_worker;
}

uint64_t rt_issued_seq(void)
{
    return W.issued;
}

bool rt_seq_done(uint64_t seq)
{
    return W.done >= seq;
}

void rt_wait_seq(uint64_t seq)
{
    /* The worker itself (a host function calling the runtime) cannot wait for later work;
     * everything issued before the operation it runs has completed. */
    if (on_worker)
        return;
    while (W.done < seq)
        if (!emu_jit_serve_first())
            pthread_cond_wait(&W.done_cv, &rt_g.lock);
}

/* A device thread asked for the process's first compile (emu_jit_serve_first): the host
 * threads waiting for the device wake to do it. Without the lock (the asking thread may run
 * for a host thread that holds it); a wake that comes between a waiter's look and its wait is
 * missed, and the compile waits for the next completion: the kernel interprets meanwhile. */
void rt_wake_waiters(void)
{
    pthread_cond_broadcast(&W.done_cv);
}

void rt_device_stop(void)
{
    if (on_worker)
        return;   /* it runs nothing else while it runs the operation that called */
    W.stoppers++;
    while (W.running)
        if (!emu_jit_serve_first())
            pthread_cond_wait(&W.done_cv, &rt_g.lock);
    W.stoppers--;
    if (!W.stoppers && W.head)
        pthread_cond_signal(&W.work_cv);
}

void rt_flush_output_locked(void)
{
    if (strcmp(rt_g.cfg.engine, "compare") == 0) {
        rt_device_stop();
        emu_output_flush();
        return;
    }
    pthread_mutex_unlock(&rt_g.lock);
    emu_output_flush();
    pthread_mutex_lock(&rt_g.lock);
}

bool rt_device_stopped(void)
{
    return on_worker || W.running == 0;
}

void rt_wait_idle(void)
{
    rt_wait_seq(W.issued);
    rt_device_stop();
}

cudaError_t rt_take_async_error(void)
{
    if (rt_g.sticky != cudaSuccess)
        return rt_g.sticky;
    cudaError_t e = W.async_error;
    W.async_error = cudaSuccess;
    return e;
}

void rt_forget_async_error(void)
{
    W.async_error = cudaSuccess;
}

bool rt_staging_reserve(uint64_t bytes)
{
    if (W.staged + bytes > STAGING_LIMIT)
        return false;
    W.staged += bytes;
    return true;
}

void rt_staging_release(uint64_t bytes)
{
    assert(W.staged >= bytes);
    W.staged -= bytes;
}

/* Whether op reads or writes device state (memory, the heap, the printf output): what
 * rt_device_stop waits for. Host functions and callbacks do not, and may block on the program's
 * other threads: waiting for them could deadlock a program CUDA runs. */
static bool device_op(const rt_op *op)
{
    return op->kind == RT_OP_KERNEL || op->kind == RT_OP_COPY || op->kind == RT_OP_FILL ||
           op->kind == RT_OP_GRAPH || op->kind == RT_OP_FREE;
}

/* Device work after a kernel fault poisoned the context does not run, as on a GPU; host
 * functions and callbacks still do (a callback is told the error). */
static bool runs_on_poisoned_context(const rt_op *op)
{
    return op->kind == RT_OP_HOST || op->kind == RT_OP_CALLBACK || op->kind == RT_OP_EMPTY ||
           op->kind == RT_OP_EVENT_RECORD || op->kind == RT_OP_EVENT_WAIT;
}

static void *worker_main(void *arg)
{
    (void)arg;
    on_worker = true;
    emu_jit_device_thread();
    pthread_mutex_lock(&rt_g.lock);
    for (;;) {
        while (!W.head || W.stoppers)
            pthread_cond_wait(&W.work_cv, &rt_g.lock);
        rt_work *w = W.head;
        W.head = w->next;
        if (!W.head)
            W.tail = NULL;
        cudaError_t e = rt_g.sticky;
        if (e == cudaSuccess || runs_on_poisoned_context(&w->op)) {
            bool dev = device_op(&w->op);
            W.running += dev;
            e = rt_op_run(&w->op, w->seq);
            W.running -= dev;
        }
        if (e != cudaSuccess && !w->waiter && W.async_error == cudaSuccess &&
            !rt_error_is_sticky(e))
            W.async_error = e;
        rt_op_free(&w->op);
        if (w->waiter) {
            w->waiter->error = e;
            w->waiter->done = true;
        }
        assert(w->seq == W.done + 1);
        W.done = w->seq;
        free(w);
        pthread_cond_broadcast(&W.done_cv);
    }
    return NULL;
}

/* At exit, work still queued runs to completion before the program's destructors unload its
 * modules (CUDA would tear the context down; finishing is kinder to programs that forgot a
 * final synchronisation, and keeps statistics whole). */
static void drain_at_exit(void)
{
    if (on_worker)
        return;
    pthread_mutex_lock(&rt_g.lock);
    rt_wait_idle();
    rt_flush_output_locked();
    pthread_mutex_unlock(&rt_g.lock);
}

static bool start_worker(void)
{
    if (W.started)
        return true;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* Kernels run on this thread (and on the engine's): give it a stack like a main thread's. */
    pthread_attr_setstacksize(&attr, 8u << 20);
    int r = pthread_create(&W.thread, &attr, worker_main, NULL);
    pthread_attr_destroy(&attr);
    if (r != 0) {
        fprintf(stderr, "ptxsim: cannot start the device worker thread; running stream work "
                        "synchronously\n");
        return false;
    }
    W.started = true;
    atexit(drain_at_exit);
    return true;
}

/* Runs op at once on this thread (the worker itself, or no worker could be started). */
static cudaError_t run_inline(rt_op *op, rt_completion *waiter)
{
    /* without a worker, host threads run operations themselves: one at a time */
    rt_device_stop();
    cudaError_t e = rt_g.sticky;
    if (e == cudaSuccess || runs_on_poisoned_context(op)) {
        bool dev = device_op(op);
        W.running += dev;
        e = rt_op_run(op, W.issued);
        W.running -= dev;
        pthread_cond_broadcast(&W.done_cv);
    }
    rt_op_free(op);
    if (waiter) {
        waiter->error = e;
        waiter->done = true;
    }
    return e;
}

static cudaError_t enqueue(rt_op *op, cudaStream_t stream, rt_completion *waiter)
{
    if (on_worker || !start_worker())
        return run_inline(op, waiter);
    rt_work *w = malloc(sizeof *w);
    if (!w) {
        rt_op_free(op);
        return cudaErrorMemoryAllocation;
    }
    w->next = NULL;
    w->seq = ++W.issued;
    w->op = *op;
    w->waiter = waiter;
    op->kind = RT_OP_EMPTY;  /* taken over */
    if (W.tail)
        W.tail->next = w;
    else
        W.head = w;
    W.tail = w;
    rt_stream_note_work(stream, w->seq);
    pthread_cond_signal(&W.work_cv);
    return cudaSuccess;
}

cudaError_t rt_op_submit_mode(rt_op *op, cudaStream_t stream, bool wait)
{
    cudaError_t e;
    if (rt_capture_op(stream, op, &e))
        return e;
    if (!wait)
        return enqueue(op, stream, NULL);
    rt_completion c = {0};
    e = enqueue(op, stream, &c);
    if (e != cudaSuccess)
        return e;
    while (!c.done)
        if (!emu_jit_serve_first())
            pthread_cond_wait(&W.done_cv, &rt_g.lock);
    if (c.error != cudaSuccess)
        return c.error;
    return rt_take_async_error();
}

cudaError_t rt_op_submit(rt_op *op, cudaStream_t stream)
{
    return rt_op_submit_mode(op, stream, false);
}
