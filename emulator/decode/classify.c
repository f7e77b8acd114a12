/* classify.c: each instruction's op class (the functional unit the timing model issues it to,
 * the instruction-mix statistics) and its flags (may it stop the warp, fault, touch memory,
 * change control flow; is it a spin loop's back-edge). */
#include "emulator/decode/decode_internal.h"
#include "emulator/sem/sem.h"

#include <stdlib.h>

static const char *const class_names[EMU_CLS_COUNT] = {
    [EMU_CLS_INT] = "int", [EMU_CLS_INT_MUL] = "int_mul", [EMU_CLS_FP32] = "fp32",
    [EMU_CLS_FP64] = "fp64", [EMU_CLS_FP16] = "fp16", [EMU_CLS_SFU] = "sfu",
    [EMU_CLS_CONV] = "conv", [EMU_CLS_MOVE] = "move", [EMU_CLS_LD_GLOBAL] = "ld.global",
    [EMU_CLS_LD_SHARED] = "ld.shared", [EMU_CLS_LD_LOCAL] = "ld.local",
    [EMU_CLS_LD_PARAM] = "ld.param", [EMU_CLS_LD_CONST] = "ld.const",
    [EMU_CLS_LD_GENERIC] = "ld.generic", [EMU_CLS_ST_GLOBAL] = "st.global",
    [EMU_CLS_ST_SHARED] = "st.shared", [EMU_CLS_ST_LOCAL] = "st.local",
    [EMU_CLS_ST_GENERIC] = "st.generic", [EMU_CLS_ATOMIC] = "atomic",
    [EMU_CLS_ATOMIC_SHARED] = "atomic.shared", [EMU_CLS_FENCE] = "fence",
    [EMU_CLS_BRANCH] = "branch", [EMU_CLS_CALL] = "call", [EMU_CLS_BARRIER] = "barrier",
    [EMU_CLS_WARP] = "warp", [EMU_CLS_TENSOR] = "tensor", [EMU_CLS_TENSOR_MEM] = "tensor_mem",
    [EMU_CLS_TEX] = "tex", [EMU_CLS_SURF] = "surf", [EMU_CLS_ASYNC] = "async",
    [EMU_CLS_MISC] = "misc",
};

const char *emu_op_class_name(emu_op_class c)
{
    return (unsigned)c < EMU_CLS_COUNT ? class_names[c] : "?";
}

/* The arithmetic class of a type: which pipeline computes it. */
static uint8_t arith_class(uint8_t t, bool multiply)
{
    switch (t) {
    case PTX_TYPE_F32: case PTX_TYPE_TF32: return EMU_CLS_FP32;
    case PTX_TYPE_F64: return EMU_CLS_FP64;
    case PTX_TYPE_F16: case PTX_TYPE_F16X2: case PTX_TYPE_BF16: case PTX_TYPE_BF16X2:
        return EMU_CLS_FP16;
    default: return multiply ? EMU_CLS_INT_MUL : EMU_CLS_INT;
    }
}

static uint8_t ld_class(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_GLOBAL: return EMU_CLS_LD_GLOBAL;
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return EMU_CLS_LD_SHARED;
    case PTX_SPACE_LOCAL: return EMU_CLS_LD_LOCAL;
    case PTX_SPACE_PARAM: return EMU_CLS_LD_PARAM;
    case PTX_SPACE_CONST: return EMU_CLS_LD_CONST;
    default: return EMU_CLS_LD_GENERIC;
    }
}

static uint8_t st_class(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_GLOBAL: return EMU_CLS_ST_GLOBAL;
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return EMU_CLS_ST_SHARED;
    case PTX_SPACE_LOCAL: case PTX_SPACE_PARAM: return EMU_CLS_ST_LOCAL;
    default: return EMU_CLS_ST_GENERIC;
    }
}

static bool is_video(uint16_t op)
{
    return (op >= PTX_OP_VADD && op <= PTX_OP_VSET) || (op >= PTX_OP_VADD2 && op <= PTX_OP_VSET4);
}

