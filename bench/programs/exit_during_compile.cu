// exit_during_compile.cu: returns from main while the device still runs (and ptxsim may still
// compile) its second kernel, DELAY_MS milliseconds after launching it (bench/jit_exit_race.sh).
// The first kernel runs synchronised, so under --engine=jit the process's first compile is
// done; the second is large (sinf expands into a long compile), so exit() meets its compile on
// a device thread at some delay.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

__global__ void small(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

__global__ void large(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = p[i];
    for (int k = 0; k < 8; k++) x = x * 1.0001f + sinf(x);
    p[i] = x;
}

int main()
{
    const char *delay = getenv("DELAY_MS");
    int *d;
    float *f;
    cudaMalloc(&d, 1 << 20);
    cudaMalloc(&f, 1 << 20);
    cudaMemset(f, 0, 1 << 20);
    small<<<256, 256>>>(d);
    cudaDeviceSynchronize();
    large<<<64, 256>>>(f, 1 << 14);
    usleep((useconds_t)(delay ? atoi(delay) : 0) * 1000);
    printf("PASS returned\n");
    return 0;
}
