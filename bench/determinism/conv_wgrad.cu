// conv_wgrad.cu: the backward-filter (weight-gradient) convolution of a ResNet bottleneck layer
// (cuDNN's algorithm 0 shape, the DAB paper's CNN workload, spec dab.md S13): dW[k][c][r][s] =
// sum over n, y, x of dY[n][k][y][x] * X[n][c][y+r-p][x+s-p] (stride 1, padding p = R/2). The
// sum over (n, y) is split across CTAs: CTA (j, g) covers filter elements j*256.. and image rows
// group g, and adds its partial sums into dW with atomicAdd (red.global.add.f32), so CTAs of the
// same filter region accumulate into the same addresses in an order-dependent float sum.
// Layers (C x H x W input, K filters of R x R), the paper's Table III scaled down by SCALE in
// channels and image size (the scale is printed; the emulator runs the paper's sizes, slowly):
//   cnv2_1 256x56x56 K64 R1   cnv2_2 64x56x56 K64 R3   cnv2_3 64x56x56 K256 R1
//   cnv3_1 512x28x28 K128 R1  cnv3_2 128x28x28 K128 R3 cnv3_3 128x28x28 K512 R1
//   cnv4_1 1024x14x14 K256 R1 cnv4_2 256x14x14 K256 R3 cnv4_3 256x14x14 K1024 R1
// Usage: conv_wgrad [LAYER] [SCALE] [BATCH] (defaults cnv2_2 4 2). Prints "signature conv_wgrad
// HEX" (dW's bits) and checks dW against a double-precision CPU sum: "PASS conv_wgrad_reference".
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct layer { const char *name; int c, h, k, r; };
static const layer layers[] = {
    {"cnv2_1", 256, 56, 64, 1},   {"cnv2_2", 64, 56, 64, 3},    {"cnv2_3", 64, 56, 256, 1},
    {"cnv3_1", 512, 28, 128, 1},  {"cnv3_2", 128, 28, 128, 3},  {"cnv3_3", 128, 28, 512, 1},
    {"cnv4_1", 1024, 14, 256, 1}, {"cnv4_2", 256, 14, 256, 3},  {"cnv4_3", 256, 14, 1024, 1},
};

#define ROWS_PER_GROUP 2

__global__ void wgrad(const float *x, const float *dy, float *dw, int nbatch, int c, int h,
                      int k, int r)
{
    int nf = k * c * r * r;
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= nf) return;
    int s = f % r, rr = (f / r) % r, ci = (f / (r * r)) % c, ki = f / (r * r * c);
    int p = r / 2;
    int y0 = blockIdx.y * ROWS_PER_GROUP;
    float acc = 0.0f;
    for (int n = 0; n < nbatch; n++)
        for (int y = y0; y < y0 + ROWS_PER_GROUP && y < h; y++) {
            int iy = y + rr - p;
            if (iy < 0 || iy >= h) continue;
            for (int xx = 0; xx < h; xx++) {
                int ix = xx + s - p;
                if (ix < 0 || ix >= h) continue;
                acc += dy[((n * k + ki) * h + y) * h + xx] * x[((n * c + ci) * h + iy) * h + ix];
            }
        }
    atomicAdd(&dw[f], acc);
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t hsh = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) hsh = (hsh ^ b[i]) * 1099511628211ull;
    return hsh;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "cnv2_2";
    int scale = argc > 2 ? atoi(argv[2]) : 4;
    int nbatch = argc > 3 ? atoi(argv[3]) : 2;
    const layer *L = NULL;
    for (const layer &l : layers)
        if (strcmp(l.name, name) == 0) L = &l;
    if (!L || scale < 1 || nbatch < 1) {
        printf("usage: conv_wgrad [cnv2_1..cnv4_3] [SCALE>0] [BATCH>0]\n");
        return 2;
    }
    int c = L->c / scale > 0 ? L->c / scale : 1, k = L->k / scale > 0 ? L->k / scale : 1;
    int h = L->h / scale > 2 ? L->h / scale : 3, r = L->r;
    size_t nx = (size_t)nbatch * c * h * h, ny = (size_t)nbatch * k * h * h;
    int nf = k * c * r * r;
    std::vector<float> x(nx), dy(ny), dw(nf);
    uint64_t st = 12345;
    auto rnd = [&st]() { st = st * 6364136223846793005ull + 1442695040888963407ull;
                         return (float)((st >> 40) % 2001) / 1000.0f - 1.0f; };
    for (float &v : x) v = rnd();
    for (float &v : dy) v = rnd();
    float *dx, *ddy, *ddw;
    cudaMalloc(&dx, nx * sizeof(float));
    cudaMalloc(&ddy, ny * sizeof(float));
    cudaMalloc(&ddw, nf * sizeof(float));
    cudaMemcpy(dx, x.data(), nx * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(ddy, dy.data(), ny * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(ddw, 0, nf * sizeof(float));
    dim3 grid((nf + 255) / 256, (h + ROWS_PER_GROUP - 1) / ROWS_PER_GROUP);
    wgrad<<<grid, 256>>>(dx, ddy, ddw, nbatch, c, h, k, r);
    cudaMemcpy(dw.data(), ddw, nf * sizeof(float), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("FAIL conv_wgrad: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("signature conv_wgrad %016llx\n", (unsigned long long)fnv(dw.data(), nf * sizeof(float)));
    int p = r / 2;
    double worst = 0;
    for (int f = 0; f < nf; f++) {
        int s = f % r, rr = (f / r) % r, ci = (f / (r * r)) % c, ki = f / (r * r * c);
        double sum = 0, mag = 0;
        for (int n = 0; n < nbatch; n++)
            for (int y = 0; y < h; y++)
                for (int xx = 0; xx < h; xx++) {
                    int iy = y + rr - p, ix = xx + s - p;
                    if (iy < 0 || iy >= h || ix < 0 || ix >= h) continue;
                    double t = (double)dy[((n * k + ki) * h + y) * h + xx] *
                               x[((n * c + ci) * h + iy) * h + ix];
                    sum += t;
                    mag += fabs(t);
                }
        double e = fabs(dw[f] - sum) / (mag > 0 ? mag : 1);
        if (e > worst) worst = e;
    }
    bool ok = worst <= 1e-5;
    printf("%s conv_wgrad_reference (%s at 1/%d: %dx%dx%d input, %d filters of %dx%d, batch %d, "
           "%d CTAs)\n", ok ? "PASS" : "FAIL", L->name, scale, c, h, h, k, r, r, nbatch,
           grid.x * grid.y);
    return ok ? 0 : 1;
}
