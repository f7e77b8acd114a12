/* report.c: the hazards the checks found, kept once per (kind, pair of PTX instructions) with
 * a count, printed in compute-sanitizer's shape after each launch, summed up at exit, and
 * written as JSON for tools (--check-report). */
#include "timing/check/check_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_word[CK_KINDS] = {
    [CK_RACE_WW] = "write-write", [CK_RACE_WR] = "write-read", [CK_RACE_RW] = "read-write",
    [CK_UNINIT_READ] = "uninitialized-read", [CK_SYNC_DIVERGENT] = "divergent-barrier",
    [CK_SYNC_WARP_MASK] = "warp-mask", [CK_SYNC_BAD_COUNT] = "barrier-count",
};

static const char *tool_of(uint8_t kind)
{
    if (kind <= CK_RACE_RW) return "racecheck";
    if (kind == CK_UNINIT_READ) return "initcheck";
    return "synccheck";
}

static const char *space_word(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_GLOBAL: return "__global__";
    default: return "";
    }
}

timing_check *timing_check_create(unsigned kinds)
{
    timing_check *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->kinds = kinds;
    pthread_mutex_init(&c->lock, NULL);
    if (kinds & TIMING_CHECK_INIT) {
        c->init = ck_initmap_create();
        if (!c->init) {
            free(c);
            return NULL;
        }
    }
    return c;
}

void timing_check_fault(timing_check *c)
{
    if (!(c->kinds & TIMING_CHECK_MEM)) return;
    pthread_mutex_lock(&c->lock);
    c->memcheck_errors++;
    pthread_mutex_unlock(&c->lock);
}

void timing_check_alloc(timing_check *c, uint64_t addr, uint64_t n)
{
    if (c->init) ck_initmap_set(c->init, addr, n, false);
}

void timing_check_host_write(timing_check *c, uint64_t addr, uint64_t n)
{
    if (c->init) ck_initmap_set(c->init, addr, n, true);
}

ck_where ck_resolve(const ptx_module *m, const char *kernel, const ck_site *s)
{
    ck_where w = {0};
    const ptx_function *f = s->func < m->nfuncs ? &m->funcs[s->func] : NULL;
    const ptx_instr *in = f && s->pc < f->ninstrs ? &f->instrs[s->pc] : NULL;
    char buf[512];
    int n = snprintf(buf, sizeof buf, "kernel %s", kernel);
    if (f && !f->is_entry && n > 0 && (size_t)n < sizeof buf) {
        /* a device function: named beside the kernel, as the fault reports name it */
        char *dn = ptx_demangle(f->name);
        n += snprintf(buf + n, sizeof buf - (size_t)n, " (function %s)", dn ? dn : f->name);
        free(dn);
    }
    if (in) {
        w.ptx_line = in->line;
        if (in->dbg_line && in->dbg_file < m->nfiles && m->files[in->dbg_file]) {
            w.src_line = in->dbg_line;
            w.src_file = strdup(m->files[in->dbg_file]);
            snprintf(buf + n, sizeof buf - (size_t)n, " (PTX line %u, %s:%u)", in->line,
                     m->files[in->dbg_file], in->dbg_line);
        } else {
            snprintf(buf + n, sizeof buf - (size_t)n, " (PTX line %u)", in->line);
        }
    }
    w.text = strdup(buf);
    return w;
}

