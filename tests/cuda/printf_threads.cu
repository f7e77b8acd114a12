// printf_threads.cu: device printf from kernels that several host threads launch at once, each
// thread synchronising (which writes out the pending output) while another thread's kernel may
// be running. Every line must come out exactly once (printf_threads.expected, as a sorted
// list): under --engine=compare a launch saves the pending output and puts it back between its
// two runs, so output written out in the middle would print twice.
#include "check.cuh"

#include <thread>

__global__ void say(int id, int rep, int rounds)
{
    // prints first, then works a while: the output is pending for most of the launch
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("thread %d rep %d\n", id, rep);
    int acc = rep;
    for (int r = 0; r < rounds; r++)
        acc = acc * 1664525 + 1013904223 + (int)threadIdx.x;
    if (acc == 42)   // keeps the loop; never true for these inputs
        printf("unexpected\n");
}

static void talker(int id, bool *ok)
{
    *ok = true;
    for (int rep = 0; rep < 8 && *ok; rep++) {
        say<<<2, 128, 0, cudaStreamPerThread>>>(id, rep, 300);
        *ok = cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
    }
}

int main()
{
    bool ok[3];
    std::thread t0(talker, 0, &ok[0]), t1(talker, 1, &ok[1]), t2(talker, 2, &ok[2]);
    t0.join();
    t1.join();
    t2.join();
    cudaError_t e = cudaDeviceSynchronize();
    check(ok[0] && ok[1] && ok[2] && e == cudaSuccess, "printf_from_host_threads",
          "a launch or synchronisation failed (%s)", cudaGetErrorName(e));
    return check_finish();
}
