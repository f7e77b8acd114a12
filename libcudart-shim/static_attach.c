/* static_attach.c: makes a program that links NVIDIA's CUDA runtime statically (nvcc's default,
 * no `-cudart shared`) call this shim instead.
 *
 * Such a program carries its own copy of the runtime (libcudart_static.a), so preloading this
 * library changes nothing by itself: the program's calls are direct calls inside the
 * executable. This constructor runs before the executable's own constructors (a preloaded
 * library is initialised before the program that needs it), which are the ones that register
 * the fatbins. It reads the executable's symbol table (.symtab of /proc/self/exe), finds every
 * function of the static runtime that this shim also implements, by exact name (`cudaMalloc`,
 * `__cudaRegisterFatBinary`, `cudaLaunchKernel_ptsz`, ...), and overwrites its first bytes with
 * an absolute jump to the shim's function. From then on the static runtime is dead code and
 * never reaches for libcuda.so.
 *
 * The other route, standing in for libcuda.so.1, would mean emulating the driver API and the
 * private export tables the static runtime reaches through cuGetExportTable, which are
 * undocumented and change between releases.
 */
#include "libcudart-shim/shim.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define PATCH_MACHINE EM_X86_64
/* jmp *0(%rip); .quad target: no register is touched. */
#define PATCH_LONG 14
/* movabs $target, %rax; jmp *%rax: %rax is a scratch register at a call's entry (it carries
 * the vector-register count only into variadic functions, and no CUDA entry point is one). */
#define PATCH_SHORT 12
#elif defined(__aarch64__)
#define PATCH_MACHINE EM_AARCH64
/* ldr x16, #8; br x16; .quad target: x16 is the intra-procedure-call scratch register. */
#define PATCH_LONG 16
#define PATCH_SHORT 16
#endif

/* The functions whose redirection the program cannot run without: the registration of its
 * fatbins and kernels and the launch path. If one of them cannot be patched, nothing works. */
static const char *const essential[] = {
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaRegisterFunction",
    "__cudaRegisterVar", "__cudaPushCallConfiguration", "__cudaPopCallConfiguration",
    "__cudaLaunchKernel", "cudaLaunchKernel",
};

typedef struct exe_image {
    const uint8_t *p;
    size_t size;
    const Elf64_Ehdr *eh;
    const Elf64_Shdr *sh;
    const Elf64_Sym *syms;
    size_t nsyms;
    const char *str;
    size_t strsize;
    bool has_fatbin, needs_cudart;
} exe_image;

static int verbosity(void)
{
    const char *v = getenv("PTXSIM_VERBOSE");
    return v ? atoi(v) : 0;
}

static const char *exe_name(void)
{
    return program_invocation_short_name ? program_invocation_short_name : "the program";
}

/* Maps /proc/self/exe and finds its symbol table, checking every offset against the file size
 * (the file is the user's). False when it is not an ELF file this code understands. */
static bool read_image(exe_image *im)
{
    memset(im, 0, sizeof *im);
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        return false;
    }
    im->size = (size_t)st.st_size;
    void *p = mmap(NULL, im->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return false;
    im->p = p;
    im->eh = (const Elf64_Ehdr *)im->p;
    const Elf64_Ehdr *eh = im->eh;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > im->size ||
        (im->size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum ||
        eh->e_shstrndx >= eh->e_shnum)
        return false;
    im->sh = (const Elf64_Shdr *)(im->p + eh->e_shoff);
    const Elf64_Shdr *names = &im->sh[eh->e_shstrndx];
    bool names_ok = names->sh_offset <= im->size && names->sh_size <= im->size - names->sh_offset;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = &im->sh[i];
        if (s->sh_type != SHT_NOBITS &&
            (s->sh_offset > im->size || s->sh_size > im->size - s->sh_offset))
            continue;
        if (names_ok && s->sh_name < names->sh_size) {
            const char *nm = (const char *)im->p + names->sh_offset + s->sh_name;
            size_t room = names->sh_size - s->sh_name;
            if (strnlen(nm, room) < room && strcmp(nm, ".nv_fatbin") == 0)
                im->has_fatbin = true;
        }
        if ((s->sh_type == SHT_SYMTAB || s->sh_type == SHT_DYNAMIC) && s->sh_link < eh->e_shnum) {
            const Elf64_Shdr *str = &im->sh[s->sh_link];
            if (str->sh_offset > im->size || str->sh_size > im->size - str->sh_offset)
                continue;
            const char *strs = (const char *)im->p + str->sh_offset;
            if (s->sh_type == SHT_SYMTAB) {
                im->syms = (const Elf64_Sym *)(im->p + s->sh_offset);
                im->nsyms = s->sh_size / sizeof(Elf64_Sym);
                im->str = strs;
                im->strsize = str->sh_size;
                continue;
            }
            const Elf64_Dyn *dyn = (const Elf64_Dyn *)(im->p + s->sh_offset);
            for (size_t j = 0; j < s->sh_size / sizeof *dyn && dyn[j].d_tag != DT_NULL; j++) {
                if (dyn[j].d_tag != DT_NEEDED || dyn[j].d_un.d_val >= str->sh_size)
                    continue;
                const char *lib = strs + dyn[j].d_un.d_val;
                size_t room = str->sh_size - dyn[j].d_un.d_val;
                if (strnlen(lib, room) < room && strncmp(lib, "libcudart.so", 12) == 0)
                    im->needs_cudart = true;
            }
        }
    }
    return true;
}

