/* ptx_diag.c: collecting diagnostics as "FILE:LINE:COL: error: [in function 'F': ]message". */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

static void append(ptx_diag *d, const char *s, size_t n)
{
    if (d->len + n + 1 > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 256;
        while (cap < d->len + n + 1)
            cap *= 2;
        char *t = realloc(d->text, cap);
        if (!t)
            return;
        d->text = t;
        d->cap = cap;
    }
    memcpy(d->text + d->len, s, n);
    d->len += n;
    d->text[d->len] = 0;
}

void ptx_diag_add(ptx_diag *d, const char *file, uint32_t line, uint32_t col, bool error,
                  const char *func, const char *fmt, va_list ap)
{
    if (!d)
        return;
    char head[512], msg[1024];
    int n;
    if (func)
        n = snprintf(head, sizeof head, "%s:%u:%u: %s: in function '%s': ", file ? file : "<ptx>",
                     line, col, error ? "error" : "warning", func);
    else
        n = snprintf(head, sizeof head, "%s:%u:%u: %s: ", file ? file : "<ptx>", line, col,
                     error ? "error" : "warning");
    if (n < 0)
        return;
    append(d, head, (size_t)n < sizeof head ? (size_t)n : sizeof head - 1);
    n = vsnprintf(msg, sizeof msg, fmt, ap);
    if (n < 0)
        return;
    append(d, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    append(d, "\n", 1);
    if (error)
        d->errors++;
    else
        d->warnings++;
}

void ptx_diag_free(ptx_diag *d)
{
    if (!d)
        return;
    free(d->text);
    d->text = NULL;
    d->len = d->cap = 0;
    d->errors = d->warnings = 0;
    d->unsupported_version = false;
}
