// bh.cu: BH, Barnes-Hut tree building (KILO TM §5, after Burtscher and Pingali's iterative
// insertion): every thread inserts one body into a quadtree (2-D here); each level of descent
// and each node insertion is its own critical section, so most of them only read. A child slot
// holds 0 (empty), b+1 (body b) or -c (cell c). A thread that finds a body where its own goes
// makes a cell from its private pool, puts the other body in it and descends. The tree of a
// set of distinct points does not depend on the order of insertion, so the check compares the
// tree, slot by slot, with a serial CPU insertion of the same bodies.
// Built three ways (sync.cuh): -DSYNC_TM, -DSYNC_FGL (one lock per child slot), -DSYNC_GL.
#include "sync.cuh"

#include <set>
#include <utility>
#include <vector>

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS, BITS = 10, CELLS = 1 + N * BITS };

__host__ __device__ inline unsigned quadrant(int x, int y, int depth)
{
    int bit = BITS - 1 - depth;
    return ((x >> bit) & 1) | (((y >> bit) & 1) << 1);
}

enum { DONE, SPLIT, DESCEND };

__global__ void build(int *tree, const int *bx, const int *by, unsigned *locks)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = bx[t], y = by[t], cell = 0, depth = 0, used = 0;
    for (;;) {
        unsigned slot = cell * 4 + quadrant(x, y, depth);
        int fresh = 1 + t * BITS + used, child = 0, action = DONE;
        critical(locks, slot, slot, [&] {
            child = ld(&tree[slot]);
            if (child == 0) {
                st(&tree[slot], t + 1);
                action = DONE;
            } else if (child > 0) {
                int other = child - 1;
                st(&tree[fresh * 4 + quadrant(bx[other], by[other], depth + 1)], child);
                st(&tree[slot], -fresh);
                action = SPLIT;
            } else {
                action = DESCEND;
            }
        });
        if (action == DONE) break;
        cell = action == SPLIT ? fresh : -child;
        used += action == SPLIT;
        depth++;
    }
}

// Slot-by-slot equality of two trees whose cells are numbered differently; the first
// difference's depth, or -1.
static int differ(const std::vector<int> &a, int ca, const std::vector<int> &b, int cb, int depth)
{
    if (depth > BITS) return depth;
    for (int q = 0; q < 4; q++) {
        int x = a[ca * 4 + q], y = b[cb * 4 + q];
        if ((x > 0 || y > 0 || (x == 0) != (y == 0)) && x != y) return depth;
        if (x < 0 && y < 0) {
            int d = differ(a, -x, b, -y, depth + 1);
            if (d >= 0) return d;
        }
    }
    return -1;
}

int main()
{
    std::vector<int> bx(N), by(N);
    std::set<std::pair<int, int>> seen;
    for (unsigned i = 0, k = 0; i < N; k++) {
        // bodies crowd the lower-left quarter, as a galaxy's centre does
        int x = (int)(mix(k) % (1u << BITS)), y = (int)(mix(k + 77777) % (1u << BITS));
        if (k % 2) x >>= 2, y >>= 2;
        if (seen.insert({x, y}).second) bx[i] = x, by[i++] = y;
    }
    int *dt, *dx, *dy;
    CUDA_OK(cudaMalloc(&dt, CELLS * 4 * sizeof(int)));
    CUDA_OK(cudaMemset(dt, 0, CELLS * 4 * sizeof(int)));
    CUDA_OK(cudaMalloc(&dx, N * sizeof(int)));
    CUDA_OK(cudaMalloc(&dy, N * sizeof(int)));
    CUDA_OK(cudaMemcpy(dx, bx.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dy, by.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    unsigned *locks = make_locks(CELLS * 4);
    build<<<BLOCKS, THREADS>>>(dt, dx, dy, locks);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> got(CELLS * 4);
    CUDA_OK(cudaMemcpy(got.data(), dt, CELLS * 4 * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> want(CELLS * 4, 0);
    int cells = 1;
    for (int t = 0; t < N; t++) {
        int cell = 0, depth = 0;
        for (;;) {
            int slot = cell * 4 + (int)quadrant(bx[t], by[t], depth), child = want[slot];
            if (child == 0) {
                want[slot] = t + 1;
                break;
            }
            if (child > 0) {
                int fresh = cells++, other = child - 1;
                want[fresh * 4 + quadrant(bx[other], by[other], depth + 1)] = child;
                want[slot] = -fresh;
            }
            cell = -want[slot];
            depth++;
        }
    }
    int d = differ(got, 0, want, 0, 0);
    report(d < 0, "bh", "the tree differs from the CPU insertion at depth %d", d);
    return bench_failures ? 1 : 0;
}
