/* fatbin.c: the fatbin containers nvcc embeds in CUDA binaries, their entries, the wrapper
 * that __cudaRegisterFatBinary receives, and the choice of the PTX to run.
 *
 * Layout, as nvcc 13 writes it (all little-endian; verified against nvcc/fatbinary output,
 * see tests/fixtures/fatbin/make_fixtures.sh):
 *
 *   container header (16 bytes): u32 magic 0xba55ed50, u16 version 1, u16 header size 0x10,
 *                                u64 bytes of entries that follow the header
 *   entry header (>= 64 bytes):
 *     0x00 u16 kind (1 PTX, 2 ELF)      0x02 u16 entry version (0x0101)
 *     0x04 u32 header size              0x08 u64 payload size, padded to 8
 *     0x10 u32 compressed payload size  0x14 u32 offset (in the header) of {u32 offset, u32
 *                                           length} of the compile options, 0 if none
 *     0x18 u32 version: PTX ISA major<<16 | minor for PTX, ELF code version for ELF
 *     0x1c u32 arch (75, 80, 90, 100, 120, ...)
 *     0x20 u32 name offset (in the header)   0x24 u32 name length (set by fatbinary --ident)
 *     0x28 u64 flags                    0x30 u64 (0)
 *     0x38 u64 uncompressed payload size (0 when stored uncompressed)
 *   then the payload (header size bytes after the entry start), then the next entry.
 *
 * Flags: 0x1 64-bit, 0x2 debug (-G), 0x10 Linux; compression 0x1000 zlib, 0x2000 LZ4 block,
 * 0x4000 LZ4 frame, 0x8000 zstd; 0x100000 arch-specific target (sm_90a), 0x200000 family
 * target (sm_100f).
 *
 * The wrapper (__fatBinC_Wrapper_t, fatbinary_section.h): {i32 magic 0x466243b1, i32 version,
 * data, filename_or_fatbins}. Version 1: data is the fatbin. Version 2 (-rdc=true, registered
 * by the device-link stub crt/link.stub): data is the linked fatbin (SASS only) and
 * filename_or_fatbins a NULL-terminated array of pointers to the translation units' fatbins
 * (the __nv_relfatbin section images, where their PTX is).
 */
#include "frontend/ptx.h"

#include <lz4.h>
#include <lz4frame.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define FATBIN_MAGIC        0xba55ed50u
#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_OLD_MAGIC    0x1ee55a01u  /* the pre-CUDA-4 __cudaFatCudaBinary layout */
#define CONTAINER_HEADER    16u
#define ENTRY_HEADER_MIN    64u

#define FLAG_ZLIB           0x1000u
#define FLAG_LZ4            0x2000u
#define FLAG_LZ4_FRAME      0x4000u
#define FLAG_ZSTD           0x8000u
#define FLAG_COMPRESSION    (FLAG_ZLIB | FLAG_LZ4 | FLAG_LZ4_FRAME | FLAG_ZSTD)
#define FLAG_ARCH_SPECIFIC  0x100000u
#define FLAG_ARCH_FAMILY    0x200000u

/* Sanity bounds for sizes read from untrusted headers: a real fatbin is far below these, and
 * a corrupt one must not make us allocate the address space. */
#define MAX_PAYLOAD         ((uint64_t)1 << 30)
#define MAX_CONTAINER       ((uint64_t)1 << 32)
#define MAX_PRELINKED       65536

/* The wrapper as the program holds it; declared here so the frontend does not need CUDA's
 * headers. */
typedef struct fatbin_wrapper {
    int32_t magic;
    int32_t version;
    const void *data;
    const void *filename_or_fatbins;
} fatbin_wrapper;

typedef struct builder {
    ptx_fatbin *fb;
    unsigned opts;            /* PTX_FATBIN_SKIP_SASS */
    size_t cap;
    uint32_t next_container;
    char *err;
    size_t errlen;
} builder;

