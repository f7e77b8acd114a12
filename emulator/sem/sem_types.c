/* sem_types.c: the bit width and kind of every PTX type, from the frontend's type list. */
#include "emulator/sem/sem.h"

const uint8_t emu_type_bits[PTX_TYPE_COUNT] = {
    0,
#define X(id, text, bits, kind) bits,
#include "frontend/ptx_types.def"
#undef X
};

const uint8_t emu_type_kind[PTX_TYPE_COUNT] = {
    EMU_TK_NONE,
#define X(id, text, bits, kind) EMU_TK_##kind,
#include "frontend/ptx_types.def"
#undef X
};
