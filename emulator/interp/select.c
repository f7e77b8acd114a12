/* select.c: the interpreter's handler for each µop, from a table keyed by opcode.
 *
 * Each opcode lists the handler families that implement some of its forms, most specialised
 * first: a family's selector returns a handler for the forms it has, or NULL to let the next
 * one try. Each family specialises its commonest plain forms itself (a full-warp loop over
 * registers of the instruction's width, chosen at load time); the families go by type (packed
 * u16x2/s16x2, half, float, then integer). An instruction whose families all decline is unsupported and rejected when its module loads. */
#include "emulator/emu_internal.h"

typedef emu_exec_fn (*family_selector)(emu_code *code, emu_uop *u);

#define MAX_FAMILIES 5
#define F(...) { __VA_ARGS__ }

static const family_selector families[PTX_OP_COUNT][MAX_FAMILIES] = {
    /* arithmetic: specialisation, then by type */
    [PTX_OP_ADD] = F(emu_select_simd, emu_select_half, emu_select_float,
                     emu_select_int),
    [PTX_OP_SUB] = F(emu_select_simd, emu_select_half, emu_select_float,
                     emu_select_int),
    [PTX_OP_MIN] = F(emu_select_simd, emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_MAX] = F(emu_select_simd, emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_MUL] = F(emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_MAD] = F(emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_FMA] = F(emu_select_half, emu_select_float),
    [PTX_OP_ABS] = F(emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_NEG] = F(emu_select_half, emu_select_float, emu_select_int),
    [PTX_OP_DIV] = F(emu_select_float, emu_select_int),
    [PTX_OP_AND] = F(emu_select_int),
    [PTX_OP_OR] = F(emu_select_int),
    [PTX_OP_XOR] = F(emu_select_int),
    [PTX_OP_SHL] = F(emu_select_int),
    [PTX_OP_SHR] = F(emu_select_int),
    /* integer only */
    [PTX_OP_ADDC] = F(emu_select_int), [PTX_OP_SUBC] = F(emu_select_int),
    [PTX_OP_MADC] = F(emu_select_int), [PTX_OP_MUL24] = F(emu_select_int),
    [PTX_OP_MAD24] = F(emu_select_int), [PTX_OP_SAD] = F(emu_select_int),
    [PTX_OP_REM] = F(emu_select_int), [PTX_OP_POPC] = F(emu_select_int),
    [PTX_OP_CLZ] = F(emu_select_int), [PTX_OP_BFIND] = F(emu_select_int),
    [PTX_OP_FNS] = F(emu_select_int), [PTX_OP_BREV] = F(emu_select_int),
    [PTX_OP_BFE] = F(emu_select_int), [PTX_OP_BFI] = F(emu_select_int),
    [PTX_OP_SZEXT] = F(emu_select_int), [PTX_OP_BMSK] = F(emu_select_int),
    [PTX_OP_DP4A] = F(emu_select_int), [PTX_OP_DP2A] = F(emu_select_int),
    [PTX_OP_NOT] = F(emu_select_int), [PTX_OP_CNOT] = F(emu_select_int),
    [PTX_OP_LOP3] = F(emu_select_int), [PTX_OP_SHF] = F(emu_select_int),
    [PTX_OP_PRMT] = F(emu_select_int),
    /* floating point only */
    [PTX_OP_TESTP] = F(emu_select_float), [PTX_OP_COPYSIGN] = F(emu_select_float),
    [PTX_OP_RCP] = F(emu_select_float), [PTX_OP_SQRT] = F(emu_select_float),
    [PTX_OP_RSQRT] = F(emu_select_float), [PTX_OP_SIN] = F(emu_select_float),
    [PTX_OP_COS] = F(emu_select_float), [PTX_OP_LG2] = F(emu_select_float),
    [PTX_OP_EX2] = F(emu_select_float), [PTX_OP_TANH] = F(emu_select_float),
    /* comparison and selection */
    [PTX_OP_SETP] = F(emu_select_cmp),
    [PTX_OP_SELP] = F(emu_select_cmp),
    [PTX_OP_SET] = F(emu_select_cmp), [PTX_OP_SLCT] = F(emu_select_cmp),
    /* data movement and conversion */
    [PTX_OP_MOV] = F(emu_select_cvt),
    [PTX_OP_CVT] = F(emu_select_cvt),
    [PTX_OP_CVTA] = F(emu_select_cvt), [PTX_OP_ISSPACEP] = F(emu_select_cvt),
    [PTX_OP_MAPA] = F(emu_select_cvt), [PTX_OP_GETCTARANK] = F(emu_select_cvt),
    /* memory */
    [PTX_OP_LD] = F(emu_select_mem), [PTX_OP_LDU] = F(emu_select_mem),
    [PTX_OP_ST] = F(emu_select_mem), [PTX_OP_ATOM] = F(emu_select_mem),
    [PTX_OP_RED] = F(emu_select_mem), [PTX_OP_FENCE] = F(emu_select_mem),
    [PTX_OP_MEMBAR] = F(emu_select_mem), [PTX_OP_PREFETCH] = F(emu_select_mem),
    [PTX_OP_PREFETCHU] = F(emu_select_mem), [PTX_OP_APPLYPRIORITY] = F(emu_select_mem),
    [PTX_OP_DISCARD] = F(emu_select_mem), [PTX_OP_CREATEPOLICY] = F(emu_select_mem),
    [PTX_OP_MBARRIER] = F(emu_select_mbarrier), [PTX_OP_CP_ASYNC] = F(emu_select_mem),
    [PTX_OP_CP_ASYNC_COMMIT_GROUP] = F(emu_select_mem),
    [PTX_OP_CP_ASYNC_WAIT_GROUP] = F(emu_select_mem),
    [PTX_OP_CP_ASYNC_WAIT_ALL] = F(emu_select_mem),
    [PTX_OP_CP_ASYNC_MBARRIER_ARRIVE] = F(emu_select_mbarrier),
    [PTX_OP_MULTIMEM_LD_REDUCE] = F(emu_select_multimem),
    [PTX_OP_MULTIMEM_ST] = F(emu_select_multimem),
    [PTX_OP_MULTIMEM_RED] = F(emu_select_multimem),
    /* bulk and tensor copies */
    [PTX_OP_CP_ASYNC_BULK] = F(emu_select_async),
    [PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP] = F(emu_select_async),
    [PTX_OP_CP_ASYNC_BULK_WAIT_GROUP] = F(emu_select_async),
    [PTX_OP_CP_ASYNC_BULK_PREFETCH] = F(emu_select_async),
    [PTX_OP_CP_ASYNC_BULK_TENSOR] = F(emu_select_tensor),
    [PTX_OP_CP_REDUCE_ASYNC_BULK] = F(emu_select_tensor),
    [PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR] = F(emu_select_tensor),
    [PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR] = F(emu_select_tensor),
    [PTX_OP_TENSORMAP_CP_FENCEPROXY] = F(emu_select_tensor),
    /* textures and surfaces */
    [PTX_OP_TEX] = F(emu_select_tex), [PTX_OP_TLD4] = F(emu_select_tex),
    [PTX_OP_TXQ] = F(emu_select_tex), [PTX_OP_ISTYPEP] = F(emu_select_tex),
    [PTX_OP_SULD] = F(emu_select_tex), [PTX_OP_SUST] = F(emu_select_tex),
    [PTX_OP_SURED] = F(emu_select_tex), [PTX_OP_SUQ] = F(emu_select_tex),
    /* control flow, barriers, hints */
    [PTX_OP_BRA] = F(emu_select_control), [PTX_OP_BRX_IDX] = F(emu_select_control),
    [PTX_OP_CALL] = F(emu_select_control), [PTX_OP_RET] = F(emu_select_control),
    [PTX_OP_EXIT] = F(emu_select_control), [PTX_OP_BAR] = F(emu_select_control),
    [PTX_OP_BARRIER] = F(emu_select_control), [PTX_OP_BAR_WARP_SYNC] = F(emu_select_control),
    [PTX_OP_TRAP] = F(emu_select_control), [PTX_OP_BRKPT] = F(emu_select_control),
    [PTX_OP_NANOSLEEP] = F(emu_select_control), [PTX_OP_PMEVENT] = F(emu_select_control),
    [PTX_OP_SETMAXNREG] = F(emu_select_control),
    [PTX_OP_GRIDDEPCONTROL] = F(emu_select_control),
    /* warp-level operations */
    [PTX_OP_SHFL] = F(emu_select_warp), [PTX_OP_VOTE] = F(emu_select_warp),
    [PTX_OP_MATCH] = F(emu_select_warp), [PTX_OP_ACTIVEMASK] = F(emu_select_warp),
    [PTX_OP_REDUX] = F(emu_select_warp), [PTX_OP_ELECT] = F(emu_select_warp),
    /* matrix operations */
    [PTX_OP_WMMA_LOAD] = F(emu_select_wmma), [PTX_OP_WMMA_STORE] = F(emu_select_wmma),
    [PTX_OP_WMMA_MMA] = F(emu_select_wmma), [PTX_OP_MMA] = F(emu_select_mma),
    [PTX_OP_LDMATRIX] = F(emu_select_mma), [PTX_OP_STMATRIX] = F(emu_select_mma),
    [PTX_OP_MOVMATRIX] = F(emu_select_mma),
    /* video (SIMD) instructions */
    [PTX_OP_VADD] = F(emu_select_video), [PTX_OP_VSUB] = F(emu_select_video),
    [PTX_OP_VABSDIFF] = F(emu_select_video), [PTX_OP_VMIN] = F(emu_select_video),
    [PTX_OP_VMAX] = F(emu_select_video), [PTX_OP_VSHL] = F(emu_select_video),
    [PTX_OP_VSHR] = F(emu_select_video), [PTX_OP_VMAD] = F(emu_select_video),
    [PTX_OP_VSET] = F(emu_select_video), [PTX_OP_VADD2] = F(emu_select_video),
    [PTX_OP_VSUB2] = F(emu_select_video), [PTX_OP_VAVRG2] = F(emu_select_video),
    [PTX_OP_VABSDIFF2] = F(emu_select_video), [PTX_OP_VMIN2] = F(emu_select_video),
    [PTX_OP_VMAX2] = F(emu_select_video), [PTX_OP_VSET2] = F(emu_select_video),
    [PTX_OP_VADD4] = F(emu_select_video), [PTX_OP_VSUB4] = F(emu_select_video),
    [PTX_OP_VAVRG4] = F(emu_select_video), [PTX_OP_VABSDIFF4] = F(emu_select_video),
    [PTX_OP_VMIN4] = F(emu_select_video), [PTX_OP_VMAX4] = F(emu_select_video),
    [PTX_OP_VSET4] = F(emu_select_video),
};

emu_exec_fn emu_interp_handler(emu_code *code, emu_uop *u)
{
    if (u->flags & EMU_UOP_CONTRACTED) return emu_exec_fma_contracted;
    if (u->op >= PTX_OP_COUNT) return NULL;
    const family_selector *list = families[u->op];
    for (int i = 0; i < MAX_FAMILIES && list[i]; i++) {
        emu_exec_fn f = list[i](code, u);
        if (f) return f;
    }
    return NULL;
}
