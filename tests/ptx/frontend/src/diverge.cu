__device__ __noinline__ int collatz(int x)
{
    int steps = 0;
    while (x != 1) {
        if (x & 1) x = 3 * x + 1; else x /= 2;
        ++steps;
        if (steps > 1000) return -1;
    }
    return steps;
}
__global__ void diverge(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int r;
    if (v > 0) r = collatz(v);
    else if (v < -10) { r = 0; for (int k = v; k < 0; ++k) r += k * k; }
    else r = -v;
    out[i] = r;
}
