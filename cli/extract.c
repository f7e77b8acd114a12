/* extract.c: `ptxsim extract FILE [--list | --ptx KERNEL | --all]`, the PTX inside a CUDA
 * binary (executable, shared library, object file or bare .fatbin). */
#include "cli/cli.h"
#include "frontend/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { MODE_LIST, MODE_PTX, MODE_ALL } extract_mode;

typedef struct name_list {
    char **v;
    size_t n, cap;
    char *parse_error;  /* first diagnostic line when the parser rejected the module */
} name_list;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim extract FILE [--list | --ptx KERNEL | --all]\n"
            "  FILE          a CUDA executable, shared library or object file (or a .fatbin)\n"
            "  --list        list the fatbin entries and the kernels each PTX defines (default)\n"
            "  --ptx KERNEL  print the PTX of the module that defines KERNEL (newest PTX; the\n"
            "                mangled name, or the plain name for an unambiguous C++ kernel)\n"
            "  --all         print every PTX entry, each after a comment header\n");
}

static void names_add(name_list *l, const char *s, size_t len)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == len && memcmp(l->v[i], s, len) == 0) return;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 8;
        char **nv = realloc(l->v, ncap * sizeof *nv);
        if (!nv) return;
        l->v = nv;
        l->cap = ncap;
    }
    char *copy = strndup(s, len);
    if (copy) l->v[l->n++] = copy;
}

static void names_free(name_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    free(l->parse_error);
    memset(l, 0, sizeof *l);
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%';
}

/* The fallback when the parser rejects a module: `.entry NAME` where a line declares one
 * with a body (not `.extern`), outside comments. */
static void scan_entries(const char *text, size_t len, name_list *out)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *cmt = NULL;
        for (const char *q = p; q + 1 < le; q++)
            if (q[0] == '/' && q[1] == '/') { cmt = q; break; }
        const char *stop = cmt ? cmt : le;
        for (const char *q = p; q + 6 <= stop; q++) {
            if (memcmp(q, ".entry", 6) != 0 || (q > p && ident_char(q[-1])) ||
                (q + 6 < stop && q[6] != ' ' && q[6] != '\t'))
                continue;
            bool is_extern = false;
            for (const char *r = p; r + 7 <= q; r++)
                if (memcmp(r, ".extern", 7) == 0) is_extern = true;
            const char *n = q + 6;
            while (n < stop && (*n == ' ' || *n == '\t')) n++;
            const char *ne = n;
            while (ne < stop && ident_char(*ne)) ne++;
            if (ne > n && !is_extern) names_add(out, n, (size_t)(ne - n));
            break;
        }
        p = nl ? nl + 1 : end;
    }
}

/* The kernels (.entry functions with bodies) an entry's PTX defines. */
static void kernels_of(const ptx_fatbin_entry *e, const char *label, name_list *out)
{
    memset(out, 0, sizeof *out);
    ptx_diag diag = { 0 };
    ptx_module *m = ptx_parse((const char *)e->data, e->size, label, &diag);
    if (m) {
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const ptx_function *f = &m->funcs[i];
            if (f->is_entry && !f->is_decl && f->name) names_add(out, f->name, strlen(f->name));
        }
        ptx_module_free(m);
    } else {
        const char *t = diag.text ? diag.text : "the parser rejected it";
        const char *nl = strchr(t, '\n');
        out->parse_error = strndup(t, nl ? (size_t)(nl - t) : strlen(t));
        scan_entries((const char *)e->data, e->size, out);
    }
    ptx_diag_free(&diag);
}

/* The C++ name of an Itanium-mangled function (`_Z4vaddPKfS0_Pfi` is vadd, `_ZN2ns1kEv` is
 * ns::k), written to buf; the name itself when it is not mangled. */
static const char *plain_name(const char *mangled, char *buf, size_t len)
{
    snprintf(buf, len, "%s", mangled);
    if (strncmp(mangled, "_Z", 2) != 0) return buf;
    const char *p = mangled + 2;
    bool nested = *p == 'N';
    if (nested) p++;
    size_t o = 0;
    do {
        if (*p < '1' || *p > '9') break;
        char *after;
        unsigned long n = strtoul(p, &after, 10);
        p = after;
        if (n == 0 || strnlen(p, n) < n || o + n + 3 > len) return buf;
        if (o) {
            buf[o++] = ':';
            buf[o++] = ':';
        }
        memcpy(buf + o, p, n);
        o += n;
        p += n;
    } while (nested && *p != 'E');
    if (o == 0) snprintf(buf, len, "%s", mangled);
    else buf[o] = 0;
    return buf;
}

static bool kernel_matches(const char *mangled, const char *want)
{
    if (strcmp(mangled, want) == 0) return true;
    char buf[512];
    const char *plain = plain_name(mangled, buf, sizeof buf);
    if (strcmp(plain, want) == 0) return true;
    const char *last = strrchr(plain, ':');
    return last && strcmp(last + 1, want) == 0;
}

