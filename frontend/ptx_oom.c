/* ptx_oom.c: running out of host memory in the middle of a parse.
 *
 * The scanner, the grammar and the builder allocate at hundreds of places; checking each would
 * bury the parser in error paths, and a parse that cannot finish has nothing to keep anyway.
 * So an allocation that fails calls ptx_oom(), which unwinds to the innermost entry point that
 * set up a frame (ptx_parse, ptx_lex_tokens); that entry point frees everything the parse made
 * (the builder owns all of it, the scanner and bison's stack are tracked here) and reports "out
 * of memory" as an error of the module, so the program gets cudaErrorInvalidPtx instead of a
 * dead process. Frames are per thread: several threads may parse at once.
 */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local ptx_oom_frame *current;

/* Bison's stack (and its message buffer) as it grows past its initial depth: at most a few
 * blocks are live at once; freed here when a parse unwinds. */
#define MAX_YY_BLOCKS 8
static _Thread_local void *yy_blocks[MAX_YY_BLOCKS];

void ptx_oom_push(ptx_oom_frame *f)
{
    f->prev = current;
    current = f;
}

void ptx_oom_pop(ptx_oom_frame *f)
{
    current = f->prev;
}

void ptx_oom(void)
{
    ptx_oom_frame *f = current;
    if (!f) {
        /* Unreachable by construction: every frontend entry point that allocates through here
         * sets up a frame. Kept as a clear last word rather than a crash on a NULL pointer. */
        fputs("ptxsim: out of memory in the PTX frontend outside a parse\n", stderr);
        abort();
    }
    current = f->prev;
    for (int i = 0; i < MAX_YY_BLOCKS; i++) {
        free(yy_blocks[i]);
        yy_blocks[i] = NULL;
    }
    longjmp(f->jb, 1);
}

void *ptx_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        ptx_oom();
    return p;
}

void *ptx_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        ptx_oom();
    return p;
}

void *ptx_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        ptx_oom();
    return q;
}

void *ptx_yy_alloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        return NULL;   /* bison reports "memory exhausted" itself */
    for (int i = 0; i < MAX_YY_BLOCKS; i++)
        if (!yy_blocks[i]) {
            yy_blocks[i] = p;
            return p;
        }
    free(p);   /* more live blocks than bison ever keeps: treat as exhausted */
    return NULL;
}

void ptx_yy_free(void *p)
{
    for (int i = 0; i < MAX_YY_BLOCKS; i++)
        if (yy_blocks[i] == p)
            yy_blocks[i] = NULL;
    free(p);
}
