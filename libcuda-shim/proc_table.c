/* proc_table.c: the table behind cuGetProcAddress (and the runtime's cudaGetDriverEntryPoint,
 * which asks it): every versioned entry point of the driver, from proc_table.def.
 *
 * The functions are declared here without their prototypes (cuda.h would conflict with the
 * generic declarations): only their addresses are taken. */
#include "libcuda-shim/proc_table.h"

#define PROC(name, version, symbol) void symbol(void);
#define PROC_PER_THREAD(name, version, symbol) void symbol(void);
#include "libcuda-shim/proc_table.def"
#undef PROC
#undef PROC_PER_THREAD

const drv_proc drv_procs[] = {
#define PROC(name, version, symbol) {#name, version, false, (void *)symbol},
#define PROC_PER_THREAD(name, version, symbol) {#name, version, true, (void *)symbol},
#include "libcuda-shim/proc_table.def"
#undef PROC
#undef PROC_PER_THREAD
};

const size_t drv_nprocs = sizeof drv_procs / sizeof drv_procs[0];
