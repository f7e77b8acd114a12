/* exec_mem.c: ld, st, atom, red, cp.async, fences and cache hints, on every state space.
 *
 * Each instruction describes what it touches as pieces of one access (memaccess.c), which
 * resolves every lane's address to its space and checks it (alignment, then bounds) before any
 * lane touches memory, so a faulting instruction writes nothing, and hands the global part to
 * the memory policy as one operation. Operands come decoded (u->opd). */
#include "emulator/emu_internal.h"

#include <assert.h>
#include <string.h>

#define MAX_ACCESS 32   /* bytes per lane: up to .v8.b32 / .v4.b64 */

static unsigned elem_bytes(uint8_t t)
{
    unsigned b = emu_type_bits[t];
    return b < 8 ? 1 : b / 8;
}

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* The operand type of atom/red: the last type suffix (atom.global.v2.f16x2 names the vector's
 * element type last). */
static uint8_t atom_type(const ptx_instr *in)
{
    uint8_t t = PTX_TYPE_NONE;
    for (int i = 0; i < in->ntypes; i++) t = in->types[i];
    return t;
}

/* ---------------------------------------------------------------- fast paths
 * A load or store of 4 or 8 bytes per lane through a register address, when the policy is the
 * direct one (nothing to defer or observe): every lane is checked against the allocation the
 * warp last hit (global) or the block's shared memory, and the data moves between the register
 * row and memory without staging. Any lane outside, misaligned or in another space sends the
 * instruction to the general path, which reports faults; so the fast path changes nothing but
 * the time taken. */

/* The allocation of the first lane's address a0 (the warp's cached one, one of its last few,
 * or looked up: a kernel alternates between its arrays, so a miss looks the new one up rather
 * than giving up; the general path reports a bad address): a lane is good when aligned with its
 * es bytes in it, a - *lo <= *lim. Inside the allocation implies global: the windows lie above
 * device memory. The last few (emu_warp.fast_hit) outlive the warp as jit_hit does: vecadd's
 * warps make three accesses each, to three arrays, and found none of them in cache_*. */
static inline bool global_bounds(emu_ctx *c, uint64_t a0, unsigned es, uint64_t *lo,
                                 uint64_t *lim)
{
    emu_warp *w = c->w;
    uint64_t gen = emu_device_generation();
    if (w->cache_gen != gen || a0 < w->cache_base || a0 >= w->cache_end) {
        int k = 0;
        while (k < EMU_FAST_HITS && (w->fast_hit[k][2] != gen || a0 < w->fast_hit[k][0] ||
                                     a0 >= w->fast_hit[k][1]))
            k++;
        if (k == EMU_FAST_HITS) {
            uint64_t ab, asz;
            if (!emu_find_allocation(a0, es, &ab, &asz, NULL)) return false;
            k = (int)(w->fast_hit_next++ % EMU_FAST_HITS);
            w->fast_hit[k][0] = ab;
            w->fast_hit[k][1] = ab + asz;
            w->fast_hit[k][2] = gen;
        }
        w->cache_base = w->fast_hit[k][0];
        w->cache_end = w->fast_hit[k][1];
        w->cache_gen = gen;
    }
    if (w->cache_end - w->cache_base < es) return false;
    *lo = w->cache_base;
    *lim = w->cache_end - w->cache_base - es;
    return true;
}

static bool fast_lanes(emu_ctx *c, const emu_uop *u, const emu_opd *ao, unsigned es,
                       uint8_t **p)
{
    uint8_t sp = u->in->space;
    const uint64_t *base = c->regs + ao->row;
    uint64_t off = ao->imm, keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    uint32_t mask = c->mask;
    if (sp == PTX_SPACE_SHARED) {
        /* A lane is good when its offset (in the window or not) is aligned and its es bytes lie
         * in the CTA's shared memory: a <= size - es. The lanes' faults are ORed and tested
         * once, every lane's pointer written (a bad lane's is never used: false sends the
         * instruction to the general path), so the loop has no branch but its own: the whole
         * warp's without its mask's bits. */
        uint64_t size = c->cta->smem_size;
        if (es > size) return !mask;
        uint64_t lim = size - es, bad = 0;
        uintptr_t smem = (uintptr_t)c->cta->smem;
#define SHARED_LANE(l)                                                                   \
    do {                                                                                 \
        uint64_t a = (base[l] + off) & keep;                                             \
        a -= a - EMU_SHARED_WINDOW < EMU_WINDOW_SIZE ? EMU_SHARED_WINDOW : 0;            \
        bad |= (a & (es - 1)) | (uint64_t)(a > lim);                                     \
        p[l] = (uint8_t *)(smem + a);                                                    \
    } while (0)
        if (mask == UINT32_MAX)
            for (int l = 0; l < EMU_WARP_SIZE; l++) SHARED_LANE(l);
        else
            for (uint32_t mk = mask; mk; mk &= mk - 1) SHARED_LANE(__builtin_ctz(mk));
#undef SHARED_LANE
        return !bad;
    }
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST && sp != PTX_SPACE_NONE) return false;
    uint64_t lo, lim, bad = 0;
    if (!global_bounds(c, (base[__builtin_ctz(mask)] + off) & keep, es, &lo, &lim)) return false;
#define GLOBAL_LANE(l)                                                                   \
    do {                                                                                 \
        uint64_t a = (base[l] + off) & keep;                                             \
        bad |= (a & (es - 1)) | (uint64_t)(a - lo > lim);                                \
        p[l] = (uint8_t *)(uintptr_t)a;                                                  \
    } while (0)
    if (mask == UINT32_MAX)
        for (int l = 0; l < EMU_WARP_SIZE; l++) GLOBAL_LANE(l);
    else
        for (uint32_t mk = mask; mk; mk &= mk - 1) GLOBAL_LANE(__builtin_ctz(mk));
