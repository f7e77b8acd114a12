/* sweep_run.c: one run of a sweep, the same code wherever it runs (a local worker, a Slurm
 * array task). The run's folder gets its command, the environment it ran in, its stdout and
 * stderr, the --stats JSON, exit_status and run.json. run.json is written last, by rename: it
 * is what makes a run finished, so a run killed halfway is simply run again by the next call.
 * A lock file held while the program runs tells other callers (and --status) that it is running.
 *
 * The program runs as `ptxsim run --OPTION=VALUE... --stats=FOLDER/stats.json -- APP ARGS` in
 * the sweep's working directory, with every PTXSIM_* variable of the caller's environment
 * removed: the run's settings are exactly the plan's, whatever the shell or the batch system
 * exported. */
#include "cli/sweep.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The files a run writes; removed before it runs again. */
static const char *const run_files[] = {"run.json", "exit_status", "command", "env", "stdout",
                                        "stderr", "stats.json"};

bool sweep_self_path(char *out, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    if (len <= 0)
        return false;
    out[len] = 0;
    return true;
}

void sweep_run_path(char *out, size_t n, const char *dir, const sweep_plan *plan, size_t run)
{
    int width = 4;
    for (size_t last = plan->run_count ? plan->run_count - 1 : 0, p = 10000; last >= p; p *= 10)
        width++;
    snprintf(out, n, "%s/runs/%0*zu", dir, width, run);
}

static void file_path(char *out, size_t n, const char *rdir, const char *name)
{
    snprintf(out, n, "%s/%s", rdir, name);
}

/* A finished run's exit status from its run.json; -1 when it is not finished. */
static int finished_status(const char *rdir)
{
    char path[PATH_MAX + 16];
    file_path(path, sizeof path, rdir, "run.json");
    json_t *j = json_load_file(path, 0, NULL);
    if (!j)
        return -1;
    json_t *s = json_object_get(j, "status");
    int status = json_is_integer(s) ? (int)json_integer_value(s) : -1;
    json_decref(j);
    return status;
}

sweep_state sweep_run_state(const char *dir, const sweep_plan *plan, size_t run, int *status)
{
    char rdir[PATH_MAX], path[PATH_MAX + 16];
    sweep_run_path(rdir, sizeof rdir, dir, plan, run);
    int s = finished_status(rdir);
    if (s >= 0) {
        if (status)
            *status = s;
        return SWEEP_FINISHED;
    }
    file_path(path, sizeof path, rdir, "lock");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return SWEEP_NOT_STARTED;
    bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return held ? SWEEP_RUNNING : SWEEP_NOT_STARTED;
}

bool sweep_run_pending(const char *dir, const sweep_plan *plan, size_t run, bool retry_failed)
{
    int status = 0;
    sweep_state st = sweep_run_state(dir, plan, run, &status);
    return st == SWEEP_NOT_STARTED || (st == SWEEP_FINISHED && retry_failed && status != 0);
}

bool sweep_parse_time(const char *text, double *seconds)
{
    if (strcasecmp(text, "infinite") == 0 || strcasecmp(text, "unlimited") == 0) {
        *seconds = 0;
        return true;
    }
    /* Slurm's forms: [D-]H[:M[:S]] with a day, else M, M:S or H:M:S. */
    unsigned long part[4] = {0};
    int n = 0;
    bool days = strchr(text, '-') != NULL;
    const char *p = text;
    for (;;) {
        if (*p < '0' || *p > '9' || n == 4)
            return false;
        char *end;
        part[n++] = strtoul(p, &end, 10);
        if (!*end)
            break;
        if (*end != (days && n == 1 ? '-' : ':'))
            return false;
        p = end + 1;
    }
    double s;
    if (days) {
        if (n < 2)
            return false;
        s = part[0] * 86400.0 + part[1] * 3600.0 + (n > 2 ? part[2] * 60.0 : 0) +
            (n > 3 ? (double)part[3] : 0);
    } else if (n == 1) {
        s = part[0] * 60.0;
    } else if (n == 2) {
        s = part[0] * 60.0 + (double)part[1];
    } else if (n == 3) {
        s = part[0] * 3600.0 + part[1] * 60.0 + (double)part[2];
    } else {
        return false;
    }
    *seconds = s;
    return true;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The environment the run gets: the caller's without PTXSIM_* (sorted, for the env file). */
static char **run_environment(void)
{
    size_t n = 0;
    for (char **e = environ; *e; e++)
        n++;
    char **env = calloc(n + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "PTXSIM_", 7) != 0)
            env[k++] = *e;
    qsort(env, k, sizeof *env, compare_strings);
    return env;
}