static uint8_t op_class(const ptx_instr *in)
{
    uint8_t t = in->ntypes ? in->types[0] : PTX_TYPE_NONE;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_ABS:
    case PTX_OP_NEG: case PTX_OP_TESTP: case PTX_OP_COPYSIGN:
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SLCT:
        return arith_class(t, false);
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
        return arith_class(t, true);
    case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_REM: case PTX_OP_MADC:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return EMU_CLS_INT_MUL;
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT:
        return t == PTX_TYPE_F64 ? EMU_CLS_FP64 : EMU_CLS_SFU;
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return EMU_CLS_SFU;
    case PTX_OP_MOV: case PTX_OP_SELP: case PTX_OP_PRMT:
        return EMU_CLS_MOVE;
    case PTX_OP_CVT: case PTX_OP_CVTA: case PTX_OP_ISSPACEP: case PTX_OP_MAPA:
    case PTX_OP_GETCTARANK:
        return EMU_CLS_CONV;
    case PTX_OP_LD: case PTX_OP_LDU: return ld_class(in->space);
    case PTX_OP_ST: return st_class(in->space);
    case PTX_OP_ATOM: case PTX_OP_RED:
        return in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_SHARED_CLUSTER
                   ? EMU_CLS_ATOMIC_SHARED : EMU_CLS_ATOMIC;
    case PTX_OP_MULTIMEM_LD_REDUCE: return EMU_CLS_LD_GLOBAL;
    case PTX_OP_MULTIMEM_ST: return EMU_CLS_ST_GLOBAL;
    case PTX_OP_MULTIMEM_RED: return EMU_CLS_ATOMIC;
    case PTX_OP_FENCE: case PTX_OP_MEMBAR: return EMU_CLS_FENCE;
    case PTX_OP_BRA: case PTX_OP_BRX_IDX: return EMU_CLS_BRANCH;
    case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: return EMU_CLS_CALL;
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_BAR_WARP_SYNC: return EMU_CLS_BARRIER;
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_ACTIVEMASK:
    case PTX_OP_REDUX: case PTX_OP_ELECT:
        return EMU_CLS_WARP;
    case PTX_OP_MMA: case PTX_OP_WMMA_MMA: case PTX_OP_WGMMA_MMA_ASYNC: case PTX_OP_TCGEN05_MMA:
        return EMU_CLS_TENSOR;
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX:
    case PTX_OP_MOVMATRIX:
        return EMU_CLS_TENSOR_MEM;
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_TXQ: case PTX_OP_ISTYPEP:
        return EMU_CLS_TEX;
    case PTX_OP_SULD: case PTX_OP_SUST: case PTX_OP_SURED: case PTX_OP_SUQ:
        return EMU_CLS_SURF;
    case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_GROUP:
    case PTX_OP_CP_ASYNC_WAIT_ALL: case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
    case PTX_OP_CP_ASYNC_BULK: case PTX_OP_CP_REDUCE_ASYNC_BULK:
    case PTX_OP_CP_ASYNC_BULK_TENSOR: case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_PREFETCH: case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP: case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP:
    case PTX_OP_MBARRIER: case PTX_OP_TENSORMAP_REPLACE: case PTX_OP_TENSORMAP_CP_FENCEPROXY:
    case PTX_OP_ST_ASYNC: case PTX_OP_RED_ASYNC: case PTX_OP_ST_BULK:
        return EMU_CLS_ASYNC;
    default:
        if (is_video(in->op)) return EMU_CLS_INT;
        switch (in->op) {
        case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
        case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_POPC:
        case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_FNS: case PTX_OP_BREV: case PTX_OP_BFE:
        case PTX_OP_BFI: case PTX_OP_SZEXT: case PTX_OP_BMSK: case PTX_OP_ADDC: case PTX_OP_SUBC:
            return EMU_CLS_INT;
        default:
            return EMU_CLS_MISC;
        }
    }
}

/* An instruction through which a loop can wait for another thread. */
static bool waits_on_memory(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ATOM: case PTX_OP_NANOSLEEP: return true;
    case PTX_OP_MBARRIER: return in->mode == PTX_SFX_TEST_WAIT || in->mode == PTX_SFX_TRY_WAIT;
    case PTX_OP_LD: case PTX_OP_LDU:
        return (in->flags & PTX_F(VOLATILE)) || in->sem == PTX_SFX_RELAXED ||
               in->sem == PTX_SFX_ACQUIRE || in->sem == PTX_SFX_SC;
    default: return false;
    }
}

