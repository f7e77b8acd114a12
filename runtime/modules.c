/* modules.c: the fatbins a program registers (nvcc's __cudaRegister* calls), their kernels and
 * variables, and loading their PTX into the emulator on first use. */
#include "runtime/rt_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fatbinary_section.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rt_module **modules;
static size_t nmodules, cap_modules;
static rt_kernel **kernels;
static size_t nkernels, cap_kernels;
static rt_var **vars;
static size_t nvars, cap_vars;

/* push_module/push_kernel/push_var: append to a growable array; false when out of memory. */
#define DEFINE_PUSH(fn, type)                                                                   \
    static bool fn(type ***arr, size_t *n, size_t *cap, type *item)                             \
    {                                                                                           \
        if (*n == *cap) {                                                                       \
            size_t ncap = *cap ? *cap * 2 : 16;                                                 \
            type **p = realloc(*arr, ncap * sizeof *p);                                         \
            if (!p)                                                                             \
                return false;                                                                   \
            *arr = p;                                                                           \
            *cap = ncap;                                                                        \
        }                                                                                       \
        (*arr)[(*n)++] = item;                                                                  \
        return true;                                                                            \
    }
DEFINE_PUSH(push_module, rt_module)
DEFINE_PUSH(push_kernel, rt_kernel)
DEFINE_PUSH(push_var, rt_var)

static void free_units(rt_module *m);
/* Kernels by host function and by their own cudaKernel_t handle: every launch looks one up,
 * and a program may register 100,000 of them, so a scan per look-up (or per registration)
 * would make them quadratic. Open addressing, never shrinks (kernels are never freed). When
 * the table cannot grow, look-ups fall back to scanning. */
typedef struct kslot {
    const void *key;
    rt_kernel *k;
} kslot;
static kslot *kmap;
static size_t kmap_cap, kmap_n;
static bool kmap_broken;

static size_t khash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