void ck_hazard_note(timing_check *c, const struct ck_launch *K, ck_hazard_kind kind,
                    uint8_t space, const ck_site *first, const ck_site *second,
                    uint64_t address, const char *detail)
{
    const ptx_module *m = ck_launch_ptx(K);
    const char *kernel = ck_launch_kernel(K);
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < c->nhaz; i++) {
        ck_hazard *h = &c->haz[i];
        if (h->kind == kind && h->space == space && h->first.func == first->func &&
            h->first.pc == first->pc && h->has_second == (second != NULL) &&
            (!second || (h->second.func == second->func && h->second.pc == second->pc)) &&
            strcmp(h->kernel, kernel) == 0) {
            h->count++;
            pthread_mutex_unlock(&c->lock);
            return;
        }
    }
    if (c->nhaz == c->caphaz) {
        size_t cap = c->caphaz ? 2 * c->caphaz : 16;
        ck_hazard *h = realloc(c->haz, cap * sizeof *h);
        if (!h) {
            pthread_mutex_unlock(&c->lock);
            return;
        }
        c->haz = h;
        c->caphaz = cap;
    }
    ck_hazard *h = &c->haz[c->nhaz++];
    memset(h, 0, sizeof *h);
    h->kind = (uint8_t)kind;
    h->space = space;
    h->launch = ck_launch_index(K);
    h->kernel = strdup(kernel);
    h->first = *first;
    h->wfirst = ck_resolve(m, kernel, first);
    if (second) {
        h->has_second = true;
        h->second = *second;
        h->wsecond = ck_resolve(m, kernel, second);
    }
    h->address = address;
    h->count = 1;
    if (detail) snprintf(h->detail, sizeof h->detail, "%s", detail);
    pthread_mutex_unlock(&c->lock);
}

static const char *access_word(uint8_t kind, bool second)
{
    switch (kind) {
    case CK_RACE_WW: return "Write";
    case CK_RACE_WR: return second ? "Read" : "Write";
    case CK_RACE_RW: return second ? "Write" : "Read";
    default: return "";
    }
}

#define BAR "========= "

void ck_print_new(timing_check *c, FILE *out)
{
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < c->nhaz; i++) {
        ck_hazard *h = &c->haz[i];
        if (h->printed) continue;
        h->printed = true;
        const ck_site *a = &h->first, *b = &h->second;
        switch (h->kind) {
        case CK_RACE_WW:
        case CK_RACE_WR:
        case CK_RACE_RW:
            fprintf(out, BAR "Error: Race reported between %s access at %s\n",
                    access_word(h->kind, false), h->wfirst.text);
            fprintf(out, BAR "    and %s access at %s [%llu hazard%s]\n",
                    access_word(h->kind, true), h->wsecond.text, (unsigned long long)h->count,
                    h->count == 1 ? "" : "s");
            fprintf(out, BAR "    %s hazard on %s memory at 0x%llx: thread (%u,%u,%u) in block "
                    "(%u,%u,%u), then thread (%u,%u,%u) in block (%u,%u,%u)\n",
                    kind_word[h->kind], space_word(h->space), (unsigned long long)h->address,
                    a->thread.x, a->thread.y, a->thread.z, a->block.x, a->block.y, a->block.z,
                    b->thread.x, b->thread.y, b->thread.z, b->block.x, b->block.y, b->block.z);
            break;
        case CK_UNINIT_READ:
            fprintf(out, BAR "Uninitialized %s memory read at 0x%llx in %s by thread (%u,%u,%u) in "
                    "block (%u,%u,%u) [%llu time%s]\n", space_word(h->space),
                    (unsigned long long)h->address, h->wfirst.text, a->thread.x, a->thread.y,
                    a->thread.z, a->block.x, a->block.y, a->block.z,
                    (unsigned long long)h->count, h->count == 1 ? "" : "s");
            break;
        default:
            fprintf(out, BAR "Barrier error detected. %s\n", h->detail);
            fprintf(out, BAR "    at %s by thread (%u,%u,%u) in block (%u,%u,%u) [%llu time%s]\n",
                    h->wfirst.text, a->thread.x, a->thread.y, a->thread.z, a->block.x,
                    a->block.y, a->block.z, (unsigned long long)h->count,
                    h->count == 1 ? "" : "s");
            if (h->has_second)
                fprintf(out, BAR "    and at %s by thread (%u,%u,%u) in block (%u,%u,%u)\n",
                        h->wsecond.text, b->thread.x, b->thread.y, b->thread.z, b->block.x,
                        b->block.y, b->block.z);
            break;
        }
        fprintf(out, BAR "\n");
    }
    pthread_mutex_unlock(&c->lock);
    fflush(out);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_site(FILE *f, const ck_site *s, const ck_where *w)
{
    fprintf(f, "{\"where\": ");
    json_string(f, w->text);
    fprintf(f, ", \"ptx_line\": %u, \"file\": ", w->ptx_line);
    if (w->src_file) json_string(f, w->src_file);
    else fprintf(f, "null");
    fprintf(f, ", \"line\": %u, \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]}", w->src_line,
            s->block.x, s->block.y, s->block.z, s->thread.x, s->thread.y, s->thread.z);
}

