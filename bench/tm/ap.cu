// ap.cu: AP, Apriori-like itemset counting (KILO TM §5: RMS-TM's apriori_gen with one thread
// per record, transactions protecting candidate insertion and support counting): every record
// holds a few distinct items; each 2-itemset of a record is looked up in a chained hash table
// of candidates and counted, or inserted with count 1 when missing. The transactional and
// global-lock builds make the whole record one critical section (large read-sets: the walks
// of every chain the record touches); the fine-grained build takes one bucket's lock per
// itemset, the granularity locks allow. The check: every itemset is in the table exactly once
// with the count of a CPU pass over the records, and nothing else is.
// Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per bucket), -DSYNC_GL.
#include "sync.cuh"

#include <map>
#include <vector>

enum { BLOCKS = 4, THREADS = 128, N = BLOCKS * THREADS, ITEMS = 20, K = 5,
       PAIRS = K * (K - 1) / 2, BUCKETS = 64, EMPTY = 0xffffffffu };

struct Candidate {
    unsigned itemset, count, next;
};

// Record r's items: K distinct ones, increasing.
__host__ __device__ inline void record(unsigned r, unsigned *items)
{
    unsigned taken = 0;
    for (int k = 0; k < K; k++) {
        unsigned i = mix(r * K + k) % ITEMS;
        while (taken & (1u << i)) i = (i + 1) % ITEMS;
        taken |= 1u << i;
    }
    for (unsigned i = 0, k = 0; i < ITEMS; i++)
        if (taken & (1u << i)) items[k++] = i;
}

__device__ void count_itemset(unsigned *heads, Candidate *pool, unsigned itemset, unsigned fresh)
{
    unsigned b = mix(itemset) % BUCKETS, c = ld(&heads[b]);
    while (c != EMPTY && ld(&pool[c].itemset) != itemset) c = ld(&pool[c].next);
    if (c != EMPTY) {
        st(&pool[c].count, ld(&pool[c].count) + 1);
    } else {
        st(&pool[fresh].itemset, itemset);
        st(&pool[fresh].count, 1u);
        st(&pool[fresh].next, ld(&heads[b]));
        st(&heads[b], fresh);
    }
}

__global__ void count(unsigned *heads, Candidate *pool, unsigned *locks)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, items[K];
    record(r, items);
#if defined(SYNC_FGL)
    for (int a = 0, p = 0; a < K; a++)
        for (int b = a + 1; b < K; b++, p++) {
            unsigned itemset = items[a] * ITEMS + items[b], bucket = mix(itemset) % BUCKETS;
            critical(locks, bucket, bucket,
                     [&] { count_itemset(heads, pool, itemset, r * PAIRS + p); });
        }
#else
    critical(locks, 0, 0, [&] {
        for (int a = 0, p = 0; a < K; a++)
            for (int b = a + 1; b < K; b++, p++)
                count_itemset(heads, pool, items[a] * ITEMS + items[b], r * PAIRS + p);
    });
#endif
}

int main()
{
    unsigned *heads;
    Candidate *pool;
    CUDA_OK(cudaMalloc(&heads, BUCKETS * sizeof(unsigned)));
    CUDA_OK(cudaMemset(heads, 0xff, BUCKETS * sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&pool, N * PAIRS * sizeof(Candidate)));
    unsigned *locks = make_locks(BUCKETS);
    count<<<BLOCKS, THREADS>>>(heads, pool, locks);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned> h(BUCKETS);
    std::vector<Candidate> got(N * PAIRS);
    CUDA_OK(cudaMemcpy(h.data(), heads, BUCKETS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(got.data(), pool, N * PAIRS * sizeof(Candidate), cudaMemcpyDeviceToHost));

    std::map<unsigned, unsigned> want, seen;
    for (unsigned r = 0; r < N; r++) {
        unsigned items[K];
        record(r, items);
        for (int a = 0; a < K; a++)
            for (int b = a + 1; b < K; b++) want[items[a] * ITEMS + items[b]]++;
    }
    bool ok = true;
    unsigned bad = EMPTY;
    for (unsigned b = 0; b < BUCKETS && ok; b++) {
        unsigned steps = 0;
        for (unsigned c = h[b]; c != EMPTY && ok; c = got[c].next) {
            ok = c < N * PAIRS && steps++ < N * PAIRS && mix(got[c].itemset) % BUCKETS == b &&
                 seen.insert({got[c].itemset, got[c].count}).second;
            if (!ok) bad = c < N * PAIRS ? got[c].itemset : c;
        }
    }
    if (ok && seen != want) {
        ok = false;
        for (auto &w : want)
            if (seen.count(w.first) == 0 || seen[w.first] != w.second) {
                bad = w.first;
                break;
            }
    }
    report(ok, "ap", "itemset %u: counted %u, want %u (%zu itemsets in the table, want %zu)",
           bad, seen.count(bad) ? seen[bad] : 0, want.count(bad) ? want[bad] : 0, seen.size(),
           want.size());
    return bench_failures ? 1 : 0;
}