static void fail(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(builder *b, const char *fmt, ...)
{
    if (!b->err || b->errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, b->errlen, fmt, ap);
    va_end(ap);
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

const char *ptx_fatbin_compression_name(unsigned compression)
{
    static const char *const names[] = { "none", "zlib", "lz4", "lz4-frame", "zstd" };
    return compression < sizeof names / sizeof names[0] ? names[compression] : "?";
}

/* ---------------------------------------------------------------- payloads */

/* Decompresses exactly `usize` bytes into a fresh buffer with one extra NUL byte. */
static uint8_t *decompress(builder *b, const char *where, unsigned comp, const uint8_t *src,
                           size_t csize, size_t usize)
{
    uint8_t *dst = malloc(usize + 1);
    if (!dst) {
        fail(b, "%s: out of memory for a %zu-byte payload", where, usize);
        return NULL;
    }
    size_t got = 0;
    switch (comp) {
    case PTX_FATBIN_ZSTD: {
        size_t r = ZSTD_decompress(dst, usize, src, csize);
        if (ZSTD_isError(r)) {
            fail(b, "%s: corrupt zstd payload: %s", where, ZSTD_getErrorName(r));
            goto bad;
        }
        got = r;
        break;
    }
    case PTX_FATBIN_LZ4: {
        if (csize > (size_t)LZ4_MAX_INPUT_SIZE || usize > (size_t)LZ4_MAX_INPUT_SIZE) {
            fail(b, "%s: LZ4 payload too large", where);
            goto bad;
        }
        int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)csize, (int)usize);
        if (r < 0) {
            fail(b, "%s: corrupt LZ4 payload (error %d)", where, r);
            goto bad;
        }
        got = (size_t)r;
        break;
    }
    case PTX_FATBIN_LZ4_FRAME: {
        LZ4F_dctx *dctx = NULL;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) {
            fail(b, "%s: cannot create an LZ4 frame decoder", where);
            goto bad;
        }
        size_t in = 0, r = 1;
        while (r != 0 && in < csize && got < usize) {
            size_t srcn = csize - in, dstn = usize - got;
            r = LZ4F_decompress(dctx, dst + got, &dstn, src + in, &srcn, NULL);
            if (LZ4F_isError(r)) break;
            in += srcn;
            got += dstn;
            if (srcn == 0 && dstn == 0) break;  /* no progress: stop rather than spin */
        }
        LZ4F_freeDecompressionContext(dctx);
        if (LZ4F_isError(r)) {
            fail(b, "%s: corrupt LZ4 frame payload: %s", where, LZ4F_getErrorName(r));
            goto bad;
        }
        if (r != 0) {
            fail(b, "%s: LZ4 frame payload is truncated or larger than its declared %zu bytes",
                 where, usize);
            goto bad;
        }
        break;
    }
    case PTX_FATBIN_ZLIB: {
        uLongf dl = (uLongf)usize;
        int r = uncompress(dst, &dl, src, (uLong)csize);
        if (r != Z_OK) {
            fail(b, "%s: corrupt zlib payload: %s", where,
                 r == Z_BUF_ERROR ? "larger than its declared size or truncated" : zError(r));
            goto bad;
        }
        got = (size_t)dl;
        break;
    }
    default:
        fail(b, "%s: unknown compression", where);
        goto bad;
    }
    if (got != usize) {
        fail(b, "%s: %s payload decompressed to %zu bytes, but its header says %zu", where,
             ptx_fatbin_compression_name(comp), got, usize);
        goto bad;
    }
    dst[usize] = 0;
    return dst;
bad:
    free(dst);
    return NULL;
}

/* ---------------------------------------------------------------- entries and containers */

static ptx_fatbin_entry *new_entry(builder *b)
{
    ptx_fatbin *fb = b->fb;
    if (fb->count == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 8;
        ptx_fatbin_entry *ne = realloc(fb->entries, ncap * sizeof *ne);
        if (!ne) return NULL;
        fb->entries = ne;
        b->cap = ncap;
    }
    ptx_fatbin_entry *e = &fb->entries[fb->count];
    memset(e, 0, sizeof *e);
    return e;
}

