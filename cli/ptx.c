/* cli/ptx.c: `ptxsim ptx FILE.ptx [--dump] [--print] [--roundtrip] [--load] [--regions]`: parse
 * and check a PTX file, and optionally load it the way a launch would, which reports every
 * instruction the emulator cannot execute and every declared size beyond the device's limits,
 * or report iGPU's idempotent regions of every function. */
#include "cli/cli.h"
#include "emulator/emu.h"
#include "frontend/ptx.h"
#include "runtime/rt.h"

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
            fprintf(stderr, "ptxsim ptx: out of host memory reading '%s' (%zu bytes read)\n",
                    path, n);
            free(buf);
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

/* parse(print(m)) must equal m: the printer loses nothing the IR holds. */
static bool check_roundtrip(const ptx_module *m, const char *path)
{
    char *printed = NULL;
    size_t printed_len = 0;
    FILE *mem = open_memstream(&printed, &printed_len);
    if (!mem) {
        fprintf(stderr, "ptxsim ptx: out of memory\n");
        return false;
    }
    ptx_print(m, mem);
    fclose(mem);
    ptx_diag diag = {0};
    ptx_module *again = ptx_parse(printed, printed_len, path, &diag);
    char why[512] = "";
    bool same = again && ptx_module_equal(m, again, why, sizeof why);
    if (!again)
        fprintf(stderr, "%s: round trip: the printed module does not parse:\n%s", path,
                diag.text ? diag.text : "");
    else if (!same)
        fprintf(stderr, "%s: round trip: the printed module differs: %s\n", path, why);
    ptx_module_free(again);
    ptx_diag_free(&diag);
    free(printed);
    return same;
}

static bool print_regions(const ptx_module *m, const ptx_region_options *opt)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (fn->is_decl || fn->ninstrs == 0) continue;
        char err[256];
        ptx_regions *r = ptx_regions_compute(m, fn, opt, err, sizeof err);
        if (!r) {
            fprintf(stderr, "ptxsim ptx: %s\n", err);
            return false;
        }
        ptx_regions_print(m, fn, r, stdout);
        ptx_regions_free(r);
    }
    return true;
}

static void usage(FILE *out)
{
    fputs("usage: ptxsim ptx FILE.ptx [--dump] [--print] [--roundtrip] [--load] [--regions]\n"
          "  Parses and checks a PTX module; exits 0 when it is valid.\n"
          "  --dump       list symbols, functions, basic blocks, successors and IPDOMs\n"
          "  --print      write the module back as PTX\n"
          "  --roundtrip  also check that the printed module parses to the same IR\n"
          "  --load       also load it into the emulator, as a launch would: reports the\n"
          "               instructions ptxsim cannot execute and the sizes ptxas would refuse\n"
          "               (constant, shared, local and parameter space beyond the device's)\n"
          "  --regions    iGPU's idempotent regions of each function: clobber antidependences,\n"
          "               sparse and short boundaries with the reason of each cut, live-ins\n"
          "  --igpu-short=N  the short sub-regions' instruction limit (default 32)\n"
          "  --igpu-alias=restrict|conservative  whether distinct pointer parameters may alias\n"
          "               (default restrict, as in the paper's example)\n", out);
}

int cli_ptx(int argc, char **argv)
{
    const char *path = NULL;
    bool dump = false, print = false, roundtrip = false, load = false, regions = false;
    ptx_region_options ropt = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dump") == 0)
            dump = true;
        else if (strcmp(argv[i], "--print") == 0)
            print = true;
        else if (strcmp(argv[i], "--roundtrip") == 0)
            roundtrip = true;
        else if (strcmp(argv[i], "--load") == 0)
            load = true;
        else if (strcmp(argv[i], "--regions") == 0)
            regions = true;
        else if (strncmp(argv[i], "--igpu-short=", 13) == 0) {
            char *end;
            unsigned long v = strtoul(argv[i] + 13, &end, 10);
            if (*end || end == argv[i] + 13 || v < 1 || v > 100000) {
                fprintf(stderr, "ptxsim ptx: --igpu-short takes an instruction count from 1 to 100000\n");
                return 2;
            }
            ropt.short_limit = (uint32_t)v;
        } else if (strcmp(argv[i], "--igpu-alias=restrict") == 0)
            ropt.alias_conservative = false;
        else if (strcmp(argv[i], "--igpu-alias=conservative") == 0)
            ropt.alias_conservative = true;
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
        if (roundtrip && !check_roundtrip(m, path))
            rc = 1;
        if (regions && !print_regions(m, &ropt))
            rc = 1;
        if (load) {
            char err[4096];
            emu_module *em = emu_module_load(m, err, sizeof err);
            if (em) {
                /* and what ptxas would refuse, as the driver's load of the module does */
                if (rt_check_module_limits(m, em, err, sizeof err) != cudaSuccess) {
                    fprintf(stderr, "%s: %s\n", path, err);
                    rc = 1;
                }
                emu_module_unload(em);
            } else {
                fprintf(stderr, "%s\n", err);
                rc = 1;
            }
        }
        ptx_module_free(m);
    }
    ptx_diag_free(&diag);
    free(text);
    return rc;
}