static const char *sym_name(const exe_image *im, const Elf64_Sym *s)
{
    if (s->st_name >= im->strsize)
        return NULL;
    const char *n = im->str + s->st_name;
    return strnlen(n, im->strsize - s->st_name) < im->strsize - s->st_name ? n : NULL;
}

/* ---------------------------------------------------------------- load address */

typedef struct exe_map {
    uintptr_t bias;
    const ElfW(Phdr) *phdr;
    size_t phnum;
    bool found;
} exe_map;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    exe_map *m = data;
    /* The first object reported is the executable itself. */
    m->bias = info->dlpi_addr;
    m->phdr = info->dlpi_phdr;
    m->phnum = info->dlpi_phnum;
    m->found = true;
    return 1;
}

/* The protection of the loaded segment holding addr (what to restore after writing). */
static int segment_prot(const exe_map *m, uintptr_t addr)
{
    for (size_t i = 0; i < m->phnum; i++) {
        const ElfW(Phdr) *ph = &m->phdr[i];
        if (ph->p_type != PT_LOAD || addr < m->bias + ph->p_vaddr ||
            addr >= m->bias + ph->p_vaddr + ph->p_memsz)
            continue;
        return ((ph->p_flags & PF_R) ? PROT_READ : 0) | ((ph->p_flags & PF_W) ? PROT_WRITE : 0) |
               ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
    }
    return -1;
}

/* ---------------------------------------------------------------- patching */

static int cmp_addr(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Bytes that may be overwritten at a function's address: up to the next symbol (the function
 * and the alignment padding after it, which nothing executes). */
