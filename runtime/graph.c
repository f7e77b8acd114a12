/* graph.c: CUDA graphs. A graph is a set of nodes (each an rt_op: a kernel launch, a copy, a
 * fill, a host function, an event record or wait, a child graph, or nothing) with dependency
 * edges. Instantiating copies the graph and fixes an order that respects every edge (Kahn's
 * algorithm, ties broken by creation order, so the order is deterministic); launching queues
 * a copy of the executable graph on the stream (later updates to it do not change a launch
 * already made, as CUDA says), and the device worker runs its nodes in that order.
 */
#include "runtime/rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAPH_MAGIC 0x67726170u  /* "grap" */
#define NODE_MAGIC 0x6e6f6465u   /* "node" */
#define EXEC_MAGIC 0x65786563u   /* "exec" */

struct rt_gnode {
    uint32_t magic;
    rt_graph *graph;
    enum cudaGraphNodeType type;
    rt_op op;
    rt_gnode **deps;
    size_t ndeps, cap;
    uint64_t seq;               /* creation order in its graph */
    const rt_gnode *origin;     /* the node it was cloned from (NodeFindInClone, Exec*) */
    bool disabled;              /* cudaGraphNodeSetEnabled(..., 0) in an executable graph */
    /* What the node was made with, for the Get/Set calls. */
    union {
        struct cudaKernelNodeParams kernel;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams fill;
        struct cudaHostNodeParams host;
    } params;
    void **argv;                /* kernel: a pointer to each argument in op.kernel.params */
    /* kernel: launch attributes set with cudaGraphKernelNodeSetAttribute */
    struct { cudaLaunchAttributeID id; cudaLaunchAttributeValue val; } attrs[8];
    unsigned nattrs;
};

struct rt_graph {
    uint32_t magic;
    rt_gnode **nodes;
    size_t n, cap;
    uint64_t next_seq;
};

typedef struct rt_gexec {
    uint32_t magic;
    rt_graph *graph;            /* a private copy of the instantiated graph */
    rt_gnode **order;
    unsigned long long flags;
} rt_gexec;

/* Live graphs and executable graphs, to tell a handle from garbage. */
static rt_graph **graphs;
static size_t ngraphs, cap_graphs;
static rt_gexec **execs;
static size_t nexecs, cap_execs;

static bool push_ptr(void ***arr, size_t *n, size_t *cap, void *p)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        void **a = realloc(*arr, ncap * sizeof *a);
        if (!a)
            return false;
        *arr = a;
        *cap = ncap;
    }
    (*arr)[(*n)++] = p;
    return true;
}

static void drop_ptr(void **arr, size_t *n, const void *p)
{
    for (size_t i = 0; i < *n; i++)
        if (arr[i] == p) {
            arr[i] = arr[--*n];
            return;
        }
}

static bool graph_live(const rt_graph *g)
{
    for (size_t i = 0; g && i < ngraphs; i++)
        if (graphs[i] == g)
            return true;
    return false;
}

rt_graph *rt_graph_checked(cudaGraph_t graph, const char *api)
{
    rt_graph *g = (rt_graph *)graph;
    if (graph_live(g))
        return g;
    rt_api_error(cudaErrorInvalidValue, api, "%p is not a graph", (void *)graph);
    return NULL;
}

bool rt_graph_node_in(const rt_graph *g, const rt_gnode *node)
{
    for (size_t i = 0; g && i < g->n; i++)
        if (g->nodes[i] == node)
            return true;
    return false;
}

/* A node of a live (user-visible) graph, or NULL with a message. */
static rt_gnode *node_checked(cudaGraphNode_t node, const char *api)
{
    rt_gnode *nd = (rt_gnode *)node;
    for (size_t i = 0; nd && i < ngraphs; i++)
        if (rt_graph_node_in(graphs[i], nd))
            return nd;
    rt_api_error(cudaErrorInvalidValue, api, "%p is not a node of a live graph", (void *)node);
    return NULL;
}

static rt_gexec *exec_checked(cudaGraphExec_t exec, const char *api)
{
    for (size_t i = 0; i < nexecs; i++)
        if ((cudaGraphExec_t)execs[i] == exec)
            return execs[i];
    rt_api_error(cudaErrorInvalidValue, api, "%p is not an executable graph", (void *)exec);
    return NULL;
}

/* ---------------------------------------------------------------- building */

rt_graph *rt_graph_new(void)
{
    rt_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->magic = GRAPH_MAGIC;
    if (!push_ptr((void ***)&graphs, &ngraphs, &cap_graphs, g)) {
        free(g);
        return NULL;
    }
    return g;
}

static void node_free(rt_gnode *nd)
{
    rt_op_free(&nd->op);
    free(nd->deps);
    free(nd->argv);
    nd->magic = 0;
    free(nd);
}

void rt_graph_free(rt_graph *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    drop_ptr((void **)graphs, &ngraphs, g);
    g->magic = 0;
    free(g);
}

