// stats_exact.cu: kernels whose KILO TM statistics are known exactly, for the --stats JSON
// checks of tests/suites/kilotm.sh (one warp, so nothing depends on the schedule):
//   `stats_exact sets`: lane l reads (l % 4) + 1 words and writes (l % 2) + 1 other words, no
//     two lanes share a word: 32 committed, 0 aborted, read-set mean 2.5 max 4, write-set mean
//     1.5 max 2, 32 transactions at once, one warp commit;
//   `stats_exact one_word`: the 32 lanes increment one word: each commit step commits its
//     lowest lane and fails the rest (timing/kilotm/commit.c), so 31 + 30 + ... + 1 = 496
//     aborts, lane 31 aborting 31 times, 32 warp commits.
//   `stats_exact own_store`: each lane stores a word outside a transaction, then doubles it
//     inside one: the transaction must see the lane's own store (under GPUDet the store goes to
//     the warp's store buffer; a transaction's first reads go through GPUDet's policy).
// Each also checks its memory and prints PASS or FAIL.
#include <ptxsim/kilotm.h>

#include <cstdio>
#include <cstring>

__global__ void sets(const unsigned *in, unsigned *out)
{
    unsigned l = threadIdx.x, sum = 0;
    tx_begin();
    for (unsigned i = 0; i <= l % 4; i++) sum += in[l * 4 + i];
    for (unsigned i = 0; i <= l % 2; i++) out[l * 2 + i] = sum + i;
    tx_commit();
}

__global__ void one_word(unsigned *word)
{
    tx_begin();
    *word = *word + 1;
    tx_commit();
}

__global__ void own_store(unsigned *out)
{
    unsigned l = threadIdx.x;
    out[l] = l + 1;
    tx_begin();
    out[l] = out[l] * 2;
    tx_commit();
}

int main(int argc, char **argv)
{
    bool ok = true;
    unsigned *in, *out, h[128];
    cudaMalloc(&in, 128 * sizeof(unsigned));
    cudaMalloc(&out, 64 * sizeof(unsigned));
    cudaMemset(out, 0, 64 * sizeof(unsigned));
    for (unsigned i = 0; i < 128; i++) h[i] = i;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1 && strcmp(argv[1], "sets") == 0) {
        sets<<<1, 32>>>(in, out);
        cudaMemcpy(h, out, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
        for (unsigned l = 0; l < 32; l++) {
            unsigned sum = 0;
            for (unsigned i = 0; i <= l % 4; i++) sum += l * 4 + i;
            for (unsigned i = 0; i < 2; i++) ok &= h[l * 2 + i] == (i <= l % 2 ? sum + i : 0);
        }
    } else if (argc > 1 && strcmp(argv[1], "own_store") == 0) {
        own_store<<<1, 64>>>(out);
        cudaMemcpy(h, out, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
        for (unsigned l = 0; l < 64; l++) ok &= h[l] == 2 * (l + 1);
    } else {
        one_word<<<1, 32>>>(out);
        cudaMemcpy(h, out, sizeof(unsigned), cudaMemcpyDeviceToHost);
        ok = h[0] == 32;
    }
    ok &= cudaDeviceSynchronize() == cudaSuccess;
    printf("%s stats_exact\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
