/* targets.c: what each fuzz harness does with one input. Included by the libFuzzer harnesses
 * (tests/fuzz/fuzz_*.c, built by `make fuzz` with clang) and by the replay test
 * (tests/unit/test_fuzz_regressions.c, part of `make check`), so that every input the fuzzers
 * ever found is run again by every check.
 *
 *   ptx:      parse, print, re-parse, and load a PTX module (frontend and loader)
 *   fatbin:   read the input as a bare fatbin, through a version-1 wrapper whose length only
 *             the header knows (the data ends at an inaccessible page), and as an ELF file
 *   runtime:  a program of CUDA runtime calls with hostile arguments (device pointers anywhere,
 *             sizes and kinds of any value; host buffers valid, as a program's must be)
 */
#include "emulator/emu.h"
#include "frontend/ptx.h"
#include "runtime/rt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int fuzz_ptx_one(const uint8_t *data, size_t size)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &d);
    ptx_diag_free(&d);
    if (!m)
        return 0;
    char *printed = NULL;
    size_t plen = 0;
    FILE *f = open_memstream(&printed, &plen);
    if (f) {
        ptx_print(m, f);
        fclose(f);
        ptx_module *again = ptx_parse(printed, plen, "fuzz.printed.ptx", &d);
        ptx_diag_free(&d);
        ptx_module_free(again);
        free(printed);
    }
    char err[512];
    emu_module *em = emu_module_load(m, err, sizeof err);
    emu_module_unload(em);
    ptx_module_free(m);
    return 0;
}

typedef struct fuzz_wrapper {
    int32_t magic, version;
    const void *data;
    const void *filename_or_fatbins;
} fuzz_wrapper;

int fuzz_fatbin_one(const uint8_t *data, size_t size)
{
    ptx_fatbin fb;
    char err[256];
    if (ptx_fatbin_read(data, size, &fb, err, sizeof err) == 0) {
        const ptx_fatbin_entry *order[8];
        ptx_fatbin_ptx_order(&fb, order, 8);
        ptx_fatbin_best_ptx(&fb, err, sizeof err);
        ptx_fatbin_free(&fb);
    }
    /* the wrapper's view: the data ends where its memory does */
    long pg = sysconf(_SC_PAGESIZE);
    size_t room = (size + (size_t)pg - 1) / (size_t)pg * (size_t)pg + (size_t)pg;
    uint8_t *map = mmap(NULL, room + (size_t)pg, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map != MAP_FAILED) {
        mprotect(map + room, (size_t)pg, PROT_NONE);
        uint8_t *at = map + room - size;
        memcpy(at, data, size);
        fuzz_wrapper w = {0x466243b1, 1, at, NULL};
        if (ptx_fatbin_read_wrapper_ex(&w, PTX_FATBIN_SKIP_SASS, &fb, err, sizeof err) == 0)
            ptx_fatbin_free(&fb);
        if (ptx_fatbin_read_wrapper(at, &fb, err, sizeof err) == 0)
            ptx_fatbin_free(&fb);
        munmap(map, room + (size_t)pg);
    }
    /* and as a file */
    char path[] = "/tmp/ptxsim-fuzz-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        if (write(fd, data, size) == (ssize_t)size &&
            ptx_fatbin_read_elf_file_ex(path, PTX_FATBIN_SKIP_SASS, &fb, err, sizeof err) == 0)
            ptx_fatbin_free(&fb);
        close(fd);
        unlink(path);
    }
    return 0;
}

/* ---------------------------------------------------------------- runtime argument checks */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)(r->n ? *r->p : 0) << (8 * i);
        if (r->n) {
            r->p++;
            r->n--;
        }
    }
    return v;
}

#define HOST_BYTES 65536
#define SLOTS 8

/* A device pointer as a hostile program writes one: a live allocation plus an offset (in or
 * past it), NULL, or any value at all. */
static void *dev_ptr(reader *r, void *const *slots)
{
    uint64_t how = take(r, 1) % 4;
    if (how == 0)
        return NULL;
    if (how == 3)
        return (void *)(uintptr_t)take(r, 8);
    uint64_t off = how == 1 ? take(r, 1) : take(r, 4);
    return (char *)slots[take(r, 1) % SLOTS] + off;
}

