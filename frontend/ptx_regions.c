/* ptx_regions.c: iGPU region formation on PTX (Menon et al., ISCA 2012, §3.2; the spec's S-11.3
 * steps 2-9).
 *
 * 1. Forced cuts around operations that must not run twice (atomics, barriers, fences, calls,
 *    volatile and ordered accesses, asynchronous copies; after warp-collectives; before trap).
 * 2. Memory clobber antidependences: from every store, search the CFG backwards (not across a
 *    forced cut) for the first load on each path that may read what the store writes.
 * 3. Candidate cut points of a pair (L, S): the dominators of S in the graph of paths from L
 *    to S, S included and L excluded: each lies on every path, so a boundary before it breaks
 *    the pair.
 * 4. A greedy hitting set: the point that breaks most unbroken pairs, then (the paper's change
 *    to de Kruijf et al.'s placement) the one with the least live register state, then the
 *    shallowest loop, then the earliest. Fig. 4 puts the cut at the loop's entry rather than
 *    before the store at equal live state, hence the earliest. When the PTX carries line
 *    information, candidates are source statement starts (and S): Fig. 3 counts live state per
 *    statement, and a cut inside an expression would only trade a source variable for a
 *    temporary.
 * 5. Short sub-regions: a boundary at the header of every loop that holds none, then a scan
 *    in reverse post-order that cuts where some path would exceed the limit.
 * Live state counts registers, not memory-backed kernel inputs (the paper's Fig. 3 footnote):
 * a register whose only definition is a parameter load, a read of %tid/%ntid/%ctaid/%nctaid/
 * %laneid, or cvta of such a register is "free". A live-in that the region it starts writes
 * again must be preserved by a copy (Fig. 4's move); such registers are listed, not renamed:
 * this is the analysis (the spec's fidelity level L0). */
#include "frontend/ptx.h"

#include <stdlib.h>
#include <string.h>

static inline void set_bit(uint64_t *s, int32_t r) { s[r >> 6] |= UINT64_C(1) << (r & 63); }
static inline bool get_bit(const uint64_t *s, int32_t r) { return s[r >> 6] >> (r & 63) & 1; }

/* ---------------------------------------------------------------- operation classes */

typedef enum force_kind { FORCE_NONE, FORCE_AROUND, FORCE_AFTER, FORCE_BEFORE } force_kind;

static bool name_starts(const ptx_instr *in, const char *prefix)
{
    return strncmp(ptx_opcode_name(in->op), prefix, strlen(prefix)) == 0;
}

static force_kind forced(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_SURED: case PTX_OP_BAR: case PTX_OP_BARRIER:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_CALL: case PTX_OP_ST_ASYNC:
    case PTX_OP_RED_ASYNC: case PTX_OP_ALLOCA: case PTX_OP_STACKSAVE: case PTX_OP_STACKRESTORE:
    case PTX_OP_SETMAXNREG: case PTX_OP_GRIDDEPCONTROL: case PTX_OP_PMEVENT:
        return FORCE_AROUND;
    case PTX_OP_LD: case PTX_OP_ST:
        return (in->flags & PTX_F(VOLATILE)) || (in->sem && in->sem != PTX_SFX_WEAK)
                   ? FORCE_AROUND : FORCE_NONE;
    case PTX_OP_VOTE: case PTX_OP_SHFL: case PTX_OP_MATCH: case PTX_OP_REDUX:
    case PTX_OP_ACTIVEMASK: case PTX_OP_BAR_WARP_SYNC: case PTX_OP_ELECT: case PTX_OP_MMA:
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        return FORCE_AFTER;
    case PTX_OP_TRAP: case PTX_OP_BRKPT:
        return FORCE_BEFORE;
    default:
        break;
    }
    static const char *const ordered[] = {"cp.", "mbarrier", "multimem", "tcgen05", "wgmma",
                                          "clusterlaunchcontrol", "tensormap"};
    for (size_t k = 0; k < sizeof ordered / sizeof *ordered; k++)
        if (name_starts(in, ordered[k])) return FORCE_AROUND;
    return FORCE_NONE;
}

static int addr_operand(const ptx_instr *in)
{
    for (unsigned i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_ADDR) return (int)i;
    return -1;
}

/* A load whose location a store of this kernel could write (read-only spaces never can). */
static bool is_clobberable_load(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_LD:
        if (in->space == PTX_SPACE_CONST || in->space == PTX_SPACE_PARAM) return false;
        return !(in->flags & PTX_F(NC));
    case PTX_OP_SULD: case PTX_OP_WMMA_LOAD: case PTX_OP_LDMATRIX:
        return true;
    default:
        return false;
    }
}

