/* engine_kernels.c: see engine_kernels.h. */
#include "tests/unit/engine_kernels.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENGINE_PTX "tests/ptx/engine/engine_sm75.ptx"

static ptx_module *pm;
static emu_module *em;

void ek_load(void)
{
    FILE *f = fopen(ENGINE_PTX, "rb");
    ck_assert_msg(f != NULL, "cannot read %s (run from the repository root)", ENGINE_PTX);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    ck_assert(fread(text, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    text[n] = 0;
    ptx_diag diag = {0};
    pm = ptx_parse(text, (size_t)n, ENGINE_PTX, &diag);
    free(text);
    ck_assert_msg(pm != NULL, "parse failed: %s", diag.text ? diag.text : "");
    ptx_diag_free(&diag);
    char err[2048];
    em = emu_module_load(pm, err, sizeof err);
    ck_assert_msg(em != NULL, "load failed: %s", err);
}

void ek_unload(void)
{
    emu_module_unload(em);
    ptx_module_free(pm);
}

const ptx_module *ek_ptx(void) { return pm; }
const emu_module *ek_module(void) { return em; }

bool ek_run(const char *kernel, uint32_t grid, uint32_t block, const uint64_t *args,
            const timing_engine_config *cfg, emu_fault *fault)
{
    const ptx_function *k = ptx_find_function(pm, kernel);
    ck_assert_msg(k != NULL, "no kernel %s", kernel);
    uint8_t params[256] = {0};
    for (uint32_t i = 0; i < k->nparams; i++) {
        const ptx_symbol *s = &pm->syms[k->params[i]];
        memcpy(params + s->offset, &args[i], s->size < 8 ? s->size : 8);
    }
    emu_launch L = {0};
    L.module = em;
    L.kernel = k;
    L.grid = (emu_dim3){grid, 1, 1};
    L.block = (emu_dim3){block, 1, 1};
    L.params = params;
    L.params_size = k->param_size;
    L.sm_count = cfg->sm_count;
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert_msg(g != NULL, "launch refused: %s", f.message);
    bool ok = timing_run_grid(g, cfg);
    if (!ok) {
        const emu_fault *gf = emu_grid_fault(g);
        ck_assert_msg(fault != NULL, "kernel %s failed: %s", kernel, gf ? gf->message : "?");
        ck_assert_msg(gf != NULL, "kernel %s failed without a fault", kernel);
        *fault = *gf;
    }
    emu_grid_destroy(g);
    return ok;
}

void *ek_dalloc(size_t bytes)
{
    uint64_t a = emu_device_alloc(bytes, EMU_ALLOC_DEVICE);
    ck_assert(a != 0);
    return (void *)(uintptr_t)a;
}
