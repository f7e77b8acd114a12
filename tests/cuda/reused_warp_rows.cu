// reused_warp_rows.cu: a warp reused for the next CTA of its slot starts as a fresh one: every
// register an instruction can read before its lane writes it reads zero, whatever the CTA
// that held the storage before left there (emulator/state/entry_rows.c zeroes only those rows).
// The kernel is PTX (loaded with the driver API) so that it reads such registers on purpose:
// a guarded definition read by every lane, a definition on one branch path only, a predicate
// set under a guard, an accumulator never initialised, a shuffle from lanes that exited before
// writing its source (in odd CTAs only, so that the even CTAs before them in the same storage
// leave values there) and from lanes that do not exist (a block of 48 threads), and a shuffle
// of a value written before the exit. 3000 blocks of 48 threads: far more blocks than the
// device holds at once, so storage is reused many times, by other host threads' pools under
// --threads=2,4. Checked against a CPU reference in which every unwritten register is zero
// (tests/suites/reused_rows.sh runs it over engines, threads and seeds). A second kernel reads
// its shared memory before writing it (st.shared, then a generic store): zero in every block
// (emulator/state/shared_writes.c skips the zeroing only for kernels that cannot write it).
// nvcc: -lcuda
// native: skip reads registers and shared memory before writing them on purpose: ptxsim gives a fresh CTA zeroes there, a GPU whatever the last CTA left (on an H200: 0 of 4 checks pass)
// checks: skip reads registers and shared memory before writing them on purpose (what a fresh CTA holds), which initcheck rightly reports
#include "drv_check.cuh"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static const char *ptx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry rows(.param .u64 out)
{
    .reg .b32 %r<24>;
    .reg .b64 %rd<4>;
    .reg .pred %p<8>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r20, %laneid;
    mad.lo.u32 %r3, %r2, 48, %r1;
    mul.wide.u32 %rd2, %r3, 28;
    add.s64 %rd3, %rd1, %rd2;
    // a guarded definition, read by every lane
    add.u32 %r5, %r1, %r2;
    rem.u32 %r6, %r5, 3;
    setp.eq.u32 %p1, %r6, 0;
    @%p1 mad.lo.u32 %r4, %r2, 1000, %r1;
    st.global.u32 [%rd3], %r4;
    // a definition on one path only
    and.b32 %r7, %r5, 1;
    setp.eq.u32 %p2, %r7, 1;
    @%p2 bra SKIP;
    add.u32 %r8, %r3, 77;
SKIP:
    st.global.u32 [%rd3+4], %r8;
    // a predicate set under a guard
    @%p1 setp.ne.u32 %p3, %r2, 0;
    selp.u32 %r9, 1, 2, %p3;
    st.global.u32 [%rd3+8], %r9;
    // an accumulator nobody initialises
    mov.u32 %r15, 0;
LOOP:
    add.u32 %r14, %r14, %r1;
    add.u32 %r15, %r15, 1;
    setp.lt.u32 %p6, %r15, 3;
    @%p6 bra LOOP;
    st.global.u32 [%rd3+24], %r14;
    // written by every lane before some of them exit
    mad.lo.u32 %r21, %r2, 5, %r1;
    add.u32 %r21, %r21, 1;
    // lanes 24-31 of odd blocks leave before writing %r10
    and.b32 %r16, %r2, 1;
    setp.ge.u32 %p4, %r20, 24;
    setp.eq.and.u32 %p4, %r16, 1, %p4;
    @%p4 exit;
    mad.lo.u32 %r10, %r2, 3, %r1;
    add.u32 %r10, %r10, 1;
    activemask.b32 %r11;
    shfl.sync.down.b32 %r12|%p5, %r10, 8, 31, %r11;
    st.global.u32 [%rd3+12], %r12;
    selp.u32 %r13, 1, 0, %p5;
    st.global.u32 [%rd3+16], %r13;
    shfl.sync.bfly.b32 %r17, %r21, 4, 31, %r11;
    st.global.u32 [%rd3+20], %r17;
    ret;
}
// shared memory read before this block writes it: zero in every block, however the storage
// was used before (through st.shared, or a generic store into the shared window)
.visible .entry smem(.param .u64 out, .param .u32 generic)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .reg .pred %p<2>;
    .shared .align 4 .b32 buf[48];
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u32 %r5, [generic];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mad.lo.u32 %r3, %r2, 48, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r6, buf;
    mad.lo.u32 %r6, %r1, 4, %r6;
    ld.shared.u32 %r4, [%r6];
    st.global.u32 [%rd3], %r4;
    add.u32 %r7, %r3, 1;
    setp.ne.u32 %p1, %r5, 0;
    @%p1 bra GENERIC;
    st.shared.u32 [%r6], %r7;
    ret;
