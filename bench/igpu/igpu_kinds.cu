// igpu_kinds.cu: compute kernels of the kinds the iGPU paper measures (the GPGPU-Sim 2.1
// benchmarks of Bakhoda et al., ISPASS 2009: spec igpu.md S-7.2), small and self-checking:
//   cp   Coulombic potential (ISPASS "CP"): each thread sums q / r over every atom for one
//        point of a 2D slice of a grid; long loops of arithmetic, one store per thread
//   lps  3D Laplace solver (ISPASS "LPS"): Jacobi iterations of the 7-point stencil over an
//        N^3 grid, one launch per iteration, buffers swapped (out of place)
//   nn   a neural-network layer (ISPASS "NN"): y = sigmoid(W x + b), one output per thread,
//        then a second layer on y
//   nqu  N-queens (ISPASS "NQU"): each thread counts the solutions below one placement of the
//        first two queens with a bit-mask backtracking search kept in registers
// Usage: igpu_kinds [NAME|all] [SCALE] (defaults all 1). Prints "PASS NAME_reference" or
// "FAIL NAME_reference: why" per kind (the CPU reference: exact for lps, nqu; within a
// tolerance for cp and nn, whose float sums the GPU may contract into FMAs).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static bool report(const char *name, bool ok, const char *why)
{
    if (ok) printf("PASS %s_reference\n", name);
    else printf("FAIL %s_reference: %s\n", name, why);
    return ok;
}

static uint32_t lcg(uint64_t &s)
{
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s >> 33);
}

// ---------------------------------------------------------------- cp
__global__ void cp_slice(float *energy, const float4 *atoms, int natoms, int nx, float spacing,
                         float z)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= nx) return;
    float px = x * spacing, py = y * spacing, e = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float4 at = atoms[a];
        float dx = px - at.x, dy = py - at.y, dz = z - at.z;
        e += at.w / sqrtf(dx * dx + dy * dy + dz * dz);
    }
    energy[y * nx + x] += e;
}

static bool run_cp(int scale)
{
    int nx = 32 * scale, natoms = 64;
    float spacing = 0.5f, z = 1.25f;
    std::vector<float4> atoms(natoms);
    uint64_t s = 7;
    for (auto &a : atoms) {
        a.x = (lcg(s) % 1000) * 0.016f;
        a.y = (lcg(s) % 1000) * 0.016f;
        a.z = (lcg(s) % 1000) * 0.001f;
        a.w = ((int)(lcg(s) % 200) - 100) * 0.01f;
    }
    std::vector<float> energy(nx * nx, 0.5f), out(nx * nx);
    float *de;
    float4 *da;
    cudaMalloc(&de, nx * nx * sizeof(float));
    cudaMalloc(&da, natoms * sizeof(float4));
    cudaMemcpy(de, energy.data(), nx * nx * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(da, atoms.data(), natoms * sizeof(float4), cudaMemcpyHostToDevice);
    dim3 block(16, 8), grid((nx + 15) / 16, (nx + 7) / 8);
    cp_slice<<<grid, block>>>(de, da, natoms, nx, spacing, z);
    cudaMemcpy(out.data(), de, nx * nx * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(de);
    cudaFree(da);
    char why[160] = "";
    for (int y = 0; y < nx && !why[0]; y++)
        for (int x = 0; x < nx && !why[0]; x++) {
            double e = 0;
            for (auto &a : atoms) {
                double dx = x * spacing - a.x, dy = y * spacing - a.y, dz = z - a.z;
                e += a.w / std::sqrt(dx * dx + dy * dy + dz * dz);
            }
            double want = 0.5 + e, got = out[y * nx + x];
            if (std::fabs(got - want) > 1e-3 * (1 + std::fabs(want)))
                snprintf(why, sizeof why, "energy[%d][%d] = %g, expected %g", y, x, got, want);
        }
    return report("cp", !why[0], why);
}

// ---------------------------------------------------------------- lps
__global__ void lps_step(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    for (int k = 0; k < n; k++) {
        int c = (k * n + j) * n + i;
        if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
            out[c] = in[c];   // boundary held
            continue;
        }
        // the six neighbours, summed in a fixed order (exact: small integers times 1/8)
        float s = in[c - 1] + in[c + 1] + in[c - n] + in[c + n] + in[c - n * n] + in[c + n * n];
        out[c] = s * 0.125f + in[c] * 0.25f;
    }
}

static bool run_lps(int scale)
{
    int n = 16 * scale, iters = 4;
    size_t cells = (size_t)n * n * n;
    std::vector<float> u(cells);
    for (size_t c = 0; c < cells; c++) u[c] = (float)((c * 37) % 64);
    float *a, *b;
    cudaMalloc(&a, cells * sizeof(float));
    cudaMalloc(&b, cells * sizeof(float));
    cudaMemcpy(a, u.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(16, 4), grid((n + 15) / 16, (n + 3) / 4);
    for (int t = 0; t < iters; t++) {
        lps_step<<<grid, block>>>(b, a, n);
        float *x = a;
        a = b;
        b = x;
    }
    std::vector<float> got(cells), v(cells);
    cudaMemcpy(got.data(), a, cells * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(a);
    cudaFree(b);
    for (int t = 0; t < iters; t++) {
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    size_t c = ((size_t)k * n + j) * n + i;
                    if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
                        v[c] = u[c];
                        continue;
                    }
                    float s = u[c - 1] + u[c + 1] + u[c - n] + u[c + n] + u[c - n * n] +
                              u[c + n * n];
                    v[c] = s * 0.125f + u[c] * 0.25f;
                }
        u.swap(v);
    }
    char why[160] = "";
    for (size_t c = 0; c < cells && !why[0]; c++)
        if (std::fabs(got[c] - u[c]) > 1e-4f * (1 + std::fabs(u[c])))
            snprintf(why, sizeof why, "u[%zu] = %g, expected %g", c, got[c], u[c]);
    return report("lps", !why[0], why);
}

// ---------------------------------------------------------------- nn
__global__ void nn_layer(float *y, const float *w, const float *x, const float *bias, int nin,
                         int nout)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nout) return;
    float s = bias[j];
    for (int i = 0; i < nin; i++) s += w[j * nin + i] * x[i];
    y[j] = 1.0f / (1.0f + expf(-s));
}