#undef GLOBAL_LANE
    return !bad;
}

/* Whether the ld/st fast path may take instruction u: the direct policy, and with events only
 * where its lanes' addresses are the general path's (global, generic, shared). */
static bool fast_allowed(const emu_ctx *c, const emu_uop *u)
{
    if (c->direct_mem) return true;
    uint8_t sp = u->in->space;
    return c->direct_events &&
           (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_NONE || sp == PTX_SPACE_SHARED);
}

/* The event of a fast-path access: one piece of `bytes` per lane, at its generic address, as
 * the general path writes it (memaccess.c), or compact (EMU_EV_COMPACT, emu.h) when the lanes'
 * addresses have its shape, found here from the addresses: a whole warp's from lanes 0, 1 and
 * 16, another mask's as one stride from its first two lanes. */
static void event_compact(emu_event *ev, uint64_t base, uint64_t stride, uint64_t half)
{
    ev->flags |= EMU_EV_COMPACT;
    ev->stride = (int32_t)stride;
    ev->half_stride = (int32_t)half;
    ev->base = base;
}

static void fast_event(emu_ctx *c, const emu_uop *u, unsigned bytes, uint8_t *const *p)
{
    emu_event *ev = c->ev;
    if (!ev || (ev->flags & EMU_EV_MEM)) return;
    ev->flags |= EMU_EV_MEM;
    ev->size = (uint16_t)bytes;
    uint32_t mask = c->mask;
    ev->mem_lanes = mask;
    /* shared: the offset in the CTA's shared memory, in its window (an address plus a
     * constant, so the shape is the same) */
    bool shared = u->in->space == PTX_SPACE_SHARED;
    uint64_t to_generic =
        shared ? sem_generic_address(PTX_SPACE_SHARED, 0) - (uint64_t)(uintptr_t)c->cta->smem : 0;
#define a(l) ((uint64_t)(uintptr_t)p[l])   /* lane l's host address */
    int l0 = __builtin_ctz(mask);
    uint64_t base, stride = 0, half, differs = 0;
    if (mask == UINT32_MAX) {
        base = a(0);
        stride = a(1) - base;
        half = a(16) - base;
        /* two lanes of each half at a time (SSE2; a host pointer is 64 bits) */
        _Static_assert(sizeof p[0] == sizeof(uint64_t), "64-bit host pointers");
        typedef uint64_t u64x2 __attribute__((vector_size(16)));
        u64x2 lo = {base, base + stride}, hi = {a(16), a(16) + stride}, step = lo - lo, d = step;
        step += 2 * stride;
        for (int l = 0; l < EMU_WARP_SIZE / 2; l += 2, lo += step, hi += step) {
            u64x2 x, y;
            memcpy(&x, &p[l], sizeof x);
            memcpy(&y, &p[l + 16], sizeof y);
            d |= (x ^ lo) | (y ^ hi);
        }
        differs = d[0] | d[1];
    } else {
        uint32_t rest = mask & (mask - 1);
        if (rest) {
            int l1 = __builtin_ctz(rest);
            int64_t d = (int64_t)(a(l1) - a(l0));
            stride = (uint64_t)(l1 - l0 == 1 ? d : d / (l1 - l0));
        }
        base = a(l0) - (uint64_t)l0 * stride;
        half = stride * 16;
        for (uint32_t mk = rest; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            differs |= a(l) ^ (base + (uint64_t)l * stride);
        }
    }
    if (!differs && (int64_t)stride == (int32_t)stride && (int64_t)half == (int32_t)half) {
        event_compact(ev, base + to_generic, stride, half);
        int last = 31 - __builtin_clz(mask);
        assert(emu_event_lane_addr(ev, l0) == a(l0) + to_generic &&
               emu_event_lane_addr(ev, last) == a(last) + to_generic);
        return;
    }
    for (uint32_t mk = mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        ev->lane_addr[l] = a(l) + to_generic;
    }
#undef a
}

/* A whole warp's compact-shaped access (fast_warp_shaped): lane l's host address is host +
 * (l % 16) * stride + (l / 16) * half. */
typedef struct {
    uint8_t *host;
    uint64_t stride, half;
} warp_shape;

/* A whole warp's access whose event is to be recorded: whether its lanes' addresses have the
 * compact shape (fast_event's: lane l at lane 0's + (l % 16) * stride + (l / 16) * half), in
 * one pass over the address row, and if so the shape (*s) and the compact event. With the
 * shape and both strides in 32 bits, no lane of a half lies outside its ends (none wraps
 * around), so lanes 0, 15, 16 and 31 inside the allocation or shared memory put every lane
 * there, and lanes 0 and 16 and the stride aligned align them all; shared offsets all come
 * from the window or all not, as lane 0's (shared memory is smaller than the window's start).
 * So this decides what fast_lanes decides lane by lane, and writes the compact event
 * fast_event would, in a few instructions per two lanes, without the lanes' pointers: the
 * callers access memory from the shape. false when it cannot tell so (no shape, an end
 * outside, misaligned): the caller then goes lane by lane. */
