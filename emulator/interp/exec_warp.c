/* exec_warp.c: warp-wide operations: shfl, vote, match, redux, activemask, elect. The handlers
 * move decoded operands; the rules (source lanes, votes, matches, reductions, the leader) are
 * sem_warp_* (sem.h, sem_warp.c), which a JIT calls the same way.
 *
 * A lane's participating set is the executing lanes within that lane's own membermask: the
 * lanes of one warp may execute one instruction for disjoint groups, each naming its own
 * members (cooperative groups' tiles do: a tile of 16 passes 0x0000ffff in its lower half and
 * 0xffff0000 in its upper half). A shuffle from a lane outside the executing set reads that
 * lane's register as it stands, deterministically (the ISA leaves the value undefined).
 *
 * The selector decodes each form once (warp_form in u->form) and picks a handler per mode, so
 * lane loops do not switch on the mode at run time; a shuffle whose b and c are immediates (the
 * usual reduction and broadcast code) has its source lanes and predicate worked out at load
 * time and runs as a plain gather. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <assert.h>

typedef struct warp_form {
    uint8_t ndst;             /* destination operands (d, then p where written) */
    int8_t member_opd;        /* operand index of the membermask, -1 for a non-.sync form */
    bool members_fixed;       /* no membermask, or an immediate one: member_bits */
    uint32_t member_bits;
    /* shfl with immediate b and c: each lane's source lane and the predicate result */
    uint32_t valid;
    uint8_t src[EMU_WARP_SIZE];
} warp_form;

/* The lanes' participating sets. Returns true when they are all the same (the usual case),
 * with that set in *one; else fills mem for the lanes of c->mask. */
/* A policy that checks synchronisation (--check=synccheck) learns which lanes the member
 * masks named. */
static void tell_members(emu_ctx *c, const emu_uop *u, uint32_t named)
{
    emu_mem_policy *pol = c->g->launch.policy;
    if (pol->barrier && u->form && ((const warp_form *)u->form)->member_opd >= 0)
        pol->barrier(pol, c->w, EMU_WARP_MEMBERS, named, false, c->mask, (uint16_t)c->f->index,
                     c->pc);
}

static bool members(emu_ctx *c, const emu_uop *u, uint32_t *one, uint32_t mem[EMU_WARP_SIZE])
{
    const warp_form *f = u->form;
    if (f->members_fixed) {
        *one = c->mask & f->member_bits;
        tell_members(c, u, f->member_bits);
        return true;
    }
    uint64_t buf[EMU_WARP_SIZE];
    const uint64_t *m = emu_src(c, emu_uop_opd(u, (unsigned)f->member_opd), PTX_TYPE_B32, buf);
    uint32_t named = 0;
    LANES(c) {
        mem[L_] = c->mask & (uint32_t)m[L_];
        named |= (uint32_t)m[L_];
    }
    tell_members(c, u, named);
    return false;
}

/* ---------------------------------------------------------------- shfl */

/* A shuffle reads no participating set, but a checking policy still learns its masks. */
static void shfl_members(emu_ctx *c, const emu_uop *u)
{
    const warp_form *f = u->form;
    if (!c->g->launch.policy->barrier || f->member_opd < 0) return;
    uint32_t named = 0;
    if (f->members_fixed) {
        named = f->member_bits;
    } else {
        uint64_t buf[EMU_WARP_SIZE];
        const uint64_t *m = emu_src(c, emu_uop_opd(u, (unsigned)f->member_opd), PTX_TYPE_B32,
                                    buf);
        LANES(c) named |= (uint32_t)m[L_];
    }
    tell_members(c, u, named);
}

/* shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask}: operands d = 0, p = 1, a = ndst. */
static inline __attribute__((always_inline)) void shfl(emu_ctx *c, const emu_uop *u, int mode)
{
    const warp_form *f = u->form;
    shfl_members(c, u);
    unsigned ia = f->ndst;
    uint64_t ba[EMU_WARP_SIZE], bb[EMU_WARP_SIZE], bc[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, emu_uop_opd(u, ia), PTX_TYPE_B32, ba);
    const uint64_t *b = emu_src(c, emu_uop_opd(u, ia + 1), PTX_TYPE_U32, bb);
    const uint64_t *cv = emu_src(c, emu_uop_opd(u, ia + 2), PTX_TYPE_U32, bc);
    uint32_t valid = 0;
    LANES(c) {
        unsigned l = L_;
        bool v;
        unsigned j = sem_warp_shfl_src(mode, l, (uint32_t)b[l], (uint32_t)cv[l], &v);
        d[l] = a[j];
        valid |= (uint32_t)v << l;
    }
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
    if (f->ndst > 1) emu_put_pred(c, &u->opd[1], valid);
}

static void x_shfl_up(emu_ctx *c, const emu_uop *u) { shfl(c, u, PTX_SFX_UP); }
static void x_shfl_down(emu_ctx *c, const emu_uop *u) { shfl(c, u, PTX_SFX_DOWN); }
static void x_shfl_bfly(emu_ctx *c, const emu_uop *u) { shfl(c, u, PTX_SFX_BFLY); }
static void x_shfl_idx(emu_ctx *c, const emu_uop *u) { shfl(c, u, PTX_SFX_IDX); }

/* b and c immediates: the source lanes were worked out when the form was decoded */
static void x_shfl_fixed(emu_ctx *c, const emu_uop *u)
{
    const warp_form *f = u->form;
    shfl_members(c, u);
    uint64_t ba[EMU_WARP_SIZE], tmp[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, emu_uop_opd(u, f->ndst), PTX_TYPE_B32, ba);
    uint64_t *d = emu_dst(c, &u->opd[0], PTX_TYPE_B32);
    uint64_t *out = d && d != a ? d : tmp;   /* d = a: gather into a copy first */
    /* a may be a wider register's row (emu_src): keep the b32 value only */
    if (c->mask == 0xffffffffu) {
        for (int l = 0; l < EMU_WARP_SIZE; l++) out[l] = a[f->src[l]] & 0xffffffffu;
    } else {
        LANES(c) out[L_] = a[f->src[L_]] & 0xffffffffu;
    }
    if (out == tmp) emu_put(c, &u->opd[0], PTX_TYPE_B32, tmp);
    if (f->ndst > 1) emu_put_pred(c, &u->opd[1], f->valid);
}

/* ---------------------------------------------------------------- vote */

/* vote{.sync}.mode.{pred,b32} d, {!}a{, membermask} */
static inline __attribute__((always_inline)) void vote(emu_ctx *c, const emu_uop *u, int mode)
{
    uint32_t one, mem[EMU_WARP_SIZE];
    uint32_t pred = emu_src_pred(c, &u->opd[1]);
    bool uniform = members(c, u, &one, mem);
    if (mode != PTX_SFX_BALLOT) {
        uint32_t bits = 0;
        if (uniform) bits = sem_warp_vote(mode, pred, one) ? ~0u : 0u;
        else LANES(c) bits |= sem_warp_vote(mode, pred, mem[L_]) << L_;
        emu_put_pred(c, &u->opd[0], bits);
        return;
    }
    uint64_t d[EMU_WARP_SIZE];
    if (uniform) {
        uint64_t v = sem_warp_vote(mode, pred, one);
        for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = v;
    } else {
        LANES(c) d[L_] = sem_warp_vote(mode, pred, mem[L_]);
    }
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
}

static void x_vote_all(emu_ctx *c, const emu_uop *u) { vote(c, u, PTX_SFX_ALL); }
static void x_vote_any(emu_ctx *c, const emu_uop *u) { vote(c, u, PTX_SFX_ANY); }
static void x_vote_uni(emu_ctx *c, const emu_uop *u) { vote(c, u, PTX_SFX_UNI); }
static void x_vote_ballot(emu_ctx *c, const emu_uop *u) { vote(c, u, PTX_SFX_BALLOT); }