static cudaError_t add_dep(rt_gnode *nd, rt_gnode *dep)
{
    for (size_t i = 0; i < nd->ndeps; i++)
        if (nd->deps[i] == dep)
            return cudaSuccess;
    if (!push_ptr((void ***)&nd->deps, &nd->ndeps, &nd->cap, dep))
        return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

static enum cudaGraphNodeType type_of(rt_op_kind k)
{
    switch (k) {
    case RT_OP_KERNEL: return cudaGraphNodeTypeKernel;
    case RT_OP_COPY: return cudaGraphNodeTypeMemcpy;
    case RT_OP_FILL: return cudaGraphNodeTypeMemset;
    case RT_OP_HOST:
    case RT_OP_CALLBACK: return cudaGraphNodeTypeHost;
    case RT_OP_FREE: return cudaGraphNodeTypeMemFree;
    case RT_OP_EVENT_RECORD: return cudaGraphNodeTypeEventRecord;
    case RT_OP_EVENT_WAIT: return cudaGraphNodeTypeWaitEvent;
    case RT_OP_GRAPH: return cudaGraphNodeTypeGraph;
    case RT_OP_EMPTY: break;
    }
    return cudaGraphNodeTypeEmpty;
}

cudaError_t rt_graph_add_op(rt_graph *g, rt_op *op, rt_gnode *const *deps, size_t ndeps,
                            rt_gnode **out)
{
    rt_gnode *nd = calloc(1, sizeof *nd);
    if (!nd || !push_ptr((void ***)&g->nodes, &g->n, &g->cap, nd)) {
        free(nd);
        rt_op_free(op);
        return cudaErrorMemoryAllocation;
    }
    nd->magic = NODE_MAGIC;
    nd->graph = g;
    nd->op = *op;
    nd->type = type_of(op->kind);
    nd->seq = g->next_seq++;
    op->kind = RT_OP_EMPTY;  /* taken over */
    for (size_t i = 0; i < ndeps; i++)
        if (add_dep(nd, deps[i]) != cudaSuccess)
            return cudaErrorMemoryAllocation;
    if (out)
        *out = nd;
    return cudaSuccess;
}

/* Checks the dependencies a caller names: nodes of g, none twice. */
static cudaError_t check_deps(rt_graph *g, const cudaGraphNode_t *deps, size_t n,
                              const char *api)
{
    if (n && !deps)
        return rt_api_error(cudaErrorInvalidValue, api, "%zu dependencies but no array", n);
    for (size_t i = 0; i < n; i++) {
        if (!rt_graph_node_in(g, (rt_gnode *)deps[i]))
            return rt_api_error(cudaErrorInvalidValue, api,
                                "dependency %zu (%p) is not a node of graph %p", i,
                                (void *)deps[i], (void *)g);
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return rt_api_error(cudaErrorInvalidValue, api,
                                    "node %p is listed twice as a dependency", (void *)deps[i]);
    }
    return cudaSuccess;
}

/* ---------------------------------------------------------------- node parameters */

/* What a node is made from: one of the parameter structures, by type. */
typedef struct node_spec {
    enum cudaGraphNodeType type;
    union {
        struct cudaKernelNodeParams kernel;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams fill;
        struct cudaHostNodeParams host;
        cudaGraph_t child;
        cudaEvent_t event;
    } u;
} node_spec;

/* Turns a spec into an op, checked. Lock held. */
static cudaError_t make_op(const node_spec *s, rt_op *op, const char *api)
{
    memset(op, 0, sizeof *op);
    switch (s->type) {
    case cudaGraphNodeTypeKernel:
        op->kind = RT_OP_KERNEL;
        return rt_launch_prepare(s->u.kernel.func, s->u.kernel.gridDim, s->u.kernel.blockDim,
                                 s->u.kernel.kernelParams, s->u.kernel.extra,
                                 s->u.kernel.sharedMemBytes, false, api, &op->kernel);
    case cudaGraphNodeTypeMemcpy:
        op->kind = RT_OP_COPY;
        return rt_copy_from_3d(&s->u.copy, &op->copy, api);
    case cudaGraphNodeTypeMemset:
        op->kind = RT_OP_FILL;
        return rt_fill_from_params(&s->u.fill, &op->fill, api);
    case cudaGraphNodeTypeHost:
        if (!s->u.host.fn)
            return rt_api_error(cudaErrorInvalidValue, api, "the host function is NULL");
        op->kind = RT_OP_HOST;
        op->host.fn = s->u.host.fn;
        op->host.data = s->u.host.userData;
        return cudaSuccess;
    case cudaGraphNodeTypeGraph: {
        rt_graph *child = rt_graph_checked(s->u.child, api);
        if (!child)
            return cudaErrorInvalidValue;
        op->kind = RT_OP_GRAPH;
        op->graph = rt_graph_clone_locked(child);
        return op->graph ? cudaSuccess : cudaErrorMemoryAllocation;
    }
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        if (!rt_event_capture_point(s->u.event))
            return rt_api_error(cudaErrorInvalidResourceHandle, api, "%p is not an event",
                                (void *)s->u.event);
        op->kind = s->type == cudaGraphNodeTypeEventRecord ? RT_OP_EVENT_RECORD : RT_OP_EVENT_WAIT;
        op->event = s->u.event;
        return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
        op->kind = RT_OP_EMPTY;
        return cudaSuccess;
    default:
        return rt_api_error(cudaErrorNotSupported, api, "graph node type %d", (int)s->type);
    }
}

/* Keeps what the node was made with (kernel arguments: pointers into its own copy). */
static cudaError_t remember(rt_gnode *nd, const node_spec *s)
{
    free(nd->argv);
    nd->argv = NULL;
    switch (s->type) {
    case cudaGraphNodeTypeKernel:
        nd->params.kernel = s->u.kernel;
        nd->argv = rt_launch_argv(&nd->op.kernel);
        if (!nd->argv)
            return cudaErrorMemoryAllocation;
        nd->params.kernel.kernelParams = nd->argv;
        nd->params.kernel.extra = NULL;
        break;
    case cudaGraphNodeTypeMemcpy: nd->params.copy = s->u.copy; break;
    case cudaGraphNodeTypeMemset: nd->params.fill = s->u.fill; break;
    case cudaGraphNodeTypeHost: nd->params.host = s->u.host; break;
    default: break;
    }
    return cudaSuccess;
}

static cudaError_t add_node(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                            size_t ndeps, const node_spec *s, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, api);
    if (!out || !g)
        return rt_end(cudaErrorInvalidValue);
    if ((e = check_deps(g, deps, ndeps, api)) != cudaSuccess)
        return rt_end(e);
    rt_op op;
    if ((e = make_op(s, &op, api)) != cudaSuccess) {
        rt_op_free(&op);
        return rt_end(e);
    }
    rt_gnode *nd = NULL;
    e = rt_graph_add_op(g, &op, (rt_gnode *const *)deps, ndeps, &nd);
    if (e == cudaSuccess) {
        nd->type = s->type;
        e = remember(nd, s);
        *out = (cudaGraphNode_t)nd;
    }
    return rt_end(e);
}

