/* replay.c: the cycle model under --det=gpudet.
 *
 * GPUDet decides the program's results: its quanta, store buffers and serial mode run the grid
 * functionally exactly as without --timing, on any number of host threads. While they do, the
 * model's event sink records each warp's instructions (class, registers, masks, lane addresses)
 * in the warp's own record, so the records are the same on every run: GPUDet makes every load's
 * value, hence every branch and address, the same whatever the threads and the seed. The model
 * then issues each warp's recorded instructions on the SMs as it issues executed ones
 * (trace-driven), one host thread, in (cycle, SM, scheduler, warp) order, so cycles and
 * statistics are as deterministic as the record. %clock reads in the kernel read GPUDet's
 * deterministic counts, not model cycles.
 *
 * GPUDet's own modes are timed from the record too (spec gpudet.md S3.1). Each record carries
 * the quantum it ran in; a warp's records of a later quantum wait, so quantum q's parallel mode
 * ends when no warp can issue and its results have landed. Then, as the spec's phase sequence:
 *   global barrier (gpudet_barrier_latency cycles)
 *   commit mode: one Z-buffer unit request per store-buffer entry the quantum committed (S7.5),
 *     each sent from its SM's interconnect port (TM_ZREQ_BYTES at icnt_bytes_per_cycle) to the
 *     Z-buffer unit of the chunk's DRAM channel, which takes one per zunit_clock_khz cycle
 *     (S7.2); mode ends when the busiest port and the busiest unit are done, plus the trip
 *     (icnt_latency) and the L2 write (l2_latency); then every L1 is invalidated (S7.1);
 *   global barrier
 *   serial mode, when a warp deferred an atomic or call (S8): its recorded instruction on the
 *     model's memory system, CU-Ser (SMs ascending, each SM's pipelined in warp slot order, the
 *     next SM when all have completed) or W-Ser (one at a time, ascending hardware warp ID =
 *     slot x SMs + SM); then a global barrier. A KILO TM commit (--tm=kilotm, run in serial
 *     mode) is timed there through the commit units (timing/kilotm/cycles.c) and its warp's
 *     serial instruction completes with its outcome.
 * The store buffer's log in parallel mode (sm.c hands a global access to timing/detcost/log.c),
 * the Z-caches and the lock-based commit (timing/detcost/commit.c) are timed beside this.
 * CTAs go where GPUDet's work distributions and DWP launched them (timing_record_gpudet_launch;
 * run.c's gpudet_queues), so W-Ser's hardware warp IDs and each SM's load are GPUDet's.
 *
 * DAB (--det=dab --timing) is replayed the same way on its epochs: a record carries its epoch
 * (and whether the flush ran it: a flush-class operation); a buffered atomic costs one cycle and
 * no memory traffic at issue (sm.c); at an epoch's end the flush costs its protocol from DAB's
 * own transactions (flush_cycles), then the flush-class operations run on the memory system
 * (flush_ops: pipelined per SM, all SMs at once), then dab_barrier_latency. The determinism-aware scheduler's order (token,
 * rounds, SRR's turns) and DAB's static CTA placement are kept too (see "DAB's scheduler
 * order" below). */
#include "timing/detcost/detcost.h"
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap * 2 : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

/* Whether e, the last instruction of a run, did not complete and runs again: GPUDet defers an
 * atomic in parallel mode to serial mode (EMU_STOP_MEMORDER, the warp still at it), a policy
 * restarts lanes, an mbarrier wait yields. Only the run that completes it is recorded. The
 * same path must still be at it (its lanes): another path of the warp may wait at the same
 * instruction once this one has run it (diverged lanes at one KILO TM tx_commit or atomic). */
static bool not_done(const emu_warp *w, const emu_event *e)
{
    if (e->stop != EMU_STOP_MEMORDER && e->stop != EMU_STOP_RESTART && e->stop != EMU_STOP_BUDGET)
        return false;
    emu_next_instr at;
    return emu_warp_peek(w, &at) && at.func == e->func && at.pc == e->pc &&
           (emu_warp_path_lanes(w) & e->active) != 0;
}

