/* test_conformance_sreg.c: PTX special registers against the PTX ISA (section 10).
 *
 * %tid/%ntid/%ctaid/%nctaid for 1D, 2D and 3D launches (every thread reports once, through an
 * atomic ticket so that the check does not depend on index arithmetic), %laneid, %warpid and
 * %nwarpid, %lanemask_eq/le/lt/ge/gt, %dynamic_smem_size, %smid/%nsmid, and %clock/%clock64/
 * %globaltimer never going backwards within a thread.
 */
#include "tests/unit/conformance_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM(x, y, z) ((emu_dim3){ (x), (y), (z) })

static void run_ok(const char *name, const char *ptx, emu_dim3 grid, emu_dim3 block, uint32_t dsmem, const uint64_t *params, int n)
{
    conf_result r;
    if (conf_run_k(name, ptx, grid, block, dsmem, params, n, &r) != CONF_OK) ck_abort_msg("%s", r.message);
}

static const struct { const char *name; emu_dim3 grid, block; } launches[] = {
    { "1D launch: grid (3), block (40)", { 3, 1, 1 }, { 40, 1, 1 } },
    { "2D launch: grid (2,3), block (8,4)", { 2, 3, 1 }, { 8, 4, 1 } },
    { "3D launch: grid (2,3,2), block (4,2,3)", { 2, 3, 2 }, { 4, 2, 3 } },
    { "3D launch: grid (1,1,3), block (1,1,64)", { 1, 1, 3 }, { 1, 1, 64 } },
};

START_TEST(thread_indices)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pctr, .param .u64 pout)\n"
        "{\n"
        "    .reg .b64 %ctr, %out, %off;\n"
        "    .reg .b32 %slot, %v<12>;\n"
        "    ld.param.u64 %ctr, [pctr];\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %v0, %tid.x;\n"
        "    mov.u32 %v1, %tid.y;\n"
        "    mov.u32 %v2, %tid.z;\n"
        "    mov.u32 %v3, %ntid.x;\n"
        "    mov.u32 %v4, %ntid.y;\n"
        "    mov.u32 %v5, %ntid.z;\n"
        "    mov.u32 %v6, %ctaid.x;\n"
        "    mov.u32 %v7, %ctaid.y;\n"
        "    mov.u32 %v8, %ctaid.z;\n"
        "    mov.u32 %v9, %nctaid.x;\n"
        "    mov.u32 %v10, %nctaid.y;\n"
        "    mov.u32 %v11, %nctaid.z;\n"
        "    atom.global.add.u32 %slot, [%ctr], 1;\n"
        "    mul.wide.u32 %off, %slot, 48;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.v4.u32 [%out], {%v0, %v1, %v2, %v3};\n"
        "    st.global.v4.u32 [%out+16], {%v4, %v5, %v6, %v7};\n"
        "    st.global.v4.u32 [%out+32], {%v8, %v9, %v10, %v11};\n"
        "    ret;\n"
        "}\n";
    emu_dim3 g = launches[_i].grid, b = launches[_i].block;
    uint32_t n = g.x * g.y * g.z * b.x * b.y * b.z;
    uint32_t *ctr = conf_dev_alloc(4), *out = conf_dev_alloc(48 * (size_t)n);
    uint64_t params[2] = { conf_dev_addr(ctr), conf_dev_addr(out) };
    run_ok(launches[_i].name, ptx, g, b, 0, params, 2);
    ck_assert_msg(*ctr == n, "%s: %u threads reported, want %u", launches[_i].name, *ctr, n);
    uint8_t *seen = calloc(n, 1);
    for (uint32_t s = 0; s < n; s++) {
        const uint32_t *v = &out[12 * s];
        ck_assert_msg(v[3] == b.x && v[4] == b.y && v[5] == b.z, "%s: %%ntid = (%u,%u,%u), want (%u,%u,%u)", launches[_i].name,
                      v[3], v[4], v[5], b.x, b.y, b.z);
        ck_assert_msg(v[9] == g.x && v[10] == g.y && v[11] == g.z, "%s: %%nctaid = (%u,%u,%u), want (%u,%u,%u)", launches[_i].name,
                      v[9], v[10], v[11], g.x, g.y, g.z);
        ck_assert_msg(v[0] < b.x && v[1] < b.y && v[2] < b.z && v[6] < g.x && v[7] < g.y && v[8] < g.z,
                      "%s: %%tid (%u,%u,%u) or %%ctaid (%u,%u,%u) out of range", launches[_i].name, v[0], v[1], v[2], v[6], v[7], v[8]);
        uint32_t lin = ((v[8] * g.y + v[7]) * g.x + v[6]) * (b.x * b.y * b.z) + (v[2] * b.y + v[1]) * b.x + v[0];
        ck_assert_msg(!seen[lin], "%s: thread (%u,%u,%u) of block (%u,%u,%u) reported twice", launches[_i].name, v[0], v[1], v[2],
                      v[6], v[7], v[8]);
        seen[lin] = 1;
    }
    free(seen);
    conf_dev_free(ctr);
    conf_dev_free(out);
}
END_TEST