static kslot *kmap_find(kslot *tab, size_t cap, const void *key)
{
    for (size_t i = khash(key) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (tab[i].key == key || !tab[i].key)
            return &tab[i];
}

static void kmap_put(const void *key, rt_kernel *k)
{
    if (kmap_broken || !key)
        return;
    if ((kmap_n + 1) * 2 > kmap_cap) {
        size_t cap = kmap_cap ? kmap_cap * 2 : 256;
        kslot *t = calloc(cap, sizeof *t);
        if (!t) {
            kmap_broken = true;   /* look-ups scan from now on */
            return;
        }
        for (size_t i = 0; i < kmap_cap; i++)
            if (kmap[i].key)
                *kmap_find(t, cap, kmap[i].key) = kmap[i];
        free(kmap);
        kmap = t;
        kmap_cap = cap;
    }
    kslot *sl = kmap_find(kmap, kmap_cap, key);
    if (!sl->key)
        kmap_n++;
    *sl = (kslot){key, k};
}

/* The last module a registration named: nvcc registers a fatbin's kernels one after another. */
static rt_module *last_module;

/* Splits the fatbin's PTX entries into units, one per fatbin container: an ordinary fatbin is
 * one container; the linked fatbin of an -rdc program carries one per translation unit (and
 * device libraries). Within a unit the entries are in the order to try them (the frontend's
 * ptx_fatbin_ptx_order_in: newest PTX first). Takes the PTX payloads over from fb. */
static bool build_units(rt_module *m, ptx_fatbin *fb)
{
    const ptx_fatbin_entry **order = malloc((fb->count ? fb->count : 1) * sizeof *order);
    if (!order)
        return false;
    for (uint32_t c = 0; c < fb->containers; c++) {
        size_t n = ptx_fatbin_ptx_order_in(fb, c, order, fb->count);
        if (n == 0)
            continue;
        rt_unit *nu = realloc(m->units, (m->nunits + 1) * sizeof *nu);
        ptx_fatbin_entry *ptx = calloc(n, sizeof *ptx);
        if (!nu || !ptx) {
            if (nu)
                m->units = nu;
            free(ptx);
            free(order);
            return false;
        }
        m->units = nu;
        rt_unit *u = &m->units[m->nunits++];
        memset(u, 0, sizeof *u);
        u->ptx = ptx;
        u->nptx = n;
        for (size_t i = 0; i < n; i++) {
            ptx_fatbin_entry *e = (ptx_fatbin_entry *)order[i];
            u->ptx[i] = *e;
            e->data = NULL;  /* now owned by the unit */
            e->name = NULL;
        }
        u->name = u->ptx[0].name ? strdup(u->ptx[0].name) : NULL;  /* else the module's */
    }
    free(order);
    return true;
}

/* A name for messages: the fatbin's own entry name, else the file that holds the fatbin (the
 * program or a shared library), numbered when one file registers several. */
static char *module_name(const void *wrapper, const char *entry_name)
{
    if (entry_name)
        return strdup(entry_name);
    Dl_info info;
    const char *file = NULL;
    if (dladdr(wrapper, &info) && info.dli_fname && info.dli_fname[0])
        file = info.dli_fname;
    if (!file)
        file = program_invocation_name;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    unsigned same = 0;
    size_t len = strlen(base);
    for (size_t i = 0; i < nmodules; i++)
        if (strncmp(modules[i]->name, base, len) == 0 &&
            (modules[i]->name[len] == 0 || strncmp(modules[i]->name + len, " (", 2) == 0))
            same++;
    char buf[512];
    if (same)
        snprintf(buf, sizeof buf, "%s (fatbin %u)", base, same + 1);
    else
        snprintf(buf, sizeof buf, "%s", base);
    return strdup(buf);
}

/* Comma-separated SASS-only targets of the fatbin, for the hint when it has no PTX. */
static void sass_targets(const ptx_fatbin *fb, char *out, size_t n)
{
    out[0] = 0;
    for (size_t i = 0; i < fb->count; i++) {
        size_t len = strlen(out);
        if (fb->entries[i].kind == PTX_FATBIN_ELF && len + 12 < n)
            snprintf(out + len, n - len, "%ssm_%u", len ? ", " : "", fb->entries[i].arch);
    }
}

void **rt_register_fatbin(const void *wrapper)
{
    rt_init();
    rt_module *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "ptxsim: out of host memory registering a CUDA fatbin\n");
        return NULL;
    }
    m->registered = true;

    ptx_fatbin fb = {0};
    char err[512] = "null fatbin", sass[96] = "";
    const char *entry_name = NULL;
    const __fatBinC_Wrapper_t *w = wrapper;
    bool rdc = w && w->magic == FATBINC_MAGIC && w->version == FATBINC_LINK_VERSION;
    /* SASS is never run: leave it compressed (libraries carry a lot of it). */
    bool readable = wrapper && ptx_fatbin_read_wrapper_ex(wrapper, PTX_FATBIN_SKIP_SASS, &fb, err,
                                                          sizeof err) == 0;
    if (readable) {
        for (size_t i = 0; i < fb.count && !entry_name; i++)
            entry_name = fb.entries[i].name;
        sass_targets(&fb, sass, sizeof sass);
        if (!build_units(m, &fb))
            m->error = cudaErrorMemoryAllocation;
        else if (m->nunits == 0)
            m->error = cudaErrorNoKernelImageForDevice;  /* said on first use: it may never be */
    } else {
        m->error = cudaErrorInvalidKernelImage;
    }
    if (m->error == cudaErrorNoKernelImageForDevice)
        m->sass_targets = strdup(sass[0] ? sass : "none");

    pthread_mutex_lock(&rt_g.lock);
    m->name = module_name(wrapper, entry_name);
    bool ok = m->name && push_module(&modules, &nmodules, &cap_modules, m);
    pthread_mutex_unlock(&rt_g.lock);
    for (size_t j = 0; ok && j < m->nunits; j++) {
        if (m->units[j].name)
            continue;
        char buf[600];
        if (m->nunits > 1)
            snprintf(buf, sizeof buf, "%s (unit %zu)", m->name, j + 1);
        else
            snprintf(buf, sizeof buf, "%s", m->name);
        ok = (m->units[j].name = strdup(buf)) != NULL;
    }
    ptx_fatbin_free(&fb);
    if (!ok || m->error == cudaErrorMemoryAllocation) {
        fprintf(stderr, "ptxsim: out of host memory registering a CUDA fatbin\n");
        return ok ? &m->slot : NULL;
    }
    if (!readable)
        fprintf(stderr, "ptxsim: cannot read a CUDA fatbin of %s: %s\n", m->name, err);
    size_t nptx = 0;
    for (size_t j = 0; j < m->nunits; j++)
        nptx += m->units[j].nptx;
    rt_log(1, "registered %s: %zu PTX entr%s in %zu unit%s%s", m->name, nptx,
           nptx == 1 ? "y" : "ies", m->nunits, m->nunits == 1 ? "" : "s", rdc ? " (-rdc)" : "");
    return &m->slot;
}

