/* jit.c: code the driver API hands over at run time: module images (PTX text, fatbins, ELF
 * files carrying fatbins) and the JIT linker (cuLink*), whose output is an image of the same
 * kind.
 *
 * ptxsim runs PTX, so a cubin (SASS only, as NVRTC writes for -arch=sm_XX) cannot be loaded
 * by itself; when the cubin came from an NVRTC program, ptxsim's NVRTC interposer has compiled
 * the same program for the virtual architecture and recorded the PTX here, keyed by the
 * cubin's bytes, so loading the cubin loads that PTX.
 *
 * The linker keeps each input's PTX as one translation unit; completing parses them all and
 * links them (rt_link) so that every extern is checked now, then writes them as fatbin
 * containers back to back, one PTX entry each. Loading that image links them again, as an
 * -rdc program's units are.
 */
#include "runtime/rt_internal.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xba55ed50u
#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define ENTRY_HEADER 64u
#define EM_CUDA_MACHINE 190

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* ---------------------------------------------------------------- PTX as a fatbin entry */

/* Reads ".version X.Y" and ".target sm_NN" from PTX text, for the entry's description. */
static void ptx_header(const char *text, uint32_t *major, uint32_t *minor, uint32_t *arch)
{
    *major = *minor = *arch = 0;
    const char *v = strstr(text, ".version");
    if (v)
        sscanf(v + 8, " %u.%u", major, minor);
    const char *t = strstr(text, ".target");
    if (t) {
        t += 7;
        while (*t == ' ' || *t == '\t')
            t++;
        if (strncmp(t, "sm_", 3) == 0 || strncmp(t, "compute_", 8) == 0)
            sscanf(strchr(t, '_') + 1, "%u", arch);
    }
}

/* Appends one PTX entry (a copy of text) as a container of its own. */
static bool add_ptx_entry(ptx_fatbin *fb, const char *text, size_t len, const char *name)
{
    ptx_fatbin_entry *ne = realloc(fb->entries, (fb->count + 1) * sizeof *ne);
    if (!ne)
        return false;
    fb->entries = ne;
    ptx_fatbin_entry *e = &fb->entries[fb->count];
    memset(e, 0, sizeof *e);
    e->kind = PTX_FATBIN_PTX;
    e->data = malloc(len + 1);
    e->name = name ? strdup(name) : NULL;
    if (!e->data || (name && !e->name)) {
        free(e->data);
        free(e->name);
        return false;
    }
    memcpy(e->data, text, len);
    e->data[len] = 0;
    e->size = len;
    ptx_header((const char *)e->data, &e->ptx_major, &e->ptx_minor, &e->arch);
    e->container = fb->containers++;
    fb->count++;
    return true;
}

/* Moves the PTX entries of src (each container's entries, in order) to the end of dst. */
static bool append_ptx(ptx_fatbin *dst, ptx_fatbin *src)
{
    uint32_t base = dst->containers;
    for (size_t i = 0; i < src->count; i++) {
        ptx_fatbin_entry *e = &src->entries[i];
        if (e->kind != PTX_FATBIN_PTX || !e->data)
            continue;
        ptx_fatbin_entry *ne = realloc(dst->entries, (dst->count + 1) * sizeof *ne);
        if (!ne)
            return false;
        dst->entries = ne;
        dst->entries[dst->count] = *e;
        dst->entries[dst->count].container = base + e->container;
        dst->count++;
        e->data = NULL;
        e->name = NULL;
    }
    dst->containers = base + src->containers;
    return true;
}

/* ---------------------------------------------------------------- cubins compiled by NVRTC */

/* A cubin NVRTC wrote and the PTX of the same program. The cubin is kept whole: a program
 * hands it back without its size, so it is recognised by its bytes (the ELF header first, which
 * fixes the layout and so the size, then all of it). */
typedef struct cubin_ptx {
    uint8_t *cubin;
    size_t size;
    char *ptx;
} cubin_ptx;

static cubin_ptx *cubins;
static size_t ncubins, cap_cubins;

static bool same_cubin(const cubin_ptx *c, const uint8_t *image)
{
    size_t head = c->size < sizeof(Elf64_Ehdr) ? c->size : sizeof(Elf64_Ehdr);
    return memcmp(c->cubin, image, head) == 0 && memcmp(c->cubin, image, c->size) == 0;
}

