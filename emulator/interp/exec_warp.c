/* exec_warp.c: warp-wide operations: shfl, vote, match, redux, activemask, elect. A lane
 * outside the participating set reads as the hardware leaves it: unspecified, here its own
 * register value, deterministically. */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

static bool is_sync(const ptx_instr *in)
{
    return in->flags & PTX_F(SYNC);
}

/* Each executing lane's participating set: the executing lanes within that lane's own
 * membermask. The lanes of one warp may execute one instruction for disjoint groups, each
 * naming its own members (cooperative groups' tiles do: a tile of 16 passes 0x0000ffff in
 * its lower half and 0xffff0000 in its upper half). */
static void members(emu_ctx *c, const ptx_instr *in, uint32_t mem[EMU_WARP_SIZE])
{
    uint64_t m[EMU_WARP_SIZE];
    if (is_sync(in)) emu_read_all(c, &in->ops[in->nops - 1], PTX_TYPE_B32, m);
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        mem[l] = is_sync(in) ? c->mask & (uint32_t)m[l] : c->mask;
}

static void x_shfl(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int nsrc = is_sync(in) ? 4 : 3;
    int ndst = in->nops - nsrc;
    const ptx_operand *sa = &in->ops[ndst];
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], cc[EMU_WARP_SIZE], d[EMU_WARP_SIZE],
        p[EMU_WARP_SIZE];
    emu_read_all(c, sa, PTX_TYPE_B32, a);
    emu_read_all(c, &in->ops[ndst + 1], PTX_TYPE_U32, b);
    emu_read_all(c, &in->ops[ndst + 2], PTX_TYPE_U32, cc);
    LANES(c) {
        int lane = L_;
        uint32_t bval = (uint32_t)b[lane] & 0x1f, cval = (uint32_t)cc[lane] & 0x1f;
        uint32_t seg = ((uint32_t)cc[lane] >> 8) & 0x1f;
        int maxl = (int)((lane & seg) | (cval & ~seg)), minl = (int)(lane & seg);
        int j;
        bool pv;
        switch (in->mode) {
        case PTX_SFX_UP: j = lane - (int)bval; pv = j >= maxl; break;
        case PTX_SFX_DOWN: j = lane + (int)bval; pv = j <= maxl; break;
        case PTX_SFX_BFLY: j = lane ^ (int)bval; pv = j <= maxl; break;
        default: j = minl | (int)(bval & ~seg); pv = j <= maxl; break;
        }
        if (!pv || j < 0 || j > 31) j = lane;
        d[lane] = a[j];
        p[lane] = pv;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
    if (ndst > 1) emu_write_all(c, &in->ops[1], PTX_TYPE_PRED, p);
}

static void x_vote(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint32_t mem[EMU_WARP_SIZE];
    members(c, in, mem);
    uint32_t pred = emu_read_pred_mask(c, &in->ops[1]);
    uint64_t d[EMU_WARP_SIZE] = {0};
    uint8_t t = in->mode == PTX_SFX_BALLOT ? PTX_TYPE_B32 : PTX_TYPE_PRED;
    LANES(c) {
        int l = L_;
        uint32_t pm = pred & mem[l];
        switch (in->mode) {
        case PTX_SFX_ALL: d[l] = pm == mem[l]; break;
        case PTX_SFX_ANY: d[l] = pm != 0; break;
        case PTX_SFX_BALLOT: d[l] = pm; break;
        default: d[l] = (pm == mem[l]) || pm == 0; break;   /* .uni */
        }
    }
    emu_write_all(c, &in->ops[0], t, d);
}

