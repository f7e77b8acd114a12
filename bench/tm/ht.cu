// ht.cu: HT-H and HT-L (KILO TM §5): every thread inserts one key into a chained hash table,
// each bucket a linked list; one insert is one critical section (read the bucket's head, write
// the new node's fields and the new head). `ht high` has few buckets (high contention), `ht low`
// many. The node of thread t is node t; the check walks every bucket and compares its keys,
// as a multiset, with a CPU insert of the same keys (list order depends on the schedule).
// Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per bucket), -DSYNC_GL.
#include "sync.cuh"

#include <algorithm>
#include <cstring>
#include <vector>

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS, EMPTY = 0xffffffffu };

struct Node {
    unsigned key, value, next;
};

__global__ void insert(unsigned *heads, Node *nodes, unsigned *locks, unsigned buckets)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned key = mix(t + 1), b = key % buckets;
    critical(locks, b, b, [&] {
        unsigned head = ld(&heads[b]);
        st(&nodes[t].key, key);
        st(&nodes[t].value, t);
        st(&nodes[t].next, head);
        st(&heads[b], t);
    });
}

int main(int argc, char **argv)
{
    bool high = argc > 1 && strcmp(argv[1], "high") == 0;
    unsigned buckets = high ? 32 : 4096;
    const char *name = high ? "ht_h" : "ht_l";

    unsigned *heads;
    Node *nodes;
    CUDA_OK(cudaMalloc(&heads, buckets * sizeof(unsigned)));
    CUDA_OK(cudaMemset(heads, 0xff, buckets * sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&nodes, N * sizeof(Node)));
    unsigned *locks = make_locks(buckets);
    insert<<<BLOCKS, THREADS>>>(heads, nodes, locks, buckets);
    CUDA_OK(cudaDeviceSynchronize());

    std::vector<unsigned> h(buckets);
    std::vector<Node> nd(N);
    CUDA_OK(cudaMemcpy(h.data(), heads, buckets * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(nd.data(), nodes, N * sizeof(Node), cudaMemcpyDeviceToHost));

    std::vector<std::vector<unsigned>> want(buckets);
    for (unsigned t = 0; t < N; t++) want[mix(t + 1) % buckets].push_back(mix(t + 1));
    unsigned bad = buckets, seen = 0;
    for (unsigned b = 0; b < buckets && bad == buckets; b++) {
        std::vector<unsigned> got;
        for (unsigned i = h[b]; i != EMPTY && got.size() <= N; i = nd[i].next) {
            if (i >= N || nd[i].value != i) break;
            got.push_back(nd[i].key);
        }
        std::sort(got.begin(), got.end());
        std::sort(want[b].begin(), want[b].end());
        seen += (unsigned)got.size();
        if (got != want[b]) bad = b;
    }
    report(bad == buckets && seen == N, name,
           "bucket %u holds other keys than the CPU insert (%u of %u keys found before it)",
           bad, seen, N);
    return bench_failures ? 1 : 0;
}
