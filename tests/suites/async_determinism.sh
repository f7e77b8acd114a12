#!/usr/bin/env bash
# async_determinism.sh: stream work runs on ptxsim's device worker while the host goes on, and
# under --det=gpudet the memory it leaves must not depend on host timing. The program
# (tests/suites/async_determinism.cu: racing kernels on three event-chained streams, async copies,
# host functions) prints a checksum; it runs under --det=gpudet on 1, 2 and 4 host threads with
# seeds 1 to 3, each with the host sleeping for different random times between its calls
# (ASYNC_JITTER), and every checksum must equal the first. Prints "PASS async_determinism/..."
# or "FAIL async_determinism/...: why".
# Environment: B (build dir, default build), NVCC (default nvcc).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
SRC=tests/suites/async_determinism.cu
EXE=$B/tests/suites/async_determinism
LOG=$B/test-logs/async_determinism
mkdir -p "$(dirname "$EXE")" "$LOG"

if [ ! -x "$EXE" ] || [ "$SRC" -nt "$EXE" ]; then
    if ! "$NVCC" -Wno-deprecated-gpu-targets -o "$EXE" "$SRC" >"$LOG/build.log" 2>&1; then
        echo "FAIL async_determinism/build: see $LOG/build.log"
        exit 1
    fi
fi

reference=""
failed=0
runs=0
for threads in 1 2 4; do
    for seed in 1 2 3; do
        jitter=$((threads * 10 + seed))
        out=$LOG/t$threads-s$seed.out
        ASYNC_JITTER=$jitter timeout 300 "$B/bin/ptxsim" run --det=gpudet --threads=$threads \
            --seed=$seed -- "$EXE" >"$out" 2>"$LOG/t$threads-s$seed.err"
        rc=$?
        line=$(grep '^checksum' "$out")
        runs=$((runs + 1))
        if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
            echo "FAIL async_determinism/threads$threads-seed$seed: exit $rc; see $out"
            failed=1
            continue
        fi
        if [ -z "$reference" ]; then
            reference=$line
        elif [ "$line" != "$reference" ]; then
            echo "FAIL async_determinism/threads$threads-seed$seed: \"$line\", first run" \
                 "\"$reference\""
            failed=1
        fi
    done
done
[ "$failed" -eq 0 ] && echo "PASS async_determinism/gpudet_same_memory_over_host_timing ($runs runs)"
# Without the host sleeping at all the result is the same again.
line=$(timeout 300 "$B/bin/ptxsim" run --det=gpudet --threads=2 -- "$EXE" 2>/dev/null |
       grep '^checksum')
if [ -n "$reference" ] && [ "$line" = "$reference" ]; then
    echo "PASS async_determinism/no_jitter"
else
    echo "FAIL async_determinism/no_jitter: \"$line\", with jitter \"$reference\""
    failed=1
fi
[ "$failed" -eq 0 ]
