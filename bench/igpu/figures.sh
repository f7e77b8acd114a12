#!/usr/bin/env bash
# figures.sh: the iGPU paper's figures (Menon et al., ISCA 2012; spec igpu.md S-7) in simulated
# cycles (issue 16). Compiles the benchmarks (repo CUDA programs and bench/igpu/igpu_kinds.cu,
# compute kernels of the paper's kinds), runs them with --timing on --gpu=gtx480 (a GPGPU-Sim
# configuration, as the paper's simulator) and prints Markdown tables, with PNG plots from
# `ptxsim plot`, of:
#   1. dynamic region sizes (p25/p50/p75/max warp instructions) and live-ins per boundary
#      (p50/max) (the paper's Figs. 7 and 8)
#   2. the overhead of regions and state preservation: cycles with --igpu (no fault; continuous
#      spilling's pushes issued) over cycles without (Fig. 9)
#   3. paging at one fault per 10^6 warp instructions (S-7.5): measured with faults injected at
#      10^-3 per warp instruction costing a page fault's latency (kind=page), the cost per
#      fault extrapolated linearly to 10^-6 (at 10^-6 these short programs take no fault)
#   4. speculation (timing-error recovery) at 1%, 0.1% and 0.01% errors per warp instruction,
#      compiler overhead included (Fig. 10)
# Every benchmark checks itself against a CPU reference; a run whose check failed is reported.
# From a clean checkout it runs make first (B=build).
# Environment: B (build dir, default build), NVCC, PTXSIM_CUDA_CACHE, SCALE=small|full
# (default small: about a minute on 2 cores; full: the kernels at 2-4x their sizes), JOBS (runs
# at a time, default 2), OUT (results, default $B/bench-logs/igpu/figures).
# Flag --quick: two benchmarks (a smoke check of the script, make check's igpu_figures suite).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
JOBS=${JOBS:-2}
SCALE=${SCALE:-small}
QUICK=0
[ "${1:-}" = --quick ] && QUICK=1
PTXSIM=$B/bin/ptxsim
OUT=${OUT:-$B/bench-logs/igpu/figures}
GPU=gtx480
if [ ! -x "$PTXSIM" ] && [ "$B" = build ]; then nice make -j"$JOBS" >&2 || exit 1; fi
[ -x "$PTXSIM" ] || { echo "figures: no ptxsim at $PTXSIM (run make first)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
export PTXSIM_CUDA_CACHE=${PTXSIM_CUDA_CACHE:-$B/cuda-cache}

# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
src=bench/igpu/igpu_kinds.cu
kinds=$(NVCC=$NVCC cuda_cache_build bench_igpu_kinds.shared "$OUT/nvcc-igpu_kinds.txt" \
            "-cudart shared -Wno-deprecated-gpu-targets $src" "$src") ||
    { echo "figures: nvcc failed for $src (see $OUT/nvcc-igpu_kinds.txt)" >&2; exit 1; }
progs="vector_add matmul_tiled reduction scan bitonic_sort histogram256 transpose nbody"
names="cp lps nn nqu"
[ "$QUICK" = 1 ] && progs=vector_add && names=cp
case $SCALE in
small) ks=1 ;;
full) ks=2 ;;
*) echo "figures: SCALE must be small or full" >&2; exit 2 ;;
esac
apps=""
for p in $progs; do
    exe=$(NVCC=$NVCC cuda_test_build "tests/cuda/$p.cu" shared "$OUT/nvcc-$p.txt") ||
        { echo "figures: nvcc failed for tests/cuda/$p.cu (see $OUT/nvcc-$p.txt)" >&2; exit 1; }
    apps+="$p: $exe
"
done
for k in $names; do apps+="$k: $kinds $k $ks
"; done
printf '%s' "$apps" >"$OUT/apps.txt"

