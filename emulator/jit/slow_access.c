/* slow_access.c: the slow path of a translated memory access, out of line.
 *
 * A translated ld/st whose lanes the compiled fast path does not take (a policy that is not
 * the direct one, a lane out of bounds or misaligned, an allocation the warp's cached entry
 * does not hold) runs the µop's handler as the interpreter's loop runs it. Done inline, that
 * call's setup and the four ways out after it were ~40 IR instructions per access, and its
 * return came back through the next µop's side entry (every cached row reloaded): half of a
 * scan block's IR. Here the setup and the call are one function; compiled code calls it with
 * the rows stored and goes on after the access when the handler neither stopped nor moved
 * control (translate.c, emit_slow_access), or else leaves through the function's one
 * slow_out block. */
#include "emulator/jit/jit_internal.h"

uint8_t emu_jit_slow_access(emu_ctx *c, const emu_uop *u, uint32_t pc, uint32_t mask)
{
    c->mask = mask;
    c->pc = pc;
    c->next_pc = pc + 1;
    c->control = false;
    c->u = u;
    /* a µop that may stop leaves the SIMT top at itself (where the run resumes it) */
    if (u->flags & (EMU_UOP_CONTROL | EMU_UOP_MAY_STOP)) c->w->stack[c->w->sp - 1].pc = pc;
    if (mask) u->exec(c, u);
    return c->stop < 0 && !c->control && c->next_pc == pc + 1;
}
