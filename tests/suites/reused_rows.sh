#!/usr/bin/env bash
# reused_rows.sh: a warp reused for the next CTA of its storage slot zeroes only the register
# rows an instruction may read before their lane writes them (emulator/state/entry_rows.c).
# tests/cuda/reused_warp_rows.cu reads such registers on purpose (guarded and one-path
# definitions, an uninitialised accumulator, shuffles from exited and missing lanes) and checks
# every word against a CPU reference in which unwritten registers are zero: the fully-zeroed
# warp. Here it runs under every engine (interp, jit, auto, and --engine=compare of the block
# interpreter and of the JIT against the step interpreter), over host threads 1, 2, 4 and
# several seeds, with and without --det=gpudet: which pool a block's storage came from must
# never show. Prints "PASS reused_rows/..." or "FAIL reused_rows/...: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
case $B in /*) W=$B/test-logs/reused_rows ;; *) W=$PWD/$B/test-logs/reused_rows ;; esac
rm -rf "$W"
mkdir -p "$W"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

exe=$(cuda_test_build tests/cuda/reused_warp_rows.cu shared "$W/build.log") ||
    { echo "FAIL reused_rows/build: nvcc failed (see $W/build.log)"; exit 0; }

for engine in interp jit auto compare compare-jit; do
    case $engine in
    compare) opts=(--engine=compare) ;;
    compare-jit) opts=(--engine=compare --compare-with=jit) ;;
    *) opts=(--engine="$engine") ;;
    esac
    for det in off gpudet; do
        for threads in 1 2 4; do
            bad=""
            for seed in 0 1 7; do
                out=$W/$engine.$det.$threads.$seed.out
                timeout 120 "$PTXSIM" run "${opts[@]}" --det="$det" --threads="$threads" \
                    --seed="$seed" -- "$exe" >"$out" 2>&1
                rc=$?
                if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$out" || [ "$(grep -c '^PASS' "$out")" -ne 4 ]; then
                    bad="$bad seed $seed (exit $rc, $out)"
                fi
            done
            name=reused_rows/$engine/det-$det/threads-$threads
            if [ -z "$bad" ]; then echo "PASS $name"; else echo "FAIL $name:$bad"; fi
        done
    done
done
