/* gpu_model.c: the GPU ptxsim poses as (--gpu / PTXSIM_GPU): one of the descriptions built in
 * (timing/configs/NAME.gpu, by name), or a description file of the user's (a value with a '/'
 * in it: a copy of one of those, changed), read and checked once. */
#include "runtime/rt_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rt_gpu_is_path(const char *value)
{
    return strchr(value, '/') != NULL;
}

bool rt_gpu_read_file(const char *path, timing_gpu *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read the GPU description %s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    for (size_t got = 1; text && got;) {
        if (n + 1 == cap) {
            char *t = cap < (1u << 20) ? realloc(text, cap *= 2) : NULL;
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
        }
        got = fread(text + n, 1, cap - 1 - n, f);
        n += got;
    }
    /* a folder opens, and its read fails (EISDIR): name that, not the empty text's first gap */
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (read_errno) {
        free(text);
        snprintf(err, errlen, "cannot read the GPU description %s: %s", path, strerror(read_errno));
        return false;
    }
    if (!text) {
        snprintf(err, errlen, "%s: too large or out of memory", path);
        return false;
    }
    text[n] = 0;
    /* its name is the file's, without the folder and .gpu */
    const char *base = strrchr(path, '/') + 1;
    char name[128];
    snprintf(name, sizeof name, "%s", base);
    size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, ".gpu") == 0) name[len - 4] = 0;
    bool ok = timing_gpu_parse(name, text, out, err, errlen);
    free(text);
    return ok;
}

static timing_gpu user_gpu;
static bool user_ok;
static pthread_once_t user_once = PTHREAD_ONCE_INIT;
static const char *user_path;

static void load_user(void)
{
    char err[256];
    user_ok = rt_gpu_read_file(user_path, &user_gpu, err, sizeof err);
    if (!user_ok) fprintf(stderr, "ptxsim: %s\n", err);
}

const rt_gpu_model *rt_gpu_model_find(const char *name)
{
    if (!rt_gpu_is_path(name)) return timing_gpu_find(name);
    /* the runtime has one GPU for the process: the first path asked for is the one */
    if (!user_path) user_path = name;
    pthread_once(&user_once, load_user);
    return user_ok ? &user_gpu : NULL;
}