static void arch_name(const ptx_fatbin_entry *e, char *buf, size_t len)
{
    const char *fmt = e->kind == PTX_FATBIN_PTX ? "compute_%u%.1s" : "sm_%u%.1s";
    snprintf(buf, len, fmt, e->arch, e->arch_suffix ? &e->arch_suffix : "");
}

static const char *kind_name(const ptx_fatbin_entry *e)
{
    return e->kind == PTX_FATBIN_PTX ? "PTX" : e->kind == PTX_FATBIN_ELF ? "ELF" : "?";
}

static void entry_label(const char *file, const ptx_fatbin_entry *e, size_t index, char *buf,
                        size_t len)
{
    if (e->name) snprintf(buf, len, "%s[%zu:%s]", file, index, e->name);
    else snprintf(buf, len, "%s[%zu]", file, index);
}

static int do_list(const char *file, const ptx_fatbin *fb)
{
    size_t nptx = ptx_fatbin_ptx_order(fb, NULL, 0);
    uint32_t ncont = fb->containers;
    printf("%s: %zu entr%s in %u fatbin%s, %zu with PTX\n", file, fb->count,
           fb->count == 1 ? "y" : "ies", ncont, ncont == 1 ? "" : "s", nptx);
    printf("%5s %6s  %-4s %-12s %-4s %-9s %9s %9s  %s\n", "entry", "fatbin", "kind", "arch",
           "ptx", "compress", "size", "stored", "name");
    for (size_t i = 0; i < fb->count; i++) {
        const ptx_fatbin_entry *e = &fb->entries[i];
        char arch[32], ver[16] = "-";
        arch_name(e, arch, sizeof arch);
        if (e->kind == PTX_FATBIN_PTX) snprintf(ver, sizeof ver, "%u.%u", e->ptx_major, e->ptx_minor);
        printf("%5zu %6u  %-4s %-12s %-4s %-9s %9zu %9zu%s%s\n", i, e->container, kind_name(e),
               arch, ver, ptx_fatbin_compression_name(e->compression), e->size, e->stored_size,
               e->name ? "  " : "", e->name ? e->name : "");
        if (e->kind != PTX_FATBIN_PTX) continue;
        char label[512];
        entry_label(file, e, i, label, sizeof label);
        name_list k;
        kernels_of(e, label, &k);
        size_t width = 0;
        for (size_t j = 0; j < k.n; j++) width += strlen(k.v[j]) + 1;
        if (width <= 64) {
            printf("%15s kernels:", "");
            for (size_t j = 0; j < k.n; j++) printf(" %s", k.v[j]);
            printf("%s\n", k.n ? "" : " (none)");
        } else {
            printf("%15s kernels (%zu):\n", "", k.n);
            for (size_t j = 0; j < k.n; j++) printf("%17s%s\n", "", k.v[j]);
        }
        if (k.parse_error) printf("%15s (found by a text scan; the parser said: %s)\n", "", k.parse_error);
        names_free(&k);
    }
    /* Each fatbin is a translation unit (or a device library, in -rdc builds): the runtime
     * takes the newest PTX of each. */
    for (uint32_t c = 0; c < ncont; c++) {
        const ptx_fatbin_entry *best = NULL;
        if (ptx_fatbin_ptx_order_in(fb, c, &best, 1) == 0 || !best) continue;
        char arch[32];
        arch_name(best, arch, sizeof arch);
        printf("newest PTX of fatbin %u: entry %zu (PTX %u.%u, %s)\n", c,
               (size_t)(best - fb->entries), best->ptx_major, best->ptx_minor, arch);
    }
    if (nptx == 0) {
        char err[512];
        ptx_fatbin_best_ptx(fb, err, sizeof err);
        printf("note: %s\n", err);
    }
    return 0;
}

static void print_text(const ptx_fatbin_entry *e)
{
    fwrite(e->data, 1, e->size, stdout);
    if (e->size == 0 || e->data[e->size - 1] != '\n') putchar('\n');
}

/* A list of kernel names for a message: the first few, and how many more there are. */
static void print_some(const name_list *l, const char *file)
{
    size_t shown = l->n < 12 ? l->n : 10;
    for (size_t j = 0; j < shown; j++) fprintf(stderr, " %s", l->v[j]);
    if (shown < l->n)
        fprintf(stderr, " and %zu more (ptxsim extract %s --list shows them all)", l->n - shown,
                file);
    if (l->n == 0) fprintf(stderr, " (none)");
}

