#!/usr/bin/env bash
# split_warp_barriers.sh: grid-wide synchronisation, where one lane of a warp spins on global
# memory while the others wait at bar.sync (the emulator splits such a warp and counts only the
# lanes that arrive), must be deterministic under GPUDet: tests/cuda/coop_grid_sync.cu run with
# --det=gpudet on host threads 1, 2, 4 and seeds 1, 2, 3 must print the same lines and the same
# GPUDet statistics (quanta, quantum ends, store buffers, BTA releases; host time aside) every
# time, and pass its own checks; without determinism it must pass on 2 and 4 host threads with
# seeds too. One line per check: "PASS split_warp_barriers/..." or "FAIL ...: why".
# Environment: B (build dir, default build), NVCC (default nvcc).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/split_warp_barriers
SRC=tests/cuda/coop_grid_sync.cu
mkdir -p "$LOGS" "$B/tests/cuda"
if [ ! -x "$PTXSIM" ]; then
    echo "FAIL split_warp_barriers: no ptxsim at $PTXSIM (set B=)"
    exit 1
fi
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
if ! EXE=$(cuda_test_build "$SRC" shared "$LOGS/build.log"); then
    echo "FAIL split_warp_barriers: nvcc failed; see $LOGS/build.log"
    exit 1
fi

# A run's signature: its sorted output and its statistics without the host's clock.
signature() {
    { LC_ALL=C sort "$1.out"
      awk 'NR > 1 { if ($NF ~ /^[0-9]+\.[0-9]+$/) $NF = ""; print }' "$1.stats"; } | md5sum |
        cut -c1-12
}

ref=
why=()
for t in 1 2 4; do
    for s in 1 2 3; do
        run=$LOGS/gpudet-t$t-s$s
        timeout 300 "$PTXSIM" run --det=gpudet --threads=$t --seed=$s --stats="$run.stats" \
            -- "$EXE" >"$run.out" 2>"$run.err"
        rc=$?
        if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$run.out" || ! grep -q '^PASS' "$run.out"; then
            why+=("threads $t seed $s: exit $rc, $(grep -m1 '^FAIL' "$run.out" || echo ok)")
            continue
        fi
        sig=$(signature "$run")
        [ -z "$ref" ] && ref=$sig
        [ "$sig" = "$ref" ] || why+=("threads $t seed $s: signature $sig, first run $ref")
    done
done
if [ ${#why[@]} -eq 0 ]; then
    echo "PASS split_warp_barriers/gpudet_same_everywhere"
else
    echo "FAIL split_warp_barriers/gpudet_same_everywhere: ${why[*]} (logs in $LOGS)"
fi

why=()
for t in 2 4; do
    for s in 0 1 2; do
        run=$LOGS/off-t$t-s$s
        timeout 300 "$PTXSIM" run --det=off --threads=$t --seed=$s -- "$EXE" \
            >"$run.out" 2>"$run.err"
        rc=$?
        if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$run.out" || ! grep -q '^PASS' "$run.out"; then
            why+=("threads $t seed $s: exit $rc, $(grep -m1 '^FAIL' "$run.out" || echo ok)")
        fi
    done
done
if [ ${#why[@]} -eq 0 ]; then
    echo "PASS split_warp_barriers/nondet_threads_and_seeds"
else
    echo "FAIL split_warp_barriers/nondet_threads_and_seeds: ${why[*]} (logs in $LOGS)"
fi
