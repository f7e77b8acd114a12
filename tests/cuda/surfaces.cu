// surfaces.cu: surface objects: surf1D/2D/3D/2DLayered reads and writes (byte-addressed x),
// element sizes from 1 to 16 bytes, the zero and clamp boundary modes, surfaces and textures
// on the same array (a kernel writes through the surface, the next one samples the texture),
// and an out-of-bounds access in trap mode, which faults the kernel (sticky error).
#include "check.cuh"

#include <cstring>
#include <vector>

__global__ void invert2d(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w || y >= h) return;
    uchar4 v = surf2Dread<uchar4>(s, x * sizeof(uchar4), y);
    surf2Dwrite(make_uchar4(255 - v.x, 255 - v.y, 255 - v.z, v.w), s, x * sizeof(uchar4), y);
}

__global__ void fill1d(cudaSurfaceObject_t s, int n)
{
    int x = threadIdx.x;
    if (x < n) surf1Dwrite(make_float4(x, x * 2.0f, -x, 0.5f), s, x * sizeof(float4));
}

__global__ void read1d_modes(cudaSurfaceObject_t s, float4 *out, int n)
{
    int x = threadIdx.x;  // x in [0, n + 2): the last two are outside
    out[2 * x] = surf1Dread<float4>(s, x * sizeof(float4), cudaBoundaryModeZero);
    out[2 * x + 1] = surf1Dread<float4>(s, x * sizeof(float4), cudaBoundaryModeClamp);
}

__global__ void write_outside(cudaSurfaceObject_t s, int n)
{
    // stores outside a zero-mode surface are dropped; clamp-mode ones land on the edge
    surf1Dwrite(make_float4(-1, -1, -1, -1), s, (n + 3) * (int)sizeof(float4), cudaBoundaryModeZero);
    surf1Dwrite(make_float4(7, 7, 7, 7), s, -2 * (int)sizeof(float4), cudaBoundaryModeClamp);
}

__global__ void cube3d(cudaSurfaceObject_t s, int w, int h, int d)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    if (x < w && y < h && z < d) {
        short v = surf3Dread<short>(s, x * 2, y, z);
        surf3Dwrite((short)(v * 3 + z), s, x * 2, y, z);
    }
}

__global__ void layers(cudaSurfaceObject_t s, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    if (x < w && y < h) surf2DLayeredwrite((int)(l * 1000 + y * w + x), s, x * 4, y, l);
}

__global__ void read_tex2d(cudaTextureObject_t t, uchar4 *out, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) out[y * w + x] = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
}

__global__ void trap_read(cudaSurfaceObject_t s, int *out)
{
    out[0] = surf1Dread<int>(s, 1 << 20);  // default boundary mode: trap
}

