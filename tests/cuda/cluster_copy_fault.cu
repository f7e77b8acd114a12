// cluster_copy_fault.cu: a bulk copy from the CTA's shared memory into the cluster's
// (cp.async.bulk.shared::cluster.shared::cta) in a kernel launched without a cluster is an
// illegal instruction: an H100 (driver 580, 2026-11-27) reports cudaErrorIllegalInstruction at
// the next synchronisation, sticky, and runs the same kernel under a 1x1x1 cluster launch.
// ptxsim launches no clusters and raises the same fault, with the kernel, PTX line, block and
// thread on stderr. Kernels before it are unaffected.
// nvcc: -arch=sm_90
#include "check.cuh"

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__global__ void fill(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x * 3;
}

__global__ void copy_to_cluster(int *out)
{
    __shared__ alignas(128) unsigned src[64];
    __shared__ alignas(128) unsigned dst[64];
    __shared__ alignas(8) unsigned long long bar;
    src[threadIdx.x] = threadIdx.x;
    dst[threadIdx.x] = 0;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(smem(&bar)) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                     ::"r"(smem(dst)), "r"(smem(src)), "r"(smem(&bar)) : "memory");
    }
    __syncthreads();
    asm volatile("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W;\n}"
                 ::"r"(smem(&bar)) : "memory");
    out[threadIdx.x] = (int)dst[threadIdx.x];
}

int main()
{
    int *d, h[64];
    CUDA_OK("malloc", cudaMalloc(&d, sizeof h));
    fill<<<1, 64>>>(d);
    CUDA_OK("fill", cudaDeviceSynchronize());
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 64; i++) ok = ok && h[i] == 3 * i;
    check(ok, "kernel_before_runs", "h[1] = %d", h[1]);

    copy_to_cluster<<<1, 64>>>(d);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    // the launch itself may already see the fault where the kernel ran before it returned
    // (a compare run executes launches at once); the synchronisation must
    check((launch == cudaSuccess || launch == cudaErrorIllegalInstruction) &&
              sync == cudaErrorIllegalInstruction,
          "shared_to_cluster_copy_without_cluster", "launch %s, synchronisation %s",
          cudaGetErrorName(launch), cudaGetErrorName(sync));
    // sticky, as every fault in a kernel is
    check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorIllegalInstruction,
          "fault_sticky", "a copy after the fault");
    return check_finish();
}
