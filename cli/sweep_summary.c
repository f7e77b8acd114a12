/* sweep_summary.c: the results table of a sweep, one row per run, as DIR/summary.csv and
 * DIR/summary.json, and `ptxsim sweep --status`.
 *
 * Columns: run, app, one per axis (the option's name), deterministic, status, outcome,
 * wall_seconds, stdout_crc32, then `stats.<path>` for every number under "total" in the run's
 * --stats JSON (nested objects joined with '.'), in the order they first appear. The statistics
 * columns are not a fixed list: whatever ptxsim's stats JSON reports (the timing model's cycles
 * and IPC when it lands) becomes a column without a change here. Nothing in the table says
 * where a run ran, and wall_seconds is the only column that depends on it. */
#include "cli/sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

char *sweep_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        errno = bad ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* Adds every number under `obj` to `row` as "prefix.key" (objects recursively), recording new
 * column names in `stat_columns` in the order they first appear. */
static void flatten_stats(json_t *obj, const char *prefix, json_t *row, json_t *stat_columns)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        char name[512];
        snprintf(name, sizeof name, "%s.%s", prefix, key);
        if (json_is_object(v)) {
            flatten_stats(v, name, row, stat_columns);
        } else if (json_is_number(v)) {
            json_object_set(row, name, v);
            if (!json_object_get(stat_columns, name))
                json_object_set_new(stat_columns, name, json_true());
        }
    }
}

static json_t *stdout_crc(const char *rdir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/stdout", rdir);
    size_t len;
    char *text = sweep_read_file(path, &len);
    if (!text)
        return json_null();
    uLong crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)len);
    free(text);
    char hex[16];
    snprintf(hex, sizeof hex, "%08lx", crc);
    return json_string(hex);
}

static json_t *outcome(int status, json_t *run_json)
{
    char text[64];
    json_t *sig = json_object_get(run_json, "signal");
    if (json_is_true(json_object_get(run_json, "timed_out")))
        return json_string("timed out");
    if (status == 0)
        return json_string("ok");
    if (json_is_integer(sig)) {
        int s = (int)json_integer_value(sig);
        const char *name = sigabbrev_np(s);
        snprintf(text, sizeof text, "signal %d%s%s", s, name ? " SIG" : "", name ? name : "");
    } else {
        snprintf(text, sizeof text, "exit %d", status);
    }
    return json_string(text);
}

/* An axis value as the table holds it: a number for a numeric option, else the text. */
static json_t *axis_value(const rt_option *o, const char *v)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (o->kind == RT_OPT_UINT && *v && !*end)
        return json_integer((json_int_t)x);
    return json_string(v);
}