START_TEST(lane_registers)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .b64 %out, %off;\n"
        "    .reg .b32 %t, %v<8>;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u32 %v0, %laneid;\n"
        "    mov.u32 %v1, %warpid;\n"
        "    mov.u32 %v2, %nwarpid;\n"
        "    mov.u32 %v3, %lanemask_eq;\n"
        "    mov.u32 %v4, %lanemask_le;\n"
        "    mov.u32 %v5, %lanemask_lt;\n"
        "    mov.u32 %v6, %lanemask_ge;\n"
        "    mov.u32 %v7, %lanemask_gt;\n"
        "    mul.wide.u32 %off, %t, 32;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.v4.u32 [%out], {%v0, %v1, %v2, %v3};\n"
        "    st.global.v4.u32 [%out+16], {%v4, %v5, %v6, %v7};\n"
        "    ret;\n"
        "}\n";
    enum { N = 96 };
    uint32_t *out = conf_dev_alloc(32 * N);
    uint64_t params[1] = { conf_dev_addr(out) };
    run_ok("lane registers", ptx, DIM(1, 1, 1), DIM(N, 1, 1), 0, params, 1);
    uint32_t wid[3];
    for (uint32_t t = 0; t < N; t++) {
        const uint32_t *v = &out[8 * t];
        uint32_t lane = t % 32;
        uint32_t le = lane == 31 ? ~0u : (2u << lane) - 1, lt = (1u << lane) - 1;
        ck_assert_msg(v[0] == lane, "thread %u: %%laneid want %u got %u", t, lane, v[0]);
        ck_assert_msg(v[1] < v[2], "thread %u: %%warpid %u is not below %%nwarpid %u", t, v[1], v[2]);
        if (lane == 0) wid[t / 32] = v[1];
        ck_assert_msg(v[1] == wid[t / 32], "thread %u: %%warpid %u differs from lane 0's %u", t, v[1], wid[t / 32]);
        ck_assert_msg(v[3] == 1u << lane, "thread %u: %%lanemask_eq want 0x%x got 0x%x", t, 1u << lane, v[3]);
        ck_assert_msg(v[4] == le, "thread %u: %%lanemask_le want 0x%x got 0x%x", t, le, v[4]);
        ck_assert_msg(v[5] == lt, "thread %u: %%lanemask_lt want 0x%x got 0x%x", t, lt, v[5]);
        ck_assert_msg(v[6] == ~lt, "thread %u: %%lanemask_ge want 0x%x got 0x%x", t, ~lt, v[6]);
        ck_assert_msg(v[7] == ~le, "thread %u: %%lanemask_gt want 0x%x got 0x%x", t, ~le, v[7]);
    }
    ck_assert_msg(wid[0] != wid[1] && wid[1] != wid[2] && wid[0] != wid[2],
                  "the three resident warps of a CTA share a %%warpid: %u %u %u", wid[0], wid[1], wid[2]);
    conf_dev_free(out);
}
END_TEST

