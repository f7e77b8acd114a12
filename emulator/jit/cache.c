/* cache.c: the JIT's disk cache of compiled objects, and the hash that names them.
 *
 * engine.c makes a key of everything that determines a function's object code and asks here
 * for the object before compiling, and stores it after; nothing here knows LLVM beyond the
 * memory buffer it hands back. */
#include "emulator/jit/jit_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Two FNV-1a lanes from different bases, each finished by a 64-bit mixer: 128 bits, so two
 * translations that differ share a key with negligible probability. */
void emu_jit_key_add_bytes(emu_jit_key *k, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        k->h[0] = (k->h[0] ^ p[i]) * 0x100000001b3ull;
        k->h[1] = (k->h[1] ^ p[i]) * 0x100000001b3ull;
        k->h[1] ^= k->h[1] >> 29;
    }
}

void emu_jit_key_add(emu_jit_key *k, const char *s)
{
    /* with its terminator: "ab" then "c" differs from "a" then "bc" */
    emu_jit_key_add_bytes(k, s, strlen(s) + 1);
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

void emu_jit_key_init(emu_jit_key *k)
{
    k->h[0] = 0xcbf29ce484222325ull;
    k->h[1] = 0x84222325cbf29ce4ull;
}

void emu_jit_key_finish(emu_jit_key *k)
{
    k->h[0] = mix64(k->h[0]);
    k->h[1] = mix64(k->h[1] ^ k->h[0]);
}

void emu_jit_key_hex(const emu_jit_key *k, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)k->h[0], (unsigned long long)k->h[1]);
}

/* ---------------------------------------------------------------- the disk cache
 *
 * One file per key, <key>.o in the folder: a header (magic, key, object size, a checksum
 * of the object) and the object. Written to a temporary file and renamed, so a reader sees a
 * whole entry or none; an entry whose header or checksum does not match is ignored (and
 * replaced). A hit refreshes the file's time; past the size limit the oldest files go. */

#define CACHE_MAGIC "ptxsimJITobj1\n"

typedef struct cache_header {
    char magic[16];
    uint64_t key[2];
    uint64_t size;
    uint64_t checksum;
} cache_header;

static uint64_t checksum(const void *data, size_t n)
{
    emu_jit_key k = {{0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull}};
    emu_jit_key_add_bytes(&k, data, n);
    return mix64(k.h[0] ^ mix64(k.h[1]));
}

static void cache_path(const char *dir, const emu_jit_key *k, char *out, size_t n)
{
    char hex[33];
    emu_jit_key_hex(k, hex);
    snprintf(out, n, "%s/%s.o", dir, hex);
}

/* mkdir -p */
static bool make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return false;
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0755) && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* The cached object of key k, or NULL (absent, or damaged: said under --verbose). */
LLVMMemoryBufferRef emu_jit_cache_load(const char *dir, const emu_jit_key *k, const char *fname,
                                       bool verbose)
{
    char path[4200];
    cache_path(dir, k, path, sizeof path);
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    cache_header h;
    const char *bad = NULL;
    char *data = NULL;
    if (fread(&h, sizeof h, 1, fp) != 1 || memcmp(h.magic, CACHE_MAGIC, sizeof CACHE_MAGIC - 1))
        bad = "no valid header";
    else if (h.key[0] != k->h[0] || h.key[1] != k->h[1])
        bad = "written for another key";
    else if (h.size == 0 || h.size > ((uint64_t)1 << 30) || !(data = malloc(h.size)))
        bad = "bad size";
    else if (fread(data, 1, h.size, fp) != h.size || fgetc(fp) != EOF)
        bad = "truncated or too long";
    else if (checksum(data, h.size) != h.checksum)
        bad = "checksum mismatch";
    fclose(fp);
    if (bad) {
        if (verbose)
            fprintf(stderr, "ptxsim: jit: ignoring damaged cache entry %s for %s (%s)\n", path,
                    fname, bad);
        free(data);
        return NULL;
    }
    utimensat(AT_FDCWD, path, NULL, 0);   /* recently used: evicted last */
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, h.size, path);
    free(data);
    return buf;
}

typedef struct cache_file { char name[64]; time_t mtime; long nsec; uint64_t size; } cache_file;

static int older_first(const void *a, const void *b)
{
    const cache_file *x = a, *y = b;
    if (x->mtime != y->mtime) return x->mtime < y->mtime ? -1 : 1;
    return x->nsec < y->nsec ? -1 : x->nsec > y->nsec;
}

/* Removes the oldest entries while the folder holds more than max_bytes. */
static void cache_evict(const char *dir, uint64_t max_bytes)
{
    DIR *d = opendir(dir);
    if (!d) return;
    cache_file *files = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len != 34 || strcmp(de->d_name + 32, ".o")) continue;
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            cache_file *more = realloc(files, cap * sizeof *files);
            if (!more) break;
            files = more;
        }
        _Static_assert(sizeof files[n].name > 34, "a cache file's name fits");
        memcpy(files[n].name, de->d_name, len + 1);   /* len is 34, checked above */
        files[n].mtime = st.st_mtim.tv_sec;
        files[n].nsec = st.st_mtim.tv_nsec;
        files[n].size = (uint64_t)st.st_size;
        total += files[n].size;
        n++;
    }
    closedir(d);
    if (total > max_bytes) {
        qsort(files, n, sizeof *files, older_first);
        for (size_t i = 0; i < n && total > max_bytes; i++) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
            if (unlink(path) == 0) total -= files[i].size;
        }
    }
    free(files);
}

/* Writes the object of key k (temporary file, then rename); false if it could not. */
bool emu_jit_cache_store(const char *dir, uint64_t max_bytes, const emu_jit_key *k, const void *obj,
                         size_t size)
{
    if (!make_dirs(dir)) return false;
    char path[4200], tmp[4300];
    cache_path(dir, k, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CACHE_MAGIC, sizeof CACHE_MAGIC - 1);
    h.key[0] = k->h[0];
    h.key[1] = k->h[1];
    h.size = size;
    h.checksum = checksum(obj, size);
    FILE *fp = fopen(tmp, "wb");
    if (!fp) return false;
    bool ok = fwrite(&h, sizeof h, 1, fp) == 1 && fwrite(obj, 1, size, fp) == size;
    ok = fclose(fp) == 0 && ok;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) {
        unlink(tmp);
        return false;
    }
    cache_evict(dir, max_bytes);
    return true;
}