cudaError_t rt_graph_add_kernel_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaKernelNodeParams *p)
{
    if (!p)
        return rt_record(cudaErrorInvalidValue);
    node_spec s = {.type = cudaGraphNodeTypeKernel, .u.kernel = *p};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddKernelNode");
}

cudaError_t rt_graph_add_memcpy_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return rt_record(cudaErrorInvalidValue);
    node_spec s = {.type = cudaGraphNodeTypeMemcpy, .u.copy = *p};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddMemcpyNode");
}

/* The 3D description of a plain copy of count bytes. */
static struct cudaMemcpy3DParms linear_copy(void *dst, const void *src, size_t count,
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

cudaError_t rt_graph_add_memcpy_node_1d(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t ndeps, void *dst,
                                        const void *src, size_t count, enum cudaMemcpyKind kind)
{
    node_spec s = {.type = cudaGraphNodeTypeMemcpy, .u.copy = linear_copy(dst, src, count, kind)};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddMemcpyNode1D");
}

cudaError_t rt_graph_add_memcpy_node_symbol(cudaGraphNode_t *node, cudaGraph_t graph,
                                            const cudaGraphNode_t *deps, size_t ndeps,
                                            const void *symbol, void *ptr, size_t count,
                                            size_t offset, enum cudaMemcpyKind kind, bool to)
{
    const char *api = to ? "cudaGraphAddMemcpyNodeToSymbol" : "cudaGraphAddMemcpyNodeFromSymbol";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    void *where = NULL;
    e = rt_symbol_range(symbol, count, offset, api, &where);
    pthread_mutex_unlock(&rt_g.lock);
    if (e != cudaSuccess)
        return rt_record(e);
    bool direction_ok = kind == cudaMemcpyDefault || kind == cudaMemcpyDeviceToDevice ||
                        kind == (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    if (!direction_ok)
        return rt_record(rt_api_error(cudaErrorInvalidMemcpyDirection, api, "direction %d",
                                      (int)kind));
    node_spec s = {.type = cudaGraphNodeTypeMemcpy,
                   .u.copy = to ? linear_copy(where, ptr, count, kind)
                                : linear_copy(ptr, where, count, kind)};
    return add_node(node, graph, deps, ndeps, &s, api);
}

cudaError_t rt_graph_add_memset_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaMemsetParams *p)
{
    if (!p)
        return rt_record(cudaErrorInvalidValue);
    node_spec s = {.type = cudaGraphNodeTypeMemset, .u.fill = *p};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddMemsetNode");
}

cudaError_t rt_graph_add_host_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   const struct cudaHostNodeParams *p)
{
    if (!p)
        return rt_record(cudaErrorInvalidValue);
    node_spec s = {.type = cudaGraphNodeTypeHost, .u.host = *p};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddHostNode");
}

cudaError_t rt_graph_add_empty_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t ndeps)
{
    node_spec s = {.type = cudaGraphNodeTypeEmpty};
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddEmptyNode");
}

cudaError_t rt_graph_add_child_graph_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                          const cudaGraphNode_t *deps, size_t ndeps,
                                          cudaGraph_t child)
{
    node_spec s = {.type = cudaGraphNodeTypeGraph, .u.child = child};
    if (child == graph)
        return rt_record(cudaErrorInvalidValue);
    return add_node(node, graph, deps, ndeps, &s, "cudaGraphAddChildGraphNode");
}

cudaError_t rt_graph_add_event_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event,
                                    bool record)
{
    node_spec s = {.type = record ? cudaGraphNodeTypeEventRecord : cudaGraphNodeTypeWaitEvent,
                   .u.event = event};
    return add_node(node, graph, deps, ndeps, &s,
                    record ? "cudaGraphAddEventRecordNode" : "cudaGraphAddEventWaitNode");
}

/* ---------------------------------------------------------------- node queries and updates */

/* Replaces a node's operation (checked first; the node keeps its old one on failure). */
static cudaError_t set_node(rt_gnode *nd, const node_spec *s, const char *api)
{
    if (nd->type != s->type)
        return rt_api_error(cudaErrorInvalidValue, api, "node %p is not of that type",
                            (void *)nd);
    rt_op op;
    cudaError_t e = make_op(s, &op, api);
    if (e != cudaSuccess) {
        rt_op_free(&op);
        return e;
    }
    rt_op_free(&nd->op);
    nd->op = op;
    return remember(nd, s);
}

