// gpudet_kinds.cu: the kinds of workload the GPUDet paper measures (spec gpudet.md), small and
// self-checking, one kernel family per name:
//   hashtable  open-addressing inserts with atomicCAS (every key found once afterwards)
//   bank       transfers between accounts with atomicSub/atomicAdd (money is conserved, each
//              account ends as the CPU's sum of its transfers)
//   cloth      a spring grid: each spring adds its force to both ends with float atomicAdd,
//              then positions move (CPU reference within a tolerance)
//   bfs        level-synchronous BFS claiming vertices with atomicMin (distances as the CPU's)
//   stencil    Jacobi 5-point iterations (no atomics; exact CPU reference)
//   aes        AES-like rounds of table lookups and xors per block (exact CPU reference)
// Usage: gpudet_kinds [NAME|all] [SCALE] (defaults all 1). Prints "signature NAME HEX" (the
// result's bits) and "PASS NAME_reference" or "FAIL NAME_reference: why" per kind.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static uint32_t lcg(uint64_t &s)
{
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s >> 33);
}
static bool report(const char *name, const void *p, size_t n, bool ok, const char *why)
{
    printf("signature %s %016llx\n", name, (unsigned long long)fnv(p, n));
    if (ok) printf("PASS %s_reference\n", name);
    else printf("FAIL %s_reference: %s\n", name, why);
    return ok;
}

// ---------------------------------------------------------------- hashtable
#define EMPTY 0xffffffffu
__global__ void hash_insert(unsigned *table, unsigned *slot_of, const unsigned *keys, int n,
                            unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i], h = (k * 2654435761u) & mask;
    for (;;) {
        unsigned old = atomicCAS(&table[h], EMPTY, k);
        if (old == EMPTY || old == k) break;
        h = (h + 1) & mask;
    }
    slot_of[i] = h;
}

