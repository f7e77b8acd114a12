// bc.cu: betweenness centrality (Brandes) in the push style of Pannotia's BC, the DAB paper's
// graph workload (spec dab.md S13). Per source: level-synchronous BFS (atomicCAS claims a
// vertex's level, atomicAdd of floats counts shortest paths), then the backward sweep, where
// each vertex of level l+1 pushes sigma[u]/sigma[v]*(1+delta[v]) into every predecessor u with a
// float atomicAdd (red.global.add.f32): an order-dependent float sum per vertex. The graph is
// generated from a seed as in pagerank.cu (N vertices, mean out-degree DEG, skewed targets).
// Usage: bc [N] [DEG] [SOURCES] (defaults 1024 8 4). Prints "signature bc HEX" (the scores'
// bits) and checks them against a double-precision CPU Brandes: "PASS bc_reference".
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void bfs_claim(const int *row, const int *col, int *dist, int *grew, int n, int l)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || dist[u] != l) return;
    for (int k = row[u]; k < row[u + 1]; k++)
        if (atomicCAS(&dist[col[k]], -1, l + 1) == -1) *grew = 1;
}

__global__ void bfs_count(const int *row, const int *col, const int *dist, float *sigma, int n,
                          int l)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || dist[u] != l) return;
    for (int k = row[u]; k < row[u + 1]; k++)
        if (dist[col[k]] == l + 1) atomicAdd(&sigma[col[k]], sigma[u]);
}

// v at level l+1 pushes to its predecessors (reverse graph rrow/rcol) at level l
__global__ void back_push(const int *rrow, const int *rcol, const int *dist, const float *sigma,
                          float *delta, int n, int l)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || dist[v] != l + 1) return;
    float w = (1.0f + delta[v]) / sigma[v];
    for (int k = rrow[v]; k < rrow[v + 1]; k++) {
        int u = rcol[k];
        if (dist[u] == l) atomicAdd(&delta[u], sigma[u] * w);
    }
}

__global__ void accumulate(float *bc, const float *delta, int n, int src)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && v != src) bc[v] += delta[v];
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int deg = argc > 2 ? atoi(argv[2]) : 8;
    int nsrc = argc > 3 ? atoi(argv[3]) : 4;
    if (n < 2 || deg < 1 || nsrc < 1 || nsrc > n) {
        printf("usage: bc [N>1] [DEG>0] [SOURCES 1..N]\n");
        return 2;
    }
    std::vector<int> row(n + 1), col;
    uint64_t s = 0x2545f4914f6cdd1dull;
    auto rnd = [&s]() { s = s * 6364136223846793005ull + 1442695040888963407ull; return (uint32_t)(s >> 33); };
    for (int u = 0; u < n; u++) {
        row[u] = (int)col.size();
        int d = 1 + (int)(rnd() % (uint32_t)(2 * deg - 1));
        for (int k = 0; k < d; k++) {
            double x = (double)rnd() / 2147483648.0;
            int v = (int)(x * x * n);
            col.push_back(v == u ? (v + 1) % n : v);
        }
    }
    row[n] = (int)col.size();
    int m = (int)col.size();
    std::vector<int> rrow(n + 1, 0), rcol(m);
    for (int k = 0; k < m; k++) rrow[col[k] + 1]++;
    for (int v = 0; v < n; v++) rrow[v + 1] += rrow[v];
    std::vector<int> fill(rrow.begin(), rrow.end() - 1);
    for (int u = 0; u < n; u++)
        for (int k = row[u]; k < row[u + 1]; k++) rcol[fill[col[k]]++] = u;

    int *drow, *dcol, *drrow, *drcol, *ddist, *dgrew;
    float *dsigma, *ddelta, *dbc;
    cudaMalloc(&drow, (n + 1) * sizeof(int));
    cudaMalloc(&dcol, m * sizeof(int));
    cudaMalloc(&drrow, (n + 1) * sizeof(int));
    cudaMalloc(&drcol, m * sizeof(int));
    cudaMalloc(&ddist, n * sizeof(int));
    cudaMalloc(&dgrew, sizeof(int));
    cudaMalloc(&dsigma, n * sizeof(float));
    cudaMalloc(&ddelta, n * sizeof(float));
    cudaMalloc(&dbc, n * sizeof(float));
    cudaMemcpy(drow, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dcol, col.data(), m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(drrow, rrow.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(drcol, rcol.data(), m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dbc, 0, n * sizeof(float));
    int bs = 128, nb = (n + bs - 1) / bs;
    std::vector<int> dist0(n, -1);
    std::vector<float> sigma0(n, 0.0f);
    for (int src = 0; src < nsrc; src++) {
        dist0.assign(n, -1);
        dist0[src] = 0;
        sigma0.assign(n, 0.0f);
        sigma0[src] = 1.0f;
        cudaMemcpy(ddist, dist0.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        cudaMemcpy(dsigma, sigma0.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemset(ddelta, 0, n * sizeof(float));
        int l = 0;
        for (;; l++) {
            int grew = 0;
            cudaMemcpy(dgrew, &grew, sizeof grew, cudaMemcpyHostToDevice);
            bfs_claim<<<nb, bs>>>(drow, dcol, ddist, dgrew, n, l);
            bfs_count<<<nb, bs>>>(drow, dcol, ddist, dsigma, n, l);
            cudaMemcpy(&grew, dgrew, sizeof grew, cudaMemcpyDeviceToHost);
            if (!grew) break;
        }
        for (int k = l - 1; k >= 0; k--) back_push<<<nb, bs>>>(drrow, drcol, ddist, dsigma, ddelta, n, k);
        accumulate<<<nb, bs>>>(dbc, ddelta, n, src);
    }
    std::vector<float> bc(n);
    cudaMemcpy(bc.data(), dbc, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL bc: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("signature bc %016llx\n", (unsigned long long)fnv(bc.data(), n * sizeof(float)));

    // Brandes on the CPU, in double
    std::vector<double> ref(n, 0.0), sg(n), dl(n);
    std::vector<int> d(n), order;
    for (int src = 0; src < nsrc; src++) {
        d.assign(n, -1);
        sg.assign(n, 0.0);
        dl.assign(n, 0.0);
        order.clear();
        d[src] = 0;
        sg[src] = 1.0;
        order.push_back(src);
        for (size_t h = 0; h < order.size(); h++) {
            int u = order[h];
            for (int k = row[u]; k < row[u + 1]; k++) {
                int v = col[k];
                if (d[v] < 0) { d[v] = d[u] + 1; order.push_back(v); }
                if (d[v] == d[u] + 1) sg[v] += sg[u];
            }
        }
        for (size_t h = order.size(); h-- > 0;) {
            int u = order[h];
            for (int k = row[u]; k < row[u + 1]; k++) {
                int v = col[k];
                if (d[v] == d[u] + 1) dl[u] += sg[u] / sg[v] * (1.0 + dl[v]);
            }
            if (u != src) ref[u] += dl[u];
        }
    }
    double worst = 0;
    int at = 0;
    for (int v = 0; v < n; v++) {
        double e = fabs(bc[v] - ref[v]) / (fabs(ref[v]) + 1.0);
        if (e > worst) { worst = e; at = v; }
    }
    bool ok = worst <= 1e-3;
    if (ok) printf("PASS bc_reference (%d vertices, %d edges, %d sources)\n", n, m, nsrc);
    else printf("FAIL bc_reference: vertex %d score %.9g, CPU %.9g\n", at, bc[at], ref[at]);
    return ok ? 0 : 1;
}