/* The rows and the column list of the table. */
static json_t *build_table(const char *dir, const sweep_plan *plan, json_t **columns_out,
                           size_t *finished, size_t *failed)
{
    json_t *rows = json_array(), *stat_columns = json_object();
    *finished = *failed = 0;
    for (size_t run = 0; run < plan->run_count; run++) {
        char rdir[PATH_MAX], path[PATH_MAX + 16];
        sweep_run_path(rdir, sizeof rdir, dir, plan, run);
        json_t *row = json_object();
        json_object_set_new(row, "run", json_integer((json_int_t)run));
        json_object_set_new(row, "app", json_string(plan->apps[sweep_run_app(plan, run)].name));
        for (size_t i = 0; i < plan->axis_count; i++)
            json_object_set_new(row, plan->axes[i].opt->name,
                                axis_value(plan->axes[i].opt, sweep_run_value(plan, run, i)));
        json_object_set_new(row, "deterministic", json_boolean(sweep_run_deterministic(plan, run)));
        snprintf(path, sizeof path, "%s/run.json", rdir);
        json_t *rj = json_load_file(path, 0, NULL);
        json_t *status = json_object_get(rj, "status");
        if (rj && json_is_integer(status)) {
            int s = (int)json_integer_value(status);
            (*finished)++;
            *failed += s != 0;
            double wall = json_number_value(json_object_get(rj, "wall_seconds"));
            json_object_set_new(row, "status", json_integer(s));
            json_object_set_new(row, "outcome", outcome(s, rj));
            json_object_set_new(row, "wall_seconds", json_real(round(wall * 1000) / 1000));
            json_object_set_new(row, "stdout_crc32", stdout_crc(rdir));
            snprintf(path, sizeof path, "%s/stats.json", rdir);
            json_t *stats = json_load_file(path, 0, NULL);
            json_t *total = json_object_get(stats, "total");
            if (json_is_object(total))
                flatten_stats(total, "stats", row, stat_columns);
            json_decref(stats);
        } else {
            json_object_set_new(row, "status", json_null());
            json_object_set_new(row, "outcome", json_string("not finished"));
            json_object_set_new(row, "wall_seconds", json_null());
            json_object_set_new(row, "stdout_crc32", json_null());
        }
        json_decref(rj);
        json_array_append_new(rows, row);
    }
    json_t *columns = json_array();
    json_array_append_new(columns, json_string("run"));
    json_array_append_new(columns, json_string("app"));
    for (size_t i = 0; i < plan->axis_count; i++)
        json_array_append_new(columns, json_string(plan->axes[i].opt->name));
    static const char *const fixed[] = {"deterministic", "status", "outcome", "wall_seconds",
                                        "stdout_crc32"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        json_array_append_new(columns, json_string(fixed[i]));
    const char *key;
    json_t *v;
    json_object_foreach(stat_columns, key, v) json_array_append_new(columns, json_string(key));
    json_decref(stat_columns);
    *columns_out = columns;
    return rows;
}

/* One CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break). */
static void csv_field(FILE *f, json_t *v)
{
    char num[64];
    const char *text = "";
    if (json_is_string(v)) {
        text = json_string_value(v);
    } else if (json_is_integer(v)) {
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
        text = num;
    } else if (json_is_real(v)) {
        snprintf(num, sizeof num, "%.12g", json_real_value(v));
        text = num;
    } else if (json_is_boolean(v)) {
        text = json_is_true(v) ? "yes" : "no";
    }
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

static bool write_csv(const char *path, json_t *columns, json_t *rows)
{
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    size_t i, r;
    json_t *c, *row;
    json_array_foreach(columns, i, c) {
        if (i)
            fputc(',', f);
        csv_field(f, c);
    }
    fputc('\n', f);
    json_array_foreach(rows, r, row) {
        json_array_foreach(columns, i, c) {
            if (i)
                fputc(',', f);
            csv_field(f, json_object_get(row, json_string_value(c)));
        }
        fputc('\n', f);
    }
    return fclose(f) == 0 && rename(tmp, path) == 0;
}

bool sweep_gather(const char *dir, const sweep_plan *plan)
{
    json_t *columns;
    size_t finished, failed;
    json_t *rows = build_table(dir, plan, &columns, &finished, &failed);
    json_t *summary = json_pack("{s:s, s:i, s:I, s:I, s:I, s:O, s:O}", "format",
                                "ptxsim-sweep-summary", "version", 1, "runs",
                                (json_int_t)plan->run_count, "finished", (json_int_t)finished,
                                "failed", (json_int_t)failed, "columns", columns, "rows", rows);
    char csv[PATH_MAX + 16], js[PATH_MAX + 16], tmp[PATH_MAX + 24];
    snprintf(csv, sizeof csv, "%s/summary.csv", dir);
    snprintf(js, sizeof js, "%s/summary.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", js);
    bool ok = summary && write_csv(csv, columns, rows) &&
              json_dump_file(summary, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(12)) == 0 &&
              rename(tmp, js) == 0;
    if (!ok)
        fprintf(stderr, "ptxsim sweep: cannot write the summary in %s: %s\n", dir,
                strerror(errno));
    json_decref(summary);
    json_decref(columns);
    json_decref(rows);
    return ok;
}

int sweep_print_status(const char *dir, const sweep_plan *plan)
{
    size_t ok = 0, failed = 0, running = 0, waiting = 0, shown = 0;
    for (size_t run = 0; run < plan->run_count; run++) {
        int status = 0;
        switch (sweep_run_state(dir, plan, run, &status)) {
        case SWEEP_FINISHED:
            if (status == 0) {
                ok++;
                break;
            }
            failed++;
            if (shown++ < 10)
                printf("  run %zu failed (status %d): %s\n", run, status,
                       plan->apps[sweep_run_app(plan, run)].name);
            break;
        case SWEEP_RUNNING:
            running++;
            break;
        case SWEEP_NOT_STARTED:
            waiting++;
            break;
        }
    }
    if (shown > 10)
        printf("  ... and %zu more failed runs (see summary.csv)\n", shown - 10);
    printf("%s: %zu runs: %zu finished (%zu ok, %zu failed), %zu running, %zu not started\n",
           dir, plan->run_count, ok + failed, ok, failed, running, waiting);
    sweep_slurm_status(dir);
    return ok == plan->run_count ? 0 : 1;
}