static bool is_store(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ST:
        return in->space != PTX_SPACE_PARAM;   /* .param stores feed a call: a forced cut */
    case PTX_OP_SUST: case PTX_OP_WMMA_STORE: case PTX_OP_STMATRIX:
        return true;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- pointer bases */

/* Which object an address register points into, flow-insensitively: a lattice BOT < {INT,
 * PTR(symbol)} < UNK over every definition of the register. A pointer parameter (or a
 * variable's address) plus integers stays within its object. */
enum { V_BOT, V_INT, V_PTR, V_UNK };
typedef struct base_val { uint8_t kind; int32_t sym; } base_val;

static base_val bv(uint8_t k, int32_t sym) { return (base_val){k, sym}; }

static base_val join(base_val a, base_val b)
{
    if (a.kind == V_BOT) return b;
    if (b.kind == V_BOT) return a;
    if (a.kind == b.kind && (a.kind != V_PTR || a.sym == b.sym)) return a;
    return bv(V_UNK, -1);
}

static base_val add_vals(base_val a, base_val b, bool subtract)
{
    if (a.kind == V_UNK || b.kind == V_UNK) return bv(V_UNK, -1);
    if (a.kind == V_BOT || b.kind == V_BOT) return bv(V_BOT, -1);
    if (a.kind == V_PTR && b.kind == V_PTR) return subtract ? bv(V_INT, -1) : bv(V_UNK, -1);
    if (b.kind == V_PTR) return subtract ? bv(V_UNK, -1) : b;
    return a;
}

static base_val operand_val(const ptx_operand *o, const base_val *reg)
{
    switch (o->kind) {
    case PTX_OPD_REG: return reg[o->reg];
    case PTX_OPD_SYM: return bv(V_PTR, o->sym);
    case PTX_OPD_ADDR:
        if (o->sym >= 0) return bv(V_PTR, o->sym);
        return o->reg >= 0 ? reg[o->reg] : bv(V_UNK, -1);
    case PTX_OPD_IMM: case PTX_OPD_SREG: case PTX_OPD_FIMM32: case PTX_OPD_FIMM64:
        return bv(V_INT, -1);
    default:
        return bv(V_UNK, -1);
    }
}

static unsigned first_type_bits(const ptx_instr *in)
{
    return in->ntypes ? ptx_type_bits((ptx_type)in->types[0]) : 0;
}

static base_val transfer(const ptx_module *m, const ptx_instr *in, const base_val *reg)
{
    base_val src[4];
    unsigned ns = 0;
    for (unsigned i = 1; i < in->nops && ns < 4; i++) src[ns++] = operand_val(&in->ops[i], reg);
    switch (in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: {
        int a = addr_operand(in);
        bool wide = first_type_bits(in) == 64 && in->vec == 1;
        if (in->space == PTX_SPACE_PARAM && a >= 0 && in->ops[a].sym >= 0 &&
            m->syms[in->ops[a].sym].kind == PTX_SYM_PARAM)
            return wide ? bv(V_PTR, in->ops[a].sym) : bv(V_INT, -1);
        return wide ? bv(V_UNK, -1) : bv(V_INT, -1);
    }
    case PTX_OP_MOV: case PTX_OP_CVTA:
        return ns ? src[0] : bv(V_UNK, -1);
    case PTX_OP_CVT:
        if (in->ntypes && ptx_type_bits((ptx_type)in->types[0]) < 64) return bv(V_INT, -1);
        return ns ? src[0] : bv(V_UNK, -1);
    case PTX_OP_ADD: case PTX_OP_SUB:
        if (ptx_type_is_float((ptx_type)(in->ntypes ? in->types[0] : 0))) break;
        return ns >= 2 ? add_vals(src[0], src[1], in->op == PTX_OP_SUB) : bv(V_UNK, -1);
    case PTX_OP_MAD: {
        if (ns < 3 || ptx_type_is_float((ptx_type)(in->ntypes ? in->types[0] : 0))) break;
        bool ints = (src[0].kind == V_INT || src[0].kind == V_BOT) &&
                    (src[1].kind == V_INT || src[1].kind == V_BOT);
        return ints ? add_vals(bv(V_INT, -1), src[2], false) : bv(V_UNK, -1);
    }
    case PTX_OP_SELP: case PTX_OP_SLCT:
        return ns >= 2 ? join(src[0], src[1]) : bv(V_UNK, -1);
    default:
        break;
    }
    for (unsigned i = 0; i < ns; i++)
        if (src[i].kind == V_PTR || src[i].kind == V_UNK) return bv(V_UNK, -1);
    return bv(V_INT, -1);
}

typedef struct def_ctx { base_val *reg; base_val v; bool changed; } def_ctx;

static void def_join(void *p, int32_t r, ptx_role role)
{
    def_ctx *c = p;
    if (role != PTX_ROLE_DEF && role != PTX_ROLE_USEDEF) return;
    base_val j = join(c->reg[r], c->v);
    if (j.kind != c->reg[r].kind || j.sym != c->reg[r].sym) {
        c->reg[r] = j;
        c->changed = true;
    }
}

static void compute_bases(const ptx_module *m, const ptx_function *fn, base_val *reg)
{
    for (uint32_t r = 0; r < fn->nregs; r++) reg[r] = bv(V_BOT, -1);
    /* a .reg parameter of a function is whatever its caller passes */
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (m->syms[s].kind == PTX_SYM_PARAM && m->syms[s].reg >= 0 &&
            m->syms[s].owner == (int32_t)(fn - m->funcs) && (uint32_t)m->syms[s].reg < fn->nregs)
            reg[m->syms[s].reg] = bv(V_UNK, -1);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            def_ctx c = {reg, transfer(m, &fn->instrs[i], reg), false};
            ptx_instr_regs(fn, &fn->instrs[i], def_join, &c);
            changed |= c.changed;
        }
    }
}

/* ---------------------------------------------------------------- the analysis state */

typedef struct rwork {
    const ptx_module *m;
    const ptx_function *fn;
    const ptx_region_options *opt;
    ptx_dataflow *df;
    uint32_t n, nb, words;
    uint64_t *live_before;      /* n * words */
    uint8_t *free_reg;          /* nregs */
    uint8_t *outside_loops;     /* nregs: every definition lies outside every loop */
    base_val *base;             /* nregs */
    uint32_t *pfirst, *preds;   /* block predecessors (CSR) */
    uint32_t *depth;            /* loop depth per block */
    uint8_t *header;            /* block is a loop header */
    uint8_t *forced_cut;        /* n: a forced boundary before the instruction */
    int32_t *forced_by;         /* n */
    uint8_t *forced_reason;     /* n */
    /* scratch of n entries, reused by every search */
    uint32_t *stack, *order, *rpo;
    int32_t *idom;
    uint8_t *mark_a, *mark_b, *seen;
} rwork;