/* The module behind a handle nvcc kept; NULL for anything else. Lock held. */
static rt_module *module_of(void **handle)
{
    if (last_module && &last_module->slot == handle)
        return last_module;
    for (size_t i = 0; i < nmodules; i++)
        if (&modules[i]->slot == handle)
            return last_module = modules[i];
    return NULL;
}

void rt_register_fatbin_end(void **handle)
{
    (void)handle;  /* modules load lazily, on first use */
}

void rt_register_function(void **handle, const void *host_fun, const char *device_name)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_module *m = module_of(handle);
    rt_kernel *k = calloc(1, sizeof *k);
    if (!m || !k || !device_name) {
        pthread_mutex_unlock(&rt_g.lock);
        free(k);
        fprintf(stderr, "ptxsim: __cudaRegisterFunction: %s\n",
                !m ? "unknown fatbin handle" : !k ? "out of host memory" : "no kernel name");
        return;
    }
    k->magic = RT_KERNEL_MAGIC;
    k->mod = m;
    k->host_fun = host_fun;
    k->name = strdup(device_name);
    k->max_dynamic_smem = -1;
    k->carveout = -1;
    /* A later registration of the same host function (a reloaded library) wins. */
    rt_kernel *old = rt_kernel_lookup(host_fun);
    if (old && old->host_fun == host_fun)
        old->host_fun = NULL;
    if (!k->name || !push_kernel(&kernels, &nkernels, &cap_kernels, k)) {
        free(k->name);
        free(k);
        fprintf(stderr, "ptxsim: out of host memory registering kernel %s\n", device_name);
    } else {
        kmap_put(host_fun, k);
        kmap_put(k, k);
    }
    pthread_mutex_unlock(&rt_g.lock);
}

static void register_var(void **handle, const void *host_var, void **managed_ptr,
                         const char *device_name, size_t size, bool constant)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_module *m = module_of(handle);
    rt_var *v = calloc(1, sizeof *v);
    if (!m || !v || !device_name) {
        pthread_mutex_unlock(&rt_g.lock);
        free(v);
        fprintf(stderr, "ptxsim: __cudaRegisterVar: %s\n",
                !m ? "unknown fatbin handle" : !v ? "out of host memory" : "no variable name");
        return;
    }
    v->mod = m;
    v->host_var = host_var;
    v->name = strdup(device_name);
    v->size = size;
    v->constant = constant;
    v->managed = managed_ptr != NULL;
    v->managed_ptr = managed_ptr;
    if (!v->name || !push_var(&vars, &nvars, &cap_vars, v)) {
        free(v->name);
        free(v);
        fprintf(stderr, "ptxsim: out of host memory registering variable %s\n", device_name);
    }
    pthread_mutex_unlock(&rt_g.lock);
}

void rt_register_var(void **handle, const void *host_var, const char *device_name, size_t size,
                     bool constant, bool ext)
{
    (void)ext;  /* an extern declaration: the defining unit has the storage */
    register_var(handle, host_var, NULL, device_name, size, constant);
}

void rt_register_managed_var(void **handle, void **host_ptr_addr, const char *device_name,
                             size_t size)
{
    register_var(handle, host_ptr_addr, host_ptr_addr, device_name, size, false);
}

rt_kernel *rt_kernel_lookup(const void *func)
{
    if (!func)
        return NULL;
    if (!kmap_broken) {
        if (!kmap_cap)
            return NULL;
        kslot *sl = kmap_find(kmap, kmap_cap, func);
        if (!sl->key)
            return NULL;
        rt_kernel *k = sl->k;
        return k->host_fun == func || (const void *)k == func ? k : NULL;
    }
    for (size_t i = 0; i < nkernels; i++)
        if (kernels[i]->host_fun == func || (const void *)kernels[i] == func)
            return kernels[i];
    return NULL;
}

rt_var *rt_var_lookup(const void *host_var)
{
    if (!host_var)
        return NULL;
    for (size_t i = nvars; i-- > 0;)
        if (vars[i]->host_var == host_var)
            return vars[i];
    return NULL;
}

const char *rt_kernel_pretty(rt_kernel *k)
{
    if (!k->pretty)
        k->pretty = ptx_demangle(k->name);
    return k->pretty ? k->pretty : k->name;
}

rt_kernel *const *rt_kernels(size_t *count)
{
    *count = nkernels;
    return kernels;
}

