// graph_generic.cu: CUDA 12's graph calls beyond the per-type ones, through both APIs: nodes made
// from the one generic parameter structure (cudaGraphAddNode / cuGraphAddNode), their
// parameters changed the same way in a graph and in an executable graph, kernel node
// attributes (an access policy window, a priority) set, read back and copied, copy nodes
// retargeted with the 1D and symbol shorthands, a child graph swapped in an executable graph,
// and a driver-built graph with an event node launched on a stream. Checked against CPU
// results.
// nvcc: -lcuda
#include "drv_check.cuh"

#include <cstring>

__device__ int table[64];

__global__ void axpb(int *x, int a, int b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

__global__ void add_table(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += table[i % 64];
}

static bool all_equal(const int *h, int n, int (*f)(int))
{
    for (int i = 0; i < n; i++)
        if (h[i] != f(i))
            return false;
    return true;
}

int main()
{
    const int n = 256;
    int *d, h[n];
    CUDA_OK("malloc", cudaMalloc(&d, sizeof h));
    for (int i = 0; i < n; i++)
        h[i] = i;
    int tab[64];
    for (int i = 0; i < 64; i++)
        tab[i] = 1000 * (i % 3);

    // memcpy (host to device) -> kernel (x = 2x + 1) -> memcpy to the symbol -> add_table,
    // every node made with cudaGraphAddNode.
    cudaGraph_t g;
    CUDA_OK("graph", cudaGraphCreate(&g, 0));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(h, sizeof h, n, 1);
    p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(d, sizeof h, n, 1);
    p.memcpy.copyParams.extent = make_cudaExtent(sizeof h, 1, 1);
    p.memcpy.copyParams.kind = cudaMemcpyHostToDevice;
    cudaGraphNode_t copy_in, kernel, to_symbol, add;
    CUDA_OK("add memcpy", cudaGraphAddNode(&copy_in, g, NULL, NULL, 0, &p));
    int a = 2, b = 1, nn = n;
    void *kargs[] = {&d, &a, &b, &nn};
    p = {};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = (void *)axpb;
    p.kernel.gridDim = dim3(n / 64);
    p.kernel.blockDim = dim3(64);
    p.kernel.kernelParams = kargs;
    CUDA_OK("add kernel", cudaGraphAddNode(&kernel, g, &copy_in, NULL, 1, &p));
    int zero_tab[64] = {0};
    CUDA_OK("add to symbol", cudaGraphAddMemcpyNodeToSymbol(&to_symbol, g, &kernel, 1, table,
                                                             zero_tab, sizeof zero_tab, 0,
                                                             cudaMemcpyHostToDevice));
    void *targs[] = {&d, &nn};
    p.kernel.func = (void *)add_table;
    p.kernel.kernelParams = targs;
    CUDA_OK("add kernel", cudaGraphAddNode(&add, g, &to_symbol, NULL, 1, &p));

    // Attributes of the kernel node: set, read back, copied to the other kernel node.
    cudaKernelNodeAttrValue v;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = sizeof h;
    v.accessPolicyWindow.hitRatio = 1.0f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
    CUDA_OK("set attr", cudaGraphKernelNodeSetAttribute(kernel,
                                                        cudaKernelNodeAttributeAccessPolicyWindow,
                                                        &v));
    cudaKernelNodeAttrValue prio;
    memset(&prio, 0, sizeof prio);
    prio.priority = -2;
    CUDA_OK("set attr", cudaGraphKernelNodeSetAttribute(kernel, cudaKernelNodeAttributePriority,
                                                        &prio));
    CUDA_OK("copy attrs", cudaGraphKernelNodeCopyAttributes(add, kernel));
    cudaKernelNodeAttrValue back;
    CUDA_OK("get attr", cudaGraphKernelNodeGetAttribute(add,
                                                        cudaKernelNodeAttributeAccessPolicyWindow,
                                                        &back));
    cudaKernelNodeAttrValue back_prio;
    CUDA_OK("get attr", cudaGraphKernelNodeGetAttribute(add, cudaKernelNodeAttributePriority,
                                                        &back_prio));
    check(back.accessPolicyWindow.base_ptr == d && back.accessPolicyWindow.hitRatio == 1.0f &&
              back_prio.priority == -2,
          "graph_kernel_node_attributes", "window %p, priority %d",
          back.accessPolicyWindow.base_ptr, back_prio.priority);

    // Retarget the symbol copy before instantiating: the real table this time.
    CUDA_OK("set symbol", cudaGraphMemcpyNodeSetParamsToSymbol(to_symbol, table, tab, sizeof tab,
                                                                0, cudaMemcpyHostToDevice));
    cudaGraphExec_t x;
    CUDA_OK("instantiate", cudaGraphInstantiate(&x, g, 0));
    CUDA_OK("launch", cudaGraphLaunch(x, 0));
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    check(all_equal(h, n, [](int i) { return 2 * i + 1 + 1000 * (i % 64 % 3); }),
          "graph_add_node_run", "h[5] = %d", h[5]);

    // The kernel's parameters changed in the executable graph through the generic call.
    for (int i = 0; i < n; i++)
        h[i] = i;
    a = 3;
    b = -4;
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = (void *)axpb;
    p.kernel.kernelParams = kargs;
    CUDA_OK("exec set", cudaGraphExecNodeSetParams(x, kernel, &p));
    CUDA_OK("launch", cudaGraphLaunch(x, 0));
    CUDA_OK("copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    check(all_equal(h, n, [](int i) { return 3 * i - 4 + 1000 * (i % 64 % 3); }),
          "graph_exec_node_set_params", "h[5] = %d", h[5]);
    CUDA_OK("destroy", cudaGraphExecDestroy(x));
    CUDA_OK("destroy", cudaGraphDestroy(g));

    // The driver API: a graph with a kernel node (the runtime kernel as a CUfunction), a
    // memset node and an event record node, made with cuGraphAddNode.
    CU_OK("init", cuInit(0));
    CUgraph dg;
    CU_OK("graph", cuGraphCreate(&dg, 0));
    CUgraphNodeParams q = {};
    q.type = CU_GRAPH_NODE_TYPE_MEMSET;
    q.memset.dst = (CUdeviceptr)d;
    q.memset.value = 5;
    q.memset.elementSize = 4;
    q.memset.width = n;
    q.memset.height = 1;
    CUgraphNode fill, kern, rec;
    CU_OK("add memset", cuGraphAddNode(&fill, dg, NULL, NULL, 0, &q));
    cudaFunction_t fn;
    CUDA_OK("function", cudaGetFuncBySymbol(&fn, (const void *)axpb));
    a = 10;
    b = 7;
    memset(&q, 0, sizeof q);
    q.type = CU_GRAPH_NODE_TYPE_KERNEL;
    q.kernel.func = (CUfunction)fn;
    q.kernel.gridDimX = n / 64;
    q.kernel.gridDimY = q.kernel.gridDimZ = 1;
    q.kernel.blockDimX = 64;
    q.kernel.blockDimY = q.kernel.blockDimZ = 1;
    q.kernel.kernelParams = kargs;
    CU_OK("add kernel", cuGraphAddNode(&kern, dg, &fill, NULL, 1, &q));
    CUevent ev;
    CU_OK("event", cuEventCreate(&ev, CU_EVENT_DEFAULT));
    memset(&q, 0, sizeof q);
    q.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
    q.eventRecord.event = ev;
    CU_OK("add record", cuGraphAddNode(&rec, dg, &kern, NULL, 1, &q));
    size_t count = 0;
    CU_OK("nodes", cuGraphGetNodes(dg, NULL, &count));
    CUgraphNodeType type;
    CU_OK("type", cuGraphNodeGetType(kern, &type));
    CUDA_KERNEL_NODE_PARAMS kp;
    CU_OK("params", cuGraphKernelNodeGetParams(kern, &kp));
    check(count == 3 && type == CU_GRAPH_NODE_TYPE_KERNEL && kp.func == (CUfunction)fn &&
              kp.gridDimX == n / 64,
          "driver_graph_structure", "%zu nodes, type %d", count, (int)type);
    CUgraphExec dx;
    CU_OK("instantiate", cuGraphInstantiate(&dx, dg, 0));
    CUstream s;
    CU_OK("stream", cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_OK("launch", cuGraphLaunch(dx, s));
    CU_OK("event sync", cuEventSynchronize(ev));
    CU_OK("copy", cuMemcpyDtoH(h, (CUdeviceptr)d, sizeof h));
    check(all_equal(h, n, [](int) { return 10 * 5 + 7; }), "driver_graph_run", "h[5] = %d",
          h[5]);
    CU_OK("destroy", cuGraphExecDestroy(dx));
    CU_OK("destroy", cuGraphDestroy(dg));
    CU_OK("destroy", cuStreamDestroy(s));
    CU_OK("destroy", cuEventDestroy(ev));
    CUDA_OK("free", cudaFree(d));
    return check_finish();
}
