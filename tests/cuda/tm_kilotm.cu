// tm_kilotm.cu: transactions under --tm=kilotm (KILO TM): threads update shared data between
// tx_begin() and tx_commit() with plain loads and stores, and every result is compared with a
// CPU reference. Counters contended within a warp and across warps lose no update; a bank
// transfer conserves money and gives each account its exact balance; a hash table with linear
// probing (a loop inside the transaction) holds every key with its exact count; byte counters
// (sub-word stores) and a thread's local array (restored when a transaction aborts) come out
// exact; every thread of the grid incrementing ONE word (the worst case for forward progress)
// finishes with the exact count; a transaction that reads a pair whose sum every writer keeps
// at zero never sees another sum (opacity: it would write out of bounds and fault if it did).
// `tm_kilotm --expect-lost` checks instead that the counters LOSE updates: the same
// binary without --tm (tests/suites/kilotm.sh runs both).
// nvcc: -Iinclude
// ptxsim: --tm=kilotm
// dab: skip --tm=kilotm is refused with --det=dab (commits would need their place in the flush order)
// checks: skip racecheck, initcheck and synccheck do not know transactions, so --tm=kilotm refuses them
// igpu: skip --tm=kilotm cannot be combined with --igpu yet (a restart inside a transaction is not built)
// native: skip transactions are ptxsim's extension (--tm=kilotm): on a GPU tx_begin/tx_commit do nothing
#include "check.cuh"
#include <ptxsim/kilotm.h>

#include <cstring>
#include <vector>

enum { NCOUNTERS = 8, ITERS = 4, ACCOUNTS = 64, TRANSFERS = 3, SLOTS = 512, KEYS = 97 };

__global__ void count(unsigned *counters, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int it = 0; it < iters; it++) {
        tx_begin();
        counters[(t + it) % NCOUNTERS] += 1;
        tx_commit();
    }
}

__host__ __device__ unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

__global__ void transfer(int *balance)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < TRANSFERS; k++) {
        unsigned from = mix(t * 3 + k) % ACCOUNTS, to = mix(t * 7 + k + 1) % ACCOUNTS;
        int amount = (int)(mix(t + 11 * k) % 50);
        tx_begin();
        balance[from] -= amount;
        balance[to] += amount;
        tx_commit();
    }
}

// Open addressing, key 0 = empty: finds the key's slot (or claims an empty one) and counts.
__global__ void insert(unsigned *keys, unsigned *counts)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned key = 1 + mix(t) % KEYS;
    tx_begin();
    unsigned s = mix(key) % SLOTS;
    while (keys[s] != 0 && keys[s] != key) s = (s + 1) % SLOTS;
    keys[s] = key;
    counts[s] += 1;
    tx_commit();
}

__global__ void bytes(unsigned char *c)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    tx_begin();
    c[t % 16] += 1;
    tx_commit();
}

// A local array written inside the transaction: a retried transaction must start from the
// array as it was at tx_begin.
__global__ void local_state(unsigned *shared_word, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned buf[4] = {t, t, t, t};
    tx_begin();
    unsigned v = *shared_word;
    buf[t % 4] += 1;
    *shared_word = v + 1;
    tx_commit();
    out[t] = buf[0] + buf[1] + buf[2] + buf[3];
}

// Every thread against one word: each commit step of a warp commits its lowest lane unless
// another warp committed meanwhile (timing/kilotm/commit.c), so this ends.
__global__ void hammer(unsigned *word, int iters)
{
    for (int it = 0; it < iters; it++) {
        tx_begin();
        *word = *word + 1;
        tx_commit();
    }
}

// Writers move one unit between the words of a pair, again and again; readers read the pair
// with a long computation between the two reads (other warps commit meanwhile) and must see
// sum zero every time.
__global__ void opacity(int *pair, int *out, int spin, int rounds)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = t;
    for (int r = 0; r < rounds; r++) {
        if (t % 2 == 0) {
            tx_begin();
            int a = pair[0], b = pair[1];
            pair[0] = a + 1;
            pair[1] = b - 1;
            tx_commit();
            for (int i = 0; i < spin / 4; i++) x = x * 1664525u + 1013904223u;
        } else {
            tx_begin();
            int a = pair[0];
            for (int i = 0; i < spin; i++) x = x * 1664525u + 1013904223u;
            asm volatile("" : "+r"(x) :: "memory");   // the second read stays after the loop
            int b = pair[1];
            // a stale pair would send this store far out of bounds: a fault
            out[t + (a + b != 0 ? (1u << 28) : 0u)] = (int)(x & 1) + a + b;
            tx_commit();
        }
    }
}

