/* ptx_arena.c: the bump allocator that owns a module's IR, so freeing a module is one call. */
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
    free(a);
}

void *ptx_arena_alloc(ptx_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    ptx_chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > PTX_CHUNK_MIN / 4 ? size : PTX_CHUNK_MIN;
        ptx_chunk *n = malloc(sizeof(ptx_chunk) + cap);
        if (!n) {
            fputs("ptxsim: out of memory while parsing PTX\n", stderr);
            abort();
        }
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
    memset(p, 0, size);
    return p;
}

void *ptx_arena_dup(ptx_arena *a, const void *p, size_t size)
{
    void *q = ptx_arena_alloc(a, size);
    if (size)
        memcpy(q, p, size);
    return q;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t len)
{
    char *q = ptx_arena_alloc(a, len + 1);
    memcpy(q, s, len);
    q[len] = 0;
    return q;
}