void rt_register_cubin_ptx(const void *cubin, size_t size, const char *ptx)
{
    rt_init();
    if (!cubin || !size || !ptx)
        return;
    char *text = strdup(ptx);
    uint8_t *bytes = malloc(size);
    if (!text || !bytes) {
        free(text);
        free(bytes);
        return;
    }
    memcpy(bytes, cubin, size);
    pthread_mutex_lock(&rt_g.lock);
    for (size_t i = 0; i < ncubins; i++)
        if (cubins[i].size == size && same_cubin(&cubins[i], bytes)) {
            free(cubins[i].ptx);
            cubins[i].ptx = text;
            free(bytes);
            pthread_mutex_unlock(&rt_g.lock);
            return;
        }
    if (ncubins == cap_cubins) {
        size_t ncap = cap_cubins ? cap_cubins * 2 : 8;
        cubin_ptx *a = realloc(cubins, ncap * sizeof *a);
        if (a) {
            cubins = a;
            cap_cubins = ncap;
        }
    }
    if (ncubins < cap_cubins) {
        cubins[ncubins++] = (cubin_ptx){bytes, size, text};
    } else {
        free(text);
        free(bytes);
    }
    pthread_mutex_unlock(&rt_g.lock);
}

/* The PTX an NVRTC cubin was compiled from, or NULL. avail: bytes known to be readable at
 * image (0: unknown; the cubin's own size is trusted once its ELF header matches). Lock held. */
static const char *cubin_source(const uint8_t *image, size_t avail)
{
    for (size_t i = 0; i < ncubins; i++)
        if ((!avail || avail == cubins[i].size) && same_cubin(&cubins[i], image))
            return cubins[i].ptx;
    return NULL;
}

/* ---------------------------------------------------------------- reading an image */

/* Bytes of the fatbin containers that follow one another from p. */
static size_t fatbins_size(const uint8_t *p)
{
    size_t off = 0;
    while (rd32(p + off) == FATBIN_MAGIC) {
        uint64_t body = rd64(p + off + 8);
        if (body > ((uint64_t)1 << 32))
            break;
        off += 16 + (size_t)body;
    }
    return off;
}

static cudaError_t no_ptx(const char *what, const char *api)
{
    return rt_api_error(cudaErrorNoKernelImageForDevice, api,
                        "%s holds SASS only, and ptxsim runs PTX: load PTX (NVRTC: "
                        "nvrtcGetPTX, or -arch=compute_XX), or a fatbin with PTX "
                        "(nvcc -fatbin -gencode arch=compute_XX,code=compute_XX)",
                        what);
}

/* Reads image into fb (PTX entries). Lock held. */
static cudaError_t read_image(const void *image, const char *api, ptx_fatbin *fb)
{
    memset(fb, 0, sizeof *fb);
    const uint8_t *p = image;
    char err[512] = "";
    uint32_t magic = rd32(p);
    if (magic == FATBIN_MAGIC) {
        if (ptx_fatbin_read_ex(p, fatbins_size(p), PTX_FATBIN_SKIP_SASS, fb, err, sizeof err))
            return rt_api_error(cudaErrorInvalidKernelImage, api, "%s", err);
        return cudaSuccess;
    }
    if (magic == FATBIN_WRAPPER_MAGIC) {
        if (ptx_fatbin_read_wrapper_ex(p, PTX_FATBIN_SKIP_SASS, fb, err, sizeof err))
            return rt_api_error(cudaErrorInvalidKernelImage, api, "%s", err);
        return cudaSuccess;
    }
    if (memcmp(p, ELFMAG, SELFMAG) == 0) {
        const Elf64_Ehdr *eh = image;
        const char *ptx = cubin_source(p, 0);
        if (ptx)
            return add_ptx_entry(fb, ptx, strlen(ptx), NULL) ? cudaSuccess
                                                             : cudaErrorMemoryAllocation;
        return no_ptx(eh->e_machine == EM_CUDA_MACHINE ? "the image is a cubin that"
                                                       : "the ELF image",
                      api);
    }
    /* PTX text. */
    size_t len = strlen(image);
    if (!len)
        return rt_api_error(cudaErrorInvalidPtx, api, "the image is empty");
    return add_ptx_entry(fb, image, len, NULL) ? cudaSuccess : cudaErrorMemoryAllocation;
}

static unsigned long long next_image = 1;

cudaError_t rt_module_load_image(rt_module **out, const void *image, const char *name,
                                 const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!out || !image)
        return rt_end(cudaErrorInvalidValue);
    ptx_fatbin fb;
    if ((e = read_image(image, api, &fb)) != cudaSuccess) {
        ptx_fatbin_free(&fb);
        return rt_end(e);
    }
    char made[64];
    if (!name) {
        snprintf(made, sizeof made, "module %llu (%s)", next_image++, api);
        name = made;
    }
    rt_module *m = rt_module_from_fatbin(&fb, name, api, &e);
    if (m)
        *out = m;
    return rt_end(e);
}

