/* sem_warp.c: the warp-level rules that look at every lane's value at once (match, redux);
 * the per-lane ones (shuffle source lanes, votes, a reduction step, elect) are inline in sem.h.
 * A lane's result depends only on the values and its participating set, so lanes of one warp
 * executing the instruction for disjoint member sets (cooperative groups' tiles) each get
 * their own group's answer. */
#include "emulator/sem/sem.h"

uint32_t sem_warp_match_any(const uint64_t v[32], uint32_t members, unsigned lane)
{
    uint32_t same = 0;
    for (uint32_t mk = members; mk; mk &= mk - 1) {
        unsigned k = (unsigned)__builtin_ctz(mk);
        if (v[k] == v[lane]) same |= 1u << k;
    }
    return same;
}

uint32_t sem_warp_match_all(const uint64_t v[32], uint32_t members, unsigned lane, bool *all)
{
    *all = sem_warp_match_any(v, members, lane) == members;
    return *all ? members : 0;
}

uint32_t sem_warp_redux(int op, bool is_signed, const uint64_t v[32], uint32_t members)
{
    if (!members) return 0;
    uint32_t acc = (uint32_t)v[__builtin_ctz(members)];
    for (uint32_t mk = members & (members - 1); mk; mk &= mk - 1)
        acc = sem_warp_redux_step(op, is_signed, acc, (uint32_t)v[__builtin_ctz(mk)]);
    return acc;
}
