#!/usr/bin/env bash
# timing.sh: the cycle model (--timing), one PASS/FAIL line per check:
#   - determinism: tests/cuda programs give the same "total" statistics (cycles, IPC, issue
#     slots, caches, DRAM) on 1, 2 and 4 host threads, with a scheduling seed, on every executor
#     (auto, the default, interp, and jit, whose event variant then records the events), and
#     under --engine=compare (where the step and block executors, and the step interpreter and
#     the JIT, must also agree with each other, their events included);
#   - the microbenchmarks of bench/micro show what a GPU shows, on gtx480 and v100: pointer-chase
#     latency L1 < L2 < DRAM (a pure chase, p = *p, takes exactly the configured shared-memory and
#     L1 latencies); a k-way shared-memory bank conflict costs k - 1 extra cycles per
#     load (k wavefronts, within 15%); loads at strides 1, 2, 4, 8 floats take longer as the
#     sectors they move grow (stride 8 moves 8 times the sectors of stride 1); 100 more
#     dependent FMAs between two clock64 reads take exactly 100 x the configured latency (the
#     clock reads happen at the cycles they issue); a 32 MiB copy moves DRAM bytes at no more
#     than the configuration's peak and at least 30% of it; independent SFU instructions issue
#     one per initiation interval (within 5%); 65536 atomics on one address take at least 65536
#     cycles (one lane operation per cycle at its L2 slice) and 4x longer than on a line each;
#     32 MiB of stores go no faster than DRAM's peak (backpressure) and at least 30% of it;
#     texture fetches hit in the texture cache after one miss per sector and SM, not in L1;
#   - the issue slots: per kernel they add up to SMs x schedulers x (cycles - launch latency)
#     (every configuration, and v100 copies as two_level and as gto issuing 2 per scheduler);
#     100 more dependent FMAs add exactly 100 issued and 100 x (lat - 1) scoreboard slots, and
#     a warp waiting at a barrier for them 100 x lat barrier slots (timing_barrier_wait.cu);
#   - h100 and h200 against the microbenchmarks' native runs on an H100 and an H200
#     (bench/micro/native/): what the model's mechanisms express (chase latencies, DRAM's
#     where recorded, FMA, SFU, bank-conflict wavefronts, atomics) within 15% of the figures;
#   - each configuration with published measurements (bench/micro/published/) within 15% of
#     them: pure-chase latencies, a DRAM-bound copy's bandwidth, under the vendor's DRAM peak;
#   - two programs run correctly on every configuration of timing/configs with identical
#     statistics on 1 and 2 host threads;
#   - --timeline: a slice per launch and per CTA (--timeline-warps: and per warp), consistent
#     with the statistics, the same from compare mode; refused without --timing;
#   - --gpu=FILE: a changed copy of a configuration is used, a broken one refused; a copy with
#     dram_scheduler = fcfs hits open DRAM rows less often than FR-FCFS on the DRAM copy;
#   - --det=gpudet: GPUDet's results, the model's statistics the same over threads, seeds and
#     compare mode; GPUDet's modes in cycles (parallel, commit, serial, barriers) add up to the
#     cycles, global barriers cost exactly their configured latency, W-Ser > CU-Ser (details
#     above that section);
#   - GPU-Racey's racing kernels with --timing alone: the same signatures and statistics on 1,
#     2 and 4 host threads and with a seed (the weave runs every global access in one order).
# Environment: B (build dir), NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
export NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
source tests/cuda_cache.sh

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-timing.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$PTXSIM" ] || { fail build "no $PTXSIM"; exit 0; }

# The "total" object of a statistics file, one member per line (host times live outside it).
total_of() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d["total"], sort_keys=True, indent=0))' "$1"
}

