// transpose.cu: the transpose sample's kernels: a naive transpose, a tiled one through shared
// memory with a padded tile (no bank conflicts) and several rows per thread, on a matrix whose
// sides are not multiples of the tile.
#include "check.cuh"

#include <vector>

#define TILE 32
#define ROWS 8

__global__ void naive(float *out, const float *in, int w, int h)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            out[x * h + y + j] = in[(y + j) * w + x];
}

__global__ void tiled(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int w = 100, h = 70;
    std::vector<float> in(w * h), out(w * h);
    for (int i = 0; i < w * h; i++)
        in[i] = (float)i;
    float *din, *dout;
    CUDA_OK("setup", cudaMalloc(&din, w * h * sizeof(float)));
    CUDA_OK("setup", cudaMalloc(&dout, w * h * sizeof(float)));
    CUDA_OK("setup", cudaMemcpy(din, in.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, ROWS);
    const char *names[2] = {"transpose_naive", "transpose_tiled"};
    for (int k = 0; k < 2; k++) {
        CUDA_OK("setup", cudaMemset(dout, 0, w * h * sizeof(float)));
        if (k == 0)
            naive<<<grid, block>>>(dout, din, w, h);
        else
            tiled<<<grid, block>>>(dout, din, w, h);
        CUDA_OK(names[k], cudaMemcpy(out.data(), dout, w * h * sizeof(float),
                                     cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int y = 0; y < h && ok; y++)
            for (int x = 0; x < w && ok; x++)
                ok = out[x * h + y] == in[y * w + x];
        check(ok, names[k], "transposed matrix differs");
    }
    cudaFree(din);
    cudaFree(dout);
    return check_finish();
}
