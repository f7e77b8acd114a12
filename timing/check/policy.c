/* policy.c: racecheck, initcheck and synccheck as a memory policy over the launch's own.
 *
 * Why a policy and not an event sink: the policy sees each memory operation of a warp at the
 * moment it is performed, on the host thread that performs it, while the event stream reaches
 * its consumers in batches per warp run. Happens-before across CTAs that run on different host
 * threads (a release by one, the acquire that reads it by another) is only exact when the
 * release is published before the acquire can read it, which the policy guarantees by doing
 * both under one lock around the access itself.
 *
 * The race detector (FastTrack, Flanagan and Freund, PLDI 2009, with a warp as the unit that
 * owns a clock):
 * - Each warp has a clock and a sparse vector clock of what it has synchronised with. An
 *   access remembers (warp, clock, lane, the warp's instruction number, the lane's
 *   __syncwarp count, PTX site); shadow memory keeps the last write and two reads per
 *   4-byte word, with the bytes they touched.
 * - A prior access p is ordered before the current one c when: same thread; or same warp, and
 *   the lane of c passed a __syncwarp or a barrier since p (same instruction of one warp is
 *   not a hazard); or another warp, and c's warp's vector clock covers p's clock.
 * - Barriers: each arrival joins the warp's clock into the barrier's (bar.arrive too), then
 *   the warp's clock advances; a warp that waited joins the barrier's clock when it next does
 *   anything. All warps of a CTA run on one host thread, one at a time, and a barrier only
 *   completes after every arrival was seen here, so the first warp to go on closes the
 *   generation: what it joins holds exactly that generation's arrivals.
 * - Release and acquire through memory: an atomic after a fence (the warp's), or with
 *   .release/.acquire/.acq_rel, or a strong store after a fence / st.release, publishes the
 *   warp's clock in a synchronisation object of its address; an acquire (ld.acquire, an atomic
 *   after a fence, or a strong load or atomic followed by a fence) joins it. The end of a
 *   kernel orders everything: shadow memory lives for one launch.
 * - A race: two accesses to a common byte by different threads, at least one a write, not both
 *   strong (atomics, volatile, relaxed/acquire/release: the PTX memory model's morally strong
 *   operations do not race), and neither ordered before the other. It depends on the order
 *   the program's synchronisation allows, not on which interleaving ran: two conflicting
 *   accesses not ordered by synchronisation are reported whichever ran first.
 */
#include "timing/check/check_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define NBAR 17                 /* bar ids 0..15 and barrier.cluster's */
#define PAGE_SHIFT 12
#define PAGE_WORDS (1u << (PAGE_SHIFT - 2))
#define NSTRIPES 64
#define STRIPE_BUCKETS 256
#define SYNC_BUCKETS 4096
#define MAX_PENDING 8

/* ACC_SYNC: a release or an acquire; no access races with one (it is the flag of a handshake,
 * polled by loads that only a later fence makes acquires) */
enum { ACC_STRONG = 0x10, ACC_WRITE = 0x20, ACC_ATOMIC = 0x40, ACC_SYNC = 0x80 };

/* 16 bytes: shadow memory is three of these per word of memory the kernel touches. Counters
 * that only need to tell "the same" from "since" are kept modulo 256. */
typedef struct ck_acc {
    uint32_t warp;      /* global warp id + 1; 0: no access */
    uint32_t clock;     /* the warp's clock at the access */
    uint32_t site;      /* function << 24 | pc */
    uint8_t seq;        /* the warp's memory instruction number, modulo 256 */
    uint8_t lsync;      /* the lane's __syncwarp / barrier count at the access, modulo 256 */
    uint8_t lane;
    uint8_t bytes;      /* low 4 bits: bytes of the word; ACC_STRONG, _WRITE, _ATOMIC, _SYNC */
} ck_acc;
_Static_assert(sizeof(ck_acc) == 16, "three records per word of shadow memory");

static uint32_t site_code(uint16_t func, uint32_t pc)
{
    return (uint32_t)(func & 0xff) << 24 | (pc & 0xffffff);
}

typedef struct ck_word { ck_acc w, r[2]; } ck_word;

typedef struct ck_page {
    uint64_t no;
    struct ck_page *next;
    ck_word words[PAGE_WORDS];
} ck_page;

typedef struct ck_stripe {
    pthread_mutex_t lock;
    ck_page *bucket[STRIPE_BUCKETS];
} ck_stripe;

typedef struct ck_sync {
    uint64_t addr;
    struct ck_sync *next;
    ck_vc vc;
} ck_sync;

