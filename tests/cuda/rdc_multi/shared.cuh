// The declarations the units of rdc_multi share.
#pragma once

#define TABLE_SIZE 10

extern __device__ int g_offset;
extern __device__ int g_calls;
extern __constant__ int c_table[TABLE_SIZE];

__device__ int poly(int x);
__device__ int lookup(int i);
__device__ void count_call();
int table_sum_on_device();

template <typename T>
__device__ T twice(T v)
{
    return v + v;
}