/* DAB: whether the calling host thread's warp runs in its SM's lockstep (SRR, GTRR). */
static _Thread_local bool rec_lockstep;

void timing_record_dab_lockstep(bool on)
{
    rec_lockstep = on;
}

void tm_trace_record(tm_trace *t, emu_warp *w, const emu_event *ev, uint32_t n)
{
    uint64_t cta = emu_warp_cta_linear(w);
    uint32_t id = emu_warp_id(w);
    if (cta >= t->nctas || id >= t->warps_per_cta) return;
    /* only this warp's host thread writes its record */
    tm_trace_warp *tw = &t->warps[cta * t->warps_per_cta + id];
    if (tw->oom) return;
    uint64_t before = tw->n;
    if (!grow((void **)&tw->recs, &tw->cap, tw->n + n, sizeof *tw->recs)) {
        tw->oom = true;
        return;
    }
    /* the events are the warp's last n instructions (the ring is handed over when full or
     * when the run ends, before a restart rewinds the warp) */
    uint64_t first = emu_warp_instructions(w) - n;
    for (uint32_t i = 0; i < n; i++) {
        const emu_event *e = &ev[i];
        tm_rec *r = &tw->recs[tw->n];
        /* --igpu: what the instruction costs beyond itself, as timing_igpu_take_cost gives the
         * model when it runs warps ahead (sm.c). A restart's faulting instruction did not
         * complete but issued: it is recorded with its restart. */
        timing_igpu_cost c = {0, 0, false};
        bool charged = t->igpu && timing_igpu_take_cost(t->igpu, w, first + i, &c);
        if (tw->igpu_carry) {
            c.stall += tw->carry.stall;
            c.state += tw->carry.state;
            c.restart |= tw->carry.restart;
            charged = true;
            tw->igpu_carry = false;
        }
        if (i == n - 1 && not_done(w, e) && !(charged && c.restart)) {
            tw->igpu_carry = charged;
            tw->carry = c;
            continue;
        }
        if (!emu_warp_instr(w, e->func, e->pc, &r->in)) {
            tw->igpu_carry = charged;
            tw->carry = c;
            continue;
        }
        r->igpu_charged = charged;
        r->igpu = c;
        r->mask = e->mask;
        r->mem_lanes = e->mem_lanes;
        r->size = e->size;
        r->op = e->op;
        r->cls = e->cls;
        r->flags = e->flags & ~EMU_EV_COMPACT;   /* the record holds every address */
        r->space = e->space;
        r->serial = t->serial;
        r->quantum = t->quantum;
        r->ticket = 0;
        if (t->tickets && !t->serial && (rec_lockstep || e->cls == EMU_CLS_ATOMIC))
            /* the SM's host thread runs its warps one at a time and each run's events arrive
             * at its end, so this is the order the SM ran them in */
            r->ticket = ++t->tickets[emu_warp_slot(w) % t->nsm];
        r->addr = tw->naddrs;
        if (e->flags & EMU_EV_MEM) {
            uint32_t k = (uint32_t)__builtin_popcount(e->mem_lanes);
            if (!grow((void **)&tw->addrs, &tw->acap, tw->naddrs + k, sizeof *tw->addrs)) {
                tw->oom = true;
                return;
            }
            for (uint32_t m = e->mem_lanes; m; m &= m - 1)
                tw->addrs[tw->naddrs++] = emu_event_lane_addr(e, __builtin_ctz(m));
        }
        tw->n++;
    }
    /* a KILO TM commit (serial mode's one instruction) goes with its record */
    if (!tm_kilotm_trace_step(w, tw, tw->n > before)) tw->oom = true;
}