/* The instructions that can run right before i (into out), and how many. */
static uint32_t preds_of(const rwork *w, uint32_t i, uint32_t *out)
{
    const ptx_function *fn = w->fn;
    int32_t b = fn->instrs[i].block;
    if (i != fn->blocks[b].first) {
        out[0] = i - 1;
        return 1;
    }
    uint32_t k = 0;
    for (uint32_t e = w->pfirst[b]; e < w->pfirst[b + 1]; e++)
        out[k++] = fn->blocks[w->preds[e]].end - 1;
    return k;
}

static uint32_t succs_of(const rwork *w, uint32_t i, uint32_t *out)
{
    const ptx_function *fn = w->fn;
    const ptx_block *b = &fn->blocks[fn->instrs[i].block];
    if (i + 1 < b->end) {
        out[0] = i + 1;
        return 1;
    }
    for (uint32_t s = 0; s < b->nsucc; s++) out[s] = fn->blocks[b->succ[s]].first;
    return b->nsucc;
}

static uint32_t max_degree(const rwork *w)
{
    uint32_t d = 1;
    for (uint32_t b = 0; b < w->nb; b++) {
        if (w->fn->blocks[b].nsucc > d) d = w->fn->blocks[b].nsucc;
        if (w->pfirst[b + 1] - w->pfirst[b] > d) d = w->pfirst[b + 1] - w->pfirst[b];
    }
    return d;
}

static bool build_preds(rwork *w)
{
    const ptx_function *fn = w->fn;
    uint32_t total = 0;
    for (uint32_t b = 0; b < w->nb; b++) total += fn->blocks[b].nsucc;
    w->pfirst = calloc(w->nb + 2, sizeof *w->pfirst);
    w->preds = malloc((total ? total : 1) * sizeof *w->preds);
    if (!w->pfirst || !w->preds) return false;
    for (uint32_t b = 0; b < w->nb; b++)
        for (uint32_t s = 0; s < fn->blocks[b].nsucc; s++) w->pfirst[fn->blocks[b].succ[s] + 1]++;
    for (uint32_t b = 0; b < w->nb; b++) w->pfirst[b + 1] += w->pfirst[b];
    uint32_t *fill = malloc((w->nb + 1) * sizeof *fill);
    if (!fill) return false;
    memcpy(fill, w->pfirst, (w->nb + 1) * sizeof *fill);
    for (uint32_t b = 0; b < w->nb; b++)
        for (uint32_t s = 0; s < fn->blocks[b].nsucc; s++) w->preds[fill[fn->blocks[b].succ[s]]++] = b;
    free(fill);
    return true;
}

/* The natural loop headed by block h (every back edge u -> h, h dominating u): marks its body
 * in in_loop and returns true, or returns false when h heads no loop. */
static bool loop_body(const rwork *w, uint32_t h, uint8_t *in_loop, uint32_t *st)
{
    memset(in_loop, 0, w->nb);
    bool any = false;
    uint32_t sp = 0;
    for (uint32_t e = w->pfirst[h]; e < w->pfirst[h + 1]; e++) {
        uint32_t u = w->preds[e];
        if (!ptx_dominates(w->df, h, u)) continue;
        any = true;
        in_loop[h] = 1;
        if (!in_loop[u]) {
            in_loop[u] = 1;
            st[sp++] = u;
        }
    }
    while (sp) {
        uint32_t x = st[--sp];
        for (uint32_t e = w->pfirst[x]; e < w->pfirst[x + 1]; e++)
            if (!in_loop[w->preds[e]]) {
                in_loop[w->preds[e]] = 1;
                st[sp++] = w->preds[e];
            }
    }
    return any;
}

/* Loop depth: the distinct headers whose loop holds a block. */
static bool find_loops(rwork *w)
{
    w->depth = calloc(w->nb, sizeof *w->depth);
    w->header = calloc(w->nb, 1);
    uint8_t *in_loop = malloc(w->nb);
    uint32_t *st = malloc((w->nb + 1) * sizeof *st);
    bool ok = w->depth && w->header && in_loop && st;
    for (uint32_t h = 0; ok && h < w->nb; h++) {
        if (!loop_body(w, h, in_loop, st)) continue;
        w->header[h] = 1;
        for (uint32_t b = 0; b < w->nb; b++) w->depth[b] += in_loop[b];
    }
    free(in_loop);
    free(st);
    return ok;
}

typedef struct lv_ctx { uint64_t *set; bool guarded; } lv_ctx;

static void lv_kill(void *p, int32_t r, ptx_role role)
{
    lv_ctx *c = p;
    if (role == PTX_ROLE_DEF && !c->guarded) c->set[r >> 6] &= ~(UINT64_C(1) << (r & 63));
}

static void lv_gen(void *p, int32_t r, ptx_role role)
{
    lv_ctx *c = p;
    if (role == PTX_ROLE_USE || role == PTX_ROLE_USEDEF) set_bit(c->set, r);
}

static bool instr_liveness(rwork *w)
{
    w->live_before = calloc((size_t)w->n * (w->words ? w->words : 1), sizeof(uint64_t));
    uint64_t *cur = calloc(w->words ? w->words : 1, sizeof *cur);
    if (!w->live_before || !cur) {
        free(cur);
        return false;
    }
    for (uint32_t b = 0; b < w->nb; b++) {
        const ptx_block *bl = &w->fn->blocks[b];
        memcpy(cur, w->df->live_out + (size_t)b * w->words, w->words * sizeof(uint64_t));
        for (uint32_t i = bl->end; i-- > bl->first;) {
            lv_ctx c = {cur, w->fn->instrs[i].guard >= 0};
            ptx_instr_regs(w->fn, &w->fn->instrs[i], lv_kill, &c);
            ptx_instr_regs(w->fn, &w->fn->instrs[i], lv_gen, &c);
            memcpy(w->live_before + (size_t)i * w->words, cur, w->words * sizeof(uint64_t));
        }
    }
    free(cur);
    return true;
}