/* ptxsim run --OPTION=VALUE... --stats=RDIR/stats.json -- APP ARGS (strings owned by `store`). */
static char **run_command(const sweep_plan *plan, size_t run, const char *ptxsim,
                          const char *rdir, char **store, size_t *stored)
{
    const sweep_app *app = &plan->apps[sweep_run_app(plan, run)];
    size_t n = 0;
    char **argv = calloc(plan->axis_count + app->argc + 6, sizeof *argv);
    if (!argv)
        return NULL;
    argv[n++] = (char *)ptxsim;
    argv[n++] = "run";
    for (size_t i = 0; i <= plan->axis_count; i++) {
        char *word;
        int len = i < plan->axis_count
                      ? asprintf(&word, "--%s=%s", plan->axes[i].opt->name,
                                 sweep_run_value(plan, run, i))
                      : asprintf(&word, "--stats=%s/stats.json", rdir);
        if (len < 0) {
            free(argv);
            return NULL;
        }
        argv[n++] = store[(*stored)++] = word;
    }
    argv[n++] = "--";
    for (size_t k = 0; k < app->argc; k++)
        argv[n++] = app->argv[k];
    argv[n] = NULL;
    return argv;
}

static bool write_text(const char *rdir, const char *name, const char *text)
{
    char path[PATH_MAX + 16];
    file_path(path, sizeof path, rdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

static void print_words(FILE *f, char **argv)
{
    for (char **a = argv; *a; a++) {
        if (a != argv)
            fputc(' ', f);
        shell_quote(f, *a);
    }
    fputc('\n', f);
}

void sweep_run_print_command(FILE *out, const char *dir, const sweep_plan *plan, size_t run,
                             const char *ptxsim)
{
    char rdir[PATH_MAX];
    sweep_run_path(rdir, sizeof rdir, dir, plan, run);
    char **store = calloc(plan->axis_count + 1, sizeof *store);
    size_t stored = 0;
    char **argv = store ? run_command(plan, run, ptxsim, rdir, store, &stored) : NULL;
    if (argv)
        print_words(out, argv);
    for (size_t i = 0; i < stored; i++)
        free(store[i]);
    free(store);
    free(argv);
}

static bool write_command_and_env(const char *rdir, char **argv, char **env)
{
    char path[PATH_MAX + 16];
    file_path(path, sizeof path, rdir, "command");
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    print_words(f, argv);
    if (fclose(f) != 0)
        return false;
    file_path(path, sizeof path, rdir, "env");
    if (!(f = fopen(path, "w")))
        return false;
    for (char **e = env; *e; e++)
        fprintf(f, "%s\n", *e);
    return fclose(f) == 0;
}

/* Starts the program in its own process group with stdout and stderr in the run's files and
 * the signal mask of `mask` (the caller blocks the signals it waits for). */
static pid_t start_program(const sweep_plan *plan, const char *rdir, char **argv, char **env,
                           const sigset_t *mask)
{
    char out[PATH_MAX + 16], err[PATH_MAX + 16];
    file_path(out, sizeof out, rdir, "stdout");
    file_path(err, sizeof err, rdir, "stderr");
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int fi = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fo < 0 || fe < 0 || fi < 0) {
        fprintf(stderr, "ptxsim sweep: cannot write the outputs of %s: %s\n", rdir,
                strerror(errno));
        if (fo >= 0) close(fo);
        if (fe >= 0) close(fe);
        if (fi >= 0) close(fi);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, mask, NULL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(plan->cwd) != 0) {
            fprintf(stderr, "ptxsim sweep: cannot enter %s: %s\n", plan->cwd, strerror(errno));
            _exit(127);
        }
        execve(argv[0], argv, env);
        fprintf(stderr, "ptxsim sweep: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (pid > 0)
        setpgid(pid, pid);   /* also here, so that killpg works before the child got to it */
    else
        fprintf(stderr, "ptxsim sweep: cannot start a process: %s\n", strerror(errno));
    close(fo);
    close(fe);
    close(fi);
    return pid;
}

typedef struct run_end {
    int wait_status;
    bool timed_out;
    bool interrupted;     /* SIGTERM or SIGINT: the run stays unfinished */
    double seconds;
} run_end;

/* Waits for the program, killing its process group when the time limit passes or when this
 * process is asked to stop. The caller has blocked SIGCHLD, SIGTERM and SIGINT, so no signal
 * can slip between a check and the wait. */
static run_end wait_program(pid_t pid, double time_limit, const sigset_t *waited)
{
    run_end end = {0};
    double start = now_seconds(), deadline = time_limit > 0 ? start + time_limit : 0;
    double kill_at = 0;   /* after a SIGTERM: when to stop asking */
    for (;;) {
        pid_t r = waitpid(pid, &end.wait_status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            end.wait_status = 127 << 8;
            break;
        }
        double t = now_seconds(), wake = 3600;
        if (deadline && !end.timed_out) {
            if (t >= deadline) {
                end.timed_out = true;
                killpg(pid, SIGKILL);
            } else {
                wake = deadline - t;
            }
        }
        if (kill_at) {
            if (t >= kill_at) {
                killpg(pid, SIGKILL);
                kill_at = 0;
            } else if (kill_at - t < wake) {
                wake = kill_at - t;
            }
        }
        struct timespec ts = {(time_t)wake, (long)((wake - (double)(time_t)wake) * 1e9)};
        int sig = sigtimedwait(waited, NULL, &ts);
        if ((sig == SIGTERM || sig == SIGINT) && !end.interrupted) {
            end.interrupted = true;
            killpg(pid, SIGTERM);
            kill_at = now_seconds() + 5;
        }
    }
    end.seconds = now_seconds() - start;
    return end;
}

static bool write_run_json(const sweep_plan *plan, size_t run, const char *rdir, int status,
                           const run_end *end, time_t started)
{
    json_t *options = json_object();
    for (size_t i = 0; i < plan->axis_count; i++)
        json_object_set_new(options, plan->axes[i].opt->name,
                            json_string(sweep_run_value(plan, run, i)));
    char when[32], host[256] = "";
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
    gethostname(host, sizeof host - 1);
    const char *array_job = getenv("SLURM_ARRAY_JOB_ID"), *task = getenv("SLURM_ARRAY_TASK_ID");
    const char *job = getenv("SLURM_JOB_ID");
    char slurm[64] = "";
    if (array_job && task)
        snprintf(slurm, sizeof slurm, "%s_%s", array_job, task);
    else if (job)
        snprintf(slurm, sizeof slurm, "%s", job);
    int sig = WIFSIGNALED(end->wait_status) ? WTERMSIG(end->wait_status) : 0;
    json_t *j = json_pack("{s:I, s:s, s:o, s:b, s:i, s:o, s:b, s:f, s:s, s:s, s:o, s:s}",
                          "run", (json_int_t)run, "app",
                          plan->apps[sweep_run_app(plan, run)].name, "options", options,
                          "deterministic", sweep_run_deterministic(plan, run), "status", status,
                          "signal", sig ? json_integer(sig) : json_null(), "timed_out",
                          end->timed_out, "wall_seconds", end->seconds, "started", when, "host",
                          host, "slurm_job", *slurm ? json_string(slurm) : json_null(), "cwd",
                          plan->cwd);
    char path[PATH_MAX + 16], tmp[PATH_MAX + 24];
    file_path(path, sizeof path, rdir, "run.json");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    bool ok = j && json_dump_file(j, tmp, JSON_INDENT(2)) == 0 && rename(tmp, path) == 0;
    json_decref(j);
    return ok;
}

bool sweep_mkdir_p(const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return false;
        *s = '/';
    }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

int sweep_run_one(const char *dir, const sweep_plan *plan, size_t run, const char *ptxsim,
                  double time_limit, bool retry_failed)
{
    assert(run < plan->run_count);
    char rdir[PATH_MAX], path[PATH_MAX + 16];
    sweep_run_path(rdir, sizeof rdir, dir, plan, run);
    file_path(path, sizeof path, rdir, "lock");
    int lock = sweep_mkdir_p(rdir) ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666) : -1;
    if (lock < 0) {
        fprintf(stderr, "ptxsim sweep: cannot write %s: %s\n", rdir, strerror(errno));
        return -1;
    }
    if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "ptxsim sweep: run %zu is running elsewhere; not starting it again\n",
                run);
        close(lock);
        return SWEEP_SKIPPED;
    }
    int before = finished_status(rdir);
    if (before >= 0 && !(retry_failed && before != 0)) {
        fprintf(stderr, "ptxsim sweep: run %zu has finished already (status %d)\n", run,
                before);
        close(lock);
        return SWEEP_SKIPPED;
    }
    for (size_t i = 0; i < sizeof run_files / sizeof run_files[0]; i++) {
        file_path(path, sizeof path, rdir, run_files[i]);
        unlink(path);
    }

    char **store = calloc(plan->axis_count + 1, sizeof *store);   /* the --OPTION=VALUE words */
    size_t stored = 0;
    int status = -1;
    char **env = run_environment();
    char **argv = store ? run_command(plan, run, ptxsim, rdir, store, &stored) : NULL;
    if (!env || !argv || !write_command_and_env(rdir, argv, env)) {
        fprintf(stderr, "ptxsim sweep: cannot prepare run %zu in %s: %s\n", run, rdir,
                strerror(errno));
        goto done;
    }

    sigset_t waited, old;
    sigemptyset(&waited);
    sigaddset(&waited, SIGCHLD);
    sigaddset(&waited, SIGTERM);
    sigaddset(&waited, SIGINT);
    sigprocmask(SIG_BLOCK, &waited, &old);
    time_t started = time(NULL);
    pid_t pid = start_program(plan, rdir, argv, env, &old);
    if (pid > 0) {
        run_end end = wait_program(pid, time_limit, &waited);
        if (end.interrupted) {
            fprintf(stderr, "ptxsim sweep: run %zu stopped; it stays unfinished\n", run);
        } else {
            status = end.timed_out                    ? 124
                     : WIFEXITED(end.wait_status)     ? WEXITSTATUS(end.wait_status)
                     : WIFSIGNALED(end.wait_status)   ? 128 + WTERMSIG(end.wait_status)
                                                      : 127;
            char text[16];
            snprintf(text, sizeof text, "%d\n", status);
            if (!write_text(rdir, "exit_status", text) ||
                !write_run_json(plan, run, rdir, status, &end, started)) {
                fprintf(stderr, "ptxsim sweep: cannot record run %zu in %s: %s\n", run, rdir,
                        strerror(errno));
                status = -1;
            }
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
done:
    for (size_t i = 0; i < stored; i++)
        free(store[i]);
    free(store);
    free(argv);
    free(env);
    close(lock);
    return status;
}
