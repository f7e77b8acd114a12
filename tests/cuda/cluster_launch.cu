// nvcc: -arch=sm_90
// cluster_launch.cu: thread-block clusters. ptxsim does not emulate them yet, and a program
// must learn that from the API instead of getting clusters of one block: under ptxsim the
// device reports no cluster launch support (cudaDevAttrClusterLaunch 0), a kernel compiled with
// __cluster_dims__ and a launch asking for a cluster through cudaLaunchKernelEx are both
// refused with cudaErrorNotSupported without running, the error is not sticky, and the device
// keeps working. On a GPU of sm_90 (tests/run_native.sh) the attribute is 1 and the same two
// launches run: the blocks of a cluster read each other's shared memory.
#include "check.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) exchange(int *out)
{
    cg::cluster_group cl = cg::this_cluster();
    __shared__ int s[32];
    s[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
    cl.sync();
    int *other = cl.map_shared_rank(s, (cl.block_rank() + 1) % 2);
    out[blockIdx.x * 32 + threadIdx.x] = other[threadIdx.x];
    cl.sync();
}

__global__ void plain(int *out)
{
    out[blockIdx.x * 32 + threadIdx.x] = 7;
}

// A launch of 2 blocks of 32 threads in clusters of 2 blocks.
static cudaLaunchConfig_t cluster_config(void)
{
    static cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = 2;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(32);
    cfg.attrs = a;
    cfg.numAttrs = 1;
    return cfg;
}

// ptxsim's refusals: no cluster runs, the errors are the launches' own, not sticky.
static void refusals(int *d)
{
    int attr = -1;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, 0));
    check(attr == 0, "no_cluster_launch_attribute", "cudaDevAttrClusterLaunch is %d", attr);

    exchange<<<2, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    check(e == cudaErrorNotSupported, "cluster_dims_refused", "launch returned %s",
          cudaGetErrorName(e));
    e = cudaGetLastError();
    check(e == cudaSuccess, "refusal_not_sticky", "second cudaGetLastError returned %s",
          cudaGetErrorName(e));

    cudaLaunchConfig_t cfg = cluster_config();
    e = cudaLaunchKernelEx(&cfg, plain, d);
    check(e == cudaErrorNotSupported, "cluster_attribute_refused", "cudaLaunchKernelEx returned %s",
          cudaGetErrorName(e));
    cudaGetLastError();

    int h[64];
    CUDA_OK("sync", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool untouched = true;
    for (int i = 0; i < 64; i++) untouched = untouched && h[i] == -1;
    check(untouched, "refused_kernels_did_not_run", "output changed, e.g. %d", h[0]);
}

// A GPU's clusters: the attribute says so, and both launches run.
static void clusters(int *d)
{
    int attr = -1;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, 0));
    check(attr == 1, "cluster_launch_attribute", "cudaDevAttrClusterLaunch is %d", attr);

    int h[64];
    exchange<<<2, 32>>>(d);
    CUDA_OK("cluster launch", cudaGetLastError());
    CUDA_OK("sync", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool exchanged = true;
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 32; t++)
            exchanged = exchanged && h[b * 32 + t] == ((b + 1) % 2) * 100 + t;
    check(exchanged, "cluster_dims_exchange", "h[0] = %d, h[32] = %d", h[0], h[32]);

    CUDA_OK("memset", cudaMemset(d, 0xff, 64 * sizeof(int)));
    cudaLaunchConfig_t cfg = cluster_config();
    CUDA_OK("cluster attribute launch", cudaLaunchKernelEx(&cfg, plain, d));
    CUDA_OK("sync", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool sevens = true;
    for (int i = 0; i < 64; i++) sevens = sevens && h[i] == 7;
    check(sevens, "cluster_attribute_launch", "h[0] = %d", h[0]);
}

int main()
{
    int *d;
    CUDA_OK("malloc", cudaMalloc(&d, 64 * sizeof(int)));
    CUDA_OK("memset", cudaMemset(d, 0xff, 64 * sizeof(int)));
    if (on_ptxsim())
        refusals(d);
    else
        clusters(d);

    int h[64];
    plain<<<2, 32>>>(d);
    CUDA_OK("plain launch", cudaGetLastError());
    CUDA_OK("sync", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool sevens = true;
    for (int i = 0; i < 64; i++) sevens = sevens && h[i] == 7;
    check(sevens, "device_still_works", "h[0] = %d", h[0]);
    cudaFree(d);
    return check_failures ? 1 : 0;
}
