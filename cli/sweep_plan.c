/* sweep_plan.c: what a sweep runs. Axes come from `ptxsim run` options whose value is a list
 * or a range (`--det=off,gpudet --seed=1..8`), programs from the command line or an apps file;
 * the runs are their cross product in a fixed order, so a run's index names the same run on
 * every call and on every machine (the Slurm array index is that index). The plan is kept in
 * DIR/sweep.json; a second call compares its own plan with it before resuming. */
#include "cli/sweep.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool add_value(sweep_axis *a, const char *v, size_t len)
{
    char **nv = realloc(a->values, (a->count + 1) * sizeof *nv);
    if (!nv)
        return false;
    a->values = nv;
    if (!(a->values[a->count] = strndup(v, len)))
        return false;
    a->count++;
    return true;
}

/* A decimal number that fills [p, p+len) exactly. */
static bool parse_number(const char *p, size_t len, unsigned long long *out)
{
    if (!len || len > 19)
        return false;
    unsigned long long x = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)p[i]))
            return false;
        x = x * 10 + (unsigned)(p[i] - '0');
    }
    *out = x;
    return true;
}

/* One item of an axis's list: a value, or for a numeric option a range A..B. */
static bool add_item(sweep_axis *a, const char *item, size_t len, char *err, size_t errlen)
{
    const rt_option *o = a->opt;
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (item[i] == '.' && item[i + 1] == '.') {
            dots = item + i;
            break;
        }
    if (dots) {
        unsigned long long lo, hi;
        if (o->kind != RT_OPT_UINT) {
            snprintf(err, errlen, "--%s: a range (%.*s) needs a numeric option", o->name,
                     (int)len, item);
            return false;
        }
        if (!parse_number(item, (size_t)(dots - item), &lo) ||
            !parse_number(dots + 2, len - (size_t)(dots - item) - 2, &hi) || hi < lo) {
            snprintf(err, errlen, "--%s: '%.*s' is not a range A..B of numbers with A <= B",
                     o->name, (int)len, item);
            return false;
        }
        if (hi - lo >= SWEEP_MAX_RUNS) {
            snprintf(err, errlen, "--%s: the range %.*s has more than %d values", o->name,
                     (int)len, item, SWEEP_MAX_RUNS);
            return false;
        }
        for (unsigned long long v = lo;; v++) {
            char text[24];
            int n = snprintf(text, sizeof text, "%llu", v);
            if (!add_value(a, text, (size_t)n)) {
                snprintf(err, errlen, "out of memory");
                return false;
            }
            if (v == hi)
                break;
        }
        return true;
    }
    char value[256];
    if (len == 0 || len >= sizeof value) {
        snprintf(err, errlen, "--%s: %s value in the list", o->name, len ? "an overlong" : "an empty");
        return false;
    }
    memcpy(value, item, len);
    value[len] = 0;
    char why[256];
    if (!rt_option_check(o, value, why, sizeof why)) {
        snprintf(err, errlen, "--%s: %s", o->name, why);
        return false;
    }
    if (!rt_option_implemented(o, value)) {
        snprintf(err, errlen, "--%s=%s is not built yet (works today: %s)", o->name, value,
                 o->implemented);
        return false;
    }
    if (strcmp(o->name, "threads") == 0 && strcmp(value, "auto") == 0) {
        snprintf(err, errlen, "--threads=auto depends on the machine a run lands on; give the "
                              "number of host threads");
        return false;
    }
    if (!add_value(a, value, len)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

bool sweep_plan_add_axis(sweep_plan *plan, const char *name, const char *spec, char *err,
                         size_t errlen)
{
    const rt_option *o = rt_option_find(name);
    if (!o && !spec && strncmp(name, "no-", 3) == 0) {   /* --no-timing */
        o = rt_option_find(name + 3);
        if (o && o->kind == RT_OPT_BOOL)
            spec = "off";
        else
            o = NULL;
    }
    if (!o) {
        snprintf(err, errlen, "unknown option --%s (see ptxsim --help)", name);
        return false;
    }
    if (strcmp(o->name, "stats") == 0) {
        snprintf(err, errlen, "--stats: the sweep writes each run's statistics to its folder "
                              "(stats.json) itself");
        return false;
    }
    if (!spec && !(spec = o->flag_value)) {
        snprintf(err, errlen, "--%s needs a value (a list a,b,c%s)", o->name,
                 o->kind == RT_OPT_UINT ? " or a range A..B" : "");
        return false;
    }
    for (size_t i = 0; i < plan->axis_count; i++)
        if (plan->axes[i].opt == o) {
            snprintf(err, errlen, "--%s is given twice (give one list of values)", o->name);
            return false;
        }
    sweep_axis *na = realloc(plan->axes, (plan->axis_count + 1) * sizeof *na);
    if (!na) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    plan->axes = na;
    sweep_axis *a = &plan->axes[plan->axis_count++];
    *a = (sweep_axis){.opt = o};
    for (const char *p = spec;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (!add_item(a, p, len, err, errlen))
            return false;
        if (a->count > SWEEP_MAX_RUNS) {
            snprintf(err, errlen, "--%s has more than %d values", o->name, SWEEP_MAX_RUNS);
            return false;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return true;
}

bool sweep_plan_add_app(sweep_plan *plan, const char *name, char *const *argv, size_t argc,
                        char *err, size_t errlen)
{
    if (!argc) {
        snprintf(err, errlen, "an empty command line");
        return false;
    }
    sweep_app *na = realloc(plan->apps, (plan->app_count + 1) * sizeof *na);
    if (!na) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    plan->apps = na;
    sweep_app *app = &plan->apps[plan->app_count];
    *app = (sweep_app){.argc = argc};
    app->argv = calloc(argc + 1, sizeof *app->argv);
    /* The label: the words joined as sh would read them back. */
    char *line = NULL;
    size_t line_len = 0;
    FILE *f = open_memstream(&line, &line_len);
    bool ok = app->argv && f;
    for (size_t i = 0; ok && i < argc; i++) {
        ok = (app->argv[i] = strdup(argv[i])) != NULL;
        if (i)
            fputc(' ', f);
        shell_quote(f, argv[i]);
    }
    if (f)
        ok = fclose(f) == 0 && ok;
    app->line = line;
    app->name = line ? strdup(name ? name : line) : NULL;
    ok = ok && app->name;
    plan->app_count++;   /* counted even when incomplete, so that sweep_plan_free frees it */
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

bool sweep_plan_read_apps(sweep_plan *plan, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "--apps=%s: %s", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    bool ok = true;
    while (ok && getline(&line, &cap, f) >= 0) {
        lineno++;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || !*p)
            continue;
        /* NAME: before the command names it (letters, digits, _ . + -, then a colon and
         * a space, which no program's path ends with in practice). */
        char name[128] = "";
        size_t nlen = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_.+-");
        if (nlen && nlen < sizeof name && p[nlen] == ':' && (p[nlen + 1] == ' ' ||
                                                             p[nlen + 1] == '\t')) {
            memcpy(name, p, nlen);
            name[nlen] = 0;
            p += nlen + 1;
        }
        char why[200];
        size_t n;
        char **words = shell_words_split(p, &n, why, sizeof why);
        if (!words) {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
            ok = false;
        } else if (!sweep_plan_add_app(plan, *name ? name : NULL, words, n, why, sizeof why)) {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
            ok = false;
        }
        shell_words_free(words);
    }
    free(line);
    fclose(f);
    if (ok && plan->app_count == 0) {
        snprintf(err, errlen, "--apps=%s holds no command line", path);
        ok = false;
    }
    return ok;
}

static bool count_runs(sweep_plan *plan, char *err, size_t errlen)
{
    size_t runs = plan->app_count;
    for (size_t i = 0; i < plan->axis_count; i++) {
        if (plan->axes[i].count == 0 || runs > SWEEP_MAX_RUNS / plan->axes[i].count) {
            snprintf(err, errlen, "the sweep has %s runs (at most %d)",
                     plan->axes[i].count ? "too many" : "no", SWEEP_MAX_RUNS);
            return false;
        }
        runs *= plan->axes[i].count;
    }
    if (!runs) {
        snprintf(err, errlen, "no program to run (give -- ./app args, or --apps=FILE)");
        return false;
    }
    plan->run_count = runs;
    return true;
}

/* The most combinations of the axes' values checked before a sweep starts (each check is a
 * scan of the environment: cheap, but a million of them is not). */
#define SWEEP_MAX_CHECKED 100000

/* Each combination of the axes' values must be one `ptxsim run` accepts: a refused combination
 * (--tm=kilotm with --timing, ...) would fail every run that has it, after the sweep started.
 * The check is `ptxsim run`'s own, on the environment the run would get. */
static bool check_combinations(const sweep_plan *plan, char *err, size_t errlen)
{
    size_t combos = plan->run_count / plan->app_count;
    if (combos > SWEEP_MAX_CHECKED) combos = SWEEP_MAX_CHECKED;
    char **saved = calloc(plan->axis_count ? plan->axis_count : 1, sizeof *saved);
    if (!saved) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < plan->axis_count && ok; i++) {
        const char *v = getenv(plan->axes[i].opt->env);
        if (v && !(saved[i] = strdup(v))) {
            snprintf(err, errlen, "out of memory");
            ok = false;
        }
    }
    for (size_t k = 0; k < combos && ok; k++) {
        for (size_t i = 0; i < plan->axis_count; i++)
            setenv(plan->axes[i].opt->env, sweep_run_value(plan, k, i), 1);
        char why[512];
        if (!rt_config_check_environment(why, sizeof why)) {
            char combo[512] = "";
            size_t used = 0;
            for (size_t i = 0; i < plan->axis_count && used < sizeof combo; i++) {
                int w = snprintf(combo + used, sizeof combo - used, "%s--%s=%s", i ? " " : "",
                                 plan->axes[i].opt->name, sweep_run_value(plan, k, i));
                if (w < 0) break;
                used += (size_t)w;
            }
            snprintf(err, errlen, "the runs with %s would be refused: %s", combo, why);
            ok = false;
        }
    }
    for (size_t i = 0; i < plan->axis_count; i++) {
        if (saved[i]) setenv(plan->axes[i].opt->env, saved[i], 1);
        else unsetenv(plan->axes[i].opt->env);
        free(saved[i]);
    }
    free(saved);
    return ok;
}

bool sweep_plan_finish(sweep_plan *plan, char *err, size_t errlen)
{
    bool has_threads = false;
    for (size_t i = 0; i < plan->axis_count; i++)
        has_threads = has_threads || strcmp(plan->axes[i].opt->name, "threads") == 0;
    if (!has_threads && !sweep_plan_add_axis(plan, "threads", "1", err, errlen))
        return false;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || !(plan->cwd = strdup(cwd))) {
        snprintf(err, errlen, "cannot find the working directory: %s", strerror(errno));
        return false;
    }
    return count_runs(plan, err, errlen) && check_combinations(plan, err, errlen);
}

void sweep_plan_free(sweep_plan *plan)
{
    for (size_t i = 0; i < plan->app_count; i++) {
        free(plan->apps[i].name);
        free(plan->apps[i].line);
        if (plan->apps[i].argv)
            for (size_t k = 0; k < plan->apps[i].argc; k++)
                free(plan->apps[i].argv[k]);
        free(plan->apps[i].argv);
    }
    for (size_t i = 0; i < plan->axis_count; i++) {
        for (size_t k = 0; k < plan->axes[i].count; k++)
            free(plan->axes[i].values[k]);
        free(plan->axes[i].values);
    }
    free(plan->apps);
    free(plan->axes);
    free(plan->cwd);
    *plan = (sweep_plan){0};
}

/* The run index in mixed radix: the app is the most significant digit, the last axis the
 * least. */
size_t sweep_run_app(const sweep_plan *plan, size_t run)
{
    assert(run < plan->run_count && plan->app_count > 0);
    size_t per_app = plan->run_count / plan->app_count;
    return run / per_app;
}

const char *sweep_run_value(const sweep_plan *plan, size_t run, size_t axis)
{
    size_t stride = 1;
    for (size_t i = plan->axis_count; i-- > axis + 1;)
        stride *= plan->axes[i].count;
    return plan->axes[axis].values[(run / stride) % plan->axes[axis].count];
}

const char *sweep_run_option(const sweep_plan *plan, size_t run, const char *name)
{
    for (size_t i = 0; i < plan->axis_count; i++)
        if (strcmp(plan->axes[i].opt->name, name) == 0)
            return sweep_run_value(plan, run, i);
    const rt_option *o = rt_option_find(name);
    return o ? o->def : "";
}

bool sweep_run_deterministic(const sweep_plan *plan, size_t run)
{
    return strcmp(sweep_run_option(plan, run, "det"), "off") != 0;
}

unsigned sweep_plan_max_threads(const sweep_plan *plan)
{
    unsigned most = 1;
    for (size_t i = 0; i < plan->axis_count; i++) {
        if (strcmp(plan->axes[i].opt->name, "threads") != 0)
            continue;
        for (size_t k = 0; k < plan->axes[i].count; k++) {
            unsigned long v = strtoul(plan->axes[i].values[k], NULL, 0);
            if (v > most)
                most = v > 1024 ? 1024 : (unsigned)v;
        }
    }
    return most;
}

/* ---------------------------------------------------------------- sweep.json */

json_t *sweep_plan_to_json(const sweep_plan *plan)
{
    json_t *apps = json_array(), *axes = json_array();
    for (size_t i = 0; i < plan->app_count; i++) {
        json_t *argv = json_array();
        for (size_t k = 0; k < plan->apps[i].argc; k++)
            json_array_append_new(argv, json_string(plan->apps[i].argv[k]));
        json_array_append_new(apps, json_pack("{s:s, s:s, s:o}", "name", plan->apps[i].name,
                                              "line", plan->apps[i].line, "argv", argv));
    }
    for (size_t i = 0; i < plan->axis_count; i++) {
        json_t *values = json_array();
        for (size_t k = 0; k < plan->axes[i].count; k++)
            json_array_append_new(values, json_string(plan->axes[i].values[k]));
        json_array_append_new(axes, json_pack("{s:s, s:o}", "option", plan->axes[i].opt->name,
                                              "values", values));
    }
    return json_pack("{s:s, s:i, s:s, s:o, s:o, s:I}", "format", "ptxsim-sweep", "version", 1,
                     "cwd", plan->cwd, "apps", apps, "axes", axes, "runs",
                     (json_int_t)plan->run_count);
}

bool sweep_plan_from_json(json_t *j, sweep_plan *plan, char *err, size_t errlen)
{
    *plan = (sweep_plan){0};
    const char *format = NULL, *cwd = NULL;
    json_t *apps = NULL, *axes = NULL;
    json_error_t jerr;
    if (json_unpack_ex(j, &jerr, 0, "{s:s, s:s, s:o, s:o}", "format", &format, "cwd", &cwd,
                       "apps", &apps, "axes", &axes) != 0 ||
        strcmp(format, "ptxsim-sweep") != 0 || !json_is_array(apps) || !json_is_array(axes)) {
        snprintf(err, errlen, "not a ptxsim sweep plan (%s)", jerr.text);
        return false;
    }
    if (!(plan->cwd = strdup(cwd)))
        goto oom;
    size_t i;
    json_t *item;
    json_array_foreach(apps, i, item) {
        json_t *argv = json_object_get(item, "argv");
        size_t n = json_array_size(argv);
        char **words = calloc(n + 1, sizeof *words);
        if (!words)
            goto oom;
        for (size_t k = 0; k < n; k++) {
            const char *w = json_string_value(json_array_get(argv, k));
            words[k] = (char *)(w ? w : "");
        }
        bool ok = sweep_plan_add_app(plan, json_string_value(json_object_get(item, "name")),
                                     words, n, err, errlen);
        free(words);
        if (!ok)
            goto fail;
    }
    json_array_foreach(axes, i, item) {
        const char *name = json_string_value(json_object_get(item, "option"));
        json_t *values = json_object_get(item, "values");
        /* Rebuilt through sweep_plan_add_axis, so a stored value is checked like a typed one. */
        char *spec = NULL;
        size_t spec_len = 0;
        FILE *f = open_memstream(&spec, &spec_len);
        if (!f)
            goto oom;
        size_t k;
        json_t *v;
        json_array_foreach(values, k, v) fprintf(f, "%s%s", k ? "," : "", json_string_value(v));
        fclose(f);
        bool ok = name && sweep_plan_add_axis(plan, name, spec, err, errlen);
        free(spec);
        if (!ok)
            goto fail;
    }
    if (!count_runs(plan, err, errlen))
        goto fail;
    return true;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    sweep_plan_free(plan);
    return false;
}

bool sweep_plan_save(const sweep_plan *plan, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX], tmp[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/sweep.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    json_t *j = sweep_plan_to_json(plan);
    bool ok = j && sweep_mkdir_p(dir) && json_dump_file(j, tmp, JSON_INDENT(2)) == 0 &&
              rename(tmp, path) == 0;
    if (!ok)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    json_decref(j);
    return ok;
}

bool sweep_plan_load(sweep_plan *plan, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/sweep.json", dir);
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    if (!j) {
        if (access(path, F_OK) != 0)
            snprintf(err, errlen, "%s holds no sweep (no sweep.json)", dir);
        else
            snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
        return false;
    }
    char why[400];
    bool ok = sweep_plan_from_json(j, plan, why, sizeof why);
    if (!ok)
        snprintf(err, errlen, "%s: %s", path, why);
    json_decref(j);
    return ok;
}