typedef struct ck_bar {
    ck_vc acc, done;       /* the open generation's arrivals; the last closed generation's */
    uint32_t gen;
    uint32_t arrivals;     /* arrivals in the open generation */
    uint16_t func;         /* the open generation's first arrival: where, who, its count */
    uint32_t pc, count;
    uint64_t first_warp;
    uint8_t first_lane;
} ck_bar;

typedef struct ck_warp {
    ck_vc vc;
    /* look-ups in vc remembered, by warp modulo 16 (warp 0: none); cleared when vc grows */
    uint32_t seen_warp[16], seen_clock[16];
    uint32_t clock, seq;
    uint32_t lsync[EMU_WARP_SIZE];
    uint32_t waiting;      /* lanes waiting at barrier wait_bar, generation wait_gen */
    uint32_t wait_bar, wait_gen;
    uint32_t fenced;       /* lanes that executed a fence since their last release */
    bool exited;
    uint32_t npending;     /* strong loads and atomics a later fence makes acquires */
    uint64_t pending[MAX_PENDING];
} ck_warp;

typedef struct ck_cta {
    uint64_t linear;
    uint32_t exited;
    ck_warp *warps;
    ck_word *shared;       /* racecheck's shadow of the CTA's shared memory, by word */
    uint32_t nshared;
    uint8_t *shared_init;  /* initcheck: a byte per shared byte, 1 once written */
    uint32_t nshared_init;
    ck_bar bar[NBAR];
} ck_cta;

struct ck_launch {
    emu_mem_policy pol;
    timing_check *c;
    const ptx_module *ptx;
    char *kernel;
    uint32_t index;
    emu_dim3 grid, block;
    uint32_t threads_per_cta, warps_per_cta;
    uint64_t ncta;
    _Atomic(ck_cta *) *ctas;
    ck_stripe stripes[NSTRIPES];
    pthread_mutex_t sync_lock;
    ck_sync *sync[SYNC_BUCKETS];
};

const ptx_module *ck_launch_ptx(const struct ck_launch *K) { return K->ptx; }
const char *ck_launch_kernel(const struct ck_launch *K) { return K->kernel; }
uint32_t ck_launch_index(const struct ck_launch *K) { return K->index; }

/* ---------------------------------------------------------------- state of CTAs and warps */

static void cta_free(ck_cta *t, uint32_t nwarps)
{
    if (!t) return;
    for (uint32_t i = 0; i < nwarps; i++) ck_vc_free(&t->warps[i].vc);
    for (int b = 0; b < NBAR; b++) {
        ck_vc_free(&t->bar[b].acc);
        ck_vc_free(&t->bar[b].done);
    }
    free(t->warps);
    free(t->shared);
    free(t->shared_init);
    free(t);
}

/* The CTA of w, created on its first access (only the host thread that runs the CTA comes
 * here for it, so creation needs no lock). */
static ck_cta *cta_of(struct ck_launch *K, emu_warp *w)
{
    uint64_t lin = emu_warp_cta_linear(w);
    if (lin >= K->ncta) return NULL;
    ck_cta *t = atomic_load_explicit(&K->ctas[lin], memory_order_acquire);
    if (t) return t;
    t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->linear = lin;
    t->warps = calloc(K->warps_per_cta, sizeof *t->warps);
    if (!t->warps) {
        free(t);
        return NULL;
    }
    for (uint32_t i = 0; i < K->warps_per_cta; i++) t->warps[i].clock = 1;
    atomic_store_explicit(&K->ctas[lin], t, memory_order_release);
    return t;
}

static uint64_t warp_gid(const struct ck_launch *K, const ck_cta *t, uint32_t wi)
{
    return t->linear * K->warps_per_cta + wi + 1;
}

static emu_dim3 unlinear(uint64_t i, emu_dim3 d)
{
    emu_dim3 r;
    r.x = (uint32_t)(i % d.x);
    r.y = (uint32_t)(i / d.x % d.y);
    r.z = (uint32_t)(i / ((uint64_t)d.x * d.y));
    return r;
}

static ck_site site_of(const struct ck_launch *K, uint64_t gid, uint8_t lane, uint16_t func,
                       uint32_t pc)
{
    uint64_t g = gid - 1;
    ck_site s = { .func = func, .pc = pc };
    s.block = unlinear(g / K->warps_per_cta, K->grid);
    s.thread = unlinear((g % K->warps_per_cta) * EMU_WARP_SIZE + lane, K->block);
    return s;
}

static const ptx_instr *instr_at(const struct ck_launch *K, uint16_t func, uint32_t pc)
{
    if (func >= K->ptx->nfuncs) return NULL;
    const ptx_function *f = &K->ptx->funcs[func];
    return pc < f->ninstrs ? &f->instrs[pc] : NULL;
}

