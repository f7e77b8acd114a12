/* exec_multimem.c: multimem.ld_reduce, multimem.st and multimem.red (PTX ISA 8.1, sm_90), the
 * accesses to a multicast object that NVLink SHARP spreads over several GPUs.
 *
 * ptxsim emulates one device, so a multicast group has exactly one member and the multimem
 * address is an ordinary global address: the reduction over the group's copies of a value is
 * that value (ld_reduce is a load, with .acc::f32/.acc::f16 changing nothing for a single
 * term), the store writes the one copy, and multimem.red is red on global memory. Each form
 * runs through the ld/st/red handler of exec_mem.c, so faults, vectors and the memory policy
 * (GPUDet ordering of the reduction as an atomic) behave exactly as for those instructions. */
#include "emulator/emu_internal.h"

/* The ld / st / red instruction the multimem form amounts to on a group of one. */
static ptx_instr as_single_device(const ptx_instr *in)
{
    ptx_instr p = *in;
    switch (in->op) {
    case PTX_OP_MULTIMEM_LD_REDUCE: p.op = PTX_OP_LD; p.aop = 0; break;
    case PTX_OP_MULTIMEM_ST: p.op = PTX_OP_ST; break;
    default: p.op = PTX_OP_RED; break;
    }
    p.space = PTX_SPACE_GLOBAL;
    return p;
}

/* The single-device instruction and its handler, chosen once when the module loads. */
typedef struct multimem_form {
    ptx_instr single;
    emu_exec_fn exec;
} multimem_form;

static void x_multimem(emu_ctx *c, const emu_uop *u)
{
    const multimem_form *mf = u->form;
    emu_uop su = *u;   /* the same operands, read as the plain instruction's */
    su.in = &mf->single;
    mf->exec(c, &su);
}

emu_exec_fn emu_select_multimem(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (in->op != PTX_OP_MULTIMEM_LD_REDUCE && in->op != PTX_OP_MULTIMEM_ST &&
        in->op != PTX_OP_MULTIMEM_RED)
        return NULL;
    if (in->op != PTX_OP_MULTIMEM_ST && !in->aop) return NULL;
    multimem_form *mf = emu_code_alloc(code, sizeof *mf);
    if (!mf) return NULL;
    mf->single = as_single_device(in);
    emu_uop su = *u;
    su.in = &mf->single;
    mf->exec = emu_select_mem(code, &su);
    if (!mf->exec) return NULL;
    u->form = mf;
    return x_multimem;
}