/* Registers whose value a kernel input in memory gives back at any time (not saved). */
static bool free_definition(const rwork *w, const ptx_instr *in)
{
    if (in->nops < 2 || in->guard >= 0) return false;
    const ptx_operand *s = &in->ops[1];
    switch (in->op) {
    case PTX_OP_LD:
        return in->space == PTX_SPACE_PARAM && s->kind == PTX_OPD_ADDR && s->sym >= 0 &&
               w->m->syms[s->sym].kind == PTX_SYM_PARAM && w->fn->is_entry;
    case PTX_OP_MOV:
    case PTX_OP_CVT:
        if (s->kind == PTX_OPD_SREG)
            return s->reg == PTX_SREG_TID || s->reg == PTX_SREG_NTID ||
                   s->reg == PTX_SREG_CTAID || s->reg == PTX_SREG_NCTAID ||
                   s->reg == PTX_SREG_LANEID;
        return false;
    case PTX_OP_CVTA:
        return s->kind == PTX_OPD_REG && w->free_reg[s->reg];
    default:
        return false;
    }
}

typedef struct onedef_ctx { int32_t reg; bool defines; } onedef_ctx;

static void find_def(void *p, int32_t r, ptx_role role)
{
    onedef_ctx *c = p;
    if (role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) {
        if (c->reg < 0) c->reg = r;
        else if (c->reg != r) c->defines = false;   /* several destinations */
    }
}

static void clear_defined(void *p, int32_t r, ptx_role role)
{
    if (role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) ((uint8_t *)p)[r] = 0;
}

static void compute_free(rwork *w)
{
    /* two passes: cvta of a free register is free */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < w->n; i++) {
            onedef_ctx c = {-1, true};
            ptx_instr_regs(w->fn, &w->fn->instrs[i], find_def, &c);
            if (c.reg >= 0 && c.defines && w->df->ndefs[c.reg] == 1 &&
                free_definition(w, &w->fn->instrs[i]))
                w->free_reg[c.reg] = 1;
        }
}

static uint32_t reg_units(const ptx_function *fn, int32_t r)
{
    unsigned bits = ptx_type_bits((ptx_type)fn->regs[r].type);
    unsigned units = bits > 32 ? bits / 32 : 1;
    return units * (fn->regs[r].vec ? fn->regs[r].vec : 1);
}

/* Live state before instruction i in 32-bit units, free inputs excluded. */
static uint32_t live_units(const rwork *w, uint32_t i)
{
    const uint64_t *s = w->live_before + (size_t)i * w->words;
    uint32_t u = 0;
    for (uint32_t r = 0; r < w->fn->nregs; r++)
        if (get_bit(s, (int32_t)r) && !w->free_reg[r]) u += reg_units(w->fn, (int32_t)r);
    return u;
}

/* ---------------------------------------------------------------- forced cuts */

static void place_forced(rwork *w)
{
    for (uint32_t i = 0; i < w->n; i++) {
        force_kind k = forced(&w->fn->instrs[i]);
        if ((k == FORCE_AROUND || k == FORCE_BEFORE) && !w->forced_cut[i]) {
            w->forced_cut[i] = 1;
            w->forced_by[i] = (int32_t)i;
            w->forced_reason[i] = PTX_CUT_FORCED_BEFORE;
        }
        if ((k == FORCE_AROUND || k == FORCE_AFTER) && i + 1 < w->n && !w->forced_cut[i + 1]) {
            w->forced_cut[i + 1] = 1;
            w->forced_by[i + 1] = (int32_t)i;
            w->forced_reason[i + 1] = PTX_CUT_FORCED_AFTER;
        }
    }
}

/* ---------------------------------------------------------------- clobber pairs */

static uint64_t access_bytes(const ptx_instr *in)
{
    unsigned bits = in->ntypes ? ptx_type_bits((ptx_type)in->types[in->ntypes - 1]) : 0;
    return bits ? (uint64_t)bits / 8 * (in->vec ? in->vec : 1) : 0;
}

/* Both addresses are one base plus constants and their bytes do not overlap. The base is a
 * variable, or a register with one definition outside every loop (the same value wherever it
 * is read: a register redefined in a loop differs between iterations). */
static bool disjoint_offsets(const rwork *w, const ptx_instr *a, const ptx_operand *oa,
                             const ptx_instr *b, const ptx_operand *ob)
{
    if (oa->reg != ob->reg || oa->sym != ob->sym || (oa->reg < 0 && oa->sym < 0)) return false;
    if (oa->reg >= 0 && (w->df->ndefs[oa->reg] != 1 || !w->outside_loops[oa->reg])) return false;
    uint64_t na = access_bytes(a), nb = access_bytes(b);
    if (!na || !nb) return false;
    return oa->imm + (int64_t)na <= ob->imm || ob->imm + (int64_t)nb <= oa->imm;
}

static bool may_alias(const rwork *w, const ptx_instr *ld, const ptx_instr *st)
{
    uint8_t sl = ld->space, ss = st->space;
    if (sl == PTX_SPACE_SHARED_CLUSTER) sl = PTX_SPACE_SHARED;
    if (ss == PTX_SPACE_SHARED_CLUSTER) ss = PTX_SPACE_SHARED;
    if (sl != PTX_SPACE_NONE && ss != PTX_SPACE_NONE && sl != ss) return false;
    int al = addr_operand(ld), as = addr_operand(st);
    if (al < 0 || as < 0) return true;
    if (disjoint_offsets(w, ld, &ld->ops[al], st, &st->ops[as])) return false;
    base_val a = operand_val(&ld->ops[al], w->base), b = operand_val(&st->ops[as], w->base);
    if (a.kind == V_PTR && b.kind == V_PTR && a.sym != b.sym) {
        bool both_params = w->m->syms[a.sym].kind == PTX_SYM_PARAM &&
                           w->m->syms[b.sym].kind == PTX_SYM_PARAM;
        return both_params && w->opt->alias_conservative;
    }
    return true;
}

