/* address.c: generic addresses as the emulator's users see them (events carry them): which
 * space an address is in, through the one window rule of sem.h. */
#include "emulator/emu_internal.h"

_Static_assert(EMU_WINDOW_SIZE == UINT64_C(1) << EMU_WINDOW_BITS &&
                   EMU_SHARED_WINDOW % EMU_WINDOW_SIZE == 0 && EMU_LOCAL_WINDOW % EMU_WINDOW_SIZE == 0 &&
                   EMU_PARAM_WINDOW % EMU_WINDOW_SIZE == 0,
               "emu.h: EMU_WINDOW_BITS says the windows are aligned blocks of that size");

uint8_t emu_address_space(uint64_t generic, uint64_t *offset)
{
    return sem_generic_space(generic, offset);
}
