/* context.c: CUDA contexts as the driver API shows them, shared with the runtime API.
 *
 * The one device has a primary context (the one the runtime API uses) and any number of
 * contexts a program creates with cuCtxCreate; each host thread has a stack of current
 * contexts. A runtime API call on a thread with no current context makes the primary context
 * current, as CUDA does, so a program may mix both APIs freely.
 *
 * Every context shares the device: its memory, modules, streams and the device worker. What
 * a context owns is what was allocated or loaded while it was current: destroying it (or the
 * last release of the primary context by a program that never used the runtime API) frees
 * that. A kernel fault poisons the device as a whole, not one context: ptxsim has one
 * device-wide sticky error.
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>

#define CONTEXT_MAGIC 0x63747874u  /* "ctxt" */
#define MAX_STACK 64

struct rt_context {
    uint32_t magic;
    bool primary;
    unsigned flags;
    unsigned long long id;
};

static rt_context primary_ctx = {.magic = CONTEXT_MAGIC, .primary = true, .id = 1};
static struct {
    unsigned retained;          /* cuDevicePrimaryCtxRetain less Release */
    bool runtime_uses;          /* the runtime API has made it current */
} primary_state;
static rt_context **created;
static size_t ncreated, cap_created;
static unsigned long long next_id = 2;

static _Thread_local rt_context *stack[MAX_STACK];
static _Thread_local unsigned depth;

rt_context *rt_ctx_primary(void)
{
    return &primary_ctx;
}

static bool live(const rt_context *c)
{
    if (c == &primary_ctx)
        return true;
    for (size_t i = 0; c && i < ncreated; i++)
        if (created[i] == c)
            return true;
    return false;
}

bool rt_ctx_live(const rt_context *c)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    bool ok = live(c);
    pthread_mutex_unlock(&rt_g.lock);
    return ok;
}

rt_context *rt_ctx_current(void)
{
    return depth ? stack[depth - 1] : NULL;
}

rt_context *rt_ctx_owner(void)
{
    return depth ? stack[depth - 1] : &primary_ctx;
}

void rt_ctx_bind_runtime(void)
{
    if (depth)
        return;
    stack[depth++] = &primary_ctx;
    primary_state.runtime_uses = true;
}

unsigned rt_ctx_flags(const rt_context *c)
{
    return c == &primary_ctx ? rt_g.device_flags : c->flags;
}

unsigned long long rt_ctx_id(const rt_context *c)
{
    return c->id;
}

bool rt_ctx_is_primary(const rt_context *c)
{
    return c == &primary_ctx;
}

cudaError_t rt_ctx_push(rt_context *c)
{
    if (!rt_ctx_live(c))
        return cudaErrorInvalidValue;
    if (depth == MAX_STACK)
        return rt_api_error(cudaErrorInvalidValue, "cuCtxPushCurrent",
                            "more than %d contexts pushed on one thread", MAX_STACK);
    stack[depth++] = c;
    return cudaSuccess;
}

cudaError_t rt_ctx_pop(rt_context **out)
{
    if (!depth)
        return cudaErrorInvalidValue;
    rt_context *c = stack[--depth];
    if (out)
        *out = c;
    return cudaSuccess;
}

cudaError_t rt_ctx_set_current(rt_context *c)
{
    if (!c) {
        if (depth)
            depth--;
        return cudaSuccess;
    }
    if (!rt_ctx_live(c))
        return cudaErrorInvalidValue;
    if (depth)
        stack[depth - 1] = c;
    else
        stack[depth++] = c;
    return cudaSuccess;
}

cudaError_t rt_ctx_create(rt_context **out, unsigned flags)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_context *c = calloc(1, sizeof *c);
    if (!c)
        return rt_end(cudaErrorMemoryAllocation);
    if (ncreated == cap_created) {
        size_t ncap = cap_created ? cap_created * 2 : 8;
        rt_context **a = realloc(created, ncap * sizeof *a);
        if (!a) {
            free(c);
            return rt_end(cudaErrorMemoryAllocation);
        }
        created = a;
        cap_created = ncap;
    }
    c->magic = CONTEXT_MAGIC;
    c->flags = flags;
    c->id = next_id++;
    created[ncreated++] = c;
    pthread_mutex_unlock(&rt_g.lock);
    if (depth == MAX_STACK) {
        rt_ctx_destroy(c);
        return cudaErrorInvalidValue;
    }
    stack[depth++] = c;
    *out = c;
    return cudaSuccess;
}

/* Frees what a context owns. Lock held; the device is idle. */
static void release_owned(rt_context *c)
{
    rt_modules_release_owner(c);
    rt_memory_release_owner(c);
}

cudaError_t rt_ctx_destroy(rt_context *c)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    if (c == &primary_ctx || !live(c)) {
        pthread_mutex_unlock(&rt_g.lock);
        return cudaErrorInvalidValue;
    }
    rt_wait_idle();
    release_owned(c);
    for (size_t i = 0; i < ncreated; i++)
        if (created[i] == c) {
            created[i] = created[--ncreated];
            break;
        }
    pthread_mutex_unlock(&rt_g.lock);
    /* Off this thread's stack; another thread that still has it current gets
     * CUDA_ERROR_INVALID_CONTEXT from its next call. */
    unsigned w = 0;
    for (unsigned r = 0; r < depth; r++)
        if (stack[r] != c)
            stack[w++] = stack[r];
    depth = w;
    c->magic = 0;
    free(c);
    return cudaSuccess;
}

/* ---------------------------------------------------------------- the primary context */

void rt_primary_retain(void)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    primary_state.retained++;
    pthread_mutex_unlock(&rt_g.lock);
}

cudaError_t rt_primary_release(void)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    if (!primary_state.retained) {
        pthread_mutex_unlock(&rt_g.lock);
        return cudaErrorInvalidValue;  /* CUDA_ERROR_INVALID_CONTEXT in the driver's words */
    }
    /* The last release destroys it: what it owned is freed (the runtime keeps its own
     * reference, so a program that used the runtime API keeps its context). */
    if (--primary_state.retained == 0 && !primary_state.runtime_uses) {
        rt_wait_idle();
        release_owned(&primary_ctx);
    }
    pthread_mutex_unlock(&rt_g.lock);
    return cudaSuccess;
}

void rt_primary_state(unsigned *flags, int *active)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    if (flags)
        *flags = rt_g.device_flags;
    if (active)
        *active = primary_state.retained || primary_state.runtime_uses;
    pthread_mutex_unlock(&rt_g.lock);
}

cudaError_t rt_ctx_set_flags(rt_context *c, unsigned flags)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    cudaError_t e = live(c) ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        if (c == &primary_ctx)
            rt_g.device_flags = flags;
        else
            c->flags = flags;
    }
    pthread_mutex_unlock(&rt_g.lock);
    return e;
}
