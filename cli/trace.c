/* cli/trace.c: `ptxsim trace FILE [filters]`: prints a trace written by --trace=FILE, one line
 * per warp instruction, in the order launch, block, warp, issue, so the output does not depend
 * on how many host threads ran the program. Filters keep a kernel, a block, a warp, an op class,
 * a PTX-line range, or the memory instructions only; --summary counts instead of listing. */
#include "cli/cli.h"
#include "timing/timing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim trace FILE [--kernel=SUBSTRING] [--block=N] [--warp=N] [--class=NAME]\n"
            "                         [--lines=A-B] [--memory] [--limit=N] [--summary]\n"
            "  prints the instructions a --trace=FILE run recorded, one per line:\n"
            "    launch block warp #issue  function:pc (PTX line)  opcode class  active/executed\n"
            "    lanes, then the addresses of memory instructions and the outcome of branches\n"
            "  --block is the block's linear index (x fastest); --class takes an op class as\n"
            "  --stats names them (ld.global, fp32, branch, ...); --summary prints per-kernel\n"
            "  instruction counts by class instead\n");
}

typedef struct filter {
    const char *kernel, *cls;
    int64_t block, warp;
    uint32_t line_lo, line_hi;
    bool memory, summary;
    uint64_t limit;
} filter;

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s) return false;
    *v = strtoull(s, &end, 0);
    return *end == 0;
}

/* The lanes' addresses of a memory event: a base and a stride when they form one, else each. */
static void print_addresses(const timing_trace_data *d, const timing_trace_event *e)
{
    uint32_t n = (uint32_t)__builtin_popcount(e->mem_lanes);
    const uint64_t *a = d->addrs + e->addr_first;
    bool strided = n > 2;
    int64_t stride = n > 1 ? (int64_t)(a[1] - a[0]) : 0;
    for (uint32_t i = 2; i < n && strided; i++) strided = (int64_t)(a[i] - a[i - 1]) == stride;
    uint64_t off;
    uint8_t sp = emu_address_space(a[0], &off);
    const char *spn = sp == PTX_SPACE_SHARED ? "shared" : sp == PTX_SPACE_LOCAL ? "local"
                      : sp == PTX_SPACE_PARAM ? "param" : "global";
    if (strided && __builtin_popcount(e->mem_lanes) == 32 - __builtin_clz(e->mem_lanes) -
                                                          __builtin_ctz(e->mem_lanes)) {
        printf("  %s 0x%" PRIx64 " + %" PRId64 "*lane, %u bytes", spn, off, stride, e->size);
        return;
    }
    printf("  %s %u bytes:", spn, e->size);
    uint32_t k = 0;
    for (uint32_t mk = e->mem_lanes; mk; mk &= mk - 1, k++) {
        emu_address_space(a[k], &off);
        printf(" %d:0x%" PRIx64, __builtin_ctz(mk), off);
    }
}

static const char *stop_name(uint8_t s)
{
    switch (s) {
    case EMU_STOP_BUDGET: return "yield";
    case EMU_STOP_BARRIER: return "waits at barrier";
    case EMU_STOP_MEMORDER: return "stops for the memory policy";
    case EMU_STOP_EXIT: return "exited";
    case EMU_STOP_FAULT: return "FAULT";
    case EMU_STOP_RESTART: return "restarts";
    default: return "";
    }
}

