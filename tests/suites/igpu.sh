#!/usr/bin/env bash
# igpu.sh: iGPU region formation through `ptxsim ptx FILE --regions`.
#   - the paper's worked example (Menon et al., ISCA 2012, Figs. 3-4), hand-written as PTX in
#     tests/ptx/igpu/fig3_matmul_accumulate.ptx: exactly one clobber antidependence (the load
#     of C at source line 4 to the store at line 7), one sparse cut, placed before the loop at
#     i = 0 (source line 5), with the 3 live-ins row, col and Cvalue (%r4 %r8 %f1), of which
#     Cvalue alone needs a preserving copy (Fig. 4); the loop gets a short boundary;
#   - --igpu-short=N changes the short sub-regions only, and bad values are refused (exit 2);
#   - every nvcc sample module of tests/ptx/frontend gets a report (exit 0).
# Prints "PASS igpu/NAME" or "FAIL igpu/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PTXSIM=$B/bin/ptxsim
FIG3=tests/ptx/igpu/fig3_matmul_accumulate.ptx

out=$("$PTXSIM" ptx "$FIG3" --regions 2>&1); rc=$?
expect() {   # NAME PATTERN: a line of the report matches PATTERN (grep -E)
    if [ "$rc" -eq 0 ] && grep -Eq -- "$2" <<<"$out"; then
        echo "PASS igpu/$1"
    else
        echo "FAIL igpu/$1: exit $rc, no line matching '$2' in: $out"
    fi
}
expect fig3_one_clobber '^kernel MatrixMultiplyAccumulate: [0-9]+ instructions, 1 clobber antidependence, 2 sparse boundaries'
expect fig3_clobber_is_C '^  clobber 1: load instr [0-9]+ \(line [0-9]+, source line 4: ld\.global\.f32\) -> store instr [0-9]+ \(line [0-9]+, source line 7: st\.global\.f32\); [0-9]+ candidate cut points; broken by boundary 2$'
expect fig3_cut_before_loop '^  boundary 2: sparse before instr [0-9]+ \(line [0-9]+, source line 5: mov\.u32\)$'
expect fig3_cut_reason '^    why: clobber antidependence, breaks clobber 1 at the least live state'
expect fig3_three_live_ins '^    live-ins: 3 \(3 x 32-bit\): %r4 %r8 %f1; memory-backed inputs live: [0-9]+$'
expect fig3_one_copy 'preserve \(live-in written in the region\): 1 %f1$'
expect fig3_loop_short_boundary '^    why: loop without a boundary$'

# a smaller short limit adds short boundaries only
out16=$("$PTXSIM" ptx "$FIG3" --regions --igpu-short=8 2>&1); rc16=$?
n32=$(grep -c '^  boundary .*: short' <<<"$out"); n8=$(grep -c '^  boundary .*: short' <<<"$out16")
s32=$(grep -c '^  boundary .*: sparse' <<<"$out"); s8=$(grep -c '^  boundary .*: sparse' <<<"$out16")
if [ "$rc16" -eq 0 ] && [ "$n8" -gt "$n32" ] && [ "$s8" -eq "$s32" ] && grep -q '(limit 8)' <<<"$out16"; then
    echo "PASS igpu/short_limit"
else
    echo "FAIL igpu/short_limit: exit $rc16, short boundaries $n8 at 8 vs $n32 at 32, sparse $s8 vs $s32"
fi
for bad in 0 -3 x 12y; do
    o=$("$PTXSIM" ptx "$FIG3" --regions "--igpu-short=$bad" 2>&1); r=$?
    if [ "$r" -eq 2 ] && grep -q 'igpu-short takes' <<<"$o"; then
        echo "PASS igpu/short_refused_$bad"
    else
        echo "FAIL igpu/short_refused_$bad: exit $r: $o"
    fi
done

fails=0
for f in tests/ptx/frontend/*.ptx; do
    o=$("$PTXSIM" ptx "$f" --regions 2>&1) && grep -q '^  boundary 1: sparse before instr 0 ' <<<"$o" ||
        { fails=$((fails + 1)); echo "  $f: $(head -c 300 <<<"$o")"; }
done
if [ "$fails" -eq 0 ]; then echo "PASS igpu/nvcc_samples"; else echo "FAIL igpu/nvcc_samples: $fails modules"; fi