static bool run_nn(int scale)
{
    int n0 = 256, n1 = 256 * scale, n2 = 64;
    uint64_t s = 11;
    auto fill = [&](std::vector<float> &v) {
        for (auto &e : v) e = ((int)(lcg(s) % 2001) - 1000) * 0.0005f;
    };
    std::vector<float> x(n0), w1(n1 * n0), b1(n1), w2(n2 * n1), b2(n2);
    fill(x);
    fill(w1);
    fill(b1);
    fill(w2);
    fill(b2);
    float *dx, *dw1, *db1, *dh, *dw2, *db2, *dy;
    cudaMalloc(&dx, n0 * 4);
    cudaMalloc(&dw1, n1 * n0 * 4);
    cudaMalloc(&db1, n1 * 4);
    cudaMalloc(&dh, n1 * 4);
    cudaMalloc(&dw2, n2 * n1 * 4);
    cudaMalloc(&db2, n2 * 4);
    cudaMalloc(&dy, n2 * 4);
    cudaMemcpy(dx, x.data(), n0 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dw1, w1.data(), n1 * n0 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db1, b1.data(), n1 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dw2, w2.data(), n2 * n1 * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db2, b2.data(), n2 * 4, cudaMemcpyHostToDevice);
    nn_layer<<<(n1 + 63) / 64, 64>>>(dh, dw1, dx, db1, n0, n1);
    nn_layer<<<(n2 + 63) / 64, 64>>>(dy, dw2, dh, db2, n1, n2);
    std::vector<float> y(n2);
    cudaMemcpy(y.data(), dy, n2 * 4, cudaMemcpyDeviceToHost);
    for (float *p : {dx, dw1, db1, dh, dw2, db2, dy}) cudaFree(p);
    std::vector<double> h(n1);
    for (int j = 0; j < n1; j++) {
        double acc = b1[j];
        for (int i = 0; i < n0; i++) acc += (double)w1[j * n0 + i] * x[i];
        h[j] = 1 / (1 + std::exp(-acc));
    }
    char why[160] = "";
    for (int j = 0; j < n2 && !why[0]; j++) {
        double acc = b2[j];
        for (int i = 0; i < n1; i++) acc += (double)w2[j * n1 + i] * h[i];
        double want = 1 / (1 + std::exp(-acc));
        if (std::fabs(y[j] - want) > 1e-4)
            snprintf(why, sizeof why, "y[%d] = %g, expected %g", j, y[j], want);
    }
    return report("nn", !why[0], why);
}

