/* graph.c: CUDA graphs through the driver API: the runtime's graphs (runtime/graph.c), whose
 * handles CUgraph, CUgraphNode and CUgraphExec are; only the node parameter structures differ
 * (CUDA_KERNEL_NODE_PARAMS carries a CUfunction and separate dimensions, CUDA_MEMCPY3D the
 * driver's copy description). */
#include "libcuda-shim/driver.h"

#include <string.h>

_Static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == sizeof(struct cudaMemsetParams),
               "CUDA_MEMSET_NODE_PARAMS and cudaMemsetParams are laid out alike");
_Static_assert(sizeof(CUDA_HOST_NODE_PARAMS) == sizeof(struct cudaHostNodeParams),
               "CUDA_HOST_NODE_PARAMS and cudaHostNodeParams are laid out alike");
_Static_assert(sizeof(CUgraphExecUpdateResultInfo) == sizeof(cudaGraphExecUpdateResultInfo),
               "the graph update results are laid out alike");
_Static_assert(sizeof(CUgraphEdgeData) == sizeof(cudaGraphEdgeData),
               "the graph edge data are laid out alike");

/* ---------------------------------------------------------------- kernel node parameters */

static struct cudaKernelNodeParams kernel_params(const CUDA_KERNEL_NODE_PARAMS *p)
{
    return (struct cudaKernelNodeParams){
        .func = p->func ? (void *)p->func : (void *)p->kern,
        .gridDim = {p->gridDimX, p->gridDimY, p->gridDimZ},
        .blockDim = {p->blockDimX, p->blockDimY, p->blockDimZ},
        .sharedMemBytes = p->sharedMemBytes,
        .kernelParams = p->kernelParams,
        .extra = p->extra,
    };
}

/* The version 1 structure: the same fields without kern and ctx. */
static CUDA_KERNEL_NODE_PARAMS from_v1(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    return (CUDA_KERNEL_NODE_PARAMS){
        .func = p->func, .gridDimX = p->gridDimX, .gridDimY = p->gridDimY,
        .gridDimZ = p->gridDimZ, .blockDimX = p->blockDimX, .blockDimY = p->blockDimY,
        .blockDimZ = p->blockDimZ, .sharedMemBytes = p->sharedMemBytes,
        .kernelParams = p->kernelParams, .extra = p->extra,
    };
}

static CUresult add_kernel(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t n,
                           const CUDA_KERNEL_NODE_PARAMS *p)
{
    DRV_CHECK(drv_context());
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams k = kernel_params(p);
    return DRV(rt_graph_add_kernel_node(node, g, deps, n, &k));
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies, size_t numDependencies,
                                 const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return add_kernel(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies, size_t numDependencies,
                              const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS p = from_v1(nodeParams);
    return add_kernel(phGraphNode, hGraph, dependencies, numDependencies, &p);
}

static CUresult get_kernel(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *out)
{
    DRV_CHECK(drv_context());
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams k;
    CUresult r = DRV(rt_graph_node_params(node, cudaGraphNodeTypeKernel, &k, false,
                                          "cuGraphKernelNodeGetParams"));
    if (r != CUDA_SUCCESS)
        return r;
    void *fn = NULL;
    DRV(rt_get_func_by_symbol(&fn, k.func));  /* a runtime node names the host function */
    memset(out, 0, sizeof *out);
    out->func = (CUfunction)fn;
    out->gridDimX = k.gridDim.x;
    out->gridDimY = k.gridDim.y;
    out->gridDimZ = k.gridDim.z;
    out->blockDimX = k.blockDim.x;
    out->blockDimY = k.blockDim.y;
    out->blockDimZ = k.blockDim.z;
    out->sharedMemBytes = k.sharedMemBytes;
    out->kernelParams = k.kernelParams;
    out->extra = k.extra;
    return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return get_kernel(hNode, nodeParams);
}

CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    CUDA_KERNEL_NODE_PARAMS p;
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = get_kernel(hNode, &p);
    if (r == CUDA_SUCCESS)
        memcpy(nodeParams, &p, sizeof *nodeParams);  /* v1 is v2's leading fields */
    return r;
}

