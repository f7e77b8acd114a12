// host_threads.cu: several host threads using the runtime at once, as real programs do (one
// stream per worker): each allocates, copies, launches on its own stream and checks its result;
// and the last error is kept per host thread (an error in one thread is not seen by another).
#include "check.cuh"

#include <atomic>
#include <thread>
#include <vector>

__global__ void affine(const int *in, int *out, int n, int mul, int add)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] * mul + add;
}

static std::atomic<int> wrong_results{0}, api_failures{0};

static void worker(int id)
{
    const int n = 3000 + 17 * id;
    std::vector<int> h(n), got(n);
    for (int i = 0; i < n; i++)
        h[i] = i - id;
    cudaStream_t s;
    int *in, *out;
    if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&in, n * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&out, n * sizeof(int)) != cudaSuccess) {
        api_failures++;
        return;
    }
    for (int round = 0; round < 5; round++) {
        cudaMemcpyAsync(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s);
        affine<<<4, 64, 0, s>>>(in, out, n, id + 2, round);
        cudaMemcpyAsync(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost, s);
        if (cudaStreamSynchronize(s) != cudaSuccess) {
            api_failures++;
            break;
        }
        for (int i = 0; i < n; i++)
            if (got[i] != h[i] * (id + 2) + round) {
                wrong_results++;
                break;
            }
    }
    cudaFree(in);
    cudaFree(out);
    cudaStreamDestroy(s);
}

int main()
{
    std::vector<std::thread> threads;
    for (int id = 0; id < 4; id++)
        threads.emplace_back(worker, id);
    for (auto &t : threads)
        t.join();
    check(api_failures == 0 && wrong_results == 0, "concurrent_host_threads",
          "%d API failures, %d wrong results", api_failures.load(), wrong_results.load());

    // An error made in another thread stays that thread's last error.
    cudaError_t theirs = cudaSuccess, mine;
    std::thread other([&] {
        int x;
        cudaFree(&x);  // not device memory: cudaErrorInvalidValue in that thread
        theirs = cudaGetLastError();
    });
    other.join();
    mine = cudaGetLastError();
    check(theirs == cudaErrorInvalidValue && mine == cudaSuccess, "last_error_per_thread",
          "other thread saw %s, this one %s", cudaGetErrorName(theirs), cudaGetErrorName(mine));
    return check_finish();
}