void tm_trace_event(const tm_trace_warp *tw, const tm_rec *r, emu_event *e,
                    uint64_t addrs[EMU_WARP_SIZE])
{
    e->pc = r->in.pc;
    e->func = r->in.func;
    e->active = r->mask;
    e->mask = r->mask;
    e->op = r->op;
    e->cls = r->cls;
    e->stop = EMU_EVENT_RAN;
    e->flags = r->flags;
    e->space = r->space;
    e->size = r->size;
    e->mem_lanes = r->mem_lanes;
    e->taken = 0;
    e->reconv = 0;
    e->lane_addr = addrs;
    if (r->flags & EMU_EV_MEM) {
        uint64_t a = r->addr;
        for (uint32_t m = r->mem_lanes; m; m &= m - 1)
            e->lane_addr[__builtin_ctz(m)] = tw->addrs[a++];
    }
}

/* ---------------------------------------------------------------- GPUDet's record */

static tm_trace *recording;   /* the grid GPUDet runs under --timing (one grid at a time) */

/* A DAB flush packet: a header (address, operation, SM and sequence number) and each entry's
 * 8-byte argument with its offset in the sector. */
#define TM_FLUSH_HEADER 16u
#define TM_FLUSH_ENTRY 9u

bool timing_record_active(void)
{
    return recording != NULL;
}

void timing_record_gpudet_phase(uint64_t quantum, bool serial)
{
    tm_trace *t = recording;
    if (!t) return;
    t->quantum = quantum;
    t->serial = serial;
    if (quantum > t->quanta) t->quanta = quantum;
}

void timing_record_gpudet_commit(uint32_t sm, uint32_t wid, uint64_t chunk)
{
    tm_trace *t = recording;
    if (!t || t->oom || !t->quantum) return;
    uint64_t stride = (uint64_t)t->nchan + t->nsm;
    uint64_t have = t->commit_cap;
    if (!grow((void **)&t->commits, &t->commit_cap, t->quantum * stride, sizeof *t->commits)) {
        t->oom = true;
        return;
    }
    if (t->commit_cap > have)
        memset(t->commits + have, 0, (t->commit_cap - have) * sizeof *t->commits);
    uint64_t *row = &t->commits[(t->quantum - 1) * stride];
    uint32_t chan = tm_mem_channel(t->gpu, chunk / TM_LINE);
    row[chan]++;
    row[t->nchan + (sm < t->nsm ? sm : t->nsm - 1)]++;
    tm_gdc_record(t, wid, chunk, chan);
}

void timing_record_gpudet_launch(uint64_t cta, uint32_t sm, uint32_t k, uint64_t seq)
{
    tm_trace *t = recording;
    if (!t || !t->launch_sm || cta >= t->nctas) return;
    t->launch_sm[cta] = sm;
    t->launch_k[cta] = k;
    t->launch_seq[cta] = seq;
}

void timing_record_dab_phase(uint64_t epoch, bool flushing)
{
    timing_record_gpudet_phase(epoch, flushing);
}