int fuzz_runtime_one(const uint8_t *data, size_t size)
{
    static uint8_t host[HOST_BYTES];
    void *slots[SLOTS] = {0};
    cudaStream_t streams[2] = {0};
    cudaEvent_t events[2] = {0};
    reader r = {data, size};
    for (int step = 0; step < 64 && r.n; step++) {
        unsigned op = (unsigned)take(&r, 1) % 14;
        size_t count = (size_t)take(&r, 3) % (HOST_BYTES + 1);
        void *dst = dev_ptr(&r, slots), *src = dev_ptr(&r, slots);
        switch (op) {
        case 0: {
            unsigned s = (unsigned)take(&r, 1) % SLOTS;
            if (!slots[s])
                rt_malloc(&slots[s], (size_t)take(&r, 4) % (1u << 24));
            break;
        }
        case 1: {
            unsigned s = (unsigned)take(&r, 1) % SLOTS;
            if (take(&r, 1) & 1) {
                rt_free(slots[s]);
                slots[s] = NULL;
            } else {
                rt_free(dst);   /* whatever pointer: must be refused, not crash */
            }
            break;
        }
        case 2:
            rt_memcpy(dst, host, count, cudaMemcpyHostToDevice, 0, "fuzz");
            break;
        case 3:
            rt_memcpy(host, src, count, cudaMemcpyDeviceToHost, 0, "fuzz");
            break;
        case 4:
            rt_memcpy(dst, src, (size_t)take(&r, 4), cudaMemcpyDeviceToDevice, 0, "fuzz");
            break;
        case 5:   /* a kind that is none */
            rt_memcpy(dst, host, count, (enum cudaMemcpyKind)(5 + take(&r, 1) % 250), 0, "fuzz");
            break;
        case 6:
            rt_memset(dst, (int)take(&r, 1), (size_t)take(&r, 4), 0, "fuzz");
            break;
        case 7:
            rt_memcpy_2d(dst, (size_t)take(&r, 3), src, (size_t)take(&r, 3), (size_t)take(&r, 2),
                         (size_t)take(&r, 2), cudaMemcpyDeviceToDevice, 0, "fuzz");
            break;
        case 8:
            rt_memset_3d(dst, (size_t)take(&r, 3), (size_t)take(&r, 2), 1, (size_t)take(&r, 2),
                         (size_t)take(&r, 2), (size_t)take(&r, 1), 0, "fuzz");
            break;
        case 9: {
            struct cudaPointerAttributes a;
            rt_pointer_get_attributes(&a, dst);
            size_t fr, to;
            rt_mem_get_info(&fr, &to);
            break;
        }
        case 10: {
            size_t v;
            enum cudaLimit l = (enum cudaLimit)(take(&r, 1) % 9);
            rt_device_set_limit(l, (size_t)take(&r, 8) >> (take(&r, 1) % 64));
            rt_device_get_limit(&v, l);
            break;
        }
        case 11: {
            unsigned s = (unsigned)take(&r, 1) % 2;
            if (streams[s]) {
                rt_stream_destroy(streams[s]);
                streams[s] = 0;
            } else {
                rt_stream_create(&streams[s], (unsigned)take(&r, 1) % 4, (int)take(&r, 1) - 128);
            }
            rt_stream_synchronize((cudaStream_t)(uintptr_t)take(&r, 2));
            break;
        }
        case 12: {
            unsigned e = (unsigned)take(&r, 1) % 2;
            if (events[e]) {
                rt_event_record(events[e], streams[take(&r, 1) % 2], 0);
                rt_event_destroy(events[e]);
                events[e] = 0;
            } else {
                rt_event_create(&events[e], (unsigned)take(&r, 1) % 16);
            }
            break;
        }
        case 13: {
            struct cudaFuncAttributes fa;
            rt_func_get_attributes(&fa, dst);
            dim3 g = {(unsigned)take(&r, 1), 1, 1}, b = {(unsigned)take(&r, 2), 1, 1};
            rt_launch(dst, g, b, NULL, (size_t)take(&r, 3), 0);
            break;
        }
        }
    }
    for (int s = 0; s < SLOTS; s++)
        rt_free(slots[s]);
    for (int i = 0; i < 2; i++) {
        if (streams[i])
            rt_stream_destroy(streams[i]);
        if (events[i])
            rt_event_destroy(events[i]);
    }
    rt_device_reset();
    return 0;
}
