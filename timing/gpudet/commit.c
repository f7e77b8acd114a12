/* commit.c: commit mode (spec gpudet.md S7) and its order.
 *
 * The contract (S7.1, S14.3): after commit every byte holds the value of the highest-priority
 * warp slot that wrote it in the quantum, priority being the lowest hardware warp ID, and
 * within that slot the newest write in program order. That equals applying the logs one after
 * another in descending warp ID, each oldest entry first, which is what every host thread does
 * here for the shares of the chunks it takes (gd_chunk_share): the shares are disjoint, so
 * the threads commit at once without locks, and a byte's result never depends on how many threads
 * there are. Going beyond the paper's one depth per 32-bit word, the rule holds per byte, so
 * byte stores commit deterministically too.
 */
#include "timing/gpudet/gpudet.h"

#include <stdlib.h>

static int by_wid_descending(const void *a, const void *b)
{
    uint32_t x = (*(gd_slot *const *)a)->wid, y = (*(gd_slot *const *)b)->wid;
    return x < y ? 1 : x > y ? -1 : 0;
}

bool gd_commit_order(gd_run *R)
{
    R->ncommit = 0;
    for (uint32_t i = 0; i < R->nactive; i++)
        for (uint32_t k = 0; k < R->W; k++) R->commit_order[R->ncommit++] = &R->active[i]->warps[k];
    qsort(R->commit_order, R->ncommit, sizeof *R->commit_order, by_wid_descending);
    return true;
}

void gd_commit(gd_run *R, uint32_t part, uint32_t nparts, gd_exec *X)
{
    for (uint32_t i = 0; i < R->ncommit; i++) {
        const gd_sb *sb = &R->commit_order[i]->sb;
        if (sb->n) X->st.sb_bytes += gd_sb_commit(sb, part, nparts);
    }
}
