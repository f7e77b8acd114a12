#!/usr/bin/env bash
# run_native.sh: builds every tests/cuda program as tests/run_all.sh does (the shared-runtime
# build, the same nvcc arguments) and runs it natively on a real GPU, with no ptxsim, to
# confirm that the tests' CPU references and expected outputs are what a GPU gives. Not part
# of make check (the machines that run it have no GPU); run it where one is at hand:
#   tests/run_native.sh [OUTDIR]      (default build/native-tests)
# Writes OUTDIR/NAME.log per program and OUTDIR/summary.txt ("NAME: P passed, F failed, exit
# RC" per program, then the GPU's name), and prints the summary.
set -u
cd "$(dirname "$0")/.."
OUT=${1:-build/native-tests}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export NVCC=${NVCC:-nvcc} PTXSIM_CUDA_CACHE=${PTXSIM_CUDA_CACHE:-$OUT/cache}
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
cuda_field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }

one() {   # one build|run SRC: builds the program (nvcc in parallel), or runs it (one at a time,
          # so that no program's timing sees another's) and prints its line
    local mode=$1 src=$2 name exe variants variant=shared log rc p f
    name=$(basename "$src" .cu)
    log=$OUT/$name.log
    variants=$(cuda_field "$src" variants)
    [[ " ${variants:-shared} " == *" shared "* ]] || variant=${variants%% *}
    if ! exe=$(cuda_test_build "$src" "$variant" "$OUT/$name.build.log"); then
        [ "$mode" = run ] && echo "$name: nvcc failed (see $name.build.log)"
        return
    fi
    [ "$mode" = build ] && return

    # a program of ptxsim's alone (its TM extension, its watchdog) says // native: skip REASON
    local skip
    skip=$(cuda_field "$src" native)
    if [[ $skip == skip* ]]; then echo "$name: not run (${skip#skip })"; return; fi
    # stdout alone is compared with NAME.expected (as run_all.sh does); stderr follows it in
    # the log
    timeout 30 "$exe" >"$log" 2>"$log.err"
    rc=$?
    p=$(grep -c '^PASS' "$log")
    f=$(grep -c '^FAIL' "$log")
    if [ -f "${src%.cu}.expected" ]; then
        if diff <(grep -vE '^(PASS|FAIL)( |$)' "$log" | LC_ALL=C sort) \
                <(LC_ALL=C sort "${src%.cu}.expected") >"$log.diff" 2>&1; then
            p=$((p + 1)); rm -f "$log.diff"
        else
            f=$((f + 1))
        fi
    fi
    cat "$log.err" >>"$log" && rm -f "$log.err"
    echo "$name: $p passed, $f failed, exit $rc"
}
export -f one cuda_field
export OUT
ls tests/cuda/*.cu | xargs -P "$(nproc)" -I{} bash -c 'one build {}'
for src in tests/cuda/*.cu; do one run "$src"; done >"$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >>"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
