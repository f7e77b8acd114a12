/* cycles.c: KILO TM's commit units in the cycle model (--tm=kilotm --timing; spec kilotm.md
 * sections 3.4, 5 and 6).
 *
 * The design choice. A warp's commit step is performed functionally at the cycle the model
 * issues its tx_commit (the marker is a call, so it is the first instruction of a run and runs
 * at its cycle; commit.c): the commit order is the order of those cycles, which is one valid
 * CID order, and the values every transaction sees are the functional model's. The policy keeps
 * the step (each lane's read- and write-set addresses and whether it passed), and this file
 * times it, cycle by cycle, through the hardware the paper describes, and holds the warp until
 * its outcome is back (sm.c: the warp's next issue waits). What the timing does not feed back:
 * which transactions pass. A transaction that the hardware would have failed because another
 * commit was in flight fails here only if that commit's tx_commit issued earlier. A "pending"
 * outcome decided inside the commit units would need the policy to resolve warps long after
 * their tx_commit ran, with memory written at commit-unit cycles; this design keeps the
 * functional model exact and deterministic, and charges the protocol's cost.
 *
 * What is timed, per warp commit (in CID order, lanes in lane order with consecutive CIDs):
 * - the core's log walker (one per SM, shared by its committing warps): one log entry per
 *   cycle, each lane's read-log then write-log (section 3.4 item 3); the log lines are taken to
 *   hit in L1 (the warp wrote them just before);
 * - each lane's entries for one partition leave as one packet (8 bytes of header, 8 per entry:
 *   section 6) over the SM's interconnect port; a SKIP per untouched commit unit and warp covers
 *   its consecutive CIDs;
 * - one commit unit per memory partition (dram_channels), with its ring of entries in CID order
 *   and the pointers of section 5.3:
 *   - speculative validation: each read entry reads its word at the partition's L2 slice as it
 *     arrives, one word per cycle (Table 3: 1 word/cycle per partition);
 *   - hazard detection, strictly in CID order, one LWH operation per cycle: a read whose last
 *     writer (LWH lookup) has not retired when the entry was allocated (>= RCID) is a hazard;
 *     the entry then waits for the youngest such writer (YCID) to retire and revalidates its
 *     whole read-set; a passing transaction's writes are inserted afterwards;
 *   - the local outcome goes to the core, the core's final outcome comes back, and the commit
 *     stage, in CID order, writes the write-set to L2 one word per cycle; the entry retires in
 *     CID order when its writes are done;
 *   - the warp goes on when every lane's outcome is back and every passing writer's commit-done
 *     has arrived (section 3.4 item 6);
 * - the last writer history (section 5.4): a set-associative lookup table of (word, CID), the
 *   oldest CID evicted into a recency bloom filter of CID buckets (the max per bucket, the min
 *   over sub-arrays on lookup), H3 hashes; kilotm_lwh_entries = 0 is perfect hazard detection.
 *   A hazard whose exact last writer had retired is counted as false (LWH aliasing).
 * Approximations (each a "free at" model's limit): revalidation reads and commit writes happen
 * long after the cycle the model is at, so they are timed at the co-located L2 bank's latency
 * through the commit unit's own ports (validation and commit, one word per cycle each) rather
 * than queued in the L2 slice, which takes requests in the model's order; the short protocol
 * messages (outcomes, commit-done) cost the interconnect's latency and a flit, not port time;
 * credits and CU capacity are unlimited, as in the paper's evaluation (section 6.1); the
 * transactional loads and stores themselves are timed as the global accesses they are.
 * A warp whose tx_begin waited for a transactional-warp slot (--tm-warps) is parked until a
 * warp of its SM gives a slot back: at the cycle that warp's last commit is back (or it exits). Everything here happens in the model's order, so it is the same on every run.
 * Under --det=gpudet --timing the commit steps are GPUDet's serial mode's, timed when its
 * replay issues them (the end of this file). */
#include "timing/kilotm/kilotm.h"
#include "timing/model/model.h"

#include <stdlib.h>
#include <string.h>

#define KC_MSG 8u        /* a protocol message or a packet's header (bytes) */
#define KC_ENTRY 8u      /* one log entry: 4-byte address, 4-byte value */

/* Word address -> CID of its last writer, exact (perfect detection and false-hazard checks). */
typedef struct kc_map { uint64_t *key, *val; uint64_t cap, n; } kc_map;

