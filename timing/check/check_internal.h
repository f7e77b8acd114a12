/* check_internal.h: the correctness checks of `--check` (racecheck, initcheck, synccheck,
 * memcheck), shared by their files. The public interface is in timing/timing.h. */
#ifndef PTXSIM_TIMING_CHECK_INTERNAL_H
#define PTXSIM_TIMING_CHECK_INTERNAL_H

#include "timing/timing.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- vector clocks
 * Sparse: (warp, clock) pairs sorted by warp. A warp is named by its global id + 1
 * (CTA linear id x warps per CTA + warp index + 1), so 0 names nobody. */
typedef struct ck_tick { uint64_t warp; uint32_t clock; } ck_tick;
typedef struct ck_vc { ck_tick *t; uint32_t n, cap; } ck_vc;

uint32_t ck_vc_get(const ck_vc *v, uint64_t warp);
/* v[warp] = max(v[warp], clock); false when out of memory */
bool ck_vc_raise(ck_vc *v, uint64_t warp, uint32_t clock);
/* v = v join w */
bool ck_vc_join(ck_vc *v, const ck_vc *w);
void ck_vc_clear(ck_vc *v);
void ck_vc_free(ck_vc *v);

/* ---------------------------------------------------------------- hazards found */

typedef enum ck_hazard_kind {
    CK_RACE_WW, CK_RACE_WR, CK_RACE_RW,   /* first access, then the second: write-write, ... */
    CK_UNINIT_READ,                        /* initcheck: a read of bytes never written */
    CK_SYNC_DIVERGENT,                     /* synccheck: one barrier instance, several lines */
    CK_SYNC_WARP_MASK,                     /* synccheck: a member mask names absent lanes */
    CK_SYNC_BAD_COUNT,                     /* synccheck: thread counts of one barrier differ */
    CK_KINDS
} ck_hazard_kind;

/* One side of a hazard: where and by whom. */
typedef struct ck_site {
    uint16_t func;
    uint32_t pc;
    emu_dim3 block, thread;
} ck_site;

/* A site resolved for reports: "kernel k(int*) (PTX line 42, k.cu:17)", the PTX line, and the
 * source file and line of the .loc before it (file NULL when there is none). */
typedef struct ck_where {
    char *text;
    uint32_t ptx_line, src_line;
    char *src_file;
} ck_where;

/* The process's hazards, one entry per (kind, space, pair of instructions), with the count of
 * instances and the first instance's details. */
typedef struct ck_hazard {
    uint8_t kind, space;
    uint32_t launch;          /* index of the launch that first saw it */
    char *kernel;
    ck_site first, second;    /* first: the earlier access (races), the only site otherwise */
    ck_where wfirst, wsecond;
    bool has_second;
    uint64_t address;
    uint64_t count;
    bool printed;
    char detail[160];
} ck_hazard;

struct timing_check {
    unsigned kinds;
    pthread_mutex_t lock;     /* the hazard table */
    ck_hazard *haz;
    size_t nhaz, caphaz;
    uint64_t memcheck_errors;
    uint32_t launches;
    struct ck_launch *cur;    /* the launch running now (launches run one at a time) */
    struct ck_initmap *init;  /* initcheck: bytes of device allocations never written */
};

/* Where site s is, for people and tools (text and file malloc'd). */
ck_where ck_resolve(const ptx_module *m, const char *kernel, const ck_site *s);

/* Records an instance of a hazard (thread-safe). */
void ck_hazard_note(timing_check *c, const struct ck_launch *K, ck_hazard_kind kind,
                    uint8_t space, const ck_site *first, const ck_site *second,
                    uint64_t address, const char *detail);
/* Prints the hazards first seen in launch `launch` (compute-sanitizer's shape) on out. */
void ck_print_new(timing_check *c, FILE *out);

/* ---------------------------------------------------------------- initcheck's map */
typedef struct ck_initmap ck_initmap;
ck_initmap *ck_initmap_create(void);
void ck_initmap_destroy(ck_initmap *m);
/* [addr, addr+n) becomes uninitialised (an allocation) or initialised (a write). */
void ck_initmap_set(ck_initmap *m, uint64_t addr, uint64_t n, bool initialised);
/* The first uninitialised byte of [addr, addr+n), or false when every byte is initialised. */
bool ck_initmap_first_uninit(ck_initmap *m, uint64_t addr, uint64_t n, uint64_t *first);
/* The same for the pieces of one memory operation, between ck_initmap_op_begin and _end (one
 * lock for the whole operation). */
void ck_initmap_op_begin(ck_initmap *m);
void ck_initmap_op_end(ck_initmap *m);
void ck_initmap_mark_in_op(ck_initmap *m, uint64_t addr, uint64_t n);
bool ck_initmap_first_in_op(ck_initmap *m, uint64_t addr, uint64_t n, uint64_t *first);

/* ---------------------------------------------------------------- one launch */
struct ck_launch;
/* The launch's identity for reports. */
const ptx_module *ck_launch_ptx(const struct ck_launch *K);
const char *ck_launch_kernel(const struct ck_launch *K);
uint32_t ck_launch_index(const struct ck_launch *K);

#endif
