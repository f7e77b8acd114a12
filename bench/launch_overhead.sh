#!/usr/bin/env bash
# launch_overhead.sh: what a launch and an empty one-thread block cost (target: a block below
# 0.3 µs; issue 11), for this build and, when OLD names another ptxsim, for that one, in one run.
#
# bench/launch_overhead.cu launches one empty block and then N empty one-thread blocks (N =
# BLOCKS, default 2^20), REPS times, keeping the fastest of each; the cost of a block is
# (T(N) - T(1)) / (N - 1). Printed per build and host-thread count (1 and 2) under --det=off
# and --det=gpudet: the wall-clock and CPU-time cost of one launch and of one block, and the
# ratios old/new of the block cost (wall/CPU) when OLD is given. On a machine shared with other
# work the CPU time is the steadier measure (one host thread: wall = CPU on an idle machine).
# Environment: B (build dir, default build), NVCC, BLOCKS, REPS (default 3), OLD (a previous
# ptxsim binary, e.g. one built from the commit before a change), THREADS (default "1 2").
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
BLOCKS=${BLOCKS:-1048576}
REPS=${REPS:-3}
THREADS=${THREADS:-1 2}
NEW=$B/bin/ptxsim
OLD=${OLD:-}
EXE=$B/bench-launch/launch_overhead
mkdir -p "$B/bench-launch"

[ -x "$NEW" ] || { echo "launch_overhead: no ptxsim at $NEW (run make first)" >&2; exit 1; }
[ -z "$OLD" ] || [ -x "$OLD" ] || { echo "launch_overhead: OLD=$OLD is not executable" >&2; exit 1; }
if [ ! -x "$EXE" ] || [ bench/launch_overhead.cu -nt "$EXE" ]; then
    "$NVCC" -O2 -cudart shared -Wno-deprecated-gpu-targets -o "$EXE" bench/launch_overhead.cu \
        >"$EXE.log" 2>&1 || { echo "launch_overhead: nvcc failed (see $EXE.log)" >&2; exit 1; }
fi

# measure SIM DET THREADS: prints "launch_us block_us cpu_launch_us cpu_block_us"
measure() {
    "$1" run --det="$2" --threads="$3" -- "$EXE" "$BLOCKS" "$REPS" 2>/dev/null |
        awk '{v[$1] = $2} END {
            if (!("block_us" in v)) exit 1
            print v["launch_us"], v["block_us"], v["cpu_launch_us"], v["cpu_block_us"] }'
}

status=0
printf 'empty one-thread blocks: %s per launch, best of %s\n' "$BLOCKS" "$REPS"
printf '%-5s %-7s %-3s %12s %11s %12s %11s %13s\n' build det thr launch_us block_us \
    cpu_launch cpu_block old/new
for det in off gpudet; do
    for t in $THREADS; do
        n=$(measure "$NEW" "$det" "$t") || { echo "launch_overhead: run failed (new, $det, $t)"; status=1; continue; }
        ratio=-
        if [ -n "$OLD" ]; then
            o=$(measure "$OLD" "$det" "$t") || { echo "launch_overhead: run failed (old, $det, $t)"; status=1; continue; }
            read -r ol ob oc ocb <<<"$o"
            printf '%-5s %-7s %-3s %12s %11s %12s %11s %13s\n' old "$det" "$t" "$ol" "$ob" "$oc" "$ocb" -
            ratio=$(awk -v a="$o" -v b="$n" 'BEGIN {
                split(a, x, " "); split(b, y, " "); printf "%.1fx/%.1fx", x[2] / y[2], x[4] / y[4] }')
        fi
        read -r nl nb nc ncb <<<"$n"
        printf '%-5s %-7s %-3s %12s %11s %12s %11s %13s\n' new "$det" "$t" "$nl" "$nb" "$nc" "$ncb" "$ratio"
    done
done
echo "target: block_us below 0.3 (det off)"
exit $status
