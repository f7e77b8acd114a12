/* graph.c: CUDA graphs: building them node by node, querying and updating nodes,
 * instantiating and launching. */
#include "libcudart-shim/shim.h"

#include <string.h>

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

/* ---------------------------------------------------------------- kernel node attributes */

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            cudaKernelNodeAttrValue *value_out)
{
    return rt_graph_kernel_node_attribute(hNode, attr, value_out, false);
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            const cudaKernelNodeAttrValue *value)
{
    return rt_graph_kernel_node_attribute(hNode, attr, (cudaKernelNodeAttrValue *)value, true);
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    return rt_graph_kernel_node_copy_attributes(hDst, hSrc);
}

/* ---------------------------------------------------------------- copy node shorthands */

static struct cudaMemcpy3DParms linear(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
    p.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
    p.extent = (struct cudaExtent){count, 1, 1};
    p.kind = kind;
    return p;
}

/* The device bytes [offset, offset + count) of a variable, checked against its size. */
static cudaError_t symbol_bytes(const void *symbol, size_t count, size_t offset, void **where)
{
    size_t size = 0;
    cudaError_t e = rt_get_symbol_size(&size, symbol);
    if (e == cudaSuccess && (offset > size || count > size - offset))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_get_symbol_address(where, symbol);
    if (e == cudaSuccess)
        *where = (char *)*where + offset;
    return e;
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                           size_t count, enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p = linear(dst, src, count, kind);
    return rt_graph_node_params(node, cudaGraphNodeTypeMemcpy, &p, true,
                                "cudaGraphMemcpyNodeSetParams1D");
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                 const void *src, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind)
{
    void *where;
    cudaError_t e = symbol_bytes(symbol, count, offset, &where);
    if (e != cudaSuccess)
        return e;
    struct cudaMemcpy3DParms p = linear(where, src, count, kind);
    return rt_graph_node_params(node, cudaGraphNodeTypeMemcpy, &p, true,
                                "cudaGraphMemcpyNodeSetParamsToSymbol");
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                   const void *symbol, size_t count,
                                                   size_t offset, enum cudaMemcpyKind kind)
{
    void *where;
    cudaError_t e = symbol_bytes(symbol, count, offset, &where);
    if (e != cudaSuccess)
        return e;
    struct cudaMemcpy3DParms p = linear(dst, where, count, kind);
    return rt_graph_node_params(node, cudaGraphNodeTypeMemcpy, &p, true,
                                "cudaGraphMemcpyNodeSetParamsFromSymbol");
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                     cudaGraphNode_t node, const void *symbol,
                                                     const void *src, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind)
{
    void *where;
    cudaError_t e = symbol_bytes(symbol, count, offset, &where);
    if (e != cudaSuccess)
        return e;
    struct cudaMemcpy3DParms p = linear(where, src, count, kind);
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeMemcpy, &p,
                                     "cudaGraphExecMemcpyNodeSetParamsToSymbol");
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                       cudaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count,
                                                       size_t offset, enum cudaMemcpyKind kind)
{
    void *where;
    cudaError_t e = symbol_bytes(symbol, count, offset, &where);
    if (e != cudaSuccess)
        return e;
    struct cudaMemcpy3DParms p = linear(dst, where, count, kind);
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeMemcpy, &p,
                                     "cudaGraphExecMemcpyNodeSetParamsFromSymbol");
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                 cudaGraph_t childGraph)
{
    return rt_graph_exec_node_params(hGraphExec, node, cudaGraphNodeTypeGraph, &childGraph,
                                     "cudaGraphExecChildGraphNodeSetParams");
}

/* ---------------------------------------------------------------- the generic node calls
 * (CUDA 12.2): one parameter structure for every node type. */

/* The per-type call's parameters from a generic description; false for node types ptxsim
 * does not build this way (memory, external semaphore and conditional nodes). */
typedef struct generic_spec {
    enum cudaGraphNodeType type;
    union {
        struct cudaKernelNodeParams kernel;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams fill;
        struct cudaHostNodeParams host;
        cudaGraph_t child;
        cudaEvent_t event;
    } u;
} generic_spec;

