#!/usr/bin/env bash
# jit_exit_race.sh: a program that returns from main while ptxsim compiles its kernel on a
# device thread (bench/programs/exit_during_compile.cu), at delays from FROM to TO ms in steps
# of STEP, under --engine=jit and --engine=auto (--jit-threshold=1) with an empty disk cache.
# Every run must end with status 0 and its PASS line: exit() runs the destructors LLVM
# registered during earlier compiles, and engine.c's exit handler (stop_llvm_at_exit) must run
# before them and wait for the compile in progress. Before 2026-11-29, 1 to 8 of the 19
# --engine=jit delays crashed or aborted at exit on this project's VM, from one sweep to the next. Why not in make check: the
# race needs a compile of several seconds and a sweep of delays; run it after changing
# emulator/jit/engine.c's threads or exit handling.
# Environment: B (build dir, default build), NVCC, FROM (800), TO (3500), STEP (150).
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
NVCC=${NVCC:-nvcc}
W=$B/bench-exit-race
mkdir -p "$W"
exe=$W/exit_during_compile
if [ ! -x "$exe" ] || [ bench/programs/exit_during_compile.cu -nt "$exe" ]; then
    "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -o "$exe" \
        bench/programs/exit_during_compile.cu >"$W/build.log" 2>&1 ||
        { echo "jit_exit_race: nvcc failed (see $W/build.log)" >&2; exit 1; }
fi
bad=0
runs=0
for engine in jit auto; do
    for d in $(seq "${FROM:-800}" "${STEP:-150}" "${TO:-3500}"); do
        rm -rf "$W/cache"
        XDG_CACHE_HOME=$W/cache DELAY_MS=$d timeout 300 "$B/bin/ptxsim" run --engine=$engine \
            --jit-threshold=1 -- "$exe" >"$W/out" 2>&1
        rc=$?
        runs=$((runs + 1))
        if [ $rc -ne 0 ] || ! grep -q '^PASS' "$W/out"; then
            echo "--engine=$engine, exit after $d ms: status $rc"
            bad=$((bad + 1))
        fi
    done
done
echo "jit_exit_race: $bad of $runs runs failed"
[ $bad = 0 ]
