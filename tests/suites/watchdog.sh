#!/usr/bin/env bash
# watchdog.sh: the watchdog ends a kernel that never ends, and under --det=gpudet its
# instruction limit (--watchdog-insts) ends it at the same point on every run: the report of
# where each unfinished warp was is the same for 1, 2 and 4 host threads and any seed. Also:
# PTXSIM_WATCHDOG in the environment works as the option does, and the report names the
# kernel, the PTX line, the source line (the program is built with -lineinfo), block and warp.
# Prints "PASS watchdog/NAME" or "FAIL watchdog/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/watchdog
mkdir -p "$LOGS" "$B/tests/cuda"
exe=$B/tests/cuda/watchdog.shared
if [ ! -x "$exe" ] || [ tests/cuda/watchdog.cu -nt "$exe" ] || [ tests/cuda/check.cuh -nt "$exe" ]; then
    "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -lineinfo -Itests/cuda \
        -o "$exe" tests/cuda/watchdog.cu >"$LOGS/build.log" 2>&1 ||
        { echo "FAIL watchdog/build: nvcc failed (see $LOGS/build.log)"; exit 1; }
fi

# the report lines of one run (stderr), after checking the program's own checks passed
report() {
    local log=$1
    shift
    timeout 120 "$@" >"$log.out" 2>"$log.err"
    local rc=$?
    if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$log.out"; then
        echo "exit $rc" >"$log.bad"
    fi
    sed -n '/where the unfinished warps were/,/failed: cudaErrorLaunchTimeout/p' "$log.err"
}

ref=""
same=1
for t in 1 2 4; do
    for seed in 0 7; do
        r=$(report "$LOGS/gpudet.t$t.s$seed" "$PTXSIM" run --det=gpudet --threads=$t --seed=$seed \
            --watchdog-insts=30000 -- "$exe")
        if [ -e "$LOGS/gpudet.t$t.s$seed.bad" ]; then
            echo "FAIL watchdog/gpudet_insts: the program's checks failed with --threads=$t (see $LOGS)"
            rm -f "$LOGS/gpudet.t$t.s$seed.bad"
            same=0
            continue
        fi
        if [ -z "$ref" ]; then
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "FAIL watchdog/gpudet_reproducible: the report with --threads=$t --seed=$seed differs"
            diff <(echo "$ref") <(echo "$r") | head -n 6
            same=0
        fi
    done
done
[ "$same" -eq 1 ] && [ -n "$ref" ] && echo "PASS watchdog/gpudet_reproducible"
if grep -q 'block (2,0,0) warp 1' <<<"$ref" && grep -q 'PTX line [0-9]* (.*watchdog.cu:[0-9]*)' <<<"$ref" &&
    grep -q 'kernel spin(int volatile\*, int\*)' <<<"$ref"; then
    echo "PASS watchdog/report_names_warps"
else
    echo "FAIL watchdog/report_names_warps: report was: $ref"
fi
if grep -q 'after [0-9][0-9]* warp instructions (--watchdog-insts=30000)' "$LOGS/gpudet.t1.s0.err"; then
    echo "PASS watchdog/insts_limit_message"
else
    echo "FAIL watchdog/insts_limit_message: $(grep watchdog "$LOGS/gpudet.t1.s0.err" | head -n 2)"
fi

# the variable, with the preloaded shim alone
SHIM=$PWD/$B/lib/libcudart.so.13
SHIM=$(ldd "$SHIM" | awk '/lib(asan|ubsan)\.so/ {printf "%s:", $3}')$SHIM
PTXSIM_WATCHDOG=1 LD_PRELOAD=$SHIM LD_LIBRARY_PATH=$PWD/$B/lib \
    timeout 120 "$exe" >"$LOGS/env.out" 2>"$LOGS/env.err"
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q '^FAIL' "$LOGS/env.out" &&
    grep -q 'after 1 s of host time (--watchdog=1)' "$LOGS/env.err"; then
    echo "PASS watchdog/environment_variable"
else
    echo "FAIL watchdog/environment_variable: exit $rc; $(head -n 3 "$LOGS/env.err")"
fi
