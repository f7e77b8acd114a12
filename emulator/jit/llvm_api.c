/* llvm_api.c: opens libLLVM when the JIT first needs it and fills llvm_api (llvm_api.h says
 * why nothing links it). */
#define LLVM_API_NO_REDIRECT
#include "emulator/jit/llvm_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if !defined(PTXSIM_LLVM_SONAME) || !defined(PTXSIM_LLVM_PATH)
#error "the Makefile passes libLLVM's soname and path as PTXSIM_LLVM_SONAME, PTXSIM_LLVM_PATH"
#endif

llvm_api_table llvm_api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[512];

#define LLVM_API_NAME_(f) #f
#define LLVM_API_NAME(f) LLVM_API_NAME_(f)

static void load(void)
{
    /* RTLD_LOCAL: the library's symbols serve only the pointers below; RTLD_NODELETE: code it
     * compiled and its static objects live until exit, as when it was linked */
    void *h = dlopen(PTXSIM_LLVM_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h)     /* an LLVM outside the loader's search path: where the build found it */
        h = dlopen(PTXSIM_LLVM_PATH, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        snprintf(load_error, sizeof load_error, "cannot load %s: %s", PTXSIM_LLVM_SONAME,
                 dlerror());
        return;
    }
    const char *missing = NULL;
#define LLVM_API_FIND(f)                                                              \
    if (!missing) {                                                                   \
        *(void **)&llvm_api.f = dlsym(h, LLVM_API_NAME(f));                           \
        if (!llvm_api.f) missing = LLVM_API_NAME(f);                                  \
    }
    LLVM_API_FUNCTIONS(LLVM_API_FIND)
    LLVM_API_NATIVE(LLVM_API_FIND)
#undef LLVM_API_FIND
    if (missing) {
        snprintf(load_error, sizeof load_error, "%s has no %s", PTXSIM_LLVM_SONAME, missing);
        memset(&llvm_api, 0, sizeof llvm_api);
        return;
    }
    loaded = true;
}

bool llvm_api_load(char *err, size_t errlen)
{
    pthread_once(&load_once, load);
    if (!loaded && err && errlen) snprintf(err, errlen, "%s", load_error);
    return loaded;
}