/* ---------------------------------------------------------------- match */

/* match.{any,all}{.sync}.{b32,b64} d{|p}, a{, membermask}: a = ndst */
static void x_match(emu_ctx *c, const emu_uop *u)
{
    const warp_form *f = u->form;
    bool all = u->in->mode == PTX_SFX_ALL;
    uint32_t one, mem[EMU_WARP_SIZE];
    if (members(c, u, &one, mem))
        LANES(c) mem[L_] = one;
    /* the values compared: of the instruction's width (emu_src may give a wider register's
     * row as it stands) */
    uint64_t ba[EMU_WARP_SIZE], va[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, emu_uop_opd(u, f->ndst), u->type, ba);
    if (a != ba && u->type == PTX_TYPE_B32) {
        for (int l = 0; l < EMU_WARP_SIZE; l++) va[l] = a[l] & 0xffffffffu;
        a = va;
    }
    uint32_t p = 0;
    LANES(c) {
        unsigned l = L_;
        if (all) {
            bool same;
            d[l] = sem_warp_match_all(a, mem[l], l, &same);
            p |= (uint32_t)same << l;
        } else {
            d[l] = sem_warp_match_any(a, mem[l], l);
        }
    }
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
    if (f->ndst > 1) emu_put_pred(c, &u->opd[1], p);
}

/* ---------------------------------------------------------------- redux */

/* redux.sync.op.{u32,s32,b32} d, a, membermask */
static void x_redux(emu_ctx *c, const emu_uop *u)
{
    int op = u->in->aop;
    bool sg = emu_is_signed(u->type);
    uint32_t one, mem[EMU_WARP_SIZE];
    uint64_t ba[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const uint64_t *a = emu_src(c, &u->opd[1], u->type, ba);
    if (members(c, u, &one, mem)) {
        uint64_t v = sem_warp_redux(op, sg, a, one);
        for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = v;
    } else {
        /* one reduction per distinct member set (one per tile) */
        uint32_t done = 0;
        LANES(c) {
            unsigned l = L_;
            if (done & (1u << l)) continue;
            uint64_t v = sem_warp_redux(op, sg, a, mem[l]);
            for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
                unsigned k = (unsigned)__builtin_ctz(mk);
                if (mem[k] == mem[l]) {
                    d[k] = v;
                    done |= 1u << k;
                }
            }
        }
    }
    emu_put(c, &u->opd[0], u->type, d);
}

/* ---------------------------------------------------------------- activemask, elect */