/* Parses the unit's PTX: like the driver, the best entry the device's compute capability can
 * run (arch <= the model's), else the best of the rest; within each group in the frontend's
 * order (newest PTX first). Reports every entry's errors when none parses. */
static cudaError_t parse_unit(rt_unit *u)
{
    enum { MAX_TRIED = 8 };
    ptx_diag diags[MAX_TRIED] = {{0}};
    const ptx_fatbin_entry *tried_entry[MAX_TRIED];
    size_t tried = 0;
    uint32_t device_arch = (uint32_t)(rt_g.gpu->major * 10 + rt_g.gpu->minor);
    for (int pass = 0; pass < 2 && !u->ir; pass++) {
        for (size_t i = 0; i < u->nptx && !u->ir; i++) {
            const ptx_fatbin_entry *e = &u->ptx[i];
            if ((e->arch <= device_arch) != (pass == 0))
                continue;
            ptx_diag d = {0};
            double t0 = rt_now();
            u->ir = ptx_parse((const char *)e->data, e->size, u->name, &d);
            if (u->ir) {
                rt_log(1, "parsed %s (PTX %u.%u, compute_%u) in %.1f ms", u->name, e->ptx_major,
                       e->ptx_minor, e->arch, (rt_now() - t0) * 1e3);
                if (pass == 1)
                    rt_log(1, "%s: no PTX for compute_%u or older; using compute_%u", u->name,
                           device_arch, e->arch);
                ptx_diag_free(&d);
            } else if (tried < MAX_TRIED) {
                tried_entry[tried] = e;
                diags[tried++] = d;
            } else {
                ptx_diag_free(&d);
            }
        }
    }
    bool ok = u->ir != NULL;
    /* the driver's CUDA_ERROR_UNSUPPORTED_PTX_VERSION: only PTX newer than it implements */
    bool too_new = tried > 0;
    for (size_t i = 0; i < tried; i++)
        too_new = too_new && diags[i].unsupported_version;
    for (size_t i = 0; i < tried; i++) {
        if (!ok || rt_g.cfg.verbose >= 1)
            fprintf(stderr, "ptxsim: %s the PTX %u.%u (compute_%u) of %s:\n%s",
                    ok ? "skipped" : "cannot use", tried_entry[i]->ptx_major,
                    tried_entry[i]->ptx_minor, tried_entry[i]->arch, u->name,
                    diags[i].text ? diags[i].text : "(no details)\n");
        ptx_diag_free(&diags[i]);
    }
    return ok ? cudaSuccess : too_new ? cudaErrorUnsupportedPtxVersion : cudaErrorInvalidPtx;
}

/* Lays ir's registers out to share rows by liveness when the run allows it (--reg-sharing):
 * before it is loaded, since decoding fixes every register's row. */
static void lay_out_registers(ptx_module *ir, const char *name)
{
    if (!rt_g.cfg.share_regs)
        return;
    uint64_t before = 0, after = 0;
    for (uint32_t f = 0; f < ir->nfuncs; f++)
        before += ir->funcs[f].nslots;
    uint32_t n = emu_share_register_slots(ir);
    for (uint32_t f = 0; f < ir->nfuncs; f++)
        after += ir->funcs[f].nslots;
    if (n)
        rt_log(2, "%s: registers of %u function%s share rows by liveness: %llu rows -> %llu",
               name, n, n == 1 ? "" : "s", (unsigned long long)before,
               (unsigned long long)after);
}

/* Loads ir into device memory after checking it against the device's limits as the driver
 * would (module_limits.c); reports and returns the error the program gets on failure. Lock
 * held. */
static cudaError_t load_checked(const ptx_module *ir, const char *name,
                                const emu_load_options *opt, emu_module **out)
{
    char err[1024] = "";
    *out = NULL;
    cudaError_t e = rt_check_module_memory(ir, err, sizeof err);
    emu_module *em = NULL;
    if (e == cudaSuccess) {
        /* its variables are allocated and given their initial values here, on a host thread:
         * not while a launch (under --engine=compare, its snapshots) runs */
        rt_device_stop();
        em = emu_module_load_ex(ir, opt, err, sizeof err);
        e = em ? rt_check_module_limits(ir, em, err, sizeof err) : cudaErrorInvalidPtx;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "ptxsim: cannot load %s: %s (%s)\n", name,
                err[0] ? err : "unknown reason", rt_error_name(e));
        if (em)
            emu_module_unload(em);
        return e;
    }
    *out = em;
    return cudaSuccess;
}