/* What cw knows of warp `warp`'s clock; the last look-ups remembered (a warp's lanes mostly meet
 * the accesses of a few other warps, again and again). */
static uint32_t known_clock(ck_warp *cw, uint32_t warp)
{
    unsigned k = warp & 15;
    if (cw->seen_warp[k] != warp) {
        cw->seen_warp[k] = warp;
        cw->seen_clock[k] = ck_vc_get(&cw->vc, warp);
    }
    return cw->seen_clock[k];
}

static void warp_join(ck_warp *cw, const ck_vc *v)
{
    ck_vc_join(&cw->vc, v);
    memset(cw->seen_warp, 0, sizeof cw->seen_warp);
}

/* Lanes of cw that waited at a barrier go on: the first warp of a generation to go on closes
 * it (every arrival is in by then), and each joins what the generation's arrivals knew. */
static void resume(ck_cta *t, ck_warp *cw, uint32_t lanes)
{
    if (!(cw->waiting & lanes)) return;
    ck_bar *b = &t->bar[cw->wait_bar];
    if (cw->wait_gen == b->gen) {
        ck_vc tmp = b->done;
        b->done = b->acc;
        b->acc = tmp;
        ck_vc_clear(&b->acc);
        b->gen++;
        b->arrivals = 0;
    }
    warp_join(cw, &b->done);
    cw->waiting = 0;
}

/* ---------------------------------------------------------------- shadow memory */

/* Where an operation's pieces are in shadow memory: the stripe it holds locked and the page
 * it found last (an instruction's lanes mostly touch one page). */
typedef struct ck_cursor {
    ck_stripe *held;
    ck_page *page;
    ck_word *last;        /* the word the previous piece touched, and how */
    uint8_t last_bytes;
} ck_cursor;

static ck_word *global_word(struct ck_launch *K, uint64_t addr, ck_cursor *cur)
{
    uint64_t no = addr >> PAGE_SHIFT;
    if (cur->page && cur->page->no == no) return &cur->page->words[(addr >> 2) & (PAGE_WORDS - 1)];
    ck_stripe *s = &K->stripes[no % NSTRIPES];
    if (cur->held != s) {
        if (cur->held) pthread_mutex_unlock(&cur->held->lock);
        pthread_mutex_lock(&s->lock);
        cur->held = s;
    }
    ck_page **head = &s->bucket[(no / NSTRIPES) % STRIPE_BUCKETS], *p;
    for (p = *head; p; p = p->next)
        if (p->no == no) break;
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p) return NULL;
        p->no = no;
        p->next = *head;
        *head = p;
    }
    cur->page = p;
    return &p->words[(addr >> 2) & (PAGE_WORDS - 1)];
}

static ck_word *shared_word(ck_cta *t, uint64_t addr)
{
    uint64_t wi = addr >> 2;
    if (wi >= UINT32_MAX) return NULL;
    if (wi >= t->nshared) {
        uint32_t n = t->nshared ? t->nshared : 256;
        while (n <= wi) n *= 2;
        ck_word *s = realloc(t->shared, (size_t)n * sizeof *s);
        if (!s) return NULL;
        memset(s + t->nshared, 0, (size_t)(n - t->nshared) * sizeof *s);
        t->shared = s;
        t->nshared = n;
    }
    return &t->shared[wi];
}

/* Is p ordered before the current access of lane `lane` of warp cw (global id self)? A
 * conflict inside one instruction of one warp sets *same and counts as ordered. */
static bool ordered(ck_warp *cw, uint32_t self, const ck_acc *p, uint8_t lane, bool *same)
{
    if (p->warp == self) {
        if (p->lane == lane) return true;
        if (p->seq == (uint8_t)cw->seq) {
            *same = true;
            return true;
        }
        /* lane counts only grow: a different count means a __syncwarp or barrier since */
        return (uint8_t)cw->lsync[lane] != p->lsync;
    }
    return known_clock(cw, p->warp) >= p->clock;
}

static void race(struct ck_launch *K, const ck_acc *p, const ck_acc *cur, uint8_t space,
                 uint64_t addr)
{
    ck_hazard_kind kind = (p->bytes & ACC_WRITE) ? ((cur->bytes & ACC_WRITE) ? CK_RACE_WW
                                                                              : CK_RACE_WR)
                                                 : CK_RACE_RW;
    ck_site a = site_of(K, p->warp, p->lane, (uint16_t)(p->site >> 24), p->site & 0xffffff);
    ck_site b = site_of(K, cur->warp, cur->lane, (uint16_t)(cur->site >> 24),
                        cur->site & 0xffffff);
    ck_hazard_note(K->c, K, kind, space, &a, &b, addr, NULL);
}

