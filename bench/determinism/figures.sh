#!/usr/bin/env bash
# figures.sh: the determinism papers' figures in simulated cycles (issue 14). Compiles the
# benchmarks of this folder, runs them with --timing through `ptxsim sweep` on the papers'
# configurations (--gpu=titanv for DAB, --gpu=gtx480 for GPUDet; each mode on both so that
# GPUDet/DAB compares like with like) and prints Markdown tables, with PNG plots from
# `ptxsim plot`, of:
#   1. DAB and GPUDet cycles normalised to the nondeterministic baseline (--det=off)
#   2. GPUDet's mode breakdown (parallel/commit/serial/barrier cycles, timing.gpudet)
#   3. DAB's scheduler policies (gwat/gtar/gtrr/srr), normalised to gwat
#   4. DAB's buffer size (32..256 entries), normalised to 64 (the default)
#   5. DAB's atomic fusion and flush coalescing off, normalised to on
#   6. GPUDet's quantum size, normalised to 200 (the default)
# Every benchmark checks itself against a CPU reference; a run whose check failed is reported.
# From a clean checkout it runs make first (B=build).
# Environment: B (build dir, default build), NVCC, PTXSIM_CUDA_CACHE, SCALE=small|full
# (default small: about 30 s on 2 cores; FULL=1 is SCALE=full, larger inputs: the graphs 16x,
# the convolutions at 1/2 size, batch 4 (the paper: 1/1, batch 16, about 100 s a run), minutes),
# JOBS (runs at a time, default 2), OUT (results, default $B/bench-logs/determinism/figures).
# Flag --quick: one benchmark, DAB and GPUDet against off only (a smoke check of the script).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
JOBS=${JOBS:-2}
SCALE=${SCALE:-small}
[ "${FULL:-0}" = 1 ] && SCALE=full
QUICK=0
[ "${1:-}" = --quick ] && QUICK=1
PTXSIM=$B/bin/ptxsim
OUT=${OUT:-$B/bench-logs/determinism/figures}
if [ ! -x "$PTXSIM" ] && [ "$B" = build ]; then nice make -j"$JOBS" >&2 || exit 1; fi
[ -x "$PTXSIM" ] || { echo "figures: no ptxsim at $PTXSIM (run make first)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
export PTXSIM_CUDA_CACHE=${PTXSIM_CUDA_CACHE:-$B/cuda-cache}

# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
declare -A EXE
progs="pagerank bc conv_wgrad gpudet_kinds"
[ "$QUICK" = 1 ] && progs=pagerank
for p in $progs; do
    src=bench/determinism/$p.cu
    EXE[$p]=$(NVCC=$NVCC cuda_cache_build "bench_$p.shared" "$OUT/nvcc-$p.txt" \
                  "-cudart shared -Wno-deprecated-gpu-targets $src" "$src") ||
        { echo "figures: nvcc failed for $src (see $OUT/nvcc-$p.txt)" >&2; exit 1; }
done

if [ "$QUICK" = 1 ]; then
    apps="pagerank: ${EXE[pagerank]} 1024 4 2"
    SCALE=quick
else
case $SCALE in
small)
    apps="pagerank: ${EXE[pagerank]} 4096 8 3
bc: ${EXE[bc]} 1024 8 4
conv_wgrad_cnv2_2: ${EXE[conv_wgrad]} cnv2_2 4 2
conv_wgrad_cnv3_3: ${EXE[conv_wgrad]} cnv3_3 4 2"
    kinds_scale=1 ;;
full)
    apps="pagerank: ${EXE[pagerank]} 65536 8 5
bc: ${EXE[bc]} 16384 8 8
conv_wgrad_cnv2_2: ${EXE[conv_wgrad]} cnv2_2 2 4
conv_wgrad_cnv3_3: ${EXE[conv_wgrad]} cnv3_3 2 4"
    kinds_scale=8 ;;
*) echo "figures: SCALE must be small or full" >&2; exit 2 ;;
esac
for k in hashtable bank cloth bfs stencil aes; do
    apps+="
$k: ${EXE[gpudet_kinds]} $k $kinds_scale"
done
fi
printf '%s\n' "$apps" >"$OUT/apps.txt"

sweep() {   # sweep NAME OPTIONS...: one ptxsim sweep over all benchmarks into $OUT/NAME
    local name=$1
    shift
    if ! nice "$PTXSIM" sweep --out="$OUT/$name" --apps="$OUT/apps.txt" --on=local:"$JOBS" \
             --timing "$@" >"$OUT/$name.log" 2>&1; then
        echo "figures: sweep $name had failed runs (see $OUT/$name.log, $OUT/$name/summary.csv)" >&2
        failed=1
    fi
}
plot() {    # plot NAME ARGS...: a PNG of $OUT/NAME's summary (errors reported, not fatal)
    local name=$1
    shift
    "$PTXSIM" plot "$OUT/$name" "$@" >>"$OUT/plots.log" 2>&1 ||
        echo "figures: ptxsim plot $name failed (see $OUT/plots.log)" >&2
}

