/* sweep.c: the command line of `ptxsim sweep`: many runs of `ptxsim run` over programs and
 * option values, locally or as a Slurm job array, with one results table.
 *
 *   ptxsim sweep --out=DIR [WHERE] [RUN OPTIONS as lists or ranges] (-- ./app ARGS | --apps=FILE)
 *   ptxsim sweep --out=DIR [WHERE]          resume the sweep DIR holds
 *   ptxsim sweep --status DIR               how far it is
 *   ptxsim sweep --gather DIR               (re)write DIR/summary.csv and summary.json
 *   ptxsim sweep --run DIR N [--time=T]     run run N (what each Slurm array task does)
 *
 * The files that do the work: sweep_plan.c (axes), sweep_run.c (one run), sweep_local.c,
 * sweep_slurm.c, sweep_summary.c (see cli/sweep.h). */
#include "cli/cli.h"
#include "cli/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void sweep_usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim sweep --out=DIR [OPTIONS] [RUN OPTIONS] -- ./app [ARGS]\n"
            "       ptxsim sweep --out=DIR [OPTIONS] [RUN OPTIONS] --apps=FILE\n"
            "       ptxsim sweep --out=DIR [OPTIONS]       resume the sweep in DIR\n"
            "       ptxsim sweep --status DIR              how far the sweep in DIR is\n"
            "       ptxsim sweep --gather DIR              rewrite DIR/summary.csv and .json\n"
            "\n"
            "Runs `ptxsim run` for every combination of programs and option values (the cross\n"
            "product), one folder per run in DIR/runs/, and writes one row per run to\n"
            "DIR/summary.csv and DIR/summary.json. A second call runs only the runs that have\n"
            "not finished.\n"
            "\n"
            "run options: any option of `ptxsim run`, with a comma list and, for numbers,\n"
            "ranges A..B: --gpu=gtx480,a100 --det=off,gpudet --seed=1..8 --threads=1,2\n"
            "(without --threads every run uses one host thread; --stats is the sweep's own)\n"
            "\n"
            "options:\n"
            "  --out=DIR              the sweep's folder (its plan, runs and summary)\n"
            "  --apps=FILE            programs, one command line per line (sh quoting, #)\n"
            "  --on=local[:N]         run here, N at a time (default: CPUs / largest --threads)\n"
            "  --on=slurm[:PARTITION] submit a Slurm job array, one task per run, and a job\n"
            "                         that writes the summary when they have ended\n"
            "  --time=LIMIT           a run's time limit (Slurm's format: MIN, H:MM:SS, D-H...);\n"
            "                         a run over it is killed and recorded with status 124\n"
            "  --mem=SIZE             Slurm: memory per task (sbatch --mem)\n"
            "  --cpus=N               Slurm: CPUs per task (default: the largest --threads)\n"
            "  --wait                 Slurm: wait until the summary is written\n"
            "  --retry-failed         run the runs that failed again, too\n"
            "  --dry-run              print the commands (local) or job scripts (Slurm)\n"
            "\n"
            "exit status (also of --status): 0 when every run finished with status 0 (or,\n"
            "without --wait, the Slurm jobs were submitted), 1 when runs failed or have not\n"
            "finished, 2 on errors, 130 when interrupted.\n");
}

