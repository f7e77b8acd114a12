#!/usr/bin/env bash
# check_cost.sh: what each --check costs in host CPU time against a plain run (targets: racecheck
# at most 3x, initcheck, synccheck and memcheck at most 1.5x; issue 17), on the compute-heavy
# programs of tests/cuda (PROGRAMS, default below), one host thread, the fastest of REPS runs
# each. Prints per program the plain CPU seconds and each check's ratio, then the geometric
# mean and the worst ratio per check.
# Environment: B (build dir, default build), NVCC, REPS (default 3), PROGRAMS, CHECKS,
# PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
REPS=${REPS:-3}
PROGRAMS=${PROGRAMS:-matmul_tiled nbody reduction scan transpose histogram256 bitonic_sort vector_add}
CHECKS=${CHECKS:-racecheck initcheck synccheck memcheck}
PTXSIM=$B/bin/ptxsim
export B NVCC PTXSIM_CUDA_CACHE="${PTXSIM_CUDA_CACHE:-$B/cuda-cache}" LOG_DIR=$B/bench-check
mkdir -p "$LOG_DIR"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

# cpu_seconds ARGS...: the fastest user+system time of REPS runs of `ptxsim run ARGS`
cpu_seconds() {
    local best="" t
    for _ in $(seq "$REPS"); do
        t=$( { TIMEFORMAT='%U %S'; time "$PTXSIM" run --threads=1 "$@" >/dev/null 2>&1; } 2>&1 |
             tail -n 1 | awk '{print $1 + $2}')
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$t; fi
    done
    echo "$best"
}

declare -A logsum worst
for c in $CHECKS; do logsum[$c]=0; worst[$c]=0; done
n=0
printf '%-14s %8s' program plain_s
for c in $CHECKS; do printf ' %10s' "$c"; done
echo
for p in $PROGRAMS; do
    exe=$(cuda_test_build "tests/cuda/$p.cu" shared "$LOG_DIR/$p.build.log") ||
        { echo "check_cost: nvcc failed for $p" >&2; continue; }
    base=$(cpu_seconds -- "$exe")
    printf '%-14s %8.3f' "$p" "$base"
    for c in $CHECKS; do
        t=$(cpu_seconds --check="$c" -- "$exe")
        r=$(awk -v a="$t" -v b="$base" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 1}')
        printf ' %10s' "${r}x"
        logsum[$c]=$(awk -v s="${logsum[$c]}" -v r="$r" 'BEGIN {print s + log(r)}')
        worst[$c]=$(awk -v w="${worst[$c]}" -v r="$r" 'BEGIN {if (r + 0 > w + 0) print r; else print w}')
    done
    echo
    n=$((n + 1))
done
[ "$n" -gt 0 ] || exit 1
printf '%-14s %8s' "geomean" ""
for c in $CHECKS; do printf ' %10s' "$(awk -v s="${logsum[$c]}" -v n="$n" 'BEGIN {printf "%.2fx", exp(s / n)}')"; done
echo
printf '%-14s %8s' "worst" ""
for c in $CHECKS; do printf ' %10s' "${worst[$c]}x"; done
echo
