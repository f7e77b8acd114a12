// pitched_3d.cu: a 3D volume from cudaMalloc3D, filled by cudaMemcpy3D from a host array
// (make_cudaPitchedPtr / make_cudaExtent), processed by a 3D kernel, cleared in part by
// cudaMemset3D, and copied back whole and as a sub-box (positions and extents).
#include "check.cuh"

#include <vector>

__global__ void stencil_z(cudaPitchedPtr v, int nx, int ny, int nz, int *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    size_t slice = v.pitch * ny;
    const char *base = (const char *)v.ptr;
    int c = *(const int *)(base + z * slice + y * v.pitch + x * sizeof(int));
    int up = z + 1 < nz ? *(const int *)(base + (z + 1) * slice + y * v.pitch + x * sizeof(int)) : 0;
    out[(z * ny + y) * nx + x] = c + up;
}

int main()
{
    const int nx = 20, ny = 6, nz = 5;
    std::vector<int> h(nx * ny * nz), out(nx * ny * nz);
    for (int i = 0; i < nx * ny * nz; i++)
        h[i] = i;
    cudaExtent ext = make_cudaExtent(nx * sizeof(int), ny, nz);
    cudaPitchedPtr v;
    CUDA_OK("malloc3d", cudaMalloc3D(&v, ext));
    check(v.pitch >= nx * sizeof(int) && v.xsize == nx * sizeof(int) && v.ysize == (size_t)ny,
          "malloc3d_shape", "pitch %zu xsize %zu ysize %zu", v.pitch, v.xsize, v.ysize);

    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(h.data(), nx * sizeof(int), nx, ny);
    p.dstPtr = v;
    p.extent = ext;
    p.kind = cudaMemcpyHostToDevice;
    CUDA_OK("copy3d_in", cudaMemcpy3D(&p));
    int *d_out;
    CUDA_OK("setup", cudaMalloc(&d_out, h.size() * sizeof(int)));
    stencil_z<<<dim3(1, 1, nz), dim3(32, 8)>>>(v, nx, ny, nz, d_out);
    CUDA_OK("kernel", cudaMemcpy(out.data(), d_out, out.size() * sizeof(int),
                                 cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int z = 0; z < nz && ok; z++)
        for (int i = 0; i < nx * ny && ok; i++) {
            int c = h[z * nx * ny + i], up = z + 1 < nz ? h[(z + 1) * nx * ny + i] : 0;
            ok = out[z * nx * ny + i] == c + up;
        }
    check(ok, "kernel_3d_pitched", "stencil result differs");

    // Clear x in [0, 4) ints, y in [0, 2) of slices 0..4 with cudaMemset3D, then read all back.
    cudaPitchedPtr corner = v;
    CUDA_OK("memset3d", cudaMemset3D(corner, 0, make_cudaExtent(4 * sizeof(int), 2, nz)));
    std::vector<int> back(h.size(), -1);
    cudaMemcpy3DParms q = {0};
    q.srcPtr = v;
    q.dstPtr = make_cudaPitchedPtr(back.data(), nx * sizeof(int), nx, ny);
    q.extent = ext;
    q.kind = cudaMemcpyDeviceToHost;
    CUDA_OK("copy3d_out", cudaMemcpy3D(&q));
    ok = true;
    for (int z = 0; z < nz && ok; z++)
        for (int y = 0; y < ny && ok; y++)
            for (int x = 0; x < nx && ok; x++) {
                int i = (z * ny + y) * nx + x;
                ok = back[i] == (x < 4 && y < 2 ? 0 : h[i]);
            }
    check(ok, "memset3d_box", "cleared box or the rest differs");

    // A sub-box: 3 x 2 x 2 elements from (5, 1, 2) into a dense 3x2x2 host buffer.
    int box[2][2][3];
    cudaMemcpy3DParms r = {0};
    r.srcPtr = v;
    r.srcPos = make_cudaPos(5 * sizeof(int), 1, 2);
    r.dstPtr = make_cudaPitchedPtr(box, 3 * sizeof(int), 3, 2);
    r.extent = make_cudaExtent(3 * sizeof(int), 2, 2);
    r.kind = cudaMemcpyDeviceToHost;
    CUDA_OK("subbox", cudaMemcpy3DAsync(&r, 0));
    CUDA_OK("subbox", cudaStreamSynchronize(0));
    ok = true;
    for (int z = 0; z < 2 && ok; z++)
        for (int y = 0; y < 2 && ok; y++)
            for (int x = 0; x < 3 && ok; x++)
                ok = box[z][y][x] == h[((2 + z) * ny + 1 + y) * nx + 5 + x];
    check(ok, "copy3d_subbox", "sub-box contents differ");

    // The device side must fit: a copy one slice too deep fails.
    q.extent = make_cudaExtent(nx * sizeof(int), ny, nz + 1);
    std::vector<int> big((nz + 1) * nx * ny);
    q.dstPtr = make_cudaPitchedPtr(big.data(), nx * sizeof(int), nx, ny);
    check(cudaMemcpy3D(&q) == cudaErrorInvalidValue, "copy3d_bounds",
          "a copy past the end of the volume must fail");
    cudaGetLastError();
    cudaFree(v.ptr);
    cudaFree(d_out);
    return check_finish();
}