static void free_entry(ptx_fatbin_entry *e)
{
    free(e->name);
    free(e->data);
    memset(e, 0, sizeof *e);
}

/* Reads one entry of `avail` bytes at most (the rest of its container); returns the bytes it
 * spans, or 0 on error. */
static uint64_t read_entry(builder *b, const uint8_t *p, uint64_t avail, const char *where)
{
    if (avail < ENTRY_HEADER_MIN) {
        fail(b, "%s: truncated entry header (%llu bytes left, need %u)", where,
             (unsigned long long)avail, ENTRY_HEADER_MIN);
        return 0;
    }
    uint16_t kind = rd16(p);
    uint32_t hsize = rd32(p + 0x04);
    uint64_t padded = rd64(p + 0x08);
    uint32_t csize = rd32(p + 0x10);
    uint32_t version = rd32(p + 0x18);
    uint32_t arch = rd32(p + 0x1c);
    uint32_t name_off = rd32(p + 0x20), name_len = rd32(p + 0x24);
    uint64_t flags = rd64(p + 0x28);
    uint64_t usize = rd64(p + 0x38);

    if (hsize < ENTRY_HEADER_MIN || hsize > avail) {
        fail(b, "%s: bad entry header size %u (%llu bytes left in the fatbin)", where, hsize,
             (unsigned long long)avail);
        return 0;
    }
    if (padded > avail - hsize) {
        fail(b, "%s: payload of %llu bytes runs past the end of the fatbin (%llu bytes left)",
             where, (unsigned long long)padded, (unsigned long long)(avail - hsize));
        return 0;
    }
    if (kind != PTX_FATBIN_PTX && kind != PTX_FATBIN_ELF) {
        /* Other kinds exist in libraries (cuobjdump knows more); they hold no PTX, so they
         * are skipped rather than rejected. */
        return hsize + padded;
    }
    if (name_len && ((uint64_t)name_off + name_len > hsize || name_off < ENTRY_HEADER_MIN)) {
        fail(b, "%s: entry name (offset %u, %u bytes) lies outside its %u-byte header", where,
             name_off, name_len, hsize);
        return 0;
    }

    unsigned comp = PTX_FATBIN_RAW;
    switch (flags & FLAG_COMPRESSION) {
    case 0: comp = PTX_FATBIN_RAW; break;
    case FLAG_ZLIB: comp = PTX_FATBIN_ZLIB; break;
    case FLAG_LZ4: comp = PTX_FATBIN_LZ4; break;
    case FLAG_LZ4_FRAME: comp = PTX_FATBIN_LZ4_FRAME; break;
    case FLAG_ZSTD: comp = PTX_FATBIN_ZSTD; break;
    default:
        fail(b, "%s: entry flags 0x%llx name several compressions", where,
             (unsigned long long)flags);
        return 0;
    }

    const uint8_t *payload = p + hsize;
    uint8_t *data;
    size_t size, stored;
    if (kind == PTX_FATBIN_ELF && (b->opts & PTX_FATBIN_SKIP_SASS)) {
        if (comp != PTX_FATBIN_RAW && (csize == 0 || csize > padded || usize > MAX_PAYLOAD)) {
            fail(b, "%s: bad compressed size %u or uncompressed size %llu", where, csize,
                 (unsigned long long)usize);
            return 0;
        }
        data = NULL;
        stored = comp == PTX_FATBIN_RAW ? (size_t)padded : csize;
        size = comp == PTX_FATBIN_RAW ? (size_t)padded : (size_t)usize;
    } else if (comp == PTX_FATBIN_RAW) {
        stored = size = (size_t)padded;
        if (padded > MAX_PAYLOAD || !(data = malloc(size + 1))) {
            fail(b, "%s: cannot hold a %llu-byte payload", where, (unsigned long long)padded);
            return 0;
        }
        memcpy(data, payload, size);
        data[size] = 0;
    } else {
        if (csize == 0 || csize > padded) {
            fail(b, "%s: compressed size %u does not fit the %llu-byte padded payload", where,
                 csize, (unsigned long long)padded);
            return 0;
        }
        if (usize == 0 || usize > MAX_PAYLOAD) {
            fail(b, "%s: implausible uncompressed size %llu", where, (unsigned long long)usize);
            return 0;
        }
        stored = csize;
        size = (size_t)usize;
        data = decompress(b, where, comp, payload, csize, size);
        if (!data) return 0;
    }
    if (kind == PTX_FATBIN_PTX)
        while (size > 0 && data[size - 1] == 0) size--;  /* NUL padding after the text */

    ptx_fatbin_entry *e = new_entry(b);
    if (!e) {
        free(data);
        fail(b, "%s: out of memory", where);
        return 0;
    }
    e->kind = (uint8_t)kind;
    e->arch = arch;
    if (kind == PTX_FATBIN_PTX) {
        e->ptx_major = version >> 16;
        e->ptx_minor = version & 0xffff;
    }
    e->compressed = comp != PTX_FATBIN_RAW;
    e->compression = (uint8_t)comp;
    e->arch_suffix = (flags & FLAG_ARCH_SPECIFIC) ? 'a' : (flags & FLAG_ARCH_FAMILY) ? 'f' : 0;
    e->container = b->next_container;
    e->flags = flags;
    e->stored_size = stored;
    e->data = data;
    e->size = size;
    if (name_len) {
        const char *n = (const char *)p + name_off;
        size_t len = strnlen(n, name_len);
        while (len > 0 && (n[len - 1] == ' ' || n[len - 1] == '\t')) len--;  /* nvcc -G: "va.cu " */
        if (len > 0 && !(e->name = strndup(n, len))) {
            free(data);
            fail(b, "%s: out of memory", where);
            return 0;
        }
    }
    b->fb->count++;
    return hsize + padded;
}