static bool run_hashtable(int scale)
{
    int n = 2048 * scale;
    unsigned cap = 1;
    while (cap < 2u * n) cap *= 2;
    std::vector<unsigned> keys(n), table(cap), slot(n);
    uint64_t s = 7;
    for (int i = 0; i < n; i++) keys[i] = lcg(s) % (unsigned)(4 * n);   // duplicates happen
    unsigned *dt, *ds, *dk;
    cudaMalloc(&dt, cap * 4);
    cudaMalloc(&ds, n * 4);
    cudaMalloc(&dk, n * 4);
    cudaMemset(dt, 0xff, cap * 4);
    cudaMemcpy(dk, keys.data(), n * 4, cudaMemcpyHostToDevice);
    hash_insert<<<(n + 127) / 128, 128>>>(dt, ds, dk, n, cap - 1);
    cudaMemcpy(table.data(), dt, cap * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(slot.data(), ds, n * 4, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = table[slot[i]] == keys[i];
    std::vector<unsigned> distinct(keys);
    std::sort(distinct.begin(), distinct.end());
    size_t nd = std::unique(distinct.begin(), distinct.end()) - distinct.begin();
    size_t used = 0;
    for (unsigned t : table) used += t != EMPTY;
    ok = ok && used == nd;
    return report("hashtable", table.data(), cap * 4, ok, "a key missing or stored twice");
}

// ---------------------------------------------------------------- bank
__global__ void transfer(int *bal, const int *from, const int *to, const int *amt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicSub(&bal[from[i]], amt[i]);
    atomicAdd(&bal[to[i]], amt[i]);
}

static bool run_bank(int scale)
{
    int accounts = 64, n = 4096 * scale;
    std::vector<int> from(n), to(n), amt(n), bal(accounts, 1000), ref(accounts, 1000);
    uint64_t s = 11;
    for (int i = 0; i < n; i++) {
        from[i] = lcg(s) % accounts;
        to[i] = lcg(s) % accounts;
        amt[i] = 1 + lcg(s) % 50;
        ref[from[i]] -= amt[i];
        ref[to[i]] += amt[i];
    }
    int *db, *df, *dt, *da;
    cudaMalloc(&db, accounts * 4);
    cudaMalloc(&df, n * 4);
    cudaMalloc(&dt, n * 4);
    cudaMalloc(&da, n * 4);
    cudaMemcpy(db, bal.data(), accounts * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(df, from.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dt, to.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(da, amt.data(), n * 4, cudaMemcpyHostToDevice);
    transfer<<<(n + 127) / 128, 128>>>(db, df, dt, da, n);
    cudaMemcpy(bal.data(), db, accounts * 4, cudaMemcpyDeviceToHost);
    return report("bank", bal.data(), accounts * 4, bal == ref, "balances differ from the CPU's");
}

// ---------------------------------------------------------------- cloth
__global__ void springs(const float *x, float *force, int w, int h, float rest, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // a spring: node i to its right / down
    int nodes = w * h;
    if (i >= 2 * nodes) return;
    int a = i % nodes, b;
    if (i < nodes) { if (a % w == w - 1) return; b = a + 1; }
    else { if (a / w == h - 1) return; b = a + w; }
    float dx = x[2 * b] - x[2 * a], dy = x[2 * b + 1] - x[2 * a + 1];
    float len = sqrtf(dx * dx + dy * dy);
    float f = k * (len - rest) / len;
    atomicAdd(&force[2 * a], f * dx);
    atomicAdd(&force[2 * a + 1], f * dy);
    atomicAdd(&force[2 * b], -f * dx);
    atomicAdd(&force[2 * b + 1], -f * dy);
}

__global__ void move(float *x, float *force, int nodes, float dt)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a >= nodes) return;
    x[2 * a] += dt * force[2 * a];
    x[2 * a + 1] += dt * force[2 * a + 1] - dt * 0.01f;
    force[2 * a] = force[2 * a + 1] = 0.0f;
}

static bool run_cloth(int scale)
{
    int w = 32 * scale, h = 32, nodes = w * h, steps = 4;
    std::vector<float> x(2 * nodes);
    uint64_t s = 13;
    for (int a = 0; a < nodes; a++) {
        x[2 * a] = (a % w) * 1.0f + (lcg(s) % 1000) * 1e-4f;
        x[2 * a + 1] = (a / w) * 1.0f + (lcg(s) % 1000) * 1e-4f;
    }
    std::vector<double> rx(x.begin(), x.end()), rf(2 * nodes, 0.0);
    float *dx, *df;
    cudaMalloc(&dx, 2 * nodes * 4);
    cudaMalloc(&df, 2 * nodes * 4);
    cudaMemcpy(dx, x.data(), 2 * nodes * 4, cudaMemcpyHostToDevice);
    cudaMemset(df, 0, 2 * nodes * 4);
    for (int t = 0; t < steps; t++) {
        springs<<<(2 * nodes + 127) / 128, 128>>>(dx, df, w, h, 0.9f, 0.5f);
        move<<<(nodes + 127) / 128, 128>>>(dx, df, nodes, 0.1f);
        for (int i = 0; i < 2 * nodes; i++) {
            int a = i % nodes, b;
            if (i < nodes) { if (a % w == w - 1) continue; b = a + 1; }
            else { if (a / w == h - 1) continue; b = a + w; }
            double ddx = rx[2 * b] - rx[2 * a], ddy = rx[2 * b + 1] - rx[2 * a + 1];
            double len = sqrt(ddx * ddx + ddy * ddy), f = 0.5 * (len - 0.9) / len;
            rf[2 * a] += f * ddx; rf[2 * a + 1] += f * ddy;
            rf[2 * b] -= f * ddx; rf[2 * b + 1] -= f * ddy;
        }
        for (int a = 0; a < nodes; a++) {
            rx[2 * a] += 0.1 * rf[2 * a];
            rx[2 * a + 1] += 0.1 * rf[2 * a + 1] - 0.1 * 0.01;
            rf[2 * a] = rf[2 * a + 1] = 0.0;
        }
    }
    cudaMemcpy(x.data(), dx, 2 * nodes * 4, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int i = 0; i < 2 * nodes; i++) worst = fmax(worst, fabs(x[i] - rx[i]));
    return report("cloth", x.data(), 2 * nodes * 4, worst < 1e-3, "positions differ from the CPU's");
}

// ---------------------------------------------------------------- bfs
__global__ void bfs_step(const int *row, const int *col, int *dist, int *grew, int n, int l)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || dist[u] != l) return;
    for (int k = row[u]; k < row[u + 1]; k++)
        if (atomicMin(&dist[col[k]], l + 1) > l + 1) *grew = 1;
}

