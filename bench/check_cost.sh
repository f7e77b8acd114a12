#!/usr/bin/env bash
# check_cost.sh: what each --check costs in host CPU time against a plain run (targets: racecheck
# at most 3x, initcheck, synccheck and memcheck at most 1.5x; issue 17), one host thread, the
# fastest of REPS runs each. Programs: the compute-heavy programs of tests/cuda (TESTS), the
# programs of bench/programs (an n-body step, Black-Scholes, Mandelbrot) and, when
# ../shared/anchor exists, the speed anchors (vecadd 1M, matmul 256, reduce 1M). Prints per
# program the plain CPU seconds and each check's ratio, then the geometric mean and the worst
# ratio per check, over all programs and over the larger ones (plain run above 0.1 s: the
# small ones are mostly start-up, which every run pays alike).
# Environment: B (build dir, default build), NVCC, REPS (default 3), TESTS, CHECKS, ANCHORS,
# PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
REPS=${REPS:-3}
TESTS=${TESTS:-matmul_tiled nbody reduction scan transpose histogram256 bitonic_sort vector_add}
CHECKS=${CHECKS:-racecheck initcheck synccheck memcheck}
ANCHORS=${ANCHORS:-../shared/anchor}
PTXSIM=$B/bin/ptxsim
export B NVCC PTXSIM_CUDA_CACHE="${PTXSIM_CUDA_CACHE:-$B/cuda-cache}" LOG_DIR=$B/bench-check
mkdir -p "$LOG_DIR"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

names=()
cmds=()
add() { names+=("$1"); cmds+=("$2"); }
for p in $TESTS; do
    exe=$(cuda_test_build "tests/cuda/$p.cu" shared "$LOG_DIR/$p.build.log") && add "$p" "$exe"
done
bench_build() {   # NAME SRC: the program built with -O3 (cached)
    cuda_cache_build "bench-$1" "$LOG_DIR/$1.build.log" \
        "-O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets $2" "$2"
}
for p in nbody blackscholes mandelbrot; do
    exe=$(bench_build "$p" "bench/programs/$p.cu") && add "$p" "$exe"
done
if [ -d "$ANCHORS" ]; then
    exe=$(bench_build vecadd "$ANCHORS/vecadd.cu") && add "vecadd 1M" "$exe 1048576"
    exe=$(bench_build matmul "$ANCHORS/matmul.cu") && add "matmul 256" "$exe 256"
    exe=$(bench_build reduce "$ANCHORS/reduce.cu") && add "reduce 1M" "$exe 1048576 256"
fi

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

declare -A logsum worst biglog bigworst
for c in $CHECKS; do logsum[$c]=0; worst[$c]=0; biglog[$c]=0; bigworst[$c]=0; done
n=0
nbig=0
printf '%-14s %8s' program plain_s
for c in $CHECKS; do printf ' %10s' "$c"; done
echo
for i in "${!names[@]}"; do
    # shellcheck disable=SC2086
    set -- ${cmds[$i]}
    base=$(cpu_seconds -- "$@")
    big=$(awk -v b="$base" 'BEGIN {print (b > 0.1) ? 1 : 0}')
    printf '%-14s %8.3f' "${names[$i]}" "$base"
    for c in $CHECKS; do
        t=$(cpu_seconds --check="$c" -- "$@")
        r=$(awk -v a="$t" -v b="$base" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 1}')
        printf ' %10s' "${r}x"
        logsum[$c]=$(awk -v s="${logsum[$c]}" -v r="$r" 'BEGIN {print s + log(r)}')
        worst[$c]=$(awk -v w="${worst[$c]}" -v r="$r" 'BEGIN {if (r + 0 > w + 0) print r; else print w}')
        if [ "$big" = 1 ]; then
            biglog[$c]=$(awk -v s="${biglog[$c]}" -v r="$r" 'BEGIN {print s + log(r)}')
            bigworst[$c]=$(awk -v w="${bigworst[$c]}" -v r="$r" 'BEGIN {if (r + 0 > w + 0) print r; else print w}')
        fi
    done
    echo
    n=$((n + 1))
    [ "$big" = 1 ] && nbig=$((nbig + 1))
done
[ "$n" -gt 0 ] || exit 1
summary() {   # LABEL COUNT LOGSUMS-ARRAY WORST-ARRAY
    local -n ls=$3 ws=$4
    printf '%-23s' "geomean $1 ($2)"
    for c in $CHECKS; do printf ' %10s' "$(awk -v s="${ls[$c]}" -v n="$2" 'BEGIN {printf "%.2fx", exp(s / n)}')"; done
    echo
    printf '%-23s' "worst $1"
    for c in $CHECKS; do printf ' %10s' "${ws[$c]}x"; done
    echo
}
summary all "$n" logsum worst
[ "$nbig" -gt 0 ] && summary "over 0.1 s" "$nbig" biglog bigworst
exit 0
