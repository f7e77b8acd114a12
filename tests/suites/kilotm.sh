#!/usr/bin/env bash
# kilotm.sh: KILO TM (--tm=kilotm, timing/kilotm/) over host threads, seeds and concurrency
# limits, against the same program without --tm, under compare mode, and the load-time checks
# of transactions (frontend/ptx_tx.c).
# - tests/cuda/tm_kilotm.cu (counters, bank transfers, hash table, byte counters, local memory,
#   a pair read torn only without opacity, nesting, one word hammered by every thread; each
#   against a CPU reference) passes under
#   --tm=kilotm for --threads=1,2,4, seeds 0 and 5, --tm-warps=0 (unlimited), 1 and 2 (default),
#   and on the JIT; without --tm the same counters lose updates;
# - --engine=compare with --tm=kilotm (block interpreter and JIT, each against the step
#   interpreter);
# - every tests/ptx/tm/bad_*.ptx is refused by `ptxsim ptx --load` with an error naming the PTX
#   line its first line gives, ok.ptx loads; a CUDA program with a barrier inside a transaction
#   gets cudaErrorInvalidPtx and the PTX line;
# - --tm=kilotm with --det=gpudet (the default limit, --tm-warps=1 and 0): the program passes
#   with the same statistics over threads 1/2/4, seeds, the JIT and compare mode, the limit
#   holds, and a transaction sees its lane's own buffered store; --det=dab is refused (exit 2)
#   with a reason;
# - with --timing (the commit units, timing/kilotm/cycles.c): the test program passes with the
#   same cycles and statistics for --threads=1,2,4, seeds, the JIT and compare mode; exact
#   commit-unit counts of one-warp kernels; false hazards only with a one-entry LWH; over
#   GPUDet (--det=gpudet --timing) the same, every commit step timed once;
# - the --stats JSON's "kilotm" member (the paper's Table 2 columns) holds the exact values of
#   one-warp kernels (tests/suites/kilotm/stats_exact.cu), at 1 and 4 host threads.
# Prints "PASS kilotm/NAME" or "FAIL kilotm/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
export B NVCC
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/kilotm
mkdir -p "$LOGS"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

pass() { echo "PASS kilotm/$1"; }
fail() { echo "FAIL kilotm/$1: $2"; }

exe=$(cuda_test_build tests/cuda/tm_kilotm.cu shared "$LOGS/build.log") ||
    { fail build "nvcc failed (see $LOGS/build.log)"; exit 1; }

# run NAME OPTIONS... [-- ARGS]: the program's own checks all pass
run() {
    local name=$1 log=$LOGS/$1
    shift
    timeout 300 "$PTXSIM" run --watchdog=120 "$@" >"$log.out" 2>"$log.err"
    local rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^PASS' "$log.out" && ! grep -q '^FAIL' "$log.out"; then
        pass "$name"
    else
        fail "$name" "exit $rc; $(grep -m1 -E '^FAIL|ptxsim:' "$log.out" "$log.err" | head -n 1)"
    fi
}

for t in 1 2 4; do
    for seed in 0 5; do
        run "threads$t.seed$seed" --tm=kilotm --threads=$t --seed=$seed -- "$exe"
    done
done
run unlimited.threads4 --tm=kilotm --tm-warps=0 --threads=4 --seed=3 -- "$exe"
run one_warp.threads2 --tm=kilotm --tm-warps=1 --threads=2 --seed=9 -- "$exe"
run jit.threads2 --tm=kilotm --engine=jit --threads=2 --seed=1 -- "$exe"
run compare.interp --tm=kilotm --engine=compare -- "$exe"
run compare.jit --tm=kilotm --engine=compare --compare-with=jit -- "$exe"
# seeded schedules abort lanes inside their transactions too (opacity): the same on both
run compare.interp.seed1 --tm=kilotm --engine=compare --threads=1 --seed=1 -- "$exe"
run compare.jit.seed5 --tm=kilotm --engine=compare --compare-with=jit --threads=1 --seed=5 -- "$exe"
# the same counters without transactions lose updates (lanes of a warp read the same old value
# and store the same new one: on every schedule, so one thread shows it)
run without_tm_loses_updates --threads=1 -- "$exe" --expect-lost

