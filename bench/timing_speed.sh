#!/usr/bin/env bash
# timing_speed.sh: what --timing costs, in one run, as ratios.
#
# For each speed-anchor program of ../shared/anchor (vecadd 1M, matmul 256, reduce 1M x 256
# blocks: the sizes and build of its README) and each of gtx480 and v100: the wall time of the
# whole process with --timing (CPU seconds), against GPGPU-Sim's recorded wall time for the same program and
# configuration (SM2_GTX480, SM7_QV100: the README's table; target at least 50x), and against
# ptxsim with timing off (target: timing costs at most 3x). Also printed: simulated cycles, the
# thread instructions per second with --timing, and --threads=1 against --threads=2 with --timing
# on vecadd 1M and blackscholes 1M (the parallel model; cycles must be identical; the target
# 1.7x holds on an idle 2-core machine only) as two ratios: "kernel", the kernel's simulation
# wall time (the per-kernel host seconds of --stats, what the issue's scaling is about), and
# "process", the whole process's wall time (also start-up, PTX loading, the program's copies
# and its own check on the host, which do not scale).
# Each configuration runs REPS times; the least CPU time counts (the machine is shared). The two
# sides of a ratio (timing off and on, one host thread and two) run in turn, REPS pairs, so that
# both meet the same minutes of a shared machine (on this project's VM, minutes in which fresh
# pages cost milliseconds to zero, or the other core is busy, slow a run two to three times).
# The machine's state, before the runs and after (bench/machine_probe.c): whether two threads
# run at once, a cache line's round trip between them, a page's first touch. The ratios hold
# for the machine as it was: on the project's VM both moved by a factor of 2-4 from one hour to
# the next (two vCPUs far apart, dear page faults), which no change of the code explains.
# What it measured so far, session by session: bench/timing_speed.md.
# Environment: B (build dir, default build), NVCC, CC, REPS (default 5), ANCHORS (default
# ../shared/anchor).
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
NVCC=${NVCC:-nvcc}
REPS=${REPS:-5}
ANCHORS=${ANCHORS:-$ROOT/../shared/anchor}
PTXSIM=$B/bin/ptxsim
W=$B/bench-timing
mkdir -p "$W"
[ -x "$PTXSIM" ] || { echo "timing_speed: no ptxsim at $PTXSIM (run make first)" >&2; exit 1; }

# GPGPU-Sim 4.2.0's wall seconds, ../shared/anchor/README.md ("Detailed performance model")
declare -A GPGPUSIM=(
    [gtx480/vecadd]=46.8 [gtx480/matmul]=203.4 [gtx480/reduce]=14.0
    [v100/vecadd]=73.7 [v100/matmul]=133.2 [v100/reduce]=22.3
)
declare -A ARGS=([vecadd]="1048576" [matmul]="256" [reduce]="1048576 256")

for p in vecadd matmul reduce blackscholes; do
    src=$ANCHORS/$p.cu
    [ "$p" = blackscholes ] && src=$ROOT/bench/programs/$p.cu
    if [ ! -x "$W/$p" ] || [ "$src" -nt "$W/$p" ]; then
        "$NVCC" -O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets -o "$W/$p" \
            "$src" || { echo "timing_speed: nvcc failed on $p" >&2; exit 1; }
    fi
done

CC=${CC:-cc}
if [ ! -x "$W/machine_probe" ] || [ bench/machine_probe.c -nt "$W/machine_probe" ]; then
    "$CC" -std=c17 -O1 -pthread -o "$W/machine_probe" bench/machine_probe.c ||
        { echo "timing_speed: $CC failed on bench/machine_probe.c" >&2; exit 1; }
fi
"$W/machine_probe"

least() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
# cpu_time ARGS...: the CPU time (user + system seconds) of one run of the whole process: the
# machine is shared, and GPGPU-Sim's recorded wall time was on an idle one with one core used,
# where wall and CPU time agree. Counted in microseconds (bench/cpu_seconds.py): /usr/bin/time's
# hundredths moved a 0.03-0.04 s timing-off run, and its ratio, by a quarter.
cpu_time() {
    "$ROOT/bench/cpu_seconds.py" "$W/time" "$PTXSIM" run "$@" >/dev/null 2>&1 ||
        { echo "FAILED: $*" >&2; echo 0; return; }
    awk '{ print $1 + $2 }' "$W/time"
}
# best_off_on GPU PROGRAM ARGS...: the least CPU time over REPS runs with timing off and with
# --timing, in turn (one host thread, no statistics: their event consumer costs time of its
# own): "OFF ON".
best_off_on() {
    local gpu=$1 off="" on="" t
    shift
    for _ in $(seq "$REPS"); do
        t=$(cpu_time --threads=1 --gpu="$gpu" -- "$@"); off=$(least "$off" "$t")
        t=$(cpu_time --threads=1 --timing --gpu="$gpu" -- "$@"); on=$(least "$on" "$t")
    done
    echo "$off $on"
}
# elapsed OUT ARGS...: one run's wall time of the process and its kernels' host seconds (in OUT,
# --stats JSON): "PROCESS KERNEL".
elapsed() {
    local out=$1
    shift
    /usr/bin/time -o "$W/time" -f "%e" "$PTXSIM" run --stats="$out" "$@" >/dev/null 2>&1 ||
        { echo "FAILED: $*" >&2; echo "0 0"; return; }
    echo "$(cat "$W/time") $(python3 -c 'import json,sys; print(sum(k["host_seconds"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$out")"
}
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["total"]; print(eval(sys.argv[2]))' "$@"; }

printf '%-8s %-7s %10s %12s %9s %9s %9s %8s %8s %12s\n' program gpu cycles thread-insn \
    "off cpu" "timing" "gpgpusim" "vs gsim" "vs off" "Minsn/s"
vs_gsim=() vs_off=()
for gpu in gtx480 v100; do
    for p in vecadd matmul reduce; do
        # shellcheck disable=SC2086
        read -r off on < <(best_off_on $gpu "$W/$p" ${ARGS[$p]})
        # shellcheck disable=SC2086
        "$PTXSIM" run --threads=1 --timing --gpu=$gpu --stats="$W/on.json" -- "$W/$p" ${ARGS[$p]} \
            >/dev/null 2>&1
        cycles=$(json "$W/on.json" 'd["cycles"]')
        tin=$(json "$W/on.json" 'd["timing"]["thread_instructions"]')
        g=${GPGPUSIM[$gpu/$p]}
        r1=$(echo "$g / $on" | bc -l)
        r2=$(echo "$on / $off" | bc -l)
        vs_gsim+=("$r1")
        vs_off+=("$r2")
        printf '%-8s %-7s %10s %12s %9.3f %9.3f %9.1f %7.1fx %7.2fx %12.2f\n' "$p" "$gpu" \
            "$cycles" "$tin" "$off" "$on" "$g" "$r1" "$r2" "$(echo "$tin / $on / 1000000" | bc -l)"
    done
done
geo() { python3 -c 'import math,sys; v=[float(x) for x in sys.argv[1:]]; print("%.2f" % math.exp(sum(map(math.log, v)) / len(v)))' "$@"; }
echo "geometric mean: $(geo "${vs_gsim[@]}")x faster than GPGPU-Sim (target 50x); timing costs $(geo "${vs_off[@]}")x timing off (target at most 3x)"

# host threads, in turn: the least process and kernel times of each (cycles must agree), on
# two kernels of 1M threads: vecadd (memory-bound: its every load and store goes through the
# weave's one serial order, the hardest case) and blackscholes (bench/programs: compute-bound,
# exp, log and sqrt per option, the bound phase's work)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "?" }'; }
for p in vecadd blackscholes; do
    one="" kone="" two="" ktwo=""
    for _ in $(seq "$REPS"); do
        read -r t k < <(elapsed "$W/t1.json" --threads=1 --timing --gpu=v100 -- "$W/$p" 1048576)
        one=$(least "$one" "$t"); kone=$(least "$kone" "$k")
        read -r t k < <(elapsed "$W/t2.json" --threads=2 --timing --gpu=v100 -- "$W/$p" 1048576)
        two=$(least "$two" "$t"); ktwo=$(least "$ktwo" "$k")
    done
    c1=$(json "$W/t1.json" 'd["cycles"]')
    c2=$(json "$W/t2.json" 'd["cycles"]')
    echo "$p 1M on v100, 1 host thread against 2 (cycles $c1 and $c2; load average $(cut -d' ' -f1 /proc/loadavg)):" \
        "kernel $(ratio "$kone" "$ktwo")x ($kone s, $ktwo s), process $(ratio "$one" "$two")x ($one s, $two s)"
done
"$W/machine_probe"