cudaError_t rt_graph_node_params(cudaGraphNode_t node, enum cudaGraphNodeType type, void *params,
                                 bool set, const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *nd = node_checked(node, api);
    if (!nd || !params)
        return rt_end(cudaErrorInvalidValue);
    if (nd->type != type)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "node %p is a node of type %d",
                                   (void *)node, (int)nd->type));
    if (set) {
        node_spec s = {.type = type};
        switch (type) {
        case cudaGraphNodeTypeKernel: s.u.kernel = *(struct cudaKernelNodeParams *)params; break;
        case cudaGraphNodeTypeMemcpy: s.u.copy = *(struct cudaMemcpy3DParms *)params; break;
        case cudaGraphNodeTypeMemset: s.u.fill = *(struct cudaMemsetParams *)params; break;
        case cudaGraphNodeTypeHost: s.u.host = *(struct cudaHostNodeParams *)params; break;
        case cudaGraphNodeTypeEventRecord:
        case cudaGraphNodeTypeWaitEvent: s.u.event = *(cudaEvent_t *)params; break;
        default: return rt_end(cudaErrorInvalidValue);
        }
        return rt_end(set_node(nd, &s, api));
    }
    switch (type) {
    case cudaGraphNodeTypeKernel:
        *(struct cudaKernelNodeParams *)params = nd->params.kernel;
        break;
    case cudaGraphNodeTypeMemcpy: *(struct cudaMemcpy3DParms *)params = nd->params.copy; break;
    case cudaGraphNodeTypeMemset: *(struct cudaMemsetParams *)params = nd->params.fill; break;
    case cudaGraphNodeTypeHost: *(struct cudaHostNodeParams *)params = nd->params.host; break;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent: *(cudaEvent_t *)params = nd->op.event; break;
    case cudaGraphNodeTypeGraph: *(cudaGraph_t *)params = (cudaGraph_t)nd->op.graph; break;
    default: return rt_end(cudaErrorInvalidValue);
    }
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_node_get_type(cudaGraphNode_t node, enum cudaGraphNodeType *type)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *nd = node_checked(node, "cudaGraphNodeGetType");
    if (!nd || !type)
        return rt_end(cudaErrorInvalidValue);
    *type = nd->type;
    return rt_end(cudaSuccess);
}

/* ---------------------------------------------------------------- kernel node attributes */

/* The attribute's value on a kernel node: the one set, else what a launch without it has. */
static cudaLaunchAttributeValue node_attribute(const rt_gnode *nd, cudaLaunchAttributeID id)
{
    cudaLaunchAttributeValue v;
    memset(&v, 0, sizeof v);
    for (unsigned i = 0; i < nd->nattrs; i++)
        if (nd->attrs[i].id == id)
            return nd->attrs[i].val;
    if (id == cudaLaunchAttributeCooperative)
        v.cooperative = nd->op.kernel.cooperative;
    return v;
}

/* Checks and keeps one attribute on a kernel node. Lock held. */
static cudaError_t set_node_attribute(rt_gnode *nd, cudaLaunchAttributeID id,
                                      const cudaLaunchAttributeValue *v, const char *api)
{
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow: {
        cudaError_t e = rt_check_access_policy_window(&v->accessPolicyWindow, api);
        if (e != cudaSuccess)
            return e;
        break;
    }
    case cudaLaunchAttributeCooperative:
        nd->op.kernel.cooperative = v->cooperative != 0;
        break;
    case cudaLaunchAttributeClusterDimension:
        if (v->clusterDim.x * v->clusterDim.y * v->clusterDim.z > 1)
            return rt_api_error(cudaErrorNotSupported, api,
                                "thread-block clusters are not supported yet");
        break;
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
        break;  /* scheduling hints: kept and reported back */
    default:
        return rt_api_error(cudaErrorNotSupported, api,
                            "kernel node attribute %d is not supported yet", (int)id);
    }
    for (unsigned i = 0; i < nd->nattrs; i++)
        if (nd->attrs[i].id == id) {
            nd->attrs[i].val = *v;
            return cudaSuccess;
        }
    if (nd->nattrs == sizeof nd->attrs / sizeof nd->attrs[0])
        return cudaErrorMemoryAllocation;
    nd->attrs[nd->nattrs].id = id;
    nd->attrs[nd->nattrs++].val = *v;
    return cudaSuccess;
}

cudaError_t rt_graph_kernel_node_attribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                           cudaLaunchAttributeValue *value, bool set)
{
    const char *api = set ? "cudaGraphKernelNodeSetAttribute" : "cudaGraphKernelNodeGetAttribute";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *nd = node_checked(node, api);
    if (!nd || !value)
        return rt_end(cudaErrorInvalidValue);
    if (nd->type != cudaGraphNodeTypeKernel)
        return rt_end(rt_api_error(cudaErrorInvalidValue, api, "%p is not a kernel node",
                                   (void *)node));
    if (set)
        e = set_node_attribute(nd, attr, value, api);
    else
        *value = node_attribute(nd, attr);
    return rt_end(e);
}

cudaError_t rt_graph_kernel_node_copy_attributes(cudaGraphNode_t dst, cudaGraphNode_t src)
{
    static const char api[] = "cudaGraphKernelNodeCopyAttributes";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *d = node_checked(dst, api), *s = node_checked(src, api);
    if (!d || !s || d->type != cudaGraphNodeTypeKernel || s->type != cudaGraphNodeTypeKernel)
        return rt_end(cudaErrorInvalidValue);
    d->nattrs = s->nattrs;
    memcpy(d->attrs, s->attrs, sizeof d->attrs);
    d->op.kernel.cooperative = s->op.kernel.cooperative;
    return rt_end(cudaSuccess);
}

/* Writes up to *count items and sets *count to how many there are (the CUDA convention: a NULL
 * array asks for the count only). */
static void give(cudaGraphNode_t *out, size_t *count, rt_gnode *const *items, size_t n)
{
    if (out)
        for (size_t i = 0; i < n && i < *count; i++)
            out[i] = (cudaGraphNode_t)items[i];
    if (out && n < *count)
        for (size_t i = n; i < *count; i++)
            out[i] = NULL;
    *count = n;
}

