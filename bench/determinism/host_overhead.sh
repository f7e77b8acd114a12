#!/usr/bin/env bash
# host_overhead.sh: host time of --det=gpudet and --det=dab against --det=off on the
# determinism benchmarks (this folder) and GPU-Racey, in one run, as ratios. Each program runs
# REPS times per mode, modes alternating, with the same --threads; the best time counts.
# This is emulator host time, not simulated cycles (DAB's cycles are not modelled yet).
# Environment: B (build dir), NVCC, REPS (default 3), THREADS (default 2).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
REPS=${REPS:-3}
THREADS=${THREADS:-2}
PTXSIM=$B/bin/ptxsim
OUT=$B/bench-logs/determinism
mkdir -p "$OUT"
[ -x "$PTXSIM" ] || { echo "host_overhead: no ptxsim at $PTXSIM" >&2; exit 1; }

build() {   # build SRC EXE
    if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
        "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -o "$2" "$1" >"$OUT/$(basename "$2").log" 2>&1 ||
            { echo "host_overhead: nvcc failed for $1 (see $OUT)" >&2; exit 1; }
    fi
}
for p in pagerank bc conv_wgrad gpudet_kinds; do build "bench/determinism/$p.cu" "$OUT/$p"; done
build examples/gpu_racey/gpu_racey.cu "$OUT/gpu_racey"

labels=("pagerank 16k x8" "bc 4k x8, 8 sources" "conv_wgrad cnv2_2/2" "conv_wgrad cnv3_3/2" "gpudet_kinds all x4" "gpu_racey all")
cmds=("$OUT/pagerank 16384 8 5" "$OUT/bc 4096 8 8" "$OUT/conv_wgrad cnv2_2 2 2"
      "$OUT/conv_wgrad cnv3_3 2 2" "$OUT/gpudet_kinds all 4" "$OUT/gpu_racey --kernel all")

best() {   # best MODE CMD...: prints the fastest of REPS runs (or "fail")
    local mode=$1 b="" t0 t1 d
    shift
    for ((r = 0; r < REPS; r++)); do
        t0=$(date +%s.%N)
        "$PTXSIM" run --threads="$THREADS" --det="$mode" -- "$@" >/dev/null 2>&1 || { echo fail; return; }
        t1=$(date +%s.%N)
        d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
        if [ -z "$b" ] || awk -v d="$d" -v b="$b" 'BEGIN { exit !(d < b) }'; then b=$d; fi
    done
    echo "$b"
}

printf '%-24s %9s %9s %9s %8s %8s\n' program "off s" "gpudet s" "dab s" gpudet dab
lg=0 ld=0 n=0
for i in "${!labels[@]}"; do
    # shellcheck disable=SC2206
    cmd=(${cmds[$i]})
    off=$(best off "${cmd[@]}") gd=$(best gpudet "${cmd[@]}") db=$(best dab "${cmd[@]}")
    if [ "$off" = fail ] || [ "$gd" = fail ] || [ "$db" = fail ]; then
        printf '%-24s %9s %9s %9s\n' "${labels[$i]}" "$off" "$gd" "$db"
        continue
    fi
    rg=$(awk -v a="$gd" -v o="$off" 'BEGIN { printf "%.2f", a / o }')
    rd=$(awk -v a="$db" -v o="$off" 'BEGIN { printf "%.2f", a / o }')
    printf '%-24s %9.3f %9.3f %9.3f %7sx %7sx\n' "${labels[$i]}" "$off" "$gd" "$db" "$rg" "$rd"
    lg=$(awk -v s="$lg" -v r="$rg" 'BEGIN { printf "%.6f", s + log(r) }')
    ld=$(awk -v s="$ld" -v r="$rd" 'BEGIN { printf "%.6f", s + log(r) }')
    n=$((n + 1))
done
[ "$n" -gt 0 ] && printf 'geometric mean over %d: gpudet %.2fx, dab %.2fx the host time of --det=off (%d threads)\n' \
    "$n" "$(awk -v s="$lg" -v n="$n" 'BEGIN { print exp(s / n) }')" \
    "$(awk -v s="$ld" -v n="$n" 'BEGIN { print exp(s / n) }')" "$THREADS"
