/* serial.c: serial mode (spec gpudet.md S8). Every warp that stopped before a global atomic
 * (or a device printf/malloc/free) executes that one instruction, alone, after the quantum's
 * commit, so its own buffered stores are already visible. The order is fixed:
 * - CU-Ser (default): SMs in ascending order, each SM's warps by ascending warp slot;
 * - W-Ser: ascending hardware warp ID over the whole GPU (IDs interleave the SMs, so the two
 *   orders differ and give different, each deterministic, results).
 * Within a warp the lanes go in ascending order (emu_atomic_apply per lane, S3.4).
 * A KILO TM tx_begin that must take a concurrency slot waits here too (timing/kilotm/): when the
 * slots of its SM are all held it is deferred again and comes back at the next serial mode. */
#include "timing/gpudet/gpudet.h"

#include <stdlib.h>

static int cu_order(const void *a, const void *b)
{
    const gd_slot *x = *(gd_slot *const *)a, *y = *(gd_slot *const *)b;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    return x->local < y->local ? -1 : x->local > y->local ? 1 : 0;
}

static int warp_order(const void *a, const void *b)
{
    uint32_t x = (*(gd_slot *const *)a)->wid, y = (*(gd_slot *const *)b)->wid;
    return x < y ? -1 : x > y ? 1 : 0;
}

void gd_serial(gd_run *R, gd_exec *X)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < R->nactive; i++) {
        gd_wg *wg = R->active[i];
        for (uint32_t k = 0; k < R->W; k++)
            if (wg->warps[k].pending && wg->warps[k].w) R->serial[n++] = &wg->warps[k];
    }
    if (!n) return;
    qsort(R->serial, n, sizeof *R->serial,
          R->cfg->serial_order == TIMING_SERIAL_WARP ? warp_order : cu_order);
    X->serial = true;
    for (uint32_t i = 0; i < n; i++) {
        gd_slot *s = R->serial[i];
        uint8_t pending = s->pending;
        s->pending = GD_PEND_NONE;
        s->exec = X;
        emu_next_instr at, now;
        bool peeked = emu_warp_peek(s->w, &at);
        uint32_t lanes = emu_warp_path_lanes(s->w);
        emu_stop r = emu_warp_run(s->w, 1);
        s->exec = NULL;
        if (r == EMU_STOP_FAULT) R->failed = true;
        if (r == EMU_STOP_MEMORDER && peeked && emu_warp_peek(s->w, &now) && now.func == at.func &&
            now.pc == at.pc && now.depth == at.depth && (emu_warp_path_lanes(s->w) & lanes)) {
            /* a policy above GPUDet deferred it again (KILO TM's tx_begin found no concurrency
             * slot): it waits for the next quantum, and its instruction is counted when it runs.
             * (The same path: another path of the warp may stand at the same instruction.) */
            X->deferred++;
            continue;
        }
        if (pending == GD_PEND_ATOMIC) X->st.serial_atomics++;
        else X->st.serial_calls++;
    }
    X->serial = false;
}