static bool from_generic(const struct cudaGraphNodeParams *p, generic_spec *g)
{
    memset(g, 0, sizeof *g);
    g->type = p->type;
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        g->u.kernel = (struct cudaKernelNodeParams){
            p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes,
            p->kernel.kernelParams, p->kernel.extra};
        return true;
    case cudaGraphNodeTypeMemcpy:
        g->u.copy = p->memcpy.copyParams;
        return true;
    case cudaGraphNodeTypeMemset:
        g->u.fill = (struct cudaMemsetParams){p->memset.dst, p->memset.pitch, p->memset.value,
                                              p->memset.elementSize, p->memset.width,
                                              p->memset.height};
        return true;
    case cudaGraphNodeTypeHost:
        g->u.host = (struct cudaHostNodeParams){p->host.fn, p->host.userData};
        return true;
    case cudaGraphNodeTypeGraph:
        g->u.child = p->graph.graph;
        return true;
    case cudaGraphNodeTypeEventRecord:
        g->u.event = p->eventRecord.event;
        return true;
    case cudaGraphNodeTypeWaitEvent:
        g->u.event = p->eventWait.event;
        return true;
    default:
        return false;
    }
}

static cudaError_t add_generic(cudaGraphNode_t *node, cudaGraph_t graph,
                               const cudaGraphNode_t *deps, size_t n,
                               struct cudaGraphNodeParams *p)
{
    generic_spec g;
    if (!p)
        return cudaErrorInvalidValue;
    if (!from_generic(p, &g))
        return rt_unsupported("cudaGraphAddNode of this node type (memory, external semaphore "
                              "or conditional nodes)");
    switch (g.type) {
    case cudaGraphNodeTypeKernel: return rt_graph_add_kernel_node(node, graph, deps, n, &g.u.kernel);
    case cudaGraphNodeTypeMemcpy: return rt_graph_add_memcpy_node(node, graph, deps, n, &g.u.copy);
    case cudaGraphNodeTypeMemset: return rt_graph_add_memset_node(node, graph, deps, n, &g.u.fill);
    case cudaGraphNodeTypeHost: return rt_graph_add_host_node(node, graph, deps, n, &g.u.host);
    case cudaGraphNodeTypeGraph:
        return rt_graph_add_child_graph_node(node, graph, deps, n, g.u.child);
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        return rt_graph_add_event_node(node, graph, deps, n, g.u.event,
                                       g.type == cudaGraphNodeTypeEventRecord);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *nodeParams)
{
    if (shim_cuda12_abi)  /* CUDA 12: (node, graph, dependencies, numDependencies, params) */
        return add_generic(pGraphNode, graph, pDependencies, (size_t)(uintptr_t)dependencyData,
                           (struct cudaGraphNodeParams *)(uintptr_t)numDependencies);
    return add_generic(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                const cudaGraphNode_t *pDependencies,
                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                struct cudaGraphNodeParams *nodeParams);
cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                const cudaGraphNode_t *pDependencies,
                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                struct cudaGraphNodeParams *nodeParams)
{
    (void)dependencyData;  /* CUDA 12.3's form, with edge data */
    return add_generic(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)
{
    generic_spec g;
    if (!nodeParams)
        return cudaErrorInvalidValue;
    if (!from_generic(nodeParams, &g))
        return rt_unsupported("cudaGraphNodeSetParams of this node type");
    if (g.type == cudaGraphNodeTypeGraph)
        return rt_unsupported("cudaGraphNodeSetParams of a child graph node");
    return rt_graph_node_params(node, g.type, &g.u, true, "cudaGraphNodeSetParams");
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       struct cudaGraphNodeParams *nodeParams)
{
    generic_spec g;
    if (!nodeParams)
        return cudaErrorInvalidValue;
    if (!from_generic(nodeParams, &g))
        return rt_unsupported("cudaGraphExecNodeSetParams of this node type");
    return rt_graph_exec_node_params(graphExec, node, g.type, &g.u, "cudaGraphExecNodeSetParams");
}