# The checks run in two groups side by side (2.6 minutes instead of 4.4 on the two cores of the
# project's VM), each in a work folder of its own, its lines into a file; the files are printed
# in order. (The groups' bodies are not indented: they hold here-documents and Python.)
# ================================================================ the tests/cuda programs
programs_group() {
local work=$work/programs
mkdir -p "$work"
# ---------------------------------------------------------------- determinism
for name in vector_add reduction histogram256 matmul_tiled divergence; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
        { fail "timing determinism $name" "nvcc failed: $(head -n 3 "$work/$name.build.log")"; continue; }
    ref=""
    bad=""
    for opts in "--threads=1" "--threads=2" "--threads=4" "--threads=2 --seed=5" \
                "--engine=interp --threads=2" "--engine=jit --threads=1" "--engine=jit --threads=2" \
                "--engine=compare" "--engine=compare --compare-with=jit"; do
        tag=${opts//[ =-]/_}
        if ! "$PTXSIM" run --timing --gpu=v100 $opts --stats="$work/$name$tag.json" -- "$exe" \
            >"$work/$name$tag.out" 2>&1; then
            bad="$opts: exit status $?: $(grep -m 2 -E 'FAIL|ptxsim:' "$work/$name$tag.out")"
            break
        fi
        t=$(total_of "$work/$name$tag.json")
        if ! grep -q '"cycles"' <<<"$t"; then bad="$opts: no cycles in the statistics"; break; fi
        if [ -z "$ref" ]; then ref=$t; ref_opts=$opts; ref_json=$work/$name$tag.json; continue; fi
        if [ "$t" != "$ref" ]; then
            bad="statistics differ between $ref_opts and $opts: $(diff <(echo "$ref") <(echo "$t") | head -n 4 | tr '\n' ' ')"
            break
        fi
    done
    if [ -z "$bad" ]; then
        pass "timing determinism $name ($(grep '"cycles"' <<<"$ref" | tr -d ' ,') over threads 1/2/4, seed, interp/jit/auto, compare with the block interpreter and the JIT)"
    else
        fail "timing determinism $name" "$bad"
    fi
done

# ---------------------------------------------------------------- every configuration
# Two programs (shared memory and barriers; atomics) on every GPU, on 1 and 2 host threads.
for gpu in $(ls timing/configs/*.gpu | xargs -n 1 basename | sed 's/\.gpu$//'); do
    bad=""
    for name in matmul_tiled histogram256; do
        exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
            { bad="$name: nvcc failed"; break; }
        for t in 1 2; do
            if ! "$PTXSIM" run --timing --gpu=$gpu --threads=$t --stats="$work/$gpu$name$t.json" \
                -- "$exe" >"$work/$gpu$name$t.out" 2>&1; then
                bad="$name --threads=$t: $(grep -m 2 -E 'FAIL|ptxsim:' "$work/$gpu$name$t.out")"
                break 2
            fi
        done
        if [ "$(total_of "$work/$gpu${name}1.json")" != "$(total_of "$work/$gpu${name}2.json")" ]; then
            bad="$name: statistics differ between 1 and 2 host threads"
            break
        fi
    done
    if [ -z "$bad" ]; then pass "timing on $gpu (matmul_tiled, histogram256; threads 1 and 2 agree)"
    else fail "timing on $gpu" "$bad"; fi
done

# ---------------------------------------------------------------- issue slots add up
# Every cycle of a kernel after its launch latency, each scheduler of each SM counts one issue
# slot, issued or stalled for one reason (an SM without work counts idle): per kernel, the
# slots sum to sm_count x sched_per_sm x (cycles - launches x kernel_launch_latency). A skip
# of cycles where nothing can issue (sm.c q_wake, run.c sm_window) must count what it skipped.
# On the runs above (every configuration), and on v100 copies with the schedulers no shipped
# configuration uses: two_level, and gto issuing 2 per scheduler.
slots_add_up() {   # slots_add_up STATS CONFIG: "ok N kernels" or the first kernel that does not
    python3 -c '
import json, re, sys
cfg = dict(m.groups() for m in (re.match(r"^(\w+)\s*=\s*(\S+)", l) for l in open(sys.argv[2])) if m)
per = int(cfg["sm_count"]) * int(cfg["sched_per_sm"])
ks = json.load(open(sys.argv[1]))["kernels"]
for k in ks:
    got = sum(k["timing"]["issue_slots"].values())
    want = per * (k["cycles"] - k["launches"] * int(cfg["kernel_launch_latency"]))
    if got != want:
        print("%s: %d issue slots, expected %d" % (k["name"], got, want)); sys.exit()
print("ok %d kernels" % len(ks))' "$1" "$2" 2>&1
}
bad=""
nk=0
for gpu in $(ls timing/configs/*.gpu | xargs -n 1 basename | sed 's/\.gpu$//'); do
    for name in matmul_tiled histogram256; do
        [ -f "$work/$gpu${name}1.json" ] || continue
        v=$(slots_add_up "$work/$gpu${name}1.json" "timing/configs/$gpu.gpu")
        if [[ $v == ok* ]]; then nk=$((nk + 1)); else bad+="$gpu $name: $v; "; fi
    done
done
sed 's/^scheduler\( *\)= *lrr /scheduler\1= two_level /' timing/configs/v100.gpu >"$work/two_level.gpu"
sed 's/^scheduler\( *\)= *lrr /scheduler\1= gto /; s/^issue_per_sched\( *\)= *1 /issue_per_sched\1= 2 /' \
    timing/configs/v100.gpu >"$work/gto2.gpu"
for conf in two_level gto2; do
    for name in matmul_tiled histogram256 divergence; do
        exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
            { bad+="$name: nvcc failed; "; continue; }
        if ! "$PTXSIM" run --timing --gpu="$work/$conf.gpu" --stats="$work/$conf$name.json" \
            -- "$exe" >"$work/$conf$name.out" 2>&1; then
            bad+="$conf $name: $(grep -m 1 -E 'FAIL|ptxsim:' "$work/$conf$name.out"); "
            continue
        fi
        v=$(slots_add_up "$work/$conf$name.json" "$work/$conf.gpu")
        if [[ $v == ok* ]]; then nk=$((nk + 1)); else bad+="$conf $name: $v; "; fi
    done
done
if [ -z "$bad" ] && [ "$nk" -ge 6 ]; then
    pass "timing issue slots add up to SMs x schedulers x cycles ($nk runs: every configuration, v100 as two_level and gto x 2)"
else
    fail "timing issue slots add up" "${bad:-only $nk runs}"
fi

# ---------------------------------------------------------------- --timeline
# A slice per launch and one per CTA, each CTA inside its launch, with --timeline-warps a slice
# per warp inside its CTA's (same SM), the same file from the block executor alone and from
# compare mode; --timeline-warps without --timeline is refused.
exe=$(cuda_test_build tests/cuda/reduction.cu shared "$work/red.build.log")
"$PTXSIM" run --timing --gpu=v100 --timeline="$work/tl1.json" --timeline-warps \
    --stats="$work/tl1s.json" -- "$exe" >/dev/null 2>&1; rc1=$?
"$PTXSIM" run --timing --gpu=v100 --engine=compare --timeline="$work/tl2.json" --timeline-warps \
    -- "$exe" >/dev/null 2>&1; rc2=$?
verdict=$(python3 - "$work/tl1.json" "$work/tl1s.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
st = json.load(open(sys.argv[2]))["total"]
ks = [e for e in ev if e.get("ph") == "X" and e["pid"] == 0]
cs = [e for e in ev if e.get("ph") == "X" and e["pid"] == 1]
if len(ks) != st["launches"]: print("%d launch slices for %d launches" % (len(ks), st["launches"])); sys.exit()
if len(cs) != st["ctas"]: print("%d CTA slices for %d CTAs" % (len(cs), st["ctas"])); sys.exit()
if ks[-1]["args"]["end_cycle"] != st["cycles"]: print("launches end at %d, cycles %d" % (ks[-1]["args"]["end_cycle"], st["cycles"])); sys.exit()
for c in cs:
    if not any(k["args"]["start_cycle"] <= c["args"]["start_cycle"] <= c["args"]["end_cycle"] <= k["args"]["end_cycle"] for k in ks):
        print("CTA slice %s outside every launch" % c); sys.exit()
ws = [e for e in ev if e.get("ph") == "X" and e["pid"] == 2]
if len(ws) < len(cs): print("%d warp slices for %d CTAs" % (len(ws), len(cs))); sys.exit()
inside = {}
for w in ws:
    a = w["args"]
    home = [c for c in cs if w["name"].startswith(c["name"] + " warp ") and c["tid"] == w["tid"] >> 16
            and c["args"]["start_cycle"] <= a["start_cycle"] <= a["end_cycle"] <= c["args"]["end_cycle"]]
    if not home: print("warp slice %s in no CTA slice of its SM" % w); sys.exit()
    inside[id(home[0])] = inside.get(id(home[0]), 0) + 1
if len(inside) != len(cs): print("%d CTA slices without warps" % (len(cs) - len(inside))); sys.exit()
print("ok %d launches, %d CTAs, %d warps" % (len(ks), len(cs), len(ws)))
PY
)
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [[ $verdict == ok* ]] && cmp -s "$work/tl1.json" "$work/tl2.json"; then
    pass "timing timeline (${verdict#ok }; compare mode writes the same file)"
else
    fail "timing timeline" "exit $rc1/$rc2, $verdict, files $(cmp -s "$work/tl1.json" "$work/tl2.json" && echo same || echo differ)"
fi
out=$("$PTXSIM" run --timing --timeline-warps -- "$exe" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "needs --timeline" <<<"$out"; then pass "timing: --timeline-warps without --timeline is refused"
else fail "timing: --timeline-warps without --timeline is refused" "exit $rc: $(head -n 2 <<<"$out")"; fi
out=$("$PTXSIM" run --timeline="$work/x.json" -- "$exe" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "needs --timing" <<<"$out"; then pass "timing: --timeline without --timing is refused"
else fail "timing: --timeline without --timing is refused" "exit $rc: $(head -n 2 <<<"$out")"; fi

# ---------------------------------------------------------------- --det=gpudet
# GPUDet runs the grid (its results stay GPUDet's), the model times what each warp executed:
# the statistics (with GPUDet's modes in cycles) are the same over threads 1/2/4, two seeds and
# compare mode; for programs without races, GPUDet's quanta, commits and serial mode cost
# cycles on top of --timing alone's (never fewer); the modes add up to the cycles, and commit
# mode sends one Z-buffer request per store-buffer entry; GPU-Racey's signatures are those of --det=gpudet without
# --timing on the same GPU.
gpudet_opts=("--threads=1 --seed=1" "--threads=2 --seed=1" "--threads=4 --seed=1"
             "--threads=2 --seed=7" "--threads=4 --seed=7" "--engine=compare"
             "--engine=jit --threads=2 --seed=1" "--engine=compare --compare-with=jit")
for name in histogram256 reduction matmul_tiled; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
        { fail "timing gpudet $name" "nvcc failed"; continue; }
    ref=""
    bad=""
    for opts in "${gpudet_opts[@]}"; do
        tag=gd${opts//[ =-]/_}
        if ! "$PTXSIM" run --timing --det=gpudet --gpu=v100 $opts --stats="$work/$name$tag.json" \
            -- "$exe" >"$work/$name$tag.out" 2>&1; then
            bad="$opts: exit status $?: $(grep -m 2 -E 'FAIL|ptxsim:' "$work/$name$tag.out")"
            break
        fi
        t=$(total_of "$work/$name$tag.json")
        if ! grep -q '"quanta"' <<<"$t"; then bad="$opts: no GPUDet quanta in the statistics"; break; fi
        if [ -z "$ref" ]; then ref=$t; ref_opts=$opts; ref_json=$work/$name$tag.json; continue; fi
        if [ "$t" != "$ref" ]; then
            bad="statistics differ between $ref_opts and $opts: $(diff <(echo "$ref") <(echo "$t") | head -n 4 | tr '\n' ' ')"
            break
        fi
    done
    cycles=$(grep '"cycles"' <<<"$ref" | tr -dc 0-9)
    if [ -z "$bad" ]; then
        "$PTXSIM" run --timing --gpu=v100 --stats="$work/$name.alone.json" -- "$exe" >/dev/null 2>&1
        alone=$(total_of "$work/$name.alone.json" | grep '"cycles"' | tr -dc 0-9)
        [ "${alone:-0}" -gt 0 ] && [ "$cycles" -ge "$alone" ] ||
            bad="$cycles cycles under gpudet, fewer than the $alone of --timing alone"
    fi
    if [ -z "$bad" ]; then
        # the modes add up to the cycles; one Z-buffer request per store-buffer entry
        bad=$(python3 - "$ref_json" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
g = t["timing"]["gpudet"]
modes = g["parallel_cycles"] + g["commit_cycles"] + g["serial_cycles"] + g["barrier_cycles"]
if modes != t["cycles"]:
    print(f"modes add up to {modes}, not the {t['cycles']} cycles")
elif g["commit_requests"] != t["gpudet"]["store_buffer_entries"]:
    print(f"{g['commit_requests']} commit requests for {t['gpudet']['store_buffer_entries']} entries")
elif g["quantum_end"] != t["gpudet"]["quantum_end"]:
    print("quantum ends differ from the gpudet object's")
PY
) || bad="modes: ${bad:-python failed}"
    fi
    if [ -z "$bad" ]; then
        pass "timing gpudet $name ($cycles cycles over threads 1/2/4, seeds 1/7, auto/jit, compare with the block interpreter and the JIT; >= $alone of --timing alone; modes add up)"
    else
        fail "timing gpudet $name" "$bad"
    fi
done
# GPUDet's global barriers: with gpudet_barrier_latency = 1000 in a copy of v100 every barrier
# (two per quantum without atomics: after parallel mode and after commit) costs exactly 1000
# cycles and shifts nothing else; serial mode W-Ser takes longer than CU-Ser (the paper's
# Fig. 10: CU-Ser pipelines an SM's atomics), parallel and commit mode unchanged.
sed 's/^gpudet_barrier_latency *= *0 /gpudet_barrier_latency = 1000 /' timing/configs/v100.gpu \
    >"$work/v100_barrier.gpu"
for name in vector_add matmul_tiled; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
        { fail "timing gpudet barriers $name" "nvcc failed"; continue; }
    "$PTXSIM" run --timing --det=gpudet --gpu=v100 --stats="$work/$name.b0.json" -- "$exe" >/dev/null 2>&1 &&
    "$PTXSIM" run --timing --det=gpudet --gpu="$work/v100_barrier.gpu" --threads=2 \
        --stats="$work/$name.b1000.json" -- "$exe" >/dev/null 2>&1 ||
        { fail "timing gpudet barriers $name" "run failed"; continue; }
    bad=$(python3 - "$work/$name.b0.json" "$work/$name.b1000.json" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(f))["total"] for f in sys.argv[1:3])
ga, gb = a["timing"]["gpudet"], b["timing"]["gpudet"]
q = a["gpudet"]["quanta"]
if gb["barriers"] != 2 * q or ga["barriers"] != 2 * q:
    print(f"{gb['barriers']} barriers for {q} quanta (expected {2 * q})")
elif ga["barrier_cycles"] != 0 or gb["barrier_cycles"] != 2 * q * 1000:
    print(f"barrier cycles {ga['barrier_cycles']} and {gb['barrier_cycles']}, expected 0 and {2 * q * 1000}")
elif b["cycles"] - a["cycles"] != 2 * q * 1000:
    print(f"cycles {a['cycles']} -> {b['cycles']}, expected + {2 * q * 1000}")
else:
    print(f"OK {q} quanta, {a['cycles']} -> {b['cycles']} cycles")
PY
)
    case $bad in
        OK*) pass "timing gpudet barriers $name (${bad#OK }: 2 x quanta x 1000)" ;;
        *) fail "timing gpudet barriers $name" "$bad" ;;
    esac
done
if exe=$(cuda_test_build tests/cuda/histogram256.cu shared "$work/histogram256.build.log"); then
    "$PTXSIM" run --timing --det=gpudet --gpu=v100 --gpudet-serial=cu --stats="$work/ser_cu.json" \
        -- "$exe" >/dev/null 2>&1
    "$PTXSIM" run --timing --det=gpudet --gpu=v100 --gpudet-serial=warp --stats="$work/ser_w.json" \
        -- "$exe" >/dev/null 2>&1
    bad=$(python3 - "$work/ser_cu.json" "$work/ser_w.json" 2>&1 <<'PY'
import json, sys
c, w = (json.load(open(f))["total"]["timing"]["gpudet"] for f in sys.argv[1:3])
if not c["serial_cycles"] or w["serial_cycles"] <= c["serial_cycles"]:
    print(f"serial cycles CU-Ser {c['serial_cycles']}, W-Ser {w['serial_cycles']}")
elif c["parallel_cycles"] != w["parallel_cycles"] or c["commit_cycles"] != w["commit_cycles"]:
    print("parallel or commit cycles differ between CU-Ser and W-Ser")
else:
    print(f"OK CU-Ser {c['serial_cycles']}, W-Ser {w['serial_cycles']} serial cycles")
PY
)
    case $bad in
        OK*) pass "timing gpudet serial modes histogram256 (${bad#OK })" ;;
        *) fail "timing gpudet serial modes histogram256" "$bad" ;;
    esac
else
    fail "timing gpudet serial modes histogram256" "nvcc failed"
fi
racey_src=examples/gpu_racey/gpu_racey.cu
if racey=$(cuda_cache_build gpu_racey.shared "$work/racey.build.log" \
               "-cudart shared -lineinfo -Wno-deprecated-gpu-targets $racey_src" "$racey_src"); then
    "$PTXSIM" run --det=gpudet --gpu=v100 --threads=2 -- "$racey" --kernel all >"$work/racey.plain" 2>&1
    ref=""
    bad=""
    for opts in "--threads=1 --seed=1" "--threads=2 --seed=2" "--threads=4 --seed=1" "--threads=4 --seed=2"; do
        tag=${opts//[ =-]/_}
        if ! "$PTXSIM" run --timing --det=gpudet --gpu=v100 $opts --stats="$work/racey$tag.json" \
            -- "$racey" --kernel all >"$work/racey$tag.out" 2>&1; then
            bad="$opts: exit status $?"
            break
        fi
        if ! diff -q "$work/racey.plain" "$work/racey$tag.out" >/dev/null; then
            bad="$opts: output differs from --det=gpudet without --timing: $(diff "$work/racey.plain" "$work/racey$tag.out" | head -n 3 | tr '\n' ' ')"
            break
        fi
        t=$(total_of "$work/racey$tag.json")
        if [ -z "$ref" ]; then ref=$t; ref_opts=$opts; continue; fi
        [ "$t" = "$ref" ] || { bad="statistics differ between $ref_opts and $opts"; break; }
    done
    if [ -z "$bad" ] && grep -q signature "$work/racey.plain"; then
        pass "timing gpudet gpu_racey (GPUDet's signatures, $(grep '"cycles"' <<<"$ref" | tr -dc 0-9) cycles over threads 1/2/4, seeds 1/2)"
    else
        fail "timing gpudet gpu_racey" "${bad:-no signatures}"
    fi
else
    fail "timing gpudet gpu_racey" "nvcc failed: $(head -n 3 "$work/racey.build.log")"
fi

# GPU-Racey's racing kernels with --timing alone (no determinism mode): the windowed model runs
# every global access, atomic and fence in one order (the weave's), whatever the host threads
# do, so their signatures (the memory they leave) and every statistic agree on 1, 2 and 4
# threads and with a seed.
if [ -n "${racey:-}" ]; then
    ref_out="" ref=""
    bad=""
    for opts in "--threads=1" "--threads=2" "--threads=4" "--threads=4 --seed=3"; do
        tag=${opts//[ =-]/_}
        out=$work/racey_timing$tag.out
        : >"$out"
        : >"$work/racey_timing$tag.stats"
        for k in racey_global racey_atomic_add racey_atomic_cas racey_fence racey_many_wg \
                 racey_bytes racey_shared; do
            if ! "$PTXSIM" run --timing --gpu=v100 $opts --stats="$work/racey_timing$tag$k.json" \
                -- "$racey" --kernel $k >>"$out" 2>&1; then
                bad="$k $opts: exit status $?"
                break 2
            fi
            total_of "$work/racey_timing$tag$k.json" >>"$work/racey_timing$tag.stats"
        done
        t=$(cat "$work/racey_timing$tag.stats")
        if [ -z "$ref" ]; then ref=$t; ref_out=$out; ref_opts=$opts; continue; fi
        if ! diff -q "$ref_out" "$out" >/dev/null; then
            bad="signatures differ between $ref_opts and $opts: $(diff "$ref_out" "$out" | head -n 3 | tr '\n' ' ')"
            break
        fi
        [ "$t" = "$ref" ] || { bad="statistics differ between $ref_opts and $opts"; break; }
    done
    if [ -z "$bad" ] && [ "$(grep -c signature "$ref_out")" = 7 ]; then
        pass "timing gpu_racey without determinism (7 racing kernels: signatures and statistics the same over threads 1/2/4 and a seed)"
    else
        fail "timing gpu_racey without determinism" "${bad:-signatures missing}"
    fi
fi
}

# ================================================================ the microbenchmarks
micro_group() {
local work=$work/micro
mkdir -p "$work"
# ---------------------------------------------------------------- microbenchmarks
# slot_deltas STATS KERNEL_A KERNEL_B "reason=N ...": "ok" when kernel B's issue slots exceed
# kernel A's by exactly N for each reason named (kernel names up to their parameter lists)
slot_deltas() {
    python3 -c '
import json, sys
ks = {k["name"].split("(")[0]: k["timing"]["issue_slots"] for k in json.load(open(sys.argv[1]))["kernels"]}
a, b = ks[sys.argv[2]], ks[sys.argv[3]]
want = {r: int(n) for r, n in (w.split("=") for w in sys.argv[4].split())}
got = {r: b[r] - a[r] for r in want}
print("ok" if got == want else "more slots %s, expected %s" % (got, want))' "$@" 2>&1
}
micro() {   # micro NAME: the built benchmark's path
    cuda_cache_build "$1" "$work/$1.build.log" \
        "-cudart shared -Wno-deprecated-gpu-targets bench/micro/$1.cu" "bench/micro/$1.cu"
}
for gpu in gtx480 v100; do
    if exe=$(micro latency_chase); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        l1=$(awk '$2 == "L1" { print $3 }' <<<"$out")
        l2=$(awk '$2 == "L2" { print $3 }' <<<"$out")
        dr=$(awk '$2 == "DRAM" { print $3 }' <<<"$out")
        if [ -n "$l1" ] && [ -n "$l2" ] && [ -n "$dr" ] && [ "$l1" -lt "$l2" ] && [ "$l2" -lt "$dr" ]; then
            pass "timing micro latency $gpu (L1 $l1 < L2 $l2 < DRAM $dr cycles)"
        else
            fail "timing micro latency $gpu" "expected L1 < L2 < DRAM, got: $(tr '\n' ' ' <<<"$out")"
        fi
    else
        fail "timing micro latency $gpu" "nvcc failed"
    fi
    # the pure pointer chase (p = *p) takes exactly the configured shared and L1 latencies per
    # load, and L1 < L2 < DRAM
    if exe=$(micro pointer_chase); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        get() { awk -v l="$1" '$1 == "chase" && $2 == l { print $3 }' <<<"$out"; }
        conf() { awk -v k="$1" '$1 == k { print $3 }' "timing/configs/$gpu.gpu"; }
        sh=$(get shared) l1=$(get L1) l2=$(get L2) dr=$(get DRAM)
        if [ -n "$dr" ] && [ "$sh" = "$(conf smem_latency)" ] && [ "$l1" = "$(conf l1_latency)" ] &&
           [ "$l1" -lt "$l2" ] && [ "$l2" -lt "$dr" ]; then
            pass "timing micro pointer chase $gpu (shared $sh and L1 $l1 as configured < L2 $l2 < DRAM $dr)"
        else
            fail "timing micro pointer chase $gpu" "got: $(tr '\n' ' ' <<<"$out"); configured shared $(conf smem_latency), L1 $(conf l1_latency)"
        fi
    else
        fail "timing micro pointer chase $gpu" "nvcc failed"
    fi
    if exe=$(micro bank_conflicts); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        # 8 x 16 loads: the extra cycles per load over the conflict-free run are the k - 1
        # replays of a k-way conflict
        verdict=$(awk '$1 == "conflict" { t[$2] = $3 }
            END { if (!(1 in t)) { print "no output"; exit }
                  for (k = 2; k <= 32; k *= 2) {
                      extra = (t[k] - t[1]) / 128.0
                      if (extra < 0.85 * (k - 1) || extra > 1.15 * (k - 1)) {
                          printf "%d-way: %.2f extra cycles per load, expected %d\n", k, extra, k - 1; exit }
                  }
                  printf "ok %d..%d cycles\n", t[1], t[32] }' <<<"$out")
        if [[ $verdict == ok* ]]; then pass "timing micro bank conflicts $gpu (${verdict#ok }, 1- to 32-way)"
        else fail "timing micro bank conflicts $gpu" "$verdict"; fi
    else
        fail "timing micro bank conflicts $gpu" "nvcc failed"
    fi
    if exe=$(micro coalescing); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        verdict=$(awk '$1 == "stride" { t[$2] = $3 }
            END { if (!(1 in t)) { print "no output"; exit }
                  for (s = 2; s <= 8; s *= 2)
                      if (t[s] <= t[s / 2]) { printf "stride %d (%d cycles) is not slower than stride %d (%d)\n", s, t[s], s / 2, t[s / 2]; exit }
                  if (t[8] < 3 * t[1]) { printf "stride 8 (%d cycles) moves 8x the sectors of stride 1 (%d) but is not 3x slower\n", t[8], t[1]; exit }
                  printf "ok %d, %d, %d, %d cycles\n", t[1], t[2], t[4], t[8] }' <<<"$out")
        if [[ $verdict == ok* ]]; then pass "timing micro coalescing $gpu (strides 1, 2, 4, 8: ${verdict#ok })"
        else fail "timing micro coalescing $gpu" "$verdict"; fi
    else
        fail "timing micro coalescing $gpu" "nvcc failed"
    fi
    if exe=$(micro fma_chain); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        lat=$(awk '$1 == "lat_fp32" { print $3 }' timing/configs/$gpu.gpu)
        t1=$(awk '$1 == "fma_chain" && $2 == 100 { print $3 }' <<<"$out")
        t2=$(awk '$1 == "fma_chain" && $2 == 200 { print $3 }' <<<"$out")
        if [ -n "$t1" ] && [ -n "$t2" ] && [ $((t2 - t1)) -eq $((100 * lat)) ]; then
            pass "timing micro fma chain $gpu (100 more dependent FMAs: $((t2 - t1)) cycles = 100 x $lat)"
        else
            fail "timing micro fma chain $gpu" "100 more FMAs should take 100 x lat_fp32 = $((100 * lat)) cycles: $(tr '\n' ' ' <<<"$out")"
        fi
        # the same chains' issue slots: each of the 100 more FMAs issues once, then its warp's
        # scheduler waits lat - 1 cycles on the scoreboard; no unit or memory stall is added
        # (idle and control also count the final store's wait for its window's end, whose
        # alignment differs between the two kernels)
        "$PTXSIM" run --timing --gpu=$gpu --stats="$work/fma_$gpu.json" -- "$exe" >/dev/null 2>&1
        verdict=$(slot_deltas "$work/fma_$gpu.json" "void chain<100>" "void chain<200>" \
                  "issued=100 scoreboard=$((100 * (lat - 1))) pipeline=0 memory=0 barrier=0")
        if [ "$verdict" = ok ]; then
            pass "timing micro fma chain issue slots $gpu (100 more FMAs: +100 issued, +$((100 * (lat - 1))) scoreboard)"
        else
            fail "timing micro fma chain issue slots $gpu" "$verdict"
        fi
    else
        fail "timing micro fma chain $gpu" "nvcc failed"
    fi
    # a warp waiting at a barrier for the other warp's 100 more FMAs: its scheduler's slots
    # count 100 x lat more barrier stalls
    if exe=$(cuda_cache_build timing_barrier_wait "$work/barrier_wait.build.log" \
            "-cudart shared -Wno-deprecated-gpu-targets tests/suites/timing_barrier_wait.cu" \
            tests/suites/timing_barrier_wait.cu) &&
        "$PTXSIM" run --timing --gpu=$gpu --stats="$work/bw_$gpu.json" -- "$exe" >/dev/null 2>&1; then
        verdict=$(slot_deltas "$work/bw_$gpu.json" "void wait<100>" "void wait<200>" \
                  "issued=100 scoreboard=$((100 * (lat - 1))) barrier=$((100 * lat)) pipeline=0 memory=0")
        if [ "$verdict" = ok ]; then
            pass "timing micro barrier wait issue slots $gpu (+$((100 * lat)) barrier while the other warp runs 100 more FMAs)"
        else
            fail "timing micro barrier wait issue slots $gpu" "$verdict"
        fi
    else
        fail "timing micro barrier wait issue slots $gpu" "nvcc or the run failed"
    fi
    if exe=$(micro sfu_throughput); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null)
        ii=$(awk '$1 == "ii_sfu" { print $3 }' timing/configs/$gpu.gpu)
        v=$(awk '$1 == "sfu" { print $2 }' <<<"$out")
        if [ -n "$v" ] && [ $((v - 100 * ii)) -le $((5 * ii)) ] && [ $((100 * ii - v)) -le $((5 * ii)) ]; then
            pass "timing micro sfu throughput $gpu ($v/100 cycles per SFU instruction, initiation interval $ii)"
        else
            fail "timing micro sfu throughput $gpu" "expected about $ii cycles per SFU instruction: $out"
        fi
    else
        fail "timing micro sfu throughput $gpu" "nvcc failed"
    fi
    if exe=$(micro atomic_contention); then
        out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>&1)
        same=$(awk '$1 == "atomics" && $2 == "same" { print $3 }' <<<"$out")
        dist=$(awk '$1 == "atomics" && $2 == "distinct" { print $3 }' <<<"$out")
        # one address: 65536 lane operations, one per cycle at its L2 slice
        if [ -n "$same" ] && [ -n "$dist" ] && [ "$same" -ge 65536 ] && [ $((4 * dist)) -lt "$same" ]; then
            pass "timing micro atomic contention $gpu (one address $same cycles >= 65536 lane operations; a line per thread $dist)"
        else
            fail "timing micro atomic contention $gpu" "$(grep -m 2 -E 'atomics|FAIL' <<<"$out" | tr '\n' ' ')"
        fi
    else
        fail "timing micro atomic contention $gpu" "nvcc failed"
    fi
    if exe=$(micro dram_copy); then
        "$PTXSIM" run --timing --gpu=$gpu --stats="$work/copy$gpu.json" -- "$exe" \
            >"$work/copy$gpu.out" 2>&1
        verdict=$(python3 - "$work/copy$gpu.json" timing/configs/$gpu.gpu <<'PY'
import json, re, sys
t = json.load(open(sys.argv[1]))["total"]
cfg = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(\w+)\s*=\s*([0-9]+)", line)
    if m: cfg[m.group(1)] = int(m.group(2))
peak = cfg["mem_bus_bits"] / 8 * 2 * cfg["mem_clock_khz"] / cfg["model_clock_khz"]
cycles = t["cycles"] - cfg["kernel_launch_latency"]
moved = (t["timing"]["dram_reads"] + t["timing"]["dram_writes"]) * 32
bw = moved / cycles
if t["timing"]["dram_reads"] < (16 << 20) // 32: print("only %d sectors read" % t["timing"]["dram_reads"])
elif not 0.3 * peak <= bw <= peak: print("%.1f DRAM bytes per cycle, peak %.1f" % (bw, peak))
else: print("ok %.1f DRAM bytes per cycle, %.0f%% of the peak %.1f" % (bw, 100 * bw / peak, peak))
PY
)
        if grep -q '^copied' "$work/copy$gpu.out" && [[ $verdict == ok* ]]; then
            pass "timing micro dram copy $gpu (${verdict#ok })"
        else
            fail "timing micro dram copy $gpu" "$verdict $(grep -m 1 FAIL "$work/copy$gpu.out")"
        fi
    else
        fail "timing micro dram copy $gpu" "nvcc failed"
    fi
    # 32 MiB of stores only: past what the L2 holds, every line goes to DRAM, so the stores
    # cannot outrun DRAM's peak (backpressure from the DRAM and L2 queues and the
    # interconnect to the warps); unbounded queues let them run at the SMs' ports' rate (3.8x
    # and 4.3x the peak on gtx480 and v100 before backpressure)
    if exe=$(micro store_flood); then
        "$PTXSIM" run --timing --gpu=$gpu --stats="$work/flood$gpu.json" -- "$exe" \
            >"$work/flood$gpu.out" 2>&1
        verdict=$(python3 - "$work/flood$gpu.json" timing/configs/$gpu.gpu <<'PY'
import json, re, sys
t = json.load(open(sys.argv[1]))["total"]
cfg = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(\w+)\s*=\s*([0-9]+)\s*(KiB|MiB)?", line)
    if m: cfg[m.group(1)] = int(m.group(2)) << {None: 0, "KiB": 10, "MiB": 20}[m.group(3)]
peak = cfg["mem_bus_bits"] / 8 * 2 * cfg["mem_clock_khz"] / cfg["model_clock_khz"]
cycles = t["cycles"] - cfg["kernel_launch_latency"]
stored = 32 << 20
bound = peak * stored / (stored - cfg["l2_bytes"])   # the L2 may keep its share
bw = stored / cycles
if not 0.3 * peak <= bw <= bound: print("%.1f bytes stored per cycle, DRAM peak %.1f (bound %.1f)" % (bw, peak, bound))
else: print("ok %.1f bytes stored per cycle, %.0f%% of the DRAM peak %.1f" % (bw, 100 * bw / peak, peak))
PY
)
        if grep -q '^stored' "$work/flood$gpu.out" && [[ $verdict == ok* ]]; then
            pass "timing micro store flood $gpu (${verdict#ok })"
        else
            fail "timing micro store flood $gpu" "$verdict $(grep -m 1 FAIL "$work/flood$gpu.out")"
        fi
    else
        fail "timing micro store flood $gpu" "nvcc failed"
    fi
    # texture fetches of a 4 KiB table go through the texture cache: each SM misses each of
    # its 128 sectors at most once, hits after that, and the L1 sees none of them
    if exe=$(micro texture_cache); then
        "$PTXSIM" run --timing --gpu=$gpu --stats="$work/tex$gpu.json" -- "$exe" \
            >"$work/tex$gpu.out" 2>&1
        verdict=$(python3 - "$work/tex$gpu.json" timing/configs/$gpu.gpu <<'PY'
import json, re, sys
t = json.load(open(sys.argv[1]))["total"]["timing"]
sms = int(re.search(r"^sm_count\s*=\s*(\d+)", open(sys.argv[2]).read(), re.M).group(1))
most = 128 * min(sms, 64)
if t["l1_hits"] + t["l1_misses"]: print("the L1 saw %d sectors" % (t["l1_hits"] + t["l1_misses"]))
elif not 0 < t["tex_misses"] <= most or t["tex_hits"] == 0: print("texture cache %d hits, %d misses (at most %d)" % (t["tex_hits"], t["tex_misses"], most))
else: print("ok %d hits, %d misses <= %d" % (t["tex_hits"], t["tex_misses"], most))
PY
)
        if grep -q '^fetched' "$work/tex$gpu.out" && [[ $verdict == ok* ]]; then
            pass "timing micro texture cache $gpu (${verdict#ok })"
        else
            fail "timing micro texture cache $gpu" "$verdict $(grep -m 1 FAIL "$work/tex$gpu.out")"
        fi
    else
        fail "timing micro texture cache $gpu" "nvcc failed"
    fi
done

# ---------------------------------------------------------------- h100, h200 against their native runs
# timing/configs/h100.gpu is calibrated against bench/micro/native/h100-sxm5-80gb.txt and
# h200.gpu against bench/micro/native/h200.txt (the microbenchmarks run natively on an H100 SXM5
# and an H200): what their mechanisms express must stay within 15% of the native figures (the
# median of the recorded runs): pointer-chase latencies, a dependent FMA, the SFU's rate, the
# cycles of each extra bank-conflict wavefront, atomics on one address and on a line each; and,
# where the native run has bench/micro/native/beyond_l2.cu's chase through 256 MiB, the DRAM
# latency in ns (pointer_chase's DRAM chase: ptxsim's caches are cold at each launch).
near() {   # near WHAT PTXSIM NATIVE: "" when within 15%, else why not
    awk -v w="$1" -v s="$2" -v n="$3" 'BEGIN { if (s == "" || n == "" || n == 0) printf "%s: no figure; ", w;
        else if (s / n < 0.85 || s / n > 1.15) printf "%s: ptxsim %s, native %s (%.2f); ", w, s, n, s / n }'
}
native_median() {   # native_median FILE PROGRAM WORDS...: the median of "PROGRAM runN: WORDS... VALUE"
    local file=$1 prog=$2; shift 2
    grep -E "^$prog run[0-9]+: $* [0-9]+$" "$file" | awk '{ print $NF }' | sort -n |
        awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
against_native() {   # against_native GPU NATIVE_FILE
    local gpu=$1 native=$2 bad="" exe out s n lvl which
    if exe=$(micro pointer_chase) && out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null); then
        for lvl in shared L1 L2; do
            bad+=$(near "chase $lvl" "$(awk -v l=$lvl '$2 == l { print $3 }' <<<"$out")" \
                "$(native_median "$native" pointer_chase chase $lvl)")
        done
        n=$(awk '$1 == "beyond_l2:" && $2 == "chase" && $3 == 256 { print $6 }' "$native" | head -n 1)
        if [ -n "$n" ]; then
            s=$(awk -v c="$(awk '$2 == "DRAM" { print $3 }' <<<"$out")" \
                -v k="$(awk '$1 == "model_clock_khz" { print $3 }' timing/configs/$gpu.gpu)" \
                'BEGIN { if (c != "") printf "%.1f", c * 1e6 / k }')
            bad+=$(near "DRAM chase (ns)" "$s" "$n")
        fi
    else bad+="pointer_chase failed; "; fi
    if exe=$(micro fma_chain) && out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null); then
        s=$(awk '$2 == 200 { b = $3 } $2 == 100 { a = $3 } END { print b - a }' <<<"$out")
        n=$(( $(native_median "$native" fma_chain fma_chain 200) - $(native_median "$native" fma_chain fma_chain 100) ))
        bad+=$(near "100 dependent FMAs" "$s" "$n")
    else bad+="fma_chain failed; "; fi
    if exe=$(micro sfu_throughput) && out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null); then
        bad+=$(near "sfu" "$(awk '$1 == "sfu" { print $2 }' <<<"$out")" "$(native_median "$native" sfu_throughput sfu)")
    else bad+="sfu_throughput failed; "; fi
    if exe=$(micro bank_conflicts) && out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null); then
        # the cycles that 31 more wavefronts a load add over 128 loads
        s=$(awk '$2 == 32 { b = $3 } $2 == 1 { a = $3 } END { print b - a }' <<<"$out")
        n=$(( $(native_median "$native" bank_conflicts conflict 32) - $(native_median "$native" bank_conflicts conflict 1) ))
        bad+=$(near "32-way over 1-way" "$s" "$n")
    else bad+="bank_conflicts failed; "; fi
    if exe=$(micro atomic_contention) && out=$("$PTXSIM" run --timing --gpu=$gpu -- "$exe" 2>/dev/null); then
        for which in same distinct; do
            bad+=$(near "atomics $which" "$(awk -v w=$which '$2 == w { print $3 }' <<<"$out")" \
                "$(native_median "$native" atomic_contention atomics $which)")
        done
    else bad+="atomic_contention failed; "; fi
    if [ -z "$bad" ]; then pass "timing micro $gpu against its native run (chase shared/L1/L2$(grep -q '^beyond_l2:' "$native" && echo '/DRAM'), FMA, SFU, bank-conflict wavefronts, atomics within 15% of $native)"
    else fail "timing micro $gpu against its native run" "$bad"; fi
}
against_native h100 bench/micro/native/h100-sxm5-80gb.txt
against_native h200 bench/micro/native/h200.txt

# ---------------------------------------------------------------- published figures
# bench/micro/published/GPU.txt: what others measured on the real GPUs (pure-chase latencies, a
# DRAM-bound copy, the vendor's DRAM peak, each with its citation); every configuration with such
# a file stays within 15% of each figure marked "check" and under its "bound"
# (bench/micro/compare_published.py, which also prints the README's table).
if chase=$(micro pointer_chase) && copy=$(micro dram_copy); then
    for f in bench/micro/published/*.txt; do
        g=$(basename "$f" .txt)
        if out=$(python3 bench/micro/compare_published.py --ptxsim "$PTXSIM" --chase "$chase" \
                 --copy "$copy" "$g" 2>&1); then
            pass "timing micro $g against published figures ($(grep -c ': ok$' <<<"$out") figures of $f within 15% or under the peak)"
        else
            fail "timing micro $g against published figures" "$(grep -v -e ': ok$' -e 'not checked$' <<<"$out" | tr '\n' ' ')"
        fi
    done
else
    fail "timing micro against published figures" "nvcc failed"
fi

# ---------------------------------------------------------------- --gpu=FILE
# A copy of v100.gpu with a slower L2 takes more cycles; a broken copy is refused with its line.
exe=$(cuda_test_build tests/cuda/vector_add.cu shared "$work/va.build.log")
sed 's/^l2_latency\( *\)= *160 /l2_latency\1= 400 /' timing/configs/v100.gpu >"$work/slow_l2.gpu"
"$PTXSIM" run --timing --gpu=v100 --stats="$work/g1.json" -- "$exe" >/dev/null 2>&1; rc1=$?
"$PTXSIM" run --timing --gpu="$work/slow_l2.gpu" --stats="$work/g2.json" -- "$exe" >/dev/null 2>&1; rc2=$?
c1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["cycles"])' "$work/g1.json" 2>/dev/null)
c2=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["cycles"])' "$work/g2.json" 2>/dev/null)
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ -n "$c1" ] && [ -n "$c2" ] && [ "$c2" -gt "$c1" ]; then
    pass "timing --gpu=FILE (v100 $c1 cycles, its copy with a 400-cycle L2 $c2)"
else
    fail "timing --gpu=FILE" "exit $rc1/$rc2, cycles '$c1' and '$c2'"
fi
{ cat timing/configs/v100.gpu; echo "sm_count = 4  # twice"; } >"$work/broken.gpu"
out=$("$PTXSIM" run --timing --gpu="$work/broken.gpu" -- "$exe" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "broken.gpu:[0-9]*: \`sm_count\` given twice" <<<"$out"; then
    pass "timing --gpu=FILE refuses a broken description (file:line)"
else
    fail "timing --gpu=FILE refuses a broken description" "exit $rc: $(head -n 2 <<<"$out")"
fi

# The DRAM scheduler from the description: the DRAM copy on a copy of gtx480.gpu with
# dram_scheduler = fcfs hits open rows less often than with FR-FCFS (its own run above).
sed 's/^dram_scheduler\( *\)= *frfcfs /dram_scheduler\1= fcfs /' timing/configs/gtx480.gpu >"$work/fcfs.gpu"
if exe=$(micro dram_copy) && "$PTXSIM" run --timing --gpu="$work/fcfs.gpu" \
    --stats="$work/fcfs.json" -- "$exe" >/dev/null 2>&1; then
    verdict=$(python3 - "$work/copygtx480.json" "$work/fcfs.json" <<'PY'
import json, sys
fr, fc = (json.load(open(f))["total"]["timing"] for f in sys.argv[1:3])
rate = lambda t: t["dram_row_hits"] / max(1, t["dram_row_hits"] + t["dram_row_misses"])
if rate(fr) > rate(fc): print("ok row hits %.1f%% FR-FCFS, %.1f%% FCFS" % (100 * rate(fr), 100 * rate(fc)))
else: print("row hits %.1f%% FR-FCFS, %.1f%% FCFS" % (100 * rate(fr), 100 * rate(fc)))
PY
)
    if [[ $verdict == ok* ]]; then pass "timing dram_scheduler gtx480 dram copy (${verdict#ok })"
    else fail "timing dram_scheduler gtx480 dram copy" "$verdict"; fi
else
    fail "timing dram_scheduler gtx480 dram copy" "the fcfs run failed"
fi
}

programs_group >"$work/programs.lines" 2>&1 &
micro_group >"$work/micro.lines" 2>&1
wait
cat "$work/programs.lines" "$work/micro.lines"
