// blur_histogram.cu: ptxsim's flagship example. An ordinary CUDA program, unmodified: it makes
// a small grayscale image, then runs three kernels on it:
//   blur5x5    a 5x5 box blur over 16x16 tiles staged in shared memory with a 2-pixel halo
//              (__syncthreads between loading and filtering);
//   histogram  16 brightness bins counted with shared-memory atomics, merged with global ones;
//   minmaxsum  a block tree reduction in dynamic shared memory, combined with atomicMin/Max/Add.
// It prints both images, the histogram and the statistics, and checks every number against a
// CPU computation of the same thing. Build it with `nvcc -cudart shared` and run it with
// `ptxsim run -- ./blur_histogram` (that is what `make demo` does).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define W 80
#define H 40
#define TILE 16
#define R 2  // blur radius
#define BINS 16

#define CUDA_CHECK(call)                                                                      \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                    cudaGetErrorString(e_));                                                  \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

__host__ __device__ static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

__global__ void blur5x5(const unsigned char *in, unsigned char *out, int w, int h)
{
    __shared__ unsigned char tile[TILE + 2 * R][TILE + 2 * R];
    int x0 = blockIdx.x * TILE - R, y0 = blockIdx.y * TILE - R;
    // The block loads its tile and the halo around it (clamped at the image's edges).
    for (int ty = threadIdx.y; ty < TILE + 2 * R; ty += TILE)
        for (int tx = threadIdx.x; tx < TILE + 2 * R; tx += TILE)
            tile[ty][tx] = in[clampi(y0 + ty, 0, h - 1) * w + clampi(x0 + tx, 0, w - 1)];
    __syncthreads();
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int sum = 0;
    for (int dy = 0; dy <= 2 * R; dy++)
        for (int dx = 0; dx <= 2 * R; dx++)
            sum += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = (unsigned char)(sum / 25);
}

__global__ void histogram(const unsigned char *img, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    if (threadIdx.x < BINS)
        local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[img[i] / (256 / BINS)], 1u);
    __syncthreads();
    if (threadIdx.x < BINS && local[threadIdx.x])
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// stats[0] = sum, stats[1] = min, stats[2] = max
__global__ void minmaxsum(const unsigned char *img, int n, int *stats)
{
    extern __shared__ int red[];  // 3 * blockDim.x ints: sums, minima, maxima
    int *s = red, *lo = red + blockDim.x, *hi = red + 2 * blockDim.x;
    int sum = 0, mn = 255, mx = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sum += img[i];
        mn = min(mn, (int)img[i]);
        mx = max(mx, (int)img[i]);
    }
    s[threadIdx.x] = sum, lo[threadIdx.x] = mn, hi[threadIdx.x] = mx;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            s[threadIdx.x] += s[threadIdx.x + half];
            lo[threadIdx.x] = min(lo[threadIdx.x], lo[threadIdx.x + half]);
            hi[threadIdx.x] = max(hi[threadIdx.x], hi[threadIdx.x + half]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&stats[0], s[0]);
        atomicMin(&stats[1], lo[0]);
        atomicMax(&stats[2], hi[0]);
    }
}

// A gradient sky, a bright sun, a dark building, and some grain.
static std::vector<unsigned char> make_image(void)
{
    std::vector<unsigned char> img(W * H);
    unsigned seed = 12345;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int v = 40 + 120 * y / H;
            int dx = x - 60, dy = y - 10;
            if (dx * dx + dy * dy < 8 * 8)
                v = 250;
            if (x >= 12 && x < 34 && y >= 16)
                v = 15;
            if (x >= 17 && x < 21 && y >= 20 && y < 26)
                v = 210;  // a lit window
            seed = seed * 1103515245u + 12345u;
            v += (int)((seed >> 16) % 31) - 15;
            img[y * W + x] = (unsigned char)clampi(v, 0, 255);
        }
    return img;
}

