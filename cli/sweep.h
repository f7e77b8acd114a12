/* sweep.h: what the files of `ptxsim sweep` and `ptxsim plot` share (cli/ only; nothing below
 * cli/ includes it).
 *
 * A sweep is a plan (programs x run options, the cross product in a fixed order: the program
 * outermost, then the options in the order given, the last one fastest) kept in DIR/sweep.json,
 * and one folder per run, DIR/runs/NNNN, named by the run's index in that order. A run is
 * finished when its run.json exists: it is written last, by rename, so an interrupted run is
 * simply not finished, and a second call runs exactly the runs without one. The same code runs
 * a run wherever it runs (a local pool's worker, a Slurm array task), so its files do not
 * depend on where it ran.
 *
 *   cli/shell_words.c     splitting a command line into words, quoting words for a shell
 *   cli/sweep_plan.c      axes (lists and ranges), the apps file, the plan and sweep.json
 *   cli/sweep_run.c       one run: its folder, command, environment, outputs, exit status
 *   cli/sweep_local.c     --on=local: a pool of processes with a progress bar
 *   cli/sweep_slurm.c     --on=slurm: a job array through sbatch and a dependent gather job
 *   cli/sweep_summary.c   summary.csv / summary.json, and --status
 *   cli/sweep.c           the command line of `ptxsim sweep`
 *   cli/plot.c            `ptxsim plot`: a PNG from a summary, drawn by gnuplot */
#ifndef PTXSIM_CLI_SWEEP_H
#define PTXSIM_CLI_SWEEP_H

#include "runtime/rt.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---------------------------------------------------------------- shell_words.c */

/* Splits a command line into words the way sh does for plain words, '...' and "..." quotes and
 * backslash escapes (no expansions). Returns a NULL-terminated array (free with
 * shell_words_free), or NULL with a reason in err. */
char **shell_words_split(const char *line, size_t *count, char *err, size_t errlen);
void shell_words_free(char **words);
/* Writes `word` so that sh reads it back as one word: bare when it is safe, else in '...'. */
void shell_quote(FILE *out, const char *word);

/* ---------------------------------------------------------------- sweep_plan.c */

typedef struct sweep_axis {
    const rt_option *opt;     /* the `ptxsim run` option this axis sets */
    char **values;            /* each one checked by rt_option_check */
    size_t count;
} sweep_axis;

typedef struct sweep_app {
    char *name;               /* the summary's `app` column: the apps file's NAME:, else line */
    char *line;               /* the command line (words quoted for sh)*/
    char **argv;              /* its words, NULL-terminated */
    size_t argc;
} sweep_app;

typedef struct sweep_plan {
    char *cwd;                /* absolute: where every program runs */
    sweep_app *apps;
    size_t app_count;
    sweep_axis *axes;
    size_t axis_count;
    size_t run_count;         /* app_count times the product of the axes' counts */
} sweep_plan;

/* The most runs one sweep may have (a typo in a range should not create a billion folders). */
#define SWEEP_MAX_RUNS 1000000

/* Adds the axis `--name=spec`: spec is a comma list whose items are values or, for a numeric
 * option, ranges A..B (both ends included). A bare `--name` takes the option's flag value,
 * `--no-name` turns a boolean off. False with a reason when the option is unknown, given twice,
 * a value is invalid or not implemented yet, or cannot be swept (--stats, --threads=auto). */
bool sweep_plan_add_axis(sweep_plan *plan, const char *name, const char *spec, char *err,
                         size_t errlen);
/* Adds a program from its words (argv[0] is the program), named `name` in the summary (NULL:
 * by its command line). */
bool sweep_plan_add_app(sweep_plan *plan, const char *name, char *const *argv, size_t argc,
                        char *err, size_t errlen);
/* Adds every command line of an apps file: one per line, sh quoting, # comments, and an
 * optional name first (`bfs: ./bfs graph.txt`) for the summary and the plots. */
bool sweep_plan_read_apps(sweep_plan *plan, const char *path, char *err, size_t errlen);
/* Completes the plan: --threads=1 when no --threads axis was given (a run's result must not
 * depend on the machine's core count), the working directory, the run count. */
bool sweep_plan_finish(sweep_plan *plan, char *err, size_t errlen);
void sweep_plan_free(sweep_plan *plan);

/* The app and the value of each axis of run `run`. */
size_t sweep_run_app(const sweep_plan *plan, size_t run);
const char *sweep_run_value(const sweep_plan *plan, size_t run, size_t axis);
/* The value run `run` has for option `name` (its axis, else the option's default). */
const char *sweep_run_option(const sweep_plan *plan, size_t run, const char *name);
/* Whether the run executes deterministically (--det other than off). */
bool sweep_run_deterministic(const sweep_plan *plan, size_t run);
/* The largest --threads value of the plan (for a pool's size and Slurm's CPUs per task). */
unsigned sweep_plan_max_threads(const sweep_plan *plan);

