#!/usr/bin/env bash
# gpudet_equivalence.sh: every race-free CUDA test program (tests/cuda/*.cu) must give the same
# result under --det=gpudet as without determinism, on 1, 2 and 4 host threads. With DET=dab
# (tests/suites/dab_equivalence.sh) the same under --det=dab, as "dab_equivalence/NAME".
#
# For each program (the -cudart shared build tests/run_all.sh makes, from the build cache):
#   reference: ptxsim run --det=off --threads=1
#   gpudet:    ptxsim run --det=gpudet --threads=T --seed=T, T = 1, 2, 4
# and one line per program, "PASS gpudet_equivalence/NAME" when every gpudet run exits as the
# reference did and prints the same lines on stdout (compared as sorted lists: device printf and
# host threads of the program print in no defined order); otherwise
# "FAIL gpudet_equivalence/NAME: why". A program that fails its own checks the same way with and
# without gpudet is noted as "info" (the CUDA suite counts that failure, not this one).
# A program opts out with a line "// gpudet: skip REASON" (a program that races on purpose), or
# of the DAB runs alone with "// dab: skip REASON" (an option DAB refuses).
# Environment: B (build dir, default build), NVCC (default nvcc), PTXSIM_TEST_FILTER, DET
# (gpudet or dab; default gpudet).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
FILTER=${PTXSIM_TEST_FILTER:-}
DET=${DET:-gpudet}
case $DET in gpudet|dab) ;; *) echo "FAIL equivalence: DET=$DET is neither gpudet nor dab"; exit 1;; esac
SUITE=${DET}_equivalence
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/$SUITE
mkdir -p "$LOGS" "$B/tests/cuda"
start=$(date +%s)

field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }

# build SRC: the shared-runtime executable, from the build cache tests/run_all.sh uses
# (tests/cuda_cache.sh); prints its path.
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
build() {
    cuda_test_build "$1" shared "$LOGS/$(basename "$1" .cu).build.log"
}

if [ ! -x "$PTXSIM" ]; then
    echo "FAIL $SUITE: no ptxsim at $PTXSIM (set B=)"
    exit 1
fi

# equiv_one SRC: one program's line(s), into $RESULTS/NAME.
equiv_one() {
    local src=$1 name variants skip exe opts ref_rc why t run rc first
    name=$(basename "$src" .cu)
    variants=$(field "$src" variants)
    if [ -n "$variants" ] && [[ " $variants " != *" shared "* ]]; then
        return 0
    fi
    skip=$(field "$src" gpudet)
    [[ $skip != skip* && $DET != gpudet ]] && skip=$(field "$src" "$DET")
    if [[ $skip == skip* ]]; then
        echo "info $SUITE/$name: skipped (${skip#skip})"
        return 0
    fi
    if ! exe=$(build "$src"); then
        echo "FAIL $SUITE/$name: nvcc failed; see $LOGS/$name.build.log"
        return 0
    fi
    opts=$(field "$src" ptxsim)
    # shellcheck disable=SC2086
    timeout 300 "$PTXSIM" run $opts --det=off --threads=1 --seed=0 -- "$exe" \
        >"$LOGS/$name.off.out" 2>"$LOGS/$name.off.err"
    ref_rc=$?
    LC_ALL=C sort "$LOGS/$name.off.out" >"$LOGS/$name.off.sorted"
    why=()
    for t in 1 2 4; do
        run=$name.$DET-t$t
        # shellcheck disable=SC2086
        timeout 300 "$PTXSIM" run $opts --det="$DET" --threads=$t --seed=$t -- "$exe" \
            >"$LOGS/$run.out" 2>"$LOGS/$run.err"
        rc=$?
        [ "$rc" -eq "$ref_rc" ] || why+=("threads $t exit $rc, reference $ref_rc")
        if ! LC_ALL=C sort "$LOGS/$run.out" | diff -q - "$LOGS/$name.off.sorted" >/dev/null; then
            first=$(LC_ALL=C sort "$LOGS/$run.out" | diff - "$LOGS/$name.off.sorted" |
                    grep -m1 '^[<>]')
            why+=("threads $t output differs ($first)")
        fi
    done
    if [ ${#why[@]} -eq 0 ]; then
        echo "PASS $SUITE/$name"
        # the program's own failures are the CUDA suite's to count; here only sameness matters
        if grep -q '^FAIL' "$LOGS/$name.off.out" || ! grep -q '^PASS' "$LOGS/$name.off.out"; then
            echo "info $SUITE/$name: fails its own checks without $DET too:" \
                 "$(grep -m1 '^FAIL' "$LOGS/$name.off.out" || echo "no PASS line")"
        fi
    else
        echo "FAIL $SUITE/$name: ${why[*]} (logs in $LOGS)"
    fi
}
export -f equiv_one build field cuda_test_build cuda_cache_build cuda_cache_dir cuda_cache_nvcc_id
export PTXSIM LOGS B NVCC DET SUITE

# Two programs at a time; the lines come out in the programs' order.
RESULTS=$LOGS/results
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
export RESULTS
for src in tests/cuda/*.cu; do
    [ -e "$src" ] || continue
    [ -n "$FILTER" ] && [[ $src != *"$FILTER"* ]] && continue
    printf '%s\0' "$src"
done | xargs -0 -r -P "${JOBS:-2}" -n 1 bash -c 'equiv_one "$1" >"$RESULTS/$(basename "$1" .cu)"' _
cat "$RESULTS"/* 2>/dev/null
echo "$DET equivalence: $(($(date +%s) - start)) s"