# statistics: the run's transactions, and aborts when lanes of a warp conflict
"$PTXSIM" run --tm=kilotm --threads=1 --stats -- "$exe" >"$LOGS/stats.out" 2>"$LOGS/stats.err"
line=$(grep '^kilotm:' "$LOGS/stats.err")
committed=$(sed -n 's/^kilotm: \([0-9]*\) transactions committed, \([0-9]*\) aborted.*/\1/p' <<<"$line")
aborted=$(sed -n 's/^kilotm: \([0-9]*\) transactions committed, \([0-9]*\) aborted.*/\2/p' <<<"$line")
# 384 threads x 4 counters + 384 x 3 transfers + 384 inserts + 128 bytes + 384 local + 128
# nested (outermost only) + 384 x 4 rounds of the pair + 1024 x 2 on one word
want=$((384 * 4 + 384 * 3 + 384 + 128 + 384 + 128 + 384 * 4 + 2048))
if [ "${committed:-0}" = "$want" ] && [ "${aborted:-0}" -gt 0 ]; then
    pass stats
else
    fail stats "want $want committed and some aborted, got: $line"
fi
# with another schedule, readers of the pair see it change under them and leave early
"$PTXSIM" run --tm=kilotm --threads=1 --seed=1 --stats -- "$exe" >"$LOGS/stats1.out" 2>"$LOGS/stats1.err"
early=$(sed -n 's/^kilotm: .*; \([0-9]*\) inside the transaction on a stale read.*/\1/p' "$LOGS/stats1.err")
if [ "${early:-0}" -gt 0 ] && grep -q '^PASS opacity_consistent_reads' "$LOGS/stats1.out"; then
    pass opacity_aborts_inside
else
    fail opacity_aborts_inside "no abort inside a transaction, or the pair was seen torn: $(grep -m1 -E '^FAIL|^kilotm' "$LOGS/stats1.out" "$LOGS/stats1.err")"
fi

# the Table 2 statistics in the --stats JSON, on one-warp kernels whose values are known exactly
# (tests/suites/kilotm/stats_exact.cu says why each value is what it is)
exact=$(cuda_cache_build stats_exact.shared "$LOGS/exact.build.log" \
        "-cudart shared -Wno-deprecated-gpu-targets -Iinclude tests/suites/kilotm/stats_exact.cu" \
        tests/suites/kilotm/stats_exact.cu include/ptxsim/kilotm.h) ||
    { fail stats_exact_build "nvcc failed (see $LOGS/exact.build.log)"; exit 1; }
