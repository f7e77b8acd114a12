// textures.cu: texture objects against a CPU model of the texture unit (CUDA Programming Guide,
// "Texture Fetching"): nearest and linear filtering with 9-bit (8 fractional bits) weights,
// clamp / wrap / mirror / border addressing, normalized coordinates, element-type and
// normalized-float reads of 8/16/32-bit and half channels, 1D/2D/3D arrays, layered arrays,
// cubemaps, tex2Dgather, tex1Dfetch on linear memory (zero outside), pitched memory, mipmaps
// with tex2DLod, and the object queries and creation errors.
#include "check.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <vector>

// ---------------------------------------------------------------- the CPU model

static int addr(int i, int n, cudaTextureAddressMode m, bool norm, bool *border)
{
    *border = false;
    if (!norm && (m == cudaAddressModeWrap || m == cudaAddressModeMirror)) m = cudaAddressModeClamp;
    if (i >= 0 && i < n) return i;
    switch (m) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
        int k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    case cudaAddressModeBorder: *border = true; return 0;
    default: return i < 0 ? 0 : n - 1;
    }
}

static float w8(float f) { return rintf(f * 256.0f) / 256.0f; }

// A single-channel float image of w x h sampled like the hardware.
struct Img {
    int w, h;
    std::vector<float> v;
    cudaTextureAddressMode mode[2];
    bool norm, linear;
    float border;
    float at(int i, int j) const
    {
        bool b1, b2;
        int x = addr(i, w, mode[0], norm, &b1), y = addr(j, h, mode[1], norm, &b2);
        return (b1 || b2) ? border : v[y * w + x];
    }
    float sample(float x, float y) const
    {
        double u = norm ? (double)x * w : x, t = norm ? (double)y * h : y;
        if (!linear) return at((int)floor(u), (int)floor(t));
        double ub = u - 0.5, tb = t - 0.5;
        int i = (int)floor(ub), j = (int)floor(tb);
        float a = w8((float)(ub - i)), b = w8((float)(tb - j));
        return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
               (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
    }
};

static bool close(float a, float b) { return fabsf(a - b) <= 1e-4f * fmaxf(1.0f, fabsf(b)); }

// ---------------------------------------------------------------- kernels

__global__ void sample2d(cudaTextureObject_t t, const float2 *xy, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

__global__ void sample1d(cudaTextureObject_t t, const float *x, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float4>(t, x[i]);
}

__global__ void fetch_int(cudaTextureObject_t t, int4 *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int4>(t, i - 2);
}

__global__ void fetch_short2(cudaTextureObject_t t, short2 *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<short2>(t, i % 4, i / 4);
}

__global__ void sample3d(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void sample_layers(cudaTextureObject_t t2, cudaTextureObject_t t1, float *out)
{
    int l = threadIdx.x;  // layer
    out[l * 2] = tex2DLayered<float>(t2, 1.5f, 2.5f, l);
    out[l * 2 + 1] = tex1DLayered<float>(t1, 2.5f, l);
}

__global__ void sample_cube(cudaTextureObject_t t, const float4 *dir, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}

__global__ void gather(cudaTextureObject_t t, float4 *out)
{
    out[0] = tex2Dgather<float4>(t, 2.0f, 1.0f, 0);
    out[1] = tex2Dgather<float4>(t, 2.0f, 1.0f, 1);
    out[2] = tex2Dgather<float4>(t, 0.25f, 0.25f, 0);  // clamped footprint at the corner
}

__global__ void sample_lod(cudaTextureObject_t t, float *out)
{
    // levels of detail whose fractions are exact in 8 bits, none halfway between levels
    const float lods[6] = {0.0f, 0.25f, 0.75f, 1.25f, 1.625f, 2.5f};
    int i = threadIdx.x;
    out[i] = tex2DLod<float>(t, 0.5f, 0.5f, lods[i]);
}

__global__ void sample_half(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x;
    out[i] = tex1D<float>(t, i * 0.5f + 0.25f);
}

// ---------------------------------------------------------------- helpers

static cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureAddressMode m0,
                                    cudaTextureAddressMode m1, bool linear, bool norm,
                                    cudaTextureReadMode rm = cudaReadModeElementType,
                                    float border = 0)
{
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = m0;
    td.addressMode[1] = m1;
    td.addressMode[2] = m1;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = rm;
    td.normalizedCoords = norm;
    for (int i = 0; i < 4; i++) td.borderColor[i] = border;
    cudaTextureObject_t t = 0;
    CUDA_OK("create_texture", cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

static void check_2d(const char *name, cudaArray_t arr, const Img &img,
                     const std::vector<float2> &pts)
{
    cudaTextureObject_t t = make_tex(arr, img.mode[0], img.mode[1], img.linear, img.norm,
                                     cudaReadModeElementType, img.border);
    int n = (int)pts.size();
    float2 *dxy;
    float *dout;
    CUDA_OK("malloc", cudaMalloc(&dxy, n * sizeof(float2)));
    CUDA_OK("malloc", cudaMalloc(&dout, n * sizeof(float)));
    CUDA_OK("copy", cudaMemcpy(dxy, pts.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d<<<(n + 63) / 64, 64>>>(t, dxy, dout, n);
    std::vector<float> got(n);
    CUDA_OK("copy_back", cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (!close(got[i], img.sample(pts[i].x, pts[i].y))) bad = i;
    check(bad < 0, name, "at (%g, %g): got %.6f, want %.6f", bad >= 0 ? pts[bad].x : 0.0,
          bad >= 0 ? pts[bad].y : 0.0, bad >= 0 ? got[bad] : 0.0f,
          bad >= 0 ? img.sample(pts[bad].x, pts[bad].y) : 0.0f);
    cudaDestroyTextureObject(t);
    cudaFree(dxy);
    cudaFree(dout);
}

int main()
{
    // ---- a 2D float image (8 x 6) with distinct integer texels
    const int W = 8, H = 6;
    Img img;
    img.w = W;
    img.h = H;
    img.v.resize(W * H);
    for (int i = 0; i < W * H; i++) img.v[i] = (float)((i * 37) % 101);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CUDA_OK("malloc_array", cudaMallocArray(&arr, &fd, W, H));
    CUDA_OK("copy_array", cudaMemcpy2DToArray(arr, 0, 0, img.v.data(), W * sizeof(float),
                                              W * sizeof(float), H, cudaMemcpyHostToDevice));

    std::vector<float2> unnorm, norm;
    for (int k = 0; k < 96; k++) {
        // a grid with exact 1/8 texel steps, and coordinates well outside the image
        float x = -3.0f + k * 0.3125f, y = -2.0f + (k % 13) * 0.625f;
        unnorm.push_back(make_float2(x, y));
        norm.push_back(make_float2(x / W, y / H));
    }
    img.border = 0;
    img.mode[0] = img.mode[1] = cudaAddressModeClamp;
    img.norm = false;
    img.linear = false;
    check_2d("tex2d_point_clamp", arr, img, unnorm);
    img.linear = true;
    check_2d("tex2d_linear_clamp", arr, img, unnorm);
    img.norm = true;
    img.mode[0] = img.mode[1] = cudaAddressModeWrap;
    check_2d("tex2d_linear_wrap_normalized", arr, img, norm);
    img.linear = false;
    check_2d("tex2d_point_wrap_normalized", arr, img, norm);
    img.mode[0] = img.mode[1] = cudaAddressModeMirror;
    check_2d("tex2d_point_mirror_normalized", arr, img, norm);
    img.linear = true;
    check_2d("tex2d_linear_mirror_normalized", arr, img, norm);
    img.mode[0] = img.mode[1] = cudaAddressModeBorder;
    img.border = -5.0f;
    check_2d("tex2d_linear_border", arr, img, norm);
    img.norm = false;
    img.linear = false;
    check_2d("tex2d_point_border_unnormalized", arr, img, unnorm);
    img.border = 0;
    // wrap with unnormalized coordinates acts as clamp
    img.mode[0] = img.mode[1] = cudaAddressModeWrap;
    check_2d("tex2d_wrap_unnormalized_is_clamp", arr, img, unnorm);

    // the 9-bit weights: frac 0.3 is held as 77/256
    {
        float ramp[2] = {0.0f, 256.0f};
        cudaArray_t a2;
        CUDA_OK("malloc_array", cudaMallocArray(&a2, &fd, 2, 1));
        CUDA_OK("copy", cudaMemcpy2DToArray(a2, 0, 0, ramp, 8, 8, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(a2, cudaAddressModeClamp, cudaAddressModeClamp, true,
                                         false);
        // fractions 0.3 (76.8/256, held as 77/256), 0.5, and 0.75/256 (held as 1/256)
        float2 p[3] = {make_float2(0.8f, 0.5f), make_float2(1.0f, 0.5f), make_float2(0.5f + 3.0f / 1024, 0.5f)};
        float2 *dp;
        float *dout, got[3];
        cudaMalloc(&dp, sizeof p);
        cudaMalloc(&dout, sizeof got);
        cudaMemcpy(dp, p, sizeof p, cudaMemcpyHostToDevice);
        sample2d<<<1, 3>>>(t, dp, dout, 3);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        check(got[0] == 77.0f && got[1] == 128.0f && got[2] == 1.0f, "tex_weights_9bit",
              "got %g %g %g, want 77 128 1", got[0], got[1], got[2]);
        cudaDestroyTextureObject(t);
        cudaFreeArray(a2);
        cudaFree(dp);
        cudaFree(dout);
    }

    // ---- uchar4 read as normalized floats, 1D, linear filtering
    {
        const int N = 5;
        uchar4 px[N] = {{0, 255, 10, 20}, {255, 0, 20, 40}, {128, 64, 30, 60},
                        {1, 2, 40, 80}, {250, 100, 50, 100}};
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
        cudaArray_t a;
        CUDA_OK("malloc_array", cudaMallocArray(&a, &cd, N, 0));
        CUDA_OK("copy", cudaMemcpy2DToArray(a, 0, 0, px, sizeof px, sizeof px, 1,
                                            cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, true,
                                         false, cudaReadModeNormalizedFloat);
        const int M = 12;
        float xs[M];
        for (int i = 0; i < M; i++) xs[i] = -0.5f + i * 0.5f + 0.125f;
        float *dx;
        float4 *dout, got[M];
        cudaMalloc(&dx, sizeof xs);
        cudaMalloc(&dout, sizeof got);
        cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice);
        sample1d<<<1, M>>>(t, dx, dout, M);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < M && ok; i++) {
            float ub = xs[i] - 0.5f;
            int i0 = (int)floorf(ub);
            float a0 = w8(ub - i0);
            auto T = [&](int k, int ch) {
                k = k < 0 ? 0 : k >= N ? N - 1 : k;
                unsigned char c = ch == 0 ? px[k].x : ch == 1 ? px[k].y : ch == 2 ? px[k].z : px[k].w;
                return c / 255.0f;
            };
            float want[4], g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
            for (int ch = 0; ch < 4; ch++) {
                want[ch] = (1 - a0) * T(i0, ch) + a0 * T(i0 + 1, ch);
                if (!close(g[ch], want[ch])) ok = false;
            }
        }
        check(ok, "tex1d_uchar4_normalized_linear", "a filtered normalized value differs");
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
        cudaFree(dx);
        cudaFree(dout);
    }

    // ---- tex1Dfetch of int4 from linear memory: zero outside
    {
        const int N = 6;
        int4 v[N];
        for (int i = 0; i < N; i++) v[i] = make_int4(i, -i, i * 100, -7);
        int4 *dv, *dout;
        CUDA_OK("malloc", cudaMalloc(&dv, sizeof v));
        cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice);
        cudaMalloc(&dout, (N + 4) * sizeof(int4));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = dv;
        rd.res.linear.desc = cudaCreateChannelDesc<int4>();
        rd.res.linear.sizeInBytes = sizeof v;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        cudaTextureObject_t t;
        CUDA_OK("create_linear", cudaCreateTextureObject(&t, &rd, &td, NULL));
        fetch_int<<<1, N + 4>>>(t, dout, N + 4);
        int4 got[N + 4];
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < N + 4; i++) {
            int k = i - 2;
            int4 w = (k >= 0 && k < N) ? v[k] : make_int4(0, 0, 0, 0);
            if (got[i].x != w.x || got[i].y != w.y || got[i].z != w.z || got[i].w != w.w) ok = false;
        }
        check(ok, "tex1dfetch_linear_int4", "a fetched value differs");
        cudaResourceDesc back;
        CUDA_OK("get_res", cudaGetTextureObjectResourceDesc(&back, t));
        check(back.resType == cudaResourceTypeLinear && back.res.linear.devPtr == dv &&
                  back.res.linear.sizeInBytes == sizeof v,
              "texture_object_resource_desc", "resource description does not round-trip");
        cudaTextureDesc tback;
        CUDA_OK("get_tex", cudaGetTextureObjectTextureDesc(&tback, t));
        check(tback.filterMode == cudaFilterModePoint && tback.normalizedCoords == 0,
              "texture_object_texture_desc", "texture description does not round-trip");
        // misaligned base
        rd.res.linear.devPtr = (char *)dv + 16;
        rd.res.linear.sizeInBytes = sizeof v - 16;
        cudaTextureObject_t t2 = 0;
        cudaError_t e = cudaCreateTextureObject(&t2, &rd, &td, NULL);
        check(e == cudaErrorInvalidValue, "texture_misaligned_linear",
              "got %s, want cudaErrorInvalidValue", cudaGetErrorName(e));
        cudaGetLastError();
        CUDA_OK("destroy", cudaDestroyTextureObject(t));
        cudaFree(dv);
        cudaFree(dout);
    }

    // ---- short2 element reads from pitched memory
    {
        const int PW = 4, PH = 3;
        size_t pitch;
        short2 *dp;
        CUDA_OK("malloc_pitch", cudaMallocPitch(&dp, &pitch, PW * sizeof(short2), PH));
        short2 host[PH][PW];
        for (int y = 0; y < PH; y++)
            for (int x = 0; x < PW; x++) host[y][x] = make_short2((short)(x * 1000 - 1500), (short)(-y * 7));
        CUDA_OK("copy2d", cudaMemcpy2D(dp, pitch, host, sizeof host[0], sizeof host[0], PH,
                                       cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = dp;
        rd.res.pitch2D.desc = cudaCreateChannelDesc<short2>();
        rd.res.pitch2D.width = PW;
        rd.res.pitch2D.height = PH;
        rd.res.pitch2D.pitchInBytes = pitch;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        cudaTextureObject_t t;
        CUDA_OK("create_pitch2d", cudaCreateTextureObject(&t, &rd, &td, NULL));
        short2 *dout, got[PW * PH];
        cudaMalloc(&dout, sizeof got);
        fetch_short2<<<1, PW * PH>>>(t, dout, PW * PH);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < PW * PH; i++)
            if (got[i].x != host[i / 4][i % 4].x || got[i].y != host[i / 4][i % 4].y) ok = false;
        check(ok, "tex2d_pitch2d_short2", "an element read differs");
        cudaDestroyTextureObject(t);
        cudaFree(dp);
        cudaFree(dout);
    }

    // ---- 3D array with trilinear filtering
    {
        const int X = 4, Y = 3, Z = 5;
        std::vector<float> v(X * Y * Z);
        for (int i = 0; i < X * Y * Z; i++) v[i] = (float)((i * 13) % 29);
        cudaArray_t a;
        CUDA_OK("malloc3d", cudaMalloc3DArray(&a, &fd, make_cudaExtent(X, Y, Z)));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v.data(), X * sizeof(float), X, Y);
        p.dstArray = a;
        p.extent = make_cudaExtent(X, Y, Z);
        p.kind = cudaMemcpyHostToDevice;
        CUDA_OK("copy3d", cudaMemcpy3D(&p));
        cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, true, false);
        const int N = 20;
        float4 pts[N];
        for (int i = 0; i < N; i++)
            pts[i] = make_float4(-0.5f + i * 0.25f, 0.75f + (i % 3) * 0.5f, 0.125f * i, 0);
        float4 *dp;
        float *dout, got[N];
        cudaMalloc(&dp, sizeof pts);
        cudaMalloc(&dout, sizeof got);
        cudaMemcpy(dp, pts, sizeof pts, cudaMemcpyHostToDevice);
        sample3d<<<1, N>>>(t, dp, dout, N);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int i = 0; i < N && ok; i++) {
            float c[3] = {pts[i].x - 0.5f, pts[i].y - 0.5f, pts[i].z - 0.5f};
            int b[3], n[3] = {X, Y, Z};
            float a3[3];
            for (int d = 0; d < 3; d++) {
                b[d] = (int)floorf(c[d]);
                a3[d] = w8(c[d] - b[d]);
            }
            float want = 0;
            for (int k = 0; k < 8; k++) {
                int idx[3];
                float w = 1;
                for (int d = 0; d < 3; d++) {
                    int hi = (k >> d) & 1;
                    idx[d] = b[d] + hi;
                    idx[d] = idx[d] < 0 ? 0 : idx[d] >= n[d] ? n[d] - 1 : idx[d];
                    w *= hi ? a3[d] : 1 - a3[d];
                }
                want += w * v[(idx[2] * Y + idx[1]) * X + idx[0]];
            }
            if (!close(got[i], want)) {
                ok = false;
                check(false, "tex3d_trilinear", "point %d: got %g, want %g", i, got[i], want);
            }
        }
        if (ok) check(true, "tex3d_trilinear", "");
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
        cudaFree(dp);
        cudaFree(dout);
    }

    // ---- layered arrays: 2D (4 x 4 x 3 layers) and 1D (4 x 3 layers), point sampling
    {
        const int L = 3;
        std::vector<float> v2(4 * 4 * L), v1(4 * L);
        for (size_t i = 0; i < v2.size(); i++) v2[i] = (float)i;
        for (size_t i = 0; i < v1.size(); i++) v1[i] = 1000.0f + i;
        cudaArray_t a2, a1;
        CUDA_OK("malloc_layered", cudaMalloc3DArray(&a2, &fd, make_cudaExtent(4, 4, L), cudaArrayLayered));
        CUDA_OK("malloc_layered1", cudaMalloc3DArray(&a1, &fd, make_cudaExtent(4, 0, L), cudaArrayLayered));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v2.data(), 16, 4, 4);
        p.dstArray = a2;
        p.extent = make_cudaExtent(4, 4, L);
        p.kind = cudaMemcpyHostToDevice;
        CUDA_OK("copy_layered", cudaMemcpy3D(&p));
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v1.data(), 16, 4, 1);
        p.dstArray = a1;
        p.extent = make_cudaExtent(4, 1, L);
        p.kind = cudaMemcpyHostToDevice;
        CUDA_OK("copy_layered1", cudaMemcpy3D(&p));
        cudaTextureObject_t t2 = make_tex(a2, cudaAddressModeClamp, cudaAddressModeClamp, false, false);
        cudaTextureObject_t t1 = make_tex(a1, cudaAddressModeClamp, cudaAddressModeClamp, false, false);
        float *dout, got[2 * L];
        cudaMalloc(&dout, sizeof got);
        sample_layers<<<1, L>>>(t2, t1, dout);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int l = 0; l < L; l++)
            if (got[2 * l] != v2[l * 16 + 2 * 4 + 1] || got[2 * l + 1] != v1[l * 4 + 2]) ok = false;
        check(ok, "tex_layered_1d_2d", "layer 1: got %g %g, want %g %g", got[2], got[3],
              v2[16 + 9], v1[6]);
        cudaDestroyTextureObject(t2);
        cudaDestroyTextureObject(t1);
        cudaFreeArray(a2);
        cudaFreeArray(a1);
        cudaFree(dout);
    }

    // ---- cubemap: each face holds face * 100 + texel index (4 x 4 faces)
    {
        const int F = 4;
        std::vector<float> v(F * F * 6);
        for (int f = 0; f < 6; f++)
            for (int i = 0; i < F * F; i++) v[f * F * F + i] = f * 100.0f + i;
        cudaArray_t a;
        CUDA_OK("malloc_cube", cudaMalloc3DArray(&a, &fd, make_cudaExtent(F, F, 6), cudaArrayCubemap));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v.data(), F * sizeof(float), F, F);
        p.dstArray = a;
        p.extent = make_cudaExtent(F, F, 6);
        p.kind = cudaMemcpyHostToDevice;
        CUDA_OK("copy_cube", cudaMemcpy3D(&p));
        cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, false, true);
        // directions and the texel the guide's face table selects
        struct { float x, y, z; int face; float s, tt; } dirs[] = {
            {1, 0.3f, -0.6f, 0, 0.6f, -0.3f},  {-1, -0.6f, 0.1f, 1, 0.1f, 0.6f},
            {0.2f, 1, 0.7f, 2, 0.2f, 0.7f},    {-0.4f, -1, 0.3f, 3, -0.4f, -0.3f},
            {0.55f, -0.2f, 1, 4, 0.55f, 0.2f}, {0.3f, 0.45f, -1, 5, -0.3f, -0.45f},
        };
        const int N = 6;
        float4 d[N];
        float want[N];
        for (int i = 0; i < N; i++) {
            d[i] = make_float4(dirs[i].x, dirs[i].y, dirs[i].z, 0);
            float s = (dirs[i].s + 1) / 2 * F, tt = (dirs[i].tt + 1) / 2 * F;
            int x = (int)floorf(s), y = (int)floorf(tt);
            x = x > F - 1 ? F - 1 : x;
            y = y > F - 1 ? F - 1 : y;
            want[i] = dirs[i].face * 100.0f + y * F + x;
        }
        float4 *dd;
        float *dout, got[N];
        cudaMalloc(&dd, sizeof d);
        cudaMalloc(&dout, sizeof got);
        cudaMemcpy(dd, d, sizeof d, cudaMemcpyHostToDevice);
        sample_cube<<<1, N>>>(t, dd, dout, N);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        int bad = -1;
        for (int i = 0; i < N && bad < 0; i++)
            if (got[i] != want[i]) bad = i;
        check(bad < 0, "tex_cubemap_faces", "direction %d: got %g, want %g", bad,
              bad >= 0 ? got[bad] : 0, bad >= 0 ? want[bad] : 0);
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
        cudaFree(dd);
        cudaFree(dout);
    }

    // ---- tex2Dgather: the bilinear footprint counter-clockwise from the lower left
    {
        float2 px[3][4];
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++) px[y][x] = make_float2(y * 10.0f + x, -(y * 10.0f + x));
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
        cudaArray_t a;
        CUDA_OK("malloc_array", cudaMallocArray(&a, &cd, 4, 3, cudaArrayTextureGather));
        CUDA_OK("copy", cudaMemcpy2DToArray(a, 0, 0, px, sizeof px[0], sizeof px[0], 3,
                                            cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, false, false);
        float4 *dout, got[3];
        cudaMalloc(&dout, sizeof got);
        gather<<<1, 1>>>(t, dout);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        // (2, 1): i = 1, j = 0 -> (1,1) (2,1) (2,0) (1,0)
        bool ok = got[0].x == 11 && got[0].y == 12 && got[0].z == 2 && got[0].w == 1 &&
                  got[1].x == -11 && got[1].y == -12 && got[1].z == -2 && got[1].w == -1 &&
                  got[2].x == 0 && got[2].y == 0 && got[2].z == 0 && got[2].w == 0;
        check(ok, "tex2d_gather", "got (%g %g %g %g) (%g %g %g %g) (%g %g %g %g)", got[0].x,
              got[0].y, got[0].z, got[0].w, got[1].x, got[1].y, got[1].z, got[1].w, got[2].x,
              got[2].y, got[2].z, got[2].w);
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
        cudaFree(dout);
    }

    // ---- mipmaps: level l holds the value l + 1; tex2DLod with nearest and linear mip filtering
    {
        cudaMipmappedArray_t mm;
        const int LV = 3;
        CUDA_OK("malloc_mipmap", cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(8, 8, 0), LV));
        for (int l = 0; l < LV; l++) {
            cudaArray_t lev;
            CUDA_OK("level", cudaGetMipmappedArrayLevel(&lev, mm, l));
            int n = 8 >> l;
            std::vector<float> v(n * n, l + 1.0f);
            CUDA_OK("copy_level", cudaMemcpy2DToArray(lev, 0, 0, v.data(), n * 4, n * 4, n,
                                                      cudaMemcpyHostToDevice));
        }
        for (int mode = 0; mode < 2; mode++) {
            cudaResourceDesc rd;
            memset(&rd, 0, sizeof rd);
            rd.resType = cudaResourceTypeMipmappedArray;
            rd.res.mipmap.mipmap = mm;
            cudaTextureDesc td;
            memset(&td, 0, sizeof td);
            td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
            td.filterMode = cudaFilterModeLinear;
            td.normalizedCoords = 1;
            td.mipmapFilterMode = mode ? cudaFilterModeLinear : cudaFilterModePoint;
            td.maxMipmapLevelClamp = LV - 1;
            cudaTextureObject_t t;
            CUDA_OK("create_mipmap_tex", cudaCreateTextureObject(&t, &rd, &td, NULL));
            float *dout, got[6];
            cudaMalloc(&dout, sizeof got);
            sample_lod<<<1, 6>>>(t, dout);
            CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
            bool ok = true;
            const float lods[6] = {0.0f, 0.25f, 0.75f, 1.25f, 1.625f, 2.5f};
            for (int i = 0; i < 6; i++) {
                float lod = fminf(lods[i], LV - 1.0f), want;
                if (mode) {
                    int l0 = (int)floorf(lod);
                    float f = lod - l0;
                    want = l0 + 1 + (l0 + 1 < LV ? f : 0);
                } else {
                    want = floorf(lod + 0.5f) + 1;
                    if (want > LV) want = LV;
                }
                if (!close(got[i], want)) ok = false;
            }
            check(ok, mode ? "tex_mipmap_linear_lod" : "tex_mipmap_point_lod",
                  "got %g %g %g %g %g %g", got[0], got[1], got[2], got[3], got[4], got[5]);
            cudaDestroyTextureObject(t);
            cudaFree(dout);
        }
        cudaFreeMipmappedArray(mm);
    }

    // ---- half-float channels, linear filtering
    {
        __half hv[4] = {__float2half(1.0f), __float2half(3.0f), __float2half(-2.0f), __float2half(0.5f)};
        cudaChannelFormatDesc cd = cudaCreateChannelDescHalf();
        cudaArray_t a;
        CUDA_OK("malloc_half", cudaMallocArray(&a, &cd, 4, 0));
        CUDA_OK("copy", cudaMemcpy2DToArray(a, 0, 0, hv, sizeof hv, sizeof hv, 1,
                                            cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, true, false);
        float *dout, got[8];
        cudaMalloc(&dout, sizeof got);
        sample_half<<<1, 8>>>(t, dout);
        CUDA_OK("copy_back", cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        float hf[4] = {1, 3, -2, 0.5f};
        bool ok = true;
        for (int i = 0; i < 8; i++) {
            float ub = i * 0.5f + 0.25f - 0.5f;
            int i0 = (int)floorf(ub);
            float a0 = w8(ub - i0);
            auto T = [&](int k) { return hf[k < 0 ? 0 : k > 3 ? 3 : k]; };
            if (!close(got[i], (1 - a0) * T(i0) + a0 * T(i0 + 1))) ok = false;
        }
        check(ok, "tex1d_half_linear", "a filtered half value differs");
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
        cudaFree(dout);
    }

    // ---- creation errors
    {
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        // What CUDA 13's runtime answers on a GPU (an H100 with the CUDA 13.0 runtime): an
        // array made without cudaArraySurfaceLoadStore still becomes a surface object (the
        // flag is documented for surface references, which CUDA 12 removed); a missing texture
        // description is cudaErrorInvalidResourceHandle; destroying a handle that is no object
        // is not checked.
        cudaSurfaceObject_t s = 0;
        cudaError_t e = cudaCreateSurfaceObject(&s, &rd);  // arr lacks cudaArraySurfaceLoadStore
        check(e == cudaSuccess && s != 0, "surface_without_load_store_flag", "got %s",
              cudaGetErrorName(e));
        if (e == cudaSuccess)
            CUDA_OK("destroy_surface", cudaDestroySurfaceObject(s));
        cudaGetLastError();
        cudaTextureObject_t t;
        e = cudaCreateTextureObject(&t, &rd, NULL, NULL);
        check(e == cudaErrorInvalidResourceHandle, "texture_needs_texture_desc", "got %s",
              cudaGetErrorName(e));
        cudaGetLastError();
        e = cudaDestroyTextureObject(12345);
        check(e == cudaSuccess, "destroy_unknown_texture", "got %s", cudaGetErrorName(e));
        cudaGetLastError();
    }
    CUDA_OK("free_array", cudaFreeArray(arr));
    CUDA_OK("sync", cudaDeviceSynchronize());
    return check_finish();
}
