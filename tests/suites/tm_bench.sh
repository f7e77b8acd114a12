#!/usr/bin/env bash
# tm_bench.sh: the KILO TM benchmarks of bench/tm/ (HT-H, HT-L, ATM, CL, BH, CC, AP), each
# built three ways from its one source (-DSYNC_TM transactions, -DSYNC_FGL fine-grained locks,
# -DSYNC_GL one global lock; bench/tm/sync.cuh), give their CPU reference's result:
# - the transactional builds under --tm=kilotm for --threads=1,2,4 x seeds 0 and 5, and once
#   each under --engine=compare, with no concurrency limit (--tm-warps=0, the paper's Table 2
#   setting) and with one transactional warp per SM on the JIT;
# - the lock builds under --tm=kilotm and without it, over the same thread counts and seeds
#   (each pair of thread count and seed once, half with --tm and half without: the locks do
#   not depend on the TM model, and the runs stay cheap);
# - the transactional builds under --timing (KILO TM's commit units) at 1 and 4 host threads:
#   the reference result and identical cycles and statistics;
# - the transactional builds over GPUDet (--det=gpudet) with the default limit at 1, 2 and 4
#   host threads, with --tm-warps=1 and 0 at 1 and 4: the reference result and identical
#   statistics; and once under --engine=compare; with --timing too at 1 and 4 host threads (the
#   same cycles, every commit step timed).
# Prints "PASS tm_bench/NAME" or "FAIL tm_bench/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
export B NVCC
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/tm_bench
mkdir -p "$LOGS"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

pass() { echo "PASS tm_bench/$1"; }
fail() { echo "FAIL tm_bench/$1: $2"; }

# program name, source, arguments
programs=("ht_h ht high" "ht_l ht low" "atm atm" "cl cl" "bh bh" "cc cc" "ap ap")
declare -A exe
for s in tm fgl gl; do
    for b in ht atm cl bh cc ap; do
        S=${s^^}
        exe[$b.$s]=$(cuda_cache_build "tm_bench_$b.$s" "$LOGS/build.$b.$s.log" \
            "-cudart shared -Wno-deprecated-gpu-targets -Iinclude -DSYNC_$S bench/tm/$b.cu" \
            "bench/tm/$b.cu" bench/tm/sync.cuh include/ptxsim/kilotm.h) ||
            fail "build.$b.$s" "nvcc failed (see $LOGS/build.$b.$s.log)"
    done
done

# run NAME PROGRAM-WORDS -- OPTIONS...: the program prints PASS and no FAIL, and exits 0
run() {
    local name=$1 b=$2 s=$3 arg=$4 log=$LOGS/$1
    shift 4
    [ -n "${exe[$b.$s]:-}" ] || { fail "$name" "not built"; return; }
    # shellcheck disable=SC2086
    timeout 120 "$PTXSIM" run --watchdog=60 "$@" -- "${exe[$b.$s]}" $arg >"$log.out" 2>"$log.err"
    local rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^PASS' "$log.out" && ! grep -q '^FAIL' "$log.out"; then
        pass "$name"
    else
        fail "$name" "exit $rc; $(grep -m1 -E '^FAIL|ptxsim:' "$log.out" "$log.err" | head -n 1)"
    fi
}

