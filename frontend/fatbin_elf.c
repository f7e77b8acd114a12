/* fatbin_elf.c: finding the fatbins in an ELF file on disk (executable, shared object or
 * object file), for `ptxsim extract` and other offline readers.
 *
 * nvcc puts each translation unit's fatbin in .nv_fatbin (several containers one after
 * another); with -rdc=true the translation units' fatbins, which hold the PTX, go to
 * __nv_relfatbin and .nv_fatbin keeps only the device-linked SASS.
 */
#include "frontend/ptx.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const fatbin_sections[] = { ".nv_fatbin", "__nv_relfatbin" };

static void say(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Moves every entry of `from` to the end of `to`, numbering its containers after those of
 * `to`. */
static int append(ptx_fatbin *to, ptx_fatbin *from)
{
    uint32_t base = to->containers;
    to->containers += from->containers;
    from->containers = 0;
    if (from->count == 0) return 0;
    ptx_fatbin_entry *ne = realloc(to->entries, (to->count + from->count) * sizeof *ne);
    if (!ne) return -1;
    to->entries = ne;
    for (size_t i = 0; i < from->count; i++) {
        ne[to->count + i] = from->entries[i];
        ne[to->count + i].container += base;
    }
    to->count += from->count;
    free(from->entries);
    from->entries = NULL;
    from->count = 0;
    return 0;
}

static bool is_fatbin_section(const char *name)
{
    for (size_t i = 0; i < sizeof fatbin_sections / sizeof fatbin_sections[0]; i++)
        if (strcmp(name, fatbin_sections[i]) == 0) return true;
    return false;
}

static bool read_shdr(const uint8_t *img, size_t size, const Elf64_Ehdr *eh, uint64_t i,
                      Elf64_Shdr *sh)
{
    uint64_t off = eh->e_shoff + i * eh->e_shentsize;
    if (off < eh->e_shoff || off > size || size - off < sizeof *sh) return false;
    memcpy(sh, img + off, sizeof *sh);
    return true;
}

static int read_image(const char *path, const uint8_t *img, size_t size, unsigned opts,
                      ptx_fatbin *out, char *err, size_t errlen)
{
    if (size >= 4 && img[0] == 0x50 && img[1] == 0xed && img[2] == 0x55 && img[3] == 0xba) {
        /* A bare fatbin, as `nvcc -fatbin` writes it. */
        char why[256];
        if (ptx_fatbin_read_ex(img, size, opts, out, why, sizeof why) != 0) {
            say(err, errlen, "%s: %s", path, why);
            return -1;
        }
        return 0;
    }
    if (size < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0) {
        say(err, errlen, "%s: not an ELF file (nor a fatbin): not a CUDA program or library",
            path);
        return -1;
    }
    if (img[EI_CLASS] != ELFCLASS64) {
        say(err, errlen, "%s: a 32-bit ELF file; CUDA binaries are 64-bit", path);
        return -1;
    }
    if (img[EI_DATA] != ELFDATA2LSB) {
        say(err, errlen, "%s: a big-endian ELF file is not supported", path);
        return -1;
    }
    Elf64_Ehdr eh;
    if (size < sizeof eh) {
        say(err, errlen, "%s: truncated ELF header", path);
        return -1;
    }
    memcpy(&eh, img, sizeof eh);
    Elf64_Shdr sh0;
    if (eh.e_shoff == 0 || eh.e_shentsize < sizeof(Elf64_Shdr) || !read_shdr(img, size, &eh, 0, &sh0)) {
        say(err, errlen, "%s: the ELF file has no readable section headers, so no fatbin "
                         "sections can be found", path);
        return -1;
    }
    uint64_t shnum = eh.e_shnum ? eh.e_shnum : sh0.sh_size;  /* >= SHN_LORESERVE sections */
    uint64_t shstrndx = eh.e_shstrndx == SHN_XINDEX ? sh0.sh_link : eh.e_shstrndx;
    if (shnum > (size - eh.e_shoff) / eh.e_shentsize) {
        say(err, errlen, "%s: truncated ELF file (section headers run past its end)", path);
        return -1;
    }
    Elf64_Shdr strsh;
    if (shstrndx >= shnum || !read_shdr(img, size, &eh, shstrndx, &strsh) ||
        strsh.sh_type == SHT_NOBITS || strsh.sh_offset > size ||
        strsh.sh_size > size - strsh.sh_offset) {
        say(err, errlen, "%s: corrupt ELF file (bad section name table)", path);
        return -1;
    }
    const char *names = (const char *)img + strsh.sh_offset;

    size_t found = 0;
    for (uint64_t i = 1; i < shnum; i++) {
        Elf64_Shdr sh;
        if (!read_shdr(img, size, &eh, i, &sh)) break;
        if (sh.sh_name >= strsh.sh_size) continue;
        const char *name = names + sh.sh_name;
        if (!memchr(name, 0, strsh.sh_size - sh.sh_name)) continue;
        if (!is_fatbin_section(name)) continue;
        found++;
        if (sh.sh_type == SHT_NOBITS || sh.sh_size == 0) continue;
        if (sh.sh_flags & SHF_COMPRESSED) {
            say(err, errlen, "%s: section %s is ELF-compressed; unsupported", path, name);
            return -1;
        }
        if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
            say(err, errlen, "%s: truncated ELF file (section %s runs past its end)", path,
                name);
            return -1;
        }
        ptx_fatbin part;
        char why[256];
        if (ptx_fatbin_read_ex(img + sh.sh_offset, (size_t)sh.sh_size, opts, &part, why,
                               sizeof why) != 0) {
            say(err, errlen, "%s: section %s: %s", path, name, why);
            return -1;
        }
        if (append(out, &part) != 0) {
            ptx_fatbin_free(&part);
            say(err, errlen, "%s: out of memory", path);
            return -1;
        }
    }
    if (found == 0) {
        say(err, errlen, "%s: no CUDA device code in this file (no .nv_fatbin or "
                         "__nv_relfatbin section): not built by nvcc, or the device code was "
                         "stripped", path);
        return -1;
    }
    if (out->count == 0) {
        say(err, errlen, "%s: the fatbin sections are empty", path);
        return -1;
    }
    return 0;
}

int ptx_fatbin_read_elf_file(const char *path, ptx_fatbin *out, char *err, size_t errlen)
{
    return ptx_fatbin_read_elf_file_ex(path, 0, out, err, errlen);
}

int ptx_fatbin_read_elf_file_ex(const char *path, unsigned opts, ptx_fatbin *out, char *err,
                                size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    if (!path) {
        say(err, errlen, "no file name");
        return -1;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        say(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        say(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        say(err, errlen, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        say(err, errlen, "%s: empty file", path);
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        say(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    int rc = read_image(path, map, size, opts, out, err, errlen);
    munmap(map, size);
    if (rc != 0) ptx_fatbin_free(out);
    return rc;
}