static inline __attribute__((always_inline)) bool fast_warp_shaped(emu_ctx *c, const emu_uop *u,
                                                                  const emu_opd *ao, unsigned es,
                                                                  warp_shape *s)
{
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    uint8_t sp = u->in->space;
    bool shared = sp == PTX_SPACE_SHARED;
    if (!shared && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST && sp != PTX_SPACE_NONE)
        return false;
    const uint64_t *r = c->regs + ao->row;
    uint64_t off = ao->imm, keep = ao->bits <= 32 ? 0xffffffffu : ~UINT64_C(0);
    uint64_t a0 = (r[0] + off) & keep, stride = ((r[1] + off) & keep) - a0,
             half = ((r[16] + off) & keep) - a0;
    if ((int64_t)stride != (int32_t)stride || (int64_t)half != (int32_t)half ||
        ((a0 | half | stride) & (es - 1)))
        return false;
    /* the lanes' region: [lo, lo + lim] for their first byte, at host address `host` */
    uint64_t lo, lim, host;
    if (shared) {
        uint64_t size = c->cta->smem_size;
        if (es > size || size > EMU_SHARED_WINDOW) return false;
        lo = a0 - EMU_SHARED_WINDOW < EMU_WINDOW_SIZE ? EMU_SHARED_WINDOW : 0;
        lim = size - es;
        host = (uint64_t)(uintptr_t)c->cta->smem;
    } else {
        if (!global_bounds(c, a0, es, &lo, &lim)) return false;
        host = lo;
    }
    uint64_t last = 15 * stride;
    if (a0 - lo > lim || a0 + last - lo > lim || a0 + half - lo > lim ||
        a0 + half + last - lo > lim)
        return false;
    /* Lane l's address (r[l] + off) & keep is its shape's `want` when r[l] = want - off modulo
     * keep + 1: the register row itself is compared (with want - off), and keep applied once
     * to the ORed differences. For 32-bit addresses that needs every want below 2^32, as the
     * corners' are (the wants lie between them: a half's are a line, and none wraps). */
    if (keep != ~UINT64_C(0) &&
        (a0 + last > keep || a0 + half > keep || a0 + half + last > keep))
        return false;
    u64x2 want_lo = {a0 - off, a0 + stride - off}, want_hi = want_lo + half;
    u64x2 step = {2 * stride, 2 * stride}, d = {0, 0};
    _Pragma("GCC unroll 8") for (int l = 0; l < EMU_WARP_SIZE / 2; l += 2) {
        u64x2 x, y;
        memcpy(&x, &r[l], sizeof x);
        memcpy(&y, &r[l + 16], sizeof y);
        d |= (x ^ want_lo) | (y ^ want_hi);
        want_lo += step;
        want_hi += step;
    }
    if ((d[0] | d[1]) & keep) return false;
    s->host = (uint8_t *)(uintptr_t)(a0 - lo + host);
    s->stride = stride;
    s->half = half;
    emu_event *ev = c->ev;
    ev->flags |= EMU_EV_MEM;
    ev->size = (uint16_t)es;
    ev->mem_lanes = UINT32_MAX;
    uint64_t to_generic =
        shared ? sem_generic_address(PTX_SPACE_SHARED, 0) - (uint64_t)(uintptr_t)c->cta->smem : 0;
    event_compact(ev, (uint64_t)(uintptr_t)s->host + to_generic, stride, half);
    assert(ev->base + 15 * (uint64_t)(int64_t)ev->stride + (uint64_t)(int64_t)ev->half_stride ==
           (uint64_t)(uintptr_t)s->host + 15 * stride + half + to_generic);
    return true;
}

/* Lane l's host address of a shaped access. */
static inline uint8_t *shaped_lane(const warp_shape *s, int l)
{
    return s->host + (uint64_t)(l % 16) * s->stride + (uint64_t)(l / 16) * s->half;
}

/* fast_lanes, and the access's event (fast_event) when one is recorded: a whole warp's in one
 * pass when it has the compact shape (fast_warp_shaped): then *s is set (s->host not NULL)
 * and p is not written; else s->host is NULL and p holds the lanes' pointers. */
static bool fast_lanes_recorded(emu_ctx *c, const emu_uop *u, const emu_opd *ao, unsigned es,
                                uint8_t **p, warp_shape *s)
{
    const emu_event *ev = c->ev;
    s->host = NULL;
    if (c->mask == UINT32_MAX && ev && !(ev->flags & EMU_EV_MEM) &&
        fast_warp_shaped(c, u, ao, es, s))
        return true;
    if (!fast_lanes(c, u, ao, es, p)) return false;
    fast_event(c, u, es, p);
    return true;
}

/* Element k (es bytes at k * es) of each lane of a shaped load into row: one read per half
 * where the half's lanes share an address, the other half's copied where both halves read
 * the same (matmul's tiles: a row's element for each lane, or a column's 16 for both rows). */
static inline __attribute__((always_inline)) void load_shaped(uint64_t *row,
                                                             const warp_shape *s, unsigned es,
                                                             unsigned k)
{
    for (int h = 0; h < 2; h++) {
        uint64_t *r = row + 16 * h;
        if (h == 1 && s->half == 0) {
            memcpy(r, row, 16 * sizeof *r);
            return;
        }
        const uint8_t *b = s->host + (uint64_t)h * s->half + (uint64_t)k * es;
        /* (unrolled: GCC's -O2 keeps these 16-iteration loops as loops) */
        if (s->stride == 0) {
            uint64_t v = es == 4 ? __atomic_load_n((const uint32_t *)b, __ATOMIC_RELAXED)
                                 : __atomic_load_n((const uint64_t *)b, __ATOMIC_RELAXED);
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) r[i] = v;
        } else if (es == 4 && s->stride == 4) {
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
                r[i] = __atomic_load_n((const uint32_t *)b + i, __ATOMIC_RELAXED);
        } else if (es == 4) {
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
                r[i] = __atomic_load_n((const uint32_t *)(b + (uint64_t)i * s->stride),
                                       __ATOMIC_RELAXED);
        } else {
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
                r[i] = __atomic_load_n((const uint64_t *)(b + (uint64_t)i * s->stride),
                                       __ATOMIC_RELAXED);
        }
    }
}

