#!/usr/bin/env bash
# interp_speed.sh: the interpreter's speed, previous core against this one, in one run.
#
# For each program: the speed-anchor programs of ../shared/anchor (vecadd 1M, matmul 256,
# reduce 1M x 256 blocks: the sizes of its README) and a compute-bound set written here
# (bench/programs: an n-body step, Black-Scholes, Mandelbrot), both ptxsim builds run it with
# --threads=1, REPS times alternating, and the least CPU time (user + system: the machine is
# shared, so the least disturbed run counts) gives thread-instructions per second per host core
# (thread instructions as GPGPU-Sim counts them: warp instructions times active lanes, from
# `--stats` of this build). Printed: the table, the geometric mean of the speed-ups (target:
# at least 2.5x), this build on 1 against 2 host threads (wall time), and the cost of the event
# consumers (--stats with its metrics, --trace) against none.
#
# The previous core is built from BASE (default 8892ec9, the last commit before the core v2
# work) in a worktree under $B/bench-base (built once).
# Environment: B (build dir, default build), NVCC, REPS (default 3), BASE, ANCHORS (the anchor
# programs' folder, default ../shared/anchor), LARGE=1 adds the anchors' large sizes.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
NVCC=${NVCC:-nvcc}
REPS=${REPS:-3}
BASE=${BASE:-8892ec9}
ANCHORS=${ANCHORS:-$ROOT/../shared/anchor}
NEW=$B/bin/ptxsim
W=$B/bench-interp
mkdir -p "$W"

[ -x "$NEW" ] || { echo "interp_speed: no ptxsim at $NEW (run make first)" >&2; exit 1; }

# ---- the previous core, built once per BASE
OLD_SRC=$B/bench-base/src-$BASE
OLD=$OLD_SRC/build/bin/ptxsim
if [ ! -x "$OLD" ]; then
    echo "building the previous core ($BASE) in $OLD_SRC ..."
    rm -rf "$OLD_SRC"
    mkdir -p "$B/bench-base"
    git worktree add --detach -f "$OLD_SRC" "$BASE" >/dev/null 2>&1 ||
        { echo "interp_speed: cannot check out $BASE" >&2; exit 1; }
    make -C "$OLD_SRC" -j2 all >"$W/base-build.log" 2>&1 ||
        { echo "interp_speed: the previous core does not build; see $W/base-build.log" >&2; exit 1; }
fi

build() {   # build SRC EXE
    if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
        "$NVCC" -O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets -o "$2" "$1" \
            >"$2.log" 2>&1 || { echo "skip $(basename "$2"): nvcc failed (see $2.log)"; return 1; }
    fi
}

names=()
cmds=()
add() { names+=("$1"); cmds+=("$2"); }
if [ -d "$ANCHORS" ]; then
    for p in vecadd matmul reduce; do build "$ANCHORS/$p.cu" "$W/$p" || true; done
    [ -x "$W/vecadd" ] && add "vecadd 1M" "$W/vecadd 1048576"
    [ -x "$W/matmul" ] && add "matmul 256" "$W/matmul 256"
    [ -x "$W/reduce" ] && add "reduce 1M" "$W/reduce 1048576 256"
    if [ "${LARGE:-0}" = 1 ]; then
        [ -x "$W/vecadd" ] && add "vecadd 16M" "$W/vecadd 16777216"
        [ -x "$W/matmul" ] && add "matmul 512" "$W/matmul 512"
        [ -x "$W/reduce" ] && add "reduce 16M" "$W/reduce 16777216 1024"
    fi
else
    echo "(no anchor programs at $ANCHORS: set ANCHORS=)"
fi
for p in nbody blackscholes mandelbrot; do
    build "bench/programs/$p.cu" "$W/$p" && add "$p" "$W/$p"
done

