/* plot.c: `ptxsim plot DIR --x=AXIS --y=STAT [--group=AXIS] [--baseline=AXIS=VALUE]`: a PNG
 * chart of a sweep's summary, the shape of the papers' figures: one bar (or point) per value
 * of --x, one series per value of --group, each the mean of --y over the runs that share
 * them (the seeds, say), optionally divided by the mean of the runs with AXIS=VALUE that share
 * the other coordinates ("cycles normalised to det=off, per benchmark").
 *
 * gnuplot (Debian's gnuplot-nox) draws it. The data and the gnuplot script are written next
 * to the PNG (FILE.dat, FILE.gp), so a figure can be restyled for a paper without rerunning. */
#include "cli/cli.h"
#include "cli/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void plot_usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim plot DIR --x=AXIS --y=STAT [--group=AXIS] [--baseline=AXIS=VALUE]\n"
            "                   [--kind=bar|line] [--out=FILE.png] [--title=TEXT]\n"
            "\n"
            "Draws DIR/summary.json (written by ptxsim sweep) as a PNG with gnuplot: one bar or\n"
            "point per value of --x, one series per value of --group, each the mean of --y over\n"
            "the successful runs that share them. STAT is a column of the summary; `cycles`\n"
            "finds `stats.cycles`, and any unique last part of a column's name works.\n"
            "\n"
            "  --baseline=AXIS=VALUE  divide each mean by the mean of the runs with AXIS=VALUE\n"
            "                         at the same --x and --group (except the one AXIS is)\n"
            "  --kind=bar|line        default: bar when --x has words, line when numbers\n"
            "  --out=FILE.png         default: DIR/plots/STAT_by_AXIS[_per_GROUP].png\n"
            "\n"
            "example: ptxsim plot results --x=app --y=cycles --group=gpu --baseline=gpu=gtx480\n");
}

/* A column of the summary by its name, "stats."+name, or the unique column ending in
 * "."+name. NULL with a message when there is none or more than one. */
static const char *find_column(json_t *columns, const char *name, const char *what)
{
    size_t i;
    json_t *c;
    char dotted[256];
    snprintf(dotted, sizeof dotted, "stats.%s", name);
    json_array_foreach(columns, i, c) if (strcmp(json_string_value(c), name) == 0) return
        json_string_value(c);
    json_array_foreach(columns, i, c) if (strcmp(json_string_value(c), dotted) == 0) return
        json_string_value(c);
    const char *found = NULL;
    size_t n = strlen(name);
    int matches = 0;
    json_array_foreach(columns, i, c) {
        const char *col = json_string_value(c);
        size_t m = strlen(col);
        if (m > n && col[m - n - 1] == '.' && strcmp(col + m - n, name) == 0) {
            found = col;
            matches++;
        }
    }
    if (matches == 1)
        return found;
    fprintf(stderr, "ptxsim plot: %s: %s '%s'; the summary's columns are:", what,
            matches ? "more than one column ends in" : "no column", name);
    json_array_foreach(columns, i, c) fprintf(stderr, " %s", json_string_value(c));
    fprintf(stderr, "\n");
    return NULL;
}

/* A cell's value as text (the key of a bar or series). */
static void value_text(json_t *v, char *out, size_t n)
{
    if (json_is_string(v))
        snprintf(out, n, "%s", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(out, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, n, "%.12g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(out, n, "%s", json_is_true(v) ? "yes" : "no");
    else
        snprintf(out, n, "-");
    for (char *p = out; *p; p++)   /* the data file is tab-separated, gnuplot quotes with " */
        if (*p == '\t' || *p == '\n' || *p == '"')
            *p = ' ';
}

/* An ordered set of keys (the x values, the groups). */
typedef struct keys {
    char **names;
    size_t count;
} keys;

static size_t key_index(keys *k, const char *name, bool add)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->names[i], name) == 0)
            return i;
    if (!add)
        return SIZE_MAX;
    char **nn = realloc(k->names, (k->count + 1) * sizeof *nn);
    if (!nn || !(nn[k->count] = strdup(name))) {
        fprintf(stderr, "ptxsim plot: out of memory\n");
        exit(2);
    }
    k->names = nn;
    return k->count++;
}

