// warp_vote.cu: warp votes and masks: __ballot_sync, __any_sync, __all_sync, __activemask in a
// divergent branch, __popc of a ballot for stream compaction within a warp, and
// __match_any_sync grouping lanes by value.
// nvcc: -arch=sm_75
#include "check.cuh"

__global__ void votes(const int *in, unsigned *ballots, int *anys, int *alls, unsigned *active)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 100);
    int all = __all_sync(0xffffffffu, v > -1000);
    if (lane == 0) {
        ballots[warp] = b;
        anys[warp] = any;
        alls[warp] = all;
    }
    if (lane % 3 == 0) {
        unsigned a = __activemask();
        if (lane == 0)
            active[warp] = a;
    }
}

// Keeps the positive values of each warp, packed to the front of its 32-slot segment.
__global__ void compact(const int *in, int *out, int *counts)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    int v = in[threadIdx.x];
    bool keep = v > 0;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int pos = __popc(b & ((1u << lane) - 1));
    if (keep)
        out[warp * 32 + pos] = v;
    if (lane == 0)
        counts[warp] = __popc(b);
}

__global__ void match(const int *in, unsigned *masks)
{
    masks[threadIdx.x] = __match_any_sync(0xffffffffu, in[threadIdx.x] % 4);
}

int main()
{
    const int warps = 3, n = warps * 32;
    int in[n];
    for (int i = 0; i < n; i++)
        in[i] = (i % 5 == 0) ? -i : (i % 7) * (i / 32 == 2 ? 50 : 1);
    int *din, *dany, *dall, *dout, *dcount;
    unsigned *dball, *dact, *dmask;
    CUDA_OK("setup", cudaMalloc(&din, sizeof in));
    CUDA_OK("setup", cudaMalloc(&dball, warps * sizeof(unsigned)));
    CUDA_OK("setup", cudaMalloc(&dact, warps * sizeof(unsigned)));
    CUDA_OK("setup", cudaMalloc(&dany, warps * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dall, warps * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dout, n * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dcount, warps * sizeof(int)));
    CUDA_OK("setup", cudaMalloc(&dmask, n * sizeof(unsigned)));
    CUDA_OK("setup", cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    votes<<<1, n>>>(din, dball, dany, dall, dact);
    unsigned ball[warps], act[warps];
    int any[warps], all[warps];
    CUDA_OK("kernel", cudaMemcpy(ball, dball, sizeof ball, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(act, dact, sizeof act, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(any, dany, sizeof any, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(all, dall, sizeof all, cudaMemcpyDeviceToHost));
    bool bok = true, aok = true, lok = true;
    unsigned every_third = 0;
    for (int l = 0; l < 32; l += 3)
        every_third |= 1u << l;
    for (int w = 0; w < warps; w++) {
        unsigned eb = 0;
        int ea = 0;
        for (int l = 0; l < 32; l++) {
            eb |= (unsigned)(in[w * 32 + l] > 0) << l;
            ea |= in[w * 32 + l] > 100;
        }
        bok = bok && ball[w] == eb;
        aok = aok && any[w] == (ea != 0) && all[w] == 1;
        lok = lok && act[w] == every_third;
    }
    check(bok, "ballot", "ballot masks differ");
    check(aok, "any_all", "any/all votes differ");
    check(lok, "activemask_divergent", "active mask in a branch: %#x", act[0]);

    compact<<<1, n>>>(din, dout, dcount);
    int out[n], counts[warps];
    CUDA_OK("kernel", cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_OK("kernel", cudaMemcpy(counts, dcount, sizeof counts, cudaMemcpyDeviceToHost));
    bool cok = true;
    for (int w = 0; w < warps; w++) {
        int k = 0;
        for (int l = 0; l < 32; l++)
            if (in[w * 32 + l] > 0)
                cok = cok && out[w * 32 + k++] == in[w * 32 + l];
        cok = cok && counts[w] == k;
    }
    check(cok, "ballot_popc_compaction", "compacted values differ");

    match<<<1, 32>>>(din, dmask);
    unsigned masks[32];
    CUDA_OK("kernel", cudaMemcpy(masks, dmask, sizeof masks, cudaMemcpyDeviceToHost));
    bool mok = true;
    for (int l = 0; l < 32; l++) {
        unsigned e = 0;
        for (int k = 0; k < 32; k++)
            e |= (unsigned)(in[k] % 4 == in[l] % 4) << k;
        mok = mok && masks[l] == e;
    }
    check(mok, "match_any", "lane groups by value differ");
    cudaFree(din);
    cudaFree(dball);
    cudaFree(dact);
    cudaFree(dany);
    cudaFree(dall);
    cudaFree(dout);
    cudaFree(dcount);
    cudaFree(dmask);
    return check_finish();
}
