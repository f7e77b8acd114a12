#!/usr/bin/env bash
# memory_rss.sh: host memory ptxsim uses against the device memory a program allocates, in one
# run. Target: peak resident memory <= 1.2 x the program's device allocations + a fixed 40 MB.
#
# Programs (bench/memory/, built here): big_alloc 0 (ptxsim's own baseline: one tiny kernel),
# big_alloc 64 and 512 (MB of device memory, every byte written by kernels, memset and
# copies), and tc_gemm N (a tensor-core GEMM whose kernels hold many registers per thread, the
# case that used to cost several times the program's data). Each program prints its own peak
# resident set (VmHWM, which includes everything ptxsim allocates in the process) and the
# bytes it allocated; this prints both, the overhead beyond the allocations and the baseline,
# and the ratio peak / (1.2 x allocations + 40 MB).
# Environment: B (build dir, default build), NVCC, GEMM_N (default 1024; 512 is quicker).
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
GEMM_N=${GEMM_N:-1024}
OUT=$B/bench/memory
mkdir -p "$OUT"
PTXSIM=$B/bin/ptxsim
[ -x "$PTXSIM" ] || { echo "memory_rss: no ptxsim at $PTXSIM (run make first)" >&2; exit 1; }

build() {
    local src=bench/memory/$1.cu exe=$OUT/$1
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
        "$NVCC" -arch=sm_80 -Wno-deprecated-gpu-targets -o "$exe" "$src" \
            >"$OUT/$1.build.log" 2>&1 || { echo "memory_rss: cannot build $1 (see $OUT/$1.build.log)" >&2; exit 1; }
    fi
}
build big_alloc
build tc_gemm

status=0
baseline_kb=0
measure() {
    local label=$1
    shift
    local log=$OUT/$label.log
    "$PTXSIM" run -- "$@" >"$log" 2>&1
    local rc=$?
    local alloc rss
    alloc=$(sed -n 's/^allocated //p' "$log")
    rss=$(sed -n 's/^peak_rss_kb //p' "$log")
    if [ "$rc" -ne 0 ] || [ -z "$alloc" ] || [ -z "$rss" ] || grep -q '^FAIL' "$log"; then
        echo "$label: failed (exit $rc); see $log"
        status=1
        return
    fi
    local alloc_mb rss_mb
    alloc_mb=$(awk -v a="$alloc" 'BEGIN { printf "%.1f", a / 1048576 }')
    rss_mb=$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')
    if [ "$alloc" -eq 0 ]; then
        baseline_kb=$rss
        printf '%-18s allocations %8s MB   peak RSS %8s MB   (ptxsim baseline)\n' "$label" \
            "$alloc_mb" "$rss_mb"
        return
    fi
    awk -v label="$label" -v a="$alloc" -v r="$rss" -v b="$baseline_kb" 'BEGIN {
        am = a / 1048576; rm = r / 1024; over = rm - b / 1024 - am
        limit = 1.2 * am + 40
        printf "%-18s allocations %8.1f MB   peak RSS %8.1f MB   beyond allocations and " \
               "baseline %6.1f MB   peak / (1.2 x alloc + 40 MB) = %.2f%s\n",
               label, am, rm, over, rm / limit, rm <= limit ? "" : "   (over target)"
    }'
    awk -v a="$alloc" -v r="$rss" 'BEGIN { exit !(r / 1024 <= 1.2 * a / 1048576 + 40) }' ||
        status=1
}

measure baseline "$OUT/big_alloc" 0
measure big_alloc_64MB "$OUT/big_alloc" 64
measure big_alloc_512MB "$OUT/big_alloc" 512
measure "tc_gemm_$GEMM_N" "$OUT/tc_gemm" "$GEMM_N"
exit $status