/* Element k (es bytes at k * es) of each lane's value v[l] stored by a shaped store, lane by
 * lane in lane order (half 0's lanes, then half 1's), so that where lanes share an address the
 * last one's value stays, as the lane pointers' loop leaves it; without the 32 lane pointers
 * written and read back, and the common strides unrolled with constant steps. */
static inline __attribute__((always_inline)) void store_shaped(const warp_shape *s, unsigned es,
                                                              unsigned k, const uint64_t *v)
{
    for (int h = 0; h < 2; h++) {
        const uint64_t *x = v + 16 * h;
        uint8_t *b = s->host + (uint64_t)h * s->half + (uint64_t)k * es;
        /* (unrolled: GCC's -O2 keeps these 16-iteration loops as loops) */
        if (es == 4 && s->stride == 4) {
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
                __atomic_store_n((uint32_t *)b + i, (uint32_t)x[i], __ATOMIC_RELAXED);
        } else if (es == 8 && s->stride == 8) {
            _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
                __atomic_store_n((uint64_t *)b + i, x[i], __ATOMIC_RELAXED);
        } else if (es == 4) {
            for (int i = 0; i < 16; i++)
                __atomic_store_n((uint32_t *)(b + (uint64_t)i * s->stride), (uint32_t)x[i],
                                 __ATOMIC_RELAXED);
        } else {
            for (int i = 0; i < 16; i++)
                __atomic_store_n((uint64_t *)(b + (uint64_t)i * s->stride), x[i],
                                 __ATOMIC_RELAXED);
        }
    }
}

/* The registers of a load's destination (each exactly es bytes wide) or a store's source (a
 * register at least that wide, not .b128, or an immediate): one, or a vector's elements; NULL
 * when the operand is anything else. */
static const emu_opd *fast_regs(const emu_ctx *c, const emu_opd *o, unsigned vec, unsigned es,
                                bool store)
{
    const emu_opd *e = o;
    if (vec > 1) {
        if (o->kind != EMU_OPD_VEC || (unsigned)o->imm != vec) return NULL;
        e = emu_opd_elems(c, o);
    }
    for (unsigned k = 0; k < vec; k++) {
        if (e[k].kind == EMU_OPD_REG &&
            (store ? e[k].bits >= es * 8 && e[k].bits != 128 : e[k].bits == es * 8))
            continue;
        if (store && e[k].kind == EMU_OPD_IMM) continue;
        return NULL;
    }
    return e;
}

/* An observing policy (EMU_POLICY_OBSERVER) learns of a plain access the fast path performed:
 * one piece per lane, shared addresses as offsets in the CTA's window. Strong accesses
 * (volatile, relaxed, acquire, release) take the general path, where the policy orders them. */
static bool observable(const emu_ctx *c, const emu_uop *u)
{
    return !c->observed_mem || (!u->in->sem && !(u->in->flags & PTX_F(VOLATILE)));
}

static void observe(emu_ctx *c, const emu_uop *u, uint8_t kind, unsigned size, uint8_t *const *p)
{
    emu_mem_seg segs[EMU_WARP_SIZE];
    uint32_t n = 0;
    uint8_t sp = u->in->space == PTX_SPACE_SHARED ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t a = sp == PTX_SPACE_SHARED ? (uint64_t)(p[l] - c->cta->smem)
                                            : (uint64_t)(uintptr_t)p[l];
        segs[n++] = (emu_mem_seg){ a, size, 0, (uint8_t)l };
    }
    emu_mem_op op = { .kind = kind, .space = sp, .cls = u->cls, .func = (uint16_t)c->f->index,
                      .mask = c->mask, .pc = c->pc, .nseg = n, .seg = segs };
    emu_mem_policy *pol = c->g->launch.policy;
    pol->observe(pol, c->w, &op);
}

static bool ld_fast(emu_ctx *c, const emu_uop *u, unsigned es, unsigned vec)
{
    const emu_opd *ao = &u->opd[1];
    if (!fast_allowed(c, u) || !(ao->flags & EMU_OPD_F_BASE_REG) || !observable(c, u))
        return false;
    const emu_opd *e = fast_regs(c, &u->opd[0], vec, es, false);
    uint8_t *p[EMU_WARP_SIZE];
    warp_shape s;
    /* a vector is aligned to its whole size (PTX ISA, vector data types) */
    if (!e || !fast_lanes_recorded(c, u, ao, es * vec, p, &s)) return false;
    if (s.host) {
        for (unsigned k = 0; k < vec; k++) load_shaped(c->regs + e[k].row, &s, es, k);
        if (c->observed_mem) {
            for (int l = 0; l < EMU_WARP_SIZE; l++) p[l] = shaped_lane(&s, l);
            observe(c, u, EMU_MEM_LOAD, es * vec, p);
        }
        return true;
    }
    /* (a whole warp's lanes without the mask's bits) */
    bool all = c->mask == UINT32_MAX;
    for (unsigned k = 0; k < vec; k++) {
        uint64_t *row = c->regs + e[k].row;
        if (es == 4 && all)
            for (int l = 0; l < EMU_WARP_SIZE; l++)
                row[l] = __atomic_load_n((const uint32_t *)(p[l] + 4 * k), __ATOMIC_RELAXED);
        else if (es == 4)
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                row[l] = __atomic_load_n((const uint32_t *)(p[l] + 4 * k), __ATOMIC_RELAXED);
            }
        else if (all)
            for (int l = 0; l < EMU_WARP_SIZE; l++)
                row[l] = __atomic_load_n((const uint64_t *)(p[l] + 8 * k), __ATOMIC_RELAXED);
        else
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                row[l] = __atomic_load_n((const uint64_t *)(p[l] + 8 * k), __ATOMIC_RELAXED);
            }
    }
    if (c->observed_mem) observe(c, u, EMU_MEM_LOAD, es * vec, p);
    return true;
}

