extern __device__ int helper(int);
__device__ int g_counter;
__global__ void child(int *p) { p[threadIdx.x] = helper(threadIdx.x); }
__global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); atomicAdd(&g_counter, 1); }
