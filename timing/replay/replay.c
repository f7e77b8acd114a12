/* replay.c: --replay=FILE runs each launch again exactly as the --record file says.
 *
 * Why the replay is exact. A warp's run is a function of its launch (kernel, shape,
 * parameters), of the device memory at the launch's start, and of the values its memory
 * operations read; %smid reads the SM its CTA ran on. The recording holds, per launch, a hash
 * of the launch and of all device memory at its start (a differing program or input is refused
 * before anything runs), the SM of each CTA, and the total order in which the run performed
 * its memory operations (global and shared loads, stores and atomics, device runtime calls),
 * each named by its warp and the warp's instruction count before it. The replayer runs one
 * warp at a time on this host thread and lets each warp run exactly up to its next operation
 * in that order, so every operation is performed in the recorded order: each load reads what
 * it read in the recorded run, each atomic returns what it returned, and, by induction over the
 * order, every warp computes what it computed (registers, branches and barriers are functions
 * of those values). Memory, device output and faults are therefore the recorded run's, on any
 * --threads (the replay ignores it). A warp whose turn has not come is stopped before its
 * operation by the policy (deferred); the executor counts that issue, so the replayer adds
 * the deferrals to the recorded counts, and %clock (the instruction count) may read higher by
 * them. Anything that does not match (an operation out of turn once every other warp has
 * gone as far as it can, a warp that ends early, a different fault) is reported as a
 * divergence, never silently run on. */
#include "timing/replay/replay_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct rp_entry { uint64_t warp, icount; } rp_entry;

struct timing_replay {
    char *path;
    uint8_t *data;
    rr_reader rd;
    uint32_t launch;           /* launches replayed so far */
};

typedef struct rp_run {
    emu_mem_policy pol;
    rp_entry *e;
    size_t n, head;
    uint32_t *deferred;        /* per warp of the grid: issues its turns deferred */
    uint32_t wpc;
} rp_run;

timing_replay *timing_replay_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long zn = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *z = zn > 0 ? malloc((size_t)zn) : NULL;
    bool ok = z && fread(z, 1, (size_t)zn, f) == (size_t)zn;
    fclose(f);
    unsigned long long n = ok ? ZSTD_getFrameContentSize(z, (size_t)zn) : 0;
    uint8_t *data = NULL;
    if (ok && n != ZSTD_CONTENTSIZE_ERROR && n != ZSTD_CONTENTSIZE_UNKNOWN && n > 9 &&
        (data = malloc(n)))
        ok = ZSTD_decompress(data, n, z, (size_t)zn) == n;
    else
        ok = false;
    free(z);
    timing_replay *r = ok ? calloc(1, sizeof *r) : NULL;
    if (!r || memcmp(data, RR_MAGIC, 8) != 0 || data[8] != RR_VERSION) {
        snprintf(err, errlen, "%s is not a ptxsim recording (version %d)", path, RR_VERSION);
        free(data);
        free(r);
        return NULL;
    }
    r->path = strdup(path);
    r->data = data;
    r->rd = (rr_reader){ data, n, 9, false };
    uint64_t exe = rr_get_varint(&r->rd);
    if (exe != rr_executable_hash()) {
        snprintf(err, errlen, "%s was recorded with another program (the executable differs)",
                 path);
        timing_replay_close(r);
        return NULL;
    }
    return r;
}

void timing_replay_close(timing_replay *r)
{
    if (!r) return;
    free(r->data);
    free(r->path);
    free(r);
}

static emu_mem_outcome rp_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    rp_run *R = self->state;
    if (op->kind == EMU_MEM_FENCE ||
        (op->space != PTX_SPACE_GLOBAL && op->space != PTX_SPACE_SHARED))
        return emu_policy_forward(self, w, op);
    uint64_t gw = emu_warp_cta_linear(w) * R->wpc + emu_warp_id(w);
    if (R->head < R->n && R->e[R->head].warp == gw &&
        R->e[R->head].icount + R->deferred[gw] == emu_warp_instructions(w)) {
        R->head++;
        return emu_policy_forward(self, w, op);
    }
    R->deferred[gw]++;
    return EMU_MEM_DEFERRED;
}

static void rp_event(emu_mem_policy *self, emu_warp *w, emu_policy_event ev, uint32_t lanes)
{
    if (self->next && self->next->event) self->next->event(self->next, w, ev, lanes);
}

static void rp_barrier(emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                       bool wait, uint32_t lanes, uint16_t func, uint32_t pc)
{
    if (self->next && self->next->barrier)
        self->next->barrier(self->next, w, id, count, wait, lanes, func, pc);
}