// ---------------------------------------------------------------- nqu
__device__ __host__ unsigned nqu_count(int n, unsigned cols, unsigned d1, unsigned d2)
{
    // iterative backtracking over rows, the free positions of each row as a bit mask
    unsigned all = (1u << n) - 1, count = 0;
    unsigned stk_free[32], stk_cols[32], stk_d1[32], stk_d2[32];
    int top = 0;
    stk_cols[0] = cols;
    stk_d1[0] = d1;
    stk_d2[0] = d2;
    stk_free[0] = all & ~(cols | d1 | d2);
    while (top >= 0) {
        if (stk_cols[top] == all) {
            count++;
            top--;
            continue;
        }
        unsigned f = stk_free[top];
        if (!f) {
            top--;
            continue;
        }
        unsigned bit = f & (0u - f);
        stk_free[top] = f & ~bit;
        unsigned c = stk_cols[top] | bit, a = (stk_d1[top] | bit) << 1, b = (stk_d2[top] | bit) >> 1;
        top++;
        stk_cols[top] = c;
        stk_d1[top] = a;
        stk_d2[top] = b;
        stk_free[top] = all & ~(c | a | b);
    }
    return count;
}

__global__ void nqu_kernel(unsigned *counts, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n * n) return;
    int c0 = t / n, c1 = t % n;
    unsigned b0 = 1u << c0, b1 = 1u << c1;
    unsigned r = 0;
    // the second queen must not attack the first
    if (c0 != c1 && c1 != c0 + 1 && c1 + 1 != c0)
        r = nqu_count(n, b0 | b1, ((b0 << 1) | b1) << 1, ((b0 >> 1) | b1) >> 1);
    counts[t] = r;
}

static bool run_nqu(int scale)
{
    int n = scale > 1 ? 9 : 8;
    unsigned *d;
    cudaMalloc(&d, n * n * sizeof(unsigned));
    nqu_kernel<<<(n * n + 31) / 32, 32>>>(d, n);
    std::vector<unsigned> got(n * n);
    cudaMemcpy(got.data(), d, n * n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaFree(d);
    unsigned total = 0, want = 0;
    for (unsigned v : got) total += v;
    for (int t = 0; t < n * n; t++) {
        int c0 = t / n, c1 = t % n;
        unsigned b0 = 1u << c0, b1 = 1u << c1;
        if (c0 != c1 && c1 != c0 + 1 && c1 + 1 != c0)
            want += nqu_count(n, b0 | b1, ((b0 << 1) | b1) << 1, ((b0 >> 1) | b1) >> 1);
    }
    // the known totals: 92 for 8 queens, 352 for 9
    unsigned known = n == 8 ? 92 : 352;
    char why[160] = "";
    if (total != want || want != known)
        snprintf(why, sizeof why, "%u solutions, CPU %u, known %u", total, want, known);
    return report("nqu", !why[0], why);
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    int scale = argc > 2 ? atoi(argv[2]) : 1;
    if (scale < 1) scale = 1;
    struct { const char *name; bool (*run)(int); } kinds[] = {
        {"cp", run_cp}, {"lps", run_lps}, {"nn", run_nn}, {"nqu", run_nqu},
    };
    bool ok = true, any = false;
    for (auto &k : kinds)
        if (strcmp(which, "all") == 0 || strcmp(which, k.name) == 0) {
            any = true;
            ok = k.run(scale) && ok;
        }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL igpu_kinds: %s\n", cudaGetErrorString(err));
        return 1;
    }
    if (!any) {
        printf("usage: igpu_kinds [cp|lps|nn|nqu|all] [SCALE]\n");
        return 2;
    }
    return ok ? 0 : 1;
}
