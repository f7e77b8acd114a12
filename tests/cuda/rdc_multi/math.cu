// rdc_multi/math.cu: device functions and a variable other units use.
#include "shared.cuh"

__device__ int g_offset = 5;
__device__ int g_calls = 1;

__device__ int poly(int x)
{
    return 3 * x * x - 2 * x + 7;
}

__device__ void count_call()
{
    atomicAdd(&g_calls, 1);
}

// An instance of the shared template here too: a .weak copy each unit carries.
__device__ int use_twice(int v)
{
    return twice<int>(v);
}