/* activemask.b32 d: the lanes executing (the SIMT path's mask, whatever the guard says) */
static void x_activemask(emu_ctx *c, const emu_uop *u)
{
    uint64_t d[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = c->active;
    emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
}

/* elect.sync d|p, membermask (d may be _), or elect.sync p, membermask */
static void x_elect(emu_ctx *c, const emu_uop *u)
{
    const warp_form *f = u->form;
    uint32_t one, mem[EMU_WARP_SIZE];
    if (members(c, u, &one, mem))
        LANES(c) mem[L_] = one;
    uint64_t d[EMU_WARP_SIZE];
    uint32_t p = 0;
    LANES(c) {
        unsigned l = L_, leader = sem_warp_elect(mem[l]);
        d[l] = leader;
        p |= (uint32_t)(l == leader && mem[l]) << l;
    }
    if (f->ndst >= 2) {
        emu_put(c, &u->opd[0], PTX_TYPE_B32, d);
        emu_put_pred(c, &u->opd[1], p);
    } else {
        emu_put_pred(c, &u->opd[0], p);
    }
}

/* ---------------------------------------------------------------- selection */

static bool imm_u32(const emu_opd *o, uint32_t *v)
{
    if (o->kind != EMU_OPD_IMM) return false;
    *v = (uint32_t)emu_imm_convert((uint8_t)o->row, o->raw, PTX_TYPE_U32);
    return true;
}

/* The form of an instruction with nsrc sources (the membermask included for .sync), attached
 * to u; NULL when its operand count is not one the instruction has. */
static warp_form *form_of(emu_code *code, emu_uop *u, unsigned nsrc, unsigned min_dst,
                          unsigned max_dst)
{
    const ptx_instr *in = u->in;
    bool sync = in->flags & PTX_F(SYNC);
    if (u->nopd < nsrc + min_dst || u->nopd > nsrc + max_dst) return NULL;
    warp_form *f = emu_code_alloc(code, sizeof *f);
    if (!f) return NULL;
    f->ndst = (uint8_t)(u->nopd - nsrc);
    f->member_opd = sync ? (int8_t)(u->nopd - 1) : -1;
    f->members_fixed = !sync || imm_u32(emu_uop_opd(u, u->nopd - 1), &f->member_bits);
    if (!sync) f->member_bits = ~0u;
    u->form = f;
    return f;
}

static emu_exec_fn select_shfl(emu_code *code, emu_uop *u)
{
    int mode = u->in->mode;
    emu_exec_fn by_mode = mode == PTX_SFX_UP     ? x_shfl_up
                          : mode == PTX_SFX_DOWN ? x_shfl_down
                          : mode == PTX_SFX_BFLY ? x_shfl_bfly
                          : mode == PTX_SFX_IDX  ? x_shfl_idx
                                                 : NULL;
    unsigned nsrc = (u->in->flags & PTX_F(SYNC)) ? 4 : 3;
    warp_form *f = by_mode ? form_of(code, u, nsrc, 1, 2) : NULL;
    if (!f) return NULL;
    uint32_t b, cv;
    if (!imm_u32(emu_uop_opd(u, f->ndst + 1u), &b) || !imm_u32(emu_uop_opd(u, f->ndst + 2u), &cv))
        return by_mode;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        bool v;
        f->src[l] = (uint8_t)sem_warp_shfl_src(mode, l, b, cv, &v);
        assert(f->src[l] < EMU_WARP_SIZE);
        f->valid |= (uint32_t)v << l;
    }
    return x_shfl_fixed;
}

emu_exec_fn emu_select_warp(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool sync = in->flags & PTX_F(SYNC);
    switch (in->op) {
    case PTX_OP_SHFL:
        return select_shfl(code, u);
    case PTX_OP_VOTE: {
        emu_exec_fn fn = in->mode == PTX_SFX_ALL      ? x_vote_all
                         : in->mode == PTX_SFX_ANY    ? x_vote_any
                         : in->mode == PTX_SFX_UNI    ? x_vote_uni
                         : in->mode == PTX_SFX_BALLOT ? x_vote_ballot
                                                      : NULL;
        return fn && form_of(code, u, sync ? 2 : 1, 1, 1) ? fn : NULL;
    }
    case PTX_OP_MATCH: {
        uint8_t t = u->type;
        if (in->mode != PTX_SFX_ANY && in->mode != PTX_SFX_ALL) return NULL;
        if (t != PTX_TYPE_B32 && t != PTX_TYPE_B64) return NULL;
        return form_of(code, u, sync ? 2 : 1, 1, 2) ? x_match : NULL;
    }
    case PTX_OP_REDUX: {
        uint8_t t = u->type;
        if (emu_type_bits[t] != 32 || emu_type_kind[t] == EMU_TK_F || !sync) return NULL;
        switch (in->aop) {
        case PTX_SFX_ADD: case PTX_SFX_MIN: case PTX_SFX_MAX:
        case PTX_SFX_AND: case PTX_SFX_OR: case PTX_SFX_XOR: break;
        default: return NULL;
        }
        return form_of(code, u, 2, 1, 1) ? x_redux : NULL;
    }
    case PTX_OP_ACTIVEMASK: return u->nopd == 1 ? x_activemask : NULL;
    case PTX_OP_ELECT:
        return sync && form_of(code, u, 1, 1, 2) ? x_elect : NULL;
    default: return NULL;
    }
}
