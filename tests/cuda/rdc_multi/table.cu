// rdc_multi/table.cu: a __constant__ table, a lookup function, and a kernel with its own host
// launcher.
#include "shared.cuh"

__constant__ int c_table[TABLE_SIZE] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90};

__device__ int lookup(int i)
{
    return c_table[i % TABLE_SIZE];
}

__global__ void table_sum(int *out)
{
    int s = 0;
    for (int i = 0; i < TABLE_SIZE; i++)
        s += lookup(i);
    *out = s;
}

int table_sum_on_device()
{
    int *d, h = -1;
    cudaMalloc(&d, sizeof(int));
    table_sum<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return h;
}
