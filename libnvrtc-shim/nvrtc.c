/* nvrtc.c: the NVRTC interposer. `ptxsim run` preloads this library; it forwards every call it
 * defines to the toolkit's libnvrtc (the next definition in the lookup order), so programs
 * compile their kernels with NVIDIA's own compiler, on the host.
 *
 * Why interpose at all: ptxsim runs PTX, and a program that compiles for a real architecture
 * (-arch=sm_80, as NVIDIA's samples do for the device they find) gets a cubin, SASS only. So
 * when such a compilation succeeds, the same program (source, headers, name expressions) is
 * compiled once more for the matching virtual architecture (compute_80), and its PTX is handed
 * to the runtime keyed by the cubin's bytes when the program fetches the cubin
 * (rt_register_cubin_ptx); cuModuleLoadData on that cubin then loads the PTX. The program
 * sees NVRTC's real results throughout.
 */
#include "runtime/rt.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a program was made of, to compile its twin. */
typedef struct program {
    nvrtcProgram prog;
    char *src, *name;
    int nheaders;
    char **headers, **include_names;
    char **exprs;
    size_t nexprs;
    char *ptx;                  /* the twin's PTX, once compiled for a real architecture */
} program;

static program *programs;
static size_t nprograms, cap_programs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The toolkit's function `name`: the definition after this library's. */
static void *real(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    if (!fn)
        fprintf(stderr, "ptxsim: %s: the toolkit's libnvrtc is not loaded\n", name);
    return fn;
}

#define REAL(name) ((__typeof__(&name))real(#name))

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void free_program(program *p)
{
    free(p->src);
    free(p->name);
    for (int i = 0; i < p->nheaders; i++) {
        free(p->headers ? p->headers[i] : NULL);
        free(p->include_names ? p->include_names[i] : NULL);
    }
    free(p->headers);
    free(p->include_names);
    for (size_t i = 0; i < p->nexprs; i++)
        free(p->exprs[i]);
    free(p->exprs);
    free(p->ptx);
}