/* A plain read against an atomic is not reported: the atomic validates what it changes (the
 * read that seeds a compare-and-swap loop, the test before an atomicMin), which is how CUDA
 * programs use it. */
static bool conflicts(const ck_acc *p, const ck_acc *cur)
{
    if (!p->warp || !(p->bytes & cur->bytes & 0xf)) return false;
    if ((p->bytes & ACC_STRONG) && (cur->bytes & ACC_STRONG)) return false;
    if ((p->bytes | cur->bytes) & ACC_SYNC) return false;
    if (((p->bytes & ACC_ATOMIC) && !(cur->bytes & ACC_WRITE)) ||
        ((cur->bytes & ACC_ATOMIC) && !(p->bytes & ACC_WRITE)))
        return false;
    return true;
}

static void check_word(struct ck_launch *K, ck_warp *cw, ck_word *sw, const ck_acc *cur,
                       uint8_t space, uint64_t addr)
{
    bool same = false;
    if (cur->bytes & ACC_WRITE) {
        if (conflicts(&sw->w, cur) && !ordered(cw, cur->warp, &sw->w, cur->lane, &same))
            race(K, &sw->w, cur, space, addr);
        for (int i = 0; i < 2; i++)
            if ((sw->r[i].bytes & ~ACC_WRITE) && conflicts(&sw->r[i], cur) &&
                !ordered(cw, cur->warp, &sw->r[i], cur->lane, &same))
                race(K, &sw->r[i], cur, space, addr);
        sw->w = *cur;
        memset(sw->r, 0, sizeof sw->r);
        return;
    }
    if ((sw->w.bytes & ACC_WRITE) && conflicts(&sw->w, cur) &&
        !ordered(cw, cur->warp, &sw->w, cur->lane, &same))
        race(K, &sw->w, cur, space, addr);
    /* keep two reads: replace one of the same warp at the same clock (it orders against other
     * warps exactly as this one does: the common case of a warp's lanes reading one word), one
     * of the same thread, or one ordered before this one */
    int slot = 1;
    for (int i = 0; i < 2; i++) {
        const ck_acc *r = &sw->r[i];
        bool s2 = false;
        if (!r->warp ||
            (r->warp == cur->warp && (r->lane == cur->lane || r->clock == cur->clock)) ||
            ordered(cw, cur->warp, r, cur->lane, &s2)) {
            slot = i;
            break;
        }
    }
    sw->r[slot] = *cur;
}

/* One piece of an access: every word it touches. */
static void race_piece(struct ck_launch *K, ck_cta *t, ck_warp *cw, ck_acc cur,
                       uint8_t space, uint64_t addr, uint32_t size, ck_cursor *at)
{
    uint8_t flags = cur.bytes;
    for (uint64_t a = addr & ~UINT64_C(3); a < addr + size; a += 4) {
        uint64_t lo = a > addr ? a : addr, hi = a + 4 < addr + size ? a + 4 : addr + size;
        uint8_t m = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - a));
        cur.bytes = (uint8_t)(flags | m);
        ck_word *sw = space == PTX_SPACE_SHARED ? shared_word(t, a) : global_word(K, a, at);
        /* lanes of one instruction on the same bytes of a word (a broadcast read) are one
         * access for everything outside the warp, and never race among themselves */
        if (!sw || (sw == at->last && cur.bytes == at->last_bytes)) continue;
        at->last = sw;
        at->last_bytes = cur.bytes;
        check_word(K, cw, sw, &cur, space, a);
    }
}

/* ---------------------------------------------------------------- initcheck */

