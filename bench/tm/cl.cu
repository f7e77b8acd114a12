// cl.cu: CL, a cloth-physics-like neighbour update (KILO TM §5: the distance-constraint solver
// of a spring-mass cloth, every constraint a parallel critical section): particles on a grid,
// one constraint per pair of grid neighbours, each thread one constraint for several rounds.
// A constraint reads both particles' positions and moves them towards each other's rest
// distance by the same integer correction with opposite signs, and counts itself on both.
// The result depends on the order, so the check is by invariants that any serial order keeps
// and a lost or torn update breaks: every coordinate's sum over the particles stays as it was
// (the corrections cancel), and each particle's count equals its number of constraints times
// the rounds. Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per particle, two
// per constraint taken in order), -DSYNC_GL.
#include "sync.cuh"

#include <vector>

enum { W = 24, H = 20, P = W * H, C = (W - 1) * H + W * (H - 1), ROUNDS = 2, THREADS = 128,
       REST = 64 };

struct Particle {
    int x, y, z;
    unsigned count;
};

__host__ __device__ inline void constraint_ends(unsigned c, unsigned *i, unsigned *j)
{
    if (c < (W - 1) * H) {   // horizontal
        unsigned row = c / (W - 1), col = c % (W - 1);
        *i = row * W + col;
        *j = *i + 1;
    } else {                 // vertical
        c -= (W - 1) * H;
        *i = c;
        *j = c + W;
    }
}

__device__ int correction(int d) { return (d - (d >= 0 ? REST : -REST)) / 4; }

__global__ void solve(Particle *p, unsigned *locks)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    unsigned i, j;
    constraint_ends(c, &i, &j);
    for (int r = 0; r < ROUNDS; r++) {
        critical(locks, i, j, [&] {
            int xi = ld(&p[i].x), yi = ld(&p[i].y), zi = ld(&p[i].z);
            int xj = ld(&p[j].x), yj = ld(&p[j].y), zj = ld(&p[j].z);
            int cx = correction(xj - xi), cy = correction(yj - yi), cz = correction(zj - zi);
            st(&p[i].x, xi + cx);
            st(&p[i].y, yi + cy);
            st(&p[i].z, zi + cz);
            st(&p[j].x, xj - cx);
            st(&p[j].y, yj - cy);
            st(&p[j].z, zj - cz);
            st(&p[i].count, ld(&p[i].count) + 1);
            st(&p[j].count, ld(&p[j].count) + 1);
        });
    }
}

int main()
{
    std::vector<Particle> p(P);
    long sx = 0, sy = 0, sz = 0;
    for (unsigned k = 0; k < P; k++) {
        p[k] = Particle{(int)(k % W) * REST + (int)(mix(k) % 40),
                        (int)(k / W) * REST + (int)(mix(k + P) % 40), (int)(mix(k + 2 * P) % 40),
                        0};
        sx += p[k].x;
        sy += p[k].y;
        sz += p[k].z;
    }
    Particle *d;
    CUDA_OK(cudaMalloc(&d, P * sizeof(Particle)));
    CUDA_OK(cudaMemcpy(d, p.data(), P * sizeof(Particle), cudaMemcpyHostToDevice));
    unsigned *locks = make_locks(P);
    solve<<<(C + THREADS - 1) / THREADS, THREADS>>>(d, locks);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(p.data(), d, P * sizeof(Particle), cudaMemcpyDeviceToHost));

    std::vector<unsigned> want(P, 0);
    for (unsigned c = 0; c < C; c++) {
        unsigned i, j;
        constraint_ends(c, &i, &j);
        want[i] += ROUNDS;
        want[j] += ROUNDS;
    }
    long gx = 0, gy = 0, gz = 0;
    unsigned bad = P;
    for (unsigned k = 0; k < P; k++) {
        gx += p[k].x;
        gy += p[k].y;
        gz += p[k].z;
        if (bad == P && p[k].count != want[k]) bad = k;
    }
    report(bad == P && gx == sx && gy == sy && gz == sz, "cl",
           "sums %ld %ld %ld, want %ld %ld %ld; particle %u counted %u, want %u", gx, gy, gz,
           sx, sy, sz, bad, bad < P ? p[bad].count : 0, bad < P ? want[bad] : 0);
    return bench_failures ? 1 : 0;
}
