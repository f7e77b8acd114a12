// launch_overhead.cu: what a launch and an empty one-thread block cost (bench/launch_overhead.sh).
//
// Times one launch of one empty block and one launch of N empty one-thread blocks (N = argv[1],
// default 2^20), each followed by cudaDeviceSynchronize, REPS times (argv[2], default 3),
// keeping the fastest of each, by the wall clock and by the process's CPU time (steadier on a
// busy machine; with several host threads it adds up theirs, waiting included); prints
//   launch_us X          one launch of one block, wall clock
//   block_us Y           each further block: (T(N) - T(1)) / (N - 1), wall clock
//   cpu_launch_us X, cpu_block_us Y     the same in CPU time
#include <cstdio>
#include <cstdlib>
#include <ctime>

__global__ void empty_block() {}

static double now(clockid_t clock)
{
    timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct times { double wall, cpu; };

static times timed(unsigned blocks)
{
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    empty_block<<<blocks, 1>>>();
    cudaError_t e = cudaDeviceSynchronize();
    times t = {now(CLOCK_MONOTONIC) - w0, now(CLOCK_PROCESS_CPUTIME_ID) - c0};
    if (e != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "launch of %u blocks failed: %s\n", blocks, cudaGetErrorString(e));
        exit(1);
    }
    return t;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], nullptr, 0) : 1u << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 2 || reps < 1) {
        fprintf(stderr, "usage: launch_overhead [BLOCKS >= 2] [REPS >= 1]\n");
        return 2;
    }
    timed(1);   // loads the module
    times one = {1e30, 1e30}, many = {1e30, 1e30};
    for (int r = 0; r < reps; r++) {
        times a = timed(1), b = timed(n);
        one.wall = a.wall < one.wall ? a.wall : one.wall;
        one.cpu = a.cpu < one.cpu ? a.cpu : one.cpu;
        many.wall = b.wall < many.wall ? b.wall : many.wall;
        many.cpu = b.cpu < many.cpu ? b.cpu : many.cpu;
    }
    printf("launch_us %.3f\n", one.wall * 1e6);
    printf("block_us %.4f\n", (many.wall - one.wall) / (n - 1) * 1e6);
    printf("cpu_launch_us %.3f\n", one.cpu * 1e6);
    printf("cpu_block_us %.4f\n", (many.cpu - one.cpu) / (n - 1) * 1e6);
    return 0;
}