/* Points each kernel of m at its function in the loaded module; returns how many m has. */
static size_t resolve_kernels(rt_module *m)
{
    size_t nk = 0;
    for (size_t i = 0; i < nkernels; i++) {
        rt_kernel *k = kernels[i];
        if (k->mod != m)
            continue;
        nk++;
        k->fn = NULL;
        k->emu = NULL;
        if (m->linked_emu) {
            const ptx_function *f = ptx_find_function(rt_linked_module(m->linked), k->name);
            if (f && f->is_entry && !f->is_decl) {
                k->fn = f;
                k->emu = m->linked_emu;
            }
        }
        for (size_t j = 0; j < m->nunits && !k->fn && !m->linked_emu; j++) {
            const ptx_function *f = ptx_find_function(m->units[j].ir, k->name);
            if (f && f->is_entry && !f->is_decl) {
                k->fn = f;
                k->emu = m->units[j].emu;
            }
        }
    }
    return nk;
}

static void report_no_ptx(const rt_module *m)
{
    fprintf(stderr,
            "ptxsim: %s holds no PTX (only SASS for %s): ptxsim runs PTX; rebuild with PTX "
            "embedded, e.g. nvcc -arch=sm_XX or -gencode arch=compute_XX,code=compute_XX "
            "(cudaErrorNoKernelImageForDevice)\n",
            m->name, m->sass_targets ? m->sass_targets : "none");
}

cudaError_t rt_module_ready(rt_module *m)
{
    if (m->loaded)
        return cudaSuccess;
    if (!m->registered)
        return cudaErrorCudartUnloading;
    if (m->error == cudaErrorNoKernelImageForDevice && !m->reported) {
        report_no_ptx(m);  /* once, when a kernel of it is first needed */
        m->reported = true;
    }
    if (m->error != cudaSuccess)
        return m->error;
    emu_load_options lopt = { .fmad = rt_g.cfg.fmad };
    /* Every unit that can be used is loaded; one that cannot (a device library with PTX
     * ptxsim cannot take, say) only fails the kernels that live in it. Several units (-rdc)
     * are linked into one module first, so that calls and variables cross between them. */
    double t0 = rt_now();
    size_t usable = 0, nparsed = 0;
    cudaError_t unit_error = cudaSuccess;
    for (size_t j = 0; j < m->nunits; j++) {
        rt_unit *u = &m->units[j];
        if (!u->ir && u->error == cudaSuccess)
            u->error = parse_unit(u);
        if (u->ir && u->error == cudaSuccess)
            nparsed++;
        else if (unit_error == cudaSuccess)
            unit_error = u->error;
    }
    if (m->nunits > 1 && nparsed > 0) {
        char err[1024] = "";
        if (!m->linked) {
            const ptx_module **irs = malloc(nparsed * sizeof *irs);
            size_t k = 0;
            for (size_t j = 0; irs && j < m->nunits; j++)
                if (m->units[j].ir && m->units[j].error == cudaSuccess)
                    irs[k++] = m->units[j].ir;
            m->linked = irs ? rt_link(irs, k, m->name, err, sizeof err) : NULL;
            free(irs);
            if (!m->linked) {
                fprintf(stderr, "ptxsim: cannot link %s: %s\n", m->name,
                        err[0] ? err : "out of host memory");
                return m->error = cudaErrorMemoryAllocation;
            }
            char names[512];
            size_t nu = rt_link_unresolved(m->linked, names, sizeof names);
            rt_log(1, "linked %zu units of %s%s%s", k, m->name,
                   nu ? "; not defined by any unit (device-runtime functions, or missing): "
                      : "",
                   nu ? names : "");
        }
        if (!m->linked_emu) {
            lay_out_registers(rt_linked_module_layout(m->linked), m->name);
            cudaError_t e = load_checked(rt_linked_module(m->linked), m->name, &lopt,
                                         &m->linked_emu);
            if (e != cudaSuccess)
                return m->error = e;
        }
        usable = 1;
    } else {
        for (size_t j = 0; j < m->nunits; j++) {
            rt_unit *u = &m->units[j];
            if (u->ir && !u->emu && u->error == cudaSuccess) {
                lay_out_registers(u->ir, u->name);
                u->error = load_checked(u->ir, u->name, &lopt, &u->emu);
            }
            if (u->emu)
                usable++;
            else if (unit_error == cudaSuccess)
                unit_error = u->error;
        }
    }
    if (usable == 0)
        return m->error = unit_error;
    m->unit_error = unit_error;
    size_t nk = resolve_kernels(m);
    m->loaded = true;
    for (size_t i = 0; i < nvars; i++) {
        rt_var *v = vars[i];
        uint64_t addr;
        if (v->mod == m && v->managed && rt_var_address(v->host_var, "__cudaInitModule", NULL,
                                                        &addr) == cudaSuccess)
            *v->managed_ptr = (void *)(uintptr_t)addr;
    }
    rt_log(1, "loaded %s: %zu kernel%s in %.1f ms", m->name, nk, nk == 1 ? "" : "s",
           (rt_now() - t0) * 1e3);
    return cudaSuccess;
}

