/* sweep_slurm.c: `ptxsim sweep --on=slurm[:PARTITION]`: the runs that are not finished as a
 * Slurm job array (one array task per run, through sbatch), and a job that depends on the
 * array (afterany: it runs whether runs failed or not) and writes the summary. Each array task
 * runs `ptxsim sweep --run DIR N`, the code a local worker runs.
 *
 * The job scripts and the sbatch commands are written to DIR/slurm/submit-K/ (K counts the
 * submissions of this sweep) and the job ids to DIR/slurm/jobs, which --status asks squeue
 * about. An array task's index is its position in the list of runs the script holds, not the
 * run's index, so a resumed sweep submits only the runs left, and a sweep larger than the
 * cluster's MaxArraySize becomes several arrays. The program, ptxsim and DIR must be on a
 * file system the compute nodes share, as for any batch job. */
#include "cli/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs a command, returning its exit status (-1 when it could not start) and its stdout in
 * *out (malloc'd, NUL-terminated); its stderr goes to ours, or nowhere when quiet. */
static int capture(char *const argv[], char **out, bool quiet)
{
    *out = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        if (quiet) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 2);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "ptxsim sweep: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    size_t cap = 1024, n = 0;
    char *buf = malloc(cap);
    for (ssize_t r; buf; n += (size_t)r) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        r = read(fds[0], buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            r = 0;
        else if (r <= 0)
            break;
    }
    close(fds[0]);
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    if (buf)
        buf[n] = 0;
    *out = buf;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The cluster's MaxArraySize (array indices run from 0 to it minus one); Slurm's default when
 * scontrol cannot say. */
static size_t max_array_size(void)
{
    char *argv[] = {"scontrol", "show", "config", NULL}, *out;
    size_t size = 1001;
    if (capture(argv, &out, true) == 0 && out) {
        const char *p = strstr(out, "MaxArraySize");
        if (p && (p = strchr(p, '='))) {
            unsigned long v = strtoul(p + 1, NULL, 10);
            if (v > 0)
                size = v;
        }
    }
    free(out);
    return size;
}

static void sbatch_common(FILE *f, const sweep_where *w)
{
    if (w->partition)
        fprintf(f, "#SBATCH --partition=%s\n", w->partition);
    if (w->mem)
        fprintf(f, "#SBATCH --mem=%s\n", w->mem);
}

/* The script of one array: its tasks run runs[first .. first+count-1]. */
static char *array_script(const char *dir, const char *sub, const sweep_where *w,
                          const char *ptxsim, const size_t *runs, size_t count, unsigned cpus)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "#!/bin/bash\n#SBATCH --job-name=ptxsim-sweep\n#SBATCH --array=0-%zu\n",
            count - 1);
    sbatch_common(f, w);
    if (w->time_seconds > 0)
        /* A minute more than the runs' own limit, which sweep --run enforces, so that a run
         * that takes too long is recorded as timed out (as it is locally), not killed. */
        fprintf(f, "#SBATCH --time=%.0f\n", ceil(w->time_seconds / 60) + 1);
    fprintf(f, "#SBATCH --cpus-per-task=%u\n#SBATCH --output=", cpus);
    shell_quote(f, sub);
    fprintf(f, "/task-%%A_%%a.log\n");
    fprintf(f, "# ptxsim sweep: array task i runs run runs[i] of the sweep in\n# %s;\n"
               "# the run's files go to its folder there, whichever node runs it.\nruns=(",
            dir);
    for (size_t i = 0; i < count; i++)
        fprintf(f, "%s%zu", i == 0 ? "" : i % 16 ? " " : "\n      ", runs[i]);
    fprintf(f, ")\nexec ");
    shell_quote(f, ptxsim);
    fprintf(f, " sweep --run ");
    shell_quote(f, dir);
    fprintf(f, " \"${runs[$SLURM_ARRAY_TASK_ID]}\"");
    if (w->time) {
        fprintf(f, " --time=");
        shell_quote(f, w->time);
    }
    if (w->retry_failed)
        fprintf(f, " --retry-failed");
    fprintf(f, "\n");
    return fclose(f) == 0 ? text : (free(text), NULL);
}

