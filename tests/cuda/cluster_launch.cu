// nvcc: -arch=sm_90
// cluster_launch.cu: thread-block clusters are not emulated yet, and a program must learn that
// from the API instead of getting clusters of one block: the device reports no cluster launch
// support (cudaDevAttrClusterLaunch 0), a kernel compiled with __cluster_dims__ and a launch
// asking for a cluster through cudaLaunchKernelEx are both refused with cudaErrorNotSupported
// without running, the error is not sticky, and the device keeps working.
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

int main()
{
    int attr = -1;
    CUDA_OK("attribute", cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, 0));
    check(attr == 0, "no_cluster_launch_attribute", "cudaDevAttrClusterLaunch is %d", attr);

    int *d;
    CUDA_OK("malloc", cudaMalloc(&d, 64 * sizeof(int)));
    CUDA_OK("memset", cudaMemset(d, 0xff, 64 * sizeof(int)));

    exchange<<<2, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    check(e == cudaErrorNotSupported, "cluster_dims_refused", "launch returned %s",
          cudaGetErrorName(e));
    e = cudaGetLastError();
    check(e == cudaSuccess, "refusal_not_sticky", "second cudaGetLastError returned %s",
          cudaGetErrorName(e));

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = 2;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
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