cudaError_t rt_var_address(const void *host_var, const char *function, rt_var **var,
                           uint64_t *addr)
{
    rt_var *v = rt_var_lookup(host_var);
    if (!v)
        return rt_api_error(cudaErrorInvalidSymbol, function,
                            "%p is not a __device__, __constant__ or __managed__ variable",
                            host_var);
    cudaError_t e = rt_module_ready(v->mod);
    if (e != cudaSuccess)
        return e;
    uint64_t size;
    if (v->mod->linked_emu) {
        if (emu_module_symbol(v->mod->linked_emu, v->name, addr, &size)) {
            if (var)
                *var = v;
            return cudaSuccess;
        }
    }
    for (size_t j = 0; j < v->mod->nunits && !v->mod->linked_emu; j++) {
        const rt_unit *u = &v->mod->units[j];
        int32_t s = ptx_find_symbol(u->ir, -1, v->name);
        if (s < 0 || u->ir->syms[s].linkage == PTX_LINK_EXTERN)
            continue;
        if (emu_module_symbol(u->emu, v->name, addr, &size)) {
            if (var)
                *var = v;
            return cudaSuccess;
        }
    }
    return rt_api_error(cudaErrorInvalidSymbol, function,
                        "variable %s is not defined in the PTX of %s", v->name, v->mod->name);
}

bool rt_init_module(void **handle)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_module *m = module_of(handle);
    bool ok = m && rt_module_ready(m) == cudaSuccess;
    pthread_mutex_unlock(&rt_g.lock);
    return ok;
}

static void unload(rt_module *m)
{
    if (m->linked_emu)
        emu_module_unload(m->linked_emu);
    m->linked_emu = NULL;
    for (size_t j = 0; j < m->nunits; j++) {
        if (m->units[j].emu)
            emu_module_unload(m->units[j].emu);
        m->units[j].emu = NULL;
    }
    for (size_t i = 0; i < nkernels; i++) {
        if (kernels[i]->mod == m) {
            kernels[i]->fn = NULL;
            kernels[i]->emu = NULL;
        }
    }
    m->loaded = false;
}

void rt_modules_unload_all(void)
{
    for (size_t i = 0; i < nmodules; i++) {
        rt_module *m = modules[i];
        if (!m->registered)
            continue;
        unload(m);
        /* A failed load may succeed in the fresh context; a module without PTX never will. */
        if (m->error != cudaErrorNoKernelImageForDevice && m->error != cudaErrorInvalidKernelImage)
            m->error = cudaSuccess;
        m->unit_error = cudaSuccess;
        for (size_t j = 0; j < m->nunits; j++)
            if (m->units[j].ir)  /* parsed: what failed was the load */
                m->units[j].error = cudaSuccess;
    }
}

void rt_unregister_fatbin(void **handle)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    rt_module *m = module_of(handle);
    if (m && m->registered) {
        rt_wait_idle();  /* queued launches still run its kernels */
        unload(m);
        free_units(m);
        m->registered = false;
        m->error = cudaErrorCudartUnloading;
    }
    pthread_mutex_unlock(&rt_g.lock);
}

/* ---------------------------------------------------------------- modules of the driver API */

static rt_kernel *new_kernel(rt_module *m, const void *host_fun, const char *name)
{
    rt_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->magic = RT_KERNEL_MAGIC;
    k->mod = m;
    k->host_fun = host_fun;
    k->name = strdup(name);
    k->max_dynamic_smem = -1;
    k->carveout = -1;
    if (!k->name || !push_kernel(&kernels, &nkernels, &cap_kernels, k)) {
        free(k->name);
        free(k);
        return NULL;
    }
    /* found by its handle (CUfunction) as registered kernels are */
    if (host_fun)
        kmap_put(host_fun, k);
    kmap_put(k, k);
    return k;
}

