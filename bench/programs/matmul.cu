// matmul.cu: C = A * B, N x N floats, 16x16 shared-memory tiles: the anchor's kernel and inputs
// (../shared/anchor/matmul.cu), with a host check that costs a small part of the run. The anchor
// sums each C[i][j]'s reference over k down a column of B (a cache miss a term: seconds at
// N = 1024, more than either executor's kernel time); here the loops run i-k-j, so the inner loop
// walks a row of B and a row of the reference and vectorises, while each reference element is
// still summed in the same order, k = 0 .. N-1, in double, from the same exact products (a
// float times a float fits a double), so the references, the tolerance and the verdict are the
// anchor's. Usage: matmul [N] (default 1024).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        As[ty][tx] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
        Bs[ty][tx] = (br < n && col < n) ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes), *C = (float *)malloc(bytes);
    double *ref = (double *)malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)((i * 7) % 17) / 16.0f - 0.5f;
        B[i] = (float)((i * 13) % 19) / 18.0f - 0.5f;
    }
    float *dA, *dB, *dC;
    cudaMalloc(&dA, bytes);
    cudaMalloc(&dB, bytes);
    cudaMalloc(&dC, bytes);
    cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul<<<grid, block>>>(dA, dB, dC, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    double maxerr = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) ref[j] = 0;
        for (int k = 0; k < n; k++) {
            double a = A[i * n + k];
            const float *b = B + (size_t)k * n;
            for (int j = 0; j < n; j++) ref[j] += a * b[j];
        }
        for (int j = 0; j < n; j++) {
            double err = fabs(ref[j] - C[i * n + j]);
            if (err > maxerr) maxerr = err;
            if (err > 1e-3 * (1 + fabs(ref[j]))) bad++;
        }
    }
    printf("matmul n=%d grid=%dx%d block=%dx%d err=%s maxerr=%g : %s (%d bad)\n", n, grid.x, grid.y,
           block.x, block.y, cudaGetErrorString(e), maxerr, bad ? "FAIL" : "PASS", bad);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A);
    free(B);
    free(C);
    free(ref);
    return bad != 0;
}