typedef struct kc_done { uint64_t cid, retire; } kc_done;

typedef struct kc_cu {
    uint64_t val_free;       /* validation port: one word per cycle */
    uint64_t commit_free;    /* commit port: one word per cycle, in CID order */
    uint64_t hd_free;        /* hazard detection: one LWH operation per cycle, in CID order */
    uint64_t retire_last;    /* the retire pointer's last move (retirement is in CID order) */
    uint64_t *lut_addr, *lut_cid;   /* sets x ways; CID 0: empty */
    uint64_t *rbf;           /* hashes x buckets; 0: older than any CID */
    kc_map exact;
    kc_done *ents;           /* its entries' retirement, by CID */
    uint64_t nents, ents_cap;
    uint64_t *live;          /* min-heap of the retirement of entries in the ring */
    uint64_t nlive, live_cap;
} kc_cu;

/* A lane's entries at one commit unit, during a step. */
typedef struct kc_part { uint32_t nr, nw; } kc_part;

struct tm_kilotm {
    kt_policy *P;
    uint32_t ncu, sets, ways, buckets, hashes;
    bool perfect;
    kc_cu *cu;
    uint64_t *walker_free;   /* per SM */
    bool *parked;            /* per SM and warp slot: its tx_begin waits for a slot */
    /* per SM and warp slot: a warp whose slot goes back when its commit is back (rel_at);
     * per SM: the earliest of those */
    kt_warp **rel;
    uint64_t *rel_at, *rel_next;
    uint64_t next_cid;       /* from 1 */
    uint64_t h3[16][64];     /* H3 hashes: one random word per address bit */
    kc_part *part;           /* per commit unit, for the lane being sent */
    uint64_t *arrive;        /* per commit unit: that lane's packet arrives */
    uint64_t *alloc;         /* per commit unit: that lane's entry is allocated */
    bool *touched;           /* per commit unit: this step sent it something */
    timing_stats *st;
    bool oom;
};

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t h3(const tm_kilotm *K, uint32_t i, uint64_t word)
{
    uint64_t h = 0;
    for (uint64_t x = word; x; x &= x - 1) h ^= K->h3[i][__builtin_ctzll(x)];
    return h;
}

/* ---- the exact map */

static uint64_t *map_slot(kc_map *m, uint64_t key)
{
    uint64_t i = (key * UINT64_C(0x9e3779b97f4a7c15)) & (m->cap - 1);
    while (m->key[i] && m->key[i] != key) i = (i + 1) & (m->cap - 1);
    return &m->key[i];
}

static uint64_t map_get(const kc_map *m, uint64_t key)
{
    if (!m->cap) return 0;
    uint64_t *k = map_slot((kc_map *)m, key + 1);
    return *k ? m->val[k - m->key] : 0;
}

static bool map_put(kc_map *m, uint64_t key, uint64_t val)
{
    if (2 * (m->n + 1) > m->cap) {
        kc_map g = {0};
        g.cap = m->cap ? 2 * m->cap : 1024;
        g.key = calloc(g.cap, sizeof *g.key);
        g.val = calloc(g.cap, sizeof *g.val);
        if (!g.key || !g.val) {
            free(g.key);
            free(g.val);
            return false;
        }
        for (uint64_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                uint64_t *k = map_slot(&g, m->key[i]);
                *k = m->key[i];
                g.val[k - g.key] = m->val[i];
                g.n++;
            }
        free(m->key);
        free(m->val);
        *m = g;
    }
    uint64_t *k = map_slot(m, key + 1);
    if (!*k) m->n++;
    *k = key + 1;
    m->val[k - m->key] = val;
    return true;
}

/* ---- the last writer history (spec section 5.4) */

static uint64_t lwh_lookup(const tm_kilotm *K, const kc_cu *c, uint64_t word)
{
    if (K->perfect) return map_get(&c->exact, word);
    uint64_t set = h3(K, 0, word) % K->sets;
    for (uint32_t w = 0; w < K->ways; w++)
        if (c->lut_cid[set * K->ways + w] && c->lut_addr[set * K->ways + w] == word)
            return c->lut_cid[set * K->ways + w];
    uint64_t cid = UINT64_MAX;
    for (uint32_t i = 0; i < K->hashes; i++) {
        uint64_t b = c->rbf[i * K->buckets + h3(K, i, word) % K->buckets];
        if (b < cid) cid = b;
    }
    return cid;
}