static char *gather_script(const char *dir, const char *sub, const sweep_where *w,
                           const char *ptxsim)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "#!/bin/bash\n#SBATCH --job-name=ptxsim-sweep-gather\n");
    sbatch_common(f, w);
    if (w->time_seconds > 0)
        fprintf(f, "#SBATCH --time=10\n");
    fprintf(f, "#SBATCH --output=");
    shell_quote(f, sub);
    fprintf(f, "/gather-%%j.log\n# ptxsim sweep: writes summary.csv and summary.json once the "
               "runs' array tasks have ended\nexec ");
    shell_quote(f, ptxsim);
    fprintf(f, " sweep --gather ");
    shell_quote(f, dir);
    fprintf(f, "\n");
    return fclose(f) == 0 ? text : (free(text), NULL);
}

static bool write_script(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0 && chmod(path, 0755) == 0;
}

/* sbatch --parsable [extra] SCRIPT: the job id, or NULL (sbatch's message is on stderr). */
static char *submit(const char *script, const char *dependency)
{
    char dep[4096];
    char *argv[5] = {"sbatch", "--parsable", NULL, NULL, NULL};
    if (dependency) {
        snprintf(dep, sizeof dep, "--dependency=afterany:%s", dependency);
        argv[2] = dep;
        argv[3] = (char *)script;
    } else {
        argv[2] = (char *)script;
    }
    char *out;
    int rc = capture(argv, &out, false);
    if (rc != 0 || !out || !*out) {
        fprintf(stderr, "ptxsim sweep: sbatch %s failed (exit %d)\n", script, rc);
        free(out);
        return NULL;
    }
    out[strcspn(out, ";\n")] = 0;   /* "JOBID[;CLUSTER]" */
    return out;
}

/* Waits until job `id` has left the queue (ended, or too old for squeue to know). */
static void wait_for_job(const char *id)
{
    for (;;) {
        char *argv[] = {"squeue", "-h", "-j", (char *)id, "-o", "%T", NULL}, *out;
        int rc = capture(argv, &out, true);
        bool queued = rc == 0 && out && out[strspn(out, " \n")];
        free(out);
        if (!queued)
            return;
        sleep(1);
    }
}