/* The bytes one container spans, from its header alone; 0 (with a message) when the header
 * is not a valid container header or claims more than `avail` bytes. */
static uint64_t container_span(builder *b, const uint8_t *p, uint64_t avail, const char *where)
{
    if (avail < CONTAINER_HEADER) {
        fail(b, "%s: truncated fatbin header (%llu bytes, need %u)", where,
             (unsigned long long)avail, CONTAINER_HEADER);
        return 0;
    }
    uint32_t magic = rd32(p);
    if (magic != FATBIN_MAGIC) {
        if (magic == FATBIN_OLD_MAGIC)
            fail(b, "%s: a pre-CUDA-4 fatbin (magic 0x%08x) is not supported; rebuild with a "
                    "current nvcc", where, magic);
        else
            fail(b, "%s: not a fatbin (magic 0x%08x, expected 0x%08x)", where, magic,
                 FATBIN_MAGIC);
        return 0;
    }
    uint16_t version = rd16(p + 4), hsize = rd16(p + 6);
    uint64_t size = rd64(p + 8);
    if (version != 1) {
        fail(b, "%s: unsupported fatbin version %u (expected 1)", where, version);
        return 0;
    }
    if (hsize < CONTAINER_HEADER || hsize > avail) {
        fail(b, "%s: bad fatbin header size %u", where, hsize);
        return 0;
    }
    if (size > MAX_CONTAINER || size > avail - hsize) {
        fail(b, "%s: fatbin claims %llu bytes of entries but only %llu bytes are there", where,
             (unsigned long long)size, (unsigned long long)(avail - hsize));
        return 0;
    }
    return hsize + size;
}