static void init_piece(struct ck_launch *K, ck_cta *t, const ck_acc *cur, uint8_t space,
                       uint64_t addr, uint32_t size, bool write)
{
    if (space == PTX_SPACE_SHARED) {
        if (addr + size > t->nshared_init) {
            uint64_t n = t->nshared_init ? t->nshared_init : 1024;
            while (n < addr + size) n *= 2;
            if (n > UINT32_MAX) return;
            uint8_t *s = realloc(t->shared_init, n);
            if (!s) return;
            memset(s + t->nshared_init, 0, n - t->nshared_init);
            t->shared_init = s;
            t->nshared_init = (uint32_t)n;
        }
        if (write) {
            memset(t->shared_init + addr, 1, size);
            return;
        }
        const uint8_t *at = t->shared_init + addr, *gap = NULL;
        if (size == 4) {
            /* the common case in one comparison */
            uint32_t v;
            memcpy(&v, at, 4);
            if (v != 0x01010101u) gap = memchr(at, 0, 4);
        } else {
            gap = memchr(at, 0, size);
        }
        if (gap) {
            ck_site s = site_of(K, cur->warp, cur->lane, (uint16_t)(cur->site >> 24),
                                cur->site & 0xffffff);
            ck_hazard_note(K->c, K, CK_UNINIT_READ, space, &s, NULL,
                           (uint64_t)(gap - t->shared_init), NULL);
        }
        return;
    }
    if (!K->c->init) return;
    if (write) {
        ck_initmap_mark_in_op(K->c->init, addr, size);
        return;
    }
    uint64_t first;
    if (ck_initmap_first_in_op(K->c->init, addr, size, &first)) {
        ck_site s = site_of(K, cur->warp, cur->lane, (uint16_t)(cur->site >> 24),
                            cur->site & 0xffffff);
        ck_hazard_note(K->c, K, CK_UNINIT_READ, space, &s, NULL, first, NULL);
        /* once reported, the bytes count as written: one report per uninitialised value */
        ck_initmap_mark_in_op(K->c->init, addr, size);
    }
}

/* ---------------------------------------------------------------- synchronisation objects */

static ck_sync *sync_obj(struct ck_launch *K, uint64_t addr)
{
    ck_sync **head = &K->sync[(addr >> 2) % SYNC_BUCKETS], *s;
    for (s = *head; s; s = s->next)
        if (s->addr == addr) return s;
    s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->addr = addr;
    s->next = *head;
    *head = s;
    return s;
}

static void add_pending(ck_warp *cw, uint64_t addr)
{
    for (uint32_t i = 0; i < cw->npending; i++)
        if (cw->pending[i] == addr) return;
    if (cw->npending == MAX_PENDING) {
        memmove(cw->pending, cw->pending + 1, (MAX_PENDING - 1) * sizeof *cw->pending);
        cw->npending--;
    }
    cw->pending[cw->npending++] = addr;
}

/* ---------------------------------------------------------------- the policy */

/* The shadow work of a performed operation's pieces: racecheck's words, initcheck's bytes. */
static void shadow_pieces(struct ck_launch *K, ck_cta *t, ck_warp *cw, uint64_t self_id,
                          const emu_mem_op *op, bool strong, uint32_t sync, bool write,
                          bool atomic)
{
    if (op->space != PTX_SPACE_GLOBAL && op->space != PTX_SPACE_SHARED) return;
    /* asynchronous copies complete through mbarriers and wait groups, which racecheck does not
     * model yet: their accesses are left out of it rather than reported without their
     * ordering (initcheck still sees what they write) */
    bool racecheck = (K->c->kinds & TIMING_CHECK_RACE) && op->cls != EMU_CLS_ASYNC;
    ck_cursor at = {0};
    bool init = (K->c->kinds & TIMING_CHECK_INIT) != 0;
    if (init && K->c->init) ck_initmap_op_begin(K->c->init);
    for (uint32_t i = 0; i < op->nseg; i++) {
        const emu_mem_seg *g = &op->seg[i];
        ck_acc cur = { .warp = (uint32_t)self_id, .clock = cw->clock,
                       .site = site_code(op->func, op->pc), .seq = (uint8_t)cw->seq,
                       .lsync = (uint8_t)cw->lsync[g->lane & 31], .lane = g->lane,
                       .bytes = (uint8_t)((strong ? ACC_STRONG : 0) | (write ? ACC_WRITE : 0) |
                                          (atomic ? ACC_ATOMIC : 0) |
                                          (sync >> (g->lane & 31) & 1 ? ACC_SYNC : 0)) };
        if (racecheck) race_piece(K, t, cw, cur, op->space, g->addr, g->size, &at);
        if (init) init_piece(K, t, &cur, op->space, g->addr, g->size, write);
    }
    if (init && K->c->init) ck_initmap_op_end(K->c->init);
    if (at.held) pthread_mutex_unlock(&at.held->lock);
}

