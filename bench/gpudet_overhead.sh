#!/usr/bin/env bash
# gpudet_overhead.sh: host time of --det=gpudet against --det=off on the same programs, in one
# run, printed as ratios (the target is at most 2x).
#
# Programs: every tests/cuda/*.cu (its -cudart shared build, made by tests/run_all.sh or here)
# and, from GPU-Racey (examples/gpu_racey), at larger sizes: the race-free control kernel
# (uncoalesced stores, the store buffer's worst case), R1, the atomics (a quantum per atomic:
# serial mode's worst case), the barriers (BTA), and the whole suite. Each program
# runs REPS times per mode, modes alternating, with the same --threads; the best time of each
# mode counts (the least disturbed by other work on the machine).
# Environment: B (build dir, default build), NVCC, REPS (default 3), THREADS (default: ptxsim's
# default, one per core).
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
REPS=${REPS:-3}
PTXSIM=$B/bin/ptxsim
THREAD_OPT=()
[ -n "${THREADS:-}" ] && THREAD_OPT=(--threads="$THREADS")
mkdir -p "$B/tests/cuda" "$B/examples" "$B/bench-logs"

if [ ! -x "$PTXSIM" ]; then
    echo "gpudet_overhead: no ptxsim at $PTXSIM (run make first, or set B=)" >&2
    exit 1
fi

field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }

# build SRC EXE [FLAGS...]: builds when missing or older than the source.
build() {
    local src=$1 exe=$2
    shift 2
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
        "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -lineinfo "$@" -o "$exe" "$src" \
            >"$B/bench-logs/$(basename "$exe").build.log" 2>&1 || return 1
    fi
}

now() { date +%s.%N; }
# measure LABEL MODE CMD...: one timed run; BEST[LABEL.MODE] keeps the fastest ("fail" when a
# run failed).
declare -A BEST
measure() {
    local label=$1 mode=$2
    shift 2
    local t0 t1 dt
    t0=$(now)
    if ! "$PTXSIM" run "${THREAD_OPT[@]}" --det="$mode" -- "$@" >/dev/null 2>&1; then
        BEST[$label.$mode]=fail
        return
    fi
    t1=$(now)
    dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
    local old=${BEST[$label.$mode]:-}
    if [ "$old" != fail ] && { [ -z "$old" ] || awk -v d="$dt" -v o="$old" 'BEGIN { exit !(d < o) }'; }; then
        BEST[$label.$mode]=$dt
    fi
}

labels=()
cmds=()
for src in tests/cuda/*.cu; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .cu)
    exe=$B/tests/cuda/$name.shared
    [ -d "${src%.cu}" ] && continue   # multi-file programs: built by tests/run_all.sh
    # shellcheck disable=SC2046,SC2086
    build "$src" "$exe" -Itests/cuda $(field "$src" nvcc) || { echo "skip $name: nvcc failed"; continue; }
    labels+=("$name")
    cmds+=("$exe")
done
racey=$B/examples/gpu_racey
if build examples/gpu_racey/gpu_racey.cu "$racey"; then
    labels+=("gpu_racey:control" "gpu_racey:global" "gpu_racey:atomic" "gpu_racey:barrier"
             "gpu_racey:all")
    cmds+=("$racey --kernel control --loops 2048 --blocks 8 --threads 256"
           "$racey --kernel global --loops 1024 --blocks 8 --threads 256"
           "$racey --kernel racey_atomic --loops 512 --blocks 8 --threads 256"
           "$racey --kernel racey_barrier --loops 512 --blocks 8 --threads 256"
           "$racey --kernel all")
fi

printf '%-24s %12s %12s %8s\n' program "off s" "gpudet s" ratio
sum_log=0
count=0
worst=0
short_log=0
nshort=0
for i in "${!labels[@]}"; do
    label=${labels[$i]}
    # shellcheck disable=SC2206
    cmd=(${cmds[$i]})
    for ((r = 0; r < REPS; r++)); do
        measure "$label" off "${cmd[@]}"
        measure "$label" gpudet "${cmd[@]}"
    done
    off=${BEST[$label.off]}
    det=${BEST[$label.gpudet]}
    if [ "$off" = fail ] || [ "$det" = fail ]; then
        printf '%-24s %12s %12s %8s\n' "$label" "$off" "$det" "-"
        continue
    fi
    ratio=$(awk -v d="$det" -v o="$off" 'BEGIN { printf "%.4f", d / o }')
    if awk -v o="$off" 'BEGIN { exit !(o < 0.25) }'; then
        # a few launches of small kernels: process start and the machine's noise dominate
        printf '%-24s %12.3f %12.3f %7.2fx  (short)\n' "$label" "$off" "$det" "$ratio"
        short_log=$(awk -v s="$short_log" -v r="$ratio" 'BEGIN { printf "%.6f", s + log(r) }')
        nshort=$((nshort + 1))
        continue
    fi
    printf '%-24s %12.3f %12.3f %7.2fx\n' "$label" "$off" "$det" "$ratio"
    sum_log=$(awk -v s="$sum_log" -v r="$ratio" 'BEGIN { printf "%.6f", s + log(r) }')
    count=$((count + 1))
    awk -v r="$ratio" -v w="$worst" 'BEGIN { exit !(r > w) }' && worst=$ratio
done
if [ "$nshort" -gt 0 ]; then
    printf 'short programs (under 0.25 s): geometric mean %.2fx over %d\n' \
        "$(awk -v s="$short_log" -v n="$nshort" 'BEGIN { print exp(s / n) }')" "$nshort"
fi
if [ "$count" -gt 0 ]; then
    printf 'longer programs: geometric mean %.2fx, worst %.2fx over %d (target: at most 2x)\n' \
        "$(awk -v s="$sum_log" -v n="$count" 'BEGIN { print exp(s / n) }')" "$worst" "$count"
fi