/* Reads the container at p, which spans exactly `span` bytes (from container_span). */
static int read_container(builder *b, const uint8_t *p, uint64_t span, uint64_t base_off)
{
    uint64_t off = rd16(p + 6);
    unsigned index = 0;
    char where[96];
    while (off < span) {
        uint64_t left = span - off;
        if (left < ENTRY_HEADER_MIN) {
            /* Zero padding at the end of a container is harmless; anything else is not. */
            uint64_t i = 0;
            while (i < left && p[off + i] == 0) i++;
            if (i == left) break;
        }
        snprintf(where, sizeof where, "fatbin at offset 0x%llx, entry %u (offset 0x%llx)",
                 (unsigned long long)base_off, index, (unsigned long long)(base_off + off));
        uint64_t n = read_entry(b, p + off, left, where);
        if (n == 0) return -1;
        off += n;
        index++;
    }
    b->next_container++;
    return 0;
}

/* Reads every container in [data, data+len): one after another, with zero padding between. */
static int read_all(builder *b, const uint8_t *data, size_t len)
{
    size_t off = 0, found = 0;
    char where[64];
    while (off < len) {
        if (data[off] == 0) {  /* alignment padding between containers */
            off++;
            continue;
        }
        snprintf(where, sizeof where, "fatbin at offset 0x%zx", off);
        uint64_t span = container_span(b, data + off, len - off, where);
        if (span == 0) return -1;
        if (read_container(b, data + off, span, off) != 0) return -1;
        off += (size_t)span;
        found++;
    }
    if (found == 0) {
        fail(b, "no fatbin in %zu bytes%s", len, len ? " (all zero)" : "");
        return -1;
    }
    return 0;
}

int ptx_fatbin_read(const void *data, size_t len, ptx_fatbin *out, char *err, size_t errlen)
{
    return ptx_fatbin_read_ex(data, len, 0, out, err, errlen);
}

int ptx_fatbin_read_ex(const void *data, size_t len, unsigned opts, ptx_fatbin *out, char *err,
                       size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    builder b = { .fb = out, .opts = opts, .err = err, .errlen = errlen };
    if (!data) {
        fail(&b, "no fatbin (NULL pointer)");
        return -1;
    }
    if (read_all(&b, data, len) != 0) {
        ptx_fatbin_free(out);
        return -1;
    }
    out->containers = b.next_container;
    return 0;
}

/* Reads the one container at p, whose length only its header knows: the header is believed
 * only as far as the memory it lies in goes (ptx_fatbin_readable_extent). */
static int read_unbounded(builder *b, const uint8_t *p, const char *what)
{
    char where[96];
    snprintf(where, sizeof where, "%s at %p", what, (const void *)p);
    if (!p) {
        fail(b, "%s: NULL", what);
        return -1;
    }
    size_t avail = ptx_fatbin_readable_extent(p);
    if (avail < CONTAINER_HEADER) {
        fail(b, "%s: only %zu readable bytes there, less than a fatbin header", where, avail);
        return -1;
    }
    /* Check the magic before trusting the rest of the 16-byte header to be there. */
    uint32_t magic = rd32(p);
    if (magic != FATBIN_MAGIC) {
        fail(b, "%s: not a fatbin (magic 0x%08x, expected 0x%08x)", where, magic, FATBIN_MAGIC);
        return -1;
    }
    if (avail > MAX_CONTAINER + CONTAINER_HEADER)
        avail = MAX_CONTAINER + CONTAINER_HEADER;
    uint64_t span = container_span(b, p, avail, where);
    if (span == 0) return -1;
    return read_container(b, p, span, 0);
}

int ptx_fatbin_read_wrapper(const void *wrapper, ptx_fatbin *out, char *err, size_t errlen)
{
    return ptx_fatbin_read_wrapper_ex(wrapper, 0, out, err, errlen);
}

