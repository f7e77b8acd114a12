/* sweep_local.c: `ptxsim sweep --on=local[:N]`: the runs that are not finished, N at a time on
 * this machine, with a progress bar and an estimate of the time left. Each run is a worker
 * process calling sweep_run_one, the code a Slurm array task runs, so a run's files are the same
 * either way. Ctrl-C (or SIGTERM) stops the workers, which stop their programs; those runs stay
 * unfinished and the next call runs them. */
#include "cli/sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    stop_requested = sig;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void clock_text(char *out, size_t n, double seconds)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, n, "%ld:%02ld", s / 60, s % 60);
}

typedef struct progress {
    bool tty;
    size_t total, done, failed;
    double start;
} progress;

/* The bar on a terminal (redrawn in place); a line per finished run otherwise (logs). */
static void progress_show(progress *p, size_t run, int status)
{
    double elapsed = now_seconds() - p->start;
    char spent[32], left[48] = "";
    clock_text(spent, sizeof spent, elapsed);
    if (p->done < p->total && p->done) {
        char t[32];
        clock_text(t, sizeof t, elapsed / (double)p->done * (double)(p->total - p->done));
        snprintf(left, sizeof left, ", about %s left", t);
    }
    if (p->tty) {
        enum { WIDTH = 30 };
        char bar[WIDTH + 1];
        size_t filled = p->total ? p->done * WIDTH / p->total : WIDTH;
        for (size_t i = 0; i < WIDTH; i++)
            bar[i] = i < filled ? '#' : '.';
        bar[WIDTH] = 0;
        fprintf(stderr, "\r[%s] %zu/%zu runs, %zu failed, %s%s\033[K", bar, p->done, p->total,
                p->failed, spent, left);
    } else {
        char what[48];
        if (status < 0)
            snprintf(what, sizeof what, "did not finish");
        else if (status == 0)
            snprintf(what, sizeof what, "ok");
        else
            snprintf(what, sizeof what, "failed (status %d)", status);
        fprintf(stderr, "[%zu/%zu] run %zu %s (%s%s)\n", p->done, p->total, run, what, spent,
                left);
    }
    fflush(stderr);
}

typedef struct worker {
    pid_t pid;
    size_t run;
} worker;

int sweep_local(const char *dir, const sweep_plan *plan, const sweep_where *where,
                const char *ptxsim)
{
    size_t *todo = malloc(plan->run_count * sizeof *todo), count = 0, elsewhere = 0;
    if (!todo) {
        fprintf(stderr, "ptxsim sweep: out of memory\n");
        return 2;
    }
    for (size_t run = 0; run < plan->run_count; run++) {
        if (sweep_run_pending(dir, plan, run, where->retry_failed))
            todo[count++] = run;
        else if (sweep_run_state(dir, plan, run, NULL) == SWEEP_RUNNING)
            elsewhere++;
    }
    if (where->dry_run) {
        printf("# ptxsim sweep --dry-run: %zu of %zu runs would run here, in %s:\n", count,
               plan->run_count, plan->cwd);
        for (size_t i = 0; i < count; i++)
            sweep_run_print_command(stdout, dir, plan, todo[i], ptxsim);
        free(todo);
        return 0;
    }
    unsigned workers = where->workers;
    if (!workers) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        long w = (cpus > 0 ? cpus : 1) / (long)sweep_plan_max_threads(plan);
        workers = w > 0 ? (unsigned)w : 1;
    }
    if (workers > count)
        workers = count ? (unsigned)count : 1;
    if (count)
        fprintf(stderr, "ptxsim sweep: %zu runs, %zu finished already, %zu running elsewhere; "
                        "running %zu here, %u at a time\n",
                plan->run_count, plan->run_count - count - elsewhere, elsewhere, count, workers);
    else
        fprintf(stderr, "ptxsim sweep: nothing to run: %zu runs finished already, %zu running "
                        "elsewhere\n", plan->run_count - elsewhere, elsewhere);

    worker *busy = calloc(workers, sizeof *busy);
    struct sigaction sa = {.sa_handler = on_stop}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    stop_requested = 0;
    progress p = {.tty = isatty(2), .total = count, .start = now_seconds()};
    if (p.tty && count)
        progress_show(&p, 0, 0);   /* the empty bar, until the first run ends */
    size_t next = 0, active = 0;
    bool told_workers = false;
    while (busy && (next < count || active > 0)) {
        while (!stop_requested && active < workers && next < count) {
            size_t run = todo[next++];
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                signal(SIGINT, SIG_DFL);
                signal(SIGTERM, SIG_DFL);
                int status = sweep_run_one(dir, plan, run, ptxsim, where->time_seconds,
                                           where->retry_failed);
                _exit(status == 0 ? 0 : 1);
            }
            if (pid < 0) {
                fprintf(stderr, "ptxsim sweep: cannot start a worker: %s\n", strerror(errno));
                stop_requested = SIGTERM;
                break;
            }
            for (unsigned i = 0; i < workers; i++)
                if (!busy[i].pid) {
                    busy[i] = (worker){pid, run};
                    break;
                }
            active++;
        }
        if (stop_requested && !told_workers) {
            for (unsigned i = 0; i < workers; i++)
                if (busy[i].pid)
                    kill(busy[i].pid, SIGTERM);
            told_workers = true;
            next = count;   /* start nothing more */
        }
        if (!active)
            break;
        int ws;
        pid_t pid = waitpid(-1, &ws, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (unsigned i = 0; i < workers; i++) {
            if (busy[i].pid != pid)
                continue;
            int status = -1;
            if (sweep_run_state(dir, plan, busy[i].run, &status) != SWEEP_FINISHED)
                status = -1;
            if (status >= 0 || !stop_requested) {
                p.done++;
                p.failed += status != 0;
                progress_show(&p, busy[i].run, status);
            }
            busy[i].pid = 0;
            active--;
        }
    }
    if (p.tty)
        fputc('\n', stderr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(busy);
    free(todo);

    bool gathered = sweep_gather(dir, plan);
    size_t finished = 0, failed = 0;
    for (size_t run = 0; run < plan->run_count; run++) {
        int status;
        if (sweep_run_state(dir, plan, run, &status) == SWEEP_FINISHED) {
            finished++;
            failed += status != 0;
        }
    }
    if (stop_requested) {
        fprintf(stderr, "ptxsim sweep: stopped; %zu of %zu runs finished. Run the same command "
                        "again (or ptxsim sweep --out=%s) to run the rest.\n",
                finished, plan->run_count, dir);
        return 130;
    }
    fprintf(stderr, "ptxsim sweep: %zu of %zu runs finished, %zu failed; summary in "
                    "%s/summary.csv and summary.json\n",
            finished, plan->run_count, failed, dir);
    if (!gathered)
        return 2;
    return finished == plan->run_count && failed == 0 ? 0 : 1;
}
