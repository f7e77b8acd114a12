/* proc_table.h: the driver's versioned entry points (proc_table.c), for cuGetProcAddress. */
#ifndef PTXSIM_DRIVER_PROC_TABLE_H
#define PTXSIM_DRIVER_PROC_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct drv_proc {
    const char *name;       /* the name a program asks for ("cuMemAlloc") */
    int version;            /* the CUDA version that introduced this form (3020) */
    bool per_thread;        /* the per-thread-default-stream form (_ptds / _ptsz) */
    void *fn;               /* the exported function that implements it (cuMemAlloc_v2) */
} drv_proc;

extern const drv_proc drv_procs[];
extern const size_t drv_nprocs;

#endif
