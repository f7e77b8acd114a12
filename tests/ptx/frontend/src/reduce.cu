__device__ int counter;
__constant__ int coeffs[5] = {1, 0, 0, 0, 2};
__device__ int *ptr_to_counter = &counter;
__global__ void reduce(const float *in, float *out, int n)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float s = 0;
    if (i < n) s = in[i];
    if (i + blockDim.x < n) s += in[i + blockDim.x];
    sdata[tid] = s;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
        if (tid < k) sdata[tid] += sdata[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid] + sdata[tid + 32];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
        if (tid == 0) { atomicAdd(out, v); atomicAdd(ptr_to_counter, coeffs[4]); }
    }
}
