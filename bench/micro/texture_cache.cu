// texture_cache.cu: texture fetches through the texture cache. A 4 KiB table of floats bound to
// a texture object (linear memory); every thread of 64 blocks fetches 16 entries of it with
// tex1Dfetch, so each SM's texture cache misses each 32-byte sector of the table once and hits
// from then on (ptxsim --timing --stats: tex_misses, tex_hits; the L1 sees none of it). Prints
// "fetched N" and checks the sums against the host's.
#include <cstdio>
#include <cstdlib>

__global__ void fetch(cudaTextureObject_t t, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (unsigned k = 0; k < 16; k++) s += tex1Dfetch<float>(t, (i + 37 * k) % 1024);
    out[i] = s;
}

int main()
{
    const unsigned n = 1024, threads = 64 * 128;
    float h[n], *d, *out;
    for (unsigned i = 0; i < n; i++) h[i] = (float)(i % 17);
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, threads * sizeof(float));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &res, &td, NULL);
    fetch<<<64, 128>>>(t, out);
    float *r = (float *)malloc(threads * sizeof(float));
    cudaMemcpy(r, out, threads * sizeof(float), cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < threads; i++) {
        float s = 0;
        for (unsigned k = 0; k < 16; k++) s += h[(i + 37 * k) % 1024];
        if (r[i] != s) {
            printf("FAIL fetch at %u: %f, want %f\n", i, r[i], s);
            return 1;
        }
    }
    printf("fetched %u\n", threads * 16);
    free(r);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
