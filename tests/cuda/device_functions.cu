// device_functions.cu: device code beyond straight-line kernels: recursive __device__
// functions (factorial, Ackermann-style depth), function pointers chosen per thread from a
// __device__ table, __noinline__ calls with many arguments, and a device function that
// returns a struct.
#include "check.cuh"

typedef int (*op_t)(int, int);

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ op_t d_ops[3] = {op_add, op_mul, op_max};

__device__ long long factorial(int n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

__device__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

struct Pair {
    int lo, hi;
};

__device__ __noinline__ Pair minmax(int a, int b, int c, int d, int e, int f, int g, int h)
{
    int v[8] = {a, b, c, d, e, f, g, h};
    Pair p = {v[0], v[0]};
    for (int i = 1; i < 8; i++) {
        p.lo = v[i] < p.lo ? v[i] : p.lo;
        p.hi = v[i] > p.hi ? v[i] : p.hi;
    }
    return p;
}

__global__ void run(const int *a, const int *b, int *out, long long *fact, int *fibs, Pair *mm)
{
    int t = threadIdx.x;
    op_t f = d_ops[t % 3];
    out[t] = f(a[t], b[t]);
    if (t < 16) {
        fact[t] = factorial(t + 1);
        fibs[t] = fib(t);
        mm[t] = minmax(t, -t, 3 * t, 7, t * t, -2 * t, 11, 5 - t);
    }
}

int main()
{
    const int n = 48;
    int a[n], b[n], out[n], fibs[16];
    long long fact[16];
    Pair mm[16];
    for (int i = 0; i < n; i++) {
        a[i] = i - 10;
        b[i] = 3 * i % 17;
    }
    int *da, *db, *dout, *dfib;
    long long *dfact;
    Pair *dmm;
    CUDA_OK("setup", cudaMalloc(&da, sizeof a));
    CUDA_OK("setup", cudaMalloc(&db, sizeof b));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMalloc(&dfib, sizeof fibs));
    CUDA_OK("setup", cudaMalloc(&dfact, sizeof fact));
    CUDA_OK("setup", cudaMalloc(&dmm, sizeof mm));
    CUDA_OK("setup", cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_OK("setup", cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    run<<<1, n>>>(da, db, dout, dfact, dfib, dmm);
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(fact, dfact, sizeof fact, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(fibs, dfib, sizeof fibs, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(mm, dmm, sizeof mm, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < n; t++) {
        int e = t % 3 == 0 ? a[t] + b[t] : t % 3 == 1 ? a[t] * b[t] : (a[t] > b[t] ? a[t] : b[t]);
        ok = ok && out[t] == e;
    }
    check(ok, "function_pointer_table", "out[4] = %d", out[4]);
    ok = true;
    long long f = 1;
    int f0 = 0, f1 = 1;
    for (int t = 0; t < 16; t++) {
        f *= t + 1;
        ok = ok && fact[t] == f && fibs[t] == f0;
        int nx = f0 + f1;
        f0 = f1;
        f1 = nx;
    }
    check(ok, "recursion", "fact[15] = %lld, fib[15] = %d", fact[15], fibs[15]);
    ok = true;
    for (int t = 0; t < 16; t++) {
        int v[8] = {t, -t, 3 * t, 7, t * t, -2 * t, 11, 5 - t}, lo = v[0], hi = v[0];
        for (int i = 1; i < 8; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        ok = ok && mm[t].lo == lo && mm[t].hi == hi;
    }
    check(ok, "noinline_struct_return", "mm[5] = (%d, %d)", mm[5].lo, mm[5].hi);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    cudaFree(dfib);
    cudaFree(dfact);
    cudaFree(dmm);
    return check_finish();
}
