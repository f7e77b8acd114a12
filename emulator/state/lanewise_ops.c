/* lanewise_ops.c: the instructions that read only the executing lanes' own registers, write
 * each executing lane's destination in full (through emu_put, or the JIT's masked stores), and
 * write no memory: the common arithmetic, moves, conversions, loads and branches. Both plans a
 * kernel gets at load rely on the list: which register rows a reused warp must zero
 * (entry_rows.c: these read no other lane's rows) and whether it can write shared memory
 * (shared_writes.c: these write none). */
#include "emulator/emu_internal.h"

bool emu_instr_lanewise(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24:
    case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS:
    case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_POPC: case PTX_OP_CLZ:
    case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_TESTP: case PTX_OP_COPYSIGN: case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
    case PTX_OP_TANH:
    case PTX_OP_SET: case PTX_OP_SETP: case PTX_OP_SELP: case PTX_OP_SLCT:
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR:
    case PTX_OP_MOV: case PTX_OP_PRMT: case PTX_OP_CVT: case PTX_OP_CVTA:
    case PTX_OP_LD: case PTX_OP_LDU:
    case PTX_OP_BRA: case PTX_OP_EXIT: case PTX_OP_RET:
        return true;
    default:
        return false;
    }
}
