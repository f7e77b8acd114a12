// matmul_tiled.cu: C = A x B with shared-memory tiles and __syncthreads, for sizes that are
// and are not multiples of the tile. The entries are small integers, so every product and sum
// is exact in float and the GPU result must equal the CPU's bit for bit.
#include "check.cuh"

#include <vector>

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ka = t * TILE + threadIdx.x;  // column of A this thread loads
        int kb = t * TILE + threadIdx.y;  // row of B this thread loads
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

static void test(const char *name, int M, int K, int N)
{
    std::vector<float> A(M * K), B(K * N), C(M * N, -1.0f), want(M * N);
    for (int i = 0; i < M * K; i++)
        A[i] = (float)((i * 7 + 3) % 9 - 4);
    for (int i = 0; i < K * N; i++)
        B[i] = (float)((i * 5 + 1) % 7 - 3);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float s = 0.0f;
            for (int k = 0; k < K; k++)
                s += A[r * K + k] * B[k * N + c];
            want[r * N + c] = s;
        }
    float *dA, *dB, *dC;
    CUDA_OK(name, cudaMalloc(&dA, A.size() * sizeof(float)));
    CUDA_OK(name, cudaMalloc(&dB, B.size() * sizeof(float)));
    CUDA_OK(name, cudaMalloc(&dC, C.size() * sizeof(float)));
    CUDA_OK(name, cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(name, cudaMemset(dC, 0, C.size() * sizeof(float)));
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(dA, dB, dC, M, K, N);
    CUDA_OK(name, cudaGetLastError());
    CUDA_OK(name, cudaDeviceSynchronize());
    CUDA_OK(name, cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < M * N && bad < 0; i++)
        if (C[i] != want[i])
            bad = i;
    check(bad < 0, name, "C[%d][%d] = %g, expected %g (%dx%d times %dx%d)", bad / N, bad % N,
          bad < 0 ? 0.0 : (double)C[bad], bad < 0 ? 0.0 : (double)want[bad], M, K, K, N);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

int main()
{
    test("matmul_tiled_70x45x53", 70, 45, 53);  // no dimension a multiple of the tile
    test("matmul_tiled_64x64x64", 64, 64, 64);  // every dimension a multiple of the tile
    test("matmul_tiled_1x100x3", 1, 100, 3);    // one partial tile of rows and columns
    return check_finish();
}