# table SWEEP AXIS BASE STAT [ONLY]: Markdown table, one row per benchmark, one column per
# value of AXIS (or of the comma list ONLY): STAT divided by STAT at AXIS=BASE, with the
# geometric mean over benchmarks.
table() {
    awk -F, -v axis="$2" -v base="$3" -v stat="$4" -v only="${5:-}" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            a = $col["app"]; v = $col[axis]
            if (!(a in seen)) { seen[a] = 1; apps[++na] = a }
            if (!(v in vseen) && (only == "" || index("," only ",", "," v ",") || v == base)) { vseen[v] = 1; vals[++nv] = v }
            val[a, v] = ($col["status"] == "0") ? $col[stat] : "fail"
        }
        END {
            printf "| benchmark | %s=%s (%s) |", axis, base, stat
            for (j = 1; j <= nv; j++) if (vals[j] != base) printf " %s |", vals[j]
            printf "\n|---|---:|"
            for (j = 1; j <= nv; j++) if (vals[j] != base) printf "---:|"
            printf "\n"
            for (i = 1; i <= na; i++) {
                a = apps[i]; b = val[a, base]
                printf "| %s | %s |", a, b
                for (j = 1; j <= nv; j++) {
                    v = vals[j]
                    if (v == base) continue
                    if (b == "fail" || val[a, v] == "fail" || b + 0 == 0) { printf " %s |", "n/a"; continue }
                    r = val[a, v] / b; printf " %.2fx |", r
                    lg[v] += log(r); n[v]++
                }
                printf "\n"
            }
            printf "| geometric mean | |"
            for (j = 1; j <= nv; j++) {
                v = vals[j]
                if (v == base) continue
                if (n[v]) printf " %.2fx |", exp(lg[v] / n[v]); else printf " n/a |"
            }
            printf "\n"
        }' "$OUT/$1/summary.csv"
}

# modes SWEEP: GPUDet's cycles by mode (timing.gpudet) for the runs with det=gpudet.
modes() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["det"] == "gpudet" && $col["status"] == "0" {
            c = $col["stats.cycles"]; p = "stats.timing.gpudet."
            if (!hdr++) printf "| benchmark | cycles | parallel | commit | serial | barrier | quanta |\n|---|---:|---:|---:|---:|---:|---:|\n"
            printf "| %s | %d | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %d |\n", $col["app"], c,
                100 * $col[p "parallel_cycles"] / c, 100 * $col[p "commit_cycles"] / c,
                100 * $col[p "serial_cycles"] / c, 100 * $col[p "barrier_cycles"] / c,
                $col["stats.gpudet.quanta"]
        }' "$OUT/$1/summary.csv"
}