static bool st_fast(emu_ctx *c, const emu_uop *u, unsigned es, unsigned vec)
{
    const emu_opd *ao = &u->opd[0];
    if (!fast_allowed(c, u) || !(ao->flags & EMU_OPD_F_BASE_REG) || !observable(c, u))
        return false;
    const emu_opd *e = fast_regs(c, &u->opd[1], vec, es, true);
    uint8_t *p[EMU_WARP_SIZE];
    warp_shape s;
    if (!e || !fast_lanes_recorded(c, u, ao, es * vec, p, &s)) return false;
    if (s.host) {
        for (unsigned k = 0; k < vec; k++) {
            uint64_t buf[EMU_WARP_SIZE];
            store_shaped(&s, es, k, emu_src(c, &e[k], u->type, buf));
        }
        if (c->observed_mem) {
            for (int l = 0; l < EMU_WARP_SIZE; l++) p[l] = shaped_lane(&s, l);
            observe(c, u, EMU_MEM_STORE, es * vec, p);
        }
        return true;
    }
    /* (lane by lane, in lane order: where lanes share an address the last one's value stays) */
    bool all = c->mask == UINT32_MAX;
    for (unsigned k = 0; k < vec; k++) {
        uint64_t buf[EMU_WARP_SIZE];
        const uint64_t *v = emu_src(c, &e[k], u->type, buf);
        if (es == 4 && all)
            for (int l = 0; l < EMU_WARP_SIZE; l++)
                __atomic_store_n((uint32_t *)(p[l] + 4 * k), (uint32_t)v[l], __ATOMIC_RELAXED);
        else if (es == 4)
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                __atomic_store_n((uint32_t *)(p[l] + 4 * k), (uint32_t)v[l], __ATOMIC_RELAXED);
            }
        else
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                int l = __builtin_ctz(mk);
                __atomic_store_n((uint64_t *)(p[l] + 8 * k), v[l], __ATOMIC_RELAXED);
            }
    }
    if (c->observed_mem) observe(c, u, EMU_MEM_STORE, es * vec, p);
    return true;
}

/* ld.param of a kernel parameter by name ([param] or [param+imm]): the address is the same in
 * every lane, so one checked read of the launch's parameter block serves the warp. Anything
 * else (a register address, a .func's parameter in local memory, out of the block, misaligned,
 * a policy watching) takes the general path, which reports faults; an event records the read
 * as the general path would. */
static bool ld_param_fast(emu_ctx *c, const emu_uop *u, unsigned es, unsigned vec)
{
    const emu_opd *ao = &u->opd[1], *d = &u->opd[0];
    if (!c->param_fast || !c->fn->is_entry || es > 8) return false;
    if (ao->kind != EMU_OPD_SYM && !(ao->kind == EMU_OPD_ADDR && (ao->flags & EMU_OPD_F_BASE_SYM)))
        return false;
    uint8_t sp;
    uint64_t a = emu_symbol_address(c, (int32_t)ao->row, &sp);
    if (sp != PTX_SPACE_PARAM) return false;
    if (ao->kind == EMU_OPD_ADDR) a += ao->imm;
    uint64_t total = (uint64_t)es * vec;
    if ((a & (es - 1)) || a > c->g->params_size || total > c->g->params_size - a) return false;
    unsigned n = 1;
    const emu_opd *e = d;
    if (vec > 1) {
        if (d->kind != EMU_OPD_VEC) return false;
        n = (unsigned)d->imm < vec ? (unsigned)d->imm : vec;
        e = emu_opd_elems(c, d);
    }
    emu_event *ev = c->ev;
    if (ev && !(ev->flags & EMU_EV_MEM)) {
        /* as the general path records it: each lane reads the parameter */
        ev->flags |= EMU_EV_MEM;
        ev->size = (uint16_t)total;
        ev->mem_lanes = c->mask;
        ev->flags |= EMU_EV_COMPACT;
        ev->stride = ev->half_stride = 0;
        ev->base = sem_generic_address(PTX_SPACE_PARAM, a);
    }
    for (unsigned k = 0; k < n; k++) {
        uint64_t x = 0;
        memcpy(&x, c->g->params + a + k * es, es);
        emu_put_uniform(c, &e[k], u->type, x);
    }
    return true;
}

static void x_ld(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = u->type;
    unsigned es = elem_bytes(t), vec = in->vec ? in->vec : 1;
    if ((es == 4 || es == 8) && es * vec <= 16 && ld_fast(c, u, es, vec)) return;
    if (in->space == PTX_SPACE_PARAM && ld_param_fast(c, u, es, vec)) return;
    uint32_t total = es * vec;
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_LOAD, in->space, "read");
    emu_acc_lanes(&A, &u->opd[1], c->mask, total, 1, 0);
    if (emu_acc_run(&A, pow2_floor(total))) {
        const emu_opd *d = &u->opd[0];
        if (es == 16) {
            /* .b128: the register's two 64-bit halves */
            uint64_t *row = c->regs + d->row;
            for (uint32_t i = 0; i < A.n; i++) {
                const uint8_t *b = emu_acc_data(&A, &A.p[i]);
                memcpy(&row[A.p[i].lane], b, 8);
                memcpy(&row[EMU_WARP_SIZE + A.p[i].lane], b + 8, 8);
            }
        } else {
            unsigned n = vec > 1 && d->kind == EMU_OPD_VEC ? (unsigned)d->imm : 1;
            const emu_opd *e = vec > 1 && d->kind == EMU_OPD_VEC ? emu_opd_elems(c, d) : d;
            for (unsigned k = 0; k < n && k < vec; k++) {
                uint64_t v[EMU_WARP_SIZE];
                for (uint32_t i = 0; i < A.n; i++) {
                    uint64_t x = 0;
                    memcpy(&x, emu_acc_data(&A, &A.p[i]) + k * es, es < 8 ? es : 8);
                    v[A.p[i].lane] = x;
                }
                emu_put(c, &e[k], t, v);
            }
        }
    }
    emu_acc_release(&A);
}

