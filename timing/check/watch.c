/* watch.c: --watch=SYMBOL|ADDRESS[:LEN][:rw], a watchpoint on device memory. Every write (and
 * with :rw every read) of a kernel that touches the watched bytes is printed with the thread,
 * the block, the PTX and source line, and the bytes before and after, at the moment it is
 * performed: a memory policy over the launch's own, printing under one lock, so the lines come
 * in the order memory saw the accesses (the same on every run with --threads=1, under
 * --replay, or for a program without races). */
#include "timing/check/check_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct timing_watch {
    char *symbol;            /* NULL: an address */
    uint64_t addr, len;      /* len 0: the symbol's size */
    bool reads;
    FILE *out;
    /* the launch being watched */
    emu_mem_policy pol;
    pthread_mutex_t lock;
    const ptx_module *ptx;
    char *kernel;
    emu_dim3 grid, block;
    uint32_t wpc;
    uint64_t lo, hi;         /* the watched bytes of this launch */
};

timing_watch *timing_watch_create(const char *spec, FILE *out, char *err, size_t errlen)
{
    timing_watch *w = calloc(1, sizeof *w);
    char *copy = strdup(spec);
    if (!w || !copy) {
        free(w);
        free(copy);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    w->out = out;
    pthread_mutex_init(&w->lock, NULL);
    char *save = NULL, *target = strtok_r(copy, ":", &save);
    bool ok = target && *target;
    for (char *f; ok && (f = strtok_r(NULL, ":", &save));) {
        char *end;
        if (strcmp(f, "rw") == 0) w->reads = true;
        else if (strcmp(f, "w") == 0) w->reads = false;
        else if (isdigit((unsigned char)f[0]) && (w->len = strtoull(f, &end, 0), !*end) && w->len)
            ;
        else ok = false;
    }
    if (ok && isdigit((unsigned char)target[0])) {
        char *end;
        w->addr = strtoull(target, &end, 0);
        ok = !*end;
        if (!w->len) w->len = 4;
    } else if (ok) {
        w->symbol = strdup(target);
        ok = w->symbol != NULL;
    }
    free(copy);
    if (!ok) {
        snprintf(err, errlen, "'%s' is not SYMBOL|ADDRESS[:LEN][:rw] (a module variable's name "
                 "or a device address, the bytes to watch, rw to print reads too)", spec);
        free(w->symbol);
        free(w);
        return NULL;
    }
    return w;
}

static void print_bytes(FILE *f, const uint8_t *b, uint64_t n)
{
    /* a value of up to 8 bytes as the little-endian number it is, longer ones byte by byte */
    if (n <= 8) {
        uint64_t v = 0;
        for (uint64_t i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
        fprintf(f, "0x%0*llx", (int)(2 * n), (unsigned long long)v);
        return;
    }
    for (uint64_t i = 0; i < n; i++) fprintf(f, "%02x%s", b[i], i + 1 < n ? " " : "");
}

static emu_mem_outcome watch_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    timing_watch *W = self->state;
    bool write = op->kind == EMU_MEM_STORE || op->kind == EMU_MEM_ATOMIC;
    bool watched = op->space == PTX_SPACE_GLOBAL &&
                   (write || (W->reads && op->kind == EMU_MEM_LOAD));
    for (uint32_t i = 0; watched && i < op->nseg; i++) {
        const emu_mem_seg *g = &op->seg[i];
        if (g->addr < W->hi && g->addr + g->size > W->lo) break;
        if (i + 1 == op->nseg) watched = false;
    }
    if (!watched || !op->nseg) return emu_policy_forward(self, w, op);
    pthread_mutex_lock(&W->lock);
    /* the watched bytes before, for every piece that touches them */
    uint64_t span = W->hi - W->lo;
    uint8_t *before = malloc(span);
    if (before) memcpy(before, (const void *)(uintptr_t)W->lo, span);
    emu_mem_outcome r = emu_policy_forward(self, w, op);
    if (before && (r == EMU_MEM_DONE || r == EMU_MEM_DONE_STOP)) {
        ck_site site = { .func = op->func, .pc = op->pc };
        ck_where where = ck_resolve(W->ptx, W->kernel, &site);
        uint64_t cta = emu_warp_cta_linear(w);
        for (uint32_t i = 0; i < op->nseg; i++) {
            const emu_mem_seg *g = &op->seg[i];
            if (g->addr >= W->hi || g->addr + g->size <= W->lo) continue;
            uint64_t a = g->addr > W->lo ? g->addr : W->lo;
            uint64_t e = g->addr + g->size < W->hi ? g->addr + g->size : W->hi;
            uint64_t tid = (uint64_t)emu_warp_id(w) * EMU_WARP_SIZE + g->lane;
            emu_dim3 t = { (uint32_t)(tid % W->block.x), (uint32_t)(tid / W->block.x % W->block.y),
                           (uint32_t)(tid / ((uint64_t)W->block.x * W->block.y)) };
            emu_dim3 b = { (uint32_t)(cta % W->grid.x), (uint32_t)(cta / W->grid.x % W->grid.y),
                           (uint32_t)(cta / ((uint64_t)W->grid.x * W->grid.y)) };
            char name[96];
            if (W->symbol) snprintf(name, sizeof name, "%s", W->symbol);
            else snprintf(name, sizeof name, "0x%llx", (unsigned long long)W->lo);
            fprintf(W->out, "ptxsim: watch %s+%llu (0x%llx): %s of %llu byte%s by thread "
                    "(%u,%u,%u) in block (%u,%u,%u) at %s: ", name,
                    (unsigned long long)(a - W->lo), (unsigned long long)a,
                    op->kind == EMU_MEM_LOAD ? "read" : op->kind == EMU_MEM_ATOMIC ? "atomic"
                                                                                   : "write",
                    (unsigned long long)(e - a), e - a == 1 ? "" : "s", t.x, t.y, t.z, b.x, b.y,
                    b.z, where.text ? where.text : "?");
            const uint8_t *mine = op->data + g->off + (a - g->addr);
            if (op->kind == EMU_MEM_LOAD) {
                print_bytes(W->out, mine, e - a);
            } else if (op->kind == EMU_MEM_STORE) {
                /* pieces are performed in lane order: each one's old bytes are what the
                 * pieces before it left */
                print_bytes(W->out, before + (a - W->lo), e - a);
                fprintf(W->out, " -> ");
                print_bytes(W->out, mine, e - a);
                memcpy(before + (a - W->lo), mine, e - a);
            } else {
                /* an atomic returns its old value; its new one is the next piece's old value
                 * on the same bytes, or what memory holds after the last */
                const uint8_t *next = (const uint8_t *)(uintptr_t)a;
                for (uint32_t j = i + 1; j < op->nseg; j++)
                    if (op->seg[j].addr == g->addr) {
                        next = op->data + op->seg[j].off + (a - g->addr);
                        break;
                    }
                print_bytes(W->out, mine, e - a);
                fprintf(W->out, " -> ");
                print_bytes(W->out, next, e - a);
            }
            fputc('\n', W->out);
        }
        free(where.text);
        free(where.src_file);
    }
    free(before);
    pthread_mutex_unlock(&W->lock);
    return r;
}

static void watch_event(emu_mem_policy *self, emu_warp *w, emu_policy_event ev, uint32_t lanes)
{
    if (self->next && self->next->event) self->next->event(self->next, w, ev, lanes);
}

static void watch_barrier(emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                          bool wait, uint32_t lanes, uint16_t func, uint32_t pc)
{
    if (self->next && self->next->barrier)
        self->next->barrier(self->next, w, id, count, wait, lanes, func, pc);
}

static void watch_observe(emu_mem_policy *self, emu_warp *w, const emu_mem_op *op)
{
    if (self->next && self->next->observe) self->next->observe(self->next, w, op);
}

static void watch_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
}