static void print_images(const std::vector<unsigned char> &a, const std::vector<unsigned char> &b)
{
    static const char ramp[] = " .:-=+*#%@";
    printf("  %-40s    %s\n", "original", "blurred on the (emulated) GPU");
    for (int y = 0; y < H; y += 2) {
        printf("  ");
        for (int x = 0; x < W; x += 2)
            putchar(ramp[a[y * W + x] * 10 / 256]);
        printf("    ");
        for (int x = 0; x < W; x += 2)
            putchar(ramp[b[y * W + x] * 10 / 256]);
        putchar('\n');
    }
}

int main()
{
    const int n = W * H;
    std::vector<unsigned char> img = make_image(), blurred(n);

    // ---- the GPU side
    unsigned char *d_img, *d_blur;
    unsigned *d_bins;
    int *d_stats;
    CUDA_CHECK(cudaMalloc(&d_img, n));
    CUDA_CHECK(cudaMalloc(&d_blur, n));
    CUDA_CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_stats, 3 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned)));
    int init[3] = {0, 255, 0};
    CUDA_CHECK(cudaMemcpy(d_stats, init, sizeof init, cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE), grid((W + TILE - 1) / TILE, (H + TILE - 1) / TILE);
    blur5x5<<<grid, block>>>(d_img, d_blur, W, H);
    CUDA_CHECK(cudaGetLastError());
    histogram<<<8, 128>>>(d_blur, n, d_bins);
    CUDA_CHECK(cudaGetLastError());
    const int threads = 128;
    minmaxsum<<<6, threads, 3 * threads * sizeof(int)>>>(d_blur, n, d_stats);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    unsigned bins[BINS];
    int stats[3];
    CUDA_CHECK(cudaMemcpy(blurred.data(), d_blur, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(stats, d_stats, sizeof stats, cudaMemcpyDeviceToHost));

    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("blur_histogram on %s: a %dx%d image, 3 kernels\n\n", prop.name, W, H);
    print_images(img, blurred);
    printf("\n  brightness histogram of the blurred image (%d bins)\n", BINS);
    unsigned most = 1;
    for (int b = 0; b < BINS; b++)
        most = bins[b] > most ? bins[b] : most;
    for (int b = 0; b < BINS; b++) {
        printf("  %3d-%3d %5u ", b * 16, b * 16 + 15, bins[b]);
        for (unsigned k = 0; k < bins[b] * 50 / most; k++)
            putchar('#');
        putchar('\n');
    }
    printf("\n  min %d, max %d, mean %.2f\n\n", stats[1], stats[2], (double)stats[0] / n);

    // ---- the same on the CPU
    std::vector<unsigned char> want(n);
    unsigned want_bins[BINS] = {0};
    int want_sum = 0, want_min = 255, want_max = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int sum = 0;
            for (int dy = -R; dy <= R; dy++)
                for (int dx = -R; dx <= R; dx++)
                    sum += img[clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
            unsigned char v = (unsigned char)(sum / 25);
            want[y * W + x] = v;
            want_bins[v / (256 / BINS)]++;
            want_sum += v;
            want_min = v < want_min ? v : want_min;
            want_max = v > want_max ? v : want_max;
        }
    int bad_pixels = 0, bad_bins = 0;
    for (int i = 0; i < n; i++)
        bad_pixels += blurred[i] != want[i];
    for (int b = 0; b < BINS; b++)
        bad_bins += bins[b] != want_bins[b];
    bool stats_ok = stats[0] == want_sum && stats[1] == want_min && stats[2] == want_max;
    if (bad_pixels || bad_bins || !stats_ok) {
        printf("MISMATCH against the CPU: %d of %d pixels, %d of %d bins, statistics %s\n",
               bad_pixels, n, bad_bins, BINS, stats_ok ? "equal" : "differ");
        return 1;
    }
    printf("verified against CPU: all %d blurred pixels, %d histogram bins, min/max/sum equal\n",
           n, BINS);
    cudaFree(d_img);
    cudaFree(d_blur);
    cudaFree(d_bins);
    cudaFree(d_stats);
    return 0;
}
