/* ptx_parse.c: the frontend's entry points for PTX text: parse, free, and look-ups. */
#include "frontend/ptx_parser.h"

#include <limits.h>
#include <string.h>

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
    ptx_builder *b = ptx_builder_new(name, d);
    if (!b) {
        ptx_diag_free(&local);
        return NULL;
    }
    /* The builder counts this parse's errors from zero; earlier ones are added back. */
    uint32_t base_errors = d->errors;
    d->errors = 0;
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

const ptx_function *ptx_find_function(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
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
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner == -1 && strcmp(m->syms[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}