for p in "${programs[@]}"; do
    read -r name b arg <<<"$p"
    for t in 1 2 4; do
        for seed in 0 5; do
            run "$name.tm.threads$t.seed$seed" "$b" tm "$arg" --tm=kilotm --threads=$t --seed=$seed
            for s in fgl gl; do
                if [ $(((t + seed) % 2)) = 1 ]; then
                    run "$name.$s.tm.threads$t.seed$seed" "$b" $s "$arg" --tm=kilotm --threads=$t --seed=$seed
                else
                    run "$name.$s.threads$t.seed$seed" "$b" $s "$arg" --threads=$t --seed=$seed
                fi
            done
        done
    done
    run "$name.tm.compare" "$b" tm "$arg" --tm=kilotm --engine=compare --threads=2
    run "$name.tm.unlimited.threads4" "$b" tm "$arg" --tm=kilotm --tm-warps=0 --threads=4 --seed=3
    run "$name.tm.one_warp.jit.threads2" "$b" tm "$arg" --tm=kilotm --tm-warps=1 --engine=jit --threads=2 --seed=7
    # the cycle model with the commit units: the reference result, and the same cycles and
    # statistics at 1 and 4 host threads (and another seed)
    run "$name.tm.timing.threads1" "$b" tm "$arg" --tm=kilotm --timing --gpu=gtx480 --threads=1 \
        --stats="$LOGS/$name.timing1.json"
    run "$name.tm.timing.threads4" "$b" tm "$arg" --tm=kilotm --timing --gpu=gtx480 --threads=4 \
        --seed=5 --stats="$LOGS/$name.timing4.json"
    if python3 -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(not (a["total"] == b["total"] and a["kilotm"] == b["kilotm"] and a["total"]["timing"]["kilotm"]["tx_commits"] > 0))' \
        "$LOGS/$name.timing1.json" "$LOGS/$name.timing4.json" 2>/dev/null; then
        pass "$name.tm.timing.same_cycles"
    else
        fail "$name.tm.timing.same_cycles" "cycles or statistics differ between 1 and 4 host threads"
    fi
    # over GPUDet: the reference result, and the same statistics over host threads and seeds,
    # with the default limit (2 warps per SM: slots are taken in serial mode), one warp, and
    # none (there without the concurrency maxima: those begins run in parallel mode)
    for w in 2 1 0; do
        rm -f "$LOGS/$name.det$w".*.json
        run "$name.tm.gpudet.warps$w.threads1" "$b" tm "$arg" --tm=kilotm --det=gpudet --tm-warps=$w \
            --threads=1 --stats="$LOGS/$name.det$w.1.json"
        run "$name.tm.gpudet.warps$w.threads4" "$b" tm "$arg" --tm=kilotm --det=gpudet --tm-warps=$w \
            --threads=4 --seed=5 --stats="$LOGS/$name.det$w.4.json"
        others=("$LOGS/$name.det$w.4.json")
        if [ $w = 2 ]; then
            run "$name.tm.gpudet.warps$w.threads2" "$b" tm "$arg" --tm=kilotm --det=gpudet \
                --threads=2 --seed=9 --stats="$LOGS/$name.det$w.2.json"
            others+=("$LOGS/$name.det$w.2.json")
        fi
        if python3 -c 'import json,sys
def key(f):
    d = json.load(open(f)); t = d["total"]; k = d["kilotm"]
    t.pop("host_seconds", None)
    if k["tm_warps"] == 0: k.pop("max_concurrent_tx"); k.pop("max_concurrent_tx_per_sm")
    return t, k
a = key(sys.argv[1])
sys.exit(not (a[1]["committed"] > 0 and all(key(f) == a for f in sys.argv[2:])))' \
            "$LOGS/$name.det$w.1.json" "${others[@]}" 2>/dev/null; then
            pass "$name.tm.gpudet.warps$w.same_statistics"
        else
            fail "$name.tm.gpudet.warps$w.same_statistics" "statistics differ between host thread counts"
        fi
    done
    run "$name.tm.gpudet.compare" "$b" tm "$arg" --tm=kilotm --det=gpudet --engine=compare --threads=2
    # over GPUDet with --timing: the reference result, every commit step timed once, the same
    # cycles and statistics at 1 and 4 host threads
    rm -f "$LOGS/$name.dettiming".*.json
    run "$name.tm.gpudet.timing.threads1" "$b" tm "$arg" --tm=kilotm --det=gpudet --timing \
        --gpu=gtx480 --threads=1 --stats="$LOGS/$name.dettiming.1.json"
    run "$name.tm.gpudet.timing.threads4" "$b" tm "$arg" --tm=kilotm --det=gpudet --timing \
        --gpu=gtx480 --threads=4 --seed=5 --stats="$LOGS/$name.dettiming.4.json"
    if python3 -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b): d["total"].pop("host_seconds", None)
k, t = a["kilotm"], a["total"]["timing"]["kilotm"]
sys.exit(not (a["total"] == b["total"] and a["kilotm"] == b["kilotm"] and t["warp_commits"] == k["warp_commits"] > 0 and t["tx_commits"] == k["committed"] + k["aborted"] - k["aborted_inside"]))' \
        "$LOGS/$name.dettiming.1.json" "$LOGS/$name.dettiming.4.json" 2>/dev/null; then
        pass "$name.tm.gpudet.timing.same_cycles"
    else
        fail "$name.tm.gpudet.timing.same_cycles" "cycles or statistics differ between 1 and 4 host threads, or a commit step was not timed"
    fi
done