int ptx_fatbin_read_wrapper_ex(const void *wrapper, unsigned opts, ptx_fatbin *out, char *err,
                               size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    builder b = { .fb = out, .opts = opts, .err = err, .errlen = errlen };
    const uint8_t *p = wrapper;
    if (!p) {
        fail(&b, "no fatbin (NULL pointer passed to __cudaRegisterFatBinary)");
        return -1;
    }
    size_t avail = ptx_fatbin_readable_extent(p);
    if (avail < 4) {
        fail(&b, "fatbin wrapper at %p is not in readable memory", wrapper);
        return -1;
    }
    uint32_t magic = rd32(p);
    int rc;
    if (magic == FATBIN_MAGIC) {
        rc = read_unbounded(&b, p, "fatbin");
    } else if (magic == FATBIN_WRAPPER_MAGIC) {
        fatbin_wrapper w;
        if (avail < sizeof w) {
            fail(&b, "fatbin wrapper at %p: truncated (%zu readable bytes)", wrapper, avail);
            return -1;
        }
        memcpy(&w, p, sizeof w);
        if (w.version != 1 && w.version != 2) {
            fail(&b, "fatbin wrapper at %p: unsupported version %d (expected 1 or 2)", wrapper,
                 (int)w.version);
            return -1;
        }
        rc = read_unbounded(&b, w.data, "fatbin");
        /* -rdc: the translation units' own fatbins (their PTX) follow the linked one. */
        if (rc == 0 && w.version == 2 && w.filename_or_fatbins) {
            const void *const *pre = w.filename_or_fatbins;
            for (size_t i = 0; rc == 0; i++) {
                if (ptx_fatbin_readable_extent(&pre[i]) < sizeof pre[i]) {
                    fail(&b, "fatbin wrapper at %p: prelinked fatbin list runs out of readable "
                             "memory", wrapper);
                    rc = -1;
                    break;
                }
                if (!pre[i])
                    break;
                if (i == MAX_PRELINKED) {
                    fail(&b, "fatbin wrapper at %p: prelinked fatbin list is not terminated",
                         wrapper);
                    rc = -1;
                    break;
                }
                const uint8_t *q = pre[i];
                size_t qn = ptx_fatbin_readable_extent(q);
                if (qn >= 4 && rd32(q) == FATBIN_WRAPPER_MAGIC) {  /* a wrapper, not its data */
                    fatbin_wrapper inner;
                    if (qn < sizeof inner) {
                        fail(&b, "prelinked fatbin wrapper at %p: truncated", (const void *)q);
                        rc = -1;
                        break;
                    }
                    memcpy(&inner, q, sizeof inner);
                    q = inner.data;
                }
                rc = read_unbounded(&b, q, "prelinked fatbin");
            }
        }
    } else if (magic == FATBIN_OLD_MAGIC) {
        fail(&b, "a pre-CUDA-4 fatbin (magic 0x%08x) is not supported; rebuild with a current "
                 "nvcc", magic);
        return -1;
    } else {
        fail(&b, "not a fatbin wrapper at %p (magic 0x%08x, expected 0x%08x or 0x%08x)",
             wrapper, magic, FATBIN_WRAPPER_MAGIC, FATBIN_MAGIC);
        return -1;
    }
    if (rc != 0) ptx_fatbin_free(out);
    else out->containers = b.next_container;
    return rc;
}

void ptx_fatbin_free(ptx_fatbin *fb)
{
    if (!fb) return;
    for (size_t i = 0; i < fb->count; i++) free_entry(&fb->entries[i]);
    free(fb->entries);
    fb->entries = NULL;
    fb->count = 0;
    fb->containers = 0;
}

/* ---------------------------------------------------------------- choosing the PTX */

static int suffix_rank(char s) { return s == 0 ? 0 : s == 'f' ? 1 : 2; }

/* Negative when a should be tried before b. */
static int ptx_before(const void *pa, const void *pb)
{
    const ptx_fatbin_entry *a = *(const ptx_fatbin_entry *const *)pa;
    const ptx_fatbin_entry *b = *(const ptx_fatbin_entry *const *)pb;
    if (a->ptx_major != b->ptx_major) return a->ptx_major > b->ptx_major ? -1 : 1;
    if (a->ptx_minor != b->ptx_minor) return a->ptx_minor > b->ptx_minor ? -1 : 1;
    if (a->arch != b->arch) return a->arch > b->arch ? -1 : 1;
    int sa = suffix_rank(a->arch_suffix), sb = suffix_rank(b->arch_suffix);
    if (sa != sb) return sa < sb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;  /* all point into one array: keep fatbin order */
}

