/* ptx_demangle.c: readable names of C++ kernels and functions ("kernel(int*)" for
 * "_Z6kernelPi"), as compute-sanitizer and the runtime's messages show them. The demangling is
 * libstdc++'s __cxa_demangle: the one a C++ program has loaded, else libstdc++ loaded on first
 * use (a C host program); no link-time dependency. */
#include "frontend/ptx.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void find_demangler(void)
{
    void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!f) {
        void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (lib) f = dlsym(lib, "__cxa_demangle");
    }
    /* POSIX lets a data pointer from dlsym become a function pointer */
    memcpy(&cxa_demangle, &f, sizeof f);
}

char *ptx_demangle(const char *name)
{
    if (!name) return NULL;
    if (strncmp(name, "_Z", 2) == 0) {
        pthread_once(&cxa_once, find_demangler);
        if (cxa_demangle) {
            int status = -1;
            char *d = cxa_demangle(name, NULL, NULL, &status);
            if (d && status == 0) return d;
            free(d);
        }
    }
    return strdup(name);
}