typedef struct pair_list {
    ptx_clobber_pair *v;
    uint32_t *cand_first, *cand;   /* candidate points of pair k: cand[cand_first[k] ..] */
    uint32_t n, cap, ncand, cand_cap;
} pair_list;

static bool push_pair(pair_list *p, uint32_t load, uint32_t store)
{
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 16;
        ptx_clobber_pair *v = realloc(p->v, cap * sizeof *v);
        uint32_t *cf = realloc(p->cand_first, (cap + 1) * sizeof *cf);
        if (v) p->v = v;
        if (cf) p->cand_first = cf;
        if (!v || !cf) return false;
        p->cap = cap;
    }
    p->v[p->n] = (ptx_clobber_pair){load, store, -1, 0};
    p->n++;
    return true;
}

static bool push_cand(pair_list *p, uint32_t c)
{
    if (p->ncand == p->cand_cap) {
        uint32_t cap = p->cand_cap ? p->cand_cap * 2 : 64;
        uint32_t *v = realloc(p->cand, cap * sizeof *v);
        if (!v) return false;
        p->cand = v;
        p->cand_cap = cap;
    }
    p->cand[p->ncand++] = c;
    return true;
}

/* The loads that store s may clobber: first may-alias load on each backward path. */
static bool find_pairs_of(rwork *w, uint32_t s, pair_list *pairs, uint32_t *nb_buf)
{
    memset(w->seen, 0, w->n);
    uint32_t sp = 0;
    if (!w->forced_cut[s]) {
        uint32_t k = preds_of(w, s, nb_buf);
        for (uint32_t j = 0; j < k; j++) w->stack[sp++] = nb_buf[j];
    }
    while (sp) {
        uint32_t p = w->stack[--sp];
        if (w->seen[p]) continue;
        w->seen[p] = 1;
        const ptx_instr *in = &w->fn->instrs[p];
        if (is_clobberable_load(in) && may_alias(w, in, &w->fn->instrs[s])) {
            if (!push_pair(pairs, p, s)) return false;
            continue;
        }
        if (w->forced_cut[p]) continue;
        uint32_t k = preds_of(w, p, nb_buf);
        for (uint32_t j = 0; j < k; j++)
            if (!w->seen[nb_buf[j]]) w->stack[sp++] = nb_buf[j];
    }
    return true;
}

static bool statement_start(const rwork *w, uint32_t i, bool has_lines)
{
    if (!has_lines) return true;
    const ptx_function *fn = w->fn;
    if (i == fn->blocks[fn->instrs[i].block].first || i == 0) return true;
    return fn->instrs[i].dbg_line != fn->instrs[i - 1].dbg_line ||
           fn->instrs[i].dbg_file != fn->instrs[i - 1].dbg_file;
}

static int32_t isect(const int32_t *idom, const uint32_t *rpo, int32_t a, int32_t b)
{
    while (a != b) {
        while (rpo[a] > rpo[b]) a = idom[a];
        while (rpo[b] > rpo[a]) b = idom[b];
    }
    return a;
}

/* Candidates of pair k: the dominators of S among the paths L -> S that cross no forced cut
 * (L's incoming and S's outgoing edges left out), S first. */
