/* ptx_kernels.c: see ptx_kernels.h. */
#include "tests/unit/ptx_kernels.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pk_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text) {
        text[n] = 0;
        *len = (size_t)n;
    }
    return text;
}

int pk_each_ptx_file(const char *const *dirs, size_t n,
                     void (*each)(const char *path, const char *text, size_t len, void *arg),
                     void *arg)
{
    int files = 0;
    for (size_t d = 0; d < n; d++) {
        DIR *dir = opendir(dirs[d]);
        ck_assert_msg(dir != NULL, "%s: run the tests from the repository root", dirs[d]);
        for (struct dirent *e; (e = readdir(dir));) {
            size_t nl = strlen(e->d_name);
            if (nl < 5 || strcmp(e->d_name + nl - 4, ".ptx") != 0) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            size_t len;
            char *text = pk_read_file(path, &len);
            ck_assert_msg(text != NULL, "%s: cannot be read", path);
            each(path, text, len, arg);
            free(text);
            files++;
        }
        closedir(dir);
    }
    return files;
}

static ptx_module *parse_ok(const char *text, size_t len, const char *name)
{
    ptx_diag diag = { 0 };
    ptx_module *m = ptx_parse(text, len, name, &diag);
    ck_assert_msg(m != NULL, "%s: parse failed:\n%s", name, diag.text ? diag.text : "");
    ptx_diag_free(&diag);
    return m;
}

ptx_module *pk_parse(const char *text, const char *name)
{
    return parse_ok(text, strlen(text), name);
}

pk_module pk_load_text(const char *text, size_t len, const char *name)
{
    pk_module m = { 0 };
    m.ptx = parse_ok(text, len, name);
    char err[2048];
    m.emu = emu_module_load(m.ptx, err, sizeof err);
    ck_assert_msg(m.emu != NULL, "%s: load failed: %s", name, err);
    return m;
}

pk_module pk_load_file(const char *path)
{
    size_t len;
    char *text = pk_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s (run from the repository root)", path);
    pk_module m = pk_load_text(text, len, path);
    free(text);
    return m;
}

void pk_unload(pk_module *m)
{
    if (m->emu) emu_module_unload(m->emu);
    if (m->ptx) ptx_module_free(m->ptx);
    m->emu = NULL;
    m->ptx = NULL;
}

const ptx_function *pk_kernel(const pk_module *m, const char *name)
{
    const ptx_function *k = ptx_find_function(m->ptx, name);
    ck_assert_msg(k != NULL, "no kernel %s", name);
    return k;
}

size_t pk_pack_args(const pk_module *m, const ptx_function *k, const uint64_t *vals,
                    uint8_t block[PK_PARAMS_MAX])
{
    memset(block, 0, PK_PARAMS_MAX);
    ck_assert_msg(k->param_size <= PK_PARAMS_MAX, "kernel %s: %zu bytes of parameters", k->name,
                  (size_t)k->param_size);
    for (uint32_t i = 0; i < k->nparams; i++) {
        const ptx_symbol *s = &m->ptx->syms[k->params[i]];
        memcpy(block + s->offset, &vals[i], s->size < 8 ? s->size : 8);
    }
    return k->param_size;
}

bool pk_run_params(const pk_module *m, const char *kernel, const pk_launch *l,
                   const void *params, size_t params_size, emu_fault *fault)
{
    emu_launch L = { 0 };
    L.module = m->emu;
    L.kernel = pk_kernel(m, kernel);
    L.grid = l->grid;
    L.block = l->block;
    L.dynamic_smem = l->dynamic_smem;
    L.params = params;
    L.params_size = params_size;
    L.policy = l->policy;
    L.sm_count = l->sm_count;
    L.max_warps_per_sm = l->max_warps_per_sm;
    L.reserved_smem = l->reserved_smem;
    L.grid_id = l->grid_id;
    L.events = l->events;
    emu_fault f;
    emu_grid *g = emu_grid_create(&L, &f);
    ck_assert_msg(g != NULL, "kernel %s: launch refused: %s", kernel, f.message);
    timing_engine_config defaults;
    const timing_engine_config *cfg = l->cfg;
    if (!cfg) {
        timing_engine_defaults(&defaults);
        cfg = &defaults;
    }
    bool ok = timing_run_grid(g, cfg);
    if (!ok) {
        const emu_fault *gf = emu_grid_fault(g);
        ck_assert_msg(fault != NULL, "kernel %s faulted: %s", kernel, gf ? gf->message : "?");
        ck_assert_msg(gf != NULL, "kernel %s failed without a fault", kernel);
        *fault = *gf;
    }
    emu_grid_destroy(g);
    return ok;
}

bool pk_run(const pk_module *m, const char *kernel, const pk_launch *l, const uint64_t *args,
            emu_fault *fault)
{
    uint8_t params[PK_PARAMS_MAX];
    size_t size = pk_pack_args(m, pk_kernel(m, kernel), args, params);
    return pk_run_params(m, kernel, l, params, size, fault);
}

void pk_cycle_config(timing_engine_config *cfg, const timing_gpu *gpu, uint32_t sm_count,
                     timing_stats *ts)
{
    memset(ts, 0, sizeof *ts);
    timing_engine_defaults(cfg);
    cfg->cycle_model = true;
    cfg->gpu = gpu;
    cfg->sm_count = sm_count;
    cfg->stats = ts;
}

void *pk_dalloc(size_t bytes)
{
    uint64_t a = emu_device_alloc(bytes, EMU_ALLOC_DEVICE);
    ck_assert_msg(a != 0, "device allocation of %zu bytes failed", bytes);
    return (void *)(uintptr_t)a;
}

int pk_main(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