void timing_record_dab_flush(uint32_t sm, uint32_t subp, uint32_t entries)
{
    tm_trace *t = recording;
    if (!t || t->oom || !t->quantum) return;
    uint64_t stride = (uint64_t)t->nchan + t->nsm;
    uint64_t have = t->commit_cap;
    if (!grow((void **)&t->commits, &t->commit_cap, t->quantum * stride, sizeof *t->commits)) {
        t->oom = true;
        return;
    }
    if (t->commit_cap > have)
        memset(t->commits + have, 0, (t->commit_cap - have) * sizeof *t->commits);
    uint64_t *row = &t->commits[(t->quantum - 1) * stride];
    row[subp < t->nchan ? subp : t->nchan - 1]++;
    row[t->nchan + (sm < t->nsm ? sm : t->nsm - 1)] += TM_FLUSH_HEADER + TM_FLUSH_ENTRY * entries;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Commit mode of quantum q from its record: its cycles (timing/detcost/commit.c: Z-buffer
 * units with their Z-caches, or the lock-based commit), its requests in *reqs and Z-cache
 * misses in *misses. */
static uint64_t commit_cycles(const tm_model *M, uint64_t q, uint64_t *reqs, uint64_t *misses)
{
    const tm_trace *t = M->trace;
    uint64_t stride = (uint64_t)t->nchan + t->nsm;
    *reqs = 0;
    *misses = 0;
    if (!q || q * stride > t->commit_cap || !t->commits) return 0;
    const uint64_t *row = &t->commits[(q - 1) * stride];
    for (uint32_t c = 0; c < t->nchan; c++) *reqs += row[c];
    if (!*reqs) return 0;
    return tm_gdc_cycles(M, q, row, row + t->nchan, misses);
}

/* DAB's flush protocol for epoch q (spec dab.md S8.2): pre-flush messages cross the
 * interconnect, every SM pushes its packets through its port at once, each sub-partition's ROP
 * takes one transaction per cycle in its round-robin order (a coalesced sector is one
 * transaction: ptxsim's choice, the paper gives no ROP rate), each transaction is performed at
 * L2 and its writeback returns; the next epoch starts when the last has (no overlap). *txns
 * gets the transactions. */
static uint64_t flush_cycles(const tm_model *M, uint64_t q, uint64_t *txns, uint64_t *push_out,
                             uint64_t *rop_out)
{
    const tm_trace *t = M->trace;
    const timing_gpu *g = M->gpu;
    uint64_t stride = (uint64_t)t->nchan + t->nsm;
    *txns = 0;
    if (!q || q * stride > t->commit_cap || !t->commits) return 0;
    const uint64_t *row = &t->commits[(q - 1) * stride];
    uint64_t rop = 0, port = 0;
    for (uint32_t c = 0; c < t->nchan; c++) {
        *txns += row[c];
        if (row[c] > rop) rop = row[c];
    }
    for (uint32_t s = 0; s < t->nsm; s++)
        if (row[t->nchan + s] > port) port = row[t->nchan + s];
    if (!*txns) return 0;
    uint64_t push = ceil_div(port, (uint64_t)g->icnt_bytes_per_cycle);
    *push_out = push;
    *rop_out = rop;
    /* DAB-NR and after (the limitation study): the ROPs take packets as they arrive, with no
     * wait for the pre-flush messages */
    uint64_t pre = M->dab_limit >= TIMING_DAB_LIMIT_NR ? 0 : (uint64_t)g->icnt_latency;
    return pre + (push > rop ? push : rop) + 2 * (uint64_t)g->icnt_latency + (uint64_t)g->l2_latency;
}

static bool in_serial(const tm_warp *tw, uint64_t q);
static uint64_t serial_one(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t t, uint64_t *issue_next);

/* DAB's flush-class operations of epoch q from cycle t: when the last completes. They travel
 * in the flush (spec G7, G9): each SM sends its own in warp slot order, back to back as its
 * load/store unit takes them (pipelined, as a warp's atomics are), and every SM at once; the
 * sub-partitions' round-robin order, which the functional run applied, fixes their values, so
 * none waits for another's round trip. Each completes when its own result is back. */
static uint64_t flush_ops(tm_model *M, uint64_t q, uint64_t t, bool flushed)
{
    uint64_t end = t;
    for (uint32_t s = 0; s < M->nsm; s++) {
        uint64_t issue = t;
        if (!flushed) {
            /* a flush of flush-class operations alone still announces itself to the
             * sub-partitions first (the pre-flush messages of S8.2) */
            issue += (uint64_t)M->gpu->icnt_latency;
        }
        for (uint32_t i = 0; i < M->warp_slots; i++) {
            tm_warp *tw = &M->sms[s].warps[i];
            if (!in_serial(tw, q)) continue;
            uint64_t done = serial_one(M, &M->sms[s], tw, issue, &issue);
            if (done > end) end = done;
        }
    }
    return end;
}

/* Makes every warp wait until t, the next quantum's (epoch's) first cycle. */
static void start_next(tm_model *M, uint64_t t)
{
    M->cur_q++;
    M->q_start = M->q_drain = t;
    M->gated = false;
    for (uint32_t i = 0; i < M->nsm; i++) {
        tm_sm *S = &M->sms[i];
        S->wake = t;
        memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
        for (uint32_t k = 0; k < S->nwarps; k++) {
            tm_warp *tw = &S->warps[k];
            if (!tw->occupied || tw->done) continue;
            if (tm_warp_ready(S, tw) < t) tm_warp_set_ready(S, tw, t);
            /* a serial-mode (flush) instruction that was the warp's last */
            if (tw->trace && tw->pos >= tw->nev) tm_warp_exited(M, S, tw, t);
        }
    }
}

static uint64_t dab_epoch_end(tm_model *M, uint64_t now)
{
    uint64_t q = M->cur_q;
    uint64_t t = now > M->q_drain ? now : M->q_drain;
    M->st.dab_parallel_cycles += t - M->q_start;
    uint64_t txns, push = 0, rop = 0;
    uint64_t f = flush_cycles(M, q, &txns, &push, &rop);
    if (f && M->dab_limit == TIMING_DAB_LIMIT_NR_OF) {
        /* DAB-NR-OF: flushes overlap. The SMs go on once their packets have left; the ROPs
         * work through this flush after the previous one's, and the kernel ends only when the
         * last flush has completed (G10) */
        const timing_gpu *g = M->gpu;
        uint64_t arrive = t + (uint64_t)g->icnt_latency;
        uint64_t start = arrive > M->rop_free ? arrive : M->rop_free;
        M->rop_free = start + rop;
        uint64_t complete = M->rop_free + (uint64_t)g->icnt_latency + (uint64_t)g->l2_latency;
        if (complete > M->flush_tail) M->flush_tail = complete;
        f = push;
        if (q >= M->trace->quanta && M->flush_tail > t + f) f = M->flush_tail - t;
    }
    M->st.dab_flush_cycles += f;
    t += f;
    uint64_t o = flush_ops(M, q, t, f > 0);
    M->st.dab_flush_op_cycles += o - t;
    t = o + (uint64_t)M->gpu->dab_barrier_latency;
    M->st.dab_barrier_cycles += (uint64_t)M->gpu->dab_barrier_latency;
    start_next(M, t);
    return t;
}

bool tm_det_gated(tm_model *M, const tm_warp *tw)
{
    const tm_rec *r = &tw->trace->recs[tw->pos];
    if (r->quantum < M->cur_q || (r->quantum == M->cur_q && !r->serial)) return false;
    M->gated = true;
    return true;
}

/* Serial mode's instruction of warp tw (SM S) issued at cycle t: when it completes; *issue_next
 * gets when the SM's load/store unit takes the next. */
static uint64_t serial_one(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t t, uint64_t *issue_next)
{
    emu_event e;
    uint64_t addrs[EMU_WARP_SIZE];
    const tm_rec *r = &tw->trace->recs[tw->pos];
    tm_trace_event(tw->trace, r, &e, addrs);
    M->st.thread_instructions += (uint64_t)__builtin_popcount(e.mask);
    uint64_t done = t + 1;
    uint32_t lsu = 1;
    if (e.flags & EMU_EV_MEM) {
        tm_access a = tm_mem_access(&M->mem, S->id, t, &e);
        a.done = tm_mem_settle(&M->mem, a.done);   /* serial: the next waits for it */
        if (a.done > done) done = a.done;
        if (a.lsu_cycles > lsu) lsu = a.lsu_cycles;
    }
    if (M->kilotm) {
        /* a KILO TM commit step: serial mode waits for its outcome */
        uint64_t c = tm_kilotm_replay_step(M, S, tw->trace, tw->pos, t);
        if (c > done) done = c;
    }
    tw->pos++;
    *issue_next = t + lsu;
    return done;
}

/* Whether warp tw of SM S waits at its serial-mode instruction of quantum q. */
static bool in_serial(const tm_warp *tw, uint64_t q)
{
    if (!tw->occupied || tw->done || !tw->trace || tw->pos >= tw->nev) return false;
    const tm_rec *r = &tw->trace->recs[tw->pos];
    return r->serial && r->quantum == q;
}

/* Serial mode of quantum q from cycle t: when it ends (t when no warp takes part). */
static uint64_t serial_mode(tm_model *M, uint64_t q, uint64_t t)
{
    uint64_t end = t;
    if (M->serial_by_warp) {
        /* W-Ser: hardware warp ID = warp slot x SMs + SM, one at a time */
        for (uint32_t i = 0; i < M->warp_slots; i++)
            for (uint32_t s = 0; s < M->nsm; s++) {
                tm_warp *tw = &M->sms[s].warps[i];
                if (!in_serial(tw, q)) continue;
                uint64_t next;
                end = serial_one(M, &M->sms[s], tw, end, &next);
            }
        return end;
    }
    /* CU-Ser: each SM's atomics pipelined in slot order; the next SM once all completed */
    for (uint32_t s = 0; s < M->nsm; s++) {
        uint64_t issue = end, last = end;
        for (uint32_t i = 0; i < M->warp_slots; i++) {
            tm_warp *tw = &M->sms[s].warps[i];
            if (!in_serial(tw, q)) continue;
            uint64_t done = serial_one(M, &M->sms[s], tw, issue, &issue);
            if (done > last) last = done;
        }
        end = last;
    }
    return end;
}

uint64_t tm_det_epoch_end(tm_model *M, uint64_t now)
{
    if (M->dab) return dab_epoch_end(M, now);
    uint64_t q = M->cur_q, B = (uint64_t)M->gpu->gpudet_barrier_latency;
    uint64_t t = now > M->q_drain ? now : M->q_drain;
    M->st.gd_parallel_cycles += t - M->q_start;
    t += B;
    uint64_t reqs;
    uint64_t misses = 0;
    uint64_t c = commit_cycles(M, q, &reqs, &misses);
    M->st.gd_zcache_misses += misses;
    M->st.gd_commit_requests += reqs;
    M->st.gd_commit_cycles += c;
    t += c;
    tm_mem_flush_l1(&M->mem);
    t += B;
    M->st.gd_barriers += 2;
    uint64_t s = serial_mode(M, q, t);
    if (s > t) {
        M->st.gd_serial_cycles += s - t;
        t = s + B;
        M->st.gd_barriers++;
    }
    M->st.gd_barrier_cycles = M->st.gd_barriers * B;
    start_next(M, t);
    return t;
}

/* ---------------------------------------------------------------- DAB's scheduler order
 *
 * DAB's determinism-aware scheduler (timing/dab/sched.c) decided, in the functional run, the
 * order in which each SM's warps put their atomics into the scheduler buffers (GWAT's token,
 * GTAR's rounds) and, under SRR and GTRR once it switched, the order of every instruction (the
 * warps' strict turns). The record numbers those instructions per SM in that order (tickets);
 * the model issues a ticketed record only when the SM's previous ticket has issued. So a warp
 * at an atomic without the token, or whose turn has not come, waits while the others go on
 * (spec dab.md S6), and under SRR a warp whose turn it is but cannot issue (its operands in
 * flight, its unit busy) stops every warp of its SM. The ring is per SM over all its warp slots
 * (spec G2's resolution, as the functional scheduler), so its turns cross the SM's schedulers:
 * in one cycle each scheduler may issue the next ticket in turn. The functional run obeyed
 * every constraint the model keeps (barriers, epochs, the same CTAs on the same SM in the same
 * order), so the model cannot deadlock on them; tm_det_order_unstick is only a guard. */

bool tm_det_order_wait(tm_model *M, tm_sm *S, const tm_rec *r)
{
    (void)M;
    return r->ticket && r->ticket != S->ticket_next;
}

void tm_det_order_issued(tm_model *M, tm_sm *S, const tm_rec *r)
{
    if (!r->ticket) return;
    S->ticket_next = r->ticket + 1;
    M->st.dab_ordered++;
    /* the warp whose turn it is now may be on any scheduler */
    memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
}

bool tm_det_order_unstick(tm_model *M)
{
    bool any = false;
    for (uint32_t s = 0; s < M->nsm; s++) {
        tm_sm *S = &M->sms[s];
        uint64_t low = TM_NEVER;
        bool holder = false;
        for (uint32_t i = 0; i < S->nwarps && !holder; i++) {
            const tm_warp *tw = &S->warps[i];
            if (!tw->occupied || tw->done || !tw->trace || tw->pos >= tw->nev) continue;
            uint64_t k = tw->trace->recs[tw->pos].ticket;
            if (k == S->ticket_next) holder = true;
            else if (k > S->ticket_next && k < low) low = k;
        }
        if (holder || low == TM_NEVER) continue;
        S->ticket_next = low;
        S->wake = 0;
        memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
        M->st.dab_order_skips++;
        any = true;
    }
    return any;
}

static void trace_free(tm_trace *t)
{
    tm_gdc_free(t);
    free(t->launch_sm);
    free(t->launch_k);
    free(t->launch_seq);
    free(t->tickets);
    free(t->commits);
    if (t->warps)
        for (uint64_t i = 0; i < t->nctas * t->warps_per_cta; i++) {
            free(t->warps[i].recs);
            free(t->warps[i].addrs);
            free(t->warps[i].steps);
            free(t->warps[i].step_addrs);
        }
    free(t->warps);
}

/* Runs the grid on `run` (GPUDet or DAB) while recording it, then times the record. */
static bool record_and_time(emu_grid *g, const timing_engine_config *cfg,
                            bool (*run)(emu_grid *, const timing_engine_config *), uint32_t nparts)
{
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    tm_trace t = {
        .nctas = emu_grid_cta_count(g),
        .warps_per_cta = (uint32_t)((threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE),
    };
    uint64_t nwarps = t.nctas * t.warps_per_cta;
    t.warps = calloc(nwarps ? nwarps : 1, sizeof *t.warps);
    if (!t.warps) {
        emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the cycle model's record of the grid");
        return false;
    }
    t.gpu = cfg->gpu;
    t.igpu = timing_igpu_of(L->policy);
    t.nchan = nparts;
    t.nsm = cfg->sm_count ? cfg->sm_count : 1;
    if (cfg->det == TIMING_DET_GPUDET) {
        t.launch_sm = malloc((t.nctas ? t.nctas : 1) * sizeof *t.launch_sm);
        t.launch_k = malloc((t.nctas ? t.nctas : 1) * sizeof *t.launch_k);
        t.launch_seq = malloc((t.nctas ? t.nctas : 1) * sizeof *t.launch_seq);
        if (t.launch_sm)
            for (uint64_t c = 0; c < t.nctas; c++) t.launch_sm[c] = UINT32_MAX;
    }
    if (cfg->det == TIMING_DET_GPUDET &&
        (!t.launch_sm || !t.launch_k || !t.launch_seq || !tm_gdc_open(&t))) {
        free(t.launch_sm);
        free(t.launch_k);
        free(t.launch_seq);
        free(t.warps);
        emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the cycle model's record of the grid");
        return false;
    }
    if (cfg->det == TIMING_DET_DAB && !cfg->dab_warp_buffers) {
        /* WarpGTO's buffers fill in each warp's own order: nothing to wait for */
        t.tickets = calloc(t.nsm, sizeof *t.tickets);
        if (!t.tickets) {
            free(t.warps);
            emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for the cycle model's record of the grid");
            return false;
        }
    }
    tm_sink_record_into(&t);
    recording = &t;
    tm_kilotm_record(g, true);
    bool ok = run(g, cfg);
    tm_kilotm_record(g, false);
    recording = NULL;
    tm_sink_record_into(NULL);
    if (ok && t.oom) {
        emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for the cycle model's record of the grid");
        ok = false;
    }
    for (uint64_t i = 0; ok && i < t.nctas * t.warps_per_cta; i++)
        if (t.warps[i].oom) {
            emu_grid_abort(g, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for the cycle model's record of the grid");
            ok = false;
        }
    if (ok) ok = tm_run(g, cfg, &t);
    trace_free(&t);
    return ok;
}

bool timing_run_cycles_gpudet(emu_grid *g, const timing_engine_config *cfg)
{
    return record_and_time(g, cfg, timing_run_gpudet, (uint32_t)cfg->gpu->dram_channels);
}

bool timing_run_cycles_dab(emu_grid *g, const timing_engine_config *cfg)
{
    return record_and_time(g, cfg, timing_run_dab, (uint32_t)cfg->gpu->l2_slices);
}
