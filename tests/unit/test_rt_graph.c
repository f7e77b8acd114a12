/* test_rt_graph.c: CUDA graphs in the runtime (runtime/graph.c, capture.c) with host-function
 * nodes, whose log shows exactly what ran and in which order: an explicit graph's execution
 * order respects every dependency and replays on each launch; a capture across two streams
 * (fork and join through events) records instead of running and yields the expected shape; a
 * cycle is refused; cudaGraphExecUpdate takes new parameters; misuse gets CUDA's errors. */
#include "tests/unit/ptx_kernels.h"
#include "runtime/rt.h"

#include <check.h>
#include <string.h>

static int log_ids[64];
static int nlog;

static void record(void *p)
{
    if (nlog < 64)
        log_ids[nlog++] = (int)(intptr_t)p;
}

static int position(int id, int from)
{
    for (int i = from; i < nlog; i++)
        if (log_ids[i] == id)
            return i;
    return -1;
}

static cudaGraphNode_t host_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, int id)
{
    struct cudaHostNodeParams p = {record, (void *)(intptr_t)id};
    cudaGraphNode_t node = NULL;
    ck_assert_int_eq(rt_graph_add_host_node(&node, g, deps, n, &p), cudaSuccess);
    return node;
}

START_TEST(explicit_graph_order_and_replay)
{
    nlog = 0;
    cudaGraph_t g;
    ck_assert_int_eq(rt_graph_create(&g, 0), cudaSuccess);
    /* Created in an order that differs from the dependency order: 4 <- {2, 3} <- 1; 5 alone. */
    cudaGraphNode_t n1 = host_node(g, NULL, 0, 1);
    cudaGraphNode_t n5 = host_node(g, NULL, 0, 5);
    cudaGraphNode_t n3 = host_node(g, &n1, 1, 3);
    cudaGraphNode_t n2 = host_node(g, &n1, 1, 2);
    cudaGraphNode_t pair[2] = {n2, n3};
    cudaGraphNode_t n4 = host_node(g, pair, 2, 4);
    (void)n5;
    (void)n4;
    size_t count = 0;
    ck_assert_int_eq(rt_graph_get_nodes(g, NULL, &count, false), cudaSuccess);
    ck_assert_uint_eq(count, 5);
    ck_assert_int_eq(rt_graph_get_nodes(g, NULL, &count, true), cudaSuccess);
    ck_assert_uint_eq(count, 2);
    ck_assert_int_eq(rt_graph_get_edges(g, NULL, NULL, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 4);
    ck_assert_int_eq(nlog, 0);  /* building runs nothing */

    cudaGraphExec_t x;
    ck_assert_int_eq(rt_graph_instantiate(&x, g, 0), cudaSuccess);
    for (int rep = 0; rep < 2; rep++) {
        ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
        /* launches are asynchronous: the host functions have run once the stream has */
        ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
        int base = rep * 5;
        ck_assert_int_eq(nlog, base + 5);
        int p1 = position(1, base), p2 = position(2, base), p3 = position(3, base),
            p4 = position(4, base), p5 = position(5, base);
        ck_assert(p1 >= 0 && p2 >= 0 && p3 >= 0 && p4 >= 0 && p5 >= 0);
        ck_assert(p1 < p2 && p1 < p3 && p2 < p4 && p3 < p4);
    }
    /* Nodes added to the graph later do not change the executable graph. */
    host_node(g, NULL, 0, 9);
    ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
    ck_assert_int_eq(nlog, 15);
    ck_assert_int_eq(position(9, 0), -1);
    ck_assert_int_eq(rt_graph_exec_destroy(x), cudaSuccess);
    ck_assert_int_eq(rt_graph_destroy(g), cudaSuccess);
    ck_assert_int_eq(rt_graph_destroy(g), cudaErrorInvalidValue);
    rt_get_last_error();
}
END_TEST

START_TEST(cycle_is_refused)
{
    cudaGraph_t g;
    ck_assert_int_eq(rt_graph_create(&g, 0), cudaSuccess);
    cudaGraphNode_t a = host_node(g, NULL, 0, 1);
    cudaGraphNode_t b = host_node(g, &a, 1, 2);
    ck_assert_int_eq(rt_graph_dependencies(g, &b, &a, 1, true), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(rt_graph_instantiate(&x, g, 0), cudaErrorInvalidValue);
    /* Removing the back edge makes it valid again. */
    ck_assert_int_eq(rt_graph_dependencies(g, &b, &a, 1, false), cudaSuccess);
    ck_assert_int_eq(rt_graph_instantiate(&x, g, 0), cudaSuccess);
    rt_graph_exec_destroy(x);
    rt_graph_destroy(g);
    rt_get_last_error();
}
END_TEST

START_TEST(capture_fork_join)
{
    nlog = 0;
    cudaStream_t s1, s2;
    cudaEvent_t fork, join;
    ck_assert_int_eq(rt_stream_create(&s1, 0, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_create(&s2, 0, 0), cudaSuccess);
    ck_assert_int_eq(rt_event_create(&fork, 0), cudaSuccess);
    ck_assert_int_eq(rt_event_create(&join, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_begin_capture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(rt_launch_host_func(s1, record, (void *)1), cudaSuccess);
    ck_assert_int_eq(rt_event_record(fork, s1, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_wait_event(s2, fork, 0), cudaSuccess);
    ck_assert_int_eq(rt_launch_host_func(s2, record, (void *)2), cudaSuccess);
    ck_assert_int_eq(rt_launch_host_func(s1, record, (void *)3), cudaSuccess);
    ck_assert_int_eq(rt_event_record(join, s2, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_wait_event(s1, join, 0), cudaSuccess);
    ck_assert_int_eq(rt_launch_host_func(s1, record, (void *)4), cudaSuccess);
    ck_assert_int_eq(nlog, 0);  /* recorded, not run */
    enum cudaStreamCaptureStatus st;
    size_t ndeps = 0;
    ck_assert_int_eq(rt_stream_get_capture_info(s1, &st, NULL, NULL, NULL, &ndeps), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    ck_assert_uint_eq(ndeps, 1);
    cudaGraph_t g = NULL;
    ck_assert_int_eq(rt_stream_end_capture(s1, &g), cudaSuccess);
    ck_assert_ptr_nonnull(g);
    size_t count = 0;
    ck_assert_int_eq(rt_graph_get_nodes(g, NULL, &count, false), cudaSuccess);
    ck_assert_uint_eq(count, 4);
    ck_assert_int_eq(rt_graph_get_edges(g, NULL, NULL, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 4);  /* 1->2, 1->3, 2->4, 3->4 */
    ck_assert_int_eq(rt_stream_is_capturing(s2, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    cudaGraphExec_t x;
    ck_assert_int_eq(rt_graph_instantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(rt_graph_launch(x, s2, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(s2), cudaSuccess);
    ck_assert_int_eq(nlog, 4);
    ck_assert(position(1, 0) == 0 && position(4, 0) == 3);
    rt_graph_exec_destroy(x);
    rt_graph_destroy(g);
}
END_TEST

START_TEST(capture_unjoined_and_misuse)
{
    cudaStream_t s1, s2;
    cudaEvent_t fork;
    ck_assert_int_eq(rt_stream_create(&s1, 0, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_create(&s2, 0, 0), cudaSuccess);
    ck_assert_int_eq(rt_event_create(&fork, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_begin_capture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(rt_stream_begin_capture(s1, cudaStreamCaptureModeGlobal),
                     cudaErrorIllegalState);
    ck_assert_int_eq(rt_event_record(fork, s1, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_wait_event(s2, fork, 0), cudaSuccess);
    ck_assert_int_eq(rt_launch_host_func(s2, record, (void *)7), cudaSuccess);
    cudaGraph_t g = NULL;
    /* s2's work was never joined back into s1. */
    ck_assert_int_eq(rt_stream_end_capture(s1, &g), cudaErrorStreamCaptureUnjoined);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(rt_stream_end_capture(s2, &g), cudaErrorIllegalState);
    /* Ending in a stream the capture forked into, not the one it began in. */
    ck_assert_int_eq(rt_stream_begin_capture(s1, cudaStreamCaptureModeRelaxed), cudaSuccess);
    ck_assert_int_eq(rt_event_record(fork, s1, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_wait_event(s2, fork, 0), cudaSuccess);
    ck_assert_int_eq(rt_stream_end_capture(s2, &g), cudaErrorStreamCaptureUnmatched);
    ck_assert_int_eq(rt_stream_end_capture(s1, &g), cudaErrorStreamCaptureInvalidated);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(rt_stream_begin_capture(NULL, cudaStreamCaptureModeGlobal),
                     cudaErrorStreamCaptureUnsupported);
    rt_get_last_error();
}
END_TEST

static void add_one(void *p)
{
    ++*(int *)p;
}

static void add_ten(void *p)
{
    *(int *)p += 10;
}

START_TEST(exec_update_and_node_params)
{
    int v = 0;
    cudaGraph_t g;
    ck_assert_int_eq(rt_graph_create(&g, 0), cudaSuccess);
    struct cudaHostNodeParams p = {add_one, &v};
    cudaGraphNode_t n;
    ck_assert_int_eq(rt_graph_add_host_node(&n, g, NULL, 0, &p), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(rt_graph_instantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
    ck_assert_int_eq(v, 1);
    struct cudaHostNodeParams q = {add_ten, &v}, got;
    ck_assert_int_eq(rt_graph_node_params(n, cudaGraphNodeTypeHost, &q, true, "test"),
                     cudaSuccess);
    ck_assert_int_eq(rt_graph_node_params(n, cudaGraphNodeTypeHost, &got, false, "test"),
                     cudaSuccess);
    ck_assert(got.fn == add_ten);
    ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
    ck_assert_int_eq(v, 2);  /* the executable graph keeps what it was made with */
    cudaGraphExecUpdateResultInfo info;
    ck_assert_int_eq(rt_graph_exec_update(x, g, &info), cudaSuccess);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateSuccess);
    ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
    ck_assert_int_eq(v, 12);
    unsigned off = 0;
    ck_assert_int_eq(rt_graph_node_enabled(x, n, &off, true), cudaSuccess);
    ck_assert_int_eq(rt_graph_launch(x, 0, false), cudaSuccess);
    /* launches are asynchronous: the host functions have run once the stream has */
    ck_assert_int_eq(rt_stream_synchronize(0), cudaSuccess);
    ck_assert_int_eq(v, 12);
    /* A topology change cannot be applied. */
    host_node(g, &n, 1, 3);
    ck_assert_int_eq(rt_graph_exec_update(x, g, &info), cudaErrorGraphExecUpdateFailure);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    rt_graph_exec_destroy(x);
    rt_graph_destroy(g);
    rt_get_last_error();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_graph");
    TCase *tc = tcase_create("graph");
    tcase_add_test(tc, explicit_graph_order_and_replay);
    tcase_add_test(tc, cycle_is_refused);
    tcase_add_test(tc, capture_fork_join);
    tcase_add_test(tc, capture_unjoined_and_misuse);
    tcase_add_test(tc, exec_update_and_node_params);
    suite_add_tcase(s, tc);
    return pk_main(s);
}
