// cc.cu: CC, graph-cut push-relabel in the manner of CudaCuts (KILO TM §5: the consecutive
// atomic updates of a push grouped into one critical section): a W x H grid graph, every pixel
// joined to its four neighbours and to the source or the sink. The host alternates a push
// kernel (a pixel pushes excess along admissible edges: to a neighbour one lower, or to the
// sink from height 1; the excess and both residual capacities of the edge change together)
// and a relabel kernel (separate, so heights do not change during pushes), with a global
// relabel on the host every few rounds (exact distances to the sink in the residual graph, as
// CudaCuts' BFS does; without it excess bounces between pixels for hundreds of rounds), until
// no pixel below height P holds excess: a maximum preflow, whose value at the sink is the maximum flow. The
// check: that value equals a CPU Edmonds-Karp on the same graph, every edge's two residual
// capacities still add up to the edge's capacities, and every pixel's excess is what its
// flows leave. Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per pixel, two
// per push), -DSYNC_GL.
#include "sync.cuh"

#include <algorithm>
#include <queue>
#include <vector>

enum { W = 16, H = 12, P = W * H, THREADS = 64, MAX_ROUNDS = 4 * P, GLOBAL_RELABEL = 4 };

__host__ __device__ inline int neighbour(int u, int dir)
{
    int x = u % W, y = u / W;
    switch (dir) {
    case 0: return x + 1 < W ? u + 1 : -1;
    case 1: return x > 0 ? u - 1 : -1;
    case 2: return y + 1 < H ? u + W : -1;
    default: return y > 0 ? u - W : -1;
    }
}

__global__ void push(int *excess, int *sink_cap, int *cap, const int *height, unsigned *locks)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= P || height[u] >= P) return;
    int hu = height[u];
    if (hu == 1)
        critical(locks, u, u, [&] {
            int e = ld(&excess[u]), c = ld(&sink_cap[u]), d = min(e, c);
            if (d > 0) {
                st(&excess[u], e - d);
                st(&sink_cap[u], c - d);
            }
        });
    for (int dir = 0; dir < 4; dir++) {
        int v = neighbour(u, dir);
        if (v < 0 || height[v] != hu - 1) continue;
        critical(locks, u, v, [&] {
            int e = ld(&excess[u]), c = ld(&cap[u * 4 + dir]), d = min(e, c);
            if (d > 0) {
                st(&excess[u], e - d);
                st(&cap[u * 4 + dir], c - d);
                st(&cap[v * 4 + (dir ^ 1)], ld(&cap[v * 4 + (dir ^ 1)]) + d);
                st(&excess[v], ld(&excess[v]) + d);
            }
        });
    }
}

// Heights only grow, so a neighbour's height read while it is relabelled is a valid lower
// bound: the labelling stays valid.
__global__ void relabel(const int *excess, const int *sink_cap, const int *cap, int *height,
                        unsigned *active)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= P || excess[u] <= 0 || height[u] >= P) return;
    volatile int *h = height;
    int hu = h[u], lowest = sink_cap[u] > 0 ? 0 : P;
    bool admissible = sink_cap[u] > 0 && hu == 1;
    for (int dir = 0; dir < 4; dir++) {
        int v = neighbour(u, dir);
        if (v < 0 || cap[u * 4 + dir] <= 0) continue;
        int hv = h[v];
        admissible |= hv == hu - 1;
        lowest = min(lowest, hv);
    }
    if (!admissible) hu = min(lowest + 1, (int)P);
    h[u] = hu;
    if (hu < P) atomicAdd(active, 1u);
}

