#!/usr/bin/env bash
# igpu_programs.sh: every CUDA test program (tests/cuda/*.cu) gives its reference output under
# --igpu=on with demand paging and injected errors together, on 1, 2 and 4 host threads, and
# under --det=gpudet (the issue's "Done when").
#
# For each program (the -cudart shared build of tests/run_all.sh, from the build cache):
#   reference: ptxsim run --threads=1 (its PASS/FAIL lines, sorted)
#   three runs, each with --igpu=on --igpu-paging=on --igpu-page-size=4096 and
#   --fault-inject=rate=R,seed=S, R and S turning over the programs (R in 0.01, 0.05, 0.2; S in
#   1..3) so that every rate and seed meets every thread count somewhere (the 4-thread run
#   injects timing errors instead, instr-rate=R in 0.002, 0.01, 0.04 per warp instruction,
#   recovered at short sub-region entries):
#     --threads=1;
#     --threads=2 --det=gpudet (pages arrive by quanta), or --threads=2 without determinism for
#       a program that opts out of GPUDet (// gpudet: skip);
#     --threads=4 --seed=4 --igpu-resident-pages=8 (evictions between launches).
# One line per program: "PASS igpu_programs/NAME (page faults, injected faults)" when every
# run exits as the reference did and prints its PASS/FAIL lines; otherwise "FAIL ...: why".
# tests/suites/igpu.sh checks the counts themselves (determinism, statistics, cycles).
# A program opts out with "// igpu: skip REASON".
# Environment: B (build dir, default build), NVCC, PTXSIM_TEST_FILTER, JOBS.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
FILTER=${PTXSIM_TEST_FILTER:-}
# a filter that picks this suite by name runs all of it; another picks programs
[[ igpu_programs == *"$FILTER"* ]] && FILTER=""
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/igpu_programs
mkdir -p "$LOGS"
start=$(date +%s)

field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

if [ ! -x "$PTXSIM" ]; then
    echo "FAIL igpu_programs: no ptxsim at $PTXSIM (set B=)"
    exit 1
fi

# igpu_one INDEX SRC: one program's line
igpu_one() {
    local i=$1 src=$2 name variants skip exe opts ref_rc why k t rc extra rates spec pf inj
    name=$(basename "$src" .cu)
    variants=$(field "$src" variants)
    if [ -n "$variants" ] && [[ " $variants " != *" shared "* ]]; then
        return 0
    fi
    skip=$(field "$src" igpu)
    if [[ $skip == skip* ]]; then
        echo "info igpu_programs/$name: skipped (${skip#skip})"
        return 0
    fi
    if ! exe=$(cuda_test_build "$src" shared "$LOGS/$name.build.log"); then
        echo "FAIL igpu_programs/$name: nvcc failed; see $LOGS/$name.build.log"
        return 0
    fi
    opts=$(field "$src" ptxsim)
    # shellcheck disable=SC2086
    timeout 300 "$PTXSIM" run $opts --threads=1 -- "$exe" >"$LOGS/$name.ref" 2>&1
    ref_rc=$?
    grep -E '^(PASS|FAIL)' "$LOGS/$name.ref" | LC_ALL=C sort >"$LOGS/$name.want"
    rates=(0.01 0.05 0.2)
    irates=(0.002 0.01 0.04)
    why=()
    pf=0
    inj=0
    for k in 0 1 2; do
        spec="rate=${rates[$(((i + k) % 3))]},seed=$(((i + 2 * k) % 3 + 1))"
        # the 4-thread run injects timing errors per instruction (short-region restarts)
        [ "$k" = 2 ] && spec="instr-rate=${irates[$((i % 3))]},seed=$((i % 3 + 1))"
        case $k in
        0) t=1; extra="" ;;
        1) t=2; extra="--det=gpudet"
           [[ $(field "$src" gpudet) == skip* ]] && extra="" ;;
        2) t=4; extra="--seed=4 --igpu-resident-pages=8" ;;
        esac
        # shellcheck disable=SC2086
        timeout 300 "$PTXSIM" run $opts --threads=$t $extra --igpu=on --igpu-paging=on \
            --igpu-page-size=4096 "--fault-inject=$spec" --verbose=1 -- "$exe" \
            >"$LOGS/$name.$k.out" 2>"$LOGS/$name.$k.err"
        rc=$?
        [ "$rc" -eq "$ref_rc" ] || why+=("threads $t $extra $spec: exit $rc, reference $ref_rc")
        if ! grep -E '^(PASS|FAIL)' "$LOGS/$name.$k.out" | LC_ALL=C sort | diff -q - "$LOGS/$name.want" >/dev/null; then
            why+=("threads $t $extra $spec: output differs ($(grep -E '^(PASS|FAIL)' "$LOGS/$name.$k.out" | LC_ALL=C sort | diff - "$LOGS/$name.want" | grep -m1 '^[<>]'))")
        fi
        pf=$((pf + $(grep -o '[0-9]* page faults' "$LOGS/$name.$k.err" | awk '{s += $1} END {print s + 0}')))
        inj=$((inj + $(grep -o '[0-9]* faults injected' "$LOGS/$name.$k.err" | awk '{s += $1} END {print s + 0}')))
    done
    if [ ${#why[@]} -eq 0 ]; then
        echo "PASS igpu_programs/$name ($pf page faults, $inj injected faults recovered)"
    else
        echo "FAIL igpu_programs/$name: ${why[*]} (logs in $LOGS)"
    fi
}
export -f igpu_one field cuda_test_build cuda_cache_build cuda_cache_dir cuda_cache_nvcc_id
export PTXSIM LOGS B NVCC

RESULTS=$LOGS/results
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
export RESULTS
i=0
for src in tests/cuda/*.cu; do
    [ -e "$src" ] || continue
    [ -n "$FILTER" ] && [[ $src != *"$FILTER"* ]] && continue
    printf '%s\0%s\0' "$i" "$src"
    i=$((i + 1))
done | xargs -0 -r -P "${JOBS:-2}" -n 2 bash -c 'igpu_one "$1" "$2" >"$RESULTS/$(basename "$2" .cu)"' _
cat "$RESULTS"/* 2>/dev/null
# the injector and the page model did act: the runs above are not vacuous
tot_pf=$(cat "$RESULTS"/* 2>/dev/null | sed -n 's/^PASS.*(\([0-9]*\) page faults.*/\1/p' | awk '{s += $1} END {print s + 0}')
tot_inj=$(cat "$RESULTS"/* 2>/dev/null | sed -n 's/^PASS.*, \([0-9]*\) injected.*/\1/p' | awk '{s += $1} END {print s + 0}')
if ! ls "$RESULTS"/* >/dev/null 2>&1; then
    :   # the filter picked no program
elif [ "$tot_pf" -gt 0 ] && [ "$tot_inj" -gt 0 ]; then
    echo "PASS igpu_programs/faults_taken ($tot_pf page faults, $tot_inj injected faults)"
else
    echo "FAIL igpu_programs/faults_taken: $tot_pf page faults, $tot_inj injected faults"
fi
echo "igpu programs: $(($(date +%s) - start)) s"
