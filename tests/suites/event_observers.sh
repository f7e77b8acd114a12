#!/usr/bin/env bash
# event_observers.sh: the consumers of the executor's event stream.
# - --stats metrics: each kernel of event_observers/access_patterns.cu runs on its own (one
#   launch per run, PTXSIM_STATS to a file) and must report the sectors per global request and
#   the wavefronts per shared request that its access pattern has by construction: strides of
#   1, 2, 8 and 32 words give 4, 8, 32 and 32 sectors (32 lanes x 4 bytes, 32-byte sectors); shared
#   strides of 1, 2, 4 and 32 words give 1, 2, 4 and 32 wavefronts (k lanes' distinct words in
#   one bank).
# - --trace: `ptxsim trace` prints the same lines for a GPU-Racey run on 1, 2 and 4 host threads
#   under --det=gpudet, its --summary agrees with the --stats instruction count, and a damaged
#   file is reported, not crashed on; the trace and --stats are byte-identical under
#   --engine=interp, jit (its event variant) and auto (switching to it mid-launch).
# - --stats as JSON counts the launches that faulted, per kernel with the first error, and in
#   the total (tests/cuda/illegal_address.cu: one out-of-bounds and one misaligned launch among
#   launches that behave).
# One "PASS event_observers/..." or "FAIL ...: why" line per check.
# Environment: B (build dir, default build), NVCC (default nvcc).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
W=$B/tests/event_observers
mkdir -p "$W"
build() {   # build SRC EXE
    if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
        "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -lineinfo -o "$2" "$1" >"$2.log" 2>&1 ||
            { echo "FAIL event_observers/build: nvcc failed on $1 (see $2.log)"; exit 1; }
    fi
}
build tests/suites/event_observers/access_patterns.cu "$W/access_patterns"
build examples/gpu_racey/gpu_racey.cu "$W/gpu_racey"
build tests/cuda/illegal_address.cu "$W/illegal_address"

# --- metrics: a kernel's rows add up over its launches, so the expectations are the totals
# over each kernel's four launches.
"$PTXSIM" run --stats="$W/stats.txt" --threads=1 -- "$W/access_patterns" >"$W/run.out" 2>&1
if ! grep -q '^ran$' "$W/run.out"; then
    echo "FAIL event_observers/metrics: the program failed: $(tail -n 3 "$W/run.out")"
else
    # global_stride: loads with strides 1, 2, 8, 32 -> 4, 8, 32, 32 sectors, and the stores of
    # out[t] 4 each: 76 + 16 = 92 over 8 requests = 11.50
    g=$(awk '/^global_stride/ {k=1} k && /global memory:/ {print; exit}' "$W/stats.txt")
    case $g in
        *"8 requests, 11.50 sectors per request"*) echo "PASS event_observers/global_sectors" ;;
        *) echo "FAIL event_observers/global_sectors: expected 8 requests and 11.50 sectors per request (loads 4, 8, 32, 32; stores 4), got: ${g:-nothing}" ;;
    esac
    # shared_stride: stores with strides 1, 2, 4, 32 -> 1, 2, 4, 32 wavefronts, and the loads
    # of s[t] after the barrier 1 each: 39 + 4 = 43 over 8 requests = 5.38
    s=$(awk '/^shared_stride/ {k=1} k && /shared memory:/ {print; exit}' "$W/stats.txt")
    case $s in
        *"8 requests, 5.38 wavefronts per request (35 bank conflicts)"*) echo "PASS event_observers/shared_bank_conflicts" ;;
        *) echo "FAIL event_observers/shared_bank_conflicts: expected 8 requests, 5.38 wavefronts per request, 35 conflicts, got: ${s:-nothing}" ;;
    esac
fi

# --- trace: the same printed trace on 1, 2 and 4 host threads under GPUDet
prev=""
ok=1
for t in 1 2 4; do
    "$PTXSIM" run --det=gpudet --threads=$t --seed=$t --trace="$W/racey.$t.trace" \
        --stats="$W/racey.$t.stats" -- "$W/gpu_racey" --kernel racey_atomic_add >/dev/null 2>&1
    "$PTXSIM" trace "$W/racey.$t.trace" >"$W/racey.$t.txt" 2>&1 || ok=0
    sum=$(md5sum <"$W/racey.$t.txt" | cut -c1-16)
    [ -n "$prev" ] && [ "$sum" != "$prev" ] && ok=0
    prev=$sum