// Heights = residual distances to the sink (P where there is no path): a valid labelling.
static void global_relabel(int *dsink, int *dcap, int *dheight)
{
    std::vector<int> s(P), c(P * 4), h(P, P);
    CUDA_OK(cudaMemcpy(s.data(), dsink, P * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(c.data(), dcap, P * 4 * sizeof(int), cudaMemcpyDeviceToHost));
    std::queue<int> q;
    for (int u = 0; u < P; u++)
        if (s[u] > 0) h[u] = 1, q.push(u);
    while (!q.empty()) {
        int v = q.front();
        q.pop();
        for (int dir = 0; dir < 4; dir++) {
            int u = neighbour(v, dir);   // u -> v is residual when u's capacity towards v is
            if (u >= 0 && h[u] == P && c[u * 4 + (dir ^ 1)] > 0) h[u] = h[v] + 1, q.push(u);
        }
    }
    CUDA_OK(cudaMemcpy(dheight, h.data(), P * sizeof(int), cudaMemcpyHostToDevice));
}

static int max_flow_cpu(const std::vector<int> &src, const std::vector<int> &snk,
                        const std::vector<int> &cap0)
{
    const int S = P, T = P + 1, n = P + 2;
    std::vector<std::vector<int>> r(n, std::vector<int>(n, 0));
    for (int u = 0; u < P; u++) {
        r[S][u] += src[u];
        r[u][T] += snk[u];
        for (int dir = 0; dir < 4; dir++)
            if (neighbour(u, dir) >= 0) r[u][neighbour(u, dir)] += cap0[u * 4 + dir];
    }
    int flow = 0;
    for (;;) {
        std::vector<int> prev(n, -1);
        std::queue<int> q;
        q.push(S);
        prev[S] = S;
        while (!q.empty() && prev[T] < 0) {
            int u = q.front();
            q.pop();
            for (int v = 0; v < n; v++)
                if (prev[v] < 0 && r[u][v] > 0) prev[v] = u, q.push(v);
        }
        if (prev[T] < 0) return flow;
        int d = 1 << 30;
        for (int v = T; v != S; v = prev[v]) d = std::min(d, r[prev[v]][v]);
        for (int v = T; v != S; v = prev[v]) r[prev[v]][v] -= d, r[v][prev[v]] += d;
        flow += d;
    }
}

int main()
{
    std::vector<int> src(P), snk(P), cap0(P * 4, 0), height(P, 0);
    for (int u = 0; u < P; u++) {
        unsigned m = mix(u);
        src[u] = m % 3 == 0 ? (int)(m >> 8) % 12 : 0;
        snk[u] = m % 3 == 1 ? (int)(m >> 8) % 12 : 0;
        for (int dir = 0; dir < 4; dir++)
            if (neighbour(u, dir) >= 0) cap0[u * 4 + dir] = (int)(mix(u * 4 + dir + P) % 6);
    }
    int *de, *ds, *dc, *dh;
    unsigned *dactive;
    CUDA_OK(cudaMalloc(&de, P * sizeof(int)));
    CUDA_OK(cudaMalloc(&ds, P * sizeof(int)));
    CUDA_OK(cudaMalloc(&dc, P * 4 * sizeof(int)));
    CUDA_OK(cudaMalloc(&dh, P * sizeof(int)));
    CUDA_OK(cudaMalloc(&dactive, sizeof(unsigned)));
    CUDA_OK(cudaMemcpy(de, src.data(), P * sizeof(int), cudaMemcpyHostToDevice));   // saturated
    CUDA_OK(cudaMemcpy(ds, snk.data(), P * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dc, cap0.data(), P * 4 * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dh, height.data(), P * sizeof(int), cudaMemcpyHostToDevice));
    unsigned *locks = make_locks(P);
    const int blocks = (P + THREADS - 1) / THREADS;
    int rounds = 0;
    unsigned active = 1;
    while (active && rounds++ < MAX_ROUNDS) {
        if (rounds % GLOBAL_RELABEL == 1) global_relabel(ds, dc, dh);
        push<<<blocks, THREADS>>>(de, ds, dc, dh, locks);
        CUDA_OK(cudaMemset(dactive, 0, sizeof(unsigned)));
        relabel<<<blocks, THREADS>>>(de, ds, dc, dh, dactive);
        CUDA_OK(cudaMemcpy(&active, dactive, sizeof(unsigned), cudaMemcpyDeviceToHost));
    }
    std::vector<int> e(P), s(P), c(P * 4);
    CUDA_OK(cudaMemcpy(e.data(), de, P * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(s.data(), ds, P * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(c.data(), dc, P * 4 * sizeof(int), cudaMemcpyDeviceToHost));

    int flow = 0, bad_edge = -1, bad_pixel = -1;
    for (int u = 0; u < P; u++) {
        flow += snk[u] - s[u];
        int left = src[u] - (snk[u] - s[u]);
        for (int dir = 0; dir < 4; dir++) {
            int v = neighbour(u, dir);
            if (v < 0) continue;
            if (c[u * 4 + dir] + c[v * 4 + (dir ^ 1)] != cap0[u * 4 + dir] + cap0[v * 4 + (dir ^ 1)] &&
                bad_edge < 0)
                bad_edge = u * 4 + dir;
            left -= cap0[u * 4 + dir] - c[u * 4 + dir];
        }
        if (left != e[u] && bad_pixel < 0) bad_pixel = u;
    }
    int want = max_flow_cpu(src, snk, cap0);
    report(!active && flow == want && bad_edge < 0 && bad_pixel < 0, "cc",
           "%d rounds (%u pixels still active), flow %d, want %d; edge %d, pixel %d broken",
           rounds, active, flow, want, bad_edge, bad_pixel);
    return bench_failures ? 1 : 0;
}