/* DIR as an absolute path (DIR need not exist). */
static bool absolute_dir(const char *dir, char *out, size_t n)
{
    char real[PATH_MAX];
    if (realpath(dir, real)) {
        snprintf(out, n, "%s", real);
        return true;
    }
    if (dir[0] == '/') {
        snprintf(out, n, "%s", dir);
        return true;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return false;
    int len = snprintf(out, n, "%s/%s", cwd, dir);
    return len > 0 && (size_t)len < n;
}

/* --status, --gather and --run: DIR's own plan. */
static int stored_command(const char *mode, int argc, char **argv)
{
    const char *dir = NULL, *index = NULL, *time = NULL;
    bool retry_failed = false;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "--time=", 7) == 0 && strcmp(mode, "run") == 0)
            time = argv[i] + 7;
        else if (strcmp(argv[i], "--retry-failed") == 0 && strcmp(mode, "run") == 0)
            retry_failed = true;
        else if (!dir)
            dir = argv[i];
        else if (!index && strcmp(mode, "run") == 0)
            index = argv[i];
        else {
            fprintf(stderr, "ptxsim sweep --%s: unexpected argument '%s'\n", mode, argv[i]);
            return 2;
        }
    }
    if (!dir || (strcmp(mode, "run") == 0 && !index)) {
        fprintf(stderr, "ptxsim sweep --%s: give the sweep's folder%s\n", mode,
                strcmp(mode, "run") == 0 ? " and the run's index" : "");
        return 2;
    }
    char abs[PATH_MAX], err[600];
    sweep_plan plan;
    if (!absolute_dir(dir, abs, sizeof abs) || !sweep_plan_load(&plan, abs, err, sizeof err)) {
        fprintf(stderr, "ptxsim sweep --%s: %s\n", mode, err);
        return 2;
    }
    int rc = 0;
    if (strcmp(mode, "status") == 0) {
        rc = sweep_print_status(abs, &plan);
    } else if (strcmp(mode, "gather") == 0) {
        rc = sweep_gather(abs, &plan) ? 0 : 2;
        if (!rc)
            printf("ptxsim sweep: wrote %s/summary.csv and summary.json\n", abs);
    } else {
        char *end;
        unsigned long long run = strtoull(index, &end, 10);
        double limit = 0;
        char self[PATH_MAX];
        if (*end || !*index || run >= plan.run_count) {
            fprintf(stderr, "ptxsim sweep --run: '%s' is not a run of %s (0 to %zu)\n", index,
                    abs, plan.run_count - 1);
            rc = 2;
        } else if (time && !sweep_parse_time(time, &limit)) {
            fprintf(stderr, "ptxsim sweep --run: --time=%s is not a time limit\n", time);
            rc = 2;
        } else if (!sweep_self_path(self, sizeof self)) {
            fprintf(stderr, "ptxsim sweep: cannot find my own executable\n");
            rc = 2;
        } else {
            int status = sweep_run_one(abs, &plan, (size_t)run, self, limit, retry_failed);
            rc = status == SWEEP_SKIPPED ? 0 : status < 0 ? 2 : status;
        }
    }
    sweep_plan_free(&plan);
    return rc;
}

/* --on=local[:N] | slurm[:PARTITION] */
static bool parse_where(const char *on, sweep_where *w)
{
    if (strncmp(on, "local", 5) == 0 && (!on[5] || on[5] == ':')) {
        w->slurm = false;
        if (on[5]) {
            char *end;
            unsigned long n = strtoul(on + 6, &end, 10);
            if (*end || !on[6] || n == 0 || n > 4096)
                return false;
            w->workers = (unsigned)n;
        }
        return true;
    }
    if (strncmp(on, "slurm", 5) == 0 && (!on[5] || on[5] == ':')) {
        w->slurm = true;
        if (on[5]) {
            if (!on[6])
                return false;
            w->partition = on + 6;
        }
        return true;
    }
    return false;
}

int cli_sweep(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--status") == 0 || strcmp(argv[1], "--gather") == 0 ||
                      strcmp(argv[1], "--run") == 0))
        return stored_command(argv[1] + 2, argc - 2, argv + 2);

    sweep_plan plan = {0};
    sweep_where where = {0};
    const char *out = NULL, *apps = NULL;
    char err[600];
    int i = 1;
    bool has_axes = false;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-')
            break;   /* the program */
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            sweep_usage(stdout);
            sweep_plan_free(&plan);
            return 0;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ptxsim sweep: unknown option %s (see ptxsim sweep --help)\n", a);
            goto fail;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        const char *value = eq ? eq + 1 : NULL;
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
#define IS(s) (len == strlen(s) && strncmp(name, s, len) == 0)
        if (IS("out") && value) {
            out = value;
        } else if (IS("apps") && value) {
            apps = value;
        } else if (IS("on") && value) {
            if (!parse_where(value, &where)) {
                fprintf(stderr, "ptxsim sweep: --on=%s: expected local, local:N, slurm or "
                                "slurm:PARTITION\n", value);
                goto fail;
            }
        } else if (IS("time") && value) {
            if (!sweep_parse_time(value, &where.time_seconds)) {
                fprintf(stderr, "ptxsim sweep: --time=%s: expected Slurm's format (MIN, "
                                "MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC)\n", value);
                goto fail;
            }
            where.time = value;
        } else if (IS("mem") && value) {
            where.mem = value;
        } else if (IS("cpus") && value) {
            char *end;
            unsigned long n = strtoul(value, &end, 10);
            if (*end || !*value || n == 0 || n > 4096) {
                fprintf(stderr, "ptxsim sweep: --cpus=%s: expected a number of CPUs\n", value);
                goto fail;
            }
            where.cpus = (unsigned)n;
        } else if (IS("wait") && !value) {
            where.wait = true;
        } else if (IS("dry-run") && !value) {
            where.dry_run = true;
        } else if (IS("retry-failed") && !value) {
            where.retry_failed = true;
        } else if (IS("out") || IS("apps") || IS("on") || IS("time") || IS("mem") ||
                   IS("cpus")) {
            fprintf(stderr, "ptxsim sweep: --%.*s needs a value (--%.*s=...)\n", (int)len, name,
                    (int)len, name);
            goto fail;
        } else {
            char opt[64];
            if (len >= sizeof opt)
                len = sizeof opt - 1;
            memcpy(opt, name, len);
            opt[len] = 0;
            if (!sweep_plan_add_axis(&plan, opt, value, err, sizeof err)) {
                fprintf(stderr, "ptxsim sweep: %s\n", err);
                goto fail;
            }
            has_axes = true;
        }