static void x_st(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = u->type;
    unsigned es = elem_bytes(t), vec = in->vec ? in->vec : 1;
    if ((es == 4 || es == 8) && es * vec <= 16 && st_fast(c, u, es, vec)) return;
    uint32_t total = es * vec;
    const emu_opd *s = &u->opd[1];
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_STORE, in->space, "write");
    if (emu_acc_lanes(&A, &u->opd[0], c->mask, total, 1, 0)) {
        if (es == 16) {
            const uint64_t *row = c->regs + s->row;
            for (uint32_t i = 0; i < A.n; i++) {
                uint8_t *b = emu_acc_data(&A, &A.p[i]);
                memcpy(b, &row[A.p[i].lane], 8);
                memcpy(b + 8, &row[EMU_WARP_SIZE + A.p[i].lane], 8);
            }
        } else {
            unsigned n = vec > 1 && s->kind == EMU_OPD_VEC ? (unsigned)s->imm : 1;
            const emu_opd *e = vec > 1 && s->kind == EMU_OPD_VEC ? emu_opd_elems(c, s) : s;
            for (unsigned k = 0; k < n && k < vec; k++) {
                uint64_t buf[EMU_WARP_SIZE];
                const uint64_t *v = emu_src(c, &e[k], t, buf);
                for (uint32_t i = 0; i < A.n; i++)
                    memcpy(emu_acc_data(&A, &A.p[i]) + k * es, &v[A.p[i].lane], es < 8 ? es : 8);
            }
        }
    }
    emu_acc_run(&A, pow2_floor(total));
    emu_acc_release(&A);
}

/* ld of one register of es (4 or 8) bytes through a register address, global, generic or
 * shared (nearly every load a kernel makes): where events are recorded for the direct policy
 * and the whole warp runs it, lanes whose addresses have the compact shape load from the shape
 * at once, as x_ld's fast path would (ld_fast: fast_lanes_recorded, load_shaped), without its
 * general checks; anything else is x_ld's. es a constant: the shape's loads specialised. */
static inline __attribute__((always_inline)) void ld_reg(emu_ctx *c, const emu_uop *u,
                                                         unsigned es)
{
    const emu_event *ev = c->ev;
    warp_shape s;
    if (c->direct_events && c->mask == UINT32_MAX && ev && !(ev->flags & EMU_EV_MEM) &&
        fast_warp_shaped(c, u, &u->opd[1], es, &s)) {
        load_shaped(c->regs + u->opd[0].row, &s, es, 0);
        return;
    }
    x_ld(c, u);
}

static void x_ld_reg4(emu_ctx *c, const emu_uop *u)
{
    ld_reg(c, u, 4);
}

static void x_ld_reg8(emu_ctx *c, const emu_uop *u)
{
    ld_reg(c, u, 8);
}

/* ld.param of a kernel parameter by name: ld_param_fast's at once (x_ld would try ld_fast's
 * path first), else x_ld's. */
static void x_ld_param(emu_ctx *c, const emu_uop *u)
{
    unsigned es = elem_bytes(u->type), vec = u->in->vec ? u->in->vec : 1;
    if (!ld_param_fast(c, u, es, vec)) x_ld(c, u);
}

/* st of one register of es bytes, as ld_reg: the register's row is the lanes' values (its
 * width is es's: emu_src would return the row), stored lane by lane in lane order as x_st's
 * fast path does (store_shaped). */
static inline __attribute__((always_inline)) void st_reg(emu_ctx *c, const emu_uop *u,
                                                         unsigned es)
{
    const emu_event *ev = c->ev;
    warp_shape s;
    if (c->direct_events && c->mask == UINT32_MAX && ev && !(ev->flags & EMU_EV_MEM) &&
        fast_warp_shaped(c, u, &u->opd[0], es, &s)) {
        store_shaped(&s, es, 0, c->regs + u->opd[1].row);
        return;
    }
    x_st(c, u);
}

static void x_st_reg4(emu_ctx *c, const emu_uop *u)
{
    st_reg(c, u, 4);
}

static void x_st_reg8(emu_ctx *c, const emu_uop *u)
{
    st_reg(c, u, 8);
}

/* The handler of a plain ld or st (x_ld's or x_st's selection): ld_reg's or st_reg's where
 * its form allows: one register of its type's width (4 or 8 bytes), a register address, the
 * global, generic or shared space. */