static void rp_observe(emu_mem_policy *self, emu_warp *w, const emu_mem_op *op)
{
    if (self->next && self->next->observe) self->next->observe(self->next, w, op);
}

static void rp_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
}

/* Runs the other warps of c as far as they go without an operation out of turn (to the
 * barrier w waits at); true when one of them moved. */
static bool advance_others(emu_cta *c, emu_warp *w, bool *fault)
{
    bool moved = false;
    for (uint32_t i = 0; i < emu_cta_warp_count(c); i++) {
        emu_warp *x = emu_cta_warp(c, i);
        if (x == w || !emu_warp_runnable(x)) continue;
        uint64_t before = emu_warp_instructions(x);
        emu_stop s = emu_warp_run(x, UINT64_C(1) << 20);
        if (s == EMU_STOP_FAULT) *fault = true;
        /* a deferred issue counts one instruction but is no progress */
        if (emu_warp_instructions(x) > before + (s == EMU_STOP_MEMORDER ? 1 : 0)) moved = true;
    }
    return moved;
}

bool timing_replay_grid(timing_replay *r, emu_grid *g, const timing_engine_config *cfg,
                        const char *kernel, char *why, size_t whylen, bool *diverged)
{
    *diverged = false;
    const emu_launch *L = emu_grid_launch(g);
    uint32_t index = ++r->launch;
    rr_reader *rd = &r->rd;
    if (rd->at >= rd->n || rr_get_byte(rd) != 'L') {
        snprintf(why, whylen, "launch %u (%s) is not in the recording (it has %u)", index,
                 kernel, index - 1);
        *diverged = true;
        return false;
    }
    uint64_t hash = rr_get_varint(rd);
    char *rkernel = rr_get_string(rd);
    uint64_t ncta = rr_get_varint(rd);
    uint32_t wpc = (uint32_t)rr_get_varint(rd);
    size_t n = (size_t)rr_get_varint(rd);
    rp_run R = { .wpc = wpc, .n = n };
    uint64_t ncta_now = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    uint32_t wpc_now = (L->block.x * L->block.y * L->block.z + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    uint32_t *sm = NULL;
    emu_cta **ctas = NULL;
    bool ok = false;
    if (hash != rr_launch_hash(L, kernel) || ncta != ncta_now || wpc != wpc_now ||
        n > rd->n) {
        snprintf(why, whylen, "launch %u (%s) differs from the recording's (%s): the kernel, its "
                 "launch shape, its parameters or the device memory at its start changed (the "
                 "program's input?)", index, kernel, rkernel ? rkernel : "?");
        *diverged = true;
        goto out;
    }
    R.e = malloc((n ? n : 1) * sizeof *R.e);
    R.deferred = calloc(ncta * wpc != 0 ? ncta * wpc : 1, sizeof *R.deferred);
    sm = malloc((ncta ? ncta : 1) * sizeof *sm);
    ctas = calloc(ncta ? ncta : 1, sizeof *ctas);
    if (!R.e || !R.deferred || !sm || !ctas) {
        snprintf(why, whylen, "out of host memory for the replay of launch %u", index);
        *diverged = true;
        goto out;
    }
    for (uint64_t i = 0; i < ncta; i++) sm[i] = (uint32_t)(i % (cfg->sm_count ? cfg->sm_count : 1));
    for (size_t i = 0; i < n; i++) {
        uint64_t v = rr_get_varint(rd);
        R.e[i].warp = v >> 1;
        if ((v & 1) && (v >> 1) / wpc < ncta) sm[(v >> 1) / wpc] = (uint32_t)rr_get_varint(rd);
        R.e[i].icount = rr_get_varint(rd);
    }
    emu_fault_kind rfault = (emu_fault_kind)rr_get_varint(rd);
    char *rmsg = rr_get_string(rd);
    if (rd->bad) {
        snprintf(why, whylen, "%s is damaged (launch %u)", r->path, index);
        *diverged = true;
        free(rmsg);
        goto out;
    }
    emu_mem_policy *next = L->policy ? L->policy : emu_direct_policy();
    R.pol = (emu_mem_policy){
        .name = "replay",
        .wants = EMU_POLICY_WANTS_SHARED | (next->wants & EMU_POLICY_SPACES),
        .access = rp_access,
        .event = rp_event, .observe = rp_observe, .barrier = rp_barrier,
        .warp_stopped = rp_stopped,
        .next = next == emu_direct_policy() ? NULL : next, .state = &R,
    };
    emu_grid_set_policy(g, &R.pol);
    bool fault = false;
    /* the recorded order, one operation at a time */
    while (R.head < R.n && !fault && !*diverged) {
        const rp_entry *e = &R.e[R.head];
        uint64_t cid = e->warp / wpc;
        if (cid >= ncta) {
            *diverged = true;
            break;
        }
        if (!ctas[cid] && !(ctas[cid] = emu_cta_create(g, cid, sm[cid]))) {
            snprintf(why, whylen, "out of host memory for CTA %llu", (unsigned long long)cid);
            *diverged = true;
            break;
        }
        emu_warp *w = emu_cta_warp(ctas[cid], (uint32_t)(e->warp % wpc));
        size_t before = R.head;
        if (!emu_warp_runnable(w)) {
            if (!advance_others(ctas[cid], w, &fault) && !emu_warp_runnable(w) && !fault) {
                snprintf(why, whylen, "launch %u (%s): warp %u of CTA %llu waits at a barrier "
                         "where the recording has its operation %zu", index, kernel,
                         (unsigned)(e->warp % wpc), (unsigned long long)cid, R.head);
                *diverged = true;
            }
            continue;
        }
        uint64_t target = e->icount + R.deferred[e->warp], now = emu_warp_instructions(w);
        if (now > target) {
            snprintf(why, whylen, "launch %u (%s): warp %u of CTA %llu went past its operation "
                     "%zu (instruction %llu)", index, kernel, (unsigned)(e->warp % wpc),
                     (unsigned long long)cid, R.head, (unsigned long long)e->icount);
            *diverged = true;
            break;
        }
        emu_stop s = emu_warp_run(w, target - now + 1);
        if (s == EMU_STOP_FAULT) fault = true;
        if (R.head > before || s == EMU_STOP_BARRIER || fault) continue;
        if (s == EMU_STOP_MEMORDER) {
            /* its operation came out of turn: let the others of its CTA go as far as they can */
            if (advance_others(ctas[cid], w, &fault) || fault) continue;
        }
        snprintf(why, whylen, "launch %u (%s): warp %u of CTA %llu did not reach its operation "
                 "%zu at instruction %llu (stopped: %d)", index, kernel,
                 (unsigned)(e->warp % wpc), (unsigned long long)cid, R.head,
                 (unsigned long long)e->icount, (int)s);
        *diverged = true;
    }
    /* the rest: warps with no recorded operation left run to their end (or the recorded
     * fault); an operation now is one the recording does not have */
    for (bool moved = true; moved && !fault && !*diverged;) {
        moved = false;
        bool live = false;
        for (uint64_t cid = 0; cid < ncta && !fault; cid++) {
            if (ctas[cid] == (emu_cta *)1) continue;   /* finished */
            if (!ctas[cid] && !(ctas[cid] = emu_cta_create(g, cid, sm[cid]))) {
                *diverged = true;
                break;
            }
            emu_cta *c = ctas[cid];
            for (uint32_t i = 0; i < emu_cta_warp_count(c); i++) {
                emu_warp *x = emu_cta_warp(c, i);
                if (!emu_warp_runnable(x)) continue;
                uint64_t b = emu_warp_instructions(x);
                emu_stop s = emu_warp_run(x, UINT64_C(1) << 20);
                if (s == EMU_STOP_FAULT) fault = true;
                if (emu_warp_instructions(x) > b + (s == EMU_STOP_MEMORDER ? 1 : 0)) moved = true;
            }
            if (emu_cta_done(c)) {
                emu_cta_destroy(c);
                ctas[cid] = (emu_cta *)1;
                moved = true;
            } else {
                live = true;
            }
        }
        if (!live) break;
    }
    const emu_fault *f = emu_grid_fault(g);
    if (!*diverged) {
        bool done = true;
        for (uint64_t cid = 0; cid < ncta; cid++) done &= ctas[cid] == (emu_cta *)1;
        if (!f && !done) {
            snprintf(why, whylen, "launch %u (%s): warps wait for operations the recording does "
                     "not have", index, kernel);
            *diverged = true;
        } else if ((f ? (emu_fault_kind)f->kind : EMU_FAULT_NONE) != rfault ||
                   (f && strcmp(f->message, rmsg) != 0)) {
            snprintf(why, whylen, "launch %u (%s) ended %s, the recording %s", index, kernel,
                     f ? f->message : "without a fault", rfault ? rmsg : "without a fault");
            *diverged = true;
        }
    }
    free(rmsg);
    ok = !*diverged && !f;
out:
    if (ctas)
        for (uint64_t cid = 0; cid < ncta; cid++)
            if (ctas[cid] && ctas[cid] != (emu_cta *)1) emu_cta_destroy(ctas[cid]);
    free(ctas);
    free(sm);
    free(R.e);
    free(R.deferred);
    free(rkernel);
    if (cfg->stats) cfg->stats->grids++;
    return ok;
}
