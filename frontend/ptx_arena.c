/* ptx_arena.c: the bump allocator that owns a module's IR, so freeing a module is one call.
 * Out of memory unwinds the parse (ptx_oom); the _try_ variant returns NULL instead, for code
 * that holds memory of its own that it must free first. */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

typedef struct ptx_chunk {
    struct ptx_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} ptx_chunk;

struct ptx_arena {
    ptx_chunk *head;
    void **adopted;        /* malloc'd blocks the arena frees with itself */
    size_t nadopted, capadopted;
};

enum { PTX_CHUNK_MIN = 64 * 1024 };

ptx_arena *ptx_arena_new(void)
{
    return calloc(1, sizeof(ptx_arena));
}

void ptx_arena_free(ptx_arena *a)
{
    if (!a)
        return;
    for (ptx_chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    for (size_t i = 0; i < a->nadopted; i++)
        free(a->adopted[i]);
    free(a->adopted);
    free(a);
}

void *ptx_arena_alloc(ptx_arena *a, size_t size)
{
    void *p = ptx_arena_alloc_raw(a, size);
    memset(p, 0, size);
    return p;
}

void *ptx_arena_adopt(ptx_arena *a, void *p, size_t size)
{
    if (!p)
        return ptx_arena_alloc(a, 1);
    /* Shrinking in place is cheap and returns the slack of the growth strategy. */
    void *q = realloc(p, size ? size : 1);
    if (q)
        p = q;
    if (a->nadopted == a->capadopted) {
        size_t cap = a->capadopted ? a->capadopted * 2 : 16;
        void **n = realloc(a->adopted, cap * sizeof *n);
        if (!n)
            ptx_oom();
        a->adopted = n;
        a->capadopted = cap;
    }
    a->adopted[a->nadopted++] = p;
    return p;
}

void *ptx_arena_alloc_raw(ptx_arena *a, size_t size)
{
    void *p = ptx_arena_try_alloc_raw(a, size);
    if (!p)
        ptx_oom();
    return p;
}

void *ptx_arena_try_alloc(ptx_arena *a, size_t size)
{
    void *p = ptx_arena_try_alloc_raw(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *ptx_arena_try_alloc_raw(ptx_arena *a, size_t size)
{
    if (size > SIZE_MAX - sizeof(ptx_chunk) - 32)
        return NULL;
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    ptx_chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > PTX_CHUNK_MIN / 4 ? size : PTX_CHUNK_MIN;
        ptx_chunk *n = malloc(sizeof(ptx_chunk) + cap);
        if (!n)
            return NULL;
        n->used = 0;
        n->cap = cap;
        /* Big one-off blocks go behind the current chunk so its free space is not lost. */
        if (c && cap == size) {
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            a->head = n;
        }
        c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

void *ptx_arena_dup(ptx_arena *a, const void *p, size_t size)
{
    void *q = ptx_arena_alloc_raw(a, size);
    if (size)
        memcpy(q, p, size);
    return q;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t len)
{
    char *q = ptx_arena_alloc_raw(a, len + 1);
    memcpy(q, s, len);
    q[len] = 0;
    return q;
}
