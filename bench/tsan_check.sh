#!/usr/bin/env bash
# tsan_check.sh: the host threads' handoffs under ThreadSanitizer, in one run.
#
# Builds ptxsim with `make TSAN=1` (build/tsan: the library, the shims and the CLI instrumented;
# `ptxsim run` preloads the TSan runtime ahead of the shim) and runs the speed anchors of
# ../shared/anchor (vecadd, matmul, reduce, at small sizes: TSan runs 5-15x slower) under the
# configurations whose host threads share state: the parallel functional engine, GPUDet's
# quanta and commits, and the cycle model's windows, weave and channel threads (`--timing` with
# 2 and 4 host threads on several GPUs), with the interpreter and with the JIT (its compiled
# code is not instrumented; the engine around it is). Each report goes to build/tsan/reports;
# the script prints every configuration's verdict and exits 1 when any run failed or reported.
# Why not in `make check`: the instrumented build takes minutes of this machine's two cores and
# finds nothing the determinism suites would miss unless the race shows; it is the check to run
# after changing code that several host threads touch (timing/model/run.c, memsys.c's weave,
# the engine's pools). Many kernels (this one's 6.x) place mappings where TSan's shadow cannot
# live; the runs go through `setarch -R` (no address randomisation) for that reason.
# Environment: NVCC, ANCHORS (default ../shared/anchor), MAKEFLAGS for the build.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
NVCC=${NVCC:-nvcc}
ANCHORS=${ANCHORS:-$ROOT/../shared/anchor}
B=$ROOT/build/tsan
make TSAN=1 -j"$(nproc)" all >"$ROOT/build/tsan-build.log" 2>&1 ||
    { echo "tsan_check: the TSan build failed (see build/tsan-build.log)" >&2; exit 1; }
W=$B/bench
R=$B/reports
mkdir -p "$W" "$R"
rm -f "$R"/report.*
for p in vecadd matmul reduce; do
    if [ ! -x "$W/$p" ] || [ "$ANCHORS/$p.cu" -nt "$W/$p" ]; then
        "$NVCC" -O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets -o "$W/$p" \
            "$ANCHORS/$p.cu" >"$W/$p.log" 2>&1 || { echo "tsan_check: nvcc failed on $p" >&2; exit 1; }
    fi
done
norand=()
setarch "$(uname -m)" -R true 2>/dev/null && norand=(setarch "$(uname -m)" -R)
programs=("vecadd 262144" "matmul 64" "reduce 65536 64")
configs=(
    "--threads=2"
    "--threads=2 --det=gpudet"
    "--threads=2 --timing --gpu=gtx480"
    "--threads=2 --timing --gpu=v100"
    "--threads=4 --timing --gpu=a100"
    "--threads=2 --timing --det=gpudet --gpu=v100"
    "--threads=2 --timing --engine=jit --gpu=v100"
)
bad=0
for c in "${configs[@]}"; do
    for p in "${programs[@]}"; do
        before=$(find "$R" -name 'report.*' | wc -l)
        # shellcheck disable=SC2086
        out=$(TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 log_path=$R/report" \
            XDG_CACHE_HOME="$B/jit-cache" "${norand[@]}" "$B/bin/ptxsim" run $c -- "$W"/$p 2>&1)
        rc=$?
        after=$(find "$R" -name 'report.*' | wc -l)
        verdict=ok
        if [ $rc -ne 0 ] || ! grep -q PASS <<<"$out"; then verdict="failed (rc $rc)"; bad=1; fi
        if [ "$after" -gt "$before" ]; then verdict="TSan reported (see $R)"; bad=1; fi
        printf '%-48s %-18s %s\n' "$c" "${p%% *}" "$verdict"
    done
done
if [ $bad = 0 ]; then echo "tsan_check: no report in ${#configs[@]} configurations x ${#programs[@]} programs"
else echo "tsan_check: reports or failures (above)"; fi
exit $bad
