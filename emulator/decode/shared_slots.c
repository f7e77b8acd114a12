/* shared_slots.c: the register layout in which registers never live at once share a row
 * (frontend/ptx_slots.c), with what only the executors know about their reads and writes.
 *
 * The frontend's pass needs two things from the emulator:
 * - Which registers must keep a row of their own: those of every instruction that is not
 *   lane-wise (emu_instr_lanewise; stores too, as entry_rows.c counts them), since such an
 *   instruction may read other lanes' rows (shfl, vote, match, redux, the matrix operations:
 *   a lane that never wrote the register would show another register's value) or write a
 *   destination other than in full for the executing lanes only.
 * - Reads the PTX does not show: a contracted add (fma_contraction.c) reads the mul's sources
 *   where the add runs, so they stay live up to it.
 * Every decoded row (decode.c), frame (warp.c), checkpoint and plan (entry_rows.c) is then
 * laid out by the rewritten ptx_reg.slot and ptx_function.nslots; the JIT's input key covers
 * them. The choice is the caller's (the runtime's): iGPU's idempotent regions re-run from
 * registers that a later register sharing their row would have overwritten, and --check keeps
 * a row per register too. */
#include "emulator/decode/decode_internal.h"
#include "emulator/emu_internal.h"

#include <stdlib.h>

typedef struct extra_list {
    const ptx_function *fn;
    ptx_slot_use *v;
    uint32_t n, cap;
} extra_list;

static bool push_use(extra_list *x, uint32_t instr, const ptx_operand *o)
{
    if (o->kind != PTX_OPD_REG || o->reg < 0) return true;
    if (x->n == x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 16;
        ptx_slot_use *v = realloc(x->v, cap * sizeof *v);
        if (!v) return false;
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = (ptx_slot_use){ instr, o->reg };
    return true;
}

static bool contracted_reads(void *ctx, uint32_t mul, uint32_t add, int side)
{
    (void)side;
    extra_list *x = ctx;
    const ptx_instr *m = &x->fn->instrs[mul];
    return push_use(x, add, &m->ops[1]) && push_use(x, add, &m->ops[2]);
}

static void mark_own(void *p, int32_t reg, ptx_role role)
{
    (void)role;
    ((uint8_t *)p)[reg] = 1;
}

/* fn's shared layout, applied; false when there is none (fn keeps its own) */
static bool share_function(ptx_function *fn)
{
    uint8_t *own = calloc(fn->nregs, 1);
    uint32_t *slot = malloc(fn->nregs * sizeof *slot);
    extra_list x = { fn, NULL, 0, 0 };
    uint32_t n = 0;
    if (own && slot && emu_fma_pairs(fn, contracted_reads, &x)) {
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ptx_instr *in = &fn->instrs[i];
            if (!emu_instr_lanewise(in) && in->op != PTX_OP_ST) ptx_instr_regs(fn, in, mark_own, own);
        }
        n = ptx_slots_share(fn, own, x.v, x.n, slot);
    }
    if (n) {
        for (uint32_t r = 0; r < fn->nregs; r++) fn->regs[r].slot = slot[r];
        fn->nslots = n;
        fn->slots_shared = true;
    }
    free(own);
    free(slot);
    free(x.v);
    return n != 0;
}

uint32_t emu_share_register_slots(ptx_module *m)
{
    uint32_t shared = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        ptx_function *fn = &m->funcs[f];
        if (fn->is_decl || !fn->nregs || fn->slots_shared) continue;
        shared += share_function(fn);
    }
    return shared;
}
