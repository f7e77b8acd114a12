#!/usr/bin/env bash
# Smoke check of bench/tm/figures.sh (issue 15): its --quick mode (HT-H and ATM in their three
# builds, --tm=kilotm --timing on gtx480, the default and a perfect LWH; seconds) ends with
# status 0, prints KILO TM's performance against fine-grained locks and the global lock with a
# ratio equal to the cycles it shows, the LWH table and the commit-unit table, and `ptxsim plot`
# wrote the PNGs. Not in check-quick. Environment: B, NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
LOGS=$B/test-logs/tm_figures
mkdir -p "$LOGS"
OUTDIR=$LOGS/out
log=$LOGS/figures-quick.md

if OUT=$OUTDIR B=$B JOBS=1 bash bench/tm/figures.sh --quick >"$log" 2>"$LOGS/stderr.txt"; then
    echo "PASS tm_figures/quick_runs"
else
    echo "FAIL tm_figures/quick_runs: status $? (see $log, $LOGS/stderr.txt)"
fi

# "| ATM | TM | FGL | GL | FGL/TM | GL/TMx |": the ratios are the cycles' (to the table's rounding)
for b in HT-H ATM; do
    if awk -F'|' -v b=" $b " '$2 == b && $3 ~ /[0-9]/ {
            t = $3 + 0; f = $4 + 0; g = $5 + 0; r1 = $6 + 0; r2 = $7; sub(/x/, "", r2)
            ok = ok || t > 0 && (r1 - f / t) ^ 2 < 0.0001 && (r2 - g / t) ^ 2 < 0.0001 && g > t } END { exit !ok }' "$log"; then
        echo "PASS tm_figures/builds_$b"
    else
        echo "FAIL tm_figures/builds_$b: no row with KILO TM / FG locks and / serial (see $log)"
    fi
done
# the LWH table: the default column is 1.00x, and the commit-unit table has every benchmark
if grep -q '^| HT-H | [0-9.]*x | 1.00x |' "$log" && grep -q '^| ATM | [0-9]* | [0-9]* | [0-9.]* / [0-9]* |' "$log"; then
    echo "PASS tm_figures/lwh_and_commit_units"
else
    echo "FAIL tm_figures/lwh_and_commit_units: tables 4 or 5 missing (see $log)"
fi
for png in builds lwh; do
    if [ -s "$OUTDIR/$png.png" ] && [ "$(head -c 4 "$OUTDIR/$png.png" | tail -c 3)" = PNG ]; then
        echo "PASS tm_figures/plot_$png"
    else
        echo "FAIL tm_figures/plot_$png: no PNG at $OUTDIR/$png.png"
    fi
done