START_TEST(smem_and_sm)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .b64 %out, %off;\n"
        "    .reg .b32 %t, %n, %v<4>;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %ctaid.x;\n"
        "    mov.u32 %n, %ntid.x;\n"
        "    mad.lo.u32 %t, %t, %n, %tid.x;\n"
        "    mov.u32 %v0, %dynamic_smem_size;\n"
        "    mov.u32 %v1, %smid;\n"
        "    mov.u32 %v2, %nsmid;\n"
        "    mov.u32 %v3, %nctaid.x;\n"
        "    mul.wide.u32 %off, %t, 16;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.v4.u32 [%out], {%v0, %v1, %v2, %v3};\n"
        "    ret;\n"
        "}\n";
    enum { N = 4 * 32 };
    uint32_t *out = conf_dev_alloc(16 * N);
    uint64_t params[1] = { conf_dev_addr(out) };
    run_ok("%dynamic_smem_size", ptx, DIM(4, 1, 1), DIM(32, 1, 1), 384, params, 1);
    for (int t = 0; t < N; t++) {
        const uint32_t *v = &out[4 * t];
        ck_assert_msg(v[0] == 384, "thread %d: %%dynamic_smem_size want 384 got %u", t, v[0]);
        ck_assert_msg(v[1] < v[2], "thread %d: %%smid %u is not below %%nsmid %u", t, v[1], v[2]);
        ck_assert_msg(v[3] == 4, "thread %d: %%nctaid.x want 4 got %u", t, v[3]);
    }
    conf_dev_free(out);
}
END_TEST

START_TEST(clocks)
{
    const char *ptx = CONF_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n"
        "{\n"
        "    .reg .b64 %out, %off, %c0, %c1, %g0, %g1;\n"
        "    .reg .b32 %t, %i, %x, %k0, %k1;\n"
        "    .reg .pred %p;\n"
        "    ld.param.u64 %out, [pout];\n"
        "    mov.u32 %t, %tid.x;\n"
        "    mov.u64 %c0, %clock64;\n"
        "    mov.u32 %k0, %clock;\n"
        "    mov.u64 %g0, %globaltimer;\n"
        "    mov.u32 %i, 0;\n"
        "    mov.u32 %x, %t;\n"
        "LOOP:\n"
        "    mad.lo.u32 %x, %x, 3, 1;\n"
        "    add.u32 %i, %i, 1;\n"
        "    setp.lt.u32 %p, %i, 50;\n"
        "    @%p bra LOOP;\n"
        "    mov.u64 %c1, %clock64;\n"
        "    mov.u32 %k1, %clock;\n"
        "    mov.u64 %g1, %globaltimer;\n"
        "    sub.u64 %c1, %c1, %c0;\n"
        "    sub.u32 %k1, %k1, %k0;\n"
        "    sub.u64 %g1, %g1, %g0;\n"
        "    mul.wide.u32 %off, %t, 32;\n"
        "    add.u64 %out, %out, %off;\n"
        "    st.global.u64 [%out], %c1;\n"
        "    st.global.u32 [%out+8], %k1;\n"
        "    st.global.u64 [%out+16], %g1;\n"
        "    st.global.u32 [%out+24], %x;\n"
        "    ret;\n"
        "}\n";
    uint8_t *out = conf_dev_alloc(32 * 32);
    uint64_t params[1] = { conf_dev_addr(out) };
    run_ok("%clock64", ptx, DIM(1, 1, 1), DIM(32, 1, 1), 0, params, 1);
    for (int t = 0; t < 32; t++) {
        int64_t dc, dg;
        int32_t dk;
        memcpy(&dc, out + 32 * t, 8);
        memcpy(&dk, out + 32 * t + 8, 4);
        memcpy(&dg, out + 32 * t + 16, 8);
        ck_assert_msg(dc > 0, "thread %d: %%clock64 did not advance over a 50-iteration loop (delta %" PRId64 ")", t, dc);
        ck_assert_msg(dk >= 0, "thread %d: %%clock went backwards (delta %d)", t, dk);
        ck_assert_msg(dg >= 0, "thread %d: %%globaltimer went backwards (delta %" PRId64 ")", t, dg);
    }
    conf_dev_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conformance_sreg");
    TCase *tc = tcase_create("special registers");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, thread_indices, 0, (int)CONF_N(launches));
    tcase_add_test(tc, lane_registers);
    tcase_add_test(tc, smem_and_sm);
    tcase_add_test(tc, clocks);
    suite_add_tcase(s, tc);
    return conf_main(s);
}