// Nested transactions are flattened: the inner pair does nothing of its own.
__global__ void nested(unsigned *a, unsigned *b)
{
    tx_begin();
    unsigned x = *a;
    tx_begin();
    *b += 1;
    tx_commit();
    *a = x + 1;
    tx_commit();
}

int main(int argc, char **argv)
{
    bool expect_lost = argc > 1 && strcmp(argv[1], "--expect-lost") == 0;
    const int blocks = 4, threads = 96, n = blocks * threads;

    unsigned *dc;
    CUDA_OK("malloc", cudaMalloc(&dc, NCOUNTERS * sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dc, 0, NCOUNTERS * sizeof(unsigned)));
    count<<<blocks, threads>>>(dc, ITERS);
    CUDA_OK("count", cudaDeviceSynchronize());
    std::vector<unsigned> c(NCOUNTERS), want(NCOUNTERS, 0);
    CUDA_OK("copy", cudaMemcpy(c.data(), dc, NCOUNTERS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++)
        for (int it = 0; it < ITERS; it++) want[(t + it) % NCOUNTERS]++;
    unsigned got = 0, total = (unsigned)(n * ITERS);
    bool exact = true;
    for (int i = 0; i < NCOUNTERS; i++) {
        got += c[i];
        exact &= c[i] == want[i];
    }
    if (expect_lost) {
        check(got < total, "counters_lose_updates_without_tm",
              "the counters add up to %u of %u: no update was lost", got, total);
        return check_failures ? 1 : 0;
    }
    check(exact && got == total, "counters_no_lost_update", "the counters add up to %u of %u "
          "(counter 0: %u, want %u)", got, total, c[0], want[0]);

    std::vector<int> bal(ACCOUNTS, 1000), ref(ACCOUNTS, 1000);
    int *db;
    CUDA_OK("malloc", cudaMalloc(&db, ACCOUNTS * sizeof(int)));
    CUDA_OK("copy", cudaMemcpy(db, bal.data(), ACCOUNTS * sizeof(int), cudaMemcpyHostToDevice));
    transfer<<<blocks, threads>>>(db);
    CUDA_OK("transfer", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(bal.data(), db, ACCOUNTS * sizeof(int), cudaMemcpyDeviceToHost));
    for (unsigned t = 0; t < (unsigned)n; t++)
        for (int k = 0; k < TRANSFERS; k++) {
            unsigned from = mix(t * 3 + k) % ACCOUNTS, to = mix(t * 7 + k + 1) % ACCOUNTS;
            int amount = (int)(mix(t + 11 * k) % 50);
            ref[from] -= amount;
            ref[to] += amount;
        }
    long sum = 0;
    int bad = -1;
    for (int i = 0; i < ACCOUNTS; i++) {
        sum += bal[i];
        if (bal[i] != ref[i] && bad < 0) bad = i;
    }
    check(sum == 1000L * ACCOUNTS, "bank_money_conserved", "the accounts hold %ld, not %ld", sum,
          1000L * ACCOUNTS);
    check(bad < 0, "bank_balances_exact", "account %d holds %d, the CPU reference %d", bad,
          bad < 0 ? 0 : bal[bad], bad < 0 ? 0 : ref[bad]);

    unsigned *dk, *dn;
    CUDA_OK("malloc", cudaMalloc(&dk, SLOTS * sizeof(unsigned)));
    CUDA_OK("malloc", cudaMalloc(&dn, SLOTS * sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dk, 0, SLOTS * sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dn, 0, SLOTS * sizeof(unsigned)));
    insert<<<blocks, threads>>>(dk, dn);
    CUDA_OK("insert", cudaDeviceSynchronize());
    std::vector<unsigned> keys(SLOTS), counts(SLOTS), kref(KEYS + 1, 0), kgot(KEYS + 1, 0);
    CUDA_OK("copy", cudaMemcpy(keys.data(), dk, SLOTS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_OK("copy", cudaMemcpy(counts.data(), dn, SLOTS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned t = 0; t < (unsigned)n; t++) kref[1 + mix(t) % KEYS]++;
    bool once = true;
    for (int s = 0; s < SLOTS; s++) {
        if (!keys[s]) continue;
        if (keys[s] > KEYS || kgot[keys[s]]) once = false;   // a key in two slots
        else kgot[keys[s]] = counts[s];
    }
    check(once && kgot == kref, "hash_table_exact", "a key is missing, duplicated or miscounted");

    unsigned char *d8;
    CUDA_OK("malloc", cudaMalloc(&d8, 16));
    CUDA_OK("memset", cudaMemset(d8, 0, 16));
    bytes<<<1, 128>>>(d8);
    CUDA_OK("bytes", cudaDeviceSynchronize());
    unsigned char b8[16];
    CUDA_OK("copy", cudaMemcpy(b8, d8, 16, cudaMemcpyDeviceToHost));
    bool bytes_ok = true;
    for (int i = 0; i < 16; i++) bytes_ok &= b8[i] == 8;
    check(bytes_ok, "byte_counters_exact", "byte 0 holds %u, byte 1 %u (want 8)", b8[0], b8[1]);

    unsigned *dw, *dout;
    CUDA_OK("malloc", cudaMalloc(&dw, sizeof(unsigned)));
    CUDA_OK("malloc", cudaMalloc(&dout, n * sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dw, 0, sizeof(unsigned)));
    local_state<<<blocks, threads>>>(dw, dout);
    CUDA_OK("local_state", cudaDeviceSynchronize());
    std::vector<unsigned> out(n);
    unsigned w;
    CUDA_OK("copy", cudaMemcpy(out.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_OK("copy", cudaMemcpy(&w, dw, sizeof w, cudaMemcpyDeviceToHost));
    bool local_ok = true;
    for (int t = 0; t < n; t++) local_ok &= out[t] == 4u * (unsigned)t + 1;
    check(w == (unsigned)n && local_ok, "local_memory_restored_on_abort",
          "the shared word is %u (want %d); thread 1's local sum %u (want 5)", w, n, out[1]);

    unsigned *da, *dbb;
    CUDA_OK("malloc", cudaMalloc(&da, sizeof(unsigned)));
    CUDA_OK("malloc", cudaMalloc(&dbb, sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(da, 0, sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dbb, 0, sizeof(unsigned)));
    nested<<<2, 64>>>(da, dbb);
    CUDA_OK("nested", cudaDeviceSynchronize());
    unsigned a, bb;
    CUDA_OK("copy", cudaMemcpy(&a, da, sizeof a, cudaMemcpyDeviceToHost));
    CUDA_OK("copy", cudaMemcpy(&bb, dbb, sizeof bb, cudaMemcpyDeviceToHost));
    check(a == 128 && bb == 128, "nested_flattened", "a = %u, b = %u (want 128 each)", a, bb);

    int *dp, *dq;
    CUDA_OK("malloc", cudaMalloc(&dp, 2 * sizeof(int)));
    CUDA_OK("malloc", cudaMalloc(&dq, n * sizeof(int)));
    CUDA_OK("memset", cudaMemset(dp, 0, 2 * sizeof(int)));
    opacity<<<blocks, threads>>>(dp, dq, 200, 4);
    CUDA_OK("opacity", cudaDeviceSynchronize());
    int pr[2];
    CUDA_OK("copy", cudaMemcpy(pr, dp, sizeof pr, cudaMemcpyDeviceToHost));
    check(pr[0] == n / 2 * 4 && pr[1] == -n / 2 * 4, "opacity_consistent_reads",
          "the pair is (%d, %d), want (%d, %d)", pr[0], pr[1], n / 2 * 4, -n / 2 * 4);

    unsigned *dh, h;
    CUDA_OK("malloc", cudaMalloc(&dh, sizeof(unsigned)));
    CUDA_OK("memset", cudaMemset(dh, 0, sizeof(unsigned)));
    hammer<<<8, 128>>>(dh, 2);
    CUDA_OK("hammer", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(&h, dh, sizeof h, cudaMemcpyDeviceToHost));
    check(h == 8 * 128 * 2, "one_word_all_threads", "the word is %u, want %d", h, 8 * 128 * 2);
    return check_failures ? 1 : 0;
}