/* Reads a whole file, NUL-terminated; NULL with errno set. */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            char *b = realloc(buf, cap = cap ? cap * 2 : 65536 * 2);
            if (!b) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    *size = n;
    return buf;
}

/* The PTX of a file: PTX text, a fatbin, or an ELF file carrying fatbins. Lock held. */
static cudaError_t read_file(const char *path, const char *api, ptx_fatbin *fb)
{
    memset(fb, 0, sizeof *fb);
    size_t size = 0;
    char *data = slurp(path, &size);
    if (!data)
        return rt_api_error(errno == ENOENT ? cudaErrorFileNotFound : cudaErrorInvalidValue,
                            api, "cannot read %s: %s", path, strerror(errno));
    cudaError_t e = cudaSuccess;
    char err[512] = "";
    if (size >= 4 && memcmp(data, ELFMAG, SELFMAG) == 0) {
        const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
        const char *ptx = size >= sizeof *eh ? cubin_source((const uint8_t *)data, size) : NULL;
        if (ptx) {
            if (!add_ptx_entry(fb, ptx, strlen(ptx), path))
                e = cudaErrorMemoryAllocation;
        } else if (size >= sizeof *eh && eh->e_machine == EM_CUDA_MACHINE) {
            e = no_ptx(path, api);
        } else if (ptx_fatbin_read_elf_file_ex(path, PTX_FATBIN_SKIP_SASS, fb, err,
                                               sizeof err)) {
            e = rt_api_error(cudaErrorInvalidKernelImage, api, "%s", err);
        }
    } else if (size >= 4 && rd32((const uint8_t *)data) == FATBIN_MAGIC) {
        if (ptx_fatbin_read_ex(data, size, PTX_FATBIN_SKIP_SASS, fb, err, sizeof err))
            e = rt_api_error(cudaErrorInvalidKernelImage, api, "%s: %s", path, err);
    } else if (!add_ptx_entry(fb, data, size, path)) {
        e = cudaErrorMemoryAllocation;
    }
    free(data);
    return e;
}

cudaError_t rt_module_load_file(rt_module **out, const char *path, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!out || !path)
        return rt_end(cudaErrorInvalidValue);
    ptx_fatbin fb;
    if ((e = read_file(path, api, &fb)) != cudaSuccess) {
        ptx_fatbin_free(&fb);
        return rt_end(e);
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    rt_module *m = rt_module_from_fatbin(&fb, base, api, &e);
    if (m)
        *out = m;
    return rt_end(e);
}

/* ---------------------------------------------------------------- the JIT linker */

struct rt_linker {
    ptx_fatbin inputs;          /* one container per translation unit */
    uint8_t *image;
    size_t image_size;
};

cudaError_t rt_linker_create(rt_linker **out)
{
    if (!out)
        return cudaErrorInvalidValue;
    *out = calloc(1, sizeof **out);
    return *out ? cudaSuccess : cudaErrorMemoryAllocation;
}

/* The best PTX of each container of fb (one unit each), moved into l. */
static cudaError_t take_units(rt_linker *l, ptx_fatbin *fb, const char *what, char *log,
                              size_t loglen)
{
    ptx_fatbin best = {0};
    const ptx_fatbin_entry **order = malloc((fb->count ? fb->count : 1) * sizeof *order);
    if (!order)
        return cudaErrorMemoryAllocation;
    for (uint32_t c = 0; c < fb->containers; c++) {
        size_t n = ptx_fatbin_ptx_order_in(fb, c, order, fb->count);
        if (n && !add_ptx_entry(&best, (const char *)order[0]->data, order[0]->size,
                                order[0]->name)) {
            free(order);
            ptx_fatbin_free(&best);
            return cudaErrorMemoryAllocation;
        }
    }
    free(order);
    if (!best.count) {
        snprintf(log, loglen, "%s holds no PTX (ptxsim links PTX; SASS cannot be used)", what);
        return cudaErrorNoKernelImageForDevice;
    }
    bool ok = append_ptx(&l->inputs, &best);
    ptx_fatbin_free(&best);
    return ok ? cudaSuccess : cudaErrorMemoryAllocation;
}

/* Whether image is a cubin linked for execution (nvcc or NVRTC without -rdc=true: ELF type
 * EXEC) rather than relocatable device code (type REL). The JIT linker takes only the latter:
 * an H100 (driver 580) answered CUDA_ERROR_NO_BINARY_FOR_GPU to cuLinkAddData of an EXEC cubin
 * for its own sm_90 that cuModuleLoadData had loaded and run. */