failed=0
sweep() {   # sweep NAME OPTIONS...: one ptxsim sweep over all benchmarks into $OUT/NAME
    local name=$1
    shift
    if ! nice "$PTXSIM" sweep --out="$OUT/$name" --apps="$OUT/apps.txt" --on=local:"$JOBS" \
             --timing --gpu=$GPU "$@" >"$OUT/$name.log" 2>&1; then
        echo "figures: sweep $name had failed runs (see $OUT/$name.log, $OUT/$name/summary.csv)" >&2
        failed=1
    fi
    local bad
    bad=$(grep -l "^FAIL" "$OUT/$name"/runs/*/stdout 2>/dev/null | wc -l)
    [ "$bad" = 0 ] || { echo "figures: $bad runs of $name printed FAIL (CPU reference)" >&2; failed=1; }
}
plot() {    # plot NAME ARGS...: a PNG of $OUT/NAME's summary (errors reported, not fatal)
    local name=$1
    shift
    "$PTXSIM" plot "$OUT/$name" "$@" >>"$OUT/plots.log" 2>&1 ||
        echo "figures: ptxsim plot $name failed (see $OUT/plots.log)" >&2
}

start=$(date +%s)
sweep base --igpu=off
# one sweep for the regions (no fault) and the speculation rates
sweep spec --igpu=on --fault-inject=off,instr-rate=0.0001,instr-rate=0.001,instr-rate=0.01
# paging: faults injected as page faults (the comma of kind=page would split a sweep's values)
while read -r line; do
    [ -n "$line" ] || continue
    name=${line%%:*}
    # shellcheck disable=SC2086
    printf '%s\0' "nice $PTXSIM run --timing --gpu=$GPU --igpu=on --fault-inject=instr-rate=0.001,seed=1,kind=page --stats=$OUT/paging-$name.json -- ${line#*: } >$OUT/paging-$name.out 2>&1"
done <"$OUT/apps.txt" | xargs -0 -r -P "$JOBS" -n 1 sh -c
for f in "$OUT"/paging-*.out; do
    grep -q '^FAIL' "$f" && { echo "figures: $f printed FAIL (CPU reference)" >&2; failed=1; }
done

plot spec --x=app --y=cycles --group=fault-inject --baseline=fault-inject=off \
    --title="cycles / no fault, by error rate per warp instruction ($GPU)" --out="$OUT/speculation.png"
plot spec --x=app --y=igpu.region_size.p50 --group=fault-inject \
    --title="median dynamic region size (warp instructions)" --out="$OUT/region_size.png"
plot spec --x=app --y=igpu.liveins.p50 --group=fault-inject \
    --title="median live-ins per boundary" --out="$OUT/liveins.png"

# everything below from the two summaries and the paging runs' statistics
python3 - "$OUT" <<'PY'
import csv, json, math, os, sys
out = sys.argv[1]

def rows(name):
    with open(os.path.join(out, name, "summary.csv")) as f:
        return [r for r in csv.DictReader(f)]

def num(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return float("nan")

base = {r["app"]: r for r in rows("base") if r["status"] == "0"}
spec = {}
for r in rows("spec"):
    if r["status"] == "0":
        spec.setdefault(r["app"], {})[r["fault-inject"]] = r
apps = [a for a in base if a in spec and "off" in spec[a]]

def gmean(xs):
    xs = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")

print("## 1. Dynamic region sizes and live-ins (no fault; paper Figs. 7-8)\n")
print("| benchmark | warp instructions | boundaries crossed | region p25 | p50 | p75 | max | live-ins p50 | max |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for a in apps:
    r = spec[a]["off"]
    g = lambda k: int(num(r, "stats.igpu." + k))
    print(f"| {a} | {int(num(r, 'stats.warp_instructions'))} | {g('boundaries')} | {g('region_size.p25')} | "
          f"{g('region_size.p50')} | {g('region_size.p75')} | {g('region_size.max')} | "
          f"{g('liveins.p50')} | {g('liveins.max')} |")
print()

print("## 2. Overhead of regions and state preservation (no fault; paper Fig. 9)\n")
print("Cycles with `--igpu=on` (continuous spilling's pushes of each boundary's live-ins issued) "
      "over cycles without; `CS instructions` is the pushes per warp instruction.\n")
print("| benchmark | cycles, no iGPU | cycles, iGPU | overhead | CS instructions |")
print("|---|---:|---:|---:|---:|")
ov = []
for a in apps:
    c0, c1 = num(base[a], "stats.cycles"), num(spec[a]["off"], "stats.cycles")
    ov.append(c1 / c0)
    print(f"| {a} | {int(c0)} | {int(c1)} | {100 * (c1 / c0 - 1):.1f}% | "
          f"{100 * num(spec[a]['off'], 'stats.igpu.spill_overhead'):.1f}% |")
print(f"| geometric mean | | | {100 * (gmean(ov) - 1):.1f}% | |\n")

print("## 3. Paging at one fault per 10^6 warp instructions (paper S-7.5)\n")
print("Measured with faults injected at 10^-3 per warp instruction, each costing "
      "`igpu_page_fault_latency` (kind=page); the cost per fault (extra cycles over the "
      "fault-free iGPU run, re-execution included) scaled to 10^-6 faults per warp instruction "
      "of the fault-free run, over its cycles without iGPU.\n")
print("| benchmark | faults | extra cycles | cycles per fault | overhead at 10^-6 |")
print("|---|---:|---:|---:|---:|")
pv = []
for a in apps:
    p = os.path.join(out, f"paging-{a}.json")
    try:
        t = json.load(open(p))["total"]
    except (OSError, ValueError, KeyError):
        print(f"| {a} | n/a | | | |")
        continue
    c_off, c0 = num(spec[a]["off"], "stats.cycles"), num(base[a], "stats.cycles")
    n = t["igpu"]["faults_injected"]
    extra = t["cycles"] - c_off
    if n == 0:
        print(f"| {a} | 0 | {int(extra)} | n/a | n/a |")
        continue
    per = extra / n
    o = per * num(spec[a]["off"], "stats.warp_instructions") * 1e-6 / c0
    pv.append(o)
    print(f"| {a} | {n} | {int(extra)} | {per:.0f} | {100 * o:.3f}% |")
if pv:
    print(f"| mean | | | | {100 * sum(pv) / len(pv):.3f}% |")
print()

print("## 4. Speculation: cycles at error rates per warp instruction, over cycles without iGPU "
      "(compiler overhead included; paper Fig. 10)\n")
rates = [("instr-rate=0.01", "1%"), ("instr-rate=0.001", "0.1%"), ("instr-rate=0.0001", "0.01%")]
print("| benchmark | " + " | ".join(f"{l} (restarts)" for _, l in rates) + " |")
print("|---|" + "---:|" * len(rates))
gm = {k: [] for k, _ in rates}
for a in apps:
    c0 = num(base[a], "stats.cycles")
    cells = []
    for k, _ in rates:
        r = spec[a].get(k)
        if not r:
            cells.append("n/a")
            continue
        c = num(r, "stats.cycles")
        gm[k].append(c / c0)
        cells.append(f"{100 * (c / c0 - 1):.1f}% ({int(num(r, 'stats.igpu.restarts'))})")
    print(f"| {a} | " + " | ".join(cells) + " |")
print("| geometric mean | " + " | ".join(f"{100 * (gmean(gm[k]) - 1):.1f}%" for k, _ in rates) + " |")
print()
PY
[ $? -eq 0 ] || failed=1
echo "Plots: $OUT/speculation.png, $OUT/region_size.png, $OUT/liveins.png."
echo
echo "figures: $(($(date +%s) - start)) s, SCALE=$SCALE, GPU $GPU" >&2
exit $failed
