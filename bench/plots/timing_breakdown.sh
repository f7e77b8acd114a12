#!/usr/bin/env bash
# timing_breakdown.sh: the cycle model's issue-slot breakdown of each kernel as a stacked bar
# chart (PNG, gnuplot), from one or more --timing --stats=FILE.json files.
#
#   bench/plots/timing_breakdown.sh OUT.png STATS.json [STATS.json ...]
#
# One bar per kernel (per file, labelled FILE:KERNEL when several files are given), the share
# of its scheduler issue slots that issued and of each stall reason (idle, scoreboard, pipeline,
# memory, barrier, control), as `ptxsim run --timing` counts them. The data (.dat) and the
# gnuplot script (.gp) are written beside the PNG to restyle.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT.png STATS.json [STATS.json ...]" >&2; exit 2; }
out=$1
shift
dat=${out%.png}.dat
gp=${out%.png}.gp
python3 - "$dat" "$@" <<'PY'
import json, sys
dat, files = sys.argv[1], sys.argv[2:]
reasons = ["issued", "idle", "scoreboard", "pipeline", "memory", "barrier", "control"]
rows = []
for f in files:
    d = json.load(open(f))
    for k in d["kernels"]:
        t = k.get("timing")
        if not t:
            continue
        slots = t["issue_slots"]
        total = sum(slots.get(r, 0) for r in reasons) or 1
        name = k["name"].split("(")[0]
        label = (f.rsplit("/", 1)[-1].rsplit(".", 1)[0] + ":" + name) if len(files) > 1 else name
        rows.append([label.replace(" ", "_")] + ["%.4f" % (100.0 * slots.get(r, 0) / total) for r in reasons])
if not rows:
    sys.exit("no kernel with --timing statistics in " + ", ".join(files))
with open(dat, "w") as o:
    o.write("kernel " + " ".join(reasons) + "\n")
    for r in rows:
        o.write(" ".join(r) + "\n")
PY
cat >"$gp" <<GP
set terminal pngcairo size 1000,600 noenhanced
set output '$out'
set title 'issue slots by outcome (ptxsim --timing)'
set ylabel '% of scheduler issue slots'
set yrange [0:100]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set key outside right
set xtics rotate by -30
plot for [c=2:8] '$dat' using c:xtic(1) title columnheader(c)
GP
gnuplot "$gp"
echo "$out"
