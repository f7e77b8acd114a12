/* fatbin_bounds.c: how many bytes of this process's memory may be read from a pointer that
 * __cudaRegisterFatBinary was given.
 *
 * A registered fatbin comes without its length: an ordinary (version 1) wrapper points at a
 * container whose own header says how long it is. A corrupt header must not make the reader
 * walk past the fatbin through the process's memory, so the header is checked against the
 * memory the fatbin can lie in: the section of the loaded ELF object that holds it (.nv_fatbin,
 * __nv_relfatbin, or whatever section a program put it in), else the object's loaded segment,
 * else the readable mapping around it (a fatbin built in heap memory).
 */
#include "frontend/ptx.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct find_ctx {
    uintptr_t addr;
    uintptr_t seg_end;        /* end of the PT_LOAD segment holding addr, 0 if none */
    uintptr_t load_base;      /* the object's load bias */
    char path[4096];          /* its file ("" for the main program) */
} find_ctx;

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    find_ctx *c = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (c->addr >= lo && c->addr < hi) {
            c->seg_end = hi;
            c->load_base = info->dlpi_addr;
            snprintf(c->path, sizeof c->path, "%s", info->dlpi_name ? info->dlpi_name : "");
            return 1;
        }
    }
    return 0;
}

/* The end (in memory) of the allocated section of the object's file that holds addr, or 0
 * when the file or its section headers cannot be read; its start in *start. */
static uintptr_t section_end(const find_ctx *c, uintptr_t *start)
{
    const char *path = c->path[0] ? c->path : "/proc/self/exe";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    uintptr_t end = 0;
    ElfW(Ehdr) eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_shentsize != sizeof(ElfW(Shdr)) ||
        eh.e_shnum == 0) {
        close(fd);
        return 0;
    }
    uintptr_t off = c->addr - c->load_base;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        ElfW(Shdr) sh;
        if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + (uint64_t)i * sizeof sh)) !=
            (ssize_t)sizeof sh)
            break;
        if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS)
            continue;
        if (off >= sh.sh_addr && off - sh.sh_addr < sh.sh_size) {
            *start = c->load_base + sh.sh_addr;
            end = *start + sh.sh_size;
            break;
        }
    }
    close(fd);
    return end;
}

/* The end of the run of readable mappings that starts at or before addr, from
 * /proc/self/maps; 0 when addr is not in a readable mapping. */
static uintptr_t readable_end(uintptr_t addr)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    char line[512];
    uintptr_t end = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
            continue;
        bool readable = perms[0] == 'r';
        if (end) {
            /* extend over adjacent readable mappings */
            if (readable && lo == end)
                end = hi;
            else
                break;
        } else if (readable && addr >= lo && addr < hi) {
            end = hi;
        }
    }
    fclose(f);
    return end;
}

/* One look-up at a time: registrations come from constructors, rarely at once, and the
 * cache of the last object keeps repeated registrations from one library cheap. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct { uintptr_t lo, hi; } last_section;

size_t ptx_fatbin_readable_extent(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (!a)
        return 0;
    pthread_mutex_lock(&lock);
    size_t n = 0;
    if (a >= last_section.lo && a < last_section.hi) {
        n = last_section.hi - a;
        pthread_mutex_unlock(&lock);
        return n;
    }
    find_ctx *c = calloc(1, sizeof *c);
    if (c) {
        c->addr = a;
        if (dl_iterate_phdr(find_object, c)) {
            uintptr_t start = 0, end = c->seg_end, se = section_end(c, &start);
            if (se && se <= end)
                end = se;
            /* a segment's pages may not all be readable (a hostile object's, say) */
            uintptr_t re = readable_end(a);
            if (re && re < end)
                end = re;
            n = end > a ? end - a : 0;
            if (se && n) {
                last_section.lo = start;
                last_section.hi = end;
            }
        } else {
            uintptr_t re = readable_end(a);
            n = re > a ? re - a : 0;
        }
        free(c);
    }
    pthread_mutex_unlock(&lock);
    return n;
}