static void x_match(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    bool all = in->mode == PTX_SFX_ALL;
    int ndst = in->nops - 2;
    uint32_t mem[EMU_WARP_SIZE];
    members(c, in, mem);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE] = {0}, p[EMU_WARP_SIZE] = {0};
    emu_read_all(c, &in->ops[ndst], t, a);
    LANES(c) {
        int l = L_;
        uint32_t r = 0;
        for (uint32_t mk = mem[l]; mk; mk &= mk - 1)
            if (a[__builtin_ctz(mk)] == a[l]) r |= 1u << __builtin_ctz(mk);
        if (all) {
            bool same = r == mem[l];
            d[l] = same ? mem[l] : 0;
            p[l] = same;
        } else {
            d[l] = r;
        }
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
    if (ndst > 1) emu_write_all(c, &in->ops[1], PTX_TYPE_PRED, p);
}

static uint64_t redux_over(const ptx_instr *in, bool sg, const uint64_t a[EMU_WARP_SIZE],
                           uint32_t mem)
{
    uint64_t acc = 0;
    bool first = true;
    for (uint32_t mk = mem; mk; mk &= mk - 1) {
        uint64_t x = a[__builtin_ctz(mk)] & 0xffffffffu;
        if (first) {
            acc = x;
            first = false;
            continue;
        }
        switch (in->aop) {
        case PTX_SFX_ADD: acc = (acc + x) & 0xffffffffu; break;
        case PTX_SFX_AND: acc &= x; break;
        case PTX_SFX_OR: acc |= x; break;
        case PTX_SFX_XOR: acc ^= x; break;
        case PTX_SFX_MIN:
            if (sg ? emu_sext(x, 32) < emu_sext(acc, 32) : x < acc) acc = x;
            break;
        case PTX_SFX_MAX:
            if (sg ? emu_sext(x, 32) > emu_sext(acc, 32) : x > acc) acc = x;
            break;
        default: break;
        }
    }
    return acc;
}

static void x_redux(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t t = emu_ty(in, 0);
    uint32_t mem[EMU_WARP_SIZE];
    members(c, in, mem);
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE] = {0};
    emu_read_all(c, &in->ops[1], t, a);
    bool sg = emu_is_signed(t);
    /* One reduction per distinct member set (usually one, or one per tile). */
    uint32_t done = 0;
    LANES(c) {
        int l = L_;
        if (done & (1u << l)) continue;
        uint64_t acc = redux_over(in, sg, a, mem[l]);
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int k = __builtin_ctz(mk);
            if (mem[k] == mem[l]) {
                d[k] = acc;
                done |= 1u << k;
            }
        }
    }
    emu_write_all(c, &in->ops[0], t, d);
}

static void x_activemask(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t d[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = c->active;
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

/* elect.sync d|p, membermask: the lowest participating lane is the leader */
static void x_elect(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint32_t mem[EMU_WARP_SIZE];
    members(c, in, mem);
    uint64_t d[EMU_WARP_SIZE] = {0}, p[EMU_WARP_SIZE] = {0};
    LANES(c) {
        int l = L_;
        int leader = mem[l] ? __builtin_ctz(mem[l]) : 0;
        d[l] = (uint64_t)leader;
        p[l] = l == leader && mem[l];
    }
    int ndst = in->nops - 1;
    if (ndst >= 2) {
        emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
        emu_write_all(c, &in->ops[1], PTX_TYPE_PRED, p);
    } else if (ndst == 1) {
        emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, p);
    }
}

emu_exec_fn emu_select_warp(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_SHFL: {
        int nsrc = is_sync(in) ? 4 : 3;
        if (in->nops < nsrc + 1 || in->nops > nsrc + 2 || !in->mode) return NULL;
        return x_shfl;
    }
    case PTX_OP_VOTE:
        if (in->nops < 2 || !in->mode) return NULL;
        return x_vote;
    case PTX_OP_MATCH: return in->nops >= 3 ? x_match : NULL;
    case PTX_OP_REDUX: {
        uint8_t t = emu_ty(in, 0);
        if (in->nops != 3 || emu_type_bits[t] != 32 || emu_type_kind[t] == EMU_TK_F) return NULL;
        return x_redux;
    }
    case PTX_OP_ACTIVEMASK: return in->nops == 1 ? x_activemask : NULL;
    case PTX_OP_ELECT: return in->nops >= 2 ? x_elect : NULL;
    default: return NULL;
    }
}