uint32_t *emu_memory_waits(const ptx_function *fn)
{
    uint32_t *waits = malloc(((size_t)fn->ninstrs + 1) * sizeof *waits);
    if (!waits) return NULL;
    waits[0] = 0;
    for (uint32_t i = 0; i < fn->ninstrs; i++)
        waits[i + 1] = waits[i] + waits_on_memory(&fn->instrs[i]);
    return waits;
}

/* A backward branch of a loop that waits on memory: only those may let waiting lanes of a
 * diverged warp run ahead (emu_simt_backedge); a loop that only computes keeps its warp's
 * reconvergence, so barriers after it see the whole warp. Constant time per branch (waits:
 * emu_memory_waits), so a function of many long loops decodes in linear time. */
static bool spin_backedge(const ptx_function *fn, const ptx_instr *in, const uint32_t *waits)
{
    if (in->op != PTX_OP_BRA || in->target < 0) return false;
    uint32_t self = (uint32_t)(in - fn->instrs);
    if ((uint32_t)in->target > self) return false;
    return waits[self + 1] > waits[in->target];
}

void emu_classify(const ptx_module *m, const ptx_function *fn, const ptx_instr *in,
                  const uint32_t *waits, emu_uop *u)
{
    (void)m;
    uint8_t cls = op_class(in);
    uint16_t f = 0;
    switch (cls) {
    case EMU_CLS_LD_GLOBAL: case EMU_CLS_LD_SHARED: case EMU_CLS_LD_LOCAL: case EMU_CLS_LD_PARAM:
    case EMU_CLS_LD_CONST: case EMU_CLS_LD_GENERIC: case EMU_CLS_TEX: case EMU_CLS_TENSOR_MEM:
        f |= EMU_UOP_MEMORY | EMU_UOP_MAY_FAULT | EMU_UOP_MAY_STOP;
        break;
    case EMU_CLS_ST_GLOBAL: case EMU_CLS_ST_SHARED: case EMU_CLS_ST_LOCAL: case EMU_CLS_ST_GENERIC:
    case EMU_CLS_ATOMIC: case EMU_CLS_ATOMIC_SHARED: case EMU_CLS_SURF: case EMU_CLS_ASYNC:
        f |= EMU_UOP_MEMORY | EMU_UOP_MAY_FAULT | EMU_UOP_MAY_STOP | EMU_UOP_SIDE_EFFECT;
        break;
    case EMU_CLS_FENCE:
        f |= EMU_UOP_MAY_STOP | EMU_UOP_SIDE_EFFECT;
        break;
    case EMU_CLS_BRANCH:
        f |= EMU_UOP_CONTROL | EMU_UOP_MAY_FAULT;
        break;
    case EMU_CLS_CALL:
        f |= EMU_UOP_CONTROL | EMU_UOP_MAY_FAULT | EMU_UOP_MAY_STOP;
        if (in->op == PTX_OP_CALL) f |= EMU_UOP_SIDE_EFFECT;
        break;
    case EMU_CLS_BARRIER:
        /* completing a barrier releases waiting paths of this warp too (their SIMT entries
         * merge), so every barrier form ends the executor's view of the stack */
        f |= EMU_UOP_CONTROL | EMU_UOP_MAY_FAULT | EMU_UOP_MAY_STOP;
        break;
    case EMU_CLS_TENSOR:
        f |= EMU_UOP_MAY_FAULT;
        break;
    default:
        break;
    }
    switch (in->op) {
    case PTX_OP_TRAP: case PTX_OP_BRKPT:
        f |= EMU_UOP_MAY_FAULT | EMU_UOP_SIDE_EFFECT;
        break;
    case PTX_OP_NANOSLEEP:
        f |= EMU_UOP_MAY_STOP;
        break;
    case PTX_OP_WMMA_STORE: case PTX_OP_STMATRIX:
        f |= EMU_UOP_SIDE_EFFECT;
        break;
    default:
        break;
    }
    if (spin_backedge(fn, in, waits)) f |= EMU_UOP_SPIN_BACKEDGE;
    u->cls = cls;
    u->flags |= f;
}
