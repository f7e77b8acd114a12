/* run.c: `ptxsim run [options] [--] ./app args`: turns options into PTXSIM_* variables,
 * preloads the shims that sit next to this executable, and executes the program.
 *
 * One command for every kind of binary: a program built with `-cudart shared` finds the
 * runtime shim under the soname it asks for (libcudart.so.13, or .12 / .11.0 for a CUDA 12 /
 * 11 build); a program that links the runtime statically (nvcc's default) is redirected to the
 * preloaded shim by the shim's static attach (libcudart-shim/static_attach.c), which needs the
 * program's symbol table. The driver API shim (libcuda.so.1) and the NVRTC interposer are
 * preloaded too, so a program that links -lcuda or -lnvrtc (or loads them itself) gets
 * ptxsim's driver whatever its library path says; the shims' folder also goes first on
 * LD_LIBRARY_PATH. */
#include "cli/cli.h"
#include "runtime/rt.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void run_usage(FILE *out)
{
    fprintf(out, "usage: ptxsim run [OPTIONS] [--] ./app [ARGS]\n"
                 "options (see `ptxsim --help` for each one's meaning and default):\n");
    for (size_t i = 0; i < rt_option_count; i++) {
        const rt_option *o = &rt_options[i];
        fprintf(out, "  --%s%s%s%s\n", o->name, o->flag_value ? "[=" : "=",
                (o->kind == RT_OPT_CHOICE || o->kind == RT_OPT_LIST) ? o->choices
                : o->kind == RT_OPT_UINT ? "N"
                : o->kind == RT_OPT_BOOL ? "on|off"
                                          : "VALUE",
                o->flag_value ? "]" : "");
    }
}

/* The program execvp would run: `name` itself if it has a slash, else the first executable
 * match in PATH. Returns false (errno set) when there is none. */
static bool find_program(const char *name, char *path, size_t n)
{
    if (strchr(name, '/')) {
        snprintf(path, n, "%s", name);
        return access(path, F_OK) == 0;
    }
    const char *env = getenv("PATH");
    char *dirs = strdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
    if (!dirs)
        return false;
    bool found = false;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !found;
         d = strtok_r(NULL, ":", &save)) {
        snprintf(path, n, "%s/%s", *d ? d : ".", name);
        found = access(path, X_OK) == 0;
    }
    free(dirs);
    if (!found)
        errno = ENOENT;
    return found;
}

/* What the ELF file says about how it uses CUDA. */
typedef struct elf_facts {
    bool is_elf;
    bool has_fatbin;       /* a .nv_fatbin section: it carries device code */
    bool needs_cudart;     /* a DT_NEEDED libcudart.so.* */
    bool needs_cudart12;   /* ... namely libcudart.so.12 (a CUDA 12 build) */
    bool needs_cudart11;   /* ... namely libcudart.so.11.0 (a CUDA 11 build) */
    bool has_symtab;       /* not stripped: a static runtime can be redirected */
} elf_facts;

/* Reads the section names and dynamic entries of a 64-bit ELF file, checking every offset
 * against the file size (the file is the user's, not trusted). */
static elf_facts inspect_elf(const char *path)
{
    elf_facts f = {0};
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return f;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        return f;
    }
    size_t size = (size_t)st.st_size;
    const uint8_t *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return f;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)p;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
        goto done;
    f.is_elf = true;
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(p + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (names->sh_offset > size || names->sh_size > size - names->sh_offset)
        goto done;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name < names->sh_size) {
            const char *nm = (const char *)p + names->sh_offset + sh[i].sh_name;
            size_t room = names->sh_size - sh[i].sh_name;
            if (strnlen(nm, room) < room && strcmp(nm, ".nv_fatbin") == 0)
                f.has_fatbin = true;
        }
        if (sh[i].sh_type == SHT_SYMTAB)
            f.has_symtab = true;
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
            str->sh_offset > size || str->sh_size > size - str->sh_offset)
            continue;
        const Elf64_Dyn *dyn = (const Elf64_Dyn *)(p + sh[i].sh_offset);
        for (size_t j = 0; j < sh[i].sh_size / sizeof *dyn && dyn[j].d_tag != DT_NULL; j++) {
            if (dyn[j].d_tag != DT_NEEDED || dyn[j].d_un.d_val >= str->sh_size)
                continue;
            const char *lib = (const char *)p + str->sh_offset + dyn[j].d_un.d_val;
            size_t room = str->sh_size - dyn[j].d_un.d_val;
            if (strnlen(lib, room) < room && strncmp(lib, "libcudart.so", 12) == 0) {
                f.needs_cudart = true;
                f.needs_cudart12 = f.needs_cudart12 || strcmp(lib, "libcudart.so.12") == 0;
                f.needs_cudart11 = f.needs_cudart11 || strcmp(lib, "libcudart.so.11.0") == 0;
            }
        }
    }
done:
    munmap((void *)p, size);
    return f;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#include <link.h>
/* A sanitized build (make SAN=1 or TSAN=1) preloads a sanitized shim into programs that are
 * not: the sanitizer runtimes this very program uses must come first in LD_PRELOAD. */
static int sanitizer_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    char *list = data;
    const char *n = info->dlpi_name;
    if (n && (strstr(n, "/libasan.so") || strstr(n, "/libubsan.so") || strstr(n, "/libtsan.so"))) {
        size_t len = strlen(list);
        snprintf(list + len, PATH_MAX * 2 - len, "%s%s", len ? ":" : "", n);
    }
    return 0;
}
#endif

