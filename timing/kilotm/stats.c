/* stats.c: the statistics of the paper's Table 2 (spec kilotm.md section 9) that need more
 * than a count: how many times a transaction aborted before it committed, the sizes of the
 * committed read- and write-sets, and how many transactions ran at once (lanes between their
 * first tx_begin and their commit, retries included), per SM and in the whole GPU. The counts
 * themselves (committed, aborted, warp commits) are kept where they happen (commit.c,
 * policy.c). Maxima of concurrency depend on the schedule: exact with --threads=1 and a seed. */
#include "timing/kilotm/kilotm.h"

static void raise_to(uint64_t *max, uint64_t v)
{
    uint64_t cur = __atomic_load_n(max, __ATOMIC_RELAXED);
    while (v > cur &&
           !__atomic_compare_exchange_n(max, &cur, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

void kt_stats_concurrency(kt_policy *P, uint32_t sm, int n)
{
    uint32_t in_sm = __atomic_add_fetch(&P->tx_lanes[sm], (uint32_t)n, __ATOMIC_RELAXED);
    uint32_t all = __atomic_add_fetch(&P->tx_lanes_all, (uint32_t)n, __ATOMIC_RELAXED);
    if (n > 0) {
        raise_to(&P->st.max_concurrent_sm, in_sm);
        raise_to(&P->st.max_concurrent, all);
    }
}

void kt_stats_committed(kt_policy *P, const kt_lane *ln)
{
    P->st.committed_read_words += ln->reads.n;
    P->st.committed_write_words += ln->writes.n;
    if (ln->reads.n > P->st.max_read_words) P->st.max_read_words = ln->reads.n;
    if (ln->writes.n > P->st.max_write_words) P->st.max_write_words = ln->writes.n;
    if (ln->aborts > P->st.max_aborts) P->st.max_aborts = ln->aborts;
}