static void lwh_insert(const tm_kilotm *K, kc_cu *c, uint64_t word, uint64_t cid)
{
    if (K->perfect) return;   /* the exact map is kept anyway */
    uint64_t *addr = &c->lut_addr[h3(K, 0, word) % K->sets * K->ways];
    uint64_t *cids = &c->lut_cid[addr - c->lut_addr];
    uint32_t victim = 0;
    for (uint32_t w = 0; w < K->ways; w++) {
        if (cids[w] && addr[w] == word) {
            cids[w] = cid;
            return;
        }
        if (!cids[w] || (cids[victim] && cids[w] < cids[victim])) victim = w;
    }
    if (cids[victim])
        for (uint32_t i = 0; i < K->hashes; i++) {
            uint64_t *b = &c->rbf[i * K->buckets + h3(K, i, addr[victim]) % K->buckets];
            if (cids[victim] > *b) *b = cids[victim];
        }
    addr[victim] = word;
    cids[victim] = cid;
}

/* When entry `cid` retired at c (retirement is in CID order: the latest entry at or before it);
 * 0 when none had. */
static uint64_t retire_of(const kc_cu *c, uint64_t cid)
{
    uint64_t lo = 0, hi = c->nents;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (c->ents[mid].cid <= cid) lo = mid + 1;
        else hi = mid;
    }
    return lo ? c->ents[lo - 1].retire : 0;
}

/* ---- ring occupancy: a min-heap of the retirement of the entries in the ring */