static int do_ptx(const char *file, const ptx_fatbin *fb, const char *kernel)
{
    size_t n = ptx_fatbin_ptx_order(fb, NULL, 0);
    char err[512];
    if (n == 0) {
        ptx_fatbin_best_ptx(fb, err, sizeof err);
        fprintf(stderr, "ptxsim extract: %s: %s\n", file, err);
        return 1;
    }
    const ptx_fatbin_entry **order = calloc(n, sizeof *order);
    name_list *kernels = calloc(n, sizeof *kernels);
    if (!order || !kernels) {
        free(order);
        free(kernels);
        fprintf(stderr, "ptxsim extract: out of memory\n");
        return 1;
    }
    ptx_fatbin_ptx_order(fb, order, n);
    for (size_t i = 0; i < n; i++) {
        char label[512];
        entry_label(file, order[i], (size_t)(order[i] - fb->entries), label, sizeof label);
        kernels_of(order[i], label, &kernels[i]);
    }

    /* The newest module that defines the kernel by its exact name; failing that, by its plain
     * C++ name, when that names one kernel only. */
    const ptx_fatbin_entry *exact = NULL, *hit = NULL;
    for (size_t i = 0; i < n && !exact; i++)
        for (size_t j = 0; j < kernels[i].n && !exact; j++)
            if (strcmp(kernels[i].v[j], kernel) == 0) exact = order[i];
    name_list similar = { 0 }, all = { 0 };
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < kernels[i].n; j++) {
            const char *k = kernels[i].v[j];
            names_add(&all, k, strlen(k));
            if (exact || !kernel_matches(k, kernel)) continue;
            if (!hit) hit = order[i];
            names_add(&similar, k, strlen(k));
        }
    }
    if (exact) hit = exact;
    int rc = 0;
    if (!hit) {
        fprintf(stderr, "ptxsim extract: %s: no PTX defines a kernel \"%s\"; its kernels:",
                file, kernel);
        print_some(&all, file);
        fputc('\n', stderr);
        rc = 1;
    } else if (similar.n > 1) {
        fprintf(stderr, "ptxsim extract: %s: \"%s\" names several kernels:", file, kernel);
        print_some(&similar, file);
        fprintf(stderr, "; give the mangled name\n");
        rc = 1;
    } else {
        print_text(hit);
    }
    names_free(&similar);
    names_free(&all);
    for (size_t i = 0; i < n; i++) names_free(&kernels[i]);
    free(kernels);
    free(order);
    return rc;
}

static int do_all(const char *file, const ptx_fatbin *fb)
{
    size_t shown = 0;
    for (size_t i = 0; i < fb->count; i++) {
        const ptx_fatbin_entry *e = &fb->entries[i];
        if (e->kind != PTX_FATBIN_PTX) continue;
        char arch[32];
        arch_name(e, arch, sizeof arch);
        printf("%s// ==== ptxsim extract: %s, entry %zu (fatbin %u): PTX %u.%u, %s, %s, "
               "%zu bytes%s%s ====\n",
               shown ? "\n" : "", file, i, e->container, e->ptx_major, e->ptx_minor, arch,
               ptx_fatbin_compression_name(e->compression), e->size, e->name ? ", " : "",
               e->name ? e->name : "");
        print_text(e);
        shown++;
    }
    if (shown == 0) {
        char err[512];
        ptx_fatbin_best_ptx(fb, err, sizeof err);
        fprintf(stderr, "ptxsim extract: %s: %s\n", file, err);
        return 1;
    }
    return 0;
}

int cli_extract(int argc, char **argv)
{
    extract_mode mode = MODE_LIST;
    const char *file = NULL, *kernel = NULL;
    int nmodes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--list") == 0) {
            mode = MODE_LIST;
            nmodes++;
        } else if (strcmp(a, "--all") == 0) {
            mode = MODE_ALL;
            nmodes++;
        } else if (strcmp(a, "--ptx") == 0 || strncmp(a, "--ptx=", 6) == 0) {
            if (a[5] == '=') {
                kernel = a + 6;
            } else if (i + 1 < argc) {
                kernel = argv[++i];
            } else {
                fprintf(stderr, "ptxsim extract: --ptx needs a kernel name\n");
                usage(stderr);
                return 2;
            }
            mode = MODE_PTX;
            nmodes++;
        } else if (strcmp(a, "--") == 0 && i + 1 < argc && !file) {
            file = argv[++i];
        } else if (a[0] == '-' && a[1] != 0) {
            fprintf(stderr, "ptxsim extract: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (file) {
            fprintf(stderr, "ptxsim extract: one file at a time (got %s and %s)\n", file, a);
            return 2;
        } else {
            file = a;
        }
    }
    if (!file) {
        usage(stderr);
        return 2;
    }
    if (nmodes > 1) {
        fprintf(stderr, "ptxsim extract: choose one of --list, --ptx KERNEL, --all\n");
        return 2;
    }
    if (mode == MODE_PTX && (!kernel || !*kernel)) {
        fprintf(stderr, "ptxsim extract: --ptx needs a kernel name\n");
        return 2;
    }

    ptx_fatbin fb;
    char err[1024];
    /* Only the PTX is printed: SASS is listed from its headers, undecoded. */
    if (ptx_fatbin_read_elf_file_ex(file, PTX_FATBIN_SKIP_SASS, &fb, err, sizeof err) != 0) {
        fprintf(stderr, "ptxsim extract: %s\n", err);
        return 1;
    }
    int rc = mode == MODE_LIST ? do_list(file, &fb)
           : mode == MODE_PTX  ? do_ptx(file, &fb, kernel)
                               : do_all(file, &fb);
    ptx_fatbin_free(&fb);
    fflush(stdout);
    return rc;
}
