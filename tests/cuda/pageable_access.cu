// pageable_access.cu: with pageable memory access on (--pageable-memory-access, the device
// model of systems with HMM or ATS), cudaDevAttrPageableMemoryAccess says so and kernels read
// and write memory the program got from malloc and new and from its stack, with no
// registration; device memory and managed memory work as before. Checked against CPU results.
// On a GPU the attribute is the system's (1 with HMM or ATS, 0 without, as on an H100 of a
// machine without HMM), and the kernels touch pageable memory only where it says 1: without
// it a GPU faults (cudaErrorIllegalAddress), so the program then checks only that the two
// attributes agree.
// ptxsim: --pageable-memory-access=on
// compare: no (kernels write host memory, which compare mode cannot snapshot: refused)
#include "check.cuh"

#include <cstdlib>

__global__ void square_into(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

__global__ void count_positive(const double *v, int n, unsigned long long *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] > 0)
        atomicAdd(count, 1ULL);
}

int main()
{
    int pageable = 0, uses_host_tables = -1;
    CUDA_OK("attr", cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    CUDA_OK("attr", cudaDeviceGetAttribute(&uses_host_tables,
                                           cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
    // ptxsim's device runs with --pageable-memory-access=on here.
    if (on_ptxsim())
        check(pageable == 1, "pageable_access_attribute", "cudaDevAttrPageableMemoryAccess = %d",
              pageable);
    if (!pageable) {
        // Host page tables used for pageable access imply pageable access.
        check(uses_host_tables == 0, "pageable_access_off", "uses host page tables = %d",
              uses_host_tables);
        return check_finish();
    }

    const int n = 10000;
    int *in = (int *)malloc(n * sizeof(int));
    int *out = new int[n];
    for (int i = 0; i < n; i++) {
        in[i] = i - 5000;
        out[i] = 0;
    }
    square_into<<<(n + 255) / 256, 256>>>(in, out, n);
    CUDA_OK("sync", cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && out[i] == (i - 5000) * (i - 5000);
    check(ok, "kernel_on_malloc_memory", "out[7] = %d", out[7]);

    // Stack memory and an atomic on malloc'ed memory.
    double local[64];
    for (int i = 0; i < 64; i++)
        local[i] = (i % 3) - 1.0;
    unsigned long long *count = (unsigned long long *)calloc(1, sizeof *count);
    count_positive<<<1, 64>>>(local, 64, count);
    CUDA_OK("sync", cudaDeviceSynchronize());
    unsigned long long expect = 0;
    for (int i = 0; i < 64; i++)
        expect += local[i] > 0;
    check(*count == expect, "kernel_on_stack_and_atomics", "count %llu, expected %llu", *count,
          expect);

    // Mixed with device memory in one launch.
    int *d = NULL;
    CUDA_OK("malloc", cudaMalloc(&d, n * sizeof(int)));
    square_into<<<(n + 255) / 256, 256>>>(in, d, n);
    CUDA_OK("copy", cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && out[i] == (i - 5000) * (i - 5000);
    check(ok, "malloc_to_device_memory", "out[7] = %d", out[7]);

    cudaFree(d);
    free(in);
    free(count);
    delete[] out;
    return check_finish();
}