static emu_mem_outcome ck_access(emu_mem_policy *self, emu_warp *w, emu_mem_op *op)
{
    struct ck_launch *K = self->state;
    if (!(K->c->kinds & (TIMING_CHECK_RACE | TIMING_CHECK_INIT)))
        return emu_policy_forward(self, w, op);
    ck_cta *t = cta_of(K, w);
    uint32_t wi = emu_warp_id(w);
    if (!t || wi >= K->warps_per_cta) return emu_policy_forward(self, w, op);
    ck_warp *cw = &t->warps[wi];
    uint64_t self_id = warp_gid(K, t, wi);
    cw->seq++;
    resume(t, cw, op->mask);
    bool racecheck = K->c->kinds & TIMING_CHECK_RACE;
    if (op->kind == EMU_MEM_CALL) {
        /* device malloc/free (and printf) synchronise through the heap: memory one thread
         * frees and another gets from malloc is ordered */
        pthread_mutex_lock(&K->sync_lock);
        emu_mem_outcome r = emu_policy_forward(self, w, op);
        ck_sync *s = sync_obj(K, UINT64_C(1) << 63);
        if (s && racecheck && (r == EMU_MEM_DONE || r == EMU_MEM_DONE_STOP)) {
            warp_join(cw, &s->vc);
            ck_vc_join(&s->vc, &cw->vc);
            ck_vc_raise(&s->vc, self_id, cw->clock);
            cw->clock++;
        }
        pthread_mutex_unlock(&K->sync_lock);
        return r;
    }
    if (op->kind == EMU_MEM_FENCE) {
        emu_mem_outcome r = emu_policy_forward(self, w, op);
        if (racecheck) {
            pthread_mutex_lock(&K->sync_lock);
            for (uint32_t i = 0; i < cw->npending; i++) {
                ck_sync *s = sync_obj(K, cw->pending[i]);
                if (s) warp_join(cw, &s->vc);
            }
            pthread_mutex_unlock(&K->sync_lock);
            cw->npending = 0;
            cw->fenced |= op->mask;
        }
        return r;
    }
    const ptx_instr *in = instr_at(K, op->func, op->pc);
    uint16_t sem = in ? in->sem : 0;
    bool atomic = op->kind == EMU_MEM_ATOMIC;
    /* strong in the memory model's sense (atomics, .relaxed/.acquire/.release): two of them
     * do not race. A volatile access is not (the rule, and compute-sanitizer's: only
     * atomics are excepted), but it may still carry a flag after a fence (sync_capable). */
    bool strong = atomic || (sem && sem != PTX_SFX_WEAK);
    bool sync_capable = strong || (in && (in->flags & PTX_F(VOLATILE)));
    bool write = op->kind == EMU_MEM_STORE || atomic;
    emu_mem_outcome r;
    uint32_t sync = 0;   /* lanes whose access is a release or an acquire (strong, as the memory
                            model has it) */
    /* synchronisation objects of shared memory belong to their CTA */
    uint64_t key_base = op->space == PTX_SPACE_SHARED ? (t->linear + 1) << 40 : 0;
    if (racecheck && (op->space == PTX_SPACE_GLOBAL || op->space == PTX_SPACE_SHARED)) {
        /* per lane: only a lane that executed the fence releases (or acquires) through it */
        bool sem_release = sem == PTX_SFX_RELEASE || sem == PTX_SFX_ACQ_REL;
        bool sem_acquire = sem == PTX_SFX_ACQUIRE || sem == PTX_SFX_ACQ_REL;
        uint32_t release = !write ? 0 : sem_release ? op->mask
                         : sync_capable ? op->mask & cw->fenced : 0;
        uint32_t acquire = !(atomic || op->kind == EMU_MEM_LOAD) ? 0
                         : sem_acquire ? op->mask : atomic ? op->mask & cw->fenced : 0;
        sync = release | acquire;
        if (sync) {
            /* performed and published under one lock: an acquire that reads this value
             * finds the release's clock */
            pthread_mutex_lock(&K->sync_lock);
            r = emu_policy_forward(self, w, op);
            if (r == EMU_MEM_DONE || r == EMU_MEM_DONE_STOP) {
                for (uint32_t i = 0; i < op->nseg; i++) {
                    uint32_t lane = 1u << (op->seg[i].lane & 31);
                    if (!(sync & lane)) continue;
                    ck_sync *s = sync_obj(K, key_base | op->seg[i].addr);
                    if (!s) continue;
                    if (acquire & lane) warp_join(cw, &s->vc);
                    if (release & lane) {
                        ck_vc_join(&s->vc, &cw->vc);
                        ck_vc_raise(&s->vc, self_id, cw->clock);
                    }
                }
            }
            pthread_mutex_unlock(&K->sync_lock);
            if (release) {
                cw->clock++;
                cw->fenced &= ~release;
            }
        } else {
            r = emu_policy_forward(self, w, op);
        }
        if ((sync_capable && !write) || atomic)
            for (uint32_t i = 0; i < op->nseg; i++)
                if (!(acquire >> (op->seg[i].lane & 31) & 1))
                    add_pending(cw, key_base | op->seg[i].addr);
    } else {
        r = emu_policy_forward(self, w, op);
    }
    if (r != EMU_MEM_DONE && r != EMU_MEM_DONE_STOP) return r;
    /* the flag of a fence-and-flag handshake (a volatile store after a fence) does not race
     * with the loads that poll it */
    shadow_pieces(K, t, cw, self_id, op, strong, sync, write, atomic);
    return r;
}