static void heap_pop(kc_cu *c)
{
    uint64_t *h = c->live, n = --c->nlive, i = 0;
    h[0] = h[n];
    for (;;) {
        uint64_t l = 2 * i + 1, m = i;
        if (l < n && h[l] < h[m]) m = l;
        if (l + 1 < n && h[l + 1] < h[m]) m = l + 1;
        if (m == i) break;
        uint64_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static bool occupy(tm_kilotm *K, kc_cu *c, uint64_t alloc, uint64_t retire)
{
    while (c->nlive && c->live[0] <= alloc) heap_pop(c);
    if (c->nlive == c->live_cap) {
        uint64_t nc = c->live_cap ? 2 * c->live_cap : 64;
        uint64_t *h = realloc(c->live, nc * sizeof *h);
        if (!h) return false;
        c->live = h;
        c->live_cap = nc;
    }
    uint64_t i = c->nlive++;
    c->live[i] = retire;
    while (i && c->live[(i - 1) / 2] > c->live[i]) {
        uint64_t t = c->live[i];
        c->live[i] = c->live[(i - 1) / 2];
        c->live[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    if (c->nlive > K->st->tm_cu_max_entries) K->st->tm_cu_max_entries = c->nlive;
    K->st->tm_cu_entry_cycles += retire - alloc;
    if (c->nents == c->ents_cap) {
        uint64_t nc = c->ents_cap ? 2 * c->ents_cap : 256;
        kc_done *e = realloc(c->ents, nc * sizeof *e);
        if (!e) return false;
        c->ents = e;
        c->ents_cap = nc;
    }
    return true;
}

/* ---- the model's hooks */

tm_kilotm *tm_kilotm_create(tm_model *M)
{
    emu_mem_policy *pol = timing_kilotm_find(emu_grid_launch(M->g)->policy);
    if (!pol) return NULL;
    const timing_gpu *g = M->gpu;
    tm_kilotm *K = calloc(1, sizeof *K);
    uint32_t ncu = (uint32_t)g->dram_channels;
    if (K) {
        K->P = pol->state;
        K->ncu = ncu;
        K->perfect = g->kilotm_lwh_entries == 0;
        K->ways = (uint32_t)g->kilotm_lwh_ways;
        K->sets = K->perfect ? 1 : ((uint32_t)g->kilotm_lwh_entries + K->ways - 1) / K->ways;
        K->buckets = (uint32_t)g->kilotm_rbf_buckets;
        K->hashes = (uint32_t)g->kilotm_rbf_hashes;
        K->next_cid = 1;
        K->st = &M->st;
        uint64_t seed = UINT64_C(0x4b494c4f544d);   /* fixed: the same hashes on every run */
        for (int i = 0; i < 16; i++)
            for (int b = 0; b < 64; b++) K->h3[i][b] = splitmix(&seed);
        K->cu = calloc(ncu, sizeof *K->cu);
        K->walker_free = calloc(M->nsm, sizeof *K->walker_free);
        K->parked = calloc((size_t)M->nsm * (M->warp_slots ? M->warp_slots : 1),
                           sizeof *K->parked);
        K->part = calloc(ncu, sizeof *K->part);
        K->rel = calloc((size_t)M->nsm * (M->warp_slots ? M->warp_slots : 1), sizeof *K->rel);
        K->rel_at = calloc((size_t)M->nsm * (M->warp_slots ? M->warp_slots : 1),
                           sizeof *K->rel_at);
        K->rel_next = calloc(M->nsm, sizeof *K->rel_next);
        K->arrive = calloc(ncu, sizeof *K->arrive);
        K->alloc = calloc(ncu, sizeof *K->alloc);
        K->touched = calloc(ncu, sizeof *K->touched);
    }
    bool ok = K && K->cu && K->walker_free && K->parked && K->part && K->arrive && K->alloc &&
              K->touched && K->rel && K->rel_at && K->rel_next;
    for (uint32_t i = 0; ok && i < ncu && !K->perfect; i++) {
        kc_cu *c = &K->cu[i];
        c->lut_addr = calloc((size_t)K->sets * K->ways, sizeof *c->lut_addr);
        c->lut_cid = calloc((size_t)K->sets * K->ways, sizeof *c->lut_cid);
        c->rbf = calloc((size_t)K->hashes * K->buckets, sizeof *c->rbf);
        ok = c->lut_addr && c->lut_cid && c->rbf;
    }
    if (!ok) {
        if (K) tm_kilotm_finish(M, K, 0);
        emu_grid_abort(M->g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for KILO TM's commit units (cycle model)");
        M->stop = true;
        return NULL;
    }
    K->P->timed = true;
    return K;
}

void tm_kilotm_finish(tm_model *M, tm_kilotm *K, uint64_t cycles)
{
    M->st.tm_cu_cycles += cycles * K->ncu;
    if (K->P) K->P->timed = false;
    for (uint32_t i = 0; K->cu && i < K->ncu; i++) {
        kc_cu *c = &K->cu[i];
        free(c->lut_addr);
        free(c->lut_cid);
        free(c->rbf);
        free(c->exact.key);
        free(c->exact.val);
        free(c->ents);
        free(c->live);
    }
    free(K->cu);
    free(K->walker_free);
    free(K->parked);
    free(K->part);
    free(K->rel);
    free(K->rel_at);
    free(K->rel_next);
    free(K->arrive);
    free(K->alloc);
    free(K->touched);
    free(K);
}

/* Gives back the transactional slots of SM S's warps whose commits were back by `now`. */
static void release_slots(tm_kilotm *K, tm_model *M, const tm_sm *S, uint64_t now)
{
    uint64_t *when = &K->rel_at[(size_t)S->id * M->warp_slots];
    kt_warp **who = &K->rel[(size_t)S->id * M->warp_slots];
    if (now < K->rel_next[S->id]) return;
    uint64_t next = TM_NEVER;
    for (uint32_t i = 0; i < M->warp_slots; i++) {
        if (!who[i]) continue;
        if (when[i] > now) {
            if (when[i] < next) next = when[i];
            continue;
        }
        kt_warp *s = who[i];
        who[i] = NULL;
        if (!s->slot_pending) continue;
        s->slot_pending = false;
        if (!s->in_tx && s->holds_slot) {
            __atomic_fetch_sub(&K->P->tx_warps[s->sm], 1, __ATOMIC_RELEASE);
            s->holds_slot = false;
        }
    }
    K->rel_next[S->id] = next;
}

void tm_kilotm_before_run(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now)
{
    (void)tw;
    release_slots(M->kilotm, M, S, now);
}

/* Times one lane's transaction `cid` at the commit units it sent entries to (K->part, arriving
 * at K->arrive); returns when the warp may consider it done. */
static uint64_t time_tx(tm_kilotm *K, tm_model *M, const uint64_t *addr, uint32_t nr,
                        uint32_t nw, bool passed, uint64_t cid, uint64_t walk_end)
{
    const timing_gpu *g = M->gpu;
    uint64_t hop = (uint64_t)g->icnt_latency + 1;   /* a one-flit message */
    uint64_t l2 = (uint64_t)g->l2_latency;
    uint64_t *alloc = K->alloc;
    uint64_t outcome = walk_end;
    bool any = false;
    for (uint32_t u = 0; u < K->ncu; u++) {
        if (!K->part[u].nr && !K->part[u].nw) continue;
        any = true;
        kc_cu *c = &K->cu[u];
        uint64_t A = K->arrive[u];
        /* speculative validation, as the entries arrive */
        uint64_t vdone = A;
        for (uint32_t i = 0; i < nr; i++) {
            if (tm_mem_channel(g, addr[i] / TM_LINE) != u) continue;
            uint64_t t = max64(A, c->val_free);
            c->val_free = t + 1;
            vdone = max64(vdone, tm_mem_l2_word(&M->mem, addr[i], false, t));
            K->st->tm_validation_reads++;
        }
        /* hazard detection, in CID order, after the logs are in */
        uint64_t hd = max64(A, c->hd_free) + K->part[u].nr + K->part[u].nw;
        c->hd_free = hd;
        uint64_t ycid = 0;
        bool real = false;
        for (uint32_t i = 0; i < nr; i++) {
            if (tm_mem_channel(g, addr[i] / TM_LINE) != u) continue;
            uint64_t word = addr[i] / 4;
            uint64_t y = lwh_lookup(K, c, word);
            if (!y || retire_of(c, y) <= A) continue;   /* retired before this entry: < RCID */
            if (y > ycid) ycid = y;
            uint64_t x = map_get(&c->exact, word);
            if (x && retire_of(c, x) > A) real = true;
        }
        if (passed)
            for (uint32_t i = nr; i < nr + nw; i++) {
                if (tm_mem_channel(g, addr[i] / TM_LINE) != u) continue;
                lwh_insert(K, c, addr[i] / 4, cid);
                if (!map_put(&c->exact, addr[i] / 4, cid)) K->oom = true;
            }
        uint64_t out = max64(hd, vdone);
        if (ycid) {
            /* wait for YCID to retire, then read the whole read-set here again */
            K->st->tm_revalidations++;
            if (!real) K->st->tm_false_hazards++;
            uint64_t t0 = max64(out, retire_of(c, ycid));
            uint64_t t = max64(t0, c->val_free);
            c->val_free = t + K->part[u].nr;
            K->st->tm_validation_reads += K->part[u].nr;
            out = max64(out, t + K->part[u].nr + l2);
        }
        alloc[u] = A;
        K->st->tm_protocol_bytes += KC_MSG;   /* the local outcome reaches the core */
        K->st->icnt_bytes += KC_MSG;
        outcome = max64(outcome, out + hop);
    }
    if (!any) return walk_end;
    /* the final outcome goes back to every commit unit; commit and retire in CID order */
    uint64_t done = outcome;
    for (uint32_t u = 0; u < K->ncu; u++) {
        if (!K->part[u].nr && !K->part[u].nw) continue;
        kc_cu *c = &K->cu[u];
        uint64_t fin = outcome + hop, retire = fin;
        K->st->tm_protocol_bytes += KC_MSG;
        K->st->icnt_bytes += KC_MSG;
        if (passed && K->part[u].nw) {
            uint64_t t = max64(fin, c->commit_free);
            c->commit_free = t + K->part[u].nw;
            K->st->tm_commit_writes += K->part[u].nw;
            retire = t + K->part[u].nw + l2;
        }
        retire = max64(retire, c->retire_last);
        c->retire_last = retire;
        if (!occupy(K, c, alloc[u], retire)) {
            K->oom = true;
            continue;
        }
        c->ents[c->nents++] = (kc_done){cid, retire};
        if (passed && K->part[u].nw) {
            /* commit-done: a passing writer is done when every unit holding its writes is */
            K->st->tm_protocol_bytes += KC_MSG;
            K->st->icnt_bytes += KC_MSG;
            done = max64(done, retire + hop);
        }
    }
    return done;
}

/* The parked warps of SM S try their tx_begin again from cycle t. */
static void wake_parked(tm_kilotm *K, tm_model *M, tm_sm *S, uint64_t t)
{
    bool *parked = &K->parked[(size_t)S->id * M->warp_slots];
    bool any = false;
    for (uint32_t i = 0; i < M->warp_slots; i++)
        if (parked[i]) {
            parked[i] = false;
            tm_warp_set_ready(S, &S->warps[i], t);
            any = true;
        }
    if (any) memset(S->q_wake, 0, M->nsched * sizeof *S->q_wake);
}

/* Times a warp commit step of SM S (lanes, which passed, per lane its read and write counts,
 * the addresses lane after lane), whose tx_commit issued at now; returns when the warp may go
 * on. */
static uint64_t time_step(tm_kilotm *K, tm_model *M, tm_sm *S, uint32_t lanes, uint32_t passed_mask,
                          const uint32_t *nreads, const uint32_t *nwrites, const uint64_t *addr,
                          uint64_t now)
{
    const timing_gpu *g = M->gpu;
    uint32_t nl = (uint32_t)__builtin_popcount(lanes);
    uint64_t base = K->next_cid;
    K->next_cid += nl;
    K->st->tm_warp_commits++;
    K->st->tm_tx_commits += nl;
    uint64_t walk = max64(now + 1, K->walker_free[S->id]);
    uint64_t done = now + 1;
    memset(K->touched, 0, K->ncu * sizeof *K->touched);
    uint32_t k = 0;
    for (uint32_t mk = lanes; mk; mk &= mk - 1, k++) {
        int l = __builtin_ctz(mk);
        uint32_t nr = nreads[l], nw = nwrites[l];
        memset(K->part, 0, K->ncu * sizeof *K->part);
        for (uint32_t i = 0; i < nr + nw; i++) {
            uint32_t u = tm_mem_channel(g, addr[i] / TM_LINE);
            if (i < nr) K->part[u].nr++;
            else K->part[u].nw++;
        }
        /* the walker reads the lane's read-log, then its write-log, an entry a cycle; the
         * entries for one partition leave together when the lane's walk is done */
        walk += nr + nw;
        K->st->tm_log_entries += nr + nw;
        for (uint32_t u = 0; u < K->ncu; u++) {
            uint32_t n = K->part[u].nr + K->part[u].nw;
            if (!n) continue;
            K->touched[u] = true;
            uint64_t bytes = KC_MSG + (uint64_t)KC_ENTRY * n;
            K->arrive[u] = tm_mem_send(&M->mem, S->id, bytes, walk);
            K->st->tm_protocol_bytes += bytes;
        }
        bool passed = (passed_mask >> l) & 1;
        done = max64(done, time_tx(K, M, addr, nr, nw, passed, base + k, walk));
        addr += nr + nw;
    }
    /* one SKIP per untouched commit unit covers the warp's consecutive CIDs */
    for (uint32_t u = 0; u < K->ncu; u++)
        if (!K->touched[u]) {
            tm_mem_send(&M->mem, S->id, KC_MSG, walk);
            K->st->tm_protocol_bytes += KC_MSG;
        }
    K->walker_free[S->id] = walk;
    K->st->tm_commit_cycles += done - now;
    return done;
}

uint64_t tm_kilotm_after_run(tm_model *M, tm_sm *S, tm_warp *tw, uint64_t now)
{
    tm_kilotm *K = M->kilotm;
    kt_warp *s = emu_warp_user(tw->w, EMU_POLICY_TM);
    if (!s) return now + 1;
    size_t slot = (size_t)S->id * M->warp_slots + (size_t)(tw - S->warps);
    uint64_t go = now + 1;
    if (s->deferred) {
        /* its tx_begin waits for a slot: parked until a warp of its SM gives one back */
        s->deferred = false;
        K->st->tm_begin_waits++;
        K->parked[slot] = true;
        tm_warp_set_why(S, tw, TIMING_SLOT_BARRIER);
        go = TM_NEVER;
    } else if (s->rec.lanes) {
        kt_commit_rec *r = &s->rec;
        go = time_step(K, M, S, r->lanes, r->passed, r->nreads, r->nwrites, r->addr, now);
        r->lanes = 0;
    }
    if (s->slot_pending) {
        /* the slot is the warp's until its commit is back */
        K->rel[slot] = s;
        K->rel_at[slot] = go;
        if (go < K->rel_next[S->id]) K->rel_next[S->id] = go;
        wake_parked(K, M, S, go);
    }
    if (s->exit_pending) {
        if (K->rel[slot] == s) K->rel[slot] = NULL;
        bool held = s->holds_slot;
        kt_release_state(K->P, s);
        if (held) wake_parked(K, M, S, now + 1);
    }
    if (K->oom) {
        emu_grid_abort(M->g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for KILO TM's commit units (cycle model)");
        M->stop = true;
    }
    return go;
}

/* ---- GPUDet's record and its replay (--det=gpudet --timing, timing/model/replay.c)
 *
 * GPUDet runs every commit in its serial mode, one warp at a time in its fixed order, so the
 * steps and their outcomes are the same on every run. Each is kept with its tx_commit's record
 * and timed when the replay issues that record in serial mode: the serial mode's end waits for
 * the step's outcome (a passing writer: its commit-done). The concurrency slots are GPUDet's
 * (taken in serial mode, timing/kilotm/policy.c): a warp waiting for one waits for quanta, not
 * for the model's parking, so begin_waits stays 0. */

void tm_kilotm_record(emu_grid *g, bool on)
{
    emu_mem_policy *pol = timing_kilotm_find(emu_grid_launch(g)->policy);
    if (pol) ((kt_policy *)pol->state)->recorded = on;
}

static bool grow_to(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap * 2 : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

bool tm_kilotm_trace_step(emu_warp *w, tm_trace_warp *tw, bool recorded)
{
    kt_warp *s = emu_warp_user(w, EMU_POLICY_TM);
    if (!s || !s->rec.lanes) return true;
    kt_commit_rec *r = &s->rec;
    uint32_t lanes = r->lanes;
    r->lanes = 0;   /* taken: the next commit starts a new step */
    if (!recorded || !tw->n) return true;
    if (!grow_to((void **)&tw->steps, &tw->steps_cap, tw->nsteps + 1, sizeof *tw->steps) ||
        !grow_to((void **)&tw->step_addrs, &tw->step_acap, tw->nstep_addrs + r->naddr,
                 sizeof *tw->step_addrs))
        return false;
    tm_tx_step *st = &tw->steps[tw->nsteps++];
    st->rec = tw->n - 1;
    st->lanes = lanes;
    st->passed = r->passed;
    st->addr = tw->nstep_addrs;
    memcpy(st->nreads, r->nreads, sizeof st->nreads);
    memcpy(st->nwrites, r->nwrites, sizeof st->nwrites);
    memcpy(tw->step_addrs + tw->nstep_addrs, r->addr, r->naddr * sizeof *r->addr);
    tw->nstep_addrs += r->naddr;
    return true;
}

uint64_t tm_kilotm_replay_step(tm_model *M, tm_sm *S, const tm_trace_warp *tw, uint64_t rec,
                               uint64_t now)
{
    tm_kilotm *K = M->kilotm;
    /* the steps are in record order: binary search for rec */
    uint64_t lo = 0, hi = tw->nsteps;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (tw->steps[mid].rec < rec) lo = mid + 1;
        else hi = mid;
    }
    if (!K || lo == tw->nsteps || tw->steps[lo].rec != rec) return now + 1;
    const tm_tx_step *st = &tw->steps[lo];
    uint64_t done = time_step(K, M, S, st->lanes, st->passed, st->nreads, st->nwrites,
                              tw->step_addrs + st->addr, now);
    if (K->oom) {
        emu_grid_abort(M->g, EMU_FAULT_OUT_OF_RESOURCES,
                       "out of host memory for KILO TM's commit units (cycle model)");
        M->stop = true;
    }
    return done;
}

/* ---- the policy's side */

bool kt_rec_lane(kt_warp *s, int l, bool passed)
{
    kt_commit_rec *r = &s->rec;
    const kt_lane *ln = &s->lane[l];
    uint32_t need = r->naddr + ln->reads.n + ln->writes.n;
    if (need > r->cap) {
        uint32_t nc = r->cap ? r->cap : 256;
        while (nc < need) nc *= 2;
        uint64_t *a = realloc(r->addr, nc * sizeof *a);
        if (!a) return false;
        r->addr = a;
        r->cap = nc;
    }
    for (uint32_t i = 0; i < ln->reads.n; i++) r->addr[r->naddr++] = ln->reads.v[i].addr;
    for (uint32_t i = 0; i < ln->writes.n; i++) r->addr[r->naddr++] = ln->writes.v[i].addr;
    r->nreads[l] = ln->reads.n;
    r->nwrites[l] = ln->writes.n;
    r->lanes |= 1u << l;
    if (passed) r->passed |= 1u << l;
    return true;
}