cudaError_t rt_graph_get_nodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count,
                               bool roots)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, roots ? "cudaGraphGetRootNodes" : "cudaGraphGetNodes");
    if (!g || !count)
        return rt_end(cudaErrorInvalidValue);
    rt_gnode **list = malloc((g->n ? g->n : 1) * sizeof *list);
    if (!list)
        return rt_end(cudaErrorMemoryAllocation);
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!roots || g->nodes[i]->ndeps == 0)
            list[n++] = g->nodes[i];
    give(nodes, count, list, n);
    free(list);
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_get_edges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                               cudaGraphEdgeData *edge_data, size_t *count)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaGraphGetEdges");
    if (!g || !count || (!from) != (!to))
        return rt_end(cudaErrorInvalidValue);
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++, n++)
            if (from && n < *count) {
                from[n] = (cudaGraphNode_t)g->nodes[i]->deps[d];
                to[n] = (cudaGraphNode_t)g->nodes[i];
                if (edge_data)
                    memset(&edge_data[n], 0, sizeof edge_data[n]);
            }
    *count = n;
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_node_get_edges(cudaGraphNode_t node, cudaGraphNode_t *out,
                                    cudaGraphEdgeData *edge_data, size_t *count, bool dependents)
{
    const char *api = dependents ? "cudaGraphNodeGetDependentNodes"
                                 : "cudaGraphNodeGetDependencies";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *nd = node_checked(node, api);
    if (!nd || !count)
        return rt_end(cudaErrorInvalidValue);
    rt_graph *g = nd->graph;
    rt_gnode **list = malloc((g->n ? g->n : 1) * sizeof *list);
    if (!list)
        return rt_end(cudaErrorMemoryAllocation);
    size_t n = 0;
    if (!dependents) {
        memcpy(list, nd->deps, nd->ndeps * sizeof *list);
        n = nd->ndeps;
    } else {
        for (size_t i = 0; i < g->n; i++)
            for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
                if (g->nodes[i]->deps[d] == nd) {
                    list[n++] = g->nodes[i];
                    break;
                }
    }
    if (out && edge_data)
        for (size_t i = 0; i < n && i < *count; i++)
            memset(&edge_data[i], 0, sizeof edge_data[i]);
    give(out, count, list, n);
    free(list);
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_dependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                  const cudaGraphNode_t *to, size_t n, bool add)
{
    const char *api = add ? "cudaGraphAddDependencies" : "cudaGraphRemoveDependencies";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, api);
    if (!g || (n && (!from || !to)))
        return rt_end(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++)
        if (!rt_graph_node_in(g, (rt_gnode *)from[i]) || !rt_graph_node_in(g, (rt_gnode *)to[i]) ||
            from[i] == to[i])
            return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                       "edge %zu (%p -> %p) does not join two nodes of graph %p",
                                       i, (void *)from[i], (void *)to[i], (void *)graph));
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        rt_gnode *t = (rt_gnode *)to[i], *f = (rt_gnode *)from[i];
        if (add) {
            e = add_dep(t, f);
            continue;
        }
        bool found = false;
        for (size_t d = 0; d < t->ndeps && !found; d++)
            if (t->deps[d] == f) {
                t->deps[d] = t->deps[--t->ndeps];
                found = true;
            }
        if (!found)
            e = rt_api_error(cudaErrorInvalidValue, api, "there is no edge %p -> %p",
                             (void *)f, (void *)t);
    }
    return rt_end(e);
}

cudaError_t rt_graph_destroy_node(cudaGraphNode_t node)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gnode *nd = node_checked(node, "cudaGraphDestroyNode");
    if (!nd)
        return rt_end(cudaErrorInvalidValue);
    rt_graph *g = nd->graph;
    for (size_t i = 0; i < g->n; i++) {
        rt_gnode *o = g->nodes[i];
        for (size_t d = 0; d < o->ndeps; d++)
            if (o->deps[d] == nd)
                o->deps[d--] = o->deps[--o->ndeps];
    }
    drop_ptr((void **)g->nodes, &g->n, nd);
    /* drop_ptr moved the last node into the hole; creation order is kept by seq. */
    node_free(nd);
    return rt_end(cudaSuccess);
}

/* ---------------------------------------------------------------- graphs */

cudaError_t rt_graph_create(cudaGraph_t *graph, unsigned flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    if (!graph || flags != 0)
        return rt_end(cudaErrorInvalidValue);
    rt_graph *g = rt_graph_new();
    if (!g)
        return rt_end(cudaErrorMemoryAllocation);
    *graph = (cudaGraph_t)g;
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_destroy(cudaGraph_t graph)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaGraphDestroy");
    if (!g)
        return rt_end(cudaErrorInvalidValue);
    rt_graph_free(g);
    return rt_end(cudaSuccess);
}

