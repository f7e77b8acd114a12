/* engine_kernels.c: see engine_kernels.h; the engine kernels' module on top of ptx_kernels. */
#include "tests/unit/engine_kernels.h"
#include "tests/unit/ptx_kernels.h"

static pk_module mod;

void ek_load(void) { mod = pk_load_file("tests/ptx/engine/engine_sm75.ptx"); }
void ek_unload(void) { pk_unload(&mod); }

const ptx_module *ek_ptx(void) { return mod.ptx; }
const emu_module *ek_module(void) { return mod.emu; }

bool ek_run(const char *kernel, uint32_t grid, uint32_t block, const uint64_t *args,
            const timing_engine_config *cfg, emu_fault *fault)
{
    pk_launch l = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .sm_count = cfg->sm_count,
                    .cfg = cfg };
    return pk_run(&mod, kernel, &l, args, fault);
}

void *ek_dalloc(size_t bytes) { return pk_dalloc(bytes); }
