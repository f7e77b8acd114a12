// jit_exit_unsynced.cu: a program that returns from main while its last kernel still runs (no
// synchronisation after the launch), the kernel hot enough to be compiled. The device worker
// finishes the kernel at exit; the process's first compile must not run on a device thread
// then, or exit() destroys the objects LLVM made for it under it (jit_cache.sh runs this under
// --engine=auto and --engine=jit with a cold disk cache). With an argument, the kernel runs
// once synchronised first (its result checked), then again unsynchronised.
#include <cstdio>
#include <cstdlib>

__global__ void churn(float *p, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = p[i];
    for (int r = 0; r < rounds; r++) x = x * 0.5f + (float)(r & 7);
    p[i] = x;
}

int main(int argc, char **argv)
{
    const int n = 1 << 16;
    float *d;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
        printf("FAIL malloc\n");
        return 1;
    }
    cudaMemset(d, 0, n * sizeof(float));
    if (argc > 1) {
        churn<<<n / 256, 256>>>(d, n, 64);
        float h = -1;
        cudaMemcpy(&h, d + 5, sizeof h, cudaMemcpyDeviceToHost);
        // x = x/2 + (r & 7) from 0, 64 rounds: the last steps 0..7 give 7 + 6/2 + 5/4 + ...
        float want = 0;
        for (int r = 0; r < 64; r++) want = want * 0.5f + (float)(r & 7);
        printf("%s synced_result\n", h == want ? "PASS" : "FAIL");
    }
    churn<<<n / 256, 256>>>(d, n, 256);
    printf("PASS returned_unsynced\n");
    fflush(stdout);
    return 0;
}