static int by_seq(const void *a, const void *b)
{
    const rt_gnode *x = *(rt_gnode *const *)a, *y = *(rt_gnode *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

rt_graph *rt_graph_clone_locked(const rt_graph *src)
{
    rt_graph *g = rt_graph_new();
    if (!g)
        return NULL;
    rt_gnode **sorted = malloc((src->n ? src->n : 1) * sizeof *sorted);
    if (!sorted) {
        rt_graph_free(g);
        return NULL;
    }
    memcpy(sorted, src->nodes, src->n * sizeof *sorted);
    qsort(sorted, src->n, sizeof *sorted, by_seq);
    bool ok = true;
    for (size_t i = 0; i < src->n && ok; i++) {
        const rt_gnode *s = sorted[i];
        rt_op op;
        ok = rt_op_clone(&op, &s->op);
        rt_gnode *nd = NULL;
        if (ok)
            ok = rt_graph_add_op(g, &op, NULL, 0, &nd) == cudaSuccess;
        if (!ok)
            break;
        nd->type = s->type;
        nd->origin = s;
        nd->params = s->params;
        nd->disabled = s->disabled;
        nd->nattrs = s->nattrs;
        memcpy(nd->attrs, s->attrs, sizeof nd->attrs);
        if (s->type == cudaGraphNodeTypeKernel) {
            nd->argv = rt_launch_argv(&nd->op.kernel);
            ok = nd->argv != NULL;
            nd->params.kernel.kernelParams = nd->argv;
        }
    }
    /* Edges: the clone of each dependency is at the same position in creation order. */
    for (size_t i = 0; i < src->n && ok; i++)
        for (size_t d = 0; d < sorted[i]->ndeps && ok; d++)
            for (size_t j = 0; j < src->n; j++)
                if (sorted[j] == sorted[i]->deps[d]) {
                    ok = add_dep(g->nodes[i], g->nodes[j]) == cudaSuccess;
                    break;
                }
    free(sorted);
    if (!ok) {
        rt_graph_free(g);
        return NULL;
    }
    return g;
}

cudaError_t rt_graph_clone(cudaGraph_t *clone, cudaGraph_t graph)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaGraphClone");
    if (!g || !clone)
        return rt_end(cudaErrorInvalidValue);
    rt_graph *c = rt_graph_clone_locked(g);
    if (!c)
        return rt_end(cudaErrorMemoryAllocation);
    *clone = (cudaGraph_t)c;
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_node_find_in_clone(cudaGraphNode_t *out, cudaGraphNode_t original,
                                        cudaGraph_t clone)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(clone, "cudaGraphNodeFindInClone");
    if (!g || !out)
        return rt_end(cudaErrorInvalidValue);
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i]->origin == (const rt_gnode *)original) {
            *out = (cudaGraphNode_t)g->nodes[i];
            return rt_end(cudaSuccess);
        }
    return rt_end(cudaErrorInvalidValue);
}

/* The nodes in an order that respects every edge, ties in creation order; NULL for a cycle
 * (err set) or when out of memory. */
static rt_gnode **topo_order(const rt_graph *g, cudaError_t *err)
{
    size_t n = g->n;
    rt_gnode **sorted = malloc((n ? n : 1) * sizeof *sorted);
    rt_gnode **order = malloc((n ? n : 1) * sizeof *order);
    size_t *pending = calloc(n ? n : 1, sizeof *pending);
    bool *done = calloc(n ? n : 1, sizeof *done);
    *err = cudaErrorMemoryAllocation;
    if (!sorted || !order || !pending || !done) {
        free(sorted);
        free(order);
        free(pending);
        free(done);
        return NULL;
    }
    memcpy(sorted, g->nodes, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_seq);
    for (size_t i = 0; i < n; i++)
        pending[i] = sorted[i]->ndeps;
    size_t k = 0;
    bool progress = true;
    /* Quadratic, which graphs of thousands of nodes can afford once per instantiation. */
    while (k < n && progress) {
        progress = false;
        for (size_t i = 0; i < n; i++) {
            if (done[i] || pending[i])
                continue;
            done[i] = true;
            order[k++] = sorted[i];
            progress = true;
            for (size_t j = 0; j < n; j++)
                for (size_t d = 0; d < sorted[j]->ndeps; d++)
                    if (sorted[j]->deps[d] == sorted[i])
                        pending[j]--;
            break;  /* restart: the earliest ready node goes first */
        }
    }
    free(sorted);
    free(pending);
    free(done);
    if (k < n) {
        free(order);
        *err = cudaErrorInvalidValue;
        return NULL;
    }
    *err = cudaSuccess;
    return order;
}

bool rt_graph_node_reaches(const rt_gnode *node, rt_gnode *const *targets, size_t n)
{
    /* Is node one of targets, or an ancestor of one? Walk back from the targets, visiting
     * each node once (a graph of diamonds has exponentially many paths). */
    size_t cap = 64, top = 0, nseen = 0;
    const rt_gnode **stack = malloc(cap * sizeof *stack);
    const rt_gnode **seen = malloc(cap * sizeof *seen);
    size_t seen_cap = cap;
    bool found = false;
    if (!stack || !seen)
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (top == cap) {
            const rt_gnode **s2 = realloc(stack, (cap *= 2) * sizeof *s2);
            if (!s2)
                goto out;
            stack = s2;
        }
        stack[top++] = targets[i];
    }
    while (top && !found) {
        const rt_gnode *t = stack[--top];
        if (t == node) {
            found = true;
            break;
        }
        bool visited = false;
        for (size_t i = 0; i < nseen && !visited; i++)
            visited = seen[i] == t;
        if (visited)
            continue;
        if (nseen == seen_cap) {
            const rt_gnode **s2 = realloc(seen, (seen_cap *= 2) * sizeof *s2);
            if (!s2)
                goto out;
            seen = s2;
        }
        seen[nseen++] = t;
        for (size_t d = 0; d < t->ndeps; d++) {
            if (top == cap) {
                const rt_gnode **s2 = realloc(stack, (cap *= 2) * sizeof *s2);
                if (!s2)
                    goto out;
                stack = s2;
            }
            stack[top++] = t->deps[d];
        }
    }
out:
    free(stack);
    free(seen);
    return found;
}

static cudaError_t run_order(rt_gnode **order, size_t n, uint64_t seq)
{
    for (size_t i = 0; i < n; i++) {
        if (order[i]->disabled)
            continue;
        cudaError_t e = rt_op_run(&order[i]->op, seq);
        if (e != cudaSuccess)
            return e;
        if (rt_g.sticky != cudaSuccess)
            return cudaSuccess;  /* a kernel fault: reported by the next call, as on a GPU */
    }
    return cudaSuccess;
}