static bool run_bfs(int scale)
{
    int n = 4096 * scale, deg = 4;
    std::vector<int> row(n + 1), col;
    uint64_t s = 17;
    for (int u = 0; u < n; u++) {
        row[u] = (int)col.size();
        int d = 1 + lcg(s) % (2 * deg - 1);
        for (int k = 0; k < d; k++) col.push_back(lcg(s) % n);
    }
    row[n] = (int)col.size();
    int m = (int)col.size();
    std::vector<int> dist(n, 1 << 30), ref(n, 1 << 30);
    dist[0] = ref[0] = 0;
    int *dr, *dc, *dd, *dg;
    cudaMalloc(&dr, (n + 1) * 4);
    cudaMalloc(&dc, m * 4);
    cudaMalloc(&dd, n * 4);
    cudaMalloc(&dg, 4);
    cudaMemcpy(dr, row.data(), (n + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, col.data(), m * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dd, dist.data(), n * 4, cudaMemcpyHostToDevice);
    for (int l = 0;; l++) {
        int grew = 0;
        cudaMemcpy(dg, &grew, 4, cudaMemcpyHostToDevice);
        bfs_step<<<(n + 127) / 128, 128>>>(dr, dc, dd, dg, n, l);
        cudaMemcpy(&grew, dg, 4, cudaMemcpyDeviceToHost);
        if (!grew) break;
    }
    cudaMemcpy(dist.data(), dd, n * 4, cudaMemcpyDeviceToHost);
    std::vector<int> q(1, 0);
    for (size_t i = 0; i < q.size(); i++)
        for (int k = row[q[i]]; k < row[q[i] + 1]; k++)
            if (ref[col[k]] > ref[q[i]] + 1) { ref[col[k]] = ref[q[i]] + 1; q.push_back(col[k]); }
    return report("bfs", dist.data(), n * 4, dist == ref, "distances differ from the CPU's");
}

// ---------------------------------------------------------------- stencil
__global__ void jacobi(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[i] = in[i]; return; }
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

static bool run_stencil(int scale)
{
    int w = 64 * scale, h = 64, iters = 8;
    std::vector<float> a(w * h), ref;
    uint64_t s = 19;
    for (float &v : a) v = (float)(lcg(s) % 1000) / 10.0f;
    ref = a;
    float *d0, *d1;
    cudaMalloc(&d0, w * h * 4);
    cudaMalloc(&d1, w * h * 4);
    cudaMemcpy(d0, a.data(), w * h * 4, cudaMemcpyHostToDevice);
    for (int t = 0; t < iters; t++) {
        jacobi<<<dim3((w + 63) / 64, h), 64>>>(d0, d1, w, h);
        std::swap(d0, d1);
        std::vector<float> nx(ref);
        for (int y = 1; y < h - 1; y++)
            for (int x = 1; x < w - 1; x++) {
                int i = y * w + x;
                nx[i] = 0.25f * (ref[i - 1] + ref[i + 1] + ref[i - w] + ref[i + w]);
            }
        ref = nx;
    }
    cudaMemcpy(a.data(), d0, w * h * 4, cudaMemcpyDeviceToHost);
    return report("stencil", a.data(), w * h * 4, memcmp(a.data(), ref.data(), w * h * 4) == 0,
                  "values differ from the CPU's");
}

// ---------------------------------------------------------------- aes-like
__constant__ unsigned char sbox_c[256];

__device__ __host__ static unsigned mix(unsigned v, const unsigned char *sbox, unsigned key)
{
    for (int r = 0; r < 10; r++) {
        unsigned b0 = sbox[v & 255], b1 = sbox[(v >> 8) & 255], b2 = sbox[(v >> 16) & 255],
                 b3 = sbox[v >> 24];
        v = (b1 | b2 << 8 | b3 << 16 | b0 << 24) ^ (key * (unsigned)(r + 1));
        v ^= (v << 7) | (v >> 25);
    }
    return v;
}

__global__ void aes_like(unsigned *data, int n, unsigned key)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = mix(data[i], sbox_c, key);
}

static bool run_aes(int scale)
{
    int n = 8192 * scale;
    unsigned char sbox[256];
    for (int i = 0; i < 256; i++) sbox[i] = (unsigned char)((i * 167 + 13) ^ (i >> 3));
    cudaMemcpyToSymbol(sbox_c, sbox, 256);
    std::vector<unsigned> d(n), ref(n);
    uint64_t s = 23;
    for (int i = 0; i < n; i++) d[i] = lcg(s);
    for (int i = 0; i < n; i++) ref[i] = mix(d[i], sbox, 0x5a17c0deu);
    unsigned *dd;
    cudaMalloc(&dd, n * 4);
    cudaMemcpy(dd, d.data(), n * 4, cudaMemcpyHostToDevice);
    aes_like<<<(n + 127) / 128, 128>>>(dd, n, 0x5a17c0deu);
    cudaMemcpy(d.data(), dd, n * 4, cudaMemcpyDeviceToHost);
    return report("aes", d.data(), n * 4, d == ref, "blocks differ from the CPU's");
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    int scale = argc > 2 ? atoi(argv[2]) : 1;
    if (scale < 1) scale = 1;
    struct { const char *name; bool (*run)(int); } kinds[] = {
        {"hashtable", run_hashtable}, {"bank", run_bank}, {"cloth", run_cloth},
        {"bfs", run_bfs}, {"stencil", run_stencil}, {"aes", run_aes},
    };
    bool ok = true, any = false;
    for (auto &k : kinds)
        if (strcmp(which, "all") == 0 || strcmp(which, k.name) == 0) {
            any = true;
            ok = k.run(scale) && ok;
        }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL gpudet_kinds: %s\n", cudaGetErrorString(err));
        return 1;
    }
    if (!any) {
        printf("usage: gpudet_kinds [hashtable|bank|cloth|bfs|stencil|aes|all] [SCALE]\n");
        return 2;
    }
    return ok ? 0 : 1;
}
