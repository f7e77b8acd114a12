#!/usr/bin/env bash
# Smoke check of bench/igpu/figures.sh (issue 16): its --quick mode (vector_add and the cp
# kernel, --timing on gtx480, a few seconds) ends with status 0, prints the four tables with a
# row per benchmark (region sizes, overhead, paging, speculation at 1%/0.1%/0.01%), the
# speculation overhead grows with the error rate for cp, and `ptxsim plot` wrote the PNGs.
# Environment: B, NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
LOGS=$B/test-logs/igpu_figures
mkdir -p "$LOGS"
OUTDIR=$LOGS/out
log=$LOGS/figures-quick.md

if OUT=$OUTDIR B=$B JOBS=1 bash bench/igpu/figures.sh --quick >"$log" 2>"$LOGS/stderr.txt"; then
    echo "PASS igpu_figures/quick_runs"
else
    echo "FAIL igpu_figures/quick_runs: status $? (see $log, $LOGS/stderr.txt)"
fi

row() {   # NAME SECTION PATTERN: a row of the section's table matches PATTERN
    if awk -v s="## $2." 'index($0, s) == 1 { on = 1; next } /^## / { on = 0 } on' "$log" |
        grep -Eq -- "$3"; then
        echo "PASS igpu_figures/$1"
    else
        echo "FAIL igpu_figures/$1: no row matching '$3' in section $2 (see $log)"
    fi
}
row regions_vector_add 1 '^\| vector_add \| [1-9][0-9]* \| [1-9][0-9]* \| [0-9]+ \| [1-9][0-9]* \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \|$'
row regions_cp 1 '^\| cp \| [1-9][0-9]* \| [1-9][0-9]* \|'
row overhead_cp 2 '^\| cp \| [1-9][0-9]* \| [1-9][0-9]* \| -?[0-9.]+% \| [0-9.]+% \|$'
row paging_cp 3 '^\| cp \| [0-9]+ \| -?[0-9]+ \| '
row speculation_cp 4 '^\| cp \| -?[0-9.]+% \([0-9]+\) \| -?[0-9.]+% \([0-9]+\) \| -?[0-9.]+% \([0-9]+\) \|$'

# cp's overhead at 1% is above its overhead at 0.01%: more errors, more re-execution
read -r hi lo < <(awk -F'|' '/^\| cp \| -?[0-9.]+% \(/ { a = $3; b = $5; gsub(/[ %]|\(.*\)/, "", a); gsub(/[ %]|\(.*\)/, "", b); print a, b }' "$log")
if [ -n "${hi:-}" ] && awk -v h="$hi" -v l="$lo" 'BEGIN { exit !(h > l) }'; then
    echo "PASS igpu_figures/speculation_grows_with_rate ($lo% at 0.01%, $hi% at 1%)"
else
    echo "FAIL igpu_figures/speculation_grows_with_rate: '${lo:-}' at 0.01%, '${hi:-}' at 1%"
fi

for png in speculation region_size liveins; do
    if [ -s "$OUTDIR/$png.png" ] && [ "$(head -c 4 "$OUTDIR/$png.png" | tail -c 3)" = PNG ]; then
        echo "PASS igpu_figures/plot_$png"
    else
        echo "FAIL igpu_figures/plot_$png: no PNG at $OUTDIR/$png.png"
    fi
done
