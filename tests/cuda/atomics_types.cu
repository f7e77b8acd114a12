// atomics_types.cu: atomic operations on every type CUDA offers them for, each checked against
// the value the whole grid must reach whatever the order: add (int, unsigned, unsigned long
// long, float, double), sub, exch, min/max (signed, unsigned, 64-bit), and/or/xor, inc/dec
// with wrap-around, compare-and-swap (32 and 64 bits, used as a lock), and the old values
// returned (a ticket counter hands out every number once).
// nvcc: -arch=sm_80
#include "check.cuh"

#include <vector>

struct Acc {
    int i_add;
    unsigned u_add;
    unsigned long long ull_add;
    float f_add;
    double d_add;
    int i_sub;
    int i_min, i_max;
    unsigned u_min, u_max;
    long long ll_min, ll_max;
    unsigned long long ull_max;
    unsigned and_bits, or_bits, xor_bits;
    unsigned inc, dec;
    int exch;
    unsigned long long cas64;
    int lock;
    int guarded;
};

__global__ void hammer(Acc *a, int *tickets)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&a->i_add, t - 100);
    atomicAdd(&a->u_add, 3u);
    atomicAdd(&a->ull_add, 1ULL << 33);
    atomicAdd(&a->f_add, 0.5f);
    atomicAdd(&a->d_add, 0.25);
    atomicSub(&a->i_sub, 2);
    atomicMin(&a->i_min, 50 - t);
    atomicMax(&a->i_max, t * 3 - 7);
    atomicMin(&a->u_min, 1000u + (unsigned)t);
    atomicMax(&a->u_max, 0xf0000000u + (unsigned)t);
    atomicMin(&a->ll_min, -(long long)t << 35);
    atomicMax(&a->ll_max, (long long)t << 36);
    atomicMax(&a->ull_max, 0xffff000000000000ULL + (unsigned long long)t);
    atomicAnd(&a->and_bits, ~(1u << (t % 32)));
    atomicOr(&a->or_bits, 1u << (t % 20));
    atomicXor(&a->xor_bits, 1u << (t % 8));
    atomicInc(&a->inc, 9u);          // counts 0..9 and wraps
    atomicDec(&a->dec, 6u);          // counts down, wraps at 0 to 6
    atomicExch(&a->exch, 1);
    // 64-bit CAS loop: add t to the high half.
    unsigned long long old = a->cas64, assumed;
    do {
        assumed = old;
        old = atomicCAS(&a->cas64, assumed, assumed + ((unsigned long long)t << 32));
    } while (old != assumed);
    tickets[atomicAdd(&a->u_add, 0u) ? t : t] = 0;   // keeps u_add's reads in the mix
    int ticket = atomicAdd(&a->guarded, 0);
    (void)ticket;
}

__global__ void take_tickets(unsigned *counter, int *seen)
{
    unsigned mine = atomicAdd(counter, 1u);
    atomicAdd(&seen[mine], 1);
}

// One thread per block at a time through a spin lock built from atomicCAS / atomicExch.
__global__ void locked_increment(Acc *a)
{
    if (threadIdx.x == 0) {
        while (atomicCAS(&a->lock, 0, 1) != 0)
            ;
        __threadfence();
        a->guarded += blockIdx.x + 1;
        __threadfence();
        atomicExch(&a->lock, 0);
    }
}

int main()
{
    const int blocks = 6, threads = 64, n = blocks * threads;
    Acc h = {};
    h.i_min = 1 << 30;
    h.i_max = -(1 << 30);
    h.u_min = 0xffffffffu;
    h.ll_min = 0;
    h.ll_max = 0;
    h.and_bits = 0xffffffffu;
    h.dec = 0;
    Acc *d;
    int *tickets;
    CUDA_OK("setup", cudaMalloc(&d, sizeof(Acc)));
    CUDA_OK("setup", cudaMalloc(&tickets, n * sizeof(int)));
    CUDA_OK("setup", cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    hammer<<<blocks, threads>>>(d, tickets);
    Acc r;
    CUDA_OK("kernel", cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));

    long long i_add = 0;
    unsigned long long cas = 0;
    for (int t = 0; t < n; t++) {
        i_add += t - 100;
        cas += (unsigned long long)t << 32;
    }
    check(r.i_add == (int)i_add && r.u_add == 3u * n && r.ull_add == (unsigned long long)n << 33,
          "atomic_add_integer", "%d %u %llu", r.i_add, r.u_add, r.ull_add);
    check(r.f_add == 0.5f * n && r.d_add == 0.25 * n, "atomic_add_float_double", "%f %f",
          r.f_add, r.d_add);
    check(r.i_sub == -2 * n, "atomic_sub", "%d", r.i_sub);
    check(r.i_min == 50 - (n - 1) && r.i_max == (n - 1) * 3 - 7 && r.u_min == 1000u &&
              r.u_max == 0xf0000000u + (unsigned)(n - 1),
          "atomic_min_max_32", "%d %d %u %u", r.i_min, r.i_max, r.u_min, r.u_max);
    check(r.ll_min == -(long long)(n - 1) << 35 && r.ll_max == (long long)(n - 1) << 36 &&
              r.ull_max == 0xffff000000000000ULL + (unsigned long long)(n - 1),
          "atomic_min_max_64", "%lld %lld %llx", r.ll_min, r.ll_max, r.ull_max);
    unsigned xor_expect = 0;
    for (int t = 0; t < n; t++)
        xor_expect ^= 1u << (t % 8);
    check(r.and_bits == 0 && r.or_bits == 0xfffffu && r.xor_bits == xor_expect,
          "atomic_bitwise", "%#x %#x %#x", r.and_bits, r.or_bits, r.xor_bits);
    // inc: n increments modulo 10; dec from 0 with wrap at 6: n decrements modulo 7.
    check(r.inc == (unsigned)(n % 10) && r.dec == (unsigned)((7 - n % 7) % 7),
          "atomic_inc_dec_wrap", "inc %u dec %u", r.inc, r.dec);
    check(r.exch == 1 && r.cas64 == cas, "atomic_exch_cas64", "%d %llx", r.exch, r.cas64);

    unsigned *counter;
    int *seen;
    CUDA_OK("setup", cudaMalloc(&counter, sizeof(unsigned)));
    CUDA_OK("setup", cudaMalloc(&seen, n * sizeof(int)));
    CUDA_OK("setup", cudaMemset(counter, 0, sizeof(unsigned)));
    CUDA_OK("setup", cudaMemset(seen, 0, n * sizeof(int)));
    take_tickets<<<blocks, threads>>>(counter, seen);
    std::vector<int> hs(n);
    CUDA_OK("kernel", cudaMemcpy(hs.data(), seen, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool once = true;
    for (int i = 0; i < n; i++)
        once = once && hs[i] == 1;
    check(once, "atomic_old_values_unique", "each ticket must be handed out exactly once");

    locked_increment<<<16, 32>>>(d);
    CUDA_OK("kernel", cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
    check(r.guarded == 16 * 17 / 2 && r.lock == 0, "atomic_cas_lock", "guarded %d lock %d",
          r.guarded, r.lock);
    cudaFree(d);
    cudaFree(tickets);
    cudaFree(counter);
    cudaFree(seen);
    return check_finish();
}