done
lines=$(wc -l <"$W/racey.1.txt")
if [ "$ok" = 1 ] && [ "$lines" -gt 100 ]; then
    echo "PASS event_observers/trace_same_on_any_threads ($lines instructions)"
else
    echo "FAIL event_observers/trace_same_on_any_threads: the printed traces differ between host thread counts (or are empty: $lines lines); see $W/racey.*.txt"
fi
# --summary counts every instruction --stats counts
traced=$("$PTXSIM" trace "$W/racey.1.trace" --summary |
         sed -nE 's/.*: ([0-9]+) warp instructions:.*/\1/p' | awk '{n += $1} END {print n + 0}')
stated=$(awk '/instructions: [0-9]+ warp/ {n += $2} END {print n + 0}' "$W/racey.1.stats")
if [ "$traced" -gt 0 ] && [ "$traced" = "$stated" ]; then
    echo "PASS event_observers/trace_counts_every_instruction ($traced)"
else
    echo "FAIL event_observers/trace_counts_every_instruction: trace --summary counts $traced, --stats $stated"
fi
# a damaged file: a clear message and a non-zero status, no crash
head -c 300 "$W/racey.1.trace" >"$W/damaged.trace"
"$PTXSIM" trace "$W/damaged.trace" >/dev/null 2>"$W/damaged.err"
rc=$?
if [ "$rc" -lt 128 ] && grep -q 'ptxsim trace:' "$W/damaged.err"; then
    echo "PASS event_observers/damaged_trace_reported"
else
    echo "FAIL event_observers/damaged_trace_reported: exit $rc, stderr: $(head -n 2 "$W/damaged.err")"
fi
# every executor records the same events: the JIT's event variant, and auto switching to it
# mid-launch (--jit-threshold=1), give a --trace file and --stats metrics byte-identical to
# the interpreter's (one host thread: one schedule)
ok=1 why=
for e in interp jit auto; do
    if ! "$PTXSIM" run --threads=1 --engine=$e --jit-threshold=1 --stats="$W/exec.$e.stats" \
         --trace="$W/exec.$e.trace" -- "$W/access_patterns" >"$W/exec.$e.out" 2>&1; then
        ok=0 why="--engine=$e failed"
    fi
    # the per-kernel metrics (instructions, mix, sectors, wavefronts): the indented lines
    grep '^  ' "$W/exec.$e.stats" >"$W/exec.$e.stats.cmp"
done
for e in jit auto; do
    cmp -s "$W/exec.interp.trace" "$W/exec.$e.trace" || { ok=0 why="$why; the $e trace differs"; }
    cmp -s "$W/exec.interp.stats.cmp" "$W/exec.$e.stats.cmp" || { ok=0 why="$why; the $e statistics differ"; }
done
if [ "$ok" = 1 ] && [ -s "$W/exec.interp.trace" ]; then
    echo "PASS event_observers/same_events_on_every_executor (interp, jit, auto)"
else
    echo "FAIL event_observers/same_events_on_every_executor: ${why:-empty trace}; see $W/exec.*"
fi

# --- failed launches in the statistics
"$PTXSIM" run --stats="$W/faults.json" -- "$W/illegal_address" >"$W/faults.out" 2>&1
why=$(python3 - "$W/faults.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k = {x["name"].split("(")[0]: x for x in d["kernels"]}
want = {"write_at": (1, "cudaErrorIllegalAddress"), "misaligned": (1, "cudaErrorMisalignedAddress"),
        "ok_kernel": (0, None)}
bad = [f"{n}: {k[n]['failed_launches']} {k[n].get('first_error')}, want {f} {e}"
       for n, (f, e) in want.items()
       if n not in k or k[n]["failed_launches"] != f or k[n].get("first_error") != e]
if d["total"]["failed_launches"] != 2: bad.append(f"total {d['total']['failed_launches']}, want 2")
print("; ".join(bad))
PY
)
if [ -z "$why" ] && grep -q '^PASS misaligned_reported' "$W/faults.out"; then
    echo "PASS event_observers/failed_launches_counted"
else
    echo "FAIL event_observers/failed_launches_counted: ${why:-the program failed}; see $W/faults.*"
fi