/* A plain load or store the executor performed itself (EMU_POLICY_OBSERVER): the same shadow
 * work as a performed operation, without synchronisation (plain accesses carry none). */
static void ck_observe(emu_mem_policy *self, emu_warp *w, const emu_mem_op *op)
{
    struct ck_launch *K = self->state;
    ck_cta *t = cta_of(K, w);
    uint32_t wi = emu_warp_id(w);
    if (!t || wi >= K->warps_per_cta) return;
    ck_warp *cw = &t->warps[wi];
    cw->seq++;
    resume(t, cw, op->mask);
    shadow_pieces(K, t, cw, warp_gid(K, t, wi), op, false, 0, op->kind == EMU_MEM_STORE, false);
}

static void ck_barrier(emu_mem_policy *self, emu_warp *w, uint32_t id, uint32_t count,
                       bool wait, uint32_t lanes, uint16_t func, uint32_t pc)
{
    struct ck_launch *K = self->state;
    ck_cta *t = cta_of(K, w);
    uint32_t wi = emu_warp_id(w);
    if (!t || wi >= K->warps_per_cta) return;
    ck_warp *cw = &t->warps[wi];
    resume(t, cw, lanes);
    uint64_t self_id = warp_gid(K, t, wi);
    if (id == EMU_WARP_MEMBERS) {
        /* shfl/vote/match/redux/elect .sync: every lane its masks name must execute it */
        if ((K->c->kinds & TIMING_CHECK_SYNC) && (count & ~lanes)) {
            ck_site s = site_of(K, self_id, (uint8_t)__builtin_ctz(lanes), func, pc);
            char why[128];
            snprintf(why, sizeof why, "member mask 0x%08x names lanes 0x%08x that did not "
                     "execute it", count, count & ~lanes);
            ck_hazard_note(K->c, K, CK_SYNC_WARP_MASK, PTX_SPACE_NONE, &s, NULL, 0, why);
        }
        return;
    }
    if (id == EMU_WARP_BARRIER) {
        /* __syncwarp(members): every member must execute it; lanes outside it need not */
        uint32_t members = count;
        if ((K->c->kinds & TIMING_CHECK_SYNC) && (members & ~lanes)) {
            ck_site s = site_of(K, self_id, (uint8_t)__builtin_ctz(lanes), func, pc);
            char why[128];
            snprintf(why, sizeof why, "member mask 0x%08x names lanes 0x%08x that did not "
                     "execute it", members, members & ~lanes);
            ck_hazard_note(K->c, K, CK_SYNC_WARP_MASK, PTX_SPACE_NONE, &s, NULL, 0, why);
        }
        for (uint32_t m = lanes & members; m; m &= m - 1) cw->lsync[__builtin_ctz(m)]++;
        return;
    }
    if (id >= NBAR) return;
    ck_bar *b = &t->bar[id];
    if ((K->c->kinds & TIMING_CHECK_SYNC) && b->arrivals) {
        ck_site s = site_of(K, self_id, (uint8_t)__builtin_ctz(lanes), func, pc);
        ck_site first = site_of(K, b->first_warp, b->first_lane, b->func, b->pc);
        if (b->func != func || b->pc != pc) {
            char why[128];
            snprintf(why, sizeof why, "barrier %u is reached at two different instructions "
                     "by threads of one block", id);
            ck_hazard_note(K->c, K, CK_SYNC_DIVERGENT, PTX_SPACE_NONE, &first, &s, 0, why);
        } else if (b->count != count) {
            char why[128];
            snprintf(why, sizeof why, "barrier %u is given thread counts %u and %u", id,
                     b->count, count);
            ck_hazard_note(K->c, K, CK_SYNC_BAD_COUNT, PTX_SPACE_NONE, &first, &s, 0, why);
        }
    }
    if (!b->arrivals) {
        b->func = func;
        b->pc = pc;
        b->count = count;
        b->first_warp = self_id;
        b->first_lane = (uint8_t)__builtin_ctz(lanes);
    }
    b->arrivals++;
    ck_vc_join(&b->acc, &cw->vc);
    ck_vc_raise(&b->acc, self_id, cw->clock);
    cw->clock++;
    for (uint32_t m = lanes; m; m &= m - 1) cw->lsync[__builtin_ctz(m)]++;
    if (wait) {
        cw->waiting |= lanes;
        cw->wait_bar = id;
        cw->wait_gen = b->gen;
    }
}