static bool write_json(timing_check *c, const char *path, const uint64_t *per_tool)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "{\"format\": \"ptxsim-check\", \"version\": 1, \"checks\": [");
    static const char *const names[4] = {"memcheck", "racecheck", "initcheck", "synccheck"};
    bool first = true;
    for (int k = 0; k < 4; k++)
        if (c->kinds & (1u << k)) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", names[k]);
            first = false;
        }
    fprintf(f, "], \"errors\": {\"memcheck\": %llu, \"racecheck\": %llu, \"initcheck\": %llu, "
            "\"synccheck\": %llu}, \"hazards\": [",
            (unsigned long long)per_tool[0], (unsigned long long)per_tool[1],
            (unsigned long long)per_tool[2], (unsigned long long)per_tool[3]);
    for (size_t i = 0; i < c->nhaz; i++) {
        const ck_hazard *h = &c->haz[i];
        fprintf(f, "%s\n  {\"tool\": \"%s\", \"kind\": \"%s\", \"space\": \"%s\", \"kernel\": ",
                i ? "," : "", tool_of(h->kind), kind_word[h->kind],
                h->space == PTX_SPACE_SHARED   ? "shared"
                : h->space == PTX_SPACE_GLOBAL ? "global"
                                               : "");
        json_string(f, h->kernel);
        fprintf(f, ", \"launch\": %u, \"address\": %llu, \"count\": %llu, \"first\": ", h->launch,
                (unsigned long long)h->address, (unsigned long long)h->count);
        json_site(f, &h->first, &h->wfirst);
        if (h->has_second) {
            fprintf(f, ", \"second\": ");
            json_site(f, &h->second, &h->wsecond);
        }
        if (h->detail[0]) {
            fprintf(f, ", \"detail\": ");
            json_string(f, h->detail);
        }
        fprintf(f, "}");
    }
    fprintf(f, "%s]}\n", c->nhaz ? "\n" : "");
    return fclose(f) == 0;
}

uint64_t timing_check_finish(timing_check *c, FILE *out, const char *json_path)
{
    ck_print_new(c, out);
    pthread_mutex_lock(&c->lock);
    uint64_t per_tool[4] = { c->memcheck_errors, 0, 0, 0 };
    for (size_t i = 0; i < c->nhaz; i++) {
        const ck_hazard *h = &c->haz[i];
        per_tool[h->kind <= CK_RACE_RW ? 1 : h->kind == CK_UNINIT_READ ? 2 : 3]++;
    }
    uint64_t total = per_tool[0] + per_tool[1] + per_tool[2] + per_tool[3];
    if (c->kinds & TIMING_CHECK_RACE)
        fprintf(out, BAR "RACECHECK SUMMARY: %llu hazard%s displayed (%llu error%s, 0 warnings)\n",
                (unsigned long long)per_tool[1], per_tool[1] == 1 ? "" : "s",
                (unsigned long long)per_tool[1], per_tool[1] == 1 ? "" : "s");
    if (c->kinds & TIMING_CHECK_INIT)
        fprintf(out, BAR "INITCHECK SUMMARY: %llu error%s\n", (unsigned long long)per_tool[2],
                per_tool[2] == 1 ? "" : "s");
    if (c->kinds & TIMING_CHECK_SYNC)
        fprintf(out, BAR "SYNCCHECK SUMMARY: %llu error%s\n", (unsigned long long)per_tool[3],
                per_tool[3] == 1 ? "" : "s");
    if (c->kinds & TIMING_CHECK_MEM)
        fprintf(out, BAR "MEMCHECK SUMMARY: %llu error%s\n", (unsigned long long)per_tool[0],
                per_tool[0] == 1 ? "" : "s");
    fprintf(out, BAR "ERROR SUMMARY: %llu error%s\n", (unsigned long long)total,
            total == 1 ? "" : "s");
    if (json_path && json_path[0] && !write_json(c, json_path, per_tool))
        fprintf(out, "ptxsim: --check-report=%s could not be written\n", json_path);
    pthread_mutex_unlock(&c->lock);
    fflush(out);
    return total;
}