static bool all_numeric(const keys *k)
{
    for (size_t i = 0; i < k->count; i++) {
        char *end;
        strtod(k->names[i], &end);
        if (end == k->names[i] || *end)
            return false;
    }
    return k->count > 0;
}

static int by_number(const void *a, const void *b)
{
    double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);
    return (x > y) - (x < y);
}

static void keys_free(keys *k)
{
    for (size_t i = 0; i < k->count; i++)
        free(k->names[i]);
    free(k->names);
}

/* Where the labels of the keys start: past the words all of them share at the front (the
 * program's path and `--kernel` in `./app --kernel a` / `./app --kernel b`), so that a
 * chart's labels say what differs. 0 when there are fewer than two keys or one would be
 * left empty. */
static size_t common_words(const keys *k)
{
    if (k->count < 2)
        return 0;
    size_t common = 0;
    for (;;) {
        const char *first = k->names[0] + common;
        const char *space = strchr(first, ' ');
        if (!space)
            return common;
        size_t len = (size_t)(space - first) + 1;   /* the word and its space */
        for (size_t i = 1; i < k->count; i++)
            if (strlen(k->names[i]) <= common + len ||
                strncmp(k->names[i] + common, first, len) != 0)
                return common;
        common += len;
    }
}

/* Writes s in gnuplot's single quotes ('' is a quote inside). */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

static void safe_name(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; *s && i + 1 < n; s++)
        out[i++] = isalnum((unsigned char)*s) || *s == '-' ? *s : '_';
    out[i] = 0;
}

typedef struct plot_args {
    const char *dir, *x, *y, *group, *baseline, *kind, *out, *title;
} plot_args;

