/* exec_mbarrier.c: mbarrier objects (init, arrive, arrive_drop, expect_tx, complete_tx, inval,
 * test_wait, try_wait, pending_count) and cp.async.mbarrier.arrive. The object is 64 bits of
 * (usually shared) memory updated with a host atomic, so the bulk and tensor copies that
 * complete transactions on it from other files agree with the instructions here. */
#include "emulator/emu_internal.h"

/* mbarrier: a 64-bit object in memory. Its layout is ptxsim's own (the ISA keeps it opaque):
 * bits 0-19 pending arrivals, 20-39 expected arrivals, 40-61 transaction count (signed),
 * bit 63 the phase parity. The state token an arrive returns is the object before it. */
#define MB_PEND(v) ((uint32_t)((v) & 0xfffff))
#define MB_EXP(v) ((uint32_t)(((v) >> 20) & 0xfffff))
#define MB_TX(v) ((int32_t)((int64_t)((v) << 2) >> 42))
#define MB_PAR(v) ((uint32_t)((v) >> 63))
static uint64_t mb_make(uint32_t pend, uint32_t exp, int32_t tx, uint32_t par)
{
    return (uint64_t)(pend & 0xfffff) | ((uint64_t)(exp & 0xfffff) << 20) |
           (((uint64_t)(uint32_t)tx & 0x3fffff) << 40) | ((uint64_t)(par & 1) << 63);
}

/* One thread's update; returns the old value. (The bulk and tensor copies complete_tx too.) */
uint64_t emu_mbarrier_update(uint8_t *p, int what, uint32_t count, int32_t tx)
{
    uint64_t *o = (uint64_t *)p, old = __atomic_load_n(o, __ATOMIC_RELAXED), nv;
    do {
        uint32_t pend = MB_PEND(old), exp = MB_EXP(old), par = MB_PAR(old);
        int32_t t = MB_TX(old);
        switch (what) {
        case EMU_MBAR_INIT: pend = exp = count; t = 0; par = 0; break;
        case EMU_MBAR_ARRIVE: case EMU_MBAR_ARRIVE_DROP:
            t += tx;
            pend = pend > count ? pend - count : 0;
            if (what == EMU_MBAR_ARRIVE_DROP) exp = exp > count ? exp - count : 0;
            break;
        case EMU_MBAR_EXPECT_TX: t += tx; break;
        case EMU_MBAR_COMPLETE_TX: t -= tx; break;
        default: pend = exp = 0; t = 0; par = 0; break;   /* EMU_MBAR_INVAL */
        }
        if (what >= EMU_MBAR_ARRIVE && what <= EMU_MBAR_COMPLETE_TX && pend == 0 && t == 0) {
            par ^= 1;   /* the phase completes; the next one expects the same arrivals */
            pend = exp;
        }
        nv = mb_make(pend, exp, t, par);
    } while (!__atomic_compare_exchange_n(o, &old, nv, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    return old;
}

/* The host pointer of each lane's 8-byte mbarrier object named by address operand ao; false
 * after a fault. */
static bool objects(emu_ctx *c, const emu_uop *u, const emu_opd *ao, const char *verb,
                    uint8_t *p[EMU_WARP_SIZE])
{
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_LOAD, u->in->space, verb);
    emu_acc_lanes(&A, ao, c->mask, 8, 1, 0);
    bool ok = emu_acc_check(&A, 8);
    if (ok)
        for (uint32_t i = 0; i < A.n; i++) p[A.p[i].lane] = A.p[i].host;
    emu_acc_release(&A);
    return ok;
}

static void x_mbarrier(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int mode = in->mode;
    bool expect_tx = in->flags & PTX_F(EXPECT_TX);
    int what, ai;
    bool wait = false;
    if (mode == PTX_SFX_INIT) what = EMU_MBAR_INIT, ai = 0;
    else if (mode == PTX_SFX_ARRIVE) what = EMU_MBAR_ARRIVE, ai = 1;
    else if (mode == PTX_SFX_ARRIVE_DROP) what = EMU_MBAR_ARRIVE_DROP, ai = 1;
    else if (mode == PTX_SFX_COMPLETE_TX) what = EMU_MBAR_COMPLETE_TX, ai = 0;
    else if (mode == PTX_SFX_INVAL) what = EMU_MBAR_INVAL, ai = 0;
    else if (mode == PTX_SFX_TEST_WAIT || mode == PTX_SFX_TRY_WAIT) wait = true, what = 0, ai = 1;
    else if (mode == PTX_SFX_PENDING_COUNT) {
        uint64_t b[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
        const uint64_t *st = emu_src(c, &u->opd[1], PTX_TYPE_B64, b);
        for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = MB_PEND(st[l]);
        emu_put(c, &u->opd[0], PTX_TYPE_U32, d);
        return;
    } else if (expect_tx) what = EMU_MBAR_EXPECT_TX, ai = 0;
    else return;
    uint8_t *p[EMU_WARP_SIZE];
    if (!objects(c, u, &u->opd[ai], wait ? "read" : "write", p)) return;
    uint64_t ab[EMU_WARP_SIZE], out[EMU_WARP_SIZE];
    bool has_arg = in->nops > ai + 1;
    const uint64_t *arg = has_arg ? emu_src(c, emu_uop_opd(u, (unsigned)ai + 1),
                                            wait ? PTX_TYPE_B64 : PTX_TYPE_U32, ab) : NULL;
    if (wait) {
        bool parity = ptx_instr_has(in, PTX_SFX_PARITY);
        uint32_t done = 0;
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t cur = __atomic_load_n((uint64_t *)p[l], __ATOMIC_ACQUIRE);
            uint32_t want = parity ? (uint32_t)(arg[l] & 1) : MB_PAR(arg[l]);
            if (MB_PAR(cur) != want) done |= 1u << l;
        }
        emu_put_pred(c, &u->opd[0], done);
        /* a waiting warp lets the others run: they are the ones that complete the phase */
        if (done != c->mask) c->stop = EMU_STOP_BUDGET;
        return;
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint32_t count = 1;
        int32_t tx = 0;
        if (what == EMU_MBAR_INIT) count = has_arg ? (uint32_t)arg[l] : 0;
        else if (what == EMU_MBAR_EXPECT_TX || what == EMU_MBAR_COMPLETE_TX)
            tx = has_arg ? (int32_t)arg[l] : 0;
        else if (expect_tx) tx = has_arg ? (int32_t)arg[l] : 0;
        else if (has_arg) count = (uint32_t)arg[l];
        out[l] = emu_mbarrier_update(p[l], what, count, tx);
    }
    if (what == EMU_MBAR_ARRIVE || what == EMU_MBAR_ARRIVE_DROP) emu_put(c, &u->opd[0], PTX_TYPE_B64, out);
}

/* cp.async.mbarrier.arrive{.noinc} [mbar]: the copies are already done, so the arrive happens
 * now; without .noinc the pending count is raised first, which cancels it out. */
static void x_cp_async_mbarrier_arrive(emu_ctx *c, const emu_uop *u)
{
    if (!(u->in->flags & PTX_F(NOINC))) return;
    uint8_t *p[EMU_WARP_SIZE];
    if (!objects(c, u, &u->opd[0], "write", p)) return;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1)
        emu_mbarrier_update(p[__builtin_ctz(mk)], EMU_MBAR_ARRIVE, 1, 0);
}

