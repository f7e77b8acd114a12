/* texture.c: the texture and surface objects kernels name by handle.
 *
 * A handle is an index into a table that only grows (a destroyed slot is never reused), so a
 * stale handle from a destroyed object is recognised as such rather than aliasing a newer
 * object. Lookups copy the description out under a read lock: warps of several host threads
 * read it at once, and the runtime may create objects while kernels of other streams run.
 */
#include "emulator/emu_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Handles start here so that a texture object is never 0 (cudaTextureObject_t 0 means none)
 * and small integers passed by mistake are not taken for objects. */
#define HANDLE_BASE UINT64_C(0x100)

static struct {
    pthread_rwlock_t lock;
    emu_texture **slot;
    uint64_t n, cap;
} reg = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static bool valid(const emu_texture *t)
{
    if (!t || t->dims < 1 || t->dims > 3 || t->nchan < 1 || t->nchan > 4) return false;
    if (t->nlevels < 1 || t->nlevels > EMU_TEX_MAX_LEVELS) return false;
    unsigned bytes = 0;
    for (int i = 0; i < t->nchan; i++) {
        if (t->bits[i] != 8 && t->bits[i] != 16 && t->bits[i] != 32) return false;
        bytes += t->bits[i] / 8;
    }
    if (t->kind == EMU_TEXEL_FLOAT)
        for (int i = 0; i < t->nchan; i++)
            if (t->bits[i] == 8) return false;
    if (bytes != t->elem) return false;
    if ((t->layered || t->cubemap) && t->layers == 0) return false;
    for (uint32_t l = 0; l < t->nlevels; l++) {
        const emu_tex_level *v = &t->level[l];
        if (!v->base || !v->width || !v->height || !v->depth) return false;
    }
    return true;
}

uint64_t emu_texture_create(const emu_texture *t)
{
    if (!valid(t)) return 0;
    emu_texture *copy = malloc(sizeof *copy);
    if (!copy) return 0;
    *copy = *t;
    pthread_rwlock_wrlock(&reg.lock);
    uint64_t h = 0;
    if (reg.n == reg.cap) {
        uint64_t nc = reg.cap ? reg.cap * 2 : 64;
        emu_texture **ns = realloc(reg.slot, nc * sizeof *ns);
        if (ns) {
            reg.slot = ns;
            reg.cap = nc;
        }
    }
    if (reg.n < reg.cap) {
        reg.slot[reg.n] = copy;
        h = HANDLE_BASE + reg.n++;
    }
    pthread_rwlock_unlock(&reg.lock);
    if (!h) free(copy);
    return h;
}

static emu_texture **slot_of(uint64_t handle)
{
    if (handle < HANDLE_BASE || handle - HANDLE_BASE >= reg.n) return NULL;
    return &reg.slot[handle - HANDLE_BASE];
}

bool emu_texture_destroy(uint64_t handle)
{
    pthread_rwlock_wrlock(&reg.lock);
    emu_texture **s = slot_of(handle);
    bool ok = s && *s;
    if (ok) {
        free(*s);
        *s = NULL;
    }
    pthread_rwlock_unlock(&reg.lock);
    return ok;
}

bool emu_texture_get(uint64_t handle, emu_texture *out)
{
    pthread_rwlock_rdlock(&reg.lock);
    emu_texture **s = slot_of(handle);
    bool ok = s && *s;
    if (ok && out) *out = **s;
    pthread_rwlock_unlock(&reg.lock);
    return ok;
}

void emu_texture_release_all(void)
{
    pthread_rwlock_wrlock(&reg.lock);
    for (uint64_t i = 0; i < reg.n; i++) {
        free(reg.slot[i]);
        reg.slot[i] = NULL;
    }
    pthread_rwlock_unlock(&reg.lock);
}
