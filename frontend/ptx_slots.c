/* ptx_slots.c: register slots shared by liveness, a register allocator for the executors'
 * register rows.
 *
 * The build gives every register an instruction names a slot of its own (ptx_build.c
 * pack_slots); a slot is a row of 32 64-bit lanes per warp, and a cycle model keeps thousands
 * of warps resident, so most rows are cold in the host's caches. Registers that are never live
 * at once can share a row. This pass computes such a layout; whoever executes the function
 * decides whether to use it (the emulator, when nothing needs a row per register).
 *
 * Two registers interfere (may not share) when one is defined by an instruction after which
 * the other is live, or when both appear in one instruction as a definition and a use (or two
 * definitions): an executor may write one destination before it reads the other operands. A
 * guarded definition does not end a register's liveness (ptx_dataflow: lanes whose guard is
 * false keep the old value), and a definition whose value is never read still writes its row,
 * so it interferes with everything live across it. Per lane this is the classic interference
 * of the lane's own path through the control-flow graph, and it holds for a warp as long as
 * every write to a row touches only the executing lanes (the caller vouches for that: the
 * registers of instructions where it does not hold, or that read other lanes' rows, are named
 * in `own`).
 *
 * These keep a slot of their own, shared with nothing:
 * - registers live at the function's entry: they are read before any write on some path, and
 *   read as zero (or what a caller put there), which another register's value would replace;
 * - .reg parameters (a call writes them, a return reads them);
 * - registers of more than one slot (.b128, vector declarations);
 * - what the caller names in `own`.
 * Only registers of one kind share a slot: predicates with predicates (a predicate's row is a
 * bit mask in its first word), others with others of the same width (so a slot keeps one kind
 * of value: the JIT carries a slot of narrow registers as 32-bit halves).
 * Registers no instruction names keep the shared region pack_slots gives them (read as zero).
 *
 * Colouring is greedy in register order, so the layout depends only on the function. */
#include "frontend/ptx.h"

#include <stdlib.h>
#include <string.h>

/* Beyond these the interference matrix (registers^2 bits) or the liveness (blocks^2 x register
 * words, as the emulator's entry_rows.c bounds it) would cost more than the rows it saves. */
#define SLOTS_MAX_REGS 8192u
#define SLOTS_MAX_LIVENESS (UINT64_C(1) << 26)

static inline void set_bit(uint64_t *s, uint32_t r) { s[r >> 6] |= UINT64_C(1) << (r & 63); }
static inline void clear_bit(uint64_t *s, uint32_t r) { s[r >> 6] &= ~(UINT64_C(1) << (r & 63)); }
static inline bool get_bit(const uint64_t *s, uint32_t r) { return s[r >> 6] >> (r & 63) & 1; }

/* One instruction's registers, as ptx_instr_regs visits them. */
typedef struct instr_regs {
    int32_t *defs, *uses;
    uint32_t ndefs, nuses, cap;
    uint8_t *named;
    bool overflow;
} instr_regs;

static void collect(void *p, int32_t reg, ptx_role role)
{
    instr_regs *x = p;
    x->named[reg] = 1;
    if ((role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) && x->ndefs < x->cap) x->defs[x->ndefs++] = reg;
    else if (role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) x->overflow = true;
    if ((role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) && x->nuses < x->cap) x->uses[x->nuses++] = reg;
    else if (role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) x->overflow = true;
}

/* kind class of a register: predicates apart, the others by width */
static unsigned reg_class(const ptx_reg *r)
{
    return r->type == PTX_TYPE_PRED ? 0 : ptx_type_bits((ptx_type)r->type);
}

typedef struct graph {
    uint32_t n, words;
    uint64_t *adj;
} graph;

static void edge(graph *g, uint32_t a, uint32_t b)
{
    if (a == b) return;
    set_bit(g->adj + (size_t)a * g->words, b);
    set_bit(g->adj + (size_t)b * g->words, a);
}

