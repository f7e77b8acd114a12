// vector_add.cu: element-wise addition, the smallest complete CUDA program: a grid-stride loop
// over more elements than threads, one thread per element with a bounds check, and doubles.
// Every result is compared exactly with the CPU (one IEEE addition per element).
#include "check.cuh"

#include <vector>

__global__ void vadd_grid_stride(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

__global__ void vadd_one_per_thread(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void vadd_double(const double *a, const double *b, double *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

template <typename T>
static int first_mismatch(const std::vector<T> &got, const std::vector<T> &want)
{
    for (size_t i = 0; i < want.size(); i++)
        if (got[i] != want[i])
            return (int)i;
    return -1;
}

static void test_float(const char *name, bool grid_stride, int n, int blocks, int threads)
{
    std::vector<float> a(n), b(n), c(n, -1.0f), want(n);
    for (int i = 0; i < n; i++) {
        a[i] = 0.5f * (float)(i % 1000) - 3.25f;
        b[i] = (float)(i % 77) * 1.125f;
        want[i] = a[i] + b[i];
    }
    float *da, *db, *dc;
    size_t bytes = n * sizeof(float);
    CUDA_OK(name, cudaMalloc(&da, bytes));
    CUDA_OK(name, cudaMalloc(&db, bytes));
    CUDA_OK(name, cudaMalloc(&dc, bytes));
    CUDA_OK(name, cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemset(dc, 0xff, bytes));
    if (grid_stride)
        vadd_grid_stride<<<blocks, threads>>>(da, db, dc, n);
    else
        vadd_one_per_thread<<<blocks, threads>>>(da, db, dc, n);
    CUDA_OK(name, cudaGetLastError());
    CUDA_OK(name, cudaDeviceSynchronize());
    CUDA_OK(name, cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    int bad = first_mismatch(c, want);
    check(bad < 0, name, "c[%d] = %g, expected %g (n=%d, <<<%d,%d>>>)", bad,
          bad < 0 ? 0.0 : (double)c[bad], bad < 0 ? 0.0 : (double)want[bad], n, blocks, threads);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}

static void test_double(void)
{
    const char *name = "vector_add_double";
    const int n = 3000;
    std::vector<double> a(n), b(n), c(n), want(n);
    for (int i = 0; i < n; i++) {
        a[i] = 1.0 / (i + 1);
        b[i] = (double)i * 1e-3 + 0.1;
        want[i] = a[i] + b[i];
    }
    double *da, *db, *dc;
    size_t bytes = n * sizeof(double);
    CUDA_OK(name, cudaMalloc(&da, bytes));
    CUDA_OK(name, cudaMalloc(&db, bytes));
    CUDA_OK(name, cudaMalloc(&dc, bytes));
    CUDA_OK(name, cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    vadd_double<<<(n + 127) / 128, 128>>>(da, db, dc, n);
    CUDA_OK(name, cudaDeviceSynchronize());
    CUDA_OK(name, cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    int bad = first_mismatch(c, want);
    check(bad < 0, name, "c[%d] = %.17g, expected %.17g", bad, bad < 0 ? 0.0 : c[bad],
          bad < 0 ? 0.0 : want[bad]);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}

int main()
{
    // More elements than threads, and a count that is no multiple of the block size.
    test_float("vector_add_grid_stride", true, 100003, 40, 128);
    // Fewer threads than a warp in the last block.
    test_float("vector_add_one_per_thread", false, 1000, 8, 128);
    // A block size that is not a multiple of the warp size.
    test_float("vector_add_odd_block", false, 777, 10, 80);
    test_double();
    return check_finish();
}