int cli_trace(int argc, char **argv)
{
    const char *path = NULL;
    filter f = { .block = -1, .warp = -1, .line_hi = UINT32_MAX };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strncmp(a, "--kernel=", 9) == 0) {
            f.kernel = a + 9;
        } else if (strncmp(a, "--block=", 8) == 0 && parse_u64(a + 8, &v)) {
            f.block = (int64_t)v;
        } else if (strncmp(a, "--warp=", 7) == 0 && parse_u64(a + 7, &v)) {
            f.warp = (int64_t)v;
        } else if (strncmp(a, "--class=", 8) == 0) {
            f.cls = a + 8;
        } else if (strncmp(a, "--lines=", 8) == 0) {
            unsigned lo, hi;
            if (sscanf(a + 8, "%u-%u", &lo, &hi) != 2 || lo > hi) {
                fprintf(stderr, "ptxsim trace: --lines takes A-B, got '%s'\n", a + 8);
                return 2;
            }
            f.line_lo = lo;
            f.line_hi = hi;
        } else if (strcmp(a, "--memory") == 0) {
            f.memory = true;
        } else if (strcmp(a, "--summary") == 0) {
            f.summary = true;
        } else if (strncmp(a, "--limit=", 8) == 0 && parse_u64(a + 8, &v)) {
            f.limit = v;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxsim trace: unknown or malformed option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "ptxsim trace: one trace file at a time\n");
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    int cls = -1;
    if (f.cls) {
        for (int c = 0; c < EMU_CLS_COUNT; c++)
            if (strcmp(emu_op_class_name((emu_op_class)c), f.cls) == 0) cls = c;
        if (cls < 0) {
            fprintf(stderr, "ptxsim trace: unknown op class '%s'; the classes are:", f.cls);
            for (int c = 0; c < EMU_CLS_COUNT; c++)
                fprintf(stderr, " %s", emu_op_class_name((emu_op_class)c));
            fprintf(stderr, "\n");
            return 2;
        }
    }
    char err[512];
    timing_trace_data *d = timing_trace_read(path, err, sizeof err);
    if (!d) {
        fprintf(stderr, "ptxsim trace: %s\n", err);
        return 1;
    }
    if (err[0]) fprintf(stderr, "ptxsim trace: warning: %s\n", err);
    uint64_t printed = 0;
    size_t li = 0;
    uint64_t counts[EMU_CLS_COUNT] = { 0 }, total = 0;
    const timing_trace_launch_info *cur = NULL;
    uint64_t issue = 0;
    for (size_t r = 0; r < d->nruns; r++) {
        const timing_trace_run *R = &d->runs[r];
        /* the warp's own instruction number, counted over its runs */
        if (r == 0 || R->launch != R[-1].launch || R->cta != R[-1].cta || R->warp != R[-1].warp)
            issue = 0;
        uint64_t first_issue = issue;
        issue += R->n;
        while (li < d->nlaunches && d->launches[li].id < R->launch) li++;
        const timing_trace_launch_info *L =
            li < d->nlaunches && d->launches[li].id == R->launch ? &d->launches[li] : NULL;
        if (f.kernel && (!L || !strstr(L->kernel, f.kernel))) continue;
        if (f.block >= 0 && R->cta != (uint64_t)f.block) continue;
        if (f.warp >= 0 && R->warp != (uint64_t)f.warp) continue;
        if (f.summary && L != cur) {
            if (cur && total) {
                printf("%s: %" PRIu64 " warp instructions:", cur->kernel, total);
                for (int c = 0; c < EMU_CLS_COUNT; c++)
                    if (counts[c]) printf(" %s %" PRIu64, emu_op_class_name((emu_op_class)c), counts[c]);
                printf("\n");
            }
            memset(counts, 0, sizeof counts);
            total = 0;
            cur = L;
        }
        for (uint32_t i = 0; i < R->n; i++) {
            const timing_trace_event *e = &d->events[R->first + i];
            const timing_trace_func *F = L && e->func < L->nfuncs ? &L->funcs[e->func] : NULL;
            uint32_t line = F && e->pc < F->ninstrs ? F->line[e->pc] : 0;
            if (cls >= 0 && e->cls != cls) continue;
            if (f.memory && !(e->flags & EMU_EV_MEM)) continue;
            if (line < f.line_lo || line > f.line_hi) continue;
            if (f.summary) {
                if (e->cls < EMU_CLS_COUNT) counts[e->cls]++;
                total++;
                continue;
            }
            if (f.limit && printed >= f.limit) goto done;
            printed++;
            printf("L%" PRIu64 " b%" PRIu64 " w%u #%-5" PRIu64 " %s:%u (PTX %u)  %-12s %-10s "
                   "%08x/%08x", R->launch, R->cta, R->warp,
                   first_issue + i, F ? F->name : "?", e->pc, line, ptx_opcode_name((ptx_opcode)e->op),
                   emu_op_class_name((emu_op_class)e->cls), e->active, e->mask);
            if (e->flags & EMU_EV_MEM) print_addresses(d, e);
            if (e->flags & EMU_EV_BRANCH) {
                printf("  taken %08x", e->taken);
                if (e->flags & EMU_EV_DIVERGED) printf(", diverges, rejoins at pc %u", e->reconv);
            }
            if (e->stop != EMU_EVENT_RAN) printf("  [%s]", stop_name(e->stop));
            printf("\n");
        }
    }
    if (f.summary && cur && total) {
        printf("%s: %" PRIu64 " warp instructions:", cur->kernel, total);
        for (int c = 0; c < EMU_CLS_COUNT; c++)
            if (counts[c]) printf(" %s %" PRIu64, emu_op_class_name((emu_op_class)c), counts[c]);
        printf("\n");
    }
done:
    timing_trace_data_free(d);
    return 0;
}