static CUresult set_kernel(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
    DRV_CHECK(drv_context());
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams k = kernel_params(p);
    return DRV(rt_graph_node_params(node, cudaGraphNodeTypeKernel, &k, true,
                                    "cuGraphKernelNodeSetParams"));
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *p)
{
    return set_kernel(hNode, p);
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS q = from_v1(p);
    return set_kernel(hNode, &q);
}

static CUresult exec_set_kernel(CUgraphExec x, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
    DRV_CHECK(drv_context());
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams k = kernel_params(p);
    return DRV(rt_graph_exec_node_params(x, node, cudaGraphNodeTypeKernel, &k,
                                         "cuGraphExecKernelNodeSetParams"));
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return exec_set_kernel(hGraphExec, hNode, nodeParams);
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS q = from_v1(nodeParams);
    return exec_set_kernel(hGraphExec, hNode, &q);
}

/* ---------------------------------------------------------------- copies, fills, host work */

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies, size_t numDependencies,
                              const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    (void)ctx;
    DRV_CHECK(drv_context());
    struct cudaMemcpy3DParms q;
    if (!copyParams || !drv_memcpy3d_params(copyParams, &q))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_graph_add_memcpy_node(phGraphNode, hGraph, dependencies, numDependencies, &q));
}

/* The driver's description of a runtime copy: pointer sides as unified addresses. */
static void to_memcpy3d(const struct cudaMemcpy3DParms *q, CUDA_MEMCPY3D *p)
{
    memset(p, 0, sizeof *p);
    size_t elem = 1;
    if (q->srcArray || q->dstArray) {
        struct cudaChannelFormatDesc d;
        struct cudaExtent e;
        unsigned flags;
        if (DRV(rt_array_get_info(&d, &e, &flags, q->srcArray ? q->srcArray : q->dstArray)) ==
            CUDA_SUCCESS)
            elem = (size_t)(d.x + d.y + d.z + d.w) / 8;
    }
    p->srcXInBytes = q->srcArray ? q->srcPos.x * elem : q->srcPos.x;
    p->srcY = q->srcPos.y;
    p->srcZ = q->srcPos.z;
    p->srcMemoryType = q->srcArray ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED;
    p->srcArray = (CUarray)q->srcArray;
    p->srcDevice = (CUdeviceptr)(uintptr_t)q->srcPtr.ptr;
    p->srcPitch = q->srcPtr.pitch;
    p->srcHeight = q->srcPtr.ysize;
    p->dstXInBytes = q->dstArray ? q->dstPos.x * elem : q->dstPos.x;
    p->dstY = q->dstPos.y;
    p->dstZ = q->dstPos.z;
    p->dstMemoryType = q->dstArray ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_UNIFIED;
    p->dstArray = (CUarray)q->dstArray;
    p->dstDevice = (CUdeviceptr)(uintptr_t)q->dstPtr.ptr;
    p->dstPitch = q->dstPtr.pitch;
    p->dstHeight = q->dstPtr.ysize;
    p->WidthInBytes = q->extent.width * elem;
    p->Height = q->extent.height;
    p->Depth = q->extent.depth;
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    DRV_CHECK(drv_context());
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaMemcpy3DParms q;
    CUresult r = DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeMemcpy, &q, false,
                                          "cuGraphMemcpyNodeGetParams"));
    if (r == CUDA_SUCCESS)
        to_memcpy3d(&q, nodeParams);
    return r;
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    DRV_CHECK(drv_context());
    struct cudaMemcpy3DParms q;
    if (!nodeParams || !drv_memcpy3d_params(nodeParams, &q))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeMemcpy, &q, true,
                                    "cuGraphMemcpyNodeSetParams"));
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    (void)ctx;
    DRV_CHECK(drv_context());
    struct cudaMemcpy3DParms q;
    if (!copyParams || !drv_memcpy3d_params(copyParams, &q))
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeMemcpy, &q,
                                         "cuGraphExecMemcpyNodeSetParams"));
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                              const CUgraphNode *dependencies, size_t numDependencies,
                              const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    (void)ctx;
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_memset_node(phGraphNode, hGraph, dependencies, numDependencies,
                                        (const struct cudaMemsetParams *)memsetParams));
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeMemset, nodeParams, false,
                                    "cuGraphMemsetNodeGetParams"));
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeMemset, (void *)nodeParams, true,
                                    "cuGraphMemsetNodeSetParams"));
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                        CUcontext ctx)
{
    (void)ctx;
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeMemset,
                                         memsetParams, "cuGraphExecMemsetNodeSetParams"));
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                            const CUgraphNode *dependencies, size_t numDependencies,
                            const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_host_node(phGraphNode, hGraph, dependencies, numDependencies,
                                      (const struct cudaHostNodeParams *)nodeParams));
}

CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeHost, nodeParams, false,
                                    "cuGraphHostNodeGetParams"));
}

CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeHost, (void *)nodeParams, true,
                                    "cuGraphHostNodeSetParams"));
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                      const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeHost, nodeParams,
                                         "cuGraphExecHostNodeSetParams"));
}

/* ---------------------------------------------------------------- other nodes */

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                  const CUgraphNode *dependencies, size_t numDependencies,
                                  CUgraph childGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_child_graph_node(phGraphNode, hGraph, dependencies, numDependencies,
                                             childGraph));
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeGraph, phGraph, false,
                                    "cuGraphChildGraphNodeGetGraph"));
}

CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                             const CUgraphNode *dependencies, size_t numDependencies)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_empty_node(phGraphNode, hGraph, dependencies, numDependencies));
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                   const CUgraphNode *dependencies, size_t numDependencies,
                                   CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_event_node(phGraphNode, hGraph, dependencies, numDependencies,
                                       (cudaEvent_t)event, true));
}

CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                 const CUgraphNode *dependencies, size_t numDependencies,
                                 CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_add_event_node(phGraphNode, hGraph, dependencies, numDependencies,
                                       (cudaEvent_t)event, false));
}

#define EVENT_NODE(name, type, set)                                                          \
    CUresult name(CUgraphNode hNode, CUevent *event)                                          \
    {                                                                                         \
        DRV_CHECK(drv_context());                                                             \
        return DRV(rt_graph_node_params(hNode, type, event, set, #name));                     \
    }

EVENT_NODE(cuGraphEventRecordNodeGetEvent, cudaGraphNodeTypeEventRecord, false)
EVENT_NODE(cuGraphEventWaitNodeGetEvent, cudaGraphNodeTypeWaitEvent, false)

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeEventRecord, &event, true,
                                    "cuGraphEventRecordNodeSetEvent"));
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_params(hNode, cudaGraphNodeTypeWaitEvent, &event, true,
                                    "cuGraphEventWaitNodeSetEvent"));
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode,
                                            CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeEventRecord,
                                         &event, "cuGraphExecEventRecordNodeSetEvent"));
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode,
                                          CUevent event)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeWaitEvent, &event,
                                         "cuGraphExecEventWaitNodeSetEvent"));
}

/* ---------------------------------------------------------------- structure */

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_create(phGraph, flags));
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_destroy(hGraph));
}

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_clone(phGraphClone, originalGraph));
}

CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode,
                                CUgraph hClonedGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_find_in_clone(phNode, hOriginalNode, hClonedGraph));
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    DRV_CHECK(drv_context());
    /* CUgraphNodeType numbers the types as cudaGraphNodeType does. */
    return DRV(rt_graph_node_get_type(hNode, (enum cudaGraphNodeType *)type));
}

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_get_nodes(hGraph, nodes, numNodes, false));
}

CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_get_nodes(hGraph, rootNodes, numRootNodes, true));
}

CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
                            CUgraphEdgeData *edgeData, size_t *numEdges)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_get_edges(hGraph, from, to, (cudaGraphEdgeData *)edgeData, numEdges));
}

CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
    return cuGraphGetEdges_v2(hGraph, from, to, NULL, numEdges);
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies,
                                       CUgraphEdgeData *edgeData, size_t *numDependencies)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_get_edges(hNode, dependencies, (cudaGraphEdgeData *)edgeData,
                                       numDependencies, false));
}

CUresult cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                    size_t *numDependencies)
{
    return cuGraphNodeGetDependencies_v2(hNode, dependencies, NULL, numDependencies);
}

CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                         CUgraphEdgeData *edgeData, size_t *numDependentNodes)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_get_edges(hNode, dependentNodes, (cudaGraphEdgeData *)edgeData,
                                       numDependentNodes, true));
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                      size_t *numDependentNodes)
{
    return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, NULL, numDependentNodes);
}

CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                   const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    (void)edgeData;  /* edge data only matters for programmatic launches */
    DRV_CHECK(drv_context());
    return DRV(rt_graph_dependencies(hGraph, from, to, numDependencies, true));
}

CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                size_t numDependencies)
{
    return cuGraphAddDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode *from,
                                      const CUgraphNode *to, const CUgraphEdgeData *edgeData,
                                      size_t numDependencies)
{
    (void)edgeData;
    DRV_CHECK(drv_context());
    return DRV(rt_graph_dependencies(hGraph, from, to, numDependencies, false));
}

CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from,
                                   const CUgraphNode *to, size_t numDependencies)
{
    return cuGraphRemoveDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

CUresult cuGraphDestroyNode(CUgraphNode hNode)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_destroy_node(hNode));
}

CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_debug_dot_print(hGraph, path, flags));
}

/* ---------------------------------------------------------------- executable graphs */

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph,
                                     unsigned long long flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_instantiate(phGraphExec, hGraph, flags));
}

/* The CUDA 10-11 form, with an error node and a log. */
static CUresult instantiate_logged(CUgraphExec *x, CUgraph g, CUgraphNode *error_node,
                                   char *log, size_t size)
{
    if (error_node)
        *error_node = NULL;
    if (log && size)
        log[0] = 0;
    return cuGraphInstantiateWithFlags(x, g, 0);
}

CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                            char *logBuffer, size_t bufferSize)
{
    return instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                               char *logBuffer, size_t bufferSize)
{
    return instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

static CUresult instantiate_with_params(CUgraphExec *x, CUgraph g,
                                        CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuGraphInstantiateWithFlags(x, g, p->flags);
    p->hErrNode_out = NULL;
    p->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS
                                      : CUDA_GRAPH_INSTANTIATE_ERROR;
    return r;
}

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    return instantiate_with_params(phGraphExec, hGraph, instantiateParams);
}

CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                           CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    return instantiate_with_params(phGraphExec, hGraph, instantiateParams);
}

CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_get_flags(hGraphExec, (unsigned long long *)flags));
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_destroy(hGraphExec));
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_launch(hGraphExec, hStream, false));
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_launch(hGraphExec, PTSZ(hStream), false));
}

CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_launch(hGraphExec, hStream, true));
}

CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_launch(hGraphExec, PTSZ(hStream), true));
}

CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
                              CUgraphExecUpdateResultInfo *resultInfo)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_update(hGraphExec, hGraph,
                                    (cudaGraphExecUpdateResultInfo *)resultInfo));
}

CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                           CUgraphExecUpdateResult *updateResult_out)
{
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CUresult r = cuGraphExecUpdate_v2(hGraphExec, hGraph, &info);
    if (hErrorNode_out)
        *hErrorNode_out = info.errorNode;
    if (updateResult_out)
        *updateResult_out = info.result;
    return r;
}

CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_enabled(hGraphExec, hNode, &isEnabled, true));
}

CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_node_enabled(hGraphExec, hNode, isEnabled, false));
}

CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                            CUgraph childGraph)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeGraph, &childGraph,
                                         "cuGraphExecChildGraphNodeSetParams"));
}

/* ---------------------------------------------------------------- kernel node attributes */

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                       CUkernelNodeAttrValue *value_out)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_kernel_node_attribute(hNode, (cudaLaunchAttributeID)attr,
                                              (cudaLaunchAttributeValue *)value_out, false));
}

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                       const CUkernelNodeAttrValue *value)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_kernel_node_attribute(hNode, (cudaLaunchAttributeID)attr,
                                              (cudaLaunchAttributeValue *)value, true));
}

CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    DRV_CHECK(drv_context());
    return DRV(rt_graph_kernel_node_copy_attributes(dst, src));
}

/* ---------------------------------------------------------------- the generic node calls */

static CUresult add_generic(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t n,
                            CUgraphNodeParams *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUDA_KERNEL_NODE_PARAMS k;
        memcpy(&k, &p->kernel, sizeof k);  /* v3 is laid out as v2 */
        return cuGraphAddKernelNode_v2(node, g, deps, n, &k);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return cuGraphAddMemcpyNode(node, g, deps, n, &p->memcpy.copyParams, p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS m = {p->memset.dst, p->memset.pitch, p->memset.value,
                                     p->memset.elementSize, p->memset.width, p->memset.height};
        return cuGraphAddMemsetNode(node, g, deps, n, &m, p->memset.ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS h = {p->host.fn, p->host.userData};
        return cuGraphAddHostNode(node, g, deps, n, &h);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return cuGraphAddChildGraphNode(node, g, deps, n, p->graph.graph);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return cuGraphAddEventRecordNode(node, g, deps, n, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return cuGraphAddEventWaitNode(node, g, deps, n, p->eventWait.event);
    default:
        return drv_unsupported("cuGraphAddNode of this node type (memory, external semaphore, "
                               "batch memory operation or conditional nodes)");
    }
}

CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                        size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    return add_generic(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
                           const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData,
                           size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    (void)dependencyData;
    return add_generic(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

/* Sets a node's parameters from the generic description, in a graph (exec NULL) or in an
 * executable graph. */
static CUresult set_generic(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUDA_KERNEL_NODE_PARAMS k;
        memcpy(&k, &p->kernel, sizeof k);
        return exec ? cuGraphExecKernelNodeSetParams_v2(exec, node, &k)
                    : cuGraphKernelNodeSetParams_v2(node, &k);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return exec ? cuGraphExecMemcpyNodeSetParams(exec, node, &p->memcpy.copyParams,
                                                     p->memcpy.copyCtx)
                    : cuGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS m = {p->memset.dst, p->memset.pitch, p->memset.value,
                                     p->memset.elementSize, p->memset.width, p->memset.height};
        return exec ? cuGraphExecMemsetNodeSetParams(exec, node, &m, p->memset.ctx)
                    : cuGraphMemsetNodeSetParams(node, &m);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS h = {p->host.fn, p->host.userData};
        return exec ? cuGraphExecHostNodeSetParams(exec, node, &h)
                    : cuGraphHostNodeSetParams(node, &h);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        if (exec)
            return cuGraphExecChildGraphNodeSetParams(exec, node, p->graph.graph);
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return exec ? cuGraphExecEventRecordNodeSetEvent(exec, node, p->eventRecord.event)
                    : cuGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return exec ? cuGraphExecEventWaitNodeSetEvent(exec, node, p->eventWait.event)
                    : cuGraphEventWaitNodeSetEvent(node, p->eventWait.event);
    default:
        break;
    }
    return drv_unsupported("cuGraphNodeSetParams / cuGraphExecNodeSetParams of this node type");
}

CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    return set_generic(NULL, hNode, nodeParams);
}

CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                  CUgraphNodeParams *nodeParams)
{
    if (!hGraphExec)
        return CUDA_ERROR_INVALID_VALUE;
    return set_generic(hGraphExec, hNode, nodeParams);
}