# cpu SIM OPTIONS CMD...: user + system seconds of one run with --threads=1 and the run
# OPTIONS (one word, may be empty), or "fail"
cpu() {
    local sim=$1 opt=$2
    shift 2
    local t=
    if /usr/bin/time -o "$W/time.txt" -f '%U %S' "$sim" run --threads=1 ${opt:+"$opt"} -- "$@" \
        >/dev/null 2>&1; then
        t=$(tail -n 1 "$W/time.txt" | awk 'NF == 2 { printf "%.3f", $1 + $2 }')
    fi
    echo "${t:-fail}"
}
minof() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a == "fail") print b; else if (b == "fail") print a; else print (b < a ? b : a) }'; }

printf '%-14s %14s %9s %9s %10s %10s %8s\n' program thread-insns old-cpu-s new-cpu-s \
    old-Mti/s new-Mti/s speedup
logsum=0
count=0
for i in "${!names[@]}"; do
    read -r -a cmd <<<"${cmds[$i]}"
    ti=$("$NEW" run --threads=1 --stats=- -- "${cmd[@]}" 2>&1 >/dev/null |
         sed -nE 's/.*instructions: [0-9]+ warp, ([0-9]+) thread.*/\1/p' | awk '{n += $1} END {print n + 0}')
    o=fail
    n=fail
    for r in $(seq "$REPS"); do
        o=$(minof "$o" "$(cpu "$OLD" "" "${cmd[@]}")")
        n=$(minof "$n" "$(cpu "$NEW" "" "${cmd[@]}")")
    done
    if [ "$o" = fail ] || [ "$n" = fail ] || [ "$ti" = 0 ]; then
        printf '%-14s %14s %9s %9s   (a run failed)\n' "${names[$i]}" "$ti" "$o" "$n"
        continue
    fi
    read -r om nm sp <<<"$(awk -v t="$ti" -v o="$o" -v n="$n" \
        'BEGIN { printf "%.1f %.1f %.2f", t / o / 1e6, t / n / 1e6, o / n }')"
    printf '%-14s %14s %9s %9s %10s %10s %7sx\n' "${names[$i]}" "$ti" "$o" "$n" "$om" "$nm" "$sp"
    logsum=$(awk -v s="$logsum" -v r="$sp" 'BEGIN { print s + log(r) }')
    count=$((count + 1))
done
[ "$count" -gt 0 ] && awk -v s="$logsum" -v n="$count" \
    'BEGIN { printf "geometric mean speed-up, new against previous core: %.2fx (target 2.5x)\n", exp(s / n) }'

# ---- host threads and event consumers, this build only (wall time, least of REPS)
wall() {
    local t=
    if /usr/bin/time -o "$W/time.txt" -f '%e' "$NEW" run "$@" >/dev/null 2>&1; then
        t=$(tail -n 1 "$W/time.txt")
    fi
    echo "${t:-fail}"
}
echo
printf '%-14s %10s %10s %8s   %10s %10s %10s %8s %8s\n' program 1-thread-s 2-thread-s ratio \
    none-s stats-s trace-s stats/x trace/x
for i in "${!names[@]}"; do
    read -r -a cmd <<<"${cmds[$i]}"
    t1=fail t2=fail e0=fail es=fail et=fail
    for r in $(seq "$REPS"); do
        t1=$(minof "$t1" "$(wall --threads=1 -- "${cmd[@]}")")
        t2=$(minof "$t2" "$(wall --threads=2 -- "${cmd[@]}")")
        e0=$(minof "$e0" "$(cpu "$NEW" "" "${cmd[@]}")")
        es=$(minof "$es" "$(cpu "$NEW" "--stats=$W/stats.txt" "${cmd[@]}")")
        et=$(minof "$et" "$(cpu "$NEW" "--trace=$W/t.trace" "${cmd[@]}")")
    done
    awk -v n="${names[$i]}" -v a="$t1" -v b="$t2" -v z="$e0" -v s="$es" -v t="$et" 'BEGIN {
        printf "%-14s %10s %10s %7.2fx   %10s %10s %10s %7.2fx %7.2fx\n", n, a, b, (b > 0 ? a / b : 0),
               z, s, t, (z > 0 ? s / z : 0), (z > 0 ? t / z : 0) }'
done
rm -f "$W/t.trace"
