// warp_shuffle.cu: warp-level data exchange with __shfl_sync and friends: a broadcast, a
// rotation, a butterfly (xor) all-reduce, a shuffle-down reduction, a shuffle-up inclusive
// scan, sub-warp widths, and 64-bit values.
#include "check.cuh"

__global__ void shuffles(const int *in, int *out)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    int v = in[threadIdx.x];
    const unsigned all = 0xffffffffu;
    int *o = out + warp * 32 * 6;
    o[lane] = __shfl_sync(all, v, 7);                      // broadcast lane 7
    o[32 + lane] = __shfl_sync(all, v, (lane + 1) & 31);   // rotate
    int x = v;
    for (int m = 16; m > 0; m >>= 1)
        x += __shfl_xor_sync(all, x, m);                   // butterfly all-reduce
    o[64 + lane] = x;
    int d = v;
    for (int off = 16; off > 0; off >>= 1)
        d += __shfl_down_sync(all, d, off);                // lane 0 ends with the sum
    o[96 + lane] = d;
    int s = v;
    for (int off = 1; off < 32; off <<= 1) {
        int up = __shfl_up_sync(all, s, off);
        if (lane >= off)
            s += up;
    }
    o[128 + lane] = s;                                     // inclusive scan
    o[160 + lane] = __shfl_sync(all, v, 0, 8);             // width 8: each octet's first lane
}

__global__ void shuffle64(const double *in, double *out, const long long *lin, long long *lout)
{
    int lane = threadIdx.x;
    out[lane] = __shfl_down_sync(0xffffffffu, in[lane], 3);
    lout[lane] = __shfl_xor_sync(0xffffffffu, lin[lane], 1);
}

int main()
{
    const int warps = 2, n = warps * 32;
    int in[n], out[n * 6];
    for (int i = 0; i < n; i++)
        in[i] = (i * 7) % 23 - 5;
    int *din, *dout;
    CUDA_OK("setup", cudaMalloc(&din, sizeof in));
    CUDA_OK("setup", cudaMalloc(&dout, sizeof out));
    CUDA_OK("setup", cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    shuffles<<<1, n>>>(din, dout);
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    bool b = true, r = true, x = true, d = true, s = true, w = true;
    for (int wp = 0; wp < warps; wp++) {
        const int *v = in + wp * 32, *o = out + wp * 32 * 6;
        int sum = 0;
        for (int l = 0; l < 32; l++)
            sum += v[l];
        int scan = 0;
        for (int l = 0; l < 32; l++) {
            scan += v[l];
            b = b && o[l] == v[7];
            r = r && o[32 + l] == v[(l + 1) & 31];
            x = x && o[64 + l] == sum;
            s = s && o[128 + l] == scan;
            w = w && o[160 + l] == v[l & ~7];
        }
        d = d && o[96] == sum;
    }
    check(b, "shfl_broadcast", "lane 7's value everywhere");
    check(r, "shfl_rotate", "each lane's right neighbour");
    check(x, "shfl_xor_allreduce", "every lane holds the warp sum");
    check(d, "shfl_down_reduce", "lane 0 holds the warp sum");
    check(s, "shfl_up_scan", "inclusive prefix sums");
    check(w, "shfl_width", "sub-warp broadcast");

    double din64[32], dout64[32];
    long long lin[32], lout[32];
    for (int i = 0; i < 32; i++) {
        din64[i] = i * 1.25;
        lin[i] = (long long)i << 40;
    }
    double *dd, *ddo;
    long long *dl, *dlo;
    CUDA_OK("setup", cudaMalloc(&dd, sizeof din64));
    CUDA_OK("setup", cudaMalloc(&ddo, sizeof dout64));
    CUDA_OK("setup", cudaMalloc(&dl, sizeof lin));
    CUDA_OK("setup", cudaMalloc(&dlo, sizeof lout));
    CUDA_OK("setup", cudaMemcpy(dd, din64, sizeof din64, cudaMemcpyHostToDevice));
    CUDA_OK("setup", cudaMemcpy(dl, lin, sizeof lin, cudaMemcpyHostToDevice));
    shuffle64<<<1, 32>>>(dd, ddo, dl, dlo);
    CUDA_OK("kernel", cudaMemcpy(dout64, ddo, sizeof dout64, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(lout, dlo, sizeof lout, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok = ok && dout64[i] == din64[i + 3 < 32 ? i + 3 : i] && lout[i] == lin[i ^ 1];
    check(ok, "shfl_64bit", "double and long long shuffles");
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dd);
    cudaFree(ddo);
    cudaFree(dl);
    cudaFree(dlo);
    return check_finish();
}