GENERIC:
    cvt.u64.u32 %rd4, %r6;
    cvta.shared.u64 %rd5, %rd4;
    st.u32 [%rd5], %r7;
    ret;
}
)";

enum { THREADS = 48, BLOCKS = 3000, WORDS = 7 };
static const uint32_t SENTINEL = 0xdeadbeefu;

// What thread t of block c stores when every register it reads unwritten is zero.
static void reference(uint32_t c, uint32_t t, uint32_t w[WORDS])
{
    uint32_t lane = t % 32, warp = t / 32, lanes = warp == 0 ? 32 : THREADS - 32;
    uint32_t gtid = c * THREADS + t;
    bool p1 = (t + c) % 3 == 0;
    w[0] = p1 ? c * 1000 + t : 0;
    w[1] = (t + c) & 1 ? 0 : gtid + 77;
    bool p3 = p1 && c != 0;   // unset, a predicate reads false
    w[2] = p3 ? 1 : 2;
    w[6] = 3 * t;
    auto exits = [&](uint32_t l) { return l >= 24 && (c & 1); };
    if (exits(lane)) {
        w[3] = w[4] = w[5] = SENTINEL;
        return;
    }
    auto r10 = [&](uint32_t l) -> uint32_t {
        if (l >= lanes || exits(l)) return 0;   // never written in this block
        return c * 3 + warp * 32 + l + 1;
    };
    uint32_t src = lane + 8;
    bool valid = src <= 31;
    w[3] = valid ? r10(src) : r10(lane);
    w[4] = valid;
    uint32_t b = lane ^ 4;
    w[5] = b < lanes ? c * 5 + warp * 32 + b + 1 : 0;
}

int main()
{
    CU_OK("init", cuInit(0));
    CUdevice dev;
    CU_OK("device", cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU_OK("context", cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_OK("current", cuCtxSetCurrent(ctx));
    CUmodule mod;
    CU_OK("module", cuModuleLoadData(&mod, ptx));
    CUfunction k;
    CU_OK("function", cuModuleGetFunction(&k, mod, "rows"));
    size_t n = (size_t)BLOCKS * THREADS * WORDS;
    CUdeviceptr d;
    CU_OK("alloc", cuMemAlloc(&d, n * 4));
    std::vector<uint32_t> got(n), want(n);
    for (uint32_t c = 0; c < BLOCKS; c++)
        for (uint32_t t = 0; t < THREADS; t++)
            reference(c, t, &want[((size_t)c * THREADS + t) * WORDS]);
    // twice: the second launch starts in storage the first one's last blocks left
    for (int launch = 0; launch < 2; launch++) {
        CU_OK("fill", cuMemsetD32(d, SENTINEL, n));
        void *args[] = {&d};
        CU_OK("launch", cuLaunchKernel(k, BLOCKS, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
        CU_OK("copy", cuMemcpyDtoH(got.data(), d, n * 4));
        size_t bad = 0, first = n;
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i]) {
                if (!bad) first = i;
                bad++;
            }
        size_t th = first / WORDS;
        check(bad == 0, launch ? "reused_rows_second_launch" : "reused_rows",
              "%zu of %zu words differ; first: block %zu thread %zu word %zu: %#x, want %#x", bad,
              n, th / THREADS, th % THREADS, first % WORDS, bad ? got[first] : 0,
              bad ? want[first] : 0);
    }
    CUfunction ks;
    CU_OK("function", cuModuleGetFunction(&ks, mod, "smem"));
    std::vector<uint32_t> sh((size_t)BLOCKS * THREADS);
    for (int generic = 0; generic < 2; generic++) {
        CU_OK("fill", cuMemsetD32(d, SENTINEL, sh.size()));
        void *args[] = {&d, &generic};
        CU_OK("launch", cuLaunchKernel(ks, BLOCKS, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
        CU_OK("copy", cuMemcpyDtoH(sh.data(), d, sh.size() * 4));
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < sh.size(); i++)
            if (sh[i] != 0 && !bad++) first = i;
        check(bad == 0, generic ? "reused_shared_generic_store" : "reused_shared_store",
              "%zu of %zu threads read a non-zero word; first: block %zu thread %zu: %#x", bad,
              sh.size(), first / THREADS, first % THREADS, bad ? sh[first] : 0);
    }
    CU_OK("free", cuMemFree(d));
    return check_failures ? 1 : 0;
}
