/* warp_where.c: where an unfinished warp is, in words, for reports that name every warp of a
 * launch that had to be stopped (the engine's watchdog).
 *
 * The warp's position is the top path of its SIMT stack in the innermost call frame: the
 * instruction it runs next, or the barrier it waits at (a waiting path's pc is already past
 * the barrier instruction). The PTX line and, with -lineinfo or -G, the source line are
 * those of that instruction, named as fault reports name them.
 */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>

int emu_warp_where(const emu_warp *w, char *buf, size_t len)
{
    if (!w || w->state == EMU_WS_EXITED || !w->nframes || !w->sp) {
        if (len) buf[0] = 0;
        return 0;
    }
    const emu_cta *c = w->cta;
    const emu_grid *g = c->g;
    const emu_frame *fr = &w->frames[w->nframes - 1];
    const ptx_function *fn = fr->f->fn;
    const ptx_module *m = g->launch.module ? emu_module_ptx(g->launch.module) : NULL;
    const emu_simt *top = &w->stack[w->sp - 1];
    uint32_t pc = top->bar && top->pc > 0 ? top->pc - 1 : top->pc;
    const ptx_instr *in = pc < fn->ninstrs ? &fn->instrs[pc] : NULL;
    uint32_t paths = 0;
    for (uint32_t i = fr->stack_base; i < w->sp; i++)
        paths += w->stack[i].mask != 0;

    char *kn = ptx_demangle(g->launch.kernel->name);
    int n = snprintf(buf, len, "block (%u,%u,%u) warp %u (lanes 0x%08x): kernel %s",
                     c->ctaid.x, c->ctaid.y, c->ctaid.z, w->id, w->valid & ~w->exited,
                     kn ? kn : g->launch.kernel->name);
    free(kn);
    if (n >= 0 && (size_t)n < len && fn != g->launch.kernel) {
        char *fnn = ptx_demangle(fn->name);
        n += snprintf(buf + n, len - (size_t)n, " in function %s", fnn ? fnn : fn->name);
        free(fnn);
    }
    if (n >= 0 && (size_t)n < len) {
        if (in && in->dbg_line && m && in->dbg_file < m->nfiles && m->files[in->dbg_file])
            n += snprintf(buf + n, len - (size_t)n, " at PTX line %u (%s:%u)", in->line,
                          m->files[in->dbg_file], in->dbg_line);
        else if (in)
            n += snprintf(buf + n, len - (size_t)n, " at PTX line %u", in->line);
        else
            n += snprintf(buf + n, len - (size_t)n, " at its end");
    }
    if (n >= 0 && (size_t)n < len && top->bar == EMU_SIMT_WARP_SYNC)
        n += snprintf(buf + n, len - (size_t)n, ", waiting at bar.warp.sync");
    else if (n >= 0 && (size_t)n < len && top->bar)
        n += snprintf(buf + n, len - (size_t)n, ", waiting at barrier %u", top->bar - 1);
    if (n >= 0 && (size_t)n < len && paths > 1)
        n += snprintf(buf + n, len - (size_t)n, " (%u diverged paths)", paths);
    return n;
}