cudaError_t rt_graph_run(rt_graph *g, uint64_t seq)
{
    cudaError_t e;
    rt_gnode **order = topo_order(g, &e);
    if (!order)
        return e;
    e = run_order(order, g->n, seq);
    free(order);
    return e;
}

/* Event-record nodes of a graph queued as operation seq (child graphs included): their events
 * complete with it, so a synchronisation on them waits for the launch. */
static void note_event_records(const rt_graph *g, uint64_t seq)
{
    for (size_t i = 0; i < g->n; i++) {
        const rt_gnode *nd = g->nodes[i];
        if (nd->disabled)
            continue;
        if (nd->op.kind == RT_OP_EVENT_RECORD)
            rt_event_note_record(nd->op.event, seq);
        else if (nd->op.kind == RT_OP_GRAPH && nd->op.graph)
            note_event_records(nd->op.graph, seq);
    }
}

/* ---------------------------------------------------------------- executable graphs */

cudaError_t rt_graph_instantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaGraphInstantiate");
    if (!g || !exec)
        return rt_end(cudaErrorInvalidValue);
    rt_gexec *x = calloc(1, sizeof *x);
    if (!x)
        return rt_end(cudaErrorMemoryAllocation);
    x->magic = EXEC_MAGIC;
    x->flags = flags;
    x->graph = rt_graph_clone_locked(g);
    if (x->graph)
        x->order = topo_order(x->graph, &e);
    else
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && !push_ptr((void ***)&execs, &nexecs, &cap_execs, x))
        e = cudaErrorMemoryAllocation;
    if (e != cudaSuccess) {
        if (e == cudaErrorInvalidValue)
            rt_api_error(e, "cudaGraphInstantiate", "graph %p has a cycle", (void *)graph);
        rt_graph_free(x->graph);
        free(x->order);
        free(x);
        return rt_end(e);
    }
    /* The copy is private: it is not a graph the program can name. */
    drop_ptr((void **)graphs, &ngraphs, x->graph);
    *exec = (cudaGraphExec_t)x;
    rt_log(2, "cudaGraphInstantiate(%p): %zu nodes", (void *)graph, x->graph->n);
    return rt_end(cudaSuccess);
}

static void exec_free(rt_gexec *x)
{
    /* Make the private graph known again so rt_graph_free's bookkeeping holds. */
    push_ptr((void ***)&graphs, &ngraphs, &cap_graphs, x->graph);
    rt_graph_free(x->graph);
    free(x->order);
    x->magic = 0;
    free(x);
}

cudaError_t rt_graph_exec_destroy(cudaGraphExec_t exec)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, "cudaGraphExecDestroy");
    if (!x)
        return rt_end(cudaErrorInvalidValue);
    drop_ptr((void **)execs, &nexecs, x);
    exec_free(x);
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_exec_get_flags(cudaGraphExec_t exec, unsigned long long *flags)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, "cudaGraphExecGetFlags");
    if (!x || !flags)
        return rt_end(cudaErrorInvalidValue);
    *flags = x->flags;
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_launch(cudaGraphExec_t exec, cudaStream_t stream, bool upload_only)
{
    const char *api = upload_only ? "cudaGraphUpload" : "cudaGraphLaunch";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, api);
    if (!x)
        return rt_end(cudaErrorInvalidValue);
    if (rt_stream_check_locked(stream) != cudaSuccess)
        return rt_end(rt_api_error(cudaErrorInvalidResourceHandle, api,
                                   "%p is not a live stream", (void *)stream));
    if (upload_only)
        return rt_end(cudaSuccess);
    /* Launched into a capturing stream: the whole graph becomes one child-graph node. */
    rt_op op = {.kind = RT_OP_GRAPH};
    if (rt_stream_capture_point(stream) && rt_stream_capture_point(stream)->capture) {
        op.graph = rt_graph_clone_locked(x->graph);
        if (!op.graph)
            return rt_end(cudaErrorMemoryAllocation);
        if (rt_capture_op(stream, &op, &e))
            return rt_end(e);
        rt_op_free(&op);
    }
    rt_log(2, "cudaGraphLaunch(%p): %zu nodes", (void *)exec, x->graph->n);
    op.graph = rt_graph_clone_locked(x->graph);
    if (!op.graph)
        return rt_end(cudaErrorMemoryAllocation);
    uint64_t before = rt_issued_seq();
    e = rt_op_submit(&op, stream);
    if (e == cudaSuccess && rt_issued_seq() != before)
        note_event_records(x->graph, rt_issued_seq());
    return rt_end(e);
}

/* The node of the executable graph that was made from `node`. */
static rt_gnode *exec_node(rt_gexec *x, cudaGraphNode_t node, const char *api)
{
    for (size_t i = 0; i < x->graph->n; i++)
        if (x->graph->nodes[i]->origin == (const rt_gnode *)node)
            return x->graph->nodes[i];
    rt_api_error(cudaErrorInvalidValue, api, "node %p is not part of the executable graph",
                 (void *)node);
    return NULL;
}