static bool simple_space(uint8_t sp)
{
    return sp == PTX_SPACE_NONE || sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
           sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_CONST ||
           sp == PTX_SPACE_PARAM;
}

emu_exec_fn emu_select_mbarrier(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
        return in->nops == 1 ? x_cp_async_mbarrier_arrive : NULL;
    case PTX_OP_MBARRIER:
        if (!simple_space(in->space) && in->mode != PTX_SFX_PENDING_COUNT) return NULL;
        switch (in->mode) {
        case PTX_SFX_INIT: case PTX_SFX_COMPLETE_TX: return in->nops == 2 ? x_mbarrier : NULL;
        case PTX_SFX_INVAL: return in->nops == 1 ? x_mbarrier : NULL;
        case PTX_SFX_ARRIVE: case PTX_SFX_ARRIVE_DROP:
            return in->nops >= 2 && in->nops <= 3 ? x_mbarrier : NULL;
        case PTX_SFX_TEST_WAIT: case PTX_SFX_TRY_WAIT:
            return in->nops >= 3 && in->nops <= 4 ? x_mbarrier : NULL;
        case PTX_SFX_PENDING_COUNT: return in->nops == 2 ? x_mbarrier : NULL;
        case 0: return (in->flags & PTX_F(EXPECT_TX)) && in->nops == 2 ? x_mbarrier : NULL;
        default: return NULL;
        }
    default:
        return NULL;
    }
}