emu_mem_policy *timing_watch_begin(timing_watch *W, const emu_launch *L, const char *kernel)
{
    uint64_t addr = W->addr, len = W->len;
    if (W->symbol) {
        uint64_t size;
        if (!emu_module_symbol(L->module, W->symbol, &addr, &size)) return NULL;
        if (!len || len > size) len = size;
    }
    uint64_t base, size;
    if (!emu_find_allocation(addr, len, &base, &size, NULL)) {
        fprintf(W->out, "ptxsim: watch %s: [0x%llx, 0x%llx) is not device memory during %s; "
                "nothing is watched there\n", W->symbol ? W->symbol : "address",
                (unsigned long long)addr, (unsigned long long)(addr + len), kernel);
        return NULL;
    }
    free(W->kernel);
    W->kernel = strdup(kernel);
    if (!W->kernel || !len) return NULL;
    W->lo = addr;
    W->hi = addr + len;
    W->ptx = emu_module_ptx(L->module);
    W->grid = L->grid;
    W->block = L->block;
    emu_mem_policy *next = L->policy ? L->policy : emu_direct_policy();
    W->pol = (emu_mem_policy){
        .name = "watch", .wants = next->wants & EMU_POLICY_SPACES,
        .access = watch_access,
        .event = watch_event, .observe = watch_observe,
        .barrier = watch_barrier, .warp_stopped = watch_stopped,
        .next = next == emu_direct_policy() ? NULL : next, .state = W,
    };
    return &W->pol;
}
