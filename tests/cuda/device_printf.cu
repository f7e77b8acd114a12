// device_printf.cu: printf from kernels: integers of every width, floats and doubles with
// precision, strings, characters, pointers' absence of crashes, %%, and output from several
// blocks and threads (compared as a sorted list with device_printf.expected, since threads
// print in no defined order on a GPU), plus printf inside a device function.
#include "check.cuh"

__device__ void report(int block, const char *what, double v)
{
    printf("block %d %s %.3f\n", block, what, v);
}

__global__ void hello(int base)
{
    int t = threadIdx.x, b = blockIdx.x;
    if (t < 2)
        printf("hello from thread %d of block %d (base %d)\n", t, b, base);
    if (t == 0)
        report(b, "half", b * 0.5);
}

__global__ void formats()
{
    long long big = -1234567890123LL;
    unsigned long long ubig = 18446744073709551615ULL;
    short sh = -42;
    unsigned char uc = 200;
    printf("ints %d %u %lld %llu %hd %u\n", -7, 4000000000u, big, ubig, sh, (unsigned)uc);
    printf("hex %x %X %08x %#x\n", 255, 255, 48879, 16);
    printf("floats %f %.2f %e %g %5.1f|\n", 1.5f, 3.14159, 12345.678, 0.0001, 2.25);
    printf("text [%s] [%10s] [%-6s] %c%c %%\n", "abc", "right", "left", 'o', 'k');
}

int main()
{
    hello<<<3, 32>>>(100);
    CUDA_OK("printf_sync", cudaDeviceSynchronize());
    formats<<<1, 1>>>();
    CUDA_OK("printf_sync", cudaDeviceSynchronize());
    fflush(stdout);
    size_t fifo = 0;
    CUDA_OK("fifo", cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    check(fifo >= 1024, "printf_fifo_limit", "printf FIFO of %zu bytes", fifo);
    return check_finish();
}
