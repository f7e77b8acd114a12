// big_alloc.cu: the memory benchmark's large-allocation program (bench/memory_rss.sh): MB
// megabytes of device memory in four allocations, every byte written by kernels, a fill and a
// device-to-device copy, a little of it checked on the host; then its peak resident memory
// (VmHWM). With MB = 0 it only launches one small kernel: the baseline of ptxsim itself.
// Usage: big_alloc MB.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void stamp(unsigned *p, size_t n, unsigned salt)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned)i * 2654435761u + salt;
}

static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    size_t mb = argc > 1 ? strtoull(argv[1], NULL, 10) : 64;
    size_t bytes = mb << 20, quarter = bytes / 4, words = quarter / 4;
    unsigned *p[4] = {NULL, NULL, NULL, NULL};
    int bad = 0;
    if (mb == 0) {
        cudaMalloc(&p[0], 4096);
        stamp<<<1, 32>>>(p[0], 1024, 1);
    } else {
        for (int i = 0; i < 4; i++)
            if (cudaMalloc(&p[i], quarter) != cudaSuccess) {
                fprintf(stderr, "big_alloc: cudaMalloc of %zu bytes failed\n", quarter);
                return 1;
            }
        stamp<<<512, 256>>>(p[0], words, 1);
        stamp<<<512, 256>>>(p[1], words, 2);
        cudaMemset(p[2], 0x5a, quarter);
        cudaMemcpy(p[3], p[0], quarter, cudaMemcpyDeviceToDevice);
        for (size_t s = 0; s < 16; s++) {
            size_t i = (s * 7919 * 7919) % words;
            unsigned got[4];
            for (int k = 0; k < 4; k++)
                cudaMemcpy(&got[k], p[k] + i, 4, cudaMemcpyDeviceToHost);
            bad += got[0] != (unsigned)i * 2654435761u + 1 ||
                   got[1] != (unsigned)i * 2654435761u + 2 || got[2] != 0x5a5a5a5au ||
                   got[3] != got[0];
        }
    }
    cudaDeviceSynchronize();
    printf("allocated %zu\n", mb ? 4 * quarter : (size_t)0);
    printf("peak_rss_kb %ld\n", peak_rss_kb());
    printf("%s big_alloc %zu MB\n", bad ? "FAIL" : "PASS", mb);
    return bad ? 1 : 0;
}