#define ANY_CONTAINER UINT64_MAX

static bool candidate(const ptx_fatbin_entry *e, uint64_t container)
{
    return e->kind == PTX_FATBIN_PTX && (container == ANY_CONTAINER || e->container == container);
}

static size_t order_ptx(const ptx_fatbin *fb, uint64_t container, const ptx_fatbin_entry **order,
                        size_t max)
{
    if (!fb) return 0;
    size_t n = 0;
    for (size_t i = 0; i < fb->count; i++)
        if (candidate(&fb->entries[i], container)) n++;
    if (!order || max == 0 || n == 0) return n;
    const ptx_fatbin_entry **all = malloc(n * sizeof *all);
    if (!all) {
        /* Without room to sort, fall back to fatbin order: still every candidate. */
        size_t k = 0;
        for (size_t i = 0; i < fb->count && k < max; i++)
            if (candidate(&fb->entries[i], container)) order[k++] = &fb->entries[i];
        return n;
    }
    size_t k = 0;
    for (size_t i = 0; i < fb->count; i++)
        if (candidate(&fb->entries[i], container)) all[k++] = &fb->entries[i];
    qsort(all, n, sizeof *all, ptx_before);
    memcpy(order, all, (n < max ? n : max) * sizeof *all);
    free(all);
    return n;
}

size_t ptx_fatbin_ptx_order(const ptx_fatbin *fb, const ptx_fatbin_entry **order, size_t max)
{
    return order_ptx(fb, ANY_CONTAINER, order, max);
}

size_t ptx_fatbin_ptx_order_in(const ptx_fatbin *fb, uint32_t container,
                               const ptx_fatbin_entry **order, size_t max)
{
    return order_ptx(fb, container, order, max);
}

const ptx_fatbin_entry *ptx_fatbin_best_ptx(const ptx_fatbin *fb, char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    const ptx_fatbin_entry *best = NULL;
    if (fb && ptx_fatbin_ptx_order(fb, &best, 1) > 0 && best) return best;

    builder b = { .err = err, .errlen = errlen };
    uint32_t top = 0;
    char top_sfx = 0;
    char archs[128] = "";
    size_t alen = 0, nelf = 0;
    for (size_t i = 0; fb && i < fb->count; i++) {
        const ptx_fatbin_entry *e = &fb->entries[i];
        if (e->kind != PTX_FATBIN_ELF) continue;
        nelf++;
        if (e->arch > top) {
            top = e->arch;
            top_sfx = e->arch_suffix;
        }
        char one[24];
        snprintf(one, sizeof one, "sm_%u%.1s", e->arch, e->arch_suffix ? &e->arch_suffix : "");
        if (!strstr(archs, one) && alen + strlen(one) + 3 < sizeof archs) {
            alen += (size_t)snprintf(archs + alen, sizeof archs - alen, "%s%s", alen ? ", " : "",
                                     one);
        }
    }
    if (nelf == 0) {
        fail(&b, "the fatbin holds no device code at all; rebuild with nvcc -arch=sm_XX (e.g. "
                 "-arch=sm_75), which embeds PTX");
        return NULL;
    }
    fail(&b, "the fatbin holds no PTX, only SASS for %s, which ptxsim cannot run; rebuild with "
             "-gencode arch=compute_%u%.1s,code=compute_%u%.1s (or -arch=sm_%u%.1s, which embeds "
             "PTX too)",
         archs, top, top_sfx ? &top_sfx : "", top, top_sfx ? &top_sfx : "", top,
         top_sfx ? &top_sfx : "");
    return NULL;
}
