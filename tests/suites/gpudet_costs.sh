#!/usr/bin/env bash
# gpudet_costs.sh: GPUDet's hardware costs in cycles beyond its modes' order (timing/detcost/,
# spec gpudet.md S6, S7), on bench/determinism/gpudet_kinds.cu with --det=gpudet --timing on
# gtx480. One PASS/FAIL line per check:
#   log_writes        every store-buffer entry GPUDet made is one log write in the model
#                     (timing.gpudet.log_writes == gpudet.store_buffer_entries), cloth's loads
#                     search their logs, and the statistics are the same over threads 1, 4
#                     and a seed
#   bloom             an ideal filter (gpudet_bloom_bits = 0) has no false positives and no
#                     more searches than the paper's 1024 bits, a 4-bit filter (one bit per
#                     sub-array) at least as many; parallel-mode cycles in the same order
#   zcache            a one-block Z-cache misses at least as often as the 16 KiB one, which
#                     misses at least as often as a 1 MiB one, and commit mode costs in the
#                     same order; misses never exceed the requests
#   lock_commit       --gpudet-commit=lock: commit mode costs more than the Z-buffer's
#                     (paper Fig. 9: Z-buffer 60% faster) on hashtable and cloth, parallel and
#                     serial mode unchanged, the program's output the same
#   lock_refused      --gpudet-commit=lock without --timing, or without --det=gpudet: exit 2
#   sb_capacity       --gpudet-sb-entries=1: quanta end by a full store buffer
#                     (quantum_end.store_buffer > 0), the output as without it, the same
#                     statistics over threads 1 and 4
#   placement         bench/determinism/cta_placement.cu (360 CTAs of uneven length, gtx480):
#                     every CTA's SM in the model's --timeline equals the %smid it read in
#                     GPUDet's functional run, with DWP on and off (the two place > 0 CTAs
#                     differently); output and statistics the same over threads 1, 2+seed,
#                     4+seed; BTA (barriers released inside a quantum) gives fewer quanta and
#                     fewer cycles than without it
# Not in check-quick; about 12 s. Environment: B, NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/gpudet_costs
mkdir -p "$LOGS"
rm -f "$LOGS"/*.json "$LOGS"/*.out

# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
SRC=bench/determinism/gpudet_kinds.cu
if ! KINDS=$(cuda_cache_build bench_gpudet_kinds.shared "$LOGS/nvcc.txt" \
                 "-cudart shared -Wno-deprecated-gpu-targets $SRC" "$SRC"); then
    echo "FAIL gpudet_costs/build: see $LOGS/nvcc.txt"
    exit 1
fi

# run NAME KIND OPTIONS...: --det=gpudet --timing, stats in $LOGS/NAME.json
run() {
    local name=$1 kind=$2
    shift 2
    timeout 120 "$PTXSIM" run --det=gpudet --timing "$@" --stats="$LOGS/$name.json" \
        -- "$KINDS" "$kind" 1 >"$LOGS/$name.out" 2>&1 || echo "# exit $?" >>"$LOGS/$name.out"
}
gpu() {   # gpu NAME KEY VALUE: a copy of gtx480 with KEY = VALUE
    sed "s/^$2 *= *[^#]*#/$2 = $3 #/" timing/configs/gtx480.gpu >"$LOGS/$1.gpu"
}
gpu bloom0 gpudet_bloom_bits 0
gpu bloom4 gpudet_bloom_bits 4
gpu z1 zcache_bytes 128
gpu z1m zcache_bytes "1 MiB"

for k in cloth hashtable stencil; do
    run "$k-t1" "$k" --gpu=gtx480 --threads=1
    run "$k-t4" "$k" --gpu=gtx480 --threads=4 --seed=3
    run "$k-lock" "$k" --gpu=gtx480 --threads=2 --gpudet-commit=lock
    run "$k-bloom0" "$k" --gpu="$LOGS/bloom0.gpu" --threads=2
    run "$k-bloom4" "$k" --gpu="$LOGS/bloom4.gpu" --threads=2
    run "$k-z1" "$k" --gpu="$LOGS/z1.gpu" --threads=2
    run "$k-z1m" "$k" --gpu="$LOGS/z1m.gpu" --threads=2
done
for t in 1 4; do run "sb1-t$t" stencil --gpu=gtx480 --threads=$t --seed=$t --gpudet-sb-entries=1; done

python3 - "$LOGS" <<'PY'
import json, sys
logs = sys.argv[1]
def load(n):
    try:
        return json.load(open(f"{logs}/{n}.json"))["total"]
    except Exception as e:
        return None
def out(n):
    return [l for l in open(f"{logs}/{n}.out") if not l.startswith("#")]
def report(name, bad, ok):
    print(f"FAIL gpudet_costs/{name}: {'; '.join(bad)}" if bad else f"PASS gpudet_costs/{name} ({ok})")
kinds = ("cloth", "hashtable", "stencil")
runs = {f"{k}-{v}": load(f"{k}-{v}") for k in kinds for v in ("t1", "t4", "lock", "bloom0", "bloom4", "z1", "z1m")}
missing = [n for n, r in runs.items() if r is None]
if missing:
    print(f"FAIL gpudet_costs/runs: no statistics from {missing} (see {logs})")
    sys.exit(0)
g = lambda n: runs[n]["timing"]["gpudet"]

bad = []
for k in kinds:
    if runs[f"{k}-t1"] != runs[f"{k}-t4"]: bad.append(f"{k}: statistics differ over threads/seed")
    if g(f"{k}-t1")["log_writes"] != runs[f"{k}-t1"]["gpudet"]["store_buffer_entries"]:
        bad.append(f"{k}: {g(k + '-t1')['log_writes']} log writes for {runs[k + '-t1']['gpudet']['store_buffer_entries']} entries")
if not g("cloth-t1")["log_searches"]: bad.append("cloth: no log searches")
report("log_writes", bad, f"cloth {g('cloth-t1')['log_writes']} writes, {g('cloth-t1')['log_searches']} searches")

bad = []
for k in kinds:
    i, d, f = g(f"{k}-bloom0"), g(f"{k}-t1"), g(f"{k}-bloom4")
    if i["bloom_false_positives"]: bad.append(f"{k}: ideal filter with false positives")
    if not (i["log_searches"] <= d["log_searches"] <= f["log_searches"]): bad.append(f"{k}: searches {i['log_searches']}, {d['log_searches']}, {f['log_searches']}")
    if not (i["parallel_cycles"] <= d["parallel_cycles"] <= f["parallel_cycles"]): bad.append(f"{k}: parallel cycles {i['parallel_cycles']}, {d['parallel_cycles']}, {f['parallel_cycles']}")
report("bloom", bad, f"cloth searches ideal {g('cloth-bloom0')['log_searches']}, 1024 bits {g('cloth-t1')['log_searches']}, 4 bits {g('cloth-bloom4')['log_searches']}")

bad = []
for k in kinds:
    a, d, b = g(f"{k}-z1"), g(f"{k}-t1"), g(f"{k}-z1m")
    if not (a["zcache_misses"] >= d["zcache_misses"] >= b["zcache_misses"]): bad.append(f"{k}: misses {a['zcache_misses']}, {d['zcache_misses']}, {b['zcache_misses']}")
    if not (a["commit_cycles"] >= d["commit_cycles"] >= b["commit_cycles"]): bad.append(f"{k}: commit {a['commit_cycles']}, {d['commit_cycles']}, {b['commit_cycles']}")
    if a["zcache_misses"] > a["commit_requests"]: bad.append(f"{k}: more misses than requests")
if g("cloth-z1")["zcache_misses"] <= g("cloth-z1m")["zcache_misses"]: bad.append("cloth: Z-cache size changes nothing")
report("zcache", bad, f"cloth misses 128 B {g('cloth-z1')['zcache_misses']}, 16 KiB {g('cloth-t1')['zcache_misses']}, 1 MiB {g('cloth-z1m')['zcache_misses']}")

bad = []
for k in ("hashtable", "cloth"):
    z, l = g(f"{k}-t1"), g(f"{k}-lock")
    if not l["commit_cycles"] > z["commit_cycles"]: bad.append(f"{k}: lock commit {l['commit_cycles']} <= Z-buffer {z['commit_cycles']}")
    if (l["parallel_cycles"], l["serial_cycles"]) != (z["parallel_cycles"], z["serial_cycles"]): bad.append(f"{k}: parallel/serial changed")
    if out(f"{k}-lock") != out(f"{k}-t1"): bad.append(f"{k}: output differs")
report("lock_commit", bad, f"hashtable commit {g('hashtable-t1')['commit_cycles']} -> {g('hashtable-lock')['commit_cycles']}, cloth {g('cloth-t1')['commit_cycles']} -> {g('cloth-lock')['commit_cycles']}")

bad = []
s1, s4 = load("sb1-t1"), load("sb1-t4")
if s1 is None or s4 is None: bad.append("no statistics")
else:
    if s1 != s4: bad.append("statistics differ over threads")
    if not s1["gpudet"]["quantum_end"]["store_buffer"]: bad.append("no quantum ended by a full store buffer")
    if s1["gpudet"]["quanta"] <= runs["stencil-t1"]["gpudet"]["quanta"]: bad.append("no more quanta than unbounded")
    if out("sb1-t1") != out("stencil-t1"): bad.append("output differs")
report("sb_capacity", bad, f"{s1['gpudet']['quantum_end']['store_buffer'] if s1 else 0} quanta ended by a full buffer, {s1['gpudet']['quanta'] if s1 else 0} quanta against {runs['stencil-t1']['gpudet']['quanta']}")
PY

bad=""
for opts in "--gpudet-commit=lock --det=gpudet" "--gpudet-commit=lock --timing"; do
    # shellcheck disable=SC2086
    msg=$("$PTXSIM" run $opts -- "$KINDS" stencil 1 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && grep -q "needs --det=gpudet and --timing" <<<"$msg" || bad="$bad [$opts: exit $rc: $msg]"
done
[ -z "$bad" ] && echo "PASS gpudet_costs/lock_refused" || echo "FAIL gpudet_costs/lock_refused:$bad"

# ---------------------------------------------------------------- placement
PSRC=bench/determinism/cta_placement.cu
if ! PLACE=$(cuda_cache_build bench_cta_placement.shared "$LOGS/nvcc-placement.txt" \
                 "-cudart shared -Wno-deprecated-gpu-targets $PSRC" "$PSRC"); then
    echo "FAIL gpudet_costs/placement: nvcc failed, see $LOGS/nvcc-placement.txt"
    exit 0
fi
# prun NAME OPTIONS...: cta_placement under --det=gpudet --timing on gtx480, with a timeline
prun() {
    local name=$1
    shift
    timeout 120 "$PTXSIM" run --det=gpudet --timing --gpu=gtx480 "$@" --stats="$LOGS/$name.json" \
        --timeline="$LOGS/$name.timeline.json" -- "$PLACE" \
        >"$LOGS/$name.out" 2>&1 || echo "# exit $?" >>"$LOGS/$name.out"
}
for dwp in on off; do
    prun "place-$dwp-t1" --gpudet-dwp=$dwp --threads=1
    prun "place-$dwp-t2" --gpudet-dwp=$dwp --threads=2 --seed=3
    prun "place-$dwp-t4" --gpudet-dwp=$dwp --threads=4 --seed=5
done
prun place-nobta --gpudet-bta=off --threads=2
python3 - "$LOGS" <<'PY'
import json, re, sys
logs = sys.argv[1]
bad, seen = [], {}
def smid(n):   # the SM each CTA read in GPUDet's run
    return {int(b): int(s) for b, s in re.findall(r"^block (\d+) sm (\d+)$", open(f"{logs}/{n}.out").read(), re.M)}
def model_sm(n):   # the SM track of each CTA's slice in the model's timeline
    ev = json.load(open(f"{logs}/{n}.timeline.json"))["traceEvents"]
    return {int(re.match(r"block \((\d+),", e["name"]).group(1)): e["tid"]
            for e in ev if e.get("pid") == 1 and e.get("ph") == "X"}
def total(n):
    return json.load(open(f"{logs}/{n}.json"))["total"]
try:
    for dwp in ("on", "off"):
        ref = f"place-{dwp}-t1"
        g = smid(ref)
        if len(g) != 360: bad.append(f"{ref}: {len(g)} CTAs printed"); continue
        for t in ("t2", "t4"):
            n = f"place-{dwp}-{t}"
            if smid(n) != g: bad.append(f"{n}: GPUDet's placement differs from threads 1")
            if total(n) != total(ref): bad.append(f"{n}: statistics differ from threads 1")
        for t in ("t1", "t2", "t4"):
            n = f"place-{dwp}-{t}"
            m = model_sm(n)
            off = [b for b in g if m.get(b) != g[b]]
            if off: bad.append(f"{n}: {len(off)} CTAs on another SM in the model (first: block {off[0]} GPUDet SM {g[off[0]]}, model {m.get(off[0])})")
        seen[dwp] = g
    moved = sum(1 for b in seen.get("on", {}) if seen["on"][b] != seen.get("off", {}).get(b))
    if "on" in seen and "off" in seen and not moved: bad.append("DWP on and off place every CTA alike: the check tells nothing")
    b_on, b_off = total("place-on-t1"), total("place-nobta")
    if not (b_on["gpudet"]["quanta"] < b_off["gpudet"]["quanta"] and b_on["cycles"] < b_off["cycles"]):
        bad.append(f"BTA: quanta {b_on['gpudet']['quanta']} vs {b_off['gpudet']['quanta']} without, cycles {b_on['cycles']} vs {b_off['cycles']}")
    for n in [f"place-{d}-{t}" for d in ("on", "off") for t in ("t1", "t2", "t4")] + ["place-nobta"]:
        if any(l.startswith("# exit") for l in open(f"{logs}/{n}.out")): bad.append(f"{n}: the run failed")
except (OSError, ValueError, KeyError) as e:
    bad.append(f"missing output: {e} (see {logs})")
if bad:
    print(f"FAIL gpudet_costs/placement: {'; '.join(bad)}")
else:
    print(f"PASS gpudet_costs/placement (360 CTAs on GPUDet's SMs in the model, DWP on and off ({moved} CTAs placed differently), threads 1/2/4+seeds; "
          f"BTA {b_on['gpudet']['quanta']} quanta {b_on['cycles']} cycles, without {b_off['gpudet']['quanta']} quanta {b_off['cycles']} cycles)")
PY