#undef IS
    }
    if (!out) {
        fprintf(stderr, "ptxsim sweep: give the sweep's folder with --out=DIR\n");
        goto fail;
    }
    if (!where.slurm && (where.mem || where.cpus || where.wait)) {
        fprintf(stderr, "ptxsim sweep: --%s is for --on=slurm (a local run has no memory "
                        "limit, and CPUs are --on=local:N; local sweeps always wait)\n",
                where.mem ? "mem" : where.cpus ? "cpus" : "wait");
        goto fail;
    }
    if (apps && i < argc) {
        fprintf(stderr, "ptxsim sweep: give the programs either with --apps=FILE or after --, "
                        "not both\n");
        goto fail;
    }
    if (apps && !sweep_plan_read_apps(&plan, apps, err, sizeof err)) {
        fprintf(stderr, "ptxsim sweep: %s\n", err);
        goto fail;
    }
    if (i < argc && !sweep_plan_add_app(&plan, NULL, argv + i, (size_t)(argc - i), err, sizeof err)) {
        fprintf(stderr, "ptxsim sweep: %s\n", err);
        goto fail;
    }

    char dir[PATH_MAX];
    if (!absolute_dir(out, dir, sizeof dir)) {
        fprintf(stderr, "ptxsim sweep: cannot find the working directory: %s\n",
                strerror(errno));
        goto fail;
    }
    sweep_plan stored;
    char stored_err[600];
    bool have_stored = sweep_plan_load(&stored, dir, stored_err, sizeof stored_err);
    if (!have_stored && access(dir, F_OK) == 0) {
        char json[PATH_MAX + 16];
        snprintf(json, sizeof json, "%s/sweep.json", dir);
        if (access(json, F_OK) == 0) {   /* there, but unreadable: do not overwrite it */
            fprintf(stderr, "ptxsim sweep: %s\n", stored_err);
            goto fail;
        }
    }
    if (plan.app_count == 0 && !has_axes) {
        /* Resume: the plan DIR holds. */
        if (!have_stored) {
            fprintf(stderr, "ptxsim sweep: %s; give the programs to run (-- ./app, or "
                            "--apps=FILE)\n", stored_err);
            goto fail;
        }
        sweep_plan_free(&plan);
        plan = stored;
        have_stored = false;
    } else {
        if (!sweep_plan_finish(&plan, err, sizeof err)) {
            fprintf(stderr, "ptxsim sweep: %s\n", err);
            if (have_stored)
                sweep_plan_free(&stored);
            goto fail;
        }
        if (have_stored) {
            json_t *mine = sweep_plan_to_json(&plan), *theirs = sweep_plan_to_json(&stored);
            bool same = json_equal(mine, theirs);
            json_decref(mine);
            json_decref(theirs);
            sweep_plan_free(&stored);
            if (!same) {
                fprintf(stderr,
                        "ptxsim sweep: %s holds a different sweep (programs, options or "
                        "working directory differ; see its sweep.json); give another --out, or "
                        "resume that one with `ptxsim sweep --out=%s` alone\n",
                        dir, out);
                goto fail;
            }
        } else if (!where.dry_run && !sweep_plan_save(&plan, dir, err, sizeof err)) {
            fprintf(stderr, "ptxsim sweep: %s\n", err);
            goto fail;
        }
    }
    char self[PATH_MAX];
    if (!sweep_self_path(self, sizeof self)) {
        fprintf(stderr, "ptxsim sweep: cannot find my own executable\n");
        goto fail;
    }
    int rc = where.slurm ? sweep_slurm(dir, &plan, &where, self)
                         : sweep_local(dir, &plan, &where, self);
    sweep_plan_free(&plan);
    return rc;

fail:
    sweep_plan_free(&plan);
    return 2;
}
