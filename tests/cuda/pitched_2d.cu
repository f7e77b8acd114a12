// pitched_2d.cu: a pitched 2D image (cudaMallocPitch), copied in and out with cudaMemcpy2D
// (whole and a sub-rectangle), filled with cudaMemset2D, processed by a kernel that walks rows
// by the pitch, and the pitch checks of the copy.
#include "check.cuh"

#include <vector>

__global__ void invert(unsigned char *img, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        unsigned char *row = img + y * pitch;
        row[x] = (unsigned char)(255 - row[x]);
    }
}

__global__ void row_sums(const float *m, size_t pitch, int w, int h, float *sums)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h)
        return;
    const float *row = (const float *)((const char *)m + y * pitch);
    float s = 0;
    for (int x = 0; x < w; x++)
        s += row[x];
    sums[y] = s;
}

int main()
{
    const int w = 75, h = 33;
    std::vector<unsigned char> img(w * h), back(w * h);
    for (int i = 0; i < w * h; i++)
        img[i] = (unsigned char)(i * 7);
    unsigned char *d;
    size_t pitch = 0;
    CUDA_OK("malloc_pitch", cudaMallocPitch((void **)&d, &pitch, w, h));
    check(pitch >= (size_t)w && pitch % 32 == 0, "pitch_aligned", "pitch %zu for width %d",
          pitch, w);
    CUDA_OK("copy_in", cudaMemcpy2D(d, pitch, img.data(), w, w, h, cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    invert<<<grid, block>>>(d, pitch, w, h);
    CUDA_OK("copy_out", cudaMemcpy2D(back.data(), w, d, pitch, w, h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < w * h && ok; i++)
        ok = back[i] == (unsigned char)(255 - img[i]);
    check(ok, "pitched_kernel", "inverted image differs");

    // A 10x5 sub-rectangle at (20, 4) set to 9 with cudaMemset2D, read back as a block.
    CUDA_OK("memset2d", cudaMemset2D(d + 4 * pitch + 20, pitch, 9, 10, 5));
    std::vector<unsigned char> sub(10 * 5);
    CUDA_OK("sub_copy", cudaMemcpy2D(sub.data(), 10, d + 3 * pitch + 20, pitch, 10, 5,
                                     cudaMemcpyDeviceToHost));
    ok = true;
    for (int y = 0; y < 5 && ok; y++)
        for (int x = 0; x < 10 && ok; x++)
            ok = sub[y * 10 + x] == (y == 0 ? (unsigned char)(255 - img[3 * w + 20 + x]) : 9);
    check(ok, "memset2d_subrect", "sub-rectangle contents");

    // Floats, and an async device-to-device 2D copy into a second pitched buffer.
    std::vector<float> m(w * h);
    for (int i = 0; i < w * h; i++)
        m[i] = (float)(i % 11);
    float *dm, *dm2, *sums;
    size_t fp, fp2;
    CUDA_OK("float_pitch", cudaMallocPitch((void **)&dm, &fp, w * sizeof(float), h));
    CUDA_OK("float_pitch", cudaMallocPitch((void **)&dm2, &fp2, w * sizeof(float), h));
    CUDA_OK("float_pitch", cudaMalloc(&sums, h * sizeof(float)));
    CUDA_OK("float_copy", cudaMemcpy2D(dm, fp, m.data(), w * sizeof(float), w * sizeof(float), h,
                                       cudaMemcpyHostToDevice));
    CUDA_OK("float_copy", cudaMemcpy2DAsync(dm2, fp2, dm, fp, w * sizeof(float), h,
                                            cudaMemcpyDeviceToDevice, 0));
    row_sums<<<1, 64>>>(dm2, fp2, w, h, sums);
    std::vector<float> got(h);
    CUDA_OK("float_copy", cudaMemcpy(got.data(), sums, h * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int y = 0; y < h && ok; y++) {
        float s = 0;
        for (int x = 0; x < w; x++)
            s += m[y * w + x];
        ok = got[y] == s;
    }
    check(ok, "pitched_rows_float", "row sums differ");

    check(cudaMemcpy2D(back.data(), 10, d, pitch, 20, 2, cudaMemcpyDeviceToHost) ==
              cudaErrorInvalidPitchValue,
          "width_exceeds_pitch", "a width wider than the pitch must fail");
    cudaGetLastError();
    cudaFree(d);
    cudaFree(dm);
    cudaFree(dm2);
    cudaFree(sums);
    return check_finish();
}