cudaError_t rt_graph_exec_node_params(cudaGraphExec_t exec, cudaGraphNode_t node,
                                      enum cudaGraphNodeType type, const void *params,
                                      const char *api)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, api);
    rt_gnode *nd = x ? exec_node(x, node, api) : NULL;
    if (!nd || !params)
        return rt_end(cudaErrorInvalidValue);
    node_spec s = {.type = type};
    switch (type) {
    case cudaGraphNodeTypeKernel: {
        s.u.kernel = *(const struct cudaKernelNodeParams *)params;
        /* An executable graph's kernel node keeps its function. */
        rt_kernel *was = nd->op.kernel.kernel, *now = rt_kernel_lookup(s.u.kernel.func);
        if (now != was)
            return rt_end(rt_api_error(cudaErrorInvalidValue, api,
                                       "the kernel of an instantiated node cannot change"));
        break;
    }
    case cudaGraphNodeTypeMemcpy: s.u.copy = *(const struct cudaMemcpy3DParms *)params; break;
    case cudaGraphNodeTypeMemset: s.u.fill = *(const struct cudaMemsetParams *)params; break;
    case cudaGraphNodeTypeHost: s.u.host = *(const struct cudaHostNodeParams *)params; break;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent: s.u.event = *(const cudaEvent_t *)params; break;
    case cudaGraphNodeTypeGraph: s.u.child = *(const cudaGraph_t *)params; break;
    default: return rt_end(cudaErrorInvalidValue);
    }
    return rt_end(set_node(nd, &s, api));
}

cudaError_t rt_graph_node_enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *enabled,
                                  bool set)
{
    const char *api = set ? "cudaGraphNodeSetEnabled" : "cudaGraphNodeGetEnabled";
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, api);
    rt_gnode *nd = x ? exec_node(x, node, api) : NULL;
    if (!nd || !enabled)
        return rt_end(cudaErrorInvalidValue);
    if (set)
        nd->disabled = *enabled == 0;
    else
        *enabled = nd->disabled ? 0 : 1;
    return rt_end(cudaSuccess);
}

cudaError_t rt_graph_exec_update(cudaGraphExec_t exec, cudaGraph_t graph,
                                 cudaGraphExecUpdateResultInfo *info)
{
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_gexec *x = exec_checked(exec, "cudaGraphExecUpdate");
    rt_graph *g = rt_graph_checked(graph, "cudaGraphExecUpdate");
    if (!x || !g || !info)
        return rt_end(cudaErrorInvalidValue);
    memset(info, 0, sizeof *info);
    /* Allowed: the same nodes, types and edges, in the same creation order; kernels keep their
     * function. Then every node takes the new parameters. */
    rt_graph *old = x->graph;
    rt_gnode **a = malloc((old->n ? old->n : 1) * sizeof *a);
    rt_gnode **b = malloc((g->n ? g->n : 1) * sizeof *b);
    enum cudaGraphExecUpdateResult r = cudaGraphExecUpdateSuccess;
    if (!a || !b) {
        free(a);
        free(b);
        return rt_end(cudaErrorMemoryAllocation);
    }
    memcpy(a, old->nodes, old->n * sizeof *a);
    memcpy(b, g->nodes, g->n * sizeof *b);
    qsort(a, old->n, sizeof *a, by_seq);
    qsort(b, g->n, sizeof *b, by_seq);
    if (old->n != g->n)
        r = cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t i = 0; i < g->n && r == cudaGraphExecUpdateSuccess; i++) {
        info->errorNode = (cudaGraphNode_t)b[i];
        if (a[i]->type != b[i]->type)
            r = cudaGraphExecUpdateErrorNodeTypeChanged;
        else if (a[i]->ndeps != b[i]->ndeps)
            r = cudaGraphExecUpdateErrorTopologyChanged;
        else if (a[i]->type == cudaGraphNodeTypeKernel &&
                 a[i]->op.kernel.kernel != b[i]->op.kernel.kernel)
            r = cudaGraphExecUpdateErrorUnsupportedFunctionChange;
    }
    if (r == cudaGraphExecUpdateSuccess) {
        for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
            rt_op op;
            if (!rt_op_clone(&op, &b[i]->op)) {
                e = cudaErrorMemoryAllocation;
                break;
            }
            rt_op_free(&a[i]->op);
            a[i]->op = op;
            a[i]->origin = b[i];
            a[i]->params = b[i]->params;
            if (a[i]->type == cudaGraphNodeTypeKernel) {
                free(a[i]->argv);
                a[i]->argv = rt_launch_argv(&a[i]->op.kernel);
                a[i]->params.kernel.kernelParams = a[i]->argv;
            }
        }
        info->errorNode = NULL;
    } else {
        e = cudaErrorGraphExecUpdateFailure;
    }
    info->result = r;
    free(a);
    free(b);
    return rt_end(e);
}

cudaError_t rt_graph_debug_dot_print(cudaGraph_t graph, const char *path, unsigned flags)
{
    (void)flags;
    cudaError_t e = rt_begin();
    if (e != cudaSuccess)
        return e;
    rt_graph *g = rt_graph_checked(graph, "cudaGraphDebugDotPrint");
    if (!g || !path)
        return rt_end(cudaErrorInvalidValue);
    FILE *f = fopen(path, "w");
    if (!f)
        return rt_end(rt_api_error(cudaErrorOperatingSystem, "cudaGraphDebugDotPrint",
                                   "cannot write %s", path));
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph",
                                        "empty", "wait event", "event record"};
    fprintf(f, "digraph ptxsim_graph {\n");
    for (size_t i = 0; i < g->n; i++) {
        const rt_gnode *nd = g->nodes[i];
        const char *what = (unsigned)nd->type < 8 ? names[nd->type] : "node";
        fprintf(f, "  n%p [label=\"%s%s%s\"];\n", (const void *)nd, what,
                nd->type == cudaGraphNodeTypeKernel ? "\\n" : "",
                nd->type == cudaGraphNodeTypeKernel ? rt_kernel_pretty(nd->op.kernel.kernel)
                                                    : "");
        for (size_t d = 0; d < nd->ndeps; d++)
            fprintf(f, "  n%p -> n%p;\n", (const void *)nd->deps[d], (const void *)nd);
    }
    fprintf(f, "}\n");
    fclose(f);
    return rt_end(cudaSuccess);
}
