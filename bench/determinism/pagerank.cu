// pagerank.cu: push-style PageRank with float atomics (the shape of Pannotia's PRK, the DAB
// paper's most atomic-heavy workload, spec dab.md S13): every thread takes a vertex and adds
// damping * rank / out-degree into each out-neighbour's next rank with atomicAdd (result
// unused: red.global.add.f32), then a second kernel finishes the iteration. The graph is
// generated from a seed: N vertices, out-degrees uniform in [1, 2*DEG-1] (mean DEG), targets
// skewed towards low vertex IDs (a few hubs, as in co-authorship graphs), so many atomics meet
// on the same addresses in an order-dependent float sum.
// Usage: pagerank [N] [DEG] [ITERS] (defaults 4096 8 5). Prints "signature pagerank HEX" (the
// final ranks' bits) and checks the ranks against a double-precision CPU PageRank:
// "PASS pagerank_reference" or "FAIL ...".
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define DAMPING 0.85f

__global__ void push(const int *rowptr, const int *col, const float *rank, float *next, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    int b = rowptr[u], e = rowptr[u + 1];
    float share = DAMPING * rank[u] / (float)(e - b);
    for (int k = b; k < e; k++) atomicAdd(&next[col[k]], share);
}

__global__ void finish(float *rank, float *next, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    rank[v] = (1.0f - DAMPING) / (float)n + next[v];
    next[v] = 0.0f;
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
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int deg = argc > 2 ? atoi(argv[2]) : 8;
    int iters = argc > 3 ? atoi(argv[3]) : 5;
    if (n < 2 || deg < 1 || iters < 1) {
        printf("usage: pagerank [N>1] [DEG>0] [ITERS>0]\n");
        return 2;
    }
    std::vector<int> rowptr(n + 1), col;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&s]() { s = s * 6364136223846793005ull + 1442695040888963407ull; return (uint32_t)(s >> 33); };
    for (int u = 0; u < n; u++) {
        rowptr[u] = (int)col.size();
        int d = 1 + (int)(rnd() % (uint32_t)(2 * deg - 1));
        for (int k = 0; k < d; k++) {
            double x = (double)rnd() / 2147483648.0;   // [0, 1)
            int v = (int)(x * x * n);                  // skewed towards low IDs
            col.push_back(v == u ? (v + 1) % n : v);
        }
    }
    rowptr[n] = (int)col.size();
    int m = (int)col.size();

    int *drow, *dcol;
    float *drank, *dnext;
    cudaMalloc(&drow, (n + 1) * sizeof(int));
    cudaMalloc(&dcol, m * sizeof(int));
    cudaMalloc(&drank, n * sizeof(float));
    cudaMalloc(&dnext, n * sizeof(float));
    cudaMemcpy(drow, rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dcol, col.data(), m * sizeof(int), cudaMemcpyHostToDevice);
    std::vector<float> rank(n, 1.0f / n);
    cudaMemcpy(drank, rank.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(dnext, 0, n * sizeof(float));
    int bs = 128, nb = (n + bs - 1) / bs;
    for (int it = 0; it < iters; it++) {
        push<<<nb, bs>>>(drow, dcol, drank, dnext, n);
        finish<<<nb, bs>>>(drank, dnext, n);
    }
    cudaMemcpy(rank.data(), drank, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL pagerank: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("signature pagerank %016llx\n", (unsigned long long)fnv(rank.data(), n * sizeof(float)));

    std::vector<double> r(n, 1.0 / n), nx(n, 0.0);
    for (int it = 0; it < iters; it++) {
        for (int u = 0; u < n; u++)
            for (int k = rowptr[u]; k < rowptr[u + 1]; k++)
                nx[col[k]] += DAMPING * r[u] / (rowptr[u + 1] - rowptr[u]);
        for (int v = 0; v < n; v++) {
            r[v] = (1.0 - DAMPING) / n + nx[v];
            nx[v] = 0.0;
        }
    }
    double worst = 0;
    int at = 0;
    for (int v = 0; v < n; v++) {
        double e = fabs(rank[v] - r[v]) / r[v];
        if (e > worst) { worst = e; at = v; }
    }
    // float sums of up to a few thousand terms per iteration: well within 1e-3 relative
    if (worst <= 1e-3) printf("PASS pagerank_reference (%d vertices, %d edges, %d iterations)\n", n, m, iters);
    else printf("FAIL pagerank_reference: vertex %d rank %.9g, CPU %.9g\n", at, rank[at], r[at]);
    return worst <= 1e-3 ? 0 : 1;
}