static uint64_t room_at(const uint64_t *starts, size_t n, uint64_t addr, uint64_t size)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (starts[mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t gap = lo < n ? starts[lo] - addr : size;
    return gap > size ? gap : size;
}

#ifdef PATCH_MACHINE
static size_t jump_code(uint8_t *code, uint64_t room, uintptr_t target)
{
#if defined(__x86_64__)
    if (room >= PATCH_LONG) {
        static const uint8_t jmp_rip[6] = {0xff, 0x25, 0, 0, 0, 0};
        memcpy(code, jmp_rip, sizeof jmp_rip);
        memcpy(code + 6, &target, 8);
        return PATCH_LONG;
    }
    if (room >= PATCH_SHORT) {
        code[0] = 0x48;
        code[1] = 0xb8;
        memcpy(code + 2, &target, 8);
        code[10] = 0xff;
        code[11] = 0xe0;
        return PATCH_SHORT;
    }
    return 0;
#else
    if (room < PATCH_LONG)
        return 0;
    static const uint32_t ldr_br[2] = {0x58000050u, 0xd61f0200u};
    memcpy(code, ldr_br, sizeof ldr_br);
    memcpy(code + 8, &target, 8);
    return PATCH_LONG;
#endif
}

/* Writes code over [addr, addr+n) of the program's text, then restores its protection. */
static bool write_text(const exe_map *m, uintptr_t addr, const uint8_t *code, size_t n)
{
    long pagesz = sysconf(_SC_PAGESIZE);
    uintptr_t first = addr & ~(uintptr_t)(pagesz - 1);
    uintptr_t last = (addr + n + (uintptr_t)pagesz - 1) & ~(uintptr_t)(pagesz - 1);
    int prot = segment_prot(m, addr);
    if (prot < 0 || segment_prot(m, addr + n - 1) != prot)
        return false;
    /* Keep the page executable while writing if the system allows it; nothing else runs yet
     * (constructors run before main starts any thread), so a brief non-executable page would
     * do too. */
    if (mprotect((void *)first, last - first, PROT_READ | PROT_WRITE | PROT_EXEC) != 0 &&
        mprotect((void *)first, last - first, PROT_READ | PROT_WRITE) != 0)
        return false;
    memcpy((void *)addr, code, n);
#if defined(__aarch64__)
    __builtin___clear_cache((char *)addr, (char *)addr + n);
#endif
    mprotect((void *)first, last - first, prot);
    return true;
}
#endif

static bool is_essential(const char *name)
{
    for (size_t i = 0; i < sizeof essential / sizeof essential[0]; i++)
        if (strcmp(essential[i], name) == 0)
            return true;
    return false;
}

static void cannot_attach(const char *why)
{
    fprintf(stderr,
            "ptxsim: %s links the CUDA runtime statically (nvcc's default) and %s, so ptxsim "
            "cannot take the runtime's place; rebuild it with `nvcc -cudart shared`\n",
            exe_name(), why);
}

static void attach(void)
{
    exe_image im;
    if (!read_image(&im)) {
        if (im.p)
            munmap((void *)im.p, im.size);
        return;
    }
    if (!im.syms) {
        /* Stripped: only a program that carries device code without importing the runtime
         * can be a static one. */
        if (im.has_fatbin && !im.needs_cudart)
            cannot_attach("has no symbol table (it was stripped)");
        munmap((void *)im.p, im.size);
        return;
    }

    /* Is there a static runtime at all? Its registration entry point is defined here. */
    bool defines_runtime = false;
    for (size_t i = 0; i < im.nsyms && !defines_runtime; i++) {
        const Elf64_Sym *s = &im.syms[i];
        const char *n = s->st_shndx != SHN_UNDEF ? sym_name(&im, s) : NULL;
        defines_runtime = n && ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
                          strcmp(n, "__cudaRegisterFatBinary") == 0;
    }
    if (!defines_runtime) {
        munmap((void *)im.p, im.size);
        return;
    }
    /* CUDA 12's static runtime has the _v2 name CUDA 13 dropped: its callers pass CUDA 12's
     * arguments to the few entry points whose arguments changed. */
    for (size_t i = 0; i < im.nsyms; i++) {
        const Elf64_Sym *s = &im.syms[i];
        const char *n = s->st_shndx != SHN_UNDEF ? sym_name(&im, s) : NULL;
        if (n && strcmp(n, "cudaGetDeviceProperties_v2") == 0) {
            shim_cuda12_abi = true;
            rt_set_program_runtime_major(12);
        }
    }
#ifndef PATCH_MACHINE
    cannot_attach("ptxsim redirects a static runtime only on x86-64 and AArch64");
    munmap((void *)im.p, im.size);
    return;
#else
    if (im.eh->e_machine != PATCH_MACHINE) {
        munmap((void *)im.p, im.size);
        return;
    }
    exe_map map = {0};
    dl_iterate_phdr(first_object, &map);
    /* This library's own handle: the implementations to jump to. */
    Dl_info self;
    void *handle = NULL;
    if (dladdr((void *)attach, &self) && self.dli_fname)
        handle = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    uint64_t *starts = malloc((im.nsyms ? im.nsyms : 1) * sizeof *starts);
    uint64_t *done = malloc((im.nsyms ? im.nsyms : 1) * sizeof *done);
    if (!map.found || !handle || !starts || !done) {
        cannot_attach("ptxsim could not read its memory map");
        free(starts);
        free(done);
        munmap((void *)im.p, im.size);
        return;
    }
    size_t nstarts = 0, ndone = 0;
    for (size_t i = 0; i < im.nsyms; i++) {
        const Elf64_Sym *s = &im.syms[i];
        if (s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE && s->st_value)
            starts[nstarts++] = s->st_value;
    }
    qsort(starts, nstarts, sizeof *starts, cmp_addr);

    unsigned patched = 0, skipped = 0;
    char missing[512] = "";
    for (size_t i = 0; i < im.nsyms; i++) {
        const Elf64_Sym *s = &im.syms[i];
        if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
            s->st_shndx >= SHN_LORESERVE || !s->st_value)
            continue;
        const char *name = sym_name(&im, s);
        if (!name || (strncmp(name, "cuda", 4) != 0 && strncmp(name, "__cuda", 6) != 0))
            continue;
        void *target = dlsym(handle, name);
        if (!target)
            continue;  /* not a runtime entry point ptxsim knows (the program's own code) */
        bool seen = false;
        for (size_t j = 0; j < ndone && !seen; j++)
            seen = done[j] == s->st_value;
        if (seen)
            continue;  /* an alias of a function already redirected */
        uint8_t code[PATCH_LONG];
        uint64_t room = room_at(starts, nstarts, s->st_value, s->st_size);
        size_t n = jump_code(code, room, (uintptr_t)target);
        if (n && write_text(&map, map.bias + s->st_value, code, n)) {
            done[ndone++] = s->st_value;
            patched++;
            continue;
        }
        skipped++;
        if (verbosity() >= 1)
            fprintf(stderr, "ptxsim: static attach: cannot redirect %s (%llu bytes)\n", name,
                    (unsigned long long)room);
        if (is_essential(name)) {
            size_t len = strlen(missing);
            snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", name);
        }
    }
    free(starts);
    free(done);
    munmap((void *)im.p, im.size);
    if (missing[0]) {
        char why[600];
        snprintf(why, sizeof why, "its %s could not be redirected", missing);
        cannot_attach(why);
        return;
    }
    if (verbosity() >= 1)
        fprintf(stderr,
                "ptxsim: static attach: %s links the CUDA runtime statically; redirected %u of "
                "its entry points to ptxsim%s\n",
                exe_name(), patched, skipped ? " (some could not be: see above)" : "");
#endif
}

/* Priority 101: before this library's other constructors, and (as a preloaded library) before
 * every constructor of the program. */
__attribute__((constructor(101))) static void static_attach_init(void)
{
    attach();
}