static bool executable_cubin(const uint8_t *image, size_t size)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
    return size >= sizeof *eh && memcmp(image, ELFMAG, SELFMAG) == 0 &&
           eh->e_machine == EM_CUDA_MACHINE && eh->e_type == ET_EXEC;
}

static cudaError_t not_relocatable(const char *what, char *log, size_t loglen)
{
    snprintf(log, loglen, "%s is an executable cubin; the linker takes relocatable device code "
                          "(compile with -rdc=true)", what);
    return cudaErrorNoKernelImageForDevice;
}

cudaError_t rt_linker_add_data(rt_linker *l, int type, const void *data, size_t size,
                               const char *name, char *log, size_t loglen)
{
    if (!l || !data)
        return cudaErrorInvalidValue;
    const char *what = name && *name ? name : "the input";
    char err[512] = "";
    ptx_fatbin fb = {0};
    cudaError_t e = cudaSuccess;
    switch (type) {
    case RT_LINK_PTX: {
        size_t len = strnlen(data, size ? size : (size_t)-1);
        return add_ptx_entry(&l->inputs, data, len, name) ? cudaSuccess
                                                           : cudaErrorMemoryAllocation;
    }
    case RT_LINK_FATBINARY:
        if (ptx_fatbin_read_ex(data, size ? size : fatbins_size(data), PTX_FATBIN_SKIP_SASS,
                               &fb, err, sizeof err) != 0) {
            snprintf(log, loglen, "%s: %s", what, err);
            return cudaErrorInvalidKernelImage;
        }
        break;
    case RT_LINK_CUBIN: {
        if (executable_cubin(data, size ? size : sizeof(Elf64_Ehdr)))
            return not_relocatable(what, log, loglen);
        rt_init();
        pthread_mutex_lock(&rt_g.lock);
        const char *ptx = cubin_source(data, size);
        char *copy = ptx ? strdup(ptx) : NULL;
        pthread_mutex_unlock(&rt_g.lock);
        if (!copy) {
            snprintf(log, loglen, "%s is a cubin (SASS only); ptxsim links PTX", what);
            return cudaErrorNoKernelImageForDevice;
        }
        bool ok = add_ptx_entry(&l->inputs, copy, strlen(copy), name);
        free(copy);
        return ok ? cudaSuccess : cudaErrorMemoryAllocation;
    }
    default:
        snprintf(log, loglen, "%s: input type %d is not supported from memory (PTX, fatbins "
                              "and cubins are; objects and libraries as files)", what, type);
        return cudaErrorNotSupported;
    }
    e = take_units(l, &fb, what, log, loglen);
    ptx_fatbin_free(&fb);
    return e;
}