static void ck_warp_stopped(emu_mem_policy *self, emu_warp *w, int reason)
{
    struct ck_launch *K = self->state;
    if (self->next && self->next->warp_stopped) self->next->warp_stopped(self->next, w, reason);
    if (reason != EMU_STOP_EXIT) return;
    uint64_t lin = emu_warp_cta_linear(w);
    uint32_t wi = emu_warp_id(w);
    if (lin >= K->ncta || wi >= K->warps_per_cta) return;
    ck_cta *t = atomic_load_explicit(&K->ctas[lin], memory_order_acquire);
    if (!t || t->warps[wi].exited) return;
    t->warps[wi].exited = true;
    if (++t->exited == K->warps_per_cta) {
        /* the CTA is over: its shared memory and clocks go (global accesses keep theirs) */
        atomic_store_explicit(&K->ctas[lin], NULL, memory_order_release);
        cta_free(t, K->warps_per_cta);
    }
}

static void ck_event(emu_mem_policy *self, emu_warp *w, emu_policy_event ev, uint32_t lanes)
{
    if (self->next && self->next->event) self->next->event(self->next, w, ev, lanes);
}

emu_mem_policy *timing_check_begin(timing_check *c, const emu_launch *L, const char *kernel)
{
    struct ck_launch *K = calloc(1, sizeof *K);
    if (!K) return NULL;
    K->c = c;
    K->ptx = emu_module_ptx(L->module);
    K->kernel = strdup(kernel ? kernel : L->kernel->name);
    K->grid = L->grid;
    K->block = L->block;
    K->threads_per_cta = L->block.x * L->block.y * L->block.z;
    K->warps_per_cta = (K->threads_per_cta + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    K->ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    K->ctas = calloc(K->ncta ? K->ncta : 1, sizeof *K->ctas);
    if (!K->kernel || !K->ctas) {
        free(K->kernel);
        free(K->ctas);
        free(K);
        return NULL;
    }
    for (int i = 0; i < NSTRIPES; i++) pthread_mutex_init(&K->stripes[i].lock, NULL);
    pthread_mutex_init(&K->sync_lock, NULL);
    pthread_mutex_lock(&c->lock);
    K->index = c->launches++;
    pthread_mutex_unlock(&c->lock);
    emu_mem_policy *next = L->policy ? L->policy : emu_direct_policy();
    /* synccheck alone needs the barrier callbacks only */
    bool memory = c->kinds & (TIMING_CHECK_RACE | TIMING_CHECK_INIT);
    K->pol = (emu_mem_policy){
        .name = "check",
        /* over the direct policy, plain loads and stores may stay on the executor's fast
         * path and be observed after it */
        .wants = memory ? EMU_POLICY_WANTS_SHARED |
                              (next == emu_direct_policy() ? EMU_POLICY_OBSERVER
                                                           : next->wants & EMU_POLICY_SPACES)
                        : (next == emu_direct_policy() ? EMU_POLICY_PASSTHROUGH
                                                       : next->wants & EMU_POLICY_SPACES),
        .access = ck_access,
        .observe = ck_observe,
        .event = ck_event,
        .barrier = ck_barrier,
        .warp_stopped = ck_warp_stopped,
        .next = next == emu_direct_policy() ? NULL : next,
        .state = K,
    };
    c->cur = K;
    return &K->pol;
}

void timing_check_end(timing_check *c, FILE *out)
{
    struct ck_launch *K = c->cur;
    if (!K) return;
    ck_print_new(c, out);
    c->cur = NULL;
    for (uint64_t i = 0; i < K->ncta; i++) cta_free(K->ctas[i], K->warps_per_cta);
    for (int i = 0; i < NSTRIPES; i++) {
        for (int j = 0; j < STRIPE_BUCKETS; j++)
            for (ck_page *p = K->stripes[i].bucket[j], *n; p; p = n) {
                n = p->next;
                free(p);
            }
        pthread_mutex_destroy(&K->stripes[i].lock);
    }
    for (int i = 0; i < SYNC_BUCKETS; i++)
        for (ck_sync *s = K->sync[i], *n; s; s = n) {
            n = s->next;
            ck_vc_free(&s->vc);
            free(s);
        }
    pthread_mutex_destroy(&K->sync_lock);
    free(K->ctas);
    free(K->kernel);
    free(K);
}