/* every register of set interferes with d */
static void edges_to_set(graph *g, uint32_t d, const uint64_t *set)
{
    uint64_t *row = g->adj + (size_t)d * g->words;
    for (uint32_t k = 0; k < g->words; k++) {
        uint64_t m = set[k];
        row[k] |= m;
        for (; m; m &= m - 1) {
            uint32_t b = k * 64 + (uint32_t)__builtin_ctzll(m);
            set_bit(g->adj + (size_t)b * g->words, d);
        }
    }
    clear_bit(row, d);
}

/* Interference by a backward walk of each block from its live-out set. */
static bool interference(const ptx_function *fn, const ptx_dataflow *df, const ptx_slot_use *extra,
                         uint32_t nextra, graph *g, uint8_t *named)
{
    uint32_t cap = 64;
    instr_regs x = { malloc(cap * sizeof(int32_t)), malloc(cap * sizeof(int32_t)), 0, 0, cap, named, false };
    uint64_t *live = malloc(g->words * sizeof *live);
    bool ok = x.defs && x.uses && live;
    for (uint32_t b = 0; ok && b < fn->nblocks; b++) {
        const ptx_block *blk = &fn->blocks[b];
        memcpy(live, df->live_out + (size_t)b * df->words, g->words * sizeof *live);
        /* extra uses are sorted by instruction: the first at or after the block's end */
        uint32_t e = 0;
        while (e < nextra && extra[e].instr < blk->end) e++;
        for (uint32_t i = blk->end; i-- > blk->first;) {
            const ptx_instr *in = &fn->instrs[i];
            for (;;) {
                x.ndefs = x.nuses = 0;
                x.overflow = false;
                ptx_instr_regs(fn, in, collect, &x);
                if (!x.overflow) break;
                cap *= 2;
                int32_t *d = realloc(x.defs, cap * sizeof *d), *u = d ? realloc(x.uses, cap * sizeof *u) : NULL;
                if (d) x.defs = d;
                if (u) x.uses = u;
                if (!d || !u) {
                    ok = false;
                    break;
                }
                x.cap = cap;
            }
            if (!ok) break;
            uint32_t e0 = e;
            while (e0 > 0 && extra[e0 - 1].instr >= i) e0--;
            /* definitions against everything live after the instruction, and against the
             * instruction's other registers */
            for (uint32_t k = 0; k < x.ndefs; k++) {
                uint32_t d = (uint32_t)x.defs[k];
                edges_to_set(g, d, live);
                for (uint32_t j = 0; j < x.nuses; j++) edge(g, d, (uint32_t)x.uses[j]);
                for (uint32_t j = 0; j < x.ndefs; j++) edge(g, d, (uint32_t)x.defs[j]);
                for (uint32_t j = e0; j < e; j++)
                    if (extra[j].instr == i) edge(g, d, (uint32_t)extra[j].reg);
            }
            if (in->guard < 0)
                for (uint32_t k = 0; k < x.ndefs; k++) clear_bit(live, (uint32_t)x.defs[k]);
            for (uint32_t k = 0; k < x.nuses; k++) set_bit(live, (uint32_t)x.uses[k]);
            for (uint32_t j = e0; j < e; j++)
                if (extra[j].instr == i) set_bit(live, (uint32_t)extra[j].reg);
            e = e0;
        }
    }
    /* registers named only in unreachable code or not at all still count as named when some
     * instruction names them */
    for (uint32_t i = 0; ok && i < fn->ninstrs; i++) {
        if (fn->instrs[i].block >= 0) continue;
        x.ndefs = x.nuses = 0;
        ptx_instr_regs(fn, &fn->instrs[i], collect, &x);
    }
    free(x.defs);
    free(x.uses);
    free(live);
    return ok;
}

