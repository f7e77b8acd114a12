/* graph.c: CUDA graphs: building them node by node, querying and updating nodes,
 * instantiating and launching. */
#include "libcudart-shim/shim.h"

#define SAME_AS(name, target) extern __typeof__(target) name __attribute__((alias(#target)))

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    return rt_graph_create(pGraph, flags);
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    return rt_graph_destroy(graph);
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    return rt_graph_clone(pGraphClone, originalGraph);
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph)
{
    return rt_graph_node_find_in_clone(pNode, originalNode, clonedGraph);
}

/* ---------------------------------------------------------------- adding nodes */

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
    return rt_graph_add_kernel_node(pGraphNode, graph, pDependencies, numDependencies,
                                    pNodeParams);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    return rt_graph_add_memcpy_node(pGraphNode, graph, pDependencies, numDependencies,
                                    pCopyParams);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, void *dst, const void *src,
                                     size_t count, enum cudaMemcpyKind kind)
{
    return rt_graph_add_memcpy_node_1d(pGraphNode, graph, pDependencies, numDependencies, dst,
                                       src, count, kind);
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies, const void *symbol,
                                           const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    return rt_graph_add_memcpy_node_symbol(pGraphNode, graph, pDependencies, numDependencies,
                                           symbol, (void *)src, count, offset, kind, true);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies, void *dst,
                                             const void *symbol, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind)
{
    return rt_graph_add_memcpy_node_symbol(pGraphNode, graph, pDependencies, numDependencies,
                                           symbol, dst, count, offset, kind, false);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
    return rt_graph_add_memset_node(pGraphNode, graph, pDependencies, numDependencies,
                                    pMemsetParams);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
    return rt_graph_add_host_node(pGraphNode, graph, pDependencies, numDependencies,
                                  pNodeParams);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    return rt_graph_add_empty_node(pGraphNode, graph, pDependencies, numDependencies);
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph)
{
    return rt_graph_add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies,
                                         childGraph);
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event)
{
    return rt_graph_add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                                   true);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies, cudaEvent_t event)
{
    return rt_graph_add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                                   false);
}

/* ---------------------------------------------------------------- node parameters */

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeKernel, pNodeParams, false,
                                "cudaGraphKernelNodeGetParams");
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeKernel, (void *)pNodeParams, true,
                                "cudaGraphKernelNodeSetParams");
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemcpy3DParms *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeMemcpy, pNodeParams, false,
                                "cudaGraphMemcpyNodeGetParams");
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemcpy3DParms *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeMemcpy, (void *)pNodeParams, true,
                                "cudaGraphMemcpyNodeSetParams");
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemsetParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeMemset, pNodeParams, false,
                                "cudaGraphMemsetNodeGetParams");
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemsetParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeMemset, (void *)pNodeParams, true,
                                "cudaGraphMemsetNodeSetParams");
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                       struct cudaHostNodeParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeHost, pNodeParams, false,
                                "cudaGraphHostNodeGetParams");
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                       const struct cudaHostNodeParams *pNodeParams)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeHost, (void *)pNodeParams, true,
                                "cudaGraphHostNodeSetParams");
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeGraph, pGraph, false,
                                "cudaGraphChildGraphNodeGetGraph");
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeEventRecord, event_out, false,
                                "cudaGraphEventRecordNodeGetEvent");
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeEventRecord, &event, true,
                                "cudaGraphEventRecordNodeSetEvent");
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeWaitEvent, event_out, false,
                                "cudaGraphEventWaitNodeGetEvent");
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return rt_graph_node_params(node, cudaGraphNodeTypeWaitEvent, &event, true,
                                "cudaGraphEventWaitNodeSetEvent");
}

/* ---------------------------------------------------------------- structure */

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    return rt_graph_node_get_type(node, pType);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    return rt_graph_get_nodes(graph, nodes, numNodes, false);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
    return rt_graph_get_nodes(graph, pRootNodes, pNumRootNodes, true);
}

/* CUDA 12's forms of the edge calls lack the edge-data argument (shim_cuda12_abi); CUDA 12
 * programs that want edge data call the _v2 forms in cuda12.c. */
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    if (shim_cuda12_abi)
        return rt_graph_get_edges(graph, from, to, NULL, (size_t *)edgeData);
    return rt_graph_get_edges(graph, from, to, edgeData, numEdges);
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    if (shim_cuda12_abi)
        return rt_graph_node_get_edges(node, pDependencies, NULL, (size_t *)edgeData, false);
    return rt_graph_node_get_edges(node, pDependencies, edgeData, pNumDependencies, false);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData,
                                           size_t *pNumDependentNodes)
{
    if (shim_cuda12_abi)
        return rt_graph_node_get_edges(node, pDependentNodes, NULL, (size_t *)edgeData, true);
    return rt_graph_node_get_edges(node, pDependentNodes, edgeData, pNumDependentNodes, true);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies)
{
    if (shim_cuda12_abi)
        return rt_graph_dependencies(graph, from, to, (size_t)(uintptr_t)edgeData, true);
    return rt_graph_dependencies(graph, from, to, numDependencies, true);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData,
                                        size_t numDependencies)
{
    if (shim_cuda12_abi)
        return rt_graph_dependencies(graph, from, to, (size_t)(uintptr_t)edgeData, false);
    return rt_graph_dependencies(graph, from, to, numDependencies, false);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    return rt_graph_destroy_node(node);
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    return rt_graph_debug_dot_print(graph, path, flags);
}

/* ---------------------------------------------------------------- executable graphs */

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags)
{
    return rt_graph_instantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags)
{
    return rt_graph_instantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams)
{
    if (!instantiateParams)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_graph_instantiate(pGraphExec, graph, instantiateParams->flags);
    instantiateParams->errNode_out = NULL;
    instantiateParams->result_out =
        e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
    return e;
}
SAME_AS(cudaGraphInstantiateWithParams_ptsz, cudaGraphInstantiateWithParams);

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    return rt_graph_exec_get_flags(graphExec, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return rt_graph_launch(graphExec, stream, false);
}
SAME_AS(cudaGraphLaunch_ptsz, cudaGraphLaunch);

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return rt_graph_launch(graphExec, stream, true);
}
SAME_AS(cudaGraphUpload_ptsz, cudaGraphUpload);

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    return rt_graph_exec_destroy(graphExec);
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
    return rt_graph_exec_update(hGraphExec, hGraph, resultInfo);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeKernel, pNodeParams,
                                     "cudaGraphExecKernelNodeSetParams");
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeMemcpy, pNodeParams,
                                     "cudaGraphExecMemcpyNodeSetParams");
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p = {0};
    p.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
    p.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
    p.extent = (struct cudaExtent){count, 1, 1};
    p.kind = kind;
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeMemcpy, &p,
                                     "cudaGraphExecMemcpyNodeSetParams1D");
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeMemset, pNodeParams,
                                     "cudaGraphExecMemsetNodeSetParams");
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeHost, pNodeParams,
                                     "cudaGraphExecHostNodeSetParams");
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                 cudaGraphNode_t hNode, cudaEvent_t event)
{
    return rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeEventRecord, &event,
                                     "cudaGraphExecEventRecordNodeSetEvent");
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               cudaEvent_t event)
{
    return rt_graph_exec_node_params(hGraphExec, hNode, cudaGraphNodeTypeWaitEvent, &event,
                                     "cudaGraphExecEventWaitNodeSetEvent");
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int isEnabled)
{
    return rt_graph_node_enabled(hGraphExec, hNode, &isEnabled, true);
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int *isEnabled)
{
    return rt_graph_node_enabled(hGraphExec, hNode, isEnabled, false);
}