/* The plan as JSON (what sweep.json holds) and back. */
json_t *sweep_plan_to_json(const sweep_plan *plan);
bool sweep_plan_from_json(json_t *j, sweep_plan *plan, char *err, size_t errlen);
/* DIR/sweep.json: save (creating DIR), load. Load fails with a reason when it is missing. */
bool sweep_plan_save(const sweep_plan *plan, const char *dir, char *err, size_t errlen);
bool sweep_plan_load(sweep_plan *plan, const char *dir, char *err, size_t errlen);

/* ---------------------------------------------------------------- sweep_run.c */

typedef enum sweep_state {
    SWEEP_NOT_STARTED,        /* no run.json and nobody holds its lock */
    SWEEP_RUNNING,            /* its lock is held: a worker or an array task runs it now */
    SWEEP_FINISHED,           /* run.json exists */
} sweep_state;

/* DIR/runs/NNNN for run `run` (the width fits the plan's last index; at least 4 digits). */
void sweep_run_path(char *out, size_t n, const char *dir, const sweep_plan *plan, size_t run);
/* The run's state; for a finished one, its exit status (0 = success). */
sweep_state sweep_run_state(const char *dir, const sweep_plan *plan, size_t run, int *status);
/* Whether a run needs running: not finished, or finished and failed when retry_failed. */
bool sweep_run_pending(const char *dir, const sweep_plan *plan, size_t run, bool retry_failed);

/* Runs run `run` under `ptxsim run` (the executable `ptxsim`), killing it after time_limit
 * seconds (0 = no limit; a run killed so has status 124, like timeout(1)), and writes its
 * files. Returns its exit status; SWEEP_SKIPPED when it did not run because it has finished
 * already (and not retry_failed) or runs elsewhere; -1 when it could not be run or recorded or
 * was stopped (said on stderr). A SIGTERM or SIGINT while it runs stops the program and leaves the
 * run unfinished. Where it ran (host, Slurm job) goes into run.json, never into the summary. */
#define SWEEP_SKIPPED (-2)
int sweep_run_one(const char *dir, const sweep_plan *plan, size_t run, const char *ptxsim,
                  double time_limit, bool retry_failed);

/* Writes the command line run `run` executes (as its `command` file will hold it). */
void sweep_run_print_command(FILE *out, const char *dir, const sweep_plan *plan, size_t run,
                             const char *ptxsim);

/* Parses a Slurm time limit ("MIN", "MIN:SEC", "H:MIN:SEC", "D-H", "D-H:MIN", "D-H:MIN:SEC")
 * into seconds; false when it is none of these. */
bool sweep_parse_time(const char *text, double *seconds);

/* The ptxsim executable that is running (absolute), for the commands it writes. */
bool sweep_self_path(char *out, size_t n);
/* mkdir -p. */
bool sweep_mkdir_p(const char *path);

/* ---------------------------------------------------------------- sweep_local.c / _slurm.c */

typedef struct sweep_where {
    bool slurm;
    unsigned workers;         /* local: processes at once (0 = CPUs / largest --threads) */
    const char *partition;    /* slurm: NULL = the cluster's default partition */
    const char *time;         /* --time as written (Slurm's format), or NULL */
    double time_seconds;
    const char *mem;          /* --mem as written (Slurm's format), or NULL */
    unsigned cpus;            /* slurm: CPUs per task (0 = the largest --threads) */
    bool dry_run, wait, retry_failed;
} sweep_where;

/* Each returns the command's exit status: 0 when every run finished with status 0 (or, on
 * Slurm without --wait, when the jobs were submitted), 1 when some failed or did not finish,
 * 2 on errors, 130 when interrupted. */
int sweep_local(const char *dir, const sweep_plan *plan, const sweep_where *where,
                const char *ptxsim);
int sweep_slurm(const char *dir, const sweep_plan *plan, const sweep_where *where,
                const char *ptxsim);
/* The states of the Slurm jobs a sweep submitted (from squeue), one line on stdout; nothing
 * when it submitted none. */
void sweep_slurm_status(const char *dir);

/* ---------------------------------------------------------------- sweep_summary.c */

/* Writes DIR/summary.csv and DIR/summary.json from the run folders (unfinished runs are rows
 * with an empty status). False with a message on stderr when they cannot be written. */
bool sweep_gather(const char *dir, const sweep_plan *plan);
/* Prints how far the sweep is; returns 0 when every run finished with status 0, else 1. */
int sweep_print_status(const char *dir, const sweep_plan *plan);
/* Reads a whole file (NUL-terminated); NULL with errno set. */
char *sweep_read_file(const char *path, size_t *len);

#endif
