/* cli/ptx.c: `ptxsim ptx FILE.ptx [--dump] [--print]`: parse and check a PTX file. */
#include "cli/cli.h"
#include "frontend/ptx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ptxsim ptx: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap) {
            if (ferror(f)) {
                fprintf(stderr, "ptxsim ptx: cannot read '%s': %s\n", path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    if (f != stdin)
        fclose(f);
    if (!buf)
        return NULL;
    *len = n;
    return buf;
}

static void usage(FILE *out)
{
    fputs("usage: ptxsim ptx FILE.ptx [--dump] [--print]\n"
          "  Parses and checks a PTX module; exits 0 when it is valid.\n"
          "  --dump   list symbols, functions, basic blocks, successors and IPDOMs\n"
          "  --print  write the module back as PTX\n", out);
}

int cli_ptx(int argc, char **argv)
{
    const char *path = NULL;
    bool dump = false, print = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dump") == 0)
            dump = true;
        else if (strcmp(argv[i], "--print") == 0)
            print = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ptxsim ptx: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (path) {
            fprintf(stderr, "ptxsim ptx: more than one file given\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text)
        return 1;
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse(text, len, path, &diag);
    if (diag.text)
        fputs(diag.text, stderr);
    int rc = 1;
    if (m) {
        rc = 0;
        if (dump)
            ptx_dump(m, stdout);
        if (print)
            ptx_print(m, stdout);
        ptx_module_free(m);
    }
    ptx_diag_free(&diag);
    free(text);
    return rc;
}