static int draw(const plot_args *a, json_t *summary)
{
    json_t *columns = json_object_get(summary, "columns"), *rows = json_object_get(summary, "rows");
    if (!json_is_array(columns) || !json_is_array(rows)) {
        fprintf(stderr, "ptxsim plot: %s/summary.json is not a sweep summary\n", a->dir);
        return 2;
    }
    const char *xcol = find_column(columns, a->x, "--x");
    const char *ycol = find_column(columns, a->y, "--y");
    const char *gcol = a->group ? find_column(columns, a->group, "--group") : NULL;
    if (!xcol || !ycol || (a->group && !gcol))
        return 2;
    const char *bcol = NULL, *bvalue = NULL;
    char baxis[256] = "";
    if (a->baseline) {
        const char *eq = strchr(a->baseline, '=');
        if (!eq || eq == a->baseline || (size_t)(eq - a->baseline) >= sizeof baxis) {
            fprintf(stderr, "ptxsim plot: --baseline=%s: expected AXIS=VALUE\n", a->baseline);
            return 2;
        }
        memcpy(baxis, a->baseline, (size_t)(eq - a->baseline));
        baxis[eq - a->baseline] = 0;
        bvalue = eq + 1;
        if (!(bcol = find_column(columns, baxis, "--baseline")))
            return 2;
    }

    /* Sums and counts per (x, group), and per baseline cell. */
    keys xs = {0}, gs = {0};
    size_t used = 0, skipped = 0, cap = 0;
    typedef struct cell { size_t x, g; double sum; size_t n; bool base; } cell;
    cell *cells = NULL;
    size_t ncells = 0;
    size_t r;
    json_t *row;
    json_array_foreach(rows, r, row) {
        json_t *y = json_object_get(row, ycol);
        json_t *status = json_object_get(row, "status");
        if (!json_is_number(y) || !json_is_integer(status) || json_integer_value(status) != 0) {
            skipped++;
            continue;
        }
        char xt[512], gt[512] = "", bt[512];
        value_text(json_object_get(row, xcol), xt, sizeof xt);
        if (gcol)
            value_text(json_object_get(row, gcol), gt, sizeof gt);
        size_t xi = key_index(&xs, xt, true), gi = key_index(&gs, gcol ? gt : ycol, true);
        bool base = false;
        if (bcol) {
            value_text(json_object_get(row, bcol), bt, sizeof bt);
            base = strcmp(bt, bvalue) == 0;
        }
        /* A baseline row counts in its own cell and in the baseline cell, whose coordinate
         * on the baseline's own axis is "any" (SIZE_MAX). */
        for (int pass = 0; pass < (base ? 2 : 1); pass++) {
            size_t cx = xi, cg = gi;
            if (pass == 1) {
                if (strcmp(bcol, xcol) == 0)
                    cx = SIZE_MAX;
                if (gcol && strcmp(bcol, gcol) == 0)
                    cg = SIZE_MAX;
            }
            size_t k = 0;
            while (k < ncells && !(cells[k].x == cx && cells[k].g == cg && cells[k].base == (pass == 1)))
                k++;
            if (k == ncells) {
                if (ncells == cap) {
                    cap = cap ? cap * 2 : 64;
                    cell *nc = realloc(cells, cap * sizeof *nc);
                    if (!nc) {
                        fprintf(stderr, "ptxsim plot: out of memory\n");
                        exit(2);
                    }
                    cells = nc;
                }
                cells[ncells++] = (cell){cx, cg, 0, 0, pass == 1};
            }
            cells[k].sum += json_number_value(y);
            cells[k].n++;
        }
        used++;
    }
    if (!used) {
        fprintf(stderr, "ptxsim plot: no successful run of %s/summary.json has %s\n", a->dir,
                ycol);
        free(cells);
        keys_free(&xs);
        keys_free(&gs);
        return 2;
    }
    if (skipped)
        fprintf(stderr, "ptxsim plot: left out %zu run%s that failed, did not finish or have no "
                        "%s\n", skipped, skipped == 1 ? "" : "s", ycol);

    /* Numbers in numeric order; words in the summary's order. The cells refer to positions, so
     * sort a copy and map. */
    bool numeric_x = all_numeric(&xs);
    keys xo = {malloc(xs.count * sizeof(char *)), xs.count};
    keys go = {malloc(gs.count * sizeof(char *)), gs.count};
    if (!xo.names || !go.names) {
        fprintf(stderr, "ptxsim plot: out of memory\n");
        exit(2);
    }
    memcpy(xo.names, xs.names, xs.count * sizeof(char *));
    memcpy(go.names, gs.names, gs.count * sizeof(char *));
    if (numeric_x)
        qsort(xo.names, xo.count, sizeof(char *), by_number);
    if (all_numeric(&gs))
        qsort(go.names, go.count, sizeof(char *), by_number);
    const char *kind = a->kind ? a->kind : numeric_x ? "line" : "bar";

    char png[PATH_MAX + 256], dat[PATH_MAX + 264], gp[PATH_MAX + 264];
    if (a->out) {
        snprintf(png, sizeof png, "%s", a->out);
    } else {
        char xs_[64], ys_[64], gs_[64], plots[PATH_MAX];
        safe_name(xs_, sizeof xs_, a->x);
        safe_name(ys_, sizeof ys_, a->y);
        safe_name(gs_, sizeof gs_, a->group ? a->group : "");
        snprintf(plots, sizeof plots, "%s/plots", a->dir);
        if (!sweep_mkdir_p(plots)) {
            fprintf(stderr, "ptxsim plot: cannot create %s: %s\n", plots, strerror(errno));
            return 2;
        }
        snprintf(png, sizeof png, "%s/%s_by_%s%s%s.png", plots, ys_, xs_, a->group ? "_per_" : "",
                 gs_);
    }
    size_t stem = strlen(png) > 4 && strcmp(png + strlen(png) - 4, ".png") == 0
                      ? strlen(png) - 4 : strlen(png);
    snprintf(dat, sizeof dat, "%.*s.dat", (int)stem, png);
    snprintf(gp, sizeof gp, "%.*s.gp", (int)stem, png);

    FILE *f = fopen(dat, "w");
    if (!f) {
        fprintf(stderr, "ptxsim plot: cannot write %s: %s\n", dat, strerror(errno));
        return 2;
    }
    size_t xskip = numeric_x ? 0 : common_words(&xs), gskip = common_words(&gs);
    fprintf(f, "%s", a->x);
    for (size_t g = 0; g < go.count; g++)
        fprintf(f, "\t%s", go.names[g] + gskip);
    fprintf(f, "\n");
    size_t most = 0;
    for (size_t xo_i = 0; xo_i < xo.count; xo_i++) {
        size_t xi = key_index(&xs, xo.names[xo_i], false);
        fprintf(f, "%s", xo.names[xo_i] + xskip);
        for (size_t g = 0; g < go.count; g++) {
            size_t gi = key_index(&gs, go.names[g], false);
            double v = 0;
            bool have = false;
            for (size_t k = 0; k < ncells; k++)
                if (!cells[k].base && cells[k].x == xi && cells[k].g == gi) {
                    v = cells[k].sum / (double)cells[k].n;
                    have = true;
                    most = cells[k].n > most ? cells[k].n : most;
                }
            if (have && bcol) {
                size_t bx = strcmp(bcol, xcol) == 0 ? SIZE_MAX : xi;
                size_t bg = gcol && strcmp(bcol, gcol) == 0 ? SIZE_MAX : gi;
                have = false;
                for (size_t k = 0; k < ncells; k++)
                    if (cells[k].base && cells[k].x == bx && cells[k].g == bg && cells[k].sum != 0) {
                        v /= cells[k].sum / (double)cells[k].n;
                        have = true;
                    }
            }
            if (have)
                fprintf(f, "\t%.10g", v);
            else
                fprintf(f, "\t?");
        }
        fprintf(f, "\n");
    }
    fclose(f);

    bool long_labels = false, long_keys = false;
    for (size_t i = 0; i < xo.count; i++)
        long_labels = long_labels || strlen(xo.names[i] + xskip) > 10;
    for (size_t i = 0; i < go.count; i++)
        long_keys = long_keys || strlen(go.names[i] + gskip) > 20;
    if (!(f = fopen(gp, "w"))) {
        fprintf(stderr, "ptxsim plot: cannot write %s: %s\n", gp, strerror(errno));
        return 2;
    }
    char ylabel[600], title[600];
    const char *yname = strncmp(ycol, "stats.", 6) == 0 ? ycol + 6 : ycol;
    snprintf(ylabel, sizeof ylabel, "%s%s%s%s%s", yname, bcol ? " relative to " : "",
             bcol ? baxis : "", bcol ? "=" : "",
             bcol ? bvalue + (strcmp(bcol, xcol) == 0 ? xskip
                              : gcol && strcmp(bcol, gcol) == 0 ? gskip : 0)
                  : "");
    if (most > 1)
        snprintf(ylabel + strlen(ylabel), sizeof ylabel - strlen(ylabel), " (mean of %zu runs)",
                 most);
    snprintf(title, sizeof title, "%s", a->title ? a->title : ylabel);
    snprintf(ylabel, sizeof ylabel, "%s%s", yname, bcol ? " (relative)" : "");
    fprintf(f, "# ptxsim plot: %s by %s%s%s, from %s/summary.json\n", ycol, xcol,
            gcol ? " per " : "", gcol ? gcol : "", a->dir);
    fprintf(f, "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\nset output ");
    gp_string(f, png);
    fprintf(f, "\nset title ");
    gp_string(f, title);
    fprintf(f, "\nset xlabel ");
    gp_string(f, xcol);
    fprintf(f, "\nset ylabel ");
    gp_string(f, ylabel);
    fprintf(f, "\nset datafile separator '\\t'\nset datafile missing '?'\n"
               "set key %s title ", long_keys ? "below" : "outside right top");
    gp_string(f, gcol ? gcol : "");
    fprintf(f, "\nset grid ytics\nset yrange [0:*]\n");
    if (long_labels)
        fprintf(f, "set xtics rotate by -30 left\nset bmargin 8\n");
    if (bcol)
        fprintf(f, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\n");
    size_t last = go.count + 1;
    if (strcmp(kind, "bar") == 0) {
        fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
                   "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
                   "plot for [i=2:%zu] ", last);
        gp_string(f, dat);
        fprintf(f, " using i:xtic(1) title columnheader(i)\n");
    } else if (numeric_x) {
        fprintf(f, "set offsets graph 0.03, graph 0.03, 0, 0\nplot for [i=2:%zu] ", last);
        gp_string(f, dat);
        fprintf(f, " using 1:i:xtic(1) with linespoints pointtype 7 title columnheader(i)\n");
    } else {
        fprintf(f, "set offsets 0.3, 0.3, 0, 0\nplot for [i=2:%zu] ", last);
        gp_string(f, dat);
        fprintf(f, " using 0:i:xtic(1) with linespoints pointtype 7 title columnheader(i)\n");
    }
    fclose(f);
    free(cells);
    free(xo.names);
    free(go.names);
    keys_free(&xs);
    keys_free(&gs);

    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        fprintf(stderr, "ptxsim plot: cannot run gnuplot (%s); `make deps` installs Debian's "
                        "gnuplot-nox\n", strerror(errno));
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "ptxsim plot: gnuplot failed on %s\n", gp);
        return 2;
    }
    printf("ptxsim plot: wrote %s (data %s, gnuplot script %s)\n", png, dat, gp);
    return 0;
}

