// Test kernels for tests/unit/test_emu_features.c: mma.sync with the ISA's fragment layouts,
// ldmatrix/stmatrix/movmatrix. Regenerate with
//   nvcc -ptx -arch=sm_80 mma.cu -o ../mma_sm80.ptx
//   nvcc -ptx -arch=sm_90 mma.cu -o ../mma_sm90.ptx   (stmatrix needs sm_90)
#include <cstdint>

// D(16x8, f32) = A(16x16, f16, row-major) * B(16x8, f16; given as B^T row-major) + C
extern "C" __global__ void mma_f16(float *d, const uint16_t *a, const uint16_t *bt, const float *c)
{
    const unsigned N = 8, K = 16;
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane % 4;
    unsigned af[4], bf[2];
    float cf[4], df[4];
    for (unsigned i = 0; i < 8; i += 2) {
        unsigned row = (i % 4 < 2) ? g : g + 8, col = t * 2 + (i & 1) + (i < 4 ? 0 : 8);
        af[i / 2] = *(const unsigned *)(a + row * K + col);
    }
    for (unsigned i = 0; i < 4; i += 2) {
        unsigned row = t * 2 + (i & 1) + (i < 2 ? 0 : 8), col = g;
        bf[i / 2] = *(const unsigned *)(bt + col * K + row);
    }
    for (unsigned i = 0; i < 4; i++) cf[i] = c[((i < 2) ? g : g + 8) * N + t * 2 + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3])
                 : "r"(af[0]), "r"(af[1]), "r"(af[2]), "r"(af[3]), "r"(bf[0]), "r"(bf[1]),
                   "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
    for (unsigned i = 0; i < 4; i++) d[((i < 2) ? g : g + 8) * N + t * 2 + (i & 1)] = df[i];
}

// the same product with fragments from shared memory through ldmatrix (A: x4, B: x2)
extern "C" __global__ void mma_ldmatrix(float *d, const uint16_t *a, const uint16_t *bt)
{
    __shared__ __align__(16) uint16_t sa[16 * 16], sb[8 * 16];
    unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < 256; i += 32) sa[i] = a[i];
    for (unsigned i = lane; i < 128; i += 32) sb[i] = bt[i];
    __syncwarp();
    unsigned af[4], bf[2];
    // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
    unsigned arow = lane % 16, acol = (lane / 16) * 8;
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[arow * 16 + acol]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(af[0]), "=r"(af[1]), "=r"(af[2]), "=r"(af[3]) : "r"(aaddr));
    // B^T rows are columns of B: matrices (n 0-7, k 0-7), (n 0-7, k 8-15)
    unsigned brow = lane % 8, bcol = ((lane / 8) % 2) * 8;
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[brow * 16 + bcol]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(bf[0]), "=r"(bf[1]) : "r"(baddr));
    float df[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(df[0]), "+f"(df[1]), "+f"(df[2]), "+f"(df[3])
                 : "r"(af[0]), "r"(af[1]), "r"(af[2]), "r"(af[3]), "r"(bf[0]), "r"(bf[1]));
    unsigned g = lane >> 2, t = lane % 4;
    for (unsigned i = 0; i < 4; i++) d[((i < 2) ? g : g + 8) * 8 + t * 2 + (i & 1)] = df[i];
}

// ldmatrix .trans and movmatrix: out[lane*2+h] gets each lane's register halves
extern "C" __global__ void trans_moves(uint32_t *out, const uint16_t *m)
{
    __shared__ __align__(16) uint16_t s[64];
    unsigned lane = threadIdx.x;
    s[lane] = m[lane];
    s[lane + 32] = m[lane + 32];
    __syncwarp();
    unsigned r, x;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(lane % 8) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(x) : "r"(r));
    out[lane * 2] = r;
    out[lane * 2 + 1] = x;
}

// tf32 m16n8k8, s8 m16n8k32 and f64 m8n8k4, fragments built as the ISA lays them out
extern "C" __global__ void mma_other(float *dt, const float *at, const float *bt,
                                     int *di, const int8_t *ai, const int8_t *bi,
                                     double *dd, const double *ad, const double *bd)
{
    unsigned lane = threadIdx.x, g = lane >> 2, t = lane % 4;
    unsigned a[4], b[2];
    float f[4] = {1, 1, 1, 1};
    for (unsigned i = 0; i < 4; i++) a[i] = __float_as_uint(at[(g + 8 * (i & 1)) * 8 + t + 4 * (i >> 1)]);
    for (unsigned i = 0; i < 2; i++) b[i] = __float_as_uint(bt[g * 8 + t + 4 * i]);  // B^T row-major
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (unsigned i = 0; i < 4; i++) dt[((i < 2) ? g : g + 8) * 8 + t * 2 + (i & 1)] = f[i];

    unsigned ia[4], ib[2];
    int acc[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < 4; i++) {
        unsigned v = 0;
        for (unsigned j = 0; j < 4; j++) {
            unsigned e = i * 4 + j, row = g + 8 * ((e >> 2) & 1), col = t * 4 + (e & 3) + 16 * (e >> 3);
            v |= (unsigned)(uint8_t)ai[row * 32 + col] << (8 * j);
        }
        ia[i] = v;
    }
    for (unsigned i = 0; i < 2; i++) {
        unsigned v = 0;
        for (unsigned j = 0; j < 4; j++) {
            unsigned e = i * 4 + j, row = t * 4 + (e & 3) + 16 * (e >> 2), col = g;
            v |= (unsigned)(uint8_t)bi[col * 32 + row] << (8 * j);   // B^T row-major
        }
        ib[i] = v;
    }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
                 : "r"(ia[0]), "r"(ia[1]), "r"(ia[2]), "r"(ia[3]), "r"(ib[0]), "r"(ib[1]));
    for (unsigned i = 0; i < 4; i++) di[((i < 2) ? g : g + 8) * 8 + t * 2 + (i & 1)] = acc[i];

    double x = ad[g * 4 + t], y = bd[g * 4 + t], z0 = 0.5, z1 = -0.5;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(z0), "+d"(z1) : "d"(x), "d"(y));
    dd[g * 8 + t * 2] = z0;
    dd[g * 8 + t * 2 + 1] = z1;
}

// stmatrix (sm_90): lane l holds M[l/4][2(l%4)], M[l/4][2(l%4)+1] of each of four 8x8 b16
// matrices, M_i[r][c] = 0x1000 * i + 8r + c; lane 8i+r gives the address of row r of matrix i
extern "C" __global__ void st_matrix(uint16_t *out)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(16) uint16_t s[4 * 64];
    unsigned lane = threadIdx.x, r = lane / 4, c = (lane % 4) * 2, v[4];
    for (unsigned i = 0; i < 4; i++)
        v[i] = (0x1000u * i + 8 * r + c) | ((0x1000u * i + 8 * r + c + 1) << 16);
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(lane / 8) * 64 + (lane % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                 :: "r"(addr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]));
    __syncwarp();
    for (unsigned i = lane; i < 256; i += 32) out[i] = s[i];
#endif
}
