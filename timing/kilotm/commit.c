/* commit.c: a warp's commit (spec kilotm.md sections 3.4, 4 and 7), functionally: every lane
 * of the warp that reached tx_commit is resolved in one step, in lane order (the order of the
 * consecutive commit IDs the paper gives a warp's lanes), under one lock, so commits are
 * serialisable and atomic with respect to each other:
 *   - validation by value: each word of the lane's read-set must still hold the value the lane
 *     read; any difference is a conflict and the lane fails;
 *   - a lane that passes writes its write-set (only the bytes it wrote), and the lanes after it
 *     validate against memory with those writes in it: two lanes of one warp that conflict are
 *     resolved as the paper's hazard detection resolves consecutive commit IDs (the younger
 *     revalidates after the older retires, and fails).
 * Under --timing this still happens at the cycle the warp issues tx_commit (the model runs the
 * call at its cycle), so the commit order is the order of those cycles; the step is also kept
 * for the commit units (cycles.c), which charge its cycles to the warp.
 *
 * Forward progress (no livelock under any schedule). A lane fails only when some word of its
 * read-set changed between its read and its validation. Memory changes only by a committed
 * transaction's writes (a failed one writes nothing) or by a non-transactional store. So:
 *   (1) in a commit step the lowest resolving lane fails only if another warp's commit (or a
 *       non-transactional store) happened during its attempt: the lanes before it in the step
 *       did not commit (it is the lowest), and it read nothing they wrote;
 *   (2) hence, while no non-transactional store interferes, every commit step either commits
 *       at least one lane, or some other transaction committed since that lane began;
 * every abort is paid for by a commit, the number of transactions a launch runs is finite,
 * so the launch always advances: some transaction commits in every window in which any
 * aborts. A single thread may still starve (the paper's concurrency limit, --tm-warps, is the
 * remedy it offers); tests/suites/kilotm.sh runs every thread of a grid against one word. */
#include "timing/kilotm/kilotm.h"

#include <string.h>

bool kt_still_valid(const kt_lane *ln)
{
    for (uint32_t i = 0; i < ln->reads.n; i++) {
        const kt_entry *e = &ln->reads.v[i];
        if (__atomic_load_n((const uint32_t *)(uintptr_t)e->addr, __ATOMIC_ACQUIRE) != e->value)
            return false;
    }
    return true;
}

static void write_back(const kt_lane *ln)
{
    for (uint32_t i = 0; i < ln->writes.n; i++) {
        const kt_entry *e = &ln->writes.v[i];
        if (e->bytes == 0xf) {
            __atomic_store_n((uint32_t *)(uintptr_t)e->addr, e->value, __ATOMIC_RELEASE);
            continue;
        }
        uint8_t v[4];
        memcpy(v, &e->value, 4);
        for (uint32_t b = 0; b < 4; b++)
            if (e->bytes & (1u << b))
                __atomic_store_n((uint8_t *)(uintptr_t)(e->addr + b), v[b], __ATOMIC_RELEASE);
    }
}

uint32_t kt_commit(kt_policy *P, kt_warp *s, uint32_t lanes)
{
    uint32_t failed = 0;
    pthread_mutex_lock(&P->commit_lock);
    s->rec.lanes = s->rec.passed = s->rec.naddr = 0;
    for (uint32_t mk = lanes; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        kt_lane *ln = &s->lane[l];
        P->st.read_words += ln->reads.n;
        P->st.write_words += ln->writes.n;
        bool ok = kt_still_valid(ln);
        if (ok) {
            write_back(ln);
            P->st.committed++;
            kt_stats_committed(P, ln);
        } else {
            failed |= 1u << l;
            P->st.aborted++;
            ln->aborts++;
        }
        if ((P->timed || P->recorded) && !kt_rec_lane(s, l, ok))
            emu_warp_abort(s->w, EMU_FAULT_OUT_OF_RESOURCES,
                           "out of host memory for a KILO TM commit's record (cycle model)");
        ln->reads.n = 0;
        ln->writes.n = 0;
    }
    P->st.commit_steps++;
    pthread_mutex_unlock(&P->commit_lock);
    return failed;
}