/* Sets NAME to `first` followed by its old value, ':'-separated. */
static int prepend_env(const char *name, const char *first)
{
    const char *old = getenv(name);
    if (!old || !*old)
        return setenv(name, first, 1);
    size_t n = strlen(first) + strlen(old) + 2;
    char *v = malloc(n);
    if (!v)
        return -1;
    snprintf(v, n, "%s:%s", first, old);
    int r = setenv(name, v, 1);
    free(v);
    return r;
}

/* Applies one option; `value` is NULL when written without '='. Returns the number of extra
 * arguments consumed (0 or 1), or -1 on error. */
static int apply_option(const char *arg, const char *next)
{
    char name[64];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= sizeof name) {
        fprintf(stderr, "ptxsim run: unknown option --%s (see ptxsim --help)\n", arg);
        return -1;
    }
    memcpy(name, arg, len);
    name[len] = 0;
    const char *value = eq ? eq + 1 : NULL;
    int used = 0;
    const rt_option *o = rt_option_find(name);
    if (!o && !value && strncmp(name, "no-", 3) == 0) {
        /* --no-timing */
        o = rt_option_find(name + 3);
        if (o && o->kind == RT_OPT_BOOL)
            value = "off";
        else
            o = NULL;
    }
    if (!o) {
        fprintf(stderr, "ptxsim run: unknown option --%s (see ptxsim --help)\n", name);
        return -1;
    }
    if (!value) {
        if (o->flag_value) {
            value = o->flag_value;
        } else if (next) {
            value = next;
            used = 1;
        } else {
            fprintf(stderr, "ptxsim run: --%s needs a value\n", name);
            return -1;
        }
    }
    char err[256];
    if (!rt_option_check(o, value, err, sizeof err)) {
        fprintf(stderr, "ptxsim run: --%s=%s: %s\n", name, value, err);
        return -1;
    }
    setenv(o->env, value, 1);
    return used;
}

int cli_run(int argc, char **argv)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            run_usage(stdout);
            return 0;
        }
        if (a[0] != '-')
            break;  /* the program */
        if (a[1] != '-') {
            fprintf(stderr, "ptxsim run: unknown option %s (see ptxsim --help)\n", a);
            return 2;
        }
        int used = apply_option(a + 2, i + 1 < argc ? argv[i + 1] : NULL);
        if (used < 0)
            return 2;
        i += used;
    }
    if (i >= argc) {
        fprintf(stderr, "ptxsim run: no program to run\n");
        run_usage(stderr);
        return 2;
    }
    const char *app = argv[i];
    /* The variables the program will see (set here or inherited) must all be carried out:
     * refuse now rather than let the shim stop the program. */
    char env_err[320];
    if (!rt_config_check_environment(env_err, sizeof env_err) ||
        !rt_config_check_files(env_err, sizeof env_err)) {
        fprintf(stderr, "ptxsim run: %s\n", env_err);
        return 2;
    }

    char path[PATH_MAX];
    if (!find_program(app, path, sizeof path)) {
        fprintf(stderr, "ptxsim run: cannot run '%s': %s\n", app, strerror(errno));
        return 127;
    }
    elf_facts ef = inspect_elf(path);
    if (ef.is_elf && ef.has_fatbin && !ef.needs_cudart && !ef.has_symtab) {
        fprintf(stderr,
                "ptxsim run: '%s' links the CUDA runtime statically (nvcc's default) and has no "
                "symbol table (it was stripped), so ptxsim cannot take the runtime's place; "
                "rebuild it with `nvcc -cudart shared`, or without stripping it\n",
                app);
        return 1;
    }

    /* The shim is installed beside this executable: <prefix>/bin/ptxsim, <prefix>/lib/. */
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "ptxsim run: cannot find my own executable: %s\n", strerror(errno));
        return 1;
    }
    self[n] = 0;
    char *prefix = dirname(dirname(self));
    char libdir[PATH_MAX + 8], shim[PATH_MAX + 32], real[PATH_MAX];
    snprintf(libdir, sizeof libdir, "%s/lib", prefix);
    if (realpath(libdir, real))
        snprintf(libdir, sizeof libdir, "%s", real);
    /* Preload the shim under the soname the program asks for, so that one copy of the runtime
     * serves it; both sit in libdir, which goes on the library path. */
    snprintf(shim, sizeof shim, "%s/libcudart.so.%s", libdir,
             ef.needs_cudart12 ? "12" : ef.needs_cudart11 ? "11.0" : "13");
    char driver[PATH_MAX + 32], nvrtc[PATH_MAX + 32];
    snprintf(driver, sizeof driver, "%s/libcuda.so.1", libdir);
    snprintf(nvrtc, sizeof nvrtc, "%s/libptxsim-nvrtc.so", libdir);
    const char *const needed[] = {shim, driver, nvrtc};
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++)
        if (access(needed[k], R_OK) != 0) {
            fprintf(stderr, "ptxsim run: %s is missing (build it with `make`)\n", needed[k]);
            return 1;
        }
    char preload[PATH_MAX * 4 + 128] = "";
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    dl_iterate_phdr(sanitizer_runtime, preload);
#endif
    size_t pl = strlen(preload);
    snprintf(preload + pl, sizeof preload - pl, "%s%s:%s:%s", pl ? ":" : "", shim, driver, nvrtc);
    if (prepend_env("LD_PRELOAD", preload) != 0 || prepend_env("LD_LIBRARY_PATH", libdir) != 0) {
        fprintf(stderr, "ptxsim run: cannot set the environment: %s\n", strerror(errno));
        return 1;
    }
    execv(path, argv + i);
    int err = errno;
    fprintf(stderr, "ptxsim run: cannot run '%s': %s\n", app, strerror(err));
    return err == ENOENT ? 127 : 126;
}
