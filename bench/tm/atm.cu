// atm.cu: ATM (KILO TM §5): threads move money between two accounts of an array of accounts
// (debit one, credit the other), several transfers each; one transfer is one critical section.
// Every final balance must equal a CPU run of the same transfers, and the total is conserved.
// Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per account, two per transfer
// taken in order), -DSYNC_GL.
#include "sync.cuh"

#include <vector>

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS, ACCOUNTS = 2048, TRANSFERS = 4 };

struct Account {
    int balance;
    unsigned transfers;   // how many transfers touched it
};

__global__ void transfer(Account *acc, unsigned *locks)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < TRANSFERS; k++) {
        unsigned from = mix(t * 5 + k) % ACCOUNTS, to = mix(t * 11 + k + 7) % ACCOUNTS;
        if (to == from) to = (to + 1) % ACCOUNTS;
        int amount = (int)(mix(t ^ (k << 20)) % 100);
        critical(locks, from, to, [&] {
            st(&acc[from].balance, ld(&acc[from].balance) - amount);
            st(&acc[to].balance, ld(&acc[to].balance) + amount);
            st(&acc[from].transfers, ld(&acc[from].transfers) + 1);
        });
    }
}

int main()
{
    std::vector<Account> a(ACCOUNTS), want(ACCOUNTS);
    for (unsigned i = 0; i < ACCOUNTS; i++) a[i] = want[i] = Account{(int)(mix(i) % 1000), 0};
    Account *d;
    CUDA_OK(cudaMalloc(&d, ACCOUNTS * sizeof(Account)));
    CUDA_OK(cudaMemcpy(d, a.data(), ACCOUNTS * sizeof(Account), cudaMemcpyHostToDevice));
    unsigned *locks = make_locks(ACCOUNTS);
    transfer<<<BLOCKS, THREADS>>>(d, locks);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(a.data(), d, ACCOUNTS * sizeof(Account), cudaMemcpyDeviceToHost));

    for (unsigned t = 0; t < N; t++)
        for (int k = 0; k < TRANSFERS; k++) {
            unsigned from = mix(t * 5 + k) % ACCOUNTS, to = mix(t * 11 + k + 7) % ACCOUNTS;
            if (to == from) to = (to + 1) % ACCOUNTS;
            int amount = (int)(mix(t ^ (k << 20)) % 100);
            want[from].balance -= amount;
            want[to].balance += amount;
            want[from].transfers++;
        }
    long sum = 0, want_sum = 0;
    unsigned bad = ACCOUNTS;
    for (unsigned i = 0; i < ACCOUNTS; i++) {
        sum += a[i].balance;
        want_sum += want[i].balance;
        if (bad == ACCOUNTS &&
            (a[i].balance != want[i].balance || a[i].transfers != want[i].transfers))
            bad = i;
    }
    report(bad == ACCOUNTS && sum == want_sum, "atm",
           "account %u: balance %d, %u transfers, want %d, %u (total %ld, want %ld)", bad,
           bad < ACCOUNTS ? a[bad].balance : 0, bad < ACCOUNTS ? a[bad].transfers : 0,
           bad < ACCOUNTS ? want[bad].balance : 0, bad < ACCOUNTS ? want[bad].transfers : 0,
           sum, want_sum);
    return bench_failures ? 1 : 0;
}
