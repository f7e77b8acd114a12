// device_assert.cu: assert in kernels. A passing assert changes nothing; a failing one stops the
// kernel, every failing thread's message reaches stderr at the next synchronisation in CUDA's
// form ("file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `cond` failed."), that
// synchronisation returns cudaErrorAssert, the error is sticky (later calls return it too), and
// under ptxsim cudaDeviceReset makes the device usable again (on a GPU only a new process can
// use CUDA after a sticky error, as CUDA's documentation says: an H100 answered
// cudaErrorDevicesUnavailable to a cudaMalloc after cudaDeviceReset).
#include "check.cuh"

#include <cassert>
#include <cstring>
#include <string>
#include <unistd.h>

__global__ void passing(int *out)
{
    assert(threadIdx.x < blockDim.x);
    out[threadIdx.x] = threadIdx.x;
}

__global__ void failing(int *out, int bad_block)
{
    int v = threadIdx.x;
    if (blockIdx.x == bad_block) assert((v - 3) * (v - 5) != 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

static const int kAssertLine = __LINE__ - 4;  // the assert above

// Runs f with stderr going to a temporary file; returns what was written.
template <typename F> static std::string capture_stderr(F f)
{
    fflush(stderr);
    char path[] = "/tmp/device_assert_XXXXXX";
    int fd = mkstemp(path);
    int saved = dup(2);
    dup2(fd, 2);
    f();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string s;
    char buf[4096];
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, (size_t)n);
    close(fd);
    unlink(path);
    return s;
}

int main()
{
    const bool ptxsim = on_ptxsim();  // asked now: after the reset a GPU may not answer
    int *d;
    CUDA_OK("malloc", cudaMalloc(&d, 4 * 32 * sizeof(int)));
    CUDA_OK("memset", cudaMemset(d, 0xff, 32 * sizeof(int)));
    passing<<<1, 32>>>(d);
    CUDA_OK("passing_assert", cudaDeviceSynchronize());
    {
        // a passing assert changes nothing: every thread went on to write its index
        int first[32];
        CUDA_OK("copy", cudaMemcpy(first, d, sizeof first, cudaMemcpyDeviceToHost));
        int bad = -1;
        for (int t = 0; t < 32 && bad < 0; t++)
            if (first[t] != t) bad = t;
        check(bad < 0, "assert_true_no_effect", "out[%d] = %d after a passing assert, want %d",
              bad, bad >= 0 ? first[bad] : 0, bad);
    }

    cudaError_t launch = cudaSuccess, sync = cudaSuccess;
    std::string err = capture_stderr([&] {
        failing<<<4, 32>>>(d, 2);
        launch = cudaGetLastError();
        sync = cudaDeviceSynchronize();
    });
    // (the launch itself may report success or, once the kernel has stopped, the error)
    check(launch == cudaSuccess || launch == cudaErrorAssert, "assert_launch", "got %s",
          cudaGetErrorName(launch));
    check(sync == cudaErrorAssert, "assert_sync_returns_cudaErrorAssert", "got %s",
          cudaGetErrorName(sync));
    char want3[256], want5[256];
    // __FILE__ is the path nvcc was given: match its tail
    snprintf(want3, sizeof want3,
             "device_assert.cu:%d: void failing(int *, int): block: [2,0,0], thread: [3,0,0] "
             "Assertion `(v - 3) * (v - 5) != 0` failed.\n",
             kAssertLine);
    snprintf(want5, sizeof want5, "block: [2,0,0], thread: [5,0,0] Assertion `(v - 3) * (v - 5) != 0` failed.");
    check(err.find(want3) != std::string::npos, "assert_message_format",
          "stderr lacks [%s]; it has [%s]", want3, err.c_str());
    check(err.find(want5) != std::string::npos, "assert_every_failing_thread",
          "stderr lacks [%s]", want5);
    check(err.find("thread: [4,0,0]") == std::string::npos, "assert_only_failing_threads",
          "a passing thread reported an assertion");

    cudaError_t again = cudaMemset(d, 0, 16);
    check(again == cudaErrorAssert, "assert_error_sticky", "got %s", cudaGetErrorName(again));
    CUDA_OK("reset", cudaDeviceReset());
    if (!ptxsim)
        return check_finish();
    CUDA_OK("malloc_after_reset", cudaMalloc(&d, 32 * sizeof(int)));
    passing<<<1, 32>>>(d);
    CUDA_OK("usable_after_reset", cudaDeviceSynchronize());
    int out[32];
    CUDA_OK("copy", cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    check(out[31] == 31, "assert_reset_recovers", "out[31] = %d", out[31]);
    return check_finish();
}