uint32_t ptx_slots_share(const ptx_function *fn, const uint8_t *own, const ptx_slot_use *extra,
                         uint32_t nextra, uint32_t *slot)
{
    uint32_t R = fn->nregs;
    if (fn->is_decl || R == 0 || fn->ninstrs == 0 || fn->nblocks == 0 || R > SLOTS_MAX_REGS) return 0;
    uint64_t words = (R + 63) / 64;
    if ((uint64_t)fn->nblocks * fn->nblocks * words > SLOTS_MAX_LIVENESS) return 0;
    for (uint32_t j = 1; j < nextra; j++)
        if (extra[j].instr < extra[j - 1].instr) return 0;   /* the caller's list is unsorted */
    for (uint32_t j = 0; j < nextra; j++)
        if (extra[j].reg < 0 || (uint32_t)extra[j].reg >= R || extra[j].instr >= fn->ninstrs) return 0;
    graph g = { R, (uint32_t)words, calloc((size_t)R * words, sizeof(uint64_t)) };
    uint8_t *named = calloc(R, 1), *alone = calloc(R, 1);
    int32_t *colour = malloc(R * sizeof *colour);
    uint32_t *colour_slot = malloc(R * sizeof *colour_slot), *stamp = calloc(R, sizeof *stamp);
    unsigned *colour_class = malloc(R * sizeof *colour_class);
    ptx_dataflow *df = g.adj && named && alone && colour && colour_slot && stamp && colour_class
                           ? ptx_dataflow_compute(fn) : NULL;
    uint32_t nslots = 0;
    if (!df || !interference(fn, df, extra, nextra, &g, named)) goto out;
    for (uint32_t r = 0; r < R; r++) {
        const ptx_reg *reg = &fn->regs[r];
        alone[r] = (own && own[r]) || reg->scope == PTX_REG_SCOPE_PARAM || reg->nslots > 1 ||
                   reg->vec > 1 || reg->type == PTX_TYPE_B128 || ptx_live_in(df, 0, (int32_t)r);
    }
    /* greedy colouring in register order: the lowest colour of the register's class that no
     * neighbour holds */
    uint32_t ncolours = 0;
    for (uint32_t r = 0; r < R; r++) {
        colour[r] = -1;
        if (!named[r] || alone[r]) continue;
        const uint64_t *row = g.adj + (size_t)r * g.words;
        for (uint32_t k = 0; k < g.words; k++)
            for (uint64_t m = row[k]; m; m &= m - 1) {
                uint32_t b = k * 64 + (uint32_t)__builtin_ctzll(m);
                if (colour[b] >= 0 && b < r) stamp[colour[b]] = r + 1;
            }
        unsigned cls = reg_class(&fn->regs[r]);
        uint32_t c = 0;
        while (c < ncolours && (colour_class[c] != cls || stamp[c] == r + 1)) c++;
        if (c == ncolours) colour_class[ncolours++] = cls;
        colour[r] = (int32_t)c;
    }
    /* slots in register order: a register of its own, or the first of its colour, takes the
     * next; registers nothing names share one region after them */
    for (uint32_t c = 0; c < ncolours; c++) colour_slot[c] = UINT32_MAX;
    uint32_t next = 0, unnamed = 0;
    for (uint32_t r = 0; r < R; r++) {
        const ptx_reg *reg = &fn->regs[r];
        if (colour[r] >= 0) {
            if (colour_slot[colour[r]] == UINT32_MAX) colour_slot[colour[r]] = next++;
            slot[r] = colour_slot[colour[r]];
        } else if (named[r] || reg->scope == PTX_REG_SCOPE_PARAM) {
            slot[r] = next;
            next += reg->nslots;
        } else if (reg->nslots > unnamed) {
            unnamed = reg->nslots;
        }
    }
    for (uint32_t r = 0; r < R; r++)
        if (colour[r] < 0 && !named[r] && fn->regs[r].scope != PTX_REG_SCOPE_PARAM) slot[r] = next;
    nslots = next + unnamed;
out:
    ptx_dataflow_free(df);
    free(g.adj);
    free(named);
    free(alone);
    free(colour);
    free(colour_slot);
    free(stamp);
    free(colour_class);
    return nslots;
}