int cli_plot(int argc, char **argv)
{
    plot_args a = {0};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        static const struct { const char *prefix; size_t offset; } opts[] = {
            {"--x=", offsetof(plot_args, x)},         {"--y=", offsetof(plot_args, y)},
            {"--group=", offsetof(plot_args, group)}, {"--baseline=", offsetof(plot_args, baseline)},
            {"--kind=", offsetof(plot_args, kind)},   {"--out=", offsetof(plot_args, out)},
            {"--title=", offsetof(plot_args, title)},
        };
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            plot_usage(stdout);
            return 0;
        }
        bool known = false;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !known; k++) {
            size_t n = strlen(opts[k].prefix);
            if (strncmp(s, opts[k].prefix, n) == 0 && s[n]) {
                *(const char **)((char *)&a + opts[k].offset) = s + n;
                known = true;
            }
        }
        if (known)
            continue;
        if (s[0] == '-' || a.dir) {
            fprintf(stderr, "ptxsim plot: unexpected argument '%s'\n", s);
            plot_usage(stderr);
            return 2;
        }
        a.dir = s;
    }
    if (!a.dir || !a.x || !a.y) {
        fprintf(stderr, "ptxsim plot: give the sweep's folder, --x and --y\n");
        plot_usage(stderr);
        return 2;
    }
    if (a.kind && strcmp(a.kind, "bar") != 0 && strcmp(a.kind, "line") != 0) {
        fprintf(stderr, "ptxsim plot: --kind=%s: expected bar or line\n", a.kind);
        return 2;
    }
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/summary.json", a.dir);
    json_error_t jerr;
    json_t *summary = json_load_file(path, 0, &jerr);
    if (!summary) {
        fprintf(stderr, "ptxsim plot: %s: %s (run ptxsim sweep --gather %s?)\n", path,
                jerr.text, a.dir);
        return 2;
    }
    int rc = draw(&a, summary);
    json_decref(summary);
    return rc;
}
