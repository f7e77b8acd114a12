// graph_explicit.cu: a graph built node by node: memset, host-to-device memcpy, kernel nodes in
// a diamond of dependencies, a child graph, an empty join node, a host node and a device-to-host
// memcpy; its structure queried back; instantiated and launched; a kernel node's parameters
// changed in the executable graph; the whole executable graph updated from an edited copy; and
// a dependency cycle refused.
#include "check.cuh"

#include <vector>

__global__ void scale(int *x, int n, int f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= f;
}

__global__ void add_vec(int *dst, const int *a, const int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = a[i] + b[i];
}

static void CUDART_CB mark(void *p)
{
    ++*(int *)p;
}

static cudaKernelNodeParams kernel_params(void *fn, int blocks, void **args)
{
    cudaKernelNodeParams p = {};
    p.func = fn;
    p.gridDim = dim3(blocks);
    p.blockDim = dim3(128);
    p.kernelParams = args;
    return p;
}

int main()
{
    const int n = 256;
    std::vector<int> in(n), out(n);
    for (int i = 0; i < n; i++)
        in[i] = i;
    int *x, *y, *z;
    CUDA_OK("setup", cudaMalloc(&x, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&y, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&z, n * sizeof(int)));
    int marks = 0, nn = n, f2 = 2, f3 = 3;

    cudaGraph_t g;
    CUDA_OK("create", cudaGraphCreate(&g, 0));
    cudaGraphNode_t clear, upload, twice, thrice, join, sum, host, download;
    cudaMemsetParams ms = {};
    ms.dst = z;
    ms.value = 0;
    ms.elementSize = 4;
    ms.width = n;
    ms.height = 1;
    CUDA_OK("memset_node", cudaGraphAddMemsetNode(&clear, g, nullptr, 0, &ms));
    CUDA_OK("memcpy_node", cudaGraphAddMemcpyNode1D(&upload, g, &clear, 1, x, in.data(),
                                                    n * sizeof(int), cudaMemcpyHostToDevice));
    // y = x (device-to-device), then x *= 2 and y *= 3 side by side.
    cudaGraphNode_t dup;
    CUDA_OK("memcpy_node", cudaGraphAddMemcpyNode1D(&dup, g, &upload, 1, y, x, n * sizeof(int),
                                                    cudaMemcpyDeviceToDevice));
    void *a2[] = {&x, &nn, &f2}, *a3[] = {&y, &nn, &f3};
    cudaKernelNodeParams k2 = kernel_params((void *)scale, n / 128, a2);
    cudaKernelNodeParams k3 = kernel_params((void *)scale, n / 128, a3);
    CUDA_OK("kernel_node", cudaGraphAddKernelNode(&twice, g, &dup, 1, &k2));
    CUDA_OK("kernel_node", cudaGraphAddKernelNode(&thrice, g, &dup, 1, &k3));
    cudaGraphNode_t pair[2] = {twice, thrice};
    CUDA_OK("empty_node", cudaGraphAddEmptyNode(&join, g, pair, 2));
    // The sum is a child graph with one kernel node.
    cudaGraph_t child;
    CUDA_OK("child", cudaGraphCreate(&child, 0));
    void *as[] = {&z, &x, &y, &nn};
    cudaKernelNodeParams ks = kernel_params((void *)add_vec, n / 128, as);
    cudaGraphNode_t child_sum;
    CUDA_OK("child", cudaGraphAddKernelNode(&child_sum, child, nullptr, 0, &ks));
    CUDA_OK("child_node", cudaGraphAddChildGraphNode(&sum, g, &join, 1, child));
    cudaHostNodeParams hp = {mark, &marks};
    CUDA_OK("host_node", cudaGraphAddHostNode(&host, g, &sum, 1, &hp));
    CUDA_OK("memcpy_node", cudaGraphAddMemcpyNode1D(&download, g, &sum, 1, out.data(), z,
                                                    n * sizeof(int), cudaMemcpyDeviceToHost));

    size_t nodes = 0, roots = 0, edges = 0, deps = 0, dependents = 0;
    CUDA_OK("query", cudaGraphGetNodes(g, nullptr, &nodes));
    CUDA_OK("query", cudaGraphGetRootNodes(g, nullptr, &roots));
    CUDA_OK("query", cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    CUDA_OK("query", cudaGraphNodeGetDependencies(join, nullptr, nullptr, &deps));
    CUDA_OK("query", cudaGraphNodeGetDependentNodes(sum, nullptr, nullptr, &dependents));
    cudaGraphNodeType type;
    CUDA_OK("query", cudaGraphNodeGetType(sum, &type));
    check(nodes == 9 && roots == 1 && edges == 9 && deps == 2 && dependents == 2 &&
              type == cudaGraphNodeTypeGraph,
          "graph_structure", "%zu nodes, %zu roots, %zu edges, %zu deps, %zu dependents",
          nodes, roots, edges, deps, dependents);
    cudaKernelNodeParams got = {};
    CUDA_OK("query", cudaGraphKernelNodeGetParams(thrice, &got));
    check(got.func == (void *)scale && got.gridDim.x == (unsigned)(n / 128) &&
              *(int *)got.kernelParams[2] == 3,
          "kernel_node_params", "func %p, grid %u", got.func, got.gridDim.x);

    cudaGraphExec_t exec;
    CUDA_OK("instantiate", cudaGraphInstantiateWithFlags(&exec, g, 0));
    CUDA_OK("launch", cudaGraphLaunch(exec, 0));
    CUDA_OK("launch", cudaStreamSynchronize(0));
    bool ok = marks == 1;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == 5 * i;
    check(ok, "graph_result", "out[3] = %d, host node ran %d times", out[3], marks);

    // Change the executable graph's "thrice" node to multiply by 10: now x*2 + y*10 = 12 i.
    int f10 = 10;
    void *a10[] = {&y, &nn, &f10};
    cudaKernelNodeParams k10 = kernel_params((void *)scale, n / 128, a10);
    CUDA_OK("exec_set_params", cudaGraphExecKernelNodeSetParams(exec, thrice, &k10));
    CUDA_OK("launch", cudaGraphLaunch(exec, 0));
    CUDA_OK("launch", cudaStreamSynchronize(0));
    ok = marks == 2;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == 12 * i;
    check(ok, "exec_kernel_node_set_params", "out[3] = %d", out[3]);

    // Update the executable graph from the (unchanged) original graph with "twice" set to 4:
    // x*4 + y*3 = 7 i.
    int f4 = 4;
    void *a4[] = {&x, &nn, &f4};
    cudaKernelNodeParams k4 = kernel_params((void *)scale, n / 128, a4);
    CUDA_OK("node_set_params", cudaGraphKernelNodeSetParams(twice, &k4));
    cudaGraphExecUpdateResultInfo info;
    CUDA_OK("exec_update", cudaGraphExecUpdate(exec, g, &info));
    CUDA_OK("launch", cudaGraphLaunch(exec, 0));
    CUDA_OK("launch", cudaStreamSynchronize(0));
    ok = info.result == cudaGraphExecUpdateSuccess;
    for (int i = 0; i < n && ok; i++)
        ok = out[i] == 7 * i;
    check(ok, "exec_update", "result %d, out[3] = %d", (int)info.result, out[3]);

    // A clone is independent; a cycle cannot be instantiated.
    cudaGraph_t copy;
    CUDA_OK("clone", cudaGraphClone(&copy, g));
    cudaGraphNode_t twice_copy, download_copy;
    CUDA_OK("clone", cudaGraphNodeFindInClone(&twice_copy, twice, copy));
    CUDA_OK("clone", cudaGraphNodeFindInClone(&download_copy, download, copy));
    CUDA_OK("cycle", cudaGraphAddDependencies(copy, &download_copy, &twice_copy, nullptr, 1));
    cudaGraphExec_t cyclic;
    check(cudaGraphInstantiate(&cyclic, copy, 0) != cudaSuccess, "cycle_refused",
          "a graph with a cycle must not instantiate");
    cudaGetLastError();

    CUDA_OK("cleanup", cudaGraphExecDestroy(exec));
    CUDA_OK("cleanup", cudaGraphDestroy(copy));
    CUDA_OK("cleanup", cudaGraphDestroy(child));
    CUDA_OK("cleanup", cudaGraphDestroy(g));
    check(cudaGraphDestroy(g) == cudaErrorInvalidValue, "destroyed_graph",
          "destroying a graph twice must fail");
    cudaGetLastError();
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    return check_finish();
}
