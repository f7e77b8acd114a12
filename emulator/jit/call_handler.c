/* call_handler.c: a µop's handler called from compiled code, out of line.
 *
 * Compiled code runs a µop it does not translate, or a translated ld/st its fast path does
 * not take (a policy that is not the direct one, a lane out of bounds or misaligned, an
 * allocation the warp's cached entry does not hold), through the µop's handler as the
 * interpreter's loop runs it. Done inline, that call's setup and the ways out after it were
 * ~40 IR instructions per site, and a memory access's slow path came back through the next
 * µop's side entry (every cached row reloaded): half of a scan block's IR. Here the setup and
 * the call are one function: compiled code calls it with the rows stored, and goes on after
 * a memory access when the handler neither stopped nor moved control (translate.c,
 * emit_slow_access), or leaves through the function's one slow_out block (a stop, a fault, a
 * jump: after a branch, a barrier or any µop that ends its block). */
#include "emulator/jit/jit_internal.h"

uint8_t emu_jit_call_handler(emu_ctx *c, const emu_uop *u, uint32_t pc, uint32_t mask)
{
    c->mask = mask;
    c->pc = pc;
    c->next_pc = pc + 1;
    c->control = false;
    c->u = u;
    /* handlers that look at or rewrite the stack see their own pc on top (interp/run.c) */
    if (u->flags & (EMU_UOP_CONTROL | EMU_UOP_MAY_STOP)) c->w->stack[c->w->sp - 1].pc = pc;
    if (mask) u->exec(c, u);
    return c->stop < 0 && !c->control && c->next_pc == pc + 1;
}