/* The record of prog, or NULL. Lock held. */
static program *find(nvrtcProgram prog)
{
    for (size_t i = 0; i < nprograms; i++)
        if (programs[i].prog == prog)
            return &programs[i];
    return NULL;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
                               int numHeaders, const char *const *headers,
                               const char *const *includeNames)
{
    __typeof__(&nvrtcCreateProgram) create = REAL(nvrtcCreateProgram);
    if (!create)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = create(prog, src, name, numHeaders, headers, includeNames);
    if (r != NVRTC_SUCCESS || !prog || !src)
        return r;
    program p = {.prog = *prog, .src = strdup(src), .name = dup_or_null(name)};
    if (numHeaders > 0 && headers) {
        p.headers = calloc((size_t)numHeaders, sizeof *p.headers);
        p.include_names = calloc((size_t)numHeaders, sizeof *p.include_names);
        if (p.headers && p.include_names) {
            p.nheaders = numHeaders;
            for (int i = 0; i < numHeaders; i++) {
                p.headers[i] = dup_or_null(headers[i]);
                p.include_names[i] = dup_or_null(includeNames ? includeNames[i] : NULL);
            }
        }
    }
    pthread_mutex_lock(&lock);
    if (nprograms == cap_programs) {
        size_t ncap = cap_programs ? cap_programs * 2 : 8;
        program *a = realloc(programs, ncap * sizeof *a);
        if (a) {
            programs = a;
            cap_programs = ncap;
        }
    }
    if (p.src && nprograms < cap_programs)
        programs[nprograms++] = p;
    else
        free_program(&p);  /* without a record the cubin cannot be run, nothing else changes */
    pthread_mutex_unlock(&lock);
    return r;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
    __typeof__(&nvrtcDestroyProgram) destroy = REAL(nvrtcDestroyProgram);
    if (!destroy)
        return NVRTC_ERROR_INTERNAL_ERROR;
    if (prog) {
        pthread_mutex_lock(&lock);
        program *p = find(*prog);
        if (p) {
            free_program(p);
            *p = programs[--nprograms];
        }
        pthread_mutex_unlock(&lock);
    }
    return destroy(prog);
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression)
{
    __typeof__(&nvrtcAddNameExpression) add = REAL(nvrtcAddNameExpression);
    if (!add)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = add(prog, name_expression);
    if (r != NVRTC_SUCCESS || !name_expression)
        return r;
    pthread_mutex_lock(&lock);
    program *p = find(prog);
    char **e = p ? realloc(p->exprs, (p->nexprs + 1) * sizeof *e) : NULL;
    if (e) {
        p->exprs = e;
        if ((e[p->nexprs] = strdup(name_expression)))
            p->nexprs++;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* The architecture an option names: "sm_80" for -arch=sm_80, --gpu-architecture=sm_80 or
 * -arch sm_80 (with the next option), else NULL. */
static const char *arch_value(const char *opt, const char *next, bool *uses_next)
{
    static const char *const spellings[] = {"-arch", "--gpu-architecture"};
    *uses_next = false;
    for (size_t i = 0; i < 2; i++) {
        size_t n = strlen(spellings[i]);
        if (strncmp(opt, spellings[i], n) != 0)
            continue;
        if (opt[n] == '=')
            return opt + n + 1;
        if (opt[n] == 0 && next) {
            *uses_next = true;
            return next;
        }
    }
    return NULL;
}

/* The twin's options: a real architecture sm_XX[a|f] becomes compute_XX[a|f]; true when the
 * original named one (so it made a cubin). The strings are in buf (owned by the caller). */
static bool twin_options(int n, const char *const *options, const char **out, char *buf,
                         size_t buflen)
{
    bool real_arch = false;
    for (int i = 0; i < n; i++) {
        out[i] = options[i];
        if (strcmp(options[i], "-dlto") == 0 || strcmp(options[i], "--dlink-time-opt") == 0)
            return false;  /* LTO IR, not a cubin */
        bool uses_next;
        const char *v = arch_value(options[i], i + 1 < n ? options[i + 1] : NULL, &uses_next);
        if (!v || strncmp(v, "sm_", 3) != 0)
            continue;
        snprintf(buf, buflen, "--gpu-architecture=compute_%s", v + 3);
        out[i] = buf;
        if (uses_next)
            out[++i] = "-w";  /* the value was merged above; an option without effect here */
        real_arch = true;
    }
    return real_arch;
}

/* Compiles p's twin for the virtual architecture; its PTX, or NULL. */
static char *compile_twin(const program *p, int n, const char *const *options)
{
    __typeof__(&nvrtcCreateProgram) create = REAL(nvrtcCreateProgram);
    __typeof__(&nvrtcAddNameExpression) add = REAL(nvrtcAddNameExpression);
    __typeof__(&nvrtcCompileProgram) compile = REAL(nvrtcCompileProgram);
    __typeof__(&nvrtcGetPTXSize) ptx_size = REAL(nvrtcGetPTXSize);
    __typeof__(&nvrtcGetPTX) get_ptx = REAL(nvrtcGetPTX);
    __typeof__(&nvrtcDestroyProgram) destroy = REAL(nvrtcDestroyProgram);
    if (!create || !add || !compile || !ptx_size || !get_ptx || !destroy)
        return NULL;
    const char **opts = calloc((size_t)(n > 0 ? n : 1), sizeof *opts);
    char arch[64];
    if (!opts)
        return NULL;
    char *ptx = NULL;
    nvrtcProgram twin;
    if (twin_options(n, options, opts, arch, sizeof arch) &&
        create(&twin, p->src, p->name, p->nheaders, (const char *const *)p->headers,
               (const char *const *)p->include_names) == NVRTC_SUCCESS) {
        bool ok = true;
        for (size_t i = 0; i < p->nexprs && ok; i++)
            ok = add(twin, p->exprs[i]) == NVRTC_SUCCESS;
        size_t size = 0;
        if (ok && compile(twin, n, opts) == NVRTC_SUCCESS &&
            ptx_size(twin, &size) == NVRTC_SUCCESS && (ptx = malloc(size + 1)) != NULL) {
            if (get_ptx(twin, ptx) == NVRTC_SUCCESS) {
                ptx[size] = 0;
            } else {
                free(ptx);
                ptx = NULL;
            }
        }
        destroy(&twin);
    }
    free(opts);
    return ptx;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options)
{
    __typeof__(&nvrtcCompileProgram) compile = REAL(nvrtcCompileProgram);
    if (!compile)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = compile(prog, numOptions, options);
    if (r != NVRTC_SUCCESS)
        return r;
    pthread_mutex_lock(&lock);
    program *p = find(prog);
    program copy = p ? *p : (program){0};
    pthread_mutex_unlock(&lock);
    if (!p)
        return r;
    /* Compiled outside the lock (it takes a while); the record is read-only meanwhile unless
     * the program destroys it from another thread at the same time, which NVRTC forbids. */
    char *ptx = compile_twin(&copy, numOptions, options);
    pthread_mutex_lock(&lock);
    p = find(prog);
    if (p) {
        free(p->ptx);
        p->ptx = ptx;
        ptx = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(ptx);
    return r;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    __typeof__(&nvrtcGetCUBIN) get = REAL(nvrtcGetCUBIN);
    __typeof__(&nvrtcGetCUBINSize) get_size = REAL(nvrtcGetCUBINSize);
    if (!get || !get_size)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = get(prog, cubin);
    size_t size = 0;
    if (r != NVRTC_SUCCESS || !cubin || get_size(prog, &size) != NVRTC_SUCCESS)
        return r;
    pthread_mutex_lock(&lock);
    program *p = find(prog);
    char *ptx = p && p->ptx ? strdup(p->ptx) : NULL;
    pthread_mutex_unlock(&lock);
    if (ptx)
        rt_register_cubin_ptx(cubin, size, ptx);
    free(ptx);
    return r;
}