static bool candidates_of(rwork *w, pair_list *pl, uint32_t k, bool has_lines, uint32_t *nb_buf)
{
    uint32_t L = pl->v[k].load, S = pl->v[k].store, sp = 0;
    memset(w->mark_a, 0, w->n);
    memset(w->mark_b, 0, w->n);
    /* backward from S */
    w->mark_b[S] = 1;
    w->stack[sp++] = S;
    while (sp) {
        uint32_t q = w->stack[--sp];
        if (q == L || w->forced_cut[q]) continue;
        uint32_t c = preds_of(w, q, nb_buf);
        for (uint32_t j = 0; j < c; j++)
            if (!w->mark_b[nb_buf[j]]) {
                w->mark_b[nb_buf[j]] = 1;
                w->stack[sp++] = nb_buf[j];
            }
    }
    /* depth-first from L inside that set, for a reverse post-order */
    uint32_t *next = (uint32_t *)w->idom;   /* reused as the DFS edge cursor */
    uint32_t nord = 0;
    w->mark_a[L] = 1;
    w->stack[0] = L;
    next[0] = 0;
    sp = 1;
    while (sp) {
        uint32_t q = w->stack[sp - 1];
        uint32_t c = q == S ? 0 : succs_of(w, q, nb_buf);
        bool pushed = false;
        while (next[sp - 1] < c) {
            uint32_t x = nb_buf[next[sp - 1]++];
            if (w->mark_a[x] || !w->mark_b[x] || w->forced_cut[x] || x == L) continue;
            w->mark_a[x] = 1;
            w->stack[sp] = x;
            next[sp] = 0;
            sp++;
            pushed = true;
            break;
        }
        if (!pushed && next[sp - 1] >= c) {
            w->order[nord++] = q;
            sp--;
        }
    }
    pl->cand_first[k] = pl->ncand;
    if (!w->mark_a[S]) return true;   /* cannot happen: L was found walking back from S */
    for (uint32_t j = 0; j < nord; j++) w->rpo[w->order[j]] = nord - 1 - j;
    int32_t *idom = w->idom;
    for (uint32_t j = 0; j < nord; j++) idom[w->order[j]] = -1;
    idom[L] = (int32_t)L;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t j = nord; j-- > 0;) {
            uint32_t x = w->order[j];
            if (x == L) continue;
            int32_t nd = -1;
            uint32_t c = preds_of(w, x, nb_buf);
            for (uint32_t e = 0; e < c; e++) {
                uint32_t p = nb_buf[e];
                if (!w->mark_a[p] || p == S || idom[p] < 0) continue;
                nd = nd < 0 ? (int32_t)p : isect(idom, w->rpo, (int32_t)p, nd);
            }
            if (nd >= 0 && nd != idom[x]) {
                idom[x] = nd;
                changed = true;
            }
        }
    }
    for (int32_t x = (int32_t)S; x != (int32_t)L && x >= 0; x = idom[x]) {
        if ((uint32_t)x == S || statement_start(w, (uint32_t)x, has_lines))
        {
            if (!push_cand(pl, (uint32_t)x)) return false;
            pl->v[k].ncandidates++;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- cut placement */

static uint32_t cut_cost(const rwork *w, uint32_t *cost, uint32_t i)
{
    if (cost[i] == UINT32_MAX) cost[i] = live_units(w, i);
    return cost[i];
}

/* Is a better than b as a cut point? (both hit `hits` unbroken pairs or more) */
static bool better_cut(const rwork *w, uint32_t *cost, uint32_t a, uint32_t ha, uint32_t b,
                       uint32_t hb)
{
    if (ha != hb) return ha > hb;
    uint32_t ca = cut_cost(w, cost, a), cb = cut_cost(w, cost, b);
    if (ca != cb) return ca < cb;
    uint32_t da = w->depth[w->fn->instrs[a].block], db = w->depth[w->fn->instrs[b].block];
    if (da != db) return da < db;
    return a < b;
}

static bool place_clobber_cuts(rwork *w, pair_list *pl, uint8_t *kind_at, uint8_t *reason_at,
                               uint32_t *npairs_at)
{
    uint32_t *hit = calloc(w->n, sizeof *hit), *cost = malloc(w->n * sizeof *cost);
    uint8_t *broken = calloc(pl->n ? pl->n : 1, 1);
    if (!hit || !cost || !broken) {
        free(hit);
        free(cost);
        free(broken);
        return false;
    }
    for (uint32_t i = 0; i < w->n; i++) cost[i] = UINT32_MAX;
    for (uint32_t left = pl->n; left;) {
        for (uint32_t k = 0; k < pl->n; k++)
            if (!broken[k])
                for (uint32_t c = pl->cand_first[k]; c < pl->cand_first[k + 1]; c++) hit[pl->cand[c]] = 0;
        for (uint32_t k = 0; k < pl->n; k++)
            if (!broken[k])
                for (uint32_t c = pl->cand_first[k]; c < pl->cand_first[k + 1]; c++) hit[pl->cand[c]]++;
        int64_t best = -1;
        for (uint32_t k = 0; k < pl->n; k++)
            if (!broken[k])
                for (uint32_t c = pl->cand_first[k]; c < pl->cand_first[k + 1]; c++) {
                    uint32_t x = pl->cand[c];
                    if (best < 0 || better_cut(w, cost, x, hit[x], (uint32_t)best, hit[best]))
                        best = x;
                }
        if (best < 0) break;   /* unreachable: every pair has its store as a candidate */
        kind_at[best] = PTX_BND_SPARSE;
        reason_at[best] = PTX_CUT_CLOBBER;
        for (uint32_t k = 0; k < pl->n; k++) {
            if (broken[k]) continue;
            for (uint32_t c = pl->cand_first[k]; c < pl->cand_first[k + 1]; c++)
                if (pl->cand[c] == (uint32_t)best) {
                    broken[k] = 1;
                    pl->v[k].cut = (int32_t)best;   /* an instruction for now; see below */
                    npairs_at[best]++;
                    left--;
                    break;
                }
        }
    }
    free(hit);
    free(cost);
    free(broken);
    return true;
}

/* Short sub-regions: a boundary at the header of every loop holding none, then wherever a
 * path from the last boundary would pass short_limit instructions (the paper's linear scan;
 * back edges left out, every cycle holding a boundary already). */
static bool place_short_cuts(rwork *w, uint8_t *kind_at, uint8_t *reason_at)
{
    const ptx_function *fn = w->fn;
    uint8_t *in_loop = malloc(w->nb);
    uint32_t *st = malloc((w->nb + 1) * sizeof *st), *rpo = malloc(w->nb * sizeof *rpo);
    uint32_t *order = malloc(w->nb * sizeof *order), *next = calloc(w->nb, sizeof *next);
    uint32_t *dout = calloc(w->nb, sizeof *dout);
    uint8_t *seen = calloc(w->nb, 1);
    bool ok = in_loop && st && rpo && order && next && dout && seen;
    for (uint32_t h = 0; ok && h < w->nb; h++) {
        if (!w->header[h] || !loop_body(w, h, in_loop, st)) continue;
        bool has = false;
        for (uint32_t b = 0; b < w->nb && !has; b++)
            for (uint32_t i = fn->blocks[b].first; in_loop[b] && i < fn->blocks[b].end; i++)
                if (kind_at[i]) {
                    has = true;
                    break;
                }
        if (!has) {
            kind_at[fn->blocks[h].first] = PTX_BND_SHORT;
            reason_at[fn->blocks[h].first] = PTX_CUT_LOOP;
        }
    }
    uint32_t nord = 0, sp = 0;
    if (ok) {
        st[sp++] = 0;
        seen[0] = 1;
    }
    while (sp) {
        uint32_t b = st[sp - 1];
        if (next[b] < fn->blocks[b].nsucc) {
            uint32_t s = (uint32_t)fn->blocks[b].succ[next[b]++];
            if (!seen[s]) {
                seen[s] = 1;
                st[sp++] = s;
            }
        } else {
            order[nord++] = b;
            sp--;
        }
    }
    for (uint32_t j = 0; j < nord; j++) rpo[order[j]] = nord - 1 - j;
    uint32_t limit = w->opt->short_limit;
    for (uint32_t j = nord; ok && j-- > 0;) {
        uint32_t b = order[j], d = 0;
        for (uint32_t e = w->pfirst[b]; e < w->pfirst[b + 1]; e++) {
            uint32_t p = w->preds[e];
            if (seen[p] && rpo[p] < rpo[b] && dout[p] > d) d = dout[p];
        }
        for (uint32_t i = fn->blocks[b].first; i < fn->blocks[b].end; i++) {
            if (kind_at[i]) d = 0;
            if (++d > limit) {
                kind_at[i] = PTX_BND_SHORT;
                reason_at[i] = PTX_CUT_LENGTH;
                d = 1;
            }
        }
        dout[b] = d;
    }
    free(in_loop);
    free(st);
    free(rpo);
    free(order);
    free(next);
    free(dout);
    free(seen);
    return ok;
}

/* ---------------------------------------------------------------- boundaries */

typedef struct defs_ctx { uint64_t *set; } defs_ctx;

static void note_def(void *p, int32_t r, ptx_role role)
{
    defs_ctx *c = p;
    if (role == PTX_ROLE_DEF || role == PTX_ROLE_USEDEF) set_bit(c->set, r);
}

/* Size of the region starting at boundary b's instruction, and the registers it writes. */
static uint32_t region_walk(rwork *w, const uint8_t *kind_at, uint32_t start, uint8_t level,
                            uint64_t *defs, uint32_t *nb_buf)
{
    memset(w->seen, 0, w->n);
    memset(defs, 0, w->words * sizeof *defs);
    uint32_t sp = 0, size = 0;
    w->stack[sp++] = start;
    w->seen[start] = 1;
    defs_ctx dc = {defs};
    while (sp) {
        uint32_t q = w->stack[--sp];
        size++;
        ptx_instr_regs(w->fn, &w->fn->instrs[q], note_def, &dc);
        uint32_t c = succs_of(w, q, nb_buf);
        for (uint32_t j = 0; j < c; j++) {
            uint32_t x = nb_buf[j];
            if (w->seen[x] || kind_at[x] >= level) continue;
            w->seen[x] = 1;
            w->stack[sp++] = x;
        }
    }
    return size;
}

static bool describe_boundaries(rwork *w, ptx_regions *r, const uint8_t *kind_at,
                                const uint8_t *reason_at, const uint32_t *npairs_at,
                                uint32_t *nb_buf)
{
    uint32_t nb = 0;
    for (uint32_t i = 0; i < w->n; i++) nb += kind_at[i] != 0;
    r->bounds = calloc(nb ? nb : 1, sizeof *r->bounds);
    uint64_t *defs = calloc(w->words ? w->words : 1, sizeof *defs);
    if (!r->bounds || !defs) {
        free(defs);
        return false;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        if (!kind_at[i]) continue;
        ptx_boundary *b = &r->bounds[r->nbounds];
        r->bnd_before[i] = (int32_t)r->nbounds++;
        b->instr = i;
        b->kind = kind_at[i];
        b->reason = reason_at[i];
        b->forced_by = (reason_at[i] == PTX_CUT_FORCED_BEFORE ||
                        reason_at[i] == PTX_CUT_FORCED_AFTER) ? w->forced_by[i] : -1;
        b->npairs = npairs_at[i];
        b->loop_depth = w->depth[w->fn->instrs[i].block];
        b->size = region_walk(w, kind_at, i, b->kind == PTX_BND_SPARSE ? PTX_BND_SPARSE : 1,
                              defs, nb_buf);
        const uint64_t *live = w->live_before + (size_t)i * w->words;
        uint32_t nl = 0, np = 0;
        for (uint32_t x = 0; x < w->fn->nregs; x++) {
            if (!get_bit(live, (int32_t)x)) continue;
            if (w->free_reg[x]) {
                b->nfree++;
                continue;
            }
            nl++;
            np += get_bit(defs, (int32_t)x);
        }
        b->live = malloc((nl ? nl : 1) * sizeof *b->live);
        b->preserve = malloc((np ? np : 1) * sizeof *b->preserve);
        if (!b->live || !b->preserve) {
            free(defs);
            return false;
        }
        for (uint32_t x = 0; x < w->fn->nregs; x++) {
            if (!get_bit(live, (int32_t)x) || w->free_reg[x]) continue;
            b->live[b->nlive++] = (int32_t)x;
            b->live32 += reg_units(w->fn, (int32_t)x);
            if (get_bit(defs, (int32_t)x)) b->preserve[b->npreserve++] = (int32_t)x;
        }
    }
    free(defs);
    for (uint32_t k = 0; k < r->npairs; k++)
        if (r->pairs[k].cut >= 0) r->pairs[k].cut = r->bnd_before[r->pairs[k].cut];
    return true;
}

/* ---------------------------------------------------------------- entry points */

static void rwork_free(rwork *w)
{
    ptx_dataflow_free(w->df);
    free(w->live_before);
    free(w->free_reg);
    free(w->outside_loops);
    free(w->base);
    free(w->pfirst);
    free(w->preds);
    free(w->depth);
    free(w->header);
    free(w->forced_cut);
    free(w->forced_by);
    free(w->forced_reason);
    free(w->stack);
    free(w->order);
    free(w->rpo);
    free(w->idom);
    free(w->mark_a);
    free(w->mark_b);
    free(w->seen);
}

void ptx_regions_free(ptx_regions *r)
{
    if (!r) return;
    for (uint32_t i = 0; i < r->nbounds; i++) {
        free(r->bounds[i].live);
        free(r->bounds[i].preserve);
    }
    free(r->bounds);
    free(r->pairs);
    free(r->bnd_before);
    free(r);
}

ptx_regions *ptx_regions_compute(const ptx_module *m, const ptx_function *fn,
                                 const ptx_region_options *opt, char *err, size_t errlen)
{
    ptx_region_options defaults = {0};
    ptx_region_options o = opt ? *opt : defaults;
    if (!o.short_limit) o.short_limit = 32;
    rwork w = {0};
    w.m = m;
    w.fn = fn;
    w.opt = &o;
    w.n = fn->ninstrs;
    w.nb = fn->nblocks;
    ptx_regions *r = calloc(1, sizeof *r);
    pair_list pl = {0};
    uint8_t *kind_at = NULL, *reason_at = NULL;
    uint32_t *npairs_at = NULL, *nb_buf = NULL;
    if (!r) goto oom;
    r->short_limit = o.short_limit;
    if (w.n == 0) return r;
    size_t n = w.n + 1;
    w.df = ptx_dataflow_compute(fn);
    r->bnd_before = malloc(n * sizeof *r->bnd_before);
    w.free_reg = calloc(fn->nregs ? fn->nregs : 1, 1);
    w.outside_loops = malloc(fn->nregs ? fn->nregs : 1);
    w.base = malloc((fn->nregs ? fn->nregs : 1) * sizeof *w.base);
    w.forced_cut = calloc(n, 1);
    w.forced_by = malloc(n * sizeof *w.forced_by);
    w.forced_reason = calloc(n, 1);
    w.order = malloc(n * sizeof *w.order);
    w.rpo = malloc(n * sizeof *w.rpo);
    w.idom = malloc(n * sizeof *w.idom);
    w.mark_a = malloc(n);
    w.mark_b = malloc(n);
    w.seen = malloc(n);
    kind_at = calloc(n, 1);
    reason_at = calloc(n, 1);
    npairs_at = calloc(n, sizeof *npairs_at);
    if (!w.df || !r->bnd_before || !w.free_reg || !w.outside_loops || !w.base || !w.forced_cut || !w.forced_by ||
        !w.forced_reason || !w.order || !w.rpo || !w.idom || !w.mark_a ||
        !w.mark_b || !w.seen || !kind_at || !reason_at || !npairs_at)
        goto oom;
    w.words = w.df->words;
    if (!build_preds(&w) || !find_loops(&w) || !instr_liveness(&w)) goto oom;
    /* a search pushes an instruction once per edge into it at most */
    w.stack = malloc((n + w.pfirst[w.nb] + 1) * sizeof *w.stack);
    if (!w.stack) goto oom;
    nb_buf = malloc((max_degree(&w) + 1) * sizeof *nb_buf);
    if (!nb_buf) goto oom;
    for (uint32_t i = 0; i < w.n; i++) r->bnd_before[i] = -1;
    compute_free(&w);
    memset(w.outside_loops, 1, fn->nregs);
    for (uint32_t i = 0; i < w.n; i++)
        if (w.depth[fn->instrs[i].block])
            ptx_instr_regs(fn, &fn->instrs[i], clear_defined, w.outside_loops);
    compute_bases(m, fn, w.base);
    place_forced(&w);

    bool has_lines = false;
    for (uint32_t i = 0; i < w.n && !has_lines; i++) has_lines = fn->instrs[i].dbg_line != 0;
    for (uint32_t s = 0; s < w.n; s++)
        if (is_store(&fn->instrs[s]) && !find_pairs_of(&w, s, &pl, nb_buf)) goto oom;
    for (uint32_t k = 0; k < pl.n; k++) {
        if (!candidates_of(&w, &pl, k, has_lines, nb_buf)) goto oom;
        if (pl.ncand == pl.cand_first[k] && !push_cand(&pl, pl.v[k].store)) goto oom;
    }
    if (pl.n) pl.cand_first[pl.n] = pl.ncand;

    kind_at[0] = PTX_BND_SPARSE;
    reason_at[0] = PTX_CUT_ENTRY;
    for (uint32_t i = 1; i < w.n; i++)
        if (w.forced_cut[i]) {
            kind_at[i] = PTX_BND_SPARSE;
            reason_at[i] = w.forced_reason[i];
        }
    if (!place_clobber_cuts(&w, &pl, kind_at, reason_at, npairs_at)) goto oom;
    if (!place_short_cuts(&w, kind_at, reason_at)) goto oom;
    r->pairs = pl.v;
    r->npairs = pl.n;
    pl.v = NULL;
    if (!describe_boundaries(&w, r, kind_at, reason_at, npairs_at, nb_buf)) goto oom;
    free(pl.cand);
    free(pl.cand_first);
    free(kind_at);
    free(reason_at);
    free(npairs_at);
    free(nb_buf);
    rwork_free(&w);
    return r;
oom:
    if (err && errlen) snprintf(err, errlen, "out of host memory forming the regions of %s", fn->name);
    free(pl.v);
    free(pl.cand);
    free(pl.cand_first);
    free(kind_at);
    free(reason_at);
    free(npairs_at);
    free(nb_buf);
    rwork_free(&w);
    ptx_regions_free(r);
    return NULL;
}

const char *ptx_cut_reason_name(ptx_cut_reason r)
{
    switch (r) {
    case PTX_CUT_ENTRY: return "kernel entry";
    case PTX_CUT_CLOBBER: return "clobber antidependence";
    case PTX_CUT_FORCED_BEFORE: return "before an operation that must not run twice";
    case PTX_CUT_FORCED_AFTER: return "after an operation that must not run twice";
    case PTX_CUT_LOOP: return "loop without a boundary";
    case PTX_CUT_LENGTH: return "short-region length limit";
    }
    return "?";
}