static void free_units(rt_module *m)
{
    rt_link_free(m->linked);  /* before the units whose IR it shares */
    m->linked = NULL;
    for (size_t j = 0; j < m->nunits; j++) {
        rt_unit *u = &m->units[j];
        if (u->ir)
            ptx_module_free(u->ir);
        for (size_t i = 0; i < u->nptx; i++) {
            free(u->ptx[i].data);
            free(u->ptx[i].name);
        }
        free(u->ptx);
        free(u->name);
    }
    free(m->units);
    m->units = NULL;
    m->nunits = 0;
}

rt_module *rt_module_from_fatbin(ptx_fatbin *fb, const char *name, const char *api,
                                 cudaError_t *err)
{
    rt_module *m = calloc(1, sizeof *m);
    char sass[96] = "";
    *err = cudaErrorMemoryAllocation;
    if (!m)
        return NULL;
    m->registered = true;
    m->driver = true;
    m->owner = rt_ctx_owner();
    sass_targets(fb, sass, sizeof sass);
    m->name = strdup(name);
    bool ok = m->name && build_units(m, fb);
    for (size_t j = 0; ok && j < m->nunits; j++) {
        if (m->units[j].name)
            continue;
        char buf[600];
        snprintf(buf, sizeof buf, m->nunits > 1 ? "%s (unit %zu)" : "%s", m->name, j + 1);
        ok = (m->units[j].name = strdup(buf)) != NULL;
    }
    ptx_fatbin_free(fb);
    if (ok && m->nunits == 0) {
        m->sass_targets = strdup(sass[0] ? sass : "none");
        report_no_ptx(m);
        *err = cudaErrorNoKernelImageForDevice;
        ok = false;
    }
    if (!ok || !push_module(&modules, &nmodules, &cap_modules, m)) {
        free_units(m);
        free(m->sass_targets);
        free(m->name);
        free(m);
        return NULL;
    }
    /* Parsed now, so that every entry becomes a kernel and errors are this call's. */
    for (size_t j = 0; j < m->nunits; j++)
        if (!m->units[j].ir && parse_unit(&m->units[j]) != cudaSuccess)
            m->units[j].error = cudaErrorInvalidPtx;
    for (size_t j = 0; j < m->nunits; j++) {
        const ptx_module *ir = m->units[j].ir;
        for (uint32_t f = 0; ir && f < ir->nfuncs; f++) {
            const ptx_function *fn = &ir->funcs[f];
            if (!fn->is_entry || fn->is_decl)
                continue;
            bool have = false;
            for (size_t i = 0; i < nkernels && !have; i++)
                have = kernels[i]->mod == m && strcmp(kernels[i]->name, fn->name) == 0;
            if (!have && !new_kernel(m, NULL, fn->name)) {
                *err = cudaErrorMemoryAllocation;
                rt_module_drop(m);
                return NULL;
            }
        }
    }
    cudaError_t e = rt_module_ready(m);
    if (e == cudaSuccess && m->unit_error != cudaSuccess)
        e = m->unit_error;  /* the driver loads all of a module or nothing */
    if (e != cudaSuccess) {
        rt_log(1, "%s: %s cannot be loaded (%s)", api, m->name, rt_error_name(e));
        *err = e;
        rt_module_drop(m);
        return NULL;
    }
    *err = cudaSuccess;
    return m;
}

rt_module *rt_driver_module(const void *handle)
{
    for (size_t i = 0; handle && i < nmodules; i++)
        if (modules[i] == handle)
            return modules[i]->driver && modules[i]->registered ? modules[i] : NULL;
    return NULL;
}

/* Unloads a driver module and forgets its code; the structure and its kernels stay (so a
 * stale handle is recognised and refused rather than followed). Lock held, device idle. */
void rt_module_drop(rt_module *m)
{
    unload(m);
    free_units(m);
    m->registered = false;
    m->error = cudaErrorInvalidResourceHandle;
    for (size_t i = 0; i < nvars; i++)
        if (vars[i]->mod == m)
            vars[i]->host_var = NULL;
}

void rt_modules_release_owner(const rt_context *owner)
{
    for (size_t i = 0; i < nmodules; i++)
        if (modules[i]->driver && modules[i]->registered && modules[i]->owner == owner)
            rt_module_drop(modules[i]);
}

bool rt_module_live(const rt_module *m)
{
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    bool ok = rt_driver_module(m) != NULL;
    pthread_mutex_unlock(&rt_g.lock);
    return ok;
}