int main()
{
    // ---- uchar4 2D surface, inverted in place, then read back through a texture
    const int W = 37, H = 5;
    std::vector<uchar4> img(W * H);
    for (int i = 0; i < W * H; i++) img[i] = make_uchar4(i % 256, (i * 7) % 256, (i * 13) % 256, 42);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t arr;
    CUDA_OK("malloc_array", cudaMallocArray(&arr, &cd, W, H, cudaArraySurfaceLoadStore));
    CUDA_OK("copy_in", cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * 4, W * 4, H,
                                           cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaSurfaceObject_t s;
    CUDA_OK("create_surface", cudaCreateSurfaceObject(&s, &rd));
    invert2d<<<dim3((W + 31) / 32, H), 32>>>(s, W, H);
    std::vector<uchar4> got(W * H);
    CUDA_OK("copy_out", cudaMemcpy2DFromArray(got.data(), W * 4, arr, 0, 0, W * 4, H,
                                              cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < W * H; i++)
        if (got[i].x != 255 - img[i].x || got[i].y != 255 - img[i].y ||
            got[i].z != 255 - img[i].z || got[i].w != 42)
            ok = false;
    check(ok, "surf2d_uchar4_read_write", "an inverted texel differs");
    {
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        cudaTextureObject_t t;
        CUDA_OK("create_texture", cudaCreateTextureObject(&t, &rd, &td, NULL));
        uchar4 *dout;
        cudaMalloc(&dout, W * H * sizeof(uchar4));
        read_tex2d<<<H, W>>>(t, dout, W, H);
        std::vector<uchar4> back(W * H);
        CUDA_OK("copy_back", cudaMemcpy(back.data(), dout, W * H * 4, cudaMemcpyDeviceToHost));
        ok = memcmp(back.data(), got.data(), W * H * 4) == 0;
        check(ok, "texture_sees_surface_writes", "the texture reads other texels");
        cudaDestroyTextureObject(t);
        cudaFree(dout);
    }
    cudaResourceDesc back;
    CUDA_OK("surface_desc", cudaGetSurfaceObjectResourceDesc(&back, s));
    check(back.resType == cudaResourceTypeArray && back.res.array.array == arr, "surface_resource_desc",
          "the description does not round-trip");
    CUDA_OK("destroy_surface", cudaDestroySurfaceObject(s));

    // ---- float4 1D surface: writes, then the zero and clamp boundary modes
    {
        const int N = 6;
        cudaChannelFormatDesc fd = cudaCreateChannelDesc<float4>();
        cudaArray_t a;
        CUDA_OK("malloc_1d", cudaMallocArray(&a, &fd, N, 0, cudaArraySurfaceLoadStore));
        rd.res.array.array = a;
        cudaSurfaceObject_t s1;
        CUDA_OK("create_1d", cudaCreateSurfaceObject(&s1, &rd));
        fill1d<<<1, N>>>(s1, N);
        write_outside<<<1, 1>>>(s1, N);
        float4 *dout, out[2 * (N + 2)];
        cudaMalloc(&dout, sizeof out);
        read1d_modes<<<1, N + 2>>>(s1, dout, N);
        CUDA_OK("copy_back", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        ok = true;
        for (int x = 0; x < N + 2; x++) {
            int cx = x < N ? x : N - 1;
            float4 want = cx == 0 ? make_float4(7, 7, 7, 7) : make_float4(cx, cx * 2.0f, -cx, 0.5f);
            float4 z = out[2 * x], c = out[2 * x + 1];
            float4 wz = x < N ? want : make_float4(0, 0, 0, 0);
            if (z.x != wz.x || z.y != wz.y || z.z != wz.z || z.w != wz.w) ok = false;
            if (c.x != want.x || c.y != want.y || c.z != want.z || c.w != want.w) ok = false;
        }
        check(ok, "surf1d_boundary_zero_clamp", "element 0: (%g %g %g %g), last zero-mode: (%g %g %g %g)",
              out[1].x, out[1].y, out[1].z, out[1].w, out[2 * (N + 1)].x, out[2 * (N + 1)].y,
              out[2 * (N + 1)].z, out[2 * (N + 1)].w);
        cudaDestroySurfaceObject(s1);
        cudaFreeArray(a);
        cudaFree(dout);
    }

    // ---- short 3D surface: read-modify-write of every element
    {
        const int X = 5, Y = 4, Z = 3;
        std::vector<short> v(X * Y * Z);
        for (int i = 0; i < X * Y * Z; i++) v[i] = (short)(i * 11 - 300);
        cudaChannelFormatDesc sd = cudaCreateChannelDesc<short>();
        cudaArray_t a;
        CUDA_OK("malloc_3d", cudaMalloc3DArray(&a, &sd, make_cudaExtent(X, Y, Z), cudaArraySurfaceLoadStore));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v.data(), X * 2, X, Y);
        p.dstArray = a;
        p.extent = make_cudaExtent(X, Y, Z);
        p.kind = cudaMemcpyHostToDevice;
        CUDA_OK("copy_3d", cudaMemcpy3D(&p));
        rd.res.array.array = a;
        cudaSurfaceObject_t s3;
        CUDA_OK("create_3d", cudaCreateSurfaceObject(&s3, &rd));
        cube3d<<<Z, dim3(X, Y)>>>(s3, X, Y, Z);
        std::vector<short> r(X * Y * Z);
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.dstPtr = make_cudaPitchedPtr(r.data(), X * 2, X, Y);
        p.extent = make_cudaExtent(X, Y, Z);
        p.kind = cudaMemcpyDeviceToHost;
        CUDA_OK("copy_3d_back", cudaMemcpy3D(&p));
        ok = true;
        for (int i = 0; i < X * Y * Z; i++)
            if (r[i] != (short)(v[i] * 3 + i / (X * Y))) ok = false;
        check(ok, "surf3d_short_rmw", "an element differs");
        cudaDestroySurfaceObject(s3);
        cudaFreeArray(a);
    }

    // ---- int 2D layered surface
    {
        const int X = 6, Y = 3, L = 4;
        cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
        cudaArray_t a;
        CUDA_OK("malloc_layered", cudaMalloc3DArray(&a, &id, make_cudaExtent(X, Y, L),
                                                    cudaArrayLayered | cudaArraySurfaceLoadStore));
        rd.res.array.array = a;
        cudaSurfaceObject_t sl;
        CUDA_OK("create_layered", cudaCreateSurfaceObject(&sl, &rd));
        layers<<<L, dim3(X, Y)>>>(sl, X, Y);
        std::vector<int> r(X * Y * L);
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.dstPtr = make_cudaPitchedPtr(r.data(), X * 4, X, Y);
        p.extent = make_cudaExtent(X, Y, L);
        p.kind = cudaMemcpyDeviceToHost;
        CUDA_OK("copy_layered_back", cudaMemcpy3D(&p));
        ok = true;
        for (int l = 0; l < L; l++)
            for (int i = 0; i < X * Y; i++)
                if (r[l * X * Y + i] != l * 1000 + i) ok = false;
        check(ok, "surf2d_layered_write", "an element differs");
        cudaDestroySurfaceObject(sl);
        cudaFreeArray(a);
    }

    // ---- trap mode: an access outside faults the kernel; the error is sticky
    {
        cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
        cudaArray_t a;
        CUDA_OK("malloc_trap", cudaMallocArray(&a, &id, 16, 0, cudaArraySurfaceLoadStore));
        rd.res.array.array = a;
        cudaSurfaceObject_t st;
        CUDA_OK("create_trap", cudaCreateSurfaceObject(&st, &rd));
        int *dout;
        CUDA_OK("malloc", cudaMalloc(&dout, 4));
        trap_read<<<1, 1>>>(st, dout);
        cudaError_t e = cudaDeviceSynchronize();
        check(e != cudaSuccess, "surf_trap_faults", "an out-of-bounds trap-mode read succeeded");
        cudaError_t e2 = cudaMemcpy(dout, dout, 4, cudaMemcpyDeviceToDevice);
        check(e2 == e, "surf_trap_sticky", "got %s after %s", cudaGetErrorName(e2), cudaGetErrorName(e));
    }
    return check_finish();
}