int sweep_slurm(const char *dir, const sweep_plan *plan, const sweep_where *where,
                const char *ptxsim)
{
    size_t *todo = malloc(plan->run_count * sizeof *todo), count = 0;
    if (!todo) {
        fprintf(stderr, "ptxsim sweep: out of memory\n");
        return 2;
    }
    for (size_t run = 0; run < plan->run_count; run++)
        if (sweep_run_pending(dir, plan, run, where->retry_failed))
            todo[count++] = run;
    if (!count) {
        free(todo);
        fprintf(stderr, "ptxsim sweep: all %zu runs are finished or running; nothing to "
                        "submit\n", plan->run_count);
        if (where->dry_run)
            return 0;
        if (!sweep_gather(dir, plan))
            return 2;
        return sweep_print_status(dir, plan);
    }
    unsigned cpus = where->cpus ? where->cpus : sweep_plan_max_threads(plan);
    size_t per_array = max_array_size();

    /* DIR/slurm/submit-K: the first K not used yet. */
    char slurm_dir[PATH_MAX], sub[PATH_MAX + 32];
    snprintf(slurm_dir, sizeof slurm_dir, "%s/slurm", dir);
    for (unsigned k = 1;; k++) {
        snprintf(sub, sizeof sub, "%s/submit-%u", slurm_dir, k);
        if (access(sub, F_OK) != 0)
            break;
    }
    if (!where->dry_run && !sweep_mkdir_p(sub)) {
        fprintf(stderr, "ptxsim sweep: cannot create %s: %s\n", sub, strerror(errno));
        free(todo);
        return 2;
    }

    int rc = 0;
    char deps[4096] = "";
    size_t arrays = 0;
    for (size_t first = 0; first < count && rc == 0; first += per_array, arrays++) {
        size_t n = count - first < per_array ? count - first : per_array;
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/array-%zu.sh", sub, arrays);
        char *text = array_script(dir, sub, where, ptxsim, todo + first, n, cpus);
        if (!text) {
            rc = 2;
            break;
        }
        if (where->dry_run) {
            printf("# ---- %s (submitted with: sbatch --parsable %s)\n%s", path, path, text);
        } else if (!write_script(path, text)) {
            fprintf(stderr, "ptxsim sweep: cannot write %s: %s\n", path, strerror(errno));
            rc = 2;
        } else {
            char *id = submit(path, NULL);
            if (!id) {
                rc = 2;
            } else {
                size_t used = strlen(deps);
                snprintf(deps + used, sizeof deps - used, "%s%s", used ? ":" : "", id);
                fprintf(stderr, "ptxsim sweep: submitted %zu run%s as Slurm job array %s "
                                "(%u CPU%s per task)\n",
                        n, n == 1 ? "" : "s", id, cpus, cpus == 1 ? "" : "s");
                char jobs[PATH_MAX + 16];
                snprintf(jobs, sizeof jobs, "%s/jobs", slurm_dir);
                FILE *f = fopen(jobs, "a");
                if (f) {
                    fprintf(f, "array %s %s %zu\n", id, path, n);
                    fclose(f);
                }
            }
            free(id);
        }
        free(text);
    }
    free(todo);
    if (rc != 0)
        return rc;

    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/gather.sh", sub);
    char *text = gather_script(dir, sub, where, ptxsim);
    if (!text)
        return 2;
    if (where->dry_run) {
        printf("# ---- %s (submitted with: sbatch --parsable --dependency=afterany:<the array "
               "job%s> %s)\n%s# dry run: nothing was written or submitted\n",
               path, arrays == 1 ? "" : "s", path, text);
        free(text);
        return 0;
    }
    char *gather = write_script(path, text) ? submit(path, deps) : NULL;
    free(text);
    if (!gather) {
        fprintf(stderr, "ptxsim sweep: the gather job was not submitted; the runs are; "
                        "`ptxsim sweep --gather %s` writes the summary once they end\n", dir);
        return 2;
    }
    char jobs[PATH_MAX + 16];
    snprintf(jobs, sizeof jobs, "%s/jobs", slurm_dir);
    FILE *f = fopen(jobs, "a");
    if (f) {
        fprintf(f, "gather %s %s\n", gather, path);
        fclose(f);
    }
    fprintf(stderr, "ptxsim sweep: job %s writes %s/summary.csv when they have ended; "
                    "`ptxsim sweep --status %s` says how far they are\n",
            gather, dir, dir);
    if (!where->wait) {
        free(gather);
        return 0;
    }
    wait_for_job(gather);
    free(gather);
    return sweep_print_status(dir, plan);
}

void sweep_slurm_status(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/slurm/jobs", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char ids[4096] = "", line[PATH_MAX + 128], kind[16], id[64];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%15s %63s", kind, id) == 2) {
            size_t used = strlen(ids);
            snprintf(ids + used, sizeof ids - used, "%s%s", used ? "," : "", id);
        }
    fclose(f);
    if (!*ids)
        return;
    /* -r: one line per array task */
    char *argv[] = {"squeue", "-h", "-r", "-j", ids, "-o", "%T", NULL}, *out;
    int rc = capture(argv, &out, true);
    if (rc != 0 || !out) {
        printf("Slurm jobs %s: squeue cannot say (exit %d); they have probably ended\n", ids,
               rc);
        free(out);
        return;
    }
    /* Count each state (PENDING, RUNNING, ...) in the order seen. */
    char states[8][32];
    size_t counts[8] = {0}, nstates = 0, total = 0;
    for (char *save = NULL, *s = strtok_r(out, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
        total++;
        size_t k = 0;
        while (k < nstates && strcmp(states[k], s) != 0)
            k++;
        if (k == nstates && nstates < 8)
            snprintf(states[nstates++], sizeof states[0], "%s", s);
        if (k < nstates)
            counts[k]++;
    }
    free(out);
    if (!total) {
        printf("Slurm jobs %s: none in the queue any more\n", ids);
        return;
    }
    printf("Slurm jobs %s:", ids);
    for (size_t k = 0; k < nstates; k++)
        printf(" %zu %s", counts[k], states[k]);
    printf("\n");
}
