// access_patterns.cu: kernels whose global coalescing and shared-memory bank conflicts are
// known exactly, for the event-stream metrics of `ptxsim run --stats` (event_observers.sh).
// Every kernel runs one warp of 32 threads; each does one load or store of 4 bytes.
#include <cstdio>
#include <cuda_runtime.h>

// global loads: lane l reads word l * stride: 32 lanes x 4 bytes over 32-byte sectors
__global__ void global_stride(const int *in, int *out, int stride)
{
    int t = threadIdx.x;
    out[t] = in[t * stride];
}

// shared stores at word (l * stride) % 1024: a stride of k words puts min(k, 32) lanes'
// distinct words in one bank when k divides 32 (k-way conflict); stride 0 is a broadcast
__global__ void shared_stride(int *out, int stride)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[(t * stride) % 1024] = t;
    __syncthreads();
    out[t] = s[t];
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 32 * 64 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(in, 0, 32 * 64 * sizeof(int));
    int strides[] = {1, 2, 8, 32};
    for (int s : strides) global_stride<<<1, 32>>>(in, out, s);
    int sstrides[] = {1, 2, 4, 32};
    for (int s : sstrides) shared_stride<<<1, 32>>>(out, s);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "ran" : cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