static emu_exec_fn ld_st_handler(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool st = in->op == PTX_OP_ST;
    uint8_t sp = in->space;
    unsigned es = elem_bytes(u->type);
    const emu_opd *ao = u->nopd >= 2 ? &u->opd[1] : NULL;
    if (!st && sp == PTX_SPACE_PARAM && ao &&
        (ao->kind == EMU_OPD_SYM || (ao->kind == EMU_OPD_ADDR && (ao->flags & EMU_OPD_F_BASE_SYM))))
        return x_ld_param;
    if ((sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_NONE && sp != PTX_SPACE_SHARED) ||
        in->vec > 1 || (es != 4 && es != 8) || emu_type_bits[u->type] != es * 8 || u->nopd < 2)
        return st ? x_st : x_ld;
    const emu_opd *r = &u->opd[st ? 1 : 0], *a = &u->opd[st ? 0 : 1];
    if (r->kind != EMU_OPD_REG || r->bits != es * 8 || a->kind != EMU_OPD_ADDR ||
        !(a->flags & EMU_OPD_F_BASE_REG))
        return st ? x_st : x_ld;
    if (st) return es == 4 ? x_st_reg4 : x_st_reg8;
    return es == 4 ? x_ld_reg4 : x_ld_reg8;
}

/* atom: d, [a], b {, c}; red: [a], b. The vector forms (.v2/.v4/.v8, sm_90) are one atomic
 * operation per element on consecutive elements, all of them one access. */
static void x_atom(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool is_red = in->op == PTX_OP_RED;
    uint8_t t = atom_type(in);
    unsigned es = elem_bytes(t), vec = in->vec > 1 ? in->vec : 1;
    int ai = is_red ? 0 : 1;
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_ATOMIC, in->space, "atomic");
    A.aop = in->aop;
    A.atype = t;
    A.has_c = in->aop == PTX_SFX_CAS && in->nops > ai + 2;
    if (emu_acc_lanes(&A, &u->opd[ai], c->mask, es, vec, es)) {
        /* each piece's bytes: the old value, then b, then c */
        const emu_opd *bo = emu_uop_opd(u, (unsigned)ai + 1);
        const emu_opd *co = A.has_c ? emu_uop_opd(u, (unsigned)ai + 2) : NULL;
        const emu_opd *be = vec > 1 ? emu_opd_elems(c, bo) : bo;
        for (unsigned k = 0; k < vec; k++) {
            uint64_t bb[EMU_WARP_SIZE], cb[EMU_WARP_SIZE];
            const uint64_t *bv = es == 16 ? c->regs + be[k].row : emu_src(c, &be[k], t, bb);
            const uint64_t *cv = co ? (es == 16 ? c->regs + co->row : emu_src(c, co, t, cb)) : NULL;
            for (uint32_t i = k; i < A.n; i += vec) {
                const emu_piece *p = &A.p[i];
                uint8_t *d = emu_acc_data(&A, p);
                memset(d, 0, es);
                if (es == 16) {
                    memcpy(d + 16, &bv[p->lane], 8);
                    memcpy(d + 24, &bv[EMU_WARP_SIZE + p->lane], 8);
                    if (cv) {
                        memcpy(d + 32, &cv[p->lane], 8);
                        memcpy(d + 40, &cv[EMU_WARP_SIZE + p->lane], 8);
                    }
                } else {
                    memcpy(d + es, &bv[p->lane], es);
                    if (cv) memcpy(d + 2 * es, &cv[p->lane], es);
                }
            }
        }
    }
    if (emu_acc_run(&A, es) && !is_red) {
        const emu_opd *d = &u->opd[0];
        if (es == 16) {
            uint64_t *row = c->regs + d->row;
            for (uint32_t i = 0; i < A.n; i++) {
                const uint8_t *o = emu_acc_data(&A, &A.p[i]);
                memcpy(&row[A.p[i].lane], o, 8);
                memcpy(&row[EMU_WARP_SIZE + A.p[i].lane], o + 8, 8);
            }
        } else {
            const emu_opd *de = vec > 1 ? emu_opd_elems(c, d) : d;
            for (unsigned k = 0; k < vec; k++) {
                uint64_t v[EMU_WARP_SIZE];
                for (uint32_t i = k; i < A.n; i += vec) {
                    uint64_t x = 0;
                    memcpy(&x, emu_acc_data(&A, &A.p[i]), es);
                    v[A.p[i].lane] = x;
                }
                emu_put(c, &de[k], t, v);
            }
        }
    }
    emu_acc_release(&A);
}

/* cp.async{.ca,.cg}.shared.global [dst], [src], cp-size {, src-size | ignore-src}: done at
 * once; the commit/wait instructions then have nothing to wait for. Bytes past src-size are
 * zero-filled. */
static void x_cp_async(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (in->nops < 3) return;
    uint32_t cpsize = (uint32_t)u->opd[2].raw;
    uint64_t srcsize[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = cpsize;
    if (in->nops > 3 && u->opd[3].kind != EMU_OPD_SYM) {
        const emu_opd *o = emu_uop_opd(u, 3);
        if (o->kind == EMU_OPD_PRED) {
            /* ignore-src: a true predicate copies nothing and zero-fills the destination */
            uint32_t ign = emu_src_pred(c, o);
            for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = (ign >> l & 1) ? 0 : cpsize;
        } else if ((o->kind == EMU_OPD_REG && o->bits != 64) || o->kind == EMU_OPD_IMM) {
            uint64_t b[EMU_WARP_SIZE];
            const uint64_t *v = emu_src(c, o, PTX_TYPE_U32, b);
            for (int l = 0; l < EMU_WARP_SIZE; l++) srcsize[l] = v[l] < cpsize ? v[l] : cpsize;
        }
        /* a 64-bit register here is the cache-policy operand of .L2::cache_hint */
    }
    emu_access D, S;
    emu_acc_init(&D);
    emu_acc_init(&S);
    emu_acc_begin(&D, c, EMU_MEM_STORE, PTX_SPACE_SHARED, "write");
    emu_acc_begin(&S, c, EMU_MEM_LOAD, PTX_SPACE_GLOBAL, "read");
    uint32_t readers = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (srcsize[l]) readers |= 1u << l;
    }
    emu_acc_lanes(&D, &u->opd[0], c->mask, cpsize, 1, 0);
    /* each source piece reads only the bytes src-size names */
    if (emu_acc_check(&D, cpsize)) {
        emu_acc_lanes(&S, &u->opd[1], readers, cpsize, 1, 0);
        for (uint32_t i = 0; i < S.n; i++) S.p[i].size = (uint32_t)srcsize[S.p[i].lane];
        if (emu_acc_check(&S, cpsize) && emu_acc_perform(&S)) {
            uint32_t j = 0;
            for (uint32_t i = 0; i < D.n; i++) {
                uint8_t *d = emu_acc_data(&D, &D.p[i]);
                memset(d, 0, cpsize);
                if (j < S.n && S.p[j].lane == D.p[i].lane) {
                    memcpy(d, emu_acc_data(&S, &S.p[j]), S.p[j].size);
                    j++;
                }
            }
            emu_acc_perform(&D);
        }
    }
    emu_acc_release(&S);
    emu_acc_release(&D);
}

