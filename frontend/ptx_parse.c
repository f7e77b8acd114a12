/* ptx_parse.c: the frontend's entry points for PTX text: parse, free, and look-ups. */
#include "frontend/ptx_parser.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

static void diag_error(ptx_diag *d, const char *file, uint32_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void diag_error(ptx_diag *d, const char *file, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_add(d, file, line, 1, true, NULL, fmt, ap);
    va_end(ap);
}

/* The parse under an out-of-memory frame (ptx_oom.c); d counts its errors from zero. */
static ptx_module *parse_framed(const char *text, size_t len, const char *name, ptx_diag *d)
{
    ptx_builder *volatile b = NULL;
    ptx_oom_frame fr;
    if (setjmp(fr.jb)) {
        /* Out of host memory somewhere in the parse: everything it made goes, and the module
         * is refused with a message rather than the process aborted. */
        ptx_builder_discard(b);
        d->errors = 0;
        diag_error(d, name ? name : "<ptx>", 1,
                   "out of host memory while parsing %zu bytes of PTX", len);
        if (d->errors == 0)   /* the message itself found no memory */
            d->errors = 1;
        return NULL;
    }
    ptx_oom_push(&fr);
    b = ptx_builder_new(name, d);
    if (!b)
        ptx_oom();
    if (len > INT_MAX / 2) {
        ptx_b_error(b, 1, 1, "PTX text is too large (%zu bytes)", len);
    } else if (memchr(text, 0, len)) {
        const char *z = memchr(text, 0, len);
        uint32_t line = 1;
        for (const char *p = text; p < z; p++)
            line += *p == '\n';
        ptx_b_error(b, line, 1, "NUL byte inside PTX text");
    } else {
        int rc = ptx_run_parser(b, text, len);
        if (rc != 0 && d->errors == 0)
            ptx_b_error(b, 1, 1, "PTX parse failed");
    }
    ptx_module *m = ptx_builder_finish(b);
    ptx_oom_pop(&fr);
    return m;
}

ptx_module *ptx_parse(const char *text, size_t len, const char *name, ptx_diag *diag)
{
    ptx_diag local = {0};
    ptx_diag *d = diag ? diag : &local;
    if (!text) {
        text = "";
        len = 0;
    }
    /* Tolerate the NULs that trail PTX taken from fatbins. */
    while (len && text[len - 1] == 0)
        len--;
    /* The builder counts this parse's errors from zero; earlier ones are added back. */
    uint32_t base_errors = d->errors;
    d->errors = 0;
    ptx_module *m = parse_framed(text, len, name, d);
    d->errors += base_errors;
    if (!diag)
        ptx_diag_free(&local);
    return m;
}

void ptx_module_free(ptx_module *m)
{
    if (m)
        ptx_arena_free(m->arena);
}

void ptx_init_read(const ptx_symbol *s, uint64_t off, void *out, size_t n)
{
    uint8_t *o = out;
    memset(o, 0, n);
    if (!s || !s->ninit || n == 0)
        return;
    /* the last run that starts at or before off + n */
    uint32_t lo = 0, hi = s->ninit;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->init[mid].offset < off + n)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i-- > 0;) {
        const ptx_init_run *r = &s->init[i];
        if (r->offset + r->len <= off)
            break;
        uint64_t a = r->offset > off ? r->offset : off;
        uint64_t e = r->offset + r->len < off + n ? r->offset + r->len : off + n;
        memcpy(o + (a - off), r->bytes + (a - r->offset), (size_t)(e - a));
    }
}

const ptx_function *ptx_find_function(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    if (m->index) {
        int32_t f = ptx_index_find_function(m, name);
        return f < 0 ? NULL : &m->funcs[f];
    }
    const ptx_function *decl = NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0) {
            if (!m->funcs[i].is_decl)
                return &m->funcs[i];
            decl = &m->funcs[i];
        }
    return decl;
}

int32_t ptx_find_symbol(const ptx_module *m, int32_t owner, const char *name)
{
    if (!m || !name)
        return -1;
    if (owner >= 0)
        for (uint32_t i = 0; i < m->nsyms; i++)
            if (m->syms[i].owner == owner && strcmp(m->syms[i].name, name) == 0)
                return (int32_t)i;
    if (m->index)
        return ptx_index_find_symbol(m, name);
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner == -1 && strcmp(m->syms[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}