# checks SWEEP: benchmarks whose self-check against the CPU reference failed.
checks() {
    local bad
    bad=$(grep -l "FAIL" "$OUT/$1"/runs/*/stdout 2>/dev/null | wc -l)
    [ "$bad" = 0 ] || { echo "figures: $bad runs of $1 printed FAIL (CPU reference)" >&2; failed=1; }
}

failed=0
start=$(date +%s)
echo "# Determinism in cycles (bench/determinism/figures.sh, SCALE=$SCALE, $(git rev-parse --short HEAD 2>/dev/null))"
echo
echo "Inputs (apps file, \`NAME: program args\`):"
echo
sed 's|: [^ ]*/bench_\([a-z_]*\)\.shared\.[0-9a-f]* |: \1 |; s|^|    |' "$OUT/apps.txt"
echo

for g in titanv gtx480; do
    sweep "modes_$g" --gpu=$g --det=off,dab,gpudet
    checks "modes_$g"
    plot "modes_$g" --x=app --y=cycles --group=det --baseline=det=off --title="cycles / det=off, $g" \
        --out="$OUT/modes_$g.png"
done
echo "## 1. Cycles normalised to --det=off: DAB on titanv (the DAB paper's GPU), GPUDet on gtx480 (GPUDet's)"
echo
for g in titanv gtx480; do
    echo "### $g"
    echo
    table "modes_$g" det off stats.cycles
    echo
done
echo "### GPUDet / DAB (same GPU)"
echo
for g in titanv gtx480; do
    echo "$g:"
    echo
    table "modes_$g" det dab stats.cycles gpudet
    echo
done
echo "## 2. GPUDet's cycles by mode (gtx480; share of all cycles)"
echo
modes modes_gtx480
echo

if [ "$QUICK" = 0 ]; then
    sweep dab_sched --gpu=titanv --det=dab --dab-scheduler=gwat,gtar,gtrr,srr
    sweep dab_entries --gpu=titanv --det=dab --dab-entries=32,64,128,256
    sweep dab_fusion --gpu=titanv --det=dab --dab-fusion=on,off
    sweep dab_coalescing --gpu=titanv --det=dab --dab-coalescing=on,off
    sweep gpudet_quantum --gpu=gtx480 --det=gpudet --quantum=100,200,600,1000,2000
    sweep dab_buffers --gpu=titanv --det=dab --dab-buffers=scheduler,warp
    sweep dab_gating --gpu=titanv --det=dab --dab-sms=0,72
    sweep dab_offset --gpu=titanv --det=dab --dab-offset-flush=off,on
    sweep dab_limit --gpu=titanv --det=dab --dab-limit=off,nr,nr-of
    sweep gpudet_commit --gpu=gtx480 --det=gpudet --gpudet-commit=zbuffer,lock
    for s in dab_sched dab_entries dab_fusion dab_coalescing gpudet_quantum dab_buffers dab_gating \
             dab_offset dab_limit gpudet_commit; do checks $s; done
    plot dab_sched --x=app --y=cycles --group=dab-scheduler --baseline=dab-scheduler=gwat --out="$OUT/dab_sched.png"
    plot dab_entries --x=app --y=cycles --group=dab-entries --baseline=dab-entries=64 --out="$OUT/dab_entries.png"
    plot dab_fusion --x=app --y=cycles --group=dab-fusion --baseline=dab-fusion=on --out="$OUT/dab_fusion.png"
    plot dab_coalescing --x=app --y=cycles --group=dab-coalescing --baseline=dab-coalescing=on --out="$OUT/dab_coalescing.png"
    plot gpudet_quantum --x=quantum --y=cycles --group=app --baseline=quantum=200 --kind=line --out="$OUT/gpudet_quantum.png"
    plot dab_limit --x=app --y=cycles --group=dab-limit --baseline=dab-limit=off --out="$OUT/dab_limit.png"
    plot gpudet_commit --x=app --y=cycles --group=gpudet-commit --baseline=gpudet-commit=zbuffer --out="$OUT/gpudet_commit.png"

    echo "## 3. DAB's scheduler policies (titanv; cycles / gwat)"
    echo
    table dab_sched dab-scheduler gwat stats.cycles
    echo
    echo "## 4. DAB's buffer size in entries (titanv; cycles / 64 entries)"
    echo
    table dab_entries dab-entries 64 stats.cycles
    echo
    echo "Flushes / flushes at 64 entries:"
    echo
    table dab_entries dab-entries 64 stats.dab.flushes
    echo
    echo "## 5. DAB's atomic fusion and flush coalescing (titanv; cycles / on)"
    echo
    table dab_fusion dab-fusion on stats.cycles
    echo
    table dab_coalescing dab-coalescing on stats.cycles
    echo
    echo "## 6. GPUDet's quantum size (gtx480; cycles / quantum 200)"
    echo
    table gpudet_quantum quantum 200 stats.cycles
    echo
    echo "## 7. DAB's buffer granularity (titanv; cycles / WarpGTO, a buffer per warp)"
    echo
    table dab_buffers dab-buffers warp stats.cycles
    echo
    echo "## 8. DAB's SM gating and offset flushing (titanv; cycles / all 80 SMs, / off)"
    echo
    table dab_gating dab-sms 0 stats.cycles
    echo
    table dab_offset dab-offset-flush off stats.cycles
    echo
    echo "## 9. DAB's limitation study (titanv; cycles / DAB; timing relaxations only)"
    echo
    table dab_limit dab-limit off stats.cycles
    echo
    echo "## 10. GPUDet's commit: Z-buffer against locks (gtx480; cycles / zbuffer)"
    echo
    table gpudet_commit gpudet-commit zbuffer stats.cycles
    echo
    echo "Commit-mode cycles / zbuffer:"
    echo
    table gpudet_commit gpudet-commit zbuffer stats.timing.gpudet.commit_cycles
    echo
fi
pngs=("$OUT"/*.png)
echo "PNG plots (${#pngs[@]}, in $OUT): $(for f in "${pngs[@]}"; do printf '%s ' "${f##*/}"; done)"
echo "figures: $(($(date +%s) - start)) s, SCALE=$SCALE"
exit "$failed"
