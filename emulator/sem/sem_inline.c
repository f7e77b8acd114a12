/* sem_inline.c: the one external definition of each `inline` function of sem.h (C99's inline
 * model): handlers inline the header's definitions, and the JIT calls these by address. A
 * declaration with `extern` here is all a new inline function needs. */
#include "emulator/sem/sem.h"

/* generic-address windows */
extern uint8_t sem_generic_space(uint64_t v, uint64_t *offset);
extern uint64_t sem_generic_address(uint8_t sp, uint64_t offset);
extern uint64_t sem_strip_window(uint8_t sp, uint64_t v);

/* integer family */

/* comparison family */

/* warp family */