static void x_fence(emu_ctx *c, const emu_uop *u)
{
    emu_mem_op op = { .kind = EMU_MEM_FENCE, .space = PTX_SPACE_GLOBAL, .cls = u->cls,
                      .func = (uint16_t)c->f->index, .mask = c->mask, .pc = c->pc };
    emu_mem_policy *pol = c->g->launch.policy;
    switch (pol->access(pol, c->w, &op)) {
    case EMU_MEM_DONE: break;
    case EMU_MEM_DONE_STOP: c->stop = EMU_STOP_MEMORDER; break;
    case EMU_MEM_DEFERRED:
        c->stop = EMU_STOP_MEMORDER;
        c->next_pc = c->pc;
        break;
    case EMU_MEM_RESTART:
        c->stop = EMU_STOP_RESTART;
        c->next_pc = c->pc;
        c->w->restart_lanes = op.restart_lanes;
        break;
    }
}

static void x_nop(emu_ctx *c, const emu_uop *u)
{
    (void)u;
    (void)c;
}

/* createpolicy writes an opaque cache-policy value: any value works */
static void x_createpolicy(emu_ctx *c, const emu_uop *u)
{
    uint64_t z[EMU_WARP_SIZE] = { 0 };
    if (u->nopd > 0) emu_put(c, &u->opd[0], PTX_TYPE_B64, z);
}

static bool simple_space(uint8_t sp)
{
    return sp == PTX_SPACE_NONE || sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
           sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_CONST ||
           sp == PTX_SPACE_PARAM;
}

emu_exec_fn emu_select_mem(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t t = emu_ty(in, 0);
    switch (in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST: {
        if (!simple_space(in->space) || in->nops < 2 || t == PTX_TYPE_NONE) return NULL;
        const ptx_operand *ad = &in->ops[in->op == PTX_OP_ST ? 0 : 1];
        if (ad->kind != PTX_OPD_ADDR && ad->kind != PTX_OPD_SYM && ad->kind != PTX_OPD_REG)
            return NULL;
        unsigned vec = in->vec ? in->vec : 1;
        if (vec * elem_bytes(t) > MAX_ACCESS) return NULL;
        if (emu_type_bits[t] > 64) {
            /* .b128: one register of two slots, no vectors */
            const ptx_operand *r = &in->ops[in->op == PTX_OP_ST ? 1 : 0];
            if (emu_type_bits[t] != 128 || vec != 1 || r->kind != PTX_OPD_REG) return NULL;
        }
        return ld_st_handler(u);
    }
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        if (!simple_space(in->space)) return NULL;
        uint8_t at = atom_type(in);
        if (in->vec > 1) {
            int ai = in->op == PTX_OP_RED ? 0 : 1;
            if (in->aop == PTX_SFX_CAS || in->aop == PTX_SFX_EXCH || in->nops != ai + 2 ||
                in->ops[ai].kind != PTX_OPD_ADDR || in->ops[ai + 1].kind != PTX_OPD_VEC ||
                in->ops[ai + 1].nelem != in->vec ||
                (ai && (in->ops[0].kind != PTX_OPD_VEC || in->ops[0].nelem != in->vec)))
                return NULL;
            unsigned vb = emu_type_bits[at];
            return (vb == 16 || vb == 32) && in->aop ? x_atom : NULL;
        }
        unsigned b = emu_type_bits[at];
        if (!in->aop || (b != 16 && b != 32 && b != 64 && b != 128)) return NULL;
        if (b == 128) {
            if (in->aop != PTX_SFX_EXCH && in->aop != PTX_SFX_CAS) return NULL;
            for (int i = in->op == PTX_OP_RED ? 1 : 0; i < in->nops; i++)
                if (i != (in->op == PTX_OP_RED ? 0 : 1) && in->ops[i].kind != PTX_OPD_REG)
                    return NULL;
        }
        if (in->nops < (in->op == PTX_OP_RED ? 2 : 3)) return NULL;
        return x_atom;
    }
    case PTX_OP_CP_ASYNC: return in->nops >= 3 ? x_cp_async : NULL;
    case PTX_OP_CP_ASYNC_COMMIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL:
    case PTX_OP_PREFETCH:
    case PTX_OP_PREFETCHU:
    case PTX_OP_APPLYPRIORITY:
    case PTX_OP_DISCARD: return x_nop;
    case PTX_OP_CREATEPOLICY: return x_createpolicy;
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: return x_fence;
    default: return NULL;
    }
}