cudaError_t rt_module_unload(rt_module *m, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!rt_driver_module(m))
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, api,
                                   "%p is not a loaded module", (void *)m));
    rt_wait_idle();  /* queued launches still run its kernels */
    rt_module_drop(m);
    return rt_end(cudaSuccess);
}

/* A module that may be used: loaded again after cudaDeviceReset. Lock held. */
static cudaError_t usable(rt_module *m, const char *api)
{
    if (!rt_driver_module(m))
        return rt_api_error(cudaErrorInvalidResourceHandle, api, "%p is not a loaded module",
                            (void *)m);
    return rt_module_ready(m);
}

cudaError_t rt_module_get_function(void **fn, rt_module *m, const char *name)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!fn || !name)
        return rt_end(cudaErrorInvalidValue);
    if ((e = usable(m, "cuModuleGetFunction")) != cudaSuccess)
        return rt_end(e);
    for (size_t i = 0; i < nkernels; i++)
        if (kernels[i]->mod == m && strcmp(kernels[i]->name, name) == 0 && kernels[i]->fn) {
            *fn = kernels[i];
            return rt_end(cudaSuccess);
        }
    /* Not an error message: programs probe for optional kernels. */
    return rt_end(cudaErrorSymbolNotFound);
}

cudaError_t rt_module_get_functions(rt_module *m, void **fns, unsigned *count)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!count)
        return rt_end(cudaErrorInvalidValue);
    if ((e = usable(m, "cuModuleEnumerateFunctions")) != cudaSuccess)
        return rt_end(e);
    unsigned n = 0;
    for (size_t i = 0; i < nkernels; i++) {
        if (kernels[i]->mod != m || !kernels[i]->fn)
            continue;
        if (fns && n < *count)
            fns[n] = kernels[i];
        n++;
    }
    if (!fns)
        *count = n;
    return rt_end(cudaSuccess);
}

cudaError_t rt_module_get_global(void **dptr, size_t *bytes, rt_module *m, const char *name)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!name)
        return rt_end(cudaErrorInvalidValue);
    if ((e = usable(m, "cuModuleGetGlobal")) != cudaSuccess)
        return rt_end(e);
    uint64_t addr = 0, size = 0;
    bool found = m->linked_emu && emu_module_symbol(m->linked_emu, name, &addr, &size);
    for (size_t j = 0; j < m->nunits && !found && !m->linked_emu; j++) {
        const rt_unit *u = &m->units[j];
        int32_t sy = u->ir ? ptx_find_symbol(u->ir, -1, name) : -1;
        if (sy >= 0 && u->ir->syms[sy].linkage != PTX_LINK_EXTERN && u->emu)
            found = emu_module_symbol(u->emu, name, &addr, &size);
    }
    if (!found)
        return rt_end(cudaErrorSymbolNotFound);
    if (dptr)
        *dptr = (void *)(uintptr_t)addr;
    if (bytes)
        *bytes = (size_t)size;
    return rt_end(cudaSuccess);
}

cudaError_t rt_kernel_info(const void *func, rt_module **mod, const char **name)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = rt_kernel_lookup(func);
    if (!k)
        return rt_end(cudaErrorInvalidDeviceFunction);
    if (mod)
        *mod = k->mod;
    if (name)
        *name = k->name;
    return rt_end(cudaSuccess);
}

cudaError_t rt_kernel_param_info(const void *func, size_t index, size_t *offset, size_t *size)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_kernel *k = rt_kernel_lookup(func);
    if (!k)
        return rt_end(cudaErrorInvalidDeviceFunction);
    if ((e = rt_module_ready(k->mod)) != cudaSuccess)
        return rt_end(e);
    if (!k->fn || index >= k->fn->nparams)
        return rt_end(cudaErrorInvalidValue);
    const ptx_symbol *p = &emu_module_ptx(k->emu)->syms[k->fn->params[index]];
    if (offset)
        *offset = p->offset;
    if (size)
        *size = p->size;
    return rt_end(cudaSuccess);
}

cudaError_t rt_get_func_by_symbol(void **fn, const void *symbol)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!fn)
        return rt_end(cudaErrorInvalidValue);
    rt_kernel *k = rt_kernel_lookup(symbol);
    if (!k)
        return rt_end(rt_api_error(cudaErrorInvalidDeviceFunction, "cudaGetFuncBySymbol",
                                   "%p is not a registered kernel", symbol));
    *fn = k;
    return rt_end(cudaSuccess);
}