cudaError_t rt_linker_add_file(rt_linker *l, int type, const char *path, char *log,
                               size_t loglen)
{
    if (!l || !path)
        return cudaErrorInvalidValue;
    if (type == RT_LINK_LIBRARY || type == RT_LINK_NVVM) {
        snprintf(log, loglen, "%s: %s inputs are not supported (PTX, fatbins, cubins with "
                              "NVRTC's PTX, and objects are)",
                 path, type == RT_LINK_LIBRARY ? "library" : "NVVM");
        return cudaErrorNotSupported;
    }
    if (type == RT_LINK_CUBIN) {
        size_t size = 0;
        char *data = slurp(path, &size);
        bool executable = data && executable_cubin((const uint8_t *)data, size);
        free(data);
        if (executable)
            return not_relocatable(path, log, loglen);
    }
    rt_init();
    pthread_mutex_lock(&rt_g.lock);
    ptx_fatbin fb;
    cudaError_t e = read_file(path, "cuLinkAddFile", &fb);
    pthread_mutex_unlock(&rt_g.lock);
    if (e != cudaSuccess) {
        snprintf(log, loglen, "%s: %s", path, rt_error_string(e));
        ptx_fatbin_free(&fb);
        return e;
    }
    e = take_units(l, &fb, path, log, loglen);
    ptx_fatbin_free(&fb);
    return e;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* One container of one uncompressed PTX entry (frontend/fatbin.c describes the layout). */
static size_t write_container(uint8_t *out, const ptx_fatbin_entry *e)
{
    size_t payload = (e->size + 1 + 7) & ~(size_t)7;  /* NUL-terminated, padded to 8 */
    if (out) {
        memset(out, 0, 16 + ENTRY_HEADER + payload);
        put32(out, FATBIN_MAGIC);
        put16(out + 4, 1);
        put16(out + 6, 16);
        put64(out + 8, ENTRY_HEADER + payload);
        uint8_t *h = out + 16;
        put16(h, PTX_FATBIN_PTX);
        put16(h + 2, 0x0101);
        put32(h + 4, ENTRY_HEADER);
        put64(h + 8, payload);
        put32(h + 0x18, e->ptx_major << 16 | e->ptx_minor);
        put32(h + 0x1c, e->arch);
        put64(h + 0x28, 0x11);  /* 64-bit, Linux */
        memcpy(h + ENTRY_HEADER, e->data, e->size);
    }
    return 16 + ENTRY_HEADER + payload;
}

/* The names of a ", "-separated list that the device runtime does not provide (the
 * emulator implements vprintf, malloc, free and __assertfail itself). */
static void without_builtins(const char *names, char *out, size_t len)
{
    static const char *const builtin[] = {"vprintf", "malloc", "free", "__assertfail"};
    size_t used = 0;
    out[0] = 0;
    for (const char *p = names; *p;) {
        const char *end = strstr(p, ", ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        bool known = false;
        for (size_t i = 0; i < sizeof builtin / sizeof builtin[0] && !known; i++)
            known = strlen(builtin[i]) == n && strncmp(builtin[i], p, n) == 0;
        /* each name once, though every unit that uses it declares it */
        for (const char *q = out; *q && !known;) {
            const char *qe = strstr(q, ", ");
            size_t qn = qe ? (size_t)(qe - q) : strlen(q);
            known = qn == n && strncmp(q, p, n) == 0;
            q = qe ? qe + 2 : q + qn;
        }
        if (!known && used < len)
            used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? ", " : "", (int)n,
                                     p);
        p = end ? end + 2 : p + n;
    }
}

cudaError_t rt_linker_complete(rt_linker *l, void **image, size_t *size, char *log,
                               size_t loglen)
{
    if (!l || !image)
        return cudaErrorInvalidValue;
    if (!l->inputs.count) {
        snprintf(log, loglen, "nothing to link: no input was added");
        return cudaErrorInvalidValue;
    }
    /* Parse and link now, so that errors (and unresolved externs) are this call's. */
    size_t n = l->inputs.count;
    ptx_module **irs = calloc(n, sizeof *irs);
    if (!irs)
        return cudaErrorMemoryAllocation;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        const ptx_fatbin_entry *in = &l->inputs.entries[i];
        ptx_diag d = {0};
        char name[64];
        snprintf(name, sizeof name, "link input %zu", i + 1);
        irs[i] = ptx_parse((const char *)in->data, in->size, in->name ? in->name : name, &d);
        if (!irs[i]) {
            snprintf(log, loglen, "%s", d.text ? d.text : "the PTX does not parse");
            e = cudaErrorInvalidPtx;
        }
        ptx_diag_free(&d);
    }
    /* One input is linked too: its undefined references fail here, as on a GPU. */
    if (e == cudaSuccess) {
        char err[1024] = "";
        rt_linked *linked = rt_link((const ptx_module *const *)irs, n, "cuLinkComplete", err,
                                    sizeof err);
        if (!linked) {
            snprintf(log, loglen, "%s", err[0] ? err : "cannot link the inputs");
            e = cudaErrorInvalidPtx;
        } else {
            char names[1024], missing[1024] = "";
            if (rt_link_unresolved(linked, names, sizeof names))
                without_builtins(names, missing, sizeof missing);
            if (missing[0]) {
                snprintf(log, loglen, "undefined reference to %s", missing);
                e = cudaErrorInvalidPtx;
            }
            rt_link_free(linked);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (irs[i])
            ptx_module_free(irs[i]);
    free(irs);
    if (e != cudaSuccess)
        return e;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += write_container(NULL, &l->inputs.entries[i]);
    free(l->image);
    l->image = malloc(total);
    if (!l->image)
        return cudaErrorMemoryAllocation;
    size_t off = 0;
    for (size_t i = 0; i < n; i++)
        off += write_container(l->image + off, &l->inputs.entries[i]);
    l->image_size = total;
    *image = l->image;
    if (size)
        *size = total;
    snprintf(log, loglen, "ptxsim: linked %zu PTX module%s", n, n == 1 ? "" : "s");
    return cudaSuccess;
}

void rt_linker_destroy(rt_linker *l)
{
    if (!l)
        return;
    ptx_fatbin_free(&l->inputs);
    free(l->image);
    free(l);
}
