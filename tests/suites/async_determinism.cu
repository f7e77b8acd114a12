// async_determinism.cu: the program of tests/suites/async_determinism.sh. Three streams chained
// by events run kernels that race on one buffer (reads and writes of the same words from
// different threads and blocks, without atomics), with asynchronous copies into pinned memory
// and host functions that fold what they see into a checksum. The host sleeps for random times
// between calls when ASYNC_JITTER is set (its value seeds them), so the device worker meets the
// queue in different states from run to run. It prints one line: the checksum of the buffer and
// of what the host functions saw. Under --det=gpudet that line must not depend on host timing,
// host threads or the scheduling seed.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#define N 4096
#define ROUNDS 6

__global__ void racy(int *d, int n, int k, int round)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    // Each thread reads words other threads write in the same kernel.
    int src = (i * 13 + round * 31 + k) % n;
    int dst = (i * 7 + k) % n;
    d[dst] = d[src] * 3 + i + k * 1000 + round;
}

struct fold {
    const int *pinned;
    unsigned long long sum;
};

static void CUDART_CB fold_pinned(void *p)
{
    fold *f = (fold *)p;
    for (int i = 0; i < N; i++)
        f->sum = f->sum * 1000003ULL + (unsigned)f->pinned[i];
}

static unsigned jitter_seed;

static void jitter(void)
{
    if (jitter_seed)
        usleep(rand_r(&jitter_seed) % 3000);
}

int main()
{
    const char *j = getenv("ASYNC_JITTER");
    jitter_seed = j ? (unsigned)atoi(j) : 0;
    int *d, *pinned;
    if (cudaMalloc(&d, N * sizeof(int)) != cudaSuccess ||
        cudaMallocHost(&pinned, N * sizeof(int)) != cudaSuccess) {
        printf("FAIL setup\n");
        return 1;
    }
    cudaMemset(d, 0, N * sizeof(int));
    cudaStream_t s[3];
    cudaEvent_t e[3];
    for (int k = 0; k < 3; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&e[k], cudaEventDisableTiming);
    }
    fold f = {pinned, 0};
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < 3; k++) {
            jitter();
            racy<<<N / 128, 128, 0, s[k]>>>(d, N, k, round);
            jitter();
            if (k == 1)
                cudaMemcpyAsync(pinned, d, N * sizeof(int), cudaMemcpyDeviceToHost, s[k]);
            cudaEventRecord(e[k], s[k]);
            cudaStreamWaitEvent(s[(k + 1) % 3], e[k], 0);
        }
        jitter();
        cudaLaunchHostFunc(s[1], fold_pinned, &f);
    }
    int *h = (int *)malloc(N * sizeof(int));
    cudaError_t err = cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
    unsigned long long sum = 0;
    for (int i = 0; i < N; i++)
        sum = sum * 1000003ULL + (unsigned)h[i];
    printf("checksum %016llx %016llx %s\n", sum, f.sum, cudaGetErrorName(err));
    return err == cudaSuccess ? 0 : 1;
}
