/* address.c: generic addresses as the emulator's users see them (events carry them): which
 * space an address is in, through the one window rule of sem.h. */
#include "emulator/emu_internal.h"

uint8_t emu_address_space(uint64_t generic, uint64_t *offset)
{
    return sem_generic_space(generic, offset);
}
