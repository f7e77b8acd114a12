#!/usr/bin/env bash
# Smoke check of bench/determinism/figures.sh (issue 14): its --quick mode (one small PageRank,
# --det=off/dab/gpudet --timing on titanv and gtx480, about a second) ends with status 0, prints
# the normalised tables and GPUDet's mode breakdown, the modes add up to the cycles, and
# `ptxsim plot` wrote the PNGs. Not in check-quick. Environment: B, NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
LOGS=$B/test-logs/dab_figures
mkdir -p "$LOGS"
OUTDIR=$LOGS/out
log=$LOGS/figures-quick.md

if OUT=$OUTDIR B=$B JOBS=1 bash bench/determinism/figures.sh --quick >"$log" 2>"$LOGS/stderr.txt"; then
    echo "PASS dab_figures/quick_runs"
else
    echo "FAIL dab_figures/quick_runs: status $? (see $log, $LOGS/stderr.txt)"
fi

for g in titanv gtx480; do
    # a row "| pagerank | CYCLES | DABx | GPUDETx |" under the GPU's heading, ratios > 0
    if awk -v g="### $g" '$0 == g { on = 1; next } /^###/ { on = 0 }
            on && /^\| pagerank \| [0-9]+ \| [0-9.]+x \| [0-9.]+x \|$/ { ok = 1 } END { exit !ok }' "$log"; then
        echo "PASS dab_figures/table_$g"
    else
        echo "FAIL dab_figures/table_$g: no normalised pagerank row (see $log)"
    fi
done

# GPUDet's four modes are the whole of its cycles (within the table's rounding)
sum=$(awk -F'|' '/^\| pagerank \| [0-9]+ \| [0-9]+%/ {
        s = 0; for (i = 4; i <= 7; i++) { v = $i; gsub(/[ %]/, "", v); s += v } print s }' "$log")
if [ -n "$sum" ] && [ "$sum" -ge 97 ] && [ "$sum" -le 103 ]; then
    echo "PASS dab_figures/modes_sum"
else
    echo "FAIL dab_figures/modes_sum: modes add up to '${sum}'% (see $log)"
fi

for png in modes_titanv modes_gtx480; do
    if [ -s "$OUTDIR/$png.png" ] && [ "$(head -c 4 "$OUTDIR/$png.png" | tail -c 3)" = PNG ]; then
        echo "PASS dab_figures/plot_$png"
    else
        echo "FAIL dab_figures/plot_$png: no PNG at $OUTDIR/$png.png"
    fi
done