stats_json() {   # NAME KERNEL THREADS WANT: the run passes and its "kilotm" member is WANT
    local name=$1 json=$LOGS/$1.json
    rm -f "$json"
    "$PTXSIM" run --tm=kilotm --threads="$3" --stats="$json" -- "$exact" "$2" >"$LOGS/$name.out" 2>&1
    local got
    got=$(python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kilotm"]; k.pop("tm_warps"); print(json.dumps(k, sort_keys=True))' "$json" 2>&1)
    if grep -q '^PASS' "$LOGS/$name.out" && [ "$got" = "$4" ]; then
        pass "$name"
    else
        fail "$name" "want $4, got $got ($(head -n 1 "$LOGS/$name.out"))"
    fi
}
sets='{"aborted": 0, "aborted_inside": 0, "aborts_per_tx": {"max": 0, "mean": 0.0}, "begin_deferrals": 0, "committed": 32, "max_concurrent_tx": 32, "max_concurrent_tx_per_sm": 32, "read_set_words": {"max": 4, "mean": 2.5}, "warp_commits": 1, "write_set_words": {"max": 2, "mean": 1.5}}'
word='{"aborted": 496, "aborted_inside": 0, "aborts_per_tx": {"max": 31, "mean": 15.5}, "begin_deferrals": 0, "committed": 32, "max_concurrent_tx": 32, "max_concurrent_tx_per_sm": 32, "read_set_words": {"max": 1, "mean": 1.0}, "warp_commits": 32, "write_set_words": {"max": 1, "mean": 1.0}}'
for t in 1 4; do
    stats_json "stats_json.sets.threads$t" sets $t "$sets"
    stats_json "stats_json.one_word.threads$t" one_word $t "$word"
done
# without --tm there is no "kilotm" member
"$PTXSIM" run --threads=1 --stats="$LOGS/notm.json" -- "$exact" sets >"$LOGS/notm.out" 2>&1
if python3 -c 'import json,sys; sys.exit("kilotm" in json.load(open(sys.argv[1])))' "$LOGS/notm.json"; then
    pass stats_json.without_tm
else
    fail stats_json.without_tm "a \"kilotm\" member without --tm (or no JSON)"
fi

# load-time checks on hand-written PTX
for f in tests/ptx/tm/*.ptx; do
    name=load.$(basename "$f" .ptx)
    read -r _ _ line text <<<"$(head -n 1 "$f")"
    "$PTXSIM" ptx "$f" --load >"$LOGS/$name.out" 2>&1
    rc=$?
    if [ "$line" = none ]; then
        [ "$rc" -eq 0 ] && pass "$name" || fail "$name" "exit $rc: $(head -n 1 "$LOGS/$name.out")"
    elif [ "$rc" -ne 0 ] && grep -q -- "$(basename "$f"):$line:.*$text" "$LOGS/$name.out"; then
        pass "$name"
    else
        fail "$name" "want an error at PTX line $line ($text), got exit $rc: $(head -n 1 "$LOGS/$name.out")"
    fi
done

bad=$(cuda_cache_build barrier_inside.shared "$LOGS/bad.build.log" \
      "-cudart shared -Wno-deprecated-gpu-targets -Iinclude tests/suites/kilotm/barrier_inside.cu" \
      tests/suites/kilotm/barrier_inside.cu include/ptxsim/kilotm.h) ||
    { fail barrier_build "nvcc failed (see $LOGS/bad.build.log)"; exit 1; }
"$PTXSIM" run --tm=kilotm -- "$bad" >"$LOGS/bad.out" 2>"$LOGS/bad.err"
if grep -q 'launch: cudaErrorInvalidPtx' "$LOGS/bad.out" &&
   grep -qE ":[0-9]+:[0-9]+: error: in function '_Z1kPi': 'bar': a barrier inside a transaction" \
       "$LOGS/bad.err"; then
    pass barrier_inside_refused
else
    fail barrier_inside_refused "$(cat "$LOGS/bad.out" "$LOGS/bad.err" | head -n 3)"
fi

# ---- over GPUDet (--det=gpudet): commits, and the begins that take a concurrency slot, in
# serial mode; the program's results, the transactions' statistics and GPUDet's own are the same
# for any host thread count, seed and executor, with the default limit (2 warps per SM), one
# warp and no limit (there the concurrency maxima are left out: with no slot to take, begins run
# in parallel mode, whose host-thread order GPUDet does not fix)
det_json() {   # NAME ARGS...: the run passes; prints the statistics that must not vary
    local name=$1 json=$LOGS/$1.json
    shift
    rm -f "$json"
    timeout 300 "$PTXSIM" run --watchdog=120 --tm=kilotm --det=gpudet \
        --stats="$json" "$@" >"$LOGS/$name.out" 2>"$LOGS/$name.err" || return
    grep -q '^PASS' "$LOGS/$name.out" && ! grep -q '^FAIL' "$LOGS/$name.out" || return
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["total"]; k=d["kilotm"]
t.pop("host_seconds", None)
if k["tm_warps"] == 0: k.pop("max_concurrent_tx"); k.pop("max_concurrent_tx_per_sm")
print(json.dumps([t, k], sort_keys=True))' "$json"
}
# det_same PREFIX REF-OPTIONS -- VARIANTS...: each variant ("name options") gives REF's statistics
det_same() {
    local prefix=$1 ref refopts=()
    shift
    while [ "$1" != -- ]; do refopts+=("$1"); shift; done
    shift
    ref=$(det_json "$prefix.threads1" --threads=1 "${refopts[@]}" -- "$exe")
    if [ -n "$ref" ]; then pass "$prefix.threads1"; else fail "$prefix.threads1" "failed: see $LOGS/$prefix.threads1.*"; fi
    for v in "$@"; do
        read -r name opts <<<"$v"
        # shellcheck disable=SC2086
        got=$(det_json "$prefix.$name" "${refopts[@]}" $opts -- "$exe")
        if [ -n "$ref" ] && [ "$got" = "$ref" ]; then pass "$prefix.$name"
        else fail "$prefix.$name" "differs from --threads=1 (or failed): see $LOGS/$prefix.$name.*"; fi
    done
}
det_same det -- "threads2.seed5 --threads=2 --seed=5" "threads4.seed0 --threads=4" \
    "threads4.seed7 --threads=4 --seed=7" "jit.threads2 --engine=jit --threads=2"
# the default limit took slots and made warps wait, within it
if python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kilotm"]
sys.exit(not (k["tm_warps"] == 2 and k["begin_deferrals"] > 0 and k["max_concurrent_tx_per_sm"] <= 64))' \
    "$LOGS/det.threads1.json" 2>/dev/null; then
    pass det.limit_held
else
    fail det.limit_held "no deferred begin, or more than 2 warps per SM in transactions"
fi
det_same det.one_warp --tm-warps=1 -- "threads4.seed3 --threads=4 --seed=3"
det_same det.unlimited --tm-warps=0 -- "threads4.seed0 --threads=4"
# W-Ser order (slots go by hardware warp ID over the GPU) with shorter quanta
det_same det.wser --gpudet-serial=warp --quantum=100 -- "threads4.seed3 --threads=4 --seed=3"
# compare mode (both executors over GPUDet): the same doubled statistics at 1 and 4 host threads
det_same det.compare --engine=compare -- "threads4.seed5 --threads=4 --seed=5"
# a transaction reads the lane's own earlier store (GPUDet buffers it)
for t in 1 4; do
    if [ -n "$(det_json "det.own_store.threads$t" --threads=$t -- "$exact" own_store)" ]; then
        pass "det.own_store.threads$t"
    else
        fail "det.own_store.threads$t" "$(head -n 1 "$LOGS/det.own_store.threads$t.out")"
    fi
done

# combinations not built yet are refused before the program starts
for combo in "--det=dab" "--det=dab --tm-warps=0" "--det=dab --timing"; do
    # shellcheck disable=SC2086
    "$PTXSIM" run --tm=kilotm $combo -- "$exe" >"$LOGS/refuse.out" 2>"$LOGS/refuse.err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q -e "--tm=kilotm cannot be combined with" "$LOGS/refuse.err" &&
       ! grep -q '^PASS' "$LOGS/refuse.out"; then
        pass "refused${combo//[-= ]/_}"
    else
        fail "refused${combo//[-= ]/_}" "exit $rc: $(head -n 1 "$LOGS/refuse.err")"
    fi
done

# ---- the commit units in cycles (--timing; timing/kilotm/cycles.c)
# timed_json NAME ARGS...: runs with --stats=JSON, prints the cycles, the "timing" object and the
# "kilotm" member (all must be the same on every run of one program), or nothing on a failure
timed_json() {
    local name=$1 json=$LOGS/$1.json
    shift
    rm -f "$json"
    timeout 300 "$PTXSIM" run --watchdog=120 --timing --tm=kilotm --stats="$json" "$@" \
        >"$LOGS/$name.out" 2>"$LOGS/$name.err" || return
    grep -q '^PASS' "$LOGS/$name.out" && ! grep -q '^FAIL' "$LOGS/$name.out" || return
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["total"]
print(json.dumps([t["cycles"], t["timing"], d["kilotm"]], sort_keys=True))' "$json"
}
# the test program under the cycle model: its checks pass, and cycles and every statistic are
# the same for any host thread count, seed and executor (compare mode: the model's statistics
# once, the functional model's counts of both runs)
ref=$(timed_json timed.threads1 --gpu=gtx480 --threads=1 -- "$exe")
if [ -n "$ref" ] && python3 -c 'import json,sys; c,t,k=json.loads(sys.argv[1]); sys.exit(not (c > 0 and t["kilotm"]["tx_commits"] == k["committed"] + k["aborted"] - k["aborted_inside"] and t["kilotm"]["warp_commits"] == k["warp_commits"]))' "$ref"; then
    pass timed.threads1
else
    fail timed.threads1 "no run, or the commit units did not see every commit ($ref)"
fi
for v in "threads2.seed5 --threads=2 --seed=5" "threads4.seed0 --threads=4" "jit.threads2 --engine=jit --threads=2 --seed=3"; do
    read -r name opts <<<"$v"
    # shellcheck disable=SC2086
    got=$(timed_json "timed.$name" --gpu=gtx480 $opts -- "$exe")
    if [ -n "$ref" ] && [ "$got" = "$ref" ]; then pass "timed.$name"
    else fail "timed.$name" "differs from --threads=1 (or failed): see $LOGS/timed.$name.*"; fi
done
got=$(timed_json timed.compare --gpu=gtx480 --engine=compare --threads=2 -- "$exe")
if [ -n "$got" ] && python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); sys.exit(not (a[0] == b[0] and a[1] == b[1] and a[2]["committed"] == 2 * b[2]["committed"]))' "$got" "$ref"; then
    pass timed.compare
else
    fail timed.compare "compare mode's cycles or counts differ (see $LOGS/timed.compare.*)"
fi
# over GPUDet (--det=gpudet --timing): GPUDet's replay times the commit steps its serial mode
# ran; the same functional statistics as --det=gpudet alone, every step timed once, and the same
# cycles and statistics for any host thread count, seed and executor, and under compare mode
ref=$(timed_json timed.det.threads1 --det=gpudet --gpu=gtx480 --threads=1 -- "$exe")
if [ -n "$ref" ] && python3 -c 'import json,sys; c,t,k=json.loads(sys.argv[1]); d=json.load(open(sys.argv[2]))["kilotm"]
sys.exit(not (c > 0 and k == d and t["kilotm"]["tx_commits"] == k["committed"] + k["aborted"] - k["aborted_inside"] and t["kilotm"]["warp_commits"] == k["warp_commits"] and t["kilotm"]["commit_cycles"] > 0))' "$ref" "$LOGS/det.threads1.json"; then
    pass timed.det.threads1
else
    fail timed.det.threads1 "failed, or the commit units did not see every step (see $LOGS/timed.det.threads1.*)"
fi
for v in "threads4.seed3 --threads=4 --seed=3" "jit.threads2 --engine=jit --threads=2"; do
    read -r name opts <<<"$v"
    # shellcheck disable=SC2086
    got=$(timed_json "timed.det.$name" --det=gpudet --gpu=gtx480 $opts -- "$exe")
    if [ -n "$ref" ] && [ "$got" = "$ref" ]; then pass "timed.det.$name"
    else fail "timed.det.$name" "differs from --threads=1 (or failed): see $LOGS/timed.det.$name.*"; fi
done
got=$(timed_json timed.det.compare --det=gpudet --gpu=gtx480 --engine=compare --threads=2 -- "$exe")
if [ -n "$got" ] && python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); sys.exit(not (a[0] == b[0] and a[1] == b[1] and a[2]["committed"] == 2 * b[2]["committed"]))' "$got" "$ref"; then
    pass timed.det.compare
else
    fail timed.det.compare "compare mode's cycles or counts differ (see $LOGS/timed.det.compare.*)"
fi
# exact commit-unit counts of one-warp kernels (stats_exact.cu): `sets` sends 32 lanes' 80 read
# and 48 write entries, validates 80 words and commits 48, with no hazard (no word shared);
# `one_word` has 32 commit steps of 32, 31, ..., 1 lanes (528 transactions, 1056 entries), each
# step's first lane passes and every later lane of the step reads the word it writes before it
# retires: 31 + 30 + ... = 496 real hazards, each revalidating its one word (528 + 496 reads)
unit_json() {   # NAME GPU KERNEL WANT
    local got
    got=$(timed_json "$1" --gpu="$2" --threads=2 -- "$exact" "$3" | python3 -c 'import json,sys
t=json.loads(sys.stdin.read())[1]["kilotm"]
print(" ".join(str(t[k]) for k in ("warp_commits", "tx_commits", "log_entries", "validation_reads", "revalidations", "false_hazards", "commit_writes", "begin_waits")))' 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1" "want $4, got $got"; fi
}
# copies of gtx480 with perfect hazard detection and with a one-entry LWH and one RBF bucket
sed 's/^kilotm_lwh_entries *= *512 /kilotm_lwh_entries = 0 /' timing/configs/gtx480.gpu >"$LOGS/gtx480_perfect.gpu"
sed -e 's/^kilotm_lwh_entries *= *512 /kilotm_lwh_entries = 1 /' -e 's/^kilotm_lwh_ways *= *4 /kilotm_lwh_ways = 1 /' \
    -e 's/^kilotm_rbf_buckets *= *256 /kilotm_rbf_buckets = 1 /' -e 's/^kilotm_rbf_hashes *= *4 /kilotm_rbf_hashes = 1 /' \
    timing/configs/gtx480.gpu >"$LOGS/gtx480_tiny_lwh.gpu"
unit_json timed.sets gtx480 sets "1 32 128 80 0 0 48 0"
unit_json timed.one_word gtx480 one_word "32 528 1056 1024 496 0 32 0"
unit_json timed.one_word.perfect_lwh "$LOGS/gtx480_perfect.gpu" one_word "32 528 1056 1024 496 0 32 0"
# a one-entry LWH (and one RBF bucket): reads find the bucket of another word's evicted writer,
# not retired yet: false hazards, revalidations and commit cycles that perfect detection does
# not have; the program's results are the same
got=$(timed_json timed.tiny_lwh --gpu="$LOGS/gtx480_tiny_lwh.gpu" --threads=2 -- "$exe")
perfect=$(timed_json timed.perfect_lwh --gpu="$LOGS/gtx480_perfect.gpu" --threads=2 -- "$exe")
if [ -n "$got" ] && [ -n "$perfect" ] && python3 -c 'import json,sys; a=json.loads(sys.argv[1]); p=json.loads(sys.argv[2]); ka=a[1]["kilotm"]; kp=p[1]["kilotm"]
sys.exit(not (ka["false_hazards"] > 0 and kp["false_hazards"] == 0 and ka["revalidations"] > kp["revalidations"] and ka["commit_cycles"] > kp["commit_cycles"]))' "$got" "$perfect"; then
    pass timed.tiny_lwh_false_hazards
else
    fail timed.tiny_lwh_false_hazards "want false hazards only with the tiny LWH, and more revalidations and commit cycles"
fi
